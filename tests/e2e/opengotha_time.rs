//! Time controls through an OpenGotha file (Art. 12 of the 2002 rules): what OpenGotha's format
//! holds comes back from an export as it went out; what it cannot hold (how many byo-yomi
//! periods, the Chinese reserve 保留N分钟读秒) the import preview lists as not kept.

use crate::common;
use common::*;

/// The tournament's stored time control, as JSON text.
fn time_control(s: &Server, tid: i32) -> String {
    query_text(&s.db, &format!("SELECT time_control FROM tournaments WHERE id = {tid}")).unwrap()
}

/// Exports `tid` to an OpenGotha file and imports it into a new empty event; returns the
/// preview's list of what is not kept and the new event's id.
fn export_and_import(c: &Client, tid: i32) -> (String, i32) {
    let xml = c.get(&format!("/t/{tid}/export/opengotha.xml"));
    assert_eq!(xml.status, 200, "{}", xml.body);
    let target = create_tournament(c, "往返测试赛");
    let token = c.get(&format!("/t/{target}/import")).csrf();
    let p = c.post_file(
        &format!("/t/{target}/import/opengotha"),
        &[("csrf", &token)],
        "file",
        "t.xml",
        &xml.bytes,
    );
    assert_eq!(p.status, 200, "{}", p.body);
    let not = text_of(&p, "not-imported").unwrap_or_default();
    let payload = p.input("payload").unwrap();
    let r = c.post_form(
        &format!("/t/{target}/import/opengotha/confirm"),
        &[("csrf", &p.csrf()), ("payload", &payload)],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    (not, target)
}

/// Art. 12.3 of the 2002 rules: Chinese byo-yomi, 120 minutes of which the last 5 are read
/// (保留5分钟读秒). OpenGotha's file holds one byo-yomi period's length only, so the export
/// writes 60 s byo-yomi and the import preview says, in the reader's language, that the
/// periods and the reserve are not kept (and the event gets one 60 s period, as it says).
#[test]
fn chinese_byo_yomi_through_opengotha_is_listed_as_not_kept() {
    let s = Server::start();
    let c = s.first_organizer().in_chinese();
    let tid = tournament_with_players(
        &c,
        "读秒往返赛",
        "Byo-yomi Round Trip",
        &[("time_kind", "chinese_byo_yomi"), ("main_minutes", "120"), ("reserved_minutes", "5")],
        4,
    );
    assert!(time_control(&s, tid).contains("\"reserved_minutes\":5"), "{}", time_control(&s, tid));
    let (not, target) = export_and_import(&c, tid);
    assert!(not.contains("读秒：OpenGotha 文件只写每次读秒的秒数（60 秒），不写读秒次数"), "{not}");
    assert!(not.contains("保留N分钟读秒"), "{not}");
    let imported = time_control(&s, target);
    assert!(imported.contains("\"period_secs\":60") && imported.contains("\"periods\":1"), "{imported}");
}

/// Art. 12 of the 2002 rules: Canadian byo-yomi (20 moves in 10 minutes after 90 minutes) is
/// one of OpenGotha's own systems: exported and imported again, it is the same time control,
/// and nothing about the time is listed as not kept.
#[test]
fn canadian_byo_yomi_survives_the_round_trip() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = tournament_with_players(
        &c,
        "加拿大读秒赛",
        "Canadian Round Trip",
        &[
            ("time_kind", "canadian"),
            ("main_minutes", "90"),
            ("canadian_moves", "20"),
            ("canadian_minutes", "10"),
        ],
        4,
    );
    let before = time_control(&s, tid);
    assert!(before.contains("\"moves_per_period\":20"), "{before}");
    let (not, target) = export_and_import(&c, tid);
    assert!(!not.contains("Byo-yomi") && !not.contains("Time:"), "{not}");
    assert_eq!(time_control(&s, target), before);
}
