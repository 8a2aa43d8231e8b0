//! Rounds end to end: pairing a Swiss from imported entrants, review warnings, a manual swap
//! that needs confirmation, publish and the public page, unpublish refused once a result
//! exists, nigiri at the board and remote, the double-loss lot, the OpenGotha round trip,
//! replayable seeds, attendance and fixed tables, round robin and knockout, and refusals.

use crate::common;
use common::*;
use std::collections::HashMap;

/// A tournament with the default fields changed by `changes`, and `n` entrants imported.
fn tournament(c: &Client, name: &str, changes: &[(&str, &str)], n: usize) -> i32 {
    tournament_with_players(c, name, "Rounds Test", changes, n)
}

fn version(s: &Server, tid: i32, n: i32) -> String {
    let v = query(&s.db, &format!("SELECT version FROM rounds WHERE tournament_id = {tid} AND number = {n}"));
    v.first().map(|r| r[0].clone()).unwrap_or_default()
}

/// POST the pairing of round `n` (a new draft, or the existing draft again) with `seed`.
fn pair(c: &Client, s: &Server, tid: i32, n: i32, seed: &str) -> Resp {
    let token = c.get(&format!("/t/{tid}/rounds")).csrf();
    let v = version(s, tid, n);
    c.post_form(
        &format!("/t/{tid}/rounds/{n}/pair"),
        &[("csrf", &token), ("seed", seed), ("version", &v), ("confirm", "on")],
    )
}

fn post_round(c: &Client, s: &Server, tid: i32, n: i32, action: &str, extra: &[(&str, &str)]) -> Resp {
    let token = c.get(&format!("/t/{tid}/rounds/{n}")).csrf();
    let v = version(s, tid, n);
    let mut f = vec![("csrf", token.as_str()), ("version", v.as_str())];
    f.extend_from_slice(extra);
    c.post_form(&format!("/t/{tid}/rounds/{n}/{action}"), &f)
}

/// (board, black id, white id, result) of a round, by table; byes have board 0 and no White.
fn games(s: &Server, tid: i32, n: i32) -> Vec<(i64, i64, Option<i64>, String)> {
    query(
        &s.db,
        &format!(
            "SELECT board, black_id, white_id, result FROM games WHERE tournament_id = {tid} AND round_number = {n} \
             ORDER BY board, id"
        ),
    )
    .into_iter()
    .map(|r| (r[0].parse().unwrap(), r[1].parse().unwrap(), r[2].parse().ok(), r[3].clone()))
    .collect()
}

/// An entrant's name as the (English) pages show it.
fn name_of(s: &Server, id: i64) -> String {
    query(
        &s.db,
        &format!("SELECT family_name_latin || ' ' || given_name_latin FROM entrants WHERE id = {id}"),
    )[0][0]
        .clone()
}

fn audit_count(s: &Server, tid: i32, action: &str) -> i64 {
    count_rows(
        &s.db,
        &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid} AND action = '{action}'"),
    )
}

