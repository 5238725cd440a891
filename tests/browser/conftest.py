"""Real headless Chromium (Debian's ``chromium``; Playwright's own downloads are not used) driving
real servers. Every page a test opens fails the test on an uncaught script error."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
import uvicorn
from playwright.async_api import Browser, Page, async_playwright, expect

from display.app import create_app, until_started
from display.cli.serve import uvicorn_config
from display.settings import Settings
from tests.utils import Api

CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
HALL = {"width": 1280, "height": 720}

expect.set_options(timeout=10_000)

NewPage = Callable[..., Awaitable[Page]]


@pytest.fixture(scope="session")
async def browser() -> AsyncIterator[Browser]:
    path = shutil.which("chromium")
    if path is None:
        pytest.fail("the browser tests need Chromium: apt-get install chromium")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield launched
        await launched.close()


@pytest.fixture
async def new_page(browser: Browser) -> AsyncIterator[NewPage]:
    """``await new_page(viewport)``: a page in a fresh context (own localStorage). Uncaught page
    errors, and errors the pages log themselves ("backglass: …"), fail the test."""
    contexts = []
    errors: list[str] = []

    def on_console(message: Any) -> None:
        if message.type == "error" and message.text.startswith("backglass"):
            errors.append(message.text)

    async def make(viewport: dict[str, int] = HALL) -> Page:
        context = await browser.new_context(viewport=viewport)  # type: ignore[arg-type]
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = await context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", on_console)
        return page

    yield make
    for context in contexts:
        await context.close()
    assert not errors, f"script errors in the page: {errors}"


@contextlib.asynccontextmanager
async def serve_on(settings: Settings, port: int) -> AsyncIterator[str]:
    """The app under uvicorn on ``port`` in this loop (tests/utils picks a free port; a restart
    must reuse the same one)."""
    app = create_app(settings)
    server = uvicorn.Server(uvicorn_config(app, "127.0.0.1", port))
    task = asyncio.create_task(server.serve())
    await until_started(app, task)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


async def steward_pin(api: Api, tid: str, name: str) -> str:
    r = await api.post(f"/api/t/{tid}/stewards", {"name": name})
    r.raise_for_status()
    return str(r.json()["pin"])


async def score_records(api: Api, tid: str) -> list[dict[str, Any]]:
    r = await api.http.get(f"/api/t/{tid}/log")
    r.raise_for_status()
    return [rec for rec in r.json()["records"] if rec["type"] == "score_recorded"]
