"""Slow, obvious pure-Python twins of the trick kernels (:mod:`binokel_sim.kernels.partnership.tricks`).

For tests and the baseline of ``benchmarks/bench_playout.py``. No bit tricks and no numba: a hand
is a list of 24 counts (copies held of each card type), a trick is a list of card types in play
order, and every rule is written the way SPEC.md states it ("Must-head obligation", "Trick
winner", "Scoring a played deal"). The random policy's play-outs have twins; the heuristic has a
twin of its card choice (:func:`heuristic_card`), its rules written out one after another.

The random choices are made by a ``pick(n)`` callable returning an integer in ``[0, n)``; the
play-out picks the ``k``-th of the distinct legal card types in ascending type order and calls
``pick`` only when at least two types are legal, exactly like the kernel's random policy.
:func:`stream_pick` makes such a callable from a :class:`binokel_sim.reference.core.Stream`, which
reproduces the kernel's ``below_scalar`` draws, so a kernel play-out and a reference play-out
fed the same stream must agree card for card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from binokel_sim import expert_play, pair_value
from binokel_sim.cards import (
    N_SUITS,
    N_TYPES,
    SUITS,
    format_card,
    format_counts,
    type_rank,
    type_suit,
)
from binokel_sim.constants import NO_BID
from binokel_sim.reference.core import (
    Stream,
    block_streams,
    deal_hand,
    deck_cards,
    may_name,
    meld_total,
)
from binokel_sim.reference.sampler import sample_counts
from binokel_sim.variants import Rules

Pick = Callable[[int], int]


def legal_cards(hand: list[int], trick: list[int], trump: int) -> list[int]:
    """The card types (ascending, each once) the hand may play to ``trick`` under the must-head
    obligation (SPEC.md "Must-head obligation"). An empty trick: any card."""
    held = [t for t in range(N_TYPES) if hand[t] > 0]
    if not trick:
        return held
    led = type_suit(trick[0])
    my_led = [t for t in held if type_suit(t) == led]
    my_trumps = [t for t in held if type_suit(t) == trump]
    trumps_in_trick = [type_rank(t) for t in trick if type_suit(t) == trump]
    led_in_trick = [type_rank(t) for t in trick if type_suit(t) == led]

    if my_led:  # 1. holding the led suit
        if led == trump:
            higher = [t for t in my_led if type_rank(t) > max(trumps_in_trick)]
            return higher or my_led
        if not trumps_in_trick:
            higher = [t for t in my_led if type_rank(t) > max(led_in_trick)]
            return higher or my_led
        return my_led  # the trick has been trumped
    if my_trumps:  # 2. void in the led suit, holding trump
        if not trumps_in_trick:
            return my_trumps
        higher = [t for t in my_trumps if type_rank(t) > max(trumps_in_trick)]
        return higher or my_trumps
    return held  # 3. anything


def trick_winner(trick: list[int], trump: int) -> int:
    """Index in play order of the winning card: the highest trump; if none, the highest card of
    the led suit; ties go to the card played first (SPEC.md "Trick winner")."""
    suits = [type_suit(t) for t in trick]
    trumps = [i for i, s in enumerate(suits) if s == trump]
    contenders = trumps if trumps else [i for i, s in enumerate(suits) if s == suits[0]]
    ranks = [type_rank(trick[i]) for i in contenders]
    return contenders[ranks.index(max(ranks))]


class Trick(NamedTuple):
    leader: int  # seat that led
    cards: list[int]  # card types in play order (seat leader, leader+1, ...)
    winner: int  # seat that won


def stream_pick(stream: Stream) -> Pick:
    """``pick(n)`` drawing like the kernel's ``below_scalar``: 32 high bits, Lemire's
    multiply-shift with rejection."""
    return lambda n: stream.bounded(stream.next_u64() >> 32, n)


def play_out(hands: list[list[int]], leader: int, trump: int, rules: Rules,
             pick: Pick) -> tuple[tuple[int, int], list[Trick]]:
    """Play every trick with the random policy on all seats.

    ``hands``: four hands as counts per card type (consumed). Returns the play points of the
    pairs (seats 0+2, seats 1+3), counters plus ``rules.last_trick`` for the last trick, and the
    tricks.
    """
    points = [0, 0]
    tricks = []
    n_tricks = sum(hands[leader])
    for _ in range(n_tricks):
        cards = []
        for i in range(4):
            seat = (leader + i) % 4
            legal = legal_cards(hands[seat], cards, trump)
            card = legal[pick(len(legal))] if len(legal) > 1 else legal[0]
            hands[seat][card] -= 1
            cards.append(card)
        winner = (leader + trick_winner(cards, trump)) % 4
        points[winner % 2] += sum(rules.rank_points[type_rank(t)] for t in cards)
        tricks.append(Trick(leader, cards, winner))
        leader = winner
    points[tricks[-1].winner % 2] += rules.last_trick
    return (points[0], points[1]), tricks


def score_deal(bidder_pair_meld: int, opp_meld: int, bidder_has_marriage_in_trump: bool, bid: int,
               play_bidder: int, play_opp: int, min_meld: int = 20,
               min_play: int = 20) -> tuple[int, int]:
    """(bidding pair's score, opponents' score) per SPEC.md "Scoring a played deal"."""
    if not bidder_has_marriage_in_trump or bidder_pair_meld < min_meld:
        return -bid, 0  # automatic loss before any trick is played
    meld_counts = play_bidder >= min_play and bidder_pair_meld >= min_meld
    total = play_bidder + (bidder_pair_meld if meld_counts else 0)
    bidder_score = total if play_bidder >= min_play and total >= bid else -bid
    if play_opp >= min_play:
        opp_score = play_opp + (opp_meld if opp_meld >= min_meld else 0)
    else:
        opp_score = 0
    return bidder_score, opp_score


def benchmark_trump(rules: Rules, counts: list[int]) -> int:
    """The suit with the best meld total among the suits the hand may name (the lowest on a tie),
    else suit 0: the trump of the play-out driver's benchmark convention."""
    best, best_total = 0, -1
    for suit in range(N_SUITS):
        if may_name(rules, counts, suit):
            total = meld_total(rules, counts, suit)
            if total > best_total:
                best, best_total = suit, total
    return best


