"""Every record says who wrote it and when (server time), and every correction, void and penalty
says why (docs/integrity.md): the demos' tournaments, every kind of competition, walked record by
record; and ``write()`` refuses a record that does not, so a new endpoint cannot forget."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import uvicorn
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from display import competitions
from display.app import create_app, until_started
from display.cli.demo.common import Client, target
from display.cli.serve import uvicorn_config
from display.competitions.epc_country.demo import run_country
from display.competitions.epc_main.demo import Weekend
from display.competitions.fwpl.demo import run_fwpl
from display.competitions.machines.demo import run_epc
from display.competitions.ukpl.demo import replay_ukpl
from display.http import endpoint
from display.log.integrity import audit_problem
from display.settings import Settings
from tests.cases import UKPL as CASES
from tests.utils import TD_PASSWORD, Api, free_port


async def logs(api: Api) -> dict[str, list[dict[str, Any]]]:
    listed = (await api.http.get("/api/tournaments")).json()["tournaments"]
    found = {}
    for tournament in listed:
        tid = tournament["id"]
        found[tid] = (await api.http.get(f"/api/t/{tid}/log")).json()["records"]
    return found


async def test_every_record_of_the_demos_says_who_when_and_why(
    server: str, api: Api, tmp_path: Path
) -> None:
    """Cheap runs of the demos (the hall with its queues, a UKPL meeting, an FWPL season, the EPC
    Country Competition) and a correction, void and penalty of each sort the hall and UKPL have.
    (The EPC main stages run in ``test_epc_main_weekend`` through the same ``write()`` guard.)"""
    started = datetime.now(UTC)
    quiet: Any = lambda line: None  # noqa: E731
    await run_epc(url=server, td_password=TD_PASSWORD, players=8, machines=3, seed=3, fast=True,
                  echo=quiet)  # fmt: skip
    meet = tmp_path / "meet.csv"
    meet.write_text("".join((CASES / "meet-609-scores.csv").read_text().splitlines(True)[:40]))
    await replay_ukpl(meet, url=server, td_password=TD_PASSWORD, fast=True, echo=quiet)
    await run_fwpl(url=server, td_password=TD_PASSWORD, players=18, weeks=1, seed=5, fast=True,
                   echo=quiet)  # fmt: skip
    async with target(server, TD_PASSWORD, "127.0.0.1", 0) as tgt, Client(tgt, quiet) as client:
        await client.sign_in_td()
        await run_country(Weekend(client, random.Random(1), 0.0, quiet), "au")
    await corrections(api)

    types: Counter[str] = Counter()
    for tid, records in (await logs(api)).items():
        for record in records:
            types[record["type"]] += 1
            assert audit_problem(record, competitions.reason_required()) is None, (tid, record)
            assert record["by"].partition(":")[2], (tid, record)  # role:name
            at = datetime.fromisoformat(record["at"])
            assert at.utcoffset() == timedelta(0), (tid, record)  # UTC, server time
            assert started - timedelta(seconds=1) <= at <= datetime.now(UTC), (tid, record)
    kinds = {"queue_joined", "score_recorded", "game_recorded", "match_game_recorded"}
    assert kinds <= set(types), types  # the hall, UKPL, FWPL and Country demos all ran
    why = {"score_corrected", "score_voided", "player_withdrawn", "slam_tilt", "penalty",
           "adjustment_withdrawn"}  # fmt: skip
    assert why <= set(types) and why <= competitions.reason_required()


async def corrections(api: Api) -> None:
    """A hall correction, void and withdrawal, and UKPL adjustments, with their reasons."""
    await api.tournament("au-hall", "epc-qualifying", players=3, machines=1)
    seqs = [(await api.score("au-hall", p, 1, 100 * p)).json()["version"] for p in (1, 2)]
    headers = {**api.headers(), "If-Match": f'"{seqs[0]}"'}
    for seq, action in zip(seqs, ("correct", "void"), strict=True):
        headers["If-Match"] = f'"{seq}"'
        body = {"score": 150, "reason": "misread"} if action == "correct" else {"reason": "twice"}
        r = await api.http.post(f"/api/t/au-hall/scores/{seq}/{action}", json=body, headers=headers)
        assert r.status_code == 201, r.text
    r = await api.post("/api/t/au-hall/players/3/withdraw", {"reason": "ill"})
    assert r.status_code == 201, r.text

    await api.tournament("au-ukpl", "ukpl-meeting", players=2, machines=1)
    for player in (1, 2):
        assert (await api.score("au-ukpl", player, 1, 1000 * player)).status_code == 201
    adjustments = [
        {"type": "slam_tilt", "player": "1", "machine": "1", "reason": "slam tilt, ball 2"},
        {"type": "penalty", "player": "2", "level": "zero", "machine": "1", "reason": "rude"},
    ]
    for body in adjustments:
        r = await api.post("/api/t/au-ukpl/adjustments", body)
        assert r.status_code == 201, r.text
    seq = r.json()["adjustment"]
    headers = {**api.headers(), "If-Match": f'"{seq}"'}
    r = await api.http.post(
        f"/api/t/au-ukpl/adjustments/{seq}/withdraw",
        json={"reason": "appeal upheld"},
        headers=headers,
    )
    assert r.status_code == 201, r.text


async def test_write_refuses_a_record_without_who_or_when(settings: Settings) -> None:
    """An endpoint that forgets ``stamp()`` fails (500, a programming error) and writes nothing."""

    async def unstamped(request: Request) -> Response:
        record: dict[str, Any] = {"type": "player_added", "player": {"number": "9", "name": "X"}}
        if request.query_params.get("stamp"):
            record = {**record, "by": "td:TD", "at": endpoint.now()}
        seq, _ = await endpoint.write(request, "au1", [record])
        return JSONResponse({"version": seq})

    app = create_app(settings)
    app.router.routes.append(Route("/test/unstamped", unstamped, methods=["POST"]))
    port = free_port()
    server = uvicorn.Server(uvicorn_config(app, "127.0.0.1", port))
    task = asyncio.create_task(server.serve())
    await until_started(app, task)
    try:
        client = Api(f"http://127.0.0.1:{port}")
        await client.sign_in_td()
        await client.tournament("au1", "epc-qualifying")
        r = await client.http.post("/test/unstamped")
        assert r.status_code == 500  # a programming error, not the client's
        log = (await client.http.get("/api/t/au1/log")).json()["records"]
        assert [r["type"] for r in log] == ["tournament_created"]
        r = await client.http.post("/test/unstamped?stamp=1")  # the same, stamped: written
        assert r.status_code == 200 and r.json()["version"] == 2
        await client.close()
    finally:
        server.should_exit = True
        await task
