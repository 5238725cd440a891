/* EPC Country Competition: the final (display plugin "country_final"; also on the phones' page).
 * The six finalists' table (9/5/2/0 per place, 140 at most; ties up to 4th go to a play-off game,
 * 5th and 6th to countback then the qualifying 4-ball score), the final's matches round by round,
 * and the play-off games needed or played (also the tie for sixth before the final).
 * Reads views "teams", "country/final", "country/fixtures", "country/playoffs".
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const FLASH_MS = 3000;
  const DECIDED = { four_ball: "4-ball", playoff: "play-off", head_to_head: "head to head", matches_won: "matches won" };

  const { flash, settle } = B.rowFlash(FLASH_MS); // one tracker per view

  function team(views, id) {
    return ((views.teams || {})[id] || {}).name || id;
  }

  function ordinal(n) {
    const s = ["th", "st", "nd", "rd"];
    const v = n % 100;
    return n + (s[(v - 20) % 10] || s[v] || s[0]);
  }

  function finalFixtures(views) {
    return Object.entries(views["country/fixtures"] || {})
      .filter(([, f]) => f.stage === "final")
      .sort(([, a], [, b]) => a.order - b.order);
  }

  function tableCard(ctx, views) {
    const el = ctx.el;
    const doc = views["country/final"];
    const rows = Object.entries(doc.rows).sort(([ta, a], [tb, b]) => a.place - b.place || B.byNumber(ta, tb));
    const count = (place) => rows.filter(([, r]) => r.place === place).length;
    return el(
      "section",
      { class: "cf-card", dataset: { final: "table" } },
      el(
        "header",
        { class: "cf-head" },
        el("span", { class: "cf-title" }, doc.complete ? "Final result" : "Final table"),
        el("span", { class: "cf-meta" }, doc.played + "/" + doc.matches + " matches")
      ),
      el(
        "div",
        { class: "cf-row cf-team cf-cols" },
        el("span", {}, "#"),
        el("span", {}, "Team"),
        el("span", { class: "small" }, "Pl"),
        el("span", { class: "small" }, "Won"),
        el("span", {}, "Pts")
      ),
      rows.map(([id, r]) => {
        const f = flash("t:" + id, [r.points, r.place, r.decided_by].join("|"));
        const tag = r.pending
          ? el("span", { class: "cf-tag hot" }, "play-off")
          : DECIDED[r.decided_by]
            ? el("span", { class: "cf-tag" }, DECIDED[r.decided_by])
            : null;
        const node = el(
          "div",
          {
            class:
              "cf-row cf-team" +
              (doc.complete && r.place === 1 ? " champion" : "") +
              (f.cls || "") +
              (ctx.team === id ? " mine" : ""),
            style: f.style,
            dataset: { team: id, decided: r.decided_by },
          },
          el("span", { class: "place" }, r.place + (count(r.place) > 1 ? "=" : "")),
          el("span", { class: "cf-name" }, el("span", { class: "name" }, team(views, id)), tag),
          el("span", { class: "small" }, r.played),
          el("span", { class: "small" }, r.won),
          el("span", { class: "pts" }, B.fmt.points(r.points))
        );
        return settle(node, f);
      })
    );
  }

  function playoffsCard(ctx, views) {
    const el = ctx.el;
    const doc = views["country/playoffs"] || { pending: {}, played: {} };
    const items = [];
    for (const [key, p] of Object.entries(doc.pending || {})) {
      const what = p.stage === "qualifying" ? "Tie for " + ordinal(p.place) + " · qualifying" : "Tie for " + ordinal(p.place) + " · final";
      items.push(
        el(
          "div",
          { class: "cf-po needed", dataset: { playoff: key } },
          el("div", { class: "what" }, "Play-off needed: " + what),
          el("div", { class: "teams" }, p.teams.map((t) => team(views, t)).join(" v "))
        )
      );
    }
    const played = Object.entries(doc.played || {}).sort(([a], [b]) => Number(a) - Number(b));
    for (const [seq, p] of played) {
      const scores = Object.entries(p.scores).sort(([, a], [, b]) => b - a);
      items.push(
        el(
          "div",
          { class: "cf-po", dataset: { played: seq } },
          el("div", { class: "what" }, "Play-off · " + p.stage),
          el("div", { class: "teams" }, scores.map(([t, s]) => team(views, t) + " " + B.fmt.score(s)).join(" · "))
        )
      );
    }
    return el(
      "section",
      { class: "cf-card", dataset: { final: "playoffs" } },
      el("header", { class: "cf-head" }, el("span", { class: "cf-title" }, "Play-off games")),
      items.length ? items : el("div", { class: "cf-none" }, "None needed")
    );
  }

  function matchRow(ctx, views, id, f) {
    const el = ctx.el;
    const decided = f.status === "played" || f.status === "forfeit";
    let result = "slot " + f.slot;
    if (decided) result = B.fmt.points(f.home_points) + "–" + B.fmt.points(f.away_points);
    else if (f.status === "playing") {
      const games = Object.values(f.games || {});
      result = games.length
        ? B.fmt.points(games.reduce((s, g) => s + g.home_points, 0)) +
          "–" +
          B.fmt.points(games.reduce((s, g) => s + g.away_points, 0)) +
          " …"
        : "playing";
    }
    const fl = flash("m:" + id, [f.status, f.home_points, f.away_points, Object.keys(f.games || {}).length].join("|"));
    const win = decided && f.home_points !== f.away_points ? (f.home_points > f.away_points ? "home" : "away") : "";
    const mine = ctx.team && (f.home === ctx.team || f.away === ctx.team);
    return settle(
      el(
        "div",
        { class: "cf-row cf-match " + f.status + (fl.cls || "") + (mine ? " mine" : ""), style: fl.style, dataset: { fixture: id } },
        el("span", { class: "cf-name home" + (win === "home" ? " win" : "") }, el("span", { class: "name" }, team(views, f.home))),
        el("span", { class: "res" }, result),
        el("span", { class: "cf-name away" + (win === "away" ? " win" : "") }, el("span", { class: "name" }, team(views, f.away)))
      ),
      fl
    );
  }

  function roundsCard(ctx, views, rounds) {
    const el = ctx.el;
    const list = finalFixtures(views).filter(([, f]) => rounds.includes(f.round));
    const body = [];
    let round = null;
    for (const [id, f] of list) {
      if (f.round !== round) {
        round = f.round;
        body.push(el("div", { class: "cf-round" }, "Round " + round));
      }
      body.push(matchRow(ctx, views, id, f));
    }
    return el(
      "section",
      { class: "cf-card", dataset: { rounds: rounds.join(",") } },
      el(
        "header",
        { class: "cf-head" },
        el("span", { class: "cf-title" }, "Final matches"),
        el("span", { class: "cf-meta" }, list.filter(([, f]) => f.status === "played" || f.status === "forfeit").length + "/" + list.length + " played")
      ),
      body
    );
  }

  function pages(views, ctx) {
    const pending = Object.keys((views["country/playoffs"] || {}).pending || {}).length;
    if (!views["country/final"]) {
      return pending ? [{ key: "playoffs", columns: [["playoffs"]], count: ctx.phone ? 1 : 2 }] : [];
    }
    const rounds = [...new Set(finalFixtures(views).map(([, f]) => f.round))];
    if (ctx.phone) {
      return [{ key: "final", columns: [["table", "playoffs", { rounds: rounds }]], count: 1 }];
    }
    return [{ key: "final", columns: [["table", "playoffs"], [{ rounds: rounds }]], count: 2 }];
  }

  function render(page, views, ctx) {
    const block = (item) => {
      if (item === "table") return tableCard(ctx, views);
      if (item === "playoffs") return playoffsCard(ctx, views);
      return roundsCard(ctx, views, item.rounds);
    };
    return page.columns.map((column) => ctx.el("div", { class: "column" }, column.map(block)));
  }

  B.displayViews.country_final = { title: "Final", pages: pages, render: render };
})();
