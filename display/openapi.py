"""``/openapi.json``: the API described as OpenAPI 3.1, request schemas taken from pydantic."""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from display import schemas

ERROR = {
    "type": "object",
    "properties": {"error": {"type": "string"}, "message": {"type": "string"}},
    "required": ["error", "message"],
}
WRITE_ERRORS = {
    "401": "not signed in, or a wrong password or PIN",
    "403": "signed in, but not allowed (TD only, another tournament)",
    "404": "unknown tournament, player or machine",
    "409": "the rules refuse it now (a seventh machine, a second score that is not the joker, …)",
    "422": "invalid input (a score that is not a whole number 0 … 2^53−1, a bad setting, …)",
}
TD = "TD"
STEWARD = "steward or TD"

# path, method, summary, body model(s), who may call (None = anyone)
OPERATIONS: list[tuple[str, str, str, Any, str | None]] = [
    ("/api/session", "post", "Sign in; returns a bearer token", schemas.SignIn, None),
    ("/api/tournaments", "get", "List tournaments", None, None),
    ("/api/tournaments", "post", "Create a tournament of a format", schemas.TournamentIn, TD),
    ("/api/t/{tournament}", "get", "One tournament's summary and version", None, None),
    ("/api/t/{tournament}/players", "post", "Add a player, or {players: [...]}",
     (schemas.PlayerIn, schemas.PlayersIn), TD),
    ("/api/t/{tournament}/machines", "post", "Add a machine, or {machines: [...]}",
     (schemas.MachineIn, schemas.MachinesIn), TD),
    ("/api/t/{tournament}/stewards", "post", "Issue a steward PIN", schemas.StewardIn, TD),
    ("/api/t/{tournament}/scores", "post", "Push a score", schemas.ScoreIn, STEWARD),
    ("/api/t/{tournament}/settings", "post", "Change settings (standings are rebuilt)",
     schemas.SettingsIn, TD),
    ("/api/formats", "get", "Format names a tournament can be created with", None, None),
    ("/api/t/{tournament}/views", "get", "Every view at the current version", None, None),
    ("/api/t/{tournament}/views/{name}", "get", "One view (e.g. standings, machine/7)", None, None),
    ("/api/t/{tournament}/log", "get", "Records after ?after=version", None, None),
]  # fmt: skip


def _schema(model: type[BaseModel], defs: dict[str, Any]) -> dict[str, Any]:
    schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
    defs.update(schema.pop("$defs", {}))
    defs[model.__name__] = schema
    return {"$ref": f"#/components/schemas/{model.__name__}"}


def build(routes: Iterable[BaseRoute] = ()) -> dict[str, Any]:
    """The OpenAPI document (pure; also used by the docs test). Operations of competition kinds
    (``routes`` under /api/ not described above) are listed from their handlers' docstrings."""
    paths: dict[str, Any] = {}
    defs: dict[str, Any] = {"Error": ERROR}
    for path, method, summary, model, who in OPERATIONS:
        op: dict[str, Any] = {"summary": summary, "responses": {"200": {"description": "OK"}}}
        params = [p.strip("{}") for p in path.split("/") if p.startswith("{")]
        op["parameters"] = [
            {"name": p, "in": "path", "required": True, "schema": {"type": "string"}}
            for p in params
        ]
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
                 "schema": {"type": "string", "maxLength": 200},
                 "description": "A retried key returns the first answer and writes nothing."}
            )  # fmt: skip
            op["responses"] = {"201": {"description": "Written"}} if method == "post" else {}
            if path == "/api/session":
                op["responses"] = {"200": {"description": "Signed in"}}
            for code, text in WRITE_ERRORS.items():
                op["responses"][code] = {
                    "description": text,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}
                    },
                }
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
            params = [
                p.strip("{}").split(":")[0] for p in route.path.split("/") if p.startswith("{")
            ]
            op = {
                "summary": doc.splitlines()[0],
                "description": doc,
                "parameters": [
                    {"name": p, "in": "path", "required": True, "schema": {"type": "string"}}
                    for p in params
                ],
                "responses": {"200": {"description": "OK"}},
            }
            if method == "POST":
                op["security"] = [{"bearer": []}]
                op["requestBody"] = {
                    "content": {"application/json": {"schema": {"type": "object"}}}
                }
                op["responses"] = {"201": {"description": "Written"}} | {
                    code: {"description": text} for code, text in WRITE_ERRORS.items()
                }
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
    return JSONResponse(build(request.app.routes))
