"""``serve``: the page for players and its JSON API (:mod:`binokel_sim.web`) on a local port."""

from typing import Annotated, Optional

import typer

from binokel_sim.cli.base import ThreadsOpt, clamp_threads, command, domain_errors, err
from binokel_sim.errors import OutputError

INSTALL = 'pip install "binokel-sim[web]"'
GRACE = 2  # seconds
DESCRIBED = ("bid-odds", "deal-odds", "analyze")  # the commands whose options the API takes


@command()
def serve(
    host: Annotated[str, typer.Option(
        "--host", help="Address to listen on (0.0.0.0: every interface).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", "-p", help="Port to listen on.")] = 8765,
    max_deals: Annotated[int, typer.Option(
        "--max-deals", metavar="N", help="The most deals one run may ask for.")] = 1_000_000,
    max_sampling_deals: Annotated[int, typer.Option(
        "--max-sampling-deals", metavar="N",
        help="The most deals with sampling or heuristic+solver (ms a card).")] = 1_000,
    max_seconds: Annotated[float, typer.Option(
        "--max-seconds", metavar="S",
        help="The most seconds one run may take; then it stops with a line.")] = 300.0,
    runs: Annotated[int, typer.Option(
        "--runs", metavar="N", help="Runs at a time (each on every thread).")] = 1,
    queue: Annotated[int, typer.Option(
        "--queue", metavar="N", help="Runs that may wait; beyond, the answer is 'busy'.")] = 4,
    allow_host: Annotated[Optional[list[str]], typer.Option(
        "--allow-host", metavar="NAME",
        help="Another name the page is reached by (a Host header); repeatable.")] = None,
    threads: ThreadsOpt = None,
) -> None:
    """A local web page that answers what the CLI answers: your hand on a card grid, then
    the bid worth making, the bid curve, the widow and the deal odds. JSON API under /api/
    (the CLI's --format json documents), described at /openapi.json; README, "The page".
    Bounded: --max-deals and --max-seconds a run, --runs at a time and --queue waiting (then
    HTTP 503), the last 64 ended runs kept, no request body over 64 KiB (413), and only
    requests for this address (another Host header: 403; add names with --allow-host).
    Needs the extra: pip install "binokel-sim\\[web]".

    Example: binokel-sim serve
    Example: binokel-sim serve --port 8080 --max-deals 200000 --max-seconds 60
    """
    with domain_errors():
        try:
            import uvicorn

            from binokel_sim.web import create_app
        except ImportError as exc:
            missing = (exc.name or "a package").split(".")[0]
            raise OutputError(f"serve needs the web extra ({missing} is not installed): "
                              f"{INSTALL}") from None
        from binokel_sim.report.publish import require_matplotlib
        from binokel_sim.web.app import Hosts
        from binokel_sim.web.questions import Limits

        require_matplotlib()
        for name, value, low in (("--port", port, 0), ("--max-deals", max_deals, 1),
                                 ("--max-sampling-deals", max_sampling_deals, 1),
                                 ("--runs", runs, 1), ("--queue", queue, 0)):
            if value < low or (name == "--port" and value > 65535):
                bound = "between 0 and 65535" if name == "--port" else f"at least {low}"
                raise OutputError(f"{name} must be {bound}, got {value}")
        if not max_seconds > 0 or max_seconds == float("inf"):
            raise OutputError(f"--max-seconds must be a number of seconds above 0, got "
                              f"{max_seconds:g}")
        if threads is not None and threads < 1:
            raise OutputError(f"--threads must be at least 1, got {threads}")
        names = tuple(allow_host or ())
        for name in names:
            if not name.strip() or any(c in name for c in "/ @"):
                raise OutputError(f"--allow-host {name!r}: give a host name, e.g. "
                                  f"--allow-host mybox.lan")
        _check_listen(host, port)
        app = create_app(cli_options(), Limits(max_deals, max_sampling_deals, max_seconds),
                         runs, queue, clamp_threads(threads), Hosts.serving(host, names))
        # Ctrl-C: open requests get GRACE seconds, then their runs are cancelled
        config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                                timeout_graceful_shutdown=GRACE)
        server = _server_class(uvicorn, host, app.state.jobs)(config)
        from binokel_sim.cli import ctrl_c

        try:
            if ctrl_c.lost():  # pressed while the page's modules loaded
                raise KeyboardInterrupt
            server.run()
        except KeyboardInterrupt:  # uvicorn stops on Ctrl-C, then raises it again
            pass
        _stop(app.state.jobs, server.announced)


