"""What a hand is worth in a partnership game's auction (four-hand-80), and how high it bids.

A seat that would name trump ``t`` knows its own meld with ``t``. What it does not know is what
the play brings its pair (counters with the last trick) and what its partner melds. The model
(docs/rules.md, "Bidding"):

- **play**: normal, its mean a linear model over five counts of the hand with ``t``
  (:data:`FEATURES`), its spread the model's residual ``sd``;
- **the partner's meld**: the distribution fitted (a histogram in points), independent of the
  hand and of the play.

Both are fitted to bid-odds samples of random hands by ``scripts/fit_pair_value.py`` (every hand
played as the bid winner, the heuristic on every seat) and ship as ``pair_value.json`` with their
provenance. SPEC's scoring then gives the pair's expected score of holding the contract at bid
``b``: its total when made (play at least ``min_play``, pair meld at least ``min_meld``, play +
meld at least ``b``), else ``-b``. A seat bids while the next bid's expected score is above the
``cost`` of the contract: what the pair gives up by holding it rather than letting the other
side hold it (fitted, see the script). Its limit is the highest such ladder bid.

The limit depends on the hand through two whole numbers, its meld with ``t`` and the play
estimate in points, so it is one table (:func:`limit_table`) that the kernel
(``kernels/auction.py``) and the twin (``reference/play.py``) both read; the estimate is integer
arithmetic on weights scaled by ``SCALE`` (:func:`weights`), so they agree to the point.
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import numpy as np

from binokel_sim.cards import N_RANKS, N_SUITS, RANKS, suit_lengths
from binokel_sim.constants import NO_BID
from binokel_sim.variants import Rules

MODEL_FILE = Path(__file__).with_name("pair_value.json")
SCALE = 1024  # the weights' fixed point: an estimate in points is (sum of weights) // SCALE
# the counts of the hand with a trump, in the model's order (after the intercept)
FEATURES = ("trumps", "aces", "tens", "trump_aces_tens", "voids")
RANK_T, RANK_A = RANKS.index("T"), RANKS.index("A")


@functools.lru_cache(maxsize=1)
def load_model() -> dict:
    """The fitted model (``pair_value.json``): ``{"provenance", "features", "play": {"coef":
    [intercept, *FEATURES], "sd", "r2"} in shares of the card points, "partner_meld": [P(0),
    P(1), ...], "cost"}``."""
    model = json.loads(MODEL_FILE.read_text(encoding="utf-8"))
    if tuple(model["features"]) != FEATURES:
        raise ValueError(f"{MODEL_FILE.name}: features {model['features']}, expected {FEATURES}")
    if len(model["play"]["coef"]) != 1 + len(FEATURES):
        raise ValueError(f"{MODEL_FILE.name}: play has {len(model['play']['coef'])} "
                         f"coefficients, expected {1 + len(FEATURES)}")
    return model


def denominators(rules: Rules) -> tuple[int, ...]:
    """What the deck holds of each feature (the model reads each count as a share of it): cards
    of a suit, aces, tens, the trump aces and tens, the three plain suits."""
    per_suit = rules.copies * len(rules.ranks)
    return (per_suit, N_SUITS * rules.copies, N_SUITS * rules.copies, 2 * rules.copies,
            N_SUITS - 1)


def features(hand: list[int], trump: int) -> list[int]:
    """The counts :data:`FEATURES` of a hand (copies per card type) with ``trump``."""
    in_suit = suit_lengths(hand)
    return [
        in_suit[trump],
        sum(hand[s * N_RANKS + RANK_A] for s in range(N_SUITS)),
        sum(hand[s * N_RANKS + RANK_T] for s in range(N_SUITS)),
        hand[trump * N_RANKS + RANK_A] + hand[trump * N_RANKS + RANK_T],
        sum(1 for s in range(N_SUITS) if s != trump and in_suit[s] == 0),
    ]


@functools.lru_cache(maxsize=32)
def weights(rules: Rules) -> np.ndarray:
    """The integer weights of the play estimate, scaled by ``SCALE``: int64 ``(intercept,
    *per feature)``; the estimate in points is ``(intercept + sum(weight * count)) // SCALE``."""
    coef = load_model()["play"]["coef"]
    total = rules.total_card_points
    out = [round(coef[0] * total * SCALE)]
    out += [round(c * total * SCALE / d) for c, d in zip(coef[1:], denominators(rules))]
    return np.array(out, dtype=np.int64)


