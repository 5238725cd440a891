"""What every demo shares: the server it writes to (``target``: one at ``--url``, or one started in
this process, embedded Redis unless ``REDIS_URL`` is set, on the demo's own data directory
``.data/demo`` with that directory's TD password, made on the first run and kept there, so every
run prints the same one), the HTTP client a TD and a steward would be, the options every demo
command takes and how it runs. Each competition brings its own demo command
(``Competition.demos``): an EPC-style qualifying, a real UKPL meeting replayed, a Flip Well
season, the EPC weekend.

Everything but the CSV goes to stderr, so ``backglass demo ukpl meet.csv > result.csv`` works.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import fcntl
import logging
import os
import re
import shutil
import socket
import uuid
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click
import httpx

from display.http.lan import serve_urls
from display.settings import Settings, demo_settings
from display.types import Doc, FormatSettings, Json

if TYPE_CHECKING:  # imported when a demo starts its own server, not for every demo command
    import uvicorn
    from starlette.applications import Starlette

    from display.http.auth import TdPassword

Echo = Callable[[str], None]
Result = TypeVar("Result")
Command = TypeVar("Command", bound=Callable[..., object])
RETRIES = 5


def stderr(message: str) -> None:
    """The demo's default progress printer: a line on stderr."""
    click.echo(message, err=True)


class DemoError(click.ClickException):
    """The demo cannot go on (server unreachable, wrong TD password, …); the CLI prints it."""


def slug(text: str, taken: set[str] | frozenset[str] = frozenset(), limit: int = 24) -> str:
    """A short id (``[a-z0-9-]``, at most ``limit`` characters) for ``text``, not in ``taken``.

    >>> slug("Iron Maiden: Legacy of the Beast"), slug("AC/DC"), slug("AC-DC", {"ac-dc"})
    ('iron-maiden-legacy-of-th', 'ac-dc', 'ac-dc-2')
    """
    base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:limit].strip("-") or "m"
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = f"{base[: limit - len(str(n)) - 1].strip('-')}-{n}"
    return candidate


def points_text(value: object) -> str:
    """A points number from a view as the league publishes it: ``20``, ``16.5``, ``0.33``."""
    if isinstance(value, float):
        if value.is_integer():
            return str(int(value))
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return str(value)


def display_base(host: str, port: int, public_url: str | None = None) -> str:
    """The base URL (no trailing slash) to print the demo's links with: ``public_url``
    (``BACKGLASS_PUBLIC_URL``) when set; listening everywhere (0.0.0.0, ::), this machine's first
    LAN address, which a phone on the venue's network reaches without a name server
    (``display.http.lan.serve_urls``); else ``host`` itself."""
    if public_url:
        return public_url.rstrip("/")
    return serve_urls(host, port)[0].rstrip("/")


@dataclasses.dataclass
class Target:
    """Where the demo writes: the server's base URL and the TD password it accepts."""

    url: str
    td_password: str
    own_server: uvicorn.Server | None = None  # when this process started it
    data_dir: Path | None = None  # our own server's data directory (embedded Redis or not)
    password_note: str = ""  # where the TD password comes from, for the banner

    def links(self, tid: str) -> dict[str, str]:
        """The pages a person opens: hall display, steward page, players' page, index."""
        return {
            "Hall display": f"{self.url}/t/{tid}/display",
            "Steward page": f"{self.url}/t/{tid}/steward",
            "Players' page": f"{self.url}/t/{tid}/standings",
            "Index": f"{self.url}/",
        }

    @property
    def stopping(self) -> bool:
        """Whether our own server was told to stop (Ctrl-C): the demo then stops too."""
        return self.own_server is not None and bool(self.own_server.should_exit)

    async def serve_until_stopped(self) -> None:
        """With a server of our own: keep it running until Ctrl-C."""
        while self.own_server is not None and not self.stopping:
            await asyncio.sleep(0.2)

    @contextlib.contextmanager
    def playing(self, tid: str) -> Iterator[str | None]:
        """Hold ``demo-<tid>.lock`` in our own server's data directory while this run pushes the
        games of ``tid``: yields None, or, when another demo process holds it, that process
        ("pid N at URL"), and this run must only serve. With ``--url`` there is no lock (None)."""
        if self.data_dir is None:
            yield None
            return
        self.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(self.data_dir / f"demo-{tid}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                yield os.pread(fd, 200, 0).decode(errors="replace").strip() or "another process"
                return
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"pid {os.getpid()} at {self.url}".encode(), 0)
            yield None
        finally:
            os.close(fd)


