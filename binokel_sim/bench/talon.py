"""``bench`` in the talon games: their whole deals, the twins', and the sampling policy's
decisions. The names of :data:`binokel_sim.bench.FAMILY_API`."""

from __future__ import annotations

import time
from collections import Counter

import numpy as np

from binokel_sim.bench.timing import best_seconds
from binokel_sim.reference import play as play_twin
from binokel_sim.reference import talon as talon_twin
from binokel_sim.reference import talon_play as talon_play_twin
from binokel_sim.simulate import set_threads
from binokel_sim.tables import compile_tables
from binokel_sim.variants import Rules

TWIN = talon_twin  # the twin that makes the family's records (random policy)


def playout_rate(rules: Rules, policy: str, deals: int, threads: int) -> float:
    """Whole talon deals per second: deal, every trick, declarations and draws, with ``policy``
    on every seat (``engines.talon.talon_playout_blocks``)."""
    from binokel_sim.engines.policies import policy_id
    from binokel_sim.engines.talon import family_tables, talon_playout_blocks
    from binokel_sim.game_blocks import GAME_BLOCK

    set_threads(threads)
    tt = family_tables(rules)
    deck = compile_tables(rules).deck
    seats = np.full(rules.players, policy_id(policy, rules), dtype=np.int64)
    points = np.empty((deals, rules.players, 2), dtype=np.int64)
    return deals / best_seconds(lambda: talon_playout_blocks(deck, tt, seats, 1, 1, 0,
                                                             GAME_BLOCK, 0, points))


def reference_playout_rate(rules: Rules, deals: int, policy: str = "random") -> float:
    """Whole talon deals per second of the pure-Python twin (records built): the random
    policy's (``reference.talon``) or the heuristic's (``reference.talon_play``)."""
    start = time.perf_counter()
    if policy == "random":
        talon_twin.play_deals(rules, deals, 1, 1024)
    else:
        talon_play_twin.play_deals(rules, [policy] * rules.players, deals, 1, 1024)
    return deals / (time.perf_counter() - start)


def decisions(played) -> int:
    """How many cards of ``played`` (:class:`~binokel_sim.engines.talon.TalonDeals`) the sampling
    policy chose by sampling: in phase 1 (free play) those played from a hand of two or more
    card types, and with three or four players also those of phase 2 played with two or more
    legal types under the must-head obligation (two players: phase 2 is the solver's); its
    hands followed through the records' swaps and draws."""
    from binokel_sim.cards import parse_card
    from binokel_sim.records.talon import records as talon_records

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
