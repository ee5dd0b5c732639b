/* The page's script, on every page (pages work without it): the service
 * worker, signing out, a start form's key, links to pass on. Where there is a
 * deal to enter, entry.js shows its check as it is tapped; on a game page,
 * offline.js keeps the page and the deals entered without a network. */
(function () {
  "use strict";

  const page = document.body;

  // --- htmx, once the page has loaded: nothing a first tap needs waits for
  // it (a form sent before it is there goes as without script). Not sooner:
  // htmx sets itself up at DOMContentLoaded, or at once when the page is
  // complete, and would miss the moment between. What needs htmx at start-up
  // waits for it through Scorekeeper.withHtmx.
  const htmxSource = document.currentScript && document.currentScript.dataset.htmx;
  const htmxReady = new Promise((resolve) => {
    if (window.htmx) return resolve(window.htmx);
    document.addEventListener("htmx:load", () => resolve(window.htmx), { once: true });
  });
  const loadHtmx = () => {
    if (window.htmx || !htmxSource) return;
    const script = document.createElement("script");
    script.src = htmxSource;
    document.head.append(script);
  };
  if (document.readyState === "complete") loadHtmx();
  else window.addEventListener("load", loadHtmx, { once: true });
  // As sw.js names them (the OFFLINE_CACHE_VERSION setting); offline.js keeps pages in them.
  const PAGES = "sk-pages-" + page.dataset.cacheVersion;
  const STATIC = "sk-static-" + page.dataset.cacheVersion;
  window.Scorekeeper = Object.assign(window.Scorekeeper || {}, {
    PAGES: PAGES,
    STATIC: STATIC,
    withHtmx: (work) => htmxReady.then(work),
  });

  // --- Service worker

  const worker = page.dataset.serviceWorker;
  if (worker && "serviceWorker" in navigator) {
    navigator.serviceWorker.register(worker, { scope: "/" }).catch(() => {});
  }

  // --- The deals kept on this phone to send (offline.js keeps and sends them)

  function store(mode, action) {
    return new Promise((resolve, reject) => {
      const open = indexedDB.open("scorekeeper", 1);
      open.onupgradeneeded = () => open.result.createObjectStore("deals", { keyPath: "key" });
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        const tx = db.transaction("deals", mode);
        const request = action(tx.objectStore("deals"));
        tx.oncomplete = () => resolve(request && request.result, db.close());
        tx.onerror = () => reject(tx.error);
      };
    });
  }
  window.Scorekeeper.store = store;

  // --- Signing out leaves nothing of the person here (asked first if deals wait).
  function forgetEverything() {
    try {
      Object.keys(localStorage).forEach((key) => key.startsWith("scorekeeper-draft-") && localStorage.removeItem(key));
    } catch (error) {
      // no storage: no drafts
    }
    const gone = new Promise((done) => {
      const request = indexedDB.deleteDatabase("scorekeeper");
      request.onsuccess = request.onerror = request.onblocked = done;
    });
    return Promise.all([gone, "caches" in window && caches.delete(PAGES)]).catch(() => {});
  }
  function askFirst(form, items, signOut) {
    const dialog = document.createElement("dialog");
    const said = document.createElement("p");
    const actions = document.createElement("div");
    const send = document.createElement("a");
    const away = document.createElement("button");
    dialog.className = "ask";
    dialog.setAttribute("aria-labelledby", (said.id = "ask-h"));
    said.textContent = form.dataset.waiting;
    actions.className = "actions";
    send.className = "button";
    send.href = items[0].url.replace(/deals\/queued\/$/, ""); // sent from its game
    send.textContent = form.dataset.sendFirst;
    away.type = "button";
    away.textContent = form.dataset.throwAway;
    away.onclick = signOut;
    actions.append(send, away);
    dialog.append(said, actions);
    document.body.append(dialog);
    dialog.showModal();
  }
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.matches("[data-sign-out]") || !("indexedDB" in window)) return;
    event.preventDefault();
    const signOut = () => forgetEverything().then(() => form.submit());
    store("readonly", (s) => s.getAll())
      .catch(() => [])
      .then((items) => (items && items.length ? askFirst(form, items, signOut) : signOut()));
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

  // A part with no htmx in it is emptied before htmx walks each element it removes.
  function emptyPlainParts(event) {
    const target = event.detail.target;
    if (!event.detail.shouldSwap || !target || !target.querySelectorAll) return;
    const parts = [...target.querySelectorAll("[data-plain]")];
    if (target.matches("[data-plain]")) parts.push(target);
    parts.forEach((part) => part.replaceChildren());
  }
  page.addEventListener("htmx:beforeSwap", emptyPlainParts);
  page.addEventListener("htmx:oobBeforeSwap", emptyPlainParts);
  // A poll's answer for a scoreboard a save's answer replaced meanwhile is dropped: its
  // history had nowhere to go (htmx:oobErrorNoTarget). Heard on the element itself,
  // since an event on an element no longer on the page reaches nothing above it.
  document.addEventListener("htmx:load", (event) => {
    const live = event.target.closest("#live") || event.target.querySelector("#live");
    if (live) {
      live.addEventListener("htmx:beforeSwap", (swap) => {
        if (!live.isConnected) swap.detail.shouldSwap = false;
      });
    }
  });

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
})();
