"""Settings that take one of a fixed set publish their values with a meaning each (GET
/api/templates), every value published is one the format takes, and a value outside them is
refused with the setting's name and its values, at creation and after."""

from __future__ import annotations

from typing import Any

import pytest

from display import competitions
from display.desk import catalog
from tests.utils import Api

TEMPLATES = [t.id for t in competitions.templates() if t.format in competitions.formats()]
FREE_TEXT = {"region", "season", "meet", "held"}
"""UKPL meeting settings that are names and dates, not choices (display.competitions.ukpl.records)."""


async def listed(api: Api) -> dict[str, dict[str, Any]]:
    r = await api.http.get("/api/templates")
    assert r.status_code == 200
    return {t["id"]: t for t in r.json()["templates"]}


async def create(api: Api, tid: str, template: str, settings: dict[str, Any]) -> Any:
    body = {"id": tid, "name": tid, "template": template, "settings": settings}
    return await api.post("/api/tournaments/from-template", body)


@pytest.mark.parametrize("template", TEMPLATES)
async def test_every_text_setting_of_a_tournament_has_its_choices(api: Api, template: str) -> None:
    published = (await listed(api))[template]
    tid = "c-" + template
    assert (await create(api, tid, template, {})).status_code == 201
    settings = (await api.views(tid))["views"]["tournament"]["settings"]
    text = {k for k, v in settings.items() if isinstance(v, str)} - FREE_TEXT
    assert text, template
    assert text <= set(published["choices"]), text - set(published["choices"])
    for key in text:
        values = [c["value"] for c in published["choices"][key]]
        assert settings[key] in values, (key, settings[key], values)
        assert all(len(c["meaning"]) > 10 for c in published["choices"][key]), key
    for setting in published["settings"]:
        if setting["key"] in published["choices"]:
            assert setting["choices"] == published["choices"][setting["key"]]


@pytest.mark.parametrize("template", TEMPLATES)
async def test_each_published_value_is_taken_and_another_refused(api: Api, template: str) -> None:
    spec = catalog.find(template)
    assert spec is not None
    choices = (await listed(api))[template]["choices"]
    tid = "v-" + template
    assert (await create(api, tid, template, {})).status_code == 201
    made = 0
    for key, options in choices.items():
        for option in options:
            made += 1
            r = await create(api, f"{tid}-{made}", template, {key: option["value"]})
            assert r.status_code == 201, (key, option, r.text)
        bad = await create(api, f"{tid}-bad", template, {key: "sometimes"})
        assert bad.status_code == 422, (key, bad.text)
        message = bad.json()["message"]
        assert key in message and "sometimes" in message, message
        assert all(o["value"] in message for o in options[:2]), message
        assert (await api.http.get(f"/api/t/{tid}-bad")).status_code == 404
        later = await api.post(f"/api/t/{tid}/settings", {"settings": {key: "sometimes"}})
        assert later.status_code == 422, (key, later.text)
        assert key in later.json()["message"]
    settings = (await api.views(tid))["views"]["tournament"]["settings"]
    for default in spec.defaults:
        if default.key in choices:
            assert settings[default.key] == default.value  # nothing half-written
