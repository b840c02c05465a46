"""``bid-odds``' document in the partnership game (four-hand-80): the odds per trump the hand
may name, optionally given the auction so far (``auction``, ``dealer``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from binokel_sim.documents import sampling_fields
from binokel_sim.documents.bid_odds import Checked, check_bid
from binokel_sim.errors import SimulationError

if TYPE_CHECKING:
    from binokel_sim.constraints import Knowledge
    from binokel_sim.variants import Rules


def own_options(rules: "Rules") -> tuple[str, ...]:
    """The options of its own the family's ``bid-odds`` reads (the page shows a field for each):
    the trump to name, the auction so far and who dealt it."""
    return ("trump", "auction", "dealer")


def check(rules: "Rules", counts, *, trump: str = "auto", auction: Optional[str] = None,
          dealer: Optional[str] = None, bid: Optional[int] = None) -> Checked:
    """``trump`` (auto or one suit), and ``auction`` with ``dealer`` as the calls the samples'
    other seats repeat; a named trump without a marriage is a warning (every bid
    there is lost). ``bid``: the figures at that bid too, per trump (:func:`check_bid`)."""
    from binokel_sim.cards import SUITS, parse_trump
    from binokel_sim.engines.partnership import marriage_trumps

    warnings = []
    trump_index = None
    if trump.strip().lower() != "auto":
        trump_index = parse_trump(trump)
        if trump_index not in marriage_trumps(rules, counts):
            warnings.append(f"--trump {SUITS[trump_index]}: the hand holds no marriage in "
                            f"{SUITS[trump_index]} and may not name it, so every bid there "
                            f"is lost")
    fields = {"trump_option": trump.strip().lower()}
    options = {"trump": trump_index, "auction": _auction_calls(rules, auction, dealer)}
    if check_bid(rules, bid) is not None:
        fields["bid"] = options["bid"] = bid
    if auction is not None:
        fields |= {"auction": " ".join(auction.split()), "dealer": (dealer or "").strip().lower()}
    return Checked(options, fields, tuple(warnings))


def document(rules: "Rules", counts, checked: Checked, *, deals: int, seed: int, policy: str,
             threads: Optional[int], knowledge: "Knowledge", samples_per_move: Optional[int],
             origin: dict, progress=None, backend=None) -> tuple[dict, dict]:
    """Run the odds and build the document: provenance, the summary, ``by_trump``, ``rows``."""
    from binokel_sim.analysis import provenance
    from binokel_sim.odds import bid_odds

    result = bid_odds(rules, counts, deals, seed, policy, threads=threads, progress=progress,
                      backend=backend, knowledge=knowledge, samples_per_move=samples_per_move,
                      **checked.options)
    fields = dict(checked.fields)
    auction = {k: fields.pop(k) for k in ("auction", "dealer") if k in fields}
    record = provenance(rules, method="monte_carlo", seed=seed, deals=deals, policy=policy,
                        **sampling_fields(samples_per_move, policy),
                        hand=" ".join(result["hand"]), **fields,
                        recommended_trump=result["recommended_trump"],
                        max_bid_positive_ev=result["max_bid_positive_ev"],
                        **knowledge.provenance(), **auction, **origin)
    summary = {k: result[k] for k in ("hand", "has_marriage", "recommended_trump",
                                      "max_bid_positive_ev")}
    if auction:
        summary["deals_per_sample"] = result["deals_per_sample"]
    return result, {"provenance": record, **summary, "by_trump": result["by_trump"],
                    "rows": result["rows"].to_dicts()}


def _auction_calls(rules: "Rules", auction: Optional[str], dealer: Optional[str]):
    """``auction`` and ``dealer`` as the calls so far, seats counted from the hand (None
    without them; the odds turn them into bounds on the other seats' bid limits under the
    policy's bidding); either one alone is an error."""
    from binokel_sim.bidding import parse_auction
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
    return calls
