//! The pairing settings end to end, through the settings form: McMahon bar and
//! floor and a handicap rule give handicap games with their komi on the round page; a floor
//! above the bar is refused beside the field (en and zh) with nothing written; a published
//! round freezes bar, floor and handicaps; the nigiri holder variant decides who holds the
//! stones (remote nigiri too); the knockout rule for draws decides the next round.

use crate::common;
use common::*;

/// A tournament with the default fields changed by `changes`, and `n` entrants imported.
fn tournament(c: &Client, name: &str, changes: &[(&str, &str)], n: usize) -> i32 {
    tournament_with_players(c, name, "Pairing Settings Test", changes, n)
}

fn round_version(s: &Server, tid: i32, n: i32) -> String {
    query_opt(&s.db, &format!("SELECT version FROM rounds WHERE tournament_id = {tid} AND number = {n}"))
        .map(|v| v.to_string())
        .unwrap_or_default()
}

fn pair(c: &Client, s: &Server, tid: i32, n: i32, seed: &str) -> Resp {
    let token = c.get(&format!("/t/{tid}/rounds")).csrf();
    let v = round_version(s, tid, n);
    c.post_form(
        &format!("/t/{tid}/rounds/{n}/pair"),
        &[("csrf", &token), ("seed", seed), ("version", &v), ("confirm", "on")],
    )
}

fn publish(c: &Client, s: &Server, tid: i32, n: i32) {
    let token = c.get(&format!("/t/{tid}/rounds/{n}")).csrf();
    let v = round_version(s, tid, n);
    let r = c.post_form(&format!("/t/{tid}/rounds/{n}/publish"), &[("csrf", &token), ("version", &v)]);
    assert_eq!(r.status, 303, "{}", r.body);
}

/// Rank values of the entrants (Rank::value: 1d = 0, 1k = −1).
fn rank_of(s: &Server, id: i64) -> i64 {
    query_opt(&s.db, &format!("SELECT rank_value FROM entrants WHERE id = {id}")).unwrap()
}

/// (board, black, white, handicap, komi_q, colour method) of round `n`'s games (no byes).
fn games(s: &Server, tid: i32, n: i32) -> Vec<(i64, i64, i64, i64, i64, String)> {
    query(
        &s.db,
        &format!(
            "SELECT board, black_id, white_id, handicap, komi_q, colour_method FROM games \
             WHERE tournament_id = {tid} AND round_number = {n} AND white_id IS NOT NULL ORDER BY board"
        ),
    )
    .into_iter()
    .map(|r| {
        let n = |i: usize| r[i].parse::<i64>().unwrap();
        (n(0), n(1), n(2), n(3), n(4), r[5].clone())
    })
    .collect()
}

/// The cells of the row of table `board` on the round page.
fn row(page: &Resp, board: i64) -> &str {
    let at = page.body.find(&format!("id=\"game-{board}\"")).expect("the table's row");
    let rest = &page.body[at..];
    &rest[..rest.find("</tr>").unwrap()]
}

fn settings_json(s: &Server, tid: i32) -> (String, String) {
    let r = query(&s.db, &format!("SELECT pairing_rules, version FROM tournaments WHERE id = {tid}"));
    (r[0][0].clone(), r[0][1].clone())
}

