/* The hall display: rotates through machine tables, standings and a machines-now view, paged to
 * fit the screen. URL: /t/{tid}/display?views=machines,standings,queue&seconds=12&rows=N&machines=1,2
 *
 * More views plug in from static/competitions/<competition>/views/<name>.js (loaded before this file, one per view name):
 *   Backglass.displayViews["<name>"] = {
 *     title: "Queues",                         // shown in the header
 *     pages(views, ctx) -> [{key, ...}],       // one entry per screen page (key unique, stable)
 *     render(page, views, ctx) -> Node,        // draws one page
 *     rowKeys(views) -> {rowKey: signature},   // optional: a row whose signature changes flashes
 *   };
 * ctx = {config, el: Backglass.el, B: Backglass, flash(view, rowKey) -> {flash, style}}: give a
 * row class "flash" and the style while flash is true (the phase survives redraws).
 * A page's ``count`` is the number of columns the board's grid gives it; a view that lays out its
 * own grid inside one says how many columns it has as ``across``. Views that take their columns
 * from ctx.columns(em) get fewer where a name would not fit whole (fitNames). ctx.fitRows(build)
 * and ctx.packColumns(items, column, across) measure how many rows the stage holds at the
 * reading distance's font, so a view laid out by them gets fewer rows a page when read from afar.
 *
 * Pages are laid out in columns measured from the screen itself (so 1920×1080 and 1280×720 give
 * the same picture, only scaled). A row that changed is highlighted for FLASH_MS once it is on
 * screen: a change on a page not showing is highlighted when that page comes round.
 *
 * ?profile=<name> takes the views, seconds per page, theme and QR code from the TD's display
 * profile of that name (the live `profiles` view, display/live/shared.py) and follows its changes
 * live; without it, or while the profile does not exist, the URL's own settings hold. ?qr=0 hides
 * the players' page QR code under the stage.
 *
 * Each display has a name: ?name=<name>, else one it makes up once and keeps in localStorage. It
 * gives it (and the views or profile its URL asked for) to the server when it connects, so the TD's
 * desk lists it; what the desk sets for that name (the live `displays` view: a profile to follow,
 * or views of its own) overrides the URL until the desk gives the display back to it.
 *
 * Reading distance (docs/display.md): ?distance=<metres>&diagonal=<inches> (or the profile's) say
 * where the players stand and how big the screen is; the board's font is set so that its smallest
 * text is at least MIN_ARC_MINUTES high at that distance (a common guideline for display text),
 * and the packers then fit fewer columns and rows per page. Nothing on the board is smaller than
 * SMALLEST_EM of the board's font (display.css).
 *
 * A board that is not live says so from across the hall: STALE_AFTER_MS after the link dropped (or
 * the server said its score store is down), or when nothing at all came for SILENT_MS (pings come
 * every 5 s), the board dims (#display[data-stale]) and a banner gives the age of what it shows;
 * both go when it is live again. Dimmed colours keep WCAG AA contrast (4.5:1).
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;
  const plugins = B.displayViews || {};
  const config = B.pageConfig();

  const FLASH_MS = 3000;
  const MIN_ARC_MINUTES = 16;
  const SMALLEST_EM = 0.8; // the smallest text in display.css, in the board's em
  const QR_SCAN_WIDTHS = 10; // a phone scans a QR code from about ten code widths (issue 12)
  const QR_ROOM = 0.34; // the most of the screen's width (upright: height) the code may take
  const DEFAULT_READING = { distance: 3, diagonal: 55 }; // docs/display.md: a typical hall
  const STALE_AFTER_MS = 2000;
  const SILENT_MS = 8000;
  const FLASH_WINDOW_MS = 5 * 60 * 1000; // forget a change never shown after this long
  const COLUMN_EM = { machines: 20, standings: 28, queue: 15, movers: 28 };
  const TITLES = { machines: "Machines", standings: "Standings", queue: "Machines now", movers: "Movers" };

  const params = new URLSearchParams(window.location.search);
  const profileName = params.get("profile");
  const fromUrl = {
    views: config.views.slice(),
    seconds: config.seconds,
    theme: "dark",
    qr: params.get("qr") !== "0",
    distance: within(params.get("distance"), 0.5, 50, DEFAULT_READING.distance),
    diagonal: within(params.get("diagonal"), 10, 400, DEFAULT_READING.diagonal),
  };
  const DISPLAY_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/; // display/live/shared.py NAME
  const KEPT_NAME = "backglass.display.name";
  const displayName = nameOfDisplay();
  let profileKey = null; // the profile as last applied, to tell a change
  let lastReading = null; // the distance and diagonal as last applied

  const stage = document.getElementById("stage");
  const viewTitle = document.getElementById("view-title");
  const pageNumber = document.getElementById("page-number");
  const progress = document.getElementById("progress-bar");
  const statusNode = document.getElementById("status");
  const board = document.getElementById("display");
  const staleBanner = document.getElementById("stale-banner");
  let liveAt = null; // Date.now() when the board was last known live
  let lostAt = null; // Date.now() when it stopped being live

  const state = {
    pages: [],
    index: 0,
    timer: null,
    recent: new Map(), // row key -> {at, shown}: changes to highlight
    moversBase: null, // player -> place when the rotation last started over (the movers view)
    unflash: null,
    flashEnds: Infinity,
    measuring: false,
    narrower: {}, // view -> columns taken off so that every name fits (fitNames)
  };
  let live = null;

  /* This display's name: the URL's, else the one it keeps in the browser, else a new one kept. */
  function nameOfDisplay() {
    const given = params.get("name");
    if (given && DISPLAY_NAME.test(given)) return given;
    let kept = null;
    try {
      kept = window.localStorage.getItem(KEPT_NAME);
    } catch (e) {
      kept = null; // storage off (a private window): a new name each load
    }
    if (kept && DISPLAY_NAME.test(kept)) return kept;
    const made = "display-" + Math.random().toString(36).slice(2, 6).padEnd(4, "0");
    try {
      window.localStorage.setItem(KEPT_NAME, made);
    } catch (e) {
      /* not kept: fine for this load */
    }
    return made;
  }

  /* A number from the URL or a profile within [low, high], else ``fallback``. */
  function within(value, low, high, fallback) {
    const n = Number(value);
    return value !== null && value !== undefined && value !== "" && n >= low && n <= high ? n : fallback;
  }

  /* ---------- reading distance ---------- */

  /* CSS px per metre of a ``diagonal``-inch screen showing this viewport full screen (its
   * diagonal and the viewport's aspect ratio give its height in metres). */
  function pxPerMetre(diagonal) {
    const aspect = window.innerWidth / window.innerHeight;
    return window.innerHeight / ((diagonal * 0.0254) / Math.sqrt(1 + aspect * aspect));
  }

  /* CSS px of the smallest text a player must read ``distance`` metres from a ``diagonal``-inch
   * screen showing this viewport full screen: 16 arcminutes is 2·d·tan(8′) metres of the screen. */
  function minTextPx(distance, diagonal) {
    const textM = 2 * distance * Math.tan(((MIN_ARC_MINUTES / 2 / 60) * Math.PI) / 180);
    return textM * pxPerMetre(diagonal);
  }

  /* Set the board's font from the reading distance: never below the board as designed (2.6 % of
   * the height of a 16:9 screen; a narrower one, as a phone held upright, is taken as the 16:9
   * screen its width gives, so the columns fit its width), larger when the distance needs it. */
  function applyReadingSize(chosen) {
    const minimum = minTextPx(chosen.distance, chosen.diagonal);
    const designed = 0.026 * Math.min(window.innerHeight, (window.innerWidth * 9) / 16);
    const font = Math.max(designed, minimum / SMALLEST_EM);
    board.style.fontSize = font.toFixed(2) + "px";
    board.style.setProperty("--design-font", designed.toFixed(2) + "px");
    board.style.setProperty("--min-text", minimum.toFixed(2) + "px");
    board.dataset.minText = minimum.toFixed(2);
    board.toggleAttribute("data-far", font > designed * 1.05); // the header keeps what players read
    board.dataset.distance = String(chosen.distance);
    board.dataset.diagonal = String(chosen.diagonal);
    sizeQr(chosen);
    fitQrText();
  }

  /* The QR code sized for the reading distance (issue 12: a phone scans a code from about
   * QR_SCAN_WIDTHS code widths away, so from ``distance`` metres it must be distance/10 m wide).
   * Beside the stage on a landscape screen, under it on an upright one. Where that size does not
   * fit (more than QR_ROOM of the screen), the code is not shrunk below it: the players' page's
   * address is shown in the board's own text instead (#qr-corner[data-fit="url"]). */
  function sizeQr(chosen) {
    const corner = document.getElementById("qr-corner");
    const need = (chosen.distance / QR_SCAN_WIDTHS) * pxPerMetre(chosen.diagonal);
    const size = Math.max(need, 0.1 * window.innerHeight); // 10vh: the board as designed
    const upright = window.innerHeight > window.innerWidth;
    const room = upright
      ? Math.min(0.9 * window.innerWidth, QR_ROOM * window.innerHeight)
      : Math.min(QR_ROOM * window.innerWidth, 0.7 * window.innerHeight);
    board.style.setProperty("--qr-size", size.toFixed(1) + "px");
    corner.dataset.need = need.toFixed(1);
    corner.dataset.fit = size <= room ? "code" : "url";
    board.dataset.qr = corner.hidden ? "off" : corner.dataset.fit;
  }

  /* The QR code's caption at the reading size, or left out where it would not fit whole. */
  function fitQrText() {
    const text = document.querySelector(".qr-text");
    if (!text) return;
    text.classList.remove("too-long", "wrapped");
    // The lines are right-aligned, so one too long spills out on the left, where scrollWidth does
    // not count it: measure each line against the box.
    const tooWide = () => [...text.children].some((line) => line.offsetWidth > text.clientWidth + 1);
    const foot = text.parentElement;
    const tooTall = () => text.offsetHeight > foot.clientHeight + 1 || foot.scrollHeight > foot.clientHeight + 1;
    if (tooWide()) text.classList.add("wrapped"); // a narrow screen: the lines wrap first
    if (tooWide() || tooTall()) text.classList.add("too-long");
  }

  /* ---------- what to show ---------- */

  function views() {
    return live ? live.views : {};
  }

  function format() {
    return (views().tournament || {}).format || "";
  }

  function settings() {
    return (views().tournament || {}).settings || {};
  }

  function machines() {
    const wanted = config.machines ? new Set(config.machines) : null;
    return B.machineList(views()).filter(([id]) => wanted === null || wanted.has(id));
  }

  function hasLeague(rows) {
    return format().startsWith("ukpl") || rows.some(([, row]) => "league_points" in row);
  }

  /* ---------- highlights ---------- */

  function noteChange(key) {
    state.recent.set(key, { at: Date.now(), shown: null });
  }

  /* The class and style that make a row flash, or nothing. Starts the clock the first time the
   * row is drawn, and keeps the animation's phase across redraws. */
  function flash(key) {
    const entry = state.recent.get(key);
    if (!entry || state.measuring) return {};
    const now = Date.now();
    if (entry.shown === null) entry.shown = now;
    const elapsed = now - entry.shown;
    if (elapsed >= FLASH_MS) {
      state.recent.delete(key);
      return {};
    }
    state.flashEnds = Math.min(state.flashEnds, entry.shown + FLASH_MS);
    // the custom property reaches every descendant's flash-text (animation-delay: inherit only
    // reached direct children, so a nested name restarted its dark phase on the faded row)
    return { flash: true, style: "--flash-delay: -" + elapsed + "ms; animation-delay: -" + elapsed + "ms" };
  }

  function forgetOld() {
    const now = Date.now();
    for (const [key, entry] of state.recent) {
      if (entry.shown === null ? now - entry.at > FLASH_WINDOW_MS : now - entry.shown > FLASH_MS) {
        state.recent.delete(key);
      }
    }
  }

  function noteChanges(names, rowKeys, before) {
    const now = views();
    for (const name of names) {
      const keys = rowKeys[name] || [];
      if (name.startsWith("machine/")) {
        const id = name.slice("machine/".length);
        const old = (before[name] || {}).rows || {};
        const rows = (now[name] || {}).rows || {};
        for (const key of keys) {
          if (rows[key] && (!old[key] || old[key].score !== rows[key].score)) {
            noteChange("m:" + id + ":" + key);
          }
        }
        const latestBefore = JSON.stringify((before[name] || {}).latest);
        if (latestBefore !== JSON.stringify((now[name] || {}).latest)) noteChange("q:" + id);
      } else if (name === "queues") {
        const was = before[name] || {};
        const is = now[name] || {};
        for (const id of Object.keys(is)) {
          if (JSON.stringify((was[id] || {}).up) !== JSON.stringify(is[id].up)) noteChange("q:" + id);
        }
      } else if (name === "standings") {
        const old = (before[name] || {}).rows || {};
        const rows = (now[name] || {}).rows || {};
        for (const key of keys) {
          const a = old[key];
          const b = rows[key];
          // the player who scored: played more, or a better total (a joker game)
          if (b && (!a || a.played !== b.played || (b.total || 0) > (a.total || 0))) {
            noteChange("s:" + key);
          }
        }
      }
    }
  }

  /* ---------- measuring and paging ---------- */

  function columnsFor(view) {
    return narrowed(view, columnsOf(COLUMN_EM[view]));
  }

  /* ``columns`` less those taken off ``view`` so its names fit, never fewer than one. */
  function narrowed(view, columns) {
    return Math.max(1, columns - (state.narrower[view] || 0));
  }

  /* The gap between the board's grid columns in px (display.css .columns: 0.9em). */
  function columnGap() {
    return (parseFloat(getComputedStyle(stage).fontSize) || 16) * 0.9;
  }

  function columnsOf(em) {
    const font = parseFloat(getComputedStyle(stage).fontSize) || 16;
    const gap = columnGap();
    return Math.max(1, Math.floor((stage.clientWidth + gap) / (em * font + gap)));
  }

  /* The width in px of one of ``across`` columns of the board's grid. */
  function columnWidth(across) {
    return (stage.clientWidth - columnGap() * (across - 1)) / across;
  }

  /* Rows of a plugin's column that fit the stage: build(n) -> a column node with n rows; drawn
   * as wide as one of ``across`` columns of the board's grid when given (a head that wraps when
   * narrow is measured so), else at the probe's width. */
  function fitRows(build, across) {
    const one = probe(() => build(1), across);
    const two = probe(() => build(2), across);
    // fractional heights: whole pixels (offsetHeight) erred by a pixel a row, a row's bottom
    // then a few pixels under the stage's after a page of rows at a far reading distance
    const height = (node) => node.getBoundingClientRect().height;
    const rowH = height(two) - height(one);
    const baseH = height(one) - rowH;
    one.remove();
    two.remove();
    if (rowH <= 0.5) return 1;
    return Math.max(1, Math.floor((height(stage) - baseH) / rowH + 0.001));
  }

  function probe(build, across) {
    state.measuring = true;
    try {
      const box = mount(build());
      if (across) box.style.width = columnWidth(across) + "px";
      return box;
    } finally {
      state.measuring = false;
    }
  }

  /* A plugin's tables of rows into columns of the stage's height: items [{key, rows}] in order,
   * column(parts) -> a column node drawing parts [{key, from, to}] (rows from..to of that item;
   * to may pass its last row while measuring: draw rows again). A table that fits the rest of a
   * column stays whole there, else it starts the next column; one longer than a column is split
   * into as few parts as fit, of even length (no player left alone on a page). ``across``:
   * columns a page (their width). -> [[part, ...], ...], a list a column. */
  function packColumns(items, column, across) {
    const columns = [];
    let current = [];
    const room = (item, from) => fitRows((n) => column([...current, { key: item.key, from: from, to: from + n }]), across);
    for (const item of items) {
      const rows = Math.max(1, item.rows);
      let fits = room(item, 0); // each measure draws two probes: one a column as it stands
      // fitRows says 1 also where nothing more fits: below a table, room is more than one row
      if (current.length && !(fits >= rows && fits >= 2)) {
        columns.push(current);
        current = [];
        fits = room(item, 0);
      }
      let from = 0;
      while (from < rows) {
        const left = rows - from;
        const take = fits >= left ? left : Math.ceil(left / Math.ceil(left / fits));
        current.push({ key: item.key, from: from, to: from + take });
        from += take;
        if (from < rows) {
          columns.push(current);
          current = [];
          fits = room(item, from);
        }
      }
    }
    if (current.length) columns.push(current);
    return columns;
  }

  function mount(node) {
    const box = el("div", { class: "probe", "aria-hidden": "true" }, node);
    stage.append(box);
    return box;
  }

  function measureCards() {
    const holder = probe(() =>
      el("div", { class: "column" }, cardNode("", {}, [], 0, 1), cardNode("", {}, [], 0, 3))
    );
    const [one, three] = holder.querySelectorAll(".card");
    const rowH = (three.offsetHeight - one.offsetHeight) / 2;
    const m = {
      rowH: rowH,
      baseH: one.offsetHeight - rowH,
      gap: three.offsetTop - (one.offsetTop + one.offsetHeight),
      height: stage.clientHeight,
    };
    holder.remove();
    return m;
  }

  function measureList(header) {
    const holder = probe(() =>
      el(
        "div",
        { class: "column list" },
        header(),
        el("div", { class: "list-row" }, "x"),
        el("div", { class: "list-row" }, "x"),
        el("div", { class: "divider" }, "x")
      )
    );
    const rows = holder.querySelectorAll(".list-row");
    const divider = holder.querySelector(".divider");
    const m = {
      baseH: rows[0].offsetTop - holder.firstChild.offsetTop,
      rowH: rows[1].offsetTop - rows[0].offsetTop,
      dividerH: divider.offsetHeight + (divider.offsetTop - (rows[1].offsetTop + rows[1].offsetHeight)),
      height: stage.clientHeight,
    };
    holder.remove();
    return m;
  }

  /* Machines into columns: a card that fits stays whole (moving to the next column if need be);
   * one longer than a column is split into parts. */
  function packMachines() {
    const list = machines();
    if (list.length === 0) return [];
    const m = measureCards();
    const columns = columnsFor("machines");
    const maxRows = config.rows || Infinity;
    const fullRows = Math.max(1, Math.min(maxRows, Math.floor((m.height - m.baseH) / m.rowH)));
    const pages = [];
    let page = [[]];
    let used = 0;
    let usedRows = 0;
    const nextColumn = () => {
      if (page.length === columns) {
        pages.push(page);
        page = [[]];
      } else {
        page.push([]);
      }
      used = 0;
      usedRows = 0;
    };
    const room = () => {
      const px = m.height - used - (used ? m.gap : 0) - m.baseH;
      return Math.min(Math.floor(px / m.rowH + 0.01), maxRows - usedRows);
    };
    for (const [id] of list) {
      const total = B.machineRows(views()["machine/" + id]).length;
      let from = 0;
      for (;;) {
        const need = Math.max(total - from, 1);
        const fit = room();
        const place = (to) => {
          page[page.length - 1].push({ id: id, from: from, to: to, total: total });
          used += (used ? m.gap : 0) + m.baseH + Math.max(to - from, 1) * m.rowH;
          usedRows += Math.max(to - from, 1);
        };
        if (fit >= need) {
          place(total);
          break;
        }
        if (used === 0 || (need > fullRows && fit >= 3)) {
          const n = Math.max(fit, 1);
          place(from + n);
          from += n;
        }
        nextColumn();
      }
    }
    if (page.some((column) => column.length)) pages.push(page);
    return pages.map((columns_, n) => ({
      view: "machines",
      key: "machines:" + n,
      columns: columns_.filter((c) => c.length),
      count: columns,
    }));
  }

  /* A list (standings, machines now) into columns of rows; a divider never ends a column. */
  function packList(view, items, header) {
    if (items.length === 0) return [];
    const m = measureList(header);
    const columns = columnsFor(view);
    const maxRows = config.rows || Infinity;
    const pages = [];
    let page = [[]];
    let used = 0;
    let rows = 0;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const height = item.divider ? m.dividerH : m.rowH;
      const nextIsRow = item.divider && i + 1 < items.length;
      const needed = height + (nextIsRow ? m.rowH : 0);
      const full = m.baseH + used + needed > m.height + 0.5 || (!item.divider && rows >= maxRows);
      if (full && used > 0) {
        if (page.length === columns) {
          pages.push(page);
          page = [[]];
        } else {
          page.push([]);
        }
        used = 0;
        rows = 0;
      }
      page[page.length - 1].push(item);
      used += height;
      if (!item.divider) rows += 1;
    }
    pages.push(page);
    return pages.map((columns_, n) => ({ view: view, key: view + ":" + n, columns: columns_, count: columns }));
  }

  function standingItems() {
    const doc = views().standings;
    const rows = B.standingRows(doc);
    const label = B.placeLabels(rows);
    const cut = (views().tournament || {}).cut;
    const items = [];
    let band;
    for (const [number, row] of rows) {
      const rowBand = row.band || null;
      if (cut && rowBand !== band && rowBand) {
        items.push({ divider: true, band: rowBand, text: bandLabel(rowBand, cut, doc.cut_tie) });
      }
      band = rowBand;
      items.push({ number: number, row: row, place: label(row) });
    }
    return items;
  }

  /* tie: the standings' cut_tie (scoring/cut_tie.py), players the line runs through; none of
   * them is shown in the qualifying band until the TD's play-off settles it. */
  /* The EPC main event's close before its quarter-finals (tournament.closed, in_progress: the
   * games started before it, which may still finish), said beside the standings' title. */
  function titleNote(view) {
    const t = views().tournament || {};
    if (view !== "standings" || t.format !== "epc-main" || !t.closed) return "";
    const n = t.in_progress || 0;
    return " · qualifying closed" + (n ? " · " + n + (n === 1 ? " game" : " games") + " in progress" : "");
  }

  function bandLabel(band, cut, tie) {
    const last = tie ? tie.line - tie.places : cut.qualify;
    if (band === "qualified") return "Qualify · " + (last === 1 ? "place 1" : "places 1–" + last);
    if (band === "tie" && tie) {
      const note = tie.note.charAt(0).toUpperCase() + tie.note.slice(1);
      return note + (tie.places === 1 ? " · place " + tie.line : " · places " + (last + 1) + "–" + tie.line);
    }
    if (band === "standby") {
      return "Standby · places " + (cut.qualify + 1) + "–" + (cut.qualify + cut.standby);
    }
    return "Below the cut";
  }

  function buildPages() {
    const pages = [];
    for (const view of config.views) {
      if (view === "machines") pages.push(...packMachines());
      if (view === "standings") pages.push(...packList("standings", standingItems(), standingsHeader));
      if (view === "queue") pages.push(...packTiles());
      if (view === "movers") pages.push(...packMovers());
      if (plugins[view]) {
        for (const page of plugins[view].pages(views(), pluginContext(view))) {
          pages.push({ ...page, view: view, key: view + ":" + page.key, count: page.count || 1 });
        }
      }
    }
    return pages;
  }

  /* ---------- drawing ---------- */

  function playerCell(number, extraClass) {
    const who = B.player(views(), number);
    return el(
      "span",
      { class: "who" + (extraClass ? " " + extraClass : "") },
      el("span", { class: "name" }, who.name),
      el("span", { class: "number" }, number),
      who.guest ? el("span", { class: "tag" }, "guest") : null
    );
  }

  function cardNode(id, machine, rows, from, to, total) {
    const parts = total > to - from && total > 0;
    const body = [];
    const label = B.placeLabels(rows);
    for (let i = from; i < to; i++) {
      const entry = rows[i];
      if (!entry) {
        body.push(el("div", { class: "row empty" }, el("span", { class: "none" }, "No scores yet")));
        continue;
      }
      const [number, row] = entry;
      const f = flash("m:" + id + ":" + number);
      const ranked = typeof row.place === "number";
      body.push(
        el(
          "div",
          {
            class: "row" + (ranked ? "" : " unranked") + (f.flash ? " flash" : ""),
            style: f.style,
            dataset: { player: number },
          },
          el("span", { class: "place" }, label(row)),
          playerCell(number),
          el(
            "span",
            { class: "score" },
            B.fmt.score(row.score),
            row.joker ? el("span", { class: "joker", title: "joker game" }, "J") : null
          ),
          el(
            "span",
            { class: "points" },
            B.fmt.points(row.points),
            row.bonus ? el("span", { class: "bonus", title: "bonus point" }, "★") : null
          )
        )
      );
    }
    const played = (views()["machine/" + id] || {}).played || 0;
    return el(
      "section",
      { class: "card", dataset: { machine: id } },
      el(
        "header",
        { class: "card-head" },
        el("span", { class: "card-name" }, machine.name || ""),
        el(
          "span",
          { class: "card-meta" },
          parts ? from + 1 + "–" + Math.min(to, total) + " of " + total : played + " played"
        )
      ),
      body
    );
  }

  function renderMachines(page) {
    return page.columns.map((column) =>
      el(
        "div",
        { class: "column" },
        column.map((part) => {
          const machine = (views().machines || {})[part.id] || {};
          const rows = B.machineRows(views()["machine/" + part.id]);
          return cardNode(part.id, machine, rows, part.from, Math.max(part.to, part.from + 1), part.total);
        })
      )
    );
  }

  function standingsHeader() {
    const league = hasLeague(B.standingRows(views().standings));
    return el(
      "div",
      { class: "list-head standings-row" + (league ? " league" : "") },
      el("span", { class: "place" }, "#"),
      el("span", { class: "who" }, "Player"),
      el("span", { class: "played" }, league ? "" : "Games"),
      el("span", { class: "total" }, league ? "Meet" : "Points"),
      league ? el("span", { class: "league-points" }, "League") : null
    );
  }

  function renderStandings(page) {
    const rows = B.standingRows(views().standings);
    const league = hasLeague(rows);
    const games = settings().machines_per_player;
    return page.columns.map((column) =>
      el(
        "div",
        { class: "column list" },
        standingsHeader(),
        column.map((item) => {
          if (item.divider) {
            return el("div", { class: "divider band-" + item.band }, el("span", {}, item.text));
          }
          const row = item.row;
          const f = flash("s:" + item.number);
          const ranked = typeof row.place === "number";
          return el(
            "div",
            {
              class:
                "list-row standings-row" +
                (league ? " league" : "") +
                (row.band ? " band-" + row.band : "") +
                (ranked ? "" : " unranked") +
                (f.flash ? " flash" : ""),
              style: f.style,
              dataset: { player: item.number },
            },
            el("span", { class: "place" }, item.place),
            playerCell(item.number),
            el("span", { class: "played" }, league ? "" : (row.played || 0) + (games ? "/" + games : "")),
            el("span", { class: "total" }, B.fmt.points(row.total)),
            league ? el("span", { class: "league-points" }, B.fmt.points(row.league_points)) : null
          );
        })
      )
    );
  }

  /* Machines now: who is on the machine (the hall's queue: playing or called) and how many wait;
   * where the tournament keeps no queues, the last score on it instead. */
  /* ---------- movers: the biggest climbs in the standings since the board last came round ---------- */

  function places() {
    const out = new Map();
    for (const [number, row] of B.standingRows(views().standings)) {
      if (typeof row.place === "number") out.set(number, row.place);
    }
    return out;
  }

  /* Players whose place is better now than when the rotation last started over, biggest climb
   * first (then the better place): [{number, from, to}]. */
  function movers() {
    if (state.moversBase === null) return [];
    const now = places();
    const found = [];
    for (const [number, to] of now) {
      const from = state.moversBase.get(number);
      if (from !== undefined && to < from) found.push({ number: number, from: from, to: to });
    }
    return found.sort((a, b) => b.from - b.to - (a.from - a.to) || a.to - b.to);
  }

  /* One page at most: the climbs that fit, or a line saying there are none yet. */
  function packMovers() {
    const list = movers();
    const m = measureList(moversHeader);
    const fit = Math.max(1, Math.floor((m.height - m.baseH) / m.rowH + 0.01));
    const columns = columnsFor("movers");
    return [{ view: "movers", key: "movers:0", columns: [list.slice(0, fit * columns)], count: columns, fit: fit }];
  }

  function moversHeader() {
    return el(
      "div",
      { class: "list-head standings-row" },
      el("span", { class: "place" }, "#"),
      el("span", { class: "who" }, "Player"),
      el("span", { class: "played" }, "Was"),
      el("span", { class: "total" }, "Up")
    );
  }

  function renderMovers(page) {
    const list = page.columns[0];
    if (list.length === 0) {
      return el("div", { class: "stage-message" }, "No climbs since the board last came round");
    }
    const columns = [];
    for (let at = 0; at < list.length; at += page.fit) {
      columns.push(
        el(
          "div",
          { class: "column list" },
          moversHeader(),
          list.slice(at, at + page.fit).map((m) =>
            el(
              "div",
              { class: "list-row standings-row mover", dataset: { player: m.number } },
              el("span", { class: "place" }, m.to),
              playerCell(m.number),
              el("span", { class: "played" }, m.from),
              el("span", { class: "total climb" }, "▲ " + (m.from - m.to))
            )
          )
        )
      );
    }
    return columns;
  }

  function tileNode(id) {
    const doc = views()["machine/" + id] || {};
    const queue = (views().queues || {})[id];
    const latest = doc.latest;
    const f = flash("q:" + id);
    let now;
    if (queue) {
      const up = queue.up;
      const state = queue.status ? "out of order" : up ? (up.state === "playing" ? "playing" : "called") : "free";
      now = [
        up ? playerCell(up.player) : el("div", { class: "none" }, queue.status ? "Out of order" : "Free"),
        el(
          "div",
          { class: "tile-state state-" + state.replace(/ /g, "-") },
          (up ? state : "") + (queue.count ? (up ? " · " : "") + queue.count + " waiting" : "") || "\u00a0"
        ),
      ];
    } else {
      now = [
        latest ? playerCell(latest.player) : el("div", { class: "none" }, "No scores yet"),
        latest ? el("div", { class: "score" }, B.fmt.score(latest.score)) : null,
      ];
    }
    return el(
      "section",
      { class: "tile" + (f.flash ? " flash" : ""), style: f.style, dataset: { machine: id } },
      el("div", { class: "tile-name" }, ((views().machines || {})[id] || {}).name || id),
      now,
      el("div", { class: "tile-played" }, doc.played || 0, el("small", {}, "played"))
    );
  }

  /* Machines now: tiles row by row, as many rows as fit. */
  function packTiles() {
    const ids = machines().map(([id]) => id);
    if (ids.length === 0) return [];
    const columns = columnsFor("queue");
    // every tile measured: a free machine's tile and a busy one's need not be the same height
    const holder = probe(() => el("div", { class: "tiles" }, ids.map(tileNode), tileNode(ids[0])));
    holder.style.width = "15em";
    holder.firstChild.style.gridTemplateColumns = "1fr";
    holder.firstChild.style.alignItems = "start";
    const tiles = [...holder.querySelectorAll(".tile")];
    const [a, b] = tiles;
    const tileH = Math.max(...tiles.map((t) => t.offsetHeight));
    const gap = b.offsetTop - (a.offsetTop + a.offsetHeight);
    holder.remove();
    const rows = Math.max(1, Math.floor((stage.clientHeight + gap) / (tileH + gap)));
    const perPage = rows * columns;
    const pages = [];
    for (let at = 0; at < ids.length; at += perPage) {
      pages.push({
        view: "queue",
        key: "queue:" + pages.length,
        columns: [ids.slice(at, at + perPage)],
        count: columns,
      });
    }
    return pages;
  }

  function renderQueue(page) {
    return page.columns[0].map(tileNode);
  }

  /* Draw again when the first highlight on screen is over, so none stays marked. */
  function scheduleUnflash() {
    clearTimeout(state.unflash);
    if (state.flashEnds !== Infinity) {
      state.unflash = setTimeout(render, Math.max(0, state.flashEnds - Date.now()) + 20);
    }
  }

  function render() {
    state.flashEnds = Infinity;
    const page = state.pages[state.index];
    let content;
    if (live.version === null) {
      content = el("div", { class: "stage-message" }, "Connecting…");
    } else if (!page) {
      content = el("div", { class: "stage-message" }, "Nothing to show yet");
    } else {
      content = pageNode(page);
    }
    stage.replaceChildren(content);
    shortenNames(stage);
    scheduleUnflash();
    stage.dataset.view = page ? page.view : "";
    const same = page ? state.pages.filter((p) => p.view === page.view) : [];
    viewTitle.textContent = page ? (TITLES[page.view] || (plugins[page.view] || {}).title || "") + titleNote(page.view) : "";
    pageNumber.textContent =
      page && same.length > 1 ? same.indexOf(page) + 1 + " / " + same.length : "";
  }

  function pageNode(page) {
    const builtin = { machines: renderMachines, standings: renderStandings, queue: renderQueue, movers: renderMovers };
    const draw = builtin[page.view] || ((p) => plugins[p.view].render(p, views(), pluginContext(p.view)));
    return el(
      "div",
      {
        class: (page.view === "queue" ? "tiles" : "columns") + " view-" + page.view,
        style: "--cols: " + page.count,
        dataset: { page: page.key, across: String(page.across || page.count) },
      },
      draw(page)
    );
  }

  /* Names fit the space they have before they are shortened, and a shortened name is whole: each
   * page is drawn off screen at the stage's size, and a view with a name that does not fit even
   * shortened gets one column fewer (wider columns, more pages) until its names fit or it is down
   * to one column. Kept until the screen or the reading distance changes (resetNames). */
  function fitNames() {
    let pages = buildPages();
    for (let tries = 0; tries < 8; tries++) {
      const tight = new Set();
      const sizer = el("div", { class: "probe", "aria-hidden": "true" });
      sizer.style.width = stage.clientWidth + "px";
      sizer.style.height = stage.clientHeight + "px";
      stage.append(sizer);
      state.measuring = true;
      try {
        for (const page of pages) {
          if (tight.has(page.view) || !((page.across || page.count) > 1)) continue;
          const node = pageNode(page);
          sizer.replaceChildren(node);
          shortenNames(node);
          if ([...node.querySelectorAll(".who .name, .epc-who .name")].some((n) => n.scrollWidth > n.clientWidth + 1)) {
            tight.add(page.view);
          }
        }
      } finally {
        state.measuring = false;
        sizer.remove();
      }
      if (tight.size === 0) return pages;
      const before = JSON.stringify(pages.map((p) => p.across || p.count));
      for (const view of tight) state.narrower[view] = (state.narrower[view] || 0) + 1;
      const next = buildPages();
      if (JSON.stringify(next.map((p) => p.across || p.count)) === before) return next; // no narrower layout
      pages = next;
    }
    return pages;
  }

  function resetNames() {
    state.narrower = {};
  }

  function pluginContext(view) {
    return {
      config: config,
      el: el,
      B: B,
      flashing: (key) => {
        const change = state.recent.get(key);
        return Boolean(change && !change.shown);
      },
      // {flash, style} for a row of `view` whose rowKeys signature changed: add class "flash"
      // and the style to the row node while flash is true.
      flash: (view, key) => flash("p:" + view + ":" + key),
      // how many rows fit the stage's height: build(n) draws a column of n rows as the view does
      fitRows: fitRows,
      // tables of rows packed into columns that fit the stage (packColumns)
      packColumns: packColumns,
      // how many columns of `em` (of the board's font) fit the stage's width (fewer where a
      // name did not fit whole in that many)
      columns: (em) => narrowed(view, columnsOf(em)),
      // the width in px of one of `across` columns of the board's grid, to draw a card as wide
      // as it is measured
      columnWidth: columnWidth,
    };
  }

  /* Plugin views' rows that changed: compare each plugin's rowKeys(views) before and after. */
  function notePluginChanges(before) {
    for (const view of config.views) {
      const plugin = plugins[view];
      if (!plugin || typeof plugin.rowKeys !== "function") continue;
      const was = plugin.rowKeys(before) || {};
      const now = plugin.rowKeys(views()) || {};
      for (const [key, signature] of Object.entries(now)) {
        if (key in was && was[key] !== signature) noteChange("p:" + view + ":" + key);
        else if (!(key in was) && Object.keys(was).length) noteChange("p:" + view + ":" + key);
      }
    }
  }

  /* The first letter of ``word`` as a reader sees it: a whole grapheme, so "Åsa" typed on a Mac
   * (A and a combining ring) gives "Å", not "A". */
  function firstLetter(word) {
    const text = word.normalize("NFC");
    if (typeof Intl !== "undefined" && Intl.Segmenter) {
      const first = new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)[Symbol.iterator]().next();
      if (!first.done) return first.value.segment;
    }
    return Array.from(text)[0] || "";
  }

  // words that belong to the surname after them ("Ó Súilleabháin", "van der Berg"): not initials
  const PARTICLES = new Set(["van", "von", "der", "den", "de", "del", "della", "di", "da", "du", "dos", "das",
    "le", "la", "ter", "ten", "op", "zu", "ó", "ní", "nic", "mac", "mc", "ua", "uí", "bin", "ibn", "al", "el"]);

  /* "Bartholomew Jansen" -> "B. Jansen" only where the full name does not fit its space (the board
   * first gives names the room it has); the surname keeps its particles ("G. Ó Súilleabháin"); the
   * title keeps the full name, national letters kept. */
  function shortenNames(root) {
    for (const node of root.querySelectorAll(".who .name, .epc-who .name")) {
      if (node.scrollWidth <= node.clientWidth) continue;
      const parts = node.textContent.trim().split(/\s+/);
      let surname = parts.length - 1;
      while (surname > 1 && PARTICLES.has(parts[surname - 1].toLowerCase())) surname--;
      if (surname < 1) continue;
      node.title = node.textContent;
      node.textContent = parts.slice(0, surname).map((p) => firstLetter(p) + ".").join(" ") + " " + parts.slice(surname).join(" ");
    }
  }

  /* ---------- not live ---------- */

  /* 42 -> "42 s", 150 -> "2 min", 3900 -> "1 h 5 min". */
  function ageText(seconds) {
    const s = Math.max(0, Math.floor(seconds));
    if (s < 120) return s + " s";
    const minutes = Math.floor(s / 60);
    if (minutes < 60) return minutes + " min";
    return Math.floor(minutes / 60) + " h " + (minutes % 60) + " min";
  }

  /* Called every second and on every change of the link (Live.onstatus). */
  function showLiveness(connected, age) {
    B.showStatus(statusNode, connected, age);
    const now = Date.now();
    const silent = age !== null && age * 1000 > SILENT_MS;
    if (connected && !silent) {
      liveAt = now;
      lostAt = null;
    } else if (lostAt === null) {
      lostAt = connected ? now - STALE_AFTER_MS : now; // silence has already lasted
    }
    const stale = lostAt !== null && liveAt !== null && now - lostAt >= STALE_AFTER_MS;
    if (stale) {
      board.dataset.stale = "";
      const text = "NOT LIVE — these scores are " + ageText((now - liveAt) / 1000) + " old · reconnecting…";
      if (staleBanner.textContent !== text) staleBanner.textContent = text;
    } else if ("stale" in board.dataset) {
      delete board.dataset.stale;
    }
    staleBanner.hidden = !stale;
  }

  /* ---------- kiosk ---------- */

  /* A hall screen runs unattended: full screen on the first click, tap or key (browsers allow it
   * only on a user gesture), the screen kept awake (Screen Wake Lock, taken again when the page is
   * shown again, since the browser releases it when hidden), and the cursor hidden after
   * CURSOR_IDLE_MS without a move. A reload keeps the views: they are in the URL. */
  const CURSOR_IDLE_MS = 3000;
  let wakeLock = null;
  let idleTimer = null;

  async function keepAwake() {
    if (!("wakeLock" in navigator) || wakeLock !== null || document.hidden) return;
    try {
      wakeLock = await navigator.wakeLock.request("screen");
      board.dataset.awake = "";
      wakeLock.addEventListener("release", () => {
        wakeLock = null;
        delete board.dataset.awake;
      });
    } catch (error) {
      board.dataset.awake = "refused"; // no permission (or not supported here): nothing to do
    }
  }

  function goFullScreen() {
    const root = document.documentElement;
    if (!document.fullscreenElement && root.requestFullscreen) root.requestFullscreen().catch(() => {});
    keepAwake();
  }

  function cursorMoved() {
    delete document.body.dataset.idle;
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => (document.body.dataset.idle = ""), CURSOR_IDLE_MS);
  }

  function startKiosk() {
    window.addEventListener("pointerdown", goFullScreen, { once: true });
    window.addEventListener("keydown", goFullScreen, { once: true });
    window.addEventListener("mousemove", cursorMoved);
    document.addEventListener("visibilitychange", keepAwake);
    cursorMoved();
    keepAwake();
  }

  /* ---------- display profiles ---------- */

  function knownView(name) {
    return name in COLUMN_EM || Boolean(plugins[name]);
  }

  /* Take views, seconds, theme and QR code from the profile (or the URL's); true if they changed. */
  function applyProfile() {
    const assigned = (views().displays || {})[displayName] || null; // set on the TD's desk
    const followed = assigned && assigned.profile ? assigned.profile : profileName;
    const found = followed ? (views().profiles || {})[followed] : null;
    let chosen = found
      ? {
          ...found,
          views: (found.views || []).filter(knownView),
          distance: within(found.distance, 0.5, 50, fromUrl.distance),
          diagonal: within(found.diagonal, 10, 400, fromUrl.diagonal),
        }
      : fromUrl;
    if (assigned && assigned.views) {
      chosen = { ...fromUrl, views: assigned.views.filter(knownView), seconds: assigned.seconds };
    }
    if (chosen.views.length === 0) chosen.views = fromUrl.views;
    const missing = Boolean(followed) && !found && !(assigned && assigned.views) && live !== null && live.version !== null;
    const key = JSON.stringify([chosen, missing]);
    if (key === profileKey) return false;
    profileKey = key;
    config.views = chosen.views;
    config.seconds = Math.min(Math.max(Number(chosen.seconds) || fromUrl.seconds, 2), 3600);
    document.documentElement.dataset.theme = chosen.theme || "dark";
    lastReading = chosen;
    applyReadingSize(chosen);
    resetNames();
    document.getElementById("qr-corner").hidden = chosen.qr === false;
    board.dataset.qr = chosen.qr === false ? "off" : document.getElementById("qr-corner").dataset.fit;
    fitQrText(); // the corner's room changed with it
    const note = document.getElementById("profile-note");
    note.hidden = !missing;
    note.textContent = missing ? "no display profile “" + followed + "”" : "";
    return true;
  }

  function restartRotation() {
    clearTimeout(state.timer);
    startProgress();
    state.timer = setTimeout(advance, config.seconds * 1000);
  }

  /* ---------- rotation ---------- */

  function rebuild() {
    const key = (state.pages[state.index] || {}).key;
    state.pages = fitNames();
    const at = state.pages.findIndex((p) => p.key === key);
    if (at >= 0) {
      state.index = at;
    } else {
      const view = key ? key.split(":")[0] : null;
      const first = state.pages.findIndex((p) => p.view === view);
      state.index = first >= 0 ? first : 0;
    }
  }

  function startProgress() {
    progress.style.transition = "none";
    progress.style.width = "0";
    if (state.pages.length < 2) return;
    void progress.offsetWidth; // restart the transition
    progress.style.transition = "width " + config.seconds + "s linear";
    progress.style.width = "100%";
  }

  function advance() {
    rebuild();
    if (state.pages.length) state.index = (state.index + 1) % state.pages.length;
    if (state.index === 0) {
      state.moversBase = places(); // a new round of the board: climbs count from here
      rebuild();
    }
    render();
    startProgress();
    clearTimeout(state.timer);
    state.timer = setTimeout(advance, config.seconds * 1000);
  }

  function onchange(names, rowKeys, before, info) {
    if (!info.first) {
      noteChanges(names, rowKeys, before);
      notePluginChanges(before);
    }
    forgetOld();
    const firstTime = state.pages.length === 0 && state.timer === null;
    if (state.moversBase === null && live.version !== null) state.moversBase = places();
    const reprofiled = applyProfile();
    rebuild();
    render();
    B.showField(views());
    if (firstTime || reprofiled) restartRotation();
  }

  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      if (lastReading) applyReadingSize(lastReading);
      resetNames();
      rebuild();
      render();
    }, 100);
  });

  const told = { display: displayName, views: fromUrl.views.join(",") };
  if (profileName) told.profile = profileName;
  live = new B.Live(config.tournament, {
    query: told,
    onchange: onchange,
    onstatus: showLiveness,
    onerror: (message) => {
      if (live.version === null) stage.replaceChildren(el("div", { class: "stage-message" }, message));
    },
  });
  window.backglassLive = live; // for tests and for a curious TD at the console
  // for tests: the pages' keys, and showing page i now
  window.backglassBoard = {
    name: displayName,
    views: () => config.views.slice(),
    pages: () => state.pages.map((p) => p.key),
    show: (i) => {
      state.index = i;
      render();
      return (state.pages[i] || {}).key;
    },
  };
  document.getElementById("display-name").textContent = displayName; // the TD's desk lists it so
  applyProfile(); // the URL's settings (?qr=0) until the first snapshot brings any profile
  startKiosk();
  live.start();
})();
