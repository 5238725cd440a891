"""A steward's write checks its session in the append itself (``display/http/auth.py``,
"Sessions"): the server may take the steward it read moments ago without reading the session
again, so the append must refuse once the session ended. A revoked steward's score, queue action
and refused score are all answered 401 at once, and nothing is written. Real server, real Redis."""

from __future__ import annotations

from display.http.auth import SEEN_EVERY
from tests.utils import Api

EPC = "epc-qualifying"


async def head(api: Api, tid: str) -> int:
    records = (await api.http.get(f"/api/t/{tid}/log")).json()["records"]
    return int(records[-1]["seq"])


async def test_a_steward_revoked_moments_after_a_score_can_write_nothing_more(api: Api) -> None:
    await api.tournament("sw", EPC, players=3, machines=2)
    sam = await api.sign_in_steward("sw", "Sam")
    first = await api.score("sw", 1, 1, 1000, token=sam)
    assert first.status_code == 201, first.text  # this process now knows Sam's session
    assert SEEN_EVERY >= 5  # the next requests come well within the interval
    version = await head(api, "sw")
    assert (
        await api.http.delete("/api/t/sw/stewards/Sam", headers=api.headers())
    ).status_code == 200

    valid = await api.score("sw", 2, 1, 2000, token=sam)
    assert valid.status_code == 401 and valid.json()["error"] == "sign_in_required", valid.text
    refused_by_rules = await api.score("sw", 1, 1, 3000, token=sam)  # player 1 played machine 1
    assert refused_by_rules.status_code == 401, refused_by_rules.text
    queued = await api.post("/api/t/sw/queues/2/join", {"player": "3"}, token=sam)
    assert queued.status_code == 401, queued.text
    retried = await api.score("sw", 2, 1, 2000, token=sam, key="after-revoke")
    assert retried.status_code == 401, retried.text
    assert await head(api, "sw") == version  # nothing was written

    kim = await api.sign_in_steward("sw", "Kim")  # another steward's writes go on
    assert (await api.score("sw", 2, 1, 2000, token=kim)).status_code == 201
    assert (await api.post("/api/t/sw/queues/2/join", {"player": "3"}, token=kim)).json()["record"][
        "type"
    ] == "queue_joined"
    assert await head(api, "sw") == version + 2


async def test_a_signed_out_steward_can_write_nothing_more(api: Api) -> None:
    await api.tournament("so", EPC, players=2, machines=1)
    sam = await api.sign_in_steward("so", "Sam")
    assert (await api.score("so", 1, 1, 1000, token=sam)).status_code == 201
    version = await head(api, "so")
    out = await api.http.delete("/api/session", headers={"Authorization": f"Bearer {sam}"})
    assert out.status_code in (200, 204), out.text
    r = await api.score("so", 2, 1, 2000, token=sam)
    assert r.status_code == 401, r.text
    assert await head(api, "so") == version
