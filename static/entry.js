/* What the phone entry pages share (static/steward.js, static/competitions/epc_country/entry.js,
 * static/competitions/fwpl/entry.js): the steward's sign-in, the session and pending entry kept in
 * localStorage, and the submit that never records anything twice.
 *
 * A confirmed entry gets one Idempotency-Key. It is kept (with the entry) in localStorage until
 * the server answers, and every retry after a network failure, a timeout or a 500/502-504 sends the
 * same key, so a flaky connection, a double tap or a reloaded page never records it twice.
 *
 * The page's markup has #signin-form (#signin-submit, #signin-error) and a confirm screen with
 * #confirm-notice, #confirm-error, #confirm-edit and #confirm-submit (templates/_partials.html).
 */
(function () {
  "use strict";
  const B = window.Backglass;

  const REQUEST_TIMEOUT_MS = 10000;
  // "Send the same request again": 502-504, and 500 too, since an unexpected failure may come
  // after the record was stored; the same key makes the retry safe either way.
  const RETRY_STATUSES = new Set([500, 502, 503, 504]);
  const $ = (id) => document.getElementById(id);

  function load(key) {
    try {
      return JSON.parse(localStorage.getItem(key) || "null");
    } catch (_) {
      return null;
    }
  }

  function store(key, value) {
    if (value === null || value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, typeof value === "string" ? value : JSON.stringify(value));
  }

  /* crypto.randomUUID needs a secure context; a plain-HTTP LAN has only getRandomValues. */
  function newIdempotencyKey() {
    if (window.crypto && typeof window.crypto.randomUUID === "function") return window.crypto.randomUUID();
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function showError(id, message) {
    const node = $(id);
    node.textContent = message || "";
    node.hidden = !message;
  }

  function notice(text) {
    const node = $("confirm-notice");
    node.textContent = text;
    node.hidden = !text;
  }

  function digits(text) {
    return String(text).replace(/\D/g, "").replace(/^0+(?=\d)/, "");
  }

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  /* POST JSON; resolves with {ok, status, data, message} for any HTTP answer, rejects on a network
   * failure or after REQUEST_TIMEOUT_MS without an answer. */
  async function request(path, body, options) {
    const headers = { "Content-Type": "application/json" };
    if (options.token) headers.Authorization = "Bearer " + options.token;
    if (options.key) headers["Idempotency-Key"] = options.key;
    if (options.ifMatch) headers["If-Match"] = options.ifMatch; // the version a change was opened at
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
    try {
      const res = await fetch(path, {
        method: "POST",
        headers: headers,
        body: JSON.stringify(body),
        signal: controller.signal,
        cache: "no-store",
      });
      let data = {};
      try {
        data = await res.json();
      } catch (_) {
        data = {};
      }
      const message = data.message || (res.ok ? "" : "The server answered " + res.status + ".");
      return { ok: res.ok, status: res.status, data: data, message: message };
    } finally {
      clearTimeout(timer);
    }
  }

  /* Send until the server answers (anything but 500/502-504), always with the same key; ``token()``
   * is asked before each try, ``onRetry(attempt, res)`` is told after each failure (``res``: the
   * 500/502-504 answer, undefined when there was none). */
  async function submitOnce(url, body, key, options) {
    for (let attempt = 1; ; attempt++) {
      let res;
      try {
        res = await request(url, body, { key: key, token: options.token(), ifMatch: options.ifMatch });
        if (!RETRY_STATUSES.has(res.status)) return res;
      } catch (_) {
        /* no answer: retry with the same key */
      }
      options.onRetry(attempt, res);
      await sleep(Math.min(1000 * 2 ** (attempt - 1), 5000));
    }
  }

  /* The sign-in form: ``read()`` gives the /api/session body or a message to show instead;
   * ``signedIn(data, body)`` gets the server's answer ({token, ...}) and the body sent. */
  function signIn(read, signedIn) {
    $("signin-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const body = read();
      if (typeof body === "string") return showError("signin-error", body);
      $("signin-submit").disabled = true;
      showError("signin-error", "");
      try {
        const res = await request("/api/session", body, {});
        if (!res.ok) return showError("signin-error", res.message);
        signedIn(res.data, body);
      } catch (_) {
        showError("signin-error", "No connection to the server. Check the Wi-Fi and try again.");
      } finally {
        $("signin-submit").disabled = false;
      }
    });
  }

  /* The steward's sign-in form (#signin-name, #signin-pin; the session is the steward page's):
   * ``signedIn({token, name})`` once the server accepts it. */
  function stewardSignIn(tid, signedIn) {
    signIn(
      () => {
        const name = $("signin-name").value.trim();
        const pin = $("signin-pin").value.trim();
        if (!name || !pin) return "Type your name and the PIN the TD gave you.";
        return { role: "steward", tournament: tid, name: name, pin: pin };
      },
      (data, body) => signedIn({ token: data.token, name: data.name || body.name })
    );
  }

  const ENTRY_TEXT = {
    retry: "Retrying the same entry — it will not be recorded twice.",
    // a 503 store_unavailable: the server is certain its score store did not keep it (docs/redis.md)
    notSaved: "NOT SAVED — the server cannot store it right now",
    // a 503 outcome_unknown (or a 500/502/504): the store may have kept it; the same key makes the resend safe
    mayBeRecorded: "This may already be recorded — the server could not confirm it. Sending it again with the same key",
    unsure: "This entry may already be recorded. Submit it again to find out, or press Edit again to discard it.",
    resume: "This entry was being sent when the page closed. Submit it again — it will not be recorded twice.",
    signInAgain: " Sign in again, then submit.",
  };

  /* What the phone says while it resends: NOT SAVED only when the server is certain nothing was
   * recorded (503 store_unavailable, or a plain 503 from a full connection table); after a 503
   * outcome_unknown or a 500/502/504 the entry may be recorded already, and the resend with the same
   * Idempotency-Key gets the recorded answer or records it once (docs/redis.md, "Outcome unknown"). */
  function retryText(text, res) {
    if (!res) return "No answer from the server";
    const unknown = res.status !== 503 || (res.data && res.data.error === "outcome_unknown");
    return unknown ? text.mayBeRecorded : text.notSaved;
  }

  /* The confirm screen's Edit and Submit for ``state.pending`` ({key, body, sent, ifMatch?, ...}, kept under
   * ``keys.pending``), sent with ``state.session``'s token (kept under ``keys.session``).
   *   url(pending)            where to send it
   *   prepare(pending)        optional, just before it is sent
   *   recorded(pending, res)  the server recorded it (state.pending is already cleared)
   *   discarded()             Edit pressed (twice if it may be recorded): back to the form
   *   show(screen), renderConfirm()
   *   text: {retry, notSaved, mayBeRecorded, unsure, resume, signInAgain}  optional: the page's wording (ENTRY_TEXT else)
   * Returns resumed(): call it once the page is drawn, to say a reloaded entry is still pending. */
  function confirmation(state, keys, page) {
    const text = Object.assign({}, ENTRY_TEXT, page.text);
    $("confirm-edit").addEventListener("click", () => {
      const pending = state.pending;
      if (pending && pending.sent && !pending.warned) {
        // it may have been recorded: resending with its key can never record it twice
        pending.warned = true;
        showError("confirm-error", text.unsure);
        return;
      }
      state.pending = null;
      store(keys.pending, null);
      page.discarded();
    });

    $("confirm-submit").addEventListener("click", () => submit());

    async function submit() {
      const pending = state.pending;
      if (!pending || state.sending) return;
      if (!state.session) return page.show("signin");
      if (page.prepare) page.prepare(pending);
      state.sending = true;
      pending.sent = true;
      store(keys.pending, pending);
      showError("confirm-error", "");
      notice("Sending…");
      page.renderConfirm();
      const res = await submitOnce(page.url(pending), pending.body, pending.key, {
        token: () => state.session.token,
        ifMatch: pending.ifMatch,
        onRetry: (attempt, res) => notice(retryText(text, res) + " (try " + attempt + "). " + text.retry),
      });
      state.sending = false;
      notice("");
      if (res.ok) {
        state.pending = null;
        store(keys.pending, null);
        return page.recorded(pending, res);
      }
      if (res.status === 401) {
        // the entry was not recorded; keep it (and its key) and send it after signing in again
        state.session = null;
        store(keys.session, null);
        pending.sent = false;
        store(keys.pending, pending);
        showError("signin-error", res.message + text.signInAgain);
        return page.show("signin");
      }
      // refused by the rules: nothing was recorded; show why, let the steward edit
      pending.sent = false;
      store(keys.pending, null);
      showError("confirm-error", res.message);
      page.renderConfirm();
    }

    return function resumed() {
      if (state.pending && state.pending.sent) notice(text.resume);
    };
  }

  B.entry = {
    load: load,
    store: store,
    newIdempotencyKey: newIdempotencyKey,
    showError: showError,
    notice: notice,
    digits: digits,
    request: request,
    submitOnce: submitOnce,
    signIn: signIn,
    stewardSignIn: stewardSignIn,
    confirmation: confirmation,
  };
})();
