"""The Country Competition kind's tables: the tie for sixth, the final's tie-breaks, and every
record naming the views it changes. Expected values worked by hand from the rule text
(epc-2009-rules.txt, "EPC COUNTRY COMPETITION 2009 RULES", cited as "EPC 2009, EPC Country
Competition"); see the builders' docstring for how a match's points come from its places.
"""

from __future__ import annotations

from typing import Any

import pytest

from display.competitions.epc_country.kind import KIND
from scoring.errors import EntryNotAllowed
from tests.display.competitions.epc_country.test_epc_country_live_builders import (
    T03_MAXIMUM,
    Comp,
    drawn,
    four_ball_scores,
    game,
    rows,
    team_body,
)

# --- Qualifying: the six best totals, the tie for sixth -----------------------------------------


def qualifying(results: dict[tuple[str, str], int], **four_ball: int) -> Comp:
    comp = drawn()
    comp.group_stage({**T03_MAXIMUM, **results})
    comp.four_ball(four_ball_scores(**four_ball))
    return comp


T07_FORTY_NINE = {("T07", "T17"): 19, ("T07", "T02"): 14}
"""T07 takes 19 from T17, 16 from T12 and 14 from T02: 49 match points; T02 18+16+16 = 50."""


def test_a_tie_for_sixth_goes_to_the_better_four_ball_score() -> None:
    """EPC 2009, EPC Country Competition: "The six teams with the highest ranking points will go
    on to the finals. If there is a tie for sixth place, the team with the highest score on the 4
    ball "team game" will prevail". Totals: T03 84+12 = 96, T01 48+17 = 65, T02 50+14 = 64, T04
    48+10 = 58, T05 48+9 = 57, T06 48+8 = 56 and T07 49+7 = 56: level for 6th; T06's 4-ball
    score 1500 beats T07's 1400."""
    comp = qualifying(T07_FORTY_NINE)
    table = rows(comp)
    assert [(t, table[t]["total"]) for t in ("T03", "T01", "T02", "T04", "T05")] == [
        ("T03", 96),
        ("T01", 65),
        ("T02", 64),
        ("T04", 58),
        ("T05", 57),
    ]
    assert [table[t]["place"] for t in ("T03", "T01", "T02", "T04", "T05")] == [1, 2, 3, 4, 5]
    assert (table["T06"]["match_points"], table["T06"]["four_ball_points"]) == (48, 8)
    assert (table["T07"]["match_points"], table["T07"]["four_ball_points"]) == (49, 7)
    assert (table["T06"]["place"], table["T06"]["qualified"]) == (6, True)
    assert table["T06"]["decided_by"] == "four_ball"
    assert (table["T07"]["place"], table["T07"]["qualified"]) == (7, False)
    assert table["T07"]["decided_by"] == "four_ball"
    assert comp.view("country/playoffs")["pending"] == {}
    comp.add("stage_advanced", stage="final", finalists=["T03", "T01", "T02", "T04", "T05", "T06"])
    assert comp.view("tournament")["stage"] == "final"
    assert list(rows(comp, "country/final")) == ["T01", "T02", "T03", "T04", "T05", "T06"]


def tie_for_sixth() -> Comp:
    """T06 and T07 both 48 + 8 = 56 with equal 4-ball scores (1500, both 6th): a play-off."""
    return qualifying({}, T07=1500)


def test_a_tie_for_sixth_still_level_goes_to_a_playoff_game_recorded_as_such() -> None:
    """EPC 2009, EPC Country Competition: "in the unlikely event that there is still a tie, a single
    game per team on one of the 4 ball machines shall decide the position". T06 and T07: 56 each
    and 1500 each; the play-off T07 4000, T06 3000 puts T07 6th and T06 7th."""
    comp = drawn()
    comp.match("T01", "T16", 16)
    with pytest.raises(EntryNotAllowed, match="every qualifying match has a result; 29 still"):
        two = [{"team": "T01", "score": 1}, {"team": "T16", "score": 2}]
        comp.add("playoff_recorded", stage="qualifying", scores=two)
    comp = tie_for_sixth()
    table = rows(comp)
    assert [
        (table[t]["place"], table[t]["decided_by"], table[t].get("pending")) for t in ("T06", "T07")
    ] == [
        (6, "tied", True),
        (6, "tied", True),
    ]
    assert "qualified" not in table["T06"]
    assert comp.view("country/playoffs")["pending"] == {
        "qualifying-6": {
            "stage": "qualifying",
            "teams": ["T06", "T07"],
            "place": 6,
            "last_place": 7,
        }
    }
    with pytest.raises(EntryNotAllowed, match="T06 and T07 need a play-off game for places 6-7"):
        comp.add("stage_advanced", stage="final")
    with pytest.raises(EntryNotAllowed, match="matches no tie"):
        comp.add(
            "playoff_recorded",
            stage="qualifying",
            scores=[{"team": "T05", "score": 1}, {"team": "T06", "score": 2}],
        )
    comp.add(
        "playoff_recorded",
        stage="qualifying",
        scores=[{"team": "T06", "score": 3000}, {"team": "T07", "score": 4000}],
        machine="4b2",
    )
    table = rows(comp)
    assert (table["T07"]["place"], table["T07"]["decided_by"], table["T07"]["qualified"]) == (
        6,
        "playoff",
        True,
    )
    assert (table["T06"]["place"], table["T06"]["decided_by"], table["T06"]["qualified"]) == (
        7,
        "playoff",
        False,
    )
    playoffs = comp.view("country/playoffs")
    assert playoffs["pending"] == {}
    assert list(playoffs["played"].values()) == [
        {"stage": "qualifying", "scores": {"T06": 3000, "T07": 4000}, "machine": "4b2"}
    ]


