"""Sixty-six (SPEC "Variant sixty-six", docs/rules.md "Sixty-six"): the kernel against its twin
deal for deal (random, heuristic and mixed seats), the invariants of the records, known answers
of hand-made positions (strict play, claims, the exchange, a whole deal), the same bytes on one
or two threads, and the variant file's keys."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from binokel_sim.cards import card_type, parse_card, parse_cards
from binokel_sim.engines import sixty_six as engine_sixty_six
from binokel_sim.engines import talon as talon_engine
from binokel_sim.errors import RulesError, SimulationError
from binokel_sim.kernels.policies import POLICY_HEURISTIC, POLICY_RANDOM
from binokel_sim.kernels.runs import Run
from binokel_sim.kernels.sixty_six import rules as k
from binokel_sim.kernels.sixty_six.deals import (
    SixtySixKnobs,
    SixtySixScratch,
    SixtySixTable,
    new_deals,
    new_finder,
    play_deal,
    sixty_six_blocks,
)
from binokel_sim.records.sixty_six import deal_records
from binokel_sim.reference import sixty_six as twin
from binokel_sim.simulate import set_threads, spread_blocks
from binokel_sim.variants import builtin_toml, find_variant, rules_from_dict, tomllib


ROOT = Path(__file__).resolve().parents[1]
RULES = find_variant("sixty-six")
R, H = POLICY_RANDOM, POLICY_HEURISTIC
SEATINGS = [(R, R), (H, H), (R, H), (H, R)]
# the random policy as shipped (fair coins), and one that plays deals out: it never claims,
# always exchanges and announces, and closes one time in eight
DEEP = SixtySixKnobs(random_exchange=1, random_close=8, random_announce=1, random_claim=0)


def sixty_six_table(rules=RULES, knobs=SixtySixKnobs()) -> SixtySixTable:
    """The kernel's table of ``rules`` with the policies' ``knobs`` (the engine's builder)."""
    return engine_sixty_six.sixty_six_table(rules, knobs)


def kernel_deals(seats, n, seed, block_size, knobs=SixtySixKnobs(), first_deal=0):
    """``n`` deals by the block driver from deal ``first_deal`` (a multiple of the block size),
    on the threads in use."""
    out = new_deals(n)
    run = Run(seed, first_deal // block_size, block_size, first_deal, n)
    spread_blocks(sixty_six_blocks, -(-n // block_size), sixty_six_table(knobs=knobs), run,
                  np.array(seats, dtype=np.int64), None, out)
    return out


def kernel_records(seats, n, seed, block_size, knobs=SixtySixKnobs(), first_deal=0):
    out = kernel_deals(seats, n, seed, block_size, knobs, first_deal)
    return deal_records(out, sixty_six_table(knobs=knobs), RULES.name, first_deal)


# --- the kernel and its twin, deal for deal -----------------------------------------------------

CASES = [(seats, knobs) for seats in SEATINGS for knobs in (SixtySixKnobs(), DEEP)]
CASE_IDS = ["RH"[a] + "RH"[b] + ("-coins" if knobs.random_claim else "-deep")
            for (a, b), knobs in CASES]


@pytest.fixture(scope="module")
def compared():
    """Every case's kernel records and twin records: 150 deals each, blocks of 64 (deals 128..,
    so the first block is 2 and a block boundary falls inside)."""
    runs = {}
    for seats, knobs in CASES:
        ours = kernel_records(seats, 150, 11, 64, knobs, first_deal=128)
        theirs = twin.play_deals(RULES, knobs, list(seats), 150, 11, 64, first_block=2,
                                 first_deal=128)
        runs[seats, knobs] = ours, theirs
    return runs


@pytest.mark.parametrize("seats,knobs", CASES, ids=CASE_IDS)
def test_kernel_equals_twin_deal_for_deal(compared, seats, knobs):
    ours, theirs = compared[seats, knobs]
    assert len(ours) == len(theirs) == 150
    for a, b in zip(ours, theirs):
        assert a == b, a["deal"]


def test_the_compared_deals_reach_every_rule(compared):
    """The comparison means something only if the deals exercise each rule: every end of a
    deal, the exchange, closing, marriages announced in play and with a claim."""
    records = [r for ours, _ in compared.values() for r in ours]
    reasons = Counter(r["result"]["reason"] for r in records)
    assert set(reasons) == set(k.REASONS), reasons
    tricks = [t for r in records for t in r["tricks"]]
    claims = [r["claim"] for r in records if r["claim"]]
    assert sum(t["exchange"] for t in tricks) >= 20
    assert sum(t["close"] for t in tricks) >= 20
    assert sum(t["marriage"] is not None for t in tricks) >= 20
    assert sum(c["marriage"] is not None for c in claims) >= 5
    assert any(c["marriage"] is not None and c["exchange"] for c in claims)
    assert sum(len(r["tricks"]) == 12 for r in records) >= 20


# --- invariants ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def deep_records():
    """Deals of both kinds of seats played far (the random seats never claim)."""
    return [r for seats in SEATINGS for r in kernel_records(seats, 200, 5, 1024, DEEP)]


def card_points(cards) -> int:
    return sum(RULES.rank_points[parse_card(c) % 6] for c in cards)


def test_every_card_is_dealt_once(deep_records):
    for r in deep_records:
        dealt = parse_cards(r["hands"][0] + r["hands"][1] + r["stock"])
        assert sorted(dealt) == list(range(24))
        assert r["trump"] == r["stock"][-1][-1]


def test_a_deal_played_out_unclosed_counts_120_and_the_last_trick(deep_records):
    whole = [r for r in deep_records
             if len(r["tricks"]) == 12 and not any(t["close"] for t in r["tricks"])]
    assert len(whole) >= 50
    for r in whole:
        played = [c for t in r["tricks"] for c in t["cards"]]
        assert sorted(parse_cards(played)) == list(range(24))
        assert card_points(played) + RULES.last_trick == 130
        marriages = [sum(t["marriage"]["points"] for t in r["tricks"]
                         if t["marriage"] and t["leader"] == s) for s in range(2)]
        counted = [marriages[s] if r["tricks_won"][s] else 0 for s in range(2)]
        assert sum(r["points"]) == 130 + sum(counted)


def test_the_points_are_the_tricks_won_and_the_counted_marriages(deep_records):
    for r in deep_records:
        for s in range(2):
            won = [t for t in r["tricks"] if t["winner"] == s]
            assert r["tricks_won"][s] == len(won)
            last = (len(r["tricks"]) == 12 and r["tricks"][-1]["winner"] == s
                    and not any(t["close"] for t in r["tricks"]))
            married = [t["marriage"] for t in r["tricks"] if t["marriage"] and t["leader"] == s]
            if r["claim"] and r["claim"]["marriage"] and r["claim"]["seat"] == s:
                married.append(r["claim"]["marriage"])
            expected = (sum(card_points(t["cards"]) for t in won) + RULES.last_trick * last
                        + (sum(m["points"] for m in married) if won else 0))
            assert r["points"][s] == expected


def test_the_stock_is_drawn_in_order_and_every_card_played_was_held(deep_records):
    """A seat plays only cards dealt to it, drawn by it or taken with the exchange; the draws
    follow the stock, two a trick, until it is closed or exhausted."""
    for r in deep_records:
        held = [set(r["hands"][0]), set(r["hands"][1])]
        stock = list(r["stock"])
        closed = False
        for t in r["tricks"]:
            leader, other = t["leader"], 1 - t["leader"]
            if t["exchange"]:
                nine = "9" + r["trump"]
                assert nine in held[leader] and len(stock) > 2 and not closed
                held[leader].add(stock[-1])
                stock[-1] = nine
            closed = closed or t["close"]
            assert t["cards"][0] in held[leader] and t["cards"][1] in held[other]
            if not closed and stock:
                assert t["draws"] == stock[:2]
                held[t["winner"]].add(stock.pop(0))
                held[1 - t["winner"]].add(stock.pop(0))
            else:
                assert t["draws"] == []


# --- known answers -------------------------------------------------------------------------------

def mask(text: str) -> int:
    return sum(1 << c for c in parse_cards(text))


@pytest.mark.parametrize("hand,led,strict,legal", [
    ("9S AS KH", "TS", True, "AS"),          # follow suit and beat it
    ("9S JS KH", "TS", True, "9S JS"),       # follow suit, nothing beats it
    ("KH 9H AD", "TS", True, "KH 9H"),       # void: trump
    ("AD 9C", "TS", True, "AD 9C"),          # void, no trump: any card
    ("AH 9H AS", "KH", True, "AH"),          # trump led: beat it
    ("9S AS KH", "TS", False, "9S AS KH"),   # open stock: any card
])
def test_legal_cards(hand, led, strict, legal):
    """Trump hearts."""
    trump = 1
    assert k.legal_follow(mask(hand), parse_card(led), trump, strict) == mask(legal)
    held = set(parse_cards(hand))
    assert twin.legal_follow(held, parse_card(led), trump, strict) == set(parse_cards(legal))


@pytest.mark.parametrize("card,led,takes", [
    ("AS", "TS", True), ("9H", "TS", True), ("AD", "TS", False), ("AS", "9H", False),
    ("JS", "QS", False),
])
def test_trick_winner(card, led, takes):
    assert k.takes(parse_card(card), parse_card(led), 1) == takes
    assert twin.beats(parse_card(card), parse_card(led), 1) == takes


@pytest.mark.parametrize("hand,won,left,closed,may", [
    ("9H AS", 1, 4, False, True),
    ("9H AS", 1, 2, False, False),   # the stock holds two cards: no more exchange
    ("9H AS", 0, 10, False, False),  # no trick won yet
    ("9H AS", 2, 10, True, False),   # closed
    ("JH AS", 2, 10, False, False),  # no trump nine
])
def test_exchange_legality(hand, won, left, closed, may):
    assert k.may_exchange(mask(hand), parse_card("9H"), won, left, closed) == may


def test_marriages_are_announced_with_a_king_or_queen_held_together():
    assert k.announces(mask("KS QS AH"), parse_card("QS"))
    assert k.announces(mask("KS QS AH"), parse_card("KS"))
    assert not k.announces(mask("KS QD AH"), parse_card("KS"))
    assert not k.announces(mask("KS QS AH"), parse_card("AH"))
    assert k.marriage_cards(mask("KS QS KD QH QC KC")) == mask("KS QS QC KC")
    assert k.count_of(30, 40, 0) == 30 and k.count_of(30, 40, 1) == 70


@pytest.mark.parametrize("claimant,counts,won,answer", [
    (0, [66, 0], [3, 0], (0, 3, "claim")),         # the opponent has no trick
    (0, [70, 20], [3, 1], (0, 2, "claim")),        # under 33
    (0, [66, 32], [3, 2], (0, 2, "claim")),
    (0, [66, 33], [3, 2], (0, 1, "claim")),        # 33 is not under 33
    (1, [40, 60], [2, 2], (0, 2, "wrong_claim")),
    (1, [40, 20], [2, 0], (0, 3, "wrong_claim")),  # the claimant has no trick
])
def test_claim_scoring(claimant, counts, won, answer):
    seat, points, reason = k.claim_outcome(66, claimant, np.array(counts), np.array(won))
    assert (seat, points, k.REASONS[reason]) == answer
    seats = [{"won": w} for w in won]
    assert twin.outcome(RULES, claimant, counts, seats, -1, 0, 0) == dict(
        zip(("seat", "game_points", "reason"), answer))


@pytest.mark.parametrize("closer,opponent_won,last_winner,answer", [
    (0, 0, 1, (1, 3, "failed_close")), (0, 2, 0, (1, 2, "failed_close")),
    (-1, 0, 1, (1, 1, "last_trick")),
])
def test_unclaimed_scoring(closer, opponent_won, last_winner, answer):
    seat, points, reason = k.unclaimed_outcome(closer, opponent_won, last_winner)
    assert (seat, points, k.REASONS[reason]) == answer
    record = twin.outcome(RULES, -1, [0, 0], [{"won": 0}] * 2, closer, opponent_won, last_winner)
    assert record == dict(zip(("seat", "game_points", "reason"), answer))


# Seat 0 (the heuristic, on lead) announces the trump marriage with QH; seat 1 throws 9S. Next
# it exchanges 9H for the turned AH, and with 43 and its sure trumps AH TH KH (25) closes, leads
# AH (seat 1 throws 9D) and TH (JS): 66 with three tricks to none, a claim worth 3.
HANDS = ["9H KH QH TH AS TS", "JS 9S JD 9D AD TD"]
STOCK = "9C JC QS KS QD KD QC KC TC AC JH AH"
TRICKS = [
    {"leader": 0, "exchange": False, "close": False, "marriage": {"suit": "H", "points": 40},
     "cards": ["QH", "9S"], "winner": 0, "draws": ["9C", "JC"]},
    {"leader": 0, "exchange": True, "close": True, "marriage": None, "cards": ["AH", "9D"],
     "winner": 0, "draws": []},
    {"leader": 0, "exchange": False, "close": False, "marriage": None, "cards": ["TH", "JS"],
     "winner": 0, "draws": []},
]


def kernel_deal(hands, stock, dealer, seats):
    """One deal from given hands and stock by the kernel's ``play_deal``, as a record."""
    table = sixty_six_table()
    out = new_deals(1)
    out.dealer[0] = dealer
    out.hands[0] = [mask(h) for h in hands]
    out.stock[0] = parse_cards(stock)
    scratch = SixtySixScratch(np.array([mask(h) for h in hands]),
                              np.array(parse_cards(stock), dtype=np.int64),
                              np.zeros((3, 2), dtype=np.int64))
    state = tuple(np.uint64(s) for s in (1, 2, 3, 4))  # read by random seats only
    play_deal(table, np.array(seats, dtype=np.int64), scratch, dealer, out, 0, state, None,
              new_finder())
    return deal_records(out, table, RULES.name)[0]


def test_a_hand_made_deal_exchange_close_and_claim():
    ours = kernel_deal(HANDS, STOCK, 1, [H, H])
    hands = [set(parse_cards(h)) for h in HANDS]
    theirs = twin.play_deal(RULES, SixtySixKnobs(), [H, H], hands, parse_cards(STOCK), 1,
                            lambda n: 0)
    assert ours == {"deal": 0, **theirs}
    assert ours["tricks"] == TRICKS
    assert ours["claim"] == {"seat": 0, "after": 2, "marriage": None, "exchange": False,
                             "close": False}
    assert ours["points"] == [66, 0] and ours["tricks_won"] == [3, 0]
    assert ours["result"] == {"seat": 0, "game_points": 3, "reason": "claim"}


# --- threads and the variant file ----------------------------------------------------------------

def test_one_thread_and_two_give_the_same_deals(two_threads):
    runs = []
    for threads in (1, two_threads):
        set_threads(threads)
        runs.append(kernel_deals((H, R), 700, 3, 64, first_deal=64))
    for field, a, b in zip(runs[0]._fields, runs[0], runs[1]):
        assert np.array_equal(a, b), field


def test_same_seed_same_deals_another_seed_others():
    a, b, c = (kernel_deals((H, H), 300, seed, 64) for seed in (8, 8, 9))
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not np.array_equal(a.hands, c.hands)


CACHED_RUN = """
import numpy as np
from numba.core.event import install_recorder
from binokel_sim.kernels.runs import Run
from binokel_sim.kernels.sixty_six.deals import (SixtySixKnobs, SixtySixTable, new_deals,
                                                 sixty_six_blocks)
table = SixtySixTable(np.arange(24, dtype=np.int64), np.zeros(24, dtype=np.int64), 20, 40, 0,
                      66, 10, SixtySixKnobs())
out = new_deals(8)
with install_recorder("numba:compile") as compiled:
    sixty_six_blocks(table, Run(1, 0, 8, 0, 8), np.array([0, 1], dtype=np.int64), None, out,
                     (0, 1))
print(len(compiled.buffer))
"""


def test_a_second_process_runs_the_bundled_kernel_from_numbas_cache():
    """numba types the named tuples (nested: the knobs inside the table) and caches the
    kernels that take them: once compiled here, another process compiles nothing."""
    kernel_deals((R, H), 8, 1, 8)
    run = subprocess.run([sys.executable, "-c", CACHED_RUN], capture_output=True, text=True,
                         timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "0", run.stdout


def variant_data(section: str, key: str, value=None) -> dict:
    """The variant file's data with ``[section] key`` set to ``value`` (None: removed)."""
    data = tomllib.loads(builtin_toml("sixty-six"))
    data[section].pop(key, None)
    if value is not None:
        data[section][key] = value
    return data


def test_the_variant_file_reads_sixty_six():
    assert (RULES.claim, RULES.stock_close, RULES.trump_exchange) == (66, True, 0)
    assert RULES.deck_size == 24 and RULES.total_card_points == 130
    assert card_type(RULES.trump_exchange, 2) == parse_card("9D")


@pytest.mark.parametrize("section,key,value,message", [
    ("game", "claim", None, "play.close: only in a game with a claim"),
    ("game", "claim", 0, "game.claim: must be at least 1"),
    ("trump", "exchange", "8", "trump.exchange: unknown rank"),
    ("play", "close", "yes", "play.close: expected true/false"),
])
def test_the_variant_keys_are_checked(section, key, value, message):
    with pytest.raises(RulesError, match=message):
        rules_from_dict(variant_data(section, key, value))


def test_the_talon_engine_refuses_a_claim_game():
    with pytest.raises(SimulationError, match="no claim"):
        talon_engine.check(RULES)
