"""``/openapi.json``: the API described as OpenAPI 3.1, request schemas taken from pydantic.

Every operation declares its answers: the success shape (exactly for the core operations below,
"a JSON object" or the file type for the ones listed from competition kinds' and desk routes),
and every error as ``{"error", "message"}`` (``Error``; a 429 adds ``retry_after``). The fuzz
test (tests/display/http/test_fuzz_api.py) checks real answers against these schemas.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from display import competitions
from display.http import schemas

Schema = dict[str, Any]
"""A JSON Schema (or any other object of the OpenAPI document): JSON, whatever its keys."""
BodyModels = type[BaseModel] | tuple[type[BaseModel], ...] | None
"""An operation's request body: one pydantic model, models it may be one of, or none."""

ERROR: Schema = {
    "type": "object",
    "properties": {
        "error": {"type": "string", "description": "stable code, e.g. unknown_player"},
        "message": {"type": "string", "description": "for a steward to read"},
        "retry_after": {"type": "number", "description": "429: seconds until a retry is taken"},
        "delay": {"type": "number", "description": "429: the whole delay the last failure set"},
        "held": {"enum": ["source", "account"], "description": "429: what is held"},
    },
    "required": ["error", "message"],
}
ERRORS = {
    "400": "the body is not JSON, or a header is malformed",
    "401": "not signed in, or a wrong password or PIN",
    "403": "signed in, but not allowed (TD only, another tournament, a player's sign-in)",
    "404": "unknown tournament, player, machine or record",
    "409": "the rules refuse it now (a seventh machine, a second score that is not the joker, …)",
    "413": "the body is too large",
    "422": "invalid input (a score that is not a whole number 0 … 2^53−1, a bad setting, …)",
    "503": "the score store is not answering: nothing was recorded (store_unavailable), or it "
    "may have been (outcome_unknown): send it again with the same Idempotency-Key",
}
SIGN_IN_ERRORS = {"429": "too many wrong PINs or passwords: wait Retry-After seconds"}
CORRECTION_ERRORS = {
    "412": "the entry changed since the If-Match version",
    "428": "If-Match (the entry's version) is missing",
}


def versioned(path: str) -> bool:
    """Whether ``path`` changes an existing record and so needs its version (docs/protocol.md
    "Changing an entry"): each competition lists its own (``Competition.versioned_paths``)."""
    return any(re.search(pattern, path) for pattern in competitions.versioned_paths())


IF_MATCH = {
    "name": "If-Match",
    "in": "header",
    "required": True,
    "schema": {"type": "string", "pattern": '^"[0-9]{1,18}"$'},
    "description": 'The version of the entry being changed, as a strong entity tag: "42" (RFC 9110 '
    "§13.1.1; a list of tags is taken too). Missing: 428; another version: 412.",
}
TD = "TD"
STEWARD = "steward or TD"

STRING: Schema = {"type": "string"}
INTEGER: Schema = {"type": "integer"}
VERSION: Schema = {"type": "integer", "minimum": 0}
OBJECT: Schema = {"type": "object"}


def shape(required: dict[str, Schema], **optional: Schema) -> Schema:
    """A JSON object with ``required`` properties (and more allowed)."""
    return {
        "type": "object",
        "properties": {**required, **optional},
        "required": list(required),
    }


def array(items: Schema) -> Schema:
    """A JSON array of ``items``."""
    return {"type": "array", "items": items}


SUMMARY = shape({"id": STRING, "version": VERSION}, name=STRING, players=INTEGER, machines=INTEGER)
FAILURE = shape({"at": STRING, "source": STRING, "account": STRING, "kind": STRING})

