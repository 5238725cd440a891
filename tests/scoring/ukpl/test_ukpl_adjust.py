"""UKPL adjustments, faults and multiplayer games, worked by hand from ukpl-rules.txt sections 2E,
2F, 6A, 6C, 7A, 7C and 7D, then fed to the meeting engine (sections 3B-3D)."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

import scoring.ukpl.adjust
from scoring import (
    UKPL_MEETING,
    Entry,
    EntryNotAllowed,
    InvalidScore,
    Machine,
    MachineAlreadyPlayed,
    Player,
    SettingsError,
    rebuild,
)
from scoring.ukpl.adjust import (
    AdjustConfig,
    Applied,
    Disqualified,
    ExtraBall,
    Jackpot,
    MultiplayerGame,
    OneBallAdded,
    Penalty,
    Replay,
    SlamTilt,
    Substitute,
    adjust,
    banned,
    check_multiplayer,
    extra_ball_score,
    jackpot_score,
    minimum_penalty,
    multiplayer_entries,
)

TZ, TAF = "Twilight Zone", "The Addams Family"
TD = {"by": "Regional coordinator", "reason": "see the score card"}


def scores(entries: tuple[Entry, ...]) -> list[tuple[str, str, int]]:
    return [(e.player, e.machine, e.score) for e in entries]


def test_a_random_jackpot_is_fixed_at_the_agreed_value() -> None:
    """UKPL 2E: the coordinator may "set the jackpot value at 5m" when it varies from 1m to 10m;
    "the player's actual score adjusted to give the final score with the pre-agreed fixed jackpot
    value". 12,000,000 with an 8m jackpot: 12m - 8m + 5m = 9,000,000. Two jackpots (8m and 2m) in
    20m: 20m - 10m + 2 x 5m = 20,000,000."""
    assert jackpot_score(12_000_000, [8_000_000], 5_000_000) == 9_000_000
    assert jackpot_score(20_000_000, [8_000_000, 2_000_000], 5_000_000) == 20_000_000
    record = Jackpot(player="a", machine=TZ, awarded=(8_000_000,), agreed=5_000_000, **TD)
    done = adjust([Entry(1, "a", TZ, 12_000_000)], [record])
    assert scores(done.entries) == [("a", TZ, 9_000_000)]
    assert done.log == (Applied(record, "a", TZ, 12_000_000, 9_000_000),)


def test_a_jackpot_cannot_exceed_the_score() -> None:
    """UKPL 2E: the jackpot was part of the recorded score; 3m of jackpots in a 2m score is a
    mistake on the card."""
    with pytest.raises(InvalidScore, match=r"jackpots awarded \(3,000,000\) are more than"):
        jackpot_score(2_000_000, [3_000_000], 5_000_000)


@pytest.mark.parametrize(
    ("score", "expected"),
    [(2_500_000, 2_000_000), (1_234_567, 987_653), (4, 3), (0, 0)],
)
def test_an_extra_ball_on_the_last_ball_scores_80_percent_rounded_down(
    score: int, expected: int
) -> None:
    """UKPL 7C: "If they are on their last ball then their final score is calculated as 80% of
    their total score." 2,500,000 x 0.8 = 2,000,000; 1,234,567 x 0.8 = 987,653.6 -> 987,653 (down:
    a penalty never rounds up); 4 x 0.8 = 3.2 -> 3."""
    assert extra_ball_score(score) == expected
    record = ExtraBall(player="a", machine=TZ, last_ball=True, **TD)
    assert scores(adjust([Entry(1, "a", TZ, score)], [record]).entries) == [("a", TZ, expected)]


@pytest.mark.parametrize(
    ("last_ball", "kept_playing", "expected"),
    [(False, True, 0), (True, True, 0), (False, False, 700)],
)
def test_an_extra_ball_played_on(last_ball: bool, kept_playing: bool, expected: int) -> None:
    """UKPL 7C: not stopping within 10 seconds of being told "receive zero points for the entire
    game"; an extra ball before the last ball costs the next ball, already reflected in the score
    (700 stands)."""
    record = ExtraBall(player="a", machine=TZ, last_ball=last_ball, kept_playing=kept_playing, **TD)
    assert scores(adjust([Entry(1, "a", TZ, 700)], [record]).entries) == [("a", TZ, expected)]


def test_a_slam_tilt_scores_zero_even_without_a_recorded_score() -> None:
    """UKPL 7D: "the offending player automatically losing that game and being awarded a score of
    zero": 5,000 becomes 0; b, whose card has no score, gets a 0 entry (seq after the others)."""
    records = [SlamTilt(player="a", machine=TZ, **TD), SlamTilt(player="b", machine=TZ, **TD)]
    done = adjust([Entry(1, "a", TZ, 5_000), Entry(2, "c", TZ, 10)], records)
    assert [(e.seq, e.player, e.score) for e in done.entries] == [
        (1, "a", 0),
        (2, "c", 10),
        (3, "b", 0),
    ]
    assert [(a.before, a.after) for a in done.log] == [(5_000, 0), (None, 0)]


