/* The page's script, by section; all of it an addition (pages work without it).
 * Offline, deals wait on the phone (IndexedDB) and go in order, each keyed. */
(function () {
  "use strict";

  // --- The queue's order and numbers, as plain data (tests/js/queue.test.mjs)
  const inOrder = (items, game) =>
    items.filter((i) => i.game === game).sort((a, b) => a.number - b.number || a.created - b.created);

  // `sent` went in as deal `number`: those kept after it move on as far.
  function renumbered(items, sent, number) {
    const shift = number ? number - sent.number : 0;
    return shift
      ? items
          .filter((i) => i.key !== sent.key && i.game === sent.game &&
            (i.number > sent.number || (i.number === sent.number && i.created > sent.created)))
          .map((i) => ({ ...i, number: i.number + shift }))
      : [];
  }

  if (typeof module === "object" && module.exports) {
    module.exports = { inOrder, renumbered };
    return;
  }

  const page = document.body;
  // As sw.js names them (the OFFLINE_CACHE_VERSION setting).
  const PAGES = "sk-pages-" + page.dataset.cacheVersion;
  const STATIC = "sk-static-" + page.dataset.cacheVersion;

  // --- Service worker

  const worker = page.dataset.serviceWorker;
  if (worker && "serviceWorker" in navigator) {
    navigator.serviceWorker.register(worker, { scope: "/" }).catch(() => {});
  }

  // Signing out: the pages kept on this phone go too.
  document.addEventListener("submit", (event) => {
    if (event.target.matches('form[action$="/accounts/logout/"]') && "caches" in window) {
      caches.delete(PAGES);
    }
  });

  // A New game form reached with Back keeps the key it was sent with (the
  // worker fetched it anew, with a new one): sent again, it opens that game.
  const startForm = document.querySelector("form[data-start-key]");
  if (startForm && "sessionStorage" in window) {
    const slot = "start-key:" + location.pathname;
    const arrival = (performance.getEntriesByType("navigation")[0] || {}).type;
    const sent = sessionStorage.getItem(slot);
    if (sent && arrival === "back_forward") startForm.elements.key.value = sent;
    startForm.addEventListener("submit", () => sessionStorage.setItem(slot, startForm.elements.key.value));
  }

  // --- A link to pass on: copied, or sent with the phone's own share sheet

  document.querySelectorAll("[data-copy]").forEach((button) => (button.hidden = !navigator.clipboard));
  document.querySelectorAll("[data-share]").forEach((button) => (button.hidden = !navigator.share));
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-copy], [data-share]");
    const field = button && document.getElementById(button.dataset.copy || button.dataset.share);
    if (!field) return;
    if ("copy" in button.dataset) {
      navigator.clipboard.writeText(field.value).then(
        () => {
          const said = button.textContent;
          button.textContent = button.dataset.copied;
          setTimeout(() => (button.textContent = said), 2000);
        },
        () => field.select() // not allowed: selected, for the phone's own Copy
      );
    } else {
      navigator.share({ url: field.value }).catch(() => {}); // closed without sharing
    }
  });

  // --- The check of an entry, on the phone, as it is tapped

  const holder = document.querySelector("[data-phone]");
  if (!holder || !window.ScorekeeperCheck) return;
  const config = JSON.parse(holder.dataset.phone || "{}");
  const text = config.text || {};
  const checker = window.ScorekeeperCheck;
  const fill = checker.fill;
  const lang = document.documentElement.lang || undefined;

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
    area.querySelectorAll(":scope > .tally").forEach((el) => el.remove());
    said.replaceChildren();
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
    const tally = element("p", "tally");
    tally.setAttribute("aria-live", "polite");
    const [before, after] = text.counted.split("{counted}");
    tally.append(before, element("strong", "", String(result.counted)), fill(after, { total: result.total }));
    area.prepend(tally);
    if (result.valid) {
      const raw = config.names.map((name, seat) => name + " " + result.raw[seat]).join(", ");
      parts.push(element("p", "ok", (result.moonText ? text.addsUpCards : text.addsUp) + " " + raw + "."));
      if (result.moonText) parts.push(element("p", "moon-note", "☾ " + result.moonText));
      if (!navigator.onLine && text.keptWhenSaved) parts.push(element("p", "kept-note muted", text.keptWhenSaved));
    } else {
      const list = element("ul", "problems");
      for (const problem of result.problems) list.append(element("li", "", problem));
      parts.push(list);
    }
    said.append(...parts);
    area.querySelectorAll(".save").forEach((button) => (button.disabled = !result.valid));
  }

  document.addEventListener("change", entryChanged);
  document.addEventListener("input", entryChanged);
  function entryChanged(event) {
    const form = event.target.closest && event.target.closest("#entry form");
    if (!form || !event.target.closest(".entry-fields")) return;
    // A count the person taps is theirs, even where the phone had filled one in.
    if (form.dataset.filled !== undefined && event.target.name === "hearts-" + form.dataset.filled) {
      delete form.dataset.filled;
    }
    checkEntry(form);
  }

  function checkOnArrival(form) {
    // A refusal the server just gave stays until the entry changes.
    if (form && !form.querySelector("#entry-said .problems[role=alert]")) checkEntry(form);
  }
  checkOnArrival(anyEntryForm());
  document.body.addEventListener("htmx:load", (event) => {
    const part = event.target;
    const form = part.matches && part.matches("#entry") ? part.querySelector("form") : null;
    if (form) checkOnArrival(form);
  });

  const game = document.getElementById("game-body");
  if (!game) return;
  const gameId = game.dataset.game;

  function newKey() {
    if (crypto.randomUUID) return crypto.randomUUID();
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  function csrfToken() {
    try {
      return JSON.parse(page.getAttribute("hx-headers"))["X-CSRFToken"];
    } catch (error) {
      return "";
    }
  }

  // --- Keeping this page for offline use

  // "force-cache": what the browser has just loaded, not a second download.
  function keepPage(justLoaded) {
    if (!("caches" in window) || !navigator.onLine) return;
    const request = new Request(location.pathname, { cache: justLoaded ? "force-cache" : "default" });
    caches.open(PAGES).then((cache) => cache.add(request)).catch(() => {});
  }
  function keepAssets() {
    if (!("caches" in window)) return;
    const assets = Array.from(
      document.querySelectorAll('link[rel="stylesheet"][href], script[src]'),
      (el) => new Request(el.href || el.src, { cache: "force-cache" })
    ).filter((request) => new URL(request.url).pathname.startsWith("/static/"));
    caches.open(STATIC).then((cache) => cache.addAll(assets)).catch(() => {});
  }
  if (navigator.onLine && !(navigator.serviceWorker && navigator.serviceWorker.controller)) {
    // First visit: the worker was not looking after this page yet.
    keepPage(true);
    keepAssets();
  }

  // --- "Offline — last updated 20:14"

  const note = document.getElementById("offline-note");
  let lastUpdated = new Date();
  let polledSinceLoad = false;

  function showOffline(since) {
    const time = since.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    note.textContent = fill(text.offline, { time: time });
    note.hidden = false;
    game.classList.add("is-offline");
  }
  function hideOffline() {
    note.hidden = true;
    game.classList.remove("is-offline");
  }
  function keptAt() {
    // When this page came from the phone's copy: the time that copy was fetched.
    if (!("caches" in window)) return Promise.resolve(lastUpdated);
    return caches
      .match(location.pathname)
      .then((kept) => {
        const date = kept && kept.headers.get("Date");
        return date ? new Date(date) : lastUpdated;
      })
      .catch(() => lastUpdated);
  }
  function markOffline() {
    if (polledSinceLoad) showOffline(lastUpdated);
    else keptAt().then(showOffline);
  }
  if (!navigator.onLine) markOffline();
  window.addEventListener("offline", markOffline);
  window.addEventListener("online", () => {
    hideOffline();
    sendQueue();
  });

  // --- Entry: the form's own key, the phone's own check

  function entryForm() {
    return document.querySelector("#entry form[hx-post]");
  }
  function giveKey(form) {
    const key = form && form.querySelector('input[name="key"]');
    if (key && !key.value) key.value = newKey();
  }
  giveKey(entryForm());

  // --- The queue of deals kept on the phone

  function openDb() {
    return new Promise((resolve, reject) => {
      const request = indexedDB.open("scorekeeper", 1);
      request.onupgradeneeded = () => request.result.createObjectStore("deals", { keyPath: "key" });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }
  function store(mode, action) {
    return openDb().then(
      (db) =>
        new Promise((resolve, reject) => {
          const tx = db.transaction("deals", mode);
          const request = action(tx.objectStore("deals"));
          tx.oncomplete = () => {
            db.close();
            resolve(request ? request.result : undefined);
          };
          tx.onerror = () => reject(tx.error);
        })
    );
  }
  function queued() {
    return store("readonly", (s) => s.getAll()).then((items) => inOrder(items, gameId));
  }
  const save = (item) => store("readwrite", (s) => s.put(item));
  const forget = (key) => store("readwrite", (s) => s.delete(key));

  function keepDeal(form) {
    if (!checkEntry(form)) return Promise.resolve(false);
    giveKey(form);
    const fields = Array.from(new FormData(form).entries()).filter(
      ([name]) => name !== "csrfmiddlewaretoken" && name !== "key" && name !== "number"
    );
    const number = Number(form.elements.number.value);
    const item = {
      key: form.elements.key.value,
      game: gameId,
      url: game.dataset.queueUrl,
      number: number,
      mode: form.elements.mode.value,
      fields: fields,
      status: "waiting",
      created: Date.now(),
    };
    return save(item).then(() => {
      forgetDraft();
      nextBlankDeal(form, number + 1);
      return showQueue().then(() => true);
    });
  }

  function nextBlankDeal(form, number) {
    form.reset();
    delete form.dataset.filled;
    form.elements.key.value = newKey();
    form.querySelectorAll(".rest").forEach((hint) => (hint.textContent = ""));
    form.querySelectorAll("#entry-check .tally, #entry-check .errors, #entry-said > *, #entry-taken > *").forEach((el) => el.remove());
    // A blank entry never adds up: nothing to save until it does.
    const saveButton = form.querySelector(".save");
    if (saveButton) saveButton.disabled = true;
    showDealNumber(form, number);
  }

  function showDealNumber(form, number) {
    form.elements.number.value = String(number);
    const heading = document.getElementById("entry-h");
    if (heading) heading.textContent = fill(text.enterDeal, { number: number });
    const button = form.querySelector(".save");
    if (button) button.textContent = fill(text.saveDeal, { number: number });
    const coming = (config.coming || {})[number];
    const banner = document.getElementById("coming-h");
    if (coming && banner) {
      banner.textContent = coming.turn;
      const box = banner.parentElement.querySelector(".passes-box");
      const none = banner.parentElement.querySelector(".no-pass");
      const passes = banner.parentElement.querySelector(".passes");
      if (box && none && passes) {
        box.hidden = !coming.passes.length;
        none.hidden = !!coming.passes.length;
        box.querySelector("summary").textContent = coming.passing;
        none.textContent = coming.passing;
        passes.replaceChildren(
          ...coming.passes.map(([giver, receiver]) => {
            const li = document.createElement("li");
            li.textContent = giver + " → " + receiver;
            return li;
          })
        );
      }
    }
  }

  function summary(item) {
    const names = config.names;
    const values = Object.fromEntries(item.fields);
    const cards = names.map(() => []);
    for (const code of config.order) {
      const taker = values["taker-" + code];
      if (taker !== undefined && taker !== "") cards[Number(taker)].push(config.cards[code].label);
    }
    return names
      .map((name, seat) => {
        if (item.mode === "points") return name + " " + values["points-" + seat];
        const parts = [];
        if (item.mode === "counts") parts.push(values["hearts-" + seat] + "♥");
        return [name].concat(parts, cards[seat]).join(" ");
      })
      .join(", ");
  }

  function button(label, action) {
    const el = document.createElement("button");
    el.type = "button";
    el.textContent = label;
    el.addEventListener("click", action);
    return el;
  }

  function showQueue() {
    return queued().then((items) => {
      const section = document.getElementById("waiting");
      const list = document.getElementById("waiting-list");
      if (!section || !list) return;
      list.replaceChildren();
      section.hidden = items.length === 0;
      for (const item of items) {
        const li = document.createElement("li");
        li.className = "waiting-deal " + item.status;
        li.dataset.key = item.key;
        const head = document.createElement("p");
        const strong = document.createElement("strong");
        strong.textContent = fill(text.deal, { number: item.number });
        head.append(strong, " — ");
        const status = document.createElement("span");
        status.className = "status";
        if (item.status === "refused") {
          status.textContent = fill(text.refused, { reason: (item.answer.problems || []).join("; ") });
        } else if (item.status === "conflict") {
          status.textContent = item.answer.by ? fill(text.conflict, { by: item.answer.by }) : item.answer.message;
        } else {
          status.textContent = text.waiting;
        }
        head.append(status);
        const what = document.createElement("p");
        what.className = "small";
        what.textContent = summary(item);
        li.append(head, what);
        if (item.status === "conflict") {
          const both = document.createElement("ul");
          for (const [template, scores] of [[text.theirs, item.answer.theirs], [text.yours, item.answer.yours]]) {
            if (!scores) continue;
            const line = document.createElement("li");
            line.textContent = fill(template, { scores: scores });
            both.appendChild(line);
          }
          const choices = document.createElement("div");
          choices.className = "choices";
          choices.append(
            button(text.keepTheirs, () => resolve(item, "keep")),
            button(text.replace, () => resolve(item, "replace")),
            button(text.next, () => resolve(item, "next"))
          );
          li.append(both, choices);
        } else if (item.status === "refused") {
          const choices = document.createElement("div");
          choices.className = "choices";
          choices.append(button(text.edit, () => editKept(item)), button(text.discard, () => resolve(item, "keep")));
          li.append(choices);
        }
        list.appendChild(li);
      }
    });
  }

  function resolve(item, choice) {
    if (choice === "keep") return forget(item.key).then(showQueue).then(sendQueue);
    item.status = "waiting";
    item.resolve = choice;
    if (choice === "replace") item.version = item.answer.version;
    return save(item).then(showQueue).then(sendQueue);
  }

  function editKept(item) {
    // Back into the form, to correct and save again.
    const form = entryForm();
    if (!form) return;
    const refill = () => {
      const current = entryForm();
      for (const [name, value] of item.fields) {
        const fields = current.querySelectorAll('[name="' + name + '"]');
        fields.forEach((field) => {
          if (field.type === "radio") field.checked = field.value === value;
          else field.value = value;
        });
      }
      current.elements.key.value = item.key;
      showDealNumber(current, item.number);
      forget(item.key).then(showQueue);
      delete current.dataset.filled;
      checkEntry(current);
    };
    if (form.elements.mode.value === item.mode || !window.htmx) refill();
    else window.htmx.ajax("GET", location.pathname + "?mode=" + item.mode, { target: "#entry", swap: "outerHTML" }).then(refill);
  }

  let sending = false;
  function sendQueue() {
    if (!navigator.onLine || sending) return Promise.resolve();
    sending = true;
    const run = () => sendInOrder().finally(() => (sending = false));
    // One tab at a time; the keys make a second sending harmless anyway.
    if (navigator.locks) return navigator.locks.request("scorekeeper-send-" + gameId, run);
    return run();
  }

  async function sendInOrder() {
    let sent = 0;
    for (;;) {
      // Read afresh each time: one recorded under another number moves those after it.
      const item = (await queued())[0];
      if (!item || item.status !== "waiting") break; // the person chooses first; later deals wait
      const answer = await post(item);
      if (answer === null) break; // no network after all: later
      if (answer.status === "recorded") {
        await forget(item.key);
        sent += 1;
        for (const later of renumbered(await queued(), item, answer.number)) await save(later);
      } else {
        item.status = answer.status;
        item.answer = answer;
        await save(item);
        sent += 1; // the table sees their deal; the form, the deal number the server expects
        break;
      }
    }
    await showQueue();
    if (sent) afterSending();
  }

  function post(item) {
    const body = new URLSearchParams(item.fields);
    body.set("key", item.key);
    body.set("number", String(item.number));
    if (item.resolve) body.set("resolve", item.resolve);
    if (item.version) body.set("version", String(item.version));
    return fetch(item.url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrfToken() },
    })
      .then((response) => {
        if ([200, 409, 422].includes(response.status)) return response.json();
        if (response.status === 403 || response.redirected) {
          return { status: "refused", problems: [text.signIn] };
        }
        return null;
      })
      .catch(() => null);
  }

  function afterSending() {
    // The scoreboard and history refresh themselves on this event.
    page.dispatchEvent(new CustomEvent("dealRecorded", { bubbles: true, detail: { queued: true } }));
    const form = entryForm();
    const pristine = form && !Array.from(form.querySelectorAll("input[type=radio]")).some((r) => r.checked) &&
      !Array.from(form.querySelectorAll('input[name^="points-"]')).some((i) => i.value);
    if (pristine && window.htmx) {
      window.htmx.ajax("GET", location.pathname + "?mode=" + form.elements.mode.value, { target: "#entry", swap: "outerHTML" });
    }
    keepPage();
  }

  // --- A half-entered deal survives a reload, a locked phone, a switch of apps

  const draftSlot = "scorekeeper-draft-" + gameId;
  const DRAFTED = /^(hearts|points|taker)-/;

  function keepDraft(form) {
    const fields = Array.from(new FormData(form).entries()).filter(([name, value]) => DRAFTED.test(name) && value !== "");
    try {
      if (fields.length) {
        localStorage.setItem(draftSlot, JSON.stringify({ number: form.elements.number.value, mode: form.elements.mode.value, fields: fields }));
      } else {
        localStorage.removeItem(draftSlot);
      }
    } catch (error) {
      // Storage full or refused (a private window): the entry just isn't kept.
    }
  }

  function forgetDraft() {
    try {
      localStorage.removeItem(draftSlot);
    } catch (error) {
      // nothing kept, nothing to forget
    }
  }

  function keptDraft() {
    try {
      return JSON.parse(localStorage.getItem(draftSlot) || "null");
    } catch (error) {
      return null;
    }
  }

  function fillIn(form, fields) {
    for (const [name, value] of fields) {
      form.querySelectorAll('[name="' + name + '"]').forEach((field) => {
        if (field.type === "radio") field.checked = field.value === value;
        else field.value = value;
      });
    }
    const last = form.querySelector(".entry-fields input");
    if (last) last.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function bringBackDraft() {
    const form = entryForm();
    const draft = keptDraft();
    if (!form || !draft) return;
    if (draft.number !== form.elements.number.value) {
      forgetDraft(); // that deal was saved meanwhile (here or on another phone)
      return;
    }
    if (draft.mode === form.elements.mode.value || !window.htmx) {
      fillIn(form, draft.fields);
    } else {
      // The entry in the draft's mode; a message the page was showing stays
      // (an entry fetched alone clears the messages, as after a save).
      const shown = document.getElementById("messages");
      const said = shown ? shown.innerHTML : "";
      const url = location.pathname + "?mode=" + encodeURIComponent(draft.mode);
      window.htmx.ajax("GET", url, { target: "#entry", swap: "outerHTML" }).then(() => {
        const messages = document.getElementById("messages");
        if (messages && said) messages.innerHTML = said;
        const swapped = entryForm();
        if (swapped) fillIn(swapped, draft.fields);
      });
    }
  }

  game.addEventListener("change", (event) => {
    const form = event.target.closest && event.target.closest("#entry form[hx-post]");
    if (form) keepDraft(form);
  });
  game.addEventListener("input", (event) => {
    const form = event.target.closest && event.target.closest("#entry form[hx-post]");
    if (form) keepDraft(form);
  });
  page.addEventListener("dealRecorded", forgetDraft);
  game.addEventListener("click", (event) => {
    if (!event.target.closest("[data-clear]")) return;
    const form = event.target.closest("form");
    forgetDraft();
    if (window.htmx) {
      window.htmx.ajax("GET", location.pathname + "?mode=" + form.elements.mode.value, { target: "#entry", swap: "outerHTML" });
    }
  });

  // --- Hooks into htmx

  page.addEventListener("htmx:load", (event) => {
    const form = event.target.querySelector && event.target.querySelector("#entry form[hx-post]");
    giveKey(form || (event.target.matches && event.target.matches("#entry form[hx-post]") ? event.target : null));
  });

  page.addEventListener("htmx:beforeRequest", (event) => {
    if (navigator.onLine) return;
    const elt = event.detail.elt;
    const form = elt.closest && elt.closest("#entry form[hx-post]");
    if (isPoll(event)) {
      event.preventDefault(); // nothing to ask for without a network
    } else if (form && elt === form) {
      event.preventDefault();
      keepDeal(form);
    }
  });

  page.addEventListener("htmx:sendError", (event) => {
    const elt = event.detail.elt;
    if (isPoll(event)) {
      markOffline();
    } else if (elt.matches && elt.matches("#entry form[hx-post]")) {
      // The network failed under the save: keep it; its key makes a resend safe.
      markOffline();
      keepDeal(elt);
    }
  });

  // A poll is known by its address: its element may be swapped out by then.
  function isPoll(event) {
    const info = event.detail.pathInfo || {};
    return (info.requestPath || "").split("?")[0].endsWith("/live/");
  }

  let lastVersion = null;
  page.addEventListener("htmx:afterRequest", (event) => {
    if (isPoll(event) && event.detail.successful) {
      lastUpdated = new Date();
      polledSinceLoad = true;
      hideOffline();
      // Keep a fresh copy of the page only when the game moved on.
      const version = event.detail.xhr && event.detail.xhr.getResponseHeader("ETag");
      if (version && lastVersion !== null && version !== lastVersion) keepPage();
      if (version) lastVersion = version;
    }
  });

  // Controls that need this script are shown by it, also in swapped-in parts.
  if (window.htmx) {
    window.htmx.onLoad((part) => {
      part.querySelectorAll("[data-rest], [data-sign-for], [data-clear]").forEach((control) => (control.hidden = false));
    });
  }

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

  page.addEventListener("dealRecorded", (event) => {
    // Saved: the new totals and who leads where the person looks, the next entry under them.
    // A conflict stays where it is, to be chosen on; kept deals sent later move nothing.
    const live = document.getElementById("live");
    const queued = event.detail && event.detail.queued;
    if (live && !queued && !document.querySelector("#entry-conflict .errors")) live.scrollIntoView({ block: "start" });
    if (navigator.onLine) sendQueue();
  });

  bringBackDraft();
  showQueue()
    .then(queued)
    .then((items) => {
      // A page opened again while deals wait: enter the one after them.
      const form = entryForm();
      const after = Math.max(0, ...items.map((item) => item.number)) + 1;
      if (form && items.length && Number(form.elements.number.value) < after) {
        showDealNumber(form, after);
      }
      if (navigator.onLine) sendQueue();
    });
  // A server that could not answer is asked again now and then.
  setInterval(() => {
    if (navigator.onLine && !document.getElementById("waiting").hidden) sendQueue();
  }, 15000);
})();
