"""What the table knows in the widow games (three-hand-auction-48, four-hand-widow-48) and a seat's
view of it for the ``sampling`` policy (issue 11; docs/rules.md "Sampling policy and inference",
"The widow games"). The decision itself is the strict one
(:func:`~binokel_sim.kernels.strict.tricks.strict_sampling_card`); this module adds what the
widow games know beyond the cards played.

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

The layout is one tuple, the ``widow`` item of
:func:`~binokel_sim.kernels.strict.sampling.strict_knowledge` (:func:`widow_part`; in the talon
games a stub with ``info[W_ON]`` 0).
"""

import numpy as np

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
    N_BOUND,
)
from binokel_sim.kernels.strict.widow_score import score_sides

# info: on, soloist, holder (-1: no demand), demanded type, the type given back, bid, the buried
# cards' points, how many cards are buried, the tricks of a deal, the types the holder has played,
# what a side taking every trick adds ([widow] all_tricks_bonus)
(W_ON, W_SOLOIST, W_HOLDER, W_DEMAND, W_GIVEN, W_BID, W_BURIED_POINTS, W_BURIED_N, W_TRICKS,
 W_HOLDER_PLAYED, W_SWEEP) = range(11)
N_WIDOW_INFO = 11


@njit
def widow_part(n_players, active, live_points, live_won):
    """The widow knowledge (stubs unless ``active``): ``(info int64 (N_WIDOW_INFO,), lower int64
    (24,): per type the copies the soloist's hand and buried cards hold at least, the melds (P,),
    the deal's card points and tricks so far (``live_points`` (P, k) column 0 and ``live_won`` (P,):
    the loop's own arrays, which the tricks update), the seat's view of the known copies (P, 24),
    the sampler's bound, the soloist's buried cards per type (24,), and a play-out's scoring
    scratch: card points, tricks and scores (P,), sums (4, 4))``."""
    p = n_players if active else 1
    par = np.zeros(N_BOUND, dtype=np.int64)  # no bound until a view sets one (the talon games:
    par[BOUND_SOLOIST] = -1                  # never): no groups, no slack, no demanded type
    par[BOUND_BURIED] = -1
    par[BOUND_HOLDER] = -1
    par[BOUND_DEMAND] = -1
    return (np.zeros(N_WIDOW_INFO, dtype=np.int64), np.zeros(N_TYPES, dtype=np.int64),
            np.zeros(p, dtype=np.int64), live_points, live_won,
            np.zeros((p, N_TYPES), dtype=np.int64), (np.zeros(N_TYPES, dtype=np.int64), par),
            np.zeros(N_TYPES, dtype=np.int64), np.zeros(p, dtype=np.int64),
            np.zeros(p, dtype=np.int64), np.zeros(p, dtype=np.int64),
            np.zeros((4, 4), dtype=np.int64))


@njit
def widow_knowledge_start(knows, flat, soloist, holder, demand, given, widow, buried, bid, trump,
                          melds, show_rows, card_points, n_tricks, sweep):
    """The knowledge when the first trick starts: every seat's shown meld cards (``flat``: the
    hands' planes, seat-major) as known copies, the demanded type excluded for the seats after
    the soloist and before the holder, ``lower`` the widow (``widow`` its card types) and the
    demanded card, the deal's facts in ``info``, the soloist's ``buried`` cards (their types),
    ``melds``. ``holder`` -1: no demand."""
    excluded, known, wk = knows[0], knows[1], knows[18]
    info, lower, seen_melds, solo_buried = wk[0], wk[1], wk[2], wk[7]
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
    info[W_TRICKS] = n_tricks
    info[W_SWEEP] = sweep
    info[W_HOLDER_PLAYED] = 0


@njit(inline="always")
def widow_learn(wk, seat, c):
    """``seat`` played ``c``: a copy of the soloist's is off his bound, a holder's card is
    noted."""
    info = wk[0]
    if info[W_ON] != 0:
        if seat == info[W_SOLOIST] and wk[1][c] > 0:
            wk[1][c] -= 1
        if seat == info[W_HOLDER]:
            info[W_HOLDER_PLAYED] |= np.int64(1) << c


