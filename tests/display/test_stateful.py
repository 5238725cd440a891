"""A stateful property test (Hypothesis ``RuleBasedStateMachine``) over a real ``redis-server``
(AOF, ``appendfsync always``) and a real uvicorn server: push, resend a request with its
Idempotency-Key, correct and void (with ``If-Match``), restart the server, kill -9 and restart
Redis on the same directory, reconnect a display with ``?since=``.

After every step the served standings equal a reference model (the EPC qualifying rules of
``scoring``, run on the model's own list of entries) and a full replay of the log; a display that
resumes ends equal to the served views. The server runs in a loop on a thread of its own, so the
steps are plain blocking calls (httpx, websockets' sync client) as a phone and a display make them.
"""

from __future__ import annotations

import itertools
import time
import uuid
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import httpx
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from display.competitions.machines.views import standings_view
from display.live.tournament import LiveTournament
from display.log.store import Record
from display.settings import Settings
from scoring import FORMATS
from scoring.errors import ScoringError
from scoring.model import Entry, Machine, Player
from scoring.tournament import rebuild
from tests.display.stateful_parts import Display, RedisProcess, ServerThread
from tests.utils import TD_PASSWORD

EPC = "epc-qualifying"
PLAYERS = ("1", "2", "3", "4")
MACHINES = ("1", "2", "3")
PLAYER, MACHINE, SCORE = st.sampled_from(PLAYERS), st.sampled_from(MACHINES), st.integers(0, 10**9)
TRIES = 100  # a write answered 503 while Redis restarts is sent again with its key, 50 ms apart


@dataclass(frozen=True)
class Sent:
    """A request that was answered 2xx, to send again with its key."""

    path: str
    body: dict[str, Any]
    headers: dict[str, str]
    status: int
    answer: Any


class Environment:
    """One Redis and one server for every example; each example has a tournament of its own."""

    def __init__(self, directory: Path) -> None:
        self.redis = RedisProcess(directory / "redis")
        self.redis.start()
        config = Settings(
            redis_url=self.redis.url,
            data_dir=directory / "data",
            key_prefix="bgstate",
            td_password=TD_PASSWORD,
            heartbeat_seconds=1.0,
        )
        self.server = ServerThread(config)
        self.server.start()
        self.http = httpx.Client(timeout=10)
        self.ids = itertools.count(1)
        r = self.http.post(
            f"{self.server.url}/api/session", json={"role": "td", "password": TD_PASSWORD}
        )
        self.auth = {"Authorization": f"Bearer {r.json()['token']}"}  # one sign-in: argon2 is slow

    def close(self) -> None:
        self.http.close()
        self.server.close()
        self.redis.kill()


