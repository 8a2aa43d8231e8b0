//! The count from a relay game's position over HTTP (seed 003 Art. 16.4: the result "经对局双方和
//! 执行裁判正式确认"; Art. 21.4: dead and alive agreed): a relay match whose 40 moves were
//! entered with their points, its count page with the rules crate's proposal, the executing
//! leaders (Art. 10.1) confirming on the tablet, a new marking clearing them, the referee
//! refused before both and on a stale form, then the referee's confirmation that records the
//! match's count: the match page shows the result and the team standings give the points.
//!
//! The moves are entered through the relay board's move route (`/t/{id}/matches/{mid}/board/move`).

use crate::common;
use common::team::{add_team, relay_tournament, save_team_settings};
use common::*;
use rules::board::Point;

/// The game: Black's wall on column J, White's on column L, column K empty (dame), then a
/// black stone at R17 in White's area and a white one at C3 in Black's.
fn moves() -> Vec<&'static str> {
    const J: [&str; 19] = [
        "J1", "J2", "J3", "J4", "J5", "J6", "J7", "J8", "J9", "J10", "J11", "J12", "J13", "J14", "J15",
        "J16", "J17", "J18", "J19",
    ];
    const L: [&str; 19] = [
        "L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8", "L9", "L10", "L11", "L12", "L13", "L14", "L15",
        "L16", "L17", "L18", "L19",
    ];
    let mut v: Vec<&str> = J.iter().zip(L.iter()).flat_map(|(b, w)| [*b, *w]).collect();
    v.extend(["R17", "C3"]);
    v
}

/// Unix seconds as the arbiter types them in an event kept in UTC.
fn typed(t: i64) -> String {
    chrono::DateTime::from_timestamp(t, 0).unwrap().format("%Y-%m-%dT%H:%M:%S").to_string()
}

struct Match {
    tid: i32,
    mid: i32,
    black_team: i32,
    white_team: i32,
}

fn cell(s: &Server, sql: &str) -> String {
    query(&s.db, sql).remove(0).remove(0)
}

fn int(s: &Server, sql: &str) -> i32 {
    cell(s, sql).parse().unwrap()
}

