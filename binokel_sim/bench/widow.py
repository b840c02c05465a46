"""``bench`` in the widow games: their whole deals, the twin's, the sampling policy's decisions
and the exact widow. The names of :data:`binokel_sim.bench.FAMILY_API`."""

from __future__ import annotations

import time

from binokel_sim.bench.timing import best_seconds, example_hand, timed
from binokel_sim.constants import SAMPLES_PER_MOVE
from binokel_sim.reference import core as core_twin
from binokel_sim.reference import play as play_twin
from binokel_sim.reference import widow as widow_twin
from binokel_sim.simulate import set_threads
from binokel_sim.variants import Rules

TWIN = widow_twin  # the twin that makes the family's records (random policy)


def playout_rate(rules: Rules, policy: str, deals: int, threads: int) -> float:
    """Whole widow deals per second: deal, auction, widow, demand, burying, trump, melds, every
    trick and the score, with ``policy`` on every seat (``engines.widow.run_playouts``)."""
    from binokel_sim.engines.widow import run_playouts

    set_threads(threads)
    return deals / best_seconds(lambda: run_playouts(rules, policy, deals, 1, 0,
                                                     SAMPLES_PER_MOVE))


def reference_playout_rate(rules: Rules, deals: int, policy: str = "random") -> float:
    """Whole widow deals per second of the pure-Python twin (records built), ``policy`` on
    every seat."""
    start = time.perf_counter()
    widow_twin.play_deals(rules, deals, 1, 1024, policies=[policy] * rules.players)
    return deals / (time.perf_counter() - start)


def decisions(played) -> int:
    """How many cards of ``played`` (:class:`~binokel_sim.engines.widow.WidowDeals`) were played
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


def exact_widow_rate(rules: Rules, hands: int) -> float:
    """Hands per second whose every widow is weighed exactly (``engines.widow.exact_widow``; the
    example hand, ``hands`` times)."""
    from binokel_sim.engines.widow import exact_widow

    counts = example_hand(rules)

    def work():
        for _ in range(hands):
            exact_widow(rules, counts)

    return hands / best_seconds(work)


def reference_exact_widow_rate(rules: Rules, hands: int) -> float:
    """The same in plain Python: every subset of the unseen physical cards, hand + widow scored
    for each trump by the rules read straight (``reference.core.meld_total``)."""
    from itertools import combinations

    counts = [int(c) for c in example_hand(rules)]
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
