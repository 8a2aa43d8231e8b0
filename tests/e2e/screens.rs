//! Display screens (大屏), through the forms: the event's organizer sets a screen up on
//! `/e/{event}/screens` (its address shown once), the projector opens `/screen/{token}` with no
//! login and reads the round by table and by name (pinyin order, each player once) from its
//! data endpoint (ETag, 304); editing at a stale version is refused; a plain arbiter and another
//! event's organizer are refused; revoking makes the address a 404 at once and a new address
//! works; on an event of two groups a screen shows the groups chosen.

use crate::common;
// Six juniors (the hall test's): names none of EIGHT's contains.
use crate::hall::JUNIORS;
use common::*;

/// Tournament practice: the round by name in pinyin order (the EIGHT players' surnames Li,
/// Qian, Sun, Wang, Wu, Zhang, Zhao, Zhou).
const EIGHT_BY_PINYIN: [&str; 8] = ["李二", "钱五", "孙六", "王一", "吴八", "张三", "赵四", "周七"];

fn event_of(s: &Server, tid: i32) -> i32 {
    query_opt(&s.db, &format!("SELECT event_id FROM event_groups WHERE tournament_id = {tid}")).unwrap()
        as i32
}

/// A group of `n` EIGHT players (or `csv`'s), colours by lot, round 1 paired and published.
fn group_with_round(s: &Server, c: &Client, csv: Option<&str>) -> i32 {
    let mut f = tournament_fields("天元杯", "Tengen Cup");
    set(&mut f, "colour_method", "lots");
    let tid = new_tournament(c, &f);
    let players = csv.map(str::to_string).unwrap_or_else(|| eight_players(8));
    let r = import_file(c, tid, "csv", "players.csv", players.as_bytes());
    assert_eq!(r.status, 303, "{}", r.body);
    pair_round(c, tid, 1, "11");
    publish_round(s, c, tid, 1);
    tid
}

/// The address shown once after a create or re-issue: the write sends the browser (303) to
/// the organizers' page, which shows it (a refresh of that page re-sends no form).
fn shown_url(c: &Client, r: &Resp) -> String {
    assert_eq!(r.status, 303, "{}", r.body);
    let page = c.get(&r.location());
    assert_eq!(page.status, 200, "{}", page.body);
    let body = &page.body;
    let at = body.find("class=\"screen-url\"").expect("the screen's address shown");
    let line = &body[..at];
    let href = line.rfind("href=\"").expect("its link") + 6;
    let url = &line[href..];
    url[..url.find('"').unwrap()].to_string()
}

/// The path of an address (the server's base dropped).
fn path_of(url: &str) -> String {
    url[url.find("/screen/").expect("a screen address")..].to_string()
}

/// The Chinese names of a fragment's list `kind`, page after page, and the ids of their lines.
fn names_in(body: &str, kind: &str) -> (Vec<String>, Vec<i32>) {
    let (mut names, mut ids) = (Vec::new(), Vec::new());
    for page in body.split("<section class=\"screen-page ").skip(1) {
        if !page.starts_with(&format!("screen-{kind}\"")) {
            continue;
        }
        for li in page.split("<li").skip(1) {
            if let Some(p) = li.strip_prefix(" data-p=\"") {
                ids.push(p[..p.find('"').unwrap()].parse().unwrap());
            }
            let main = &li[li.find("<span class=\"main\">").unwrap() + 19..];
            let main = &main[..main.find("</span>").unwrap()];
            names.push(main.split(' ').next().unwrap().to_string());
        }
    }
    (names, ids)
}

fn create(org: &Client, ev: i32, changes: &[(&str, &str)]) -> Resp {
    send_form(org, &format!("/e/{ev}/screens"), "screen-new", changes)
}

