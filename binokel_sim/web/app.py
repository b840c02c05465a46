"""The page and its JSON API (Starlette): routes, and what each answers.

- ``GET /``: the page (server-rendered, :mod:`.page`); its state is the URL's query (variant,
  hand, seed, deals and the other options), so a link reproduces the answer.
- ``GET /api/variants``: ``binokel-sim variants --format json``.
- ``GET /api/analyze``, ``/api/bid-odds``, ``/api/deal-odds``: the CLI's ``--format json``
  documents, field for field (:mod:`binokel_sim.documents`), run in the bounded pool.
- ``POST /api/jobs?command=bid-odds&...``: the same run in the background (202 and its id);
  ``GET /api/jobs/ID`` its progress (and, done, its ``document``), ``DELETE /api/jobs/ID``
  cancels it, ``GET /jobs/ID/view`` the page's HTML of its answer.
- ``GET /openapi.json``: the API described (:mod:`.openapi`, from the CLI's own options);
  ``GET /api``: the same for people.

Bad input is HTTP 400 with ``{"error": the CLI's one line}``; a full queue is 503 with a line
saying the server is busy. Before any route, :class:`Guard` refuses a request whose ``Host``
header names no address this server serves (403: a page elsewhere cannot reach it through DNS
rebinding) and one whose body is larger than :data:`MAX_BODY` (413, before the body is read),
and a client that goes away ends its request quietly.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import socket
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib.resources import files

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from binokel_sim import __version__, compile_notice
from binokel_sim.errors import DOMAIN_ERRORS, SimulationError
from binokel_sim.web import page
from binokel_sim.web.jobs import KEPT, Busy, Jobs
from binokel_sim.web.openapi import Option, describe
from binokel_sim.web.questions import COMMANDS, Limits, analyze, params_of, question

MAX_BODY = 64 * 1024  # bytes: the API reads its parameters from the URL, never from a body
LOOPBACK = ("127.0.0.1", "localhost", "::1")


@dataclass(frozen=True)
class Hosts:
    """The names a request's ``Host`` header may give (its port aside): ``names``, and with
    ``any_address`` every IP address too (a server on every interface is reached by address;
    an address, unlike a name, cannot be rebound by DNS)."""

    names: frozenset[str]
    any_address: bool = False

    @classmethod
    def serving(cls, host: str, extra: tuple[str, ...] = ()) -> Hosts:
        """The names of a server listening on ``host``: the loopback names for a loopback
        address, every address and this machine's names for every interface (``0.0.0.0``,
        ``::``, ``""``), else ``host`` itself; and the names in ``extra``."""
        host = _hostname(host)
        names = {host, *(_hostname(name) for name in extra)}
        wildcard = host in ("", "0.0.0.0", "::")
        if host in LOOPBACK or wildcard:
            names.update(LOOPBACK)
        if wildcard:
            names.update(_hostname(n) for n in (socket.gethostname(), socket.getfqdn()))
        names.discard("")
        return cls(frozenset(names), wildcard)

    def allows(self, header: str | None) -> bool:
        if not header:
            return False
        name = _hostname(header, port=True)
        if name in self.names:
            return True
        if not self.any_address:
            return False
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return True


def _hostname(text: str, port: bool = False) -> str:
    """A host name as compared: lower case, no trailing dot, an IPv6 address without its
    brackets, and with ``port`` the ``:PORT`` of a Host header left off."""
    text = text.strip().lower()
    if text.startswith("["):
        return text[1:].split("]", 1)[0]
    if port and text.count(":") == 1:
        text = text.rsplit(":", 1)[0]
    return text.rstrip(".")


class Guard:
    """ASGI middleware in front of every route: a foreign ``Host`` is 403, a body larger than
    :data:`MAX_BODY` (by its ``Content-Length``) is 413 before a byte of it is read, and a
    client that went away (:class:`~starlette.requests.ClientDisconnect`) ends its request
    without an answer and without a traceback in the log."""

    def __init__(self, app, hosts: Hosts) -> None:
        self.app, self.hosts = app, hosts

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        if not self.hosts.allows(headers.get("host")):
            await _refuse(send, 403, f"the Host header {headers.get('host', '')!r} is not an "
                                     f"address this server serves")
            return
        length = headers.get("content-length", "0").strip()
        if not (length.isascii() and length.isdigit()) or int(length) > MAX_BODY:
            await _refuse(send, 413, f"a request body of {length} bytes is more than this "
                                     f"server reads ({MAX_BODY:,}); the API reads its "
                                     f"parameters from the URL's query")
            return
        try:
            await self.app(scope, receive, send)
        except ClientDisconnect:
            return  # no one is left to answer


async def _refuse(send, status: int, line: str) -> None:
    body = json.dumps({"error": line}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


def create_app(options: dict[str, list[Option]], limits: Limits = Limits(), workers: int = 1,
               waiting: int = 4, threads: int | None = None,
               hosts: Hosts = Hosts.serving("127.0.0.1")) -> Starlette:
    """The application: ``workers`` runs at a time, ``waiting`` more queued, each run on
    ``threads`` of numba's threads (None: all) and within ``limits``; requests only for
    ``hosts``. ``options``: the CLI's options of ``bid-odds``, ``deal-odds`` and ``analyze``
    (:func:`binokel_sim.cli.serve.cli_options`), which ``/openapi.json`` describes."""
    api = describe(options, limits, __version__)
    jobs = Jobs(workers, waiting)

    def error(exc: Exception, status: int = 400) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=503 if isinstance(exc, Busy)
                            else status)

    def submit(command: str, params: dict):
        asked = question(command, params, limits, threads)

        def work(job):
            # a cold kernel cache: the job's note says the engine compiles first, as the CLI's
            # line on stderr does
            compile_notice.expect(asked.command, asked.rules, job.say, (asked.policy,))
            try:
                return page.answer(asked, job.progress)
            finally:
                compile_notice.done()

        return asked, jobs.submit(asked.deals, work, DOMAIN_ERRORS, limits.max_seconds)

    async def home(request: Request) -> Response:
        html, bad = page.render_page(request.query_params, limits)
        return HTMLResponse(html, status_code=400 if bad else 200)  # the line shown at the top

    async def variants(request: Request) -> Response:
        return JSONResponse(page.variants_document())

    async def analyze_api(request: Request) -> Response:
        try:
            return JSONResponse(analyze(params_of(request.query_params, empty=False)))
        except DOMAIN_ERRORS as exc:
            return error(exc)

    async def odds_api(request: Request) -> Response:
        if request.method == "HEAD":  # a run, not a resource to check for
            return Response(status_code=405, headers={"Allow": "GET"})
        command = request.url.path.rsplit("/", 1)[1]
        try:
            _, job = submit(command, params_of(request.query_params, empty=False))
        except DOMAIN_ERRORS as exc:
            return error(exc)
        finished = asyncio.ensure_future(_wait(job))
        gone = asyncio.ensure_future(_disconnected(request))
        try:
            await asyncio.wait((finished, gone), return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:  # the server stops (Ctrl-C): so does the run
            jobs.cancel(job.id)
            finished.cancel()
            return JSONResponse({"error": "the server is stopping; the run was cancelled"},
                                status_code=503)
        finally:
            gone.cancel()
        if not finished.done():  # the client went away: so does its run
            jobs.cancel(job.id)
            finished.cancel()
            return Response(status_code=499)
        if job.state != "done":
            code = 500 if job.internal else 400 if job.state == "failed" else 409
            return JSONResponse(job.status(), status_code=code)
        return JSONResponse(job.value.document)

    async def start_job(request: Request) -> Response:
        commands = request.query_params.getlist("command")
        try:
            # refused by its headers: the body is never read (Guard bounds its size too)
            if request.headers.get("content-length", "0").strip() not in ("", "0") \
                    or "transfer-encoding" in request.headers:
                raise SimulationError("send the parameters in the URL's query, not in the body")
            if len(commands) != 1 or commands[0] not in COMMANDS:
                raise SimulationError(f"give command once: {' or '.join(COMMANDS)} (got "
                                      f"{', '.join(commands) or 'none'})")
            _, job = submit(commands[0], params_of(request.query_params, empty=False,
                                                   skip=("command",)))
        except DOMAIN_ERRORS as exc:
            return error(exc)
        return JSONResponse(job.status(), status_code=202)

    def _job(request: Request):
        return jobs.get(request.path_params["job"])

    gone = f"no such run (the last {KEPT} ended runs are kept)"

    async def job_status(request: Request) -> Response:
        job = _job(request)
        if job is None:
            return JSONResponse({"error": gone}, status_code=404)
        status = job.status()
        if job.state == "done":
            status["document"] = job.value.document
        return JSONResponse(status)

    async def job_cancel(request: Request) -> Response:
        job = jobs.cancel(request.path_params["job"])
        if job is None:
            return JSONResponse({"error": "no such run"}, status_code=404)
        return JSONResponse(job.status())

    async def job_view(request: Request) -> Response:
        job = _job(request)
        if job is None:
            return HTMLResponse(page.error_html(gone), status_code=404)
        if job.state == "failed":
            return HTMLResponse(page.error_html(job.error), status_code=400)
        if job.state != "done":
            return HTMLResponse(page.error_html(f"the run is {job.state}"), status_code=409)
        return HTMLResponse(page.render_answer(job.value))

    async def openapi(request: Request) -> Response:
        return JSONResponse(api)

    async def api_page(request: Request) -> Response:
        return HTMLResponse(page.render_api(api))

    @asynccontextmanager
    async def lifespan(app):
        yield
        jobs.shutdown()

    static = StaticFiles(directory=str(files("binokel_sim.web") / "static"))
    routes = [
        Route("/", home),
        Route("/api", api_page),
        Route("/openapi.json", openapi),
        Route("/api/variants", variants),
        Route("/api/analyze", analyze_api),
        *[Route(f"/api/{command}", odds_api) for command in COMMANDS],
        Route("/api/jobs", start_job, methods=["POST"]),
        Route("/api/jobs/{job}", job_status, methods=["GET"]),
        Route("/api/jobs/{job}", job_cancel, methods=["DELETE"]),
        Route("/jobs/{job}/view", job_view),
        Mount("/static", static, name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(Guard, hosts=hosts)])
    app.state.jobs = jobs
    return app


async def _wait(job) -> None:
    """Until the job's run has ended (done, failed or cancelled, queued or running)."""
    await asyncio.wait((asyncio.wrap_future(job.future),))


async def _disconnected(request: Request) -> None:
    """Until the client of ``request`` has gone away."""
    while (await request.receive())["type"] != "http.disconnect":
        pass
