"""Tests of the sixty-six replay checker (tests/sixty_six_replay.py) on hand-made records.

The valid deals below are written out trick by trick and were traced by hand from the rules
(SPEC.md "Variant `sixty-six`" and the record format's decisions); the comment above each gives
the counts that decide it. Each must be accepted. Each mutation of one must give the violation
it plants, first (a mutation may upset later tricks too, and the replay reports those as well);
where the mutation upsets nothing else, it must be the only violation.
"""

from __future__ import annotations

import ast
import copy
import sys
from pathlib import Path

import pytest

from sixty_six_replay import (
    KINDS,
    check_many,
    dealer_violations,
    kind_of,
    legal_cards,
    replay,
    trick_winner,
)


def trick(leader, cards, winner, draws="", *, exchange=False, close=False, marriage=None):
    return {"leader": leader, "exchange": exchange, "close": close,
            "marriage": None if marriage is None else {"suit": marriage[0], "points": marriage[1]},
            "cards": cards.split(), "winner": winner, "draws": draws.split()}


def claim(seat, after, marriage=None, exchange=False, close=False):
    return {"seat": seat, "after": after,
            "marriage": None if marriage is None else {"suit": marriage[0], "points": marriage[1]},
            "exchange": exchange, "close": close}


def record(deal, dealer, hands, stock, tricks, points, tricks_won, result, claim=None):
    stock = stock.split()
    return {"deal": deal, "variant": "sixty-six", "dealer": dealer,
            "hands": [h.split() for h in hands], "stock": stock, "trump": stock[-1][1],
            "tricks": tricks, "claim": claim, "points": points, "tricks_won": tricks_won,
            "result": {"seat": result[0], "game_points": result[1], "reason": result[2]}}


# --- valid deals --------------------------------------------------------------------------------

# Dealer 1: seat 0 leads; trump D (KD turned). Open stock to the end, nobody reaches 66.
# Tricks 0-2 to seat 0 (14 + 21 + 2 = 37); in trick 2 the stock is open, so seat 1 may throw 9S
# though it holds QH. Trick 3: seat 1 trumps JS with QD (5). Trick 4: seat 1 (a trick won, the
# stock holds 4) exchanges 9D (drawn at trick 1) for KD and wins (12), trick 5 too (15): 32; 9D is
# now the stock's last card, drawn by seat 0 at trick 5. From trick 6 the stock is exhausted:
# seat 0 must beat KS with AS (it holds QS) and takes tricks 6-8 (15 + 0 + 13): 65. Seat 1 takes
# tricks 9-11 (3 + 13 + 7): 55, and 10 for the last trick: 65. The last trick's winner scores 1.
OPEN_TO_THE_END = record(
    deal=10, dealer=1,
    hands=["TH JH 9H AD JD QC", "9S KH QH TD QD TC"],
    stock="JC AC JS 9D AS TS KC QS KS AH 9C KD",
    tricks=[
        trick(0, "TH KH", 0, "JC AC"),  # 0
        trick(0, "AD TD", 0, "JS 9D"),  # 1
        trick(0, "JH 9S", 0, "AS TS"),  # 2
        trick(0, "JS QD", 1, "KC QS"),  # 3
        trick(1, "TC JC", 1, "KS AH", exchange=True),  # 4
        trick(1, "KD AH", 1, "9C 9D"),  # 5
        trick(1, "KS AS", 0),  # 6
        trick(0, "9D 9C", 0),  # 7
        trick(0, "JD AC", 0),  # 8
        trick(0, "9H QH", 1),  # 9
        trick(1, "TS QS", 1),  # 10
        trick(1, "KC QC", 1),  # 11
    ],
    points=[65, 65], tricks_won=[6, 6],
    result=(1, 1, "last_trick"))

# Dealer 0: seat 1 leads; trump C (9C turned). Trick 0: seat 1 announces the trump marriage (40)
# leading QC, and seat 0 takes it with TC (13): the 40 does not count yet. Trick 1: seat 1 takes QH
# with AH (14): now it counts, 54. Trick 2: seat 1 takes TD KS (14): 68, it claims. Seat 0 has one
# trick and 13, under 33: 2 game points.
FIRST_LEAD_MARRIAGE = record(
    deal=20, dealer=0,
    hands=["KS QS TH JH AC TC", "AH JD 9D KC QC JC"],
    stock="QH AD TD QD KH AS JS 9H 9S TS KD 9C",
    tricks=[
        trick(1, "QC TC", 0, "QH AD", marriage=("C", 40)),  # 0
        trick(0, "QH AH", 1, "TD QD"),  # 1
        trick(1, "TD KS", 1, "KH AS"),  # 2
    ],
    claim=claim(1, 2),
    points=[13, 68], tricks_won=[1, 2],
    result=(1, 2, "claim"))

