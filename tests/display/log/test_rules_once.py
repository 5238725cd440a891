"""A push runs the rules once: the writer applies its own records with the state it validated,
and the replica's tail leaves them alone (docs/architecture.md, write path step 5)."""

from __future__ import annotations

import pytest

from display.live.tournament import LiveTournament
from display.settings import Settings
from tests.utils import Api, serve_with_services


async def test_the_tail_does_not_apply_a_push_this_process_wrote(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    replayed: list[int] = []  # records the tail applied by running the rules again
    apply_one = LiveTournament._apply_one

    def counting(self: LiveTournament, record: object) -> set[str]:
        replayed.append(record.seq)  # type: ignore[attr-defined]
        return apply_one(self, record)  # type: ignore[arg-type]

    monkeypatch.setattr(LiveTournament, "_apply_one", counting)
    async with serve_with_services(settings) as (base, services, _):
        api = Api(base)
        try:
            await api.sign_in_td()
            await api.tournament("once", "epc-qualifying", players=12, machines=2)
            replayed.clear()
            for player in range(1, 13):
                (await api.score("once", str(player), "1", 1000 * player)).raise_for_status()
            live = services.replica.tournaments["once"]
            assert await api.wait_version("once", live.version)
            assert replayed == [], f"the tail re-applied records {replayed}"
            assert live.views["machine/1"]["played"] == 12  # and the views did follow the pushes
        finally:
            await api.close()