# --- The final ----------------------------------------------------------------------------------


def finalists_decided() -> Comp:
    """After the play-off: T03 96, T01 65, T02 62, T04 58, T05 57, T07 (play-off) in the final."""
    comp = tie_for_sixth()
    comp.add(
        "playoff_recorded",
        stage="qualifying",
        scores=[{"team": "T06", "score": 1}, {"team": "T07", "score": 2}],
    )
    comp.add("stage_advanced", stage="final")
    return comp


def final_matches(comp: Comp, results: dict[tuple[str, str], int]) -> None:
    for f in comp.view("country/fixtures").values():
        if f["stage"] != "final":
            continue
        home, away = f["home"], f["away"]
        if (away, home) in results:
            comp.match(away, home, results[(away, home)], "final")
        else:
            comp.match(home, away, results.get((home, away), 16), "final")


def test_the_final_is_a_round_robin_of_the_six_and_qualifying_is_closed() -> None:
    """EPC 2009, EPC Country Competition, Final: "each team will play each other once": 15
    matches; "140 being the maximum" = 5 x 28. T01 wins all five 28-4: 140; the others 4 from
    T01 and 16 from each of their other four matches: 68."""
    comp = finalists_decided()
    final = [f for f in comp.view("country/fixtures").values() if f["stage"] == "final"]
    assert len(final) == 15
    assert {frozenset((f["home"], f["away"])) for f in final} == {
        frozenset((a, b))
        for a in ("T01", "T02", "T03", "T04", "T05", "T07")
        for b in ("T01", "T02", "T03", "T04", "T05", "T07")
        if a < b
    }
    with pytest.raises(EntryNotAllowed, match=r"qualifying match.*the final is on"):
        comp.add("match_game_recorded", fixture="A-1-1", **game("m1", "T01", "T16", 14, False))
    with pytest.raises(EntryNotAllowed, match="4-ball game is part of qualifying"):
        comp.add("slam_tilt_recorded", team="T01", reason="late tilt")
    with pytest.raises(EntryNotAllowed, match="The final has started: reopen qualifying first"):
        comp.add("record_voided", voids=30, reason="too late")
    final_matches(comp, {(t, "T01"): 4 for t in ("T02", "T03", "T04", "T05", "T07")})
    table = rows(comp, "country/final")
    assert (table["T01"]["points"], table["T01"]["won"], table["T01"]["place"]) == (140, 5, 1)
    assert {table[t]["points"] for t in ("T02", "T03", "T04", "T05", "T07")} == {68}


F1 = {
    ("T01", "T02"): 14,
    ("T01", "T03"): 14,
    ("T01", "T05"): 19,
    ("T01", "T07"): 23,
    ("T07", "T05"): 18,
}
"""Final deltas from 16-16: T01 -2 -2 +3 +7 = +6 (86); T02 +2 (82); T03 +2 (82); T04 0 (80);
T05 -3 -2 = -5 (75); T07 -7 +2 = -5 (75). T07 beat T05 18-14 in their match."""


def test_final_ties_up_to_fourth_need_a_playoff_and_fifth_goes_to_head_to_head() -> None:
    """EPC 2009, EPC Country Competition, Final: "Should there be a tie at the end of the final for
    any places up to 4th, there will be a 4 ball play off game ... A tie for 5th or 6th will be
    decided on countback from the head to head matches in the finals". T02 and T03 (82) tie for
    2nd: a play-off (T03 2000 beats T02 1000). T05 and T07 (75) tie for 5th: T07 won their match
    18-14, so T07 is 5th though T05's qualifying 4-ball score (1600) beats T07's (1500)."""
    comp = finalists_decided()
    final_matches(comp, F1)
    table = rows(comp, "country/final")
    assert {t: table[t]["points"] for t in table} == {
        "T01": 86,
        "T02": 82,
        "T03": 82,
        "T04": 80,
        "T05": 75,
        "T07": 75,
    }
    assert [(table[t]["place"], table[t]["decided_by"]) for t in ("T07", "T05")] == [
        (5, "head_to_head"),
        (6, "head_to_head"),
    ]
    assert [(table[t]["place"], table[t].get("pending")) for t in ("T02", "T03")] == [
        (2, True),
        (2, True),
    ]
    assert comp.view("country/playoffs")["pending"] == {
        "final-2": {"stage": "final", "teams": ["T02", "T03"], "place": 2, "last_place": 3}
    }
    with pytest.raises(EntryNotAllowed, match="a play-off game still to play"):
        comp.add("stage_advanced", stage="complete")
    comp.add(
        "playoff_recorded",
        stage="final",
        scores=[{"team": "T02", "score": 1000}, {"team": "T03", "score": 2000}],
    )
    table = rows(comp, "country/final")
    assert [(table[t]["place"], table[t]["decided_by"]) for t in ("T03", "T02")] == [
        (2, "playoff"),
        (3, "playoff"),
    ]
    comp.add("stage_advanced", stage="complete")
    assert comp.view("country/final")["complete"] is True
    assert comp.view("tournament")["stage"] == "complete"
    with pytest.raises(EntryNotAllowed, match="the competition is complete"):
        comp.add(
            "playoff_recorded",
            stage="final",
            scores=[{"team": "T02", "score": 1}, {"team": "T03", "score": 2}],
        )


