/* FWPL night standings (display plugin "fwpl_night"): each group's points per game, match bonus
 * and total tonight (FWPL 3.2, 3.3). Reads views "tournament" and "night/<week>". Six groups per
 * page; within a group, by place once the match is complete, else by points tonight.
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const PER_PAGE = 6;

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
