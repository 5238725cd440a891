/* FWPL season table (display plugin "fwpl_season"): place, player, points week by week and the
 * season total (FWPL 3.3, 4.3), with the playoff line(s) drawn where the divisions end (FWPL 6.1)
 * and unranked rows (forfeited or wiped seasons, FWPL 2.5, 8.5) at the bottom. Reads "season".
 * Rows per column are measured from the screen; one wide column while the week columns need the
 * room, two when few weeks are shown and the table is long.
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

  const SCALE = 0.85; // .fwpl-season's font size

  function rowsPerColumn(config) {
    const stage = document.getElementById("stage");
    const font = (parseFloat(getComputedStyle(stage).fontSize) || 16) * SCALE;
    const fit = Math.max(4, Math.floor((stage.clientHeight - 2 * font) / (1.55 * font)));
    return config.rows ? Math.min(config.rows, fit) : fit;
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
      const per = rowsPerColumn(ctx.config);
      const columns = [];
      for (let at = 0; at < list.length; at += per) columns.push(list.slice(at, at + per));
      const across = weekColumns(doc).length <= 4 ? 2 : 1;
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
