"""Strict tricks (talon phase 2 and every widow trick): the trick loop and its policies (random,
the talon heuristic, the two-hand solver's card, the sampling policy's) and what the table knows.
Imports only the shared kernel modules and no family: a family's part of strict play (the widow
games' knowledge, value and partners) comes by type through the stubs of family.py."""
