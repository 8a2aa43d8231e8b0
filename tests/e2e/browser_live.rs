//! The live pages in real headless Chromium, behind nginx configured as docs/operating.md says
//! (its `location` blocks read from that file): a phone's pairings page shows a result saved
//! by another client within about a second, without a reload (a marker set in the page's
//! script stays), keeping the "find my table" field's typed text and focus; and behind an
//! nginx that refuses the stream, the page turns to polling and still shows the next result.
//!
//! Runs with `TENGEN_TEST_BROWSER=1` only (ignored with its reason otherwise, see `build.rs`).

use crate::common;
use crate::common::webdriver;
use common::*;
use fantoccini::{Client as Wd, ClientBuilder, Locator};
use serde_json::Value;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use webdriver::*;

/// The `location` blocks of the nginx server documented in docs/operating.md, pointed at `to`
/// (host:port) instead of the documented 127.0.0.1:8080.
fn documented_locations(to: &str) -> String {
    let doc = include_str!("../../docs/operating.md");
    let start = doc.find("```nginx\n").expect("an nginx block in docs/operating.md");
    let block = &doc[start..];
    let server_end = block.find("\n}\n").expect("the server block's end");
    let server = &block[..server_end];
    let from = server.find("    location / {").expect("location /");
    let locations = &server[from..];
    assert!(locations.contains("location = /live"), "the stream's block is documented");
    locations.replace("127.0.0.1:8080", to)
}

/// nginx on two free ports in front of `to`: the first as documented, the second with the
/// event stream refused (a proxy or network that blocks it). Ended when dropped.
struct Nginx {
    child: Child,
    pub documented: String,
    pub blocked: String,
}

