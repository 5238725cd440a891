"""If-Match on the competition kinds' changes to an existing record, on a real server and Redis:
an FWPL game's correction (``POST /league/corrections``), a UKPL adjustment's withdrawal
(``POST /adjustments/{seq}/withdraw``) and an EPC Country record's void (``POST /country/void``).

As for the hall's corrections (tests/display/http/test_preconditions.py): no version is 428 (RFC 6585 §3), a
stale one 412 ``entry_changed`` (RFC 9110 §15.5.13) and nothing is written; two TDs sending the
same version at once: one lands, the other gets 412; the answer carries the new version and an
``ETag``; a retry with the first request's Idempotency-Key gets the first answer although its
If-Match is stale by then."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from tests.display.competitions.epc_country.test_epc_country_live_builders import country_over_http
from tests.display.competitions.fwpl.test_fwpl_live import league, night, play, start
from tests.display.competitions.ukpl.test_ukpl_live_adjust import adjust, meeting
from tests.display.http.test_preconditions import log, second_td
from tests.utils import Api

Send = Callable[..., Awaitable[httpx.Response]]


def sender(api: Api, path: str, body: dict[str, Any]) -> Send:
    """POST ``body`` to ``path`` with ``if_match`` (None: no header), as the TD or ``token``."""

    async def send(
        if_match: str | None, token: str | None = None, key: str | None = None, **extra: Any
    ) -> httpx.Response:
        headers = api.headers(token, key)
        if if_match is not None:
            headers["If-Match"] = if_match
        return await api.http.post(path, json={**body, **extra}, headers=headers)

    return send


async def refuses_without_or_with_a_stale_version(
    api: Api, tid: str, send: Send, stale: list[int]
) -> None:
    """428 without a version (or ``*``), 412 for each ``stale`` one (and a weak tag), nothing
    written."""
    before = await log(api, tid)
    for header in (None, "", "*"):
        r = await send(header)
        assert (r.status_code, r.json()["error"]) == (428, "version_required"), r.text
        assert "If-Match" in r.json()["message"]
    for version in stale:
        for header in (f'"{version}"', f'W/"{version}"'):
            r = await send(header)
            assert (r.status_code, r.json()["error"]) == (412, "entry_changed"), r.text
            assert "Reload it and try again" in r.json()["message"]
    assert await log(api, tid) == before


async def one_wins(api: Api, tid: str, send: Send, version: int) -> httpx.Response:
    """Two TDs send ``version`` at once (keys "first", "second"): one 2xx with the new version
    as ``ETag``, one 412 naming it; one record appended. A retry of the winner (its If-Match now
    stale) gets its first answer and appends nothing. Returns the winner's answer."""
    other = await second_td(api)
    before = len(await log(api, tid))
    tag = f'"{version}"'
    answers = await asyncio.gather(
        send(tag, key="first"), send(tag, token=other, key="second", reason="other TD")
    )
    assert sorted(r.status_code for r in answers) == [201, 412], [r.text for r in answers]
    won = next(r for r in answers if r.status_code == 201)
    lost = next(r for r in answers if r.status_code == 412)
    now = won.json()["version"]
    assert won.headers["ETag"] == f'"{now}"'
    assert f"it is now version {now}" in lost.json()["message"]
    assert len(await log(api, tid)) == before + 1
    first = won is answers[0]
    again = await send(tag, token=None if first else other, key="first" if first else "second",
                       **({} if first else {"reason": "other TD"}))  # fmt: skip
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.json() == won.json() and again.headers["ETag"] == won.headers["ETag"]
    assert len(await log(api, tid)) == before + 1
    return won


