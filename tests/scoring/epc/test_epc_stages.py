"""EPC 2009 stages after qualifying, worked by hand from the rule text (epc-2009-rules.txt, "EPC
Qualifying" last paragraphs, "EPC Quarter-Finals", "EPC Semi-Finals", "EPC Finals").

Qualifying here is 40 players numbered by their qualifying place: player "7" qualified 7th (one
machine, linear scale, player i scored 10000 - i). Quarter-final machines are M1..M8.
"""

from __future__ import annotations

import doctest
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scoring.epc.finals
import scoring.epc.quarterfinal
import scoring.epc.stages
from scoring import EPC_QUALIFYING, Entry, MachineAlreadyPlayed, SettingsError, UnknownPlayer
from scoring.epc.errors import IncompleteResult, NotAllocated, UnresolvedTie
from scoring.epc.finals import Game, final_placings, finals_games, play_game, semifinal_games
from scoring.epc.quarterfinal import QuarterFinal, quarterfinal, quarterfinal_draw, seeded_pairs
from scoring.epc.stages import (
    EpcStagesConfig,
    Lineup,
    Registrations,
    Seeding,
    parse_stage_settings,
    seeding,
    stage_settings_dict,
    substitute,
)
from scoring.model import StandingRow, Standings
from tests.scoring.scoring_builders import build

MACHINES = tuple(f"M{i}" for i in range(1, 9))
GROUP_A = [str(i) for i in range(1, 17)]
GROUP_B = [str(i) for i in range(17, 33)]
DEFAULT = EpcStagesConfig()


def forty() -> Seeding:
    """Seeding of the 40-player qualifying (EPC 2009, EPC Qualifying)."""
    rows = [("Q", str(i), 10_000 - i) for i in range(1, 41)]
    return seeding(build(EPC_QUALIFYING, rows, {"scale": "linear"}).standings, DEFAULT)


def lineup(first: list[str], second: list[str], config: EpcStagesConfig = DEFAULT) -> Lineup:
    return substitute(forty(), Registrations.of(first, second), config)


def but(players: list[str], *absent: str) -> list[str]:
    return [p for p in players if p not in absent]


def played_by(line: Lineup) -> dict[int, str | None]:
    """Seed -> who plays it, for the places not played by their own qualifier."""
    return {s.seed: s.player for s in line.slots if s.player != s.qualifier}


def test_seeding_32_qualify_6_standby_rest_by_place() -> None:
    """EPC 2009, EPC Qualifying: "The 32 highest ranked players then progress"; "Players ranked
    33 - 38 ... stand-by"; others "placed 39th-150th depending on their ranking points"."""
    s = forty()
    assert s.qualifiers == tuple(str(i) for i in range(1, 33))
    assert s.standby == ("33", "34", "35", "36", "37", "38")
    assert s.rest == (("39", 39), ("40", 40))
    assert (s.position("17"), s.position("35"), s.position("40")) == (17, 35, 40)


def tied(places: dict[str, int]) -> Standings:
    rows = [
        StandingRow(p, place, Fraction(0), 6)
        for p, place in sorted(places.items(), key=lambda x: x[1])
    ]
    return Standings(rows=tuple(rows))


def test_a_tie_across_the_cut_needs_the_td_playoff() -> None:
    """EPC 2009, EPC Qualifying with docs/rules.md (ties at the cut): players 32 and 33 share
    32nd. The quarter-finals have exactly 32 places, so their order must come from a play-off:
    without it UnresolvedTie; with "33" winning, "33" is seed 32 and "32" the first stand-by."""
    places = {str(i): i for i in range(1, 41)} | {"33": 32}
    with pytest.raises(
        UnresolvedTie, match="Players 32 and 33 are tied for qualifying places 32-33"
    ):
        seeding(tied(places), DEFAULT)
    s = seeding(tied(places), DEFAULT, playoff=["33", "32"])
    assert (s.qualifiers[-1], s.standby[0]) == ("33", "32")


def test_a_tie_across_the_standby_line_places_the_loser_39th() -> None:
    """EPC 2009, EPC Qualifying: "38" and "39" share 38th, "40" is 40th. The play-off puts "39"
    on stand-by; "38" is the first player after the 38 seeded places: 39th (not 38th, which the
    stand-by holds). "40" keeps 40th."""
    places = {str(i): i for i in range(1, 41)} | {"39": 38}
    s = seeding(tied(places), DEFAULT, playoff=["39", "38"])
    assert s.standby[-1] == "39"
    assert s.rest == (("38", 39), ("40", 40))


