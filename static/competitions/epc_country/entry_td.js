/* The TD's part of the team-entry page (loaded before entry.js, used once it runs):
 * advance the stage (EPC 2009, EPC Country Competition: "When all games have been played ... The
 * six teams with the highest ranking points will go on to the finals"), record a penalty
 * (Timekeeping: more than 5 minutes late; Slam Tilts) and void a wrong record. Each goes through
 * the same confirm-and-submit flow as a score.
 */
(function () {
  "use strict";
  const B = window.Backglass;

  function panel() {
    const E = B.countryEntry;
    const el = E.el;
    const v = E.views();
    const stage = (v.tournament || {}).stage || "qualifying";
    const open = E.fixtures(E.currentStage()).filter(([, f]) => f.status === "to_play" || f.status === "playing");
    const parts = [];
    if (stage === "qualifying") {
      parts.push(E.pick("Start the final", open.length ? open.length + " group matches still to play" : "every group match has a result", () => E.openForm(advance("final")), { action: "final" }));
    } else if (stage === "final") {
      parts.push(E.pick("Complete the final", open.length ? open.length + " final matches still to play" : "every final match has a result", () => E.openForm(advance("complete")), { action: "complete" }));
    }
    if (stage === "qualifying") {
      const draw = v.tournament.draw || {};
      parts.push(E.pick("Register teams", draw.registered + " of " + draw.needed + " seeded teams; reserves", () => E.openForm(registration()), { action: "teams" }));
      parts.push(E.pick("Add machines", Object.keys(v.machines || {}).length + " machines; mark the two 4-ball ones", () => E.openForm(machinesForm()), { action: "machines" }));
      if (Object.values(v.teams || {}).some((t) => t.reserve && !t.group)) {
        parts.push(E.pick("Replace a team by a reserve", "a team that cannot play", () => E.openForm(replacement()), { action: "replace" }));
      }
    }
    if (stage !== "complete") parts.push(E.pick("Record a penalty", "late for a match, or a slam tilt", () => E.openForm(penalty()), { action: "penalty" }));
    parts.push(E.pick("Void a record", "a wrong game, 4-ball game, penalty or play-off", () => E.openForm(voiding()), { action: "void" }));
    return [el("p", { class: "hint" }, "Stage: " + stage + "."), el("div", { class: "picks" }, parts)];
  }

  function advance(to) {
    const E = B.countryEntry;
    const el = E.el;
    const rows = (E.views()["country/groups"] || {}).rows || {};
    const field = Object.entries(rows)
      .filter(([, r]) => r.qualified)
      .sort(([, a], [, b]) => a.place - b.place);
    return {
      title: to === "final" ? "Start the final" : "Complete the final",
      build(body) {
        body.append(el("p", { class: "hint" }, to === "final" ? "Qualifying closes: no more group matches, 4-ball games or qualifying play-offs." : "The final's result is declared."));
      },
      read() {
        const lines = to === "final" ? field.map(([id, r]) => [r.place + ". " + E.teamName(id), B.fmt.points(r.total)]) : [];
        return { path: "stage", body: { stage: to }, summary: { title: to === "final" ? "Start the final" : "Complete the final", sections: lines.length ? [{ heading: "Finalists", lines: lines }] : [] } };
      },
    };
  }

  function penalty() {
    const E = B.countryEntry;
    const el = E.el;
    const v = E.views();
    const open = E.fixtures(E.currentStage()).filter(([, f]) => f.status !== "forfeit");
    const fixtureOptions = [["", "Choose the match"], ...open.map(([id, f]) => [id, E.teamName(f.home) + " v " + E.teamName(f.away)])];
    if (E.currentStage() === "qualifying") fixtureOptions.push(["four-ball", "The 4-ball game (slam tilt)"]);
    const teams = Object.entries(v.teams || {}).filter(([, t]) => t.group && !t.withdrawn);
    return {
      title: "Penalty",
      build(body) {
        body.append(el("label", { class: "field" }, "Penalty", E.select("type", [["late", "Late: more than 5 minutes after the call"], ["slam_tilt", "Slam tilt from shaking or nudging"]], "late")));
        body.append(el("label", { class: "field" }, "Match", E.select("fixture", fixtureOptions, "")));
        body.append(el("label", { class: "field" }, "Team penalised", E.select("team", [["", "Choose the team"], ...teams.map(([id, t]) => [id, t.name])], "")));
        body.append(el("label", { class: "field" }, "Minutes late", el("input", { name: "minutes", inputmode: "numeric", autocomplete: "off" })));
        body.append(el("label", { class: "field" }, "Reason", el("input", { name: "reason", autocomplete: "off", maxlength: "200" })));
      },
      read() {
        const form = document.getElementById("form").elements;
        const type = form.type.value;
        const fixture = form.fixture.value;
        if (!fixture) return "Choose the match.";
        if (!form.team.value) return "Choose the team.";
        if (!form.reason.value.trim()) return "Say why, in a few words.";
        const body = { type: type, team: form.team.value, reason: form.reason.value.trim() };
        if (fixture !== "four-ball") body.fixture = fixture;
        if (type === "late") {
          if (!/^\d+$/.test(form.minutes.value.trim())) return "Type how many minutes late the team was.";
          body.minutes = Number(form.minutes.value.trim());
        }
        const what = type === "late" ? body.minutes + " minutes late" : "Slam tilt";
        const where = fixture === "four-ball" ? "4-ball game" : form.fixture.selectedOptions[0].textContent;
        return { path: "penalties", body: body, summary: { title: "Penalty: " + E.teamName(body.team), sections: [{ heading: where, lines: [[what, ""], [body.reason, ""]] }] } };
      },
    };
  }

  /* Records that can be voided, newest first, read from the views (each carries its seq). */
  function voidable() {
    const E = B.countryEntry;
    const v = E.views();
    const out = [];
    for (const f of Object.values(v["country/fixtures"] || {})) {
      const match = E.teamName(f.home) + " v " + E.teamName(f.away);
      for (const g of Object.values(f.games || {})) out.push([g.seq, match + " · " + E.machineName(g.machine)]);
      for (const [seq, p] of Object.entries(f.penalties || {})) out.push([Number(seq), match + " · " + p.type.replace("_", " ") + " " + E.teamName(p.team)]);
    }
    for (const [team, r] of Object.entries((v["country/four_ball"] || {}).rows || {})) {
      if (r.seq) out.push([r.seq, "4-ball · " + E.teamName(team) + " " + B.fmt.score(r.score)]);
      if (r.slam_tilt) out.push([r.slam_tilt, "4-ball slam tilt · " + E.teamName(team)]);
    }
    for (const [seq, p] of Object.entries((v["country/playoffs"] || {}).played || {})) {
      out.push([Number(seq), "Play-off · " + Object.keys(p.scores).map(E.teamName).join(" v ")]);
    }
    return out.sort((a, b) => b[0] - a[0]);
  }

  function voiding() {
    const E = B.countryEntry;
    const el = E.el;
    const list = voidable();
    return {
      title: "Void a record",
      build(body) {
        const options = [["", list.length ? "Choose the record" : "Nothing to void"], ...list.map(([seq, label]) => [String(seq), "#" + seq + " " + label])];
        body.append(el("label", { class: "field" }, "Record", E.select("seq", options, "")));
        body.append(el("label", { class: "field" }, "Reason", el("input", { name: "reason", autocomplete: "off", maxlength: "200" })));
      },
      read() {
        const form = document.getElementById("form").elements;
        if (!form.seq.value) return "Choose the record to void.";
        if (!form.reason.value.trim()) return "Say why, in a few words.";
        const label = form.seq.selectedOptions[0].textContent;
        // a standing record's version is its seq: a void another TD made meanwhile is refused (412)
        return { path: "void", ifMatch: '"' + form.seq.value + '"', body: { seq: Number(form.seq.value), reason: form.reason.value.trim() }, summary: { title: "Void", sections: [{ heading: label, lines: [[form.reason.value.trim(), ""]] }] } };
      },
    };
  }

  /* "seed; id; name; player; player; player; player" a line (no seed: a reserve team). */
  function registration() {
    const E = B.countryEntry;
    const el = E.el;
    return {
      title: "Register teams",
      build(body) {
        body.append(el("p", { class: "hint" }, "One team a line: seed; id; name; its players. Leave the seed empty for a reserve team. Example: 1; BE1; Belgium 1; Ann; Bob; Cas; Dirk"));
        body.append(el("label", { class: "field" }, "Teams", el("textarea", { name: "teams", rows: "8", autocomplete: "off", spellcheck: "false" })));
      },
      read() {
        const teams = [];
        const lines = document.getElementById("form").elements.teams.value.split("\n");
        for (const [n, line] of lines.entries()) {
          if (!line.trim()) continue;
          const [seed, id, name, ...players] = line.split(/[;\t]/).map((part) => part.trim());
          if (!id || !name || (seed && !/^\d+$/.test(seed))) return "Line " + (n + 1) + " is not seed; id; name; players.";
          const team = { id: id, name: name, players: players.filter(Boolean) };
          if (seed) team.seed = Number(seed);
          teams.push(team);
        }
        if (!teams.length) return "Type at least one team.";
        const rows = teams.map((t) => [(t.seed ? t.seed + ". " : "reserve · ") + t.name + " (" + t.id + ")", String(t.players.length)]);
        return { path: "teams", body: { teams: teams }, summary: { title: teams.length + " teams", sections: [{ heading: "Team · players", lines: rows }] } };
      },
    };
  }

  /* "id; name" a line, "; 4-ball" after a 4-ball machine. */
  function machinesForm() {
    const E = B.countryEntry;
    const el = E.el;
    return {
      title: "Add machines",
      build(body) {
        body.append(el("p", { class: "hint" }, "One machine a line: id; name — add \"; 4-ball\" to one of the two 4-ball machines. Example: tz; Twilight Zone; 4-ball"));
        body.append(el("label", { class: "field" }, "Machines", el("textarea", { name: "machines", rows: "8", autocomplete: "off", spellcheck: "false" })));
      },
      read() {
        const machines = [];
        for (const [n, line] of document.getElementById("form").elements.machines.value.split("\n").entries()) {
          if (!line.trim()) continue;
          const [id, name, flag] = line.split(/[;\t]/).map((part) => part.trim());
          if (!id || !name) return "Line " + (n + 1) + " is not id; name.";
          machines.push({ id: id, name: name, four_ball: /^4/.test(flag || "") });
        }
        if (!machines.length) return "Type at least one machine.";
        const lines = machines.map((m) => [m.name + " (" + m.id + ")", m.four_ball ? "4-ball" : "3-ball"]);
        return { path: "machines", body: { machines: machines }, summary: { title: machines.length + " machines", sections: [{ heading: "Machine", lines: lines }] } };
      },
    };
  }

  function replacement() {
    const E = B.countryEntry;
    const el = E.el;
    const teams = Object.entries(E.views().teams || {});
    const drawn = teams.filter(([, t]) => t.group && !t.withdrawn).map(([id, t]) => [id, t.name]);
    const reserves = teams.filter(([, t]) => t.reserve && !t.group).map(([id, t]) => [id, t.name]);
    return {
      title: "Replace a team",
      build(body) {
        body.append(el("label", { class: "field" }, "Team that cannot play", E.select("withdrawn", [["", "Choose the team"], ...drawn], "")));
        body.append(el("label", { class: "field" }, "Reserve team", E.select("reserve", reserves, reserves[0][0])));
        body.append(el("label", { class: "field" }, "Reason", el("input", { name: "reason", autocomplete: "off", maxlength: "200" })));
      },
      read() {
        const form = document.getElementById("form").elements;
        if (!form.withdrawn.value) return "Choose the team that cannot play.";
        const body = { withdrawn: form.withdrawn.value, reserve: form.reserve.value, reason: form.reason.value.trim() };
        const line = [E.teamName(body.reserve) + " replaces " + E.teamName(body.withdrawn), ""];
        return { path: "replacements", body: body, summary: { title: "Reserve team", sections: [{ heading: body.reason || "Registration", lines: [line] }] } };
      },
    };
  }

  B.countryTD = panel;
})();
