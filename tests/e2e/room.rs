//! The research room (研究室, seed 003 Art. 10.1), through the forms: an organizer of a relay
//! event issues a team's room address on the team's page (shown once), the room opens with no
//! login and follows the team's relay game as recorded on the match page (a move recorded
//! there carries no point, so the room shows the game's state and says why there is no board);
//! only the team's own matches open through its address; a new address revokes the old one,
//! revoking makes it a 404 at once, and a stale form is refused with nothing written.

use crate::common;
use common::team::*;
use common::*;

/// A wall-clock time of the first day, `secs` after 09:00 (the match's start), as typed.
fn at(secs: i64) -> String {
    let t = 9 * 3600 + secs;
    format!("2026-12-05T{:02}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60)
}

/// The team_members id of team `team`'s player at `position`.
fn player(s: &Server, team: i32, position: u32) -> String {
    query(
        &s.db,
        &format!("SELECT id FROM team_members WHERE team_id = {team} AND role = 'player' AND position = {position}"),
    )[0][0]
        .clone()
}

fn int(s: &Server, sql: &str) -> i32 {
    query_opt(&s.db, sql).unwrap_or(0) as i32
}

/// Posts an event of relay match `mid` through the match page's form, as `c`; expects it
/// recorded (303).
fn event(s: &Server, c: &Client, tid: i32, mid: i32, kind: &str, fields: &[(&str, &str)]) {
    let token = c.get(&format!("/t/{tid}/matches/{mid}")).csrf();
    let version = int(s, &format!("SELECT version FROM team_matches WHERE id = {mid}")).to_string();
    let mut all = vec![("csrf", token.as_str()), ("version", version.as_str()), ("kind", kind)];
    all.extend_from_slice(fields);
    let r = c.post_form(&format!("/t/{tid}/matches/{mid}/event"), &all);
    assert_eq!(r.status, 303, "{kind}: {}", r.body);
}

/// Issues a new room address for `team` on its page (at the room's version as stored); the
/// address's path as the page the write leads to shows it, once.
fn issue(s: &Server, org: &Client, tid: i32, team: i32) -> String {
    let page = format!("/t/{tid}/teams/{team}");
    let v = int(s, &format!("SELECT coalesce(max(version), 0) FROM research_rooms WHERE team_id = {team}"));
    let r = org.submit(&page, &format!("{page}/room/issue"), &[("version", &v.to_string())]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(r.location(), page);
    let shown = org.get(&page);
    assert_eq!(shown.status, 200);
    let url = text_of(&shown, "room-url").expect("the address shown once");
    assert!(shown.body.contains("id=\"room-url-once\""), "{}", shown.body);
    // Shown once: the page again does not show it.
    let again = org.get(&page);
    assert!(text_of(&again, "room-url").is_none(), "shown twice: {}", again.body);
    let path = &url[url.find("/room/").expect("a room address")..];
    assert_eq!(path.len(), "/room/".len() + 64, "{path}");
    path.to_string()
}

/// The 404 page: the normal not-found page, naming nothing of the event.
fn not_found(r: &Resp, names: &[&str]) {
    assert_eq!(r.status, 404, "{}", r.body);
    for n in names {
        assert!(!r.body.contains(n), "a 404 names {n}: {}", r.body);
    }
}

/// Seed 003 Art. 10.1 (研究室同步直播比赛对局，研究室人员由领队，队长，教练员和不上场队员构成): the
/// organizer issues a team's research-room address on the team's page, shown once; the room
/// opens without login, in Chinese first, names the team and the event, and shows the team's
/// relay match: not started, then after a move recorded on the match page (no point) its move
/// number, section, the four players in clockwise order with the one to move, penalty stones
/// and order errors, and why there is no board. Only the team's own matches open; another
/// team's room does not show this team's match; a new address revokes the old; revoking is a
/// 404 at once; a stale form is refused (409) with nothing written; each write is audited.
#[test]
fn research_room_link_page_and_revocation() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = relay_tournament(&org, "研究室杯", "Room Cup", "3", &[]);
    save_team_settings(&org, &s, tid, &[]);
    for name in ["甲队", "乙队", "丙队", "丁队"] {
        // The players are named after the team's first character: 甲1号, 甲2号, …
        let players: Vec<String> = (1..=8).map(|p| format!("{}{p}号", &name[..3])).collect();
        assert_eq!(add_team(&org, tid, name, &players).status, 303);
    }
    let r = org.submit(
        &format!("/t/{tid}/team-rounds"),
        &format!("/t/{tid}/team-rounds/1/pair"),
        &[("seed", "5")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let ms = query(
        &s.db,
        &format!(
            "SELECT m.id, m.black_team_id, m.white_team_id, b.name, w.name FROM team_matches m \
             JOIN teams b ON b.id = m.black_team_id JOIN teams w ON w.id = m.white_team_id \
             WHERE m.tournament_id = {tid} ORDER BY m.table_no"
        ),
    );
    assert_eq!(ms.len(), 2, "four teams: two matches");
    let id = |v: &str| v.parse::<i32>().unwrap();
    let (m1, a, b) = (id(&ms[0][0]), id(&ms[0][1]), id(&ms[0][2]));
    let (m2, other) = (id(&ms[1][0]), id(&ms[1][1]));
    let (a_name, b_name, other_name) = (ms[0][3].clone(), ms[0][4].clone(), ms[1][3].clone());

    // The team's page: no address yet.
    let zh = |c: &Client| assert_eq!(c.get("/lang/zh?next=/").status, 303);
    zh(&org);
    let page = org.get(&format!("/t/{tid}/teams/{a}"));
    assert_eq!(text_of(&page, "room-state").as_deref(), Some("尚未生成研究室地址。"), "{}", page.body);
    let room = issue(&s, &org, tid, a);
    let page = org.get(&format!("/t/{tid}/teams/{a}"));
    assert_eq!(text_of(&page, "room-state").as_deref(), Some("研究室地址有效。"));
    // Only the hash is stored.
    let token = &room["/room/".len()..];
    let stored =
        query_text(&s.db, &format!("SELECT token_hash FROM research_rooms WHERE team_id = {a}")).unwrap();
    assert_ne!(stored, token);
    assert_eq!(stored.len(), 64);

    // The room, no login, Chinese first.
    let anon = s.client();
    zh(&anon);
    let r = anon.get(&room);
    assert_eq!(r.status, 200, "{}", r.body);
    // The address goes to no other site in a Referer, and no shared cache keeps the page.
    assert_eq!(r.header("referrer-policy"), Some("same-origin"));
    assert_eq!(r.header("cache-control"), Some("private, no-cache"));
    assert_eq!(text_of(&r, "room-title").unwrap(), format!("{a_name} · 研究室"));
    assert_eq!(text_of(&r, "room-event").unwrap(), "研究室杯");
    assert!(text_of(&r, "room-match-title").unwrap().contains(&b_name));
    assert_eq!(text_of(&r, "room-phase").as_deref(), Some("尚未开始"));
    assert!(r.body.contains(&format!("data-live=\"{tid}\"")), "follows the live stream");
    assert!(!r.body.contains(&other_name), "another match's team: {}", r.body);
    assert!(r.body.contains("本页与对局同步更新，没有延迟。"));

    // The match is played on the match page: the start, the line-ups, move 1 (no point).
    let token_page = org.get(&format!("/t/{tid}/matches/{m1}")).csrf();
    let v = int(&s, &format!("SELECT version FROM team_matches WHERE id = {m1}")).to_string();
    let r = org.post_form(
        &format!("/t/{tid}/matches/{m1}/start"),
        &[("csrf", &token_page), ("version", &v), ("start", &at(0))],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let (a1, a2, b1, b2) = (player(&s, a, 1), player(&s, a, 2), player(&s, b, 1), player(&s, b, 2));
    event(
        &s,
        &org,
        tid,
        m1,
        "lineup",
        &[("side", "black"), ("section", "1"), ("p1", &a1), ("p2", &a2), ("at", &at(-900))],
    );
    event(
        &s,
        &org,
        tid,
        m1,
        "lineup",
        &[("side", "white"), ("section", "1"), ("p1", &b1), ("p2", &b2), ("at", &at(-890))],
    );
    event(&s, &org, tid, m1, "move", &[("number", "1"), ("player", &a1), ("at", &at(10))]);

    let r = anon.get(&room);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(text_of(&r, "room-phase").as_deref(), Some("进行中"));
    assert_eq!(text_of(&r, "room-colour").as_deref(), Some("本队为黑方"));
    assert_eq!(text_of(&r, "room-moves").as_deref(), Some("已下1手"));
    assert_eq!(text_of(&r, "room-section").as_deref(), Some("第1节（第1至72手）"));
    let seats = text_of(&r, "room-seats").unwrap();
    // Art. 10.3's clockwise order: Black's first, White's first, Black's second, White's second.
    let (fa, fb) = (&a_name[..3], &b_name[..3]);
    let order: Vec<usize> = [format!("{fa}1号"), format!("{fb}1号"), format!("{fa}2号"), format!("{fb}2号")]
        .iter()
        .map(|n| seats.find(n.as_str()).unwrap_or_else(|| panic!("{n} not at the board: {seats}")))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "clockwise (Art. 10.3): {seats}");
    // Move 2 is White's first player's.
    assert!(text_of(&r, "room-to-move").unwrap().contains(&format!("{fb}1号")), "{seats}");
    assert!(text_of(&r, "room-to-move").is_some(), "{}", r.body);
    assert_eq!(text_of(&r, "room-stones").as_deref(), Some("罚子：黑方0子，白方0子"));
    assert_eq!(text_of(&r, "room-errors").as_deref(), Some("行棋次序错误：黑方0次，白方0次"));
    assert_eq!(
        text_of(&r, "room-no-board").as_deref(),
        Some("第1手没有在记谱板上录入落点，无法显示棋盘；以上是对局的状态。")
    );
    assert!(!r.body.contains("board-svg"));
    // No person's id: the players' member ids appear in no attribute or text.
    for p in [&a1, &a2, &b1, &b2] {
        for needle in [format!("\"{p}\""), format!("#{p}"), format!("{p}号队员")] {
            assert!(!r.body.contains(&needle), "a person's id {needle} on the room page");
        }
    }

    // The team's own match by id; another match, or no number, is the plain 404.
    assert_eq!(anon.get(&format!("{room}?match={m1}")).status, 200);
    not_found(&anon.get(&format!("{room}?match={m2}")), &[&other_name, &a_name]);
    not_found(&anon.get(&format!("{room}?match=x")), &[&a_name]);
    not_found(&anon.get(&format!("/room/{}", "0".repeat(64))), &[&a_name]);
    not_found(&anon.get("/room/short"), &[]);

    // Another team's room: its own match only, and nothing of this room.
    let theirs = issue(&s, &org, tid, other);
    let r = anon.get(&theirs);
    assert_eq!(r.status, 200);
    assert!(!r.body.contains(token) && !r.body.contains(&format!("?match={m1}")), "{}", r.body);
    not_found(&anon.get(&format!("{theirs}?match={m1}")), &[&a_name]);
    let page = org.get(&format!("/t/{tid}/teams/{other}"));
    assert!(!page.body.contains(token), "the team page shows another team's address");

    // A stale form (issued from a page read before): refused, nothing written.
    let audits = |s: &Server| {
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid} AND action IN ('room_issue', 'room_revoke')"),
        )
    };
    assert_eq!(audits(&s), 2);
    let r = org.submit(
        &format!("/t/{tid}/teams/{a}"),
        &format!("/t/{tid}/teams/{a}/room/issue"),
        &[("version", "0")],
    );
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("研究室地址已被他人更改"), "{}", r.body);
    assert_eq!(audits(&s), 2);
    assert_eq!(anon.get(&room).status, 200, "the address still works");

    // A new address revokes the old one.
    let renewed = issue(&s, &org, tid, a);
    assert_ne!(renewed, room);
    not_found(&anon.get(&room), &[&a_name]);
    assert_eq!(anon.get(&renewed).status, 200);

    // Revoked: a 404 at once; the page says so.
    let v = int(&s, &format!("SELECT version FROM research_rooms WHERE team_id = {a}")).to_string();
    let r = org.submit(
        &format!("/t/{tid}/teams/{a}"),
        &format!("/t/{tid}/teams/{a}/room/revoke"),
        &[("version", &v)],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    not_found(&anon.get(&renewed), &[&a_name]);
    let page = org.get(&format!("/t/{tid}/teams/{a}"));
    assert_eq!(text_of(&page, "room-state").as_deref(), Some("研究室地址已撤销。"));
    assert!(!page.body.contains("id=\"room-revoke\""));
    assert_eq!(audits(&s), 4);
}