def test_standby_fills_the_highest_ranked_vacancy_round_by_round() -> None:
    """EPC 2009, EPC Quarter-Finals: "the stand-by player ranked 33rd will fill the highest ranked
    vacant position, the 34th ranked player the next and so on". Round 1 (group B, 11am): 20 and
    25 missing; stand-bys 33, 34, 35 at the desk: 33 -> seed 20, 34 -> seed 25. Round 2 (group A,
    1pm): 3 missing; stand-bys 35, 36 at the desk: 35 (best unused) -> seed 3."""
    line = lineup([*but(GROUP_B, "20", "25"), "33", "34", "35"], [*but(GROUP_A, "3"), "35", "36"])
    assert played_by(line) == {3: "35", 20: "33", 25: "34"}
    assert len(line.slots) == 32 and len(line.players) == 32
    assert line.replacement_of("3") == "35" and line.replacement_of("4") is None


@pytest.mark.parametrize(
    ("vacancies", "expected"),
    [("by-round", {3: "35", 20: "33", 25: "34"}), ("together", {3: "33", 20: "34", 25: "35"})],
)
def test_vacancies_in_both_rounds(vacancies: str, expected: dict[int, str]) -> None:
    """EPC 2009, EPC Quarter-Finals with docs/rules.md (vacancies in both rounds): 20 and 25
    miss round 1, 3 misses round 2; 33, 34, 35 are at the desk for both. By round: group B's
    vacancies first (20 -> 33, 25 -> 34), then group A's (3 -> 35). Together: one list by seed,
    3, 20, 25 -> 33, 34, 35."""
    standby = ["33", "34", "35"]
    config = EpcStagesConfig(vacancies=vacancies)  # type: ignore[arg-type]
    line = lineup(but(GROUP_B, "20", "25") + standby, but(GROUP_A, "3") + standby, config)
    assert played_by(line) == expected


@pytest.mark.parametrize(
    ("absent_standby", "expected"),
    [("skip", {20: "34", 25: "35"}), ("leave-vacant", {20: None, 25: "34"})],
)
def test_an_absent_standby(absent_standby: str, expected: dict[int, str | None]) -> None:
    """EPC 2009, EPC Quarter-Finals with docs/rules.md (an absent stand-by): 20 and 25 miss
    round 1; stand-by 33 is not at the desk, 34 and 35 are. Skip: 34 and 35 fill 20 and 25. Leave
    vacant: seed 20 was 33's to fill and stays empty; seed 25 goes to 34."""
    config = EpcStagesConfig(absent_standby=absent_standby)  # type: ignore[arg-type]
    line = lineup([*but(GROUP_B, "20", "25"), "34", "35"], GROUP_A, config)
    assert played_by(line) == expected


def test_default_pairs_fold_each_group() -> None:
    """EPC 2009, EPC Quarter-Finals ("a pre-selected partner"), default ``pairing="fold"``: 1-16,
    2-15 ... 8-9 in group A (seed total 17 each) and 17-32 ... 24-25 in group B (49 each)."""
    pairs = seeded_pairs(DEFAULT)
    assert pairs[:2] == ((17, 32), (18, 31)) and pairs[7:9] == ((24, 25), (1, 16))
    assert {a + b for a, b in pairs[:8]} == {49} and {a + b for a, b in pairs[8:]} == {17}


def test_draw_rotates_three_machines_and_a_standby_takes_the_place() -> None:
    """EPC 2009, EPC Quarter-Finals: "on three allocated machines"; group A plays "on the same
    machines in the same way". Pair k of a group plays machines k+1, k+2, k+3 (wrapping): pair
    17-32 on M1, M2, M3; pair 24-25 on M8, M1, M2. In each of the three sessions the 8 pairs of a
    round are on 8 different machines. Stand-by 33 plays seed 20's place: with 29 on M4-M6."""
    draw = quarterfinal_draw(lineup([*but(GROUP_B, "20"), "33"], GROUP_A), MACHINES, DEFAULT)
    first = draw.pairs[0]
    assert (first.group, first.players, first.machines) == ("B", ("17", "32"), ("M1", "M2", "M3"))
    assert draw.pairs[7].machines == ("M8", "M1", "M2") and draw.pairs[8].players == ("1", "16")
    for round_pairs in (draw.pairs[:8], draw.pairs[8:]):
        for session in range(3):
            assert len({p.machines[session] for p in round_pairs}) == 8
    assert draw.pair_of("33") == draw.pairs[3]
    assert draw.pairs[3].players == ("33", "29") and draw.pairs[3].machines == ("M4", "M5", "M6")


