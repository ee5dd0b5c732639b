/* Cards mode with five or more players: each card's row of names runs long
 * (17 cards by 7 names), so one grid instead: tap a player, then the cards
 * they took. The rows stay the form (hidden): a card tapped sets its row's
 * choice, and whatever sets a row (Clear, "every card not yet taken to",
 * a draft brought back) shows in the grid. */
"use strict";

(function () {
  function setUp(form) {
    const grid = form.querySelector("[data-by-player]");
    if (!grid || grid.dataset.ready) return;
    grid.dataset.ready = "1";
    grid.hidden = false;
    form.classList.add("by-player-on"); // the rows and their help give way (app.css)
    const players = Array.from(grid.querySelectorAll("[data-seat]"));
    let current = players[0].dataset.seat;

    function show() {
      for (const card of grid.querySelectorAll("[data-card]")) {
        const taken = form.querySelector('input[name="taker-' + card.dataset.card + '"]:checked');
        const holder = taken ? players[Number(taken.value)] : null;
        card.querySelector("[data-holder]").textContent = holder ? holder.dataset.short : "";
        card.setAttribute("aria-pressed", String(!!taken && taken.value === current));
        card.classList.toggle("other", !!taken && taken.value !== current);
      }
      players.forEach((p) => p.setAttribute("aria-pressed", String(p.dataset.seat === current)));
    }

    grid.addEventListener("click", (event) => {
      const player = event.target.closest("[data-seat]");
      if (player) current = player.dataset.seat;
      const card = event.target.closest("[data-card]");
      if (card) {
        const box = form.querySelector('input[name="taker-' + card.dataset.card + '"][value="' + current + '"]');
        box.checked = !box.checked;
        box.dispatchEvent(new Event("change", { bubbles: true }));
      }
      // Every card nobody has yet to the player chosen: a moon is that and Save.
      if (event.target.closest("[data-rest-current]")) {
        let changed = null;
        for (const code of Array.from(grid.querySelectorAll("[data-card]"), (c) => c.dataset.card)) {
          if (form.querySelector('input[name="taker-' + code + '"]:checked')) continue;
          changed = form.querySelector('input[name="taker-' + code + '"][value="' + current + '"]');
          changed.checked = true;
        }
        if (changed) changed.dispatchEvent(new Event("change", { bubbles: true }));
      }
      show();
    });
    form.addEventListener("change", show);
    form.addEventListener("reset", () => setTimeout(show));
    show();
  }

  function setUpAll(part) {
    (part || document).querySelectorAll("#entry form").forEach(setUp);
    if (part && part.matches && part.matches("#entry form")) setUp(part);
  }
  setUpAll();
  document.body.addEventListener("htmx:load", (event) => setUpAll(event.target));
})();
