"""The odds of one hand: ``bid-odds`` (auction variants) and ``deal-odds`` (talon games)."""

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from binokel_sim.cli.base import (
    KnownOpt,
    OddsFormat,
    OddsFormatOpt,
    PolicyOpt,
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
    check_out,
    clamp_threads,
    command,
    deliver,
    domain_errors,
    example_hand_note,
    out,
    parse_trump,
    print_json,
    progress_bar,
    progress_threshold,
    resolve_rules,
    samples_per_move_for,
    sampling_provenance,
    source,
    talon_turned,
    warn,
    warn_few,
    wrote,
)
from binokel_sim.cli.render import (
    Column,
    percent,
    percent_interval,
    plus_minus,
    points,
    provenance_line,
)
from binokel_sim.cli.render import table as render_table
from binokel_sim.errors import SimulationError
from binokel_sim.io import check_output

if TYPE_CHECKING:
    from binokel_sim.variants import Rules

LANDMARKS = (0.9, 0.75, 0.5, 0.25, 0.1)  # p_make levels whose crossing the default ladder shows
AROUND = 2  # bids shown on each side of the highest bid with a positive expected score


def interesting_bids(rows: list[dict]) -> list[int]:
    """The bids the default ladder shows: the minimum bid; per trump, the first bid at or below
    each of :data:`LANDMARKS` of p_make; and the bids around the highest one with a positive
    expected score."""
    bids = sorted({r["bid"] for r in rows})
    shown = {bids[0]}
    for trump in dict.fromkeys(r.get("trump") for r in rows):
        own = [r for r in rows if r.get("trump") == trump]
        for level in LANDMARKS:
            below = [r["bid"] for r in own if r["p_make"] <= level]
            if below:
                shown.add(below[0])
        positive = [r["bid"] for r in own if r["expected_score"] > 0]
        if positive:
            k = bids.index(max(positive))
            shown.update(bids[max(k - AROUND, 0):k + AROUND + 1])
    return sorted(shown)


def ladder_note(shown: int, total: int) -> None:
    if shown < total:
        out.print(f"{shown} of {total} bids shown: the minimum bid, where p_make falls below "
                  f"{', '.join(f'{p:.0%}' for p in LANDMARKS)}, and around the highest bid "
                  f"with a positive expected score; --full shows every row", highlight=False)


