//! Team events end to end: a team-relay tournament with two teams and their rosters, paired by the
//! team rounds page, and a relay match played over HTTP through every rule of seed 003 the engine
//! implements — each refusal with its message and nothing written, substitutions and timeouts with
//! their counts, order errors 1 + 2 + 3 + 4 with the player's 3rd a red card, a move beyond the
//! quota, yellow cards, two yellows a red, a red as a substitution and the cases of Art. 24.4, a
//! byo-yomi pass, the count with the penalty stones through the rules crate; the red-carded players
//! barred from the next game; a knockout draw → 节棋 → a second draw won by Black, with clock
//! readings and the play-off's remaining time (from the end of the drawn game, or after move 143 as
//! an event may choose); withdrawals of wrongly recorded events (who may, refused ones, the match
//! recomputed); a board-match Swiss with match points and standings; the printed team sheets
//! downloaded and read back (the clock readings that stand and the play-off's starting time on the
//! record sheet); colours by the leaders' nigiri (Art. 11), recorded at the board or performed from
//! the shown seed and replayed.

use crate::common;
use common::team::*;
use common::*;

/// The events that decide a match: recorded after a confirm step, so one tap cannot end a match.
const DECIDING: [&str; 3] = ["count", "resign", "end"];

/// The match starts at 09:00:00 on the first day; `at(s)` is `s` seconds later (negative:
/// earlier), as the arbiter types it.
fn at(secs: i64) -> String {
    let t = 9 * 3600 + secs;
    assert!((0..86_400).contains(&t));
    format!("2026-12-05T{:02}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60)
}

/// A team-relay tournament (the team system, the relay rule set: komi 3½).
fn team_tournament(c: &Client, name: &str, rounds: &str) -> i32 {
    relay_tournament(c, name, "Team Cup", rounds, &[])
}

fn names(prefix: &str, n: usize) -> Vec<String> {
    (1..=n).map(|k| format!("{prefix}{k}")).collect()
}

/// The team_members id of a player by team name and position number.
fn member(s: &Server, tid: i32, team: &str, position: u32) -> String {
    query(
        &s.db,
        &format!(
            "SELECT m.id FROM team_members m JOIN teams t ON t.id = m.team_id \
             WHERE t.tournament_id = {tid} AND t.name = '{team}' AND m.position = {position}"
        ),
    )[0][0]
        .clone()
}

fn staff_member(s: &Server, tid: i32, team: &str, role: &str) -> String {
    query(
        &s.db,
        &format!(
            "SELECT m.id FROM team_members m JOIN teams t ON t.id = m.team_id \
             WHERE t.tournament_id = {tid} AND t.name = '{team}' AND m.role = '{role}'"
        ),
    )[0][0]
        .clone()
}

fn pair(c: &Client, tid: i32, n: i32, seed: &str) -> Resp {
    c.submit(&format!("/t/{tid}/team-rounds"), &format!("/t/{tid}/team-rounds/{n}/pair"), &[("seed", seed)])
}

/// (match id, first team name, second team name) of the matches of a round, by table.
fn matches(s: &Server, tid: i32, n: i32) -> Vec<(i32, String, String)> {
    query(
        &s.db,
        &format!(
            "SELECT m.id, b.name, w.name FROM team_matches m JOIN teams b ON b.id = m.black_team_id \
             JOIN teams w ON w.id = m.white_team_id WHERE m.tournament_id = {tid} AND m.round_number = {n} \
             ORDER BY m.table_no"
        ),
    )
    .into_iter()
    .map(|r| (r[0].parse().unwrap(), r[1].clone(), r[2].clone()))
    .collect()
}

/// The text of an element with `id` (its first text, up to the next tag).
fn text_of(body: &str, id: &str) -> String {
    let needle = format!("id=\"{id}\">");
    let Some(i) = body.find(&needle) else { return String::new() };
    let rest = &body[i + needle.len()..];
    let rest = rest.trim_start_matches("<strong>");
    unescape(rest[..rest.find('<').unwrap_or(rest.len())].trim())
}

/// A relay match under test: the arbiter's client and the ids it needs.
struct Relay<'a> {
    s: &'a Server,
    c: &'a Client,
    tid: i32,
    mid: i32,
    /// Black's and White's team names.
    teams: [String; 2],
}

impl Relay<'_> {
    fn page(&self) -> Resp {
        let p = self.c.get(&format!("/t/{}/matches/{}", self.tid, self.mid));
        assert_eq!(p.status, 200, "{}", p.body);
        p
    }

    /// Black (`b` = true) or White player at `position`.
    fn p(&self, black: bool, position: u32) -> String {
        member(self.s, self.tid, &self.teams[usize::from(!black)], position)
    }

    fn events(&self) -> i64 {
        count_rows(&self.s.db, &format!("SELECT count(*) FROM relay_events WHERE match_id = {}", self.mid))
    }

    fn audits(&self) -> i64 {
        count_rows(&self.s.db, &format!("SELECT count(*) FROM audit WHERE tournament_id = {}", self.tid))
    }

    fn post(&self, kind: &str, fields: &[(&str, &str)]) -> Resp {
        let page = self.page();
        let v = query(&self.s.db, &format!("SELECT version FROM team_matches WHERE id = {}", self.mid))[0][0]
            .clone();
        let mut all = vec![("csrf", page.csrf()), ("version", v), ("kind", kind.to_string())];
        all.extend(fields.iter().map(|(k, v)| (*k, v.to_string())));
        let refs: Vec<(&str, &str)> = all.iter().map(|(k, v)| (*k, v.as_str())).collect();
        self.c.post_form(&format!("/t/{}/matches/{}/event", self.tid, self.mid), &refs)
    }

    /// An accepted event: one or more rows more in the log. An event that decides the match
    /// (count, resignation, ending) is first shown for confirmation with nothing written, then
    /// confirmed.
    fn ok(&self, kind: &str, fields: &[(&str, &str)]) -> Resp {
        let before = self.events();
        if DECIDING.contains(&kind) && !fields.iter().any(|(k, _)| *k == "confirm") {
            let (audits, version) = (self.audits(), self.version());
            let p = self.post(kind, fields);
            assert_eq!(p.status, 200, "{kind} {fields:?}: {}", p.field_error(kind).unwrap_or(p.body));
            assert!(p.body.contains("id=\"confirm-form\""), "no confirm step for {kind}: {}", p.body);
            assert_eq!(
                (self.events(), self.audits(), self.version()),
                (before, audits, version),
                "a preview writes nothing"
            );
            let mut all = fields.to_vec();
            all.push(("confirm", "1"));
            return self.ok(kind, &all);
        }
        let r = self.post(kind, fields);
        assert_eq!(r.status, 303, "{kind} {fields:?} refused: {}", r.field_error(kind).unwrap_or(r.body));
        assert!(self.events() > before);
        self.page()
    }

    /// A refused event: 422 (or `status`), the message beside the form, nothing written.
    fn no_status(&self, status: u16, kind: &str, fields: &[(&str, &str)], expect: &str) -> String {
        let (events, audits) = (self.events(), self.audits());
        let r = self.post(kind, fields);
        assert_eq!(r.status, status, "{kind} {fields:?}: {}", r.body);
        let msg =
            r.field_error(kind).unwrap_or_else(|| panic!("no message beside the {kind} form: {}", r.body));
        assert!(msg.contains(expect), "{kind}: «{msg}» does not contain «{expect}»");
        assert_eq!((self.events(), self.audits()), (events, audits), "a refusal writes nothing");
        msg
    }

    fn no(&self, kind: &str, fields: &[(&str, &str)], expect: &str) -> String {
        self.no_status(422, kind, fields, expect)
    }

    fn lineup(&self, black: bool, section: &str, a: u32, b: u32, t: i64) -> Resp {
        let side = if black { "black" } else { "white" };
        self.ok(
            "lineup",
            &[
                ("side", side),
                ("section", section),
                ("p1", &self.p(black, a)),
                ("p2", &self.p(black, b)),
                ("at", &at(t)),
            ],
        )
    }

    fn moves_to(&self, n: u32, t: i64) -> Resp {
        self.ok("moves", &[("through", &n.to_string()), ("at", &at(t))])
    }

    /// "Move `n` by `player`".
    fn mv(&self, n: u32, player: &str, t: i64) -> Resp {
        self.ok("move", &[("number", &n.to_string()), ("player", player), ("at", &at(t))])
    }

    /// Sets when section 1 starts (before the first event).
    fn start(&self, secs: i64) {
        let r = self.start_raw(&at(secs));
        assert_eq!(r.status, 303, "{}", r.body);
    }

    /// Posts the start of section 1 as typed.
    fn start_raw(&self, start: &str) -> Resp {
        let token = self.page().csrf();
        self.c.post_form(
            &format!("/t/{}/matches/{}/start", self.tid, self.mid),
            &[("csrf", &token), ("version", &self.version()), ("start", start)],
        )
    }

    /// Penalty stones [Black, White] as the sides table shows them.
    fn stones(&self) -> [u32; 2] {
        let p = self.page();
        let v: Vec<u32> = p
            .body
            .match_indices("class=\"num stones\">")
            .take(2)
            .map(|(i, m)| {
                let rest = &p.body[i + m.len()..];
                rest[..rest.find('<').unwrap()].trim().parse().unwrap()
            })
            .collect();
        [v[0], v[1]]
    }

    /// The cells of the sides table for Black (0) or White (1) with class `class`.
    fn cell(&self, side: usize, class: &str) -> String {
        let p = self.page();
        let needle = format!("class=\"num {class}\">");
        let (i, m) = p.body.match_indices(&needle).nth(side).unwrap_or_else(|| panic!("{class}"));
        let rest = &p.body[i + m.len()..];
        unescape(rest[..rest.find("</td>").unwrap()].trim())
    }

    /// The executing leader shown for Black (0) or White (1) (Art. 10.1).
    fn executing(&self, side: usize) -> String {
        let p = self.page();
        let (i, m) = p.body.match_indices("<td class=\"executing\">").nth(side).expect("executing");
        let rest = &p.body[i + m.len()..];
        unescape(rest[..rest.find("</td>").unwrap()].trim())
    }

    /// Each team's leader, coach and captain (position 1), as the attendance form lists them.
    fn staff(&self) -> Vec<String> {
        let mut v = Vec::new();
        for team in &self.teams {
            v.push(staff_member(self.s, self.tid, team, "leader"));
            v.push(staff_member(self.s, self.tid, team, "coach"));
            v.push(member(self.s, self.tid, team, 1));
        }
        v
    }

    /// Records who is present (Art. 10.1): everyone of [`Self::staff`] but `absent`.
    fn attendance(&self, absent: &[&str], t: i64) -> Resp {
        let staff = self.staff();
        let mut fields: Vec<(&str, &str)> = Vec::new();
        for p in &staff {
            fields.push(("staff", p));
            if !absent.contains(&p.as_str()) {
                fields.push(("present", p));
            }
        }
        let when = at(t);
        fields.push(("at", &when));
        self.ok("present", &fields)
    }

    /// The value of input `name` in the form with id `form`, as the page shows it.
    fn form_value(&self, form: &str, name: &str) -> String {
        let p = self.page();
        let f = &p.body[p.body.find(&format!("id=\"{form}\"")).unwrap_or_else(|| panic!("no form {form}"))..];
        let f = &f[..f.find("</form>").unwrap()];
        let i = f.find(&format!("name=\"{name}\"")).unwrap_or_else(|| panic!("no {name} in {form}"));
        let v = &f[i..];
        let v = &v[v.find("value=\"").unwrap() + 7..];
        v[..v.find('"').unwrap()].to_string()
    }

    /// The number (seq) of the latest event whose JSON contains `like`.
    fn seq_of(&self, like: &str) -> String {
        query(
            &self.s.db,
            &format!(
                "SELECT seq FROM relay_events WHERE match_id = {} AND event LIKE '%{like}%' ORDER BY seq DESC",
                self.mid
            ),
        )
        .first()
        .unwrap_or_else(|| panic!("no event like {like}"))[0]
            .clone()
    }

    fn version(&self) -> String {
        query(&self.s.db, &format!("SELECT version FROM team_matches WHERE id = {}", self.mid))[0][0].clone()
    }

    /// Withdraws event `seq` as `c` (the page's token and version).
    fn withdraw(&self, c: &Client, seq: &str, reason: &str) -> Resp {
        let token = c.get(&format!("/t/{}/matches/{}", self.tid, self.mid)).csrf();
        c.post_form(
            &format!("/t/{}/matches/{}/withdraw", self.tid, self.mid),
            &[("csrf", &token), ("version", &self.version()), ("seq", seq), ("reason", reason)],
        )
    }

    fn withdrawals(&self) -> i64 {
        count_rows(
            &self.s.db,
            &format!("SELECT count(*) FROM relay_withdrawals WHERE match_id = {}", self.mid),
        )
    }

    /// The id of the player due, from the page.
    fn due(&self) -> String {
        let p = self.page();
        let name = text_of(&p.body, "expected");
        query(
            &self.s.db,
            &format!(
                "SELECT m.id FROM team_members m JOIN teams t ON t.id = m.team_id \
                 WHERE t.tournament_id = {} AND m.name = '{name}'",
                self.tid
            ),
        )
        .first()
        .unwrap_or_else(|| panic!("no player due: «{name}»"))[0]
            .clone()
    }
}

/// A page's HTML with the entities askama writes turned back into characters.
fn body(p: &Resp) -> String {
    unescape(&p.body).replace("&#x27;", "'")
}

/// A PDF's text without whitespace, read back by the shared helper (through the fonts'
/// `/ToUnicode` maps, as in the print tests).
fn pdf_text(bytes: &[u8]) -> String {
    let back = readback::read("team_sheets", bytes);
    assert!(back.every_font_has_to_unicode());
    readback::squash(&back.all_text())
}

