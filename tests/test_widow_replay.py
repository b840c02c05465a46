"""Tests of the widow-game replay checker (tests/widow_replay.py).

The records are built here by a tiny deterministic player of our own (Python's ``random.Random``
with a fixed seed; not the engine): a shuffled deck, a random auction, an optional demand, random
burying and trump, random legal play. Its legality and trick-winner rules are written out again
below in a different form (a filter per SPEC clause) rather than borrowed from the checker. Every
valid record must be accepted; every mutation must be rejected with a message naming the problem.
"""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest

from binokel_sim.cards import format_card, parse_card
from binokel_sim.reference.core import meld_total
from binokel_sim.variants import find_variant

from widow_replay import legal_types, on_ladder, replay_widow, trick_winner_index

THREE = "three-hand-auction-48"
FOUR = "four-hand-widow-48"
SUITS = "SHDC"


def suit(t: int) -> int:
    return t // 6


def rank(t: int) -> int:
    return t % 6


def names(types) -> list[str]:
    return [format_card(t) for t in sorted(types, key=lambda t: (suit(t), -rank(t)))]


def multiset(counter: Counter) -> list[int]:
    return sorted(t for t, n in counter.items() for _ in range(n))


# --- the tiny player's own reading of the rules -------------------------------------------------

def may_play(hand: set[int], trick: list[int], trump: int) -> list[int]:
    """SPEC must-head rule as a chain of filters: follow suit, else trump, else anything; among
    the cards left, those that beat the trick's best where that is required and possible."""
    if not trick:
        return sorted(hand)
    led = suit(trick[0])
    trumped = any(suit(t) == trump for t in trick) and led != trump
    follow = [t for t in hand if suit(t) == led]
    if follow:
        if trumped:
            return sorted(follow)
        best = max(rank(t) for t in trick if suit(t) == led)
    else:
        follow = [t for t in hand if suit(t) == trump]
        if not follow:
            return sorted(hand)
        best = max((rank(t) for t in trick if suit(t) == trump), default=-1)
    beat = [t for t in follow if rank(t) > best]
    return sorted(beat or follow)


def takes(trick: list[int], trump: int) -> int:
    """Position of the winning card: a later card wins only by being strictly better."""
    best = 0
    for i in range(1, len(trick)):
        a, b = trick[best], trick[i]
        if suit(b) == suit(a) and rank(b) > rank(a):
            best = i
        elif suit(b) == trump and suit(a) != trump:
            best = i
    return best


def ladder_above(rules, current: int | None, jumps: int) -> int:
    """The ``jumps``-th ladder value above ``current`` (1: the next one)."""
    value = rules.bid_ladder[0][0] - 1 if current is None else current
    while jumps:
        value += 1
        if on_ladder(rules, value):
            jumps -= 1
    return value


