/* EPC finals on the hall display (EPC 2009, EPC Finals): the 5th-8th play-off and the grand
 * final, players in the order they choose a player position, then each one's final place.
 * View "finals". */
(function () {
  "use strict";
  const B = window.Backglass;

  function label(place) {
    const text = place === 1 ? "Champion" : B.epc.ordinal(place);
    return [text, place === 1 ? "epc-up" : ""];
  }

  function games(views) {
    return Object.entries((views.finals || {}).games || {}).sort((a, b) => a[1].order - b[1].order);
  }

  function draw(views) {
    return (game, from, to) => B.epc.gamePanel(views, game, label, null, from, to);
  }

  B.displayViews.finals = {
    title: "Finals",
    /* Games packed by the reading distance (epc.js gamePages): fewer a page, split if need be. */
    pages(views, ctx) {
      return views.finals ? B.epc.gamePages(ctx, games(views), draw(views), "epc-big") : [];
    },
    render(page, views) {
      return B.epc.gameColumns(page, games(views), draw(views), "epc-big");
    },
  };
})();
