"""``calibrate``: do the bid odds come true? A reliability table, the Brier score and the ECE."""

from pathlib import Path
from typing import Annotated, Optional

import typer

from binokel_sim.cli.base import (
    DefaultPolicyOpt,
    OddsFormat,
    OddsFormatOpt,
    RulesOpt,
    SamplesPerMoveOpt,
    SeedOpt,
    ThreadsOpt,
    VariantOpt,
    cap_deals,
    check_duration,
    clamp_threads,
    command,
    domain_errors,
    out,
    print_json,
    progress_bar,
    resolve_rules,
    samples_per_move_for,
    sampling_provenance,
    source,
    warn,
    wrote,
)
from binokel_sim.cli.render import Column, integer, percent, percent_interval
from binokel_sim.cli.render import table as render_table

FIGURE = "reliability.png"
SUMMARY = "calibration.json"
EVENTS = "events.parquet"


@command()
def calibrate(
    variant: VariantOpt = "four-hand-80",
    rules_file: RulesOpt = None,
    deals: Annotated[int, typer.Option(
        "--deals", "-n", metavar="N", callback=lambda value: cap_deals(value),
        help="Whole deals: one forecast and one outcome each.")] = 2_000,
    samples: Annotated[int, typer.Option(
        "--samples", "-m", metavar="M", help="bid-odds samples per forecast.")] = 500,
    seed: SeedOpt = 1,
    policy: DefaultPolicyOpt = None,
    outcome_policy: Annotated[Optional[str], typer.Option(
        "--outcome-policy", metavar="POLICY",
        help="Play the counted deals with this policy instead.")] = None,
    given_auction: Annotated[bool, typer.Option(
        "--given-auction", help="Samples repeat the deal's auction (bidding games).")] = False,
    bins: Annotated[int, typer.Option("--bins", help="Equal-count bins of the reliability "
                                                      "table.")] = 10,
    samples_per_move: SamplesPerMoveOpt = None,
    threads: ThreadsOpt = None,
    fmt: OddsFormatOpt = OddsFormat.table,
    out_dir: Annotated[Optional[Path], typer.Option(
        "--out", "-o", metavar="DIR",
        help="A folder for the summary, the events and the diagram.")] = None,
) -> None:
    """How far the bid odds can be trusted. For each of --deals deals (dealt, bid by the bidding
    heuristic, played with --policy), the bid winner's forecast is bid-odds' p_make for his hand
    and the contract he bid (from --samples play-outs); the outcome is whether the contract was
    made. Reported: an equal-count reliability table (mean forecast, observed rate and its Wilson
    95% interval per bin), the Brier score with its decomposition, the Brier skill score against
    the base rate and the expected calibration error (ECE).

    Example: binokel-sim calibrate --deals 20000 --samples 500 --out calib
    Example: binokel-sim calibrate --deals 2000 --outcome-policy random -f json
    Example: binokel-sim calibrate --deals 2000 --given-auction
    Example: binokel-sim calibrate -n 200 --outcome-policy sampling
    """
    from binokel_sim.analysis import provenance
    from binokel_sim.calibrate import calibrate as run_calibrate
    from binokel_sim.calibrate import check_calibrate
    from binokel_sim.engines.policies import default_policy
    from binokel_sim.report import check_out_dir
    from binokel_sim.run_time import Work, odds_sample_seconds, playout_seconds

    with domain_errors():
        rules = resolve_rules(variant, rules_file)
        policy = policy if policy is not None else default_policy(rules)
        check_calibrate(rules, deals, samples, seed, bins)
        threads = clamp_threads(threads)
        samples_per_move = samples_per_move_for(samples_per_move, policy, outcome_policy or "")
        check_duration(Work(deals, "--deals", samples * odds_sample_seconds(
            rules, policy, samples_per_move) + playout_seconds(
            rules, (outcome_policy or policy,), samples_per_move)), threads)
        if out_dir is not None:
            check_out_dir(out_dir)
            figure = _matplotlib_present()
            if not figure:
                warn(f"matplotlib is not installed, so {FIGURE} is left out; pip install "
                     f"\"binokel-sim[plot]\" for the diagram")
        with progress_bar(deals, "calibrating", threshold=1) as progress:
            result = run_calibrate(rules, deals, samples, seed, policy, outcome_policy, bins,
                                   threads, progress, given_auction, samples_per_move)
        record = provenance(rules, seed=seed, deals=deals, samples=samples, policy=policy,
                            outcome_policy=result["outcome_policy"], bins=bins,
                            given_auction=given_auction,
                            **sampling_provenance(samples_per_move, policy,
                                                  result["outcome_policy"]),
                            **source(rules_file))
        summary = {k: v for k, v in result.items() if k != "events"}
        document = {"provenance": record, **summary}
        if out_dir is not None:
            _write(out_dir, rules, record, document, result, figure)
    if fmt is OddsFormat.json:
        print_json(document)
        return
    _print(rules, result)


