"""HTML pages: the hall display, the steward page, the players' page, an index.

The pages are thin: each renders a template with a small JSON config and loads ``live.js`` (the
protocol client of docs/protocol.md) plus one script of its own, which draw everything from the
live views. Static URLs carry a hash of the file's contents (``static_url``) so a kiosk that
reloads always gets the code the server has, never a stale cached copy.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from display import competitions
from display.http import venue_time
from display.http.lan import public_base
from display.services import Services, TournamentSummary

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"
BUILTIN_VIEWS = ("machines", "standings", "queue")
CHOSEN_VIEWS = ("movers",)
"""Built-in views a display shows only when asked (``?views=`` or a profile), not by default."""


def page_links(tournament: TournamentSummary) -> list[tuple[str, str]]:
    """Every page of a tournament as (label, URL), for the index and the desk: the common ones,
    then its competition's (``Competition.pages``)."""
    tid, fmt = tournament["id"], tournament.get("format") or ""
    common = [
        ("Hall display", "display"),
        ("Standings", competitions.players_page(fmt)),
        ("Steward", "steward"),
        ("Queues", "queue"),
        ("Audit", "audit"),
        ("TD desk", "desk"),
    ]
    own = [(page.label, page.path) for page in competitions.pages(fmt)]
    return [(label, f"/t/{tid}/{path}") for label, path in (*common, *own)]


def default_views(fmt: str | None) -> list[str]:
    """What a hall display of format ``fmt`` rotates through when its URL names no views: its
    competition's choice (``Competition.display_views``), else the built-in machine views."""
    known = set(known_views())
    wanted = [v for v in competitions.display_views(fmt) if v in known]
    return wanted or list(BUILTIN_VIEWS)


def offered_views(fmt: str | None) -> list[str]:
    """The views a hall display of format ``fmt`` can show, for the desk's display editor: its
    competition's own views and default rotation, and the built-in machine views where that
    competition's displays use them (or it ships no views of its own, as the per-machine formats)."""
    found = competitions.find(fmt)
    own = list(found.format_views.get(fmt or "", found.view_scripts)) if found else []
    rotation = list(competitions.display_views(fmt))
    builtin = [*BUILTIN_VIEWS, *CHOSEN_VIEWS]
    uses_builtin = not own or any(view in BUILTIN_VIEWS for view in rotation)
    offered = [*rotation, *(builtin if uses_builtin else []), *own]
    known = set(known_views())
    return [view for i, view in enumerate(offered) if view in known and view not in offered[:i]]


def known_views() -> list[str]:
    """Every view a hall display can show: the built-in ones (static/display.js) and those the
    competitions ship (``Competition.view_scripts``)."""
    return [*BUILTIN_VIEWS, *CHOSEN_VIEWS, *sorted(competitions.view_scripts())]


_hashes: dict[str, tuple[int, int, str]] = {}


def static_url(name: str) -> str:
    """``/static/<name>?v=<12 hex digits of the SHA-256 of its contents>``; recomputed when the
    file changes (by mtime and size), so editing a file needs no restart."""
    path = (STATIC / name).resolve()
    if not path.is_relative_to(STATIC) or not path.is_file():
        raise FileNotFoundError(f"no static file {name}")
    stat = path.stat()
    cached = _hashes.get(name)
    if cached is None or cached[:2] != (stat.st_mtime_ns, stat.st_size):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        cached = _hashes[name] = (stat.st_mtime_ns, stat.st_size, digest)
    return f"/static/{name}?v={cached[2]}"


templates = Jinja2Templates(directory=ROOT / "templates")
templates.env.globals["static_url"] = static_url
templates.env.globals["tournament_links"] = page_links
templates.env.globals["players_page"] = lambda t: competitions.players_page(t.get("format"))


def services(request: Request) -> Services:
    """The server's ``Services`` (as ``display.http.endpoint.services``)."""
    svc: Services = request.app.state.services  # Starlette's state is untyped
    return svc


