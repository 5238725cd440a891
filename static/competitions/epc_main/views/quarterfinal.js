/* EPC quarter-finals on the hall display (EPC 2009, EPC Quarter-Finals): the pairs with their
 * machines and running points, each machine's table (the better of two games, ranking points),
 * and the quarter-final table with the top 8 marked for the semi-finals. View "quarterfinal". */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;
  const MACHINE_EM = 16; // a machine table's narrowest readable column, in the board's em
  const TABLE_EM = 24; // the quarter-final table's
  const PAIR_EM = 18; // a pair's card's

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

  /* A machine's table, rows ``from``..``to`` of ``all`` (drawn again past its end when measuring). */
  function machineCard(views, id, all, from, to) {
    const K = B.epc;
    const rows = again(all, from, to);
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
    // a table with no games is one row; measured as more (to - from), it is drawn as that many
    for (let i = body.length; i < (all.length ? 0 : Math.max(1, to - from)); i++) {
      body.push(el("div", { class: "epc-row epc-empty" }, "No games yet"));
    }
    const doc = views["quarterfinal/" + id] || {};
    const meta = from > 0 ? "continued" : (doc.games || 0) + " games";
    return K.panel(K.machineName(views, id), meta, body);
  }

  /* Rows from..to of ``all``, the first ones again past its end (a probe of more rows). */
  function again(all, from, to) {
    if (all.length === 0) return [];
    return Array.from({ length: Math.max(0, to - from) }, (_, i) => all[(from + i) % all.length]);
  }

  function tableColumn(views, rows, from, to) {
    const K = B.epc;
    return K.panel(
      "Quarter-final table",
      from > 0 ? "places " + (from + 1) + "–" + Math.min(to, rows.length) : "top 8 to the semi-finals",
      again(rows, from, to).map(([number, row]) =>
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

  /* The pairs in units of one group's pairs a line (``across`` a line), in order: group B
   * (round 1) first. -> [{group, pairs: [[key, pair], ...]}] */
  function pairUnits(doc, across) {
    const pairs = Object.entries(doc.pairs || {}).sort(
      (a, b) => (a[1].group === b[1].group ? a[1].order - b[1].order : a[1].group === "B" ? -1 : 1)
    );
    const units = [];
    for (const entry of pairs) {
      const last = units[units.length - 1];
      if (last && last.group === entry[1].group && last.pairs.length < across) last.pairs.push(entry);
      else units.push({ group: entry[1].group, pairs: [entry] });
    }
    return units;
  }

  /* Units of pairs drawn: a group's title over its first line on the page, its lines in a grid
   * ``across`` wide (fewer where the group has fewer pairs, so they share the width). */
  function pairsNode(views, doc, units, across, titled) {
    const items = [];
    let group = null;
    let cards = null;
    for (const unit of units) {
      if (unit.group !== group || titled) {
        group = unit.group;
        const round = group === "B" ? 1 : 2;
        const state = doc.round < round ? "re-registration open" : doc.complete || round === 1 && doc.round === 2 ? "played" : "playing";
        items.push(el("div", { class: "epc-group-title" }, "Group " + group + " · round " + round + " · " + state));
        const inGroup = Object.values(doc.pairs || {}).filter((p) => p.group === group).length;
        cards = el("div", { class: "epc-pair-grid", style: "--across: " + Math.max(1, Math.min(across, inGroup)) });
        items.push(cards);
      }
      for (const [key, pair] of unit.pairs) cards.append(pairCard(views, doc, key, pair));
    }
    return el("div", { class: "epc-pairs" + (B.epc.far() ? " epc-far" : "") }, items);
  }

  /* Pages of ``columns`` (from ctx.packColumns), ``across`` a page. */
  function chunk(columns, across, make) {
    const pages = [];
    for (let at = 0; at < columns.length; at += across) pages.push(make(columns.slice(at, at + across), pages.length));
    return pages;
  }

  B.displayViews.quarterfinal = {
    title: "Quarter-finals",
    /* Every part laid out by the reading distance: pairs as many across as fit (ctx.columns)
     * and as many lines a page as the stage holds (ctx.fitRows); machine tables and the
     * quarter-final table packed into columns of the stage's height (ctx.packColumns), split
     * where one is longer than a column, so no row is ever off the stage. */
    pages(views, ctx) {
      const doc = qf(views);
      if (!doc) return [];
      const pages = [];
      const pairAcross = ctx.columns(PAIR_EM);
      const units = pairUnits(doc, pairAcross);
      if (units.length) {
        const sample = (n) => Array.from({ length: n }, () => units[0]);
        const perPage = ctx.fitRows((n) => pairsNode(views, doc, sample(n), pairAcross, true), 1);
        for (let at = 0; at < units.length; at += perPage) {
          const part = units.slice(at, at + perPage);
          pages.push({ key: "pairs-" + at / perPage, kind: "pairs", units: part, count: 1, across: pairAcross });
        }
      }
      const ids = Object.entries(doc.machines || {}).sort((a, b) => a[1].order - b[1].order).map(([id]) => id);
      const tableOf = (id) => sortedRows((views["quarterfinal/" + id] || {}).rows);
      // up to four columns of machine tables, fewer where the screen or a name needs the width
      const across = Math.min(4, ctx.columns(MACHINE_EM));
      const machineColumns = ctx.packColumns(
        ids.map((id) => ({ key: id, rows: tableOf(id).length })),
        (parts) => machineColumn(views, parts, tableOf),
        across
      );
      pages.push(...chunk(machineColumns, across, (columns, i) => ({ key: "machines-" + i, kind: "machines", columns: columns, count: across })));
      const table = sortedRows(doc.rows);
      const tables = Math.min(2, ctx.columns(TABLE_EM));
      const tableColumns = ctx.packColumns(
        [{ key: "table", rows: table.length }],
        (parts) => tableNode(views, table, parts),
        tables
      );
      pages.push(...chunk(tableColumns, tables, (columns, i) => ({ key: "table-" + i, kind: "table", columns: columns, count: tables })));
      return pages;
    },
    render(page, views) {
      const doc = qf(views) || {};
      if (page.kind === "pairs") return pairsNode(views, doc, page.units, page.across, false);
      if (page.kind === "machines") {
        const tableOf = (id) => sortedRows((views["quarterfinal/" + id] || {}).rows);
        return page.columns.map((parts) => machineColumn(views, parts, tableOf));
      }
      const rows = sortedRows(doc.rows);
      return page.columns.map((parts) => tableNode(views, rows, parts));
    },
  };

  function tableNode(views, rows, parts) {
    const far = B.epc.far() ? " epc-far" : "";
    return el("div", { class: "column epc-qf-table" + far }, parts.map((p) => tableColumn(views, rows, p.from, p.to)));
  }

  function machineColumn(views, parts, tableOf) {
    return el(
      "div",
      { class: "column epc-machines" + (B.epc.far() ? " epc-far" : "") },
      parts.map((p) => machineCard(views, p.key, tableOf(p.key), p.from, p.to))
    );
  }
})();
