"""The page in a real browser: Playwright drives a headless Chromium (the system's, installed by
``.ci/run`` when absent) against ``binokel-sim serve``'s app on a free local port. It clicks the
example hand together on the card grid, runs the bid odds and checks the shown p_make against
the CLI's JSON at the same seed; it follows links to a widow game and a talon game, shows a bad
hand's one-line error and cancels a long run. With ``BINOKEL_SIM_SCREENSHOTS=1`` the views are
saved to docs/screenshots/ (the README shows them); otherwise to a temporary folder."""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import expect, sync_playwright

from binokel_sim.variants import find_variant
from binokel_sim.web import create_app
from binokel_sim.web.questions import Limits
from tests.conftest import ok

SCREENSHOTS = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
# the flags a headless Chromium needs here: root (no sandbox), no GPU, no background traffic
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
WAIT = 120_000  # ms: a run on a cold kernel cache compiles first


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    assert path, "the browser tests need Chromium: apt-get install chromium (.ci/run does)"
    return path


@pytest.fixture(scope="module")
def server():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(Limits(max_deals=20_000_000))
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
def page(url):
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        tab = browser.new_page(viewport={"width": 1280, "height": 900})
        yield tab
        browser.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    if os.environ.get("BINOKEL_SIM_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        return SCREENSHOTS
    return tmp_path_factory.mktemp("screenshots")


def test_clicked_hand_gives_the_cli_p_make(url, page, shots):
    rules = find_variant("four-hand-80")
    page.goto(url + "/")
    page.fill("#hand", "")
    for card in rules.example_hand.split():
        page.click(f'#grid .card[data-card="{card}"]')
    expect(page.locator("#count")).to_have_text("20 of 20 cards")
    assert sorted(page.input_value("#hand").split()) == sorted(rules.example_hand.split())
    page.fill('input[name="deals"]', "4000")
    page.fill('input[name="seed"]', "7")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / "page-hand.png"))
    page.click("#run")
    page.wait_for_selector("#answer .p-make", timeout=WAIT)
    assert "seed=7" in page.url and "deals=4000" in page.url  # the state is in the URL
    cli = json.loads(ok("bid-odds", "--hand", rules.example_hand, "--deals", "4000", "--seed",
                        "7", "--format", "json").stdout)
    shown = page.locator("#answer .p-make")
    assert shown.count() == len(cli["by_trump"])
    for i in range(shown.count()):
        cell = shown.nth(i)
        info = cli["by_trump"][cell.get_attribute("data-trump")]
        assert float(cell.get_attribute("data-value")) == info["p_make_min_bid"]
        assert cell.inner_text() == f"{100 * info['p_make_min_bid']:.1f}%"
    expect(page.locator("#max-bid")).to_have_text(str(cli["max_bid_positive_ev"]))
    expect(page.locator("#provenance")).to_contain_text("policy expert")
    expect(page.locator("#melds")).to_contain_text("best trump")
    page.locator("#answer").screenshot(path=str(shots / "bid-odds.png"))
    # the same link in a fresh load reproduces the answer
    link = page.url
    page.goto(link)
    page.wait_for_selector("#answer .p-make", timeout=WAIT)
    again = page.locator("#answer .p-make").first
    assert float(again.get_attribute("data-value")) == \
        cli["by_trump"][again.get_attribute("data-trump")]["p_make_min_bid"]


def test_widow_and_talon_links(url, page, shots):
    page.goto(url + "/?variant=swabian-3-40&hand=AS+TS+KS+QS+JS+JS+KH+QH+AD+JD+KC+QC"
                       "&deals=3000&seed=2")
    page.wait_for_selector("#answer #widow", timeout=WAIT)
    expect(page.locator("#widow")).to_contain_text("Best meld before it: 230")
    page.locator("#answer").screenshot(path=str(shots / "widow.png"))
    page.goto(url + "/?variant=two-hand-48&hand=AS+TS+KS+QS+QS+JS+9S+KH+QH+AD+JD+AC"
                       "&turned=9H&deals=3000&seed=2")
    page.wait_for_selector("#answer .p-win", timeout=WAIT)
    cli = json.loads(ok("deal-odds", "--hand", "AS TS KS QS QS JS 9S KH QH AD JD AC",
                        "--turned", "9H", "--deals", "3000", "--seed", "2", "--format",
                        "json").stdout)
    assert float(page.locator(".p-win").get_attribute("data-value")) == cli["p_win"]
    page.locator("#answer").screenshot(path=str(shots / "deal-odds.png"))


def test_bad_hand_and_cancel(url, page):
    page.goto(url + "/?hand=AS+KS&deals=1000")
    expect(page.locator("#error")).to_have_text(
        "the hand has 2 cards; a four-hand-80 hand has 20")
    expect(page.locator("#count")).to_have_text("2 of 20 cards")
    page.goto(url + "/?variant=four-hand-80&deals=20000000&hand="
              + find_variant("four-hand-80").example_hand.replace(" ", "+"))
    expect(page.locator("#status")).to_contain_text("running", timeout=WAIT)
    page.click("#cancel")
    expect(page.locator("#status")).to_have_text("cancelled", timeout=WAIT)
    assert page.locator("#answer .p-make").count() == 0


def test_leaving_the_page_or_the_request_cancels_its_run(url, page, server):
    jobs = server[1]
    hand = find_variant("four-hand-80").example_hand.replace(" ", "+")
    page.goto(url + f"/?deals=20000000&hand={hand}")
    expect(page.locator("#status")).to_contain_text("running", timeout=WAIT)
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
