"""The sampling policy of the widow games (``kernels/widow/knowledge.py`` with
``kernels/strict/tricks.py``'s ``strict_sampling_card`` and the sampler's bound) against its
pure-Python twin (:mod:`binokel_sim.reference.widow_sampling`): whole deals card for card with mixed
policies; the twin's view sound at every decision of recorded deals (no seat holds a type it is
excluded from, every seat holds its known copies, the true deal meets the shown widow's bound, the
pool is exactly the unseen cards); the decision reading nothing hidden (hidden cards moved between
other seats and the buried cards, consistently with what the seat knows, give the same card from the
same stream); and whole runs: records that replay under the rules, 1 thread = 2, the policy's
strength, bid odds with it."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from test_widow import kernel_records
from widow_replay import replay_widow

from binokel_sim.engines import widow as widow_games
from binokel_sim.game_blocks import SAMPLED_BLOCK
from binokel_sim.kernels.knowledge import INFERENCE
from binokel_sim.kernels.policies import POLICY_NAMES
from binokel_sim.kernels.widow.deals import I_BONUS, I_CONCEDED
from binokel_sim.records.widow import records as widow_records
from binokel_sim.reference import widow as widow_twin
from binokel_sim.reference import widow_sampling as sampling
from binokel_sim.reference.core import Stream, block_streams, deck_cards, meld_total
from binokel_sim.reference.play import legal_cards, stream_pick, trick_winner
from binokel_sim.reference.sampler import consistent
from binokel_sim.reference.widow_policy import bid_limit
from binokel_sim.reference.widow_policy import card as heuristic_card
from binokel_sim.reference.widow_score import Trick
from binokel_sim.stats import mean_interval
from binokel_sim.variants import find_variant

N_TYPES = 24
VARIANTS = ["three-hand-auction-48", "four-hand-widow-48"]


# --- whole deals against the twin ---------------------------------------------------------------

@pytest.mark.parametrize("name, policies, seed, samples", [
    ("three-hand-auction-48", ["sampling", "heuristic", "heuristic"], 5, 2),
    ("three-hand-auction-48", ["heuristic", "sampling", "random"], 6, 3),
    ("four-hand-widow-48", ["sampling", "heuristic", "sampling", "heuristic"], 7, 2),
    ("four-hand-widow-48", ["random", "heuristic", "heuristic", "sampling"], 8, 4),
])
def test_sampling_deals_equal_the_twin(name, policies, seed, samples):
    """Every record field of every deal (auction, widow handling, each trick, the scores),
    kernel against twin, over three blocks of the stream."""
    rules = find_variant(name)
    ids = [POLICY_NAMES[p] for p in policies]
    kernel = kernel_records(rules, ids, 6, seed, 0, 2, 0, n_samples=samples)
    twin = widow_twin.play_deals(rules, 6, seed, 2, policies=policies, n_samples=samples)
    assert kernel == twin


@pytest.mark.parametrize("name, inference, seed", [
    ("three-hand-auction-48", "off", 11),
    ("three-hand-auction-48", "declarer", 12),
    ("four-hand-widow-48", "off", 13),
    ("four-hand-widow-48", "declarer", 14),
])
def test_less_inference_equals_the_twin(name, inference, seed):
    """The ablation (``duel --inference``): every seat sampling, its deals ignoring what the
    play excluded (every seat's decisions, or all but the soloist's), kernel against twin
    record for record; and some card differs from the full inference's play (the switch is
    read)."""
    rules = find_variant(name)
    policies = ["sampling"] * rules.players
    ids = [POLICY_NAMES[p] for p in policies]
    kernel = kernel_records(rules, ids, 6, seed, 0, 2, 0, n_samples=2,
                            infer=INFERENCE[inference])
    assert kernel == widow_twin.play_deals(rules, 6, seed, 2, policies=policies, n_samples=2,
                                           inference=inference)
    full = kernel_records(rules, ids, 6, seed, 0, 2, 0, n_samples=2)
    assert [r["tricks"] for r in kernel] != [r["tricks"] for r in full]


# --- the view is sound --------------------------------------------------------------------------

def true_groups(table, seat, hands, view):
    """The true deal as the sampler's groups of ``seat``'s view: per other seat its cards not
    known, then (not the soloist) the buried cards."""
    others, held = view[0], view[1]
    groups = [[hands[s][t] - held[s][t] for t in range(N_TYPES)] for s in others]
    if seat != table.soloist:
        groups.append(list(table.buried))
    return groups


def sound_run(name, policies, seed, monkeypatch):
    """Twin deals (40, one sample a decision) with every sampling decision's view checked
    against the true deal; returns how often the view held something."""
    rules = find_variant(name)
    real = sampling.sampling_card
    seen = {"decisions": 0, "excluded": 0, "known": 0, "bound": 0, "slack": 0}

    def checked(table, hands, seat, trick, leader, played, n_samples, stream):
        view = sampling.view(table, seat, hands)
        others, held, pool, allowed, capacity, bound = view
        groups = true_groups(table, seat, hands, view)
        assert all(min(g) >= 0 for g in groups)  # every known copy held
        for g in range(len(others)):
            assert not any(groups[g][t] and not allowed[g] >> t & 1 for t in range(N_TYPES))
        assert [sum(g[t] for g in groups) for t in range(N_TYPES)] == pool
        assert [sum(g) for g in groups] == capacity
        assert consistent(groups, bound)
        seen["decisions"] += 1
        seen["excluded"] += any(table.excluded[s] for s in others)
        seen["known"] += any(any(held[s]) for s in others)
        if bound is not None:
            seen["bound"] += any(x > 0 for x in bound.lower)
            seen["slack"] += not consistent(groups, bound._replace(slack=False))
        return real(table, hands, seat, trick, leader, played, n_samples, stream)

    monkeypatch.setattr(sampling, "sampling_card", checked)
    widow_twin.play_deals(rules, 40, seed, 8, policies=policies, n_samples=1)
    return seen


@pytest.mark.parametrize("name, policies, seed", [
    ("three-hand-auction-48", ["sampling", "sampling", "sampling"], 21),
    ("three-hand-auction-48", ["sampling", "random", "heuristic"], 22),
    ("four-hand-widow-48", ["sampling", "sampling", "sampling", "sampling"], 23),
    ("four-hand-widow-48", ["random", "sampling", "heuristic", "sampling"], 24),
])
def test_the_view_is_sound(name, policies, seed, monkeypatch):
    """At every sampling decision of 40 twin deals a case: the true deal is one the sampler may
    draw: every known copy held, no excluded type held, the pool exactly the cards the seat
    cannot see, the capacities the true group sizes, the shown widow's bound met (the one card
    of slack only on the holder's given card)."""
    seen = sound_run(name, policies, seed, monkeypatch)
    assert seen["decisions"] > 100
    assert seen["excluded"] > seen["decisions"] // 4
    assert seen["known"] > seen["decisions"] // 4
    assert seen["bound"] > seen["decisions"] // 10