#[test]
fn relay_match_through_every_rule_over_http() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = team_tournament(&org, "队际赛测试", "2");

    // The individual round pages refuse a team event and point to the team rounds.
    let r = org.submit(&format!("/t/{tid}/rounds"), &format!("/t/{tid}/rounds/1/pair"), &[("seed", "1")]);
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body.contains("Team events are paired under Team rounds"), "{}", r.body);

    // Teams and rosters (organizer). A roster error is shown beside its field.
    save_team_settings(&org, &s, tid, &[]);
    let bad = org.submit(
        &format!("/t/{tid}/teams/new"),
        &format!("/t/{tid}/teams/new"),
        &[("name", "北京队"), ("captain", "9"), ("players", "1 甲\n1 乙")],
    );
    assert_eq!(bad.status, 400);
    assert_eq!(bad.field_error("players").as_deref(), Some("Line 2: this position number is already taken."));
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM teams"), 0);
    assert_eq!(add_team(&org, tid, "北京队", &names("京", 10)).status, 303);
    assert_eq!(add_team(&org, tid, "上海队", &names("沪", 10)).status, 303);
    assert_eq!(add_team(&org, tid, "北京队", &names("重", 6)).status, 409, "names are unique");
    let teams = org.get(&format!("/t/{tid}/teams"));
    assert!(teams.body.contains("北京队领队") && teams.body.contains("上海队教练"), "{}", teams.body);
    // The team page lists the Art. 10.1 stand-ins for an absent leader: coach, captain, players.
    let bj = query(&s.db, "SELECT id FROM teams WHERE name = '北京队'")[0][0].clone();
    let team_page = org.get(&format!("/t/{tid}/teams/{bj}"));
    assert!(team_page.body.contains("北京队教练 (Coach)"), "{}", team_page.body);
    assert!(team_page.body.contains("京1 (Captain)"), "{}", team_page.body);

    // Pair round 1 (organizer only); the arbiter records the match.
    let judge = arbiter(&s, &org, tid, "judge");
    assert_eq!(pair(&judge, tid, 1, "11").status, 403);
    // Colours come from the Berger lot; pair again until 北京队 has Black, so that the
    // messages below read 京 for Black and 沪 for White.
    for seed in 11.. {
        assert_eq!(pair(&org, tid, 1, &seed.to_string()).status, 303);
        if matches(&s, tid, 1)[0].1 == "北京队" {
            break;
        }
        let r = org.submit(&format!("/t/{tid}/team-rounds"), &format!("/t/{tid}/team-rounds/1/delete"), &[]);
        assert_eq!(r.status, 303, "{}", r.body);
    }
    let ms = matches(&s, tid, 1);
    assert_eq!(ms.len(), 1);
    let (mid, black, white) = ms[0].clone();
    let m = Relay { s: &s, c: &judge, tid, mid, teams: [black.clone(), white.clone()] };
    let (b, w) = (|k| m.p(true, k), |k| m.p(false, k));

    // The start first: line-up deadlines are counted from it.
    m.no_status(
        409,
        "lineup",
        &[("side", "black"), ("section", "1"), ("p1", &b(1)), ("p2", &b(2))],
        "Set when section 1 starts",
    );
    let token = m.page().csrf();
    let r = judge.post_form(
        &format!("/t/{tid}/matches/{mid}/start"),
        &[("csrf", &token), ("version", "1"), ("start", &at(0))],
    );
    assert_eq!(r.status, 303, "{}", r.body);

    // ---- Line-ups (Art. 10.1, 10.4) ---------------------------------------------------------
    m.lineup(true, "1", 1, 2, -900);
    let p = m.lineup(false, "1", 1, 2, -890);
    assert!(body(&p).contains("clockwise order 京1, 沪1, 京2, 沪2"), "{}", p.body);
    m.no(
        "lineup",
        &[("side", "black"), ("section", "2"), ("p1", &b(3)), ("p2", &b(1)), ("at", &at(-880))],
        "a player plays at most one section",
    );
    m.lineup(true, "2", 3, 4, -870);
    m.lineup(false, "2", 3, 4, -860);
    m.no(
        "lineup",
        &[("side", "white"), ("section", "1"), ("p1", &w(1)), ("p2", &w(3)), ("at", &at(-200))],
        "was due 5 minutes before the section starts (Art. 10.1) and can no longer change: 100 s late",
    );

    // ---- Section 1: order, order errors, requests, substitution, cards --------------------
    m.no("move", &[("number", "1"), ("player", &w(1)), ("at", &at(10))], "It is Black's turn");
    m.no("move", &[("number", "1"), ("player", &b(3)), ("at", &at(10))], "京3 is not at the board");
    m.moves_to(2, 20);
    // Move 3 is 京2's; 京1 plays it: it stands, White may claim.
    let p = m.mv(3, &b(1), 30);
    assert!(body(&p).contains("Move 3 by Black 京1 is out of order"), "{}", p.body);
    assert_eq!(text_of(&p.body, "expected"), "White chooses its player (order error, Art. 17.7)");
    m.no("claim", &[("side", "black"), ("at", &at(31))], "There is no move-order error of White to claim");
    let p = m.ok("claim", &[("side", "white"), ("at", &at(32))]);
    assert!(body(&p).contains("move-order error"), "{}", p.body);
    assert_eq!(m.stones(), [1, 0], "1st order error: 1 stone (Art. 17.7)");
    assert_eq!(m.cell(0, "errors"), "1");
    m.mv(4, &w(2), 40); // White's choice
    m.mv(5, &b(1), 50); // in order after 沪2
    let p = m.mv(6, &w(2), 60); // 沪1 was due
    assert!(body(&p).contains("Move 6 by White 沪2 is out of order"));
    let p = m.mv(7, &b(2), 70); // Black places a stone without claiming
    assert!(body(&p).contains("was not claimed in time and lapses"), "{}", p.body);
    m.no(
        "claim",
        &[("side", "black"), ("at", &at(71))],
        "a claim must come before the claimant places a stone",
    );
    assert_eq!(m.stones(), [1, 0]);
    m.moves_to(10, 100);

    // A timeout requested and cancelled uses nothing; play waits while a request is pending.
    m.ok("timeout", &[("side", "black"), ("at", &at(110))]);
    m.no("moves", &[("through", "12"), ("at", &at(111))], "Black has a request pending");
    m.ok("cancel", &[("side", "black"), ("at", &at(112))]);
    assert_eq!(m.cell(0, "timeouts"), "2");

    // Substitution 1 of 3 (Art. 10.5): requested, confirmed, seated within 60 s.
    let p = m.ok("sub_request", &[("out", &b(2)), ("incoming", &b(7)), ("at", &at(120))]);
    assert!(body(&p).contains("Next: move 11, Black 京2"), "the referee reports the order: {}", p.body);
    m.ok("confirm", &[("side", "black"), ("at", &at(125))]);
    let p = m.ok("seated", &[("side", "black"), ("at", &at(155))]);
    assert!(body(&p).contains("substitute seated after 30 s"), "{}", p.body);
    assert_eq!(m.cell(0, "subs"), "2");
    m.no(
        "sub_request",
        &[("out", &b(7)), ("incoming", &b(2)), ("at", &at(160))],
        "京2 has already played and cannot come on again",
    );
    m.no(
        "lineup",
        &[("side", "black"), ("section", "2"), ("p1", &b(3)), ("p2", &b(7)), ("at", &at(161))],
        "京7 has already played in section 1",
    );

    // Yellow card (1 stone); a second yellow is a red (2 more), an on-board red counts as a
    // substitution and the seat waits for the replacement (Art. 24.2–24.3).
    m.ok(
        "card",
        &[("person", &w(2)), ("card", "yellow"), ("offence", "take_back"), ("after", "20"), ("at", &at(300))],
    );
    assert_eq!(m.stones(), [1, 1]);
    let p = m.ok(
        "card",
        &[("person", &w(2)), ("card", "yellow"), ("offence", "take_back"), ("after", "30"), ("at", &at(400))],
    );
    assert!(
        body(&p).contains("The red card counts as one of White's substitutions (Art. 24.3): 2 left"),
        "{}",
        p.body
    );
    assert_eq!(m.stones(), [1, 3]);
    m.no(
        "move",
        &[("number", "31"), ("player", &b(1)), ("at", &at(401))],
        "White must first name the replacement",
    );
    m.no(
        "card",
        &[("person", &w(2)), ("card", "yellow"), ("offence", "take_back"), ("at", &at(402))],
        "沪2 has already been sent off",
    );
    m.no(
        "replace",
        &[("side", "white"), ("incoming", &w(3)), ("at", &at(403))],
        "沪3 is in the line-up of section 2",
    );
    m.ok("replace", &[("side", "white"), ("incoming", &w(7)), ("at", &at(410))]);
    assert_eq!(m.cell(1, "subs"), "2");
    // Events are recorded in order.
    m.no("move", &[("number", "20"), ("player", &b(1)), ("at", &at(411))], "already at move 30");

    // ---- Section end and the quota (Arts. 10.2, 17.8) -------------------------------------
    m.moves_to(71, 1500);
    m.no("section_end", &[("at", &at(1501))], "only 71 moves have been played");
    m.no("moves", &[("through", "73"), ("at", &at(1502))], "moves beyond it cost a stone each");
    m.moves_to(72, 1510);
    let due = m.due();
    let p = m.mv(73, &due, 1520);
    assert!(body(&p).contains("beyond the quota"), "{}", p.body);
    assert_eq!(m.stones(), [2, 3], "one stone for the move beyond the quota");
    let p = m.ok("section_end", &[("at", &at(1530))]);
    assert!(
        body(&p).contains("clockwise order 沪3, 京3, 沪4, 京4"),
        "section 2 starts with White at 74: {}",
        p.body
    );

    // ---- Section 2: substitutions to 3, a slow substitute, red as the 3rd, timeouts -------
    let s2 = 1830; // the break is over
    m.moves_to(80, s2 + 100);
    m.ok("sub_request", &[("out", &b(4)), ("incoming", &b(8)), ("at", &at(s2 + 110))]);
    m.ok("confirm", &[("side", "black"), ("at", &at(s2 + 115))]);
    let p = m.ok("seated", &[("side", "black"), ("at", &at(s2 + 190))]);
    assert!(body(&p).contains("took 75 s to be seated (limit 60 s)"), "{}", p.body);
    m.no(
        "lineup",
        &[("side", "white"), ("section", "3"), ("p1", &w(5)), ("p2", &w(2)), ("at", &at(s2 + 200))],
        "沪2 was shown a red card and is barred from this game and the next",
    );
    m.lineup(false, "3", 5, 6, s2 + 210);
    m.lineup(true, "3", 5, 6, s2 + 220);
    m.ok(
        "card",
        &[
            ("person", &b(3)),
            ("card", "yellow"),
            ("offence", "take_back"),
            ("after", "90"),
            ("at", &at(s2 + 400)),
        ],
    );
    assert_eq!(m.stones(), [3, 3]);
    let p = m.ok(
        "card",
        &[
            ("person", &b(3)),
            ("card", "yellow"),
            ("offence", "take_back"),
            ("after", "95"),
            ("at", &at(s2 + 500)),
        ],
    );
    assert!(
        body(&p).contains("The red card counts as one of Black's substitutions (Art. 24.3): 0 left"),
        "{}",
        p.body
    );
    assert_eq!(m.stones(), [5, 3]);
    m.ok("replace", &[("side", "black"), ("incoming", &b(9)), ("at", &at(s2 + 510))]);
    m.no(
        "sub_request",
        &[("out", &b(9)), ("incoming", &b(10)), ("at", &at(s2 + 520))],
        "Black has used its 3 substitutions (Art. 10.5)",
    );
    for (k, left) in [(0, "1"), (1, "0")] {
        m.ok("timeout", &[("side", "white"), ("at", &at(s2 + 600 + k * 100))]);
        let p = m.ok("confirm", &[("side", "white"), ("at", &at(s2 + 610 + k * 100))]);
        assert!(body(&p).contains(&format!("White takes a timeout: {left} left")), "{}", p.body);
    }
    m.no("timeout", &[("side", "white"), ("at", &at(s2 + 800))], "White has used its 2 timeouts (Art. 10.5)");

    // Last byo-yomi period exceeded (Art. 22.1): a pass and 1 stone, by the player due only.
    m.moves_to(99, s2 + 1000);
    let due = m.due();
    let other = if due == w(3) { w(4) } else { w(3) };
    m.no("byoyomi", &[("number", "100"), ("player", &other), ("at", &at(s2 + 1001))], "s turn, not");
    let p = m.ok("byoyomi", &[("number", "100"), ("player", &due), ("at", &at(s2 + 1002))]);
    assert!(body(&p).contains("Move 100: forced pass by White"), "{}", p.body);
    assert_eq!(m.stones(), [5, 4]);
    m.moves_to(143, s2 + 3000);
    m.ok("section_end", &[("at", &at(s2 + 3010))]);

    // ---- Section 3: Art. 24.4 and a player's 3rd order error -------------------------------
    let s3 = s2 + 3310;
    // The executing leader: the leader while present, the coach once the leader is recorded
    // away (Art. 10.1).
    assert_eq!(m.executing(0), "北京队领队 (Leader)");
    m.attendance(&[&staff_member(&s, tid, "北京队", "leader")], s3 - 10);
    assert_eq!(m.executing(0), "北京队教练 (Coach)");
    m.mv(144, &w(5), s3 + 10);
    m.no(
        "sub_request",
        &[("out", &w(5)), ("incoming", &w(1)), ("at", &at(s3 + 11))],
        "沪1 has already played",
    );
    m.moves_to(148, s3 + 60);
    // Red to 京5: Black's substitutions are used up, so White gains one of any player
    // (Art. 24.4); Black still has 京10, who comes on.
    let p = m
        .ok("card", &[("person", &b(5)), ("card", "red"), ("offence", "leaving_seat"), ("at", &at(s3 + 70))]);
    assert!(
        body(&p).contains("White gains one substitution of any player, including one who has played"),
        "{}",
        p.body
    );
    assert_eq!(m.stones(), [7, 4], "red: 2 stones");
    assert!(m.cell(1, "subs").contains("+ 1 any"), "{}", m.cell(1, "subs"));
    m.ok("replace", &[("side", "black"), ("incoming", &b(10)), ("at", &at(s3 + 80))]);
    m.ok("sub_request", &[("out", &w(5)), ("incoming", &w(1)), ("at", &at(s3 + 90))]);
    let p = m.ok("confirm", &[("side", "white"), ("at", &at(s3 + 95))]);
    assert!(body(&p).contains("沪1 comes on for 沪5 (the extra substitution of Art. 24.4)"), "{}", p.body);
    m.moves_to(152, s3 + 200); // 149 京10, 150 沪6, 151 京6, 152 沪1
                               // 153 is 京10's; 京6 plays it: Black's 2nd order error, 2 stones.
    m.mv(153, &b(6), s3 + 210);
    m.ok("claim", &[("side", "white"), ("at", &at(s3 + 211))]);
    assert_eq!(m.stones(), [9, 4]);
    m.mv(154, &w(6), s3 + 220); // White's choice
    m.mv(155, &b(6), s3 + 230); // in order
    m.mv(156, &w(1), s3 + 240);
    m.mv(157, &b(6), s3 + 250); // 京10 was due: the 3rd error, 3 stones
    m.ok("claim", &[("side", "white"), ("at", &at(s3 + 251))]);
    assert_eq!(m.stones(), [12, 4]);
    m.mv(158, &w(1), s3 + 260);
    m.mv(159, &b(6), s3 + 270); // 京10 due: the 4th error, 京6's 3rd → red
    let p = m.ok("claim", &[("side", "white"), ("at", &at(s3 + 271))]);
    assert!(body(&p).contains("4th move-order error"), "{}", p.body);
    assert_eq!(m.stones(), [18, 4], "4 stones for the 4th error and 2 for the red card");
    assert_eq!(m.cell(0, "errors"), "4");
    // Nobody left who may come on: 京6 stays on and Black owes a pass (Art. 24.4).
    assert!(
        body(&p).contains("Black has no player who may come on: 京6 stays on and Black owes a forced pass"),
        "{}",
        p.body
    );
    assert_eq!(m.cell(0, "passes"), "1");
    let p = m.mv(160, &w(6), s3 + 280);
    assert!(body(&p).contains("Move 161: forced pass by Black"), "{}", p.body);
    assert_eq!(m.cell(0, "passes"), "0");
    m.moves_to(170, s3 + 400);

    // ---- The count: 196 for Black; penalties 18 against Black, 4 against White -------------
    m.no_status(400, "count", &[("black_count", "zwei"), ("at", &at(s3 + 500))], "Enter Black's count");
    // B_eff = 196 − 18 + 4 = 182 → White wins by 2 (komi 3½: 184 is the draw).
    let p = m.ok("count", &[("black_count", "196"), ("at", &at(s3 + 600))]);
    assert_eq!(text_of(&p.body, "result"), "W+2");
    assert!(body(&p).contains("penalty stones Black 18, White 4"), "{}", p.body);
    assert_eq!(text_of(&p.body, "match-points"), format!("{black} 0 : 3 {white}"));
    m.no("moves", &[("through", "180"), ("at", &at(s3 + 700))], "The match is over");
    let rec = query(&s.db, &format!("SELECT record FROM team_matches WHERE id = {mid}"))[0][0].clone();
    assert!(rec.contains("\"match_points\":[0,3]") && rec.contains("second_wins"), "{rec}");
    // The penalty log, as it accrued, with each ruling's stones.
    let log = p.body.split("id=\"penalties\"").nth(1).unwrap().split("</table>").next().unwrap();
    let stones: Vec<&str> = log
        .match_indices("class=\"num stones\">")
        .map(|(i, mm)| {
            let rest = &log[i + mm.len()..];
            &rest[..rest.find('<').unwrap()]
        })
        .collect();
    assert_eq!(stones, ["1", "1", "2", "1", "1", "2", "1", "2", "2", "3", "6", "0"]);

    // Zh: the same page in Chinese, names in the messages.
    let mut zh = s.client();
    zh.accept_language = "zh-CN".into();
    let pz = zh.get(&format!("/t/{tid}/matches/{mid}"));
    assert!(pz.body.contains("白胜2子") && pz.body.contains("行棋次序错误"), "{}", pz.body);
    // The public sees the page read-only and cannot record.
    assert!(!pz.body.contains("id=\"form-move\""));
    let anon = s.client();
    let r = anon.post_form(
        &format!("/t/{tid}/matches/{mid}/event"),
        &[("csrf", "x"), ("kind", "restore"), ("version", "1")],
    );
    assert!(r.status == 401 || r.status == 403, "a write without login is refused: {}", r.status);

    // ---- Standings (public) ------------------------------------------------------------------
    let st = anon.get(&format!("/t/{tid}/team-standings"));
    assert_eq!(st.status, 200);
    let first = st.body.find(&format!("<td class=\"team-name\">{white}</td>")).unwrap();
    let second = st.body.find(&format!("<td class=\"team-name\">{black}</td>")).unwrap();
    assert!(first < second, "the winner first: {}", st.body);
    assert!(st.body.contains("<td class=\"num mp\">3</td>"));

    // ---- The printed sheets ------------------------------------------------------------------
    let pdf = judge.get(&format!("/t/{tid}/matches/{mid}/sheets.pdf?lang=zh"));
    assert_eq!(pdf.status, 200);
    assert_eq!(pdf.header("content-type"), Some("application/pdf"));
    let text = pdf_text(&pdf.bytes);
    for needle in [
        "出场名单",
        "第1节（第1至72手）",
        "第3节（第144手至终局）",
        "京1",
        "沪7",
        "对局记录表",
        "判罚记录",
        "行棋次序错误",
        "最后一次读秒超时",
        "超过规定手数1手",
        "红牌",
        "任意换人（第24条第4款）",
        "计入胜负的罚子：黑方18子，白方4子",
        "比赛结果：白胜2子",
    ] {
        assert!(text.contains(needle), "{needle} missing from the sheets: {text}");
    }
    let en = pdf_text(&judge.get(&format!("/t/{tid}/matches/{mid}/sheets.pdf?lang=en")).bytes);
    for needle in ["Line-upforms", "Penaltylog", "move-ordererror", "Result:W+2", "Matchpoints"] {
        assert!(en.contains(needle), "{needle} missing: {en}");
    }
    assert_eq!(anon.get(&format!("/t/{tid}/matches/{mid}/sheets.pdf")).status, 303, "staff only");
    let disposition = pdf.header("content-disposition").unwrap_or_default().to_string();
    assert!(disposition.contains("-round1-match1-sheets.pdf"), "{disposition}");
    // The command line prints the same sheets from the same document.
    let (t_arg, m_arg) = (tid.to_string(), mid.to_string());
    let out = s.cli(&[
        "print",
        "team-sheets",
        "--tournament",
        &t_arg,
        "--match",
        &m_arg,
        "--lang",
        "zh",
        "--out",
        "-",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(pdf_text(&out.stdout), text, "the CLI's sheets differ from the download");
    let none = s.cli(&["print", "team-sheets", "--tournament", &t_arg, "--match", "99999", "--out", "-"]);
    assert!(!none.status.success());
    assert!(String::from_utf8_lossy(&none.stderr).contains("没有编号为99999的团体对抗"));

    // ---- The next game: red-carded players are barred (Art. 24.3) ---------------------------
    assert_eq!(pair(&org, tid, 2, "12").status, 303);
    let (mid2, black2, _) = matches(&s, tid, 2)[0].clone();
    assert_eq!(black2, white, "the second cycle swaps the colours");
    let m2 = Relay { s: &s, c: &judge, tid, mid: mid2, teams: [white.clone(), black.clone()] };
    let token = m2.page().csrf();
    let r = judge.post_form(
        &format!("/t/{tid}/matches/{mid2}/start"),
        &[("csrf", &token), ("version", "1"), ("start", &at(20_000))],
    );
    assert_eq!(r.status, 303);
    // 京3, 京5 and 京6 were sent off in the first game; 沪2 too.
    m2.no(
        "lineup",
        &[
            ("side", "white"),
            ("section", "1"),
            ("p1", &m.p(true, 3)),
            ("p2", &m.p(true, 1)),
            ("at", &at(19_000)),
        ],
        "京3 was shown a red card and is barred from this game and the next",
    );
    m2.no(
        "lineup",
        &[
            ("side", "black"),
            ("section", "1"),
            ("p1", &m.p(false, 2)),
            ("p2", &m.p(false, 1)),
            ("at", &at(19_000)),
        ],
        "沪2 was shown a red card",
    );
    let p = m2.page();
    assert!(body(&p).contains("<td class=\"barred\">京3, 京5, 京6</td>"), "{}", p.body);
    // A card to a leader: staff can be carded too.
    m2.lineup(false, "1", 1, 2, 19_100);
    m2.ok(
        "card",
        &[
            ("person", &staff_member(&s, tid, &black, "coach")),
            ("card", "yellow"),
            ("offence", "other"),
            ("at", &at(19_200)),
        ],
    );
    // An equal count is a draw in a round robin (Art. 12): 183 + the coach's yellow stone =
    // 184 at komi 3½; 1 match point each.
    m2.lineup(true, "1", 3, 4, 19_300);
    m2.moves_to(60, 20_600);
    let p = m2.ok("count", &[("black_count", "183"), ("at", &at(21_000))]);
    assert_eq!(text_of(&p.body, "result"), "Draw");
    assert_eq!(text_of(&p.body, "match-points"), format!("{white} 1 : 1 {black}"));
    let st = anon.get(&format!("/t/{tid}/team-standings"));
    assert!(
        st.body.contains("<td class=\"num mp\">4</td>") && st.body.contains("<td class=\"num mp\">1</td>")
    );
    // Every accepted event is in the audit trail.
    assert!(
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid} AND action = 'relay_event'")
        ) > 50
    );
}

