"""``report``: a hand's odds as PNG figures with a report.md that lists them
(:mod:`binokel_sim.report`)."""

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Optional

import typer

from binokel_sim.cli.base import (
    DefaultPolicyOpt,
    RulesOpt,
    SamplesOpt,
    SeedOpt,
    ThreadsOpt,
    VariantOpt,
    check_duration,
    clamp_threads,
    command,
    domain_errors,
    example_hand_note,
    given,
    progress_bar,
    read_hands_file,
    refuse_sampling,
    resolve_rules,
    source,
    warn_few,
    wrote,
)
from binokel_sim.errors import CardError, SimulationError


@command("report")
def report_cmd(
    out_dir: Annotated[Path, typer.Option(
        "--out", "-o", metavar="DIR",
        help="The folder for the figures and report.md (made if missing).")],
    hand: Annotated[Optional[str], typer.Option(
        "--hand", metavar="CARDS",
        help="The hand (default: the variant's example hand).")] = None,
    hands_file: Annotated[Optional[Path], typer.Option(
        "--hands-file", metavar="FILE",
        help="Figures for every hand of a file (hand i: seed S + i).")] = None,
    turned: Annotated[Optional[str], typer.Option(
        "--turned", metavar="CARD",
        help="Talon games: the turned card, e.g. 9H; needed with --hand.")] = None,
    seat: Annotated[str, typer.Option(
        "--seat", help="Talon games: dealer or elder (as in deal-odds).")] = "elder",
    variant: VariantOpt = "four-hand-80",
    rules_file: RulesOpt = None,
    deals: SamplesOpt = 200_000,
    seed: SeedOpt = 1,
    policy: DefaultPolicyOpt = None,
    threads: ThreadsOpt = None,
) -> None:
    """PNG figures of a hand's odds, and a report.md that lists them with their provenance
    (variant, hand, seed, deals, policy, version): the bid curve, the deal's score, the melds.
    Needs pip install "binokel-sim\\[plot]". What each figure shows: docs/commands.md.

    Example: binokel-sim report --deals 200000 --seed 1 --out report-four-hand-80
    Example: binokel-sim report -v two-hand-48 --turned 9H -o report-two-hand-48
    """
    from binokel_sim import report as rp
    from binokel_sim.engines.policies import default_policy
    from binokel_sim.families import engine_family
    from binokel_sim.hands import parse_hand
    from binokel_sim.odds import family_odds
    from binokel_sim.run_time import MELD_HANDS_PER_S, Work, odds_sample_seconds

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        policy = policy if policy is not None else default_policy(rules)
        refuse_sampling(policy, "report")
        family = engine_family(rules)
        view, hand_odds = rp.view_of(family), family_odds(rules)
        if hand is not None and hands_file is not None:
            raise CardError("give --hand or --hands-file, not both")
        if not view.TURNED_CARD:
            for option in ("turned", "seat"):
                if given(option):
                    raise SimulationError(f"--{option} is for the talon games (two-hand-48, "
                                          f"three-hand-72, four-hand-72); {rules.name} has no "
                                          f"turned card")
        else:
            hand_odds.check_seat(seat)
        if hands_file is not None:
            inputs = [(i, where, text) for i, (where, text) in
                      enumerate(read_hands_file(hands_file))]
        else:
            inputs = [(None, None, hand if hand is not None else rules.example_hand)]
        parsed = []
        for index, where, text in inputs:
            try:
                counts = parse_hand(text, rules)
                hand_given = hand is not None or where is not None
                turned_type = (hand_odds.turned_card(rules, counts, turned, hand_given=hand_given)
                               if view.TURNED_CARD else None)
            except CardError as exc:
                raise CardError(f"{where}: {exc}" if where else str(exc)) from None
            parsed.append((index, where, counts, turned_type))
        threads = clamp_threads(threads)
        out_dir = rp.check_out_dir(out_dir)
        rp.require_matplotlib()
        check_duration(Work(deals, "--deals", len(parsed) * odds_sample_seconds(rules, policy)
                            + 1 / MELD_HANDS_PER_S), threads)

        hands = []
        with progress_bar(deals * len(parsed), "playing") as progress:
            for k, (index, where, counts, turned_type) in enumerate(parsed):
                odds = view.odds(rules, counts, deals, seed + k, policy, turned_type, seat,
                                 threads, _offset(progress, k * deals, len(parsed) * deals))
                hands.append(rp.HandReport(
                    hand=odds["hand"], seed=seed + k, odds=odds, index=index, where=where,
                    turned=odds.get("turned"), seat=odds.get("seat")))
        warn_few(deals)
        for h in hands:
            h.figures = rp.hand_figures(rules, h, deals, policy)
        marks = [] if not view.MARKS_MELD else [
            ("your hand" if h.index is None else f"hand {h.index}", rp.hand_meld(rules, c))
            for h, (_, _, c, _) in zip(hands, parsed)]
        record = _provenance(rules, hands, hands_file, deals, seed, policy, source(rules_file))
        report = rp.Report(rules, family, record, hands,
                           rp.variant_figures(rules, deals, seed, marks, threads))
        written = rp.write_report(report, out_dir)
    if view.TURNED_CARD and hand is None and hands_file is None:
        example_hand_note(rules, parsed[0][2], turned)  # after the run: an error stays alone
    wrote(written[0].parent, f"/{written[0].name} and {len(written) - 1} figures")


def _offset(progress: Optional[Callable[[int, int], None]], done_before: int, total: int
            ) -> Optional[Callable[[int, int], None]]:
    """One run's progress callback as a part of the whole report's."""
    if progress is None:
        return None
    return lambda done, _total: progress(done_before + done, total)


def _provenance(rules, hands, hands_file: Optional[Path], deals: int, seed: int, policy: str,
                origin: dict) -> dict:
    """report.md's provenance table."""
    from binokel_sim import __version__
    from binokel_sim.odds.summary import dealer_field

    record = {"variant": rules.name}
    if hands_file is None:
        record["hand"] = " ".join(hands[0].hand)
    else:
        record["hands file"] = str(hands_file)
        record["hands"] = len(hands)
    if hands[0].turned is not None:
        record["turned card"] = hands[0].turned
        record["seat"] = hands[0].seat
    if hands_file is None:
        record["seed"] = seed
    else:
        record["seeds"] = f"{seed} to {seed + len(hands) - 1} (hand i: seed {seed} + i)"
    record.update({"deals": f"{deals:,}", "policy": policy, **dealer_field(rules),
                   "version": f"binokel-sim {__version__}"})
    record.update({k.replace("_", " "): v for k, v in origin.items()})
    return record
