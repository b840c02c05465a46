"""Exact endgames of strict trick play for 2, 3 or 4 seats, every hand known.

Any family's strict tricks (SPEC.md "Must-head obligation" and "Trick winner": must follow, must
head, must trump) from any point of a trick: the card points (the last trick's bonus included)
that one side takes from here, the cards already on the table included, with best play of both
sides; or, for Durch and Bettel, the tricks it takes (``EndgameTable.tricks``). The side is a
set of seats (``EndgameTable.ours``): a partnership, the soloist alone, or the soloist's
defenders (for a Bettel, the soloist's tricks are counted and his opponents maximise them:
``EndgameTable.scored``); seats outside it play against it together (the usual double-dummy
reading for games without partners: the seat solved for against the rest). The two-player solver of two-hand-48
(:mod:`binokel_sim.kernels.strict.solver`) is this search specialised to two seats; the tests
check the two agree, and both against the unpruned twin ``reference.endgame``.

Entry points (``hands`` uint32 (P, 4), the bit planes of what each seat still holds; ``trick`` a
:class:`~binokel_sim.kernels.strict.tricks.Trick`, the trick in play, ``position`` 0 at a trick's
start; ``n_tricks`` the tricks left, this one included; ``table`` the
:class:`EndgameTable`, what is scored and the trump):

- :func:`endgame_value` ``-> value``: the exact value;
- :func:`endgame_best` ``-> (value, best)``: and ``best``, the mask of every card type the
  seat to play may play that secures the value;
- :func:`endgame_moves`: and in ``values`` (int64 (24,)) the exact value after each card type
  the seat to play may play (-1 for the others).

Each call starts a new table generation (entries of an earlier position never match) and leaves
the number of positions searched in ``scratch.stats[STAT_NODES]``.

The search is alpha-beta (fail-soft) on the side's value, card by card, with the whole window
(MTD(f)'s null-window searches visited about twice the positions here); at most
:data:`MAX_CARDS` cards held in all. :func:`endgame_best` asks each other card one null-window
question (does it reach the value?).

- **Duplicate cards are one move.** A card type is played as one move, whichever copy (the
  copies are equal: SPEC.md "Trick winner", the first of identical cards wins).
- **Equivalent cards are one move for the trick's last card.** Whether it takes the trick is
  known then; cards of one suit that no other seat's card separates (nor a copy of theirs)
  take the same tricks now and later, so only the dearest is tried when the trick goes to the
  seat's side, the cheapest when it goes to the other (the one kept is played later in the same
  role, and its points then go at best to the same side: :func:`_runs`).
- **The position key.** At a trick's start the position is the set of the root's physical cards
  still held (each seat's copies of a type side by side, the highest copy leaving first, so the
  set is canonical) and the leader: ``mask << 2 | leader``.
- **A transposition table at trick starts**: a lower and an upper bound and the best card,
  checked against the full key and the generation; the searches of one call share it.
- **Move ordering**: the table's card first; a lead from the highest rank down; a follower
  whose side holds the trick gives its dearest loser first (a smear), else tries its winners
  (from the highest, the last seat from the cheapest) before its losers (cheapest first).
- **The points still in play bound the value** to ``[0, rem]``: a window outside it cuts at
  once.

The recursive search and the helpers it calls per node (:func:`_search`, :func:`_order`,
:func:`_push`, :func:`_runs`) compile with ``_nrt=False``: numba's reference counting of every
array a call is given (the table's and the scratch's, nine at each node) took 55% of the time
(``perf``, kreuz-4-40 from 6 tricks left), and a search allocates nothing, so they need none.
The same positions, the same values and node counts, 2.2 times as fast
(docs/performance.md, "Reference counting in the exact searches").
"""

from collections import namedtuple

import numpy as np

from binokel_sim.kernels.bits import RANK0, lowest_bit
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.play import must_head, suit_block, takes
from binokel_sim.kernels.strict.solver import (  # the two-seat search's table and bounds
    INF,
    NO_CARD,
    VALUE_BITS,
    VALUE_MASK,
    table_slot,
)

EndgameTable = namedtuple("EndgameTable", ["card_points", "last_trick", "ours", "scored",
                                           "tricks", "trump"])
"""What the search scores: ``card_points`` int64 (24,); ``last_trick`` (int64) the last trick's
bonus; ``ours`` int64 (P,), 1 for the seats that maximise the value (the others minimise it);
``scored`` int64 (P,), 1 for the seats whose tricks count (``ours`` but for a Bettel: the
soloist's tricks, which his opponents maximise); ``tricks`` (bool) count tricks won (1 each, no
bonus) instead of card points: Durch and Bettel; ``trump`` (int64) the trump suit 0..3, or
``NO_TRUMP`` (a Durch, a Bettel)."""

