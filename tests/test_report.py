"""``binokel-sim report``: every variant's figures are written as valid PNGs with a report.md
that lists them and their provenance; the figures' data are what ``bid-odds``, ``deal-odds`` and
``meld-odds`` report for the same seed; bad input is one error line and writes nothing."""

from __future__ import annotations

import inspect
import json
import os
import sys

import numpy as np
import pytest

from binokel_sim import __version__
from binokel_sim import report as rp
from binokel_sim.analysis import exact_meld_odds, meld_odds
from binokel_sim.cards import parse_card
from binokel_sim.engines.policies import default_policy
from binokel_sim.families import FAMILIES, PARTNERSHIP, SIXTY_SIX, TALON, WIDOW, engine_family
from binokel_sim.hands import parse_hand
from binokel_sim.io import OutputError
from binokel_sim.report import drawing
from binokel_sim.variants import find_variant
from conftest import HAND_80, VARIANT_NAMES, assert_one_line_error, invoke, ok

DEALS = 2000
SEED = 3
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
FAMILY_FIGURES = {
    PARTNERSHIP: ["bid-curve.png", "score.png"],
    WIDOW: ["bid-curve.png", "score.png", "widow.png"],
    TALON: ["score.png"],
    SIXTY_SIX: ["score.png"],
}
TURNED_CARD_FAMILIES = (TALON, SIXTY_SIX)  # no auction: a turned card and a seat
VARIANT_FIGURES = ["melds.png", "total-meld.png"]


def expected_figures(variant: str, prefix: str = "") -> list[str]:
    return [prefix + name for name in FAMILY_FIGURES[engine_family(find_variant(variant))]]


def assert_png(path) -> None:
    """A PNG matplotlib reads back: the signature, a figure of about 8 inches at 100 dpi, not
    blank."""
    from matplotlib.image import imread

    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE, path
    assert len(data) > 10_000, (path, len(data))
    pixels = imread(path)
    height, width = pixels.shape[:2]
    assert 300 <= height <= 1000 and 700 <= width <= 1300, (path, pixels.shape)
    assert float(pixels[..., :3].std()) > 0.01, path  # something is drawn


def run_report(tmp_path, *args: str, name: str = "report"):
    out = tmp_path / name
    result = ok("report", *args, "--deals", str(DEALS), "--seed", str(SEED), "--out", str(out))
    return out, result


@pytest.fixture
def captured(monkeypatch):
    """The figures the command draws, as it hands them to
    :func:`binokel_sim.report.drawing.render`."""
    figures = []
    original = drawing.render

    def spy(figure):
        figures.append(figure)
        return original(figure)

    monkeypatch.setattr(drawing, "render", spy)
    return figures


# --- every variant -------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_every_variant_writes_its_figures_and_report(tmp_path, variant):
    out, result = run_report(tmp_path, "--variant", variant)
    figures = expected_figures(variant) + VARIANT_FIGURES
    assert sorted(p.name for p in out.iterdir()) == sorted(figures + ["report.md"])
    for name in figures:
        assert_png(out / name)
    rules = find_variant(variant)
    lines = result.stderr.strip().splitlines()
    if engine_family(rules) in TURNED_CARD_FAMILIES:  # the example hand and turned card are said, not assumed
        note = lines.pop(0)
        assert note.startswith(f"note: using the example hand of {variant}") and "9H" in note
    assert lines == [f"wrote {out / 'report.md'} and {len(figures)} figures"]
    assert result.stdout == ""
    text = (out / "report.md").read_text()
    assert text.startswith(f"# binokel-sim report: {variant}\n")
    for line in (f"| variant | {variant} |", f"| seed | {SEED} |", f"| deals | {DEALS:,} |",
                 f"| policy | {default_policy(rules)} |",  # expert in the talon games
                 f"| version | binokel-sim {__version__} |",
                 f"| hand | {' '.join(rp_hand(rules))} |"):
        assert line in text, line
    for name in figures:
        assert f"]({name})" in text and f"`{name}`: " in text, name
    if engine_family(rules) in TURNED_CARD_FAMILIES:
        assert f"| turned card | {rules.example_turned} |" in text
        assert "no bid curve" in text


def rp_hand(rules) -> list[str]:
    from binokel_sim.cards import format_counts

    return format_counts(parse_hand(rules.example_hand, rules))


