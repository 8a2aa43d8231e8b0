//! The board pages in real headless Chromium: the recorder enters the counted and the resigned
//! fixtures of `rules/tests/data` by tapping the board's points (and "pass"), and after every
//! move the page's position is the rules crate's replay of the record; the network lost in the
//! page (its `fetch` made to fail, once before the request and once after the server wrote it,
//! as a phone losing its answer) queues the entries, drawn pale, and they are sent when it
//! returns, each written once; with "press the clock after each move" ticked, the referee's
//! clock open in another window is pressed for the side that moved; the public board follows
//! the game by server push without a reload.
//!
//! Runs with `TENGEN_TEST_BROWSER=1` only (ignored with its reason otherwise, see `build.rs`);
//! screenshots in `target/browser-artifacts/board/`.

use crate::board::position_text;
use crate::common;
use crate::common::webdriver;
use common::*;
use rules::board::{Color, Point};
use rules::game::{Game, KoRule, Move, SuicideRule};
use serde_json::Value;
use std::time::{Duration, Instant};
use webdriver::*;

fn fixture(name: &str) -> Vec<(Color, Move)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/tests/data").join(name);
    rules::sgf::parse(&std::fs::read_to_string(path).unwrap()).unwrap().moves().collect()
}

/// Tap move `mv` on the page.
fn tap(p: &mut Page, mv: Move) {
    match mv {
        Move::Play(pt) => p.click(&format!("#pt-{}", pt.sgf())),
        Move::Pass => p.click("#btn-pass"),
    }
}

