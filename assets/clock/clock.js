// The referee's clock: the same logic as admin/domain/src/clock.rs, for the page at the board
// (it must run offline). Exact integer milliseconds (all values stay far below 2^53). Pinned
// with the Rust module by one fixture, assets/clock/fixture.json (tests/browser_clock.rs).
// Seed 000 计时 3: 30秒、40秒、50秒、55秒、58秒、一分钟、还剩x分钟; the last minute 30秒、40秒、50秒
// then 1 … 10; at 10 the minute is used. A move under 60 s costs nothing.
(function (root) {
  "use strict";
  var READING_MS = 60000;
  var SECTION_BREAK_MS = 5 * 60 * 1000;
  var SECTION_ENDS = [72, 143];

  function periodLen(tc) {
    switch (tc.kind) {
      case "chinese_byo_yomi": return READING_MS;
      case "byo_yomi": case "canadian": return tc.period_secs * 1000;
      default: return null;
    }
  }

  function copy(f) {
    return { main_ms: f.main_ms, periods: f.periods, period_ms: f.period_ms,
             period_moves: f.period_moves, overtime: f.overtime };
  }

  /** ms into the move at which time expires (a press at or after it is late). */
  function expiry(tc, s) {
    var before = s.overtime ? 0 : s.main_ms;
    switch (tc.kind) {
      case "absolute": return s.main_ms;
      case "chinese_byo_yomi": case "byo_yomi": return before + s.periods * periodLen(tc);
      case "canadian": return before + (s.overtime ? s.period_ms : periodLen(tc));
    }
    return 0;
  }

  function settle(tc, s, t, complete) {
    if (t >= expiry(tc, s)) return null;
    var f = copy(s), over;
    if (f.overtime) {
      over = t;
    } else if (t < f.main_ms) {
      f.main_ms -= t;
      return f;
    } else {
      over = t - f.main_ms;
      f.main_ms = 0;
      f.overtime = true;
    }
    var len = periodLen(tc);
    if (len === null) return null;
    if (tc.kind === "canadian") {
      if (!s.overtime) { f.period_ms = len; f.period_moves = tc.moves_per_period; }
      f.period_ms -= over;
      if (complete) {
        f.period_moves -= 1;
        if (f.period_moves === 0) { f.period_ms += len; f.period_moves = tc.moves_per_period; }
      }
      return f;
    }
    f.periods -= Math.floor(over / len);
    return f;
  }

  function faceAt(tc, s, t) { return settle(tc, s, t, false); }
  function press(tc, s, t) { return settle(tc, s, t, true); }

  /** Every call of a move from face `s`: [[ms, {call, n}], …] up to the timeout. */
  function calls(tc, s) {
    var end = expiry(tc, s);
    var len = periodLen(tc);
    if (len === null || tc.kind === "canadian") return [[end, { call: "timeout" }]];
    var chinese = tc.kind === "chinese_byo_yomi";
    var offset = s.overtime ? 0 : s.main_ms;
    var secs = Math.floor(len / 1000);
    var out = [];
    for (var k = 0; k < s.periods; k++) {
      var base = offset + k * len;
      var left = s.periods - 1 - k;
      var marks = [];
      for (var m = 10; m < secs; m += 10) if (m + 30 >= secs) marks.push(m);
      if (left > 0) {
        [secs - 5, secs - 2].forEach(function (x) { if (x > 0) marks.push(x); });
      } else {
        marks = marks.filter(function (x) { return x + 10 <= secs; });
      }
      marks.sort(function (a, b) { return a - b; });
      marks = marks.filter(function (x, i) { return i === 0 || marks[i - 1] !== x; });
      marks.forEach(function (x) { out.push([base + x * 1000, { call: "sec", n: x }]); });
      if (left > 0) {
        if (chinese) {
          out.push([base + secs * 1000, { call: "one_minute" }]);
          out.push([base + secs * 1000, { call: "minutes_left", n: left }]);
        } else {
          out.push([base + secs * 1000, { call: "periods_left", n: left }]);
        }
      } else {
        for (var n = 11 - Math.min(secs, 10); n <= 10; n++) {
          out.push([base + (secs - 10 + n) * 1000, { call: "count", n: n }]);
        }
        out.push([base + secs * 1000, { call: "timeout" }]);
      }
    }
    return out.filter(function (c) { return c[0] <= end; });
  }

  /** The calls after `from` and up to `to` (inclusive). */
  function callsBetween(tc, s, from, to) {
    return calls(tc, s).filter(function (c) { return c[0] > from && c[0] <= to; });
  }

  /** 停钟 during reading puts the face back to the state after the opponent's move
   *  (seed 003 Art. 23.11). */
  function stopRestores(tc, s, t) {
    if (tc.kind !== "chinese_byo_yomi" && tc.kind !== "byo_yomi") return false;
    var f = faceAt(tc, s, t);
    return f !== null && f.overtime;
  }

  function sectionBreakAfter(moves) { return SECTION_ENDS.indexOf(moves) >= 0; }

  /** Art. 22.3: both used times set in proportion to what the faulty clock showed. */
  function proportional(used, actual) {
    var total = used[0] + used[1];
    var first = total === 0 ? Math.floor(actual / 2) : Math.floor(used[0] * actual / total);
    return [first, actual - first];
  }

  var api = { READING_MS: READING_MS, SECTION_BREAK_MS: SECTION_BREAK_MS, expiry: expiry,
              faceAt: faceAt, press: press, calls: calls, callsBetween: callsBetween,
              stopRestores: stopRestores, sectionBreakAfter: sectionBreakAfter,
              proportional: proportional };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.TengenClock = api;
})(this);