def test_same_seed_same_report(tmp_path):
    one, _ = run_report(tmp_path, "--variant", "two-hand-48", name="one")
    two, _ = run_report(tmp_path, "--variant", "two-hand-48", name="two")
    assert (one / "report.md").read_text() == (two / "report.md").read_text()


# --- the family registry -------------------------------------------------------------------------

def test_registry_covers_every_engine_family():
    for family in FAMILIES:
        assert rp.view_of(family).__name__ == f"binokel_sim.report.{family}"
    for variant in VARIANT_NAMES:
        rules = find_variant(variant)
        assert rp.family_view(rules) is rp.view_of(engine_family(rules))
    with pytest.raises(ValueError, match="no report for engine family 'bridge'"):
        rp.view_of("bridge")


def public_functions(module) -> set[str]:
    return {name for name, value in vars(module).items() if not name.startswith("_")
            and inspect.isfunction(value) and value.__module__ == module.__name__}


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_module_defines_the_same_names(family):
    """What a new family's module must define: the names of ``report.VIEW``, no fewer and no
    other public function, each function taking the same parameters in every family."""
    view = rp.view_of(family)
    assert sorted(view.__all__) == sorted(rp.VIEW)
    missing = [name for name in rp.VIEW if not hasattr(view, name)]
    assert not missing, missing
    assert public_functions(view) <= set(rp.VIEW), public_functions(view) - set(rp.VIEW)
    first = rp.view_of(FAMILIES[0])
    for name in rp.VIEW:
        mine, theirs = getattr(view, name), getattr(first, name)
        if callable(theirs):
            assert list(inspect.signature(mine).parameters) == \
                list(inspect.signature(theirs).parameters), name
    assert isinstance(view.TURNED_CARD, bool) and isinstance(view.MARKS_MELD, bool)
    assert view.BID_CURVE_TEXT is None or "{worth}" in view.BID_CURVE_TEXT


@pytest.mark.parametrize("variant", ["four-hand-80", "three-hand-auction-48", "two-hand-48"])
def test_odds_take_a_turned_card_exactly_in_the_families_that_have_one(variant):
    rules = find_variant(variant)
    view = rp.family_view(rules)
    counts = parse_hand(rules.example_hand, rules)
    if view.TURNED_CARD:
        with pytest.raises(ValueError, match="need the turned card"):
            view.odds(rules, counts, DEALS, SEED, "heuristic", None)
    else:
        with pytest.raises(ValueError, match=f"{variant} has no turned card"):
            view.odds(rules, counts, DEALS, SEED, "heuristic", parse_card("9H"))


# --- the figures' data are what the commands report ----------------------------------------------

def cli_json(*args: str) -> dict:
    return json.loads(ok(*args, "--format", "json").stdout)


def odds_args(variant: str, seed: int = SEED, hand: str | None = None) -> list[str]:
    args = ["--variant", variant, "--deals", str(DEALS), "--seed", str(seed)]
    return args + (["--hand", hand] if hand is not None else [])


def assert_bid_curve_matches(data: dict, answer: dict, family: str) -> None:
    rows = answer["rows"]
    trumps = list(answer["by_trump"]) if family == PARTNERSHIP else [None]
    assert [s["trump"] for s in data["series"]] == trumps
    for s in data["series"]:
        own = [r for r in rows if r.get("trump") == s["trump"]]
        for key in ("bid", "p_make", "ci_low", "ci_high", "expected_score"):
            assert s[key] == [r[key] for r in own], key
    assert data["marked_bid"] == answer["max_bid_positive_ev"]
    if family == PARTNERSHIP:
        assert data["marked_trump"] == answer["recommended_trump"]


def assert_score_matches(data: dict, histograms: dict) -> None:
    """Each series of the figure is the named series of a reported ``score_histogram``
    (``histograms``: series label -> (histogram, key))."""
    assert [s["label"] for s in data["series"]] == list(histograms)
    for s in data["series"]:
        hist, key = histograms[s["label"]]
        counts = dict(zip(hist["score"], hist["count"][key]))
        assert dict(zip(s["score"], s["count"])) == {v: c for v, c in counts.items() if c}
        assert s["deals"] == DEALS == sum(hist["count"][key])


