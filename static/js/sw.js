/* The service worker: keeps the app's static files and the game pages the
 * person has opened, so that a game opens with no network and shows its last
 * known totals. Served from /sw.js so that it may look after every page.
 * Writes never pass through here: deals entered offline are kept by the page
 * (IndexedDB) and sent by it when the network is back. */
"use strict";

// Served with the OFFLINE_CACHE_VERSION setting in place of this value (games/views/install.py).
const VERSION = "v1";
const STATIC = "sk-static-" + VERSION;
const PAGES = "sk-pages-" + VERSION;
const OFFLINE_PAGE = "/offline/";
const GAME_PAGE = /^\/games\/\d+\/$/;
const HASHED = /\.[0-9a-f]{12}\.[a-z0-9]+$/;
const UNREACHABLE = [502, 503, 504];
// A weak signal (a venue's Wi-Fi that holds a connection and passes nothing):
// a game page kept on the phone is shown after this long without an answer,
// and the network's answer, when it comes, is kept for next time.
const NETWORK_WAIT_MS = 3500;

// The kept copy, marked so the page says it is one ("Offline — last updated …")
// although the phone believes it has a network.
const asKept = (copy) =>
  copy.text().then(
    (html) =>
      new Response(html.replace("<body", "<body data-kept-copy"), {
        status: copy.status,
        statusText: copy.statusText,
        headers: copy.headers,
      })
  );

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(PAGES)
      // Marked as a kept copy: its answer sets no cookie (scorekeeper/middleware.py), since
      // it may arrive after a sign-in gave this phone a new CSRF token.
      .then((cache) => cache.add(new Request(OFFLINE_PAGE, { headers: { "X-Kept-Copy": "1" } })))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys
            .filter((key) => key.startsWith("sk-") && key !== STATIC && key !== PAGES)
            .map((key) => caches.delete(key))
        )
      )
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;

  if (url.pathname.startsWith("/static/")) {
    event.respondWith(
      caches.open(STATIC).then((cache) => {
        const fetchAndKeep = () =>
          fetch(request).then((response) => {
            if (response.ok) cache.put(request, response.clone());
            return response;
          });
        // A hashed name (production) never changes: the kept copy is always
        // right. An unhashed one (development) may: the network first.
        if (HASHED.test(url.pathname)) {
          return cache.match(request).then((kept) => kept || fetchAndKeep());
        }
        return fetchAndKeep().catch(() => cache.match(request));
      })
    );
    return;
  }

  if (request.mode === "navigate") {
    // The network first, so the table sees the latest; the kept copy without it.
    const kept = () =>
      caches.open(PAGES).then((cache) => cache.match(url.pathname).then((copy) => copy || cache.match(OFFLINE_PAGE)));
    const network = fetch(request).then((response) => {
      if (GAME_PAGE.test(url.pathname) && response.ok && !response.redirected) {
        const copy = response.clone();
        return caches
          .open(PAGES)
          .then((cache) => cache.put(url.pathname, copy))
          .then(() => response);
      }
      // The front answering for an app that is restarting: the kept copy, if any.
      if (UNREACHABLE.includes(response.status)) {
        return caches
          .open(PAGES)
          .then((cache) => cache.match(url.pathname))
          .then((copy) => (copy ? asKept(copy) : response));
      }
      return response;
    });
    // The worker stays up until the network has answered, to keep what it says.
    event.waitUntil(network.catch(() => {}));
    if (!GAME_PAGE.test(url.pathname)) {
      event.respondWith(network.catch(kept));
      return;
    }
    event.respondWith(
      caches
        .open(PAGES)
        .then((cache) => cache.match(url.pathname))
        .then((copy) => {
          if (!copy) return network.catch(kept);
          const waited = new Promise((resolve) => {
            const timer = setTimeout(resolve, NETWORK_WAIT_MS);
            network.then(() => clearTimeout(timer), () => clearTimeout(timer));
          }).then(() => asKept(copy.clone()));
          return Promise.race([network.catch(() => copy), waited]);
        })
    );
  }
});
