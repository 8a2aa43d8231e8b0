//! Printing end to end: entrants imported by CSV with Chinese names, round 1 paired (a draft)
//! and published over HTTP, then every document of the round downloaded and read back: the
//! PDFs' text (names in Chinese, table numbers, labels) through lopdf, their page counts and
//! paper, the CSV's rows; headers and file names; who may download what (drafts are staff
//! only); bad options (400) and unknown rounds (404); and `tengen print`/`tengen export`
//! giving the same documents as the web.

mod common;
use common::readback::{read, squash, ReadBack};
use common::*;

/// Eleven players: five tables and a bye.
const ELEVEN: &str = "姓名,拼音,段位,等级分,单位,地区,出生日期,性别,备注
王一鸣,Wang Yiming,5段,2500,北京棋院,北京,1990-01-01,男,
李二娜,Li Erna,4段,2400,上海棋院,上海,1991-01-01,女,
张三丰,Zhang Sanfeng,3段,2300,杭州棋院,浙江,1992-01-01,男,
赵四海,Zhao Sihai,2段,2200,广州棋院,广东,1993-01-01,男,
钱五岳,Qian Wuyue,1段,2100,成都棋院,四川,1994-01-01,男,
孙六合,Sun Liuhe,1级,2000,武汉棋院,湖北,1995-01-01,女,
周七星,Zhou Qixing,2级,1900,南京棋院,江苏,1996-01-01,女,
吴八方,Wu Bafang,3级,1800,西安棋院,陕西,1997-01-01,女,
郑九州,Zheng Jiuzhou,4级,1700,长沙棋院,湖南,1998-01-01,男,
冯十全,Feng Shiquan,5级,1600,济南棋院,山东,1999-01-01,男,
陈百川,Chen Baichuan,6级,1500,福州棋院,福建,2000-01-01,男,
";

const NAME_ZH: &str = "打印测试赛";
const NAME_LATIN: &str = "Print Test Open";