@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        ([(1, 2)] * 16, "each seed 1-32 exactly once"),
        ([(1, 17), (16, 32)] + [(i, i + 16) for i in range(2, 16)], "different quarter-final"),
    ],
)
def test_td_pairs_are_checked(pairs: list[tuple[int, int]], message: str) -> None:
    """EPC 2009, EPC Quarter-Finals: partners play together in their group's round, so a pair
    holds two seeds of one group and every seed plays once."""
    with pytest.raises(SettingsError, match=message):
        quarterfinal_draw(lineup(GROUP_B, GROUP_A), MACHINES, DEFAULT, pairs)


def test_td_pairs_replace_the_default() -> None:
    """EPC 2009, EPC Quarter-Finals: the TD pre-selects partners; adjacent seeds here."""
    pairs = [(i, i + 1) for i in range(1, 33, 2)]
    draw = quarterfinal_draw(lineup(GROUP_B, GROUP_A), MACHINES, DEFAULT, pairs)
    assert draw.pairs[0].seeds == (17, 18) and draw.pairs[8].seeds == (1, 2)


# M1 holds pairs 17-32, 23-26, 24-25 (round 1) and 1-16, 7-10, 8-9 (round 2): 12 players.
M1_GAMES = {
    "9": (50, 900), "24": (800, 100), "1": (700, 700), "17": (650, 0), "16": (500, 400),
    "7": (400, 399), "26": (1, 400), "10": (300, 300), "25": (300, 2), "8": (200, 100),
    "32": (150, 150), "23": (100, 0),
}  # fmt: skip


def qf(
    config: EpcStagesConfig = DEFAULT,
    line: Lineup | None = None,
    playoff: tuple[str, ...] = (),
) -> QuarterFinal:
    """The quarter-final where only M1 has been played (player -> their two games there)."""
    draw = quarterfinal_draw(line or lineup(GROUP_B, GROUP_A), MACHINES, config)
    games = [Entry(0, p, "M1", g) for p, pair in M1_GAMES.items() for g in pair]
    games = [Entry(i, e.player, e.machine, e.score) for i, e in enumerate(games, start=1)]
    return quarterfinal(draw, games, config, playoff)


def test_quarterfinal_ranks_both_rounds_together_on_a_machine() -> None:
    """EPC 2009, EPC Quarter-Finals: "Scores are recorded ... after the first game and updated if
    either player's second game scored higher"; "all players' scores will be ranked against other
    players on the same machine and ranking points awarded" (PAPA: 100, 90, 85, 84, ...).
    Best games on M1: 9 900 (his second game), 24 800 (round 1 above round 2 players), 1 700,
    17 650, 16 500, 7 and 26 400 (share 6th: 82 each), 10 and 25 300 (share 8th: 80 each), 8 200
    (10th: 78), 32 150 (77), 23 100 (76)."""
    result = qf()
    m1 = [(r.player, r.score, r.place, r.points) for r in result.tables[0].rows]
    assert m1 == [
        ("9", 900, 1, 100), ("24", 800, 2, 90), ("1", 700, 3, 85), ("17", 650, 4, 84),
        ("16", 500, 5, 83), ("7", 400, 6, 82), ("26", 400, 6, 82), ("10", 300, 8, 80),
        ("25", 300, 8, 80), ("8", 200, 10, 78), ("32", 150, 11, 77), ("23", 100, 12, 76),
    ]  # fmt: skip
    assert not result.complete


def test_top_8_go_through_ties_by_qualifying_and_9_to_32_share() -> None:
    """EPC 2009, EPC Quarter-Finals: "The top ranked 8 players will move on to the semi-finals.
    The remaining players will be ranked 9th to 32nd according to their ranking points". Totals
    are the M1 points. 7 and 26 tie on 82: qualified 7th beats 26th, so 7 is 6th, 26 7th. 10 and
    25 tie on 80 across the cut: 10 is 8th and goes through, 25 is 9th. 8, 32, 23 are 10-12th;
    the 20 players without a score share 13th on 0 (``place_ties="share"``)."""
    result = qf()
    assert result.semifinalists == ("9", "24", "1", "17", "16", "7", "26", "10")
    assert [(r.player, r.place) for r in result.rows[8:12]] == [
        ("25", 9), ("8", 10), ("32", 11), ("23", 12),
    ]  # fmt: skip
    assert {r.place for r in result.rows[12:]} == {13} and len(result.rows) == 32


