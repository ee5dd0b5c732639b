/* The entry of a deal: its check shown as it is tapped (the check itself is
 * check.js, with the engine's rules and words the page hands over), the form's
 * own key, and the controls only a script can offer (every card not yet taken
 * to one player, a minus sign, Clear). offline.js builds on it through
 * window.Scorekeeper.entry. */
(function () {
  "use strict";

  const page = document.body;

  // --- The check of an entry, on the phone, as it is tapped

  const holder = document.querySelector("[data-phone]");
  if (!holder || !window.ScorekeeperCheck) return;
  const config = JSON.parse(holder.dataset.phone || "{}");
  const text = config.text || {};
  const checker = window.ScorekeeperCheck;
  const fill = checker.fill;

  function anyEntryForm() {
    return document.querySelector("#entry form");
  }

  /* The entry's fields by name. A heart count the phone filled in as the
   * rest is not the person's: it is worked out again from the others. */
  function entryFields(form) {
    const fields = {};
    for (const [name, value] of new FormData(form).entries()) fields[name] = value;
    if (form.dataset.filled !== undefined) delete fields["hearts-" + form.dataset.filled];
    return fields;
  }

  function checkEntry(form) {
    const mode = form.elements.mode.value;
    const result = checker.check(config, mode, entryFields(form));
    showRemainder(form, mode, result);
    showCheck(form, mode, result);
    return result.valid;
  }

  function showRemainder(form, mode, result) {
    form.querySelectorAll(".rest").forEach((hint) => (hint.textContent = ""));
    form.querySelectorAll("legend .filled").forEach((label) => label.remove());
    if (mode === "points" && result.filled !== null) {
      const hint = document.getElementById("rest-" + result.filled);
      if (hint) hint.textContent = fill(text.rest, { points: result.filledValue });
    }
    if (mode !== "counts") return;
    const before = form.dataset.filled;
    if (before !== undefined && String(result.filled) !== before) {
      form.querySelectorAll('input[name="hearts-' + before + '"]').forEach((box) => (box.checked = false));
      delete form.dataset.filled;
    }
    if (result.filled === null) return;
    const box = form.querySelector('input[name="hearts-' + result.filled + '"][value="' + result.filledValue + '"]');
    if (!box) return;
    box.checked = true;
    form.dataset.filled = String(result.filled);
    const legend = box.closest("fieldset").querySelector("legend");
    const label = document.createElement("small");
    label.className = "filled";
    label.textContent = " " + text.theRest;
    legend.append(label);
  }

  function element(tag, className, content) {
    const el = document.createElement(tag);
    if (className) el.className = className;
    if (content !== undefined) el.textContent = content;
    return el;
  }

  function cardSpans(codes) {
    const spans = [];
    codes.forEach((code, i) => {
      const card = config.cards[code];
      const shown = element("span", "card suit-" + card.suit, card.label);
      shown.setAttribute("aria-hidden", "true");
      spans.push(shown, element("span", "sr-only", card.name));
      if (i < codes.length - 1) spans.push(" ");
    });
    return spans;
  }

  // As the server's check partial: cards taken, "37 of 43", what is wrong, a moon.
  function showCheck(form, mode, result) {
    const area = form.querySelector("#entry-check");
    const said = form.querySelector("#entry-said");
    if (!area || !said) return;
    const takenArea = form.querySelector("#entry-taken");
    if (takenArea) takenArea.replaceChildren();
    const parts = [];
    if (mode === "cards" && takenArea) {
      const taken = element("ul", "taken");
      taken.setAttribute("aria-label", text.takenSoFar);
      for (const seat of result.taken) {
        const li = element("li");
        li.append(element("strong", "", seat.name), " " + seat.points + ": ");
        if (seat.cards.length) li.append(...cardSpans(seat.cards));
        else li.append(element("span", "muted", text.nothingYet));
        taken.append(li);
      }
      takenArea.append(taken);
    }
    // The tally is changed in place and what is said only when it differs:
    // a new node on each tap made the browser lay out the whole bar again.
    const [before, after] = text.counted.split("{counted}");
    let tally = area.querySelector(":scope > .tally");
    if (!tally || !tally.querySelector("strong") || tally.lastChild.nodeType !== Node.TEXT_NODE) {
      if (tally) tally.remove();
      tally = element("p", "tally");
      tally.setAttribute("aria-live", "polite");
      tally.append(before, element("strong"), "");
      area.prepend(tally);
    }
    const counted = String(result.counted);
    const strong = tally.querySelector("strong");
    if (strong.textContent !== counted) strong.textContent = counted;
    const rest = fill(after, { total: result.total });
    if (tally.lastChild.textContent !== rest) tally.lastChild.textContent = rest;
    let heads = null;
    if (result.valid) {
      const raw = config.names.map((name, seat) => name + " " + result.raw[seat]).join(", ");
      parts.push(element("p", "ok", (result.moonText ? text.addsUpCards : text.addsUp) + " " + raw + "."));
      if (result.moonText) {
        parts.push(element("p", "moon-note", "☾ " + result.moonText));
        heads = "☾ " + result.moonText;
      } else if (result.filled !== null) {
        const name = config.names[result.filled];
        heads =
          mode === "counts"
            ? fill(text.restHearts[result.filledValue], { name, count: result.filledValue })
            : fill(text.restPoints, { name, points: result.filledValue });
      }
      if (!navigator.onLine && text.keptWhenSaved) parts.push(element("p", "kept-note muted", text.keptWhenSaved));
    } else {
      if (result.problems.length) {
        const list = element("ul", "problems");
        for (const problem of result.problems) list.append(element("li", "", problem));
        parts.push(list);
      }
      // Not red: half entered is not wrong.
      if (result.toEnter) parts.push(element("p", "to-enter", result.toEnter));
    }
    showInBar(area, heads);
    const saidNow = parts.map((part) => part.outerHTML).join("");
    if (said.dataset.shown !== saidNow) {
      said.replaceChildren(...parts);
      said.dataset.shown = saidNow;
    }
    area.querySelectorAll(".save").forEach((button) => (button.disabled = !result.valid));
  }

  /* What Save is about to record that the person may not expect (a moon, a rest filled in) is
   * said in the bar beside it, not only far up the form. */
  function showInBar(area, heads) {
    let note = area.querySelector(":scope > .bar-note");
    if (!heads) {
      if (note) note.remove();
      return;
    }
    if (!note) {
      note = element("p", "bar-note");
      area.querySelector(":scope > .tally").after(note);
    }
    if (note.textContent !== heads) note.textContent = heads;
  }

  document.addEventListener("change", entryChanged);
  document.addEventListener("input", entryChanged);
  // A tapped choice says "input", then "change", in the same task: checked once.
  let checkedJustNow = null;
  function entryChanged(event) {
    const form = event.target.closest && event.target.closest("#entry form");
    if (!form || !event.target.closest(".entry-fields")) return;
    if (event.type === "change" && event.target === checkedJustNow) return;
    if (event.type === "input") {
      checkedJustNow = event.target;
      setTimeout(() => (checkedJustNow = null));
    }
    // A count the person taps is theirs, even where the phone had filled one in.
    if (form.dataset.filled !== undefined && event.target.name === "hearts-" + form.dataset.filled) {
      delete form.dataset.filled;
    }
    checkEntry(form);
  }

  function checkOnArrival(form) {
    if (!form) return;
    // The check here says what is wrong, in words: htmx need not ask every field on a save.
    form.noValidate = true;
    // A refusal the server just gave stays until the entry changes.
    if (!form.querySelector("#entry-said .problems[role=alert]")) checkEntry(form);
  }
  checkOnArrival(anyEntryForm());
  document.body.addEventListener("htmx:load", (event) => {
    const part = event.target;
    const form = part.matches && part.matches("#entry") ? part.querySelector("form") : null;
    if (form) checkOnArrival(form);
  });

  function newKey() {
    if (crypto.randomUUID) return crypto.randomUUID();
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // --- The form's own key: a deal sent twice is recorded once

  function entryForm() {
    return document.querySelector("#entry form[hx-post]");
  }
  function giveKey(form) {
    const key = form && form.querySelector('input[name="key"]');
    if (key && !key.value) key.value = newKey();
  }
  giveKey(entryForm());
  page.addEventListener("htmx:load", (event) => {
    const form = event.target.querySelector && event.target.querySelector("#entry form[hx-post]");
    giveKey(form || (event.target.matches && event.target.matches("#entry form[hx-post]") ? event.target : null));
  });

  window.Scorekeeper = Object.assign(window.Scorekeeper || {}, {
    entry: { config, text, fill, checkEntry, entryForm, giveKey, newKey },
  });

  // --- Controls that need this script, shown by it (also in swapped-in parts)

  const game = document.getElementById("game-body");
  if (!game) return;
  const showControls = (part) =>
    part.querySelectorAll("[data-rest], [data-sign-for], [data-clear]").forEach((control) => (control.hidden = false));
  showControls(game);
  document.addEventListener("htmx:load", (event) => showControls(event.target));

  game.addEventListener("click", (event) => {
    // "Every card not yet taken to Cara": a moon in one tap.
    const rest = event.target.closest("[data-rest-seat]");
    if (rest) {
      const form = rest.closest("form");
      const seat = rest.dataset.restSeat;
      let changed = null;
      const cards = new Set(Array.from(form.querySelectorAll(".taker input")).map((input) => input.name));
      for (const name of cards) {
        if (form.querySelector('input[name="' + name + '"]:checked')) continue;
        changed = form.querySelector('input[name="' + name + '"][value="' + seat + '"]');
        changed.checked = true;
      }
      if (changed) changed.dispatchEvent(new Event("change", { bubbles: true }));
    }
    // A phone's number keypad has no minus sign: this one puts it in or takes it out.
    const sign = event.target.closest("[data-sign-for]");
    if (sign) {
      const box = document.getElementById(sign.dataset.signFor);
      const value = box.value.trim();
      box.value = value.startsWith("-") || value.startsWith("−") ? value.slice(1) : "-" + value;
      box.dispatchEvent(new Event("input", { bubbles: true }));
      box.dispatchEvent(new Event("change", { bubbles: true }));
    }
  });

  // --- The screen kept on while a game can be entered (Wake Lock, where the phone
  // has it): it slept between deals. Let go when the game ends or the box is
  // unticked (remembered here); the phone lets go while the page is hidden.
  const awake = document.getElementById("keep-awake");
  if (awake && navigator.wakeLock) {
    let lock = null; // the lock, asked for or held
    const hold = () => {
      const held = lock;
      if (awake.checked && !document.hidden && anyEntryForm()) {
        if (held) return;
        const asked = (lock = navigator.wakeLock.request("screen").then((taken) => {
          if (lock !== asked) return taken.release();
          taken.onrelease = () => lock === asked && (lock = null);
          return taken;
        }));
        asked.catch(() => lock === asked && (lock = null));
      } else if (held) {
        lock = null;
        held.then((taken) => taken && taken.release()).catch(() => {});
      }
    };
    try {
      awake.checked = localStorage.getItem("scorekeeper-awake") !== "off";
    } catch (error) {
      // no storage: ticked
    }
    awake.closest("[hidden]").hidden = false;
    awake.addEventListener("change", () => {
      try {
        localStorage.setItem("scorekeeper-awake", awake.checked ? "on" : "off");
      } catch (error) {
        // not remembered
      }
      hold();
    });
    document.addEventListener("visibilitychange", hold);
    document.addEventListener("htmx:afterSettle", hold);
    hold();
  }
})();
