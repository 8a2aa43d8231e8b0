//! The event's time zone. Every time shown or typed is in the event's zone
//! (a setting; new events take the server's), stored in UTC.

use crate::common;
use common::*;

/// The round's start and an arrival on round 1's lateness sheet, typed as the venue reads them.
fn type_lateness(s: &Server, c: &Client, tid: i32, start: &str, arrival: &str) -> i32 {
    let black = query(
        &s.db,
        &format!("SELECT black_id FROM games WHERE tournament_id = {tid} AND black_id IS NOT NULL LIMIT 1"),
    )[0][0]
        .clone();
    let sheet = format!("/t/{tid}/results/rounds/1/lateness");
    let arr = format!("arr_{black}");
    let r = c.submit(&sheet, &sheet, &[("version", "0"), ("starts_at", start), (&arr, arrival)]);
    assert_eq!(r.status, 303, "{}", r.body);
    black.parse().unwrap()
}

/// The round's start as the staff's lateness sheet and the public pairings show it.
fn shown_start(s: &Server, c: &Client, tid: i32) -> (String, String) {
    let staff = c.get(&format!("/t/{tid}/results/rounds/1/lateness"));
    let public = s.client().get(&format!("/t/{tid}/pairings?round=1"));
    assert_eq!(public.status, 200, "{}", public.body);
    (staff.input("starts_at").unwrap_or_default(), text_of(&public, "round-start").unwrap_or_default())
}

fn save_settings(s: &Server, c: &Client, tid: i32, zone: &str) -> Resp {
    let version = query(&s.db, &format!("SELECT version FROM tournaments WHERE id = {tid}"))[0][0].clone();
    let mut f = tournament_fields("时区测试赛", "Time Zone Open");
    set(&mut f, "time_zone", zone);
    set(&mut f, "version", &version);
    let path = format!("/t/{tid}/settings");
    c.submit(&path, &path, &as_refs(&f))
}