# Dealer 0: seat 1 leads; trump C (QC turned). Trick 0: seat 1 takes KD AH (15) and draws KC.
# Trick 1: seat 1 (a trick won, the stock holds 10) exchanges 9C for QC, so holds KC QC, announces
# the trump marriage (40) leading KC and takes TD (14): 15 + 14 + 40 = 69, it claims. Seat 0 has
# won no trick: 3 game points.
EXCHANGE = record(
    deal=30, dealer=0,
    hands=["JS AH AD TD QD 9D", "AS TH KD JD AC 9C"],
    stock="KC 9H KH QS TC TS JC JH QH 9S KS QC",
    tricks=[
        trick(1, "KD AH", 1, "KC 9H"),  # 0
        trick(1, "KC TD", 1, "KH QS", exchange=True, marriage=("C", 40)),  # 1
    ],
    claim=claim(1, 1),
    points=[0, 69], tricks_won=[0, 2],
    result=(1, 3, "claim"))

# Dealer 0: seat 1 leads; trump S (TS turned). Trick 0: seat 1 announces clubs (20) leading QC and
# wins (3). Trick 1: seat 1 announces diamonds (20) leading KD; seat 0 trumps it with JS (6).
# Trick 2: seat 0 exchanges 9S for TS (the stock holds 8), announces the trump marriage (40)
# leading QS and takes AC (14). Trick 3: seat 0 closes (6 cards left; seat 1 has one trick) and
# leads KS; seat 1 has no spade and no trump: KC. Seat 0: 6 + 14 + 8 + 40 = 68, it claims. Seat 1:
# 3 + 20 + 20 = 43, not under 33: 1 game point.
CLOSE_AND_CLAIM = record(
    deal=40, dealer=0,
    hands=["KS JS 9S JH 9H 9D", "KD QD AC KC QC JC"],
    stock="TD QS 9C TH AS JD AH KH TC QH AD TS",
    tricks=[
        trick(1, "QC 9H", 1, "TD QS", marriage=("C", 20)),  # 0
        trick(1, "KD JS", 0, "9C TH", marriage=("D", 20)),  # 1
        trick(0, "QS AC", 0, "AS JD", exchange=True, marriage=("S", 40)),  # 2
        trick(0, "KS KC", 0, "", close=True),  # 3
    ],
    claim=claim(0, 3),
    points=[68, 43], tricks_won=[3, 1],
    result=(0, 1, "claim"))

# Dealer 0: seat 1 leads; trump H (JH turned). Seat 1 closes at the first lead, before seat 0 has
# won a trick; strict play from trick 0. Trick 2: seat 1 must beat KC with AC (it holds QC, and AH
# as trump). Trick 3: seat 0 must beat QC with TC (it holds JC). Trick 4: seat 1, void in clubs,
# must trump JC with AH (it holds QD). Seat 0: 13 + 13 + 13 = 39; seat 1: 12 + 15 + 13 = 40 (no
# 10 for the last trick: the stock is closed). Nobody claims: the closer failed, seat 0 scores 3.
FAILED_CLOSE = record(
    deal=50, dealer=0,
    hands=["AS TD JD TC KC JC", "JS AH TH QD AC QC"],
    stock="9C QH 9H 9S AD QS TS KD 9D KS KH JH",
    tricks=[
        trick(1, "TH JD", 1, "", close=True),  # 0
        trick(1, "JS AS", 0),  # 1
        trick(0, "KC AC", 1),  # 2
        trick(1, "QC TC", 0),  # 3
        trick(0, "JC AH", 1),  # 4
        trick(1, "QD TD", 0),  # 5
    ],
    points=[39, 40], tricks_won=[3, 3],
    result=(0, 3, "failed_close"))

# Dealer 0: seat 1 leads; trump D (9D turned). Seat 1 takes four tricks (7 + 7 + 21 + 2 = 37) and
# claims: wrong. It has won tricks, so seat 0 scores 2.
WRONG_CLAIM = record(
    deal=60, dealer=0,
    hands=["TS QS TH TC KC QC", "9S AH JH 9H AD QD"],
    stock="KS JC AS 9C KH AC KD TD QH JS JD 9D",
    tricks=[
        trick(1, "QD KC", 1, "KS JC"),  # 0
        trick(1, "KS QS", 1, "AS 9C"),  # 1
        trick(1, "AH TH", 1, "KH AC"),  # 2
        trick(1, "9H JC", 1, "KD TD"),  # 3
    ],
    claim=claim(1, 3),
    points=[0, 37], tricks_won=[0, 4],
    result=(0, 2, "wrong_claim"))

# Dealer 1: seat 0 leads; trump D (9D turned). Trick 0: seat 0 announces the trump marriage (40)
# leading KD and takes KH (8): it won the trick, the 40 counts at once: 48. It draws KC; on lead
# again it announces clubs (20) and claims with 68, the trick not played. Seat 1 has no trick: 3.
MARRIAGE_CLAIM = record(
    deal=70, dealer=1,
    hands=["KS 9S KD QD TC QC", "JS TH KH QH AD JD"],
    stock="KC AH TD QS TS 9C JH AS JC 9H AC 9D",
    tricks=[
        trick(0, "KD KH", 0, "KC AH", marriage=("D", 40)),  # 0
    ],
    claim=claim(0, 0, marriage=("C", 20)),
    points=[68, 0], tricks_won=[1, 0],
    result=(0, 3, "claim"))

