"""View documents of an FWPL league season (reshaping what ``scoring.fwpl`` computed; no rule is
decided here). Documents hold no null: an absent key means "none" (``views.compact``).

| view          | document                                                                     |
|---------------|------------------------------------------------------------------------------|
| tournament    | id, name, format, title, settings, weeks, week (latest night), phase          |
| players       | {number: {name, guest: false, ifpa_rank?, joined_week? (after week 1)}}      |
| machines      | {id: {name, order}}                                                          |
| standings     | the season table in the shape every page knows: {rows: {number: {place?,     |
|               | total, played (nights)}}}                                                    |
| season        | {week, weeks, rows: {number: {place?, points, nights, forfeits, credit?,     |
|               | status, ladder?, weeks: {"1": points, …}, division?, seed?}}, cut:           |
|               | {divisions: {name: {size, order}}, final, ties?: [[numbers]]}}               |
| night/<week>  | the groups board and the night's standings (``fwpl_night_view``)            |
| bracket       | the playoff divisions and matches (``fwpl_bracket_view``), once started      |
| tiebreaks     | {"1": {players: [...], machine, reason?}}: tie-breaker machines drawn        |
"""

from __future__ import annotations

from fractions import Fraction

from display.competitions.docs import compact
from display.competitions.fwpl.state import FORMAT, TITLE, settings_of
from display.types import Doc
from scoring.cut_tie import tie_at_cut
from scoring.errors import SettingsError
from scoring.fwpl import playoff_sizes
from scoring.fwpl.bracket import cut_ties
from scoring.fwpl.league import League
from scoring.fwpl.playoff_cut import DIVISION_NAMES
from scoring.rounding import points_json


def tournament_view(meta: Doc, league: League) -> Doc:
    """``tournament``: id, name, format, title, settings (every value), weeks (season length),
    week (the latest night started, absent before week 1), phase (``registration``, ``night``,
    ``between``, ``playoffs``), games (per match)."""
    return compact(
        {
            "id": meta["id"],
            "name": meta["name"],
            "format": FORMAT,
            "title": TITLE,
            "settings": settings_of(league),
            "weeks": league.weeks,
            "week": len(league.nights) or None,
            "phase": league.phase,
            "games": league.config.games_per_match,
        }
    )


def players_view(league: League) -> Doc:
    """``players``: number -> name, guest (always false: FWPL has members only), IFPA rank, and
    the week a late joiner joined (FWPL 2.4)."""
    return {
        number: compact(
            {
                "name": p.name,
                "guest": False,
                "ifpa_rank": p.ifpa_rank,
                "joined_week": p.joined_week if p.joined_week > 1 else None,
            }
        )
        for number, p in league.players.items()
    }


def machines_view(league: League) -> Doc:
    """``machines``: id -> name and order (order added, from 1)."""
    return {
        mid: {"name": name, "order": n} for n, (mid, name) in enumerate(league.machines.items(), 1)
    }


def standings_view(league: League) -> Doc:
    """``standings``: the season table as every page reads it: place (absent when unranked),
    total (season league points, FWPL 3.3), played (nights played)."""
    rows = league.standings().rows
    return {
        "rows": {
            row.player: compact(
                {"place": row.place, "total": points_json(row.points), "played": row.nights}
            )
            for row in rows
        }
    }


def _week_points(league: League) -> dict[str, dict[str, int | float | None]]:
    """Per player, the league points each week added (game points, match bonus, an absence
    credit; FWPL 2.4, 3.3), from the season table after each week."""
    before = {row.player: row.points for row in league.standings(0).rows}
    weeks: dict[str, dict[str, int | float | None]] = {p: {} for p in league.players}
    for week in range(1, len(league.nights) + 1):
        now = {row.player: row.points for row in league.standings(week).rows}
        for player, points in now.items():
            if league.players[player].joined_week <= week:
                gained = points - before.get(player, Fraction(0))
                weeks[player][str(week)] = points_json(gained)
        before = now
    return weeks


