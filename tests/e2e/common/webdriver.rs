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