/// Art. 12: a knockout draw goes to the play-off from move 144 with any two players, one
/// substitution and one timeout each; a second draw is Black's win.
#[test]
fn knockout_draw_playoff_and_second_draw_to_black() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = team_tournament(&org, "淘汰赛测试", "1");
    save_team_settings(&org, &s, tid, &[("pairing", "knockout")]);
    assert_eq!(add_team(&org, tid, "甲队", &names("甲", 8)).status, 303);
    assert_eq!(add_team(&org, tid, "乙队", &names("乙", 8)).status, 303);
    for seed in 5.. {
        assert_eq!(pair(&org, tid, 1, &seed.to_string()).status, 303);
        if matches(&s, tid, 1)[0].1 == "甲队" {
            break;
        }
        let r = org.submit(&format!("/t/{tid}/team-rounds"), &format!("/t/{tid}/team-rounds/1/delete"), &[]);
        assert_eq!(r.status, 303, "{}", r.body);
    }
    let (mid, black, white) = matches(&s, tid, 1)[0].clone();
    let m = Relay { s: &s, c: &org, tid, mid, teams: [black.clone(), white.clone()] };
    let token = m.page().csrf();
    let r = org.post_form(
        &format!("/t/{tid}/matches/{mid}/start"),
        &[("csrf", &token), ("version", "1"), ("start", &at(0))],
    );
    assert_eq!(r.status, 303);
    m.lineup(true, "1", 1, 2, -900);
    m.lineup(false, "1", 1, 2, -900);
    m.lineup(true, "2", 3, 4, -800);
    m.lineup(false, "2", 3, 4, -800);
    m.moves_to(72, 2000);
    m.ok("section_end", &[("at", &at(2010))]);
    m.lineup(true, "3", 5, 6, 2100);
    m.lineup(false, "3", 5, 6, 2100);
    m.ok(
        "card",
        &[
            ("person", &m.p(true, 3)),
            ("card", "yellow"),
            ("offence", "take_back"),
            ("after", "100"),
            ("at", &at(3000)),
        ],
    );
    m.moves_to(143, 5000);
    m.ok("section_end", &[("at", &at(5010))]);
    m.no("section_end", &[("at", &at(5011))], "Only sections 1 and 2 end by move number");
    // The referee records both clocks in the break (Art. 22.4): 120 min + 3 × 60 s here.
    let p =
        m.ok("clock", &[("b_main", "40:00"), ("w_main", "1:02:30"), ("w_periods", "3"), ("at", &at(5020))]);
    assert!(
        body(&p).contains("Clocks after move 143: Black 40:00, 3 byo-yomi left, White 1:02:30"),
        "{}",
        p.body
    );
    assert!(p.body.contains("<td class=\"clock-b\">40:00, 3 byo-yomi left</td>"), "{}", p.body);
    // Readings that do not fit the event's time control, or a move not yet played: refused.
    m.no_status(
        400,
        "clock",
        &[("b_main", "0"), ("b_periods", "4"), ("w_main", "10:00"), ("at", &at(5030))],
        "More byo-yomi periods than the event gives (3)",
    );
    m.no_status(
        400,
        "clock",
        &[("b_main", "2:01:00"), ("w_main", "10:00")],
        "More basic time than the event gives",
    );
    m.no_status(400, "clock", &[("b_main", "1:75"), ("w_main", "10:00")], "h:mm:ss or mm:ss");
    m.no(
        "clock",
        &[("move", "150"), ("b_main", "30:00"), ("w_main", "10:00"), ("at", &at(5040))],
        "Move 150 has not been played yet",
    );
    m.moves_to(200, 7000);
    // 185 − 1 (the yellow) = 184 at komi 3½: a draw, and this is a knockout.
    let p = m.ok("count", &[("black_count", "185"), ("at", &at(7100))]);
    assert!(body(&p).contains("Black counted 185; penalty stones Black 1, White 0"), "{}", p.body);
    assert!(body(&p).contains("Knockout draw: the play-off follows from move 144"), "{}", p.body);
    assert_eq!(text_of(&p.body, "phase"), "knockout draw: the play-off follows");
    // The play-off is played with the time left when the game ended (Art. 12, the event's
    // default): not recorded yet, so the page says so and the restore waits for it.
    assert!(
        text_of(&p.body, "playoff-clocks-missing").contains("Record both clocks after move 200"),
        "{}",
        p.body
    );
    m.no(
        "restore",
        &[("at", &at(7150))],
        "first record both clocks as they stood at the end of the drawn game (after move 200",
    );
    // The clocks stand still after the count: Black is in byo-yomi with 2 periods left.
    let p = m.ok("clock", &[("b_main", "0"), ("b_periods", "2"), ("w_main", "1:35"), ("at", &at(7160))]);
    assert_eq!(text_of(&p.body, "playoff-black"), "byo-yomi, 2 left");
    assert_eq!(text_of(&p.body, "playoff-white"), "1:35, 3 byo-yomi left");
    assert_eq!(text_of(&p.body, "playoff-clocks-from"), "(the clocks after move 200, Art. 12)");
    m.no(
        "move",
        &[("number", "201"), ("player", &m.p(false, 5)), ("at", &at(7101))],
        "restore the position for the play-off first",
    );
    m.no(
        "lineup",
        &[
            ("side", "black"),
            ("section", "playoff"),
            ("p1", &m.p(true, 1)),
            ("p2", &m.p(true, 3)),
            ("at", &at(7102)),
        ],
        "restore the position",
    );
    let p = m.ok("restore", &[("at", &at(7200))]);
    assert!(body(&p).contains("Position restored after move 143"), "{}", p.body);
    assert!(
        body(&p).contains("with its remaining time (Black byo-yomi, 2 left, White 1:35, 3 byo-yomi left: the clocks after move 200)"),
        "{}",
        p.body
    );
    assert_eq!(text_of(&p.body, "playoff-black"), "byo-yomi, 2 left");
    // In Chinese too.
    let zh = org.get(&format!("/lang/zh?next=/t/{tid}/matches/{mid}"));
    assert_eq!(zh.status, 303);
    let p = m.page();
    assert_eq!(text_of(&p.body, "playoff-black"), "读秒中，剩余2次");
    assert_eq!(text_of(&p.body, "playoff-white"), "基本时间1:35，读秒3次");
    assert_eq!(org.get("/lang/en?next=/").status, 303);
    assert_eq!(text_of(&p.body, "moves"), "143");
    assert_eq!(m.cell(0, "subs"), "1");
    assert_eq!(m.cell(0, "timeouts"), "1");
    assert_eq!(m.stones(), [1, 0], "the section-2 yellow stays with the restored game");
    // Any two players of the list, also those who played sections 1–3.
    m.lineup(true, "playoff", 1, 3, 7300);
    let p = m.lineup(false, "playoff", 6, 1, 7310);
    assert!(body(&p).contains("clockwise order 乙6, 甲1, 乙1, 甲3"), "{}", p.body);
    m.no(
        "lineup",
        &[
            ("side", "white"),
            ("section", "playoff"),
            ("p1", &m.p(false, 6)),
            ("p2", &m.p(false, 2)),
            ("at", &at(7381)),
        ],
        "was due when the 3-minute preparation ended (Art. 12) and can no longer change: 1 s late",
    );
    m.moves_to(150, 7500);
    m.ok("sub_request", &[("out", &m.p(true, 3)), ("incoming", &m.p(true, 5)), ("at", &at(7510))]);
    m.ok("confirm", &[("side", "black"), ("at", &at(7512))]);
    m.no(
        "sub_request",
        &[("out", &m.p(true, 5)), ("incoming", &m.p(true, 6)), ("at", &at(7520))],
        "Black has used its 1 substitution",
    );
    m.ok("timeout", &[("side", "white"), ("at", &at(7530))]);
    m.ok("confirm", &[("side", "white"), ("at", &at(7531))]);
    m.no("timeout", &[("side", "white"), ("at", &at(7540))], "White has used its 1 timeout");
    m.moves_to(210, 9000);
    // 185 again with the yellow: 184, equal → Black wins (Art. 12).
    let p = m.ok("count", &[("black_count", "185"), ("at", &at(9100))]);
    assert_eq!(text_of(&p.body, "result"), "B+");
    assert_eq!(text_of(&p.body, "drawn"), "Draw");
    assert!(body(&p).contains("Black wins after the play-off; match points Black 3, White 0"), "{}", p.body);
    let rounds = s.client().get(&format!("/t/{tid}/team-rounds"));
    assert!(rounds.body.contains(&format!("<td>{black}</td></tr>")), "the winner is listed: {}", rounds.body);
    let pdf = pdf_text(&org.get(&format!("/t/{tid}/matches/{mid}/sheets.pdf?lang=zh")).bytes);
    for needle in [
        "节棋（第144手至终局）",
        "原局结果：和棋",
        "节棋判罚记录",
        "比赛结果：黑胜",
        // The readings after moves 143 and 200; the play-off from the latter (the default).
        "基本时间40:00，读秒3次",
        "黑方：读秒中，剩余2次；白方：基本时间1:35，读秒3次",
        "（第200手后的计时，",
    ] {
        assert!(pdf.contains(needle), "{needle} missing: {pdf}");
    }
    // The knockout is over after its final.
    let r = pair(&org, tid, 2, "");
    assert_eq!(r.status, 409, "{}", r.body);
}

/// The event's `playoff_clock` setting "the time left after move 143" (Art. 12 read with the
/// clocks restored with the position): the play-off starts from the reading after move 143,
/// not from the one at the end of the drawn game; the restore waits while only the latter
/// stands (a withdrawn reading does not count), and the match record sheet prints the clock
/// readings that stand and the play-off's starting time, in Chinese and English.
#[test]
fn playoff_after_move_143_takes_the_clocks_of_section_two() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = team_tournament(&org, "节棋计时测试", "1");
    save_team_settings(&org, &s, tid, &[("pairing", "knockout"), ("playoff_clock", "section_two_end")]);
    assert_eq!(add_team(&org, tid, "东队", &names("东", 8)).status, 303);
    assert_eq!(add_team(&org, tid, "西队", &names("西", 8)).status, 303);
    assert_eq!(pair(&org, tid, 1, "7").status, 303);
    let (mid, black, white) = matches(&s, tid, 1)[0].clone();
    let m = Relay { s: &s, c: &org, tid, mid, teams: [black, white] };
    let token = m.page().csrf();
    let r = org.post_form(
        &format!("/t/{tid}/matches/{mid}/start"),
        &[("csrf", &token), ("version", "1"), ("start", &at(0))],
    );
    assert_eq!(r.status, 303);
    m.lineup(true, "1", 1, 2, -900);
    m.lineup(false, "1", 1, 2, -900);
    m.lineup(true, "2", 3, 4, -800);
    m.lineup(false, "2", 3, 4, -800);
    m.moves_to(72, 2000);
    m.ok("section_end", &[("at", &at(2010))]);
    m.lineup(true, "3", 5, 6, 2100);
    m.lineup(false, "3", 5, 6, 2100);
    m.moves_to(143, 5000);
    m.ok("section_end", &[("at", &at(5010))]);
    // In the break the referee reads both clocks, but types them wrongly.
    let p = m.ok("clock", &[("b_main", "1:11:11"), ("w_main", "1:22:22"), ("at", &at(5020))]);
    assert!(body(&p).contains("Clocks after move 143: Black 1:11:11, 3 byo-yomi left"), "{}", p.body);
    let typo = m.seq_of("\"event\":\"clocks\"");
    m.moves_to(200, 7000);
    // 184 at komi 3½ is a draw, and this is a knockout.
    let p = m.ok("count", &[("black_count", "184"), ("at", &at(7100))]);
    assert_eq!(text_of(&p.body, "phase"), "knockout draw: the play-off follows");
    // The clocks as they stand after the count (move 200): not what this event's play-off uses.
    let p = m.ok("clock", &[("b_main", "0"), ("b_periods", "2"), ("w_main", "12:05"), ("at", &at(7110))]);
    assert!(body(&p).contains("Clocks after move 200: Black byo-yomi, 2 left, White 12:05, 3 byo-yomi left"));
    // The reading after move 143 stands (typo and all): the page names it, not the end one.
    assert_eq!(text_of(&p.body, "playoff-black"), "1:11:11, 3 byo-yomi left");
    assert_eq!(text_of(&p.body, "playoff-clocks-from"), "(the clocks after move 143, Art. 12)");
    // The chief arbiter (the organizer, none being named) takes the typo back.
    let r = m.withdraw(&org, &typo, "misread the clocks in the break");
    assert_eq!(r.status, 303, "{}", r.field_error("withdraw").unwrap_or(r.body));
    let p = m.page();
    let b = body(&p);
    assert!(b.contains("<del>Clock reading</del>"), "{}", p.body);
    assert!(b.contains(": misread the clocks in the break"), "{}", p.body);
    assert!(!p.body.contains("<td class=\"clock-b\">1:11:11"), "not among the readings: {}", p.body);
    assert!(p.body.contains("<td class=\"clock-b\">byo-yomi, 2 left</td>"), "{}", p.body);
    // Only the reading at the end of the game stands: the page asks for move 143 and the
    // restore is refused.
    assert!(
        text_of(&p.body, "playoff-clocks-missing").contains("Record both clocks after move 143"),
        "{}",
        p.body
    );
    m.no(
        "restore",
        &[("at", &at(7150))],
        "first record both clocks as they stood at the end of section 2 (after move 143",
    );
    // The sheet of the pending play-off says the same.
    let pending = pdf(&org, tid, mid, "en");
    assert!(
        pending.contains("Notrecorded(bothclocksaftermove143aretoberecordedbeforetherestore)"),
        "{pending}"
    );
    assert!(!pending.contains("1:11:11"), "the withdrawn reading is not on the sheet: {pending}");
    // The referee copies the reading from the written record of the break (Art. 22.4).
    let p = m.ok(
        "clock",
        &[("move", "143"), ("b_main", "38:20"), ("w_main", "1:02:30"), ("w_periods", "3"), ("at", &at(7160))],
    );
    assert_eq!(text_of(&p.body, "playoff-black"), "38:20, 3 byo-yomi left");
    assert_eq!(text_of(&p.body, "playoff-white"), "1:02:30, 3 byo-yomi left");
    assert_eq!(text_of(&p.body, "playoff-clocks-from"), "(the clocks after move 143, Art. 12)");
    let p = m.ok("restore", &[("at", &at(7200))]);
    assert!(
        body(&p).contains("with its remaining time (Black 38:20, 3 byo-yomi left, White 1:02:30, 3 byo-yomi left: the clocks after move 143)"),
        "{}",
        p.body
    );
    assert_eq!(text_of(&p.body, "playoff-black"), "38:20, 3 byo-yomi left");
    assert_eq!(text_of(&p.body, "moves"), "143");
    // The referee's clock of the play-off starts from that reading, at move 143 (Art. 12).
    let cfg = org.get(&format!("/t/{tid}/matches/{mid}/clock")).clock_config();
    assert_eq!(cfg["setup"]["start"][0]["main_ms"], 2_300_000);
    assert_eq!(cfg["setup"]["start"][1]["main_ms"], 3_750_000);
    assert_eq!(cfg["setup"]["moves"], 143);

    // The match record sheet: every reading that stands, and the play-off's starting time.
    let zh = pdf(&org, tid, mid, "zh");
    for needle in [
        "计时记录（第22条第4款）",
        "第几手后",
        "黑方剩余时间",
        "基本时间38:20，读秒3次",
        "基本时间1:02:30，读秒3次",
        "读秒中，剩余2次",
        "基本时间12:05，读秒3次",
        "节棋用时（双方所剩时间，包括读秒，第12条）",
        "黑方：基本时间38:20，读秒3次；白方：基本时间1:02:30，读秒3次",
        "（第143手后的计时，",
    ] {
        assert!(zh.contains(needle), "{needle} missing: {zh}");
    }
    let en = pdf(&org, tid, mid, "en");
    for needle in [
        "Clockreadings(Art.22.4)",
        "Aftermove",
        "Black:timeleft",
        "38:20,3byo-yomileft",
        "byo-yomi,2left",
        "12:05,3byo-yomileft",
        "Play-offtime(thetimeleft,byo-yomiincluded,Art.12)",
        "Black:38:20,3byo-yomileft;White:1:02:30,3byo-yomileft",
        "(theclocksaftermove143,recorded",
    ] {
        assert!(en.contains(needle), "{needle} missing: {en}");
    }
    for text in [&zh, &en] {
        assert!(!text.contains("1:11:11") && !text.contains("1:22:22"), "withdrawn: {text}");
    }
    // The match page in Chinese: the readings, the play-off's time and the withdrawal.
    assert_eq!(org.get(&format!("/lang/zh?next=/t/{tid}/matches/{mid}")).status, 303);
    let p = m.page();
    assert_eq!(org.get("/lang/en?next=/").status, 303);
    let b = body(&p);
    assert_eq!(text_of(&p.body, "playoff-black"), "基本时间38:20，读秒3次");
    assert_eq!(text_of(&p.body, "playoff-clocks-from"), "（第143手后的计时，第12条）");
    assert!(b.contains("<del>计时读数</del>"), "{}", p.body);
    assert!(b.contains("撤回：misread the clocks in the break"), "{}", p.body);
    // Nothing left in English but what was typed (the reason, the user name), the chrome and
    // the event's time zone, named by its IANA name ("Asia/Shanghai").
    let zone = query_text(&s.db, &format!("SELECT time_zone FROM tournaments WHERE id = {tid}")).unwrap();
    let allowed: Vec<&str> = ["English", "PDF", "Tengen", "break", "clocks", "misread", "org", "the"]
        .into_iter()
        .chain(zone.split(['/', '_']))
        .collect();
    let left: Vec<String> =
        latin_words(&visible_text(&b)).into_iter().filter(|w| !allowed.contains(&w.as_str())).collect();
    assert!(left.is_empty(), "English on the Chinese match page: {left:?}");
    // The sheets: the Chinese one has only the tournament's Latin name in Latin letters, the
    // English one only names (and the term 节棋) in Chinese.
    let sheets = |lang: &str| {
        let r = org.get(&format!("/t/{tid}/matches/{mid}/sheets.pdf?lang={lang}"));
        readback::read("team_sheets", &r.bytes).all_text()
    };
    assert_eq!(latin_words(&sheets("zh")), ["Cup", "Team"]);
    let names = "节棋计时测试中国棋院东西队";
    let stray: String = sheets("en").chars().filter(|&c| cjk(c) && !names.contains(c)).collect();
    assert!(stray.is_empty(), "Chinese on the English sheets: {stray}");
    // The English match page: Chinese only in names (teams, leaders, coaches, players), the
    // brand, the language switch and the term 节棋.
    let allowed = "西东队领教练天元中文节棋";
    let stray: String =
        visible_text(&body(&m.page())).chars().filter(|&c| cjk(c) && !allowed.contains(c)).collect();
    assert!(stray.is_empty(), "Chinese on the English match page: {stray}");
}

