//! Moves entered at the board (web::board) over HTTP: a real game record entered move by move
//! through the board's move route, the page's position checked after every move against the
//! rules crate's replay of the record; refusals worded (an occupied point, a ko, the wrong
//! colour, a stale move number, someone else's undo) with nothing written; an entry sent again
//! after the network returned written once; the record downloaded as SGF and read by the
//! existing SGF check as the same game; the public board behind by the organizer's delay and
//! whole once the game has a result.

use crate::common;
use common::*;
use rules::board::{Board, Color, Point};
use rules::game::{Game, KoRule, Move, SuicideRule};

/// The position as the board pages write it (`data-position`): rows from the top, `.` `X` `O`.
pub(crate) fn position_text(b: &Board) -> String {
    let n = b.size();
    (0..n)
        .map(|y| {
            (0..n)
                .map(|x| match b.get(Point { x, y }) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

fn shown_position(r: &Resp) -> String {
    attr_after(&r.body, "data-position=\"").unwrap_or_default()
}

fn fixture(name: &str) -> Vec<(Color, Move)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/tests/data").join(name);
    let text = std::fs::read_to_string(path).unwrap();
    rules::sgf::parse(&text).unwrap().moves().collect()
}

/// One entry as the board page's script sends it.
fn post_move(
    c: &Client,
    csrf: &str,
    [tid, gid]: [i32; 2],
    seq: usize,
    colour: Color,
    mv: Move,
    client: &str,
) -> Resp {
    let at = match mv {
        Move::Play(p) => p.sgf(),
        Move::Pass => "pass".into(),
    };
    let colour = colour.letter().to_string();
    c.post_form(
        &format!("/t/{tid}/games/{gid}/board/move"),
        &[("csrf", csrf), ("client", client), ("seq", &seq.to_string()), ("colour", &colour), ("at", &at)],
    )
}

fn message(r: &Resp) -> String {
    let i = r.body.find("class=\"message\"").unwrap_or(0);
    plain_text(
        r.body[i..].split_once('>').map(|(_, rest)| rest.split("</p>").next().unwrap_or("")).unwrap_or(""),
    )
}

/// A published round 1 of eight players: (server, organizer, tournament).
fn event() -> (Server, Client, i32) {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = tournament_with_players(&org, "记谱测试赛", "Board Test", &[], 8);
    pair_round(&org, tid, 1, "7");
    publish_round(&s, &org, tid, 1);
    nigiri_all(&org, &s.db, tid, 1);
    (s, org, tid)
}

/// Seed 000 Art. 4 (captures) and Art. 9 (the count) at the board: the counted
/// fixture entered move by move through the move route; after each, the board page shows the
/// position the rules crate's own replay of the record has. The record downloaded as SGF has
/// the same moves, and the game page's SGF check reads it without an illegal move.
#[test]
fn a_real_record_entered_at_the_board_is_the_rules_crates_game() {
    let (s, org, tid) = event();
    let gid = game_id(&s.db, tid, 1, 1);
    let page = org.get(&format!("/t/{tid}/games/{gid}/board"));
    assert_eq!(page.status, 200, "{}", page.body);
    let csrf = page.csrf();
    let moves = fixture("full_game_counted.sgf");
    assert!(moves.len() > 100);
    let mut game = Game::new(19, KoRule::Situational, SuicideRule::Forbidden).unwrap();
    for (k, &(colour, mv)) in moves.iter().enumerate() {
        let r = post_move(&org, &csrf, [tid, gid], k + 1, colour, mv, &format!("e{k}"));
        assert_eq!(r.status, 303, "move {}: {}", k + 1, r.body);
        assert_eq!(r.location(), format!("/t/{tid}/games/{gid}/board"));
        game.play_as(colour, mv).unwrap();
        // Every tenth move and the last: the page as the recorder sees it.
        if k % 10 == 9 || k + 1 == moves.len() {
            let p = org.get(&format!("/t/{tid}/games/{gid}/board"));
            assert_eq!(shown_position(&p), position_text(game.board()), "after move {}", k + 1);
            assert_eq!(attr_after(&p.body, "data-moves=\"").as_deref(), Some((k + 1).to_string().as_str()));
        }
    }
    let n = moves.len();
    assert_eq!(
        count_rows(&s.db, &format!("SELECT count(*) FROM game_moves WHERE game_id = {gid}")),
        n as i64
    );
    assert_eq!(
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM audit WHERE entity = 'game_move' AND entity_id = {gid}")
        ),
        n as i64
    );
    // The count from the position (seed 000 Art. 9) takes these moves' final position: the
    // count page names the board as its source and counts the rules crate's proposal on the
    // position replayed here, Black's count as an independent area count of it gives.
    let count_page = org.get(&format!("/t/{tid}/games/{gid}/count"));
    assert_eq!(count_page.status, 200, "{}", count_page.body);
    let source = text_of(&count_page, "source").unwrap_or_default();
    assert!(source.contains("记谱板") || source.contains("entered at the board"), "{source}");
    let dead = rules::dead::propose_dead(game.board());
    let halves = rules::count::area_dead(game.board(), &dead).black_halves;
    let black = format!("{}{}", halves / 2, if halves % 2 == 1 { ".5" } else { "" });
    let line = text_of(&count_page, "count-line").unwrap_or_default();
    assert!(line.contains(&black), "Black {black} in {line}");
    // The record as SGF: the same moves, and the existing check reads it as a legal game.
    let sgf = org.get(&format!("/t/{tid}/games/{gid}/board.sgf"));
    assert_eq!(sgf.status, 200);
    let back = rules::sgf::parse(&sgf.body).unwrap();
    assert_eq!(back.moves().collect::<Vec<_>>(), moves);
    let p = org.get(&format!("/t/{tid}/games/{gid}"));
    let v = p.input("version").unwrap();
    let up = org.post_file(
        &format!("/t/{tid}/games/{gid}/sgf"),
        &[("csrf", &p.csrf()), ("version", &v)],
        "file",
        "board.sgf",
        &sgf.bytes,
    );
    assert_eq!(up.status, 303, "{}", up.body);
    let p = org.get(&format!("/t/{tid}/games/{gid}"));
    assert!(p.body.contains("id=\"sgf-report\""), "{}", p.body);
    assert!(text_of(&p, "sgf-illegal").is_none(), "{}", p.body);
    // With a record attached as well, the moves entered at the board stay the count's source.
    let again = org.get(&format!("/t/{tid}/games/{gid}/count"));
    assert_eq!(text_of(&again, "source").unwrap_or_default(), source);
}

/// Seed 000 Art. 2 and Art. 6 at the board: an occupied point, the immediate retake of a ko,
/// the wrong colour and a stale move number are refused with their words and write nothing;
/// the same entry sent again (its answer lost offline) is written once; only the one who
/// entered the last move may undo it, and the undo is audited.
#[test]
fn refusals_catch_up_and_undo() {
    let (s, org, tid) = event();
    let (arb, arb_id) = add_user(&s, &org, "recorder2", "arbiter");
    add_staff(&org, tid, arb_id, "arbiter");
    let gid = game_id(&s.db, tid, 1, 2);
    let csrf = org.get(&format!("/t/{tid}/games/{gid}/board")).csrf();
    let p = |t: &str| Move::Play(Point::from_sgf(t).unwrap());
    let ko = ["cd", "fd", "dc", "ec", "de", "ee", "aa", "dd", "ed"];
    for (k, t) in ko.iter().enumerate() {
        let colour = if k % 2 == 0 { Color::Black } else { Color::White };
        let r = post_move(&org, &csrf, [tid, gid], k + 1, colour, p(t), &format!("k{k}"));
        assert_eq!(r.status, 303, "{}", r.body);
    }
    let count = || count_rows(&s.db, &format!("SELECT count(*) FROM game_moves WHERE game_id = {gid}"));
    assert_eq!(count(), 9);
    let audit = || {
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM audit WHERE entity = 'game_move' AND entity_id = {gid}"),
        )
    };
    // Sent again after the network returned: answered as written, not written twice.
    let again = post_move(&org, &csrf, [tid, gid], 9, Color::Black, p("ed"), "k8");
    assert_eq!(again.status, 303);
    assert_eq!((count(), audit()), (9, 9));
    let refused = [
        (
            post_move(&org, &csrf, [tid, gid], 10, Color::White, p("dd"), "x1"),
            422,
            "Move 10 cannot be played there:",
        ),
        (post_move(&org, &csrf, [tid, gid], 10, Color::White, p("cd"), "x2"), 422, "the point is occupied"),
        (post_move(&org, &csrf, [tid, gid], 10, Color::Black, p("jj"), "x3"), 422, "Move 10 is White's"),
        (
            post_move(&org, &csrf, [tid, gid], 4, Color::White, p("jj"), "x4"),
            409,
            "the record has 9 moves now",
        ),
    ];
    for (r, status, words) in &refused {
        assert_eq!(r.status, *status, "{}", r.body);
        assert!(message(r).contains(words), "{words:?} in {:?}", message(r));
    }
    let ko_words = message(&refused[0].0);
    assert!(ko_words.contains("ko") || ko_words.contains("Art. 6"), "{ko_words}");
    assert_eq!((count(), audit()), (9, 9), "a refusal writes nothing");
    // In Chinese, with full-width punctuation.
    let zh = org.in_chinese().post_form(
        &format!("/t/{tid}/games/{gid}/board/move"),
        &[("csrf", &csrf), ("client", "x5"), ("seq", "10"), ("colour", "W"), ("at", "cd")],
    );
    assert_eq!(zh.status, 422);
    assert!(message(&zh).contains("第10手不能下在这里：该点已有棋子"), "{}", message(&zh));
    // Someone else's undo is refused; the enterer's is done and audited.
    let arb_csrf = arb.get(&format!("/t/{tid}/games/{gid}/board")).csrf();
    let theirs =
        arb.post_form(&format!("/t/{tid}/games/{gid}/board/undo"), &[("csrf", &arb_csrf), ("seq", "9")]);
    assert_eq!(theirs.status, 403, "{}", theirs.body);
    assert!(message(&theirs).contains("only they can undo"), "{}", message(&theirs));
    assert_eq!(count(), 9);
    let mine = org.post_form(&format!("/t/{tid}/games/{gid}/board/undo"), &[("csrf", &csrf), ("seq", "9")]);
    assert_eq!(mine.status, 303, "{}", mine.body);
    assert_eq!(count(), 8);
    assert_eq!(
        count_rows(&s.db, &format!("SELECT count(*) FROM audit WHERE action = 'undo' AND entity = 'game_move' AND entity_id = {gid}")),
        1
    );
    // The arbiter enters the next move; the organizer cannot undo it.
    let r = post_move(&arb, &arb_csrf, [tid, gid], 9, Color::Black, p("jj"), "a1");
    assert_eq!(r.status, 303, "{}", r.body);
    let r = org.post_form(&format!("/t/{tid}/games/{gid}/board/undo"), &[("csrf", &csrf), ("seq", "9")]);
    assert_eq!(r.status, 403);
    // A stranger cannot enter a move at all.
    let anon = s.client();
    let r = anon.post_form(
        &format!("/t/{tid}/games/{gid}/board/move"),
        &[("csrf", &csrf), ("client", "z"), ("seq", "10"), ("colour", "W"), ("at", "kk")],
    );
    assert!(r.status == 401 || r.status == 403 || r.status == 303, "{}", r.status);
    assert_eq!(count(), 9);
}

/// The public board: behind the game by the organizer's delay (default 30 moves), updated when
/// the organizer changes it; the whole game and its SGF once the game has a result.
#[test]
fn the_public_board_is_behind_by_the_delay_until_the_result() {
    let (s, org, tid) = event();
    let gid = game_id(&s.db, tid, 1, 3);
    let page = org.get(&format!("/t/{tid}/games/{gid}/board"));
    let csrf = page.csrf();
    let moves = fixture("full_game_resigned.sgf");
    let mut positions = vec![position_text(&Board::new(19).unwrap())];
    let mut game = Game::new(19, KoRule::Situational, SuicideRule::Forbidden).unwrap();
    for (k, &(colour, mv)) in moves.iter().enumerate() {
        assert_eq!(post_move(&org, &csrf, [tid, gid], k + 1, colour, mv, &format!("r{k}")).status, 303);
        game.play_as(colour, mv).unwrap();
        positions.push(position_text(game.board()));
    }
    let n = moves.len();
    let anon = s.client();
    let live = anon.get(&format!("/t/{tid}/games/{gid}/live"));
    assert_eq!(live.status, 200, "{}", live.body);
    assert_eq!(shown_position(&live), positions[n - 30]);
    assert!(live.body.contains("data-live=\""), "the page follows the game");
    assert!(text_of(&live, "live-behind").unwrap().contains("30 moves behind"));
    assert_eq!(
        anon.get(&format!("/t/{tid}/games/{gid}/board.sgf")).status,
        404,
        "no record before the result"
    );
    assert!(anon.get(&format!("/t/{tid}/games/{gid}/board")).status != 200);
    // The organizer sets 5 moves.
    let v = page.input("version").unwrap();
    let r = org.post_form(
        &format!("/t/{tid}/live-delay"),
        &[("csrf", &csrf), ("version", &v), ("moves", "5"), ("back", &gid.to_string())],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(r.location(), format!("/t/{tid}/games/{gid}/board"));
    assert_eq!(shown_position(&anon.get(&format!("/t/{tid}/games/{gid}/live"))), positions[n - 5]);
    let g = gid.to_string();
    for (typed, version, status) in [("501", "1", 400), ("五", "1", 400), ("3", "0", 409)] {
        let r = org.post_form(
            &format!("/t/{tid}/live-delay"),
            &[("csrf", &csrf), ("version", version), ("moves", typed), ("back", &g)],
        );
        assert_eq!(r.status, status, "{typed}: {}", r.body);
        assert!(text_of(&r, "err-moves").is_some(), "{}", r.body);
        assert!(r.body.contains(&format!("value=\"{typed}\"")), "the typed entry kept");
    }
    assert_eq!(count_rows(&s.db, &format!("SELECT moves FROM live_delays WHERE tournament_id = {tid}")), 5);
    // The result: Black wins by resignation; the public sees the whole game and the record.
    enter(&org, tid, gid, &[("method", "resignation"), ("winner", "black")]);
    let live = anon.get(&format!("/t/{tid}/games/{gid}/live"));
    assert_eq!(shown_position(&live), positions[n]);
    assert!(text_of(&live, "live-behind").is_none());
    assert!(live.body.contains("id=\"live-sgf\""));
    let sgf = anon.get(&format!("/t/{tid}/games/{gid}/board.sgf"));
    assert_eq!(sgf.status, 200);
    assert_eq!(rules::sgf::parse(&sgf.body).unwrap().moves().collect::<Vec<_>>(), moves);
}
