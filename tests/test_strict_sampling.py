"""The sampling policy of three-hand-72 and four-hand-72 (phase 1 ``kernels/talon/sampling.py``,
phase 2 ``kernels/strict/sampling.py`` and ``strict/tricks.py``'s ``strict_sampling_card``) against
its pure-Python twin (:mod:`binokel_sim.reference.talon_play`): whole deals (phase 1's shuffles,
phase 2's constrained samples) card for card with mixed policies; the twin's phase-2 knowledge sound
on recorded deals (no seat ever holds a type it is excluded from, every seat holds its known
copies); the decision reading nothing hidden (cards exchanged between two other seats, consistently
with what the table knows, give the same card from the same stream); and whole runs: 1 thread = 2
and the policy's strength. The policy's records replay under the rules in tests/test_talon.py
(2,000 deals of every policy of every talon variant, this one with 2 samples a decision)."""

from __future__ import annotations

import numpy as np
import pytest
from test_talon import kernel_records
from test_talon_sampling import counting_race

from binokel_sim.cards import parse_card, parse_cards
from binokel_sim.engines import talon as talon_games
from binokel_sim.game_blocks import SAMPLED_BLOCK
from binokel_sim.kernels.knowledge import INFERENCE
from binokel_sim.reference.core import Stream, block_streams, deck_cards
from binokel_sim.reference.talon import (
    add_copy,
    deal_talon_game,
    declaration_record,
    hand_counts,
    legal_declarations,
    remove_copy,
    swap_card,
)
from binokel_sim.reference.talon_play import (
    Deal,
    clone,
    end_trick,
    heuristic_choice,
    heuristic_declare,
    new_deal,
    play_card,
    play_deals,
    sampling_choice,
    strict_sampling_choice,
)
from binokel_sim.stats import mean_interval
from binokel_sim.variants import find_variant

N_TYPES = 24


# --- whole deals against the twin ---------------------------------------------------------------

@pytest.mark.parametrize("name, policies, seed, samples", [
    ("three-hand-72", ["sampling", "heuristic", "heuristic"], 5, 2),
    ("three-hand-72", ["heuristic", "sampling", "random"], 6, 3),
    ("four-hand-72", ["sampling", "heuristic", "sampling", "heuristic"], 7, 2),
    ("four-hand-72", ["random", "heuristic", "heuristic", "sampling"], 8, 4),
])
def test_sampling_deals_equal_the_twin(name, policies, seed, samples):
    """Every trick of every deal (phase 1 and the strict phase 2, the sampling seats' cards, the
    declarations and draws) and the points, kernel against twin, over two blocks of the
    stream."""
    rules = find_variant(name)
    kernel = kernel_records(rules, policies, 3, seed, block_size=2, samples=samples)
    twin = play_deals(rules, policies, 3, seed, 2, n_samples=samples)
    phase2 = rules.talon // rules.players
    for k, t in zip(kernel, twin, strict=True):
        assert len(t["tricks"]) == phase2 + rules.hand_size
        assert k["tricks"] == t["tricks"], k["deal"]
        assert (k["card_points"], k["meld_points"]) == (t["card_points"], t["meld_points"])


@pytest.mark.parametrize("name, policies", [
    ("three-hand-72", ["heuristic", "sampling", "heuristic"]),
    ("four-hand-72", ["heuristic", "heuristic", "sampling", "heuristic"]),
])
def test_the_race_equals_the_twin(name, policies, monkeypatch):
    """With 16 samples a decision the race looks once, after 8 samples, in phase 1 and in the
    strict phase 2 (``kernels/strict/sampling.py`` race_step, the twin's ``race_survivors``):
    two deals, every trick and the points, kernel against twin; the looks dropped types in
    both phases, some by the zone (four-hand-72's partners share it: half a seat's own), and
    ended decisions."""
    rules = find_variant(name)
    seen = counting_race(monkeypatch)
    kernel = kernel_records(rules, policies, 2, 9, block_size=2, samples=16)
    twin = play_deals(rules, policies, 2, 9, 2, n_samples=16)
    for k, t in zip(kernel, twin, strict=True):
        assert k["tricks"] == t["tricks"], k["deal"]
        assert (k["card_points"], k["meld_points"]) == (t["card_points"], t["meld_points"])
    assert min(seen["dropped", 1], seen["dropped", 2], seen["ended"], seen["zoned"]) > 0