/// The text of a page outside its tags (the CSP allows no inline script or style).
fn visible_text(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for ch in html.chars() {
        match ch {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                out.push(' ');
            }
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// A CJK character or punctuation mark (ideographs, 、。“”, full-width forms).
fn cjk(c: char) -> bool {
    ('\u{3000}'..='\u{9fff}').contains(&c) || ('\u{ff00}'..='\u{ffef}').contains(&c)
}

/// Words of three or more Latin letters in `text`.
fn latin_words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = text
        .split(|c: char| !c.is_ascii_alphabetic() && c != '-')
        .filter(|w| w.chars().filter(|c| c.is_ascii_alphabetic()).count() >= 3)
        .map(str::to_string)
        .collect();
    words.sort();
    words.dedup();
    words
}

/// The team sheets of a match as text without whitespace.
fn pdf(c: &Client, tid: i32, mid: i32, lang: &str) -> String {
    let r = c.get(&format!("/t/{tid}/matches/{mid}/sheets.pdf?lang={lang}"));
    assert_eq!(r.status, 200, "{}", r.body);
    pdf_text(&r.bytes)
}

/// Board matches (rules.md §13.2): two boards, colours by board, the main-board rule, team
/// standings, and round 2 paired by the Swiss engine from the match points.
#[test]
fn board_match_round_with_match_points_and_standings() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = team_tournament(&org, "围甲测试", "3");
    save_team_settings(
        &org,
        &s,
        tid,
        &[
            ("format", "boards"),
            ("boards", "2"),
            ("match_points", "main_board"),
            ("main_board", "1"),
            ("pairing", "swiss"),
            ("tiebreaks", "weijia"),
        ],
    );
    for (k, name) in ["一队", "二队", "三队", "四队"].iter().enumerate() {
        let _ = k;
        let players = names(name, 3);
        assert_eq!(add_team(&org, tid, name, &players).status, 303);
    }
    // Settings are frozen once paired, except the tie-breaks.
    assert_eq!(pair(&org, tid, 1, "9").status, 303);
    let r = post_team_settings(
        &org,
        &s,
        tid,
        &[
            ("format", "boards"),
            ("boards", "3"),
            ("match_points", "main_board"),
            ("main_board", "1"),
            ("pairing", "swiss"),
            ("tiebreaks", "weijia"),
        ],
    );
    assert_eq!(r.status, 409);
    let ms = matches(&s, tid, 1);
    assert_eq!(ms.len(), 2);
    assert!(pair(&org, tid, 2, "9").status == 409, "round 1 is not decided");
    let judge = arbiter(&s, &org, tid, "judge");
    let post = |mid: i32, fields: &[(&str, String)]| {
        let page = judge.get(&format!("/t/{tid}/matches/{mid}"));
        assert_eq!(page.status, 200, "{}", page.body);
        let v = query(&s.db, &format!("SELECT version FROM team_matches WHERE id = {mid}"))[0][0].clone();
        let mut all = vec![("csrf", page.csrf()), ("version", v)];
        all.extend(fields.iter().map(|(k, v)| (*k, v.clone())));
        let refs: Vec<(&str, &str)> = all.iter().map(|(k, v)| (*k, v.as_str())).collect();
        judge.post_form(&format!("/t/{tid}/matches/{mid}/boards"), &refs)
    };
    // Match 1: the first team wins board 1 (Black there) and board 2: 4 : 0 → 3 : 0.
    let (m1, a1, b1) = ms[0].clone();
    let page = judge.get(&format!("/t/{tid}/matches/{m1}"));
    assert!(page.body.contains("Black on odd boards"), "{}", page.body);
    let pl = |team: &str, k: u32| member(&s, tid, team, k);
    // A player on two boards is refused, nothing written.
    let r = post(
        m1,
        &[
            ("first-1", pl(&a1, 1)),
            ("second-1", pl(&b1, 1)),
            ("result-1", "black".into()),
            ("first-2", pl(&a1, 1)),
            ("second-2", pl(&b1, 2)),
            ("result-2", "white".into()),
        ],
    );
    assert_eq!(r.status, 422);
    assert_eq!(
        r.field_error("boards").as_deref(),
        Some("Board 2: the player is not in that team, or plays another board.")
    );
    assert_eq!(
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM team_board_games WHERE match_id = {m1} AND result != ''")
        ),
        0
    );
    let r = post(
        m1,
        &[
            ("first-1", pl(&a1, 1)),
            ("second-1", pl(&b1, 1)),
            ("result-1", "black".into()),
            ("first-2", pl(&a1, 2)),
            ("second-2", pl(&b1, 2)),
            ("result-2", "white".into()),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let page = judge.get(&format!("/t/{tid}/matches/{m1}"));
    assert_eq!(text_of(&page.body, "record"), "game points 4 : 0, match points 3 : 0");
    // Match 2: 1 : 1 on boards; the second team wins the main board (White there) → 1 : 2.
    let (m2, a2, b2) = ms[1].clone();
    let r = post(
        m2,
        &[
            ("first-1", pl(&a2, 1)),
            ("second-1", pl(&b2, 1)),
            ("result-1", "white".into()),
            ("first-2", pl(&a2, 2)),
            ("second-2", pl(&b2, 2)),
            ("result-2", "white".into()),
        ],
    );
    assert_eq!(r.status, 303);
    let page = judge.get(&format!("/t/{tid}/matches/{m2}"));
    assert_eq!(text_of(&page.body, "record"), "game points 2 : 2, match points 1 : 2");

    // Standings: 3, 2, 1, 0 match points.
    let st = s.client().get(&format!("/t/{tid}/team-standings"));
    let order: Vec<usize> = [&a1, &b2, &a2, &b1]
        .iter()
        .map(|t| st.body.find(&format!("<td class=\"team-name\">{t}</td>")).unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{}", st.body);
    assert!(st.body.contains("Main-board wins"), "{}", st.body);

    // Round 2: the Swiss engine pairs the two winners (3 and 2 points) on table 1.
    assert_eq!(pair(&org, tid, 2, "9").status, 303);
    let r2 = matches(&s, tid, 2);
    let top = [r2[0].1.clone(), r2[0].2.clone()];
    assert!(top.contains(&a1) && top.contains(&b2), "{top:?}");
    // Deleting a round: only the last, and not once it has results.
    let del = |n: i32| {
        org.submit(&format!("/t/{tid}/team-rounds"), &format!("/t/{tid}/team-rounds/{n}/delete"), &[])
    };
    assert_eq!(del(1).status, 409);
    assert_eq!(del(2).status, 303);
    assert!(matches(&s, tid, 2).is_empty());
}

/// Art. 12 注: an event may rule an equal relay count a White win.
#[test]
fn equal_count_white_wins_when_the_event_says_so() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = team_tournament(&org, "平目判白胜", "1");
    save_team_settings(&org, &s, tid, &[("equal_count", "white")]);
    assert_eq!(add_team(&org, tid, "东队", &names("东", 6)).status, 303);
    assert_eq!(add_team(&org, tid, "西队", &names("西", 6)).status, 303);
    assert_eq!(pair(&org, tid, 1, "3").status, 303);
    let (mid, black, white) = matches(&s, tid, 1)[0].clone();
    let m = Relay { s: &s, c: &org, tid, mid, teams: [black.clone(), white.clone()] };
    let token = m.page().csrf();
    let r = org.post_form(
        &format!("/t/{tid}/matches/{mid}/start"),
        &[("csrf", &token), ("version", "1"), ("start", &at(0))],
    );
    assert_eq!(r.status, 303);
    m.lineup(true, "1", 1, 2, -600);
    m.lineup(false, "1", 1, 2, -600);
    let p = m.ok("count", &[("black_count", "184"), ("after", "60"), ("at", &at(3000))]);
    assert_eq!(text_of(&p.body, "result"), "W+");
    assert_eq!(text_of(&p.body, "match-points"), format!("{black} 0 : 3 {white}"));
}

/// Seed 003 Art. 12 (黑贴3又1/2子，黑184子为和棋): a relay event made through the new-event
/// form with the team relay rule set takes its komi, 3½, though the form showed 3¾ for the
/// individual rules; a Black count of 184 is then a draw. A komi typed against the rule set's
/// is saved only once confirmed, the refusal naming what it does: no relay match drawn.
#[test]
fn the_team_preset_brings_komi_three_and_a_half_through_the_form() {
    let s = Server::start();
    let org = s.first_organizer();
    let tournaments = || count_rows(&s.db, "SELECT count(*) FROM tournaments");
    let shown = org.get("/t/new");
    assert_eq!(shown.input("komi").as_deref(), Some("3.75"), "the individual rules' komi is shown first");
    let (action, mut f) = shown.form_as_shown("settings-form");
    for (k, v) in [
        ("name_zh", "贴子测试杯"),
        ("system", "team_relay"),
        ("preset", "chinese_team_relay"),
        ("rounds", "1"),
        ("start_date", "2026-12-05"),
        ("end_date", "2026-12-05"),
    ] {
        set(&mut f, k, v);
    }
    // A komi typed against the team rules: refused until confirmed, with its consequence.
    let before = tournaments();
    let mut typed = f.clone();
    set(&mut typed, "komi", "3.25");
    let r = org.post_form(&action, &as_refs(&typed));
    assert_eq!(r.status, 400, "{}", r.body);
    let why = r.field_error("komi").unwrap_or_default();
    assert!(why.contains("No relay match can then be drawn") && why.contains("Black 184 is a draw"), "{why}");
    assert_eq!(tournaments(), before, "nothing written");
    // The komi left as the form showed it follows the rule set chosen.
    let r = org.post_form(&action, &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(tournaments(), before + 1);
    let tid: i32 = r.location().trim_start_matches("/t/").parse().unwrap();
    let komi = query_text(
        &s.db,
        &format!("SELECT {} FROM tournaments WHERE id = {tid}", json_text(&s.db, "ruleset", "komi_q")),
    );
    assert_eq!(komi.as_deref(), Some("14"), "3½ stones");
    save_team_settings(&org, &s, tid, &[]);
    assert_eq!(add_team(&org, tid, "东队", &names("东", 6)).status, 303);
    assert_eq!(add_team(&org, tid, "西队", &names("西", 6)).status, 303);
    assert_eq!(pair(&org, tid, 1, "3").status, 303);
    let (mid, black, white) = matches(&s, tid, 1)[0].clone();
    let m = Relay { s: &s, c: &org, tid, mid, teams: [black.clone(), white.clone()] };
    let token = m.page().csrf();
    let r = org.post_form(
        &format!("/t/{tid}/matches/{mid}/start"),
        &[("csrf", &token), ("version", "1"), ("start", &at(0))],
    );
    assert_eq!(r.status, 303);
    m.lineup(true, "1", 1, 2, -600);
    m.lineup(false, "1", 1, 2, -600);
    let p = m.ok("count", &[("black_count", "184"), ("after", "60"), ("at", &at(3000))]);
    assert_eq!(text_of(&p.body, "result"), "Draw");
    assert_eq!(text_of(&p.body, "match-points"), format!("{black} 1 : 1 {white}"));
}

/// Taking back wrongly recorded events: only the chief arbiter (here the organizer, none being
/// named), with a reason, on a current page; a withdrawal that leaves a later event invalid is
/// refused naming it; the log keeps every row and marks the withdrawn ones; the penalty stones,
/// the result and the match record are recomputed; a result a later round was paired from
/// stays until that round is deleted.
#[test]
fn withdrawing_relay_events_recomputes_the_match() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = team_tournament(&org, "撤回测试", "2");
    save_team_settings(&org, &s, tid, &[]);
    assert_eq!(add_team(&org, tid, "南队", &names("南", 8)).status, 303);
    assert_eq!(add_team(&org, tid, "北队", &names("北", 8)).status, 303);
    assert_eq!(pair(&org, tid, 1, "4").status, 303);
    let (mid, black, white) = matches(&s, tid, 1)[0].clone();
    let judge = arbiter(&s, &org, tid, "judge");
    let m = Relay { s: &s, c: &judge, tid, mid, teams: [black.clone(), white.clone()] };
    let token = m.page().csrf();
    let r = judge.post_form(
        &format!("/t/{tid}/matches/{mid}/start"),
        &[("csrf", &token), ("version", "1"), ("start", &at(0))],
    );
    assert_eq!(r.status, 303);
    // This event's colours come from the draw: no leaders' nigiri to record.
    let token = m.page().csrf();
    let r = judge.post_form(
        &format!("/t/{tid}/matches/{mid}/nigiri"),
        &[("csrf", &token), ("version", &m.version()), ("mode", "seed")],
    );
    assert_eq!(r.status, 409);
    assert!(r.field_error("nigiri").unwrap().contains("the match has no leaders' nigiri"), "{}", r.body);
    m.lineup(true, "1", 1, 2, -600);
    m.lineup(false, "1", 1, 2, -600);
    // A yellow to the wrong player (the referee meant 北1), then a second one to the same
    // player: a red, 2 + 1 stones, a replacement.
    m.ok(
        "card",
        &[
            ("person", &m.p(true, 1)),
            ("card", "yellow"),
            ("offence", "take_back"),
            ("after", "20"),
            ("at", &at(1000)),
        ],
    );
    m.ok(
        "card",
        &[
            ("person", &m.p(true, 1)),
            ("card", "yellow"),
            ("offence", "take_back"),
            ("after", "30"),
            ("at", &at(1500)),
        ],
    );
    m.ok("replace", &[("side", "black"), ("incoming", &m.p(true, 3)), ("at", &at(1510))]);
    let p = m.ok("count", &[("black_count", "188"), ("after", "40"), ("at", &at(2000))]);
    assert_eq!(m.stones(), [3, 0]);
    // 188 − 3 = 185 at komi 3½ (184 a draw): B+1.
    assert_eq!(text_of(&p.body, "result"), "B+1");
    let first_yellow = query(
        &s.db,
        &format!("SELECT min(seq) FROM relay_events WHERE match_id = {mid} AND event LIKE '%yellow%'"),
    )[0][0]
        .clone();
    let (replace, count) = (m.seq_of("replace_sent_off"), m.seq_of("\"count\""));
    let moves_after_replace = m.seq_of("\"through\":40");

    // An arbiter who is not the chief arbiter sees no form and is refused.
    assert!(!m.page().body.contains("id=\"form-withdraw\""));
    let before = (m.events(), m.withdrawals(), m.audits());
    let r = m.withdraw(&judge, &count, "typo");
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body.contains("Only the chief arbiter"), "{}", r.body);
    assert_eq!((m.events(), m.withdrawals(), m.audits()), before);
    // The chief arbiter (the organizer while none is named): a reason is required.
    let chief = Relay { c: &org, teams: m.teams.clone(), ..m };
    assert!(chief.page().body.contains("id=\"form-withdraw\""));
    let r = chief.withdraw(&org, &count, "  ");
    assert_eq!(r.status, 400);
    assert_eq!(r.field_error("withdraw").as_deref(), Some("Give the reason for the withdrawal."));
    assert_eq!((m.events(), m.withdrawals(), m.audits()), before);
    // A stale page is refused.
    let token = org.get(&format!("/t/{tid}/matches/{mid}")).csrf();
    let r = org.post_form(
        &format!("/t/{tid}/matches/{mid}/withdraw"),
        &[("csrf", &token), ("version", "1"), ("seq", &count), ("reason", "typo")],
    );
    assert_eq!(r.status, 409);
    assert_eq!((m.events(), m.withdrawals(), m.audits()), before);
    // Without the first yellow there is no red, so the replacement after it would be refused.
    let r = chief.withdraw(&org, &first_yellow, "the card was meant for 北1");
    assert_eq!(r.status, 422, "{}", r.body);
    let msg = r.field_error("withdraw").unwrap();
    assert!(
        msg.contains(&format!(
            "Event {first_yellow} cannot be withdrawn while event {replace} stands: without it, event {replace} would be refused (Black has no red-carded player to replace). Withdraw event {replace} first."
        )),
        "{msg}"
    );
    assert_eq!((m.events(), m.withdrawals(), m.audits()), before);

    // Round 2 is paired: the decided result of round 1 no longer changes until it is deleted.
    assert_eq!(pair(&org, tid, 2, "5").status, 303);
    let before = (m.events(), m.withdrawals(), m.audits());
    let r = chief.withdraw(&org, &count, "wrong count");
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("Round 2 has already been paired"), "{}", r.body);
    assert_eq!((m.events(), m.withdrawals(), m.audits()), before);
    let r = org.submit(&format!("/t/{tid}/team-rounds"), &format!("/t/{tid}/team-rounds/2/delete"), &[]);
    assert_eq!(r.status, 303, "{}", r.body);

    // Now the count, the moves after the replacement, the replacement and the first yellow, in
    // that order. The log keeps every row.
    let n = m.events();
    for (seq, why) in [
        (&count, "count entered before the dame were filled"),
        (&moves_after_replace, "the moves follow the corrected cards"),
        (&replace, "no red card after the correction"),
        (&first_yellow, "the card was meant for 北1"),
    ] {
        let r = chief.withdraw(&org, seq, why);
        assert_eq!(r.status, 303, "withdraw {seq}: {}", r.field_error("withdraw").unwrap_or(r.body));
    }
    assert_eq!(m.events(), n, "nothing is deleted");
    assert_eq!(m.withdrawals(), 4);
    assert_eq!(
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid} AND action = 'relay_withdraw'")
        ),
        4
    );
    let p = m.page();
    assert_eq!(m.stones(), [1, 0], "one yellow left");
    assert_eq!(text_of(&p.body, "result"), "");
    assert_eq!(text_of(&p.body, "phase"), "in play");
    assert_eq!(text_of(&p.body, "moves"), "30");
    assert!(p.body.contains("<td class=\"barred\"></td>"), "nobody sent off");
    assert_eq!(
        query(&s.db, &format!("SELECT CAST(record IS NULL AS INTEGER) FROM team_matches WHERE id = {mid}"))
            [0][0],
        "1"
    );
    let b = body(&p);
    assert!(b.contains(&format!("id=\"event-{first_yellow}\"")), "the row stays in the log");
    assert!(b.contains("<del>Yellow card to 南1</del>"), "{}", p.body);
    assert!(b.contains("Withdrawn by org"), "{}", p.body);
    assert!(b.contains(": the card was meant for 北1"), "{}", p.body);
    // A withdrawn event is not withdrawn twice.
    let r = chief.withdraw(&org, &first_yellow, "again");
    assert_eq!(r.status, 422);
    assert!(r.field_error("withdraw").unwrap().contains("has already been withdrawn"));
    // The referee enters what happened: the yellow to 北1, play on, the count again.
    m.ok(
        "card",
        &[("person", &m.p(false, 1)), ("card", "yellow"), ("offence", "take_back"), ("at", &at(2100))],
    );
    let p = m.ok("count", &[("black_count", "188"), ("after", "40"), ("at", &at(2200))]);
    assert_eq!(m.stones(), [1, 1]);
    // 188 − 1 + 1 = 188 at komi 3½: B+4.
    assert_eq!(text_of(&p.body, "result"), "B+4");
    assert_eq!(text_of(&p.body, "match-points"), format!("{black} 3 : 0 {white}"));
}

