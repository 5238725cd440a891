/* FWPL playoff bracket (display plugin "fwpl_bracket"): one page per division, its rounds left
 * to right (quarter-finals, semi-finals, final; FWPL 6.3), each match with seeds, PAPA points
 * (4-2-1-0 per game) and who goes through; the final places once decided. Reads "bracket".
 *
 * The bracket's lines are an SVG drawn over the columns once they are laid out: a line from each
 * match to each match of the next round that one of its players went through to (FWPL 6.3: the
 * top two of a match go on), and, while the next round is not drawn yet, a stub into the gap
 * towards it; the final's line runs to the places.
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
      const lines = document.createElementNS(SVG, "svg");
      lines.setAttribute("class", "fwpl-lines");
      lines.setAttribute("aria-hidden", "true");
      // drawn once the columns have their boxes (the display inserts what render returns)
      requestAnimationFrame(() => drawLines(lines, rounds));
      return [...columns, placesNode(ctx, views, division), lines];
    },
  };

  const SVG = "http://www.w3.org/2000/svg";

  function line(svg, points) {
    const path = document.createElementNS(SVG, "polyline");
    path.setAttribute("points", points.map(([x, y]) => x.toFixed(1) + "," + y.toFixed(1)).join(" "));
    path.setAttribute("class", "fwpl-line");
    svg.append(path);
  }

  /* Elbow lines from each match's right edge to the next round's matches its players reached. */
  function drawLines(svg, rounds) {
    const box = svg.parentElement;
    if (!box || !box.isConnected) return;
    const origin = box.getBoundingClientRect();
    svg.setAttribute("viewBox", "0 0 " + origin.width + " " + origin.height);
    const rect = (node) => {
      const r = node.getBoundingClientRect();
      return { left: r.left - origin.left, right: r.right - origin.left, mid: r.top - origin.top + r.height / 2 };
    };
    const matchesOf = (round) => [...box.querySelectorAll('.fwpl-round[data-round="' + round + '"] .fwpl-match')];
    const playersOf = (match) => new Set([...match.querySelectorAll(".fwpl-mrow")].map((row) => row.dataset.player));
    rounds.forEach((round, index) => {
      const next = rounds[index + 1];
      const column = box.querySelector('.fwpl-round[data-round="' + (next || "") + '"]');
      const places = next ? null : box.querySelector(".fwpl-places");
      const target = column || places;
      if (!target) return;
      const gapEnd = rect(target).left;
      const later = next ? matchesOf(next) : [];
      for (const match of matchesOf(round)) {
        const from = rect(match);
        const mid = from.right + (gapEnd - from.right) / 2;
        const through = [...match.querySelectorAll(".fwpl-mrow.through")].map((row) => row.dataset.player);
        const reached = later.filter((other) => through.some((p) => playersOf(other).has(p)));
        if (reached.length) {
          for (const other of reached) {
            const to = rect(other);
            line(svg, [[from.right, from.mid], [mid, from.mid], [mid, to.mid], [to.left, to.mid]]);
          }
        } else if (places && match.querySelector(".fwpl-mrow")) {
          line(svg, [[from.right, from.mid], [gapEnd, from.mid]]); // the final, to its places
        } else {
          line(svg, [[from.right, from.mid], [mid, from.mid]]); // the next round is still to come
        }
      }
    });
  }
})();
