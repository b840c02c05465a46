"""``bid-odds`` in the widow games: the odds after the widow (the soloist names trump after
it) and the exact widow section."""

from pathlib import Path
from typing import TYPE_CHECKING, Optional

from binokel_sim.cards import FRENCH, Notation, shown_document
from binokel_sim.cli.base import (
    RowsFormat,
    deliver,
    out,
    progress_bar,
    progress_threshold,
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
from binokel_sim.constants import BETTEL_BID
from binokel_sim.odds.summary import interesting_bids

if TYPE_CHECKING:
    from binokel_sim.constraints import Knowledge
    from binokel_sim.variants import Rules


def bid_odds(rules: "Rules", counts, *, deals: int, seed: int, policy: str, trump: str,
             threads: Optional[int], full: bool, out_file: Optional[Path], fmt: RowsFormat,
             workers: Optional[int], scheduler: Optional[str], knowledge: "Knowledge",
             auction: Optional[str], dealer: Optional[str], samples_per_move: Optional[int],
             origin: dict, bid: Optional[int] = None, cards: Notation = FRENCH) -> None:
    """bid-odds for the widow games (inside :func:`~binokel_sim.cli.base.domain_errors`):
    the document is :mod:`binokel_sim.documents.bid_odds.widow`'s."""
    from binokel_sim.backend import open_backend
    from binokel_sim.documents.bid_odds import widow as view

    checked = view.check(rules, counts, trump=trump, auction=auction, dealer=dealer, bid=bid)
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
    widow = result["widow"]
    out.print(f"{rules.name}: {' '.join(result['hand'])}", highlight=False)
    out.print(provenance_line(record, skip=("hand", "max_bid_positive_ev")), highlight=False)
    # two different meld figures (docs/commands.md, "bid-odds"): the exact best meld of hand +
    # widow (widow.mean_best_meld) and the simulated meld the soloist keeps after the demand
    # and burying with the trump he names (mean_meld_after_widow)
    before = "before the demand and burying" if rules.widow_demand else "before burying"
    exact = "exact, not conditioned on the auction" if "auction" in record else "exact"
    out.print(f"the widow ({exact}, {widow['widows']:,} widows): best meld "
              f"{widow['own_best_meld']} "
              f"before it; hand + widow, best trump, {before}: "
              f"{widow['mean_best_meld']:.1f} on average; it raises the best meld in "
              f"{percent(widow['p_improves'])}", highlight=False)
    chosen = ", ".join(f"{s} {percent(p)}" for s, p in result["trump_chosen"].items())
    after = "after the demand and burying" if rules.widow_demand else "after burying"
    out.print(f"trump chosen: {chosen}; meld kept {after}, with that trump "
              f"(simulated): {result['mean_meld_after_widow']:.1f} on average; all tricks "
              f"(+{rules.all_tricks_bonus}) in {percent(result['p_bonus'])}", highlight=False)
    if "p_durch" in result:
        out.print(f"Durch (a sure one, declared instead of trump): in "
                  f"{percent(result['p_durch'])}, made in {percent(result['p_durch_made'])}",
                  highlight=False)
    if "p_bettel" in result:
        out.print(f"a sure Bettel after the Dabb (he may declare it at a bid up to "
                  f"{BETTEL_BID}): in {percent(result['p_bettel'])}", highlight=False)
    if "auction" in record:
        out.print(f"given the auction: {result['deals_per_sample']:,.1f} deals dealt per sample "
                  f"(the other seats' hands that would have made those calls)", highlight=False)
    rows = result["rows"].to_dicts()
    bids = [r["bid"] for r in rows] if full else interesting_bids(rows)
    out.print(render_table([{**r, "ci": (r["ci_low"], r["ci_high"])} for r in rows
                            if r["bid"] in bids], [
        Column("bid", "bid"), Column("p_make", "p_make", percent),
        Column("ci", "95% interval", lambda b: percent_interval(*b)),
        *([Column("p_concede", "gives up", percent)] if rules.widow_concede else []),
        Column("expected_score", "expected score", points),
    ]))
    if not full:
        ladder_note(len(bids), len(rows))
    if "bid" in record:  # --bid: that bid's odds
        conceded = (f", gives up {percent(result['p_concede_at_bid'])}"
                    if rules.widow_concede else "")
        out.print(f"at {record['bid']}: p_make {percent(result['p_make_at_bid'])} (95% "
                  f"interval {percent_interval(*result['p_make_at_bid_ci'])}){conceded}, "
                  f"expected score {points(result['expected_score_at_bid'])}", highlight=False)
    top = result["max_bid_positive_ev"]
    out.print(f"highest bid with positive expected score: {top if top is not None else 'none'}",
              highlight=False)
