"""EPC 2009 qualifying, worked by hand from the rule text (epc-2009-rules.txt, "EPC Qualifying")."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring import (
    EPC_QUALIFYING,
    Entry,
    EpcConfig,
    JokerAlreadyUsed,
    MachineAlreadyPlayed,
    SettingsError,
    TooManyMachines,
    record_entry,
)
from tests.scoring.scoring_builders import build, standings, table

MM, AFM = "Medieval Madness", "Attack from Mars"


def test_top_score_gets_100_and_lower_places_follow_the_scale() -> None:
    """EPC 2009, EPC Qualifying: "One hundred points will be awarded for the top score on each
    machine with a reducing number of points"; PAPA scale 100, 90, 85, 84."""
    t = build(EPC_QUALIFYING, [(MM, "1", 100), (MM, "2", 400), (MM, "3", 300), (MM, "4", 200)])
    assert table(t, MM) == [
        ("2", 400, 1, 100, False),
        ("3", 300, 2, 90, False),
        ("4", 200, 3, 85, False),
        ("1", 100, 4, 84, False),
    ]


def test_equal_scores_share_the_place_and_its_points() -> None:
    """EPC 2009, EPC Qualifying: each score is ranked against all others; two equal scores hold the
    same place (2nd) and both get that place's 90 points; the next score is 4th with 84."""
    t = build(EPC_QUALIFYING, [(MM, "1", 500), (MM, "2", 300), (MM, "3", 300), (MM, "4", 100)])
    assert [(p, place, pts) for p, _, place, pts, _ in table(t, MM)] == [
        ("1", 1, 100),
        ("2", 2, 90),
        ("3", 2, 90),
        ("4", 4, 84),
    ]


def test_custom_scale_and_zero_below_it() -> None:
    """EPC 2009, EPC Qualifying: the scale below 100 is a setting; a custom table scores 0 below
    its last place."""
    rows = [(MM, str(i), 1000 - i) for i in range(1, 5)]
    t = build(EPC_QUALIFYING, rows, {"scale": [100, 50]})
    assert [r[3] for r in table(t, MM)] == [100, 50, 0, 0]


def test_joker_counts_only_when_higher() -> None:
    """EPC 2009, EPC Qualifying: "If the Joker Game score is higher than their earlier qualifying
    score, the Joker Game score will become their qualifying score. Otherwise, their earlier
    qualifying score will stand." Player 1 improves 100 -> 300; player 2's joker (200) is lower
    than 500, so 500 stands. Both rows are marked as jokers."""
    t = build(
        EPC_QUALIFYING,
        [(MM, "1", 100), (MM, "2", 500), (MM, "3", 250), (MM, "1", 300), (MM, "2", 200)],
    )
    assert table(t, MM) == [
        ("2", 500, 1, 100, True),
        ("1", 300, 2, 90, True),
        ("3", 250, 3, 85, False),
    ]


def test_a_second_joker_on_another_machine_is_refused() -> None:
    """EPC 2009, EPC Qualifying: "Each player may only play one Joker Game"."""
    t = build(EPC_QUALIFYING, [(MM, "17", 100), (AFM, "17", 100), (AFM, "17", 200)])
    with pytest.raises(JokerAlreadyUsed) as caught:
        record_entry(t, Entry(4, "17", MM, 300))
    assert caught.value.message == (
        "Player 17 has already played Medieval Madness and used their joker game on "
        "Attack from Mars."
    )


def test_a_third_game_on_the_joker_machine_is_refused() -> None:
    """EPC 2009, EPC Qualifying: each machine once, plus the one Joker Game."""
    t = build(EPC_QUALIFYING, [(MM, "17", 100), (MM, "17", 200)])
    with pytest.raises(MachineAlreadyPlayed, match="used their joker game on it"):
        record_entry(t, Entry(3, "17", MM, 300))


def test_without_jokers_a_machine_is_played_once() -> None:
    """EPC 2009, EPC Qualifying: "Each of the six machines may only be played once per contestant
    (with the exception of the Joker Game)"; with jokers set to 0 there is no exception."""
    t = build(EPC_QUALIFYING, [(MM, "17", 100)], {"jokers_per_player": 0})
    with pytest.raises(MachineAlreadyPlayed, match="no joker games"):
        record_entry(t, Entry(2, "17", MM, 300))


