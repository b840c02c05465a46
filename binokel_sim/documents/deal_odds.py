"""``deal-odds``' document (the talon games): what a hand is worth in one deal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from binokel_sim.documents import sampling_fields

if TYPE_CHECKING:
    from binokel_sim.constraints import Knowledge
    from binokel_sim.variants import Rules


def own_options(rules: "Rules") -> tuple[str, ...]:
    """The options of its own ``deal-odds`` reads (the page shows a field for each): the turned
    card and the seat."""
    return ("turned", "seat")


def check(rules: "Rules", counts, *, turned: Optional[str], hand_given: bool, seat: str,
          known: list[str], void: list[str]) -> tuple[int, "Knowledge"]:
    """The options of a talon-game hand ``counts``, checked before any work: the turned card
    (the family's ``turned_card``, :func:`binokel_sim.odds.talon.turned_card`), the seat and
    what is known of the other hands, which must leave a possible deal. Returns the turned
    card's type and the knowledge."""
    from binokel_sim.constraints import parse_knowledge
    from binokel_sim.engines import engine
    from binokel_sim.families import check_supports
    from binokel_sim.odds import family_odds

    check_supports(rules, "deal-odds")
    drivers, odds = engine(rules), family_odds(rules)
    drivers.check(rules)
    turned_type = odds.turned_card(rules, counts, turned, hand_given=hand_given)
    odds.check_seat(seat)
    seen = counts.copy()
    seen[turned_type] += 1  # the turned card is no other seat's
    knowledge = parse_knowledge(rules, seen, known, void)
    drivers.sampler_inputs(rules, counts, knowledge, turned=turned_type)  # impossible: now
    return turned_type, knowledge


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
