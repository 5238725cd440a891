/* Queues on the hall display: every machine with who is playing, how many wait and the estimated
 * wait for a player joining now (the "queues" view, display/competitions/machines/views.py). The EPC rules warn
 * that a popular machine "may result in long waits"; this board shows where they are.
 *
 * Also shared with the queue page (static/queue.js): Backglass.queues = {doc, wait, waitText,
 * upText, playerQueue}. Estimates come from the server (median of recent games on the machine);
 * the time the player up has already played is taken off, read from the device's clock and
 * clamped to one game, so a wrong clock cannot make it worse than the server's figure. */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;

  // competitions/machines/views.css repeats these sizes (.qgrid, .qtile, .qtile-body, .qtile-next): change both
  const TILE_EM = { width: 16, height: 7.4, max: 13, gap: 0.7 };
  const HEAD_EM = 1.55;
  const NOW_EM = 1.5;
  const BODY_EM = 0.82;
  const LINE_EM = 1.3;

  function doc(views, machine) {
    return ((views && views.queues) || {})[machine] || null;
  }

  /* Seconds the player up has played (0 when only called), clamped to one game. */
  function played(queue) {
    if (!queue || !queue.up || queue.up.state !== "playing") return 0;
    const since = Date.parse(queue.up.since);
    if (!Number.isFinite(since)) return 0;
    return Math.min(Math.max((Date.now() - since) / 1000, 0), queue.game || 0);
  }

  /* Estimated seconds: for a waiting ``player``, until they are called; with no player, for one
   * joining now. null when there is no estimate (machine not in service, player paused). */
  function wait(queue, player) {
    if (!queue) return null;
    const raw = player === undefined ? queue.wait : ((queue.waiting || {})[player] || {}).wait;
    if (typeof raw !== "number") return null;
    return Math.max(raw - (queue.up ? played(queue) : 0), 0);
  }

  function waitText(seconds) {
    if (seconds === null || seconds === undefined) return "—";
    if (seconds < 60) return "no wait";
    const minutes = Math.round(seconds / 60);
    if (minutes < 90) return "~" + minutes + " min";
    return "~" + Math.floor(minutes / 60) + " h " + String(minutes % 60).padStart(2, "0");
  }

  function upText(queue) {
    if (!queue || !queue.up) return "";
    return queue.up.state === "playing" ? "playing" : "called";
  }

  const STATUS = { out_of_order: "Out of order", closed: "Closed", replaced: "Replaced" };

  /* Where ``player`` is: {machine, up: true} or {machine, pos, paused, wait}, else null. */
  function playerQueue(views, player) {
    for (const [machine, queue] of Object.entries(views.queues || {})) {
      if (queue.up && queue.up.player === player) return { machine: machine, up: true, queue: queue };
      const spot = (queue.waiting || {})[player];
      if (spot) {
        return { machine: machine, pos: spot.pos, paused: Boolean(spot.paused), wait: wait(queue, player), queue: queue };
      }
    }
    return null;
  }

  function ordered(queue) {
    return Object.entries((queue && queue.waiting) || {}).sort(([, a], [, b]) => a.pos - b.pos);
  }

  B.queues = { doc: doc, wait: wait, waitText: waitText, upText: upText, playerQueue: playerQueue, ordered: ordered, STATUS: STATUS };

  /* ---------- the display view ---------- */

  function machines(views, ctx) {
    const wanted = ctx.config.machines ? new Set(ctx.config.machines) : null;
    return B.machineList(views).filter(([id]) => (wanted === null || wanted.has(id)) && doc(views, id));
  }

  /* Tiles per page from the stage's size: as many rows and columns as fit; the rows a page needs
   * share the height (up to TILE_EM.max), and each tile lists as many waiting players as fit. */
  function layout(count, columns) {
    const stage = document.getElementById("stage");
    const font = stage ? parseFloat(getComputedStyle(stage).fontSize) || 16 : 16;
    const height = stage ? stage.clientHeight : 640;
    const gap = TILE_EM.gap * font;
    const fit = Math.max(1, Math.floor((height + gap) / (TILE_EM.height * font + gap)));
    const rows = Math.min(fit, Math.max(1, Math.ceil(count / columns)));
    const tile = Math.min((height - (rows - 1) * gap) / rows, TILE_EM.max * font);
    const body = tile / font - HEAD_EM - NOW_EM - 0.5;
    const lines = Math.max(1, Math.floor(body / (BODY_EM * LINE_EM)));
    return { columns: columns, perPage: columns * fit, tile: Math.floor(tile), lines: lines };
  }

  /* The "now" row flashes when a new player is called or starts (display.js rowKeys hook). */
  function flashing(ctx, id, klass) {
    const f = ctx && ctx.flash ? ctx.flash("queues", id) : {};
    return { class: klass + (f.flash ? " flash" : ""), style: f.style };
  }

  function personNode(views, number) {
    const who = B.player(views, number);
    return el("span", { class: "who" }, el("span", { class: "name" }, who.name), el("span", { class: "number" }, number));
  }

  function tile(views, id, machine, lines, ctx) {
    const queue = doc(views, id);
    const status = queue.status;
    const seconds = wait(queue);
    const waiting = ordered(queue).filter(([, w]) => !w.paused);
    const next = waiting.slice(0, (queue.count || 0) > lines ? lines - 1 : lines);
    const busy = seconds !== null && seconds >= 2 * (queue.game || 1);
    const klass = "qtile" + (status ? " down" : "") + (status === "closed" || status === "replaced" ? " gone" : "") +
      (!status && busy ? " busy" : "") + (!status && seconds !== null && seconds < 60 ? " quiet" : "");
    const now = queue.up
      ? [el("span", { class: "qtile-label state " + upText(queue) }, upText(queue)), personNode(views, queue.up.player)]
      : [el("span", { class: "qtile-label" }, "now"), el("span", { class: "qtile-free" }, status ? "" : "free")];
    const body = next.map(([number], i) =>
      el("div", { class: "qtile-next" }, el("span", { class: "pos" }, i + 1), personNode(views, number))
    );
    if (body.length === 0) body.push(el("div", { class: "qtile-next qtile-free" }, status ? queue.note || "" : "nobody waiting"));
    const more = (queue.count || 0) - next.length;
    if (more > 0 && next.length) body.push(el("div", { class: "qtile-next qtile-more" }, "+" + more + " more"));
    const waitNode = el(
      "div",
      { class: "qtile-wait" },
      status ? "—" : waitText(seconds),
      el("small", {}, status ? STATUS[status] : "wait to join")
    );
    return el(
      "section",
      { class: klass, dataset: { machine: id } },
      el(
        "header",
        { class: "qtile-head" },
        el("span", { class: "qtile-name" }, machine.name || id),
        status
          ? el("span", { class: "qtile-status" }, STATUS[status])
          : el("span", { class: "qtile-count" }, queue.count || 0, el("small", {}, "waiting"))
      ),
      el("div", flashing(ctx, id, "qtile-now"), now),
      el("div", { class: "qtile-body" }, el("div", { class: "qtile-list" }, body), waitNode)
    );
  }

  B.displayViews.queues = {
    title: "Queues",
    pages(views, ctx) {
      if (!views.queues) return [];
      const list = machines(views, ctx);
      if (list.length === 0) return [];
      // as many tiles across as fit, fewer where a waiting name would not fit whole (display.js)
      const across = ctx.columns ? ctx.columns(TILE_EM.width) : 1;
      const { perPage } = layout(list.length, across);
      const pages = [];
      for (let at = 0; at < list.length; at += perPage) {
        const ids = list.slice(at, at + perPage).map(([id]) => id);
        pages.push({ key: String(pages.length), ids: ids, ...layout(ids.length, across), count: 1, across: across });
      }
      return pages;
    },
    render(page, views, ctx) {
      const known = views.machines || {};
      const tiles = page.ids.filter((id) => doc(views, id)).map((id) => tile(views, id, known[id] || {}, page.lines, ctx));
      return el("div", { class: "qgrid", style: "--cols: " + page.columns + "; --tile-h: " + page.tile + "px" }, tiles);
    },
    rowKeys(views) {
      const out = {};
      for (const [id, queue] of Object.entries(views.queues || {})) {
        out[id] = queue.up ? queue.up.player + ":" + queue.up.state : "";
      }
      return out;
    },
  };
})();