def build(variant: str, seed: int, *, demand: bool | None = None, sweep: bool = False):
    """One deal record and what the player saw on the way (for the mutations).

    ``demand``: True forces a demand, False forbids it, None lets the coin decide. ``sweep``
    stacks the deck: the dealer holds (with the widow) every club and aces only, the others all
    pass, he names clubs and takes every trick."""
    rules = find_variant(variant)
    rng = random.Random(seed)
    P, H, W = rules.players, rules.hand_size, rules.widow
    deal = seed
    dealer = deal % P
    deck = [t for t in range(24) for _ in range(int(rules.deck_counts()[t]))]
    rng.shuffle(deck)
    if sweep:
        strong = [t for t in deck if suit(t) == 3]
        strong += [t for t in deck if rank(t) == 5 and suit(t) != 3][:H + W - len(strong)]
        rest = list((Counter(deck) - Counter(strong)).elements())
        rng.shuffle(rest)
        rng.shuffle(strong)
        seats, k = [], 0
        for s in range(P):
            if s == dealer:
                seats.append(strong[:H])
            else:
                seats.append(rest[k:k + H])
                k += H
        deck = [t for h in seats for t in h] + strong[H:]
    hands = [Counter(deck[s * H:(s + 1) * H]) for s in range(P)]
    widow = Counter(deck[P * H:])
    record = {"deal": deal, "variant": rules.name, "dealer": dealer,
              "hands": [names(multiset(h)) for h in hands], "widow": names(multiset(widow))}

    # the auction
    calls, still_in, current, last = [], [True] * P, None, None
    seat = (dealer + 1) % P
    while sum(still_in) > 1:
        if sweep or rng.random() < 0.45:
            calls.append({"seat": seat, "bid": None})
            still_in[seat] = False
        else:
            current = ladder_above(rules, current, rng.choice([1, 1, 2, 3]))
            last = seat
            calls.append({"seat": seat, "bid": current})
        seat = (seat + 1) % P
        while not still_in[seat]:
            seat = (seat + 1) % P
    soloist = dealer if last is None else last
    bid = rules.bid_ladder[0][0] if last is None else current
    record.update(bids=calls, soloist=soloist, bid=bid)

    # the widow, the demand, burying, trump
    own = hands[soloist] + widow
    if demand is None:
        demand = rng.random() < 0.5
    record["demand"] = None
    if demand and not sweep:
        missing = [t for t in range(24) if rules.deck_counts()[t] and own[t] == 0]
        d = rng.choice(missing)
        src = next((soloist + k) % P for k in range(1, P) if hands[(soloist + k) % P][d])
        hands[src][d] -= 1
        own[d] += 1
        g = rng.choice([t for t in multiset(own) if t != d])
        own[g] -= 1
        hands[src][g] += 1
        record["demand"] = {"card": format_card(d), "from": src, "given": format_card(g)}
    buried = rng.sample(multiset(own), W)
    trump = 3 if sweep else rng.randrange(4)
    own = own - Counter(buried)
    hands[soloist] = own
    melds = [meld_total(rules, [hands[s][t] for t in range(24)], trump) for s in range(P)]
    record.update(buried=names(buried), trump=SUITS[trump], melds=melds)

    # the play
    tricks, seen, won, n_won = [], [], [0] * P, [0] * P
    leader = soloist
    for _ in range(H):
        cards, held, legal = [], [], []
        for k in range(P):
            s = (leader + k) % P
            options = may_play({t for t in hands[s] if hands[s][t] > 0}, cards, trump)
            held.append(Counter(+hands[s]))
            legal.append(options)
            t = rng.choice(options)
            hands[s][t] -= 1
            cards.append(t)
        winner = (leader + takes(cards, trump)) % P
        tricks.append({"leader": leader, "cards": [format_card(t) for t in cards],
                       "winner": winner})
        seen.append({"held": held, "legal": legal})
        won[winner] += sum(rules.rank_points[rank(t)] for t in cards)
        n_won[winner] += 1
        leader = winner
    card_points = list(won)
    card_points[leader] += rules.last_trick
    card_points[soloist] += sum(rules.rank_points[rank(t)] for t in buried)
    sides = [list(p) for p in rules.partnerships] or [[s] for s in range(P)]
    side_tricks = [sum(n_won[s] for s in side) for side in sides]
    bonus = 1000 if H in side_tricks else 0
    side_scores, made = [], None
    for side, n in zip(sides, side_tricks):
        total = (sum(melds[s] for s in side) if n else 0) + sum(card_points[s] for s in side)
        total += bonus if n == H else 0
        if soloist in side:
            made = total >= bid
            total = total if made else -2 * bid
        side_scores.append(total)
    scores = [next(sc for side, sc in zip(sides, side_scores) if s in side) for s in range(P)]
    record.update(tricks=tricks, card_points=card_points, bonus=bonus, made=made,
                  conceded=False, durch=False, durch_open=False, bettel=False, scores=scores)
    if rules.partnerships:
        record["pair_scores"] = side_scores
    return rules, record, seen


# --- the building blocks, on SPEC's own cases ---------------------------------------------------

def c(text: str) -> int:
    return parse_card(text)


def cs(text: str) -> set[int]:
    return {c(x) for x in text.split()}


@pytest.mark.parametrize("held, trick, trump, legal", [
    ("AS 9S KH", "", 1, "AS 9S KH"),                  # leading: anything
    ("AS 9S KH", "TS", 1, "AS"),                       # must head the led suit
    ("QS 9S KH", "TS", 1, "QS 9S"),                    # cannot head: any led card
    ("AS 9S KH", "TS 9H", 1, "AS 9S"),                 # trumped: any led card, no need to head
    ("AH 9H KS", "TH", 1, "AH"),                       # trump led: head it
    ("QH 9H KS", "TH", 1, "QH 9H"),                    # trump led, cannot head: any trump
    ("AH 9H KD", "TS", 1, "AH 9H"),                    # void: any trump if none in the trick
    ("AH 9H KD", "TS KH", 1, "AH"),                    # void: a higher trump if able
    ("QH 9H KD", "TS KH", 1, "QH 9H"),                 # void: else any trump
    ("KD JC", "TS KH", 1, "KD JC"),                    # void, no trump: anything
    ("TS 9S", "TS", 1, "TS 9S"),                       # an equal card never beats
])
def test_legal_types_follow_the_spec(held, trick, trump, legal):
    played = [c(x) for x in trick.split()]
    assert legal_types(cs(held), played, trump) == cs(legal)
    assert set(may_play(cs(held), played, trump)) == cs(legal)


