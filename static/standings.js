/* The players' page: the standings, and one player's line (?player=N): every machine's score,
 * place and points, updating live. */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;
  const config = B.pageConfig();
  const $ = (id) => document.getElementById(id);

  const state = { player: config.player || null, filter: "" };

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

  function bandLabel(band) {
    const cut = (views().tournament || {}).cut;
    if (!cut) return "";
    if (band === "qualified") return "Qualify · places 1–" + cut.qualify;
    if (band === "standby") return "Standby · places " + (cut.qualify + 1) + "–" + (cut.qualify + cut.standby);
    return "Below the cut";
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
  }

  function machineItem(p) {
    const entry = p.entry;
    const place = typeof entry.place === "number" ? "place " + entry.place + " of " + p.ranked : "not ranked";
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
      played.push({ id: id, machine: machine, entry: entry, ranked: ranked });
    }
    const summary = [];
    if (typeof row.place === "number") summary.push(el("div", { class: "big-place" }, "Place " + row.place));
    else summary.push(el("div", { class: "big-place muted" }, who.guest ? "Guest — not ranked" : "Not ranked yet"));
    const facts = [B.fmt.points(row.total || 0) + (league ? " machine points" : " points")];
    if (league && row.league_points !== undefined) facts.push(B.fmt.points(row.league_points) + " league points");
    if (!league) {
      const of = settings.machines_per_player ? " of " + settings.machines_per_player : "";
      facts.push(played.length + of + " machines played");
    }
    if (row.band) facts.push(bandLabel(row.band).replace("Qualify", "Qualifying"));
    summary.push(el("div", { class: "facts" }, facts.join(" · ")));
    detail.replaceChildren(
      el("h1", { class: "player-name" }, who.name, " ", el("span", { class: "number" }, "#" + number)),
      el("div", { class: "summary band-" + (row.band || "none") }, summary),
      played.length
        ? el("ul", { class: "player-machines" }, played.map(machineItem))
        : el("p", { class: "muted" }, "No scores yet.")
    );
  }

  function render() {
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
