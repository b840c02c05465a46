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
    who dealt, where the player left of the dealer leads the first trick (the soloist names
    trump after the widow, and there is no partnership auction)."""
    return ("dealer",) if rules.first_leader == "non_dealer" else ()


def check(rules: "Rules", counts, *, trump: str = "auto", auction: Optional[str] = None,
          dealer: Optional[str] = None, bid: Optional[int] = None) -> Checked:
    """The soloist names trump after the widow, so ``trump`` is auto, and no auction is
    conditioned on. ``dealer`` says who dealt where the player left of the dealer leads the
    first trick (default: right, the hand leads). ``bid``: the figures at that bid too
    (:func:`check_bid`)."""
    from binokel_sim.constraints import parse_seat
    from binokel_sim.odds.summary import dealer_field

    if auction is not None:
        raise SimulationError(f"--auction: variant {rules.name} has no partnership auction to "
                              f"condition on (four-hand-80 only)")
    if dealer is not None and "dealer" not in own_options(rules):
        raise SimulationError(f"--dealer: in {rules.name} the soloist leads the first trick, "
                              f"so who dealt does not change the odds")
    seat = parse_seat(dealer, rules.players, "--dealer", own=True) if dealer else None
    if trump.strip().lower() != "auto":
        raise SimulationError(f"--trump {trump}: in {rules.name} the soloist names trump "
                              f"after the widow; only --trump auto is accepted")
    options = {} if seat is None else {"dealer": seat}
    fields = {"trump_option": "auto", **dealer_field(rules, dealer)}
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
    record = provenance(rules, method="monte_carlo", seed=seed, deals=deals, policy=policy,
                        **sampling_fields(samples_per_move, policy),
                        hand=" ".join(result["hand"]), **checked.fields,
                        max_bid_positive_ev=result["max_bid_positive_ev"],
                        **knowledge.provenance(), **origin)
    rest = {k: v for k, v in result.items() if k != "rows"}
    return result, {"provenance": record, **rest, "rows": result["rows"].to_dicts()}
