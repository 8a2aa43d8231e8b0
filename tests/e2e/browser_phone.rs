//! The public pages on a phone, audited in real headless Chromium: a 200-player event in two
//! groups (round 1 published, a few results saved), and its main public pages — the event's
//! landing page, the group's page, the round's pairings (both lists), results, standings,
//! crosstable, the players list, a player's page and find-my-table — opened at a 390×844
//! phone viewport (Chromium's mobile emulation). On each: no error in the browser's console
//! (the site's icon answers), `lang` set, every image with its alternative text, every form
//! field labelled, every link and button at least 24×24 CSS px or spaced as WCAG 2.2's
//! target-size rule allows (Lighthouse's `target-size`), and text contrast at least 4.5:1
//! (3:1 for large text), computed in the page from the computed styles.
//!
//! With `TENGEN_TEST_LIGHTHOUSE=1` (`.ci/run` sets it and installs Lighthouse into
//! `.ci/node/`), Lighthouse itself runs on the same pages (mobile, simulated throttling) and
//! each must score accessibility ≥ 0.95 and performance ≥ 0.9, with its `target-size` and
//! `errors-in-console` audits passed.
//!
//! Runs with `TENGEN_TEST_BROWSER=1` (see `build.rs`); otherwise ignored with its reason.

use crate::common;
use crate::common::webdriver;
use common::*;
use fantoccini::{Client as Wd, ClientBuilder};
use serde_json::{json, Value};
use webdriver::*;

/// A CSV of `n` entrants with distinct Chinese names, ranks from 5d down.
fn entrants(n: usize) -> String {
    let families = ["王", "李", "张", "刘", "陈", "杨", "黄", "赵", "吴", "周"];
    let givens = ["一", "明", "华", "伟", "芳", "丽", "强", "军", "平", "东"];
    let ranks = ["5段", "4段", "3段", "2段", "1段", "1级", "2级", "3级", "5级", "10级"];
    let mut csv = String::from("姓名,拼音,段位,等级分,单位,地区,出生日期,性别,备注\n");
    for i in 0..n {
        let name = format!("{}{}{}", families[i % 10], givens[(i / 10) % 10], givens[(i / 100) % 10]);
        csv.push_str(&format!("{name},,{},,棋院{},北京,,,\n", ranks[i * 10 / n], i % 7));
    }
    csv
}

/// The event: 200 players in the first group, a second group (so the event has a landing
/// page), rounds 1 to 3 paired and published, the first three tables' results of round 3 saved. Returns the
/// server and the public pages to audit.
fn event() -> (Server, Vec<String>) {
    let s = Server::start();
    let c = s.first_organizer();
    let tid =
        tournament_with_players(&c, "手机页面测试赛", "Phone Page Open", &[("colour_method", "lots")], 0);
    let r = import_file(&c, tid, "csv", "players.csv", entrants(200).as_bytes());
    assert_eq!(r.status, 303, "{}", r.body);
    let ev = event_of(&s.db, tid);
    let home = c.get(&format!("/t/{tid}"));
    let (action, mut fields) = home.form_as_shown("add-group");
    for (k, v) in fields.iter_mut() {
        match k.as_str() {
            "group_name_zh" => *v = "少儿组".into(),
            "group_name_latin" => *v = "Youth".into(),
            _ => {}
        }
    }
    let sent: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(c.post_form(&action, &sent).status, 303);
    // Three rounds, so that the round pages' numbers stand side by side.
    for n in 1..=3 {
        pair_round(&c, tid, n, "7");
        publish_round(&s, &c, tid, n);
    }
    for board in 1..=3 {
        let gid = game_id(&s.db, tid, 3, board);
        enter(&c, tid, gid, &[("method", "resignation"), ("winner", "black")]);
    }
    let player =
        query_opt(&s.db, &format!("SELECT min(id) FROM entrants WHERE tournament_id = {tid}")).unwrap();
    let pages = vec![
        format!("/e/{ev}"),
        format!("/t/{tid}"),
        format!("/t/{tid}/pairings"),
        format!("/t/{tid}/pairings/3"),
        format!("/t/{tid}/results"),
        format!("/t/{tid}/standings"),
        format!("/t/{tid}/crosstable"),
        format!("/t/{tid}/players"),
        format!("/t/{tid}/players/{player}"),
        format!("/t/{tid}/pairings?q=wyy"),
    ];
    (s, pages)
}