def _matplotlib_present() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _write(out_dir: Path, rules, record: dict, document: dict, result: dict, figure: bool
           ) -> None:
    """The folder's files, written all or nothing (:func:`binokel_sim.report.publish`)."""
    import io
    import json

    import polars as pl

    from binokel_sim.io import with_provenance
    from binokel_sim.report import publish

    events = with_provenance(pl.DataFrame(result["events"]), record)
    buffer = io.BytesIO()
    events.write_parquet(buffer, metadata={"binokel_sim": json.dumps(record)})
    files = {SUMMARY: (json.dumps(document, indent=2) + "\n").encode(), EVENTS: buffer.getvalue()}
    if figure:
        from binokel_sim.calibration_figure import reliability_png

        forecasts = [e["p_make"] for e in result["events"] if e["p_make"] is not None]
        title = (f"{rules.name}: bid-odds p_make against contracts made, {len(forecasts):,} "
                 f"deals")
        given = ", given the auction" if result["given_auction"] else ""
        caption = (f"forecast: bid-odds from {result['samples']:,} samples ({result['policy']}"
                   f"{given}); outcome played by {result['outcome_policy']}; seed "
                   f"{result['seed']}; binokel-sim {record['version']}")
        files[FIGURE] = reliability_png(result, forecasts, title, caption)
    publish(out_dir, files)
    for name in files:
        wrote(out_dir / name)


def _print(rules, result: dict) -> None:
    rows = [{**b, "range": f"{percent(b['p_low'], 1)}–{percent(b['p_high'], 1)}",
             "interval": percent_interval(b["ci_low"], b["ci_high"], 1)}
            for b in result["bins"]]
    columns = [Column("n", "deals", integer), Column("range", "forecasts", numeric=False),
               Column("mean_predicted", "mean forecast", lambda p: percent(p, 1)),
               Column("observed", "made", lambda p: percent(p, 1)),
               Column("interval", "95% interval", numeric=False)]
    given = ", given the auction" if result["given_auction"] else ""
    title = (f"{rules.name}, {result['deals']:,} deals, seed {result['seed']}: bid-odds "
             f"({result['samples']:,} samples, {result['policy']}{given}) against play "
             f"({result['outcome_policy']})")
    out.print(render_table(rows, columns, title=title))
    skill = "undefined (every contract went the same way)" if result["brier_skill"] is None \
        else f"{result['brier_skill']:.3f}"
    out.print(f"Brier score {result['brier']:.4f} = reliability {result['reliability']:.4f} - "
              f"resolution {result['resolution']:.4f} + uncertainty {result['uncertainty']:.4f} "
              f"+ within bins {result['within_bin']:.4f}", highlight=False)
    out.print(f"Brier skill score against the base rate ({percent(result['base_rate'], 1)} made): "
              f"{skill}", highlight=False)
    out.print(f"expected calibration error (ECE): {result['ece']:.4f}", highlight=False)
    if result["given_auction"]:
        drawn = [e["draws"] for e in result["events"] if e["draws"] is not None]
        out.print(f"forecasts given the auction: {sum(drawn) / max(len(drawn), 1):,.0f} deals "
                  f"dealt per sample on average; {result['no_forecast']:,} deals without a "
                  f"forecast (some sample found no deal fitting their auction), left out",
                  highlight=False)
