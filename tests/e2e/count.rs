//! The count from the position over HTTP (seed 000 Arts. 8, 9): a record uploaded to a game,
//! its final position on the count page with the rules crate's dead stones as a proposal, the
//! referee's correction, the players' and the referee's confirmations, and the result that
//! follows on the game page and in the standings; a correction clears the confirmations; a
//! typed count that differs from the position is flagged; bad input and the wrong people refused.

use crate::common;
use common::*;

/// A 19×19 record with territory markup: a white invasion at C17/C16 dead in Black's area, a
/// black one at R3 dead in White's. Black 20 stones + 170 points = 190; White 171.
const RECORD: &[u8] = include_bytes!("../../rules/tests/data/territory_markup.sgf");

/// A tournament of two players with round 1 paired (Kejie Black, Sedol White on board 1), the
/// game's id, and the record uploaded to it.
pub(crate) fn game_with_record(s: &Server, c: &Client) -> (i32, i32) {
    let r = c.submit("/t/new", "/t/new", &as_refs(&tournament_fields("数子测试赛", "Count Open")));
    assert_eq!(r.status, 303, "{}", r.body);
    let tid: i32 = r.location().trim_start_matches("/t/").parse().unwrap();
    let players: Vec<OgPlayer<'static>> = vec![("Kejie", "K", "9D"), ("Sedol", "L", "9D")];
    import_og(c, tid, &og_xml(&players, &[(1, 1, 0, 1)], &[], 3));
    let gid = game_id(&s.db, tid, 1, 1);
    let page = c.get(&format!("/t/{tid}/games/{gid}/count"));
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(text_of(&page, "no-position").is_some(), "no record, no position: {}", page.body);
    let p = c.get(&format!("/t/{tid}/games/{gid}"));
    let r = c.post_file(
        &format!("/t/{tid}/games/{gid}/sgf"),
        &[("csrf", &p.csrf()), ("version", &p.input("version").unwrap())],
        "file",
        "final.sgf",
        RECORD,
    );
    assert_eq!(r.status, 303, "{}", r.body);
    (tid, gid)
}

fn count_post(c: &Client, tid: i32, gid: i32, action: &str, fields: &[(&str, &str)]) -> Resp {
    let page = format!("/t/{tid}/games/{gid}/count");
    let p = c.get(&page);
    let v = p.input("version").unwrap_or_else(|| "0".into());
    let mut all: Vec<(&str, &str)> = vec![("version", &v)];
    all.extend_from_slice(fields);
    c.submit(&page, &format!("{page}/{action}"), &all)
}

fn confirmations(s: &Server, gid: i32) -> String {
    query_text(
        &s.db,
        &format!(
            "SELECT CASE WHEN confirmed_black THEN 'b' ELSE '-' END || CASE WHEN confirmed_white THEN 'w' ELSE '-' END \
             FROM game_counts WHERE game_id = {gid}"
        ),
    )
    .unwrap_or_default()
}

/// The standings row (its text) of the player named `name`.
fn standings_row(c: &Client, tid: i32, name: &str) -> (usize, String) {
    let page = c.get(&format!("/t/{tid}/standings"));
    assert_eq!(page.status, 200);
    let rows: Vec<String> = page.body.split("<tr").skip(1).map(plain_text_of_row).collect();
    rows.iter().enumerate().find(|(_, r)| r.contains(name)).map(|(i, r)| (i, r.clone())).unwrap()
}

fn plain_text_of_row(html: &str) -> String {
    let end = html.find("</tr>").unwrap_or(html.len());
    plain_text(&format!("<tr{}", &html[..end]))
}

