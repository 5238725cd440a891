/* FWPL playoff bracket (display plugin "fwpl_bracket"): one page per division, its rounds left
 * to right (quarter-finals, semi-finals, final; FWPL 6.3), each match with seeds, PAPA points
 * (4-2-1-0 per game) and who goes through; the final places once decided. Reads "bracket".
 * Where the whole bracket does not fit at the reading distance (10 m), a page per round drawn
 * instead, then the places once decided.
 *
 * The bracket's lines are an SVG drawn over the columns once they are laid out: a line from each
 * match to each match of the next round that one of its players went through to (FWPL 6.3: the
 * top two of a match go on), and, while the next round is not drawn yet, a stub into the gap
 * towards it; the final's line runs to the places.
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const ROUND_TITLES = { quarterfinal: "Quarter-finals", semifinal: "Semi-finals", final: "Final" };
  const ROUNDS = { 4: ["final"], 8: ["semifinal", "final"], 12: ["quarterfinal", "semifinal", "final"] };

  function machineName(views, id) {
    return ((views.machines || {})[id] || {}).name || id;
  }

  function who(ctx, views, number) {
    return ctx.el(
      "span",
      { class: "who" },
      ctx.el("span", { class: "name" }, B.player(views, number).name),
      ctx.el("span", { class: "number" }, number)
    );
  }

  function matchNode(ctx, views, key, match) {
    const el = ctx.el;
    const players = Object.entries(match.players).sort(([, a], [, b]) =>
      match.started ? (a.place || 9) - (b.place || 9) || a.seed - b.seed : a.seed - b.seed
    );
    const games = match.games || {};
    let status = "not started";
    if (match.complete) status = "final";
    else if (match.started) status = match.machine ? "game " + match.game_no + ": " : "game " + match.game_no + " — pick";
    const head = el(
      "div",
      { class: "fwpl-match-head" },
      el("span", {}, "Match " + match.number),
      el("span", {}, status, match.machine && !match.complete ? el("span", { class: "machine" }, machineName(views, match.machine)) : null)
    );
    const rows = players.map(([player, row]) =>
      el(
        "div",
        {
          class: "fwpl-mrow" + (row.advances ? " through" : "") + (row.missing ? " missing" : ""),
          dataset: { player: player },
        },
        el("span", { class: "seed" }, row.seed),
        who(ctx, views, player),
        [1, 2, 3].map((n) => el("span", { class: "g" }, games[n] && games[n].rows[player] ? games[n].rows[player].points : "")),
        el("span", { class: "pts" }, match.started ? row.points || 0 : "")
      )
    );
    return el(
      "section",
      { class: "fwpl-match" + (match.started ? "" : " pending"), dataset: { match: key } },
      head,
      rows,
      match.tie ? el("div", { class: "fwpl-tie" }, "Tie-breaker needed") : null
    );
  }

  /* The division's final places; ``name`` given (a page of its own), its title names it. */
  function placesNode(ctx, views, division, name) {
    const el = ctx.el;
    const places = Object.entries(division.places || {}).sort(([, a], [, b]) => a - b);
    return el(
      "aside",
      { class: "fwpl-places" },
      el("div", { class: "fwpl-round-title" }, name ? "Division " + name + " · Places" : "Places"),
      places.length
        ? places.map(([player, place]) =>
            el("div", { class: "fwpl-prow", dataset: { player: player } }, el("span", { class: "place" }, place), who(ctx, views, player))
          )
        : el("div", { class: "fwpl-prow" }, el("span", {}, ""), el("span", { class: "muted" }, "To be decided"))
    );
  }

  // widths in the board's em: a round's column and the places' in the whole bracket (views.css
  // .view-fwpl_bracket, with its 2.4em gaps), and a match's least width when paged by round
  const ROUND_EM = 13;
  const PLACES_EM = 16;
  const GAP_EM = 2.4;
  const MATCH_EM = 15;

  function stageBox() {
    const stage = document.getElementById("stage");
    const font = parseFloat(getComputedStyle(stage).fontSize) || 16;
    return { width: stage.clientWidth, font: font };
  }

  function roundsOf(division) {
    return ROUNDS[Object.keys(division.seeds).length] || ["final"];
  }

  function matchesOf(division, round) {
    return Object.entries(division.matches || {})
      .filter(([, m]) => m.round === round)
      .sort(([, a], [, b]) => a.number - b.number);
  }

  function roundTitle(ctx, division, round) {
    return ctx.el("div", { class: "fwpl-round-title" }, "Division " + division + " · " + ROUND_TITLES[round]);
  }

  /* A division's pages. The whole bracket on one page, its lines drawn, where the screen is wide
   * enough for every round and the places and tall enough for the longest round (or, on a phone,
   * its rounds stacked fit its height); else (10 m) a page per round drawn, its matches in as
   * many columns and rows as fit at the reading distance's font (display.js ctx.columns,
   * ctx.fitRows), then the places once decided. */
  function divisionPages(views, ctx, name, division) {
    const rounds = roundsOf(division);
    const box = stageBox();
    const roundWidth = (box.width - (rounds.length * GAP_EM + PLACES_EM) * box.font) / rounds.length;
    const longest = Math.max(1, ...rounds.map((round) => matchesOf(division, round).length));
    const tallest = (width, round) =>
      ctx.fitRows((n) =>
        ctx.el(
          "div",
          { class: "fwpl-round", style: "width: " + width + "px" },
          roundTitle(ctx, name, round),
          Array.from({ length: n }, () => matchNode(ctx, views, "0", sampleMatch(division, round)))
        )
      );
    if (roundWidth >= ROUND_EM * box.font && rounds.every((round) => tallest(roundWidth, round) >= longest)) {
      return [{ key: name, division: name, count: rounds.length }];
    }
    if (window.matchMedia(NARROW).matches && stackedFits(views, ctx, name, division)) {
      return [{ key: name, division: name, count: rounds.length }]; // a phone: rounds stacked
    }
    const across = ctx.columns(MATCH_EM);
    const width = ctx.columnWidth(across);
    const pages = [];
    // a round not drawn yet and places not decided yet get no page (a rotation of empty pages
    // at 10 m says nothing), unless the division has nothing else to show
    for (const round of rounds) {
      const keys = matchesOf(division, round).map(([key]) => key);
      const perPage = across * tallest(width, round);
      for (let at = 0; at < keys.length; at += perPage) {
        const chunk = keys.slice(at, at + perPage);
        pages.push({ key: name + ":" + round + ":" + at, division: name, round: round, matches: chunk, across: across });
      }
    }
    if (Object.keys(division.places || {}).length || !pages.length) {
      pages.push({ key: name + ":places", division: name, round: "places", across: 1 });
    }
    return pages;
  }

  const NARROW = "(max-width: 700px)"; // views.css: the rounds one under another

  /* Whether the whole bracket, its rounds one under another (a phone), fits the stage's height. */
  function stackedFits(views, ctx, name, division) {
    const stage = document.getElementById("stage");
    const page = ctx.el(
      "div",
      { class: "columns view-fwpl_bracket", style: "height: auto" },
      B.displayViews.fwpl_bracket.render({ division: name }, views, ctx)
    );
    const probe = ctx.el("div", { class: "probe", "aria-hidden": "true", style: "width: " + stage.clientWidth + "px" }, page);
    stage.append(probe);
    const fits = probe.offsetHeight <= stage.clientHeight;
    probe.remove();
    return fits;
  }

  /* The tallest match a round can show, for measuring: its most players, started, a tie noted. */
  function sampleMatch(division, round) {
    const matches = matchesOf(division, round).map(([, m]) => m);
    const players = matches.reduce((a, m) => (Object.keys(m.players).length > Object.keys(a).length ? m.players : a), {});
    const four = Object.keys(players).length ? players : { 1: { seed: 1 }, 2: { seed: 2 }, 3: { seed: 3 }, 4: { seed: 4 } };
    return { number: 1, round: round, players: four, started: true, game_no: 1, machine: "1", games: {}, tie: true };
  }

  /* One round's matches (or the places) on a page of their own, without the lines. */
  function roundPage(page, views, ctx, division) {
    const el = ctx.el;
    if (page.round === "places") {
      return el("div", { class: "fwpl-by-round" }, placesNode(ctx, views, division, page.division));
    }
    const matches = Object.fromEntries(matchesOf(division, page.round));
    return el(
      "div",
      { class: "fwpl-by-round" },
      roundTitle(ctx, page.division, page.round),
      el(
        "div",
        { class: "fwpl-by-round-matches", style: "--across: " + page.across },
        page.matches.map((key) => matchNode(ctx, views, key, matches[key]))
      )
    );
  }

  B.displayViews.fwpl_bracket = {
    title: "Playoffs",
    pages(views, ctx) {
      const doc = views.bracket;
      if (!doc) return [];
      return Object.entries(doc.divisions || {})
        .sort(([, a], [, b]) => a.order - b.order)
        .flatMap(([name, division]) => divisionPages(views, ctx, name, division));
    },
    render(page, views, ctx) {
      const division = ((views.bracket || {}).divisions || {})[page.division];
      if (!division) return [];
      if (page.round) return roundPage(page, views, ctx, division);
      const rounds = roundsOf(division);
      const columns = rounds.map((round) =>
        ctx.el(
          "div",
          { class: "fwpl-round", dataset: { round: round } },
          roundTitle(ctx, page.division, round),
          matchesOf(division, round).map(([key, m]) => matchNode(ctx, views, key, m))
        )
      );
      const lines = document.createElementNS(SVG, "svg");
      lines.setAttribute("class", "fwpl-lines");
      lines.setAttribute("aria-hidden", "true");
      // drawn once the columns have their boxes (the display inserts what render returns)
      requestAnimationFrame(() => drawLines(lines, rounds));
      return [...columns, placesNode(ctx, views, division), lines];
    },
  };

  const SVG = "http://www.w3.org/2000/svg";

  function line(svg, points) {
    const path = document.createElementNS(SVG, "polyline");
    path.setAttribute("points", points.map(([x, y]) => x.toFixed(1) + "," + y.toFixed(1)).join(" "));
    path.setAttribute("class", "fwpl-line");
    svg.append(path);
  }

  /* Elbow lines from each match's right edge to the next round's matches its players reached. */
  function drawLines(svg, rounds) {
    const box = svg.parentElement;
    if (!box || !box.isConnected) return;
    const origin = box.getBoundingClientRect();
    svg.setAttribute("viewBox", "0 0 " + origin.width + " " + origin.height);
    const rect = (node) => {
      const r = node.getBoundingClientRect();
      return { left: r.left - origin.left, right: r.right - origin.left, mid: r.top - origin.top + r.height / 2 };
    };
    const matchesOf = (round) => [...box.querySelectorAll('.fwpl-round[data-round="' + round + '"] .fwpl-match')];
    const playersOf = (match) => new Set([...match.querySelectorAll(".fwpl-mrow")].map((row) => row.dataset.player));
    rounds.forEach((round, index) => {
      const next = rounds[index + 1];
      const column = box.querySelector('.fwpl-round[data-round="' + (next || "") + '"]');
      const places = next ? null : box.querySelector(".fwpl-places");
      const target = column || places;
      if (!target) return;
      const gapEnd = rect(target).left;
      const later = next ? matchesOf(next) : [];
      for (const match of matchesOf(round)) {
        const from = rect(match);
        const mid = from.right + (gapEnd - from.right) / 2;
        const through = [...match.querySelectorAll(".fwpl-mrow.through")].map((row) => row.dataset.player);
        const reached = later.filter((other) => through.some((p) => playersOf(other).has(p)));
        if (reached.length) {
          for (const other of reached) {
            const to = rect(other);
            line(svg, [[from.right, from.mid], [mid, from.mid], [mid, to.mid], [to.left, to.mid]]);
          }
        } else if (places && match.querySelector(".fwpl-mrow")) {
          line(svg, [[from.right, from.mid], [gapEnd, from.mid]]); // the final, to its places
        } else {
          line(svg, [[from.right, from.mid], [mid, from.mid]]); // the next round is still to come
        }
      }
    });
  }
})();