/// Tap for move `n` until the page took it: the board shows it, or it waits in the queue. A tap
/// that lands while the live stream replaces the board is lost, as a recorder's finger would
/// be; the recorder taps again (nothing was queued, so nothing is entered twice).
fn tap_until_taken(p: &mut Page, mv: Move, n: usize) {
    for _ in 0..3 {
        tap(p, mv);
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if p.attr("board-move-no", "data-moves") == n.to_string() || p.attr("board", "data-queued") != "0"
            {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    panic!("move {n}: three taps, none taken");
}

#[test]
#[cfg_attr(
    not(tengen_browser),
    ignore = "needs chromium and chromium-driver (.ci/run installs them); TENGEN_TEST_BROWSER=1 runs it"
)]
fn fixtures_entered_by_taps_agree_with_the_rules_crate_and_survive_the_network() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = tournament_with_players(&org, "记谱板测试赛", "Board Open", &[], 6);
    pair_round(&org, tid, 1, "7");
    publish_round(&s, &org, tid, 1);
    nigiri_all(&org, &s.db, tid, 1);

    let (_driver, _profile, mut p) = webdriver::open("board", &s.base, "zh-CN");
    p.log_in(ORG_USER, ORG_PASS);

    for (board, name) in [(1, "full_game_counted.sgf"), (2, "full_game_resigned.sgf")] {
        let gid = game_id(&s.db, tid, 1, board);
        p.goto(&format!("/t/{tid}/games/{gid}/board"));
        p.wait_for("#board-svg");
        let moves = fixture(name);
        let mut game = Game::new(19, KoRule::Situational, SuicideRule::Forbidden).unwrap();
        for (k, &(colour, mv)) in moves.iter().enumerate() {
            let n = k + 1;
            // The network lost in the page at move 20 (before the request) and at move 21 (after
            // the server wrote it): both queued, drawn pale, then sent when it returns.
            if board == 2 && n == 20 {
                p.js("window.__realFetch = window.fetch; window.fetch = function () { return Promise.reject(new TypeError('offline')); }; return true;");
                tap(&mut p, mv);
                p.wait_attr("board", "data-queued", "1");
                assert_eq!(
                    p.js("return document.querySelectorAll('#pending circle.pending').length;"),
                    Value::from(u64::from(matches!(mv, Move::Play(_))))
                );
                p.shot("offline-queued");
                // Move 21: the request reaches the server, the answer is lost.
                p.js("window.fetch = function (u, o) { return window.__realFetch(u, o).then(function () { throw new TypeError('answer lost'); }); }; return true;");
                game.play_as(colour, mv).unwrap();
                continue;
            }
            if board == 2 && n == 21 {
                // The queue's first entry (move 20) goes now and is written, its answer lost.
                tap(&mut p, mv);
                p.wait_attr("board", "data-queued", "2");
                let deadline = Instant::now() + Duration::from_secs(20);
                while count_rows(&s.db, &format!("SELECT count(*) FROM game_moves WHERE game_id = {gid}"))
                    < 20
                {
                    assert!(Instant::now() < deadline, "move 20 reached the server");
                    std::thread::sleep(Duration::from_millis(50));
                }
                // The network returns: the queue is sent again; move 20 is found by its id.
                p.js("window.fetch = window.__realFetch; window.dispatchEvent(new Event('online')); return true;");
                game.play_as(colour, mv).unwrap();
                p.wait_attr("board-move-no", "data-moves", "21");
                p.wait_attr("board", "data-queued", "0");
                assert_eq!(p.attr("board-svg", "data-position"), position_text(game.board()));
                assert_eq!(
                    count_rows(&s.db, &format!("SELECT count(*) FROM game_moves WHERE game_id = {gid}")),
                    21,
                    "each entry written once"
                );
                continue;
            }
            tap_until_taken(&mut p, mv, n);
            game.play_as(colour, mv).unwrap();
            p.wait_attr("board-move-no", "data-moves", &n.to_string());
            p.wait_attr("board", "data-queued", "0");
            assert_eq!(p.attr("board-svg", "data-position"), position_text(game.board()), "{name}: move {n}");
        }
        p.shot(&format!("entered-{board}"));
        let stored = query(
            &s.db,
            &format!("SELECT color, coalesce(point, '') FROM game_moves WHERE game_id = {gid} ORDER BY seq"),
        );
        let want: Vec<Vec<String>> = moves
            .iter()
            .map(|(c, m)| {
                vec![
                    c.letter().to_string(),
                    match m {
                        Move::Play(pt) => pt.sgf(),
                        Move::Pass => String::new(),
                    },
                ]
            })
            .collect();
        assert_eq!(stored, want, "{name}: the stored record is the fixture's");
    }

    // "Press the clock after each move": the referee's clock open in another window of the
    // same browser is pressed for the side that has just moved.
    let g3 = game_id(&s.db, tid, 1, 3);
    p.goto(&format!("/t/{tid}/games/{g3}/board"));
    p.wait_for("#board-svg");
    let board_window = p.rt.block_on(p.wd.window()).unwrap();
    let clock_window = p.rt.block_on(p.wd.new_window(false)).unwrap().handle;
    p.rt.block_on(p.wd.switch_to_window(clock_window.clone())).unwrap();
    p.goto(&format!("/t/{tid}/games/{g3}/clock"));
    p.wait_for("#clock");
    let clock_state = format!(
        "var s = JSON.parse(localStorage.getItem('tengen.clock.t{tid}.g{g3}') || 'null'); \
         return s ? [s.running, s.moves] : null;"
    );
    p.rt.block_on(p.wd.switch_to_window(board_window)).unwrap();
    p.click("#board-press");
    let wait_clock = |p: &mut Page, want: Value| {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let v = p.js(&clock_state);
            if v == want {
                return;
            }
            assert!(Instant::now() < deadline, "the clock's state {v}, not {want}");
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    // Black's first move hands the move to White: White's clock runs.
    tap(&mut p, Move::Play(Point::from_sgf("pd").unwrap()));
    p.wait_attr("board-move-no", "data-moves", "1");
    wait_clock(&mut p, serde_json::json!([1, 0]));
    // White's move presses White's clock: Black's runs, one move counted.
    tap(&mut p, Move::Play(Point::from_sgf("dp").unwrap()));
    p.wait_attr("board-move-no", "data-moves", "2");
    wait_clock(&mut p, serde_json::json!([0, 1]));
    p.rt.block_on(p.wd.switch_to_window(clock_window)).unwrap();
    p.shot("clock-pressed");

    // The public board follows a game by push: with delay 0, the last move undone from another
    // client disappears from the open page without a reload (the page's marker stays).
    let gid = game_id(&s.db, tid, 1, 1);
    let page = org.get(&format!("/t/{tid}/games/{gid}/board"));
    let r = org.post_form(
        &format!("/t/{tid}/live-delay"),
        &[
            ("csrf", &page.csrf()),
            ("version", &page.input("version").unwrap()),
            ("moves", "0"),
            ("back", &gid.to_string()),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    // The counted game's last move undone by the same account from another client.
    p.goto(&format!("/t/{tid}/games/{gid}/live"));
    p.wait_for("#board-svg");
    let before = p.attr("board-move-no", "data-moves");
    p.js("window.__mark = 'kept'; return true;");
    let csrf = page.csrf();
    let last = before.parse::<u32>().unwrap();
    let r = org.post_form(
        &format!("/t/{tid}/games/{gid}/board/undo"),
        &[("csrf", &csrf), ("seq", &last.to_string())],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    p.wait_attr("board-move-no", "data-moves", &(last - 1).to_string());
    assert_eq!(p.js("return window.__mark || null;"), Value::from("kept"), "updated without a reload");
    p.shot("live-after-undo");
}
