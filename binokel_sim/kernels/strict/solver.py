"""Exact solver for two-player strict endgames: phase 2 of two-hand-48, once the talon is gone.

Both hands are known there, so the rest of the deal is a game of perfect information: seat 0
wants the most card points (the last trick's bonus included), seat 1 wants seat 0 to get the
fewest. Contract: SPEC.md "Must-head obligation" and "Trick winner" (every trick), SPEC.md
"Variant two-hand-48" (phase 2 is strict; the last trick scores 10).

Entry points, for the driver (:mod:`binokel_sim.solver`) and for any talon kernel:

- :func:`solve` ``(hands, trump, leader, card_points, last_trick, ctx, tt) -> (points, card)``:
  the card points seat 0 secures from this trick start with best play of both sides (the last
  trick's bonus included; points won before do not matter), and one best card for ``leader``;
- :func:`solve_leads`: the same, and the exact value of every card ``leader`` may lead;
- :func:`best_lead`: the value and the lowest card type of a best lead (what a player asks: one
  null-window search per lower card type instead of every lead's exact value);
- :func:`solve_beyond`: the value only when it is beyond a bound (what a follower asks of each
  reply after the first: one null-window search when it is not).

``hands`` uint32 (2, 4): the bit planes of seats 0 and 1 (:mod:`binokel_sim.cards`), the same
number of cards each, 1 to :data:`MAX_CARDS`; left untouched. ``trump`` suit 0..3, ``leader``
0 or 1; ``card_points`` int64 (24,) and ``last_trick`` from the variant's tables. Scratch the
caller allocates once and reuses (C-contiguous int64): ``ctx`` (:data:`CTX_SIZE`,) and the
transposition table ``tt`` (2**k, 2), zeros at first. A call starts a new table generation (so
entries of an earlier position never match and the table needs no clearing) and leaves the
number of positions searched in ``ctx[CTX_NODES]`` (trick starts searched and leads tried).

The search is alpha-beta on the value "points seat 0 wins from here" (seat 0 maximises, seat 1
minimises), driven by null-window searches (MTD(f)). What makes it fast:

- **Equivalent cards are one move.** Identical copies are one card type; beyond that, a
  player's cards of one suit with no opponent card (nor the card led to this trick) between
  them take exactly the same tricks now and later, so only one of them is tried: its dearest
  when it wins the trick, its cheapest when it loses (:func:`_classes` has the argument).
  With two players the must-head obligation makes every legal reply win or every one lose,
  and a lead wins or loses whatever the reply, so that is known before the move is tried.
  Where card points rise with rank (every built-in variant), a class's pick is its highest
  or lowest rank, read from a table per suit (:data:`CLASS_TABLE`) instead of walked.
- **A 25-bit position key.** The position is the set of the root's physical cards still held
  (at most 2 x 12 bits, each type's copies side by side) plus the leader. A card played is
  always its type's highest copy still held, so the set is canonical whatever order copies
  fell in.
- **A transposition table at trick starts** (positions of three or more cards each), hashed
  into a power-of-two table and checked against the full key and generation. An entry keeps a
  lower and an upper bound and the best lead; the null-window searches of MTD(f) reuse them.
- **Move ordering**: the table's lead first, then the leads no reply can beat (highest rank
  first), then the others (lowest first); replies that lose lowest first, replies that win
  highest first.
- **The points still in play bound the value** to ``[0, rem]``, so a window outside it cuts at
  once, and the last trick is scored without a call.

``_search`` is recursive; numba caches it safely only while every call has the same argument
types, so each call passes int64 scalars (a recursive call that resolves to another compiled
signature crashes when loaded from the on-disk cache).
"""

import numpy as np

from binokel_sim.kernels.bits import RANK0, leading_zeros, lowest_bit
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.play import beaters, card_key, legal_under, suit_block

MAX_CARDS = 12  # per hand: two hands' physical cards fit the 24-bit position key
TT_BITS = 17  # the driver's table: 2**17 entries of two int64 (2 MB)
# ctx (int64): card points per type; per seat and type the bits of its copies in the
# physical-card set; the table generation; the node count; the root's best lead
CTX_POINTS = 0
CTX_SPAN = 24
CTX_GEN = 72
CTX_NODES = 73
CTX_BEST = 74
CTX_RISING = 75  # 1 when no card type is worth less than a lower rank of its suit (_classes)
CTX_SIZE = 76

