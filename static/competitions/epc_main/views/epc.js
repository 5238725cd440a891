/* EPC stage views for the hall display: the shared kit (Backglass.epc) and the "epc" view, which
 * follows the tournament's current stage (quarter-finals -> semi-finals -> finals -> placings).
 *
 * The other EPC views (quarterfinal, semifinal, finals, placings, classic, kids) live beside this
 * file and use Backglass.epc when they draw (all plugin files load before the display starts).
 * Documents are the views of display/competitions/epc_main/views.py and display/competitions/epc_main/boards.py.
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;
  const GAME_EM = 20; // a game panel's narrowest readable column, in the board's em

  function who(views, number, extra) {
    const p = B.player(views, number);
    return el(
      "span",
      { class: "who" },
      el("span", { class: "name" }, p.name),
      el("span", { class: "number" }, number),
      extra || null
    );
  }

  function ordinal(n) {
    const s = ["th", "st", "nd", "rd"];
    const v = n % 100;
    return n + (s[(v - 20) % 10] || s[v] || s[0]);
  }

  function machineName(views, id) {
    return id ? ((views.machines || {})[id] || {}).name || "Machine " + id : "";
  }

  function panel(title, meta, rows, extraClass) {
    return el(
      "section",
      { class: "epc-panel" + (extraClass ? " " + extraClass : "") },
      el(
        "header",
        { class: "epc-panel-head" },
        el("span", { class: "epc-panel-title" }, title),
        el("span", { class: "epc-panel-meta" }, meta || "")
      ),
      rows
    );
  }

  /* A four-player game: players in the order they choose a position, with scores and results.
   * label(place) -> [text, cssClass] says what a place in the game means (e.g. "Final").
   * ``from``..``to`` (optional): that part of its rows (the players, then a tie's note), rows
   * drawn again past the end while measuring (gamePages); a part after the first says so. */
  function gamePanel(views, game, label, machineText, from, to) {
    const players = Object.entries(game.players || {}).sort((a, b) => a[1].choice - b[1].choice);
    const playerRow = ([number, p]) => {
      const result = p.place ? label(p.place) : null;
      const sub = [ordinal(p.choice) + " pick", p.seed ? "QF " + ordinal(p.seed) : null, "#" + number];
      return el(
        "div",
        { class: "epc-row" + (result ? " " + result[1] : ""), dataset: { player: number } },
        el(
          "span",
          { class: "epc-who" },
          el("span", { class: "name" }, B.player(views, number).name),
          el("span", { class: "epc-sub-line" }, sub.filter(Boolean).join(" · "))
        ),
        el("span", { class: "score" }, p.score === undefined ? "–" : B.fmt.score(p.score)),
        el("span", { class: "result" }, result ? result[0] : "")
      );
    };
    const all = players.map(playerRow);
    if (game.tie) all.push(el("div", { class: "epc-note warn" }, "Tie: play-off to come (" + game.tie.join(", ") + ")"));
    const start = from || 0;
    const end = to === undefined ? all.length : to;
    const rows = [];
    for (let i = start; i < end && all.length; i++) rows.push(i < all.length ? all[i] : playerRow(players[i % players.length]));
    const meta = start > 0 ? "continued" : machineText || (game.machine ? machineName(views, game.machine) : "");
    const title = game.name.charAt(0).toUpperCase() + game.name.slice(1);
    return panel(title, meta, rows, "epc-game");
  }

  /* Rows of a game panel: its players and a tie's note (gamePanel's parts count these). */
  function gameRows(game) {
    return Object.keys(game.players || {}).length + (game.tie ? 1 : 0);
  }

  /* Pages of four-player games laid out by the reading distance: up to two columns (as many as
   * fit GAME_EM each, ctx.columns), games packed into them by height (ctx.packColumns), a game
   * split where it is longer than the stage. games: [[key, game]] in order; draw(game, from,
   * to) -> its panel (gamePanel). -> [{key, columns: [[{key, from, to}]], count}] */
  function gamePages(ctx, games, draw, wrap) {
    const across = Math.min(2, ctx.columns(GAME_EM));
    const byKey = Object.fromEntries(games);
    const columns = ctx.packColumns(
      games.map(([key, game]) => ({ key: key, rows: gameRows(game) })),
      (parts) => gameColumn(parts, byKey, draw, wrap),
      across
    );
    const pages = [];
    for (let at = 0; at < columns.length; at += across) {
      pages.push({ key: "games-" + pages.length, columns: columns.slice(at, at + across), count: across });
    }
    return pages;
  }

  /* One column of game panels (parts from gamePages), in the view's ``wrap`` class. */
  function gameColumn(parts, byKey, draw, wrap) {
    return el(
      "div",
      { class: "column " + (wrap || "") + (far() ? " epc-far" : "") },
      parts.map((p) => draw(byKey[p.key], p.from, p.to))
    );
  }

  /* A page of gamePages drawn. */
  function gameColumns(page, games, draw, wrap) {
    const byKey = Object.fromEntries(games);
    return page.columns.map((parts) => gameColumn(parts, byKey, draw, wrap));
  }

  /* True when the reading distance made the board's font larger than the board as designed
   * (display.js marks the board data-far): the design's own enlargements of a view (.epc-big, a
   * game's taller rows) would then only cost rows and room for names, so views mark their root
   * "epc-far" and views.css drops them; the text stays at least the distance's size. */
  function far() {
    const board = document.getElementById("display");
    return board !== null && board.hasAttribute("data-far");
  }

  function stageOf(views) {
    return (views.stage || {}).stage || "";
  }

  window.Backglass.epc = {
    who: who,
    ordinal: ordinal,
    machineName: machineName,
    panel: panel,
    gamePanel: gamePanel,
    gamePages: gamePages,
    gameColumns: gameColumns,
    stageOf: stageOf,
    far: far,
  };

  /* "epc": whichever stage view is current. */
  const FOLLOW = { quarterfinal: "quarterfinal", semifinal: "semifinal", final: "finals", complete: "placings" };
  function current(views) {
    const name = FOLLOW[stageOf(views)];
    return name ? B.displayViews[name] : null;
  }
  B.displayViews.epc = {
    title: "EPC",
    pages(views, ctx) {
      const view = current(views);
      if (!view) return [];
      return view.pages(views, ctx).map((page) => ({ ...page, key: stageOf(views) + "-" + page.key }));
    },
    render(page, views, ctx) {
      const view = current(views);
      return view ? view.render(page, views, ctx) : el("div", {}, "");
    },
  };
})();
