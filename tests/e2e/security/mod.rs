//! Security probes against the real server.
//!
//! - Every write route is refused without login, with the wrong role, without a CSRF token,
//!   with a wrong one or another session's, from another origin, and with another tournament's
//!   ids (in the path: tournament, entrant, game, ruling, match, team; in the body: entrant,
//!   account, team member); each refusal is a 4xx and leaves every table (and the backups
//!   folder) unchanged. The same request from the right user then succeeds, so no probe passes
//!   by accident.
//! - Script and HTML in every text field (tournament, entrant, account, search, login `next`,
//!   CSV cells, OpenGotha names, error messages that quote input, round and ruling reasons,
//!   game records and their file names, teams, team staff and players) render inert on every
//!   page and download (PDF, CSV, SGF, OpenGotha XML), in both languages, for staff and public.
//! - Path traversal on the asset and download routes is refused; cookies carry HttpOnly,
//!   SameSite=Strict and Path=/; every response carries the security headers; login is throttled.
//!
//! The tables [`WRITE_ROUTES`] ([`write_routes`]) and [`PAGES`] ([`pages`]) are the one place
//! to add a route. The tests `every_write_route_in_the_router_is_probed` and
//! `every_page_in_the_router_is_crawled` read the router's source (tests/e2e/common/routes.rs)
//! and fail when a route is missing there.
//! The PDFs are read back: no action keys (script, launch, URI, forms) anywhere, and the
//! payloads (including names that try to close a PDF string) are text on the page.

use crate::common;
use common::routes;
use common::*;
use pages::PAGES;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::Path;
use write_routes::WRITE_ROUTES;

mod pages;
mod write_routes;

// ---------------------------------------------------------------------------------------------
// The world the probes run in

/// Two organizers, each with an individual tournament (rounds, games, results, a ruling) and
/// the events of [`Events`] (round robin, relay, board matches); an arbiter on the first
/// organizer's staff everywhere.
struct World {
    s: Server,
    /// Global organizer; organizer of `t1` and its events.
    org: Client,
    /// Global organizer; organizer of `t2` and its events only.
    org2: Client,
    /// Global arbiter; arbiter on the staff of `t1` and its events.
    arb: Client,
    /// A second session of `org` (the logout control ends it).
    spare: Client,
    /// No session; has the anonymous CSRF cookie.
    anon: Client,
    /// Ids of the first organizer's things.
    own: Ids,
    /// The same kinds of ids, of the second organizer's things.
    theirs: Ids,
    /// The id of `org2`'s account (not on the staff of `own`'s tournaments).
    org2_id: i32,
}

const T1_NAME: &str = "安全测试赛";

fn add_account(org: &Client, name: &str, role: &str, display: &str) {
    let r = org.submit(
        "/users",
        "/users",
        &[("username", name), ("display_name", display), ("role", role), ("password", "probe-password-1")],
    );
    assert_eq!(r.status, 200, "add {name}: {}", r.body);
}

fn logged_in(s: &Server, name: &str) -> Client {
    let c = s.client();
    let r = c.login(name, "probe-password-1");
    assert_eq!(r.status, 303, "login {name}: {}", r.body);
    c
}

fn user_id(db: &Path, name: &str) -> i32 {
    count_rows(db, &format!("SELECT id FROM users WHERE username = '{name}'")) as i32
}

/// One integer from the database (a probe's body reads the current version or ids).
fn int(s: &Server, sql: &str) -> i32 {
    count_rows(&s.db, &format!("SELECT coalesce(({sql}), 0)")) as i32
}

