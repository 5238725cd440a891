/* The TD's desk: a red alert while the score store has lost records (docs/store-loss.md), with a
 * restore form for each tournament it concerns. Polls the public GET /api/health every 3 s; the
 * tournament's own desk shows only that tournament. */
(function () {
  "use strict";
  const B = window.Backglass;
  const desk = B.desk;
  const el = B.el;
  const POLL_MS = 3000;
  const only = B.pageConfig().tournament || null;
  const main = document.querySelector("main.desk");
  let box = null;
  let shown = "";

  function what(t) {
    if (t.reason === "diverged") {
      return "the store holds a different record " + t.seen + " from the one this server had seen";
    }
    return "the store holds version " + t.version + ", this server had seen " + t.seen;
  }

  function restoreForm(tid, t) {
    const file = el("input", { type: "file", accept: ".jsonl,.json,.txt", required: true, "aria-label": "Log export of " + tid });
    const notice = el("p", { class: "notice", hidden: true });
    const accept = el("button", { type: "button" }, "Accept the loss");
    const form = el(
      "form",
      { class: "stack store-restore", dataset: { tournament: tid } },
      el("p", {}, el("strong", {}, tid), ": " + what(t) + "."),
      el("div", { class: "inline-form" }, file, el("button", { type: "submit", class: "primary" }, "Restore"), accept),
      notice
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const text = await desk.fileText(file);
      const path = "/api/t/" + encodeURIComponent(tid) + "/restore";
      const r = await desk.api("POST", path, text, { raw: "application/x-ndjson" });
      if (r.ok && r.data.state === "ok") {
        done(tid + ": restored " + r.data.restored + " records; scores are recorded again.");
      } else {
        desk.notice(notice, r.data.message || "Not restored.", "error");
      }
    });
    accept.addEventListener("click", async () => {
      const lost = t.seen - t.version;
      const sure = window.confirm(
        "Accept that " + (lost > 0 ? lost + " records" : "the records this server had seen") +
          " of " + tid + " are gone? Use this only when no log export holds them."
      );
      if (!sure) return;
      const r = await desk.api("POST", "/api/t/" + encodeURIComponent(tid) + "/restore/accept");
      if (r.ok) done(tid + ": the loss was accepted; scores are recorded again.");
      else desk.notice(notice, r.data.message || "Not accepted.", "error");
    });
    return form;
  }

  function done(message) {
    const note = el("p", { class: "notice ok", role: "status" }, message);
    main.prepend(note);
    shown = "";
    poll();
  }

  async function poll() {
    let health;
    try {
      health = await (await fetch("/api/health")).json();
    } catch (_) {
      return; // the server is unreachable: the status corner says so
    }
    const behind = Object.entries(health.tournaments || {}).filter(
      ([tid, t]) => t.state === "behind" && (only === null || tid === only)
    );
    const key = JSON.stringify(behind);
    if (key === shown) return; // unchanged: keep the form (and a chosen file) as it is
    shown = key;
    if (box !== null) box.remove();
    box = null;
    if (!behind.length) return;
    box = el(
      "section",
      { class: "card store-alert", role: "alert", id: "store-alert" },
      el("h2", {}, "The score store has lost records"),
      el(
        "p",
        {},
        "Redis came back empty or older than what this server had seen (a lost disk or an old copy). " +
          "Nothing can be recorded in these tournaments, and their displays say the standings are " +
          "incomplete, until you restore each from its last log export (Exports → The whole log). " +
          "Sign in again if asked: sessions and steward PINs may have been lost with it."
      ),
      behind.map(([tid, t]) => restoreForm(tid, t))
    );
    main.prepend(box);
  }

  if (main) {
    poll();
    setInterval(poll, POLL_MS);
  }
})();
