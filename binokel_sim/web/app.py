"""The page and its JSON API (Starlette): routes, and what each answers.

- ``GET /``: the page (server-rendered, :mod:`.page`); its state is the URL's query (variant,
  hand, seed, deals and the other options), so a link reproduces the answer.
- ``GET /api/variants``: ``binokel-sim variants --format json``.
- ``GET /api/analyze``, ``/api/bid-odds``, ``/api/deal-odds``: the CLI's ``--format json``
  documents, field for field (:mod:`binokel_sim.documents`), run in the bounded pool.
- ``POST /api/jobs?command=bid-odds&...``: the same run in the background (202 and its id);
  ``GET /api/jobs/ID`` its progress (and, done, its ``document``), ``DELETE /api/jobs/ID``
  cancels it, ``GET /jobs/ID/view`` the page's HTML of its answer.

Bad input is HTTP 400 with ``{"error": the CLI's one line}``; a full queue is 503 with a line
saying the server is busy.
"""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from importlib.resources import files

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from binokel_sim import compile_notice
from binokel_sim.errors import DOMAIN_ERRORS, SimulationError
from binokel_sim.web import page
from binokel_sim.web.jobs import Busy, Jobs
from binokel_sim.web.questions import COMMANDS, Limits, analyze, params_of, question


def create_app(limits: Limits = Limits(), workers: int = 1, waiting: int = 4,
               threads: int | None = None) -> Starlette:
    """The application: ``workers`` runs at a time, ``waiting`` more queued, each run on
    ``threads`` of numba's threads (None: all) and within ``limits``."""
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

        return asked, jobs.submit(asked.deals, work, DOMAIN_ERRORS)

    async def home(request: Request) -> Response:
        return HTMLResponse(page.render_page(request.query_params, limits))

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
            if await request.body():
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

    async def job_status(request: Request) -> Response:
        job = _job(request)
        if job is None:
            return JSONResponse({"error": "no such run (finished runs are kept a while)"},
                                status_code=404)
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
            return HTMLResponse(page.error_html("no such run (finished runs are kept a while)"),
                                status_code=404)
        if job.state == "failed":
            return HTMLResponse(page.error_html(job.error), status_code=400)
        if job.state != "done":
            return HTMLResponse(page.error_html(f"the run is {job.state}"), status_code=409)
        return HTMLResponse(page.render_answer(job.value))

    @asynccontextmanager
    async def lifespan(app):
        yield
        jobs.shutdown()

    static = StaticFiles(directory=str(files("binokel_sim.web") / "static"))
    routes = [
        Route("/", home),
        Route("/api/variants", variants),
        Route("/api/analyze", analyze_api),
        *[Route(f"/api/{command}", odds_api) for command in COMMANDS],
        Route("/api/jobs", start_job, methods=["POST"]),
        Route("/api/jobs/{job}", job_status, methods=["GET"]),
        Route("/api/jobs/{job}", job_cancel, methods=["DELETE"]),
        Route("/jobs/{job}/view", job_view),
        Mount("/static", static, name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.jobs = jobs
    return app


async def _wait(job) -> None:
    """Until the job's run has ended (done, failed or cancelled, queued or running)."""
    await asyncio.wait((asyncio.wrap_future(job.future),))


async def _disconnected(request: Request) -> None:
    """Until the client of ``request`` has gone away."""
    while (await request.receive())["type"] != "http.disconnect":
        pass
