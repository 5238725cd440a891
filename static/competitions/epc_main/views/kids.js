/* The UK Pinball Kids Tournament on the hall display (EPC 2009, UK Pinball Kids Tournament): the
 * high-score table of each player's best game; the top three take the trophies at the close.
 * Drawn from the "standings" view (place, best score as total, band "leading"/"trophy"). */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;
  const ROWS = 16;

  function rows(views) {
    return B.standingRows(views.standings).filter(([, row]) => typeof row.place === "number");
  }

  B.displayViews.kids = {
    title: "High scores",
    pages(views) {
      if (!views.standings) return [];
      const all = rows(views);
      const pages = [];
      for (let at = 0; at < Math.max(all.length, 1); at += ROWS * 2) pages.push({ key: String(pages.length), from: at, count: 2 });
      return pages;
    },
    rowKeys(views) {
      // a player's row flashes when their best score improves
      return Object.fromEntries(rows(views).map(([number, row]) => [number, row.total]));
    },
    render(page, views, ctx) {
      const K = B.epc;
      const all = rows(views);
      const label = B.placeLabels(all);
      const closed = (views.tournament || {}).closed || ((views.tournament || {}).settings || {}).closed_after !== undefined;
      const machine = B.machineList(views)[0];
      const columns = [];
      for (let c = 0; c < 2; c++) {
        const part = all.slice(page.from + c * ROWS, page.from + (c + 1) * ROWS);
        if (part.length === 0 && c > 0) break;
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
        const title = c === 0 ? (machine ? machine[1].name : "High scores") : "continued";
        columns.push(el("div", { class: "column epc-big" }, K.panel(title, closed ? "closed · trophy winners" : "open · best game counts", body)));
      }
      return columns;
    },
  };
})();
