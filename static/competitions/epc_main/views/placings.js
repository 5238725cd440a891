/* EPC final placings on the hall display (EPC 2009, EPC Finals; Quarter-Finals; Qualifying):
 * every entrant from the champion to the last place as one table, in columns and pages.
 * View "placings". */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;
  const COLUMN_EM = 18; // a column's width in the board's em; rows and columns are measured
  const PODIUM_EM = 14; // a podium step's narrowest width for its names, in the board's em
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
    /* As many rows as the stage holds in as many columns as fit (both measured, so a far
     * reading distance gives fewer, larger rows and more pages, and no row is ever cut off). */
    pages(views, ctx) {
      if (!views.placings) return [];
      const all = rows(views);
      const sample = (n) => Array.from({ length: n }, (_, i) => all[i % all.length]);
      const perColumn = ctx.fitRows((n) => column(views, sample(n), all, true));
      const count = ctx.columns(COLUMN_EM);
      const pages = [];
      if ([1, 2, 3].every((place) => all.some(([, row]) => row.place === place))) {
        // once the top three are decided; stacked (a step a line) where three steps side by side
        // would not give the names PODIUM_EM each
        pages.push({ key: "podium", podium: true, count: 1, stacked: ctx.columns(PODIUM_EM) < 3 });
      }
      for (let at = 0; at < all.length; at += perColumn * count) {
        pages.push({ key: String(at / (perColumn * count)), from: at, count: count, rows: perColumn });
      }
      return pages;
    },
    render(page, views) {
      const all = rows(views);
      if (page.podium) return podium(views, all, page.stacked);
      const columns = [];
      for (let c = 0; c < page.count; c++) {
        const from = page.from + c * page.rows;
        const part = all.slice(from, from + page.rows);
        if (part.length === 0) break;
        columns.push(column(views, part, all, c === 0 && page.from === 0));
      }
      return columns;
    },
  };

  /* The podium: 2nd, 1st, 3rd side by side on steps of their height, the names on top (tied
   * players share a step); ``stacked``: 1st, 2nd, 3rd a line each, the step beside the names. */
  function podium(views, all, stacked) {
    const K = B.epc;
    const step = (place) =>
      el(
        "div",
        { class: "podium-step podium-" + place, dataset: { place: place } },
        el(
          "div",
          { class: "podium-names" },
          all
            .filter(([, row]) => row.place === place)
            .map(([number]) => el("div", { class: "podium-who", dataset: { player: number } }, K.who(views, number)))
        ),
        el("div", { class: "podium-block" }, K.ordinal(place))
      );
    if (stacked) return el("div", { class: "epc-podium epc-podium-stacked" }, step(1), step(2), step(3));
    return el("div", { class: "epc-podium" }, step(2), step(1), step(3));
  }

  function column(views, part, all, first) {
    const K = B.epc;
    const label = B.placeLabels(all);
    return el(
      "div",
      { class: "column epc-placings" },
      K.panel(
        first ? "Final placings" : span(part),
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
    );
  }

  function span(part) {
    const first = part[0][1].place;
    const last = part[part.length - 1][1].place;
    if (!first) return "Places to come";
    return first === last ? "Place " + first : "Places " + first + "–" + (last || "");
  }
})();
