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

/// `base + secs` (seconds of local wall-clock time since 1970) as the arbiter types it. A
/// match whose events are stamped by the browser's or the server's clock is played today (the
/// relay refuses a time far from the match).
pub fn at(base: i64, secs: i64) -> String {
    let t = base + secs;
    let (days, s) = (t.div_euclid(86_400), t.rem_euclid(86_400));
    // Days since 1970-01-01 → civil date (H. Hinnant's days_from_civil, inverted).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// One relay match of two teams of six over HTTP (the team relay preset of seed 003), its
/// section 1 started at `base` (the event's wall-clock time, seconds since 1970) and lined
/// up, and the record at move `through` when given (moves in the clockwise order, recorded
/// half an hour after the start). Returns (tid, mid).
pub fn relay_match(s: &Server, org: &Client, base: i64, through: Option<u32>) -> (i32, i32) {
    let (start, end) = (at(base, 0), at(base, 7200)); // an hour after now: the save's day too
    let tid = relay_tournament(
        org,
        "计时接力赛",
        "Clock Relay",
        "1",
        &[("start_date", &start[..10]), ("end_date", &end[..10])],
    );
    save_team_settings(org, s, tid, &[]);
    for name in ["甲队", "乙队"] {
        let players: Vec<String> = (1..=6).map(|k| format!("{}{k}", &name[..3])).collect();
        assert_eq!(add_team(org, tid, name, &players).status, 303);
    }
    let r = org.submit(
        &format!("/t/{tid}/team-rounds"),
        &format!("/t/{tid}/team-rounds/1/pair"),
        &[("seed", "4")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let mid: i32 = query(&s.db, &format!("SELECT id FROM team_matches WHERE tournament_id = {tid}"))[0][0]
        .parse()
        .unwrap();
    let post = |path: &str, fields: &[(&str, &str)]| {
        let page = org.get(&format!("/t/{tid}/matches/{mid}"));
        let v = query(&s.db, &format!("SELECT version FROM team_matches WHERE id = {mid}"))[0][0].clone();
        let mut all = vec![("csrf", page.csrf()), ("version", v)];
        all.extend(fields.iter().map(|(k, v)| (*k, v.to_string())));
        let refs: Vec<(&str, &str)> = all.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let r = org.post_form(&format!("/t/{tid}/matches/{mid}/{path}"), &refs);
        assert_eq!(r.status, 303, "{path} {fields:?}: {}", r.body);
    };
    post("start", &[("start", &at(base, 0))]);
    for (side, team_is_black) in [("black", true), ("white", false)] {
        let team: i32 = query(
            &s.db,
            &format!(
                "SELECT {} FROM team_matches WHERE id = {mid}",
                if team_is_black { "black_team_id" } else { "white_team_id" }
            ),
        )[0][0]
            .parse()
            .unwrap();
        let member = |pos: u32| {
            query(&s.db, &format!("SELECT id FROM team_members WHERE team_id = {team} AND position = {pos}"))
                [0][0]
                .clone()
        };
        let (p1, p2) = (member(1), member(2));
        post(
            "event",
            &[
                ("kind", "lineup"),
                ("side", side),
                ("section", "1"),
                ("p1", &p1),
                ("p2", &p2),
                ("at", &at(base, -900)),
            ],
        );
    }
    if let Some(n) = through {
        post("event", &[("kind", "moves"), ("through", &n.to_string()), ("at", &at(base, 1800))]);
    }
    (tid, mid)
}

/// The id of the player at `position` of relay match `mid`'s team in `column` (`black_team_id`
/// or `white_team_id`).
pub fn match_member(s: &Server, mid: i32, column: &str, position: u32) -> String {
    query(
        &s.db,
        &format!(
            "SELECT p.id FROM team_members p JOIN team_matches m ON m.{column} = p.team_id \
             WHERE m.id = {mid} AND p.position = {position}"
        ),
    )[0][0]
        .clone()
}

#[cfg(test)]
mod tests {
    use super::at;

    #[test]
    fn at_writes_civil_dates() {
        assert_eq!(at(0, 0), "1970-01-01T00:00:00");
        assert_eq!(at(1_796_169_600, 9 * 3600 + 61), "2026-12-02T09:01:01");
        assert_eq!(at(951_782_400, -1), "2000-02-28T23:59:59");
    }
}
