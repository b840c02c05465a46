"""Variants as data: the six built-in rule sets of SPEC.md, aliases, and rules files checked key by
key (a bad file raises RulesError naming the bad key)."""

from __future__ import annotations

import copy
import re
import sys
from importlib import resources

import numpy as np
import pytest

from binokel_sim import variants
from binokel_sim.analysis import analyze_hand
from binokel_sim.cards import card_type, parse_card
from binokel_sim.hands import parse_hand
from binokel_sim.variants import RulesError, find_variant, load_rules, rules_from_dict

from conftest import VARIANT_NAMES

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# name -> (players, deck, copies, hand, widow, talon), from the SPEC.md variant sections
CONTRACT = {
    "four-hand-80": (4, 80, 4, 20, 0, 0),  # 4 copies of J Q K 10 A; 20 cards each
    "two-hand-48": (2, 48, 2, 12, 0, 24),  # 12 each, 24-card talon (ends with the turned card)
    "three-hand-auction-48": (3, 48, 2, 15, 3, 0),  # 15 each, widow of 3
    "four-hand-widow-48": (4, 48, 2, 11, 4, 0),  # 11 each, widow of 4
    "three-hand-72": (3, 72, 3, 12, 0, 36),  # 12 each; the 37th card is turned and ends the talon
    "four-hand-72": (4, 72, 3, 12, 0, 24),  # 12 each; the 49th card is turned and ends the talon
    # SPEC "House variants": 40 cards (2 copies of J Q K 10 A), a Dabb of 4
    "swabian-3-40": (3, 40, 2, 12, 4, 0),  # 12 each
    "swabian-3-40-tournament": (3, 40, 2, 12, 4, 0),  # the Swabian game, another card count
    "kreuz-4-40": (4, 40, 2, 9, 4, 0),  # 9 each
    # SPEC "Variant sixty-six": 24 cards (9 J Q K 10 A once), 6 each, a stock of 12 (the turned
    # trump its last card)
    "sixty-six": (2, 24, 1, 6, 0, 12),
}


def builtin_text(name: str) -> str:
    return resources.files("binokel_sim.variants").joinpath(f"{name}.toml").read_text("utf-8")


def builtin_dict(name: str) -> dict:
    return tomllib.loads(builtin_text(name))


# --- the built-in variants ----------------------------------------------------------------------

def test_eight_builtin_variants():
    assert variants.builtin_names() == sorted(VARIANT_NAMES)
    assert [r.name for r in variants.all_variants()] == sorted(VARIANT_NAMES)


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_variant_shape_matches_the_contract(name):
    r = find_variant(name)
    players, deck, copies, hand, widow, talon = CONTRACT[name]
    assert r.name == name
    assert (r.players, r.deck_size, r.copies, r.hand_size, r.widow, r.talon) == \
        (players, deck, copies, hand, widow, talon)
    assert r.players * r.hand_size + r.widow + r.talon == r.deck_size
    assert int(r.deck_counts().sum()) == r.deck_size
    # every card type of the deck's ranks has `copies` copies, others none
    for t in range(24):
        assert r.deck_counts()[t] in (0, copies)
    has_nine = r.deck_counts()[parse_card("9S")] > 0
    assert has_nine == (deck not in (80, 40))  # the 80- and 40-card decks have no 9


@pytest.mark.parametrize("name,total", [
    ("four-hand-80", 50),  # 4 suits x 4 copies x (K 1 + 10 1 + A 1) = 48, + 2 last trick
    ("two-hand-48", 250),  # 4 x 2 x (A 11 + 10 10 + K 4 + Q 3 + J 2 + 9 0 = 30) = 240, + 10
    ("three-hand-auction-48", 250),
    ("four-hand-widow-48", 250),
    ("three-hand-72", 370),  # 4 x 3 x 30 = 360, + 10 (card points as in two-hand-48)
    ("four-hand-72", 370),
    ("swabian-3-40", 250),  # 4 x 2 x (A 11 + 10 10 + K 4 + Q 3 + J 2 = 30) = 240, + 10
    ("swabian-3-40-tournament", 250),  # 4 x 2 x (A 10 + 10 10 + K 10) = 240, + 10
    ("kreuz-4-40", 250),
])
def test_total_card_points(name, total):
    assert find_variant(name).total_card_points == total


