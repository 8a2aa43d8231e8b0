// The recorder's board (web::board, /t/{id}/games/{gid}/board). A tap on a point, or "pass",
// becomes an entry {client, seq, colour, at} in a queue kept in the browser's storage; the
// queue is sent in order, one entry at a time, to the move route (as the clock page sends its
// readings). The server checks each move under the event's rules: accepted, the page's board
// is replaced by the one in the answer; refused, the words of the refusal are shown and the
// entries after it are dropped (they were played on a position that does not exist). Without
// network the entries wait, drawn pale, and go when it returns ("online", and every 5 s); an
// entry the server already has (sent, but the answer was lost) is found by its client id and
// not written twice. Undo takes back an entry not yet sent, else asks the server to undo the
// last move (only its enterer may). Other devices' entries arrive by the live stream
// (live.js, data-live-mode="self": this script fetches the page again). With "press the clock
// after each move" ticked, each entry also presses the referee's clock open in another window
// of this browser (assets/clock/page.js hears the storage event).
// A relay board (web::relay_board, config "relay") also names who placed the stone: the
// recorder taps one of the four players at the board, then the point; each entry carries the
// player, and the pick is cleared after it (nothing is preselected: the player due is only
// marked, so that a move by the wrong partner is recorded as it happened, seed 003 Art. 17.7).
(function () {
  "use strict";
  var root = document.getElementById("board");
  if (!root || !window.fetch) return;
  var cfg = JSON.parse(root.getAttribute("data-config"));
  var T = cfg.text;
  var handicap = parseInt(root.getAttribute("data-handicap"), 10) || 0;
  var moveForm = document.getElementById("move-form");
  var undoForm = document.getElementById("undo-form");
  var net = document.getElementById("board-net");
  var state = { queue: [] };
  var picked = null;
  function showPick() {
    var seats = document.querySelectorAll("#seats .seat[data-player]");
    for (var i = 0; i < seats.length; i++) {
      seats[i].setAttribute("aria-pressed", seats[i].getAttribute("data-player") === picked ? "true" : "false");
    }
  }
  try {
    var kept = JSON.parse(window.localStorage.getItem(cfg.key) || "null");
    if (kept && kept.queue) state.queue = kept.queue;
  } catch (e) { /* no storage: the queue lives as long as the page */ }
  function store() {
    try { window.localStorage.setItem(cfg.key, JSON.stringify(state)); } catch (e) { /* ignored */ }
  }
  function $(id) { return document.getElementById(id); }
  function fmt(key, args) {
    return String(T[key] || key).replace(/\{(\w+)\}/g, function (_, k) { return args[k]; });
  }
  // The moves the server has, as the board on the page shows them.
  function stored() { return parseInt($("board-move-no").getAttribute("data-moves"), 10) || 0; }
  // Whose move number n is (domain::moves::colour_of): Black's handicap placements first.
  function colourOf(n) {
    var h = handicap >= 2 ? handicap : 0;
    if (n <= h) return "B";
    var odd = (n - h) % 2 === 1;
    return (h > 0) !== odd ? "B" : "W";
  }
  function say(text, kind) {
    net.textContent = text;
    net.setAttribute("data-state", kind);
  }
  function showQueue() {
    var g = $("pending");
    if (!g) return;
    while (g.firstChild) g.removeChild(g.firstChild);
    var ns = "http://www.w3.org/2000/svg";
    state.queue.forEach(function (e) {
      if (e.at === "pass") return;
      var hit = $("pt-" + e.at);
      if (!hit) return;
      var c = document.createElementNS(ns, "circle");
      var half = parseFloat(hit.getAttribute("width")) / 2;
      c.setAttribute("cx", String(parseFloat(hit.getAttribute("x")) + half));
      c.setAttribute("cy", String(parseFloat(hit.getAttribute("y")) + half));
      c.setAttribute("r", "14");
      c.setAttribute("class", "stone pending " + (e.colour === "B" ? "b" : "w"));
      g.appendChild(c);
    });
    root.setAttribute("data-queued", String(state.queue.length));
    if (state.queue.length) say(fmt("queued", { count: state.queue.length }), "queued");
  }
  // Requests that bring a board back, numbered as they are sent: an answer older than the one
  // shown (a refresh sent before a move whose answer came first) is not put in place.
  var issued = 0, applied = 0;
  function newer(token, html) {
    if (token < applied) return;
    applied = token;
    swap(html);
  }
  // Put the board of a fetched page in place.
  function swap(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("board-view");
    if (fresh) $("board-view").innerHTML = fresh.innerHTML;
    showPick();
    showQueue();
  }
  function entry(at) {
    if (cfg.relay && !picked) {
      say(T.choose, "refused");
      return;
    }
    var seq = stored() + state.queue.length + 1;
    var id = Date.now().toString(36) + "-" + Math.random().toString(36).slice(2, 10);
    var item = { client: id, seq: seq, colour: colourOf(seq), at: at };
    if (cfg.relay) {
      item.player = picked;
      picked = null;
      showPick();
    }
    state.queue.push(item);
    store();
    // The clock open beside this page presses for the side that moved (its storage event).
    var press = $("board-press");
    if (press && press.checked) {
      try {
        window.localStorage.setItem(cfg.press, JSON.stringify({ side: colourOf(seq) === "B" ? 0 : 1, id: id }));
      } catch (e) { /* no storage: no press */ }
    }
    showQueue();
    flush();
  }
  var flushing = false;
  function flush() {
    if (flushing || !state.queue.length) return;
    flushing = true;
    var item = state.queue[0], body = new URLSearchParams();
    body.set("csrf", moveForm.elements.csrf.value);
    body.set("client", item.client);
    body.set("seq", String(item.seq));
    body.set("colour", item.colour);
    body.set("at", item.at);
    if (item.player) body.set("player", item.player);
    var token = ++issued;
    fetch(moveForm.action, { method: "POST", body: body, credentials: "same-origin" })
      .then(function (r) {
        return r.text().then(function (html) {
          flushing = false;
          if (r.ok) {
            state.queue.shift();
            store();
            newer(token, html);
            if (!state.queue.length) say(T.saved, "saved");
            flush();
            return;
          }
          if (r.status >= 500) {
            // The server could not write now (a busy or unreachable database): try again later.
            say(T.retry, "queued");
            return;
          }
          var doc = new DOMParser().parseFromString(html, "text/html");
          var m = doc.querySelector(".message, .banner");
          var dropped = state.queue.length - 1;
          state.queue = [];
          store();
          refresh().then(function () {
            say(fmt("refused", { error: m ? m.textContent.trim() : String(r.status), dropped: dropped }), "refused");
          });
        });
      })
      .catch(function () {
        flushing = false;
        showQueue();
      });
  }
  function refresh() {
    var token = ++issued;
    return fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text().then(function (html) { newer(token, html); }) : null; })
      .catch(function () { /* offline: the page stays */ });
  }
  function undo() {
    if (state.queue.length > (flushing ? 1 : 0)) {
      state.queue.pop();
      store();
      showQueue();
      if (!state.queue.length) say("", "");
      return;
    }
    if (!navigator.onLine) {
      say(T.offline_undo, "refused");
      return;
    }
    var body = new URLSearchParams();
    body.set("csrf", undoForm.elements.csrf.value);
    body.set("seq", String(stored()));
    var token = ++issued;
    fetch(undoForm.action, { method: "POST", body: body, credentials: "same-origin" })
      .then(function (r) {
        return r.text().then(function (html) {
          if (r.ok) {
            newer(token, html);
            say(T.undone, "saved");
          } else {
            var doc = new DOMParser().parseFromString(html, "text/html");
            var m = doc.querySelector(".message, .banner");
            say(fmt("refused", { error: m ? m.textContent.trim() : String(r.status), dropped: 0 }), "refused");
          }
        });
      })
      .catch(function () { say(T.offline_undo, "refused"); });
  }
  root.addEventListener("click", function (e) {
    var p = e.target && e.target.getAttribute && e.target.getAttribute("data-p");
    if (p) entry(p);
    var who = e.target && e.target.getAttribute && e.target.getAttribute("data-player");
    if (who) {
      picked = picked === who ? null : who;
      showPick();
    }
  });
  $("btn-pass").addEventListener("click", function () { entry("pass"); });
  $("btn-undo").addEventListener("click", undo);
  window.addEventListener("online", flush);
  setInterval(function () { if (state.queue.length) flush(); }, 5000);
  // Another device entered a move: show it (unless entries of this one wait to be sent).
  document.addEventListener("tengen:changed", function () { if (!state.queue.length) refresh(); });
  showQueue();
  flush();
})();
