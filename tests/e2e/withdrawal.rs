//! A withdrawal (退赛) through its form: the reason (required) and the venue's date (today by
//! default, never later) are kept, shown in the staff list, the audit and, as a footnote, in
//! the standings of every round after it (page and PDF) and of none before; the reason reaches
//! the public only when the organizer ticks 公开原因. A refused form keeps what was typed, a
//! stale one is refused, and reinstating clears it all, audited.

use crate::common;
use common::*;

/// Pairs and publishes round `n`, then enters every game as won by Black.
fn play_round(s: &Server, c: &Client, tid: i32, n: u32) {
    pair_round(c, tid, n, "5");
    publish_round(s, c, tid, n);
    let games = query(
        &s.db,
        &format!("SELECT id FROM games WHERE tournament_id = {tid} AND round_number = {n} AND white_id IS NOT NULL"),
    );
    for g in games {
        enter(c, tid, g[0].parse().unwrap(), &[("method", "resignation"), ("winner", "black")]);
    }
}

/// The standings PDF after round `n` in the client's language, as text without spaces.
fn standings_pdf(c: &Client, tid: i32, n: u32) -> String {
    let (_, back) = pdf(c, &format!("/t/{tid}/standings.pdf?paper=a4&round={n}"));
    common::readback::squash(&back.all_text())
}

/// Seed 000 Art. 15.2 (退赛): a withdrawal keeps its reason and date; the standings after
/// every later round name it in a footnote (page and PDF, both languages) and those before
/// do not; the reason stays with the staff until 公开原因 is ticked; reinstating clears it.
#[test]
fn a_withdrawal_keeps_its_reason_and_date_in_later_standings() {
    let s = Server::start();
    let en = s.first_organizer();
    let zh = en.in_chinese();
    let tid = tournament_with_players(
        &en,
        "退赛原因测试赛",
        "Withdrawal Reason Open",
        &[("rounds", "3"), ("colour_method", "lots")],
        6,
    );
    play_round(&s, &en, tid, 1);
    let sql = format!("SELECT id FROM entrants WHERE tournament_id = {tid} AND family_name_zh = '赵'");
    let who = query(&s.db, &sql)[0][0].clone();
    let form = format!("/t/{tid}/entrants/{who}/withdraw");
    let status = || query_text(&s.db, &format!("SELECT status FROM entrants WHERE id = {who}")).unwrap();

    // The form: today at the venue by default, the version it was read at.
    let page = zh.get(&form);
    assert_eq!(page.status, 200, "{}", page.body);
    let version = page.input("version").unwrap();
    assert!(page.input("withdrawn_on").is_some_and(|d| d.len() == 10), "{}", page.body);

    // No reason and a date after today: refused, the typed date kept, nothing written.
    let r =
        zh.submit(&form, &form, &[("version", &version), ("reason", " "), ("withdrawn_on", "2999-01-01")]);
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.field_error("reason").is_some_and(|e| e.contains("退赛原因")), "{}", r.body);
    assert!(r.field_error("withdrawn_on").is_some_and(|e| e.contains("不能晚于今天")), "{}", r.body);
    assert_eq!(r.input("withdrawn_on").as_deref(), Some("2999-01-01"));
    assert_eq!(status(), "active");

    // A stale version: refused, nothing written.
    let stale = (version.parse::<i32>().unwrap() - 1).to_string();
    let r = en.submit(
        &form,
        &form,
        &[("version", &stale), ("reason", "因病退赛"), ("withdrawn_on", "2026-01-02")],
    );
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.input("reason").as_deref(), Some("因病退赛"));
    assert_eq!(status(), "active");

    // Withdrawn after round 1 with a staff-only reason.
    let r = en.submit(
        &form,
        &form,
        &[("version", &version), ("reason", "因病退赛"), ("withdrawn_on", "2026-01-02")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let row = query(
        &s.db,
        &format!(
            "SELECT withdrawn_from_round, withdrawn_on, withdrawal_reason FROM entrants WHERE id = {who}"
        ),
    );
    assert_eq!(row[0], ["2", "2026-01-02", "因病退赛"]);
    let list = zh.get(&format!("/t/{tid}/entrants"));
    assert!(list.body.contains("第2轮起退赛，2026-01-02，原因：因病退赛"), "{}", list.body);
    let audit = zh.get(&format!("/t/{tid}/audit"));
    assert!(audit.body.contains("第2轮起退赛，2026-01-02，原因：因病退赛"), "{}", audit.body);

    play_round(&s, &en, tid, 2);
    let public_zh = s.client().in_chinese();
    let note_zh = "退赛：赵四，第2轮起，2026-01-02";
    let page = public_zh.get(&format!("/t/{tid}/standings?round=1"));
    assert!(!page.body.contains("id=\"withdrawals\"") && !page.body.contains("2026-01-02"), "{}", page.body);
    let page = public_zh.get(&format!("/t/{tid}/standings?round=2"));
    assert!(page.body.contains(note_zh), "{}", page.body);
    assert!(!page.body.contains("因病"), "the reason is staff-only: {}", page.body);
    let page = s.client().get(&format!("/t/{tid}/standings?round=2"));
    assert!(page.body.contains("Withdrawn: Zhao Si, from round 2, 2026-01-02"), "{}", page.body);
    assert!(!standings_pdf(&zh, tid, 1).contains("第2轮起"));
    let sheet = standings_pdf(&zh, tid, 2);
    assert!(sheet.contains("退赛：赵四ZhaoSi，第2轮起，2026-01-02") && !sheet.contains("因病"), "{sheet}");
    assert!(standings_pdf(&en, tid, 2).contains("Withdrawn:"), "English PDF");

    // Reinstated: the round, date and reason are cleared, audited.
    let r = en.submit(
        &format!("/t/{tid}/entrants"),
        &format!("/t/{tid}/entrants/{who}/reinstate"),
        &[("reason", "误操作")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let row = query(
        &s.db,
        &format!(
            "SELECT status, coalesce(withdrawn_on, 'none'), withdrawal_reason FROM entrants WHERE id = {who}"
        ),
    );
    assert_eq!(row[0], ["active", "none", ""]);
    let audits = count_rows(
        &s.db,
        &format!("SELECT count(*) FROM audit WHERE entity = 'entrant' AND entity_id = {who} AND action IN ('withdraw', 'reinstate')"),
    );
    assert_eq!(audits, 2);
    assert!(!public_zh.get(&format!("/t/{tid}/standings?round=2")).body.contains(note_zh));

    // Withdrawn again after round 2, the reason made public: the standings after round 3 show
    // it, those after round 2 name nobody.
    let version = zh.get(&form).input("version").unwrap();
    let fields = [
        ("version", version.as_str()),
        ("reason", "家中有事"),
        ("withdrawn_on", ""),
        ("reason_public", "on"),
    ];
    assert_eq!(zh.submit(&form, &form, &fields).status, 303);
    play_round(&s, &en, tid, 3);
    let page = public_zh.get(&format!("/t/{tid}/standings?round=3"));
    assert!(page.body.contains("第3轮起") && page.body.contains("原因：家中有事"), "{}", page.body);
    assert!(!public_zh.get(&format!("/t/{tid}/standings?round=2")).body.contains("id=\"withdrawals\""));
    assert!(standings_pdf(&zh, tid, 3).contains("原因：家中有事"));
}
