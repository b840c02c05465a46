"""The widow games' knobs in a policy's row of the card play's knobs (``tune``,
:data:`~binokel_sim.kernels.policies.N_TUNE` a row: the heuristic's, then the expert's, fitted in
binokel_sim/expert_play.json; docs/rules.md "Expert policy"). The row's layout is the strict
heuristic's (:mod:`binokel_sim.kernels.strict.heuristic`), which keeps slots for a family's own
knobs: ``S_FAMILY`` among the strict tricks' and ``FAMILY_KNOBS`` on; the widow games give them
these meanings.
"""

from binokel_sim.kernels.strict.heuristic import FAMILY_KNOBS, S_FAMILY

# 1 = the widow games' defenders treat each other as partners (rule S2); the heuristic knows
# partners only in fixed partnerships (knowledge.py: part_partner)
S_TEAM = S_FAMILY
# the soloist buries by ``engines.widow.preferences`` order 1 + this knob: 0 the most card points
# first (the heuristic), 1 the same with the side aces last (kept to win tricks)
W_BURY = FAMILY_KNOBS
# ... and first the cards but the ace of his side suit of the fewest cards, if it holds at most
# this many (0: never), a suit without a held ace before one with (deals.void_order)
W_VOID = FAMILY_KNOBS + 1
# a bidding seat reads its bid limit this many estimate rows higher (0: as the heuristic;
# widow_value.bid_table)
W_BID = FAMILY_KNOBS + 2
# a bidding seat's first call is a pass ("weg") unless its bid limit plus its best meld before the
# Dabb reach the offer plus this many points (0: as the heuristic, which opens within its limit)
W_OPEN = FAMILY_KNOBS + 3
# with partnerships, a seat raises its partner's standing bid only while an opponent is still in
# and only when its limit is at least this many points above the offer; never once both
# opponents have passed (0: as the heuristic, which bids over anyone)
W_PARTNER = FAMILY_KNOBS + 4
# a soloist whose hand is not a sure Durch but at most declare.DURCH_STEPS steps from one plays
# the Durch out in this many sampled worlds and declares it when its expected score beats
# counting (0: as the heuristic, which declares only a sure Durch; declare.durch_playouts)
W_DURCH = FAMILY_KNOBS + 5
