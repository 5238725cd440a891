/* EPC finals on the hall display (EPC 2009, EPC Finals): the 5th-8th play-off and the grand
 * final, players in the order they choose a player position, then each one's final place.
 * View "finals". */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;

  function label(place) {
    const text = place === 1 ? "Champion" : B.epc.ordinal(place);
    return [text, place === 1 ? "epc-up" : ""];
  }

  B.displayViews.finals = {
    title: "Finals",
    pages(views) {
      return views.finals ? [{ key: "games" }] : [];
    },
    render(page, views) {
      const games = Object.values((views.finals || {}).games || {}).sort((a, b) => a.order - b.order);
      return el(
        "div",
        { class: "epc-panels epc-big", style: "--panels: 2" },
        games.map((game) => B.epc.gamePanel(views, game, label))
      );
    },
  };
})();
