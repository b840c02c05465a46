"""The page's JSON API (starlette's test client): every answer is the CLI's ``--format json``
document field for field at the same seed, bad input is HTTP 400 with the CLI's one line, a
full queue is 503 "busy", and a run can be followed and cancelled. /openapi.json describes every
option of bid-odds and deal-odds with the CLI's type and default; a foreign Host is 403; ended
runs are kept in a bounded number; a run past --max-seconds stops with a line."""

from __future__ import annotations

import json
import re
import threading
import time

import pytest
from markupsafe import escape
from starlette.testclient import TestClient

from binokel_sim.cli.serve import cli_options
from binokel_sim.errors import SimulationError
from binokel_sim.web import create_app
from binokel_sim.web.app import MAX_BODY, Hosts
from binokel_sim.web.jobs import KEPT, Jobs
from binokel_sim.web.openapi import CLI_ONLY, Option, check_options
from binokel_sim.web.questions import DEFAULTS, Limits
from tests.conftest import invoke, ok

BASE = "http://127.0.0.1:8765"  # the address the app serves (another Host is refused)


def app_of(limits: Limits, **options):
    return create_app(cli_options(), limits, **options)


@pytest.fixture(scope="module")
def client():
    with TestClient(app_of(Limits(max_deals=200_000, max_sampling_deals=20)),
                    base_url=BASE) as c:
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
    {"deals": "2000", "seed": "5", "bid": "120"},  # --bid: that bid's odds per trump
    {"deals": "2000", "seed": "5", "bid": "300", "trump": "S"},  # above every listed row
    {"variant": "swabian-3-40", "deals": "2000", "seed": "4", "bid": "400"},
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
    ("/api/bid-odds", {"deals": "ten"}, "--deals: 'ten' is not a whole number written with "
     "the digits 0-9"),
    ("/api/bid-odds", {"colour": "red"}, "unknown parameter 'colour'"),
    ("/api/bid-odds", {"variant": "two-hand-48"}, "has no auction"),
    ("/api/deal-odds", {"variant": "two-hand-48", "hand": "AS TS KS QS QS JS 9S KH QH AD JD AC"},
     "give --turned with --hand"),
    ("/api/analyze", {"hand": "AS", "deals": "5"}, "analyze reads only variant and hand"),
    ("/api/bid-odds", {"hand": ""}, "parameter 'hand' is empty"),
    ("/api/deal-odds", {"variant": "two-hand-48", "policy": "heuristic+solver", "deals": "21"},
     "limit of 20 with the heuristic+solver policy"),
    ("/api/bid-odds", {"bid": "103"}, "--bid 103 is not a bid in four-hand-80; the nearest are "
     "100 and 105"),
    ("/api/bid-odds", {"bid": "10"}, "--bid 10: the lowest bid in four-hand-80 is 50"),
    ("/api/deal-odds", {"bid": "100"}, "deal-odds in two-hand-48 does not read bid"),
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
    assert 'data-autorun="1"' in page.text and "Melds in your hand" in page.text
    assert page.text.count('class="card') == 24  # the 48-card deck: 24 types, copies shown
    assert 'name="turned"' in page.text and 'name="dealer"' not in page.text  # a talon game
    kreuz = client.get("/", params={"variant": "kreuz-4-40"}).text
    assert 'data-autorun="0"' in kreuz  # no hand in the URL: the example, not run
    assert all(f'<option value="{seat}"' in kreuz for seat in ("me", "left", "partner", "right"))
    for params, line in (({"deals": "-5"}, "--deals must be at least 1, got -5"),
                         ({"policy": "best"}, "unknown policy 'best'"),
                         ({"variant": "two-hand-48", "hand": "AS TS KS QS QS JS 9S KH QH AD JD "
                           "AC"}, "give --turned with --hand")):
        shown = client.get("/", params=params)  # checked before any run, shown at once
        assert shown.status_code == 400
        assert str(escape(line)) in shown.text and 'data-autorun="0"' in shown.text
    bad = client.get("/", params={"hand": "AS KS"})
    assert bad.status_code == 400 and 'class="error"' in bad.text
    assert "the hand has 2 cards" in bad.text and 'data-autorun="0"' in bad.text