def playout_deals(rules: Rules, n_deals: int, seed: int, block_size: int,
                  first_block: int = 0, play=None) -> list[tuple[int, int, int]]:
    """Twin of ``kernels.partnership.tricks.playout_blocks`` with the random policy on every seat:
    ``(play of 0+2, play of 1+3, trump)`` per deal. Block streams and the carried deck
    permutation as in the kernel; seats 0-2 are dealt by partial shuffles, seat 3 takes the rest;
    seat 0 leads. ``play(hands, trump)`` (play points of the pairs) plays the tricks instead of
    the random policy (the heuristic's: :func:`binokel_sim.reference.sampling.
    heuristic_playout_deals`)."""
    results = []
    for _, stream, work in block_streams(deck_cards(rules), n_deals, seed, block_size, first_block):
        hands = _deal_rest(work, 0, rules.hand_size, stream)
        trump = benchmark_trump(rules, hands[0])
        if play is None:
            (play0, play1), _ = play_out(hands, 0, trump, rules, stream_pick(stream))
        else:
            play0, play1 = play(hands, trump)
        results.append((play0, play1, trump))
    return results


# --- the heuristic card player (kernels.partnership.heuristic.heuristic_card) -------------------------------

def _masters(cards: set[int], unseen: set[int]) -> set[int]:
    """The cards no unseen card of the same suit and a higher rank can beat."""
    return {t for t in cards
            if not any(type_suit(u) == type_suit(t) and type_rank(u) > type_rank(t)
                       for u in unseen)}


def _lowest_rank(cards: set[int]) -> int:
    """The card of the lowest rank; among equal ranks the lowest suit."""
    return min(cards, key=lambda t: (type_rank(t), type_suit(t)))


def _highest_rank(cards: set[int]) -> int:
    """The card of the highest rank; among equal ranks the lowest suit."""
    return min(cards, key=lambda t: (-type_rank(t), type_suit(t)))


def _cheapest(cards: set[int], trump: int, counters: set[int]) -> int:
    """Non-trump non-counters first, then non-trump counters, trump non-counters, trump
    counters; the lowest rank within the first non-empty tier."""
    side = {t for t in cards if type_suit(t) != trump}
    for tier in (side - counters, side, cards - counters, cards):
        if tier:
            return _lowest_rank(tier)
    raise ValueError("no card to play")


