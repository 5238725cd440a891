/* The TD's adjustments page for a UKPL meeting: record what happened with who and why (UKPL 2E,
 * 2F, 6A, 6C, 7A, 7C, 7D), bring in past meetings' published results (3E), and withdraw a wrong
 * adjustment. Follows the meeting live (the "adjustments", "players", "machines" and "season"
 * views). Each submission carries an Idempotency-Key, so pressing again after a lost answer
 * records it once.
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;
  const config = B.pageConfig();
  const tid = config.tournament;
  const $ = (id) => document.getElementById(id);
  const TOKEN = "backglass.td";

  const KINDS = {
    slam_tilt: { fields: ["game", "machine", "reason"], hint: "The game scores zero." },
    extra_ball_penalty: {
      fields: ["game", "machine", "extra_ball_penalty", "reason"],
      hint: "Neither box: the next ball was lost, the score stands.",
    },
    jackpot_adjusted: {
      fields: ["game", "machine", "jackpot_adjusted", "reason"],
      hint: "The score less the jackpots awarded, plus the agreed value for each.",
    },
    fault_replay: {
      fields: ["game", "machine", "reason"],
      hint: "Record this first, then the steward enters the replay; the first game is discarded.",
    },
    fault_one_ball: {
      fields: ["game", "machine", "reason"],
      hint: "Record this first, then the steward enters the one ball; the two scores are added.",
    },
    penalty: {
      fields: ["game", "penalty", "reason"],
      hint: "After a penalty this season, the next one is at least one level higher.",
    },
    machine_substituted: {
      fields: ["machine", "machine_substituted", "reason"],
      hint: "Its games stop counting and are replayed on the substitute.",
    },
    multiplayer: { fields: ["machine", "multiplayer"], hint: "Entered together as one game." },
    reclassify: {
      fields: ["game", "reclassify", "reason"],
      hint: "Machine points are worked out again: a guest takes no place and does not count in N.",
    },
    results: { fields: ["results"], hint: "Its league points count in the season table." },
  };

  // withdrawing: {seq, version}: the adjustment's version when its form was opened, sent as
  // If-Match so a withdrawal another TD made meanwhile is refused (412) rather than repeated
  const state = { token: load(), key: null, withdrawing: null };

  function load() {
    return localStorage.getItem(TOKEN) || null; // the TD's token, shared with the desk's pages
  }

  const live = new B.Live(tid, {
    onchange: () => render(),
    onstatus: (connected, age) => B.showStatus($("status"), connected, age),
  });

  function views() {
    return live.views;
  }

  /* ---------- HTTP ---------- */

  /* POST with an Idempotency-Key (``key``, else a fresh one), resent with it while the outcome is
   * unknown (live.js writeOnce; ``onResend(text)`` says so meanwhile). ``unknown``: the final
   * answer still leaves open whether it was recorded, so pressing again must reuse the key. */
  async function post(path, body, key, version, onResend) {
    const headers = { "Content-Type": "application/json", Authorization: "Bearer " + state.token };
    headers["Idempotency-Key"] = key || B.newKey();
    if (version !== undefined) headers["If-Match"] = '"' + version + '"';
    const out = await B.writeOnce(path, { method: "POST", headers: headers, body: JSON.stringify(body), cache: "no-store" }, onResend);
    const res = out.res;
    if (!res) return { ok: false, status: 0, unknown: true, message: "No connection to the server. Press again: it is recorded once." };
    const data = out.data;
    if (res.status === 401) signOut("Sign in again: " + (data.message || "the sign-in has expired."));
    return { ok: res.ok, status: res.status, unknown: out.unknown, data: data, message: data.message || "The server answered " + res.status + "." };
  }

  /* ---------- sign-in ---------- */

  function showScreen() {
    $("signin").hidden = Boolean(state.token);
    $("work").hidden = !state.token;
  }

  function signOut(message) {
    state.token = null;
    localStorage.removeItem(TOKEN);
    showScreen();
    show($("signin-error"), message || "");
  }

  $("signin-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const res = await fetch("/api/session", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ role: "td", password: $("signin-password").value }),
    }).catch(() => null);
    const data = res ? await res.json().catch(() => ({})) : {};
    if (!res || !res.ok) {
      show($("signin-error"), data.message || "No connection to the server.");
      return;
    }
    state.token = data.token;
    localStorage.setItem(TOKEN, data.token);
    $("signin-password").value = "";
    show($("signin-error"), "");
    showScreen();
  });
  $("sign-out").addEventListener("click", () => {
    B.endSession(state.token);
    signOut("");
  });

  function show(node, text) {
    node.textContent = text || "";
    node.hidden = !text;
  }

  /* ---------- the form ---------- */

  function kind() {
    return $("kind").value;
  }

  function layout() {
    const wanted = new Set(KINDS[kind()].fields);
    for (const node of document.querySelectorAll(".fields")) node.hidden = !wanted.has(node.dataset.for);
    if (kind() === "penalty") {
      const zero = $("level").value === "zero";
      document.querySelector('.fields[data-for="machine"]').hidden = !zero;
    }
    $("new-machine").hidden = $("substitute").value !== "";
    $("kind-hint").textContent = KINDS[kind()].hint;
    state.key = null;
    state.lookedUp = null;
    lookups();
  }

  function digits(text) {
    return String(text || "").replace(/[\s,._']/g, "");
  }

  function score(text, what) {
    const clean = digits(text);
    if (!/^\d+$/.test(clean)) throw new Error(what + " must be a whole number.");
    return Number(clean);
  }

  function machines() {
    return B.machineList(views());
  }

  function fillMachines() {
    const options = machines().map(([id, m]) => el("option", { value: id }, m.name + " (" + id + ")"));
    for (const id of ["machine", "substitute"]) {
      const select = $(id);
      const before = select.value;
      const extra = id === "substitute" ? [el("option", { value: "" }, "A new machine…")] : [];
      select.replaceChildren(...options.map((o) => o.cloneNode(true)), ...extra);
      if ([...select.options].some((o) => o.value === before)) select.value = before;
    }
    if (!$("group").children.length) {
      for (let n = 1; n <= 6; n++) {
        $("group").append(
          el("span", { class: "n" }, n),
          el("input", { "data-role": "player", "data-n": n, inputmode: "numeric", placeholder: "player", maxlength: 32 }),
          el("input", { "data-role": "score", "data-n": n, inputmode: "numeric", placeholder: "score" })
        );
      }
    }
  }

  function lookups() {
    const number = $("player").value.trim();
    const machine = $("machine").value;
    const who = (views().players || {})[number];
    const lookup = $("player-lookup");
    lookup.className = "lookup" + (number && !who ? " warn" : "");
    if (!number) lookup.textContent = "";
    else if (!who) lookup.textContent = "No player " + number + " at this meeting.";
    else {
      const row = ((views()["machine/" + machine] || {}).rows || {})[number];
      const on = machine && row ? " · " + B.fmt.score(row.score) + " on this machine" : "";
      lookup.textContent = who.name + (who.guest ? " (guest)" : "") + on;
      // reclassifying: offer the other status, the one the record changes them to
      if (kind() === "reclassify" && state.lookedUp !== number) $("guest-to").value = who.guest ? "region" : "guest";
    }
    state.lookedUp = number;
  }

  function body() {
    const k = kind();
    const reason = $("reason").value.trim();
    const machine = $("machine").value;
    const player = $("player").value.trim();
    if (k === "multiplayer") {
      const scores = [];
      for (let n = 1; n <= 6; n++) {
        const p = document.querySelector('[data-role="player"][data-n="' + n + '"]').value.trim();
        const s = document.querySelector('[data-role="score"][data-n="' + n + '"]').value;
        if (p || digits(s)) scores.push({ player: p, score: score(s, "Player " + p + "'s score") });
      }
      return { path: "/api/t/" + tid + "/multiplayer", body: { machine: machine, scores: scores } };
    }
    if (k === "reclassify") {
      if (!reason) throw new Error("Say why: it is kept in the log with your name.");
      const guest = $("guest-to").value === "guest";
      return { path: "/api/t/" + tid + "/ukpl/players/" + encodeURIComponent(player) + "/guest", body: { guest: guest, reason: reason } };
    }
    if (k === "results") {
      const out = { meet: $("meet").value.trim(), csv: $("csv").value };
      if ($("held").value) out.held = $("held").value;
      return { path: "/api/t/" + tid + "/season/results", body: out };
    }
    if (!reason) throw new Error("Say why: it is kept in the log with your name.");
    const path = "/api/t/" + tid + "/adjustments";
    if (k === "machine_substituted") {
      const sub = $("substitute").value || { id: $("new-id").value.trim(), name: $("new-name").value.trim() };
      return { path: path, body: { type: k, machine: machine, substitute: sub, reason: reason } };
    }
    const out = { type: k, player: player, reason: reason };
    if (k !== "penalty" || $("level").value === "zero") out.machine = machine;
    if (k === "penalty") out.level = $("level").value;
    if (k === "extra_ball_penalty") {
      out.last_ball = $("last-ball").checked;
      out.kept_playing = $("kept-playing").checked;
    }
    if (k === "jackpot_adjusted") {
      out.awarded = $("awarded").value.split(/\n+/).filter((line) => digits(line)).map((line) => score(line, "A jackpot"));
      out.agreed = score($("agreed").value, "The agreed value");
    }
    return { path: path, body: out };
  }

  $("adjust-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    show($("adjust-error"), "");
    show($("adjust-done"), "");
    let request;
    try {
      request = body();
    } catch (error) {
      show($("adjust-error"), error.message);
      return;
    }
    const fingerprint = JSON.stringify(request);
    if (!state.key || state.key.fingerprint !== fingerprint) {
      state.key = { fingerprint: fingerprint, value: "adj-" + Date.now() + "-" + Math.random().toString(36).slice(2) };
    }
    $("adjust-submit").disabled = true;
    const res = await post(request.path, request.body, state.key.value, undefined, (text) => show($("adjust-error"), text));
    $("adjust-submit").disabled = false;
    if (!res.ok) {
      if (!res.unknown) state.key = null; // refused: nothing recorded, a new try is a new request
      show($("adjust-error"), res.message);
      return;
    }
    state.key = null;
    show($("adjust-error"), "");
    show($("adjust-done"), "Recorded (version " + res.data.version + ").");
    for (const id of ["reason", "awarded", "agreed", "csv", "meet", "new-id", "new-name"]) $(id).value = "";
    for (const input of $("group").querySelectorAll("input")) input.value = "";
  });

  $("kind").addEventListener("change", layout);
  $("level").addEventListener("change", layout);
  $("substitute").addEventListener("change", layout);
  $("player").addEventListener("input", lookups);
  $("machine").addEventListener("change", lookups);
  $("csv-file").addEventListener("change", async () => {
    const file = $("csv-file").files[0];
    if (!file) return;
    $("csv").value = await file.text();
    const match = /meet-([A-Za-z0-9_.-]+?)(-published)?\.csv$/.exec(file.name);
    if (match && !$("meet").value) $("meet").value = match[1];
  });

  /* ---------- what is recorded ---------- */

  const LABELS = {
    jackpot_adjusted: "Jackpot fixed",
    extra_ball_penalty: "Extra ball",
    slam_tilt: "Slam tilt",
    penalty: "Penalty",
    fault_replay: "Fault: replay",
    fault_one_ball: "Fault: one ball",
    machine_substituted: "Machine taken out",
  };

  function machineName(id) {
    return ((views().machines || {})[id] || {}).name || id;
  }

  function describe(row) {
    const who = row.player ? B.player(views(), row.player).name + " (" + row.player + ")" : "";
    const where = row.machine ? machineName(row.machine) : "";
    const label = LABELS[row.type] + (row.level ? ": " + row.level.replace("_", " ") : "");
    return [label, who, row.type === "machine_substituted" ? where + " → " + machineName(row.substitute) : where]
      .filter(Boolean)
      .join(" · ");
  }

  function effect(row) {
    if (row.status === "pending") return "awaiting the game";
    const effects = Object.values(row.effects || {});
    if (effects.length !== 1) return "";
    const e = effects[0];
    return (e.before === undefined ? "no game" : B.fmt.score(e.before)) + " → " + (e.after === undefined ? "—" : B.fmt.score(e.after));
  }

  /* "td:Ann" -> "Ann (TD)", "steward:Sam" -> "Sam (steward)". */
  function byText(by) {
    const [role, ...rest] = String(by || "").split(":");
    const name = rest.join(":");
    if (role === "td") return name === "TD" ? "TD" : name + " (TD)";
    return name + " (" + role + ")";
  }

  function withdrawForm(seq, version) {
    const input = el("input", { class: "reason-input", maxlength: 300, placeholder: "Why withdraw it?" });
    const error = el("p", { class: "error", hidden: true });
    const send = async () => {
      const res = await post("/api/t/" + tid + "/adjustments/" + seq + "/withdraw", { reason: input.value.trim() }, undefined, version);
      if (!res.ok) {
        show(error, res.message);
        return;
      }
      state.withdrawing = null;
      input.blur();
      render();
    };
    return el(
      "div",
      { class: "actions stack" },
      el("label", { class: "field" }, "Why withdraw it", input),
      error,
      el("button", { type: "button", class: "small", onclick: send, dataset: { action: "confirm-withdraw" } }, "Withdraw")
    );
  }

  function renderRecords() {
    const doc = views().adjustments || { rows: {} };
    const rows = Object.entries(doc.rows).sort(([a], [b]) => Number(b) - Number(a));
    const items = rows.map(([seq, row]) => {
      const withdrawn = row.status === "withdrawn";
      const canWithdraw = !withdrawn && row.type !== "machine_substituted";
      return el(
        "li",
        { class: "record" + (withdrawn ? " withdrawn" : ""), dataset: { seq: seq, status: row.status } },
        el("span", { class: "what" }, describe(row), row.status === "pending" ? el("span", { class: "state" }, "pending") : null),
        el("span", { class: "change" }, withdrawn ? "withdrawn" : effect(row)),
        el(
          "span",
          { class: "why" },
          row.reason + " — " + byText(row.by) +
            (withdrawn ? " · withdrawn: " + row.withdrawn.reason + " — " + byText(row.withdrawn.by) : "")
        ),
        state.withdrawing && state.withdrawing.seq === seq
          ? withdrawForm(seq, state.withdrawing.version)
          : canWithdraw
            ? el(
                "div",
                { class: "actions" },
                el("button", { type: "button", class: "small", onclick: () => { state.withdrawing = { seq: seq, version: row.version }; render(); } }, "Withdraw…")
              )
            : null
      );
    });
    $("records").replaceChildren(...(items.length ? items : [el("li", { class: "muted" }, "None yet.")]));
    const banned = Object.entries(doc.banned || {});
    $("banned-title").hidden = !banned.length;
    $("banned").replaceChildren(
      ...banned.map(([player, ban]) =>
        el("li", { class: "record" }, el("span", { class: "what" }, B.player(views(), player).name + " (" + player + ")"),
          el("span", { class: "why" }, ban.level.replace("_", " ") + " at meeting " + ban.meet + ": " + ban.reason + " — " + byText(ban.by)))
      )
    );
  }

  function renderImports() {
    const meets = Object.entries((views().season || {}).meets || {}).filter(([, m]) => m.source === "imported");
    $("imports-title").hidden = !meets.length;
    $("imports").replaceChildren(
      ...meets.map(([id, meet]) => {
        const remove = async () => {
          const reason = window.prompt("Why take meeting " + id + " out of the season?");
          if (!reason) return;
          const res = await post("/api/t/" + tid + "/season/results/" + encodeURIComponent(id) + "/remove", { reason: reason });
          if (!res.ok) show($("adjust-error"), res.message);
        };
        return el(
          "li",
          { class: "record", dataset: { meet: id } },
          el("span", { class: "what" }, "Meeting " + id),
          el("span", { class: "change" }, meet.competitors + " region players"),
          el("span", { class: "why" }, (meet.held ? "held " + meet.held : "date not given") + (meet.void ? " · does not count (fewer than the minimum)" : "")),
          el("div", { class: "actions" }, el("button", { type: "button", class: "small", onclick: remove }, "Remove…"))
        );
      })
    );
  }

  function render() {
    if (live.version === null) return;
    B.showField(views());
    fillMachines();
    lookups();
    if (!document.activeElement || !document.activeElement.classList.contains("reason-input")) renderRecords();
    renderImports();
  }

  showScreen();
  layout();
  live.start();
})();
