"""Fuzz the HTTP API from its own ``/openapi.json`` with schemathesis, against a real server.

Every operation gets generated requests, valid by the schema and not (negative mode), sent as the
TD, as a steward and as nobody, with path parameters that name real things (the tournament, a
recorded score, a player, a machine, a view) as well as made-up ones. Checks: no answer is a 5xx
(``not_a_server_error``) and every answer matches the schema it is declared with
(``response_schema_conformance``). Derandomized: the same cases every run.
"""

from __future__ import annotations

import asyncio
import os
import re
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode, openapi
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import response_schema_conformance

from tests.utils import Api

EPC = "epc-qualifying"
# A real tournament of the kind a route belongs to (by the path segment after the id); "fz" else.
KIND_TOURNAMENTS = {
    "epc": ("fm", "epc-main"),
    "country": ("fc", "epc-country"),
    "league": ("fw", "fwpl-league"),
    "ukpl": ("fu", "ukpl-meeting"),
    "adjustments": ("fu", "ukpl-meeting"),
    "multiplayer": ("fu", "ukpl-meeting"),
    "season": ("fu", "ukpl-meeting"),
}


# Bodies the rules take (for "fz"), so some fuzzed requests are writes that land, under fuzzed
# headers (Idempotency-Key …), and later ones meet the state those made.
GOOD = {
    "POST /api/t/{tournament}/scores": {"player": "2", "machine": "2", "score": 4_200},
    "POST /api/t/{tournament}/players": {"number": "50", "name": "Fuzz Player"},
    "POST /api/t/{tournament}/machines": {"id": "50", "name": "Fuzz Machine"},
    "POST /api/t/{tournament}/settings": {"settings": {"scale": "linear"}},
    "POST /api/t/{tournament}/stewards": {"name": "Kim"},
    "POST /api/t/{tournament}/queues/{machine}/{action}": {"player": "3"},
    "POST /api/t/{tournament}/scores/{seq}/void": {"reason": "fuzz"},
}


def tournament_for(path: str) -> str:
    segment = path.removeprefix("/api/t/{tournament}/").split("/")[0]
    return KIND_TOURNAMENTS.get(segment, ("fz", EPC))[0]


EXAMPLES = int(os.environ.get("BACKGLASS_FUZZ_EXAMPLES") or 4)
"""Cases per operation (about 80 operations): 4 in the suite; the long run of the README sets
BACKGLASS_FUZZ_EXAMPLES=130 for more than 10,000 cases."""


def fuzz(
    server: str, callers: dict[str, dict[str, str]], real: dict[str, str]
) -> tuple[int, list[str]]:
    """Run every operation of the served schema; (cases sent, failures as text)."""
    schema = openapi.from_url(f"{server}/openapi.json")
    sent, failures = 0, []
    for result in schema.get_all_operations():
        operation = result.ok()
        names = re.findall(r"\{(\w+)\}", operation.path)
        known = {name: real[name] for name in names if name in real}
        if "tournament" in known:
            known["tournament"] = tournament_for(operation.path)
        body = GOOD.get(operation.label)
        good = [] if body is None else [operation.as_strategy(path_parameters=known, body=body)]
        strategy = st.one_of(
            *good,
            operation.as_strategy(path_parameters=known),
            operation.as_strategy(GenerationMode.NEGATIVE, path_parameters=known),
            operation.as_strategy(),
        )
        who = list(callers)
        if (operation.method.upper(), operation.path) == ("DELETE", "/api/session"):
            who = ["nobody"]  # signing the fuzzing TD out would only test 401s from then on

        @settings(
            max_examples=EXAMPLES,
            derandomize=True,
            database=None,
            deadline=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(case=strategy, caller=st.sampled_from(who))
        def run(case: Any, caller: str) -> None:
            nonlocal sent
            sent += 1
            try:
                case.call_and_validate(
                    base_url=server,
                    headers=callers[caller],
                    checks=[not_a_server_error, response_schema_conformance],
                    timeout=10,
                )
            except FailureGroup as exc:
                failures.append(f"{case.operation.label} as {caller}: {exc}")

        run()
    return sent, failures


async def test_the_api_answers_every_generated_request_within_its_schema(api: Api) -> None:
    await api.tournament("fz", EPC, players=3, machines=2)
    for tid, fmt in set(KIND_TOURNAMENTS.values()):
        await api.tournament(tid, fmt)
    r = await api.score("fz", 1, 1, 12_345)
    assert r.status_code == 201
    seq = r.json()["version"]
    pin = (await api.post("/api/t/fz/stewards", {"name": "Sam"})).json()["pin"]
    body = {"role": "steward", "tournament": "fz", "name": "Sam", "pin": pin}
    steward = (await api.http.post("/api/session", json=body)).json()["token"]
    callers = {
        "td": {"Authorization": f"Bearer {api.token}"},
        "steward": {"Authorization": f"Bearer {steward}"},
        "nobody": {},
    }
    real = {"tournament": "fz", "seq": str(seq), "player": "1", "machine": "1",
            "name": "standings", "action": "join"}  # fmt: skip
    sent, failures = await asyncio.to_thread(fuzz, api.base, callers, real)
    assert failures == [], "\n\n".join(failures[:10])
    print(f"fuzz: {sent} cases, 0 server errors, 0 schema violations")
    assert sent >= 75 * EXAMPLES
