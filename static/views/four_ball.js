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

  const CSS = `
.fb-card { background: var(--panel); border: 1px solid var(--line); border-radius: .35em; overflow: hidden; }
.fb-head { display: flex; justify-content: space-between; align-items: baseline; gap: .6em; height: 1.7em;
  padding: 0 .5em; background: var(--panel-2); border-bottom: 2px solid var(--accent); }
.fb-title { font-weight: 800; white-space: nowrap; line-height: 1.6; }
.fb-meta { color: var(--muted); font-size: .75em; white-space: nowrap; }
.fb-row { display: grid; grid-template-columns: 1.9em minmax(0, 1fr) auto 2.4em; align-items: center; gap: .5em;
  height: 1.5em; padding: 0 .5em; font-size: .94em; }
.fb-row:nth-child(odd of .fb-row) { background: rgba(255, 255, 255, .035); }
.fb-cols { height: 1.4em; border-bottom: 1px solid var(--line); }
.fb-cols > span { color: var(--muted); font-size: .62em; text-transform: uppercase; letter-spacing: .08em; }
.view-four_ball .fb-card { font-size: 1.3em; }
.fb-row > :nth-child(1), .fb-row > :nth-child(n+3) { text-align: right; }
.fb-row .place { color: var(--muted); font-weight: 700; }
.fb-row .score { font-weight: 800; white-space: nowrap; }
.fb-row .points { color: var(--accent); font-weight: 800; }
.fb-row .where { color: var(--muted); font-size: .65em; margin-left: .5em; white-space: nowrap; }
.fb-row.todo .score { color: var(--dim); font-weight: 400; font-size: .8em; }
.fb-row.todo .name { color: var(--muted); }
.fb-row.tilt .score { color: var(--danger); }
.fb-name { display: flex; align-items: baseline; min-width: 0; white-space: nowrap; }
.fb-name .name { overflow: hidden; text-overflow: ellipsis; min-width: 0; }
.fb-zero { border-top: 2px solid var(--dim); }
.mine { outline: 2px solid var(--accent); outline-offset: -2px; }
@keyframes fb-flash { 0%, 55% { background-color: var(--flash); color: #111; } 100% { background-color: rgba(255, 216, 74, 0); } }
.fb-row.flash { animation: fb-flash 3s ease-out; }
`;
  if (!document.getElementById("four-ball-style")) {
    document.head.append(B.el("style", { id: "four-ball-style" }, CSS));
  }

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
