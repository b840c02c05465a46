"""The page in a real browser: Playwright drives a headless Chromium (the system's, installed by
``.ci/run`` when absent) against ``binokel-sim serve``'s app on a free local port. It clicks the
example hand together on the card grid (by mouse, keyboard and the touch mode that takes cards
away), runs the bid odds and checks the shown answer against the CLI's JSON at the same seed
(``--bid`` too); it follows links to a widow game and a talon game, shows a bad hand's one-line
error at the top and names the words that are no card, and cancels a long run.

Every view is checked at 390 px (a phone) and 1280 px: nothing wider than the screen, and
axe-core (from the package ``axe-playwright-python``, which ships ``axe.min.js``; injected with
``page.add_script_tag``) finds no serious or critical violation. With
``BINOKEL_SIM_SCREENSHOTS=1`` the views are saved to docs/images/ (the README shows them);
otherwise to a temporary folder."""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from pathlib import Path

import axe_playwright_python
import pytest
import uvicorn
from playwright.sync_api import expect, sync_playwright

from binokel_sim.cli.serve import cli_options
from binokel_sim.variants import find_variant
from binokel_sim.web import create_app
from binokel_sim.web.questions import Limits
from tests.conftest import ok

SCREENSHOTS = Path(__file__).resolve().parents[1] / "docs" / "images"
AXE = Path(axe_playwright_python.__file__).parent / "axe.min.js"
# the flags a headless Chromium needs here: root (no sandbox), no GPU, no background traffic
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
WAIT = 120_000  # ms: a run on a cold kernel cache compiles first
PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 900}
HAND = find_variant("four-hand-80").example_hand
WIDOW = ("/?variant=swabian-3-40&hand=AS+TS+KS+QS+JS+JS+KH+QH+AD+JD+KC+QC&deals=3000&seed=2")
TALON = ("/?variant=two-hand-48&hand=AS+TS+KS+QS+QS+JS+9S+KH+QH+AD+JD+AC&turned=9H&deals=3000"
         "&seed=2")


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    assert path, "the browser tests need Chromium: apt-get install chromium (.ci/run does)"
    return path


@pytest.fixture(scope="module")
def server():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(cli_options(), Limits(max_deals=20_000_000))
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not running.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", app.state.jobs
    running.should_exit = True
    thread.join(timeout=30)


