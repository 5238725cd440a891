/* EPC Country Competition: group tables, the qualifying table and the group matches (display plugin
 * "country_groups"; the phones' page /t/{tid}/country draws the same blocks in one column).
 * Reads views "teams", "country/groups" and "country/fixtures" (display/competitions/epc_country/views.py).
 * Pages: groups (each group's teams: match points, 4-ball points, total, overall place), the
 * qualifying table (all teams, the six finalists above the line), the group matches with results.
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const FLASH_MS = 3000;

  /* ---------- reading the views ---------- */

  function team(views, id) {
    return ((views.teams || {})[id] || {}).name || id;
  }

  function groupsDoc(views) {
    return views["country/groups"] || { groups: {}, rows: {} };
  }

  function groupNames(views) {
    return Object.entries(groupsDoc(views).groups || {})
      .sort(([, a], [, b]) => a.order - b.order)
      .map(([name]) => name);
  }

  function ranked(rows) {
    return Object.entries(rows).sort(
      ([ta, a], [tb, b]) => a.place - b.place || (a.seed || 0) - (b.seed || 0) || B.byNumber(ta, tb)
    );
  }

  function fixturesOf(views, group) {
    return Object.entries(views["country/fixtures"] || {})
      .filter(([, f]) => f.group === group)
      .sort(([, a], [, b]) => a.order - b.order);
  }

  function done(f) {
    return f.status === "played" || f.status === "forfeit";
  }

  /* ---------- highlights: a row whose figures changed flashes once when drawn ---------- */

  const { flash, settle } = B.rowFlash(FLASH_MS); // one tracker per view

  /* ---------- blocks ---------- */

  function placeLabel(row, rows) {
    const shared = Object.values(rows).filter((r) => r.place === row.place).length > 1;
    return row.place + (shared ? "=" : "");
  }

  function decidedTag(el, row) {
    if (row.pending) return el("span", { class: "cc-tag hot" }, "play-off");
    if (row.decided_by === "four_ball") return el("span", { class: "cc-tag" }, "4-ball");
    if (row.decided_by === "playoff") return el("span", { class: "cc-tag" }, "play-off");
    return null;
  }

  function teamRow(ctx, views, id, row, rows, showGroup) {
    const el = ctx.el;
    const f = flash("g:" + id, [row.total, row.match_points, row.four_ball_points, row.place].join("|"));
    const band = row.pending ? " tie" : row.qualified ? " in" : "";
    return settle(
      el(
        "div",
        {
          class: "cc-row cc-team" + band + (f.cls || "") + (ctx.team === id ? " mine" : ""),
          style: f.style,
          dataset: { team: id, decided: row.decided_by },
        },
        el("span", { class: "place" }, placeLabel(row, rows)),
        el(
          "span",
          { class: "cc-name" },
          el("span", { class: "name" }, team(views, id)),
          showGroup ? el("span", { class: "cc-tag" }, row.group) : null,
          decidedTag(el, row)
        ),
        el("span", { class: "pl" }, row.played),
        el("span", { class: "m" }, B.fmt.points(row.match_points)),
        el("span", { class: "fb" }, B.fmt.points(row.four_ball_points)),
        el("span", { class: "total" }, B.fmt.points(row.total))
      ),
      f
    );
  }

  function columnsHead(el) {
    return el(
      "div",
      { class: "cc-row cc-team cc-cols" },
      el("span", { class: "place" }, "#"),
      el("span", {}, "Team"),
      el("span", { class: "pl" }, "Pl"),
      el("span", {}, "Match"),
      el("span", {}, "4-ball"),
      el("span", {}, "Total")
    );
  }

  /* Items ``from``..``to`` of ``list`` (all of it without them), the first ones again past its
   * end: a part of a card on the hall display, drawn longer while it is measured. */
  function part(list, from, to) {
    if (from === undefined) return list;
    return Array.from({ length: list.length ? Math.max(0, to - from) : 0 }, (_, i) => list[(from + i) % list.length]);
  }

  /* "4/6 matches", or "continued" on a part after a card's first. */
  function metaOf(from, text) {
    return from > 0 ? "continued" : text;
  }

  function groupCard(ctx, views, name, from, to) {
    const el = ctx.el;
    const doc = groupsDoc(views);
    const rows = Object.fromEntries(Object.entries(doc.rows).filter(([, r]) => r.group === name));
    const matches = fixturesOf(views, name);
    return el(
      "section",
      { class: "cc-card", dataset: { group: name } },
      el(
        "header",
        { class: "cc-head" },
        el("span", { class: "cc-title" }, "Group " + name),
        el("span", { class: "cc-meta" }, metaOf(from, matches.filter(([, f]) => done(f)).length + "/" + matches.length + " matches"))
      ),
      columnsHead(el),
      part(ranked(rows), from, to).map(([id, row]) => teamRow(ctx, views, id, row, doc.rows, false))
    );
  }

  function matchRow(ctx, views, id, f) {
    const el = ctx.el;
    let result = "slot " + f.slot;
    if (done(f)) result = B.fmt.points(f.home_points) + "–" + B.fmt.points(f.away_points);
    else if (f.status === "playing") {
      const games = Object.values(f.games || {});
      const home = games.reduce((s, g) => s + g.home_points, 0);
      const away = games.reduce((s, g) => s + g.away_points, 0);
      result = games.length ? B.fmt.points(home) + "–" + B.fmt.points(away) + " …" : "playing";
    }
    const sig = [f.status, f.home_points, f.away_points, Object.keys(f.games || {}).length].join("|");
    const fl = flash("f:" + id, sig);
    const winner = done(f) && f.home_points !== f.away_points ? (f.home_points > f.away_points ? "home" : "away") : "";
    const mine = ctx.team && (f.home === ctx.team || f.away === ctx.team);
    return settle(
      el(
        "div",
        {
          class: "cc-row cc-match " + f.status + (fl.cls || "") + (mine ? " mine" : ""),
          style: fl.style,
          dataset: { fixture: id, status: f.status },
        },
        el("span", { class: "rnd" }, "R" + f.round),
        el("span", { class: "cc-name home" + (winner === "home" ? " win" : "") }, el("span", { class: "name" }, team(views, f.home))),
        el("span", { class: "res" }, result, f.status === "forfeit" ? el("span", { class: "cc-tag" }, "pen") : null),
        el("span", { class: "cc-name away" + (winner === "away" ? " win" : "") }, el("span", { class: "name" }, team(views, f.away)))
      ),
      fl
    );
  }

  function matchesCard(ctx, views, name, from, to) {
    const el = ctx.el;
    const matches = fixturesOf(views, name);
    return el(
      "section",
      { class: "cc-card", dataset: { matches: name } },
      el(
        "header",
        { class: "cc-head" },
        el("span", { class: "cc-title" }, "Group " + name + " matches"),
        el("span", { class: "cc-meta" }, metaOf(from, matches.filter(([, f]) => done(f)).length + "/" + matches.length + " played"))
      ),
      part(matches, from, to).map(([id, f]) => matchRow(ctx, views, id, f))
    );
  }

  /* The qualifying table's lines, best first, with a line under the finalists (or the tie at the
   * cut): [node, ...], a team's row or a line each. */
  function tableBody(ctx, views) {
    const el = ctx.el;
    const doc = groupsDoc(views);
    const list = ranked(doc.rows);
    const body = [];
    list.forEach(([id, row], i) => {
      const previous = i > 0 ? list[i - 1][1] : null;
      if (i === 0 || (previous && previous.qualified && !row.qualified)) {
        if (row.qualified) body.push(el("div", { class: "cc-line" }, "Final · top " + doc.finalists));
        else if (row.pending) body.push(el("div", { class: "cc-line tie" }, "Tie at the cut · play-off"));
        else body.push(el("div", { class: "cc-line out" }, "Out"));
      } else if (previous && previous.pending && !row.pending) {
        body.push(el("div", { class: "cc-line out" }, "Out"));
      }
      body.push(teamRow(ctx, views, id, row, doc.rows, true));
    });
    return body;
  }

  /* The qualifying table, lines ``from``..``to`` of tableBody (all without them). */
  function tableCard(ctx, views, from, to) {
    const el = ctx.el;
    const doc = groupsDoc(views);
    const body = tableBody(ctx, views);
    const lines = [];
    for (let i = from === undefined ? 0 : from; i < (to === undefined ? body.length : to) && body.length; i++) {
      // past the end while measuring: drawn anew (a node is in one place only)
      lines.push(i < body.length ? body[i] : tableBody(ctx, views)[i % body.length]);
    }
    const note = doc.played < doc.matches ? doc.played + " of " + doc.matches + " matches played" : "all matches played";
    return el(
      "section",
      { class: "cc-card", dataset: { table: from || 0 } },
      el("header", { class: "cc-head" }, el("span", { class: "cc-title" }, "Qualifying"), el("span", { class: "cc-meta" }, metaOf(from, note))),
      columnsHead(el),
      lines
    );
  }

  function waiting(ctx, views) {
    const draw = (views.tournament || {}).draw || { registered: 0, needed: 20 };
    return ctx.el(
      "div",
      { class: "cc-wait" },
      ctx.el("strong", {}, draw.registered + " / " + draw.needed),
      "seeded teams registered — the groups are drawn when all are in"
    );
  }

  /* ---------- pages ---------- */

  const CARD_EM = 20; // a group's card's narrowest readable column, in the board's em

  /* The hall display's pages of one kind: ``items`` [{key, rows}] packed into columns of the
   * stage's height (display.js packColumns, so a far reading distance gives fewer rows a page),
   * up to two columns a page (fewer where CARD_EM does not fit twice). */
  function packed(ctx, kind, items) {
    const across = Math.min(2, ctx.columns(CARD_EM));
    const columns = ctx.packColumns(items, (parts) => columnNode(ctx, ctx.views, kind, parts, across), across);
    const out = [];
    for (let i = 0; i < columns.length; i += across) {
      out.push({ key: kind + ":" + out.length, kind: kind, columns: columns.slice(i, i + across), count: across, across: across });
    }
    return out;
  }

  /* A table on one page in one of two columns: in two halves, side by side, as it reads best. */
  function halves(list) {
    if (list.length !== 1 || list[0].count !== 2 || list[0].columns.length !== 1) return list;
    const [{ key, from, to }] = list[0].columns[0];
    const half = from + Math.ceil((to - from) / 2);
    return [{ ...list[0], columns: [[{ key, from, to: half }], [{ key, from: half, to }]] }];
  }

  function pages(views, ctx) {
    const names = groupNames(views);
    if (names.length === 0) return [{ key: "wait", kind: "wait", columns: [[]], count: 1 }];
    const teams = Object.keys(groupsDoc(views).rows).length;
    if (ctx.phone) {
      return [
        { key: "groups", kind: "groups", columns: [names], count: 1 },
        { key: "table", kind: "table", columns: [[[0, teams]]], count: 1 },
        { key: "matches", kind: "matches", columns: [names], count: 1 },
      ];
    }
    const inGroup = (name) => Object.values(groupsDoc(views).rows).filter((r) => r.group === name).length;
    const drawing = { ...ctx, views: views };
    return [
      ...packed(drawing, "groups", names.map((name) => ({ key: name, rows: inGroup(name) }))),
      ...halves(packed(drawing, "table", [{ key: "table", rows: tableBody(ctx, views).length }])),
      ...packed(drawing, "matches", names.map((name) => ({ key: name, rows: fixturesOf(views, name).length }))),
    ];
  }

  /* A column of the hall display's parts [{key, from, to}] of one kind. */
  function columnNode(ctx, views, kind, parts, across) {
    const block = {
      groups: (p) => groupCard(ctx, views, p.key, p.from, p.to),
      matches: (p) => matchesCard(ctx, views, p.key, p.from, p.to),
      table: (p) => tableCard(ctx, views, p.from, p.to),
    }[kind];
    return ctx.el("div", { class: "column" + (across === 1 ? " cc-narrow" : "") }, parts.map(block));
  }

  function render(page, views, ctx) {
    if (page.kind === "wait") return waiting(ctx, views);
    if (!ctx.phone) return page.columns.map((parts) => columnNode(ctx, views, page.kind, parts, page.count));
    const block = {
      groups: (name) => groupCard(ctx, views, name),
      matches: (name) => matchesCard(ctx, views, name),
      table: (range) => tableCard(ctx, views),
    }[page.kind];
    return page.columns.map((column) => ctx.el("div", { class: "column" }, column.map(block)));
  }

  B.displayViews.country_groups = { title: "Team groups", pages: pages, render: render };
})();
