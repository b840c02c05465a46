"""The page for players (``binokel-sim serve``): server-rendered HTML with a little plain
JavaScript, and a JSON API that gives the CLI's ``--format json`` documents.

- :mod:`.app`: the Starlette application and its routes (:func:`create_app`), behind a guard
  (a foreign ``Host`` is 403, a large body 413 before it is read);
- :mod:`.questions`: a request's parameters, checked as the CLI checks its options, with the
  CLI's defaults;
- :mod:`.jobs`: the bounded pool of runs, their progress, cancelling and time limit;
- :mod:`.openapi`: ``/openapi.json`` and ``/api``, from the CLI's own options (handed in by
  ``serve``: this package imports no CLI);
- :mod:`.page`: the HTML (Jinja2 templates in ``templates/``, assets in ``static/``), in
  players' words (:mod:`.words`), with the bid curve as inline SVG (:mod:`.curve`).

Needs the extra ``binokel-sim[web]`` (starlette, uvicorn, jinja2, matplotlib): importing this
package without it raises ImportError, which ``serve`` turns into one line.
"""

from binokel_sim.web.app import create_app

__all__ = ["create_app"]
