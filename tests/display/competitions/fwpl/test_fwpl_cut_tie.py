"""A tie the FWPL playoff line runs through, in the season view: the division carries the tie's
note so the page draws the line above the tied run (FWPL 6.1: "Ties will be settled by single ball
play on a random machine"; ``scoring.cut_tie``)."""

from __future__ import annotations

from tests.display.competitions.fwpl.test_fwpl_live import league, view
from tests.display.competitions.fwpl.test_fwpl_live_playoffs import one_week
from tests.utils import Api


async def test_the_playoff_line_through_equal_points_carries_the_tie(api: Api) -> None:
    """Nine players, one week: 33, 16, 4 in each group of three, so 3, 6 and 9 share 7th with 4
    points and the top-8 line leaves two places for the three of them."""
    await league(api, "fct1", 9)
    await one_week(api, "fct1", 9)
    season = await view(api, "fct1", "season")
    assert {season["rows"][p]["place"] for p in ("3", "6", "9")} == {7}
    assert season["cut"]["divisions"]["A"]["tie"] == {
        "place": 7,
        "places": 2,
        "players": ["3", "6", "9"],
        "note": "tie at the cut: play-off for 2 places",
    }
    # once the play-off order starts the playoffs, the line is the seeds' and the note goes
    started = await api.post("/api/t/fct1/league/playoffs", {"tiebreaks": [["9", "3", "6"]]})
    assert started.status_code == 201, started.text
    assert "tie" not in (await view(api, "fct1", "season"))["cut"]["divisions"]["A"]


async def test_a_line_between_two_places_has_no_tie(api: Api) -> None:
    """Eight players in two groups of four: every place differs at the top-8 line (it is the
    last row), so no division carries a tie."""
    await league(api, "fct2", 8)
    await one_week(api, "fct2", 8)
    season = await view(api, "fct2", "season")
    assert all("tie" not in d for d in season["cut"]["divisions"].values())