@pytest.mark.parametrize("trick, trump, winner", [
    ("TS AS KS", 1, 1),
    ("TS AS 9H", 1, 2),
    ("TS 9H AH", 1, 2),
    ("AS AS KS", 1, 0),                # identical cards: the first played
    ("KS AD AC AH", 0, 0),             # trump led wins over off-suit aces
    ("KS AD AC QS", 2, 1),
    ("9S TS TS 9S", 3, 1),
])
def test_trick_winner_follows_the_spec(trick, trump, winner):
    cards = [c(x) for x in trick.split()]
    assert trick_winner_index(cards, trump) == winner
    assert takes(cards, trump) == winner


# --- valid records are accepted -----------------------------------------------------------------

SEEDS = range(40)


@pytest.mark.parametrize("variant", [THREE, FOUR])
def test_valid_records_accepted(variant):
    seen = Counter()
    for seed in SEEDS:
        rules, record, _ = build(variant, seed, demand=(None, True, False)[seed % 3])
        replay_widow(rules, record)
        seen["demand" if record["demand"] else "no demand"] += 1
        seen["made" if record["made"] else "set"] += 1
        seen["all passed" if not any(b["bid"] for b in record["bids"]) else "bid"] += 1
        seen["jump"] += any(b2["bid"] and b1["bid"] and b2["bid"] - b1["bid"] > 10
                            for b1, b2 in zip(record["bids"], record["bids"][1:]))
    # the seeds cover the interesting cases
    for case in ("demand", "no demand", "made", "set", "all passed", "bid", "jump"):
        assert seen[case] > 0, (case, seen)


@pytest.mark.parametrize("variant", [THREE, FOUR])
def test_sweep_record_accepted_with_bonus(variant):
    for seed in range(3):
        rules, record, _ = build(variant, seed, sweep=True)
        assert record["bonus"] == 1000
        assert {t["winner"] for t in record["tricks"]} <= set(
            next(p for p in (rules.partnerships or [(record["soloist"],)])
                 if record["soloist"] in p))
        replay_widow(rules, record)


# --- mutations are rejected ---------------------------------------------------------------------

def first(variant: str, want, demand: bool | None = True, sweep: bool = False):
    """The first seed's record satisfying ``want(record, seen)``."""
    for seed in range(200):
        rules, record, seen = build(variant, seed, demand=demand, sweep=sweep)
        if want(record, seen):
            return rules, record, seen
    raise AssertionError("no seed gives the wanted record")  # pragma: no cover


def rejects(rules, record, *needles: str) -> str:
    with pytest.raises(AssertionError) as info:
        replay_widow(rules, record)
    message = str(info.value)
    assert message.startswith(f"deal {record['deal']!r}: "), message
    for needle in needles:
        assert needle in message, message
    return message


def any_record(record, seen):
    return True


VARIANTS = pytest.mark.parametrize("variant", [THREE, FOUR])


@VARIANTS
def test_card_not_held(variant):
    rules, rec, seen = first(variant, any_record)
    i, k = 2, 1
    held = seen[i]["held"][k]
    other = next(t for t in range(24) if held[t] == 0)
    rec["tricks"][i]["cards"][k] = format_card(other)
    seat = (rec["tricks"][i]["leader"] + k) % rules.players
    rejects(rules, rec, "tricks[2]", f"seat {seat} plays {format_card(other)}", "does not hold")


@VARIANTS
def test_illegal_card(variant):
    def has_illegal(record, seen):
        return any(set(h) - set(lg) for s in seen for h, lg in zip(s["held"], s["legal"]))
    rules, rec, seen = first(variant, has_illegal)
    i, k = next((i, k) for i, s in enumerate(seen)
                for k, (h, lg) in enumerate(zip(s["held"], s["legal"])) if set(h) - set(lg))
    bad = min(set(seen[i]["held"][k]) - set(seen[i]["legal"][k]))
    rec["tricks"][i]["cards"][k] = format_card(bad)
    rejects(rules, rec, f"tricks[{i}]", format_card(bad), "must-head")


