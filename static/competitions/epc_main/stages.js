/* The EPC stage pages. /t/{t}/epc: the current stage, live, for players' phones. /t/{t}/stages:
 * the same plus the TD's buttons for every stage step (each one writes one record through
 * /api/t/{t}/epc/..., see display/competitions/epc_main/routes.py), and under "Undo or put right" the
 * records that take a step back: close qualifying, reopen the stage before, re-seed, reinstate a
 * withdrawn player (/api/t/{t}/players/{p}/reinstate). Stage scores are not entered here:
 * stewards push them from the steward page as in qualifying. */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;
  const config = B.pageConfig();
  const tid = config.tournament;
  const $ = (id) => document.getElementById(id);
  const TOKEN = "backglass.td";
  const NAMES = {
    qualifying: "Qualifying",
    quarterfinal: "Quarter-finals",
    semifinal: "Semi-finals",
    final: "Finals",
    complete: "Complete",
  };
  let busy = false;

  const live = new B.Live(tid, {
    onchange: () => render(),
    onstatus: (connected, age) => B.showStatus($("status"), connected, age),
  });

  function views() {
    return live.views;
  }
  function format() {
    return (views().tournament || {}).format || "";
  }
  function name(number) {
    return B.player(views(), number).name;
  }
  function machineName(id) {
    return ((views().machines || {})[id] || {}).name || id;
  }

  /* ---------- TD actions ---------- */

  /* path: under /api/t/{t}/epc/, or from /api/t/{t}/ when it starts with "/" (a hall record,
   * e.g. a reinstatement). */
  async function act(path, payload, done) {
    if (busy) return;
    busy = true;
    show("control-error", "");
    show("control-ok", "");
    try {
      const init = {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Authorization: "Bearer " + localStorage.getItem(TOKEN),
          "Idempotency-Key": B.newKey(),
        },
        body: JSON.stringify(payload),
      };
      // an unknown outcome is resent with the same key until the server knows (live.js writeOnce)
      const base = "/api/t/" + encodeURIComponent(tid) + (path.startsWith("/") ? "" : "/epc/");
      const out = await B.writeOnce(base + path, init, (text) => show("control-error", text));
      const res = out.res;
      if (!res) {
        show("control-error", "The server did not answer, so this may have been recorded. Reload the page to see.");
        return;
      }
      if (res.status === 401) {
        localStorage.removeItem(TOKEN);
        render();
      }
      if (!res.ok) show("control-error", out.data.message || "The server refused (" + res.status + ").");
      else {
        show("control-error", "");
        show("control-ok", done || "Done.");
      }
    } finally {
      busy = false;
      render();
    }
  }

  function show(id, text) {
    const node = $(id);
    if (!node) return;
    node.textContent = text;
    node.hidden = !text;
  }

  function button(label, onclick, cls) {
    return el("button", { type: "button", class: cls || "primary", onclick: onclick }, label);
  }

  function playoffForm(ties) {
    const select = el("select", { "aria-label": "Tie" }, ties.map(([v, t]) => el("option", { value: v }, t)));
    const order = el("input", { placeholder: "Player numbers, best first: 12, 7", "aria-label": "Play-off order" });
    return el(
      "form",
      {
        class: "epc-form",
        onsubmit: (event) => {
          event.preventDefault();
          const list = order.value.split(/[\s,]+/).filter(Boolean);
          act("playoffs", { tie: select.value, order: list }, "Play-off order recorded.");
        },
      },
      el("strong", {}, "Play-off:"),
      select,
      order,
      el("button", { type: "submit", class: "secondary" }, "Record")
    );
  }

  function mainControls(stage) {
    const qf = views().quarterfinal || {};
    const out = [];
    if (stage === "qualifying") {
      const ids = B.machineList(views()).map(([id]) => id);
      const wanted = Math.max(3, Math.floor(((views().tournament || {}).settings || {}).qualify / 4) || 8);
      const boxes = ids.map((id, i) =>
        el("label", {}, el("input", { type: "checkbox", value: id, checked: i < wanted }), " " + machineName(id))
      );
      out.push(el("p", {}, "Quarter-final machines:"), el("div", { class: "epc-checks" }, boxes));
      out.push(
        button("Close qualifying and start the quarter-finals", () => {
          const machines = boxes.map((b) => b.querySelector("input")).filter((i) => i.checked).map((i) => i.value);
          act("stage", { stage: "quarterfinal", machines: machines }, "The quarter-finals have started.");
        })
      );
      out.push(playoffForm([["qualifying", "equal qualifying totals"]]));
    } else if (stage === "quarterfinal" && qf.round < 2) {
      const round = qf.round + 1;
      const group = round === 1 ? "B" : "A";
      const closed = qf.round >= 1 && (views().tournament.settings || {}).vacancies === "together";
      const toggles = [];
      for (const [seed, s] of Object.entries(qf.seeds || {}).sort((a, b) => a[0] - b[0])) {
        if (s.group !== group || closed) continue;
        toggles.push(toggle(s.qualifier, "seed " + seed, Boolean(s.registered), round));
      }
      for (const [player, s] of Object.entries(qf.standby || {}).sort((a, b) => a[1].position - b[1].position)) {
        if (s.fills || closed) continue;
        toggles.push(toggle(player, "stand-by " + s.position, Boolean((s.registered || {})[round]), round));
      }
      out.push(el("p", {}, "Round " + round + " (group " + group + "): tap each player who re-registered."));
      out.push(el("div", { class: "epc-toggles" }, toggles));
      out.push(button("Deadline passed: start round " + round, () => act("rounds", { round: round }, "Round " + round + " started.")));
    } else if (stage === "quarterfinal") {
      out.push(button("Start the semi-finals", () => act("stage", { stage: "semifinal" }, "The semi-finals have started.")));
      out.push(playoffForm([["quarterfinal", "quarter-final top 8"]]));
    } else if (stage === "semifinal") {
      out.push(button("Start the finals", () => act("stage", { stage: "final" }, "The finals have started.")));
      out.push(playoffForm([["A", "semi-final A"], ["B", "semi-final B"]]));
    } else if (stage === "final") {
      out.push(button("Finish: final placings", () => act("stage", { stage: "complete" }, "The EPC is complete.")));
      out.push(playoffForm([["playoff", "5th–8th play-off"], ["final", "grand final"]]));
    } else {
      out.push(el("p", {}, "Nothing left to do: the EPC is complete."));
    }
    return out;
  }

  /* The TD's records that undo or redo a step. Each asks first: a native prompt for the reason
   * the record keeps (Cancel records nothing), so a live change redrawing the buttons never
   * loses what the TD typed. */
  function withReason(label, question, path, payload, done) {
    return button(label, () => {
      const reason = (window.prompt(question + "\n\nWhy? (kept for the audit page)") || "").trim();
      if (reason) act(path, { ...payload, reason: reason }, done);
    }, "secondary");
  }

  const BEFORE = { quarterfinal: "qualifying", semifinal: "quarterfinal", final: "semifinal", complete: "final" };
  const CLASSIC_BEFORE = { semifinal: "qualifying", final: "semifinal", complete: "final" };
  const UNDONE = {
    qualifying: "The close is undone: the seeding, the quarter-final draw, re-registrations and rounds go, and qualifying takes scores and corrections again.",
    quarterfinal: "The semi-finals' start is taken back, so quarter-final games can be corrected.",
    semifinal: "The finals' start is taken back, so semi-final games can be corrected.",
    final: "The final placings are taken back, so the finals can be corrected.",
  };

  function fixControls(stage, classic) {
    const out = [];
    const v = views();
    const before = (classic ? CLASSIC_BEFORE : BEFORE)[stage];
    if (!classic && stage === "qualifying" && !(v.tournament || {}).closed) {
      out.push(
        button("Close qualifying", () => {
          const sure = window.confirm("Close qualifying? No new qualifying game can start; games already playing may still record their one score.");
          if (sure) act("close", {}, "Qualifying closed.");
        }, "secondary")
      );
    }
    if (before) {
      const words = (classic ? "Classic " : "") + NAMES[before].toLowerCase();
      const undone = classic && before === "qualifying" ? "The semi-finals' start is taken back, so Classic qualifying can be corrected." : UNDONE[before];
      out.push(withReason("Reopen " + words, "Reopen " + words + "? " + undone, "reopen", { stage: before }, "Reopened " + words + "."));
    }
    if (!classic && stage === "quarterfinal") {
      out.push(
        withReason("Re-seed from qualifying", "Make the quarter-final seeding again from the qualifying standings as they are now?", "reseed", {}, "Re-seeded.")
      );
    }
    const withdrawn = Object.entries(v.players || {}).filter(([, p]) => p.withdrawn !== undefined).sort((a, b) => B.byNumber(a[0], b[0]));
    for (const [number] of withdrawn) {
      out.push(
        withReason(
          "Reinstate " + name(number) + " #" + number,
          "Reinstate " + name(number) + " (#" + number + ")? They may queue and score again.",
          "/players/" + encodeURIComponent(number) + "/reinstate",
          {},
          name(number) + " reinstated."
        )
      );
    }
    if (!out.length) return [];
    return [el("div", { class: "epc-fix", id: "fix-controls" }, el("h3", {}, "Undo or put right"), el("div", { class: "epc-fix-buttons" }, out))];
  }

  function toggle(player, what, on, round) {
    return el(
      "button",
      {
        type: "button",
        class: "epc-toggle",
        "aria-pressed": on ? "true" : "false",
        dataset: { player: player },
        onclick: () => act("registrations", { player: player, round: round, present: !on }, name(player) + (on ? " unmarked." : " registered.")),
      },
      name(player) + " #" + player,
      el("small", {}, what + (on ? " · registered" : " · not yet"))
    );
  }

  function boardControls() {
    const doc = views().classic;
    const closed = (views().tournament || {}).closed;
    const out = [];
    if (!closed) {
      out.push(button(format() === "epc-kids" ? "Close today's tournament" : "Close Classic qualifying", () => act("close", {}, "Qualifying closed.")));
    }
    if (!doc) return out;
    if (!closed) {
      const machine = el("select", { "aria-label": "Faulty machine" }, B.machineList(views()).map(([id, m]) => el("option", { value: id }, m.name)));
      const repl = el("input", { placeholder: "Replacement id (optional)", "aria-label": "Replacement id" });
      const replName = el("input", { placeholder: "Replacement name", "aria-label": "Replacement name" });
      out.push(
        el(
          "form",
          {
            class: "epc-form",
            onsubmit: (event) => {
              event.preventDefault();
              const body = { machine: machine.value, repairable: false };
              if (repl.value.trim()) Object.assign(body, { replacement: repl.value.trim(), replacement_name: replName.value.trim() || repl.value.trim() });
              act("faults", body, "Fault recorded.");
            },
          },
          el("strong", {}, "Fault:"),
          machine,
          repl,
          replName,
          el("button", { type: "submit", class: "secondary" }, "Take out")
        )
      );
    }
    const next = { qualifying: "semifinal", semifinal: "final", final: "complete" }[doc.stage];
    if (closed && next) {
      out.push(button("Start the Classic " + (next === "complete" ? "finish" : next === "final" ? "final" : "semi-finals"), () => act("stage", { stage: next }, "Done.")));
    }
    if (doc.stage !== "qualifying") out.push(playoffForm([["1", "semi-final 1"], ["2", "semi-final 2"], ["final", "final"]]));
    return out;
  }

  /* ---------- live picture ---------- */

  function list(items) {
    return el("ol", { class: "epc-list" }, items);
  }

  function line(place, number, fig, sub, up) {
    return el(
      "li",
      { class: up ? "up" : "", dataset: { player: number } },
      el("span", { class: "place" }, place),
      el("span", { class: "name" }, name(number), el("span", { class: "num" }, "#" + number)),
      el("span", { class: "fig" }, fig, sub ? el("span", { class: "sub" }, sub) : null)
    );
  }

  function sorted(rows) {
    return Object.entries(rows || {}).sort(([pa, a], [pb, b]) => (a.place || 1e9) - (b.place || 1e9) || B.byNumber(pa, pb));
  }

  function gameCards(doc) {
    return Object.values((doc || {}).games || {})
      .sort((a, b) => a.order - b.order)
      .map((game) =>
        el(
          "section",
          { class: "epc-card", dataset: { game: game.name } },
          el("h2", {}, game.name.charAt(0).toUpperCase() + game.name.slice(1) + (game.machine ? " · " + machineName(game.machine) : "")),
          list(
            Object.entries(game.players)
              .sort((a, b) => a[1].choice - b[1].choice)
              .map(([number, p]) =>
                line(
                  p.place ? B.epc_ordinal(p.place) : p.choice + ".",
                  number,
                  p.score === undefined ? "–" : B.fmt.score(p.score),
                  (p.seed ? "QF " + p.seed + " · " : "") + "pick " + p.choice,
                  p.place === 1
                )
              )
          ),
          game.tie ? el("p", { class: "error" }, "Tied: " + game.tie.join(", ") + " — play-off") : null
        )
      )
  }

  function liveBody(stage) {
    const v = views();
    const out = [];
    if (v.classic) {
      out.push(
        el(
          "section",
          { class: "epc-card" },
          el("h2", {}, "Classic qualifiers"),
          list(
            sorted(
              Object.fromEntries(Object.entries(v.classic.places).map(([slot, p]) => [slot, { ...p, place: Number(slot) }]))
            ).map(([slot, p]) =>
              el(
                "li",
                { dataset: { slot: slot } },
                el("span", { class: "place" }, slot),
                el("span", { class: "name" }, machineName(p.machine), el("span", { class: "num" }, p.player ? name(p.player) : "—")),
                el("span", { class: "fig" }, p.score === undefined ? "" : B.fmt.score(p.score), p.lead !== undefined ? el("span", { class: "sub" }, "lead " + B.fmt.score(p.lead)) : null)
              )
            )
          )
        )
      );
      out.push(...gameCards(v["classic/games"]));
    }
    if (format() === "epc-kids") {
      const rows = B.standingRows(v.standings).filter(([, r]) => typeof r.place === "number");
      out.push(el("section", { class: "epc-card" }, el("h2", {}, "High scores"), list(rows.map(([n, r]) => line(r.place, n, B.fmt.score(r.total), r.band === "trophy" ? "trophy" : "", r.band)))));
    }
    if (v.placings && (stage === "complete" || stage === "final")) {
      const rows = sorted(v.placings.rows).map(([n, r]) => line(r.place || "–", n, "", r.stage, r.place && r.place <= 4));
      out.push(el("section", { class: "epc-card", dataset: { part: "placings" } }, el("h2", {}, "Final placings"), list(rows)));
    }
    if (v.finals) out.push(...gameCards(v.finals).reverse()); // the grand final first
    if (v.semifinal) out.push(...gameCards(v.semifinal));
    if (v.quarterfinal) {
      out.push(
        el(
          "section",
          { class: "epc-card" },
          el("h2", {}, "Quarter-final table"),
          list(sorted(v.quarterfinal.rows).map(([n, r]) => line(r.place, n, B.fmt.points(r.total), (r.games || 0) + "/6 games · seed " + r.seed, r.band === "semifinal")))
        )
      );
    }
    return out;
  }

  function render() {
    if (live.version === null) return;
    const stageDoc = views().stage || {};
    const stage = stageDoc.stage || (views().classic || {}).stage || "";
    const kidsOrClassic = format() === "epc-kids" || format() === "epc-classic";
    $("stage-name").textContent = kidsOrClassic
      ? ((views().tournament || {}).closed ? "Qualifying closed" : "Qualifying open") + (stage && stage !== "qualifying" ? " · " + NAMES[stage] : "")
      : NAMES[stage] || stage;
    $("stage-waiting").textContent = stageDoc.waiting || "";
    if (!config.public) {
      const signedIn = Boolean(localStorage.getItem(TOKEN));
      $("signin").hidden = signedIn;
      $("controls").hidden = !signedIn;
      if (signedIn && !busy) {
        const next = kidsOrClassic ? boardControls() : mainControls(stage);
        const classicStage = (views().classic || {}).stage;
        const fixes = kidsOrClassic ? fixControls(classicStage || "", true) : fixControls(stage, false);
        $("control-body").replaceChildren(...next, ...fixes);
      }
    }
    $("live-body").replaceChildren(...liveBody(stage));
  }

  B.epc_ordinal = function (n) {
    const s = ["th", "st", "nd", "rd"];
    const v = n % 100;
    return n + (s[(v - 20) % 10] || s[v] || s[0]);
  };

  if (!config.public) {
    $("signin-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const res = await fetch("/api/session", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ role: "td", password: $("signin-password").value }),
      });
      if (res.ok) {
        localStorage.setItem(TOKEN, (await res.json()).token);
        render();
      } else {
        show("signin-error", "Wrong password.");
        $("signin-password").select();
      }
    });
    $("sign-out").addEventListener("click", () => {
      B.endSession(localStorage.getItem(TOKEN));
      localStorage.removeItem(TOKEN);
      render();
    });
  }
  live.start();
})();
