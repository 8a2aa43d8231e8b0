//! Browser tests in real headless Chromium through chromedriver (issue 8.1).
//!
//! The office as a person uses it, once in zh-CN and once in en (the browser's
//! Accept-Language): first-run organizer account, logout and login, a new tournament, a CSV
//! file uploaded through the import form, the entrant list, the language switch, and the public
//! player list on a phone-sized window. Each step saves a screenshot in
//! `target/browser-artifacts/<lang>/NN-step.png`.
//!
//! Steps are a list ([`STEPS`]): later flows (pair and publish a round, results by an arbiter,
//! a ruling, standings, the PDF download) are added as more steps.
//!
//! Without chromedriver the test says so and passes, so `cargo test` works on any machine;
//! with `CI=true` a missing browser fails it (.ci/run installs Debian's chromium and
//! chromium-driver). `CHROMEDRIVER` and `CHROME_BIN` override the paths.

mod common;
use common::*;
use fantoccini::{Client as Wd, ClientBuilder, Locator};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CSV: &str = "姓名,拼音,段位,等级分,单位,地区\n\
王子涵,Wang Zihan,3段,2310,北京棋院,北京市\n\
欧阳娜娜,Ouyang Nana,5级,,上海围棋协会,上海市\n\
李昊然,Li Haoran,职业初段,,杭州棋院,浙江省\n\
,Vannier Rémi,2D,2153,Club de Paris,FR\n";

fn find_program(env: &str, candidates: &[&str]) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(env) {
        let p = PathBuf::from(p);
        return p.exists().then_some(p);
    }
    for c in candidates {
        let p = Path::new(c);
        if p.is_absolute() && p.exists() {
            return Some(p.to_path_buf());
        }
        if let Some(paths) = std::env::var_os("PATH") {
            for dir in std::env::split_paths(&paths) {
                let full = dir.join(c);
                if full.exists() {
                    return Some(full);
                }
            }
        }
    }
    None
}

fn artifacts_dir() -> PathBuf {
    // CARGO_TARGET_TMPDIR is target/tmp; the artifacts sit beside it.
    Path::new(env!("CARGO_TARGET_TMPDIR")).parent().unwrap_or(Path::new("target")).join("browser-artifacts")
}

/// chromedriver on a free port, ended when dropped.
struct Driver {
    child: Child,
    url: String,
}

impl Driver {
    fn start(path: &Path, log: &Path) -> Driver {
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let log = std::fs::File::create(log).expect("chromedriver log");
        let child = Command::new(path)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::from(log.try_clone().unwrap()))
            .stderr(Stdio::from(log))
            .spawn()
            .expect("start chromedriver");
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not listen on {port}");
            std::thread::sleep(Duration::from_millis(100));
        }
        Driver { child, url: format!("http://127.0.0.1:{port}") }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One run of the steps in one language.
struct Flow {
    rt: tokio::runtime::Runtime,
    wd: Wd,
    base: String,
    setup_url: String,
    db: PathBuf,
    /// "zh-CN" or "en".
    lang: &'static str,
    shots: PathBuf,
    n_shot: usize,
    csv_file: PathBuf,
    tid: i32,
}

impl Flow {
    fn zh(&self) -> bool {
        self.lang == "zh-CN"
    }
    fn goto(&mut self, path: &str) {
        let url = format!("{}{path}", self.base);
        self.rt.block_on(self.wd.goto(&url)).unwrap_or_else(|e| panic!("goto {url}: {e}"));
    }
    fn wait_for(&mut self, css: &str) {
        let r =
            self.rt.block_on(self.wd.wait().at_most(Duration::from_secs(20)).for_element(Locator::Css(css)));
        if let Err(e) = r {
            let src = self.source();
            panic!("no {css} on the page ({e}):\n{src}");
        }
    }
    fn fill(&mut self, css: &str, text: &str) {
        let r = self.rt.block_on(async {
            let el = self.wd.find(Locator::Css(css)).await?;
            el.clear().await?;
            el.send_keys(text).await
        });
        r.unwrap_or_else(|e| panic!("fill {css}: {e}"));
    }
    /// Type a file's path into a file input (what choosing a file does).
    fn choose_file(&mut self, css: &str, path: &str) {
        let r = self.rt.block_on(async { self.wd.find(Locator::Css(css)).await?.send_keys(path).await });
        r.unwrap_or_else(|e| panic!("choose {path} in {css}: {e}"));
    }
    fn click(&mut self, css: &str) {
        let r = self.rt.block_on(async { self.wd.find(Locator::Css(css)).await?.click().await });
        r.unwrap_or_else(|e| panic!("click {css}: {e}"));
    }
    fn source(&mut self) -> String {
        self.rt.block_on(self.wd.source()).unwrap_or_default()
    }
    fn url(&mut self) -> String {
        self.rt.block_on(self.wd.current_url()).map(|u| u.to_string()).unwrap_or_default()
    }
    /// Click a submit button and wait until the browser has left `from`'s page.
    fn submit(&mut self, button: &str) {
        let before = self.url();
        let old = self.rt.block_on(self.wd.find(Locator::Css("html"))).expect("html");
        self.click(button);
        let deadline = Instant::now() + Duration::from_secs(20);
        // Wait for the old document to go stale (a new page loaded).
        while self.rt.block_on(old.tag_name()).is_ok() {
            assert!(Instant::now() < deadline, "submitting {button} on {before} loaded no new page");
            std::thread::sleep(Duration::from_millis(50));
        }
        self.wait_for("footer");
    }
    fn expect_text(&mut self, needle: &str) {
        let (src, url) = (self.source(), self.url());
        assert!(src.contains(needle), "[{}] {url} does not show {needle:?}:\n{src}", self.lang);
    }
    fn expect_lang(&mut self, code: &str) {
        self.expect_text(&format!("<html lang=\"{code}\""));
    }
    fn shot(&mut self, name: &str) {
        self.n_shot += 1;
        let png = self.rt.block_on(self.wd.screenshot()).unwrap_or_else(|e| panic!("screenshot: {e}"));
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        let file = self.shots.join(format!("{:02}-{name}.png", self.n_shot));
        std::fs::write(&file, png).expect("write screenshot");
    }
}