#[test]
fn mcmahon_bar_floor_and_handicap_from_the_form_give_handicap_games_with_their_komi() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = tournament(
        &c,
        "让子测试赛",
        &[
            ("system", "mcmahon"),
            ("colour_method", "balanced"),
            ("mm_bar", "2段"),
            ("mm_floor", "2k"),
            ("handicap_basis", "rank"),
            ("handicap_reduction", "0"),
            ("handicap_max", "2"),
            ("handicap_none_at_bar", "on"),
        ],
        8,
    );
    // Stored, and shown back on the form.
    let (json, _) = settings_json(&s, tid);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!((v["mcmahon"]["bar"].as_str(), v["mcmahon"]["floor"].as_str()), (Some("2d"), Some("2k")));
    assert_eq!(v["handicap"]["basis"].as_str(), Some("rank"));
    let form = c.get(&format!("/t/{tid}/settings"));
    assert_eq!(form.input("mm_bar").as_deref(), Some("2d"));
    assert_eq!(form.input("handicap_max").as_deref(), Some("2"));
    assert!(form.body.contains("McMahon and handicaps"));
    // The tournament's page tells players the rule.
    let home = s.client().get(&format!("/t/{tid}"));
    assert_eq!(text_of(&home, "mcmahon").as_deref(), Some("bar 2d, floor 2k"), "{}", home.body);
    assert_eq!(
        text_of(&home, "handicap").as_deref(),
        Some("By rank difference, minus 0, at most 2 stones; none at or above the McMahon bar")
    );

    assert_eq!(pair(&c, &s, tid, 1, "20261205").status, 303);
    let g = games(&s, tid, 1);
    assert_eq!(g.len(), 4);
    let page = c.get(&format!("/t/{tid}/rounds/1"));
    assert_eq!(page.status, 200);
    let (mut handicap_games, mut even_games) = (0, 0);
    for (board, black, white, handicap, komi_q, colours) in &g {
        let (rb, rw) = (rank_of(&s, *black), rank_of(&s, *white));
        // The rule: rank difference − 0, at most 2; even when a player is at or above 2d.
        let want = if rb >= 1 || rw >= 1 { 0 } else { (rb - rw).abs().min(2) };
        assert_eq!(*handicap, want, "table {board}: {rb} v {rw}");
        let cells = row(&page, *board);
        if want > 0 {
            handicap_games += 1;
            assert!(rb < rw, "the weaker takes Black");
            assert_eq!((*komi_q, colours.as_str()), (0, "handicap"));
            assert!(cells.contains(&format!("<td>{want}</td>\n  <td>0</td>")), "{cells}");
            assert!(cells.contains("handicap: weaker takes Black"), "{cells}");
        } else {
            even_games += 1;
            assert_eq!(*komi_q, 15);
            assert!(cells.contains("<td>0</td>\n  <td>3.75</td>"), "{cells}");
        }
    }
    assert!(handicap_games > 0 && even_games > 0, "{g:?}");
    // The review does not question the engine's own handicaps.
    assert!(!page.body.contains("handicap rule gives"), "{}", page.body);
    // McMahon scores start from bar and floor: 5d … 2d at the top (3 wins = 6), 3k with 2k (0).
    assert!(page.body.contains("5d · 6"), "{}", page.body);
    assert!(page.body.contains("3k · 0"), "{}", page.body);

    // Published, the handicaps are on the public pairings page too.
    publish(&c, &s, tid, 1);
    let public = s.client().get(&format!("/t/{tid}/pairings/1"));
    assert_eq!(public.status, 200);
    for (board, _, _, handicap, _, _) in g.iter().filter(|x| x.3 > 0) {
        let at = public.body.find(&format!("id=\"table-{board}\"")).unwrap();
        let cells = &public.body[at..at + public.body[at..].find("</tr>").unwrap()];
        assert!(cells.contains(&format!("<td class=\"wide\">{handicap}</td>")), "{cells}");
    }

    // A published round freezes bar, floor and handicap rule: 409, marked, nothing written.
    let before = settings_json(&s, tid);
    let path = format!("/t/{tid}/settings");
    let mut f = tournament_fields("让子测试赛", "Pairing Settings Test");
    for (k, v) in [
        ("system", "mcmahon"),
        ("colour_method", "balanced"),
        ("mm_bar", "1d"),
        ("mm_floor", "2k"),
        ("handicap_basis", "rank"),
        ("handicap_reduction", "1"),
        ("handicap_max", "2"),
        ("handicap_none_at_bar", "on"),
        ("version", &before.1),
    ] {
        set(&mut f, k, v);
    }
    let r = c.submit(&path, &path, &as_refs(&f));
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.field_error("mm_bar").is_some_and(|e| e.contains("round 1 is published")), "{}", r.body);
    assert!(r.field_error("handicap_basis").is_some(), "{}", r.body);
    assert_eq!(settings_json(&s, tid), before, "nothing written");
    // The knockout rules stay free (they only change rounds to come).
    set(&mut f, "mm_bar", "2d");
    set(&mut f, "handicap_reduction", "0");
    set(&mut f, "ko_draw", "lot");
    let r = c.submit(&path, &path, &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    assert!(settings_json(&s, tid).0.contains("\"on_draw\":\"lot\""));
}

#[test]
fn a_floor_above_the_bar_is_refused_beside_the_field_and_nothing_is_written() {
    let s = Server::start();
    let c = s.first_organizer();
    // Creating: 400, the message beside the floor, no tournament.
    let mut f = tournament_fields("下限测试赛", "Floor Test");
    set(&mut f, "system", "mcmahon");
    set(&mut f, "mm_bar", "5k");
    set(&mut f, "mm_floor", "1d");
    let r = c.submit("/t/new", "/t/new", &as_refs(&f));
    assert_eq!(r.status, 400, "{}", r.body);
    let msg = r.field_error("mm_floor").expect("a message beside the floor");
    assert!(msg.contains("floor is above the bar"), "{msg}");
    assert_eq!(r.input("mm_floor").as_deref(), Some("1d"), "the form keeps what was typed");
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM tournaments"), 0);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM audit WHERE entity = 'tournament'"), 0);

    // Updating, in Chinese: 400, the Chinese message, the stored settings unchanged.
    let tid = tournament(&c, "下限测试赛", &[("system", "mcmahon")], 0);
    let before = settings_json(&s, tid);
    let audits = count_rows(&s.db, "SELECT count(*) FROM audit WHERE entity = 'tournament'");
    let zh = c.in_chinese();
    let path = format!("/t/{tid}/settings");
    set(&mut f, "version", &before.1);
    let r = zh.submit(&path, &path, &as_refs(&f));
    assert_eq!(r.status, 400, "{}", r.body);
    let msg = r.field_error("mm_floor").expect("a message beside the floor");
    assert!(msg.contains("下限高于上限"), "{msg}");
    assert_eq!(settings_json(&s, tid), before);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM audit WHERE entity = 'tournament'"), audits);

    // Other refusals beside their fields: a rank that is not one, too many stones, a
    // McMahon-score handicap in a Swiss, handicaps in a round robin.
    let mut f = tournament_fields("下限测试赛", "Floor Test");
    set(&mut f, "version", &before.1);
    set(&mut f, "mm_bar", "5");
    set(&mut f, "handicap_max", "12");
    set(&mut f, "handicap_basis", "mcmahon_score");
    let r = c.submit(&path, &path, &as_refs(&f));
    assert_eq!(r.status, 400);
    for field in ["mm_bar", "handicap_max"] {
        assert!(r.field_error(field).is_some(), "no message beside {field}: {}", r.body);
    }
    set(&mut f, "mm_bar", "3d");
    set(&mut f, "handicap_max", "9");
    let r = c.submit(&path, &path, &as_refs(&f));
    assert_eq!(r.status, 400);
    assert!(r.field_error("handicap_basis").is_some_and(|e| e.contains("McMahon system")), "{}", r.body);
    set(&mut f, "system", "round_robin");
    set(&mut f, "handicap_basis", "rank");
    let r = c.submit(&path, &path, &as_refs(&f));
    assert_eq!(r.status, 400);
    assert!(r.field_error("handicap_basis").is_some(), "{}", r.body);
    assert_eq!(settings_json(&s, tid), before);
}

