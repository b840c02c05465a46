"""A widow-game deal's score (docs/rules.md "Widow games", "Play and scoring"): the widow loop's
and the sampling policy's play-outs' (:mod:`binokel_sim.kernels.widow.knowledge`)."""

from binokel_sim.kernels.options import njit


@njit
def side_of(seat, pairs):
    return seat % 2 if pairs else seat


@njit
def score_sides(melds, card_pts, won, soloist, bid, n_players, hand, pairs, sweep, round_to,
                scores, sums):
    """Score a played deal (docs/rules.md, "Play and scoring"): writes ``scores`` (every seat its
    side's score) and returns ``(bonus, made, soloist side total)``; ``sweep`` is what a side
    that takes every trick adds (``[widow] all_tricks_bonus``); ``round_to`` above 1 rounds
    each side's card points to a multiple of it, half up (``[points] round_to``). ``sums``
    int64 (4, 4) is scratch (per side: meld, card points, tricks, total)."""
    n_sides = 2 if pairs else n_players
    for q in range(n_sides):
        sums[0, q] = 0
        sums[1, q] = 0
        sums[2, q] = 0
    for seat in range(n_players):
        q = side_of(seat, pairs)
        sums[0, q] += melds[seat]
        sums[1, q] += card_pts[seat]
        sums[2, q] += won[seat]
    bonus = 0
    for q in range(n_sides):
        if round_to > 1:
            sums[1, q] = (sums[1, q] + round_to // 2) // round_to * round_to
        sums[3, q] = sums[1, q] + (sums[0, q] if sums[2, q] > 0 else 0)
        if sums[2, q] == hand:
            bonus = sweep
            sums[3, q] += bonus
    solo = side_of(soloist, pairs)
    made = sums[3, solo] >= bid
    for seat in range(n_players):
        q = side_of(seat, pairs)
        scores[seat] = sums[3, q] if q != solo or made else -2 * bid
    return bonus, made, sums[3, solo]


@njit
def score_conceded(melds, soloist, bid, n_players, pairs, bonus, scores, sums):
    """Score a deal the soloist gave up before the first lead (Abgehen, SPEC "House variants"):
    his side scores minus the bid (once), every other side its meld and ``bonus``. Writes
    ``scores`` (every seat its side's score) and returns ``(0, False, minus the bid)`` as
    :func:`score_sides` returns ``(bonus, made, soloist side total)``."""
    n_sides = 2 if pairs else n_players
    for q in range(n_sides):
        sums[0, q] = 0
    for seat in range(n_players):
        sums[0, side_of(seat, pairs)] += melds[seat]
    solo = side_of(soloist, pairs)
    for seat in range(n_players):
        q = side_of(seat, pairs)
        scores[seat] = -bid if q == solo else sums[0, q] + bonus
    return 0, False, -bid


@njit
def concede_payout(cfg_bonus, half_bid, bid, ladder):
    """What each opposing side adds to its meld after Abgehen: ``cfg_bonus`` (``[widow]
    concede_bonus``), or with ``half_bid`` (``[widow] concede_payout = "half_bid"``) half the
    bid rounded up to a multiple of the step of the ladder's rung that holds the bid (270 on a
    ladder in tens: 140)."""
    if not half_bid:
        return cfg_bonus
    step = ladder[0, 1]
    for rung in range(ladder.shape[0]):
        if ladder[rung, 0] <= bid:
            step = ladder[rung, 1]
    half = (bid + 1) // 2
    return (half + step - 1) // step * step


@njit
def score_durch(won, soloist, n_players, hand, pairs, worth, scores):
    """Score a Durch (SPEC "House variants"; docs/rules.md decision 39): the soloist's side
    scores ``worth`` (1000, 1500 open: ``Rules.durch_score``) when it took every trick, else
    minus it; every other side 0, and no
    meld counts. Writes ``scores`` (every seat its side's score) and returns ``(0, made, the
    soloist side's score)`` as :func:`score_sides` returns ``(bonus, made, total)``."""
    solo = side_of(soloist, pairs)
    taken = 0
    for seat in range(n_players):
        if side_of(seat, pairs) == solo:
            taken += won[seat]
    made = taken == hand
    value = worth if made else -worth
    for seat in range(n_players):
        scores[seat] = value if side_of(seat, pairs) == solo else 0
    return 0, made, value


@njit
def score_bettel(won, soloist, n_players, bid, pairs, scores):
    """Score a Bettel (SPEC "House variants"; docs/rules.md decision 40): the soloist's side
    scores the bid when he took no trick, else minus twice the bid; every other side 0; no meld
    counts. Writes ``scores`` and returns ``(0, made, the soloist side's score)``."""
    solo = side_of(soloist, pairs)
    made = won[soloist] == 0
    value = bid if made else -2 * bid
    for seat in range(n_players):
        scores[seat] = value if side_of(seat, pairs) == solo else 0
    return 0, made, value
