//! Tournaments: create, edit, bad input, stale forms, settings frozen by a published round,
//! audit rows, deletion after a backup.

use crate::common;
use common::*;

#[test]
fn create_and_edit_a_tournament_with_audit_rows() {
    let s = Server::start();
    let c = s.first_organizer();
    // The new-tournament form starts from rules.md's defaults.
    let form = c.get("/t/new");
    assert_eq!(form.input("komi").as_deref(), Some("3.75"));
    assert_eq!(form.input("warnings_to_loss").as_deref(), Some("2"));
    assert_eq!(form.input("late_limit").as_deref(), Some("60"));
    assert!(form.body.contains("<option value=\"2-1-0\" selected>"));
    assert!(form.body.contains("<option value=\"nigiri\" selected>"));

    let tid = create_tournament(&c, "第一届天元杯");
    let page = c.get(&format!("/t/{tid}"));
    assert_eq!(page.status, 200);
    assert!(page.body.contains("第一届天元杯"));
    assert!(page.body.contains("3¾ stones = 7.5 points"), "the overview states komi in both units");
    assert!(c.get("/").body.contains("第一届天元杯"));

    // Edit: komi 3½, McMahon, a reason for the audit trail.
    let settings = c.get(&format!("/t/{tid}/settings"));
    assert_eq!(settings.input("version").as_deref(), Some("1"));
    let mut f = tournament_fields("第一届天元杯", "1st Tengen Cup");
    set(&mut f, "komi", "3½");
    set(&mut f, "system", "mcmahon");
    set(&mut f, "version", "1");
    set(&mut f, "reason", "竞赛规程修订");
    // Not the rule set's komi: shown with its conversion, saved once confirmed.
    let r = c.submit(&format!("/t/{tid}/settings"), &format!("/t/{tid}/settings"), &as_refs(&f));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.field_error("komi").is_some_and(|e| e.contains("3½ stones = 7 points")), "{}", r.body);
    assert_eq!(count_rows(&s.db, &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid}")), 1);
    set(&mut f, "komi_confirm", "14");
    let r = c.submit(&format!("/t/{tid}/settings"), &format!("/t/{tid}/settings"), &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    let settings = c.get(&format!("/t/{tid}/settings"));
    assert_eq!(settings.input("komi").as_deref(), Some("3.5"));
    assert_eq!(settings.input("version").as_deref(), Some("2"));

    let audit = c.get(&format!("/t/{tid}/audit"));
    assert_eq!(audit.status, 200);
    assert!(audit.body.contains(" changed the settings of "), "{}", audit.body);
    assert!(audit.body.contains(" created the event "), "{}", audit.body);
    assert!(audit.body.contains("竞赛规程修订"));
    assert_eq!(count_rows(&s.db, &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid}")), 2);
    let before_after = count_rows(
        &s.db,
        &format!(
            "SELECT count(*) FROM audit WHERE tournament_id = {tid} AND action = 'update' \
             AND {} = '15' AND {} = '14' AND actor = 'org'",
            json_text(&s.db, "before", "ruleset.komi_q"),
            json_text(&s.db, "after", "ruleset.komi_q")
        ),
    );
    assert_eq!(before_after, 1, "the audit row holds before and after as JSON");
}

#[test]
fn bad_settings_are_refused_beside_the_field_and_nothing_is_written() {
    let s = Server::start();
    let c = s.first_organizer();
    let mut f = tournament_fields("", "");
    set(&mut f, "rounds", "abc");
    set(&mut f, "komi", "3.3");
    set(&mut f, "end_date", "2026-12-01");
    set(&mut f, "system", "lottery");
    set(&mut f, "warnings_to_loss", "0");
    f.push(("tiebreak".into(), "sos".into()));
    let r = c.submit("/t/new", "/t/new", &as_refs(&f));
    assert_eq!(r.status, 400);
    for field in ["name_zh", "rounds", "komi", "end_date", "system", "warnings_to_loss", "tiebreaks"] {
        assert!(r.field_error(field).is_some(), "no message beside {field}");
    }
    // The form keeps what was typed.
    assert_eq!(r.input("rounds").as_deref(), Some("abc"));
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM tournaments"), 0);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM audit WHERE entity = 'tournament'"), 0);
    // A body that is not a form at all is a 4xx, not a 500.
    let r = c.post_raw("/t/new", "application/x-www-form-urlencoded", vec![0xff, 0xfe, b'%', b'z']);
    assert!((400..500).contains(&r.status), "{}", r.status);
    let r = c.post_raw("/t/new", "multipart/form-data; boundary=x", b"garbage".to_vec());
    assert!((400..500).contains(&r.status), "{}", r.status);
}

