"""``scoring.machine_faults``: each competition's own rule for the scores on a machine taken out,
worked by hand from the rule texts."""

from __future__ import annotations

import pytest

from scoring import EPC_CLASSIC, EPC_KIDS, EPC_QUALIFYING, UKPL_MEETING
from scoring.epc.classic import Fault, MachineClosed, machine_slots
from scoring.machine_faults import ReplacementRefused, bring_back, take_out
from scoring.model import Entry
from scoring.tournament import Tournament, check_entry
from tests.scoring.scoring_builders import build, standings, table


def classic(players_on_1: int, extra_scores: int = 0, count: str = "players") -> Tournament:
    rows = [("1", str(p), 1000 * p) for p in range(1, players_on_1 + 1)]
    rows += [("1", "1", 50) for _ in range(extra_scores)]  # player 1 plays again
    rows += [("2", "1", 700)]
    return build(EPC_CLASSIC, rows, {"fault_count": count}, machines=["1", "2", "3", "9"])


def test_classic_with_ten_players_scores_closes_and_is_not_replaced() -> None:
    """EPC 2009, EPC Classic Tournament: "10 or more players' scores have been recorded on that
    machine, it will be closed to further qualification but all scores will stand"."""
    t = classic(10)
    with pytest.raises(ReplacementRefused, match="10 players' scores, 10 or more"):
        take_out(t, "1", "9", seq=12)
    out = take_out(t, "1", None, seq=12)
    assert out.wiped == () and out.owed == ()
    assert out.tournament.config.faults == (Fault("1", 12),)
    assert table(out.tournament, "1") == table(t, "1")  # the scores stand
    with pytest.raises(MachineClosed, match="closed after a fault; its scores stand"):
        check_entry(out.tournament, Entry(13, "3", "1", 10))


@pytest.mark.parametrize(("count", "replaced"), [("players", True), ("scores", False)])
def test_classic_counts_players_or_scores_as_set(count: str, replaced: bool) -> None:
    """EPC 2009, EPC Classic Tournament, "10 or more players' scores": nine players with ten
    scores between them are fewer than ten players but ten scores."""
    t = classic(9, extra_scores=1, count=count)
    if not replaced:
        with pytest.raises(ReplacementRefused, match="10 recorded scores"):
            take_out(t, "1", "9", seq=20)
        return
    out = take_out(t, "1", "9", seq=20)
    assert len(out.wiped) == 10 and out.owed == tuple(str(p) for p in range(1, 10))


def test_a_replaced_classic_machine_is_wiped_and_owes_free_games() -> None:
    """EPC 2009, EPC Classic Tournament: "All recorded scores on the faulty machine will be wiped
    but those players will be given a free game on the replacement machine"."""
    rows = [("3", "5", 900), ("3", "4", 800), ("3", "5", 950), ("1", "4", 100)]
    t = build(EPC_CLASSIC, rows, machines=["1", "2", "3", "9"])
    out = take_out(t, "3", "9", seq=5)
    assert [e.seq for e in out.wiped] == [1, 2, 3]
    assert out.owed == ("5", "4")  # in the order they first played it
    after = out.tournament
    assert table(after, "3") == [] and after.entries["3"] == ()
    assert machine_slots(after.config, after.tables) == ("1", "2", "9")
    with pytest.raises(MachineClosed, match="was replaced by machine 9"):
        check_entry(after, Entry(6, "5", "3", 10))
    check_entry(after, Entry(6, "5", "9", 10))  # the free game on the replacement
    played = {row.player: row.played for row in after.standings.rows}
    assert played == {"4": 1, "5": 0}  # machine 3's games no longer count


def test_a_closed_classic_machine_can_be_opened_again_but_a_replaced_one_cannot() -> None:
    """EPC 2009, EPC Classic Tournament: "If this is possible, all existing scores will be
    valid"."""
    t = classic(10)
    closed = take_out(t, "1", None, seq=12).tournament
    opened = bring_back(closed, "1")
    assert opened.config.faults == ()
    check_entry(opened, Entry(13, "3", "1", 10))
    replaced = take_out(classic(3), "1", "9", seq=5).tournament
    with pytest.raises(ReplacementRefused, match="cannot come back"):
        bring_back(replaced, "1")


def test_ukpl_games_on_a_removed_machine_are_replayed_on_the_substitute() -> None:
    """UKPL 6A: "any games already played on the faulty machines will need to be replayed on the
    new game". UKPL 3B points: two players score 2 and 1 on each machine."""
    rows = [("A", "1", 100), ("A", "2", 50), ("B", "1", 10), ("B", "2", 20)]
    t = build(UKPL_MEETING, rows, machines=["A", "B", "C"])
    assert [(p, total) for p, _, total, _ in standings(t)] == [("1", 3), ("2", 3)]
    out = take_out(t, "A", "C", seq=5)
    assert [e.seq for e in out.wiped] == [1, 2] and out.owed == ("1", "2")
    assert [(p, total) for p, _, total, _ in standings(out.tournament)] == [("2", 2), ("1", 1)]
    check_entry(out.tournament, Entry(6, "1", "C", 100))  # the replay
    closed = take_out(t, "B", None, seq=5)
    assert closed.tournament is t and closed.wiped == ()  # no substitute: the games stand


def test_epc_qualifying_scores_stand_on_a_machine_taken_out() -> None:
    """EPC 2009, EPC Qualifying has no fault rule: the scores stand."""
    t = build(EPC_QUALIFYING, [("A", "1", 100), ("A", "2", 50)], machines=["A", "B"])
    out = take_out(t, "A", "B", seq=3)
    assert out.tournament is t and out.wiped == () and out.owed == ()


def test_the_kids_machine_closes_but_is_not_replaced() -> None:
    """EPC 2009, UK Pinball Kids Tournament: one "designated" machine."""
    t = build(EPC_KIDS, [("K", "1", 100)], machines=["K", "L"])
    with pytest.raises(ReplacementRefused, match="one designated machine"):
        take_out(t, "K", "L", seq=2)
    assert take_out(t, "K", None, seq=2).tournament is t
