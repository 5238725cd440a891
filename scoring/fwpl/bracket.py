"""The playoffs' entries, each a pure function (a ``League`` and one entry in, the new ``League``
out, or the error that refuses it), and the walk over a division's bracket that the entries and
the bracket's view both use.

Rule text: FWPL rules (Flip Well Pinball League), sections as cited. In short:

- 6.1 and 6.2: the playoffs start after the last night is closed, from the final season table;
  equal points across a line are ordered by a recorded single-ball play-off on a random machine
  (``draw_tiebreak`` draws it); 6.6: players who say they cannot attend are dropped first;
- 6.3: a division's bracket is walked round by round: a round's matches, then, once all are
  complete without a tie to break, the next round's (``walk``); a match is one of the bracket
  only when the walk has reached it, and it has three games, entered in order;
- 6.4: the first machine is drawn at random, from the machines no other match is on; then the
  loser of the previous game picks, as on league nights (``entry.choose``);
- 6.5: a tie that decides who goes through (or a place in the final) is broken by a tie-breaker
  game between the tied players, recorded as its finishing order;
- 6.6: players not present at the start are disqualified from the match; two must be present.

The rules of scoring a match and a division are ``playoffs``'s and ``playoff_cut``'s; the walk
only asks them, round by round, which matches exist and who went through.

An entry for a match is found first (``division``, then ``started_match`` or ``match_to_start``;
``next_playoff_game_at`` for its next game), then applied there, so a caller can read the rest of
its entry in between and every refusal keeps its turn: the match's before the rest.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from types import MappingProxyType

from scoring.errors import EntryNotAllowed, SettingsError, UnknownPlayer
from scoring.fwpl.entry import (
    EntryNumber,
    GameEntry,
    choose,
    game_lines,
    picker,
    score_game,
    settle,
)
from scoring.fwpl.errors import PlayoffNeeded
from scoring.fwpl.flow import random_machine
from scoring.fwpl.league import Draw, League, PlayoffGroup, Playoffs, Slot
from scoring.fwpl.playoff_cut import Division, playoff_divisions
from scoring.fwpl.playoffs import (
    ADVANCE,
    PLAYOFF_GAMES,
    DivisionResult,
    PlayoffMatch,
    PlayoffMatchResult,
    division_result,
    first_groups,
    next_groups,
    playoff_match,
)

ROUNDS: Mapping[int, tuple[str, ...]] = MappingProxyType(
    {4: ("final",), 8: ("semifinal", "final"), 12: ("quarterfinal", "semifinal", "final")}
)
"""FWPL 6.3: the rounds of a division of 4, 8 or 12 players (read-only)."""


@dataclass(frozen=True)
class BracketMatch:
    """A match of the bracket as far as it is known (FWPL 6.3): ``round``, ``number`` in the
    round (1, 2), ``players`` in seed order, ``started`` (None until the TD starts it),
    ``result`` (points and places so far) and ``tie``, the message of a 6.5 tie still to break
    (then ``result`` shares the tied places and nobody is marked through), ``tied`` the players
    who play its tie-breaker."""

    round: str
    number: int
    players: tuple[str, ...]
    started: PlayoffGroup | None
    result: PlayoffMatchResult | None = None
    tie: str | None = None
    tied: tuple[str, ...] = ()


def as_match(group: PlayoffGroup) -> PlayoffMatch:
    """A started match as ``playoffs`` scores it (FWPL 6.3, 6.5, 6.6)."""
    return PlayoffMatch(
        group.players, tuple(s.game() for s in group.games), group.missing, group.tiebreaks
    )


def _score(
    group: PlayoffGroup, final: bool, league: League
) -> tuple[PlayoffMatchResult, str | None, tuple[str, ...]]:
    """The match's result, and for a 6.5 tie still to break its message and the tied players:
    the players sharing a place whose tie-breaker order settles it (``playoff_match`` decides
    which ties matter; this only asks it)."""
    match = as_match(group)
    advance = None if final else ADVANCE
    try:
        return playoff_match(match, advance, league.playoff_config), None, ()
    except PlayoffNeeded as exc:
        # The same match scored with no place at stake: the points and shared places, so the
        # board can show them while the tie-breaker game is played.
        present = len(group.players) - len(group.missing)
        shown = playoff_match(match, present, league.playoff_config)
        for tied in _shared(shown):
            trial = replace(match, tiebreaks=(*match.tiebreaks, tied))
            try:
                playoff_match(trial, advance, league.playoff_config)
            except PlayoffNeeded as still:
                if still.message == exc.message:
                    continue
            return _through(shown, tied, advance), exc.message, tied
        return _through(shown, (), advance), exc.message, ()  # pragma: no cover


def _through(
    shown: PlayoffMatchResult, tied: tuple[str, ...], advance: int | None
) -> PlayoffMatchResult:
    """``shown`` with only the players already sure to go through marked so: placed within the
    top ``advance`` without sharing a place (FWPL 6.3), outside the tie."""
    sizes: dict[int, int] = {}
    for row in shown.rows:
        sizes[row.place] = sizes.get(row.place, 0) + 1
    rows = tuple(
        replace(
            row,
            advances=advance is not None
            and row.player not in tied
            and not row.missing
            and row.place + sizes[row.place] - 1 <= advance,
        )
        for row in shown.rows
    )
    return replace(shown, rows=rows)


def _shared(result: PlayoffMatchResult) -> list[tuple[str, ...]]:
    by_place: dict[int, list[str]] = {}
    for row in result.rows:
        if not row.missing:
            by_place.setdefault(row.place, []).append(row.player)
    return [tuple(p) for _, p in sorted(by_place.items()) if len(p) > 1]


def walk(league: League, division: Division) -> list[BracketMatch]:
    """Every match of ``division`` known so far, round by round (FWPL 6.3): a round's matches,
    then, once all are complete without a tie to break, the next round's. The league must be in
    its playoffs. Raises nothing."""
    assert league.playoffs is not None
    started = {
        frozenset(m.players): m for m in league.playoffs.matches if m.division == division.name
    }
    seeds = division.seeds
    if len(seeds) not in ROUNDS:
        return []
    groups = first_groups(seeds)
    found: list[BracketMatch] = []
    for name in ROUNDS[len(seeds)]:
        advancers = []
        for number, players in enumerate(groups, start=1):
            group = started.get(frozenset(players))
            if group is None:
                found.append(BracketMatch(name, number, players, None))
                continue
            outcome, tie, tied = _score(group, name == "final", league)
            found.append(BracketMatch(name, number, players, group, outcome, tie, tied))
            if outcome.complete and tie is None:
                advancers.append([row.player for row in outcome.rows if row.advances])
        if name == "final" or len(advancers) < len(groups):
            break
        groups = next_groups(seeds, advancers, name)
    return found


def places(league: League, division: Division) -> DivisionResult:
    """``division_result`` (FWPL 6.3-6.6) of the matches played; a match with a tie still to
    break is left out, so the places decided before it still show. The league must be in its
    playoffs."""
    assert league.playoffs is not None
    played = [as_match(m) for m in league.playoffs.matches if m.division == division.name]
    while True:
        try:
            return division_result(division.seeds, played, league.playoff_config)
        except PlayoffNeeded:
            tied = [m for m in walk(league, division) if m.tie is not None]
            keep = {frozenset(m.players) for m in tied}
            played = [m for m in played if frozenset(m.group) not in keep]
            if not tied:  # pragma: no cover - a tie division_result sees, the walk sees too
                raise


def match_open(match: BracketMatch) -> bool:
    """Whether ``match`` still has games to play (FWPL 6.3: three games)."""
    return match.started is None or len(match.started.games) < PLAYOFF_GAMES


def cut_ties(league: League, withdrawn: Collection[str] = ()) -> list[tuple[str, ...]]:
    """The runs of equal season points that a playoff line runs through (FWPL 6.1: "Ties will be
    settled by single ball play"), each a tuple of players in table order: the runs whose
    play-off order ``playoff_divisions`` needs. Asks ``playoff_divisions``; decides nothing."""
    rows = league.standings().rows
    runs: dict[Fraction, list[str]] = {}
    for row in rows:
        if row.place is not None and row.player not in withdrawn:
            runs.setdefault(row.points, []).append(row.player)
    candidates = [tuple(run) for run in runs.values() if len(run) > 1]
    found: list[tuple[str, ...]] = []
    for _ in range(len(candidates) + 1):
        try:
            playoff_divisions(rows, league.playoff_config, set(withdrawn), found)
            return found
        except PlayoffNeeded as exc:
            for run in candidates:
                if run in found:
                    continue
                try:
                    playoff_divisions(rows, league.playoff_config, set(withdrawn), [*found, run])
                except PlayoffNeeded as still:
                    if still.message == exc.message:
                        continue
                found.append(run)
                break
            else:  # pragma: no cover - every tie is one of the runs
                return found
        except SettingsError:
            return found
    return found  # pragma: no cover


@dataclass(frozen=True)
class MatchAt:
    """A started playoff match as an entry names it (FWPL 6.3): its ``index`` among the
    playoffs' matches and the ``match``, as ``started_match`` found them in a league."""

    index: int
    match: PlayoffGroup

    def where(self, game_no: int) -> str:
        """Game ``game_no`` of this match in a steward's words (FWPL 6.3: three games)."""
        match = self.match
        return (
            f"game {game_no} of the division {match.division} match of {', '.join(match.players)}"
        )


@dataclass(frozen=True)
class PlayoffGameAt(MatchAt):
    """A started match's next game as an entry names it (FWPL 6.3): ``number`` is the game the
    match is on."""

    number: int


def division(league: League, name: str) -> Division:
    """The playoff division called ``name`` (FWPL 6.1: "A", "B", ...). Raises EntryNotAllowed
    (the playoffs have not started, no such division)."""
    if league.playoffs is None:
        raise EntryNotAllowed("The playoffs have not started.")
    for found in league.playoffs.divisions:
        if found.name == name:
            return found
    names = ", ".join(d.name for d in league.playoffs.divisions)
    raise EntryNotAllowed(f"There is no division {name}; the divisions are {names}.")


def started_match(league: League, found: Division, players: Collection[str]) -> MatchAt:
    """The started match of ``players`` in division ``found`` (``division``; FWPL 6.3). Raises
    EntryNotAllowed (no such match started)."""
    wanted = frozenset(players)
    assert league.playoffs is not None
    for index, match in enumerate(league.playoffs.matches):
        if match.division == found.name and frozenset(match.players) == wanted:
            return MatchAt(index, match)
    raise EntryNotAllowed(
        f"Division {found.name} has no started match of players {', '.join(sorted(wanted))}."
    )


def next_playoff_game_at(at: MatchAt, game_no: EntryNumber) -> PlayoffGameAt:
    """Game ``game_no`` of the match ``at``, which must be its next (FWPL 6.3: three games, in
    order). Raises EntryNotAllowed."""
    played = len(at.match.games)
    if played >= PLAYOFF_GAMES:
        raise EntryNotAllowed(f"This match has played all {PLAYOFF_GAMES} games (FWPL 6.3).")
    if game_no != played + 1:
        raise EntryNotAllowed(f"This match is on game {played + 1}, not game {game_no}.")
    return PlayoffGameAt(at.index, at.match, played + 1)


def _with_match(league: League, index: int, match: PlayoffGroup) -> League:
    assert league.playoffs is not None
    matches = list(league.playoffs.matches)
    matches[index] = match
    return replace(league, playoffs=replace(league.playoffs, matches=tuple(matches)))


def _others(league: League, index: int) -> list[Slot]:
    assert league.playoffs is not None
    return [m.open for i, m in enumerate(league.playoffs.matches) if i != index]


def present(match: PlayoffGroup) -> tuple[str, ...]:
    """The players of ``match`` present at its start, in seed order (FWPL 6.6)."""
    return tuple(p for p in match.players if p not in match.missing)


def _previous_picker(league: League, at: MatchAt) -> str | None:
    games = at.match.games
    if not games:
        return None
    return picker(score_game(games[-1], present(at.match), league.config, at.where(len(games))))


def check_members(league: League, players: Collection[str]) -> None:
    """Raise UnknownPlayer for the first of ``players`` who is not a member of the league
    (FWPL 2: the playoffs and their tie-breakers are the members')."""
    for player in players:
        if player not in league.players:
            raise UnknownPlayer(f"Player {player} is not a member of this league.")


def check_tiebreak(league: League, players: Sequence[str]) -> None:
    """Raise unless ``players`` may play a tie-breaker (FWPL 6.1, 6.5): two or more members.
    Raises UnknownPlayer, EntryNotAllowed."""
    check_members(league, players)
    if len(players) < 2:
        raise EntryNotAllowed("A tie-breaker is between two or more players.")


def draw_tiebreak(league: League, players: Sequence[str], seed: int, reason: str = "") -> League:
    """The random machine of a tie-breaker between ``players``, drawn with ``seed`` (FWPL 6.1
    "single ball play on a random machine", 6.5 "Machine selection for tiebreaker games will be
    random"). Raises what ``check_tiebreak`` raises, UnknownMachine (no machines)."""
    check_tiebreak(league, players)
    machine = random_machine(list(league.machines), seed)
    draw = Draw(tuple(players), machine, reason)
    return replace(league, draws=(*league.draws, draw))


def check_playoffs_may_start(league: League) -> None:
    """Raise EntryNotAllowed unless the playoffs may start now (FWPL 6.1: after the final week):
    not started already, no night open, a night played."""
    if league.playoffs is not None:
        raise EntryNotAllowed("The playoffs have already started.")
    if league.night is not None:
        raise EntryNotAllowed(f"Week {league.night.week} is still being played; close it first.")
    if not league.nights:
        raise EntryNotAllowed("No league night has been played yet.")


def start_playoffs(
    league: League,
    withdrawn: Sequence[str] = (),
    tiebreaks: Sequence[tuple[str, ...]] = (),
) -> League:
    """The playoffs start: the divisions and seeds from the final season table (FWPL 6.1, 6.2),
    without the ``withdrawn`` players, who said they cannot attend (6.6), equal points across a
    line ordered by the recorded single-ball play-offs (``tiebreaks``, winner first). Raises
    what ``check_playoffs_may_start`` and ``check_members`` raise, EntryNotAllowed (a league too
    small), SettingsError (a division that is no 6.3 bracket), PlayoffNeeded (a tie across a
    line without its order)."""
    check_playoffs_may_start(league)
    check_members(league, withdrawn)
    divisions = playoff_divisions(
        league.standings().rows, league.playoff_config, set(withdrawn), tiebreaks
    )
    if not divisions:
        raise EntryNotAllowed(
            "This league is too small for playoffs (FWPL 6.1; setting playoff_small_league)."
        )
    for found in divisions:
        if len(found.seeds) not in ROUNDS:
            raise SettingsError(
                f"Division {found.name} has {len(found.seeds)} players left; FWPL 6.3 "
                "brackets are for 4, 8 or 12."
            )
    return replace(league, playoffs=Playoffs(divisions, tuple(withdrawn), tuple(tiebreaks)))


def match_to_start(league: League, found: Division, players: Collection[str]) -> BracketMatch:
    """The match of ``players`` that division ``found``'s bracket has reached and that has not
    started (FWPL 6.3). Raises EntryNotAllowed."""
    wanted = frozenset(players)
    match = next((m for m in walk(league, found) if frozenset(m.players) == wanted), None)
    if match is None or match.started is not None:
        state = "has already started" if match else "is not a match of the bracket now"
        raise EntryNotAllowed(f"Division {found.name}: {', '.join(sorted(wanted))} {state}.")
    return match


def check_missing(match: BracketMatch, missing: Collection[str]) -> None:
    """Raise EntryNotAllowed unless ``missing`` may be left out of ``match`` (FWPL 6.6): players
    of the match, two still present."""
    if not frozenset(missing) <= frozenset(match.players):
        raise EntryNotAllowed("Only players of the match can be missing from it.")
    if len(match.players) - len(frozenset(missing)) < 2:
        raise EntryNotAllowed("A match needs two players present.")


def start_playoff_match(
    league: League,
    seq: int,
    found: Division,
    match: BracketMatch,
    seed: int,
    missing: Collection[str] = frozenset(),
) -> League:
    """The bracket's ``match`` of division ``found`` (``match_to_start``) begins at entry
    ``seq``; the ``missing`` players are disqualified from it (FWPL 6.6); its first machine is
    drawn with ``seed`` from the machines no other match is on (6.4 "The first machine will be
    randomly selected"). Raises what ``check_missing`` raises, UnknownMachine (no machines)."""
    check_missing(match, missing)
    assert league.playoffs is not None
    busy = {m.open.machine for m in league.playoffs.matches if m.open.machine}
    free = [m for m in league.machines if m not in busy] or list(league.machines)
    first = random_machine(free, seed)
    group = PlayoffGroup(found.name, match.players, frozenset(missing), open=Slot(first, seq))
    playoffs = replace(league.playoffs, matches=(*league.playoffs.matches, group))
    return replace(league, playoffs=playoffs)


def pick_playoff_machine(league: League, seq: int, at: PlayoffGameAt, machine: str) -> League:
    """``machine`` picked at entry ``seq`` for the game ``at`` (``next_playoff_game_at``): by the
    loser of the previous game (FWPL 6.4), one the match has not played; or a replacement (5.1).
    Raises what ``entry.choose`` raises."""
    match = at.match
    who = _previous_picker(league, at)
    slot = choose(league, match.open, machine, match.games,
                  _others(league, at.index), seq, who, at.where(at.number))  # fmt: skip
    return _with_match(league, at.index, replace(match, open=slot))


def record_playoff_game(
    league: League, seq: int, at: PlayoffGameAt, machine: str | None, entry: GameEntry
) -> League:
    """The game ``at`` (``next_playoff_game_at``) at entry ``seq`` (FWPL 6.3: 4-2-1-0 per game),
    every present player named; equal scores need the one-ball play-off order (3.2); ``machine``
    None: the one assigned or picked. Raises NotInGroup, MachineNotAllowed, UnknownMachine,
    InvalidScore, PlayoffNeeded."""
    match, where = at.match, at.where(at.number)
    slot = settle(league, replace(match.open, lines=()), machine, match.games,
                  _others(league, at.index), seq, _previous_picker(league, at), where)  # fmt: skip
    here = present(match)
    lines = game_lines(entry, here, "this match (present players)")
    slot = replace(slot, lines=lines, playoff=entry.playoff, version=seq)
    score_game(slot, here, league.config, where)
    return _with_match(league, at.index, replace(match, games=(*match.games, slot), open=Slot()))


def tie_to_break(league: League, at: MatchAt) -> str:
    """The FWPL 6.5 tie of the match ``at`` still to break, as the rules word it (a
    ``PlayoffNeeded`` message). Raises EntryNotAllowed when it has none."""
    found = division(league, at.match.division)
    match = next(m for m in walk(league, found) if m.started == at.match)
    if match.tie is None:
        raise EntryNotAllowed("This match has no tie to break.")
    return match.tie


def record_playoff_tiebreak(league: League, at: MatchAt, order: Sequence[str]) -> League:
    """The finishing ``order`` (winner first) of a tie-breaker game between players tied in the
    finished match ``at`` (``started_match``; FWPL 6.5). Raises what ``tie_to_break`` raises,
    EntryNotAllowed (an order not of two or more of its players), PlayoffNeeded (the order
    leaves the tie unbroken)."""
    tie = tie_to_break(league, at)
    match = at.match
    if not set(order) <= set(present(match)) or len(order) < 2:
        raise EntryNotAllowed("A tie-breaker order names two or more players of the match.")
    updated = replace(match, tiebreaks=(*match.tiebreaks, tuple(order)))
    after = _with_match(league, at.index, updated)
    found = division(league, match.division)
    again = next(m for m in walk(after, found) if m.started == updated)
    if again.tie == tie:
        raise PlayoffNeeded(tie)
    return after


# ---- once the playoffs have started: the season table they were drawn from stays ----


def check_season_kept(before: League, after: League) -> None:
    """Raise EntryNotAllowed if ``after`` (``before`` with a correction or penalty of a league
    night) has another season table once the playoffs have started: the divisions and seeds were
    drawn from it (FWPL 6.1, 6.2: "the final season table"), and a running bracket changes only
    by the league officer's own record (``reopen_season``; docs/rules.md)."""
    if before.playoffs is None:
        return
    if after.standings().rows != before.standings().rows:
        raise EntryNotAllowed("The playoffs have started: reopen the regular season first.")


def reopen_season(league: League) -> League:
    """The league officer takes the playoffs' start back, so the season's results can be
    corrected and the divisions drawn again from the corrected table (FWPL 6.1, 6.2; docs/rules.md).
    Raises EntryNotAllowed before the playoffs start, or once a playoff match has started."""
    playoffs = league.playoffs
    if playoffs is None:
        raise EntryNotAllowed("The playoffs have not started; the regular season is open.")
    if playoffs.matches:
        raise EntryNotAllowed(
            f"{len(playoffs.matches)} playoff match(es) have started: the regular season "
            "cannot be reopened."
        )
    return replace(league, playoffs=None)