#[test]
fn swiss_review_swap_publish_public_page_and_unpublish_refused_after_a_result() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = tournament(&c, "轮次测试赛", &[("colour_method", "balanced")], 8);

    let list = c.get(&format!("/t/{tid}/rounds"));
    assert_eq!(list.status, 200);
    assert!(list.body.contains("Pair round 1"), "{}", list.body);

    // Pair round 1 with a fresh seed: a draft, shown with its seed and the review.
    let r = pair(&c, &s, tid, 1, "");
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(r.location(), format!("/t/{tid}/rounds/1?done=pair"));
    let page = c.get(&r.location());
    assert_eq!(page.status, 200);
    let seed = query(
        &s.db,
        &format!("SELECT seed, CAST(published AS INTEGER), status FROM rounds WHERE tournament_id = {tid}"),
    );
    assert_eq!((seed[0][1].as_str(), seed[0][2].as_str()), ("0", "draft"));
    assert!(!seed[0][0].is_empty());
    assert!(
        page.body.contains(&format!("<code id=\"seed\">{}</code>", seed[0][0])),
        "the page shows the seed"
    );
    assert!(page.body.contains("Review"));
    assert!(page.body.contains("id=\"no-warnings\""), "{}", page.body);
    let g1 = games(&s, tid, 1);
    assert_eq!(g1.iter().map(|g| g.0).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
    assert_eq!(audit_count(&s, tid, "pair"), 1);
    // A draft is not public.
    let anon = s.client();
    assert_eq!(anon.get(&format!("/t/{tid}/pairings/1")).status, 404);

    // Publish: tables numbered, the public page shows it (no login, phone-friendly).
    let r = post_round(&c, &s, tid, 1, "publish", &[]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM rounds WHERE published AND status = 'published'"), 1);
    let public = anon.get(&format!("/t/{tid}/pairings/1"));
    assert_eq!(public.status, 200);
    assert!(public.body.contains("name=\"viewport\""));
    let g1 = games(&s, tid, 1);
    for (board, black, white, _) in &g1 {
        let row = format!("id=\"table-{board}\"");
        let at = public.body.find(&row).unwrap_or_else(|| panic!("{row} in {}", public.body));
        let rest = &public.body[at..];
        let rest = &rest[..rest.find("</tr>").unwrap()];
        assert!(rest.contains(&name_of(&s, *black)) && rest.contains(&name_of(&s, white.unwrap())), "{rest}");
    }
    assert!(anon.get(&format!("/t/{tid}/pairings")).body.contains(&format!("/t/{tid}/pairings/1")));
    // Anyone sees the seed and the lots; the round-1 halves replay from it.
    assert!(public.body.contains(&format!("<code id=\"seed\">{}</code>", seed[0][0])));
    assert_eq!(public.body.matches("✓ replayed").count(), 2, "{}", public.body);
    // The settings are frozen now, as for imported rounds.
    assert!(c.get(&format!("/t/{tid}/settings")).body.contains("1 round published"));

    // A result (the results pages come from another branch; the test writes it directly).
    exec_sql(
        &s.db,
        &format!(
            "UPDATE games SET result = 'RESULT_BLACKWINS' WHERE tournament_id = {tid} AND round_number = 1"
        ),
    );
    let r = post_round(&c, &s, tid, 1, "unpublish", &[]);
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("a result has been entered"), "{}", r.body);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM rounds WHERE published"), 1, "still published");

    // Round 2: no rematch, scores shown, explain view.
    assert_eq!(pair(&c, &s, tid, 2, "").status, 303);
    let g2 = games(&s, tid, 2);
    let met: Vec<(i64, i64)> = g1.iter().map(|g| (g.1.min(g.2.unwrap()), g.1.max(g.2.unwrap()))).collect();
    for g in &g2 {
        let w = g.2.unwrap();
        assert!(!met.contains(&(g.1.min(w), g.1.max(w))), "no rematch from the engine");
    }
    let (b, w) = (g2[0].1, g2[0].2.unwrap());
    let ex = c.get(&format!("/t/{tid}/rounds/2/explain?a={b}&b={w}"));
    assert_eq!(ex.status, 200);
    assert!(
        ex.body.contains("no rematch")
            && ex.body.contains("score gap")
            && ex.body.contains("Weight of the pair")
    );
    assert_eq!(c.get(&format!("/t/{tid}/rounds/2/explain?a={b}&b=999999")).status, 404);

    // A manual swap that makes a rematch: refused until confirmed, nothing written before.
    let p = g2[0].1;
    let o = met
        .iter()
        .find_map(|&(x, y)| {
            if x == p {
                Some(y)
            } else if y == p {
                Some(x)
            } else {
                None
            }
        })
        .unwrap();
    let q = g2[0].2.unwrap();
    let before = games(&s, tid, 2);
    let (qs, os) = (q.to_string(), o.to_string());
    let r = post_round(&c, &s, tid, 2, "swap", &[("swap_a", &qs), ("swap_b", &os)]);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body.contains("have met before"), "{}", r.body);
    assert!(r.body.contains("id=\"confirm\""));
    assert_eq!(games(&s, tid, 2), before, "nothing written without confirmation");
    let r = post_round(&c, &s, tid, 2, "swap", &[("swap_a", &qs), ("swap_b", &os), ("confirm", "on")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let after = games(&s, tid, 2);
    assert!(after.iter().any(|g| (g.1 == p && g.2 == Some(o)) || (g.1 == o && g.2 == Some(p))), "{after:?}");
    assert_eq!(audit_count(&s, tid, "swap"), 1);
    let page = c.get(&format!("/t/{tid}/rounds/2"));
    assert!(page.body.contains("id=\"warnings\"") && page.body.contains("have met before"));
    // A stale page is refused.
    let token = page.csrf();
    let r = c.post_form(
        &format!("/t/{tid}/rounds/2/swap"),
        &[("csrf", &token), ("version", "1"), ("swap_a", &qs), ("swap_b", &os)],
    );
    assert_eq!(r.status, 409, "{}", r.body);

    // Publishing a warned round needs confirmation too; then tables by score, then rank.
    assert_eq!(post_round(&c, &s, tid, 2, "publish", &[]).status, 422);
    assert_eq!(post_round(&c, &s, tid, 2, "publish", &[("confirm", "on")]).status, 303);
    let winners: Vec<i64> = g1.iter().map(|g| g.1).collect();
    let rank: HashMap<i64, i64> =
        query(&s.db, &format!("SELECT id, rank_value FROM entrants WHERE tournament_id = {tid}"))
            .into_iter()
            .map(|r| (r[0].parse().unwrap(), r[1].parse().unwrap()))
            .collect();
    let key = |g: &(i64, i64, Option<i64>, String)| {
        let w = g.2.unwrap();
        let score = |id| if winners.contains(&id) { 1 } else { 0 };
        (score(g.1).max(score(w)), rank[&g.1].max(rank[&w]))
    };
    let g2 = games(&s, tid, 2);
    assert_eq!(g2.iter().map(|g| g.0).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
    for pair in g2.windows(2) {
        assert!(key(&pair[0]) >= key(&pair[1]), "tables by score then rank: {g2:?}");
    }
    assert_eq!(audit_count(&s, tid, "publish"), 2);
    // Published: the pairing is locked.
    let r = post_round(&c, &s, tid, 2, "swap", &[("swap_a", &qs), ("swap_b", &os)]);
    assert_eq!(r.status, 409);
}

#[test]
fn nigiri_at_the_board_and_remote_with_the_seed_shown() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = tournament(&c, "猜先测试赛", &[("colour_method", "nigiri")], 4);
    assert_eq!(pair(&c, &s, tid, 1, "20261205").status, 303);
    assert_eq!(post_round(&c, &s, tid, 1, "publish", &[]).status, 303);
    let page = c.get(&format!("/t/{tid}/rounds/1"));
    assert!(page.body.contains("holds") && page.body.contains("guesses"), "{}", page.body);
    let rows = query(
        &s.db,
        &format!(
            "SELECT id, board, nigiri_holder_id, nigiri_guesser_id, pairing_version FROM games \
             WHERE tournament_id = {tid} AND round_number = 1 ORDER BY board"
        ),
    );
    assert_eq!(rows.len(), 2);
    // The public page says who holds and who guesses while the nigiri is to be done.
    assert!(s.client().get(&format!("/t/{tid}/pairings/1")).body.contains("holds"));

    // An arbiter records the nigiri of table 1: 17 stones, guess odd → the guesser is Black.
    let a = arbiter(&s, &c, tid, "judge");
    let (gid, holder, guesser, pv) = (&rows[0][0], &rows[0][2], &rows[0][3], &rows[0][4]);
    let token = a.get(&format!("/t/{tid}/rounds/1")).csrf();
    let url = format!("/t/{tid}/rounds/1/games/{gid}/nigiri");
    let r = a.post_form(&url, &[("csrf", &token), ("pv", pv), ("grab", "0"), ("guess", "odd")]);
    assert_eq!(r.status, 400);
    assert!(r.field_error(&format!("grab-{gid}")).is_some(), "{}", r.body);
    let r = a.post_form(&url, &[("csrf", &token), ("pv", pv), ("grab", "17"), ("guess", "odd")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let g = query(&s.db, &format!("SELECT black_id, white_id, nigiri FROM games WHERE id = {gid}"));
    assert_eq!((&g[0][0], &g[0][1]), (guesser, holder));
    assert!(g[0][2].contains("\"grab\":17"), "{}", g[0][2]);
    // The same form again is stale.
    assert_eq!(
        a.post_form(&url, &[("csrf", &token), ("pv", pv), ("grab", "17"), ("guess", "odd")]).status,
        409
    );

    // Remote nigiri of table 2, from the round's seed: shown with its seed, replayable.
    let gid2 = &rows[1][0];
    let r = a.post_form(
        &format!("/t/{tid}/rounds/1/games/{gid2}/remote-nigiri"),
        &[("csrf", &token), ("pv", &rows[1][4])],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let g = query(&s.db, &format!("SELECT black_id, nigiri FROM games WHERE id = {gid2}"));
    let rec: serde_json::Value = serde_json::from_str(&g[0][1]).unwrap();
    let seed = rec["record"]["seed"].as_u64().expect("a remote nigiri stores its seed");
    let page = a.get(&format!("/t/{tid}/rounds/1"));
    assert!(page.body.contains(&format!("<code class=\"nigiri-seed\">{seed}</code>")), "{}", page.body);
    // Anyone can replay it: the same roles and seed give the same grab, guess and colours.
    use admin::domain::draw::nigiri::{perform, NigiriRoles, RoleReason};
    let roles = NigiriRoles {
        holder: rows[1][2].parse().unwrap(),
        guesser: rows[1][3].parse().unwrap(),
        reason: RoleReason::HigherRank,
    };
    let again = perform(roles, seed);
    assert_eq!(again.grab, rec["record"]["grab"].as_u64().unwrap() as u32);
    assert_eq!(again.black.to_string(), g[0][0]);
    let round_seed: u64 =
        query(&s.db, &format!("SELECT seed FROM rounds WHERE tournament_id = {tid}"))[0][0].parse().unwrap();
    assert_eq!(seed, admin::domain::rounds::table_seed(round_seed, 2), "derived from the round's seed");
    let token = a.get(&format!("/t/{tid}/rounds/1")).csrf();
    let pv2 = query(&s.db, &format!("SELECT pairing_version FROM games WHERE id = {gid2}"))[0][0].clone();
    let r = a.post_form(
        &format!("/t/{tid}/rounds/1/games/{gid2}/remote-nigiri"),
        &[("csrf", &token), ("pv", &pv2)],
    );
    assert_eq!(r.status, 409, "performed once");
    assert_eq!(audit_count(&s, tid, "nigiri"), 1);
    assert_eq!(audit_count(&s, tid, "remote_nigiri"), 1);

    // Played colours swapped: recorded, pairing keeps the assigned colours.
    let pv2 = query(&s.db, &format!("SELECT pairing_version FROM games WHERE id = {gid2}"))[0][0].clone();
    let r = a.post_form(
        &format!("/t/{tid}/rounds/1/games/{gid2}/played-colours"),
        &[("csrf", &token), ("pv", &pv2), ("swapped", "on")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(count_rows(&s.db, &format!("SELECT played_swapped FROM games WHERE id = {gid2}")), 1);
    assert_eq!(
        g[0][0],
        query(&s.db, &format!("SELECT black_id FROM games WHERE id = {gid2}"))[0][0],
        "assigned stays"
    );

    // Arbiters record nigiri but do not pair or publish.
    let token = a.get(&format!("/t/{tid}/rounds")).csrf();
    assert_eq!(
        a.post_form(&format!("/t/{tid}/rounds/2/pair"), &[("csrf", &token), ("seed", "")]).status,
        403
    );
    assert_eq!(
        a.post_form(&format!("/t/{tid}/rounds/1/unpublish"), &[("csrf", &token), ("version", "1")]).status,
        403
    );
}

#[test]
fn double_loss_lot_for_the_next_round_is_shown_audited_and_not_in_standings() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = tournament(&c, "双败测试赛", &[("colour_method", "balanced")], 4);
    assert_eq!(pair(&c, &s, tid, 1, "7").status, 303);
    assert_eq!(post_round(&c, &s, tid, 1, "publish", &[]).status, 303);
    exec_sql(
        &s.db,
        &format!("UPDATE games SET result = CASE board WHEN 1 THEN 'RESULT_BOTHLOSE' ELSE 'RESULT_WHITEWINS' END WHERE tournament_id = {tid}"),
    );
    assert_eq!(pair(&c, &s, tid, 2, "8").status, 303);
    let dl = query(
        &s.db,
        &format!("SELECT id, nominal_winner_id, nominal_lot, result FROM games WHERE tournament_id = {tid} AND round_number = 1 AND board = 1"),
    );
    let (gid, winner, lot, result) = (&dl[0][0], &dl[0][1], &dl[0][2], &dl[0][3]);
    assert!(!winner.is_empty(), "a nominal winner was drawn");
    assert_eq!(result, "RESULT_BOTHLOSE", "the result stays a double loss");
    assert!(lot.contains("\"stream\":\"DoubleLoss\""), "{lot}");
    assert_eq!(
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM audit WHERE action = 'double_loss_lot' AND entity_id = {gid}")
        ),
        1
    );
    let page = c.get(&format!("/t/{tid}/rounds/2"));
    assert!(page.body.contains("id=\"double-loss\""), "{}", page.body);
    let name = name_of(&s, winner.parse().unwrap());
    let shown = &page.body[page.body.find("id=\"double-loss\"").unwrap()..];
    assert!(shown.contains(&format!("<td class=\"nominal\">{name}</td>")), "{shown}");
    assert!(shown.contains("replayed"));
    // Not in standings: the official points of the nominal winner stay 0; only the pairing
    // score counts the nominal win.
    let scores = &page.body[page.body.find("class=\"list scores\"").unwrap()..];
    let row = &scores[scores.find(&format!("<td>{name}</td>")).unwrap()..];
    let row = &row[..row.find("</tr>").unwrap()];
    assert!(row.contains("<td class=\"points\">0</td>"), "{row}");
    assert!(row.contains("<td class=\"pairing\">2") && row.contains("nominal win"), "{row}");
    // Pairing the draft again keeps the lot already drawn (no second draw).
    assert_eq!(pair(&c, &s, tid, 2, "9").status, 303);
    assert_eq!(query(&s.db, &format!("SELECT nominal_winner_id FROM games WHERE id = {gid}"))[0][0], *winner);
    assert_eq!(audit_count(&s, tid, "double_loss_lot"), 1);
}

#[test]
fn opengotha_export_reads_back_through_the_import() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = tournament(&c, "导出测试赛", &[("colour_method", "balanced")], 7);
    assert_eq!(pair(&c, &s, tid, 1, "11").status, 303);
    assert_eq!(post_round(&c, &s, tid, 1, "publish", &[]).status, 303);
    exec_sql(&s.db, &format!("UPDATE games SET result = 'RESULT_WHITEWINS' WHERE tournament_id = {tid} AND white_id IS NOT NULL"));
    assert_eq!(pair(&c, &s, tid, 2, "12").status, 303);
    assert_eq!(post_round(&c, &s, tid, 2, "publish", &[("confirm", "on")]).status, 303);
    exec_sql(&s.db, &format!("UPDATE games SET result = 'RESULT_BLACKWINS_BYDEF' WHERE tournament_id = {tid} AND round_number = 2 AND board = 1"));
    // A draft is not exported.
    assert_eq!(pair(&c, &s, tid, 3, "13").status, 303);

    let xml = c.get(&format!("/t/{tid}/export/opengotha.xml"));
    assert_eq!(xml.status, 200);
    assert!(xml.header("content-type").unwrap_or("").starts_with("application/xml"));
    assert!(xml.header("content-disposition").unwrap_or("").contains("attachment"));
    assert!(xml.body.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\""));
    assert!(xml.body.contains("<TournamentParameterSet>") && xml.body.contains("<ByePlayers>"));
    assert_eq!(s.client().get(&format!("/t/{tid}/export/opengotha.xml")).status, 303, "login first");

    let t2 = tournament(&c, "导入回读赛", &[], 0);
    let r = import_file(&c, t2, "opengotha", "export.xml", &xml.bytes);
    assert_eq!(r.status, 303, "{}", r.body);
    let sig = |t: i32| {
        let mut v = query(
            &s.db,
            &format!(
                "SELECT g.round_number, g.board, b.family_name_zh || b.given_name_zh, \
                 coalesce(w.family_name_zh || w.given_name_zh, ''), g.handicap, \
                 CASE g.result WHEN 'RESULT_UNKNOWN' THEN '' ELSE g.result END \
                 FROM games g JOIN entrants b ON b.id = g.black_id LEFT JOIN entrants w ON w.id = g.white_id \
                 JOIN rounds r ON r.tournament_id = g.tournament_id AND r.number = g.round_number \
                 WHERE g.tournament_id = {t} AND r.published"
            ),
        );
        v.sort();
        v
    };
    // The import writes "no result" as OpenGotha's RESULT_UNKNOWN, the pairing as ''.
    let (a, b) = (sig(tid), sig(t2));
    assert_eq!(a.len(), 8, "3 games and a bye in each of two rounds: {a:?}");
    assert_eq!(a, b);
    let people = |t: i32| {
        let mut v = query(&s.db, &format!("SELECT family_name_zh, given_name_zh, rank, unit, region FROM entrants WHERE tournament_id = {t}"));
        v.sort();
        v
    };
    assert_eq!(people(tid), people(t2));
}

#[test]
fn the_same_seed_gives_the_same_pairing() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = tournament(&c, "种子测试赛", &[], 8);
    assert_eq!(pair(&c, &s, tid, 1, "424242").status, 303);
    let first = games(&s, tid, 1);
    let draws = query(&s.db, &format!("SELECT draws FROM rounds WHERE tournament_id = {tid}"))[0][0].clone();
    // Pairing the draft again with the same seed: the same games and lots.
    assert_eq!(pair(&c, &s, tid, 1, "424242").status, 303);
    assert_eq!(games(&s, tid, 1), first);
    assert_eq!(query(&s.db, &format!("SELECT draws FROM rounds WHERE tournament_id = {tid}"))[0][0], draws);
    assert_eq!(audit_count(&s, tid, "repair"), 1);
    // Another tournament with the same entrants and the same seed: the same pairing by name.
    let t2 = tournament(&c, "种子测试赛二", &[], 8);
    assert_eq!(pair(&c, &s, t2, 1, "424242").status, 303);
    let names = |t: i32| -> Vec<(i64, String, String)> {
        games(&s, t, 1).into_iter().map(|g| (g.0, name_of(&s, g.1), name_of(&s, g.2.unwrap()))).collect()
    };
    assert_eq!(names(tid), names(t2));
    // A typed seed that is not a number is refused beside the field; nothing is paired.
    let t3 = tournament(&c, "种子测试赛三", &[], 8);
    let r = pair(&c, &s, t3, 1, "lucky");
    assert_eq!(r.status, 400);
    assert!(r.field_error("seed").is_some(), "{}", r.body);
    assert_eq!(count_rows(&s.db, &format!("SELECT count(*) FROM rounds WHERE tournament_id = {t3}")), 0);
}

#[test]
fn absent_players_are_not_paired_and_fixed_tables_are_kept() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = tournament(&c, "出席测试赛", &[("colour_method", "balanced")], 6);
    let ids: Vec<String> =
        query(&s.db, &format!("SELECT id FROM entrants WHERE tournament_id = {tid} ORDER BY id"))
            .into_iter()
            .map(|r| r[0].clone())
            .collect();
    let page = c.get(&format!("/t/{tid}/rounds/1/attendance"));
    assert_eq!(page.status, 200);
    let token = page.csrf();
    let fixed_key = format!("fixed-{}", ids[5]);
    let r = c.post_form(
        &format!("/t/{tid}/rounds/1/attendance"),
        &[("csrf", &token), ("absent", &ids[0]), ("absent", &ids[1]), (&fixed_key, "x")],
    );
    assert_eq!(r.status, 400);
    assert!(r.field_error(&fixed_key).is_some(), "{}", r.body);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM round_absences"), 0, "nothing written");
    let r = c.post_form(
        &format!("/t/{tid}/rounds/1/attendance"),
        &[("csrf", &token), ("absent", &ids[0]), ("absent", &ids[1]), (&fixed_key, "5")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(audit_count(&s, tid, "absent"), 2);
    assert_eq!(audit_count(&s, tid, "fixed_table"), 1);
    assert_eq!(pair(&c, &s, tid, 1, "5").status, 303);
    assert_eq!(post_round(&c, &s, tid, 1, "publish", &[]).status, 303);
    let g = games(&s, tid, 1);
    assert_eq!(g.len(), 2, "4 present players: {g:?}");
    let absent: Vec<i64> = vec![ids[0].parse().unwrap(), ids[1].parse().unwrap()];
    assert!(g.iter().all(|x| !absent.contains(&x.1) && !absent.contains(&x.2.unwrap())));
    let fixed: i64 = ids[5].parse().unwrap();
    let at = g.iter().find(|x| x.1 == fixed || x.2 == Some(fixed)).unwrap();
    assert_eq!(at.0, 5, "the fixed table is kept: {g:?}");
    // A late entrant joins from the next round.
    assert_eq!(add_entrant(&c, tid, "郑", "九", "1d").status, 303);
    assert_eq!(
        count_rows(
            &s.db,
            &format!("SELECT first_round FROM entrants WHERE tournament_id = {tid} AND given_name_zh = '九'")
        ),
        2
    );
}

#[test]
fn round_robin_schedule_and_knockout_bracket() {
    let s = Server::start();
    let c = s.first_organizer();
    let rr = tournament(
        &c,
        "循环测试赛",
        &[("system", "round_robin"), ("colour_method", "balanced"), ("rounds", "5")],
        4,
    );
    let token = c.get(&format!("/t/{rr}/rounds")).csrf();
    let r = c.post_form(&format!("/t/{rr}/rounds/schedule"), &[("csrf", &token), ("seed", "3")]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM rounds WHERE tournament_id = {rr} AND NOT published")
        ),
        3
    );
    let mut pairs = std::collections::HashSet::new();
    for n in 1..=3 {
        for g in games(&s, rr, n) {
            let w = g.2.unwrap();
            assert!(pairs.insert((g.1.min(w), g.1.max(w))), "each pair meets once");
        }
        // Rounds 2 and 3 are published before round 1 is played: confirmed (the review warns
        // of the games without a result).
        assert_eq!(post_round(&c, &s, rr, n, "publish", &[("confirm", "on")]).status, 303);
    }
    assert_eq!(pairs.len(), 6);

    let ko = tournament(
        &c,
        "淘汰测试赛",
        &[("system", "knockout"), ("colour_method", "lots"), ("rounds", "3")],
        6,
    );
    assert_eq!(pair(&c, &s, ko, 1, "4").status, 303);
    let g1 = games(&s, ko, 1);
    assert_eq!(g1.iter().filter(|g| g.2.is_none()).count(), 2, "byes to the two top seeds: {g1:?}");
    assert_eq!(post_round(&c, &s, ko, 1, "publish", &[]).status, 303);
    // Undecided matches stop the next round.
    let r = pair(&c, &s, ko, 2, "5");
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body.contains("no decisive result"), "{}", r.body);
    exec_sql(&s.db, &format!("UPDATE games SET result = 'RESULT_WHITEWINS' WHERE tournament_id = {ko} AND white_id IS NOT NULL"));
    assert_eq!(pair(&c, &s, ko, 2, "5").status, 303);
    let winners: Vec<i64> = g1.iter().filter_map(|g| g.2).collect();
    let byes: Vec<i64> = g1.iter().filter(|g| g.2.is_none()).map(|g| g.1).collect();
    let g2 = games(&s, ko, 2);
    assert_eq!(g2.len(), 2);
    for g in &g2 {
        let both = [g.1, g.2.unwrap()];
        assert!(both.iter().all(|x| winners.contains(x) || byes.contains(x)), "winners advance: {g2:?}");
    }
}

