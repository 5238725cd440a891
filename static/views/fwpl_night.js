/* FWPL night standings (display plugin "fwpl_night"): each group's points per game, match bonus
 * and total tonight (FWPL 3.2, 3.3). Reads views "tournament" and "night/<week>". Six groups per
 * page; within a group, by place once the match is complete, else by points tonight.
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const PER_PAGE = 6;

  const CSS = `
.fwpl-nt { background: var(--panel); border: 1px solid var(--line); border-radius: .35em; overflow: hidden; }
.fwpl-nt-head { display: flex; justify-content: space-between; align-items: baseline; gap: .6em;
  padding: .15em .55em; background: var(--panel-2); border-bottom: 2px solid var(--accent); }
.fwpl-nt-head .title { font-weight: 800; }
.fwpl-nt-head .meta { color: var(--muted); font-size: .75em; white-space: nowrap; }
.fwpl-nt-row { display: grid; grid-template-columns: 1.3em minmax(0, 1fr) repeat(var(--games, 4), 1.7em) 1.6em 2.3em;
  gap: .35em; align-items: center; height: 1.5em; padding: 0 .55em; }
.fwpl-nt-row:nth-child(odd of .fwpl-nt-row) { background: rgba(255, 255, 255, .035); }
.fwpl-nt-row.head { height: 1.4em; color: var(--muted); font-size: .7em; text-transform: uppercase; letter-spacing: .05em; }
.fwpl-nt-row .place { color: var(--muted); font-weight: 700; text-align: right; }
.fwpl-nt-row .g, .fwpl-nt-row .mb { text-align: right; font-variant-numeric: tabular-nums; }
.fwpl-nt-row .g.forfeit { color: var(--dim); }
.fwpl-nt-row .g .star, .fwpl-nt-row .mb .star { color: var(--flash); font-size: .75em; }
.fwpl-nt-row .mb { color: var(--flash); font-weight: 700; }
.fwpl-nt-row .tot { text-align: right; font-weight: 800; color: var(--accent); }
.fwpl-nt-row.excluded .name { color: var(--muted); }
.fwpl-nt-machines { padding: .15em .55em .3em; color: var(--muted); font-size: .68em; border-top: 1px solid var(--line);
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.view-fwpl_night.columns { row-gap: .8em; align-content: start; }
`;
  if (!document.getElementById("fwpl-night-style")) {
    document.head.append(B.el("style", { id: "fwpl-night-style" }, CSS));
  }

  function night(views) {
    const week = (views.tournament || {}).week;
    return week ? views["night/" + week] : null;
  }

  function rows(group) {
    return Object.entries(group.players).sort(([a, pa], [b, pb]) => {
      if (group.complete) return (pa.place || 99) - (pb.place || 99) || pa.seed - pb.seed;
      return pb.total - pa.total || (pb.firsts || 0) - (pa.firsts || 0) || pa.seed - pb.seed || B.byNumber(a, b);
    });
  }

  function card(ctx, views, number, group, games) {
    const el = ctx.el;
    const head = el(
      "div",
      { class: "fwpl-nt-row head" },
      el("span", {}, ""),
      el("span", {}, "Player"),
      Array.from({ length: games }, (_, i) => el("span", { class: "g" }, "G" + (i + 1))),
      el("span", { class: "mb", title: "match bonus" }, "MB"),
      el("span", { class: "tot" }, "Tot")
    );
    const body = rows(group).map(([player, row]) => {
      const cells = [];
      for (let n = 1; n <= games; n++) {
        const game = (group.games || {})[n];
        const cell = game ? game.rows[player] : null;
        if (!cell) cells.push(el("span", { class: "g" }, ""));
        else if (cell.forfeit) cells.push(el("span", { class: "g forfeit", title: "forfeit" }, "–"));
        else cells.push(el("span", { class: "g" }, cell.points, cell.bonus ? el("span", { class: "star" }, "★") : null));
      }
      return el(
        "div",
        { class: "fwpl-nt-row" + (row.excluded ? " excluded" : ""), dataset: { player: player } },
        el("span", { class: "place" }, group.complete ? row.place || "" : ""),
        el(
          "span",
          { class: "who" },
          el("span", { class: "name" }, B.player(views, player).name),
          el("span", { class: "number" }, player)
        ),
        cells,
        el("span", { class: "mb" }, row.bonus ? "+" + row.bonus : ""),
        el("span", { class: "tot" }, B.fmt.points(row.total))
      );
    });
    const machines = [];
    for (let n = 1; n <= games; n++) {
      const game = (group.games || {})[n];
      if (game) machines.push("G" + n + " " + (((views.machines || {})[game.machine] || {}).name || game.machine));
    }
    const played = Object.keys(group.games || {}).length;
    return el(
      "section",
      { class: "fwpl-nt", dataset: { group: number }, style: "--games: " + games },
      el(
        "header",
        { class: "fwpl-nt-head" },
        el("span", { class: "title" }, "Group " + number),
        el("span", { class: "meta" }, group.complete ? "final" : played + " of " + games + " games")
      ),
      head,
      body,
      el("div", { class: "fwpl-nt-machines" }, machines.join(" · ") || "No games yet")
    );
  }

  B.displayViews.fwpl_night = {
    title: "Tonight",
    pages(views) {
      const doc = night(views);
      if (!doc) return [];
      const numbers = Object.keys(doc.groups || {}).sort((a, b) => a - b);
      const pages = [];
      for (let at = 0; at < numbers.length; at += PER_PAGE) {
        const chunk = numbers.slice(at, at + PER_PAGE);
        pages.push({ key: String(at / PER_PAGE), groups: chunk, count: Math.min(3, chunk.length) });
      }
      return pages;
    },
    render(page, views, ctx) {
      const doc = night(views) || { groups: {} };
      const games = (views.tournament || {}).games || 4;
      return page.groups.filter((n) => doc.groups[n]).map((n) => card(ctx, views, n, doc.groups[n], games));
    },
  };
})();
