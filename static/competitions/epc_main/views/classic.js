/* The EPC Classic on the hall display (EPC 2009, EPC Classic Tournament): who holds each of the
 * eight machines and by how much, then the two semi-finals and the final. View "classic". */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;
  const SLOT_EM = 22; // half of a board line's narrowest width, in the board's em

  /* "+100,000 over Player 3": the runner-up's name as a name, so the board shortens it ("B. Smith")
   * rather than cut it where the cell is narrow; a narrow board shows the margin only. */
  function leadText(views, place, kind) {
    if (!place.runner_up) return place.player ? "no one else yet" : "";
    const other = B.player(views, place.runner_up).name;
    const by = kind === "ratio" ? "×" + B.fmt.points(place.lead) : "+" + B.fmt.score(place.lead);
    return [
      el("span", { class: "by" }, by),
      el("span", { class: "over" }, " over "),
      el("span", { class: "who" }, el("span", { class: "name" }, other)),
    ];
  }

  /* The board's rows: a slot a row, then a note a fault. */
  function boardRows(views, doc) {
    const K = B.epc;
    const places = Object.entries(doc.places || {}).sort((a, b) => Number(a[0]) - Number(b[0]));
    const faults = doc.faults || {};
    const rows = places.map(([slot, place]) =>
      el(
        "div",
        { class: "epc-row" + (place.player && doc.closed ? " epc-up" : ""), dataset: { slot: slot } },
        el("span", { class: "place" }, slot),
        el("span", { class: "machine" }, K.machineName(views, place.machine)),
        place.player ? K.who(views, place.player) : el("span", { class: "none" }, "no score yet"),
        el("span", { class: "score" }, place.score === undefined ? "" : B.fmt.score(place.score)),
        el("span", { class: "lead" }, leadText(views, place, doc.lead))
      )
    );
    const notes = Object.entries(faults).map(([machine, f]) =>
      el(
        "div",
        { class: "epc-note warn" },
        K.machineName(views, machine) +
          (f.action === "replace"
            ? " replaced by " + K.machineName(views, f.replacement) + (f.free_games ? "; free game for " + f.free_games.map((n) => B.player(views, n).name).join(", ") : "")
            : " closed after a fault; its scores stand")
      )
    );
    return [...rows, ...notes];
  }

  /* The board, rows ``from``..``to`` (the first rows again past the end, when measuring);
   * ``narrow``: a slot on two lines (machine and score over the holder and the lead's margin),
   * where the five columns would not fit the width. */
  function board(views, doc, from, to, narrow) {
    const all = boardRows(views, doc);
    const rows = [];
    for (let i = from; i < to && all.length; i++) rows.push(i < all.length ? all[i] : boardRows(views, doc)[i % all.length]);
    const playing = doc.in_progress ? doc.in_progress + (doc.in_progress === 1 ? " game" : " games") + " in progress" : "qualifiers";
    const meta = from > 0 ? "continued" : doc.closed ? "qualifying closed · " + playing : "qualifying open · leaders now";
    const node = B.epc.panel("Classic qualifiers", meta, rows, "epc-slot" + (narrow ? " epc-slot-narrow" : ""));
    return el("div", { class: "column epc-big" + (B.epc.far() ? " epc-far" : "") }, node);
  }

  function label(place) {
    return place <= 2 ? ["Final", "epc-up"] : [B.epc.ordinal(place), "epc-out"];
  }

  function finalLabel(place) {
    return place === 1 ? ["Winner", "epc-up"] : [B.epc.ordinal(place), ""];
  }

  function games(views) {
    return Object.entries((views["classic/games"] || {}).games || {}).sort((a, b) => a[1].order - b[1].order);
  }

  function drawGame(views) {
    return (game, from, to) => {
      const machines = game.machine
        ? B.epc.machineName(views, game.machine)
        : game.machines
          ? "on " + game.machines.map((m) => B.epc.machineName(views, m)).join(" / ")
          : "";
      return B.epc.gamePanel(views, game, game.order === 3 ? finalLabel : label, machines, from, to);
    };
  }

  B.displayViews.classic = {
    title: "Classic",
    /* The board a column as wide as the stage, its slots on two lines where one line would not
     * fit (narrower than two columns of SLOT_EM), as many a page as the stage holds
     * (ctx.packColumns); the games as the semi-finals' (epc.js gamePages). */
    pages(views, ctx) {
      const doc = views.classic;
      if (!doc) return [];
      const narrow = ctx.columns(SLOT_EM) < 2;
      const rows = boardRows(views, doc).length;
      const parts = ctx.packColumns([{ key: "board", rows: rows }], (p) => board(views, doc, p[0].from, p[0].to, narrow), 1);
      const pages = parts.map((p, i) => ({ key: "board-" + i, kind: "board", from: p[0].from, to: p[0].to, narrow: narrow, count: 1 }));
      if (views["classic/games"]) {
        pages.push(...B.epc.gamePages(ctx, games(views), drawGame(views), "epc-compact").map((p) => ({ ...p, kind: "games" })));
      }
      return pages;
    },
    render(page, views) {
      if (page.kind === "board") return board(views, views.classic, page.from, page.to, page.narrow);
      return B.epc.gameColumns(page, games(views), drawGame(views), "epc-compact");
    },
  };
})();