@pytest.mark.parametrize("name, seed", [("three-hand-72", 15), ("four-hand-72", 16)])
def test_no_inference_equals_the_twin(name, seed):
    """The ablation (``duel --inference off``): every seat sampling, its phase-2 deals ignoring
    what the play excluded, kernel against twin trick for trick; and some card differs from the
    full inference's play (the switch is read)."""
    rules = find_variant(name)
    policies = ["sampling"] * rules.players
    kernel = kernel_records(rules, policies, 3, seed, block_size=2, samples=2,
                            infer=INFERENCE["off"])
    twin = play_deals(rules, policies, 3, seed, 2, n_samples=2, inference="off")
    assert [k["tricks"] for k in kernel] == [t["tricks"] for t in twin]
    assert [(k["card_points"], k["meld_points"]) for k in kernel] == \
        [(t["card_points"], t["meld_points"]) for t in twin]
    full = kernel_records(rules, policies, 3, seed, block_size=2, samples=2)
    assert [k["tricks"] for k in kernel] != [k["tricks"] for k in full]


@pytest.mark.parametrize("name, seed, exact", [("three-hand-72", 17, 2), ("four-hand-72", 18, 2),
                                              ("three-hand-72", 19, 3)])
def test_exact_playouts_equal_the_twin(name, seed, exact):
    """Exact endgames in phase 2's play-outs (issue 55, ``duel --exact-tricks``): the last
    ``exact`` tricks of each play-out solved for the seat's side, and within them every card
    valued by the search; kernel against twin (plain minimax) trick for trick; and some card
    differs from play-outs by the heuristic to the end (the switch is read)."""
    rules = find_variant(name)
    policies = ["sampling"] * rules.players
    game = talon_games.game_bundle(2, exact=(exact, exact))
    kernel = kernel_records(rules, policies, 3, seed, block_size=2, samples=2, game=game)
    twin = play_deals(rules, policies, 3, seed, 2, n_samples=2, exact=exact)
    assert [k["tricks"] for k in kernel] == [t["tricks"] for t in twin]
    assert [(k["card_points"], k["meld_points"]) for k in kernel] == \
        [(t["card_points"], t["meld_points"]) for t in twin]
    plain = kernel_records(rules, policies, 3, seed, block_size=2, samples=2)
    assert [k["tricks"] for k in kernel] != [k["tricks"] for k in plain]


# --- the knowledge is sound ---------------------------------------------------------------------

def recorded_declaration(rules, recorded):
    """The declare function of :func:`end_trick` that makes the recorded declaration."""
    def declare(deal: Deal, winner: int):
        if recorded is None:
            return None
        nine = swap_card(rules, deal.trump)
        choices = legal_declarations(rules, deal.hands[winner], deal.trump,
                                     nine >= 0 and deal.talon[-1] != nine)[1:]
        return next(d for d in choices if declaration_record(rules, d) == recorded)
    return declare


def check_knowledge(deal: Deal) -> tuple[int, int]:
    """Every seat's true hand against the table's knowledge; returns how much is known (types
    excluded, copies known)."""
    for s in range(deal.rules.players):
        held = hand_counts(deal.hands[s])
        assert not {t for t in deal.excluded[s] if held[t]}, (s, deal.k)
        assert all(held[t] >= deal.known[s][t] for t in range(N_TYPES)), (s, deal.k)
    return sum(len(x) for x in deal.excluded), sum(sum(x) for x in deal.known)


