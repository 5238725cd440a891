/* The EPC Classic on the hall display (EPC 2009, EPC Classic Tournament): who holds each of the
 * eight machines and by how much, then the two semi-finals and the final. View "classic". */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;

  /* "+100,000 over Player 3": the runner-up's name as a name, so the board shortens it ("B. Smith")
   * rather than cut it where the cell is narrow. */
  function leadText(views, place, kind) {
    if (!place.runner_up) return place.player ? "no one else yet" : "";
    const other = B.player(views, place.runner_up).name;
    const by = kind === "ratio" ? "×" + B.fmt.points(place.lead) : "+" + B.fmt.score(place.lead);
    return [
      el("span", { class: "by" }, by + " over "),
      el("span", { class: "who" }, el("span", { class: "name" }, other)),
    ];
  }

  function board(views, doc) {
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
    const playing = doc.in_progress ? doc.in_progress + (doc.in_progress === 1 ? " game" : " games") + " in progress" : "qualifiers";
    const meta = doc.closed ? "qualifying closed · " + playing : "qualifying open · leaders now";
    return K.panel("Classic qualifiers", meta, [...rows, ...notes], "epc-slot");
  }

  function label(place) {
    return place <= 2 ? ["Final", "epc-up"] : [B.epc.ordinal(place), "epc-out"];
  }

  function finalLabel(place) {
    return place === 1 ? ["Winner", "epc-up"] : [B.epc.ordinal(place), ""];
  }

  B.displayViews.classic = {
    title: "Classic",
    pages(views) {
      if (!views.classic) return [];
      const pages = [{ key: "board", kind: "board" }];
      if (views["classic/games"]) pages.push({ key: "games", kind: "games" });
      return pages;
    },
    render(page, views) {
      if (page.kind === "board") return el("div", { class: "epc-big" }, board(views, views.classic));
      const games = Object.values((views["classic/games"] || {}).games || {}).sort((a, b) => a.order - b.order);
      return el(
        "div",
        { class: "epc-panels epc-compact", style: "--panels: 2" },
        games.map((game) => {
          const machines = game.machine
            ? B.epc.machineName(views, game.machine)
            : game.machines
              ? "on " + game.machines.map((m) => B.epc.machineName(views, m)).join(" / ")
              : "";
          const node = B.epc.gamePanel(views, game, game.order === 3 ? finalLabel : label, machines);
          if (game.order === 3) node.style.gridColumn = "1 / -1";
          return node;
        })
      );
    },
  };
})();
