/* The team-entry page's score forms (loaded before entry.js, used once it runs): a match's
 * machines (EPC 2009, EPC Country Competition: "two players from each team playing a four player,
 * three ball game" on each of two machines), a team's 4-ball game and a play-off game. Each form
 * builds its fields and reads them into {path, body, summary} for the confirm screen, or returns
 * what is missing as a message.
 */
(function () {
  "use strict";
  const B = window.Backglass;

  function matchForm(fid) {
    const { el, views, teamName, machineName, machines, select, scoreInput, value, scoreOf } = B.countryEntry;
    const f = views()["country/fixtures"][fid];
    const recorded = Object.values(f.games || {});
    const used = new Set(recorded.map((g) => g.machine));
    const played = new Set(recorded.flatMap((g) => Object.values(g.rows).map((r) => r.player)));
    const free = machines(false).filter(([id]) => !used.has(id));
    const games = [0, 1].slice(recorded.length);
    const title = teamName(f.home) + " v " + teamName(f.away);
    return {
      title: title,
      build(body) {
        for (const g of recorded) {
          body.append(el("p", { class: "done-game" }, "✓ " + machineName(g.machine) + " recorded: " + g.home_points + "–" + g.away_points));
        }
        for (const n of games) {
          const lines = [];
          for (const team of [f.home, f.away]) {
            const players = ((views().teams || {})[team] || {}).players || [];
            const left = players.filter((p) => !played.has(p));
            for (const k of [0, 1]) {
              const chosen = left[(n - recorded.length) * 2 + k] || left[k] || players[0];
              lines.push(
                el(
                  "div",
                  { class: "line" },
                  k === 0 ? el("span", { class: "line-team" }, teamName(team)) : null,
                  select("g" + n + "-" + team + "-p" + k, players.map((p) => [p, p]), chosen),
                  scoreInput("g" + n + "-" + team + "-s" + k)
                )
              );
            }
          }
          const options = [["", "Choose machine"], ...free.map(([id, m]) => [id, m.name])];
          body.append(el("fieldset", { class: "game" }, el("legend", {}, "Machine " + (n + 1)), select("g" + n + "-machine", options, ""), lines));
        }
      },
      read() {
        const out = [];
        const names = new Set();
        for (const n of games) {
          const machine = value("g" + n + "-machine");
          if (!machine) return "Choose machine " + (n + 1) + ".";
          if (out.some((g) => g.machine === machine)) return "The two games are on two different machines.";
          const scores = [];
          for (const team of [f.home, f.away]) {
            for (const k of [0, 1]) {
              const player = value("g" + n + "-" + team + "-p" + k);
              const score = scoreOf("g" + n + "-" + team + "-s" + k);
              if (score === null) return "Type every score (" + player + ", machine " + (n + 1) + ").";
              if (names.has(player)) return player + " is entered twice: two different players of each team play each machine.";
              names.add(player);
              scores.push({ team: team, player: player, score: score });
            }
          }
          out.push({ machine: machine, scores: scores });
        }
        return {
          path: "games",
          body: { fixture: fid, games: out },
          summary: {
            title: title,
            sections: out.map((g) => ({ heading: machineName(g.machine), lines: g.scores.map((s) => [s.player + " · " + teamName(s.team), B.fmt.score(s.score)]) })),
          },
          check: { fixture: fid },
        };
      },
    };
  }

  function fourBallForm(team) {
    const { el, views, teamName, machineName, machines, select, scoreInput, value, scoreOf } = B.countryEntry;
    const row = ((views()["country/four_ball"] || {}).rows || {})[team] || {};
    return {
      title: "4-ball · " + teamName(team),
      build(body) {
        const options = machines(true).map(([id, m]) => [id, m.name]);
        body.append(el("label", { class: "field" }, "Machine", select("machine", options.length ? options : [["", "No 4-ball machine"]], row.scheduled)));
        body.append(el("label", { class: "field" }, "Team score", scoreInput("score")));
      },
      read() {
        const score = scoreOf("score");
        if (!value("machine")) return "The TD has not set up a 4-ball machine.";
        if (score === null) return "Type the score.";
        return {
          path: "four-ball",
          body: { team: team, machine: value("machine"), score: score },
          summary: { title: "4-ball game", sections: [{ heading: machineName(value("machine")), lines: [[teamName(team), B.fmt.score(score)]] }] },
          check: { team: team },
        };
      },
    };
  }

  function playoffForm(p) {
    const { el, teamName, machineName, machines, select, scoreInput, value, scoreOf } = B.countryEntry;
    return {
      title: "Play-off · place " + p.place,
      build(body) {
        const options = [["", "Machine (optional)"], ...machines(true).map(([id, m]) => [id, m.name])];
        body.append(el("label", { class: "field" }, "Machine", select("machine", options, "")));
        for (const team of p.teams) body.append(el("label", { class: "field" }, teamName(team), scoreInput("po-" + team)));
      },
      read() {
        const scores = [];
        for (const team of p.teams) {
          const score = scoreOf("po-" + team);
          if (score === null) return "Type " + teamName(team) + "'s score.";
          scores.push({ team: team, score: score });
        }
        const body = { stage: p.stage, scores: scores };
        if (value("machine")) body.machine = value("machine");
        return {
          path: "playoffs",
          body: body,
          summary: { title: "Play-off for place " + p.place, sections: [{ heading: value("machine") ? machineName(value("machine")) : "Play-off game", lines: scores.map((s) => [teamName(s.team), B.fmt.score(s.score)]) }] },
        };
      },
    };
  }

  B.countryForms = { match: matchForm, fourBall: fourBallForm, playoff: playoffForm };
})();
