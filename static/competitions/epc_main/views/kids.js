/* The UK Pinball Kids Tournament on the hall display (EPC 2009, UK Pinball Kids Tournament): the
 * high-score table of each player's best game; the top three take the trophies at the close.
 * Drawn from the "standings" view (place, best score as total, band "leading"/"trophy"). */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;
  const MAX_COLUMNS = 2; // two tables side by side at most: a long table reads down, not across
  const COLUMN_EM = 20; // a column's narrowest readable width, in the board's em

  function rows(views) {
    return B.standingRows(views.standings).filter(([, row]) => typeof row.place === "number");
  }

  /* One column of the table: ``part`` (rows of ``all``) from place index ``from``. */
  function column(views, ctx, part, all, from) {
    const K = B.epc;
    const label = B.placeLabels(all);
    const closed = (views.tournament || {}).closed || ((views.tournament || {}).settings || {}).closed_after !== undefined;
    const machine = B.machineList(views)[0];
    const body = part.map(([number, row]) => {
      const f = ctx.flash("kids", number);
      return el(
        "div",
        {
          class: "epc-row" + (row.band ? " epc-up" : "") + (f.flash ? " flash" : ""),
          style: f.style,
          dataset: { player: number },
        },
        el("span", { class: "place" }, label(row)),
        K.who(views, number, row.band === "trophy" ? el("span", { class: "epc-trophy", title: "trophy" }, "★") : null),
        el("span", { class: "score" }, B.fmt.score(row.total)),
        el("span", { class: "note" }, row.band === "trophy" ? "trophy" : row.band === "leading" ? "top 3" : "")
      );
    });
    if (body.length === 0) body.push(el("div", { class: "epc-row epc-empty" }, "No scores yet — have a go!"));
    const title = from === 0 ? (machine ? machine[1].name : "High scores") : "continued";
    return el("div", { class: "column epc-big" + (K.far() ? " epc-far" : "") }, K.panel(title, closed ? "closed · trophy winners" : "open · best game counts", body));
  }

  B.displayViews.kids = {
    title: "High scores",
    /* As many rows as the stage holds (measured: display.js fitRows) in as many columns as fit
     * (ctx.columns), so a far reading distance gives fewer, larger rows and more pages. */
    pages(views, ctx) {
      if (!views.standings) return [];
      const all = rows(views);
      const sample = (n) => Array.from({ length: n }, (_, i) => all[i % all.length]);
      const perColumn = all.length ? ctx.fitRows((n) => column(views, ctx, sample(n), all, 0)) : 1;
      const count = Math.min(MAX_COLUMNS, ctx.columns(COLUMN_EM));
      const pages = [];
      for (let at = 0; at < Math.max(all.length, 1); at += perColumn * count) {
        pages.push({ key: String(pages.length), from: at, count: count, rows: perColumn });
      }
      return pages;
    },
    rowKeys(views) {
      // a player's row flashes when their best score improves
      return Object.fromEntries(rows(views).map(([number, row]) => [number, row.total]));
    },
    render(page, views, ctx) {
      const all = rows(views);
      const columns = [];
      for (let c = 0; c < page.count; c++) {
        const from = page.from + c * page.rows;
        const part = all.slice(from, from + page.rows);
        if (part.length === 0 && c > 0) break;
        columns.push(column(views, ctx, part, all, from));
      }
      return columns;
    },
  };
})();
