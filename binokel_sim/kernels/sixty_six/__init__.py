"""The sixty-six family (Sechsundsechzig): its rules on card masks (:mod:`.rules`), the heuristic
player (:mod:`.heuristic`), and the deal loop with its block driver (:mod:`.deals`). Imports the
shared kernel modules only."""
