/* FWPL playoff bracket (display plugin "fwpl_bracket"): one page per division, its rounds left
 * to right (quarter-finals, semi-finals, final; FWPL 6.3), each match with seeds, PAPA points
 * (4-2-1-0 per game) and who goes through; the final places once decided. Reads "bracket".
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const ROUND_TITLES = { quarterfinal: "Quarter-finals", semifinal: "Semi-finals", final: "Final" };
  const ROUNDS = { 4: ["final"], 8: ["semifinal", "final"], 12: ["quarterfinal", "semifinal", "final"] };

  const CSS = `
.view-fwpl_bracket.columns { grid-template-columns: repeat(var(--cols, 3), minmax(0, 1fr)) 16em; }
.fwpl-round { display: flex; flex-direction: column; gap: .8em; min-width: 0; }
.fwpl-round-title { color: var(--muted); font-size: .75em; text-transform: uppercase; letter-spacing: .1em; font-weight: 800; }
.fwpl-match { background: var(--panel); border: 1px solid var(--line); border-radius: .35em; overflow: hidden; }
.fwpl-match.pending { border-style: dashed; opacity: .75; }
.fwpl-match-head { display: flex; justify-content: space-between; padding: .1em .55em; background: var(--panel-2);
  border-bottom: 2px solid var(--accent); font-size: .8em; color: var(--muted); }
.fwpl-match-head .machine { color: var(--text); font-weight: 700; }
.fwpl-mrow { display: grid; grid-template-columns: 1.6em minmax(0, 1fr) repeat(3, 1.3em) 2em; gap: .4em;
  align-items: center; height: 1.55em; padding: 0 .55em; border-left: .3em solid transparent; }
.fwpl-mrow .seed { color: var(--muted); font-size: .8em; text-align: right; }
.fwpl-mrow .g { text-align: right; color: #c9cfdb; font-size: .85em; }
.fwpl-mrow .pts { text-align: right; font-weight: 800; color: var(--accent); }
.fwpl-mrow.through { border-left-color: var(--qualify); background: rgba(52, 210, 122, .1); }
.fwpl-mrow.missing .name { color: var(--dim); text-decoration: line-through; }
.fwpl-tie { padding: .2em .55em; font-size: .7em; color: #111; background: var(--standby); font-weight: 700; }
.fwpl-places { background: var(--panel); border: 1px solid var(--line); border-radius: .35em; padding: .2em 0; align-self: start; }
.fwpl-places .fwpl-round-title { padding: .2em .55em; }
.fwpl-prow { display: grid; grid-template-columns: 1.8em minmax(0, 1fr); gap: .4em; height: 1.5em; align-items: center; padding: 0 .55em; }
.fwpl-prow .place { text-align: right; font-weight: 800; color: var(--flash); }
`;
  if (!document.getElementById("fwpl-bracket-style")) {
    document.head.append(B.el("style", { id: "fwpl-bracket-style" }, CSS));
  }

  function machineName(views, id) {
    return ((views.machines || {})[id] || {}).name || id;
  }

  function who(ctx, views, number) {
    return ctx.el(
      "span",
      { class: "who" },
      ctx.el("span", { class: "name" }, B.player(views, number).name),
      ctx.el("span", { class: "number" }, number)
    );
  }

  function matchNode(ctx, views, key, match) {
    const el = ctx.el;
    const players = Object.entries(match.players).sort(([, a], [, b]) =>
      match.started ? (a.place || 9) - (b.place || 9) || a.seed - b.seed : a.seed - b.seed
    );
    const games = match.games || {};
    let status = "not started";
    if (match.complete) status = "final";
    else if (match.started) status = match.machine ? "game " + match.game_no + ": " : "game " + match.game_no + " — pick";
    const head = el(
      "div",
      { class: "fwpl-match-head" },
      el("span", {}, "Match " + match.number),
      el("span", {}, status, match.machine && !match.complete ? el("span", { class: "machine" }, machineName(views, match.machine)) : null)
    );
    const rows = players.map(([player, row]) =>
      el(
        "div",
        {
          class: "fwpl-mrow" + (row.advances ? " through" : "") + (row.missing ? " missing" : ""),
          dataset: { player: player },
        },
        el("span", { class: "seed" }, row.seed),
        who(ctx, views, player),
        [1, 2, 3].map((n) => el("span", { class: "g" }, games[n] && games[n].rows[player] ? games[n].rows[player].points : "")),
        el("span", { class: "pts" }, match.started ? row.points || 0 : "")
      )
    );
    return el(
      "section",
      { class: "fwpl-match" + (match.started ? "" : " pending"), dataset: { match: key } },
      head,
      rows,
      match.tie ? el("div", { class: "fwpl-tie" }, "Tie-breaker needed") : null
    );
  }

  function placesNode(ctx, views, division) {
    const el = ctx.el;
    const places = Object.entries(division.places || {}).sort(([, a], [, b]) => a - b);
    return el(
      "aside",
      { class: "fwpl-places" },
      el("div", { class: "fwpl-round-title" }, "Places"),
      places.length
        ? places.map(([player, place]) =>
            el("div", { class: "fwpl-prow", dataset: { player: player } }, el("span", { class: "place" }, place), who(ctx, views, player))
          )
        : el("div", { class: "fwpl-prow" }, el("span", {}, ""), el("span", { class: "muted" }, "To be decided"))
    );
  }

  B.displayViews.fwpl_bracket = {
    title: "Playoffs",
    pages(views) {
      const doc = views.bracket;
      if (!doc) return [];
      return Object.entries(doc.divisions || {})
        .sort(([, a], [, b]) => a.order - b.order)
        .map(([name, division]) => ({
          key: name,
          division: name,
          count: (ROUNDS[Object.keys(division.seeds).length] || ["final"]).length,
        }));
    },
    render(page, views, ctx) {
      const division = ((views.bracket || {}).divisions || {})[page.division];
      if (!division) return [];
      const rounds = ROUNDS[Object.keys(division.seeds).length] || ["final"];
      const matches = Object.entries(division.matches || {});
      const columns = rounds.map((round) =>
        ctx.el(
          "div",
          { class: "fwpl-round", dataset: { round: round } },
          ctx.el("div", { class: "fwpl-round-title" }, "Division " + page.division + " · " + ROUND_TITLES[round]),
          matches
            .filter(([, m]) => m.round === round)
            .sort(([, a], [, b]) => a.number - b.number)
            .map(([key, m]) => matchNode(ctx, views, key, m))
        )
      );
      return [...columns, placesNode(ctx, views, division)];
    },
  };
})();