#[test]
fn times_are_typed_and_shown_in_the_events_zone_and_stored_in_utc() {
    let s = Server::start_env(&[("TENGEN_TZ", "Europe/Berlin")]);
    let mut c = s.first_organizer();
    // A new event takes the server's zone.
    assert_eq!(c.get("/t/new").input("time_zone").as_deref(), Some("Europe/Berlin"));

    let tid =
        tournament_with_players(&c, "时区测试赛", "Time Zone Open", &[("time_zone", "Asia/Shanghai")], 4);
    let zone = |s: &Server| query_text(&s.db, &format!("SELECT time_zone FROM tournaments WHERE id = {tid}"));
    assert_eq!(zone(&s).as_deref(), Some("Asia/Shanghai"));
    pair_round(&c, tid, 1, "7");
    publish_round(&s, &c, tid, 1);

    // Typed in Shanghai's time; the database holds UTC, 8 hours behind.
    let black = type_lateness(&s, &c, tid, "09:00", "09:20");
    let stored = query_text(
        &s.db,
        &format!("SELECT starts_at FROM round_times WHERE tournament_id = {tid} AND round_number = 1"),
    )
    .unwrap();
    assert!(stored.ends_with(" 01:00:00"), "stored in UTC: {stored}");
    let arrived = query_text(
        &s.db,
        &format!("SELECT arrived_at FROM arrivals WHERE tournament_id = {tid} AND entrant_id = {black}"),
    )
    .unwrap();
    assert!(arrived.ends_with(" 01:20:00"), "stored in UTC: {arrived}");
    // Read back as typed, on the staff sheet and the public pairings.
    let (staff, public) = shown_start(&s, &c, tid);
    assert_eq!(staff, "09:00");
    assert!(public.contains("09:00"), "{public}");
    let sheet = c.get(&format!("/t/{tid}/results/rounds/1/lateness"));
    assert_eq!(sheet.input(&format!("arr_{black}")).as_deref(), Some("09:20"));

    // The audit page shows its times in Shanghai's time, not the stored UTC.
    let (at_utc, at_local) = {
        let r = query(
            &s.db,
            &format!("SELECT at FROM audit WHERE tournament_id = {tid} ORDER BY id DESC LIMIT 1"),
        );
        let utc =
            chrono::NaiveDateTime::parse_from_str(&r[0][0], "%Y-%m-%d %H:%M:%S").expect("a stored time");
        (r[0][0].clone(), (utc + chrono::Duration::hours(8)).format("%Y-%m-%d %H:%M:%S").to_string())
    };
    let audit = c.get(&format!("/t/{tid}/audit"));
    assert_eq!(audit.status, 200, "{}", audit.body);
    assert!(audit.body.contains(&format!("<td>{at_local}</td>")), "{at_local} on the audit page");
    assert!(!audit.body.contains(&format!("<td>{at_utc}</td>")), "not the stored UTC {at_utc}");

    // Another zone: the stored instant stays, the time shown moves. The sheet was typed on
    // today's date; pin the instant to a winter day (same time of day, so nothing shown changes
    // yet) so that London's offset is known: GMT, the same as UTC.
    let stored = "2026-12-05 01:00:00".to_string();
    exec_sql(&s.db, &format!("UPDATE round_times SET starts_at = '{stored}' WHERE tournament_id = {tid}"));
    let r = save_settings(&s, &c, tid, "Europe/London");
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(zone(&s).as_deref(), Some("Europe/London"));
    assert_eq!(c.get(&format!("/t/{tid}/settings")).input("time_zone").as_deref(), Some("Europe/London"));
    let (staff, public) = shown_start(&s, &c, tid);
    assert_eq!(staff, "01:00", "the start moved with the zone");
    assert!(public.contains("01:00"), "{public}");
    assert_eq!(
        query_text(&s.db, &format!("SELECT starts_at FROM round_times WHERE tournament_id = {tid}"))
            .as_deref(),
        Some(stored.as_str()),
        "the stored instant did not change"
    );
    assert_eq!(
        count_rows(
            &s.db,
            &format!(
                "SELECT COUNT(*) FROM audit WHERE tournament_id = {tid} AND after LIKE '%Europe/London%'"
            )
        ),
        1,
        "the change is audited"
    );

    // An unknown zone: 400 in the reader's language, nothing written, the typed name kept.
    c.accept_language = "zh-CN".into();
    let audits = count_rows(&s.db, "SELECT COUNT(*) FROM audit");
    let r = save_settings(&s, &c, tid, "Mars/Olympus");
    assert_eq!(r.status, 400, "{}", r.body);
    let msg = r.field_error("time_zone").unwrap_or_default();
    assert!(msg.contains("不是时区数据库中的时区"), "{msg}");
    assert_eq!(r.input("time_zone").as_deref(), Some("Mars/Olympus"));
    assert_eq!(zone(&s).as_deref(), Some("Europe/London"));
    assert_eq!(count_rows(&s.db, "SELECT COUNT(*) FROM audit"), audits);
}

/// The OpenGotha file's save stamp is the event's wall clock (Shanghai: UTC + 8), not the
/// server's UTC.
#[test]
fn the_opengotha_export_is_stamped_in_the_events_zone() {
    let s = Server::start_env(&[("TENGEN_TZ", "UTC")]);
    let c = s.first_organizer();
    let tid = tournament_with_players(&c, "时区导出赛", "Zone Export", &[("time_zone", "Asia/Shanghai")], 4);
    let shanghai = || (chrono::Utc::now() + chrono::Duration::hours(8)).format("%Y%m%d%H").to_string();
    let before = shanghai();
    let r = c.get(&format!("/t/{tid}/export/opengotha.xml"));
    let after = shanghai();
    assert_eq!(r.status, 200, "{}", r.body);
    let at = r.body.find("saveDT=\"").expect("saveDT") + "saveDT=\"".len();
    let hour = &r.body[at..at + 10];
    assert!(hour == before || hour == after, "saveDT {hour}, Shanghai's hour {before}");
}

/// A stored UTC instant as a zone `hours` east of UTC shows it.
fn shifted(stored: &str, hours: i64) -> String {
    let utc = chrono::NaiveDateTime::parse_from_str(stored, "%Y-%m-%d %H:%M:%S").expect("a stored time");
    (utc + chrono::Duration::hours(hours)).format("%Y-%m-%d %H:%M:%S").to_string()
}

