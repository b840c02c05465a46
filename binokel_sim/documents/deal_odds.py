"""``deal-odds``' document (the talon games): what a hand is worth in one deal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from binokel_sim.documents import sampling_fields

if TYPE_CHECKING:
    from binokel_sim.constraints import Knowledge
    from binokel_sim.variants import Rules


def document(rules: "Rules", counts, turned: int, seat: str, *, deals: int, seed: int,
             policy: str, threads: Optional[int], knowledge: "Knowledge",
             samples_per_move: Optional[int], origin: dict, progress=None, backend=None
             ) -> tuple[dict, dict]:
    """Run the odds of ``counts`` with the turned card ``turned`` (a card type) from ``seat``
    (dealer or elder) and build the document: provenance, then the result's fields."""
    from binokel_sim.analysis import provenance
    from binokel_sim.odds import deal_odds

    result = deal_odds(rules, counts, turned, seat, deals, seed, policy, threads=threads,
                       progress=progress, backend=backend, knowledge=knowledge,
                       samples_per_move=samples_per_move)
    record = provenance(rules, method="monte_carlo", seed=seed, deals=deals, policy=policy,
                        **sampling_fields(samples_per_move, policy),
                        **knowledge.provenance(), **origin)
    return result, {"provenance": record, **result}
