"""binokel-sim: Monte Carlo simulator and exact hand analyzer for Binokel and its family.

The public API, importable from here (each loaded on first use, so ``import binokel_sim`` stays
light):

- :func:`find_variant`, :func:`load_rules` (:mod:`binokel_sim.variants`): rule sets
- :func:`parse_hand` (:mod:`binokel_sim.hands`): checked hands (counts per card type)
- :func:`analyze_hand`, :func:`meld_odds`, :func:`exact_meld_odds`
  (:mod:`binokel_sim.analysis`): analyses returning dicts and polars DataFrames
- :func:`bid_odds` (every bidding variant), :func:`deal_odds` (the talon games)
  (:mod:`binokel_sim.odds`)
- :func:`play_records` (:mod:`binokel_sim.records.stream`): whole simulated deals as JSON-ready
  records; :func:`duel`, :func:`match` (:mod:`binokel_sim.contests`): policy duels, whole games
- :func:`deal` (:mod:`binokel_sim.simulate`): raw deals as bit planes

For example ``from binokel_sim import bid_odds, find_variant, parse_hand``.
"""

from importlib import import_module

# public name -> the module that defines it
API = {
    "find_variant": "binokel_sim.variants",
    "load_rules": "binokel_sim.variants",
    "parse_hand": "binokel_sim.hands",
    "analyze_hand": "binokel_sim.analysis",
    "meld_odds": "binokel_sim.analysis",
    "exact_meld_odds": "binokel_sim.analysis",
    "bid_odds": "binokel_sim.odds",
    "deal_odds": "binokel_sim.odds",
    "play_records": "binokel_sim.records.stream",
    "duel": "binokel_sim.contests",
    "match": "binokel_sim.contests",
    "deal": "binokel_sim.simulate",
}

__all__ = [*API, "__version__"]


def __getattr__(name: str):
    """The public API's functions (:data:`API`), imported when first asked for, and
    ``__version__``, read from the installed package's metadata (importlib.metadata costs some
    50 ms at start-up, which ``--help`` should not pay)."""
    if name in API:
        value = getattr(import_module(API[name]), name)
    elif name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("binokel-sim")
        except PackageNotFoundError:  # pragma: no cover - a source tree without install
            value = "0.0.0+unknown"
    else:
        raise AttributeError(f"module 'binokel_sim' has no attribute {name!r}")
    globals()[name] = value
    return value
