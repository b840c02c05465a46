"""Throughput measurements shared by ``binokel-sim bench`` and the scripts in ``benchmarks/``.

Each function warms up (compiling or loading numba's cache) before it times, and reports the best
of five runs in items per second: wall time on a shared machine is noisy, and the best run is the
one least disturbed.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numba
import numpy as np

from binokel_sim import reference
from binokel_sim.kernels.deal import deal_blocks
from binokel_sim.kernels.meld_odds import meld_odds_blocks
from binokel_sim.simulate import BLOCK_SIZE, MAX_COUNT, set_threads
from binokel_sim.tables import compile_tables
from binokel_sim.variants import Rules


def best_seconds(work: Callable[[], object], repeats: int = 5) -> float:
    work()  # warm-up
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def deal_rate(rules: Rules, deals: int, threads: int, hands: int = 1) -> float:
    """Deals per second of ``hands`` hands each."""
    set_threads(threads)
    tables = compile_tables(rules)
    sizes = np.full(hands, rules.hand_size, dtype=np.int64)
    out = np.empty((deals, hands, 4), dtype=np.uint32)
    return deals / best_seconds(lambda: deal_blocks(tables.deck, sizes, 1, 0, BLOCK_SIZE, out))


def meld_rate(rules: Rules, deals: int, threads: int) -> float:
    """Hands per second dealt and scored for every meld and all four trumps (the meld-odds kernel)."""
    set_threads(threads)
    tables = compile_tables(rules)
    n_blocks = (deals + BLOCK_SIZE - 1) // BLOCK_SIZE

    def work():
        ch = np.zeros((n_blocks, tables.n_melds, MAX_COUNT + 1), dtype=np.int64)
        th = np.zeros((n_blocks, tables.max_total + 1), dtype=np.int64)
        meld_odds_blocks(tables.deck, rules.hand_size, tables.kt, tables.trump_need, 0, 1, 0,
                         BLOCK_SIZE, deals, ch, th)

    return deals / best_seconds(work)


def reference_meld_rate(rules: Rules, deals: int) -> float:
    """The same work in the pure-Python reference, one thread."""
    start = time.perf_counter()
    reference.meld_odds_counts(rules, deals, 1, 0, BLOCK_SIZE)
    return deals / (time.perf_counter() - start)


def all_threads() -> int:
    return numba.config.NUMBA_NUM_THREADS


def playout_rate(rules: Rules, policy: str, deals: int, threads: int) -> float:
    """Whole deals per second: deal four hands, pick seat 0's best trump, play all tricks with
    ``policy`` on every seat (``kernels.tricks.playout_blocks``)."""
    from binokel_sim.games import GAME_BLOCK, policy_id
    from binokel_sim.kernels.tricks import playout_blocks

    set_threads(threads)
    tables = compile_tables(rules)
    seats = np.full(4, policy_id(policy), dtype=np.int64)
    play = np.empty((deals, 2), dtype=np.int64)
    trumps = np.empty(deals, dtype=np.int64)
    return deals / best_seconds(lambda: playout_blocks(
        tables.deck, tables.card_points, rules.last_trick, tables.kt, tables.trump_need, seats, 1,
        0, GAME_BLOCK, play, trumps))


def reference_playout_rate(rules: Rules, deals: int) -> float:
    """The same work as :func:`playout_rate` with the random policy, in pure Python."""
    from binokel_sim import reference_play

    start = time.perf_counter()
    reference_play.playout_deals(rules, deals, 1, 1024)
    return deals / (time.perf_counter() - start)


def talon_rate(rules: Rules, policy: str, deals: int, threads: int) -> float:
    """Whole talon deals per second: deal, every trick, declarations and draws, with ``policy``
    on every seat (``kernels.talon.talon_playout_blocks``)."""
    from binokel_sim.games import GAME_BLOCK, policy_id
    from binokel_sim.kernels.talon import talon_playout_blocks
    from binokel_sim.tables import compile_talon

    set_threads(threads)
    tt = compile_talon(rules)
    deck = compile_tables(rules).deck
    seats = np.full(rules.players, policy_id(policy), dtype=np.int64)
    points = np.empty((deals, rules.players, 2), dtype=np.int64)
    return deals / best_seconds(lambda: talon_playout_blocks(deck, tt, seats, 1, 0, GAME_BLOCK,
                                                             0, points))


def reference_talon_rate(rules: Rules, deals: int) -> float:
    """Whole talon deals per second of the pure-Python twin (random policy, records built)."""
    from binokel_sim import reference_talon

    start = time.perf_counter()
    reference_talon.play_deals(rules, deals, 1, 1024)
    return deals / (time.perf_counter() - start)


def widow_rate(rules: Rules, policy: str, deals: int, threads: int) -> float:
    """Whole widow deals per second: deal, auction, widow, demand, burying, trump, melds, every
    trick and the score, with ``policy`` on every seat (``kernels.widow.widow_playout_blocks``)."""
    from binokel_sim.games import GAME_BLOCK, policy_id
    from binokel_sim.kernels.widow import widow_playout_blocks
    from binokel_sim.widow_games import compile_widow, most_calls

    set_threads(threads)
    tables = compile_tables(rules)
    tw = compile_widow(rules)
    seats = np.full(rules.players, policy_id(policy), dtype=np.int64)
    scores = np.empty((deals, rules.players), dtype=np.int64)
    calls = most_calls(rules)
    return deals / best_seconds(lambda: widow_playout_blocks(
        tables.deck, tw, tables.kt, seats, calls, 1, 0, GAME_BLOCK, 0, scores))


def reference_widow_rate(rules: Rules, deals: int) -> float:
    """Whole widow deals per second of the pure-Python twin (random policy, records built)."""
    from binokel_sim import reference_widow

    start = time.perf_counter()
    reference_widow.play_deals(rules, deals, 1, 1024)
    return deals / (time.perf_counter() - start)