# Dealer 1: seat 0 leads; trump H (JH turned). The stock is exhausted after trick 5; trick 8:
# seat 1, void in clubs, must trump QC (AH). Seat 1 has 42 after trick 10, takes the last trick
# (TH AD, 21) and its 10: 73, and claims after it. Seat 0 has 57: 1 game point.
LAST_TRICK_CLAIM = record(
    deal=80, dealer=1,
    hands=["AS JS 9H TD QD KC", "TH KH JD 9D AC JC"],
    stock="KS QH QC TC 9S QS KD AH TS AD 9C JH",
    tricks=[
        trick(0, "QD JD", 0, "KS QH"),  # 0
        trick(0, "TD 9D", 0, "QC TC"),  # 1
        trick(0, "9H JC", 0, "9S QS"),  # 2
        trick(0, "KS AC", 0, "KD AH"),  # 3
        trick(0, "9S QH", 1, "TS AD"),  # 4
        trick(1, "TC KD", 1, "9C JH"),  # 5
        trick(1, "TS AS", 0),  # 6
        trick(0, "KC 9C", 0),  # 7
        trick(0, "QC AH", 1),  # 8
        trick(1, "QS JS", 1),  # 9
        trick(1, "KH JH", 1),  # 10
        trick(1, "TH AD", 1),  # 11
    ],
    claim=claim(1, 11),
    points=[57, 73], tricks_won=[6, 6],
    result=(1, 1, "claim"))

# The deal of EXCHANGE, claimed one turn early: after trick 0 (15) seat 1 exchanges 9C for QC and
# announces the trump marriage (40) and claims with 55: wrong, seat 0 scores 2. The claim carries
# that turn's exchange.
EXCHANGE_MARRIAGE_CLAIM = record(
    deal=90, dealer=0,
    hands=["JS AH AD TD QD 9D", "AS TH KD JD AC 9C"],
    stock="KC 9H KH QS TC TS JC JH QH 9S KS QC",
    tricks=[trick(1, "KD AH", 1, "KC 9H")],
    claim=claim(1, 0, marriage=("C", 40), exchange=True),
    points=[0, 55], tricks_won=[0, 1],
    result=(0, 2, "wrong_claim"))

# The deal of MARRIAGE_CLAIM, claimed at the first lead with the trump marriage: seat 0 has won no
# trick, so the 40 does not count; the claim is wrong and seat 1 scores 3 (the claimant has no
# trick). The checker's reading: a legal claim, scored as wrong.
FIRST_LEAD_CLAIM = record(
    deal=100, dealer=1,
    hands=["KS 9S KD QD TC QC", "JS TH KH QH AD JD"],
    stock="KC AH TD QS TS 9C JH AS JC 9H AC 9D",
    tricks=[],
    claim=claim(0, -1, marriage=("D", 40)),
    points=[0, 0], tricks_won=[0, 0],
    result=(1, 3, "wrong_claim"))

# Dealer 1: seat 0 leads; trump S (TS turned). Seat 0 wins trick 0 (11) and closes at trick 1,
# before seat 1 has won a trick. Trick 2: seat 1 must beat JS with AS (it holds 9S); trick 4:
# seat 1, void in clubs, must trump QC with 9S. Seat 0: 11 + 6 + 21 = 38; seat 1: 13 + 3 + 6 + 13
# = 35. Nobody claims: seat 1 scores 3 (it had no trick when the stock was closed, though the
# closer had one).
FAILED_CLOSE_AFTER_A_TRICK = record(
    deal=110, dealer=1,
    hands=["AH AD JD AC KC QC", "AS 9S TH KH JH 9H"],
    stock="JS JC TD 9D TC QD KD KS QH QS 9C TS",
    tricks=[
        trick(0, "AC 9H", 0, "JS JC"),  # 0
        trick(0, "KC JC", 0, "", close=True),  # 1
        trick(0, "JS AS", 1),  # 2
        trick(1, "TH AH", 0),  # 3
        trick(0, "QC 9S", 1),  # 4
        trick(1, "KH JD", 1),  # 5
        trick(1, "JH AD", 1),  # 6
    ],
    points=[38, 35], tricks_won=[3, 4],
    result=(1, 3, "failed_close"))

# Dealer 0: seat 1 leads; trump C (9C turned). One trick each, then seat 1 closes at trick 2 (the
# stock holds 8) leading QC; seat 0 must beat it with AC. Seat 0: 5 + 14 + 13 = 32; seat 1: 4 + 15
# + 21 + 10 + 12 = 62. Nobody claims: seat 0 had a trick when it was closed, so it scores 2.
FAILED_LATE_CLOSE = record(
    deal=120, dealer=0,
    hands=["KS TH JH 9H AD JC", "KH TD QD JD TC QC"],
    stock="AC 9D AS AH KC TS 9S JS QH KD QS 9C",
    tricks=[
        trick(1, "QD JC", 0, "AC 9D"),  # 0
        trick(0, "9H KH", 1, "AS AH"),  # 1
        trick(1, "QC AC", 0, "", close=True),  # 2
        trick(0, "KS AS", 1),  # 3
        trick(1, "JD AD", 0),  # 4
        trick(0, "AH TC", 1),  # 5
        trick(1, "9D TH", 1),  # 6
        trick(1, "TD JH", 1),  # 7
    ],
    points=[32, 62], tricks_won=[3, 5],
    result=(0, 2, "failed_close"))

