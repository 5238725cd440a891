"""What a soak trial (bench/soak.py) saw, and its checks on the restarted server: (a) nothing
acknowledged lost and nothing answered "not recorded" recorded, (b) the views equal a replay of the
log, (c) a retried push appends nothing."""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson

from display.competitions.machines import views
from display.live.tournament import LiveTournament
from display.log.store import Record
from scoring import FORMATS
from scoring.epc.qualifying import EPC_QUALIFYING, cut_standings
from scoring.model import Entry, Machine, Player
from scoring.tournament import rebuild

TID = "soak"
"""The tournament of a trial on a server of its own; trials that share a server (``bench/soak.py``,
one server per job) each have their own, ``soak-<number>``."""


@dataclass(frozen=True)
class Push:
    """One keyed score push; ``body`` is the exact bytes sent (and sent again on a retry)."""

    key: str
    player: str
    machine: str
    score: int

    @property
    def body(self) -> bytes:
        return orjson.dumps({"player": self.player, "machine": self.machine, "score": self.score})


@dataclass
class Answer:
    """A push and what came back: ``status`` None means no answer (in flight at the kill)."""

    push: Push
    status: int | None
    body: Any = None


@dataclass
class Trial:
    """What one trial saw. Counts are pushes; ``problems`` says every failed check in words."""

    number: int
    kill_mode: str  # "time": after a random delay; "ack": right after the n-th 2xx answer
    redis_killed: bool
    redis_hung: bool = (
        False  # Redis stopped (SIGSTOP) under load, the server killed, Redis continued
    )
    tid: str = TID
    server_killed: bool = True  # False: only Redis killed, the server rides through it
    sent: int = 0
    acknowledged: int = 0
    in_flight: int = 0
    landed_unanswered: int = 0
    lost: int = 0
    replay_mismatches: int = 0
    appended_twice: int = 0
    retry_answer_differs: int = 0
    refused: int = 0
    declined_but_recorded: int = 0
    declined: int = 0  # answered 503 store_unavailable: "nothing was recorded", checked so
    retried_503: int = (
        0  # retries in (c) answered 503 at first (outcome_unknown, store_unavailable), then settled
    )
    load_done_before_kill: bool = False
    restart_seconds: float = math.nan
    phase_seconds: dict[str, float] = field(default_factory=dict)
    """Wall seconds of each phase ("start", "set_up", "load", "restart", "check"): where a trial's
    time goes (``scripts/soak`` prints the medians)."""
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def mode(self) -> str:
        """What was killed: "server", "redis" (Redis only, the server running on), "both" (the
        server, then Redis), "hung" (Redis stopped, the server killed, Redis continued)."""
        if self.redis_hung:
            return "hung"
        if self.redis_killed:
            return "both" if self.server_killed else "redis"
        return "server"


RESENDERS = 6
"""(c) resends this many pushes at a time (as many as the load's pushers)."""
RETRY_503_SECONDS = 30.0
"""(c) resends a push answered 503 (store_unavailable, outcome_unknown) with its key, as every
first-party client does (static/entry.js), for this long before calling it refused."""


def outcome_unknown(answer: Answer) -> bool:
    """No answer, or a 503 ``outcome_unknown``: it may or may not have been recorded (in flight)."""
    if answer.status is None:
        return True
    body = answer.body
    return (
        answer.status == 503 and isinstance(body, dict) and body.get("error") == "outcome_unknown"
    )


def not_recorded(answer: Answer) -> bool:
    """A 503 ``store_unavailable``: the server says, as certain, that nothing was recorded."""
    body = answer.body
    return (
        answer.status == 503 and isinstance(body, dict) and body.get("error") == "store_unavailable"
    )


async def send(http: httpx.AsyncClient, push: Push, tid: str) -> httpx.Response:
    """POST ``push`` as a steward's score to tournament ``tid``, with its ``Idempotency-Key``."""
    headers = {"Idempotency-Key": push.key, "Content-Type": "application/json"}
    return await http.post(f"/api/t/{tid}/scores", content=push.body, headers=headers)


async def send_until_known(http: httpx.AsyncClient, push: Push, trial: Trial) -> httpx.Response:
    """``send``, again with the same key while the answer is a 503 saying the store is not ready
    (``store_unavailable``) or the outcome is unknown (``outcome_unknown``: a Redis that was just
    continued may still be running what it had queued), for up to ``RETRY_503_SECONDS``; the
    client's duty by docs/redis.md ("Outcome unknown"). ``trial.retried_503`` counts such pushes."""
    deadline = asyncio.get_running_loop().time() + RETRY_503_SECONDS
    counted = False
    while True:
        response = await send(http, push, trial.tid)
        body = json_of(response)
        error = body.get("error") if isinstance(body, dict) else None
        waiting = response.status_code == 503 and error in ("outcome_unknown", "store_unavailable")
        if not waiting or asyncio.get_running_loop().time() > deadline:
            return response
        if not counted:
            trial.retried_503 += 1
            counted = True
        await asyncio.sleep(0.2)


