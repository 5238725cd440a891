"""What a steward may record and how they sign in, through the HTTP API: a score above the hall's
``max_score`` is the TD's (``above_maximum``, 409), and a steward's name matches without regard to
case or Unicode form."""

from __future__ import annotations

import unicodedata

from tests.utils import Api

EPC = "epc-qualifying"


async def test_a_stewards_score_above_the_maximum_is_refused_and_the_tds_is_not(api: Api) -> None:
    await api.tournament("lim1", EPC, players=3, machines=1)
    sam = await api.sign_in_steward("lim1", "Sam")
    views = (await api.views("lim1"))["views"]
    assert views["tournament"]["hall"]["max_score"] == 10**12  # the default
    typo = 1_234_567_890_123_456  # sixteen digits: below 2^53, far above any machine
    r = await api.score("lim1", 1, 1, typo, token=sam)
    assert r.status_code == 409 and r.json()["error"] == "above_maximum"
    assert "only the TD can record" in r.json()["message"]
    assert "1,000,000,000,000" in r.json()["message"]
    r = await api.score("lim1", 1, 1, 10**12, token=sam)  # the maximum itself is allowed
    assert r.status_code == 201, r.text

    r = await api.post("/api/t/lim1/settings", {"settings": {"hall": {"max_score": 5000}}})
    assert r.status_code == 201, r.text
    r = await api.score("lim1", 2, 1, 5001, token=sam)
    assert r.status_code == 409 and r.json()["error"] == "above_maximum"
    r = await api.score("lim1", 2, 1, 5001)  # the TD's token
    assert r.status_code == 201, r.text
    rows = (await api.views("lim1"))["views"]["machine/1"]["rows"]
    assert rows["2"]["score"] == 5001 and rows["1"]["score"] == 10**12


async def test_a_bad_maximum_is_a_plain_settings_error(api: Api) -> None:
    await api.tournament("lim2", EPC, players=1, machines=1)
    r = await api.post("/api/t/lim2/settings", {"settings": {"hall": {"max_score": -1}}})
    assert r.status_code == 422
    assert "hall.max_score must be a whole number" in r.json()["message"]


async def test_steward_names_match_without_regard_to_case_or_unicode_form(api: Api) -> None:
    await api.tournament("lim3", EPC, players=1, machines=1)
    r = await api.post("/api/t/lim3/stewards", {"name": "Åsa"})
    pin = r.json()["pin"]
    for typed in ("åsa", "ÅSA", unicodedata.normalize("NFD", "åsa"), " Åsa"):
        body = {"role": "steward", "tournament": "lim3", "name": typed.strip(), "pin": pin}
        r = await api.http.post("/api/session", json=body)
        assert r.status_code == 200, (typed, r.text)
        assert r.json()["name"] == "Åsa"
        token = r.json()["token"]
    r = await api.score("lim3", 1, 1, 100, token=token)
    assert r.status_code == 201 and r.json()["record"]["by"] == "steward:Åsa"
    body = {"role": "steward", "tournament": "lim3", "name": "Asa", "pin": pin}
    assert (await api.http.post("/api/session", json=body)).status_code == 401
