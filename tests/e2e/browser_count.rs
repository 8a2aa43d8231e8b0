//! The count page in real headless Chromium: the referee taps a stone and its whole chain turns
//! dead or alive (assets/count.js), the dead-stone field follows, and saving writes what the
//! board shows. No inline script: the page's CSP holds, and the console stays clean.
//!
//! Runs with `TENGEN_TEST_BROWSER=1` only (ignored with its reason otherwise, see `build.rs`);
//! screenshots in `target/browser-artifacts/count/`.

use crate::common;
use crate::common::webdriver;
use common::*;
use fantoccini::Locator;
use serde_json::Value;
use std::time::Duration;
use webdriver::*;

#[test]
#[cfg_attr(
    not(tengen_browser),
    ignore = "needs chromium and chromium-driver (.ci/run installs them); TENGEN_TEST_BROWSER=1 runs it"
)]
fn tapping_a_stone_marks_its_chain_and_the_save_keeps_it() {
    let driver =
        find_program("CHROMEDRIVER", &["/usr/bin/chromedriver", "chromedriver"]).expect("chromedriver");
    let chrome =
        find_program("CHROME_BIN", &["/usr/bin/chromium", "chromium", "chromium-browser"]).expect("chromium");
    let shots = artifacts_dir().join("count");
    let _ = std::fs::remove_dir_all(&shots);
    std::fs::create_dir_all(&shots).unwrap();
    let d = Driver::start(&driver, &artifacts_dir().join("chromedriver-count.log"));

    let s = Server::start();
    let c = s.first_organizer();
    let (tid, gid) = crate::count::game_with_record(&s, &c);

    let tmp = tempfile::tempdir().unwrap();
    let (rt, wd) = chromium_session(&d, &chrome, tmp.path(), "zh-CN");
    let go = |path: &str| rt.block_on(wd.goto(&format!("{}{path}", s.base))).unwrap();
    let wait = |css: &str| {
        rt.block_on(wd.wait().at_most(Duration::from_secs(20)).for_element(Locator::Css(css)))
            .unwrap_or_else(|e| panic!("no {css}: {e}"))
    };
    let js = |script: &str| -> Value { rt.block_on(wd.execute(script, vec![])).unwrap() };
    let fill = |css: &str, text: &str| {
        rt.block_on(async {
            let el = wd.find(Locator::Css(css)).await?;
            el.clear().await?;
            el.send_keys(text).await
        })
        .unwrap_or_else(|e| panic!("fill {css}: {e}"));
    };
    let click = |css: &str| {
        rt.block_on(async { wd.find(Locator::Css(css)).await?.click().await })
            .unwrap_or_else(|e| panic!("click {css}: {e}"));
    };
    let field = || js("return document.getElementById('dead').value;");
    let dead_at = |p: &str| {
        js(&format!("return document.querySelector('circle[data-p=\"{p}\"]').classList.contains('dead');"))
    };
    let shot = |name: &str| {
        if let Ok(png) = rt.block_on(wd.screenshot()) {
            let _ = std::fs::write(shots.join(format!("{name}.png")), png);
        }
    };

    go("/login");
    wait("form.narrow");
    fill("input[name=username]", ORG_USER);
    fill("input[name=password]", ORG_PASS);
    click("form.narrow button[type=submit]");
    wait("footer");
    go(&format!("/t/{tid}/games/{gid}/count"));
    wait("#goban");
    shot("proposal");
    assert_eq!(field(), Value::from("C17 R3"), "the proposal");
    assert_eq!(dead_at("C16"), Value::from(true), "C16 is of C17's chain");

    // A tap on C16 brings the whole white chain C17–C16 back to life.
    click("circle[data-p=\"C16\"]");
    assert_eq!((dead_at("C17"), dead_at("C16")), (Value::from(false), Value::from(false)));
    assert_eq!(field(), Value::from("R3"));
    // A tap on the black wall marks all 20 of its stones dead, and the field names it once.
    click("circle[data-p=\"K10\"]");
    let wall = js("return document.querySelectorAll('circle.stone.b.dead').length;");
    assert_eq!(wall, Value::from(21), "the wall (column K and J11) and R3");
    assert_eq!(field(), Value::from("K19 R3"));
    // Again: alive. Then C17 dead again, and save what the board shows.
    click("circle[data-p=\"K1\"]");
    click("circle[data-p=\"C17\"]");
    assert_eq!(field(), Value::from("C17 R3"));
    click("circle[data-p=\"R3\"]");
    assert_eq!(field(), Value::from("C17"));
    shot("corrected");
    click("#save-dead");
    wait("#notice");
    shot("saved");
    assert_eq!(field(), Value::from("C17"));
    assert_eq!((dead_at("C17"), dead_at("R3")), (Value::from(true), Value::from(false)));
    assert_eq!(
        query_text(&s.db, &format!("SELECT dead FROM game_counts WHERE game_id = {gid}")).as_deref(),
        Some("cc cd"),
        "the saved dead stones are the chain tapped"
    );
    let _ = rt.block_on(wd.close());
}
