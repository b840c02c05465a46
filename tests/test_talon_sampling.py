"""The sampling policy of two-hand-48 (kernels/talon/sampling.py): what the seat knows, the
shuffle's uniformity against enumeration, phase 1 against the twin deal for deal, its records
against the rules, threads, strength and where it is refused."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from talon_replay import replay_talon
from test_talon import kernel_records

from binokel_sim.cards import counts_to_planes, parse_cards
from binokel_sim.constants import RACE_DELTA, RACE_EVERY
from binokel_sim.engines import policies as engine_policies
from binokel_sim.engines import talon as talon_games
from binokel_sim.engines.policies import sampling_options
from binokel_sim.kernels.policies import POLICY_HEURISTIC
from binokel_sim.kernels.options import njit
from binokel_sim.kernels.random import seed_stream
from binokel_sim.kernels.strict.sampling import race_drop, race_note, race_zone
from binokel_sim.kernels.strict.tricks import Trick, counter_cards
from binokel_sim.kernels.talon.declare import (
    CFG_SWAP_RANK,
    apply_declaration,
    declaration_legal,
    legal_declarations,
)
from binokel_sim.kernels.talon.lookup import (
    declaration_tables,
    held_rows,
    held_rows_high,
    key_mask,
    legal_rows,
)
from binokel_sim.kernels.talon.sampling import (
    DealState,
    known_copies,
    shuffle_pool,
    talon_rest,
    talon_sampling_card,
    talon_sampling_scratch,
    unseen_pool,
)
from binokel_sim.records.talon import records as talon_records
from binokel_sim.reference.core import race_survivors
from binokel_sim.reference.core import race_zone as twin_race_zone
from binokel_sim.reference.talon_play import play_deals as twin_deals
from binokel_sim.simulate import SimulationError
from binokel_sim.stats import mean_interval
from binokel_sim.variants import find_variant

RULES = find_variant("two-hand-48")


def planes(text: str) -> np.ndarray:
    counts = np.zeros(24, dtype=np.int64)
    for t in parse_cards(text):
        counts[t] += 1
    return counts_to_planes(counts).astype(np.int64)


def played_planes(text: str) -> tuple[int, int, int, int]:
    q = planes(text)
    return tuple(int(x) for x in q)


# --- what the seat knows ------------------------------------------------------------------------

def test_known_copies_are_the_served_ones_and_the_card_taken_with_the_swap():
    """Read from the records and the swap alone: the same whatever the seat really holds."""
    served = np.zeros((2, 24, 4), dtype=np.int64)
    kh, qh, ts, ah = parse_cards("KH QH TS AH")
    served[1, kh, 0] = 1  # one king of hearts served a marriage; the other copy did not
    served[1, qh, 0] = 1
    assert known_copies(served, 1, kh, -1, -1) == 1
    assert known_copies(served, 1, qh, -1, -1) == 1
    assert known_copies(served, 1, ts, -1, -1) == 0
    assert known_copies(served, 1, ah, 1, ah) == 1  # he took the turned AH
    assert known_copies(served, 1, ah, 0, ah) == 0  # the other seat took it
    served[1, ah, 0] = 1  # an ace of hearts served since: the taken one or not, one is known,
    assert known_copies(served, 1, ah, -1, -1) == 1  # and the kernel clears the taken card


@pytest.mark.parametrize("name", ["two-hand-48", "three-hand-72", "four-hand-72"])
def test_the_play_out_from_the_first_card_is_the_heuristic_deal(name):
    """``talon_rest`` from trick 0, no card on the table, plays the whole deal as the engine
    does with the heuristic on every seat: the same card and meld points (the turned card's
    bonus given beforehand), deal for deal."""
    rules = find_variant(name)
    tt = talon_games.family_tables(rules)
    p = rules.players
    played = talon_games.run_play(rules, 12, 21, "heuristic")
    records = list(talon_records(played))
    scratch = talon_sampling_scratch(p, rules.talon, tt.n_melds, True)
    dt = declaration_tables(tt.decl, tt.n_decl, tt.n_melds)
    for d, record in enumerate(records):
        hands = played.hands[d].astype(np.int64)
        talon = played.talon[d].copy()
        points = np.zeros((p, 2), dtype=np.int64)
        dealer = d % p
        if record["turned_dix"]:
            points[dealer, 1] += rules.turned_bonus
        z = np.int64(0)
        scratch.won[:] = 0
        scratch.policies[:] = POLICY_HEURISTIC
        deal = DealState(hands, talon, z, np.zeros((p, 24, 4), np.int64),
                         np.zeros((p, max(tt.n_melds, 1)), np.int64), points, (z, z, z, z),
                         np.int64(talon[-1] // 6), np.int64(-1), np.int64(-1))
        leader = np.int64((dealer + 1) % p)
        talon_rest(deal, Trick(leader, z, np.int64(-1), z, np.int64(-1), leader, z, z), tt, dt,
                   counter_cards(tt.card_points), scratch, np.int64(-1))
        assert points.tolist() == played.points[d].tolist(), d


@pytest.mark.parametrize("name", ["two-hand-48", "three-hand-72"])
def test_the_play_outs_lookup_finds_the_legal_rows(name):
    """The play-outs' declarations by lookups (kernels/talon/sampling.py, ``talon_rest``): the
    rows the hand holds (``held_rows``), a row with a card of which some copy has served any meld
    checked by ``legal_rows`` on its own, are exactly the rows the scan finds legal
    (``declaration_legal``). Random hands of 12 to 20 cards, each having made up to three random
    legal declarations (served copies, melds inside others, swaps) before it is asked."""
    rules = find_variant(name)
    tt = talon_games.family_tables(rules)
    cfg, decl, n_decl = tt[0], tt[1], tt[2]
    fits, sets, keys, _ = declaration_tables(decl, n_decl, tt[4])
    deck = np.arange(24 * rules.copies) % 24
    rng = np.random.default_rng(5)
    out = np.empty(decl.shape[1], dtype=np.int64)
    legal_rows_seen = checked = 0
    for case in range(400):
        trump = case % 4
        order = rng.permutation(deck)
        size = int(rng.integers(12, 21))
        hands = planes_of(order[:size])[None, :].copy()
        talon = order[size:size + 4].astype(np.int64)
        served = np.zeros((1, 24, 4), dtype=np.int64)
        served_any = np.zeros((1, max(tt[4], 1)), dtype=np.int64)
        swap_nine = trump * 6 + cfg[CFG_SWAP_RANK] if cfg[CFG_SWAP_RANK] >= 0 else -1
        for _ in range(int(rng.integers(0, 4))):
            n = legal_declarations(hands, served, served_any, 0, decl[trump], n_decl[trump],
                                   trump, talon, cfg, out)
            if n == 0:
                break
            pick = int(out[int(rng.integers(n))])
            row, swap = (-pick - 1, True) if pick < 0 else (pick, False)
            apply_declaration(hands, served, served_any, talon, 0, decl[trump], row, swap,
                              swap_nine)
        q = [np.int64(x) for x in hands[0]]
        held = int(held_rows(fits, sets, trump, q[0], q[1])
                   | held_rows_high(fits, sets, trump, q[2], q[3]))
        dirty = 0
        for m in range(served_any.shape[1]):
            dirty |= int(served_any[0, m])
        for r in range(n_decl[trump]):
            scan = declaration_legal(hands, served, served_any, 0, decl[trump], r)
            looked_up = bool((held >> r) & 1) and (
                not key_mask(keys[trump, r]) & dirty
                or legal_rows(keys, decl, served, served_any, 0, trump, 1 << r, 1 << r, *q) != 0)
            assert looked_up == scan, (case, r)
            legal_rows_seen += scan
            checked += bool((held >> r) & 1) and bool(key_mask(keys[trump, r]) & dirty)
    assert legal_rows_seen > 400 and checked > 100  # the cases declare, and records matter


def test_the_decision_reads_nothing_hidden():
    """Two positions that differ only in what the deciding seat cannot see (one of the
    opponent's cards exchanged with a hidden talon card): the same card from the same stream."""
    tt = talon_games.family_tables(RULES)
    deck = np.arange(48) % 24
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(20):
        order = rng.permutation(deck)
        hands = np.stack([planes_of(order[:12]), planes_of(order[12:24])])
        talon = order[24:].astype(np.int64)
        other = order[12:24].copy()
        j = int(rng.integers(12))
        swap = int(rng.integers(23))  # a hidden talon card (not the face-up last one)
        if other[j] == talon[swap]:
            continue
        other[j], talon2 = talon[swap], talon.copy()
        talon2[swap] = order[12 + j]
        hands2 = np.stack([hands[0], planes_of(other)])
        picks = [decide(tt, h, t) for h, t in ((hands, talon), (hands2, talon2))]
        assert picks[0] == picks[1]
        checked += 1
    assert checked >= 15


def planes_of(cards) -> np.ndarray:
    return counts_to_planes(np.bincount(cards, minlength=24)).astype(np.int64)


def decide(tt, hands, talon):
    """Seat 0 leads trick 0 with 8 samples: ``(card, stream after)``."""
    state = np.empty(4, dtype=np.uint64)
    seed_stream(state, 9, 0)
    served = np.zeros((2, 24, 4), dtype=np.int64)
    served_any = np.zeros((2, max(tt.n_melds, 1)), dtype=np.int64)
    z = np.int64(0)
    deal = DealState(hands, talon, z, served, served_any, np.zeros((2, 2), np.int64),
                     (z, z, z, z), np.int64(talon[-1] // 6), np.int64(-1), np.int64(-1))
    out = talon_sampling_card(deal, z, np.int64(hands[0, 0]),
                              Trick(z, z, np.int64(-1), z, np.int64(-1), z, z, z), tt,
                              declaration_tables(tt.decl, tt.n_decl, tt.n_melds),
                              counter_cards(tt.card_points), np.int64(8),
                              talon_sampling_scratch(2, 24, tt.n_melds, True), tuple(state))
    return tuple(int(x) for x in out)


def test_the_pool_is_everything_the_seat_cannot_see():
    """Seat 0 holds two cards; seat 1 holds three, one of them known (a served KH); two cards
    were played, the talon's face-up card is 9D. The pool: the 48 cards less all of those."""
    hands = np.stack([planes("AS TS"), planes("KH QC 9C")])
    served = np.zeros((2, 24, 4), dtype=np.int64)
    kh = parse_cards("KH")[0]
    served[1, kh, 0] = 1
    talon = np.array(parse_cards("JD 9D"), dtype=np.int64)
    pool = np.zeros(96, dtype=np.int64)
    known = np.full((2, 4), -1, dtype=np.int64)
    hidden = np.full(2, -1, dtype=np.int64)
    g = played_planes("AH AH")
    n_pool = unseen_pool(hands, talon, served, 0, *g, -1, -1, 2, pool, known, hidden)
    expected = Counter({t: 2 for t in range(24)})
    expected.subtract(Counter(parse_cards("AS TS AH AH 9D KH")))
    assert Counter(pool[:n_pool].tolist()) == +expected
    assert n_pool == 48 - 6
    assert hidden.tolist() == [0, 2]  # the seat's own row is 0
    assert tuple(known[1]) == played_planes("KH")
    assert known[0].tolist() == [0, 0, 0, 0]


def test_the_pool_of_three_seats_counts_each_seats_known_and_hidden_cards():
    """three-hand-72, seat 1 deciding: seat 2 has served a marriage (KS QS), seat 0 took the
    turned 9H with the swap; everything else of theirs is hidden, and the pool is the 72 cards
    less the seat's, the played, the face-up card and the other seats' known copies."""
    hands = np.stack([planes("9H AC AC"), planes("TS TD"), planes("KS QS JH 9D")])
    served = np.zeros((3, 24, 4), dtype=np.int64)
    ks, qs, nine_h = parse_cards("KS QS 9H")
    served[2, ks, 0] = served[2, qs, 0] = 1
    talon = np.array(parse_cards("JD QD AS"), dtype=np.int64)
    pool = np.zeros(96, dtype=np.int64)
    known = np.zeros((3, 4), dtype=np.int64)
    hidden = np.zeros(3, dtype=np.int64)
    g = played_planes("AH")
    n_pool = unseen_pool(hands, talon, served, 1, *g, 0, nine_h, 3, pool, known, hidden)
    expected = Counter({t: 3 for t in range(24)})
    expected.subtract(Counter(parse_cards("TS TD AH AS KS QS 9H")))
    assert Counter(pool[:n_pool].tolist()) == +expected
    assert hidden.tolist() == [2, 0, 2]
    assert tuple(known[0]) == played_planes("9H")
    assert tuple(known[2]) == played_planes("KS QS")


def test_the_shuffle_is_uniform_over_the_arrangements():
    """Chi-square of 24,000 shuffles of a pool with a repeated card against the 12 distinct
    arrangements, each equally likely (enumerated)."""
    items = [3, 3, 7, 11]
    arrangements = sorted(set(itertools.permutations(items)))
    state = np.empty(4, dtype=np.uint64)
    seed_stream(state, 5, 0)
    s = tuple(state)
    seen = Counter()
    n = 24_000
    pool = np.zeros(4, dtype=np.int64)
    for _ in range(n):
        pool[:] = items
        s = tuple(np.uint64(x) for x in shuffle_pool(pool, 4, *s))
        seen[tuple(pool.tolist())] += 1
    assert set(seen) == set(arrangements)
    expected = n / len(arrangements)
    chi2 = sum((seen[a] - expected) ** 2 / expected for a in arrangements)
    assert chi2 < 31.3  # the 0.999 quantile of chi-square with 11 degrees of freedom


# --- against the twin ------------------------------------------------------------------------

@pytest.mark.parametrize("policies, seed", [(["sampling", "heuristic"], 5),
                                            (["heuristic", "sampling"], 6),
                                            (["sampling", "sampling"], 7)])
def test_phase_1_equals_the_twin(policies, seed):
    """The sampling seats' phase-1 cards, the declarations and draws, against the twin
    (:mod:`binokel_sim.reference.talon_play`: its own view of the seat, shuffles from the same
    stream, play-outs by the twin heuristic), deal for deal."""
    phase1 = RULES.talon // RULES.players
    kernel = kernel_records(RULES, policies, 3, seed, block_size=1, samples=2)
    twin = twin_deals(RULES, policies, 3, seed, 1, n_samples=2)
    for k, t in zip(kernel, twin, strict=True):
        assert k["tricks"][:phase1] == t["tricks"], k["deal"]


def counting_race(monkeypatch):
    """Wraps the twin's ``race_survivors`` to count the looks that dropped a type, those that
    left one type (the decision ends there) and those whose zone dropped a type no zone would
    have kept (``"zoned"``), in all and per phase (``"dropped", 2``: by the phase-2 decision,
    ``strict_sampling_choice``)."""
    import sys

    import binokel_sim.reference.talon_play as twin_play

    seen = Counter()
    race = twin_play.race_survivors

    def counted(alive, values, n_samples, zone):
        kept = race(alive, values, n_samples, zone)
        phase = 2 if sys._getframe(1).f_code.co_name == "strict_sampling_choice" else 1
        zoned = len(kept) < len(race(alive, values, n_samples, 0))
        for what, happened in (("dropped", len(kept) < len(alive)), ("ended", len(kept) == 1),
                               ("zoned", zoned)):
            seen[what] += happened
            seen[what, phase] += happened
        return kept

    monkeypatch.setattr(twin_play, "race_survivors", counted)
    return seen


def test_phase_1_races_as_the_twin(monkeypatch):
    """With 24 samples a decision the race looks twice (after 8 and 16 samples): the sampling
    seat's phase-1 cards, and so the types it dropped and where it stopped reading the stream,
    equal the twin's deal for deal; the looks dropped types, some by the zone, and ended
    decisions."""
    phase1 = RULES.talon // RULES.players
    policies = ["heuristic", "sampling"]
    seen = counting_race(monkeypatch)
    kernel = kernel_records(RULES, policies, 2, 12, block_size=2, samples=24)
    twin = twin_deals(RULES, policies, 2, 12, 2, n_samples=24)
    for k, t in zip(kernel, twin, strict=True):
        assert k["tricks"][:phase1] == t["tricks"], k["deal"]
    assert seen["dropped"] > 0 and seen["ended"] > 0 and seen["zoned"] > 0


@njit
def race_kernel(alive, values, zone):
    """Feeds ``values`` (n, 24) sample by sample to ``race_note`` and drops after the last with
    the indifference zone ``zone``."""
    totals = np.zeros(24, dtype=np.int64)
    cross = np.zeros((24, 24), dtype=np.int64)
    for i in range(values.shape[0]):
        for t in range(24):
            totals[t] += values[i, t]
        race_note(alive, values[i], cross)
    return race_drop(alive, totals, cross, values.shape[0], zone)


def test_the_race_drops_as_the_twin():
    """1,000 random races at a look (2 to 10 types, 8 to 40 samples of integer values, the
    types' means apart by up to 2 times their spread), each with no zone, a partnership seat's
    and a seat's own (0, ``RACE_DELTA // 2``, ``RACE_DELTA``): the types the kernel keeps are
    the twin's; some races drop types, some keep more than the leader, and some drop a type
    that is not 2 standard errors behind but at best ``RACE_DELTA`` better (no zone keeps it)."""
    rng = np.random.default_rng(5)
    dropped = kept = within = 0
    for _ in range(1000):
        types = sorted(rng.choice(24, size=int(rng.integers(2, 11)), replace=False).tolist())
        n = RACE_EVERY * int(rng.integers(1, 6))  # a look
        spread = int(rng.integers(1, 200))
        values = np.zeros((n, 24), dtype=np.int64)
        for t in types:
            shift = int(rng.integers(-2 * spread, 2 * spread + 1))
            values[:, t] = rng.integers(-spread, spread + 1, size=n) + shift
        common = rng.integers(-500, 501, size=n)  # what every type shares on a sample
        values[:, types] += common[:, None]
        alive = sum(1 << t for t in types)
        columns = {t: values[:, t].tolist() for t in types}
        kept_by = {}
        for zone in (0, RACE_DELTA // 2, RACE_DELTA):
            twin = race_survivors(types, columns, n + 1, zone)
            assert race_kernel(np.int64(alive), values, np.int64(zone)) == sum(
                1 << t for t in twin)
            kept_by[zone] = twin
        twin = kept_by[RACE_DELTA]
        dropped += len(twin) < len(types)
        kept += len(twin) > 1
        within += len(kept_by[0]) > len(twin)
    assert dropped > 200 and kept > 200 and within > 20, (dropped, kept, within)


DELTA = RACE_DELTA


@pytest.mark.parametrize("columns, survivors", [
    ({3: [10 * DELTA, -10 * DELTA] * 4, 7: [-10 * DELTA, 10 * DELTA] * 4},
     [3, 7]),  # tied, noisy: 3 leads, 7 stays
    ({3: [9] * 8, 7: [4] * 8}, [3]),  # 5 behind on every sample: no spread, dropped
    ({3: [2, 8, 4, 6] * 2, 7: [2, 8, 4, 6] * 2}, [3]),  # the same on every sample: dropped
    ({3: [2, 8, 4, 6] * 2, 7: [2 + DELTA, 8 - DELTA, 4, 6] * 2},
     [3]),  # tied within the zone: dropped
    ({3: [0] * 8, 7: [3 * DELTA // 2, -3 * DELTA // 2] * 3 + [DELTA // 2, -DELTA // 2]},
     [3, 7]),  # tied, on the edge: 4 (n Q - S**2) equals (n - 1) M**2, kept
    ({3: [2, 8, 4, 6] * 2, 7: [0, 6, 2, 4] * 2,
      9: [2 + 10 * DELTA - 1, 8 - 10 * DELTA - 1, 4 + 10 * DELTA - 1, 6 - 10 * DELTA - 1] * 2},
     [3, 9]),  # 7 (total 24) two behind every time; 9 one behind on average, too noisy to drop
])
def test_the_race_at_its_edges(columns, survivors):
    """A tied leader (the lower type leads, the other stays while its spread leaves room to be
    more than ``RACE_DELTA`` better), a type behind by the same on every sample (no spread:
    dropped), types equal on every sample or tied within ``RACE_DELTA`` (dropped: at best a
    little better): kernel and twin after one look of 8 samples."""
    values = np.zeros((8, 24), dtype=np.int64)
    for t, column in columns.items():
        values[:, t] = column
    alive = sum(1 << t for t in columns)
    twin = race_survivors(sorted(columns), {t: list(c) for t, c in columns.items()}, 9,
                          RACE_DELTA)
    assert twin == survivors
    assert race_kernel(np.int64(alive), values, np.int64(RACE_DELTA)) == sum(
        1 << t for t in survivors)


@njit
def zone_kernel(pairs):
    """The kernel's zone for a seat of a partnership (``pairs``) or for one playing alone."""
    return race_zone(pairs)


def test_a_partnership_seat_races_with_half_the_zone():
    """The zone is ``RACE_DELTA`` shared by the seats of a side: the kernel's flag for
    partnerships and the twin's seats per side agree, and a partnership's is half."""
    assert zone_kernel(False) == twin_race_zone(1) == RACE_DELTA
    assert zone_kernel(True) == twin_race_zone(2) == RACE_DELTA // 2 > 0


# --- whole deals ----------------------------------------------------------------------------------

def sampling_records(n, seed, samples=4, threads=None):
    played = talon_games.run_play(RULES, n, seed, "sampling", threads,
                                        samples_per_move=samples)
    return played, list(talon_records(played))


def test_sampling_records_replay_under_the_rules():
    played, records = sampling_records(1024, 31)
    for record in records:
        replay_talon(RULES, record)
    assert (played.points[:, :, 0].sum(axis=1) == RULES.total_card_points).all()


def test_same_records_on_one_and_two_threads(two_threads):
    one, _ = sampling_records(96, 8, threads=1)
    two, _ = sampling_records(96, 8, threads=two_threads)
    for name in ("points", "trick_cards", "declarations"):
        assert np.array_equal(getattr(one, name), getattr(two, name))


def test_more_samples_change_the_play():
    few, _ = sampling_records(64, 3, samples=1)
    many, _ = sampling_records(64, 3, samples=16)
    assert not np.array_equal(few.trick_cards, many.trick_cards)


def test_sampling_beats_the_heuristic():
    diff = talon_games.run_duel(RULES, "sampling", "heuristic", 240, 4,
                                      samples_per_move=16)
    mean, low, high = mean_interval(diff.sum(), (diff * diff).sum(), len(diff))
    assert low > 0, (mean, low, high)


def test_talon_games_whose_phase_2_it_cannot_play_refuse_the_policy():
    """Strict play in phase 1 (nothing of the free-play shuffle holds), and two players with
    hands the solver does not take (phase 2 is the solver's there)."""
    import dataclasses

    for rules in (dataclasses.replace(RULES, strict="always"),
                  dataclasses.replace(RULES, hand_size=14)):
        assert not engine_policies.sampling_plays(rules)
        with pytest.raises(SimulationError, match="plays four-hand-80, the widow games and the "
                                                  "talon games with free play in phase 1"):
            engine_policies.policy_id("sampling", rules)
        with pytest.raises(SimulationError, match="does not play this variant"):
            sampling_options(rules, 16)
    assert all(engine_policies.sampling_plays(find_variant(name))
               for name in ("two-hand-48", "three-hand-72", "four-hand-72"))


@pytest.mark.parametrize("name", ["three-hand-auction-48", "four-hand-widow-48"])
def test_the_widow_games_take_the_policy(name):
    """The widow games play it (tests/test_widow_sampling.py): every trick is strict, as the
    72-card games' phase 2."""
    rules = find_variant(name)
    assert engine_policies.sampling_plays(rules)
    assert sampling_options(rules, 16) == {"samples_per_move": 16}