def test_a_seventh_machine_is_refused_but_the_joker_still_fits() -> None:
    """EPC 2009, EPC Qualifying: "Players will play a single game on six of these"; the joker
    replays one of the six."""
    six = [(f"M{i}", "17", 100) for i in range(1, 7)]
    t = build(EPC_QUALIFYING, six, machines=["M7"])
    with pytest.raises(TooManyMachines, match="already played 6 machines"):
        record_entry(t, Entry(7, "17", "M7", 100))
    t = record_entry(t, Entry(7, "17", "M3", 900))
    assert t.standings.rows[0].played == 6


def test_total_is_the_sum_over_machines_and_unplayed_scores_zero() -> None:
    """EPC 2009, EPC Qualifying: "A player's ranking points total is the sum of their ranking
    points"; "Any unplayed games will score zero". Player 1: 100 + 90 = 190; player 2: 90 + 100 =
    190; player 3: 85; player 4 has not played: 0, still listed."""
    t = build(
        EPC_QUALIFYING,
        [(MM, "1", 900), (MM, "2", 800), (MM, "3", 700), (AFM, "2", 50), (AFM, "1", 40)],
        players=["4"],
    )
    assert standings(t) == [
        ("1", 1, 190, "qualified"),
        ("2", 1, 190, "qualified"),
        ("3", 3, 85, "qualified"),
        ("4", 4, 0, "qualified"),
    ]
    assert [r.played for r in t.standings.rows] == [2, 2, 1, 0]
    assert all(isinstance(r.total, Fraction) for r in t.standings.rows)


def test_bands_32_qualify_6_standby_rest_out() -> None:
    """EPC 2009, EPC Qualifying: "The 32 highest ranked players then progress"; "Players ranked
    33 - 38 should also report ... for stand-by places"; "All other players have ended their
    participation". 40 players, one machine, linear scale: 40 distinct totals."""
    t = build(EPC_QUALIFYING, [(MM, f"{i}", 1000 - i) for i in range(1, 41)], {"scale": "linear"})
    bands = {r.place: r.band for r in t.standings.rows}
    assert {p for p, b in bands.items() if b == "qualified"} == set(range(1, 33))
    assert {p for p, b in bands.items() if b == "standby"} == set(range(33, 39))
    assert {p for p, b in bands.items() if b == "out"} == {39, 40}


@pytest.mark.parametrize(
    ("cut_ties", "expected"),
    [
        ("include", ["qualified", "qualified", "qualified", "out"]),
        ("exclude", ["qualified", "standby", "standby", "out"]),
    ],
)
def test_a_tie_across_the_cut(cut_ties: str, expected: list[str]) -> None:
    """EPC 2009, EPC Qualifying with docs/rules.md (ties at the cut): qualify 2, standby 1; two
    players tie for 2nd, covering places 2 and 3. "include": the shared place 2 is inside the cut,
    both qualify. "exclude": the tie does not fit, both drop to standby. 4th is out either way."""
    rows = [(MM, "1", 400), (MM, "2", 300), (MM, "3", 300), (MM, "4", 100)]
    t = build(EPC_QUALIFYING, rows, {"qualify": 2, "standby": 1, "cut_ties": cut_ties})
    assert [r.band for r in t.standings.rows] == expected


def test_settings_parse_cli_text_and_round_trip() -> None:
    """EPC 2009, EPC Qualifying: every choice is a setting, typed in the CLI as text."""
    config = EPC_QUALIFYING.parse_settings({"scale": "100,50,25", "qualify": "16", "standby": "4"})
    assert config == EpcConfig(scale=(100, 50, 25), qualify=16, standby=4)
    assert EPC_QUALIFYING.parse_settings(EPC_QUALIFYING.settings_dict(config)) == config
    assert EPC_QUALIFYING.settings_dict(EPC_QUALIFYING.parse_settings({})) == {
        "scale": "papa",
        "machines_per_player": 6,
        "jokers_per_player": 1,
        "qualify": 32,
        "standby": 6,
        "cut_ties": "include",
    }


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"jokers": 1}, "has no setting 'jokers'"),
        ({"qualify": "-1"}, "qualify must be a whole number"),
        ({"machines_per_player": 0}, "machines_per_player"),
        ({"jokers_per_player": 7}, "jokers_per_player must be a whole number from 0 to 6"),
        ({"cut_ties": "coin"}, "cut_ties must be one of include, exclude"),
        ({"scale": "wppr"}, "Unknown points scale"),
    ],
)
def test_bad_settings(settings: dict[str, object], message: str) -> None:
    """EPC 2009, EPC Qualifying: settings outside the rules are refused with a readable reason."""
    with pytest.raises(SettingsError, match=message):
        EPC_QUALIFYING.parse_settings(settings)