def test_partnerships():
    for name in ["four-hand-80", "four-hand-widow-48", "four-hand-72", "kreuz-4-40"]:
        assert find_variant(name).partnerships == ((0, 2), (1, 3))
    assert find_variant("two-hand-48").partnerships == ()


@pytest.mark.parametrize("alias,name", [
    ("binokel-80", "four-hand-80"), ("double-deck-pinochle", "four-hand-80"),
    ("binokel-2", "two-hand-48"), ("binokel", "swabian-3-40"), ("swabian", "swabian-3-40"),
    ("kreuzbinokel", "kreuz-4-40"), ("Kreuz", "kreuz-4-40"),
    ("binokel-3", "swabian-3-40"), ("binokel-4", "kreuz-4-40"),
    ("binokel-3-48", "three-hand-auction-48"), ("binokel-3-auction", "three-hand-auction-48"),
    ("binokel-4-48", "four-hand-widow-48"), ("binokel-4-widow", "four-hand-widow-48"),
    ("binokel-3-72", "three-hand-72"), ("binokel-4-72", "four-hand-72"),
    ("  Four-Hand-80 ", "four-hand-80"), ("BINOKEL-80", "four-hand-80"),
])
def test_aliases_and_case(alias, name):
    assert find_variant(alias).name == name


def test_unknown_variant_lists_the_names():
    with pytest.raises(RulesError) as info:
        find_variant("five-hand-100")
    msg = str(info.value)
    assert "five-hand-100" in msg
    for name in VARIANT_NAMES:
        assert name in msg


def test_builtin_meld_tables_follow_the_contract():
    r80 = find_variant("four-hand-80")
    assert r80.meld_names == ("aces_around", "kings_around", "queens_around", "jacks_around", "run",
                              "royal_marriage", "common_marriage", "binokel")
    by = {m.name: m for m in r80.melds}
    assert by["aces_around"].points == (0, 10, 100, 150, 200)
    assert by["run"].points == (0, 15, 150, 225, 300)
    assert by["royal_marriage"].points == (0, 4, 8, 12, 16)
    assert by["common_marriage"].points == (0, 2, 4, 6, 8)
    assert by["binokel"].points == (0, 4, 30, 60, 90)
    assert by["binokel"].type_mask == (1 << parse_card("QS")) | (1 << parse_card("JD"))
    r48 = find_variant("two-hand-48")
    by = {m.name: m for m in r48.melds}
    assert by["binokel"].points == (0, 40, 500)
    assert by["aces_around"].points == (0, 100, 1000)
    assert by["quint"].points == (0, 250, 250)  # counted once per suit
    r72 = find_variant("three-hand-72")
    by = {m.name: m for m in r72.melds}
    assert by["binokel"].points == (0, 40, 500, 1500)  # triple binokel 1500
    assert by["aces_around"].points == (0, 100, 1000, 1000)  # a triple scores as its double


def test_rules_are_immutable():
    r = find_variant("two-hand-48")
    with pytest.raises(AttributeError):
        r.hand_size = 13  # type: ignore[misc]


# --- rules files --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_builtin_file_loads_with_load_rules(tmp_path, name):
    path = tmp_path / f"{name}.toml"
    path.write_text(builtin_text(name), encoding="utf-8")
    assert load_rules(path) == find_variant(name)


def _expect_error(data: dict, *needles: str):
    with pytest.raises(RulesError) as info:
        rules_from_dict(data, origin="house.toml")
    msg = str(info.value)
    assert msg.startswith("house.toml")
    for needle in needles:
        assert needle in msg, msg
    return msg


