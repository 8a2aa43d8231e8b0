//! Table cards (台卡) and the results notice (成绩公告) end to end: entrants imported, rounds
//! paired and published through the forms, results entered on the games' forms; then the
//! cards downloaded in both formats and read back (tables, names with Chinese ranks and units,
//! 黑/白 or 猜先, no card for the bye, the QR codes decoded from the squares drawn and
//! followed to the table's row of the public pairings), and the notice read back against the
//! public results page and the standings PDF of the same round.

use crate::common;
use common::readback::{read, squash, ReadBack};
use common::*;

/// Each player's rank as a Chinese list writes it (业余五段, 1级) and unit.
fn chinese_rank_and_unit(name: &str) -> (&'static str, String) {
    let line = ELEVEN.lines().find(|l| l.starts_with(&format!("{name},"))).unwrap();
    let f: Vec<&str> = line.split(',').collect();
    let rank = match f[2] {
        "5段" => "业余五段",
        "4段" => "业余四段",
        "3段" => "业余三段",
        "2段" => "业余二段",
        "1段" => "业余初段",
        "1级" => "1级",
        "2级" => "2级",
        "3级" => "3级",
        "4级" => "4级",
        "5级" => "5级",
        _ => "6级",
    };
    (rank, f[4].to_string())
}

/// A tournament with the eleven entrants and colours by `colour_method` (nigiri at the board,
/// or lots), round 1 paired and published through the forms.
fn published(s: &Server, c: &Client, colour_method: &str) -> i32 {
    let mut f = tournament_fields("台卡测试赛", "Table Card Open");
    set(&mut f, "colour_method", colour_method);
    let tid = new_tournament(c, &f);
    let r = import_file(c, tid, "csv", "players.csv", ELEVEN.as_bytes());
    assert_eq!(r.status, 303, "{}", r.body);
    pair_round(c, tid, 1, "20261205");
    publish_round(s, c, tid, 1);
    tid
}

/// (table, Black's or the guesser's Chinese name, White's or the holder's, colours decided at
/// the board) of round `n`, as stored; the bye apart.
fn round_boards(s: &Server, tid: i32, n: u32) -> (Vec<(u32, String, String, bool)>, String) {
    let rows = query(
        &s.db,
        &format!(
            "SELECT g.board, b.family_name_zh || b.given_name_zh, \
               COALESCE(w.family_name_zh || w.given_name_zh, ''), \
               CASE WHEN g.nigiri_holder_id IS NOT NULL THEN 1 ELSE 0 END \
             FROM games g JOIN entrants b ON b.id = g.black_id LEFT JOIN entrants w ON w.id = g.white_id \
             WHERE g.tournament_id = {tid} AND g.round_number = {n} ORDER BY g.board"
        ),
    );
    let bye = rows.iter().find(|r| r[2].is_empty()).map(|r| r[1].clone()).unwrap_or_default();
    let boards = rows
        .into_iter()
        .filter(|r| !r[2].is_empty())
        .map(|r| (r[0].parse().unwrap(), r[1].clone(), r[2].clone(), r[3] == "1"))
        .collect();
    (boards, bye)
}

/// The filled squares of page `page` (from 1) that are QR modules (black squares under 3 mm),
/// as (x, y, side) in points, PDF space.
fn squares(back: &ReadBack, page: u32) -> Vec<(f32, f32, f32)> {
    let id = back.doc.get_pages()[&page];
    let content = back.doc.get_page_content(id);
    let ops = lopdf::content::Content::decode(&content).unwrap().operations;
    let num = |o: &lopdf::Object| o.as_float().unwrap();
    ops.windows(2)
        .filter(|w| w[0].operator == "re" && matches!(w[1].operator.as_str(), "f" | "f*"))
        .map(|w| {
            let v: Vec<f32> = w[0].operands.iter().map(num).collect();
            (v[0], v[1], v[2], v[3])
        })
        .filter(|(_, _, w, h)| (w - h).abs() < 0.01 && *w < 3.0 * 72.0 / 25.4)
        .map(|(x, y, w, _)| (x, y, w))
        .collect()
}

