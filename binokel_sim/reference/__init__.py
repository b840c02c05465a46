"""Slow, obvious pure-Python twins of the kernels: the tests compare them with the kernels deal
for deal, and the benchmarks time them as the baseline.

- :mod:`~binokel_sim.reference.core`: the random stream (splitmix64, xoshiro256++, the bounded
  draws), the deals (partial Fisher-Yates per block), meld totals read straight from the rules
- :mod:`~binokel_sim.reference.play`: four-hand-80: legality, the trick winner, play-outs, the
  heuristic's card, the auction, whole deals, bid samples
- :mod:`~binokel_sim.reference.sampler`: the constrained sampler (exact counts, the same stream)
  and a brute-force enumeration of the assignments
- :mod:`~binokel_sim.reference.sampling`: four-hand-80's sampling policy and its play loop
- :mod:`~binokel_sim.reference.solver`: the endgame solver (plain minimax)
- :mod:`~binokel_sim.reference.partner`: the partner-meld histogram
- :mod:`~binokel_sim.reference.talon`: the talon games, random policy
- :mod:`~binokel_sim.reference.talon_play`: the talon games' heuristic and sampling policy
- :mod:`~binokel_sim.reference.widow`: the widow games (random policy, heuristic, sampling seats)
- :mod:`~binokel_sim.reference.widow_policy`: the widow games' heuristic decisions
- :mod:`~binokel_sim.reference.widow_sampling`: the widow games' sampling policy
- :mod:`~binokel_sim.reference.widow_score`: the widow games' sides and scoring, shared by the
  two above

The rule: a twin imports only the standard library, the notation and rules layer
(``binokel_sim.cards``, ``hands``, ``variants``, ``errors``, ``constants``, ``meld_rules``) and
other twins, at the top of the module and one way only (no cycle); never a kernel, numba or a
production module. Only the tests and the benchmark modules (``binokel_sim/bench.py``,
``benchmarks/``) import a twin. This package imports nothing: import the twin you need.
"""
