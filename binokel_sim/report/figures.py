"""A report's figures: each hand's (its family's, :mod:`.registry`) and the variant's meld
figures, as :class:`.model.FigureData` ready to draw."""

from __future__ import annotations

from binokel_sim import __version__
from binokel_sim.report.data import SUIT_NAMES, meld_data, total_meld_data
from binokel_sim.report.model import FigureData, HandReport
from binokel_sim.report.registry import family_view
from binokel_sim.variants import Rules


def hand_figures(rules: Rules, hand: HandReport, deals: int, policy: str) -> list[FigureData]:
    """The figures of one hand (its bid curve when its family has an auction, its score
    distribution and the family's further figures, such as the meld after the widow), from
    ``hand.odds``."""
    view = family_view(rules)
    caption = (f"binokel-sim {__version__} · {rules.name} · Monte Carlo: {deals:,} deals, "
               f"seed {hand.seed}, policy {policy}")
    who = _hand_title(rules, hand)
    figures = []
    data = view.bid_curve_data(hand.odds)
    if data is not None:
        top = data["marked_bid"]
        worth = (f"the highest bid with a positive expected score ({top}) is marked"
                 if top is not None else "no bid has a positive expected score")
        figures.append(FigureData(f"{hand.prefix}bid-curve.png", "bid_curve", data,
                                  f"{rules.name}: the chance to make each bid\n{who}", caption,
                                  view.BID_CURVE_TEXT.format(worth=worth)))
    data = view.score_data(hand.odds)
    figures.append(FigureData(f"{hand.prefix}score.png", "score", data,
                              f"{rules.name}: the score of the deal\n{who}", caption,
                              view.describe_score(data)))
    return figures + view.extra_figures(rules, hand, who)


def variant_figures(rules: Rules, deals: int, seed: int, marks: list[tuple[str, int]],
                    threads: int | None = None) -> list[FigureData]:
    """The variant's meld figures: each meld's exact odds and the best total meld of a random
    hand (Monte Carlo, ``deals`` hands, ``seed``), with ``marks`` drawn on it."""
    from binokel_sim.analysis import exact_meld_odds, meld_odds

    exact = meld_data(exact_meld_odds(rules, 0))
    total = total_meld_data(meld_odds(rules, deals, seed, 0, threads), deals, marks)
    hand = f"a random {rules.hand_size}-card hand"
    return [
        FigureData("melds.png", "melds", exact,
                   f"{rules.name}: how often {hand} holds each meld",
                   f"binokel-sim {__version__} · {rules.name} · exact (combinatorics)",
                   f"the exact chance that {hand} holds each meld once, twice, ... "
                   f"(meld-odds --exact), with the points each count scores"),
        FigureData("total-meld.png", "total_meld", total,
                   f"{rules.name}: the best total meld of {hand}",
                   f"binokel-sim {__version__} · {rules.name} · Monte Carlo: {deals:,} hands, "
                   f"seed {seed}",
                   f"the distribution of the best total meld of {hand} (Monte Carlo, the "
                   f"best trump it may name)"
                   + ("; the hand's own meld is marked" if len(marks) == 1 else
                      "; the hands' own melds are marked" if marks else "")),
    ]


def _hand_title(rules: Rules, hand: HandReport) -> str:
    text = " ".join(hand.hand)
    if hand.index is not None:
        text = f"hand {hand.index}: {text}"
    if hand.turned is not None:
        text += f", turned {hand.turned} (trump {SUIT_NAMES[hand.turned[-1]]}), you are the " \
                f"{hand.seat}"
    return text
