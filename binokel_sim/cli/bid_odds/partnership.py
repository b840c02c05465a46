"""``bid-odds`` in the partnership game (four-hand-80): the odds per trump the hand may name,
optionally given the auction so far (``--auction``, ``--dealer``)."""

from pathlib import Path
from typing import TYPE_CHECKING, Optional

from binokel_sim.cards import FRENCH, Notation, shown_document
from binokel_sim.cli.base import (
    RowsFormat,
    deliver,
    out,
    progress_bar,
    progress_threshold,
    warn,
    warn_few,
)
from binokel_sim.cli.ladder import ladder_note
from binokel_sim.cli.render import (
    Column,
    percent,
    percent_interval,
    points,
    provenance_line,
)
from binokel_sim.cli.render import table as render_table
from binokel_sim.odds.summary import interesting_bids

if TYPE_CHECKING:
    from binokel_sim.constraints import Knowledge
    from binokel_sim.variants import Rules

# trumps whose p_make and expected score columns share one ladder table within 80 columns (no
# header word cut: "expected" needs its 8); a hand with a marriage in every suit has four, and
# then each figure gets a table of its own, a column per trump
SIDE_BY_SIDE = 3


def bid_odds(rules: "Rules", counts, *, deals: int, seed: int, policy: str, trump: str,
             threads: Optional[int], full: bool, out_file: Optional[Path], fmt: RowsFormat,
             workers: Optional[int], scheduler: Optional[str], knowledge: "Knowledge",
             auction: Optional[str], dealer: Optional[str], samples_per_move: Optional[int],
             origin: dict, bid: Optional[int] = None, cards: Notation = FRENCH) -> None:
    """bid-odds for the partnership game (inside :func:`~binokel_sim.cli.base.domain_errors`):
    the document is :mod:`binokel_sim.documents.bid_odds.partnership`'s."""
    from binokel_sim.backend import open_backend
    from binokel_sim.documents.bid_odds import partnership as view

    checked = view.check(rules, counts, trump=trump, auction=auction, dealer=dealer, bid=bid)
    for line in checked.warnings:
        warn(line)
    with open_backend(workers, scheduler, threads) as backend, \
            progress_bar(deals, "playing", progress_threshold(policy)) as progress:
        result, document = view.document(
            rules, counts, checked, deals=deals, seed=seed, policy=policy, threads=threads,
            knowledge=knowledge, samples_per_move=samples_per_move, origin=origin,
            progress=progress, backend=backend)
    warn_few(deals)
    result, document = shown_document(result, cards), shown_document(document, cards)
    record = document["provenance"]
    if deliver(result["rows"], out_file, record, fmt, document):
        return
    _print_bid_odds(rules, result, record, full)


def _print_bid_odds(rules: "Rules", result: dict, record: dict, full: bool) -> None:
    out.print(f"{rules.name}: {' '.join(result['hand'])}", highlight=False)
    out.print(provenance_line(record, skip=("hand", "recommended_trump", "max_bid_positive_ev")),
              highlight=False)
    if not result["has_marriage"]:
        out.print("This hand holds no marriage: it may not name trump, and every bid is lost.")
    floor = result["rows"]["bid"].min()
    summary = [{"trump": suit, **info,
                "ci": tuple(info["p_make_min_bid_ci"])} for suit, info in result["by_trump"].items()]
    out.print(render_table(summary, [
        Column("trump", "trump", numeric=False),
        Column("p_make_min_bid", f"p_make at {floor}", percent),
        Column("ci", "95% interval", lambda b: percent_interval(*b)),
        Column("expected_score_min_bid", f"expected score at {floor}", points),
        Column("max_bid_positive_ev", "bid up to"),
        Column("mean_pair_meld", "pair meld", points),
        Column("mean_pair_play", "pair play", points),
    ]))
    rows = result["rows"].to_dicts()
    if full:
        out.print(render_table([{**r, "ci": (r["ci_low"], r["ci_high"])} for r in rows], [
            Column("trump", "trump", numeric=False), Column("bid", "bid"),
            Column("p_make", "p_make", percent),
            Column("ci", "95% interval", lambda b: percent_interval(*b)),
            Column("expected_score", "expected score", points),
            Column("expected_opponent_score", "opponents' score", points),
        ]))
    else:
        bids = interesting_bids(rows)
        trumps = list(result["by_trump"])
        ladder = []
        for bid in bids:
            line = {"bid": bid}
            for r in rows:
                if r["bid"] == bid:
                    line[f"{r['trump']}_p"] = r["p_make"]
                    line[f"{r['trump']}_e"] = r["expected_score"]
            ladder.append(line)
        if len(trumps) <= SIDE_BY_SIDE:
            columns = [Column("bid", "bid")]
            for suit in trumps:
                columns += [Column(f"{suit}_p", f"{suit} p_make", percent),
                            Column(f"{suit}_e", f"{suit} expected score", points)]
            out.print(render_table(ladder, columns))
        else:
            for key, figure, shown in (("p", "p_make", percent), ("e", "expected score", points)):
                out.print(render_table(ladder, [Column("bid", "bid")] + [
                    Column(f"{suit}_{key}", suit, shown) for suit in trumps],
                    title=f"{figure} by trump"))
        ladder_note(len(bids), len({r["bid"] for r in rows}))
    if "bid" in record:  # --bid: that bid's odds, per trump
        asked = record["bid"]
        out.print(render_table([{"trump": suit, **info, "ci": tuple(info["p_make_at_bid_ci"])}
                                for suit, info in result["by_trump"].items()], [
            Column("trump", "trump", numeric=False),
            Column("p_make_at_bid", f"p_make at {asked}", percent),
            Column("ci", "95% interval", lambda b: percent_interval(*b)),
            Column("expected_score_at_bid", f"expected score at {asked}", points),
        ]))
    if result["recommended_trump"] is not None:
        top = result["max_bid_positive_ev"]
        out.print(f"recommended trump: {result['recommended_trump']}; highest bid with positive "
                  f"expected score: {top if top is not None else 'none'}", highlight=False)
    if "auction" in record:
        out.print(f"given the auction: {result['deals_per_sample']:,.1f} deals dealt per sample "
                  f"kept (1 in {result['deals_per_sample']:,.0f} deals repeats the calls)",
                  highlight=False)
