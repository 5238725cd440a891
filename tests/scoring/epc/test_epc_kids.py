"""The UK Pinball Kids Tournament at EPC 2009, worked by hand from the rule text
(epc-2009-rules.txt, "UK PINBALL KIDS TOURNAMENT"). One machine, "K"; players are names."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Entry, Machine, Player, SettingsError, Tournament, record_entry
from scoring.epc.errors import QualifyingClosed, WrongMachine
from scoring.epc.kids import EPC_KIDS, KidsConfig
from tests.scoring.scoring_builders import build, incremental_and_rebuilt, table

DAY = [
    ("K", "Amy", 12_000), ("K", "Ben", 30_000), ("K", "Cal", 8_000), ("K", "Amy", 41_000),
    ("K", "Dee", 30_000), ("K", "Eve", 25_000), ("K", "Ben", 9_000),
]  # fmt: skip


def kids(rows: list[tuple[str, str, int]], settings: dict[str, Any] | None = None) -> Tournament:
    return build(EPC_KIDS, rows, settings, players=["Fay"])


def podium(t: Tournament) -> list[tuple[str, int | None, Any, str | None]]:
    return [(r.player, r.place, r.total, r.band) for r in t.standings.rows]


def test_best_score_per_player_and_three_trophies_with_a_shared_place() -> None:
    """EPC 2009, UK Pinball Kids Tournament: "Players may purchase as many entries as they wish";
    "the three players with the highest scores will be awarded glass trophies". Bests: Amy 41,000
    (her second game), Ben 30,000 (his first), Dee 30,000, Eve 25,000, Cal 8,000. Ben and Dee
    share 2nd (Ben listed first: he scored it first). The close fell at version 7, after every
    score: Amy, Ben and Dee get trophies. Fay has no score: unplaced."""
    t = kids(DAY, {"closed_after": 7})
    assert podium(t) == [
        ("Amy", 1, 41_000, "trophy"),
        ("Ben", 2, 30_000, "trophy"),
        ("Dee", 2, 30_000, "trophy"),
        ("Eve", 4, 25_000, None),
        ("Cal", 5, 8_000, None),
        ("Fay", None, 0, None),
    ]
    assert table(t, "K")[0] == ("Amy", 41_000, 1, None, False)


@pytest.mark.parametrize(
    ("ties", "trophies"),
    [("share", ["Amy", "Ben", "Dee", "Eve"]), ("earlier", ["Amy", "Ben", "Dee"])],
)
def test_equal_scores_at_the_trophy_line(ties: str, trophies: list[str]) -> None:
    """EPC 2009, UK Pinball Kids Tournament: Dee and Eve both score 30,000 for 3rd. Share: both
    are 3rd and both get a trophy (four in all). Earlier: Dee scored it first, is 3rd; Eve 4th."""
    rows = [("K", "Amy", 50), ("K", "Ben", 40), ("K", "Dee", 30), ("K", "Eve", 30)]
    t = kids(rows, {"ties": ties, "closed_after": 4})
    assert [r.player for r in t.standings.rows if r.band == "trophy"] == trophies
    assert [r.place for r in t.standings.rows][:4] == (
        [1, 2, 3, 3] if ties == "share" else [1, 2, 3, 4]
    )


def test_before_the_close_the_top_three_are_leading() -> None:
    """EPC 2009, UK Pinball Kids Tournament: "At the close of the tournament each day" the
    trophies are decided; before it the top three are shown as leading."""
    assert [r.band for r in kids(DAY).standings.rows][:4] == ["leading"] * 3 + [None]


def test_the_close_refuses_later_scores() -> None:
    """EPC 2009, UK Pinball Kids Tournament: the day's tournament closes (Saturday 5pm, Sunday
    4pm); a score recorded after the close (version 8 > 7) is refused."""
    t = kids(DAY, {"closed_after": 7})
    with pytest.raises(QualifyingClosed, match="kids tournament has closed"):
        record_entry(t, Entry(8, "Cal", "K", 99_000))


def test_one_designated_machine() -> None:
    """EPC 2009, UK Pinball Kids Tournament: "one game on the designated UK Pinball Kids
    Tournament machine"."""
    t = build(EPC_KIDS, [("K", "Amy", 10)], machines=["K", "Other"])
    with pytest.raises(WrongMachine, match="played on K only"):
        record_entry(t, Entry(2, "Amy", "Other", 20))


def test_settings_round_trip() -> None:
    """EPC 2009, UK Pinball Kids Tournament: settings typed in the CLI as text round-trip."""
    config = EPC_KIDS.parse_settings({"trophies": "5", "ties": "earlier", "closed_after": "none"})
    assert config == KidsConfig(trophies=5, ties="earlier")
    assert EPC_KIDS.parse_settings(EPC_KIDS.settings_dict(config)) == config
    with pytest.raises(SettingsError, match="ties must be one of share, earlier"):
        EPC_KIDS.parse_settings({"ties": "coin"})


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from("ABCDE"), st.sampled_from("KL"), st.integers(0, 4)), max_size=25
    ),
    st.sampled_from(["share", "earlier"]),
    st.one_of(st.none(), st.integers(0, 25)),
    st.randoms(use_true_random=False),
)
def test_incremental_equals_rebuild(
    rows: list[tuple[str, str, int]], ties: str, close: int | None, rnd: Any
) -> None:
    """Format properties (architecture principle 7) for EPC 2009, UK Pinball Kids Tournament: scores recorded
    one by one equal a rebuild with the final settings, whatever the order of registration; the
    places follow the tie setting."""
    setting = {"ties": ties, "closed_after": close}
    players, machines = [Player(p, p) for p in "ABCDE"], [Machine(m, m) for m in "KL"]
    t, full = incremental_and_rebuilt(EPC_KIDS, setting, players, machines, rows, rnd)
    assert (full.tables, full.standings) == (t.tables, t.standings)
    placed = [r for r in t.standings.rows if r.place is not None]
    for row in placed:
        better = sum(1 for r in placed if r.total > row.total)
        equal_before = sum(1 for r in placed[: placed.index(row)] if r.total == row.total)
        assert row.place == 1 + better + (equal_before if ties == "earlier" else 0)
