/* EPC Country Competition: the 4-ball board (display plugin "four_ball"; also on the phones' page).
 * Every team's one-player 4-ball game ranked together, whichever of the two machines it was played
 * on (17, 14, 12 … 1 points for 1st–13th, 0 below); teams still to play show their allocated slot
 * and machine; a slam tilt shows as zero (EPC 2009, EPC Country Competition, "The 4 ball game").
 * Reads views "teams", "machines" and "country/four_ball".
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const FLASH_MS = 3000;

  const { flash, settle } = B.rowFlash(FLASH_MS); // one tracker per view

  function team(views, id) {
    return ((views.teams || {})[id] || {}).name || id;
  }

  function machine(views, id) {
    return ((views.machines || {})[id] || {}).name || id;
  }

  /* Ranked games first (by place), then slam tilts, then teams still to play (by slot). */
  function ordered(views) {
    const rows = Object.entries((views["country/four_ball"] || {}).rows || {});
    const rank = (r) => (typeof r.place === "number" ? 0 : r.slam_tilt ? 1 : 2);
    return rows.sort(
      ([ta, a], [tb, b]) =>
        rank(a) - rank(b) || (a.place || 0) - (b.place || 0) || (a.slot || 0) - (b.slot || 0) || B.byNumber(ta, tb)
    );
  }

  function row(ctx, views, id, r, all) {
    const el = ctx.el;
    const played = typeof r.place === "number";
    const shared = played && all.filter(([, o]) => o.place === r.place).length > 1;
    let score;
    if (played) score = [B.fmt.score(r.score), el("span", { class: "where" }, machine(views, r.machine))];
    else if (r.slam_tilt) score = ["0", el("span", { class: "where" }, "slam tilt")];
    else score = r.slot ? "slot " + r.slot + (r.scheduled ? " · " + machine(views, r.scheduled) : "") : "to play";
    const f = flash("b:" + id, [r.score, r.place, r.points, r.slam_tilt].join("|"));
    return settle(
      el(
        "div",
        {
          class:
            "fb-row" + (played ? "" : r.slam_tilt ? " tilt" : " todo") + (f.cls || "") + (ctx.team === id ? " mine" : ""),
          style: f.style,
          dataset: { team: id },
        },
        el("span", { class: "place" }, played ? r.place + (shared ? "=" : "") : ""),
        el("span", { class: "fb-name" }, el("span", { class: "name" }, team(views, id))),
        el("span", { class: "score" }, score),
        el("span", { class: "points" }, played || r.slam_tilt ? B.fmt.points(r.points) : "")
      ),
      f
    );
  }

  function card(ctx, views, from, to) {
    const el = ctx.el;
    const doc = views["country/four_ball"] || {};
    const all = ordered(views);
    const body = [];
    all.slice(from, to).forEach(([id, r], i) => {
      const node = row(ctx, views, id, r, all);
      const previous = from + i > 0 ? all[from + i - 1][1] : null;
      if (previous && previous.points > 0 && !(r.points > 0) && i > 0) node.classList.add("fb-zero");
      body.push(node);
    });
    return el(
      "section",
      { class: "fb-card", dataset: { part: from } },
      el(
        "header",
        { class: "fb-head" },
        el("span", { class: "fb-title" }, from === 0 ? "4-ball game" : "4-ball game, continued"),
        el("span", { class: "fb-meta" }, (doc.played || 0) + " of " + (doc.teams || 0) + " played")
      ),
      el(
        "div",
        { class: "fb-row fb-cols" },
        el("span", {}, "#"),
        el("span", {}, "Team"),
        el("span", {}, "Score"),
        el("span", {}, "Pts")
      ),
      body
    );
  }

  function pages(views, ctx) {
    const count = Object.keys((views["country/four_ball"] || {}).rows || {}).length;
    if (count === 0) return [];
    if (ctx.phone) return [{ key: "board", columns: [[[0, count]]], count: 1 }];
    const half = Math.ceil(count / 2);
    return [{ key: "board", columns: [[[0, half]], [[half, count]]], count: 2 }];
  }

  function render(page, views, ctx) {
    return page.columns.map((column) =>
      ctx.el("div", { class: "column" }, column.map((range) => card(ctx, views, range[0], range[1])))
    );
  }

  B.displayViews.four_ball = { title: "4-ball game", pages: pages, render: render };
})();