VALUE_BITS = 26  # a bound in a table entry: card points up to 2**26 - 1
VALUE_MASK = (1 << VALUE_BITS) - 1
KEY_SHIFT = 25  # the generation sits above the 24-bit card set and the leader bit
TT_MIN_CARDS = 3  # smaller positions are searched again rather than looked up
INF = 1 << 40
NO_CARD = -1  # ``only`` of an inner node
ROOT = -2  # ``only`` of the root: an inner node that also records its best lead in ctx


def _class_table() -> np.ndarray:
    """:func:`_classes` of one suit when card points rise with rank: row ``wins``, column
    ``m | o << 6`` (``m`` the candidates' six rank bits, ``o`` the separators') → the picked
    ranks. Every copy that is a separator is a class alone; each run of candidates between
    separators keeps its highest rank when it wins (the dearest, the last of equal points) and
    its lowest when it loses (the cheapest, the first of equal points)."""
    table = np.zeros((2, 1 << 12), dtype=np.int64)
    for wins in range(2):
        for m in range(64):
            for o in range(64):
                out = m & o
                run = []
                for r in range(7):
                    if r == 6 or (o >> r) & 1:
                        if run:
                            out |= 1 << (run[-1] if wins else run[0])
                        run = []
                    elif (m >> r) & 1:
                        run.append(r)
                table[wins, m | (o << 6)] = out
    return table


CLASS_TABLE = _class_table()


@njit
def table_slot(key, size_mask):
    """Slot of ``key`` in a table of ``size_mask + 1`` entries (xorshift-multiply mix)."""
    h = key ^ (key >> 29)
    h *= np.int64(-4658895280553007687)  # 0xBF58476D1CE4E5B9, splitmix64's first multiplier
    h ^= h >> 32
    return h & size_mask


# The search and its per-node helpers compile with _nrt=False (no reference counting of the
# arrays they are given: they allocate nothing), as the endgame search does (endgame.py).
@njit(_nrt=False)
def _play(mask, q, ctx, seat, t):
    """Seat ``seat`` plays a copy of type ``t``: the highest copy still held leaves the
    physical-card set ``mask``; ``t`` leaves the presence mask ``q`` with its last copy.
    (A type's held copies are a run of bits, whose highest bit is ``x & ~(x >> 1)``.)"""
    x = mask & ctx[CTX_SPAN + 24 * seat + t]
    last = (x & (x - 1)) == 0
    return mask ^ (x & ~(x >> 1)), (q & ~(np.int64(1) << t)) if last else q


@njit(_nrt=False)
def _sure_winners(mine, theirs, trump, trump_block):
    """The leads of ``mine`` (presence mask) that no reply from ``theirs`` can take: the opponent
    has no strictly higher card of its suit and, for a side suit he is void in, no trump."""
    won = np.int64(0)
    for s in range(4):
        block = suit_block(s)
        own = mine & block
        if own == 0:
            continue
        opp = theirs & block
        if opp:
            top = 63 - leading_zeros(opp)
            won |= own & ~((np.int64(1) << top) - 1)  # my cards of rank >= his best
        elif s == trump or (theirs & trump_block) == 0:
            won |= own
    return won


@njit(_nrt=False)
def _classes(cands, theirs, wins, ctx):
    """One card of each class of equivalent cards in ``cands``: cards of one suit with no card of
    ``theirs`` (the opponent's hand, and the card led to this trick) between them take the same
    tricks now and later, so only their points differ. Playing the class's dearest card when
    the trick is won with it (``wins``), its cheapest when it is lost, is at least as good for
    the player as any other member: the other members are played later in the same roles, and
    their points then go to that later trick's winner, at best the same player."""
    if ctx[CTX_RISING]:
        row = 1 if wins else 0
        return (CLASS_TABLE[row, (cands & 63) | ((theirs & 63) << 6)]
                | (CLASS_TABLE[row, ((cands >> 6) & 63) | (((theirs >> 6) & 63) << 6)] << 6)
                | (CLASS_TABLE[row, ((cands >> 12) & 63) | (((theirs >> 12) & 63) << 6)] << 12)
                | (CLASS_TABLE[row, ((cands >> 18) & 63) | (((theirs >> 18) & 63) << 6)] << 18))
    out = np.int64(0)
    for s in range(4):
        m = (cands >> (6 * s)) & 63
        if m & (m - 1) == 0:
            out |= m << (6 * s)
            continue
        o = (theirs >> (6 * s)) & 63
        pick = -1
        for r in range(6):
            t = 6 * s + r
            if (o >> r) & 1:  # a separator; a copy of it in ``cands`` is a class alone
                if pick >= 0:
                    out |= np.int64(1) << pick
                pick = -1
                out |= ((m >> r) & 1) << t
            elif (m >> r) & 1:
                if pick < 0:
                    pick = t
                elif wins:
                    if ctx[CTX_POINTS + t] >= ctx[CTX_POINTS + pick]:
                        pick = t
                elif ctx[CTX_POINTS + t] < ctx[CTX_POINTS + pick]:
                    pick = t
        if pick >= 0:
            out |= np.int64(1) << pick
    return out


