//! The live pages: `GET /live?t=…` is an event stream that says `changed` for a tournament
//! whenever one of its audited writes commits, on this server or another on the same database
//! (SQLite's `data_version`; PostgreSQL's `NOTIFY`), within a second; a malformed list is a
//! 400 in the reader's language, an unknown tournament a 404. The browser side (`assets/live.js`
//! swapping a page's `<main>`, and its polling) is in `browser.rs`.

use crate::common;
use common::*;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// An open event stream, read as it arrives.
pub struct Stream {
    reader: BufReader<TcpStream>,
    /// Everything read so far after the head (chunk sizes and all).
    pub seen: String,
}

impl Stream {
    /// `GET /live?{query}` on the server at `base` (`http://127.0.0.1:PORT`): the stream once
    /// its head and first chunk (the `retry:` line) have arrived.
    pub fn open(base: &str, query: &str) -> Stream {
        let addr = base.trim_start_matches("http://");
        let mut tcp = TcpStream::connect(addr).expect("connect");
        write!(tcp, "GET /live?{query} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n")
            .unwrap();
        tcp.set_read_timeout(Some(Duration::from_millis(100))).unwrap();
        let mut reader = BufReader::new(tcp);
        let mut head = String::new();
        let deadline = Instant::now() + Duration::from_secs(10);
        while !head.ends_with("\r\n\r\n") {
            assert!(Instant::now() < deadline, "no head: {head}");
            let mut line = String::new();
            match reader.read_line(&mut line) {
                Ok(0) => panic!("closed: {head}"),
                Ok(_) => head.push_str(&line),
                Err(_) => continue,
            }
        }
        let low = head.to_ascii_lowercase();
        assert!(low.starts_with("http/1.1 200"), "{head}");
        assert!(low.contains("content-type: text/event-stream"), "{head}");
        assert!(low.contains("x-accel-buffering: no"), "{head}");
        assert!(!low.contains("content-encoding: gzip"), "{head}");
        let mut s = Stream { reader, seen: String::new() };
        assert!(s.wait_for("retry: ", Duration::from_secs(5)).is_some(), "no retry field: {}", s.seen);
        s
    }

    /// How long until `needle` has been read (counting from the call), or None after `limit`.
    pub fn wait_for(&mut self, needle: &str, limit: Duration) -> Option<Duration> {
        let start = Instant::now();
        loop {
            if self.seen.contains(needle) {
                return Some(start.elapsed());
            }
            if start.elapsed() > limit {
                return None;
            }
            let mut buf = [0u8; 4096];
            match self.reader.read(&mut buf) {
                Ok(0) => return None,
                Ok(n) => self.seen.push_str(&String::from_utf8_lossy(&buf[..n])),
                Err(_) => {}
            }
        }
    }
}

/// What a stream says when tournament `tid` changed.
pub fn changed(tid: i32) -> String {
    format!("event: changed\ndata: {{\"t\":{tid}}}\n\n")
}

/// A tournament of 8 with round 1 paired and published, and the id of its first game.
fn round_under_way(s: &Server, org: &Client, name: &str, latin: &str) -> (i32, i32) {
    let tid = tournament_with_players(org, name, latin, &[("colour_method", "lots")], 8);
    pair_round(org, tid, 1, "16");
    publish_round(s, org, tid, 1);
    (tid, game_id(&s.db, tid, 1, 1))
}

/// The live contract: a result saved through the game page's form reaches a stream open on
/// its tournament within a second, and a stream of another tournament hears nothing of it.
#[test]
fn a_result_saved_through_the_game_page_reaches_the_stream_within_a_second() {
    let s = Server::start();
    let org = s.first_organizer();
    let (tid, gid) = round_under_way(&s, &org, "直播赛", "Live Open");
    let other = tournament_with_players(&org, "另一赛", "Other Open", &[], 2);
    let mut both = Stream::open(&s.base, &format!("t={tid},{other}"));
    let mut quiet = Stream::open(&s.base, &format!("t={other}"));

    let saved = Instant::now();
    enter(&org, tid, gid, &[("method", "resignation"), ("winner", "black")]);
    let waited = both.wait_for(&changed(tid), Duration::from_secs(1));
    assert!(waited.is_some(), "no change within 1 s of the save ({:?}): {}", saved.elapsed(), both.seen);
    assert!(!both.seen.contains(&changed(other)), "{}", both.seen);
    assert!(quiet.wait_for("changed", Duration::from_millis(300)).is_none(), "{}", quiet.seen);

    // The page the stream sends the browser back to shows the result.
    let page = s.client().get(&format!("/t/{tid}/pairings"));
    assert!(page.body.contains("B+R") || page.body.contains("Black wins"), "{}", page.body);
    assert!(page.body.contains(&format!("data-live=\"{tid}\"")), "{}", page.body);
    assert!(page.body.contains("<script src=\"/assets/live.js\" defer></script>"), "{}", page.body);
    // Without script, the page still refreshes itself while the round runs.
    assert!(page.body.contains("<noscript><meta http-equiv=\"refresh\""), "{}", page.body);
}

