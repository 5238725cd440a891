"""The EPC 2009 Classic Tournament, worked by hand from the rule text (epc-2009-rules.txt, "EPC
CLASSIC TOURNAMENT"). Machines are "1".."8"; players are letters."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Entry, Machine, Player, SettingsError, Tournament, record_entry
from scoring.epc.classic import (
    EPC_CLASSIC,
    ClassicConfig,
    Fault,
    FaultDecision,
    after_fault,
    classic_final,
    classic_qualifiers,
    classic_semifinals,
    machine_fault,
)
from scoring.epc.errors import MachineClosed, QualifyingClosed, UnresolvedTie
from scoring.epc.finals import play_game
from tests.scoring.scoring_builders import build, incremental_and_rebuilt, table

EIGHT = [str(m) for m in range(1, 9)]


def classic(rows: list[tuple[str, str, int]], settings: dict[str, Any] | None = None) -> Tournament:
    return build(EPC_CLASSIC, rows, settings, machines=EIGHT)


def holders(t: Tournament) -> dict[str, str | None]:
    """Machine -> the player holding its qualifying place."""
    return {p.machine: p.player for p in classic_qualifiers(t.config, t.tables)}


def test_a_players_best_score_on_a_machine_counts() -> None:
    """EPC 2009, EPC Classic Tournament: "You may play any or all games as often as you wish".
    A plays machine 1 three times (100, 300, 200): 300 counts. B and C both score 250 and share
    2nd; B recorded it first and is listed first. No ranking points."""
    t = classic(
        [("1", "A", 100), ("1", "B", 250), ("1", "A", 300), ("1", "C", 250), ("1", "A", 200)]
    )
    assert table(t, "1") == [
        ("A", 300, 1, None, False),
        ("B", 250, 2, None, False),
        ("C", 250, 2, None, False),
    ]


def test_the_top_score_on_each_machine_qualifies() -> None:
    """EPC 2009, EPC Classic Tournament: "the player with the highest score on each machine will
    then play in one of two four-player semi-final games". Machine m's best is player Pm."""
    rows = [(m, f"P{m}", 1000) for m in EIGHT] + [(m, "Z", 10) for m in EIGHT]
    assert holders(classic(rows)) == {m: f"P{m}" for m in EIGHT}


LEADS = [
    ("1", "X", 500_000), ("1", "Y", 300_000),  # X ahead by 200,000, or 5/3 = 1.67 times
    ("2", "X", 90_000), ("2", "Z", 30_000),  # X ahead by 60,000, or 3 times
]  # fmt: skip


@pytest.mark.parametrize(
    ("lead", "expected"),
    [("difference", {"1": "X", "2": "Z"}), ("ratio", {"1": "Y", "2": "X"})],
)
def test_first_on_two_machines_keeps_the_biggest_lead(lead: str, expected: dict[str, str]) -> None:
    """EPC 2009, EPC Classic Tournament with docs/rules.md ("how far ahead"): "If a player comes
    first on more than one machine, their best score (calculated by how far ahead they are of the
    second best player) will determine their qualifying machine, the second best scorer from their
    other machine will become the qualifying player". X leads machine 1 by 500,000 - 300,000 =
    200,000 (ratio 5/3) and machine 2 by 90,000 - 30,000 = 60,000 (ratio 3). Difference: X keeps
    1, Z gets 2. Ratio: X keeps 2, Y gets 1."""
    got = holders(classic(LEADS, {"lead": lead}))
    assert {m: got[m] for m in ("1", "2")} == expected


INHERIT = [
    ("1", "X", 1000), ("1", "V", 100),  # X ahead by 900
    ("2", "X", 500), ("2", "Y", 450), ("2", "W", 300),  # X ahead by 50; Y ahead of W by 150
    ("3", "Y", 800), ("3", "U", 700),  # Y ahead by 100
]  # fmt: skip


@pytest.mark.parametrize(
    ("rule", "expected"),
    [("pass-on", {"1": "X", "2": "W", "3": "Y"}), ("choose", {"1": "X", "2": "Y", "3": "U"})],
)
def test_a_player_who_inherits_a_machine_while_top_on_another(
    rule: str, expected: dict[str, str]
) -> None:
    """EPC 2009, EPC Classic Tournament with docs/rules.md (an heir already top elsewhere). X is
    first on 1 (by 900) and 2 (by 50): X keeps 1, and 2 passes to its second best, Y, who is first
    on 3. Pass on: Y keeps 3, so 2 goes to the next scorer without a place, W. Choose: Y is now
    first on 2 (by 450 - 300 = 150) and 3 (by 800 - 700 = 100), keeps 2, and 3 goes to U."""
    got = holders(classic(INHERIT, {"already_qualified": rule}))
    assert {m: got[m] for m in ("1", "2", "3")} == expected