def test_the_page_speaks_a_players_words_and_offers_each_variant_its_seats(client):
    seats = {"two-hand-48": ["other"], "three-hand-auction-48": ["left", "right"],
             "four-hand-80": ["left", "partner", "right"]}
    for variant, names in seats.items():
        text = client.get("/", params={"variant": variant}).text
        offered = [n for n in ("other", "left", "partner", "right") if f"<code>{n}" in text]
        assert offered == names, variant
        assert 'name="bid"' in text if variant != "two-hand-48" else 'name="bid"' not in text
    deals = next(o.default for o in cli_options()["bid-odds"] if o.name == "deals")
    four = client.get("/", params={"variant": "four-hand-80"}).text
    shown = re.search(r'name="deals"[^>]*value="(\d+)"', four)
    assert shown and int(shown.group(1)) == deals  # the page's form starts at the CLI's deals
    swabian = client.get("/", params={"variant": "swabian-3-40"}).text
    assert "Familie in trump" in swabian and "trump_familie" not in swabian
    assert "aces around" in swabian and "aces_around" not in swabian


NON_ASCII = [  # int() refuses '¹' and '²' although str.isdigit() takes them (the old 500s)
    ("bid-odds", {"known": "¹:AS"}, "--known: unknown seat '¹'"),
    ("bid-odds", {"void": "²:H"}, "--void: unknown seat '²'"),
    ("bid-odds", {"variant": "kreuz-4-40", "dealer": "²"}, "--dealer: unknown seat '²'"),
    ("bid-odds", {"auction": "50", "dealer": "¹"}, "--dealer: unknown seat '¹'"),
    ("deal-odds", {"variant": "two-hand-48", "known": "¹:AS"}, "--known: unknown seat '¹'"),
    ("bid-odds", {"deals": "٣"}, "--deals: '٣' is not a whole number written with the digits"),
    ("bid-odds", {"seed": "¹"}, "--seed: '¹' is not a whole number written with the digits"),
    ("bid-odds", {"bid": "²"}, "--bid: '²' is not a whole number written with the digits"),
]


@pytest.mark.parametrize("command, params, line", NON_ASCII)
def test_non_ascii_digits_are_400_on_the_page_and_the_api(client, command, params, line):
    for reply in (client.get(f"/api/{command}", params=params),
                  client.post("/api/jobs", params={"command": command, **params})):
        assert reply.status_code == 400 and reply.json()["error"].startswith(line)
    page = client.get("/", params=params)
    assert page.status_code == 400 and 'id="error"' in page.text
    assert str(escape(line)) in page.text and 'data-autorun="0"' in page.text
    cli = invoke(command, *[a for k, v in params.items() for a in (f"--{k}", v)])
    assert cli.exit_code in (1, 2) and "Traceback" not in cli.stderr
    # the CLI's own line (a number's: click's usage error, with the same words)
    assert line.split(": ", 1)[1] in cli.stderr


def test_openapi_describes_every_cli_option_with_its_type_and_default(client):
    """Every option of bid-odds and deal-odds, read from the click command itself, is a
    parameter of its route with the CLI's type and default, or named as one the API does not
    take (x-cli-only, with the reason); the API's own defaults are the CLI's."""
    import typer.main

    from binokel_sim.cli.base import app

    api = client.get("/openapi.json").json()
    assert api["openapi"].startswith("3.") and "/api/jobs" in api["paths"]
    kinds = {"int": "integer", "float": "number", "boolean": "boolean"}
    group = typer.main.get_command(app)
    for command in ("bid-odds", "deal-odds"):
        operation = api["paths"][f"/api/{command}"]["get"]
        parameters = {p["name"]: p for p in operation["parameters"]}
        seen = set()
        for param in group.get_command(None, command).params:
            name = max(param.opts, key=len).lstrip("-").replace("-", "_")
            seen.add(name)
            if name in operation["x-cli-only"]:
                assert operation["x-cli-only"][name] == CLI_ONLY[name]
                continue
            schema = parameters[name]["schema"]
            if param.multiple:
                assert schema["type"] == "array"
                schema = schema["items"]
            assert schema["type"] == kinds.get(param.type.name, "string"), name
            assert schema.get("default") == param.default, name
            assert max(param.opts, key=len) in parameters[name]["description"]
            if name in DEFAULTS[command]:  # what the API does without it
                assert DEFAULTS[command][name] == param.default
        assert seen == set(parameters) | set(operation["x-cli-only"])
    assert {"bid", "known", "void", "auction", "dealer"} <= {
        p["name"] for p in api["paths"]["/api/bid-odds"]["get"]["parameters"]}
    page = client.get("/api")
    assert page.status_code == 200 and "/openapi.json" in page.text and "--bid" in page.text


