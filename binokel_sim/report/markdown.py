"""report.md: the title, the provenance, each hand's result and figures, the variant's figures
(each hand's summary and note from its family's module, :mod:`.registry`)."""

from __future__ import annotations

from binokel_sim.report.model import FigureData, Report
from binokel_sim.report.registry import view_of


def report_markdown(report: Report) -> str:
    """report.md: the title, the provenance, each hand's result in a line and its figures, then
    the variant's figures, each as an image with a one-line description."""
    rules, view = report.rules, view_of(report.family)
    lines = [f"# binokel-sim report: {rules.name}", "", f"{rules.name}: {rules.description}.", ""]
    lines += ["| | |", "|---|---|"]
    lines += [f"| {key} | {_cell(value)} |" for key, value in report.provenance.items()]
    lines.append("")
    note = view.hands_note(rules)
    if note is not None:
        lines += [note, ""]
    for hand in report.hands:
        if hand.index is not None:
            lines += [f"## Hand {hand.index}: {' '.join(hand.hand)}", "",
                      f"{hand.where}, seed {hand.seed}.", ""]
        else:
            lines += ["## The hand's odds", ""]
        lines += [view.summary(hand.odds), ""]
        lines += _figure_lines(hand.figures)
    lines += ["## The variant's melds" if report.hands[0].index is not None else
              "## The variant's melds (a random hand)", ""]
    lines += _figure_lines(report.variant_figures)
    return "\n".join(lines).rstrip("\n") + "\n"


def _cell(value) -> str:
    return str(value).replace("|", "\\|")


def _figure_lines(figures: list[FigureData]) -> list[str]:
    lines = []
    for f in figures:
        lines += [f"![{f.title.splitlines()[0]}]({f.name})", "",
                  f"`{f.name}`: {f.description}.", ""]
    return lines