/// The live contract across servers: a result saved on server A reaches a stream open on
/// server B of the same SQLite file within a second.
#[test]
fn a_write_on_one_server_reaches_a_stream_on_the_other() {
    let a = Server::start();
    let org = a.first_organizer();
    let (tid, gid) = round_under_way(&a, &org, "双服直播赛", "Two Servers Live");
    let b = a.beside();
    let mut on_b = Stream::open(&b.base, &format!("t={tid}"));
    enter(&org, tid, gid, &[("method", "resignation"), ("winner", "white")]);
    assert!(on_b.wait_for(&changed(tid), Duration::from_secs(1)).is_some(), "{}", on_b.seen);
}

/// The live contract: a malformed list of tournaments is a 400 worded in the reader's
/// language, a tournament that does not exist a 404; nothing is streamed.
#[test]
fn a_bad_live_query_is_a_400_and_an_unknown_tournament_a_404() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = tournament_with_players(&org, "查询赛", "Query Open", &[], 2);
    let zh = s.client().in_chinese();
    let en = s.client();
    let many = (1..=17).map(|n| n.to_string()).collect::<Vec<_>>().join(",");
    for q in ["/live", "/live?t=", "/live?t=abc", "/live?t=0", "/live?t=3,,4", &format!("/live?t={many}")] {
        let r = zh.get(q);
        assert_eq!(r.status, 400, "{q}: {}", r.body);
        assert!(r.body.contains("赛事编号"), "{q}: {}", r.body);
        let r = en.get(q);
        assert_eq!(r.status, 400, "{q}: {}", r.body);
        assert!(r.body.contains("tournament numbers"), "{q}: {}", r.body);
    }
    let r = en.get(&format!("/live?t={tid},999999"));
    assert_eq!(r.status, 404, "{}", r.body);
}

/// The live contract on PostgreSQL: two servers on one database; a result saved on A reaches
/// a stream on B within a second (the write's `NOTIFY`, heard by B's listening connection),
/// and still does after the listening connections were cut.
#[test]
#[cfg_attr(
    not(all(tengen_pg, feature = "postgres")),
    ignore = "needs PostgreSQL and --features postgres (.ci/postgres-e2e has both); TENGEN_TEST_PG_URL=postgres://… runs it"
)]
fn on_postgresql_a_write_on_one_server_reaches_a_stream_on_the_other() {
    let base = std::env::var("TENGEN_TEST_PG_URL").expect("TENGEN_TEST_PG_URL");
    let a = Server::start_on(&fresh_pg(&base));
    let org = a.first_organizer();
    let tid = tournament_with_players(&org, "PG 直播赛", "PG Live", &[("colour_method", "lots")], 8);
    pair_round(&org, tid, 1, "16");
    let b = a.beside();
    let mut on_b = Stream::open(&b.base, &format!("t={tid}"));
    // Publishing is a write too; then a result.
    publish_round(&a, &org, tid, 1);
    assert!(on_b.wait_for(&changed(tid), Duration::from_secs(1)).is_some(), "{}", on_b.seen);
    on_b.seen.clear();
    enter(&org, tid, game_id(&a.db, tid, 1, 1), &[("method", "resignation"), ("winner", "black")]);
    assert!(on_b.wait_for(&changed(tid), Duration::from_secs(1)).is_some(), "{}", on_b.seen);
    // And B's public page shows it at once (its cache re-read the tag when told).
    let page = b.client().get(&format!("/t/{tid}/pairings"));
    assert!(page.body.contains("B+R") || page.body.contains("Black wins"), "{}", page.body);

    // The listening connections dropped (PostgreSQL restarted them, say): each server listens
    // again, and meanwhile reads the snapshot per request; nothing is missed.
    let killed = psql_rows(
        &a.db.to_string_lossy(),
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity          WHERE datname = current_database() AND query LIKE 'LISTEN%'",
    );
    assert!(killed.len() >= 2, "both servers listened: {killed:?}");
    on_b.seen.clear();
    let g2 = game_id(&a.db, tid, 1, 2);
    enter(&org, tid, g2, &[("method", "resignation"), ("winner", "white")]);
    assert!(on_b.wait_for(&changed(tid), Duration::from_secs(2)).is_some(), "{}", on_b.seen);
    let page = b.client().get(&format!("/t/{tid}/pairings"));
    let row = page.body.split(&format!("id=\"g{g2}\"")).nth(1).unwrap_or_default();
    let result = row.split("class=\"result\">").nth(1).unwrap_or_default();
    assert!(!result.starts_with('<'), "B shows the second result: {}", page.body);
}
