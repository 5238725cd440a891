/* The UKPL season table on the hall display, beside the meeting: ?views=machines,standings,ukpl_season
 *
 * Draws the "season" view (display/competitions/ukpl/views.py): the region's players by season points, one
 * column per meeting that counts (this meeting's live, highlighted), the results that count in
 * full and the discarded ones dimmed (UKPL 3E), the grand final places marked (1G, 3G) with
 * play-offs (3F), and the players from other regions apart (1C, 3C). A meeting with too few
 * region players is named below the title (1E). Paged into columns that fit the screen.
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;

  const COLUMN_EM = 19; // player, place and points; each meeting adds 3.1em
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

  /* Rows and dividers in order: the finals places, the line, the rest, then players for fun. */
  function items(season) {
    const rows = rankedRows(season);
    const label = B.placeLabels(rows);
    const qualifiers = (season.settings || {}).qualifiers || 0;
    const out = [];
    let inside = null;
    for (const [number, row] of rows) {
      const finals = Boolean(row.qualified || row.playoff);
      if (qualifiers && finals !== inside) {
        out.push({
          divider: true,
          band: finals ? "qualified" : "out",
          text: finals ? "Grand final · places 1–" + qualifiers : "Below the line",
        });
        inside = finals;
      }
      out.push({ number: number, row: row, place: label(row) });
    }
    const fun = Object.entries(season.for_fun || {}).sort(([a], [b]) => B.byNumber(a, b));
    if (fun.length) out.push({ divider: true, band: "out", text: "For fun · other regions" });
    for (const [number, row] of fun) out.push({ number: number, fun: row });
    return out;
  }

  function measure(meets) {
    const stage = document.getElementById("stage");
    const font = parseFloat(getComputedStyle(stage).fontSize) || 16;
    const gap = font * 0.9;
    const width = (COLUMN_EM + 3.1 * meets) * font;
    const columns = Math.max(1, Math.min(MAX_COLUMNS, Math.floor((stage.clientWidth + gap) / (width + gap))));
    const usable = stage.clientHeight - font * (1.7 * 0.72 + 2 + 0.3);
    return { columns: columns, rows: Math.max(1, Math.floor(usable / (font * 1.55))) };
  }

  function pages(views, ctx) {
    const season = views.season;
    if (!season) return [];
    const list = items(season);
    const meets = meetIds(season);
    const fit = measure(meets.length);
    const perColumn = Math.min(fit.rows, ctx.config.rows || Infinity);
    const columns = [];
    for (let at = 0; at < list.length; ) {
      let end = Math.min(at + perColumn, list.length);
      if (end < list.length && list[end - 1].divider) end -= 1; // a divider never ends a column
      columns.push(list.slice(at, end));
      at = end;
    }
    if (!columns.length) columns.push([]);
    const count = Math.min(fit.columns, columns.length);
    const out = [];
    for (let at = 0; at < columns.length; at += count) {
      out.push({ key: String(out.length), columns: columns.slice(at, at + count), count: count });
    }
    return out;
  }

  function note(season) {
    const settings = season.settings || {};
    const meets = Object.entries(season.meets || {});
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
        el("span", { class: "number" }, item.number),
        item.row && item.row.playoff ? el("span", { class: "playoff-tag" }, "play-off") : null
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
        class: "list-row season-row" + (finals ? " band-qualified" : ""),
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

    const meets = meetIds(season);
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
    return el("div", { class: "ukpl-season", style: "display: contents" }, note(season), columns);
  }

  B.displayViews.ukpl_season = { title: "Season table", pages: pages, render: render };
})();
