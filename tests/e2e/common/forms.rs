//! An office's steps through the forms, as an organizer or an arbiter takes them: a
//! tournament, entrants, imports, accounts and staff, rounds paired and published, results.
//! Each step asserts that the server accepted it, so a test reads as the steps it takes.

use super::{count_rows, eight_players, json_text, query, Client, Resp, Server};
use std::path::Path;

/// Every field of the tournament form with the defaults of rules.md, and the given names.
pub fn tournament_fields(name_zh: &str, name_latin: &str) -> Vec<(String, String)> {
    let mut f: Vec<(String, String)> = [
        ("name_zh", name_zh),
        ("name_latin", name_latin),
        ("venue", "中国棋院"),
        ("start_date", "2026-12-05"),
        ("end_date", "2026-12-07"),
        ("system", "swiss"),
        ("rounds", "7"),
        ("colour_method", "nigiri"),
        ("same_unit", "1"),
        ("preset", "chinese_2002"),
        ("komi", "3.75"),
        ("warnings_to_loss", "2"),
        ("points_scale", "2-1-0"),
        ("bye_value", "win"),
        ("bye_sos", "zero"),
        ("time_kind", "byo_yomi"),
        ("main_minutes", "120"),
        ("periods", "3"),
        ("period_seconds", "60"),
        ("forfeit_sos", "opponent"),
        ("late_regime", "separate"),
        ("late_limit", "60"),
        ("late_inclusive", "on"),
        ("late_double", "on"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    for t in ["score", "sos", "cumulative", "direct", "wins", "fewer_warnings", "lots"] {
        f.push(("tiebreak".into(), t.into()));
    }
    f
}

/// `fields` with `k` set to `v` (every earlier value of `k` removed).
pub fn set(fields: &mut Vec<(String, String)>, k: &str, v: &str) {
    fields.retain(|(n, _)| n != k);
    fields.push((k.to_string(), v.to_string()));
}

/// Owned fields as the pairs the client posts.
pub fn as_refs(fields: &[(String, String)]) -> Vec<(&str, &str)> {
    fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
}

/// Submit the new-tournament form with `fields` and expect it accepted; returns the id.
pub fn new_tournament(c: &Client, fields: &[(String, String)]) -> i32 {
    let r = c.submit("/t/new", "/t/new", &as_refs(fields));
    assert_eq!(r.status, 303, "{}", r.body);
    r.location().trim_start_matches("/t/").parse().expect("tournament id in Location")
}

/// Create a tournament through the form; returns its id.
pub fn create_tournament(c: &Client, name_zh: &str) -> i32 {
    new_tournament(c, &tournament_fields(name_zh, "Test Open"))
}

/// Add an entrant through the form.
pub fn add_entrant(c: &Client, tid: i32, family: &str, given: &str, rank: &str) -> Resp {
    let page = format!("/t/{tid}/entrants/new");
    c.submit(
        &page,
        &page,
        &[
            ("family_name_zh", family),
            ("given_name_zh", given),
            ("rank", rank),
            ("unit", "北京棋院"),
            ("region", "北京"),
        ],
    )
}

/// Upload a file to an import form and confirm the preview; returns the confirmation.
pub fn import_file(c: &Client, tid: i32, kind: &str, name: &str, data: &[u8]) -> Resp {
    let token = c.get(&format!("/t/{tid}/import")).csrf();
    let p = c.post_file(&format!("/t/{tid}/import/{kind}"), &[("csrf", &token)], "file", name, data);
    assert_eq!(p.status, 200, "{}", p.body);
    let payload = p.input("payload").unwrap_or_else(|| panic!("the preview carries the upload: {}", p.body));
    c.post_form(&format!("/t/{tid}/import/{kind}/confirm"), &[("csrf", &p.csrf()), ("payload", &payload)])
}

/// Import an OpenGotha file through the import page (preview, then confirm). The event must be
/// empty: the file fills it (an import never merges into an event with data). The file of
/// [`og_xml`](super::og_xml) names no tournament, so the event keeps its name; its number of rounds is the file's.
pub fn import_og(c: &Client, tid: i32, xml: &str) {
    let r = import_file(c, tid, "opengotha", "t.xml", xml.as_bytes());
    assert_eq!(r.status, 303, "{}", r.body);
}

/// Add an account (organizer only) and return a client logged in as it.
pub fn add_user(s: &Server, org: &Client, name: &str, role: &str) -> (Client, i32) {
    let pass = format!("{name}-secret-pass-1");
    let r = org.submit(
        "/users",
        "/users",
        &[
            ("username", name),
            ("display_name", name),
            ("role", role),
            ("password", &pass),
            ("password2", &pass),
        ],
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let uid = count_rows(&s.db, &format!("SELECT id FROM users WHERE username = '{name}'")) as i32;
    let c = s.client();
    assert_eq!(c.login(name, &pass).status, 303);
    (c, uid)
}

/// Put a user on a tournament's staff.
pub fn add_staff(org: &Client, tid: i32, uid: i32, role: &str) {
    let r = org.submit(
        &format!("/t/{tid}"),
        &format!("/t/{tid}/staff"),
        &[("user_id", &uid.to_string()), ("role", role)],
    );
    assert_eq!(r.status, 303, "{}", r.body);
}

/// An arbiter account on tournament `tid`'s staff, made through the forms and logged in.
pub fn arbiter(s: &Server, org: &Client, tid: i32, name: &str) -> Client {
    let (a, uid) = add_user(s, org, name, "arbiter");
    add_staff(org, tid, uid, "arbiter");
    a
}

/// A game's page (its result sheet), expected shown.
fn game_page(c: &Client, tid: i32, gid: i32) -> Resp {
    let p = c.get(&format!("/t/{tid}/games/{gid}"));
    assert_eq!(p.status, 200, "{}", p.body);
    p
}

/// POST a form of a game's page with its CSRF token and current version.
pub fn game_post(c: &Client, tid: i32, gid: i32, action: &str, fields: &[(&str, &str)]) -> Resp {
    let page = game_page(c, tid, gid);
    let version = page.input("version").expect("version");
    let csrf = page.csrf();
    let mut all: Vec<(&str, &str)> = vec![("csrf", &csrf), ("version", &version)];
    all.extend_from_slice(fields);
    c.post_form(&format!("/t/{tid}/games/{gid}/{action}"), &all)
}

/// Enter a result (do=save) and expect it saved.
pub fn enter(c: &Client, tid: i32, gid: i32, fields: &[(&str, &str)]) -> Resp {
    let mut f = vec![("do", "save")];
    f.extend_from_slice(fields);
    let r = game_post(c, tid, gid, "result", &f);
    assert_eq!(r.status, 303, "{}", r.body);
    c.get(&format!("/t/{tid}/games/{gid}"))
}

/// A tournament made through the form with the default fields changed by `changes`, and the
/// first `n` players of [`EIGHT`](super::EIGHT) imported.
pub fn tournament_with_players(
    c: &Client,
    name: &str,
    latin: &str,
    changes: &[(&str, &str)],
    n: usize,
) -> i32 {
    let mut f = tournament_fields(name, latin);
    for (k, v) in changes {
        set(&mut f, k, v);
    }
    let tid = new_tournament(c, &f);
    if n > 0 {
        let r = import_file(c, tid, "csv", "players.csv", eight_players(n).as_bytes());
        assert_eq!(r.status, 303, "{}", r.body);
    }
    tid
}

/// Pair round `n` as a draft through the rounds page, with a typed seed (the same seed gives
/// the same pairing).
pub fn pair_round(c: &Client, tid: i32, n: u32, seed: &str) {
    let r = c.submit(
        &format!("/t/{tid}/rounds"),
        &format!("/t/{tid}/rounds/{n}/pair"),
        &[("seed", seed), ("confirm", "on")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
}

/// Publish round `n`, confirming its review warnings.
pub fn publish_round(s: &Server, c: &Client, tid: i32, n: u32) {
    let v = query(&s.db, &format!("SELECT version FROM rounds WHERE tournament_id = {tid} AND number = {n}"));
    let r = c.submit(
        &format!("/t/{tid}/rounds/{n}"),
        &format!("/t/{tid}/rounds/{n}/publish"),
        &[("version", &v[0][0]), ("confirm", "on")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
}

/// Perform the nigiri of every board of round `n` whose nigiri is still to be done (remote
/// nigiri from the round's seed, as an arbiter does on the round page): a result of a game
/// played on the board needs the colours first.
pub fn nigiri_all(c: &Client, db: &Path, tid: i32, n: u32) {
    let record = json_text(db, "nigiri", "record");
    let pending = query(
        db,
        &format!(
            "SELECT id, pairing_version FROM games WHERE tournament_id = {tid} AND round_number = {n} \
             AND nigiri_holder_id IS NOT NULL AND {record} IS NULL ORDER BY board"
        ),
    );
    for row in pending {
        let r = c.submit(
            &format!("/t/{tid}/rounds/{n}"),
            &format!("/t/{tid}/rounds/{n}/games/{}/remote-nigiri", row[0]),
            &[("pv", &row[1])],
        );
        assert_eq!(r.status, 303, "{}", r.body);
    }
}

/// The form with `id` on `page` as shown, sent with `changes` (each replacing every value the
/// form had for its name).
pub fn send_form(c: &Client, page: &str, id: &str, changes: &[(&str, &str)]) -> Resp {
    let p = c.get(page);
    assert_eq!(p.status, 200, "{page}: {}", p.body);
    let (action, mut fields) = p.form_as_shown(id);
    for (k, v) in changes {
        fields.retain(|(n, _)| n != k);
        fields.push((k.to_string(), v.to_string()));
    }
    c.post_form(&action, &as_refs(&fields))
}

/// The registration settings form (网上报名) at `version`: open, no deadline, each of `groups`
/// taking registrations with its cap ('' none), and each of sex, birth date, unit and contact
/// asked as `asks` says ("off", "optional" or "required", in that order).
pub fn registration_settings(
    version: &str,
    groups: &[(i32, &str)],
    asks: [&str; 4],
) -> Vec<(String, String)> {
    let mut f: Vec<(String, String)> = [("version", version), ("open", "on"), ("deadline", "")]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    for (g, cap) in groups {
        f.push((format!("takes_{g}"), "on".into()));
        f.push((format!("cap_{g}"), cap.to_string()));
    }
    for (k, v) in ["ask_sex", "ask_birth_date", "ask_unit", "ask_contact"].iter().zip(asks) {
        f.push((k.to_string(), v.to_string()));
    }
    f
}
