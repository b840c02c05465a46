"""The domain errors, in a module that imports nothing: the CLI's error boundary catches them
without loading numpy, numba or polars (``--help`` stays fast). Each is a ``ValueError`` and is
re-exported by the module it belongs to (``cards``, ``variants``, ``io``, ``simulate``)."""


class CardError(ValueError):
    """Bad card notation, a card the deck lacks, too many copies or a wrong hand size."""


class RulesError(ValueError):
    """A rules file or variant name that cannot be used; the message names the bad key or value."""


class OutputError(ValueError):
    """An output path that cannot be written (unknown suffix, missing or read-only folder)."""


class SimulationError(ValueError):
    """Arguments a simulation cannot run with (deal count, seed, threads)."""


DOMAIN_ERRORS = (CardError, RulesError, OutputError, SimulationError)


class AuctionTooRare(SimulationError):
    """No deal of the other hands fitted the auction within the allowed tries (``bid-odds
    --auction``)."""
