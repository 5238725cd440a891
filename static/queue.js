/* The queue page: every machine's queue, live. Stewards (and the TD) add players, call the next,
 * start, skip, pause and remove them, and mark a machine out of order; the TD also moves players
 * and closes or replaces machines. A player signed in with their number and PIN sees their place
 * and estimated wait, and joins or leaves queues when the TD allows it.
 *
 * Every action is one POST with its own Idempotency-Key, resent with the same key after a network
 * failure, so a flaky Wi-Fi never queues anyone twice. What changed arrives over the websocket. */
(function () {
  "use strict";
  const B = window.Backglass;
  const Q = B.queues;
  const el = B.el;
  const config = B.pageConfig();
  const tid = config.tournament;
  const $ = (id) => document.getElementById(id);

  const KEYS = { mine: "backglass.queue." + tid, steward: "backglass.steward." + tid, td: "backglass.td" };
  const TIMEOUT_MS = 10000;
  const RETRIES = 3;

  const state = { session: loadSession(), open: config.machine || null, busy: false, errors: {}, role: "player" };

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

  /* This page's session, else a steward's from the steward page, else a TD's from a TD page. */
  function loadSession() {
    const mine = read(KEYS.mine);
    if (mine && mine.token) return mine;
    const steward = read(KEYS.steward);
    if (steward && steward.token) return { role: "steward", token: steward.token, name: steward.name };
    const td = read(KEYS.td);
    const token = typeof td === "string" ? td : td && td.token;
    return token ? { role: "td", token: token, name: "TD" } : null;
  }

  function saveSession(session) {
    state.session = session;
    if (session) localStorage.setItem(KEYS.mine, JSON.stringify(session));
    else localStorage.removeItem(KEYS.mine);
  }

  const live = new B.Live(tid, {
    onchange: () => render(),
    onstatus: (connected, age) => B.showStatus($("status"), connected, age),
  });

  function views() {
    return live.views;
  }

  function role() {
    return state.session ? state.session.role : null;
  }

  function staff() {
    return role() === "steward" || role() === "td";
  }

  function me() {
    if (role() === "player") return state.session.player;
    return config.player || null;
  }

  function hall() {
    return ((views().tournament || {}).hall || {});
  }

  function label(number) {
    const who = B.player(views(), number);
    return who.name + " (" + number + ")";
  }

  function machineName(id) {
    return ((views().machines || {})[id] || {}).name || "Machine " + id;
  }

  /* ---------- requests ---------- */

  function newKey() {
    if (window.crypto && typeof window.crypto.randomUUID === "function") return window.crypto.randomUUID();
    return String(Date.now()) + Math.random().toString(16).slice(2);
  }

  async function post(path, body, key) {
    const headers = { "Content-Type": "application/json" };
    if (state.session) headers.Authorization = "Bearer " + state.session.token;
    if (key) headers["Idempotency-Key"] = key;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
    try {
      const res = await fetch(path, { method: "POST", headers: headers, body: JSON.stringify(body), signal: controller.signal });
      let data = {};
      try {
        data = await res.json();
      } catch (_) {
        data = {};
      }
      return { ok: res.ok, status: res.status, data: data, message: data.message || "The server answered " + res.status + "." };
    } finally {
      clearTimeout(timer);
    }
  }

  /* One action, resent with the same key after a network failure; errors show on the machine. */
  async function act(machine, path, body) {
    const key = newKey();
    state.busy = true;
    state.errors[machine] = "";
    render();
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const res = await post(path, body, key);
          if (res.status === 401 && state.session) {
            saveSession(null);
            state.errors[machine] = "Your sign-in has expired; sign in again.";
          } else if (!res.ok && res.status !== 503) {
            state.errors[machine] = res.message;
          }
          if (res.status === 503 && attempt >= RETRIES) {
            // the server's own words: "nothing was recorded" only when that is certain, else "may have been recorded"
            state.errors[machine] = res.message;
          }
          if (res.status !== 503 || attempt >= RETRIES) return res.ok;
        } catch (_) {
          if (attempt >= RETRIES) {
            state.errors[machine] = "No connection to the server. Check the Wi-Fi and try again.";
            return false;
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 400 * 2 ** attempt));
      }
    } finally {
      state.busy = false;
      render();
    }
  }

  function queueAction(machine, action, body) {
    return act(machine, "/api/t/" + encodeURIComponent(tid) + "/queues/" + encodeURIComponent(machine) + "/" + action, body || {});
  }

  function statusAction(machine, body) {
    return act(machine, "/api/t/" + encodeURIComponent(tid) + "/machines/" + encodeURIComponent(machine) + "/status", body);
  }

  /* ---------- sign-in ---------- */

  const SIGNIN = {
    player: { id: "Player number", secret: "PIN", numeric: true },
    steward: { id: "Your name", secret: "PIN", numeric: true },
    td: { id: null, secret: "TD password", numeric: false },
  };

  function chooseRole(which) {
    state.role = which;
    for (const tab of document.querySelectorAll(".tab")) tab.setAttribute("aria-selected", String(tab.dataset.role === which));
    const form = SIGNIN[which];
    $("signin-id-field").hidden = form.id === null;
    $("signin-id-label").textContent = form.id || "";
    $("signin-id").inputMode = which === "player" ? "numeric" : "text";
    $("signin-secret-label").textContent = form.secret;
    $("signin-secret").inputMode = form.numeric ? "numeric" : "text";
    showError("signin-error", "");
  }

  for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => chooseRole(tab.dataset.role));

  $("sign-in-toggle").addEventListener("click", () => {
    $("signin").hidden = !$("signin").hidden;
    if (!$("signin").hidden) (SIGNIN[state.role].id ? $("signin-id") : $("signin-secret")).focus();
  });

  $("sign-out").addEventListener("click", () => {
    if (state.session) B.endSession(state.session.token);
    if (role() === "steward") localStorage.removeItem(KEYS.steward);
    if (role() === "td") localStorage.removeItem(KEYS.td);
    saveSession(null);
    render();
  });

  $("signin-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const id = $("signin-id").value.trim();
    const secret = $("signin-secret").value.trim();
    const which = state.role;
    if ((SIGNIN[which].id && !id) || !secret) {
      showError("signin-error", "Fill in both fields.");
      return;
    }
    const path = which === "player" ? "/api/t/" + encodeURIComponent(tid) + "/player-session" : "/api/session";
    const body =
      which === "player"
        ? { player: id, pin: secret }
        : which === "steward"
          ? { role: "steward", tournament: tid, name: id, pin: secret }
          : { role: "td", password: secret };
    $("signin-submit").disabled = true;
    try {
      const res = await post(path, body);
      if (!res.ok) {
        showError("signin-error", res.message);
        return;
      }
      const session = { role: which, token: res.data.token, name: which === "td" ? "TD" : id };
      if (which === "player") session.player = id;
      if (which === "steward") localStorage.setItem(KEYS.steward, JSON.stringify({ token: res.data.token, name: id }));
      if (which === "td") localStorage.setItem(KEYS.td, res.data.token); // one TD sign-in for every page
      saveSession(session);
      $("signin-secret").value = "";
      $("signin").hidden = true;
      render();
    } catch (_) {
      showError("signin-error", "No connection to the server. Check the Wi-Fi and try again.");
    } finally {
      $("signin-submit").disabled = false;
    }
  });

  function showError(id, message) {
    $(id).textContent = message || "";
    $(id).hidden = !message;
  }

  /* ---------- drawing ---------- */

  function renderMe() {
    const session = state.session;
    const who =
      role() === "player" ? "Player " + label(session.player) : role() === "steward" ? "Steward " + session.name : role() === "td" ? "TD" : "Not signed in";
    $("me-who").textContent = who;
    $("sign-in-toggle").hidden = Boolean(session);
    $("sign-out").hidden = !session;
    const number = me();
    const box = $("me-queue");
    box.hidden = !number || live.version === null;
    if (box.hidden) return;
    const spot = Q.playerQueue(views(), number);
    box.className = "me-queue" + (spot && spot.up ? " up" : "");
    if (!spot) {
      const hint = role() === "player" && hall().players_may_queue ? "Choose a machine below and join its queue." : "Ask a steward to add you to a queue.";
      box.replaceChildren(el("div", { class: "me-big" }, "Not in a queue"), el("div", { class: "me-small" }, hint));
    } else if (spot.up) {
      const playing = spot.queue.up.state === "playing";
      box.replaceChildren(
        el("div", { class: "me-big" }, playing ? "Playing " + machineName(spot.machine) : "Your turn on " + machineName(spot.machine)),
        el("div", { class: "me-small" }, playing ? "Good luck!" : "Go to the machine now.")
      );
    } else {
      box.replaceChildren(
        el("div", { class: "me-big", dataset: { pos: spot.pos } }, "Number " + spot.pos + " for " + machineName(spot.machine)),
        el("div", { class: "me-small" }, spot.paused ? "Paused — you keep your place." : "Estimated wait " + Q.waitText(spot.wait))
      );
    }
  }

  function button(text, onclick, extra) {
    return el("button", Object.assign({ type: "button", class: "secondary small", disabled: state.busy, onclick: onclick }, extra || {}), text);
  }

  function summary(id, machine, queue) {
    const now = queue.up ? Q.upText(queue) + ": " + B.player(views(), queue.up.player).name : queue.status ? queue.note || "" : "free";
    const seconds = Q.wait(queue);
    const wait = queue.status
      ? Q.STATUS[queue.status]
      : (queue.count || 0) + " waiting · " + Q.waitText(seconds);
    return el(
      "button",
      { type: "button", class: "mq-summary", "aria-expanded": String(state.open === id), onclick: () => toggle(id) },
      el("span", { class: "mq-name" }, machine.name),
      el("span", { class: "mq-now" }, now),
      el("span", { class: "mq-wait" + (queue.status ? " down" : "") }, wait)
    );
  }

  function toggle(id) {
    state.open = state.open === id ? null : id;
    render();
  }

  function upBlock(id, queue) {
    if (!queue.up) return null;
    const up = queue.up;
    const actions = [];
    if (staff() && up.state === "called" && !queue.status) {
      actions.push(button("Start game", () => queueAction(id, "start", { player: up.player }), { class: "primary small" }));
      actions.push(button("No-show: skip", () => queueAction(id, "skip", { player: up.player })));
    }
    if (staff()) actions.push(button("Remove", () => queueAction(id, "leave", { player: up.player })));
    return el(
      "div",
      { class: "mq-up " + up.state },
      el("span", { class: "mq-tag" }, up.state === "playing" ? "Playing" : "Called"),
      el("span", { class: "mq-person" }, label(up.player)),
      el("span", { class: "mq-actions" }, actions)
    );
  }

  function waitingList(id, queue) {
    const rows = Q.ordered(queue);
    if (rows.length === 0) return el("p", { class: "muted mq-empty" }, "Nobody waiting.");
    return el(
      "ol",
      { class: "mq-list" },
      rows.map(([number, spot], i) => {
        const actions = [];
        if (staff()) {
          actions.push(
            spot.paused
              ? button("Resume", () => queueAction(id, "resume", { player: number }))
              : button("Pause", () => queueAction(id, "pause", { player: number, note: "" }))
          );
          if (role() === "td") {
            if (i > 0) actions.push(button("↑", () => queueAction(id, "move", { player: number, position: spot.pos - 1 }), { "aria-label": "Move up" }));
            if (i < rows.length - 1) actions.push(button("↓", () => queueAction(id, "move", { player: number, position: spot.pos + 1 }), { "aria-label": "Move down" }));
          }
          actions.push(button("Remove", () => queueAction(id, "leave", { player: number })));
        }
        return el(
          "li",
          { class: "mq-row" + (spot.paused ? " paused" : "") + (number === me() ? " mine" : ""), dataset: { player: number } },
          el("span", { class: "mq-pos" }, spot.pos),
          el("span", { class: "mq-person" }, label(number)),
          el("span", { class: "mq-eta" }, spot.paused ? "paused" : Q.waitText(Q.wait(queue, number))),
          actions.length ? el("span", { class: "mq-actions" }, actions) : null
        );
      })
    );
  }

  function staffForm(id, queue) {
    if (!staff()) return null;
    const input = el("input", { class: "mq-input", inputmode: "numeric", placeholder: "Player number", "aria-label": "Player number", maxlength: "32" });
    const add = (event) => {
      event.preventDefault();
      const number = input.value.trim();
      if (number) queueAction(id, "join", { player: number });
    };
    const controls = [];
    if (!queue.status) {
      controls.push(el("form", { class: "mq-add", onsubmit: add }, input, el("button", { type: "submit", class: "primary small", disabled: state.busy }, "Add")));
      if (!queue.up) controls.push(button("Call next", () => queueAction(id, "call", {}), { class: "primary small" }));
      controls.push(button("Out of order", () => {
        const note = window.prompt("What is wrong with " + machineName(id) + "?", "");
        if (note !== null) statusAction(id, { status: "out_of_order", note: note });
      }));
    } else if (queue.status === "out_of_order" || role() === "td") {
      if (queue.status !== "replaced") controls.push(button("Back in service", () => statusAction(id, { status: "in_service" })));
    }
    if (role() === "td" && queue.status !== "closed" && queue.status !== "replaced") {
      controls.push(button("Close", () => {
        if (window.confirm("Close " + machineName(id) + "? It takes no more scores.")) statusAction(id, { status: "closed" });
      }));
      controls.push(button("Replace…", () => {
        const other = window.prompt("Id of the machine that replaces " + machineName(id) + " (add it first):", "");
        if (other) statusAction(id, { status: "replaced", replacement: other.trim() });
      }));
    }
    return el("div", { class: "mq-controls" }, controls);
  }

  function playerForm(id, queue) {
    const number = me();
    if (role() !== "player" || !hall().players_may_queue || queue.status) return null;
    const spot = Q.playerQueue(views(), number);
    if (spot && spot.machine === id) {
      return el("div", { class: "mq-controls" }, button("Leave this queue", () => queueAction(id, "leave", {})));
    }
    return el("div", { class: "mq-controls" }, button("Join this queue", () => queueAction(id, "join", {}), { class: "primary small" }));
  }

  function mine(id, queue) {
    const number = me();
    return Boolean(number) && ((queue.up && queue.up.player === number) || Boolean((queue.waiting || {})[number]));
  }

  function machineNode(id, machine) {
    const queue = Q.doc(views(), id) || { waiting: {}, count: 0 };
    const open = state.open === id;
    const error = state.errors[id];
    return el(
      "li",
      { class: "mq" + (open ? " open" : "") + (queue.status ? " down" : "") + (mine(id, queue) ? " mine" : ""), dataset: { machine: id } },
      summary(id, machine, queue),
      open && queue.status ? el("p", { class: "mq-status" }, Q.STATUS[queue.status] + (queue.note ? ": " + queue.note : "")) : null,
      open ? upBlock(id, queue) : null,
      open ? waitingList(id, queue) : null,
      open ? staffForm(id, queue) : null,
      open ? playerForm(id, queue) : null,
      error ? el("p", { class: "error", role: "alert" }, error) : null
    );
  }

  function render() {
    renderMe();
    if (live.version === null) return;
    const list = B.machineList(views());
    if (list.length === 0) {
      $("machines").replaceChildren(el("li", { class: "muted" }, "No machines yet."));
      return;
    }
    const focus = document.activeElement && document.activeElement.classList.contains("mq-input") ? document.activeElement.value : null;
    $("machines").replaceChildren(...list.map(([id, machine]) => machineNode(id, machine)));
    if (focus !== null) {
      const input = document.querySelector(".mq.open .mq-input");
      if (input) {
        input.value = focus;
        input.focus();
      }
    }
  }

  chooseRole("player");
  setInterval(render, 15000); // estimated waits count down while a game is played
  live.start();
  window.backglassLive = live;
  render();
})();
