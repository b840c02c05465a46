"""The JSON API described: an OpenAPI 3.1 document (``/openapi.json``) and a short page for
people (``/api``), generated from the CLI's own option definitions.

The web layer imports no CLI: ``serve`` reads the options of ``bid-odds``, ``deal-odds`` and
``analyze`` from its commands (:func:`binokel_sim.cli.serve.cli_options`) and hands them to
:func:`binokel_sim.web.create_app` as :class:`Option` records. Every option is either a
parameter of the API (:data:`~binokel_sim.web.questions.PARAMETERS`, with the CLI's type,
default and help) or one the API does not take, with the reason (:data:`CLI_ONLY`); an option
that is neither is a :class:`ValueError` here, so a new CLI option cannot go undescribed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from binokel_sim.web.questions import COMMANDS, DEFAULTS, PARAMETERS, Limits

# the CLI's options that the API does not take, and why
CLI_ONLY = {
    "rules": "a rules file on the server's disk: the API takes the built-in variants",
    "threads": "the server's own setting (serve --threads)",
    "workers": "the server runs its runs itself (serve --runs)",
    "scheduler": "the server runs its runs itself (serve --runs)",
    "out": "the API answers with the document; it writes no file",
    "format": "the API answers with the JSON document (--format json)",
    "full": "the document holds every bid",
    "cards": "the API names cards the French way (the page draws them with suit symbols); "
             "it reads both notations",
}
ANALYZE_PARAMETERS = ("variant", "hand")  # what /api/analyze reads of analyze's options
ERROR = {"$ref": "#/components/schemas/Error"}


@dataclass(frozen=True)
class Option:
    """One CLI option as the API describes it. ``name``: the API's parameter (the long flag
    without its dashes, ``-`` as ``_``); ``flag``: the CLI's flags (``--deals, -n``);
    ``type``: an OpenAPI type (``integer``, ``number``, ``string``, ``boolean``);
    ``default``: the CLI's default (None: none, the option is optional); ``repeats``: given
    more than once; ``choices``: the values it takes (empty: any)."""

    name: str
    flag: str
    type: str
    default: Any
    help: str
    repeats: bool = False
    choices: tuple[str, ...] = ()


def _parameter(option: Option, command: str | None = None, limits: Limits | None = None) -> dict:
    schema: dict[str, Any] = {"type": option.type}
    if option.choices:
        schema["enum"] = list(option.choices)
    if option.default is not None:
        schema["default"] = option.default
    if option.name == "deals" and limits is not None:
        schema["maximum"] = limits.max_deals
        schema["minimum"] = 1
    if option.repeats:
        schema = {"type": "array", "items": schema}
    text = f"{option.flag}: {option.help}"
    if option.repeats:
        text += " Repeat the parameter, or separate entries with ';'."
    if command is not None:
        text = f"({command}) {text}"
    out = {"name": option.name, "in": "query", "required": False, "description": text,
           "schema": schema}
    if option.repeats:
        out |= {"style": "form", "explode": True}
    return out


def check_options(options: dict[str, list[Option]]) -> None:
    """Every option of ``bid-odds`` and ``deal-odds`` is a parameter of the API or in
    :data:`CLI_ONLY`, and the API's defaults are the CLI's; else a :class:`ValueError`."""
    for command in COMMANDS:
        for option in options[command]:
            if option.name not in PARAMETERS and option.name not in CLI_ONLY:
                raise ValueError(f"{command} {option.flag}: neither an API parameter nor one "
                                 f"of web.openapi.CLI_ONLY")
            ours = DEFAULTS[command].get(option.name)
            if ours is not None and ours != option.default:
                raise ValueError(f"{command} {option.flag}: the API's default {ours!r} is not "
                                 f"the CLI's {option.default!r}")


def _responses(ok: dict) -> dict:
    def error(text: str) -> dict:
        return {"description": text, "content": {"application/json": {"schema": ERROR}}}

    return {"200": ok,
            "400": error("bad input: the CLI's one line (`error`)"),
            "403": error("the request's Host header is not an address this server serves"),
            "503": error("every run slot and the queue are taken: the server is busy")}


def _document_reply(command: str) -> dict:
    return {"description": f"`binokel-sim {command} --format json`, field for field",
            "content": {"application/json": {"schema": {"type": "object"}}}}


def describe(options: dict[str, list[Option]], limits: Limits, version: str) -> dict:
    """The OpenAPI 3.1 document of the API, from the CLI's ``options`` (per command: ``bid-odds``,
    ``deal-odds``, ``analyze``) and this server's ``limits``."""
    check_options(options)
    paths: dict[str, Any] = {}
    taken = {c: [o for o in options[c] if o.name not in CLI_ONLY] for c in COMMANDS}
    for command in COMMANDS:
        responses = _responses(_document_reply(command))
        responses["409"] = {"description": "the run was cancelled (by DELETE /api/jobs/ID)",
                            "content": {"application/json": {"schema": JOB}}}
        paths[f"/api/{command}"] = {"get": {
            "summary": f"binokel-sim {command}: run it and wait for the document",
            "description": ("The run goes into the server's bounded queue; a client that goes "
                            "away cancels it. A parameter not given takes the CLI's default."),
            "operationId": command.replace("-", "_"),
            "parameters": [_parameter(o, limits=limits) for o in taken[command]],
            "responses": responses,
            "x-cli-only": {o.name: CLI_ONLY[o.name] for o in options[command]
                           if o.name in CLI_ONLY},
        }}
    analyze = [o for o in options["analyze"] if o.name in ANALYZE_PARAMETERS]
    paths["/api/analyze"] = {"get": {
        "summary": "binokel-sim analyze: the hand's melds with each suit as trump",
        "operationId": "analyze", "parameters": [_parameter(o) for o in analyze],
        "responses": _responses(_document_reply("analyze"))}}
    paths["/api/variants"] = {"get": {
        "summary": "binokel-sim variants: the built-in variants", "operationId": "variants",
        "responses": _responses(_document_reply("variants"))}}
    both: dict[str, dict] = {}
    for command in COMMANDS:
        for option in taken[command]:
            if option.name in both:
                both[option.name]["description"] = both[option.name]["description"].split(
                    ") ", 1)[1]  # both commands read it: no command named
            else:
                both[option.name] = _parameter(option, command, limits)
    command_parameter = {"name": "command", "in": "query", "required": True,
                         "description": "the question to run",
                         "schema": {"type": "string", "enum": list(COMMANDS)}}
    job_id = {"name": "job", "in": "path", "required": True, "schema": {"type": "string"},
              "description": "the run's id, from POST /api/jobs"}
    job_reply = {"description": "the run", "content": {"application/json": {"schema": JOB}}}
    gone = {"description": "no such run (at most 64 ended runs are kept)",
            "content": {"application/json": {"schema": ERROR}}}
    paths["/api/jobs"] = {"post": {
        "summary": "start bid-odds or deal-odds in the background",
        "description": ("The parameters go in the URL's query, as for GET /api/COMMAND; a "
                        "request with a body is refused before the body is read."),
        "operationId": "start_job", "parameters": [command_parameter, *both.values()],
        "responses": {**{k: v for k, v in _responses(job_reply).items() if k != "200"},
                      "202": job_reply,
                      "413": {"description": "a body larger than the server reads",
                              "content": {"application/json": {"schema": ERROR}}}}}}
    paths["/api/jobs/{job}"] = {
        "get": {"summary": "a run's state and progress; once done, its `document`",
                "operationId": "job_status", "parameters": [job_id],
                "responses": {"200": job_reply, "404": gone}},
        "delete": {"summary": "cancel a run (it stops at its next chunk of deals)",
                   "operationId": "cancel_job", "parameters": [job_id],
                   "responses": {"200": job_reply, "404": gone}}}
    paths["/jobs/{job}/view"] = {"get": {
        "summary": "the page's HTML of a finished run's answer", "operationId": "job_view",
        "parameters": [job_id],
        "responses": {"200": {"description": "HTML", "content": {"text/html": {}}}}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "binokel-sim", "version": version, "description": (
            "The answers of `binokel-sim` as JSON: each document is the CLI's `--format json` "
            "document, field for field. Parameters are the CLI's options; an option not given "
            "takes the CLI's default. This server's bounds: at most "
            f"{limits.max_deals:,} deals a run ({limits.max_sampling_deals:,} with a policy "
            f"that searches), at most {limits.max_seconds:g} s a run, a bounded queue "
            "(503 beyond it).")},
        "paths": paths,
        "components": {"schemas": {"Error": {
            "type": "object", "required": ["error"],
            "properties": {"error": {"type": "string", "description": "one line"}}},
            "Job": JOB_SCHEMA}},
    }


