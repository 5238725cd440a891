/* The TD's desk, shared by its two pages: the TD's sign-in (a bearer token kept in
 * localStorage) and a JSON API helper that shows the server's own message when it refuses.
 *
 *   const desk = Backglass.desk;
 *   desk.whenSignedIn(() => ...);           // shows the sign-in form first if needed
 *   await desk.api("POST", "/api/...", body, {raw: "text/csv"}) -> {ok, status, data}
 *   desk.notice(node, "Saved.", "ok")       // a message line under a form
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;
  const KEY = "backglass.td";
  const RETRIES = 3; // sends of one write: the first and two more with the same key

  const desk = {
    token: localStorage.getItem(KEY),
    onSignedIn: [],

    /* fetch with the TD's token; JSON in and out (``raw``: send the body as that content type).
     * Every write carries an Idempotency-Key of its own; when the answer is lost (no answer) or
     * the store's outcome is unknown (503), it is sent again with the same key, so it is
     * recorded at most once (docs/redis.md, "Outcome unknown"). */
    async api(method, path, body, options) {
      const opts = options || {};
      const headers = {};
      if (desk.token) headers.Authorization = "Bearer " + desk.token;
      const write = method !== "GET" && method !== "HEAD";
      if (write) headers["Idempotency-Key"] = opts.key || desk.newKey();
      let payload;
      if (body !== undefined && opts.raw) {
        headers["Content-Type"] = opts.raw;
        payload = body;
      } else if (body !== undefined) {
        headers["Content-Type"] = "application/json";
        payload = JSON.stringify(body);
      }
      let response = null;
      for (let attempt = 1; attempt <= (write ? RETRIES : 1); attempt += 1) {
        if (attempt > 1) await new Promise((done) => setTimeout(done, 400 * attempt));
        try {
          response = await fetch(path, { method: method, headers: headers, body: payload });
        } catch (_) {
          response = null;
        }
        if (response && response.status !== 503) break;
      }
      if (!response) {
        const message = write
          ? "The server cannot be reached, so this may not have been saved. Check, then try again."
          : "The server cannot be reached.";
        return { ok: false, status: 0, data: { message: message } };
      }
      let data = {};
      try {
        data = await response.json();
      } catch (_) {
        data = {};
      }
      if (response.status === 401 && desk.token) desk.signOut(false);
      return { ok: response.ok, status: response.status, data: data };
    },

    /* A select of a setting's ``choices`` ([{value, meaning}], GET /api/templates), each option
     * saying its value and what it means, ``value`` chosen. A value that is none of them (a
     * custom points table, a list) stays as an option of its own, so nothing changes unasked. */
    choiceSelect(attrs, choices, value) {
      const current = typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
      const options = choices.map((c) => el("option", { value: c.value }, c.value + " — " + c.meaning));
      if (!choices.some((c) => c.value === current)) options.push(el("option", { value: current, dataset: { custom: "1" } }, "custom: " + current));
      const select = el("select", Object.assign({}, attrs, { class: "choice", dataset: Object.assign({}, attrs.dataset, { choice: "1" }) }), ...options);
      select.value = current;
      const meaning = el("span", { class: "meaning" });
      const say = () => {
        const chosen = choices.find((c) => c.value === select.value);
        meaning.textContent = chosen ? chosen.meaning : "a custom points table, kept unless another is chosen";
      };
      select.addEventListener("change", say);
      say();
      return el("span", { class: "choice-control" }, select, meaning);
    },

    /* A fresh Idempotency-Key (crypto.randomUUID needs a secure context; a LAN has only
     * getRandomValues). */
    newKey() {
      if (window.crypto && typeof window.crypto.randomUUID === "function") return window.crypto.randomUUID();
      const bytes = new Uint8Array(16);
      window.crypto.getRandomValues(bytes);
      return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    },

    whenSignedIn(callback) {
      desk.onSignedIn.push(callback);
      if (desk.token) callback();
      else desk.showSignIn();
    },

    showSignIn() {
      const holder = document.getElementById("signin");
      if (!holder) return;
      holder.hidden = false;
      document.getElementById("desk-body").hidden = true;
    },

    signOut(tellServer) {
      if (tellServer) desk.api("DELETE", "/api/session");
      desk.token = null;
      localStorage.removeItem(KEY);
      desk.showSignIn();
    },

    notice(node, text, kind) {
      node.textContent = text || "";
      node.className = "notice" + (kind ? " " + kind : "");
      node.hidden = !text;
    },

    /* A form's fields as an object: checkboxes as booleans, the rest as trimmed text. */
    fields(form) {
      const out = {};
      for (const input of form.querySelectorAll("input[name], select[name], textarea[name]")) {
        if (input.type === "checkbox") out[input.name] = input.checked;
        else if (input.type !== "file") out[input.name] = input.value.trim();
      }
      return out;
    },

    async fileText(input) {
      const file = input.files && input.files[0];
      return file ? await file.text() : "";
    },

    el: el,
  };

  function setUp() {
    const form = document.getElementById("signin-form");
    if (!form) return;
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const message = document.getElementById("signin-error");
      const password = document.getElementById("signin-password").value;
      const r = await desk.api("POST", "/api/session", { role: "td", password: password });
      if (!r.ok) {
        desk.notice(message, r.data.message || "Sign-in failed.", "error");
        return;
      }
      desk.token = r.data.token;
      localStorage.setItem(KEY, desk.token);
      desk.notice(message, "");
      document.getElementById("signin").hidden = true;
      document.getElementById("desk-body").hidden = false;
      for (const callback of desk.onSignedIn) callback();
    });
    const out = document.getElementById("sign-out");
    if (out) out.addEventListener("click", () => desk.signOut(true));
    if (desk.token) {
      document.getElementById("signin").hidden = true;
      document.getElementById("desk-body").hidden = false;
    }
  }

  B.desk = desk;
  setUp();
})();