F2 = {("T01", "T02"): 14, ("T01", "T03"): 14, ("T01", "T05"): 21, ("T01", "T07"): 21}
"""T01 -2 -2 +5 +5 = +6 (86); T02, T03 82; T04 80; T05 and T07 -5 each (75), their match 16-16."""


def test_a_fifth_place_tie_level_on_head_to_head_goes_to_the_qualifying_four_ball_score() -> None:
    """EPC 2009, EPC Country Competition, Final: "should there still be a tie the 4 ball game score
    from the qualifying round will decide the place". T05 and T07 drew 16-16; T05's qualifying
    4-ball score 1600 beats T07's 1500."""
    comp = finalists_decided()
    final_matches(comp, F2)
    table = rows(comp, "country/final")
    assert (table["T05"]["points"], table["T07"]["points"]) == (75, 75)
    assert (table["T05"]["four_ball_score"], table["T07"]["four_ball_score"]) == (1600, 1500)
    assert [(table[t]["place"], table[t]["decided_by"]) for t in ("T05", "T07")] == [
        (5, "four_ball"),
        (6, "four_ball"),
    ]


def test_the_finalists_named_when_advancing_are_checked_when_the_log_is_replayed() -> None:
    """The final's teams are fixed when the TD advances (the record names them): a settings change
    that would make them different (five finalists instead of six) is refused."""
    comp = qualifying(T07_FORTY_NINE)
    comp.add("stage_advanced", stage="final", finalists=["T03", "T01", "T02", "T04", "T05", "T06"])
    with pytest.raises(EntryNotAllowed, match="would now be"):
        comp.add("settings_changed", settings={"finalists": 5})
    assert comp.view("tournament")["settings"]["finalists"] == 6


# --- Views: what a record says it touched is all that changed -------------------------------------


class Watched(Comp):
    """Keeps the views the way a replica does (rebuilding only the touched ones) and checks them
    against a full rebuild after every record (architecture principle 7: the incremental path is
    tested against a full rebuild)."""

    def __init__(self) -> None:
        super().__init__()
        self.views = self.all_views()

    def all_views(self) -> dict[str, Any]:
        names = KIND.view_names(self.state)
        return {n: d for n in names if (d := self.view(n)) is not None}

    def add(self, kind: str, **fields: Any) -> set[str]:
        touched = super().add(kind, **fields)
        fresh = self.all_views()
        if "*" in touched:
            self.views = fresh
        for name in touched - {"*"}:
            self.views[name] = fresh[name]
        assert self.views == fresh, f"{kind} changed views it did not name"
        assert not any(v is None for v in _leaves(fresh)), "a view holds a null"
        return touched


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]


def test_every_record_names_every_view_it_changes() -> None:
    """A whole competition, record by record: registration, matches, a late team, 4-ball games
    with a slam tilt, a void, the tie for sixth and its play-off, the final and its play-off."""
    comp = Watched()
    comp.draw()
    comp.add("team_added", team=team_body("R1", None), reserve=True)
    comp.add("team_replaced", withdrawn="T20", reserve="R1", reason="flight")
    comp.add("late_recorded", fixture="A-1-1", team="T16", minutes=6, reason="bar")
    comp.add("record_voided", voids=comp.seq, reason="wrong team called")
    comp.group_stage(T03_MAXIMUM)
    comp.four_ball({t: s for t, s in four_ball_scores(T07=1500).items() if t != "T20"})
    comp.add("slam_tilt_recorded", team="R1", reason="shook")
    comp.add(
        "playoff_recorded",
        stage="qualifying",
        scores=[{"team": "T06", "score": 1}, {"team": "T07", "score": 2}],
    )
    comp.add("stage_advanced", stage="final")
    final_matches(comp, F1)
    comp.add(
        "playoff_recorded",
        stage="final",
        scores=[{"team": "T02", "score": 1}, {"team": "T03", "score": 2}],
    )
    comp.add("stage_advanced", stage="complete")
    assert rows(comp, "country/final")["T03"]["place"] == 2