#[test]
fn round_routes_need_login_role_and_csrf_and_unknown_ids_are_404() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = tournament(&c, "权限测试赛", &[], 4);
    let anon = s.client();
    assert_eq!(anon.get(&format!("/t/{tid}/rounds")).status, 303, "login first");
    assert_eq!(anon.get(&format!("/t/{tid}/pairings")).status, 200, "public");
    let t = anon.get("/login").csrf();
    assert_eq!(
        anon.post_form(&format!("/t/{tid}/rounds/1/pair"), &[("csrf", &t), ("seed", "")]).status,
        401,
        "a write without login is refused"
    );
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM rounds"), 0);

    // No token, a wrong token, another origin: refused, nothing written.
    assert_eq!(c.post_form(&format!("/t/{tid}/rounds/1/pair"), &[("seed", "")]).status, 403);
    assert_eq!(
        c.post_form(&format!("/t/{tid}/rounds/1/pair"), &[("csrf", "nope"), ("seed", "")]).status,
        403
    );
    let mut evil = Client::new(&s.base);
    evil.cookies = c.cookies.clone();
    evil.origin = Some("http://evil.example".into());
    let token = c.get(&format!("/t/{tid}/rounds")).csrf();
    assert_eq!(
        evil.post_form(&format!("/t/{tid}/rounds/1/pair"), &[("csrf", &token), ("seed", "")]).status,
        403
    );
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM rounds"), 0);

    // Only the next round; unknown tournaments, rounds and games are 404.
    let r = c.post_form(&format!("/t/{tid}/rounds/2/pair"), &[("csrf", &token), ("seed", "")]);
    assert_eq!(r.status, 409);
    assert!(r.body.contains("Only the next round"), "{}", r.body);
    assert_eq!(c.get("/t/99999/rounds").status, 404);
    assert_eq!(c.get(&format!("/t/{tid}/rounds/7")).status, 404);
    assert_eq!(c.get(&format!("/t/{tid}/pairings/1")).status, 404);
    assert_eq!(c.get(&format!("/t/{tid}/rounds/x")).status, 404);
    assert_eq!(pair(&c, &s, tid, 1, "1").status, 303);
    let token = c.get(&format!("/t/{tid}/rounds/1")).csrf();
    let r = c.post_form(
        &format!("/t/{tid}/rounds/1/games/999999/nigiri"),
        &[("csrf", &token), ("pv", "1"), ("grab", "3"), ("guess", "odd")],
    );
    assert_eq!(r.status, 404);
    let r = c.post_form(&format!("/t/{tid}/rounds/1/publish"), &[("csrf", &token), ("version", "abc")]);
    assert_eq!(r.status, 400);

    // An arbiter sees the rounds and exports, but changes no pairing.
    let a = arbiter(&s, &c, tid, "judge");
    assert_eq!(a.get(&format!("/t/{tid}/rounds/1")).status, 200);
    assert_eq!(a.get(&format!("/t/{tid}/export/opengotha.xml")).status, 200);
    let at = a.get(&format!("/t/{tid}/rounds/1")).csrf();
    let v = version(&s, tid, 1);
    for action in ["publish", "delete", "swap", "edit", "pair"] {
        let r = a.post_form(&format!("/t/{tid}/rounds/1/{action}"), &[("csrf", &at), ("version", &v)]);
        assert_eq!(r.status, 403, "{action}");
    }
    assert_eq!(a.get(&format!("/t/{tid}/rounds/1/attendance")).status, 403);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM rounds WHERE published"), 0);
}