def test_the_slack_is_used(monkeypatch):
    """In some decisions the true deal meets the bound only through its slack (the soloist gave
    a widow or demanded card back): the plain lower bound would rule the true deal out."""
    seen = sound_run("three-hand-auction-48", ["sampling"] * 3, 25, monkeypatch)
    assert seen["slack"] > 0


# --- the decision reads nothing hidden ----------------------------------------------------------

def positions(rules, n_deals, seed, stops):
    """Twin deals with the heuristic on every seat (and the table kept), stopped at trick
    ``stops[d % len(stops)]`` after ``d // len(stops) % players`` of its cards:
    ``(table, hands, seat, trick, leader, played)``."""
    players = rules.players
    for d, stream, work in block_streams(deck_cards(rules), n_deals, seed, 1):
        hands, widow = widow_twin.deal_widow_game(rules, work, stream)
        pick = stream_pick(stream)
        limits = [heuristic_bid(rules, h) for h in hands]
        soloist, bid, _ = widow_twin.auction(rules, d % players, pick, limits)
        handling = widow_twin.handle_widow(rules, hands, widow, soloist, pick, True)
        trump = handling.trump
        melds = [int(meld_total(rules, h, trump)) for h in hands]
        table = sampling.start_table(rules, hands, soloist, bid, trump, melds, widow,
                                     handling.demand, handling.buried)
        played = [0] * N_TYPES
        leader = soloist
        stop, extra = stops[d % len(stops)], d // len(stops) % players
        for k in range(stop + 1):
            trick: list[int] = []
            for i in range(players if k < stop else extra):
                seat = (leader + i) % players
                card = heuristic_card(rules, hands[seat], trick, leader, played, trump)
                sampling.note_card(table, seat, card, trick)
                hands[seat][card] -= 1
                trick.append(card)
            if k < stop:
                for c in trick:
                    played[c] += 1
                winner = (leader + trick_winner(trick, trump)) % players
                table.tricks.append(Trick(leader, trick, winner))
                leader = winner
        seat = (leader + len(trick)) % players
        if len(legal_cards(hands[seat], trick, trump)) >= 2:
            yield table, hands, seat, trick, leader, played


def heuristic_bid(rules, hand):
    return bid_limit(rules, hand)


