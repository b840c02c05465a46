"""Only ``@njit`` code lives here: random streams, dealing, meld counting and batch drivers.

Kernels never validate and never allocate their results: the public functions in
:mod:`binokel_sim.simulate` and :mod:`binokel_sim.analysis` check inputs, build the rule tables
(:mod:`binokel_sim.tables`) and hand over ``out`` arrays.
"""
