//! Team-relay events over HTTP, shared by the team, clock and crawl tests: one place for the
//! team settings form's fields, so a new field is added once.

use super::{new_tournament, query, set, tournament_fields, Client, Resp, Server};

/// A team-relay tournament (the team system, the relay rule set: komi 3½) made through the
/// new-tournament form; `extra` overrides or adds form fields (dates, say). Returns its id.
pub fn relay_tournament(
    c: &Client,
    name_zh: &str,
    name_latin: &str,
    rounds: &str,
    extra: &[(&str, &str)],
) -> i32 {
    let mut f = tournament_fields(name_zh, name_latin);
    for (k, v) in
        [("system", "team_relay"), ("preset", "chinese_team_relay"), ("komi", "3.5"), ("rounds", rounds)]
            .iter()
            .chain(extra)
    {
        set(&mut f, k, v);
    }
    new_tournament(c, &f)
}

/// Saves the team settings form and expects it accepted (303); see [`post_team_settings`].
pub fn save_team_settings(c: &Client, s: &Server, tid: i32, fields: &[(&str, &str)]) {
    let r = post_team_settings(c, s, tid, fields);
    assert_eq!(r.status, 303, "{}", r.body);
}

/// Posts the team settings form: a 4-board relay, round robin, colours by lot, with `fields`
/// replacing or adding values; the form's version is read from the database.
pub fn post_team_settings(c: &Client, s: &Server, tid: i32, fields: &[(&str, &str)]) -> Resp {
    let v = query(&s.db, &format!("SELECT version FROM team_settings WHERE tournament_id = {tid}"));
    let v = v.first().map(|r| r[0].clone()).unwrap_or_else(|| "0".into());
    let mut all = vec![
        ("format", "relay"),
        ("boards", "4"),
        ("match_points", "3-1-0"),
        ("main_board", ""),
        ("pairing", "round_robin"),
        ("equal_count", "draw"),
        ("tiebreaks", "generic"),
        ("playoff_clock", "game_end"),
        ("colours", "draw"),
        ("rr_bye", "none"),
        ("version", v.as_str()),
    ];
    for (k, val) in fields {
        all.retain(|(n, _)| n != k);
        all.push((k, val));
    }
    c.submit(&format!("/t/{tid}/teams"), &format!("/t/{tid}/teams/settings"), &all)
}

/// Adds a team through the new-team form: the leader and coach named after the team, the
/// captain at position 1 and `players` at positions 1….
pub fn add_team(c: &Client, tid: i32, name: &str, players: &[String]) -> Resp {
    let list: Vec<String> = players.iter().enumerate().map(|(i, p)| format!("{} {p}", i + 1)).collect();
    let page = format!("/t/{tid}/teams/new");
    c.submit(
        &page,
        &page,
        &[
            ("name", name),
            ("unit", name),
            ("rating", "2400"),
            ("leader", &format!("{name}领队")),
            ("coach", &format!("{name}教练")),
            ("captain", "1"),
            ("players", &list.join("\n")),
        ],
    )
}
