/* FWPL groups board (display plugin "fwpl_groups"): for tonight's league night, each group's
 * game number, machine (or who picks next and from what), the play order and the scores entered
 * so far (FWPL 5, 5.2). Reads views "tournament" and "night/<week>". Six groups per page.
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const PER_PAGE = 6;

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

  function card(ctx, views, number, group, games) {
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
      parts.push(el("div", { class: "fwpl-allowed" }, allowed.length ? "Open: " + allowed.join(" · ") : ""));
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
    parts.push(el("div", { class: "fwpl-played" }, played.length ? "Played: " + played.join(" · ") : "No games yet"));
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

  B.displayViews.fwpl_groups = {
    title: "Groups",
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
      return page.groups
        .filter((n) => doc.groups[n])
        .map((n) => card(ctx, views, n, doc.groups[n], games));
    },
  };
})();
