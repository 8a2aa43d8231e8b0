//! Two `tengen serve` processes on one database behave as one office. Here on
//! one SQLite file (two processes on one machine); the same test is the one to run against
//! PostgreSQL when that backend lands.
//!
//! Crossed: a login on server A is a session on server B; a form token from A is accepted by
//! B; failed logins on A count on B (the throttle is in the database); a public page cached on
//! B shows a result saved on A at the next request; two pair requests at the same moment, one
//! per server, store one draw.

use crate::common;
use common::*;

#[test]
fn a_session_and_a_form_token_of_one_server_work_on_the_other() {
    let a = Server::start();
    let mut org = a.first_organizer();
    let tid =
        tournament_with_players(&org, "双服测试赛", "Two Servers Open", &[("colour_method", "lots")], 8);
    let b = a.beside();

    // The page of server A gave the token; server B takes it with A's session cookie.
    let token = org.get(&format!("/t/{tid}/rounds")).csrf();
    org.rebase(&b);
    assert_eq!(org.get(&format!("/t/{tid}/rounds")).status, 200, "logged in on B too");
    let r = org.post_form(&format!("/t/{tid}/rounds/1/pair"), &[("csrf", &token), ("seed", "16")]);
    assert_eq!(r.status, 303, "A's token on B: {}", r.body);
    assert_eq!(
        count_rows(
            &a.db,
            &format!("SELECT count(*) FROM games WHERE tournament_id = {tid} AND round_number = 1")
        ),
        4
    );

    // Logging out on B ends the session on A as well.
    let token = org.get("/").csrf();
    assert_eq!(org.post_form("/logout", &[("csrf", &token)]).status, 303);
    org.rebase(&a);
    let r = org.get(&format!("/t/{tid}/rounds"));
    assert_ne!(r.status, 200, "the session ended everywhere");
}

#[test]
fn failed_logins_on_one_server_count_on_the_other() {
    let a = Server::start();
    a.first_organizer();
    let b = a.beside();
    let (on_a, on_b) = (a.client(), b.client());
    // The burst of one account from one address is 5 (web::throttle::PER_PAIR); spread over both
    // servers.
    for i in 0..5 {
        let c = if i % 2 == 0 { &on_a } else { &on_b };
        assert_eq!(c.login(ORG_USER, "wrong-password").status, 401, "failure {i}");
    }
    for (name, c) in [("A", &on_a), ("B", &on_b)] {
        let r = c.login(ORG_USER, ORG_PASS);
        assert_eq!(r.status, 429, "server {name}: the account is throttled, right password or not");
    }
}

#[test]
fn a_result_saved_on_one_server_shows_at_once_on_the_other() {
    let a = Server::start();
    let org = a.first_organizer();
    let tid =
        tournament_with_players(&org, "双服缓存赛", "Two Servers Cache", &[("colour_method", "lots")], 8);
    pair_round(&org, tid, 1, "16");
    publish_round(&a, &org, tid, 1);
    let b = a.beside();
    let public = b.client();
    let page = format!("/t/{tid}/pairings/1");
    let before = public.get(&page);
    assert_eq!(before.status, 200);
    assert!(!before.body.contains("Black wins"), "{}", before.body);
    let tag = before.header("etag").expect("an ETag").to_string();
    assert_eq!(public.get_with(&page, &[("If-None-Match", &tag)]).status, 304, "cached on B");

    let gid = game_id(&a.db, tid, 1, 1);
    enter(&org, tid, gid, &[("method", "resignation"), ("winner", "black")]);
    // No waiting: the very next request on B is the new state.
    let after = public.get_with(&page, &[("If-None-Match", &tag)]);
    assert_eq!(after.status, 200, "B noticed A's commit");
    assert!(after.body.contains("Black wins"), "{}", after.body);
}

#[test]
fn two_servers_asked_to_pair_the_same_round_at_once_store_one_draw() {
    let a = Server::start();
    let org = a.first_organizer();
    let tid =
        tournament_with_players(&org, "双服编排赛", "Two Servers Pairing", &[("colour_method", "lots")], 8);
    let b = a.beside();
    let path = format!("/t/{tid}/rounds/1/pair");
    let barrier = std::sync::Barrier::new(2);
    // Each server's organizer opens the rounds page, then both send "pair" at the same moment.
    let pair_on = |server: &Server, seed: &str| {
        let c = server.client();
        assert_eq!(c.login(ORG_USER, ORG_PASS).status, 303);
        let token = c.get(&format!("/t/{tid}/rounds")).csrf();
        barrier.wait();
        c.post_form(&path, &[("csrf", &token), ("seed", seed)]).status
    };
    let (ra, rb) = std::thread::scope(|s| {
        let pa = s.spawn(|| pair_on(&a, "101"));
        let pb = s.spawn(|| pair_on(&b, "202"));
        (pa.join().unwrap(), pb.join().unwrap())
    });
    assert!(ra == 303 || rb == 303, "one of them paired: {ra} {rb}");
    assert!(
        [ra, rb].iter().all(|s| *s == 303 || (400..500).contains(s)),
        "the other refused with a 4xx: {ra} {rb}"
    );
    let rounds =
        query(&a.db, &format!("SELECT seed, draws FROM rounds WHERE tournament_id = {tid} AND number = 1"));
    assert_eq!(rounds.len(), 1, "one round 1");
    assert_eq!(count_rows(&a.db, &format!("SELECT count(*) FROM games WHERE tournament_id = {tid}")), 4);
    // The stored draw is whole and is the one its seed gives: replaying it on either server's
    // round page shows the same lots.
    let (ca, mut cb) = (a.client(), b.client());
    assert_eq!(ca.login(ORG_USER, ORG_PASS).status, 303);
    assert_eq!(cb.login(ORG_USER, ORG_PASS).status, 303);
    cb.rebase(&a);
    let seed = &rounds[0][0];
    assert!(seed == "101" || seed == "202", "{seed}");
    let shown = |c: &Client| format!("{:?}", lots(&c.get(&format!("/t/{tid}/rounds/1"))));
    assert_eq!(shown(&ca), shown(&cb));
    assert!(shown(&ca).len() > 10, "the lots are listed");
}
