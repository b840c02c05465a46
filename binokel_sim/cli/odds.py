"""The odds of one hand: ``bid-odds`` (auction variants) and ``deal-odds`` (talon games)."""

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from binokel_sim.cli.base import (
    CardNotation,
    CardsOpt,
    DefaultPolicyOpt,
    KnownOpt,
    OddsFormat,
    OddsFormatOpt,
    RowsFormat,
    RowsFormatOpt,
    RulesOpt,
    SamplesOpt,
    SamplesPerMoveOpt,
    SchedulerOpt,
    SeedOpt,
    ThreadsOpt,
    VariantOpt,
    VoidOpt,
    WorkersOpt,
    cards_provenance,
    check_duration,
    check_out,
    clamp_threads,
    command,
    domain_errors,
    example_hand_note,
    out,
    print_json,
    progress_bar,
    progress_threshold,
    resolve_rules,
    samples_per_move_for,
    shown_cards,
    source,
    warn_few,
    wrote,
)
from binokel_sim.cli.render import (
    Column,
    percent,
    percent_interval,
    plus_minus,
    provenance_line,
)
from binokel_sim.cli.render import table as render_table
from binokel_sim.io import check_output


@command("bid-odds")
def bid_odds_cmd(
    hand: Annotated[Optional[str], typer.Option(
        "--hand", metavar="CARDS",
        help="Your cards (default: example hand).")] = None,
    variant: VariantOpt = "four-hand-80",
    rules_file: RulesOpt = None,
    deals: SamplesOpt = 200_000,
    seed: SeedOpt = 1,
    policy: DefaultPolicyOpt = None,
    trump: Annotated[str, typer.Option(
        "--trump", "-t", metavar="SUIT",
        help="auto (every suit with a marriage) or S H D C (four-hand-80).")] = "auto",
    threads: ThreadsOpt = None,
    full: Annotated[bool, typer.Option(
        "--full", help="Show every bid.")] = False,
    out_file: Annotated[Optional[Path], typer.Option(
        "--out", "-o", metavar="FILE",
        help="Write the bid rows (.parquet .csv .json .jsonl; - stdout).")] = None,
    fmt: RowsFormatOpt = RowsFormat.table,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    known: KnownOpt = None,
    void: VoidOpt = None,
    auction: Annotated[Optional[str], typer.Option(
        "--auction", metavar="CALLS",
        help="The calls so far, e.g. \"50 pass 51\" (order = \"skat\": "
             "\"150 hold 160 pass\").")]
    = None,
    dealer: Annotated[Optional[str], typer.Option(
        "--dealer", metavar="SEAT",
        help="Who dealt: me, left, partner, right (orders --auction; decides who "
             "leads where Vorhand leads).")] = None,
    samples_per_move: SamplesPerMoveOpt = None,
    bid: Annotated[Optional[int], typer.Option(
        "--bid", metavar="N", show_default=False,
        help="The odds of exactly this bid too.")]
    = None,
    cards: CardsOpt = CardNotation.french,
) -> None:
    """How likely each bid is made and what it is worth, from simulated play-outs: per trump
    in four-hand-80; after the widow, with the exact widow analysis, in the widow games. The
    whole story and every option: docs/commands.md.

    Example: binokel-sim bid-odds --deals 1000000 --seed 7
    Example: binokel-sim bid-odds --trump H --full --bid 120
    Example: binokel-sim bid-odds --known partner:"AS AS" --void left:H
    Example: binokel-sim bid-odds --auction "50 pass 51" --dealer right
    Example: binokel-sim bid-odds --policy sampling --samples-per-move 32 -n 200
    Example: binokel-sim bid-odds -v binokel --auction "150 weg" --dealer right
    """
    from binokel_sim.cli.bid_odds import family_view
    from binokel_sim.documents.bid_odds import knowledge_of
    from binokel_sim.engines.policies import default_policy
    from binokel_sim.families import check_supports
    from binokel_sim.hands import parse_hand
    from binokel_sim.run_time import Work, odds_sample_seconds

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        policy = policy if policy is not None else default_policy(rules)
        check_supports(rules, "bid-odds")
        counts = parse_hand(hand if hand is not None else rules.example_hand, rules)
        threads = clamp_threads(threads)
        check_out(out_file, fmt)
        knowledge = knowledge_of(rules, counts, known or [], void or [])
        samples_per_move = samples_per_move_for(samples_per_move, policy)
        check_duration(Work(deals, "--deals", odds_sample_seconds(rules, policy,
                                                                  samples_per_move)),
                       threads, scheduler)
        family_view(rules).bid_odds(
            rules, counts, deals=deals, seed=seed, policy=policy, trump=trump, threads=threads,
            full=full, out_file=out_file, fmt=fmt, workers=workers, scheduler=scheduler,
            knowledge=knowledge, auction=auction, dealer=dealer,
            samples_per_move=samples_per_move,
            origin={**source(rules_file), **cards_provenance(cards)}, bid=bid,
            cards=shown_cards(cards))


