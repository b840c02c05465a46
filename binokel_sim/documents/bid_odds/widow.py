"""``bid-odds``' document in the widow games: the odds after the widow (the soloist names trump
after it) and the exact widow section."""

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
    the auction so far and who dealt (the soloist names trump after the widow)."""
    return ("auction", "dealer")


def check(rules: "Rules", counts, *, trump: str = "auto", auction: Optional[str] = None,
          dealer: Optional[str] = None, bid: Optional[int] = None) -> Checked:
    """The soloist names trump after the widow, so ``trump`` is auto. ``auction`` (with
    ``dealer``): the calls so far, which the samples' other hands repeat. ``dealer`` says who
    dealt: the order of the calls, and where the player left of the dealer leads the first
    trick, who leads (default: right, the hand leads). ``bid``: the figures at that bid too
    (:func:`check_bid`)."""
    from binokel_sim.bidding import parse_auction
    from binokel_sim.constants import NO_BID
    from binokel_sim.constraints import parse_seat
    from binokel_sim.odds.summary import dealer_field

    if auction is not None and dealer is None:
        raise SimulationError("--auction and --dealer go together: the calls so far and who "
                              "dealt (the first call is the dealer's left)")
    if dealer is not None and auction is None and rules.first_leader != "non_dealer":
        raise SimulationError(f"--dealer: in {rules.name} the soloist leads the first trick, "
                              f"so who dealt does not change the odds (it orders the calls of "
                              f"--auction)")
    seat = parse_seat(dealer, rules.players, "--dealer", own=True) if dealer else None
    if trump.strip().lower() != "auto":
        raise SimulationError(f"--trump {trump}: in {rules.name} the soloist names trump "
                              f"after the widow; only --trump auto is accepted")
    options = {} if seat is None else {"dealer": seat}
    fields = {"trump_option": "auto", **dealer_field(rules, dealer)}
    if auction is not None:
        calls = parse_auction(rules, auction, seat)
        if (0, NO_BID) in calls:
            raise SimulationError("--auction: the hand's own seat passed; bid-odds studies the "
                                  "hand as the bid winner")
        options["auction"] = calls
        fields |= {"auction": " ".join(auction.split()), "dealer": dealer.strip().lower()}
    if check_bid(rules, bid) is not None:
        fields["bid"] = options["bid"] = bid
    return Checked(options, fields)


def document(rules: "Rules", counts, checked: Checked, *, deals: int, seed: int, policy: str,
             threads: Optional[int], knowledge: "Knowledge", samples_per_move: Optional[int],
             origin: dict, progress=None, backend=None) -> tuple[dict, dict]:
    """Run the odds and build the document: provenance, the widow section, the trump chosen,
    ``rows``."""
    from binokel_sim.analysis import provenance
    from binokel_sim.odds import bid_odds

    result = bid_odds(rules, counts, deals, seed, policy, threads=threads, progress=progress,
                      backend=backend, knowledge=knowledge, samples_per_move=samples_per_move,
                      **checked.options)
    fields = dict(checked.fields)
    auction = {k: fields.pop(k) for k in ("auction",) if k in fields}
    record = provenance(rules, method="monte_carlo", seed=seed, deals=deals, policy=policy,
                        **sampling_fields(samples_per_move, policy),
                        hand=" ".join(result["hand"]), **fields,
                        max_bid_positive_ev=result["max_bid_positive_ev"],
                        **knowledge.provenance(), **auction, **origin)
    rest = {k: v for k, v in result.items() if k != "rows"}
    return result, {"provenance": record, **rest, "rows": result["rows"].to_dicts()}
