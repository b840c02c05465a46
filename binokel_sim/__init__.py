"""binokel-sim: Monte Carlo simulator and exact hand analyzer for Binokel and its family.

The public API:

- :func:`binokel_sim.variants.find_variant`, :func:`binokel_sim.variants.load_rules`: rule sets
- :func:`binokel_sim.hands.parse_hand`: checked hands (counts per card type)
- :func:`binokel_sim.analysis.analyze_hand`, :func:`binokel_sim.analysis.meld_odds`,
  :func:`binokel_sim.analysis.exact_meld_odds`: analyses returning dicts and polars DataFrames
- :func:`binokel_sim.simulate.deal`: raw deals as bit planes
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("binokel-sim")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0.0.0+unknown"
