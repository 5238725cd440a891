/* The audit page: every record of the tournament's log, newest first, with who, when and why,
 * filterable by player, machine and kind (the filters are kept in the URL, so a link can be
 * shared). A corrected or voided score stays listed, marked with the record that changed it.
 *
 * The log is public (GET /api/t/{tid}/log); new records are fetched as the live version moves.
 * Signed in, the TD corrects or voids a score from here; a steward voids their own entry within
 * the window the TD set (hall setting void_window_seconds).
 *
 * A long log is shown PAGE_SIZE records a page, newest first, with Newer and Older buttons (a
 * weekend's log runs to thousands of records; one page of them all took seconds to draw and a
 * phone scrolled for minutes). A filter starts again at the newest page. */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;
  const config = B.pageConfig();
  const tid = config.tournament;
  const $ = (id) => document.getElementById(id);
  const api = "/api/t/" + encodeURIComponent(tid);
  const PAGE_SIZE = 50;
  const KEYS = { mine: "backglass.queue." + tid, steward: "backglass.steward." + tid, td: "backglass.td" };

  const state = {
    records: [],
    last: 0,
    loading: false,
    origin: new Map(), // seq of a score or correction -> seq of the score it stands for
    fixes: new Map(), // seq of a score -> [correction and void records]
    filter: { player: config.player || "", machine: config.machine || "", kind: new URLSearchParams(location.search).get("kind") || "" },
    page: 0, // 0: the newest PAGE_SIZE records shown, 1: the next older ones, …
    editing: null, // {seq, action, version}: the entry's version when the editor was opened
    session: session(),
  };

  function read(key) {
    const raw = localStorage.getItem(key);
    if (raw === null) return null;
    try {
      const value = JSON.parse(raw);
      return value && typeof value === "object" ? value : raw;
    } catch (_) {
      return raw; // a bare token (the TD's desk keeps it so)
    }
  }

  function session() {
    const mine = read(KEYS.mine);
    if (mine && mine.token && mine.role !== "player") return mine;
    const steward = read(KEYS.steward);
    if (steward && steward.token) return { role: "steward", token: steward.token, name: steward.name };
    const td = read(KEYS.td);
    const token = typeof td === "string" ? td : td && td.token;
    return token ? { role: "td", token: token, name: "TD" } : null;
  }

  const live = new B.Live(tid, {
    onchange: () => {
      renderFilters();
      render();
      fetchNew();
    },
    onstatus: (connected, age) => B.showStatus($("status"), connected, age),
  });

  /* ---------- reading the log ---------- */

  async function fetchNew() {
    if (state.loading || (live.version !== null && live.version <= state.last && state.records.length)) return;
    state.loading = true;
    try {
      const res = await fetch(api + "/log?after=" + state.last, { cache: "no-store" });
      if (!res.ok) throw new Error("log " + res.status);
      const found = (await res.json()).records || [];
      for (const record of found) add(record);
      showError("error", "");
      render();
    } catch (_) {
      showError("error", "Cannot read the log just now; it will be read again when the connection is back.");
    } finally {
      state.loading = false;
    }
    if (live.version !== null && live.version > state.last) fetchNew();
  }

  function add(record) {
    if (record.seq <= state.last) return;
    state.last = record.seq;
    state.records.push(record);
    if (record.type === "score_recorded") state.origin.set(record.seq, record.seq);
    const target = record.type === "score_corrected" ? record.corrects : record.type === "score_voided" ? record.voids : null;
    if (target !== null) {
      const origin = state.origin.get(target) || target;
      if (record.type === "score_corrected") state.origin.set(record.seq, origin);
      if (!state.fixes.has(origin)) state.fixes.set(origin, []);
      state.fixes.get(origin).push(record);
    }
  }

  /* ---------- words ---------- */

  function views() {
    return live.views;
  }

  function person(number) {
    if (number === undefined || number === null) return "";
    const who = (views().players || {})[number];
    return (who ? who.name : "Player") + " (" + number + ")";
  }

  function machine(id) {
    return ((views().machines || {})[id] || {}).name || "machine " + id;
  }

  function who(by) {
    const [role, ...rest] = String(by || "").split(":");
    const name = rest.join(":");
    if (role === "td") return name && name !== "TD" ? "TD (" + name + ")" : "TD";
    if (role === "steward") return "Steward " + name;
    if (role === "player") return "Player " + person(name);
    return by || "—";
  }

  /* When a record was written, in the venue's time with its zone ("Tue 01:10:05 GMT"). */
  function when(at) {
    return B.fmt.time(at, { weekday: true, seconds: true });
  }

  const STATUS = { in_service: "back in service", out_of_order: "out of order", closed: "closed", replaced: "replaced" };

  /* The score as it stood just before record ``seq``: the original, or its latest correction,
   * with the player and machine a correction may have changed. */
  function previous(origin, seq) {
    const first = state.records.find((r) => r.seq === origin);
    if (!first) return null;
    let now = { score: first.score, player: first.player, machine: first.machine };
    for (const fix of state.fixes.get(origin) || []) {
      if (fix.seq >= seq || fix.type !== "score_corrected") continue;
      now = { score: fix.score, player: fix.player || now.player, machine: fix.machine || now.machine };
    }
    return now;
  }

  function original(seq) {
    return state.records.find((r) => r.seq === (state.origin.get(seq) || seq));
  }

  /* ": check Machine 1 (kept 900,000, dropped 500,000)" for a merge with clashes (players view). */
  function mergeClashes(from) {
    const into = ((views().players || {})[from] || {}).merged_into;
    const note = ((((views().players || {})[into] || {}).merged) || {})[from] || {};
    const clashes = Object.entries(note.clashes || {}).map(
      ([m, c]) => machine(m) + " (kept " + B.fmt.score(c.kept) + ", dropped " + c.dropped.map(B.fmt.score).join(", ") + ")"
    );
    return clashes.length ? ": check " + clashes.join("; ") : "";
  }

  function what(r) {
    const score = (value) => B.fmt.score(value);
    switch (r.type) {
      case "tournament_created": return "Tournament created: " + r.name + " (" + r.format + ")";
      case "player_added": return "Player added: " + r.player.name + " (" + r.player.number + ")" + (r.player.guest ? ", guest" : "");
      case "machine_added": return "Machine added: " + r.machine.name + " (" + r.machine.id + ")";
      case "score_recorded": return person(r.player) + " scored " + score(r.score) + " on " + machine(r.machine);
      case "settings_changed": return "Settings changed: " + JSON.stringify(r.settings).replace(/[{}"]/g, "").replace(/,/g, ", ").replace(/:/g, " = ");
      case "queue_joined": return person(r.player) + " joined the queue for " + machine(r.machine);
      case "queue_called": return person(r.player) + " called to " + machine(r.machine);
      case "game_started": return person(r.player) + " started on " + machine(r.machine) + (r.started_at ? " at " + when(r.started_at) : "");
      case "queue_skipped": return person(r.player) + " did not come to " + machine(r.machine) + (r.to === "out" ? ": out of the queue" : ": to the back");
      case "queue_paused": return person(r.player) + " paused in the queue for " + machine(r.machine);
      case "queue_resumed": return person(r.player) + " back in the queue for " + machine(r.machine);
      case "queue_moved": return person(r.player) + " moved to place " + r.position + " for " + machine(r.machine);
      case "queue_left": return person(r.player) + " left the queue for " + machine(r.machine);
      case "machine_status_changed":
        return machine(r.machine) + " " + STATUS[r.status] + (r.replacement ? " by " + machine(r.replacement) : "");
      case "score_corrected": {
        const origin = state.origin.get(r.corrects) || r.corrects;
        const before = previous(origin, r.seq) || {};
        const moved = [
          r.player && r.player !== before.player ? "for " + person(r.player) : "",
          r.machine && r.machine !== before.machine ? "on " + machine(r.machine) : "",
        ];
        const from = before.score !== undefined ? " from " + score(before.score) : "";
        return ["Score #" + origin + " corrected" + from + " to " + score(r.score), ...moved].filter(Boolean).join(" ");
      }
      case "score_voided": {
        const first = original(r.voids) || {};
        return "Score #" + (state.origin.get(r.voids) || r.voids) + " voided (" + person(first.player) + " on " + machine(first.machine) + ")";
      }
      case "player_withdrawn": return person(r.player) + " withdrew";
      case "players_merged": return person(r.player) + " merged into " + person(r.into) + mergeClashes(r.player);
      case "player_reclassified": return person(r.player) + (r.guest ? " made a guest" : " made a region player");
      default: {
        const fields = Object.entries(r).filter(([k]) => !["seq", "type", "by", "at", "reason", "note"].includes(k));
        return r.type.replace(/_/g, " ") + (fields.length ? ": " + fields.map(([k, v]) => k + " " + (typeof v === "object" ? JSON.stringify(v) : v)).join(", ") : "");
      }
    }
  }

  /* ---------- filters ---------- */

  const KINDS = {
    scores: (r) => r.type === "score_recorded",
    fixes: (r) => r.type === "score_corrected" || r.type === "score_voided",
    queues: (r) => r.type.startsWith("queue_") || r.type === "game_started",
    machines: (r) => r.type === "machine_added" || r.type === "machine_status_changed",
    setup: (r) => ["tournament_created", "player_added", "settings_changed", "player_withdrawn", "player_reclassified", "players_merged"].includes(r.type),
  };

  function players(r) {
    const out = [r.player && typeof r.player === "object" ? r.player.number : r.player];
    const first = r.type === "score_corrected" ? original(r.corrects) : r.type === "score_voided" ? original(r.voids) : null;
    if (first) out.push(first.player);
    return out.filter((p) => p !== undefined && p !== null).map(String);
  }

  function machines(r) {
    const out = [r.machine && typeof r.machine === "object" ? r.machine.id : r.machine, r.replacement];
    const first = r.type === "score_corrected" ? original(r.corrects) : r.type === "score_voided" ? original(r.voids) : null;
    if (first) out.push(first.machine);
    return out.filter((m) => m !== undefined && m !== null).map(String);
  }

  function shown(r) {
    const f = state.filter;
    if (f.player && !players(r).includes(f.player)) return false;
    if (f.machine && !machines(r).includes(f.machine)) return false;
    return !f.kind || !KINDS[f.kind] || KINDS[f.kind](r);
  }

  function setFilter(name, value) {
    state.filter[name] = value.trim();
    const query = new URLSearchParams();
    for (const [key, v] of Object.entries(state.filter)) if (v) query.set(key, v);
    history.replaceState(null, "", location.pathname + (query.toString() ? "?" + query : ""));
    state.page = 0;
    render();
  }

  $("filter-player").addEventListener("input", (e) => setFilter("player", e.target.value));
  $("filter-machine").addEventListener("change", (e) => setFilter("machine", e.target.value));
  $("filter-kind").addEventListener("change", (e) => setFilter("kind", e.target.value));
  $("filter-clear").addEventListener("click", () => {
    for (const id of ["filter-player", "filter-machine", "filter-kind"]) $(id).value = "";
    for (const name of ["player", "machine", "kind"]) state.filter[name] = "";
    setFilter("player", "");
  });

  function renderFilters() {
    const list = B.machineList(views());
    const select = $("filter-machine");
    const want = ["", ...list.map(([id]) => id)].join(",");
    if (select.dataset.ids !== want) {
      select.replaceChildren(el("option", { value: "" }, "All machines"), ...list.map(([id, m]) => el("option", { value: id }, m.name)));
      select.dataset.ids = want;
    }
    select.value = state.filter.machine;
    const players_ = Object.entries(views().players || {});
    if ($("player-list").childElementCount !== players_.length) {
      $("player-list").replaceChildren(...players_.map(([n, p]) => el("option", { value: n }, p.name)));
    }
  }

  /* ---------- corrections and voids ---------- */

  function mayVoid(r) {
    if (!state.session) return false;
    if (state.session.role === "td") return true;
    const window_ = (((views().tournament || {}).hall || {}).void_window_seconds) || 0;
    const age = (Date.now() - Date.parse(r.at)) / 1000;
    return r.type === "score_recorded" && r.by === "steward:" + state.session.name && age <= window_ && !(state.fixes.get(r.seq) || []).length;
  }

  /* An entry's version: the seq of its latest correction, else of the score itself. A correction
   * or void names the version it was opened at (If-Match), so a change someone made meanwhile is
   * refused (412) instead of silently overwritten. */
  function version(r) {
    const fixes = (state.fixes.get(r.seq) || []).filter((f) => f.type === "score_corrected");
    return fixes.length ? fixes[fixes.length - 1].seq : r.seq;
  }

  function fixable(r) {
    if (r.type !== "score_recorded") return false;
    return !(state.fixes.get(r.seq) || []).some((f) => f.type === "score_voided");
  }

  async function submit(r, action, form) {
    const data = Object.fromEntries(new FormData(form).entries());
    const body = { reason: (data.reason || "").trim() };
    const problem = form.querySelector(".error");
    if (!body.reason) {
      problem.textContent = "Give the reason: it is kept in the audit log with the change.";
      problem.hidden = false;
      return;
    }
    if (action === "correct") {
      body.score = Number(String(data.score || "").replace(/\D/g, ""));
      if (data.player && data.player.trim() !== r.player) body.player = data.player.trim();
      if (data.machine && data.machine !== r.machine) body.machine = data.machine;
      // the TD pressed "Move it anyway" after the server said what the move would do
      if (state.editing.confirm) body.confirm = true;
    }
    // one key per change: resent with it while the outcome is unknown (live.js writeOnce), and
    // kept for the next press of the same change if it is still unknown, so it is recorded once
    const editing = state.editing;
    const fingerprint = action + " " + JSON.stringify(body);
    if (!editing.key || editing.key.fingerprint !== fingerprint) editing.key = { fingerprint: fingerprint, value: B.newKey() };
    const init = {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Authorization: "Bearer " + state.session.token,
        "Idempotency-Key": editing.key.value,
        "If-Match": '"' + editing.version + '"',
      },
      body: JSON.stringify(body),
    };
    const say = (text) => {
      problem.textContent = text;
      problem.hidden = !text;
    };
    const out = await B.writeOnce(api + "/scores/" + r.seq + "/" + action, init, say);
    const res = out.res;
    if (!res || !res.ok) {
      if (!out.unknown) editing.key = null; // refused: nothing recorded
      const ask = form.querySelector(".confirm-move");
      if (ask) ask.hidden = !(res && out.data.error === "move_needs_confirm");
      say(res ? out.data.message || "The server answered " + res.status + "." : "No answer from the server, so this may have been recorded. Press again: it is recorded once.");
      return;
    }
    state.editing = null;
    render();
  }

  function editor(r) {
    const action = state.editing.action;
    const current = (state.fixes.get(r.seq) || []).filter((f) => f.type === "score_corrected").pop() || r;
    const fields = [];
    if (action === "correct") {
      fields.push(el("label", {}, "Score", el("input", { name: "score", inputmode: "numeric", value: B.fmt.score(current.score), required: true })));
      fields.push(el("label", {}, "Player", el("input", { name: "player", inputmode: "numeric", value: current.player || r.player })));
      fields.push(el("label", {}, "Machine", el("select", { name: "machine" }, B.machineList(views()).map(([id, m]) => el("option", { value: id, selected: id === (current.machine || r.machine) }, m.name)))));
    }
    fields.push(el("label", { class: "wide" }, "Reason", el("input", { name: "reason", required: true, maxlength: "200", placeholder: "why, for the audit log" })));
    const form = el(
      "form",
      {
        class: "editor",
        novalidate: true,
        onsubmit: (e) => { e.preventDefault(); submit(r, action, e.target); },
        // a changed correction is asked about again: the confirmation was for the move shown
        oninput: (e) => { state.editing.confirm = false; e.currentTarget.querySelector(".confirm-move").hidden = true; },
      },
      fields,
      el("div", { class: "editor-actions" },
        el("button", { type: "submit", class: "primary" }, action === "correct" ? "Save correction" : "Void this score"),
        el("button", { type: "button", class: "primary confirm-move", hidden: true, onclick: (e) => { state.editing.confirm = true; submit(r, action, e.target.form); } }, "Move it anyway"),
        el("button", { type: "button", class: "secondary", onclick: () => { state.editing = null; render(); } }, "Cancel")),
      el("p", { class: "error", role: "alert", hidden: true })
    );
    return form;
  }

  /* ---------- drawing ---------- */

  function row(r) {
    const fixes = state.fixes.get(r.seq) || [];
    const voided = fixes.find((f) => f.type === "score_voided");
    const corrected = fixes.filter((f) => f.type === "score_corrected");
    const notes = [];
    if (corrected.length) notes.push("corrected by #" + corrected.map((f) => f.seq).join(", #"));
    if (voided) notes.push("voided by #" + voided.seq);
    const actions = [];
    if (fixable(r) && state.session) {
      if (state.session.role === "td") actions.push(el("button", { type: "button", class: "secondary small", onclick: () => edit(r, "correct") }, "Correct"));
      if (mayVoid(r)) actions.push(el("button", { type: "button", class: "secondary small", onclick: () => edit(r, "void") }, "Void"));
    }
    const editing = state.editing && state.editing.seq === r.seq;
    return el(
      "div",
      { class: "audit-row type-" + r.type + (voided || corrected.length ? " superseded" : "") + (voided ? " voided" : ""), role: "listitem", dataset: r.type === "score_recorded" && !voided ? { seq: r.seq, type: r.type, version: version(r) } : { seq: r.seq, type: r.type } },
      el("span", { class: "seq" }, "#" + r.seq),
      el("span", { class: "when" }, when(r.at)),
      el("span", { class: "by" }, who(r.by)),
      el("span", { class: "what" }, what(r), notes.length ? el("span", { class: "fixed" }, " — " + notes.join("; ")) : null),
      el("span", { class: "why" }, r.reason || r.note || ""),
      actions.length ? el("span", { class: "actions" }, actions) : null,
      editing ? editor(r) : null
    );
  }

  function edit(r, action) {
    state.editing = { seq: r.seq, action: action, version: version(r) };
    render();
    const input = document.querySelector(".editor input");
    if (input) input.focus();
  }

  function render() {
    renderSession();
    const chosen = state.records.filter(shown).reverse(); // newest first
    const pages = Math.max(1, Math.ceil(chosen.length / PAGE_SIZE));
    state.page = Math.min(Math.max(state.page, 0), pages - 1);
    const from = state.page * PAGE_SIZE;
    const page = chosen.slice(from, from + PAGE_SIZE);
    $("count").textContent = !state.records.length
      ? "No records yet"
      : pages === 1
        ? "Showing " + chosen.length + " of " + state.records.length + " records"
        : "Showing " + (from + 1) + "–" + (from + page.length) + " of " + chosen.length +
          (chosen.length === state.records.length ? " records" : " matching (" + state.records.length + " records)") + ", newest first";
    $("pager").hidden = pages === 1;
    $("page-of").textContent = "Page " + (state.page + 1) + " of " + pages;
    $("newer").disabled = state.page === 0;
    $("older").disabled = state.page === pages - 1;
    const rows = page.map(row);
    if (!rows.length && state.records.length) rows.push(el("p", { class: "muted" }, "No record matches these filters."));
    const kept = keepEditor();
    $("records").replaceChildren(...rows);
    kept();
  }

  /* A redraw (someone else's record arrived) keeps what is typed in an open correction. */
  function keepEditor() {
    const form = document.querySelector(".editor");
    if (!form) return () => {};
    const values = Object.fromEntries(new FormData(form).entries());
    const focused = document.activeElement && form.contains(document.activeElement) ? document.activeElement.name : null;
    return () => {
      const fresh = document.querySelector(".editor");
      if (!fresh) return;
      for (const [name, value] of Object.entries(values)) if (fresh.elements[name]) fresh.elements[name].value = value;
      if (focused && fresh.elements[focused]) fresh.elements[focused].focus();
    };
  }

  function renderSession() {
    const s = state.session;
    $("who").textContent = s ? (s.role === "td" ? "Signed in as TD" : "Signed in as steward " + s.name) : "Not signed in";
    $("sign-in-toggle").hidden = Boolean(s);
    $("sign-out").hidden = !s;
  }

  function showError(id, message) {
    $(id).textContent = message || "";
    $(id).hidden = !message;
  }

  function turn(by) {
    state.page += by;
    state.editing = null; // the row being edited is on the page left
    render();
    $("count").scrollIntoView({ block: "nearest" });
  }
  $("newer").addEventListener("click", () => turn(-1));
  $("older").addEventListener("click", () => turn(1));

  $("sign-in-toggle").addEventListener("click", () => ($("signin").hidden = !$("signin").hidden));
  $("signin-role").addEventListener("change", (e) => ($("signin-name").hidden = e.target.value !== "steward"));
  $("sign-out").addEventListener("click", () => {
    if (state.session) B.endSession(state.session.token);
    localStorage.removeItem(KEYS.mine);
    if (state.session && state.session.role === "td") localStorage.removeItem(KEYS.td);
    if (state.session && state.session.role === "steward") localStorage.removeItem(KEYS.steward);
    state.session = null;
    render();
  });
  $("signin").addEventListener("submit", async (event) => {
    event.preventDefault();
    const role = $("signin-role").value;
    const name = $("signin-name").value.trim();
    const secret = $("signin-secret").value;
    const body = role === "td" ? { role: "td", password: secret } : { role: "steward", tournament: tid, name: name, pin: secret };
    const res = await fetch("/api/session", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const answer = await res.json().catch(() => ({}));
    if (!res.ok) {
      showError("signin-error", answer.message || "Sign-in failed.");
      return;
    }
    state.session = { role: role, token: answer.token, name: role === "td" ? "TD" : name };
    localStorage.setItem(KEYS.mine, JSON.stringify(state.session));
    if (role === "td") localStorage.setItem(KEYS.td, answer.token); // one TD sign-in for every page
    if (role === "steward") localStorage.setItem(KEYS.steward, JSON.stringify({ token: answer.token, name: name }));
    $("signin").hidden = true;
    $("signin-secret").value = "";
    showError("signin-error", "");
    render();
  });

  $("filter-player").value = state.filter.player;
  $("filter-kind").value = state.filter.kind;
  live.start();
  window.backglassLive = live;
  fetchNew();
})();