def _server_class(uvicorn, host: str, jobs):
    """uvicorn's server, saying where the page is once it listens on ``host`` (not before: a
    client that connected on the line would be refused), and cancelling the runs of ``jobs``
    as it stops, so that requests waiting for them end within the grace period."""

    class Server(uvicorn.Server):
        announced = False

        async def shutdown(self, sockets=None) -> None:
            jobs.shutdown()
            await super().shutdown(sockets)

        async def startup(self, sockets=None) -> None:
            await super().startup(sockets)
            if self.started and not self.should_exit:
                port = self.servers[0].sockets[0].getsockname()[1]  # --port 0: the one chosen
                shown = f"[{host}]" if ":" in host else host  # IPv6, as a URL writes it
                err.print(f"binokel-sim: the page is at http://{shown}:{port}/ (Ctrl-C stops)",
                          markup=False, highlight=False, soft_wrap=True)
                self.announced = True

    return Server


def _stop(jobs, announced: bool) -> None:
    """After the server: cancel the runs and give them GRACE seconds to stop at their next
    chunk; one still in a chunk then (a search policy's) is not waited for."""
    import os
    import sys

    jobs.shutdown()
    try:
        ended = jobs.wait(GRACE)
    except KeyboardInterrupt:  # a second Ctrl-C: do not wait
        ended = False
    err.print("binokel-sim: the page is stopped" if announced else
              "binokel-sim: stopped before the page was up", markup=False, highlight=False,
              soft_wrap=True)
    if not ended:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)  # a run's thread is still in a chunk of kernel work: no one waits for it


def cli_options() -> dict:
    """The options of ``bid-odds``, ``deal-odds`` and ``analyze`` as the API describes them
    (:class:`binokel_sim.web.openapi.Option`), read from the commands themselves: their flags,
    types, defaults and help."""
    import typer.main

    from binokel_sim.cli.base import app
    from binokel_sim.web.openapi import Option

    group = typer.main.get_command(app)
    out = {}
    for name in DESCRIBED:
        options = []
        for param in group.get_command(None, name).params:
            # typer's click (its own copy in typer._click): read by duck typing
            if getattr(param, "param_type_name", None) != "option" or param.hidden:
                continue
            longest = max(param.opts, key=len)
            kind = param.type
            choices = tuple(getattr(kind, "choices", ()) or ())
            default = param.default
            if callable(default):
                default = None
            if hasattr(default, "value"):  # an Enum's member
                default = default.value
            options.append(Option(
                name=longest.lstrip("-").replace("-", "_"), flag=", ".join(param.opts),
                type=_openapi_type(kind, param.is_flag), default=default,
                help=" ".join((param.help or "").split()), repeats=param.multiple,
                choices=tuple(str(c.value if hasattr(c, "value") else c) for c in choices)))
        out[name] = options
    return out


def _openapi_type(kind, is_flag: bool) -> str:
    """The OpenAPI type of a click parameter type, by its ``name`` (``int``, ``float``,
    ``boolean``; any other is a string)."""
    if is_flag:
        return "boolean"
    return {"int": "integer", "integer": "integer", "float": "number",
            "boolean": "boolean"}.get(getattr(kind, "name", ""), "string")


def _check_listen(host: str, port: int) -> None:
    """The address can be listened on (not taken by another server, a known host): one line
    now, rather than the address printed and then the server's own error."""
    import os
    import socket

    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        with socket.create_server((host, port), family=family):
            pass
    except OSError as exc:
        why = os.strerror(exc.errno) if isinstance(exc.errno, int) and exc.errno > 0 else exc
        raise OutputError(f"cannot listen on {host}:{port} ({why}); choose "
                          f"another with --port or --host") from None