/// Art. 11: the event's regulations give the colours to a nigiri between the team leaders.
/// Paired, each match names who holds (by a lot from the table's seed, shown) and who guesses;
/// nothing is recorded before the nigiri; the referee records it from the board (and may
/// correct it until the first event) or performs it from the seed, once, replayable by anyone;
/// the colours of the match follow.
#[test]
fn leaders_nigiri_decides_the_colours() {
    use admin::domain::draw::nigiri::{perform, NigiriRoles, RoleReason};
    let s = Server::start();
    let org = s.first_organizer();
    let tid = team_tournament(&org, "猜先测试", "3");
    // Board matches take colours by board: the leaders' nigiri is refused there.
    let r = post_team_settings(&org, &s, tid, &[("format", "boards"), ("colours", "leaders_nigiri")]);
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.field_error("colours").unwrap().contains("is for relay matches"), "{}", r.body);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM team_settings"), 0);
    save_team_settings(&org, &s, tid, &[("colours", "leaders_nigiri")]);
    for (name, prefix) in [("东队", "东"), ("西队", "西"), ("南队", "南"), ("北队", "北")] {
        assert_eq!(add_team(&org, tid, name, &names(prefix, 6)).status, 303);
    }
    assert_eq!(pair(&org, tid, 1, "7").status, 303);
    let rows = query(
        &s.db,
        &format!(
            "SELECT id, black_team_id, white_team_id, nigiri, table_no FROM team_matches \
             WHERE tournament_id = {tid} ORDER BY table_no"
        ),
    );
    assert_eq!(rows.len(), 2);
    let team_name = |id: &str| query(&s.db, &format!("SELECT name FROM teams WHERE id = {id}"))[0][0].clone();
    let state = |mid: &str| -> serde_json::Value {
        serde_json::from_str(
            &query(&s.db, &format!("SELECT nigiri FROM team_matches WHERE id = {mid}"))[0][0],
        )
        .unwrap()
    };
    let round_seed: u64 = query(&s.db, &format!("SELECT seed FROM team_rounds WHERE tournament_id = {tid}"))
        [0][0]
        .parse()
        .unwrap();
    let rounds = s.client().get(&format!("/t/{tid}/team-rounds"));
    assert!(rounds.body.contains("colours by the leaders&#39; nigiri, still to be done"), "{}", rounds.body);

    // Match 1: the holder and guesser by lot, the guesser Black for now, the seed shown.
    let (mid, black, white) = (rows[0][0].parse::<i32>().unwrap(), &rows[0][1], &rows[0][2]);
    let n = state(&rows[0][0]);
    let (holder, guesser) = (n["holder"].to_string(), n["guesser"].to_string());
    assert_eq!(n["reason"], "Lot");
    assert_eq!((black, white), (&guesser, &holder), "the guessing team stands as Black provisionally");
    let judge = arbiter(&s, &org, tid, "judge");
    let m = Relay { s: &s, c: &judge, tid, mid, teams: [team_name(black), team_name(white)] };
    let p = m.page();
    let seed1 = admin::domain::rounds::table_seed(round_seed, 1);
    assert!(p.body.contains(&format!("<code class=\"nigiri-seed\">{seed1}</code>")), "{}", p.body);
    assert_eq!(
        text_of(&body(&p), "nigiri-roles"),
        format!(
            "{}'s leader holds the white stones, {}'s leader guesses (who holds was drawn by lot from the seed below: the leaders' ranks and ages are not on file).",
            team_name(&holder),
            team_name(&guesser)
        )
    );
    let token = p.csrf();
    let r = judge.post_form(
        &format!("/t/{tid}/matches/{mid}/start"),
        &[("csrf", &token), ("version", "1"), ("start", &at(0))],
    );
    assert_eq!(r.status, 303, "the start does not depend on the colours");
    // No event before the nigiri.
    m.no_status(
        409,
        "lineup",
        &[
            ("side", "black"),
            ("section", "1"),
            ("p1", &m.p(true, 1)),
            ("p2", &m.p(true, 2)),
            ("at", &at(-600)),
        ],
        "decided by the leaders' nigiri before the match (Art. 11)",
    );
    let nigiri = |fields: &[(&str, &str)]| {
        let page = m.page();
        let mut all = vec![("csrf", page.csrf()), ("version", m.version())];
        all.extend(fields.iter().map(|(k, v)| (*k, v.to_string())));
        judge.post_form(&format!("/t/{tid}/matches/{mid}/nigiri"), &as_refs_str(&all))
    };
    let audits = m.audits();
    let r = nigiri(&[("mode", "board"), ("grab", "0"), ("guess", "odd")]);
    assert_eq!(r.status, 400);
    assert_eq!(r.field_error("nigiri").as_deref(), Some("Enter a whole number from 1 to 200."));
    assert_eq!(m.audits(), audits);
    // At the board: 17 stones, guess odd → right: the guesser plays Black.
    let r = nigiri(&[("mode", "board"), ("grab", "17"), ("guess", "odd")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let colours = |mid: i32| {
        query(&s.db, &format!("SELECT black_team_id, white_team_id FROM team_matches WHERE id = {mid}"))[0]
            .clone()
    };
    assert_eq!(colours(mid), vec![guesser.clone(), holder.clone()]);
    assert_eq!(
        text_of(&body(&m.page()), "nigiri-outcome"),
        format!("17 stones, guess odd (one stone): right; {} takes Black.", team_name(&guesser))
    );
    // Corrected before the first event: 12 stones, guess odd → wrong: the holder plays Black.
    let r = nigiri(&[("mode", "board"), ("grab", "12"), ("guess", "odd"), ("reason", "counted again")]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(colours(mid), vec![holder.clone(), guesser.clone()]);
    assert_eq!(
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid} AND action = 'leaders_nigiri'")
        ),
        2
    );
    // A stale page is refused.
    let token = m.page().csrf();
    let r = judge.post_form(
        &format!("/t/{tid}/matches/{mid}/nigiri"),
        &[("csrf", &token), ("version", "1"), ("mode", "board"), ("grab", "3"), ("guess", "odd")],
    );
    assert_eq!(r.status, 409);
    // The match follows the colours: the holder's team lines up as Black.
    let m = Relay { teams: [team_name(&holder), team_name(&guesser)], ..m };
    let p = m.lineup(true, "1", 1, 2, -600);
    assert!(text_of(&body(&p), "nigiri-outcome").contains(&format!("{} takes Black", team_name(&holder))));
    let r = nigiri(&[("mode", "board"), ("grab", "3"), ("guess", "odd")]);
    assert_eq!(r.status, 409);
    assert!(r.field_error("nigiri").unwrap().contains("The colours are fixed"), "{}", r.body);

    // Match 2: performed from the table's seed, shown, replayable; once only.
    let mid2: i32 = rows[1][0].parse().unwrap();
    let m2 = Relay { mid: mid2, teams: [team_name(&rows[1][1]), team_name(&rows[1][2])], ..m };
    let token = m2.page().csrf();
    let r = judge.post_form(
        &format!("/t/{tid}/matches/{mid2}/nigiri"),
        &[("csrf", &token), ("version", &m2.version()), ("mode", "seed")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let n = state(&rows[1][0]);
    let seed = n["record"]["seed"].as_u64().expect("a nigiri from the seed stores it");
    assert_eq!(seed, admin::domain::rounds::table_seed(round_seed, 2), "the table's seed");
    let p = m2.page();
    assert!(p.body.contains(&format!("<code class=\"nigiri-seed\">{seed}</code>")), "{}", p.body);
    assert!(p.body.contains("Performed from the seed; anyone can replay it."), "{}", p.body);
    let roles = NigiriRoles {
        holder: n["holder"].as_u64().unwrap() as u32,
        guesser: n["guesser"].as_u64().unwrap() as u32,
        reason: RoleReason::Lot,
    };
    let again = perform(roles, seed);
    assert_eq!(again.grab, n["record"]["grab"].as_u64().unwrap() as u32);
    assert_eq!(colours(mid2), vec![again.black.to_string(), again.white.to_string()]);
    assert!(!p.body.contains("id=\"form-nigiri\""), "no form once performed from the seed");
    for fields in [vec![("mode", "seed")], vec![("mode", "board"), ("grab", "5"), ("guess", "even")]] {
        let mut all = vec![("csrf", token.clone()), ("version", m2.version())];
        all.extend(fields.iter().map(|(k, v)| (*k, v.to_string())));
        let r = judge.post_form(&format!("/t/{tid}/matches/{mid2}/nigiri"), &as_refs_str(&all));
        assert_eq!(r.status, 409, "performed once: {fields:?}");
    }
    assert_eq!(
        count_rows(
            &s.db,
            &format!(
                "SELECT count(*) FROM audit WHERE tournament_id = {tid} AND action = 'remote_leaders_nigiri'"
            )
        ),
        1
    );
}

fn as_refs_str<'a>(v: &'a [(&'a str, String)]) -> Vec<(&'a str, &'a str)> {
    v.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

// ---- Matches as they really end (seed 003 Arts. 15.2, 17.5, 17.6, 23) ----------------------

/// A one-round relay event with two teams of `players` and its one match, paired.
fn one_match<'a>(
    s: &'a Server,
    org: &'a Client,
    name: &str,
    teams: [&str; 2],
    players: usize,
) -> (i32, Relay<'a>) {
    let tid = team_tournament(org, name, "1");
    save_team_settings(org, s, tid, &[]);
    for t in teams {
        let prefix: String = t.chars().take(1).collect();
        assert_eq!(add_team(org, tid, t, &names(&prefix, players)).status, 303);
    }
    assert_eq!(pair(org, tid, 1, "4").status, 303);
    let (mid, black, white) = matches(s, tid, 1)[0].clone();
    (tid, Relay { s, c: org, tid, mid, teams: [black, white] })
}

/// The `<select name="NAME">` of the form with id `form`, as HTML.
fn select_html(body: &str, form: &str, name: &str) -> String {
    let f = &body[body.find(&format!("id=\"{form}\"")).unwrap_or_else(|| panic!("no form {form}"))..];
    let f = &f[..f.find("</form>").unwrap()];
    let i =
        f.find(&format!("<select name=\"{name}\"")).unwrap_or_else(|| panic!("no select {name} in {form}"));
    f[i..i + f[i..].find("</select>").unwrap()].to_string()
}

/// A relay match decided by every kind of ending over HTTP, with the confirm step and nothing
/// preselected: in a 4-team Swiss, a forfeit and a double loss in round 1
/// (the arbiter may not rule the double loss; the chief arbiter does), standings with both
/// losers on 0, the double-loss lot naming a nominal winner that round 2 pairs as a winner;
/// in round 2 a replay ordered (withdrawn, ordered again, played and then protected from a
/// withdrawal) and a side left without eligible players after three red cards.
#[test]
fn relay_matches_end_every_way_over_http() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = team_tournament(&org, "队际赛结束方式", "3");
    save_team_settings(&org, &s, tid, &[("pairing", "swiss")]);
    for (name, prefix) in [("东队", "东"), ("南队", "南"), ("西队", "西"), ("北队", "北")] {
        assert_eq!(add_team(&org, tid, name, &names(prefix, 6)).status, 303);
    }
    let judge = arbiter(&s, &org, tid, "judge13");
    assert_eq!(pair(&org, tid, 1, "5").status, 303);
    let r1 = matches(&s, tid, 1);
    assert_eq!(r1.len(), 2);
    let relay = |c, k: usize, r: &[(i32, String, String)]| Relay {
        s: &s,
        c,
        tid,
        mid: r[k].0,
        teams: [r[k].1.clone(), r[k].2.clone()],
    };

    // ---- Match 1: White forfeits (Arts. 15.2, 23.2) --------------------------------------
    let m = relay(&judge, 0, &r1);
    m.start(0);
    let page = m.page();
    // Nothing that decides the match is preselected.
    for (form, name) in
        [("form-resign", "side"), ("form-resign", "by"), ("form-end", "ending"), ("form-end", "side")]
    {
        let sel = select_html(&page.body, form, name);
        assert!(sel.contains("<option value=\"\">"), "{form} {name} starts empty: {sel}");
        assert!(!sel.contains("selected"), "{form} {name}: nothing preselected: {sel}");
    }
    m.no_status(400, "end", &[("side", "white"), ("why", "未到场"), ("at", &at(400))], "Choose");
    m.no_status(400, "end", &[("ending", "forfeit"), ("side", "white"), ("at", &at(400))], "Give the reason");
    m.no_status(400, "end", &[("ending", "forfeit"), ("why", "未到场"), ("at", &at(400))], "Choose");
    // The preview states what will be recorded; the back link records nothing.
    let p =
        m.post("end", &[("ending", "forfeit"), ("side", "white"), ("why", "全队未到场"), ("at", &at(400))]);
    assert_eq!(p.status, 200);
    let preview = body(&p);
    assert!(preview.contains("Forfeit (Arts. 15.2, 23.2) against White: 全队未到场 (ruled by"), "{preview}");
    assert!(preview.contains("id=\"confirm-back\""), "{preview}");
    assert_eq!(m.events(), 0);
    let p = m.ok("end", &[("ending", "forfeit"), ("side", "white"), ("why", "全队未到场"), ("at", &at(400))]);
    let result = text_of(&p.body, "result");
    assert!(result.starts_with("B+F (forfeit)"), "{result}");
    assert!(
        body(&p).contains("Forfeit (Arts. 15.2, 23.2) against White: 全队未到场 (ruled by judge13)"),
        "{}",
        p.body
    );
    assert_eq!(text_of(&p.body, "match-points"), format!("{} 3 : 0 {}", r1[0].1, r1[0].2));
    let mut public_zh = s.client();
    public_zh.accept_language = "zh-CN".into();
    let zh = public_zh.get(&format!("/t/{tid}/matches/{}", m.mid));
    assert!(body(&zh).contains("弃权（第15条第2款、第23条第2款）判白方：全队未到场"), "{}", zh.body);
    // The record sheet prints the ending.
    let sheet = pdf(&judge, tid, m.mid, "zh");
    assert!(sheet.contains("弃权（第15条第2款、第23条第2款）判白方"), "{sheet}");

    // ---- Match 2: a double loss is the chief arbiter's (Art. 17.5 (5)) --------------------
    let m2 = relay(&judge, 1, &r1);
    m2.start(0);
    m2.lineup(true, "1", 1, 2, -900);
    m2.lineup(false, "1", 1, 2, -890);
    m2.moves_to(40, 2000);
    let t2100 = at(2100);
    let fields: [(&str, &str); 3] =
        [("ending", "double_loss_stone_moved"), ("why", "移子双方不能达成一致"), ("at", &t2100)];
    let mut confirmed = fields.to_vec();
    confirmed.push(("confirm", "1"));
    m2.no_status(403, "end", &confirmed, "Only the chief arbiter");
    let chief = Relay { c: &org, ..relay(&org, 1, &r1) };
    let p = chief.ok("end", &fields);
    assert!(text_of(&p.body, "result").starts_with("Double loss"), "{}", text_of(&p.body, "result"));
    assert_eq!(text_of(&p.body, "match-points"), format!("{} 0 : 0 {}", r1[1].1, r1[1].2));

    // Team rounds and standings: the forfeit winner 3, both double losers on 0 with a loss.
    let rounds = org.get(&format!("/t/{tid}/team-rounds"));
    assert!(rounds.body.contains("both lose"), "{}", rounds.body);
    let st = org.get(&format!("/t/{tid}/team-standings")).body;
    let row = |team: &str| {
        let i = st
            .find(&format!("<td class=\"team-name\">{team}</td>"))
            .unwrap_or_else(|| panic!("{team}: {st}"));
        let tr = &st[i..i + st[i..].find("</tr>").unwrap()];
        tr.split("<td class=\"num")
            .skip(1)
            .map(|c| c[c.find('>').unwrap() + 1..c.find('<').unwrap()].to_string())
            .collect::<Vec<_>>()
    };
    // played, won, drawn, lost, byes, match points
    assert_eq!(row(&r1[0].1), ["1", "1", "0", "0", "0", "3"]);
    assert_eq!(row(&r1[1].1), ["1", "0", "0", "1", "0", "0"]);
    assert_eq!(row(&r1[1].2), ["1", "0", "0", "1", "0", "0"]);

    // ---- Round 2: the double-loss lot (rules.md §12) pairs the nominal winner as a winner -----
    assert_eq!(pair(&org, tid, 2, "77").status, 303);
    let nominal = query(&s.db, &format!("SELECT t.name, m.nominal_lot FROM team_matches m JOIN teams t ON t.id = m.nominal_winner_team_id WHERE m.id = {}", m2.mid));
    assert_eq!(nominal.len(), 1, "the lot is stored on the double-loss match");
    let winner = nominal[0][0].clone();
    assert!(winner == r1[1].1 || winner == r1[1].2);
    assert!(nominal[0][1].contains("\"stream\":\"DoubleLoss\""), "{}", nominal[0][1]);
    assert_eq!(
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid} AND action = 'double_loss_lot'")
        ),
        1
    );
    let draws =
        query(&s.db, &format!("SELECT draws FROM team_rounds WHERE tournament_id = {tid} AND number = 2"))[0]
            [0]
        .clone();
    assert!(draws.contains("\"stream\":\"DoubleLoss\""), "the lot is among the round's draws: {draws}");
    let r2 = matches(&s, tid, 2);
    let top: std::collections::BTreeSet<String> = [r2[0].1.clone(), r2[0].2.clone()].into();
    assert_eq!(top, [r1[0].1.clone(), winner.clone()].into(), "3 : 3 on table 1 (pairing only)");
    assert_eq!(row(&winner)[5], "0", "the standings never read the lot");

    // ---- Round 2, table 1: a replay ordered (Art. 17.6 (2)) ----------------------------------
    let chief = Relay { c: &org, ..relay(&org, 0, &r2) };
    chief.start(5000);
    chief.lineup(true, "1", 1, 2, 4000);
    chief.lineup(false, "1", 1, 2, 4010);
    chief.moves_to(30, 6000);
    let t6100 = at(6100);
    let replay_fields: [(&str, &str); 3] =
        [("ending", "replay_scattered"), ("why", "停电，棋局散乱无法复盘"), ("at", &t6100)];
    chief.ok("end", &replay_fields);
    let replay_id = || query(&s.db, &format!("SELECT id FROM team_matches WHERE replay_of = {}", chief.mid));
    assert_eq!(replay_id().len(), 1, "the replay is a match of its own");
    let p = chief.page();
    assert!(p.body.contains("id=\"replay-link\""), "{}", p.body);
    assert_eq!(text_of(&p.body, "match-points"), format!("{} 0 : 0 {}", r2[0].1, r2[0].2));
    // Withdrawing the ruling takes the untouched replay with it; ordered again.
    let seq = chief.seq_of("replay_scattered");
    assert_eq!(chief.withdraw(&org, &seq, "录错").status, 303);
    assert!(replay_id().is_empty());
    chief.ok("end", &replay_fields);
    let rid: i32 = replay_id()[0][0].parse().unwrap();
    let rp = Relay { c: &judge, s: &s, tid, mid: rid, teams: [r2[0].1.clone(), r2[0].2.clone()] };
    let p = rp.page();
    assert!(p.body.contains("id=\"replay-of-link\""), "{}", p.body);
    assert!(org.get(&format!("/t/{tid}/team-rounds")).body.contains("relay · replay"));
    // Round 3 waits for the replay (Swiss pairs from results).
    let r = pair(&org, tid, 3, "9");
    assert_eq!(r.status, 409, "{}", r.body);
    // The replay is played: White resigns, confirmed by its leader (Art. 14).
    rp.start(9000);
    rp.lineup(true, "1", 1, 2, 8000);
    rp.lineup(false, "1", 1, 2, 8010);
    rp.moves_to(50, 9500);
    let seated = rp.p(false, 1);
    rp.no_status(400, "resign", &[("side", "white"), ("at", &at(9600))], "Choose");
    rp.no(
        "resign",
        &[("side", "white"), ("by", &seated), ("at", &at(9600))],
        "is playing at the board: the executing leader confirms the resignation",
    );
    let leader = staff_member(&s, tid, &r2[0].2, "leader");
    let p = rp.ok("resign", &[("side", "white"), ("by", &leader), ("at", &at(9600))]);
    assert!(
        body(&p).contains(&format!("White resigns, confirmed by {}领队 to the referee (Art. 14)", r2[0].2)),
        "{}",
        p.body
    );
    // The replay's result stands: the ruling that ordered it can no longer be withdrawn.
    let seq = chief.seq_of("replay_scattered");
    let r = chief.withdraw(&org, &seq, "录错");
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("has events recorded"), "{}", r.body);

    // ---- Round 2, table 2: no eligible player for section 2 (Arts. 10.3, 10.4, 24.3) -----------
    let m = relay(&judge, 1, &r2);
    m.start(0);
    m.lineup(true, "1", 1, 2, -900);
    m.lineup(false, "1", 1, 2, -890);
    m.moves_to(72, 3000);
    m.ok("section_end", &[("at", &at(3010))]);
    for k in [3, 4] {
        m.ok(
            "card",
            &[("person", &m.p(true, k)), ("card", "red"), ("offence", "leaving_seat"), ("at", &at(3020))],
        );
    }
    let t3100 = at(3100);
    let no_eligible =
        [("ending", "no_eligible_player"), ("side", "black"), ("why", "无人可上场"), ("at", t3100.as_str())];
    m.no("end", &no_eligible, "Black still has 2 players who may play section 2");
    m.ok(
        "card",
        &[("person", &m.p(true, 5)), ("card", "red"), ("offence", "leaving_seat"), ("at", &at(3030))],
    );
    let p = m.page();
    assert!(
        body(&p).contains("Black has 1 player who may still play section 2 (moves 73–143)"),
        "{}",
        p.body
    );
    let p = m.ok("end", &no_eligible);
    assert!(text_of(&p.body, "result").starts_with("W+"), "{}", text_of(&p.body, "result"));
    assert!(body(&p)
        .contains("Loss: no eligible player for the section due (Arts. 10.3, 10.4, 24.3) against Black"));
    // Round 3 pairs now that every match of round 2 is decided.
    assert_eq!(pair(&org, tid, 3, "9").status, 303);
}

