"""The widow-game soloist's estimate of his hand after the Dabb, and when he gives up (Abgehen).

After taking the widow (Dabb), burying and naming trump, a heuristic or sampling soloist
estimates his side's total: his own meld plus a linear model of what the play brings (his side's
card points, and in a partnership game the partner's meld) over seven counts of his hand. The
model is fitted to simulated deals by ``scripts/fit_widow_value.py`` and ships as
``widow_value.json`` with its provenance; one model serves the games without partnerships and
one those with (each count divided by what the deck holds of it, so a rules file with a widow
gets the model of its kind).

Conceding scores minus the bid; playing scores the side's total when made and minus twice the
bid when set. With the estimate's error taken as normal with the model's residual spread ``sd``,
playing bid ``b`` is worth :func:`play_value` ``(b, estimate, sd)``; the soloist gives up when
that is below ``-b``. The smallest such bid for each whole-point estimate is a table
(:func:`concede_table`), so the kernel and the twin look it up instead of evaluating the normal
distribution: the soloist concedes when ``bid >= concede_from`` (docs/rules.md, "Widow games",
"Policies").

Everything is integer arithmetic on weights scaled by ``SCALE`` (:func:`weights`), so the kernel
(``kernels/widow/deals.py``) and the twin (``reference/widow_policy.py``) agree to the point.
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import numpy as np

from binokel_sim.cards import N_RANKS, N_SUITS, N_TYPES, RANKS, suit_lengths
from binokel_sim.constants import CARDS_PER_TRUMP
from binokel_sim.variants import Rules

MODEL_FILE = Path(__file__).with_name("widow_value.json")
SCALE = 1024  # the weights' fixed point: an estimate in points is (sum of weights) / SCALE
NEVER = 1 << 40  # the concede_from of a soloist who never concedes (random, or no Abgehen)
# the counts of the soloist's hand after burying, in the model's order (after the intercept)
FEATURES = ("trumps", "aces", "tens", "hand_points", "buried_points", "trump_aces_tens",
            "voids")
RANK_T, RANK_A = RANKS.index("T"), RANKS.index("A")


@functools.lru_cache(maxsize=1)
def load_model() -> dict:
    """The fitted models (``widow_value.json``): ``{"provenance", "features", "models": {"solo",
    "pairs"}}``, each model ``{"coef": [intercept, *FEATURES], "sd", "r2"}`` in shares of the
    deck's card points."""
    model = json.loads(MODEL_FILE.read_text(encoding="utf-8"))
    if tuple(model["features"]) != FEATURES:
        raise ValueError(f"{MODEL_FILE.name}: features {model['features']}, expected {FEATURES}")
    if tuple(model["bid_features"]) != BID_FEATURES:
        raise ValueError(f"{MODEL_FILE.name}: bid_features {model['bid_features']}, "
                         f"expected {BID_FEATURES}")
    for section, names, extra in (("models", FEATURES, ()), ("bid", BID_FEATURES, ("defence",))):
        for which in ("solo", "pairs"):
            fit = model[section][which]
            if len(fit["coef"]) != 1 + len(names) or any(len(fit[e]) != 2 for e in extra):
                raise ValueError(f"{MODEL_FILE.name}: {section}.{which} has "
                                 f"{len(fit['coef'])} coefficients, expected {1 + len(names)}")
    return model


def kind(rules: Rules) -> str:
    """Which model a game takes: ``pairs`` with partnerships, else ``solo``."""
    return "pairs" if rules.partnerships else "solo"


def denominators(rules: Rules) -> tuple[int, ...]:
    """What the deck holds of each feature (the model reads each count as a share of it): cards
    of a suit, aces, tens, the deck's card points with the last trick's (for the hand's points
    and for the buried ones), the trump aces and tens, the three plain suits."""
    per_suit = rules.copies * len(rules.ranks)
    total = rules.total_card_points
    return (per_suit, N_SUITS * rules.copies, N_SUITS * rules.copies, total, total,
            2 * rules.copies, N_SUITS - 1)