HEURISTIC_KNOBS = {"cash_first": 0, "pull_defenders": 0, "pull_window": 4, "pull_min": 2,
                   "lead_ruff": 1, "ruff_low": 0, "smear_losers": 0, "smear_trump": 0,
                   "lead_score": 0, "lead_trump_bid": 0, "lead_trump_def": 0,
                   "lead_trump_early": 0, "lead_trump_len": 0, "lead_master": 0,
                   "lead_master_trump": 0, "lead_counter": 0, "lead_rank": 0, "lead_len": 0,
                   "lead_out": 0, "lead_void_opp": 0, "lead_void_partner": 0, "lead_copies": 0,
                   "lead_singleton": 0, "lead_trump_out": 0, "lead_trump_drawn": 0,
                   "infer": 0, "lead_beaters": 0, "bid_partner": 0}
"""The heuristic's knobs by name: the rules L1-L3 and F1-F3 as written below, and the plain
ladder of the auction (``bid_partner`` 0). The expert plays
the same rules with its own values (``binokel_sim/expert_play.json``, docs/rules.md "Expert
policy")."""


def expert_knobs(rules: Rules) -> dict[str, int]:
    """The expert's knobs for ``rules``' variant: the heuristic's, overridden by the fitted ones."""
    return expert_play.knobs(rules.name, HEURISTIC_KNOBS)


def _may_hold(unseen: set[int], voids: set[tuple[int, int]], excluded: list[set[int]] | None,
              seat: int) -> set[int]:
    """The unseen card types ``seat`` may hold: all of them, less the suits it has shown out of
    and what else the table knows it cannot hold (``excluded``, per seat; None: nothing)."""
    out = {t for t in unseen if (seat, type_suit(t)) not in voids}
    return out - excluded[seat] if excluded is not None else out


def _has_trump(cards: set[int], trump: int) -> bool:
    return any(type_suit(t) == trump for t in cards)


def _scored_lead(hand: list[int], legal: set[int], unseen: set[int], voids: set[tuple[int, int]],
                 seat: int, trick_index: int, n_tricks: int, trump: int, bidder: int,
                 counters: set[int], w: dict[str, int],
                 excluded: list[set[int]] | None = None) -> int:
    """The expert's scored lead (kernel ``scored_lead``): the sum of the weights of each legal
    card's features, the highest sum wins, the lowest card type on a tie. With the knob
    ``infer`` a master, a suit an opponent showed out of and one the partner showed out of
    ask who *may* hold the cards (:func:`_may_hold`), not just who has not shown
    out."""
    partner, opp_a, opp_b = seat ^ 2, (seat + 1) % 4, (seat + 3) % 4
    held_trumps = sum(hand[t] for t in range(N_TYPES) if type_suit(t) == trump)
    if w["infer"]:
        may_a = _may_hold(unseen, voids, excluded, opp_a)
        may_b = _may_hold(unseen, voids, excluded, opp_b)
        threats = may_a | may_b
        drawn = not _has_trump(threats, trump)
        def opp_void(suit):
            return (((opp_a, suit) in voids and _has_trump(may_a, trump))
                    or ((opp_b, suit) in voids and _has_trump(may_b, trump)))
        partner_may_ruff = _has_trump(_may_hold(unseen, voids, excluded, partner), trump)
    else:
        threats = unseen
        trumps_unseen = _has_trump(unseen, trump)
        drawn = not trumps_unseen or ((opp_a, trump) in voids and (opp_b, trump) in voids)
        def opp_void(suit):
            return trumps_unseen and ((opp_a, suit) in voids or (opp_b, suit) in voids)
        partner_may_ruff = (partner, trump) not in voids
    best, best_score = -1, None
    for card in sorted(legal):
        suit = type_suit(card)
        master = bool(_masters({card}, threats))
        length = sum(hand[t] for t in range(N_TYPES) if type_suit(t) == suit)
        out = sum(1 for u in unseen if type_suit(u) == suit)
        score = 0
        if suit == trump:
            score += w["lead_trump_bid"] if seat % 2 == bidder % 2 else w["lead_trump_def"]
            score += w["lead_trump_out"] * out
            if 2 * trick_index < n_tricks:
                score += w["lead_trump_early"]
            score += w["lead_trump_len"] * held_trumps
            if master:
                score += w["lead_master_trump"]
            if drawn:
                score += w["lead_trump_drawn"]
        else:
            if master:
                score += w["lead_master"]
            if opp_void(suit):
                score += w["lead_void_opp"]
            if partner_may_ruff and (partner, suit) in voids:
                score += w["lead_void_partner"]
            if length == 1:
                score += w["lead_singleton"]
        score += w["lead_beaters"] * sum(1 for u in threats
                                         if type_suit(u) == suit and type_rank(u) > type_rank(card))
        if card in counters:
            score += w["lead_counter"]
        score += w["lead_rank"] * type_rank(card)
        score += w["lead_len"] * length
        score += w["lead_out"] * out
        score += w["lead_copies"] * (hand[card] - 1)
        if best_score is None or score > best_score:
            best, best_score = card, score
    return best