/// A tournament named NAME_ZH / NAME_LATIN with the eleven entrants; round 1 paired as a draft.
fn paired(s: &Server, c: &Client) -> i32 {
    let f = tournament_fields(NAME_ZH, NAME_LATIN);
    let r = c.submit("/t/new", "/t/new", &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    let tid: i32 = r.location().trim_start_matches("/t/").parse().unwrap();
    let r = import_file(c, tid, "csv", "players.csv", ELEVEN.as_bytes());
    assert_eq!(r.status, 303, "{}", r.body);
    let token = c.get(&format!("/t/{tid}/rounds")).csrf();
    let r = c.post_form(&format!("/t/{tid}/rounds/1/pair"), &[("csrf", &token), ("seed", "20261205")]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(tables(s, tid).len(), 5);
    tid
}

fn publish(s: &Server, c: &Client, tid: i32) {
    let token = c.get(&format!("/t/{tid}/rounds/1")).csrf();
    let v = query(&s.db, &format!("SELECT version FROM rounds WHERE tournament_id = {tid} AND number = 1"));
    let r = c.post_form(
        &format!("/t/{tid}/rounds/1/publish"),
        &[("csrf", &token), ("version", &v[0][0]), ("confirm", "on")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
}

/// (table, Black's Chinese name, White's Chinese name) by table, as stored.
fn tables(s: &Server, tid: i32) -> Vec<(u32, String, String)> {
    query(
        &s.db,
        &format!(
            "SELECT g.board, b.family_name_zh || b.given_name_zh, w.family_name_zh || w.given_name_zh \
             FROM games g JOIN entrants b ON b.id = g.black_id JOIN entrants w ON w.id = g.white_id \
             WHERE g.tournament_id = {tid} AND g.round_number = 1 ORDER BY g.board"
        ),
    )
    .into_iter()
    .map(|r| (r[0].parse().unwrap(), r[1].clone(), r[2].clone()))
    .collect()
}

/// The Chinese name of the player with the bye.
fn bye(s: &Server, tid: i32) -> String {
    query(
        &s.db,
        &format!(
            "SELECT b.family_name_zh || b.given_name_zh FROM games g JOIN entrants b ON b.id = g.black_id \
             WHERE g.tournament_id = {tid} AND g.round_number = 1 AND g.white_id IS NULL"
        ),
    )[0][0]
        .clone()
}

/// GET a PDF: 200, its type, read back.
fn pdf(c: &Client, path: &str) -> (Resp, ReadBack) {
    let r = c.get(path);
    assert_eq!(r.status, 200, "GET {path}: {}", r.body);
    assert_eq!(r.header("content-type"), Some("application/pdf"), "{path}");
    let back = read(&path.replace(['/', '?', '&', '='], "_"), &r.bytes);
    (r, back)
}

/// An account with `role` on the tournament's staff (or on no staff), logged in.
fn account(s: &Server, org: &Client, tid: Option<i32>, name: &str) -> Client {
    let out = cli(&s.db, &["user", "add", "--role", "arbiter", name], Some("arbiter-secret-1"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    if let Some(tid) = tid {
        let uid = query(&s.db, &format!("SELECT id FROM users WHERE username = '{name}'"))[0][0].clone();
        let r = org.submit(
            &format!("/t/{tid}"),
            &format!("/t/{tid}/staff"),
            &[("user_id", &uid), ("role", "arbiter")],
        );
        assert_eq!(r.status, 303, "{}", r.body);
    }
    let a = s.client();
    assert_eq!(a.login(name, "arbiter-secret-1").status, 303);
    a
}

#[test]
fn every_document_of_a_round_reads_back_with_names_tables_and_pages() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = paired(&s, &c);
    let boards = tables(&s, tid);
    let bye = bye(&s, tid);
    let base = format!("/t/{tid}/rounds/1");

    // The round page links every document in both languages.
    let page = c.get(&base);
    assert!(page.body.contains("id=\"print\""), "{}", page.body);
    for link in [
        "scoresheets.pdf?per_page=4&amp;lang=zh",
        "scoresheets.pdf?per_page=2&amp;lang=en",
        "pairings.pdf?order=table&amp;paper=a4&amp;lang=zh",
        "pairings.pdf?order=name&amp;paper=a3&amp;lang=en",
        "record-sheets.pdf?lang=zh",
        "pairings.csv?lang=en",
    ] {
        assert!(page.body.contains(&format!("{base}/{link}")), "{link}");
    }
    assert!(page.body.contains("id=\"print-draft\""), "a draft says its sheets are marked");

    // Scoresheets, 4 per page: 5 tables → 2 pages; tables 1–4 on the first, 5 on the second.
    let (r, back) = pdf(&c, &format!("{base}/scoresheets.pdf?per_page=4&lang=zh"));
    assert_eq!(back.pages.len(), 2);
    assert!(back.every_font_has_to_unicode());
    let cd = r.header("content-disposition").unwrap_or("");
    assert!(cd.starts_with("attachment; filename=\"Print-Test-Open-round1-scoresheets-4up.pdf\""), "{cd}");
    let utf8 = "打印测试赛 第1轮记录单.pdf";
    let enc: String = utf8
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b == b'.' {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    assert!(cd.ends_with(&format!("filename*=UTF-8''{enc}")), "{cd}");
    assert_eq!(r.header("cache-control"), Some("no-store"));
    let p1 = squash(&back.pages[0]);
    let p2 = squash(&back.pages[1]);
    for label in [NAME_ZH, "第1轮", "台号", "到场时间", "黑方数子", "裁判签名", "草稿", "黑贴3¾子"]
    {
        assert!(p1.contains(label), "{label} missing on page 1: {p1}");
    }
    for (table, black, white) in &boards {
        let on = if *table <= 4 { &p1 } else { &p2 };
        let other = if *table <= 4 { &p2 } else { &p1 };
        assert!(on.contains(black) && on.contains(white), "table {table}: {black} {white}");
        assert!(!other.contains(black), "table {table} on one page only");
    }
    assert!(p2.contains("台号5"), "{p2}");
    assert!(!squash(&back.all_text()).contains(&bye), "no sheet for the bye");
    // Colours are decided at the board (the default nigiri): the sheets name no colours.
    assert!(p1.contains("猜先决定黑白") && p1.contains("握子") && p1.contains("猜子"), "{p1}");

    // Two per page, in English: 3 pages.
    let (_, back) = pdf(&c, &format!("{base}/scoresheets.pdf?per_page=2&lang=en"));
    assert_eq!(back.pages.len(), 3);
    let all = squash(&back.all_text());
    for label in ["PrintTestOpen", "Round1", "Table", "Black'scount", "Arbiter", "(draft)", "ZhouQixing"] {
        assert!(all.contains(label), "{label} missing: {all}");
    }
    assert!(squash(&back.pages[2]).contains(&boards[4].1), "table 5 alone on page 3");

    // Record sheets: one page per table, in table order.
    let (r, back) = pdf(&c, &format!("{base}/record-sheets.pdf?lang=zh"));
    assert_eq!(back.pages.len(), boards.len());
    assert!(r.header("content-disposition").unwrap_or("").contains("round1-record-sheets.pdf"));
    for ((table, black, white), text) in boards.iter().zip(&back.pages) {
        let t = squash(text);
        assert!(t.contains("棋谱记录纸") && t.contains(black) && t.contains(white), "table {table}: {t}");
        assert!(t.contains(&table.to_string()));
    }
    let (_, back) = pdf(&c, &format!("{base}/record-sheets.pdf?lang=en&paper=a3"));
    let (w, h) = back.page_size_mm(1).unwrap();
    assert!((w - 297.0).abs() < 1.0 && (h - 420.0).abs() < 1.0, "A3: {w}×{h}");

    // Pairing list by table: every board and the bye on one A4 page.
    let (_, back) = pdf(&c, &format!("{base}/pairings.pdf?order=table&lang=zh"));
    assert_eq!(back.pages.len(), 1);
    let (w, h) = back.page_size_mm(1).unwrap();
    assert!((w - 210.0).abs() < 1.0 && (h - 297.0).abs() < 1.0, "A4: {w}×{h}");
    let text = squash(&back.pages[0]);
    assert!(
        text.contains("第1轮对阵表（按台号）") && text.contains("（轮空）") && text.contains(&bye),
        "{text}"
    );
    let mut last = 0;
    for (table, black, white) in &boards {
        let at = text.find(black.as_str()).unwrap_or_else(|| panic!("{black} missing: {text}"));
        assert!(text.contains(white.as_str()), "{white}");
        assert!(at > last, "tables in order: {table}");
        last = at;
    }
    // By name, A3, English: one line per player, sorted by pinyin.
    let (r, back) = pdf(&c, &format!("{base}/pairings.pdf?order=name&paper=a3&lang=en"));
    assert!(r.header("content-disposition").unwrap_or("").contains("round1-pairings-by-name-a3.pdf"));
    let (w, _) = back.page_size_mm(1).unwrap();
    assert!((w - 297.0).abs() < 1.0, "A3 portrait: {w}");
    let text = squash(&back.pages[0]);
    assert!(text.contains("Round1—pairingsbyname"), "{text}");
    let pos = |n: &str| text.find(n).unwrap_or_else(|| panic!("{n} missing: {text}"));
    assert!(pos("ChenBaichuan") < pos("FengShiquan") && pos("WuBafang") < pos("ZhouQixing"));
    for name in ["王一鸣", "陈百川", "冯十全"] {
        assert!(text.contains(name), "{name}");
    }

    // CSV: BOM, a header, one row per board by table, the bye as table 0.
    let r = c.get(&format!("{base}/pairings.csv?lang=zh"));
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("text/csv; charset=utf-8"));
    assert!(r
        .header("content-disposition")
        .unwrap_or("")
        .contains("filename=\"Print-Test-Open-round1-pairings.csv\""));
    assert!(r.bytes.starts_with(b"\xEF\xBB\xBF"));
    let lines: Vec<&str> = r.body.trim_start_matches('\u{feff}').lines().collect();
    assert_eq!(lines.len(), 1 + boards.len() + 1, "{lines:?}");
    assert!(lines[0].starts_with("台号,黑方,"), "{}", lines[0]);
    for ((table, black, white), line) in boards.iter().zip(&lines[1..]) {
        assert!(line.starts_with(&format!("{table},{black},")) && line.contains(white.as_str()), "{line}");
    }
    assert!(lines[6].starts_with(&format!("0,{bye},")) && lines[6].ends_with("轮空"), "{}", lines[6]);

    // Without `lang`: the reader's language (this client reads English).
    let (_, back) = pdf(&c, &format!("{base}/scoresheets.pdf"));
    assert!(squash(&back.all_text()).contains("Round1"));

    // The public: no staff documents, and no public ones of a draft.
    let anon = s.client();
    assert_eq!(anon.get(&format!("{base}/scoresheets.pdf")).status, 303, "log in first");
    assert_eq!(anon.get(&format!("{base}/pairings.csv")).status, 303);
    assert_eq!(anon.get(&format!("/t/{tid}/pairings/1/pairings.pdf")).status, 404, "a draft is not public");
    assert_eq!(anon.get(&format!("/t/{tid}/pairings/1/pairings.csv")).status, 404);
    assert_eq!(
        c.get(&format!("/t/{tid}/pairings/1/pairings.pdf")).status,
        404,
        "not on the public route either"
    );

    // Published: the public lists, linked from the public page; the sheets no longer say draft.
    publish(&s, &c, tid);
    let public = anon.get(&format!("/t/{tid}/pairings/1"));
    assert!(public.body.contains(&format!("/t/{tid}/pairings/1/pairings.pdf?order=name")), "{}", public.body);
    let (_, back) = pdf(&anon, &format!("/t/{tid}/pairings/1/pairings.pdf?order=name&lang=zh"));
    let text = squash(&back.all_text());
    assert!(text.contains("第1轮对阵表（按姓名）") && text.contains(&bye));
    for (_, black, white) in tables(&s, tid) {
        assert!(text.contains(&black) && text.contains(&white));
    }
    let csv = anon.get(&format!("/t/{tid}/pairings/1/pairings.csv?lang=en"));
    assert_eq!(csv.status, 200);
    assert!(csv.body.contains("Table,Black (Chinese),Black,"), "{}", csv.body);
    let (_, back) = pdf(&c, &format!("{base}/scoresheets.pdf?lang=zh"));
    assert!(!squash(&back.all_text()).contains("草稿"));
    assert!(c.get(&base).body.contains("id=\"print\"") && !c.get(&base).body.contains("id=\"print-draft\""));
}

#[test]
fn bad_options_are_400_unknown_rounds_404_and_printing_is_for_the_staff() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = paired(&s, &c);
    let base = format!("/t/{tid}/rounds/1");
    for (path, option) in [
        (format!("{base}/scoresheets.pdf?per_page=3"), "per_page"),
        (format!("{base}/scoresheets.pdf?lang=fr"), "lang"),
        (format!("{base}/pairings.pdf?order=score"), "order"),
        (format!("{base}/pairings.pdf?paper=a5"), "paper"),
        (format!("{base}/record-sheets.pdf?paper=letter"), "paper"),
        (format!("{base}/pairings.csv?lang=de"), "lang"),
        (format!("/t/{tid}/pairings/1/pairings.pdf?order=x"), "order"),
    ] {
        let r = c.get(&path);
        assert_eq!(r.status, 400, "{path}");
        assert!(r.body.contains(&format!("“{option}” must be")), "{path}: {}", r.body);
    }
    // In Chinese too.
    let mut zh = Client::new(&s.base);
    zh.cookies = c.cookies.clone();
    zh.accept_language = "zh-CN".into();
    let r = zh.get(&format!("{base}/scoresheets.pdf?per_page=6"));
    assert_eq!(r.status, 400);
    assert!(r.body.contains("参数“per_page”只能是 2 或 4"), "{}", r.body);

    for path in [
        format!("/t/{tid}/rounds/2/scoresheets.pdf"),
        format!("/t/{tid}/rounds/9/pairings.pdf"),
        format!("/t/{tid}/rounds/x/record-sheets.pdf"),
        format!("/t/{tid}/rounds/0/pairings.csv"),
        "/t/99999/rounds/1/scoresheets.pdf".to_string(),
        format!("/t/{tid}/pairings/2/pairings.pdf"),
        "/t/99999/pairings/1/pairings.csv".to_string(),
    ] {
        assert_eq!(c.get(&path).status, 404, "{path}");
    }

    // An arbiter of the tournament prints (drafts too); an arbiter of another does not.
    let judge = account(&s, &c, Some(tid), "judge");
    let (_, back) = pdf(&judge, &format!("{base}/record-sheets.pdf"));
    assert_eq!(back.pages.len(), 5);
    assert_eq!(judge.get(&format!("{base}/pairings.csv")).status, 200);
    let stranger = account(&s, &c, None, "stranger");
    assert_eq!(stranger.get(&format!("{base}/scoresheets.pdf")).status, 403);
    assert_eq!(stranger.get(&format!("{base}/pairings.csv")).status, 403);
    assert_eq!(stranger.get(&format!("/t/{tid}/export/opengotha.xml")).status, 403);
}

#[test]
fn the_command_line_prints_what_the_web_downloads() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = paired(&s, &c);
    publish(&s, &c, tid);
    let boards = tables(&s, tid);
    let dir = tempfile::tempdir().unwrap();
    let t = tid.to_string();
    let run = |args: &[&str]| {
        let out = s.cli(args);
        assert!(
            out.status.success(),
            "{args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        out
    };

    let file = dir.path().join("sheets.pdf");
    let f = file.to_str().unwrap();
    let out =
        run(&["print", "scoresheets", "--tournament", &t, "--round", "1", "--per-page", "2", "--out", f]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("5 table(s)"));
    let cli_pdf = read("cli_scoresheets", &std::fs::read(&file).unwrap());
    let (_, web_pdf) = pdf(&c, &format!("/t/{tid}/rounds/1/scoresheets.pdf?per_page=2&lang=zh"));
    assert_eq!(cli_pdf.pages.len(), 3);
    assert_eq!(cli_pdf.pages, web_pdf.pages, "the same text on the same pages");

    let file = dir.path().join("list.pdf");
    let f = file.to_str().unwrap();
    run(&[
        "print",
        "pairings",
        "--tournament",
        &t,
        "--round",
        "1",
        "--order",
        "name",
        "--paper",
        "a3",
        "--lang",
        "en",
        "--out",
        f,
    ]);
    let back = read("cli_pairings", &std::fs::read(&file).unwrap());
    let text = squash(&back.all_text());
    assert!(text.contains("pairingsbyname") && boards.iter().all(|b| text.contains(&b.1)), "{text}");

    let file = dir.path().join("records.pdf");
    let f = file.to_str().unwrap();
    run(&["print", "record-sheets", "--tournament", &t, "--round", "1", "--out", f]);
    let back = read("cli_records", &std::fs::read(&file).unwrap());
    assert_eq!(back.pages.len(), boards.len());

    let file = dir.path().join("pairings.csv");
    let f = file.to_str().unwrap();
    run(&["export", "pairings", "--tournament", &t, "--round", "1", "--lang", "en", "--out", f]);
    let web_csv = c.get(&format!("/t/{tid}/rounds/1/pairings.csv?lang=en"));
    assert_eq!(std::fs::read(&file).unwrap(), web_csv.bytes, "the same CSV, byte for byte");

    let out = run(&["export", "opengotha", "--tournament", &t, "--out", "-"]);
    let xml = String::from_utf8(out.stdout).unwrap();
    assert!(xml.starts_with("<?xml") && xml.contains("<Games>") && xml.contains("王一鸣"), "{xml}");

    // Refusals: one line, non-zero, nothing written.
    let missing = dir.path().join("none.pdf");
    let m = missing.to_str().unwrap();
    for (args, msg) in [
        (vec!["print", "scoresheets", "--tournament", &t, "--round", "3", "--out", m], "has no round 3"),
        (
            vec!["print", "scoresheets", "--tournament", "999", "--round", "1", "--out", m],
            "no tournament with id 999",
        ),
        (
            vec!["print", "scoresheets", "--tournament", &t, "--round", "1", "--per-page", "3", "--out", m],
            "--per-page must be 2 or 4",
        ),
        (
            vec!["print", "pairings", "--tournament", &t, "--round", "1", "--lang", "fr", "--out", m],
            "--lang must be zh or en",
        ),
    ] {
        let out = s.cli(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(msg) && err.trim().lines().count() == 1, "{args:?}: {err}");
        assert!(!missing.exists());
    }
}
