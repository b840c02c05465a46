"""What the table knows in the widow games (three-hand-auction-48, four-hand-widow-48) and a seat's
view of it for the ``sampling`` policy (issue 11; docs/rules.md "Sampling policy and inference",
"The widow games"). The decision itself is the strict one
(:func:`~binokel_sim.kernels.strict.tricks.strict_sampling_card`); this module is the widow's
part of it (:mod:`binokel_sim.kernels.strict.family`: the overloads of its stubs for
:class:`WidowKnowledge` and :class:`WidowTeam`, chosen by type): what the widow games know beyond
the cards played, the value a play-out is scored by, and who plays with whom.

Public, from the first trick on (:func:`widow_knowledge_start`):

- every seat's shown meld cards (:func:`~binokel_sim.kernels.knowledge.shown_of` with the trump
  named), as known copies that a card of the type played takes off;
- the widow, shown before the soloist takes it, and the demanded card: the soloist's hand and
  his buried cards hold them between them, but for what he has played of them since
  (``lower``) and, seen from a seat that is not the holder, one card: the card given back, which
  only the holder saw, may be one of them (the sampler's bound and its one card of slack,
  :mod:`binokel_sim.kernels.sampler`); of the demanded type they hold no other copy (he held
  none before the demand);
- the seats after the soloist and before the holder (clockwise) hold no copy of the demanded
  type; the holder and the type he was asked for;
- every trick (voids, no trump, the must-head inference: :func:`~binokel_sim.kernels.knowledge.
  excluded_by`), the card points and tricks taken so far, the melds and the bid.

Private: the soloist knows his buried cards and that the holder holds the card given back until
he plays a card of that type; the holder knows that card (it is in his hand or played).

The layout is :class:`WidowKnowledge`, the ``family`` field of
:class:`~binokel_sim.kernels.strict.sampling.StrictKnowledge` (:func:`widow_part`); the trick
loop's side part is :class:`WidowTeam` (the soloist, whose opponents a seat with the knob
``S_TEAM`` treats as partners).
"""

from collections import namedtuple

import numpy as np
from numba.extending import overload

from binokel_sim.kernels.bits import ALL_TYPES, N_TYPES
from binokel_sim.kernels.knowledge import shown_of
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.sampler import (
    BOUND_BURIED,
    BOUND_DEMAND,
    BOUND_GIVEN,
    BOUND_HELD,
    BOUND_HOLDER,
    BOUND_SLACK,
    BOUND_SOLOIST,
)
from binokel_sim.kernels.strict.family import (
    is_part,
    part_declarer,
    part_groups,
    part_learn,
    part_partner,
    part_sample,
    part_value,
    part_view,
)
from binokel_sim.kernels.widow.knobs import S_TEAM
from binokel_sim.kernels.widow.score import score_sides

# info: on, soloist, holder (-1: no demand), demanded type, the type given back, bid, the buried
# cards' points, how many cards are buried, the tricks of a deal, the types the holder has played,
# what a side taking every trick adds ([widow] all_tricks_bonus), what card points are rounded to
# ([points] round_to)
(W_ON, W_SOLOIST, W_HOLDER, W_DEMAND, W_GIVEN, W_BID, W_BURIED_POINTS, W_BURIED_N, W_TRICKS,
 W_HOLDER_PLAYED, W_SWEEP, W_ROUND_TO) = range(12)
N_WIDOW_INFO = 12


WidowKnowledge = namedtuple("WidowKnowledge", [
    "info", "lower", "melds", "live_points", "live_won", "seat_view", "solo_buried", "card_pts",
    "tricks", "scores", "sums"])
"""What the table knows in a widow game (stubs but ``info`` unless the sampling policy plays):
``info`` int64 (N_WIDOW_INFO,) the deal's facts (``W_*``); ``lower`` int64 (24,) per type the
copies the soloist's hand and buried cards hold at least; ``melds`` (P,); ``live_points`` (P, k)
column 0 and ``live_won`` (P,) the deal's card points and tricks so far (the loop's own arrays,
which the tricks update); ``seat_view`` (P, 24) the seat's view of the known copies
(``part_view``); ``solo_buried`` (24,) the soloist's buried cards per type; a play-out's
scoring scratch: ``card_pts``, ``tricks`` and ``scores`` (P,), ``sums`` (4, 4)."""

WidowTeam = namedtuple("WidowTeam", ["soloist"])
"""The widow games' side part of the trick loop: the ``soloist`` (int64), whose opponents are
partners to a seat whose knob ``S_TEAM`` is on (:func:`teamed`)."""


