/* EPC semi-finals on the hall display (EPC 2009, EPC Semi-Finals): groups A (QF places 1, 3, 5,
 * 7) and B (2, 4, 6, 8), players in the order they choose a player position; the top two go to
 * the final, the other two to the 5th-8th play-off. View "semifinal". */
(function () {
  "use strict";
  const B = window.Backglass;

  function label(place) {
    return place <= 2 ? ["Final", "epc-up"] : ["5th–8th", "epc-down"];
  }

  function games(views) {
    return Object.entries((views.semifinal || {}).games || {}).sort((a, b) => a[1].order - b[1].order);
  }

  function draw(views) {
    return (game, from, to) => B.epc.gamePanel(views, game, label, null, from, to);
  }

  B.displayViews.semifinal = {
    title: "Semi-finals",
    /* Games packed by the reading distance (epc.js gamePages): fewer a page, split if need be. */
    pages(views, ctx) {
      return views.semifinal ? B.epc.gamePages(ctx, games(views), draw(views), "epc-big") : [];
    },
    render(page, views) {
      return B.epc.gameColumns(page, games(views), draw(views), "epc-big");
    },
  };
})();
