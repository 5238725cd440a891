"""Steward credentials through the HTTP API: issue, see who is signed in, revoke (effective at
once), sign out."""

from __future__ import annotations

from tests.utils import Api

EPC = "epc-qualifying"


async def issue(api: Api, tid: str, name: str) -> str:
    r = await api.post(f"/api/t/{tid}/stewards", {"name": name})
    assert r.status_code == 201
    return str(r.json()["pin"])


async def sign_in(api: Api, tid: str, name: str, pin: str) -> tuple[int, str | None]:
    body = {"role": "steward", "tournament": tid, "name": name, "pin": pin}
    r = await api.http.post("/api/session", json=body)
    return r.status_code, r.json().get("token")


async def test_the_td_sees_stewards_and_who_is_signed_in(api: Api) -> None:
    await api.tournament("st1", EPC, players=2, machines=1)
    await api.tournament("st2", EPC)
    sam, kim = await issue(api, "st1", "Sam"), await issue(api, "st1", "Kim")
    await issue(api, "st2", "Other")
    assert (await sign_in(api, "st1", "Sam", sam))[0] == 200
    _, token = await sign_in(api, "st1", "Sam", sam)  # a second phone
    assert (await api.score("st1", 1, 1, 100, token=token)).status_code == 201
    r = await api.http.get("/api/t/st1/stewards", headers=api.headers())
    assert r.status_code == 200
    found = {s["name"]: s for s in r.json()["stewards"]}
    assert set(found) == {"Kim", "Sam"}  # not st2's steward
    assert len(found["Sam"]["sessions"]) == 2 and found["Kim"]["sessions"] == []
    assert found["Kim"]["issued_at"]
    assert sum(1 for s in found["Sam"]["sessions"] if s["last_seen"]) == 1  # the one that scored
    assert all(0 < s["expires_in"] <= 24 * 3600 for s in found["Sam"]["sessions"])
    assert kim not in r.text and sam not in r.text  # PINs are never shown again
    r = await api.http.get("/api/sessions", headers=api.headers())
    roles = sorted((s["role"], s["name"]) for s in r.json()["sessions"])
    assert roles == [("steward", "Sam"), ("steward", "Sam"), ("td", "TD")]


async def test_revoking_ends_the_sessions_at_once_and_the_pin_stops_working(api: Api) -> None:
    await api.tournament("st3", EPC, players=2, machines=1)
    pin = await issue(api, "st3", "Sam")
    _, token = await sign_in(api, "st3", "Sam", pin)
    r = await api.http.delete("/api/t/st3/stewards/Sam", headers=api.headers())
    assert r.status_code == 200 and r.json()["revoked"] is True
    r = await api.score("st3", 1, 1, 100, token=token)
    assert r.status_code == 401
    assert (await sign_in(api, "st3", "Sam", pin))[0] == 401
    r = await api.http.get("/api/t/st3/stewards", headers=api.headers())
    assert r.json()["stewards"] == []
    r = await api.http.delete("/api/t/st3/stewards/Sam", headers=api.headers())
    assert r.status_code == 404


async def test_stewards_cannot_manage_stewards_and_anyone_can_sign_out(api: Api) -> None:
    await api.tournament("st4", EPC)
    _, token = await sign_in(api, "st4", "Sam", await issue(api, "st4", "Sam"))
    assert token
    for method, path in (("GET", "/api/t/st4/stewards"), ("DELETE", "/api/t/st4/stewards/Sam"),
                         ("GET", "/api/sessions")):  # fmt: skip
        r = await api.http.request(method, path, headers=api.headers(token))
        assert r.status_code == 403, path
    r = await api.http.delete("/api/session", headers=api.headers(token))
    assert r.status_code == 200
    left = (await api.http.get("/api/sessions", headers=api.headers())).json()["sessions"]
    assert [s["role"] for s in left] == ["td"]
    r = await api.http.delete("/api/session", headers=api.headers(token))
    assert r.status_code == 401


async def test_a_new_pin_ends_the_sessions_of_the_old_one(api: Api) -> None:
    """A PIN re-issued (say it was overheard): whoever signed in with the old one is out."""
    await api.tournament("st5", EPC, players=2, machines=1)
    old_pin = await issue(api, "st5", "Sam")
    _, old_token = await sign_in(api, "st5", "Sam", old_pin)
    assert (await api.score("st5", 1, 1, 100, token=old_token, key="st5-a")).status_code == 201
    new_pin = await issue(api, "st5", "Sam")
    assert (await api.score("st5", 2, 1, 200, token=old_token, key="st5-b")).status_code == 401
    assert (await sign_in(api, "st5", "Sam", old_pin))[0] == 401
    status, new_token = await sign_in(api, "st5", "Sam", new_pin)
    assert status == 200
    assert (await api.score("st5", 2, 1, 200, token=new_token, key="st5-c")).status_code == 201


async def test_a_players_sign_out_ends_their_session(api: Api) -> None:
    await api.tournament("st6", EPC, players=2, machines=1)
    await api.post("/api/t/st6/settings", {"settings": {"hall": {"players_may_queue": True}}})
    pin = (await api.post("/api/t/st6/players/2/pin", {})).json()["pin"]
    signed = await api.http.post("/api/t/st6/player-session", json={"player": "2", "pin": pin})
    phone = api.headers(str(signed.json()["token"]))
    join = "/api/t/st6/queues/1/join"
    assert (await api.http.post(join, json={}, headers=phone)).status_code == 201
    r = await api.http.delete("/api/session", headers=phone)
    assert r.status_code == 200 and r.json() == {"signed_out": True}
    assert (await api.http.post(join, json={}, headers=phone)).status_code == 401
    assert (await api.http.delete("/api/session", headers=phone)).status_code == 401


async def test_the_td_ends_any_listed_session(api: Api) -> None:
    await api.tournament("st7", EPC, players=2, machines=1)
    _, token = await sign_in(api, "st7", "Sam", await issue(api, "st7", "Sam"))
    listed = (await api.http.get("/api/sessions", headers=api.headers())).json()["sessions"]
    sam = next(s for s in listed if s["name"] == "Sam")
    assert len(sam["id"]) == 16 and token not in str(listed)
    r = await api.http.delete(f"/api/sessions/{sam['id']}", headers=api.headers(token))
    assert r.status_code == 403  # a steward cannot end sessions
    r = await api.http.delete(f"/api/sessions/{sam['id']}", headers=api.headers())
    assert r.status_code == 200 and r.json() == {"ended": True}
    assert (await api.score("st7", 1, 1, 100, token=token, key="st7-a")).status_code == 401
    r = await api.http.delete(f"/api/sessions/{sam['id']}", headers=api.headers())
    assert r.status_code == 404
    left = (await api.http.get("/api/sessions", headers=api.headers())).json()["sessions"]
    assert [s["role"] for s in left] == ["td"]
