"""The page's JSON API (starlette's test client): every answer is the CLI's ``--format json``
document field for field at the same seed, bad input is HTTP 400 with the CLI's one line, a
full queue is 503 "busy", and a run can be followed and cancelled."""

from __future__ import annotations

import json
import threading
import time

import pytest
from markupsafe import escape
from starlette.testclient import TestClient

from binokel_sim.web import create_app
from binokel_sim.web.jobs import Jobs
from binokel_sim.web.questions import Limits
from tests.conftest import invoke, ok


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(Limits(max_deals=200_000, max_sampling_deals=20))) as c:
        yield c


def cli_json(*args: str) -> dict:
    return json.loads(ok(*args, "--format", "json").stdout)


@pytest.mark.parametrize("args", [
    {"deals": "3000", "seed": "5"},
    {"deals": "2000", "seed": "2", "trump": "H", "known": "partner:AS AS", "void": "left:H"},
    {"deals": "2000", "seed": "3", "auction": "50 pass 51", "dealer": "right"},
    {"variant": "swabian-3-40", "deals": "2000", "seed": "4"},
    {"variant": "swabian-3-40", "deals": "2000", "seed": "6", "dealer": "left"},
    {"variant": "three-hand-auction-48", "deals": "2000", "seed": "4"},
    {"variant": "kreuz-4-40", "deals": "2000", "seed": "8", "dealer": "partner"},
    {},  # every default, the deals included: the API answers as the CLI does
])
def test_bid_odds_is_the_cli_document(client, args):
    reply = client.get("/api/bid-odds", params=args)
    assert reply.status_code == 200, reply.text
    cli = [item for key, value in args.items() for item in (f"--{key}", value)]
    assert reply.json() == cli_json("bid-odds", *cli)


def test_deal_odds_and_analyze_are_the_cli_documents(client):
    args = {"variant": "two-hand-48", "deals": "2000", "seed": "9", "seat": "dealer",
            "hand": "AS TS KS QS QS JS 9S KH QH AD JD AC", "turned": "9D"}
    reply = client.get("/api/deal-odds", params=args)
    assert reply.status_code == 200, reply.text
    cli = [item for key, value in args.items() for item in (f"--{key}", value)]
    assert reply.json() == cli_json("deal-odds", *cli)
    reply = client.get("/api/analyze", params={"variant": "binokel-2"})
    assert reply.json() == cli_json("analyze", "--variant", "binokel-2")
    assert client.get("/api/variants").json() == cli_json("variants")


@pytest.mark.parametrize("path, params, line", [
    ("/api/bid-odds", {"hand": "AS AS"}, "the hand has 2 cards; a four-hand-80 hand has 20"),
    ("/api/bid-odds", {"hand": "AS XX"}, "unknown card 'XX'"),
    ("/api/bid-odds", {"variant": "nope"}, "unknown variant 'nope'"),
    ("/api/bid-odds", {"deals": "200001"}, "above this server's limit of 200,000"),
    ("/api/bid-odds", {"policy": "sampling", "deals": "21"}, "limit of 20 with the sampling"),
    ("/api/bid-odds", {"known": "partner:AS AS AS"}, "--known: more copies of AS"),
    ("/api/bid-odds", {"deals": "ten"}, "--deals: expected a whole number"),
    ("/api/bid-odds", {"colour": "red"}, "unknown parameter 'colour'"),
    ("/api/bid-odds", {"variant": "two-hand-48"}, "has no auction"),
    ("/api/deal-odds", {"variant": "two-hand-48", "hand": "AS TS KS QS QS JS 9S KH QH AD JD AC"},
     "give --turned with --hand"),
    ("/api/analyze", {"hand": "AS", "deals": "5"}, "analyze reads only variant and hand"),
    ("/api/bid-odds", {"hand": ""}, "parameter 'hand' is empty"),
    ("/api/deal-odds", {"variant": "two-hand-48", "policy": "heuristic+solver", "deals": "21"},
     "limit of 20 with the heuristic+solver policy"),
])
def test_bad_input_is_400_with_the_cli_line(client, path, params, line):
    reply = client.get(path, params=params)
    assert reply.status_code == 400
    assert line in reply.json()["error"]
    assert "\n" not in reply.json()["error"]
    cli_args = [a for k, v in params.items() for a in (f"--{k}", v)]
    if path == "/api/bid-odds" and "colour" not in params and "deals" not in params \
            and params.get("hand") != "":
        assert line in invoke("bid-odds", *cli_args).stderr  # the CLI's own line


def test_a_job_reports_progress_and_its_view_and_document(client):
    started = client.post("/api/jobs", params={"command": "bid-odds", "deals": "20000",
                                               "seed": "3"})
    assert started.status_code == 202
    job = started.json()["job"]
    while (status := client.get(f"/api/jobs/{job}").json())["state"] in ("queued", "running"):
        time.sleep(0.05)
    assert status["state"] == "done" and status["done"] == status["total"] == 20000
    assert status["document"] == cli_json("bid-odds", "--deals", "20000", "--seed", "3")
    view = client.get(f"/jobs/{job}/view").text
    for trump, info in status["document"]["by_trump"].items():
        assert f'data-trump="{trump}" data-value="{info["p_make_min_bid"]}"' in view
    assert view.count("data:image/png;base64,") >= 2  # the bid curve and the score, as report
    assert client.post("/api/jobs", params={"command": "nope"}).status_code == 400
    twice = client.post("/api/jobs?command=bid-odds&command=deal-odds")
    assert twice.status_code == 400 and "give command once" in twice.json()["error"]
    body = client.post("/api/jobs", params={"command": "bid-odds"}, data={"deals": "10"})
    assert body.status_code == 400 and "not in the body" in body.json()["error"]
    time.sleep(0.3)  # a finished run's time stands still
    assert client.get(f"/api/jobs/{job}").json()["seconds"] == status["seconds"]
    assert client.get("/api/jobs/0-0").status_code == 404
    assert client.head("/api/bid-odds").status_code == 405  # no run for a HEAD