#[test]
fn the_nigiri_holder_setting_decides_who_holds_the_stones() {
    let s = Server::start();
    let c = s.first_organizer();
    // Ids rise as ranks fall: Art. 10 gives the stones to the smaller id (the higher rank),
    // the variant to the larger one.
    for (holder, reason, larger_holds) in
        [("art10", "higher rank", false), ("larger_number", "larger pairing number", true)]
    {
        let tid =
            tournament(&c, "猜先握子测试赛", &[("colour_method", "nigiri"), ("nigiri_holder", holder)], 4);
        assert_eq!(
            c.get(&format!("/t/{tid}/settings")).body.contains("selected>Larger pairing number"),
            larger_holds
        );
        assert_eq!(pair(&c, &s, tid, 1, "7").status, 303);
        let rows = query(
            &s.db,
            &format!(
                "SELECT id, nigiri_holder_id, nigiri_guesser_id, pairing_version FROM games \
                 WHERE tournament_id = {tid} AND round_number = 1 ORDER BY board"
            ),
        );
        assert_eq!(rows.len(), 2);
        for r in &rows {
            let (h, g): (i64, i64) = (r[1].parse().unwrap(), r[2].parse().unwrap());
            assert_eq!(h > g, larger_holds, "{holder}: holder {h}, guesser {g}");
        }
        let page = c.get(&format!("/t/{tid}/rounds/1"));
        assert!(page.body.contains(&format!("({reason})")), "{}", page.body);
        // A remote nigiri keeps the roles: the holder is the one the setting named.
        let token = page.csrf();
        let r = c.post_form(
            &format!("/t/{tid}/rounds/1/games/{}/remote-nigiri", rows[0][0]),
            &[("csrf", &token), ("pv", &rows[0][3])],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        let stored =
            query_text(&s.db, &format!("SELECT nigiri FROM games WHERE id = {}", rows[0][0])).unwrap();
        let rec: serde_json::Value = serde_json::from_str(&stored).unwrap();
        assert_eq!(rec["record"]["holder"].as_i64().unwrap().to_string(), rows[0][1]);
    }
}

#[test]
fn the_knockout_draw_rule_decides_the_next_round() {
    let s = Server::start();
    let c = s.first_organizer();
    for (rule, paired) in [("replay", false), ("higher_seed", true)] {
        let tid = tournament(
            &c,
            "淘汰和棋测试赛",
            &[("system", "knockout"), ("colour_method", "lots"), ("rounds", "2"), ("ko_draw", rule)],
            4,
        );
        assert_eq!(pair(&c, &s, tid, 1, "3").status, 303);
        publish(&c, &s, tid, 1);
        exec_sql(
            &s.db,
            &format!("UPDATE games SET result = 'RESULT_EQUAL' WHERE tournament_id = {tid} AND white_id IS NOT NULL"),
        );
        let r = pair(&c, &s, tid, 2, "4");
        if paired {
            assert_eq!(r.status, 303, "{}", r.body);
            // Seeds by rank: 5d (seed 1) and 4d (seed 2) advance from their drawn games.
            let g = games(&s, tid, 2);
            assert_eq!(g.len(), 1);
            let mut finalists = [rank_of(&s, g[0].1), rank_of(&s, g[0].2)];
            finalists.sort();
            assert_eq!(finalists, [3, 4], "{g:?}");
        } else {
            assert_eq!(r.status, 422, "the drawn matches are replayed first: {}", r.body);
            assert_eq!(
                count_rows(&s.db, &format!("SELECT count(*) FROM rounds WHERE tournament_id = {tid}")),
                1
            );
        }
    }
}