/// Decodes the QR code drawn by `squares` (one code): the modules laid on a grid, an image
/// of 4 pixels a module with a white margin, read by rqrr.
pub(crate) fn decode(squares: &[(f32, f32, f32)]) -> String {
    let side = squares[0].2;
    let x0 = squares.iter().map(|s| s.0).fold(f32::MAX, f32::min);
    let y0 = squares.iter().map(|s| s.1).fold(f32::MAX, f32::min);
    let cells: std::collections::HashSet<(usize, usize)> = squares
        .iter()
        .map(|s| (((s.0 - x0) / side).round() as usize, ((s.1 - y0) / side).round() as usize))
        .collect();
    let n = cells.iter().map(|c| c.0.max(c.1)).max().unwrap() + 1;
    let (px, margin) = (4, 8);
    let w = (n + 2 * margin) * px;
    let mut img = rqrr::PreparedImage::prepare_from_greyscale(w, w, |x, y| {
        let (c, r) = ((x / px).wrapping_sub(margin), (y / px).wrapping_sub(margin));
        // PDF space runs upwards: the image's row r is the grid's row n - 1 - r.
        if c < n && r < n && cells.contains(&(c, n - 1 - r)) {
            0
        } else {
            255
        }
    });
    let grids = img.detect_grids();
    assert_eq!(grids.len(), 1, "one QR code");
    grids[0].decode().expect("a readable QR code").1
}