def _cut(league: League, ranked: int) -> Doc:
    if league.playoffs is not None:
        sizes = tuple((d.name, len(d.seeds)) for d in league.playoffs.divisions)
    else:
        try:
            found = playoff_sizes(ranked, league.playoff_config)
        except SettingsError:  # a setting that refuses this league size: no line to draw
            found = ()
        sizes = tuple(zip(DIVISION_NAMES, found, strict=False))
    return {
        "divisions": {name: {"size": size, "order": n} for n, (name, size) in enumerate(sizes, 1)},
        "final": league.playoffs is not None,
    }


def _tie_notes(cut: Doc, rows: list[tuple[str, int | None]]) -> None:
    """Give each projected division line that runs through equal places its ``tie``:
    ``{"place", "places", "players", "note"}`` ("tie at the cut: play-off for 1 place"), so the
    page draws the line above the tied run instead of between two equal rows (FWPL 6.1: "Ties
    will be settled by single ball play on a random machine"; ``scoring.cut_tie``)."""
    line = 0
    for division in sorted(cut["divisions"].values(), key=lambda d: d["order"]):
        line += division["size"]
        tie = tie_at_cut(rows, line)
        if tie is not None:
            division["tie"] = {
                "place": tie.place,
                "places": tie.places,
                "players": list(tie.players),
                "note": tie.note,
            }


def season_view(league: League) -> Doc:
    """``season``: the season table (FWPL 3.3, 2.4, 2.5, 4.3): place, points (exact, published to
    2 decimals), nights played, countable forfeits, absence credit, status (``active``,
    ``forfeited``, ``wiped``), position on next week's ladder, points by week; once the playoffs
    start, each qualifier's division and seed (6.1). ``cut``: the playoff divisions (projected
    from the table's size until the playoffs start, FWPL 6.1; a division whose line runs
    through equal places has ``tie``, see ``_tie_notes``) and ``ties``, the equal-points runs a
    line runs through, whose single-ball play-off order the TD gives when starting the
    playoffs."""
    standings = league.standings()
    ladder = {p: n for n, p in enumerate(standings.next_ladder, start=1)}
    seeds: dict[str, tuple[str, int]] = {}
    if league.playoffs is not None:
        for division in league.playoffs.divisions:
            for seed, player in enumerate(division.seeds, start=1):
                seeds[player] = (division.name, seed)
    weeks = _week_points(league)
    rows = {}
    for row in standings.rows:
        seat = seeds.get(row.player)
        rows[row.player] = compact(
            {
                "place": row.place,
                "points": points_json(row.points),
                "nights": row.nights,
                "forfeits": row.forfeits,
                "credit": points_json(row.credit) if row.credit else None,
                "status": row.status,
                "ladder": ladder.get(row.player) if league.playoffs is None else None,
                "weeks": weeks[row.player],
                "division": seat[0] if seat else None,
                "seed": seat[1] if seat else None,
                "withdrawn": True
                if league.playoffs and row.player in league.playoffs.withdrawn
                else None,
            }
        )
    ranked = sum(row.place is not None for row in standings.rows)
    cut = _cut(league, ranked)
    if league.playoffs is None and league.nights:
        ties = cut_ties(league)
        if ties:
            cut["ties"] = [list(run) for run in ties]
        _tie_notes(cut, [(row.player, row.place) for row in standings.rows])
    return {"week": len(league.nights), "weeks": league.weeks, "rows": rows, "cut": cut}


def tiebreaks_view(league: League) -> Doc | None:
    """``tiebreaks``: the tie-breaker machines drawn (FWPL 6.1, 6.5), by number from 1."""
    if not league.draws:
        return None
    return {
        str(n): compact(
            {"players": list(d.players), "machine": d.machine, "reason": d.reason or None}
        )
        for n, d in enumerate(league.draws, start=1)
    }