@functools.lru_cache(maxsize=32)
def weights(rules: Rules) -> tuple[int, ...]:
    """The integer weights of ``rules``' estimate after the Dabb: ``(intercept, *per feature)``,
    each scaled by ``SCALE``: the estimate in points times ``SCALE`` is ``meld * SCALE +
    intercept + sum(weight * count)``."""
    model = load_model()["models"][kind(rules)]
    coef = model["coef"]
    total = rules.total_card_points
    out = [round(coef[0] * total * SCALE)]
    for c, denominator in zip(coef[1:], denominators(rules)):
        out.append(round(c * total * SCALE / denominator))
    return tuple(int(w) for w in out)


def estimate_range(rules: Rules) -> tuple[int, int]:
    """``(low, top)``: the whole-point estimates the lookup tables (:func:`bid_table`,
    :func:`concede_table`) cover; an estimate outside is clamped to them. ``top`` is above any
    total a side can make."""
    total = rules.total_card_points
    return -total, 4 * total + 2 * 1000 * rules.copies


@functools.lru_cache(maxsize=32)
def concede_table(rules: Rules) -> tuple[int, np.ndarray]:
    """``(low, thresholds)``: a soloist whose estimate after the Dabb is ``e`` whole points gives
    up from bid ``thresholds[e - low]`` on (the estimate clamped to the table), the smallest bid
    ``b >= 1`` whose :func:`play_value` with the model's ``sd`` is below ``-b``. int64,
    non-decreasing (a higher estimate only makes playing worth more)."""
    model = load_model()["models"][kind(rules)]
    sd = model["sd"] * rules.total_card_points
    low, top = estimate_range(rules)
    thresholds = np.empty(top - low + 1, dtype=np.int64)
    b = 1
    for i in range(thresholds.size):
        mean = low + i
        while play_value(b, mean, sd) >= -b:
            b += 1
        thresholds[i] = b
    return low, thresholds


def card_points(rules: Rules, cards: list[int]) -> int:
    """The card points of cards given as copies per card type."""
    return sum(rules.rank_points[t % N_RANKS] * cards[t] for t in range(N_TYPES))


def features(rules: Rules, hand: list[int], trump: int, buried: list[int]) -> list[int]:
    """The counts :data:`FEATURES` of a hand (copies per card type, after burying) with
    ``trump``, and the ``buried`` cards."""
    in_suit = suit_lengths(hand)
    return [
        in_suit[trump],
        sum(hand[s * N_RANKS + RANK_A] for s in range(N_SUITS)),
        sum(hand[s * N_RANKS + RANK_T] for s in range(N_SUITS)),
        card_points(rules, hand),
        card_points(rules, buried),
        hand[trump * N_RANKS + RANK_A] + hand[trump * N_RANKS + RANK_T],
        sum(1 for s in range(N_SUITS) if s != trump and in_suit[s] == 0),
    ]


def estimate(rules: Rules, meld: int, counts: list[int]) -> int:
    """The soloist's estimate after the Dabb in whole points (floored): his ``meld`` plus the
    model over the counts of his hand (:func:`features`), in integers scaled by ``SCALE``."""
    w = weights(rules)
    return (meld * SCALE + w[0] + sum(k * f for k, f in zip(w[1:], counts))) // SCALE


def concede_from(rules: Rules, meld: int, counts: list[int]) -> int:
    """The smallest bid at which the soloist with ``meld`` and the hand of ``counts``
    (:func:`features`) concedes: his :func:`estimate` looked up in :func:`concede_table`."""
    low, thresholds = concede_table(rules)
    i = min(max(estimate(rules, meld, counts) - low, 0), thresholds.size - 1)
    return int(thresholds[i])


# --- the bid: what a hand is worth before the Dabb ----------------------------------------------
#
# Before the auction a heuristic (or sampling) seat estimates the total it would make as soloist:
# a linear model over counts of its hand (the best meld over the suits; of its "trump", the suit
# with the most meld + CARDS_PER_TRUMP per card, its length and its aces and tens; its aces, tens
# and card points) and the game's widow share (widow / hand), fitted to bid-odds samples of
# random hands (scripts/fit_widow_value.py: no auction, every hand played as soloist). With the
# estimate's error normal (the model's ``sd``), the expected score of playing at bid ``b`` is
# ``E[T; T >= b] - 2 b P(T < b)``; a seat that does not win the auction scores what a defender
# scores on average (the model's ``defence``, a share of the card points). It bids while the
# smallest bid above the current one is worth more to it than defending: its limit is the
# highest such bid (:func:`bid_table`).

