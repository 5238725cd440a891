"""EPC 2009 semi-finals and finals, and the final placing of every entrant.

Rule text: EPC 2009 rules, "EPC Semi-Finals" and "EPC Finals", with "EPC
Qualifying" and "EPC Quarter-Finals" for the places below 8th. In short:

- semi-finals: group A is quarter-final places 1, 3, 5, 7, group B 2, 4, 6, 8; one four-player
  game each; the higher ranked player chooses their player position first; the top two of each go
  to the grand final, the other two to the play-off for 5th-8th;
- finals: the 5th-8th play-off (winner 5th ... lowest 8th), then the grand final (winner
  champion, then 2nd-4th), player positions chosen by quarter-final rank again;
- below: 9th-32nd by quarter-final points, stand-by places 33rd-38th (a replaced qualifier takes
  the place of the stand-by who replaced them, ``EpcStagesConfig.replaced_rank``), then everybody
  else by qualifying points.

A ``Game`` lists its players in the order they choose a player position; ``play_game`` orders a
game's scores, settling equal scores by ``EpcStagesConfig.game_ties`` only where the order decides
something (``Game.cuts``). The EPC Classic semi-finals and final use the same two types.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring.epc.errors import IncompleteResult
from scoring.epc.quarterfinal import QuarterFinal
from scoring.epc.stages import EpcStagesConfig, GameTies, order_ties
from scoring.ranking import rank
from scoring.tournament import check_score


@dataclass(frozen=True, slots=True)
class Game:
    """One four-player game of a stage (EPC 2009, EPC Semi-Finals, EPC Finals).

    ``players``: in the order they choose their player position (highest ranked first).
    ``cuts``: places after which the finishing order decides something (a semi-final: after 2nd;
    a final: after every place). ``machines``: where it may be played, when the rules say (EPC
    Classic); empty otherwise.
    """

    name: str
    players: tuple[str, ...]
    cuts: tuple[int, ...]
    machines: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GameResult:
    """A played ``Game`` (EPC 2009, EPC Semi-Finals, EPC Finals): ``order`` best first, with each
    player's ``places`` and ``scores`` in the same order. Equal scores that no cut separates share
    a place; elsewhere the tie was settled and places are distinct."""

    game: Game
    order: tuple[str, ...]
    places: tuple[int, ...]
    scores: tuple[int, ...]


def play_game(
    game: Game, scores: Mapping[str, int], ties: GameTies, playoff: Sequence[str] = ()
) -> GameResult:
    """A game's scores -> ``GameResult`` (EPC 2009, EPC Semi-Finals: "the top two highest scoring
    contestants from each group go on to the final"; EPC Finals: "The winner of the game will
    finish 5th ... the lowest scorer will be 8th"; "The contestant with the second highest score
    will be placed second and so on").

    ``scores``: player -> score, one for each of ``game.players``. Equal scores across a cut are
    ordered by ``ties``: ``"seed"`` the earlier in ``game.players`` (the better quarter-final
    rank), ``"playoff"`` the TD's ``playoff`` order. Raises IncompleteResult for a missing or
    extra player, InvalidScore, UnresolvedTie.
    """
    if set(scores) != set(game.players) or len(scores) != len(game.players):
        missing = [p for p in game.players if p not in scores]
        extra = [p for p in scores if p not in game.players]
        raise IncompleteResult(
            f"{game.name} needs one score for each of players {', '.join(game.players)}"
            + (f"; missing {', '.join(missing)}" if missing else "")
            + (f"; not in this game: {', '.join(extra)}" if extra else "")
            + "."
        )
    for score in scores.values():
        check_score(score)
    seat = {p: i for i, p in enumerate(game.players)}
    order: list[str] = []
    places: list[int] = []
    for group in rank(game.players, value=scores.__getitem__, order=lambda p: (seat[p],)):
        members = list(group.items)
        if len(members) > 1 and any(group.place <= c < group.last_place for c in game.cuts):
            if ties == "playoff":
                what = f"on {scores[members[0]]} in the {game.name}"
                members = list(order_ties(members, playoff, what))
            places.extend(group.place + i for i in range(len(members)))
        else:
            places.extend(group.place for _ in members)
        order.extend(members)
    return GameResult(game, tuple(order), tuple(places), tuple(scores[p] for p in order))


def _every_place(players: Sequence[str]) -> tuple[int, ...]:
    return tuple(range(1, len(players)))


def semifinal_games(quarterfinal: QuarterFinal) -> tuple[Game, Game]:
    """The two semi-final games (EPC 2009, EPC Semi-Finals: "Group A will consist of the 1st, 3rd,
    5th and 7th highest ranked contestants from quarter-finals. Group B will consist of the 2nd,
    4th, 6th and 8th"; "The highest ranked contestant will have first choice over their player
    position, followed by the second highest ranked and then the third highest ranked").
    Raises UnresolvedTie while the quarter-final top 8 awaits a play-off."""
    top = quarterfinal.semifinalists
    return (
        Game("semi-final A", top[0::2], cuts=(2,)),
        Game("semi-final B", top[1::2], cuts=(2,)),
    )


def finals_games(
    quarterfinal: QuarterFinal, semi_a: GameResult, semi_b: GameResult
) -> tuple[Game, Game]:
    """The 5th-8th play-off and the grand final, in the order played (EPC 2009, EPC Semi-Finals:
    "the top two highest scoring contestants from each group go on to the final. The lowest two
    scorers go into the play-offs for 5th - 8th places"; EPC Finals: "the highest ranked contestant
    from the quarter finals will have first choice of player position, followed by the next").
    Raises IncompleteResult if the results are not the two semi-finals of ``quarterfinal``."""
    top = quarterfinal.semifinalists
    if sorted((*semi_a.order, *semi_b.order)) != sorted(top):
        raise IncompleteResult(
            f"The semi-final results must cover the quarter-final top {len(top)}: {', '.join(top)}."
        )
    through = {*semi_a.order[:2], *semi_b.order[:2]}
    final = tuple(p for p in top if p in through)
    playoff = tuple(p for p in top if p not in through)
    return (
        Game("5th-8th play-off", playoff, cuts=_every_place(playoff)),
        Game("grand final", final, cuts=_every_place(final)),
    )


@dataclass(frozen=True, slots=True)
class Placing:
    """One entrant's final place in the EPC (EPC 2009, EPC Finals; EPC Quarter-Finals; EPC
    Qualifying). ``place``: None while the games that decide it are unplayed. ``stage``: where
    their EPC ended: ``"grand final"``, ``"5th-8th play-off"``, ``"semi-final"`` (undecided),
    ``"quarter-final"``, ``"absent"`` (qualified, did not re-register, not replaced),
    ``"replaced"``, ``"standby"`` or ``"qualifying"``."""

    player: str
    place: int | None
    stage: str


def final_placings(
    quarterfinal: QuarterFinal,
    config: EpcStagesConfig,
    fifth_to_eighth: GameResult | None = None,
    grand_final: GameResult | None = None,
) -> tuple[Placing, ...]:
    """Every entrant's final place, best first, as one table (EPC 2009, EPC Finals: "The winner of
    the Grand Final will be the EPC 2009 Champion"; 5th-8th from the play-off; EPC Quarter-Finals:
    "The remaining players will be ranked 9th to 32nd"; "Once a player has been replaced ... will
    take the final rank of the player who replaced them"; EPC Qualifying: "Any stand-by players who
    do not fill a vacant position ... receive their qualifying round ranking"; "placed
    39th-150th depending on their ranking points total").

    A qualifier absent with no stand-by to replace them is placed after everyone who played the
    quarter-finals (the places left in 1-32), by seed. With ``replaced_rank="swap"`` and no equal
    totals left unsettled, the places are 1..N, each once. Raises IncompleteResult when a game's
    players are not from the quarter-final top 8.
    """
    lineup = quarterfinal.draw.lineup
    seeding = lineup.seeding
    decided: dict[str, Placing] = {}
    for result, offset, stage in (
        (grand_final, 0, "grand final"),
        (fifth_to_eighth, 4, "5th-8th play-off"),
    ):
        if result is None:
            continue
        top = {r.player for r in quarterfinal.rows if r.band is not None}
        if not set(result.order) <= top:
            raise IncompleteResult(f"The {stage} players must come from the quarter-final top 8.")
        decided.update(
            {
                p: Placing(p, offset + pl, stage)
                for p, pl in zip(result.order, result.places, strict=True)
            }
        )
    pending = "grand final" if fifth_to_eighth and not grand_final else "semi-final"
    out: list[Placing] = []
    for row in quarterfinal.rows:
        if row.band is None:
            out.append(Placing(row.player, row.place, "quarter-final"))
        else:
            out.append(decided.get(row.player, Placing(row.player, None, pending)))
    absent = [s.qualifier for s in lineup.slots if s.player is None and s.qualifier is not None]
    out.extend(Placing(p, len(quarterfinal.rows) + 1 + i, "absent") for i, p in enumerate(absent))
    placed = {p.player: p.place for p in out}
    for i, standby in enumerate(seeding.standby):
        position = len(seeding.qualifiers) + 1 + i
        replaced = next(
            (s.qualifier for s in lineup.slots if s.replaced and s.player == standby), None
        )
        if replaced is None:
            out.append(Placing(standby, position, "standby"))
        else:
            taken = position if config.replaced_rank == "swap" else placed[standby]
            out.append(Placing(replaced, taken, "replaced"))
    out.extend(Placing(p, place, "qualifying") for p, place in seeding.rest)
    return tuple(sorted(out, key=lambda p: p.place or 0))
