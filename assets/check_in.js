// The check-in desk's live part (签到): on every change of the hall's groups (`tengen:changed`
// from assets/live.js, which the desk's page loads with data-live-mode="self"; where the
// stream is refused, live.js polls and fires it), fetch the page again and put its counts and
// its list of those not checked in in place, so the desk sees phones' check-ins at once without
// a reload (and without losing what is typed in the search box). A static file: the pages' CSP allows no inline script.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.fetch || !window.DOMParser) {
    return;
  }
  function refresh() {
    fetch(window.location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) { return; }
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live");
        if (!fresh) { return; }
        // The list of those not checked in stays open or closed as the desk left it.
        var box = document.getElementById("not-yet-box");
        var open = box ? box.open : null;
        live.innerHTML = fresh.innerHTML;
        var again = document.getElementById("not-yet-box");
        if (again && open !== null) { again.open = open; }
      })
      .catch(function () { /* offline for a moment: try again at the next tick */ });
  }
  document.addEventListener("tengen:changed", refresh);
})();
