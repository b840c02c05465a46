"""The two-hand endgame solver's time per position (issue 28: median and p99 over 1,000 random
12-trick positions, target median at most 1 ms).

Run: python benchmarks/bench_solver.py [--positions N] [--seed S]   (writes the "solver" section
of results/benchmarks.json)

A position is what two-hand-48's phase 2 starts from: two hands of 12 cards dealt from a
shuffled 48-card deck (``numpy.random.default_rng(seed)``), a trump drawn uniformly, seat 0 to
lead. Each is searched four ways, one thread, after a warm-up: ``solve`` (the value with best
play of both), ``solve_leads`` (the exact value of every lead), ``best_lead`` (the value and the
lowest best lead: what the ``heuristic+solver`` policy asks to lead) and ``reply`` (the policy's
whole card, ``solver_card``, for seat 1 answering a lead of seat 0 drawn from
``default_rng(seed + 1)``: one exact search for its first legal reply, then one bound search per
further reply, exact only when it is better; only the positions where seat 1 has two or more
legal card types, a forced reply needing no search), each with a fresh, zeroed transposition
table (the zeroing is not timed). Times are wall clock per call (``time.perf_counter_ns``);
``reply`` has no node count (its searches each restart the count).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from binokel_sim.cards import N_TYPES, counts_to_planes, planes_to_counts
from binokel_sim.kernels.strict import solver as kernel
from binokel_sim.kernels.strict.solver_policy import solver_card, solver_scratch
from binokel_sim.reference.play import legal_cards
from binokel_sim.solver import card_points_of
from binokel_sim.variants import find_variant

sys.path.insert(0, str(Path(__file__).parent))
from results_file import record  # noqa: E402

HAND = 12


def positions(rules, n: int, seed: int) -> list[tuple[np.ndarray, int]]:
    """``n`` random positions: (hands uint32 (2, 4) as planes, trump)."""
    rng = np.random.default_rng(seed)
    deck = np.repeat(np.arange(N_TYPES), rules.deck_counts())
    out = []
    for _ in range(n):
        cards = rng.permutation(deck)
        counts = [np.bincount(cards[s * HAND:(s + 1) * HAND], minlength=N_TYPES)
                  for s in range(2)]
        hands = np.stack([counts_to_planes(c) for c in counts]).astype(np.uint32)
        out.append((hands, int(rng.integers(0, 4))))
    return out


def replies(rules, work, seed: int) -> list[tuple]:
    """For each position, seat 1's decision after a random lead of seat 0: the arguments of
    ``solver_card`` before the card points (the leader's planes without the card led)."""
    rng = np.random.default_rng(seed + 1)
    out = []
    for hands, trump in work:
        counts = [planes_to_counts(hands[s]) for s in range(2)]
        held = [t for t in range(N_TYPES) if counts[0][t]]
        led = held[int(rng.integers(0, len(held)))]
        legal = 0
        for t in legal_cards(list(counts[1]), [led], trump):
            legal |= 1 << t
        counts[0][led] -= 1
        a = counts_to_planes(counts[0])
        out.append(tuple(np.int64(q) for q in a) + tuple(np.int64(q) for q in hands[1])
                   + (np.int64(1), np.int64(legal), np.int64(led), np.int64(trump)))
    return out


def summary(ns: list[int], nodes: list[int]) -> dict:
    ms = np.array(ns, dtype=np.float64) / 1e6
    return {"median_ms": float(np.median(ms)), "p90_ms": float(np.percentile(ms, 90)),
            "p99_ms": float(np.percentile(ms, 99)), "max_ms": float(ms.max()),
            "mean_ms": float(ms.mean())} | ({"mean_nodes": float(np.mean(nodes))} if nodes
                                            else {})


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rules = find_variant("two-hand-48")
    card_points = card_points_of(rules)
    ctx = np.zeros(kernel.CTX_SIZE, dtype=np.int64)
    table = np.zeros((1 << kernel.TT_BITS, 2), dtype=np.int64)
    values = np.empty(N_TYPES, dtype=np.int64)
    work = positions(rules, args.positions, args.seed)
    answers = replies(rules, work, args.seed)
    scratch = solver_scratch(True)
    last = np.int64(rules.last_trick)

    def held(hands):
        return np.int64(int(hands[0, 0]))  # plane 0: every card type seat 0 holds

    calls = {
        "solve": lambda i, h, t: kernel.solve(h, t, 0, card_points, last, ctx, table),
        "solve_leads": lambda i, h, t: kernel.solve_leads(h, t, 0, card_points, last, ctx,
                                                          table, values),
        "best_lead": lambda i, h, t: kernel.best_lead(h, t, 0, card_points, last, ctx, table,
                                                      held(h)),
        "reply": lambda i, h, t: solver_card(*answers[i], card_points, last, scratch)}
    for call in calls.values():  # warm-up: load (or compile) the kernels
        call(0, *work[0])
    figures = {"variant": rules.name, "positions": args.positions, "seed": args.seed,
               "tricks": HAND, "tt_entries": 1 << kernel.TT_BITS}
    for name, call in calls.items():
        ns, nodes = [], []
        for i, (hands, trump) in enumerate(work):
            if name == "reply" and bin(int(answers[i][9])).count("1") == 1:
                continue  # a forced reply: no search
            table[:] = 0
            ctx[:] = 0
            scratch[0][:] = 0
            scratch[1][:] = 0
            start = time.perf_counter_ns()
            call(i, hands, trump)
            ns.append(time.perf_counter_ns() - start)
            if name != "reply":
                nodes.append(int(ctx[kernel.CTX_NODES]))
        figures[name] = summary(ns, nodes) | ({"positions": len(ns)} if name == "reply" else {})
        s = figures[name]
        print(f"{name}: median {s['median_ms']:.3f} ms, p90 {s['p90_ms']:.3f}, p99 "
              f"{s['p99_ms']:.3f}, max {s['max_ms']:.3f}"
              + (f"; {s['mean_nodes']:,.0f} nodes on average" if nodes else ""), flush=True)
    figures["target_median_ms"] = 1.0
    record("solver", figures)


if __name__ == "__main__":
    main()