def test_zero_wins_over_earlier_adjustments() -> None:
    """UKPL 2E, 7C, 7D in order: jackpot first (12m - 8m + 5m = 9m), then 80% for the extra ball
    (7,200,000); a slam tilt record on the same game makes it 0 whatever came before."""
    jackpot = Jackpot(player="a", machine=TZ, awarded=(8_000_000,), agreed=5_000_000, **TD)
    extra = ExtraBall(player="a", machine=TZ, last_ball=True, **TD)
    game = [Entry(1, "a", TZ, 12_000_000)]
    assert scores(adjust(game, [extra, jackpot]).entries) == [("a", TZ, 7_200_000)]
    tilt = SlamTilt(player="a", machine=TZ, **TD)
    assert scores(adjust(game, [tilt, extra, jackpot]).entries) == [("a", TZ, 0)]


GAMES = [
    Entry(1, "a", TZ, 12_000_000),
    Entry(2, "b", TZ, 5_000_000),
    Entry(3, "c", TZ, 4_000_000),
    Entry(4, "a", TAF, 300),
    Entry(5, "b", TAF, 200),
    Entry(6, "c", TAF, 100),
]


def meeting_rows(entries: tuple[Entry, ...]) -> list[tuple[str, int | None, object, object]]:
    players = [Player(p, p) for p in "abc"]
    t = rebuild(UKPL_MEETING, {}, players, [Machine(TZ, TZ), Machine(TAF, TAF)], entries)
    return [(r.player, r.place, r.total, r.league_points) for r in t.standings.rows]


def test_an_adjusted_score_is_what_the_meeting_ranks() -> None:
    """UKPL 2E then 3B: as recorded, a's 12,000,000 on TZ is more than double b's 5,000,000
    (10,000,000) and earns the bonus point: a 3 + 1 + 3 = 7. Fixed at the agreed 5m, a's 9,000,000
    is not: a 3 + 3 = 6, b 2 + 2 = 4, c 1 + 1 = 2; league points 20, 19, 18 (3D)."""
    assert meeting_rows(tuple(GAMES))[0] == ("a", 1, 7, 20)
    record = Jackpot(player="a", machine=TZ, awarded=(8_000_000,), agreed=5_000_000, **TD)
    assert meeting_rows(adjust(GAMES, [record]).entries) == [
        ("a", 1, 6, 20),
        ("b", 2, 4, 19),
        ("c", 3, 2, 18),
    ]


@pytest.mark.parametrize(
    ("disqualified", "expected"),
    [
        ("zero", [("a", 1, 7, 20), ("b", 2, 4, 19), ("c", 3, 2, 18)]),
        ("remove", [("a", 1, 5, 20), ("b", 2, 2, 19), ("c", None, 0, None)]),
    ],
)
def test_disqualification(disqualified: Disqualified, expected: list[tuple[object, ...]]) -> None:
    """UKPL 7A: "disqualify the player from the meet, ie zero all scores on all machines at the
    meet". "zero" (default, the text): c keeps 0 on TZ and TAF and still counts: 3 competitors per
    machine, c 1 + 1 = 2, a 3 + 1 (bonus, 12m > 2 x 5m) + 3 = 7, b 2 + 2 = 4. "remove": c's games
    are dropped, 2 competitors: a 2 + 1 + 2 = 5, b 1 + 1 = 2; c is not placed."""
    record = Penalty(player="c", level="disqualify", meet="M1", **TD)
    done = adjust(GAMES, [record], AdjustConfig(disqualified))
    assert meeting_rows(done.entries) == expected
    assert [(a.machine, a.before) for a in done.log] == [(TZ, 4_000_000), (TAF, 100)]


