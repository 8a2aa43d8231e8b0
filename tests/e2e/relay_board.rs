//! A relay game entered at the board over HTTP (seed 003): the recorder's page names the four
//! players in the clockwise order with the one due marked and none picked; each move is sent with
//! its point and who placed it, checked against the position by the rules crate and judged for
//! order by the relay rules; an out-of-order move is detected from the moves themselves and
//! offered to the referee as the opponent's claim; a move sent again is recorded once; the undo
//! is its enterer's only; the public board stays the organizer's delay behind while the team's
//! research room follows the game as it is; the record is an SGF the rules crate reads back as
//! the same moves.

use crate::common;
use common::team::*;
use common::*;

/// The relay match of `relay_match`, started ten minutes ago on the server's clock (the board
/// stamps each move with it), and the ids of section 1's players: Black's 1 and 2, White's 1
/// and 2.
struct Game<'a> {
    s: &'a Server,
    tid: i32,
    mid: i32,
    b: [String; 2],
    w: [String; 2],
}

impl Game<'_> {
    fn board(&self, c: &Client) -> Resp {
        let p = c.get(&format!("/t/{}/matches/{}/board", self.tid, self.mid));
        assert_eq!(p.status, 200, "{}", p.body);
        p
    }

    /// Move `number` placed `at` by `player`, as the board's script sends it.
    fn mv(&self, c: &Client, number: u32, player: &str, at: &str) -> Resp {
        let page = self.board(c);
        c.post_form(
            &format!("/t/{}/matches/{}/board/move", self.tid, self.mid),
            &[
                ("csrf", &page.csrf()),
                ("client", &format!("e2e-{number}")),
                ("seq", &number.to_string()),
                ("player", player),
                ("at", at),
            ],
        )
    }

    fn events(&self) -> i64 {
        count_rows(&self.s.db, &format!("SELECT count(*) FROM relay_events WHERE match_id = {}", self.mid))
    }
}

/// The text of the element with `id`, tags removed (empty when there is none).
fn text(r: &Resp, id: &str) -> String {
    text_of(r, id).unwrap_or_default()
}

