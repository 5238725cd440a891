/* The league entry page (FWPL): a steward picks a group (or a playoff match), records the machine
 * the last placed player picks (FWPL 5, 6.4), types the group's scores in play order (5.2) — all
 * four together, or some now and the rest later — marks forfeits (2.4) and penalties (8.1, 8.2,
 * 8.7), settles equal scores by the one-ball play-off order (3.2), shows the group a large
 * confirmation and submits.
 *
 * Sign-in, the pending submission and the submit that never records anything twice are
 * static/entry.js's (Backglass.entry). The sign-in is shared with the steward page.
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const E = B.entry;
  const el = B.el;
  const config = B.pageConfig();
  const tid = config.tournament;

  const MAX_SCORE = Number.MAX_SAFE_INTEGER;
  const PENALTIES = { "": "No penalty", extra_ball: "Extra ball −25% (8.1)", deathsave: "Deathsave: 0 (8.7)", serious: "Interference: forfeit (8.2)" };
  const ROUND_TITLES = { quarterfinal: "Quarter-final", semifinal: "Semi-final", final: "Final" };
  const KEYS = {
    session: "backglass.steward." + tid,
    target: "backglass.league-target." + tid,
    pending: "backglass.league-pending." + tid,
  };

  const $ = (id) => document.getElementById(id);
  const root = $("entry");
  const { load, store, showError, digits } = E;

  const state = {
    screen: "signin",
    session: load(KEYS.session),
    target: load(KEYS.target), // {kind: "night", week, group} or {kind: "playoff", division, match}
    pending: load(KEYS.pending), // {key, path, body, summary, sent, game}
    sending: false,
    drafts: {}, // game key -> {player: {score, forfeit, penalty, late}}
    drawn: null, // game key of the rows on screen
    tieOrder: [],
    last: null,
  };

  function show(screen) {
    state.screen = screen;
    root.dataset.screen = screen;
    for (const name of ["signin", "groups", "game", "confirm"]) $("screen-" + name).hidden = name !== screen;
    render();
  }

  const live = new B.Live(tid, {
    onchange: () => render(),
    onstatus: (connected, age) => B.showStatus($("status"), connected, age),
  });
  const views = () => live.views;
  const name = (number) => B.player(views(), number).name;
  const machineName = (id) => ((views().machines || {})[id] || {}).name || id;

  /* ---------- what is being played ---------- */

  function tournament() {
    return views().tournament || {};
  }

  /* The game the target is on now: a uniform shape for league nights and playoff matches. */
  function current(target) {
    if (!target) return null;
    if (target.kind === "night") {
      const doc = views()["night/" + target.week];
      const group = doc && doc.groups[target.group];
      if (!group) return null;
      const players = Object.entries(group.players)
        .sort(([, a], [, b]) => (a.order || 99) - (b.order || 99) || a.seed - b.seed)
        .map(([number]) => number);
      return {
        title: "Group " + target.group,
        subtitle: "Week " + target.week,
        total: tournament().games || 4,
        gameNo: group.game_no,
        complete: Boolean(group.complete),
        machine: group.machine,
        waiting: group.waiting,
        picker: group.picker,
        allowed: group.allowed || [],
        players: players,
        entered: group.entered || {},
        started: true,
        ref: { week: target.week, group: Number(target.group) },
        paths: { pick: "picks", whole: "games", lines: "scores" },
        games: group.games || {},
      };
    }
    const division = (((views().bracket || {}).divisions || {})[target.division]) || null;
    const match = division && division.matches[target.match];
    if (!match) return null;
    const players = Object.entries(match.players)
      .filter(([, row]) => !row.missing)
      .sort(([, a], [, b]) => a.seed - b.seed)
      .map(([number]) => number);
    return {
      title: "Division " + target.division + " · " + ROUND_TITLES[match.round] + (match.round === "final" ? "" : " " + match.number),
      subtitle: "Playoffs",
      total: 3,
      gameNo: match.game_no,
      complete: Boolean(match.complete),
      machine: match.machine,
      picker: match.picker,
      allowed: match.allowed || [],
      players: players,
      entered: {},
      started: Boolean(match.started),
      tied: match.tied,
      ref: { division: target.division, players: Object.keys(match.players).sort((a, b) => match.players[a].seed - match.players[b].seed) },
      paths: { pick: "playoff-picks", whole: "playoff-games", lines: null, start: "playoff-matches", tiebreak: "playoff-tiebreaks" },
      games: match.games || {},
    };
  }

  function gameKey(game, target) {
    return JSON.stringify([target, game.gameNo]);
  }

  /* ---------- sign-in ---------- */

  E.stewardSignIn(tid, (session) => {
    state.session = session;
    store(KEYS.session, state.session);
    $("signin-pin").value = "";
    show(state.pending ? "confirm" : state.target ? "game" : "groups");
  });

  $("sign-out").addEventListener("click", () => {
    if (state.session) B.endSession(state.session.token);
    state.session = null;
    store(KEYS.session, null);
    show("signin");
  });

  /* ---------- HTTP, with the same key on every retry ---------- */

  const league = (path) => "/api/t/" + encodeURIComponent(tid) + "/league/" + path;

  function send(path, body, key, onRetry) {
    return E.submitOnce(league(path), body, key, { token: () => state.session.token, onRetry: onRetry });
  }

  function signedOut(res) {
    if (res.status !== 401) return false;
    state.session = null;
    store(KEYS.session, null);
    showError("signin-error", res.message + " Sign in again.");
    show("signin");
    return true;
  }

  /* ---------- groups ---------- */

  function targets() {
    const t = tournament();
    const found = [];
    if (t.phase === "night" && t.week) {
      const doc = views()["night/" + t.week] || { groups: {} };
      for (const number of Object.keys(doc.groups).sort((a, b) => a - b)) {
        const target = { kind: "night", week: t.week, group: number };
        found.push([target, current(target)]);
      }
    } else if (t.phase === "playoffs") {
      const divisions = (views().bracket || {}).divisions || {};
      for (const [division, doc] of Object.entries(divisions).sort(([, a], [, b]) => a.order - b.order)) {
        for (const [key, match] of Object.entries(doc.matches).sort(([, a], [, b]) => a.order - b.order)) {
          const target = { kind: "playoff", division: division, match: key };
          if (!match.complete || match.tied) found.push([target, current(target)]);
        }
      }
    }
    return found;
  }

  function renderGroups() {
    $("steward-name").textContent = state.session ? state.session.name : "";
    if (live.version === null) return;
    const t = tournament();
    $("groups-title").textContent = t.phase === "playoffs" ? "Choose match" : t.week ? "Week " + t.week + " · choose group" : "Choose group";
    const list = targets();
    if (list.length === 0) {
      const why = t.phase === "playoffs" ? "Every playoff match is finished." : "No league night is running now. The TD starts one.";
      $("group-list").replaceChildren(el("p", { class: "muted" }, why));
      return;
    }
    $("group-list").replaceChildren(
      ...list.map(([target, game]) => {
        let meta;
        if (game.complete && !game.tied) meta = "all games played";
        else if (game.tied) meta = "tie-breaker needed";
        else if (!game.started) meta = "not started";
        else meta = "game " + game.gameNo + " of " + game.total + " · " + (game.machine ? machineName(game.machine) : "pick the machine");
        return el(
          "button",
          { type: "button", class: "group-button" + (game.complete && !game.tied ? " done" : ""), dataset: { target: JSON.stringify(target) }, onclick: () => choose(target) },
          el("span", { class: "group-button-title" }, game.title),
          el("span", { class: "group-button-meta" }, meta),
          el("span", { class: "group-button-players" }, game.players.map(name).join(", "))
        );
      })
    );
  }

  function choose(target) {
    state.target = target;
    store(KEYS.target, target);
    state.drawn = null;
    state.last = null;
    showError("game-error", "");
    show("game");
  }

  $("change-group").addEventListener("click", () => show("groups"));

  /* ---------- one game ---------- */

  function draft(game) {
    const key = gameKey(game, state.target);
    if (!state.drafts[key]) state.drafts[key] = {};
    return state.drafts[key];
  }

  function rowNode(game, player, position, values) {
    const entered = game.entered[player];
    const who = el("div", { class: "gr-who" }, el("span", { class: "gr-order" }, position), el("strong", {}, name(player)), el("span", { class: "number" }, " #" + player));
    if (entered) {
      return el("div", { class: "game-row entered", dataset: { player: player } }, who, el("div", { class: "gr-locked" }, entered.forfeit ? "forfeit" : B.fmt.score(entered.score), el("span", { class: "muted" }, " ✓ recorded")));
    }
    const input = el("input", { class: "gr-score", inputmode: "numeric", autocomplete: "off", "aria-label": "Score of " + name(player), value: B.fmt.score(values.score || ""), disabled: values.forfeit });
    input.addEventListener("input", () => {
      values.score = digits(input.value);
      input.value = B.fmt.score(values.score);
      showError("game-error", "");
    });
    const forfeit = el("button", { type: "button", class: "secondary small gr-forfeit" + (values.forfeit ? " on" : ""), "aria-pressed": values.forfeit ? "true" : "false" }, "Forfeit");
    forfeit.addEventListener("click", () => {
      values.forfeit = !values.forfeit;
      state.drawn = null;
      render();
    });
    const penalty = el("select", { class: "gr-penalty", "aria-label": "Penalty for " + name(player) }, Object.entries(PENALTIES).map(([value, label]) => el("option", { value: value, selected: (values.penalty || "") === value }, label)));
    penalty.addEventListener("change", () => (values.penalty = penalty.value || null));
    const late = el("input", { type: "checkbox", class: "gr-late", checked: Boolean(values.late) });
    late.addEventListener("change", () => (values.late = late.checked));
    const more = el("details", { class: "gr-more", open: Boolean(values.penalty || values.late) }, el("summary", {}, "Penalty or late arrival"), penalty, el("label", { class: "gr-late-label" }, late, " joined late (FWPL 2.3)"));
    return el("div", { class: "game-row" + (values.forfeit ? " forfeit" : ""), dataset: { player: player } }, who, el("div", { class: "gr-entry" }, input, forfeit), game.paths.lines ? more : null);
  }

  function renderGame() {
    const game = current(state.target);
    if (live.version === null) return;
    if (!game) return show("groups");
    $("game-title").textContent = game.title + (game.complete ? "" : " · game " + game.gameNo + " of " + game.total);
    renderResult(game);
    const machine = $("game-machine");
    const pick = $("pick");
    const form = $("game-form");
    const tiebreak = $("tiebreak");
    tiebreak.hidden = !game.tied;
    if (game.tied) renderTiebreak(game);
    if (game.complete) {
      machine.replaceChildren(el("span", { class: "muted" }, game.tied ? "All games played; a tie-breaker decides." : "All games of this match are played."));
      pick.hidden = form.hidden = true;
      return;
    }
    if (!game.started) {
      machine.replaceChildren(el("button", { type: "button", class: "primary big", id: "start-match", onclick: () => startMatch(game) }, "Start the match (draws the first machine)"));
      pick.hidden = form.hidden = true;
      return;
    }
    if (game.machine) {
      const parts = [el("span", { class: "label" }, "Machine"), el("strong", { id: "machine-name" }, machineName(game.machine))];
      if (game.waiting) parts.push(el("span", { class: "flag" }, "in use — wait"));
      machine.replaceChildren(...parts);
      pick.hidden = true;
    } else {
      machine.replaceChildren();
      pick.hidden = false;
      $("pick-lead").textContent = (game.picker ? name(game.picker) : "The group") + " picks the next machine:";
      $("pick-grid").replaceChildren(...game.allowed.map((id) => el("button", { type: "button", class: "machine-button", dataset: { machine: id }, onclick: () => pickMachine(game, id) }, el("span", { class: "machine-button-name" }, machineName(id)))));
    }
    form.hidden = !game.machine;
    const key = gameKey(game, state.target);
    const signature = key + JSON.stringify(game.entered) + JSON.stringify(game.players);
    if (state.drawn !== signature) {
      const values = draft(game);
      $("game-rows").replaceChildren(...game.players.map((p, i) => rowNode(game, p, i + 1, (values[p] = values[p] || {}))));
      state.drawn = signature;
    }
  }

  function renderResult(game) {
    const node = $("result");
    if (!state.last) {
      node.hidden = true;
      return;
    }
    node.hidden = false;
    const parts = [el("div", { class: "result-title" }, "✓ " + state.last.text)];
    if (live.version < state.last.version) parts.push(el("div", { class: "result-place muted" }, "Updating…"));
    node.replaceChildren(...parts);
  }

  function renderTiebreak(game) {
    const box = $("tiebreak");
    const order = state.tieOrder.filter((p) => game.tied.includes(p));
    box.replaceChildren(
      el("p", { class: "notice" }, "Tie (FWPL 6.5): the tied players play a tie-breaker game on a random machine. Tap them in finishing order, winner first."),
      el("div", { class: "tie-buttons" }, game.tied.map((p) => el("button", { type: "button", class: "secondary big" + (order.includes(p) ? " chosen" : ""), onclick: () => { if (!order.includes(p)) state.tieOrder = [...order, p]; render(); } }, (order.includes(p) ? order.indexOf(p) + 1 + ". " : "") + name(p)))),
      el("button", { type: "button", class: "primary big", disabled: order.length !== game.tied.length, onclick: () => submitTiebreak(game, order) }, "Record the tie-breaker")
    );
  }

  async function quick(path, body, busyText) {
    showError("game-error", busyText);
    const res = await send(path, body, E.newIdempotencyKey(), (n) => showError("game-error", "No answer from the server (try " + n + "). Retrying…"));
    if (signedOut(res)) return null;
    showError("game-error", res.ok ? "" : res.message);
    return res.ok ? res : null;
  }

  async function pickMachine(game, id) {
    await quick(game.paths.pick, { ...game.ref, game_no: game.gameNo, machine: id }, "Recording the pick…");
  }

  async function startMatch(game) {
    await quick(game.paths.start, game.ref, "Starting the match…");
  }

  async function submitTiebreak(game, order) {
    const res = await quick(game.paths.tiebreak, { ...game.ref, order: order }, "Recording the tie-breaker…");
    if (res) state.tieOrder = [];
  }

  /* ---------- check, confirm, submit ---------- */

  function finalScore(line) {
    if (line.score === null || line.penalty === "serious") return null;
    if (line.penalty === "deathsave") return 0;
    return line.penalty === "extra_ball" ? (line.score * 3) / 4 : line.score;
  }

  /* Groups of players with equal final scores (they need the one-ball play-off order, 3.2). */
  function ties(lines) {
    const by = new Map();
    for (const [player, line] of Object.entries(lines)) {
      const value = finalScore(line);
      if (value === null) continue;
      by.set(value, [...(by.get(value) || []), player]);
    }
    return [...by.values()].filter((group) => group.length > 1);
  }

  $("game-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const game = current(state.target);
    if (!game || !game.machine) return;
    const values = draft(game);
    const lines = []; // [player, line] in play order
    for (const player of game.players) {
      if (game.entered[player]) continue;
      const v = values[player] || {};
      if (v.forfeit) lines.push([player, { score: null, penalty: null, late: Boolean(v.late) }]);
      else if (v.score) {
        if (Number(v.score) > MAX_SCORE) return showError("game-error", "The score of " + name(player) + " is too large to record.");
        lines.push([player, { score: Number(v.score), penalty: v.penalty || null, late: Boolean(v.late) }]);
      }
    }
    const count = lines.length;
    if (count === 0) return showError("game-error", "Type a score (or mark a forfeit) for at least one player.");
    const whole = count === game.players.length;
    if (!whole && !game.paths.lines) return showError("game-error", "A playoff game is entered whole: every player's score.");
    const all = Object.fromEntries(lines);
    for (const [player, entry] of Object.entries(game.entered)) all[player] = { score: entry.forfeit ? null : entry.score };
    const complete = Object.keys(all).length === game.players.length;
    const body = { ...game.ref, game_no: game.gameNo, machine: game.machine };
    let path;
    if (whole) {
      path = game.paths.whole;
      body.scores = Object.fromEntries(lines.map(([p, l]) => [p, l.score]));
      body.penalties = Object.fromEntries(lines.filter(([, l]) => l.penalty).map(([p, l]) => [p, l.penalty]));
      if (game.paths.lines) body.late = lines.filter(([, l]) => l.late).map(([p]) => p);
    } else {
      path = game.paths.lines;
      body.lines = lines.map(([p, l]) => ({ player: p, score: l.score, penalty: l.penalty, late: l.late }));
    }
    state.pending = { key: E.newIdempotencyKey(), path: path, body: body, lines: lines, ties: complete ? ties(all) : [], sent: false, title: game.title + " · game " + game.gameNo, machine: game.machine };
    state.tieOrder = [];
    store(KEYS.pending, state.pending);
    showError("confirm-error", "");
    show("confirm");
  });

  function renderConfirm() {
    const pending = state.pending;
    if (!pending) return;
    const card = $("confirm-card");
    card.replaceChildren(
      el("div", { class: "confirm-label" }, pending.title),
      el("div", { class: "confirm-machine" }, machineName(pending.machine)),
      ...pending.lines.map(([player, line]) =>
        el(
          "div",
          { class: "confirm-line", dataset: { player: player } },
          el("div", { class: "confirm-line-name" }, name(player), el("span", { class: "confirm-number" }, " #" + player)),
          el("div", { class: "confirm-line-score" + (line.score === null ? " forfeit" : "") }, line.score === null ? "FORFEIT" : B.fmt.score(line.score)),
          line.penalty ? el("div", { class: "confirm-line-note" }, PENALTIES[line.penalty]) : null,
          line.late ? el("div", { class: "confirm-line-note" }, "joined late") : null
        )
      )
    );
    const tie = $("tie-order");
    tie.hidden = pending.ties.length === 0;
    if (pending.ties.length) {
      const order = state.tieOrder;
      tie.replaceChildren(
        el("p", { class: "notice" }, "Equal scores (FWPL 3.2): after the one-ball play-off, tap the players in finishing order, winner first."),
        ...pending.ties.map((group) =>
          el("div", { class: "tie-buttons" }, group.map((p) => el("button", { type: "button", class: "secondary big" + (order.includes(p) ? " chosen" : ""), dataset: { player: p }, onclick: () => tap(p) }, (order.includes(p) ? order.filter((q) => group.includes(q)).indexOf(p) + 1 + ". " : "") + name(p))))
        )
      );
    }
    const ready = pending.ties.every((group) => group.every((p) => state.tieOrder.includes(p)));
    $("confirm-submit").disabled = state.sending || !ready;
    $("confirm-edit").disabled = state.sending;
  }

  function tap(player) {
    if (!state.tieOrder.includes(player)) state.tieOrder = [...state.tieOrder, player];
    else state.tieOrder = state.tieOrder.filter((p) => p !== player);
    render();
  }

  const resumed = E.confirmation(state, KEYS, {
    url: (pending) => league(pending.path),
    prepare: (pending) => {
      if (pending.ties.length) pending.body.playoff = state.tieOrder;
    },
    recorded: (pending, res) => {
      const done = pending.lines.map(([p, l]) => name(p) + " " + (l.score === null ? "forfeit" : B.fmt.score(l.score)));
      state.last = { text: pending.title + " recorded: " + done.join(", "), version: res.data.version };
      state.drawn = null;
      show("game");
    },
    discarded: () => {
      state.drawn = null;
      show("game");
    },
    show: show,
    renderConfirm: renderConfirm,
    text: {
      retry: "Retrying the same scores — they will not be recorded twice.",
      mayBeRecorded: "These scores may already be recorded — the server could not confirm them. Sending them again with the same key",
      unsure: "These scores may already be recorded. Submit again to find out, or press Edit again to discard them.",
      resume: "These scores were being sent when the page closed. Submit again — they will not be recorded twice.",
      signInAgain: " Sign in again.",
    },
  });

  /* ---------- drawing ---------- */

  function render() {
    if (state.screen === "groups") renderGroups();
    if (state.screen === "game") renderGame();
    if (state.screen === "confirm") renderConfirm();
  }

  function startScreen() {
    if (!state.session) return "signin";
    if (state.pending) return "confirm";
    return state.target ? "game" : "groups";
  }

  live.start();
  show(startScreen());
  resumed();
})();
