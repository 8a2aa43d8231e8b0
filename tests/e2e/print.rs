//! Printing end to end: entrants imported by CSV with Chinese names, round 1 paired (a draft)
//! and published over HTTP, then every document of the round downloaded and read back: the
//! PDFs' text (names in Chinese, table numbers, labels) through lopdf, their page counts and
//! paper, the CSV's rows; headers and file names; who may download what (drafts are staff
//! only); bad options (400) and unknown rounds (404); and `tengen print`/`tengen export`
//! giving the same documents as the web.
//!
//! Then the tournament's documents over three played rounds: the standings wall chart (names in
//! Chinese in the public standings' order, every tie-break value), the crosstable (each game's
//! opponent, result and colour, forfeits marked), the standings and results CSV (parsed and
//! matched against the public standings and the stored games), the EGF `.h9` file (header lines,
//! result codes, forfeits as free rounds; refused with a 409 while a result is missing or a
//! player has no Latin name); the public and staff links; bad options; the command line.

use crate::common;
use common::readback::{read, squash};
use common::*;

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
    pair_round(c, tid, 1, "20261205");
    assert_eq!(tables(s, tid).len(), 5);
    tid
}

fn publish(s: &Server, c: &Client, tid: i32) {
    publish_round(s, c, tid, 1);
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

/// (table, Chinese name, Latin name) of the player who holds the stones at each nigiri board of
/// round 1, as the event's nigiri rule decided and the game stores it.
fn holders(s: &Server, tid: i32) -> Vec<(u32, String, String)> {
    query(
        &s.db,
        &format!(
            "SELECT g.board, h.family_name_zh || h.given_name_zh, \
               h.family_name_latin || ' ' || h.given_name_latin \
             FROM games g JOIN entrants h ON h.id = g.nigiri_holder_id \
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
    // Every board is a nigiri board: the list names who holds the stones (and only them).
    let holders = holders(&s, tid);
    assert_eq!(holders.len(), boards.len());
    for (table, zh, latin) in &holders {
        let mark = format!("{zh}{}（握子）", squash(latin));
        assert!(text.contains(&mark), "table {table}: {mark} in {text}");
    }
    assert_eq!(text.matches("（握子）").count(), holders.len(), "{text}");
    let (_, back) = pdf(&c, &format!("{base}/pairings.pdf?order=table&lang=en"));
    let text = squash(&back.pages[0]);
    for (table, zh, latin) in &holders {
        let mark = format!("{}{zh}(holds)", squash(latin));
        assert!(text.contains(&mark), "table {table}: {mark} in {text}");
    }
    // By name, A3, English: one line per player, sorted by pinyin.
    let (r, back) = pdf(&c, &format!("{base}/pairings.pdf?order=name&paper=a3&lang=en"));
    assert!(r.header("content-disposition").unwrap_or("").contains("round1-pairings-by-name-a3.pdf"));
    let (w, _) = back.page_size_mm(1).unwrap();
    assert!((w - 297.0).abs() < 1.0, "A3 portrait: {w}");
    let text = squash(&back.pages[0]);
    assert!(text.contains("Round1—pairingsbyname"), "{text}");
    // A player's own line (name, Chinese name, rank, then the unit); the same name also
    // appears as an opponent, wherever the pairing puts it.
    let pos = |n: &str| {
        text.match_indices(n)
            .map(|(i, _)| i)
            .find(|&i| text[i + n.len()..].chars().take(12).collect::<String>().contains("棋院"))
            .unwrap_or_else(|| panic!("{n}'s line missing: {text}"))
    };
    assert!(pos("ChenBaichuan") < pos("FengShiquan") && pos("WuBafang") < pos("ZhouQixing"), "{text}");
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
    // The nigiri column and who holds the stones.
    assert!(lines[0].ends_with(",让子,猜先,握子,结果"), "{}", lines[0]);
    for ((table, zh, latin), line) in holders.iter().zip(&lines[1..]) {
        assert!(line.ends_with(&format!(",是,{zh} {latin},")), "table {table}: {line}");
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
    let zh = c.in_chinese();
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
    let judge = arbiter(&s, &c, tid, "judge");
    let (_, back) = pdf(&judge, &format!("{base}/record-sheets.pdf"));
    assert_eq!(back.pages.len(), 5);
    assert_eq!(judge.get(&format!("{base}/pairings.csv")).status, 200);
    let stranger = add_user(&s, &c, "stranger", "arbiter").0;
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
    assert!(String::from_utf8_lossy(&out.stderr).contains("5台 → "));
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
        (vec!["print", "scoresheets", "--tournament", &t, "--round", "3", "--out", m], "没有第3轮"),
        (
            vec!["print", "scoresheets", "--tournament", "999", "--round", "1", "--out", m],
            "没有编号为999的赛事",
        ),
        (
            vec!["print", "scoresheets", "--tournament", &t, "--round", "1", "--per-page", "3", "--out", m],
            "参数“--per-page”只能是 2 或 4，不能是“3”。",
        ),
        (
            vec!["print", "pairings", "--tournament", &t, "--round", "1", "--lang", "fr", "--out", m],
            "参数“--lang”只能是 zh 或 en",
        ),
    ] {
        let out = s.cli(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(msg) && err.trim().lines().count() == 1, "{args:?}: {err}");
        assert!(err.starts_with("tengen："), "in the locale's language: {err}");
        assert!(!missing.exists());
    }
}

// ---------------------------------------------------------------------------------------------
// The tournament's documents: standings, crosstable, results, EGF.

/// One game of the published rounds as stored: (round, board, game id, Black's Chinese name,
/// Black's Latin name, White's, White's); a bye has empty White names and board 0.
type Game = (u32, u32, i32, String, String, String, String);

fn games(s: &Server, tid: i32) -> Vec<Game> {
    query(
        &s.db,
        &format!(
            "SELECT g.round_number, g.board, g.id, \
               b.family_name_zh || b.given_name_zh, b.family_name_latin || ' ' || b.given_name_latin, \
               w.family_name_zh || w.given_name_zh, w.family_name_latin || ' ' || w.given_name_latin \
             FROM games g JOIN entrants b ON b.id = g.black_id LEFT JOIN entrants w ON w.id = g.white_id \
             WHERE g.tournament_id = {tid} ORDER BY g.round_number, g.board"
        ),
    )
    .into_iter()
    .map(|r| {
        (
            r[0].parse().unwrap(),
            r[1].parse().unwrap(),
            r[2].parse().unwrap(),
            r[3].clone(),
            r[4].clone(),
            r[5].clone(),
            r[6].clone(),
        )
    })
    .collect()
}

/// The result entered on a board: the form's fields, and the crosstable signs of Black and
/// White (with `!` for a game not played on the board).
fn result_for(round: u32, board: u32) -> (Vec<(&'static str, &'static str)>, &'static str, &'static str) {
    match (round, board) {
        (1, 1) => (vec![("method", "resignation"), ("winner", "white")], "-", "+"),
        (1, 3) => (vec![("method", "draw")], "=", "="),
        (1, 4) => (vec![("method", "forfeit"), ("winner", "black")], "+!", "-!"),
        (1, 5) => (vec![("method", "count"), ("black_count", "190")], "+", "-"),
        (2, 1) => (vec![("method", "time"), ("winner", "white")], "-", "+"),
        _ => (vec![("method", "resignation"), ("winner", "black")], "+", "-"),
    }
}

fn play_round(s: &Server, c: &Client, tid: i32, n: u32) {
    nigiri_all(c, &s.db, tid, n);
    for g in games(s, tid).into_iter().filter(|g| g.0 == n && g.1 > 0) {
        enter(c, tid, g.2, &result_for(g.0, g.1).0);
    }
}

fn standings_page(c: &Client, tid: i32) -> Vec<PageRow> {
    standings_page_at(c, &format!("/t/{tid}/standings"))
}

/// The wall chart's page holds the standings page's rows in its order: both names, then unit,
/// 积分 and every tie-break in the page's order, then the next line's place.
fn assert_wall_rows(page_text: &str, page: &[PageRow], latin: &std::collections::HashMap<String, String>) {
    let order: Vec<&str> = page.iter().map(|p| p.1.as_str()).collect();
    let lines = pdf_rows(page_text, &order);
    for (i, ((name, row), (_, _, unit, score, values))) in lines.iter().zip(page).enumerate() {
        assert!(row.starts_with(&format!("{name}{}", squash(&latin[*name]))), "{row}");
        let next = if i + 1 < page.len() { page[i + 1].0.trim_end_matches('=') } else { "" };
        let want = format!("{unit}{score}{}{next}", values.join(""));
        assert!(row.contains(&want), "{name}: {want} not in {row}");
    }
}

#[test]
fn standings_crosstable_results_and_egf_read_back_from_three_played_rounds() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = paired(&s, &c);
    let anon = s.client();
    let mut zh = s.client();
    zh.accept_language = "zh-CN".into();

    // Round 1 is still a draft: the tournament's documents show nothing of it.
    let (_, back) = pdf(&anon, &format!("/t/{tid}/crosstable.pdf?lang=en"));
    let text = squash(&back.all_text());
    assert!(!text.contains("R1") && text.contains("ZhouQixing"), "{text}");
    let r = anon.get(&format!("/t/{tid}/results.csv?lang=en"));
    assert_eq!(r.status, 200);
    assert_eq!(csv_records(&r.bytes).len(), 1, "only the header: {}", r.body);
    // No round is published: there are no standings after round 1 yet.
    let r = anon.get(&format!("/t/{tid}/standings.pdf?round=1"));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("no round is published yet"), "{}", r.body);

    // Three rounds played and published; round 3 at first without results.
    publish(&s, &c, tid);
    play_round(&s, &c, tid, 1);
    pair_round(&c, tid, 2, "7");
    publish_round(&s, &c, tid, 2);
    play_round(&s, &c, tid, 2);
    pair_round(&c, tid, 3, "7");
    publish_round(&s, &c, tid, 3);
    // The colours of round 3 (nigiri boards) are known before its games are read.
    nigiri_all(&c, &s.db, tid, 3);
    let all = games(&s, tid);
    assert_eq!(all.len(), 18, "three rounds of five tables and a bye");

    // The public pages link the downloads; the arbiters' results page links them all and EGF.
    let st = zh.get(&format!("/t/{tid}/standings"));
    for link in [
        "standings.pdf?paper=a4",
        "standings.pdf?paper=a3",
        "standings.csv",
        "crosstable.pdf?paper=a3",
        "results.csv",
    ] {
        assert!(st.body.contains(&format!("/t/{tid}/{link}")), "{link}: {}", st.body);
    }
    // An earlier round's page offers that round's documents, not the latest.
    let r1 = zh.get(&format!("/t/{tid}/standings?round=1")).body;
    for link in [
        "standings.pdf?paper=a4&amp;round=1",
        "standings.pdf?paper=a3&amp;round=1",
        "standings.csv?round=1",
        "crosstable.pdf?paper=a4&amp;round=1",
        "results.csv?round=1",
    ] {
        assert!(r1.contains(&format!("/t/{tid}/{link}\"")), "{link}: {r1}");
    }
    assert!(!r1.contains(&format!("/t/{tid}/standings.csv\"")), "not the latest: {r1}");
    assert!(
        !st.body.contains("&amp;round=") && !st.body.contains(".csv?round="),
        "the latest page's downloads name no round"
    );
    assert!(anon
        .get(&format!("/t/{tid}/crosstable"))
        .body
        .contains(&format!("/t/{tid}/crosstable.pdf?paper=a4")));
    let staff = c.get(&format!("/t/{tid}/results/rounds"));
    for link in [
        "standings.pdf?paper=a3&amp;lang=zh",
        "crosstable.pdf?paper=a4&amp;lang=en",
        "standings.csv?lang=zh",
        "results.csv?lang=en",
        "export/egf.h9",
    ] {
        assert!(staff.body.contains(&format!("/t/{tid}/{link}")), "{link}");
    }
    assert!(c.get(&format!("/t/{tid}/rounds")).body.contains(&format!("/t/{tid}/export/egf.h9")));

    // The standings as the public page shows them (Chinese names): after round 3, since its
    // bye is a result already (the public page's own rule).
    let page = standings_page(&zh, tid);
    assert_eq!(page.len(), 11);
    let order: Vec<&str> = page.iter().map(|p| p.1.as_str()).collect();
    let latin: std::collections::HashMap<String, String> =
        all.iter().flat_map(|g| [(g.3.clone(), g.4.clone()), (g.5.clone(), g.6.clone())]).collect();

    // Wall chart, A4, Chinese: one page, names in that order, each row's score and tie-breaks.
    let (r, back) = pdf(&anon, &format!("/t/{tid}/standings.pdf?lang=zh"));
    assert!(r
        .header("content-disposition")
        .unwrap_or("")
        .contains("filename=\"Print-Test-Open-standings.pdf\""));
    assert_eq!(back.pages.len(), 1);
    assert!(back.every_font_has_to_unicode());
    let (w, h) = back.page_size_mm(1).unwrap();
    assert!((w - 210.0).abs() < 1.0 && (h - 297.0).abs() < 1.0, "A4 portrait: {w}×{h}");
    let text = squash(&back.pages[0]);
    for label in
        [NAME_ZH, "第3轮后成绩排名", "名次", "积分", "对手分", "累进分", "直胜", "胜局", "警告", "抽签"]
    {
        assert!(text.contains(label), "{label}: {text}");
    }
    assert_wall_rows(&back.pages[0], &page, &latin);
    for (i, (place, ..)) in page.iter().enumerate() {
        assert_eq!(place, &(i + 1).to_string(), "no shared places (lots decide)");
    }
    // A3, English: the same rows, larger.
    let (_, back) = pdf(&anon, &format!("/t/{tid}/standings.pdf?paper=a3&lang=en"));
    let (w, h) = back.page_size_mm(1).unwrap();
    assert!((w - 297.0).abs() < 1.0 && (h - 420.0).abs() < 1.0, "A3: {w}×{h}");
    let text = squash(&back.all_text());
    assert!(text.contains("Standingsafterround3") && text.contains("SOS") && text.contains("CUSS"), "{text}");
    pdf_rows(&back.pages[0], &order);

    // Standings CSV: the page's rows, both names, the same values.
    let r = anon.get(&format!("/t/{tid}/standings.csv?lang=zh"));
    assert_eq!(r.header("content-type"), Some("text/csv; charset=utf-8"));
    let recs = csv_records(&r.bytes);
    assert_eq!(recs[0][..5], ["名次", "姓名", "段位", "单位", "积分"]);
    assert_eq!(recs.len(), 12);
    for (rec, (place, name, _, score, values)) in recs[1..].iter().zip(&page) {
        assert_eq!(&rec[0], place);
        assert_eq!(rec[1], format!("{name} {}", latin[name]));
        assert_eq!(&rec[4], score);
        assert_eq!(&rec[5..], values.as_slice(), "{name}");
    }
    let place_of = |zh_name: &str| order.iter().position(|n| *n == zh_name).unwrap() + 1;

    // Crosstable, A4 landscape, English: each game's opponent by line, result and colour; the
    // forfeit marked; the byes; round 3's games without results as "?".
    let (r, back) = pdf(&anon, &format!("/t/{tid}/crosstable.pdf?lang=en"));
    assert!(r.header("content-disposition").unwrap_or("").contains("Print-Test-Open-crosstable.pdf"));
    assert_eq!(back.pages.len(), 1);
    let (w, h) = back.page_size_mm(1).unwrap();
    assert!((w - 297.0).abs() < 1.0 && (h - 210.0).abs() < 1.0, "A4 landscape: {w}×{h}");
    let text = squash(&back.pages[0]);
    assert!(text.contains("Crosstableafterround3") && text.contains("R3"), "{text}");
    // Each player's entries of rounds 1–3 as the stored games say, after their unit.
    let mut cells: std::collections::BTreeMap<(&str, u32), String> = Default::default();
    for g in &all {
        if g.1 == 0 {
            cells.insert((&g.3, g.0), "0+".into());
            continue;
        }
        let (_, b, w) = if g.0 == 3 { (vec![], "?", "?") } else { result_for(g.0, g.1) };
        cells.insert((&g.3, g.0), format!("{}{b}/b", place_of(&g.5)));
        cells.insert((&g.5, g.0), format!("{}{w}/w", place_of(&g.3)));
    }
    let xrows = pdf_rows(&back.pages[0], &order);
    for ((name, row), (_, _, unit, score, _)) in xrows.iter().zip(&page) {
        let want = format!("{unit}{}{}{}{score}", cells[&(*name, 1)], cells[&(*name, 2)], cells[&(*name, 3)]);
        assert!(row.contains(&want), "{name}: {want} not in {row}");
    }
    assert!(
        xrows.iter().any(|(_, r)| r.contains("+!/")) && xrows.iter().any(|(_, r)| r.contains("=/")),
        "a forfeit and a draw"
    );
    let (_, back) = pdf(&anon, &format!("/t/{tid}/crosstable.pdf?paper=a3&lang=zh"));
    let (w, _) = back.page_size_mm(1).unwrap();
    assert!((w - 420.0).abs() < 1.0, "A3 landscape: {w}");
    assert!(squash(&back.all_text()).contains("第3轮后成绩交叉表"));

    // Results CSV: every game and bye of the published rounds, each side's points.
    let r = anon.get(&format!("/t/{tid}/results.csv?lang=zh"));
    let recs = csv_records(&r.bytes);
    assert_eq!(recs[0][0..3], ["轮次", "台号", "黑方"]);
    assert_eq!(recs.len(), 1 + all.len());
    // Each side's points in the event's 2/1/0 scale, as the standings count them.
    let pts = |sign: &str| match sign.trim_end_matches('!') {
        "+" => "2",
        "-" => "0",
        _ => "1",
    };
    for g in &all {
        let rec = recs[1..]
            .iter()
            .find(|r| r[0] == g.0.to_string() && r[1] == g.1.to_string())
            .unwrap_or_else(|| panic!("round {} table {}", g.0, g.1));
        assert_eq!((rec[2].as_str(), rec[6].as_str()), (g.3.as_str(), g.5.as_str()));
        let n = rec.len();
        if g.1 == 0 {
            assert_eq!(&rec[n - 3..], ["轮空", "2", ""], "a bye is a win: 2 points");
        } else if g.0 == 3 {
            assert_eq!(&rec[n - 3..], ["", "", ""], "round 3: no results yet");
        } else {
            let (_, b, w) = result_for(g.0, g.1);
            assert_eq!((rec[n - 2].as_str(), rec[n - 1].as_str()), (pts(b), pts(w)), "{rec:?}");
            assert!(!rec[n - 3].is_empty());
        }
    }
    assert!(recs.iter().any(|r| r.iter().any(|c| c == "和棋")), "the draw in words");

    // round=N: the documents after an earlier round, as the public page shows it with ?round=N.
    for n in [1u32, 2] {
        let page_n = standings_page_at(&zh, &format!("/t/{tid}/standings?round={n}"));
        assert_eq!(page_n.len(), 11);
        let (r, back) = pdf(&anon, &format!("/t/{tid}/standings.pdf?lang=zh&round={n}"));
        assert!(
            r.header("content-disposition")
                .unwrap_or("")
                .contains(&format!("filename=\"Print-Test-Open-standings-after-round{n}.pdf\"")),
            "{:?}",
            r.header("content-disposition")
        );
        let text = squash(&back.all_text());
        assert!(text.contains(&format!("第{n}轮后成绩排名")), "{text}");
        assert!(!text.contains("第3轮后"), "{text}");
        assert_wall_rows(&back.pages[0], &page_n, &latin);
        // The standings CSV: the same rows.
        let recs = csv_records(&anon.get(&format!("/t/{tid}/standings.csv?lang=zh&round={n}")).bytes);
        assert_eq!(recs.len(), 12);
        for (rec, (place, name, _, score, values)) in recs[1..].iter().zip(&page_n) {
            assert_eq!((&rec[0], &rec[4]), (&place.trim_end_matches('=').to_string(), score), "{name}");
            assert_eq!(rec[1], format!("{name} {}", latin[name]));
            assert_eq!(&rec[5..], values.as_slice(), "{name}");
        }
        // The crosstable: rounds 1 to N only, the English heading.
        let (_, back) = pdf(&anon, &format!("/t/{tid}/crosstable.pdf?lang=en&round={n}"));
        let text = squash(&back.all_text());
        assert!(text.contains(&format!("Crosstableafterround{n}")), "{text}");
        assert!(text.contains(&format!("R{n}")) && !text.contains(&format!("R{}", n + 1)), "{text}");
        // The results CSV: the games and byes of rounds 1 to N.
        let recs = csv_records(&anon.get(&format!("/t/{tid}/results.csv?lang=zh&round={n}")).bytes);
        assert_eq!(recs.len(), 1 + 6 * n as usize, "six lines a round");
        assert!(recs[1..].iter().all(|r| r[0].parse::<u32>().unwrap() <= n), "{recs:?}");
    }
    // The order after round 1 is not the latest one (else this would prove little).
    let after1: Vec<String> =
        standings_page_at(&zh, &format!("/t/{tid}/standings?round=1")).into_iter().map(|p| p.1).collect();
    assert_ne!(after1, order.iter().map(|n| n.to_string()).collect::<Vec<_>>());
    // The last round asked for by number is the latest standings under another name.
    let (_, named) = pdf(&anon, &format!("/t/{tid}/standings.pdf?lang=zh&round=3"));
    let (_, latest) = pdf(&anon, &format!("/t/{tid}/standings.pdf?lang=zh"));
    assert_eq!(named.pages, latest.pages);

    // EGF: for the staff only; refused (409) while round 3 has no results.
    let egf = format!("/t/{tid}/export/egf.h9");
    assert_eq!(anon.get(&egf).status, 303, "log in first");
    let stranger = add_user(&s, &c, "stranger", "arbiter").0;
    assert_eq!(stranger.get(&egf).status, 403);
    let r = c.get(&egf);
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("round 3: no result"), "{}", r.body);
    play_round(&s, &c, tid, 3);
    let page = standings_page(&zh, tid);
    let order: Vec<&str> = page.iter().map(|p| p.1.as_str()).collect();
    let place_of = |zh_name: &str| order.iter().position(|n| *n == zh_name).unwrap() + 1;
    let judge = arbiter(&s, &c, tid, "judge");
    let r = judge.get(&egf);
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.header("content-disposition").unwrap_or("").contains("filename=\"Print-Test-Open-egf.h9\""));
    assert!(r.body.is_ascii() && r.body.contains("\r\n"));
    let lines: Vec<&str> = r.body.lines().collect();
    assert_eq!(
        lines[..7],
        [
            "; CL[A]",
            "; EV[Print Test Open]",
            "; PC[CN]",
            "; DT[2026-12-05,2026-12-07]",
            "; HA[h9]",
            "; KM[7.5]",
            "; TM[165]"
        ],
        "{}",
        r.body
    );
    assert!(r.body.contains("; Pl Name") && r.body.contains("Pts SOS CUSS Wins"), "{}", r.body);
    let players: Vec<Vec<&str>> =
        lines.iter().filter(|l| !l.starts_with(';')).map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(players.len(), 11);
    for (i, (p, name)) in players.iter().zip(&order).enumerate() {
        assert_eq!(p[0], (i + 1).to_string());
        assert_eq!(format!("{} {}", p[1], p[2]), latin[*name], "line {} is {name}", i + 1);
        assert_eq!(p[4], "CN");
        assert_eq!(p[5], "-", "Chinese club names have no ASCII form");
    }
    let round_of = |zh_name: &str, r: u32| {
        let p = &players[place_of(zh_name) - 1];
        p[p.len() - 3 + r as usize - 1].to_string()
    };
    for g in &all {
        if g.1 == 0 {
            assert_eq!(round_of(&g.3, g.0), "0+", "bye");
            continue;
        }
        let (_, b, w) = result_for(g.0, g.1);
        let code = |sign: &str, opp: &str, col: &str| {
            if sign.ends_with('!') {
                format!("0{}", &sign[..1])
            } else {
                format!("{}{sign}/{col}", place_of(opp))
            }
        };
        assert_eq!(round_of(&g.3, g.0), code(b, &g.5, "b"), "{} round {}", g.3, g.0);
        assert_eq!(round_of(&g.5, g.0), code(w, &g.3, "w"), "{} round {}", g.5, g.0);
    }
    // A player without a Latin name cannot go into the file: 409 naming the name.
    let first = &all[0];
    exec_sql(
        &s.db,
        &format!(
            "UPDATE entrants SET family_name_latin = '', given_name_latin = '' \
             WHERE tournament_id = {tid} AND family_name_zh || given_name_zh = '{}'",
            first.3
        ),
    );
    let r = c.get(&egf);
    assert_eq!(r.status, 409);
    assert!(r.body.contains("pinyin") && r.body.contains(&first.3[..3]), "{}", r.body);
    let zh_staff = c.in_chinese();
    // The refusal is in the reader's language, not the file's.
    let body = zh_staff.get(&egf).body;
    assert!(body.contains("无法根据现有赛事数据生成此文件"), "{body}");
    assert!(body.contains("请填写拉丁字母（拼音）姓名") && !body.contains("pinyin"), "{body}");
    // The command line says it in its --lang (zh by default), on one line, and writes nothing.
    let none = s.dir.path().join("egf-refused.h9");
    let t = tid.to_string();
    for (lang, says) in
        [("en", "give the name in Latin letters (pinyin)"), ("zh", "请填写拉丁字母（拼音）姓名")]
    {
        let out =
            s.cli(&["export", "egf", "--tournament", &t, "--lang", lang, "--out", none.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(
            err.contains(says) && err.contains(&first.3[..3]) && err.trim().lines().count() == 1,
            "{err}"
        );
        assert!(!none.exists());
    }
    let (family, given) = latin[&first.3].split_once(' ').unwrap();
    exec_sql(
        &s.db,
        &format!(
            "UPDATE entrants SET family_name_latin = '{family}', given_name_latin = '{given}' \
             WHERE tournament_id = {tid} AND family_name_zh || given_name_zh = '{}'",
            first.3
        ),
    );

    // Bad options 400, unknown tournaments 404, never a 500.
    for (path, option) in [
        (format!("/t/{tid}/standings.pdf?paper=a5"), "paper"),
        (format!("/t/{tid}/standings.pdf?lang=fr"), "lang"),
        (format!("/t/{tid}/crosstable.pdf?paper=letter"), "paper"),
        (format!("/t/{tid}/standings.csv?lang=de"), "lang"),
        (format!("/t/{tid}/results.csv?lang=%FF"), "lang"),
        (format!("/t/{tid}/standings.pdf?round=0"), "round"),
        (format!("/t/{tid}/crosstable.pdf?round=abc"), "round"),
        (format!("/t/{tid}/standings.csv?round=-1"), "round"),
        (format!("/t/{tid}/results.csv?round=99999999999"), "round"),
        (format!("/t/{tid}/standings.pdf?round=4"), "round"),
        (format!("/t/{tid}/crosstable.pdf?paper=a4&round=9"), "round"),
    ] {
        let r = anon.get(&path);
        assert_eq!(r.status, 400, "{path}");
        assert!(r.body.contains(&format!("“{option}” must be")), "{path}: {}", r.body);
    }
    let r = anon.get(&format!("/t/{tid}/standings.pdf?round=4"));
    assert!(r.body.contains("must be a published round, 1 to 3, not “4”"), "{}", r.body);
    let r = zh.get(&format!("/t/{tid}/results.csv?round=x"));
    assert_eq!(r.status, 400);
    assert!(r.body.contains("参数“round”必须是从1开始的轮次编号，不能是“x”"), "{}", r.body);
    let r = zh.get(&format!("/t/{tid}/standings.csv?round=7"));
    assert_eq!(r.status, 400);
    assert!(r.body.contains("只能是已公布的轮次（第1至3轮），不能是“7”"), "{}", r.body);
    assert_eq!(anon.get("/t/99999/standings.pdf?round=1").status, 404, "an unknown tournament first");
    for path in [
        "/t/99999/standings.pdf".to_string(),
        "/t/abc/crosstable.pdf".to_string(),
        "/t/-1/standings.csv".to_string(),
        "/t/99999999999999999999/results.csv".to_string(),
        "/t/99999/export/egf.h9".to_string(),
    ] {
        assert_eq!(c.get(&path).status, 404, "{path}");
    }

    // The command line writes the same files.
    let dir = tempfile::tempdir().unwrap();
    let t = tid.to_string();
    let run = |args: &[&str]| {
        let out = s.cli(args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        out
    };
    let file = dir.path().join("wall.pdf");
    let f = file.to_str().unwrap();
    let out = run(&["print", "standings", "--tournament", &t, "--paper", "a3", "--lang", "en", "--out", f]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("第3轮后，11行 → "),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (_, web) = pdf(&c, &format!("/t/{tid}/standings.pdf?paper=a3&lang=en"));
    assert_eq!(read("cli_standings", &std::fs::read(&file).unwrap()).pages, web.pages);
    let file = dir.path().join("cross.pdf");
    let f = file.to_str().unwrap();
    run(&["print", "crosstable", "--tournament", &t, "--out", f]);
    let (_, web) = pdf(&c, &format!("/t/{tid}/crosstable.pdf?lang=zh"));
    let cli = read("cli_crosstable", &std::fs::read(&file).unwrap());
    assert_eq!(cli.pages, web.pages);
    assert!(squash(&cli.all_text()).contains("第3轮后成绩交叉表"));
    for (cmd, path) in [("standings", "standings.csv?lang=en"), ("results", "results.csv?lang=en")] {
        let out = run(&["export", cmd, "--tournament", &t, "--lang", "en", "--out", "-"]);
        assert_eq!(out.stdout, c.get(&format!("/t/{tid}/{path}")).bytes, "{cmd}");
        let out = run(&["export", cmd, "--tournament", &t, "--lang", "en", "--round", "2", "--out", "-"]);
        assert_eq!(out.stdout, c.get(&format!("/t/{tid}/{path}&round=2")).bytes, "{cmd} --round 2");
    }
    let file = dir.path().join("wall2.pdf");
    let f = file.to_str().unwrap();
    let out = run(&["print", "standings", "--tournament", &t, "--round", "2", "--out", f]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("第2轮后，11行 → "));
    let (_, web) = pdf(&c, &format!("/t/{tid}/standings.pdf?lang=zh&round=2"));
    assert_eq!(read("cli_standings_2", &std::fs::read(&file).unwrap()).pages, web.pages);
    let file = dir.path().join("cross1.pdf");
    let f = file.to_str().unwrap();
    run(&["print", "crosstable", "--tournament", &t, "--round", "1", "--lang", "en", "--out", f]);
    let (_, web) = pdf(&c, &format!("/t/{tid}/crosstable.pdf?lang=en&round=1"));
    assert_eq!(read("cli_crosstable_1", &std::fs::read(&file).unwrap()).pages, web.pages);
    let out = run(&["export", "egf", "--tournament", &t, "--out", "-"]);
    assert_eq!(out.stdout, c.get(&egf).bytes);
    let missing = dir.path().join("none");
    let m = missing.to_str().unwrap();
    for (args, msg) in [
        (vec!["print", "standings", "--tournament", "999", "--out", m], "没有编号为999的赛事"),
        (
            vec!["print", "crosstable", "--tournament", &t, "--paper", "a5", "--out", m],
            "参数“--paper”只能是 a4 或 a3",
        ),
        (
            vec!["export", "results", "--tournament", &t, "--lang", "fr", "--out", m],
            "参数“--lang”只能是 zh 或 en",
        ),
        (vec!["export", "egf", "--tournament", "999", "--out", m], "没有编号为999的赛事"),
        (
            vec!["print", "standings", "--tournament", &t, "--round", "0", "--out", m],
            "参数“--round”必须是从1开始的轮次编号，不能是“0”",
        ),
        (
            vec!["print", "crosstable", "--tournament", &t, "--round", "two", "--out", m],
            "参数“--round”必须是从1开始的轮次编号",
        ),
        (
            vec!["export", "standings", "--tournament", &t, "--round", "4", "--out", m],
            "参数“--round”只能是已公布的轮次（第1至3轮），不能是“4”",
        ),
        (vec!["export", "results", "--tournament", "999", "--round", "1", "--out", m], "没有编号为999的赛事"),
    ] {
        let out = s.cli(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(msg) && err.trim().lines().count() == 1, "{args:?}: {err}");
        assert!(err.starts_with("tengen："), "in the locale's language: {err}");
        assert!(!missing.exists());
    }
}

/// The results CSV scores each game and bye in the event's points scale (D13),
/// exactly as the standings count them: 2/1/0 (the default), 1/½/0 with a bye worth a draw,
/// 3/1/0; a draw, a forfeit, a double loss, a win and a bye in each. Every player's points in
/// the results CSV add up to their 积分 on the public standings page.
#[test]
fn the_results_csv_scores_in_the_event_points_scale() {
    let s = Server::start();
    let c = s.first_organizer();
    let mut zh = s.client();
    zh.accept_language = "zh-CN".into();
    // (points scale, bye value, a win, a draw, a bye) as the CSV writes them.
    for (k, (scale, bye, win, draw, bye_pts)) in [
        ("2-1-0", "win", "2", "1", "2"),
        ("1-0.5-0", "draw", "1", "0.5", "0.5"),
        ("3-1-0", "win", "3", "1", "3"),
    ]
    .into_iter()
    .enumerate()
    {
        let changes = [("points_scale", scale), ("bye_value", bye), ("colour_method", "lots")];
        let tid =
            tournament_with_players(&c, &format!("积分制测试赛{k}"), &format!("Scale Open {k}"), &changes, 5);
        let board = |n: u32, b: u32| game_id(&s.db, tid, n, b);
        pair_round(&c, tid, 1, "11");
        publish_round(&s, &c, tid, 1);
        enter(&c, tid, board(1, 1), &[("method", "draw")]);
        enter(&c, tid, board(1, 2), &[("method", "forfeit"), ("winner", "black")]);
        pair_round(&c, tid, 2, "12");
        publish_round(&s, &c, tid, 2);
        enter(&c, tid, board(2, 1), &[("method", "double_loss"), ("dl_reason", "stone_moved")]);
        enter(&c, tid, board(2, 2), &[("method", "resignation"), ("winner", "white")]);
        let recs = csv_records(&zh.get(&format!("/t/{tid}/results.csv?lang=zh")).bytes);
        assert_eq!(recs[0][12..], ["黑方得分", "白方得分"], "{scale}");
        let points = |round: &str, table: &str| {
            let r = recs
                .iter()
                .find(|r| r[0] == round && r[1] == table)
                .unwrap_or_else(|| panic!("{round}/{table}"));
            (r[12].clone(), r[13].clone())
        };
        let p = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(points("1", "1"), p(draw, draw), "{scale}: a draw");
        assert_eq!(points("1", "2"), p(win, "0"), "{scale}: a forfeit is a win and a loss");
        assert_eq!(points("1", "0"), p(bye_pts, ""), "{scale}: the bye ({bye})");
        assert_eq!(points("2", "1"), p("0", "0"), "{scale}: a double loss scores for neither");
        assert_eq!(points("2", "2"), p("0", win), "{scale}: a win");
        assert_eq!(points("2", "0"), p(bye_pts, ""), "{scale}: the bye ({bye})");
        // Exactly the standings' 积分: add each player's points (in half points, no floats).
        let halves = |t: &str| -> i64 {
            match t.split_once('.') {
                None if t.is_empty() => 0,
                None => t.parse::<i64>().unwrap() * 2,
                Some((whole, "5")) => whole.parse::<i64>().unwrap() * 2 + 1,
                Some(_) => panic!("not a half point: {t}"),
            }
        };
        let mut total: std::collections::HashMap<String, i64> = Default::default();
        for r in &recs[1..] {
            *total.entry(r[2].clone()).or_default() += halves(&r[12]);
            if !r[6].is_empty() {
                *total.entry(r[6].clone()).or_default() += halves(&r[13]);
            }
        }
        let page = standings_page_at(&zh, &format!("/t/{tid}/standings"));
        assert_eq!(page.len(), 5);
        for (_, name, _, score, _) in &page {
            assert_eq!(halves(score), total[name], "{scale}: {name}");
        }
    }
}

/// The EGF file's handicap line follows the event's rule, as the format
/// describes it (quoted in `formats::egf`): "The handicap specification can be omitted if
/// the handicaps are computed from the difference of opponents' grades (minus a given
/// reduction)", the reduction being `HA[hN]`. A McMahon event giving "rank difference − 1"
/// writes `HA[h1]` and every handicap in the file is the grade difference − 1; one giving
/// handicaps by McMahon-score difference claims no grade reduction, says its rule in `CM[...]`
/// and gives each game's handicap with its colour. Both paired, published and entered over
/// HTTP for two rounds.
#[test]
fn the_egf_handicap_line_follows_the_event_rule() {
    let s = Server::start();
    let c = s.first_organizer();
    // A grade as a number: 1d − 1k = 1.
    let grade = |rk: &str| -> i64 {
        let (n, kind) = rk.split_at(rk.len() - 1);
        let n: i64 = n.parse().unwrap();
        if kind == "d" {
            n
        } else {
            1 - n
        }
    };
    for (k, basis) in ["rank", "mcmahon_score"].into_iter().enumerate() {
        let changes = [
            ("system", "mcmahon"),
            ("colour_method", "balanced"),
            ("mm_bar", "1段"),
            ("mm_floor", "3k"),
            ("handicap_basis", basis),
            ("handicap_reduction", "1"),
            ("handicap_max", "9"),
        ];
        let tid = tournament_with_players(
            &c,
            &format!("让子规则测试赛{k}"),
            &format!("Handicap Open {k}"),
            &changes,
            8,
        );
        for n in 1..=2u32 {
            pair_round(&c, tid, n, &format!("7{n}"));
            publish_round(&s, &c, tid, n);
            for g in games(&s, tid).into_iter().filter(|g| g.0 == n && g.1 > 0) {
                let winner = if g.1 % 2 == 1 { "black" } else { "white" };
                enter(&c, tid, g.2, &[("method", "resignation"), ("winner", winner)]);
            }
        }
        let r = c.get(&format!("/t/{tid}/export/egf.h9"));
        assert_eq!(r.status, 200, "{basis}: {}", r.body);
        let lines: Vec<&str> = r.body.lines().collect();
        let ha: Vec<&str> = lines.iter().filter_map(|l| l.strip_prefix("; HA[")).collect();
        let cm = lines.iter().find_map(|l| l.strip_prefix("; CM[")).unwrap_or_default();
        // Each player's rank and two round entries.
        let players: Vec<(String, Vec<String>)> = lines
            .iter()
            .filter(|l| !l.starts_with(';') && !l.trim().is_empty())
            .map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                (w[3].to_string(), w[w.len() - 2..].iter().map(|x| x.to_string()).collect())
            })
            .collect();
        assert_eq!(players.len(), 8, "{}", r.body);
        // (round, Black's handicap) of every game entry, read as the format says.
        let mut written: Vec<(u32, i64)> = Vec::new();
        for (rank, entries) in &players {
            for (i, e) in entries.iter().enumerate() {
                let (opp, rest) = e.split_at(e.find(['+', '-', '=']).unwrap());
                let (colour, h) =
                    rest[1..].strip_prefix('/').map(|c| c.split_at(1)).expect("every game names its colour");
                let h: i64 = if h.is_empty() { 0 } else { h.parse().unwrap() };
                if basis == "rank" {
                    let opp_rank = &players[opp.parse::<usize>().unwrap() - 1].0;
                    let diff = (grade(rank) - grade(opp_rank)).abs();
                    assert_eq!(h, (diff - 1).max(0), "{e}: {rank} against {opp_rank}, difference − 1");
                }
                if colour == "b" {
                    written.push((i as u32 + 1, h));
                }
            }
        }
        // The handicaps written are the games' own.
        let mut stored: Vec<(u32, i64)> = query(
            &s.db,
            &format!("SELECT round_number, handicap FROM games WHERE tournament_id = {tid} AND white_id IS NOT NULL"),
        )
        .into_iter()
        .map(|r| (r[0].parse().unwrap(), r[1].parse().unwrap()))
        .collect();
        written.sort();
        stored.sort();
        assert_eq!(written, stored, "{basis}");
        match basis {
            "rank" => {
                assert_eq!(ha, ["h1]"], "{}", r.body);
                assert!(stored.iter().any(|(_, h)| *h > 0), "some games have handicaps: {stored:?}");
                assert!(cm.contains("handicap: rank difference - 1, at most 9"), "{cm}");
            }
            _ => {
                assert!(ha.is_empty(), "no grade reduction is claimed: {}", r.body);
                assert!(
                    cm.contains("handicap: McMahon score difference - 1, at most 9, given for every game"),
                    "{cm}"
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// What a reader sees: every glyph of every kind of PDF, in both languages.

/// Seed 000 Art. 11 (komi 3¾ stones) and seed 003 Art. 12 (komi 3½ stones): every kind of PDF
/// the product prints — scoresheets (4 and 2 a page), the staff and public pairing lists (by
/// table and by name, A4 and A3), the record sheets, the standings wall chart, the crosstable
/// and a relay match's sheets — downloaded in Chinese and in English, draws every character of
/// its text with a whole glyph of the font embedded in it: not .notdef, not blank, every part
/// of a composite glyph present with its outline, a fraction with numerator, slash and
/// denominator. The scoresheets' 黑贴3¾子, the standings' half points (1/½/0 with a draw and a
/// bye) and the relay sheets' 黑贴3½子 are among them.
#[test]
fn every_pdf_draws_every_character_with_a_whole_glyph() {
    let s = Server::start();
    let c = s.first_organizer();
    let changes = [("points_scale", "1-0.5-0"), ("bye_value", "draw"), ("colour_method", "lots")];
    let tid = tournament_with_players(&c, "字形测试赛", "Glyph Open", &changes, 5);
    pair_round(&c, tid, 1, "31");
    publish_round(&s, &c, tid, 1);
    enter(&c, tid, game_id(&s.db, tid, 1, 1), &[("method", "draw")]);
    enter(&c, tid, game_id(&s.db, tid, 1, 2), &[("method", "count"), ("black_count", "190")]);
    // One relay match (seed 003), paired.
    let relay = common::team::relay_tournament(&c, "字形接力赛", "Glyph Relay", "1", &[]);
    common::team::save_team_settings(&c, &s, relay, &[]);
    for (team, prefix) in [("东队", "东"), ("西队", "西")] {
        let players: Vec<String> = (1..=6).map(|k| format!("{prefix}{k}")).collect();
        assert_eq!(common::team::add_team(&c, relay, team, &players).status, 303);
    }
    let r = c.submit(
        &format!("/t/{relay}/team-rounds"),
        &format!("/t/{relay}/team-rounds/1/pair"),
        &[("seed", "7")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let m = query(&s.db, &format!("SELECT id, version FROM team_matches WHERE tournament_id = {relay}"));
    let (mid, version) = (m[0][0].clone(), m[0][1].clone());
    let token = c.get(&format!("/t/{relay}/matches/{mid}")).csrf();
    let r = c.post_form(
        &format!("/t/{relay}/matches/{mid}/start"),
        &[("csrf", &token), ("version", &version), ("start", "2026-12-05T09:00:00")],
    );
    assert_eq!(r.status, 303, "{}", r.body);

    let round = format!("/t/{tid}/rounds/1");
    let mut seen: std::collections::BTreeSet<String> = Default::default();
    for lang in ["zh", "en"] {
        let documents = [
            format!("{round}/scoresheets.pdf?per_page=4&lang={lang}"),
            format!("{round}/scoresheets.pdf?per_page=2&lang={lang}"),
            format!("{round}/pairings.pdf?order=table&paper=a4&lang={lang}"),
            format!("{round}/pairings.pdf?order=name&paper=a3&lang={lang}"),
            format!("{round}/record-sheets.pdf?paper=a4&lang={lang}"),
            format!("{round}/record-sheets.pdf?paper=a3&lang={lang}"),
            format!("/t/{tid}/pairings/1/pairings.pdf?order=table&paper=a4&lang={lang}"),
            format!("/t/{tid}/standings.pdf?paper=a4&lang={lang}"),
            format!("/t/{tid}/standings.pdf?paper=a3&lang={lang}"),
            format!("/t/{tid}/crosstable.pdf?paper=a4&lang={lang}"),
            format!("/t/{tid}/crosstable.pdf?paper=a3&lang={lang}"),
            format!("/t/{relay}/matches/{mid}/sheets.pdf?lang={lang}"),
        ];
        for path in documents {
            let (r, back) = pdf(&c, &path);
            assert_eq!(r.status, 200, "{path}");
            let report = back.glyph_report();
            assert!(report.faults.is_empty(), "{path}: {:?}", report.faults);
            // The check saw every character of the text layer.
            let text = squash(&back.all_text());
            let unchecked: String =
                text.chars().filter(|ch| !report.drawn.contains_key(&ch.to_string())).collect();
            assert!(unchecked.is_empty(), "{path}: not drawn by any checked glyph: {unchecked}");
            seen.extend(report.drawn.into_keys());
        }
    }
    for fraction in ["¾", "½"] {
        assert!(seen.contains(fraction), "no document printed {fraction}: {seen:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// A replay (重赛) in every list of games.

/// The HTML of the element with `id` up to its closing `</tr>`.
fn row_html<'a>(body: &'a str, id: &str) -> &'a str {
    let at = body.find(&format!("id=\"{id}\"")).unwrap_or_else(|| panic!("no row {id}: {body}"));
    let row = &body[at..];
    &row[..row.find("</tr>").unwrap()]
}

/// The result cells of table `table`'s rows of a pairings or results CSV, in file order.
fn csv_results(bytes: &[u8], table: &str, table_col: usize, result_col: &str) -> Vec<String> {
    let recs = csv_records(bytes);
    let col =
        recs[0].iter().position(|h| h == result_col).unwrap_or_else(|| panic!("{result_col}: {:?}", recs[0]));
    recs[1..].iter().filter(|r| r[table_col] == table).map(|r| r[col].clone()).collect()
}

/// Seed 000 Arts. 17.5, 17.6 (the chief arbiter may rule a replay, 重赛): a replay ordered on
/// the game's result form is a second game of the same two players at the same table, and
/// every list of the round's games says which is which, in Chinese and in English: the
/// replay's row carries the replay label and the replayed game's row does not (it is marked
/// as replayed instead) — the public round page, the public pairings and results pages, the
/// staff round page, the public and the staff pairings CSV, the results CSV, and the text of
/// the pairing lists (by table and by name, staff and public), scoresheets and record sheets.
#[test]
fn a_replay_is_labelled_in_every_list_of_games() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = tournament_with_players(&c, "重赛标注赛", "Replay Open", &[("colour_method", "lots")], 4);
    pair_round(&c, tid, 1, "41");
    publish_round(&s, &c, tid, 1);
    let g1 = game_id(&s.db, tid, 1, 1);
    enter(&c, tid, g1, &[("method", "replay")]);
    let replay = query(&s.db, &format!("SELECT id FROM games WHERE replay_of = {g1}"))[0][0].clone();
    enter(&c, tid, replay.parse().unwrap(), &[("method", "resignation"), ("winner", "black")]);
    let en = s.client();
    let zh = en.in_chinese();
    let staff_zh = c.in_chinese();
    for (public, staff, lang) in [(&en, &c, "en"), (&zh, &staff_zh, "zh")] {
        // The pages name the table, the files the game replayed.
        let label = if lang == "zh" { "重赛（第1台）" } else { "replay of board 1" };
        let file_label = if lang == "zh" {
            format!("重赛（原对局 #{g1}）")
        } else {
            format!("replay of game #{g1}")
        };
        let replayed = if lang == "zh" { "已重赛" } else { "replayed" };
        // The public round page.
        let p = public.get(&format!("/t/{tid}/pairings/1"));
        assert_eq!(p.status, 200);
        assert!(row_html(&p.body, "table-1-replay").contains(label), "{lang}: {}", p.body);
        let original = row_html(&p.body, "table-1");
        assert!(!original.contains(label) && original.contains(replayed), "{lang}: {original}");
        // The public pairings and results pages (rows by game).
        for page in [format!("/t/{tid}/pairings?round=1"), format!("/t/{tid}/results?round=1")] {
            let p = public.get(&page);
            assert_eq!(p.status, 200, "{page}");
            assert!(row_html(&p.body, &format!("g{replay}")).contains(label), "{page} {lang}: {}", p.body);
            assert!(!row_html(&p.body, &format!("g{g1}")).contains(label), "{page} {lang}: {}", p.body);
        }
        // The staff round page.
        let p = staff.get(&format!("/t/{tid}/rounds/1"));
        assert!(row_html(&p.body, &format!("game-1-replay-{replay}")).contains(label), "{lang}: {}", p.body);
        let original = row_html(&p.body, "game-1");
        assert!(!original.contains(label) && original.contains(replayed), "{lang}: {original}");
        // The pairings CSV, public and staff: the original first, then its replay.
        let result = if lang == "zh" { "结果" } else { "Result" };
        for (who, path) in [
            (public, format!("/t/{tid}/pairings/1/pairings.csv?lang={lang}")),
            (staff, format!("/t/{tid}/rounds/1/pairings.csv?lang={lang}")),
        ] {
            let cells = csv_results(&who.get(&path).bytes, "1", 0, result);
            assert_eq!(cells.len(), 2, "{path}: {cells:?}");
            assert_eq!(cells[0], format!("[{replayed}]"), "{path}");
            assert!(cells[1].ends_with(&format!("[{file_label}]")), "{path}: {cells:?}");
        }
        // The results CSV: the original's result is the ruling, its replay's row labelled.
        let cells =
            csv_results(&public.get(&format!("/t/{tid}/results.csv?lang={lang}")).bytes, "1", 1, result);
        assert_eq!(cells.len(), 2, "{cells:?}");
        assert!(
            !cells[0].contains(&file_label) && cells[1].ends_with(&format!("[{file_label}]")),
            "{cells:?}"
        );
        // The PDFs: one replay, so its label once on each sheet or list by table (twice by
        // name: one line per player), the replayed mark once in each list.
        let round = format!("/t/{tid}/rounds/1");
        let squashed = squash(&file_label);
        for (path, labels, marks) in [
            (format!("{round}/pairings.pdf?order=table&lang={lang}"), 1, 1),
            (format!("{round}/pairings.pdf?order=name&lang={lang}"), 2, 2),
            (format!("/t/{tid}/pairings/1/pairings.pdf?order=table&lang={lang}"), 1, 1),
            (format!("{round}/scoresheets.pdf?lang={lang}"), 1, 0),
            (format!("{round}/record-sheets.pdf?lang={lang}"), 1, 0),
        ] {
            let (r, back) = pdf(staff, &path);
            assert_eq!(r.status, 200, "{path}");
            let text = squash(&back.all_text());
            assert_eq!(text.matches(&squashed).count(), labels, "{path}: {text}");
            let marked = text.matches(&format!("1{replayed}")).count();
            assert_eq!(marked, marks, "{path}: {text}");
        }
    }
}
