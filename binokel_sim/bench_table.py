"""``binokel-sim bench --all``: every engine's throughput in one table, on 1 and on all threads,
beside its pure-Python twin's rate on one thread and the ratio between them.

A row is a :class:`Measure`: what is timed (a kernel or a library driver, numba cache warm, no
process start-up), its unit, the work of one timed run and, where the engine has one, the twin
doing the same work (a family's own measurement, such as the widow games' exact widow, asked of
the row's family: :func:`binokel_sim.bench.family_bench`). Each figure is the best of five runs
after a warm-up (:func:`binokel_sim.bench.best_seconds`): wall time on a shared machine is noisy
and the best run is the least disturbed. ``scale`` shrinks every run (a quick look, or the
tests); the published table (``results/benchmarks.json``, section ``all``; the README's "Speed"
section) is made at scale 1 by ``scripts/run_benchmarks.sh``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from binokel_sim import bench
from binokel_sim.constants import SAMPLES_PER_MOVE
from binokel_sim.variants import Rules, find_variant

V80 = "four-hand-80"
TALON = ("two-hand-48", "three-hand-72", "four-hand-72")
WIDOW = ("three-hand-auction-48", "four-hand-widow-48", "swabian-3-40", "swabian-3-40-tournament",
         "kreuz-4-40")
SIXTY_SIX = ("sixty-six",)
ALL = (V80, *TALON, *WIDOW, *SIXTY_SIX)


@dataclass(frozen=True)
class Measure:
    """One row: ``engine`` (a short label, as the table shows it), the variant, ``work`` (what
    one item is) and its ``unit``; ``run(rules, n, threads)`` returns items per second for ``n``
    items on ``threads`` threads; ``twin(rules, n)`` the twin's items per second on one thread
    (None: no twin does this work); ``threaded`` False: the engine runs on one thread."""

    engine: str
    variant: str
    work: str
    unit: str
    n: int
    run: Callable[[Rules, int, int], float]
    twin_n: int = 0
    twin: Callable[[Rules, int], float] | None = None
    threaded: bool = True


def _playout_row(variant: str, policy: str) -> Measure:
    family = bench.family_bench(find_variant(variant))
    run, twin = family.playout_rate, family.reference_playout_rate
    # the twins play either policy; the heuristic's are slower (every meld scored afresh)
    return Measure(f"play-out {policy}", variant, f"whole deals, {policy} on every seat", "deals/s",
                   400_000 if policy == "random" else 200_000,
                   lambda r, n, t: run(r, policy, n, t),
                   400 if policy == "random" else 100, lambda r, n: twin(r, n, policy))


def measures() -> list[Measure]:
    """The rows of the table, in the order they are shown."""
    rows = [Measure("deal", V80, "one hand of 20 cards", "hands/s", 4_000_000,
                    lambda r, n, t: bench.deal_rate(r, n, t), 20_000, bench.reference_deal_rate)]
    rows += [Measure("deal + meld", v, "one hand, every meld, all trumps", "hands/s", 4_000_000,
                     lambda r, n, t: bench.meld_rate(r, n, t), 10_000, bench.reference_meld_rate)
             for v in ALL]
    rows += [_playout_row(v, p) for v in ALL for p in ("random", "heuristic")]
    rows += [
        Measure("bid-odds random", V80, "example hand, every marriage trump", "samples/s",
                400_000, lambda r, n, t: bench.bid_odds_rate(r, "random", n, t), 400,
                lambda r, n: bench.family_bench(r).reference_bid_odds_rate(r, n)),
        Measure("bid-odds heuristic", V80, "example hand, every marriage trump", "samples/s",
                400_000, lambda r, n, t: bench.bid_odds_rate(r, "heuristic", n, t), 100,
                lambda r, n: bench.family_bench(r).reference_bid_odds_rate(r, n, "heuristic")),
        Measure("bid-odds heuristic", WIDOW[0], "example hand", "samples/s", 200_000,
                lambda r, n, t: bench.bid_odds_rate(r, "heuristic", n, t)),
        Measure("deal-odds heuristic", TALON[0], "example hand and turned card", "samples/s",
                200_000,
                lambda r, n, t: bench.deal_odds_rate(r, "heuristic", n, t)),
    ]
    rows += [Measure("sampling decision", V80, f"one card decision, {SAMPLES_PER_MOVE} samples",
                     "decisions/s", 4, lambda r, n, t: bench.sampling_decision_rate(
                         r, SAMPLES_PER_MOVE, n, t), threaded=False),
             Measure("sampling decision", V80, "one card decision, 200 samples", "decisions/s",
                     2, lambda r, n, t: bench.sampling_decision_rate(r, 200, n, t),
                     threaded=False),
             Measure("sampling decision", TALON[0], "one phase-1 card decision, 200 samples",
                     "decisions/s", 8, lambda r, n, t: bench.sampling_decision_rate(r, 200, n, t),
                     threaded=False),
             Measure("sampling decision", TALON[1], "one card decision (phase 1 or 2), 200 "
                     "samples", "decisions/s", 2,
                     lambda r, n, t: bench.sampling_decision_rate(r, 200, n, t),
                     threaded=False),
             Measure("sampling decision", WIDOW[0], "one card decision, 200 samples",
                     "decisions/s", 2, lambda r, n, t: bench.sampling_decision_rate(r, 200, n, t),
                     threaded=False)]
    rows += [Measure("records random", v, "play records as JSON lines", "deals/s", 200_000,
                     lambda r, n, t: bench.records_rate(r, "random", n, t), 400,
                     bench.reference_records_rate)
             for v in (V80, TALON[0], WIDOW[0])]
    rows += [
        Measure("exact meld table", V80, "every meld's distribution, trump S", "tables/s", 2,
                lambda r, n, t: bench.exact_table_rate(r, n), threaded=False),
        Measure("exact widow", WIDOW[0], "every widow of the example hand", "hands/s", 200,
                lambda r, n, t: bench.family_bench(r).exact_widow_rate(r, n), 1,
                lambda r, n: bench.family_bench(r).reference_exact_widow_rate(r, n),
                threaded=False),
        Measure("exact widow", WIDOW[1], "every widow of the example hand", "hands/s", 20,
                lambda r, n, t: bench.family_bench(r).exact_widow_rate(r, n), threaded=False),
    ]
    return rows


def run_table(threads: int, scale: float = 1.0, progress: Callable[[int, int], None] | None = None
              ) -> list[dict]:
    """Measure every row: ``per_s_1_thread``, ``per_s_all_threads`` (on ``threads`` threads; None
    when the engine is single-threaded), ``twin_per_s`` and ``ratio`` (the engine's best rate over
    the twin's; None without a twin). ``progress(done, total)`` is called after each row."""
    rows = measures()
    out = []
    for i, m in enumerate(rows):
        rules = find_variant(m.variant)
        n = max(1, round(m.n * scale))
        one = m.run(rules, n, 1)
        many = m.run(rules, n, threads) if m.threaded and threads > 1 else None
        twin = m.twin(rules, max(1, round(m.twin_n * scale))) if m.twin is not None else None
        best = max(one, many or 0.0)
        out.append({"engine": m.engine, "variant": m.variant, "work": m.work, "unit": m.unit,
                    "items": n, "threads": threads, "per_s_1_thread": one,
                    "per_s_all_threads": many, "twin_per_s": twin,
                    "ratio": best / twin if twin else None})
        if progress is not None:
            progress(i + 1, len(rows))
    bench.set_all_threads()
    return out


def legend() -> list[str]:
    """Each engine label once, with what it measures: the lines under the table."""
    seen: dict[str, str] = {}
    for m in measures():
        seen.setdefault(m.engine, f"{m.engine}: {m.work} ({m.unit})")
    return list(seen.values())