@command("deal-odds")
def deal_odds_cmd(
    hand: Annotated[Optional[str], typer.Option(
        "--hand", metavar="CARDS",
        help="Your cards (default: the example hand, with its turned card).")] = None,
    turned: Annotated[Optional[str], typer.Option(
        "--turned", metavar="CARD",
        help="The turned card (its suit is trump), e.g. 9H; needed with --hand.")] = None,
    seat: Annotated[str, typer.Option(
        "--seat", help="dealer (you dealt) or elder (you lead the first trick).")] = "elder",
    variant: VariantOpt = "two-hand-48",
    rules_file: RulesOpt = None,
    deals: SamplesOpt = 200_000,
    seed: SeedOpt = 1,
    policy: DefaultPolicyOpt = None,
    threads: ThreadsOpt = None,
    out_file: Annotated[Optional[Path], typer.Option(
        "--out", "-o", metavar="FILE",
        help="Write the result with its provenance to a .json file (- stdout).")] = None,
    fmt: OddsFormatOpt = OddsFormat.table,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    known: KnownOpt = None,
    void: VoidOpt = None,
    samples_per_move: SamplesPerMoveOpt = None,
    cards: CardsOpt = CardNotation.french,
) -> None:
    """What a talon-game hand is worth in one deal, from play-outs of the unseen cards: your
    mean score, card points and melds and the opponents', P(out-scoring every opponent) and
    score quantiles. Your own hand needs its turned card: --hand "AS TS KS ..." --turned 9H.
    More: docs/commands.md.

    Example: binokel-sim deal-odds --turned 9S --seat dealer
    Example: binokel-sim deal-odds --format json
    Example: binokel-sim deal-odds --known other:"AH AH" --void other:S
    Example: binokel-sim deal-odds --cards german --format json
    """
    from binokel_sim.backend import open_backend
    from binokel_sim.cards import shown_document
    from binokel_sim.documents.deal_odds import check as check_deal_odds
    from binokel_sim.documents.deal_odds import document as deal_odds_document
    from binokel_sim.engines import engine
    from binokel_sim.engines.policies import default_policy
    from binokel_sim.families import check_supports
    from binokel_sim.hands import parse_hand
    from binokel_sim.io import is_stdout, write_text
    from binokel_sim.run_time import Work, odds_sample_seconds

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        policy = policy if policy is not None else default_policy(rules)
        check_supports(rules, "deal-odds")
        engine(rules).check(rules)
        counts = parse_hand(hand if hand is not None else rules.example_hand, rules)
        turned_type, knowledge = check_deal_odds(
            rules, counts, turned=turned, hand_given=hand is not None, seat=seat,
            known=known or [], void=void or [])
        threads = clamp_threads(threads)
        samples_per_move = samples_per_move_for(samples_per_move, policy)
        if out_file is not None:
            check_output(out_file, suffixes=(".json",))
        check_duration(Work(deals, "--deals", odds_sample_seconds(rules, policy,
                                                                  samples_per_move)),
                       threads, scheduler)
        with open_backend(workers, scheduler, threads) as backend, \
                progress_bar(deals, "playing", progress_threshold(policy)) as progress:
            result, document = deal_odds_document(
                rules, counts, turned_type, seat, deals=deals, seed=seed, policy=policy,
                threads=threads, knowledge=knowledge, samples_per_move=samples_per_move,
                origin={**source(rules_file), **cards_provenance(cards)}, progress=progress,
                backend=backend)
        shown = shown_cards(cards)
        result, document = shown_document(result, shown), shown_document(document, shown)
        warn_few(deals)
        if hand is None:  # after the run: a bad option stays the only line
            example_hand_note(rules, counts, turned)
        record = document["provenance"]
        if out_file is not None:
            write_text(json.dumps(document, indent=2) + "\n", out_file)
            if is_stdout(out_file):
                return
            wrote(out_file)
    if fmt is OddsFormat.json:
        print_json(document)
        return
    _print_deal_odds(result, record)


def _print_deal_odds(result: dict, record: dict) -> None:
    out.print(f"{result['variant']}: {' '.join(result['hand'])}, turned {result['turned']} "
              f"(trump {result['trump']}), you are the {result['seat']}; static meld "
              f"{result['static_meld']}", highlight=False)
    out.print(provenance_line(record), highlight=False)

    def figures(who: str, suffix: str, i: int | None = None) -> dict:
        row = {"who": who}
        for key in ("score", "card_points", "meld"):
            name = f"mean_{suffix}{key}"
            mean, low, high = result[name], result[f"{name}_ci_low"], result[f"{name}_ci_high"]
            if i is not None:
                mean, low, high = mean[i], low[i], high[i]
            row[key] = (mean, low, high)
        return row

    rows = [figures("you", "")]
    opponents = result["mean_opponent_score"]
    if isinstance(opponents, list):
        rows += [figures(f"opponent {i + 1}", "opponent_", i) for i in range(len(opponents))]
    else:
        rows.append(figures("opponent", "opponent_"))
    columns = [Column("who", "", numeric=False)]
    for key, header in (("score", "score"), ("card_points", "card points"),
                        ("meld", "declared melds")):
        columns.append(Column(key, header, lambda m: plus_minus(*m)))
    out.print(render_table(rows, columns))
    out.print("means with the half-width of their 95% intervals", highlight=False)
    q = result["quantiles"]
    out.print(f"P(out-score every opponent) = {percent(result['p_win'])} (95% interval "
              f"{percent_interval(result['p_win_ci_low'], result['p_win_ci_high'])}); your score: "
              f"10% {q['10']:.0f}, median {q['50']:.0f}, 90% {q['90']:.0f}", highlight=False)
