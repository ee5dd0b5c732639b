/* The New game screen: a player tapped sits next, clockwise (the form sends
 * them in that order); only a player in the game can deal first; the end and
 * moon follow the rules picked; a number of deals that doesn't go round the
 * table evenly is pointed out. With no script the form works as it is. */
(function () {
  "use strict";

  const newGame = document.querySelector("form[data-new-game]");
  if (newGame) setUpNewGame(newGame);

  function setUpNewGame(form) {
    const seated = form.querySelector("[data-seated]");
    const unseated = form.querySelector("[data-unseated]");
    const rulesets = JSON.parse(form.dataset.rulesets || "{}");
    const othersLabel = form.querySelector("[data-unseated-label]");
    form.querySelectorAll("[data-target]").forEach((button) => (button.hidden = false));

    function showChoices() {
      // Only a player in the game can deal first; the end shown is the one chosen.
      const playing = new Set(Array.from(seated.querySelectorAll("input"), (box) => box.value));
      form.querySelectorAll("[data-player]").forEach((chip) => {
        chip.hidden = !playing.has(chip.dataset.player);
        if (chip.hidden) chip.querySelector("input").checked = false;
      });
      showNewDealers();
      if (!form.querySelector('input[name="first_dealer"]:checked')) form.elements.first_dealer[0].checked = true;
      othersLabel.hidden = !unseated.children.length;
      const end = form.querySelector('input[name="end"]:checked');
      form.querySelectorAll("[data-end]").forEach((part) => (part.hidden = !end || part.dataset.end !== end.value));
      const deals = Number(form.elements.deals.value);
      const players = playing.size + form.elements.new_players.value.split(/[,\n]/).filter((n) => n.trim()).length;
      const note = form.querySelector("[data-uneven-note]");
      const uneven = end && end.value === "deals" && deals > 0 && players >= 3 && deals % players !== 0;
      note.hidden = !uneven;
      const said = deals === 1 ? form.dataset.unevenOne : form.dataset.uneven;
      if (uneven) note.textContent = said.replace("{deals}", deals).replace("{players}", players);
      sayChoices(end, deals);
    }

    // The folded choices said again in their summary as they change.
    const choices = form.querySelector("[data-choices]");
    const words = JSON.parse(choices.dataset.words);
    const choicesSaid = choices.querySelector("[data-choices-said]");
    function sayChoices(end, deals) {
      const ruleset = form.elements.ruleset;
      const said = [ruleset.selectedIndex >= 0 ? ruleset.options[ruleset.selectedIndex].text : ""];
      const target = form.elements.target.value.trim();
      if (end && end.value === "target" && target) said.push(words.target.replace("{target}", target));
      if (end && end.value === "deals" && deals > 0) said.push(words.deals[deals === 1 ? 0 : 1].replace("{count}", deals));
      const moon = form.querySelector('input[name="moon"]:checked');
      if (moon) said.push(words.moon[moon.value]);
      const dealer = form.querySelector('input[name="first_dealer"]:checked');
      const drawn = !dealer || dealer.value === "draw";
      said.push(drawn ? words.draw : words.dealer.replace("{name}", dealer.nextElementSibling.textContent));
      const line = said.filter(Boolean).join(" · ");
      if (choicesSaid.textContent !== line) choicesSaid.textContent = line;
    }

    // A new player typed can deal first too: "new-0" is the first of them.
    const dealers = form.querySelector("[data-dealers]");
    const known = Array.from(form.querySelectorAll('input[name="players"] + span'), (name) => key(name.textContent));
    function key(name) {
      return name.trim().replace(/\s+/g, " ").toLowerCase();
    }
    let shownNew = "";
    function showNewDealers() {
      const typed = form.elements.new_players.value.split(/[,\n]/).map((name) => name.trim().replace(/\s+/g, " "));
      const fresh = typed.filter((name, i) => name && !known.includes(key(name)) && typed.findIndex((n) => key(n) === key(name)) === i);
      // Made again only when the names change: the box's change on leaving it (as a
      // dealer is tapped) must not swap the chip from under the finger.
      if (fresh.join("\n") === shownNew) return;
      shownNew = fresh.join("\n");
      const chosen = form.querySelector('input[name="first_dealer"]:checked');
      const wanted = chosen && chosen.value.startsWith("new-") ? chosen.nextElementSibling.textContent : null;
      dealers.querySelectorAll("[data-new]").forEach((chip) => chip.remove());
      fresh.forEach((name, i) => {
        const chip = document.createElement("label");
        chip.className = "chip";
        chip.dataset.new = "";
        const radio = document.createElement("input");
        radio.type = "radio";
        radio.name = "first_dealer";
        radio.value = "new-" + i;
        radio.checked = name === wanted;
        const label = document.createElement("span");
        label.textContent = name;
        chip.append(radio, label);
        dealers.querySelector("legend").parentElement.insertBefore(chip, dealers.querySelector(".error"));
      });
    }

    form.addEventListener("change", (event) => {
      const box = event.target;
      if (box.name === "players") {
        // A player tapped sits next, clockwise; tapped again, they leave the game.
        (box.checked ? seated : unseated).appendChild(box.closest("li"));
        box.focus();
      }
      if (box.name === "ruleset" && rulesets[box.value]) {
        const rules = rulesets[box.value];
        form.querySelector('input[name="end"][value="' + rules.end + '"]').checked = true;
        form.elements.target.value = rules.target;
        form.elements.deals.value = rules.deals;
        form.querySelector('input[name="moon"][value="' + rules.moon + '"]').checked = true;
      }
      showChoices();
    });
    form.addEventListener("input", showChoices);
    form.addEventListener("click", (event) => {
      const quick = event.target.closest("[data-target]");
      if (!quick) return;
      form.elements.target.value = quick.dataset.target;
      form.querySelector('input[name="end"][value="target"]').checked = true;
      showChoices();
    });
    showChoices();
  }
})();