def heuristic_card(hand: list[int], legal: list[int], unseen: set[int], voids: set[tuple[int, int]],
                   seat: int, position: int, led: int, win_card: int, win_seat: int,
                   trick_index: int, n_tricks: int, trump: int, bidder: int,
                   counters: set[int], knobs: dict[str, int] | None = None,
                   excluded: list[set[int]] | None = None) -> int:
    """Twin of ``kernels.partnership.heuristic.heuristic_card``: the card the heuristic plays, by its rules
    L1-L3 (leading) and F1-F3 (following) as that docstring lists them. ``hand``: the seat's
    counts per card type; ``legal``: the legal card types; ``unseen``: the card types the other
    three seats hold; ``voids``: ``(seat, suit)`` pairs of shown voids; ``win_card`` and
    ``win_seat`` the card holding the trick and its seat (ignored when leading);
    ``counters``: the card types worth points. ``knobs``: the seat's knobs by name (None: the
    heuristic's, :data:`HEURISTIC_KNOBS`; the expert's: :func:`expert_knobs`). ``excluded``:
    per seat the card types the table knows it cannot hold (the must-head inferences, read with
    the knob ``infer``; None: nothing known)."""
    w = HEURISTIC_KNOBS if knobs is None else knobs
    legal_set = set(legal)
    partner, opp_a, opp_b = seat ^ 2, (seat + 1) % 4, (seat + 3) % 4
    trumps_unseen = any(type_suit(u) == trump for u in unseen)
    if position == 0:
        if w["lead_score"]:
            return _scored_lead(hand, legal_set, unseen, voids, seat, trick_index, n_tricks,
                                trump, bidder, counters, w, excluded)
        own_trumps = sum(hand[t] for t in range(N_TYPES) if type_suit(t) == trump)
        my_trumps = {t for t in legal_set if type_suit(t) == trump}
        side = legal_set - my_trumps
        cash = _masters(side, unseen)  # L2
        if trumps_unseen:
            cash = {t for t in cash
                    if (opp_a, type_suit(t)) not in voids and (opp_b, type_suit(t)) not in voids}
        opp_trump_void = (opp_a, trump) in voids and (opp_b, trump) in voids
        if ((seat % 2 == bidder % 2 or w["pull_defenders"])
                and 8 * trick_index < w["pull_window"] * n_tricks
                and own_trumps >= max(w["pull_min"], 1) and trumps_unseen
                and not opp_trump_void
                and not (w["cash_first"] and cash)):  # L1
            top = _masters(my_trumps, unseen)
            return _highest_rank(top) if top else _cheapest(my_trumps, trump, counters)
        if cash:
            return _highest_rank(cash)
        if side:  # L3
            if (partner, trump) not in voids and w["lead_ruff"]:
                ruff = {t for t in side if (partner, type_suit(t)) in voids}
                if ruff:
                    return _cheapest(ruff, trump, counters)
            return _cheapest(side, trump, counters)
        return _cheapest(legal_set, trump, counters)
    last = position == 3
    win_suit = type_suit(win_card)
    beat = {t for t in legal_set
            if (type_suit(t) == trump and (win_suit != trump or type_rank(t) > type_rank(win_card)))
            or (win_suit != trump and type_suit(t) == led == win_suit
                and type_rank(t) > type_rank(win_card))}
    next_seat = (seat + 1) % 4
    if w["infer"]:  # what the next seat may hold: may it beat our card, may it trump?
        threats = _may_hold(unseen, voids, excluded, next_seat)
        next_may_ruff = (not any(type_suit(t) == led for t in threats)
                         and _has_trump(threats, trump))
    else:
        threats = unseen
        next_may_ruff = (trumps_unseen and (next_seat, led) in voids
                         and (next_seat, trump) not in voids)
    if win_seat == partner:
        safe = last or (bool(_masters({win_card}, threats))
                        and (win_suit == trump or not next_may_ruff))
        if safe:  # F1
            smear = {t for t in legal_set if t in counters and type_suit(t) != trump}
            if w["smear_trump"] and not smear:
                trumps = {t for t in legal_set if t in counters and type_suit(t) == trump}
                smear = trumps - _masters(trumps, unseen)
            losers = smear - _masters(smear, unseen)
            if w["smear_losers"] and losers:
                smear = losers
            return _lowest_rank(smear) if smear else _cheapest(legal_set, trump, counters)
    if beat:  # F2
        if last:
            return _cheapest(beat, trump, counters)
        safe_beat = _masters(beat, threats)
        if w["ruff_low"] and led != trump and not next_may_ruff:
            safe_beat |= {t for t in beat if type_suit(t) == trump}
        if next_may_ruff:
            safe_beat = {t for t in safe_beat if type_suit(t) == trump}
        if safe_beat:
            return _cheapest(safe_beat, trump, counters)
    return _cheapest(legal_set, trump, counters)  # F3