/// A tournament from the default form with `changes`; its id.
fn tournament_with(c: &Client, name: &str, changes: &[(&str, &str)]) -> i32 {
    let mut f = tournament_fields(name, "Probe Event");
    for (k, v) in changes {
        set(&mut f, k, v);
    }
    let r = c.submit("/t/new", "/t/new", &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    r.location().trim_start_matches("/t/").parse().unwrap()
}

fn put_on_staff(org: &Client, tid: i32, uid: i32) {
    let r = org.submit(
        &format!("/t/{tid}"),
        &format!("/t/{tid}/staff"),
        &[("user_id", &uid.to_string()), ("role", "arbiter")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
}

/// A CSV of `n` players whose Chinese names carry `label(first + k)`.
fn players_csv(n: u32, first: u32, label: &dyn Fn(u32) -> String) -> String {
    let families = ["赵", "钱", "孙", "李", "周", "吴", "郑", "冯", "陈", "褚", "卫", "蒋"];
    let mut csv = String::from("姓名,拼音,段位,单位\n");
    for k in 0..n {
        let fam = families[k as usize % families.len()];
        csv.push_str(&format!("{fam}{}磊,Probe Player{k},{}段,探针棋社{k}\n", label(first + k), 1 + k % 5));
    }
    csv
}

/// A team of `players` through the form; its id.
fn add_team(
    s: &Server,
    c: &Client,
    tid: i32,
    name: &str,
    players: &[String],
    label: &dyn Fn(u32) -> String,
    n: u32,
) -> i32 {
    let list: Vec<String> = players.iter().enumerate().map(|(i, p)| format!("{} {p}", i + 1)).collect();
    let page = format!("/t/{tid}/teams/new");
    let r = c.submit(
        &page,
        &page,
        &[
            ("name", name),
            ("unit", &label(n)),
            ("rating", "2400"),
            ("leader", &label(n + 1)),
            ("coach", &label(n + 2)),
            ("captain", "1"),
            ("players", &list.join("\n")),
            ("reason", &label(n + 3)),
        ],
    );
    assert_eq!(r.status, 303, "team {name}: {}", r.body);
    int(s, &format!("SELECT max(id) FROM teams WHERE tournament_id = {tid}"))
}

fn team_settings_form(
    s: &Server,
    tid: i32,
    format: &str,
    pairing: &str,
    tiebreaks: &str,
) -> Vec<(String, String)> {
    let v =
        int(s, &format!("SELECT coalesce(max(version), 0) FROM team_settings WHERE tournament_id = {tid}"));
    [
        ("format", format),
        ("boards", if format == "boards" { "2" } else { "4" }),
        ("match_points", "3-1-0"),
        ("main_board", ""),
        ("pairing", pairing),
        ("equal_count", "draw"),
        ("tiebreaks", tiebreaks),
        ("playoff_clock", "game_end"),
        ("colours", "draw"),
        ("rr_bye", "none"),
        ("version", &v.to_string()),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

/// The ids a probe's path and body refer to: one of each kind of thing.
#[derive(Clone, Copy, Debug)]
struct Ids {
    /// An individual Swiss (nigiri): round 1 published, round 2 a draft.
    t: i32,
    /// The event `t` is the one group of.
    ev: i32,
    /// An entrant of `t`.
    e: i32,
    /// An account the account routes act on.
    user: i32,
    /// Games of round 1 of `t` (nigiri boards): for a result (`g`, its nigiri still to be
    /// recorded), with a ruling (`gr`, ruling `rid`, and a replay ordered: the replay `gp`),
    /// for lateness and the remote nigiri (`gl`), and one decided with a record attached
    /// (`gx`). The nigiri of `gr` and `gx` were recorded at the board.
    g: i32,
    gr: i32,
    rid: i32,
    gl: i32,
    gx: i32,
    gp: i32,
    /// A round robin with its entrants and no round yet.
    rr: i32,
    /// A relay team event with its match of round 1 (`m`); `rteam` plays it (Black), its
    /// research room (seed 003 Art. 10.1) at `room_path` (`/room/{token}`).
    tr: i32,
    m: i32,
    rteam: i32,
    room_path: &'static str,
    /// A board-match team event: match `bm` of round 1 undecided, the other decided; `team`
    /// plays, `spare` was added after the pairing and plays nothing.
    tb: i32,
    bm: i32,
    team: i32,
    spare: i32,
    /// A relay event whose colours come from the leaders' nigiri (seed 003 Art. 11): match
    /// `nm` with its nigiri performed and a line-up recorded (an event to withdraw), match `nn`
    /// still waiting for its nigiri.
    tn: i32,
    nm: i32,
    nn: i32,
    /// Prizes of `t`: place 1 (`prize`) and a special prize named by `label` (`prize_spare`).
    prize: i32,
    prize_spare: i32,
    /// The event `t` is the one group of, with its registration open and one registration
    /// (`reg`, reference `reference`) asked to change.
    event: i32,
    reg: i32,
    reference: &'static str,
    /// A display screen (大屏) of `event`, its name and announcement `label`'s, and its
    /// address's path (`/screen/{token}`).
    screen: i32,
    screen_path: &'static str,
    /// A rating list of `t` (uploaded after its round 1 was published).
    rl: i32,
    /// Groups of `t` that must not meet (回避), each of two entrants: one edited
    /// (`forbidden`), one deleted (`forbidden_spare`).
    forbidden: i32,
    forbidden_spare: i32,
}

/// Two groups of `t` that must not meet (回避), listed through the page by `org`, each of
/// `t`'s first two entrants, labelled `label(41)` and `label(42)`.
fn forbidden_groups(s: &Server, org: &Client, t: i32, label: &dyn Fn(u32) -> String) -> (i32, i32) {
    let a = int(s, &format!("SELECT min(id) FROM entrants WHERE tournament_id = {t}"));
    let b = int(s, &format!("SELECT min(id) FROM entrants WHERE tournament_id = {t} AND id > {a}"));
    for n in [41, 42] {
        let (name, ma, mb) = (label(n), format!("m_{a}"), format!("m_{b}"));
        let fields =
            [("label", name.as_str()), (&ma, "on"), (&mb, "on"), ("until_round", ""), ("reason", &name)];
        let r = org.submit(&format!("/t/{t}/forbidden"), &format!("/t/{t}/forbidden/new"), &fields);
        assert_eq!(r.status, 303, "forbidden group: {}", r.body);
    }
    let q = |f: &str| int(s, &format!("SELECT {f}(id) FROM forbidden_pairs WHERE tournament_id = {t}"));
    (q("min"), q("max"))
}

/// Rounds, games, a result with its record, a ruling, and the team events, made over HTTP by
/// `org` around tournament `t` (which has `have` entrants); every text carries `label(n)`
/// (plain names for the write probes, script payloads for the crawl). `staff` accounts are put
/// on the staff of every event made here.
fn events(s: &Server, org: &Client, t: i32, have: u32, staff: &[i32], label: &dyn Fn(u32) -> String) -> Ids {
    // Eight or more entrants: four games or more in round 1.
    let r = import_file(
        org,
        t,
        "csv",
        "more.csv",
        players_csv(8u32.saturating_sub(have).max(1), 700, label).as_bytes(),
    );
    assert_eq!(r.status, 303, "{}", r.body);
    for uid in staff {
        put_on_staff(org, t, *uid);
    }
    let rounds = format!("/t/{t}/rounds");
    let version = |n: i32| {
        int(
            s,
            &format!(
                "SELECT coalesce(max(version), 0) FROM rounds WHERE tournament_id = {t} AND number = {n}"
            ),
        )
        .to_string()
    };
    let r = org.submit(&rounds, &format!("{rounds}/1/pair"), &[("seed", "1"), ("reason", &label(710))]);
    assert_eq!(r.status, 303, "pair: {}", r.body);
    let r = org.submit(
        &rounds,
        &format!("{rounds}/1/publish"),
        &[("version", &version(1)), ("confirm", "on"), ("reason", &label(711))],
    );
    assert_eq!(r.status, 303, "publish: {}", r.body);
    let r = org.submit(&rounds, &format!("{rounds}/2/pair"), &[("seed", "2"), ("confirm", "on")]);
    assert_eq!(r.status, 303, "pair 2: {}", r.body);
    let boards: Vec<i32> = query(&s.db, &format!("SELECT id FROM games WHERE tournament_id = {t} AND round_number = 1 AND white_id IS NOT NULL ORDER BY board"))
        .into_iter()
        .map(|r| r[0].parse().unwrap())
        .collect();
    assert!(boards.len() >= 4, "{boards:?}");
    let (g, gr, gl, gx) = (boards[0], boards[1], boards[2], boards[3]);
    // A result or a ruling during play needs the colours: the nigiri of gr and gx at the board.
    for gid in [gr, gx] {
        let pv = int(s, &format!("SELECT pairing_version FROM games WHERE id = {gid}")).to_string();
        let r = org.submit(
            &format!("{rounds}/1"),
            &format!("{rounds}/1/games/{gid}/nigiri"),
            &[("pv", &pv), ("grab", "7"), ("guess", "odd"), ("reason", &label(716))],
        );
        assert_eq!(r.status, 303, "nigiri: {}", r.body);
    }
    let r = game_post(
        org,
        t,
        gr,
        "rulings",
        &[
            ("do", "save"),
            ("kind", "warning"),
            ("against", "black"),
            ("move_number", "10"),
            ("at_time", "10:15"),
            ("reason", &label(712)),
        ],
    );
    assert_eq!(r.status, 303, "ruling: {}", r.body);
    let rid = int(s, &format!("SELECT max(id) FROM rulings WHERE game_id = {gr}"));
    // A replay ordered by ruling (重赛): a game of its own, with its own start.
    let r = game_post(org, t, gr, "rulings", &[("do", "save"), ("kind", "replay"), ("move_number", "30")]);
    assert_eq!(r.status, 303, "replay: {}", r.body);
    let gp = int(s, &format!("SELECT id FROM games WHERE replay_of = {gr}"));
    assert!(gp > 0, "the replay game");
    let r = game_post(org, t, gx, "result", &[("do", "save"), ("method", "count"), ("black_count", "184.5")]);
    assert_eq!(r.status, 303, "result: {}", r.body);
    let page = org.get(&format!("/t/{t}/games/{gx}"));
    let sgf = format!(
        "(;GM[1]FF[4]SZ[19]KM[7.5]PB[{}]PW[{}]RE[B+R];B[pd];W[dp];B[pp];W[dd])",
        label(714),
        label(715)
    );
    let r = org.post_file(
        &format!("/t/{t}/games/{gx}/sgf"),
        &[("csrf", &page.csrf()), ("version", &page.input("version").unwrap())],
        "file",
        &format!("{}.sgf", label(713)),
        sgf.as_bytes(),
    );
    assert_eq!(r.status, 303, "sgf: {}", r.body);

    // A round robin with four entrants and nothing scheduled yet.
    let rr = tournament_with(
        org,
        &format!("循环{}", label(720)),
        &[("system", "round_robin"), ("colour_method", "balanced"), ("rounds", "3")],
    );
    let r = import_file(org, rr, "csv", "rr.csv", players_csv(4, 721, label).as_bytes());
    assert_eq!(r.status, 303, "{}", r.body);

    // A relay event: two teams, round 1 paired.
    let tr = tournament_with(
        org,
        &format!("接力{}", label(730)),
        &[("system", "team_relay"), ("preset", "chinese_team_relay"), ("komi", "3.5"), ("rounds", "1")],
    );
    let f = team_settings_form(s, tr, "relay", "round_robin", "generic");
    let r = org.submit(&format!("/t/{tr}/teams"), &format!("/t/{tr}/teams/settings"), &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    for (k, side) in ["东", "西"].iter().enumerate() {
        let k = k as u32;
        let players: Vec<String> = (1..=6).map(|p| format!("{side}{p}{}", label(740 + 10 * k + p))).collect();
        add_team(s, org, tr, &format!("{side}队{}", label(731 + k)), &players, label, 733 + 10 * k);
    }
    let r = org.submit(
        &format!("/t/{tr}/team-rounds"),
        &format!("/t/{tr}/team-rounds/1/pair"),
        &[("seed", "1"), ("reason", &label(760))],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let m = int(s, &format!("SELECT min(id) FROM team_matches WHERE tournament_id = {tr}"));
    let (rteam, room_path) = room(s, org, tr, m);

    // A board-match Swiss: four teams, round 1 paired, one match decided, a spare team.
    let tb = tournament_with(
        org,
        &format!("团体{}", label(770)),
        &[("system", "team_relay"), ("preset", "chinese_team_relay"), ("komi", "3.5"), ("rounds", "3")],
    );
    let f = team_settings_form(s, tb, "boards", "swiss", "generic");
    let r = org.submit(&format!("/t/{tb}/teams"), &format!("/t/{tb}/teams/settings"), &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    let mut teams = Vec::new();
    for (k, name) in ["甲", "乙", "丙", "丁"].iter().enumerate() {
        let k = k as u32;
        let players: Vec<String> = (1..=3).map(|p| format!("{name}{p}{}", label(780 + 4 * k + p))).collect();
        teams.push(add_team(
            s,
            org,
            tb,
            &format!("{name}队{}", label(771 + k)),
            &players,
            label,
            800 + 4 * k,
        ));
    }
    let r =
        org.submit(&format!("/t/{tb}/team-rounds"), &format!("/t/{tb}/team-rounds/1/pair"), &[("seed", "1")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let bms: Vec<i32> =
        query(&s.db, &format!("SELECT id FROM team_matches WHERE tournament_id = {tb} ORDER BY table_no"))
            .into_iter()
            .map(|r| r[0].parse().unwrap())
            .collect();
    assert_eq!(bms.len(), 2, "{bms:?}");
    let r = post_boards(s, org, tb, bms[1], "black");
    assert_eq!(r.status, 303, "{}", r.body);
    let spare =
        add_team(s, org, tb, &format!("备队{}", label(820)), &[format!("备1{}", label(821))], label, 822);

    // A relay event with the leaders' nigiri: four teams, round 1 paired; the first match's
    // nigiri performed from its seed, its start set and a line-up recorded; the second waits.
    let tn = tournament_with(
        org,
        &format!("猜先{}", label(830)),
        &[("system", "team_relay"), ("preset", "chinese_team_relay"), ("komi", "3.5"), ("rounds", "1")],
    );
    let mut f = team_settings_form(s, tn, "relay", "round_robin", "generic");
    f.retain(|(k, _)| k != "colours");
    f.push(("colours".into(), "leaders_nigiri".into()));
    let r = org.submit(&format!("/t/{tn}/teams"), &format!("/t/{tn}/teams/settings"), &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    for (k, side) in ["春", "夏", "秋", "冬"].iter().enumerate() {
        let k = k as u32;
        let players: Vec<String> = (1..=6).map(|p| format!("{side}{p}{}", label(840 + 10 * k + p))).collect();
        add_team(s, org, tn, &format!("{side}队{}", label(831 + k)), &players, label, 880 + 4 * k);
    }
    let r =
        org.submit(&format!("/t/{tn}/team-rounds"), &format!("/t/{tn}/team-rounds/1/pair"), &[("seed", "3")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let nms: Vec<i32> =
        query(&s.db, &format!("SELECT id FROM team_matches WHERE tournament_id = {tn} ORDER BY table_no"))
            .into_iter()
            .map(|r| r[0].parse().unwrap())
            .collect();
    assert_eq!(nms.len(), 2, "{nms:?}");
    let (nm, nn) = (nms[0], nms[1]);
    let page = format!("/t/{tn}/matches/{nm}");
    let mv = || int(s, &format!("SELECT version FROM team_matches WHERE id = {nm}")).to_string();
    let r = org.submit(&page, &format!("{page}/nigiri"), &[("version", &mv()), ("mode", "seed")]);
    assert_eq!(r.status, 303, "nigiri: {}", r.body);
    let r =
        org.submit(&page, &format!("{page}/start"), &[("version", &mv()), ("start", "2026-12-05T09:00:00")]);
    assert_eq!(r.status, 303, "start: {}", r.body);
    let black = query(
        &s.db,
        &format!(
            "SELECT p.id FROM team_members p JOIN team_matches m ON m.black_team_id = p.team_id \
             WHERE m.id = {nm} AND p.role = 'player' AND p.position IN (1, 2) ORDER BY p.position"
        ),
    );
    let r = org.submit(
        &page,
        &format!("{page}/event"),
        &[
            ("version", &mv()),
            ("kind", "lineup"),
            ("side", "black"),
            ("section", "1"),
            ("p1", &black[0][0]),
            ("p2", &black[1][0]),
            ("at", "2026-12-05T08:50:00"),
        ],
    );
    assert_eq!(r.status, 303, "line-up: {}", r.body);

    for uid in staff {
        for tid in [rr, tr, tb, tn] {
            put_on_staff(org, tid, *uid);
        }
    }
    let prize_version =
        || int(s, &format!("SELECT max(version) FROM prize_settings WHERE tournament_id = {t}"));
    let r = org.submit(
        &format!("/t/{t}/prizes"),
        &format!("/t/{t}/prizes/places"),
        &[("places", "3"), ("version", "0")],
    );
    assert_eq!(r.status, 303, "places: {}", r.body);
    let (name, v) = (label(40), prize_version().to_string());
    let r = org.submit(
        &format!("/t/{t}/prizes"),
        &format!("/t/{t}/prizes/add"),
        &[("kind", "unit"), ("units", &name), ("name", &name), ("amount", &name), ("version", &v)],
    );
    assert_eq!(r.status, 303, "special prize: {}", r.body);
    let prize = int(s, &format!("SELECT min(id) FROM prizes WHERE tournament_id = {t}"));
    let prize_spare = int(s, &format!("SELECT max(id) FROM prizes WHERE tournament_id = {t}"));
    let e = int(s, &format!("SELECT min(id) FROM entrants WHERE tournament_id = {t}"));
    let ev = int(s, &format!("SELECT event_id FROM event_groups WHERE tournament_id = {t}"));
    let (event, reg, reference) = registration(s, org, t);
    let (screen, screen_path) = screen(s, org, event, label);
    let rl = rating_list(s, org, t, label);
    let (forbidden, forbidden_spare) = forbidden_groups(s, org, t, label);
    Ids {
        rl,
        forbidden,
        forbidden_spare,
        screen,
        screen_path,
        event,
        reg,
        reference,
        prize,
        prize_spare,
        t,
        ev,
        e,
        user: 0,
        g,
        gr,
        rid,
        gl,
        gx,
        gp,
        rr,
        tr,
        m,
        rteam,
        room_path,
        tb,
        bm: bms[0],
        team: teams[0],
        spare,
        tn,
        nm,
        nn,
    }
}

/// The two teams' first and second players on the boards of match `mid`, every board won by
/// `result`'s side.
fn board_fields(s: &Server, tb: i32, mid: i32, result: &str) -> Vec<(String, String)> {
    let (first, second) = {
        let r = query(&s.db, &format!("SELECT black_team_id, white_team_id FROM team_matches WHERE id = {mid} AND tournament_id = {tb}"));
        r.first().map(|r| (r[0].clone(), r[1].clone())).unwrap_or(("0".into(), "0".into()))
    };
    let player = |team: &str, pos: u32| {
        int(
            s,
            &format!(
                "SELECT id FROM team_members WHERE team_id = {team} AND role = 'player' AND position = {pos}"
            ),
        )
        .to_string()
    };
    let mut f = vec![(
        "version".to_string(),
        int(s, &format!("SELECT version FROM team_matches WHERE id = {mid}")).to_string(),
    )];
    for k in 1..=2u32 {
        f.push((format!("first-{k}"), player(&first, k)));
        f.push((format!("second-{k}"), player(&second, k)));
        f.push((format!("result-{k}"), result.to_string()));
    }
    f
}

fn post_boards(s: &Server, c: &Client, tb: i32, mid: i32, result: &str) -> Resp {
    let f = board_fields(s, tb, mid, result);
    c.submit(&format!("/t/{tb}/matches/{mid}"), &format!("/t/{tb}/matches/{mid}/boards"), &as_refs(&f))
}

impl World {
    fn new() -> World {
        let s = Server::start();
        let org = s.first_organizer();
        add_account(&org, "org2", "organizer", "别家组织者");
        add_account(&org, "arb", "arbiter", "裁判");
        add_account(&org, "victim", "arbiter", "受试者");
        let t1 = create_tournament(&org, T1_NAME);
        let arb_id = user_id(&s.db, "arb");
        let org2 = logged_in(&s, "org2");
        let t2 = create_tournament(&org2, "别家的赛");
        assert_eq!(add_entrant(&org, t1, "王", "伟", "1d").status, 303);
        assert_eq!(add_entrant(&org2, t2, "李", "娜", "2k").status, 303);
        let plain = |n: u32| format!("名{n}");
        let mut own = events(&s, &org, t1, 1, &[arb_id], &plain);
        let mut theirs = events(&s, &org2, t2, 1, &[], &plain);
        let arb = logged_in(&s, "arb");
        let spare = s.client();
        assert_eq!(spare.login(ORG_USER, ORG_PASS).status, 303);
        let anon = s.client();
        assert_eq!(anon.get("/login").status, 200, "sets the anonymous CSRF cookie");
        own.user = user_id(&s.db, "victim");
        theirs.user = own.user;
        let org2_id = user_id(&s.db, "org2");
        World { s, org, org2, arb, spare, anon, own, theirs, org2_id }
    }

    /// The rightful user for a guard.
    fn rightful(&self, g: Guard) -> &Client {
        match g {
            Guard::Anyone => &self.anon,
            Guard::Session => &self.spare,
            Guard::Organizer | Guard::TournamentOrganizer => &self.org,
            Guard::TournamentStaff => &self.arb,
        }
    }

    fn int(&self, sql: &str) -> i32 {
        int(&self.s, sql)
    }
}

/// A client's current CSRF token (from any page that has a form).
fn token(c: &Client) -> String {
    for page in ["/", "/login"] {
        let r = c.get(page);
        if r.body.contains("name=\"csrf\"") {
            return r.csrf();
        }
    }
    panic!("no page with a CSRF token for this client");
}

// ---------------------------------------------------------------------------------------------
// What the database holds, to show that a refusal wrote nothing

/// Per table: row count and a hash of every value, plus the files in backups/. Leaves out a
/// session's `last_seen_at`: a request of a logged-in user notes its session's last use (at
/// most once a minute, db::users::session) whether or not it is then refused; that is the
/// requester's own sign of life, not a write the request made (a run past a minute on a slow
/// machine met it).
const SIGN_OF_LIFE: &str = "last_seen_at";

fn snapshot(s: &Server) -> BTreeMap<String, (usize, u64)> {
    let mut out = if is_pg(&s.db) { pg_tables(s) } else { sqlite_tables(s) };
    let backups = std::fs::read_dir(s.dir.path().join("backups")).map(|d| d.count()).unwrap_or(0);
    out.insert("<backups/>".into(), (backups, 0));
    out
}

/// Per table on PostgreSQL, in one query: the row count and an md5 of every row's text, in
/// order (query_to_xml runs the per-table query that plain SQL cannot name).
fn pg_tables(s: &Server) -> BTreeMap<String, (usize, u64)> {
    use std::hash::{Hash, Hasher};
    let sql = format!(
        "SELECT table_name, (xpath('/row/n/text()', x))[1]::text, (xpath('/row/h/text()', x))[1]::text \
               FROM (SELECT table_name, query_to_xml(format('SELECT count(*) AS n, \
               md5(coalesce(string_agg(r, %L ORDER BY r), %L)) AS h FROM (SELECT (to_jsonb(t) - %L)::text AS r FROM %I t) u', '|', '', '{SIGN_OF_LIFE}', table_name), \
         false, true, '') AS x FROM information_schema.tables \
         WHERE table_schema = 'public' AND table_type = 'BASE TABLE') s ORDER BY 1"
    );
    query(&s.db, &sql)
        .into_iter()
        .map(|r| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            r[2].hash(&mut h);
            (r[0].clone(), (r[1].parse().expect("a count"), h.finish()))
        })
        .collect()
}

fn sqlite_tables(s: &Server) -> BTreeMap<String, (usize, u64)> {
    use std::hash::{Hash, Hasher};
    let c = rusqlite::Connection::open_with_flags(&s.db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
        .expect("open db");
    c.busy_timeout(std::time::Duration::from_secs(5)).unwrap();
    let tables: Vec<String> = c
        .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(|r| r.unwrap())
        .collect();
    let mut out = BTreeMap::new();
    for t in tables {
        let mut st = c.prepare(&format!("SELECT * FROM \"{t}\" ORDER BY rowid")).unwrap();
        let n_cols = st.column_count();
        let kept: Vec<usize> = (0..n_cols).filter(|&i| st.column_name(i) != Ok(SIGN_OF_LIFE)).collect();
        let mut rows = st.query([]).unwrap();
        let mut h = std::collections::hash_map::DefaultHasher::new();
        let mut n = 0;
        while let Some(row) = rows.next().unwrap() {
            n += 1;
            for &i in &kept {
                format!("{:?}", row.get_ref(i).unwrap()).hash(&mut h);
            }
        }
        out.insert(t, (n, h.finish()));
    }
    out
}

fn changed(a: &BTreeMap<String, (usize, u64)>, b: &BTreeMap<String, (usize, u64)>) -> Vec<String> {
    a.keys().chain(b.keys()).filter(|k| a.get(*k) != b.get(*k)).cloned().collect()
}

// ---------------------------------------------------------------------------------------------
// Headers every response carries

fn check_headers(what: &str, headers: &[(String, String)]) {
    let h = |n: &str| headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(n)).map(|(_, v)| v.as_str());
    let csp = h("content-security-policy").unwrap_or_else(|| panic!("{what}: no CSP"));
    for d in ["default-src 'self'", "script-src 'self'", "frame-ancestors 'none'", "object-src 'none'"] {
        assert!(csp.contains(d), "{what}: CSP lacks {d}: {csp}");
    }
    assert!(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"), "{what}: {csp}");
    assert_eq!(h("x-frame-options"), Some("DENY"), "{what}");
    assert_eq!(h("x-content-type-options"), Some("nosniff"), "{what}");
    assert_eq!(h("referrer-policy"), Some("same-origin"), "{what}");
}

/// Open the registration (网上报名) of the event `t` is the group of, send one registration
/// through the public form and ask it to change: the event, the registration and its reference.
fn registration(s: &Server, org: &Client, t: i32) -> (i32, i32, &'static str) {
    let event = int(s, &format!("SELECT event_id FROM event_groups WHERE tournament_id = {t}"));
    let queue = format!("/e/{event}/registrations");
    let settings = registration_settings("0", &[(t, "")], ["off", "off", "off", "optional"]);
    let settings = as_refs(&settings);
    let r = org.submit(&queue, &format!("{queue}/settings"), &settings);
    assert_eq!(r.status, 303, "registration settings: {}", r.body);
    let form = format!("/e/{event}/register");
    let group = t.to_string();
    let fields =
        [("family_name_zh", "赵"), ("given_name_zh", "探针"), ("rank", "3k"), ("group", group.as_str())];
    let r = s.client().submit(&form, &form, &fields);
    assert_eq!(r.status, 303, "registration: {}", r.body);
    let reg = int(s, &format!("SELECT max(id) FROM registrations WHERE event_id = {event}"));
    let reference =
        query_text(&s.db, &format!("SELECT reference FROM registrations WHERE id = {reg}")).unwrap();
    let v = int(s, &format!("SELECT version FROM registrations WHERE id = {reg}")).to_string();
    let r = org.submit(&queue, &format!("{queue}/{reg}/change"), &[("version", &v), ("message", "请补充")]);
    assert_eq!(r.status, 303, "ask for a change: {}", r.body);
    (event, reg, Box::leak(reference.into_boxed_str()))
}

/// A display screen (大屏) of `event` made through its form, named and announcing `label`'s
/// text: its id and its address's path, read from the answer that shows it once.
fn screen(s: &Server, org: &Client, event: i32, label: &dyn Fn(u32) -> String) -> (i32, &'static str) {
    let list = format!("/e/{event}/screens");
    let (name, note) = (label(50), label(51));
    let fields = [
        ("version", "0"),
        ("name", name.as_str()),
        ("c_tables", "on"),
        ("c_names", "on"),
        ("c_results", "on"),
        ("c_standings", "on"),
        ("c_countdown", "on"),
        ("pace", "10"),
        ("columns", "2"),
        ("rows", "10"),
        ("announcement", note.as_str()),
    ];
    let r = org.submit(&list, &format!("/e/{event}/screens/new"), &fields);
    // The address is shown once, on the page the write redirects to.
    assert_eq!(r.status, 303, "screen: {}", r.body);
    let r = org.get(&r.location());
    let at = r.body.find("/screen/").expect("the screen's address shown once");
    let path = &r.body[at..];
    let path = &path[..path.find('"').unwrap()];
    let id = int(s, &format!("SELECT max(id) FROM screens WHERE event_id = {event}"));
    (id, Box::leak(path.to_string().into_boxed_str()))
}

/// The research room (研究室, seed 003 Art. 10.1) of the team playing Black in relay match `m`
/// of `tr`, its address issued on the team's page: the team's id and the address's path, read
/// from the page the write sends the browser to (shown once).
fn room(s: &Server, org: &Client, tr: i32, m: i32) -> (i32, &'static str) {
    let team = int(s, &format!("SELECT black_team_id FROM team_matches WHERE id = {m}"));
    let page = format!("/t/{tr}/teams/{team}");
    let r = org.submit(&page, &format!("{page}/room/issue"), &[("version", "0")]);
    assert_eq!(r.status, 303, "room: {}", r.body);
    let r = org.get(&r.location());
    let at = r.body.find("/room/").expect("the room's address shown once");
    let path = &r.body[at..];
    let path = &path[..path.find('"').unwrap()];
    (team, Box::leak(path.to_string().into_boxed_str()))
}

/// A rating list of `t` uploaded through its form (a CSV list naming `label`'s player).
fn rating_list(s: &Server, org: &Client, t: i32, label: &dyn Fn(u32) -> String) -> i32 {
    let token = org.get(&format!("/t/{t}/rating-lists")).csrf();
    let csv = format!("id,name,rank,club\nL1,{} Probe,3d,{}\n", label(60), label(61));
    let fields =
        [("csrf", token.as_str()), ("source", "csv"), ("list_date", "2026-12-01"), ("name", "probe")];
    let r = org.post_file(&format!("/t/{t}/rating-lists"), &fields, "file", "list.csv", csv.as_bytes());
    assert_eq!(r.status, 303, "rating list: {}", r.body);
    int(s, &format!("SELECT max(id) FROM rating_lists WHERE tournament_id = {t}"))
}

// ---------------------------------------------------------------------------------------------
// The write routes

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Guard {
    /// Anyone may post (login, first run); CSRF and Origin still apply.
    Anyone,
    /// Any logged-in user (logout).
    Session,
    /// A global organizer (accounts, new tournaments).
    Organizer,
    /// An organizer on the tournament's staff.
    TournamentOrganizer,
    /// Anyone on the tournament's staff, arbiters included (results, rulings, colours, matches).
    TournamentStaff,
}

/// What the right user's request should do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Control {
    /// Succeed (2xx/3xx) and write.
    Writes,
    /// Succeed and write, after every other control (it ends a session or a tournament).
    WritesLast,
    /// Succeed without writing (a preview).
    Reads,
    /// No control, and why.
    None(&'static str),
}

enum Body {
    Form(Vec<(String, String)>),
    File { fields: Vec<(String, String)>, filename: &'static str, data: Vec<u8> },
}

struct WriteRoute {
    /// The pattern exactly as in the router.
    pattern: &'static str,
    guard: Guard,
    path: fn(&Ids) -> String,
    /// A body the right user would have had accepted (without the CSRF token).
    body: fn(&World, &Ids) -> Body,
    /// A body naming another tournament's things (an entrant, an account, a team member) in
    /// this tournament's request: refused with a 4xx, nothing written.
    foreign: Option<fn(&World) -> Body>,
    control: Control,
}

/// Send a probe's body as `c`, with `csrf` (if any) as the token.
fn send(c: &Client, path: &str, body: Body, csrf: Option<&str>) -> Resp {
    match body {
        Body::Form(mut f) => {
            if let Some(t) = csrf {
                f.insert(0, ("csrf".into(), t.into()));
            }
            c.post_form(path, &as_refs(&f))
        }
        Body::File { mut fields, filename, data } => {
            if let Some(t) = csrf {
                fields.insert(0, ("csrf".into(), t.into()));
            }
            c.post_file(path, &as_refs(&fields), "file", filename, &data)
        }
    }
}

/// A client with the same cookies as `c` but its own Origin/Referer headers.
fn twin(w: &World, c: &Client, origin: Option<&str>, referer: Option<&str>) -> Client {
    let mut t = Client::new(&w.s.base);
    t.cookies = c.cookies.clone();
    t.origin = origin.map(String::from);
    t.referer = referer.map(String::from);
    t
}

#[test]
fn every_write_route_in_the_router_is_probed() {
    let table: Vec<&str> = WRITE_ROUTES.iter().map(|r| r.pattern).collect();
    let router = routes::write_routes();
    assert!(router.len() >= 10, "the router reader found too few routes: {router:?}");
    let missing: Vec<String> = router
        .iter()
        .filter(|r| !table.contains(&r.path.as_str()))
        .map(|r| format!("{} {} ({})", r.method, r.path, r.file))
        .collect();
    assert!(
        missing.is_empty(),
        "write routes without security probes; add them to WRITE_ROUTES (security/write_routes.rs): {missing:#?}"
    );
    let stale: Vec<&&str> = table.iter().filter(|p| !router.iter().any(|r| r.path == **p)).collect();
    assert!(stale.is_empty(), "probes for routes the router no longer has: {stale:?}");
    assert!(router.iter().all(|r| r.method == "POST"), "only POST writes today: {router:?}");
}

/// `own` with the things of one kind (a path placeholder) replaced by the other tournament's.
fn foreign(own: &Ids, theirs: &Ids, placeholder: &str) -> Ids {
    let mut i = *own;
    match placeholder {
        "{eid}" => i.e = theirs.e,
        "{gid}" => (i.g, i.gr, i.gl, i.gx, i.gp) = (theirs.g, theirs.gr, theirs.gl, theirs.gx, theirs.gp),
        "{rid}" => i.rid = theirs.rid,
        "{mid}" => (i.m, i.bm, i.nm, i.nn) = (theirs.m, theirs.bm, theirs.nm, theirs.nn),
        "{team}" => (i.team, i.spare, i.rteam) = (theirs.team, theirs.spare, theirs.rteam),
        "{pid}" => (i.prize, i.prize_spare) = (theirs.prize, theirs.prize_spare),
        "{list}" => i.rl = theirs.rl,
        "{fid}" => (i.forbidden, i.forbidden_spare) = (theirs.forbidden, theirs.forbidden_spare),
        _ => panic!("no foreign ids for {placeholder}"),
    }
    i
}

#[test]
fn every_write_route_refuses_the_wrong_people_and_forged_requests() {
    let w = World::new();
    let table = WRITE_ROUTES;
    let own = w.own;
    let mut refusals = 0;
    let mut refuse = |route: &WriteRoute,
                      case: &str,
                      r: Resp,
                      expect: &[u16],
                      before: &BTreeMap<String, (usize, u64)>| {
        let what = format!("POST {} [{case}]", route.pattern);
        assert!(expect.contains(&r.status), "{what}: status {} (expected {expect:?}): {}", r.status, r.body);
        check_headers(&what, &r.headers);
        let after = snapshot(&w.s);
        let diff = changed(before, &after);
        assert!(diff.is_empty(), "{what}: refused with {} but wrote to {diff:?}", r.status);
        refusals += 1;
    };

    for route in table {
        let right = w.rightful(route.guard);
        let path = (route.path)(&own);
        let right_token = token(right);
        let before = snapshot(&w.s);

        // No login (the anonymous client has a valid anonymous token, so only the login is missing).
        match route.guard {
            Guard::Anyone => {}
            Guard::Session => {
                // Logging out without a session is a no-op: any answer, nothing written.
                let r = send(&w.anon, &path, (route.body)(&w, &own), Some(&token(&w.anon)));
                assert!(r.status < 500, "{}", r.status);
                assert!(changed(&before, &snapshot(&w.s)).is_empty(), "anonymous logout wrote");
            }
            _ => {
                let r = send(&w.anon, &path, (route.body)(&w, &own), Some(&token(&w.anon)));
                refuse(route, "no login", r, &[401], &before);
            }
        }
        // The wrong role: an arbiter on the tournament's staff, on organizer routes.
        if matches!(route.guard, Guard::Organizer | Guard::TournamentOrganizer) {
            let r = send(&w.arb, &path, (route.body)(&w, &own), Some(&token(&w.arb)));
            refuse(route, "arbiter", r, &[403], &before);
        }
        // Another tournament: its organizer on this tournament's route; the right user with the
        // other tournament's things in this tournament's path or body; the right user on the
        // other tournament's route.
        if matches!(route.guard, Guard::TournamentOrganizer | Guard::TournamentStaff) {
            let r = send(&w.org2, &path, (route.body)(&w, &own), Some(&token(&w.org2)));
            refuse(route, "organizer of another tournament", r, &[403], &before);
            // This tournament's path with one of the other tournament's things in it.
            for placeholder in ["{eid}", "{gid}", "{rid}", "{mid}", "{team}", "{list}"] {
                if !route.pattern.contains(placeholder) {
                    continue;
                }
                let other = foreign(&own, &w.theirs, placeholder);
                let r = send(right, &(route.path)(&other), (route.body)(&w, &other), Some(&right_token));
                refuse(route, &format!("{placeholder} of another tournament"), r, &[404], &before);
            }
            // Another tournament's entrant, account or team member in the body.
            if let Some(body) = route.foreign {
                let r = send(right, &path, body(&w), Some(&right_token));
                let what = format!("POST {} [another tournament's id in the body]", route.pattern);
                assert!((400..500).contains(&r.status), "{what}: {} {}", r.status, r.body);
                check_headers(&what, &r.headers);
                let diff = changed(&before, &snapshot(&w.s));
                assert!(diff.is_empty(), "{what}: refused with {} but wrote to {diff:?}", r.status);
            }
            // And the other way round: this organizer on the other tournament.
            let theirs = w.theirs;
            let r = send(right, &(route.path)(&theirs), (route.body)(&w, &theirs), Some(&right_token));
            refuse(route, "another tournament's id", r, &[403], &before);
        }
        // Forged requests by the right user.
        let r = send(right, &path, (route.body)(&w, &own), None);
        refuse(route, "no CSRF token", r, &[403], &before);
        let r = send(right, &path, (route.body)(&w, &own), Some(&"0".repeat(64)));
        refuse(route, "wrong CSRF token", r, &[403], &before);
        let r = send(right, &path, (route.body)(&w, &own), Some(""));
        refuse(route, "empty CSRF token", r, &[403], &before);
        let other_session = token(if std::ptr::eq(right, &w.org2) { &w.org } else { &w.org2 });
        let r = send(right, &path, (route.body)(&w, &own), Some(&other_session));
        refuse(route, "another session's CSRF token", r, &[403], &before);
        let evil = twin(&w, right, Some("http://evil.example"), None);
        let r = send(&evil, &path, (route.body)(&w, &own), Some(&right_token));
        refuse(route, "right token, foreign Origin", r, &[403], &before);
        let null = twin(&w, right, Some("null"), None);
        let r = send(&null, &path, (route.body)(&w, &own), Some(&right_token));
        refuse(route, "right token, Origin null", r, &[403], &before);
        let evil_ref = twin(&w, right, None, Some("http://evil.example/page"));
        let r = send(&evil_ref, &path, (route.body)(&w, &own), Some(&right_token));
        refuse(route, "right token, no Origin, foreign Referer", r, &[403], &before);
        let lookalike = twin(&w, right, Some(&format!("{}.evil.example", w.s.base)), None);
        let r = send(&lookalike, &path, (route.body)(&w, &own), Some(&right_token));
        refuse(route, "right token, look-alike Origin", r, &[403], &before);
    }
    assert!(refusals >= table.len() * 8, "{refusals} refusals checked");

    // Controls: the same requests from the right user, with the right token, are accepted.
    let mut order: Vec<&WriteRoute> = table.iter().filter(|r| r.control != Control::WritesLast).collect();
    order.extend(table.iter().filter(|r| r.control == Control::WritesLast));
    for route in order {
        if let Control::None(why) = route.control {
            eprintln!("no control for {}: {why}", route.pattern);
            continue;
        }
        let right = w.rightful(route.guard);
        let before = snapshot(&w.s);
        let r = send(right, &(route.path)(&own), (route.body)(&w, &own), Some(&token(right)));
        let what = format!("POST {} [control]", route.pattern);
        assert!((200..400).contains(&r.status), "{what}: {} {}", r.status, r.body);
        check_headers(&what, &r.headers);
        let diff = changed(&before, &snapshot(&w.s));
        match route.control {
            Control::Reads => assert!(diff.is_empty(), "{what}: a preview wrote to {diff:?}"),
            _ => assert!(!diff.is_empty(), "{what}: accepted but wrote nothing"),
        }
    }
}

#[test]
fn the_first_run_form_is_refused_once_an_account_exists_or_without_csrf() {
    let s = Server::start();
    let url = s.setup_url.clone().expect("first-run link");
    let path = url.trim_start_matches(&s.base).to_string();
    let anon = s.client();
    let page = anon.get(&path);
    let fields = [("username", "early"), ("password", "early-password-1"), ("password2", "early-password-1")];
    assert_eq!(anon.post_form(&path, &fields).status, 403, "no token");
    let mut evil = Client::new(&s.base);
    evil.cookies = anon.cookies.clone();
    evil.origin = Some("http://evil.example".into());
    let mut with = vec![("csrf", page.csrf())];
    with.extend(fields.iter().map(|(k, v)| (*k, v.to_string())));
    let with: Vec<(&str, &str)> = with.iter().map(|(k, v)| (*k, v.as_str())).collect();
    assert_eq!(evil.post_form(&path, &with).status, 403, "foreign origin");
    assert_eq!(anon.post_form(&format!("/setup/{}", "f".repeat(64)), &with).status, 404, "wrong link");
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM users"), 0);
    s.first_organizer();
    assert_eq!(anon.post_form(&path, &with).status, 404, "the link is spent");
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM users"), 1);
}

// ---------------------------------------------------------------------------------------------
// Pages

/// How a page's body is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Html,
    /// A download: right content type, served as an attachment.
    Csv,
    Css,
    /// A redirect (the language switch).
    Redirect,
    /// A PDF download: parsed, no active content, its text checked like a page's.
    Pdf,
    /// A game record download (text, served as an attachment).
    Sgf,
    /// The OpenGotha export: XML in which every payload is escaped.
    Xml,
    /// Another text download (the EGF results file): its content type starts so, served as an
    /// attachment.
    Text(&'static str),
    /// The referee's clock: HTML whose only scripts are the clock's own two files.
    Clock,
    /// The check-in desk: HTML whose only script is the desk's refresh file.
    Desk,
    /// The count page: HTML whose only script is the board's tap file and whose only SVG is
    /// the board.
    Count,
    /// A static file of the page (the clock's script): its content type starts so.
    Asset(&'static str),
    /// A display screen (大屏): HTML whose only scripts are the screen's own and the live
    /// updates' files.
    Screen,
    /// A board page (web::board): HTML whose one SVG is the board drawn by the server and
    /// whose only scripts are the recorder's and the live updates' files.
    Board,
}

/// What a board page may hold that is live markup elsewhere.
const BOARD_MARKUP: [&str; 2] = ["<svg id=\"board-svg\"", "<script src=\"/assets/board.js\" defer></script>"];

/// The script tags a display screen is allowed.
const SCREEN_SCRIPTS: [&str; 2] =
    ["<script src=\"/assets/screen.js\" defer></script>", "<script src=\"/assets/live.js\" defer></script>"];

/// The script tag the check-in desk is allowed (its periodic refresh).
const DESK_SCRIPTS: [&str; 1] = ["<script src=\"/assets/check_in.js\" defer></script>"];

/// The count page's script tag and the opening of its board (the one SVG it is allowed).
const COUNT_TAGS: [&str; 2] =
    ["<script src=\"/assets/count.js\" defer></script>", "<svg class=\"goban\" id=\"goban\""];

/// The script tags the clock page is allowed; anything else is live markup.
const CLOCK_SCRIPTS: [&str; 2] =
    ["<script src=\"/assets/clock/clock.js\"></script>", "<script src=\"/assets/clock/page.js\"></script>"];

struct Page {
    pattern: &'static str,
    path: fn(&Ids) -> String,
    kind: Kind,
}

#[test]
fn every_page_in_the_router_is_crawled() {
    let table: Vec<&str> = PAGES.iter().map(|p| p.pattern).collect();
    let router = routes::read_routes();
    let missing: Vec<String> = router
        .iter()
        .filter(|r| !table.contains(&r.path.as_str()))
        .map(|r| format!("GET {}", r.path))
        .collect();
    assert!(
        missing.is_empty(),
        "pages the security crawl does not visit; add them to PAGES (security/pages.rs): {missing:#?}"
    );
}

/// The script tag every public page of a tournament is allowed (its live updates).
const LIVE_SCRIPT: &str = "<script src=\"/assets/live.js\" defer></script>";

/// Script or HTML that would run: raw tags, or a `javascript:` URL in an attribute (the live
/// pages' own script apart).
fn live_markup(body: &str) -> Vec<String> {
    let low = body.replacen(LIVE_SCRIPT, "", 1).to_ascii_lowercase();
    let mut found = Vec::new();
    for bad in ["<script", "<img", "<svg", "<iframe", "onerror=\"", "onload=\""] {
        if low.contains(bad) {
            found.push(bad.to_string());
        }
    }
    for attr in ["href", "src", "action", "formaction"] {
        for q in ["=\"", "='", "="] {
            let needle = format!("{attr}{q}javascript:");
            if low.contains(&needle) {
                found.push(needle);
            }
        }
    }
    found
}

/// Every page, in both languages, as the staff and as the public: headers on, nothing live.
/// Returns the bodies by (path, language, who) for the caller's "shown" checks.
fn crawl(s: &Server, staff: &Client, ids: &Ids) -> BTreeMap<(String, &'static str, &'static str), String> {
    let anon = s.client();
    let mut bodies = BTreeMap::new();
    for lang in ["en", "zh-CN"] {
        for (who, c) in [("staff", staff), ("public", &anon)] {
            let mut c2 = Client::new(&s.base);
            c2.cookies = c.cookies.clone();
            c2.accept_language = lang.into();
            for p in PAGES {
                let path = (p.path)(ids);
                // The language switch sets a cookie: follow it with a throw-away copy.
                let r = if p.kind == Kind::Redirect {
                    let c3 = Client::new(&s.base);
                    c3.cookies.replace(c2.cookies.borrow().clone());
                    c3.get(&path)
                } else {
                    c2.get(&path)
                };
                let what = format!("GET {path} ({lang}, {who})");
                assert!(r.status < 500, "{what}: {}", r.status);
                check_headers(&what, &r.headers);
                match p.kind {
                    Kind::Html => {
                        if r.status == 200 {
                            assert!(
                                r.header("content-type")
                                    .unwrap_or("")
                                    .starts_with("text/html; charset=utf-8"),
                                "{what}"
                            );
                        }
                        let live = live_markup(&r.body);
                        assert!(live.is_empty(), "{what}: live markup {live:?} in:\n{}", r.body);
                    }
                    Kind::Csv if r.status == 200 => {
                        assert!(r.header("content-type").unwrap_or("").starts_with("text/csv"), "{what}");
                        assert!(
                            r.header("content-disposition").unwrap_or("").starts_with("attachment"),
                            "{what}"
                        );
                    }
                    Kind::Css => {
                        assert!(r.header("content-type").unwrap_or("").starts_with("text/css"), "{what}")
                    }
                    Kind::Redirect => {
                        assert_eq!(r.status, 303, "{what}");
                        assert!(r.location().starts_with('/') && !r.location().starts_with("//"), "{what}");
                    }
                    Kind::Csv => {}
                    Kind::Pdf if r.status == 200 => {
                        assert_eq!(r.header("content-type"), Some("application/pdf"), "{what}");
                        assert!(
                            r.header("content-disposition").unwrap_or("").starts_with("attachment"),
                            "{what}"
                        );
                        let text = pdf_inert(&what, &r.bytes);
                        bodies.insert((path, lang, who), text);
                        continue;
                    }
                    Kind::Sgf if r.status == 200 => {
                        assert!(
                            r.header("content-type").unwrap_or("").starts_with("application/x-go-sgf"),
                            "{what}"
                        );
                        assert!(
                            r.header("content-disposition").unwrap_or("").starts_with("attachment"),
                            "{what}"
                        );
                    }
                    Kind::Xml if r.status == 200 => {
                        assert!(
                            r.header("content-disposition").unwrap_or("").starts_with("attachment"),
                            "{what}"
                        );
                        let live = live_markup(&r.body);
                        assert!(live.is_empty(), "{what}: unescaped markup {live:?} in:\n{}", r.body);
                    }
                    Kind::Text(ct) if r.status == 200 => {
                        assert!(r.header("content-type").unwrap_or("").starts_with(ct), "{what}");
                        assert!(
                            r.header("content-disposition").unwrap_or("").starts_with("attachment"),
                            "{what}"
                        );
                    }
                    Kind::Board => {
                        let mut body = r.body.clone();
                        for tag in BOARD_MARKUP {
                            body = body.replacen(tag, "", 1);
                        }
                        let live = live_markup(&body);
                        assert!(live.is_empty(), "{what}: live markup {live:?} in:\n{}", r.body);
                    }
                    Kind::Clock | Kind::Desk | Kind::Screen | Kind::Count => {
                        let mut body = r.body.clone();
                        let tags: &[&str] = match p.kind {
                            Kind::Desk => &DESK_SCRIPTS,
                            Kind::Count => &COUNT_TAGS,
                            Kind::Screen => &SCREEN_SCRIPTS,
                            _ => &CLOCK_SCRIPTS,
                        };
                        if r.status == 200 {
                            for tag in tags {
                                assert!(body.contains(tag), "{what}: {tag} missing");
                                body = body.replace(tag, "");
                            }
                        }
                        let live = live_markup(&body);
                        assert!(live.is_empty(), "{what}: live markup {live:?} in:\n{}", r.body);
                    }
                    Kind::Asset(ct) => {
                        assert_eq!(r.status, 200, "{what}");
                        assert!(r.header("content-type").unwrap_or("").starts_with(ct), "{what}");
                    }
                    Kind::Pdf | Kind::Sgf | Kind::Xml | Kind::Text(_) => {}
                }
                bodies.insert((path, lang, who), r.body);
            }
        }
    }
    bodies
}

/// A PDF's dictionary keys that act (run script, open or submit something) rather than show.
const PDF_ACTIONS: &[&str] = &[
    "JS",
    "JavaScript",
    "OpenAction",
    "AA",
    "Launch",
    "URI",
    "SubmitForm",
    "ImportData",
    "GoToR",
    "GoToE",
    "RichMedia",
    "EmbeddedFile",
    "EmbeddedFiles",
    "AcroForm",
    "XFA",
];

/// A PDF read back: it parses, no object has an action key (so text that tried to close a PDF
/// string and open a dictionary stayed text), and its text, without whitespace, is returned
/// for the "shown" checks.
fn pdf_inert(what: &str, bytes: &[u8]) -> String {
    let back = common::readback::read("probe", bytes);
    let mut dicts: Vec<&lopdf::Dictionary> = vec![&back.doc.trailer];
    for obj in back.doc.objects.values() {
        match obj {
            lopdf::Object::Dictionary(d) => dicts.push(d),
            lopdf::Object::Stream(st) => dicts.push(&st.dict),
            _ => {}
        }
    }
    for d in dicts {
        for (k, _) in d.iter() {
            let k = String::from_utf8_lossy(k);
            assert!(!PDF_ACTIONS.contains(&k.as_ref()), "{what}: the PDF has an action key /{k}");
        }
    }
    common::readback::squash(&back.all_text())
}

fn script(n: u32) -> String {
    format!("<script>alert({n})</script>")
}
fn img(n: u32) -> String {
    format!("\"><img src=x onerror=alert({n})>")
}
fn js(n: u32) -> String {
    format!("javascript:alert({n})")
}

fn shown(
    bodies: &BTreeMap<(String, &'static str, &'static str), String>,
    path: &str,
    who: &str,
    marker: u32,
) {
    for lang in ["en", "zh-CN"] {
        let b = &bodies[&(path.to_string(), lang, if who == "public" { "public" } else { "staff" })];
        assert!(
            b.to_ascii_lowercase().contains(&format!("alert({marker})")),
            "GET {path} ({lang}, {who}) does not show payload {marker}"
        );
    }
}

#[test]
fn script_and_html_in_every_text_field_render_inert_on_every_page() {
    let s = Server::start();
    let org = s.first_organizer();
    // Accounts: the display name shows on the accounts page and the staff list.
    add_account(&org, "xss", "arbiter", &script(301));
    // A tournament with payloads in its names and venue.
    // The names also try to close a PDF string and open an action (a document's title is a
    // PDF string in its Info dictionary).
    let mut f = tournament_fields(
        &format!("赛{}) /JS (app.alert(109)) (", script(101)),
        &format!("{}) /AA << /O << /S /JavaScript /JS (app.alert(108)) >> >> (", img(102)),
    );
    set(&mut f, "venue", &format!("{}{}", js(103), script(104)));
    let r = org.submit("/t/new", "/t/new", &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    let t: i32 = r.location().trim_start_matches("/t/").parse().unwrap();
    let uid = user_id(&s.db, "xss");
    let r = org.submit(
        &format!("/t/{t}"),
        &format!("/t/{t}/staff"),
        &[("user_id", &uid.to_string()), ("role", "arbiter")],
    );
    assert_eq!(r.status, 303);
    // A settings change with a payload reason (the audit page shows reasons).
    let mut f2 = f.clone();
    set(&mut f2, "version", "1");
    set(&mut f2, "reason", &script(105));
    let r = org.submit(&format!("/t/{t}/settings"), &format!("/t/{t}/settings"), &as_refs(&f2));
    assert_eq!(r.status, 303, "{}", r.body);

    // An entrant with a payload in every text field.
    let page = format!("/t/{t}/entrants/new");
    let (s201, i202, s203, i204, s205, i206) =
        (script(201), img(202), script(203), img(204), script(205), img(206));
    let notes = format!("{}</textarea>{}", js(207), script(207));
    let r = org.submit(
        &page,
        &page,
        &[
            ("family_name_zh", &format!("王{s201}")),
            ("given_name_zh", &format!("{i202}伟")),
            ("family_name_latin", &s203),
            ("given_name_latin", &i204),
            ("rank", "1d"),
            ("unit", &s205),
            ("region", &i206),
            ("notes", &notes),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let e = count_rows(&s.db, &format!("SELECT max(id) FROM entrants WHERE tournament_id = {t}")) as i32;
    // An edit with a payload reason.
    let edit = format!("/t/{t}/entrants/{e}/edit");
    let current = org.get(&edit);
    let mut fields: Vec<(String, String)> = [
        "family_name_zh",
        "given_name_zh",
        "family_name_latin",
        "given_name_latin",
        "rank",
        "unit",
        "region",
    ]
    .iter()
    .map(|k| (k.to_string(), current.input(k).unwrap_or_default()))
    .collect();
    fields.push(("notes".into(), notes.clone()));
    fields.push(("version".into(), current.input("version").unwrap_or_default()));
    fields.push(("reason".into(), script(208)));
    let r = org.submit(&edit, &edit, &as_refs(&fields));
    assert_eq!(r.status, 303, "{}", r.body);
    // A form with errors shows the typed values again: still inert.
    let r = org.submit(&page, &page, &[("family_name_zh", &script(209)), ("rank", &img(210))]);
    assert_eq!(r.status, 400);
    assert!(live_markup(&r.body).is_empty(), "{}", r.body);
    assert!(r.body.contains("alert(210)"), "the refused value is shown again");

    // CSV import: payloads in cells, and a bad row whose message quotes its input.
    let csv = format!(
        "姓名,拼音,段位,单位,地区,备注\n\"赵{}磊\",\"{}\",2段,\"{}\",\"{}\",\"{}\"\n钱多,Qian Duo,\"{}\",x,y,z\n",
        script(501),
        img(502).replace('"', "\"\""),
        script(503),
        img(504).replace('"', "\"\""),
        js(505),
        script(506),
    );
    let token = org.get(&format!("/t/{t}/import")).csrf();
    let p =
        org.post_file(&format!("/t/{t}/import/csv"), &[("csrf", &token)], "file", "x.csv", csv.as_bytes());
    assert_eq!(p.status, 200, "{}", p.body);
    assert!(live_markup(&p.body).is_empty(), "CSV preview: {}", p.body);
    for m in [501, 503, 506] {
        assert!(p.body.contains(&format!("alert({m})")), "CSV preview shows payload {m}: {}", p.body);
    }
    let payload = p.input("payload").unwrap();
    let r = org.post_form(
        &format!("/t/{t}/import/csv/confirm"),
        &[("csrf", &p.csrf()), ("payload", &payload), ("drop_bad", "on")],
    );
    assert_eq!(r.status, 303, "{}", r.body);

    // OpenGotha XML: payloads in names, club and the tournament name (shown in the preview).
    let x =
        |s: String| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;");
    let og = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<Tournament dataVersion="201"><Players>
<Player club="{}" country="{}" firstName="{}" name="Sun" rank="1D" rating="2100"/>
</Players><TournamentParameterSet><GeneralParameterSet name="{}" numberOfRounds="3"/></TournamentParameterSet></Tournament>"#,
        x(img(602)),
        x(script(605)),
        x(script(601)),
        x(script(603)),
    );
    let p = org.post_file(
        &format!("/t/{t}/import/opengotha"),
        &[("csrf", &token)],
        "file",
        "x.xml",
        og.as_bytes(),
    );
    assert_eq!(p.status, 200, "{}", p.body);
    assert!(live_markup(&p.body).is_empty(), "OpenGotha preview: {}", p.body);
    for m in [601, 603] {
        assert!(
            p.body.to_ascii_lowercase().contains(&format!("alert({m})")),
            "OpenGotha preview shows payload {m}: {}",
            p.body
        );
    }
    let payload = p.input("payload").unwrap();
    let r = org.post_form(
        &format!("/t/{t}/import/opengotha/confirm"),
        &[("csrf", &p.csrf()), ("payload", &payload), ("mode", "new")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    // An OpenGotha file makes its own event (it never merges into this one): the same player
    // joins this event through a CSV row, so the pages of this event carry the payloads too.
    let sun = format!(
        "family_name,given_name,rank,unit,region\nSun,\"{}\",1d,\"{}\",\"{}\"\n",
        script(601),
        img(602).replace('"', "\"\""),
        script(605)
    );
    let r = import_file(&org, t, "csv", "sun.csv", sun.as_bytes());
    assert_eq!(r.status, 303, "{}", r.body);
    // A player the import refuses: the message quotes the name.
    let bad = format!(
        r#"<Tournament><Players><Player name="{}" firstName="Bad" rank="99Z"/></Players></Tournament>"#,
        x(script(604))
    );
    let r = org.post_file(
        &format!("/t/{t}/import/opengotha"),
        &[("csrf", &token)],
        "file",
        "b.xml",
        bad.as_bytes(),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(live_markup(&r.body).is_empty() && r.body.contains("alert(604)"), "{}", r.body);
    // An unreadable file whose error message quotes a player key.
    let dup = format!(
        r#"<Tournament><Players><Player name="{0}" firstName="a" rank="1D"/><Player name="{0}" firstName="a" rank="1D"/></Players></Tournament>"#,
        x(script(606))
    );
    let r = org.post_file(
        &format!("/t/{t}/import/opengotha"),
        &[("csrf", &token)],
        "file",
        "d.xml",
        dup.as_bytes(),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(live_markup(&r.body).is_empty(), "OpenGotha error: {}", r.body);

    // Reflected input: the search box and the login page's `next`.
    let r = org.get(&format!("/t/{t}/entrants?q=%3Cscript%3Ealert(401)%3C%2Fscript%3E"));
    assert!(r.body.contains("alert(401)") && live_markup(&r.body).is_empty(), "{}", r.body);
    let r = s.client().get("/login?next=%2F%22%3E%3Cscript%3Ealert(402)%3C%2Fscript%3E");
    assert!(r.body.contains("alert(402)") && live_markup(&r.body).is_empty(), "{}", r.body);
    let r = s.client().get("/login?next=javascript%3Aalert(403)");
    assert!(live_markup(&r.body).is_empty() && !r.body.contains("alert(403)"), "not a local path: dropped");

    // Rounds, results, a ruling, a game record, team events: payloads in every text they take
    // (reasons, the record's players and file name, team names, staff and players).
    let mut ids = events(&s, &org, t, 3, &[], &script);
    ids.e = e;
    ids.user = uid;
    let (tr, m) = (ids.tr, ids.m);
    let r = org.submit(
        &format!("/t/{tr}/matches/{m}"),
        &format!("/t/{tr}/matches/{m}/start"),
        &[("version", "1"), ("start", "2026-12-05T09:00:00"), ("reason", &script(761))],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    for side in ["black", "white"] {
        let team = count_rows(&s.db, &format!("SELECT {side}_team_id FROM team_matches WHERE id = {m}"));
        let p = |pos: u32| {
            count_rows(
                &s.db,
                &format!("SELECT id FROM team_members WHERE team_id = {team} AND role = 'player' AND position = {pos}"),
            )
            .to_string()
        };
        let v = count_rows(&s.db, &format!("SELECT version FROM team_matches WHERE id = {m}")).to_string();
        let r = org.submit(
            &format!("/t/{tr}/matches/{m}"),
            &format!("/t/{tr}/matches/{m}/event"),
            &[
                ("version", &v),
                ("kind", "lineup"),
                ("side", side),
                ("section", "1"),
                ("p1", &p(1)),
                ("p2", &p(2)),
                ("at", "2026-12-05T08:45:00"),
            ],
        );
        assert_eq!(r.status, 303, "{}", r.body);
    }
    // Reflected in the find-my-table box and in a print option's error message.
    let r = s.client().get(&format!("/t/{t}/pairings?q=%3Cscript%3Ealert(404)%3C%2Fscript%3E"));
    assert!(r.status < 500 && live_markup(&r.body).is_empty(), "{}", r.body);
    assert!(r.body.contains("alert(404)"), "the search is shown again: {}", r.body);
    let r = org.get(&format!("/t/{t}/rounds/1/pairings.pdf?paper=%3Cscript%3Ealert(405)%3C%2Fscript%3E"));
    assert_eq!(r.status, 400);
    assert!(live_markup(&r.body).is_empty() && r.body.contains("alert(405)"), "{}", r.body);

    // Every page, both languages, staff and public: nothing live; the payloads are shown.
    let b = crawl(&s, &org, &ids);
    if std::env::var_os("PROBE_SHOW").is_some() {
        for ((path, lang, who), body) in &b {
            let low = body.to_ascii_lowercase();
            let marks: Vec<&str> =
                low.match_indices("alert(").filter_map(|(i, _)| low.get(i + 6..i + 9)).collect();
            eprintln!("{path} {lang} {who}: {marks:?}");
        }
    }
    let tp = |p: &str| format!("/t/{t}{p}");
    for m in [101, 102, 104] {
        shown(&b, "/", "public", m);
        shown(&b, &tp(""), "public", m);
        shown(&b, &tp("/settings"), "staff", m);
    }
    for m in [201, 202, 205, 206] {
        shown(&b, &tp("/players"), "public", m);
        shown(&b, &tp("/entrants"), "staff", m);
    }
    for m in [203, 204] {
        shown(&b, &tp("/entrants"), "staff", m);
    }
    for m in [201, 203, 205, 207] {
        shown(&b, &format!("/t/{t}/entrants/{e}/edit"), "staff", m);
    }
    for m in [105, 201, 207, 208, 501, 503, 505, 601, 602, 605] {
        shown(&b, &tp("/audit"), "staff", m);
    }
    for m in [501, 502, 503, 504, 601, 602] {
        shown(&b, &tp("/entrants"), "staff", m);
    }
    // Rounds, results, printing and team events.
    for p in ["/pairings", "/pairings/1", "/results", "/standings", "/crosstable"] {
        shown(&b, &tp(p), "public", 601);
    }
    shown(&b, &tp(&format!("/players/{e}")), "public", 203);
    for p in ["/rounds/1", "/results/rounds/1", "/results/rounds/1/lateness"] {
        shown(&b, &tp(p), "staff", 601);
    }
    shown(&b, &tp(&format!("/games/{}", ids.gr)), "staff", 712);
    for m in [710, 711, 712, 713, 714] {
        shown(&b, &tp("/audit"), "staff", m);
    }
    shown(&b, &tp(&format!("/games/{}/record.sgf", ids.gx)), "staff", 714);
    shown(&b, &tp("/export/opengotha.xml"), "staff", 601);
    for m in [103, 601, 700] {
        shown(&b, &tp("/pairings/1/pairings.pdf"), "public", m);
    }
    for m in [103, 601] {
        shown(&b, &tp("/rounds/1/scoresheets.pdf?per_page=2"), "staff", m);
    }
    shown(&b, &tp("/rounds/1/record-sheets.pdf"), "staff", 103);
    let (tb, team) = (ids.tb, ids.team);
    for m in [731, 741] {
        shown(&b, &format!("/t/{tr}/matches/{m}/sheets.pdf", m = ids.m), "staff", m);
        shown(&b, &format!("/t/{tr}/matches/{}", ids.m), "public", m);
    }
    // The board match names its two teams (which two, the Swiss decided).
    for lang in ["en", "zh-CN"] {
        let page = &b[&(format!("/t/{tb}/matches/{}", ids.bm), lang, "public")];
        let teams = (771..=774).filter(|m| page.contains(&format!("alert({m})"))).count();
        assert_eq!(teams, 2, "GET /t/{tb}/matches/{} ({lang}) shows its teams: {page}", ids.bm);
    }
    shown(&b, &format!("/t/{tb}/team-standings"), "public", 771);
    shown(&b, &format!("/t/{tb}/team-rounds"), "public", 771);
    for m in [771, 781] {
        shown(&b, &format!("/t/{tb}/teams"), "staff", m);
    }
    shown(&b, &format!("/t/{tb}/teams/{team}"), "staff", 781);
    // The names that tried to break out of a PDF string are text on the page.
    let pdf = |path: &str, lang: &'static str| b[&(tp(path), lang, "public")].clone();
    assert!(
        pdf("/pairings/1/pairings.pdf", "zh-CN").contains("alert(109)"),
        "{}",
        pdf("/pairings/1/pairings.pdf", "zh-CN")
    );
    assert!(
        pdf("/pairings/1/pairings.pdf", "en").contains("alert(108)"),
        "{}",
        pdf("/pairings/1/pairings.pdf", "en")
    );
    shown(&b, "/users", "staff", 301);
    shown(&b, &tp(""), "staff", 301);
    // The CSV export carries the values as data; the browser is told it is a download.
    let csv = org.get(&tp("/entrants.csv"));
    assert!(String::from_utf8_lossy(&csv.bytes).contains("alert(201)"));
}

// ---------------------------------------------------------------------------------------------
// Traversal, cookies, headers, throttling

/// One raw HTTP/1.1 request, so that the path reaches the server exactly as written.
fn raw_get(base: &str, path: &str) -> (u16, Vec<(String, String)>, String) {
    let addr = base.trim_start_matches("http://");
    let mut tcp = std::net::TcpStream::connect(addr).expect("connect");
    tcp.set_read_timeout(Some(std::time::Duration::from_secs(30))).unwrap();
    write!(tcp, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut buf = Vec::new();
    let _ = tcp.read_to_end(&mut buf);
    let text = String::from_utf8_lossy(&buf).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status =
        lines.next().and_then(|l| l.split_whitespace().nth(1)).and_then(|s| s.parse().ok()).unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    (status, headers, body.to_string())
}

#[test]
fn path_traversal_on_assets_and_downloads_is_refused() {
    let s = Server::start();
    let org = s.first_organizer();
    let t = create_tournament(&org, "穿越测试赛");
    let secret_markers = ["root:x:0:0", "[workspace]", "SQLite format", "CREATE TABLE"];
    let probes = [
        "/assets/../Cargo.toml",
        "/assets/..%2f..%2fCargo.toml",
        "/assets/%2e%2e/%2e%2e/etc/passwd",
        "/assets/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/assets/%252e%252e/%252e%252e/etc/passwd",
        "/assets/..%5c..%5cCargo.toml",
        "/assets/style.css/../../etc/passwd",
        "/assets//etc/passwd",
        "/assets/style.css%00.png",
        "/assets/tengen.db",
        "/../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/t/..%2f..%2fetc%2fpasswd/entrants.csv",
        "/t/1/entrants.csv/../../../etc/passwd",
        "/t/1%2f..%2f..%2fetc/entrants.csv",
        "/tengen.db",
        "/backups/",
        // The round, game, match and export downloads.
        "/t/1/rounds/1/scoresheets.pdf/../../../../etc/passwd",
        "/t/1/rounds/..%2f..%2f..%2fetc%2fpasswd/pairings.csv",
        "/t/1/pairings/1%2f..%2f..%2f..%2fetc%2fpasswd/pairings.pdf",
        "/t/1/pairings/1/pairings.csv%2f..%2f..%2f..%2fCargo.toml",
        "/t/1/games/..%2f..%2ftengen.db/record.sgf",
        "/t/1/games/1/record.sgf/../../../../../etc/passwd",
        "/t/1/matches/1/sheets.pdf%00.txt",
        "/t/1/export/..%2f..%2fCargo.toml",
        "/t/%2e%2e/rounds/1/record-sheets.pdf",
        "/t/1/export/opengotha.xml/..%2f..%2f..%2fetc%2fpasswd",
    ];
    for p in probes {
        let (status, headers, body) = raw_get(&s.base, p);
        assert!((400..500).contains(&status), "GET {p}: {status}");
        check_headers(&format!("GET {p}"), &headers);
        for m in secret_markers {
            assert!(!body.contains(m), "GET {p} leaked {m}");
        }
    }
    // The real download still works for its staff, and only for its tournament.
    assert_eq!(org.get(&format!("/t/{t}/entrants.csv")).status, 200);
    let (status, _, _) = raw_get(&s.base, &format!("/t/{t}/entrants.csv"));
    assert_eq!(status, 303, "the export needs a login");
    // The language switch only ever redirects within the site.
    let c = s.client();
    for next in [
        "//evil.example",
        "/%5Cevil.example",
        "%2F%5Cevil.example",
        "/%09/evil.example",
        "%2F%09%2Fevil.example",
        "https://evil.example",
        "javascript:alert(1)",
        "%2Ft%2F%E7%8E%8B",
    ] {
        let r = c.get(&format!("/lang/en?next={next}"));
        assert_eq!(r.status, 303, "{next}");
        let loc = r.location();
        assert!(
            loc.starts_with('/') && !loc.starts_with("//") && !loc.contains('\\') && !loc.contains('\t'),
            "next={next} → Location {loc:?}"
        );
    }
}

#[test]
fn cookies_are_http_only_same_site_strict_and_site_wide() {
    let s = Server::start();
    s.first_organizer();
    let c = s.client();
    // A session token planted before login is never adopted: login issues a fresh one.
    c.cookies.borrow_mut().insert("tengen_session".into(), "a".repeat(64));
    let page = c.get("/login");
    let anon: Vec<&String> =
        page.headers.iter().filter(|(k, _)| k.eq_ignore_ascii_case("set-cookie")).map(|(_, v)| v).collect();
    let r = c.login(ORG_USER, ORG_PASS);
    assert_eq!(r.status, 303);
    let lang = c.get("/lang/zh?next=/");
    let out = c.post_form("/logout", &[("csrf", &c.get("/").csrf())]);
    let mut seen = BTreeMap::new();
    for resp_headers in [&page.headers, &r.headers, &lang.headers, &out.headers] {
        for (k, v) in resp_headers.iter() {
            if !k.eq_ignore_ascii_case("set-cookie") {
                continue;
            }
            let name = v.split('=').next().unwrap_or("").to_string();
            let attrs: Vec<String> = v.split(';').skip(1).map(|a| a.trim().to_ascii_lowercase()).collect();
            assert!(attrs.iter().any(|a| a == "httponly"), "{v}");
            assert!(attrs.iter().any(|a| a == "samesite=strict"), "{v}");
            assert!(attrs.iter().any(|a| a == "path=/"), "{v}");
            assert!(!attrs.iter().any(|a| a.starts_with("domain=")), "host-only: {v}");
            seen.entry(name).or_insert_with(Vec::new).push(v.clone());
        }
    }
    for name in ["tengen_session", "tengen_csrf", "tengen_lang"] {
        assert!(seen.contains_key(name), "{name} was set: {seen:?} (anon: {anon:?})");
    }
    let session = seen["tengen_session"][0].split(';').next().unwrap().split_once('=').unwrap().1.to_string();
    assert_eq!(session.len(), 64, "a 256-bit token");
    assert_ne!(session, "a".repeat(64), "the planted token was not adopted");
    // Sessions are stored as hashes of their tokens: the first-run session is the one left.
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM sessions"), 1, "logged out");
}

#[test]
fn security_headers_are_on_every_kind_of_response() {
    let s = Server::start();
    let org = s.first_organizer();
    let t = create_tournament(&org, "头部测试赛");
    let anon = s.client();
    let token = anon.get("/login").csrf();
    let mut seen = BTreeMap::new();
    let mut note = |what: &str, r: &Resp| {
        check_headers(what, &r.headers);
        seen.insert(r.status, what.to_string());
    };
    note("page", &anon.get("/"));
    note("not found", &anon.get("/nowhere"));
    note("login redirect", &anon.get(&format!("/t/{t}/entrants")));
    note("unauthorized write", &anon.post_form(&format!("/t/{t}/entrants/new"), &[("csrf", &token)]));
    note("csrf refusal", &anon.post_form("/login", &[]));
    note(
        "wrong password",
        &anon.post_form("/login", &[("csrf", &token), ("username", "x"), ("password", "y")]),
    );
    note("bad form", &org.post_raw("/t/new", "application/x-www-form-urlencoded", b"%%%".to_vec()));
    note("bad query", &org.get(&format!("/t/{t}/entrants?q=%FF")));
    note("stylesheet", &anon.get("/assets/style.css"));
    // A public page read twice: the second is answered from the cache ahead of every other
    // layer (`public::cached_first`), and so is its 304; both carry the same headers.
    let public = format!("/t/{t}/standings");
    note("public page", &anon.get(&public));
    let kept = anon.get(&public);
    note("public page, kept", &kept);
    let etag = kept.header("etag").expect("an ETag").to_string();
    note("public page, not modified", &anon.get_with(&public, &[("If-None-Match", &etag)]));
    note("download", &org.get(&format!("/t/{t}/entrants.csv")));
    note(
        "written",
        &org.submit(
            &format!("/t/{t}/entrants/new"),
            &format!("/t/{t}/entrants/new"),
            &[("family_name_zh", "周"), ("given_name_zh", "一"), ("rank", "1d")],
        ),
    );
    for st in [200, 303, 304, 401, 403, 404] {
        assert!(seen.contains_key(&st), "a {st} response was checked: {seen:?}");
    }
}

#[test]
fn login_is_throttled_per_address_and_name() {
    let s = Server::start();
    s.first_organizer();
    let c = s.client();
    let statuses: Vec<u16> = (0..7).map(|_| c.login(ORG_USER, "guessing-wrong").status).collect();
    assert_eq!(&statuses[..5], &[401; 5], "{statuses:?}");
    assert!(statuses[5..].iter().all(|s| *s == 429), "{statuses:?}");
    // The right password waits too; case does not escape the throttle.
    assert_eq!(c.login(ORG_USER, ORG_PASS).status, 429);
    assert_eq!(c.login(&ORG_USER.to_uppercase(), ORG_PASS).status, 429);
    // Unknown names are throttled the same way (no way to tell names apart).
    let ghost: Vec<u16> = (0..7).map(|_| c.login("nobody-here", "guessing-wrong").status).collect();
    assert_eq!(&ghost[..5], &[401; 5], "{ghost:?}");
    assert_eq!(ghost[6], 429, "{ghost:?}");
    // A throttled attempt creates no session.
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM sessions"), 1, "only the first-run session");
}