/// The `<td>` of the games table that holds player `id` (by its `data-id`), as HTML.
fn player_cell(body: &str, id: &str) -> String {
    let at = body.find(&format!("data-id=\"{id}\"")).unwrap_or_else(|| panic!("no cell for {id}: {body}"));
    let cell = &body[at..];
    cell[..cell.find("</td>").unwrap()].to_string()
}

/// Seed 000 Art. 17.5 (the lot fallback of a double loss, rules.md §12): the lot's nominal
/// winner is paired as a winner in the next round, never counted as one. A double loss entered
/// through the result form, round 2 paired through the rounds page: beside each name the round
/// page shows the score standings count — 0 for both double losers, the nominal winner too —
/// and the nominal winner's pairing score only marked as such, in both languages; the explain
/// page's pairing score carries the same mark.
#[test]
fn the_round_page_shows_the_real_score_and_marks_the_nominal_one() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = tournament(&c, "名义胜测试赛", &[("colour_method", "balanced")], 4);
    assert_eq!(pair(&c, &s, tid, 1, "21").status, 303);
    assert_eq!(post_round(&c, &s, tid, 1, "publish", &[]).status, 303);
    let (g1, g2) = (game_id(&s.db, tid, 1, 1), game_id(&s.db, tid, 1, 2));
    enter(&c, tid, g1, &[("method", "double_loss"), ("dl_reason", "stone_moved")]);
    enter(&c, tid, g2, &[("method", "resignation"), ("winner", "black")]);
    assert_eq!(pair(&c, &s, tid, 2, "22").status, 303);
    let dl =
        query(&s.db, &format!("SELECT black_id, white_id, nominal_winner_id FROM games WHERE id = {g1}"));
    let (black, white, winner) = (&dl[0][0], &dl[0][1], &dl[0][2]);
    assert!(winner == black || winner == white, "the lot named a nominal winner: {dl:?}");
    let loser = if winner == black { white } else { black };
    let won = query(&s.db, &format!("SELECT black_id, white_id FROM games WHERE id = {g2}"));
    let (won, lost) = (&won[0][0], &won[0][1]);
    let r2 = query(
        &s.db,
        &format!("SELECT black_id, white_id FROM games WHERE tournament_id = {tid} AND round_number = 2 AND (black_id = {winner} OR white_id = {winner})"),
    );
    let opponent = if &r2[0][0] == winner { &r2[0][1] } else { &r2[0][0] };

    for (lang, mark, nominal_mark) in [
        ("en", "(paired as 2: includes a nominal win)", "includes a nominal win"),
        ("zh", "（编排按2分，含名义胜局）", "含名义胜局"),
    ] {
        assert_eq!(c.get(&format!("/lang/{lang}?next=/")).status, 303);
        let page = c.get(&format!("/t/{tid}/rounds/2"));
        assert_eq!(page.status, 200);
        let nominal = player_cell(&page.body, winner);
        assert!(nominal.contains(" · 0 <em class=\"nominal\">"), "the real score, 0: {nominal}");
        assert!(nominal.contains(mark), "the pairing score marked nominal: {nominal}");
        for (id, score) in [(loser, "0"), (won, "2"), (lost, "0")] {
            let cell = player_cell(&page.body, id);
            assert!(cell.contains(&format!(" · {score}</small>")), "{id}: {cell}");
            assert!(!cell.contains("nominal"), "{id}: {cell}");
        }
        // The explain page's pairing score: 2, marked.
        let ex = c.get(&format!("/t/{tid}/rounds/2/explain?a={winner}&b={opponent}"));
        assert_eq!(ex.status, 200, "{}", ex.body);
        let want = format!("<td class=\"score\">2 <small class=\"nominal\">{nominal_mark}</small>");
        assert!(ex.body.contains(&want), "{}", ex.body);
    }
}