# Dealer 0: seat 1 leads; trump H (AH turned). Seat 0 trumps AC with JH (13); announces clubs (20)
# leading QC, which seat 1 trumps with TH (13); seat 1 announces diamonds (20) leading QD and takes
# TC (13). On lead, seat 1 announces spades (20): 26 + 60 = 66 exactly, a correct claim. Seat 0 has
# 13 + 20 = 33 exactly, not under 33: 1 game point.
EXACTLY_66 = record(
    deal=130, dealer=0,
    hands=["AS JH JD TC KC QC", "TS KS TH AD KD AC"],
    stock="9C QD QS 9H JS KH QH TD 9D JC 9S AH",
    tricks=[
        trick(1, "AC JH", 0, "9C QD"),  # 0
        trick(0, "QC TH", 1, "QS 9H", marriage=("C", 20)),  # 1
        trick(1, "QD TC", 1, "JS KH", marriage=("D", 20)),  # 2
    ],
    claim=claim(1, 2, marriage=("S", 20)),
    points=[33, 66], tricks_won=[1, 2],
    result=(1, 1, "claim"))

VALID = {
    "open_to_the_end": OPEN_TO_THE_END,
    "first_lead_marriage": FIRST_LEAD_MARRIAGE,
    "exchange": EXCHANGE,
    "close_and_claim": CLOSE_AND_CLAIM,
    "failed_close": FAILED_CLOSE,
    "wrong_claim": WRONG_CLAIM,
    "marriage_claim": MARRIAGE_CLAIM,
    "last_trick_claim": LAST_TRICK_CLAIM,
    "exchange_marriage_claim": EXCHANGE_MARRIAGE_CLAIM,
    "first_lead_claim": FIRST_LEAD_CLAIM,
    "failed_close_after_a_trick": FAILED_CLOSE_AFTER_A_TRICK,
    "failed_late_close": FAILED_LATE_CLOSE,
    "exactly_66": EXACTLY_66,
}


def fresh(rec):
    return copy.deepcopy(rec)


def first(rec, kind, *needles):
    """The replay's first violation is of ``kind`` and names every needle."""
    found = replay(rec)
    assert found, "the mutation was not caught"
    assert kind_of(found[0]) == kind, found
    assert found[0].startswith(f"{kind}: deal {rec['deal']!r}: "), found[0]
    for needle in needles:
        assert needle in found[0], found[0]
    return found


def only(rec, kind, *needles):
    """As ``first``, and nothing else is wrong."""
    found = first(rec, kind, *needles)
    assert len(found) == 1, found
    return found


@pytest.mark.parametrize("name", VALID)
def test_valid_deals_are_accepted(name):
    assert replay(fresh(VALID[name])) == []


def test_valid_deals_are_the_cases_they_name():
    """The deals hold what the scenarios need (a guard against editing one into another)."""
    def flags(rec, key):
        return [i for i, t in enumerate(rec["tricks"]) if t[key]]
    assert OPEN_TO_THE_END["claim"] is None and len(OPEN_TO_THE_END["tricks"]) == 12
    assert FIRST_LEAD_MARRIAGE["tricks"][0]["marriage"] and \
        FIRST_LEAD_MARRIAGE["tricks"][0]["winner"] != FIRST_LEAD_MARRIAGE["tricks"][0]["leader"]
    assert flags(EXCHANGE, "exchange") == [1] and flags(OPEN_TO_THE_END, "exchange") == [4]
    assert flags(CLOSE_AND_CLAIM, "close") == [3] and CLOSE_AND_CLAIM["claim"]["seat"] == 0
    assert flags(FAILED_CLOSE, "close") == [0] and FAILED_CLOSE["claim"] is None
    assert MARRIAGE_CLAIM["claim"]["marriage"] and FIRST_LEAD_CLAIM["claim"]["after"] == -1
    assert {r["result"]["reason"] for r in VALID.values()} == \
        {"claim", "wrong_claim", "failed_close", "last_trick"}
    for rec in VALID.values():  # every card once
        assert sorted(rec["hands"][0] + rec["hands"][1] + rec["stock"]) == \
            sorted(r + s for r in "9JQKTA" for s in "SHDC")


def test_a_claim_without_the_flag_keys_is_accepted():
    """The format's example claim has no exchange and close keys: absent reads as false."""
    for rec in (fresh(EXCHANGE), fresh(MARRIAGE_CLAIM)):
        del rec["claim"]["exchange"], rec["claim"]["close"]
        assert replay(rec) == []