def replay_knowledge(rules, record) -> tuple[int, int]:
    """Replay a recorded deal through the twin with the table's knowledge kept, checking it
    before every phase-2 card and after the last; the tricks must come out as recorded. Returns
    the most types excluded and copies known at one time."""
    counts = [[0] * N_TYPES for _ in range(rules.players)]
    for s, cards in enumerate(record["hands"]):
        for t in parse_cards(cards):
            counts[s][t] += 1
    deal = new_deal(rules, counts, parse_cards(record["talon"]), record["dealer"], track=True)
    phase1 = rules.talon // rules.players
    seen = [(0, 0)]
    for trick in record["tricks"]:
        assert (deal.known is None) == (deal.k < phase1)
        assert deal.leader == trick["leader"]
        for name in trick["cards"]:
            if deal.known is not None:
                seen.append(check_knowledge(deal))
            card = parse_card(name)
            assert card in deal.legal()
            play_card(deal, card)
        assert end_trick(deal, recorded_declaration(rules, trick["declaration"])) == trick
    seen.append(check_knowledge(deal))
    assert deal.card_points == record["card_points"]
    assert deal.meld_points == record["meld_points"]
    return max(x for x, _ in seen), max(y for _, y in seen)


@pytest.mark.parametrize("name, policies, seed", [
    ("three-hand-72", ["sampling", "heuristic", "random"], 21),
    ("three-hand-72", ["random", "random", "random"], 22),
    ("four-hand-72", ["sampling", "random", "heuristic", "sampling"], 23),
    ("four-hand-72", ["random", "random", "random", "random"], 24),
])
def test_the_knowledge_is_sound(name, policies, seed):
    """Over recorded deals of sampling, heuristic and random seats (80 a case): at every
    phase-2 card no seat holds a card type it is excluded from and every seat holds at least
    the copies it is known to hold (swap-taken cards, served copies, the face-up card drawn)."""
    rules = find_variant(name)
    records = kernel_records(rules, policies, 80, seed, block_size=16, samples=1)
    learned = [replay_knowledge(rules, record) for record in records]
    assert min(excluded for excluded, _ in learned) > 0  # every deal shows voids
    assert sum(known > 0 for _, known in learned) > len(records) // 2


# --- the decision reads nothing hidden ----------------------------------------------------------

