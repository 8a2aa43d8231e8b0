//! The write routes as data: every route that changes state, with the rightful user, a path
//! and a body that user would have had accepted, and what the control request does. The probes
//! of [`super`] send each route's request as the wrong people and forged; the test
//! `every_write_route_in_the_router_is_probed` reads the router's source and fails until a new
//! write route has its row here.

use super::{board_fields, team_settings_form, Body, Control, Guard, Ids, World, WriteRoute, T1_NAME};
use crate::common::*;

fn form(pairs: &[(&str, &str)]) -> Body {
    Body::Form(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect())
}

fn version(w: &World, table: &str, id: i32) -> String {
    count_rows(&w.s.db, &format!("SELECT version FROM {table} WHERE id = {id}")).to_string()
}

/// `pairs` and the prizes' current version of tournament `t`.
fn form_with_prize_version(w: &World, t: i32, pairs: &[(&str, &str)]) -> Body {
    let v = w.int(&format!("SELECT coalesce(max(version), 0) FROM prize_settings WHERE tournament_id = {t}"));
    let mut f: Vec<(String, String)> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    f.push(("version".into(), v.to_string()));
    Body::Form(f)
}

fn round_version(w: &World, t: i32, n: i32) -> String {
    w.int(&format!("SELECT coalesce(max(version), 0) FROM rounds WHERE tournament_id = {t} AND number = {n}"))
        .to_string()
}

/// A player of table `board` of round 2 (a draft) of `t`.
fn draft_player(w: &World, t: i32, board: i32, column: &str) -> i32 {
    w.int(&format!(
        "SELECT coalesce(max({column}), 0) FROM games WHERE tournament_id = {t} AND round_number = 2 AND board = {board}"
    ))
}

fn swap_body(w: &World, i: &Ids, a: i32, b: i32) -> Body {
    Body::Form(vec![
        ("swap_a".into(), a.to_string()),
        ("swap_b".into(), b.to_string()),
        ("confirm".into(), "on".into()),
        ("version".into(), round_version(w, i.t, 2)),
    ])
}

fn edit_body(w: &World, i: &Ids, black: i32, white: i32) -> Body {
    Body::Form(vec![
        ("edit_table".into(), "1".into()),
        ("edit_black".into(), black.to_string()),
        ("edit_white".into(), white.to_string()),
        ("edit_handicap".into(), "0".into()),
        ("confirm".into(), "on".into()),
        ("version".into(), round_version(w, i.t, 2)),
    ])
}

/// The version of game `gid`'s count from the position (0 before one is saved).
fn count_version(w: &World, gid: i32) -> String {
    w.int(&format!("SELECT coalesce(max(version), 0) FROM game_counts WHERE game_id = {gid}")).to_string()
}

fn relay_count_version(w: &World, mid: i32) -> String {
    w.int(&format!("SELECT coalesce(max(version), 0) FROM relay_counts WHERE match_id = {mid}")).to_string()
}

fn pairing_version(w: &World, gid: i32) -> String {
    w.int(&format!("SELECT coalesce(max(pairing_version), 0) FROM games WHERE id = {gid}")).to_string()
}

/// The version a game's result sheet shows (0 before anything is entered).
fn sheet_version(w: &World, gid: i32) -> String {
    w.int(&format!("SELECT coalesce(max(version), 0) FROM results WHERE game_id = {gid}")).to_string()
}

/// The version of a team's research room (0 before an address was issued).
fn room_version(w: &World, team: i32) -> String {
    w.int(&format!("SELECT coalesce(max(version), 0) FROM research_rooms WHERE team_id = {team}")).to_string()
}

fn match_version(w: &World, mid: i32) -> String {
    w.int(&format!("SELECT coalesce(max(version), 0) FROM team_matches WHERE id = {mid}")).to_string()
}

/// The team_members id of a team's player at `position`.
fn relay_player(w: &World, team: i32, position: u32) -> i32 {
    w.int(&format!(
        "SELECT coalesce(max(id), 0) FROM team_members WHERE team_id = {team} AND role = 'player' AND position = {position}"
    ))
}

fn lineup_body(w: &World, mid: i32, p1: i32, p2: i32) -> Body {
    Body::Form(vec![
        ("version".into(), match_version(w, mid)),
        ("kind".into(), "lineup".into()),
        ("side".into(), "black".into()),
        ("section".into(), "1".into()),
        ("p1".into(), p1.to_string()),
        ("p2".into(), p2.to_string()),
        ("at".into(), "2026-12-05T08:45:00".into()),
    ])
}

/// Team `team` as it is, with a new coach: the roster (and so every match's players) stays.
fn team_body(w: &World, team: i32, coach: &str) -> Body {
    let row = query(&w.s.db, &format!("SELECT name, version FROM teams WHERE id = {team}"));
    let (name, version) = row.first().map(|r| (r[0].clone(), r[1].clone())).unwrap_or_default();
    let players: Vec<String> = query(
        &w.s.db,
        &format!("SELECT position, name FROM team_members WHERE team_id = {team} AND role = 'player' ORDER BY position"),
    )
    .into_iter()
    .map(|r| format!("{} {}", r[0], r[1]))
    .collect();
    Body::Form(vec![
        ("name".into(), name),
        ("coach".into(), format!("教练{coach}")),
        ("captain".into(), "1".into()),
        ("players".into(), players.join("\n")),
        ("version".into(), version),
    ])
}

