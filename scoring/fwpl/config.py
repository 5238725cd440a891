"""Settings of an FWPL league and its playoffs: every choice the rule text leaves open is a field.

Rule text: FWPL rules (the Flip Well Pinball League rules); the open questions are listed in
docs/rules.md ("Flip Well Pinball League"). Each field's docstring gives the
reading Backglass takes by default, the alternatives and why.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, get_args

from scoring.errors import SettingsError
from scoring.settings import Choice, choice, described, whole_number

MatchBonus = Literal["bonus", "fifth_game"]
MatchBonusGte = Literal["four", "all"]
MatchBonusSize = Literal["eligible", "scheduled"]
MatchTies = Literal["countback", "seed"]
LoneScore = Literal["winner", "winner_bonus", "none"]
AbsenceBasis = Literal["night_total", "night_games", "per_game"]
AbsenceRounding = Literal["exact", "half_up", "down"]
AbsenceNoAverage = Literal["keep_credit", "use_credit"]
AbsenceAverage = Literal["played_nights", "with_credits"]
JoinerMissedNights = Literal["not_absences", "absences"]
ForfeitedSeason = Literal["unranked", "ranked", "removed"]
GroupTable = Literal["table", "one_three"]
LadderTies = Literal["previous", "initial", "name"]
DeadMachine = Literal["replay_all", "keep_finished"]
PlayoffCut = Literal["table", "formula"]
SmallLeague = Literal["final_of_4", "none"]
LargeLeague = Literal["extend", "error"]
PlayoffTies = Literal["extra_game", "countback"]
LowerPlaces = Literal["shared", "by_points"]


def _choose(config: object, name: str, options: tuple[str, ...]) -> None:
    object.__setattr__(config, name, choice(name, getattr(config, name), options))


@dataclass(frozen=True, slots=True)
class FwplConfig:
    """Settings of FWPL league nights and the season (FWPL 2.4-2.5, 3.1-3.3, 4.1-4.3). Raises
    SettingsError for a value that is not one of the listed choices or out of range.

    ``games_per_match``: games in a match, FWPL 4 ("A match consists of four games"); default 4.

    ``match_bonus``: FWPL 3.3, what the "fifth" game of match totals awards. ``"bonus"`` (default):
    only its bonus points (one in a two- or three-player fifth game, two in a four-player one).
    The section is called "Match Bonus Points" and, where it spells the allocation out, it names
    exactly "the first match bonus point" and "the second match bonus point"; the fifth game
    ranks the players to decide who gets them. Full points would add 7/5/3/1 on top of the four
    games that already paid for the same placings. ``"fifth_game"``: the fifth game's full game
    points (7/5/3/1 and its bonus points), the literal "treating these totals as machine scores".

    ``match_bonus_gte``: FWPL 3.3, which fifth games use "equals or exceeds" instead of 3.2's
    "exceeds". ``"four"`` (default): four-player ones only, as written ("there is a difference in
    four player groups"); ``"all"``: every fifth game.

    ``match_bonus_size``: FWPL 3.3 with 2.4, which size makes a fifth game "four-player" when a
    player is excluded by forfeits. ``"eligible"`` (default): the number of players left in the
    calculation, as 2.4 assigns game points "based on the number of eligible ... scores"; a fifth
    game of three is scored as a three-player game. ``"scheduled"``: the group's size.

    ``match_ties``: FWPL 3.3, equal match totals. Both settings first apply the text ("the player
    with the most first place finishes will receive the higher position"). ``"countback"``
    (default) then compares second places, then third places, as the same principle extended;
    ``"seed"`` goes straight to the next step. Still tied: the order the LO recorded on the match
    (``Match.decided``), else the better seed (FWPL 5.2 also falls back on seeding).

    ``lone_score``: FWPL 2.4, a game left with one eligible score (3.2 has no one-player scale).
    ``"winner"`` (default): 7, the winner's points: they beat every forfeiting player, and with no
    other score there is nothing for a bonus point to be compared with. ``"winner_bonus"``: 8.
    ``"none"``: 0, no game took place.

    ``absence_basis``: FWPL 2.4, the "average scores up to that date" a whole-night forfeit earns
    50% of. ``"night_total"`` (default): the mean of the player's league points (game points and
    match bonus points, both count in the standings per 3.3) over the nights they played; the
    credit is "their score for the session", a night's score. ``"night_games"``: the same without
    match bonus points. ``"per_game"``: mean game points per game played, times
    ``games_per_match``. Nights that were themselves credited: ``absence_average``.

    ``absence_rounding``: FWPL 2.4, the credit kept exact (``"exact"``, default; the text gives
    no rounding and points are Fractions throughout), ``"half_up"`` or ``"down"`` to whole points.

    ``absence_credits``: FWPL 2.4, nights per season that earn the credit ("Any subsequent
    forfeits will receive no points"): 1 (default) reads "subsequent" as later in the season;
    a large number gives every absence the credit; 0 disables it.

    ``absence_no_average``: FWPL 2.4, an absence before the player has any night to average. The
    credit is 0 either way (there is no average "up to that date"); ``"keep_credit"`` (default)
    keeps the once-only credit for a later absence, since nothing was received;
    ``"use_credit"`` spends it.

    ``absence_average``: FWPL 2.4, whether the "average scores up to that date" of a later
    absence counts a night that was itself credited (it matters only with ``absence_credits``
    above 1). ``"played_nights"`` (default): nights played only; a credit is not a score the
    player made. ``"with_credits"``: a credited night counts as a night of its credit's points
    ("their score for the session"), so a second credit is half of an average that includes the
    first.

    ``joiner_missed_nights``: FWPL 2.4, whether a late joiner's nights before joining are
    absences that earn or spend the credit. ``"not_absences"`` (default): they were not in the
    league yet, so only their forfeits accumulate (countable unless the LO says otherwise,
    ``LeaguePlayer.missed_countable``); ``"absences"``: treated as whole-night forfeits.

    ``season_forfeit_limit``: FWPL 2.5, countable forfeits that forfeit the season; default 12.

    ``forfeited_season``: FWPL 2.5, a forfeited season's place in the table. ``"unranked"``
    (default): listed with the points earned, without a place, off the ladder and out of the
    playoffs; the points were earned in games others played and the text only stops them playing
    on. ``"ranked"``: keeps a place (still off the ladder and out of the playoffs). ``"removed"``:
    left out of the table. (An 8.5 third offence always wipes the scores: "The player's scores are
    wiped".)

    ``group_table``: FWPL 4.1, ``"table"`` (default) follows the table, whose rows for multiples of
    four are all fours, extended above 32 "the same way" (as many groups of four as possible, the
    rest threes at the bottom); ``"one_three"`` honours "at least one three-player group" by
    using four threes where the count allows it (12 players and more).

    ``ladder_ties``: FWPL 4.3, equal season points in the ladder. ``"previous"`` (default): the
    order of the previous week's ladder stands, so ties go back to the IFPA seeding of week 1;
    ``"initial"``: the week-1 order directly; ``"name"``: alphabetical.

    ``dead_machine``: FWPL 7.3, a machine on which "play cannot be continued" mid-game.
    ``"replay_all"`` (default): as written, "the entire game is replayed immediately on a machine
    designated by the LO"; the scores already entered are kept, voided, beside the replay. The
    text keeps them for one case only ("if the machine is brought back into service and affected
    players replay"), which is a correction the LO enters. ``"keep_finished"``: the IFPA/PAPA
    reading of a failure in a multi-player game: players whose game was over (their score is
    entered) keep it and their place is settled by it; only the rest replay, on the machine the
    LO names, and the game is scored over the kept and the replayed scores together.
    """

    games_per_match: int = 4
    match_bonus: MatchBonus = "bonus"
    match_bonus_gte: MatchBonusGte = "four"
    match_bonus_size: MatchBonusSize = "eligible"
    match_ties: MatchTies = "countback"
    lone_score: LoneScore = "winner"
    absence_basis: AbsenceBasis = "night_total"
    absence_rounding: AbsenceRounding = "exact"
    absence_credits: int = 1
    absence_no_average: AbsenceNoAverage = "keep_credit"
    absence_average: AbsenceAverage = "played_nights"
    joiner_missed_nights: JoinerMissedNights = "not_absences"
    season_forfeit_limit: int = 12
    forfeited_season: ForfeitedSeason = "unranked"
    group_table: GroupTable = "table"
    ladder_ties: LadderTies = "previous"
    dead_machine: DeadMachine = "replay_all"

    def __post_init__(self) -> None:
        games = whole_number("games_per_match", self.games_per_match, 1, 20)
        object.__setattr__(self, "games_per_match", games)
        credits = whole_number("absence_credits", self.absence_credits, 0, 1000)
        object.__setattr__(self, "absence_credits", credits)
        limit = whole_number("season_forfeit_limit", self.season_forfeit_limit, 1, 10_000)
        object.__setattr__(self, "season_forfeit_limit", limit)
        for name, options in (
            ("match_bonus", MatchBonus),
            ("match_bonus_gte", MatchBonusGte),
            ("match_bonus_size", MatchBonusSize),
            ("match_ties", MatchTies),
            ("lone_score", LoneScore),
            ("absence_basis", AbsenceBasis),
            ("absence_rounding", AbsenceRounding),
            ("absence_no_average", AbsenceNoAverage),
            ("absence_average", AbsenceAverage),
            ("joiner_missed_nights", JoinerMissedNights),
            ("forfeited_season", ForfeitedSeason),
            ("group_table", GroupTable),
            ("ladder_ties", LadderTies),
            ("dead_machine", DeadMachine),
        ):
            _choose(self, name, get_args(options))


@dataclass(frozen=True, slots=True)
class PlayoffConfig:
    """Settings of the FWPL playoffs (FWPL 6.1-6.6). Raises SettingsError when invalid.

    ``cut``: FWPL 6.1, how many qualify. ``"table"`` (default): the division table (top 8 up to 16
    players, 12 for 17-24, A 8 + B 8 for 25-32, A 8 + B 12 for 33-40, A 12 + B 12 for 41-48). It
    is the concrete rule and the only one that keeps 6.2's "No less than 50% of the players will
    qualify" (the formula gives 8 of 20). ``"formula"``: "the top half of the players rounded down
    to the nearest multiple of four", split into divisions of 8 and 12 as the table does.

    ``cut_at_16``: FWPL 6.1, 16 players fall in both "16 or fewer" (8) and "between 16 and 24"
    (12). Default 8: "16 or fewer" says so outright, and the other rows run 25-32, 33-40, 41-48,
    so the 12 row is 17-24. 12 is the other reading.

    ``small_league``: fewer than 8 players, where the table's "top 8" cannot be met.
    ``"final_of_4"`` (default): the top 4 play a final (at least 50% qualify for 6 or 7 players,
    FWPL 6.2); ``"none"``: no playoffs.

    ``large_league``: more than 48 players. ``"extend"`` (default): the table's pattern goes on, 4
    more qualifiers for every 8 more players, in divisions of 8 and 12 (eights first);
    ``"error"``: SettingsError, so the LO sets the divisions by hand.

    ``ties``: FWPL 6.5, "the head-to-head game between the tied players". ``"extra_game"``
    (default): a tie-breaker game between just the tied players, on a random machine; the
    singular "the head-to-head game" and "Machine selection for tiebreaker games will be random"
    describe one game played for the purpose. ``"countback"``: first the tied players' results
    against each other in the match's three games, then the extra game if still tied.

    ``lower_places``: places below the final four (never defined). ``"shared"`` (default): the
    players knocked out in one round share the best place they cover (5th for semi-final losers
    of an 8-player division); ``"by_points"``: ordered by their points in the match they lost,
    equal points sharing.
    """

    cut: PlayoffCut = "table"
    cut_at_16: int = 8
    small_league: SmallLeague = "final_of_4"
    large_league: LargeLeague = "extend"
    ties: PlayoffTies = "extra_game"
    lower_places: LowerPlaces = "shared"

    def __post_init__(self) -> None:
        at_16 = whole_number("cut_at_16", self.cut_at_16, 8, 12)
        if at_16 not in (8, 12):
            raise SettingsError(f"Setting cut_at_16 must be 8 or 12, not {self.cut_at_16!r}.")
        object.__setattr__(self, "cut_at_16", at_16)
        for name, options in (
            ("cut", PlayoffCut),
            ("small_league", SmallLeague),
            ("large_league", LargeLeague),
            ("ties", PlayoffTies),
            ("lower_places", LowerPlaces),
        ):
            _choose(self, name, get_args(options))


CHOICES: Mapping[str, tuple[Choice, ...]] = MappingProxyType(
    {
        "match_bonus": described(
            MatchBonus,
            {
                "bonus": "the fifth game awards the match bonus points only",
                "fifth_game": "the fifth game awards full game points and its bonus",
            },
        ),
        "match_bonus_gte": described(
            MatchBonusGte,
            {
                "four": "'equals or exceeds' in four-player fifth games only",
                "all": "'equals or exceeds' in every fifth game",
            },
        ),
        "match_bonus_size": described(
            MatchBonusSize,
            {
                "eligible": "a fifth game's size is the players left after forfeits",
                "scheduled": "a fifth game's size is the group's size",
            },
        ),
        "match_ties": described(
            MatchTies,
            {
                "countback": "equal match totals: most 1sts, then 2nds, then 3rds",
                "seed": "equal match totals: most 1sts, then the better seed",
            },
        ),
        "lone_score": described(
            LoneScore,
            {
                "winner": "the only score in a game gets 7 points",
                "winner_bonus": "the only score in a game gets 8 points",
                "none": "the only score in a game gets 0 points",
            },
        ),
        "absence_basis": described(
            AbsenceBasis,
            {
                "night_total": "credit from the player's mean night total",
                "night_games": "credit from the mean night total without match bonus",
                "per_game": "credit from mean points per game times games a match",
            },
        ),
        "absence_rounding": described(
            AbsenceRounding,
            {
                "exact": "the absence credit is kept exact (fractions)",
                "half_up": "the absence credit is rounded to whole points, half up",
                "down": "the absence credit is rounded down to whole points",
            },
        ),
        "absence_no_average": described(
            AbsenceNoAverage,
            {
                "keep_credit": "an absence before any night played keeps the credit for later",
                "use_credit": "an absence before any night played uses up the credit",
            },
        ),
        "absence_average": described(
            AbsenceAverage,
            {
                "played_nights": "the average counts nights played only",
                "with_credits": "the average counts credited nights too",
            },
        ),
        "joiner_missed_nights": described(
            JoinerMissedNights,
            {
                "not_absences": "nights before a player joined are not absences",
                "absences": "nights before a player joined count as absences",
            },
        ),
        "forfeited_season": described(
            ForfeitedSeason,
            {
                "unranked": "a forfeited season is listed without a place",
                "ranked": "a forfeited season keeps its place (out of the playoffs)",
                "removed": "a forfeited season is left out of the table",
            },
        ),
        "group_table": described(
            GroupTable,
            {
                "table": "groups as the rules' table gives them (fours first)",
                "one_three": "at least one three-player group where the count allows",
            },
        ),
        "ladder_ties": described(
            LadderTies,
            {
                "previous": "equal points keep last week's ladder order",
                "initial": "equal points keep the week-1 order",
                "name": "equal points in alphabetical order",
            },
        ),
        "dead_machine": described(
            DeadMachine,
            {
                "replay_all": "a machine that dies mid-game: the whole game is replayed",
                "keep_finished": "a machine that dies mid-game: finished players keep their scores",
            },
        ),
    }
)
"""The settings of ``FwplConfig`` that take one of a fixed set, with each value's meaning (FWPL
2.4-2.5, 3.3, 4.1, 4.3, 7.3; the class docstring gives the readings)."""

PLAYOFF_CHOICES: Mapping[str, tuple[Choice, ...]] = MappingProxyType(
    {
        "cut": described(
            PlayoffCut,
            {
                "table": "playoff places from the rules' division table",
                "formula": "playoff places: top half rounded down to a multiple of 4",
            },
        ),
        "small_league": described(
            SmallLeague,
            {
                "final_of_4": "under 8 players: the top 4 play a final",
                "none": "under 8 players: no playoffs",
            },
        ),
        "large_league": described(
            LargeLeague,
            {
                "extend": "over 48 players: the table goes on, 4 more per 8 players",
                "error": "over 48 players: refused, the league officer sets divisions",
            },
        ),
        "ties": described(
            PlayoffTies,
            {
                "extra_game": "a playoff tie: an extra game between the tied players",
                "countback": "a playoff tie: their games against each other, then an extra game",
            },
        ),
        "lower_places": described(
            LowerPlaces,
            {
                "shared": "players out in one round share the best place they cover",
                "by_points": "players out in one round ordered by their points",
            },
        ),
    }
)
"""The settings of ``PlayoffConfig`` that take one of a fixed set, with each value's meaning (FWPL
6.1, 6.5; the class docstring gives the readings)."""
