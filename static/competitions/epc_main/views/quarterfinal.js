/* EPC quarter-finals on the hall display (EPC 2009, EPC Quarter-Finals): the pairs with their
 * machines and running points, each machine's table (the better of two games, ranking points),
 * and the quarter-final table with the top 8 marked for the semi-finals. View "quarterfinal". */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;
  const ROWS_PER_COLUMN = 17;
  const MACHINE_EM = 16; // a machine table's narrowest readable column, in the board's em
  const TABLE_EM = 24; // the quarter-final table's

  function qf(views) {
    return views.quarterfinal || null;
  }

  /* The player of a seed: who plays it once their round started, else the qualifier. */
  function seatOf(doc, seed) {
    const s = (doc.seeds || {})[seed] || {};
    return { number: s.player || s.qualifier, seat: s };
  }

  function pairCard(views, doc, key, pair) {
    const K = B.epc;
    const rows = pair.seeds.map((seed) => {
      const { number, seat } = seatOf(doc, seed);
      if (!number) return el("div", { class: "epc-row epc-empty" }, "Seed " + seed + ": vacant");
      const row = (doc.rows || {})[number] || {};
      const started = doc.round >= (seat.group === "B" ? 1 : 2);
      const tag = seat.replaced
        ? el("span", { class: "epc-tag warn" }, "for #" + seat.qualifier)
        : !started && seat.registered
          ? el("span", { class: "epc-tag good" }, "here")
          : null;
      return el(
        "div",
        { class: "epc-row", dataset: { player: number } },
        el("span", { class: "seed" }, seed),
        K.who(views, number, tag),
        el("span", { class: "note" }, (row.games || 0) + "/6"),
        el("span", { class: "points" }, B.fmt.points(row.total || 0))
      );
    });
    const machines = pair.machines.map((m) => K.machineName(views, m)).join(" · ");
    const done = pair.seeds.every((seed) => ((doc.rows || {})[seatOf(doc, seed).number] || {}).games === 6);
    return K.panel("Pair " + key, done ? "done" : "", [el("div", { class: "epc-sub" }, machines), ...rows], "epc-pair");
  }

  function machineCard(views, id, rows) {
    const K = B.epc;
    const body = rows.map(([number, row]) =>
      el(
        "div",
        { class: "epc-row", dataset: { player: number } },
        el("span", { class: "place" }, row.place),
        K.who(views, number),
        el("span", { class: "score" }, B.fmt.score(row.score), row.games < 2 ? el("span", { class: "epc-tag" }, "1 of 2") : null),
        el("span", { class: "points" }, B.fmt.points(row.points))
      )
    );
    if (rows.length === 0) body.push(el("div", { class: "epc-row epc-empty" }, "No games yet"));
    const doc = views["quarterfinal/" + id] || {};
    return K.panel(K.machineName(views, id), (doc.games || 0) + " games", body);
  }

  function tableColumn(views, rows, from, to) {
    const K = B.epc;
    return K.panel(
      "Quarter-final table",
      from > 0 ? "places " + (from + 1) + "–" + Math.min(to, rows.length) : "top 8 to the semi-finals",
      rows.slice(from, to).map(([number, row]) =>
        el(
          "div",
          {
            class: "epc-row" + (row.band === "semifinal" ? " epc-up" : row.band === "playoff" ? " epc-down" : ""),
            dataset: { player: number },
          },
          el("span", { class: "place" }, row.place),
          K.who(views, number, el("span", { class: "epc-tag" }, "seed " + row.seed)),
          el("span", { class: "note" }, (row.games || 0) + "/6"),
          el("span", { class: "points" }, B.fmt.points(row.total))
        )
      )
    );
  }

  function sortedRows(rows) {
    return Object.entries(rows || {}).sort(
      ([pa, a], [pb, b]) => (a.place || 1e9) - (b.place || 1e9) || B.byNumber(pa, pb)
    );
  }

  B.displayViews.quarterfinal = {
    title: "Quarter-finals",
    pages(views, ctx) {
      const doc = qf(views);
      if (!doc) return [];
      const pages = [{ key: "pairs", kind: "pairs", count: 1 }];
      const ids = Object.entries(doc.machines || {}).sort((a, b) => a[1].order - b[1].order).map(([id]) => id);
      // two machine tables a column (12 rows each for 32 players on 8 machines), up to four
      // columns, fewer where the screen or a name needs the width (display.js ctx.columns)
      const across = ctx && ctx.columns ? Math.min(4, ctx.columns(MACHINE_EM)) : 4;
      for (let at = 0; at < ids.length; at += 2 * across) {
        const columns = [];
        for (let c = at; c < Math.min(at + 2 * across, ids.length); c += 2) columns.push(ids.slice(c, c + 2));
        pages.push({ key: "machines-" + at / (2 * across), kind: "machines", columns: columns, count: across });
      }
      const table = sortedRows(doc.rows);
      const parts = [];
      for (let at = 0; at < table.length; at += ROWS_PER_COLUMN) parts.push({ from: at, to: at + ROWS_PER_COLUMN });
      const tables = ctx && ctx.columns ? Math.min(2, ctx.columns(TABLE_EM)) : 2;
      for (let at = 0; at < parts.length; at += tables) {
        pages.push({ key: "table-" + at / tables, kind: "table", columns: parts.slice(at, at + tables), count: tables });
      }
      return pages;
    },
    render(page, views) {
      const doc = qf(views) || {};
      if (page.kind === "pairs") {
        const pairs = Object.entries(doc.pairs || {}).sort(
          (a, b) => (a[1].group === b[1].group ? a[1].order - b[1].order : a[1].group === "B" ? -1 : 1)
        );
        const items = [];
        let group = null;
        let cards = null; // each group's pairs in a grid of their own, sharing the width
        for (const [key, pair] of pairs) {
          if (pair.group !== group) {
            group = pair.group;
            const round = group === "B" ? 1 : 2;
            const state = doc.round < round ? "re-registration open" : doc.complete || round === 1 && doc.round === 2 ? "played" : "playing";
            items.push(el("div", { class: "epc-group-title" }, "Group " + group + " · round " + round + " · " + state));
            cards = el("div", { class: "epc-pair-grid" });
            items.push(cards);
          }
          cards.append(pairCard(views, doc, key, pair));
        }
        return el("div", { class: "epc-pairs" }, items);
      }
      if (page.kind === "machines") {
        return page.columns.map((ids) =>
          el(
            "div",
            { class: "column epc-machines" },
            ids.map((id) => machineCard(views, id, sortedRows((views["quarterfinal/" + id] || {}).rows)))
          )
        );
      }
      const rows = sortedRows(doc.rows);
      return page.columns.map((c) => el("div", { class: "column" }, tableColumn(views, rows, c.from, c.to)));
    },
  };
})();
