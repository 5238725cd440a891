/* FWPL groups board (display plugin "fwpl_groups"): for tonight's league night, each group's
 * game number, machine (or who picks next and from what), the play order and the scores entered
 * so far (FWPL 5, 5.2). Reads views "tournament" and "night/<week>". As many groups a page as
 * the screen holds at the reading distance: at 10 m one, without its secondary lines.
 */
(function () {
  "use strict";
  const B = window.Backglass;

  function night(views) {
    const week = (views.tournament || {}).week;
    return week ? views["night/" + week] : null;
  }

  function machineName(views, id) {
    return ((views.machines || {})[id] || {}).name || id;
  }

  function byOrder(players) {
    return Object.entries(players).sort(
      ([a, pa], [b, pb]) => (pa.order || 99) - (pb.order || 99) || pa.seed - pb.seed || B.byNumber(a, b)
    );
  }

  function who(ctx, views, number) {
    const el = ctx.el;
    return el(
      "span",
      { class: "who" },
      el("span", { class: "name" }, B.player(views, number).name),
      el("span", { class: "number" }, number)
    );
  }

  /* A group's card. ``level`` leaves out its secondary lines where one card would not fit the
   * stage at the reading distance: 1 the games played so far, 2 also the machines open to the
   * picker (the entry page, where the pick is made, lists those); the machine, play order,
   * scores and points stay. */
  function card(ctx, views, number, group, games, level) {
    const el = ctx.el;
    const parts = [];
    if (group.complete) {
      parts.push(el("div", { class: "fwpl-done" }, "Match complete"));
    } else if (group.machine) {
      parts.push(
        el(
          "div",
          { class: "fwpl-machine" },
          machineName(views, group.machine),
          group.replay_pending ? el("span", { class: "fwpl-flag replay" }, "replay pending") : null,
          group.waiting ? el("span", { class: "fwpl-flag" }, "waiting") : null,
          group.last_ball ? el("span", { class: "fwpl-flag" }, "ball 3") : null
        )
      );
      if (group.dead) {
        // FWPL 7.3: the game is replayed on group.machine; the dead machine's scores are void
        const dead = group.dead.map((id) => machineName(views, id)).join(", ");
        parts.push(el("div", { class: "fwpl-allowed fwpl-dead" }, dead + " died · scores there void"));
      }
    } else {
      const picker = group.picker ? B.player(views, group.picker).name : "the group";
      parts.push(el("div", { class: "fwpl-machine pick" }, picker + " picks the next machine"));
      const allowed = (group.allowed || []).map((id) => machineName(views, id));
      if (!(level >= 2)) {
        parts.push(el("div", { class: "fwpl-allowed" }, allowed.length ? "Open: " + allowed.join(" · ") : ""));
      }
    }
    const entered = group.entered || {};
    const rows = group.complete
      ? Object.entries(group.players).sort(([, a], [, b]) => (a.place || 9) - (b.place || 9))
      : byOrder(group.players);
    for (const [player, row] of rows) {
      const line = entered[player];
      parts.push(
        el(
          "div",
          {
            class: "fwpl-order" + (player === group.picker ? " picker" : ""),
            dataset: { player: player },
          },
          el("span", { class: "pos" }, group.complete ? row.place || "" : row.order || ""),
          who(ctx, views, player),
          el(
            "span",
            { class: "entered" + (line && line.forfeit ? " forfeit" : "") },
            line ? (line.forfeit ? "forfeit" : B.fmt.score(line.score)) : ""
          ),
          el("span", { class: "tonight", title: "points tonight" }, B.fmt.points(row.total))
        )
      );
    }
    const played = Object.keys(group.games || {})
      .sort((a, b) => a - b)
      .map((n) => n + " " + machineName(views, group.games[n].machine));
    if (!(level >= 1)) {
      parts.push(el("div", { class: "fwpl-played" }, played.length ? "Played: " + played.join(" · ") : "No games yet"));
    }
    const meta = group.complete ? games + " of " + games : "Game " + group.game_no + " of " + games;
    return el(
      "section",
      { class: "fwpl-card", dataset: { group: number } },
      el(
        "header",
        { class: "fwpl-card-head" },
        el("span", { class: "fwpl-card-title" }, "Group " + number),
        el("span", { class: "fwpl-card-meta" }, meta)
      ),
      parts
    );
  }

  // a card's width in the board's em: position, a name's room, the score entered and points
  const CARD_EM = 19;

  /* The tallest card a night can show, for measuring: the largest group, its picker (the longest
   * name of the night, whose line may wrap) choosing from every open machine, games played. */
  function sample(views, doc) {
    const groups = Object.values(doc.groups);
    const largest = groups.reduce((a, b) => (Object.keys(b.players).length > Object.keys(a.players).length ? b : a));
    const picking = groups.find((g) => !g.complete && !g.machine) || {};
    return {
      ...largest,
      complete: false,
      machine: null,
      picker: Object.keys(doc.groups)
        .flatMap((g) => Object.keys(doc.groups[g].players))
        .reduce((a, b) => (B.player(views, b).name.length > B.player(views, a).name.length ? b : a)),
      allowed: picking.allowed || Object.keys(views.machines || {}),
      games: Object.keys(largest.games || {}).length ? largest.games : { 1: { machine: "1" } },
    };
  }

  B.displayViews.fwpl_groups = {
    title: "Groups",
    pages(views, ctx) {
      const doc = night(views);
      if (!doc) return [];
      const numbers = Object.keys(doc.groups || {}).sort((a, b) => a - b);
      if (!numbers.length) return [];
      const games = (views.tournament || {}).games || 4;
      const across = Math.min(3, ctx.columns(CARD_EM));
      const width = ctx.columnWidth(across);
      const tallest = sample(views, doc);
      const size = Object.keys(tallest.players).length;
      // the fullest card whose every player row fits the stage (display.js ctx.fitRows counts the
      // rows a card of n rows holds), then as many such cards a column as fit
      const withRows = (n, level) => {
        const players = Object.fromEntries(Object.entries(tallest.players).slice(0, n));
        return card(ctx, views, "0", { ...tallest, players: players }, games, level);
      };
      let level = 0;
      while (level < 2 && ctx.fitRows((n) => ctx.el("div", { style: "width: " + width + "px" }, withRows(n, level))) < size) {
        level += 1;
      }
      const down = ctx.fitRows((n) =>
        ctx.el(
          "div",
          { class: "fwpl-cards", style: "width: " + width + "px" },
          Array.from({ length: n }, () => withRows(size, level))
        )
      );
      const perPage = across * down;
      const pages = [];
      for (let at = 0; at < numbers.length; at += perPage) {
        const chunk = numbers.slice(at, at + perPage);
        pages.push({ key: String(pages.length), groups: chunk, count: Math.min(across, chunk.length), level: level });
      }
      return pages;
    },
    render(page, views, ctx) {
      const doc = night(views) || { groups: {} };
      const games = (views.tournament || {}).games || 4;
      return page.groups
        .filter((n) => doc.groups[n])
        .map((n) => card(ctx, views, n, doc.groups[n], games, page.level));
    },
  };
})();