@VARIANTS
def test_wrong_winner(variant):
    rules, rec, _ = first(variant, any_record)
    trick = rec["tricks"][4]
    trick["winner"] = (trick["winner"] + 1) % rules.players
    rejects(rules, rec, "tricks[4]", f"winner is seat {trick['winner']}")


@VARIANTS
def test_wrong_leader(variant):
    rules, rec, _ = first(variant, any_record)
    trick = rec["tricks"][3]
    trick["leader"] = (trick["leader"] + 1) % rules.players
    rejects(rules, rec, "tricks[3]", "previous trick's winner")


@VARIANTS
def test_first_trick_not_led_by_soloist(variant):
    rules, rec, _ = first(variant, any_record)
    rec["tricks"][0]["leader"] = (rec["soloist"] + 1) % rules.players
    rejects(rules, rec, "tricks[0]", "soloist")


def two_bids(record, seen):
    return sum(b["bid"] is not None for b in record["bids"]) >= 2


@VARIANTS
def test_bid_not_above_current(variant):
    rules, rec, _ = first(variant, two_bids, demand=None)
    bids = [i for i, b in enumerate(rec["bids"]) if b["bid"] is not None]
    rec["bids"][bids[1]]["bid"] = rec["bids"][bids[0]]["bid"]
    rejects(rules, rec, f"bids[{bids[1]}]", "not above the current bid")


@VARIANTS
def test_bid_not_on_ladder(variant):
    rules, rec, _ = first(variant, two_bids, demand=None)
    i = next(i for i, b in enumerate(rec["bids"]) if b["bid"] is not None)
    rec["bids"][i]["bid"] += 5
    rejects(rules, rec, f"bids[{i}]", "not on the bid ladder")
    rec["bids"][i]["bid"] = 190
    rejects(rules, rec, f"bids[{i}]", "not on the bid ladder")


@VARIANTS
def test_call_after_auction_ended(variant):
    rules, rec, _ = first(variant, two_bids, demand=None)
    rec["bids"].append({"seat": rec["soloist"], "bid": rec["bid"] + 10})
    rejects(rules, rec, "after the auction ended")


@VARIANTS
def test_dealer_calls_after_all_passed(variant):
    rules, rec, _ = first(variant, lambda r, s: not any(b["bid"] for b in r["bids"]),
                          demand=None)
    assert rec["soloist"] == rec["dealer"] and rec["bid"] == 200
    rec["bids"].append({"seat": rec["dealer"], "bid": None})
    rejects(rules, rec, "after the auction ended")


@VARIANTS
def test_auction_out_of_turn_and_unfinished(variant):
    rules, rec, _ = first(variant, two_bids, demand=None)
    bad = copy.deepcopy(rec)
    bad["bids"][0]["seat"] = (bad["bids"][0]["seat"] + 1) % rules.players
    rejects(rules, bad, "bids[0]", "turn", "dealer + 1")
    bad = copy.deepcopy(rec)
    bad["bids"].pop()
    rejects(rules, bad, "unfinished")


@VARIANTS
def test_passed_player_calls_again(variant):
    rules, rec, _ = first(variant, lambda r, s: len(r["bids"]) >= 2 and r["bids"][0]["bid"] is None,
                          demand=None)
    rec["bids"][1]["seat"] = rec["bids"][0]["seat"]
    rejects(rules, rec, "bids[1]", "passed before")


@VARIANTS
def test_wrong_soloist_and_bid(variant):
    rules, rec, _ = first(variant, two_bids, demand=None)
    bad = copy.deepcopy(rec)
    bad["soloist"] = (bad["soloist"] + 1) % rules.players
    rejects(rules, bad, "soloist is seat", "last bid")
    bad = copy.deepcopy(rec)
    bad["bid"] += 10
    rejects(rules, bad, "bid is")
    rules, rec, _ = first(variant, lambda r, s: not any(b["bid"] for b in r["bids"]),
                          demand=None)
    rec["soloist"] = (rec["dealer"] + 1) % rules.players
    rejects(rules, rec, "soloist is seat", "nobody bid")


