//! Standings of a small Swiss worked by hand, the crosstable, the player page, and the public
//! pages: find my table, caching (ETag, 304), auto-refresh while a round runs, languages.

mod common;
use common::*;

/// Six players, three rounds (Black first):
///   R1: A–B A wins (count), C–D D wins (resignation), E–F draw
///   R2: D–A D wins (time), B–E B wins (resignation; a warning to E), C–F F wins by forfeit
///   R3: A–F A wins (count), D–B B wins (count), E–C E wins (resignation)
/// Scores (2/1/0): A 4, B 4, D 4, F 3, E 3, C 0.
/// 对手分 SOS: A = B+D+F = 4+4+3 = 11; B = A+E+D = 4+3+4 = 11; D = C+A+B = 0+4+4 = 8;
///   E = F+B+C = 3+4+0 = 7; F = E+C+A = 3+0+4 = 7; C = D+F+E = 4+3+3 = 10.
/// 累进分 cumulative: A 2+2+4 = 8; B 0+2+4 = 6; D 2+4+4 = 10; E 1+1+3 = 5; F 1+3+3 = 7; C 0.
/// Order (积分 → 对手分 → 累进分 → …): A (4, 11, 8), B (4, 11, 6), D (4, 8), F (3, 7, 7),
///   E (3, 7, 5), C (0).
/// SB: A beat B (4) and F (3) = 7; B beat E (3) and D (4) = 7; D beat C (0) and A (4) = 4;
///   F drew E (½·3) and beat C (0) = 1.5; E drew F (1.5) and beat C (0) = 1.5; C 0.
const P: [OgPlayer<'static>; 6] = [
    ("Ahn", "Ari", "3D"),
    ("Bai", "Bo", "3D"),
    ("Cao", "Can", "2D"),
    ("Deng", "Di", "2D"),
    ("Egami", "Eri", "1D"),
    ("Fang", "Fei", "1D"),
];
const GAMES: [(u32, u32, usize, usize); 9] = [
    (1, 1, 0, 1),
    (1, 2, 2, 3),
    (1, 3, 4, 5),
    (2, 1, 3, 0),
    (2, 2, 1, 4),
    (2, 3, 2, 5),
    (3, 1, 0, 5),
    (3, 2, 3, 1),
    (3, 3, 4, 2),
];

fn row_of(body: &str, name: &str) -> Vec<String> {
    let i = body.find(&format!(">{name}</a>")).unwrap_or_else(|| panic!("{name} not in {body}"));
    let start = body[..i].rfind("<tr").unwrap();
    // Rows of the big tables leave out </tr>: a row ends where the next begins.
    let end = i + ["</tr>", "<tr", "</tbody>"].iter().filter_map(|t| body[i..].find(t)).min().unwrap();
    let row = &body[start..end];
    row.split("<td")
        .skip(1)
        .map(|cell| {
            let inner = &cell[cell.find('>').unwrap() + 1..];
            let mut out = String::new();
            let mut tag = false;
            for ch in inner.chars() {
                match ch {
                    '<' => tag = true,
                    '>' => tag = false,
                    c if !tag => out.push(c),
                    _ => {}
                }
            }
            unescape(out.trim())
        })
        .collect()
}