/// A relay team of 5 and a team of 3 in a 4-board event are saved with a warning
/// where they are made and refused at pairing, nothing written; a relay event that keeps the
/// individual rules shows the komi its matches use (3½) and is flagged for the staff.
#[test]
fn impossible_setups_are_flagged_and_not_paired() {
    let s = Server::start();
    let org = s.first_organizer();
    let mut f = tournament_fields("个人规则队际赛", "Team Cup");
    set(&mut f, "system", "team_relay");
    set(&mut f, "rounds", "2");
    let r = org.submit("/t/new", "/t/new", &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    let tid: i32 = r.location().trim_start_matches("/t/").parse().unwrap();
    save_team_settings(&org, &s, tid, &[]);

    // The overview shows what the relay matches use; the staff see the flag.
    let public = s.client().get(&format!("/t/{tid}"));
    assert_eq!(text_of(&public.body, "komi"), "3½ stones = 7 points", "{}", public.body);
    assert!(!public.body.contains("id=\"rules-flag\""));
    let staff = org.get(&format!("/t/{tid}"));
    assert!(
        text_of(&staff.body, "rules-flag")
            .contains("keeps the individual rule set (Chinese rules 2002 (individual), komi 3.75)"),
        "{}",
        staff.body
    );
    assert!(org.get(&format!("/t/{tid}/teams")).body.contains("id=\"rules-flag\""));

    // A relay team of 5 is saved, with the warning where it is made.
    assert_eq!(add_team(&org, tid, "五人队", &names("五", 5)).status, 303);
    assert_eq!(add_team(&org, tid, "六人队", &names("六", 6)).status, 303);
    let teams = org.get(&format!("/t/{tid}/teams"));
    let warn = text_of(&teams.body, "short-teams");
    assert!(warn.contains("五人队 has 5") && warn.contains("at least 6 players"), "{warn}");
    assert!(!warn.contains("六人队"), "{warn}");
    assert!(teams.body.contains("too few: 6 needed"));
    assert!(org.get(&format!("/t/{tid}/team-rounds")).body.contains("id=\"short-teams\""));
    // Refused again at pairing, nothing written.
    let audits = count_rows(&s.db, &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid}"));
    let r = pair(&org, tid, 1, "1");
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        text_of(&r.body, "banner").contains("Not paired: 五人队 has 5. Each team needs at least 6 players"),
        "{}",
        r.body
    );
    assert_eq!(
        count_rows(&s.db, &format!("SELECT count(*) FROM team_rounds WHERE tournament_id = {tid}")),
        0
    );
    assert_eq!(count_rows(&s.db, &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid}")), audits);

    // A 4-board event: the team of 5 is enough, a team of 3 is not.
    save_team_settings(&org, &s, tid, &[("format", "boards"), ("boards", "4")]);
    assert_eq!(add_team(&org, tid, "三人队", &names("三", 3)).status, 303);
    let warn = text_of(&org.get(&format!("/t/{tid}/teams")).body, "short-teams");
    assert!(
        warn.contains("三人队 has 3") && warn.contains("one a board") && !warn.contains("五人队"),
        "{warn}"
    );
    assert!(
        !org.get(&format!("/t/{tid}")).body.contains("id=\"rules-flag\""),
        "board games are individual games"
    );
    let r = pair(&org, tid, 1, "1");
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body.contains("三人队 has 3"));
    // Completed, the round pairs.
    let tr = query(&s.db, "SELECT id, version FROM teams WHERE name = '三人队'")[0].clone();
    let list: Vec<String> =
        names("三", 4).iter().enumerate().map(|(i, p)| format!("{} {p}", i + 1)).collect();
    let page = format!("/t/{tid}/teams/{}", tr[0]);
    let r =
        org.submit(&page, &page, &[("name", "三人队"), ("version", &tr[1]), ("players", &list.join("\n"))]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert!(!org.get(&format!("/t/{tid}/teams")).body.contains("id=\"short-teams\""));
    assert_eq!(pair(&org, tid, 1, "1").status, 303);
}

/// In a round robin a bye is no match — no match points, in no tie-break — unless the
/// event's setting gives it a win; a Swiss bye stays a win (rules.md §14.5).
#[test]
fn round_robin_byes_score_nothing_unless_the_event_says_so() {
    let s = Server::start();
    let org = s.first_organizer();
    for (name, pairing, rr_bye, bye_points) in [
        ("循环轮空", "round_robin", "none", "0"),
        ("循环轮空计胜", "round_robin", "win", "3"),
        ("积分轮空", "swiss", "none", "3"),
    ] {
        let tid = team_tournament(&org, name, "3");
        save_team_settings(&org, &s, tid, &[("pairing", pairing), ("rr_bye", rr_bye)]);
        for t in ["甲队", "乙队", "丙队"] {
            assert_eq!(add_team(&org, tid, t, &names(t, 6)).status, 303);
        }
        assert_eq!(pair(&org, tid, 1, "3").status, 303);
        let bye = query(
            &s.db,
            &format!("SELECT t.name FROM team_matches m JOIN teams t ON t.id = m.black_team_id WHERE m.tournament_id = {tid} AND m.white_team_id IS NULL"),
        )[0][0]
            .clone();
        let rounds = s.client().get(&format!("/t/{tid}/team-rounds"));
        assert!(rounds.body.contains(&format!("bye: {bye_points} match points")), "{name}: {}", rounds.body);
        // The match is decided by a forfeit: the winner 3, the bye team as the setting says.
        let judge_side = matches(&s, tid, 1);
        let m = Relay {
            s: &s,
            c: &org,
            tid,
            mid: judge_side[0].0,
            teams: [judge_side[0].1.clone(), judge_side[0].2.clone()],
        };
        m.start(0);
        m.ok("end", &[("ending", "forfeit"), ("side", "white"), ("why", "未到场"), ("at", &at(400))]);
        let st = s.client().get(&format!("/t/{tid}/team-standings")).body;
        let i = st.find(&format!("<td class=\"team-name\">{bye}</td>")).unwrap();
        let tr = &st[i..i + st[i..].find("</tr>").unwrap()];
        let cells: Vec<&str> = tr
            .split("<td class=\"num")
            .skip(1)
            .map(|c| &c[c.find('>').unwrap() + 1..c.find('<').unwrap()])
            .collect();
        // played, won, drawn, lost, byes, match points
        assert_eq!(cells, ["0", "0", "0", "0", "1", bye_points], "{name}");
    }
}

/// Seed 003 Art. 10.1 (the line-up goes to the referee group): a section's line-up is shown to the
/// public (and so to the other team) only once both are in, or the section has started; the
/// arbiters see it at once.
#[test]
fn lineups_are_public_only_once_both_are_in() {
    let s = Server::start();
    let org = s.first_organizer();
    let (tid, m) = one_match(&s, &org, "名单公布", ["红队", "蓝队"], 6);
    let ms = [(m.mid, m.teams[0].clone(), m.teams[1].clone())];
    m.start(0);
    let path = format!("/t/{tid}/matches/{}", m.mid);
    let public = s.client();
    let black1 = format!("{}1", &ms[0].1[..3]);
    m.lineup(true, "1", 1, 2, -900);
    let p = public.get(&path);
    assert!(!p.body.contains(&black1), "Black's line-up is not public while White's is due: {}", p.body);
    assert!(body(&p).contains(
        "Black handed in its line-up for section 1 (moves 1–72) (shown once both are in, Art. 10.1)"
    ));
    assert!(p.body.contains("class=\"note lineup-hidden\""));
    assert!(m.page().body.contains(&black1), "the arbiters see it");
    m.lineup(false, "1", 1, 2, -890);
    let p = public.get(&path);
    assert!(p.body.contains(&black1) && !p.body.contains("lineup-hidden"), "{}", p.body);
    // Section 2: White's line-up first; public once Black's is in too.
    m.lineup(false, "2", 3, 4, -880);
    let white3 = format!("{}3", &ms[0].2[..3]);
    assert!(!public.get(&path).body.contains(&white3));
    m.lineup(true, "2", 3, 4, -870);
    assert!(public.get(&path).body.contains(&white3));
}

/// A card records its offence and article; the page and both sheets print them, a red
/// from a second yellow with its cause; advice and malicious fouls are recordable.
#[test]
fn cards_record_their_offence_over_http() {
    let s = Server::start();
    let org = s.first_organizer();
    let (tid, m) = one_match(&s, &org, "牌与犯规", ["金队", "木队"], 6);
    m.start(0);
    m.lineup(true, "1", 1, 2, -900);
    m.lineup(false, "1", 1, 2, -890);
    m.moves_to(20, 500);
    let b1 = m.p(true, 1);
    let sel = select_html(&m.page().body, "form-card", "offence");
    assert!(sel.contains("<option value=\"\">") && !sel.contains("selected"), "{sel}");
    m.no_status(400, "card", &[("person", &b1), ("card", "yellow"), ("at", &at(600))], "Choose");
    m.no(
        "card",
        &[("person", &b1), ("card", "advice"), ("offence", "take_back"), ("at", &at(600))],
        "Not advice (no stone) for take-back (Art. 17.3: yellow): the rules give yellow.",
    );
    m.ok("card", &[("person", &b1), ("card", "advice"), ("offence", "early_clock_press"), ("at", &at(610))]);
    assert_eq!(m.stones(), [0, 0]);
    m.ok("card", &[("person", &b1), ("card", "yellow"), ("offence", "take_back"), ("at", &at(620))]);
    m.ok(
        "card",
        &[
            ("person", &m.p(false, 1)),
            ("card", "yellow"),
            ("offence", "repeated_wrong_clock_press"),
            ("at", &at(630)),
        ],
    );
    let p =
        m.ok("card", &[("person", &b1), ("card", "yellow"), ("offence", "mis_capture"), ("at", &at(640))]);
    assert_eq!(m.stones(), [3, 1], "1 + 2: the second offence is the red card");
    assert_eq!(m.cell(1, "fouls"), "1", "Art. 22.5: a malicious foul on White's record");
    let page = body(&p);
    assert!(page.contains("advice · clock pressed before the stone (Art. 17.4: advice)"), "{page}");
    assert!(page.contains("yellow card · take-back (Art. 17.3: yellow)"), "{page}");
    assert!(
        page.contains(
            "red card: a second yellow (Art. 24.2) · stones with liberties removed (Art. 18.1: yellow)"
        ),
        "{page}"
    );
    // The penalty log's explanation names the player from the roster, in either
    // language (never an id written into a sentence and parsed back).
    let b1_name = format!("{}1", m.teams[0].chars().next().unwrap());
    assert!(page.contains(&format!("Yellow card to Black player {b1_name} at move 20")), "{page}");
    assert_eq!(org.get(&format!("/lang/zh?next=/t/{tid}/matches/{}", m.mid)).status, 303);
    let page_zh = m.page().body;
    assert_eq!(org.get("/lang/en?next=/").status, 303);
    assert!(page_zh.contains(&format!("黑方{b1_name}第20手被出示黄牌：罚1子")), "{page_zh}");
    assert!(!page_zh.contains("号队员") && !page_zh.contains("Yellow card"), "{page_zh}");
    let zh = pdf(&org, tid, m.mid, "zh");
    assert!(zh.contains("红牌：第二张黄牌（第24条第2款）"), "{zh}");
    assert!(zh.contains("悔棋（第17条第3款：黄牌）"), "{zh}");
    let en = pdf(&org, tid, m.mid, "en");
    assert!(en.contains("redcard:asecondyellow(Art.24.2)"), "{en}");
}

/// The match record sheet prints the match day, lines to fill before the match ends,
/// and then the count with the penalty stones and the komi the signed result comes from; the
/// line-up footnote means the same in both languages.
#[test]
fn record_sheet_prints_the_count_and_the_match_day() {
    let s = Server::start();
    let org = s.first_organizer();
    let (tid, m) = one_match(&s, &org, "记录表", ["日队", "月队"], 6);
    // The match is played on the event's second day.
    let r = m.start_raw("2026-12-06T09:00:00");
    assert_eq!(r.status, 303, "{}", r.body);
    let zh = pdf(&org, tid, m.mid, "zh");
    assert!(zh.contains("2026-12-06") && !zh.contains("2026-12-05"), "the match day: {zh}");
    assert!(zh.contains("黑方数子：________子（罚子前）；黑贴3½子"), "{zh}");
    assert!(zh.contains("出场顺序列前的棋手先落子并按钟（第10条第3款）"), "{zh}");
    let day2 = |secs: i64| at(secs).replace("2026-12-05", "2026-12-06");
    m.ok(
        "lineup",
        &[
            ("side", "black"),
            ("section", "1"),
            ("p1", &m.p(true, 1)),
            ("p2", &m.p(true, 2)),
            ("at", &day2(-900)),
        ],
    );
    m.ok(
        "lineup",
        &[
            ("side", "white"),
            ("section", "1"),
            ("p1", &m.p(false, 1)),
            ("p2", &m.p(false, 2)),
            ("at", &day2(-890)),
        ],
    );
    m.ok("moves", &[("through", "40"), ("at", &day2(1000))]);
    m.ok(
        "card",
        &[("person", &m.p(false, 1)), ("card", "yellow"), ("offence", "take_back"), ("at", &day2(1100))],
    );
    let p = m.ok("count", &[("black_count", "184"), ("at", &day2(9000))]);
    assert!(
        text_of(&p.body, "result").starts_with("B+"),
        "184 + 1 stone = 185 against 184 at komi 3½: {}",
        p.body
    );
    let zh = pdf(&org, tid, m.mid, "zh");
    assert!(
        zh.contains("黑方数子184子；罚子：黑方0子，白方1子；计罚后黑方185子；黑贴3½子（第12条）"),
        "{zh}"
    );
    let en = pdf(&org, tid, m.mid, "en");
    assert!(en.contains("Black'scount184;penaltystonesBlack0,White1;Black185afterthem"), "{en}");
}

/// Board matches check the board order against the position numbers, record a forfeit
/// on one board, and Swiss team rounds say Swiss.
#[test]
fn board_matches_order_forfeits_and_swiss_labels() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = team_tournament(&org, "台次与弃权", "2");
    save_team_settings(&org, &s, tid, &[("format", "boards"), ("boards", "2"), ("pairing", "swiss")]);
    for t in ["一队", "二队"] {
        assert_eq!(add_team(&org, tid, t, &names(t, 3)).status, 303);
    }
    assert_eq!(pair(&org, tid, 1, "1").status, 303);
    let rounds = org.get(&format!("/t/{tid}/team-rounds"));
    assert!(rounds.body.contains("· Swiss</td>") && !rounds.body.contains("round robin"), "{}", rounds.body);
    let (mid, a, b) = matches(&s, tid, 1)[0].clone();
    let pl = |team: &str, k: u32| member(&s, tid, team, k);
    let post = |fields: &[(&str, String)]| {
        let page = org.get(&format!("/t/{tid}/matches/{mid}"));
        let v = query(&s.db, &format!("SELECT version FROM team_matches WHERE id = {mid}"))[0][0].clone();
        let mut all = vec![("csrf", page.csrf()), ("version", v)];
        all.extend(fields.iter().map(|(k, v)| (*k, v.clone())));
        let refs: Vec<(&str, &str)> = all.iter().map(|(k, v)| (*k, v.as_str())).collect();
        org.post_form(&format!("/t/{tid}/matches/{mid}/boards"), &refs)
    };
    // Position 2 on board 1 above position 1 on board 2: refused, nothing written.
    let r = post(&[
        ("first-1", pl(&a, 2)),
        ("second-1", pl(&b, 1)),
        ("result-1", "black".into()),
        ("first-2", pl(&a, 1)),
        ("second-2", pl(&b, 2)),
        ("result-2", "white".into()),
    ]);
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(
        r.field_error("boards").as_deref(),
        Some("Board 2: each team's players go on the boards in the order of their position numbers (board 1 the lowest).")
    );
    assert_eq!(
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM team_board_games WHERE match_id = {mid} AND result != ''")
        ),
        0
    );
    // Board 2's player of the second team does not come: a forfeit (Black there is the second team).
    let r = post(&[
        ("first-1", pl(&a, 1)),
        ("second-1", pl(&b, 1)),
        ("result-1", "white".into()),
        ("first-2", pl(&a, 3)),
        ("second-2", String::new()),
        ("result-2", "white_forfeit".into()),
    ]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(
        query(
            &s.db,
            &format!("SELECT result, CAST(forfeit AS INTEGER) FROM team_board_games WHERE match_id = {mid} AND board = 2")
        )[0],
        ["white", "1"]
    );
    let page = org.get(&format!("/t/{tid}/matches/{mid}"));
    assert!(page.body.contains("White wins by forfeit"), "{}", page.body);
    // Board 1 White = the second team, board 2 White = the first team: 2 : 2.
    assert_eq!(text_of(&page.body, "record"), "game points 2 : 2, match points 1 : 1");
}

