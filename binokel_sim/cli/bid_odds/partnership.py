"""``bid-odds`` in the partnership game (four-hand-80): the odds per trump the hand may name,
optionally given the auction so far (``--auction``, ``--dealer``)."""

from pathlib import Path
from typing import TYPE_CHECKING, Optional

from binokel_sim.cli.base import (
    RowsFormat,
    deliver,
    out,
    parse_trump,
    progress_bar,
    progress_threshold,
    sampling_provenance,
    warn,
    warn_few,
)
from binokel_sim.cli.ladder import interesting_bids, ladder_note
from binokel_sim.cli.render import Column, percent, percent_interval, points, provenance_line
from binokel_sim.cli.render import table as render_table
from binokel_sim.errors import SimulationError

if TYPE_CHECKING:
    from binokel_sim.constraints import Knowledge
    from binokel_sim.variants import Rules


def bid_odds(rules: "Rules", counts, *, deals: int, seed: int, policy: str, trump: str,
             threads: Optional[int], full: bool, out_file: Optional[Path], fmt: RowsFormat,
             workers: Optional[int], scheduler: Optional[str], knowledge: "Knowledge",
             auction: Optional[str], dealer: Optional[str], samples_per_move: Optional[int],
             origin: dict) -> None:
    """bid-odds for the partnership game (inside :func:`~binokel_sim.cli.base.domain_errors`)."""
    from binokel_sim.analysis import provenance
    from binokel_sim.backend import open_backend
    from binokel_sim.cards import SUITS
    from binokel_sim.engines.partnership import marriage_trumps
    from binokel_sim.odds import bid_odds

    bounds = _auction_bounds(rules, auction, dealer)
    trump_index = None if trump.strip().lower() == "auto" else parse_trump(trump)
    if trump_index is not None and trump_index not in marriage_trumps(rules, counts):
        warn(f"--trump {SUITS[trump_index]}: the hand holds no marriage in "
             f"{SUITS[trump_index]} and may not name it, so every bid there is lost")
    with open_backend(workers, scheduler, threads) as backend, \
            progress_bar(deals, "playing", progress_threshold(policy)) as progress:
        result = bid_odds(rules, counts, deals, seed, policy, trump=trump_index,
                          threads=threads, progress=progress, backend=backend,
                          knowledge=knowledge, auction=bounds,
                          samples_per_move=samples_per_move)
    warn_few(deals)
    record = provenance(rules, method="monte_carlo", seed=seed, deals=deals, policy=policy,
                        **sampling_provenance(samples_per_move, policy),
                        hand=" ".join(result["hand"]), trump_option=trump.strip().lower(),
                        recommended_trump=result["recommended_trump"],
                        max_bid_positive_ev=result["max_bid_positive_ev"],
                        **knowledge.provenance(), **_auction_provenance(auction, dealer),
                        **origin)
    summary = {k: result[k] for k in ("hand", "has_marriage", "recommended_trump",
                                      "max_bid_positive_ev")}
    if auction is not None:
        summary["deals_per_sample"] = result["deals_per_sample"]
    document = {"provenance": record, **summary, "by_trump": result["by_trump"],
                "rows": result["rows"].to_dicts()}
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
        columns = [Column("bid", "bid")]
        for suit in trumps:
            columns += [Column(f"{suit}_p", f"{suit} p_make", percent),
                        Column(f"{suit}_e", f"{suit} expected score", points)]
        out.print(render_table(ladder, columns))
        ladder_note(len(bids), len({r["bid"] for r in rows}))
    if result["recommended_trump"] is not None:
        top = result["max_bid_positive_ev"]
        out.print(f"recommended trump: {result['recommended_trump']}; highest bid with positive "
                  f"expected score: {top if top is not None else 'none'}", highlight=False)
    if "auction" in record:
        out.print(f"given the auction: {result['deals_per_sample']:,.1f} deals dealt per sample "
                  f"kept (1 in {result['deals_per_sample']:,.0f} deals repeats the calls)",
                  highlight=False)


def _auction_bounds(rules, auction: Optional[str], dealer: Optional[str]):
    """``--auction`` and ``--dealer`` as the samples' bounds on the other seats' bid limits
    (None without them); either one alone is an error."""
    from binokel_sim.bidding import auction_bounds, parse_auction
    from binokel_sim.constants import NO_BID
    from binokel_sim.constraints import parse_seat

    if auction is None and dealer is None:
        return None
    if auction is None or dealer is None:
        raise SimulationError("--auction and --dealer go together: the calls so far and who "
                              "dealt (the first call is the dealer's left)")
    calls = parse_auction(rules, auction, parse_seat(dealer, 4, "--dealer", own=True))
    if (0, NO_BID) in calls:
        raise SimulationError("--auction: the hand's own seat passed; bid-odds studies the hand "
                              "as the bid winner")
    return auction_bounds(rules, 0, calls)


def _auction_provenance(auction: Optional[str], dealer: Optional[str]) -> dict:
    return {} if auction is None else {"auction": " ".join(auction.split()),
                                       "dealer": dealer.strip().lower()}
