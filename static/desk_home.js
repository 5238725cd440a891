/* The desk's first page: create a tournament from a competition template (adjusting its
 * settings), import a log, and see who is signed in. */
(function () {
  "use strict";
  const desk = window.Backglass.desk;
  const el = desk.el;
  const $ = (id) => document.getElementById(id);
  let templates = [];

  function describe(value) {
    return typeof value === "object" ? JSON.stringify(value) : String(value);
  }

  /* A setting typed back into the value's own kind: numbers as numbers, lists as JSON. */
  function parse(text, like) {
    if (typeof like === "number") return text === "" ? like : Number(text);
    if (typeof like === "boolean") return text === "true";
    if (typeof like === "object" && like !== null) return JSON.parse(text);
    return text;
  }

  /* A control of the value's own kind: one of the format's choices with its meaning, a number
   * box, yes/no, else text (lists as JSON). */
  function settingControl(s) {
    const attrs = { "aria-label": s.key, dataset: { key: s.key } };
    if (s.choices) return desk.choiceSelect(attrs, s.choices, s.value);
    if (typeof s.value === "boolean") {
      const select = el("select", attrs, el("option", { value: "true" }, "yes"), el("option", { value: "false" }, "no"));
      select.value = String(s.value);
      return select;
    }
    if (typeof s.value === "number") return el("input", Object.assign(attrs, { type: "number", step: "any", value: describe(s.value) }));
    return el("input", Object.assign(attrs, { value: describe(s.value) }));
  }

  function showTemplate() {
    const chosen = templates.find((t) => t.id === $("new-template").value);
    $("new-about").textContent = chosen ? chosen.rules + ": " + chosen.about : "";
    const rows = (chosen ? chosen.settings : []).map((s) =>
      el(
        "tr",
        { dataset: { key: s.key } },
        el("th", { scope: "row" }, s.key),
        el("td", {}, settingControl(s)),
        el("td", { class: "muted source" }, s.source)
      )
    );
    $("new-settings").replaceChildren(el("tbody", {}, rows));
  }

  async function loadTemplates() {
    const r = await desk.api("GET", "/api/templates");
    templates = r.ok ? r.data.templates : [];
    $("new-template").replaceChildren(
      ...templates.map((t) =>
        el(
          "option",
          { value: t.id, disabled: !t.available },
          t.name + (t.available ? "" : " — not on this server yet")
        )
      )
    );
    const first = templates.find((t) => t.available);
    if (first) $("new-template").value = first.id;
    showTemplate();
  }

  async function create(event) {
    event.preventDefault();
    const notice = $("new-notice");
    const chosen = templates.find((t) => t.id === $("new-template").value);
    if (!chosen) return;
    const settings = {};
    try {
      for (const input of $("new-settings").querySelectorAll("[data-key]:is(input, select)")) {
        const original = chosen.settings.find((s) => s.key === input.dataset.key).value;
        if (input.value.trim() === describe(original)) continue;
        // a choice is sent as its text even where the default is a list (a custom points table)
        settings[input.dataset.key] = input.dataset.choice ? input.value : parse(input.value.trim(), original);
      }
    } catch (_) {
      desk.notice(notice, "A list setting must be written as JSON, e.g. [9, 5, 2, 0].", "error");
      return;
    }
    const body = { id: $("new-id").value.trim(), name: $("new-name").value.trim(), template: chosen.id, settings: settings };
    const zone = $("new-zone").value.trim(); // the venue's (display/http/venue_time.py)
    if (zone) body.time_zone = zone;
    const r = await desk.api("POST", "/api/tournaments/from-template", body);
    if (!r.ok) {
      desk.notice(notice, r.data.message || "Not created.", "error");
      return;
    }
    window.location.href = "/t/" + encodeURIComponent(body.id) + "/desk";
  }

  async function importLog(event) {
    event.preventDefault();
    const notice = $("import-notice");
    const id = $("import-id").value.trim();
    const text = await desk.fileText($("import-file"));
    desk.notice(notice, "Importing…");
    const r = await desk.api("POST", "/api/t/" + encodeURIComponent(id) + "/import", text, { raw: "application/x-ndjson" });
    if (!r.ok) {
      desk.notice(notice, r.data.message || "Not imported.", "error");
      return;
    }
    desk.notice(notice, "Imported " + r.data.records + " records.", "ok");
    window.location.href = "/t/" + encodeURIComponent(id) + "/desk";
  }

  /* A session's time as its tournament's venue reads it ("active 21:04:09 CET"); a TD's session
   * (every tournament) in the server's zone. */
  function sessionTime(s) {
    const config = window.Backglass.pageConfig();
    const zone = (config.zones || {})[s.tournament] || config.server_zone;
    const when = s.last_seen ? s.last_seen : s.since;
    return (s.last_seen ? "active " : "signed in ") + window.Backglass.fmt.time(when, { seconds: true, zone: zone });
  }

  /* "End": the session stops working at once (DELETE /api/sessions/{id}). */
  function endButton(s) {
    const button = el("button", { type: "button", class: "end-session", "data-session": s.id }, "End");
    button.addEventListener("click", async () => {
      button.disabled = true;
      await desk.api("DELETE", "/api/sessions/" + encodeURIComponent(s.id));
      loadSessions();
    });
    return button;
  }

  async function loadSessions() {
    const r = await desk.api("GET", "/api/sessions");
    if (!r.ok) return;
    const rows = r.data.sessions.map((s) =>
      el(
        "tr",
        {},
        el("td", {}, s.role === "td" ? "TD" : "Steward"),
        el("td", {}, s.name),
        el("td", {}, s.tournament || "all"),
        el("td", { class: "muted session-time" }, sessionTime(s)),
        el("td", {}, endButton(s))
      )
    );
    $("sessions").replaceChildren(el("tbody", {}, rows.length ? rows : el("tr", {}, el("td", { class: "muted" }, "Nobody."))));
  }

  $("new-template").addEventListener("change", showTemplate);
  $("new-form").addEventListener("submit", create);
  $("import-form").addEventListener("submit", importLog);
  desk.whenSignedIn(() => {
    loadTemplates();
    loadSessions();
  });
})();
