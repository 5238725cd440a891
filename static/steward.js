/* The steward's phone: sign in, choose a machine, tap the player the queue says is up on it (or
 * type a player number), type the score, show the player a confirmation (EPC 2009, "EPC
 * Qualifying": the steward shows the contestant what was recorded), then submit; Undo voids the
 * steward's own entry while the hall's void window (hall.void_window_seconds) is open.
 *
 * Touches per score on the machine the page remembers: the player (1), the digits, Check entry
 * (2), Submit (3); from the machine list, the player shown up on a machine's card is the first tap.
 *
 * The score field refuses a decimal point and commas that do not group by three; a score far
 * above the machine's best or far below its median asks a second time; above the hall's
 * max_score it is the TD's (the server refuses it too: above_maximum).
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
  const DEFAULT_MAX = 1e12; // hall.max_score's default (display/competitions/machines/state.py)
  // "far above the machine's top" and "far below its median": a second look, not a refusal
  const FAR_ABOVE_TOP = 10;
  const FAR_BELOW_MEDIAN = 100;
  const MEDIAN_AFTER = 3; // scores on the machine before its median means anything
  const ROLLED_BELOW_MEDIAN = 5; // on a machine that declares its digits: "did the score roll?"
  const UNDO_MARGIN_S = 5; // Undo goes before the server's window closes, so a late tap is not refused
  const QUEUE_PICKS = 3; // waiting players offered after the one up
  const UNDO_REASON = "Undone by the steward right after entering it";
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
    last: null, // {body, version, at (Date.now()), undone?} of the last recorded entry
    confirmed: null, // the score text the steward confirmed a second time ("far above …")
    rawScore: false, // the steward typed a separator: keep the text as typed, check it at Check
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

  /* The digits the machine's display shows, when it declares them (a score there may roll over). */
  function machineDigits(id) {
    return ((views().machines || {})[id] || {}).digits || null;
  }

  /* The score a player made: as displayed, plus the roll-overs times 10^digits (scoring/rollover.py). */
  function trueScore(score, rollovers, digitCount) {
    return rollovers && digitCount ? score + rollovers * Math.pow(10, digitCount) : score;
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
    if (state.session) B.endSession(state.session.token);
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
      ...list.map(([id, machine]) => {
        const up = ((views().queues || {})[id] || {}).up;
        return el(
          "div",
          { class: "machine-card" },
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
          ),
          up
            ? el(
                "button",
                {
                  type: "button",
                  class: "machine-up",
                  dataset: { machine: id, player: up.player },
                  onclick: () => chooseMachine(id, up.player),
                },
                playerLabel(up.player) + " · " + up.state
              )
            : null
        );
      })
    );
  }

  function playerLabel(number) {
    const player = knownPlayer(number);
    return (player ? player.name : "Player " + number) + " #" + number;
  }

  /* The machine, and with ``player`` (tapped on the queue) that player: the score field is next. */
  function chooseMachine(id, player) {
    if (id !== state.machine) clearEntry();
    state.machine = id;
    store(KEYS.machine, id);
    show("entry");
    if (player) pickPlayer(player);
    else $("entry-player").focus();
  }

  function clearEntry() {
    $("entry-player").value = "";
    $("entry-score").value = "";
    $("entry-rollovers").value = "";
    state.rawScore = false;
    state.confirmed = null;
    showError("entry-error", "");
    showError("entry-warning", "");
  }

  function pickPlayer(number) {
    $("entry-player").value = number;
    showError("entry-error", "");
    renderLookup();
    renderPicks();
    $("entry-score").focus();
  }

  /* Who the queue has on this machine: the player up (called or playing), then the next ones. */
  function renderPicks() {
    const node = $("queue-picks");
    const queue = (views().queues || {})[state.machine] || {};
    const waiting = Object.entries(queue.waiting || {})
      .sort((a, b) => a[1].pos - b[1].pos)
      .filter(([, w]) => !w.paused)
      .slice(0, QUEUE_PICKS)
      .map(([player]) => [player, "next"]);
    const picks = (queue.up ? [[queue.up.player, queue.up.state]] : []).concat(waiting);
    node.hidden = picks.length === 0;
    const chosen = $("entry-player").value.trim();
    node.replaceChildren(
      el("div", { class: "queue-picks-title" }, "On this machine — tap the player"),
      ...picks.map(([player, what], index) =>
        el(
          "button",
          {
            type: "button",
            class: "queue-pick" + (index === 0 && queue.up ? " up" : "") + (player === chosen ? " chosen" : ""),
            dataset: { player: player },
            onclick: () => pickPlayer(player),
          },
          el("span", { class: "queue-pick-name" }, playerLabel(player)),
          el("span", { class: "queue-pick-state" }, what)
        )
      )
    );
  }

  $("change-machine").addEventListener("click", () => show("machines"));

  /* ---------- entry ---------- */

  /* Group the score's digits as it is typed, keeping the caret after the same digit. Once the
   * steward types or pastes anything but a digit, the text stays as typed and is checked as it
   * is (scoreProblem), so "12.3" is never taken for 123 nor "1,23,456" for 123456. */
  $("entry-score").addEventListener("input", (event) => {
    const input = event.target;
    state.confirmed = null;
    showError("entry-warning", "");
    $("entry-check").textContent = "Check entry";
    const inserted = event.data || "";
    if (/[^\d]/.test(inserted) || (event.inputType === "insertFromPaste" && /[^\d]/.test(input.value))) {
      state.rawScore = true;
    }
    if (state.rawScore && /^\d*$/.test(input.value)) state.rawScore = false;
    if (state.rawScore) {
      const problem = scoreProblem(input.value);
      // a decimal point is wrong at once; a grouping may still be on its way ("1,2" of "1,234")
      showError("entry-error", problem && problem.now ? problem.message : "");
      return;
    }
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
    renderPicks();
  });

  function entryValues() {
    const rollovers = machineDigits(state.machine) ? Number(digits($("entry-rollovers").value)) || 0 : 0;
    return { player: $("entry-player").value.trim(), score: digits($("entry-score").value), rollovers: rollovers };
  }

  /* What is wrong with the score as typed, or null: {message, now} (``now``: say it while typing). */
  function scoreProblem(text) {
    const typed = String(text).replace(/[\s\u00a0\u202f]/g, "");
    if (/[.]/.test(typed)) {
      return { now: true, message: "A score has no decimal point: type the whole number on the machine, digits only." };
    }
    if (/[^\d,]/.test(typed)) return { now: true, message: "Type the score with digits only." };
    if (typed.includes(",") && !/^\d{1,3}(,\d{3})*$/.test(typed)) {
      return {
        now: false,
        message: "“" + typed + "” is not a score: commas go every three digits (1,234,567). Type the digits only.",
      };
    }
    return null;
  }

  function hallSettings() {
    return (views().tournament || {}).hall || {};
  }

  /* Why this score needs a second look, or "": far above the machine's best, far below its
   * median, or above the tournament's maximum (which the TD records; ``refused``). */
  function implausible(score, rollovers) {
    const max = hallSettings().max_score === undefined ? DEFAULT_MAX : hallSettings().max_score;
    if (score > max) {
      return {
        refused: true,
        message:
          B.fmt.score(score) + " is above this tournament's maximum score (" + B.fmt.score(max) +
          "): check it with the player; only the TD can record a score this high.",
      };
    }
    const scores = Object.values((views()["machine/" + state.machine] || {}).rows || {})
      .map((row) => row.score)
      .filter((value) => typeof value === "number")
      .sort((a, b) => a - b);
    if (!scores.length) return null;
    const top = scores[scores.length - 1];
    if (top > 0 && score > FAR_ABOVE_TOP * top) {
      const times = Math.round(score / top);
      return { message: "That is " + times + "× the best score on this machine (" + B.fmt.score(top) + "). Check every digit with the player." };
    }
    if (scores.length >= MEDIAN_AFTER) {
      const median = scores[Math.floor((scores.length - 1) / 2)];
      const digitCount = machineDigits(state.machine);
      if (digitCount && !rollovers && score * ROLLED_BELOW_MEDIAN < median) {
        return {
          message:
            "Did the score roll? That is far below this machine's usual scores (median " + B.fmt.score(median) +
            "). If the display went past its " + digitCount + " digits, type how many times in Roll-overs.",
        };
      }
      if (score * FAR_BELOW_MEDIAN < median) {
        return { message: "That is far below this machine's usual scores (median " + B.fmt.score(median) + "). Check every digit with the player." };
      }
    }
    return null;
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
    if (found && found.merged_into !== undefined) {
      // a duplicate registration the TD joined into another number: that number scores now
      node.className = "lookup warn";
      node.textContent = found.name + " (" + number + ") was merged into number " + found.merged_into + ": enter " + found.merged_into + ".";
    } else if (found) {
      // the city or tag tells two "J. Smith" apart before the score goes to the wrong one
      const tag = found.tag ? el("span", { class: "lookup-tag" }, " · " + found.tag) : "";
      node.replaceChildren(el("strong", {}, found.name), tag, found.guest ? " (guest)" : "", playedNote(number));
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
    const joker = jokerState(number);
    if (joker !== null) note += joker === "used" ? " and has used their joker game" : "; this would be their joker game";
    return el("span", { class: "lookup-note" }, note);
  }

  /* For a player who already has a score on this machine: "used" when they played their joker
   * game (EPC 2009, EPC Qualifying: one joker game, a second game on a machine), "this" when this
   * entry would be it; null without a score here or without jokers in this format. */
  function jokerState(number) {
    const row = ((views()["machine/" + state.machine] || {}).rows || {})[number];
    const jokers = ((views().tournament || {}).settings || {}).jokers_per_player;
    if (!row || jokers === undefined) return null;
    const used = Object.keys(views())
      .filter((name) => name.startsWith("machine/"))
      .some((name) => ((views()[name].rows || {})[number] || {}).joker);
    return used ? "used" : "this";
  }

  $("entry-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const values = entryValues();
    if (!values.player) return fail("Type the player's number.", "entry-player");
    if (live.version !== null && !knownPlayer(values.player)) {
      renderLookup(); // it already says "No player number …": once is enough
      return $("entry-player").focus();
    }
    const problem = scoreProblem($("entry-score").value);
    if (problem) return fail(problem.message, "entry-score");
    if (!values.score) return fail("Type the score.", "entry-score");
    if (Number(values.score) > MAX_SCORE) return fail("That score is too large to record.", "entry-score");
    if (values.rollovers > 99) return fail("Roll-overs are 0 to 99.", "entry-rollovers");
    const truth = trueScore(Number(values.score), values.rollovers, machineDigits(state.machine));
    if (truth > MAX_SCORE) return fail("That score is too large to record.", "entry-score");
    const doubt = implausible(truth, values.rollovers);
    if (doubt && doubt.refused) return fail(doubt.message, "entry-score");
    const checked = values.score + "+" + values.rollovers;
    if (doubt && state.confirmed !== checked) {
      // the second confirmation: the same score, Check entry again
      state.confirmed = checked;
      showError("entry-warning", doubt.message + " Right? Press “Yes, this score is right”.");
      $("entry-check").textContent = "Yes, this score is right";
      return;
    }
    state.pending = {
      key: E.newIdempotencyKey(),
      body: {
        player: values.player,
        machine: state.machine,
        score: Number(values.score),
        ...(values.rollovers ? { rollovers: values.rollovers } : {}),
      },
      truth: truth,
      joker: jokerState(values.player) === "this",
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
    $("confirm-joker").hidden = !pending.joker;
    const text = B.fmt.score(pending.truth || pending.body.score);
    const rolled = $("confirm-rolled");
    rolled.hidden = !pending.body.rollovers;
    rolled.textContent = pending.body.rollovers
      ? "shown " + B.fmt.score(pending.body.score) + " + " + pending.body.rollovers + " roll-over" + (pending.body.rollovers > 1 ? "s" : "")
      : "";
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
      state.last = { body: pending.body, truth: pending.truth, version: res.data.version, at: Date.now() };
      clearEntry();
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
    node.classList.toggle("undone", Boolean(last.undone));
    const lines = [
      el("div", { class: "result-title" }, last.undone ? "↶ Undone — not counted" : "✓ Recorded"),
      el(
        "div",
        { class: "result-entry" },
        el("strong", {}, player ? player.name : "Player " + body.player),
        " #" + body.player + " · " + machineName(body.machine) + " · ",
        el("strong", { class: "score" }, B.fmt.score(last.truth || body.score))
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
    } else if (!last.undone) {
      lines.push(el("div", { class: "result-place muted" }, "Updating standings…"));
    }
    const left = undoSecondsLeft();
    if (left > 0 || last.undoError) {
      lines.push(
        el(
          "div",
          { class: "result-actions" },
          left > 0
            ? el("button", { type: "button", class: "secondary result-undo", id: "result-undo", onclick: undo, disabled: Boolean(last.undoing) }, "Undo")
            : null,
          left > 0 ? el("span", { class: "result-undo-time" }, "for " + left + " s") : null,
          last.undoError ? el("span", { class: "error", id: "result-undo-error" }, last.undoError) : null
        )
      );
    }
    node.replaceChildren(...lines);
  }

  /* ---------- Undo: the steward voids their own entry while the hall's window is open ---------- */

  function undoSecondsLeft() {
    const last = state.last;
    if (!last || last.undone) return 0;
    const windowSeconds = hallSettings().void_window_seconds === undefined ? 120 : hallSettings().void_window_seconds;
    return Math.max(0, Math.ceil(windowSeconds - UNDO_MARGIN_S - (Date.now() - last.at) / 1000));
  }

  async function undo() {
    const last = state.last;
    if (!last || last.undoing || !state.session) return;
    last.undoing = true;
    last.undoError = "";
    renderResult();
    const url = "/api/t/" + encodeURIComponent(tid) + "/scores/" + last.version + "/void";
    let res;
    try {
      res = await E.submitOnce(url, { reason: UNDO_REASON }, last.key || (last.key = E.newIdempotencyKey()), {
        token: () => state.session.token,
        ifMatch: '"' + last.version + '"',
        onRetry: () => {},
      });
    } finally {
      last.undoing = false;
    }
    if (res.ok) {
      last.undone = true;
      // put it back in the form, to enter it right
      $("entry-player").value = last.body.player;
      $("entry-score").value = B.fmt.score(last.body.score);
      $("entry-rollovers").value = last.body.rollovers ? String(last.body.rollovers) : "";
      state.machine = last.body.machine;
    } else {
      last.undoError = res.message;
    }
    render();
  }

  // the Undo's seconds count down, and it goes when the window closes
  setInterval(() => {
    if (state.screen !== "entry" || !state.last || state.last.undone) return;
    const left = undoSecondsLeft();
    const time = document.querySelector(".result-undo-time");
    if (left > 0 && time) time.textContent = "for " + left + " s";
    else if (left <= 0 && $("result-undo")) renderResult(); // the window closed: no Undo
  }, 1000);

  /* ---------- drawing ---------- */

  function render() {
    if (state.screen === "machines") renderMachines();
    if (state.screen === "entry" && live.version !== null && !(views().machines || {})[state.machine]) {
      show("machines"); // the remembered machine is not in this tournament (any more)
      return;
    }
    if (state.screen === "entry") {
      $("entry-machine").textContent = machineName(state.machine);
      $("rollover-field").hidden = !machineDigits(state.machine);
      if (!state.confirmed) $("entry-check").textContent = "Check entry";
      renderPicks();
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
