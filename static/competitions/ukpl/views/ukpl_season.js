/* The UKPL season table on the hall display, beside the meeting: ?views=machines,standings,ukpl_season
 *
 * Draws the "season" view (display/competitions/ukpl/views.py): the region's players by season points, one
 * column per meeting that counts (this meeting's live, highlighted), the results that count in
 * full and the discarded ones dimmed (UKPL 3E), the grand final places marked (1G, 3G) with
 * the play-off for the last of them under its own line (3F), and the players from other regions apart (1C, 3C). A meeting with too few
 * region players is named below the title (1E), on the first page. Paged into columns that fit
 * the screen at the reading distance; where a column leaves a name too little room (10 m), the
 * earliest meetings' columns are left out and the note says so.
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;

  const COLUMN_EM = 19; // player, place and points; each meeting adds MEET_EM
  const MEET_EM = 3.1;
  const FIXED_EM = 8; // a column's place, points, padding and gaps, without the name
  const NAME_EM = 9; // room for a name and number: "H. Nowakowski 29" whole
  const MAX_COLUMNS = 3;

  function meetIds(season) {
    return Object.entries(season.meets || {})
      .filter(([, meet]) => !meet.void)
      .sort(([, a], [, b]) => a.order - b.order)
      .map(([id]) => id);
  }

  function rankedRows(season) {
    return Object.entries(season.rows || {}).sort(
      ([pa, a], [pb, b]) => a.place - b.place || (b.points || 0) - (a.points || 0) || B.byNumber(pa, pb)
    );
  }

  /* Which meetings' results count: the best ones, as many as ``counted`` holds (UKPL 3E). */
  function countedMeets(row) {
    const results = Object.entries(row.results || {}).sort(([, a], [, b]) => b - a);
    return new Set(results.slice(0, (row.counted || []).length).map(([meet]) => meet));
  }

  /* Rows and dividers in order: the finals places, the play-off for the last of them (UKPL 3F:
   * rows tied across the line, under a line of their own, as the standings draw a tie at the
   * cut; a tag beside each name left the name no room in one column at 10 m), the line, the
   * rest, then players for fun. */
  function items(season) {
    const rows = rankedRows(season);
    const label = B.placeLabels(rows);
    const qualifiers = (season.settings || {}).qualifiers || 0;
    const out = [];
    let inside = null;
    for (const [number, row] of rows) {
      const band = row.playoff ? "tie" : row.qualified ? "qualified" : "out";
      if (qualifiers && band !== inside) {
        let text = "Below the line";
        if (band === "qualified") text = "Grand final · places 1–" + qualifiers;
        if (band === "tie") {
          text = "Play-off · " + (row.place === qualifiers ? "place " + qualifiers : "places " + row.place + "–" + qualifiers);
        }
        out.push({ divider: true, band: band, text: text });
        inside = band;
      }
      out.push({ number: number, row: row, place: label(row) });
    }
    const fun = Object.entries(season.for_fun || {}).sort(([a], [b]) => B.byNumber(a, b));
    if (fun.length) out.push({ divider: true, band: "out", text: "For fun · other regions" });
    for (const [number, row] of fun) out.push({ number: number, fun: row });
    return out;
  }

  /* Columns and rows a page holds, from the board's own measures (display.js ctx): as many
   * columns of COLUMN_EM (plus each meeting's) as the width gives, and as many rows as fit, under
   * the note on the first page (it wraps across the stage's width: at 10 m the region, the
   * counting rule and any warning take two lines rather than being cut). */
  function measure(season, meets, ctx, withNote) {
    const stage = document.getElementById("stage");
    const columns = Math.min(MAX_COLUMNS, ctx.columns(COLUMN_EM + MEET_EM * meets.length));
    const rows = ctx.fitRows((n) =>
      el(
        "div",
        { class: "ukpl-season", style: "width: " + stage.clientWidth + "px" },
        withNote ? note(season, meets) : null,
        el(
          "div",
          { class: "column list season-col", style: "--meets: " + Math.max(meets.length, 1) },
          head(season, meets),
          Array.from({ length: n }, () => sampleRow(meets))
        )
      )
    );
    return { columns: columns, rows: rows };
  }

  /* The meetings with a column of their own: all of them where one column gives the name NAME_EM,
   * else the earliest left out first, this meeting's kept (the season total counts them all, and
   * the note says how many are left out). At 10 m on a 55-inch screen one column has room for a
   * name beside one meeting, not beside three. */
  function shownMeets(season, meets) {
    const stage = document.getElementById("stage");
    const font = parseFloat(getComputedStyle(stage).fontSize) || 16;
    const width = stage.clientWidth / font;
    const shown = meets.slice();
    while (shown.length > 1 && width < FIXED_EM + NAME_EM + MEET_EM * shown.length) {
      const earliest = shown.findIndex((id) => id !== season.meet);
      shown.splice(earliest, 1);
    }
    return shown;
  }

  /* A player's row for measuring (a divider is never taller than one). */
  function sampleRow(meets) {
    return el(
      "div",
      { class: "list-row season-row" },
      el("span", { class: "place" }, "1"),
      el("span", { class: "who" }, el("span", { class: "name" }, "x")),
      meets.map(() => el("span", { class: "result" }, "1")),
      el("span", { class: "points" }, "1")
    );
  }

  /* Pages of columns: the first under the note, the rest with the rows their room gives. */
  function pages(views, ctx) {
    const season = views.season;
    if (!season) return [];
    const list = items(season);
    const meets = shownMeets(season, meetIds(season));
    const first = measure(season, meets, ctx, true);
    const rest = measure(season, meets, ctx, false);
    const limit = ctx.config.rows || Infinity;
    const count = Math.max(1, Math.min(first.columns, Math.ceil(list.length / Math.min(first.rows, limit))));
    const out = [];
    let at = 0;
    do {
      const perColumn = Math.min(out.length ? rest.rows : first.rows, limit);
      const columns = [];
      for (let c = 0; c < count && at < list.length; c++) {
        let end = Math.min(at + perColumn, list.length);
        if (end < list.length && end - 1 > at && list[end - 1].divider) end -= 1; // a divider never ends a column
        columns.push(list.slice(at, end));
        at = end;
      }
      if (!columns.length) columns.push([]);
      out.push({ key: String(out.length), columns: columns, count: count, note: out.length === 0, meets: meets });
    } while (at < list.length);
    return out;
  }

  /* The season's note; ``shown``: the meetings with a column, so those left out are named. */
  function note(season, shown) {
    const settings = season.settings || {};
    const meets = Object.entries(season.meets || {});
    const hidden = meetIds(season).length - shown.length;
    const parts = [
      el("b", {}, [season.region, season.season].filter(Boolean).join(" · ")),
      " · best " + settings.counted + " of " + meets.filter(([, m]) => !m.void).length + " meetings count",
    ];
    if (settings.qualifiers) parts.push(" · " + settings.qualifiers + " grand final places");
    for (const [id, meet] of meets) {
      if (meet.void) {
        parts.push(
          el("span", { class: "warn" }, " · " + id + " does not count: " + meet.competitors + " region players")
        );
      }
    }
    if (hidden > 0) parts.push(" · " + hidden + (hidden === 1 ? " earlier meeting" : " earlier meetings") + " in the total, not shown");
    if (season.problem) parts.push(el("span", { class: "warn" }, " · " + season.problem));
    return el("div", { class: "season-note" }, parts);
  }

  function head(season, meets) {
    return el(
      "div",
      { class: "list-head season-row" },
      el("span", { class: "place" }, "#"),
      el("span", { class: "who" }, "Player"),
      meets.map((id) => el("span", { class: id === season.meet ? "live" : "" }, id)),
      el("span", { class: "points" }, "Season")
    );
  }

  function line(item, season, meets) {
    if (item.divider) {
      return el("div", { class: "divider band-" + item.band }, el("span", {}, item.text));
    }
    const who = (name) =>
      el(
        "span",
        { class: "who" },
        el("span", { class: "name" }, name),
        el("span", { class: "number" }, item.number)
      );
    if (item.fun) {
      return el(
        "div",
        { class: "list-row season-row unranked", dataset: { player: item.number, fun: "" } },
        el("span", { class: "place" }, ""),
        who(item.fun.name),
        el("span", { class: "fun-meets" }, item.fun.meets.length + (item.fun.meets.length === 1 ? " meeting" : " meetings"))
      );
    }
    const row = item.row;
    const counted = countedMeets(row);
    const finals = row.qualified || row.playoff;
    return el(
      "div",
      {
        class: "list-row season-row" + (row.playoff ? " band-tie" : finals ? " band-qualified" : ""),
        dataset: { player: item.number },
      },
      el("span", { class: "place" }, item.place),
      who(row.name),
      meets.map((id) => {
        const value = (row.results || {})[id];
        const kind = value === undefined ? "" : counted.has(id) ? "" : " dropped";
        return el(
          "span",
          { class: "result" + kind + (id === season.meet ? " live" : ""), dataset: { meet: id } },
          value === undefined ? "" : B.fmt.points(value)
        );
      }),
      el("span", { class: "points" }, B.fmt.points(row.points))
    );
  }

  function render(page, views) {
    const season = views.season || {};
    const meets = page.meets || meetIds(season);
    const columns = page.columns.map((column) =>
      el(
        "div",
        {
          class: "column list season-col" + (page.count === 1 ? " single" : ""),
          style: "--meets: " + Math.max(meets.length, 1),
        },
        head(season, meets),
        column.map((item) => line(item, season, meets))
      )
    );
    return el("div", { class: "ukpl-season", style: "display: contents" }, page.note ? note(season, meets) : null, columns);
  }

  B.displayViews.ukpl_season = { title: "Season table", pages: pages, render: render };
})();
