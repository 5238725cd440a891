"""Corrections and voids of FWPL playoff games, and the TD's reopening of a playoff round.

Rule text: FWPL rules (Flip Well Pinball League), sections as cited. A played playoff game is put
right as a league night's game is (FWPL 3: the lines replaced, every player agreeing), or voided
(never played: the game is played again). Who goes through (FWPL 6.3: "The top two players of
each match will advance") is worked out again from the corrected games by the bracket's walk
(``scoring.fwpl.bracket.walk``) while the next round has not started. Once it has, a change that
would alter who plays in it is refused ("Division A: the final has started: reopen the
semi-finals first."); the league officer's ``reopen_round`` takes the next round's start back
while it has no game recorded (docs/rules.md, "FWPL playoff corrections").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from scoring.errors import EntryNotAllowed, UnknownMachine
from scoring.fwpl.bracket import ROUNDS, MatchAt, division, present, walk
from scoring.fwpl.entry import EntryNumber, GameEntry, game_lines, score_game
from scoring.fwpl.league import League, PlayoffGroup, Slot
from scoring.fwpl.playoff_cut import Division

ROUND_NAMES: Mapping[str, str] = MappingProxyType(
    {"quarterfinal": "quarter-finals", "semifinal": "semi-finals", "final": "final"}
)
"""FWPL 6.3's rounds in a league officer's words (read-only)."""


def _has(name: str) -> str:
    """The verb for a round's name: "the final has", "the semi-finals have"."""
    return "has" if name == "final" else "have"


def played_game(at: MatchAt, game_no: EntryNumber) -> int:
    """Game ``game_no`` of the match ``at``, which must have been played (FWPL 6.3: three
    games, in order). Raises EntryNotAllowed."""
    played = len(at.match.games)
    if isinstance(game_no, bool) or not isinstance(game_no, int) or not 1 <= game_no <= played:
        raise EntryNotAllowed(f"This match has not played game {game_no}.")
    return game_no


def _started(league: League, found: Division) -> dict[frozenset[str], str]:
    """The started matches of ``found`` the walk reaches, by their players -> their round."""
    return {frozenset(m.players): m.round for m in walk(league, found) if m.started is not None}


def check_bracket_kept(before: League, after: League, name: str) -> None:
    """Raise EntryNotAllowed if ``after`` (``before`` with a playoff game of division ``name``
    corrected or voided) no longer reaches every match ``before`` had started: a later round
    drawn from the old result has started (FWPL 6.3), and a running round changes only by the
    league officer's own record (``reopen_round``). A change that keeps who went through is
    taken."""
    found = division(before, name)
    was, now = _started(before, found), _started(after, found)
    lost = [stage for players, stage in was.items() if players not in now]
    if not lost:
        return
    rounds = ROUNDS[len(found.seeds)]
    first = min(lost, key=rounds.index)
    earlier = rounds[rounds.index(first) - 1]
    raise EntryNotAllowed(
        f"Division {name}: the {ROUND_NAMES[first]} {_has(first)} started: reopen the "
        f"{ROUND_NAMES[earlier]} first."
    )


def _with_match(league: League, at: MatchAt, match: PlayoffGroup) -> League:
    assert league.playoffs is not None
    matches = list(league.playoffs.matches)
    matches[at.index] = match
    return replace(league, playoffs=replace(league.playoffs, matches=tuple(matches)))


