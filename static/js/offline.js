/* A game page without a network: the page and its files kept on the phone,
 * "Offline — last updated 20:14", deals entered meanwhile kept (IndexedDB) and
 * sent in order when the network is back, each with its key, and a
 * half-entered deal kept until it is saved or cleared. Builds on entry.js. */
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

  // The kept deals' list is drawn only when this changes: a tap as it is drawn is lost.
  const shown = (items) => JSON.stringify(items.map((i) => [i.key, i.status, i.number, i.answer]));

  if (typeof module === "object" && module.exports) {
    module.exports = { inOrder, renumbered, shown };
    return;
  }

  const page = document.body;
  const shared = window.Scorekeeper || {};
  const game = document.getElementById("game-body");
  if (!shared.entry || !game) return;
  const { PAGES, STATIC } = shared;
  const { config, text, fill, checkEntry, entryForm, giveKey, newKey } = shared.entry;
  const lang = document.documentElement.lang || undefined;
  const gameId = game.dataset.game;

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
    // Marked: its answer sets no cookie (scorekeeper/middleware.py).
    const request = new Request(location.pathname, {
      cache: justLoaded ? "force-cache" : "default",
      headers: { "X-Kept-Copy": "1" },
    });
    caches.open(PAGES).then((cache) => cache.add(request)).catch(() => {});
  }
  function keepAssets() {
    if (!("caches" in window)) return;
    const sources = new Set(
      Array.from(document.querySelectorAll('link[rel="stylesheet"][href], script[src]'), (el) => el.href || el.src)
    );
    const assets = Array.from(sources, (source) => new Request(source, { cache: "force-cache" })).filter(
      (request) => new URL(request.url).pathname.startsWith("/static/")
    );
    caches.open(STATIC).then((cache) => cache.addAll(assets)).catch(() => {});
    // htmx too, which app.js loads only once the page has (named on its script): kept
    // once it has come, as asked for sooner it could come down twice on a slow phone.
    const later = document.querySelector("script[data-htmx]");
    if (later && shared.withHtmx) {
      const htmx = new Request(new URL(later.dataset.htmx, location.href).href, { cache: "force-cache" });
      shared.withHtmx(() => caches.open(STATIC).then((cache) => cache.add(htmx))).catch(() => {});
    }
  }
  // Work the person does not wait for waits for the phone's idle time, so the
  // page can be tapped as soon as it is drawn.
  const whenIdle = (work) =>
    window.requestIdleCallback ? requestIdleCallback(work, { timeout: 1000 }) : setTimeout(work, 200);
  if (navigator.onLine && !(navigator.serviceWorker && navigator.serviceWorker.controller)) {
    // First visit: the worker was not looking after this page yet.
    whenIdle(() => {
      keepPage(true);
      keepAssets();
    });
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
  // No network, or the service worker's kept copy after a wait for one (sw.js).
  if (!navigator.onLine || page.hasAttribute("data-kept-copy")) markOffline();
  window.addEventListener("offline", markOffline);
  window.addEventListener("online", () => {
    hideOffline();
    sendQueue();
  });

  // --- The queue of deals kept on the phone

  const store = shared.store; // the deals kept on this phone (app.js)
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
      // Who kept it: sent by them alone (a phone passed to another person).
      by: config.me || null,
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

  const drawn = new WeakMap();
  function showQueue() {
    return queued().then((items) => {
      const section = document.getElementById("waiting");
      const list = document.getElementById("waiting-list");
      if (!section || !list) return;
      const now = shown(items);
      if (drawn.get(list) === now) return;
      drawn.set(list, now);
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
        } else if (item.status === "not_yours") {
          status.textContent = fill(text.keptBy, { name: (item.by || {}).name || "?" });
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
  let again = false; // asked while sending (a choice just made): once more, not at the next retry
  function sendQueue() {
    if (!navigator.onLine) return Promise.resolve();
    if (sending) return Promise.resolve((again = true));
    sending = true;
    const run = () =>
      sendInOrder().finally(() => {
        sending = false;
        if (again) {
          again = false;
          sendQueue();
        }
      });
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
      // Another person's, kept before they signed out (an old tab): theirs to send.
      const answer = notMine(item) ? { status: "not_yours", number: item.number } : await post(item);
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

  const notMine = (item) => !!(item.by && config.me && item.by.id !== config.me.id);

  function post(item) {
    const body = new URLSearchParams(item.fields);
    body.set("key", item.key);
    if (item.by) body.set("kept_by", String(item.by.id));
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

  // The person's own: another signed in on this phone never meets it.
  const draftSlot = "scorekeeper-draft-" + (config.me ? config.me.id + "-" : "") + gameId;
  const DRAFTED = /^(hearts|points|taker)-/;

  function keepDraft(form) {
    // A count the phone filled in as the rest is worked out again when the draft is back.
    const filled = "hearts-" + form.dataset.filled;
    const fields = Array.from(new FormData(form).entries()).filter(
      ([name, value]) => DRAFTED.test(name) && value !== "" && name !== filled
    );
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
    if (draft.mode === form.elements.mode.value) {
      fillIn(form, draft.fields);
    } else {
      // The entry in the draft's mode; a message the page was showing stays
      // (an entry fetched alone clears the messages, as after a save).
      const shown = document.getElementById("messages");
      const said = shown ? shown.innerHTML : "";
      const url = location.pathname + "?mode=" + encodeURIComponent(draft.mode);
      window.Scorekeeper.withHtmx((htmx) => htmx.ajax("GET", url, { target: "#entry", swap: "outerHTML" })).then(() => {
        const messages = document.getElementById("messages");
        if (messages && said) messages.innerHTML = said;
        const swapped = entryForm();
        if (swapped) fillIn(swapped, draft.fields);
      });
    }
  }

  // Once a tap's tally is shown (a tap says "input" and "change": kept once,
  // and the phone's storage is written after the tally, not before it).
  let draftDue = null;
  function keepDraftSoon(event) {
    const form = event.target.closest && event.target.closest("#entry form[hx-post]");
    if (!form || draftDue) return;
    draftDue = true;
    whenIdle(() => {
      draftDue = null;
      keepDraft(form);
    });
  }
  game.addEventListener("change", keepDraftSoon);
  game.addEventListener("input", keepDraftSoon);
  // Left before idle time (a reload, another app): the last tap is kept too.
  window.addEventListener("pagehide", () => draftDue && keepDraft(game.querySelector("#entry form[hx-post]")));
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

  // No network under a poll or a save, or the front answering for an app that is
  // restarting (an upgrade): the save is kept; its key makes a resend safe.
  function unreachable(event) {
    const elt = event.detail.elt;
    if (isPoll(event)) {
      markOffline();
    } else if (elt.matches && elt.matches("#entry form[hx-post]")) {
      markOffline();
      keepDeal(elt);
    }
  }
  page.addEventListener("htmx:sendError", unreachable);
  page.addEventListener("htmx:responseError", (event) => {
    if ([502, 503, 504].includes(event.detail.xhr.status)) unreachable(event);
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

  // Saved: the new totals and who leads where the person looks, the next entry under them.
  // Only a save's own answer says so: a conflict stays where it is, to be chosen on, and
  // kept deals sent later move nothing.
  page.addEventListener("dealSaved", () => {
    const live = document.getElementById("live");
    if (live) live.scrollIntoView({ block: "start" });
  });
  page.addEventListener("dealRecorded", () => {
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
  }, Number(game.dataset.retry) || 15000);
})();
