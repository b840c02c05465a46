"""A simulated deal as a person reads it (``binokel-sim play --format text``): the hands by
seat grouped by suit, the auction or the talon, the widow's handling, every trick with who
played each card and who won it, and the scores; at most 80 columns a line.

It reads the JSON-ready record of any engine family (docs/rules.md, "Records"), so it shows
exactly what the JSON and Parquet records hold."""

from __future__ import annotations

import textwrap

from binokel_sim.cards import N_SUITS, notation, parse_card, type_rank, type_suit
from binokel_sim.variants import Rules

WIDTH = 80


def deal_text(record: dict, rules: Rules) -> str:
    """The deal of ``record`` (a record of ``rules``' engine family) as lines of text."""
    if "stock" in record:
        body = _sixty_six(record, rules)
    elif "talon" in record:
        body = _talon(record, rules)
    elif "widow" in record:
        body = _widow(record, rules)
    else:
        body = _partnership(record, rules)
    head = (f"deal {record['deal']}, {rules.name}, dealer seat {record['dealer']}")
    return "\n".join([head, "=" * len(head), *body]) + "\n"


# --- pieces -------------------------------------------------------------------------------------

def _wrap(text: str, indent: str = "", more: str | None = None) -> list[str]:
    """``text`` in lines of at most :data:`WIDTH` columns, continued lines indented deeper."""
    more = indent + "    " if more is None else more
    if len(indent) + len(text) <= WIDTH:  # most lines fit: no need for textwrap's work
        return [indent + text]
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=more,
                         break_on_hyphens=False) or [indent]


def _by_suit(cards: list[str]) -> str:
    """``AS TS KH`` -> ``S: A T   H: K`` (the record's cards are sorted S H D C, high first),
    in the current notation (German: ``Laub: A Z   Herz: K``)."""
    shown = notation()
    types = [parse_card(card) for card in cards]
    groups = []
    for suit in range(N_SUITS):
        ranks = [shown.ranks[type_rank(t)] for t in types if type_suit(t) == suit]
        if ranks:
            groups.append(f"{shown.suits[suit]}: {' '.join(ranks)}")
    return "   ".join(groups) if groups else "-"


def _hands(record: dict) -> list[str]:
    lines = ["hands:"]
    for seat, hand in enumerate(record["hands"]):
        mark = " (dealer)" if seat == record["dealer"] else ""
        lines += _wrap(_by_suit(hand), f"  seat {seat}{mark:<9}  ", " " * 21)
    return lines


def _calls(bids: list[dict]) -> str:
    """The calls as ``seat:bid``; a call of the bid just said (Skat-style, ``order = "skat"``)
    is that seat holding it: ``seat:holds bid``."""
    out, said = [], None
    for c in bids:
        if c["bid"] is None:
            out.append(f"{c['seat']}:pass")
        elif c["bid"] == said:
            out.append(f"{c['seat']}:holds {c['bid']}")
        else:
            out.append(f"{c['seat']}:{c['bid']}")
        said = None if c["bid"] == said else c["bid"]
    return ", ".join(out)


def _play(card: str, seat: int) -> str:
    return f"{card}({seat})"


def _tricks(record: dict, players: int, extra=None) -> list[str]:
    lines = ["tricks (card(seat) in play order):"] if record["tricks"] else []
    for k, trick in enumerate(record["tricks"], 1):
        leader = trick["leader"]
        cards = " ".join(_play(card, (leader + i) % players)
                         for i, card in enumerate(trick["cards"]))
        text = f"{k:>3}. {cards}  won by {trick['winner']}"
        if extra is not None:
            text += extra(trick)
        lines += _wrap(text, "", " " * 9)
    return lines


def _per_seat(values: list) -> str:
    return ", ".join(f"{seat} {value}" for seat, value in enumerate(values))


def _pairs(values: list) -> str:
    return f"0+2 {values[0]}, 1+3 {values[1]}"


# --- the families -------------------------------------------------------------------------------

def _partnership(record: dict, rules: Rules) -> list[str]:
    lines = _hands(record)
    lines += _wrap(f"auction (seat:bid): {_calls(record['bids'])}")
    bidder, bid, trump = record["bidder"], record["bid"], record["trump"]
    if trump is None:
        lines.append(f"seat {bidder} holds the bid at {bid} and may name no trump: the deal is "
                     f"lost before play")
    else:
        lines.append(f"seat {bidder} holds the bid at {bid} and names {trump} trump")
        lines += _wrap(f"melds by seat: {_per_seat(record['melds'])}")
    lines += _tricks(record, rules.players)
    lines.append(f"card points by pair: {_pairs(record['play_points'])}")
    lines.append(f"scores by pair: {_pairs(record['scores'])}")
    return lines


