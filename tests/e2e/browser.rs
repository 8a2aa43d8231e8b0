//! Browser tests in real headless Chromium through chromedriver.
//!
//! The office as people use it, once in zh-CN and once in en (the browser's Accept-Language):
//! - the organizer: first-run account, logout and login, a new tournament, a CSV file uploaded
//!   through the import form, the entrant list, the language switch; an arbiter's account made
//!   on the accounts page and put on the tournament's staff from the overview; round 1 paired
//!   with a typed seed, its draft reviewed (no warnings, two tables) and published;
//! - the public on a phone-sized window: the player list and round 1's pairings;
//! - the arbiter, logged in as themselves: every game of round 1 through the result forms
//!   (a count, previewed then saved; a resignation), a ruling (one penalty stone, previewed,
//!   which turns B+¾ into W+¼), both players' and the arbiter's confirmations (locked);
//! - the organizer pairs and publishes round 2 and downloads its scoresheets; the arbiter
//!   enters round 2 (a loss on time, a count with both counts);
//! - the public: the standings page lists the players in the order computed here from the
//!   entered games ([`expected_standings`]), and the public pairing list PDF downloads.
//!
//! Downloads are real: Chromium saves them in a folder of the test (`download.default_directory`)
//! and the test reads the file back (`%PDF-`, every player's name in its text). Each step saves
//! screenshots in `target/browser-artifacts/<lang>/NN-step.png`, the downloaded PDFs beside them.
//!
//! Steps are a list ([`STEPS`]): a later flow is one more step.
//!
//! It runs with `TENGEN_TEST_BROWSER=1` (`build.rs`; `.ci/run` sets it and installs Debian's
//! chromium and chromium-driver), and then a missing browser fails it; otherwise it is ignored
//! with that reason. `CHROMEDRIVER` and `CHROME_BIN` override the paths.

use crate::common;
use crate::common::webdriver;
use common::*;
use fantoccini::{Client as Wd, ClientBuilder, Locator};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use webdriver::*;

const CSV: &str = "姓名,拼音,段位,等级分,单位,地区\n\
王子涵,Wang Zihan,3段,2310,北京棋院,北京市\n\
欧阳娜娜,Ouyang Nana,5级,,上海围棋协会,上海市\n\
李昊然,Li Haoran,职业初段,,杭州棋院,浙江省\n\
,Vannier Rémi,2D,2153,Club de Paris,FR\n";

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
    /// Chromium's download folder (download.default_directory).
    downloads: PathBuf,
    tid: i32,
    /// Every game the arbiter entered, in order; standings are computed from these.
    played: Vec<Played>,
    /// Entrant id → the name the pages show in this language.
    names: BTreeMap<i32, String>,
}

