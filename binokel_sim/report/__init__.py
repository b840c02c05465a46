"""``binokel-sim report``: a hand's odds as PNG figures and a ``report.md`` that lists them.

Every figure is drawn from data built by one small function (``*_data``) out of the result of
the library function the matching command reports, so a figure shows exactly what
``bid-odds``, ``deal-odds`` or ``meld-odds --exact`` print for the same seed:

======================  ========================================  ===========================
figure                  data                                      from
======================  ========================================  ===========================
``bid-curve.png``       the family's ``bid_curve_data``           ``odds.bid_odds``
``score.png``           the family's ``score_data``               their ``score_histogram``,
                                                                  ``odds.deal_odds``'s
``widow.png``           :func:`.widow.extra_figures`              the exact ``widow`` section
``melds.png``           :func:`.data.meld_data`                   ``analysis.exact_meld_odds``
``total-meld.png``      :func:`.data.total_meld_data`             ``analysis.meld_odds``
======================  ========================================  ===========================

What differs by engine family (``families.engine_family``) lives in one module per family,
found through the family registry (:mod:`.registry`: :func:`family_view`): :mod:`.partnership`
(four-hand-80: a bid curve per trump), :mod:`.widow` (the widow games: one bid curve, the trump
named after the widow, and the exact meld after the widow) and :mod:`.talon` (the talon games:
no auction, so no bid curve; a turned card and a seat). ``melds.png`` and ``total-meld.png``
describe the variant (a random hand), once per report.

The modules: :mod:`.model` (what a report holds), :mod:`.data` (the figure data the families
share), :mod:`.figures` (a report's figures), :mod:`.drawing` (the PNGs, matplotlib imported
lazily), :mod:`.markdown` (report.md), :mod:`.publish` (the checks and the files, all or
nothing). This package re-exports what the CLI and the other commands use.
"""

from __future__ import annotations

from binokel_sim.report.data import (
    SERIES_COLORS,
    SUIT_COLORS,
    SUIT_NAMES,
    hand_meld,
    meld_data,
    total_meld_data,
)
from binokel_sim.report.drawing import DPI, FIGSIZE, render
from binokel_sim.report.figures import hand_figures, variant_figures
from binokel_sim.report.markdown import report_markdown
from binokel_sim.report.model import FigureData, HandReport, Report
from binokel_sim.report.publish import (
    INSTALL,
    REPORT_MD,
    check_out_dir,
    publish,
    require_matplotlib,
    write_report,
)
from binokel_sim.report.registry import VIEW, family_view, view_of

FAMILY_API = VIEW  # what every family's module defines (tests/test_layers.py checks it)

__all__ = [
    "DPI", "FAMILY_API", "FIGSIZE", "INSTALL", "REPORT_MD", "SERIES_COLORS", "SUIT_COLORS",
    "SUIT_NAMES", "VIEW", "FigureData", "HandReport", "Report", "check_out_dir", "family_view",
    "hand_figures", "hand_meld", "meld_data", "publish", "render",
    "report_markdown", "require_matplotlib", "total_meld_data", "variant_figures", "view_of",
    "write_report",
]
