/* EPC semi-finals on the hall display (EPC 2009, EPC Semi-Finals): groups A (QF places 1, 3, 5,
 * 7) and B (2, 4, 6, 8), players in the order they choose a player position; the top two go to
 * the final, the other two to the 5th-8th play-off. View "semifinal". */
(function () {
  "use strict";
  const B = window.Backglass;
  const el = B.el;

  function label(place) {
    return place <= 2 ? ["Final", "epc-up"] : ["5th–8th", "epc-down"];
  }

  B.displayViews.semifinal = {
    title: "Semi-finals",
    pages(views) {
      return views.semifinal ? [{ key: "games" }] : [];
    },
    render(page, views) {
      const games = Object.values((views.semifinal || {}).games || {}).sort((a, b) => a.order - b.order);
      return el(
        "div",
        { class: "epc-panels epc-big", style: "--panels: 2" },
        games.map((game) => B.epc.gamePanel(views, game, label))
      );
    },
  };
})();
