"""``binokel-sim serve`` as a process: it says where the page is only once it listens (a client
that connects on that line is answered), refuses a foreign Host (403) and an oversized body
before reading it (413), logs no traceback when a client goes away or on Ctrl-C, and stops on
Ctrl-C with exit 0 and one line."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import invoke

ROOT = Path(__file__).resolve().parents[1]


def start(*args: str) -> tuple[subprocess.Popen, int, str]:
    """``serve --port 0`` (a free port) started; returns it, its port and its first line."""
    server = subprocess.Popen([sys.executable, "-m", "binokel_sim.cli", "serve", "--port", "0",
                               *args], cwd=ROOT, stderr=subprocess.PIPE,
                              stdout=subprocess.DEVNULL, text=True)
    line = server.stderr.readline()
    match = re.fullmatch(r"binokel-sim: the page is at http://127\.0\.0\.1:(\d+)/ \(Ctrl-C "
                         r"stops\)\n", line)
    assert match, line + server.stderr.read()[-2000:] if server.poll() is not None else line
    return server, int(match.group(1)), line


def ask(port: int, request: str, timeout: float = 10) -> bytes:
    """The raw request's reply (what arrives until the server closes or ``timeout``)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as raw:
        raw.sendall(request.encode())
        reply = b""
        try:
            while chunk := raw.recv(65536):
                reply += chunk
                if b"\r\n\r\n" in reply and b"content-length" in reply.lower():
                    head, _, body = reply.partition(b"\r\n\r\n")
                    size = int(re.search(rb"content-length: (\d+)", head.lower()).group(1))
                    if len(body) >= size:
                        break
        except TimeoutError:
            pass
    return reply


def stop(server: subprocess.Popen) -> str:
    server.send_signal(signal.SIGINT)
    return server.communicate(timeout=60)[1]


def test_serve_listens_before_it_says_so_guards_and_stops_without_a_traceback():
    server, port, _ = start()
    try:
        host = f"Host: 127.0.0.1:{port}\r\n"
        # at once on the line: answered, not refused
        page = ask(port, f"GET / HTTP/1.1\r\n{host}Connection: close\r\n\r\n")
        assert page.startswith(b"HTTP/1.1 200") and b"binokel-sim" in page
        foreign = ask(port, "GET /api/variants HTTP/1.1\r\nHost: evil.example\r\n"
                            "Connection: close\r\n\r\n")
        assert foreign.startswith(b"HTTP/1.1 403") and b"not an address this server" in foreign
        # 256 MiB announced, two bytes sent: refused at once, nothing waits for the rest
        started = time.monotonic()
        big = ask(port, f"POST /api/jobs?command=bid-odds HTTP/1.1\r\n{host}"
                        f"Content-Length: {256 * 2**20}\r\n\r\nxx")
        assert big.startswith(b"HTTP/1.1 413") and time.monotonic() - started < 5
        chunked = ask(port, f"POST /api/jobs?command=bid-odds HTTP/1.1\r\n{host}"
                            f"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n")
        assert chunked.startswith(b"HTTP/1.1 400") and b"not in the body" in chunked
        # clients that go away: in the middle of a body, and during a run
        with socket.create_connection(("127.0.0.1", port)) as raw:
            raw.sendall(f"POST /api/jobs?command=bid-odds HTTP/1.1\r\n{host}"
                        f"Content-Length: 1000\r\n\r\nxx".encode())
        with socket.create_connection(("127.0.0.1", port)) as raw:
            raw.sendall(f"GET /api/bid-odds?deals=1000000 HTTP/1.1\r\n{host}\r\n".encode())
            time.sleep(1)
        # a run in flight when Ctrl-C comes
        waiting = socket.create_connection(("127.0.0.1", port))
        waiting.sendall(f"GET /api/bid-odds?deals=1000000&seed=2 HTTP/1.1\r\n{host}\r\n"
                        .encode())
        time.sleep(1)
    finally:
        rest = stop(server)
    waiting.close()
    assert server.returncode == 0, rest
    assert "Traceback" not in rest and "ClientDisconnect" not in rest, rest
    assert rest == "binokel-sim: the page is stopped\n", rest


# ``python -m binokel_sim.cli`` once the interpreter itself is up: a mark on stderr first, so
# that the Ctrl-C below lands in the program's start, not in CPython's own (site's imports,
# which print KeyboardInterrupt's traceback before any of the program runs)
STARTED = ("import runpy, sys; print('started', file=sys.stderr, flush=True); "
           "sys.argv[0] = 'binokel-sim'; runpy.run_module('binokel_sim.cli', run_name='__main__')")


@pytest.mark.parametrize("delay", [0.2, 0.6])
def test_ctrl_c_while_serve_starts_is_one_line(delay):
    """Ctrl-C before the page is up (``delay`` seconds after the program began): one line and
    exit 130 (or, once it listens, exit 0); never uvicorn's startup failure (exit 3) or a
    traceback."""
    server = subprocess.Popen([sys.executable, "-c", STARTED, "serve", "--port", "0"],
                              cwd=ROOT, stderr=subprocess.PIPE, text=True)
    assert server.stderr.readline() == "started\n"
    time.sleep(delay)
    rest = stop(server)
    assert server.returncode in (0, 130) and "Traceback" not in rest, rest


# A Ctrl-C that Python could not raise: a KeyboardInterrupt in a __del__ (as in an import lock's
# weakref callback while a module loads) goes to sys.unraisablehook, and the program went on.
LOST_CTRL_C = ("import sys; sys.argv[0] = 'binokel-sim'; import binokel_sim.cli as cli\n"
               "class Lost:\n    def __del__(self): raise KeyboardInterrupt\n"
               "Lost()\n"
               "{run}")


@pytest.mark.parametrize("run, line, code", [
    ("cli.main()", "stopped by Ctrl-C\n", 130),  # before the command begins
    ("cli.app(prog_name='binokel-sim')", "binokel-sim: stopped before the page was up\n",
     0),  # serve's own look, before the server runs
])
def test_a_ctrl_c_python_could_not_raise_still_stops_serve(run, line, code):
    done = subprocess.run([sys.executable, "-c", LOST_CTRL_C.format(run=run), "serve",
                           "--port", "0"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert (done.returncode, done.stderr) == (code, line)


def test_serve_bounds_are_checked_and_said_in_its_help():
    result = invoke("serve", "--max-seconds", "0")
    assert result.exit_code == 1
    assert result.stderr.strip() == ("error: --max-seconds must be a number of seconds above "
                                     "0, got 0")
    result = invoke("serve", "--allow-host", "http://x/")
    assert result.exit_code == 1 and "give a host name" in result.stderr
    text = " ".join(invoke("serve", "-h").stdout.split())
    for bound in ("--max-deals", "--max-seconds", "--runs", "--queue", "64 ended runs",
                  "64 KiB (413)", "Host header: 403", "--allow-host"):
        assert bound in text, bound
