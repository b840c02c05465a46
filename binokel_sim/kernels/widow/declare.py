"""The soloist's declarations after the Dabb in the widow games (docs/rules.md "Widow games",
"Policies"): Durch (a sure one, :func:`sure_durch`, or, for the expert, one whose play-outs
say it pays: :func:`durch_steps`, :func:`durch_playouts`), Bettel (likewise: :func:`sure_bettel`,
:func:`bettel_steps`) and, when he gives
up, the trump he names (:func:`concede_trump`). Twins: ``reference.widow_policy`` and
``reference.widow.durch_playouts``.
"""

from collections import namedtuple

import numpy as np

from binokel_sim.cards import RANK_A, RANK_J, RANK_K, RANK_Q, RANK_T
from binokel_sim.constants import DURCH_FIRST, DURCH_STEPS, NO_TRUMP
from binokel_sim.constants import DURCH_SALT as DURCH_SALT_INT
from binokel_sim.kernels.deal import add_card
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.policies import POLICY_BOTTOM, POLICY_HEURISTIC, POLICY_TOP
from binokel_sim.kernels.random import below_scalar, splitmix64
from binokel_sim.kernels.strict.tricks import play_strict
from binokel_sim.kernels.widow.score import side_of

DURCH_SALT = np.uint64(DURCH_SALT_INT)

# the play-outs' scratch: ``hands`` a copy of the deal's (P, 4) planes, consumed by each
# play-out; ``pool`` int64 (deck cards,): the card types the other seats hold between them
DurchScratch = namedtuple("DurchScratch", ["hands", "pool"])


@njit(inline="always")
def type_count(hands, seat, t):
    """The copies of card type ``t`` in ``hands[seat]`` (planes)."""
    return (((hands[seat, 0] >> t) & 1) + ((hands[seat, 1] >> t) & 1)
            + ((hands[seat, 2] >> t) & 1) + ((hands[seat, 3] >> t) & 1))


@njit(inline="always")
def others_count(hands, soloist, n_players, t):
    """The copies of card type ``t`` the seats other than ``soloist`` hold between them."""
    out = 0
    for seat in range(n_players):
        if seat != soloist:
            out += type_count(hands, seat, t)
    return out


@njit
def sure_durch(hands, soloist, n_players, leads):
    """Whether the soloist takes every trick without trump whatever the others hold and play
    (docs/rules.md, "Policies", Durch; the twin is ``reference.widow_policy.sure_durch``): in
    every suit of which the other hands hold ``m > 0`` cards, at least ``min(n, m)`` of his
    ``n`` cards rank at or above their highest (leading them from the top, each wins until the
    others are out of the suit); and where he does not lead the first trick (``leads`` false),
    his highest card of every such suit ranks strictly above theirs (he heads any lead)."""
    return durch_steps(hands, soloist, n_players, leads) == 0  # no step from sure


@njit
def sure_bettel(hands, soloist, n_players, leads):
    """Whether the soloist takes no trick without trump whatever the others hold and play
    (docs/rules.md, "Policies", Bettel; the twin is ``reference.widow_policy.sure_bettel``): in
    every suit he holds, each of his cards ranks at or below every card the other hands hold
    of it (so he can never head a card they lead, and a card they play to his lead never
    loses to it); where he leads the first trick (``leads``), strictly below, and the others
    hold some of every suit he holds (his lead is headed)."""
    for s in range(4):
        top_mine = -1
        low_out = 6
        for r in range(6):
            t = s * 6 + r
            if type_count(hands, soloist, t) > 0:
                top_mine = r
            if others_count(hands, soloist, n_players, t) > 0 and low_out == 6:
                low_out = r
        if top_mine < 0:
            continue
        if leads and (low_out == 6 or top_mine >= low_out):  # 6: they hold none of the suit
            return False
        if top_mine > low_out:
            return False
    return True


@njit
def concede_trump(hands, soloist, buried, copies, deck_mask):
    """The trump a soloist who gives up names (docs/rules.md "Widow games", "Policies",
    *Abgehen*): the suit in which the other seats can hold the fewest trump marriages, from
    what he alone has seen (his ``hands[soloist]`` after burying and his ``buried`` cards; the
    deck's ``copies`` per type, the types of ``deck_mask``): the fewest unseen copies of the
    suit's king or queen (whichever is scarcer), then the fewest unseen kings and queens, then
    the fewest unseen aces, tens and unders (a Familie in trump), then the lower suit."""
    best = 0
    best_key = np.int64(1) << 40
    for s in range(4):
        unseen = np.zeros(6, dtype=np.int64)
        for r in range(6):
            t = s * 6 + r
            if (deck_mask >> t) & 1:
                seen = type_count(hands, soloist, t)
                for j in range(buried.shape[0]):
                    seen += buried[j] == t
                unseen[r] = copies - seen
        k, q = unseen[RANK_K], unseen[RANK_Q]
        key = (min(k, q) * 64 + (k + q)) * 64 + unseen[RANK_A] + unseen[RANK_T] + unseen[RANK_J]
        if key < best_key:
            best_key = key
            best = s
    return best


