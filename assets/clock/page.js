// The referee's clock page: two halves to tap, the calls shown large and spoken
// from the clips in voice-{lang}.wav, the state in localStorage (a reload continues where it
// was), saving retried while the network is gone. The arithmetic is clock.js (TengenClock).
//
// Time: performance.timeOrigin + performance.now() — monotonic within the page and anchored to
// the wall clock, so a reload continues the same count; the clock is never advanced by counting
// timer ticks (the timer only makes the page look at the time). With ?clocktest=1 the time is
// read from sessionStorage instead, set by the browser test through window.__clockTest.
(function () {
  "use strict";
  var C = window.TengenClock;
  var root = document.getElementById("clock");
  if (!root || !C) return;
  var cfg = JSON.parse(root.getAttribute("data-config"));
  var tc = cfg.setup.control;
  var T = cfg.text;
  var TEST = /[?&]clocktest=1(&|$)/.test(location.search);
  var TEST_KEY = "tengen.clock.testnow";
  var SIDES = ["black", "white"];

  function now() {
    if (TEST) return Number(sessionStorage.getItem(TEST_KEY) || "0");
    return Math.floor(performance.timeOrigin + performance.now());
  }
  function $(id) { return document.getElementById(id); }
  var P = cfg.plural || {};
  var PLURAL = window.Intl && Intl.PluralRules ? new Intl.PluralRules(cfg.lang === "zh" ? "zh-CN" : "en") : null;
  /** The catalog text `key` with each `{name}` replaced by `args[name]`; a count's text in the
   *  plural form of its number (the forms by Intl.PluralRules' category, from the catalog). */
  function fmt(key, args) {
    var s = T[key] || key, forms = P[key], names = Object.keys(args || {});
    if (forms && names.length === 1) {
      s = forms[PLURAL ? PLURAL.select(Number(args[names[0]])) : "other"] || forms.other;
    }
    Object.keys(args || {}).forEach(function (n) { s = s.split("{" + n + "}").join(String(args[n])); });
    return s;
  }
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function hms(ms) {
    var s = Math.floor(ms / 1000), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
    return (h ? h + ":" + pad(m) : String(m)) + ":" + pad(s % 60);
  }
  /** "45", "45:00", "1:05:00" → ms; null if not a time. */
  function parseFace(str) {
    var p = String(str).trim().split(":");
    if (!p.length || p.length > 3 || p.some(function (x) { return !/^\d{1,4}$/.test(x); })) return null;
    var n = p.map(Number);
    if (n.length === 1) return n[0] * 60000;
    if (n[n.length - 1] >= 60 || (n.length === 3 && n[1] >= 60)) return null;
    return n.length === 2 ? (n[0] * 60 + n[1]) * 1000 : ((n[0] * 60 + n[1]) * 60 + n[2]) * 1000;
  }
  /** The wall clock of the event's zone (cfg.zone, IANA) at `d`, whatever the device's zone;
   *  the device's own when the browser cannot convert. */
  function wall(d) {
    try {
      var parts = {};
      new Intl.DateTimeFormat("en-US", {
        timeZone: cfg.zone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit",
        hour: "2-digit", minute: "2-digit", second: "2-digit"
      }).formatToParts(d).forEach(function (p) { parts[p.type] = p.value; });
      return { y: parts.year, mo: parts.month, d: parts.day, h: parts.hour, mi: parts.minute, s: parts.second };
    } catch (e) {
      return { y: d.getFullYear(), mo: pad(d.getMonth() + 1), d: pad(d.getDate()),
               h: pad(d.getHours()), mi: pad(d.getMinutes()), s: pad(d.getSeconds()) };
    }
  }
  function localStamp(d) {
    var w = wall(d);
    return w.y + "-" + w.mo + "-" + w.d + "T" + w.h + ":" + w.mi + ":" + w.s;
  }

  // ---- state, kept in the browser's storage -------------------------------------------------
  var saveForm = $("clock-save-form");
  var timeoutForm = $("clock-timeout-form");
  function fresh() {
    return { v: 1, control: JSON.stringify(tc), start: JSON.stringify(cfg.setup.start),
             faces: [cfg.setup.start[0], cfg.setup.start[1]], running: null, since: 0, spent: 0,
             said: 0, moves: cfg.setup.moves, pause: null, breakUntil: 0, expired: null,
             log: [], queue: [] };
  }
  function load() {
    try {
      var s = JSON.parse(localStorage.getItem(cfg.key));
      if (s && s.v === 1 && s.control === JSON.stringify(tc)) return s;
    } catch (e) { /* a broken entry starts afresh */ }
    return null;
  }
  var state = load() || fresh();
  function store() {
    try { localStorage.setItem(cfg.key, JSON.stringify(state)); } catch (e) { /* full: keep running */ }
  }

  function elapsed(t) {
    if (state.running === null) return 0;
    return state.spent + (state.pause ? 0 : Math.max(0, t - state.since));
  }
  function faceNow(i, t) {
    if (state.expired === i) return null;
    return state.running === i ? C.faceAt(tc, state.faces[i], elapsed(t)) : state.faces[i];
  }

  // ---- calls: shown, logged, spoken -----------------------------------------------------------
  function callText(c) {
    switch (c.call) {
      case "sec": return fmt("call_sec", { seconds: c.n });
      case "one_minute": return T.call_one_minute;
      case "minutes_left": return fmt("call_minutes_left", { minutes: c.n });
      case "periods_left": return fmt("call_periods_left", { periods: c.n });
      case "count": return fmt("call_count", { count: c.n });
      default: return T.call_timeout;
    }
  }
  function clipsOf(c) {
    var zh = cfg.lang === "zh", n = "n" + c.n;
    switch (c.call) {
      case "sec": return [n, "sec"];
      case "one_minute": return ["one_minute"];
      case "minutes_left": return zh ? ["left", n, "minutes"] : [n, "minutes", "left"];
      case "periods_left": return zh ? ["left", n, "times"] : [n, "times", "left"];
      case "count": return [n];
      default: return ["timeout"];
    }
  }
  var audio = { ctx: null, buf: null, cursor: 0, muted: false, bytes: null };
  if (window.fetch) {
    // Fetched at once, while the network is there; decoded on the first tap (browsers start
    // sound only after a gesture).
    audio.bytes = fetch("/assets/clock/voice-" + cfg.lang + ".wav")
      .then(function (r) { return r.arrayBuffer(); }).catch(function () { return null; });
  }
  function unlockAudio() {
    var AC = window.AudioContext || window.webkitAudioContext;
    if (audio.ctx || !AC || !audio.bytes) return;
    try { audio.ctx = new AC(); } catch (e) { return; }
    audio.bytes.then(function (b) { return b && audio.ctx.decodeAudioData(b); })
      .then(function (buf) { if (buf) audio.buf = buf; }).catch(function () {});
  }
  function speak(clips) {
    if (TEST) window.__clockTest.spoken.push(clips.join(" "));
    if (audio.muted || !audio.ctx || !audio.buf) return;
    var t0 = Math.max(audio.ctx.currentTime, audio.cursor);
    clips.forEach(function (name) {
      var at = cfg.voice[name];
      if (!at) return;
      var src = audio.ctx.createBufferSource();
      src.buffer = audio.buf;
      src.connect(audio.ctx.destination);
      src.start(t0, at[0] / 1000, at[1] / 1000);
      t0 += at[1] / 1000 + 0.03;
    });
    audio.cursor = t0;
  }
  function show(text) { $("clock-call").textContent = text; }
  function announce(side, at, c) {
    var text = callText(c);
    show(text);
    state.log.push({ side: side, move: state.moves + 1, at: at, call: c.call + (c.n === undefined ? "" : ":" + c.n), text: text });
    if (state.log.length > 300) state.log.splice(0, state.log.length - 300);
    speak(clipsOf(c));
    renderLog();
  }
  function note(kind, text) {
    state.log.push({ side: null, move: state.moves + 1, at: 0, call: kind, text: text });
    renderLog();
  }
  function renderLog() {
    var ol = $("clock-log");
    ol.textContent = "";
    state.log.slice(-60).forEach(function (e) {
      var li = document.createElement("li");
      li.setAttribute("data-call", e.call);
      if (e.side !== null) li.setAttribute("data-side", SIDES[e.side]);
      li.textContent = (e.side === null ? "" : cfg.names[e.side] + " · ") + fmt("move_no", { move: e.move }) + " · " + e.text;
      ol.appendChild(li);
    });
  }

  // ---- the faces --------------------------------------------------------------------------------
  function faceTexts(i, t) {
    var f = faceNow(i, t);
    if (f === null) return [T.expired, ""];
    var chinese = tc.kind === "chinese_byo_yomi";
    if (!f.overtime) {
      var sub = T.basic;
      if (chinese) sub += " · " + fmt("reserved_left", { minutes: f.periods });
      if (tc.kind === "byo_yomi") sub += " · " + fmt("periods_left", { periods: f.periods });
      if (tc.kind === "absolute") sub += " · " + T.absolute_no_reading;
      return [hms(f.main_ms), sub];
    }
    if (tc.kind === "canadian") return [hms(f.period_ms), fmt("moves_due", { moves: f.period_moves })];
    var len = chinese ? C.READING_MS : tc.period_secs * 1000;
    var into = 0;
    if (state.running === i) {
      var s = state.faces[i];
      into = (elapsed(t) - (s.overtime ? 0 : s.main_ms)) % len;
    }
    var label = chinese ? fmt("reserved_left", { minutes: f.periods }) : fmt("periods_left", { periods: f.periods });
    // Chinese reading counts up as the referee reads (30秒, 40秒 …); periods count down.
    var big = chinese ? String(Math.floor(into / 1000)) : String(Math.ceil((len - into) / 1000));
    return [big, T.reading + " · " + label];
  }
  function render(t) {
    [0, 1].forEach(function (i) {
      var x = faceTexts(i, t);
      $("face-" + SIDES[i]).textContent = x[0];
      $("sub-" + SIDES[i]).textContent = x[1];
      $("name-" + SIDES[i]).textContent = cfg.names[i];
      var half = $("half-" + SIDES[i]);
      half.className = half.className.replace(/ (running|waiting|expired)/g, "") +
        (state.expired === i ? " expired" : state.running === i ? " running" : " waiting");
    });
    $("clock-moves").textContent = fmt("move_no", { move: state.moves + 1 });
    var status = "";
    if (state.running === null) status = T.tap_to_start;
    else if (state.pause === "referee") status = T.paused_referee;
    else if (state.pause === "adjourn") status = T.paused_adjourn;
    else if (state.pause === "break") status = fmt("paused_break", { time: hms(Math.max(0, state.breakUntil - t)) });
    $("clock-status").textContent = status;
    $("clock-status").setAttribute("data-pause", state.pause || "");
    $("clock-timeout").hidden = state.expired === null;
    $("btn-resume").disabled = !state.pause;
    var q = state.queue.length;
    $("clock-net").textContent = q ? T.save_queued : "";
  }

  // ---- what happens -------------------------------------------------------------------------------
  function tick() {
    var t = now();
    if (state.running !== null && !state.pause && state.expired === null) {
      var i = state.running, e = elapsed(t), start = state.faces[i];
      C.callsBetween(tc, start, state.said, e).forEach(function (c) { announce(i, c[0], c[1]); });
      state.said = Math.max(state.said, e);
      if (C.faceAt(tc, start, e) === null) expire(i, t);
      store();
    }
    render(t);
  }
  function expire(i, t) {
    state.spent = elapsed(t);
    state.expired = i;
    fillTimeoutForm(i);
  }
  function fillTimeoutForm(i) {
    if (!timeoutForm) return;
    var set = function (name, v) { var el = timeoutForm.elements[name]; if (el) el.value = v; };
    var d = new Date();
    set("against", SIDES[i]);
    set("move_number", state.moves + 1);
    set("number", state.moves + 1);
    set("at_time", localStamp(d).slice(11, 16));
    set("at", localStamp(d));
    var absolute = tc.kind === "absolute";
    timeoutForm.hidden = absolute;
    $("btn-continue").hidden = absolute || cfg.timeout === "loss";
  }
  function startMove(side, t) {
    state.running = side;
    state.since = t;
    state.spent = 0;
    state.said = 0;
  }
  function tap(i) {
    var t = now();
    unlockAudio();
    if (state.expired !== null || state.pause) return;
    if (state.running === null) {
      // The side that taps hands the move to the other (White presses to start Black).
      startMove(1 - i, t);
    } else if (state.running === i) {
      tick();
      if (state.expired !== null) return;
      var f = C.press(tc, state.faces[i], elapsed(t));
      if (f === null) { expire(i, t); store(); render(t); return; }
      state.faces[i] = f;
      state.moves += 1;
      startMove(1 - i, t);
      if (cfg.setup.sections && C.sectionBreakAfter(state.moves)) {
        state.pause = "break";
        state.breakUntil = t + C.SECTION_BREAK_MS;
      }
    } else {
      return; // only the side whose clock runs can press it
    }
    store();
    render(t);
  }
  function pause(kind) {
    var t = now();
    unlockAudio();
    if (state.running === null || state.pause || state.expired !== null) return;
    tick();
    state.spent = elapsed(t);
    state.pause = kind;
    if (kind === "referee" && C.stopRestores(tc, state.faces[state.running], state.spent)) {
      // Seed 003 Art. 23.11: during reading the face goes back to after the opponent's move.
      state.spent = 0;
      state.said = 0;
      note("restored", T.restored);
      show(T.restored);
    }
    store();
    render(t);
  }
  function resume() {
    var t = now();
    unlockAudio();
    if (!state.pause) return;
    state.pause = null;
    state.since = t;
    store();
    render(t);
  }
  function askLeft(i) {
    var t = now();
    unlockAudio();
    var f = faceNow(i, t);
    var x = faceTexts(i, t);
    show(fmt("left_query", { player: cfg.names[i], time: x[0] + " · " + x[1] }));
    if (f === null) return;
    if (f.overtime && (tc.kind === "chinese_byo_yomi" || tc.kind === "byo_yomi")) {
      speak(clipsOf({ call: tc.kind === "byo_yomi" ? "periods_left" : "minutes_left", n: f.periods }));
    } else {
      var min = Math.floor((f.overtime ? f.period_ms : f.main_ms) / 60000);
      if (min >= 1 && min <= 60) speak(clipsOf({ call: "minutes_left", n: min }));
    }
  }
  function continueAfterTimeout() {
    var t = now(), i = state.expired;
    if (i === null || tc.kind === "absolute" || cfg.timeout === "loss") return;
    // Art. 22.5 / seed 003 Art. 22.1: a forced pass, then the same reading again.
    state.faces[i] = tc.kind === "canadian"
      ? { main_ms: 0, periods: 0, period_ms: tc.period_secs * 1000, period_moves: tc.moves_per_period, overtime: true }
      : { main_ms: 0, periods: 1, period_ms: 0, period_moves: 0, overtime: true };
    state.expired = null;
    state.moves += 1;
    startMove(1 - i, t);
    store();
    render(t);
  }

  // ---- referee's correction (Art. 22.3) -------------------------------------------------------------
  function faceFrom(ms, periods) {
    var p = periods === "" ? null : Number(periods);
    switch (tc.kind) {
      case "chinese_byo_yomi":
        return { main_ms: ms, periods: p === null ? tc.reserved_minutes : p, period_ms: 0, period_moves: 0, overtime: ms === 0 };
      case "byo_yomi":
        return { main_ms: ms, periods: p === null ? tc.periods : p, period_ms: 0, period_moves: 0, overtime: ms === 0 };
      case "canadian":
        return p === null
          ? { main_ms: ms, periods: 0, period_ms: 0, period_moves: 0, overtime: false }
          : { main_ms: 0, periods: 0, period_ms: ms, period_moves: p, overtime: true };
      default:
        return { main_ms: ms, periods: 0, period_ms: 0, period_moves: 0, overtime: false };
    }
  }
  function setFace(i, f, t) {
    state.faces[i] = f;
    if (state.expired === i) state.expired = null;
    if (state.running === i) { state.spent = 0; state.said = 0; state.since = t; }
  }
  function correct() {
    var t = now(), msg = $("clock-correct-msg");
    var side = $("f-corr-side").value, ms = parseFace($("f-corr-face").value);
    var periods = $("f-corr-periods").value.trim();
    if (side === "" || ms === null || (periods !== "" && !/^\d+$/.test(periods))) { msg.textContent = T.bad_face; return; }
    var i = Number(side);
    setFace(i, faceFrom(ms, periods), t);
    note("corrected", cfg.names[i] + " · " + T.corrected);
    msg.textContent = T.corrected;
    store();
    render(t);
  }
  function proportionalCorrect() {
    var t = now(), msg = $("clock-correct-msg");
    var actual = parseFace($("f-corr-actual").value);
    if (actual === null) { msg.textContent = T.bad_face; return; }
    var f = [faceNow(0, t), faceNow(1, t)];
    if (!f[0] || !f[1] || f[0].overtime || f[1].overtime) { msg.textContent = T.prop_needs_basic; return; }
    var full = tc.basic_secs * 1000 - (tc.kind === "chinese_byo_yomi" ? tc.reserved_minutes * C.READING_MS : 0);
    var used = C.proportional([full - f[0].main_ms, full - f[1].main_ms], actual);
    [0, 1].forEach(function (i) {
      var nf = Object.assign({}, f[i], { main_ms: Math.max(0, full - used[i]) });
      setFace(i, nf, t);
    });
    note("corrected", T.corrected);
    msg.textContent = T.corrected;
    store();
    render(t);
  }

  // ---- saving the readings (relay), retried while offline ------------------------------------------
  function readingFields(f) {
    if (f === null) f = { main_ms: 0, periods: 0, period_ms: 0, period_moves: 0, overtime: true };
    switch (tc.kind) {
      case "chinese_byo_yomi": case "byo_yomi":
        return [hms(f.overtime ? 0 : f.main_ms), String(f.periods)];
      case "canadian":
        return f.overtime ? [hms(f.period_ms), String(f.period_moves)] : [hms(f.main_ms), ""];
      default: return [hms(f.main_ms), ""];
    }
  }
  function queueSave() {
    var t = now(), b = readingFields(faceNow(0, t)), w = readingFields(faceNow(1, t));
    state.queue.push({ move: String(state.moves), b_main: b[0], b_periods: b[1], w_main: w[0], w_periods: w[1], at: localStamp(new Date()) });
    store();
    flush();
  }
  var flushing = false;
  function flush() {
    if (flushing || !state.queue.length || !saveForm) return;
    flushing = true;
    var item = state.queue[0], body = new URLSearchParams();
    ["csrf", "version", "kind"].forEach(function (k) { body.set(k, saveForm.elements[k].value); });
    Object.keys(item).forEach(function (k) { body.set(k, item[k]); });
    fetch(saveForm.action, { method: "POST", body: body, credentials: "same-origin" })
      .then(function (r) {
        return r.text().then(function (html) {
          flushing = false;
          state.queue.shift();
          var ok = r.ok && r.url.indexOf("done=clock") >= 0;
          // The match's version moved with the saved event: take the page's new one.
          var doc = new DOMParser().parseFromString(html, "text/html");
          var v = doc.querySelector("#form-clock input[name=version]") || doc.querySelector("input[name=version]");
          if (v) [saveForm, timeoutForm].forEach(function (f) { if (f && f.elements.version) f.elements.version.value = v.value; });
          var err = doc.querySelector(".err, .banner");
          $("clock-save-state").textContent = ok ? T.saved : fmt("save_refused", { error: err ? err.textContent.trim() : r.status });
          $("clock-save-state").setAttribute("data-state", ok ? "saved" : "refused");
          store();
          render(now());
          flush();
        });
      })
      .catch(function () {
        flushing = false;
        $("clock-save-state").textContent = T.save_queued;
        $("clock-save-state").setAttribute("data-state", "queued");
        render(now());
      });
  }

  // ---- wiring -----------------------------------------------------------------------------------------
  $("half-black").addEventListener("click", function () { tap(0); });
  $("half-white").addEventListener("click", function () { tap(1); });
  $("btn-stop").addEventListener("click", function () { pause("referee"); });
  $("btn-adjourn").addEventListener("click", function () { pause("adjourn"); });
  $("btn-resume").addEventListener("click", resume);
  $("btn-left-black").addEventListener("click", function () { askLeft(0); });
  $("btn-left-white").addEventListener("click", function () { askLeft(1); });
  $("btn-mute").addEventListener("click", function () {
    audio.muted = !audio.muted;
    this.setAttribute("aria-pressed", String(audio.muted));
  });
  $("btn-continue").addEventListener("click", continueAfterTimeout);
  $("btn-correct").addEventListener("click", correct);
  $("btn-proportional").addEventListener("click", proportionalCorrect);
  if (saveForm) saveForm.addEventListener("submit", function (e) { e.preventDefault(); queueSave(); });
  window.addEventListener("online", flush);
  setInterval(function () { if (state.queue.length) flush(); }, 5000);
  // The board page open beside this one (web::board) presses the clock for the side that
  // has just moved, when its recorder ticked "press the clock after each move".
  window.addEventListener("storage", function (e) {
    if (e.key !== cfg.key + ".press" || !e.newValue) return;
    try { tap(JSON.parse(e.newValue).side); } catch (err) { /* not a press */ }
  });
  if (TEST) {
    window.__clockTest = {
      spoken: [],
      set: function (ms) { sessionStorage.setItem(TEST_KEY, String(ms)); tick(); },
      now: now,
      state: function () { return JSON.parse(JSON.stringify(state)); }
    };
  } else {
    setInterval(tick, 100);
  }
  // Offline reload (sw.js): the worker keeps the files; this page itself is put in its cache
  // here, because the first load of a page is not yet under the worker. Only a good answer of
  // the clock itself is kept (not a login redirect).
  var offline = null;
  if (navigator.serviceWorker && window.caches) {
    offline = navigator.serviceWorker.register("/assets/clock/sw.js", { scope: "/t/" })
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function () { return fetch(location.href, { credentials: "same-origin" }); })
      .then(function (r) {
        if (!r.ok || r.redirected) return false;
        return caches.open("tengen-clock-v1").then(function (c) { return c.put(location.href, r); })
          .then(function () { return true; });
      })
      .catch(function () { return false; });
  }
  if (TEST) window.__clockTest.offline = function () { return offline || Promise.resolve(false); };
  if (state.expired !== null) fillTimeoutForm(state.expired);
  renderLog();
  tick();
  flush();
})();
