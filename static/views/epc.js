/* EPC stage views for the hall display: the shared kit (Backglass.epc) and the "epc" view, which
 * follows the tournament's current stage (quarter-finals -> semi-finals -> finals -> placings).
 *
 * The other EPC views (quarterfinal, semifinal, finals, placings, classic, kids) live beside this
 * file and use Backglass.epc when they draw (all plugin files load before the display starts).
 * Documents are the views of display/kinds/epc_main_views.py and display/epc_boards.py.
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;

  const CSS = `
.epc-panels { display: grid; grid-template-columns: repeat(var(--panels, 2), minmax(0, 1fr)); gap: 1.2em; }
.epc-panel { background: var(--panel); border: 1px solid var(--line); border-radius: .4em; overflow: hidden; }
.epc-panel-head { display: flex; justify-content: space-between; align-items: baseline; gap: .6em;
  padding: .25em .6em; background: var(--panel-2); border-bottom: 2px solid var(--accent); }
.epc-panel-title { font-weight: 800; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.epc-panel-meta { color: var(--muted); font-size: .75em; white-space: nowrap; }
.epc-row { display: grid; grid-template-columns: 2.4em minmax(0, 1fr) auto 3.2em; align-items: center;
  gap: .5em; height: 1.55em; padding: 0 .6em; border-left: .3em solid transparent; }
.epc-row:nth-child(even of .epc-row) { background: rgba(255, 255, 255, .035); }
.epc-row .place, .epc-row .seed { color: var(--muted); font-weight: 700; text-align: right; font-variant-numeric: tabular-nums; }
.epc-row .score { font-weight: 700; text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.epc-row .points { text-align: right; color: var(--accent); font-weight: 800; white-space: nowrap; font-variant-numeric: tabular-nums; }
.epc-row .note { color: var(--muted); font-size: .7em; text-align: right; white-space: nowrap; }
.epc-row.epc-up { border-left: .3em solid var(--qualify); background: rgba(52, 210, 122, .09); }
.epc-row.epc-down { border-left: .3em solid var(--standby); }
.epc-row.epc-out { color: var(--muted); }
.epc-row.epc-empty { grid-template-columns: 1fr; color: var(--dim); font-style: italic; }
.epc-game .epc-panel-head { font-size: 1.2em; }
.epc-game .epc-row { height: 3.4em; font-size: 1.15em; grid-template-columns: minmax(0, 1fr) auto 4.6em; }
.epc-compact .epc-game .epc-row { height: 2.45em; font-size: 1em; }
.epc-compact { gap: .8em 1.2em; }
.epc-who { display: flex; flex-direction: column; min-width: 0; line-height: 1.15; }
.epc-who .name { font-weight: 700; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.epc-sub-line { color: var(--muted); font-size: .6em; text-transform: uppercase; letter-spacing: .05em; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.epc-game .result { font-weight: 800; text-align: right; white-space: nowrap; font-size: .85em; }
.epc-tag { display: inline-block; font-size: .6em; padding: .05em .4em; border-radius: .3em; margin-left: .35em;
  border: 1px solid var(--dim); color: var(--muted); text-transform: uppercase; letter-spacing: .05em; vertical-align: .15em; }
.epc-tag.good { border-color: var(--qualify); color: var(--qualify); }
.epc-tag.warn { border-color: var(--standby); color: var(--standby); }
.epc-note { color: var(--muted); padding: .4em .6em; font-size: .8em; }
.epc-note.warn { color: var(--standby); }
.epc-pairs { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: .7em .9em; align-content: start; }
.epc-group-title { grid-column: 1 / -1; font-weight: 800; color: var(--accent); text-transform: uppercase;
  letter-spacing: .08em; font-size: .8em; margin-top: .2em; }
.epc-pair { font-size: .8em; }
.epc-pair .epc-row { grid-template-columns: 1.8em minmax(0, 1fr) 2.4em 2.6em; }
.epc-machines { font-size: .74em; }
.epc-machines .epc-row { grid-template-columns: 1.6em minmax(0, 1fr) auto 2.2em; height: 1.5em; }
.epc-sub { color: var(--muted); font-size: .72em; padding: .2em .8em; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; border-bottom: 1px solid var(--line); }
.epc-placings .epc-row { grid-template-columns: 2.6em minmax(0, 1fr) auto; }
.epc-trophy { color: var(--flash); margin-left: .3em; }
.epc-big { font-size: 1.2em; }
.epc-slot .epc-row { height: 2.1em; grid-template-columns: 1.6em minmax(0, 9em) minmax(0, 1fr) auto minmax(0, 11em); }
.epc-slot .machine { font-weight: 800; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.epc-slot .lead { color: var(--accent); font-size: .75em; text-align: right; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
`;

  function ensureStyle() {
    if (document.getElementById("epc-views-css")) return;
    document.head.append(el("style", { id: "epc-views-css" }, CSS));
  }

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
   * label(place) -> [text, cssClass] says what a place in the game means (e.g. "Final"). */
  function gamePanel(views, game, label, machineText) {
    const players = Object.entries(game.players || {}).sort((a, b) => a[1].choice - b[1].choice);
    const rows = players.map(([number, p]) => {
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
    });
    const notes = [];
    if (game.tie) notes.push(el("div", { class: "epc-note warn" }, "Tie: play-off to come (" + game.tie.join(", ") + ")"));
    const meta = machineText || (game.machine ? machineName(views, game.machine) : "");
    const title = game.name.charAt(0).toUpperCase() + game.name.slice(1);
    return panel(title, meta, [...rows, ...notes], "epc-game");
  }

  function stageOf(views) {
    return (views.stage || {}).stage || "";
  }

  window.Backglass.epc = {
    ensureStyle: ensureStyle,
    who: who,
    ordinal: ordinal,
    machineName: machineName,
    panel: panel,
    gamePanel: gamePanel,
    stageOf: stageOf,
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
