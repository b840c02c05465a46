"""The widow family (three-hand-auction-48, four-hand-widow-48): deals, the block driver and
the exact widow enumeration (deals.py), the widow's part of the strict tricks (knowledge.py: what
the table knows, the partners and the value, given to :mod:`binokel_sim.kernels.strict` by type),
the deal's score (score.py) and the family's knobs (knobs.py). Imports the shared kernel modules
and :mod:`binokel_sim.kernels.strict` only."""
