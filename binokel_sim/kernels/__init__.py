"""Only ``@njit`` code lives here: random streams, dealing, meld counting and batch drivers.

Kernels never validate and never allocate their results: the public functions in
:mod:`binokel_sim.simulate` and :mod:`binokel_sim.analysis` check inputs, build the rule tables
(:mod:`binokel_sim.tables`) and hand over ``out`` arrays.

Loading the kernels starts the compile notice (:mod:`binokel_sim.compile_notice`: a command's
line before numba compiles). It is installed here, in the package's ``__init__``, and not in
:mod:`binokel_sim.kernels.options`, which every kernel imports: numba's cached kernels depend on
the modules their own modules import (:mod:`binokel_sim.kernel_cache`), and the notice's table
of compile times changes with every measurement.
"""

from binokel_sim.compile_notice import install

install()