def test_toml_syntax_error(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text(builtin_text("two-hand-48").replace("copies = 2", "copies = = 2"), "utf-8")
    with pytest.raises(RulesError) as info:
        load_rules(path)
    assert "broken.toml" in str(info.value) and "TOML" in str(info.value)


def test_missing_rules_file(tmp_path):
    with pytest.raises(RulesError, match="nothere.toml"):
        load_rules(tmp_path / "nothere.toml")


def test_unknown_top_level_key():
    data = builtin_dict("two-hand-48")
    data["trumps"] = "S"
    _expect_error(data, "trumps")


def test_unknown_section_key():
    data = builtin_dict("two-hand-48")
    data["deck"]["colour"] = "red"
    _expect_error(data, "deck", "colour")


def test_unknown_meld_key():
    data = builtin_dict("two-hand-48")
    data["melds"][0]["bonus"] = 5
    _expect_error(data, "bonus")


@pytest.mark.parametrize("section,key,value", [
    ("deck", "copies", "2"), ("deal", "hand_size", 12.0), ("deal", "players", True),
    ("game", "target", "1000"), ("points", "last_trick", [10]),
])
def test_wrong_type(section, key, value):
    data = builtin_dict("two-hand-48")
    data[section][key] = value
    _expect_error(data, f"{section}.{key}")


def test_wrong_type_in_a_meld():
    data = builtin_dict("two-hand-48")
    data["melds"][3]["per_set"] = "10"  # dix
    _expect_error(data, "dix", "per_set")


def test_unknown_meld_scope():
    data = builtin_dict("four-hand-80")
    data["melds"][0]["scope"] = "everywhere"
    _expect_error(data, "aces_around", "scope", "everywhere")


def test_points_list_longer_than_copies():
    data = builtin_dict("two-hand-48")
    data["melds"][-1]["points"] = [40, 500, 1500]  # binokel, but the 48-card deck has 2 copies
    _expect_error(data, "binokel", "points")


def test_inside_names_an_unknown_meld():
    data = builtin_dict("four-hand-80")
    royal = next(m for m in data["melds"] if m["name"] == "royal_marriage")
    royal["inside"] = ["runn"]
    _expect_error(data, "royal_marriage", "inside", "runn")


def test_inside_names_a_later_meld():
    data = builtin_dict("two-hand-48")
    # the marriage (listed 2nd) claims to sit inside kings_around (listed 7th)
    data["melds"][1]["inside"] = ["quint", "kings_around"]
    _expect_error(data, "marriage", "inside", "kings_around")


def test_around_meld_inside_an_earlier_around_meld():
    # the widow variants: kings and queens around sit inside the roundhouse
    for name in ["three-hand-auction-48", "four-hand-widow-48"]:
        by = {m.name: m for m in find_variant(name).melds}
        assert by["kings_around"].inside == by["queens_around"].inside == ("roundhouse",)
    # a house table may do the same with any earlier around meld
    data = builtin_dict("four-hand-80")
    data["melds"][2]["inside"] = ["aces_around", "kings_around"]  # queens_around
    r = rules_from_dict(data)
    assert r.melds[2].inside == ("aces_around", "kings_around")


@pytest.mark.parametrize("child,parent,needles", [
    ("kings_around", "run", ("kings_around", "inside", "run")),  # around inside a suit meld
    ("kings_around", "binokel", ("kings_around", "inside", "binokel")),  # ... inside a cards meld
    ("binokel", "aces_around", ("binokel", "inside", "cards")),  # a cards meld inside anything
])
def test_inside_rules_for_fixed_melds(child, parent, needles):
    data = builtin_dict("four-hand-80")
    names = [m["name"] for m in data["melds"]]
    # list the parent first, so only the kind of the pair is wrong
    parent_entry = data["melds"].pop(names.index(parent))
    data["melds"].insert(0, parent_entry)
    next(m for m in data["melds"] if m["name"] == child)["inside"] = [parent]
    _expect_error(data, *needles)


def test_around_meld_inside_a_later_around_meld():
    data = builtin_dict("three-hand-auction-48")
    # aces_around is listed after kings_around
    next(m for m in data["melds"] if m["name"] == "kings_around")["inside"] = ["aces_around"]
    _expect_error(data, "kings_around", "inside", "aces_around")


def test_too_many_melds():
    from binokel_sim.variants import MAX_MELDS

    data = builtin_dict("three-hand-auction-48")
    assert len(data["melds"]) == MAX_MELDS  # the widow tables use every slot
    data["melds"].append({"name": "extra", "scope": "trump", "ranks": ["A"], "per_set": 1})
    _expect_error(data, "melds", str(MAX_MELDS))


def test_deal_does_not_make_the_deck():
    data = builtin_dict("two-hand-48")
    data["deal"]["talon"] = 23
    _expect_error(data, "deal")


def test_meld_rank_not_in_the_deck():
    data = builtin_dict("four-hand-80")
    data["melds"].append({"name": "nines_around", "scope": "around", "ranks": ["9"],
                          "points": [1]})
    _expect_error(data, "nines_around", "9")


def test_unknown_rank_in_deck():
    data = builtin_dict("four-hand-80")
    data["deck"]["ranks"] = ["J", "Q", "K", "T", "X"]
    _expect_error(data, "deck.ranks", "'X'")


# --- house rules --------------------------------------------------------------------------------

def test_house_rules_file_changes_the_meld_value(tmp_path):
    text = builtin_text("two-hand-48")
    old = 'cards = ["QS", "JD"]\npoints = [40, 500]'
    assert text.count(old) == 1
    path = tmp_path / "house.toml"
    path.write_text(text.replace(old, 'cards = ["QS", "JD"]\npoints = [40, 300]'), "utf-8")
    house = load_rules(path)
    base = find_variant("two-hand-48")
    assert house.meld_names == base.meld_names

    # 2xQS 2xJD plus cards that make no other meld (no K, no 9, no full rank around)
    hand = "QS QS JD JD TH TH TC TC AH AH AC AC"
    for r, double in [(base, 500), (house, 300)]:
        result = analyze_hand(r, parse_hand(hand, r))
        for suit in "SHDC":
            entry = result["by_trump"][suit]
            binokel = next(m for m in entry["melds"] if m["name"] == "binokel")
            assert (binokel["count"], binokel["points"]) == (2, double)
            assert entry["total"] == double


def test_rules_from_dict_does_not_mutate_its_input():
    data = builtin_dict("four-hand-80")
    before = copy.deepcopy(data)
    rules_from_dict(data)
    assert data == before


def test_deck_counts_of_a_custom_deck():
    data = builtin_dict("two-hand-48")
    data["deck"]["ranks"] = ["Q", "K", "T", "A"]  # 32 cards
    data["deal"]["talon"] = 8
    data.pop("example_hand")  # the built-in example holds 9s, which this deck lacks
    data.pop("example_turned")
    data["trump"].pop("turned_bonus")  # a turned 9 and the dix swap need the 9s
    data["trump"].pop("swap_meld")
    data["melds"] = [m for m in data["melds"] if m["name"] in ("marriage", "trump_marriage")]
    for m in data["melds"]:
        m.pop("inside", None)
    r = rules_from_dict(data)
    assert r.deck_size == 32
    expected = np.zeros(24, dtype=np.int64)
    for s in range(4):
        for rank in (2, 3, 4, 5):
            expected[card_type(rank, s)] = 2
    assert r.deck_counts().tolist() == expected.tolist()


# --- malformed values that must still be RulesError (not a crash deeper down) -------------------

@pytest.mark.parametrize("partners", [[0, 2], [[0, "b"], [1, 3]], [[0, 2], 1, 3]])
def test_partnerships_malformed(partners):
    # a flat list or a non-integer seat is a bad value like any other: RulesError naming the key
    data = builtin_dict("four-hand-80")
    data["deal"]["partnerships"] = partners
    _expect_error(data, "deal.partnerships")


def test_partnerships_not_covering_every_seat():
    data = builtin_dict("four-hand-80")
    data["deal"]["partnerships"] = [[0, 1], [2, 2]]
    _expect_error(data, "deal.partnerships")


def test_too_many_parents_is_a_rules_error():
    # The kernels' tables hold at most tables.MAX_PARENTS (4) parents per meld; a rules file
    # with more must be refused by the loader (RulesError naming the meld and 'inside'), not
    # with a bare ValueError later, when the tables are compiled.
    from binokel_sim.tables import MAX_PARENTS, compile_tables

    data = builtin_dict("four-hand-80")
    parents = ["aces_around", "kings_around", "queens_around", "jacks_around", "run"]
    assert len(parents) > MAX_PARENTS
    data["melds"].append({"name": "crowded", "scope": "trump", "ranks": ["K"], "per_set": 1,
                          "inside": parents})
    try:
        rules = rules_from_dict(data, origin="house.toml")
    except RulesError as exc:
        assert "crowded" in str(exc) and "inside" in str(exc)
        return
    with pytest.raises(RulesError):
        compile_tables(rules)


def test_trump_requires_a_rank_not_in_the_deck():
    # four-hand-80 has no 9s: a trump that needs the 9 could never be named
    data = builtin_dict("four-hand-80")
    data["trump"]["requires"] = ["9"]
    _expect_error(data, "trump.requires", "9")


@pytest.mark.parametrize("section,key,value", [
    ("points", "last_trick", 10**20),
    ("bidding", "min_meld", 10**7),
])
def test_numbers_out_of_range_are_rules_errors(section, key, value):
    data = builtin_dict("four-hand-80")
    data[section][key] = value
    with pytest.raises(RulesError, match=f"{section}.{key}.*out of range"):
        rules_from_dict(data)


def test_meld_points_out_of_range_name_the_entry():
    data = builtin_dict("four-hand-80")
    data["melds"][0]["points"] = [10, 10**20]
    with pytest.raises(RulesError, match=r"points\[1\].*out of range"):
        rules_from_dict(data)


def test_unknown_all_pass_rule():
    data = builtin_dict("four-hand-80")
    data["bidding"]["all_pass"] = "redeal"  # a widow-game option: not in four-hand-80
    with pytest.raises(RulesError, match="bidding.all_pass"):
        rules_from_dict(data)
    data["bidding"]["all_pass"] = "nobody"
    with pytest.raises(RulesError, match="bidding.all_pass"):
        rules_from_dict(data)


def test_example_hand_must_fit_the_hand_size():
    data = builtin_dict("four-hand-80")
    data["deal"]["hand_size"] = 19
    data["deal"]["talon"] = 4
    data["play"]["first_leader"] = "non_dealer"  # a talon game's first lead
    with pytest.raises(RulesError, match="example_hand: 20 cards, but deal.hand_size is 19"):
        rules_from_dict(data)


def test_rules_file_with_a_byte_order_mark(tmp_path):
    path = tmp_path / "bom.toml"
    path.write_text("\ufeff" + builtin_text("four-hand-80"), encoding="utf-8")
    assert load_rules(path).name == "four-hand-80"


@pytest.mark.parametrize("key, value, needle", [
    ("turned_bonus", ["X", 10], "turned_bonus"),
    ("turned_bonus", ["9"], "[rank, points]"),
    ("turned_bonus", ["9", -1], "[rank, points]"),
    ("swap_meld", "binokel", "trump meld of one rank"),
    ("swap_meld", "nothing", "nothing"),
])
def test_turned_card_keys_are_checked(key, value, needle):
    data = builtin_dict("two-hand-48")
    data["trump"][key] = value
    with pytest.raises(RulesError, match=re.escape(needle)):
        rules_from_dict(data)


def test_turned_card_keys_only_with_a_turned_trump():
    data = builtin_dict("four-hand-80")
    data["trump"]["swap_meld"] = "run"
    with pytest.raises(RulesError, match="turned_card"):
        rules_from_dict(data)
    data = builtin_dict("four-hand-80")
    data["example_turned"] = "AS"
    with pytest.raises(RulesError, match="example_turned"):
        rules_from_dict(data)


def test_talon_variants_carry_the_turned_card_rules():
    for name in ("two-hand-48", "three-hand-72", "four-hand-72"):
        r = find_variant(name)
        assert (r.turned_bonus_rank, r.turned_bonus, r.swap_meld) == (0, 10, "dix")
        assert r.example_turned == "9H"
        assert {m.name: m.per_set for m in r.melds}["marriage"] == 20
        assert {m.name: m.per_set for m in r.melds}["binokel"] == 0


@pytest.mark.parametrize("name,leader", [
    ("two-hand-48", "bid_winner"), ("two-hand-48", "soloist"), ("four-hand-80", "non_dealer"),
])
def test_a_first_leader_the_engine_does_not_play_is_refused(name, leader):
    # issue 25: play.first_leader in a widow-game file was accepted and ignored; the talon and
    # partnership families play one first lead each, and a file asking for another is refused
    # (docs/rules.md, 28); the widow family plays both (tests/test_widow_switches.py)
    data = builtin_dict(name)
    data["play"]["first_leader"] = leader
    _expect_error(data, "play.first_leader", leader)


@pytest.mark.parametrize("name", ["two-hand-48", "three-hand-auction-48"])
def test_first_leader_defaults_to_what_the_family_plays(name):
    data = builtin_dict(name)
    del data["play"]["first_leader"]
    assert rules_from_dict(data).first_leader == find_variant(name).first_leader