class Hall(RuleBasedStateMachine):
    """Steps a steward's phone, the TD and the operator take; the model is a list of entries."""

    env: Environment  # set by the test

    def __init__(self) -> None:
        super().__init__()
        self.tid = f"st{next(self.env.ids)}"
        self.entries: dict[int, Entry] = {}  # entry seq (its score_recorded) -> entry as it counts
        self.versions: dict[int, int] = {}  # entry seq -> its version (latest change)
        self.stale: dict[int, int] = {}  # entry seq -> a version it had before
        self.sent: list[Sent] = []
        self.display = Display(self.tid)
        self.auth = self.env.auth
        body = {"id": self.tid, "name": "Stateful", "format": EPC, "settings": {}}
        self.write("/api/tournaments", body)
        players = [{"number": p, "name": f"Player {p}"} for p in PLAYERS]
        self.write(f"/api/t/{self.tid}/players", {"players": players})
        machines = [{"id": m, "name": f"Machine {m}"} for m in MACHINES]
        self.version = self.write(f"/api/t/{self.tid}/machines", {"machines": machines})[1]
        self.display.catch_up(self.env.server.url, self.version)  # connected from the start

    def teardown(self) -> None:
        try:  # the display, connected through whatever happened, ends where the server is
            self.display.catch_up(self.env.server.url, self.version)
            assert self.display.views == self.served()["views"]
        finally:
            self.display.close()

    # ---------- talking to the server ----------

    def call(self, path: str, body: dict[str, Any], headers: dict[str, str]) -> httpx.Response:
        """POST, sending the same request again (same key) while the store is down (503)."""
        for _ in range(TRIES):
            try:
                r = self.env.http.post(self.env.server.url + path, json=body, headers=headers)
            except httpx.TransportError:
                r = None
            if r is not None and r.status_code != 503:
                assert r.status_code < 500, r.text
                return r
            time.sleep(0.05)
        raise AssertionError(f"{path} still unavailable")

    def write(
        self, path: str, body: dict[str, Any], if_match: int | None = None
    ) -> tuple[httpx.Response, int]:
        headers = {**self.auth, "Idempotency-Key": uuid.uuid4().hex}
        if if_match is not None:
            headers["If-Match"] = f'"{if_match}"'
        r = self.call(path, body, headers)
        version = r.json().get("version", 0) if r.status_code < 300 else 0
        if r.status_code < 300:
            self.sent.append(Sent(path, body, headers, r.status_code, r.json()))
        return r, version

    def get(self, path: str) -> Any:
        """GET, again while the store answers 503 (the first call after Redis came back may)."""
        for _ in range(TRIES):
            r = self.env.http.get(f"{self.env.server.url}/api/t/{self.tid}/{path}")
            if r.status_code != 503:
                assert r.status_code == 200, r.text
                return r.json()
            time.sleep(0.05)
        raise AssertionError(r.text)

    def served(self) -> dict[str, Any]:
        return self.get("views")  # type: ignore[no-any-return]

    def log(self) -> list[dict[str, Any]]:
        return self.get("log")["records"]  # type: ignore[no-any-return]

    # ---------- the reference model ----------

    def reference(self, entries: dict[int, Entry]) -> Any:
        """The standings the EPC qualifying rules give these entries (raises ScoringError)."""
        players = [Player(p, f"Player {p}") for p in PLAYERS]
        machines = [Machine(m, f"Machine {m}") for m in MACHINES]
        return rebuild(FORMATS[EPC], {}, players, machines, entries.values()).standings

    def allowed(self, entries: dict[int, Entry]) -> bool:
        try:
            self.reference(entries)
        except ScoringError:
            return False
        return True

    def changed(self, r: httpx.Response, ok: bool) -> int | None:
        """The new version after a write the model expected to land (``ok``) or be refused."""
        if not ok:
            assert r.status_code == 409, r.text
            return None
        assert r.status_code == 201, r.text
        version = int(r.json()["version"])
        assert version == self.version + 1
        self.version = version
        return version

    # ---------- steps ----------

    def push_score(self, player: str, machine: str, score: int) -> None:
        entry = Entry(self.version + 1, player, machine, score)
        ok = self.allowed({**self.entries, entry.seq: entry})
        body = {"player": player, "machine": machine, "score": score}
        r, _ = self.write(f"/api/t/{self.tid}/scores", body)
        if (version := self.changed(r, ok)) is not None:
            self.entries[version] = replace(entry, seq=version)
            self.versions[version] = version

    def correct(self, data: st.DataObject, seq: int, score: int, move: str) -> None:
        """The TD corrects the score (or moves it to another player or machine), naming the
        entry by its score or its latest correction, with the version they saw."""
        entry = self.entries[seq]
        body: dict[str, Any] = {"score": score, "reason": "stateful"}
        fixed = replace(entry, score=score)
        if move != "score":
            to = data.draw(st.sampled_from(PLAYERS if move == "player" else MACHINES))
            body[move] = to
            fixed = replace(fixed, **{move: to})
        ok = self.allowed({**self.entries, seq: fixed})
        target = data.draw(st.sampled_from(sorted({seq, self.versions[seq]})))
        r, _ = self.write(f"/api/t/{self.tid}/scores/{target}/correct", body, self.versions[seq])
        if (version := self.changed(r, ok)) is not None:
            assert r.json()["entry"] == {"seq": seq, "version": version}
            assert r.headers["ETag"] == f'"{version}"'
            self.stale[seq] = self.versions[seq]
            self.entries[seq], self.versions[seq] = fixed, version

    def void(self, seq: int) -> None:
        rest = {k: v for k, v in self.entries.items() if k != seq}
        path = f"/api/t/{self.tid}/scores/{seq}/void"
        r, _ = self.write(path, {"reason": "stateful"}, self.versions[seq])
        # The games after a voided one must still be allowed in their order (they are in EPC).
        if self.changed(r, self.allowed(rest)) is not None:
            self.entries = rest
            self.versions.pop(seq)

    def change_stale(self, seq: int, action: str) -> None:
        """A TD who opened the entry before someone else changed it: 412, nothing written."""
        body = {"score": 1, "reason": "stale"} if action == "correct" else {"reason": "stale"}
        path = f"/api/t/{self.tid}/scores/{seq}/{action}"
        r, _ = self.write(path, body, self.stale[seq])
        assert r.status_code == 412 and r.json()["error"] == "entry_changed", r.text
        assert f"now version {self.versions[seq]}" in r.json()["message"]

    # ---------- rules (few, so Hypothesis's swarm testing rarely leaves one out) ----------

    @initialize(first=st.lists(st.tuples(PLAYER, MACHINE, SCORE), min_size=1, max_size=3))
    def first_scores(self, first: list[tuple[str, str, int]]) -> None:
        for player, machine, score in first:
            self.push_score(player, machine, score)

    @rule(player=PLAYER, machine=MACHINE, score=SCORE)
    def push(self, player: str, machine: str, score: int) -> None:
        self.push_score(player, machine, score)

    @precondition(lambda self: self.sent)
    @rule(data=st.data())
    def duplicate(self, data: st.DataObject) -> None:
        """A retry: the first answer again, nothing appended."""
        sent = data.draw(st.sampled_from(self.sent))
        r = self.call(sent.path, sent.body, sent.headers)
        assert (r.status_code, r.json()) == (sent.status, sent.answer)
        assert r.headers["Idempotent-Replayed"] == "true"

    @precondition(lambda self: self.entries)
    @rule(
        data=st.data(),
        action=st.sampled_from(["correct", "void", "stale"]),
        score=SCORE,
        move=st.sampled_from(["score", "player", "machine"]),
    )
    def change(self, data: st.DataObject, action: str, score: int, move: str) -> None:
        stale = sorted(seq for seq in self.stale if seq in self.entries)
        if action == "stale" and stale:
            seq = data.draw(st.sampled_from(stale))
            self.change_stale(seq, data.draw(st.sampled_from(["correct", "void"])))
            return
        seq = data.draw(st.sampled_from(sorted(self.entries)))
        if action == "void":
            self.void(seq)
        else:
            self.correct(data, seq, score, move)

    @rule(which=st.sampled_from(["server", "redis", "display"]))
    def restart(self, which: str) -> None:
        """Restart the server (a new one on the same Redis and prefix); or kill -9 Redis and
        start it again on the same directory; or reconnect the display, which resumes with
        ``?since=`` and must end equal to the served views."""
        if which == "server":
            self.env.server.stop()
            self.env.server.start()
        elif which == "redis":
            self.env.redis.kill()
            self.env.redis.start()
        else:
            self.display.close()
            self.display.catch_up(self.env.server.url, self.version)
            assert self.display.views == self.served()["views"]

    # ---------- what always holds ----------

    @invariant()
    def standings_are_the_reference_and_the_replay_of_the_log(self) -> None:
        served = self.served()
        assert served["version"] == self.version
        assert served["views"]["standings"] == standings_view(self.reference(self.entries))
        log = self.log()
        assert [r["seq"] for r in log] == list(range(1, self.version + 1))
        replica = LiveTournament(self.tid, 10)
        replica.apply([Record(r.pop("seq"), r) for r in log])
        assert replica.views == served["views"]


def test_standings_hold_through_duplicates_corrections_and_restarts(tmp_path: Path) -> None:
    env = Environment(tmp_path)
    Hall.env = env
    try:
        run_state_machine_as_test(
            Hall,
            settings=settings(
                max_examples=15,
                stateful_step_count=15,
                deadline=None,
                derandomize=True,
                database=None,
                # No shrinking: each step is a real request or restart, and shrinking a failure
                # would take minutes. The failing steps are printed as they ran.
                phases=[Phase.explicit, Phase.reuse, Phase.generate],
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
            ),
        )
    finally:
        env.close()
