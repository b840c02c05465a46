"""Throughput measurements shared by ``binokel-sim bench`` and the scripts in ``benchmarks/``.

Each function warms up (compiling or loading numba's cache) before it times, and reports the best
of five runs in items per second: wall time on a shared machine is noisy, and the best run is the
one least disturbed.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable

import numba
import numpy as np

from binokel_sim.kernels.deal import deal_blocks
from binokel_sim.kernels.meld_odds import meld_odds_blocks
from binokel_sim.constants import SAMPLES_PER_MOVE
from binokel_sim.reference import core as core_twin
from binokel_sim.reference import play as play_twin
from binokel_sim.reference import sampling as sampling_twin
from binokel_sim.reference import talon as talon_twin
from binokel_sim.reference import talon_play as talon_play_twin
from binokel_sim.reference import widow as widow_twin
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


def playout_rate(rules: Rules, policy: str, deals: int, threads: int) -> float:
    """Whole deals per second: deal four hands, pick seat 0's best trump, play all tricks with
    ``policy`` on every seat (``kernels.partnership.tricks.playout_blocks``)."""
    from binokel_sim.games import GAME_BLOCK, policy_id
    from binokel_sim.kernels.partnership.tricks import playout_blocks

    set_threads(threads)
    tables = compile_tables(rules)
    seats = np.full(4, policy_id(policy, rules), dtype=np.int64)
    play = np.empty((deals, 2), dtype=np.int64)
    trumps = np.empty(deals, dtype=np.int64)
    return deals / best_seconds(lambda: playout_blocks(
        tables.deck, tables.card_points, rules.last_trick, tables.kt, tables.trump_need, seats, 1,
        0, GAME_BLOCK, play, trumps))


def reference_playout_rate(rules: Rules, deals: int, policy: str = "random") -> float:
    """The same work as :func:`playout_rate` in pure Python (the random policy's twin, or the
    heuristic's)."""
    play = (play_twin.playout_deals if policy == "random"
            else sampling_twin.heuristic_playout_deals)
    start = time.perf_counter()
    play(rules, deals, 1, 1024)
    return deals / (time.perf_counter() - start)


def talon_rate(rules: Rules, policy: str, deals: int, threads: int) -> float:
    """Whole talon deals per second: deal, every trick, declarations and draws, with ``policy``
    on every seat (``talon_games.talon_playout_blocks``)."""
    from binokel_sim.games import GAME_BLOCK, policy_id
    from binokel_sim.talon_games import talon_playout_blocks
    from binokel_sim.tables import compile_talon

    set_threads(threads)
    tt = compile_talon(rules)
    deck = compile_tables(rules).deck
    seats = np.full(rules.players, policy_id(policy, rules), dtype=np.int64)
    points = np.empty((deals, rules.players, 2), dtype=np.int64)
    return deals / best_seconds(lambda: talon_playout_blocks(deck, tt, seats, 1, 1, 0,
                                                             GAME_BLOCK, 0, points))


def reference_talon_rate(rules: Rules, deals: int, policy: str = "random") -> float:
    """Whole talon deals per second of the pure-Python twin (records built): the random
    policy's (``reference.talon``) or the heuristic's (``reference.talon_play``)."""
    start = time.perf_counter()
    if policy == "random":
        talon_twin.play_deals(rules, deals, 1, 1024)
    else:
        talon_play_twin.play_deals(rules, [policy] * rules.players, deals, 1, 1024)
    return deals / (time.perf_counter() - start)


def widow_rate(rules: Rules, policy: str, deals: int, threads: int) -> float:
    """Whole widow deals per second: deal, auction, widow, demand, burying, trump, melds, every
    trick and the score, with ``policy`` on every seat (``widow_games.widow_playout_blocks``)."""
    from binokel_sim.games import GAME_BLOCK, policy_id
    from binokel_sim.widow_games import widow_playout_blocks
    from binokel_sim.widow_games import compile_widow, most_calls

    set_threads(threads)
    tables = compile_tables(rules)
    tw = compile_widow(rules)
    seats = np.full(rules.players, policy_id(policy, rules), dtype=np.int64)
    scores = np.empty((deals, rules.players), dtype=np.int64)
    calls = most_calls(rules)
    return deals / best_seconds(lambda: widow_playout_blocks(
        tables.deck, tw, tables.kt, seats, SAMPLES_PER_MOVE, calls, 1, 0, GAME_BLOCK, 0, scores))


def reference_widow_rate(rules: Rules, deals: int, policy: str = "random") -> float:
    """Whole widow deals per second of the pure-Python twin (records built), ``policy`` on
    every seat."""
    start = time.perf_counter()
    widow_twin.play_deals(rules, deals, 1, 1024, policies=[policy] * rules.players)
    return deals / (time.perf_counter() - start)


# --- the rest of `bench --all` (binokel_sim/bench_table.py) -------------------------------------

def timed(work: Callable[[], object]) -> float:
    """Seconds of one call (the twins: slow enough that one run is the measurement)."""
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def set_all_threads() -> None:
    """Give numba all its threads back after a measurement on fewer."""
    set_threads(all_threads())


def reference_deal_rate(rules: Rules, deals: int) -> float:
    """Hands per second dealt by the pure-Python twin (the same stream and hands as ``deal_rate``)."""
    deck = core_twin.deck_cards(rules)
    return deals / timed(lambda: core_twin.deal_deals(deck, [rules.hand_size], deals, 1,
                                                      BLOCK_SIZE))


def _example(rules: Rules):
    from binokel_sim.hands import parse_hand

    return parse_hand(rules.example_hand, rules)


def bid_odds_rate(rules: Rules, policy: str, samples: int, threads: int) -> float:
    """Bid-odds samples per second for the variant's example hand (every trump it may name):
    :func:`binokel_sim.odds.bid_odds`, in four-hand-80 and the widow games."""
    from binokel_sim.odds import bid_odds

    counts = _example(rules)
    return samples / best_seconds(lambda: bid_odds(rules, counts, samples, 1, policy,
                                                   threads=threads))


def reference_bid_odds_rate(rules: Rules, samples: int, policy: str = "random") -> float:
    """The twin of four-hand-80's bid samples (every marriage trump), ``policy`` on every
    seat."""
    from binokel_sim.games import marriage_trumps

    counts = _example(rules)
    trumps = marriage_trumps(rules, counts)
    samples_of = (play_twin.bid_samples if policy == "random"
                  else sampling_twin.heuristic_bid_samples)
    return samples / timed(lambda: samples_of(rules, [int(c) for c in counts], samples, 1,
                                              trumps, 1024))


def deal_odds_rate(rules: Rules, policy: str, samples: int, threads: int) -> float:
    """deal-odds samples per second for a talon game's example hand and turned card."""
    from binokel_sim.odds.talon import deal_odds, turned_card

    counts = _example(rules)
    turned = turned_card(rules, counts, None)
    return samples / best_seconds(lambda: deal_odds(rules, counts, turned, "dealer", samples, 1,
                                                    policy, threads))


def records_rate(rules: Rules, policy: str, deals: int, threads: int) -> float:
    """Play records per second, built chunk by chunk and written as JSON lines to /dev/null
    (``record_stream``: what ``play`` does, without the process start-up)."""
    from binokel_sim.record_stream import record_frames, write_records

    def work():
        with open(os.devnull, "wb") as sink:
            write_records(record_frames(rules, deals, 1, policy, threads), sink, "jsonl", rules,
                          {})

    return deals / best_seconds(work)


def sampling_decision_rate(rules: Rules, samples_per_move: int, deals: int,
                           threads: int) -> float:
    """Card decisions per second of the sampling policy with ``samples_per_move`` samples, on
    every seat of ``deals`` whole deals (four-hand-80: :func:`~binokel_sim.games.run_play`; the
    talon games: :func:`~binokel_sim.talon_games.run_talon_play`; the widow games:
    :func:`~binokel_sim.widow_games.run_widow_play`, :func:`widow_decisions`). A decision is a card the
    policy chose by sampling: one played when two or more card types were legal (in two-hand-48
    in phase 1 only, phase 2 is the solver's; :func:`talon_decisions`)."""
    from binokel_sim.families import TALON, WIDOW, engine_family

    if engine_family(rules) == WIDOW:
        from binokel_sim.widow_games import run_widow_play

        def work():
            return run_widow_play(rules, deals, 1, "sampling", threads,
                                  samples_per_move=samples_per_move)

        return widow_decisions(work()) / best_seconds(work)
    if engine_family(rules) == TALON:
        from binokel_sim.talon_games import run_talon_play

        def work():
            return run_talon_play(rules, deals, 1, "sampling", threads,
                                  samples_per_move=samples_per_move)

        return talon_decisions(work()) / best_seconds(work)
    from binokel_sim.games import run_play

    def work():
        return run_play(rules, deals, 1, "sampling", threads, samples_per_move=samples_per_move)

    return decisions(work(), rules) / best_seconds(work)


def widow_decisions(played) -> int:
    """How many cards of ``played`` (:class:`~binokel_sim.widow_games.WidowDeals`) were played
    with two or more legal card types: every seat plays its whole hand, so a seat's hand as the
    first trick starts is the cards it plays."""
    from binokel_sim.kernels.widow.deals import I_TRUMP

    n = 0
    rules = played.rules
    for d in range(played.trick_cards.shape[0]):
        trump = int(played.info[d, I_TRUMP])
        hands = [[0] * 24 for _ in range(rules.players)]
        for k in range(rules.hand_size):
            leader = int(played.trick_leaders[d, k])
            for i in range(rules.players):
                hands[(leader + i) % rules.players][int(played.trick_cards[d, k, i])] += 1
        for k in range(rules.hand_size):
            leader = int(played.trick_leaders[d, k])
            cards = [int(c) for c in played.trick_cards[d, k]]
            for i, card in enumerate(cards):
                seat = (leader + i) % rules.players
                n += len(play_twin.legal_cards(hands[seat], cards[:i], trump)) > 1
                hands[seat][card] -= 1
    return n


def talon_decisions(played) -> int:
    """How many cards of ``played`` (:class:`~binokel_sim.talon_games.TalonDeals`) the sampling
    policy chose by sampling: in phase 1 (free play) those played from a hand of two or more
    card types, and with three or four players also those of phase 2 played with two or more
    legal types under the must-head obligation (two players: phase 2 is the solver's); its
    hands followed through the records' swaps and draws."""
    from binokel_sim.cards import parse_card
    from binokel_sim.talon_records import talon_records

    rules = played.rules
    phase1 = rules.talon // rules.players
    samples_phase2 = rules.players > 2
    n = 0
    for record in talon_records(played):
        hands = [Counter(parse_card(c) for c in hand) for hand in record["hands"]]
        turned = parse_card(record["talon"][-1])
        trump = turned // 6
        for k, trick in enumerate(record["tricks"][:phase1 + rules.hand_size]):
            cards = [parse_card(c) for c in trick["cards"]]
            for i, card in enumerate(cards):
                seat = (trick["leader"] + i) % rules.players
                if k < phase1:
                    n += len(+hands[seat]) > 1
                elif samples_phase2:
                    held = [hands[seat][t] for t in range(24)]
                    n += len(play_twin.legal_cards(held, cards[:i], trump)) > 1
                hands[seat][card] -= 1
            decl, winner = trick["declaration"], trick["winner"]
            if decl is not None and decl["swap"]:  # the declared nine for the turned card
                nine = parse_card(decl["cards"][0])
                hands[winner][nine] -= 1
                hands[winner][turned] += 1
                turned = nine
            for j, card in enumerate(trick["draws"]):
                hands[(winner + j) % rules.players][parse_card(card)] += 1
    return n


def decisions(played, rules: Rules) -> int:
    """How many cards of ``played`` (:class:`~binokel_sim.games.PlayedDeals`) were played with
    two or more legal card types."""
    from binokel_sim.cards import planes_to_counts
    from binokel_sim.kernels.partnership.tricks import legal_mask

    n = 0
    for d in range(played.info.shape[0]):
        trump = int(played.info[d, 3])
        counts = [planes_to_counts(played.hands[d, s]).copy() for s in range(4)]
        for k in range(int(played.info[d, 5])):
            leader = int(played.trick_leaders[d, k])
            cards = played.trick_cards[d, k]
            for i in range(4):
                seat = (leader + i) % 4
                held = sum(1 << t for t in range(24) if counts[seat][t])
                legal = int(legal_mask(held, int(cards[0]) // 6, trump, cards, i))
                n += legal.bit_count() > 1
                counts[seat][int(cards[i])] -= 1
    return n


def reference_records_rate(rules: Rules, deals: int) -> float:
    """The family's twin making the same records (random policy), as dicts."""
    from binokel_sim.families import TALON, WIDOW, engine_family

    twin = {TALON: talon_twin, WIDOW: widow_twin}.get(engine_family(rules), play_twin)
    return deals / timed(lambda: twin.play_deals(rules, deals, 1, 1024))


def exact_table_rate(rules: Rules, tables: int) -> float:
    """Exact meld tables (every meld's distribution, trump S) per second (pure Python)."""
    from binokel_sim.analysis import exact_meld_odds

    def work():
        for _ in range(tables):
            exact_meld_odds(rules, 0)

    return tables / best_seconds(work)


def exact_widow_rate(rules: Rules, hands: int) -> float:
    """Hands per second whose every widow is weighed exactly (``widow_games.exact_widow``; the
    example hand, ``hands`` times)."""
    from binokel_sim.widow_games import exact_widow

    counts = _example(rules)

    def work():
        for _ in range(hands):
            exact_widow(rules, counts)

    return hands / best_seconds(work)


def reference_exact_widow_rate(rules: Rules, hands: int) -> float:
    """The same in plain Python: every subset of the unseen physical cards, hand + widow scored
    for each trump by the rules read straight (``reference.core.meld_total``)."""
    from itertools import combinations

    counts = [int(c) for c in _example(rules)]
    deck = rules.deck_counts()
    unseen = [t for t in range(len(counts)) for _ in range(int(deck[t]) - counts[t])]

    def work():
        for _ in range(hands):
            hist: dict[int, int] = {}
            for widow in combinations(unseen, rules.widow):
                full = list(counts)
                for t in widow:
                    full[t] += 1
                best = max(core_twin.meld_total(rules, full, s) for s in range(4))
                hist[best] = hist.get(best, 0) + 1

    return hands / timed(work)