def _talon(record: dict, rules: Rules) -> list[str]:
    lines = _hands(record)
    talon = record["talon"]
    lines += _wrap(f"talon (draw order): {' '.join(talon)}")
    turned = f"turned card {talon[-1]}: {record['trump']} trump"
    if record["turned_dix"]:
        turned += f" (a dix: {rules.turned_bonus} to the dealer)"
    lines.append(turned)
    players = rules.players

    def declared(trick: dict) -> str:
        text = ""
        d = trick["declaration"]
        if d is not None:
            text += (f"; {trick['winner']} declares {d['meld']} {' '.join(d['cards'])} "
                     f"({d['points']})")
            if d["swap"]:
                text += " and swaps the nine for the turned card"
        if trick["draws"]:
            draws = " ".join(_play(card, (trick["winner"] + i) % players)
                             for i, card in enumerate(trick["draws"]))
            text += f"; draws {draws}"
        return text

    lines += _tricks(record, players, declared)
    lines.append(f"card points by seat: {_per_seat(record['card_points'])}")
    lines.append(f"meld points by seat: {_per_seat(record['meld_points'])}")
    lines.append(f"scores by seat: {_per_seat(record['scores'])}")
    if "pair_scores" in record:
        lines.append(f"scores by pair: {_pairs(record['pair_scores'])}")
    return lines


def _sixty_six(record: dict, rules: Rules) -> list[str]:
    lines = _hands(record)
    stock = record["stock"]
    lines += _wrap(f"stock (draw order): {' '.join(stock)}")
    lines.append(f"turned card {stock[-1]}: {record['trump']} trump")

    def turn(flags: dict, seat: int) -> str:
        said = []
        if flags.get("exchange"):
            said.append(f"{seat} exchanges the trump nine for the turned card")
        if flags.get("close"):
            said.append(f"{seat} closes the stock")
        if flags.get("marriage"):
            m = flags["marriage"]
            said.append(f"{seat} announces the {m['suit']} marriage ({m['points']})")
        return "".join(f"; {text}" for text in said)

    def told(trick: dict) -> str:
        text = turn(trick, trick["leader"])
        if trick["draws"]:
            draws = " ".join(_play(card, (trick["winner"] + i) % 2)
                             for i, card in enumerate(trick["draws"]))
            text += f"; draws {draws}"
        return text

    lines += _tricks(record, 2, told)
    claim = record["claim"]
    if claim is not None:
        after = (f"on lead{turn(claim, claim['seat'])}" if claim["marriage"]
                 else f"after trick {claim['after'] + 1}")
        lines += _wrap(f"seat {claim['seat']} claims {rules.claim} {after}")
    lines.append(f"points by seat: {_per_seat(record['points'])}")
    lines.append(f"tricks won by seat: {_per_seat(record['tricks_won'])}")
    result = record["result"]
    lines.append(f"seat {result['seat']} scores {result['game_points']} game point"
                 f"{'s' if result['game_points'] != 1 else ''} ({result['reason']})")
    return lines


def _widow(record: dict, rules: Rules) -> list[str]:
    lines = _hands(record)
    lines.append(f"widow: {_by_suit(record['widow'])}")
    lines += _wrap(f"auction (seat:bid): {_calls(record['bids'])}")
    if record.get("redealt"):
        lines += _wrap("nobody bid: the deal is void (all_pass = \"redeal\"), nothing counts, "
                       "and the next dealer deals")
        return lines
    soloist = record["soloist"]
    partner = next((seat for pair in rules.partnerships for seat in pair
                    if soloist in pair and seat != soloist), None)
    who = "alone" if partner is None else f"with seat {partner}"
    lines.append(f"seat {soloist} plays {who} at {record['bid']} and takes the widow")
    demand = record["demand"]
    if demand is not None:
        lines.append(f"seat {soloist} demands {demand['card']}: seat {demand['from']} gives it "
                     f"and gets {demand['given']} back")
    if record.get("durch"):
        shown = " open, his hand laid down" if record.get("durch_open") else ""
        lines += _wrap(f"seat {soloist} buries {' '.join(record['buried'])} and declares "
                       f"Durch{shown}: every trick for his side, no trump, no meld counts")
    elif record.get("bettel"):
        lines += _wrap(f"seat {soloist} buries {' '.join(record['buried'])} and declares Bettel: "
                       f"no trick for him, no trump, no meld counts")
    else:
        lines.append(f"seat {soloist} buries {' '.join(record['buried'])} and names "
                     f"{record['trump']} trump")
        lines += _wrap(f"melds by seat: {_per_seat(record['melds'])}")
    if record.get("conceded"):
        others = "the other side scores its meld" if partner is not None else \
            "the others score their melds"
        payout = ("half the bid, rounded up to the ladder's step" if rules.concede_payout
                  == "half_bid" else str(rules.concede_bonus))
        lines += _wrap(f"seat {soloist} gives up before the first lead (Abgehen): minus the "
                       f"bid of {record['bid']}, no meld; {others} + {payout}")
    else:
        if rules.first_leader == "non_dealer":
            lines.append(f"seat {record['tricks'][0]['leader']}, left of the dealer, leads")
        lines += _tricks(record, rules.players)
        lines.append(f"card points by seat: {_per_seat(record['card_points'])}")
        outcome = "made" if record["made"] else "lost"
        if record.get("durch"):
            lines.append(f"the Durch is {outcome}")
        elif record.get("bettel"):
            lines.append(f"the Bettel at {record['bid']} is {outcome}")
        else:
            bonus = f", bonus {record['bonus']} for every trick" if record["bonus"] else ""
            lines.append(f"the bid of {record['bid']} is {outcome}{bonus}")
    lines.append(f"scores by seat: {_per_seat(record['scores'])}")
    if "pair_scores" in record:
        lines.append(f"scores by pair: {_pairs(record['pair_scores'])}")
    return lines
