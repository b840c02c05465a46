"""What one sixty-six hand is worth in one deal (``binokel-sim deal-odds --variant sixty-six``):
deals around the hand and the turned trump (the other seat's six cards and the stock dealt at
random from the 17 unseen cards by the kernel, :func:`binokel_sim.engines.sixty_six.run_samples`,
seat 0 the hand's), each played once with the policy on both seats, summarised with 95%
intervals.

The figures (docs/rules.md, "Sixty-six"; the talon games' field names where they mean the same):

- ``mean_score`` (``mean_opponent_score``): the game points you (your opponent) score in the deal,
  0 to 3 (one side scores);
- ``mean_net_game_points``: yours minus his, the deal's worth to you;
- ``p_win``: P(you score the deal) with its Wilson interval;
- ``mean_card_points``: the card points you take (the last trick's 10 included);
  ``mean_meld``: your marriages that count (announced, and you won a trick);
- ``quantiles`` of your game points, ``score_histogram``, ``static_meld`` (your marriages' points
  with the turned card's suit trump).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from binokel_sim.cards import SUITS, CardError, format_card, format_counts, parse_card
from binokel_sim.engines.sixty_six import check as check_sixty_six
from binokel_sim.engines.sixty_six import run_samples as run_sixty_six_samples
from binokel_sim.errors import SimulationError
from binokel_sim.hands import parse_hand
from binokel_sim.hands_file import HandRow
from binokel_sim.kernels.sixty_six.rules import ANNOUNCED
from binokel_sim.odds.summary import histogram_document
from binokel_sim.simulate import Progress
from binokel_sim.stats import Hist, mean_interval, wilson_interval
from binokel_sim.variants import Rules

SEATS = ("dealer", "elder")
QUANTILES = (10, 50, 90)


def _mean(total: int, total_sq: int, n: int) -> dict:
    mean, low, high = mean_interval(float(total), float(total_sq), n)
    return {"mean": mean, "ci_low": low, "ci_high": high}


def counted_marriages(played) -> np.ndarray:
    """int64 (n, 2): each seat's announced marriages that count (it won a trick), from the
    deals' lead flags and the claim row."""
    deals, table = played.deals, played.table
    trump = deals.stock[:, -1] // 6
    led = deals.cards[:, :, 0]
    announced = (deals.flags & ANNOUNCED) != 0
    points = np.where(led // 6 == trump[:, None], table.trump_marriage, table.marriage)
    out = np.zeros((led.shape[0], 2), dtype=np.int64)
    for seat in range(2):
        out[:, seat] = ((announced & (deals.leaders == seat)) * points).sum(axis=1)
    claim = deals.claim
    on_lead = (claim[:, 0] >= 0) & ((claim[:, 2] & ANNOUNCED) != 0)
    claim_points = np.where(claim[:, 3] == trump, table.trump_marriage, table.marriage)
    for seat in range(2):
        out[:, seat] += np.where(on_lead & (claim[:, 0] == seat), claim_points, 0)
    return np.where(deals.tricks_won > 0, out, 0)


def deal_tally(played) -> dict:
    """The integer statistics of sixty-six samples (``run_samples``' deals) that
    :func:`deal_odds` reports from; tallies of disjoint samples add
    (:func:`binokel_sim.backend.add`)."""
    deals = played.deals
    n = deals.dealer.shape[0]
    seat, game_points = deals.result[:, 0], deals.result[:, 1]
    mine = np.where(seat == 0, game_points, 0)
    theirs = np.where(seat == 1, game_points, 0)
    net = mine - theirs
    meld = counted_marriages(played)
    card = deals.points - meld
    return {"samples": int(n), "wins": int((seat == 0).sum()),
            "score": [Hist.of(mine), Hist.of(theirs)], "net": Hist.of(net),
            "card": [int(card[:, s].sum()) for s in range(2)],
            "card_sq": [int((card[:, s] * card[:, s]).sum()) for s in range(2)],
            "meld": [int(meld[:, s].sum()) for s in range(2)],
            "meld_sq": [int((meld[:, s] * meld[:, s]).sum()) for s in range(2)]}


def deal_task(task: tuple) -> dict:
    """One task of :func:`deal_odds`: ``(rules, counts, turned, dealer, seed, policy,
    first_sample, samples, threads, options)`` → the :func:`deal_tally` of those samples
    (``options``: the sampling policy's ``samples_per_move``, or none)."""
    from binokel_sim.backend import task_context, task_progress

    rules, counts, turned, dealer, seed, policy, first, n, threads, options = task
    with task_context(threads) as n_threads:
        played = run_sixty_six_samples(rules, counts, n, seed, policy, threads=n_threads,
                                       progress=task_progress(), first_sample=first,
                                       turned=turned, dealer=dealer, **options)
    return deal_tally(played)


def deal_odds(rules: Rules, counts: np.ndarray, turned: int, seat: str, samples: int, seed: int,
              policy: str, threads: int | None = None, progress: Progress | None = None,
              backend=None, knowledge=None, samples_per_move: int | None = None) -> dict:
    """The sixty-six hand ``counts`` (seat 0) with ``turned`` (a card type) turned: ``seat`` is
    ``dealer`` (seat 0 deals) or ``elder`` (the other seat deals: you lead the first trick). The
    samples are played in tasks of ``backend.DEAL_TASK_BLOCKS`` blocks run by ``backend``
    (default: here); every figure comes from their integer :func:`deal_tally`. ``knowledge``
    (``--known``, ``--void``) is refused (the other seat is dealt uniformly);
    ``samples_per_move``: the sampling policy's deals a decision."""
    from binokel_sim.backend import DEAL_TASK_BLOCKS, LocalBackend, task_ranges, total
    from binokel_sim.engines import sixty_six as engine
    from binokel_sim.engines.policies import policy_id, sampling_options
    from binokel_sim.game_blocks import GAME_BLOCK
    from binokel_sim.simulate import check_run, set_threads

    check_sixty_six(rules)
    check_seat(seat)
    dealer = 0 if seat == "dealer" else 1
    check_run(samples, seed)
    engine.sampler_inputs(rules, counts, knowledge, turned=turned)  # refused or impossible: now
    policy_id(policy, rules)
    options = sampling_options(rules, samples_per_move)
    set_threads(threads)
    backend = backend if backend is not None else LocalBackend()
    ranges = task_ranges(samples, GAME_BLOCK, DEAL_TASK_BLOCKS)
    tasks = [(rules, np.asarray(counts, dtype=np.int64), turned, dealer, seed, policy, first, n,
              backend.threads_for(threads), options) for _, first, n in ranges]
    tally = total(backend.map(deal_task, tasks, [n for *_, n in ranges], progress))
    wins = tally["wins"]
    low, high = wilson_interval(wins, samples)
    trump = turned // 6
    result = {
        "variant": rules.name, "hand": format_counts(counts), "turned": format_card(turned),
        "trump": SUITS[trump], "seat": seat, "samples": samples,
        "p_win": wins / samples, "p_win_ci_low": float(low), "p_win_ci_high": float(high),
    }
    net = _mean(tally["net"].sum(), tally["net"].sum_sq(), samples)
    result["mean_net_game_points"] = net["mean"]
    result["mean_net_game_points_ci_low"] = net["ci_low"]
    result["mean_net_game_points_ci_high"] = net["ci_high"]
    stats = {
        "score": [_mean(h.sum(), h.sum_sq(), samples) for h in tally["score"]],
        "card_points": [_mean(t, t_sq, samples)
                        for t, t_sq in zip(tally["card"], tally["card_sq"])],
        "meld": [_mean(t, t_sq, samples) for t, t_sq in zip(tally["meld"], tally["meld_sq"])],
    }
    for who, index in (("", 0), ("opponent_", 1)):
        for key, per_seat in stats.items():
            m = per_seat[index]
            result[f"mean_{who}{key}"] = m["mean"]
            result[f"mean_{who}{key}_ci_low"] = m["ci_low"]
            result[f"mean_{who}{key}_ci_high"] = m["ci_high"]
    you = tally["score"][0]
    result["quantiles"] = {str(q): you.percentile(q) for q in QUANTILES}
    result["static_meld"] = static_meld(rules, counts, trump)
    result["score_histogram"] = histogram_document({"you": you, "opponent": tally["score"][1]})
    return result


def static_meld(rules: Rules, counts: np.ndarray, trump: int) -> int:
    """The points of the marriages in the hand with ``trump`` trump (20, in trump 40)."""
    from binokel_sim.cards import RANK_K, RANK_Q, card_type

    marriages = {m.scope: m.per_set for m in rules.melds if sorted(m.ranks) == [RANK_Q, RANK_K]}
    return sum(marriages["trump" if suit == trump else "non_trump"] for suit in range(4)
               if counts[card_type(RANK_K, suit)] and counts[card_type(RANK_Q, suit)])


def check_seat(seat: str) -> None:
    """``seat`` names one of :data:`SEATS`."""
    if seat not in SEATS:
        raise SimulationError(f"--seat must be dealer or elder, got {seat!r}")


def turned_card(rules: Rules, counts: np.ndarray, text: str | None,
                hand_given: bool = False) -> int:
    """The card type of the turned card ``text``, not in the hand ``counts`` (one copy of each
    card). None means the variant's example turned card, which goes only with its example hand;
    with a hand of one's own (``hand_given``) it is an error (the turned card decides trump)."""
    if text is None and hand_given:
        raise CardError("give --turned with --hand: the turned card (its suit is trump), e.g. "
                        "--turned 9H")
    text = text if text is not None else rules.example_turned
    if not text:
        raise CardError(f"give --turned: the {rules.name} rules have no example turned card")
    try:
        parse_hand(text, rules, size=1)
    except CardError as exc:
        raise CardError(f"--turned: {exc}".replace("the hand has", "it has")
                        .replace(f"a {rules.name} hand has 1", "give one card")) from None
    turned = parse_card(text)
    if counts[turned]:
        raise CardError(f"the turned card {text.strip()} is in your hand: the deck has one of "
                        f"each card")
    return turned


# --- batch --------------------------------------------------------------------------------------

BATCH_COLUMNS = {  # what batch writes for a hand, after the row's own columns (the talon games'
    # names: mean_score your game points, mean_meld your marriages that count)
    "turned": pl.String, "seat": pl.String, "p_win": pl.Float64, "p_win_ci_low": pl.Float64,
    "p_win_ci_high": pl.Float64, "mean_score": pl.Float64, "mean_meld": pl.Float64,
    "mean_net_game_points": pl.Float64,
}


def batch_figures(rules: Rules, counts: np.ndarray, row: HandRow, seat: str, deals: int,
                  seed: int, policy: str, threads: int | None) -> dict:
    """A batch row's :data:`BATCH_COLUMNS`: :func:`deal_odds` in brief, for the row's turned
    card (required) and its seat (else ``seat``)."""
    if row.turned is None:
        raise CardError("no turned card: give sixty-six hands as CSV or Parquet with a "
                        "'turned' column")
    turned = turned_card(rules, counts, row.turned)
    where = row.seat if row.seat is not None else seat
    result = deal_odds(rules, counts, turned, where, deals, seed, policy, threads)
    return {name: result[name] for name in BATCH_COLUMNS}


def batch_error_figures(row: HandRow, seat: str) -> dict:
    """What a bad row keeps of its own: its turned card and seat as given."""
    return {"turned": row.turned, "seat": row.seat or seat}