def test_places_9_to_32_by_qualifying_position() -> None:
    """EPC 2009, EPC Quarter-Finals with ``place_ties="qualifying"``: the 20 players on 0 points
    are 13th-32nd in qualifying order: 2 is 13th, 3 is 14th ... 31 is 32nd."""
    rows = qf(EpcStagesConfig(place_ties="qualifying")).rows[12:]
    assert [r.place for r in rows] == list(range(13, 33))
    assert (rows[0].player, rows[1].player, rows[-1].player) == ("2", "3", "31")


def test_playoff_ties_wait_for_the_td() -> None:
    """EPC 2009, EPC Quarter-Finals with ``cut_ties="playoff"``: 7 and 26 (6th-7th) and 10 and 25
    (8th-9th) need a play-off. Until then they share 6th and 8th, 10 and 25 are marked "playoff"
    and the semi-finals cannot be drawn. Play-off 26 over 7 and 25 over 10: 26 6th, 7 7th, 25 8th,
    10 9th."""
    config = EpcStagesConfig(cut_ties="playoff")
    waiting = qf(config)
    assert waiting.unresolved == (("7", "26"), ("10", "25"))
    assert [(r.player, r.place, r.band) for r in waiting.rows[5:9]] == [
        ("7", 6, "semifinal"), ("26", 6, "semifinal"), ("10", 8, "playoff"), ("25", 8, "playoff"),
    ]  # fmt: skip
    with pytest.raises(UnresolvedTie, match="7, 26; 10, 25"):
        semifinal_games(waiting)
    settled = qf(config, playoff=("26", "7", "25", "10"))
    assert settled.semifinalists[5:] == ("26", "7", "25")
    assert (settled.rows[8].player, settled.rows[8].place) == ("10", 9)


def test_quarterfinal_games_are_checked() -> None:
    """EPC 2009, EPC Quarter-Finals: "two two-player games ... on three allocated machines"."""
    draw = quarterfinal_draw(lineup(GROUP_B, GROUP_A), MACHINES, DEFAULT)
    two = [Entry(1, "9", "M1", 5), Entry(2, "9", "M1", 6)]
    with pytest.raises(MachineAlreadyPlayed, match="both quarter-final games on M1"):
        quarterfinal(draw, [*two, Entry(3, "9", "M1", 7)], DEFAULT)
    with pytest.raises(NotAllocated, match="machines M8, M1, M2, not on M3"):
        quarterfinal(draw, [Entry(1, "9", "M3", 5)], DEFAULT)
    with pytest.raises(UnknownPlayer, match="Player 33 is not playing"):
        quarterfinal(draw, [Entry(1, "33", "M1", 5)], DEFAULT)


def test_semifinal_groups_and_choice_of_position() -> None:
    """EPC 2009, EPC Semi-Finals: group A = quarter-final places 1, 3, 5, 7 (9, 1, 16, 26), group
    B = 2, 4, 6, 8 (24, 17, 7, 10); each listed in the order they choose a player position."""
    a, b = semifinal_games(qf())
    assert (a.players, b.players) == (("9", "1", "16", "26"), ("24", "17", "7", "10"))


def the_finals(
    result: QuarterFinal,
) -> tuple[scoring.epc.finals.GameResult, scoring.epc.finals.GameResult]:
    """Semi A: 1 30, 16 20, 9 10, 26 5 -> 1 and 16 to the final. Semi B: 10 9, 17 8, 24 7, 7 1 ->
    10 and 17. Play-off (QF order 9, 24, 7, 26): 24 4, 7 3, 26 2, 9 1. Final (QF order 1, 17, 16,
    10): 17 40, 16 30, 10 20, 1 10."""
    a, b = semifinal_games(result)
    semi_a = play_game(a, {"1": 30, "16": 20, "9": 10, "26": 5}, "playoff")
    semi_b = play_game(b, {"10": 9, "17": 8, "24": 7, "7": 1}, "playoff")
    fifth, final = finals_games(result, semi_a, semi_b)
    assert (fifth.players, final.players) == (("9", "24", "7", "26"), ("1", "17", "16", "10"))
    return (
        play_game(fifth, {"24": 4, "7": 3, "26": 2, "9": 1}, "playoff"),
        play_game(final, {"17": 40, "16": 30, "10": 20, "1": 10}, "playoff"),
    )


