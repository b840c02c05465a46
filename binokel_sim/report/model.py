"""What a report holds: its figures (:class:`FigureData`), its hands (:class:`HandReport`) and
the whole (:class:`Report`), plain data that :mod:`.markdown` and :mod:`.drawing` read."""

from __future__ import annotations

from dataclasses import dataclass, field

from binokel_sim.variants import Rules


@dataclass(frozen=True)
class FigureData:
    """One figure: its file ``name`` (``bid-curve.png``), ``kind`` (which drawing), the data it
    shows, a title, the caption line under it (where the numbers come from) and the one-line
    ``description`` report.md gives it."""

    name: str
    kind: str
    data: dict
    title: str
    caption: str
    description: str


@dataclass
class HandReport:
    """One hand of a report: its place in a hands file (``index`` 0-based, None for a single
    hand), its seed, the library result the figures come from and its figures."""

    hand: list[str]
    seed: int
    odds: dict
    index: int | None = None
    where: str | None = None
    turned: str | None = None
    seat: str | None = None
    figures: list[FigureData] = field(default_factory=list)

    @property
    def prefix(self) -> str:
        return "" if self.index is None else f"hand-{self.index}-"


@dataclass
class Report:
    """Everything ``report.md`` and the figures show: the run's provenance, each hand's figures
    and the variant's."""

    rules: Rules
    family: str
    provenance: dict
    hands: list[HandReport]
    variant_figures: list[FigureData]

    def figures(self) -> list[FigureData]:
        return [f for h in self.hands for f in h.figures] + self.variant_figures