/// Seed 000 Arts. 8, 9: the proposal is reviewed, corrected and saved by the referee, both
/// players and then the referee confirm, and only then is the count the game's result.
#[test]
fn a_count_from_the_position_is_the_result_once_players_and_referee_confirm() {
    let s = Server::start();
    let c = s.first_organizer();
    let (tid, gid) = game_with_record(&s, &c);

    // The proposal: both invasions dead, marked as a proposal, the count as a typed count shows it.
    let page = c.get(&format!("/t/{tid}/games/{gid}/count"));
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(text_of(&page, "proposal").is_some(), "marked as a proposal");
    assert_eq!(page.input("dead").as_deref(), Some("C17 R3"));
    assert!(page.body.contains("class=\"stone w dead\""), "dead stones marked on the board");
    assert!(text_of(&page, "count-line").unwrap().contains("190"), "{}", page.body);
    assert_eq!(text_of(&page, "count-result").as_deref(), Some("B+5¾"));
    assert!(text_of(&page, "confirmations").is_none(), "nothing to confirm before the referee saves");
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM game_counts"), 0, "a proposal is not saved");

    // The referee first leaves R3 alive, the players confirm that count…
    let r = count_post(&c, tid, gid, "dead", &[("dead", "C17")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let page = c.get(&format!("/t/{tid}/games/{gid}/count"));
    assert!(text_of(&page, "proposal").is_none());
    assert_eq!(page.input("dead").as_deref(), Some("C17"));
    for who in ["black", "white"] {
        let r = count_post(&c, tid, gid, "confirm", &[("who", who)]);
        assert_eq!(r.status, 303, "{who}: {}", r.body);
    }
    assert_eq!(confirmations(&s, gid), "bw");

    // …then corrects it: R3 is dead after all. The confirmations were of another count.
    let r = count_post(&c, tid, gid, "dead", &[("dead", "C17 R3")]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(confirmations(&s, gid), "--", "a correction clears the confirmations");
    let page = c.get(&format!("/t/{tid}/games/{gid}/count"));
    assert!(page.body.contains("id=\"confirm-black\"><form"), "Black confirms again");

    // The referee cannot confirm before both players: refused, nothing written.
    let before = count_rows(&s.db, "SELECT count(*) FROM audit");
    let sv = |c: &Client| c.get(&format!("/t/{tid}/games/{gid}/count")).input("sv").unwrap();
    let r = count_post(&c, tid, gid, "confirm", &[("who", "arbiter"), ("sv", &sv(&c))]);
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(text_of(&r, "banner").unwrap().contains("Both players confirm first"), "{}", r.body);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM audit"), before, "a refusal writes nothing");
    assert_eq!(query_text(&s.db, &format!("SELECT outcome FROM results WHERE game_id = {gid}")), None);

    for who in ["black", "white"] {
        let r = count_post(&c, tid, gid, "confirm", &[("who", who)]);
        assert_eq!(r.status, 303, "{who}: {}", r.body);
    }
    // A result sheet changed since the page was shown: the sheet refuses, and the count's
    // confirmation is rolled back with it (one transaction).
    let stale = (sv(&c).parse::<i32>().unwrap() + 7).to_string();
    let r = count_post(&c, tid, gid, "confirm", &[("who", "arbiter"), ("sv", &stale)]);
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(
        query_text(&s.db, &format!("SELECT confirmed_by FROM game_counts WHERE game_id = {gid}")),
        None,
        "nothing confirmed"
    );
    let r = count_post(&c, tid, gid, "confirm", &[("who", "arbiter"), ("sv", &sv(&c))]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(r.location(), format!("/t/{tid}/games/{gid}?saved=1"));

    // The game's result, through the result sheet: Black 190 at komi 3¾ wins by 5¾.
    let game = c.get(&format!("/t/{tid}/games/{gid}"));
    assert_eq!(text_of(&game, "result").as_deref(), Some("B+5¾"), "{}", game.body);
    assert_eq!(
        query_text(&s.db, &format!("SELECT method FROM results WHERE game_id = {gid}")).as_deref(),
        Some("count")
    );
    assert_eq!(
        query_text(&s.db, &format!("SELECT CAST(black_halves AS TEXT) FROM results WHERE game_id = {gid}"))
            .as_deref(),
        Some("380")
    );
    assert!(text_of(&game, "position-differs").is_none(), "the result is the position's count");
    let page = c.get(&format!("/t/{tid}/games/{gid}/count"));
    assert!(text_of(&page, "confirmed").is_some(), "{}", page.body);
    assert!(page.input("dead").is_none(), "a confirmed count is not edited here");
    let r = c.submit(
        &format!("/t/{tid}/games/{gid}"),
        &format!("/t/{tid}/games/{gid}/count/dead"),
        &[
            (
                "version",
                &query_text(
                    &s.db,
                    &format!("SELECT CAST(version AS TEXT) FROM game_counts WHERE game_id = {gid}"),
                )
                .unwrap(),
            ),
            ("dead", "C17"),
        ],
    );
    assert_eq!(r.status, 409, "{}", r.body);

    // The standings: Black (Kejie) won.
    let (black_at, black_row) = standings_row(&c, tid, "Kejie");
    let (white_at, _) = standings_row(&c, tid, "Sedol");
    assert!(black_at < white_at, "{black_row}");

    // Every step is in the trail: two saves of the dead stones, five confirmations, the result.
    let n = |action: &str| {
        count_rows(&s.db, &format!("SELECT count(*) FROM audit WHERE entity = 'game_count' AND action = '{action}' AND entity_id = {gid}"))
    };
    assert_eq!((n("dead"), n("confirm")), (2, 5));
    assert_eq!(count_rows(&s.db, &format!("SELECT count(*) FROM audit WHERE entity = 'result' AND action = 'enter' AND entity_id = {gid}")), 1);

    // The result corrected on the game page afterwards: the count page no longer calls its
    // count the game's result, and says the sheet's stands.
    let game = enter(&c, tid, gid, &[("method", "count"), ("black_count", "184.5")]);
    assert_ne!(text_of(&game, "result").as_deref(), Some("B+5¾"));
    let page = c.get(&format!("/t/{tid}/games/{gid}/count"));
    assert!(text_of(&page, "confirmed").is_none(), "{}", page.body);
    assert!(text_of(&page, "superseded").is_some(), "{}", page.body);
    assert!(page.input("dead").is_none(), "still not edited here");
}

/// A count typed on the result sheet that differs from the count of the position is flagged
/// with both numbers, on the game page and above the result form.
#[test]
fn a_typed_count_that_disagrees_with_the_position_is_flagged() {
    let s = Server::start();
    let c = s.first_organizer();
    let (tid, gid) = game_with_record(&s, &c);
    let r = count_post(&c, tid, gid, "dead", &[("dead", "C17 R3")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let game = enter(&c, tid, gid, &[("method", "count"), ("black_count", "184.5")]);
    let flag = text_of(&game, "position-differs").expect("flagged");
    assert!(flag.contains("184.5") && flag.contains("190"), "{flag}");
    assert!(text_of(&game, "result-position-differs").is_some());
    let page = c.get(&format!("/t/{tid}/games/{gid}/count"));
    assert!(text_of(&page, "differs").unwrap().contains("184.5"));
    // The same count typed: no flag.
    let game = enter(&c, tid, gid, &[("method", "count"), ("black_count", "190")]);
    assert!(text_of(&game, "position-differs").is_none(), "{}", game.body);
}

/// Bad dead-stone lists are refused with the words in the reader's language, a 400, the typed
/// entry kept and nothing written; a stale page is refused; the public cannot open the page.
#[test]
fn bad_dead_stones_and_strangers_are_refused() {
    let s = Server::start();
    let c = s.first_organizer();
    let (tid, gid) = game_with_record(&s, &c);
    let audit = || count_rows(&s.db, "SELECT count(*) FROM audit");
    let before = audit();
    for (typed, words) in [("Z99", "“Z99” is not a point of the board."), ("A1", "There is no stone at A1.")]
    {
        let r = count_post(&c, tid, gid, "dead", &[("dead", typed)]);
        assert_eq!(r.status, 400, "{typed}: {}", r.body);
        assert_eq!(text_of(&r, "banner").as_deref(), Some(words));
        assert_eq!(r.input("dead").as_deref(), Some(typed), "the typed entry is kept");
    }
    assert_eq!(audit(), before, "nothing written");
    // In Chinese, with Chinese punctuation.
    let body = c.get(&format!("/t/{tid}/games/{gid}/count")).body;
    let at = body.find("href=\"/lang/zh").expect("the language switch") + 6;
    let link = body[at..at + body[at..].find('"').unwrap()].replace("&amp;", "&");
    assert_eq!(c.get(&link).status, 303, "{link}");
    let before = audit();
    let r = count_post(&c, tid, gid, "dead", &[("dead", "A1")]);
    assert_eq!(r.status, 400);
    assert_eq!(text_of(&r, "banner").as_deref(), Some("A1没有棋子。"));
    assert_eq!(audit(), before, "nothing written");
    // A stale version: refused with a 409.
    let r = count_post(&c, tid, gid, "dead", &[("dead", "C17")]);
    assert_eq!(r.status, 303);
    let page = format!("/t/{tid}/games/{gid}/count");
    let r = c.submit(&page, &format!("{page}/dead"), &[("version", "0"), ("dead", "C17 R3")]);
    assert_eq!(r.status, 409, "{}", r.body);
    // No confirmation of a count nobody saved, and no such confirmer.
    let r = c.submit(&page, &format!("{page}/confirm"), &[("version", "1"), ("who", "nobody")]);
    assert_eq!(r.status, 400, "{}", r.body);
    // The public: no count page, no write.
    let anon = s.client();
    assert_ne!(anon.get(&page).status, 200);
    let r = anon.post_form(&format!("{page}/dead"), &[("version", "1"), ("dead", "")]);
    assert!(r.status >= 400, "{}", r.status);
}