# --- bidding (SPEC.md, four-hand-80 "Bidding"; the heuristic of kernels.auction) ---------------

def legal_bids(ladder, up_to: int) -> list[int]:
    """Every legal bid up to ``up_to``, written out rung by rung: ``ladder`` is a sequence of
    ``(from, step)`` (``Rules.bid_ladder``); a rung runs from its start in its steps until the
    next rung starts (the last rung for ever)."""
    bids = []
    for i, (start, step) in enumerate(ladder):
        stop = ladder[i + 1][0] if i + 1 < len(ladder) else up_to + 1
        bid = start
        while bid < stop and bid <= up_to:
            bids.append(bid)
            bid += step
    return bids


def next_bid(ladder, current: int | None) -> int:
    """The smallest legal bid above ``current`` (``None`` or negative: nobody has bid yet, so the
    minimum bid)."""
    if current is None or current < 0:
        return ladder[0][0]
    up_to = max(current, ladder[0][0]) + max(step for _, step in ladder) + 1
    return min(b for b in legal_bids(ladder, up_to) if b > current)



def bid_limit(rules: Rules, counts: list[int]) -> tuple[int, int]:
    """The bidding heuristic (docs/rules.md, "Bidding heuristic"): for each suit the hand may
    name, the fitted model's limit with that trump (:func:`binokel_sim.pair_value.limit_table`
    at its meld, clamped to the table, and its :func:`~binokel_sim.pair_value.play_estimate`);
    the highest limit wins, on a tie the suit with more meld + play estimate, then the first in
    S H D C order. ``(NO_BID, -1)`` when the hand may name no suit; a limit of ``NO_BID`` (the
    table says pass) still names its best suit."""
    table = pair_value.limit_table(rules)
    best, trump, best_sum = NO_BID, -1, -1
    for suit in range(N_SUITS):
        if not may_name(rules, counts, suit):
            continue
        meld = min(meld_total(rules, counts, suit), table.shape[0] - 1)
        play = pair_value.play_estimate(rules, pair_value.features(counts, suit))
        limit, together = int(table[meld, play]), meld + play
        if trump < 0 or limit > best or (limit == best and together > best_sum):
            best, trump, best_sum = limit, suit, together
    return best, trump


def behind_partner(margin: int, seat: int, offer: int, limit: int, holder: int | None,
                   still_in: list[bool]) -> bool:
    """Whether a seat of a partnership game passes although ``offer`` is within its ``limit``
    because its partner (the seat of its parity) holds the standing bid: with ``margin`` > 0,
    when no opponent is ``still_in``, or its limit is less than ``margin`` points above the
    offer (``kernels.auction.behind_partner``; four-hand-80's twin auction uses it too)."""
    if margin <= 0 or holder is None or holder == seat or holder % 2 != seat % 2:
        return False
    opponents_in = any(still_in[o] for o in range(len(still_in)) if o % 2 != seat % 2)
    return not opponents_in or limit < offer + margin