/// The audit, run in the page: a list of what fails, empty when all passes.
const AUDIT: &str = r#"
const bad = [];
const say = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' "' + (el.textContent || el.value || '').trim().slice(0, 30) + '"';
const shown = el => { const r = el.getBoundingClientRect(), s = getComputedStyle(el);
  return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
if (!document.documentElement.lang) bad.push('no lang on <html>');
for (const img of document.querySelectorAll('img')) if (!img.hasAttribute('alt')) bad.push('image without alt: ' + img.src);
for (const svg of document.querySelectorAll('svg[role=img]')) if (!svg.getAttribute('aria-label')) bad.push('svg image without a label');
// Form fields: a <label for>, a wrapping <label>, aria-label(ledby) or title.
for (const f of document.querySelectorAll('input:not([type=hidden]):not([type=submit]):not([type=button]), select, textarea')) {
  const labelled = (f.id && document.querySelector('label[for="' + f.id + '"]')) || f.closest('label')
    || f.getAttribute('aria-label') || f.getAttribute('aria-labelledby') || f.getAttribute('title');
  if (!labelled) bad.push('unlabelled field: ' + say(f));
}
// Tap targets (WCAG 2.2 SC 2.5.8, as Lighthouse's target-size): at least 24×24, or a 24 px
// circle on its centre meets no other target nor another small target's circle.
const targets = [...document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary')].filter(shown);
const rects = targets.map(t => t.getBoundingClientRect());
const small = r => r.width < 24 || r.height < 24;
targets.forEach((t, i) => {
  const r = rects[i];
  if (!small(r)) return;
  const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
  for (let j = 0; j < targets.length; j++) {
    if (j === i) continue;
    const o = rects[j];
    const dx = Math.max(o.left - cx, 0, cx - o.right), dy = Math.max(o.top - cy, 0, cy - o.bottom);
    const near = Math.hypot(dx, dy) < 12
      || (small(o) && Math.hypot(o.left + o.width / 2 - cx, o.top + o.height / 2 - cy) < 24);
    if (near) { bad.push('small target ' + say(t) + ' ' + Math.round(r.width) + '×' + Math.round(r.height) + ' beside ' + say(targets[j])); return; }
  }
});
// Contrast of text: every element with its own text, its colour over the first opaque
// background behind it (the page's own otherwise).
const rgb = s => { const m = s.match(/[\d.]+/g) || []; return m.map(Number).concat([1]).slice(0, 4); };
const lum = c => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
const behind = el => { for (let e = el; e; e = e.parentElement) { const c = rgb(getComputedStyle(e).backgroundColor); if (c[3] > 0.99) return c; }
  return [255, 255, 255, 1]; };
for (const el of document.querySelectorAll('body *')) {
  if (!shown(el) || ![...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
  const s = getComputedStyle(el), bg = behind(el), fg0 = rgb(s.color);
  const fg = fg0.slice(0, 3).map((v, k) => v * fg0[3] + bg[k] * (1 - fg0[3]));
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  const ratio = (a + 0.05) / (b + 0.05), size = parseFloat(s.fontSize), weight = parseInt(s.fontWeight, 10);
  const large = size >= 24 || (size >= 18.66 && weight >= 700);
  if (ratio < (large ? 3 : 4.5)) bad.push('contrast ' + ratio.toFixed(2) + ' of ' + say(el) + ' (' + s.color + ' on ' + bg + ')');
}
return bad.slice(0, 20);
"#;

/// The browser console's entries since the last call, through chromedriver's log endpoint
/// (`goog:loggingPrefs`).
fn console(driver: &str, session: &str) -> Vec<Value> {
    let url = format!("{driver}/session/{session}/se/log");
    let body = json!({"type": "browser"}).to_string();
    let mut r =
        ureq::post(&url).header("Content-Type", "application/json").send(body).expect("chromedriver's log");
    let v: Value = serde_json::from_str(&r.body_mut().read_to_string().unwrap()).unwrap();
    v["value"].as_array().cloned().unwrap_or_default()
}

/// Operations (no rule article; WCAG 2.2's target size and contrast): the public pages read on a
/// phone pass the audit — no console error (the site's icon answers), `lang` set, images with
/// alternative text, fields labelled, tap targets of 24×24 CSS px or spaced as WCAG 2.2 asks, text
/// contrast 4.5:1 — on a 200-player event.
#[test]
#[cfg_attr(
    not(tengen_browser),
    ignore = "needs chromium and chromium-driver (.ci/run installs them); TENGEN_TEST_BROWSER=1 runs it"
)]
fn the_public_pages_pass_the_phone_audit() {
    let driver =
        find_program("CHROMEDRIVER", &["/usr/bin/chromedriver", "chromedriver"]).expect("chromedriver");
    let chrome =
        find_program("CHROME_BIN", &["/usr/bin/chromium", "chromium", "chromium-browser"]).expect("chromium");
    let (s, pages) = event();
    let shots = artifacts_dir().join("phone");
    let _ = std::fs::remove_dir_all(&shots);
    std::fs::create_dir_all(&shots).unwrap();
    let d = Driver::start(&driver, &artifacts_dir().join("chromedriver-phone.log"));

    let tmp = tempfile::tempdir().unwrap();
    let profile = tmp.path().join("profile");
    std::fs::create_dir_all(&profile).unwrap();
    let mut caps = chromium_caps(&chrome, &profile, tmp.path(), "zh-CN");
    caps["goog:chromeOptions"]["mobileEmulation"] =
        json!({"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3.0}});
    caps.insert("goog:loggingPrefs".into(), json!({"browser": "ALL"}));
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let wd: Wd = rt
        .block_on(
            ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
                .capabilities(caps)
                .connect(&d.url),
        )
        .expect("Chromium through chromedriver");
    let session = rt.block_on(wd.session_id()).unwrap().expect("a session");
    let mut failures = Vec::new();
    for (i, path) in pages.iter().enumerate() {
        rt.block_on(wd.goto(&format!("{}{path}", s.base))).unwrap();
        // The icon is fetched after the load: give it its moment before reading the console.
        rt.block_on(
            wd.execute("return new Promise(r => setTimeout(() => r(document.readyState), 500));", vec![]),
        )
        .unwrap();
        let width = rt.block_on(wd.execute("return window.innerWidth;", vec![])).unwrap();
        assert_eq!(width, json!(390), "a phone's viewport");
        if let Ok(png) = rt.block_on(wd.screenshot()) {
            let _ = std::fs::write(shots.join(format!("{i:02}.png")), png);
        }
        let found = rt.block_on(wd.execute(AUDIT, vec![])).unwrap();
        for p in found.as_array().cloned().unwrap_or_default() {
            failures.push(format!("{path}: {}", p.as_str().unwrap_or_default()));
        }
        for e in console(&d.url, &session) {
            if e["level"] == "SEVERE" || e["level"] == "WARNING" {
                failures.push(format!("{path}: console {}: {}", e["level"], e["message"]));
            }
        }
    }
    let _ = rt.block_on(wd.close());
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
}

/// One Lighthouse run (mobile, simulated throttling) of `url`: its report.
fn lighthouse(lh: &std::path::Path, chrome: &std::path::Path, url: &str, out: &std::path::Path) -> Value {
    let run = std::process::Command::new(lh)
        .arg(url)
        .args([
            "--only-categories=performance,accessibility",
            // A best-practices audit, run beside the two categories.
            "--only-audits=errors-in-console",
            "--output=json",
            "--quiet",
            "--chrome-flags=--headless=new --no-sandbox --disable-dev-shm-usage",
        ])
        .arg(format!("--output-path={}", out.display()))
        .env("CHROME_PATH", chrome)
        .output()
        .expect("run lighthouse");
    assert!(run.status.success(), "lighthouse {url}: {}", String::from_utf8_lossy(&run.stderr));
    serde_json::from_str(&std::fs::read_to_string(out).unwrap()).expect("Lighthouse's JSON report")
}

/// Operations (no rule article; WCAG 2.2 as Lighthouse checks it): Lighthouse scores every main
/// public page of the 200-player event on a phone — accessibility ≥ 0.95 with the tap-target
/// (`target-size`) and console (`errors-in-console`) audits passed, performance ≥ 0.9. The
/// performance score is simulated from a trace taken on this machine, so a run that four builds
/// share can fall under it once: a page under 0.9 is measured again and its better run counts
/// (accessibility and the two audits are not retried: they do not depend on load).
#[test]
#[cfg_attr(
    not(tengen_lighthouse),
    ignore = "needs Lighthouse in .ci/node (.ci/run installs it) and chromium; TENGEN_TEST_LIGHTHOUSE=1 runs it"
)]
fn lighthouse_scores_the_public_pages_on_a_phone() {
    let lh = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/node/node_modules/.bin/lighthouse");
    assert!(lh.exists(), "Lighthouse is not installed at {}: .ci/run installs it", lh.display());
    let chrome =
        find_program("CHROME_BIN", &["/usr/bin/chromium", "chromium", "chromium-browser"]).expect("chromium");
    let (s, pages) = event();
    let out = artifacts_dir().join("lighthouse");
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let mut failures = Vec::new();
    for (i, path) in pages.iter().enumerate() {
        let url = format!("{}{path}", s.base);
        let file = out.join(format!("{i:02}.json"));
        let mut report = lighthouse(&lh, &chrome, &url, &file);
        let score = |r: &Value, cat: &str| r["categories"][cat]["score"].as_f64().unwrap_or(0.0);
        if score(&report, "performance") < 0.9 {
            let again = lighthouse(&lh, &chrome, &url, &out.join(format!("{i:02}-again.json")));
            if score(&again, "performance") > score(&report, "performance") {
                report = again;
            }
        }
        let (perf, a11y) = (score(&report, "performance"), score(&report, "accessibility"));
        eprintln!("lighthouse {path}: performance {perf:.2}, accessibility {a11y:.2}");
        if perf < 0.9 {
            failures.push(format!("{path}: performance {perf:.2} (report {})", file.display()));
        }
        if a11y < 0.95 {
            failures.push(format!("{path}: accessibility {a11y:.2} (report {})", file.display()));
        }
        for audit in ["target-size", "errors-in-console"] {
            let a = &report["audits"][audit];
            let passed = a["score"].as_f64() == Some(1.0) || a["scoreDisplayMode"] == "notApplicable";
            if !passed {
                failures.push(format!("{path}: {audit} failed: {}", a["details"]));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