def test_final_placings_with_two_standbys() -> None:
    """EPC 2009, EPC Finals, Quarter-Finals and Qualifying. 20 misses round 1 (33 plays), 3 misses
    round 2 (34 plays; 33 is already playing). Grand final: 17, 16, 10, 1 are 1st-4th; play-off:
    24, 7, 26, 9 are 5th-8th; 25, 8, 32, 23 9th-12th; the 20 on 0 points 13th-32nd in qualifying
    order (2, 4, 5, 6, 11 ... 31, then stand-bys 33 and 34). Swap: 20 takes 33's rank, 33rd, and 3
    takes 34th; 35-38 did not play and keep theirs; 39 and 40 keep theirs. Places 1-40 once each."""
    line = lineup([*but(GROUP_B, "20"), "33"], [*but(GROUP_A, "3"), "34", "35"])
    config = EpcStagesConfig(place_ties="qualifying")
    result = qf(config, line)
    fifth, final = the_finals(result)
    table = [(p.player, p.place, p.stage) for p in final_placings(result, config, fifth, final)]
    assert table[:9] == [
        ("17", 1, "grand final"), ("16", 2, "grand final"), ("10", 3, "grand final"),
        ("1", 4, "grand final"), ("24", 5, "5th-8th play-off"), ("7", 6, "5th-8th play-off"),
        ("26", 7, "5th-8th play-off"), ("9", 8, "5th-8th play-off"), ("25", 9, "quarter-final"),
    ]  # fmt: skip
    assert table[12] == ("2", 13, "quarter-final") and table[30:32] == [
        ("33", 31, "quarter-final"), ("34", 32, "quarter-final"),
    ]  # fmt: skip
    assert table[32:] == [
        ("20", 33, "replaced"), ("3", 34, "replaced"), ("35", 35, "standby"), ("36", 36, "standby"),
        ("37", 37, "standby"), ("38", 38, "standby"), ("39", 39, "qualifying"),
        ("40", 40, "qualifying"),
    ]  # fmt: skip
    same = EpcStagesConfig(place_ties="qualifying", replaced_rank="same")
    literal = {p.player: p.place for p in final_placings(qf(same, line), same, fifth, final)}
    assert (literal["20"], literal["3"]) == (31, 32)


def test_an_unreplaced_absentee_takes_the_last_quarterfinal_place() -> None:
    """EPC 2009, EPC Quarter-Finals and Qualifying: 3 misses round 2 and no stand-by is at the
    desk then, so 31 play. They take 1st-31st; 3 is placed 32nd, the place left in 1-32; the six
    stand-bys keep 33rd-38th ("Any stand-by players who do not fill a vacant position")."""
    config = EpcStagesConfig(place_ties="qualifying")
    result = qf(config, lineup(GROUP_B, but(GROUP_A, "3")))
    places = {p.player: (p.place, p.stage) for p in final_placings(result, config)}
    assert places["3"] == (32, "absent") and places["33"] == (33, "standby")
    assert places["9"] == (None, "semi-final") and places["31"] == (31, "quarter-final")


@pytest.mark.parametrize(
    ("ties", "playoff", "through"),
    [("seed", (), ("1", "9")), ("playoff", ("16", "9"), ("1", "16"))],
)
def test_equal_scores_across_the_semifinal_cut(
    ties: str, playoff: tuple[str, ...], through: tuple[str, str]
) -> None:
    """EPC 2009, EPC Semi-Finals with docs/rules.md (equal game scores): 16 and 9 both score 20,
    sharing 2nd-3rd across the cut. Seed: 9 (QF 1st) beats 16 (QF 5th). Play-off: the TD's
    tie-break game, won here by 16. With no play-off entered: UnresolvedTie."""
    semi = Game("semi-final A", ("9", "1", "16", "26"), cuts=(2,))
    scores = {"1": 30, "16": 20, "9": 20, "26": 5}
    assert play_game(semi, scores, ties, playoff).order[:2] == through  # type: ignore[arg-type]
    with pytest.raises(UnresolvedTie, match="tied on 20 in the semi-final A"):
        play_game(semi, scores, "playoff")


def test_equal_scores_no_cut_separates_share_the_place() -> None:
    """EPC 2009, EPC Semi-Finals: 1 and 9 tie for 1st; both go to the final either way, so no
    play-off is needed and they share 1st."""
    semi = Game("semi-final A", ("9", "1", "16", "26"), cuts=(2,))
    result = play_game(semi, {"1": 30, "9": 30, "16": 20, "26": 5}, "playoff")
    assert (result.order, result.places) == (("9", "1", "16", "26"), (1, 1, 3, 4))