@pytest.fixture(scope="module")
def url(server) -> str:
    return server[0]


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def page(browser):
    tab = browser.new_page(viewport=DESKTOP)
    yield tab
    tab.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    if os.environ.get("BINOKEL_SIM_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        return SCREENSHOTS
    return tmp_path_factory.mktemp("screenshots")


def check_view(tab, name: str) -> dict:
    """The view fits its width (no sideways scrolling of the page) and axe-core finds no
    serious or critical violation in it; returns axe's counts for the record."""
    width = tab.viewport_size["width"]
    assert tab.evaluate("document.documentElement.scrollWidth") <= width, f"{name}: too wide"
    tab.add_script_tag(path=str(AXE))
    result = tab.evaluate("axe.run(document, {resultTypes: ['violations']})")
    bad = [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
           for v in result["violations"] if v["impact"] in ("serious", "critical")]
    assert not bad, f"{name} at {width} px: {bad}"
    summary = {"view": name, "width": width, "axe": result["testEngine"]["version"],
               "rules_passed": len(result["passes"]),
               "violations": [(v["id"], v["impact"]) for v in result["violations"]]}
    print(json.dumps(summary))
    return summary


def test_clicked_hand_gives_the_cli_answer(url, page, shots):
    page.goto(url + "/")
    page.fill("#hand", "")
    for card in HAND.split():
        page.click(f'#grid .card[data-card="{card}"]')
    expect(page.locator("#count")).to_have_text("20 of 20 cards")
    assert sorted(page.input_value("#hand").split()) == sorted(HAND.split())
    page.locator("summary", has_text="How it is worked out").click()
    page.fill('input[name="deals"]', "4000")
    page.fill('input[name="seed"]', "7")
    page.click("#run")
    page.wait_for_selector("#answer #verdict", timeout=WAIT)
    assert "seed=7" in page.url and "deals=4000" in page.url  # the state is in the URL
    cli = json.loads(ok("bid-odds", "--hand", HAND, "--deals", "4000", "--seed", "7",
                        "--format", "json").stdout)
    shown = page.locator("#answer .p-make")
    assert shown.count() == len(cli["by_trump"])
    for i in range(shown.count()):
        cell = shown.nth(i)
        info = cli["by_trump"][cell.get_attribute("data-trump")]
        assert float(cell.get_attribute("data-value")) == info["p_make_min_bid"]
        assert cell.text_content() == f"{100 * info['p_make_min_bid']:.1f}%"
    top, trump = cli["max_bid_positive_ev"], cli["recommended_trump"]
    verdict = page.locator("#verdict")
    assert verdict.get_attribute("data-bid") == str(top)
    made = next(r["p_make"] for r in cli["rows"] if r["bid"] == top and r["trump"] == trump)
    expect(verdict).to_have_text(f"Bid up to {top} with {'♠♥♦♣'['SHDC'.index(trump)]} "
                                 f"{dict(S='spades', H='hearts', D='diamonds', C='clubs')[trump]}"
                                 f": made {100 * made:.0f}% of the time.")
    expect(page.locator("#answer figure.curve svg")).to_be_visible()  # the curve, unfolded
    assert page.locator("#answer details.fold[open]").count() == 0  # the details, folded
    expect(page.locator("#provenance")).to_contain_text("policy expert")
    expect(page.locator("#melds")).to_contain_text("best trump")
    page.locator("#every-bid summary").click()  # every bid, as --full
    assert page.locator("#every-bid tbody tr").count() == len(cli["rows"])
    # the same link in a fresh load reproduces the answer
    page.goto(page.url)
    page.wait_for_selector("#answer #verdict", timeout=WAIT)
    again = page.locator("#answer .p-make").first
    assert float(again.get_attribute("data-value")) == \
        cli["by_trump"][again.get_attribute("data-trump")]["p_make_min_bid"]


def test_should_i_bid_gives_the_cli_odds_of_that_bid(url, page):
    page.goto(url + f"/?hand={HAND.replace(' ', '+')}&deals=4000&seed=7&bid=120")
    page.wait_for_selector("#answer #verdict", timeout=WAIT)
    cli = json.loads(ok("bid-odds", "--deals", "4000", "--seed", "7", "--bid", "120",
                        "--format", "json").stdout)
    asked = page.locator("#answer .verdict.asked")
    assert asked.count() == len(cli["by_trump"])
    for i, (trump, info) in enumerate(cli["by_trump"].items()):
        assert f"Bid 120 with {'♠♥♦♣'['SHDC'.index(trump)]}" in asked.nth(i).text_content()
        assert f"made {100 * info['p_make_at_bid']:.0f}% of the time" in \
            asked.nth(i).text_content()
        cell = page.locator(f'#answer .p-make-asked[data-trump="{trump}"]')
        assert float(cell.get_attribute("data-value")) == info["p_make_at_bid"]


def test_the_grid_by_keyboard_and_touch_and_unknown_cards_named(url, page):
    page.goto(url + "/?hand=AS+XX+7S")
    expect(page.locator("#unknown")).to_have_text(
        "Not cards of this deck (so not on the grid): XX, 7S")
    expect(page.locator("#count")).to_have_text("1 of 20 cards")
    ace = page.locator('#grid .card[data-card="AS"]')
    ace.focus()
    page.keyboard.press("+")
    page.keyboard.press("Enter")
    expect(ace).to_have_attribute("aria-label", "ace of spades: 3 of 4")
    page.keyboard.press("-")
    expect(ace).to_have_attribute("aria-label", "ace of spades: 2 of 4")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == "TS"
    page.keyboard.press("Delete")  # none held: back round to every copy
    expect(page.locator('#grid .card[data-card="TS"]')).to_have_attribute(
        "aria-label", "ten of spades: 4 of 4")
    page.click("#take-away")  # a phone's way to take a card away: tap mode
    expect(page.locator("#take-away")).to_have_attribute("aria-pressed", "true")
    ace.click()
    expect(ace).to_have_attribute("aria-label", "ace of spades: 1 of 4")
    assert page.input_value("#hand").split() == ["AS", "TS", "TS", "TS", "TS", "XX", "7S"]
    page.click("#clear")
    assert page.input_value("#hand").split() == ["XX", "7S"]  # what is no card stays, named


def test_bad_hand_error_at_the_top_and_cancel(url, browser):
    phone = browser.new_page(viewport=PHONE)
    phone.goto(url + "/?hand=AS+KS&deals=1000")
    error = phone.locator("#error")
    expect(error).to_have_text("the hand has 2 cards; a four-hand-80 hand has 20")
    assert error.bounding_box()["y"] + error.bounding_box()["height"] < PHONE["height"]
    expect(phone.locator("#count")).to_have_text("2 of 20 cards")
    phone.goto(url + "/?variant=four-hand-80&deals=20000000&hand=" + HAND.replace(" ", "+"))
    expect(phone.locator("#status")).to_contain_text("playing out deals", timeout=WAIT)
    phone.click("#cancel")
    expect(phone.locator("#status")).to_have_text("cancelled", timeout=WAIT)
    assert phone.locator("#answer #verdict").count() == 0
    phone.close()


def test_every_view_fits_a_phone_and_passes_axe(url, browser, shots):
    """Each view at 390 and 1280 px: no sideways scrolling, no serious or critical axe-core
    violation; the screenshots the README shows (the answer from the page's default of 200,000
    deals then; 20,000 otherwise, which looks the same and takes a tenth of the time)."""
    deals = "" if os.environ.get("BINOKEL_SIM_SCREENSHOTS") == "1" else "&deals=20000"
    views = [
        ("hand", "/", None),
        ("answer", f"/?hand={HAND.replace(' ', '+')}&seed=7{deals}", "#verdict"),
        ("widow", WIDOW, "#verdict"),
        ("deal", TALON, "#verdict"),
        ("error", "/?hand=AS+KS+XX", "#error"),
        ("api", "/api", None),
    ]
    results = []
    for prefix, size in (("phone", PHONE), ("desktop", DESKTOP)):
        tab = browser.new_page(viewport=size)
        for name, path, ready in views:
            tab.goto(url + path)
            if ready:
                tab.wait_for_selector(ready, timeout=WAIT)
            results.append(check_view(tab, f"{prefix}-{name}"))
            tab.evaluate("window.scrollTo(0, 0)")
            tab.screenshot(path=str(shots / f"{prefix}-{name}.png"))
            if name == "answer":  # the folded details open: still within the screen's width
                for summary in tab.locator("#answer details.fold > summary").all():
                    summary.click()
                results.append(check_view(tab, f"{prefix}-{name}-unfolded"))
        tab.close()
    (shots / "axe.json").write_text(json.dumps(results, indent=1) + "\n")
    assert all(r["rules_passed"] > 10 for r in results)
    tab = browser.new_page(viewport=PHONE)  # the check itself: a serious violation is caught
    tab.set_content('<html lang="en"><title>t</title><main><img src="x.png"></main></html>')
    with pytest.raises(AssertionError, match="image-alt"):
        check_view(tab, "an image without alt")
    tab.close()


def test_widow_and_talon_links(url, page):
    page.goto(url + WIDOW)
    page.wait_for_selector("#answer #verdict", timeout=WAIT)
    expect(page.locator("#widow")).to_contain_text("Best meld before it: 230")
    cli = json.loads(ok("bid-odds", "-v", "swabian-3-40", "--hand",
                        "AS TS KS QS JS JS KH QH AD JD KC QC", "--deals", "3000", "--seed", "2",
                        "--format", "json").stdout)
    assert page.locator("#verdict").get_attribute("data-bid") == str(cli["max_bid_positive_ev"])
    page.goto(url + TALON)
    page.wait_for_selector("#answer #verdict", timeout=WAIT)
    cli = json.loads(ok("deal-odds", "--hand", "AS TS KS QS QS JS 9S KH QH AD JD AC",
                        "--turned", "9H", "--deals", "3000", "--seed", "2", "--format",
                        "json").stdout)
    assert float(page.locator(".p-win").get_attribute("data-value")) == cli["p_win"]
    expect(page.locator("#verdict")).to_contain_text(
        f"You out-score every opponent in {100 * cli['p_win']:.0f}% of deals")


def test_leaving_the_page_or_the_request_cancels_its_run(url, page, server):
    jobs = server[1]
    page.goto(url + f"/?deals=20000000&hand={HAND.replace(' ', '+')}")
    expect(page.locator("#status")).to_contain_text("playing out deals", timeout=WAIT)
    page.goto(url + "/?variant=two-hand-48")  # away: the run is no one's any more
    until_idle(jobs)
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port))) as raw:  # a client that gives up
        raw.sendall(f"GET /api/bid-odds?deals=20000000 HTTP/1.1\r\nHost: {host}\r\n\r\n"
                    .encode())
        deadline = time.monotonic() + 60
        while jobs.active() == 0:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    until_idle(jobs)


def until_idle(jobs) -> None:
    """No run left, soon: a cancelled run stops at its next chunk (well under a second), where
    the 20,000,000 deals asked for would take a minute or more."""
    deadline = time.monotonic() + 15
    while jobs.active():
        assert time.monotonic() < deadline, "the run went on"
        time.sleep(0.05)