def auction(limits: list[int], dealer: int, rules: Rules, margins: list[int] | None = None):
    """The auction of SPEC.md (four-hand-80 "Bidding") with each player bidding the smallest
    legal bid above the current one while it is within his limit and :func:`behind_partner`
    does not hold him back (``margins``: each seat's ``bid_partner``, default 0: the
    heuristic's plain ladder), else passing.

    Starting left of the dealer, players take turns; a pass is final; the auction ends when one
    player remains. If nobody bid (the first three passed), the dealer plays at the minimum bid.
    Returns ``(bidder, bid, calls)``, calls as ``(seat, bid or None for a pass)`` in order.
    """
    margins = margins or [0] * 4
    still_in = [True] * 4
    calls: list[tuple[int, int | None]] = []
    current, holder = None, None
    seat = (dealer + 1) % 4
    while sum(still_in) > 1:
        if still_in[seat]:
            offer = next_bid(rules.bid_ladder, current)
            if offer <= limits[seat] and not behind_partner(margins[seat], seat, offer,
                                                            limits[seat], holder, still_in):
                current, holder = offer, seat
                calls.append((seat, offer))
            else:
                still_in[seat] = False
                calls.append((seat, None))
        seat = (seat + 1) % 4
    if holder is None:
        return dealer, rules.bid_ladder[0][0], calls
    return holder, current, calls


# --- whole deals (twins of kernels.partnership.deals with the random policy on every seat) -----------------

def _deal_rest(work: list[int], first_seat: int, size: int, stream: Stream) -> list[list[int]]:
    """Hands of seats ``first_seat``..3 from ``work``: partial shuffles, the last seat the rest."""
    hands = [deal_hand(work, i * size, size, stream) for i in range(3 - first_seat)]
    last = [0] * N_TYPES
    for t in work[(3 - first_seat) * size:(4 - first_seat) * size]:
        last[t] += 1
    return hands + [last]


def play_deal(rules: Rules, hands: list[list[int]], dealer: int, pick: Pick) -> dict:
    """One deal after the deal itself: auction, trump, melds, play-out (random policy), scores.
    Returns the fields of :func:`binokel_sim.records.partnership.records` but ``deal``."""
    limits, preferred = zip(*(bid_limit(rules, h) for h in hands))
    bidder, bid, calls = auction(list(limits), dealer, rules)
    trump = preferred[bidder]
    pair = bidder % 2
    record = {
        "hands": [format_counts(h) for h in hands],
        "dealer": dealer,
        "bids": [{"seat": seat, "bid": value} for seat, value in calls],
        "bidder": bidder,
        "bid": bid,
        "trump": SUITS[trump] if trump >= 0 else None,
        "melds": None,
        "tricks": [],
        "play_points": [0, 0],
    }
    if trump < 0:  # no marriage to name: the bid is lost at once
        own, other = score_deal(0, 0, False, bid, 0, 0, rules.min_meld, rules.min_play)
    else:
        melds = [meld_total(rules, h, trump) for h in hands]
        record["melds"] = melds
        pair_meld = melds[bidder] + melds[(bidder + 2) % 4]
        opp_meld = melds[(bidder + 1) % 4] + melds[(bidder + 3) % 4]
        if pair_meld >= rules.min_meld:
            play, tricks = play_out([list(h) for h in hands], bidder, trump, rules, pick)
            record["play_points"] = list(play)
            record["tricks"] = [{"leader": t.leader, "cards": [format_card(c) for c in t.cards],
                                 "winner": t.winner} for t in tricks]
        play = record["play_points"]
        own, other = score_deal(pair_meld, opp_meld, True, bid, play[pair], play[1 - pair],
                                rules.min_meld, rules.min_play)
    record["scores"] = [own, other] if pair == 0 else [other, own]
    return record


