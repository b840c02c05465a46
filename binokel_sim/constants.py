"""Constants shared by the kernels and their pure-Python twins (one data module, so a twin never
imports a kernel to read them). numba reads module-level ints as compile-time constants.
"""

# The bidding heuristic of four-hand-80 (docs/rules.md, "Bidding heuristic").
PARTNER_MELD = 20  # what the partner is expected to add to the pair's meld
BASE_PLAY = 25  # the bidding pair's expected counters with an average trump suit
TRUMP_LENGTH = 2  # counters per trump held above (below) five
NO_BID = -1  # a pass