/// One office, one clock: on a server in Tokyo running an event in Shanghai, every time an
/// event page shows is Shanghai's with the zone named (the audit's heading, who entered a
/// result and when, when a round was published, the event's navigation), and the accounts
/// page, which belongs to no event, shows the server's zone, named (its log's heading and
/// rows, the last backup); no page says UTC. Both languages.
#[test]
fn every_time_shown_is_in_its_zone_with_the_zone_named() {
    let dir = tempfile::tempdir().unwrap();
    let backups = dir.path().join("auto").to_string_lossy().to_string();
    let s = Server::start_full(
        dir,
        &["--backup-dir", &backups, "--backup-every", "1h"],
        std::process::Stdio::inherit(),
        "warn",
        &[("TENGEN_TZ", "Asia/Tokyo")],
    );
    let en = s.first_organizer();
    let zh = en.in_chinese();
    let tid = tournament_with_players(
        &en,
        "一个时钟赛",
        "One Clock Open",
        &[("time_zone", "Asia/Shanghai"), ("colour_method", "lots")],
        4,
    );
    pair_round(&en, tid, 1, "7");
    publish_round(&s, &en, tid, 1);
    let gid = game_id(&s.db, tid, 1, 1);
    enter(&en, tid, gid, &[("method", "resignation"), ("winner", "black")]);
    let no_utc = |r: &Resp| assert!(!r.body.contains("UTC"), "UTC named on {}", r.body);

    // The audit: its heading names the event's zone.
    for (c, head) in [(&zh, "<th>时间（Asia/Shanghai）</th>"), (&en, "<th>When (Asia/Shanghai)</th>")] {
        let page = c.get(&format!("/t/{tid}/audit"));
        assert!(page.body.contains(head), "{head}: {}", page.body);
        assert_eq!(
            text_of(&page, "zone").as_deref(),
            Some(if c.accept_language == "en" { "Times: Asia/Shanghai" } else { "时间：Asia/Shanghai" })
        );
        no_utc(&page);
    }
    // Who entered the result, and when: Shanghai's time, named.
    let entered =
        query_text(&s.db, &format!("SELECT entered_at FROM results WHERE game_id = {gid}")).unwrap();
    let game = zh.get(&format!("/t/{tid}/games/{gid}"));
    assert!(game.body.contains(&format!("{}（Asia/Shanghai）", shifted(&entered, 8))), "{}", game.body);
    no_utc(&game);
    let game = en.get(&format!("/t/{tid}/games/{gid}"));
    assert!(game.body.contains(&format!("{} (Asia/Shanghai)", shifted(&entered, 8))), "{}", game.body);
    // When the round was published: on the staff's rounds page and the public round page.
    let published = query_text(
        &s.db,
        &format!("SELECT published_at FROM rounds WHERE tournament_id = {tid} AND number = 1"),
    )
    .unwrap();
    let shown = format!("{}（Asia/Shanghai）", shifted(&published, 8));
    for page in
        [zh.get(&format!("/t/{tid}/rounds")), s.client().in_chinese().get(&format!("/t/{tid}/pairings/1"))]
    {
        assert!(page.body.contains(&shown), "{shown}: {}", page.body);
        no_utc(&page);
    }

    // The accounts page: the server's zone, Tokyo, named in its log's heading and its rows.
    let first =
        query_text(&s.db, "SELECT at FROM audit WHERE tournament_id IS NULL ORDER BY id LIMIT 1").unwrap();
    let users = zh.get("/users");
    assert!(users.body.contains("<th>时间（Asia/Tokyo）</th>"), "{}", users.body);
    assert!(users.body.contains(&format!("<td>{}</td>", shifted(&first, 9))), "{}", users.body);
    // The last automatic backup (taken at start): Tokyo's time, named.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let last = loop {
        if let Some(t) = text_of(&en.get("/users"), "backup-last") {
            break t;
        }
        assert!(std::time::Instant::now() < deadline, "no automatic backup shown");
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert!(last.contains("(Asia/Tokyo)") && !last.contains("UTC"), "{last}");
    no_utc(&en.get("/users"));
}
