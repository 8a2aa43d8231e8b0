//! The browser tests' WebDriver pieces (tests/e2e/browser*.rs): finding
//! chromedriver and Chromium, chromedriver on a free port, Chromium's capabilities.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub fn find_program(env: &str, candidates: &[&str]) -> Option<PathBuf> {
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

pub fn artifacts_dir() -> PathBuf {
    // CARGO_TARGET_TMPDIR is target/tmp; the artifacts sit beside it.
    Path::new(env!("CARGO_TARGET_TMPDIR")).parent().unwrap_or(Path::new("target")).join("browser-artifacts")
}

/// chromedriver on a free port, ended when dropped.
pub struct Driver {
    child: Child,
    pub url: String,
}

impl Driver {
    pub fn start(path: &Path, log: &Path) -> Driver {
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

/// A Chromium session through `driver` in language `lang` (its profile and downloads in
/// `dir`), on a runtime of its own.
pub fn chromium_session(
    driver: &Driver,
    chrome: &Path,
    dir: &Path,
    lang: &str,
) -> (tokio::runtime::Runtime, fantoccini::Client) {
    let profile = dir.join("profile");
    std::fs::create_dir_all(&profile).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let wd = rt
        .block_on(
            fantoccini::ClientBuilder::new(connector)
                .capabilities(chromium_caps(chrome, &profile, dir, lang))
                .connect(&driver.url),
        )
        .expect("Chromium through chromedriver");
    (rt, wd)
}

pub fn chromium_caps(
    chrome: &Path,
    profile: &Path,
    downloads: &Path,
    lang: &str,
) -> serde_json::Map<String, serde_json::Value> {
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
                // The clock speaks without a tap first (tests/e2e/browser_clock.rs).
                "--autoplay-policy=no-user-gesture-required",
                format!("--user-data-dir={}", profile.display()),
                "--window-size=1280,1400",
                format!("--lang={lang}"),
                format!("--accept-lang={lang}"),
            ],
            "prefs": {
                "intl.accept_languages": lang,
                // Downloads go to this folder without asking (chromedriver passes the folder
                // on to headless Chromium with Browser.setDownloadBehavior).
                "download.default_directory": downloads.display().to_string(),
                "download.prompt_for_download": false,
            },
        }
    });
    match caps {
        serde_json::Value::Object(m) => m,
        _ => unreachable!(),
    }
}

/// A Chromium session on the test server at `base`, as the browser tests drive it: pages
/// opened by path, elements found by CSS, script run, screenshots numbered in `shots`.
pub struct Page {
    pub rt: tokio::runtime::Runtime,
    pub wd: fantoccini::Client,
    pub base: String,
    pub shots: PathBuf,
    pub n: usize,
}

impl Page {
    pub fn goto(&mut self, path: &str) {
        let url = format!("{}{path}", self.base);
        self.rt.block_on(self.wd.goto(&url)).unwrap_or_else(|e| panic!("goto {url}: {e}"));
    }

    pub fn wait_for(&mut self, css: &str) {
        let r = self.rt.block_on(
            self.wd.wait().at_most(Duration::from_secs(20)).for_element(fantoccini::Locator::Css(css)),
        );
        r.unwrap_or_else(|e| panic!("no {css}: {e}"));
    }

    pub fn js(&mut self, script: &str) -> serde_json::Value {
        self.rt.block_on(self.wd.execute(script, vec![])).unwrap_or_else(|e| panic!("{script}: {e}"))
    }

    /// Click `css`. A page whose part is replaced when the live stream tells of a write (the
    /// board) may drop an element found just before: it is found again (a few times).
    pub fn click(&mut self, css: &str) {
        for attempt in 0.. {
            let r =
                self.rt.block_on(async { self.wd.find(fantoccini::Locator::Css(css)).await?.click().await });
            match r {
                Ok(()) => return,
                Err(e) if attempt < 5 && e.to_string().contains("stale") => {
                    std::thread::sleep(Duration::from_millis(50))
                }
                Err(e) => panic!("click {css}: {e}"),
            }
        }
    }

    pub fn fill(&mut self, css: &str, text: &str) {
        let r = self.rt.block_on(async {
            let el = self.wd.find(fantoccini::Locator::Css(css)).await?;
            el.clear().await?;
            el.send_keys(text).await
        });
        r.unwrap_or_else(|e| panic!("fill {css}: {e}"));
    }

    pub fn text(&mut self, css: &str) -> String {
        let r = self.rt.block_on(async { self.wd.find(fantoccini::Locator::Css(css)).await?.text().await });
        r.unwrap_or_else(|e| panic!("text of {css}: {e}")).trim().to_string()
    }

    /// The attribute `name` of the element `id` (empty when either is missing).
    pub fn attr(&mut self, id: &str, name: &str) -> String {
        let v = self.js(&format!(
            "var e = document.getElementById('{id}'); return e ? e.getAttribute('{name}') : null;"
        ));
        v.as_str().unwrap_or("").to_string()
    }

    /// Wait until the element `id`'s attribute `name` is `want` (a minute: a loaded CI machine
    /// answers a busy database's 503 after 4 s and a queue tries again every 5 s); the panic
    /// names the board's queue and status line when the page has them.
    pub fn wait_attr(&mut self, id: &str, name: &str, want: &str) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let v = self.attr(id, name);
            if v == want {
                return;
            }
            if Instant::now() >= deadline {
                let (queued, net) = (
                    self.attr("board", "data-queued"),
                    self.js("var e = document.getElementById('board-net'); return e ? e.textContent : '';"),
                );
                panic!("#{id} {name}: {v:?}, not {want:?} (queued {queued}, status {net})");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// A screenshot, numbered in the order taken.
    pub fn shot(&mut self, name: &str) {
        self.n += 1;
        let png = self.rt.block_on(self.wd.screenshot()).expect("screenshot");
        std::fs::write(self.shots.join(format!("{:02}-{name}.png", self.n)), png).expect("write screenshot");
    }
}

/// A Chromium session for the browser test `name` on the server at `base`, in `lang`:
/// chromedriver started (its log `chromedriver-{name}.log`), the screenshots' folder
/// `{name}/` emptied, the browser's profile in a temporary folder. Keep all three for the test.
pub fn open(name: &str, base: &str, lang: &str) -> (Driver, tempfile::TempDir, Page) {
    let driver =
        find_program("CHROMEDRIVER", &["/usr/bin/chromedriver", "chromedriver"]).expect("chromedriver");
    let chrome =
        find_program("CHROME_BIN", &["/usr/bin/chromium", "chromium", "chromium-browser"]).expect("chromium");
    let shots = artifacts_dir().join(name);
    let _ = std::fs::remove_dir_all(&shots);
    std::fs::create_dir_all(&shots).unwrap();
    let d = Driver::start(&driver, &artifacts_dir().join(format!("chromedriver-{name}.log")));
    let tmp = tempfile::tempdir().unwrap();
    let (rt, wd) = chromium_session(&d, &chrome, tmp.path(), lang);
    (d, tmp, Page { rt, wd, base: base.to_string(), shots, n: 0 })
}

/// The session ends with the page: Chromium is closed, not left running after the test.
impl Drop for Page {
    fn drop(&mut self) {
        let _ = self.rt.block_on(self.wd.clone().close());
    }
}

impl Page {
    /// Logs in through the login form and waits for the next page.
    pub fn log_in(&mut self, user: &str, password: &str) {
        self.goto("/login");
        self.wait_for("form.narrow");
        self.fill("input[name=username]", user);
        self.fill("input[name=password]", password);
        self.click("form.narrow button[type=submit]");
        self.wait_for("footer");
    }
}