def test_a_penalty_zeroes_one_machine() -> None:
    """UKPL 7A: "award zero score on the machine the offence was committed on, or to zero another
    score": b's TAF score becomes 0, TZ stands. The machine must be named."""
    record = Penalty(player="b", level="zero", meet="M1", machine=TAF, **TD)
    assert scores(adjust(GAMES, [record]).entries)[4] == ("b", TAF, 0)
    with pytest.raises(EntryNotAllowed, match="must name the machine"):
        adjust(GAMES, [Penalty(player="b", level="zero", meet="M1", **TD)])


def test_bans_stop_scores_counting_at_later_meetings() -> None:
    """UKPL 7A: "a ban for the next meet", "a ban for the season". Meetings M1-M4: a ban_next
    given at M1 covers M2 only; a ban_season given at M2 covers M3 and M4, not M2 itself."""
    meets = ["M1", "M2", "M3", "M4"]
    penalties = [
        Penalty(player="a", level="ban_next", meet="M1", **TD),
        Penalty(player="b", level="ban_season", meet="M2", **TD),
    ]
    assert [banned(penalties, meets, m) for m in meets] == [
        frozenset(),
        {"a"},
        {"b"},
        {"b"},
    ]
    with pytest.raises(SettingsError, match="Meeting M9 is not one of"):
        banned(penalties, meets, "M9")


def test_a_banned_players_games_do_not_count() -> None:
    """UKPL 7A: c is banned from this meeting: c's games are dropped and a record about c (a slam
    tilt that would otherwise give c a 0) does nothing; a and b are ranked alone."""
    done = adjust(GAMES, [SlamTilt(player="c", machine=TZ, **TD)], banned_players={"c"})
    assert {e.player for e in done.entries} == {"a", "b"}
    assert done.log == ()


def test_the_next_penalty_is_at_least_one_level_up() -> None:
    """UKPL 7A: "for the next offence, the next level of penalty above will be imposed as a
    minimum": after a zero, at least disqualification; after a ban for the next meet, a ban for the
    season, which stays the top. Another player's penalties do not count."""
    history = [Penalty(player="a", level="zero", meet="M1", machine=TZ, **TD)]
    assert minimum_penalty(history, "b") is None
    assert minimum_penalty(history, "a") == "disqualify"
    history.append(Penalty(player="a", level="ban_next", meet="M2", **TD))
    assert minimum_penalty(history, "a") == "ban_season"
    history.append(Penalty(player="a", level="ban_season", meet="M4", **TD))
    assert minimum_penalty(history, "a") == "ban_season"


def test_a_replay_discards_the_first_game() -> None:
    """UKPL 6C option 2, "Discarding the current game and replaying the game from scratch" (and 6A,
    "offered the chance to replay"): a's 1,000 (seq 1) is discarded, the replay's 50,000 (seq 4)
    counts with its own seq."""
    games = [Entry(1, "a", TZ, 1_000), Entry(2, "b", TZ, 9_000), Entry(4, "a", TZ, 50_000)]
    done = adjust(games, [Replay(player="a", machine=TZ, **TD)])
    assert [(e.seq, e.player, e.score) for e in done.entries] == [(2, "b", 9_000), (4, "a", 50_000)]


def test_one_ball_of_a_new_game_is_added() -> None:
    """UKPL 6C option 1: "Completing their game and then playing one ball of a new game. The scores
    of the two games will then be added together": 40,000 + 3,000 = 43,000, at the first game's
    seq."""
    games = [Entry(1, "a", TZ, 40_000), Entry(3, "a", TZ, 3_000)]
    done = adjust(games, [OneBallAdded(player="a", machine=TZ, **TD)])
    assert [(e.seq, e.score) for e in done.entries] == [(1, 43_000)]


