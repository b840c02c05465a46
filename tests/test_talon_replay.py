"""Tests of the talon-game replay checker (tests/talon_replay.py) on hand-made records.

The engine is written elsewhere, so the records here come from a tiny deterministic player in this
file (seeded random or scripted choices; its own must-head rule, trick winner and copy bookkeeping,
written separately from the checker's). Valid records must pass; every mutation must raise an
AssertionError naming the problem.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections import Counter

import pytest

from binokel_sim.cards import format_card, parse_card
from binokel_sim.variants import find_variant
from talon_replay import replay_talon

TWO = find_variant("two-hand-48")
THREE = find_variant("three-hand-72")
FOUR = find_variant("four-hand-72")


def card(name: str) -> int:
    return parse_card(name)


def cards(text: str) -> list[int]:
    return [parse_card(tok) for tok in text.split()]


def hand_sorted(types) -> list[int]:
    return sorted(types, key=lambda t: (t // 6, -(t % 6)))


def names(types) -> list[str]:
    return [format_card(t) for t in types]


# --- a tiny player ------------------------------------------------------------------------------

def must_head(held: list[int], played: list[int], trump: int) -> list[int]:
    """SPEC's must-head obligation, phrased with 'bars' (a second formulation, kept apart from
    the checker's)."""
    if not played:
        return held
    led = played[0] // 6
    follow = [t for t in held if t // 6 == led]
    trumps_played = [t % 6 for t in played if t // 6 == trump]
    if follow:
        if led != trump and trumps_played:
            return follow
        bar = max(t % 6 for t in played if t // 6 == led)
        return [t for t in follow if t % 6 > bar] or follow
    mine = [t for t in held if t // 6 == trump]
    if not mine:
        return held
    bar = max(trumps_played, default=-1)
    return [t for t in mine if t % 6 > bar] or mine


def winner_pos(played: list[int], trump: int) -> int:
    best = 0
    for k in range(1, len(played)):
        a, b = played[k], played[best]
        if (a // 6 == b // 6 and a % 6 > b % 6) or (a // 6 == trump and b // 6 != trump):
            best = k
    return best


def one_sets(meld, trump):
    """(suit, card types of one set) for every suit the meld's scope allows."""
    if meld.scope == "around":
        return [(None, [s * 6 + r for r in meld.ranks for s in range(4)])]
    if meld.scope == "cards":
        return [(None, [t for t in range(24) if meld.type_mask >> t & 1])]
    suits = {"trump": [trump], "non_trump": [s for s in range(4) if s != trump],
             "per_suit": [0, 1, 2, 3]}[meld.scope]
    return [(s, [s * 6 + r for r in meld.ranks]) for s in suits]


class Table:
    """Hands as lists of copies ``[type, served levels per meld]``, the talon, the copy rule."""

    def __init__(self, rules, hands, talon):
        self.rules = rules
        self.nm = len(rules.melds)
        self.hands = [[[t, [0] * self.nm] for t in h] for h in hands]
        self.talon = list(talon)
        self.pos = 0
        self.trump = talon[-1] // 6

    @staticmethod
    def packed(copy_):
        return sum(level << 2 * m for m, level in enumerate(copy_[1]))

    def copies(self, seat, t):
        return sorted((c for c in self.hands[seat] if c[0] == t), key=self.packed, reverse=True)

    def held(self, seat):
        return sorted({c[0] for c in self.hands[seat]})

    def remove_first(self, seat, t):
        first = self.copies(seat, t)[0]
        self.hands[seat].remove(first)

    def give(self, seat, t):
        self.hands[seat].append([t, [0] * self.nm])

    def may_serve(self, m, level, copy_):
        meld = self.rules.melds[m]
        names = [x.name for x in self.rules.melds]
        if any(copy_[1][names.index(parent)] > 0 for parent in meld.inside):
            return False  # it served a meld this one lies inside (a quint's K+Q: no marriage)
        return copy_[1][m] == 0 if meld.per_set else copy_[1][m] < level

    def options(self, seat):
        """Legal declarations (meld index, suit, level, swap) in the documented order."""
        out = []
        for m, meld in enumerate(self.rules.melds):
            top = self.rules.copies if meld.per_set else meld.counted_sets
            for suit, types in one_sets(meld, self.trump):
                for level in range(1, top + 1):
                    if all(sum(self.may_serve(m, level, c) for c in self.copies(seat, t)) >= level
                           for t in types):
                        out.append((m, suit, level, False))
                        if meld.name == self.rules.swap_meld and self.talon[-1] != types[0]:
                            out.append((m, suit, level, True))
        return out

    def declare(self, seat, option):
        """Apply a declaration; a forced illegal one marks whatever copies there are."""
        m, suit, level, swap = option
        meld = self.rules.melds[m]
        sets = dict(one_sets(meld, self.trump))
        types = sets.get(suit) or [suit * 6 + r for r in meld.ranks]  # a suit the scope forbids
        for t in types:
            cs = self.copies(seat, t)
            ok = [c for c in cs if self.may_serve(m, level, c)]
            rest = [c for c in cs if not any(c is o for o in ok)]
            for c in (ok + rest)[:level]:
                c[1][m] = level
        if swap:
            nine = types[0]
            self.remove_first(seat, nine)
            self.give(seat, self.talon[-1])
            self.talon[-1] = nine
        points = level * meld.per_set if meld.per_set else meld.points[level]
        return {"meld": meld.name, "level": level, "cards": names(hand_sorted(types * level)),
                "points": points, "swap": swap}


def play_deal(rules, hands, talon, dealer=0, deal=0, seed=0, pick_card=None, pick_decl=None,
              declare_rate=0.8):
    """Play one deal; returns (record, trace). ``pick_card(i, seat, legal, played, table)`` and
    ``pick_decl(i, seat, options, table)`` override the seeded random choices (``pick_decl`` may
    return an option that is not legal: it is recorded as is)."""
    rng = random.Random(seed)
    P, H = rules.players, rules.hand_size
    table = Table(rules, hands, talon)
    trump = table.trump
    n1 = rules.talon // P
    tricks, trace = [], []
    won, melds = [0] * P, [0] * P
    leader = (dealer + 1) % P
    for i in range(n1 + H):
        phase1 = i < n1
        played, held_at, legal_at = [], [], []
        for k in range(P):
            seat = (leader + k) % P
            held = table.held(seat)
            strict = not phase1 or rules.strict == "always"
            legal = must_head(held, played, trump) if strict else held
            t = pick_card(i, seat, legal, played, table) if pick_card else None
            if t is None:
                t = rng.choice(legal)
            held_at.append(held)
            legal_at.append(legal)
            table.remove_first(seat, t)
            played.append(t)
        winner = (leader + winner_pos(played, trump)) % P
        won[winner] += sum(rules.rank_points[t % 6] for t in played)
        after = table.held(winner)
        decl, draws = None, []
        if phase1:
            opts = table.options(winner)
            choice = pick_decl(i, winner, opts, table) if pick_decl else None
            if pick_decl is None and opts and rng.random() < declare_rate:
                choice = rng.choice(opts)
            if choice is not None:
                decl = table.declare(winner, choice)
                melds[winner] += decl["points"]
            for k in range(P):
                t = table.talon[table.pos]
                table.pos += 1
                table.give((winner + k) % P, t)
                draws.append(t)
        tricks.append({"leader": leader, "cards": names(played), "winner": winner,
                       "declaration": decl, "draws": names(draws)})
        trace.append({"held": held_at, "legal": legal_at, "after": after})
        leader = winner
    won[leader] += rules.last_trick
    dix = talon[-1] % 6 == rules.turned_bonus_rank
    if dix:
        melds[dealer] += rules.turned_bonus
    record = {"deal": deal, "variant": rules.name, "dealer": dealer,
              "hands": [names(hand_sorted(h)) for h in hands], "talon": names(talon),
              "trump": "SHDC"[trump], "turned_dix": dix, "tricks": tricks, "card_points": won,
              "meld_points": melds, "scores": [w + m for w, m in zip(won, melds)]}
    if rules.partnerships:
        record["pair_scores"] = [sum(record["scores"][s] for s in team)
                                 for team in rules.partnerships]
    return record, trace


def deck_of(rules) -> list[int]:
    return [t for t in range(24) if t % 6 in rules.ranks for _ in range(rules.copies)]


def shuffled(rules, seed):
    deck = deck_of(rules)
    random.Random(1000 + seed).shuffle(deck)
    P, H = rules.players, rules.hand_size
    return [deck[s * H:(s + 1) * H] for s in range(P)], deck[P * H:]


def stacked(rules, hand_texts, turned, seed=0, talon_head=""):
    """Hands given (a missing/short hand is filled from the rest), the turned card fixed."""
    rest = Counter(deck_of(rules))
    given = [cards(h) for h in hand_texts] + [[] for _ in range(rules.players - len(hand_texts))]
    head = cards(talon_head)
    for t in [c for h in given for c in h] + head + [card(turned)]:
        rest[t] -= 1
        assert rest[t] >= 0, format_card(t)
    pool = [t for t in range(24) for _ in range(rest[t])]
    random.Random(seed).shuffle(pool)
    hands = []
    for h in given:
        need = rules.hand_size - len(h)
        hands.append(h + pool[:need])
        pool = pool[need:]
    return hands, head + pool + [card(turned)]


def random_record(rules, seed, dealer=None, **kw):
    hands, talon = shuffled(rules, seed)
    return play_deal(rules, hands, talon, dealer=seed % rules.players if dealer is None else dealer,
                     deal=seed, seed=seed, **kw)


def rejects(rules, record, *needles):
    with pytest.raises(AssertionError) as exc:
        replay_talon(rules, record)
    msg = str(exc.value)
    for needle in needles:
        assert needle in msg, msg
    assert msg.startswith(f"deal {record['deal']}"), msg
    return msg


# --- scripted players for the declaration scenarios ---------------------------------------------

def strong(keep=()):
    """Seat 1 leads/plays its highest trump, else its highest card, keeping the ``keep`` cards
    while it can; the other seats play their lowest non-trump (lowest card if none)."""
    keep = set(cards(" ".join(keep))) if keep else set()

    def pick(i, seat, legal, played, table):
        trump = table.trump
        if seat == 1:
            pool = [t for t in legal if t not in keep] or legal
            trumps = [t for t in pool if t // 6 == trump]
            return max(trumps or pool, key=lambda t: (t % 6, -t))
        pool = [t for t in legal if t // 6 != trump] or legal
        return min(pool, key=lambda t: (t % 6, t))
    return pick


def script(rules, plan):
    """Declarations by trick: {i: (meld name, suit letter or None, level, swap)}."""
    index = {m.name: k for k, m in enumerate(rules.melds)}

    def pick(i, seat, options, table):
        if i not in plan:
            return None
        name, suit, level, swap = plan[i]
        assert seat == 1, f"scenario: trick {i} won by seat {seat}"
        return (index[name], None if suit is None else "SHDC".index(suit), level, swap)
    return pick


def scenario(rules, hand1, turned, plan, keep=(), hand0="", seed=0, talon_head="",
             pick_card=None):
    """Dealer 0; seat 1 (who leads) holds ``hand1`` and wins the early tricks."""
    hands, talon = stacked(rules, [hand0, hand1], turned, seed=seed, talon_head=talon_head)
    return play_deal(rules, hands, talon, dealer=0, pick_card=pick_card or strong(keep),
                     pick_decl=script(rules, plan))[0]


def decls(record):
    return [(i, t["declaration"]) for i, t in enumerate(record["tricks"]) if t["declaration"]]


# --- valid records ------------------------------------------------------------------------------

@pytest.mark.parametrize("rules,seeds", [(TWO, 40), (THREE, 15), (FOUR, 15)],
                         ids=["two-hand-48", "three-hand-72", "four-hand-72"])
def test_random_records_are_accepted(rules, seeds):
    seen = Counter()
    for seed in range(seeds):
        record, _ = random_record(rules, seed)
        replay_talon(rules, record)
        seen["dix turned"] += record["turned_dix"]
        for _, d in decls(record):
            seen["declaration"] += 1
            seen["swap"] += d["swap"]
            seen["level 2"] += d["level"] >= 2
    assert seen["declaration"] >= seeds, seen
    if rules is TWO:
        assert seen["swap"] and seen["dix turned"], seen


def test_strict_phase1_records_are_accepted_and_free_play_is_not():
    strict = dataclasses.replace(TWO, strict="always")
    for seed in range(10):
        record, _ = random_record(strict, seed)
        replay_talon(strict, record)
    record, _ = random_record(TWO, 3)
    replay_talon(TWO, record)
    msg = rejects(strict, record, "must-head", "phase 1")
    assert "trick" in msg


def test_record_fields_of_a_valid_record():
    record, _ = random_record(TWO, 5)
    assert list(record)[:3] == ["deal", "variant", "dealer"]
    assert sum(record["card_points"]) == 250
    record, _ = random_record(THREE, 5)
    assert sum(record["card_points"]) == 370
    record, _ = random_record(FOUR, 5)
    assert sum(record["card_points"]) == 370 and len(record["pair_scores"]) == 2


# --- declaration scenarios ----------------------------------------------------------------------

B1, B2 = ("binokel", None, 1, False), ("binokel", None, 2, False)
QJ = ("QS", "JD")


def test_binokel_then_double_binokel_is_an_upgrade():
    rec = scenario(TWO, "QS QS JD JD AH AH TH TH AC AC TC TC", "KH", {0: B1, 1: B2}, keep=QJ)
    replay_talon(TWO, rec)
    assert [(d["meld"], d["level"], d["points"]) for _, d in decls(rec)] == \
        [("binokel", 1, 40), ("binokel", 2, 500)]
    assert decls(rec)[1][1]["cards"] == ["QS", "QS", "JD", "JD"]


def test_two_binokels_with_different_copies_then_the_double():
    rec = scenario(TWO, "QS QS JD JD AH AH TH TH AC AC TC TC", "KH", {0: B1, 1: B1, 2: B2},
                   keep=QJ)
    replay_talon(TWO, rec)
    assert [d["points"] for _, d in decls(rec)] == [40, 40, 500]
    # a third single binokel: every copy has served binokel
    rec = scenario(TWO, "QS QS JD JD AH AH TH TH AC AC TC TC", "KH", {0: B1, 1: B1, 2: B1},
                   keep=QJ)
    rejects(TWO, rec, "tricks[2]", "binokel", "may serve", "QS")


def test_a_lower_level_after_a_higher_one_with_the_same_cards_is_rejected():
    rec = scenario(TWO, "QS QS JD JD AH AH TH TH AC AC TC TC", "KH", {0: B2, 1: B1}, keep=QJ)
    msg = rejects(TWO, rec, "tricks[1]", "binokel at level 1", "may serve")
    assert "served levels [2, 2]" in msg


def test_a_second_binokel_with_the_same_cards_is_rejected():
    rec = scenario(TWO, "QS JD AH AH TH TH AC AC TC TC KC KC", "KH", {0: B1, 1: B1}, keep=QJ,
                   hand0="QS JD")
    rejects(TWO, rec, "tricks[1]", "binokel", "may serve", "never serves two melds of the same kind")


def test_the_copy_played_is_the_first_in_served_order():
    """Binokel with QS+JD, then the JD played is the copy that served it, so the fresh QS and JD
    make a second binokel."""
    def pick(i, seat, legal, played, table):
        if seat == 1 and i == 1:
            return card("JD")
        return strong(QJ)(i, seat, legal, played, table)
    rec = scenario(TWO, "QS QS JD JD AH AH TH TH AC AC TC TC", "KH", {0: B1, 1: B1},
                   pick_card=pick)
    assert rec["tricks"][1]["cards"][0] == "JD" and rec["tricks"][1]["winner"] == 1
    replay_talon(TWO, rec)
    # ...but no double binokel afterwards: one JD left
    rec = scenario(TWO, "QS QS JD JD AH AH TH TH AC AC TC TC", "KH", {0: B1, 1: B1, 2: B2},
                   pick_card=pick)
    rejects(TWO, rec, "tricks[2]", "binokel at level 2", "holds 1")


def test_a_marriage_may_serve_a_quint_but_not_two_quints():
    hand = "AC TC KC QC JC AH AH TH TH AS AS TS"
    rec = scenario(TWO, hand, "KH", {0: ("marriage", "C", 1, False), 1: ("quint", "C", 1, False)},
                   keep=("KC", "QC", "AC", "TC", "JC"))
    replay_talon(TWO, rec)
    assert [d["points"] for _, d in decls(rec)] == [20, 250]
    assert decls(rec)[1][1]["cards"] == ["AC", "TC", "KC", "QC", "JC"]
    rec = scenario(TWO, hand, "KH", {0: ("quint", "C", 1, False), 1: ("quint", "C", 1, False)},
                   keep=("KC", "QC", "AC", "TC", "JC"))
    rejects(TWO, rec, "tricks[1]", "quint", "may serve")
    rec = scenario(TWO, hand, "KH", {0: ("marriage", "C", 1, False),
                                     1: ("marriage", "C", 1, False)}, keep=("KC", "QC"))
    rejects(TWO, rec, "tricks[1]", "marriage", "never served it")


def test_no_marriage_from_the_king_and_queen_of_a_declared_quint():
    """SPEC "Variant two-hand-48": a meld inside one already declared is no new combination.
    Hand-built bad records: a marriage (or trump marriage) after the quint from its K+Q is
    refused; the other copies of K and Q still marry."""
    keep = ("KC", "QC", "AC", "TC", "JC")
    hand = "AC TC KC QC JC AH AH TH TH AS AS TS"
    plan = {0: ("quint", "C", 1, False), 1: ("marriage", "C", 1, False)}
    rec = scenario(TWO, hand, "KH", plan, keep=keep, hand0="KC QC")  # seat 0 holds the others
    assert [d["meld"] for _, d in decls(rec)] == ["quint", "marriage"]
    rejects(TWO, rec, "tricks[1]", "marriage lies inside quint", "KC",
            "served quint levels [1]")
    # in trump: the trump marriage from the quint's KH+QH
    hand = "AH TH KH QH JH AS AS TS TS AC AC TC"
    rec = scenario(TWO, hand, "KH", {0: ("quint", "H", 1, False),
                                     1: ("trump_marriage", "H", 1, False)},
                   keep=("KH", "QH", "AH", "TH", "JH"), hand0="QH")
    rejects(TWO, rec, "tricks[1]", "trump_marriage lies inside quint")
    # two copies: the quint takes one K+Q, the other K+Q marries once, then no more
    hand = "AC TC KC KC QC QC JC AH AH TH TH AS"
    keep = ("KC", "QC", "AC", "TC", "JC")
    rec = scenario(TWO, hand, "KH", {0: ("quint", "C", 1, False),
                                     1: ("marriage", "C", 1, False)}, keep=keep)
    replay_talon(TWO, rec)
    rec = scenario(TWO, hand, "KH", {0: ("quint", "C", 1, False),
                                     1: ("marriage", "C", 2, False)}, keep=keep)
    rejects(TWO, rec, "tricks[1]", "marriage at level 2", "only 1 of its 2 x KC may serve",
            "lies inside quint")
    rec = scenario(TWO, hand, "KH", {0: ("quint", "C", 1, False), 1: ("marriage", "C", 1, False),
                                     2: ("marriage", "C", 1, False)}, keep=keep)
    rejects(TWO, rec, "tricks[2]", "marriage")
    # marriage first, then the quint (its full 250), then the other K+Q marry: all allowed
    rec = scenario(TWO, hand, "KH", {0: ("marriage", "C", 1, False), 1: ("quint", "C", 1, False),
                                     2: ("marriage", "C", 1, False)}, keep=keep)
    replay_talon(TWO, rec)
    assert [d["points"] for _, d in decls(rec)] == [20, 250, 20]
    # three copies (72 cards): after the quint, two K+Q are left to marry
    hand = "AC TC KC KC KC QC QC QC JC AH AH TH"
    rec = scenario(THREE, hand, "KH", {0: ("quint", "C", 1, False),
                                       1: ("marriage", "C", 2, False)}, keep=keep)
    replay_talon(THREE, rec)
    rec = scenario(THREE, hand, "KH", {0: ("quint", "C", 1, False),
                                       1: ("marriage", "C", 3, False)}, keep=keep)
    rejects(THREE, rec, "tricks[1]", "marriage at level 3", "lies inside quint")


def test_the_inside_rule_reads_the_rules_data():
    """Generic, from each meld's ``inside`` list, not from the names: with binokel listed as a
    parent of jacks around, a JD that served a binokel makes no jacks around; without it, it
    does."""
    melds = tuple(dataclasses.replace(m, inside=("binokel",)) if m.name == "jacks_around" else m
                  for m in TWO.melds)
    house = dataclasses.replace(TWO, name="house", melds=melds)
    hand = "QS JS JH JD JC AH AH TH TH AS AS TS"
    plan = {0: ("binokel", None, 1, False), 1: ("jacks_around", None, 1, False)}
    keep = ("QS", "JS", "JH", "JD", "JC")
    rec = scenario(house, hand, "KH", plan, keep=keep, hand0="JD")
    rejects(house, rec, "tricks[1]", "jacks_around lies inside binokel", "JD")
    rec = scenario(TWO, hand, "KH", plan, keep=keep, hand0="JD")
    replay_talon(TWO, rec)


def test_per_copy_melds_declare_several_sets_at_once():
    hand = "KC KC QC QC AH AH TH TH 9H 9H AS AS"
    rec = scenario(TWO, hand, "KH", {0: ("marriage", "C", 2, False), 1: ("dix", "H", 2, False)},
                   keep=("KC", "QC", "9H"))
    replay_talon(TWO, rec)
    assert [(d["level"], d["points"]) for _, d in decls(rec)] == [(2, 40), (2, 20)]
    assert decls(rec)[0][1]["cards"] == ["KC", "KC", "QC", "QC"]
    # a trump marriage is in trump only, a marriage in a non-trump suit only
    rec = scenario(TWO, "KH QH AH AH TH TH AS AS TS TS AC AC", "9H",
                   {0: ("marriage", "H", 1, False)}, keep=("KH", "QH"))
    rejects(TWO, rec, "tricks[0]", "are not 1 set(s) of marriage in one non-trump suit")
    rec = scenario(TWO, "KC QC AH AH TH TH AS AS TS TS AC AC", "9H",
                   {0: ("trump_marriage", "C", 1, False)}, keep=("KC", "QC"))
    rejects(TWO, rec, "tricks[0]", "not 1 set(s) of trump_marriage in trump H")


def test_levels_past_the_table_are_rejected():
    rec = scenario(TWO, "AC AC TC TC KC KC QC QC JC JC AH AH", "KH",
                   {0: ("quint", "C", 2, False)}, keep=("KC", "QC", "AC", "TC", "JC"))
    rejects(TWO, rec, "tricks[0]", "quint at level 2", "declarable levels are 1..1")
    rec = scenario(THREE, "JS JH JD JC JS JH JD JC JS JH JD JC", "KH",
                   {0: ("jacks_around", None, 3, False)}, keep=("JS", "JH", "JD", "JC"))
    rejects(THREE, rec, "tricks[0]", "jacks_around at level 3", "declarable levels are 1..2")


def test_triple_binokel_in_the_72_card_games():
    hand = "QS QS QS JD JD JD AH AH AH TH TH TH"
    rec = scenario(THREE, hand, "KH", {0: B1, 1: B2, 2: ("binokel", None, 3, False)}, keep=QJ)
    replay_talon(THREE, rec)
    assert [d["points"] for _, d in decls(rec)] == [40, 500, 1500]
    rec = scenario(FOUR, hand, "KH", {0: ("binokel", None, 3, False)}, keep=QJ)
    replay_talon(FOUR, rec)
    assert decls(rec)[0][1]["points"] == 1500
    # after the triple, the same cards make no double
    rec = scenario(THREE, hand, "KH", {0: ("binokel", None, 3, False), 1: B2}, keep=QJ)
    rejects(THREE, rec, "tricks[1]", "binokel at level 2", "may serve")


def test_dix_swap():
    hand = "9H AH AH TH TH AS AS TS TS AC AC TC"
    rec = scenario(TWO, hand, "KH", {0: ("dix", "H", 1, True)}, keep=("9H",))
    replay_talon(TWO, rec)
    assert rec["tricks"][11]["draws"][-1] == "9H" and rec["talon"][-1] == "KH"
    assert rec["meld_points"] == [0, 10]
    # the swap moved KH to seat 1: a swap with the talon's last card a 9 is refused
    hand = "9H 9H AH AH TH TH AS AS TS TS AC AC"
    rec = scenario(TWO, hand, "KH", {0: ("dix", "H", 1, True), 1: ("dix", "H", 1, True)},
                   keep=("9H",))
    rejects(TWO, rec, "tricks[1]", "swap while the talon's last card is 9H")
    rec = scenario(TWO, hand, "KH", {0: ("dix", "H", 1, True), 1: ("dix", "H", 1, False)},
                   keep=("9H",))
    replay_talon(TWO, rec)


def test_swap_when_the_turned_card_is_the_dix():
    hand = "9H AH AH TH TH AS AS TS TS AC AC TC"
    rec = scenario(TWO, hand, "9H", {0: ("dix", "H", 1, False)}, keep=("9H",))
    replay_talon(TWO, rec)
    assert rec["turned_dix"] and rec["meld_points"] == [10, 10]  # dealer 0's bonus + seat 1's dix
    rec = scenario(TWO, hand, "9H", {0: ("dix", "H", 1, True)}, keep=("9H",))
    rejects(TWO, rec, "tricks[0]", "swap while the talon's last card is 9H")


def test_swap_with_another_meld_is_rejected():
    rec = scenario(TWO, "KC QC AH AH TH TH AS AS TS TS AC AC", "KH",
                   {0: ("marriage", "C", 1, True)}, keep=("KC", "QC"))
    rejects(TWO, rec, "tricks[0]", "swap with a declaration of marriage")


def test_swapped_nine_is_drawn_last_and_a_wrong_last_draw_is_caught():
    hand = "9H AH AH TH TH AS AS TS TS AC AC TC"
    rec = scenario(TWO, hand, "KH", {0: ("dix", "H", 1, True)}, keep=("9H",))
    bad = copy.deepcopy(rec)
    bad["tricks"][11]["draws"][-1] = "KH"  # as if the swap had not happened
    rejects(TWO, bad, "tricks[11]", "draws KH", "next card is 9H", "last talon card")


# --- mutations of a random record ---------------------------------------------------------------

@pytest.fixture(scope="module")
def base():
    for seed in range(100):
        record, trace = random_record(TWO, seed, dealer=0)
        if decls(record) and not record["turned_dix"]:
            replay_talon(TWO, record)
            return record, trace
    raise AssertionError("no record with a declaration")


def mutated(base):
    return copy.deepcopy(base[0]), base[1]


def test_a_card_not_held(base):
    rec, trace = mutated(base)
    i, k = 4, 1
    held = trace[i]["held"][k]
    other = next(t for t in range(24) if t not in held)
    rec["tricks"][i]["cards"][k] = format_card(other)
    seat = (rec["tricks"][i]["leader"] + k) % 2
    rejects(TWO, rec, "tricks[4]", f"seat {seat} plays {format_card(other)}",
            "does not hold")


def test_an_illegal_phase2_card(base):
    rec, trace = mutated(base)
    for i in range(12, 24):
        for k in range(2):
            illegal = [t for t in trace[i]["held"][k] if t not in trace[i]["legal"][k]]
            if illegal:
                rec["tricks"][i]["cards"][k] = format_card(illegal[0])
                rejects(TWO, rec, f"tricks[{i}]", "phase 2", "must-head")
                return
    raise AssertionError("no phase-2 choice in the base record")


def test_a_wrong_winner(base):
    rec, _ = mutated(base)
    t = rec["tricks"][7]
    t["winner"] = 1 - t["winner"]
    rejects(TWO, rec, "tricks[7]", "winner is seat")
    rec, _ = mutated(base)
    t = rec["tricks"][20]
    t["winner"] = 1 - t["winner"]
    rejects(TWO, rec, "tricks[20]", "winner is seat")


def test_a_wrong_leader_and_first_leader(base):
    rec, _ = mutated(base)
    rec["tricks"][3]["leader"] = 1 - rec["tricks"][3]["leader"]
    rejects(TWO, rec, "tricks[3]", "previous trick's winner")
    rec, _ = mutated(base)
    rec["dealer"] = 1
    rejects(TWO, rec, "tricks[0]", "dealer + 1")


def test_a_wrong_draw(base):
    rec, _ = mutated(base)
    i = next(i for i in range(12) if len(set(rec["tricks"][i]["draws"])) == 2)
    rec["tricks"][i]["draws"].reverse()
    rejects(TWO, rec, f"tricks[{i}]", "draws", "talon's next card")
    rec, _ = mutated(base)
    rec["tricks"][13]["draws"] = ["AS"]
    rejects(TWO, rec, "tricks[13]", "in phase 2")
    rec, _ = mutated(base)
    rec["tricks"][2]["draws"] = rec["tricks"][2]["draws"][:1]
    rejects(TWO, rec, "tricks[2]", "1 cards drawn")


def test_a_declaration_of_cards_not_held(base):
    rec, trace = mutated(base)
    i = next(i for i in range(12) if card("QS") not in trace[i]["after"]
             and rec["tricks"][i]["declaration"] is None)
    rec["tricks"][i]["declaration"] = {"meld": "binokel", "level": 1, "cards": ["QS", "JD"],
                                       "points": 40, "swap": False}
    rejects(TWO, rec, f"tricks[{i}]", "declares binokel", "QS, but holds 0")


def test_wrong_declaration_points_level_and_cards(base):
    i, d = decls(base[0])[0]
    rec, _ = mutated(base)
    rec["tricks"][i]["declaration"]["points"] += 10
    rejects(TWO, rec, f"tricks[{i}]", f"{d['meld']} at level {d['level']} scores {d['points']}")
    rec, _ = mutated(base)
    rec["tricks"][i]["declaration"]["level"] = d["level"] + 1
    rejects(TWO, rec, f"tricks[{i}]")
    rec, _ = mutated(base)
    rec["tricks"][i]["declaration"]["cards"] = d["cards"][:-1]
    rejects(TWO, rec, f"tricks[{i}]", "are not", f"set(s) of {d['meld']}")
    rec, _ = mutated(base)
    rec["tricks"][i]["declaration"]["meld"] = "royal_flush"
    rejects(TWO, rec, f"tricks[{i}]", "unknown meld 'royal_flush'")
    rec, _ = mutated(base)
    del rec["tricks"][i]["declaration"]["swap"]
    rejects(TWO, rec, f"tricks[{i}]", "lacks the key(s) swap")


def test_a_declaration_in_phase2(base):
    i, d = decls(base[0])[0]
    rec, _ = mutated(base)
    rec["tricks"][15]["declaration"] = dict(d)
    rejects(TWO, rec, "tricks[15]", "phase 2", "declaration in phase 2")


def test_wrong_totals(base):
    rec, _ = mutated(base)
    rec["card_points"][0] += 1
    rejects(TWO, rec, "card_points are")
    rec, _ = mutated(base)
    rec["card_points"] = rec["card_points"][::-1]
    if rec["card_points"] != base[0]["card_points"]:
        rejects(TWO, rec, "card_points are")
    rec, _ = mutated(base)
    rec["meld_points"][1] += 20
    rejects(TWO, rec, "meld_points are")
    rec, _ = mutated(base)
    rec["scores"][0] -= 1
    rejects(TWO, rec, "scores are")


def test_the_deal_itself(base):
    rec, _ = mutated(base)
    rec["hands"][0][0], rec["talon"][0] = rec["talon"][0], rec["hands"][0][0]
    if rec["hands"][0] != base[0]["hands"][0]:
        rejects(TWO, rec)  # an unsorted hand or a trick the seat cannot play
    rec, _ = mutated(base)
    rec["talon"].append(rec["hands"][0].pop())
    rejects(TWO, rec, "hands[0] has 11 cards")
    rec, _ = mutated(base)
    rec["hands"][1][-1] = "AS" if rec["hands"][1][-1] != "AS" else "KS"
    rec["hands"][1] = names(hand_sorted(cards(" ".join(rec["hands"][1]))))
    rejects(TWO, rec, "the deck has 2")
    rec, _ = mutated(base)
    rec["trump"] = "SHDC"[("SHDC".index(rec["trump"]) + 1) % 4]
    rejects(TWO, rec, "trump is", "the turned card")
    rec, _ = mutated(base)
    rec["turned_dix"] = True
    rejects(TWO, rec, "turned_dix is True")
    rec, _ = mutated(base)
    rec["variant"] = "three-hand-72"
    rejects(TWO, rec, "variant is")
    rec, _ = mutated(base)
    del rec["scores"]
    rejects(TWO, rec, "lacks the key(s) scores")
    rec, _ = mutated(base)
    rec["tricks"].pop()
    rejects(TWO, rec, "23 tricks, expected 24")
    rec, _ = mutated(base)
    rec["tricks"][0]["cards"][0] = "10S"
    rejects(TWO, rec, "tricks[0]", "is not written rank+suit as 'TS'")


def test_turned_dix_bonus():
    for seed in range(200):
        record, _ = random_record(TWO, seed)
        if record["turned_dix"]:
            break
    replay_talon(TWO, record)
    dealer = record["dealer"]
    bad = copy.deepcopy(record)
    bad["meld_points"][dealer] -= 10
    bad["scores"][dealer] -= 10
    rejects(TWO, bad, "meld_points are", "turned dix")


def test_three_and_four_hand_mutations():
    rec, trace = random_record(THREE, 7)
    replay_talon(THREE, rec)
    bad = copy.deepcopy(rec)
    bad["tricks"][5]["winner"] = (bad["tricks"][5]["winner"] + 1) % 3
    rejects(THREE, bad, "tricks[5]", "winner is seat")
    bad = copy.deepcopy(rec)
    bad["tricks"][3]["draws"] = bad["tricks"][3]["draws"][1:] + bad["tricks"][3]["draws"][:1]
    if bad["tricks"][3]["draws"] != rec["tricks"][3]["draws"]:
        rejects(THREE, bad, "tricks[3]", "talon's next card")

    rec, trace = random_record(FOUR, 8)
    replay_talon(FOUR, rec)
    assert len(rec["tricks"]) == 6 + 12 and all(len(t["draws"]) == 4 for t in rec["tricks"][:6])
    bad = copy.deepcopy(rec)
    bad["pair_scores"][0] += 1
    rejects(FOUR, bad, "pair_scores are")
    bad = copy.deepcopy(rec)
    del bad["pair_scores"]
    rejects(FOUR, bad, "lacks the key(s) pair_scores")
    bad = copy.deepcopy(rec)
    bad["tricks"][5]["draws"] = []
    rejects(FOUR, bad, "tricks[5]", "0 cards drawn")
    for i in range(6, 18):
        for k in range(4):
            illegal = [t for t in trace[i]["held"][k] if t not in trace[i]["legal"][k]]
            if illegal:
                bad = copy.deepcopy(rec)
                bad["tricks"][i]["cards"][k] = format_card(illegal[0])
                rejects(FOUR, bad, f"tricks[{i}]", "must-head")
                return
    raise AssertionError("no phase-2 choice in the four-hand record")
