"""The widow variants' melds (SPEC.md, "Variant three-hand-auction-48"; "four-hand-widow-48" is as
three-hand-auction-48): the roundhouse is worth 240 in all (it stands for kings around, queens
around and its four marriages), a K+Q inside both a quint and the roundhouse is absorbed once,
and eight of any one rank (tens and nines included) is 1000. Known answers on hand-made hands
(the meld kernel, the reference twin and analyze_hand), exact probabilities derived here independently,
and an around meld inside another around meld in a tiny made-up variant, enumerated completely."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from math import comb, prod

import numpy as np
import pytest
from conftest import counts, kernel_melds, ok
from hypothesis import given
from hypothesis import strategies as st

from binokel_sim.analysis import analyze_hand
from binokel_sim.cards import card_type, counts_to_planes, parse_rank, type_rank
from binokel_sim.exact import exact_meld_distribution
from binokel_sim.kernels.melds import meld_hand
from binokel_sim.reference import core as core_twin
from binokel_sim.tables import compile_tables
from binokel_sim.variants import MAX_MELDS, find_variant, load_rules

SUITS = "SHDC"
WIDOW = ["three-hand-auction-48", "four-hand-widow-48"]


def melds_of(name: str, text: str, trump: str) -> tuple[dict[str, tuple[int, int]], int]:
    """``{meld: (count, points)}`` of the melds that are not (0, 0), and the total: from the
    kernel (meld_hand), checked against the reference twin (meld_table, meld_total) and
    analyze_hand."""
    r = find_variant(name)
    hand = counts(r, text)
    t = SUITS.index(trump)
    rows, total = kernel_melds(r, hand, t)
    got = {n: (c, p) for n, c, p in rows}
    ref_hand = [int(x) for x in hand]
    ref = {n: (c, p) for n, c, p in core_twin.meld_table(r, ref_hand, t)}
    assert got == ref, (name, text, trump)
    assert total == core_twin.meld_total(r, ref_hand, t) == sum(p for _, p in got.values())
    entry = analyze_hand(r, hand)["by_trump"][trump]
    assert {m["name"]: (m["count"], m["points"]) for m in entry["melds"]} == got
    return {k: v for k, v in got.items() if v != (0, 0)}, total


# --- the tables ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", WIDOW)
def test_widow_meld_table(name):
    r = find_variant(name)
    assert r.meld_names == ("quint", "roundhouse", "marriage", "trump_marriage", "dix",
                            "jacks_around", "queens_around", "kings_around", "aces_around",
                            "tens_around", "nines_around", "binokel")
    assert len(r.melds) == MAX_MELDS  # the kernels' packed counts hold exactly this many
    by = {m.name: m for m in r.melds}
    assert by["roundhouse"].points == (0, 240, 240) and by["roundhouse"].counted_sets == 1
    assert by["kings_around"].inside == ("roundhouse",)
    assert by["queens_around"].inside == ("roundhouse",)
    assert by["marriage"].inside == by["trump_marriage"].inside == ("quint", "roundhouse")
    for rank in ("jacks", "queens", "kings", "aces", "tens", "nines"):
        assert by[f"{rank}_around"].points[2] == 1000, rank  # eight of any one rank
    assert by["tens_around"].points == by["nines_around"].points == (0, 0, 1000)


# --- known answers ---------------------------------------------------------------------------------

def test_roundhouse_alone_is_240():
    # K+Q in every suit and nothing else that melds: 240, no kings/queens around, no marriage and
    # no trump marriage (whichever suit is trump, its K+Q is inside the roundhouse).
    cases = [("three-hand-auction-48", "KS QS KH QH KD QD KC QC AS AS AH AH AD AD TS"),
             ("four-hand-widow-48", "KS QS KH QH KD QD KC QC AS TS AH")]
    for name, hand in cases:
        for trump in SUITS:
            melds, total = melds_of(name, hand, trump)
            assert melds == {"roundhouse": (1, 240)}, (name, trump)
            assert total == 240


@pytest.mark.parametrize("trump", SUITS)
def test_double_familie_is_1500_in_trump_or_not(trump):
    """SPEC "Today's practice" (turn 4): both copies of A 10 K Q J of one suit score 1500, in
    trump or not, and absorb the two Familien and the marriages inside them; two Familien of two
    suits stay single ones. Kernel, twin and analyze_hand alike (melds_of)."""
    melds, total = melds_of("swabian-3-40", "AC AC TC TC KC KC QC QC JC JC AS TS", trump)
    assert melds == {"trump_familie" if trump == "C" else "familie": (2, 1500)}
    assert total == 1500
    melds, total = melds_of("swabian-3-40", "AC TC KC QC JC AH TH KH QH JH AS TS", trump)
    assert total == {"C": 250, "H": 250}.get(trump, 200)
    out = ok("analyze", "--variant", "swabian-3-40", "--hand",
             "AC AC TC TC KC KC QC QC JC JC AS TS", "--format", "json").stdout
    assert all(entry["total"] == 1500 for entry in json.loads(out)["by_trump"].values())


def test_roundhouse_and_quint_absorb_a_shared_marriage_once():
    # Spades: A T K K Q Q J = a quint; K+Q in every suit = a roundhouse. The spade K+Q inside
    # both is absorbed once: spade marriages = min(2, 2) - 1 = 1 (not 2 - 1 - 1 = 0).
    hand = "AS TS KS KS QS QS JS KH QH KD QD KC QC 9H 9D"
    melds, total = melds_of("three-hand-auction-48", hand, "S")
    assert melds == {"quint": (1, 250), "roundhouse": (1, 240), "trump_marriage": (1, 40)}
    assert total == 250 + 240 + 40
    melds, total = melds_of("three-hand-auction-48", hand, "H")  # the 9H is the dix
    assert melds == {"quint": (1, 250), "roundhouse": (1, 240), "marriage": (1, 20),
                     "dix": (1, 10)}
    assert total == 250 + 240 + 20 + 10
    # one K+Q of spades only: inside the quint and the roundhouse, nothing left
    hand = "AS TS KS QS JS KH QH KD QD KC QC"
    for trump in SUITS:
        melds, total = melds_of("four-hand-widow-48", hand, trump)
        assert melds == {"quint": (1, 250), "roundhouse": (1, 240)}
        assert total == 490


def test_roundhouse_and_eight_kings():
    # Eight kings = 1000 (kings around past the roundhouse's one set scores its own entry); the
    # roundhouse 240; four queens are inside the roundhouse. Marriages: hearts has a second K+Q
    # (min(2, 2) - 1 = 1), the other suits min(2, 1) - 1 = 0.
    hand = "KS KS QS KH KH QH QH KD KD QD KC KC QC AS AH"
    melds, total = melds_of("three-hand-auction-48", hand, "H")
    assert melds == {"roundhouse": (1, 240), "kings_around": (2, 1000), "trump_marriage": (1, 40)}
    assert total == 1280
    for trump in "SDC":
        melds, total = melds_of("three-hand-auction-48", hand, trump)
        assert melds == {"roundhouse": (1, 240), "kings_around": (2, 1000), "marriage": (1, 20)}
        assert total == 1260


def test_double_roundhouse():
    # two K+Q in every suit (16 cards: the reference hand may be any multiset): roundhouse 240,
    # eight kings 1000, eight queens 1000, and the second K+Q of every suit as a marriage.
    r = find_variant("three-hand-auction-48")
    hand = counts(r, "KS KS QS QS KH KH QH QH KD KD QD QD KC KC QC QC")
    ref_hand = [int(x) for x in hand]
    for t, trump in enumerate(SUITS):
        rows, total = kernel_melds(r, hand, t)
        got = {n: (c, p) for n, c, p in rows}
        assert got == {n: (c, p) for n, c, p in core_twin.meld_table(r, ref_hand, t)}
        assert {k: v for k, v in got.items() if v != (0, 0)} == {
            "roundhouse": (2, 240), "kings_around": (2, 1000), "queens_around": (2, 1000),
            "marriage": (3, 60), "trump_marriage": (1, 40)}
        assert total == 240 + 2000 + 60 + 40


def test_kings_around_without_a_roundhouse_still_counts():
    # four kings and queens in three suits only: no roundhouse, kings around 80, three marriages
    hand = "KS KH KD KC QS QH QD AS AS AH AH AD JS JH TC"
    melds, total = melds_of("three-hand-auction-48", hand, "C")
    assert melds == {"kings_around": (1, 80), "marriage": (3, 60)}
    assert total == 140


def test_eight_tens_and_eight_nines_are_1000_four_are_nothing():
    # aces and jacks that make nothing (no AC, no JD/JC); eight tens = 1000
    melds, total = melds_of("three-hand-auction-48",
                            "TS TS TH TH TD TD TC TC AS AS AH AH AD JS JH", "D")
    assert melds == {"tens_around": (2, 1000)} and total == 1000
    # four tens: a complete set, worth nothing
    for trump in SUITS:
        melds, total = melds_of("three-hand-auction-48",
                                "TS TH TD TC AS AS AH AH AD AD JS JS JH JH JD", trump)
        assert melds == {"tens_around": (1, 0)} and total == 0
    # eight nines = 1000, and the two trump nines are dixes
    for trump in SUITS:
        melds, total = melds_of("three-hand-auction-48",
                                "9S 9S 9H 9H 9D 9D 9C 9C AS AS AH AH AD JS JH", trump)
        assert melds == {"nines_around": (2, 1000), "dix": (2, 20)} and total == 1020
    # four nines: nothing but the dix
    melds, total = melds_of("four-hand-widow-48", "9S 9H 9D 9C AS AS AH AH AD JS JH", "C")
    assert melds == {"nines_around": (1, 0), "dix": (1, 10)} and total == 10
    # eight tens in the 11-card hand of four-hand-widow-48
    melds, total = melds_of("four-hand-widow-48", "TS TS TH TH TD TD TC TC AS AH JS", "S")
    assert melds == {"tens_around": (2, 1000)} and total == 1000


def test_trump_marriage_inside_the_roundhouse():
    # Hearts trump: the one K+Q of hearts is inside the roundhouse (no trump marriage); a second
    # K+Q of hearts is a trump marriage 40 (with another trump: a marriage 20).
    melds, total = melds_of("three-hand-auction-48",
                            "KS QS KH QH KD QD KC QC AS AS AH AH AD AD TS", "H")
    assert melds == {"roundhouse": (1, 240)} and total == 240
    hand = "KS QS KH KH QH QH KD QD KC QC AS AS AD AD TS"
    melds, total = melds_of("three-hand-auction-48", hand, "H")
    assert melds == {"roundhouse": (1, 240), "trump_marriage": (1, 40)} and total == 280
    melds, total = melds_of("three-hand-auction-48", hand, "D")
    assert melds == {"roundhouse": (1, 240), "marriage": (1, 20)} and total == 260


# --- exact probabilities, derived here independently -------------------------------------------------

def _kings_around_direct(hand_size: int) -> dict[int, Fraction]:
    """Sum over the kings and queens held in every suit (48 cards, 2 copies): the count is the
    kings' multiplicity, 0 when it is at most the roundhouse's counted set."""
    want: dict[int, Fraction] = {}
    total = comb(48, hand_size)
    for kq in product(product(range(3), repeat=2), repeat=4):
        used = sum(k + q for k, q in kq)
        if used > hand_size:
            continue
        kings = min(k for k, _ in kq)
        roundhouse = min(min(k, q) for k, q in kq)
        count = 0 if kings <= min(roundhouse, 1) else kings
        w = prod(comb(2, k) * comb(2, q) for k, q in kq) * comb(48 - 16, hand_size - used)
        want[count] = want.get(count, 0) + Fraction(w, total)
    return {k: v for k, v in sorted(want.items()) if v}


@pytest.mark.parametrize("name", WIDOW)
def test_kings_and_queens_around_exact(name):
    r = find_variant(name)
    want = _kings_around_direct(r.hand_size)
    assert exact_meld_distribution(r, "kings_around") == want
    assert exact_meld_distribution(r, "queens_around") == want  # kings and queens are symmetric
    # tens and nines sit inside nothing: the plain multiplicity (as aces around)
    assert exact_meld_distribution(r, "tens_around") == exact_meld_distribution(r, "aces_around")
    assert exact_meld_distribution(r, "nines_around") == exact_meld_distribution(r, "aces_around")


# Exact values pinned (they changed with the SPEC's 240-in-all roundhouse): P(kings around == 1),
# four kings without a roundhouse.
@pytest.mark.parametrize("name,p_one", [("three-hand-auction-48", 0.0631790559),
                                        ("four-hand-widow-48", 0.0192877967)])
def test_kings_around_once_pinned(name, p_one):
    dist = exact_meld_distribution(find_variant(name), "kings_around")
    assert round(float(dist[1]), 10) == p_one


def test_marriages_exact_three_hand():
    # Dynamic programme over the suits (spades trump) on the counts of A T K Q J of each suit
    # (the 8 nines fill the rest): the roundhouse needs K+Q in all four suits, so each suit keeps
    # its marriages both ways, with and without the roundhouse absorbing one.
    r = find_variant("three-hand-auction-48")
    h = r.hand_size
    # state: (K+Q in every suit so far, trump if roundhouse, trump if not, plain if roundhouse,
    # plain if not, cards used) -> ways
    states = {(True, 0, 0, 0, 0, 0): 1}
    for suit in range(4):
        nxt: dict[tuple, int] = {}
        for vec in product(range(3), repeat=5):  # A T K Q J
            a, t, k, q, j = vec
            kq = min(k, q)
            quint = min(vec) >= 1
            with_rh = max(0, kq - 1)
            without_rh = max(0, kq - (1 if quint else 0))
            w = prod(comb(2, x) for x in vec)
            for (all_kq, tr, tn, pr, pn, used), ways in states.items():
                if used + sum(vec) > h:
                    continue
                if suit == 0:
                    key = (all_kq and kq >= 1, tr + with_rh, tn + without_rh, pr, pn, used + sum(vec))
                else:
                    key = (all_kq and kq >= 1, tr, tn, pr + with_rh, pn + without_rh,
                           used + sum(vec))
                nxt[key] = nxt.get(key, 0) + ways * w
        states = nxt
    trump_want: dict[int, int] = {}
    plain_want: dict[int, int] = {}
    for (all_kq, tr, tn, pr, pn, used), ways in states.items():
        n = ways * comb(8, h - used)
        trump_want[tr if all_kq else tn] = trump_want.get(tr if all_kq else tn, 0) + n
        plain_want[pr if all_kq else pn] = plain_want.get(pr if all_kq else pn, 0) + n
    total = comb(48, h)
    assert exact_meld_distribution(r, "trump_marriage", 0) == \
        {k: Fraction(v, total) for k, v in sorted(trump_want.items()) if v}
    assert exact_meld_distribution(r, "marriage", 0) == \
        {k: Fraction(v, total) for k, v in sorted(plain_want.items()) if v}


# --- an around meld inside around melds, enumerated completely -------------------------------------

TINY_AROUND = """
name = "tiny-around"

