//! McMahon standings (rules.md decisions, "McMahon standings"): a McMahon event ranks by
//! McMahon score, then SOS and SOSOS on McMahon scores, never by games won first — from the
//! new-event form, from a change of system before round 1, and from an OpenGotha import. An
//! event saved earlier with the Swiss order is flagged on its settings page and offered the
//! McMahon order; its standings change only when the organizer saves it.

use crate::common;
use common::*;
use std::collections::HashMap;

/// The four players of the scenario: (family name, given name, rank as typed, strength).
const FIELD: [(&str, &str, &str, i32); 4] = [
    ("强", "五段", "5段", 5),
    ("高", "四段", "4段", 4),
    ("中", "十二级", "12级", -12),
    ("弱", "十五级", "15级", -15),
];

/// The strength of each entrant of `tid`, by id (from the family names of [`FIELD`]).
fn strengths(s: &Server, tid: i32) -> HashMap<String, i32> {
    query(&s.db, &format!("SELECT id, family_name_zh FROM entrants WHERE tournament_id = {tid}"))
        .into_iter()
        .map(|r| (r[0].clone(), FIELD.iter().find(|f| f.0 == r[1]).map(|f| f.3).expect("a player of FIELD")))
        .collect()
}

/// Pairs and publishes round `n`, then enters every game as won by the weaker player.
fn play_round_weaker_wins(s: &Server, c: &Client, tid: i32, n: u32) {
    pair_round(c, tid, n, "11");
    publish_round(s, c, tid, n);
    let strength = strengths(s, tid);
    let games = query(
        &s.db,
        &format!(
            "SELECT id, black_id, white_id FROM games WHERE tournament_id = {tid} AND round_number = {n} \
             AND white_id IS NOT NULL"
        ),
    );
    assert_eq!(games.len(), 2, "four players, two games");
    for g in games {
        let winner = if strength[&g[1]] < strength[&g[2]] { "black" } else { "white" };
        enter(c, tid, g[0].parse().unwrap(), &[("method", "resignation"), ("winner", winner)]);
    }
}

/// The names in the order of the public standings page.
fn standings_order(c: &Client, tid: i32) -> Vec<String> {
    standings_page_at(c, &format!("/t/{tid}/standings")).into_iter().map(|r| r.1).collect()
}

/// Whether `above` stands above `below` on the public standings page.
fn stands_above(c: &Client, tid: i32, above: &str, below: &str) -> bool {
    let order = standings_order(c, tid);
    let at = |n: &str| order.iter().position(|x| x == n).unwrap_or_else(|| panic!("{n} in {order:?}"));
    at(above) < at(below)
}

fn tiebreaks_of(s: &Server, tid: i32) -> String {
    query_text(&s.db, &format!("SELECT tiebreaks FROM tournaments WHERE id = {tid}")).unwrap()
}

const MCMAHON_ORDER: &str = "mcmahon,sosm,sososm,direct,fewer_warnings,lots";