# path, method, summary, body model(s), who may call (None = anyone), success status and shape
OPERATIONS: list[tuple[str, str, str, BodyModels, str | None, str, Schema]] = [
    ("/api/session", "post", "Sign in; returns a bearer token", schemas.SignIn, None,
     "200", shape({"token": STRING, "role": {"enum": ["td", "steward"]}})),
    ("/api/tournaments", "get", "List tournaments", None, None,
     "200", shape({"tournaments": array(SUMMARY)})),
    ("/api/tournaments", "post", "Create a tournament of a format", schemas.TournamentIn, TD,
     "201", shape({"version": VERSION, "id": STRING})),
    ("/api/t/{tournament}", "get", "One tournament's summary and version", None, None,
     "200", SUMMARY),
    ("/api/t/{tournament}/players", "post", "Add a player, or {players: [...]}",
     (schemas.PlayerIn, schemas.PlayersIn), TD,
     "201", shape({"version": VERSION, "players": array(STRING)})),
    ("/api/t/{tournament}/machines", "post", "Add a machine, or {machines: [...]}",
     (schemas.MachineIn, schemas.MachinesIn), TD,
     "201", shape({"version": VERSION, "machines": array(STRING)})),
    ("/api/t/{tournament}/stewards", "post", "Issue a steward PIN", schemas.StewardIn, TD,
     "201", shape({"tournament": STRING, "name": STRING,
                   "pin": {"type": "string", "pattern": "^[0-9]{6}$"}})),
    ("/api/t/{tournament}/scores", "post", "Push a score", schemas.ScoreIn, STEWARD,
     "201", shape({"version": VERSION, "record": OBJECT})),
    ("/api/t/{tournament}/settings", "post", "Change settings (standings are rebuilt)",
     schemas.SettingsIn, TD, "201", shape({"version": VERSION, "settings": OBJECT})),
    ("/api/formats", "get", "Format names a tournament can be created with", None, None,
     "200", shape({"formats": array(STRING)})),
    ("/api/t/{tournament}/views", "get", "Every view at the current version", None, None,
     "200", shape({"version": VERSION, "views": OBJECT})),
    ("/api/t/{tournament}/views/{name}", "get", "One view (e.g. standings, machine/7)", None,
     None, "200", shape({"version": VERSION, "view": {}})),
    ("/api/t/{tournament}/log", "get", "Records after ?after=version", None, None,
     "200", shape({"records": array(shape({"seq": INTEGER, "type": STRING}))})),
]  # fmt: skip

# Success shapes of routes listed from their handlers (method, path) -> (status, shape).
KNOWN: dict[tuple[str, str], tuple[str, Schema]] = {
    ("DELETE", "/api/session"): ("200", shape({"signed_out": {"const": True}})),
    ("GET", "/api/sessions"): ("200", shape({"sessions": array(OBJECT)})),
    ("DELETE", "/api/sessions/{session}"): ("200", shape({"ended": {"const": True}})),
    ("GET", "/api/t/{tournament}/stewards"): ("200", shape({"stewards": array(OBJECT)})),
    ("GET", "/api/sign-in-failures"): ("200", shape({"failures": array(FAILURE)})),
    ("GET", "/api/t/{tournament}/sign-in-failures"): ("200", shape({"failures": array(FAILURE)})),
    ("GET", "/api/templates"): ("200", shape({"templates": array(OBJECT)})),
    ("POST", "/api/t/{tournament}/player-session"): (
        "200",
        shape({"token": STRING, "tournament": STRING, "player": STRING}),
    ),
}
FILES = {".csv": "text/csv", ".jsonl": "application/x-ndjson"}
# query parameters by path: name, schema, description
QUERY: dict[str, list[tuple[str, Schema, str]]] = {
    "/api/t/{tournament}/log": [
        ("after", {"type": "integer", "minimum": 0}, "records after this version (default 0)"),
    ],
    "/api/t/{tournament}/what-if": [
        ("player", STRING, "the player's number"),
        ("target", {"type": "integer", "minimum": 1, "maximum": 100_000}, "the place wanted"),
    ],
    "/api/t/{tournament}/progress": [("player", STRING, "the player's number")],
}


def _schema(model: type[BaseModel], defs: dict[str, Schema]) -> Schema:
    schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
    defs.update(schema.pop("$defs", {}))
    defs[model.__name__] = schema
    return {"$ref": f"#/components/schemas/{model.__name__}"}