/// Seed 003 Arts. 10.2, 10.5: a late line-up is recorded with its lateness for the referee to
/// decide; a substitution can be annulled and a timeout's end recorded; the break between sections
/// is shown; a start or an event dated far from the match is refused.
#[test]
fn time_records_over_http() {
    let s = Server::start();
    let org = s.first_organizer();
    let (tid, m) = one_match(&s, &org, "时间记录", ["春队", "秋队"], 8);
    let ms = [(m.mid, m.teams[0].clone(), m.teams[1].clone())];
    // A start in 1969 is refused beside its field, nothing written.
    let r = m.start_raw("1969-12-31T09:00:00");
    assert_eq!(r.status, 400);
    assert_eq!(
        r.field_error("start").as_deref(),
        Some("The match is played during the event: choose a day from 2026-12-05 to 2026-12-07.")
    );
    m.start(0);
    m.lineup(true, "1", 1, 2, -900);
    // White's line-up 60 s after the deadline (09:55:00): recorded with its lateness.
    let p = m.lineup(false, "1", 1, 2, -240);
    assert!(
        body(&p).contains("White's line-up for section 1 (moves 1–72) came 60 s after its deadline"),
        "{}",
        p.body
    );
    m.no(
        "lineup",
        &[
            ("side", "white"),
            ("section", "1"),
            ("p1", &m.p(false, 3)),
            ("p2", &m.p(false, 4)),
            ("at", &at(-230)),
        ],
        "was due 5 minutes before the section starts",
    );
    m.ok(
        "card",
        &[
            ("person", &staff_member(&s, tid, &ms[0].2, "leader")),
            ("card", "advice"),
            ("offence", "late_lineup"),
            ("at", &at(-200)),
        ],
    );
    let zh = pdf(&org, tid, m.mid, "zh");
    assert!(zh.contains("（逾时60秒）"), "{zh}");
    // Mistyped dates: 1969 and 2020 after an event at 09:10.
    m.moves_to(10, 600);
    for (t, expect) in [
        ("1969-12-31T09:00:00", "far from the match"),
        ("2020-12-05T09:12:00", "far from the match"),
        ("2026-12-05T08:40:00", "more than 15 minutes before it"),
    ] {
        m.no("moves", &[("through", "12"), ("at", t)], expect);
    }
    // A substitution annulled for a deliberate delay (Art. 10.5 (3)): it stays used.
    m.ok("sub_request", &[("out", &m.p(true, 2)), ("incoming", &m.p(true, 7)), ("at", &at(700))]);
    m.ok("confirm", &[("side", "black"), ("at", &at(705))]);
    m.ok("seated", &[("side", "black"), ("at", &at(800))]);
    let p = m.ok("annul", &[("side", "black"), ("at", &at(810))]);
    assert!(body(&p).contains("is annulled (Art. 10.5 (3))"), "{}", p.body);
    assert_eq!(m.cell(0, "subs"), "2");
    let b = &ms[0].1[..3];
    assert!(
        p.body.contains(&format!("<td class=\"seated\">{b}1 / {b}2</td>")),
        "the player replaced is back: {}",
        p.body
    );
    // A timeout and its end.
    m.ok("timeout", &[("side", "white"), ("at", &at(900))]);
    m.ok("confirm", &[("side", "white"), ("at", &at(905))]);
    let p = m.ok("timeout_end", &[("side", "white"), ("at", &at(1025))]);
    assert!(body(&p).contains("White's timeout ended after 120 s"), "{}", p.body);
    let en = pdf(&org, tid, m.mid, "en");
    assert!(en.contains("annulled,Art.10.5"), "{en}");
    // The break after section 1 (Art. 10.2: 5 minutes, clock stopped).
    m.moves_to(72, 3000);
    let p = m.ok("section_end", &[("at", &at(3010))]);
    assert_eq!(
        text_of(&p.body, "interval"),
        "section 2 (moves 73–143) starts at 2026-12-05 09:55:10 (5-minute break, clock stopped, Art. 10.2)"
    );
}

/// The team settings read as words, never codes (for arbiters, and as the list a
/// paired round freezes); team rounds are paired at once, with no word of a draft.
#[test]
fn team_pages_say_words_not_codes() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = team_tournament(&org, "用语", "1");
    save_team_settings(&org, &s, tid, &[]);
    assert_eq!(add_team(&org, tid, "风队", &names("风", 6)).status, 303);
    assert_eq!(add_team(&org, tid, "云队", &names("云", 6)).status, 303);
    let judge = arbiter(&s, &org, tid, "judge11");
    let summary = |c: &Client| {
        let p = c.get(&format!("/t/{tid}/teams"));
        let i = p.body.find("id=\"settings-summary\"").unwrap_or_else(|| panic!("{}", p.body));
        p.body[i..i + p.body[i..].find("</dl>").unwrap()].to_string()
    };
    let html = summary(&judge);
    let words = visible_text(&html);
    assert!(words.contains("Pair-relay matches") && words.contains("Round robin (Berger)"), "{words}");
    for code in ["relay", "round_robin", "game_end", "generic", "draw", "none", "3-1-0"] {
        assert!(!html.contains(&format!("<dd>{code}</dd>")), "{code} in «{html}»");
    }
    let rounds = org.get(&format!("/t/{tid}/team-rounds"));
    assert!(
        rounds.body.contains("Pair round 1 (stored at once: team rounds have no draft)"),
        "{}",
        rounds.body
    );
    assert!(!rounds.body.contains("Pair as a draft"));
    assert_eq!(pair(&org, tid, 1, "1").status, 303);
    let frozen = summary(&org);
    assert!(frozen.contains("Pair-relay matches") && !frozen.contains("round_robin"), "{frozen}");
}

/// At the table the page shows only the forms that apply, comes back to the form just
/// used, takes both teams' line-ups in one form and "section ended after move N" in one step:
/// a match in normal play is 7 submits and the count's confirmation.
#[test]
fn a_normal_match_in_seven_submits() {
    let s = Server::start();
    let org = s.first_organizer();
    let (tid, m) = one_match(&s, &org, "七步", ["桃队", "李队"], 6);
    let ms = [(m.mid, m.teams[0].clone(), m.teams[1].clone())];
    let mut submits = 0;
    m.start(0);
    submits += 1;
    let page = m.page();
    for hidden in [
        "form-moves",
        "form-claim",
        "form-confirm",
        "form-seated",
        "form-replace",
        "form-restore",
        "form-section_end",
    ] {
        assert!(
            !page.body.contains(&format!("class=\"row\" id=\"{hidden}\"")),
            "{hidden} does not apply before the seats are taken"
        );
        assert!(
            page.body.contains(&format!("id=\"{hidden}\" class=\"anchor\"")),
            "the page still comes back to {hidden}"
        );
    }
    assert!(page.body.contains("id=\"form-lineups\""));
    let lineups = |section: &str, k: u32, t: i64| {
        let fields = [
            ("section", section.to_string()),
            ("b1", m.p(true, k)),
            ("b2", m.p(true, k + 1)),
            ("w1", m.p(false, k)),
            ("w2", m.p(false, k + 1)),
            ("at", at(t)),
        ];
        let refs: Vec<(&str, &str)> = fields.iter().map(|(a, b)| (*a, b.as_str())).collect();
        let r = m.post("lineups", &refs);
        assert_eq!(r.status, 303, "{}", r.field_error("lineups").unwrap_or(r.body));
        assert!(r.location().ends_with("#form-lineups"), "back where the arbiter was: {}", r.location());
        m.page()
    };
    let r = m.post("lineups", &[("section", "1"), ("b1", &m.p(true, 1)), ("at", &at(-900))]);
    assert_eq!(r.status, 400);
    assert_eq!(
        r.field_error("lineups").as_deref(),
        Some("Choose both players of each team handing in its line-up.")
    );
    let p = lineups("1", 1, -900);
    submits += 1;
    assert!(body(&p).contains(&format!("clockwise order {}1", &ms[0].1[..3])), "{}", p.body);
    assert!(
        p.body.contains("class=\"row\" id=\"form-moves\"")
            && p.body.contains("class=\"row\" id=\"form-section_end\"")
    );
    assert!(!p.body.contains("class=\"row\" id=\"form-claim\""), "no order error to claim");
    // A refused form comes back at the form too: its action carries the form's anchor.
    assert!(
        p.body.contains(&format!("action=\"/t/{tid}/matches/{}/event#form-moves\"", m.mid)),
        "{}",
        p.body
    );
    let form = &p.body[p.body.find("id=\"form-section_end\"").unwrap()..];
    let form = &form[..form.find("</form>").unwrap()];
    assert!(
        form.contains("name=\"after\"") && form.contains("value=\"72\""),
        "section 1 ends after move 72: {form}"
    );
    m.ok("section_end", &[("after", "72"), ("at", &at(3000))]);
    submits += 1;
    lineups("2", 3, 3100);
    submits += 1;
    m.ok("section_end", &[("after", "143"), ("at", &at(6000))]);
    submits += 1;
    lineups("3", 5, 6100);
    submits += 1;
    let p = m.ok("count", &[("black_count", "190"), ("after", "230"), ("at", &at(9000))]);
    submits += 1;
    assert!(text_of(&p.body, "result").starts_with("B+"), "{}", p.body);
    assert_eq!(submits, 7, "and one confirmation of the count");
    assert_eq!(
        m.events(),
        12,
        "3 × 2 line-ups, moves to 72 and 143 with their section ends, moves to 230 and the count"
    );
}

/// The referee's clock of a relay match starts from the match's last recorded reading
/// and its moves (so the play-off and the sheets read what the clock saved), and saves both
/// clocks through its form as the page's script sends it: the match's event route with the
/// CSRF token and version, audited; the same form sent again with the old version is refused
/// and writes nothing. Its timeout offer names the players at the board, none chosen.
#[test]
fn relay_clock_page_starts_from_the_last_reading_and_saves_readings() {
    let s = Server::start();
    let org = s.first_organizer();
    let (tid, m) = one_match(&s, &org, "计时器", ["甲队", "乙队"], 6);
    m.start(0);
    m.lineup(true, "1", 1, 2, -900);
    m.lineup(false, "1", 1, 2, -800);
    m.moves_to(40, 1800);
    m.ok("clock", &[("move", "40"), ("b_main", "1:30:00"), ("w_main", "1:25:10"), ("at", &at(1810))]);
    let url = format!("/t/{tid}/matches/{}/clock", m.mid);
    assert!(m.page().body.contains(&format!("href=\"{url}\"")), "the match page links the clock");
    let p = org.get(&url);
    assert_eq!(p.status, 200, "{}", p.body);
    let cfg = p.clock_config();
    assert_eq!(cfg["setup"]["control"]["kind"], "byo_yomi");
    assert_eq!(cfg["setup"]["start"][0]["main_ms"], 5_400_000);
    assert_eq!(cfg["setup"]["start"][1]["main_ms"], 5_110_000);
    assert_eq!(cfg["setup"]["start"][1]["periods"], 3);
    assert_eq!(cfg["setup"]["moves"], 40);
    assert_eq!(cfg["setup"]["sections"], true, "the section breaks of Art. 10.2");
    assert_eq!(cfg["timeout"], "pass_and_stone");
    assert_eq!(cfg["names"][0], m.teams[0].as_str());
    let opts = select_html(&p.body, "clock-timeout-form", "player");
    assert!(opts.contains("<option value=\"\">"), "nothing chosen: {opts}");
    assert_eq!(opts.matches("<option value=\"").count(), 5, "the four players at the board: {opts}");
    assert_ne!(s.client().get(&url).status, 200);
    // Play goes on to move 52; the clock saves both faces as page.js fills its form.
    m.moves_to(52, 2400);
    let (action, mut fields) = p.form_inputs("clock-save-form");
    assert_eq!(action, format!("/t/{tid}/matches/{}/event", m.mid));
    for (k, v) in fields.iter_mut() {
        *v = match k.as_str() {
            "move" => "52".into(),
            "b_main" => "1:29:00".into(),
            "b_periods" => "3".into(),
            "w_main" => "1:20:00".into(),
            "w_periods" => "3".into(),
            "at" => at(2410),
            _ => continue,
        };
    }
    // The page was loaded before move 52 was recorded: its version is stale, refused.
    let sent: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let (events, audits) = (m.events(), m.audits());
    let r = org.post_form(&action, &sent);
    assert!((400..500).contains(&r.status), "{}", r.status);
    assert_eq!((m.events(), m.audits()), (events, audits), "a stale save writes nothing");
    // With the match's current version (the page takes it from the answer of each save).
    let v = m.version();
    let sent: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, val)| (k.as_str(), if k == "version" { v.as_str() } else { val.as_str() }))
        .collect();
    let r = org.post_form(&action, &sent);
    assert_eq!(r.status, 303, "{}", r.field_error("clock").unwrap_or(r.body));
    assert!(r.location().contains("done=clock"), "{}", r.location());
    assert_eq!((m.events(), m.audits()), (events + 1, audits + 1));
    assert!(body(&m.page()).contains("Clocks after move 52: Black 1:29:00"), "{}", m.page().body);
    // The clock opened again starts from that reading.
    let cfg = org.get(&url).clock_config();
    assert_eq!(cfg["setup"]["start"][1]["main_ms"], 4_800_000);
    assert_eq!(cfg["setup"]["moves"], 52);
}

// ---- Seed 003: the executing leader, void stones, delays, cycles, knockout draws, Art. 24.4 ----

/// Seed 003 Art. 14 with Art. 10.1: the referee records who of each team's leader, coach and
/// captain is present; the executing leader is the first of them present (then a player not at
/// the board), and only that person's resignation is accepted; the refusal names who may.
#[test]
fn art_14_only_the_executing_leader_confirms_a_resignation() {
    let s = Server::start();
    let org = s.first_organizer();
    let (tid, m) = one_match(&s, &org, "执行领队认输", ["甲队", "乙队"], 6);
    m.start(0);
    m.lineup(true, "1", 1, 2, -900);
    m.lineup(false, "1", 1, 2, -890);
    m.moves_to(40, 2000);
    let white = m.teams[1].clone();
    let (leader, coach) = (staff_member(&s, tid, &white, "leader"), staff_member(&s, tid, &white, "coach"));
    assert_eq!(m.executing(1), format!("{white}领队 (Leader)"));
    let msg = m.no(
        "resign",
        &[("side", "white"), ("by", &coach), ("at", &at(2100))],
        "Only White's executing leader confirms its resignation (Arts. 14, 10.1)",
    );
    assert!(msg.contains(&format!("{white}领队 (Leader), not {white}教练")), "{msg}");
    // The leader is away: the coach acts (the captain plays at the board).
    let p = m.attendance(&[&leader], 2110);
    assert!(body(&p).contains(&format!("White's executing leader: {white}教练 (Coach)")), "{}", p.body);
    assert_eq!(m.executing(1), format!("{white}教练 (Coach)"));
    m.no(
        "resign",
        &[("side", "white"), ("by", &leader), ("at", &at(2120))],
        &format!("{white}教练 (Coach), not {white}领队"),
    );
    // Leader and coach away, the captain and section 1 at the board, no later line-up: nobody.
    m.attendance(&[&leader, &coach], 2130);
    assert_eq!(m.executing(1), "");
    m.no(
        "resign",
        &[("side", "white"), ("by", &coach), ("at", &at(2140))],
        "White has nobody who may confirm its resignation as executing leader",
    );
    // The coach is back: the resignation is the coach's.
    m.attendance(&[&leader], 2150);
    let p = m.ok("resign", &[("side", "white"), ("by", &coach), ("at", &at(2160))]);
    assert!(body(&p).contains(&format!("White resigns, confirmed by {white}教练 to the referee (Art. 14)")));
    assert!(text_of(&p.body, "result").starts_with("B+"), "{}", text_of(&p.body, "result"));
}

