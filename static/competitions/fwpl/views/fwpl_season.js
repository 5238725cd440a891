/* FWPL season table (display plugin "fwpl_season"): place, player, points week by week and the
 * season total (FWPL 3.3, 4.3), with the playoff line(s) drawn where the divisions end (FWPL 6.1)
 * and unranked rows (forfeited or wiped seasons, FWPL 2.5, 8.5) at the bottom. Reads "season".
 * Rows per column are measured from the screen at the reading distance's font; one wide column
 * while the week columns need the room, two when few weeks are shown, the table is long and the
 * width has room for two.
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const MAX_WEEK_COLUMNS = 10;

  function ordered(doc) {
    return Object.entries((doc && doc.rows) || {}).sort(([a, ra], [b, rb]) => {
      const pa = typeof ra.place === "number" ? ra.place : Infinity;
      const pb = typeof rb.place === "number" ? rb.place : Infinity;
      if (pa !== pb) return pa - pb;
      if ((ra.ladder || 1e9) !== (rb.ladder || 1e9)) return (ra.ladder || 1e9) - (rb.ladder || 1e9);
      return (rb.points || 0) - (ra.points || 0) || B.byNumber(a, b);
    });
  }

  /* Rows with the playoff lines between them: after the last seat of each division. */
  function items(doc) {
    const cut = (doc.cut || {}).divisions || {};
    const divisions = Object.entries(cut).sort(([, a], [, b]) => a.order - b.order);
    const rows = ordered(doc);
    const out = [];
    let seats = 0;
    let index = 0;
    for (const [name, division] of divisions) {
      if (index >= rows.length) break;
      const label = (doc.cut.final ? "Division " : "Playoffs · division ") + name + " · top " + division.size;
      out.push({ line: true, text: label, name: name });
      seats += division.size;
      // a line through equal places (division.tie, FWPL 6.1): the tied run goes under its own
      // line, none of it inside the division until the single-ball play-off
      const tie = division.tie;
      const upTo = tie ? tie.place - 1 : seats;
      while (index < rows.length && (rows[index][1].division ? rows[index][1].division === name : index < upTo)) {
        out.push({ number: rows[index][0], row: rows[index][1], division: name });
        index++;
      }
      if (tie) {
        const note = tie.note.charAt(0).toUpperCase() + tie.note.slice(1);
        out.push({ line: true, text: note + " · " + tie.players.join(", "), tie: true });
        for (const end = index + tie.players.length; index < end && index < rows.length; index++) {
          out.push({ number: rows[index][0], row: rows[index][1], tie: true });
        }
      }
    }
    if (divisions.length && index < rows.length) out.push({ line: true, text: "Season only", out: true });
    for (; index < rows.length; index++) out.push({ number: rows[index][0], row: rows[index][1] });
    return out;
  }

  function weekColumns(doc) {
    const played = doc.week || 0;
    const first = Math.max(1, played - MAX_WEEK_COLUMNS + 1);
    const weeks = [];
    for (let w = first; w <= played; w++) weeks.push(w);
    return weeks;
  }

  // a column's width in the board's em: place, a name's room and points, and each week's column
  // (.fwpl-srow at .fwpl-season's .85em)
  const COLUMN_EM = 18.5;
  const WEEK_EM = 2.4;

  /* Rows a column holds, measured by the board (display.js ctx.fitRows): its font is the reading
   * distance's, so 10 m gives fewer, larger rows and more pages. A playoff line is never taller
   * than a row, so counting it as one never overfills a column. */
  function rowsPerColumn(ctx, weeks) {
    const sample = { number: "1", row: { place: 1, points: 1, weeks: {} } };
    const fit = ctx.fitRows((n) =>
      ctx.el(
        "div",
        { class: "fwpl-season", style: "--weeks: " + weeks.length },
        header(ctx, weeks),
        Array.from({ length: n }, () => rowNode(ctx, {}, sample, weeks, () => "1"))
      )
    );
    return ctx.config.rows ? Math.min(ctx.config.rows, fit) : fit;
  }

  function header(ctx, weeks) {
    const el = ctx.el;
    return el(
      "div",
      { class: "fwpl-srow head" },
      el("span", { class: "place" }, "#"),
      el("span", {}, "Player"),
      weeks.map((w) => el("span", { class: "wk" }, "W" + w)),
      el("span", { class: "pts" }, "Points")
    );
  }

  function rowNode(ctx, views, item, weeks, labels) {
    const el = ctx.el;
    if (item.line) {
      return el("div", { class: "fwpl-line" + (item.out ? " out" : item.tie ? " tie" : " div-" + item.name) }, el("span", {}, item.text));
    }
    const row = item.row;
    const ranked = typeof row.place === "number";
    return el(
      "div",
      {
        class: "fwpl-srow" + (item.division ? " in-" + item.division : "") + (ranked ? "" : " unranked"),
        dataset: { player: item.number },
      },
      el("span", { class: "place" }, ranked ? labels(row) : ""),
      el(
        "span",
        { class: "who" },
        el("span", { class: "name" }, B.player(views, item.number).name),
        el("span", { class: "number" }, item.number),
        row.status && row.status !== "active" ? el("span", { class: "status" }, row.status) : null
      ),
      weeks.map((w) => el("span", { class: "wk" }, B.fmt.points((row.weeks || {})[w]))),
      el("span", { class: "pts" }, B.fmt.points(row.points))
    );
  }

  B.displayViews.fwpl_season = {
    title: "Season",
    pages(views, ctx) {
      const doc = views.season;
      if (!doc || Object.keys(doc.rows || {}).length === 0) return [];
      const list = items(doc);
      const weeks = weekColumns(doc);
      const per = rowsPerColumn(ctx, weeks);
      const columns = [];
      for (let at = 0; at < list.length; at += per) columns.push(list.slice(at, at + per));
      // two columns while few weeks are shown and the width has room for both, else one wide one
      const across = weeks.length <= 4 ? Math.min(2, ctx.columns(COLUMN_EM + WEEK_EM * weeks.length)) : 1;
      const pages = [];
      for (let at = 0; at < columns.length; at += across) {
        const chunk = columns.slice(at, at + across);
        pages.push({ key: String(at / across), columns: chunk, count: chunk.length });
      }
      return pages;
    },
    render(page, views, ctx) {
      const doc = views.season || {};
      const weeks = weekColumns(doc);
      const labels = B.placeLabels(Object.entries(doc.rows || {}));
      return page.columns.map((column) =>
        ctx.el(
          "div",
          { class: "fwpl-season", style: "--weeks: " + weeks.length },
          header(ctx, weeks),
          column.map((item) => rowNode(ctx, views, item, weeks, labels))
        )
      );
    },
  };
})();