def correct_playoff_game(
    league: League,
    seq: int,
    at: MatchAt,
    game_no: EntryNumber,
    machine: str | None,
    entry: GameEntry,
) -> League:
    """Game ``game_no`` of the started match ``at`` (``bracket.started_match``), its lines
    replaced at entry ``seq`` (FWPL 3, as a league night's game; 6.3 scores it 4-2-1-0); the
    machine stays unless ``machine`` names another. The match's 6.5 tie-breaker orders stay: one
    counts again only if the same players are tied. Raises EntryNotAllowed (no such game played;
    a later round has started and would change, ``check_bracket_kept``), UnknownMachine, and
    what ``game_lines`` and scoring raise."""
    number = played_game(at, game_no)
    old = at.match.games[number - 1]
    chosen = str(machine or old.machine)
    if chosen not in league.machines:
        raise UnknownMachine(f"Machine {chosen} is not one of this league's machines.")
    here = present(at.match)
    lines = game_lines(entry, here, "this match (present players)")
    slot = replace(old, machine=chosen, lines=lines, playoff=entry.playoff, version=seq)
    score_game(slot, here, league.config, at.where(number))
    games = list(at.match.games)
    games[number - 1] = slot
    after = _with_match(league, at, replace(at.match, games=tuple(games)))
    check_bracket_kept(league, after, at.match.division)
    return after


def void_playoff_game(league: League, seq: int, at: MatchAt, game_no: EntryNumber) -> League:
    """Game ``game_no`` of the started match ``at`` voided at entry ``seq``: never played, so it
    is played again, on the same machine (FWPL 6.4: the pick stands). Only the match's last game may be voided: the loser of each game picked the next
    machine (6.4), so a later game rests on it. The match's 6.5 tie-breaker orders go (they
    settle a finished match). Raises EntryNotAllowed (no such game, a later game played, a later
    round started that would change)."""
    number = played_game(at, game_no)
    games = at.match.games
    if number != len(games):
        raise EntryNotAllowed(
            f"Game {len(games)} of this match was played after game {number}: void it first "
            "(FWPL 6.4: the loser of each game picks the next machine)."
        )
    old = games[-1]
    again = Slot(machine=old.machine, chosen_at=seq, picked_by=old.picked_by)
    match = replace(at.match, games=games[:-1], open=again, tiebreaks=())
    after = _with_match(league, at, match)
    check_bracket_kept(league, after, at.match.division)
    return after


def reopen_round(league: League, name: object, stage: object) -> League:
    """The league officer takes back the start of the round after ``stage`` in division ``name``
    (FWPL 6.3), so a game of ``stage`` can be corrected and the next round drawn again from it:
    its started matches go while none has a game recorded (void them first). Raises
    EntryNotAllowed (no playoffs or no such division, a round with no next one, the next round
    not started, a round after it started, games recorded in it)."""
    found = division(league, str(name))
    rounds = ROUNDS[len(found.seeds)]
    if stage not in rounds[:-1]:
        names = ", ".join(rounds[:-1]) or "none"
        raise EntryNotAllowed(
            f"Division {found.name} has no round {stage!r} to reopen; rounds before another: "
            f"{names}."
        )
    assert isinstance(stage, str)
    later = rounds[rounds.index(stage) + 1]
    walked = [m for m in walk(league, found) if m.started is not None]
    beyond = [m for m in walked if rounds.index(m.round) > rounds.index(later)]
    if beyond:
        raise EntryNotAllowed(
            f"Division {found.name}: the {ROUND_NAMES[beyond[0].round]} "
            f"{_has(beyond[0].round)} started: reopen the {ROUND_NAMES[later]} first."
        )
    starts = [m.started for m in walked if m.round == later and m.started is not None]
    if not starts:
        raise EntryNotAllowed(
            f"Division {found.name}: the {ROUND_NAMES[later]} {_has(later)} not started; the "
            f"{ROUND_NAMES[stage]} are open."
        )
    played = sum(len(m.games) for m in starts)
    if played:
        raise EntryNotAllowed(
            f"Division {found.name}: the {ROUND_NAMES[later]} {_has(later)} {played} game(s) "
            "recorded: void them first."
        )
    assert league.playoffs is not None
    dropped = {(m.division, frozenset(m.players)) for m in starts}
    kept = tuple(
        m for m in league.playoffs.matches if (m.division, frozenset(m.players)) not in dropped
    )
    return replace(league, playoffs=replace(league.playoffs, matches=kept))