@njit(_nrt=False)
def _last_trick(q0, q1, leader, rem, trump_block):
    """Seat 0's points from the last trick (one card each): ``rem`` goes to its winner."""
    c = lowest_bit(q0 if leader == 0 else q1)
    r = lowest_bit(q1 if leader == 0 else q0)
    led_block = suit_block(c // 6)
    follower_wins = card_key(r, led_block, trump_block) > card_key(c, led_block, trump_block)
    winner = (1 - leader) if follower_wins else leader
    return rem if winner == 0 else 0


@njit(_nrt=False)
def _search(mask, q0, q1, leader, alpha, beta, rem, n, only, trump, ctx, tt):
    """Points seat 0 wins from a trick start, searched with the window ``(alpha, beta)``
    (fail-soft: a value ``<= alpha`` is an upper bound, ``>= beta`` a lower bound, else exact).

    ``mask``: the physical cards still held; ``q0``, ``q1``: the presence masks (card types) of
    seats 0 and 1, ``n`` cards each (n >= 1); ``rem``: card points in both hands plus the last
    trick's bonus. ``only``: :data:`NO_CARD` for an inner node, :data:`ROOT` at the root (no
    cut-off from the table: it must find its best lead, which it leaves in ``ctx[CTX_BEST]``),
    a card type to search that lead alone without the table (the root's per-lead values).
    """
    ctx[CTX_NODES] += 1
    trump_block = suit_block(trump)
    if n == 1:
        return _last_trick(q0, q1, leader, rem, trump_block)
    if alpha >= rem:
        return rem
    if beta <= 0:
        return 0
    alpha0 = alpha
    beta0 = beta
    key = (ctx[CTX_GEN] << KEY_SHIFT) | (np.int64(leader) << 24) | mask
    slot = table_slot(key, tt.shape[0] - 1)
    tt_card = NO_CARD
    lo = np.int64(0)
    hi = rem
    use_tt = only < 0 and n >= TT_MIN_CARDS
    if use_tt and tt[slot, 0] == key:
        data = tt[slot, 1]
        lo = data & VALUE_MASK
        hi = (data >> VALUE_BITS) & VALUE_MASK
        tt_card = (data >> (2 * VALUE_BITS)) - 1
        # an inner node takes the entry's cut-offs; the root searches on for its best lead
        if only == NO_CARD:
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            alpha = max(alpha, lo)
            beta = min(beta, hi)

    maxing = leader == 0
    ql = q0 if maxing else q1
    qf = q1 if maxing else q0
    follower = 1 - leader
    if only >= 0:  # one lead alone
        winners = np.int64(1) << only
        ql_order = winners
    else:
        sure = _sure_winners(ql, qf, trump, trump_block)
        winners = _classes(sure, qf, True, ctx)
        ql_order = winners | _classes(ql & ~sure, qf, False, ctx)
    best = np.int64(-1) if maxing else np.int64(INF)
    best_card = NO_CARD
    done = False
    # passes: 0 the table's lead, 1..6 sure winners from the highest rank, 7..12 the others
    # from the lowest rank (one card of each class of equivalent cards)
    for p in range(13):
        if done:
            break
        if p == 0:
            if tt_card < 0 or not (ql_order >> tt_card) & 1:
                continue
            cand = np.int64(1) << tt_card
        elif p <= 6:
            cand = winners & (np.int64(RANK0) << (6 - p))
        else:
            cand = ql_order & ~winners & (np.int64(RANK0) << (p - 7))
        if p > 0 and tt_card >= 0:
            cand &= ~(np.int64(1) << tt_card)
        while cand:
            c = lowest_bit(cand)
            cand &= cand - 1
            ctx[CTX_NODES] += 1
            mask_c, ql_c = _play(mask, ql, ctx, leader, c)
            led_block = suit_block(c // 6)
            key_c = card_key(c, led_block, trump_block)
            legal = legal_under(qf, led_block, trump_block, beaters(c))
            points_c = ctx[CTX_POINTS + c]
            # the follower's replies (he minimises when the leader maximises): all lose or all
            # win; losers lowest rank first, winners highest first
            if maxing:
                value = np.int64(INF)
                b = beta
            else:
                value = np.int64(-1)
                a = alpha
            rise = card_key(lowest_bit(legal), led_block, trump_block) <= key_c
            legal = _classes(legal, ql_c | (np.int64(1) << c), not rise, ctx)
            for r_step in range(6):
                r_rank = r_step if rise else 5 - r_step
                m = legal & (np.int64(RANK0) << r_rank)
                stop = False
                while m:
                    r = lowest_bit(m)
                    m &= m - 1
                    mask_r, qf_r = _play(mask_c, qf, ctx, follower, r)
                    trick = points_c + ctx[CTX_POINTS + r]
                    winner = follower if card_key(r, led_block, trump_block) > key_c else leader
                    gain = trick if winner == 0 else np.int64(0)
                    n0 = ql_c if maxing else qf_r
                    n1 = qf_r if maxing else ql_c
                    if n == 2:  # the last trick: one card each, no call
                        x = gain + _last_trick(n0, n1, winner, rem - trick, trump_block)
                    elif maxing:
                        x = gain + _search(mask_r, n0, n1, winner, alpha - gain, b - gain,
                                           rem - trick, n - 1, np.int64(NO_CARD), trump, ctx, tt)
                    else:
                        x = gain + _search(mask_r, n0, n1, winner, a - gain, beta - gain,
                                           rem - trick, n - 1, np.int64(NO_CARD), trump, ctx, tt)
                    if maxing:
                        if x < value:
                            value = x
                            if value <= alpha:
                                stop = True
                                break
                            b = min(b, value)
                    else:
                        if x > value:
                            value = x
                            if value >= beta:
                                stop = True
                                break
                            a = max(a, value)
                if stop:
                    break
            if maxing:
                if value > best:
                    best = value
                    best_card = c
                    if best >= beta:
                        done = True
                        break
                    alpha = max(alpha, best)
            else:
                if value < best:
                    best = value
                    best_card = c
                    if best <= alpha:
                        done = True
                        break
                    beta = min(beta, best)
    if use_tt:
        _store(tt, slot, key, lo, hi, best, alpha0, beta0, best_card)
    if only == ROOT:
        ctx[CTX_BEST] = best_card
    return best


@njit(_nrt=False)
def _store(tt, slot, key, lo, hi, value, alpha, beta, card):
    """Merge a search result into the entry: ``value <= alpha`` bounds from above, ``>= beta``
    from below, anything between is exact. ``lo``/``hi`` are the entry's bounds before the
    search (0 and rem for a new one)."""
    if value <= alpha:
        hi = min(hi, value)
    elif value >= beta:
        lo = max(lo, value)
    else:
        lo = value
        hi = value
    tt[slot, 0] = key
    tt[slot, 1] = lo | (hi << VALUE_BITS) | (np.int64(card + 1) << (2 * VALUE_BITS))


@njit
def _root(hands, card_points, last_trick, ctx):
    """Set up a search of ``hands``: the card points and every copy's bit in ``ctx``, a new
    table generation, the node count 0. Returns ``(mask, q0, q1, n, rem)`` (int64)."""
    ctx[CTX_GEN] += 1
    ctx[CTX_NODES] = 0
    rising = 1
    for t in range(24):
        if t % 6 and card_points[t] < card_points[t - 1]:
            rising = 0
    ctx[CTX_RISING] = rising
    bit = np.int64(0)
    rem = np.int64(last_trick)
    for seat in range(2):
        for t in range(24):
            ctx[CTX_POINTS + t] = card_points[t]
            k = (np.int64((hands[seat, 0] >> t) & 1) + np.int64((hands[seat, 1] >> t) & 1)
                 + np.int64((hands[seat, 2] >> t) & 1) + np.int64((hands[seat, 3] >> t) & 1))
            ctx[CTX_SPAN + 24 * seat + t] = ((np.int64(1) << k) - 1) << bit
            bit += k
            rem += k * card_points[t]
    return ((np.int64(1) << bit) - 1, np.int64(hands[0, 0]), np.int64(hands[1, 0]), bit // 2,
            rem)


@njit
def _mtdf(mask, q0, q1, leader, rem, n, trump, ctx, tt, guess, only):
    """The exact value and a best lead, by null-window searches (MTD(f)): each search around the
    current guess tightens ``[lo, hi]`` by the bound it returns, the table keeping what the
    earlier ones found. A search that moves the bound on the leader's side ends on a lead that
    secures it (seat 0: a fail high, seat 1: a fail low), so the last such lead is a best one
    (when no bound on that side moves, every lead is as good). ``only`` as in :func:`_search`
    (:data:`ROOT`, or one lead's value: then the card returned means nothing)."""
    card = lowest_bit(q0 if leader == 0 else q1)
    if n == 1:
        return _last_trick(q0, q1, leader, rem, suit_block(trump)), card
    lo = np.int64(0)
    hi = rem
    g = guess
    while lo < hi:
        beta = g if g > lo else lo + 1
        g = _search(mask, q0, q1, leader, beta - 1, beta, rem, n, only, trump, ctx, tt)
        if g < beta:
            hi = g
            if leader == 1:
                card = ctx[CTX_BEST]
        else:
            lo = g
            if leader == 0:
                card = ctx[CTX_BEST]
    return lo, card


@njit
def solve(hands, trump, leader, card_points, last_trick, ctx, tt):
    """The card points seat 0 secures from this trick start with best play of both sides (the
    last trick's bonus included) and one best card for ``leader`` to lead. See the module
    docstring for the arguments."""
    mask, q0, q1, n, rem = _root(hands, card_points, last_trick, ctx)
    return _mtdf(mask, q0, q1, np.int64(leader), rem, n, np.int64(trump), ctx, tt, rem // 2,
                 np.int64(ROOT))


@njit
def solve_leads(hands, trump, leader, card_points, last_trick, ctx, tt, values):
    """:func:`solve`, and in ``values`` (int64 (24,)) the exact points seat 0 secures after
    each card type ``leader`` may lead (-1 for the types he does not hold). All the searches
    share one table generation (the per-lead ones reuse the whole search's entries);
    ``ctx[CTX_NODES]`` counts the positions of all of them."""
    mask, q0, q1, n, rem = _root(hands, card_points, last_trick, ctx)
    leader = np.int64(leader)
    trump = np.int64(trump)
    value, card = _mtdf(mask, q0, q1, leader, rem, n, trump, ctx, tt, rem // 2, np.int64(ROOT))
    held = q0 if leader == 0 else q1
    for t in range(24):
        values[t] = -1
        if (held >> t) & 1:
            values[t] = _mtdf(mask, q0, q1, leader, rem, n, trump, ctx, tt, value,
                              np.int64(t))[0]
    return value, card


@njit
def best_lead(hands, trump, leader, card_points, last_trick, ctx, tt, legal):
    """``(value, card)``: :func:`solve`'s value and the lowest card type of ``legal`` (an int64
    mask of types ``leader`` holds, every one he may lead) whose lead secures that value, as
    :func:`solve_leads` followed by the lowest best type would give. After the whole search,
    each lower type takes one null-window search in the same table generation (does it reach
    the value?) instead of an exact value of its own."""
    mask, q0, q1, n, rem = _root(hands, card_points, last_trick, ctx)
    leader = np.int64(leader)
    trump = np.int64(trump)
    value, card = _mtdf(mask, q0, q1, leader, rem, n, trump, ctx, tt, rem // 2, np.int64(ROOT))
    cand = legal
    while cand:
        t = lowest_bit(cand)
        cand &= cand - 1
        if t == card:
            return value, t
        if leader == 0:  # seat 0 maximises: does the lead reach the value?
            if _search(mask, q0, q1, leader, value - 1, value, rem, n, np.int64(t), trump,
                       ctx, tt) >= value:
                return value, t
        elif _search(mask, q0, q1, leader, value, value + 1, rem, n, np.int64(t), trump,
                     ctx, tt) <= value:
            return value, t
    return value, card


@njit
def solve_beyond(hands, trump, leader, card_points, last_trick, ctx, tt, bound, above):
    """:func:`solve`'s value if it is above ``bound`` (``above``) or below it (not
    ``above``), else ``bound`` itself: one null-window search decides, and only a value beyond
    the bound is then searched exactly (MTD(f) from that search's bound, in the same table
    generation). What a follower asks of each reply after the first: is it better?"""
    mask, q0, q1, n, rem = _root(hands, card_points, last_trick, ctx)
    leader = np.int64(leader)
    trump = np.int64(trump)
    bound = np.int64(bound)  # (one card each: _search and _mtdf score the last trick exactly)
    if above:
        g = _search(mask, q0, q1, leader, bound, bound + 1, rem, n, np.int64(NO_CARD), trump,
                    ctx, tt)
        if g <= bound:
            return bound
    else:
        g = _search(mask, q0, q1, leader, bound - 1, bound, rem, n, np.int64(NO_CARD), trump,
                    ctx, tt)
        if g >= bound:
            return bound
    return _mtdf(mask, q0, q1, leader, rem, n, trump, ctx, tt, g, np.int64(NO_CARD))[0]
