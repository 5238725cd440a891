/* The steward's phone: sign in, choose a machine, type player number and score, show the player
 * a confirmation (EPC 2009, "EPC Qualifying": the steward shows the contestant what was recorded),
 * then submit.
 *
 * Sign-in, the pending entry and the submit that never records a score twice are
 * static/entry.js's (Backglass.entry).
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const E = B.entry;
  const el = B.el;
  const config = B.pageConfig();
  const tid = config.tournament;

  const MAX_SCORE = Number.MAX_SAFE_INTEGER;
  const KEYS = {
    session: "backglass.steward." + tid,
    machine: "backglass.machine." + tid,
    pending: "backglass.pending." + tid,
  };

  const $ = (id) => document.getElementById(id);
  const root = $("steward");
  const { load, store, showError, digits } = E;

  const state = {
    screen: "signin",
    session: load(KEYS.session),
    machine: localStorage.getItem(KEYS.machine),
    pending: load(KEYS.pending), // {key, body, sent} of the entry on the confirm screen
    sending: false,
    last: null, // {body, version} of the last recorded entry
  };

  function show(screen) {
    state.screen = screen;
    root.dataset.screen = screen;
    for (const name of ["signin", "machines", "entry", "confirm"]) {
      $("screen-" + name).hidden = name !== screen;
    }
    render();
  }

  /* ---------- the live views ---------- */

  const live = new B.Live(tid, {
    onchange: () => render(),
    onstatus: (connected, age) => B.showStatus($("status"), connected, age),
  });

  function views() {
    return live.views;
  }

  function machineName(id) {
    return ((views().machines || {})[id] || {}).name || "Machine " + id;
  }

  function knownPlayer(number) {
    return (views().players || {})[number] || null;
  }

  /* ---------- sign-in ---------- */

  E.stewardSignIn(tid, (session) => {
    state.session = session;
    store(KEYS.session, state.session);
    $("signin-pin").value = "";
    show(state.pending ? "confirm" : state.machine ? "entry" : "machines");
  });

  $("sign-out").addEventListener("click", () => {
    state.session = null;
    store(KEYS.session, null);
    show("signin");
  });

  /* ---------- machines ---------- */

  function renderMachines() {
    const grid = $("machine-grid");
    const list = B.machineList(views());
    $("steward-name").textContent = state.session ? state.session.name : "";
    if (live.version === null) return;
    if (list.length === 0) {
      grid.replaceChildren(el("p", { class: "muted" }, "No machines yet. The TD adds them."));
      return;
    }
    grid.replaceChildren(
      ...list.map(([id, machine]) =>
        el(
          "button",
          {
            type: "button",
            class: "machine-button" + (id === state.machine ? " current" : ""),
            dataset: { machine: id },
            onclick: () => chooseMachine(id),
          },
          el("span", { class: "machine-button-name" }, machine.name),
          el("span", { class: "machine-button-meta" }, ((views()["machine/" + id] || {}).played || 0) + " played")
        )
      )
    );
  }

  function chooseMachine(id) {
    state.machine = id;
    store(KEYS.machine, id);
    show("entry");
    $("entry-player").focus();
  }

  $("change-machine").addEventListener("click", () => show("machines"));

  /* ---------- entry ---------- */

  /* Group the score's digits as it is typed, keeping the caret after the same digit. */
  $("entry-score").addEventListener("input", (event) => {
    const input = event.target;
    const caret = input.selectionStart === null ? input.value.length : input.selectionStart;
    const before = digits(input.value.slice(0, caret)).length;
    const raw = digits(input.value);
    const formatted = B.fmt.score(raw);
    input.value = formatted;
    let position = 0;
    for (let seen = 0; position < formatted.length && seen < before; position++) {
      if (/\d/.test(formatted[position])) seen++;
    }
    input.setSelectionRange(position, position);
    showError("entry-error", "");
  });

  $("entry-player").addEventListener("input", () => {
    showError("entry-error", "");
    renderLookup();
  });

  function entryValues() {
    return { player: $("entry-player").value.trim(), score: digits($("entry-score").value) };
  }

  function renderLookup() {
    const node = $("entry-lookup");
    const number = $("entry-player").value.trim();
    node.className = "lookup";
    if (!number) {
      node.textContent = "";
      return;
    }
    const found = knownPlayer(number);
    if (found) {
      node.replaceChildren(el("strong", {}, found.name), found.guest ? " (guest)" : "", playedNote(number));
    } else if (live.version !== null) {
      node.className = "lookup warn";
      node.textContent = "No player number " + number + " in this tournament.";
    } else {
      node.textContent = "";
    }
  }

  /* What the steward should know before entering a second score for this player here. */
  function playedNote(number) {
    const row = ((views()["machine/" + state.machine] || {}).rows || {})[number];
    if (!row) return "";
    let note = " — already has " + B.fmt.score(row.score) + " here";
    const jokers = ((views().tournament || {}).settings || {}).jokers_per_player;
    if (jokers !== undefined) {
      const used = Object.keys(views())
        .filter((name) => name.startsWith("machine/"))
        .some((name) => ((views()[name].rows || {})[number] || {}).joker);
      note += used ? " and has used their joker game" : "; this would be their joker game";
    }
    return el("span", { class: "lookup-note" }, note);
  }

  $("entry-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const values = entryValues();
    if (!values.player) return fail("Type the player's number.", "entry-player");
    if (live.version !== null && !knownPlayer(values.player)) {
      return fail("No player number " + values.player + " in this tournament.", "entry-player");
    }
    if (!values.score) return fail("Type the score.", "entry-score");
    if (Number(values.score) > MAX_SCORE) return fail("That score is too large to record.", "entry-score");
    state.pending = {
      key: E.newIdempotencyKey(),
      body: { player: values.player, machine: state.machine, score: Number(values.score) },
      sent: false,
    };
    showError("confirm-error", "");
    show("confirm");
  });

  function fail(message, focus) {
    showError("entry-error", message);
    $(focus).focus();
  }

  /* ---------- confirm and submit ---------- */

  function renderConfirm() {
    const pending = state.pending;
    if (!pending) return;
    const player = knownPlayer(pending.body.player);
    $("confirm-name").textContent = player ? player.name : "Player " + pending.body.player;
    $("confirm-number").textContent = "#" + pending.body.player;
    $("confirm-machine").textContent = machineName(pending.body.machine);
    const text = B.fmt.score(pending.body.score);
    const scoreNode = $("confirm-score");
    scoreNode.textContent = text;
    // as large as fits the phone's width: ~0.62 em per character of a bold tabular figure
    const width = $("confirm-card").clientWidth - 24;
    scoreNode.style.fontSize = Math.min(64, Math.floor(width / (0.62 * text.length))) + "px";
    $("confirm-submit").disabled = state.sending;
    $("confirm-edit").disabled = state.sending;
  }

  const resumed = E.confirmation(state, KEYS, {
    url: () => "/api/t/" + encodeURIComponent(tid) + "/scores",
    recorded: (pending, res) => {
      state.last = { body: pending.body, version: res.data.version };
      $("entry-player").value = "";
      $("entry-score").value = "";
      renderLookup();
      show("entry");
      $("entry-player").focus();
    },
    discarded: () => show("entry"),
    show: show,
    renderConfirm: renderConfirm,
  });

  /* ---------- the last recorded entry, with its place from the live views ---------- */

  function renderResult() {
    const node = $("result");
    const last = state.last;
    if (!last) {
      node.hidden = true;
      return;
    }
    node.hidden = false;
    const body = last.body;
    const player = knownPlayer(body.player);
    const lines = [
      el("div", { class: "result-title" }, "✓ Recorded"),
      el(
        "div",
        { class: "result-entry" },
        el("strong", {}, player ? player.name : "Player " + body.player),
        " #" + body.player + " · " + machineName(body.machine) + " · ",
        el("strong", { class: "score" }, B.fmt.score(body.score))
      ),
    ];
    const doc = views()["machine/" + body.machine];
    if (live.version !== null && live.version >= last.version && doc) {
      const row = (doc.rows || {})[body.player];
      const standing = ((views().standings || {}).rows || {})[body.player];
      const ranked = Object.values(doc.rows || {}).filter((r) => typeof r.place === "number").length;
      const here = [];
      if (row && typeof row.place === "number") {
        here.push("place " + row.place + " of " + ranked);
        if (row.points !== undefined) here.push(B.fmt.points(row.points) + " points" + (row.bonus ? " (incl. bonus)" : ""));
      } else if (row) {
        here.push("not ranked (guest)");
      }
      const overall = [];
      if (standing && typeof standing.place === "number") {
        overall.push("place " + standing.place);
        overall.push(B.fmt.points(standing.total) + (standing.league_points !== undefined ? " machine points" : " points"));
      }
      const parts = [];
      if (here.length) parts.push(el("div", {}, "This machine: " + here.join(" · ")));
      if (overall.length) parts.push(el("div", {}, "Overall: " + overall.join(" · ")));
      lines.push(el("div", { class: "result-place", id: "result-place" }, parts));
    } else {
      lines.push(el("div", { class: "result-place muted" }, "Updating standings…"));
    }
    node.replaceChildren(...lines);
  }

  /* ---------- drawing ---------- */

  function render() {
    if (state.screen === "machines") renderMachines();
    if (state.screen === "entry" && live.version !== null && !(views().machines || {})[state.machine]) {
      show("machines"); // the remembered machine is not in this tournament (any more)
      return;
    }
    if (state.screen === "entry") {
      $("entry-machine").textContent = machineName(state.machine);
      renderLookup();
      renderResult();
    }
    if (state.screen === "confirm") renderConfirm();
  }

  function startScreen() {
    if (!state.session) return "signin";
    if (state.pending) return "confirm";
    return state.machine ? "entry" : "machines";
  }

  live.start();
  show(startScreen());
  resumed();
})();