type Step = (&'static str, fn(&mut Flow));

/// The steps, in order. Add later flows here (pair and publish, results, rulings, standings,
/// PDF download), each ending with its own screenshot.
const STEPS: &[Step] = &[
    ("first-run", first_run),
    ("login", logout_and_login),
    ("new-tournament", new_tournament),
    ("import-csv", import_csv),
    ("entrants", entrant_list),
    ("switch-language", switch_language),
    ("public-players", public_players),
];

fn first_run(f: &mut Flow) {
    let path = f.setup_url.trim_start_matches(&f.base).to_string();
    f.goto(&path);
    f.wait_for("form.narrow");
    let lang = f.lang;
    f.expect_lang(lang);
    f.shot("first-run-form");
    f.fill("input[name=username]", ORG_USER);
    f.fill("input[name=display_name]", "赛事组织者");
    f.fill("input[name=password]", ORG_PASS);
    f.fill("input[name=password2]", ORG_PASS);
    f.submit("form.narrow button[type=submit]");
    f.expect_text(&format!("{ORG_USER} ("));
    f.expect_text("href=\"/t/new\"");
    f.shot("home-logged-in");
}

fn logout_and_login(f: &mut Flow) {
    f.submit("form[action='/logout'] button");
    f.goto("/login");
    f.wait_for("form.narrow");
    f.fill("input[name=username]", ORG_USER);
    f.fill("input[name=password]", ORG_PASS);
    f.shot("login");
    f.submit("form.narrow button[type=submit]");
    f.expect_text(&format!("{ORG_USER} ("));
    assert_eq!(count_rows(&f.db, "SELECT count(*) FROM sessions"), 1, "the first session ended at logout");
}

fn new_tournament(f: &mut Flow) {
    f.click("a[href='/t/new']");
    f.wait_for("form.settings");
    let (zh, latin) = if f.zh() {
        ("浏览器杯围棋赛", "Browser Cup")
    } else {
        ("浏览器公开赛", "Browser Open")
    };
    f.fill("input[name=name_zh]", zh);
    f.fill("input[name=name_latin]", latin);
    f.fill("input[name=venue]", "中国棋院");
    f.shot("new-tournament-form");
    f.submit("form.settings button[type=submit]");
    let url = f.url();
    f.tid =
        url.rsplit("/t/").next().and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("overview URL {url}"));
    f.expect_text(zh);
    f.expect_text(latin);
    f.shot("tournament-overview");
}

fn import_csv(f: &mut Flow) {
    let tid = f.tid;
    f.goto(&format!("/t/{tid}/import"));
    f.wait_for("form[action$='/import/csv'] input[type=file]");
    let file = f.csv_file.display().to_string();
    f.choose_file("form[action$='/import/csv'] input[type=file]", &file);
    f.shot("import-form");
    f.submit("form[action$='/import/csv'] button[type=submit]");
    f.wait_for("#summary");
    f.expect_text("欧阳娜娜");
    f.shot("import-preview");
    assert_eq!(count_rows(&f.db, "SELECT count(*) FROM entrants"), 0, "a preview writes nothing");
    f.submit("form[action$='/import/csv/confirm'] button[type=submit]");
    assert_eq!(count_rows(&f.db, "SELECT count(*) FROM entrants"), 4);
}

