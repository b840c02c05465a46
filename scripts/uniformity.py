"""The uniformity report (issue 54, item 5): are the deals what a fair shuffle gives?

For every built-in variant, ``--deals`` deals made by the production dealing kernels from the
production block streams (``binokel_sim/kernels/uniformity.py``: ``deal_seats`` in four-hand-80,
one shuffle read off in order in every other game), counted and tested against the
exact distribution of a uniformly shuffled deck:

- **card × seat**: the copies of each card type every seat got (seat ``s``: the ``s``-th hand read
  off the deck; in sixty-six the non-dealer's, then the dealer's), the talon or widow as one
  more seat, against ``deals × copies × seat size / deck size`` (a Pearson chi-square with
  ``(seats - 1) × (types - 1)`` degrees of freedom, scaled by ``(N - 1) / N``: both margins of a
  deal's table are fixed, so a deal's cells are multivariate hypergeometric, whose covariance
  is the multinomial's times ``N / (N - 1)``);
- **talon / widow positions**: the same with each position of the talon or widow (the deck's
  positions after the hands) a seat of its own and the hands as one; and the turned card alone
  (a multinomial over the types), where the game turns one: the talon's last card in the talon
  games, the first card after the hands in sixty-six;
- **pairs**: the joint count of two card types in one hand (a meld's two cards, two deck
  neighbours) or of one type in two seats, against the exact multivariate hypergeometric
  distribution (a chi-square over the cells, those expected below 5 pooled).

Then the **constrained sampler** (``--known``, ``--void``, given auctions) against exact
enumeration (``binokel_sim/reference/sampler.py``: every consistent assignment of the physical
cards) on small cases: the kernel cases of ``reference/sampler.py`` (with the widow games'
bound), whole-option cases made from ``--known``/``--void`` texts by the CLI's own parser
(four-hand-80, the Swabian widow game), and four-hand-80's ``bid-odds`` samples given an
auction (``run_samples``; the observable is each sample's melds of both pairs per trump).

Every p-value is reported, however small: of some seventy tests a few below 0.05 are expected;
one below 0.001 is a finding to look into. So that the tests are independent, each draws its own
random streams: variant ``V`` deals with seed ``--seed + crc32(V) mod 10**6`` (its name decides,
so a new variant moves no other's; the same 48-card deck under one seed would give three
variants the very same shuffles), sampler case ``j`` draws with seed ``--seed + 10**6 + j``. A
test below p = 0.01 is followed up: run again ``--follow-up`` times (default 4) at the same size
on fresh streams (its seed + 10**7, + 2 * 10**7, ...), the run that raised the question left
out, each run's p-value and that of the runs together reported (a real bias shows again,
clearest in the runs together; chance does not).

    python scripts/uniformity.py --deals 100000000 --seed 1   # the published run

Needs scipy (``pip install -e ".[test]"``). Prints the table; writes ``--out`` (default
``results/uniformity.json``); ``python scripts/results_doc.py`` puts it into docs/results.md.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
import zlib
from fractions import Fraction
from math import factorial
from pathlib import Path

import numpy as np

from binokel_sim import __version__
from binokel_sim.cards import N_TYPES, SUITS, counts_of, format_card, parse_cards
from binokel_sim.families import PARTNERSHIP, engine_family
from binokel_sim.game_blocks import GAME_BLOCK
from binokel_sim.kernels.uniformity import (
    LAYOUT_READ_OFF,
    LAYOUT_SEATS,
    deal_count_blocks,
    sampler_draw_blocks,
)
from binokel_sim.simulate import set_threads, spread_blocks
from binokel_sim.tables import compile_tables
from binokel_sim.variants import builtin_names, find_variant

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "results" / "uniformity.json"
CHUNK_BLOCKS = 256  # blocks per thread a chunk (a chunk's per-block counts stay a few MB)
DRAW_BLOCK = 65536  # sampler draws per random stream
MIN_EXPECTED = 5.0  # cells expected below this are pooled (the chi-square's usual rule)
QS, JD, QH, KH, AS, AC = 2, 13, 8, 9, 5, 23  # card types (suit * 6 + rank; ranks 9 J Q K T A)
VARIANT_SEEDS = 10**6  # variant V deals with seed + crc32(V) % VARIANT_SEEDS
CASE_SEEDS = 10**6  # sampler case j draws with seed + CASE_SEEDS + j
FOLLOW_UP_BELOW = 0.01  # a test below this is run again on fresh streams (--follow-up runs)
FOLLOW_UP_SEEDS = 10**7  # follow-up run k of a test of seed s: seed s + FOLLOW_UP_SEEDS * (k + 1)
CALIBRATION_SEEDS = 10**8  # calibration run r of variant V: its seed + CALIBRATION_SEEDS + r
# the turned card (its suit is trump) among the cards after the hands, by engine family:
# docs/rules.md "The deal" (the talon's last card), kernels/sixty_six/deals.py (lay_out_deal)
TURNED_AT = {"talon": -1, "sixty_six": 0}


def variant_seed(seed: int, name: str) -> int:
    """The seed variant ``name`` deals with in a report of seed ``seed``."""
    return seed + zlib.crc32(name.encode()) % VARIANT_SEEDS


# --- the exact distributions -------------------------------------------------------------------

def multinomial(n: int, parts) -> int:
    out = factorial(n)
    rest = n
    for k in parts:
        if k < 0:
            return 0
        out //= factorial(k)
        rest -= k
    return 0 if rest < 0 else out // factorial(rest)


def pair_distribution(n_cards: int, copies_a: int, copies_b: int, size_g: int, size_h: int,
                      same_type: bool, same_seat: bool) -> dict[tuple[int, int], Fraction]:
    """P(x copies of type a in seat g, y copies of type b in seat h), exactly, for a deck of
    ``n_cards`` dealt uniformly into seats of ``size_g`` and ``size_h`` cards (and the rest).
    ``same_type``: a and b are one type (``copies_b`` ignored); ``same_seat``: g and h are one
    seat (``size_h`` ignored). Counted as assignments of the physical cards: the copies of a and b
    over (g, h, elsewhere), the other cards filling the seats."""
    cb = 0 if same_type else copies_b
    sh = 0 if same_seat else size_h
    other = n_cards - copies_a - cb
    total = multinomial(n_cards, (size_g, sh))
    out: dict[tuple[int, int], Fraction] = {}
    for ag in range(copies_a + 1):
        for ah in range(copies_a - ag + 1):
            for bg in range(cb + 1):
                for bh in range(cb - bg + 1):
                    ways = (multinomial(copies_a, (ag, ah)) * multinomial(cb, (bg, bh))
                            * multinomial(other, (size_g - ag - bg, sh - ah - bh)))
                    if ways == 0:
                        continue
                    if same_type:
                        key = (ag, ag) if same_seat else (ag, ah)
                    else:
                        key = (ag, bg) if same_seat else (ag, bh)
                    out[key] = out.get(key, Fraction(0)) + Fraction(ways, total)
    return out


def chi2_sf(statistic: float, df: int) -> float:
    from scipy.stats import chi2

    return float(chi2.sf(statistic, df))


def goodness_of_fit(observed: dict, probabilities: dict, n: int) -> dict:
    """Pearson's chi-square of ``observed`` counts (key: count, over ``n`` trials) against the
    exact ``probabilities`` (key: probability); cells expected below :data:`MIN_EXPECTED` are
    pooled into one (with the smallest other cell while it is still below). A key observed
    that has probability 0 is counted in ``outside`` (and makes the p-value 0). Too few trials
    to leave two cells: no test (``p`` None)."""
    outside = sum(c for key, c in observed.items() if key not in probabilities)
    cells = sorted(((float(p) * n, observed.get(key, 0)) for key, p in probabilities.items()
                    if p > 0), reverse=True)
    big = [c for c in cells if c[0] >= MIN_EXPECTED]
    small = [c for c in cells if c[0] < MIN_EXPECTED]
    if small:
        pooled = (sum(e for e, _ in small), sum(o for _, o in small))
        while pooled[0] < MIN_EXPECTED and big:
            e, o = big.pop()
            pooled = (pooled[0] + e, pooled[1] + o)
        big.append(pooled)
    statistic = sum((o - e) ** 2 / e for e, o in big)
    df = len(big) - 1
    p = 0.0 if outside else (chi2_sf(statistic, df) if df > 0 else None)
    return {"chi2": statistic, "df": df, "p": p, "cells": len(cells), "outside": int(outside)}


def table_test(observed: np.ndarray, sizes: list[int], copies: np.ndarray, deals: int) -> dict:
    """The card × seat test: ``observed`` int (groups, types) summed over ``deals`` deals, each
    group (seat) receiving ``sizes[g]`` cards of a deck of ``copies[t]`` copies of each type.
    Expected ``deals × sizes[g] × copies[t] / N``; the statistic is scaled by ``(N - 1) / N``
    (fixed margins: the multivariate hypergeometric's covariance), with ``(G - 1)(T - 1)``
    degrees of freedom. Also the largest standardised cell (exact variance)."""
    present = copies > 0
    o = observed[:, present].astype(np.float64)
    c = copies[present].astype(np.float64)
    r = np.asarray(sizes, dtype=np.float64)
    n = float(c.sum())
    expected = deals * np.outer(r, c) / n
    statistic = float(((o - expected) ** 2 / expected).sum()) * (n - 1) / n
    df = (len(r) - 1) * (len(c) - 1)
    variance = deals * np.outer(r * (n - r), c * (n - c)) / (n * n * (n - 1))
    z = (o - expected) / np.sqrt(variance)
    g, t = np.unravel_index(int(np.abs(z).argmax()), z.shape)
    types = np.flatnonzero(present)
    return {"chi2": statistic, "df": df, "p": chi2_sf(statistic, df),
            "max_abs_z": float(abs(z[g, t])), "max_cell": [int(g), format_card(int(types[t]))]}


# --- the deals ---------------------------------------------------------------------------------

def pairs_for(rules, copies: np.ndarray) -> list[tuple[str, tuple[int, int, int, int]]]:
    """The pairs a variant's report tests: ``(label, (type a, seat g, type b, seat h))``, the
    talon or widow as seat ``players``."""
    p = rules.players
    after_ace = min(t for t in range(AS + 1, N_TYPES) if copies[t])  # AS's neighbour in the deck
    pairs = [(f"{format_card(QS)} + {format_card(JD)} in seat 0 (binokel)", (QS, 0, JD, 0)),
             (f"{format_card(KH)} + {format_card(QH)} in seat 1 (a marriage)", (KH, 1, QH, 1)),
             (f"{format_card(AS)} + {format_card(after_ace)} in seat {p - 1} (deck neighbours)",
              (AS, p - 1, after_ace, p - 1)),
             (f"{format_card(AS)} in seats 0 and 1", (AS, 0, AS, 1))]
    rest = rules.talon or rules.widow
    if rest:
        where = "talon" if rules.talon else "widow"
        pairs.append((f"{format_card(AC)} in the {where} and in seat 0", (AC, p, AC, 0)))
    return pairs


def deal_counts(rules, deals: int, seed: int, threads: int) -> dict:
    """Deal ``deals`` deals of ``rules`` (blocks of ``GAME_BLOCK``, as the games' streams) and
    return the summed counts: ``cells`` (seats then talon or widow positions, types) and
    ``pair_hist`` (pairs, 5, 5)."""
    deck = compile_tables(rules).deck
    partnership = engine_family(rules) == PARTNERSHIP
    layout = LAYOUT_SEATS if partnership else LAYOUT_READ_OFF
    players, hand = rules.players, rules.hand_size
    rest = deck.shape[0] - players * hand
    copies = np.bincount(deck, minlength=N_TYPES)
    pairs = pairs_for(rules, copies)
    pair_rows = np.array([p for _, p in pairs], dtype=np.int64)
    cells = np.zeros((players + rest, N_TYPES), dtype=np.int64)
    hist = np.zeros((len(pairs), 5, 5), dtype=np.int64)
    per_chunk = CHUNK_BLOCKS * threads * GAME_BLOCK
    start = time.perf_counter()
    for first in range(0, deals, per_chunk):
        n = min(per_chunk, deals - first)
        n_blocks = -(-n // GAME_BLOCK)
        c = np.zeros((n_blocks, players + rest, N_TYPES), dtype=np.int64)
        h = np.zeros((n_blocks, len(pairs), 5, 5), dtype=np.int64)
        spread_blocks(deal_count_blocks, n_blocks, deck=deck, layout=layout, hand=hand,
                      n_seats=players, pairs=pair_rows, seed=seed,
                      first_block=first // GAME_BLOCK, block_size=GAME_BLOCK, n_deals=n,
                      cells=c, pair_hist=h)
        cells += c.sum(axis=0)  # in block order (integers: exact)
        hist += h.sum(axis=0)
    seconds = time.perf_counter() - start
    return {"cells": cells, "pair_hist": hist, "pairs": pairs, "copies": copies,
            "layout": "deal_seats" if partnership else "shuffle read off in order",
            "seconds": seconds}


def variant_tests(rules, counted: dict, deals: int) -> dict:
    """The tests of one variant's counts (:func:`deal_counts`): ``card_seat``, ``positions``
    (the talon and widow games; with its ``turned_card`` where one is turned) and ``pairs``."""
    cells, copies = counted["cells"], counted["copies"]
    players, hand = rules.players, rules.hand_size
    n_cards = int(copies.sum())
    rest = n_cards - players * hand
    seats = np.vstack([cells[:players], cells[players:].sum(axis=0, keepdims=True)]) \
        if rest else cells
    sizes = [hand] * players + ([rest] if rest else [])
    row = {"card_seat": table_test(seats, sizes, copies, deals)}
    if rest:
        by_position = np.vstack([cells[players:], cells[:players].sum(axis=0, keepdims=True)])
        positions = table_test(by_position, [1] * rest + [players * hand], copies, deals)
        positions["where"] = "talon" if rules.talon else "widow"
        at = TURNED_AT.get(engine_family(rules))
        if at is not None:
            turned = {(t,): int(cells[players + at % rest, t]) for t in range(N_TYPES)}
            exact = {(t,): Fraction(int(copies[t]), n_cards) for t in range(N_TYPES)}
            positions["turned_card"] = {"position": at % rest,
                                        **goodness_of_fit(turned, exact, deals)}
        row["positions"] = positions
    row["pairs"] = []
    for (label, (a, g, b, h)), hist in zip(counted["pairs"], counted["pair_hist"]):
        size = [hand] * players + [rest]
        exact = pair_distribution(n_cards, int(copies[a]), int(copies[b]), size[g], size[h],
                                  a == b, g == h)
        observed = {(x, y): int(hist[x, y]) for x in range(5) for y in range(5) if hist[x, y]}
        fit = goodness_of_fit(observed, exact, deals)
        mean_xy = sum(x * y * c for (x, y), c in observed.items()) / deals
        exact_xy = float(sum(x * y * p for (x, y), p in exact.items()))
        row["pairs"].append({"pair": label, "types_seats": [a, g, b, h], **fit,
                             "mean_xy": mean_xy, "mean_xy_exact": exact_xy})
    return row


def p_values(row: dict) -> dict[str, float]:
    """A variant's p-values by test: card × seat, positions, last card, each pair."""
    out = {"card × seat": row["card_seat"]["p"]}
    if "positions" in row:
        out[f"{row['positions']['where']} positions"] = row["positions"]["p"]
        if "turned_card" in row["positions"]:
            out["the turned card"] = row["positions"]["turned_card"]["p"]
    out.update({f"pair {pair['pair']}": pair["p"] for pair in row["pairs"]})
    return out


def variant_report(rules, deals: int, seed: int, threads: int, follow_up: int) -> dict:
    counted = deal_counts(rules, deals, seed, threads)
    players = rules.players
    rest = counted["cells"].shape[0] - players
    where = "talon" if rules.talon else "widow"
    row = {"variant": rules.name, "version": __version__, "seed": seed, "deals": deals,
           "deal": counted["layout"], "seconds": round(counted["seconds"], 2),
           **variant_tests(rules, counted, deals)}
    low = [name for name, p in p_values(row).items() if p is not None and p < FOLLOW_UP_BELOW]
    row["follow_ups"] = []
    if low and follow_up:
        # fresh streams only: the run that raised the question does not answer it
        seeds = [seed + FOLLOW_UP_SEEDS * (k + 1) for k in range(follow_up)]
        runs = [deal_counts(rules, deals, s, threads) for s in seeds]
        each = [p_values(variant_tests(rules, run, deals)) for run in runs]
        combined = {**runs[0], "cells": sum(run["cells"] for run in runs),
                    "pair_hist": sum(run["pair_hist"] for run in runs)}
        together = p_values(variant_tests(rules, combined, deals * follow_up))
        row["follow_ups"] = [{"test": name, "p": p_values(row)[name], "seeds": seeds,
                              "deals_each": deals, "p_each": [e[name] for e in each],
                              "p_combined": together[name]} for name in low]
    row["counts"] = {"cells": counted["cells"].tolist(),
                     "pair_hist": counted["pair_hist"].tolist(),
                     "rows": [f"seat {s}" for s in range(players)]
                     + [f"{where} position {j}" for j in range(rest)]}
    return row


# --- the constrained sampler -------------------------------------------------------------------

def kernel_draws(pool, allowed, capacity, bound, draws: int, seed: int) -> tuple[dict, float]:
    """``draws`` deals of the production sampler (``kernels/uniformity.sampler_draw_blocks``:
    ``sample_bounded``, ``sample_counts`` without a bound; streams ``(seed, 0 ..)``) counted by
    what each group got: ``{((counts of group 0 per pool type), ...): draws}``, and its count of
    consistent deals."""
    from binokel_sim.kernels.sampler import count_bounded

    groups = len(capacity)
    p = np.asarray(pool, dtype=np.int64)
    a = np.zeros(4, dtype=np.int64)
    c = np.zeros(4, dtype=np.int64)
    a[:groups] = allowed
    c[:groups] = capacity
    layers = 1 if bound is None else 2
    ways = np.zeros((layers * (N_TYPES + 1), c[0] + 1, c[1] + 1, c[2] + 1))
    kb = None if bound is None else (
        np.asarray(bound.lower, dtype=np.int64),
        np.array([bound.soloist, bound.buried, bound.holder, bound.given, bound.held,
                  int(bound.slack), bound.demand], dtype=np.int64))
    total = count_bounded(p, a, c, groups, ways, kb)
    types = np.flatnonzero(p).astype(np.int64)
    out = np.zeros((draws, groups, len(types)), dtype=np.int8)
    spread_blocks(sampler_draw_blocks, -(-draws // DRAW_BLOCK), pool=p, allowed=a, capacity=c,
                  n_groups=groups, ways=ways, bound=kb, types=types, seed=seed, first_block=0,
                  block_size=DRAW_BLOCK, out=out)
    rows, counts = np.unique(out.reshape(draws, -1), axis=0, return_counts=True)
    seen = {}
    for r, k in zip(rows, counts):
        split = r.reshape(groups, len(types))
        seen[tuple(tuple(int(split[g, i]) for i in range(len(types)))
                   for g in range(groups))] = int(k)
    return seen, float(total)


def enumerated(pool, allowed, capacity, bound=None) -> dict:
    """Every consistent deal by brute force (``reference.sampler.enumerate_deals``), keyed as
    :func:`kernel_draws` keys its draws (the copies of the pool's types only)."""
    from binokel_sim.reference.sampler import enumerate_deals

    types = [t for t in range(N_TYPES) if pool[t]]
    found = enumerate_deals(pool, allowed, capacity, bound)
    out: dict = {}
    for key, ways in found.items():
        short = tuple(tuple(row[t] for t in types) for row in key)
        out[short] = out.get(short, 0) + ways
    return out


def fit_of(exact: dict, seen: dict, draws: int) -> dict:
    """:func:`goodness_of_fit` of ``seen`` draws against ``exact`` (key: consistent deals)."""
    total = sum(exact.values())
    return goodness_of_fit(seen, {k: Fraction(w, total) for k, w in exact.items()}, draws)


# four-hand-80, the example hand; 51 of the 60 other cards known (17 a seat), 9 hidden
FOUR_KNOWN = ['left:"AS QS JS JS AH TH TH TD TD TD KD QD AC QC QC JC JC"',
              'partner:"AS JS TH KH JH JH JH AD AD QD AC AC KC QC QC JC JC"',
              'right:"TS TS TS KS AH AH KH JH AD TD KD KD TC TC TC KC KC"']
# the same with the right's known spades swapped for the left's known diamonds: the right may be
# void in spades
FOUR_KNOWN_NO_SPADE = ['left:"AS TS TS TS KS QS JS JS AH TH TH QD AC QC QC JC JC"', FOUR_KNOWN[1],
                       'right:"AH AH KH JH AD TD TD TD TD KD KD KD TC TC TC KC KC"']
# swabian-3-40, the example hand; 9 of each other seat's 12 cards known, 3 + 3 + the widow hidden
SWABIAN_KNOWN = ['left:"TH TH AD TD KD QD AC QC JC"', 'right:"AS TS AH TD KD QD TC KC JC"']
OPTION_CASES = [  # (variant, --known texts, --void texts)
    ("four-hand-80", FOUR_KNOWN, []),
    ("four-hand-80", FOUR_KNOWN_NO_SPADE, ["right:S"]),
    ("swabian-3-40", SWABIAN_KNOWN, []),
    ("swabian-3-40", SWABIAN_KNOWN, ["left:S"]),
]
AUCTION = ("50 pass 51", "right")  # the hand bids 50, left passes, partner bids 51


def option_inputs(rules, known_texts, void_texts):
    """The sampler's inputs as the commands make them (``constraints.parse_knowledge``,
    ``inputs_for``), and the same derived here directly from the texts for the enumeration."""
    from binokel_sim.constraints import inputs_for, parse_knowledge

    own = counts_of(parse_cards(rules.example_hand))
    knowledge = parse_knowledge(rules, own, known_texts, void_texts)
    made = inputs_for(rules, own, knowledge, hidden=rules.widow)
    others = rules.players - 1
    known = np.zeros((others, N_TYPES), dtype=np.int64)
    allowed = [(1 << N_TYPES) - 1] * others + ([(1 << N_TYPES) - 1] if rules.widow else [])
    names = {"left": 0, "partner": 1, "right": others - 1}
    for text in known_texts:
        seat, _, cards = text.partition(":")
        for t in parse_cards(cards.strip('"')):
            known[names[seat], t] += 1
    for text in void_texts:
        seat, _, suit = text.partition(":")
        allowed[names[seat]] &= ~(0b111111 << (6 * SUITS.index(suit)))
    pool = (rules.deck_counts() - own - known.sum(axis=0)).tolist()
    capacity = [rules.hand_size - int(k.sum()) for k in known] + (
        [rules.widow] if rules.widow else [])
    groups = made.groups
    assert made.pool.tolist() == pool and made.capacity[:groups].tolist() == capacity \
        and made.allowed[:groups].tolist() == allowed, "the CLI's inputs differ from the texts'"
    return made, pool, allowed, capacity, own, known


def auction_case():
    """four-hand-80's bid samples given the auction, as ``bid-odds --known ... --auction
    "50 pass 51" --dealer right`` makes them (``engines.partnership.run_samples``, random play),
    against the exact distribution: every consistent deal of the hidden cards whose seats' bid
    limits (the twin's ``bid_limit``) repeat the auction, weighed by its assignments. A sample is
    seen through its pairs' melds for each trump the hand may name (the kernel's outputs)."""
    from binokel_sim.bidding import auction_bounds, parse_auction
    from binokel_sim.constraints import parse_knowledge
    from binokel_sim.engines.partnership import marriage_trumps, run_samples
    from binokel_sim.reference.core import meld_total
    from binokel_sim.reference.play import bid_limit

    rules = find_variant("four-hand-80")
    _, pool, allowed, capacity, own, known = option_inputs(rules, FOUR_KNOWN, [])
    dealer = {"me": 0, "left": 1, "partner": 2, "right": 3}[AUCTION[1]]
    lo, hi = auction_bounds(rules, 0, parse_auction(rules, AUCTION[0], dealer))
    trumps = marriage_trumps(rules, own)
    types = [t for t in range(N_TYPES) if pool[t]]
    exact: dict = {}
    every = 0
    for key, ways in enumerated(pool, allowed, capacity).items():
        hands = [list(own)] + [[int(known[s][t]) + (key[s][types.index(t)] if t in types else 0)
                                for t in range(N_TYPES)] for s in range(3)]
        every += ways
        if not all(lo[s] <= bid_limit(rules, hands[s])[0] <= hi[s] for s in (1, 2, 3)):
            continue
        seen = tuple((meld_total(rules, hands[0], t) + meld_total(rules, hands[2], t),
                      meld_total(rules, hands[1], t) + meld_total(rules, hands[3], t))
                     for t in trumps)
        exact[seen] = exact.get(seen, 0) + ways
    knowledge = parse_knowledge(rules, own, FOUR_KNOWN, [])

    def draw(draws: int, seed: int) -> tuple[dict, dict]:
        samples = run_samples(rules, own, draws, seed, "random", knowledge=knowledge,
                              trumps=trumps, auction=(lo, hi))
        observed: dict = {}
        for d in range(draws):
            key = tuple((int(samples.pair_meld[d, j]), int(samples.opp_meld[d, j]))
                        for j in range(len(trumps)))
            observed[key] = observed.get(key, 0) + 1
        return observed, {"fit_share_observed": draws / float(samples.draws.sum())}

    label = (f"four-hand-80 --known (9 hidden) --auction \"{AUCTION[0]}\" --dealer "
             f"{AUCTION[1]}")
    return label, "auction", exact, draw, {"fit_share_exact": sum(exact.values()) / every}


def sampler_cases() -> list[tuple]:
    """``(label, kind, exact, draw, facts)`` of every case: ``exact`` the consistent deals by
    key (their assignments), ``draw(draws, seed)`` → (draws by key, more facts)."""
    from binokel_sim.reference.sampler import BOUNDED_CASES, PLAIN_CASES

    def kernel(pool, allowed, capacity, bound=None):
        def draw(draws: int, seed: int) -> tuple[dict, dict]:
            seen, total = kernel_draws(pool, allowed, capacity, bound, draws, seed)
            return seen, {"sampler_count": total}
        return draw

    cases = [(name, "kernel", enumerated(*case), kernel(*case), {})
             for name, case in PLAIN_CASES.items()]
    cases += [(name, "kernel, the widow games' bound", enumerated(*case), kernel(*case), {})
              for name, case in BOUNDED_CASES.items()]
    for variant, known_texts, void_texts in OPTION_CASES:
        made, pool, allowed, capacity, _, _ = option_inputs(find_variant(variant), known_texts,
                                                            void_texts)
        label = (f"{variant} --known ({sum(pool)} hidden)"
                 + "".join(f" --void {v}" for v in void_texts))
        cases.append((label, "options", enumerated(pool, allowed, capacity),
                      kernel(made.pool.tolist(), made.allowed[:made.groups].tolist(),
                             made.capacity[:made.groups].tolist()), {}))
    cases.append(auction_case())
    return cases


def sampler_report(draws: int, seed: int, follow_up: int) -> list[dict]:
    """Every case drawn ``draws`` times with seed ``seed + CASE_SEEDS + j`` (case ``j``); a case
    below :data:`FOLLOW_UP_BELOW` drawn again ``follow_up`` times on fresh streams."""
    rows = []
    for j, (label, kind, exact, draw, facts) in enumerate(sampler_cases()):
        case_seed = seed + CASE_SEEDS + j
        seen, more = draw(draws, case_seed)
        row = {"case": label, "kind": kind, "seed": case_seed, "draws": draws,
               "consistent_deals": sum(exact.values()), **fit_of(exact, seen, draws), **facts,
               **more, "follow_ups": []}
        if row["p"] is not None and row["p"] < FOLLOW_UP_BELOW and follow_up:
            seeds = [case_seed + FOLLOW_UP_SEEDS * (k + 1) for k in range(follow_up)]
            runs = [draw(draws, s)[0] for s in seeds]
            together: dict = {}
            for run in runs:
                for key, n in run.items():
                    together[key] = together.get(key, 0) + n
            row["follow_ups"] = [{"test": label, "p": row["p"], "seeds": seeds,
                                  "deals_each": draws,
                                  "p_each": [fit_of(exact, run, draws)["p"] for run in runs],
                                  "p_combined": fit_of(exact, together,
                                                       draws * follow_up)["p"]}]
        rows.append(row)
    return rows


# --- the run -----------------------------------------------------------------------------------

def calibration(rules, runs: int, deals: int, seed: int, threads: int) -> dict:
    """Are the tests themselves right (the chi-square approximations, the (N - 1) / N scaling,
    the exact distributions)? ``runs`` independent runs of ``deals`` deals (seeds ``seed +
    CALIBRATION_SEEDS + r``): under a fair shuffle each test's p-values are uniform, which a
    Kolmogorov-Smirnov test checks; also the share below 0.05."""
    from scipy.stats import kstest

    per: dict[str, list[float]] = {}
    for r in range(runs):
        counted = deal_counts(rules, deals, seed + CALIBRATION_SEEDS + r, threads)
        for name, p in p_values(variant_tests(rules, counted, deals)).items():
            per.setdefault(name, []).append(p)
    return {"runs": runs, "deals_each": deals, "first_seed": seed + CALIBRATION_SEEDS,
            "tests": {name: {"ks_p": float(kstest(ps, "uniform").pvalue),
                             "below_0.05": sum(p < 0.05 for p in ps) / runs}
                      for name, ps in per.items()}}


def summary(variants: list[dict], sampler: list[dict]) -> dict:
    """How the first runs' p-values fall (tests without a p-value, too few draws, left out),
    and the follow-ups of the small ones."""
    from scipy.stats import kstest

    every = [p for v in variants for p in p_values(v).values()] + [row["p"] for row in sampler]
    ps = [p for p in every if p is not None]
    follow = [f for v in variants for f in v["follow_ups"]] + [
        f for row in sampler for f in row["follow_ups"]]
    return {"tests": len(ps), "untested": len(every) - len(ps),
            "below_0.05": sum(p < 0.05 for p in ps), "below_0.01": sum(p < 0.01 for p in ps),
            "below_0.001": sum(p < 0.001 for p in ps), "smallest_p": min(ps),
            "uniform_p_values_ks_p": float(kstest(ps, "uniform").pvalue),
            "followed_up": len(follow),
            "followed_up_combined_below_0.01": sum(f["p_combined"] is not None
                                                   and f["p_combined"] < 0.01 for f in follow)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10**8, help="deals per variant")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--draws", type=int, default=10**6,
                        help="constrained-sampler draws per small case")
    parser.add_argument("--follow-up", type=int, default=4,
                        help=f"runs on fresh streams of a test below p = {FOLLOW_UP_BELOW}")
    parser.add_argument("--calibration-runs", type=int, default=100,
                        help="small runs a variant that check the tests' own p-values")
    parser.add_argument("--calibration-deals", type=int, default=10**6,
                        help="deals in each calibration run")
    parser.add_argument("--variants", nargs="*", default=None,
                        help="these variants only (default: every built-in one)")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    threads = set_threads(args.threads)
    names = args.variants or builtin_names()
    started = time.perf_counter()
    variants = []
    for name in names:
        rules = find_variant(name)
        row = variant_report(rules, args.deals, variant_seed(args.seed, name), threads,
                             args.follow_up)
        if args.calibration_runs:
            row["calibration"] = calibration(rules, args.calibration_runs,
                                             args.calibration_deals, row["seed"], threads)
        print(f"{name}: {args.deals:,} deals in {row['seconds']:.1f} s; card x seat p = "
              f"{row['card_seat']['p']:.4f}; {len(row['follow_ups'])} followed up",
              file=sys.stderr)
        variants.append(row)
    t0 = time.perf_counter()
    sampler = sampler_report(args.draws, args.seed, args.follow_up)
    print(f"constrained sampler: {len(sampler)} cases in {time.perf_counter() - t0:.1f} s",
          file=sys.stderr)
    command = ["python", "scripts/uniformity.py", "--deals", str(args.deals), "--seed",
               str(args.seed), "--draws", str(args.draws), "--follow-up", str(args.follow_up),
               "--calibration-runs", str(args.calibration_runs), "--calibration-deals",
               str(args.calibration_deals)]
    if args.variants:
        command += ["--variants", *args.variants]
    document = {"provenance": {"script": "scripts/uniformity.py", "command": " ".join(command),
                               "version": __version__, "seed": args.seed,
                               "deals_per_variant": args.deals, "draws_per_case": args.draws,
                               "follow_up_runs": args.follow_up,
                               "calibration_runs": args.calibration_runs,
                               "calibration_deals": args.calibration_deals,
                               "follow_up_below": FOLLOW_UP_BELOW,
                               "block_size": GAME_BLOCK, "threads": threads,
                               "date": datetime.date.today().isoformat(),
                               "seconds": round(time.perf_counter() - started, 1)},
                "summary": summary(variants, sampler), "variants": variants,
                "sampler": sampler}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.out.with_name(args.out.name + ".tmp")
    tmp.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    tmp.replace(args.out)
    for line in table_lines(document):
        print(line)
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


def shown(p: float | None) -> str:
    return "–" if p is None else f"{p:.3f}" if p >= 0.001 else f"{p:.1e}"


def table_lines(document: dict) -> list[str]:
    """The report's tables in Markdown (also what ``scripts/results_doc.py`` writes)."""
    lines = ["| variant | seed | deals | card × seat: χ² (df), p | max \\|z\\| | talon/widow "
             "positions: χ² (df), p | the turned card: p | pairs: p |",
             "|---|---:|---:|---|---:|---|---|---|"]
    for v in document["variants"]:
        cs = v["card_seat"]
        pos = v.get("positions")
        where = (f"{pos['chi2']:.1f} ({pos['df']}), {shown(pos['p'])}" if pos else "–")
        last = shown(pos["turned_card"]["p"]) if pos and "turned_card" in pos else "–"
        pairs = ", ".join(shown(pair["p"]) for pair in v["pairs"])
        lines.append(f"| {v['variant']} | {v['seed']} | {v['deals']:,} | {cs['chi2']:.1f} "
                     f"({cs['df']}), {shown(cs['p'])} | {cs['max_abs_z']:.2f} | {where} | "
                     f"{last} | {pairs} |")
    lines += ["", "| constrained sampler case | kind | consistent deals | seed | draws | χ² (df) "
              "| p |", "|---|---|---:|---:|---:|---|---:|"]
    for row in document["sampler"]:
        lines.append(f"| {row['case']} | {row['kind']} | {row['consistent_deals']:,} | "
                     f"{row['seed']} | {row['draws']:,} | {row['chi2']:.1f} ({row['df']}) | "
                     f"{shown(row['p'])} |")
    calibrated = [v for v in document["variants"] if "calibration" in v]
    if calibrated:
        c = calibrated[0]["calibration"]
        lines += ["", f"The tests' own calibration ({c['runs']} runs of {c['deals_each']:,} deals "
                  "a variant on fresh streams: a right test's p-values are uniform): per "
                  "variant, the Kolmogorov-Smirnov p of each test's p-values (in the first "
                  "table's order), and the share of all its runs' p-values below 0.05.", "",
                  "| variant | KS p of each test's p-values | share below 0.05 |",
                  "|---|---|---:|"]
        for v in calibrated:
            tests = v["calibration"]["tests"].values()
            share = sum(t["below_0.05"] for t in tests) / len(tests)
            lines.append(f"| {v['variant']} | {', '.join(shown(t['ks_p']) for t in tests)} | "
                         f"{share:.3f} |")
    follow = [(v["variant"], f) for v in document["variants"] for f in v["follow_ups"]]
    follow += [("constrained sampler", f) for row in document["sampler"]
               for f in row["follow_ups"]]
    if follow:
        lines += ["", f"Followed up (every p below {document['provenance']['follow_up_below']}: "
                  "the same test on fresh streams, the run that raised it left out):", "",
                  "| variant | test | p | fresh seeds | deals (draws) each | p of each | "
                  "p of them together |", "|---|---|---:|---|---:|---|---:|"]
        for where, f in follow:
            lines.append(f"| {where} | {f['test']} | {shown(f['p'])} | "
                         f"{', '.join(map(str, f['seeds']))} | {f['deals_each']:,} | "
                         f"{', '.join(shown(p) for p in f['p_each'])} | "
                         f"{shown(f['p_combined'])} |")
    return lines


if __name__ == "__main__":
    sys.exit(main())