/// Seed 003 Art. 10.3 (the clockwise order X1, Y1, X2, Y2), Art. 17.7 (a move out of order
/// stands; the opponent claims it before placing a stone; 1 stone; the claimant's side then
/// chooses its next player) and seed 000 Art. 2 (an occupied point), all from moves entered at
/// the board; the same move sent twice is one event; the undo is refused to another arbiter and
/// taken by the enterer; the public board stays 2 moves behind while the team's research room
/// (Art. 10.1) shows every move; the SGF reads back as the moves.
#[test]
fn a_relay_game_at_the_board_detects_an_order_error_from_the_moves() {
    let s = Server::start_env(&[("TENGEN_TZ", "UTC")]);
    let org = s.first_organizer();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    let (tid, mid) = relay_match(&s, &org, now - 600, None);
    let g = Game {
        s: &s,
        tid,
        mid,
        b: [match_member(&s, mid, "black_team_id", 1), match_member(&s, mid, "black_team_id", 2)],
        w: [match_member(&s, mid, "white_team_id", 1), match_member(&s, mid, "white_team_id", 2)],
    };

    // The four players in the clockwise order, the one due marked, none picked.
    let page = g.board(&org);
    let seats: Vec<String> = page
        .body
        .match_indices("data-player=\"")
        .map(|(i, _)| page.body[i + 13..].split('"').next().unwrap().to_string())
        .collect();
    assert_eq!(seats, [g.b[0].clone(), g.w[0].clone(), g.b[1].clone(), g.w[1].clone()]);
    assert_eq!(page.body.matches("class=\"seat b due\"").count(), 1, "{}", page.body);
    assert!(!page.body.contains("aria-pressed=\"true\""), "nothing is preselected");
    let b1_name = query(&s.db, &format!("SELECT name FROM team_members WHERE id = {}", g.b[0]))[0][0].clone();
    assert_eq!(text(&page, "board-next"), format!("Next: {b1_name}"));

    // Moves 1 and 2 in order; the same move sent again is recorded once.
    assert_eq!(g.mv(&org, 1, &g.b[0], "pd").status, 303);
    let events = g.events();
    assert_eq!(g.mv(&org, 1, &g.b[0], "pd").status, 303, "sent again");
    assert_eq!(g.events(), events, "one event for a move sent twice");
    assert_eq!(g.mv(&org, 2, &g.w[0], "dp").status, 303);
    // An occupied point (seed 000 Art. 2) is refused with its reason; nothing is written.
    let r = g.mv(&org, 3, &g.b[1], "pd");
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body.contains("occupied"), "{}", r.body);
    assert_eq!(g.events(), events + 1);
    // Move 3 is Black 2's; Black 1 places it. It stands and is offered to be claimed.
    assert_eq!(g.mv(&org, 3, &g.b[0], "dd").status, 303);
    let page = g.board(&org);
    let offer = text(&page, "order-error-text");
    assert!(offer.contains("Order error at move 3") && offer.contains("White may claim"), "{offer}");
    assert!(page.body.contains("name=\"claimant\" value=\"white\""), "{}", page.body);
    let version = query(&s.db, &format!("SELECT version FROM team_matches WHERE id = {mid}"))[0][0].clone();
    let claim = |c: &Client, version: &str| {
        let page = g.board(c);
        c.post_form(
            &format!("/t/{tid}/matches/{mid}/board/claim"),
            &[("csrf", &page.csrf()), ("version", version), ("claimant", "white")],
        )
    };
    // A stale claim form (another write since) is refused and writes nothing.
    let stale = (version.parse::<i32>().unwrap() - 1).to_string();
    let r = claim(&org, &stale);
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(g.events(), events + 2);
    assert_eq!(claim(&org, &version).status, 303);
    let page = g.board(&org);
    assert!(!page.body.contains("id=\"order-error\""), "the claim was recorded");
    assert!(
        text(&page, "board-penalties").contains("Black 1 (1 order error)"),
        "1st order error: 1 stone (Art. 17.7): {}",
        text(&page, "board-penalties")
    );
    assert!(text(&page, "board-next").contains("White chooses"), "{}", text(&page, "board-next"));
    let m = org.get(&format!("/t/{tid}/matches/{mid}"));
    assert!(m.body.contains("Move 3 by Black"), "the match page's log names the move");

    // White chooses its second player; a different move for an entered number is stale.
    assert_eq!(g.mv(&org, 4, &g.w[1], "pp").status, 303);
    let r = g.mv(&org, 4, &g.w[1], "qq");
    assert_eq!(r.status, 409, "{}", r.body);

    // The undo: another arbiter may not take back the organizer's move; the organizer may.
    let judge = arbiter(&s, &org, tid, "judge");
    let undo = |c: &Client, seq: &str| {
        let page = g.board(c);
        c.post_form(&format!("/t/{tid}/matches/{mid}/board/undo"), &[("csrf", &page.csrf()), ("seq", seq)])
    };
    assert_eq!(undo(&judge, "4").status, 403);
    assert_eq!(undo(&org, "4").status, 303);
    let page = g.board(&org);
    assert_eq!(text(&page, "board-move-no"), "3 moves played", "{}", page.body);
    assert_eq!(g.mv(&judge, 4, &g.w[1], "qq").status, 303);
    assert_eq!(g.mv(&judge, 5, &g.b[0], "qd").status, 303);

    // The public board, without login: 30 moves behind by default, then the 2 the organizer
    // sets on the relay board's delay form.
    let public = s.client();
    let live = || {
        let live = public.get(&format!("/t/{tid}/matches/{mid}/live"));
        assert_eq!(live.status, 200, "{}", live.body);
        assert!(live.body.contains("id=\"live-behind\""));
        text(&live, "board-move-no")
    };
    assert_eq!(live(), "0 moves played", "30 moves behind by default");
    let r = org.submit(
        &format!("/t/{tid}/matches/{mid}/board"),
        &format!("/t/{tid}/live-delay"),
        &[("version", "0"), ("back_match", &mid.to_string()), ("moves", "2")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(r.location(), format!("/t/{tid}/matches/{mid}/board"));
    assert_eq!(live(), "3 moves played", "5 moves, 2 behind");
    // A refused delay is shown on the relay board, the number as typed, nothing written.
    let board_path = format!("/t/{tid}/matches/{mid}/board");
    for (typed, version, status) in [("501", "1", 400), ("五", "1", 400), ("3", "0", 409)] {
        let m = mid.to_string();
        let fields = [("version", version), ("back_match", m.as_str()), ("moves", typed)];
        let r = org.submit(&board_path, &format!("/t/{tid}/live-delay"), &fields);
        assert_eq!(r.status, status, "{typed}: {}", r.body);
        assert!(!text(&r, "err-moves").is_empty(), "{}", r.body);
        assert!(r.body.contains(&format!("value=\"{typed}\"")), "the typed entry kept: {}", r.body);
        assert!(r.body.contains("id=\"board-svg\""), "the relay board itself: {}", r.body);
    }
    assert_eq!(live(), "3 moves played", "still 2 behind");
    // A clock reading after move 5 (Art. 22.4), typed on the match page: the board shows it; the
    // public board, 2 moves behind, not yet.
    let page = org.get(&format!("/t/{tid}/matches/{mid}"));
    let version = query(&s.db, &format!("SELECT version FROM team_matches WHERE id = {mid}"))[0][0].clone();
    let r = org.post_form(
        &format!("/t/{tid}/matches/{mid}/event"),
        &[
            ("csrf", &page.csrf()),
            ("version", &version),
            ("kind", "clock"),
            ("move", "5"),
            ("b_main", "1:50:00"),
            ("w_main", "1:52:30"),
            ("at", ""),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let clock = text(&g.board(&org), "board-clock");
    assert!(clock.contains("after move 5") && clock.contains("1:50:00"), "{clock}");
    let live_page = public.get(&format!("/t/{tid}/matches/{mid}/live"));
    assert_eq!(text(&live_page, "board-clock"), "No clock reading yet.", "not before move 5 is shown");
    // The research room of Black's team (seed 003 Art. 10.1) follows the game with no delay.
    let team: i32 = query(&s.db, &format!("SELECT black_team_id FROM team_matches WHERE id = {mid}"))[0][0]
        .parse()
        .unwrap();
    let room = crate::room::issue(&s, &org, tid, team);
    let r = public.get(&room);
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("data-moves=\"5\""), "the room is not behind: {}", r.body);
    assert_eq!(public.get(&format!("/t/{tid}/matches/{mid}/board.sgf")).status, 404, "not before the end");

    // The record as SGF (staff): the rules crate reads back the five moves.
    let sgf = org.get(&format!("/t/{tid}/matches/{mid}/board.sgf"));
    assert_eq!(sgf.status, 200, "{}", sgf.body);
    let rec = rules::sgf::parse(&sgf.body).expect("an SGF record");
    let moves: Vec<String> = rec
        .moves()
        .map(|(c, m)| match m {
            rules::game::Move::Play(p) => format!("{}{}", c.letter(), p.sgf()),
            rules::game::Move::Pass => format!("{}pass", c.letter()),
        })
        .collect();
    assert_eq!(moves, ["Bpd", "Wdp", "Bdd", "Wqq", "Bqd"]);
    assert_eq!(rec.komi.map(|k| k.quarters), Some(14), "komi 3½ (seed 003 Art. 12)");
}

/// A move recorded on the match page without its point leaves the board without a position: the
/// board says which move, and refuses further moves with the reason; nothing is written.
#[test]
fn a_game_recorded_without_points_cannot_continue_on_the_board() {
    let s = Server::start_env(&[("TENGEN_TZ", "UTC")]);
    let org = s.first_organizer();
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64;
    let (tid, mid) = relay_match(&s, &org, now - 3600, Some(10));
    let g = Game { s: &s, tid, mid, b: [String::new(), String::new()], w: [String::new(), String::new()] };
    let page = g.board(&org);
    assert!(text(&page, "board-problem").contains("Move 1 was recorded on the match page"), "{}", page.body);
    let events = g.events();
    let player = match_member(&s, mid, "white_team_id", 2);
    let r = g.mv(&org, 11, &player, "dd");
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(g.events(), events);
}
