/* The season table on a phone (/t/{tid}/season): the region's players by season points with
 * every meeting's league points (the discarded ones struck through, UKPL 3E), the grand final
 * places (1G) and play-offs (3F), players from other regions apart (1C, 3C). Live. Tapping a
 * player opens their scores at this meeting.
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;
  const config = B.pageConfig();
  const $ = (id) => document.getElementById(id);
  const state = { filter: "", player: config.player || null };

  const live = new B.Live(config.tournament, {
    onchange: () => render(),
    onstatus: (connected, age) => B.showStatus($("status"), connected, age),
  });

  function season() {
    return live.views.season;
  }

  function meets(doc) {
    return Object.entries(doc.meets || {}).sort(([, a], [, b]) => a.order - b.order);
  }

  function matches(number, name) {
    const q = state.filter.trim().toLowerCase();
    return !q || number.toLowerCase() === q || name.toLowerCase().includes(q);
  }

  function counted(row) {
    const results = Object.entries(row.results || {}).sort(([, a], [, b]) => b - a);
    return new Set(results.slice(0, (row.counted || []).length).map(([meet]) => meet));
  }

  function resultsLine(doc, row) {
    const kept = counted(row);
    const parts = [];
    for (const [id] of meets(doc)) {
      if (!(id in (row.results || {}))) continue;
      const cls = (kept.has(id) ? "" : "dropped") + (id === doc.meet ? " live" : "");
      if (parts.length) parts.push(" · ");
      parts.push(el("span", { class: cls.trim() || null }, id + ": " + B.fmt.points(row.results[id])));
    }
    return el("span", { class: "results" }, parts);
  }

  function item(doc, number, row, label) {
    const finals = row.qualified || row.playoff;
    const href = "/t/" + encodeURIComponent(config.tournament) + "/standings?player=" + encodeURIComponent(number);
    return el(
      "li",
      { class: "standing" + (finals ? " band-qualified" : "") + (state.player === number ? " open" : ""), dataset: { player: number } },
      el(
        "a",
        { href: href },
        el("span", { class: "place" }, label),
        el(
          "span",
          { class: "who" },
          el("span", { class: "name" }, row.name),
          el("span", { class: "number" }, "#" + number),
          row.playoff ? el("span", { class: "playoff-tag" }, "play-off") : null,
          resultsLine(doc, row)
        ),
        el("span", { class: "figures" }, el("span", { class: "total" }, B.fmt.points(row.points)), el("span", { class: "sub" }, "season"))
      )
    );
  }

  function render() {
    const list = $("season-list");
    if (live.version === null) return;
    const doc = season();
    if (!doc) {
      list.replaceChildren(el("li", { class: "muted" }, "This meeting is not part of a region's season."));
      return;
    }
    const settings = doc.settings || {};
    $("season-title").textContent = "Season table · " + [doc.region, doc.season].filter(Boolean).join(" ");
    const note = ["Best " + settings.counted + " results count"];
    if (settings.qualifiers) note.push("places 1–" + settings.qualifiers + " go to the grand final");
    const voids = meets(doc).filter(([, m]) => m.void).map(([id, m]) => id + " (" + m.competitors + " region players)");
    $("season-note").replaceChildren(
      note.join(" · ") + ".",
      voids.length ? el("span", { class: "season-warn" }, " Not counting: " + voids.join(", ") + ".") : "",
      doc.problem ? el("span", { class: "season-warn" }, " " + doc.problem) : ""
    );
    const rows = Object.entries(doc.rows || {}).sort(([pa, a], [pb, b]) => a.place - b.place || B.byNumber(pa, pb));
    const label = B.placeLabels(rows);
    const items = [];
    let inside = null;
    for (const [number, row] of rows) {
      if (!matches(number, row.name)) continue;
      const finals = Boolean(row.qualified || row.playoff);
      if (settings.qualifiers && finals !== inside && !state.filter) {
        items.push(el("li", { class: "divider" + (finals ? " band-qualified" : "") }, finals ? "Grand final places" : "Below the line"));
        inside = finals;
      }
      items.push(item(doc, number, row, label(row)));
    }
    const fun = Object.entries(doc.for_fun || {}).filter(([n, r]) => matches(n, r.name));
    if (fun.length) items.push(el("li", { class: "divider" }, "For fun · other regions"));
    for (const [number, row] of fun) {
      items.push(
        el(
          "li",
          { class: "standing unranked", dataset: { player: number } },
          el(
            "a",
            { href: "/t/" + encodeURIComponent(config.tournament) + "/standings?player=" + encodeURIComponent(number) },
            el("span", { class: "place" }, ""),
            el("span", { class: "who" }, el("span", { class: "name" }, row.name), el("span", { class: "number" }, "#" + number)),
            el("span", { class: "figures" }, el("span", { class: "sub" }, row.meets.join(", ")))
          )
        )
      );
    }
    if (!items.length) items.push(el("li", { class: "muted" }, state.filter ? "No player matches." : "No results yet."));
    list.replaceChildren(...items);
  }

  $("search").addEventListener("input", () => {
    state.filter = $("search").value;
    render();
  });
  live.start();
})();
