//! Operations against the real binary: a log that cannot be written, a full
//! and a locked database (a clear page that keeps what was typed), durable commits, and
//! automatic backups that are checked, pruned and shown on the organizers' page. On both
//! engines: with TENGEN_E2E_PG the full disk is PostgreSQL's own error for it, the lock a
//! table lock held by another session, and the backups pg_dump archives.

use crate::common;
use common::*;
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Wait (polling, bounded) until `page` of `c` has an element `id`; its text.
fn wait_for(c: &Client, page: &str, id: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let r = c.get(page);
        if let Some(t) = text_of(&r, id) {
            return t;
        }
        assert!(Instant::now() < deadline, "no #{id} on {page}: {}", r.body);
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().to_string()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn a_log_that_cannot_be_written_does_not_stop_the_server() {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
    let mut s = Server::start_with(tempfile::tempdir().unwrap(), &[], Stdio::from(full), "debug");
    assert!(s.alive(), "started although every log line fails");
    let org = s.first_organizer();
    let c = s.client();
    for _ in 0..7 {
        let st = c.login(ORG_USER, "guessing-wrong-1").status;
        assert!(st == 401 || st == 429, "{st}");
    }
    assert_eq!(c.get("/nowhere").status, 404);
    assert_eq!(c.get("/t/abc/standings").status, 404);
    assert_eq!(org.get("/users").status, 200);
    let tid = create_tournament(&org, "满日志赛");
    assert_eq!(add_entrant(&org, tid, "王", "伟", "1d").status, 303);
    assert!(s.alive(), "still serving");
}

/// Add entrants until the server refuses one with `status`; that refusal and the name typed.
fn fill_until(org: &Client, tid: i32, status: u16, prefix: &str) -> (Resp, String) {
    for i in 0..2_000 {
        let name = format!("{prefix}{i:04}");
        let r = add_entrant(org, tid, &name, "伟", "3k");
        if r.status == status {
            return (r, name);
        }
        assert_eq!(r.status, 303, "entrant {i}: {}", r.body);
    }
    panic!("the database never filled up");
}

#[test]
fn a_full_database_gives_a_clear_page_that_keeps_what_was_typed() {
    let s = Server::start();
    let mut org = s.first_organizer();
    let tid = create_tournament(&org, "满盘赛");
    let s = fill_the_disk(s);
    org.rebase(&s);
    let (r, name) = fill_until(&org, tid, 507, "满");
    assert!(r.body.contains("disk is full"), "{}", r.body);
    assert!(r.body.contains(&name), "the typed name is on the page");
    assert!(r.body.contains(&format!("action=\"/t/{tid}/entrants/new\"")), "{}", r.body);
    assert_eq!(r.input("family_name_zh").as_deref(), Some(name.as_str()));
    assert_eq!(
        count_rows(&s.db, &format!("SELECT count(*) FROM entrants WHERE family_name_zh = '{name}'")),
        0
    );
    // In Chinese too.
    let mut zh = org.in_chinese();
    let (r, _) = fill_until(&zh, tid, 507, "盘");
    assert!(r.body.contains("磁盘已满"), "{}", r.body);
    // Space is freed: the kept form, sent again as it stands, saves the entrant.
    if is_pg(&s.db) {
        psql_rows(&s.db.to_string_lossy(), "DROP TRIGGER disk_full ON entrants; DROP FUNCTION disk_full()");
    }
    let s = s.restart(&[]);
    zh.rebase(&s);
    let mut fields: Vec<(String, String)> = ["family_name_zh", "given_name_zh", "rank", "unit", "region"]
        .iter()
        .map(|k| (k.to_string(), r.input(k).unwrap_or_default()))
        .collect();
    fields.push(("csrf".into(), r.csrf()));
    let again = zh.post_form(&format!("/t/{tid}/entrants/new"), &as_refs(&fields));
    assert_eq!(again.status, 303, "{}", again.body);
    let kept = r.input("family_name_zh").unwrap();
    assert_eq!(
        count_rows(&s.db, &format!("SELECT count(*) FROM entrants WHERE family_name_zh = '{kept}'")),
        1
    );
}

/// The server's database on a disk that holds no more: on SQLite the same file on a "disk" of
/// only the pages it has now (`--max-db-pages`); on PostgreSQL every new entrant fails as a
/// full disk fails it, with SQLSTATE 53100 (disk_full) and ENOSPC's text, raised by a trigger.
fn fill_the_disk(s: Server) -> Server {
    if is_pg(&s.db) {
        psql_rows(
            &s.db.to_string_lossy(),
            "CREATE FUNCTION disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
             RAISE EXCEPTION 'could not extend file \"base/16384/16400\": No space left on device' \
             USING ERRCODE = 'disk_full', HINT = 'Check free disk space.'; END $$; \
             CREATE TRIGGER disk_full BEFORE INSERT ON entrants FOR EACH ROW EXECUTE FUNCTION disk_full()",
        );
        return s;
    }
    let pages = query_opt(&s.db, "PRAGMA page_count").expect("page count");
    s.restart(&["--max-db-pages", &pages.to_string()])
}

/// Another program holding the lock a save needs, until [`Holder::release`]: SQLite's write
/// lock (BEGIN IMMEDIATE), or on PostgreSQL an EXCLUSIVE lock on the tables the saves below
/// write (reads go on, writes wait), in a `psql` session's open transaction.
enum Holder {
    Sqlite(rusqlite::Connection),
    Pg(std::process::Child),
}

impl Holder {
    fn take(db: &Path) -> Holder {
        use std::io::{BufRead, Write};
        if !is_pg(db) {
            let other = rusqlite::Connection::open(db).unwrap();
            other.execute_batch("BEGIN IMMEDIATE; UPDATE users SET display_name = display_name;").unwrap();
            return Holder::Sqlite(other);
        }
        let mut psql = std::process::Command::new("psql")
            .arg(db)
            .args(["-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("psql");
        let stdin = psql.stdin.as_mut().unwrap();
        writeln!(stdin, "BEGIN; LOCK TABLE entrants, users IN EXCLUSIVE MODE; SELECT 'held';").unwrap();
        stdin.flush().unwrap();
        let mut line = String::new();
        std::io::BufReader::new(psql.stdout.as_mut().unwrap()).read_line(&mut line).unwrap();
        assert_eq!(line.trim(), "held", "the lock is taken");
        Holder::Pg(psql)
    }

    fn release(self) {
        match self {
            Holder::Sqlite(c) => c.execute_batch("COMMIT").unwrap(),
            Holder::Pg(mut psql) => {
                use std::io::Write;
                let mut stdin = psql.stdin.take().unwrap();
                writeln!(stdin, "COMMIT;").unwrap();
                drop(stdin);
                assert!(psql.wait().unwrap().success());
            }
        }
    }
}

#[test]
fn a_locked_database_gives_a_clear_page_that_keeps_what_was_typed() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = create_tournament(&org, "锁库赛");
    let page = org.get(&format!("/t/{tid}/entrants/new"));
    let token = page.csrf();
    // Another program holds the write lock for longer than the server's busy timeout.
    let other = Holder::take(&s.db);
    let fields = [
        ("csrf", token.as_str()),
        ("family_name_zh", "锁"),
        ("given_name_zh", "住了"),
        ("rank", "2d"),
        ("notes", "到场时间 9:05\n坐第三桌"),
    ];
    let r = org.post_form(&format!("/t/{tid}/entrants/new"), &fields);
    assert_eq!(r.status, 503, "{}", r.body);
    assert!(r.header("retry-after").is_some());
    assert!(r.body.contains("database is busy"), "{}", r.body);
    assert_eq!(r.input("given_name_zh").as_deref(), Some("住了"));
    assert!(r.body.contains("到场时间 9:05\n坐第三桌"), "the multi-line note is kept: {}", r.body);
    // A password typed into a form that meets the lock is not written into the page.
    let token2 = org.get("/account").csrf();
    let r = org.post_form(
        "/account/password",
        &[
            ("csrf", &token2),
            ("old_password", ORG_PASS),
            ("password", "lotus pond at dusk"),
            ("password2", "lotus pond at dusk"),
        ],
    );
    assert_eq!(r.status, 503, "{}", r.body);
    assert!(!r.body.contains(ORG_PASS) && !r.body.contains("lotus pond"), "{}", r.body);
    other.release();
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM entrants"), 0, "nothing written");
    // The lock is gone: the same fields go through.
    let again = org.post_form(&format!("/t/{tid}/entrants/new"), &fields);
    assert_eq!(again.status, 303, "{}", again.body);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM entrants WHERE given_name_zh = '住了'"), 1);
}

#[test]
fn commits_are_durable_and_the_organizers_page_says_so() {
    let s = Server::start();
    let org = s.first_organizer();
    let storage = wait_for(&org, "/users", "storage");
    let durable =
        if is_pg(&s.db) { "PostgreSQL, synchronous commit FULL" } else { "journal WAL, synchronous FULL" };
    assert!(storage.contains(durable), "{storage}");
    let off = text_of(&org.get("/users"), "backup-schedule").unwrap_or_default();
    assert!(off.contains("No automatic backups"), "{off}");
}

#[test]
fn automatic_backups_are_checked_pruned_kept_per_round_and_shown() {
    let dir = tempfile::tempdir().unwrap();
    let backups = dir.path().join("auto");
    let b = backups.to_str().unwrap().to_string();
    // A server in China: the copies are named in its zone, not UTC.
    let mut s = Server::start_full(
        dir,
        &["--backup-dir", &b, "--backup-every", "1s", "--backup-keep", "2"],
        Stdio::inherit(),
        "warn",
        &[("TENGEN_TZ", "Asia/Shanghai")],
    );
    // Copies are named after the database: its file's stem, or PostgreSQL's database name.
    let pg = is_pg(&s.db);
    let (stem, ext) = match pg {
        true => (s.db.to_string_lossy().rsplit('/').next().unwrap().to_string(), ".pgdump"),
        false => ("tengen".to_string(), ".sqlite"),
    };
    let org = s.first_organizer();
    let last = wait_for(&org, "/users", "backup-last");
    assert!(last.contains("integrity checked") && last.contains(&format!("{stem}-auto-")), "{last}");
    let schedule = text_of(&org.get("/users"), "backup-schedule").unwrap();
    assert!(schedule.contains("keeping the last 2"), "{schedule}");
    // A published round gets a copy of its own, which pruning never removes.
    let tid = tournament_with_players(&org, "备份赛", "Backup Open", &[], 4);
    pair_round(&org, tid, 1, "7");
    publish_round(&s, &org, tid, 1);
    let deadline = Instant::now() + Duration::from_secs(60);
    let prefix = format!("{stem}-round-t{tid}-r1-");
    while !files(&backups).iter().any(|f| f.starts_with(&prefix)) {
        assert!(Instant::now() < deadline, "no round copy: {:?}", files(&backups));
        std::thread::sleep(Duration::from_millis(100));
    }
    // Let a few more copies pass, then stop and look. Only finished copies count: the server
    // is killed, possibly in the middle of one (its `.partial` is removed by the next run's
    // pruning, a unit test of db::backup).
    let done = |f: &String| f.contains("-auto-") && f.ends_with(ext);
    // Between two copies (a second apart) the folder holds exactly the last two.
    let seen = files(&backups).into_iter().filter(done).max().unwrap();
    loop {
        let autos: Vec<String> = files(&backups).into_iter().filter(done).collect();
        if autos.len() == 2 && autos.iter().max().is_some_and(|m| *m > seen) {
            break;
        }
        assert!(Instant::now() < deadline, "never pruned to the last two: {autos:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
    s.stop();
    let all: Vec<String> = files(&backups).into_iter().filter(|f| f.ends_with(ext)).collect();
    // STEM-auto-20261203-093000.123+0800.sqlite: Shanghai's wall clock and its offset.
    let shanghai = (chrono::Utc::now() + chrono::Duration::hours(8)).format("%Y%m%d").to_string();
    for f in &all {
        let stamp = f.trim_end_matches(ext).rsplit('-').take(2).collect::<Vec<_>>();
        assert!(stamp[0].ends_with("+0800"), "{f}: Shanghai's offset");
        assert!(stamp[1] == shanghai || f.contains("-235"), "{f}: Shanghai's date {shanghai}");
    }
    assert!((2..=3).contains(&all.iter().filter(|f| f.contains("-auto-")).count()), "{all:?}");
    assert_eq!(all.iter().filter(|f| f.starts_with(&prefix)).count(), 1, "{all:?}");
    for f in all.iter().filter(|_| !pg) {
        let c = rusqlite::Connection::open(backups.join(f)).unwrap();
        let ok: String = c.query_row("PRAGMA integrity_check", [], |r| r.get(0)).unwrap();
        assert_eq!(ok, "ok", "{f}");
    }
    for f in all.iter().filter(|_| pg) {
        let list =
            std::process::Command::new("pg_restore").arg("--list").arg(backups.join(f)).output().unwrap();
        assert!(list.status.success(), "{f}: {}", String::from_utf8_lossy(&list.stderr));
    }
    // The round's copy holds the round as published (on PostgreSQL: restored to be read).
    let round_copy = backups.join(all.iter().find(|f| f.starts_with(&prefix)).unwrap());
    assert_eq!(
        backup_count(
            &round_copy,
            &format!("SELECT count(*) FROM rounds WHERE tournament_id = {tid} AND published")
        ),
        1
    );
}

#[test]
fn a_failed_backup_is_shown_and_leaves_no_file() {
    let s = Server::start();
    let mut org = s.first_organizer();
    let backups = s.dir.path().join("auto");
    let b = backups.to_str().unwrap().to_string();
    let pg = is_pg(&s.db);
    // A backup disk that holds one page: every copy fails part-way. (pg_dump writes a file of
    // its own that no page limit reaches: there the folder cannot be made, under a file.)
    let b = if pg {
        std::fs::write(s.dir.path().join("not-a-folder"), b"").unwrap();
        s.dir.path().join("not-a-folder").join("auto").to_string_lossy().to_string()
    } else {
        b
    };
    let s = s.restart(&["--backup-dir", &b, "--backup-every", "1h", "--max-db-pages", "1"]);
    org.rebase(&s);
    let failed = wait_for(&org, "/users", "backup-failed");
    let why = if pg { "auto cannot be created or written" } else { "the backup's disk is full" };
    assert!(failed.contains("FAILED") && failed.contains(why), "{failed}");
    let zh = org.in_chinese();
    let failed = text_of(&zh.get("/users"), "backup-failed").unwrap_or_default();
    let why = if pg { "无法创建或写入文件夹" } else { "备份所在磁盘已满" };
    assert!(failed.contains("失败") && failed.contains(why), "in Chinese: {failed}");
    assert!(!failed.contains("Not a directory") && !failed.contains("database or disk"), "{failed}");
    assert!(text_of(&org.get("/users"), "backup-last").is_none());
    assert_eq!(files(&backups), Vec::<String>::new(), "no 0-byte or partial file");
    drop(s);
}

/// `host:port` of a server.
fn host(s: &Server) -> String {
    s.base.trim_start_matches("http://").trim_end_matches('/').to_string()
}

/// The status of a raw HTTP answer and its text (0 and "" for none).
fn answer(raw: &[u8]) -> (u16, String) {
    let text = String::from_utf8_lossy(raw).into_owned();
    let status = text.lines().next().and_then(|l| l.split_whitespace().nth(1)).and_then(|s| s.parse().ok());
    (status.unwrap_or(0), text)
}

/// One connection that sends `head`, then its body one byte every `every`, `bytes` in all,
/// and listens between the bytes: the server's answer, if any came.
fn trickle(addr: &str, head: &str, bytes: usize, every: Duration) -> (u16, String) {
    use std::io::{Read, Write};
    let Ok(mut tcp) = std::net::TcpStream::connect(addr) else { return (0, String::new()) };
    tcp.set_read_timeout(Some(every)).unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let mut open = tcp.write_all(head.as_bytes()).is_ok();
    for _ in 0..bytes {
        match tcp.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(_) => {}
        }
        if !got.is_empty() || !open {
            break;
        }
        open = tcp.write_all(b"x").is_ok();
    }
    // The rest of an answer that began.
    while let Ok(n) = tcp.read(&mut buf) {
        if n == 0 {
            break;
        }
        got.extend_from_slice(&buf[..n]);
    }
    answer(&got)
}

/// POST `chunks` chunks of `chunk` after `first` as a chunked body (no Content-Length) with
/// `c`'s cookies and language; the answer.
fn post_chunked(
    s: &Server,
    c: &Client,
    path: &str,
    first: &[u8],
    chunk: &[u8],
    chunks: usize,
) -> (u16, String) {
    use std::io::{Read, Write};
    let addr = host(s);
    let mut tcp = std::net::TcpStream::connect(&addr).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let cookies: Vec<String> = c.cookies.borrow().iter().map(|(k, v)| format!("{k}={v}")).collect();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nOrigin: {}\r\nCookie: {}\r\nAccept-Language: {}\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n",
        s.base,
        cookies.join("; "),
        c.accept_language
    );
    let mut ok = tcp.write_all(head.as_bytes()).is_ok();
    let frame = |data: &[u8]| [format!("{:x}\r\n", data.len()).as_bytes(), data, b"\r\n"].concat();
    ok = ok && tcp.write_all(&frame(first)).is_ok();
    for _ in 0..chunks {
        if !ok {
            break; // the server stopped reading: it answered already
        }
        ok = tcp.write_all(&frame(chunk)).is_ok();
    }
    if ok {
        let _ = tcp.write_all(b"0\r\n\r\n");
    }
    let mut got = Vec::new();
    let mut buf = [0u8; 8192];
    while let Ok(n) = tcp.read(&mut buf) {
        if n == 0 {
            break;
        }
        got.extend_from_slice(&buf[..n]);
        if String::from_utf8_lossy(&got).contains("</html>") {
            break;
        }
    }
    answer(&got)
}

/// Office rule (request bodies): every body is counted as it arrives, whatever its framing.
/// A 3 MB chunked form (no Content-Length) to the login form, or to a staff form without a
/// session, is refused with the 413 page in the reader's language as it passes 1 MB: the login
/// is not tried (no failure counted), nothing is created.
#[test]
fn an_oversized_chunked_body_is_refused_as_it_arrives() {
    let s = Server::start();
    s.first_organizer();
    let mut c = s.client();
    c.accept_language = "zh-CN".into();
    let token = c.get("/login").csrf();
    let first = format!("csrf={token}&username={ORG_USER}&password=guessing-wrong-1&pad=");
    let chunk = vec![b'x'; 64 * 1024];
    let (status, text) = post_chunked(&s, &c, "/login", first.as_bytes(), &chunk, 48);
    assert_eq!(status, 413, "{text}");
    assert!(text.contains("内容过大") && text.contains("<html lang=\"zh-CN\">"), "{text}");
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM login_throttle"), 0, "no login was tried");
    let anon = s.client();
    let (status, text) = post_chunked(&s, &anon, "/t/new", b"name_zh=x&pad=", &chunk, 48);
    assert_eq!(status, 413, "{text}");
    assert!(text.contains("Too large: this form takes"), "{text}");
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM tournaments"), 0);
}

/// Office rule (refusals are pages): a form sent compressed (`Content-Encoding: gzip`, a body
/// that is no gzip at all, or a coding the server does not take) is refused with a 415 page
/// in the reader's language, never the framework's plain English; nothing is written, and the
/// same form sent plainly is taken.
#[test]
fn a_compressed_form_gets_a_page_in_the_readers_language() {
    use std::io::Write;
    let s = Server::start();
    let org = s.first_organizer();
    let tid = create_tournament(&org, "压缩表单赛");
    let page = format!("/t/{tid}/entrants/new");
    let token = org.get(&page).csrf();
    let fields =
        [("csrf", token.as_str()), ("family_name_zh", "王"), ("given_name_zh", "伟"), ("rank", "3d")];
    let plain = form_urlencode(&fields).into_bytes();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&plain).unwrap();
    let gz = gz.finish().unwrap();
    for (lang, coding, body, said) in [
        ("zh-CN", "gzip", gz.clone(), "请勿压缩"),
        ("en", "gzip", gz.clone(), "without compression"),
        ("en", "gzip", b"not gzip at all".to_vec(), "without compression"),
        ("zh-CN", "br", plain.clone(), "请勿压缩"),
        ("en", "deflate, gzip", gz.clone(), "without compression"),
    ] {
        let mut c = Client::new(&s.base);
        c.cookies = org.cookies.clone();
        c.accept_language = lang.into();
        c.set_header("Content-Encoding", Some(coding));
        let r = c.post_raw(&page, "application/x-www-form-urlencoded", body);
        assert_eq!(r.status, 415, "{lang} {coding}: {}", r.body);
        assert!(r.header("content-type").is_some_and(|t| t.starts_with("text/html")), "{coding}");
        assert!(r.body.contains(said) && r.body.contains(&format!("<html lang=\"{lang}\">")), "{}", r.body);
    }
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM entrants"), 0);
    let mut c = Client::new(&s.base);
    c.cookies = org.cookies.clone();
    c.set_header("Content-Encoding", Some("identity"));
    assert_eq!(c.post_raw(&page, "application/x-www-form-urlencoded", plain).status, 303);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM entrants"), 1);
}

/// Office rule (slow senders): a body must keep arriving — its deadline grows with what has
/// come — and one client address has a few requests in flight at most. 200 connections that
/// trickle their bodies a byte a second, against a server allowed 128 open files, do not stop
/// an arbiter's save from another address; each trickler is answered, at once with the 429
/// page beyond its address's share, or with the 408 page in its language when its body falls
/// behind.
#[test]
fn slow_senders_do_not_stop_an_arbiters_save() {
    let s = Server::start_args(&["--trusted-proxy", "127.0.0.1"]);
    let org = s.first_organizer();
    let tid = create_tournament(&org, "慢速发送赛");
    let out = std::process::Command::new("prlimit")
        .arg("--pid")
        .arg(s.pid().to_string())
        .arg("--nofile=128:128")
        .output()
        .expect("prlimit (util-linux)");
    assert!(out.status.success(), "{out:?}");
    let addr = host(&s);
    let head = format!(
        "POST /login HTTP/1.1\r\nHost: {addr}\r\nX-Forwarded-For: 203.0.113.9\r\nAccept-Language: zh-CN\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 120\r\n\r\n"
    );
    let senders: Vec<_> = (0..200)
        .map(|_| {
            let (addr, head) = (addr.clone(), head.clone());
            std::thread::spawn(move || trickle(&addr, &head, 120, Duration::from_secs(1)))
        })
        .collect();
    std::thread::sleep(Duration::from_secs(2));
    // The arbiter's save, on a new connection from the venue's own address, goes through.
    let mut arbiter = Client::new(&s.base);
    arbiter.cookies = org.cookies.clone();
    arbiter.set_header("X-Forwarded-For", Some("192.0.2.50"));
    let t = Instant::now();
    assert_eq!(add_entrant(&arbiter, tid, "王", "伟", "3d").status, 303);
    assert!(t.elapsed() < Duration::from_secs(5), "saved in {:?}", t.elapsed());
    let answers: Vec<(u16, String)> = senders.into_iter().map(|t| t.join().unwrap()).collect();
    let timed_out: Vec<&String> = answers.iter().filter(|a| a.0 == 408).map(|a| &a.1).collect();
    let busy = answers.iter().filter(|a| a.0 == 429).count();
    assert_eq!(timed_out.len() + busy, 200, "{:?}", answers.iter().map(|a| a.0).collect::<Vec<_>>());
    assert!(!timed_out.is_empty() && busy > 150, "{} timed out, {busy} refused", timed_out.len());
    assert!(timed_out.iter().all(|t| t.contains("传输太慢")), "{}", timed_out[0]);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM entrants"), 1);
}

/// actix's worker threads of a running server (each an arbiter, "actix-rt|system:0|arbiter:N",
/// the name cut to 15 characters by Linux).
fn worker_threads(pid: u32) -> usize {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).expect("the server's threads");
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .filter(|name| name.starts_with("actix-rt|system"))
        .count()
}

/// `tengen serve --workers N` sets how many threads answer requests; without it, one per core
/// of the machine (it was 2 whatever the machine). A count out of 1–512 stops `serve` before
/// it starts, naming the option in the user's language.
#[test]
fn the_server_answers_on_as_many_threads_as_told_or_one_per_core() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let s = Server::start();
    assert_eq!(s.client().get("/").status, 200);
    assert_eq!(worker_threads(s.pid()), cores, "one per core by default");
    let three = Server::start_args(&["--workers", "3"]);
    assert_eq!(three.client().get("/").status, 200);
    assert_eq!(worker_threads(three.pid()), 3);

    let db = s.dir.path().join("other.db");
    let out =
        run_tengen(None, &["--db", db.to_str().unwrap(), "serve", "--bind", "127.0.0.1:0", "--workers", "0"]);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("--workers：须为 1 至 512 的线程数：“0”"), "{said}");
    assert!(!db.exists(), "nothing was created: {said}");
}