/// Seed 003 Arts. 12, 17.5 (3), 17.6 (1) (rules.md decision): a knockout match ruled a draw
/// must be decided. From move 144 the 节棋 play-off follows from the position after move 143;
/// before move 144 the game is replayed with the time each side had left (the reading at the
/// ruling is required, and the replay shows it); the next knockout round is then paired.
#[test]
fn art_12_knockout_draws_ruled_by_the_chief_arbiter_are_decided() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = team_tournament(&org, "淘汰赛判和", "2");
    save_team_settings(&org, &s, tid, &[("pairing", "knockout")]);
    for (name, prefix) in [("东队", "东"), ("南队", "南"), ("西队", "西"), ("北队", "北")] {
        assert_eq!(add_team(&org, tid, name, &names(prefix, 6)).status, 303);
    }
    assert_eq!(pair(&org, tid, 1, "5").status, 303);
    let r1 = matches(&s, tid, 1);
    assert_eq!(r1.len(), 2);
    let relay =
        |k: usize| Relay { s: &s, c: &org, tid, mid: r1[k].0, teams: [r1[k].1.clone(), r1[k].2.clone()] };

    // ---- Table 1: a draw ruled at move 160 → the play-off from move 144 ---------------------
    let m = relay(0);
    m.start(0);
    m.lineup(true, "1", 1, 2, -900);
    m.lineup(false, "1", 1, 2, -900);
    m.lineup(true, "2", 3, 4, -800);
    m.lineup(false, "2", 3, 4, -800);
    m.moves_to(72, 2000);
    m.ok("section_end", &[("at", &at(2010))]);
    m.lineup(true, "3", 5, 6, 2100);
    m.lineup(false, "3", 5, 6, 2100);
    m.moves_to(143, 5000);
    m.ok("section_end", &[("at", &at(5010))]);
    m.moves_to(160, 6000);
    let draw = [("ending", "draw_stone_moved"), ("why", "移子无法达成一致")];
    let t6100 = at(6100);
    let mut fields = draw.to_vec();
    fields.push(("at", &t6100));
    let p = m.ok("end", &fields);
    assert!(body(&p).contains("Knockout draw: the play-off follows from move 144 (Art. 12)"), "{}", p.body);
    assert_eq!(text_of(&p.body, "phase"), "knockout draw: the play-off follows");
    assert_eq!(pair(&org, tid, 2, "9").status, 409, "the bracket waits for the play-off");
    m.ok("clock", &[("b_main", "30:00"), ("w_main", "20:00"), ("at", &at(6110))]);
    let p = m.ok("restore", &[("at", &at(6200))]);
    assert!(body(&p).contains("Position restored after move 143"), "{}", p.body);
    m.lineup(true, "playoff", 1, 3, 6300);
    m.lineup(false, "playoff", 1, 3, 6310);
    m.moves_to(170, 7000);
    let p = m.ok("count", &[("black_count", "180"), ("at", &at(7100))]);
    assert!(text_of(&p.body, "result").starts_with("W+"), "{}", text_of(&p.body, "result"));
    let winner_1 = m.teams[1].clone();

    // ---- Table 2: a draw ruled at move 100 → a replay with the time left ---------------------
    let m = relay(1);
    m.start(0);
    m.lineup(true, "1", 1, 2, -900);
    m.lineup(false, "1", 1, 2, -900);
    m.lineup(true, "2", 3, 4, -800);
    m.lineup(false, "2", 3, 4, -800);
    m.moves_to(72, 2000);
    m.ok("section_end", &[("at", &at(2010))]);
    m.moves_to(100, 3000);
    let scattered = [("ending", "draw_scattered"), ("why", "停电，棋局散乱无法复盘")];
    let t3100 = at(3100);
    let mut fields = scattered.to_vec();
    fields.push(("at", &t3100));
    let mut confirmed = fields.clone();
    confirmed.push(("confirm", "1"));
    m.no("end", &confirmed, "first record both clocks as they stand after move 100");
    m.ok("clock", &[("b_main", "41:00"), ("w_main", "37:30"), ("at", &at(3050))]);
    let p = m.ok("end", &fields);
    let page = body(&p);
    assert!(page.contains("a draw before move 144 has no section 3 to play again"), "{page}");
    assert!(page.contains("The replay starts with the time each side had left: Black 41:00"), "{page}");
    assert!(text_of(&p.body, "result").starts_with("Replay ordered"), "{}", text_of(&p.body, "result"));
    let rid: i32 = query(&s.db, &format!("SELECT id FROM team_matches WHERE replay_of = {}", m.mid))[0][0]
        .parse()
        .unwrap();
    let rp = Relay { mid: rid, ..relay(1) };
    let p = rp.page();
    assert!(text_of(&p.body, "time-left").contains("Black 41:00"), "{}", p.body);
    assert!(text_of(&p.body, "time-left").contains("(the clocks after move 100)"), "{}", p.body);
    assert_eq!(pair(&org, tid, 2, "9").status, 409, "the bracket waits for the replay");
    rp.start(9000);
    // The replay's clocks start from the reading (a row before move 1).
    assert!(rp.page().body.contains("<td class=\"clock-b\">41:00"), "{}", rp.page().body);
    rp.lineup(true, "1", 1, 2, 8200);
    rp.lineup(false, "1", 1, 2, 8210);
    rp.moves_to(50, 9500);
    let leader = staff_member(&s, tid, &rp.teams[1], "leader");
    rp.ok("resign", &[("side", "white"), ("by", &leader), ("at", &at(9600))]);
    let winner_2 = rp.teams[0].clone();

    // ---- Round 2 pairs the two winners -----------------------------------------------------
    assert_eq!(pair(&org, tid, 2, "9").status, 303);
    let r2 = matches(&s, tid, 2);
    assert_eq!(r2.len(), 1, "{r2:?}");
    let finalists: std::collections::BTreeSet<String> = [r2[0].1.clone(), r2[0].2.clone()].into();
    assert_eq!(finalists, [winner_1, winner_2].into());
}

/// Seed 003 Art. 18.3 (a ko retaken without a threat: the move void, one forced pass, a yellow
/// card) and Art. 19 (a stone on a forbidden point: void, one forced pass), recorded by the
/// referee: the turn is the side's pass of the record, the clockwise order goes on.
#[test]
fn art_18_3_and_19_void_stones_become_forced_passes() {
    let s = Server::start();
    let org = s.first_organizer();
    let (_, m) = one_match(&s, &org, "着手无效", ["甲队", "乙队"], 6);
    m.start(0);
    m.lineup(true, "1", 1, 2, -900);
    m.lineup(false, "1", 1, 2, -890);
    m.moves_to(20, 2000);
    let due = m.due();
    let other = if due == m.p(true, 1) { m.p(true, 2) } else { m.p(true, 1) };
    m.no(
        "void",
        &[("number", "21"), ("player", &other), ("offence", "ko_without_threat"), ("at", &at(2010))],
        "'s turn, not",
    );
    m.no_status(400, "void", &[("number", "21"), ("player", &due), ("at", &at(2010))], "Choose");
    let p = m.ok(
        "void",
        &[("number", "21"), ("player", &due), ("offence", "ko_without_threat"), ("at", &at(2010))],
    );
    let page = body(&p);
    assert!(
        page.contains("is void (ko retaken without a threat (Art. 18.3)): it counts as Black's pass"),
        "{page}"
    );
    assert!(page.contains("Move 21: forced pass by Black"), "{page}");
    assert_eq!(text_of(&p.body, "moves"), "21");
    assert_eq!(m.stones(), [1, 0], "the yellow card: 1 stone");
    let due = m.due();
    let p = m
        .ok("void", &[("number", "22"), ("player", &due), ("offence", "forbidden_point"), ("at", &at(2020))]);
    assert!(
        body(&p).contains("(stone on a forbidden point (Art. 19)): it counts as White's pass"),
        "{}",
        p.body
    );
    assert_eq!(text_of(&p.body, "moves"), "22");
    assert_eq!(m.stones(), [1, 0], "Art. 19: no card");
    assert_eq!(text_of(&p.body, "to-move"), "Black");
}

/// Seed 003 Art. 10.5 暂停 (2): a deliberate delay in returning from a timeout costs advice, a
/// yellow card or an added forced pass (停着) — the form offers exactly those, the card form
/// no longer offers the delay (so never a red), and the added pass is played at the side's
/// next turn.
#[test]
fn art_10_5_timeout_delay_offers_advice_yellow_or_an_added_pass() {
    let s = Server::start();
    let org = s.first_organizer();
    let (_, m) = one_match(&s, &org, "暂停拖延", ["甲队", "乙队"], 6);
    m.start(0);
    m.lineup(true, "1", 1, 2, -900);
    m.lineup(false, "1", 1, 2, -890);
    m.moves_to(20, 2000);
    let p = m.page();
    assert!(
        !p.body.contains("id=\"form-timeout_delay\" class=\"row\"")
            && !p.body.contains("<form method=\"post\" action=\"/t/1/matches/1/event#form-timeout_delay\"")
    );
    assert!(!select_html(&p.body, "form-card", "offence").contains("timeout_delay"));
    m.ok("timeout", &[("side", "white"), ("at", &at(2010))]);
    m.ok("confirm", &[("side", "white"), ("at", &at(2011))]);
    m.ok("timeout_end", &[("side", "white"), ("at", &at(2400))]);
    let p = m.page();
    let remedies = select_html(&p.body, "form-timeout_delay", "remedy");
    let values: Vec<&str> =
        remedies.split("<option value=\"").skip(1).map(|o| &o[..o.find('"').unwrap()]).collect();
    assert_eq!(values, ["", "advice", "yellow", "pass"], "{remedies}");
    let w1 = m.p(false, 1);
    m.no_status(400, "timeout_delay", &[("person", &w1), ("remedy", "red"), ("at", &at(2410))], "Choose");
    let p = m.ok("timeout_delay", &[("person", &w1), ("remedy", "yellow"), ("at", &at(2410))]);
    assert!(body(&p).contains("Yellow card"), "{}", p.body);
    assert_eq!(m.stones(), [0, 1]);
    let p = m.ok("timeout_delay", &[("person", &w1), ("remedy", "pass"), ("at", &at(2420))]);
    assert!(body(&p).contains("White owes one added forced pass (Art. 10.5)"), "{}", p.body);
    assert_eq!(m.cell(1, "passes"), "1");
    // Black moves 21; White's turn is passed at once: move 22.
    let p = m.mv(21, &m.due(), 2430);
    assert!(body(&p).contains("Move 22: forced pass by White"), "{}", p.body);
    assert_eq!(m.cell(1, "passes"), "0");
    assert_eq!(m.stones(), [0, 1], "the pass costs no stone");
}

/// Seed 003 Art. 20.3: a triple ko or eternal life ends a relay match by the event's choice
/// in the team settings (no result by default, rules.md decisions; draw; extra game), for
/// nobody's fault: no result is replayed with the time each side had left, an extra game is a
/// new game with full time, a draw is 1 : 1 in a round robin.
#[test]
fn art_20_3_cycles_end_the_match_by_the_events_choice() {
    let s = Server::start();
    let org = s.first_organizer();
    for (choice, result, replay, time_left) in [
        ("no_result", "No result", true, true),
        ("draw", "Draw", false, false),
        ("extra_game", "Replay ordered", true, false),
    ] {
        let tid = team_tournament(&org, &format!("长生{choice}"), "1");
        save_team_settings(&org, &s, tid, &[("cycle", choice)]);
        let settings = org.get(&format!("/t/{tid}/teams"));
        assert!(settings.body.contains(&format!("<option value=\"{choice}\" selected")), "{}", settings.body);
        for t in ["甲队", "乙队"] {
            assert_eq!(add_team(&org, tid, t, &names(&t[..3], 6)).status, 303);
        }
        assert_eq!(pair(&org, tid, 1, "4").status, 303);
        let (mid, black, white) = matches(&s, tid, 1)[0].clone();
        let judge = arbiter(&s, &org, tid, &format!("judge_{choice}"));
        let m = Relay { s: &s, c: &judge, tid, mid, teams: [black, white] };
        m.start(0);
        m.lineup(true, "1", 1, 2, -900);
        m.lineup(false, "1", 1, 2, -890);
        m.moves_to(60, 2000);
        let t = at(2100);
        let fields = [("ending", "cycle"), ("why", "三劫循环"), ("at", t.as_str())];
        if time_left {
            let mut confirmed = fields.to_vec();
            confirmed.push(("confirm", "1"));
            m.no("end", &confirmed, "first record both clocks as they stand after move 60");
        }
        m.ok("clock", &[("b_main", "50:00"), ("w_main", "45:00"), ("at", &at(2050))]);
        // Any arbiter records it: the event's rule, nobody's fault (no side).
        let p = m.ok("end", &fields);
        let page = body(&p);
        assert!(
            page.contains("The match ends by the event's rule for a triple ko or eternal life (Art. 20.3)"),
            "{page}"
        );
        assert!(text_of(&p.body, "result").starts_with(result), "{choice}: {}", text_of(&p.body, "result"));
        let rid = query(&s.db, &format!("SELECT id FROM team_matches WHERE replay_of = {mid}"));
        assert_eq!(!rid.is_empty(), replay, "{choice}");
        if let Some(r) = rid.first() {
            let rp = judge.get(&format!("/t/{tid}/matches/{}", r[0]));
            assert_eq!(!text_of(&rp.body, "time-left").is_empty(), time_left, "{choice}: {}", rp.body);
        } else {
            assert_eq!(text_of(&p.body, "match-points"), format!("{} 1 : 1 {}", m.teams[0], m.teams[1]));
        }
    }
}

/// Seed 003 Art. 17.8: moves beyond a section's quota are valid (1 stone each); the section-end
/// form then names the move actually reached, and submitted as shown it is accepted.
#[test]
fn art_17_8_section_end_form_names_the_move_reached() {
    let s = Server::start();
    let org = s.first_organizer();
    let (_, m) = one_match(&s, &org, "超手数", ["甲队", "乙队"], 6);
    m.start(0);
    m.lineup(true, "1", 1, 2, -900);
    m.lineup(false, "1", 1, 2, -890);
    m.lineup(true, "2", 3, 4, -800);
    m.lineup(false, "2", 3, 4, -800);
    m.moves_to(72, 2000);
    assert_eq!(m.form_value("form-section_end", "after"), "72");
    m.mv(73, &m.due(), 2010);
    m.mv(74, &m.due(), 2020);
    assert_eq!(m.stones(), [1, 1], "one stone for each move beyond the quota");
    let shown = m.form_value("form-section_end", "after");
    assert_eq!(shown, "74");
    let p = m.ok("section_end", &[("after", &shown), ("at", &at(2030))]);
    assert!(body(&p).contains("End of section 1 (moves 1–72) after move 74"), "{}", p.body);
}

/// Seed 003 Art. 24.4 as rules.md decides it: a red card in section 1 of a six-player team
/// leaves nobody who may come on (each later section needs two unplayed players), so the
/// carded player stays on and finishes, the side owes a forced pass and loses 2 stones, no
/// substitution is counted; the team fields sections 2 and 3; the ban on the next match
/// (Art. 24.3) is shown at once and again at that match's line-ups, which refuse the player.
#[test]
fn art_24_4_red_card_in_section_one_of_a_six_player_team() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = team_tournament(&org, "六人队红牌", "2");
    save_team_settings(&org, &s, tid, &[]);
    for t in ["甲队", "乙队"] {
        assert_eq!(add_team(&org, tid, t, &names(&t[..3], 6)).status, 303);
    }
    assert_eq!(pair(&org, tid, 1, "4").status, 303);
    let (mid, black, white) = matches(&s, tid, 1)[0].clone();
    let m = Relay { s: &s, c: &org, tid, mid, teams: [black.clone(), white] };
    m.start(0);
    m.lineup(true, "1", 1, 2, -900);
    m.lineup(false, "1", 1, 2, -890);
    m.moves_to(30, 2000);
    let carded = m.p(true, 1);
    let name = format!("{}1", &black[..3]);
    let p =
        m.ok("card", &[("person", &carded), ("card", "red"), ("offence", "leaving_seat"), ("at", &at(2010))]);
    let page = body(&p);
    assert!(page.contains(&format!("Black has no player who may come on: {name} stays on")), "{page}");
    assert!(page.contains("Move 31: forced pass by Black"), "{page}");
    assert_eq!(m.stones(), [2, 0]);
    assert_eq!(m.cell(0, "subs"), "3", "nobody was sent off: no substitution counted");
    assert!(text_of(&p.body, "barred-note").contains(&name), "{}", p.body);
    assert!(!p.body.contains("class=\"row\" id=\"form-replace\""), "no seat to fill");
    // The team fields sections 2 and 3.
    m.lineup(true, "2", 3, 4, 2020);
    m.lineup(false, "2", 3, 4, 2020);
    m.moves_to(72, 3000);
    m.ok("section_end", &[("at", &at(3010))]);
    m.lineup(true, "3", 5, 6, 3100);
    m.lineup(false, "3", 5, 6, 3100);
    m.moves_to(143, 5000);
    m.ok("section_end", &[("at", &at(5010))]);
    m.moves_to(200, 7000);
    m.ok("count", &[("black_count", "190"), ("at", &at(7100))]);

    // The next match: the ban is shown at its line-ups, which refuse the player.
    assert_eq!(pair(&org, tid, 2, "5").status, 303);
    let (mid2, b2, w2) = matches(&s, tid, 2)[0].clone();
    let next = Relay { s: &s, c: &org, tid, mid: mid2, teams: [b2.clone(), w2] };
    next.start(20_000);
    let p = s.client().get(&format!("/t/{tid}/matches/{mid2}"));
    assert!(text_of(&p.body, "barred-note").contains(&name), "{}", p.body);
    let ours = b2 == black;
    let side = if ours { "black" } else { "white" };
    next.no(
        "lineup",
        &[("side", side), ("section", "1"), ("p1", &carded), ("p2", &next.p(ours, 2)), ("at", &at(19_000))],
        "is barred from this game and the next (Art. 24.3)",
    );
}