/// rules.md decisions, "McMahon standings": a McMahon event made through the new-event form,
/// its tie-break list left as the form shows it, ranks by McMahon score. 5d, 4d, 12k and 15k,
/// the weaker player winning every game of two rounds: the 15k with two wins stays below the
/// 5d with none.
#[test]
fn a_mcmahon_event_from_the_form_ranks_by_mcmahon_score() {
    let s = Server::start();
    let c = s.first_organizer().in_chinese();
    let (action, mut f) = c.get("/t/new").form_as_shown("settings-form");
    for (k, v) in
        [("name_zh", "麦克马洪测试赛"), ("system", "mcmahon"), ("rounds", "2"), ("colour_method", "lots")]
    {
        set(&mut f, k, v);
    }
    let r = c.post_form(&action, &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    let tid: i32 = r.location().trim_start_matches("/t/").parse().unwrap();
    assert_eq!(tiebreaks_of(&s, tid), MCMAHON_ORDER, "the list follows the system chosen");
    for (family, given, rank, _) in FIELD {
        assert_eq!(add_entrant(&c, tid, family, given, rank).status, 303);
    }
    play_round_weaker_wins(&s, &c, tid, 1);
    play_round_weaker_wins(&s, &c, tid, 2);
    assert!(stands_above(&c, tid, "强五段", "弱十五级"), "{:?}", standings_order(&c, tid));
    let page = c.get(&format!("/t/{tid}/standings"));
    assert!(page.body.contains("麦克马洪分 → 对手麦克马洪分 → 对手的对手麦克马洪分"), "{}", page.body);
    // The settings page raises no flag: the order starts from the McMahon score.
    let settings = c.get(&format!("/t/{tid}/settings"));
    assert!(!settings.body.contains("id=\"mcmahon-by-games\""), "{}", settings.body);
}

/// rules.md decisions, "McMahon standings": before round 1 the settings form's list follows a
/// change of system while it is the old system's own; a list the organizer chose stays.
#[test]
fn the_settings_form_follows_a_change_of_system_unless_the_list_was_chosen() {
    let s = Server::start();
    let c = s.first_organizer().in_chinese();
    let (action, mut f) = c.get("/t/new").form_as_shown("settings-form");
    set(&mut f, "name_zh", "改赛制测试赛");
    let r = c.post_form(&action, &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    let tid: i32 = r.location().trim_start_matches("/t/").parse().unwrap();
    assert_eq!(tiebreaks_of(&s, tid), "score,sos,cumulative,direct,wins,fewer_warnings,lots");
    let path = format!("/t/{tid}/settings");
    let (action, mut f) = c.get(&path).form_as_shown("settings-form");
    set(&mut f, "system", "mcmahon");
    assert_eq!(c.post_form(&action, &as_refs(&f)).status, 303);
    assert_eq!(tiebreaks_of(&s, tid), MCMAHON_ORDER);
    // Back to Swiss, the McMahon list untouched: the Swiss order again.
    let (action, mut f) = c.get(&path).form_as_shown("settings-form");
    set(&mut f, "system", "swiss");
    assert_eq!(c.post_form(&action, &as_refs(&f)).status, 303);
    assert_eq!(tiebreaks_of(&s, tid), "score,sos,cumulative,direct,wins,fewer_warnings,lots");
    // A list the organizer chose stays, whatever the system.
    let (action, mut f) = c.get(&path).form_as_shown("settings-form");
    f.retain(|(k, _)| k != "tiebreak");
    for t in ["score", "sb", "lots"] {
        f.push(("tiebreak".into(), t.into()));
    }
    assert_eq!(c.post_form(&action, &as_refs(&f)).status, 303);
    let (action, mut f) = c.get(&path).form_as_shown("settings-form");
    set(&mut f, "system", "mcmahon");
    let r = c.post_form(&action, &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(tiebreaks_of(&s, tid), "score,sb,lots");
    // …and the page then says this McMahon event ranks by games won first.
    let page = c.get(&path);
    assert!(page.body.contains("id=\"mcmahon-by-games\""), "{}", page.body);
}

/// rules.md decisions, "McMahon standings": a McMahon event stored with the Swiss order (made
/// before the McMahon order was its default) keeps its published standings; its settings page
/// says it ranks by games won first and offers the McMahon order, which changes the standings
/// only once the organizer saves it (with an audit row).
#[test]
fn an_old_mcmahon_event_on_the_swiss_order_is_flagged_not_rewritten() {
    let s = Server::start();
    let c = s.first_organizer().in_chinese();
    // Every field posted as an older page did: the Swiss list, no follow marker.
    let tid = tournament_with_players(
        &c,
        "旧麦克马洪赛",
        "Old McMahon",
        &[("system", "mcmahon"), ("rounds", "2"), ("colour_method", "lots")],
        0,
    );
    assert_eq!(tiebreaks_of(&s, tid), "score,sos,cumulative,direct,wins,fewer_warnings,lots");
    for (family, given, rank, _) in FIELD {
        assert_eq!(add_entrant(&c, tid, family, given, rank).status, 303);
    }
    play_round_weaker_wins(&s, &c, tid, 1);
    play_round_weaker_wins(&s, &c, tid, 2);
    assert!(stands_above(&c, tid, "弱十五级", "强五段"), "games won first: {:?}", standings_order(&c, tid));
    let path = format!("/t/{tid}/settings");
    let page = c.get(&path);
    let flag = text_of(&page, "mcmahon-by-games").expect("the flag");
    assert!(flag.contains("麦克马洪分") && flag.contains("填入麦克马洪顺序"), "{flag}");
    // Reading the settings again changes nothing.
    assert_eq!(tiebreaks_of(&s, tid), "score,sos,cumulative,direct,wins,fewer_warnings,lots");
    let offered = c.get(&format!("{path}?order=mcmahon"));
    assert!(text_of(&offered, "notice").is_some_and(|n| n.contains("2 轮")), "{}", offered.body);
    assert_eq!(
        tiebreaks_of(&s, tid),
        "score,sos,cumulative,direct,wins,fewer_warnings,lots",
        "not saved yet"
    );
    let audits = count_rows(&s.db, &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid}"));
    let (action, mut f) = offered.form_as_shown("settings-form");
    set(&mut f, "reason", "按麦克马洪分排名");
    let r = c.post_form(&action, &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(tiebreaks_of(&s, tid), MCMAHON_ORDER);
    assert_eq!(
        count_rows(&s.db, &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid}")),
        audits + 1
    );
    assert!(stands_above(&c, tid, "强五段", "弱十五级"), "{:?}", standings_order(&c, tid));
    assert!(!c.get(&path).body.contains("id=\"mcmahon-by-games\""));
}

/// An OpenGotha McMahon file (the parameter set of a real OpenGotha 3.51 file, simplemm.xml:
/// MMS, SOSM, SOSOSM) with the scenario's four players and two rounds played.
fn mcmahon_file() -> String {
    let real = include_str!("../../admin/tests/fixtures/opengotha/simplemm.xml");
    let params = &real[real.find("<TournamentParameterSet>").unwrap()
        ..real.find("</TournamentParameterSet>").unwrap() + "</TournamentParameterSet>".len()];
    let key = |i: usize| format!("{}{}", FIELD[i].0, FIELD[i].1);
    let rank = |strength: i32| match strength {
        d if d > 0 => format!("{d}D"),
        k => format!("{}K", -k),
    };
    let mut x = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<Tournament dataVersion=\"201\" fullVersionNumber=\"3.51\">\n<Players>\n",
    );
    for (family, given, _, strength) in FIELD {
        x.push_str(&format!(
            "<Player club=\"北京棋院\" country=\"CN\" firstName=\"{given}\" name=\"{family}\" participating=\"11111111111111111111\" rank=\"{}\" registeringStatus=\"FIN\"/>\n",
            rank(strength)
        ));
    }
    x.push_str("</Players>\n<Games>\n");
    // Round 1: 5d–4d and 12k–15k; round 2: 5d–12k and 4d–15k; White, the weaker, wins each.
    for (round, table, b, w) in [(1, 1, 0, 1), (1, 2, 2, 3), (2, 1, 0, 2), (2, 2, 1, 3)] {
        x.push_str(&format!(
            "<Game blackPlayer=\"{}\" handicap=\"0\" knownColor=\"true\" result=\"RESULT_WHITEWINS\" roundNumber=\"{round}\" tableNumber=\"{table}\" whitePlayer=\"{}\"/>\n",
            key(b),
            key(w)
        ));
    }
    x.push_str("</Games>\n");
    x.push_str(params);
    x.push_str("\n</Tournament>\n");
    x
}

/// rules.md decisions, "McMahon standings": an OpenGotha McMahon file (MMS, SOSM, SOSOSM)
/// imported through the import page ranks by McMahon score: the preview names the order, and
/// the 15k with two wins stays below the 5d with none.
#[test]
fn a_mcmahon_import_ranks_by_mcmahon_score() {
    let s = Server::start();
    let c = s.first_organizer().in_chinese();
    let tid = create_tournament(&c, "导入麦克马洪赛");
    let token = c.get(&format!("/t/{tid}/import")).csrf();
    let xml = mcmahon_file();
    let p = c.post_file(
        &format!("/t/{tid}/import/opengotha"),
        &[("csrf", &token)],
        "file",
        "mm.xml",
        xml.as_bytes(),
    );
    assert_eq!(p.status, 200, "{}", p.body);
    assert!(p.body.contains("麦克马洪分 → 对手麦克马洪分 → 对手的对手麦克马洪分 → 抽签"), "{}", p.body);
    assert!(!text_of(&p, "not-imported").unwrap_or_default().contains("名次区分"), "every criterion kept");
    let payload = p.input("payload").unwrap();
    let r = c.post_form(
        &format!("/t/{tid}/import/opengotha/confirm"),
        &[("csrf", &p.csrf()), ("payload", &payload)],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(
        query_text(&s.db, &format!("SELECT system FROM tournaments WHERE id = {tid}")).as_deref(),
        Some("mcmahon")
    );
    assert_eq!(tiebreaks_of(&s, tid), "mcmahon,sosm,sososm,lots");
    assert!(stands_above(&c, tid, "强五段", "弱十五级"), "{:?}", standings_order(&c, tid));
    assert!(!c.get(&format!("/t/{tid}/settings")).body.contains("id=\"mcmahon-by-games\""));
}
