"""The sixty-six family (Sechsundsechzig): its rules on card masks (:mod:`.rules`), the heuristic
player (:mod:`.heuristic`), the sampling player (:mod:`.sampling`), the deal loop with its block driver (:mod:`.deals`), and the duel,
game and sample drivers over it (:mod:`.games`). Imports the shared kernel modules only."""