@njit
def widow_part(n_players, active, live_points, live_won):
    """The widow knowledge, :class:`WidowKnowledge` (stubs unless ``active``)."""
    p = n_players if active else 1
    return WidowKnowledge(np.zeros(N_WIDOW_INFO, dtype=np.int64), np.zeros(N_TYPES, dtype=np.int64),
                          np.zeros(p, dtype=np.int64), live_points, live_won,
                          np.zeros((p, N_TYPES), dtype=np.int64),
                          np.zeros(N_TYPES, dtype=np.int64), np.zeros(p, dtype=np.int64),
                          np.zeros(p, dtype=np.int64), np.zeros(p, dtype=np.int64),
                          np.zeros((4, 4), dtype=np.int64))


# how a widow deal is scored, as the sampling policy's play-outs score it: the tricks of a deal,
# what a side taking every trick adds ([widow] all_tricks_bonus) and what each side's card points
# are rounded to ([points] round_to; 1: not rounded)
DealScoring = namedtuple("DealScoring", ["n_tricks", "sweep", "round_to"])


@njit
def widow_knowledge_start(knows, flat, soloist, holder, demand, given, widow, buried, bid, trump,
                          melds, show_rows, card_points, scoring):
    """The knowledge when the first trick starts: every seat's shown meld cards (``flat``: the
    hands' planes, seat-major) as known copies, the demanded type excluded for the seats after
    the soloist and before the holder, ``lower`` the widow (``widow`` its card types) and the
    demanded card, the deal's facts in ``info``, the soloist's ``buried`` cards (their types),
    ``melds``. ``holder`` -1: no demand."""
    excluded, known, wk = knows.excluded, knows.known, knows.family
    info, lower, seen_melds, solo_buried = wk.info, wk.lower, wk.melds, wk.solo_buried
    n_players = known.shape[0]
    for s in range(n_players):
        excluded[s] = 0
        shown_of(flat, s, show_rows, trump, known[s])
        seen_melds[s] = melds[s]
    lower[:] = 0
    for j in range(widow.shape[0]):
        lower[widow[j]] += 1
    solo_buried[:] = 0
    points = np.int64(0)
    for j in range(buried.shape[0]):
        solo_buried[buried[j]] += 1
        points += card_points[buried[j]]
    if holder >= 0:
        lower[demand] += 1
        for j in range(1, n_players):
            s = (soloist + j) % n_players
            if s == holder:
                break
            excluded[s] |= np.int64(1) << demand
    info[W_ON] = 1
    info[W_SOLOIST] = soloist
    info[W_HOLDER] = holder
    info[W_DEMAND] = demand
    info[W_GIVEN] = given
    info[W_BID] = bid
    info[W_BURIED_POINTS] = points
    info[W_BURIED_N] = buried.shape[0]
    info[W_TRICKS] = scoring.n_tricks
    info[W_SWEEP] = scoring.sweep
    info[W_ROUND_TO] = scoring.round_to
    info[W_HOLDER_PLAYED] = 0


@njit
def teamed(soloist, tune, at, seat, win_seat):
    """Whether ``seat`` counts ``win_seat`` as its partner: its knob ``S_TEAM`` (``tune`` from
    ``at`` on) is on and both are the ``soloist``'s opponents. ``tune`` None (the heuristic's
    knobs, :func:`~binokel_sim.kernels.strict.heuristic.heuristic_talon_card`): never."""
    if tune is None:
        return False
    return tune[at + S_TEAM] != 0 and soloist >= 0 and seat != soloist and win_seat != soloist


@overload(part_partner)
def _partner(side, tune, at, seat, win_seat):
    if is_part(side, WidowTeam):
        return lambda side, tune, at, seat, win_seat: teamed(side.soloist, tune, at, seat,
                                                             win_seat)


@overload(part_learn)
def _learn(part, seat, c):
    """``seat`` played ``c``: a copy of the soloist's is off his bound, a holder's card is
    noted."""
    if is_part(part, WidowKnowledge):
        def learn(part, seat, c):
            info = part.info
            if info[W_ON] != 0:
                if seat == info[W_SOLOIST] and part.lower[c] > 0:
                    part.lower[c] -= 1
                if seat == info[W_HOLDER]:
                    info[W_HOLDER_PLAYED] |= np.int64(1) << c
        return learn


@overload(part_view)
def _view(part, known, seat):
    """``seat``'s view of the known copies (written to ``seat_view`` and returned): the public ones,
    and for the soloist the card he gave back, in the holder's hand until the holder plays a card
    of its type."""
    if is_part(part, WidowKnowledge):
        def view_known(part, known, seat):
            info, view = part.info, part.seat_view  # (numba reserves the name "view")
            view[:, :] = known
            holder, given = info[W_HOLDER], info[W_GIVEN]
            if (seat == info[W_SOLOIST] and holder >= 0
                    and (info[W_HOLDER_PLAYED] >> given) & 1 == 0 and view[holder, given] == 0):
                view[holder, given] = 1
            return view
        return view_known