def reset_demo_data(settings: Settings, echo: Echo) -> None:
    """``--reset``: remove the demo's own data directory (its Redis, tournaments, scores and TD
    password) so the run starts over. Raises DemoError, removing nothing, when a server still
    runs on it or when the data is not in a directory of the demo's own (BACKGLASS_DATA or
    REDIS_URL set: the demo then writes where those say, which may hold more than the demo)."""
    from display.embedded.redis import EmbeddedRedis

    data = settings.data_dir
    if "BACKGLASS_DATA" in os.environ or settings.redis_url is not None:
        raise DemoError(
            f"--reset removes only the demo's own data directory and its embedded Redis; with "
            f"BACKGLASS_DATA or REDIS_URL set the demo writes to {data} (prefix "
            f"{settings.key_prefix}), which may hold more than the demo: nothing was removed. "
            "Unset them, or start over with another BACKGLASS_PREFIX."
        )
    if not data.exists():
        echo(f"--reset: there is no demo data ({data}) to remove; starting a new demo.")
        return
    embedded = EmbeddedRedis(data)
    with embedded.alone() as alone:
        if not alone:
            who = "".join(f" (the demo {h})" for h in playing(data))
            raise DemoError(
                f"--reset: a Backglass server is still running on {data}{who}; stop it "
                "(Ctrl-C in its terminal) and run again. Nothing was removed."
            )
        echo(
            f"--reset: removing the demo's data directory {data} (its tournaments, scores and TD "
            "password) and starting a new demo."
        )
        embedded.stop_any()  # a Redis left by a server that was killed
        shutil.rmtree(data)


