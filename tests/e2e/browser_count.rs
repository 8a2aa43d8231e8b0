//! The count page in real headless Chromium: the referee taps a stone and its whole chain turns
//! dead or alive (assets/count.js), the dead-stone field follows, and saving writes what the
//! board shows. No inline script: the page's CSP holds, and the console stays clean.
//!
//! Runs with `TENGEN_TEST_BROWSER=1` only (ignored with its reason otherwise, see `build.rs`);
//! screenshots in `target/browser-artifacts/count/`.

use crate::common;
use crate::common::webdriver;
use common::*;
use serde_json::Value;

/// The dead-stone field as the page holds it.
fn field(p: &mut webdriver::Page) -> Value {
    p.js("return document.getElementById('dead').value;")
}

/// Whether the stone at `point` is drawn dead.
fn dead_at(p: &mut webdriver::Page, point: &str) -> Value {
    p.js(&format!("return document.querySelector('circle[data-p=\"{point}\"]').classList.contains('dead');"))
}

#[test]
#[cfg_attr(
    not(tengen_browser),
    ignore = "needs chromium and chromium-driver (.ci/run installs them); TENGEN_TEST_BROWSER=1 runs it"
)]
fn tapping_a_stone_marks_its_chain_and_the_save_keeps_it() {
    let s = Server::start();
    let c = s.first_organizer();
    let (tid, gid) = crate::count::game_with_record(&s, &c);

    let (_driver, _profile, mut p) = webdriver::open("count", &s.base, "zh-CN");
    p.log_in(ORG_USER, ORG_PASS);
    p.goto(&format!("/t/{tid}/games/{gid}/count"));
    p.wait_for("#goban");
    p.shot("proposal");
    assert_eq!(field(&mut p), Value::from("C17 R3"), "the proposal");
    assert_eq!(dead_at(&mut p, "C16"), Value::from(true), "C16 is of C17's chain");

    // A tap on C16 brings the whole white chain C17–C16 back to life.
    p.click("circle[data-p=\"C16\"]");
    assert_eq!((dead_at(&mut p, "C17"), dead_at(&mut p, "C16")), (Value::from(false), Value::from(false)));
    assert_eq!(field(&mut p), Value::from("R3"));
    // A tap on the black wall marks all 20 of its stones dead, and the field names it once.
    p.click("circle[data-p=\"K10\"]");
    let wall = p.js("return document.querySelectorAll('circle.stone.b.dead').length;");
    assert_eq!(wall, Value::from(21), "the wall (column K and J11) and R3");
    assert_eq!(field(&mut p), Value::from("K19 R3"));
    // Again: alive. Then C17 dead again, and save what the board shows.
    p.click("circle[data-p=\"K1\"]");
    p.click("circle[data-p=\"C17\"]");
    assert_eq!(field(&mut p), Value::from("C17 R3"));
    p.click("circle[data-p=\"R3\"]");
    assert_eq!(field(&mut p), Value::from("C17"));
    p.shot("corrected");
    p.click("#save-dead");
    p.wait_for("#notice");
    p.shot("saved");
    assert_eq!(field(&mut p), Value::from("C17"));
    assert_eq!((dead_at(&mut p, "C17"), dead_at(&mut p, "R3")), (Value::from(true), Value::from(false)));
    assert_eq!(
        query_text(&s.db, &format!("SELECT dead FROM game_counts WHERE game_id = {gid}")).as_deref(),
        Some("cc cd"),
        "the saved dead stones are the chain tapped"
    );
}