EndgameScratch = namedtuple("EndgameScratch", ["span", "held", "order", "tt", "stats"])
"""Scratch the caller allocates once (:func:`endgame_scratch`) and reuses: ``span`` int64
(4, 24) the bits of a seat's copies of a type in the position mask; ``held`` int64 (4,) the
types each seat holds, kept as the search plays; ``order`` int64 (MAX_CARDS + 1, 24) the moves
of each depth in the order tried; ``tt`` int64 (2**k, 3) the transposition table (key,
generation, bounds and card); ``stats`` int64 (:data:`N_STATS`,) the generation and the node
count."""

MAX_CARDS = 60  # physical cards held at the root: the key is the mask, shifted past the leader
TT_BITS = 18  # endgame_scratch's table: 2**18 entries of three int64 (6 MB)
LEAF_TT_BITS = 16  # a sampling decision's play-outs' table, one a block: 2**16 entries (1.5 MB)
STAT_GEN = 0
STAT_NODES = 1
N_STATS = 2


@njit
def endgame_scratch(tt_bits=TT_BITS):
    """Fresh scratch for the search (a table of ``2**tt_bits`` entries; a sampling decision's
    play-outs keep one a block, :mod:`binokel_sim.kernels.partnership.sampling`)."""
    return EndgameScratch(np.zeros((4, 24), np.int64), np.zeros(4, np.int64),
                          np.zeros((MAX_CARDS + 1, 24), np.int64),
                          np.zeros((np.int64(1) << tt_bits, 3), np.int64),
                          np.zeros(N_STATS, np.int64))


@njit(_nrt=False)
def _runs(cands, others, dearest, card_points):
    """One card of each run of ``cands`` (card types of one seat) that no card of ``others``
    (the other seats' types) separates: within a suit, cards with no other seat's card between
    them nor a copy of theirs in another hand take the same tricks now and later. The run's
    dearest card when ``dearest`` (the trick goes to the seat's side), else its cheapest."""
    out = np.int64(0)
    for s in range(4):
        pick = np.int64(-1)
        for r in range(6):
            t = 6 * s + r
            if (others >> t) & 1:  # a separator; a candidate of its type is a run alone
                if pick >= 0:
                    out |= np.int64(1) << pick
                pick = -1
                out |= cands & (np.int64(1) << t)
            elif (cands >> t) & 1:
                if pick < 0:
                    pick = t
                elif dearest:
                    if card_points[t] >= card_points[pick]:
                        pick = t
                elif card_points[t] < card_points[pick]:
                    pick = t
        if pick >= 0:
            out |= np.int64(1) << pick
    return out


@njit(_nrt=False)
def _push(cards, high_first, out, n):
    """Write the card types of ``cards`` into ``out`` from ``n`` on, rank by rank (the highest
    first when ``high_first``); return the new count."""
    for step in range(6):
        r = 5 - step if high_first else step
        m = cards & (np.int64(RANK0) << r)
        while m:
            out[n] = lowest_bit(m)
            m &= m - 1
            n += 1
    return n


@njit(_nrt=False)
def _order(legal, pos, ours_holds, last, tt_card, wins, out):
    """Write ``legal``'s card types into ``out`` in the order tried (module docstring); return
    their number."""
    n = 0
    if tt_card >= 0 and (legal >> tt_card) & 1:
        out[0] = tt_card
        n = 1
        legal &= ~(np.int64(1) << tt_card)
    if pos == 0:
        return _push(legal, True, out, n)
    if ours_holds:  # smear: the dearest loser first, then the winners from the cheapest
        return _push(legal & wins, False, out, _push(legal & ~wins, True, out, n))
    # the winners from the highest (the last seat: from the cheapest), then the losers
    return _push(legal & ~wins, False, out, _push(legal & wins, not last, out, n))


