"""An independent replay checker for the deal records of Sechsundsechzig (variant ``sixty-six``).

Written from the rules alone: SPEC.md "Variant `sixty-six`" and the record format with its rule
decisions (the sixty-six play record, written down with the engine), so that it catches the
engine's mistakes. It imports nothing of the package, not even the card notation: a card is
written rank (``9 J Q K T A``, low to high) then suit (``S H D C``), as the records write them.

Use:

- ``replay(record)`` replays one record and returns its violations, ``[]`` when the record obeys
  every rule. A violation reads ``"<kind>: deal <n>: <where>: <problem>"``; ``kind_of(v)`` gives
  its kind, one of ``KINDS``.
- ``check_many(records)`` replays a stream of records and counts the violations by kind (``{}``
  when all are valid); it also checks that the dealer alternates from one deal to the next
  (kind ``dealer``, the messages from ``dealer_violations(records)``). The test of the engine's
  records, once the engine is registered (the records as ``binokel-sim play --format jsonl``
  writes them, one JSON object a line)::

      records = [json.loads(line) for line in text.splitlines()]
      counts = check_many(records)
      found = [v for r in records for v in replay(r)] + dealer_violations(records)
      assert counts == {}, (counts, found[:5])

A violation that leaves the cards unknown (a malformed record, a card not held, a wrong draw, a
trick after the deal ended) stops the replay of that record. Any other is reported once and the
replay goes on with the record's own value (its leader, winner, marriage points, claimant), so
that one mistake gives one violation, not a cascade.

The rules as this checker reads them (SPEC.md "Variant `sixty-six`" and the record format's
decisions):

- Deal: 24 cards (9 J Q K T A of S H D C), 6 to each seat, 12 in the stock (top first); the
  stock's last card is the turned trump and fixes the trump suit. The non-dealer leads first; the
  winner of a trick leads the next.
- Before leading, in this order, the leader may exchange the trump 9 for the stock's last card
  (he holds the trump 9, has won a trick, the stock holds 3 or more cards and is not closed),
  then close the stock (it is not closed and not empty), then announce a marriage by leading its
  K or Q (he holds both; 20, 40 in trump; closed or not).
- Open stock: any card. Closed (from the closing trick on) or exhausted: the follower follows
  suit and beats the lead if he can, else follows suit; void, he trumps if he can; else any card.
- The higher card of the led suit wins unless trumped (9 J Q K T A). While the stock is open and
  not empty, the winner draws its top card, then the other seat; never after closing.
- A seat's count: the card points of its tricks (A 11, T 10, K 4, Q 3, J 2, 9 0), its marriages
  once it has won a trick, and 10 for the last trick when all 12 were played without closing.
- A claim ends the deal: after a trick the claimant won, or on lead right after announcing a
  marriage (that turn's exchange and close flags then sit on the claim, that lead is not
  played). Correct (count >= 66): the claimant scores 3 if the opponent won no trick, 2 if the
  opponent's count is under 33, else 1. Wrong: the opponent scores 2, 3 if the claimant won no
  trick. Whoever closed, a claim is scored as a claim.
- No claim: the deal ends only when both hands are empty (12 tricks with an open stock, or the
  closing trick's index + 6 tricks with a closed one). Closed: the closer failed, the opponent
  scores 2, 3 if he had won no trick when it was closed (``failed_close``). Else the last trick's
  winner scores 1 (``last_trick``).

Readings of points the texts leave open:

- A claim right after announcing a marriage is allowed on any lead, even before the claimant has
  won a trick; the marriage then does not count, so the claim is wrong (scored, not a
  violation). The decision's "only if he has won a trick" is read as when it brings him to 66.
- A claim's ``exchange`` and ``close`` keys may be absent (read as false: the format's example
  has none); present, they are true/false and both false for a claim without a marriage.
- The last trick's winner may claim after it (a claim after a trick he won); his count then
  includes the last trick's 10.
- A wrong claim is a move the rules allow (the random policy makes them): it is scored, not
  reported. So is not claiming with 66 or more: with no claim the deal is played out and scored
  as ``failed_close`` or ``last_trick`` whatever the counts.
- Key order and the order of the cards within a hand are not rules and are not checked.
- Dealers alternate (SPEC): records with consecutive deal numbers have different dealers; only
  ``check_many`` sees two records.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

SUITS = "SHDC"
RANKS = "9JQKTA"  # low to high: the trick-taking order
CARD_POINTS = {"9": 0, "J": 2, "Q": 3, "K": 4, "T": 10, "A": 11}
DECK = [r + s for s in SUITS for r in RANKS]
CARD_NAMES = frozenset(DECK)
HAND_SIZE = 6
STOCK_SIZE = 12
N_TRICKS = 12
LAST_TRICK = 10
MARRIAGE, TRUMP_MARRIAGE = 20, 40
TARGET = 66  # a correct claim needs this count
HALF = 33  # an opponent under this count makes a correct claim worth 2
EXCHANGE_MIN_STOCK = 3  # "more than two cards"

RECORD_KEYS = {"deal", "variant", "dealer", "hands", "stock", "trump", "tricks", "claim",
               "points", "tricks_won", "result"}
TRICK_KEYS = {"leader", "exchange", "close", "marriage", "cards", "winner", "draws"}
MARRIAGE_KEYS = {"suit", "points"}
CLAIM_KEYS = {"seat", "after", "marriage"}
CLAIM_FLAGS = ("exchange", "close")  # only for a claim right after a marriage; may be absent
RESULT_KEYS = {"seat", "game_points", "reason"}

# The kinds of violation, in the order a replay meets them.
KINDS = (
    "format",      # the record is malformed: keys, types, card notation, sizes
    "deck",        # hands + stock are not the 24 cards once each
    "trump",       # trump is not the suit of the stock's last card
    "leader",      # the wrong seat leads
    "exchange",    # an exchange of the trump 9 against its conditions
    "close",       # a close against its conditions
    "marriage",    # a marriage not held, not led, or with wrong points
    "hand",        # a card played that the seat does not hold
    "follow",      # a card played against the duty to follow, beat or trump
    "winner",      # the wrong trick winner
    "draw",        # draws not the stock's cards in order, or draws when none are due
    "after_end",   # a trick after every card was played
    "claim",       # a claim at a time or by a seat the rules do not allow
    "after_claim",  # a trick after the claim
    "unfinished",  # no claim, but cards are still in hand
    "points",      # the final counts
    "tricks_won",  # the tricks won
    "result",      # the winner, the game points or the reason
    "dealer",      # the dealer does not alternate (check_many only)
)


def rank(card: str) -> int:
    return RANKS.index(card[0])


def suit(card: str) -> str:
    return card[1]


def show(cards: Iterable[str]) -> str:
    """Cards S H D C, high to low within a suit."""
    ordered = sorted(cards, key=lambda c: (SUITS.index(suit(c)), -rank(c)))
    return " ".join(ordered) or "nothing"


def legal_cards(hand: set[str], led: str, trump: str, strict: bool) -> set[str]:
    """The cards of ``hand`` that may follow the lead ``led``. Open stock: any. Strict play
    (closed or exhausted): a card of the led suit that beats it, else any of the led suit; void in
    it, a trump; else any card."""
    if not strict:
        return set(hand)
    follow = {c for c in hand if suit(c) == suit(led)}
    if follow:
        return {c for c in follow if rank(c) > rank(led)} or follow
    return {c for c in hand if suit(c) == trump} or set(hand)


def trick_winner(leader: int, cards: list[str], trump: str) -> int:
    """The seat that takes ``cards`` (the leader's card first): the follower beats the lead with
    a higher card of its suit, or with a trump on a lead that is not trump."""
    lead, follow = cards
    if suit(follow) == suit(lead):
        beats = rank(follow) > rank(lead)
    else:
        beats = suit(follow) == trump
    return 1 - leader if beats else leader


def marriage_points(marriage_suit: str, trump: str) -> int:
    return TRUMP_MARRIAGE if marriage_suit == trump else MARRIAGE


def kind_of(violation: str) -> str:
    return violation.split(":", 1)[0]


class _Stop(Exception):
    """The replay cannot go on (the cards are unknown from here)."""


class _Replay:
    def __init__(self, record: Any):
        self.record = record
        deal = record.get("deal") if isinstance(record, dict) else None
        self.where = f"deal {deal!r}"
        self.found: list[str] = []

    # -- reporting ------------------------------------------------------------------------------
    def report(self, kind: str, problem: str, at: str | None = None) -> None:
        assert kind in KINDS, kind
        place = f"{self.where}: {at}" if at else self.where
        self.found.append(f"{kind}: {place}: {problem}")

    def stop(self, kind: str, problem: str, at: str | None = None) -> None:
        self.report(kind, problem, at)
        raise _Stop

    def need(self, ok: bool, problem: str, at: str | None = None) -> None:
        """A malformed record: report and stop."""
        if not ok:
            self.stop("format", problem, at)

    # -- validators of the record format --------------------------------------------------------
    # (each writes its message only when the check fails: they run a few hundred times a record)
    def keys(self, obj: Any, expected: set[str], what: str, at: str | None = None,
             optional: Iterable[str] = ()) -> None:
        if not isinstance(obj, dict):
            self.stop("format", f"{what} must be an object, got {obj!r}", at)
        if obj.keys() == expected:  # none missing, none unexpected
            return
        missing = sorted(expected - set(obj))
        self.need(not missing, f"{what} lacks the key(s) {', '.join(missing)}", at)
        unknown = sorted(str(k) for k in set(obj) - expected - set(optional))
        self.need(not unknown, f"{what} has unexpected key(s) {', '.join(unknown)}", at)

    def integer(self, value: Any, what: str, at: str | None = None) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            self.stop("format", f"{what} must be an integer, got {value!r}", at)
        return value

    def seat(self, value: Any, what: str, at: str | None = None) -> int:
        s = self.integer(value, what, at)
        if s not in (0, 1):
            self.stop("format", f"{what} is {s}, not a seat 0 or 1", at)
        return s

    def flag(self, value: Any, what: str, at: str | None = None) -> bool:
        if not isinstance(value, bool):
            self.stop("format", f"{what} must be true/false, got {value!r}", at)
        return value

    def card(self, token: Any, what: str, at: str | None = None) -> str:
        if not (isinstance(token, str) and token in CARD_NAMES):
            self.stop("format", f"{what}: {token!r} is not a card (rank 9 J Q K T A, then suit "
                                f"S H D C)", at)
        return token

    def cards(self, tokens: Any, what: str, size: int | None = None,
              at: str | None = None) -> list[str]:
        if not isinstance(tokens, list):
            self.stop("format", f"{what} must be a list of cards, got {tokens!r}", at)
        out = [self.card(t, what, at) for t in tokens]
        if size is not None and len(out) != size:
            self.stop("format", f"{what} has {len(out)} cards, expected {size}", at)
        return out

    def marriage_object(self, value: Any, what: str, at: str) -> dict | None:
        if value is None:
            return None
        self.keys(value, MARRIAGE_KEYS, what, at)
        self.need(value["suit"] in list(SUITS),
                  f"{what}.suit must be a suit letter S H D C, got {value['suit']!r}", at)
        self.integer(value["points"], f"{what}.points", at)
        return value

    # -- the replay -----------------------------------------------------------------------------
    def run(self) -> list[str]:
        try:
            self.replay()
        except _Stop:
            pass
        return self.found

    def replay(self) -> None:
        rec = self.record
        self.need(isinstance(rec, dict), f"a record must be a JSON object, got "
                                         f"{type(rec).__name__}")
        self.keys(rec, RECORD_KEYS, "record")
        deal = self.integer(rec["deal"], "deal")
        self.need(deal >= 0, f"deal number {deal} is negative")
        self.need(rec["variant"] == "sixty-six",
                  f"variant is {rec['variant']!r}, not 'sixty-six'")
        self.dealer = self.seat(rec["dealer"], "dealer")
        self.deal(rec)
        tricks = rec["tricks"]
        self.need(isinstance(tricks, list), f"tricks must be a list, got {tricks!r}")
        claim = rec["claim"]
        after = len(tricks) - 1
        if claim is not None:
            self.keys(claim, CLAIM_KEYS, "claim", optional=CLAIM_FLAGS)
            after = self.integer(claim["after"], "claim.after")
            self.need(-1 <= after < len(tricks),
                      f"claim.after is {after}, but the record holds {len(tricks)} trick(s) "
                      f"(-1: before the first trick is finished)")

        leader = 1 - self.dealer  # the non-dealer leads the first trick
        for i in range(after + 1):
            leader = self.trick(i, tricks[i], leader)
        if claim is not None:
            self.claim(claim, after, leader)
            if after < len(tricks) - 1:
                self.stop("after_claim",
                          f"{len(tricks) - 1 - after} trick(s) after the claim after "
                          f"tricks[{after}] (a claim ends the deal)")
        self.totals(claim)

    def deal(self, rec: dict) -> None:
        """Hands + stock = the deck, once each; the trump is the stock's last card's suit."""
        hands = rec["hands"]
        self.need(isinstance(hands, list) and len(hands) == 2,
                  f"hands must be a list of 2 hands, got {hands!r}")
        dealt = [self.cards(h, f"hands[{s}]", HAND_SIZE) for s, h in enumerate(hands)]
        stock = self.cards(rec["stock"], "stock", STOCK_SIZE)
        counts = Counter(dealt[0] + dealt[1] + stock)
        twice = [c for c in DECK if counts[c] > 1]
        if twice:
            self.stop("deck", f"hands and stock hold {show(twice)} more than once, and lack "
                              f"{show(c for c in DECK if counts[c] == 0)}")
        trump = rec["trump"]
        self.need(trump in list(SUITS), f"trump must be a suit letter S H D C, got {trump!r}")
        turned = stock[-1]
        if trump != suit(turned):
            self.report("trump", f"trump is {trump!r}, but the turned card (the stock's last) is "
                                 f"{turned}")
        self.trump = suit(turned)
        self.hands = [set(h) for h in dealt]
        self.stock = list(stock)  # still to draw, top first; an exchange changes its last card
        self.closer: int | None = None
        self.opponent_tricks_at_close = 0
        self.won = [0, 0]  # tricks
        self.card_points = [0, 0]
        self.marriages: list[list[int]] = [[], []]  # the points of each announced marriage
        self.last_winner: int | None = None

    def strict(self) -> bool:
        return self.closer is not None or not self.stock

    def turn(self, seat: int, exchange: bool, close: bool, marriage: dict | None,
             lead: str | None, at: str) -> None:
        """What the seat on lead does before leading: exchange, close, announce (``lead``: the
        card it leads, None for a claim that ends the deal instead)."""
        hand = self.hands[seat]
        if exchange:
            nine = "9" + self.trump
            why = []
            if nine not in hand:
                why.append(f"it does not hold the trump 9 ({nine})")
            if not self.won[seat]:
                why.append("it has won no trick yet")
            if self.closer is not None:
                why.append("the stock is closed")
            if len(self.stock) < EXCHANGE_MIN_STOCK:
                why.append(f"the stock holds {len(self.stock)} card(s), fewer than "
                           f"{EXCHANGE_MIN_STOCK}")
            if why:
                self.report("exchange", f"seat {seat} exchanges the trump 9, but "
                                        f"{'; '.join(why)}", at)
            if nine in hand and self.stock:
                turned = self.stock[-1]
                hand.remove(nine)
                hand.add(turned)
                self.stock[-1] = nine
        if close:
            if self.closer is not None:
                self.report("close", f"seat {seat} closes the stock, but seat {self.closer} "
                                     f"closed it already", at)
            else:
                if not self.stock:
                    self.report("close", f"seat {seat} closes the stock, but it is exhausted", at)
                self.closer = seat
                self.opponent_tricks_at_close = self.won[1 - seat]
        if marriage is not None:
            m = marriage["suit"]
            why = []
            lacks = [r + m for r in "KQ" if r + m not in hand]
            if lacks:
                why.append(f"it does not hold {' '.join(lacks)} (it holds {show(hand)})")
            if lead is not None and lead not in ("K" + m, "Q" + m):
                why.append(f"it leads {lead}, not the K or Q of {m}")
            want = marriage_points(m, self.trump)
            if marriage["points"] != want:
                why.append(f"it is worth {want}, not {marriage['points']} (trump {self.trump})")
            if why:
                self.report("marriage", f"seat {seat} announces the marriage in {m}, but "
                                        f"{'; '.join(why)}", at)
            self.marriages[seat].append(marriage["points"])

    def trick(self, i: int, trick: Any, leader: int) -> int:
        """Replay ``tricks[i]`` led by ``leader`` (by the rules); returns the next leader."""
        at = f"tricks[{i}] (trick {i + 1})"
        self.keys(trick, TRICK_KEYS, "trick", at)
        if not self.hands[0] and not self.hands[1]:
            self.stop("after_end", "a trick after every card was played (the deal ended with the "
                                   "previous trick)", at)
        got = self.seat(trick["leader"], "leader", at)
        if got != leader:
            why = (f"the dealer is seat {self.dealer}, so seat {leader} leads the first trick"
                   if i == 0 else f"seat {leader} won the previous trick")
            self.report("leader", f"led by seat {got}, but {why}", at)
            leader = got
        exchange = self.flag(trick["exchange"], "exchange", at)
        close = self.flag(trick["close"], "close", at)
        marriage = self.marriage_object(trick["marriage"], "marriage", at)
        cards = self.cards(trick["cards"], "cards", 2, at)
        self.turn(leader, exchange, close, marriage, cards[0], at)

        strict = self.strict()
        for k, c in enumerate(cards):
            seat = leader if k == 0 else 1 - leader
            hand = self.hands[seat]
            if c not in hand:
                self.stop("hand", f"seat {seat} plays {c}, which it does not hold (it holds "
                                  f"{show(hand)})", at)
            if k == 1:
                legal = legal_cards(hand, cards[0], self.trump, strict)
                if c not in legal:
                    why = "the stock is closed" if self.closer is not None else \
                        "the stock is exhausted"
                    self.report("follow", f"seat {seat} plays {c} to {cards[0]} while {why} "
                                          f"(trump {self.trump}): it must follow suit and beat, "
                                          f"else trump; legal are {show(legal)}", at)
            hand.remove(c)

        winner = trick_winner(leader, cards, self.trump)
        got = self.seat(trick["winner"], "winner", at)
        if got != winner:
            self.report("winner", f"winner is seat {got}, but {cards[0]} led by seat {leader}, "
                                  f"{cards[1]} played by seat {1 - leader} (trump {self.trump}) "
                                  f"go to seat {winner}", at)
            winner = got
        self.won[winner] += 1
        self.card_points[winner] += sum(CARD_POINTS[c[0]] for c in cards)
        self.last_winner = winner

        draws = self.cards(trick["draws"], "draws", None, at)
        due = self.stock[:2] if self.closer is None else []
        if draws != due:
            if self.closer is not None:
                why = f"the stock is closed (by seat {self.closer}): no draws"
            elif not self.stock:
                why = "the stock is exhausted: no draws"
            else:
                why = (f"the winner (seat {winner}) draws {due[0]}, then seat {1 - winner} draws "
                       f"{due[1]} (the stock's next cards, its last {self.stock[-1]})")
            self.stop("draw", f"draws are {draws}, but {why}", at)
        if due:
            self.hands[winner].add(due[0])
            self.hands[1 - winner].add(due[1])
            del self.stock[:2]
        return winner

    def claim(self, claim: dict, after: int, leader: int) -> None:
        """The claim after ``tricks[after]``; ``leader`` leads the next trick."""
        at = "claim"
        seat = self.seat(claim["seat"], "claim.seat", at)
        marriage = self.marriage_object(claim["marriage"], "claim.marriage", at)
        flags = {k: self.flag(claim.get(k, False), f"claim.{k}", at) for k in CLAIM_FLAGS}
        if marriage is None:
            if after < 0:
                self.report("claim", f"seat {seat} claims before any trick was finished without "
                                     f"announcing a marriage", at)
            elif seat != leader:
                self.report("claim", f"seat {seat} claims after tricks[{after}], which seat "
                                     f"{leader} won (a claim follows a trick the claimant won, "
                                     f"or a marriage it announced on lead)", at)
            set_flags = [k for k, v in flags.items() if v]
            if set_flags:
                self.report("claim", f"a claim without a marriage has {' and '.join(set_flags)} "
                                     f"true (those belong to a turn that claims with a marriage)",
                            at)
        else:
            if seat != leader:
                self.report("claim", f"seat {seat} claims with a marriage after "
                                     f"tricks[{after}], but seat {leader} is on lead (a marriage "
                                     f"is announced on lead)", at)
            self.turn(seat, flags["exchange"], flags["close"], marriage, None, at)
        self.claimant = seat

    def counts(self) -> list[int]:
        """Each seat's count: card points (the last trick's 10 once every card is played with the
        stock not closed) and its marriages once it has won a trick."""
        points = list(self.card_points)
        played_out = not self.hands[0] and not self.hands[1]
        if played_out and self.closer is None and self.last_winner is not None:
            points[self.last_winner] += LAST_TRICK
        return [p + (sum(self.marriages[s]) if self.won[s] else 0) for s, p in enumerate(points)]

    def totals(self, claim: dict | None) -> None:
        rec = self.record
        left = len(self.hands[0]) + len(self.hands[1])
        if claim is None and left:
            self.stop("unfinished",
                      f"no claim, yet {left} card(s) are still in hand after the last trick "
                      f"(without a claim every card is played)")
        counts = self.counts()
        for key, want in (("points", counts), ("tricks_won", self.won)):
            got = rec[key]
            self.need(isinstance(got, list) and len(got) == 2,
                      f"{key} must be a list of 2 integers, got {got!r}")
            for s in (0, 1):
                self.integer(got[s], f"{key}[{s}]")
            if got != want:
                how = ("card points of the tricks won + marriages once their announcer has won a "
                       "trick + the last trick's 10 with the stock exhausted, not closed"
                       if key == "points" else "the replayed tricks")
                self.report(key, f"{key} are {got}, but {how} give {want}")

        if claim is not None:
            c = self.claimant
            o = 1 - c
            if counts[c] >= TARGET:
                why = f"seat {c} claims with {counts[c]}"
                if not self.won[o]:
                    want = (c, 3, "claim")
                    why += f", seat {o} has won no trick"
                elif counts[o] < HALF:
                    want = (c, 2, "claim")
                    why += f", seat {o} has {counts[o]} (under {HALF})"
                else:
                    want = (c, 1, "claim")
                    why += f", seat {o} has {counts[o]}"
            else:
                want = (o, 2 if self.won[c] else 3, "wrong_claim")
                why = (f"seat {c} claims with {counts[c]} (under {TARGET}) and has won "
                       f"{self.won[c]} trick(s)")
        elif self.closer is not None:
            o = 1 - self.closer
            had = self.opponent_tricks_at_close
            want = (o, 2 if had else 3, "failed_close")
            why = (f"seat {self.closer} closed and nobody claimed; seat {o} had won {had} "
                   f"trick(s) when it was closed")
        else:
            want = (self.last_winner, 1, "last_trick")
            why = (f"all {N_TRICKS} tricks were played, nobody claimed, seat {self.last_winner} "
                   f"won the last")
        result = rec["result"]
        self.keys(result, RESULT_KEYS, "result")
        got = (result["seat"], result["game_points"], result["reason"])
        if got != want:
            self.report("result", f"result is seat {got[0]!r}, {got[1]!r} game point(s), "
                                  f"{got[2]!r}, but {why}: seat {want[0]}, {want[1]}, "
                                  f"{want[2]!r}")


def replay(record: Any) -> list[str]:
    """The violations of one sixty-six deal record (``[]``: it obeys every rule), each
    ``"<kind>: deal <n>: <where>: <problem>"``."""
    return _Replay(record).run()


def dealer_violations(records: Iterable[Any]) -> list[str]:
    """SPEC: dealers alternate. A record whose deal number follows another's has the other
    dealer."""
    dealers = {r["deal"]: r.get("dealer") for r in records
               if isinstance(r, dict) and isinstance(r.get("deal"), int)}
    return [f"dealer: deal {d + 1}: dealer is seat {dealers[d + 1]!r}, as in deal {d} (dealers "
            f"alternate)" for d in sorted(dealers)
            if d + 1 in dealers and dealers[d + 1] == dealers[d]]


def check_many(records: Iterable[Any]) -> dict[str, int]:
    """Replay every record and check that the dealers alternate; the violations counted by kind
    (``{}``: all valid)."""
    records = list(records)
    found = [v for r in records for v in replay(r)] + dealer_violations(records)
    return dict(Counter(kind_of(v) for v in found))