def json_of(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return response.text


async def read_log(http: httpx.AsyncClient, tid: str) -> dict[int, dict[str, Any]]:
    """Tournament ``tid``'s log by version; empty if the server no longer knows the tournament."""
    response = await http.get(f"/api/t/{tid}/log")
    if response.status_code == 404:
        return {}
    response.raise_for_status()
    return {r.pop("seq"): r for r in response.json()["records"]}


def pure_standings(log: dict[int, dict[str, Any]]) -> Any:
    """The ``standings`` view computed from scratch by the pure engine from the log's records."""
    created = log[1]
    settings = {k: v for k, v in created["settings"].items() if k != "hall"}
    players, machines, entries = [], [], []
    for seq, record in sorted(log.items()):
        if record["type"] == "player_added":
            p = record["player"]
            players.append(Player(str(p["number"]), str(p["name"]), bool(p.get("guest"))))
        elif record["type"] == "machine_added":
            machines.append(Machine(str(record["machine"]["id"]), str(record["machine"]["name"])))
        elif record["type"] == "score_recorded":
            entries.append(
                Entry(seq, str(record["player"]), str(record["machine"]), record["score"])
            )
    fmt = FORMATS[created["format"]]
    fresh = rebuild(fmt, settings, players, machines, entries)
    standings, tie = fresh.standings, None
    if fmt is EPC_QUALIFYING:  # the board bands a tie at the cut "tie" (views.hall_standings_view)
        standings, tie = cut_standings(fresh.config, fresh.standings)
    doc = views.standings_view(standings)
    if tie is not None:
        doc = {**doc, "cut_tie": views.cut_tie_doc(tie)}
    return orjson.loads(orjson.dumps(doc))


async def check_replay(
    http: httpx.AsyncClient, log: dict[int, dict[str, Any]], trial: Trial
) -> None:
    """(b): the server's views = a replay of the whole log; its standings = the pure engine's."""
    shown = (await http.get(f"/api/t/{trial.tid}/views")).json()
    replay = LiveTournament(trial.tid, history_size=1)
    replay.apply([Record(seq, record) for seq, record in sorted(log.items())])
    replayed = orjson.loads(orjson.dumps(replay.views))
    wrong = [
        n
        for n in sorted(set(replayed) | set(shown["views"]))
        if replayed.get(n) != shown["views"].get(n)
    ]
    if shown["version"] != max(log):
        wrong.append(f"version {shown['version']} (log at {max(log)})")
    if pure_standings(log) != shown["views"].get("standings"):
        wrong.append("standings (pure engine rebuild)")
    trial.replay_mismatches += len(wrong)
    if wrong:
        trial.problems.append(f"server's views differ from a replay of the log: {', '.join(wrong)}")


async def check(http: httpx.AsyncClient, answers: list[Answer], trial: Trial) -> None:
    """Checks (a), (b) and (c) of the module docstring, on the restarted server."""
    acked = [a for a in answers if a.status is not None and 200 <= a.status < 300]
    unanswered = [a for a in answers if outcome_unknown(a)]
    declined = [a for a in answers if not_recorded(a)]
    trial.declined = len(declined)
    for a in answers:
        failed = a.status is not None and not 200 <= a.status < 300
        if failed and not outcome_unknown(a) and not not_recorded(a):
            trial.refused += 1
            trial.problems.append(f"push {a.push.key} refused before the kill: {a.status} {a.body}")
    trial.sent, trial.acknowledged, trial.in_flight = len(answers), len(acked), len(unanswered)
    log = await read_log(http, trial.tid)
    for a in acked:  # (a)
        if log.get(a.body["version"]) != a.body["record"]:
            trial.lost += 1
            trial.problems.append(f"acknowledged push lost: version {a.body['version']} {a.push}")
    if not log:
        trial.problems.append("the tournament is gone after the restart")
        return
    sent = {(a.push.player, a.push.machine): a.push for a in answers}
    scored: dict[tuple[str, str], int] = {}
    for seq, record in log.items():
        if record["type"] != "score_recorded":
            continue
        pair = (str(record["player"]), str(record["machine"]))
        if pair in scored:
            trial.appended_twice += 1
            trial.problems.append(
                f"score {pair} is in the log twice (versions {scored[pair]}, {seq})"
            )
        if pair not in sent or sent[pair].score != record["score"]:
            trial.problems.append(f"version {seq} is a score nobody sent: {record}")
        scored[pair] = seq
    landed = {a.push.key: scored.get((a.push.player, a.push.machine)) for a in unanswered}
    trial.landed_unanswered = sum(seq is not None for seq in landed.values())
    for a in declined:
        if (seq := scored.get((a.push.player, a.push.machine))) is not None:
            trial.declined_but_recorded += 1
            trial.problems.append(f"push {a.push.key} answered 'not recorded' is version {seq}")
    await check_replay(http, log, trial)  # (b)
    # (c), RESENDERS at a time: each push has a key and a (player, machine) of its own, so the
    # order of the resends changes nothing, and on a busy machine they mostly wait for answers
    sending = asyncio.Semaphore(RESENDERS)

    async def resend(a: Answer) -> httpx.Response:
        async with sending:
            return await send_until_known(http, a.push, trial)

    again_sent = acked + unanswered + declined
    responses = await asyncio.gather(*(resend(a) for a in again_sent))
    fresh = 0
    for a, response in zip(again_sent, responses, strict=True):
        again, replayed = json_of(response), response.headers.get("idempotent-replayed") == "true"
        if not_recorded(a):
            first = None  # checked above: it is not in the log
        else:
            first = landed[a.push.key] if outcome_unknown(a) else a.body["version"]
        if not response.is_success:
            trial.problems.append(f"retry of {a.push.key} refused: {response.status_code} {again}")
        elif first is None:
            fresh += 1
        elif not replayed or again["version"] != first:
            trial.appended_twice += 1
            trial.problems.append(f"retry of {a.push.key} (version {first}) answered {again}")
        elif not outcome_unknown(a) and again != a.body:
            trial.retry_answer_differs += 1
            trial.problems.append(f"retry of {a.push.key} answered {again}, first {a.body}")
    grown = await read_log(http, trial.tid)
    if max(grown) - max(log) != fresh:
        trial.appended_twice += abs(max(grown) - max(log) - fresh)
        trial.problems.append(f"retries appended {max(grown) - max(log)} records, expected {fresh}")
    await check_replay(http, grown, trial)