/// One game as the arbiter entered it: who had Black and White (entrant ids) and who won.
#[derive(Debug, Clone, Copy)]
struct Played {
    round: u32,
    black: i32,
    white: i32,
    winner: i32,
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
    /// Choose the option with `value` in a select.
    fn select(&mut self, css: &str, value: &str) {
        let r =
            self.rt.block_on(async { self.wd.find(Locator::Css(css)).await?.select_by_value(value).await });
        r.unwrap_or_else(|e| panic!("select {value} in {css}: {e}"));
    }
    /// Choose the option whose text is `label` in a select.
    fn select_label(&mut self, css: &str, label: &str) {
        let r =
            self.rt.block_on(async { self.wd.find(Locator::Css(css)).await?.select_by_label(label).await });
        r.unwrap_or_else(|e| panic!("select {label:?} in {css}: {e}"));
    }
    /// The visible text of the first element matching `css`.
    fn text(&mut self, css: &str) -> String {
        let r = self.rt.block_on(async { self.wd.find(Locator::Css(css)).await?.text().await });
        r.unwrap_or_else(|e| panic!("text of {css}: {e}")).trim().to_string()
    }
    /// An attribute of every element matching `css`, in document order.
    fn attrs(&mut self, css: &str, attr: &str) -> Vec<String> {
        let r = self.rt.block_on(async {
            let mut out = Vec::new();
            for el in self.wd.find_all(Locator::Css(css)).await? {
                out.push(el.attr(attr).await?.unwrap_or_default());
            }
            Ok::<_, fantoccini::error::CmdError>(out)
        });
        r.unwrap_or_else(|e| panic!("{attr} of {css}: {e}"))
    }
    /// The visible text of every element matching `css`, in document order.
    fn texts(&mut self, css: &str) -> Vec<String> {
        let r = self.rt.block_on(async {
            let mut out = Vec::new();
            for el in self.wd.find_all(Locator::Css(css)).await? {
                out.push(el.text().await?.trim().to_string());
            }
            Ok::<_, fantoccini::error::CmdError>(out)
        });
        r.unwrap_or_else(|e| panic!("text of {css}: {e}"))
    }
    fn expect_in(&mut self, css: &str, needle: &str) {
        let (text, url) = (self.text(css), self.url());
        assert!(text.contains(needle), "[{}] {url}: {css} shows {text:?}, not {needle:?}", self.lang);
    }
    fn login(&mut self, user: &str, pass: &str) {
        self.goto("/login");
        self.wait_for("form.narrow");
        self.fill("input[name=username]", user);
        self.fill("input[name=password]", pass);
        self.submit("form.narrow button[type=submit]");
        self.expect_text(&format!("{user} ("));
    }
    fn logout(&mut self) {
        self.submit("form[action='/logout'] button");
        self.expect_text("href=\"/login\"");
    }
    /// Click a link that downloads a file and wait until Chromium has saved it in the download
    /// folder (a finished download is renamed from `.crdownload` to its own name). Returns the
    /// file's name and bytes.
    fn download(&mut self, link: &str) -> (String, Vec<u8>) {
        let listing = |dir: &Path| -> Vec<String> {
            let mut v: Vec<String> = std::fs::read_dir(dir)
                .map(|d| {
                    d.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect()
                })
                .unwrap_or_default();
            v.sort();
            v
        };
        let before = listing(&self.downloads);
        self.click(link);
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let done = listing(&self.downloads)
                .into_iter()
                .find(|n| !before.contains(n) && !n.ends_with(".crdownload") && !n.starts_with('.'));
            if let Some(name) = done {
                let bytes = std::fs::read(self.downloads.join(&name)).expect("read the download");
                if !bytes.is_empty() {
                    return (name, bytes);
                }
            }
            assert!(
                Instant::now() < deadline,
                "clicking {link} downloaded nothing into {:?}",
                self.downloads
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    /// A screenshot with the element `css` scrolled into the middle of the window (the
    /// screenshot is of the window, and result sheets are longer than one).
    fn shot_of(&mut self, css: &str, name: &str) {
        let r = self.rt.block_on(async {
            let el = self.wd.find(Locator::Css(css)).await?;
            let arg = serde_json::to_value(&el).expect("an element as a script argument");
            self.wd.execute("arguments[0].scrollIntoView({block: 'center'});", vec![arg]).await
        });
        r.unwrap_or_else(|e| panic!("scroll to {css}: {e}"));
        self.shot(name);
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

/// The steps, in order; each ends with its own screenshot.
const STEPS: &[Step] = &[
    ("first-run", first_run),
    ("login", logout_and_login),
    ("new-tournament", new_tournament),
    ("import-csv", import_csv),
    ("entrants", entrant_list),
    ("switch-language", switch_language),
    ("arbiter-account", arbiter_account),
    ("pair-round-1", pair_round_1),
    ("public-players", public_players),
    ("results-round-1", results_round_1),
    ("pair-round-2", pair_round_2),
    ("results-round-2", results_round_2),
    ("public-standings", public_standings),
    ("public-pdf", public_pdf),
];

const ARB_USER: &str = "arbiter";
const ARB_PASS: &str = "arbiter-secret-1";

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
    f.logout();
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
    // Colours by drawn lots: the results steps enter counts at once (a nigiri board needs its
    // nigiri recorded first).
    f.select("#f-colour_method", "lots");
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

/// The organizer creates an arbiter's account on the accounts page and puts it on the
/// tournament's staff from the overview page.
fn arbiter_account(f: &mut Flow) {
    f.submit("header a[href='/users']");
    f.wait_for("#user-add");
    f.fill("#f-username", ARB_USER);
    f.fill("#f-display_name", if f.zh() { "李裁判" } else { "Referee Li" });
    f.select("#f-role", "arbiter");
    f.fill("#f-password", ARB_PASS);
    f.shot("users-add-arbiter");
    f.submit("#user-add button[type=submit]");
    f.wait_for("#notice");
    f.expect_in("#notice", ARB_USER);
    f.shot("users-arbiter-created");
    let tid = f.tid;
    f.goto(&format!("/t/{tid}"));
    f.wait_for("#staff-add");
    // The dropdown names each account with its display name (found by either).
    let shown = if f.zh() { "李裁判" } else { "Referee Li" };
    f.select_label("#staff-add select[name=user_id]", &format!("{ARB_USER} ({shown})"));
    f.select("#staff-add select[name=role]", "arbiter");
    f.submit("#staff-add button[type=submit]");
    f.wait_for(&format!("#staff-{ARB_USER}"));
    let role = if f.zh() { "裁判" } else { "arbiter" };
    f.expect_in(&format!("#staff-{ARB_USER}"), role);
    f.shot("staff-with-arbiter");
}

/// The organizer pairs round `n` with a typed seed (so a run can be repeated), reviews the
/// draft and publishes it. Four players: two games, no bye.
fn pair_round(f: &mut Flow, n: u32, seed: &str) {
    let tid = f.tid;
    f.submit(&format!("nav.sub a[href='/t/{tid}/rounds']"));
    f.wait_for("#pair-form");
    f.fill("#pair-form input[name=seed]", seed);
    f.shot(&format!("round-{n}-pair-form"));
    f.submit("#pair-form button[type=submit]");
    // The draft: review, games by table, the seed that made it.
    f.wait_for(".state.draft");
    assert_eq!(f.text("#seed"), seed);
    f.wait_for("#no-warnings");
    assert_eq!(f.attrs("table.pairings tr.game", "id"), ["game-1", "game-2"], "two tables");
    f.shot(&format!("round-{n}-draft-review"));
    f.submit("#publish-form button[type=submit]");
    f.wait_for(".state.published");
    f.wait_for("#unpublish-form");
    f.shot(&format!("round-{n}-published"));
}

fn pair_round_1(f: &mut Flow) {
    pair_round(f, 1, "20261201");
}

fn public_players(f: &mut Flow) {
    f.logout();
    let tid = f.tid;
    // A phone-sized window: the public pages are read on phones at the venue.
    f.rt.block_on(f.wd.set_window_size(390, 844)).expect("window size");
    f.goto(&format!("/t/{tid}/players"));
    f.wait_for("table.players");
    f.expect_text("王子涵");
    let src = f.source();
    assert!(!src.contains(&format!("/t/{tid}/entrants\"")), "no staff navigation for the public");
    f.shot("public-players-phone");
    // The published round 1, as players look for their table.
    f.goto(&format!("/t/{tid}/pairings"));
    f.wait_for("table.games");
    assert_eq!(f.attrs("table.games tbody tr", "class").len(), 2, "two tables in round 1");
    f.shot("public-pairings-phone");
    f.rt.block_on(f.wd.set_window_size(1280, 1400)).expect("window size");
}

/// From the home page's list, the tournament's overview.
fn open_tournament(f: &mut Flow) {
    let tid = f.tid;
    f.submit(&format!("main a[href='/t/{tid}']"));
    f.wait_for("nav.sub");
}

/// A round's results page (the arbiter's): the games' ids, by board.
fn results_round(f: &mut Flow, n: u32) -> Vec<i32> {
    let tid = f.tid;
    f.submit(&format!("nav.sub a[href='/t/{tid}/results/rounds']"));
    f.wait_for(&format!("a[href='/t/{tid}/results/rounds/{n}']"));
    f.submit(&format!("a[href='/t/{tid}/results/rounds/{n}']"));
    f.wait_for("tr[id^='game-']");
    f.shot(&format!("results-round-{n}"));
    let ids = f.attrs("tr[id^='game-']", "id");
    ids.iter().map(|id| id.trim_start_matches("game-").parse().expect("game id")).collect()
}

/// From the round's results page, open game `gid`'s sheet; returns Black's and White's entrant
/// ids (from their player links) and keeps the names the page shows.
fn open_game(f: &mut Flow, gid: i32) -> (i32, i32) {
    f.submit(&format!("#game-{gid} a[href$='/games/{gid}']"));
    f.wait_for("#result-form");
    let mut side = |css: &str| {
        let href = f.attrs(css, "href").pop().unwrap_or_else(|| panic!("no player link {css}"));
        let id: i32 = href.rsplit('/').next().and_then(|v| v.parse().ok()).expect("entrant id");
        let name = f.text(css);
        f.names.insert(id, name);
        id
    };
    (side("#black a"), side("#white a"))
}

/// Enter a result through the game's form: "show the effect" first, then save. `shown` is
/// the result both the preview and the saved sheet must show.
fn enter_result(f: &mut Flow, fields: &[(&str, &str)], shown: &str, name: &str) {
    for (field, value) in fields {
        let css = format!("#result-form #f-{field}");
        if matches!(*field, "method" | "winner") {
            f.select(&css, value);
        } else {
            f.fill(&css, value);
        }
    }
    f.submit("#result-form button[value=preview]");
    f.wait_for("#preview");
    f.expect_in("#preview", shown);
    assert!(!f.text("#result").contains(shown), "[{}] a preview saves nothing", f.lang);
    f.shot_of("#preview", &format!("{name}-preview"));
    // The preview keeps the entry in the form: saving needs no retyping.
    f.submit("#result-form button[value=save]");
    f.wait_for("#notice");
    f.expect_in("#result", shown);
    f.shot(name);
}

/// Back from a game's sheet to its round's results page.
fn back_to_round(f: &mut Flow, n: u32) {
    let tid = f.tid;
    f.submit(&format!(".crumbs a[href='/t/{tid}/results/rounds/{n}']"));
    f.wait_for("tr[id^='game-']");
}

fn results_round_1(f: &mut Flow) {
    f.login(ARB_USER, ARB_PASS);
    let role = if f.zh() { "裁判" } else { "arbiter" };
    f.expect_text(&format!("{ARB_USER} ({role})"));
    assert!(!f.source().contains("href=\"/users\""), "an arbiter manages no accounts");
    open_tournament(f);
    let games = results_round(f, 1);
    assert_eq!(games.len(), 2);
    let zh = f.zh();

    // Table 1: counted, Black 185 at komi 3¾ wins by ¾ stone (rules.md §3.2) ...
    let (b, w) = open_game(f, games[0]);
    enter_result(
        f,
        &[("method", "count"), ("black_count", "185")],
        if zh { "黑胜¾子" } else { "B+¾" },
        "r1-t1-count",
    );
    // ... then a ruling: one penalty stone against Black (rules.md §3.5), previewed first,
    // turns it into White's win by ¼.
    let after = if zh { "白胜¼子" } else { "W+¼" };
    f.select("#ruling-form #f-kind", "penalty_stones");
    f.fill("#ruling-form #f-stones", "1");
    f.select("#ruling-form #f-against", "black");
    f.fill("#ruling-form #f-move_number", "187");
    f.fill("#ruling-form #f-reason", if zh { "裁判长决定罚一子" } else { "the chief arbiter's decision" });
    f.submit("#ruling-form button[value=preview]");
    f.wait_for("#ruling-preview");
    f.expect_in("#ruling-preview", after);
    assert!(!f.source().contains("class=\"ruling-row\""), "a preview records no ruling");
    f.shot_of("#ruling-preview", "r1-t1-ruling-preview");
    f.submit("#ruling-form button[value=save]");
    f.wait_for("tr.ruling-row");
    f.expect_in("#result", after);
    f.wait_for("#penalties");
    f.shot_of("#rulings", "r1-t1-ruling");
    // Both players sign and the arbiter confirms: the result is locked.
    for who in ["black", "white", "arbiter"] {
        f.submit(&format!("#confirm-{who}"));
        f.wait_for(&format!("#conf-{who}"));
    }
    f.wait_for("#locked");
    f.shot_of("#confirmation", "r1-t1-confirmed");
    f.played.push(Played { round: 1, black: b, white: w, winner: w });

    // Table 2: White resigns.
    back_to_round(f, 1);
    let (b, w) = open_game(f, games[1]);
    enter_result(
        f,
        &[("method", "resignation"), ("winner", "black")],
        if zh { "黑中盘胜" } else { "B+R" },
        "r1-t2-resignation",
    );
    f.played.push(Played { round: 1, black: b, white: w, winner: b });
    back_to_round(f, 1);
    f.shot("results-round-1-done");
    f.logout();
}

fn pair_round_2(f: &mut Flow) {
    f.login(ORG_USER, ORG_PASS);
    open_tournament(f);
    pair_round(f, 2, "20261202");
    // Print the scoresheets of the published round (a real download, in this language).
    let lang = if f.zh() { "zh" } else { "en" };
    let (name, pdf) =
        f.download(&format!("#print a[href$='/rounds/2/scoresheets.pdf?per_page=4&lang={lang}']"));
    check_pdf(f, &name, &pdf, 2);
    f.logout();
}

fn results_round_2(f: &mut Flow) {
    f.login(ARB_USER, ARB_PASS);
    open_tournament(f);
    let games = results_round(f, 2);
    assert_eq!(games.len(), 2);
    let zh = f.zh();
    // Table 1: Black's flag falls.
    let (b, w) = open_game(f, games[0]);
    enter_result(
        f,
        &[("method", "time"), ("winner", "white")],
        if zh { "白胜（黑超时）" } else { "W+T" },
        "r2-t1-time",
    );
    f.played.push(Played { round: 2, black: b, white: w, winner: w });
    // Table 2: counted with both counts, White by 8¼ stones.
    back_to_round(f, 2);
    let (b, w) = open_game(f, games[1]);
    enter_result(
        f,
        &[("method", "count"), ("black_count", "176"), ("white_count", "185")],
        if zh { "白胜8¼子" } else { "W+8¼" },
        "r2-t2-count",
    );
    f.played.push(Played { round: 2, black: b, white: w, winner: w });
    back_to_round(f, 2);
    f.shot("results-round-2-done");
    f.logout();
}

/// The standings the entered games must give under the event's default tie-breaks (score,
/// SOS, cumulative score, ...). Four players in two Swiss rounds always come out in a strict
/// order by score, SOS and cumulative score alone, so no lot decides; the assertion says so if
/// a change of the results ever leaves a tie.
fn expected_standings(played: &[Played]) -> Vec<i32> {
    let rounds = played.iter().map(|g| g.round).max().unwrap_or(0);
    let mut players: Vec<i32> = played.iter().flat_map(|g| [g.black, g.white]).collect();
    players.sort();
    players.dedup();
    let score_after = |p: i32, r: u32| played.iter().filter(|g| g.round <= r && g.winner == p).count();
    let score = |p: i32| score_after(p, rounds);
    let sos = |p: i32| -> usize {
        played
            .iter()
            .filter_map(|g| match p {
                _ if g.black == p => Some(g.white),
                _ if g.white == p => Some(g.black),
                _ => None,
            })
            .map(score)
            .sum()
    };
    let cumulative = |p: i32| (1..=rounds).map(|r| score_after(p, r)).sum::<usize>();
    let key = |p: i32| (score(p), sos(p), cumulative(p));
    players.sort_by_key(|p| std::cmp::Reverse(key(*p)));
    for w in players.windows(2) {
        assert_ne!(
            key(w[0]),
            key(w[1]),
            "players {} and {} tie: the lot would decide ({played:?})",
            w[0],
            w[1]
        );
    }
    players
}

fn public_standings(f: &mut Flow) {
    // Anonymous (the last step logged out), from the overview's public links.
    let tid = f.tid;
    f.goto(&format!("/t/{tid}"));
    f.wait_for(".public-links");
    f.submit(&format!(".public-links a[href='/t/{tid}/standings']"));
    f.wait_for("#standings tbody tr");
    assert!(!f.source().contains("action=\"/logout\""), "the standings as the public sees them");
    let ids: Vec<i32> = f
        .attrs("#standings tbody tr a", "href")
        .iter()
        .map(|h| h.rsplit('/').next().and_then(|v| v.parse().ok()).expect("player link"))
        .collect();
    let names = f.texts("#standings tbody tr a");
    let expected = expected_standings(&f.played);
    let expected_names: Vec<String> = expected.iter().map(|id| f.names[id].clone()).collect();
    assert_eq!(names, expected_names, "[{}] standings order", f.lang);
    assert_eq!(ids, expected);
    f.shot("public-standings");
}

fn public_pdf(f: &mut Flow) {
    let tid = f.tid;
    f.submit(&format!("nav.sub a[href='/t/{tid}/pairings']"));
    f.wait_for("table.games");
    // The latest round by default; its details page has the downloads.
    f.submit(&format!("main a[href='/t/{tid}/pairings/2']"));
    let link = format!("a[href='/t/{tid}/pairings/2/pairings.pdf?order=table']");
    f.wait_for(&link);
    f.shot("public-round-2");
    let (name, pdf) = f.download(&link);
    check_pdf(f, &name, &pdf, 2);
}

/// A downloaded PDF: the magic bytes, a name ending in .pdf, every player's name in its text.
/// A copy goes beside the screenshots.
fn check_pdf(f: &mut Flow, name: &str, pdf: &[u8], round: u32) {
    assert!(pdf.starts_with(b"%PDF-"), "[{}] {name} is not a PDF: {:?}", f.lang, &pdf[..pdf.len().min(16)]);
    assert!(name.ends_with(".pdf"), "[{}] downloaded as {name}", f.lang);
    let text = readback::squash(&readback::read(name, pdf).all_text());
    let names: Vec<String> = f.names.values().map(|n| readback::squash(n)).collect();
    for n in &names {
        assert!(text.contains(n.as_str()), "[{}] {name} (round {round}) does not name {n}:\n{text}", f.lang);
    }
    f.n_shot += 1;
    std::fs::write(f.shots.join(format!("{:02}-{name}", f.n_shot)), pdf).expect("keep the PDF");
}

fn run_flow(driver: &Driver, chrome: &Path, lang: &'static str) {
    let s = Server::start();
    let tmp = tempfile::tempdir().unwrap();
    let profile = tmp.path().join("profile");
    std::fs::create_dir_all(&profile).unwrap();
    let csv_file = tmp.path().join("entrants.csv");
    std::fs::write(&csv_file, CSV).unwrap();
    let downloads = tmp.path().join("downloads");
    std::fs::create_dir_all(&downloads).unwrap();
    let shots = artifacts_dir().join(lang);
    let _ = std::fs::remove_dir_all(&shots);
    std::fs::create_dir_all(&shots).unwrap();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let wd = rt
        .block_on(
            ClientBuilder::new(connector)
                .capabilities(chromium_caps(chrome, &profile, &downloads, lang))
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
        downloads,
        tid: 0,
        played: Vec::new(),
        names: BTreeMap::new(),
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
#[cfg_attr(
    not(tengen_browser),
    ignore = "needs chromium and chromium-driver (.ci/run installs them); TENGEN_TEST_BROWSER=1 runs it"
)]
fn the_office_in_a_real_browser_in_zh_cn_and_en() {
    let driver = find_program("CHROMEDRIVER", &["/usr/bin/chromedriver", "chromedriver"])
        .expect("chromedriver (apt-get install chromium-driver, or set CHROMEDRIVER)");
    let chrome = find_program("CHROME_BIN", &["/usr/bin/chromium", "chromium", "chromium-browser"])
        .expect("chromium (apt-get install chromium, or set CHROME_BIN)");
    std::fs::create_dir_all(artifacts_dir()).unwrap();
    let d = Driver::start(&driver, &artifacts_dir().join("chromedriver.log"));
    for lang in ["zh-CN", "en"] {
        run_flow(&d, &chrome, lang);
    }
    let n = std::fs::read_dir(artifacts_dir().join("en")).map(|d| d.count()).unwrap_or(0);
    assert!(n >= STEPS.len(), "{n} screenshots in en");
}
