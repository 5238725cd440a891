/* Team entry for the EPC Country Competition (/t/{tid}/team-entry): a steward or the TD signs in,
 * picks a match and enters its two machines' four scores (or a 4-ball game, or a play-off game),
 * shows both captains a large confirmation ("These points are to be noted on the score card and
 * verified by both team captains", EPC 2009, EPC Country Competition), then submits. The TD also
 * records penalties, voids a wrong record and advances the stage.
 *
 * Sign-in, the pending entry and the submit that never records anything twice are
 * static/entry.js's (Backglass.entry).
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const E = B.entry;
  const el = B.el;
  const config = B.pageConfig();
  const tid = config.tournament;
  const api = "/api/t/" + encodeURIComponent(tid) + "/country/";

  const KEYS = { session: "backglass.country." + tid, pending: "backglass.country-pending." + tid };
  const $ = (id) => document.getElementById(id);
  const root = $("entry");

  const { load, store, showError, digits } = E;

  const state = {
    screen: "signin",
    role: "steward",
    session: load(KEYS.session),
    pending: load(KEYS.pending), // {key, path, body, summary, sent}
    sending: false,
    task: "match",
    form: null, // {title, build(node), read() -> {path, body, summary} or an error message}
    last: null, // {summary, version, check(views) -> text}
  };

  function show(screen) {
    state.screen = screen;
    root.dataset.screen = screen;
    for (const name of ["signin", "home", "form", "confirm"]) $("screen-" + name).hidden = name !== screen;
    window.scrollTo(0, 0);
    render();
  }

  /* ---------- the live views ---------- */

  const live = new B.Live(tid, {
    onchange: () => render(),
    onstatus: (connected, age) => B.showStatus($("status"), connected, age),
  });
  const views = () => live.views;
  const teamName = (id) => ((views().teams || {})[id] || {}).name || id;
  const machineName = (id) => ((views().machines || {})[id] || {}).name || id;
  const isTD = () => Boolean(state.session && state.session.role === "td");

  function machines(fourBall) {
    return B.machineList(views()).filter(([, m]) => Boolean(m.four_ball) === fourBall);
  }

  function fixtures(stage) {
    return Object.entries(views()["country/fixtures"] || {})
      .filter(([, f]) => f.stage === stage)
      .sort(([, a], [, b]) => a.order - b.order);
  }

  function currentStage() {
    const stage = (views().tournament || {}).stage || "qualifying";
    return stage === "complete" ? "final" : stage;
  }

  /* ---------- sign-in ---------- */

  function chooseRole(role) {
    state.role = role;
    $("as-steward").setAttribute("aria-pressed", String(role === "steward"));
    $("as-td").setAttribute("aria-pressed", String(role === "td"));
    $("signin-name-field").hidden = role === "td";
    $("signin-pin-field").hidden = role === "td";
    $("signin-password-field").hidden = role !== "td";
  }
  $("as-steward").addEventListener("click", () => chooseRole("steward"));
  $("as-td").addEventListener("click", () => chooseRole("td"));

  E.signIn(
    () => {
      const td = state.role === "td";
      const name = td ? "TD" : $("signin-name").value.trim();
      const secret = td ? $("signin-password").value : $("signin-pin").value.trim();
      if (!name || !secret) return td ? "Type the TD password." : "Type your name and the PIN the TD gave you.";
      return td ? { role: "td", password: secret } : { role: "steward", tournament: tid, name: name, pin: secret };
    },
    (data, body) => {
      state.session = { token: data.token, name: body.role === "td" ? "TD" : body.name, role: state.role };
      store(KEYS.session, state.session);
      $("signin-pin").value = $("signin-password").value = "";
      show(state.pending ? "confirm" : "home");
    }
  );

  $("sign-out").addEventListener("click", () => {
    if (state.session) B.endSession(state.session.token);
    state.session = null;
    store(KEYS.session, null);
    show("signin");
  });

  /* ---------- home: what to enter ---------- */

  const TASKS = [
    { id: "match", label: "Match", td: false },
    { id: "four-ball", label: "4-ball", td: false },
    { id: "playoff", label: "Play-off", td: false },
    { id: "td", label: "TD", td: true },
  ];

  function renderHome() {
    $("who").textContent = state.session ? state.session.name + (isTD() ? "" : " (steward)") : "";
    const tasks = TASKS.filter((t) => !t.td || isTD());
    if (!tasks.some((t) => t.id === state.task)) state.task = "match";
    $("tasks").replaceChildren(
      ...tasks.map((t) =>
        el("button", { type: "button", role: "tab", class: "task", "aria-selected": String(t.id === state.task), dataset: { task: t.id }, onclick: () => ((state.task = t.id), render()) }, t.label)
      )
    );
    const node = $("task");
    if (live.version === null) return node.replaceChildren(el("p", { class: "muted" }, "Loading…"));
    const draw = (views().tournament || {}).draw || {};
    if (state.task !== "td" && !Object.keys(views()["country/fixtures"] || {}).length) {
      return node.replaceChildren(el("p", { class: "muted" }, "The draw is not made yet (" + (draw.registered || 0) + " of " + (draw.needed || 20) + " seeded teams)."));
    }
    const build = { match: matchList, "four-ball": fourBallList, playoff: playoffList, td: tdPanel }[state.task];
    node.replaceChildren(...[].concat(build()));
    renderResult();
  }

  function pick(label, meta, onclick, data) {
    return el("button", { type: "button", class: "pick", onclick: onclick, dataset: data || {} }, el("span", { class: "pick-name" }, label), el("span", { class: "pick-meta" }, meta));
  }

  function matchList() {
    const open = fixtures(currentStage()).filter(([, f]) => f.status === "to_play" || f.status === "playing");
    if (!open.length) return el("p", { class: "muted" }, "Every match of this stage has a result.");
    const slot = Math.min(...open.map(([, f]) => f.slot));
    return [
      el("p", { class: "hint" }, "Matches to play, the current time slot first."),
      el(
        "div",
        { class: "picks" },
        open.map(([id, f]) =>
          pick(
            teamName(f.home) + " v " + teamName(f.away),
            (f.stage === "final" ? "Final" : "Group " + f.group) + " · round " + f.round + " · slot " + f.slot + (f.status === "playing" ? " · 1 machine in" : "") + (f.slot === slot ? " · now" : ""),
            () => openForm(B.countryForms.match(id)),
            { fixture: id }
          )
        )
      ),
    ];
  }

  function fourBallList() {
    if (currentStage() !== "qualifying") return el("p", { class: "muted" }, "The 4-ball game is part of qualifying, which is over.");
    const rows = (views()["country/four_ball"] || {}).rows || {};
    const todo = Object.entries(rows).filter(([, r]) => r.score === undefined).sort(([, a], [, b]) => (a.slot || 0) - (b.slot || 0));
    if (!todo.length) return el("p", { class: "muted" }, "Every team has its 4-ball game.");
    return [
      el("p", { class: "hint" }, "Teams still to play the 4-ball game, by their allocated slot."),
      el("div", { class: "picks" }, todo.map(([id, r]) => pick(teamName(id), "slot " + r.slot + (r.scheduled ? " · " + machineName(r.scheduled) : ""), () => openForm(B.countryForms.fourBall(id)), { team: id }))),
    ];
  }

  function playoffList() {
    const pending = Object.entries((views()["country/playoffs"] || {}).pending || {});
    if (!pending.length) return el("p", { class: "muted" }, "No play-off game is needed now.");
    return el(
      "div",
      { class: "picks" },
      pending.map(([key, p]) => pick(p.teams.map(teamName).join(" v "), (p.stage === "final" ? "Final" : "Qualifying") + " · tie for place " + p.place, () => openForm(B.countryForms.playoff(p)), { playoff: key }))
    );
  }

  /* ---------- forms ---------- */

  function scoreInput(name) {
    const input = el("input", { class: "score-input", name: name, inputmode: "numeric", autocomplete: "off", "aria-label": name });
    input.addEventListener("input", () => {
      input.value = B.fmt.score(digits(input.value));
      showError("form-error", "");
    });
    return input;
  }

  function select(name, options, value) {
    const node = el("select", { name: name, "aria-label": name }, options.map(([v, label]) => el("option", { value: v }, label)));
    node.value = value === undefined ? options[0][0] : value;
    return node;
  }

  function openForm(form) {
    state.form = form;
    $("form-title").textContent = form.title;
    const body = $("form-body");
    body.replaceChildren();
    form.build(body);
    showError("form-error", "");
    show("form");
  }

  function value(name) {
    const node = $("form").elements[name];
    return node ? node.value : "";
  }

  function scoreOf(name) {
    const text = digits(value(name));
    return text === "" ? null : Number(text);
  }

  $("form").addEventListener("submit", (event) => {
    event.preventDefault();
    const out = state.form.read();
    if (typeof out === "string") return showError("form-error", out);
    state.pending = { key: E.newIdempotencyKey(), path: out.path, body: out.body, summary: out.summary, check: out.check || null, ifMatch: out.ifMatch || null, sent: false };
    showError("confirm-error", "");
    show("confirm");
  });

  $("form-back").addEventListener("click", () => show("home"));

  /* ---------- confirm and submit ---------- */

  function renderConfirm() {
    const p = state.pending;
    if (!p) return;
    const s = p.summary;
    $("confirm-card").replaceChildren(
      el("div", { class: "confirm-title" }, s.title),
      ...s.sections.map((section) =>
        el("div", { class: "confirm-section" }, el("div", { class: "confirm-label" }, section.heading), section.lines.map(([label, v]) => el("div", { class: "confirm-line" }, el("span", { class: "confirm-who" }, label), el("span", { class: "confirm-value" }, v))))
      )
    );
    $("confirm-submit").disabled = state.sending;
    $("confirm-edit").disabled = state.sending;
  }

  const resumed = E.confirmation(state, KEYS, {
    url: (p) => api + p.path,
    recorded: (p, res) => {
      state.form = null;
      state.last = { summary: p.summary, version: res.data.version, check: p.check };
      show("home");
    },
    discarded: () => show(state.form ? "form" : "home"),
    show: show,
    renderConfirm: renderConfirm,
  });

  /* The last recorded entry, and what it did once the live views have it. */
  function renderResult() {
    const node = $("result");
    const last = state.last;
    node.hidden = !last;
    if (!last) return;
    const lines = [el("div", { class: "result-title" }, "✓ Recorded"), el("div", { class: "result-entry" }, last.summary.title)];
    if (live.version !== null && live.version >= last.version) {
      const check = last.check || {};
      if (check.fixture) {
        const f = (views()["country/fixtures"] || {})[check.fixture] || {};
        const text = f.home_points !== undefined ? teamName(f.home) + " " + B.fmt.points(f.home_points) + " – " + B.fmt.points(f.away_points) + " " + teamName(f.away) : "One machine in; the match counts when both are.";
        lines.push(el("div", { class: "result-place", id: "result-place" }, text));
      } else if (check.team) {
        const r = ((views()["country/four_ball"] || {}).rows || {})[check.team] || {};
        lines.push(el("div", { class: "result-place", id: "result-place" }, "4-ball: place " + r.place + " · " + B.fmt.points(r.points) + " points"));
      }
    }
    node.replaceChildren(...lines);
  }

  /* ---------- drawing ---------- */

  function render() {
    if (state.screen === "home") renderHome();
    if (state.screen === "confirm") renderConfirm();
  }

  B.countryEntry = {
    openForm: openForm,
    views: views,
    isTD: isTD,
    currentStage: currentStage,
    fixtures: fixtures,
    machines: machines,
    teamName: teamName,
    machineName: machineName,
    select: select,
    scoreInput: scoreInput,
    value: value,
    scoreOf: scoreOf,
    el: el,
    pick: pick,
  };
  function tdPanel() {
    return B.countryTD ? B.countryTD() : el("p", { class: "muted" }, "Loading…");
  }

  chooseRole("steward");
  live.start();
  show(!state.session ? "signin" : state.pending ? "confirm" : "home");
  resumed();
})();
