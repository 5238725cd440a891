/* The teams' page on a phone: the Country Competition's group tables, qualifying table, matches,
 * 4-ball board and final, drawn by the hall display's plugins (static/competitions/epc_country/views/country_groups.js,
 * four_ball.js, country_final.js) in one column. ?team=<id> (or the "My team" choice, kept on the
 * phone) outlines that team everywhere.
 */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;
  const config = B.pageConfig();
  const plugins = B.displayViews;
  const KEY = "backglass.myteam." + config.tournament;
  const TABS = [
    { id: "groups", label: "Groups", view: "country_groups", kind: "groups" },
    { id: "table", label: "Table", view: "country_groups", kind: "table" },
    { id: "matches", label: "Matches", view: "country_groups", kind: "matches" },
    { id: "four-ball", label: "4-ball", view: "four_ball" },
    { id: "final", label: "Final", view: "country_final" },
  ];

  const tabsNode = document.getElementById("tabs");
  const content = document.getElementById("content");
  const select = document.getElementById("my-team");
  const state = { tab: location.hash.slice(1) || null, team: config.team || localStorage.getItem(KEY) || "" };

  function ctx() {
    return { config: config, el: el, B: B, phone: true, team: state.team || null, flashing: () => false };
  }

  function pagesOf(tab) {
    const plugin = plugins[tab.view];
    if (!plugin) return [];
    const pages = plugin.pages(live.views, ctx());
    return tab.kind ? pages.filter((p) => p.kind === tab.kind || p.kind === "wait") : pages;
  }

  function available() {
    return TABS.filter((tab) => tab.id !== "final" || pagesOf(tab).length > 0);
  }

  function defaultTab() {
    const stage = (live.views.tournament || {}).stage;
    return stage && stage !== "qualifying" ? "final" : "groups";
  }

  function renderTabs(tabs) {
    tabsNode.replaceChildren(
      ...tabs.map((tab) =>
        el(
          "button",
          {
            type: "button",
            role: "tab",
            "aria-selected": String(tab.id === state.tab),
            dataset: { tab: tab.id },
            onclick: () => {
              state.tab = tab.id;
              history.replaceState(null, "", "#" + tab.id);
              render();
            },
          },
          tab.label
        )
      )
    );
  }

  function renderTeams() {
    const teams = Object.entries(live.views.teams || {}).filter(([, t]) => t.group);
    const wanted = ["", ...teams.map(([id]) => id)].join(",");
    if (select.dataset.teams !== wanted) {
      select.dataset.teams = wanted;
      select.replaceChildren(
        el("option", { value: "" }, "—"),
        ...teams
          .sort(([, a], [, b]) => a.name.localeCompare(b.name))
          .map(([id, t]) => el("option", { value: id }, t.name))
      );
    }
    select.value = state.team;
  }

  select.addEventListener("change", () => {
    state.team = select.value;
    if (state.team) localStorage.setItem(KEY, state.team);
    else localStorage.removeItem(KEY);
    render();
  });

  function render() {
    if (live.version === null) return;
    const tabs = available();
    if (!tabs.some((t) => t.id === state.tab)) state.tab = defaultTab();
    if (!tabs.some((t) => t.id === state.tab)) state.tab = "groups";
    renderTabs(tabs);
    renderTeams();
    const tab = TABS.find((t) => t.id === state.tab);
    const nodes = [];
    for (const page of pagesOf(tab)) nodes.push(...[].concat(plugins[tab.view].render(page, live.views, ctx())));
    content.dataset.tab = tab.id;
    content.replaceChildren(...(nodes.length ? nodes : [el("p", { class: "empty" }, "Nothing yet.")]));
  }

  window.addEventListener("hashchange", () => {
    state.tab = location.hash.slice(1) || null;
    render();
  });

  const live = new B.Live(config.tournament, {
    onchange: render,
    onstatus: (connected, age) => B.showStatus(document.getElementById("status"), connected, age),
  });
  window.backglassLive = live;
  live.start();
})();
