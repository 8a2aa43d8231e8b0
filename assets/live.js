// Live pages: a page whose <body> has data-live="3,4" follows those tournaments. It opens the
// server's event stream (/live?t=3,4) and, on each change, fires
// document "tengen:changed" (detail: {t: 3}); unless the body also has data-live-mode="self"
// (the page's own script re-fetches what it shows), it fetches the page again (a conditional
// GET) and puts the new <main> in place without a reload, keeping what is typed in a field,
// the focus and the scroll position. Where the stream cannot be opened or keeps failing, it
// polls the page every 15 s instead (a conditional GET on its ETag) and still fires the event.
// A static file: the pages' CSP allows no inline script.
(function () {
  "use strict";
  var body = document.body;
  var ids = (body && body.getAttribute("data-live") || "").split(",")
    .map(function (s) { return parseInt(s, 10); })
    .filter(function (n) { return n > 0; });
  if (!ids.length) {
    return;
  }
  var self = body.getAttribute("data-live-mode") === "self";
  var POLL_MS = 15000;
  // Errors in a row without the stream being open before polling takes over.
  var MAX_FAILURES = 3;
  var etag = null;
  var busy = false;
  var again = false;

  function fire(t) {
    document.dispatchEvent(new CustomEvent("tengen:changed", { detail: { t: t } }));
  }

  // Put the new page's <main> in place, keeping the reader's typing, focus and scroll.
  function swap(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.querySelector("main");
    var main = document.querySelector("main");
    if (!fresh || !main) {
      return;
    }
    var active = document.activeElement;
    var focused = active && main.contains(active) && active.name ? active.name : null;
    var start = null, end = null;
    if (focused) {
      try { start = active.selectionStart; end = active.selectionEnd; } catch (e) { /* no selection */ }
    }
    var typed = {};
    main.querySelectorAll("input[name]:not([type=hidden]), textarea[name]").forEach(function (f) {
      typed[f.name] = f.value;
    });
    var x = window.scrollX, y = window.scrollY;
    main.innerHTML = fresh.innerHTML;
    if (doc.title) {
      document.title = doc.title;
    }
    main.querySelectorAll("input[name]:not([type=hidden]), textarea[name]").forEach(function (f) {
      if (Object.prototype.hasOwnProperty.call(typed, f.name)) {
        f.value = typed[f.name];
      }
    });
    if (focused) {
      var f = main.querySelector("[name='" + focused.replace(/'/g, "") + "']");
      if (f) {
        f.focus({ preventScroll: true });
        if (start !== null) {
          try { f.setSelectionRange(start, end); } catch (e) { /* not a text field */ }
        }
      }
    }
    window.scrollTo(x, y);
  }

  // Fetch the page; `then(changed)` with whether it differs from the copy last seen.
  function fetchPage(show) {
    if (busy) {
      again = true;
      return Promise.resolve(false);
    }
    busy = true;
    var headers = { "Accept": "text/html" };
    if (etag) {
      headers["If-None-Match"] = etag;
    }
    return fetch(window.location.href, { credentials: "same-origin", cache: "no-store", headers: headers })
      .then(function (r) {
        if (r.status === 304 || !r.ok) {
          return false;
        }
        var tag = r.headers.get("ETag");
        return r.text().then(function (html) {
          var changed = !tag || tag !== etag;
          etag = tag;
          if (changed && show) {
            swap(html);
          }
          return changed;
        });
      })
      .catch(function () { return false; })
      .then(function (changed) {
        busy = false;
        if (again) {
          again = false;
          fetchPage(show);
        }
        return changed;
      });
  }

  function onChange(t) {
    fire(t);
    if (!self) {
      fetchPage(true);
    }
  }

  var polling = false;
  function poll() {
    if (polling) {
      return;
    }
    polling = true;
    window.tengenLive = "polling";
    // The copy shown now is the baseline: only a later change counts.
    fetchPage(false).then(function () {
      window.setInterval(function () {
        fetchPage(!self).then(function (changed) {
          if (changed) {
            ids.forEach(fire);
          }
        });
      }, POLL_MS);
    });
  }

  if (!window.EventSource || !window.fetch || !window.DOMParser) {
    if (window.fetch && window.DOMParser) {
      poll();
    }
    return;
  }
  var failures = 0;
  var source = new EventSource("/live?t=" + ids.join(","));
  window.tengenLive = "connecting";
  var opened = false;
  source.onopen = function () {
    failures = 0;
    window.tengenLive = "open";
    if (opened) {
      // Open again after a break: what changed meanwhile was not told.
      ids.forEach(fire);
      if (!self) {
        fetchPage(true);
      }
    }
    opened = true;
  };
  source.addEventListener("changed", function (e) {
    var t = ids[0];
    try { t = JSON.parse(e.data).t; } catch (err) { /* the first tournament */ }
    onChange(t);
  });
  source.onerror = function () {
    failures += 1;
    // A stream that closes is opened again by the browser; one that cannot be opened at all
    // (blocked, or a proxy that buffers it) turns to polling.
    if (failures >= MAX_FAILURES || source.readyState === EventSource.CLOSED) {
      source.close();
      poll();
    }
  };
})();