@command("bid-odds")
def bid_odds_cmd(
    hand: Annotated[Optional[str], typer.Option(
        "--hand", metavar="CARDS",
        help="The bid winner's cards (default: the variant's example hand).")] = None,
    variant: VariantOpt = "four-hand-80",
    rules_file: RulesOpt = None,
    deals: SamplesOpt = 200_000,
    seed: SeedOpt = 1,
    policy: PolicyOpt = "heuristic",
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
        help="four-hand-80: the calls so far, e.g. \"50 pass 51\".")]
    = None,
    dealer: Annotated[Optional[str], typer.Option(
        "--dealer", metavar="SEAT",
        help="With --auction: who dealt: me, left, partner or right.")] = None,
    samples_per_move: SamplesPerMoveOpt = None,
) -> None:
    """How likely each bid is made and what it is worth, from simulated play-outs: per trump
    in four-hand-80; after the widow, with the exact widow analysis, in the widow games. The
    whole story and every option: docs/commands.md.

    Example: binokel-sim bid-odds --deals 1000000 --seed 7
    Example: binokel-sim bid-odds --trump H --full
    Example: binokel-sim bid-odds --known partner:"AS AS" --void left:H
    Example: binokel-sim bid-odds --auction "50 pass 51" --dealer right
    Example: binokel-sim bid-odds --policy sampling --samples-per-move 32 -n 200
    Example: binokel-sim bid-odds -v three-hand-auction-48 --format json
    """
    from binokel_sim.analysis import provenance
    from binokel_sim.backend import open_backend
    from binokel_sim.cards import SUITS
    from binokel_sim.constraints import parse_knowledge
    from binokel_sim.families import WIDOW, check_supports, engine_family
    from binokel_sim.games import marriage_trumps, sampler_inputs
    from binokel_sim.odds import bid_odds
    from binokel_sim.hands import parse_hand

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        check_supports(rules, "bid-odds")
        counts = parse_hand(hand if hand is not None else rules.example_hand, rules)
        threads = clamp_threads(threads)
        check_out(out_file, fmt)
        knowledge = parse_knowledge(rules, counts, known or [], void or [])
        sampler_inputs(rules, counts, knowledge)  # an impossible combination fails before work
        bounds = _auction_bounds(rules, auction, dealer)
        samples_per_move = samples_per_move_for(samples_per_move, policy)
        if engine_family(rules) == WIDOW:
            if trump.strip().lower() != "auto":
                raise SimulationError(f"--trump {trump}: in {rules.name} the soloist names trump "
                                      f"after the widow; only --trump auto is accepted")
            _widow_bid_odds(rules, counts, deals, seed, policy, threads, out_file, fmt, full,
                            source(rules_file), workers, scheduler, knowledge, samples_per_move)
            return
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
                            **source(rules_file))
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
    (None without them); either one alone, or --auction outside four-hand-80, is an error."""
    from binokel_sim.bidding import auction_bounds, parse_auction
    from binokel_sim.constants import NO_BID
    from binokel_sim.constraints import parse_seat
    from binokel_sim.families import PARTNERSHIP, engine_family

    if auction is None and dealer is None:
        return None
    if engine_family(rules) != PARTNERSHIP:
        raise SimulationError(f"--auction and --dealer: variant {rules.name} has no "
                              f"partnership auction to condition on (four-hand-80 only)")
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


def _widow_bid_odds(rules: "Rules", counts, deals: int, seed: int, policy: str,
                    threads: Optional[int], out_file: Optional[Path], fmt: RowsFormat,
                    full: bool, origin: dict, workers: Optional[int],
                    scheduler: Optional[str], knowledge,
                    samples_per_move: Optional[int]) -> None:
    """bid-odds for the widow games (inside :func:`domain_errors`)."""
    from binokel_sim.analysis import provenance
    from binokel_sim.backend import open_backend
    from binokel_sim.odds import bid_odds

    with open_backend(workers, scheduler, threads) as backend, \
            progress_bar(deals, "playing", progress_threshold(policy)) as progress:
        result = bid_odds(rules, counts, deals, seed, policy, threads=threads, progress=progress,
                          backend=backend, knowledge=knowledge,
                          samples_per_move=samples_per_move)
    warn_few(deals)
    record = provenance(rules, method="monte_carlo", seed=seed, deals=deals, policy=policy,
                        **sampling_provenance(samples_per_move, policy),
                        hand=" ".join(result["hand"]), trump_option="auto",
                        max_bid_positive_ev=result["max_bid_positive_ev"],
                        **knowledge.provenance(), **origin)
    rest = {k: v for k, v in result.items() if k != "rows"}
    document = {"provenance": record, **rest, "rows": result["rows"].to_dicts()}
    if deliver(result["rows"], out_file, record, fmt, document):
        return
    widow = result["widow"]
    out.print(f"{rules.name}: {' '.join(result['hand'])}", highlight=False)
    out.print(provenance_line(record, skip=("hand", "max_bid_positive_ev")), highlight=False)
    # two different meld figures (docs/commands.md, "bid-odds"): the exact best meld of hand +
    # widow (widow.mean_best_meld) and the simulated meld the soloist keeps after the demand
    # and burying with the trump he names (mean_meld_after_widow)
    out.print(f"the widow (exact, {widow['widows']:,} widows): best meld {widow['own_best_meld']} "
              f"before it; hand + widow, best trump, before the demand and burying: "
              f"{widow['mean_best_meld']:.1f} on average; it raises the best meld in "
              f"{percent(widow['p_improves'])}", highlight=False)
    chosen = ", ".join(f"{s} {percent(p)}" for s, p in result["trump_chosen"].items())
    out.print(f"trump chosen: {chosen}; meld kept after the demand and burying, with that trump "
              f"(simulated): {result['mean_meld_after_widow']:.1f} on average; all tricks "
              f"(+1000) in {percent(result['p_bonus'])}", highlight=False)
    rows = result["rows"].to_dicts()
    bids = [r["bid"] for r in rows] if full else interesting_bids(rows)
    out.print(render_table([{**r, "ci": (r["ci_low"], r["ci_high"])} for r in rows
                            if r["bid"] in bids], [
        Column("bid", "bid"), Column("p_make", "p_make", percent),
        Column("ci", "95% interval", lambda b: percent_interval(*b)),
        Column("expected_score", "expected score", points),
    ]))
    if not full:
        ladder_note(len(bids), len(rows))
    top = result["max_bid_positive_ev"]
    out.print(f"highest bid with positive expected score: {top if top is not None else 'none'}",
              highlight=False)


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
    policy: PolicyOpt = "heuristic",
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
) -> None:
    """What a talon-game hand is worth in one deal, from play-outs of the unseen cards: your
    mean score, card points and melds and the opponents', P(out-scoring every opponent) and
    score quantiles. Your own hand needs its turned card: --hand "AS TS KS ..." --turned 9H.
    More: docs/commands.md.

    Example: binokel-sim deal-odds --turned 9S --seat dealer
    Example: binokel-sim deal-odds --format json
    Example: binokel-sim deal-odds --known other:"AH AH" --void other:S
    """
    from binokel_sim.analysis import provenance
    from binokel_sim.backend import open_backend
    from binokel_sim.constraints import parse_knowledge
    from binokel_sim.odds import deal_odds
    from binokel_sim.families import check_supports
    from binokel_sim.hands import parse_hand
    from binokel_sim.io import is_stdout, write_text
    from binokel_sim.talon_games import check_talon, talon_sampler_inputs

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        check_supports(rules, "deal-odds")
        check_talon(rules)
        counts = parse_hand(hand if hand is not None else rules.example_hand, rules)
        turned_type = talon_turned(rules, counts, hand is not None, turned)
        seen = counts.copy()
        seen[turned_type] += 1  # the turned card is no other seat's
        knowledge = parse_knowledge(rules, seen, known or [], void or [])
        talon_sampler_inputs(rules, counts, turned_type, knowledge)  # impossible: fail now
        threads = clamp_threads(threads)
        samples_per_move = samples_per_move_for(samples_per_move, policy)
        if out_file is not None:
            check_output(out_file, suffixes=(".json",))
        with open_backend(workers, scheduler, threads) as backend, \
                progress_bar(deals, "playing", progress_threshold(policy)) as progress:
            result = deal_odds(rules, counts, turned_type, seat, deals, seed, policy,
                               threads=threads, progress=progress, backend=backend,
                               knowledge=knowledge, samples_per_move=samples_per_move)
        warn_few(deals)
        if hand is None:  # after the run: a bad option stays the only line
            example_hand_note(rules, counts, turned)
        record = provenance(rules, method="monte_carlo", seed=seed, deals=deals, policy=policy,
                            **sampling_provenance(samples_per_move, policy),
                            **knowledge.provenance(), **source(rules_file))
        document = {"provenance": record, **result}
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
