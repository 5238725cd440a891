/* EPC final placings on the hall display (EPC 2009, EPC Finals; Quarter-Finals; Qualifying):
 * every entrant from the champion to the last place as one table, in columns and pages.
 * View "placings". */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;
  const ROWS = 20;
  const COLUMNS = 3;
  const STAGE = {
    "grand final": "grand final",
    "5th-8th play-off": "5th–8th play-off",
    "semi-final": "semi-finals",
    "quarter-final": "quarter-finals",
    replaced: "replaced",
    standby: "stand-by",
    absent: "absent",
    qualifying: "qualifying",
  };

  function rows(views) {
    return Object.entries(((views.placings || {}).rows) || {}).sort(
      ([pa, a], [pb, b]) => (a.place || 1e9) - (b.place || 1e9) || B.byNumber(pa, pb)
    );
  }

  B.displayViews.placings = {
    title: "Final placings",
    pages(views) {
      if (!views.placings) return [];
      const all = rows(views);
      const pages = [];
      for (let at = 0; at < all.length; at += ROWS * COLUMNS) {
        pages.push({ key: String(pages.length), from: at, count: COLUMNS });
      }
      return pages;
    },
    render(page, views) {
      const K = B.epc;
      const all = rows(views);
      const label = B.placeLabels(all);
      const columns = [];
      for (let c = 0; c < COLUMNS; c++) {
        const from = page.from + c * ROWS;
        const part = all.slice(from, from + ROWS);
        if (part.length === 0) break;
        columns.push(
          el(
            "div",
            { class: "column epc-placings" },
            K.panel(
              c === 0 && page.from === 0 ? "Final placings" : span(part),
              (views.placings || {}).complete ? "final" : "so far",
              part.map(([number, row]) =>
                el(
                  "div",
                  { class: "epc-row" + (row.place && row.place <= 4 ? " epc-up" : ""), dataset: { player: number } },
                  el("span", { class: "place" }, row.place ? label(row) : "–"),
                  K.who(views, number, row.place === 1 ? el("span", { class: "epc-trophy" }, "★") : null),
                  el("span", { class: "note" }, STAGE[row.stage] || row.stage)
                )
              )
            )
          )
        );
      }
      return columns;
    },
  };

  function span(part) {
    const first = part[0][1].place;
    const last = part[part.length - 1][1].place;
    if (!first) return "Places to come";
    return first === last ? "Place " + first : "Places " + first + "–" + (last || "");
  }
})();