def play_deals(rules: Rules, n_deals: int, seed: int, block_size: int, first_block: int = 0,
               first_deal: int = 0) -> list[dict]:
    """Twin of ``kernels.partnership.deals.play_blocks`` with the random policy on every seat, as the records
    :func:`binokel_sim.records.partnership.records` (``played, first_deal``) makes of its output.

    Deal ``d`` (number ``first_deal + d``, dealer ``(first_deal + d) % 4``) reads the stream of
    block ``first_block + d // block_size``, the deck permutation carried within a block: seats
    0-2 by partial shuffles, seat 3 the rest, then the random policy's draws in the play.
    """
    records = []
    for d, stream, work in block_streams(deck_cards(rules), n_deals, seed, block_size, first_block):
        hands = _deal_rest(work, 0, rules.hand_size, stream)
        record = play_deal(rules, hands, (first_deal + d) % 4, stream_pick(stream))
        records.append({"deal": first_deal + d, **record})
    return records


def duel_deals(rules: Rules, n_deals: int, seed: int, block_size: int,
               first_block: int = 0) -> list[float]:
    """Twin of ``kernels.partnership.deals.duel_blocks`` for two random policies: every deal (dealer
    ``d % 4``) is played twice from the same stream, which runs on from the first play into the
    second; per deal, A's score minus B's averaged over the two seatings (A on 0+2 first)."""
    diffs = []
    for d, stream, work in block_streams(deck_cards(rules), n_deals, seed, block_size, first_block):
        hands = _deal_rest(work, 0, rules.hand_size, stream)
        first = play_deal(rules, hands, d % 4, stream_pick(stream))["scores"]
        second = play_deal(rules, hands, d % 4, stream_pick(stream))["scores"]
        diffs.append(((first[0] - first[1]) + (second[1] - second[0])) / 2)
    return diffs


def bid_samples(rules: Rules, counts: list[int], n_samples: int, seed: int, trumps: list[int],
                block_size: int, first_block: int = 0, known: list[list[int]] | None = None,
                allowed: list[int] | None = None, auction: tuple | None = None, play=None
                ) -> list[list[tuple[int, int, int]]]:
    """Twin of ``kernels.partnership.deals.bid_sample_blocks`` with the random policy on every seat: seat 0
    holds ``counts`` and leads; the unseen cards (ascending types) go to seats 1, 2 by partial
    shuffles and seat 3 takes the rest. Per sample, per trump: ``(pair meld of 0+2, play of 0+2,
    opponents' meld)``.

    With ``known`` (per seat 1..3, counts per type it is known to hold) and ``allowed`` (per seat
    1..3, a mask of the types it may hold), the seats get their known cards and the rest is drawn
    by the constrained sampler's twin (:func:`binokel_sim.reference.sampler.sample_counts`).

    With ``auction`` (``(lo, hi)`` by seat 0..3) a sample is dealt again, from the same stream,
    until the bid limit (:func:`bid_limit`) of each of seats 1..3 lies in ``[lo, hi]``.
    ``play(hands, trump)`` (play points of the pairs) plays the tricks instead of the random
    policy (:func:`binokel_sim.reference.sampling.heuristic_bid_samples`)."""
    unseen = [t for t in range(N_TYPES)
              for _ in range(int(rules.deck_counts()[t]) - int(counts[t]))]
    size = rules.hand_size
    out = []
    for _, stream, work in block_streams(unseen, n_samples, seed, block_size, first_block):
        while True:
            if known is None:
                others = _deal_rest(work, 1, size, stream)
            else:
                pool = [unseen.count(t) - sum(k[t] for k in known) for t in range(N_TYPES)]
                split = sample_counts(pool, allowed, [size - sum(k) for k in known], stream)
                others = [[k[t] + x[t] for t in range(N_TYPES)] for k, x in zip(known, split)]
            if auction is None or all(auction[0][seat] <= bid_limit(rules, hand)[0]
                                      <= auction[1][seat]
                                      for seat, hand in enumerate(others, start=1)):
                break
        hands = [list(int(c) for c in counts)] + others
        row = []
        for trump in trumps:
            melds = [meld_total(rules, h, trump) for h in hands]
            if play is None:
                (play0, _), _ = play_out([list(h) for h in hands], 0, trump, rules,
                                         stream_pick(stream))
            else:
                play0, _ = play([list(h) for h in hands], trump)
            row.append((melds[0] + melds[2], play0, melds[1] + melds[3]))
        out.append(row)
    return out
