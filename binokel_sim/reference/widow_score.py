"""Scoring of the widow games (docs/rules.md "Widow games", "Play and scoring"), shared by the
twins of the widow engine (:mod:`binokel_sim.reference.widow`) and of its sampling policy
(:mod:`binokel_sim.reference.widow_sampling`, whose play-outs are scored by
:func:`score_deal`): sides, card points of tricks, and a deal's scores.
"""

from __future__ import annotations

from typing import NamedTuple

from binokel_sim.cards import type_rank
from binokel_sim.variants import Rules


def card_points_of(rules: Rules, cards) -> int:
    """The card points of some card types (``rules.rank_points`` by rank)."""
    return sum(rules.rank_points[type_rank(t)] for t in cards)


def side_of(rules: Rules, seat: int) -> int:
    """The side a seat plays on (docs/rules.md "Widow games"): with partnerships seats 0+2 and
    1+3 (side ``seat % 2``), else every seat its own side."""
    return seat % 2 if rules.partnerships else seat


def n_sides(rules: Rules) -> int:
    return 2 if rules.partnerships else rules.players


class Trick(NamedTuple):
    leader: int  # seat that led
    cards: list[int]  # card types in play order (seat leader, leader+1, ...)
    winner: int  # seat that won


def trick_card_points(rules: Rules, tricks: list[Trick]) -> list[int]:
    """Card points per seat from its tricks, the last trick's ``rules.last_trick`` to its winner
    (docs/rules.md "Play and scoring")."""
    points = [0] * rules.players
    for trick in tricks:
        points[trick.winner] += card_points_of(rules, trick.cards)
    points[tricks[-1].winner] += rules.last_trick
    return points


class Score(NamedTuple):
    bonus: int  # 1000 when one side took every trick, else 0
    made: bool
    side_scores: list[int]  # per side
    scores: list[int]  # per seat: its side's score


def rounded(points: int, step: int) -> int:
    """``points`` to the nearest multiple of ``step``, a half up (``[points] round_to = 10``:
    64 -> 60, 65 -> 70)."""
    low = points - points % step
    return low + step if points - low >= step - step // 2 else low


def score_deal(rules: Rules, soloist: int, bid: int, melds: list[int], card_points: list[int],
               tricks: list[Trick]) -> Score:
    """Scoring (SPEC three-hand-auction-48 and four-hand-widow-48; docs/rules.md "Play and
    scoring"). Per side: its meld (the sum of its seats' melds) if it took a trick, + its card
    points, + the bonus of 1000 if it took every trick. The soloist's side makes the bid when
    that total reaches the bid and then scores it, else minus twice the bid; every other side
    scores its total."""
    sides = n_sides(rules)
    side_meld = [0] * sides
    side_points = [0] * sides
    side_tricks = [0] * sides
    for seat in range(rules.players):
        side_meld[side_of(rules, seat)] += melds[seat]
        side_points[side_of(rules, seat)] += card_points[seat]
    for trick in tricks:
        side_tricks[side_of(rules, trick.winner)] += 1
    all_taken = [n == len(tricks) for n in side_tricks]
    bonus = rules.all_tricks_bonus if any(all_taken) else 0  # [widow] all_tricks_bonus
    if rules.round_to > 1:  # [points] round_to: each side's card points, half up
        side_points = [rounded(p, rules.round_to) for p in side_points]
    totals = [(side_meld[s] if side_tricks[s] > 0 else 0) + side_points[s]
              + (bonus if all_taken[s] else 0) for s in range(sides)]
    own = side_of(rules, soloist)
    made = totals[own] >= bid
    side_scores = list(totals)
    if not made:
        side_scores[own] = -2 * bid
    scores = [side_scores[side_of(rules, seat)] for seat in range(rules.players)]
    return Score(bonus, made, side_scores, scores)


def score_conceded(rules: Rules, soloist: int, bid: int, melds: list[int]) -> Score:
    """A deal the soloist gave up before the first lead (Abgehen, SPEC "House variants of
    today's Binokel"): his side scores minus the bid, once, and no meld (in a partnership game
    his partner's meld is lost too); every other side scores its meld (the sum of its seats')
    plus :func:`concession_payout`. No bonus, not made."""
    side_scores = [0] * n_sides(rules)
    for seat in range(rules.players):
        side_scores[side_of(rules, seat)] += melds[seat]
    for side in range(len(side_scores)):
        side_scores[side] += concession_payout(rules, bid)
    side_scores[side_of(rules, soloist)] = -bid
    scores = [side_scores[side_of(rules, seat)] for seat in range(rules.players)]
    return Score(0, False, side_scores, scores)


def concession_payout(rules: Rules, bid: int) -> int:
    """What each opposing side adds to its meld after Abgehen: ``rules.concede_bonus``, or with
    ``concede_payout = "half_bid"`` half the bid rounded up to the ladder's step there (the
    step of the last rung starting at or below the bid)."""
    if rules.concede_payout == "bonus":
        return rules.concede_bonus
    rungs = [s for start, s in rules.bid_ladder if start <= bid] or [rules.bid_ladder[0][1]]
    step = rungs[-1]
    half = bid / 2
    k = 0
    while k * step < half:
        k += 1
    return k * step


def score_durch(rules: Rules, soloist: int, tricks: list) -> Score:
    """A Durch (SPEC "House variants"; docs/rules.md decision 39): the soloist's side scores
    +1000 (+1500 open, ``durch_open``) when it took every trick, else minus that; every other
    side 0; no meld counts. No bonus; made when every trick is the side's."""
    own = side_of(rules, soloist)
    made = all(side_of(rules, trick.winner) == own for trick in tricks)
    side_scores = [0] * n_sides(rules)
    side_scores[own] = rules.durch_score if made else -rules.durch_score
    scores = [side_scores[side_of(rules, seat)] for seat in range(rules.players)]
    return Score(0, made, side_scores, scores)


def score_bettel(rules: Rules, soloist: int, bid: int, tricks: list) -> Score:
    """A Bettel (SPEC "House variants"; docs/rules.md decision 40): the soloist's side scores
    the bid when he took no trick, else minus twice the bid; every other side 0; no meld
    counts. No bonus."""
    made = not any(trick.winner == soloist for trick in tricks)
    own = side_of(rules, soloist)
    side_scores = [0] * n_sides(rules)
    side_scores[own] = bid if made else -2 * bid
    scores = [side_scores[side_of(rules, seat)] for seat in range(rules.players)]
    return Score(0, made, side_scores, scores)