def play_estimate(rules: Rules, counts: list[int]) -> int:
    """The play estimate in whole points of a hand with :func:`features` ``counts``, floored
    and clamped to ``0 .. the card points`` (the columns of :func:`limit_table`)."""
    w = weights(rules)
    value = (int(w[0]) + sum(int(k) * f for k, f in zip(w[1:], counts))) // SCALE
    return min(max(value, 0), rules.total_card_points)


def top_meld(rules: Rules) -> int:
    """The last row of :func:`limit_table`, eight times the card points (400 in four-hand-80): a
    meld above it is read as it (its limit is far above any bid a deal sees)."""
    return 8 * rules.total_card_points


def hold_values(rules: Rules, bids: np.ndarray, cap: int) -> np.ndarray:
    """The pair's expected score of holding the contract, float64 ``(cap + 1, total + 1,
    len(bids))``: by own meld ``m`` (``0 .. cap``), play estimate ``mu`` (whole points) and
    bid."""
    model = load_model()
    total = rules.total_card_points
    sd = model["play"]["sd"] * total
    partner = np.asarray(model["partner_meld"], dtype=np.float64)
    partner = partner / partner.sum()
    points = np.arange(total + 1)
    out = np.empty((cap + 1, total + 1, bids.size))
    melds = np.arange(cap + 1)
    for mu in range(total + 1):
        # play: the normal rounded to whole points, the tails on the ends
        edges = [0.5 * math.erfc(-(k + 0.5 - mu) / (sd * math.sqrt(2))) for k in range(total)]
        cdf = np.array(edges + [1.0])
        play = np.diff(np.concatenate(([0.0], cdf)))
        play[points < rules.min_play] = 0.0  # made needs this much play
        for short in range(rules.min_meld + 1):  # own meld min_meld - short: partner must add
            q = partner.copy()
            q[:max(short, 0)] = 0.0
            joint = np.convolve(play, q)  # P(play + partner meld = s, both conditions)
            made = np.concatenate((np.cumsum(joint[::-1])[::-1], [0.0]))
            sums = np.concatenate((np.cumsum((joint * np.arange(joint.size))[::-1])[::-1],
                                   [0.0]))
            rows = melds >= rules.min_meld if short == 0 else melds == rules.min_meld - short
            m = melds[rows][:, None]
            at = np.clip(bids[None, :] - m, 0, joint.size)
            p = made[at]
            out[rows, mu, :] = m * p + sums[at] - bids[None, :] * (1.0 - p)
    return out


@functools.lru_cache(maxsize=32)
def limit_table(rules: Rules) -> np.ndarray:
    """``limits`` int64 ``(top_meld + 1, total + 1)``: a seat with meld ``m`` with a trump and a
    play estimate of ``mu`` points with it bids up to ``limits[min(m, top_meld), mu]``, the
    highest ladder bid whose expected score of holding the contract is above the model's
    ``cost``, or ``NO_BID`` (it passes). Non-decreasing along both axes."""
    from binokel_sim.bidding import ladder

    cap = top_meld(rules)
    bids = np.array(ladder(rules, cap + rules.total_card_points + len(load_model()
                                                                       ["partner_meld"])),
                    dtype=np.int64)
    worth = hold_values(rules, bids, cap) > load_model()["cost"]
    count = worth.sum(axis=2)  # the expected score falls as the bid rises
    limits = np.where(count > 0, bids[np.maximum(count - 1, 0)], NO_BID).astype(np.int64)
    return limits
