"""The ``ukpl`` kind: a UK Pinball League meeting ("ukpl-meeting") with its region and season,
adjustments, machine faults and multiplayer games. It wraps the ``machines`` kind: the counting
meeting is that kind's ``HallTournament`` and its records (players, machines, the hall's queues,
machine status, corrections) go through it; this kind decides which games count
(``display.competitions.ukpl.state``).

Settings: the meeting format's (``ties``, ``bonus``, ``no_score``), the hall's (``hall``) and the
UKPL ones of ``display.competitions.ukpl.records`` (``region``, ``season``, ``meet``, ``held``,
``disqualified``, ``escalation`` and the season table's ``counted``, ``qualifiers``, ...).

| record                     | fields (all: by, at)                              | UKPL      |
|----------------------------|---------------------------------------------------|-----------|
| player_added               | player {number, name, guest, region?}             | 1C, 3C    |
| player_reclassified        | player, guest (true: a guest, false: a region     | 1C, 3B,   |
|                            | player), reason                                   | 3C        |
| score_recorded             | player, machine, score                            | 3A, 6C    |
| multiplayer_game_recorded  | machine, scores [{player, score}] (2-6 players)   | 2F        |
| jackpot_adjusted           | player, machine, awarded [values], agreed, reason | 2E        |
| extra_ball_penalty         | player, machine, last_ball, kept_playing, reason  | 7C        |
| slam_tilt                  | player, machine, reason                           | 7D        |
| penalty                    | player, level, machine?, reason                   | 7A        |
| fault_replay               | player, machine, reason                           | 6A, 6C(2) |
| fault_one_ball             | player, machine, reason                           | 6C(1)     |
| machine_status_changed     | machine, status "replaced", replacement, note     | 6A        |
| adjustment_withdrawn       | adjustment (its seq), reason                      |           |
| season_results_imported    | meet, held?, rows [{player, name?, position?,     | 3E        |
|                            | meet_total?, league_points}]                      |           |
| season_results_removed     | meet, reason                                      |           |
| season_meeting_linked      | tournament, version, a meeting's summary          | 3E, 7A    |
|                            | (``display.competitions.ukpl.season_links``), or left: true     |           |

Other records (machine_added, settings_changed, the hall's queue_*, machine_status_changed,
score_corrected, score_voided, player_withdrawn) are the machines kind's. A machine replaced
through the hall is this kind's substitution (6A: its games are replayed on the substitute).

Every game stays in the log; an adjustment changes what counts, never the record of the game. A
fault recorded first lets the player's next game on that machine in (the replay, or the one ball
of a new game); until it is played the original game counts (``scoring.ukpl.games``). Views: the
machines kind's plus ``adjustments`` and ``season`` (``display.competitions.ukpl.views``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from display.competitions.base import EVERY_VIEW
from display.competitions.docs import compact
from display.competitions.machines.kind import DEFERRABLE as HALL_DEFERRABLE
from display.competitions.machines.kind import MACHINES
from display.competitions.ukpl import records as rec
from display.competitions.ukpl import state as st
from display.competitions.ukpl.state import Outside, Registration, UkplState
from display.types import Doc, FormatSettings, Record, Touched
from scoring import FORMATS
from scoring.errors import EntryNotAllowed
from scoring.model import Entry
from scoring.ukpl.games import check_group, check_one_game
from scoring.ukpl.region import check_other_meeting, is_guest

FORMAT = "ukpl-meeting"
SEASON_RECORDS = ("season_results_imported", "season_results_removed")


class UkplKind:
    """Records of a "ukpl-meeting" -> ``UkplState`` -> views (module docstring)."""

    name = "ukpl"

    def create(self, record: Record) -> UkplState:
        """``tournament_created`` -> the meeting (the machines kind's tournament) with its UKPL
        options (``region``, ``season`` …). Raises SettingsError."""
        meeting_settings, ours = rec.split_settings(record.get("settings") or {})
        options = rec.parse_options(ours, str(record.get("at") or ""))
        meeting = MACHINES.create({**record, "settings": meeting_settings})
        settings = meeting.format.settings_dict(meeting.config)
        return UkplState(meeting=meeting, settings=settings, options=options)

    def defer(self, state: UkplState) -> UkplState:
        """``state`` whose meeting takes games without ranking them until ``settle`` (a replay of
        many records: the UKPL rules still check each game, the tables and standings are worked
        out once for them all; ``MachinesKind.defer``)."""
        return replace(state, meeting=MACHINES.defer(state.meeting))

    def settle(self, state: UkplState) -> UkplState:
        """``state`` with the meeting's tables and standings current again: what ``apply`` of
        each record one by one would have made."""
        if not state.meeting.deferred:
            return state
        return replace(state, meeting=MACHINES.settle(state.meeting))

    def apply(self, state: UkplState, seq: int, record: Record) -> tuple[UkplState, Touched]:
        """``record`` applied at ``seq`` -> (new state, views touched) (module docstring's table;
        the rest go to the machines kind). Raises the rules' ScoringError. A deferred state
        (``defer``) takes the records of ``DEFERRABLE`` as they are; any other is applied to the
        state settled and leaves it deferred again."""
        kind = record["type"]
        if state.meeting.deferred and kind not in DEFERRABLE:
            after, touched = self.apply(self.settle(state), seq, record)
            return self.defer(after), touched
        if kind == "player_added":
            return self._player(state, seq, record)
        if kind == "score_recorded":
            entry = Entry(seq, str(record["player"]), str(record["machine"]), record["score"])
            state, every = st.add_games(state, seq, [entry], record)
            return state, {EVERY_VIEW} if every else _game_views(entry.machine)
        if kind == "multiplayer_game_recorded":
            entries = [
                Entry(seq, str(s["player"]), str(record["machine"]), s["score"])
                for s in record["scores"]
            ]
            check_group(entries)
            state, every = st.add_games(state, seq, entries, record)
            state = replace(state, groups={**state.groups, seq: record})
            return state, {EVERY_VIEW} if every else _game_views(entries[0].machine, "adjustments")
        if kind == "player_reclassified":
            return st.reclassify(state, record), {EVERY_VIEW}
        if kind in rec.DECISIONS:
            return st.decide(state, seq, record), {EVERY_VIEW}
        if kind == "adjustment_withdrawn":
            return st.withdraw(state, {**record, "seq": seq}), {EVERY_VIEW}  # seq: its version
        if kind in SEASON_RECORDS:
            return self._import(state, seq, record), {EVERY_VIEW}
        if kind == "season_meeting_linked":
            return self._link(state, record), {EVERY_VIEW}
        if kind == "settings_changed":
            return self._settings(state, seq, record["settings"]), {EVERY_VIEW}
        return self._hall(state, seq, record)

    def _player(self, state: UkplState, seq: int, record: Record) -> tuple[UkplState, Touched]:
        p = record["player"]
        region = (str(p["region"]).strip() or None) if p.get("region") else None
        reg = Registration(str(p["name"]), bool(p.get("guest", False)), region)
        guest = is_guest(reg.marked, reg.region, state.options.region)
        shown = {**record, "player": {**p, "guest": guest}}
        meeting, touched = MACHINES.apply(state.meeting, seq, shown)
        registered = {**state.registered, str(p["number"]): reg}
        return replace(state, meeting=meeting, registered=registered), touched | {
            "season",
            "tournament",  # its field: "4 players + 1 guest"
        }

    def _hall(self, state: UkplState, seq: int, record: Record) -> tuple[UkplState, Touched]:
        kind = record["type"]
        if kind == "players_merged":  # its games, faults and decisions name the player
            raise EntryNotAllowed(
                "A UKPL meeting does not merge player numbers: correct each game onto the "
                "number that stays (the audit page), then withdraw the other."
            )
        target = record.get("corrects", record.get("voids"))
        # A target that is no record number is refused by the hall's rules below, not here.
        if kind in ("score_corrected", "score_voided") and isinstance(target, int):
            check_one_game(target, state.groups)
        meeting, touched = MACHINES.apply(state.meeting, seq, record)
        if kind == "machine_added":
            machine = meeting.machines[str(record["machine"]["id"])]
            return replace(
                state, meeting=meeting, machines={**state.machines, machine.id: machine}
            ), touched
        if kind in ("score_corrected", "score_voided"):
            return st.corrected(state, state.meeting, meeting, seq), {EVERY_VIEW}
        if kind == "machine_status_changed" and record.get("status") == "replaced":
            return st.substituted(replace(state, meeting=meeting), seq, record), {EVERY_VIEW}
        return replace(state, meeting=meeting), touched

    def _settings(self, state: UkplState, seq: int, changes: FormatSettings) -> UkplState:
        meeting_changes, ours = rec.split_settings(changes)
        hall = {"hall": meeting_changes.pop("hall")} if "hall" in meeting_changes else {}
        settings = {**state.settings, **meeting_changes}
        FORMATS[FORMAT].parse_settings(settings)  # refuse a bad meeting setting by its name
        meeting = MACHINES.with_settings(state.meeting, hall, seq) if hall else state.meeting
        raw = {**state.options.raw, **ours}
        options = rec.parse_options(raw, state.options.held)  # unset, the date stays the same
        return st.settle(replace(state, meeting=meeting, settings=settings, options=options))

    def _import(self, state: UkplState, seq: int, record: Record) -> UkplState:
        meet = str(record["meet"])
        check_other_meeting(meet, state.options.meet)
        imported = dict(state.imported)
        if record["type"] == "season_results_removed":
            if imported.pop(meet, None) is None:
                raise EntryNotAllowed(f"No results of meeting {meet} were imported.")
        else:
            found, names = rec.imported_meet(record)
            source = {"seq": seq, "by": record.get("by", ""), "at": record.get("at", "")}
            imported[meet] = Outside(found, names, source)
        return st.settle(replace(state, imported=imported))

    def _link(self, state: UkplState, record: Record) -> UkplState:
        tid, version = str(record["tournament"]), int(record["version"])
        known = state.linked.get(tid)
        if known is not None and known.version >= version:
            raise EntryNotAllowed(f"Meeting {tid} is already linked at version {version} or later.")
        linked = dict(state.linked)
        if record.get("left"):
            linked.pop(tid, None)
        else:
            found, names = rec.linked_meet(record)
            payload = {k: v for k, v in record.items() if k not in ("version", "by", "at", "type")}
            linked[tid] = Outside(found, names, {"tournament": tid, "version": version}, payload)
        return st.settle(replace(state, linked=linked))

    def view_names(self, state: UkplState) -> Iterable[str]:
        """The machines kind's views, ``adjustments``, and ``season`` if there is one (UKPL 3E)."""
        yield from MACHINES.view_names(state.meeting)
        yield "adjustments"
        if state.options.linked or state.imported:
            yield "season"

    def view_change(
        self, before: UkplState, after: UkplState, meta: Mapping[str, str], name: str, doc: Doc
    ) -> tuple[Doc, Doc | None] | None:
        """View ``name`` of ``after`` and its merge patch from ``doc`` (that view of ``before``)
        from the rows that changed, for the machines kind's views this kind shows as they are
        (``standings``, ``queues``, ``machine/<id>``: ``MachinesKind.view_change``); None: build
        it whole and diff it."""
        if name in ("standings", "queues") or name.startswith("machine/"):
            return MACHINES.view_change(before.meeting, after.meeting, meta, name, doc)
        return None

    def view(self, state: UkplState, meta: Mapping[str, str], name: str) -> Doc | None:
        """View ``name`` (``meta``: the tournament's id and name), or None: ``adjustments``,
        ``season``, else the machines kind's, with the UKPL settings and the field (``{"players":
        region players, "guests"}``, UKPL 1C, 3C: the meeting's header) in ``tournament`` and
        regions in ``players``."""
        from display.competitions.ukpl import views as ukpl_views

        if name == "adjustments":
            return ukpl_views.adjustments_view(state)
        if name == "season":
            has = state.options.linked or state.imported
            return ukpl_views.season_view(state, meta) if has else None
        doc = MACHINES.view(state.meeting, meta, name)
        if doc is not None and name == "tournament":
            doc["settings"] = compact({**doc["settings"], **state.options.shown()})
            players, guests = state.field()
            doc["field"] = {"players": players, "guests": guests}
        if doc is not None and name == "players":
            for number, row in doc.items():
                region = state.registered[number].region
                if region is not None:
                    row["region"] = region
        return doc


DEFERRABLE = HALL_DEFERRABLE - {"score_corrected", "score_voided"}
"""Records a deferred meeting takes without being settled first: games, players, machines and
the queues, which the UKPL rules check against the games recorded, never a table or the
standings. A correction or void re-counts the meeting (``state.corrected``), so it sees a
settled one."""


def _game_views(machine: str, *more: str) -> Touched:
    return {f"machine/{machine}", "standings", "queues", "season", *more}


KIND = UkplKind()
