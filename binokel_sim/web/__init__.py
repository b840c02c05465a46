"""The page for players (``binokel-sim serve``): server-rendered HTML with a little plain
JavaScript, and a JSON API that gives the CLI's ``--format json`` documents.

- :mod:`.app`: the Starlette application and its routes (:func:`create_app`);
- :mod:`.questions`: a request's parameters, checked as the CLI checks its options;
- :mod:`.jobs`: the bounded pool of runs, their progress and cancelling;
- :mod:`.page`: the HTML (Jinja2 templates in ``templates/``, assets in ``static/``).

Needs the extra ``binokel-sim[web]`` (starlette, uvicorn, jinja2, matplotlib): importing this
package without it raises ImportError, which ``serve`` turns into one line.
"""

from binokel_sim.web.app import create_app

__all__ = ["create_app"]