# --- the rules' building blocks -----------------------------------------------------------------

@pytest.mark.parametrize("hand, led, strict, legal", [
    ("AS 9S KH 9D", "TS", False, "AS 9S KH 9D"),  # open stock: anything
    ("AS 9S KH 9D", "TS", True, "AS"),            # follow suit and beat
    ("QS 9S KH 9D", "TS", True, "QS 9S"),         # cannot beat: any card of the suit
    ("QS KH 9D", "TS", True, "QS"),               # following comes before trumping
    ("KH 9D JD", "TS", True, "9D JD"),            # void: trump (D)
    ("KH QC", "TS", True, "KH QC"),               # void, no trump: anything
    ("AD 9D KH", "TD", True, "AD"),               # trump led: beat it
    ("QD 9D KH", "TD", True, "QD 9D"),            # trump led, cannot beat: any trump
    ("KH AC", "TD", True, "KH AC"),               # trump led, none held: anything
])
def test_legal_cards(hand, led, strict, legal):
    assert legal_cards(set(hand.split()), led, "D", strict) == set(legal.split())


@pytest.mark.parametrize("cards, winner", [
    ("TS KS", 0),   # a lower card of the suit
    ("KS TS", 1),   # T beats K
    ("AS 9D", 1),   # a trump beats
    ("9D AS", 0),   # off suit, not trump: the lead wins
    ("AH AC", 0),   # off suit
    ("TD AD", 1),   # trump over trump
])
def test_trick_winner(cards, winner):
    assert trick_winner(0, cards.split(), "D") == winner
    assert trick_winner(1, cards.split(), "D") == 1 - winner


def test_the_checker_imports_nothing_of_the_package():
    """Independence: the standard library only (not even binokel_sim.cards)."""
    tree = ast.parse((Path(__file__).parent / "sixty_six_replay.py").read_text(encoding="utf-8"))
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import)
                for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree)
                 if isinstance(n, ast.ImportFrom) and n.module}
    assert imported and imported <= set(sys.stdlib_module_names) | {"__future__"}, imported


# --- the deal -----------------------------------------------------------------------------------

def test_a_card_dealt_twice():
    rec = fresh(OPEN_TO_THE_END)
    rec["stock"][0] = "TH"  # seat 0 holds TH; JC is gone
    only(rec, "deck", "TH", "lack JC")


def test_a_hand_of_seven():
    rec = fresh(OPEN_TO_THE_END)
    rec["hands"][0].append(rec["stock"].pop(0))
    only(rec, "format", "hands[0] has 7 cards, expected 6")


def test_trump_is_the_turned_cards_suit():
    rec = fresh(OPEN_TO_THE_END)
    rec["trump"] = "H"
    only(rec, "trump", "'H'", "KD")


@pytest.mark.parametrize("token", ["10S", "9s", "XS", 9])
def test_card_notation(token):
    rec = fresh(OPEN_TO_THE_END)
    rec["hands"][1][0] = token  # was 9S
    only(rec, "format", "hands[1]", "is not a card")


@pytest.mark.parametrize("change, needle", [
    (lambda r: r.pop("tricks_won"), "lacks the key(s) tricks_won"),
    (lambda r: r.update(extra=1), "unexpected key(s) extra"),
    (lambda r: r.update(variant="two-hand-48"), "not 'sixty-six'"),
    (lambda r: r.update(dealer=2), "dealer is 2"),
    (lambda r: r["tricks"][3].pop("close"), "trick lacks the key(s) close"),
    (lambda r: r["tricks"][3].update(exchange=0), "exchange must be true/false"),
    (lambda r: r["tricks"][3]["cards"].pop(), "cards has 1 cards, expected 2"),
    (lambda r: r.update(result={"seat": 1, "game_points": 1}), "result lacks the key(s) reason"),
])
def test_malformed_records(change, needle):
    rec = fresh(OPEN_TO_THE_END)
    change(rec)
    only(rec, "format", needle)


def test_a_record_that_is_not_an_object():
    assert [kind_of(v) for v in replay([1, 2])] == ["format"]


# --- the lead -----------------------------------------------------------------------------------

def test_the_dealer_leads_the_first_trick():
    rec = fresh(OPEN_TO_THE_END)
    rec["tricks"][0]["leader"] = 1  # the dealer
    found = first(rec, "leader", "tricks[0]", "the dealer is seat 1, so seat 0 leads")
    assert kind_of(found[1]) == "hand"  # seat 1 does not hold TH


def test_the_loser_leads_the_next_trick():
    rec = fresh(OPEN_TO_THE_END)
    rec["tricks"][4]["leader"] = 0
    first(rec, "leader", "tricks[4]", "seat 1 won the previous trick")


# --- the cards in hand --------------------------------------------------------------------------

def test_a_card_from_the_stock():
    rec = fresh(OPEN_TO_THE_END)
    rec["tricks"][0]["cards"][1] = "AS"  # still in the stock
    only(rec, "hand", "tricks[0]", "seat 1 plays AS, which it does not hold")