#[test]
fn a_stale_settings_form_is_refused_not_overwritten() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = create_tournament(&c, "并发测试赛");
    let path = format!("/t/{tid}/settings");
    let mut f = tournament_fields("并发测试赛", "First save");
    set(&mut f, "version", "1");
    assert_eq!(c.submit(&path, &path, &as_refs(&f)).status, 303);
    set(&mut f, "name_latin", "Second save from an old form");
    let r = c.submit(&path, &path, &as_refs(&f));
    assert_eq!(r.status, 409);
    assert!(r.body.contains("Someone else saved"));
    assert!(c.get(&format!("/t/{tid}")).body.contains("First save"));
}

#[test]
fn a_published_round_freezes_settings_that_change_played_games() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = create_tournament(&c, "冻结测试赛");
    // No pairing engine yet: publish round 1 directly in the database.
    exec_sql(
        &s.db,
        &format!(
            "INSERT INTO rounds (tournament_id, number, published, published_at) \
             VALUES ({tid}, 1, TRUE, '2026-12-05 09:00:00')"
        ),
    );
    let path = format!("/t/{tid}/settings");
    let page = c.get(&path);
    assert!(page.body.contains("1 round published"));
    let mut f = tournament_fields("冻结测试赛", "Frozen");
    set(&mut f, "version", "1");
    set(&mut f, "komi", "3.5");
    set(&mut f, "komi_confirm", "14");
    set(&mut f, "points_scale", "3-1-0");
    let r = c.submit(&path, &path, &as_refs(&f));
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("round 1 is published"), "{}", r.body);
    assert!(r.field_error("preset").is_some());
    assert!(r.field_error("points_scale").is_some());
    assert_eq!(c.get(&path).input("komi").as_deref(), Some("3.75"), "nothing written");
    // Names, venue and the tie-break order stay editable.
    let mut f = tournament_fields("冻结测试赛（改名）", "Renamed");
    set(&mut f, "version", "1");
    let r = c.submit(&path, &path, &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    assert!(c.get(&format!("/t/{tid}")).body.contains("冻结测试赛（改名）"));
}

#[test]
fn deleting_a_tournament_makes_a_backup_first() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = create_tournament(&c, "删除测试赛");
    assert_eq!(add_entrant(&c, tid, "王", "伟", "3d").status, 303);
    let path = format!("/t/{tid}/settings");
    // Without the typed confirmation nothing happens.
    let r = c.submit(&path, &format!("/t/{tid}/delete"), &[("confirm", "wrong")]);
    assert_eq!(r.status, 400);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM tournaments"), 1);
    let r = c.submit(&path, &format!("/t/{tid}/delete"), &[("confirm", "删除测试赛")]);
    assert_eq!(r.status, 303);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM tournaments"), 0);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM entrants"), 0);
    let backups: Vec<_> = std::fs::read_dir(s.dir.path().join("backups")).unwrap().collect();
    assert_eq!(backups.len(), 1);
    let file = backups[0].as_ref().unwrap().path();
    assert_eq!(backup_count(&file, "SELECT count(*) FROM entrants"), 1, "the backup holds the deleted data");
    assert_eq!(
        count_rows(&s.db, "SELECT count(*) FROM audit WHERE action = 'delete' AND entity = 'tournament'"),
        1
    );
    assert_eq!(c.get(&format!("/t/{tid}")).status, 404);
}

/// The backup a delete makes first cannot be made (backups/ is a file, not a folder; on both
/// engines it is beside the server): nothing is deleted, the page says why in the reader's
/// language and keeps the typed confirmation, and once the folder can be made the same
/// confirmation, sent again, deletes after its backup.
#[test]
fn a_delete_whose_backup_cannot_be_made_deletes_nothing_and_says_why() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = create_tournament(&c, "备份失败赛");
    assert_eq!(add_entrant(&c, tid, "王", "伟", "3d").status, 303);
    let in_the_way = s.dir.path().join("backups");
    std::fs::write(&in_the_way, b"").unwrap();
    let path = format!("/t/{tid}/settings");
    let r = c.submit(&path, &format!("/t/{tid}/delete"), &[("confirm", "备份失败赛")]);
    assert_eq!(r.status, 503, "{}", r.body);
    let text = plain_text(&r.body);
    assert!(
        text.contains("Nothing was changed: the backup that comes before this change could not be made"),
        "{text}"
    );
    assert!(text.contains("backups cannot be created or written"), "{text}");
    assert_eq!(r.input("confirm").as_deref(), Some("备份失败赛"), "the typed confirmation is kept");
    let zh = c.in_chinese();
    let r = zh.submit(&path, &format!("/t/{tid}/delete"), &[("confirm", "备份失败赛")]);
    assert_eq!(r.status, 503);
    let text = plain_text(&r.body);
    assert!(text.contains("未作任何更改") && text.contains("无法创建或写入文件夹"), "{text}");
    assert!(!text.contains("Not a directory") && !text.contains("os error"), "{text}");
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM tournaments"), 1);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM audit WHERE action = 'delete'"), 0);
    // The folder can be made again: the kept form, sent as it stands, deletes.
    std::fs::remove_file(&in_the_way).unwrap();
    let (action, fields) = r.form_inputs("resubmit");
    let again = zh.post_form(&action, &as_refs(&fields));
    assert_eq!(again.status, 303, "{}", again.body);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM tournaments"), 0);
    assert_eq!(std::fs::read_dir(&in_the_way).unwrap().count(), 1, "deleted after its backup");
}