@VARIANTS
def test_demand_of_a_card_held(variant):
    rules, rec, _ = first(variant, any_record)
    s = rec["soloist"]
    rec["demand"]["card"] = rec["hands"][s][0]
    rejects(rules, rec, "demand", "holds")
    rules, rec, _ = first(variant, any_record)
    rec["demand"]["card"] = rec["widow"][0]
    rejects(rules, rec, "demand", "holds")


@VARIANTS
def test_wrong_demand_holder(variant):
    rules, rec, _ = first(variant, any_record)
    src = rec["demand"]["from"]
    rec["demand"]["from"] = next(s for s in range(rules.players)
                                 if s not in (src, rec["soloist"]))
    rejects(rules, rec, "demand", "first seat clockwise")


def test_demand_holder_skips_to_the_first_holder():
    """four-hand: a record whose demanded card sits with the second and third seat clockwise."""
    def later_holder(record, seen):
        d, s = record["demand"]["card"], record["soloist"]
        return d not in record["hands"][(s + 1) % 4] and sum(
            d in record["hands"][(s + k) % 4] for k in (1, 2, 3)) == 2
    rules, rec, _ = first(FOUR, later_holder)
    replay_widow(rules, rec)
    holders = [(rec["soloist"] + k) % 4 for k in (1, 2, 3)
               if rec["demand"]["card"] in rec["hands"][(rec["soloist"] + k) % 4]]
    rec["demand"]["from"] = holders[1]
    rejects(rules, rec, "first seat clockwise", f"seat {holders[0]}")


@VARIANTS
def test_giving_back_the_demanded_card(variant):
    rules, rec, _ = first(variant, any_record)
    rec["demand"]["given"] = rec["demand"]["card"]
    rejects(rules, rec, "demand", "copy of the demanded")


@VARIANTS
def test_giving_back_a_card_not_held(variant):
    rules, rec, _ = first(variant, any_record)
    s = rec["soloist"]
    own = set(rec["hands"][s]) | set(rec["widow"])
    rec["demand"]["given"] = next(format_card(t) for t in range(24)
                                  if format_card(t) not in own
                                  and format_card(t) != rec["demand"]["card"])
    rejects(rules, rec, "demand", "does not hold")


def after_exchange(rec) -> Counter:
    own = Counter(rec["hands"][rec["soloist"]]) + Counter(rec["widow"])
    if rec["demand"]:
        own[rec["demand"]["card"]] += 1
        own[rec["demand"]["given"]] -= 1
    return own


@VARIANTS
def test_burying_a_card_not_held(variant):
    rules, rec, _ = first(variant, any_record)
    own = after_exchange(rec)
    other = next(format_card(t) for t in range(24) if own[format_card(t)] <= 0)
    rec["buried"] = names([c(x) for x in rec["buried"][1:] + [other]])
    rejects(rules, rec, "buried", other, "does not hold")


@VARIANTS
def test_burying_the_card_given_away(variant):
    rules, rec, _ = first(variant, lambda r, s: r["demand"]["given"] not in r["buried"]
                          and r["demand"]["given"] not in r["widow"]
                          and r["hands"][r["soloist"]].count(r["demand"]["given"]) == 1)
    rec["buried"] = names([c(x) for x in rec["buried"][1:] + [rec["demand"]["given"]]])
    rejects(rules, rec, "buried", rec["demand"]["given"], "does not hold")


@VARIANTS
def test_wrong_buried_count(variant):
    rules, rec, _ = first(variant, any_record)
    bad = copy.deepcopy(rec)
    bad["buried"].pop()
    rejects(rules, bad, f"buried has {rules.widow - 1} cards")
    bad = copy.deepcopy(rec)
    own = after_exchange(rec) - Counter(rec["buried"])
    bad["buried"] = names([c(x) for x in rec["buried"]] + [c(next(iter(+own)))])
    rejects(rules, bad, f"buried has {rules.widow + 1} cards")


@VARIANTS
def test_wrong_melds(variant):
    rules, rec, _ = first(variant, any_record)
    rec["melds"][1] += 20
    rejects(rules, rec, "melds are")


def melds_with(rules, rec, trump: int) -> list[int]:
    hands = [Counter(c(x) for x in h) for h in rec["hands"]]
    s = rec["soloist"]
    hands[s] += Counter(c(x) for x in rec["widow"])
    if rec["demand"]:
        d, g = c(rec["demand"]["card"]), c(rec["demand"]["given"])
        hands[s][d] += 1
        hands[s][g] -= 1
        hands[rec["demand"]["from"]][d] -= 1
        hands[rec["demand"]["from"]][g] += 1
    hands[s] -= Counter(c(x) for x in rec["buried"])
    return [meld_total(rules, [h[t] for t in range(24)], trump) for h in hands]