#[test]
fn a_small_swiss_worked_by_hand() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = create_tournament(&c, "积分编排测试赛");
    import_og(&c, tid, &og_xml(&P, &GAMES, &[], 3));
    let g = |round, board| game_id(&s.db, tid, round, board);
    let public = s.client();
    // Nothing entered yet: every game of round 3 (the current round) is open, pages refresh.
    let st = public.get(&format!("/t/{tid}/standings"));
    assert_eq!(st.status, 200);
    assert!(st.body.contains("http-equiv=\"refresh\""));

    enter(&c, tid, g(1, 1), &[("method", "count"), ("black_count", "190")]);
    enter(&c, tid, g(1, 2), &[("method", "resignation"), ("winner", "white")]);
    enter(&c, tid, g(1, 3), &[("method", "draw")]);
    enter(&c, tid, g(2, 1), &[("method", "time"), ("winner", "black")]);
    enter(&c, tid, g(2, 2), &[("method", "resignation"), ("winner", "black")]);
    let r = game_post(
        &c,
        tid,
        g(2, 2),
        "rulings",
        &[
            ("do", "save"),
            ("kind", "warning"),
            ("against", "white"),
            ("move_number", "30"),
            ("reason", "按钟早于落子"),
        ],
    );
    assert_eq!(r.status, 303);
    enter(&c, tid, g(2, 3), &[("method", "forfeit"), ("winner", "white")]);
    enter(&c, tid, g(3, 1), &[("method", "count"), ("black_count", "185")]);
    enter(&c, tid, g(3, 2), &[("method", "count"), ("black_count", "180")]);
    // Before the last result the round still runs.
    let st = public.get(&format!("/t/{tid}/standings"));
    assert!(st.body.contains("http-equiv=\"refresh\""));
    enter(&c, tid, g(3, 3), &[("method", "resignation"), ("winner", "black")]);

    let st = public.get(&format!("/t/{tid}/standings"));
    assert_eq!(st.status, 200);
    assert!(!st.body.contains("http-equiv=\"refresh\""), "the round is over: no refresh");
    assert!(st.body.contains("Standings after round 3"));
    // Columns: place, name, rank, unit, score, SOS, cumulative, direct, wins, warnings, lots.
    let expect = [
        ("Ahn Ari", "1", "4", "11", "8"),
        ("Bai Bo", "2", "4", "11", "6"),
        ("Deng Di", "3", "4", "8", "10"),
        ("Fang Fei", "4", "3", "7", "7"),
        ("Egami Eri", "5", "3", "7", "5"),
        ("Cao Can", "6", "0", "10", "0"),
    ];
    let mut last = 0;
    for (name, place, score, sos, cum) in expect {
        let row = row_of(&st.body, name);
        assert_eq!(
            (row[0].as_str(), row[4].as_str(), row[5].as_str(), row[6].as_str()),
            (place, score, sos, cum),
            "{name}: {row:?}"
        );
        let at = st.body.find(&format!(">{name}</a>")).unwrap();
        assert!(at > last, "{name} is in its place");
        last = at;
    }
    assert_eq!(row_of(&st.body, "Egami Eri")[9], "1", "E's warning");
    assert_eq!(row_of(&st.body, "Ahn Ari")[8], "2", "A won twice");

    // The crosstable: opponent's place, result, colour; a forfeit is marked.
    let x = public.get(&format!("/t/{tid}/crosstable"));
    assert_eq!(x.status, 200);
    let a = row_of(&x.body, "Ahn Ari");
    assert_eq!(&a[3..7], ["2+b", "3−w", "4+b", "4"]);
    let f = row_of(&x.body, "Fang Fei");
    assert_eq!(&f[3..6], ["5=w", "6+!w", "1−w"]);

    // Another order (the tie-break order stays free after publication): SB first.
    let mut fields = tournament_fields("积分编排测试赛", "Test Open");
    set(
        &mut fields,
        "version",
        &query_opt(&s.db, &format!("SELECT version FROM tournaments WHERE id = {tid}")).unwrap().to_string(),
    );
    fields.retain(|(k, _)| k != "tiebreak");
    for t in ["score", "sb", "lots"] {
        fields.push(("tiebreak".into(), t.into()));
    }
    let r = c.submit(&format!("/t/{tid}/settings"), &format!("/t/{tid}/settings"), &as_refs(&fields));
    assert_eq!(r.status, 303, "{}", r.body);
    let st = public.get(&format!("/t/{tid}/standings"));
    assert_eq!(row_of(&st.body, "Ahn Ari")[5], "7");
    assert_eq!(row_of(&st.body, "Bai Bo")[5], "7");
    assert_eq!(row_of(&st.body, "Deng Di")[5], "4");
    assert_eq!(row_of(&st.body, "Fang Fei")[5], "1.5");
    assert_eq!(row_of(&st.body, "Deng Di")[0], "3");
    // Standings after round 1 only.
    let st1 = public.get(&format!("/t/{tid}/standings?round=1"));
    assert!(st1.body.contains("Standings after round 1"));
    assert_eq!(row_of(&st1.body, "Cao Can")[4], "0");
    assert_eq!(row_of(&st1.body, "Egami Eri")[4], "1");

    // The player's page: every game, colour, opponent, result and ruling.
    let eid = count_rows(
        &s.db,
        &format!("SELECT id FROM entrants WHERE tournament_id = {tid} AND family_name_latin = 'Egami'"),
    );
    let p = public.get(&format!("/t/{tid}/players/{eid}"));
    assert_eq!(p.status, 200);
    // E and F are tied on score and SB under this order: the seeded lot places them.
    let place = text_of(&p, "place").unwrap_or_default();
    assert!(place == "4" || place == "5", "{place}");
    assert_eq!(text_of(&p, "score").as_deref(), Some("3"));
    assert!(p.body.contains("Fang Fei") && p.body.contains("Bai Bo") && p.body.contains("Cao Can"));
    assert!(p.body.contains("warning at move 30: 按钟早于落子"), "{}", p.body);
    assert!(p.body.contains("B+R") && p.body.contains("Draw"));
}