BID_FEATURES = ("best_meld", "trump_length", "aces", "tens", "hand_points", "trump_aces_tens",
                "widow_share")
NO_LIMIT = -1  # a limit below every bid: the seat passes


def bid_denominators(rules: Rules) -> tuple[float, ...]:
    """What each of :data:`BID_FEATURES` is divided by (the widow share is a share already)."""
    per_suit = rules.copies * len(rules.ranks)
    total = rules.total_card_points
    return (total, per_suit, N_SUITS * rules.copies, N_SUITS * rules.copies, total,
            2 * rules.copies, 1)


def bid_trump(melds: list[int], lengths: list[int]) -> int:
    """The suit a bidding seat counts on: the most meld + ``CARDS_PER_TRUMP`` per card held
    (the first suit on a tie), the heuristic's own trump rule."""
    return max(range(N_SUITS), key=lambda s: (melds[s] + CARDS_PER_TRUMP * lengths[s], -s))


def bid_features(rules: Rules, hand: list[int], melds: list[int]) -> list[int]:
    """The counts of :data:`BID_FEATURES` but the widow share (a constant of the rules) for a
    hand (copies per card type) whose meld with each trump is ``melds``."""
    lengths = suit_lengths(hand)
    trump = bid_trump(melds, lengths)
    return [
        max(melds),
        lengths[trump],
        sum(hand[s * N_RANKS + RANK_A] for s in range(N_SUITS)),
        sum(hand[s * N_RANKS + RANK_T] for s in range(N_SUITS)),
        card_points(rules, hand),
        hand[trump * N_RANKS + RANK_A] + hand[trump * N_RANKS + RANK_T],
    ]


@functools.lru_cache(maxsize=32)
def bid_weights(rules: Rules) -> tuple[int, ...]:
    """The integer weights of ``rules``' estimate before the Dabb, scaled by ``SCALE``:
    ``(intercept with the widow share, *per count of bid_features)``."""
    model = load_model()["bid"][kind(rules)]
    coef, total = model["coef"], rules.total_card_points
    dens = bid_denominators(rules)
    intercept = coef[0] + coef[-1] * rules.widow / rules.hand_size
    out = [round(intercept * total * SCALE)]
    for c, d in zip(coef[1:-1], dens[:-1]):
        out.append(round(c * total * SCALE / d))
    return tuple(int(w) for w in out)


def bid_estimate(rules: Rules, counts: list[int]) -> int:
    """The estimate in whole points (floored) of a hand with :func:`bid_features` ``counts``."""
    w = bid_weights(rules)
    return (w[0] + sum(k * f for k, f in zip(w[1:], counts))) // SCALE


def play_value(bid: int, mean: float, sd: float) -> float:
    """The expected score of playing ``bid`` when the total is normal (``mean``, ``sd``): the
    total when it reaches the bid, minus twice the bid when not."""
    z = (bid - mean) / sd
    p = 0.5 * math.erfc(z / math.sqrt(2))  # P(total >= bid)
    density = math.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)
    return mean * p + sd * density - 2 * bid * (1 - p)


@functools.lru_cache(maxsize=32)
def bid_table(rules: Rules) -> tuple[int, np.ndarray]:
    """``(low, limits)``: a seat whose estimate is ``e`` bids up to ``limits[e - low]`` (the
    estimate clamped to the table), the highest ladder bid whose :func:`play_value` is above
    the defence's, or ``NO_LIMIT``. int64 limits, non-decreasing."""
    from binokel_sim.bidding import ladder

    model = load_model()["bid"][kind(rules)]
    total = rules.total_card_points
    sd = model["sd"] * total
    defence = (model["defence"][0] + model["defence"][1] * rules.widow / rules.hand_size) * total
    low, top = estimate_range(rules)
    bids = ladder(rules, top)
    limits = np.full(top - low + 1, NO_LIMIT, dtype=np.int64)
    j = 0  # the bids worth playing only grow with the estimate
    for i in range(limits.size):
        mean = low + i
        while j < len(bids) and play_value(bids[j], mean, sd) > defence:
            j += 1
        limits[i] = bids[j - 1] if j > 0 else NO_LIMIT
    return low, limits