def _json(schema: Schema, description: str) -> Schema:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _responses(status: str, success: Schema, path: str, write: bool) -> dict[str, Schema]:
    """The success answer, then every error as ``Error`` (``default`` covers any other code)."""
    error = {"$ref": "#/components/schemas/Error"}
    suffix = next((s for s in FILES if path.endswith(s)), None)
    ok = (
        {"description": "OK", "content": {FILES[suffix]: {"schema": STRING}}}
        if suffix
        else _json(success, "Written" if write else "OK")
    )
    codes = dict(ERRORS)
    if path in ("/api/session", "/api/t/{tournament}/player-session"):
        codes |= SIGN_IN_ERRORS
    if versioned(path):
        codes |= CORRECTION_ERRORS
    answers = {status: ok} | {code: _json(error, text) for code, text in codes.items()}
    if "429" in answers:
        answers["429"]["headers"] = {
            "Retry-After": {"description": "whole seconds to wait", "schema": INTEGER}
        }
    answers["default"] = _json(error, "any other error, in the same shape")
    return answers


def _params(path: str) -> list[Schema]:
    """Path parameters (strings) and the query parameters ``QUERY`` lists for ``path``."""
    names = [p.strip("{}").split(":")[0] for p in path.split("/") if p.startswith("{")]
    found = [{"name": n, "in": "path", "required": True, "schema": STRING} for n in names]
    plain = re.sub(r"\{(\w+):\w+\}", r"{\1}", path)
    return found + [
        {"name": name, "in": "query", "required": False, "schema": schema, "description": text}
        for name, schema, text in QUERY.get(plain, [])
    ]


def build(routes: Iterable[BaseRoute] = ()) -> Schema:
    """The OpenAPI document (pure; also used by the docs test). Operations of competition kinds
    (``routes`` under /api/ not described above) are listed from their handlers' docstrings."""
    paths: dict[str, dict[str, Schema]] = {}
    defs: dict[str, Schema] = {"Error": ERROR}
    for path, method, summary, model, who, status, success in OPERATIONS:
        op: Schema = {"summary": summary, "parameters": _params(path)}
        if model is not None:
            models = model if isinstance(model, tuple) else (model,)
            refs = [_schema(m, defs) for m in models]
            schema = refs[0] if len(refs) == 1 else {"oneOf": refs}
            op["requestBody"] = {
                "required": True,
                "content": {"application/json": {"schema": schema}},
            }
            op["parameters"].append(
                {"name": "Idempotency-Key", "in": "header", "required": False,
                 "schema": {"type": "string", "minLength": 1, "maxLength": 200},
                 "description": "A retried key returns the first answer and writes nothing."}
            )  # fmt: skip
        op["responses"] = _responses(status, success, path, write=status == "201")
        if who is not None:
            op["security"] = [{"bearer": []}]
            op["description"] = f"Needs a {who} sign-in."
        paths.setdefault(path, {})[method] = op
    for route in routes:
        if not isinstance(route, Route) or not route.path.startswith("/api/"):
            continue
        path = re.sub(r"\{(\w+):\w+\}", r"{\1}", route.path)  # {name:path} -> {name}
        for method in sorted((route.methods or set()) - {"HEAD"}):
            if method.lower() in paths.get(path, {}):
                continue
            doc = inspect.getdoc(route.endpoint) or route.path
            write = method != "GET"
            status, success = KNOWN.get((method, path), ("2XX", OBJECT))
            op = {
                "summary": doc.splitlines()[0],
                "description": doc,
                "parameters": _params(route.path),
                "responses": _responses(status, success, path, write),
            }
            if write and versioned(path):
                op["parameters"].append(IF_MATCH)
            if write:
                op["security"] = [{"bearer": []}]
            if method in ("POST", "PUT"):
                op["requestBody"] = {"content": {"application/json": {"schema": OBJECT}}}
            paths.setdefault(path, {})[method.lower()] = op
    return {
        "openapi": "3.1.0",
        "info": {"title": "Backglass", "version": "0.1.0"},
        "paths": paths,
        "components": {
            "schemas": defs,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
    }


async def document(request: Request) -> Response:
    """``GET /openapi.json``: the OpenAPI 3.1 document of this app's routes (``build``)."""
    return JSONResponse(build(request.app.routes))
