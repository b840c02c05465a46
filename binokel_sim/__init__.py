"""binokel-sim: Monte Carlo simulator and exact hand analyzer for Binokel and its family.

The public API:

- :func:`binokel_sim.variants.find_variant`, :func:`binokel_sim.variants.load_rules`: rule sets
- :func:`binokel_sim.hands.parse_hand`: checked hands (counts per card type)
- :func:`binokel_sim.analysis.analyze_hand`, :func:`binokel_sim.analysis.meld_odds`,
  :func:`binokel_sim.analysis.exact_meld_odds`: analyses returning dicts and polars DataFrames
- :func:`binokel_sim.simulate.deal`: raw deals as bit planes
"""



def __getattr__(name: str) -> str:
    """``__version__``, read from the installed package's metadata when first asked for
    (importlib.metadata costs some 50 ms at start-up, which ``--help`` should not pay)."""
    if name != "__version__":
        raise AttributeError(f"module 'binokel_sim' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("binokel-sim")
    except PackageNotFoundError:  # pragma: no cover - a source tree without install
        found = "0.0.0+unknown"
    globals()["__version__"] = found
    return found
