"""``binokel-sim calibrate``: do the bid odds come true?

For ``deals`` independent whole deals (dealt, bid by the bidding heuristic and played with the
outcome policy, :func:`binokel_sim.records.stream.play_records`' engines), the bid winner's
forecast is what ``bid-odds`` says for his hand and the contract he bid: ``p_make`` at his bid, from
``samples`` play-outs of his hand with ``policy`` on every seat (four-hand-80: with the trump he
named; the widow games: before the widow, the trump chosen after it, as ``bid-odds`` does). The
outcome is whether the contract was made when the deal was played. The forecasts and outcomes go
to :mod:`binokel_sim.calibration` (reliability bins, Brier score, ECE).

By default the forecast ignores what the auction told the bidder about the other hands; with
``given_auction`` its samples are only deals that repeat the auction (every bidding game). Deal
``d``'s samples use their own seed (:func:`sample_seed`), so every figure is reproducible from
``seed``. A four-hand-80 bid winner who may name no trump (the dealer
forced to play) loses at once; bid-odds gives such a hand 0, and the event is kept.
"""

from __future__ import annotations

from collections.abc import Callable

from binokel_sim.calibration import MIN_BINS, calibration_summary
from binokel_sim.engines.policies import sampling_options
from binokel_sim.errors import SimulationError
from binokel_sim.families import check_supports
from binokel_sim.simulate import check_run
from binokel_sim.variants import Rules

Progress = Callable[[int, int], None]




def check_calibrate(rules: Rules, deals: int, samples: int, seed: int, bins: int) -> None:
    check_supports(rules, "calibrate")
    check_run(deals, seed)
    check_run(samples, seed, "--samples")
    if bins < 2:
        raise SimulationError(f"--bins must be at least 2, got {bins}")
    if deals < bins:
        raise SimulationError(f"--deals {deals} is fewer than the {bins} bins; use at least "
                              f"--deals {bins}")


def calibration_events(rules: Rules, deals: int, samples: int, seed: int, policy: str,
                       outcome_policy: str, threads: int | None = None,
                       progress: Progress | None = None, given_auction: bool = False,
                       samples_per_move: int | None = None) -> list[dict]:
    """One event per deal: ``deal``, ``bidder``, ``hand``, ``bid``, ``trump`` (four-hand-80; the
    widow games: the trump chosen after the widow), ``p_make`` (the forecast) and ``made``.
    ``samples_per_move``: the sampling policy's deals per decision, where it plays."""
    from binokel_sim.odds import family_odds

    return family_odds(rules).calibration_events(rules, deals, samples, seed, policy,
                                                 outcome_policy, threads, progress, given_auction,
                                                 sampling_options(rules, samples_per_move))






def calibrate(rules: Rules, deals: int, samples: int, seed: int, policy: str = "heuristic",
              outcome_policy: str | None = None, bins: int = MIN_BINS,
              threads: int | None = None, progress: Progress | None = None,
              given_auction: bool = False, samples_per_move: int | None = None) -> dict:
    """The calibration study: ``{"variant", "deals", "samples", "seed", "policy",
    "outcome_policy", "given_auction", "no_forecast", **calibration_summary, "events"}`` (the
    per-deal forecasts and outcomes). ``outcome_policy`` (default: ``policy``) plays the deals
    whose outcomes are counted; a different one is the cross check (odds from one policy, play
    by another). ``given_auction``: each forecast's samples repeat the deal's
    auction (the other seats' heuristic bid limits fit their calls, :func:`~binokel_sim.bidding.
    auction_bounds`); a deal for which some sample finds no fitting deal within
    :data:`AUCTION_DRAWS` tries has no forecast (``p_make`` None), is counted in
    ``no_forecast`` and left out of the figures. ``samples_per_move``: the sampling policy's
    deals per card decision, for the policies that are ``sampling``."""
    outcome_policy = outcome_policy or policy
    check_calibrate(rules, deals, samples, seed, bins)
    events = calibration_events(rules, deals, samples, seed, policy, outcome_policy, threads,
                                progress, given_auction, samples_per_move)
    kept = [e for e in events if e["p_make"] is not None]
    if len(kept) < bins:
        raise SimulationError(f"only {len(kept)} of {deals} deals have a forecast, fewer than "
                              f"the {bins} bins")
    summary = calibration_summary([e["p_make"] for e in kept], [e["made"] for e in kept], bins)
    return {"variant": rules.name, "deals": deals, "samples": samples, "seed": seed,
            "policy": policy, "outcome_policy": outcome_policy, "given_auction": given_auction,
            "no_forecast": deals - len(kept), **summary, "events": events}
