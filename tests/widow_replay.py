"""An independent replay checker for the deal records of the widow games (three-hand-auction-48,
four-hand-widow-48).

Written from the rules alone (``docs/SPEC.md``: "Common to all variants", "Variant
three-hand-auction-48", "Variant four-hand-widow-48"; the project's widow conventions: deal,
auction, widow, demand, burying, trump, scoring, records), so that it catches the engine's
mistakes. It imports nothing of the engine (no kernels, no ``reference.widow``, no
``widow_games``, no ``widow_records``): only the card notation, the rules data and, for the meld
values alone, the pure-Python ``reference.meld_total``.

``replay_widow(rules, record)`` replays one record and raises ``AssertionError`` naming the deal
(and the trick, where there is one) and the problem at the first violation.

Readings of points the texts leave open (see also the report that came with this file):
- the dealer of deal ``d`` is seat ``d % players`` (the conventions' "The deal");
- the first call may be any ladder value (the minimum included); nobody bid: the dealer is the
  soloist at the ladder's first value and makes no call (``bids`` holds only the others' passes);
- ``bonus`` is one number (1000 or 0) and counts for the side that took every trick;
- ``scores`` give every seat its side's score; ``pair_scores[i]`` is the score of partnership
  ``i`` (seats 0+2, then 1+3), i.e. the side's score, not the sum of the two seats' scores;
- the keys of the nested objects (calls, demand, tricks) are checked in order as well;
- a Durch (SPEC "House variants"; docs/rules.md decision 39) has no trump (``trump`` null),
  no meld counts (``melds`` all 0), the soloist's side must take every trick and scores +1000,
  else -1000, every other side 0; ``bonus`` is 0;
- a Bettel (decision 40) likewise has no trump and no meld; the soloist must take no trick and
  scores the bid (at most 300) if he took none, else minus twice the bid; every other side 0.
"""

from __future__ import annotations

import math

from collections import Counter
from typing import Any

from binokel_sim.cards import format_card
from binokel_sim.reference.core import meld_total
from binokel_sim.variants import Rules, per_rules

from replay_rules import (
    RecordCheck,
    deck_copies,
    hand_order,
    in_hand_order,
    legal_types,
    rank_of,
    trick_winner_index,
)

SUITS = "SHDC"
N_SUITS = 4
N_RANKS = 6
N_TYPES = 24

RECORD_KEYS = ["deal", "variant", "dealer", "hands", "widow", "bids", "soloist", "bid", "demand",
               "buried", "trump", "melds", "tricks", "card_points", "bonus", "made", "conceded",
               "durch", "durch_open", "bettel", "scores"]
NO_TRUMP = 4  # a Durch is played without trump: no card is of "suit" 4
DURCH_SCORE = 1000  # SPEC "House variants": a Durch made scores +1000, failed -1000
BETTEL_BID = 300  # SPEC "House variants": a Bettel is worth 300 in the auction
CALL_KEYS = ["seat", "bid"]
DEMAND_KEYS = ["card", "from", "given"]
TRICK_KEYS = ["leader", "cards", "winner"]


def _show(types) -> str:
    return " ".join(format_card(t) for t in sorted(types, key=hand_order)) or "nothing"


def _show_counts(counts: Counter) -> str:
    return _show([t for t, n in counts.items() for _ in range(n)])


# --- the rules, written out from SPEC.md --------------------------------------------------------

def on_ladder(rules: Rules, value: int) -> bool:
    """A bid of the ladder ``((from, step), ...)``: rung ``i`` covers ``from_i`` up to (not
    including) the next rung's start, in steps of ``step_i``; the last rung has no end."""
    rungs = rules.bid_ladder
    for i, (start, step) in enumerate(rungs):
        end = rungs[i + 1][0] if i + 1 < len(rungs) else None
        if value >= start and (end is None or value < end):
            return (value - start) % step == 0
    return False


MAX_MELD_TOTALS = 100_000  # a rules' table starts afresh beyond this many hands


@per_rules
def _meld_totals(rules: Rules) -> dict[tuple[tuple[int, ...], int], int]:
    """:func:`hand_melds`'s results under ``rules``, by hand (copies per type) and trump."""
    return {}