/// Tournament practice (大屏): the organizer makes a screen through the form and sees its address
/// once; the address works with no login and shows the round by table and by name, each player
/// once in pinyin order with table and colour, page by page at the rows × columns chosen; its
/// data answers 304 while nothing changed and shows a result once it is saved; a stale edit is
/// refused and nothing written; a plain
/// arbiter and another event's organizer are refused; revoking makes the address a 404 at once,
/// and a new address works while the old stays dead. Every write is audited.
#[test]
fn staff_set_up_a_screen_and_the_hall_reads_it() {
    let s = Server::start();
    let org = s.first_organizer().in_chinese();
    let tid = group_with_round(&s, &org, None);
    let ev = event_of(&s, tid);
    let list = org.get(&format!("/e/{ev}/screens"));
    assert_eq!(list.status, 200, "{}", list.body);
    assert!(org.get(&format!("/t/{tid}")).body.contains(&format!("href=\"/e/{ev}/screens\"")));

    // Refused: no name, no content, a pace out of range; the typed entry is kept.
    let r = create(
        &org,
        ev,
        &[("name", ""), ("c_tables", ""), ("c_names", ""), ("pace", "1"), ("announcement", "请关闭手机")],
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("请填写大屏名称") && r.body.contains("请至少选择一项显示内容"), "{}", r.body);
    assert!(r.body.contains("value=\"请关闭手机\""), "{}", r.body);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM screens"), 0);

    let r = create(
        &org,
        ev,
        &[
            ("name", "一号屏"),
            ("c_countdown", "on"),
            ("pace", "10"),
            ("columns", "1"),
            ("rows", "4"),
            ("announcement", "请关闭手机"),
        ],
    );
    let url = shown_url(&org, &r);
    let path = path_of(&url);
    // Shown once: the list read again does not show it, and the database keeps only its hash.
    let again = org.get(&format!("/e/{ev}/screens"));
    assert!(!again.body.contains(&path), "{}", again.body);
    let token = path.trim_start_matches("/screen/");
    assert_eq!(count_rows(&s.db, &format!("SELECT count(*) FROM screens WHERE token_hash = '{token}'")), 0);

    // The projector: no login.
    let hall = s.client().in_chinese();
    let screen = hall.get(&path);
    assert_eq!(screen.status, 200, "{}", screen.body);
    assert!(screen.body.contains(&format!("data-live=\"{tid}\"")), "{}", screen.body);
    assert!(screen.body.contains("data-live-mode=\"self\"") && screen.body.contains("/assets/screen.js"));
    assert!(screen.body.contains("请关闭手机") && screen.body.contains("第1轮"), "{}", screen.body);
    let data = hall.get(&format!("{path}/data"));
    assert_eq!(data.status, 200);
    let (names, ids) = names_in(&data.body, "names");
    assert_eq!(names, EIGHT_BY_PINYIN, "{}", data.body);
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), 8, "each player once: {ids:?}");
    // 4 rows × 1 column: 4 tables on 1 page, 8 names on 2, and the countdown's page.
    assert_eq!(data.body.matches("<section class=\"screen-page screen-tables\"").count(), 1);
    assert_eq!(data.body.matches("<section class=\"screen-page screen-names\"").count(), 2);
    assert_eq!(data.body.matches("<section class=\"screen-page screen-countdown\"").count(), 1);
    assert!(data.body.contains("第1轮对阵（按姓名拼音）") && data.body.contains("2/2"), "{}", data.body);
    assert!(data.body.contains("执黑") && data.body.contains("执白"), "{}", data.body);
    let etag = data.header("etag").expect("an ETag").to_string();
    assert_eq!(hall.get_with(&format!("{path}/data"), &[("If-None-Match", &etag)]).status, 304);

    // The countdown: no start set yet, then round 1's start set on its lateness sheet (23:59 in
    // the event's zone, UTC here, today) is counted down to, the zone named.
    assert!(data.body.contains("下一轮开赛时间尚未公布"), "{}", data.body);
    let hour =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() % 86400 / 3600;
    if hour < 23 {
        let sheet = format!("/t/{tid}/results/rounds/1/lateness");
        let r = org.submit(&sheet, &sheet, &[("version", "0"), ("starts_at", "23:59")]);
        assert_eq!(r.status, 303, "{}", r.body);
        let counted = hall.get(&format!("{path}/data"));
        assert!(counted.body.contains("第1轮 23:59（Etc/UTC）开赛"), "{}", counted.body);
        assert!(counted.body.contains("class=\"screen-countdown\" data-at=\""), "{}", counted.body);
    }

    // Edited at a stale version: refused, nothing written.
    let sid = query_opt(&s.db, "SELECT max(id) FROM screens").unwrap() as i32;
    let list = format!("/e/{ev}/screens");
    let r = send_form(&org, &list, &format!("screen-form-{sid}"), &[("version", "0"), ("name", "旧名")]);
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(query(&s.db, &format!("SELECT name FROM screens WHERE id = {sid}"))[0][0], "一号屏");
    let r = send_form(
        &org,
        &list,
        &format!("screen-form-{sid}"),
        &[("name", "大厅屏"), ("announcement", "第二轮九点开始"), ("c_results", "on")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let changed = hall.get_with(&format!("{path}/data"), &[("If-None-Match", &etag)]);
    assert_eq!(changed.status, 200);
    assert!(changed.body.contains("第二轮九点开始"), "{}", changed.body);
    assert!(names_in(&changed.body, "results").0.is_empty(), "no result yet: {}", changed.body);
    // A result saved: the screen's data changes (a new ETag) and shows it.
    let etag = changed.header("etag").unwrap().to_string();
    let gid = game_id(&s.db, tid, 1, 1);
    enter(&org, tid, gid, &[("method", "count"), ("black_count", "184.5"), ("white_count", "176.5")]);
    let saved = hall.get_with(&format!("{path}/data"), &[("If-None-Match", &etag)]);
    assert_eq!(saved.status, 200);
    assert_eq!(names_in(&saved.body, "results").0.len(), 1, "{}", saved.body);

    // A plain arbiter of the event, and the organizer of another event: refused.
    let (arbiter, uid) = add_user(&s, &org, "arbiter1", "arbiter");
    add_staff(&org, tid, uid, "arbiter");
    assert_eq!(arbiter.get(&list).status, 403);
    let (other, _) = add_user(&s, &org, "organizer2", "organizer");
    let own = create_tournament(&other, "另一赛事");
    let other_ev = event_of(&s, own);
    assert_eq!(other.get(&format!("/e/{other_ev}/screens")).status, 200);
    assert_eq!(other.get(&list).status, 403);
    let token_of = |c: &Client| c.get(&format!("/e/{other_ev}/screens")).csrf();
    let csrf = token_of(&other);
    let r = other.post_form(&format!("/e/{ev}/screens/{sid}/revoke"), &[("csrf", &csrf), ("version", "2")]);
    assert_eq!(r.status, 403, "{}", r.body);
    let r = other.post_form(
        &format!("/e/{ev}/screens/new"),
        &[
            ("csrf", &csrf),
            ("version", "0"),
            ("name", "x"),
            ("c_tables", "on"),
            ("pace", "9"),
            ("columns", "2"),
            ("rows", "9"),
        ],
    );
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM screens"), 1);
    assert_eq!(hall.get(&path).status, 200);

    // Revoked: a 404 at once, page and data.
    let page = org.get(&list);
    let r =
        org.post_form(&format!("/e/{ev}/screens/{sid}/revoke"), &[("csrf", &page.csrf()), ("version", "2")]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(hall.get(&path).status, 404);
    assert_eq!(hall.get(&format!("{path}/data")).status, 404);
    // A new address: shown once, works; the old one stays dead.
    let page = org.get(&list);
    let r =
        org.post_form(&format!("/e/{ev}/screens/{sid}/reissue"), &[("csrf", &page.csrf()), ("version", "3")]);
    let path2 = path_of(&shown_url(&org, &r));
    assert_ne!(path2, path);
    assert_eq!(hall.get(&path2).status, 200);
    assert_eq!(hall.get(&path).status, 404);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM audit WHERE entity = 'screen'"), 4);
}

/// Tournament practice (大屏, one hall): on an event of two groups a screen shows the group
/// chosen only, or, none chosen, every group, its by-name list merging the groups in pinyin
/// order.
#[test]
fn a_screen_shows_the_groups_chosen() {
    let s = Server::start();
    let org = s.first_organizer().in_chinese();
    let open = group_with_round(&s, &org, None);
    let juniors = group_with_round(&s, &org, Some(JUNIORS));
    // The two tournaments joined into one event (the events pages make groups the same way: a
    // row of `event_groups`), as tests/e2e/hall.rs does.
    let ev = event_of(&s, open);
    exec_sql(
        &s.db,
        &format!(
            "UPDATE event_groups SET group_name_zh = '公开组', group_order = 1 WHERE tournament_id = {open}"
        ),
    );
    exec_sql(
        &s.db,
        &format!(
            "UPDATE event_groups SET event_id = {ev}, group_name_zh = '少儿组', group_order = 2 WHERE tournament_id = {juniors}"
        ),
    );
    exec_sql(&s.db, "DELETE FROM events WHERE id NOT IN (SELECT event_id FROM event_groups)");
    let overview = org.get(&format!("/e/{ev}"));
    assert!(overview.body.contains(&format!("href=\"/e/{ev}/screens\"")), "{}", overview.body);

    let r = create(&org, ev, &[("name", "少儿屏"), ("c_tables", ""), (&format!("g_{juniors}"), "on")]);
    let juniors_only = path_of(&shown_url(&org, &r));
    let r = create(&org, ev, &[("name", "全场屏"), ("c_tables", ""), ("rows", "40"), ("columns", "1")]);
    let all = path_of(&shown_url(&org, &r));

    let hall = s.client().in_chinese();
    let page = hall.get(&juniors_only);
    assert_eq!(page.status, 200);
    assert!(page.body.contains(&format!("data-live=\"{juniors}\"")), "{}", page.body);
    let (names, _) = names_in(&hall.get(&format!("{juniors_only}/data")).body, "names");
    assert_eq!(names, ["陈小龙", "何小雨", "黄小燕", "林小峰", "刘小虎", "杨小凤"]);

    let page = hall.get(&all);
    assert!(page.body.contains(&format!("data-live=\"{open},{juniors}\"")), "{}", page.body);
    let (names, ids) = names_in(&hall.get(&format!("{all}/data")).body, "names");
    assert_eq!(ids.len(), 14);
    let mut expected: Vec<&str> = EIGHT_BY_PINYIN.to_vec();
    expected.extend(["陈小龙", "何小雨", "黄小燕", "林小峰", "刘小虎", "杨小凤"]);
    // Chen, He, Huang, Li, Lin, Liu, Qian, Sun, Wang, Wu, Yang, Zhang, Zhao, Zhou.
    let order = [
        "陈小龙",
        "何小雨",
        "黄小燕",
        "李二",
        "林小峰",
        "刘小虎",
        "钱五",
        "孙六",
        "王一",
        "吴八",
        "杨小凤",
        "张三",
        "赵四",
        "周七",
    ];
    expected.sort_by_key(|n| order.iter().position(|o| o == n));
    assert_eq!(names, expected);
}

/// 500 entrants with distinct Chinese names (and their pinyin), ranks from 5段 down.
fn five_hundred() -> String {
    const FAMILY: [&str; 25] = [
        "王", "李", "张", "刘", "陈", "杨", "黄", "赵", "吴", "周", "徐", "孙", "马", "朱", "胡", "郭", "何",
        "高", "林", "罗", "郑", "梁", "谢", "宋", "唐",
    ];
    const GIVEN: [&str; 20] = [
        "伟", "芳", "娜", "敏", "静", "丽", "强", "磊", "军", "洋", "勇", "艳", "杰", "涛", "明", "超",
        "秀兰", "霞", "平", "刚",
    ];
    let mut csv = String::from("姓名,拼音,段位,等级分,单位,地区,出生日期,性别,备注\n");
    for (k, (f, g)) in FAMILY.iter().flat_map(|f| GIVEN.iter().map(move |g| (f, g))).enumerate() {
        let (fl, gl) = admin::domain::names::pinyin_of_name(f, g);
        let rank = match k % 10 {
            r @ 0..=4 => format!("{}段", 5 - r),
            r => format!("{}级", r - 4),
        };
        csv.push_str(&format!("{f}{g},{fl} {gl},{rank},{},北京棋院,北京,2000-01-01,男,\n", 2600 - k));
    }
    csv
}

/// What a page of the screen shows, measured in the browser for every page in turn: lines
/// outside the viewport, names cut short, the lines' ids by how often they are shown, and the
/// smallest type of a line.
const MEASURE: &str = "
    const pages = Array.from(document.querySelectorAll('.screen-page'));
    const W = window.innerWidth, H = window.innerHeight;
    const bad = [], seen = {};
    let font = 1e9;
    pages.forEach((p, k) => {
      pages.forEach((q, j) => { q.hidden = j !== k; });
      document.querySelectorAll('.screen-head span, .screen-page:not([hidden]) h2, .screen-page:not([hidden]) li')
        .forEach(el => {
          const r = el.getBoundingClientRect();
          if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5)
            bad.push('outside: ' + el.textContent);
        });
      p.querySelectorAll('li[data-p]').forEach(li => {
        seen[li.dataset.p] = (seen[li.dataset.p] || 0) + 1;
        font = Math.min(font, parseFloat(getComputedStyle(li).fontSize));
        const main = li.querySelector('.main');
        if (main.scrollWidth > main.clientWidth + 1) bad.push('cut: ' + main.textContent);
      });
    });
    pages.forEach((q, j) => { q.hidden = j !== 0; });
    return { pages: pages.length, bad: bad, ids: Object.keys(seen).length,
             more_than_once: Object.values(seen).filter(v => v !== 1).length, font: font,
             W: W, H: H };";

/// Tournament practice (大屏, read across a hall): a 500-player round by name on a projector at
/// 1920×1080 and 1280×720: every player shown once across the pages, no line outside the
/// viewport and no name cut short, type of at least 28 px at 1080p, and the pages turn by
/// themselves at the screen's pace.
#[test]
#[cfg_attr(
    not(tengen_browser),
    ignore = "needs chromium and chromium-driver (.ci/run installs them); TENGEN_TEST_BROWSER=1 runs it"
)]
fn a_five_hundred_player_round_on_a_projector() {
    use common::webdriver::*;
    use fantoccini::Locator;
    use std::time::Duration;

    let driver =
        find_program("CHROMEDRIVER", &["/usr/bin/chromedriver", "chromedriver"]).expect("chromedriver");
    let chrome =
        find_program("CHROME_BIN", &["/usr/bin/chromium", "chromium", "chromium-browser"]).expect("chromium");
    std::fs::create_dir_all(artifacts_dir()).unwrap();
    let d = Driver::start(&driver, &artifacts_dir().join("chromedriver-screens.log"));

    let s = Server::start();
    let org = s.first_organizer().in_chinese();
    let tid = group_with_round(&s, &org, Some(&five_hundred()));
    let ev = event_of(&s, tid);
    let r = create(
        &org,
        ev,
        &[
            ("name", "大厅屏"),
            ("c_tables", ""),
            ("c_names", "on"),
            ("pace", "3"),
            ("columns", "3"),
            ("rows", "16"),
        ],
    );
    let path = path_of(&shown_url(&org, &r));

    let tmp = tempfile::tempdir().unwrap();
    let (rt, wd) = chromium_session(&d, &chrome, tmp.path(), "zh-CN");
    let shots = artifacts_dir().join("screens");
    std::fs::create_dir_all(&shots).unwrap();
    for (w, h, min_font) in [(1920u32, 1080u32, 28.0), (1280, 720, 18.0)] {
        rt.block_on(wd.set_window_size(w, h)).expect("window size");
        rt.block_on(wd.goto(&format!("{}{path}", s.base))).expect("the screen");
        rt.block_on(wd.wait().at_most(Duration::from_secs(20)).for_element(Locator::Css("#screen-data")))
            .expect("the screen's lists");
        // The window is the viewport and the browser's frame: grow it by the frame, so the
        // page itself is w × h.
        let inner =
            rt.block_on(wd.execute("return [window.innerWidth, window.innerHeight];", vec![])).unwrap();
        let frame = |k: usize, want: u32| want + (want - inner[k].as_u64().unwrap() as u32);
        rt.block_on(wd.set_window_size(frame(0, w), frame(1, h))).expect("window size");
        let m = rt.block_on(wd.execute(MEASURE, vec![])).expect("measure");
        let png = rt.block_on(wd.screenshot()).expect("screenshot");
        std::fs::write(shots.join(format!("screen-{w}x{h}.png")), png).unwrap();
        assert_eq!(m["pages"], 11, "{w}×{h}: 500 names at 48 a page: {m}");
        assert_eq!(m["ids"], 500, "{w}×{h}: every player shown: {m}");
        assert_eq!(m["more_than_once"], 0, "{w}×{h}: each player once: {m}");
        assert!(m["bad"].as_array().unwrap().is_empty(), "{w}×{h}: {m}");
        assert!(m["font"].as_f64().unwrap() >= min_font, "{w}×{h}: type too small: {m}");
        assert_eq!(
            (m["W"].as_u64(), m["H"].as_u64()),
            (Some(u64::from(w)), Some(u64::from(h))),
            "{w}×{h}: {m}"
        );
        // The pages turn by themselves (pace 3 s).
        let first =
            rt.block_on(wd.execute("return document.body.getAttribute('data-page');", vec![])).unwrap();
        std::thread::sleep(Duration::from_millis(3600));
        let later =
            rt.block_on(wd.execute("return document.body.getAttribute('data-page');", vec![])).unwrap();
        assert_ne!(first, later, "{w}×{h}: the pages turn");
        let shown = rt
            .block_on(
                wd.execute("return document.querySelectorAll('.screen-page:not([hidden])').length;", vec![]),
            )
            .unwrap();
        assert_eq!(shown, 1, "{w}×{h}: one page at a time");
    }
    rt.block_on(wd.close()).expect("close the browser");
}

