"""FWPL ladder and groups, worked by hand from fwpl-rules.txt sections 3.1, 4.1, 4.2, 4.3."""

from __future__ import annotations

import pytest

from scoring import UnknownPlayer
from scoring.fwpl import (
    FwplConfig,
    GroupingNotPossible,
    LeaguePlayer,
    group_sizes,
    initial_ladder,
    ranked_ladder,
    split_groups,
)

# FWPL 4.1, the table as printed ("6: 3 3", "7: 4 3", ... "32: 4 4 4 4 4 4 4 4").
TABLE_4_1 = {
    6: "3 3", 7: "4 3", 8: "4 4",
    9: "3 3 3", 10: "4 3 3", 11: "4 4 3", 12: "4 4 4",
    13: "4 3 3 3", 14: "4 4 3 3", 15: "4 4 4 3", 16: "4 4 4 4",
    17: "4 4 3 3 3", 18: "4 4 4 3 3", 19: "4 4 4 4 3", 20: "4 4 4 4 4",
    21: "4 4 4 3 3 3", 22: "4 4 4 4 3 3", 23: "4 4 4 4 4 3", 24: "4 4 4 4 4 4",
    25: "4 4 4 4 3 3 3", 26: "4 4 4 4 4 3 3", 27: "4 4 4 4 4 4 3", 28: "4 4 4 4 4 4 4",
    29: "4 4 4 4 4 3 3 3", 30: "4 4 4 4 4 4 3 3", 31: "4 4 4 4 4 4 4 3",
    32: "4 4 4 4 4 4 4 4",
}  # fmt: skip


@pytest.mark.parametrize(("players", "row"), sorted(TABLE_4_1.items()))
def test_group_sizes_follow_the_table(players: int, row: str) -> None:
    """FWPL 4.1: the suggested group sizes for 6 to 32 players, exactly as printed."""
    assert group_sizes(players) == tuple(int(size) for size in row.split())


def test_above_32_the_table_goes_on_the_same_way() -> None:
    """FWPL 4.1 extended: 33 players need ceil(33 / 4) = 9 groups; 9 x 4 - 33 = 3 of them are
    threes at the bottom: 4 4 4 4 4 4 3 3 3. 36 players: nine fours."""
    assert group_sizes(33) == (4,) * 6 + (3,) * 3
    assert group_sizes(36) == (4,) * 9


def test_at_least_one_three_player_group_reading() -> None:
    """FWPL 4.1 with docs/rules.md: "in most cases there should be at least one three-player
    group". With ``one_three``, 16 = 4 + 3 + 3 + 3 + 3 and 12 = 3 + 3 + 3 + 3; 8 can only be
    4 + 4; other sizes are unchanged (15 is 4 4 4 3 either way)."""
    config = FwplConfig(group_table="one_three")
    assert group_sizes(16, config) == (4, 3, 3, 3, 3)
    assert group_sizes(12, config) == (3, 3, 3, 3)
    assert group_sizes(8, config) == (4, 4)
    assert group_sizes(15, config) == (4, 4, 4, 3)


def test_small_counts() -> None:
    """FWPL 4.1: "There will be no scheduled matches with less than 3 players": three or four
    players make one group; 1, 2 and 5 cannot be split into threes and fours."""
    assert group_sizes(3) == (3,)
    assert group_sizes(4) == (4,)
    for players in (1, 2, 5):
        with pytest.raises(GroupingNotPossible):
            group_sizes(players)


def test_initial_ladder_by_ifpa_rank_then_alphabetical() -> None:
    """FWPL 4.3: "The initial assignment of ladder rankings before the season starts is made by
    current IFPA ranking. Unranked players are placed alphabetically at the bottom": ranks 25 and
    900 first, then Amy, Bea, Zed."""
    players = [
        LeaguePlayer("1", "Zed"),
        LeaguePlayer("2", "Dee", ifpa_rank=900),
        LeaguePlayer("3", "Bea"),
        LeaguePlayer("4", "Cy", ifpa_rank=25),
        LeaguePlayer("5", "Amy"),
    ]
    assert initial_ladder(players) == ("4", "2", "5", "3", "1")
    assert initial_ladder(reversed(players)) == ("4", "2", "5", "3", "1")


def test_groups_are_cut_top_down_and_adjusted_for_announced_absences() -> None:
    """FWPL 4.2: "This ladder is then divided into groups"; 3.1: "Players are encouraged to notify
    the LO if they will not attend an event, so the groups can be adjusted". Eight players make
    4 + 4; with c announced absent the seven present make 4 + 3."""
    ladder = list("abcdefgh")
    assert split_groups(ladder) == (tuple("abcd"), tuple("efgh"))
    assert split_groups(ladder, absent={"c"}) == (tuple("abde"), tuple("fgh"))


def test_the_lo_may_set_other_sizes() -> None:
    """FWPL 4.1: "These suggested groupings may be altered by the LO". 8 players as 3 + 3 + 2
    is accepted; sizes that do not add up to the players present are refused."""
    assert split_groups(list("abcdefgh"), sizes=(3, 3, 2)) == (
        tuple("abc"),
        tuple("def"),
        ("g", "h"),
    )
    with pytest.raises(GroupingNotPossible):
        split_groups(list("abcdefgh"), sizes=(4, 3))


NAMES = {"p1": "Fox", "p2": "Eve", "p3": "Dan", "p4": "Cat"}


@pytest.mark.parametrize(
    ("ties", "expected"),
    [
        ("previous", ("p1", "p4", "p2", "p3")),
        ("initial", ("p1", "p2", "p4", "p3")),
        ("name", ("p1", "p4", "p2", "p3")),
    ],
)
def test_later_ladders_by_season_points(ties: str, expected: tuple[str, ...]) -> None:
    """FWPL 4.3: "Subsequent matches will be ranked based on accrued points"; equal points per
    docs/rules.md. p1 has 30; p2 and p4 have 20; p3 10. Last week's ladder was p4, p1, p3, p2:
    "previous" keeps p4 above p2. The initial order p1, p2, p3, p4 puts p2 first; by name, Cat (p4)
    comes before Eve (p2)."""
    points = {"p1": 30, "p2": 20, "p3": 10, "p4": 20}
    previous, initial = ("p4", "p1", "p3", "p2"), ("p1", "p2", "p3", "p4")
    config = FwplConfig(ladder_ties=ties)
    assert ranked_ladder(points, previous, initial, NAMES, config.ladder_ties) == expected


def test_new_players_follow_last_weeks_ladder_among_equals() -> None:
    """FWPL 4.3 and 2.4 (late joiners): a player not on last week's ladder comes after the equal
    players who were, in initial order: p3 joins with 0 points, level with p2."""
    points = {"p1": 5, "p2": 0, "p3": 0}
    assert ranked_ladder(points, ("p2", "p1"), ("p3", "p1", "p2"), NAMES) == ("p1", "p2", "p3")
    with pytest.raises(UnknownPlayer):
        ranked_ladder({"x": 1}, (), ("p1",), NAMES)
