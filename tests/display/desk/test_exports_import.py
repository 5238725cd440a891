"""The whole log as JSON lines, and importing it into a fresh server: identical standings, the
same validation as live writes, all or nothing."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator

import orjson
import pytest

from display.settings import Settings
from tests.display.http.test_exports import epc_field
from tests.utils import Api, serve_in_loop


@pytest.fixture
async def fresh(settings: Settings) -> AsyncIterator[Api]:
    """A second server with a Redis key prefix of its own: a fresh installation, same TD password.
    (Its keys start with the fixture's prefix, so the settings fixture removes them.)"""
    other = dataclasses.replace(settings, key_prefix=f"{settings.key_prefix}:fresh")
    async with serve_in_loop(other) as base:
        client = Api(base)
        await client.sign_in_td()
        yield client
        await client.close()


async def exported(api: Api, tid: str) -> bytes:
    r = await api.http.get(f"/api/t/{tid}/export/log.jsonl")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/x-ndjson")
    assert f'filename="{tid}.log.jsonl"' in r.headers["content-disposition"]
    return r.content


async def import_log(api: Api, tid: str, body: bytes, token: str | None = None) -> object:
    return await api.http.post(f"/api/t/{tid}/import", content=body, headers=api.headers(token))


async def test_the_log_imported_into_a_fresh_server_gives_identical_views(
    api: Api, fresh: Api
) -> None:
    await epc_field(api, "im1")
    await api.http.put("/api/t/im1/profiles/bar", json={"views": ["standings"]},
                       headers=api.headers())  # fmt: skip
    await api.post("/api/t/im1/players/4/withdraw", {"reason": "ill"})
    text = await exported(api, "im1")
    lines = [orjson.loads(line) for line in text.splitlines()]
    assert [line["seq"] for line in lines] == list(range(1, len(lines) + 1))
    assert lines[0]["type"] == "tournament_created" and lines[-1]["type"] == "player_withdrawn"
    unhashed = [{k: v for k, v in line.items() if k != "h"} for line in lines]  # h: the chain
    assert unhashed == (await api.http.get("/api/t/im1/log")).json()["records"]

    r = await import_log(fresh, "im1", text)
    assert r.status_code == 201, r.text  # type: ignore[attr-defined]
    assert r.json() == {"version": len(lines), "id": "im1", "records": len(lines)}  # type: ignore[attr-defined]
    assert await fresh.views("im1") == await api.views("im1")
    assert await exported(fresh, "im1") == text  # who and when are kept
    # it goes on like any other: Ann's 8,000 tops m2 (100 + her 100 on m1), Bo drops to 90 there
    assert (await fresh.score("im1", 1, 2, 8_000)).status_code == 201
    rows = (await fresh.views("im1"))["views"]["standings"]["rows"]
    assert (rows["1"]["total"], rows["1"]["place"], rows["2"]["total"]) == (200, 1, 180)


async def test_a_log_imported_under_a_new_id_on_the_same_server(api: Api) -> None:
    await epc_field(api, "im2")
    r = await import_log(api, "im2-copy", await exported(api, "im2"))
    assert r.status_code == 201  # type: ignore[attr-defined]
    copy, original = await api.views("im2-copy"), await api.views("im2")
    assert copy["views"]["tournament"]["id"] == "im2-copy"
    copy["views"]["tournament"]["id"] = "im2"
    assert copy == original
    r = await import_log(api, "im2", await exported(api, "im2"))
    assert r.status_code == 409  # type: ignore[attr-defined]


async def test_a_bad_log_names_the_line_and_imports_nothing(api: Api, fresh: Api) -> None:
    await epc_field(api, "im3")
    lines = (await exported(api, "im3")).splitlines()
    score = orjson.loads(lines[-1])
    unknown = orjson.dumps({**score, "player": "99"})
    cases = [
        (b"\n".join([lines[0], b"{not json"]), "Line 2 is not JSON"),
        (b"\n".join([lines[0], lines[2]]), "Line 2 has seq 3, expected 2"),
        (b"\n".join(lines[1:]), "Line 1 has seq 2, expected 1"),
        (b"\n".join([*lines[:-1], unknown]), f"Line {len(lines)} was refused: No player number 99"),
        (b"\n".join([*lines, orjson.dumps({"seq": len(lines) + 1, "type": "teleported"})]),
         f"Line {len(lines) + 1} is a teleported record"),
        (b"", "no records"),
        (b'{"type": "score_recorded"}', "must be the tournament_created record"),
    ]  # fmt: skip
    for body, message in cases:
        r = await import_log(fresh, "im3", body)
        assert r.status_code == 422, (message, r.text)  # type: ignore[attr-defined]
        assert message in r.json()["message"], r.json()["message"]  # type: ignore[attr-defined]
    assert (await fresh.http.get("/api/t/im3")).status_code == 404
    assert (await fresh.http.get("/api/tournaments")).json()["tournaments"] == []


async def test_only_the_td_imports_and_a_retry_is_not_a_duplicate(api: Api, fresh: Api) -> None:
    await epc_field(api, "im4")
    text = await exported(api, "im4")
    r = await fresh.http.post("/api/t/im4/import", content=text)
    assert r.status_code == 401
    headers = {**fresh.headers(), "Idempotency-Key": "import-im4"}
    first = await fresh.http.post("/api/t/im4/import", content=text, headers=headers)
    again = await fresh.http.post("/api/t/im4/import", content=text, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert again.json()["version"] == first.json()["version"]