def test_four_hand_80_data_match_bid_odds(captured, tmp_path):
    answer = cli_json("bid-odds", *odds_args("four-hand-80"))
    run_report(tmp_path, "--variant", "four-hand-80")
    figures = {f.name: f.data for f in captured}
    assert_bid_curve_matches(figures["bid-curve.png"], answer, PARTNERSHIP)
    by_trump = answer["by_trump"]
    best = answer["recommended_trump"]
    names = rp.SUIT_NAMES
    expected = {f"your pair, trump {names[s]}": (by_trump[s]["score_histogram"], "pair")
                for s in by_trump}
    expected[f"opponents, trump {names[best]}"] = (by_trump[best]["score_histogram"],
                                                   "opponents")
    assert_score_matches(figures["score.png"], expected)
    for s in figures["score.png"]["series"][:-1]:
        suit = s["label"].split()[-1]
        info = by_trump[next(k for k, v in names.items() if v == suit)]
        assert s["mean"] == pytest.approx(info["expected_score_min_bid"], abs=1e-9)
    assert figures["score.png"]["bid"] == min(r["bid"] for r in answer["rows"])


@pytest.mark.parametrize("variant", ["three-hand-auction-48", "four-hand-widow-48",
                                     "kreuz-4-40"])
def test_widow_data_match_bid_odds(captured, tmp_path, variant):
    answer = cli_json("bid-odds", *odds_args(variant))
    run_report(tmp_path, "--variant", variant)
    figures = {f.name: f.data for f in captured}
    assert_bid_curve_matches(figures["bid-curve.png"], answer, WIDOW)
    assert_score_matches(figures["score.png"],
                         {"soloist's side": (answer["score_histogram"], "soloist")})
    assert figures["score.png"]["series"][0]["mean"] == pytest.approx(
        answer["expected_score_min_bid"], abs=1e-9)
    widow = figures["widow.png"]
    assert widow["meld"] == [d["meld"] for d in answer["widow"]["distribution"]]
    assert widow["probability"] == [d["probability"] for d in answer["widow"]["distribution"]]
    assert widow["own_best_meld"] == answer["widow"]["own_best_meld"]
    assert sum(widow["probability"]) == pytest.approx(1.0)
    text = (tmp_path / "report" / "report.md").read_text()
    assert ("dealer" in text) == (variant == "kreuz-4-40")  # who dealt decides who leads


@pytest.mark.parametrize("variant", ["two-hand-48", "four-hand-72"])
def test_talon_data_match_deal_odds(captured, tmp_path, variant):
    answer = cli_json("deal-odds", *odds_args(variant))
    run_report(tmp_path, "--variant", variant)
    data = {f.name: f.data for f in captured}["score.png"]
    hist = answer["score_histogram"]
    labels = {"pair": "your pair", "opponent pair": "opponents' pair"}
    assert_score_matches(data, {labels.get(key, key): (hist, key) for key in hist["count"]})
    assert data["series"][0]["mean"] == pytest.approx(answer["mean_score"], abs=1e-9)
    assert len(data["panels"]) == (2 if find_variant(variant).partnerships else 1)


@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_meld_figures_match_meld_odds(variant):
    rules = find_variant(variant)
    exact = cli_json("meld-odds", "--variant", variant, "--exact")["rows"]
    data = rp.meld_data(exact_meld_odds(rules, 0))
    assert [m["meld"] for m in data["melds"]] == list(dict.fromkeys(r["meld"] for r in exact))
    for m in data["melds"]:
        rows = [r for r in exact if r["meld"] == m["meld"]]
        assert m["count"] == [r["count"] for r in rows]
        assert m["points"] == [r["points"] for r in rows]
        assert m["probability"] == [r["probability"] for r in rows]
    sampled = cli_json("meld-odds", "--variant", variant, "--deals", str(DEALS), "--seed",
                       str(SEED))["rows"]
    total = rp.total_meld_data(meld_odds(rules, DEALS, SEED), DEALS, [])
    rows = [r for r in sampled if r["meld"] == "total_meld"]
    assert total["points"] == [r["points"] for r in rows]
    assert total["hands"] == [r["hands"] for r in rows]
    assert sum(total["hands"]) == DEALS


def test_command_draws_the_meld_figures_from_the_same_runs(captured, tmp_path):
    rules = find_variant("four-hand-80")
    run_report(tmp_path, "--variant", "four-hand-80")
    figures = {f.name: f.data for f in captured}
    assert figures["melds.png"] == rp.meld_data(exact_meld_odds(rules, 0))
    total = figures["total-meld.png"]
    assert total == rp.total_meld_data(meld_odds(rules, DEALS, SEED), DEALS,
                                       [("your hand", total["marks"][0]["meld"])])
    assert total["marks"][0]["meld"] == rp.hand_meld(rules, parse_hand(HAND_80, rules)) == 71