/// 2002 Art. 10: a table card names the colours the pairing set (黑/白), or 猜先 where the
/// players decide them at the board by nigiri; one card per board and none for the bye, both
/// players with their Chinese rank and unit; the folded tent prints the face twice (one half
/// upside down) and A6 four cards a page; each QR code opens its own table's row of the
/// public pairings under `--public-url`; without a public address the staff page says so and
/// the cards carry no code.
#[test]
fn table_cards_name_tables_players_and_colours_and_their_qr_codes_open_the_table() {
    let s = Server::start_args(&["--public-url", "http://go.example.org/tengen/"]);
    let c = s.first_organizer();
    let tid = published(&s, &c, "nigiri");
    let (boards, bye) = round_boards(&s, tid, 1);
    assert_eq!(boards.len(), 5);
    assert!(boards.iter().all(|b| b.3), "colours decided at every board");
    // The staff round page links both formats and says nothing of a missing address.
    let page = c.get(&format!("/t/{tid}/rounds/1"));
    for href in ["table-cards.pdf?format=tent&amp;lang=zh", "table-cards.pdf?format=a6&amp;lang=en"] {
        assert!(page.body.contains(&format!("/t/{tid}/rounds/1/{href}")), "{href}");
    }
    assert!(!page.body.contains("cards-no-qr"));

    let (r, tent) = pdf(&c, &format!("/t/{tid}/rounds/1/table-cards.pdf?format=tent&lang=zh"));
    assert!(r.header("content-disposition").unwrap().contains("round1-table-cards-tent.pdf"));
    assert_eq!(tent.pages.len(), 5, "one folded card per board");
    assert!(tent.glyph_report().faults.is_empty(), "{:?}", tent.glyph_report().faults);
    let public = c.get(&format!("/t/{tid}/pairings/1"));
    for (i, (table, first, second, nigiri)) in boards.iter().enumerate() {
        let page = i as u32 + 1;
        let text = squash(&tent.pages[i]);
        for name in [first, second] {
            assert_eq!(text.matches(name.as_str()).count(), 2, "both halves name {name}: {text}");
            let (rank, unit) = chinese_rank_and_unit(name);
            assert!(text.contains(rank) && text.contains(&unit), "{name} {rank} {unit}: {text}");
        }
        assert_eq!(text.matches("猜先").count(), if *nigiri { 2 } else { 0 }, "table {table}: {text}");
        if !*nigiri {
            assert!(text.contains("黑") && text.contains("白"), "{text}");
        }
        assert!(text.contains(&format!("台号{table}")), "table {table}: {text}");
        assert!(!text.contains(bye.as_str()), "no card for the bye: {text}");
        // Two codes: the upright half's (lower, PDF y below the middle) and the turned one's.
        let all = squares(&tent, page);
        let h = 297.0 * 72.0 / 25.4;
        let (upper, lower): (Vec<_>, Vec<_>) = all.into_iter().partition(|s| s.1 > h / 2.0);
        let want = format!("http://go.example.org/tengen/t/{tid}/pairings/1#table-{table}");
        assert_eq!(decode(&lower), want);
        assert_eq!(decode(&upper), want, "the turned half's code reads the same");
        assert!(public.body.contains(&format!("id=\"table-{table}\"")), "the fragment names a row");
    }

    let (_, a6) = pdf(&c, &format!("/t/{tid}/rounds/1/table-cards.pdf?format=a6&lang=en"));
    assert_eq!(a6.pages.len(), 2, "four cards a page");
    assert_eq!(a6.page_size_mm(1).map(|(w, h)| (w.round(), h.round())), Some((297.0, 210.0)));
    let text = squash(&a6.all_text());
    for (_, first, second, _) in &boards {
        assert_eq!(text.matches(first.as_str()).count(), 1, "{first}: {text}");
        assert_eq!(text.matches(second.as_str()).count(), 1, "{second}: {text}");
    }
    assert!(!text.contains(bye.as_str()));
    // The first page's four codes, one per quarter, each its table's.
    let page_w = 297.0 * 72.0 / 25.4;
    let page_h = 210.0 * 72.0 / 25.4;
    let all = squares(&a6, 1);
    for (i, (table, ..)) in boards.iter().take(4).enumerate() {
        let left = i % 2 == 0;
        let top = i < 2;
        let quarter: Vec<_> = all
            .iter()
            .copied()
            .filter(|s| (s.0 < page_w / 2.0) == left && (s.1 > page_h / 2.0) == top)
            .collect();
        assert_eq!(
            decode(&quarter),
            format!("http://go.example.org/tengen/t/{tid}/pairings/1#table-{table}")
        );
    }
    // A bad format is refused, naming the words it takes.
    let r = c.get(&format!("/t/{tid}/rounds/1/table-cards.pdf?format=a5"));
    assert_eq!(r.status, 400);
    assert!(r.body.contains("tent") && r.body.contains("a6"), "{}", r.body);
    // Printing is for the staff.
    assert_ne!(s.client().get(&format!("/t/{tid}/rounds/1/table-cards.pdf")).status, 200);

    // The command line prints the same cards with the same address given.
    let out = s.dir.path().join("cards.pdf");
    let (t, o) = (tid.to_string(), out.to_str().unwrap().to_string());
    let args = ["print", "table-cards", "--tournament", &t, "--round", "1", "--format", "a6", "--lang", "en"];
    let run = s.cli(&[&args[..], &["--public-url", "http://go.example.org/tengen/", "--out", &o]].concat());
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let cli = read("cli-cards", &std::fs::read(&out).unwrap());
    assert_eq!(cli.pages, a6.pages);
    assert_eq!(squares(&cli, 1), all);

    // Colours by lots name Black and White, no 猜先; without --public-url the page says so,
    // and the cards have no code rather than a wrong one.
    let s2 = Server::start();
    let c2 = s2.first_organizer();
    let tid2 = published(&s2, &c2, "lots");
    let page = c2.get(&format!("/t/{tid2}/rounds/1"));
    assert!(page.body.contains("id=\"cards-no-qr\""), "{}", page.body);
    let (_, plain) = pdf(&c2, &format!("/t/{tid2}/rounds/1/table-cards.pdf?format=tent&lang=zh"));
    let (boards2, _) = round_boards(&s2, tid2, 1);
    for (i, (table, black, white, nigiri)) in boards2.iter().enumerate() {
        assert!(!nigiri);
        let text = squash(&plain.pages[i]);
        assert!(!text.contains("猜先"), "{text}");
        // Each half: the stone's label under Black's name line, then White's.
        let (b, w) = (text.find(black.as_str()).unwrap(), text.find(white.as_str()).unwrap());
        assert!(b < w, "Black first at table {table}: {text}");
        assert_eq!(text.matches('黑').count(), 2, "{text}");
        assert_eq!(text.matches('白').count(), 2, "{text}");
        assert!(squares(&plain, i as u32 + 1).is_empty());
    }
}

