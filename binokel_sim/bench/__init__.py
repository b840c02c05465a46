"""Throughput measurements shared by ``binokel-sim bench`` and the scripts in ``benchmarks/``.

Each function warms up (compiling or loading numba's cache) before it times, and reports the best
of five runs in items per second (:mod:`.timing`): wall time on a shared machine is noisy, and
the best run is the one least disturbed. What differs by engine family is in one module per
family (:mod:`.partnership`, :mod:`.talon`, :mod:`.widow`) with the names of :data:`FAMILY_API`:
``playout_rate`` (whole deals per second), ``reference_playout_rate`` (its twin's),
``decisions`` (the sampling policy's card decisions in played deals) and ``TWIN`` (the twin that
makes the family's records). Family ``f``'s module is ``binokel_sim.bench.f``.
"""

from __future__ import annotations

import os
import time
from types import ModuleType

import numba
import numpy as np

from binokel_sim.bench.timing import best_seconds, example_hand, timed
from binokel_sim.families import family_module
from binokel_sim.kernels.deal import deal_blocks
from binokel_sim.kernels.meld_odds import MeldHists, meld_odds_blocks, meld_odds_table
from binokel_sim.kernels.runs import Run
from binokel_sim.reference import core as core_twin
from binokel_sim.simulate import BLOCK_SIZE, MAX_COUNT, set_threads, spread_blocks
from binokel_sim.tables import compile_tables
from binokel_sim.variants import Rules

FAMILY_API = ("playout_rate", "reference_playout_rate", "decisions", "TWIN")


def family_bench(rules: Rules) -> ModuleType:
    """The measurements of the engine family that plays ``rules``."""
    return family_module(__name__, rules)


def deal_rate(rules: Rules, deals: int, threads: int, hands: int = 1) -> float:
    """Deals per second of ``hands`` hands each."""
    set_threads(threads)
    tables = compile_tables(rules)
    sizes = np.full(hands, rules.hand_size, dtype=np.int64)
    out = np.empty((deals, hands, 4), dtype=np.uint32)
    return deals / best_seconds(lambda: spread_blocks(
        deal_blocks, -(-deals // BLOCK_SIZE), deck=tables.deck, hand_sizes=sizes, seed=1,
        first_block=0, block_size=BLOCK_SIZE, out=out))


def meld_rate(rules: Rules, deals: int, threads: int) -> float:
    """Hands per second dealt and scored for every meld and all four trumps (the meld-odds kernel)."""
    set_threads(threads)
    tables = compile_tables(rules)
    table = meld_odds_table(tables.kt, tables.trump_need, 0)
    n_blocks = (deals + BLOCK_SIZE - 1) // BLOCK_SIZE

    def work():
        out = MeldHists(np.zeros((n_blocks, tables.n_melds, MAX_COUNT + 1), dtype=np.int64),
                        np.zeros((n_blocks, tables.max_total + 1), dtype=np.int64))
        spread_blocks(meld_odds_blocks, n_blocks, deck=tables.deck, hand_size=rules.hand_size,
                      mt=table, run=Run(1, 0, BLOCK_SIZE, 0, deals), out=out)

    return deals / best_seconds(work)


def reference_meld_rate(rules: Rules, deals: int) -> float:
    """The same work in the pure-Python reference, one thread."""
    start = time.perf_counter()
    core_twin.meld_odds_counts(rules, deals, 1, 0, BLOCK_SIZE)
    return deals / (time.perf_counter() - start)


def machine() -> dict:
    """What a throughput figure was measured on."""
    import platform

    return {"cpus": os.cpu_count(), "numba_threads": numba.config.NUMBA_NUM_THREADS,
            "python": platform.python_version(), "numba": numba.__version__,
            "processor": platform.processor() or platform.machine()}


def all_threads() -> int:
    return numba.config.NUMBA_NUM_THREADS














# --- the rest of `bench --all` (binokel_sim/bench_table.py) -------------------------------------



def set_all_threads() -> None:
    """Give numba all its threads back after a measurement on fewer."""
    set_threads(all_threads())


def reference_deal_rate(rules: Rules, deals: int) -> float:
    """Hands per second dealt by the pure-Python twin (the same stream and hands as ``deal_rate``)."""
    deck = core_twin.deck_cards(rules)
    return deals / timed(lambda: core_twin.deal_deals(deck, [rules.hand_size], deals, 1,
                                                      BLOCK_SIZE))




def bid_odds_rate(rules: Rules, policy: str, samples: int, threads: int) -> float:
    """Bid-odds samples per second for the variant's example hand (every trump it may name):
    :func:`binokel_sim.odds.bid_odds`, in four-hand-80 and the widow games."""
    from binokel_sim.odds import bid_odds

    counts = example_hand(rules)
    return samples / best_seconds(lambda: bid_odds(rules, counts, samples, 1, policy,
                                                   threads=threads))




def deal_odds_rate(rules: Rules, policy: str, samples: int, threads: int) -> float:
    """deal-odds samples per second for a talon game's example hand and turned card:
    :func:`binokel_sim.odds.deal_odds`."""
    from binokel_sim.odds import deal_odds, family_odds

    counts = example_hand(rules)
    turned = family_odds(rules).turned_card(rules, counts, None)
    return samples / best_seconds(lambda: deal_odds(rules, counts, turned, "dealer", samples, 1,
                                                    policy, threads=threads))


def records_rate(rules: Rules, policy: str, deals: int, threads: int) -> float:
    """Play records per second, built chunk by chunk and written as JSON lines to /dev/null
    (``records.stream``: what ``play`` does, without the process start-up)."""
    from binokel_sim.records.stream import record_frames, write_records

    def work():
        with open(os.devnull, "wb") as sink:
            write_records(record_frames(rules, deals, 1, policy, threads), sink, "jsonl", rules,
                          {})

    return deals / best_seconds(work)


def sampling_decision_rate(rules: Rules, samples_per_move: int, deals: int,
                           threads: int) -> float:
    """Card decisions per second of the sampling policy with ``samples_per_move`` samples, on
    every seat of ``deals`` whole deals (the family's ``run_play``). A decision is a card the
    policy chose by sampling, as the family's ``decisions`` counts them: one played when two or
    more card types were legal (in two-hand-48 in phase 1 only, phase 2 is the solver's)."""
    from binokel_sim.engines import engine

    def work():
        return engine(rules).run_play(rules, deals, 1, "sampling", threads,
                                      samples_per_move=samples_per_move)

    return family_bench(rules).decisions(work()) / best_seconds(work)


def reference_records_rate(rules: Rules, deals: int) -> float:
    """The family's twin making the same records (random policy), as dicts."""
    twin = family_bench(rules).TWIN
    return deals / timed(lambda: twin.play_deals(rules, deals, 1, 1024))


def exact_table_rate(rules: Rules, tables: int) -> float:
    """Exact meld tables (every meld's distribution, trump S) per second (pure Python)."""
    from binokel_sim.analysis import exact_meld_odds

    def work():
        for _ in range(tables):
            exact_meld_odds(rules, 0)

    return tables / best_seconds(work)




