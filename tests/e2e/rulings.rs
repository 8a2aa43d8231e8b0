//! Rulings in the hands the rules name, over HTTP: a plain arbiter's draw, replay or double
//! loss is a proposal until the chief arbiter confirms it (seed 000 Arts. 17.5, 17.6); a cycle
//! is ruled with no side by the event's setting (Art. 20); each double loss names its cause;
//! lateness beyond the limit is recorded from the round's sheet (Arts. 22.1, 22.3); pairing
//! and publishing over games without a result ask for a confirmation.

use crate::common;
use common::*;

const FAMILIES: [&str; 8] = ["赵", "钱", "孙", "李", "周", "吴", "郑", "王"];

/// A tournament of `n` players imported with round 1 paired 0–1, 2–3, … on boards 1, 2, …
/// (published, no result yet); `fields` change the new-event form first.
fn setup(c: &Client, n: usize, fields: &[(&str, &str)]) -> i32 {
    let mut f = tournament_fields("裁判长判定赛", "Chief Arbiter Open");
    for (k, v) in fields {
        set(&mut f, k, v);
    }
    let r = c.submit("/t/new", "/t/new", &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    let tid: i32 = r.location().trim_start_matches("/t/").parse().unwrap();
    let players: Vec<OgPlayer<'static>> = FAMILIES.iter().take(n).map(|f| (*f, "棋手", "1D")).collect();
    let games: Vec<(u32, u32, usize, usize)> =
        (0..n / 2).map(|i| (1, i as u32 + 1, 2 * i, 2 * i + 1)).collect();
    import_og(c, tid, &og_xml(&players, &games, &[], 3));
    tid
}

/// A plain arbiter and a chief arbiter on the event's staff (the chief named as such).
fn arbiters(s: &Server, org: &Client, tid: i32) -> (Client, Client) {
    let (arb, a) = add_user(s, org, "arb", "arbiter");
    let (chief, c) = add_user(s, org, "chief", "arbiter");
    add_staff(org, tid, a, "arbiter");
    add_staff(org, tid, c, "arbiter");
    let r = org.submit(&format!("/t/{tid}"), &format!("/t/{tid}/chief"), &[("user_id", &c.to_string())]);
    assert_eq!(r.status, 303, "{}", r.body);
    (arb, chief)
}

fn ruling(c: &Client, tid: i32, gid: i32, fields: &[(&str, &str)]) -> Resp {
    let mut f = vec![("do", "save"), ("move_number", "120"), ("reason", "复盘不能达成一致")];
    f.extend_from_slice(fields);
    game_post(c, tid, gid, "rulings", &f)
}

fn page(c: &Client, tid: i32, gid: i32) -> Resp {
    c.get(&format!("/t/{tid}/games/{gid}"))
}

fn result_of(c: &Client, tid: i32, gid: i32) -> String {
    text_of(&page(c, tid, gid), "result").unwrap_or_default()
}

fn game_code(s: &Server, gid: i32) -> String {
    query_text(&s.db, &format!("SELECT result FROM games WHERE id = {gid}")).unwrap_or_default()
}

/// The public standings' score of the player whose name holds `family`.
fn score(c: &Client, tid: i32, family: &str) -> String {
    let rows = standings_page_at(c, &format!("/t/{tid}/standings"));
    rows.into_iter().find(|r| r.1.contains(family)).map(|r| r.3).unwrap_or_default()
}

/// The audit page's sentences about game `gid`.
fn audit_of(c: &Client, tid: i32, gid: i32) -> String {
    let r = c.get(&format!("/t/{tid}/audit?game={gid}"));
    assert_eq!(r.status, 200);
    plain_text(&r.body)
}

/// POST a proposal's confirm or reject button from the game page.
fn decide(c: &Client, tid: i32, gid: i32, rid: i64, what: &str) -> Resp {
    game_post(c, tid, gid, &format!("rulings/{rid}/{what}"), &[])
}

/// Seed 000 Arts. 17.5, 17.6 (裁判长可根据实际情况，判：和棋、重赛、双方均负): a plain arbiter's draw
/// is a proposal — shown as pending, counted in no result, standings or pairing — until the
/// chief arbiter confirms it; the arbiter cannot confirm it nor undo the chief's; the audit
/// names both. A rejected proposal is gone; a replay proposed creates no replay game; the
/// chief's own ruling stands at once; a plain arbiter cannot enter a draw as a result.
#[test]
fn a_plain_arbiters_draw_waits_for_the_chief_arbiter() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = setup(&org, 4, &[]);
    let (arb, chief) = arbiters(&s, &org, tid);
    let (g1, g2) = (game_id(&s.db, tid, 1, 1), game_id(&s.db, tid, 1, 2));
    let public = s.client();

    // The arbiter rules a draw: saved as a proposal.
    let r = ruling(&arb, tid, g1, &[("kind", "draw")]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert!(r.location().ends_with("saved=proposed"), "{}", r.location());
    let p = arb.get(&r.location());
    assert!(text_of(&p, "notice").is_some_and(|n| n.starts_with("Saved as a proposal")), "{}", p.body);
    let rid = query_opt(&s.db, &format!("SELECT id FROM rulings WHERE game_id = {g1}")).unwrap();
    assert!(text_of(&p, "pending-proposals").is_some(), "{}", p.body);
    assert!(text_of(&p, &format!("pending-{rid}")).is_some_and(|t| t.contains("chief arbiter")));
    assert_eq!(text_of(&p, "result").as_deref(), Some("no result yet"));
    assert!(!p.body.contains(&format!("id=\"confirm-{rid}\"")), "the arbiter has no confirm button");
    assert_eq!(query_opt(&s.db, &format!("SELECT pending FROM rulings WHERE id = {rid}")), Some(1));
    assert_eq!(game_code(&s, g1), "RESULT_UNKNOWN", "the pairing reads no result");
    assert_eq!(score(&public, tid, "赵"), "0", "the standings do not count it");
    let list = arb.get(&format!("/t/{tid}/results/rounds/1"));
    assert!(text_of(&list, &format!("proposal-{g1}")).is_some(), "flagged on the round's results");
    let player = public.get(&format!("/t/{tid}/players/{}", entrant_id(&s, tid, "赵")));
    assert!(!player.body.contains("复盘不能达成一致"), "a proposal is not public");

    // The arbiter can neither confirm nor reject it: 403, nothing written.
    for what in ["confirm", "reject"] {
        let r = decide(&arb, tid, g1, rid, what);
        assert_eq!(r.status, 403, "{what}: {}", r.body);
        assert!(r.body.contains("only by the chief arbiter"), "{}", r.body);
    }
    assert_eq!(query_opt(&s.db, &format!("SELECT pending FROM rulings WHERE id = {rid}")), Some(1));

    // The chief arbiter sees it pending with the buttons, and confirms: it counts now.
    let p = page(&chief, tid, g1);
    assert!(
        p.body.contains(&format!("id=\"confirm-{rid}\"")) && p.body.contains(&format!("id=\"reject-{rid}\""))
    );
    let r = decide(&chief, tid, g1, rid, "confirm");
    assert_eq!(r.status, 303, "{}", r.body);
    let p = page(&chief, tid, g1);
    assert_eq!(text_of(&p, "result").as_deref(), Some("Draw"));
    assert!(text_of(&p, "pending-proposals").is_none());
    assert!(text_of(&chief.get(&format!("/t/{tid}/results/rounds/1")), &format!("proposal-{g1}")).is_none());
    assert!(p.body.contains("confirmed by the chief arbiter chief"), "{}", p.body);
    assert_eq!(game_code(&s, g1), "RESULT_EQUAL");
    assert_eq!(score(&public, tid, "赵"), "1");
    assert_eq!(score(&public, tid, "钱"), "1");
    let audit = audit_of(&org, tid, g1);
    assert!(audit.contains("arb proposed a ruling in"), "{audit}");
    assert!(audit.contains("The chief arbiter chief confirmed a proposed ruling in"), "{audit}");
    assert!(audit.contains("draw against both sides at move 120 (proposed by arb)"), "{audit}");

    // The arbiter cannot undo the chief's draw, nor replace it by a result.
    let r = game_post(&arb, tid, g1, &format!("rulings/{rid}/delete"), &[]);
    assert_eq!(r.status, 403, "{}", r.body);
    let r =
        game_post(&arb, tid, g1, "result", &[("do", "save"), ("method", "resignation"), ("winner", "black")]);
    assert_eq!(r.status, 400, "the draw decides the game: {}", r.body);
    assert_eq!(result_of(&org, tid, g1), "Draw");

    // A replay proposed creates no replay game; rejected, it is gone, and the audit names both.
    let r = ruling(&arb, tid, g2, &[("kind", "replay")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let rid2 = query_opt(&s.db, &format!("SELECT id FROM rulings WHERE game_id = {g2}")).unwrap();
    assert_eq!(count_rows(&s.db, &format!("SELECT count(*) FROM games WHERE replay_of = {g2}")), 0);
    let r = decide(&chief, tid, g2, rid2, "reject");
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(count_rows(&s.db, &format!("SELECT count(*) FROM rulings WHERE game_id = {g2}")), 0);
    let audit = audit_of(&org, tid, g2);
    assert!(audit.contains("The chief arbiter chief rejected a proposed ruling in"), "{audit}");
    assert!(audit.contains("replay against both sides at move 120 (proposed by arb)"), "{audit}");
    // Gone: deciding it again finds nothing; a confirmed one is no proposal any more.
    assert_eq!(decide(&chief, tid, g2, rid2, "confirm").status, 404);
    assert_eq!(decide(&chief, tid, g1, rid, "reject").status, 409);
    assert_eq!(result_of(&org, tid, g1), "Draw");

    // A plain arbiter cannot enter a draw, a replay or a double loss as a result.
    for fields in [
        &[("method", "draw")][..],
        &[("method", "replay")][..],
        &[("method", "double_loss"), ("dl_reason", "stone_moved")][..],
    ] {
        let mut f = vec![("do", "save")];
        f.extend_from_slice(fields);
        let r = game_post(&arb, tid, g2, "result", &f);
        assert_eq!(r.status, 403, "{fields:?}: {}", r.body);
        assert!(r.body.contains("An arbiter proposes it under Rulings"), "{}", r.body);
    }
    assert_eq!(
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM results WHERE game_id = {g2} AND outcome IS NOT NULL")
        ),
        0
    );

    // The chief arbiter's own double loss stands at once, its cause named.
    let r = ruling(&chief, tid, g2, &[("kind", "double_loss.stone_moved")]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert!(r.location().ends_with("saved=1"));
    assert_eq!(result_of(&org, tid, g2), "Double loss (a moved stone, no agreement, Art. 17.5)");
    assert_eq!(game_code(&s, g2), "RESULT_BOTHLOSE");
    assert_eq!(
        count_rows(&s.db, &format!("SELECT count(*) FROM rulings WHERE game_id = {g2} AND pending")),
        0
    );
}

fn entrant_id(s: &Server, tid: i32, family: &str) -> i64 {
    query_opt(
        &s.db,
        &format!("SELECT id FROM entrants WHERE tournament_id = {tid} AND family_name_zh = '{family}'"),
    )
    .unwrap()
}

/// Seed 000 Art. 20: a triple ko or eternal life has nobody at fault. It is ruled with no side
/// (naming one is refused), as the event's setting says: no result by default (any arbiter:
/// the replay is created), a draw where the event chose it (then the chief arbiter's, Arts.
/// 17.5, 17.6). The setting is fixed once a round is published.
#[test]
fn a_cycle_is_ruled_with_no_guilty_side_by_the_events_setting() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = setup(&org, 4, &[]);
    let (arb, chief) = arbiters(&s, &org, tid);
    let g1 = game_id(&s.db, tid, 1, 1);
    let settings = org.get(&format!("/t/{tid}/settings"));
    assert!(settings.body.contains("value=\"no_result\" selected"), "the decisions table's default");

    // Naming a guilty side is refused, beside the side.
    let r = ruling(&arb, tid, g1, &[("offence", "cycle"), ("against", "black")]);
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.field_error("against").is_some_and(|e| e.contains("nobody at fault")), "{}", r.body);
    assert_eq!(count_rows(&s.db, &format!("SELECT count(*) FROM rulings WHERE game_id = {g1}")), 0);
    let r = ruling(&arb, tid, g1, &[("kind", "cycle"), ("against", "white")]);
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.field_error("against").is_some(), "{}", r.body);
    // With no side: no result, replayed; a plain arbiter rules it.
    let r = ruling(&arb, tid, g1, &[("offence", "cycle"), ("move_number", "233")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let p = page(&arb, tid, g1);
    assert_eq!(text_of(&p, "result").as_deref(), Some("No result"));
    assert!(text_of(&p, "effects").is_some_and(|e| e.contains("nobody at fault: no result")), "{}", p.body);
    assert_eq!(query_text(&s.db, &format!("SELECT against FROM rulings WHERE game_id = {g1}")), None);
    assert_eq!(count_rows(&s.db, &format!("SELECT count(*) FROM games WHERE replay_of = {g1}")), 1);

    // Round 1 is published: the setting cannot change.
    let mut f = tournament_fields("裁判长判定赛", "Chief Arbiter Open");
    set(&mut f, "version", &settings.input("version").unwrap());
    set(&mut f, "rounds", "3");
    set(&mut f, "cycle", "draw");
    let r = org.submit(&format!("/t/{tid}/settings"), &format!("/t/{tid}/settings"), &as_refs(&f));
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.field_error("cycle").is_some(), "{}", r.body);
    assert!(org.get(&format!("/t/{tid}/settings")).body.contains("value=\"no_result\" selected"));

    // An event that rules a cycle a draw: the arbiter's is a proposal; the chief confirms it.
    let other = tournament_with_players(
        &org,
        "循环劫和棋赛",
        "Cycle Draw Open",
        &[("colour_method", "balanced"), ("cycle", "draw")],
        4,
    );
    pair_round(&org, other, 1, "5");
    publish_round(&s, &org, other, 1);
    add_staff(
        &org,
        other,
        query_opt(&s.db, "SELECT id FROM users WHERE username = 'arb'").unwrap() as i32,
        "arbiter",
    );
    let c = query_opt(&s.db, "SELECT id FROM users WHERE username = 'chief'").unwrap();
    add_staff(&org, other, c as i32, "arbiter");
    let r = org.submit(&format!("/t/{other}"), &format!("/t/{other}/chief"), &[("user_id", &c.to_string())]);
    assert_eq!(r.status, 303);
    let h1 = game_id(&s.db, other, 1, 1);
    let r = ruling(&arb, other, h1, &[("offence", "cycle")]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert!(r.location().ends_with("saved=proposed"));
    assert_eq!(result_of(&arb, other, h1), "no result yet");
    let rid = query_opt(&s.db, &format!("SELECT id FROM rulings WHERE game_id = {h1}")).unwrap();
    assert_eq!(decide(&chief, other, h1, rid, "confirm").status, 303);
    assert_eq!(result_of(&chief, other, h1), "Draw");
    assert_eq!(count_rows(&s.db, &format!("SELECT count(*) FROM games WHERE replay_of = {h1}")), 0);
}

/// Seed 000 Arts. 17.5 (5), 17.6 (3); Arts. 22.3 and 23.1 of the 2002 rules: the five double
/// losses the forms offer each name their cause and article — in the ruling form, the result
/// form, the game page, the audit and the public result.
#[test]
fn each_double_loss_names_its_cause_and_article() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = setup(&org, 4, &[]);
    let g1 = game_id(&s.db, tid, 1, 1);
    let p = page(&org, tid, g1);
    let labels = |select: &str, prefix: &str| -> Vec<String> {
        let start = p.body.find(&format!("name=\"{select}\"")).unwrap();
        let end = start + p.body[start..].find("</select>").unwrap();
        p.body[start..end]
            .split("<option value=\"")
            .skip(1)
            .filter(|o| o.starts_with(prefix) && !o.starts_with('"'))
            .map(|o| plain_text(&o[o.find('>').unwrap() + 1..]))
            .collect()
    };
    let kinds = labels("kind", "double_loss.");
    let causes = labels("dl_reason", "");
    for list in [&kinds, &causes] {
        assert_eq!(list.len(), 5, "{list:?}");
        let distinct: std::collections::HashSet<&String> = list.iter().collect();
        assert_eq!(distinct.len(), 5, "five different words: {list:?}");
    }
    for art in ["Art. 17.5", "Art. 17.6", "Art. 22.3", "Art. 23.1"] {
        assert!(kinds.iter().any(|k| k.contains(art)), "{art}: {kinds:?}");
    }
    assert!(kinds.iter().any(|k| k.contains("another cause")), "{kinds:?}");

    // Entered by the organizer (no chief named: the organizer acts as one).
    enter(&org, tid, g1, &[("method", "double_loss"), ("dl_reason", "cheating")]);
    let shown = "Double loss (both cheated (a fake game, a gentlemen's agreement), Art. 23.1)";
    assert_eq!(result_of(&org, tid, g1), shown);
    assert!(audit_of(&org, tid, g1).contains(shown), "the audit names the cause");
    let public = s.client();
    let player = public.get(&format!("/t/{tid}/players/{}", entrant_id(&s, tid, "赵")));
    assert!(plain_text(&player.body).contains(shown), "{}", player.body);
    let zh = s.client().in_chinese();
    let player = zh.get(&format!("/t/{tid}/players/{}", entrant_id(&s, tid, "赵")));
    assert!(
        plain_text(&player.body).contains("双方均负（双方作弊（下假棋、君子协定），第23条第1款）"),
        "{}",
        player.body
    );
}

/// Seed 000 Art. 22.1 (late beyond the limit loses) and Art. 22.3 (both beyond it, both lose):
/// the verdicts the round's sheet shows are flagged on the results list and the results-entry
/// list while unrecorded, and recorded from the sheet once the arbiter confirms them — all of
/// the page's at once, one audit row each; a game changed meanwhile refuses the whole.
#[test]
fn lateness_beyond_the_limit_is_recorded_from_the_sheet() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = setup(&org, 6, &[]);
    let (arb, _) = arbiters(&s, &org, tid);
    let g: Vec<i32> = (1..=3).map(|b| game_id(&s.db, tid, 1, b)).collect();
    let who = |gid: i32, col: &str| {
        query_opt(&s.db, &format!("SELECT {col}_id FROM games WHERE id = {gid}")).unwrap().to_string()
    };
    // Board 1: Black 90 minutes late. Board 2: both beyond the hour. Board 3: Black 20 late.
    let sheet = format!("/t/{tid}/results/rounds/1/lateness");
    let (b1, b2, w2, b3) = (who(g[0], "black"), who(g[1], "black"), who(g[1], "white"), who(g[2], "black"));
    let fields = [
        ("version".to_string(), "0".to_string()),
        ("page".to_string(), "1".to_string()),
        ("starts_at".to_string(), "09:00".to_string()),
        (format!("arr_{b1}"), "10:30".to_string()),
        (format!("arr_{b2}"), "10:05".to_string()),
        (format!("arr_{w2}"), "10:20".to_string()),
        (format!("arr_{b3}"), "09:20".to_string()),
    ];
    let r = arb.submit(&sheet, &sheet, &as_refs(&fields));
    assert_eq!(r.status, 303, "{}", r.body);

    // Flagged while unrecorded: on the results list and on the results-entry list.
    let list = arb.get(&format!("/t/{tid}/results/rounds/1"));
    assert!(list.body.contains(&format!("id=\"late-pending-{}\"", g[0])), "{}", list.body);
    assert!(list.body.contains(&format!("id=\"late-pending-{}\"", g[1])));
    assert!(!list.body.contains(&format!("id=\"late-pending-{}\"", g[2])), "Black 20 minutes late plays");
    let rounds = arb.get(&format!("/t/{tid}/results/rounds"));
    assert_eq!(text_of(&rounds, "late-awaiting-1").as_deref(), Some("lateness verdicts not recorded: 2"));

    // The sheet lists them; recording needs the confirmation ticked.
    let page = arb.get(&sheet);
    let listed = text_of(&page, "late-record").unwrap_or_default();
    assert!(listed.contains("Lateness verdicts not recorded: 2"), "{listed}");
    assert!(
        listed.contains("loss (lateness)")
            && listed.contains("both players late beyond the limit, Art. 22.3"),
        "{listed}"
    );
    let (action, mut form) = page.form_inputs("late-record-form");
    form.retain(|(k, _)| k != "confirm");
    assert_eq!(form.iter().filter(|(k, _)| k == "g").count(), 2);
    let r = arb.post_form(&action, &as_refs(&form));
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.field_error("confirm").is_some(), "{}", r.body);
    assert_eq!(count_rows(&s.db, &format!("SELECT count(*) FROM rulings WHERE tournament_id = {tid}")), 0);

    // A game changed since the page was shown: nothing is recorded.
    let w = ruling(&arb, tid, g[0], &[("kind", "warning"), ("against", "white"), ("move_number", "0")]);
    assert_eq!(w.status, 303, "{}", w.body);
    form.push(("confirm".into(), "on".into()));
    let r = arb.post_form(&action, &as_refs(&form));
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("Nothing was recorded"), "{}", r.body);
    assert_eq!(count_rows(&s.db, &format!("SELECT count(*) FROM rulings WHERE game_id = {}", g[1])), 0);

    // From a fresh page, confirmed: both recorded, one audit row each.
    let (action, form) = arb.get(&sheet).form_inputs("late-record-form");
    assert!(form.contains(&("confirm".to_string(), "on".to_string())), "the box, ticked");
    let r = arb.post_form(&action, &as_refs(&form));
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(result_of(&arb, tid, g[0]), "W+F (lateness)");
    assert_eq!(result_of(&arb, tid, g[1]), "Double loss (both players late beyond the limit, Art. 22.3)");
    assert_eq!(result_of(&arb, tid, g[2]), "no result yet");
    assert_eq!(
        count_rows(&s.db, &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid} AND action = 'lateness' AND actor = 'arb'")),
        2
    );
    let list = arb.get(&format!("/t/{tid}/results/rounds/1"));
    assert!(!list.body.contains("late-pending-"), "nothing left to record");
    assert!(text_of(&arb.get(&format!("/t/{tid}/results/rounds")), "late-awaiting-1").is_none());
    assert!(text_of(&arb.get(&sheet), "late-record").is_none());
}

