"""Constants shared by the kernels and their pure-Python twins (one data module, so a twin never
imports a kernel to read them). numba reads module-level ints as compile-time constants.
"""

# The auctions (docs/rules.md, "Bidding heuristic"; the limits are fitted: pair_value.py).
NO_BID = -1  # a pass

# The widow games' heuristic (docs/rules.md, "Widow games", "Policies").
CARDS_PER_TRUMP = 12  # what a card of a suit adds to it when the heuristic chooses trump
DURCH_SCORE = 1000  # SPEC "House variants": a Durch made scores +1000, failed -1000
DURCH_OPEN_SCORE = 1500  # SPEC "Today's practice": an open Durch (durch_open) scores +-1500
NO_TRUMP = 4  # the "trump" of a Durch or a Bettel: no suit (suit_block(4) holds no card type)
BETTEL_BID = 300  # SPEC "House variants": a Bettel is worth 300 in the auction

# The sampling policy (docs/rules.md, "Sampling policy"): deals sampled per card decision.
SAMPLES_PER_MOVE = 128
MAX_SAMPLES_PER_MOVE = 100_000
# Exact endgames in the sampling policy's play-outs (issue 55): from EXACT_TRICKS tricks left
# every play-out is solved exactly, every hand of the sample known (four-hand-80, and phase 2 of
# three- and four-hand-72; 0: played out by the heuristic to the end); duel --exact-tricks sets
# it per side, up to MAX_EXACT_TRICKS.
EXACT_TRICKS = 0
MAX_EXACT_TRICKS = 8
# The race among a decision's card types (docs/rules.md, talon games, "Policies": the race): after
# every RACE_EVERY samples a type whose mean difference to the leader's, on the same samples, is
# more than z = 2 standard errors below the zone is dropped: one far behind, and one that is at
# best a little better. The zone is RACE_DELTA for a seat playing for itself and half of it for a
# partnership's seat (kernels/strict/sampling.py race_zone), in the play-out values of its
# side_value (two-hand-48: points of own less other's; three-hand-72: twice (own less the
# others' mean)). RACE_Z2 is z squared, an integer, so that kernel and twin compare integers.
# The test's products stay below 2**63 for per-sample differences up to about 7,000 at the
# largest --samples-per-move (MAX_SAMPLES_PER_MOVE).
RACE_EVERY = 8
RACE_Z2 = 4
RACE_DELTA = 8

# bid-odds --auction: deals of the other hands tried for one sample before the auction is
# reported as too unlikely for the bidding policy with this hand
MAX_AUCTION_DRAWS = 100_000

# Durch by play-outs (docs/rules.md "Widow games", "Policies", *Durch*; kernels/widow/declare.py,
# the twin reference.widow.durch_playouts): a Durch that is not sure is tried only from at most
# DURCH_STEPS steps from sure (farther hands made 31% or less: scripts/durch_odds.py); the
# play-outs stop after DURCH_FIRST worlds when at most half of them took every trick (the Durch
# then scores at most 0 on average, counting more); DURCH_SALT is mixed into the deal's random
# state for the play-outs' own stream (the deal's stream is left as it is)
DURCH_STEPS = 3
DURCH_FIRST = 8
DURCH_SALT = 0xD0C5D0C5D0C5D0C5
