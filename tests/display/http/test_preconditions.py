"""Duplicate and concurrent writes on a real server: corrections and voids name the entry's
version (``If-Match``, RFC 9110 §13.1.1), so two TDs fixing one entry at once cannot overwrite
each other unseen (412, RFC 9110 §15.5.13), and a change without a version is refused (428,
RFC 6585 §3). Retries with one Idempotency-Key get the first answer and write nothing.

20 identical pushes at once with one key, and the same key with another body (422), are in
``tests/display/http/test_api.py`` (test_concurrent_retries_with_one_key_write_once,
test_idempotency_key_returns_first_answer_and_writes_once)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from display.log.writer import Writer
from display.settings import Settings
from tests.utils import Api, serve_with_services

EPC = "epc-qualifying"


async def change(
    api: Api,
    tid: str,
    seq: int,
    action: str,
    body: dict[str, Any],
    if_match: str | bytes | None = None,
    token: str | None = None,
    key: str | None = None,
) -> httpx.Response:
    headers = api.headers(token, key)
    if if_match is not None:
        headers["If-Match"] = if_match  # type: ignore[assignment]  # bytes go as latin-1
    return await api.http.post(f"/api/t/{tid}/scores/{seq}/{action}", json=body, headers=headers)


async def log(api: Api, tid: str) -> list[dict[str, Any]]:
    return (await api.http.get(f"/api/t/{tid}/log")).json()["records"]  # type: ignore[no-any-return]


async def second_td(api: Api) -> str:
    r = await api.http.post("/api/session", json={"role": "td", "password": "td-test-password"})
    return str(r.json()["token"])


async def test_two_tds_correcting_one_entry_at_once_one_wins_the_other_gets_412(api: Api) -> None:
    """Each round: two TDs (two sign-ins) open the same entry at the same version and save at
    once. Exactly one correction lands; the other is told the entry changed."""
    await api.tournament("pc1", EPC, players=6, machines=1)
    other = await second_td(api)
    for player in range(1, 7):
        seq = (await api.score("pc1", player, 1, 1000 * player)).json()["version"]
        ours = change(api, "pc1", seq, "correct", {"score": 11, "reason": "a"}, f'"{seq}"')
        theirs = change(
            api, "pc1", seq, "correct", {"score": 22, "reason": "b"}, f'"{seq}"', token=other
        )
        answers = await asyncio.gather(ours, theirs)
        assert sorted(r.status_code for r in answers) == [201, 412], [r.text for r in answers]
        won = next(r for r in answers if r.status_code == 201)
        lost = next(r for r in answers if r.status_code == 412)
        now = won.json()["version"]
        assert won.headers["ETag"] == f'"{now}"' and won.json()["entry"] == {
            "seq": seq,
            "version": now,
        }
        assert lost.json() == {
            "error": "entry_changed",
            "message": f"Someone changed this entry since you opened it (it is now version {now})."
            " Reload it and try again.",
        }
        fixes = [r for r in await log(api, "pc1") if r.get("corrects") == seq]
        assert [r["seq"] for r in fixes] == [now]
        row = (await api.views("pc1"))["views"]["machine/1"]["rows"][str(player)]
        assert row["score"] == won.json()["record"]["score"]


async def test_a_correction_and_a_void_at_once_only_one_lands(api: Api) -> None:
    await api.tournament("pc2", EPC, players=1, machines=1)
    other = await second_td(api)
    seq = (await api.score("pc2", 1, 1, 500)).json()["version"]
    answers = await asyncio.gather(
        change(api, "pc2", seq, "correct", {"score": 5, "reason": "typo"}, f'"{seq}"'),
        change(api, "pc2", seq, "void", {"reason": "wrong"}, f'"{seq}"', token=other),
    )
    corrected, voided = answers
    texts = [r.text for r in answers]
    assert sorted(r.status_code for r in answers) in ([201, 409], [201, 412]), texts
    if voided.status_code == 201:
        # The void got in first: the correction names the void (a voided entry stays 409, it
        # says who voided it) or, had it reached the version check first, 412.
        assert corrected.status_code in (409, 412), texts
        if corrected.status_code == 409:
            assert "void" in corrected.json()["message"].lower(), texts
    else:  # the correction got in first: the void's version is stale
        assert (corrected.status_code, voided.status_code) == (201, 412), texts
    records = await log(api, "pc2")
    assert sum(r["type"] in ("score_corrected", "score_voided") for r in records) == 1


async def test_without_a_version_a_change_is_428_and_nothing_is_written(api: Api) -> None:
    await api.tournament("pc3", EPC, players=1, machines=1)
    seq = (await api.score("pc3", 1, 1, 500)).json()["version"]
    before = await log(api, "pc3")
    for action, body in (("correct", {"score": 5, "reason": "x"}), ("void", {"reason": "x"})):
        for header in (None, "", "*"):
            r = await change(api, "pc3", seq, action, body, header)
            assert r.status_code == 428 and r.json()["error"] == "version_required", r.text
            assert "If-Match" in r.json()["message"]
        r = await change(api, "pc3", seq, action, body, str(seq))  # not an entity tag
        assert r.status_code == 400 and r.json()["error"] == "invalid_if_match"
        r = await change(api, "pc3", seq, action, body, f'W/"{seq}"')  # weak never matches
        assert r.status_code == 412
        for odd in (
            '"²"'.encode("latin-1"),
            '"' + "9" * 5000 + '"',
        ):  # not a version: no match, and never a 500
            r = await change(api, "pc3", seq, action, body, odd)
            assert r.status_code == 412, r.text
    assert await log(api, "pc3") == before
    r = await change(api, "pc3", seq, "void", {"reason": "x"}, f'"1", "{seq}"')  # a list
    assert r.status_code == 201


async def test_a_stale_version_after_a_correction_is_412(api: Api) -> None:
    await api.tournament("pc4", EPC, players=1, machines=1)
    seq = (await api.score("pc4", 1, 1, 500)).json()["version"]
    first = await change(api, "pc4", seq, "correct", {"score": 5, "reason": "a"}, f'"{seq}"')
    assert first.status_code == 201
    now = first.json()["version"]
    for target in (seq, now):  # naming the score or its correction: the same entry
        r = await change(api, "pc4", target, "correct", {"score": 6, "reason": "b"}, f'"{seq}"')
        assert r.status_code == 412 and f"it is now version {now}" in r.json()["message"]
        r = await change(api, "pc4", target, "void", {"reason": "b"}, f'"{seq}"')
        assert r.status_code == 412
    r = await change(api, "pc4", seq, "correct", {"score": 6, "reason": "b"}, f'"{now}"')
    assert r.status_code == 201 and r.json()["entry"] == {
        "seq": seq,
        "version": r.json()["version"],
    }
    assert (await api.views("pc4"))["views"]["machine/1"]["rows"]["1"]["score"] == 6


async def test_a_retried_correction_gets_its_first_answer_even_with_its_old_version(
    api: Api,
) -> None:
    """The retry's If-Match is stale once the first try landed; the key is checked first, so it
    gets the first answer. 20 copies at once (queued behind the write lock) write once too."""
    await api.tournament("pc5", EPC, players=1, machines=1)
    seq = (await api.score("pc5", 1, 1, 500)).json()["version"]
    body = {"score": 7, "reason": "typo"}
    copies = [change(api, "pc5", seq, "correct", body, f'"{seq}"', key="fix-1") for _ in range(20)]
    await asyncio.gather(*[api.http.get("/api/tournaments") for _ in range(20)])  # connected
    answers = await asyncio.gather(*copies)
    assert {r.status_code for r in answers} == {201}, {r.text for r in answers}
    assert len({r.json()["version"] for r in answers}) == 1
    assert len({r.headers["ETag"] for r in answers}) == 1
    late = await change(api, "pc5", seq, "correct", body, f'"{seq}"', key="fix-1")
    assert late.status_code == 201 and late.headers["Idempotent-Replayed"] == "true"
    assert late.json() == answers[0].json()
    assert sum(r["type"] == "score_corrected" for r in await log(api, "pc5")) == 1
    other = await change(api, "pc5", seq, "correct", {**body, "score": 8}, f'"{seq}"', key="fix-1")
    assert other.status_code == 422  # the same key with another body


async def test_copies_queued_behind_the_write_lock_get_the_first_answer(
    settings: Settings,
) -> None:
    """20 copies of a push and of a correction (one key each) all pass the first key check
    while another writer holds the tournament's write lock, then queue for it (in the writer's
    queue for the tournament's next group commit). The first writes; the others must answer as
    it did, not be refused by the rules ("already played": no jokers) or by their now stale
    If-Match."""
    async with serve_with_services(settings) as (base, services, _):
        api = Api(base)
        await api.sign_in_td()
        try:
            await queued_copies(api, services.replica.write_lock("pq1"), services.writer)
        finally:
            await api.close()


async def queued_copies(api: Api, lock: asyncio.Lock, writer: Writer) -> None:
    """The steps of the test above, while another writer holds ``lock`` (the tournament's)."""
    await api.tournament("pq1", EPC, players=2, machines=1, settings={"jokers_per_player": 0})
    first = (await api.score("pq1", 1, 1, 100)).json()["version"]
    fix = {"score": 7, "reason": "typo"}
    for send in (
        lambda: api.score("pq1", 2, 1, 200, key="push-1"),
        lambda: change(api, "pq1", first, "correct", fix, f'"{first}"', key="fix-1"),
    ):
        async with lock:  # a writer busy with this tournament
            copies = [asyncio.create_task(send()) for _ in range(20)]
            for _ in range(1000):  # until all 20 wait for the lock
                if writer.queued("pq1") == 20:
                    break
                await asyncio.sleep(0.01)
            else:
                raise AssertionError("the copies did not all queue")
        answers = await asyncio.gather(*copies)
        codes = [r.status_code for r in answers]
        assert codes == [201] * 20, {r.text for r in answers}
        assert len({r.text for r in answers}) == 1
    records = await log(api, "pq1")
    assert [r["type"] for r in records].count("score_recorded") == 2
    assert [r["type"] for r in records].count("score_corrected") == 1


async def test_a_steward_voiding_another_s_entry_is_403_before_any_version_check(
    api: Api,
) -> None:
    await api.tournament("pc6", EPC, players=2, machines=1)
    sam, kim = await api.sign_in_steward("pc6", "Sam"), await api.sign_in_steward("pc6", "Kim")
    mine = (await api.score("pc6", 1, 1, 700, token=sam)).json()["version"]
    theirs = (await api.score("pc6", 2, 1, 800, token=kim)).json()["version"]
    r = await change(api, "pc6", theirs, "void", {"reason": "x"}, None, token=sam)
    assert r.status_code == 403
    r = await change(api, "pc6", mine, "void", {"reason": "x"}, None, token=sam)
    assert r.status_code == 428
    r = await change(api, "pc6", mine, "void", {"reason": "x"}, f'"{mine}"', token=sam)
    assert r.status_code == 201 and r.headers["ETag"] == f'"{r.json()["version"]}"'


@pytest.mark.parametrize("fmt", ["ukpl-meeting", "epc-main"])
async def test_kinds_that_wrap_the_hall_check_the_version_too(api: Api, fmt: str) -> None:
    """A UKPL meeting and EPC main's qualifying keep the hall inside their own state; the check
    must find the entry there."""
    tid = f"pk-{fmt}"
    await api.tournament(tid, fmt, players=2, machines=1)
    r = await api.score(tid, 1, 1, 5000)
    assert r.status_code == 201, r.text
    seq = r.json()["version"]
    body = {"score": 6000, "reason": "typo"}
    first = await change(api, tid, seq, "correct", body, f'"{seq}"')
    assert first.status_code == 201, first.text
    again = await change(api, tid, seq, "correct", {**body, "score": 7000}, f'"{seq}"')
    assert again.status_code == 412 and again.json()["error"] == "entry_changed"
    gone = await change(api, tid, seq, "void", {"reason": "x"}, first.headers["ETag"])
    assert gone.status_code == 201, gone.text