JOB = {"$ref": "#/components/schemas/Job"}
JOB_SCHEMA = {
    "type": "object", "required": ["job", "state", "done", "total", "seconds"],
    "properties": {
        "job": {"type": "string"},
        "state": {"type": "string",
                  "enum": ["queued", "running", "done", "failed", "cancelled"]},
        "done": {"type": "integer", "description": "deals played so far"},
        "total": {"type": "integer", "description": "deals asked for"},
        "seconds": {"type": "number"},
        "note": {"type": "string", "description": "e.g. that the engine compiles first"},
        "error": {"type": "string", "description": "a failed run's one line"},
        "document": {"type": "object", "description": "once done: the CLI's JSON document"},
    },
}


def parameter_rows(document: dict) -> list[dict]:
    """The API page's view of ``document``: per path and method, its summary and parameters
    (name, type, default, what it does)."""
    rows = []
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            parameters = []
            for p in operation.get("parameters", []):
                schema = p["schema"]
                kind = (f"{schema['items']['type']}, repeats" if schema["type"] == "array"
                        else schema["type"])
                inner = schema.get("items", schema)
                parameters.append({"name": p["name"], "type": kind,
                                   "default": inner.get("default", ""),
                                   "text": p["description"]})
            rows.append({"method": method.upper(), "path": path,
                         "summary": operation["summary"], "parameters": parameters})
    return rows