@VARIANTS
def test_melds_with_another_trump(variant):
    """The record's melds belong to its trump: the same melds under another trump are wrong."""
    def differs(r, s):
        t = SUITS.index(r["trump"])
        rules = find_variant(variant)
        return (melds_with(rules, r, t) == r["melds"]
                and melds_with(rules, r, (t + 1) % 4) != r["melds"])
    rules, rec, _ = first(variant, differs)
    rec["trump"] = SUITS[(SUITS.index(rec["trump"]) + 1) % 4]
    rejects(rules, rec, "melds are", f"trump {rec['trump']}")


@VARIANTS
def test_wrong_card_points(variant):
    rules, rec, _ = first(variant, any_record)
    bad = copy.deepcopy(rec)
    bad["card_points"][0] += 3
    bad["card_points"][1] -= 3
    rejects(rules, bad, "card_points are")
    bad = copy.deepcopy(rec)
    bad["card_points"][rec["soloist"]] -= 1
    rejects(rules, bad, "card_points are")


@VARIANTS
def test_buried_points_count_for_the_soloist(variant):
    rules, rec, _ = first(variant, lambda r, s: any(x[0] in "AT" for x in r["buried"]))
    pts = sum(rules.rank_points["9JQKTA".index(x[0])] for x in rec["buried"])
    rec["card_points"][rec["soloist"]] -= pts
    rejects(rules, rec, "card_points are", "buried")


@VARIANTS
def test_missing_and_spurious_bonus(variant):
    rules, rec, _ = first(variant, any_record, demand=False, sweep=True)
    rec["bonus"] = 0
    rejects(rules, rec, "bonus is 0, expected 1000")
    rules, rec, _ = first(variant, any_record)
    rec["bonus"] = 1000
    rejects(rules, rec, "bonus is 1000, expected 0")


@VARIANTS
def test_sweep_scores_include_the_bonus(variant):
    rules, rec, _ = first(variant, any_record, demand=False, sweep=True)
    for s in range(rules.players):
        if rec["scores"][s] >= 1000:
            rec["scores"][s] -= 1000
    if rules.partnerships:
        rec["pair_scores"] = [rec["scores"][p[0]] for p in rules.partnerships]
    rejects(rules, rec, "scores are")


@VARIANTS
def test_wrong_made(variant):
    for made in (True, False):
        rules, rec, _ = first(variant, lambda r, s, m=made: r["made"] is m, demand=None)
        rec["made"] = not made
        rejects(rules, rec, f"made is {not made}")
    rules, rec, _ = first(variant, any_record)
    rec["made"] = int(rec["made"])
    rejects(rules, rec, "made must be true/false")


@VARIANTS
def test_wrong_scores(variant):
    rules, rec, _ = first(variant, lambda r, s: not r["made"], demand=None)
    bad = copy.deepcopy(rec)
    bad["scores"][rec["soloist"]] = -rec["bid"]  # minus once the bid, not twice
    rejects(rules, bad, "scores are")
    bad = copy.deepcopy(rec)
    other = (rec["soloist"] + 1) % rules.players
    bad["scores"][other] += 10
    rejects(rules, bad, "scores are")


def test_no_trick_loses_the_meld():
    """three-hand: a seat that took no trick scores its card points only."""
    rules, rec, _ = first(THREE, lambda r, s: any(
        m > 0 and all(t["winner"] != seat for t in r["tricks"]) and seat != r["soloist"]
        for seat, m in enumerate(r["melds"])), demand=None)
    seat = next(seat for seat, m in enumerate(rec["melds"]) if m > 0 and seat != rec["soloist"]
                and all(t["winner"] != seat for t in rec["tricks"]))
    assert rec["scores"][seat] == rec["card_points"][seat]
    rec["scores"][seat] += rec["melds"][seat]
    rejects(rules, rec, "scores are")


def test_partners_score_equally():
    rules, rec, _ = first(FOUR, any_record)
    rec["scores"][2] = rec["scores"][0] + 10
    rejects(rules, rec, "scores are")