def test_two_games_need_a_fault_record() -> None:
    """UKPL 3B counts one game per machine; a second game is only explained by a fault (6C). A fault
    record for a player with one game is a mistake too."""
    games = [Entry(1, "a", TZ, 40_000), Entry(3, "a", TZ, 3_000)]
    with pytest.raises(MachineAlreadyPlayed, match="a has 2 games on Twilight Zone"):
        adjust(games, [])
    with pytest.raises(EntryNotAllowed, match="Replay: player a needs two games"):
        adjust(games[:1], [Replay(player="a", machine=TZ, **TD)])


def test_a_removed_machine_is_replayed_on_its_substitute() -> None:
    """UKPL 6A: "a substitute game will be provided ... and any games already played on the faulty
    machines will need to be replayed on the new game": TZ's games (and a fault record on TZ) are
    dropped; the replays on TAF count; TZ is reported removed."""
    games = [Entry(1, "a", TZ, 500), Entry(2, "b", TZ, 400), Entry(3, "a", TAF, 90)]
    records = [
        Substitute(machine=TZ, substitute=TAF, **TD),
        Replay(player="b", machine=TZ, **TD),
    ]
    done = adjust([*games, Entry(4, "b", TAF, 80)], records)
    assert scores(done.entries) == [("a", TAF, 90), ("b", TAF, 80)]
    assert done.removed == {TZ}
    with pytest.raises(
        SettingsError, match="cannot be replaced by The Addams Family: it is removed too"
    ):
        adjust(games, [*records, Substitute(machine=TAF, substitute=TZ, **TD)])


def test_a_multiplayer_game_is_entered_together() -> None:
    """UKPL 2F: "groups of between two and six players will play together": a group of four gives
    four entries in playing order from the given seq."""
    game = MultiplayerGame(machine=TZ, scores=(("a", 10), ("b", 30), ("c", 20), ("d", 0)))
    assert multiplayer_entries(game, 7) == (
        Entry(7, "a", TZ, 10),
        Entry(8, "b", TZ, 30),
        Entry(9, "c", TZ, 20),
        Entry(10, "d", TZ, 0),
    )


@pytest.mark.parametrize(
    ("group", "error", "message"),
    [
        ((("a", 1),), EntryNotAllowed, "2 to 6 players; this one on Twilight Zone has 1"),
        (tuple((p, 1) for p in "abcdefg"), EntryNotAllowed, "has 7"),
        ((("a", 1), ("b", 2), ("a", 3)), EntryNotAllowed, "Player a is entered twice"),
        ((("a", 1), ("b", -2)), InvalidScore, "cannot be negative"),
    ],
)
def test_a_multiplayer_group_is_checked(
    group: tuple[tuple[str, int], ...], error: type[Exception], message: str
) -> None:
    """UKPL 2F: between two and six different players, each with a valid score."""
    with pytest.raises(error, match=message):
        check_multiplayer(MultiplayerGame(machine=TZ, scores=group))


def test_a_fault_in_a_multiplayer_game_touches_only_that_player() -> None:
    """UKPL 6C: "If the game was part of a multiplayer game and the other players' games were
    unaffected, these players should complete their games as normal": b replays alone; a and c
    keep their scores from the group game."""
    group = multiplayer_entries(
        MultiplayerGame(machine=TZ, scores=(("a", 10), ("b", 5), ("c", 20))), 1
    )
    done = adjust([*group, Entry(4, "b", TZ, 25)], [Replay(player="b", machine=TZ, **TD)])
    assert scores(done.entries) == [("a", TZ, 10), ("c", TZ, 20), ("b", TZ, 25)]


@given(st.integers(0, 2**53 - 1))
def test_eighty_percent_is_never_above_and_within_one_of_exact(score: int) -> None:
    """UKPL 7C: 80% rounded down: at most 4/5 of the score and less than 1 below it."""
    result = extra_ball_score(score)
    assert result * 5 <= score * 4 < (result + 1) * 5


def test_settings() -> None:
    """UKPL 7A: disqualification reading defaults to the text's "zero all scores"."""
    assert AdjustConfig().disqualified == "zero"
    with pytest.raises(SettingsError, match="disqualified must be one of zero, remove"):
        AdjustConfig(**{"disqualified": "void"})


def test_docstring_examples() -> None:
    """The examples in the module's docstrings (UKPL 2E, 7C) hold."""
    assert doctest.testmod(scoring.ukpl.adjust).failed == 0