def playing(data: Path) -> list[str]:
    """The demo processes playing games on ``data`` now (their held ``demo-*.lock``): "pid N at
    URL" each."""
    found = []
    for path in sorted(data.glob("demo-*.lock")):
        fd = os.open(path, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            found.append(os.pread(fd, 200, 0).decode(errors="replace").strip())
        finally:
            os.close(fd)
    return found


@contextlib.asynccontextmanager
async def target(
    url: str | None,
    td_password: str | None,
    host: str,
    port: int,
    reset: bool = False,
    echo: Echo = stderr,
) -> AsyncIterator[Target]:
    """The server to write to: ``url`` (which needs ``td_password``), or, with no ``url``, a server
    started in this event loop on ``host``:``port`` on the demo's data directory
    (``demo_settings``), stopped on exit. It signs in with ``td_password`` if given (the TD's
    choice: it replaces the data directory's), else the data directory's own (``display/http/auth.py``).
    ``reset`` first removes the demo's data (``reset_demo_data``). Raises DemoError if it cannot
    start or has no password to sign in with."""
    if url is not None:
        if reset:
            raise DemoError("--reset starts the demo's own server over; it cannot with --url.")
        if not td_password:
            raise DemoError("With --url, give --td-password (or BACKGLASS_TD_PASSWORD).")
        yield Target(url.rstrip("/"), td_password)
        return
    import uvicorn

    from display.app import create_app, until_started
    from display.cli.serve import uvicorn_config

    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise DemoError(f"Cannot listen on {host}:{port} ({exc}); pass --port.") from None
    settings = dataclasses.replace(demo_settings(Settings.from_env()), td_password=td_password)
    if reset:
        reset_demo_data(settings, echo)
    app = create_app(settings)
    server = uvicorn.Server(uvicorn_config(app, host, port))

    async def serve() -> None:
        try:
            await server.serve()
        except SystemExit:  # uvicorn exits when startup fails; it has logged why
            raise DemoError("The server did not start (see the messages above).") from None

    task = asyncio.create_task(serve())
    try:
        await until_started(app, task)
    except RuntimeError:
        raise DemoError("The server stopped while starting.") from None
    try:
        password, note = signing_in(app, settings)
        base = display_base(host, port, settings.public_url)
        yield Target(base, password, server, data_dir=settings.data_dir, password_note=note)
    finally:
        server.should_exit = True
        await task


def signing_in(app: Starlette, settings: Settings) -> tuple[str, str]:
    """The TD password our own server took (``Services.td_password``) and a note saying where it
    is kept. Raises DemoError when the server holds one that is not kept anywhere we can read."""
    settled: TdPassword = app.state.services.td_password  # settled at start-up, before this
    if settings.td_password:
        return settings.td_password, ""
    if settled.password is None:
        raise DemoError(
            f"The TD password of {settings.data_dir} is {settled.earlier()}, not kept there: give "
            "it with --td-password (or BACKGLASS_TD_PASSWORD), or start over with --reset."
        )
    return settled.password, f" (kept in {settled.path}: the same on every run)"


class Client:
    """The HTTP calls a TD and a steward make, with the answers the demo needs."""

    def __init__(self, target: Target, echo: Echo) -> None:
        self.target, self.echo = target, echo
        self.http = httpx.AsyncClient(base_url=target.url, timeout=30)
        self.td_token = ""
        self.steward_token = ""

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.http.aclose()

    async def call(
        self, method: str, path: str, body: Json = None, token: str = "", key: str | None = None
    ) -> httpx.Response:
        """One request, retried (same Idempotency-Key) on a dropped connection or a 503. Every
        write carries a key (a fresh one unless ``key`` names it), so a retry after a lost answer
        or an unknown outcome (503 ``outcome_unknown``) is recorded at most once."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if key is None and method not in ("GET", "HEAD"):
            key = uuid.uuid4().hex
        if key:
            headers["Idempotency-Key"] = key
        for attempt in range(RETRIES):
            try:
                answer = await self.http.request(method, path, json=body, headers=headers)
            except httpx.TransportError as exc:
                if attempt == RETRIES - 1 or self.target.stopping:
                    raise DemoError(f"Cannot reach {self.target.url}{path}: {exc!r}") from None
            else:
                if answer.status_code != 503 or attempt == RETRIES - 1:
                    return answer
            await asyncio.sleep(0.2 * 2**attempt)
        raise AssertionError("unreachable")

    async def must(self, method: str, path: str, body: Json = None, token: str = "") -> Json:
        """A setup call that has to work: its JSON answer, else DemoError with the server's
        message."""
        answer = await self.call(method, path, body, token or self.td_token)
        if answer.is_error:
            raise DemoError(f"{method} {path} failed ({answer.status_code}): {message(answer)}")
        return answer.json()

    async def sign_in_td(self) -> None:
        """Sign in as the TD."""
        body = {"role": "td", "password": self.target.td_password}
        self.td_token = (await self.must("POST", "/api/session", body))["token"]

    async def create_tournament(
        self, wanted: str, name: str, fmt: str, settings: FormatSettings
    ) -> str:
        """Create a tournament as ``wanted``, or ``wanted-2``, ``wanted-3``, … if that id is
        taken (a restart on the same data). Returns the id used."""
        for n in range(1, 1000):
            tid = wanted if n == 1 else f"{wanted[:28]}-{n}"
            body = {"id": tid, "name": name, "format": fmt, "settings": settings}
            answer = await self.call("POST", "/api/tournaments", body, self.td_token)
            if answer.status_code != 409:
                if answer.is_error:
                    raise DemoError(
                        f"Cannot create {tid} ({answer.status_code}): {message(answer)}"
                    )
                return tid
        raise DemoError(f"Tournament ids {wanted} … {wanted}-999 are all taken.")

    async def sign_in_steward(self, tid: str, name: str) -> str:
        """Have the TD issue ``name`` a PIN, sign in with it; returns the PIN."""
        pin = (await self.must("POST", f"/api/t/{tid}/stewards", {"name": name}))["pin"]
        body = {"role": "steward", "tournament": tid, "name": name, "pin": pin}
        self.steward_token = (await self.must("POST", "/api/session", body))["token"]
        return str(pin)

    async def push(self, tid: str, player: str, machine: str, score: int, key: str) -> str | None:
        """Push one score as the steward. Returns None if accepted, else the server's message
        (the demo prints it and goes on)."""
        body = {"player": player, "machine": machine, "score": score}
        answer = await self.call("POST", f"/api/t/{tid}/scores", body, self.steward_token, key)
        return f"{answer.status_code}: {message(answer)}" if answer.is_error else None

    async def views(self, tid: str) -> dict[str, Doc]:
        """Every view of ``tid`` as the server has it now."""
        views: dict[str, Doc] = (await self.must("GET", f"/api/t/{tid}/views"))["views"]
        return views


def message(answer: httpx.Response) -> str:
    """The ``message`` of an error answer, or its text."""
    try:
        return str(answer.json()["message"])
    except (ValueError, KeyError, TypeError):
        return answer.text[:200]


def run(coro: Coroutine[object, object, Result]) -> Result | None:
    """Run the demo's coroutine; Ctrl-C stops it cleanly (the server shuts down first) and
    gives None."""
    logging.getLogger("httpx").setLevel(logging.WARNING)
    try:
        return asyncio.run(coro)
    except KeyboardInterrupt:
        stderr("Stopped.")
        return None


def server_options(command: Command) -> Command:
    """The options every demo command shares: where the server is, or where to start one."""
    options = [
        click.option("--url", default=None, help="An existing server; default: start one here."),
        click.option(
            "--td-password", envvar="BACKGLASS_TD_PASSWORD", default=None,
            help="TD password ($BACKGLASS_TD_PASSWORD); default with no --url: the data "
                 "directory's (made on the first run, kept in its td-password).",
        ),
        click.option("--host", default="127.0.0.1", show_default=True, help="With no --url."),
        click.option(
            "--port", type=int, default=lambda: int(os.environ.get("PORT", "8000")),
            show_default="$PORT or 8000", help="With no --url.",
        ),
        click.option("--pace", type=click.FloatRange(0), default=1.5, show_default=True,
                     help="Seconds between scores."),
        click.option("--fast", is_flag=True, help="Push as fast as the server takes them."),
        click.option("--tournament", default=None,
                     help="Tournament id (default: epc, or the file's name); if taken, ID-2, …"),
    ]  # fmt: skip
    for option in reversed(options):
        command = option(command)
    return command