/// The public results page's result of game `gid`.
fn page_result(body: &str, gid: &str) -> String {
    let at = body.find(&format!("id=\"g{gid}\"")).unwrap_or_else(|| panic!("no row g{gid}"));
    let row = &body[at..];
    row_cells(&row[..row.find("</tr>").unwrap()])[4].clone()
}

/// D15, D12, seed 000 Art. 15.2: the results notice of round 1, read after round 2 was played,
/// lists round 1's boards with the results worded as the public results page words them (a
/// forfeit and a double loss among them, the bye as 轮空), then the standings after round 1: the standings PDF's
/// own rows for `round=1`, with the tournament's tie-break columns — not round 2's.
#[test]
fn the_results_notice_words_the_round_and_holds_the_standings_pdf_of_that_round() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = published(&s, &c, "nigiri");
    // A draft or unknown round has no notice.
    assert_eq!(c.get(&format!("/t/{tid}/pairings/2/results-notice.pdf")).status, 404);
    let results: [&[(&str, &str)]; 4] = [
        &[("method", "resignation"), ("winner", "white")],
        &[("method", "forfeit"), ("winner", "black")],
        &[("method", "resignation"), ("winner", "black")],
        &[("method", "double_loss"), ("dl_reason", "stone_moved")],
    ];
    for n in [1, 2] {
        if n == 2 {
            pair_round(&c, tid, 2, "20261206");
            publish_round(&s, &c, tid, 2);
        }
        nigiri_all(&c, &s.db, tid, n);
        let games = query(
            &s.db,
            &format!(
                "SELECT id FROM games WHERE tournament_id = {tid} AND round_number = {n} \
                 AND white_id IS NOT NULL ORDER BY board"
            ),
        );
        for (i, g) in games.iter().enumerate() {
            enter(&c, tid, g[0].parse().unwrap(), results[i % 4]);
        }
    }
    // The links: the staff round and results pages, the public standings page of round 1.
    assert!(c
        .get(&format!("/t/{tid}/rounds/1"))
        .body
        .contains(&format!("/t/{tid}/pairings/1/results-notice.pdf")));
    assert!(c
        .get(&format!("/t/{tid}/results/rounds"))
        .body
        .contains(&format!("/t/{tid}/pairings/2/results-notice.pdf")));
    let outsider = s.client().in_chinese();
    let standings_page = outsider.get(&format!("/t/{tid}/standings?round=1"));
    assert!(standings_page.body.contains(&format!("/t/{tid}/pairings/1/results-notice.pdf")));

    let (r, notice) = pdf(&outsider, &format!("/t/{tid}/pairings/1/results-notice.pdf?lang=zh"));
    assert!(r.header("content-disposition").unwrap().contains("round1-results-notice.pdf"));
    assert!(notice.glyph_report().faults.is_empty());
    let text = squash(&notice.all_text());
    // The date the round was published, in the event's zone, the zone named.
    let zone = query(&s.db, &format!("SELECT time_zone FROM tournaments WHERE id = {tid}"))[0][0].clone();
    assert!(text.contains("第1轮成绩公告") && text.contains(&format!("（{zone}）")), "{zone}: {text}");
    let split = text.find("第1轮后成绩排名").expect("the standings part");
    let (results_part, standings_part) = text.split_at(split);

    // The results by table, in the results page's words.
    let (boards, bye) = round_boards(&s, tid, 1);
    let results_page = outsider.get(&format!("/t/{tid}/results?round=1")).body;
    let ids = query(
        &s.db,
        &format!(
            "SELECT id, board FROM games WHERE tournament_id = {tid} AND round_number = 1 \
             AND white_id IS NOT NULL ORDER BY board"
        ),
    );
    let mut worded = Vec::new();
    for ((table, first, second, _), id) in boards.iter().zip(&ids) {
        let played = query(
            &s.db,
            &format!(
                "SELECT b.family_name_zh || b.given_name_zh, w.family_name_zh || w.given_name_zh \
                 FROM games g JOIN entrants b ON b.id = CASE WHEN g.played_swapped THEN g.white_id ELSE g.black_id END \
                 JOIN entrants w ON w.id = CASE WHEN g.played_swapped THEN g.black_id ELSE g.white_id END \
                 WHERE g.id = {}",
                id[0]
            ),
        );
        let (black, white) = (&played[0][0], &played[0][1]);
        assert!([first, second].contains(&black) && [first, second].contains(&white));
        let result = squash(&page_result(&results_page, &id[0]));
        assert!(!result.is_empty());
        let (brank, _) = chinese_rank_and_unit(black);
        let at = results_part
            .find(&format!("{table}{black}"))
            .unwrap_or_else(|| panic!("{table}{black}: {results_part}"));
        let row = &results_part[at..];
        let want_white = row.find(white.as_str()).unwrap();
        assert!(
            row[..want_white].contains(brank) && row[..want_white].ends_with(&result),
            "table {table}: {result} between {black} and {white}: {row}"
        );
        worded.push(result);
    }
    assert!(worded.iter().any(|w| w.contains("弃权")), "a forfeit among them: {worded:?}");
    assert!(worded.iter().any(|w| w.contains("双方均负")), "a double loss among them: {worded:?}");
    assert!(results_part.contains(&format!("—{bye}")) && results_part.contains("轮空"), "{results_part}");

    // The standings after round 1: the standings PDF's rows for round=1, column for column.
    let (_, wall) = pdf(&outsider, &format!("/t/{tid}/standings.pdf?round=1&lang=zh"));
    let wall_text = squash(&wall.all_text());
    let rows = standings_page_at(&outsider, &format!("/t/{tid}/standings?round=1"));
    let squashed: Vec<String> = rows.iter().map(|r| squash(&r.1)).collect();
    let names: Vec<&str> = squashed.iter().map(String::as_str).collect();
    let in_notice = pdf_rows(standings_part, &names);
    let in_wall = pdf_rows(&wall_text[wall_text.find("名次").unwrap()..], &names);
    for (i, ((name, a), (_, b))) in in_notice.iter().zip(&in_wall).enumerate() {
        if i + 1 < names.len() {
            assert_eq!(a, b, "{name}");
        }
        let (_, _, unit, score, values) = &rows[i];
        let want = format!("{unit}{score}{}", values.join(""));
        assert!(a.contains(&want) && b.contains(&want), "{name}: {want} in {a} and {b}");
    }
    // Round 2's results are not in round 1's standings.
    let after_two = standings_page_at(&outsider, &format!("/t/{tid}/standings?round=2"));
    assert_ne!(
        after_two.iter().map(|r| &r.3).collect::<Vec<_>>(),
        rows.iter().map(|r| &r.3).collect::<Vec<_>>()
    );

    // English; and the command line prints the same notice as the web.
    let (r, en) = pdf(&outsider, &format!("/t/{tid}/pairings/1/results-notice.pdf?lang=en"));
    assert!(squash(&en.all_text()).contains("Round1resultsnotice"), "{}", en.all_text());
    let out = s.dir.path().join("notice.pdf");
    let (t, o) = (tid.to_string(), out.to_str().unwrap().to_string());
    let run =
        s.cli(&["print", "results-notice", "--tournament", &t, "--round", "1", "--lang", "en", "--out", &o]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let cli = read("cli-notice", &std::fs::read(&out).unwrap());
    assert_eq!(cli.pages, en.pages);
    assert!(!r.bytes.is_empty());
    let run = s.cli(&["print", "results-notice", "--tournament", &t, "--round", "3", "--out", &o]);
    assert_eq!(run.status.code(), Some(1));
}