@njit(_nrt=False)
def _search(mask, leader, pos, led_block, wins, win_seat, pts, left, rem, alpha, beta, only,
            depth, table, sc):
    """The side's value from here, searched with the window ``(alpha, beta)`` (fail-soft: a
    value ``<= alpha`` is an upper bound, ``>= beta`` a lower bound, else exact).

    ``mask`` the physical cards still held; the trick led by ``leader`` has ``pos`` cards on
    the table worth ``pts`` (or, counting tricks, 0), led in ``led_block``, held by
    ``win_seat`` and taken from it by ``wins``; ``left`` tricks are left, this one included;
    ``rem`` bounds the value (what is still to win: the cards held and on the table, and the
    last trick's bonus; counting tricks, ``left``); the last trick is played out without a
    search. ``only``: :data:`NO_CARD`, or
    a card type to search alone (without the table). All int64."""
    stats, held, span, tt = sc.stats, sc.held, sc.span, sc.tt
    trump = table.trump
    stats[STAT_NODES] += 1
    if alpha >= rem:
        return rem
    if beta <= 0:
        return np.int64(0)
    n_seats = table.ours.shape[0]
    if left == 1:  # the last trick: one card each, played out
        for i in range(pos, n_seats):
            s = (leader + i) % n_seats
            c = lowest_bit(held[s])
            if i == 0 or (wins >> c) & 1:
                wins = takes(trump, c)
                win_seat = s
            pts += table.card_points[c]
        if table.scored[win_seat] != 1:
            return np.int64(0)
        return np.int64(1) if table.tricks else pts + table.last_trick
    seat = leader + pos
    if seat >= n_seats:
        seat -= n_seats
    trump_block = suit_block(trump)
    alpha0 = alpha
    beta0 = beta
    use_tt = pos == 0 and left >= 2 and only < 0
    key = np.int64(0)
    slot = np.int64(0)
    tt_card = np.int64(NO_CARD)
    lo = np.int64(0)
    hi = rem
    if use_tt:
        key = (mask << 2) | leader
        slot = table_slot(key, tt.shape[0] - 1)
    if use_tt and tt[slot, 0] == key and tt[slot, 1] == stats[STAT_GEN]:
        data = tt[slot, 2]
        lo = data & VALUE_MASK
        hi = (data >> VALUE_BITS) & VALUE_MASK
        tt_card = (data >> (2 * VALUE_BITS)) - 1
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        alpha = max(alpha, lo)
        beta = min(beta, hi)
    own = held[seat]
    legal = own if pos == 0 else must_head(own, led_block, trump_block, wins)
    if only >= 0:
        legal = np.int64(1) << only
    elif pos == n_seats - 1 and legal & (legal - 1):
        # the last card of a trick: whether it takes the trick is known, so of cards that no
        # other seat's card separates only the dearest is tried when the trick's points are
        # good for the seat (that or later, they go at best to the same side), else the
        # cheapest
        others = np.int64(0)
        for s in range(n_seats):
            if s != seat:
                others |= held[s]
        maxing = table.ours[seat] == 1  # points to a scored seat are good for him
        legal = (_runs(legal & wins, others, (table.scored[seat] == 1) == maxing,
                       table.card_points)
                 | _runs(legal & ~wins, others, (table.scored[win_seat] == 1) == maxing,
                         table.card_points))
    maxing = table.ours[seat] == 1
    out = sc.order[depth]
    n = _order(legal, pos, pos > 0 and table.ours[win_seat] == table.ours[seat],
               pos == n_seats - 1, tt_card, wins, out)
    best = np.int64(-1) if maxing else np.int64(INF)
    best_card = np.int64(NO_CARD)
    for j in range(n):
        c = out[j]
        x = mask & span[seat, c]
        gone = (x & (x - 1)) == 0  # the seat's last copy of the type
        mask_c = mask ^ (x & ~(x >> 1))
        if gone:
            held[seat] = own & ~(np.int64(1) << c)
        led_c = led_block
        wins_c = wins
        win_c = win_seat
        if pos == 0:
            led_c = suit_block(c // 6)
            wins_c = takes(trump, c)
            win_c = seat
        elif (wins >> c) & 1:
            wins_c = takes(trump, c)
            win_c = seat
        pts_c = pts if table.tricks else pts + table.card_points[c]
        if pos == n_seats - 1:  # the trick is complete (left >= 2: the last is played out)
            worth = np.int64(1) if table.tricks else pts_c
            gain = worth if table.scored[win_c] == 1 else np.int64(0)
            value = gain + _search(mask_c, win_c, np.int64(0), np.int64(0), np.int64(0),
                                   win_c, np.int64(0), left - 1, rem - worth, alpha - gain,
                                   beta - gain, np.int64(NO_CARD), depth + 1, table, sc)
        else:
            value = _search(mask_c, leader, pos + 1, led_c, wins_c, win_c, pts_c, left, rem,
                            alpha, beta, np.int64(NO_CARD), depth + 1, table, sc)
        held[seat] = own
        if maxing:
            if value > best:
                best = value
                best_card = c
                if best >= beta:
                    break
                alpha = max(alpha, best)
        else:
            if value < best:
                best = value
                best_card = c
                if best <= alpha:
                    break
                beta = min(beta, best)
    if use_tt:
        if best <= alpha0:
            hi = min(hi, best)
        elif best >= beta0:
            lo = max(lo, best)
        else:
            lo = best
            hi = best
        tt[slot, 0] = key
        tt[slot, 1] = stats[STAT_GEN]
        tt[slot, 2] = lo | (hi << VALUE_BITS) | ((best_card + 1) << (2 * VALUE_BITS))
    return best


@njit
def _root(hands, trick, n_tricks, table, sc):
    """Set up a search: a new generation, the node count 0, every copy's bit, the types held.
    Returns ``(mask, rem)``; ``mask`` is -1 when the seats hold more than :data:`MAX_CARDS`."""
    sc.stats[STAT_GEN] += 1
    sc.stats[STAT_NODES] = 0
    bit = np.int64(0)
    rem = np.int64(n_tricks) if table.tricks else trick.points + table.last_trick
    for seat in range(hands.shape[0]):
        sc.held[seat] = np.int64(hands[seat, 0])
        for t in range(24):
            k = (np.int64((hands[seat, 0] >> t) & 1) + np.int64((hands[seat, 1] >> t) & 1)
                 + np.int64((hands[seat, 2] >> t) & 1) + np.int64((hands[seat, 3] >> t) & 1))
            sc.span[seat, t] = ((np.int64(1) << k) - 1) << bit
            bit += k
            if not table.tricks:
                rem += k * table.card_points[t]
    if bit > MAX_CARDS:
        return np.int64(-1), rem
    return (np.int64(1) << bit) - 1, rem


@njit
def _at(mask, trick, n_tricks, rem, alpha, beta, only, table, sc):
    """:func:`_search` from the root's trick."""
    led_block = suit_block(trick.led) if trick.position > 0 else np.int64(0)
    return _search(mask, np.int64(trick.leader), np.int64(trick.position), led_block,
                   np.int64(trick.wins), np.int64(trick.win_seat), np.int64(trick.points),
                   np.int64(n_tricks), rem, np.int64(alpha), np.int64(beta), np.int64(only),
                   np.int64(0), table, sc)


@njit
def _to_play(hands, trick, table):
    """``(seat, legal)``: the seat to play at the root and the card types it may play."""
    seat = (trick.leader + trick.position) % hands.shape[0]
    held = np.int64(hands[seat, 0])
    if trick.position == 0:
        return seat, held
    return seat, must_head(held, suit_block(trick.led), suit_block(table.trump), trick.wins)


@njit
def endgame_value(hands, trick, n_tricks, table, scratch):
    """The exact value of the position (module docstring); -1 when the seats hold more than
    :data:`MAX_CARDS` cards."""
    mask, rem = _root(hands, trick, n_tricks, table, scratch)
    if mask < 0:
        return np.int64(-1)
    return _at(mask, trick, n_tricks, rem, -1, rem + 1, NO_CARD, table, scratch)


@njit
def endgame_best(hands, trick, n_tricks, table, scratch):
    """``(value, best)``: :func:`endgame_value` and the mask of every card type the seat to
    play may play that secures it (one null-window search a type, in the same generation)."""
    mask, rem = _root(hands, trick, n_tricks, table, scratch)
    if mask < 0:
        return np.int64(-1), np.int64(0)
    value = _at(mask, trick, n_tricks, rem, -1, rem + 1, NO_CARD, table, scratch)
    seat, legal = _to_play(hands, trick, table)
    best = np.int64(0)
    cand = legal
    while cand:
        t = lowest_bit(cand)
        cand &= cand - 1
        if table.ours[seat] == 1:
            if _at(mask, trick, n_tricks, rem, value - 1, value, t, table,
                   scratch) >= value:
                best |= np.int64(1) << t
        elif _at(mask, trick, n_tricks, rem, value, value + 1, t, table,
                 scratch) <= value:
            best |= np.int64(1) << t
    return value, best


@njit
def endgame_moves(hands, trick, n_tricks, table, scratch, values):
    """:func:`endgame_value`, and in ``values`` the exact value after each card type the seat
    to play may play (-1 for the types he may not)."""
    mask, rem = _root(hands, trick, n_tricks, table, scratch)
    for t in range(24):
        values[t] = -1
    if mask < 0:
        return np.int64(-1)
    value = _at(mask, trick, n_tricks, rem, -1, rem + 1, NO_CARD, table, scratch)
    seat, legal = _to_play(hands, trick, table)
    cand = legal
    while cand:
        t = lowest_bit(cand)
        cand &= cand - 1
        values[t] = _at(mask, trick, n_tricks, rem, -1, rem + 1, t, table, scratch)
    return value
