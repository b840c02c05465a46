"""``serve``: the page for players and its JSON API (:mod:`binokel_sim.web`) on a local port."""

from typing import Annotated

import typer

from binokel_sim.cli.base import ThreadsOpt, clamp_threads, command, domain_errors, err
from binokel_sim.errors import OutputError

INSTALL = 'pip install "binokel-sim[web]"'
GRACE = 2  # seconds


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
    runs: Annotated[int, typer.Option(
        "--runs", metavar="N", help="Runs at a time (each on every thread).")] = 1,
    queue: Annotated[int, typer.Option(
        "--queue", metavar="N", help="Runs that may wait; beyond, the answer is 'busy'.")] = 4,
    threads: ThreadsOpt = None,
) -> None:
    """A local web page that answers what the CLI answers: pick a variant, click your hand
    together on a card grid, and see the bid odds with their intervals and the bid worth
    making, the exact widow section, the deal odds of the talon games and the hand's melds.
    The JSON API under /api/ gives the CLI's --format json documents field for field (README,
    "The page"). Needs the extra: pip install "binokel-sim\\[web]".

    Example: binokel-sim serve
    Example: binokel-sim serve --port 8080 --max-deals 200000
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
        from binokel_sim.web.questions import Limits

        require_matplotlib()
        for name, value, low in (("--port", port, 0), ("--max-deals", max_deals, 1),
                                 ("--max-sampling-deals", max_sampling_deals, 1),
                                 ("--runs", runs, 1), ("--queue", queue, 0)):
            if value < low or (name == "--port" and value > 65535):
                bound = "between 0 and 65535" if name == "--port" else f"at least {low}"
                raise OutputError(f"{name} must be {bound}, got {value}")
        if threads is not None and threads < 1:
            raise OutputError(f"--threads must be at least 1, got {threads}")
        _check_listen(host, port)
        app = create_app(Limits(max_deals, max_sampling_deals), runs, queue,
                         clamp_threads(threads))
        shown = f"[{host}]" if ":" in host else host  # an IPv6 address, as a URL writes it
        err.print(f"binokel-sim: the page is at http://{shown}:{port}/ (Ctrl-C stops)",
                  markup=False, highlight=False, soft_wrap=True)
        # Ctrl-C: open requests get GRACE seconds, then their runs are cancelled
        uvicorn.run(app, host=host, port=port, log_level="warning",
                    timeout_graceful_shutdown=GRACE)


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
