"""Make the published reference tables of results/tables/ (see results/README.md).

Each table is written as CSV and Parquet with its provenance (variant, version, seed, size) in
constant columns and, for Parquet, in the file's metadata. The tables and their builders are in
binokel_sim/published.py; scripts/make_tables.sh runs this with the published sizes.

    python scripts/make_tables.py --tables exact partner --partner-deals 1000000

Seeds: each Monte Carlo table has its own seed, ``--seed`` plus a fixed offset (partner-meld +0,
pair-make +1, widow-gain +2, duels +3, matches +4), so no two tables share random streams.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLES = ("exact", "partner", "pair-make", "widow", "duel-match")
SEED_OFFSET = {"partner": 0, "pair-make": 1, "widow": 2, "duel": 3, "match": 4}


def say(text: str) -> None:
    print(text, flush=True)


def progress_printer(what: str, every: float = 10.0):
    """A ``progress(done, total)`` callback printing at most every ``every`` seconds."""
    start = last = time.perf_counter()

    def progress(done: int, total: int) -> None:
        nonlocal last
        now = time.perf_counter()
        if now - last >= every or done == total:
            last = now
            rate = done / max(now - start, 1e-9)
            say(f"  {what}: {done:,} / {total:,} ({100 * done / total:.0f}%, {rate:,.0f}/s)")

    return progress


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", nargs="+", choices=(*TABLES, "all"), default=["all"],
                        help="which tables to make (default: all)")
    parser.add_argument("--out-dir", type=Path, default=ROOT / "results" / "tables")
    parser.add_argument("--seed", type=int, default=1, help="base seed (default 1)")
    parser.add_argument("--partner-deals", type=int, default=10_000_000)
    parser.add_argument("--pair-deals", type=int, default=1_000_000)
    parser.add_argument("--widow-hands", type=int, default=100_000)
    parser.add_argument("--duel-deals", type=int, default=200_000)
    parser.add_argument("--match-games", type=int, default=10_000)
    parser.add_argument("--workers", type=int, default=1,
                        help="processes for the widow table (default 1)")
    parser.add_argument("--threads", type=int, default=None,
                        help="numba threads (default: all cores)")
    args = parser.parse_args(argv)
    tables = TABLES if "all" in args.tables else tuple(t for t in TABLES if t in args.tables)
    args.out_dir.mkdir(parents=True, exist_ok=True)

    from binokel_sim import __version__, published
    from binokel_sim.variants import all_variants, find_variant

    say(f"binokel-sim {__version__}: tables {', '.join(tables)} into {args.out_dir}")
    timings: dict[str, float] = {}

    def wrote(paths) -> None:
        for p in paths:
            say(f"  wrote {p}")

    if "exact" in tables:
        start = time.perf_counter()
        for rules in all_variants():
            df = published.exact_melds_table(rules)
            wrote(published.write_both(df, args.out_dir, f"exact-melds-{rules.name}",
                                       published.exact_melds_provenance(rules)))
        timings["exact"] = time.perf_counter() - start

    if "partner" in tables:
        rules = find_variant("four-hand-80")
        seed = args.seed + SEED_OFFSET["partner"]
        say(f"partner-meld: {args.partner_deals:,} deals of {rules.name}, seed {seed}")
        start = time.perf_counter()
        result = published.run_partner_meld(rules, args.partner_deals, seed,
                                            threads=args.threads,
                                            progress=progress_printer("deals"))
        df = published.partner_meld_table(result)
        wrote(published.write_both(df, args.out_dir, f"partner-meld-{rules.name}",
                                   published.partner_meld_provenance(rules, result)))
        timings["partner"] = time.perf_counter() - start

    if "pair-make" in tables:
        rules = find_variant("four-hand-80")
        seed = args.seed + SEED_OFFSET["pair-make"]
        say(f"pair-make: {args.pair_deals:,} deals of {rules.name}, heuristic, seed {seed}")
        start = time.perf_counter()
        result = published.run_pair_make(rules, args.pair_deals, seed, "heuristic",
                                         threads=args.threads,
                                         progress=progress_printer("deals"))
        df = published.pair_make_table(result)
        wrote(published.write_both(df, args.out_dir, f"pair-make-{rules.name}",
                                   published.pair_make_provenance(rules, result)))
        timings["pair-make"] = time.perf_counter() - start

    if "widow" in tables:
        rules = find_variant("three-hand-auction-48")
        seed = args.seed + SEED_OFFSET["widow"]
        say(f"widow-gain: {args.widow_hands:,} hands of {rules.name}, seed {seed}, "
            f"{args.workers} process(es)")
        start = time.perf_counter()
        result = published.run_widow_gain(rules, args.widow_hands, seed, workers=args.workers,
                                          progress=progress_printer("hands"))
        df = published.widow_gain_table(result)
        wrote(published.write_both(df, args.out_dir, f"widow-gain-{rules.name}",
                                   published.widow_gain_provenance(rules, result)))
        timings["widow"] = time.perf_counter() - start

    if "duel-match" in tables:
        duel_seed = args.seed + SEED_OFFSET["duel"]
        match_seed = args.seed + SEED_OFFSET["match"]
        say(f"heuristic-vs-random: {args.duel_deals:,} deals (seed {duel_seed}) and "
            f"{args.match_games:,} games (seed {match_seed}) per variant")
        start = time.perf_counter()
        rows = []
        for rules in all_variants():
            t0 = time.perf_counter()
            row = published.duel_match_row(rules, args.duel_deals, args.match_games, duel_seed,
                                           match_seed, threads=args.threads)
            rows.append(row)
            say(f"  {rules.name}: heuristic - random {row['mean_diff']:+.1f} per deal, "
                f"P(heuristic wins) {row['p_win_a']:.4f} ({time.perf_counter() - t0:.0f} s)")
        df = published.duel_match_table(rows)
        wrote(published.write_both(df, args.out_dir, "heuristic-vs-random",
                                   published.duel_match_provenance(duel_seed, match_seed)))
        timings["duel-match"] = time.perf_counter() - start

    say("run times: " + ", ".join(f"{name} {seconds:.0f} s" for name, seconds in timings.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