@overload(part_declarer)
def _declarer(part):
    """The soloist is the declarer."""
    if is_part(part, WidowKnowledge):
        return lambda part: part.info[W_SOLOIST]


@overload(part_groups)
def _groups(part, seat, view, pool, allowed, capacity, bound, n_groups):
    """The widow games' additions to :func:`~binokel_sim.kernels.strict.sampling.strict_view`
    (its ``n_groups`` groups already written for the other seats, ``view`` the seat's view): for
    the soloist his buried cards leave the pool; for any other seat the buried cards are one more
    group (any type, last) and the sampler's ``bound`` is set. Returns the number of groups."""
    if is_part(part, WidowKnowledge):
        def widow_groups(part, seat, view, pool, allowed, capacity, bound, n_groups):
            info, lower, solo_buried = part.info, part.lower, part.solo_buried
            bound_lower, par = bound
            n_players = view.shape[0]
            soloist, holder = info[W_SOLOIST], info[W_HOLDER]
            bound_lower[:] = 0
            par[:] = 0
            par[BOUND_SOLOIST] = -1
            par[BOUND_BURIED] = -1
            par[BOUND_HOLDER] = -1
            par[BOUND_DEMAND] = -1
            if seat == soloist:
                for t in range(N_TYPES):
                    pool[t] -= solo_buried[t]
                    if pool[t] < 0:
                        raise ValueError("sampling policy: the known cards do not add up")
                return n_players - 1
            buried = n_players - 1
            allowed[buried] = ALL_TYPES
            capacity[buried] = info[W_BURIED_N]
            given = info[W_GIVEN]
            for t in range(N_TYPES):
                bound_lower[t] = (lower[t] - view[soloist, t]
                                  - (1 if seat == holder and t == given else 0))
            par[BOUND_SOLOIST] = (soloist - seat - 1) % n_players
            par[BOUND_BURIED] = buried
            if holder >= 0:  # he held no copy of it: the one handed over is all he has of it
                par[BOUND_DEMAND] = info[W_DEMAND]
            if holder >= 0 and seat != holder:
                held = info[W_HOLDER_PLAYED]
                for t in range(N_TYPES):
                    if view[holder, t] > 0:
                        held |= np.int64(1) << t
                par[BOUND_HOLDER] = (holder - seat - 1) % n_players
                par[BOUND_GIVEN] = ALL_TYPES & ~(np.int64(1) << info[W_DEMAND])
                par[BOUND_HELD] = held
                par[BOUND_SLACK] = 1
            return n_players
        return widow_groups


@overload(part_sample)
def _sample(part, seat, split, n_groups, card_points):
    """The buried cards' points in a sample: the soloist's own, or the buried group's share."""
    if is_part(part, WidowKnowledge):
        def sample_buried_points(part, seat, split, n_groups, card_points):
            info = part.info
            if seat == info[W_SOLOIST]:
                return info[W_BURIED_POINTS]
            points = np.int64(0)
            for t in range(N_TYPES):
                points += split[n_groups - 1, t] * card_points[t]
            return points
        return sample_buried_points


@overload(part_value)
def _value(part, points, won, seat, kept, pairs):
    """What a sampling seat maximises in a widow game: the deal's score (:func:`score_sides`:
    the bid made or lost, melds lost without a trick, every trick's bonus) of its side times the
    number of other sides, less the other sides' scores; from the tricks so far (``live_points``,
    ``live_won``) and a play-out's (``points`` column 0, ``won``), ``kept`` (the buried cards'
    points) to the soloist."""
    if is_part(part, WidowKnowledge):
        def widow_value(part, points, won, seat, kept, pairs):
            info, melds = part.info, part.melds
            card_pts, tricks, scores = part.card_pts, part.tricks, part.scores
            n_players = melds.shape[0]
            soloist = info[W_SOLOIST]
            for s in range(n_players):
                card_pts[s] = part.live_points[s, 0] + points[s, 0]
                tricks[s] = part.live_won[s] + won[s]
            card_pts[soloist] += kept
            score_sides(melds, card_pts, tricks, soloist, info[W_BID], n_players,
                        info[W_TRICKS], pairs, info[W_SWEEP], info[W_ROUND_TO], scores,
                        part.sums)
            n_sides = 2 if pairs else n_players
            own = seat % 2 if pairs else seat
            value = np.int64(0)
            for q in range(n_sides):  # seat q is on side q
                value += (n_sides - 1) * scores[q] if q == own else -scores[q]
            return value
        return widow_value
