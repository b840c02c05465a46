"""A Ctrl-C that Python could not raise.

One that lands in a callback Python cannot raise from (an import lock's weakref callback, while
a module loads) is "ignored": CPython prints its traceback and the program goes on, so a
``serve`` started that way never stopped. :func:`install` puts a ``sys.unraisablehook`` in
place that keeps that traceback off the screen and records the Ctrl-C; ``main()`` and ``serve``
look (:func:`lost`) before they begin. This module imports nothing but ``sys``: it is installed
before the command's modules load.
"""

import sys

_LOST: list[bool] = []  # one entry a Ctrl-C (no exception kept: its frames would live on)


def lost() -> bool:
    """Whether a Ctrl-C reached a callback that could not raise it."""
    return bool(_LOST)


def install() -> None:
    """Record an unraisable KeyboardInterrupt instead of printing it; others as before."""
    before = sys.unraisablehook

    def keep_ctrl_c(unraisable) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            _LOST.append(True)
        else:
            before(unraisable)

    sys.unraisablehook = keep_ctrl_c
