// A display screen (大屏), /screen/{token}: shows one page of its lists at a time, turning
// them at the screen's pace; keeps the clock (in the event's zone, from the offset the server
// gives) and the countdown to the next round; fetches its fragment again (a conditional GET)
// on every `tengen:changed` event of assets/live.js and, whether that script runs or not,
// every 15 seconds. No inline script or style: the CSP is default-src 'self'.
(function () {
  "use strict";
  var body = document.body;
  var main = document.getElementById("screen");
  var url = body.getAttribute("data-data");
  var index = 0;
  var turn = null;
  var etag = null;
  var busy = false;

  function data() {
    return document.getElementById("screen-data");
  }

  function pages() {
    return main.querySelectorAll(".screen-page");
  }

  function show(i) {
    var p = pages();
    if (!p.length) return;
    index = ((i % p.length) + p.length) % p.length;
    for (var k = 0; k < p.length; k++) p[k].hidden = k !== index;
    body.setAttribute("data-page", String(index));
  }

  function two(n) {
    return (n < 10 ? "0" : "") + n;
  }

  function tick() {
    var d = data();
    if (!d) return;
    var offset = Number(d.getAttribute("data-offset")) || 0;
    var clock = document.getElementById("screen-clock");
    if (clock) {
      var t = new Date(Date.now() + offset * 1000);
      clock.textContent = two(t.getUTCHours()) + ":" + two(t.getUTCMinutes()) + ":" + two(t.getUTCSeconds());
    }
    var counts = main.querySelectorAll(".screen-countdown");
    for (var k = 0; k < counts.length; k++) {
      var left = Math.round((Number(counts[k].getAttribute("data-at")) - Date.now()) / 1000);
      if (left <= 0) {
        counts[k].textContent = counts[k].getAttribute("data-started");
      } else {
        var h = Math.floor(left / 3600);
        counts[k].textContent = (h > 0 ? h + ":" : "") + two(Math.floor(left / 60) % 60) + ":" + two(left % 60);
      }
    }
  }

  // The page's layout (rows and columns) and pace, from the fragment.
  function apply() {
    var d = data();
    if (!d) return;
    body.style.setProperty("--rows", d.getAttribute("data-rows"));
    body.style.setProperty("--columns", d.getAttribute("data-columns"));
    var pace = Math.max(3, Number(d.getAttribute("data-pace")) || 12);
    if (turn === null || turn.pace !== pace) {
      if (turn !== null) clearInterval(turn.id);
      turn = { pace: pace, id: setInterval(function () { show(index + 1); }, pace * 1000) };
    }
    show(index);
    tick();
  }

  function refresh() {
    if (busy || !url) return;
    busy = true;
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(url, { headers: headers, cache: "no-store", credentials: "omit" })
      .then(function (r) {
        if (r.status === 200) {
          etag = r.headers.get("ETag");
          return r.text().then(function (html) {
            main.innerHTML = html;
            apply();
          });
        }
        if (r.status === 404) {
          // Revoked: the screen goes blank rather than showing what it no longer may.
          main.textContent = "";
        }
      })
      .catch(function () {})
      .then(function () {
        busy = false;
      });
  }

  apply();
  setInterval(tick, 1000);
  document.addEventListener("tengen:changed", refresh);
  setInterval(refresh, 15000);
})();
