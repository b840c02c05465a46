"""The odds of one hand: ``bid-odds`` (auction variants) and ``deal-odds`` (talon games)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from binokel_sim.cards import CardError
from binokel_sim.cli.base import (
    OddsFormat, OddsFormatOpt, PolicyOpt, RulesOpt, SamplesOpt, SeedOpt, ThreadsOpt,
    VariantOpt, app, domain_errors, err, out, print_frame, progress_bar, parse_trump,
    resolve_rules, source,
)
from binokel_sim.io import check_output, write_table
from binokel_sim.simulate import SimulationError
from binokel_sim.variants import Rules


@app.command("bid-odds")
def bid_odds_cmd(
    hand: Annotated[Optional[str], typer.Option(
        "--hand", help="The bid winner's cards: 20 in four-hand-80, 15 or 11 before the widow in "
                       "the widow games. Without --hand the variant's built-in example hand is "
                       "used.")] = None,
    variant: VariantOpt = "four-hand-80",
    rules_file: RulesOpt = None,
    deals: SamplesOpt = 200_000,
    seed: SeedOpt = 1,
    policy: PolicyOpt = "heuristic",
    trump: Annotated[str, typer.Option(
        "--trump", "-t", help="four-hand-80: auto (every suit with a marriage) or one suit S H D "
                              "C. In the widow games the soloist's policy names trump after "
                              "the widow, so only auto is accepted.")] = "auto",
    threads: ThreadsOpt = None,
    out_file: Annotated[Optional[Path], typer.Option(
        "--out", "-o", help="Write the bid rows to a .parquet, .csv, .json or .jsonl file, with "
                            "the seed, policy, deals and version in it.")] = None,
    fmt: OddsFormatOpt = OddsFormat.table,
) -> None:
    """For every bid on the ladder: how likely the bid is made and what bidding it is worth, from
    simulated play-outs. four-hand-80: for every trump the hand may name (the other 60 cards dealt
    at random, the bid winner leading, the same deals for every trump). Widow games
    (three-hand-auction-48, four-hand-widow-48): the unseen cards are dealt to the widow and the
    other seats, the soloist takes the widow, demands, buries, names trump and plays; also the
    exact widow analysis (every possible widow weighed) and how often each trump is chosen.

    Example: binokel-sim bid-odds --hand "AS AS TS KS KS QS QS JS AH TH KH QH AD KD QD JD JD AC TC KC" --deals 1000000 --seed 7

    Example: binokel-sim bid-odds --variant three-hand-auction-48 --hand "AS AS TS KS QS QS JS 9S AH KH QH AD JD KC QC" --format json
    """
    from binokel_sim.analysis import provenance
    from binokel_sim.bid_odds import bid_odds
    from binokel_sim.engines import TALON, WIDOW, engine_family
    from binokel_sim.hands import parse_hand

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        counts = parse_hand(hand if hand is not None else rules.example_hand, rules)
        if engine_family(rules) == TALON:
            raise SimulationError(f"variant {rules.name}: bid-odds needs an auction "
                                  f"(four-hand-80, the widow games); for a talon game's hand use "
                                  f"binokel-sim deal-odds")
        if engine_family(rules) == WIDOW:
            if trump.strip().lower() != "auto":
                raise SimulationError(f"--trump {trump}: in {rules.name} the soloist names trump "
                                      f"after the widow; only --trump auto is accepted")
            _widow_bid_odds(rules, counts, deals, seed, policy, threads, out_file, fmt,
                            source(rules_file))
            return
        trump_index = None if trump.strip().lower() == "auto" else parse_trump(trump)
        if out_file is not None:
            check_output(out_file)
        with progress_bar(deals, "playing") as progress:
            result = bid_odds(rules, counts, deals, seed, policy, trump_index, threads, progress)
        record = provenance(rules, method="monte_carlo", seed=seed, deals=deals, policy=policy,
                            **source(rules_file))
        if out_file is not None:
            write_table(result["rows"], out_file, record)
    summary = {k: result[k] for k in ("hand", "has_marriage", "recommended_trump",
                                      "max_bid_positive_ev")}
    if fmt is OddsFormat.json:
        print(json.dumps({"provenance": record, **summary, "by_trump": result["by_trump"],
                          "rows": result["rows"].to_dicts()}, indent=2))
        return
    out.print(f"{rules.name}: {' '.join(result['hand'])}", highlight=False)
    if not result["has_marriage"]:
        out.print("This hand holds no marriage: it may not name trump, and every bid is lost.")
    for suit, info in result["by_trump"].items():
        out.print(f"trump {suit}: pair meld >= {rules.min_meld} in {info['p_meld_20']:.1%}, mean "
                  f"pair meld {info['mean_pair_meld']:.1f}, mean pair play "
                  f"{info['mean_pair_play']:.1f}", highlight=False)
    print_frame(result["rows"], record, "{:.4f}")
    if result["recommended_trump"] is not None:
        top = result["max_bid_positive_ev"]
        out.print(f"recommended trump: {result['recommended_trump']}; highest bid with positive "
                  f"expected score: {top if top is not None else 'none'}")


def _widow_bid_odds(rules: Rules, counts, deals: int, seed: int, policy: str,
                    threads: Optional[int], out_file: Optional[Path], fmt: OddsFormat,
                    origin: dict) -> None:
    """bid-odds for the widow games (inside :func:`domain_errors`)."""
    from binokel_sim.analysis import provenance
    from binokel_sim.widow_odds import widow_bid_odds

    if out_file is not None:
        check_output(out_file)
    with progress_bar(deals, "playing") as progress:
        result = widow_bid_odds(rules, counts, deals, seed, policy, threads, progress)
    record = provenance(rules, method="monte_carlo", seed=seed, deals=deals, policy=policy,
                        **origin)
    if out_file is not None:
        write_table(result["rows"], out_file, record)
    rest = {k: v for k, v in result.items() if k != "rows"}
    if fmt is OddsFormat.json:
        print(json.dumps({"provenance": record, **rest, "rows": result["rows"].to_dicts()},
                         indent=2))
        return
    widow = result["widow"]
    out.print(f"{rules.name}: {' '.join(result['hand'])}", highlight=False)
    out.print(f"the widow (exact, {widow['widows']:,} widows): best meld {widow['own_best_meld']} "
              f"before it, {widow['mean_best_meld']:.1f} on average after it; it raises the best "
              f"meld in {widow['p_improves']:.1%}", highlight=False)
    chosen = ", ".join(f"{s} {p:.1%}" for s, p in result["trump_chosen"].items())
    out.print(f"trump chosen: {chosen}; mean meld after the widow "
              f"{result['mean_meld_after_widow']:.1f}; all tricks (+1000) in "
              f"{result['p_bonus']:.2%}", highlight=False)
    print_frame(result["rows"], record, "{:.4f}")
    top = result["max_bid_positive_ev"]
    out.print(f"highest bid with positive expected score: {top if top is not None else 'none'}",
              highlight=False)



@app.command("deal-odds")
def deal_odds_cmd(
    hand: Annotated[Optional[str], typer.Option(
        "--hand", help="Your 12 cards. Without --hand the variant's built-in example hand is "
                       "used.")] = None,
    turned: Annotated[Optional[str], typer.Option(
        "--turned", help="The turned card (its suit is trump), e.g. 9H. Without --turned the "
                         "variant's example turned card is used.")] = None,
    seat: Annotated[str, typer.Option(
        "--seat", help="dealer (you dealt: a turned 9 scores 10 for you) or elder (left of the "
                       "dealer: you lead the first trick).")] = "elder",
    variant: VariantOpt = "two-hand-48",
    rules_file: RulesOpt = None,
    deals: SamplesOpt = 200_000,
    seed: SeedOpt = 1,
    policy: PolicyOpt = "heuristic",
    threads: ThreadsOpt = None,
    out_file: Annotated[Optional[Path], typer.Option(
        "--out", "-o", help="Write the result to a .json file, with the seed, policy, deals and "
                            "version in it.")] = None,
    fmt: OddsFormatOpt = OddsFormat.table,
) -> None:
    """What a talon-game hand is worth in one deal: the unseen cards are dealt at random around
    your hand and the turned card, and every deal is played out. Reports your mean score, card
    points and declared melds and the opponents', the chance to out-score every opponent, score
    quantiles and the hand's static meld value.

    Example: binokel-sim deal-odds --variant two-hand-48 --hand "AS TS KS QS QS JS 9S KH QH AD JD AC" --turned 9H --seat dealer
    """
    from binokel_sim.analysis import provenance
    from binokel_sim.cards import parse_card
    from binokel_sim.deal_odds import deal_odds
    from binokel_sim.hands import parse_hand
    from binokel_sim.io import write_text
    from binokel_sim.engines import TALON, engine_family
    from binokel_sim.talon_games import check_talon

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        if engine_family(rules) != TALON:
            raise SimulationError(f"variant {rules.name}: deal-odds is for the talon games "
                                  f"(two-hand-48, three-hand-72, four-hand-72); for a hand that "
                                  f"bids use binokel-sim bid-odds")
        check_talon(rules)
        counts = parse_hand(hand if hand is not None else rules.example_hand, rules)
        turned_text = turned if turned is not None else rules.example_turned
        if not turned_text:
            raise CardError(f"give --turned: the {rules.name} rules have no example turned card")
        try:
            turned_counts = parse_hand(turned_text, rules, size=1)
        except CardError as exc:
            raise CardError(f"--turned: {exc}".replace("the hand has", "it has")
                            .replace(f"a {rules.name} hand has 1", "give one card")) from None
        turned_type = parse_card(turned_text)
        if counts[turned_type] + turned_counts[turned_type] > rules.deck_counts()[turned_type]:
            raise CardError(f"the turned card {turned_text.strip()} is a copy your hand already "
                            f"holds all of")
        if out_file is not None:
            check_output(out_file, suffixes=(".json",))
        with progress_bar(deals, "playing") as progress:
            result = deal_odds(rules, counts, turned_type, seat, deals, seed, policy, threads,
                               progress)
        record = provenance(rules, method="monte_carlo", seed=seed, deals=deals, policy=policy,
                            **source(rules_file))
        document = {"provenance": record, **result}
        if out_file is not None:
            write_text(json.dumps(document, indent=2) + "\n", out_file)
    if fmt is OddsFormat.json:
        print(json.dumps(document, indent=2))
        return
    _print_deal_odds(result, record)
    if out_file is not None:
        err.print(f"wrote {out_file}")


def _print_deal_odds(result: dict, record: dict) -> None:
    out.print(f"{result['variant']}: {' '.join(result['hand'])}, turned {result['turned']} "
              f"(trump {result['trump']}), you are the {result['seat']}; static meld "
              f"{result['static_meld']}", highlight=False)
    table = Table(title=", ".join(f"{k} {v}" for k, v in record.items()), title_justify="left")
    for column in ("", "score", "card points", "declared melds"):
        table.add_column(column, justify="left" if not column else "right")

    def cell(key: str, i: int | None = None) -> str:
        mean, low, high = (result[key], result[f"{key}_ci_low"], result[f"{key}_ci_high"])
        if i is not None:
            mean, low, high = mean[i], low[i], high[i]
        return f"{mean:.1f} ({low:.1f}-{high:.1f})"

    table.add_row("you", cell("mean_score"), cell("mean_card_points"), cell("mean_meld"))
    opponents = result["mean_opponent_score"]
    for i in range(len(opponents) if isinstance(opponents, list) else 1):
        j = i if isinstance(opponents, list) else None
        table.add_row(f"opponent {i + 1}" if j is not None else "opponent",
                      cell("mean_opponent_score", j), cell("mean_opponent_card_points", j),
                      cell("mean_opponent_meld", j))
    out.print(table)
    q = result["quantiles"]
    out.print(f"P(out-score every opponent) = {result['p_win']:.4f} (95% interval "
              f"{result['p_win_ci_low']:.4f} to {result['p_win_ci_high']:.4f}); your score: 10% "
              f"{q['10']:.0f}, median {q['50']:.0f}, 90% {q['90']:.0f}", highlight=False)

