//! Pairing a big round never holds the database's write lock while the
//! engine runs. An arbiter of another tournament saves results, one after the other, while
//! the "pair round" request of a big event is in flight: every save is acknowledged, and
//! many of them are acknowledged before the pairing answers (before the fix, the first save
//! waited for the whole pairing and failed with "database is locked" past 5 s).
//!
//! The engine pairs 1,024 players in well under a second now, faster than a few saves, so the
//! server holds each pairing 2 s after the engine's run (`TENGEN_PAIR_HOLD_MS`, no transaction
//! open): the overlap no longer depends on the machine's speed.

use crate::common;
use common::*;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// An OpenGotha file of `n` players (ranks spread 20k–7d) and `rounds` rounds played with
/// known results: round r pairs player i with player i + n/2^r-ish neighbours in a fixed
/// scheme without rematches (i with i ^ (1 << r)), Black the lower index, the stronger
/// (lower index) player winning except on every fifth table.
fn played_event(n: usize, rounds: u32) -> String {
    let key = |i: usize| format!("XUAN{i}SHOU");
    let mut x = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<Tournament dataVersion=\"201\" fullVersionNumber=\"3.51\">\n<Players>\n",
    );
    for i in 0..n {
        let rank = match i % 27 {
            r if r < 7 => format!("{}D", 7 - r),
            r => format!("{}K", r - 6),
        };
        x.push_str(&format!(
            "<Player club=\"棋院{}\" country=\"CN\" firstName=\"{i}SHOU\" name=\"XUAN\" participating=\"{}\" rank=\"{rank}\" registeringStatus=\"FIN\"/>\n",
            i % 40,
            "1".repeat(rounds as usize + 1)
        ));
    }
    x.push_str("</Players>\n<Games>\n");
    for r in 1..=rounds {
        let mut table = 0u32;
        for i in 0..n {
            let j = i ^ (1 << (r - 1));
            if j <= i || j >= n {
                continue;
            }
            table += 1;
            let result = if table.is_multiple_of(5) { "RESULT_WHITEWINS" } else { "RESULT_BLACKWINS" };
            x.push_str(&format!(
                "<Game blackPlayer=\"{}\" handicap=\"0\" knownColor=\"true\" result=\"{result}\" roundNumber=\"{r}\" tableNumber=\"{table}\" whitePlayer=\"{}\"/>\n",
                key(i),
                key(j)
            ));
        }
    }
    x.push_str(&format!(
        "</Games>\n<ByePlayers>\n</ByePlayers>\n<TournamentParameterSet>\n<GeneralParameterSet numberOfRounds=\"{}\"/>\n</TournamentParameterSet>\n</Tournament>\n",
        rounds + 2
    ));
    x
}

#[test]
fn results_of_another_tournament_are_saved_while_a_big_round_is_paired() {
    let s = Server::start_env(&[("TENGEN_PAIR_HOLD_MS", "2000")]);
    let c = s.first_organizer();
    // The big event: 1,024 players, two rounds played, colours balanced by the pairing (the
    // slowest colour method).
    let big = tournament_with_players(&c, "大型编排赛", "Big Open", &[("colour_method", "balanced")], 0);
    import_og(&c, big, &played_event(1024, 2));
    assert_eq!(count_rows(&s.db, &format!("SELECT COUNT(*) FROM games WHERE tournament_id = {big}")), 1024);
    // The other event: eight players, round 1 paired and published, its games open.
    let other = tournament_with_players(&c, "同场小赛", "Small Open", &[("colour_method", "balanced")], 8);
    pair_round(&c, other, 1, "7");
    publish_round(&s, &c, other, 1);
    let games: Vec<i32> = (1..=4).map(|b| game_id(&s.db, other, 1, b)).collect();

    let pairer = s.client();
    assert_eq!(pairer.login(ORG_USER, ORG_PASS).status, 303);
    let token = pairer.get(&format!("/t/{big}/rounds")).csrf();
    let done = Arc::new(AtomicBool::new(false));
    let flag = done.clone();
    let path = format!("/t/{big}/rounds/3/pair");
    let request = std::thread::spawn(move || {
        let r = pairer.post_form(&path, &[("csrf", &token), ("seed", "16")]);
        flag.store(true, Ordering::Release);
        r
    });

    // The arbiter saves results one after the other until the pairing has answered.
    let (mut during, mut saved) = (0, 0);
    while !done.load(Ordering::Acquire) {
        let gid = games[saved % games.len()];
        let winner = if (saved / games.len()).is_multiple_of(2) { "black" } else { "white" };
        let page = game_post(
            &c,
            other,
            gid,
            "result",
            &[("do", "save"), ("method", "resignation"), ("winner", winner)],
        );
        assert_eq!(page.status, 303, "a save of the other tournament during the pairing: {}", page.body);
        saved += 1;
        if !done.load(Ordering::Acquire) {
            during += 1;
        }
    }
    let r = request.join().unwrap();
    assert_eq!(r.status, 303, "{}", r.body);
    assert!(during >= 3, "{during} saves acknowledged while the round was being paired");
    let paired = count_rows(
        &s.db,
        &format!("SELECT COUNT(*) FROM games WHERE tournament_id = {big} AND round_number = 3"),
    );
    assert_eq!(paired, 512, "round 3 drafted with every player");
}
