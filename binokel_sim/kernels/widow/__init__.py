"""The widow family (three-hand-auction-48, four-hand-widow-48): deals, the block driver and
the exact widow enumeration. Imports the shared kernel modules and
:mod:`binokel_sim.kernels.strict` only."""