def test_epc_semifinalists_forfeit_to_the_next_scorer() -> None:
    """EPC 2009, EPC Classic Tournament: "if they hold one of the top scores ... and they are one
    of the 8 players who make it into the EPC semi-finals, their Classic Tournament place will be
    forfeit and given to the next highest scorer not still playing in the EPC". S tops 4 and 5; S
    and T are EPC semi-finalists; machine 4 goes to R (3rd), machine 5 to Q (2nd)."""
    rows = [("4", "S", 900), ("4", "T", 800), ("4", "R", 700), ("5", "S", 90), ("5", "Q", 80)]
    got = holders(classic(rows, {"epc_players": ["S", "T"]}))
    assert (got["4"], got["5"]) == ("R", "Q")


def test_a_machine_nobody_eligible_played_has_no_qualifier() -> None:
    """EPC 2009, EPC Classic Tournament: the only scorer on 6 is in the EPC: no qualifier there."""
    got = holders(classic([("6", "S", 5)], {"epc_players": "S"}))
    assert got["6"] is None


def test_the_close_refuses_scores_and_makes_places_final() -> None:
    """EPC 2009, EPC Classic Tournament: "The qualifying round ends at 3pm promptly"; the close is
    an input, the log version it fell at (2 here: both scores count). Before it, A is "leading";
    after it, "qualified"; a score recorded later (version 9) is refused."""
    rows = [("1", "A", 10), ("1", "B", 5)]
    assert [(r.player, r.band) for r in classic(rows).standings.rows] == [
        ("A", "leading"),
        ("B", None),
    ]
    closed = classic(rows, {"closed_after": 2})
    assert closed.standings.rows[0].band == "qualified"
    with pytest.raises(QualifyingClosed, match="has closed"):
        record_entry(closed, Entry(9, "B", "1", 50))


def entries(players: int, scores: int) -> list[Entry]:
    return [Entry(i, f"p{i % players}", "3", i) for i in range(scores)]


@pytest.mark.parametrize(
    ("count", "players", "scores", "replacement", "action"),
    [
        ("players", 10, 10, True, "close"),  # 10 players: closed, scores stand
        ("players", 9, 12, True, "replace"),  # 9 players (12 scores): replaced
        ("scores", 9, 12, True, "close"),  # 12 scores: closed, scores stand
        ("players", 9, 9, False, "close"),  # no replacement: closed, scores stand
    ],
)
def test_a_machine_that_cannot_be_repaired(
    count: str, players: int, scores: int, replacement: bool, action: str
) -> None:
    """EPC 2009, EPC Classic Tournament with docs/rules.md ("10 or more players' scores"): "10
    or more players' scores ... closed to further qualification but all scores will stand"; "If
    fewer than 10 ... the machine may - if a suitable replacement can be found - be replaced";
    otherwise "closed and the existing scores will stand"."""
    config = ClassicConfig(fault_count=count)  # type: ignore[arg-type]
    decision = machine_fault(config, entries(players, scores), False, replacement)
    assert decision.action == action
    assert decision.counted == (players if count == "players" else scores)


def test_a_repaired_machine_keeps_its_scores() -> None:
    """EPC 2009, EPC Classic Tournament: "If this is possible, all existing scores will be valid"."""
    assert machine_fault(ClassicConfig(), entries(3, 3), True, True) == FaultDecision("continue", 3)


def test_a_replaced_machine_wipes_its_scores_and_owes_free_games() -> None:
    """EPC 2009, EPC Classic Tournament: "All recorded scores on the faulty machine will be wiped
    but those players will be given a free game on the replacement machine". 3 players on machine 3
    (p0, p1, p2 in the order they first played); 3 is replaced by 9, which takes its place in the
    machine order; 3's scores no longer count and 3 refuses scores."""
    decision = machine_fault(ClassicConfig(), entries(3, 4), False, True)
    assert decision == FaultDecision("replace", 3, ("p0", "p1", "p2"))
    config = after_fault(ClassicConfig(), "3", decision, 1, "9")
    t = build(
        EPC_CLASSIC,
        [("3", "p0", 500), ("9", "p1", 100)],
        EPC_CLASSIC.settings_dict(config),
        machines=[*EIGHT, "9"],
    )
    got = classic_qualifiers(t.config, t.tables)
    assert [(p.slot, p.machine, p.player) for p in got][2] == (3, "9", "p1")
    assert {r.player: r.played for r in t.standings.rows} == {"p1": 1, "p0": 0}
    with pytest.raises(MachineClosed, match="replaced by machine 9"):
        record_entry(t, Entry(5, "p0", "3", 1))


def test_a_closed_machine_refuses_scores_but_they_stand() -> None:
    """EPC 2009, EPC Classic Tournament: "closed to further qualification but all scores will
    stand"."""
    config = after_fault(ClassicConfig(), "2", FaultDecision("close", 10), 1)
    t = classic([("2", "A", 10)], EPC_CLASSIC.settings_dict(config))
    assert holders(t)["2"] == "A"
    with pytest.raises(MachineClosed, match="closed after a fault"):
        record_entry(t, Entry(5, "A", "2", 99))


