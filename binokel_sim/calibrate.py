"""``binokel-sim calibrate``: do the bid odds come true?

For ``deals`` independent whole deals (dealt, bid by the bidding heuristic and played with the
outcome policy, :func:`binokel_sim.record_stream.play_records`' engines), the bid winner's forecast is
what ``bid-odds`` says for his hand and the contract he bid: ``p_make`` at his bid, from
``samples`` play-outs of his hand with ``policy`` on every seat (four-hand-80: with the trump he
named; the widow games: before the widow, the trump chosen after it, as ``bid-odds`` does). The
outcome is whether the contract was made when the deal was played. The forecasts and outcomes go
to :mod:`binokel_sim.calibration` (reliability bins, Brier score, ECE).

By default the forecast ignores what the auction told the bidder about the other hands; with
``given_auction`` its samples are only deals that repeat the auction (four-hand-80). Deal
``d``'s samples use their own seed (:func:`sample_seed`), so every figure is reproducible from
``seed``. A four-hand-80 bid winner who may name no trump (the dealer
forced to play) loses at once; bid-odds gives such a hand 0, and the event is kept.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from binokel_sim.calibration import MIN_BINS, calibration_summary
from binokel_sim.cards import SUITS, format_counts, planes_to_counts
from binokel_sim.families import PARTNERSHIP, check_supports, engine_family
from binokel_sim.games import sampling_options
from binokel_sim.errors import SimulationError
from binokel_sim.simulate import check_run
from binokel_sim.variants import Rules

Progress = Callable[[int, int], None]
AUCTION_DRAWS = 20_000  # --given-auction: deals tried per sample before a deal is left out


def sample_seed(seed: int, deal: int) -> int:
    """The seed of deal ``deal``'s bid-odds samples: a hash of ``(seed, deal)`` (numpy's
    SeedSequence), so no two deals, and no deal and the deals' own stream, share samples."""
    state = np.random.SeedSequence([seed, deal, 0xCA11B]).generate_state(1, dtype=np.uint64)
    return int(state[0] >> np.uint64(1))  # below 2**63


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
    if engine_family(rules) == PARTNERSHIP:
        return _partnership_events(rules, deals, samples, seed, policy, outcome_policy, threads,
                                   progress, given_auction, sampling_options(rules,
                                                                             samples_per_move))
    return _widow_events(rules, deals, samples, seed, policy, outcome_policy, threads, progress,
                         sampling_options(rules, samples_per_move))


def _partnership_events(rules, deals, samples, seed, policy, outcome_policy, threads, progress,
                        given_auction, options):
    from binokel_sim.odds.partnership import deal_scores
    from binokel_sim.bidding import auction_bounds
    from binokel_sim.games import DEAL_FIELDS, AuctionTooRare, run_bid_samples, run_play

    played = run_play(rules, deals, seed, outcome_policy, threads, **options)
    col = {name: i for i, name in enumerate(DEAL_FIELDS)}
    events = []
    for d in range(deals):
        info = played.info[d]
        bidder, bid, trump = int(info[col["bidder"]]), int(info[col["bid"]]), int(info[col["trump"]])
        counts = planes_to_counts(played.hands[d, bidder])
        p_make, draws = 0.0, None
        if trump >= 0:
            auction = None
            if given_auction:
                n_calls = int(info[col["n_calls"]])
                calls = zip(played.bid_seats[d, :n_calls], played.bid_values[d, :n_calls])
                auction = auction_bounds(rules, bidder, calls)
            try:
                s = run_bid_samples(rules, counts, samples, sample_seed(seed, d), policy,
                                    [trump], threads, auction=auction,
                                    max_draws=AUCTION_DRAWS, **options)
            except AuctionTooRare:
                p_make = None  # no forecast: counted in no_forecast, left out of the figures
            else:
                made, _, _ = deal_scores(rules, bid, s.pair_meld[:, 0], s.pair_play[:, 0],
                                         s.opp_meld[:, 0], s.opp_play[:, 0], True)
                p_make = float(made.mean())
                draws = float(s.draws.mean())
        pair_score = info[col["score_02"] if bidder % 2 == 0 else col["score_13"]]
        events.append({"deal": d, "bidder": bidder, "hand": " ".join(format_counts(counts)),
                       "bid": bid, "trump": SUITS[trump] if trump >= 0 else None,
                       "p_make": p_make, "made": bool(pair_score > 0), "draws": draws})
        if progress is not None:
            progress(d + 1, deals)
    return events


def _widow_events(rules, deals, samples, seed, policy, outcome_policy, threads, progress,
                  options):
    from binokel_sim.kernels.widow.deals import I_BID, I_MADE, I_SOLOIST, I_TRUMP
    from binokel_sim.widow_games import SAMPLE_FIELDS, run_widow_play, run_widow_samples

    played = run_widow_play(rules, deals, seed, outcome_policy, threads, **options)
    total = SAMPLE_FIELDS.index("total")
    events = []
    for d in range(deals):
        info = played.info[d]
        soloist, bid = int(info[I_SOLOIST]), int(info[I_BID])
        counts = planes_to_counts(played.hands[d, soloist])
        s = run_widow_samples(rules, counts, samples, sample_seed(seed, d), policy, threads,
                              **options)
        trump = int(info[I_TRUMP])
        events.append({"deal": d, "bidder": soloist, "hand": " ".join(format_counts(counts)),
                       "bid": bid, "trump": SUITS[trump] if trump >= 0 else None,
                       "p_make": float((s[:, total] >= bid).mean()),
                       "made": bool(info[I_MADE]), "draws": 1.0})
        if progress is not None:
            progress(d + 1, deals)
    return events


def calibrate(rules: Rules, deals: int, samples: int, seed: int, policy: str = "heuristic",
              outcome_policy: str | None = None, bins: int = MIN_BINS,
              threads: int | None = None, progress: Progress | None = None,
              given_auction: bool = False, samples_per_move: int | None = None) -> dict:
    """The calibration study: ``{"variant", "deals", "samples", "seed", "policy",
    "outcome_policy", "given_auction", "no_forecast", **calibration_summary, "events"}`` (the
    per-deal forecasts and outcomes). ``outcome_policy`` (default: ``policy``) plays the deals
    whose outcomes are counted; a different one is the cross check (odds from one policy, play
    by another). ``given_auction`` (four-hand-80): each forecast's samples repeat the deal's
    auction (the other seats' heuristic bid limits fit their calls, :func:`~binokel_sim.bidding.
    auction_bounds`); a deal for which some sample finds no fitting deal within
    :data:`AUCTION_DRAWS` tries has no forecast (``p_make`` None), is counted in
    ``no_forecast`` and left out of the figures. ``samples_per_move``: the sampling policy's
    deals per card decision, for the policies that are ``sampling``."""
    outcome_policy = outcome_policy or policy
    check_calibrate(rules, deals, samples, seed, bins)
    if given_auction and engine_family(rules) != PARTNERSHIP:
        raise SimulationError(f"variant {rules.name}: --given-auction conditions four-hand-80's "
                              f"bid odds on the auction; the widow games' forecasts ignore it")
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