# --- the library's score histograms --------------------------------------------------------------

def test_score_histograms_are_json_ready_and_sum_to_the_deals():
    from binokel_sim.odds import bid_odds
    from binokel_sim.odds.talon import deal_odds

    rules = find_variant("four-hand-80")
    odds = bid_odds(rules, parse_hand(HAND_80, rules), 3000, 5)
    for info in odds["by_trump"].values():
        hist = info["score_histogram"]
        json.dumps(hist)  # plain Python ints
        assert hist["score"] == sorted(set(hist["score"]))
        assert all(sum(c) == 3000 for c in hist["count"].values())
        mean = np.dot(hist["score"], hist["count"]["pair"]) / 3000
        assert mean == pytest.approx(info["expected_score_min_bid"])
    widow = find_variant("three-hand-auction-48")
    odds = bid_odds(widow, parse_hand(widow.example_hand, widow), 3000, 5)
    json.dumps(odds["score_histogram"])
    assert sum(odds["score_histogram"]["count"]["soloist"]) == 3000
    talon = find_variant("three-hand-72")
    odds = deal_odds(talon, parse_hand(talon.example_hand, talon), parse_card("9H"), "dealer",
                     3000, 5, "heuristic")
    hist = odds["score_histogram"]
    json.dumps(hist)
    assert list(hist["count"]) == ["you", "opponent 1", "opponent 2"]
    for key, mean in zip(hist["count"], [odds["mean_score"], *odds["mean_opponent_score"]]):
        assert np.dot(hist["score"], hist["count"][key]) / 3000 == pytest.approx(mean)


# --- a hands file --------------------------------------------------------------------------------

def test_hands_file_makes_one_set_per_hand_with_seeds_s_and_s_plus_1(captured, tmp_path):
    other = "AS AS TS KS KS QS QS JS AH TH KH QH AD KD QD JD JD AC TC TC"
    hands = tmp_path / "hands.txt"
    hands.write_text(f"# two hands\n{HAND_80}\n\n{other}\n")
    out, _ = run_report(tmp_path, "--hands-file", str(hands))
    figures = [f"hand-{i}-{name}" for i in (0, 1) for name in expected_figures("four-hand-80")]
    assert sorted(p.name for p in out.iterdir()) == sorted(figures + VARIANT_FIGURES +
                                                           ["report.md"])
    for name in figures:
        assert_png(out / name)
    text = (out / "report.md").read_text()
    assert f"## Hand 0: {HAND_80}" in text and f"## Hand 1: {other}" in text
    assert f"hands.txt line 2, seed {SEED}." in text and f"hands.txt line 4, seed {SEED + 1}." \
        in text
    for name in figures + VARIANT_FIGURES:
        assert f"]({name})" in text
    drawn = {f.name: f.data for f in captured}
    for i, (hand, seed) in enumerate([(HAND_80, SEED), (other, SEED + 1)]):
        answer = cli_json("bid-odds", *odds_args("four-hand-80", seed, hand))
        assert_bid_curve_matches(drawn[f"hand-{i}-bid-curve.png"], answer, PARTNERSHIP)
    assert [m["label"] for m in drawn["total-meld.png"]["marks"]] == ["hand 0", "hand 1"]


def test_talon_hands_file_with_one_turned_card(tmp_path):
    hands = tmp_path / "hands.txt"
    hands.write_text("AS TS KS QS QS JS 9S KH QH AD JD AC\nAS AS TS KS QS JS 9S KH QH AD JD AC\n")
    out, _ = run_report(tmp_path, "--variant", "two-hand-48", "--hands-file", str(hands),
                        "--turned", "9D", "--seat", "dealer")
    assert {p.name for p in out.iterdir()} == {"hand-0-score.png", "hand-1-score.png",
                                               *VARIANT_FIGURES, "report.md"}
    text = (out / "report.md").read_text()
    assert "| turned card | 9D |" in text and "| seat | dealer |" in text


# --- writing -------------------------------------------------------------------------------------

def test_existing_folder_is_reused_and_other_files_stay(tmp_path):
    out = tmp_path / "report"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    run_report(tmp_path, "--variant", "two-hand-48")
    assert (out / "notes.txt").read_text() == "mine"
    assert (out / "report.md").is_file()
    assert [p.name for p in out.iterdir() if p.name.startswith(".")] == []


