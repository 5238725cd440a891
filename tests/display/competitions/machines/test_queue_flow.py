"""Machine queues as records through the ``machines`` kind, with the records' own times, so every
wait is exact: the flow, the settings, who may queue where, and the estimates (median of recent
game lengths)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from display.competitions.machines.kind import MACHINES
from display.competitions.machines.queue import game_seconds, seconds_between, wait_to_join, waits
from display.competitions.machines.state import HallTournament, Queue, Up, Waiting
from scoring.errors import ScoringError

T0 = datetime(2009, 5, 23, 10, 0, tzinfo=UTC)


def at(minutes: float) -> str:
    return (T0 + timedelta(minutes=minutes)).isoformat(timespec="milliseconds")


class Hall:
    """A tournament driven record by record; ``clock`` is minutes after 10:00."""

    def __init__(self, fmt: str = "epc-qualifying", players: int = 6, machines: int = 3,
                 settings: dict[str, Any] | None = None) -> None:  # fmt: skip
        self.seq = 1
        self.clock = 0.0
        self.state: HallTournament = MACHINES.create(
            {"type": "tournament_created", "format": fmt, "settings": settings or {}}
        )
        for n in range(1, players + 1):
            self.add({"type": "player_added", "player": {"number": str(n), "name": f"P{n}"}})
        for n in range(1, machines + 1):
            self.add({"type": "machine_added", "machine": {"id": str(n), "name": f"M{n}"}})

    def add(self, record: dict[str, Any], minutes: float = 0) -> set[str]:
        self.clock += minutes
        self.seq += 1
        stamped = {"by": "steward:Sam", "at": at(self.clock), **record}
        self.state, touched = MACHINES.apply(self.state, self.seq, stamped)
        return touched

    def q(self, kind: str, machine: str, player: str | None = None, **extra: Any) -> set[str]:
        minutes = extra.pop("minutes", 0)
        record = {"type": kind, "machine": machine, **extra}
        if player is not None:
            record["player"] = player
        return self.add(record, minutes)

    def score(self, player: str, machine: str, score: int, minutes: float = 0) -> set[str]:
        record = {"type": "score_recorded", "player": player, "machine": machine, "score": score}
        return self.add(record, minutes)

    def refused(self, kind: str, machine: str, player: str, **extra: Any) -> ScoringError:
        before = self.state
        with pytest.raises(ScoringError) as caught:
            self.q(kind, machine, player, **extra)
        self.seq -= 1
        assert self.state is before
        return caught.value

    def view(self, machine: str) -> dict[str, Any]:
        doc = MACHINES.view(self.state, {"id": "t", "name": "t"}, "queues")
        assert doc is not None
        return doc[machine]  # type: ignore[no-any-return]

    def order(self, machine: str) -> list[str]:
        waiting = self.view(machine)["waiting"]
        return sorted(waiting, key=lambda p: waiting[p]["pos"])


def test_a_score_ends_the_game_and_calls_the_next_player() -> None:
    hall = Hall()
    for player in ("1", "2", "3"):
        assert hall.q("queue_joined", "1", player) == {"queues"}
    assert hall.order("1") == ["1", "2", "3"]
    assert "up" not in hall.view("1")
    hall.q("queue_called", "1", "1", minutes=1)
    assert hall.view("1")["up"] == {"player": "1", "state": "called", "since": at(1)}
    hall.q("game_started", "1", "1", minutes=2)
    assert hall.view("1")["up"] == {"player": "1", "state": "playing", "since": at(3)}
    assert hall.order("1") == ["2", "3"]
    touched = hall.score("1", "1", 1_000_000, minutes=7)
    assert "queues" in touched and "machine/1" in touched
    view = hall.view("1")
    assert view["up"] == {"player": "2", "state": "called", "since": at(10)}
    assert hall.order("1") == ["3"]
    assert view["game"] == 7 * 60 and view["timed"] == 1  # started 10:03, scored 10:10


def test_only_the_next_player_is_called_and_only_when_the_machine_is_free() -> None:
    hall = Hall()
    hall.q("queue_joined", "1", "1")
    hall.q("queue_joined", "1", "2")
    assert "P1 (1) is next for M1, not P2 (2)" in hall.refused("queue_called", "1", "2").message
    hall.q("queue_called", "1", "1")
    error = hall.refused("queue_called", "1", "2")
    assert "P1 (1) was called and has not started on M1" in error.message
    assert "P1 (1) is up on M1, not P3 (3)" in hall.refused("game_started", "1", "3").message


def test_start_without_a_call_calls_and_starts_the_next_player() -> None:
    hall = Hall()
    hall.q("queue_joined", "2", "4")
    hall.q("game_started", "2", "4", minutes=1)
    assert hall.view("2")["up"] == {"player": "4", "state": "playing", "since": at(1)}
    assert hall.view("2")["waiting"] == {}


def test_a_td_can_say_when_a_game_started() -> None:
    hall = Hall()
    hall.q("queue_joined", "1", "1")
    hall.q("game_started", "1", "1", started_at=at(-5))  # the steward forgot to press start
    hall.score("1", "1", 10, minutes=4)
    assert hall.view("1")["game"] == 9 * 60


def test_the_estimate_is_the_median_of_recent_games_and_a_default_before_any() -> None:
    hall = Hall(players=6, settings={"hall": {"game_minutes": 6}})
    view = hall.view("1")
    assert view["game"] == 360 and "timed" not in view and view["wait"] == 0
    lengths = [5, 9, 7]  # minutes
    for player, minutes in zip(("1", "2", "3"), lengths, strict=True):
        hall.q("queue_joined", "1", player)
        hall.q("game_started", "1", player)
        hall.score(player, "1", 100, minutes=minutes)
    for player in ("4", "5", "6"):
        hall.q("queue_joined", "1", player)
    hall.q("queue_called", "1", "4")
    view = hall.view("1")
    assert view["game"] == 7 * 60 and view["timed"] == 3  # median of 5, 9, 7 minutes
    # P4 is up: P5 waits one game, P6 two; someone joining now three
    assert view["waiting"] == {"5": {"pos": 1, "wait": 420}, "6": {"pos": 2, "wait": 840}}
    assert view["wait"] == 3 * 420 and view["count"] == 2


def test_only_the_latest_games_count_and_an_even_count_takes_the_middle_two() -> None:
    assert game_seconds((600.0, 60.0, 300.0, 401.0), recent=2, default_minutes=8) == 351
    assert game_seconds((600.0, 60.0, 300.0, 401.0), recent=3, default_minutes=8) == 300
    assert game_seconds((), recent=9, default_minutes=8) == 480
    assert seconds_between(at(0), at(2.5)) == 150
    assert seconds_between(at(2), at(1)) is None and seconds_between(None, at(1)) is None
    assert seconds_between("yesterday", at(1)) is None


def test_a_start_left_open_for_hours_is_not_a_game_length() -> None:
    hall = Hall()
    hall.q("queue_joined", "1", "1")
    hall.q("game_started", "1", "1")
    hall.score("1", "1", 100, minutes=150)
    assert "timed" not in hall.view("1") and hall.view("1")["game"] == 480


def test_waits_pass_over_paused_players() -> None:
    queue = Queue(
        up=Up("9", called=at(0)),
        waiting=(Waiting("1"), Waiting("2", paused=True), Waiting("3")),
    )
    assert waits(queue, 300) == {"1": 300, "3": 600}
    assert wait_to_join(queue, 300) == 900
    assert waits(Queue(waiting=(Waiting("1"), Waiting("3"))), 300) == {"1": 0, "3": 300}


def test_a_paused_player_keeps_their_place_but_is_passed_over() -> None:
    hall = Hall()
    for player in ("1", "2", "3"):
        hall.q("queue_joined", "1", player)
    hall.q("queue_paused", "1", "1", note="ruling")
    assert hall.view("1")["waiting"]["1"] == {"pos": 1, "paused": True, "note": "ruling"}
    assert "P2 (2) is next" in hall.refused("queue_called", "1", "1").message
    hall.q("queue_called", "1", "2")
    assert hall.order("1") == ["1", "3"]
    hall.q("queue_resumed", "1", "1")
    hall.score("2", "1", 100)  # P1 kept the front place: called next
    assert hall.view("1")["up"]["player"] == "1"
    assert "not paused" in hall.refused("queue_resumed", "1", "3").message


def test_pausing_the_called_player_puts_them_back_at_the_front() -> None:
    hall = Hall()
    hall.q("queue_joined", "1", "1")
    hall.q("queue_joined", "1", "2")
    hall.q("queue_called", "1", "1")
    hall.q("queue_paused", "1", "1", note="break")
    assert "up" not in hall.view("1")
    assert hall.order("1") == ["1", "2"]
    hall.q("game_started", "1", "2")
    assert "is playing M1; a game is not paused" in hall.refused("queue_paused", "1", "2").message


@pytest.mark.parametrize(("to", "after"), [("back", ["3", "1"]), ("out", ["3"])])
def test_a_no_show_is_skipped_to_the_back_or_out(to: str, after: list[str]) -> None:
    hall = Hall(settings={"hall": {"skip_to": to}})
    for player in ("1", "2", "3"):
        hall.q("queue_joined", "1", player)
    hall.q("queue_called", "1", "1")
    hall.q("queue_skipped", "1", "1", to=to)
    assert hall.view("1")["up"]["player"] == "2"  # the next is called at once
    assert hall.order("1") == after


def test_a_player_skipped_alone_is_not_called_again_at_once() -> None:
    hall = Hall()
    hall.q("queue_joined", "1", "1")
    hall.q("queue_called", "1", "1")
    hall.q("queue_skipped", "1", "1", to="back")
    assert "up" not in hall.view("1") and hall.order("1") == ["1"]
    hall.q("queue_called", "1", "1")
    hall.q("game_started", "1", "1")
    assert "has started; record their score" in hall.refused("queue_skipped", "1", "1").message


def test_the_td_moves_a_player_up_or_down() -> None:
    hall = Hall()
    for player in ("1", "2", "3", "4"):
        hall.q("queue_joined", "1", player)
    hall.q("queue_moved", "1", "4", position=1)
    assert hall.order("1") == ["4", "1", "2", "3"]
    hall.q("queue_moved", "1", "4", position=3)
    assert hall.order("1") == ["1", "2", "4", "3"]
    assert (
        "places 1 to 4; 5 is not one" in hall.refused("queue_moved", "1", "1", position=5).message
    )


def test_leaving_the_queue_and_giving_up_a_turn() -> None:
    hall = Hall()
    for player in ("1", "2", "3"):
        hall.q("queue_joined", "1", player)
    hall.q("queue_left", "1", "3")
    assert hall.order("1") == ["1", "2"]
    hall.q("queue_called", "1", "1")
    hall.q("queue_left", "1", "1")
    assert hall.view("1")["up"]["player"] == "2"
    assert "P3 (3) is not waiting for M1" in hall.refused("queue_left", "1", "3").message


def test_one_queue_at_a_time_is_a_setting() -> None:
    hall = Hall()
    hall.q("queue_joined", "1", "1")
    error = hall.refused("queue_joined", "2", "1")
    assert error.code == "queue_refused"
    assert "P1 (1) is waiting for M1; a player waits in one queue at a time" in error.message
    hall.q("queue_called", "1", "1")
    assert "P1 (1) is up on M1" in hall.refused("queue_joined", "2", "1").message
    assert "already up on M1" in hall.refused("queue_joined", "1", "1").message
    free = Hall(settings={"hall": {"one_queue": False}})
    free.q("queue_joined", "1", "1")
    free.q("queue_joined", "2", "1")
    assert free.order("1") == ["1"] and free.order("2") == ["1"]
    assert "already waiting for M1 (number 1" in free.refused("queue_joined", "1", "1").message


def test_nobody_queues_for_a_machine_they_may_not_play() -> None:
    """EPC 2009, EPC Qualifying: one game per machine plus one joker game on one of them; here at
    most two machines per player."""
    hall = Hall(settings={"machines_per_player": 2})
    hall.score("1", "1", 100)
    hall.q("queue_joined", "1", "1")  # the joker game: allowed, at the back
    hall.q("queue_left", "1", "1")
    hall.score("1", "1", 200)  # joker used on M1
    error = hall.refused("queue_joined", "1", "1")
    assert error.code == "machine_already_played" and "used their joker game on it" in error.message
    hall.score("1", "2", 300)
    error = hall.refused("queue_joined", "3", "1")
    assert error.code == "too_many_machines" and "(M1, M2), the most allowed" in error.message
    assert hall.refused("queue_joined", "9", "1").code == "unknown_machine"
    assert hall.refused("queue_joined", "1", "99").code == "unknown_player"


def test_a_player_who_may_no_longer_play_a_machine_leaves_its_queue() -> None:
    hall = Hall(settings={"machines_per_player": 1, "hall": {"one_queue": False}})
    hall.q("queue_joined", "2", "1")
    hall.q("queue_joined", "3", "1")
    hall.q("queue_joined", "3", "2")
    hall.score("1", "1", 100)  # played without queueing: now on their one machine
    assert hall.order("2") == [] and hall.order("3") == ["2"]


def test_closing_qualifying_empties_the_queues() -> None:
    """EPC 2009, EPC Classic Tournament: "The qualifying round ends at 3pm promptly"."""
    hall = Hall(fmt="epc-classic")
    hall.q("queue_joined", "1", "1")
    hall.add({"type": "settings_changed", "settings": {"closed_after": hall.seq}})
    assert hall.order("1") == []
    assert hall.refused("queue_joined", "1", "2").code == "qualifying_closed"


def test_a_machine_out_of_order_freezes_its_queue() -> None:
    hall = Hall()
    for player in ("1", "2", "3"):
        hall.q("queue_joined", "1", player)
    hall.q("game_started", "1", "1")
    hall.add({"type": "machine_status_changed", "machine": "1", "status": "out_of_order",
              "note": "ball stuck"})  # fmt: skip
    view = hall.view("1")
    assert view["status"] == "out_of_order" and view["note"] == "ball stuck"
    assert "up" not in view and "wait" not in view
    assert hall.order("1") == ["1", "2", "3"]  # P1's game is replayed first (UKPL 6A)
    assert hall.refused("queue_called", "1", "1").code == "machine_unavailable"
    assert "out of order (ball stuck)" in hall.refused("queue_joined", "1", "4").message
    hall.score("2", "1", 500)  # a game finished before it broke still counts; nobody called
    assert hall.order("1") == ["1", "3"] and "up" not in hall.view("1")
    hall.add({"type": "machine_status_changed", "machine": "1", "status": "in_service"})
    hall.q("queue_called", "1", "1")
    assert hall.view("1")["up"]["player"] == "1" and "status" not in hall.view("1")


def test_a_withdrawn_player_leaves_every_queue_and_scores_no_more() -> None:
    hall = Hall(settings={"hall": {"one_queue": False}})
    hall.q("queue_joined", "1", "1")
    hall.q("queue_joined", "1", "2")
    hall.q("queue_joined", "2", "1")
    hall.q("queue_called", "1", "1")
    touched = hall.add({"type": "player_withdrawn", "player": "1", "reason": "ill"})
    assert touched == {"players", "queues"}
    assert hall.view("1")["up"]["player"] == "2" and hall.order("2") == []
    assert hall.refused("queue_joined", "3", "1").code == "player_withdrawn"
    with pytest.raises(ScoringError, match="withdrawn"):
        hall.score("1", "3", 100)
    players = MACHINES.view(hall.state, {"id": "t", "name": "t"}, "players")
    assert players is not None and players["1"]["withdrawn"] == "ill"
    assert "withdrawn" not in players["2"]


def test_every_machine_has_a_queue_entry() -> None:
    hall = Hall(machines=3)
    doc = MACHINES.view(hall.state, {"id": "t", "name": "t"}, "queues")
    assert doc is not None and set(doc) == {"1", "2", "3"}
    assert doc["2"] == {"waiting": {}, "count": 0, "game": 480, "wait": 0}


def test_a_hand_made_record_without_its_machine_or_player_is_refused() -> None:
    hall = Hall()
    with pytest.raises(ScoringError, match="A queue joined record names its player"):
        hall.add({"type": "queue_joined", "machine": "1"})
    with pytest.raises(ScoringError, match="A machine status changed record names its machine"):
        hall.add({"type": "machine_status_changed", "status": "closed"})