/// Tournament practice (大屏, live): a screen open in the browser shows a result within 2 s of
/// its saving and, once the next round is published, that round's pairings in place of the old,
/// without waiting for its 15 s fallback poll and without a reload.
#[test]
#[cfg_attr(
    not(tengen_browser),
    ignore = "needs chromium and chromium-driver (.ci/run installs them); TENGEN_TEST_BROWSER=1 runs it"
)]
fn an_open_screen_follows_results_and_the_next_round_live() {
    use common::webdriver::*;
    use fantoccini::Locator;
    use std::time::{Duration, Instant};

    let driver =
        find_program("CHROMEDRIVER", &["/usr/bin/chromedriver", "chromedriver"]).expect("chromedriver");
    let chrome =
        find_program("CHROME_BIN", &["/usr/bin/chromium", "chromium", "chromium-browser"]).expect("chromium");
    std::fs::create_dir_all(artifacts_dir()).unwrap();
    let d = Driver::start(&driver, &artifacts_dir().join("chromedriver-screens-live.log"));

    let s = Server::start();
    let org = s.first_organizer().in_chinese();
    let tid = group_with_round(&s, &org, None);
    let ev = event_of(&s, tid);
    let r = create(
        &org,
        ev,
        &[("name", "直播屏"), ("c_tables", "on"), ("c_names", ""), ("c_results", "on"), ("pace", "600")],
    );
    let path = path_of(&shown_url(&org, &r));

    let tmp = tempfile::tempdir().unwrap();
    let (rt, wd) = chromium_session(&d, &chrome, tmp.path(), "zh-CN");
    rt.block_on(wd.set_window_size(1280, 720)).expect("window size");
    rt.block_on(wd.goto(&format!("{}{path}", s.base))).expect("the screen");
    rt.block_on(wd.wait().at_most(Duration::from_secs(20)).for_element(Locator::Css("#screen-data")))
        .expect("the screen's lists");
    rt.block_on(wd.execute("window.__marker = 'loaded once'; return true;", vec![])).unwrap();
    let js =
        |script: &str| rt.block_on(wd.execute(script, vec![])).unwrap_or_else(|e| panic!("{script}: {e}"));
    let until = |script: &str| {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(5) {
            if js(script) == serde_json::Value::Bool(true) {
                return Some(start.elapsed());
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        None
    };
    let results = "return document.querySelectorAll('.screen-results li').length;";
    assert_eq!(js(results), 0, "no result yet");
    let round = "return document.getElementById('screen-round').textContent;";
    assert!(js(round).as_str().unwrap().contains('1'), "round 1 shown: {}", js(round));

    // A result saved by an arbiter reaches the open screen.
    enter(&org, tid, game_id(&s.db, tid, 1, 1), &[("method", "resignation"), ("winner", "black")]);
    let took = until(&format!("{} return n === 1;", results.replace("return ", "const n = ")))
        .expect("the result shown on the screen");
    assert!(took <= Duration::from_secs(2), "the result took {took:?}");

    // The rest of round 1, then round 2 published: the screen turns to round 2.
    for board in 2..=4 {
        enter(&org, tid, game_id(&s.db, tid, 1, board), &[("method", "resignation"), ("winner", "white")]);
    }
    pair_round(&org, tid, 2, "12");
    publish_round(&s, &org, tid, 2);
    let took = until(&format!("{} return r.includes('2');", round.replace("return ", "const r = ")))
        .expect("round 2 shown on the screen");
    assert!(took <= Duration::from_secs(2), "round 2 took {took:?}");
    assert_eq!(js(results), 0, "round 2 has no result yet: the old results are gone");
    assert_eq!(js("return window.__marker;"), serde_json::Value::String("loaded once".into()), "no reload");
    let png = rt.block_on(wd.screenshot()).expect("screenshot");
    std::fs::create_dir_all(artifacts_dir().join("screens")).unwrap();
    std::fs::write(artifacts_dir().join("screens").join("screen-live-round-2.png"), png).unwrap();
    rt.block_on(wd.close()).expect("close the browser");
}
