/* FWPL night standings (display plugin "fwpl_night"): each group's points per game, match bonus
 * and total tonight (FWPL 3.2, 3.3). Reads views "tournament" and "night/<week>". As many groups
 * a page as the screen holds at the reading distance (fewer, larger at 10 m); within a group, by place once the match is complete, else by points tonight.
 */
(function () {
  "use strict";
  const B = window.Backglass;

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

  /* A group's card; ``short``: without the line of machines played, where a whole card would
   * not fit the stage at the reading distance: points are what this view is read for. */
  function card(ctx, views, number, group, games, short) {
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
      short ? null : el("div", { class: "fwpl-nt-machines" }, machines.join(" · ") || "No games yet")
    );
  }

  // a card's width in the board's em: place, a name's room, the games, match bonus and total
  const CARD_EM = 14;
  const GAME_EM = 1.7;

  B.displayViews.fwpl_night = {
    title: "Tonight",
    pages(views, ctx) {
      const doc = night(views);
      if (!doc) return [];
      const games = (views.tournament || {}).games || 4;
      const numbers = Object.keys(doc.groups || {}).sort((a, b) => a - b);
      if (!numbers.length) return [];
      // cards a page: as many columns as the width gives and as many cards a column as fit
      // under one another, measured on the largest group at the reading distance's font
      const largest = numbers.reduce((a, b) =>
        Object.keys(doc.groups[b].players).length > Object.keys(doc.groups[a].players).length ? b : a
      );
      const across = Math.min(3, ctx.columns(CARD_EM + GAME_EM * games));
      const group = doc.groups[largest];
      const size = Object.keys(group.players).length;
      const width = "width: " + ctx.columnWidth(across) + "px";
      // the machines line goes where a whole card would not fit (fitRows: rows a card holds)
      const withRows = (n, short) => {
        const players = Object.fromEntries(Object.entries(group.players).slice(0, n));
        return card(ctx, views, largest, { ...group, players: players }, games, short);
      };
      const short = ctx.fitRows((n) => ctx.el("div", { style: width }, withRows(n, false))) < size;
      const down = ctx.fitRows((n) =>
        ctx.el("div", { class: "fwpl-cards", style: width }, Array.from({ length: n }, () => withRows(size, short)))
      );
      const perPage = across * down;
      const pages = [];
      for (let at = 0; at < numbers.length; at += perPage) {
        const chunk = numbers.slice(at, at + perPage);
        pages.push({ key: String(pages.length), groups: chunk, count: Math.min(across, chunk.length), short: short });
      }
      return pages;
    },
    render(page, views, ctx) {
      const doc = night(views) || { groups: {} };
      const games = (views.tournament || {}).games || 4;
      return page.groups.filter((n) => doc.groups[n]).map((n) => card(ctx, views, n, doc.groups[n], games, page.short));
    },
  };
})();
