"""The one place for numba options: every kernel is compiled with these.

``cache=True`` keeps compiled machine code on disk (a warm start answers in well under 2 s);
``fastmath`` stays off because the kernels are integer code and need exact semantics;
``nogil`` lets the block drivers run on several Python threads at once
(``binokel_sim.simulate.spread_blocks``: no kernel uses numba's ``prange``, which compiles
slower).

``njit(inline="always")`` (numba inlines the helper's IR into every caller) is kept to the
modules whose hot loops measurably need it (docs/performance.md, "Inlining only where it
pays"): everywhere else a helper is an ordinary call, which compiles in a fraction of the time
and which LLVM still inlines where it is small.

``njit(_nrt=False)`` (numba's runtime off: no reference counting) marks the kernels called
millions of times with arrays and allocating none: the exact searches' recursion and per-node
helpers, the sampler's inner steps, the sampling play-outs and the heuristics' per-card
scoring. Numba otherwise counts a reference to every array a call is given, inside bundles
too, atomically on entry and exit; that was 55% of the endgame search's time and 12 to 14% of
a sampling decision's (docs/performance.md, "Reference counting in the exact searches"). Such
a kernel cannot make an array (numba refuses to compile it), so the mark cannot hide a leak.
"""

import numba

NJIT_OPTIONS = {"cache": True, "nogil": True, "boundscheck": False}


def njit(*args, **kwargs):
    """``numba.njit`` with the project's options; usable bare or with extra options."""
    if args and callable(args[0]) and not kwargs:
        return numba.njit(**NJIT_OPTIONS)(args[0])
    return numba.njit(**{**NJIT_OPTIONS, **kwargs})
