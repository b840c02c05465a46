"""What the table knows about each hand (issue 11): inferences from the cards played, and a
seat's view of the hidden cards for the constrained sampler (:mod:`binokel_sim.kernels.sampler`).

Public knowledge is the same for every seat: the cards played, the cards shown (melds shown in
four-hand-80 and the widow games, the turned card), and per seat the mask of card types it may
still hold. A card played under the must-head obligation (SPEC.md "Must-head obligation") tells
the table three things about the rest of that hand:

- a card not of the led suit: the player holds **no card of the led suit** (a void);
- a card neither of the led suit nor trump: **no trump** either;
- a card of the pool the rule made him play from (the led suit, or trump when he is void) that
  does not head the trick when the pool held cards that would: he holds **none of those higher
  cards** (must-head inference). "Higher" is the cards of the winning card's suit above it
  (:func:`binokel_sim.kernels.play.beaters`), so after the trick was trumped a follower who
  keeps to the led suit reveals nothing about it, and one who trumps without over-trumping holds
  no higher trump.

:func:`excluded_by` is that rule as one mask; it is applied only where play is strict (every
trick of four-hand-80 and the widow games, phase 2 of the talon games, and phase 1 too under
``strict_phase1``).
"""

import numpy as np

from binokel_sim.kernels.bits import N_TYPES, lowest_bit
from binokel_sim.kernels.melds import multiplicity
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.sampler import count_ways, sample_counts

# What a sampling seat's deals respect of the table's inferences (the ablation of issue 28,
# ``duel --inference``): every seat's decisions respect every seat's excluded types (the
# default); only the declarer's decisions do (the bid winner, a widow game's soloist); none
# does, and the deals respect only what was seen (the hands' sizes, the cards played, the meld
# cards shown, what a widow game's soloist buried and picked up).
INFER_FULL, INFER_DECLARER, INFER_OFF = 0, 1, 2
INFERENCE = {"full": INFER_FULL, "declarer": INFER_DECLARER, "off": INFER_OFF}


@njit
def infers(infer, seat, declarer):
    """Whether ``seat``'s sampling decision respects the excluded types under ``infer``
    (``declarer``: the bid winner or soloist, -1 where there is none)."""
    return infer == INFER_FULL or (infer == INFER_DECLARER and seat == declarer)


@njit
def excluded_by(card, led_block, trump_block, beat):
    """The card types a strict player who played ``card`` to a trick can no longer hold.
    ``led_block`` and ``trump_block`` are the led and trump suits' masks, ``beat`` the cards that
    would have headed the trick when he played (:func:`~binokel_sim.kernels.play.beaters` of
    the winning card so far). The leader's card (``led_block`` its own suit, ``beat`` 0) reveals
    nothing."""
    bit = np.int64(1) << card
    follows = (led_block & bit) != 0
    trumps = (trump_block & bit) != 0
    out = np.int64(0)
    if not follows:
        out |= led_block  # void in the led suit
        if not trumps:
            out |= trump_block  # and in trump
    pool = led_block if follows else (trump_block if trumps else np.int64(0))
    if (bit & beat) == 0:
        out |= pool & beat  # did not head: holds none of the heading cards of its pool
    return out


@njit
def view_pool(deck_counts, own_counts, played_counts, shown, viewer, n_seats, pool):
    """The cards ``viewer`` cannot see: the deck minus its own hand, the cards played and the
    other seats' shown cards still in their hands (those are placed, not sampled). Writes
    ``pool`` (int64 (24,)); returns False when the knowledge does not add up (a count below 0).
    ``shown`` int64 (seats, 24): per seat the shown cards it still holds."""
    for t in range(N_TYPES):
        n = deck_counts[t] - own_counts[t] - played_counts[t]
        for s in range(n_seats):
            if s != viewer:
                n -= shown[s, t]
        if n < 0:
            return False
        pool[t] = n
    return True


@njit
def sample_view(pool, shown, allowed, sizes, viewer, n_seats, extra, ways, state, hands_out,
                counts):
    """Deal the hidden cards to the seats other than ``viewer`` (and to ``extra`` hidden cards
    that belong to nobody yet, a talon or widow, when ``extra > 0``), each seat getting its shown
    cards plus ``sizes[s] - shown`` sampled ones of types ``allowed[s]`` permits.

    Writes ``hands_out[s, t]`` (int64 (seats + 1, 24); row ``n_seats``: the extra cards) for
    every seat but the viewer's. ``ways`` (float64 (25, c + 1, c + 1, c + 1) for ``c`` the largest
    number of cards a group receives) and ``counts`` (int64 (4, 24)) are scratch. Returns False when no deal is consistent (a contradiction: the caller
    treats it as a bug in the knowledge, never silently)."""
    others = np.zeros(4, dtype=np.int64)
    k = 0
    for s in range(n_seats):
        if s != viewer:
            others[k] = s
            k += 1
    masks = np.zeros(4, dtype=np.int64)
    capacity = np.zeros(4, dtype=np.int64)
    for i in range(k):
        s = others[i]
        masks[i] = allowed[s]
        held = 0
        for t in range(N_TYPES):
            held += shown[s, t]
        capacity[i] = sizes[s] - held
        if capacity[i] < 0:
            return False
    n = k
    if extra > 0:
        masks[n] = (np.int64(1) << N_TYPES) - 1
        capacity[n] = extra
        n += 1
    if count_ways(pool, masks, capacity, n, ways) <= 0.0:
        return False
    sample_counts(pool, masks, capacity, n, ways, state, counts)
    for i in range(k):
        s = others[i]
        for t in range(N_TYPES):
            hands_out[s, t] = counts[i, t] + shown[s, t]
    if extra > 0:
        for t in range(N_TYPES):
            hands_out[n_seats, t] = counts[k, t]
    return True


@njit
def shown_of(flat, seat, show_rows, trump, out):
    """The meld cards ``seat`` (flat planes ``flat``) shows with ``trump`` named, copies per type
    into ``out`` (int64 (24,)): every meld set of ``show_rows`` (``games.show_rows``: mask, when
    it applies, the most sets counted) that applies shows its cards once per set held, up to the
    sets counted; a card serving several melds is shown as often as the one needing most."""
    row = 4 * seat
    p0, p1, p2, p3 = flat[row], flat[row + 1], flat[row + 2], flat[row + 3]
    for t in range(N_TYPES):
        out[t] = 0
    for r in range(show_rows.shape[0]):
        when = show_rows[r, 1]
        if (when >= 4 and trump == when - 4) or (0 <= when < 4 and trump != when):
            continue
        mask = show_rows[r, 0]
        sets = min(multiplicity(p0, p1, p2, p3, mask), show_rows[r, 2])
        m = mask
        while m != 0:
            t = lowest_bit(m)
            m &= m - 1
            out[t] = max(out[t], sets)