@njit
def durch_steps(hands, soloist, n_players, leads):
    """How far the soloist's hand (after burying) is from a sure Durch (0: :func:`sure_durch`),
    from the cards the other seats hold between them, his partner's among them (docs/rules.md
    "Policies", *Durch*; twin ``reference.widow_policy.durch_steps``): per suit they hold, the
    tricks he would lose leading it from the top (``min(n, m)`` less his cards at or above
    their highest, none below 0) and, where he does not lead the first trick (``leads``
    false), 1 when he cannot head a first lead of the suit (he holds none of it, or none above
    their highest)."""
    steps = 0
    for s in range(4):
        n = 0
        m = 0
        top_out = -1
        top_mine = -1
        for r in range(6):
            t = s * 6 + r
            mine = type_count(hands, soloist, t)
            out = others_count(hands, soloist, n_players, t)
            n += mine
            m += out
            if out > 0:
                top_out = r
            if mine > 0:
                top_mine = r
        if m == 0:
            continue
        at_least = 0
        for r in range(top_out, 6):
            at_least += type_count(hands, soloist, s * 6 + r)
        steps += max(0, min(n, m) - at_least)
        if not leads and top_mine <= top_out:
            steps += 1
    return steps


@njit
def bettel_steps(hands, soloist, n_players, leads):
    """How far the soloist's hand (after burying) is from a sure Bettel (0:
    :func:`sure_bettel`), from the cards the other seats hold between them (docs/rules.md
    "Policies", *Bettel*; twin ``reference.widow_policy.bettel_steps``): per suit he holds,
    his cards ranking above the lowest card they hold of it (which could be left to win a
    trick) and, where he leads the first trick (``leads``), also those ranking equal to it (a
    tie goes to his lead), or every card of his of a suit they do not hold (his lead of it
    wins)."""
    steps = 0
    for s in range(4):
        low_out = 6
        for r in range(5, -1, -1):
            if others_count(hands, soloist, n_players, s * 6 + r) > 0:
                low_out = r
        for r in range(6):
            mine = type_count(hands, soloist, s * 6 + r)
            if r > low_out or (leads and (r == low_out or low_out == 6)):
                steps += mine
    return steps


@njit
def durch_playouts(hands, soloist, leader, worlds, misere, table, played, score, record, stream,
                   scratch, pol):
    """``(wins, tried)``: of ``tried`` play-outs of a Durch (at most ``worlds``; after
    :data:`~binokel_sim.constants.DURCH_FIRST` of them no more when at most half took every
    trick), how many the soloist's side won every trick of (docs/rules.md "Policies", *Durch*;
    twin ``reference.widow.durch_playouts``); with ``misere`` of a Bettel instead, how many
    the soloist took no trick in (his bottom card; no early stop). Each play-out deals the cards the other seats hold
    between them (the cards he has not seen: not his, not buried) afresh to them, each its
    count, by a Fisher-Yates shuffle of their types in ascending order, and plays the deal
    without trump: the soloist his top card, every other seat the heuristic's (``pol`` int64
    (P,) is overwritten with these). The shuffles read their own stream, seeded from the deal's
    state ``stream`` (left unchanged). ``table`` and ``played`` as the deal's play reads them,
    ``record`` its :class:`~binokel_sim.kernels.strict.tricks.TrickRecord` switched off;
    ``score`` ``(points, won)`` is overwritten. No seat of a play-out samples, so its play is
    compiled without the search (one copy for every kind of seats)."""
    n_players = hands.shape[0]
    trial, pool = scratch.hands, scratch.pool
    n_pool = 0
    for t in range(24):
        for _ in range(others_count(hands, soloist, n_players, t)):
            pool[n_pool] = t
            n_pool += 1
    x = splitmix64(stream[0] ^ stream[2] ^ DURCH_SALT)
    s0 = splitmix64(x)
    s1 = splitmix64(x + np.uint64(1))
    s2 = splitmix64(x + np.uint64(2))
    s3 = splitmix64(x + np.uint64(3))
    for seat in range(n_players):
        pol[seat] = POLICY_HEURISTIC
    pol[soloist] = POLICY_BOTTOM if misere else POLICY_TOP
    points, won = score
    wins = 0
    tried = 0
    for w in range(worlds):
        if not misere and w == DURCH_FIRST and 2 * wins <= DURCH_FIRST:
            break
        for i in range(n_pool - 1, 0, -1):
            j, s0, s1, s2, s3 = below_scalar(i + 1, s0, s1, s2, s3)
            pool[i], pool[j] = pool[j], pool[i]
        at = 0
        for seat in range(n_players):
            if seat == soloist:
                for k in range(4):
                    trial[seat, k] = hands[seat, k]
                continue
            size = 0
            for t in range(24):
                size += type_count(hands, seat, t)
            q0, q1, q2, q3 = np.uint32(0), np.uint32(0), np.uint32(0), np.uint32(0)
            for i in range(at, at + size):
                q0, q1, q2, q3 = add_card(q0, q1, q2, q3, pool[i])
            at += size
            trial[seat, 0], trial[seat, 1], trial[seat, 2], trial[seat, 3] = q0, q1, q2, q3
        for seat in range(n_players):
            points[seat, 0] = 0
            won[seat] = 0
        n_tricks = 0
        for t in range(24):
            n_tricks += type_count(hands, soloist, t)
        _, s0, s1, s2, s3 = play_strict(trial, leader, 0, n_tricks, NO_TRUMP, pol, np.int64(1),
                                        None, table, played, score, record,
                                        (s0, s1, s2, s3), None, None)
        swept = True
        for seat in range(n_players):
            if won[seat] > 0 and side_of(seat, table.pairs) != side_of(soloist, table.pairs):
                swept = False
        wins += (won[soloist] == 0) if misere else swept
        tried += 1
    return wins, tried