def test_a_card_played_twice():
    rec = fresh(OPEN_TO_THE_END)
    rec["tricks"][8]["cards"][0] = "9D"  # played in trick 7
    only(rec, "hand", "tricks[8]", "seat 0 plays 9D")


def test_a_card_before_it_is_drawn():
    rec = fresh(FIRST_LEAD_MARRIAGE)
    rec["tricks"][0]["cards"][1] = "QH"  # seat 0 draws QH after trick 0
    only(rec, "hand", "tricks[0]", "seat 0 plays QH")


def test_the_exchange_gives_the_turned_card():
    rec = fresh(OPEN_TO_THE_END)
    rec["tricks"][4]["exchange"] = False  # then seat 1 has no KD to lead at trick 5
    only(rec, "hand", "tricks[5]", "seat 1 plays KD")


# --- the trick winner ---------------------------------------------------------------------------

@pytest.mark.parametrize("name, i, right", [
    ("open_to_the_end", 9, 1),   # 9H QH: the higher heart
    ("failed_close", 4, 1),      # JC AH: the trump
    ("open_to_the_end", 2, 0),   # JH 9S: off suit, no trump
])
def test_a_wrong_winner(name, i, right):
    rec = fresh(VALID[name])
    rec["tricks"][i]["winner"] = 1 - right
    first(rec, "winner", f"tricks[{i}]", f"winner is seat {1 - right}", f"go to seat {right}")


# --- following in strict play -------------------------------------------------------------------

@pytest.mark.parametrize("name, i, card, why, legal", [
    ("failed_close", 2, "AH", "closed", "AC"),             # trumps while it can follow
    ("failed_close", 3, "JC", "closed", "TC"),             # follows without beating
    ("failed_close", 4, "QD", "closed", "AH"),             # void, does not trump
    ("open_to_the_end", 6, "QS", "exhausted", "AS"),        # follows without beating
    ("open_to_the_end", 10, "QC", "exhausted", "QS"),       # does not follow
    ("last_trick_claim", 8, "QS", "exhausted", "AH TH KH"),  # void, does not trump
    ("failed_close_after_a_trick", 4, "KH", "closed", "9S"),  # void, does not trump
    ("failed_late_close", 2, "KS", "closed", "AC"),           # trump led, not followed
])
def test_a_revoke_in_strict_play(name, i, card, why, legal):
    rec = fresh(VALID[name])
    rec["tricks"][i]["cards"][1] = card
    first(rec, "follow", f"tricks[{i}]", f"plays {card}", f"the stock is {why}",
          f"legal are {legal}")


def test_the_open_stock_frees_the_follower_and_closing_binds_him():
    rec = fresh(OPEN_TO_THE_END)
    assert rec["tricks"][2]["cards"] == ["JH", "9S"]  # seat 1 holds QH: valid while open
    rec["tricks"][2]["close"] = True
    found = first(rec, "follow", "tricks[2]", "seat 1 plays 9S", "legal are QH")
    assert kind_of(found[1]) == "draw"  # and no draws after closing


# --- the draws ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name, i, draws, needle", [
    ("open_to_the_end", 0, "AC JC", "the winner (seat 0) draws JC"),  # the loser first
    ("open_to_the_end", 1, "AS TS", "draws JS"),                      # a card skipped
    ("open_to_the_end", 0, "", "draws JC"),                           # none when due
    ("open_to_the_end", 5, "9C KD", "its last 9D"),                   # the exchanged 9 is last
    ("open_to_the_end", 6, "9C 9D", "the stock is exhausted"),        # after the last card
    ("close_and_claim", 3, "AH KH", "the stock is closed"),           # after closing
    ("failed_close", 2, "9C QH", "the stock is closed"),
])
def test_wrong_draws(name, i, draws, needle):
    rec = fresh(VALID[name])
    rec["tricks"][i]["draws"] = draws.split()
    only(rec, "draw", f"tricks[{i}]", needle)


# --- the exchange of the trump 9 ----------------------------------------------------------------

def test_an_exchange_before_winning_a_trick():
    rec = fresh(EXCHANGE)
    rec["tricks"][0]["exchange"] = True  # seat 1 holds 9C but has no trick yet
    first(rec, "exchange", "tricks[0]", "has won no trick yet")


def test_an_exchange_with_two_cards_left():
    rec = fresh(OPEN_TO_THE_END)
    rec["tricks"][4]["exchange"] = False
    rec["tricks"][5]["exchange"] = True  # the same swap, one trick late
    only(rec, "exchange", "tricks[5]", "the stock holds 2 card(s), fewer than 3")


def test_an_exchange_without_the_nine():
    rec = fresh(OPEN_TO_THE_END)
    rec["tricks"][1]["exchange"] = True  # seat 0 has won trick 0 but holds no 9D
    only(rec, "exchange", "tricks[1]", "does not hold the trump 9 (9D)")


