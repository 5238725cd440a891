/* FWPL playoff bracket (display plugin "fwpl_bracket"): one page per division, its rounds left
 * to right (quarter-finals, semi-finals, final; FWPL 6.3), each match with seeds, PAPA points
 * (4-2-1-0 per game) and who goes through; the final places once decided. Reads "bracket".
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const ROUND_TITLES = { quarterfinal: "Quarter-finals", semifinal: "Semi-finals", final: "Final" };
  const ROUNDS = { 4: ["final"], 8: ["semifinal", "final"], 12: ["quarterfinal", "semifinal", "final"] };

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