def test_the_page_shows_the_melds_and_the_cli_error_line(client):
    page = client.get("/", params={"variant": "binokel-2", "turned": "9H", "deals": "500",
                                   "hand": "AS TS KS QS JS 9S KH QH AD JD AC TC"})
    assert page.status_code == 200
    assert 'data-autorun="1"' in page.text and "The melds of the hand" in page.text
    assert page.text.count('class="card') == 24  # the 48-card deck: 24 types, copies shown
    assert 'name="turned"' in page.text and 'name="dealer"' not in page.text  # a talon game
    kreuz = client.get("/", params={"variant": "kreuz-4-40"}).text
    assert 'data-autorun="0"' in kreuz  # no hand in the URL: the example, not run
    assert all(f'<option value="{seat}"' in kreuz for seat in ("me", "left", "partner", "right"))
    for params, line in (({"deals": "-5"}, "--deals must be at least 1, got -5"),
                         ({"policy": "best"}, "unknown policy 'best'"),
                         ({"variant": "two-hand-48", "hand": "AS TS KS QS QS JS 9S KH QH AD JD "
                           "AC"}, "give --turned with --hand")):
        shown = client.get("/", params=params).text  # checked before any run, shown at once
        assert str(escape(line)) in shown and 'data-autorun="0"' in shown
    bad = client.get("/", params={"hand": "AS KS"}).text
    assert 'class="error"' in bad and "the hand has 2 cards" in bad and 'data-autorun="0"' in bad


def test_a_cancelled_run_stops_and_a_full_queue_is_busy():
    jobs = Jobs(workers=1, waiting=1)
    gate = threading.Event()

    def slow(job):
        for done in range(1000):
            job.progress(done, 1000)
            gate.wait(0.01)
        return "finished"

    first = jobs.submit(1000, slow, ())
    second = jobs.submit(1000, slow, ())
    with pytest.raises(Exception, match="the server is busy"):
        jobs.submit(1000, slow, ())
    jobs.cancel(second.id)  # queued: never starts
    jobs.cancel(first.id)  # running: stops at its next progress call
    first.future.result(timeout=10)
    assert first.state == "cancelled" and first.done < 1000
    assert second.state == "cancelled"
    third = jobs.submit(10, lambda job: "finished", ())
    assert third.future.result(timeout=10) == "finished" and third.state == "done"
    jobs.shutdown()


def test_a_queued_sync_request_whose_run_is_cancelled_gets_409():
    with TestClient(create_app(Limits(max_deals=5_000_000), waiting=1)) as c:
        long = c.post("/api/jobs", params={"command": "bid-odds", "deals": "5000000"}).json()
        replies = []
        waiting = threading.Thread(target=lambda: replies.append(
            c.get("/api/bid-odds", params={"deals": "1000"})))
        waiting.start()
        jobs = c.app.state.jobs
        deadline = time.monotonic() + 30
        while not (queued := [j for j in jobs._jobs.values() if j.state == "queued"]):
            assert time.monotonic() < deadline
            time.sleep(0.02)
        c.delete(f"/api/jobs/{queued[0].id}")
        waiting.join(timeout=60)
        assert replies[0].status_code == 409 and replies[0].json()["state"] == "cancelled"
        c.delete(f"/api/jobs/{long['job']}")


def test_the_api_cancels_a_run_in_the_kernels():
    with TestClient(create_app(Limits(max_deals=5_000_000), waiting=0)) as c:
        started = c.post("/api/jobs", params={"command": "bid-odds", "deals": "5000000"}).json()
        busy = c.post("/api/jobs", params={"command": "bid-odds", "deals": "1000"})
        assert busy.status_code == 503 and "busy" in busy.json()["error"]
        while c.get(f"/api/jobs/{started['job']}").json()["state"] == "queued":
            time.sleep(0.02)
        assert c.delete(f"/api/jobs/{started['job']}").status_code == 200
        deadline = time.monotonic() + 60
        while (status := c.get(f"/api/jobs/{started['job']}").json())["state"] == "running":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert status["state"] == "cancelled" and status["done"] < 5_000_000


def test_serve_without_the_extra_is_one_line():
    """Without starlette (the extra ``[web]``), ``serve`` says how to install it: one line,
    exit 1, no traceback."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['starlette'] = None; sys.argv = ['binokel-sim', 'serve']; "
            "from binokel_sim.cli import main; main()")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip() == ('error: serve needs the web extra (starlette is not '
                                   'installed): pip install "binokel-sim[web]"')


def test_serve_on_a_taken_port_is_one_line():
    import socket

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = invoke("serve", "--port", str(port))
    assert result.exit_code == 1
    assert result.stderr.strip() == (f"error: cannot listen on 127.0.0.1:{port} (Address "
                                     f"already in use); choose another with --port or --host")
    result = invoke("serve", "--host", "no-such-host.invalid")
    assert result.exit_code == 1 and "cannot listen on no-such-host.invalid:8765" in result.stderr