const PROBE_CSV: &[u8] = "姓名,拼音,段位,单位\n赵磊,Zhao Lei,2段,探针棋社\n".as_bytes();
const PROBE_OG: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<Tournament dataVersion="201"><Players>
<Player club="探针" country="CN" firstName="磊" name="钱" rank="1D" rating="2100"/>
</Players><TournamentParameterSet><GeneralParameterSet name="探针赛" numberOfRounds="3"/></TournamentParameterSet></Tournament>
"#;

fn unique() -> String {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    format!("p{}", N.fetch_add(1, Ordering::Relaxed))
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Every route that changes state. Add new write routes here.
pub(super) const WRITE_ROUTES: &[WriteRoute] = &[
    WriteRoute {
        pattern: "/login",
        guard: Guard::Anyone,
        path: |_| "/login".into(),
        body: |_, _| form(&[("username", ORG_USER), ("password", ORG_PASS)]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/setup/{token}",
        guard: Guard::Anyone,
        path: |_| format!("/setup/{}", "0".repeat(64)),
        body: |_, _| {
            form(&[
                ("username", "intruder"),
                ("password", "intruder-pass-1"),
                ("password2", "intruder-pass-1"),
            ])
        },
        foreign: None,
        control: Control::None("first run only (accounts exist); e2e_auth covers the link"),
    },
    WriteRoute {
        pattern: "/logout",
        guard: Guard::Session,
        path: |_| "/logout".into(),
        body: |_, _| form(&[]),
        foreign: None,
        control: Control::WritesLast,
    },
    WriteRoute {
        pattern: "/users",
        guard: Guard::Organizer,
        path: |_| "/users".into(),
        body: |_, _| {
            let name = unique();
            Body::Form(vec![
                ("username".into(), name),
                ("role".into(), "organizer".into()),
                ("password".into(), "probe-password-1".into()),
            ])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/users/{id}/password",
        guard: Guard::Organizer,
        path: |i| format!("/users/{}/password", i.user),
        body: |_, _| form(&[("password", "probe-new-password-7"), ("password2", "probe-new-password-7")]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/account/password",
        guard: Guard::Session,
        path: |_| "/account/password".into(),
        body: |_, _| form(&[("old_password", ORG_PASS), ("password", ORG_PASS), ("password2", ORG_PASS)]),
        foreign: None,
        control: Control::None(
            "ends the other sessions of the organizer the other probes use; e2e_ops covers it",
        ),
    },
    WriteRoute {
        pattern: "/users/{id}/{action}",
        guard: Guard::Organizer,
        path: |i| format!("/users/{}/deactivate", i.user),
        body: |_, _| form(&[]),
        foreign: None,
        control: Control::Writes,
    },
    // The player registry: a merge by the administrator (any organizer of the persons'
    // events may too; the wrong role is an arbiter), a deletion on request (the
    // administrator's). The world's entrants are persons 1.. in the order they were entered.
    WriteRoute {
        pattern: "/persons/merge",
        guard: Guard::Organizer,
        path: |_| "/persons/merge".into(),
        body: |w, _| {
            let keep = w.int("SELECT min(id) FROM persons WHERE id > 1");
            let drop = w.int("SELECT max(id) FROM persons");
            Body::Form(vec![
                ("keep".into(), keep.to_string()),
                ("drop".into(), drop.to_string()),
                ("keep_version".into(), version(w, "persons", keep)),
                ("drop_version".into(), version(w, "persons", drop)),
            ])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/persons/{person}/edit",
        guard: Guard::Organizer,
        path: |_| "/persons/1/edit".into(),
        body: |w, _| {
            form(&[("version", &version(w, "persons", 1)), ("family_name_zh", "探"), ("given_name_zh", "针")])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/persons/{person}/erase",
        guard: Guard::Organizer,
        path: |_| "/persons/1/erase".into(),
        body: |w, _| form(&[("version", &version(w, "persons", 1)), ("reason", "probe")]),
        foreign: None,
        control: Control::WritesLast,
    },
    WriteRoute {
        pattern: "/t/new",
        guard: Guard::Organizer,
        path: |_| "/t/new".into(),
        body: |_, _| Body::Form(tournament_fields("探针新赛", "Probe Open")),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/settings",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/settings", i.t),
        body: |w, i| {
            let mut f = tournament_fields(T1_NAME, "Changed By Probe");
            f.push(("version".into(), version(w, "tournaments", i.t)));
            Body::Form(f)
        },
        foreign: None,
        control: Control::Writes,
    },
    // ---- The event's groups (组别): its overview's forms, its bands, a round for every group,
    // an entrant moved between groups ---------------------------------------------------------
    WriteRoute {
        pattern: "/e/{event}/groups/new",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/e/{}/groups/new", i.ev),
        body: |_, _| form(&[("group_name_zh", "探针组"), ("system", "swiss"), ("rounds", "5"), ("rank_low", "5d")]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/e/{event}/groups/{group}",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/e/{}/groups/{}", i.ev, i.t),
        body: |w, i| {
            Body::Form(vec![
                ("group_name_zh".into(), "公开组".into()),
                ("group_order".into(), "1".into()),
                ("version".into(), version(w, "tournaments", i.t)),
            ])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/e/{event}/bands",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/e/{}/bands", i.ev),
        body: |_, _| form(&[]),
        foreign: Some(|w| {
            let e = w.theirs.e;
            let v = version(w, "entrants", e);
            form(&[("move", &format!("{e}_{v}_{}_{}", w.theirs.t, w.own.t))])
        }),
        control: Control::Reads,
    },
    WriteRoute {
        pattern: "/e/{event}/rounds/{n}/pair",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/e/{}/rounds/3/pair", i.ev),
        body: |_, _| form(&[("confirm", "on")]),
        foreign: None,
        control: Control::None("round 2 of the event's one group is a draft; tests/e2e/events.rs pairs every group"),
    },
    WriteRoute {
        pattern: "/e/{event}/rounds/{n}/publish",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/e/{}/rounds/2/publish", i.ev),
        body: |w, i| Body::Form(vec![(format!("version_{}", i.t), round_version(w, i.t, 2)), ("confirm".into(), "on".into())]),
        foreign: None,
        control: Control::None("publishing round 2 would change the other probes' draft; tests/e2e/events.rs publishes every group"),
    },
    WriteRoute {
        pattern: "/t/{id}/entrants/{eid}/move",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/entrants/{}/move", i.t, i.e),
        body: |w, i| Body::Form(vec![("to".into(), i.t.to_string()), ("version".into(), version(w, "entrants", i.e))]),
        foreign: Some(|w| {
            let v = version(w, "entrants", w.own.e);
            Body::Form(vec![("to".into(), w.theirs.t.to_string()), ("version".into(), v)])
        }),
        control: Control::None("the world's tournament has rounds, so nobody moves; tests/e2e/events.rs moves one"),
    },
    WriteRoute {
        pattern: "/t/{id}/delete",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/delete", i.t),
        body: |_, i| Body::Form(vec![("confirm".into(), i.t.to_string())]),
        foreign: None,
        control: Control::WritesLast,
    },
    WriteRoute {
        pattern: "/t/{id}/staff",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/staff", i.t),
        body: |_, i| {
            Body::Form(vec![("user_id".into(), i.user.to_string()), ("role".into(), "organizer".into())])
        },
        foreign: None,
        control: Control::Writes,
    },
    // ---- Online registration (网上报名): the event's organizers' settings and decisions, the
    // public form and the resubmission from a registration's status page ----------------------
    WriteRoute {
        pattern: "/e/{event}/registrations/settings",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/e/{}/registrations/settings", i.event),
        body: |w, i| {
            let v = w
                .int(&format!("SELECT max(version) FROM registration_settings WHERE event_id = {}", i.event));
            let (takes, cap) = (format!("takes_{}", i.t), format!("cap_{}", i.t));
            form(&[
                ("version", &v.to_string()),
                ("open", "on"),
                ("deadline", ""),
                (&takes, "on"),
                (&cap, "50"),
                ("ask_sex", "optional"),
                ("ask_birth_date", "off"),
                ("ask_unit", "optional"),
                ("ask_contact", "optional"),
            ])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/e/{event}/register/{reference}",
        guard: Guard::Anyone,
        path: |i| format!("/e/{}/register/{}", i.event, i.reference),
        body: |_, i| {
            let group = i.t.to_string();
            form(&[("family_name_zh", "赵"), ("given_name_zh", "探针"), ("rank", "2k"), ("group", &group)])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/e/{event}/registrations/{reg}/{action}",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/e/{}/registrations/{}/change", i.event, i.reg),
        body: |w, i| {
            let v = w.int(&format!("SELECT version FROM registrations WHERE id = {}", i.reg));
            form(&[("version", &v.to_string()), ("message", "请再核对段位")])
        },
        foreign: None,
        control: Control::Writes,
    },
    // ---- Display screens (大屏): the event's organizers make, change, revoke and re-issue ----
    WriteRoute {
        pattern: "/e/{event}/screens/new",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/e/{}/screens/new", i.event),
        body: |_, _| {
            form(&[
                ("version", "0"),
                ("name", "二号屏"),
                ("c_names", "on"),
                ("pace", "8"),
                ("columns", "3"),
                ("rows", "16"),
                ("announcement", ""),
            ])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/e/{event}/screens/{screen}/{action}",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/e/{}/screens/{}/edit", i.event, i.screen),
        body: |w, i| {
            let v = w.int(&format!("SELECT version FROM screens WHERE id = {}", i.screen));
            form(&[
                ("version", &v.to_string()),
                ("name", "一号屏"),
                ("c_tables", "on"),
                ("pace", "12"),
                ("columns", "2"),
                ("rows", "12"),
                ("announcement", "请保持安静"),
            ])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/e/{event}/register",
        guard: Guard::Anyone,
        path: |i| format!("/e/{}/register", i.event),
        body: |_, i| {
            let group = i.t.to_string();
            form(&[("family_name_zh", "钱"), ("given_name_zh", "探针"), ("rank", "1d"), ("group", &group)])
        },
        foreign: None,
        control: Control::Writes,
    },
    // ---- Check-in (签到): the desk (staff), deadline and closing (organizers), the code, and
    // the public self check-in with the code -------------------------------------------------
    WriteRoute {
        pattern: "/t/{id}/check-in/{n}/{eid}/{action}",
        guard: Guard::TournamentStaff,
        // Before the withdrawal probe (below) withdraws this entrant.
        path: |i| format!("/t/{}/check-in/3/{}/in", i.t, i.e),
        body: |_, _| form(&[]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/check-in/code",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/check-in/code", i.t),
        body: |_, _| form(&[]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/check-in/self",
        guard: Guard::Anyone,
        path: |i| format!("/t/{}/check-in/self", i.t),
        body: |w, i| {
            let code = query_text(
                &w.s.db,
                &format!("SELECT code FROM check_in_codes WHERE tournament_id = {}", i.t),
            );
            let e = w.int(&format!("SELECT max(id) FROM entrants WHERE tournament_id = {}", i.t));
            form(&[("eid", &e.to_string()), ("code", &code.unwrap_or_default())])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/check-in/{n}/deadline",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/check-in/3/deadline", i.t),
        body: |w, i| {
            let v = w.int(&format!(
                "SELECT max(version) FROM check_in_rounds WHERE tournament_id = {} AND round_number = 3",
                i.t
            ));
            form(&[("version", &v.to_string()), ("deadline", "2026-01-01T09:00")])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/check-in/{n}/close",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/check-in/3/close", i.t),
        body: |w, i| {
            let t = i.t;
            let v = w.int(&format!(
                "SELECT max(version) FROM check_in_rounds WHERE tournament_id = {t} AND round_number = 3"
            ));
            // What closing round 3 sets absent: the active entrants not checked in, not absent.
            let ids = query(
                &w.s.db,
                &format!(
                    "SELECT id FROM entrants WHERE tournament_id = {t} AND status = 'active' AND first_round <= 3 \
                     AND id NOT IN (SELECT entrant_id FROM check_ins WHERE tournament_id = {t} AND round_number = 3) \
                     AND id NOT IN (SELECT entrant_id FROM round_absences WHERE tournament_id = {t} AND round_number = 3)"
                ),
            );
            let mut body = vec![("version".to_string(), v.to_string())];
            body.extend(ids.into_iter().map(|r| ("absent".to_string(), r[0].clone())));
            Body::Form(body)
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/entrants/new",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/entrants/new", i.t),
        body: |_, _| form(&[("family_name_zh", "孙"), ("given_name_zh", "探"), ("rank", "3d")]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/entrants/{eid}/edit",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/entrants/{}/edit", i.t, i.e),
        body: |w, i| {
            Body::Form(vec![
                ("family_name_zh".into(), "王".into()),
                ("given_name_zh".into(), "伟".into()),
                ("rank".into(), "5d".into()),
                ("notes".into(), "changed by a probe".into()),
                ("version".into(), version(w, "entrants", i.e)),
            ])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/entrants/{eid}/{action}",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/entrants/{}/withdraw", i.t, i.e),
        body: |_, _| form(&[("reason", "probe")]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/rating-lists",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/rating-lists", i.t),
        body: |_, _| Body::File {
            fields: vec![("source".into(), "csv".into()), ("list_date".into(), "2026-12-01".into())],
            filename: "probe.csv",
            data: b"id,name,rank\nP1,Probe Player,2d\n".to_vec(),
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/rating-list/{list}/apply",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/rating-list/{}/apply", i.t, i.rl),
        body: |_, i| Body::Form(vec![("pick".into(), format!("{}:1:2", i.e))]),
        foreign: None,
        control: Control::None(
            "round 1 of the probes' tournament is published, so applying is refused (409); \
             tests/e2e/rating_lists.rs applies before round 1",
        ),
    },
    WriteRoute {
        pattern: "/t/{id}/import/csv",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/import/csv", i.t),
        body: |_, _| Body::File { fields: vec![], filename: "probe.csv", data: PROBE_CSV.to_vec() },
        foreign: None,
        control: Control::Reads,
    },
    WriteRoute {
        pattern: "/t/{id}/import/csv/confirm",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/import/csv/confirm", i.t),
        body: |_, _| Body::Form(vec![("payload".into(), hex(PROBE_CSV))]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/import/opengotha",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/import/opengotha", i.t),
        body: |_, _| Body::File { fields: vec![], filename: "probe.xml", data: PROBE_OG.as_bytes().to_vec() },
        foreign: None,
        control: Control::Reads,
    },
    WriteRoute {
        pattern: "/t/{id}/import/opengotha/confirm",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/import/opengotha/confirm", i.t),
        // An OpenGotha file is an event: into an event with entrants it must say whether it
        // makes a new event or replaces this one.
        body: |_, _| {
            Body::Form(vec![("payload".into(), hex(PROBE_OG.as_bytes())), ("mode".into(), "new".into())])
        },
        foreign: None,
        control: Control::Writes,
    },
    // ---- Rounds (organizers) and colours at the board (staff) ------------------------------
    WriteRoute {
        pattern: "/t/{id}/rounds/{n}/attendance",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/rounds/2/attendance", i.t),
        body: |_, i| Body::Form(vec![("absent".into(), i.e.to_string()), ("reason".into(), "probe".into())]),
        foreign: Some(|w| Body::Form(vec![("absent".into(), w.theirs.e.to_string())])),
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/rounds/{n}/pair",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/rounds/2/pair", i.t),
        body: |w, i| {
            Body::Form(vec![
                ("seed".into(), "5".into()),
                ("version".into(), round_version(w, i.t, 2)),
                ("confirm".into(), "on".into()),
            ])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/rounds/{n}/swap",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/rounds/2/swap", i.t),
        body: |w, i| {
            let (a, b) = (draft_player(w, i.t, 1, "black_id"), draft_player(w, i.t, 2, "black_id"));
            swap_body(w, i, a, b)
        },
        foreign: Some(|w| swap_body(w, &w.own, draft_player(w, w.own.t, 1, "black_id"), w.theirs.e)),
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/rounds/{n}/edit",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/rounds/2/edit", i.t),
        body: |w, i| {
            let (b, wh) = (draft_player(w, i.t, 1, "white_id"), draft_player(w, i.t, 1, "black_id"));
            edit_body(w, i, b, wh)
        },
        foreign: Some(|w| edit_body(w, &w.own, draft_player(w, w.own.t, 1, "black_id"), w.theirs.e)),
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/rounds/{n}/publish",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/rounds/2/publish", i.t),
        body: |w, i| {
            Body::Form(vec![("version".into(), round_version(w, i.t, 2)), ("confirm".into(), "on".into())])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/rounds/{n}/unpublish",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/rounds/2/unpublish", i.t),
        body: |w, i| Body::Form(vec![("version".into(), round_version(w, i.t, 2))]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/rounds/{n}/delete",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/rounds/2/delete", i.t),
        body: |w, i| Body::Form(vec![("version".into(), round_version(w, i.t, 2))]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/rounds/schedule",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/rounds/schedule", i.rr),
        body: |_, _| form(&[("seed", "3")]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/rounds/{n}/games/{gid}/nigiri",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/rounds/1/games/{}/nigiri", i.t, i.g),
        body: |w, i| {
            Body::Form(vec![
                ("pv".into(), pairing_version(w, i.g)),
                ("grab".into(), "3".into()),
                ("guess".into(), "odd".into()),
            ])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/rounds/{n}/games/{gid}/remote-nigiri",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/rounds/1/games/{}/remote-nigiri", i.t, i.gl),
        body: |w, i| Body::Form(vec![("pv".into(), pairing_version(w, i.gl))]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/rounds/{n}/games/{gid}/played-colours",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/rounds/1/games/{}/played-colours", i.t, i.gl),
        body: |w, i| {
            Body::Form(vec![("pv".into(), pairing_version(w, i.gl)), ("swapped".into(), "on".into())])
        },
        foreign: None,
        control: Control::Writes,
    },
    // ---- Results, rulings, lateness (staff); the chief arbiter (organizers) -----------------
    WriteRoute {
        pattern: "/t/{id}/results/rounds/{n}/lateness",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/results/rounds/1/lateness", i.t),
        body: |w, i| {
            let v = w.int(&format!(
                "SELECT coalesce(max(version), 0) FROM round_times WHERE tournament_id = {} AND round_number = 1",
                i.t
            ));
            let late = w.int(&format!("SELECT black_id FROM games WHERE id = {}", i.gl));
            Body::Form(vec![
                ("version".into(), v.to_string()),
                ("starts_at".into(), "09:00".into()),
                (format!("arr_{late}"), "10:30".into()),
            ])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/games/{gid}/lateness",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/games/{}/lateness", i.t, i.gl),
        body: |w, i| Body::Form(vec![("version".into(), sheet_version(w, i.gl))]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/results/rounds/{n}/lateness/record",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/results/rounds/1/lateness/record", i.t),
        body: |w, i| {
            Body::Form(vec![
                ("page".into(), "1".into()),
                ("confirm".into(), "on".into()),
                ("g".into(), format!("{}:{}", i.gl, sheet_version(w, i.gl))),
            ])
        },
        foreign: None,
        control: Control::None(
            "the probe before it records the only verdict of this world; e2e_rulings records from the sheet",
        ),
    },
    WriteRoute {
        pattern: "/t/{id}/games/{gid}/start",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/games/{}/start", i.t, i.gp),
        body: |w, i| {
            let black = w.int(&format!("SELECT black_id FROM games WHERE id = {}", i.gp));
            Body::Form(vec![
                ("version".into(), sheet_version(w, i.gp)),
                ("starts_at".into(), "14:00".into()),
                (format!("arr_{black}"), "14:20".into()),
            ])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/games/{gid}/result",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/games/{}/result", i.t, i.g),
        body: |w, i| {
            Body::Form(vec![
                ("version".into(), sheet_version(w, i.g)),
                ("do".into(), "save".into()),
                ("method".into(), "count".into()),
                ("black_count".into(), "184.5".into()),
            ])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/games/{gid}/confirm",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/games/{}/confirm", i.t, i.g),
        body: |w, i| {
            Body::Form(vec![("version".into(), sheet_version(w, i.g)), ("who".into(), "black".into())])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/games/{gid}/sgf",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/games/{}/sgf", i.t, i.g),
        body: |w, i| Body::File {
            fields: vec![("version".into(), sheet_version(w, i.g))],
            filename: "probe.sgf",
            data: b"(;GM[1]FF[4]SZ[19]KM[7.5]PB[Probe]PW[Probe]RE[B+R];B[pd];W[dp];B[pp])".to_vec(),
        },
        foreign: None,
        control: Control::Writes,
    },
    // The count from the position: the dead stones first (the confirmation needs a count).
    WriteRoute {
        pattern: "/t/{id}/games/{gid}/count/dead",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/games/{}/count/dead", i.t, i.gx),
        body: |w, i| Body::Form(vec![("version".into(), count_version(w, i.gx)), ("dead".into(), String::new())]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/games/{gid}/count/confirm",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/games/{}/count/confirm", i.t, i.gx),
        body: |w, i| Body::Form(vec![("version".into(), count_version(w, i.gx)), ("who".into(), "black".into())]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/games/{gid}/rulings",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/games/{}/rulings", i.t, i.gr),
        body: |w, i| {
            Body::Form(vec![
                ("version".into(), sheet_version(w, i.gr)),
                ("do".into(), "save".into()),
                ("kind".into(), "warning".into()),
                ("against".into(), "white".into()),
                ("move_number".into(), "20".into()),
                ("at_time".into(), "10:20".into()),
                ("reason".into(), "probe".into()),
            ])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/games/{gid}/rulings/{rid}/delete",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/games/{}/rulings/{}/delete", i.t, i.gr, i.rid),
        body: |w, i| Body::Form(vec![("version".into(), sheet_version(w, i.gr))]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/games/{gid}/rulings/{rid}/confirm",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/games/{}/rulings/{}/confirm", i.t, i.gr, i.rid),
        body: |w, i| Body::Form(vec![("version".into(), sheet_version(w, i.gr))]),
        foreign: None,
        control: Control::None("only a plain arbiter's proposal can be confirmed; e2e_rulings covers it"),
    },
    WriteRoute {
        pattern: "/t/{id}/games/{gid}/rulings/{rid}/reject",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/games/{}/rulings/{}/reject", i.t, i.gr, i.rid),
        body: |w, i| Body::Form(vec![("version".into(), sheet_version(w, i.gr))]),
        foreign: None,
        control: Control::None("only a plain arbiter's proposal can be rejected; e2e_rulings covers it"),
    },
    // The board (web::board): a move of the ruling's game, its undo by the same staff
    // account (after the move's control), the organizer's public delay.
    WriteRoute {
        pattern: "/t/{id}/games/{gid}/board/move",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/games/{}/board/move", i.t, i.gr),
        body: |w, i| {
            let n = w.int(&format!("SELECT count(*) FROM game_moves WHERE game_id = {}", i.gr)) + 1;
            let colour = if n % 2 == 1 { "B" } else { "W" };
            let at = ["pd", "dp", "pp", "dd", "jj", "cc"][(n as usize - 1) % 6];
            Body::Form(vec![
                ("client".into(), format!("probe-{n}")),
                ("seq".into(), n.to_string()),
                ("colour".into(), colour.into()),
                ("at".into(), at.into()),
            ])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/games/{gid}/board/undo",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/games/{}/board/undo", i.t, i.gr),
        body: |w, i| {
            let n = w.int(&format!("SELECT coalesce(max(seq), 0) FROM game_moves WHERE game_id = {}", i.gr));
            Body::Form(vec![("seq".into(), n.to_string())])
        },
        foreign: None,
        control: Control::None("the undo is its enterer's only: e2e board:: proves it with two accounts"),
    },
    WriteRoute {
        pattern: "/t/{id}/live-delay",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/live-delay", i.t),
        body: |w, i| {
            let v = w.int(&format!("SELECT coalesce(max(version), 0) FROM live_delays WHERE tournament_id = {}", i.t));
            Body::Form(vec![
                ("version".into(), v.to_string()),
                ("moves".into(), "10".into()),
                ("back".into(), i.gr.to_string()),
            ])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/chief",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/chief", i.t),
        body: |w, _| {
            Body::Form(vec![(
                "user_id".into(),
                w.int("SELECT id FROM users WHERE username = 'arb'").to_string(),
            )])
        },
        foreign: Some(|w| Body::Form(vec![("user_id".into(), w.org2_id.to_string())])),
        control: Control::Writes,
    },
    // ---- Pairings that must not happen (organizers): each group at its version -------------
    WriteRoute {
        pattern: "/t/{id}/forbidden/new",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/forbidden/new", i.t),
        body: |w, i| {
            let b = w.int(&format!("SELECT max(id) FROM entrants WHERE tournament_id = {}", i.t));
            let (own, other) = (format!("m_{}", i.e), format!("m_{b}"));
            form(&[("label", "探针"), (&own, "on"), (&other, "on"), ("until_round", "3")])
        },
        foreign: Some(|w| {
            let (own, theirs) = (format!("m_{}", w.own.e), format!("m_{}", w.theirs.e));
            form(&[("label", "探针"), (&own, "on"), (&theirs, "on")])
        }),
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/forbidden/{fid}/edit",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/forbidden/{}/edit", i.t, i.forbidden),
        body: |w, i| {
            let b = w.int(&format!("SELECT max(id) FROM entrants WHERE tournament_id = {}", i.t));
            let v = version(w, "forbidden_pairs", i.forbidden);
            let (own, other) = (format!("m_{}", i.e), format!("m_{b}"));
            form(&[("label", "探针"), (&own, "on"), (&other, "on"), ("version", &v)])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/forbidden/{fid}/delete",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/forbidden/{}/delete", i.t, i.forbidden_spare),
        body: |w, i| form(&[("version", &version(w, "forbidden_pairs", i.forbidden_spare))]),
        foreign: None,
        control: Control::Writes,
    },
    // ---- Prizes (organizers): each write at the prizes' current version --------------------
    WriteRoute {
        pattern: "/t/{id}/prizes/places",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/prizes/places", i.t),
        body: |w, i| form_with_prize_version(w, i.t, &[("places", "3")]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/prizes/add",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/prizes/add", i.t),
        body: |w, i| form_with_prize_version(w, i.t, &[("kind", "woman"), ("name", ""), ("amount", "")]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/prizes/settings",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/prizes/settings", i.t),
        body: |w, i| {
            form_with_prize_version(
                w,
                i.t,
                &[("double", "higher"), ("template", "plain"), ("organizer", "探针协会")],
            )
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/prizes/{pid}/up",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/prizes/{}/up", i.t, i.prize),
        body: |w, i| form_with_prize_version(w, i.t, &[]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/prizes/{pid}/rename",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/prizes/{}/rename", i.t, i.prize),
        body: |w, i| form_with_prize_version(w, i.t, &[("name", "冠军"), ("amount", "奖金1000元")]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/prizes/{pid}/delete",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/prizes/{}/delete", i.t, i.prize_spare),
        body: |w, i| form_with_prize_version(w, i.t, &[]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/prizes/publish",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/prizes/publish", i.t),
        body: |w, i| form_with_prize_version(w, i.t, &[]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/ratings",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/ratings", i.t),
        body: |w, i| {
            let v = w.int(&format!("SELECT changes FROM tournaments WHERE id = {}", i.t));
            Body::Form(vec![("version".into(), v.to_string())])
        },
        foreign: None,
        control: Control::None(
            "the probes' tournament has a round still in play, so the organizer's request is refused \
             (409) until every round is over; e2e::gor::ratings_after_the_event_through_the_pages \
             shows the organizer's request accepted",
        ),
    },
    WriteRoute {
        pattern: "/t/{id}/prizes/unpublish",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/prizes/unpublish", i.t),
        body: |w, i| form_with_prize_version(w, i.t, &[]),
        foreign: None,
        control: Control::Writes,
    },
    // ---- Team events: teams (organizers), matches (staff) ----------------------------------
    WriteRoute {
        pattern: "/t/{id}/teams/settings",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/teams/settings", i.tb),
        // Paired already: only the tie-breaks may change.
        body: |w, i| Body::Form(team_settings_form(&w.s, i.tb, "boards", "swiss", "weijia")),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/teams/new",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/teams/new", i.tb),
        body: |_, _| {
            let name = unique();
            Body::Form(vec![
                ("name".into(), format!("探针队{name}")),
                ("players".into(), format!("1 {name}甲\n2 {name}乙")),
            ])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/teams/{team}",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/teams/{}", i.tb, i.team),
        body: |w, i| team_body(w, i.team, &unique()),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/teams/{team}/delete",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/teams/{}/delete", i.tb, i.spare),
        body: |w, i| {
            Body::Form(vec![(
                "version".into(),
                w.int(&format!("SELECT coalesce(max(version), 0) FROM teams WHERE id = {}", i.spare))
                    .to_string(),
            )])
        },
        foreign: None,
        control: Control::Writes,
    },
    // The research room (研究室, seed 003 Art. 10.1): its address issued anew, then revoked.
    WriteRoute {
        pattern: "/t/{id}/teams/{team}/room/issue",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/teams/{}/room/issue", i.tr, i.rteam),
        body: |w, i| Body::Form(vec![("version".into(), room_version(w, i.rteam))]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/teams/{team}/room/revoke",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/teams/{}/room/revoke", i.tr, i.rteam),
        body: |w, i| Body::Form(vec![("version".into(), room_version(w, i.rteam))]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/matches/{mid}/boards",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/matches/{}/boards", i.tb, i.bm),
        body: |w, i| Body::Form(board_fields(&w.s, i.tb, i.bm, "white")),
        // A player of another tournament's team on board 1.
        foreign: Some(|w| {
            let mut f = board_fields(&w.s, w.own.tb, w.own.bm, "white");
            let stranger = w.int(&format!(
                "SELECT min(id) FROM team_members WHERE team_id = {} AND role = 'player'",
                w.theirs.team
            ));
            set(&mut f, "first-1", &stranger.to_string());
            Body::Form(f)
        }),
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/team-rounds/{n}/pair",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/team-rounds/2/pair", i.tb),
        body: |_, _| form(&[("seed", "2")]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/team-rounds/{n}/delete",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/team-rounds/2/delete", i.tb),
        body: |_, _| form(&[]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/matches/{mid}/start",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/matches/{}/start", i.tr, i.m),
        body: |w, i| {
            Body::Form(vec![
                ("version".into(), match_version(w, i.m)),
                ("start".into(), "2026-12-05T09:00:00".into()),
            ])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/matches/{mid}/event",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/matches/{}/event", i.tr, i.m),
        body: |w, i| {
            let team = w.int(&format!("SELECT black_team_id FROM team_matches WHERE id = {}", i.m));
            lineup_body(w, i.m, relay_player(w, team, 1), relay_player(w, team, 2))
        },
        // Another tournament's player in the line-up.
        foreign: Some(|w| {
            let team = w.int(&format!("SELECT black_team_id FROM team_matches WHERE id = {}", w.own.m));
            let stranger = w.int(&format!(
                "SELECT min(id) FROM team_members WHERE team_id = {} AND role = 'player'",
                w.theirs.team
            ));
            lineup_body(w, w.own.m, relay_player(w, team, 1), stranger)
        }),
        control: Control::Writes,
    },
    // The relay board (web::relay_board): a move with its point and player, its undo, the
    // claim of an order error the board detected.
    WriteRoute {
        pattern: "/t/{id}/matches/{mid}/board/move",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/matches/{}/board/move", i.tr, i.m),
        body: |w, i| {
            let team = w.int(&format!("SELECT black_team_id FROM team_matches WHERE id = {}", i.m));
            Body::Form(vec![
                ("client".into(), "probe".into()),
                ("seq".into(), "1".into()),
                ("player".into(), relay_player(w, team, 1).to_string()),
                ("at".into(), "pd".into()),
            ])
        },
        foreign: None,
        control: Control::None("the fixture's match has no line-ups in; e2e relay_board:: enters moves"),
    },
    WriteRoute {
        pattern: "/t/{id}/matches/{mid}/board/undo",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/matches/{}/board/undo", i.tr, i.m),
        body: |_, _| Body::Form(vec![("seq".into(), "1".into())]),
        foreign: None,
        control: Control::None("the undo is its enterer's only: e2e relay_board:: proves it with two accounts"),
    },
    WriteRoute {
        pattern: "/t/{id}/matches/{mid}/board/claim",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/matches/{}/board/claim", i.tr, i.m),
        body: |w, i| Body::Form(vec![("version".into(), match_version(w, i.m)), ("claimant".into(), "white".into())]),
        foreign: None,
        control: Control::None("no order error stands in the fixture; e2e relay_board:: claims one"),
    },
    WriteRoute {
        // The chief arbiter only; with none named, the tournament's organizers (an arbiter
        // on the staff is refused).
        pattern: "/t/{id}/matches/{mid}/withdraw",
        guard: Guard::TournamentOrganizer,
        path: |i| format!("/t/{}/matches/{}/withdraw", i.tn, i.nm),
        body: |w, i| {
            let seq = w.int(&format!(
                "SELECT coalesce(max(seq), 0) FROM relay_events WHERE match_id = {} \
                 AND id NOT IN (SELECT event_id FROM relay_withdrawals)",
                i.nm
            ));
            Body::Form(vec![
                ("version".into(), match_version(w, i.nm)),
                ("seq".into(), seq.to_string()),
                ("reason".into(), "probe: recorded by mistake".into()),
            ])
        },
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        // Arbiters record the leaders' nigiri at the board, as for individual games.
        pattern: "/t/{id}/matches/{mid}/nigiri",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/matches/{}/nigiri", i.tn, i.nn),
        body: |w, i| {
            Body::Form(vec![
                ("version".into(), match_version(w, i.nn)),
                ("mode".into(), "board".into()),
                ("grab".into(), "17".into()),
                ("guess".into(), "odd".into()),
            ])
        },
        foreign: None,
        control: Control::Writes,
    },
    // The count from a relay game's position: the dead stones first (a leader's confirmation
    // needs a count), on the started match.
    WriteRoute {
        pattern: "/t/{id}/matches/{mid}/count/dead",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/matches/{}/count/dead", i.tn, i.nm),
        body: |w, i| Body::Form(vec![("version".into(), relay_count_version(w, i.nm)), ("dead".into(), String::new())]),
        foreign: None,
        control: Control::Writes,
    },
    WriteRoute {
        pattern: "/t/{id}/matches/{mid}/count/confirm",
        guard: Guard::TournamentStaff,
        path: |i| format!("/t/{}/matches/{}/count/confirm", i.tn, i.nm),
        body: |w, i| Body::Form(vec![("version".into(), relay_count_version(w, i.nm)), ("who".into(), "black".into())]),
        foreign: None,
        control: Control::Writes,
    },
];
