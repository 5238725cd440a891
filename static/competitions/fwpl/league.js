/* The players' league page on a phone (FWPL): tonight's groups (machine, play order, points per
 * game, match bonus; FWPL 3.2, 3.3, 5, 5.2), the season table with week-by-week points and the
 * playoff line (3.3, 4.3, 6.1), and the playoff bracket (6.3). Everything comes from the live views.
 * ``?player=N`` marks that player's rows and opens the tab where they are playing.
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;
  const config = B.pageConfig();
  const me = config.player || null;
  const ROUND_TITLES = { quarterfinal: "Quarter-final", semifinal: "Semi-final", final: "Final" };

  const $ = (id) => document.getElementById(id);
  let tab = null;
  let open = null; // the player whose season line is open

  const live = new B.Live(config.tournament, {
    onchange: () => render(),
    onstatus: (connected, age) => B.showStatus($("status"), connected, age),
  });
  const views = () => live.views;
  const name = (n) => B.player(views(), n).name;
  const machineName = (id) => ((views().machines || {})[id] || {}).name || id;
  const mine = (n) => (n === me ? " me" : "");

  for (const button of document.querySelectorAll("#tabs [data-tab]")) {
    button.addEventListener("click", () => {
      tab = button.dataset.tab;
      render();
    });
  }

  function who(n) {
    return el("span", { class: "who" }, el("span", { class: "name" }, name(n)), el("span", { class: "number" }, n));
  }

  /* ---------- tonight ---------- */

  function groupNode(number, group, games) {
    const rows = Object.entries(group.players).sort(([a, pa], [b, pb]) =>
      group.complete ? (pa.place || 9) - (pb.place || 9) : (pa.order || 9) - (pb.order || 9) || pa.seed - pb.seed
    );
    let status;
    if (group.complete) status = "Match complete";
    else if (group.machine)
      status =
        "Game " + group.game_no + " on " + machineName(group.machine) +
        (group.replay_pending ? " (replay pending: " + group.dead.map(machineName).join(", ") + " died)" : "") +
        (group.waiting ? " (waiting)" : "");
    else status = "Game " + group.game_no + ": " + (group.picker ? name(group.picker) : "the group") + " picks the machine";
    const head = el(
      "div",
      { class: "nt-row head" },
      el("span", {}, group.complete ? "#" : "Up"),
      el("span", {}, "Player"),
      Array.from({ length: games }, (_, i) => el("span", { class: "g", title: ((group.games || {})[i + 1] || {}).machine ? machineName(group.games[i + 1].machine) : "" }, "G" + (i + 1))),
      el("span", { class: "g" }, "MB"),
      el("span", { class: "g" }, "Tot")
    );
    const body = rows.map(([player, row]) =>
      el(
        "div",
        { class: "nt-row" + mine(player), dataset: { player: player } },
        el("span", { class: "pos" }, group.complete ? row.place || "" : row.order || ""),
        who(player),
        Array.from({ length: games }, (_, i) => {
          const game = (group.games || {})[i + 1];
          const cell = game && game.rows[player];
          if (!cell) return el("span", { class: "g" }, "");
          if (cell.forfeit) return el("span", { class: "g muted" }, "–");
          return el("span", { class: "g", title: B.fmt.score(cell.score) }, cell.points, cell.bonus ? el("span", { class: "star" }, "★") : null);
        }),
        el("span", { class: "g bonus" }, row.bonus ? "+" + row.bonus : ""),
        el("span", { class: "g tot" }, B.fmt.points(row.total))
      )
    );
    const machines = Object.entries(group.games || {}).map(([n, g]) => "G" + n + " " + machineName(g.machine));
    return el(
      "section",
      { class: "card", dataset: { group: number } },
      el("h2", {}, el("span", { class: "title" }, "Group " + number), el("span", { class: "status-line" }, status)),
      head,
      body,
      el("p", { class: "machines" }, machines.join(" · "))
    );
  }

  function renderTonight() {
    const t = views().tournament || {};
    const doc = t.week ? views()["night/" + t.week] : null;
    if (!doc) return [el("p", { class: "muted" }, "No league night yet.")];
    const games = t.games || 4;
    const numbers = Object.keys(doc.groups).sort((a, b) => a - b);
    if (me) numbers.sort((a, b) => (me in doc.groups[b].players) - (me in doc.groups[a].players));
    return [
      el("h1", {}, "Week " + doc.week + (doc.closed ? " · final" : " · tonight")),
      ...numbers.map((n) => groupNode(n, doc.groups[n], games)),
    ];
  }

  /* ---------- season ---------- */

  function seasonRows(doc) {
    return Object.entries(doc.rows || {}).sort(([a, ra], [b, rb]) => {
      const pa = typeof ra.place === "number" ? ra.place : Infinity;
      const pb = typeof rb.place === "number" ? rb.place : Infinity;
      return pa - pb || (ra.ladder || 1e9) - (rb.ladder || 1e9) || (rb.points || 0) - (ra.points || 0) || B.byNumber(a, b);
    });
  }

  function renderSeason() {
    const doc = views().season;
    if (!doc) return [el("p", { class: "muted" }, "Loading…")];
    const rows = seasonRows(doc);
    const label = B.placeLabels(rows);
    const cut = Object.entries((doc.cut || {}).divisions || {}).sort(([, a], [, b]) => a.order - b.order);
    // rows above a line -> its words. A line through equal places (info.tie, FWPL 6.1) is drawn
    // above the tied run with the tie's note: none of those players is in until their play-off.
    const lines = new Map();
    const tied = new Set();
    let seats = 0;
    for (const [division, info] of cut) {
      seats += info.size;
      const name = (doc.cut.final ? "Division " : "Playoffs · division ") + division;
      if (info.tie) {
        lines.set(info.tie.place - 1, name + " · " + info.tie.note + " (" + info.tie.players.join(", ") + ")");
        info.tie.players.forEach((p) => tied.add(p));
      } else {
        lines.set(seats, name);
      }
    }
    const cutLine = (text) => el("li", { class: "cut-line" + (text.includes(" · tie at the cut") ? " cut-tie" : "") }, "▲ " + text);
    const out = [el("h1", {}, "Season · week " + doc.week + " of " + doc.weeks)];
    const list = el("ol", { class: "season", "aria-label": "Season table" });
    rows.forEach(([player, row], index) => {
      const weeks = Object.entries(row.weeks || {}).sort(([a], [b]) => a - b);
      const item = el(
        "li",
        { class: "season-row" + mine(player) + (typeof row.place === "number" ? "" : " unranked") + (tied.has(player) ? " tied-cut" : ""), dataset: { player: player } },
        el(
          "button",
          { type: "button", class: "season-line", "aria-expanded": open === player ? "true" : "false", onclick: () => { open = open === player ? null : player; render(); } },
          el("span", { class: "place" }, label(row)),
          who(player),
          el("span", { class: "pts" }, B.fmt.points(row.points))
        ),
        open === player
          ? el(
              "div",
              { class: "season-detail" },
              el("div", {}, row.nights + " nights · " + row.forfeits + " forfeits" + (row.credit ? " · absence credit " + B.fmt.points(row.credit) : "") + (row.status !== "active" ? " · " + row.status : "")),
              el("div", { class: "weeks" }, weeks.map(([w, p]) => el("span", {}, "W" + w + " ", el("strong", {}, B.fmt.points(p)))))
            )
          : null
      );
      if (index === 0 && lines.has(0)) list.append(cutLine(lines.get(0)));
      list.append(item);
      if (lines.has(index + 1) && index + 1 < rows.length) list.append(cutLine(lines.get(index + 1)));
    });
    out.push(list);
    return out;
  }

  /* ---------- playoffs ---------- */

  function renderPlayoffs() {
    const doc = views().bracket;
    if (!doc) return [el("p", { class: "muted" }, "The playoffs have not started.")];
    const out = [];
    for (const [division, d] of Object.entries(doc.divisions).sort(([, a], [, b]) => a.order - b.order)) {
      out.push(el("h1", {}, "Division " + division));
      const places = Object.entries(d.places || {}).sort(([, a], [, b]) => a - b);
      if (places.length) {
        out.push(el("ol", { class: "places" }, places.map(([p, place]) => el("li", { class: mine(p).trim() }, el("strong", {}, place + ". "), name(p)))));
      }
      for (const [key, match] of Object.entries(d.matches).sort(([, a], [, b]) => a.order - b.order)) {
        const players = Object.entries(match.players).sort(([, a], [, b]) => (match.started ? (a.place || 9) - (b.place || 9) : 0) || a.seed - b.seed);
        out.push(
          el(
            "section",
            { class: "card", dataset: { match: key } },
            el("h2", {}, el("span", { class: "title" }, ROUND_TITLES[match.round] + (match.round === "final" ? "" : " " + match.number)), el("span", { class: "status-line" }, match.complete ? "final" : match.started ? "game " + match.game_no + (match.machine ? " on " + machineName(match.machine) : "") : "not started")),
            players.map(([p, row]) =>
              el(
                "div",
                { class: "pm-row" + mine(p) + (row.advances ? " through" : "") },
                el("span", { class: "pos" }, row.seed),
                who(p),
                el("span", { class: "g tot" }, match.started ? row.points || 0 : "")
              )
            ),
            match.tie ? el("p", { class: "tie" }, "Tie-breaker game needed (FWPL 6.5)") : null
          )
        );
      }
    }
    return out;
  }

  /* ---------- drawing ---------- */

  function render() {
    if (live.version === null) return;
    const t = views().tournament || {};
    $("tab-playoffs").hidden = !views().bracket;
    if (tab === null) tab = t.phase === "playoffs" ? "playoffs" : t.phase === "night" ? "tonight" : "season";
    for (const name_ of ["tonight", "season", "playoffs"]) {
      $("panel-" + name_).hidden = name_ !== tab;
      $("tab-" + name_).setAttribute("aria-selected", name_ === tab ? "true" : "false");
    }
    const draw = { tonight: renderTonight, season: renderSeason, playoffs: renderPlayoffs }[tab];
    $("panel-" + tab).replaceChildren(...draw());
  }

  live.start();
})();
