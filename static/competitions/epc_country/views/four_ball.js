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
  const COLUMN_EM = 22; // a column's narrowest readable width, in the board's em

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

  /* The board's rows ``from``..``to`` (the first ones again past its end, when measuring). */
  function card(ctx, views, from, to) {
    const el = ctx.el;
    const doc = views["country/four_ball"] || {};
    const all = ordered(views);
    const body = [];
    for (let i = from; i < to && all.length; i++) {
      const [id, r] = all[i % all.length];
      const node = row(ctx, views, id, r, all);
      const previous = i > 0 && i < all.length ? all[i - 1][1] : null;
      if (previous && previous.points > 0 && !(r.points > 0) && i > from) node.classList.add("fb-zero");
      body.push(node);
    }
    return el(
      "section",
      { class: "fb-card", dataset: { part: from } },
      el(
        "header",
        { class: "fb-head" },
        el("span", { class: "fb-title" }, "4-ball game"),
        el("span", { class: "fb-meta" }, from === 0 ? (doc.played || 0) + " of " + (doc.teams || 0) + " played" : "continued")
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
    // the board in two halves side by side where it fits so, else packed into columns of the
    // stage's height (display.js packColumns: a far reading distance gives fewer rows a page)
    const across = Math.min(2, ctx.columns(COLUMN_EM));
    const column = (parts) => ctx.el("div", { class: "column fb-board" }, parts.map((p) => card(ctx, views, p.from, p.to)));
    const half = Math.ceil(count / 2);
    if (across === 2 && ctx.packColumns([{ key: "a", rows: half }], column, across).length === 1) {
      return [{ key: "board", columns: [[[0, half]], [[half, count]]], count: 2 }];
    }
    const columns = ctx.packColumns([{ key: "board", rows: count }], column, across);
    const pages = [];
    for (let at = 0; at < columns.length; at += across) {
      const part = columns.slice(at, at + across).map((parts) => parts.map((p) => [p.from, p.to]));
      pages.push({ key: "board-" + pages.length, columns: part, count: across });
    }
    return pages;
  }

  function render(page, views, ctx) {
    return page.columns.map((column) =>
      ctx.el("div", { class: "column fb-board" }, column.map((range) => card(ctx, views, range[0], range[1])))
    );
  }

  B.displayViews.four_ball = { title: "4-ball game", pages: pages, render: render };
})();