def test_a_game_needs_every_players_score() -> None:
    """EPC 2009, EPC Finals: "a single four-player ... game"; one score per player."""
    final = Game("grand final", ("1", "17", "16", "10"), cuts=(1, 2, 3))
    with pytest.raises(IncompleteResult, match="missing 10; not in this game: 99"):
        play_game(final, {"1": 1, "17": 2, "16": 3, "99": 4}, "seed")


def test_settings_round_trip_and_bad_values() -> None:
    """EPC 2009, EPC Quarter-Finals: every choice is a setting, typed in the CLI as text."""
    config = parse_stage_settings({"vacancies": "together", "quarterfinalists": "16"})
    assert parse_stage_settings(stage_settings_dict(config)) == config
    assert stage_settings_dict(DEFAULT)["replaced_rank"] == "swap"
    with pytest.raises(SettingsError, match="multiple of 4"):
        EpcStagesConfig(quarterfinalists=10)
    with pytest.raises(SettingsError, match="game_ties must be one of playoff, seed"):
        parse_stage_settings({"game_ties": "coin"})


registrations = st.tuples(
    st.sets(st.sampled_from([str(i) for i in range(17, 39)])),
    st.sets(st.sampled_from([*GROUP_A, *(str(i) for i in range(33, 39))])),
)


@settings(max_examples=100, deadline=None)
@given(
    registrations,
    st.sampled_from(["by-round", "together"]),
    st.sampled_from(["skip", "leave-vacant"]),
)
def test_substitution_keeps_32_places(
    regs: tuple[set[str], set[str]], vacancies: str, absent: str
) -> None:
    """EPC 2009, EPC Quarter-Finals: substitution never changes the number of places; nobody
    plays twice; everyone who plays was at the desk for their round; a stand-by fills one place;
    skipping leaves a vacancy only when no unused stand-by was at the desk for it."""
    config = EpcStagesConfig(vacancies=vacancies, absent_standby=absent)  # type: ignore[arg-type]
    line = lineup(sorted(regs[0]), sorted(regs[1]), config)
    assert len(line.slots) == 32 and len(set(line.players)) == len(line.players)
    for slot in line.slots:
        assert slot.player is None or slot.player in (regs[1] if slot.group == "A" else regs[0])
    if absent == "skip":
        used = set(line.players)
        for slot in line.slots:
            here = regs[1] if slot.group == "A" else regs[0]
            assert slot.player or not {s for s in forty().standby if s in here} - used


@settings(max_examples=60, deadline=None)
@given(registrations, st.lists(st.integers(0, 3), min_size=200, max_size=200), st.data())
def test_final_placings_are_a_permutation(
    regs: tuple[set[str], set[str]], scores: list[int], data: st.DataObject
) -> None:
    """EPC 2009, EPC Finals with Quarter-Finals and Qualifying: with ``replaced_rank="swap"`` and
    every tie settled, the 40 entrants hold places 1..40 once each, whoever was absent."""
    config = EpcStagesConfig(place_ties="qualifying", game_ties="seed")
    regs[0].update(data.draw(st.sets(st.sampled_from(GROUP_B), min_size=12)))
    draw = quarterfinal_draw(lineup(sorted(regs[0]), sorted(regs[1]), config), MACHINES, config)
    plays = [(p, m) for pair in draw.pairs for p in pair.players if p for m in pair.machines]
    games = [Entry(i, p, m, scores[i % 200]) for i, (p, m) in enumerate(plays * 2)]
    result = quarterfinal(draw, games, config)
    a, b = semifinal_games(result)
    semis = [play_game(g, {p: scores[i] for i, p in enumerate(g.players)}, "seed") for g in (a, b)]
    fifth, final = finals_games(result, *semis)
    last = [
        play_game(g, {p: scores[-i] for i, p in enumerate(g.players)}, "seed")
        for g in (fifth, final)
    ]
    assert sorted(p.place or 0 for p in final_placings(result, config, *last)) == list(range(1, 41))


@pytest.mark.parametrize("module", [scoring.epc.stages, scoring.epc.quarterfinal])
def test_docstring_examples(module: object) -> None:
    """The examples in the docstrings run (EPC 2009, EPC Quarter-Finals)."""
    assert doctest.testmod(module).failed == 0  # type: ignore[arg-type]