@njit(inline="always")
def view_known(wk, known, seat):
    """``seat``'s view of the known copies (written to ``wk[5]`` and returned): the public ones,
    and for the soloist the card he gave back, in the holder's hand until the holder plays a card
    of its type."""
    info, view = wk[0], wk[5]
    view[:, :] = known
    holder, given = info[W_HOLDER], info[W_GIVEN]
    if (seat == info[W_SOLOIST] and holder >= 0 and (info[W_HOLDER_PLAYED] >> given) & 1 == 0
            and view[holder, given] == 0):
        view[holder, given] = 1
    return view


@njit(inline="always")
def widow_groups(seat, known, pool, allowed, capacity, wk):
    """The widow games' additions to :func:`~binokel_sim.kernels.strict.sampling.strict_view`
    (its groups already written for the other seats, ``known`` the seat's view): for the soloist
    his buried cards leave the pool; for any other seat the buried cards are one more group (any
    type, last) and the sampler's bound is set. Returns the number of groups."""
    info, lower, solo_buried = wk[0], wk[1], wk[7]
    bound_lower, par = wk[6]
    n_players = known.shape[0]
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
        bound_lower[t] = lower[t] - known[soloist, t] - (1 if seat == holder and t == given else 0)
    par[BOUND_SOLOIST] = (soloist - seat - 1) % n_players
    par[BOUND_BURIED] = buried
    if holder >= 0:  # he held no copy of it: the one handed over is all he has of it
        par[BOUND_DEMAND] = info[W_DEMAND]
    if holder >= 0 and seat != holder:
        held = info[W_HOLDER_PLAYED]
        for t in range(N_TYPES):
            if known[holder, t] > 0:
                held |= np.int64(1) << t
        par[BOUND_HOLDER] = (holder - seat - 1) % n_players
        par[BOUND_GIVEN] = ALL_TYPES & ~(np.int64(1) << info[W_DEMAND])
        par[BOUND_HELD] = held
        par[BOUND_SLACK] = 1
    return n_players


@njit(inline="always")
def sample_buried_points(wk, seat, split, n_groups, card_points):
    """The buried cards' points in a sample: the soloist's own, or the buried group's share."""
    info = wk[0]
    if seat == info[W_SOLOIST]:
        return info[W_BURIED_POINTS]
    points = np.int64(0)
    for t in range(N_TYPES):
        points += split[n_groups - 1, t] * card_points[t]
    return points


@njit(inline="always")
def widow_value(wk, points, won, seat, buried_points, pairs):
    """What a sampling seat maximises in a widow game: the deal's score (:func:`score_sides`:
    the bid made or lost, melds lost without a trick, every trick's bonus) of its side times the
    number of other sides, less the other sides' scores; from the tricks so far (``wk``) and a
    play-out's (``points`` column 0, ``won``), the buried cards' points to the soloist."""
    info, melds, live_points, live_won = wk[0], wk[2], wk[3], wk[4]
    card_pts, tricks, scores, sums = wk[8], wk[9], wk[10], wk[11]
    n_players = melds.shape[0]
    soloist = info[W_SOLOIST]
    for s in range(n_players):
        card_pts[s] = live_points[s, 0] + points[s, 0]
        tricks[s] = live_won[s] + won[s]
    card_pts[soloist] += buried_points
    score_sides(melds, card_pts, tricks, soloist, info[W_BID], n_players, info[W_TRICKS], pairs,
                info[W_SWEEP], scores, sums)
    n_sides = 2 if pairs else n_players
    own = seat % 2 if pairs else seat
    value = np.int64(0)
    for q in range(n_sides):  # seat q is on side q
        value += (n_sides - 1) * scores[q] if q == own else -scores[q]
    return value
