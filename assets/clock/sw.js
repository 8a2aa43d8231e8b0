// The referee's clock offline: the page survives a reload with the network gone.
// Registered by page.js with scope /t/ (the server sends Service-Worker-Allowed: /t/). It only
// answers for the clock pages (/t/{id}/games/{gid}/clock, /t/{id}/matches/{mid}/clock) and the
// files they load; every other request of the tournament pages goes to the network untouched.
// Network first (an open network always gives the server's current start and forms), the cache
// when the network fails; POSTs (the saves) are never answered from here, page.js queues them.
"use strict";
var CACHE = "tengen-clock-v1";
var FILES = ["/assets/style.css", "/assets/clock/clock.css", "/assets/clock/clock.js",
             "/assets/clock/page.js", "/assets/clock/voice-zh.wav", "/assets/clock/voice-en.wav"];
var PAGE = /^\/t\/\d+\/(games|matches)\/\d+\/clock$/;

self.addEventListener("install", function (e) {
  e.waitUntil(caches.open(CACHE).then(function (c) { return c.addAll(FILES); })
    .then(function () { return self.skipWaiting(); }));
});
self.addEventListener("activate", function (e) {
  e.waitUntil(self.clients.claim());
});

function mine(url) {
  return url.origin === self.location.origin &&
    (PAGE.test(url.pathname) || FILES.indexOf(url.pathname) >= 0);
}

self.addEventListener("fetch", function (e) {
  var req = e.request;
  if (req.method !== "GET" || !mine(new URL(req.url))) return;
  e.respondWith(fetch(req).then(function (r) {
    // A login redirect or an error page is not the clock: keep the last good copy.
    if (r.ok && !r.redirected && r.type === "basic") {
      var copy = r.clone();
      caches.open(CACHE).then(function (c) { return c.put(req, copy); });
    }
    return r;
  }, function (err) {
    return caches.open(CACHE).then(function (c) { return c.match(req); })
      .then(function (hit) { if (hit) return hit; throw err; });
  }));
});
