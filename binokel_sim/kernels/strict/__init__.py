"""Strict tricks (talon phase 2 and every widow trick): the trick loop and its policies (random,
the talon heuristic, the two-hand solver's card, the sampling policy's), what the table knows,
the widow games' part of it and their score. Imports only the shared kernel modules."""