[deck]
ranks = ["Q", "K"]
copies = 3

[deal]
players = {players}
hand_size = {hand_size}

[trump]
chosen_by = "bid_winner"

[points]
ranks = {{ K = 4, Q = 3 }}

[play]

[[melds]]
name = "big"
scope = "around"
ranks = ["K", "Q"]
points = [100, 900]

[[melds]]
name = "kings"
scope = "around"
ranks = ["K"]
points = [8, 80, 200]
inside = ["big"]

[[melds]]
name = "queens"
scope = "around"
ranks = ["Q"]
points = [6, 60]
inside = ["big", "kings"]

[[melds]]
name = "pairs"
scope = "per_suit"
ranks = ["K", "Q"]
per_set = 20
inside = ["big"]

[[melds]]
name = "royal"
scope = "trump"
ranks = ["K", "Q"]
per_set = 40
inside = ["pairs", "kings"]

[[melds]]
name = "trump_king"
scope = "trump"
ranks = ["K"]
per_set = 1
inside = ["queens"]

[[melds]]
name = "binokel"
scope = "cards"
cards = ["QS", "KD"]
points = [40, 300]
"""


def tiny_around(tmp_path, players: int, hand_size: int):
    path = tmp_path / f"tiny-around-{players}.toml"
    path.write_text(TINY_AROUND.format(players=players, hand_size=hand_size), "utf-8")
    return load_rules(path)


def _types(rules):
    return [card_type(r, s) for s in range(4) for r in rules.ranks]


def _kernel_rows(rules, hand: np.ndarray, trump: int):
    tables = compile_tables(rules)
    c = np.empty(tables.n_melds, dtype=np.int64)
    p = np.empty(tables.n_melds, dtype=np.int64)
    total = meld_hand(counts_to_planes(hand), trump, tables.kt, c, p)
    return [(m.name, int(ci), int(pi)) for m, ci, pi in zip(rules.melds, c, p)], int(total)


@pytest.mark.parametrize("players,hand_size", [(2, 12), (3, 8)])
def test_around_inside_around_exact_kernel_reference(tmp_path, players, hand_size):
    """Every hand of the tiny deck as counts per card type, weighted by its number of deals:
    the exact engine equals the enumeration, and the kernel equals the reference on every hand."""
    rules = tiny_around(tmp_path, players, hand_size)
    types = _types(rules)
    total = comb(rules.deck_size, hand_size)
    brute = {t: {m: {} for m in rules.meld_names} for t in range(4)}
    seen_absorbed = seen_scored = 0
    for vec in product(range(rules.copies + 1), repeat=len(types)):
        if sum(vec) != hand_size:
            continue
        hand = np.zeros(24, dtype=np.int64)
        for t, x in zip(types, vec):
            hand[t] = x
        ways = prod(comb(rules.copies, x) for x in vec)
        ref_hand = [int(x) for x in hand]
        for trump in range(4):
            rows = core_twin.meld_table(rules, ref_hand, trump)
            assert _kernel_rows(rules, hand, trump) == (rows, sum(p for _, _, p in rows)), \
                (vec, trump)
            for name, count, _ in rows:
                brute[trump][name][count] = brute[trump][name].get(count, 0) + ways
        kings = min(hand[card_type(parse_rank("K"), s)] for s in range(4))
        seen_absorbed += kings >= 1 and rows[1][1] == 0
        seen_scored += kings >= 2 and rows[1][1] == kings
    assert seen_absorbed and seen_scored
    for trump in range(4):
        for name in rules.meld_names:
            want = {c: Fraction(w, total) for c, w in sorted(brute[trump][name].items())}
            assert exact_meld_distribution(rules, name, trump) == want, (name, trump)


@st.composite
def widow_hands(draw):
    """A widow variant and any multiset of its cards, biased towards kings and queens (the
    roundhouse, eight kings or queens, and quints sharing their K+Q with it)."""
    r = find_variant(draw(st.sampled_from(WIDOW)))
    hand = np.zeros(24, dtype=np.int64)
    for t in range(24):
        rank = type_rank(t)
        low = 1 if rank in (parse_rank("K"), parse_rank("Q")) and draw(st.booleans()) else 0
        hand[t] = draw(st.integers(low, 2))
    return r, hand


@given(widow_hands())
def test_kernel_equals_reference_widow_rich_hands(rules_and_hand):
    r, hand = rules_and_hand
    ref_hand = [int(x) for x in hand]
    for trump in range(4):
        rows = core_twin.meld_table(r, ref_hand, trump)
        assert _kernel_rows(r, hand, trump) == (rows, core_twin.meld_total(r, ref_hand, trump))
