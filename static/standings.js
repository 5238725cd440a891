/* The players' page: the standings, and one player's page (?player=N): every machine's score,
 * place and points, their overall place, where they wait in a queue (the hall's `queues` view),
 * and "what I need": for each machine they may still play, the least score that lifts them to a
 * target place (the cut by default), from GET /api/t/{t}/what-if, asked again whenever the
 * tournament's version moves. Everything updates live. */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;
  const config = B.pageConfig();
  const $ = (id) => document.getElementById(id);
  // the player who said "This is me" on this phone, for this tournament
  const ME = "backglass.me." + config.tournament;
  const GROUP_AFTER = 3; // "any score" or "out of reach" on more machines than this: one line

  const state = { player: config.player || null, filter: "" };
  const need = { player: null, target: "", asked: null, inFlight: false, answer: null, error: null, timer: null };
  // the rank-over-time chart's points (GET /api/t/{t}/progress), asked again when the version moves
  const progress = { player: null, asked: null, inFlight: false, points: null, timer: null };

  const live = new B.Live(config.tournament, {
    onchange: () => render(),
    onstatus: (connected, age) => B.showStatus($("status"), connected, age),
  });

  function views() {
    return live.views;
  }

  function isLeague(rows) {
    const format = (views().tournament || {}).format || "";
    return format.startsWith("ukpl") || rows.some(([, row]) => "league_points" in row);
  }

  /* Whether qualifying has closed: the EPC main event moved on to its stages, or the Classic or
   * Kids board closed (EPC 2009, "EPC Qualifying" and the Classic's "ends at 3pm promptly").
   * Until then a place above the cut is "in the cut", not "qualified". */
  function qualifyingClosed() {
    const v = views();
    const stage = (v.stage || {}).stage;
    const board = (v.tournament || {}).closed || (v.classic || {}).closed || (v.kids || {}).closed;
    return Boolean((stage && stage !== "qualifying") || board);
  }

  function bandLabel(band) {
    const cut = (views().tournament || {}).cut;
    if (!band) return "";
    const closed = qualifyingClosed();
    // a board without a cut setting (the Classic's) still bands its rows: say the band alone
    const places = (from, to) => (!cut ? "" : from === to ? "place " + from : "places " + from + "–" + to);
    const with_ = (words, from, to) => (cut ? words + " · " + places(from, to) : words);
    // a tie the cut runs through (standings.cut_tie, scoring/cut_tie.py): none of it is in yet
    const tie = (views().standings || {}).cut_tie;
    const last = tie ? tie.line - tie.places : cut && cut.qualify;
    if (band === "qualified") return with_(closed ? "Qualified" : "In the cut", 1, last);
    if (band === "tie" && tie) {
      return with_(tie.note.charAt(0).toUpperCase() + tie.note.slice(1), last + 1, tie.line);
    }
    if (band === "standby") {
      return with_(closed ? "Standby" : "Standby places", cut && cut.qualify + 1, cut && cut.qualify + cut.standby);
    }
    // the Classic: whoever leads a machine when qualifying closes qualifies (EPC 2009, EPC Classic)
    if (band === "leading") return closed ? "Qualified · led a machine at the close" : "In the cut · leading a machine";
    return closed ? "Did not qualify" : "Below the cut";
  }

  function me() {
    return localStorage.getItem(ME);
  }

  /* On the list: the remembered player's place, points and queue place, one tap from their page. */
  function meNode() {
    const number = me();
    const who = number && (views().players || {})[number];
    if (!who) return null;
    const rows = B.standingRows(views().standings);
    const label = B.placeLabels(rows);
    const row = ((views().standings || {}).rows || {})[number] || {};
    const facts = [typeof row.place === "number" ? "place " + label(row) : "not ranked yet"];
    if (row.total !== undefined) facts.push(B.fmt.points(row.total) + " points");
    const queue = queuePlace(number);
    if (queue) facts.push(queue);
    return el(
      "a",
      { class: "me-card", id: "me-card", href: "?player=" + encodeURIComponent(number), onclick: (event) => open(event, number) },
      el("span", { class: "me-name" }, who.name, " ", el("span", { class: "number" }, "#" + number)),
      el("span", { class: "me-facts" }, facts.join(" · "))
    );
  }

  /* "2nd in the queue for Medieval Madness", "called to …", "playing …", or "". */
  function queuePlace(number) {
    for (const [id, machine] of B.machineList(views())) {
      const q = (views().queues || {})[id];
      if (!q) continue;
      if (q.up && q.up.player === number) return (q.up.state === "playing" ? "playing " : "called to ") + machine.name;
      const mine = (q.waiting || {})[number];
      if (mine) return ordinal(mine.pos) + " in the queue for " + machine.name;
    }
    return "";
  }

  function matches(number, name) {
    const q = state.filter.trim().toLowerCase();
    return !q || number.toLowerCase() === q || name.toLowerCase().includes(q);
  }

  function renderList() {
    const list = $("standings-list");
    if (live.version === null) return;
    const rows = B.standingRows(views().standings);
    const label = B.placeLabels(rows);
    const league = isLeague(rows);
    const games = ((views().tournament || {}).settings || {}).machines_per_player;
    const items = [];
    let band;
    for (const [number, row] of rows) {
      const who = B.player(views(), number);
      if (!matches(number, who.name)) continue;
      if (row.band && row.band !== band && !state.filter) {
        items.push(el("li", { class: "divider band-" + row.band }, bandLabel(row.band)));
      }
      band = row.band;
      const ranked = typeof row.place === "number";
      items.push(
        el(
          "li",
          {
            class: "standing" + (row.band ? " band-" + row.band : "") + (ranked ? "" : " unranked"),
            dataset: { player: number },
          },
          el(
            "a",
            { href: "?player=" + encodeURIComponent(number), onclick: (event) => open(event, number) },
            el("span", { class: "place" }, label(row)),
            el(
              "span",
              { class: "who" },
              el("span", { class: "name" }, who.name),
              el("span", { class: "number" }, "#" + number),
              who.guest ? el("span", { class: "tag" }, "guest") : null
            ),
            el(
              "span",
              { class: "figures" },
              el("span", { class: "total" }, B.fmt.points(row.total)),
              el(
                "span",
                { class: "sub" },
                league
                  ? row.league_points !== undefined
                    ? B.fmt.points(row.league_points) + " league"
                    : ""
                  : (row.played || 0) + (games ? "/" + games : "") + " games"
              )
            )
          )
        )
      );
    }
    if (items.length === 0) {
      items.push(el("li", { class: "muted" }, state.filter ? "No player matches." : "No players yet."));
    }
    list.replaceChildren(...items);
    const card = meNode();
    $("me-holder").replaceChildren(...(card ? [card] : []));
  }

  function machineItem(p) {
    const entry = p.entry;
    const place = entry.wiped
      ? "wiped: machine replaced"
      : typeof entry.place === "number"
        ? "place " + p.label(entry) + " of " + p.ranked
        : "not ranked";
    return el(
      "li",
      { class: "player-machine", dataset: { machine: p.id } },
      el(
        "div",
        { class: "line" },
        el(
          "span",
          { class: "machine" },
          p.machine.name,
          entry.joker ? el("span", { class: "joker", title: "joker game" }, "joker") : null
        ),
        el("span", { class: "place" }, place)
      ),
      el(
        "div",
        { class: "line" },
        el("span", { class: "score" }, B.fmt.score(entry.score)),
        el(
          "span",
          { class: "points" },
          entry.points !== undefined ? B.fmt.points(entry.points) + " pts" : "",
          entry.bonus ? el("span", { class: "bonus", title: "bonus point" }, " ★") : null
        )
      )
    );
  }

  function renderPlayer() {
    const number = state.player;
    const detail = $("player-detail");
    if (live.version === null) return;
    const who = (views().players || {})[number];
    if (!who) {
      detail.replaceChildren(el("p", { class: "muted" }, "No player number " + number + " in this tournament."));
      return;
    }
    const row = ((views().standings || {}).rows || {})[number] || {};
    const league = "league_points" in row || ((views().tournament || {}).format || "").startsWith("ukpl");
    const settings = (views().tournament || {}).settings || {};
    const played = [];
    for (const [id, machine] of B.machineList(views())) {
      const doc = views()["machine/" + id] || {};
      const entry = (doc.rows || {})[number];
      if (!entry) continue;
      const ranked = Object.values(doc.rows || {}).filter((r) => typeof r.place === "number").length;
      const label = B.placeLabels(Object.entries(doc.rows || {})); // "3=" where others share it
      played.push({ id: id, machine: machine, entry: entry, ranked: ranked, label: label });
    }
    const summary = [];
    const overall = B.placeLabels(B.standingRows(views().standings));
    if (typeof row.place === "number") summary.push(el("div", { class: "big-place" }, "Place " + overall(row)));
    else summary.push(el("div", { class: "big-place muted" }, who.guest ? "Guest — not ranked" : "Not ranked yet"));
    const facts = [B.fmt.points(row.total || 0) + (league ? " machine points" : " points")];
    if (league && row.league_points !== undefined) facts.push(B.fmt.points(row.league_points) + " league points");
    if (!league) {
      const of = settings.machines_per_player ? " of " + settings.machines_per_player : "";
      facts.push(played.length + of + " machines played");
    }
    if (row.band) facts.push(bandLabel(row.band));
    summary.push(el("div", { class: "facts" }, facts.join(" · ")));
    if (who.withdrawn !== undefined) summary.push(el("div", { class: "withdrawn" }, "Withdrawn"));
    const mine = me() === number;
    const parts = [
      el("h1", { class: "player-name" }, who.name, " ", el("span", { class: "number" }, "#" + number)),
      el(
        "button",
        { type: "button", class: "me-button" + (mine ? " mine" : ""), id: "me-button", onclick: () => toggleMe(number) },
        mine ? "★ This is me (tap to forget)" : "☆ This is me"
      ),
      el("div", { class: "summary band-" + (row.band || "none") }, summary),
      queueNode(number),
      played.length
        ? el("ul", { class: "player-machines" }, played.map(machineItem))
        : el("p", { class: "muted" }, "No scores yet."),
      chartNode(number),
      who.withdrawn === undefined ? needNode() : null,
    ];
    detail.replaceChildren(...parts.filter(Boolean)); // replaceChildren would write "null"
    if (who.withdrawn === undefined) askNeed();
    askProgress();
  }

  /* ---------- place and points over time: a hand-made SVG chart ---------- */

  const SVG = "http://www.w3.org/2000/svg";
  const CHART = { width: 340, height: 170, left: 30, right: 40, top: 12, bottom: 26 };

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
    for (const child of children) if (child !== null && child !== undefined) node.append(child);
    return node;
  }

  function clock(iso) {
    return B.fmt.time(iso); // the venue's time, with its zone
  }

  /* The player's place (solid, 1st at the top) and points (dashed, 0 at the bottom) after each
   * record that moved them; x is the time of the record (its order when times are missing). */
  function chartNode(number) {
    if (progress.player !== number) Object.assign(progress, { player: number, asked: null, points: null });
    const points = progress.points || [];
    const head = el("h2", {}, "Place and points over time");
    if (points.length < 2) {
      const text = progress.points === null ? "Loading…" : "The chart starts after their second change of place or points.";
      return el("section", { class: "chart", id: "chart" }, head, el("p", { class: "muted" }, text));
    }
    const c = CHART;
    const w = c.width - c.left - c.right;
    const h = c.height - c.top - c.bottom;
    const times = points.map((p) => Date.parse(p.at || ""));
    const timed = times.every((t) => !isNaN(t)) && times[times.length - 1] > times[0];
    const xs = points.map((p, i) => c.left + w * (timed ? (times[i] - times[0]) / (times[times.length - 1] - times[0]) : i / (points.length - 1)));
    const players = Math.max(2, Object.keys(views().players || {}).length, ...points.map((p) => p.place || 0));
    const top = Math.max(1, ...points.map((p) => Number(p.total) || 0));
    const placeY = (place) => c.top + (h * (place - 1)) / (players - 1);
    const totalY = (total) => c.top + h - (h * (Number(total) || 0)) / top;
    const line = (ys) => xs.map((x, i) => (ys[i] === null ? null : x.toFixed(1) + "," + ys[i].toFixed(1))).filter(Boolean).join(" ");
    const placeYs = points.map((p) => (typeof p.place === "number" ? placeY(p.place) : null));
    const last = points[points.length - 1];
    const text = (x, y, anchor, words, cls) => svg("text", { x: x, y: y, "text-anchor": anchor, class: cls || "chart-label" }, words);
    const drawing = svg(
      "svg",
      { viewBox: "0 0 " + c.width + " " + c.height, class: "chart-svg", role: "img", "aria-label": "Place and points over time" },
      svg("rect", { x: c.left, y: c.top, width: w, height: h, class: "chart-frame" }),
      svg("polyline", { points: line(points.map((p) => totalY(p.total))), class: "chart-points" }),
      svg("polyline", { points: line(placeYs), class: "chart-place" }),
      ...xs.map((x, i) => (placeYs[i] === null ? null : svg("circle", { cx: x.toFixed(1), cy: placeYs[i].toFixed(1), r: 2.6, class: "chart-dot" }))).filter(Boolean),
      text(c.left - 5, c.top + 4, "end", "1"),
      text(c.left - 5, c.top + h + 4, "end", String(players)),
      text(c.left + w + 5, c.top + 4, "start", B.fmt.points(top)),
      text(c.left + w + 5, c.top + h + 4, "start", "0"),
      timed ? text(c.left, c.height - 8, "start", clock(points[0].at)) : null,
      timed ? text(c.left + w, c.height - 8, "end", clock(last.at)) : null
    );
    const legend = el(
      "p",
      { class: "chart-legend" },
      el("span", { class: "key-place" }, "— place" + (typeof last.place === "number" ? " (now " + last.place + ")" : "")),
      " ",
      el("span", { class: "key-points" }, "‑ ‑ points (now " + B.fmt.points(last.total) + ")")
    );
    return el("section", { class: "chart", id: "chart", dataset: { points: String(points.length) } }, head, drawing, legend);
  }

  function askProgress() {
    if (state.player === null || live.version === null) return;
    const ask = state.player + "|" + live.version;
    if (progress.asked === ask || progress.inFlight) return;
    clearTimeout(progress.timer);
    progress.timer = setTimeout(() => fetchProgress(ask), 200); // a burst of pushes asks once
  }

  async function fetchProgress(ask) {
    const [player] = ask.split("|");
    progress.inFlight = true;
    progress.asked = ask;
    try {
      const url = "/api/t/" + encodeURIComponent(config.tournament) + "/progress?player=" + encodeURIComponent(player);
      const response = await fetch(url);
      const data = await response.json();
      if (response.ok && progress.player === player) progress.points = data.points;
    } catch (_) {
      progress.asked = null; // offline: ask again with the next change
    } finally {
      progress.inFlight = false;
    }
    if (state.player === player) renderPlayer();
  }

  function toggleMe(number) {
    if (me() === number) localStorage.removeItem(ME);
    else localStorage.setItem(ME, number);
    renderPlayer();
  }

  /* ---------- queues: where the player is up or waiting ---------- */

  function minutes(seconds) {
    const m = Math.max(1, Math.round(seconds / 60));
    return "about " + m + " min";
  }

  function queueNode(number) {
    const queues = views().queues;
    if (!queues) return null;
    const items = [];
    for (const [id, machine] of B.machineList(views())) {
      const q = queues[id];
      if (!q) continue;
      if (q.up && q.up.player === number) {
        const what = q.up.state === "playing" ? "playing now" : "called: go to the machine";
        items.push(el("li", { class: "queue-item up", dataset: { machine: id } },
          el("span", { class: "machine" }, machine.name), el("span", { class: "queue-pos" }, what)));
        continue;
      }
      const mine = (q.waiting || {})[number];
      if (!mine) continue;
      let wait = "";
      if (mine.paused) wait = "paused" + (mine.note ? ": " + mine.note : "");
      else if (typeof mine.wait === "number") {
        const played = q.up && q.up.since ? (Date.now() - Date.parse(q.up.since)) / 1000 : 0;
        wait = minutes(Math.max(0, mine.wait - Math.min(played, q.game || 0)));
      }
      items.push(
        el("li", { class: "queue-item", dataset: { machine: id } },
          el("span", { class: "machine" }, machine.name),
          el("span", { class: "queue-pos" }, ordinal(mine.pos) + " in the queue"),
          wait ? el("span", { class: "queue-wait" }, wait) : null)
      );
    }
    if (items.length === 0) return null;
    return el("section", { class: "queues", "aria-label": "Queues" }, el("h2", {}, "Queue"), el("ul", {}, items));
  }

  function ordinal(n) {
    const tens = n % 100;
    const suffix = tens >= 11 && tens <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
    return n + suffix;
  }

  /* ---------- what I need ---------- */

  function needNode() {
    if (need.player !== state.player) {
      Object.assign(need, { player: state.player, asked: null, answer: null, error: null });
    }
    const answer = need.answer && need.answer.player === state.player ? need.answer : null;
    const ranked = B.standingRows(views().standings).filter(([, r]) => typeof r.place === "number").length;
    const places = Math.min(Math.max(ranked, Object.keys(views().players || {}).length), 100);
    const label = answer ? answer.target.label : "the cut";
    const options = [el("option", { value: "" }, "Default: " + label)];
    for (let p = 1; p <= places; p++) options.push(el("option", { value: String(p) }, ordinal(p)));
    const select = el("select", { id: "need-target", "aria-label": "Target place", onchange: onTarget }, options);
    select.value = need.target;
    let body;
    if (need.error) body = el("p", { class: "muted need-error" }, need.error);
    else if (!answer) body = el("p", { class: "muted" }, "Working it out…");
    else body = needList(answer);
    return el(
      "section",
      { class: "need", id: "need", dataset: { version: answer ? answer.version : "" } },
      el("div", { class: "need-head" }, el("h2", {}, "What I need"), el("label", { class: "need-target" }, "for ", select)),
      body,
      el("p", { class: "hint" }, "One game each, with every other score as it stands now; equal scores share a place.")
    );
  }

  function needList(answer) {
    const head = answer.now.reached
      ? el("p", { class: "need-now reached" }, "You are there now" + (answer.now.place ? " (" + ordinal(answer.now.place) + ")" : "") + ".")
      : null;
    if (answer.needs.length === 0) {
      return el("div", {}, head, el("p", { class: "muted need-none" }, "No machines left for you to play."));
    }
    // only what says something: at the target already, "any score" says nothing; many machines
    // with "any score" or "out of reach" are one line each
    const anyScore = answer.needs.filter((n) => n.score === 0);
    const outOfReach = answer.needs.filter((n) => n.score === undefined);
    const groupAny = answer.now.reached || anyScore.length > GROUP_AFTER;
    const groupOut = outOfReach.length > GROUP_AFTER;
    const listed = answer.needs.filter((n) => !(n.score === 0 && groupAny) && !(n.score === undefined && groupOut));
    const names = (needs) => needs.map((n) => n.name).join(", ");
    const grouped = [];
    if (anyScore.length && groupAny && !answer.now.reached) {
      grouped.push(el("p", { class: "need-group need-any" }, "Any score on " + names(anyScore) + " gets you there."));
    }
    if (groupOut) {
      grouped.push(
        el("p", { class: "muted need-group need-out" }, "Out of reach with one game on " + outOfReach.length + " machines: " + names(outOfReach) + ".")
      );
    }
    return el(
      "div",
      {},
      head,
      ...grouped,
      el(
        "ul",
        { class: "need-list" },
        listed.map((n) =>
          el(
            "li",
            { class: "need-item" + (n.score === undefined ? " out" : ""), dataset: { machine: n.machine } },
            el(
              "span",
              { class: "machine" },
              n.name,
              n.again ? el("span", { class: n.joker ? "joker" : "again" }, n.joker ? "joker" : "again") : null
            ),
            el(
              "span",
              { class: "need-score" },
              n.score === undefined ? "out of reach" : n.score === 0 ? "any score" : B.fmt.score(n.score)
            ),
            el(
              "span",
              { class: "need-place" },
              n.score === undefined ? "on this machine alone" : n.place ? "→ " + ordinal(n.place) : ""
            )
          )
        )
      )
    );
  }

  function onTarget(event) {
    need.target = event.target.value;
    need.answer = null;
    need.asked = null;
    renderPlayer();
  }

  /* Ask the server when the version, player or target moved; one request at a time. */
  function askNeed() {
    if (state.player === null || live.version === null) return;
    const ask = state.player + "|" + need.target + "|" + live.version;
    if (need.asked === ask || need.inFlight) return;
    clearTimeout(need.timer);
    need.timer = setTimeout(() => fetchNeed(ask), 150); // a burst of pushes asks once
  }

  async function fetchNeed(ask) {
    const [player, target] = ask.split("|");
    need.inFlight = true;
    need.asked = ask;
    const query = "?player=" + encodeURIComponent(player) + (target ? "&target=" + target : "");
    try {
      const response = await fetch("/api/t/" + encodeURIComponent(config.tournament) + "/what-if" + query);
      const data = await response.json();
      need.error = response.ok ? null : data.message || "Not available now.";
      need.answer = response.ok ? data : null;
    } catch (_) {
      need.asked = null; // offline: ask again with the next change
    } finally {
      need.inFlight = false;
    }
    if (state.player === player) renderPlayer();
  }

  function render() {
    B.showField(views());
    $("standings-list-screen").hidden = state.player !== null;
    $("player-screen").hidden = state.player === null;
    if (state.player === null) renderList();
    else renderPlayer();
  }

  function open(event, number) {
    event.preventDefault();
    state.player = number;
    history.pushState({ player: number }, "", "?player=" + encodeURIComponent(number));
    render();
    window.scrollTo(0, 0);
  }

  $("back").addEventListener("click", (event) => {
    event.preventDefault();
    if (history.state && history.state.player) history.back();
    else {
      state.player = null;
      history.replaceState(null, "", location.pathname);
      render();
    }
  });

  window.addEventListener("popstate", () => {
    state.player = new URLSearchParams(location.search).get("player");
    render();
  });

  $("search").addEventListener("input", (event) => {
    state.filter = event.target.value;
    renderList();
  });

  render();
  live.start();
})();