/// Seed 000 Art. 17.5's note (a computer pairing needs the round before complete, 编排时成绩一项
/// 不可空缺): pairing the next round while games of earlier rounds have no result asks for a
/// confirmation that says how many (a plural in English), and so does publishing it; the review
/// shows the warning; the confirmed warning is kept in the audit.
#[test]
fn pairing_and_publishing_over_open_games_ask_for_a_confirmation() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid =
        tournament_with_players(&org, "未完赛编排", "Open Games Open", &[("colour_method", "balanced")], 8);
    pair_round(&org, tid, 1, "11");
    publish_round(&s, &org, tid, 1);
    let games: Vec<i32> = (1..=4).map(|b| game_id(&s.db, tid, 1, b)).collect();
    enter(&org, tid, games[0], &[("method", "resignation"), ("winner", "black")]);
    enter(&org, tid, games[1], &[("method", "resignation"), ("winner", "white")]);
    let rounds = format!("/t/{tid}/rounds");

    // Two games open: a 422 with the confirmation, nothing paired.
    let r = org.submit(&rounds, &format!("{rounds}/2/pair"), &[("seed", "12")]);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        text_of(&r, "confirm").is_some_and(|t| t.contains("Round 1: 2 games have no result yet.")),
        "{}",
        r.body
    );
    assert_eq!(
        count_rows(&s.db, &format!("SELECT count(*) FROM rounds WHERE tournament_id = {tid} AND number = 2")),
        0
    );
    // One open: the singular; in Chinese, the count.
    enter(&org, tid, games[2], &[("method", "resignation"), ("winner", "white")]);
    let r = org.submit(&rounds, &format!("{rounds}/2/pair"), &[("seed", "12")]);
    assert_eq!(r.status, 422);
    assert!(r.body.contains("Round 1: 1 game has no result yet."), "{}", r.body);
    let zh = org.in_chinese();
    let r = zh.submit(&rounds, &format!("{rounds}/2/pair"), &[("seed", "12")]);
    assert!(r.body.contains("第1轮还有1局没有结果。"), "{}", r.body);

    // Confirmed from the form shown: paired, the warning kept in the audit and on the review.
    let (action, form) = r.form_inputs("confirm-form");
    assert_eq!(action, format!("{rounds}/2/pair"));
    assert!(form.contains(&("confirm".to_string(), "on".to_string())), "the box, ticked");
    let r = org.post_form(&action, &as_refs(&form));
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(
        count_rows(&s.db, &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid} AND action = 'pair' AND after LIKE '%OpenGames%'")),
        1
    );
    let draft = org.get(&format!("{rounds}/2"));
    assert!(!draft.body.contains("id=\"no-warnings\""), "{}", draft.body);
    assert!(text_of(&draft, "warnings").is_some_and(|w| w.contains("Round 1: 1 game has no result yet.")));

    // Publishing asks again; confirmed, it is published.
    let token = org.get(&format!("{rounds}/2")).csrf();
    let v = query(&s.db, &format!("SELECT version FROM rounds WHERE tournament_id = {tid} AND number = 2"))
        [0][0]
        .clone();
    let r = org.post_form(&format!("{rounds}/2/publish"), &[("csrf", &token), ("version", &v)]);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(text_of(&r, "confirm").is_some_and(|t| t.contains("1 game has no result yet")));
    assert_eq!(
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM rounds WHERE tournament_id = {tid} AND number = 2 AND published")
        ),
        0
    );
    let r = org
        .post_form(&format!("{rounds}/2/publish"), &[("csrf", &token), ("version", &v), ("confirm", "on")]);
    assert_eq!(r.status, 303, "{}", r.body);

    // Every result in: no warning of it before round 3.
    enter(&org, tid, games[3], &[("method", "resignation"), ("winner", "black")]);
    for b in 1..=4 {
        enter(&org, tid, game_id(&s.db, tid, 2, b), &[("method", "resignation"), ("winner", "black")]);
    }
    let r = org.submit(&rounds, &format!("{rounds}/3/pair"), &[("seed", "13")]);
    assert_eq!(r.status, 303, "{}", r.body);
}
