"""``bench`` in the partnership game (four-hand-80): its whole deals, the twin's, its sampling
decisions and the twin of its bid samples. The names of :data:`binokel_sim.bench.FAMILY_API`."""

from __future__ import annotations

import time

import numpy as np

from binokel_sim.bench.timing import best_seconds, example_hand, timed
from binokel_sim.reference import play as play_twin
from binokel_sim.reference import sampling as sampling_twin
from binokel_sim.simulate import set_threads, spread_blocks
from binokel_sim.tables import compile_tables
from binokel_sim.variants import Rules

TWIN = play_twin  # the twin that makes the family's records (random policy)


def playout_rate(rules: Rules, policy: str, deals: int, threads: int) -> float:
    """Whole deals per second: deal four hands, pick seat 0's best trump, play all tricks with
    ``policy`` on every seat (``kernels.partnership.tricks.playout_blocks``)."""
    from binokel_sim.engines.partnership import family_tables
    from binokel_sim.engines.policies import policy_id
    from binokel_sim.game_blocks import GAME_BLOCK
    from binokel_sim.kernels.partnership.tricks import playout_blocks

    set_threads(threads)
    tables = compile_tables(rules)
    seats = np.full(4, policy_id(policy, rules), dtype=np.int64)
    play = np.empty((deals, 2), dtype=np.int64)
    trumps = np.empty(deals, dtype=np.int64)
    pairs = (-(-deals // GAME_BLOCK) + 1) // 2  # the kernel plays its blocks in pairs
    return deals / best_seconds(lambda: spread_blocks(
        playout_blocks, pairs, deck=tables.deck, card_points=tables.card_points,
        last_trick=rules.last_trick, kt=tables.kt, trump_need=tables.trump_need,
        seat_policies=seats, tune=family_tables(rules).tune, seed=1, first_block=0, block_size=GAME_BLOCK, play_out=play,
        trump_out=trumps))


def reference_playout_rate(rules: Rules, deals: int, policy: str = "random") -> float:
    """The same work as :func:`playout_rate` in pure Python (the random policy's twin, or the
    heuristic's)."""
    play = (play_twin.playout_deals if policy == "random"
            else sampling_twin.heuristic_playout_deals)
    start = time.perf_counter()
    play(rules, deals, 1, 1024)
    return deals / (time.perf_counter() - start)


def decisions(played) -> int:
    """How many cards of ``played`` (:class:`~binokel_sim.engines.partnership.PlayedDeals`) were played with
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
                legal = int(legal_mask(p0=held, led_suit=int(cards[0]) // 6, trump=trump,
                                       trick_cards=cards, n_played=i))
                n += legal.bit_count() > 1
                counts[seat][int(cards[i])] -= 1
    return n


def reference_bid_odds_rate(rules: Rules, samples: int, policy: str = "random") -> float:
    """The twin of four-hand-80's bid samples (every marriage trump), ``policy`` on every
    seat."""
    from binokel_sim.engines.partnership import marriage_trumps

    counts = example_hand(rules)
    trumps = marriage_trumps(rules, counts)
    samples_of = (play_twin.bid_samples if policy == "random"
                  else sampling_twin.heuristic_bid_samples)
    return samples / timed(lambda: samples_of(rules, [int(c) for c in counts], samples, 1,
                                              trumps, 1024))
