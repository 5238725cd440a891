/* The printable results page: its Print button (a listener here, not an inline onclick, which the
 * Content-Security-Policy forbids; display/security.py). */
"use strict";

for (const button of document.querySelectorAll("[data-print]")) {
  button.addEventListener("click", () => window.print());
}