#[test]
fn public_pages_are_cached_by_etag_and_find_my_table() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = create_tournament(&c, "公开页面测试赛");
    import_og(&c, tid, &og_xml(&P, &GAMES[..3], &[], 3));
    let public = s.client();
    let path = format!("/t/{tid}/standings");
    let r = public.get(&path);
    assert_eq!(r.status, 200);
    let first = r.body.clone();
    let etag = r.header("etag").expect("an ETag").to_string();
    assert!(r.header("cache-control").unwrap_or("").contains("max-age"));
    assert!(r.header("vary").unwrap_or("").contains("Accept-Language"));
    assert!(r.header("set-cookie").is_none(), "no cookie on a cacheable page");
    // Revalidation: 304 without a body.
    let r = public.get_with(&path, &[("If-None-Match", &etag)]);
    assert_eq!(r.status, 304);
    assert!(r.body.is_empty());
    // Gzipped for browsers that take it: the same page.
    let z = public.get_with(&path, &[("Accept-Encoding", "gzip, deflate, br")]);
    assert_eq!(z.status, 200);
    assert_eq!(z.header("content-encoding"), Some("gzip"));
    assert_eq!(z.header("etag"), Some(etag.as_str()));
    let mut plain = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&z.bytes[..]), &mut plain).unwrap();
    assert_eq!(plain, first);
    let r0 = public.get_with(&path, &[("Accept-Encoding", "gzip;q=0")]);
    assert!(r0.header("content-encoding").is_none());
    // Odd query strings share the page (no cache flooding).
    let odd = public.get(&format!("{path}?utm=1&x=%FF"));
    assert_eq!(odd.header("etag"), Some(etag.as_str()));
    // Chinese is another variant.
    let mut zh = s.client();
    zh.accept_language = "zh-CN,zh;q=0.9".into();
    let z = zh.get(&path);
    assert_ne!(z.header("etag").unwrap(), etag);
    assert!(z.body.contains("名次"));
    // A result changes the tag at once.
    enter(&c, tid, game_id(&s.db, tid, 1, 1), &[("method", "resignation"), ("winner", "black")]);
    let r = public.get_with(&path, &[("If-None-Match", &etag)]);
    assert_eq!(r.status, 200, "the page changed");
    assert_ne!(r.header("etag").unwrap(), etag);
    let r2 = public.get_with(&path, &[("If-None-Match", r.header("etag").unwrap())]);
    assert_eq!(r2.status, 304);
    // Staff get their own page (admin navigation), never cached.
    let staff = c.get(&path);
    assert_eq!(staff.status, 200);
    assert!(staff.header("cache-control").unwrap_or("").contains("no-cache"));
    assert!(staff.body.contains(&format!("/t/{tid}/rounds")));
    assert!(!r.body.contains(&format!("/t/{tid}/rounds\"")), "the public page has no admin links");

    // Find my table by name (Latin or Chinese, any case), the current round by default.
    let p = public.get(&format!("/t/{tid}/pairings?q=fang"));
    assert_eq!(p.status, 200);
    assert_eq!(text_of(&p, "found").as_deref(), Some("Tables found: 1"));
    assert!(p.body.contains("class=\"found\""));
    assert!(p.body.contains("Fang Fei") && p.body.contains("Egami Eri"));
    assert!(!p.body.contains("Ahn Ari"), "only the matching table");
    let p = public.get(&format!("/t/{tid}/pairings?q=nobody"));
    assert!(text_of(&p, "found").unwrap_or_default().contains("No player"));
    let p = public.get(&format!("/t/{tid}/pairings"));
    assert!(p.body.contains("Ahn Ari") && p.body.contains("http-equiv=\"refresh\""));
    // Odd queries are not errors.
    for q in ["?round=abc", "?round=99", "?q=%3Cscript%3E", "?round=1&q="] {
        let r = public.get(&format!("/t/{tid}/pairings{q}"));
        assert_eq!(r.status, 200, "{q}");
        assert!(!r.body.contains("<script>"));
    }
    // The tournament's home is a cached public page too, with the links to the others.
    let home = public.get(&format!("/t/{tid}"));
    assert_eq!(home.status, 200);
    assert!(home.header("etag").is_some());
    assert!(home.body.contains(&format!("/t/{tid}/standings")) && home.body.contains("公开页面测试赛"));
    assert!(!home.body.contains("name=\"csrf\""), "no forms for the public");
    // Unknown tournaments and players are 404s.
    assert_eq!(public.get("/t/9999/pairings").status, 404);
    assert_eq!(public.get(&format!("/t/{tid}/players/9999")).status, 404);
}

#[test]
fn a_round_with_an_imported_bye_ends_with_its_last_game() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = create_tournament(&c, "轮空测试赛");
    import_og(&c, tid, &og_xml(&P[..3], &[(1, 1, 0, 1)], &[(1, 2)], 3));
    let public = s.client();
    let st = public.get(&format!("/t/{tid}/standings"));
    assert!(st.body.contains("http-equiv=\"refresh\""), "the game is open");
    enter(&c, tid, game_id(&s.db, tid, 1, 1), &[("method", "resignation"), ("winner", "black")]);
    let st = public.get(&format!("/t/{tid}/standings"));
    assert!(!st.body.contains("http-equiv=\"refresh\""), "the bye needs no result");
    // The bye scores a win (2 points) and shows as a bye.
    assert_eq!(row_of(&st.body, "Cao Can")[4], "2");
    let r = public.get(&format!("/t/{tid}/results"));
    assert!(r.body.contains(">Bye<"), "{}", r.body);
}