def render(request: Request, name: str, status: int = 200, **context: object) -> Response:
    """Template ``name`` (under ``templates/``) rendered with ``context``, answered ``status``.
    A page ``config`` naming a tournament gets its ``time_zone`` (``display/http/venue_time.py``),
    so every time the page shows is the venue's."""
    config = context.get("config")
    if isinstance(config, dict) and isinstance(config.get("tournament"), str):
        live = services(request).replica.tournaments.get(config["tournament"])
        meta = live.meta if live is not None else {}
        context["config"] = {**config, "time_zone": venue_time.zone_of(meta)}
    return templates.TemplateResponse(request, name, context, status_code=status)


def tournament_or_none(request: Request) -> TournamentSummary | None:
    """The summary of the path's tournament, or None if this server does not know it."""
    tid = request.path_params["tournament"]
    live = services(request).replica.tournaments.get(tid)
    if live is None or live.kind is None:
        return None
    return services(request).summary(tid)


def not_found(request: Request) -> Response:
    """The 404 page for the path's unknown ``{tournament}``."""
    tid = request.path_params["tournament"]
    return render(request, "not_found.html", status=404, tid=tid)


Finder = Callable[[Request], Mapping[str, object] | None]
Endpoint = Callable[[Request], Awaitable[Response]]


def tournament_page(
    about: str,
    template: str,
    find: Finder = tournament_or_none,
    query: tuple[str, ...] = (),
    **fixed: object,
) -> Endpoint:
    """An endpoint rendering ``template`` for the path's ``{tournament}``, described by ``about``
    (its docstring): its page ``config`` holds the tournament's id, each ``query`` parameter of
    the request (None when absent) and the ``fixed`` values. ``find`` says which tournaments
    have this page (e.g. only a format's own); for any other, or an unknown id, the 404 page."""

    async def page(request: Request) -> Response:
        tournament = find(request)
        if tournament is None:
            return not_found(request)
        config = {"tournament": tournament["id"], **fixed}
        config.update({name: request.query_params.get(name) for name in query})
        return render(request, template, tournament=tournament, config=config)

    page.__doc__ = about
    return page


def number(raw: str | None, default: float, low: float, high: float) -> float:
    """A query parameter as a number clamped to [low, high]; the default when absent or invalid."""
    try:
        value = float(raw) if raw else default
    except ValueError:
        return default
    return min(max(value, low), high) if value == value else default


def listed(raw: str | None) -> list[str]:
    """A comma-separated query parameter as its non-blank items."""
    return [part.strip() for part in (raw or "").split(",") if part.strip()]


async def index(request: Request) -> Response:
    """Every tournament this server runs, with links to its pages."""
    found = await services(request).listing()
    return render(request, "index.html", tournaments=sorted(found, key=lambda t: t["id"]))


async def display(request: Request) -> Response:
    """The hall display. ``views``: which rotate, in order (machines, standings, queue, and any
    view a competition ships, ``Competition.view_scripts``);
    ``seconds``: per page; ``rows``: rows per column (default: as many as fit);
    ``machines``: only these machine ids (a display per bank of machines)."""
    tournament = tournament_or_none(request)
    if tournament is None:
        return not_found(request)
    query = request.query_params
    known = known_views()
    chosen = [v for v in listed(query.get("views")) if v in known]
    chosen = chosen or default_views(tournament.get("format"))
    rows = number(query.get("rows"), 0, 0, 200)
    config = {
        "tournament": tournament["id"],
        "views": list(dict.fromkeys(chosen)),
        "seconds": number(query.get("seconds"), 12, 2, 3600),
        "rows": int(rows) or None,
        "machines": listed(query.get("machines")) or None,
    }
    plugins = list(competitions.view_scripts().values())
    styles = competitions.view_styles()
    page = competitions.players_page(tournament.get("format"))
    players_url = f"{public_base(request)}/t/{tournament['id']}/{page}"  # as the QR code encodes
    return render(
        request, "display.html", tournament=tournament, config=config, plugins=plugins,
        styles=styles, players_url=players_url,
    )  # fmt: skip


steward = tournament_page(
    "The steward page: push scores to the path's tournament.",
    "steward.html",
)

standings = tournament_page(
    "The players' page; ``player``: open that player's line.",
    "standings.html",
    query=("player",),
)


routes = [
    Route("/", index, methods=["GET"]),
    Route("/t/{tournament}/display", display, methods=["GET"]),
    Route("/t/{tournament}/steward", steward, methods=["GET"]),
    Route("/t/{tournament}/standings", standings, methods=["GET"]),
]