async def test_an_fwpl_correction_names_the_games_version(api: Api) -> None:
    """A game's version is the seq of the last record that set or changed its result: the game,
    then a penalty on it, then a correction; each makes the earlier version stale."""
    await league(api, "pk1", 4)
    await start(api, "pk1", 1)
    players = list((await night(api, "pk1", 1))["groups"]["1"]["players"])
    await play(api, "pk1", 1, 1, {p: 100 * n for n, p in enumerate(players, start=1)})
    played = (await night(api, "pk1", 1))["groups"]["1"]["games"]["1"]["version"]
    assert played == (await log(api, "pk1"))[-1]["seq"]
    penalty = {"week": 1, "group": 1, "game_no": 1, "player": players[0],
               "penalty": "extra_ball", "reason": "extra ball played"}  # fmt: skip
    r = await api.post("/api/t/pk1/league/penalties", penalty)
    assert r.status_code == 201, r.text
    penalised = r.json()["version"]
    assert (await night(api, "pk1", 1))["groups"]["1"]["games"]["1"]["version"] == penalised
    fix = {"week": 1, "group": 1, "game_no": 1, "reason": "2 had 950; all agree",
           "scores": {p: 950 if n == 2 else 100 * n for n, p in enumerate(players, start=1)}}  # fmt: skip
    send = sender(api, "/api/t/pk1/league/corrections", fix)
    await refuses_without_or_with_a_stale_version(api, "pk1", send, [played, penalised + 1])
    won = await one_wins(api, "pk1", send, penalised)
    now = won.json()["version"]
    assert won.json()["game"] == {"week": 1, "group": 1, "game_no": 1, "version": now}
    game = (await night(api, "pk1", 1))["groups"]["1"]["games"]["1"]
    assert game["version"] == now and game["rows"][players[1]]["score"] == 950
    r = await send(f'"{penalised}"')
    assert r.status_code == 412 and f"it is now version {now}" in r.json()["message"]


async def test_a_ukpl_withdrawal_names_the_adjustments_version(api: Api) -> None:
    """An adjustment's version is its own seq until it is withdrawn, then the withdrawal's."""
    await meeting(api, "pk2")
    r = await adjust(api, "pk2", type="slam_tilt", player="1", machine="1", reason="slam tilt")
    assert r.status_code == 201, r.text
    seq = r.json()["adjustment"]
    assert (await api.views("pk2"))["views"]["adjustments"]["rows"][str(seq)]["version"] == seq
    send = sender(api, f"/api/t/pk2/adjustments/{seq}/withdraw", {"reason": "it was a tilt"})
    await refuses_without_or_with_a_stale_version(api, "pk2", send, [seq - 1, seq + 1])
    won = await one_wins(api, "pk2", send, seq)
    now = won.json()["version"]
    assert won.json()["adjustment"] == {"seq": seq, "version": now}
    row = (await api.views("pk2"))["views"]["adjustments"]["rows"][str(seq)]
    assert row["status"] == "withdrawn" and row["version"] == now
    assert (await send(f'"{now}"')).status_code == 409  # the current version: withdrawn already


async def test_an_epc_country_void_names_the_records_version(api: Api) -> None:
    """A standing record's version is its seq (it is never changed, only voided); once voided,
    the void's."""
    await country_over_http(api, "pk3")
    body = {"type": "late", "fixture": "A-1-1", "team": "T16", "minutes": 8, "reason": "bar"}
    r = await api.post("/api/t/pk3/country/penalties", body)
    assert r.status_code == 201, r.text
    late = r.json()["version"]
    send = sender(api, "/api/t/pk3/country/void", {"seq": late, "reason": "wrong team"})
    await refuses_without_or_with_a_stale_version(api, "pk3", send, [late - 1])
    fixture = (await api.views("pk3"))["views"]["country/fixtures"]["A-1-1"]
    assert fixture["status"] == "forfeit"
    won = await one_wins(api, "pk3", send, late)
    now = won.json()["version"]
    assert won.json()["entry"] == {"seq": late, "version": now}
    fixture = (await api.views("pk3"))["views"]["country/fixtures"]["A-1-1"]
    assert fixture["status"] == "to_play"
    r = await send(f'"{now}"')  # the current version: the rules say it is voided already
    assert r.status_code == 409 and "voided already" in r.json()["message"]