def test_wrong_pair_scores():
    rules, rec, _ = first(FOUR, any_record)
    bad = copy.deepcopy(rec)
    bad["pair_scores"][1] += 10
    rejects(rules, bad, "pair_scores are")
    bad = copy.deepcopy(rec)
    bad["pair_scores"] = [2 * x for x in rec["pair_scores"]]  # the seats' sum, not the side's
    if bad["pair_scores"] != rec["pair_scores"]:
        rejects(rules, bad, "pair_scores are")
    bad = copy.deepcopy(rec)
    bad["pair_scores"].reverse()
    if bad["pair_scores"] != rec["pair_scores"]:
        rejects(rules, bad, "pair_scores are")


# --- the record format --------------------------------------------------------------------------

@VARIANTS
def test_record_keys(variant):
    rules, rec, _ = first(variant, any_record)
    bad = dict(rec)
    del bad["melds"]
    rejects(rules, bad, "lacks the key(s) melds")
    bad = dict(rec, extra=1)
    rejects(rules, bad, "unexpected key(s) extra")
    keys = list(rec)
    keys[5], keys[6] = keys[6], keys[5]
    rejects(rules, {k: rec[k] for k in keys}, "order")
    bad = copy.deepcopy(rec)
    bad["tricks"][0] = {k: bad["tricks"][0][k] for k in ("cards", "leader", "winner")}
    rejects(rules, bad, "tricks[0]", "order")
    bad = copy.deepcopy(rec)
    bad["demand"] = {"from": rec["demand"]["from"], "card": rec["demand"]["card"],
                     "given": rec["demand"]["given"]}
    rejects(rules, bad, "demand keys")


def test_pair_scores_only_with_partnerships():
    rules, rec, _ = first(THREE, any_record)
    rejects(rules, dict(rec, pair_scores=[0, 0]), "unexpected key(s) pair_scores")
    rules, rec, _ = first(FOUR, any_record)
    bad = dict(rec)
    del bad["pair_scores"]
    rejects(rules, bad, "lacks the key(s) pair_scores")


@VARIANTS
def test_card_names_sorted_and_canonical(variant):
    rules, rec, _ = first(variant, any_record)
    bad = copy.deepcopy(rec)
    bad["hands"][0].reverse()
    rejects(rules, bad, "hands[0] is not sorted")
    bad = copy.deepcopy(rec)
    bad["widow"].reverse()
    if bad["widow"] != rec["widow"]:
        rejects(rules, bad, "widow is not sorted")
    bad = copy.deepcopy(rec)
    bad["buried"].reverse()
    if bad["buried"] != rec["buried"]:
        rejects(rules, bad, "buried is not sorted")
    bad = copy.deepcopy(rec)
    bad["hands"][1][0] = bad["hands"][1][0].lower()
    rejects(rules, bad, "hands[1]", "not written rank+suit")
    bad = copy.deepcopy(rec)
    i, tok = next((i, x) for i, x in enumerate(bad["hands"][0]) if x[0] == "T")
    bad["hands"][0][i] = "10" + tok[1]
    rejects(rules, bad, "hands[0]", "not written rank+suit")


@VARIANTS
def test_hands_and_widow_must_be_the_deck(variant):
    rules, rec, _ = first(variant, any_record)
    bad = copy.deepcopy(rec)
    hand = [c(x) for x in bad["hands"][0]]
    swap = next(t for t in range(24) if t not in hand)
    bad["hands"][0] = names(hand[1:] + [swap])
    rejects(rules, bad, "the deck has 2")
    bad = copy.deepcopy(rec)
    bad["widow"] = bad["widow"][1:]
    rejects(rules, bad, f"widow has {rules.widow - 1} cards")


@VARIANTS
def test_wrong_dealer_and_variant(variant):
    rules, rec, _ = first(variant, any_record)
    rejects(rules, dict(rec, dealer=(rec["dealer"] + 1) % rules.players), "dealer")
    rejects(rules, dict(rec, variant="two-hand-48"), "variant is")
    rejects(rules, dict(rec, trump="X"), "trump must be")


@VARIANTS
def test_tricks_count_and_cards_left(variant):
    rules, rec, _ = first(variant, any_record)
    bad = copy.deepcopy(rec)
    bad["tricks"].pop()
    rejects(rules, bad, f"{rules.hand_size - 1} tricks")
    bad = copy.deepcopy(rec)
    bad["tricks"][0]["cards"].pop()
    rejects(rules, bad, "tricks[0]", "cards played")
