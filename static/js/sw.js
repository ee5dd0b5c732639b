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
    event.respondWith(
      fetch(request)
        .then((response) => {
          if (GAME_PAGE.test(url.pathname) && response.ok && !response.redirected) {
            const copy = response.clone();
            caches.open(PAGES).then((cache) => cache.put(url.pathname, copy));
          }
          // The front answering for an app that is restarting: the kept copy, if any.
          if (UNREACHABLE.includes(response.status)) {
            return caches
              .open(PAGES)
              .then((cache) => cache.match(url.pathname))
              .then((copy) => copy || response);
          }
          return response;
        })
        .catch(kept)
    );
  }
});
