/* UKPL adjustments on the hall display: ?views=machines,standings,ukpl_adjustments
 *
 * Draws the "adjustments" view (display/competitions/ukpl/views.py), latest first: what was decided (a fixed
 * jackpot, UKPL 2E; a fault, 6A/6C; a penalty, 7A; an extra ball, 7C; a slam tilt, 7D; a machine
 * substituted, 6A), for whom and on which machine, the score before and after, who decided and
 * why. A withdrawn adjustment is shown struck through; a fault waiting for its game says so. No
 * adjustments: no page.
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;

  const LABELS = {
    jackpot_adjusted: "Jackpot fixed",
    extra_ball_penalty: "Extra ball",
    slam_tilt: "Slam tilt",
    penalty: "Penalty",
    fault_replay: "Fault: replay",
    fault_one_ball: "Fault: one ball",
    machine_substituted: "Machine out",
  };
  const LEVELS = { zero: "zero", disqualify: "disqualified", ban_next: "next meet ban", ban_season: "season ban" };
  const ROW_EM = 2.75;

  function latestFirst(doc) {
    return Object.entries((doc && doc.rows) || {}).sort(([a], [b]) => Number(b) - Number(a));
  }

  function pages(views, ctx) {
    const rows = latestFirst(views.adjustments);
    if (!rows.length) return [];
    const stage = document.getElementById("stage");
    const font = parseFloat(getComputedStyle(stage).fontSize) || 16;
    const perColumn = Math.max(1, Math.min(Math.floor(stage.clientHeight / (ROW_EM * font)), ctx.config.rows || Infinity));
    const room = stage.clientWidth > 60 * font ? 2 : 1;
    const columns = Math.min(room, Math.ceil(rows.length / perColumn));
    const out = [];
    for (let at = 0; at < rows.length; at += perColumn * columns) {
      const chunk = rows.slice(at, at + perColumn * columns);
      const cols = [];
      for (let c = 0; c < chunk.length; c += perColumn) cols.push(chunk.slice(c, c + perColumn).map(([seq]) => seq));
      out.push({ key: String(out.length), columns: cols, count: columns });
    }
    return out;
  }

  function machineName(views, id) {
    return ((views.machines || {})[id] || {}).name || (id ? "Machine " + id : "");
  }

  function change(row, views) {
    if (row.type === "machine_substituted") return "→ " + machineName(views, row.substitute);
    const effects = Object.values(row.effects || {});
    if (row.status === "pending") return "awaiting the game";
    if (effects.length !== 1) return effects.length ? effects.length + " machines" : "";
    const e = effects[0];
    const before = e.before === undefined ? "no game" : B.fmt.score(e.before);
    const after = e.after === undefined ? "does not count" : B.fmt.score(e.after);
    return before + " → " + after;
  }

  function what(row) {
    const label = LABELS[row.type] || row.type;
    return row.type === "penalty" ? label + ": " + (LEVELS[row.level] || row.level) : label;
  }

  function line(seq, views) {
    const row = views.adjustments.rows[seq];
    const who = row.player ? B.player(views, row.player) : null;
    const machine = row.machine ? machineName(views, row.machine) : "";
    const withdrawn = row.status === "withdrawn";
    const by = (row.by || "").replace(/^[a-z]+:/, "");
    const why = withdrawn ? ["Withdrawn: " + row.withdrawn.reason + " · it said: " + row.reason] : [row.reason];
    return el(
      "div",
      { class: "adjust-row" + (withdrawn ? " withdrawn" : ""), dataset: { seq: seq, status: row.status } },
      el("span", { class: "what" }, what(row)),
      el(
        "span",
        { class: "who" },
        el("span", { class: "name" }, who ? who.name : machine),
        who ? el("span", { class: "number" }, row.player) : null,
        row.status === "pending" ? el("span", { class: "state" }, "pending") : null
      ),
      el("span", { class: "change" }, change(row, views)),
      el("span", { class: "why" }, who && machine ? [el("b", {}, machine), " · "] : null, why, " — " + by)
    );
  }

  function render(page, views) {
    return page.columns.map((column) => el("div", { class: "column" }, column.map((seq) => line(seq, views))));
  }

  B.displayViews.ukpl_adjustments = { title: "Adjustments", pages: pages, render: render };
})();