def test_an_exchange_after_closing():
    rec = fresh(FAILED_CLOSE)
    rec["tricks"][1]["exchange"] = True
    only(rec, "exchange", "tricks[1]", "the stock is closed")


# --- closing ------------------------------------------------------------------------------------

def test_closing_twice():
    rec = fresh(FAILED_CLOSE)
    rec["tricks"][1]["close"] = True
    only(rec, "close", "tricks[1]", "seat 1 closed it already")


def test_closing_an_exhausted_stock():
    rec = fresh(OPEN_TO_THE_END)
    rec["tricks"][6]["close"] = True
    first(rec, "close", "tricks[6]", "it is exhausted")


# --- marriages ----------------------------------------------------------------------------------

def test_a_marriage_not_held():
    rec = fresh(FIRST_LEAD_MARRIAGE)
    rec["tricks"][1]["marriage"] = {"suit": "H", "points": 20}  # seat 0 leads QH without KH
    first(rec, "marriage", "tricks[1]", "does not hold KH")


def test_a_marriage_not_led():
    rec = fresh(CLOSE_AND_CLAIM)
    rec["tricks"][0]["marriage"]["suit"] = "D"  # seat 1 holds KD QD but leads QC
    only(rec, "marriage", "tricks[0]", "leads QC, not the K or Q of D")


@pytest.mark.parametrize("name, i, points, right", [
    ("marriage_claim", 0, 20, 40),   # in trump
    ("close_and_claim", 0, 40, 20),  # not in trump
])
def test_a_marriage_with_wrong_points(name, i, points, right):
    rec = fresh(VALID[name])
    rec["tricks"][i]["marriage"]["points"] = points
    first(rec, "marriage", f"tricks[{i}]", f"worth {right}, not {points}")


@pytest.mark.parametrize("name, points", [
    ("first_lead_marriage", [13, 28]),  # the 40 counts once its announcer has won a trick
    ("first_lead_claim", [0, 40]),      # and not before
    ("close_and_claim", [68, 3]),       # the loser's marriages count: it has won a trick
])
def test_marriages_count_once_a_trick_is_won(name, points):
    rec = fresh(VALID[name])
    rec["points"] = points
    only(rec, "points")


# --- the claim ----------------------------------------------------------------------------------

def test_a_claim_after_a_trick_the_claimant_lost():
    rec = fresh(WRONG_CLAIM)
    rec["claim"]["seat"] = 0
    first(rec, "claim", "seat 0 claims after tricks[3], which seat 1 won")


def test_a_claim_before_any_trick_without_a_marriage():
    rec = fresh(FIRST_LEAD_CLAIM)
    rec["claim"]["marriage"] = None
    first(rec, "claim", "before any trick was finished without announcing a marriage")


def test_a_claim_with_a_marriage_off_lead():
    rec = fresh(MARRIAGE_CLAIM)
    rec["claim"]["seat"] = 1
    first(rec, "claim", "seat 1 claims with a marriage", "seat 0 is on lead")


def test_a_claimed_marriage_not_held():
    rec = fresh(MARRIAGE_CLAIM)
    rec["claim"]["marriage"]["suit"] = "S"  # seat 0 holds KS, not QS
    only(rec, "marriage", "claim", "does not hold QS")


def test_the_claims_exchange_is_replayed():
    rec = fresh(EXCHANGE_MARRIAGE_CLAIM)
    rec["claim"]["exchange"] = False  # then seat 1 has no QC for the marriage
    only(rec, "marriage", "claim", "does not hold QC")


def test_a_claim_without_a_marriage_has_no_flags():
    rec = fresh(EXCHANGE)
    rec["claim"]["close"] = True
    only(rec, "claim", "close true")


def test_a_claim_is_scored_as_a_claim_whoever_closed():
    """Seat 1 closed; seat 0 claims wrongly after trick 1 (13): seat 1 scores 2 for the wrong
    claim, not 3 for a failed close."""
    rec = fresh(FAILED_CLOSE)
    del rec["tricks"][2:]
    rec.update(claim=claim(0, 1), points=[13, 12], tricks_won=[1, 1],
               result={"seat": 1, "game_points": 2, "reason": "wrong_claim"})
    assert replay(rec) == []
    rec["result"] = {"seat": 0, "game_points": 3, "reason": "failed_close"}
    only(rec, "result", "seat 0 claims with 13")


def test_the_claims_turn_may_close_but_not_exchange_without_a_trick():
    rec = fresh(FIRST_LEAD_CLAIM)
    rec["claim"]["close"] = True  # legal: the stock is open and full
    assert replay(rec) == []
    rec["claim"]["exchange"] = True
    only(rec, "exchange", "claim", "has won no trick yet")


def test_a_trick_after_the_claim():
    rec = fresh(EXCHANGE)
    rec["claim"]["after"] = 0  # seat 1 won trick 0, but trick 1 follows
    only(rec, "after_claim", "1 trick(s) after the claim")
    rec = fresh(MARRIAGE_CLAIM)
    rec["tricks"].append(trick(0, "KC JS", 0, "TD QS"))
    only(rec, "after_claim")


