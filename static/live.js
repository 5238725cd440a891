/* Backglass live client: the websocket protocol of docs/protocol.md, plus small helpers the
 * pages share (number formatting, row ordering, building elements). No dependencies.
 *
 *   const live = new Backglass.Live("epc2009", {
 *     onchange(names, rowKeys, before, info) { ... },  // names: changed view names (array);
 *                                                     // rowKeys: {view: [changed row keys]}
 *     onstatus(connected, lastMessageAge) { ... },     // every second and on every change
 *   });
 *   live.start();  live.views["standings"] ...  live.version
 *
 * The client reconnects by itself after any close or 15 s of silence and resumes with
 * ?since=<version>; a page never needs reloading. Each retry waits 0.25 s plus a random share of a
 * window that starts at 6 s and doubles to 20 s ("full jitter", exponential backoff), so the 500
 * displays of a hall that all lost the server in the same instant come back spread over seconds
 * (under 100 new connections a second) instead of all at once. ``Backglass.random`` (default
 * Math.random) is the random source; a test may replace it with a seeded one.
 */
(function (global) {
  "use strict";

  const SILENCE_MS = 15000;
  const MIN_DELAY_MS = 250;
  const FIRST_WINDOW_MS = 6000; // 500 displays over 6 s: about 85 new connections a second
  const MAX_WINDOW_MS = 20000;
  const PING_GRACE_MS = 7000; // pings come every 5 s
  let storeDownAt = null; // Date.now() when a ping first said the score store is down, else null
  let starting = null; // {done, total} while the server says it is catching up, else null

  function isObject(value) {
    return value !== null && typeof value === "object" && !Array.isArray(value);
  }

  /* RFC 7386 merge patch. Returns a new value and never mutates ``target``: untouched branches are
   * shared, so the documents a page saw before a change stay intact for comparison. */
  function mergePatch(target, patch) {
    if (!isObject(patch)) return patch;
    const out = isObject(target) ? Object.assign({}, target) : {};
    for (const key of Object.keys(patch)) {
      if (patch[key] === null) delete out[key];
      else out[key] = mergePatch(out[key], patch[key]);
    }
    return out;
  }

  function rowsOf(doc) {
    if (!isObject(doc)) return {};
    return isObject(doc.rows) ? doc.rows : doc;
  }

  /* Keys of the rows (``doc.rows``, or the top-level keys of a document without rows) that differ. */
  function changedKeys(before, after) {
    const a = rowsOf(before);
    const b = rowsOf(after);
    const keys = [];
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (a[key] !== b[key] && JSON.stringify(a[key]) !== JSON.stringify(b[key])) keys.push(key);
    }
    return keys;
  }

  /* Milliseconds before retry number ``attempt`` (0 first): 0.25 s plus a uniformly random share of
   * min(6 s * 2^attempt, 20 s). */
  function retryDelay(attempt) {
    const span = Math.min(FIRST_WINDOW_MS * 2 ** attempt, MAX_WINDOW_MS);
    return MIN_DELAY_MS + Math.floor(global.Backglass.random() * span);
  }

  class Live {
    constructor(tournament, handlers) {
      handlers = handlers || {};
      this.tournament = tournament;
      this.onchange = handlers.onchange || function () {};
      this.onstatus = handlers.onstatus || function () {};
      this.onerror = handlers.onerror || function () {};
      this.query = handlers.query || {}; // more of the socket's query (a display's name, ws.py)
      this.views = {};
      this.version = null; // null until the first snapshot
      this.connected = false;
      this.lastMessageAt = null; // Date.now() of the last message of any kind
      this.ws = null;
      this.socketSince = 0; // when the current socket was opened or last heard from
      this.attempt = 0;
      this.retryTimer = null;
      this.statusTimer = null;
      this.behindPings = 0;
      this.connections = 0;
      this.storeDown = false;
    }

    start() {
      if (this.statusTimer === null) {
        this.statusTimer = setInterval(() => this.tick(), 1000);
        // a phone waking up or back on the Wi-Fi need not wait out the backoff or the watchdog
        global.addEventListener("online", () => this.wake());
        global.document.addEventListener("visibilitychange", () => {
          if (!global.document.hidden) this.wake();
        });
      }
      this.connect();
      return this;
    }

    /* Reconnect now if the link is down or has missed a ping (a sleeping phone's socket is dead). */
    wake() {
      const quiet = Date.now() - this.socketSince > PING_GRACE_MS;
      if (this.ws === null || quiet) {
        this.attempt = 0;
        this.reconnect(true);
      }
    }

    url() {
      const scheme = global.location.protocol === "https:" ? "wss:" : "ws:";
      const path = "/ws/" + encodeURIComponent(this.tournament);
      const query = new URLSearchParams(this.query);
      if (this.version !== null) query.set("since", this.version);
      const text = query.toString();
      return scheme + "//" + global.location.host + path + (text ? "?" + text : "");
    }

    connect() {
      clearTimeout(this.retryTimer);
      this.retryTimer = null;
      const ws = new WebSocket(this.url());
      this.ws = ws;
      this.socketSince = Date.now();
      this.connections += 1;
      ws.onmessage = (event) => {
        if (this.ws === ws) this.receive(event.data);
      };
      ws.onclose = () => {
        if (this.ws === ws) this.reconnect(false);
      };
    }

    /* Drop the socket and connect again: at once after a version gap (``soon``), else with backoff. */
    reconnect(soon) {
      const ws = this.ws;
      this.ws = null;
      if (ws !== null) {
        ws.onmessage = ws.onclose = null;
        try {
          ws.close();
        } catch (_) {
          /* already closed */
        }
      }
      this.setConnected(false);
      clearTimeout(this.retryTimer);
      const delay = soon && this.attempt === 0 ? 0 : retryDelay(this.attempt);
      this.attempt += 1;
      this.retryTimer = setTimeout(() => this.connect(), delay);
    }

    receive(text) {
      let message;
      try {
        message = JSON.parse(text);
      } catch (_) {
        return;
      }
      if (message.type === "error") {
        this.onerror(message.message);
        return; // the server closes next; backoff is not reset
      }
      this.lastMessageAt = this.socketSince = Date.now();
      if (message.type === "starting") {
        // the server is up but still reading its logs: say how far instead of "connecting"
        starting = { done: message.done || 0, total: message.total || 0 };
        this.setConnected(false);
        return;
      }
      starting = null;
      if (message.type === "snapshot") {
        this.attempt = 0;
        this.applySnapshot(message);
      } else if (message.type === "patch") {
        if (this.version === null || message.base !== this.version) {
          this.reconnect(true); // a gap: resume from our version
          return;
        }
        this.attempt = 0;
        this.applyPatch(message);
      } else if (message.type === "ping") {
        // "store": "down" while the server cannot reach its score store: not live, though the
        // socket is fine (docs/protocol.md, "Store outage"); the next ping without it ends that
        this.storeDown = message.store === "down";
        if (this.storeDown && storeDownAt === null) storeDownAt = Date.now();
        if (!this.storeDown) storeDownAt = null;
        if (this.version === null) return;
        this.attempt = 0;
        this.checkPing(message);
      }
      this.setConnected(this.version !== null && this.ws !== null && !this.storeDown);
    }

    applySnapshot(message) {
      const before = this.views;
      const first = this.version === null;
      this.views = message.views || {};
      this.version = message.version;
      const names = [...new Set([...Object.keys(before), ...Object.keys(this.views)])].filter(
        (name) => first || JSON.stringify(before[name]) !== JSON.stringify(this.views[name])
      );
      const rowKeys = {};
      if (!first) {
        for (const name of names) rowKeys[name] = changedKeys(before[name], this.views[name]);
      }
      this.emit(names, rowKeys, before, { snapshot: true, first: first });
    }

    applyPatch(message) {
      const before = this.views;
      const views = Object.assign({}, before);
      const names = [];
      for (const [name, doc] of Object.entries(message.views || {})) {
        views[name] = doc;
        names.push(name);
      }
      for (const [name, patch] of Object.entries(message.patches || {})) {
        if (patch === null) delete views[name];
        else views[name] = mergePatch(views[name] === undefined ? {} : views[name], patch);
        names.push(name);
      }
      this.views = views;
      this.version = message.version;
      const rowKeys = {};
      for (const name of names) rowKeys[name] = changedKeys(before[name], views[name]);
      this.emit(names, rowKeys, before, { snapshot: false, first: false });
    }

    /* A ping says the server's version. Patches are queued before the ping that follows them, so
     * being behind on two pings running means a message was lost: resume from our version. */
    checkPing(message) {
      if (typeof message.version !== "number" || message.version === this.version) {
        this.behindPings = 0;
        return;
      }
      this.behindPings += 1;
      if (this.behindPings >= 2) {
        this.behindPings = 0;
        this.reconnect(true);
      }
    }

    emit(names, rowKeys, before, info) {
      this.behindPings = 0;
      integrityBanner(this.views.integrity, this.version);
      try {
        this.onchange(names, rowKeys, before, info);
      } catch (error) {
        console.error("backglass: onchange failed", error);
      }
    }

    tick() {
      if (this.ws !== null && Date.now() - this.socketSince > SILENCE_MS) {
        this.reconnect(false); // silent for 15 s: the link is dead even if no close came
      }
      this.reportStatus();
    }

    setConnected(connected) {
      if (connected !== this.connected) {
        this.connected = connected;
        this.reportStatus();
      }
    }

    /* Seconds since the last message (null before the first). */
    age() {
      return this.lastMessageAt === null ? null : (Date.now() - this.lastMessageAt) / 1000;
    }

    reportStatus() {
      try {
        this.onstatus(this.connected, this.age());
      } catch (error) {
        console.error("backglass: onstatus failed", error);
      }
    }
  }

  /* The score store lost records (docs/store-loss.md): the ``integrity`` view is present while the
   * TD restores them. A page that still shows more than the store holds (a server that kept its
   * memory) is complete, but nothing new can be recorded. */
  function integrityBanner(mark, version) {
    let node = global.document.getElementById("integrity-banner");
    if (!mark) {
      if (node) node.remove();
      return;
    }
    if (!node) {
      node = global.document.createElement("div");
      node.id = "integrity-banner";
      node.setAttribute("role", "alert");
      node.style.cssText =
        "position:sticky;top:0;z-index:1000;padding:0.6em 1em;background:#b00020;color:#fff;" +
        "font-weight:600;text-align:center";
      global.document.body.prepend(node);
    }
    const text =
      typeof version === "number" && version > mark.have
        ? "Scores cannot be recorded right now — the score store lost records; the TD is restoring them"
        : "Standings incomplete — the score store lost records; the TD is restoring them";
    if (node.textContent !== text) node.textContent = text;
  }

  /* ---- helpers shared by the pages ---- */

  /* 12345670 -> "12,345,670"; exact for every score up to 2^53-1. */
  function score(value) {
    if (value === undefined || value === null || value === "") return "";
    const digits = String(value);
    return /^\d+$/.test(digits) ? digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",") : digits;
  }

  /* Points as published: whole numbers plain, shared points with up to 2 decimals. */
  function points(value) {
    if (value === undefined || value === null) return "";
    return Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100);
  }

  function byNumber(a, b) {
    const na = Number(a);
    const nb = Number(b);
    if (Number.isFinite(na) && Number.isFinite(nb) && na !== nb) return na - nb;
    return a < b ? -1 : a > b ? 1 : 0;
  }

  function hasPlace(row) {
    return typeof row.place === "number";
  }

  /* A machine's rows, best first: ranked rows by place, then rows without a place (UKPL guests)
   * by score. Each item is [player, row]. */
  function machineRows(doc) {
    const rows = Object.entries((doc && doc.rows) || {});
    return rows.sort(([pa, a], [pb, b]) => {
      if (hasPlace(a) !== hasPlace(b)) return hasPlace(a) ? -1 : 1;
      if (hasPlace(a) && a.place !== b.place) return a.place - b.place;
      if ((b.score || 0) !== (a.score || 0)) return (b.score || 0) - (a.score || 0);
      return byNumber(pa, pb);
    });
  }

  /* Standings rows, best first: by place, then unranked rows by total, then by player number. */
  function standingRows(doc) {
    const rows = Object.entries((doc && doc.rows) || {});
    return rows.sort(([pa, a], [pb, b]) => {
      if (hasPlace(a) !== hasPlace(b)) return hasPlace(a) ? -1 : 1;
      if (hasPlace(a) && a.place !== b.place) return a.place - b.place;
      if ((b.total || 0) !== (a.total || 0)) return (b.total || 0) - (a.total || 0);
      return byNumber(pa, pb);
    });
  }

  /* "3" or "3=" when another row shares the place. */
  function placeLabels(sortedRows) {
    const counts = new Map();
    for (const [, row] of sortedRows) {
      if (hasPlace(row)) counts.set(row.place, (counts.get(row.place) || 0) + 1);
    }
    return (row) => (hasPlace(row) ? row.place + (counts.get(row.place) > 1 ? "=" : "") : "");
  }

  function machineList(views) {
    return Object.entries(views.machines || {}).sort(
      ([ia, a], [ib, b]) => (a.order || 0) - (b.order || 0) || byNumber(ia, ib)
    );
  }

  /* A UKPL meeting's field from its tournament view ({players, guests}, UKPL 1C, 3C):
     "4 players + 1 guest", or "" for a tournament without one. */
  function fieldText(views) {
    const field = (views.tournament || {}).field;
    if (!field) return "";
    const plural = (n, word) => n + " " + word + (n === 1 ? "" : "s");
    const text = plural(field.players || 0, "player");
    return field.guests ? text + " + " + plural(field.guests, "guest") : text;
  }

  /* The header's field note (#field-note, when the page has one): fieldText, hidden when "". */
  function showField(views) {
    const note = document.getElementById("field-note");
    if (!note) return;
    const text = fieldText(views);
    note.hidden = !text;
    note.textContent = text ? " · " + text : "";
  }

  function player(views, number) {
    const found = (views.players || {})[number];
    return found || { name: "Player " + number, guest: false };
  }

  /* el("div", {class: "row", dataset: {key: 1}}, "text", child, ...) */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "dataset") Object.assign(node.dataset, value);
      else if (key === "style") node.style.cssText = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === undefined || child === null || child === false) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  /* The status corner: "live", "connecting…", "offline — data 42 s old", or, while the server says
   * its score store is down, "reconnecting — data 42 s old" (counted from the outage), or while
   * it catches up after a start, "server starting — 42 % caught up". */
  function showStatus(node, connected, age) {
    if (!node) return;
    let state;
    let text;
    if (connected) {
      state = "live";
      text = "live";
    } else if (starting !== null) {
      state = "starting";
      const percent = starting.total ? Math.floor((100 * starting.done) / starting.total) : 0;
      text = "server starting — " + Math.min(percent, 100) + " % caught up";
    } else if (age === null) {
      state = "connecting";
      text = "connecting…";
    } else if (storeDownAt !== null) {
      state = "reconnecting";
      text = "reconnecting — data " + Math.floor(Math.max(age, (Date.now() - storeDownAt) / 1000)) + " s old";
    } else {
      state = "offline";
      text = "offline — data " + Math.floor(age) + " s old";
    }
    node.dataset.state = state;
    const label = node.querySelector(".status-text");
    if (label && label.textContent !== text) label.textContent = text;
  }

  /* Sign out on the server too (DELETE /api/session): the token stops working at once, not only
   * in this browser. Best effort; the page forgets the token either way. */
  function endSession(token) {
    if (!token) return;
    const headers = { Authorization: "Bearer " + token, "Idempotency-Key": "sign-out-" + Date.now() + "-" + Math.random().toString(36).slice(2) };
    fetch("/api/session", { method: "DELETE", headers: headers, keepalive: true }).catch(() => {});
  }

  // what a page says before it resends a write whose outcome is unknown (docs/redis.md, "Outcome unknown")
  const MAY_BE_RECORDED = "This may already be recorded — the server could not confirm it. Sending it again with the same key, so it counts once";
  const RESEND_TRIES = 8;

  /* Whether an answer leaves a write's outcome unknown: no answer (``res`` null), a 500/502/504,
   * or a 503 ``outcome_unknown`` (Redis hung or lost mid-command). A 503 ``store_unavailable`` is
   * certain: nothing was recorded. */
  function outcomeUnknown(res, data) {
    if (!res) return true;
    if (res.status === 503) return Boolean(data && data.error === "outcome_unknown");
    return res.status === 500 || res.status === 502 || res.status === 504;
  }

  /* A write recorded at most once: ``init`` (fetch's, carrying an Idempotency-Key header) is sent
   * again, unchanged, while its outcome is unknown (``outcomeUnknown``), up to RESEND_TRIES times;
   * ``onResend(text)`` is told before each resend, the text saying it may already be recorded and
   * is sent again with the same key. Resolves {res, data, unknown}: the final answer (``res`` null
   * when none came, ``data`` its JSON or {}), ``unknown`` whether it still leaves the outcome open. */
  async function writeOnce(path, init, onResend) {
    let res = null;
    let data = {};
    for (let attempt = 1; ; attempt++) {
      try {
        res = await fetch(path, init);
        data = await res.json().catch(() => ({}));
      } catch (_) {
        res = null;
        data = {};
      }
      const unknown = outcomeUnknown(res, data);
      if (!unknown || attempt >= RESEND_TRIES) return { res: res, data: data, unknown: unknown };
      if (onResend) onResend(MAY_BE_RECORDED + " (try " + (attempt + 1) + ")…");
      await new Promise((resolve) => setTimeout(resolve, Math.min(500 * 2 ** (attempt - 1), 4000)));
    }
  }

  /* A fresh Idempotency-Key (crypto.randomUUID needs a secure context; a plain-HTTP LAN has only
   * getRandomValues). */
  function newKey() {
    if (global.crypto && typeof global.crypto.randomUUID === "function") return global.crypto.randomUUID();
    const bytes = new Uint8Array(16);
    global.crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function pageConfig() {
    const node = document.getElementById("page-config");
    return node ? JSON.parse(node.textContent) : {};
  }

  /* An ISO time as the venue reads it, with its zone: "01:10 GMT", "01:30 BST" (the page config's
   * time_zone, display/http/venue_time.py; the phone's own zone without one). ``options``:
   * {seconds, weekday, date, zone}: ``zone`` an IANA name over the page's (a page of several
   * tournaments). "" for no time. */
  function time(iso, options) {
    const when = new Date(iso || "");
    if (!iso || isNaN(when.getTime())) return "";
    const o = options || {};
    const zone = o.zone || pageConfig().time_zone;
    const parts = { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" };
    if (o.seconds) parts.second = "2-digit";
    if (o.weekday) parts.weekday = "short";
    if (o.date) Object.assign(parts, { day: "numeric", month: "short" });
    try {
      return new Intl.DateTimeFormat("en-GB", zone ? Object.assign(parts, { timeZone: zone }) : parts).format(when);
    } catch (_) {
      return new Intl.DateTimeFormat("en-GB", Object.assign(parts, { timeZone: undefined })).format(when);
    }
  }

  /* A row-flash tracker for views drawn outside display.js's own highlighting (plugin views that
   * also draw on phones): flash(key, signature) -> {cls, style, left} while the row's signature
   * changed less than `ms` ago (nothing the first time a key is seen); settle(node, f) removes the
   * class when the flash ends, since a page only redraws on changes. */
  function rowFlash(ms) {
    const seen = new Map(); // row key -> {sig, at}
    function flash(key, sig) {
      const now = Date.now();
      const last = seen.get(key);
      if (!last) {
        seen.set(key, { sig: sig, at: 0 });
        return {};
      }
      if (last.sig !== sig) seen.set(key, { sig: sig, at: now });
      const at = seen.get(key).at;
      if (!at || now - at >= ms) return {};
      return { cls: " flash", style: "--flash-delay: -" + (now - at) + "ms; animation-delay: -" + (now - at) + "ms", left: ms - (now - at) };
    }
    function settle(node, f) {
      if (f.left) setTimeout(() => node.classList.remove("flash"), f.left);
      return node;
    }
    return { flash: flash, settle: settle };
  }

  global.Backglass = {
    Live: Live,
    random: Math.random,
    retryDelay: retryDelay,
    mergePatch: mergePatch,
    changedKeys: changedKeys,
    fmt: { score: score, points: points, time: time },
    machineRows: machineRows,
    standingRows: standingRows,
    placeLabels: placeLabels,
    machineList: machineList,
    fieldText: fieldText,
    showField: showField,
    player: player,
    byNumber: byNumber,
    el: el,
    showStatus: showStatus,
    pageConfig: pageConfig,
    endSession: endSession,
    writeOnce: writeOnce,
    outcomeUnknown: outcomeUnknown,
    newKey: newKey,
    rowFlash: rowFlash,
    displayViews: {}, // display views that plug in from static/competitions/<competition>/views/<name>.js
  };
})(window);