def heuristic_positions(rules, n_deals, seed, tricks):
    """Deals played by the heuristic with the knowledge kept, stopped at trick ``tricks[d %
    len(tricks)]`` after ``d // len(tricks) % players`` of its cards, where the seat to play has
    two or more legal types."""
    for d, stream, work in block_streams(deck_cards(rules), n_deals, seed, 1):
        counts, talon = deal_talon_game(rules, work, stream)
        deal = new_deal(rules, counts, talon, d % rules.players, track=True)
        stop = tricks[d % len(tricks)]
        while deal.k < stop:
            while len(deal.trick) < rules.players:
                play_card(deal, heuristic_choice(deal))
            end_trick(deal, heuristic_declare)
        for _ in range(d // len(tricks) % rules.players):
            play_card(deal, heuristic_choice(deal))
        if len(deal.legal()) >= 2:
            yield deal


def exchanged(deal: Deal, a: int, b: int, hidden_only: bool):
    """The deal with one card of seat ``a`` and one of another type of seat ``b`` exchanged,
    both of copies the table does not know of and of types the receiver is not excluded from;
    None when there is no such pair."""
    held = [hand_counts(deal.hands[s]) for s in (a, b)]
    if deal.known is not None:
        free = [[held[i][t] - deal.known[s][t] for t in range(N_TYPES)]
                for i, s in enumerate((a, b))]
        ok = [{t for t in range(N_TYPES) if t not in deal.excluded[s]} for s in (b, a)]
    else:
        took = [deal.took[1] if deal.took[0] == s else -1 for s in (a, b)]
        free = [[sum(1 for r in deal.hands[s][t] if r == 0) - (t == took[i])
                 for t in range(N_TYPES)] for i, s in enumerate((a, b))]
        ok = [set(range(N_TYPES))] * 2
    for x in range(N_TYPES):
        for y in range(N_TYPES):
            if x != y and free[0][x] > 0 and free[1][y] > 0 and x in ok[0] and y in ok[1]:
                other = clone(deal)
                if hidden_only:  # a fresh (record 0) copy: the last in order
                    other.hands[a][x].pop()
                    other.hands[b][y].pop()
                else:
                    remove_copy(other.hands[a], x)
                    remove_copy(other.hands[b], y)
                add_copy(other.hands[a], y)
                add_copy(other.hands[b], x)
                return other
    return None


def decide(deal: Deal, n_samples: int):
    stream = Stream(17, 3)
    chooser = sampling_choice if deal.k < deal.phase1 else strict_sampling_choice
    card = chooser(clone(deal), n_samples, stream)
    return card, stream.s


@pytest.mark.parametrize("name", ["three-hand-72", "four-hand-72"])
def test_the_phase_2_decision_reads_nothing_hidden(name):
    """Positions in phase 2 (at its first lead, before any exclusion, and some tricks on, with
    voids and must-head exclusions) and two seats other than the deciding one exchanging a
    card the table does not know of, of types neither is excluded from: the same card and the
    same stream afterwards."""
    rules = find_variant(name)
    phase1 = rules.talon // rules.players
    checked = inferred = 0
    for deal in heuristic_positions(rules, 24, 31, [phase1, phase1 + 3, phase1 + 6, phase1 + 8]):
        seat = deal.seat()
        a, b = (seat + 1) % rules.players, (seat + 2) % rules.players
        other = exchanged(deal, a, b, hidden_only=False)
        if other is None:
            continue
        assert [hand_counts(h) for h in other.hands] != [hand_counts(h) for h in deal.hands]
        assert decide(deal, 3) == decide(other, 3)
        checked += 1
        inferred += bool(deal.excluded[a] or deal.excluded[b])
    assert checked >= 12 and inferred >= 4


def test_the_phase_1_decision_reads_nothing_hidden():
    """The same in phase 1 of three-hand-72: two other seats exchange fresh cards that are not
    the swap's taken card."""
    rules = find_variant("three-hand-72")
    checked = 0
    for deal in heuristic_positions(rules, 4, 41, [0, 3, 7, 10]):
        seat = deal.seat()
        other = exchanged(deal, (seat + 1) % 3, (seat + 2) % 3, hidden_only=True)
        if other is None:
            continue
        assert decide(deal, 1) == decide(other, 1)
        checked += 1
    assert checked >= 3


# --- whole runs -----------------------------------------------------------------------------------

# 33 blocks of sampled deals: two threads split them into 16 chunks of whole blocks
DEALS_TWO_THREADS = 33 * SAMPLED_BLOCK


@pytest.mark.parametrize("name", ["three-hand-72", "four-hand-72"])
def test_same_records_on_one_and_two_threads(name, two_threads):
    rules = find_variant(name)
    runs = [talon_games.run_play(rules, DEALS_TWO_THREADS, 8, "sampling", threads,
                                       samples_per_move=1) for threads in (1, two_threads)]
    for field in ("points", "trick_cards", "declarations"):
        assert np.array_equal(getattr(runs[0], field), getattr(runs[1], field))


def test_more_samples_change_the_phase_2_play():
    rules = find_variant("three-hand-72")
    phase1 = rules.talon // rules.players
    few, many = (talon_games.run_play(rules, 48, 3, "sampling", samples_per_move=k)
                 for k in (1, 12))
    assert not np.array_equal(few.trick_cards[:, phase1:], many.trick_cards[:, phase1:])


@pytest.mark.parametrize("name", ["three-hand-72", "four-hand-72"])
def test_sampling_beats_the_heuristic(name):
    diff = talon_games.run_duel(find_variant(name), "sampling", "heuristic", 120, 4,
                                      samples_per_move=8)
    mean, low, high = mean_interval(diff.sum(), (diff * diff).sum(), len(diff))
    assert low > 0, (mean, low, high)