fn entrant_list(f: &mut Flow) {
    f.wait_for("table.entrants");
    for name in ["王子涵", "欧阳娜娜", "李昊然", "Vannier Rémi"] {
        f.expect_text(name);
    }
    let rows = f.source().matches("id=\"entrant-").count();
    assert_eq!(rows, 4);
    f.shot("entrants");
}

fn switch_language(f: &mut Flow) {
    let (other, back) = if f.zh() { ("en", "zh-CN") } else { ("zh-CN", "en") };
    f.submit(".langs a");
    f.expect_lang(other);
    f.wait_for("table.entrants");
    f.shot(&format!("entrants-in-{other}"));
    f.submit(".langs a");
    f.expect_lang(back);
}

fn public_players(f: &mut Flow) {
    f.submit("form[action='/logout'] button");
    let tid = f.tid;
    // A phone-sized window: the public pages are read on phones at the venue.
    f.rt.block_on(f.wd.set_window_size(390, 844)).expect("window size");
    f.goto(&format!("/t/{tid}/players"));
    f.wait_for("table.players");
    f.expect_text("王子涵");
    let src = f.source();
    assert!(!src.contains("/t/1/entrants\""), "no staff navigation for the public");
    f.shot("public-players-phone");
    f.rt.block_on(f.wd.set_window_size(1280, 1400)).expect("window size");
}

fn chromium_caps(chrome: &Path, profile: &Path, lang: &str) -> serde_json::Map<String, serde_json::Value> {
    let caps = serde_json::json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": chrome.display().to_string(),
            "args": [
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--hide-scrollbars",
                format!("--user-data-dir={}", profile.display()),
                "--window-size=1280,1400",
                format!("--lang={lang}"),
                format!("--accept-lang={lang}"),
            ],
            "prefs": { "intl.accept_languages": lang },
        }
    });
    match caps {
        serde_json::Value::Object(m) => m,
        _ => unreachable!(),
    }
}

fn run_flow(driver: &Driver, chrome: &Path, lang: &'static str) {
    let s = Server::start();
    let tmp = tempfile::tempdir().unwrap();
    let profile = tmp.path().join("profile");
    std::fs::create_dir_all(&profile).unwrap();
    let csv_file = tmp.path().join("entrants.csv");
    std::fs::write(&csv_file, CSV).unwrap();
    let shots = artifacts_dir().join(lang);
    let _ = std::fs::remove_dir_all(&shots);
    std::fs::create_dir_all(&shots).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let wd = rt
        .block_on(
            ClientBuilder::new(connector)
                .capabilities(chromium_caps(chrome, &profile, lang))
                .connect(&driver.url),
        )
        .unwrap_or_else(|e| panic!("start Chromium through chromedriver: {e}"));
    let mut f = Flow {
        rt,
        wd,
        base: s.base.clone(),
        setup_url: s.setup_url.clone().expect("first-run link"),
        db: s.db.clone(),
        lang,
        shots,
        n_shot: 0,
        csv_file,
        tid: 0,
    };
    for (name, step) in STEPS {
        let started = Instant::now();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| step(&mut f)));
        if r.is_err() {
            f.shot(&format!("FAILED-{name}"));
            let wd = f.wd.clone();
            let _ = f.rt.block_on(wd.close());
            std::panic::resume_unwind(r.err().unwrap());
        }
        eprintln!("[{lang}] {name}: ok in {:.1}s", started.elapsed().as_secs_f64());
    }
    let wd = f.wd.clone();
    f.rt.block_on(wd.close()).expect("close the browser");
}

#[test]
fn the_office_in_a_real_browser_in_zh_cn_and_en() {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let driver = find_program("CHROMEDRIVER", &["/usr/bin/chromedriver", "chromedriver"]);
    let chrome = find_program("CHROME_BIN", &["/usr/bin/chromium", "chromium", "chromium-browser"]);
    let (Some(driver), Some(chrome)) = (driver, chrome) else {
        assert!(
            !ci,
            "CI=true but chromium or chromedriver is missing: .ci/run installs them with \
             `apt-get install -y chromium chromium-driver`"
        );
        eprintln!(
            "SKIPPED browser test: chromedriver or chromium not found \
             (apt-get install chromium chromium-driver, or set CHROMEDRIVER and CHROME_BIN)"
        );
        return;
    };
    std::fs::create_dir_all(artifacts_dir()).unwrap();
    let d = Driver::start(&driver, &artifacts_dir().join("chromedriver.log"));
    for lang in ["zh-CN", "en"] {
        run_flow(&d, &chrome, lang);
    }
    let n = std::fs::read_dir(artifacts_dir().join("en")).map(|d| d.count()).unwrap_or(0);
    assert!(n >= STEPS.len(), "{n} screenshots in en");
}