impl Nginx {
    fn start(dir: &Path, to: &str) -> Nginx {
        let port = || std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let (p1, p2) = (port(), port());
        let locations = documented_locations(to);
        let d = dir.display();
        let conf = format!(
            "daemon off;\nmaster_process off;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\n\
             events {{ worker_connections 256; }}\n\
             http {{\n access_log off;\n client_body_temp_path {d}/body;\n proxy_temp_path {d}/proxy;\n\
             fastcgi_temp_path {d}/fcgi;\n uwsgi_temp_path {d}/uwsgi;\n scgi_temp_path {d}/scgi;\n\
             server {{\n listen 127.0.0.1:{p1};\n{locations}\n}}\n\
             server {{\n listen 127.0.0.1:{p2};\n location = /live {{ return 403; }}\n\
             location / {{ proxy_pass http://{to}; proxy_set_header Host $host; }}\n}}\n}}\n"
        );
        let path = dir.join("nginx.conf");
        std::fs::write(&path, conf).unwrap();
        let child = Command::new("/usr/sbin/nginx")
            .arg("-p")
            .arg(dir)
            .arg("-c")
            .arg(&path)
            .stdin(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("nginx (/usr/sbin/nginx)");
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", p2)).is_err() {
            assert!(
                Instant::now() < deadline,
                "nginx did not listen: {}",
                std::fs::read_to_string(dir.join("error.log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Nginx {
            child,
            documented: format!("http://127.0.0.1:{p1}"),
            blocked: format!("http://127.0.0.1:{p2}"),
        }
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Page {
    rt: tokio::runtime::Runtime,
    wd: Wd,
}

impl Page {
    fn goto(&mut self, url: &str) {
        self.rt.block_on(self.wd.goto(url)).unwrap_or_else(|e| panic!("goto {url}: {e}"));
    }
    fn js(&mut self, script: &str) -> Value {
        self.rt.block_on(self.wd.execute(script, vec![])).unwrap_or_else(|e| panic!("{script}: {e}"))
    }
    fn fill(&mut self, css: &str, text: &str) {
        let r = self.rt.block_on(async {
            let el = self.wd.find(Locator::Css(css)).await?;
            el.click().await?;
            el.send_keys(text).await
        });
        r.unwrap_or_else(|e| panic!("fill {css}: {e}"));
    }
    /// Wait until `script` returns true, at most `limit`; how long it took.
    fn until(&mut self, script: &str, limit: Duration) -> Option<Duration> {
        let start = Instant::now();
        while start.elapsed() < limit {
            if self.js(script) == Value::Bool(true) {
                return Some(start.elapsed());
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        None
    }
    fn shot(&mut self, path: &Path) {
        let png = self.rt.block_on(self.wd.screenshot()).expect("screenshot");
        std::fs::write(path, png).expect("write screenshot");
    }
}

/// The live contract in a real browser: a result saved by another client appears on an open
/// pairings page within about a second without a reload, the reader's typing and focus kept;
/// with the stream blocked, polling shows the next one.
#[test]
#[cfg_attr(
    not(tengen_browser),
    ignore = "needs chromium, chromium-driver and nginx (.ci/run installs them); TENGEN_TEST_BROWSER=1 runs it"
)]
fn a_saved_result_appears_on_an_open_page_without_a_reload() {
    let driver =
        find_program("CHROMEDRIVER", &["/usr/bin/chromedriver", "chromedriver"]).expect("chromedriver");
    let chrome =
        find_program("CHROME_BIN", &["/usr/bin/chromium", "chromium", "chromium-browser"]).expect("chromium");
    let shots = artifacts_dir().join("live");
    let _ = std::fs::remove_dir_all(&shots);
    std::fs::create_dir_all(&shots).unwrap();
    let d = Driver::start(&driver, &artifacts_dir().join("chromedriver-live.log"));

    let s = Server::start();
    let org = s.first_organizer();
    let tid =
        tournament_with_players(&org, "直播浏览器赛", "Live Browser Open", &[("colour_method", "lots")], 8);
    pair_round(&org, tid, 1, "16");
    publish_round(&s, &org, tid, 1);
    let tmp = tempfile::tempdir().unwrap();
    let nginx = Nginx::start(tmp.path(), s.base.trim_start_matches("http://"));

    let profile = tmp.path().join("profile");
    std::fs::create_dir_all(&profile).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let wd = rt
        .block_on(
            ClientBuilder::new(connector)
                .capabilities(chromium_caps(&chrome, &profile, tmp.path(), "en"))
                .connect(&d.url),
        )
        .expect("Chromium through chromedriver");
    let mut p = Page { rt, wd };

    // 1. Through nginx as documented: the stream is open; a result saved elsewhere shows.
    let g1 = game_id(&s.db, tid, 1, 1);
    p.goto(&format!("{}/t/{tid}/pairings", nginx.documented));
    assert!(
        p.until("return window.tengenLive === 'open';", Duration::from_secs(10)).is_some(),
        "the stream opens"
    );
    p.js("window.__marker = 'loaded once'; return true;");
    p.fill("input[name=q]", "Zhang");
    let empty = format!("return document.querySelector('#g{g1} td.result').textContent.trim() === '';");
    assert_eq!(p.js(&empty), Value::Bool(true), "no result yet");
    enter(&org, tid, g1, &[("method", "resignation"), ("winner", "black")]);
    let shown = format!("return document.querySelector('#g{g1} td.result').textContent.trim() !== '';");
    let took = p.until(&shown, Duration::from_secs(3));
    p.shot(&shots.join("01-result-live.png"));
    let took = took.expect("the result appears without a reload");
    assert!(took <= Duration::from_millis(1500), "shown after {took:?}");
    assert_eq!(p.js("return window.__marker;"), Value::String("loaded once".into()), "no reload");
    assert_eq!(p.js("return document.querySelector('input[name=q]').value;"), Value::String("Zhang".into()));
    assert_eq!(
        p.js("return document.activeElement && document.activeElement.name;"),
        Value::String("q".into()),
        "the field keeps the focus"
    );

    // 2. Behind a proxy that refuses the stream: the page polls, and the next result shows.
    let g2 = game_id(&s.db, tid, 1, 2);
    p.goto(&format!("{}/t/{tid}/results?round=1", nginx.blocked));
    assert!(
        p.until("return window.tengenLive === 'polling';", Duration::from_secs(15)).is_some(),
        "the page turns to polling"
    );
    p.js("window.__marker = 'polled page'; return true;");
    enter(&org, tid, g2, &[("method", "resignation"), ("winner", "white")]);
    let shown = format!("return document.querySelector('#g{g2} td.result').textContent.trim() !== '';");
    let took = p.until(&shown, Duration::from_secs(20));
    p.shot(&shots.join("02-result-polled.png"));
    assert!(took.is_some(), "the polled page shows the result within one poll (15 s)");
    assert_eq!(p.js("return window.__marker;"), Value::String("polled page".into()), "no reload");
    let _ = p.rt.block_on(p.wd.close());
}

/// Tournament practice (签到, one desk for the hall): the check-in desk open in the browser
/// shows a player's check-in on a phone at once (its own script follows `tengen:changed`; it
/// has no timer of its own), without a reload.
#[test]
#[cfg_attr(
    not(tengen_browser),
    ignore = "needs chromium and chromium-driver (.ci/run installs them); TENGEN_TEST_BROWSER=1 runs it"
)]
fn the_desk_shows_a_phone_check_in_at_once() {
    let driver =
        find_program("CHROMEDRIVER", &["/usr/bin/chromedriver", "chromedriver"]).expect("chromedriver");
    let chrome =
        find_program("CHROME_BIN", &["/usr/bin/chromium", "chromium", "chromium-browser"]).expect("chromium");
    std::fs::create_dir_all(artifacts_dir()).unwrap();
    let d = Driver::start(&driver, &artifacts_dir().join("chromedriver-desk-live.log"));

    let s = Server::start();
    let org = s.first_organizer().in_chinese();
    let tid = tournament_with_players(&org, "签到直播赛", "Desk Live Open", &[], 8);
    let desk = format!("/t/{tid}/check-in");
    assert_eq!(org.submit(&desk, &format!("/t/{tid}/check-in/code"), &[]).status, 303);
    let code =
        query_text(&s.db, &format!("SELECT code FROM check_in_codes WHERE tournament_id = {tid}")).unwrap();

    let tmp = tempfile::tempdir().unwrap();
    let (rt, wd) = chromium_session(&d, &chrome, tmp.path(), "zh-CN");
    let mut p = Page { rt, wd };
    p.goto(&format!("{}/login", s.base));
    p.fill("input[name=username]", ORG_USER);
    p.fill("input[name=password]", ORG_PASS);
    p.js("document.querySelector('form.narrow').submit(); return true;");
    assert!(p.until("return !!document.querySelector('footer');", Duration::from_secs(10)).is_some());
    p.goto(&format!("{}{desk}", s.base));
    assert!(
        p.until("return window.tengenLive === 'open';", Duration::from_secs(10)).is_some(),
        "the desk's stream opens"
    );
    p.js("window.__marker = 'desk loaded once'; return true;");
    let counts = "return document.querySelector('#counts strong').textContent;";
    assert_eq!(p.js(counts), Value::String("0".into()), "nobody checked in yet");

    // A player checks in on a phone with the hall's code.
    let phone = s.client().in_chinese();
    let me = format!("/t/{tid}/check-in/self");
    let r = phone.submit(&me, &me, &[("name", "wang yi"), ("code", &code)]);
    assert_eq!(r.status, 200, "{}", r.body);
    let took = p
        .until("return document.querySelector('#counts strong').textContent === '1';", Duration::from_secs(9))
        .expect("the check-in shown on the desk");
    assert!(took <= Duration::from_secs(2), "shown after {took:?}");
    assert_eq!(p.js("return window.__marker;"), Value::String("desk loaded once".into()), "no reload");
    let _ = p.rt.block_on(p.wd.close());
}
