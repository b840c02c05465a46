"""Bid odds of a widow-game hand (``binokel-sim bid-odds --variant three-hand-auction-48``): what
the widow will bring, exactly, and how likely each bid is made, from simulated deals.

The samples come from :func:`binokel_sim.engines.widow.run_samples` (seat 0 is the soloist)
and the exact widow section from :func:`binokel_sim.engines.widow.exact_widow`. Scoring is the
contract's (SPEC.md "Variant three-hand-auction-48"); definitions are in docs/rules.md
("Widow bid odds").
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import polars as pl

from binokel_sim.bidding import ladder, minimum_bid
from binokel_sim.cards import SUITS, counts_to_planes, format_counts, planes_to_counts
from binokel_sim.engines.widow import (
    SAMPLE_FIELDS,
    exact_widow,
    exact_widow_known,
)
from binokel_sim.engines.widow import (
    run_samples as run_widow_samples,
)
from binokel_sim.errors import SimulationError
from binokel_sim.hands_file import HandRow
from binokel_sim.odds.summary import (
    AUCTION_COLUMNS,
    P_MAKE_FLOOR,
    at_bid,
    at_minimum_bid,
    auction_figures,
    highest_bid,
    histogram_document,
    no_turned_card,
    sample_seed,
)
from binokel_sim.simulate import Progress
from binokel_sim.stats import Hist, mean_interval, wilson_interval
from binokel_sim.tables import compile_tables
from binokel_sim.variants import Rules

ROW_SCHEMA = {"bid": pl.Int64, "p_make": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
              "p_concede": pl.Float64, "expected_score": pl.Float64}


def bid_grid(rules: Rules) -> np.ndarray:
    """Every bid of the ladder from the minimum up to the highest total a side can reach (both
    partners' best melds, every card point, the all-tricks bonus): the bids a tally counts at."""
    return np.asarray(ladder(rules, highest_bid(rules)), dtype=np.int64)


EVERY_BID = 1 << 40  # the kept bid of a Durch made: it is made whatever the bid


def kept(out: np.ndarray) -> np.ndarray:
    """Per sample (rows as ``SAMPLE_FIELDS``), the highest bid the soloist plays and makes: he
    makes bid ``b`` exactly when ``b <= kept`` (his total reaches ``b`` and he would not give
    up at ``b``, which he does from ``concede_from`` on). A Durch (docs/rules.md decision 39)
    replaces the bid: made, it makes every bid; failed, none."""
    col = {name: i for i, name in enumerate(SAMPLE_FIELDS)}
    counted = np.minimum(out[:, col["total"]], out[:, col["concede_from"]] - 1)
    durch = out[:, col["durch"]] != 0
    return np.where(durch, np.where(out[:, col["total"]] > 0, EVERY_BID, -EVERY_BID), counted)


def made_share(out: np.ndarray, bid: int) -> float:
    """The share of the samples in which the soloist plays ``bid`` and makes it."""
    return float((kept(out) >= bid).mean())


def bid_rows(rules: Rules, out: np.ndarray) -> pl.DataFrame:
    """The bid rows of samples (rows as ``SAMPLE_FIELDS``, :func:`rows_from_tally`)."""
    return rows_from_tally(rules, widow_tally(rules, out))


def rows_from_tally(rules: Rules, tally: dict, through: int = 0) -> pl.DataFrame:
    """One row per bid from the minimum up to the highest bid made in more than 0.1% of the
    samples (at least the minimum): ``p_make`` = share of samples in which the soloist plays the
    bid and makes it (his total reaches it), with a Wilson 95% interval; ``p_concede`` = share
    in which he gives up at that bid after the widow (Abgehen); the expected score with his
    choice (the total when made, minus twice the bid when set, minus the bid when he gives up).
    The play does not depend on the bid, so one set of samples serves every bid. With
    ``through`` the rows go on at least up to that bid (``--bid``)."""
    n = tally["samples"]
    floor = minimum_bid(rules)
    rows = []
    for j, bid in enumerate(bid_grid(rules).tolist()):
        k, given_up = int(tally["made"][j]), int(tally["conceded"][j])
        if bid > max(floor, through) and k / n <= P_MAKE_FLOOR:
            break
        low, high = wilson_interval(k, n)
        failed = tally["durch_failed"]  # minus the Durch's 1000 (1500 open), whatever the bid
        lost = n - k - given_up - failed
        rows.append({"bid": bid, "p_make": k / n, "ci_low": float(low), "ci_high": float(high),
                     "p_concede": given_up / n,
                     "expected_score": (int(tally["made_sum"][j]) - 2 * bid * lost
                                        - rules.durch_score * failed - bid * given_up) / n})
    return pl.DataFrame(rows, schema=ROW_SCHEMA)


def widow_tally(rules: Rules, out: np.ndarray) -> dict:
    """The integer statistics of widow samples (:func:`~binokel_sim.engines.widow.run_samples`'s
    array) that :func:`bid_odds` reports from; tallies of disjoint samples add
    (:func:`binokel_sim.backend.add`): ``samples``; per bid of :func:`bid_grid` the samples in
    which the soloist plays and makes it (``made``), the sum of their totals (``made_sum``) and
    the samples in which he gives up (``conceded``); the histogram of the totals made at the
    minimum bid (``made_at_minimum``); the sum and sum of squares of the soloist's ``meld``, the
    ``bonus`` count and the ``trump`` chosen (int64 (4,), a Durch names none); the samples in
    which he declares Durch (``durch``) and in which that Durch fails (``durch_failed``); the
    samples in which he holds a sure Bettel (``bettel``); the deals dealt for the samples
    (``draws``: more than the samples when they repeat an auction)."""
    col = {name: i for i, name in enumerate(SAMPLE_FIELDS)}
    grid = bid_grid(rules)
    meld = out[:, col["meld"]]
    total = out[:, col["total"]]
    durch = out[:, col["durch"]] != 0
    trump = out[:, col["trump"]]  # -1 where no trump was named (a Durch)
    top = kept(out)
    order = np.argsort(top, kind="stable")
    by_kept = top[order]
    first = np.searchsorted(by_kept, grid, side="left")  # samples from here on make the bid
    suffix = np.concatenate([np.cumsum(total[order][::-1])[::-1], [0]])
    concede_from = np.sort(out[:, col["concede_from"]])
    floor = minimum_bid(rules)
    return {"samples": int(out.shape[0]),
            "made": (out.shape[0] - first).astype(np.int64),
            "made_sum": suffix[first].astype(np.int64),
            "conceded": np.searchsorted(concede_from, grid, side="right").astype(np.int64),
            "made_at_minimum": Hist.of(total[top >= floor]),
            "meld": int(meld.sum()), "meld_sq": int((meld * meld).sum()),
            "bonus": int(out[:, col["bonus"]].sum()),
            "trump": np.bincount(trump[trump >= 0], minlength=4).astype(np.int64),
            "durch": int(durch.sum()), "durch_failed": int((durch & (total < 0)).sum()),
            "bettel": int(out[:, col["bettel"]].sum()),
            "draws": int(out[:, col["draws"]].sum())}


def widow_task(task: tuple) -> dict:
    """One task of :func:`bid_odds`: ``(rules, counts, seed, policy, first_sample,
    samples, threads, knowledge, options)`` → the :func:`widow_tally` of those samples
    (``options``: the sampling policy's ``samples_per_move`` and the ``dealer``, or nothing)."""
    from binokel_sim.backend import task_context, task_progress

    rules, counts, seed, policy, first, n, threads, knowledge, options = task
    with task_context(threads) as n_threads:
        out = run_widow_samples(rules, counts, n, seed, policy, threads=n_threads,
                                progress=task_progress(), first_sample=first,
                                knowledge=knowledge, **options)
    return widow_tally(rules, out)


def widow_section(rules: Rules, counts: np.ndarray, knowledge=None) -> dict:
    """The exact widow analysis: over every possible widow from the unseen cards (each set of
    physical cards equally likely), the best static meld of hand + widow (the highest over the
    four trumps, before any demand or burying). Under ``knowledge`` (``--known``, ``--void``)
    each widow weighs as the consistent deals that leave it
    (:func:`~binokel_sim.engines.widow.exact_widow_known`; float64 arithmetic instead of
    fractions)."""
    if knowledge is not None and not knowledge.empty:
        widows, weight = exact_widow_known(rules, counts, knowledge)
        return _section(rules, counts, widows, weight)
    widows, hist = exact_widow(rules, counts)
    return _section(rules, counts, widows, hist)


def _section(rules: Rules, counts: np.ndarray, widows: int, weight: np.ndarray) -> dict:
    """The widow section from the weight of each best meld: integer counts of equally likely
    widows (exact fractions of their sum, rounded once to a float) or float weights."""
    values = np.flatnonzero(weight)
    p = counts_to_planes(counts)
    own = compile_tables(rules)
    totals = np.empty(4, dtype=np.int64)
    from binokel_sim.kernels.melds import score_hand

    score_hand(p0=p[0], p1=p[1], p2=p[2], p3=p[3], kt=own.kt, totals=totals)
    own_best = int(totals.max())
    if weight.dtype.kind in "iu":
        total = int(weight.sum())

        def share(x) -> float:
            return float(Fraction(int(x), total))
    else:
        total = float(weight.sum())

        def share(x) -> float:
            return float(x) / total
    return {
        "widows": widows,
        "own_best_meld": own_best,
        "mean_best_meld": share((values * weight[values]).sum()),
        "p_improves": share(weight[own_best + 1:].sum()),
        "distribution": [{"meld": int(v), "probability": share(weight[v])} for v in values],
    }


def bid_odds(rules: Rules, counts: np.ndarray, samples: int, seed: int, policy: str = "heuristic",
             trump: int | None = None, threads: int | None = None,
             progress: Progress | None = None, backend=None, knowledge=None,
             auction: tuple | None = None, samples_per_move: int | None = None,
             dealer: int | None = None, bid: int | None = None) -> dict:
    """Bid odds of one hand held by the soloist before the widow. Returns ``{"hand", "rows"
    (DataFrame), "p_make_min_bid" (and "_ci"), "expected_score_min_bid", "max_bid_positive_ev",
    "trump_chosen", "mean_meld_after_widow", "p_bonus", "widow", "score_histogram"}``.
    ``score_histogram`` (:func:`binokel_sim.odds.summary.score_histogram`) is the distribution of
    the soloist's side's score at the minimum bid (series ``soloist``: the total when made,
    minus twice the bid when set, minus the bid when he gives up; its mean is
    ``expected_score_min_bid``). The samples are played in
    tasks of ``backend.BID_TASK_BLOCKS`` blocks run by ``backend`` (default: here); every
    figure comes from their integer :func:`widow_tally`. ``knowledge`` (from ``--known`` and
    ``--void``, :mod:`binokel_sim.constraints`): the other seats and the widow are dealt
    consistently with it, and the exact widow section weighs each widow by the consistent deals
    that leave it; an impossible combination is a :class:`CardError` before any work.
    ``samples_per_move``: the sampling policy's deals per card decision (its default: None).
    ``dealer``: the dealer's seat (seat 0 the hand; default the last seat, so the hand sits
    left of the dealer), read where the player left of the dealer leads the first trick.
    ``auction`` (``--auction``): the calls so far as ``(seat, bid)`` counted from the hand's
    seat 0 (:func:`binokel_sim.bidding.parse_auction`): each sample's other hands are dealt
    again until their policy would have made their calls (``deals_per_sample`` says how many
    deals that took; the exact widow section does not condition on the auction and says so).
    ``trump`` is refused (the soloist names trump after the widow). ``bid`` (``--bid``, a bid
    of the ladder): the figures at that bid too (:func:`at_bid`)."""
    from binokel_sim.backend import BID_TASK_BLOCKS, LocalBackend, task_ranges, total
    from binokel_sim.engines import widow as engine
    from binokel_sim.engines.policies import policy_id, sampling_options
    from binokel_sim.simulate import check_run, set_threads

    if trump is not None:
        raise SimulationError(f"trump: in {rules.name} the soloist names trump after the "
                              f"widow; the widow games' bid odds take no trump")
    engine.check(rules)
    check_run(samples, seed)
    policy_id(policy, rules)
    options = sampling_options(rules, samples_per_move)
    if dealer is not None:
        options = {**options, "dealer": int(dealer)}
    if auction is not None:
        options = {**options, "auction": [(int(s), int(b)) for s, b in auction]}
    set_threads(threads)
    widow = widow_section(rules, counts, knowledge)  # checks the knowledge first
    if auction is not None:
        widow["given_auction"] = False  # exact over the widows, not conditioned on the calls
    backend = backend if backend is not None else LocalBackend()
    ranges = task_ranges(samples, engine.GAME_BLOCK, BID_TASK_BLOCKS)
    tasks = [(rules, np.asarray(counts, dtype=np.int64), seed, policy, first, n,
              backend.threads_for(threads), knowledge, options) for _, first, n in ranges]
    tally = total(backend.map(widow_task, tasks, [n for *_, n in ranges], progress))
    rows = rows_from_tally(rules, tally)
    m_mean, m_low, m_high = mean_interval(float(tally["meld"]), float(tally["meld_sq"]), samples)
    bonus = tally["bonus"]
    b_low, b_high = wilson_interval(bonus, samples)
    chosen = tally["trump"] / samples
    floor = minimum_bid(rules)
    made = tally["made_at_minimum"]
    given_up = int(tally["conceded"][0])
    failed = tally["durch_failed"]
    # set: minus twice the bid; given up: minus the bid; a Durch failed: minus its score
    scores = (made + Hist.constant(-2 * floor, samples - made.n - given_up - failed)
              + Hist.constant(-floor, given_up) + Hist.constant(-rules.durch_score, failed))
    declarations = {}  # the soloist's Durch and Bettel, where the rules have them
    if rules.widow_durch:
        d_low, d_high = wilson_interval(tally["durch"], samples)
        declarations.update({"p_durch": tally["durch"] / samples,
                             "p_durch_ci": [float(d_low), float(d_high)],
                             "p_durch_made": (tally["durch"] - failed) / samples})
    if rules.widow_bettel:  # a sure Bettel after the Dabb
        m_low_b, m_high_b = wilson_interval(tally["bettel"], samples)
        declarations.update({"p_bettel": tally["bettel"] / samples,
                             "p_bettel_ci": [float(m_low_b), float(m_high_b)]})
    return {
        "hand": format_counts(counts),
        "rows": rows,
        **at_minimum_bid(rows),
        **({} if bid is None else at_bid(rows_from_tally(rules, tally, through=bid), bid)),
        "trump_chosen": {SUITS[s]: float(chosen[s]) for s in range(4)},
        "mean_meld_after_widow": m_mean,
        "mean_meld_after_widow_ci": [m_low, m_high],
        "p_bonus": bonus / samples,
        "p_bonus_ci": [float(b_low), float(b_high)],
        **declarations,
        "widow": widow,
        "score_histogram": histogram_document({"soloist": scores}, bid=floor),
        **({} if auction is None else {"deals_per_sample": tally["draws"] / samples}),
    }


# --- calibrate ----------------------------------------------------------------------------------

AUCTION_DRAWS = 20_000  # --given-auction: deals tried per sample before a deal is left out

def calibration_events(rules: Rules, deals: int, samples: int, seed: int, policy: str,
                       outcome_policy: str, threads: int | None, progress: Progress | None,
                       given_auction: bool, options: dict) -> list[dict]:
    """``calibrate``'s events (:func:`binokel_sim.calibrate.calibration_events`): per deal
    played with ``outcome_policy``, the soloist's forecast ``p_make`` at his bid before the
    widow, from samples with the deal's dealer where he sat (which decides who leads where the
    player left of the dealer does), and whether he made it (a deal he gave up is not made).
    With ``given_auction`` the samples repeat the deal's auction (every call, seats seen from
    the soloist; ``p_make`` None where some sample found no fitting deal within
    :data:`AUCTION_DRAWS` tries, ``draws`` the mean deals a sample took). A deal voided because
    nobody bid (``all_pass = "redeal"``) has no contract and no forecast."""
    from binokel_sim.engines.widow import (
        run_play as run_widow_play,
    )
    from binokel_sim.engines.widow import (
        run_samples as run_widow_samples,
    )
    from binokel_sim.errors import AuctionTooRare
    from binokel_sim.kernels.widow.deals import (
        I_BID,
        I_CALLS,
        I_MADE,
        I_REDEALT,
        I_SOLOIST,
        I_TRUMP,
    )

    plain = ("heuristic", "sampling")  # the sampling policy bids as the heuristic
    if given_auction and policy != outcome_policy and not {policy, outcome_policy} <= set(plain):
        raise SimulationError(f"--given-auction: the samples repeat the calls with the "
                              f"{policy} policy's bidding, but the deals are bid by "
                              f"{outcome_policy}, which bids otherwise; use one policy for both")
    played = run_widow_play(rules, deals, seed, outcome_policy, threads, **options)
    col = {name: i for i, name in enumerate(SAMPLE_FIELDS)}
    events = []
    for d in range(deals):
        info = played.info[d]
        soloist, bid = int(info[I_SOLOIST]), int(info[I_BID])
        counts = planes_to_counts(played.hands[d, soloist])
        dealer = (d % rules.players - soloist) % rules.players  # seen from the soloist
        auction = None
        if given_auction:
            n_calls = int(info[I_CALLS])
            auction = [((int(s) - soloist) % rules.players, int(b)) for s, b in
                       zip(played.bid_seats[d, :n_calls], played.bid_values[d, :n_calls])]
        p_make, draws = None, None  # no forecast: counted in no_forecast, left out
        if not info[I_REDEALT]:  # a voided deal has no contract
            try:
                s = run_widow_samples(rules, counts, samples, sample_seed(seed, d), policy,
                                      threads=threads, dealer=dealer, auction=auction,
                                      max_draws=AUCTION_DRAWS, **options)
            except AuctionTooRare:
                pass
            else:
                p_make = made_share(s, bid)
                draws = float(s[:, col["draws"]].mean())
        trump = int(info[I_TRUMP])
        events.append({"deal": d, "bidder": soloist, "hand": " ".join(format_counts(counts)),
                       "bid": bid, "trump": SUITS[trump] if trump >= 0 else None,
                       "p_make": p_make, "made": bool(info[I_MADE]), "draws": draws})
        if progress is not None:
            progress(d + 1, deals)
    return events


# --- batch ----------------------------------------------------------------------------------------

BATCH_COLUMNS = AUCTION_COLUMNS  # what batch writes for a hand, after the row's own columns


def batch_figures(rules: Rules, counts: np.ndarray, row: HandRow, seat: str, deals: int,
                  seed: int, policy: str, threads: int | None) -> dict:
    """A batch row's :data:`BATCH_COLUMNS`: :func:`bid_odds` in brief, with the trump the soloist
    names most often after the widow as the recommended one (``seat`` is the talon games')."""
    no_turned_card(rules, row)
    result = bid_odds(rules, counts, deals, seed, policy, threads=threads)
    chosen = result["trump_chosen"]
    return auction_figures(result, max(SUITS, key=lambda s: chosen[s]))


def batch_error_figures(row: HandRow, seat: str) -> dict:
    """What a bad row keeps of its own (nothing beyond the hand)."""
    return {}
