/* One tournament's desk: settings, players (late entries, CSV import, withdrawals), machines,
 * stewards (issue, see who is signed in, revoke), the displays connected now (what each shows, set
 * live), the hall's LAN addresses, hall display profiles and exports. The lists
 * follow the live views; registration details (IFPA number, country) and stewards come from the
 * API and are fetched again when they may have changed. */
(function () {
  "use strict";
  const B = window.Backglass;
  const desk = B.desk;
  const el = B.el;
  const config = B.pageConfig();
  const tid = config.tournament;
  const base = "/api/t/" + encodeURIComponent(tid);
  const $ = (id) => document.getElementById(id);

  const state = { registrations: { players: {}, machines: {} }, stewards: [], displayViews: [], themes: [], sources: {}, choices: {}, sourcesFor: null };
  let regTimer = null;

  const live = new B.Live(tid, {
    onchange: (names) => {
      if (names.includes("players") || names.includes("machines")) scheduleRegistrations();
      render();
    },
    onstatus: (connected, age) => B.showStatus($("status"), connected, age),
  });

  function views() {
    return live.views;
  }

  function describe(value) {
    return typeof value === "object" && value !== null ? JSON.stringify(value) : value === null || value === undefined ? "" : String(value);
  }

  function parse(text, like) {
    if (typeof like === "number") return Number(text);
    if (typeof like === "boolean") return text === "true";
    if (typeof like === "object" && like !== null) return JSON.parse(text);
    if (like === null || like === undefined) return text === "" ? null : /^\d+$/.test(text) ? Number(text) : text;
    return text;
  }

  /* ---------- settings ---------- */

  function renderSettings() {
    const tournament = views().tournament || {};
    // no log version here: it means nothing to a TD (the audit page has the log)
    $("format-line").textContent = tournament.title || tournament.format || "";
    const table = $("settings-table");
    if (table.contains(document.activeElement)) return; // the TD is typing
    // a value the TD changed but has not saved survives a redraw (a score, the template's meanings
    // arriving), unless the record changed that setting meanwhile: then the record wins
    const edits = {};
    for (const control of table.querySelectorAll("[data-key]:is(input, select)")) {
      if (control.value.trim() !== control.dataset.was) edits[control.dataset.key] = { was: control.dataset.was, value: control.value };
    }
    const rows = Object.entries(tournament.settings || {}).map(([key, value]) =>
      el(
        "tr",
        { dataset: { key: key } },
        el("th", { scope: "row" }, key),
        el("td", {}, settingControl(key, value)),
        // where the value comes from, as on the template the tournament was made from
        el("td", { class: "muted source" }, state.sources[key] || "")
      )
    );
    table.replaceChildren(el("tbody", {}, rows));
    for (const control of table.querySelectorAll("[data-key]:is(input, select)")) {
      const edit = edits[control.dataset.key];
      if (!edit || edit.was !== control.dataset.was) continue;
      control.value = edit.value;
      control.dispatchEvent(new Event("change")); // the meaning under a choice follows
    }
  }

  /* A labelled control of the value's own kind: one of the format's choices with its meaning,
   * a number box, yes/no, else text (lists as JSON). */
  function settingControl(key, value) {
    const attrs = { "aria-label": key, dataset: { key: key, was: describe(value) } };
    if (state.choices[key]) return desk.choiceSelect(attrs, state.choices[key], value);
    if (typeof value === "boolean") {
      const select = el("select", attrs, el("option", { value: "true" }, "yes"), el("option", { value: "false" }, "no"));
      select.value = String(value);
      return select;
    }
    if (typeof value === "number") return el("input", Object.assign(attrs, { type: "number", step: "any", value: describe(value) }));
    return el("input", Object.assign(attrs, { value: describe(value) }));
  }

  /* The rule each setting comes from: the template of this tournament's format (GET /api/templates). */
  async function loadSources() {
    const format = (views().tournament || {}).format;
    const id = (config.templates || {})[format];
    if (!id || state.sourcesFor === id) return;
    state.sourcesFor = id;
    const r = await desk.api("GET", "/api/templates");
    const template = r.ok ? (r.data.templates || []).find((t) => t.id === id) : null;
    if (!template) return;
    state.sources = Object.fromEntries(template.settings.map((setting) => [setting.key, setting.source]));
    state.choices = template.choices || {};
    $("settings-about").textContent = template.rules + ": " + template.about;
    renderSettings();
  }

  async function saveSettings(event) {
    event.preventDefault();
    const current = (views().tournament || {}).settings || {};
    const changed = {};
    try {
      for (const input of $("settings-table").querySelectorAll("[data-key]:is(input, select)")) {
        if (input.value.trim() === input.dataset.was) continue;
        // a choice is sent as its text, also over a custom points table (a list)
        changed[input.dataset.key] = input.dataset.choice ? input.value : parse(input.value.trim(), current[input.dataset.key]);
      }
    } catch (_) {
      desk.notice($("settings-notice"), "A list setting must be written as JSON, e.g. [9, 5, 2, 0].", "error");
      return;
    }
    if (Object.keys(changed).length === 0) {
      desk.notice($("settings-notice"), "Nothing changed.");
      return;
    }
    const r = await desk.api("POST", base + "/settings", { settings: changed });
    desk.notice($("settings-notice"), r.ok ? "Saved: " + Object.keys(changed).join(", ") + "." : r.data.message, r.ok ? "ok" : "error");
    if (r.ok) document.activeElement.blur();
  }

  /* ---------- players and machines ---------- */

  function scheduleRegistrations() {
    clearTimeout(regTimer);
    regTimer = setTimeout(loadRegistrations, 200);
  }

  async function loadRegistrations() {
    const r = await desk.api("GET", base + "/registrations");
    if (r.ok) state.registrations = r.data;
    render();
  }

  function renderPlayers() {
    const players = Object.entries(views().players || {}).sort(([a], [b]) => B.byNumber(a, b));
    const ukpl = ((views().tournament || {}).format || "").startsWith("ukpl");
    const registered = players.filter(([, who]) => who.merged_into === undefined).length;
    $("players-count").textContent = registered ? "(" + registered + ")" : "";
    const head = el("tr", {}, ["No.", "Name", "IFPA", ukpl ? "Region" : "Country", "", ""].map((t) => el("th", {}, t)));
    const rows = players.map(([number, who]) => {
      const reg = state.registrations.players[number] || {};
      const withdrawn = who.withdrawn !== undefined || reg.withdrawn !== undefined;
      const gone = who.merged_into !== undefined;
      const actions = gone
        ? null
        : [
            withdrawn ? null : el("button", { type: "button", class: "small", onclick: () => withdraw(number, who.name) }, "Withdraw"),
            el("button", { type: "button", class: "small", onclick: () => mergeInto(number, who.name) }, "Merge…"),
          ];
      return el(
        "tr",
        { dataset: { player: number }, class: withdrawn || gone ? "withdrawn" : "" },
        el("td", { class: "num" }, number),
        el("td", {}, who.name, who.tag ? el("span", { class: "muted" }, " · " + who.tag) : null, mergedNotes(who)),
        el("td", { class: "num" }, reg.ifpa || ""),
        el("td", {}, reg.region || reg.country || ""),
        el(
          "td",
          {},
          who.guest ? el("span", { class: "tag" }, "guest") : null,
          withdrawn ? el("span", { class: "tag" }, "withdrawn") : null,
          gone ? el("span", { class: "tag" }, "merged into " + who.merged_into) : null
        ),
        el("td", {}, actions)
      );
    });
    $("players-table").replaceChildren(el("thead", {}, head), el("tbody", {}, rows));
  }

  /* The numbers joined into this player, and each machine both played, for the TD to check:
     "merged from 3 · Machine 1: kept 900,000, dropped 500,000". */
  function mergedNotes(who) {
    return Object.entries(who.merged || {}).map(([from, note]) => {
      const clashes = Object.entries(note.clashes || {}).map(([machine, c]) => {
        const name = ((views().machines || {})[machine] || {}).name || machine;
        return name + ": kept " + B.fmt.score(c.kept) + ", dropped " + c.dropped.map(B.fmt.score).join(", ");
      });
      return el(
        "div",
        { class: "merge-note" + (clashes.length ? " clash" : ""), dataset: { from: from } },
        "merged from " + from + (clashes.length ? " · check " + clashes.join("; ") : "")
      );
    });
  }

  async function mergeInto(number, name) {
    const into = window.prompt(
      "Merge " + name + " (#" + number + ") into which player number? Their games join that player's; on a machine both played, the better score is kept and you are shown the clash.",
      ""
    );
    if (!into || !into.trim()) return;
    const reason = window.prompt("Why? (kept in the log with your name)", "registered twice");
    if (reason === null) return;
    const r = await desk.api("POST", base + "/players/" + encodeURIComponent(number) + "/merge", { into: into.trim(), reason: reason || "registered twice" });
    desk.notice($("players-notice"), r.ok ? name + " (#" + number + ") is merged into #" + into.trim() + "." : r.data.message, r.ok ? "ok" : "error");
  }

  async function withdraw(number, name) {
    const reason = window.prompt("Withdraw " + name + " (#" + number + ")? Their scores stand; they play no more.\nReason:", "");
    if (reason === null) return;
    const r = await desk.api("POST", base + "/players/" + encodeURIComponent(number) + "/withdraw", { reason: reason || "withdrawn" });
    desk.notice($("players-notice"), r.ok ? name + " has withdrawn." : r.data.message, r.ok ? "ok" : "error");
  }

  async function addEntry(event) {
    event.preventDefault();
    const form = event.target;
    const r = await desk.api("POST", base + "/entries", desk.fields(form));
    const added = r.ok ? "Added " + r.data.player.name + " (#" + r.data.player.number + ")." : r.data.message;
    desk.notice($("players-notice"), withWarnings(added, r), noticeKind(r));
    if (r.ok) form.reset();
  }

  const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

  async function importCsv(event, what) {
    event.preventDefault();
    // an Excel workbook goes as its bytes (the server reads its first sheet), CSV as text
    const file = ($(what + "-file").files || [])[0];
    const workbook = Boolean(file) && /\.xlsx$/i.test(file.name);
    const content = workbook ? await file.arrayBuffer() : await desk.fileText($(what + "-file"));
    const type = workbook ? XLSX_TYPE : "text/csv";
    const r = await desk.api("POST", base + "/" + what + "/import", content, { raw: type });
    const count = r.ok ? (r.data[what] || []).length : 0;
    const said = r.ok ? "Imported " + count + " " + what + "." : r.data.message;
    desk.notice($(what + "-notice"), withWarnings(said, r), noticeKind(r));
    if (r.ok) event.target.reset();
  }

  /* The answer's possible-duplicate warnings (a name equal to another once composed and
   * case-folded, display/http/names.py) after what was done. */
  function noticeKind(r) {
    if (!r.ok) return "error";
    return (r.data.warnings || []).length ? "warn" : "ok";
  }

  function withWarnings(text, r) {
    const warnings = (r.ok && r.data.warnings) || [];
    return warnings.length ? text + " Check: " + warnings.join(" ") : text;
  }

  function renderMachines() {
    const machines = B.machineList(views());
    $("machines-count").textContent = machines.length ? "(" + machines.length + ")" : "";
    const head = el("tr", {}, ["Id", "Name", "Maker", "Year", ""].map((t) => el("th", {}, t)));
    const rows = machines.map(([id, machine]) => {
      const reg = state.registrations.machines[id] || {};
      return el(
        "tr",
        { dataset: { machine: id } },
        el("td", { class: "num" }, id),
        el("td", {}, machine.name),
        el("td", {}, reg.manufacturer || ""),
        el("td", { class: "num" }, reg.year || ""),
        el("td", { class: "muted" }, machine.status ? machine.status.replace(/_/g, " ") : "")
      );
    });
    $("machines-table").replaceChildren(el("thead", {}, head), el("tbody", {}, rows));
  }

  async function addMachine(event) {
    event.preventDefault();
    const r = await desk.api("POST", base + "/machines", desk.fields(event.target));
    desk.notice($("machines-notice"), r.ok ? "Machine added." : r.data.message, r.ok ? "ok" : "error");
    if (r.ok) event.target.reset();
  }

  /* ---------- stewards ---------- */

  async function loadStewards() {
    const r = await desk.api("GET", base + "/stewards");
    if (r.ok) state.stewards = r.data.stewards;
    renderStewards();
    loadFailures();
  }

  function renderStewards() {
    const head = el("tr", {}, ["Steward", "PIN issued", "Signed in", ""].map((t) => el("th", {}, t)));
    const rows = state.stewards.map((s) => {
      const seen = s.sessions.map((x) => x.last_seen).filter(Boolean).sort().pop();
      return el(
        "tr",
        { dataset: { steward: s.name } },
        el("td", {}, s.name),
        el("td", { class: "muted" }, s.issued_at ? B.fmt.time(s.issued_at) : ""),
        el("td", { class: "signed-in" }, s.sessions.length ? s.sessions.length + " phone" + (s.sessions.length > 1 ? "s" : "") + (seen ? ", active " + B.fmt.time(seen) : "") : "no"),
        el("td", {}, el("button", { type: "button", class: "small danger", onclick: () => revoke(s.name) }, "Revoke"))
      );
    });
    $("stewards-table").replaceChildren(el("thead", {}, head), el("tbody", {}, rows.length ? rows : el("tr", {}, el("td", { class: "muted", colspan: "4" }, "No stewards yet."))));
  }

  async function loadFailures() {
    const r = await desk.api("GET", base + "/sign-in-failures");
    if (!r.ok) return;
    const head = el("tr", {}, ["When", "Who", "From"].map((t) => el("th", {}, t)));
    const rows = r.data.failures.slice(0, 20).map((f) =>
      el("tr", {}, el("td", { class: "muted" }, B.fmt.time(f.at, { seconds: true })), el("td", {}, f.account), el("td", { class: "muted" }, f.source))
    );
    $("failures-table").replaceChildren(el("thead", {}, head), el("tbody", {}, rows.length ? rows : el("tr", {}, el("td", { class: "muted", colspan: "3" }, "None."))));
  }

  async function issue(event) {
    event.preventDefault();
    const name = desk.fields(event.target).name;
    const r = await desk.api("POST", base + "/stewards", { name: name });
    const notice = $("stewards-notice");
    if (r.ok) {
      notice.replaceChildren("PIN for " + name + ": ", el("strong", { class: "pin", id: "new-pin" }, r.data.pin), " — shown once; they sign in on the steward page.");
      notice.className = "notice ok";
      notice.hidden = false;
      event.target.reset();
    } else desk.notice(notice, r.data.message, "error");
    loadStewards();
  }

  async function revoke(name) {
    if (!window.confirm("Revoke " + name + "? Their PIN stops working and their phones are signed out at once.")) return;
    const r = await desk.api("DELETE", base + "/stewards/" + encodeURIComponent(name));
    desk.notice($("stewards-notice"), r.ok ? name + " is revoked." : r.data.message, r.ok ? "ok" : "error");
    loadStewards();
  }

  /* ---------- hall display profiles ---------- */

  async function loadProfileChoices() {
    const r = await desk.api("GET", base + "/profiles");
    if (!r.ok) return;
    state.displayViews = r.data.views;
    state.themes = r.data.themes;
    $("profile-views").replaceChildren(
      ...state.displayViews.map((name) =>
        el("label", { class: "check" }, el("input", { type: "checkbox", value: name, checked: name === "machines" || name === "standings" }), " " + name)
      )
    );
    $("profile-theme").replaceChildren(...state.themes.map((t) => el("option", { value: t }, t)));
  }

  function renderProfiles() {
    const profiles = Object.entries(views().profiles || {}).sort(([a], [b]) => (a < b ? -1 : 1));
    $("profiles").replaceChildren(
      ...profiles.map(([name, p]) =>
        el(
          "li",
          { dataset: { profile: name } },
          el("a", { href: "/t/" + encodeURIComponent(tid) + "/display?profile=" + encodeURIComponent(name), target: "_blank", class: "profile-name" }, name),
          el(
            "span",
            { class: "muted" },
            p.views.join(", ") + " · " + p.seconds + " s · " + p.theme + (p.qr ? "" : " · no QR") +
              (p.distance ? " · read from " + p.distance + " m" : "") + (p.diagonal ? " · " + p.diagonal + "″ screen" : "")
          ),
          el("button", { type: "button", class: "small", onclick: () => editProfile(name, p) }, "Edit"),
          el("button", { type: "button", class: "small danger", onclick: () => removeProfile(name) }, "Remove")
        )
      )
    );
  }

  function editProfile(name, p) {
    const form = $("profile-form");
    form.elements.name.value = name;
    form.elements.seconds.value = p.seconds;
    form.elements.theme.value = p.theme;
    form.elements.qr.checked = p.qr;
    form.elements.distance.value = p.distance || "";
    form.elements.diagonal.value = p.diagonal || "";
    for (const box of $("profile-views").querySelectorAll("input")) box.checked = p.views.includes(box.value);
  }

  async function saveProfile(event) {
    event.preventDefault();
    const form = event.target;
    const chosen = [...$("profile-views").querySelectorAll("input:checked")].map((box) => box.value);
    const body = { views: chosen, seconds: Number(form.elements.seconds.value), theme: form.elements.theme.value, qr: form.elements.qr.checked };
    for (const key of ["distance", "diagonal"]) {
      if (form.elements[key].value !== "") body[key] = Number(form.elements[key].value);
    }
    const name = form.elements.name.value.trim();
    const r = await desk.api("PUT", base + "/profiles/" + encodeURIComponent(name), body);
    desk.notice($("profile-notice"), r.ok ? "Saved; displays showing “" + name + "” follow at once." : r.data.message, r.ok ? "ok" : "error");
  }

  async function removeProfile(name) {
    const r = await desk.api("DELETE", base + "/profiles/" + encodeURIComponent(name));
    desk.notice($("profile-notice"), r.ok ? "Removed " + name + "." : r.data.message, r.ok ? "ok" : "error");
  }

  /* ---------- displays connected now (display/desk/displays.py) ---------- */

  const PAGE_WORDS = { display: "Board (hall display)", standings: "Players' phones", steward: "Stewards' phones" };

  async function loadScreens() {
    const r = await desk.api("GET", base + "/displays");
    if (!r.ok) return;
    state.screens = r.data.displays;
    renderScreens();
    $("lan-warning").hidden = r.data.lan;
    $("hall-urls").replaceChildren(
      ...Object.entries(r.data.urls).flatMap(([page, urls]) => [
        el("dt", {}, PAGE_WORDS[page] || page),
        el("dd", {}, ...urls.map((u) => el("div", {}, el("a", { href: u, target: "_blank" }, u)))),
      ])
    );
  }

  function shows(screen) {
    const set = (views().displays || {})[screen.name];
    if (set && set.profile) return "profile " + set.profile + " (set here)";
    if (set) return set.views.join(", ") + " · " + set.seconds + " s (set here)";
    if (screen.profile) return "profile " + screen.profile;
    return screen.views.length ? screen.views.join(", ") : "its format's views";
  }

  function renderScreens() {
    const head = el("tr", {}, ["Display", "Shows", "Connected since", "Address", ""].map((t) => el("th", {}, t)));
    const rows = (state.screens || []).map((d) =>
      el(
        "tr",
        { dataset: { display: d.name } },
        el("td", {}, el("strong", {}, d.name)),
        el("td", { class: "screen-shows" }, shows(d)),
        el("td", { class: "muted" }, B.fmt.time(new Date(d.since * 1000).toISOString())),
        el("td", { class: "muted" }, d.address),
        el("td", {}, el("button", { type: "button", class: "small", onclick: () => editScreen(d) }, "Change"))
      )
    );
    const none = el("tr", {}, el("td", { class: "muted", colspan: "5" }, "No display is showing this tournament. Open a board: " + location.origin + "/t/" + tid + "/display"));
    $("screens-table").replaceChildren(el("thead", {}, head), el("tbody", {}, rows.length ? rows : none));
  }

  function editScreen(d) {
    const form = $("screen-form");
    const set = (views().displays || {})[d.name] || {};
    form.hidden = false;
    form.dataset.display = d.name;
    $("screen-name").textContent = d.name;
    const profiles = Object.keys(views().profiles || {}).sort();
    $("screen-profile").replaceChildren(
      el("option", { value: "" }, "the views below"),
      ...profiles.map((p) => el("option", { value: p }, "profile " + p))
    );
    $("screen-profile").value = set.profile || "";
    const current = set.views || (d.views.length ? d.views : ["machines", "standings"]);
    $("screen-views").replaceChildren(
      ...state.displayViews.map((name) =>
        el("label", { class: "check" }, el("input", { type: "checkbox", value: name, checked: current.includes(name) }), " " + name)
      )
    );
    form.elements.seconds.value = set.seconds || 12;
    syncScreenForm();
  }

  function syncScreenForm() {
    const byProfile = $("screen-profile").value !== "";
    $("screen-views-box").disabled = byProfile;
    $("screen-form").elements.seconds.disabled = byProfile;
  }

  async function assignScreen(event) {
    event.preventDefault();
    const form = event.target;
    const name = form.dataset.display;
    const profile = $("screen-profile").value;
    const body = profile
      ? { profile: profile }
      : { views: [...$("screen-views").querySelectorAll("input:checked")].map((b) => b.value), seconds: Number(form.elements.seconds.value) };
    const r = await desk.api("PUT", base + "/displays/" + encodeURIComponent(name), body);
    desk.notice($("screen-notice"), r.ok ? "Sent; " + name + " shows it now." : r.data.message, r.ok ? "ok" : "error");
  }

  async function releaseScreen() {
    const name = $("screen-form").dataset.display;
    const r = await desk.api("DELETE", base + "/displays/" + encodeURIComponent(name));
    desk.notice($("screen-notice"), r.ok ? name + " shows what its own address says again." : r.data.message, r.ok ? "ok" : "error");
  }

  /* ---------- drawing ---------- */

  function render() {
    if (live.version === null) return;
    loadSources();
    renderSettings();
    renderPlayers();
    renderMachines();
    renderProfiles();
    renderScreens();
  }

  $("players-url").textContent = config.players_url;
  $("localhost-warning").hidden = !/\/\/(localhost|127\.0\.0\.1|\[::1\])[:/]/.test(config.players_url);
  $("settings-form").addEventListener("submit", saveSettings);
  $("entry-form").addEventListener("submit", addEntry);
  $("players-csv").addEventListener("submit", (e) => importCsv(e, "players"));
  $("machines-csv").addEventListener("submit", (e) => importCsv(e, "machines"));
  $("machine-form").addEventListener("submit", addMachine);
  $("steward-form").addEventListener("submit", issue);
  $("profile-form").addEventListener("submit", saveProfile);
  $("screen-form").addEventListener("submit", assignScreen);
  $("screen-profile").addEventListener("change", syncScreenForm);
  $("screen-release").addEventListener("click", releaseScreen);

  desk.whenSignedIn(() => {
    loadRegistrations();
    loadStewards();
    loadProfileChoices();
    loadScreens();
  });
  setInterval(() => {
    if (desk.token && !document.hidden) loadStewards(); // who is signed in, kept fresh
  }, 15000);
  setInterval(() => {
    if (desk.token && !document.hidden) loadScreens(); // displays come and go without a record
  }, 3000);
  window.backglassLive = live;
  live.start();
})();