def test_an_undescribed_cli_option_fails_loudly():
    options = {**cli_options()}
    options["bid-odds"] = [*options["bid-odds"], Option("colour", "--colour", "string",
                                                        None, "A new option.")]
    with pytest.raises(ValueError, match="--colour: neither an API parameter"):
        check_options(options)
    options = {**cli_options()}
    options["deal-odds"] = [o if o.name != "seat" else Option("seat", "--seat", "string",
                                                              "dealer", "")
                            for o in options["deal-odds"]]
    with pytest.raises(ValueError, match="the API's default 'elder' is not the CLI's"):
        check_options(options)


def test_a_foreign_host_is_403(client):
    refused = client.get("/", headers={"Host": "evil.example:8765"})
    assert refused.status_code == 403
    assert refused.json() == {"error": "the Host header 'evil.example:8765' is not an address "
                                       "this server serves"}
    assert client.get("/api/variants", headers={"Host": "127.0.0.1.nip.io"}).status_code == 403
    for host in ("localhost:8765", "127.0.0.1", "[::1]:8765", "LOCALHOST."):
        assert client.get("/api/variants", headers={"Host": host}).status_code == 200, host
    every = Hosts.serving("0.0.0.0", ("mybox.lan",))
    assert every.allows("192.168.1.5:8765") and every.allows("[fe80::1]:8765")
    assert every.allows("mybox.lan:8765") and not every.allows("evil.example")
    one = Hosts.serving("192.168.1.5")
    assert one.allows("192.168.1.5:80") and not one.allows("10.0.0.1") and not one.allows(None)


def test_a_large_body_is_413_and_any_body_400(client):
    big = client.post("/api/jobs", params={"command": "bid-odds"}, content=b"x" * (MAX_BODY + 1))
    assert big.status_code == 413 and "the API reads its parameters from the URL" in \
        big.json()["error"]
    small = client.post("/api/jobs", params={"command": "bid-odds"}, content=b"x")
    assert small.status_code == 400 and "not in the body" in small.json()["error"]


def test_ended_runs_kept_are_bounded():
    """Runs cancelled while a long one runs are forgotten beyond KEPT, oldest first."""
    jobs = Jobs(workers=1, waiting=1)
    gate = threading.Event()
    long = jobs.submit(10, lambda job: gate.wait(30), ())
    for _ in range(3 * KEPT):
        jobs.cancel(jobs.submit(10, lambda job: "never", ()).id)
    assert jobs.kept() <= KEPT + 2
    assert jobs.get(long.id) is not None  # a running one is never forgotten
    gate.set()
    long.future.result(timeout=10)
    jobs.shutdown()


def test_a_run_past_its_seconds_stops_with_a_line():
    jobs = Jobs(workers=1, waiting=0)

    def slow(job):
        for done in range(100):
            job.progress(done, 100)
            time.sleep(0.02)
        return "finished"

    job = jobs.submit(100, slow, (SimulationError,), seconds=0.2)
    job.future.result(timeout=10)
    assert job.state == "failed" and job.done < 100
    assert job.error.startswith("the run was stopped after 0.2 s, this server's limit "
                                "(serve --max-seconds)")
    jobs.shutdown()
    with TestClient(app_of(Limits(max_deals=20_000_000, max_seconds=0.5)), base_url=BASE) as c:
        reply = c.get("/api/bid-odds", params={"deals": "20000000"})
        assert reply.status_code == 400 and "stopped after 0.5 s" in reply.json()["error"]


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
    with TestClient(app_of(Limits(max_deals=5_000_000), waiting=1), base_url=BASE) as c:
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
    with TestClient(app_of(Limits(max_deals=5_000_000), waiting=0), base_url=BASE) as c:
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