def test_semifinals_swap_machine_halves_and_the_final_takes_two_from_each() -> None:
    """EPC 2009, EPC Classic Tournament: "The top players on machines 1, 2, 3 & 4 will play their
    semi-final on one of machines 5-8. The top players on machines 5, 6, 7 & 8 will play their
    semi-final on one of machines 1-4"; "The top two players from each semi-final will go forward
    to the four-player final". Semi 1 (P1-P4): P3 40, P1 30 through. Semi 2 (P5-P8): P8 9, P6 7
    through. Final: P6 4, P3 3, P8 2, P1 1."""
    t = classic([(m, f"P{m}", 1000) for m in EIGHT], {"closed_after": 8})
    one, two = classic_semifinals(classic_qualifiers(t.config, t.tables))
    assert (one.players, one.machines) == (("P1", "P2", "P3", "P4"), ("5", "6", "7", "8"))
    assert (two.players, two.machines) == (("P5", "P6", "P7", "P8"), ("1", "2", "3", "4"))
    semi_1 = play_game(one, {"P1": 30, "P2": 20, "P3": 40, "P4": 10}, "playoff")
    semi_2 = play_game(two, {"P5": 5, "P6": 7, "P7": 1, "P8": 9}, "playoff")
    final = classic_final(semi_1, semi_2)
    assert final.players == ("P3", "P1", "P8", "P6")
    result = play_game(final, {"P6": 4, "P3": 3, "P8": 2, "P1": 1}, "playoff")
    assert result.order == ("P6", "P3", "P8", "P1")


def test_equal_scores_in_the_final_need_a_playoff() -> None:
    """EPC 2009, EPC Classic Tournament: "to determine the winner"; the Classic has no seeding, so
    equal scores go to a play-off between the tied players."""
    t = classic([(m, f"P{m}", 1000) for m in EIGHT], {"closed_after": 8})
    one, _ = classic_semifinals(classic_qualifiers(t.config, t.tables))
    with pytest.raises(UnresolvedTie, match="Players P1 and P2 are tied on 30"):
        play_game(one, {"P1": 30, "P2": 30, "P3": 40, "P4": 10}, "playoff")


def test_settings_cli_text_and_round_trip() -> None:
    """EPC 2009, EPC Classic Tournament: every choice is a setting, typed in the CLI as text."""
    config = EPC_CLASSIC.parse_settings(
        {"closed_after": "57", "epc_players": "12, 15", "faults": "3:50:9,2:40", "lead": "ratio"}
    )
    assert (config.closed_after, config.epc_players) == (57, ("12", "15"))
    assert config.faults == (Fault("3", 50, "9"), Fault("2", 40))
    assert EPC_CLASSIC.parse_settings(EPC_CLASSIC.settings_dict(config)) == config
    with pytest.raises(SettingsError, match="closed_after must be a whole number"):
        EPC_CLASSIC.parse_settings({"closed_after": "3pm"})
    with pytest.raises(SettingsError, match="A fault needs a machine"):
        EPC_CLASSIC.parse_settings({"faults": [["3", 5]]})
    with pytest.raises(SettingsError, match="lead must be one of difference, ratio"):
        EPC_CLASSIC.parse_settings({"lead": "percent"})


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from("ABCDEF"), st.sampled_from(EIGHT[:5]), st.integers(0, 5)),
        max_size=30,
    ),
    st.sampled_from(["pass-on", "choose"]),
    st.sampled_from(["difference", "ratio"]),
    st.one_of(st.none(), st.integers(0, 30)),
    st.randoms(use_true_random=False),
)
def test_incremental_equals_rebuild_and_places_are_distinct(
    rows: list[tuple[str, str, int]], rule: str, lead: str, close: int | None, rnd: Any
) -> None:
    """Format properties (architecture principle 7) for EPC 2009, EPC Classic Tournament: recording scores one
    by one equals a rebuild with the final settings (the close and the faults are log versions),
    the order of registration does not matter, and nobody holds two places."""
    setting = {
        "already_qualified": rule,
        "lead": lead,
        "closed_after": close,
        "faults": [{"machine": "4", "after": 10}, {"machine": "3", "after": 5, "replacement": "5"}],
    }
    players = [Player(p, p) for p in "ABCDEF"]
    machines = [Machine(m, m) for m in EIGHT[:5]]
    t, full = incremental_and_rebuilt(EPC_CLASSIC, setting, players, machines, rows, rnd)
    assert (full.tables, full.standings) == (t.tables, t.standings)
    held = [p for p in holders(t).values() if p is not None]
    assert len(held) == len(set(held))