def hand_melds(rules: Rules, hand: Counter, trump: int) -> int:
    """``reference.meld_total`` of ``hand`` (copies per card type) with ``trump``, worked
    out once per rules, hand and trump (one seed's deals recur across policies)."""
    counts = [0] * N_TYPES
    for t, n in hand.items():
        counts[t] = n
    totals, key = _meld_totals(rules), (tuple(counts), trump)
    if key not in totals:
        if len(totals) >= MAX_MELD_TOTALS:
            totals.clear()
        totals[key] = meld_total(rules, counts, trump)
    return totals[key]


def sides_of(rules: Rules) -> list[tuple[int, ...]]:
    """The sides: the partnerships if any, else every seat alone."""
    if rules.partnerships:
        return [tuple(team) for team in rules.partnerships]
    return [(s,) for s in range(rules.players)]


# --- the replay ---------------------------------------------------------------------------------

class _Replay(RecordCheck):
    # -- validators of this record format -------------------------------------------------------
    def seat(self, value: Any, what: str, trick: int | None = None) -> int:
        s = self.integer(value, what, trick)
        if not 0 <= s < self.rules.players:
            self.fail(f"{what} is {s!r}, not a seat 0..{self.rules.players - 1}", trick)
        return s

    def sorted_cards(self, tokens: Any, what: str) -> list[int]:
        types = self.cards(tokens, what)
        self.check(in_hand_order(types),
                   lambda: f"{what} is not sorted S H D C, high to low: {tokens}")
        return types

    def keys(self, obj: Any, expected: list[str], what: str, trick: int | None = None) -> None:
        self.check(isinstance(obj, dict), lambda: f"{what} must be an object, got {obj!r}", trick)
        if list(obj) == expected:  # none missing, none unexpected, in order
            return
        missing = [k for k in expected if k not in obj]
        self.check(not missing, f"{what} lacks the key(s) {', '.join(missing)}", trick)
        unknown = [str(k) for k in obj if k not in expected]
        self.check(not unknown, f"{what} has unexpected key(s) {', '.join(unknown)}", trick)
        self.check(list(obj) == expected,
                   f"{what} keys are in the order {list(obj)}, expected {expected}", trick)

    # -- the checks -----------------------------------------------------------------------------
    def run(self) -> None:
        rules, rec = self.rules, self.record
        if not isinstance(rec, dict):
            self.fail(f"a record must be a JSON object, got {type(rec).__name__}")
        self.check(rules.widow > 0 and rules.talon == 0,
                   f"variant {rules.name} is not a widow game (widow {rules.widow}, talon "
                   f"{rules.talon})")
        self.check(bool(rules.bid_ladder), f"variant {rules.name} has no bid ladder")
        expected_keys = (RECORD_KEYS + (["pair_scores"] if rules.partnerships else [])
                         + (["redealt"] if rules.all_pass == "redeal" else []))
        self.keys(rec, expected_keys, "record")
        deal = self.integer(rec["deal"], "deal")
        self.check(deal >= 0, f"deal number {deal} is negative")
        self.check(rec["variant"] == rules.name,
                   f"variant is {rec['variant']!r}, the rules are {rules.name!r}")
        players = rules.players
        dealer = self.seat(rec["dealer"], "dealer")
        self.check(dealer == deal % players,
                   f"dealer is seat {dealer}, but the dealer of deal {deal} is seat "
                   f"{deal % players} (deal % {players})")

        self.deal_(rec)
        soloist, bid = self.auction(rec, dealer)
        if rules.all_pass == "redeal":
            redealt = rec["redealt"]
            self.check(redealt is (soloist < 0),
                       lambda: f"redealt is {redealt!r}, but "
                               f"{'nobody' if soloist < 0 else 'a seat'} bid")
            if redealt:
                self.voided(rec)
                return
        self.bid = bid
        self.exchange(rec, soloist)
        conceded = rec["conceded"]
        self.check(isinstance(conceded, bool),
                   lambda: f"conceded must be true/false, got {conceded!r}")
        self.check(not (conceded and self.durch), "a Durch cannot be given up")
        self.check(not (conceded and self.bettel), "a Bettel cannot be given up")
        if conceded:
            self.given_up(rec, soloist, bid)
        else:
            self.play(rec, soloist, dealer)
            if self.durch:
                self.durch_score(rec, soloist)
            elif self.bettel:
                self.bettel_score(rec, soloist, bid)
            else:
                self.scoring(rec, soloist, bid)

    def deal_(self, rec: dict) -> None:
        """Hands (as dealt) + widow = the deck, sizes and sort order."""
        rules, players = self.rules, self.rules.players
        hands_rec = rec["hands"]
        self.check(isinstance(hands_rec, list) and len(hands_rec) == players,
                   f"hands must be a list of {players} hands, got {hands_rec!r}")
        dealt = [self.sorted_cards(h, f"hands[{s}]") for s, h in enumerate(hands_rec)]
        for s, h in enumerate(dealt):
            self.check(len(h) == rules.hand_size,
                       lambda: f"hands[{s}] has {len(h)} cards, the hand size is "
                               f"{rules.hand_size}")
        widow = self.sorted_cards(rec["widow"], "widow")
        self.check(len(widow) == rules.widow,
                   f"widow has {len(widow)} cards, the variant's widow is {rules.widow}")
        total = Counter(t for h in dealt for t in h) + Counter(widow)
        deck = deck_copies(rules)
        for t in range(N_TYPES):
            self.check(total[t] == deck[t],
                       lambda: f"hands and widow hold {total[t]} x {format_card(t)}, "
                               f"the deck has {deck[t]}")
        self.hands = [Counter(h) for h in dealt]  # the seats' cards, kept up to date
        self.widow = Counter(widow)

    def auction(self, rec: dict, dealer: int) -> tuple[int, int]:
        """Calls clockwise from dealer + 1 among the players still in; a pass is final; a bid is
        a ladder value above the current one; it ends when one player is left (no call of his
        after that). Returns (soloist, bid). Skat-style (``order = "skat"``): :meth:`skat`."""
        if self.rules.bid_order == "skat":
            return self.skat(rec, dealer)
        rules, players = self.rules, self.rules.players
        calls = rec["bids"]
        self.check(isinstance(calls, list), lambda: f"bids must be a list of calls, got {calls!r}")
        still_in = [True] * players
        current: int | None = None
        last_bidder: int | None = None
        turn = (dealer + 1) % players
        for i, call in enumerate(calls):
            what = f"bids[{i}]"
            self.keys(call, CALL_KEYS, what)
            if sum(still_in) == 1:
                alone = still_in.index(True)
                self.fail(f"{what}: a call after the auction ended (seat {alone} was the only "
                          f"player left after bids[{i - 1}]; he makes no further call): {call}")
            seat = self.seat(call["seat"], f"{what}.seat")
            self.check(still_in[seat],
                       lambda: f"{what}: seat {seat} calls, but it passed before (a pass is "
                               f"final)")
            first = " (the first call is seat dealer + 1)" if i == 0 else ""
            self.check(seat == turn,
                       lambda: f"{what}: seat {seat} calls, but it is seat {turn}'s "
                               f"turn{first}")
            value = call["bid"]
            self.check(value is not None or i > 0 or rules.all_pass != "vorhand_opens",
                       lambda: f"{what}: Vorhand (seat {seat}) passes at his first call, but "
                               f"with all_pass = 'vorhand_opens' he may not")
            if value is None:
                still_in[seat] = False
            else:
                value = self.integer(value, f"{what}.bid")
                self.check(on_ladder(rules, value),
                           lambda: f"{what}: seat {seat} bids {value}, which is not on the bid "
                                   f"ladder {rules.bid_ladder}")
                self.check(current is None or value > current,
                           lambda: f"{what}: seat {seat} bids {value}, which is not above the "
                                   f"current bid {current}")
                current, last_bidder = value, seat
            turn = (seat + 1) % players
            while not still_in[turn] and turn != seat:
                turn = (turn + 1) % players
        left = [s for s in range(players) if still_in[s]]
        self.check(len(left) == 1,
                   f"the auction is unfinished: seats {left} are still in after the last call")
        if last_bidder is None and rules.all_pass == "redeal":
            return -1, 0  # the deal is void (voided checks the rest)
        if last_bidder is None:
            soloist, bid = dealer, rules.bid_ladder[0][0]
            why = (f"nobody bid, so the dealer (seat {dealer}) plays at the minimum "
                   f"{bid}")
        else:
            soloist, bid = last_bidder, current
            why = f"seat {last_bidder} made the last bid, {current}"
        self.check(left == [soloist], f"seat {left[0]} is left in the auction, but {why}")
        got = self.seat(rec["soloist"], "soloist")
        self.check(got == soloist, f"soloist is seat {got}, but {why}")
        got = self.integer(rec["bid"], "bid")
        self.check(got == bid, f"bid is {got}, but {why}")
        return soloist, bid

    def skat(self, rec: dict, dealer: int) -> tuple[int, int]:
        """SPEC "Today's practice", ``[bidding] order = "skat"`` (Geben - Hoeren - Sagen): the
        player after Vorhand (dealer + 1) bids against Vorhand, who holds (a call of the same
        value) or passes; then the next player bids against the survivor, the dealer last. A
        pass is final. Read here: when nobody bid, Vorhand makes one more call, a bid (any
        ladder value) or a pass (not under all_pass = 'vorhand_opens'); if he passes, the
        all-pass rule decides (the dealer at the minimum, or a void deal). Returns (soloist,
        bid)."""
        rules, players = self.rules, self.rules.players
        calls = rec["bids"]
        self.check(isinstance(calls, list), lambda: f"bids must be a list of calls, got {calls!r}")
        vorhand = (dealer + 1) % players
        challengers = [(vorhand + k) % players for k in range(1, players)]
        listener, k, state = vorhand, 0, "bid"
        current: int | None = None
        holder: int | None = None
        for i, call in enumerate(calls):
            what = f"bids[{i}]"
            self.keys(call, CALL_KEYS, what)
            self.check(state != "over", lambda: f"{what}: a call after the auction ended: {call}")
            seat = self.seat(call["seat"], f"{what}.seat")
            value = call["bid"]
            if value is not None:
                value = self.integer(value, f"{what}.bid")
            if state == "bid":
                who = challengers[k]
                self.check(seat == who, lambda: f"{what}: seat {seat} calls, but it is seat "
                                                f"{who}'s turn to bid against seat {listener}")
                if value is None:
                    k += 1
                else:
                    self.check(on_ladder(rules, value) and (current is None or value > current),
                               lambda: f"{what}: seat {seat} bids {value}, not a ladder value "
                                       f"above {current}")
                    current, holder, state = value, seat, "answer"
            elif state == "answer":
                self.check(seat == listener, lambda: f"{what}: seat {seat} calls, but seat "
                                                     f"{listener} answers the bid {current}")
                if value is None:
                    listener = challengers[k]
                    k += 1
                else:
                    self.check(value == current, lambda: f"{what}: seat {seat} answers "
                                                         f"{value}, but may only hold {current} "
                                                         f"or pass")
                    holder = seat
                state = "bid"
            else:  # nobody bid: Vorhand's own call
                self.check(seat == vorhand, lambda: f"{what}: seat {seat} calls, but nobody bid "
                                                    f"and it is Vorhand's (seat {vorhand}) call")
                self.check(value is not None or rules.all_pass != "vorhand_opens",
                           lambda: f"{what}: Vorhand passes, but with all_pass = "
                                   f"'vorhand_opens' he may not")
                if value is not None:
                    self.check(on_ladder(rules, value),
                               lambda: f"{what}: Vorhand bids {value}, not on the ladder")
                    current, holder = value, seat
                state = "over"
                continue
            if state == "bid" and k == len(challengers):
                state = "over" if holder is not None else "vorhand"
        self.check(state == "over", f"the auction is unfinished after the last call (state "
                                    f"{state})")
        if holder is None and rules.all_pass == "redeal":
            return -1, 0
        if holder is None:
            soloist, bid = dealer, rules.bid_ladder[0][0]
            why = f"nobody bid, so the dealer (seat {dealer}) plays at the minimum {bid}"
        else:
            soloist, bid = holder, current
            why = f"seat {holder} holds the last bid, {current}"
        got = self.seat(rec["soloist"], "soloist")
        self.check(got == soloist, f"soloist is seat {got}, but {why}")
        got = self.integer(rec["bid"], "bid")
        self.check(got == bid, f"bid is {got}, but {why}")
        return soloist, bid

    def voided(self, rec: dict) -> None:
        """A deal nobody bid on, voided (all_pass = "redeal"): no contract, no widow handling,
        no melds, tricks, card points or scores."""
        zeros = [0] * self.rules.players
        want = {"soloist": None, "bid": None, "demand": None, "buried": [], "trump": None,
                "melds": zeros, "tricks": [], "card_points": zeros, "bonus": 0, "made": False,
                "conceded": False, "durch": False, "durch_open": False, "bettel": False,
                "scores": zeros}
        if self.rules.partnerships:
            want["pair_scores"] = [0, 0]
        for key, value in want.items():
            self.check(rec[key] == value and type(rec[key]) is type(value),
                       lambda: f"a voided deal (redealt) has {key} {value!r}, not {rec[key]!r}")

    def exchange(self, rec: dict, soloist: int) -> None:
        """The widow, the demand, burying, trump and the melds."""
        rules, players = self.rules, self.rules.players
        hands = self.hands
        own = hands[soloist] + self.widow  # the soloist's hand with the widow taken up
        demand = rec["demand"]
        self.check(demand is None or rules.widow_demand,
                   "demand: these rules have no demand ([widow] demand = false), but the record "
                   "has one")
        if demand is not None:
            self.keys(demand, DEMAND_KEYS, "demand")
            d = self.card(demand["card"], "demand.card")
            self.check(own[d] == 0,
                       lambda: f"demand: the soloist (seat {soloist}) demands {format_card(d)}, "
                               f"but he holds {own[d]} cop{'y' if own[d] == 1 else 'ies'} of it "
                               f"in hand + widow (only a card he holds no copy of may be "
                               f"demanded)")
            order = [(soloist + k) % players for k in range(1, players)]
            holders = [s for s in order if hands[s][d] > 0]
            self.check(bool(holders), lambda: f"demand: nobody holds {format_card(d)}")
            src = self.seat(demand["from"], "demand.from")
            self.check(src == holders[0],
                       lambda: f"demand: {format_card(d)} comes from seat {src}, but the first "
                               f"seat clockwise from the soloist (seat {soloist}) holding a copy "
                               f"is seat {holders[0]} (holders: {holders})")
            hands[src][d] -= 1
            own[d] += 1
            g = self.card(demand["given"], "demand.given")
            self.check(g != d,
                       lambda: f"demand: the soloist gives back {format_card(g)}, a copy of the "
                               f"demanded card (any card but a copy of the demanded type)")
            self.check(own[g] > 0,
                       lambda: f"demand: the soloist gives back {format_card(g)}, which he does "
                               f"not hold (he holds {_show_counts(own)})")
            own[g] -= 1
            hands[src][g] += 1

        buried = self.sorted_cards(rec["buried"], "buried")
        self.check(len(buried) == rules.widow,
                   lambda: f"buried has {len(buried)} cards, the soloist buries {rules.widow} "
                           f"(the widow's size)")
        for t, n in Counter(buried).items():
            self.check(own[t] >= n,
                       lambda: f"buried: the soloist (seat {soloist}) buries {n} x "
                               f"{format_card(t)} but does not hold "
                               f"{'it' if own[t] == 0 else f'{n} copies'} after the exchange "
                               f"(he holds {_show_counts(own)})")
        own.subtract(Counter(buried))
        hands[soloist] = +own
        self.buried = buried

        durch = rec["durch"]
        self.check(isinstance(durch, bool), lambda: f"durch must be true/false, got {durch!r}")
        self.check(not durch or rules.widow_durch,
                   lambda: f"the soloist declared Durch, but {rules.name} has no Durch ([widow] "
                           f"durch)")
        self.durch = durch
        durch_open = rec["durch_open"]
        self.check(isinstance(durch_open, bool),
                   lambda: f"durch_open must be true/false, got {durch_open!r}")
        self.check(not durch_open or (durch and rules.durch_open),
                   lambda: "durch_open without a Durch, or in a game without the open Durch "
                           "([widow] durch_open)")
        self.durch_open = durch_open
        bettel = rec["bettel"]
        self.check(isinstance(bettel, bool), lambda: f"bettel must be true/false, got {bettel!r}")
        self.check(not bettel or rules.widow_bettel,
                   lambda: f"the soloist declared Bettel, but {rules.name} has no Bettel "
                           f"([widow] bettel)")
        self.check(not (bettel and durch), "a deal cannot be a Durch and a Bettel")
        self.check(not bettel or self.bid <= BETTEL_BID,
                   lambda: f"a Bettel is worth {BETTEL_BID} in the auction, but the bid is "
                           f"{self.bid}")
        self.bettel = bettel
        trump_rec = rec["trump"]
        if durch or bettel:
            game = "Durch" if durch else "Bettel"
            self.check(trump_rec is None,
                       lambda: f"a {game} has no trump, but trump is {trump_rec!r}")
            self.trump = NO_TRUMP
        else:
            self.check(isinstance(trump_rec, str) and len(trump_rec) == 1 and trump_rec in SUITS,
                       lambda: f"trump must be one of the suit letters S H D C, got "
                               f"{trump_rec!r}")
            self.trump = SUITS.index(trump_rec)
        for s in range(players):
            n = sum(hands[s].values())
            self.check(n == rules.hand_size,
                       lambda: f"seat {s} holds {n} cards after the exchange and burying, "
                               f"expected {rules.hand_size}")

        if durch or bettel:
            melds = [0] * players
        else:
            melds = [hand_melds(rules, hands[s], self.trump) for s in range(players)]
        got = self.per_seat("melds")
        self.check(got == melds,
                   lambda: f"melds are {got}, the cards after the exchange and burying with "
                           f"trump {trump_rec} give {melds} (none counts in a Durch or a Bettel)")
        self.melds = melds

    def play(self, rec: dict, soloist: int, dealer: int) -> None:
        rules, players = self.rules, self.rules.players
        tricks = rec["tricks"]
        self.check(isinstance(tricks, list), "tricks must be a list")
        self.check(len(tricks) == rules.hand_size,
                   lambda: f"{len(tricks)} tricks, expected {rules.hand_size} (one per card in "
                           f"hand)")
        won_points = [0] * players
        self.tricks_won = [0] * players
        # the card types each seat holds, kept up to date by trick
        self.held = [{t for t, n in hand.items() if n > 0} for hand in self.hands]
        # the first lead (SPEC "House variants"): the soloist, or the player left of the dealer
        if rules.first_leader == "non_dealer":
            leader, who = (dealer + 1) % players, f"the player left of the dealer (seat {dealer})"
        else:
            leader, who = soloist, "the soloist"
        for i, trick in enumerate(tricks):
            winner, cards = self.trick(i, trick, leader, who)
            won_points[winner] += sum(rules.rank_points[rank_of(t)] for t in cards)
            self.tricks_won[winner] += 1
            leader = winner
        for s in range(players):
            n = sum(self.hands[s].values())
            self.check(n == 0,
                       lambda: f"seat {s} still holds {n} card(s) after the last trick")
        card_points = list(won_points)
        card_points[leader] += rules.last_trick
        card_points[soloist] += sum(rules.rank_points[rank_of(t)] for t in self.buried)
        self.check(sum(card_points) == rules.total_card_points,
                   lambda: f"replayed card points add up to {sum(card_points)}, not "
                           f"{rules.total_card_points}")
        self.card_points = card_points
        self.last_winner = leader

    def trick(self, i: int, trick: Any, leader: int, who: str) -> tuple[int, list[int]]:
        players, trump = self.rules.players, self.trump
        self.keys(trick, TRICK_KEYS, "trick", i)
        got_leader = self.seat(trick["leader"], "leader", i)
        if got_leader != leader:
            if i == 0:
                self.fail(f"the first trick is led by seat {got_leader}, but {who}, seat "
                          f"{leader}, leads it", i)
            self.fail(f"led by seat {got_leader}, but the previous trick's winner is seat "
                      f"{leader}", i)
        cards = self.cards(trick["cards"], "cards", i)
        self.check(len(cards) == players,
                   lambda: f"{len(cards)} cards played, expected one per player "
                           f"({players})", i)
        for k, t in enumerate(cards):
            seat = (leader + k) % players
            held = self.held[seat]
            if t not in held:
                self.fail(f"seat {seat} plays {format_card(t)}, which it does not hold (it holds "
                          f"{_show_counts(self.hands[seat])})", i)
            if k:  # the leader may lead any card he holds
                legal = legal_types(held, cards[:k], trump)
                if t not in legal:
                    self.fail(f"seat {seat} plays {format_card(t)} to "
                              f"{' '.join(map(format_card, cards[:k]))} (trump "
                              f"{self.trump_name()}), which breaks the must-head obligation: "
                              f"legal are {_show(legal)}", i)
            self.hands[seat][t] -= 1
            if not self.hands[seat][t]:
                held.discard(t)
        winner = (leader + trick_winner_index(cards, trump)) % players
        got = self.seat(trick["winner"], "winner", i)
        self.check(got == winner,
                   lambda: f"winner is seat {got}, but {' '.join(map(format_card, cards))} led by "
                           f"seat {leader} with trump {self.trump_name()} goes to seat {winner}",
                   i)
        return winner, cards

    def scoring(self, rec: dict, soloist: int, bid: int) -> None:
        rules = self.rules
        got = self.per_seat("card_points")
        self.check(got == self.card_points,
                   f"card_points are {got}, the replay gives {self.card_points} (cards of the "
                   f"tricks won + {rules.last_trick} for the last trick to seat "
                   f"{self.last_winner} + the buried cards to the soloist, seat {soloist})")

        sides = sides_of(rules)
        side_tricks = [sum(self.tricks_won[s] for s in side) for side in sides]
        sweep = [k for k, n in enumerate(side_tricks) if n == rules.hand_size]
        # SPEC: "taking all 15 scores a bonus of 1000" (all 11 in four-hand); the Swabian
        # games have none ([widow] all_tricks_bonus = 0: every trick pays only when announced)
        bonus = rules.all_tricks_bonus if sweep else 0
        got = self.integer(rec["bonus"], "bonus")
        self.check(got == bonus,
                   f"bonus is {got}, expected {bonus} (tricks per side "
                   f"{dict(zip(map(_side_name, sides), side_tricks))}; "
                   f"{rules.all_tricks_bonus} exactly when one side takes all {rules.hand_size})")

        side_scores = []
        made = None
        for k, side in enumerate(sides):
            meld = sum(self.melds[s] for s in side) if side_tricks[k] > 0 else 0
            points = sum(self.card_points[s] for s in side)
            if rules.round_to > 1:  # [points] round_to: to the nearest multiple, 5 up for tens
                points = math.floor(points / rules.round_to + 0.5) * rules.round_to
            total = meld + points + (bonus if k in sweep else 0)
            if soloist in side:
                made = total >= bid
                solo_total = total
                side_scores.append(total if made else -2 * bid)
            else:
                side_scores.append(total)
        got = rec["made"]
        self.check(isinstance(got, bool), f"made must be true/false, got {got!r}")
        self.check(got == made,
                   f"made is {got}, but the soloist's side totals {solo_total} (meld if it took a "
                   f"trick + card points + bonus) against the bid {bid}")

        self.side_scores(rec, sides, side_scores,
                         f"soloist seat {soloist}, {'made' if made else 'set: -2 x bid'}; melds "
                         f"{self.melds}, card points {self.card_points}, tricks "
                         f"{self.tricks_won}, bonus {bonus}")

    def trump_name(self) -> str:
        return "none (Durch or Bettel)" if self.trump == NO_TRUMP else SUITS[self.trump]

    def durch_score(self, rec: dict, soloist: int) -> None:
        """A Durch: the soloist's side must take every trick; +1000 if it did, else -1000
        (an open Durch: +-1500, SPEC "Today's practice"); every other side 0; no bonus; card
        points as played."""
        rules = self.rules
        got = self.per_seat("card_points")
        self.check(got == self.card_points,
                   f"card_points are {got}, the replay gives {self.card_points}")
        self.check(rec["bonus"] == 0, f"a Durch has no bonus, yet the bonus is {rec['bonus']!r}")
        sides = sides_of(rules)
        own = next(side for side in sides if soloist in side)
        made = sum(self.tricks_won[s] for s in own) == rules.hand_size
        self.check(rec["made"] is made,
                   f"made is {rec['made']!r}, but the soloist's side took "
                   f"{sum(self.tricks_won[s] for s in own)} of {rules.hand_size} tricks")
        worth = 1500 if self.durch_open else DURCH_SCORE
        side_scores = [(worth if made else -worth) if side == own else 0 for side in sides]
        self.side_scores(rec, sides, side_scores,
                         f"Durch of seat {soloist}: {'made' if made else 'failed'}")

    def bettel_score(self, rec: dict, soloist: int, bid: int) -> None:
        """A Bettel: the soloist must take no trick; the bid if he took none, else minus twice
        the bid; every other side 0; no bonus; card points as played."""
        rules = self.rules
        got = self.per_seat("card_points")
        self.check(got == self.card_points,
                   f"card_points are {got}, the replay gives {self.card_points}")
        self.check(rec["bonus"] == 0, f"a Bettel has no bonus, yet the bonus is {rec['bonus']!r}")
        made = self.tricks_won[soloist] == 0
        self.check(rec["made"] is made,
                   f"made is {rec['made']!r}, but the soloist took {self.tricks_won[soloist]} "
                   f"tricks")
        sides = sides_of(rules)
        side_scores = [(bid if made else -2 * bid) if soloist in side else 0 for side in sides]
        self.side_scores(rec, sides, side_scores,
                         f"Bettel of seat {soloist} at {bid}: {'made' if made else 'failed'}")

    def side_scores(self, rec: dict, sides: list[tuple[int, ...]], side_scores: list[int],
                    why: str) -> None:
        """``scores`` give every seat its side's score, ``pair_scores`` (partnerships) each
        pair's."""
        side_of = {s: k for k, side in enumerate(sides) for s in side}
        scores = [side_scores[side_of[s]] for s in range(self.rules.players)]
        got = self.per_seat("scores")
        self.check(got == scores, f"scores are {got}, the replay gives {scores} ({why})")
        if self.rules.partnerships:
            got = rec["pair_scores"]
            self.check(got == side_scores and isinstance(got, list)
                       and all(isinstance(v, int) and not isinstance(v, bool) for v in got),
                       f"pair_scores are {got!r}, the replay gives {side_scores} (pairs "
                       f"{', '.join(map(_side_name, sides))})")

    def given_up(self, rec: dict, soloist: int, bid: int) -> None:
        """Abgehen (SPEC "House variants of today's Binokel"): the soloist gave up before the
        first lead, so nobody played a card; his side scores minus the bid once and no meld,
        every other side its meld plus the house bonus."""
        rules, players = self.rules, self.rules.players
        self.check(rules.widow_concede,
                   f"the soloist gave up, but {rules.name} has no Abgehen ([widow] concede)")
        self.check(rec["tricks"] == [],
                   f"the soloist gave up, yet {len(rec['tricks'])} tricks were played")
        got = self.per_seat("card_points")
        self.check(got == [0] * players, f"the soloist gave up, yet card_points are {got}")
        self.check(rec["bonus"] == 0, f"the soloist gave up, yet the bonus is {rec['bonus']!r}")
        self.check(rec["made"] is False, "the soloist gave up, yet made is true")
        sides = sides_of(rules)
        if rules.concede_payout == "half_bid":  # SPEC "Today's practice": half the bid each,
            # rounded up to the ladder's step where the bid stands
            step = dict(rules.bid_ladder)[max(start for start, _ in rules.bid_ladder
                                              if start <= bid)]
            payout = math.ceil(bid / 2 / step) * step
        else:
            payout = rules.concede_bonus
        side_scores = [-bid if soloist in side else
                       sum(self.melds[s] for s in side) + payout for side in sides]
        self.side_scores(rec, sides, side_scores,
                         f"the soloist, seat {soloist}, gave up at {bid}: minus the bid; the "
                         f"others their melds {self.melds} + {payout}")


def _side_name(side: tuple[int, ...]) -> str:
    return "+".join(map(str, side))


def replay_widow(rules: Rules, record: Any) -> None:
    """Replay one widow-game record; ``AssertionError`` naming the deal and the problem at the
    first violation of the rules or the record format."""
    _Replay(rules, record).run()