def test_a_failure_while_drawing_leaves_nothing(monkeypatch, tmp_path):
    def broken(figure):
        raise OutputError("cannot draw")

    monkeypatch.setattr(drawing, "render", broken)
    result = invoke("report", "--variant", "two-hand-48", "--deals", "1000", "--out",
                    str(tmp_path / "report"))
    assert_one_line_error(result, "cannot draw")
    assert list(tmp_path.iterdir()) == []


def test_a_failure_while_publishing_leaves_no_temporary_folder(monkeypatch, tmp_path):
    def refuse(*args):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "rename", refuse)
    result = invoke("report", "--variant", "two-hand-48", "--deals", "1000", "--out",
                    str(tmp_path / "report"))
    assert_one_line_error(result, "cannot write the report", "Permission denied")
    assert list(tmp_path.iterdir()) == []


# --- bad input -----------------------------------------------------------------------------------

@pytest.mark.parametrize("args, needles", [
    (["--hand", "AS XX"], ["unknown card 'XX'"]),
    (["--hand", "AS KS"], ["the hand has 2 cards"]),
    (["--variant", "no-such-game"], ["unknown variant"]),
    (["--variant", "four-hand-80", "--turned", "9H"], ["--turned", "talon games"]),
    (["--variant", "three-hand-auction-48", "--seat", "dealer"], ["--seat", "talon games"]),
    (["--variant", "two-hand-48", "--turned", "9X"], ["--turned"]),
    (["--variant", "two-hand-48", "--seat", "middle"], ["--seat must be dealer or elder"]),
    (["--hand", HAND_80, "--hands-file", "hands.txt"], ["--hand or --hands-file"]),
    (["--hands-file", "no-such-file.txt"], ["cannot read hands file"]),
    (["--deals", "0"], ["--deals"]),
    (["--policy", "clever"], ["unknown policy"]),
])
def test_bad_input_is_one_line_error(tmp_path, args, needles):
    out = tmp_path / "report"
    assert_one_line_error(invoke("report", *args, "--out", str(out)), *needles)
    assert not out.exists()


def test_bad_hand_in_hands_file_names_its_line(tmp_path):
    hands = tmp_path / "hands.txt"
    hands.write_text(f"{HAND_80}\nAS KS\n")
    result = invoke("report", "--hands-file", str(hands), "--out", str(tmp_path / "r"))
    assert_one_line_error(result, "hands.txt line 2")


def test_out_must_be_a_folder_that_can_be_made(tmp_path):
    file = tmp_path / "file.txt"
    file.write_text("x")
    assert_one_line_error(invoke("report", "--out", str(file)), "not a folder")
    assert_one_line_error(invoke("report", "--out", str(tmp_path / "missing" / "report")),
                          "does not exist")
    assert_one_line_error(invoke("report", "--out", "-"), "give a folder")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root may write a read-only folder")
def test_unwritable_out_is_one_line_error(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        assert_one_line_error(invoke("report", "--out", str(locked / "report")),
                              "not writable")
    finally:
        locked.chmod(0o755)


def test_a_folder_that_refuses_a_new_entry_fails_before_any_deal(monkeypatch, tmp_path):
    """Permission bits that say writable do not settle it (a root user, a read-only mount,
    /proc): the check makes and removes a temporary folder there, and when that fails the
    command stops in one line before it plays a deal."""
    import errno

    def refuse(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    def no_deals(*args, **kwargs):
        raise AssertionError("a deal was played before the output was checked")

    monkeypatch.setattr(sys.modules["binokel_sim.report.publish"].tempfile, "mkdtemp", refuse)
    monkeypatch.setattr("binokel_sim.report.view_of", lambda family: type(
        "View", (), {"TURNED_CARD": False, "MARKS_MELD": True, "odds": staticmethod(no_deals)}))
    for out in (tmp_path, tmp_path / "new"):
        assert_one_line_error(invoke("report", "--out", str(out), "--deals", "100"),
                              "Read-only file system")
    assert list(tmp_path.iterdir()) == []


def test_without_matplotlib_says_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    result = invoke("report", "--deals", "1000", "--out", str(tmp_path / "report"))
    assert_one_line_error(result, "matplotlib", 'pip install "binokel-sim[plot]"')
    assert list(tmp_path.iterdir()) == []


def test_help_has_an_example():
    text = ok("report", "--help").stdout
    assert "Example: binokel-sim report" in text
    assert 'binokel-sim[plot]' in text
