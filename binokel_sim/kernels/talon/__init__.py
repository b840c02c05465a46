"""The talon family (two-hand-48 and the three- and four-player talon games): declarations, the
phase-1 sampling policy, deals and the block driver. Imports the shared kernel modules and
:mod:`binokel_sim.kernels.strict` only."""