/// Komi states its unit (rules.md §3.2), reads stones or points exactly, and a komi other than the
/// rule set's is saved only after its conversion was shown and confirmed.
#[test]
fn komi_states_its_unit_and_is_confirmed_with_its_conversion() {
    let s = Server::start();
    let c = s.first_organizer();
    let form = c.get("/t/new");
    assert_eq!(text_of(&form, "komi-echo").as_deref(), Some("3¾ stones = 7.5 points"));
    let zh = c.in_chinese();
    assert_eq!(text_of(&zh.get("/t/new"), "komi-echo").as_deref(), Some("3¾子 = 7.5目"));
    let komi_of = |tid: &str| {
        query_opt(
            &s.db,
            &format!(
                "SELECT CAST({} AS INTEGER) FROM tournaments WHERE id = {tid}",
                json_text(&s.db, "ruleset", "komi_q")
            ),
        )
    };
    let create = |c: &Client, komi: &str, confirm: Option<&str>| {
        let mut f = tournament_fields("贴子测试赛", "Komi Open");
        set(&mut f, "komi", komi);
        if let Some(q) = confirm {
            set(&mut f, "komi_confirm", q);
        }
        c.submit("/t/new", "/t/new", &as_refs(&f))
    };
    // Stones or points with the unit: the rule set's komi, saved at once, exactly.
    for komi in ["3¾子", "3.75子", "7.5目", "7目半", "7.5 points", "3.75"] {
        let r = create(&c, komi, None);
        assert_eq!(r.status, 303, "{komi}: {}", r.body);
        assert_eq!(komi_of(r.location().trim_start_matches("/t/")), Some(15), "{komi}");
    }
    let n = count_rows(&s.db, "SELECT count(*) FROM tournaments");
    // A bare 7.5 is 7½ stones: shown with its conversion, nothing saved until confirmed.
    let r = create(&c, "7.5", None);
    assert_eq!(r.status, 400, "{}", r.body);
    let e = r.field_error("komi").unwrap_or_default();
    assert!(e.contains("7½ stones = 15 points") && e.contains("3¾ stones = 7.5 points"), "{e}");
    assert_eq!(r.input("komi").as_deref(), Some("7.5"), "the typed value is kept");
    assert!(r.body.contains("name=\"komi_confirm\" value=\"30\""), "{}", r.body);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM tournaments"), n);
    let r = create(&zh, "7.5", None);
    assert!(r.field_error("komi").unwrap_or_default().contains("7½子 = 15目"), "{}", r.body);
    // A confirmation of another value does not count.
    assert_eq!(create(&c, "7.5", Some("15")).status, 400);
    assert_eq!(create(&c, "7.25目", None).status, 400, "not a multiple of ½ point");
    // Confirmed: saved as 7½ stones; saving the settings again needs no new confirmation.
    let r = create(&c, "7.5", Some("30"));
    assert_eq!(r.status, 303, "{}", r.body);
    let tid = r.location().trim_start_matches("/t/").to_string();
    assert_eq!(komi_of(&tid), Some(30));
    let settings = c.get(&format!("/t/{tid}/settings"));
    assert_eq!(text_of(&settings, "komi-echo").as_deref(), Some("7½ stones = 15 points"));
    let mut f = tournament_fields("贴子测试赛", "Komi Open, renamed");
    set(&mut f, "komi", &settings.input("komi").unwrap());
    set(&mut f, "komi_confirm", &settings.input("komi_confirm").unwrap());
    set(&mut f, "version", "1");
    let r = c.submit(&format!("/t/{tid}/settings"), &format!("/t/{tid}/settings"), &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(komi_of(&tid), Some(30));
    // The overview states both units.
    assert!(c.get(&format!("/t/{tid}")).body.contains("7½ stones = 15 points"));
}