def moved(table, hands, seat):
    """Worlds the seat cannot tell from this one: one hidden card of another group exchanged
    with one of a different type of a third (other seats' cards not known, the buried cards
    unless the seat is the soloist), kept when the seat's view still admits them."""
    view = sampling.view(table, seat, hands)
    others, held, bound = view[0], view[1], view[5]
    groups = true_groups(table, seat, hands, view)
    n = len(groups)
    for a in range(n):
        for b in range(a + 1, n):
            for x in range(N_TYPES):
                for y in range(N_TYPES):
                    if x == y or not groups[a][x] or not groups[b][y]:
                        continue
                    new = [list(g) for g in groups]
                    new[a][x] -= 1
                    new[a][y] += 1
                    new[b][y] -= 1
                    new[b][x] += 1
                    if not all(not new[g][t] or view[3][g] >> t & 1 for g in range(n)
                               for t in range(N_TYPES)) or not consistent(new, bound):
                        continue
                    world = [list(h) for h in hands]
                    for g, s in enumerate(others):
                        world[s] = [new[g][t] + held[s][t] for t in range(N_TYPES)]
                    other = replace(table, buried=new[-1]) if n > len(others) else table
                    yield other, world, (a, b)
                    break
                else:
                    continue
                break


def decide(table, hands, seat, trick, leader, played):
    stream = Stream(17, 3)
    card = sampling.sampling_card(table, [list(h) for h in hands], seat, list(trick), leader,
                                  list(played), 3, stream)
    return card, stream.s


@pytest.mark.parametrize("name", VARIANTS)
def test_the_decision_reads_nothing_hidden(name):
    """Positions at the first lead and some tricks on; every exchange of hidden cards between
    two other seats, or a seat and the buried cards, that the deciding seat's view admits: the
    same card and the same stream afterwards."""
    rules = find_variant(name)
    checked = buried = given = 0
    for position in positions(rules, 24, 31, [0, 2, 5, 8]):
        table, hands, seat, trick, leader, played = position
        want = decide(*position)
        for other, world, (a, b) in moved(table, hands, seat):
            assert world != hands or other.buried != table.buried
            assert decide(other, world, seat, trick, leader, played) == want
            checked += 1
            buried += b == rules.players - 1
        if table.demand is not None and seat not in (table.soloist, table.demand[1]):
            # the card given back, which only the holder and the soloist saw: any other card of
            # the holder's (not of the demanded type) gives the same card
            card, holder, real = table.demand
            for t in range(N_TYPES):
                if t not in (card, real) and hands[holder][t]:
                    other = replace(table, demand=(card, holder, t))
                    assert decide(other, hands, seat, trick, leader, played) == want
                    given += 1
    assert checked >= 30 and buried >= 5 and given >= 5


# --- whole runs -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", VARIANTS)
def test_sampling_records_replay_under_the_rules(name):
    """1,024 deals with the policy on every seat (2 samples a decision), each replayed by the
    independent checker (tests/widow_replay.py: auction, widow handling, legal cards, scores),
    every deal's card points adding up to the deck's."""
    rules = find_variant(name)
    played = widow_games.run_play(rules, 1024, 51, "sampling", samples_per_move=2)
    records = list(widow_records(played))
    assert len(records) == 1024
    for record in records:
        replay_widow(rules, record)
    conceded = played.info[:, I_CONCEDED] != 0  # Abgehen: no play, no card points
    assert (played.card_points.sum(axis=1) == np.where(conceded, 0, rules.total_card_points)).all()


# 33 blocks of sampled deals: two threads split them into 16 chunks of whole blocks
DEALS_TWO_THREADS = 33 * SAMPLED_BLOCK


@pytest.mark.parametrize("name", VARIANTS)
def test_same_records_on_one_and_two_threads(name, two_threads):
    rules = find_variant(name)
    runs = [widow_games.run_play(rules, DEALS_TWO_THREADS, 8, "sampling", threads, samples_per_move=1)
            for threads in (1, two_threads)]
    for field in ("scores", "trick_cards", "buried", "info"):
        assert np.array_equal(getattr(runs[0], field), getattr(runs[1], field))


def test_more_samples_change_the_play():
    rules = find_variant("three-hand-auction-48")
    few, many = (widow_games.run_play(rules, 48, 3, "sampling", samples_per_move=k)
                 for k in (1, 12))
    assert not np.array_equal(few.trick_cards, many.trick_cards)
    # the first deal's auction and widow handling are the heuristic's (soloist .. the card
    # given back); later deals differ: the deck carried within a block is shuffled on from a
    # stream the sampling draws advanced
    assert np.array_equal(few.info[0, :I_BONUS], many.info[0, :I_BONUS])


@pytest.mark.parametrize("name", VARIANTS)
def test_sampling_beats_the_heuristic(name):
    diff = widow_games.run_duel(find_variant(name), "sampling", "heuristic", 200, 4,
                                      samples_per_move=8)
    mean, low, high = mean_interval(diff.sum(), (diff * diff).sum(), len(diff))
    assert low > 0, (mean, low, high)