/// A relay event (UTC) with two teams, round 1 paired, its match started ten minutes ago with
/// section 1's line-ups (positions 1 and 2 of each team).
fn relay_match(s: &Server, c: &Client) -> Match {
    let now = chrono::Utc::now().timestamp();
    let day = typed(now)[..10].to_string();
    let extra = [("time_zone", "UTC"), ("start_date", day.as_str()), ("end_date", day.as_str())];
    let tid = relay_tournament(c, "数子接力赛", "Relay Count", "1", &extra);
    save_team_settings(c, s, tid, &[]);
    for name in ["甲队", "乙队"] {
        let players: Vec<String> = (1..=6).map(|k| format!("{}{k}", &name[..3])).collect();
        assert_eq!(add_team(c, tid, name, &players).status, 303);
    }
    let r =
        c.submit(&format!("/t/{tid}/team-rounds"), &format!("/t/{tid}/team-rounds/1/pair"), &[("seed", "4")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let mid = int(s, &format!("SELECT id FROM team_matches WHERE tournament_id = {tid}"));
    let m = Match {
        tid,
        mid,
        black_team: int(s, &format!("SELECT black_team_id FROM team_matches WHERE id = {mid}")),
        white_team: int(s, &format!("SELECT white_team_id FROM team_matches WHERE id = {mid}")),
    };
    match_post(s, c, &m, "start", &[("start", &typed(now - 600))]);
    for (side, team) in [("black", m.black_team), ("white", m.white_team)] {
        let (p1, p2) = (member(s, team, 1), member(s, team, 2));
        let at = typed(now - 1200);
        let f = [("kind", "lineup"), ("side", side), ("section", "1"), ("p1", &p1), ("p2", &p2), ("at", &at)];
        match_post(s, c, &m, "event", &f);
    }
    m
}

fn member(s: &Server, team: i32, pos: u32) -> String {
    cell(s, &format!("SELECT id FROM team_members WHERE team_id = {team} AND position = {pos}"))
}

fn match_version(s: &Server, mid: i32) -> String {
    cell(s, &format!("SELECT version FROM team_matches WHERE id = {mid}"))
}

/// A form of the match page, accepted.
fn match_post(s: &Server, c: &Client, m: &Match, action: &str, fields: &[(&str, &str)]) {
    let page = format!("/t/{}/matches/{}", m.tid, m.mid);
    let v = match_version(s, m.mid);
    let mut all = vec![("version", v.as_str())];
    all.extend_from_slice(fields);
    let r = c.submit(&page, &format!("{page}/{action}"), &all);
    assert_eq!(r.status, 303, "{action} {fields:?}: {}", r.body);
}

/// The moves entered at the relay board: move k by the player the clockwise order expects
/// (Art. 10.3: Black's position 1, White's 1, Black's 2, White's 2).
fn enter_at_the_board(s: &Server, c: &Client, m: &Match) {
    let board = format!("/t/{}/matches/{}/board", m.tid, m.mid);
    for (k, at) in moves().into_iter().enumerate() {
        let team = if k % 2 == 0 { m.black_team } else { m.white_team };
        let player = member(s, team, if (k / 2) % 2 == 0 { 1 } else { 2 });
        let sgf = Point::parse(at, 19).unwrap().sgf();
        let number = (k + 1).to_string();
        let r = c.submit(
            &board,
            &format!("{board}/move"),
            &[("seq", &number), ("player", &player), ("at", &sgf)],
        );
        assert!(r.status == 303 || r.status == 200, "move {number} at {at}: {} {}", r.status, r.body);
    }
}

fn count_page(c: &Client, m: &Match) -> Resp {
    let r = c.get(&format!("/t/{}/matches/{}/count", m.tid, m.mid));
    assert_eq!(r.status, 200, "{}", r.body);
    r
}

fn count_post(c: &Client, m: &Match, action: &str, fields: &[(&str, &str)]) -> Resp {
    let page = format!("/t/{}/matches/{}/count", m.tid, m.mid);
    let v = c.get(&page).input("version").unwrap_or_else(|| "0".into());
    let mut all: Vec<(&str, &str)> = vec![("version", &v)];
    all.extend_from_slice(fields);
    c.submit(&page, &format!("{page}/{action}"), &all)
}

fn confirmations(s: &Server, mid: i32) -> String {
    query_text(
        &s.db,
        &format!(
            "SELECT CASE WHEN confirmed_black THEN 'b' ELSE '-' END || CASE WHEN confirmed_white THEN 'w' ELSE '-' END \
             FROM relay_counts WHERE match_id = {mid}"
        ),
    )
    .unwrap_or_default()
}

/// The executing leader's name shown on the match page for the side in row `k` (0 Black).
fn executing_on_match_page(c: &Client, m: &Match, k: usize) -> String {
    let page = c.get(&format!("/t/{}/matches/{}", m.tid, m.mid));
    let cells: Vec<&str> = page.body.split("<td class=\"executing\">").skip(1).collect();
    let cell = cells[k];
    plain_text(&cell[..cell.find("</td>").unwrap()])
}

/// The count's forms once the moves are in: the whole confirmation of Arts. 16.4, 21.4.
fn count_and_confirm(s: &Server, c: &Client, m: &Match) {
    let (tid, mid) = (m.tid, m.mid);
    let match_page = c.get(&format!("/t/{tid}/matches/{mid}"));
    assert!(
        match_page.body.contains(&format!("href=\"/t/{tid}/matches/{mid}/count\"")),
        "linked once moves are in"
    );

    // The proposal: the lone stones dead, Black 180½ (columns A–J and half of K), the result
    // as the match would record it (komi 3½: 184 is a draw, Art. 12).
    let page = count_page(c, m);
    assert!(text_of(&page, "proposal").is_some());
    assert_eq!(page.input("dead").as_deref(), Some("C3 R17"), "{}", page.body);
    assert!(text_of(&page, "count-line").unwrap().contains("Black 180.5"), "{}", page.body);
    assert_eq!(text_of(&page, "count-result").as_deref(), Some("W+3½"), "{}", page.body);
    assert!(text_of(&page, "confirmations").is_none(), "nothing to confirm before the referee saves");

    // The leaders named on the buttons are the acting executing leaders of the match page.
    let r = count_post(c, m, "dead", &[("dead", "C3 R17")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let page = count_page(c, m);
    let leader = |team: i32| {
        query_text(
            &s.db,
            &format!("SELECT name FROM team_members WHERE team_id = {team} AND role = 'leader'"),
        )
        .unwrap()
    };
    let (bl, wl) = (leader(m.black_team), leader(m.white_team));
    assert!(executing_on_match_page(c, m, 0).contains(&bl));
    assert!(executing_on_match_page(c, m, 1).contains(&wl));
    let black_button = text_of(&page, "confirm-black").unwrap();
    let white_button = text_of(&page, "confirm-white").unwrap();
    assert!(black_button.contains("executing leader") && black_button.contains(&bl), "{black_button}");
    assert!(white_button.contains("executing leader") && white_button.contains(&wl), "{white_button}");

    // Black's leader confirms; the referee cannot confirm before White's: 409, nothing written.
    let r = count_post(c, m, "confirm", &[("who", "black")]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(confirmations(s, mid), "b-");
    let sv = || c.get(&format!("/t/{tid}/matches/{mid}/count")).input("sv").unwrap();
    let audits = || count_rows(&s.db, "SELECT count(*) FROM audit");
    let before = audits();
    let r = count_post(c, m, "confirm", &[("who", "arbiter"), ("sv", &sv())]);
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(text_of(&r, "banner").unwrap().contains("Both executing leaders confirm first"), "{}", r.body);
    assert_eq!(audits(), before, "a refusal writes nothing");

    // A new marking clears the leaders' confirmations.
    let r = count_post(c, m, "dead", &[("dead", "C3")]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(confirmations(s, mid), "--", "a new marking clears the confirmations");
    let r = count_post(c, m, "dead", &[("dead", "C3 R17")]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(confirmations(s, mid), "--");

    // A stale form: the dead stones of a page shown before the last save, refused with 409.
    let r = c.submit(
        &format!("/t/{tid}/matches/{mid}/count"),
        &format!("/t/{tid}/matches/{mid}/count/dead"),
        &[("version", "1"), ("dead", "C3")],
    );
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.input("dead").as_deref(), Some("C3"), "the typed entry is kept");

    for who in ["black", "white"] {
        let r = count_post(c, m, "confirm", &[("who", who)]);
        assert_eq!(r.status, 303, "{who}: {}", r.body);
    }
    assert_eq!(confirmations(s, mid), "bw");

    // The referee's form shown before the match changed: refused with 409, nothing recorded.
    let stale = (sv().parse::<i32>().unwrap() - 1).to_string();
    let events = || count_rows(&s.db, &format!("SELECT count(*) FROM relay_events WHERE match_id = {mid}"));
    let n = events();
    let r = count_post(c, m, "confirm", &[("who", "arbiter"), ("sv", &stale)]);
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(events(), n);
    assert_eq!(
        query_text(&s.db, &format!("SELECT confirmed_by FROM relay_counts WHERE match_id = {mid}")),
        None
    );

    // The referee confirms: the match's count is recorded and the match is over.
    let r = count_post(c, m, "confirm", &[("who", "arbiter"), ("sv", &sv())]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(events(), n + 1);
    let page = c.get(&format!("/t/{tid}/matches/{mid}"));
    assert!(page.body.contains("W+3½"), "the match page shows the result: {}", page.body);
    assert!(!page.body.contains("id=\"count-link\""), "no count once the match is over");
    let page = count_page(c, m);
    assert!(text_of(&page, "confirmed").is_some(), "{}", page.body);
    assert!(text_of(&page, "dead-form").is_none(), "no more marking");

    // The team standings: White's team first with the match's 3 points.
    let st = s.client().get(&format!("/t/{tid}/team-standings"));
    assert_eq!(st.status, 200);
    let name = |team: i32| query_text(&s.db, &format!("SELECT name FROM teams WHERE id = {team}")).unwrap();
    let first = st.body.find(&format!("<td class=\"team-name\">{}</td>", name(m.white_team))).unwrap();
    let second = st.body.find(&format!("<td class=\"team-name\">{}</td>", name(m.black_team))).unwrap();
    assert!(first < second, "the winner first: {}", st.body);
    assert!(st.body.contains("<td class=\"num mp\">3</td>"), "{}", st.body);

    // Over: the public board shows the whole game with the result and offers the record; the
    // record is open to the public now.
    let public = s.client();
    let live = public.get(&format!("/t/{tid}/matches/{mid}/live"));
    assert_eq!(live.status, 200);
    assert!(
        live.body.contains("id=\"live-sgf\"") && text_of(&live, "live-result").is_some(),
        "{}",
        live.body
    );
    assert!(text_of(&live, "live-behind").is_none(), "no delay once the match is over");
    let sgf = public.get(&format!("/t/{tid}/matches/{mid}/board.sgf"));
    assert_eq!(sgf.status, 200, "{}", sgf.body);
    assert!(rules::sgf::parse(&sgf.body).is_ok(), "{}", sgf.body);
    // The research room of Black's team links the record too.
    let room = public.get(&crate::room::issue(s, c, tid, m.black_team));
    assert!(
        room.body.contains(&format!("href=\"/t/{tid}/matches/{mid}/board.sgf\" id=\"room-sgf\"")),
        "{}",
        room.body
    );
}

/// Seed 003 Arts. 16.4, 21.4, 10.1: the moves entered at the relay board, the count confirmed
/// by both executing leaders and then the referee.
#[test]
fn relay_count_from_moves_entered_at_the_board() {
    let s = Server::start();
    let c = s.first_organizer();
    let m = relay_match(&s, &c);
    // Before any move, the match page offers no count from the position.
    let page = c.get(&format!("/t/{}/matches/{}", m.tid, m.mid));
    assert!(!page.body.contains("id=\"count-link\""), "{}", page.body);
    enter_at_the_board(&s, &c, &m);
    count_and_confirm(&s, &c, &m);
}

/// Seed 003 Art. 21.4: a move recorded on the match page without its point leaves no position
/// to count: the count page says so and points to the typed count of the match page, and its
/// forms are refused with nothing written.
#[test]
fn a_relay_move_without_its_point_leaves_only_the_typed_count() {
    let s = Server::start();
    let c = s.first_organizer();
    let m = relay_match(&s, &c);
    let p1 = member(&s, m.black_team, 1);
    match_post(&s, &c, &m, "event", &[("kind", "move"), ("player", &p1), ("number", "1")]);
    let page = c.get(&format!("/t/{}/matches/{}", m.tid, m.mid));
    assert!(!page.body.contains("id=\"count-link\""), "no count from a position without one");
    let page = count_page(&c, &m);
    assert!(text_of(&page, "no-position").unwrap().contains("Move 1"), "{}", page.body);
    let link = format!("href=\"/t/{}/matches/{}#form-count\"", m.tid, m.mid);
    assert!(page.body.contains(&link), "{}", page.body);
    let r = count_post(&c, &m, "dead", &[("dead", "")]);
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM relay_counts"), 0);
    // Not for an arbiter of no standing here: a stranger is refused the page.
    assert!(matches!(
        s.client().get(&format!("/t/{}/matches/{}/count", m.tid, m.mid)).status,
        303 | 401 | 403
    ));
}