def test_a_claim_after_a_trick_not_played():
    rec = fresh(EXCHANGE)
    rec["claim"]["after"] = 2
    only(rec, "format", "claim.after is 2")


# --- the end of the deal ------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["open_to_the_end", "failed_close"])
def test_a_deal_that_stops_early(name):
    rec = fresh(VALID[name])
    rec["tricks"].pop()
    only(rec, "unfinished", "2 card(s) are still in hand")


@pytest.mark.parametrize("name, extra", [
    ("open_to_the_end", trick(1, "AS KS", 1)),
    ("failed_close", trick(0, "9C QH", 0)),  # cards of the stock left undrawn
])
def test_a_trick_after_every_card_was_played(name, extra):
    rec = fresh(VALID[name])
    rec["tricks"].append(extra)
    only(rec, "after_end", f"tricks[{len(rec['tricks']) - 1}]")


# --- points, tricks and the result --------------------------------------------------------------

@pytest.mark.parametrize("name, points", [
    ("open_to_the_end", [66, 64]),
    ("open_to_the_end", [65, 55]),     # the last trick's 10 missing
    ("failed_close", [49, 40]),        # the 10 given though the stock was closed
    ("last_trick_claim", [57, 63]),    # a claim after the last trick counts its 10
])
def test_wrong_points(name, points):
    rec = fresh(VALID[name])
    rec["points"] = points
    only(rec, "points", f"points are {points}")


def test_wrong_tricks_won():
    rec = fresh(OPEN_TO_THE_END)
    rec["tricks_won"] = [7, 5]
    only(rec, "tricks_won", "tricks_won are [7, 5]", "[6, 6]")


@pytest.mark.parametrize("name, result, needle", [
    ("open_to_the_end", (0, 1, "last_trick"), "seat 1 won the last"),
    ("open_to_the_end", (1, 1, "claim"), "nobody claimed"),
    ("first_lead_marriage", (1, 1, "claim"), "seat 0 has 13 (under 33)"),
    ("exchange", (1, 2, "claim"), "seat 0 has won no trick"),
    ("close_and_claim", (0, 2, "claim"), "seat 1 has 43"),
    ("close_and_claim", (1, 2, "failed_close"), "seat 0 claims with 68"),
    ("failed_close", (0, 2, "failed_close"), "seat 0 had won 0 trick(s) when it was closed"),
    ("failed_close", (1, 1, "last_trick"), "seat 1 closed and nobody claimed"),
    ("wrong_claim", (1, 1, "claim"), "seat 1 claims with 37 (under 66)"),
    ("wrong_claim", (0, 3, "wrong_claim"), "has won 4 trick(s)"),
    ("first_lead_claim", (1, 2, "wrong_claim"), "has won 0 trick(s)"),
    ("last_trick_claim", (1, 1, "last_trick"), "seat 1 claims with 73"),
    ("failed_close_after_a_trick", (1, 2, "failed_close"), "seat 1 had won 0 trick(s)"),
    ("failed_late_close", (0, 3, "failed_close"), "seat 0 had won 1 trick(s)"),
    ("exactly_66", (1, 2, "claim"), "seat 0 has 33"),
    ("exactly_66", (0, 2, "wrong_claim"), "seat 1 claims with 66"),
])
def test_a_wrong_result(name, result, needle):
    rec = fresh(VALID[name])
    rec["result"] = {"seat": result[0], "game_points": result[1], "reason": result[2]}
    only(rec, "result", needle)


# --- many records -------------------------------------------------------------------------------

def test_check_many_counts_by_kind():
    assert check_many(fresh(r) for r in VALID.values()) == {}
    bad_trump = fresh(OPEN_TO_THE_END)
    bad_trump["trump"] = "S"
    bad_points = fresh(FAILED_CLOSE)
    bad_points["points"] = [0, 0]
    bad_points["tricks_won"] = [0, 0]
    revoke = fresh(FAILED_CLOSE)
    revoke["tricks"][3]["cards"][1] = "JC"
    counts = check_many([bad_trump, bad_points, revoke, fresh(EXCHANGE), "junk"])
    assert counts["trump"] == 1 and counts["points"] == 1 and counts["tricks_won"] == 1
    assert counts["follow"] == 1 and counts["format"] == 1
    assert set(counts) <= set(KINDS)


def test_check_many_wants_the_dealer_to_alternate():
    one, two = fresh(EXCHANGE), fresh(WRONG_CLAIM)  # both dealt by seat 0
    one["deal"], two["deal"] = 20, 21
    assert check_many([one, two]) == {"dealer": 1}
    assert dealer_violations([one, two]) == \
        ["dealer: deal 21: dealer is seat 0, as in deal 20 (dealers alternate)"]
    two["deal"] = 22  # not consecutive: nothing to compare
    assert check_many([one, two]) == {}
    three = fresh(MARRIAGE_CLAIM)  # dealt by seat 1
    three["deal"] = 21
    assert check_many([one, three]) == {}
