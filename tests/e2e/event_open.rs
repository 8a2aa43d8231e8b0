//! A Chinese open as it is really run, through the pages a user uses: one event of three groups
//! (业余高段组 by rank band, 少儿组 by birth date, 公开组 the rest) and 120 entrants, from
//! registration (the public form, the organizer's queue with a duplicate flagged) and the
//! entrants CSV with its group column, through the band proposals, the hall's check-in desk and
//! self check-in, six rounds paired and published for every group at once with one hall of
//! unique table numbers, table cards and results notices, to the prizes with a double
//! qualification — each checked against the test's own computation (standings, hall numbers,
//! prize winners).

use crate::common::standings::{compute, Game};
use crate::common::*;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Family and given names: 24 × 5 = 120 different people.
const FAMILY: [&str; 24] = [
    "王", "李", "张", "刘", "陈", "杨", "黄", "赵", "吴", "周", "徐", "孙", "马", "朱", "胡", "郭", "何",
    "高", "林", "罗", "郑", "梁", "谢", "宋",
];
const GIVEN: [&str; 5] = ["伟", "芳", "敏", "静", "磊"];

/// Where a person belongs, as the bands say.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Band {
    High,
    Junior,
    Open,
}

/// The groups in the hall's order (the strongest first).
const GROUPS: [(Band, &str, &str); 3] = [
    (Band::High, "业余高段组", "Dan Group"),
    (Band::Open, "公开组", "Open Group"),
    (Band::Junior, "少儿组", "Junior Group"),
];

/// The first birth date of 少儿组.
const JUNIOR_FROM: &str = "2014-01-01";

/// One person of the field.
#[derive(Debug, Clone)]
struct Person {
    family: &'static str,
    given: &'static str,
    rank: String,
    born: String,
    woman: bool,
    band: Band,
}

impl Person {
    fn name(&self) -> String {
        format!("{}{}", self.family, self.given)
    }
}

/// 30 dan players 5段–8段, 40 children born 2014–2017 (10级–3段), 50 others (15级–4段, the one
/// 4段 a woman, so the strongest of 公开组 is also its best woman).
fn field() -> Vec<Person> {
    (0..120)
        .map(|i| {
            let (family, given) = (FAMILY[i / 5], GIVEN[i % 5]);
            let (band, dan_or_kyu, born, woman) = match i {
                0..30 => {
                    (Band::High, 8 - (i as i32 % 4), format!("19{}-03-0{}", 70 + i % 30, 1 + i % 9), false)
                }
                30..70 => {
                    let k = i as i32 - 30;
                    (
                        Band::Junior,
                        3 - k % 13,
                        format!("201{}-0{}-1{}", 4 + k % 4, 1 + k % 9, k % 10),
                        k % 3 == 0,
                    )
                }
                70 => (Band::Open, 4, "1988-08-08".to_string(), true),
                _ => {
                    let k = i as i32 - 71;
                    (Band::Open, 3 - k % 19, format!("19{}-1{}-2{}", 60 + k % 40, k % 3, k % 8), k % 4 == 1)
                }
            };
            // dan_or_kyu > 0: dan; ≤ 0: kyu (0 → 1级, −1 → 2级 …).
            let rank =
                if dan_or_kyu > 0 { format!("{dan_or_kyu}段") } else { format!("{}级", 1 - dan_or_kyu) };
            Person { family, given, rank, born, woman, band }
        })
        .collect()
}

fn count(s: &Server, sql: &str) -> i64 {
    count_rows(&s.db, sql)
}

/// The reference a registration was sent to (the tail of its status page's address).
fn reference_of(r: &Resp) -> String {
    assert_eq!(r.status, 303, "{}", r.body);
    r.location().rsplit('/').next().unwrap_or_default().trim_end_matches("?new=1").to_string()
}

fn registration(s: &Server, reference: &str) -> (i64, String) {
    let sql = format!("SELECT id, version FROM registrations WHERE reference = '{reference}'");
    let row = &query(&s.db, &sql)[0];
    (row[0].parse().unwrap(), row[1].clone())
}

fn entrant_id(s: &Server, p: &Person) -> i32 {
    let sql = format!(
        "SELECT id FROM entrants WHERE family_name_zh = '{}' AND given_name_zh = '{}'",
        p.family, p.given
    );
    let rows = query(&s.db, &sql);
    assert_eq!(rows.len(), 1, "{} is one entrant", p.name());
    rows[0][0].parse().unwrap()
}

/// The groups' ids by band, in the hall's order.
fn groups_of(s: &Server, ev: i32) -> Vec<i32> {
    let sql = format!(
        "SELECT tournament_id FROM event_groups WHERE event_id = {ev} ORDER BY group_order, tournament_id"
    );
    query(&s.db, &sql).into_iter().map(|r| r[0].parse().unwrap()).collect()
}

/// Each game of round `n` of group `tid` played on a board: (hall number, game id, Black,
/// White).
fn tables(s: &Server, tid: i32, n: u32) -> Vec<(u32, i32, i32, i32)> {
    let sql = format!(
        "SELECT g.board + r.hall_first - 1, g.id, g.black_id, g.white_id FROM games g \
         JOIN rounds r ON r.tournament_id = g.tournament_id AND r.number = g.round_number \
         WHERE g.tournament_id = {tid} AND g.round_number = {n} AND g.white_id IS NOT NULL \
         AND g.replay_of IS NULL ORDER BY g.board"
    );
    query(&s.db, &sql)
        .into_iter()
        .map(|r| (r[0].parse().unwrap(), r[1].parse().unwrap(), r[2].parse().unwrap(), r[3].parse().unwrap()))
        .collect()
}

/// The prize table of the staff prize page: the winners' names, in precedence order.
fn prize_winners(body: &str) -> Vec<String> {
    let at = body.find("id=\"prizes\"").unwrap_or_else(|| panic!("no #prizes: {body}"));
    let t = &body[at..];
    let rows = &t[t.find("<tbody>").unwrap() + 7..t.find("</tbody>").unwrap()];
    rows.split("<tr").skip(1).map(row_cells).map(|c| c[3].clone()).collect()
}

/// Tournament practice for a Chinese open (the 2002 rules leave an event's fields, its hall and
/// its prizes to the 竞赛规程; docs/rules.md decisions D24, D26, D27, D28): one event of three groups
/// and 120 entrants run from registration to the prizes through the forms — the groups by
/// band with the organizer confirming the bands' proposals, registration with a duplicate
/// flagged and a change asked, the CSV's group column, check-in at the hall's one desk and on a
/// phone with the event's code, six rounds paired and published for every group at once with
/// every hall number unique in its round and in hall order, table cards and results notices by
/// hall number, and each group's standings and prizes (a double qualification passed to the
/// next in line) as the test computes them itself.
#[test]
fn a_three_group_open_of_120_from_registration_to_prizes() {
    let s = Server::start();
    let org = s.first_organizer().in_chinese();
    let people = field();

    // The event: /t/new makes its first group; six rounds, colours by lots.
    let mut f = tournament_fields("天元杯城市公开赛", "Tengen City Open");
    set(&mut f, "rounds", "6");
    set(&mut f, "colour_method", "lots");
    let high = new_tournament(&org, &f);
    let ev = count(&s, &format!("SELECT event_id FROM event_groups WHERE tournament_id = {high}")) as i32;
    let event = format!("/e/{ev}");
    // 公开组 and 少儿组 join the first group, in that hall order, and the first group becomes
    // 业余高段组 (5段 and above).
    let r = send_form(
        &org,
        &format!("/t/{high}"),
        "add-group",
        &[("group_name_zh", "公开组"), ("group_name_latin", "Open Group")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let r = send_form(
        &org,
        &event,
        "add-group",
        &[
            ("group_name_zh", "少儿组"),
            ("group_name_latin", "Junior Group"),
            ("born_on_or_after", JUNIOR_FROM),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let r = send_form(
        &org,
        &event,
        &format!("edit-{high}"),
        &[("group_name_zh", GROUPS[0].1), ("group_name_latin", GROUPS[0].2), ("rank_low", "5d")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let ids = groups_of(&s, ev);
    assert_eq!(ids.len(), 3);
    assert_eq!(ids[0], high);
    let (open, junior) = (ids[1], ids[2]);
    let group_of_band: HashMap<Band, i32> =
        [(Band::High, high), (Band::Open, open), (Band::Junior, junior)].into_iter().collect();
    for g in [open, junior] {
        assert_eq!(
            count(&s, &format!("SELECT rounds FROM tournaments WHERE id = {g}")),
            6,
            "the event's rounds"
        );
    }

    // Registration opens for every group (no cap), asking sex, birth date and a phone.
    let queue = format!("{event}/registrations");
    let groups: Vec<(i32, &str)> = ids.iter().map(|&g| (g, "")).collect();
    let settings = registration_settings("0", &groups, ["required", "required", "optional", "required"]);
    let r = org.submit(&queue, &format!("{queue}/settings"), &as_refs(&settings));
    assert_eq!(r.status, 303, "{}", r.body);

    // Six register on the public form, two for each group; the seventh is someone the
    // organizer's list already holds.
    let public = s.client().in_chinese();
    let form = format!("{event}/register");
    let registering = [28usize, 29, 68, 69, 118, 119];
    let register = |p: &Person, phone: &str| {
        let group = group_of_band[&p.band].to_string();
        let sex = if p.woman { "f" } else { "m" };
        public.submit(
            &form,
            &form,
            &[
                ("family_name_zh", p.family),
                ("given_name_zh", p.given),
                ("rank", &p.rank),
                ("sex", sex),
                ("birth_date", &p.born),
                ("unit", "杭州棋院"),
                ("phone", phone),
                ("group", &group),
            ],
        )
    };
    let mut references = Vec::new();
    for (k, &i) in registering.iter().enumerate() {
        references.push(reference_of(&register(&people[i], &format!("1390000000{k}"))));
    }
    let duplicate = reference_of(&register(&people[0], "13900000099"));

    // The rest come from the organizer's list, its 组别 column naming each group — three of
    // them in the wrong one, which the bands will catch.
    let misplaced = [3usize, 31, 32];
    let mut csv = String::from("姓名,段位,出生日期,性别,单位,组别\n");
    for (i, p) in people.iter().enumerate().filter(|(i, _)| !registering.contains(i)) {
        let band = if misplaced.contains(&i) { Band::Open } else { p.band };
        let group = GROUPS.iter().find(|g| g.0 == band).unwrap().1;
        let sex = if p.woman { "女" } else { "男" };
        csv.push_str(&format!("{},{},{},{sex},杭州棋院,{group}\n", p.name(), p.rank, p.born));
    }
    let token = org.get(&format!("/t/{high}/import")).csrf();
    let preview = org.post_file(
        &format!("/t/{high}/import/csv"),
        &[("csrf", &token)],
        "file",
        "list.csv",
        csv.as_bytes(),
    );
    assert_eq!(preview.status, 200, "{}", preview.body);
    let (action, fields) = preview.form_as_shown("import-confirm");
    let r = org.post_form(&action, &as_refs(&fields));
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(count(&s, "SELECT count(*) FROM entrants"), 114);

    // The queue: the seventh is flagged against the entrant of the same name and rejected; one
    // is asked to correct the rank and sends the form again from the status link; all six are
    // accepted into their groups.
    let page = org.get(&queue);
    let row_of = |body: &str, reference: &str| {
        let at =
            body.find(&format!("id=\"reg-{reference}\"")).unwrap_or_else(|| panic!("no row {reference}"));
        body[at..at + body[at..].find("</tr>").unwrap()].to_string()
    };
    assert!(
        row_of(&page.body, &duplicate).contains("class=\"err duplicates\""),
        "{}",
        row_of(&page.body, &duplicate)
    );
    for r in &references {
        assert!(!row_of(&page.body, r).contains("duplicates"), "{}", row_of(&page.body, r));
    }
    let (id, v) = registration(&s, &duplicate);
    let r = org.submit(
        &queue,
        &format!("{queue}/{id}/reject"),
        &[("version", &v), ("message", "已在报名名单中")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let asked = &references[1];
    let (id, v) = registration(&s, asked);
    let r =
        org.submit(&queue, &format!("{queue}/{id}/change"), &[("version", &v), ("message", "请核对段位")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let status = format!("{event}/register/{asked}");
    let page = public.get(&status);
    assert_eq!(text_of(&page, "message").as_deref(), Some("请核对段位"), "{}", page.body);
    let (action, mut again) = page.form_as_shown("register-form");
    again.retain(|(k, _)| k != "csrf");
    assert_eq!(public.submit(&status, &action, &as_refs(&again)).status, 303);
    for reference in &references {
        let (id, v) = registration(&s, reference);
        let r = org.submit(&queue, &format!("{queue}/{id}/accept"), &[("version", &v)]);
        assert_eq!(r.status, 303, "{reference}: {}", r.body);
    }
    assert_eq!(count(&s, "SELECT count(*) FROM entrants"), 120);
    for &i in &registering {
        let e = entrant_id(&s, &people[i]);
        let g = count(&s, &format!("SELECT tournament_id FROM entrants WHERE id = {e}")) as i32;
        assert_eq!(g, group_of_band[&people[i].band], "{} registered into their group", people[i].name());
    }

    // The bands propose exactly the three in the wrong group; the organizer confirms.
    let bands = org.get(&format!("{event}/bands"));
    assert_eq!(bands.status, 200, "{}", bands.body);
    let proposed = bands.body.matches("id=\"proposal-").count();
    assert_eq!(proposed, 3, "{}", bands.body);
    for &i in &misplaced {
        assert!(bands.body.contains(&format!("id=\"proposal-{}\"", entrant_id(&s, &people[i]))));
    }
    let r = send_form(&org, &format!("{event}/bands"), "bands", &[]);
    assert_eq!(r.status, 303, "{}", r.body);
    let mut members: BTreeMap<i32, Vec<i32>> = BTreeMap::new();
    for p in &people {
        let e = entrant_id(&s, p);
        let g = count(&s, &format!("SELECT tournament_id FROM entrants WHERE id = {e}")) as i32;
        assert_eq!(g, group_of_band[&p.band], "{} is in their band's group", p.name());
        members.entry(g).or_default().push(e);
    }
    assert_eq!(members.values().map(Vec::len).collect::<Vec<_>>(), [30, 50, 40]);

    // Check-in for round 1 at the hall's one desk: every group's entrants on one list; one
    // child checks in on a phone with the event's code; one player of each group does not come.
    let desk = format!("/t/{open}/check-in?round=1");
    let page = org.get(&desk);
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("已签到：<strong>0</strong> / 120"), "{}", page.body);
    assert_eq!(page.body.matches("<tr id=\"entrant-").count(), 120, "the hall's desk lists every group");
    let r = org.submit(&desk, &format!("/t/{junior}/check-in/code"), &[]);
    assert_eq!(r.status, 303, "{}", r.body);
    let codes = query(&s.db, "SELECT DISTINCT code FROM check_in_codes");
    assert_eq!(codes.len(), 1, "one code for the event");
    assert_eq!(count(&s, "SELECT count(*) FROM check_in_codes"), 3, "every group has it");
    let phone_user = &people[60];
    let self_page = format!("/t/{high}/check-in/self");
    let r = public.submit(
        &self_page,
        &self_page,
        &[("eid", ""), ("name", &phone_user.name()), ("code", &codes[0][0])],
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(text_of(&r, "done").is_some_and(|t| t.contains(&phone_user.name())), "{}", r.body);
    let absent = [10usize, 50, 100];
    for (i, p) in people.iter().enumerate() {
        if absent.contains(&i) || i == 60 {
            continue;
        }
        let e = entrant_id(&s, p);
        let g = group_of_band[&p.band];
        let r = org.post_form(
            &format!("/t/{g}/check-in/1/{e}/in"),
            &[("csrf", &page.csrf()), ("q", ""), ("desk", &open.to_string())],
        );
        assert_eq!(r.status, 303, "{}: {}", p.name(), r.body);
        assert!(r.location().starts_with(&format!("/t/{open}/check-in")), "back to the desk tapped at");
    }
    let page = org.get(&desk);
    assert!(page.body.contains("已签到：<strong>117</strong> / 120"), "{}", page.body);
    // Each group closes its check-in at the deadline: the review lists its one missing player.
    for (&i, g) in absent.iter().zip([high, junior, open]) {
        let v = count(
            &s,
            &format!("SELECT coalesce(max(version), 0) FROM check_in_rounds WHERE tournament_id = {g}"),
        );
        let gdesk = format!("/t/{g}/check-in?round=1");
        let r = org.submit(
            &gdesk,
            &format!("/t/{g}/check-in/1/deadline"),
            &[("version", &v.to_string()), ("deadline", "2026-01-01T09:00")],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        let review = org.get(&format!("/t/{g}/check-in/1/close"));
        let (action, fields) = review.form_inputs("close-form");
        let listed: Vec<&String> = fields.iter().filter(|(k, _)| k == "absent").map(|(_, v)| v).collect();
        assert_eq!(listed, [&entrant_id(&s, &people[i]).to_string()], "group {g}");
        let r = org.post_form(&action, &as_refs(&fields));
        assert_eq!(r.status, 303, "{}", r.body);
    }

    // Six rounds, paired and published for every group at once (each group's own seed drawn and
    // stored with its round); the stronger rank wins, Black
    // between equals.
    let strength: HashMap<i32, i32> = query(&s.db, "SELECT id, rank_value FROM entrants")
        .into_iter()
        .map(|r| (r[0].parse().unwrap(), r[1].parse().unwrap()))
        .collect();
    let name_of: HashMap<i32, String> = people.iter().map(|p| (entrant_id(&s, p), p.name())).collect();
    let mut played: HashMap<i32, Vec<Game<i32>>> = HashMap::new();
    let mut byes: HashMap<i32, Vec<(u32, i32)>> = HashMap::new();
    for n in 1..=6u32 {
        let r = send_form(&org, &event, "pair-all", &[]);
        assert_eq!(r.status, 303, "round {n}: {}", r.body);
        let r = send_form(&org, &event, "publish-all", &[("confirm", "on")]);
        assert_eq!(r.status, 303, "round {n}: {}", r.body);
        // One hall: every table number unique in the round, the groups in hall order, from 1.
        let per_group: Vec<Vec<(u32, i32, i32, i32)>> = ids.iter().map(|&g| tables(&s, g, n)).collect();
        let halls: Vec<u32> = per_group.iter().flatten().map(|t| t.0).collect();
        assert_eq!(halls.iter().collect::<HashSet<_>>().len(), halls.len(), "round {n}: unique {halls:?}");
        assert!(halls.windows(2).all(|w| w[0] < w[1]), "round {n}: in hall order {halls:?}");
        assert_eq!(halls[0], 1, "round {n}");
        if n == 1 {
            assert!(
                absent
                    .iter()
                    .map(|&i| entrant_id(&s, &people[i]))
                    .all(|e| { per_group.iter().flatten().all(|t| t.2 != e && t.3 != e) }),
                "the absent are not paired in round 1"
            );
        }
        for (&g, games) in ids.iter().zip(&per_group) {
            for &(_, gid, b, w) in games {
                let black_wins = strength[&b] >= strength[&w];
                enter(
                    &org,
                    g,
                    gid,
                    &[("method", "resignation"), ("winner", if black_wins { "black" } else { "white" })],
                );
                let (bp, wp) = if black_wins { (4, 0) } else { (0, 4) };
                played.entry(g).or_default().push(Game {
                    round: n,
                    black: b,
                    white: w,
                    black_pts: bp,
                    white_pts: wp,
                });
            }
            let sql = format!(
                "SELECT black_id FROM games WHERE tournament_id = {g} AND round_number = {n} AND white_id IS NULL"
            );
            for r in query(&s.db, &sql) {
                byes.entry(g).or_default().push((n, r[0].parse().unwrap()));
            }
        }
        if n == 1 {
            // One hall starts together: the start saved on one group's lateness sheet is every
            // group's round start, audited in each group's trail.
            let sheet = format!("/t/{high}/results/rounds/1/lateness");
            let r = org.submit(&sheet, &sheet, &[("version", "0"), ("starts_at", "09:30")]);
            assert_eq!(r.status, 303, "{}", r.body);
            let starts = query(&s.db, "SELECT DISTINCT starts_at FROM round_times WHERE round_number = 1");
            assert_eq!(starts.len(), 1, "{starts:?}");
            assert_eq!(count(&s, "SELECT count(*) FROM round_times WHERE round_number = 1"), 3);
            for g in [open, junior] {
                let sql = format!("SELECT count(*) FROM audit WHERE tournament_id = {g} AND action = 'record' AND entity = 'arrivals'");
                assert_eq!(count(&s, &sql), 1, "the start in group {g}'s trail");
            }
            let junior_round = public.get(&format!("/t/{junior}/pairings"));
            assert!(
                text_of(&junior_round, "round-start").is_some_and(|t| t.contains("09:30")),
                "{}",
                junior_round.body
            );
            // The hall's table cards: one per table of every group, by hall number.
            let (_, cards) = pdf(&org, &format!("{event}/rounds/1/table-cards.pdf?format=a6&lang=zh"));
            assert_eq!(
                cards.pages.len(),
                halls.len().div_ceil(4),
                "a card per table of the hall, four A6 to a sheet"
            );
            assert!(cards.glyph_report().faults.is_empty(), "{:?}", cards.glyph_report().faults);
            let text = readback::squash(&cards.all_text());
            let mut at = 0;
            for t in per_group.iter().flatten() {
                let i = text[at..]
                    .find(&name_of[&t.2])
                    .unwrap_or_else(|| panic!("hall table {}: in hall order", t.0));
                at += i;
            }
            // Each group's results notice, by hall number, naming the group.
            for (k, (&g, games)) in ids.iter().zip(&per_group).enumerate() {
                let (_, notice) = pdf(&public, &format!("/t/{g}/pairings/1/results-notice.pdf"));
                let text = readback::squash(&notice.all_text());
                assert!(
                    text.contains(&readback::squash(&format!("天元杯城市公开赛 · {}", GROUPS[k].1))),
                    "{text}"
                );
                assert!(text.contains("成绩公告"), "{text}");
                let first = games[0].0;
                assert!(
                    text.contains(&first.to_string()),
                    "group {g} notice shows hall number {first}: {text}"
                );
            }
        }
    }

    // Each group's standings as the test computes them; 公开组's places and its best woman: the
    // strongest of 公开组 is a woman who wins the first place, so 最佳女棋手 passes to the next woman.
    let woman: HashSet<String> = people.iter().filter(|p| p.woman).map(Person::name).collect();
    for (k, &g) in ids.iter().enumerate() {
        let lines =
            compute(&members[&g], &played[&g], byes.get(&g).map(Vec::as_slice).unwrap_or(&[]), &[], 6);
        let key: HashMap<String, (i64, i64, i64, i64, i64, i64)> =
            lines.iter().map(|l| (name_of[&l.who].clone(), l.key())).collect();
        let rows = standings_page_at(&public, &format!("/t/{g}/standings"));
        assert_eq!(rows.len(), members[&g].len(), "{}", GROUPS[k].1);
        let order: Vec<&str> = rows.iter().map(|r| r.1.as_str()).collect();
        for w in order.windows(2) {
            assert!(
                key[w[0]] >= key[w[1]],
                "{}: the standings follow the tie-breaks: {order:?}",
                GROUPS[k].1
            );
        }
        // Scores on the page are the test's (the column headed 积分).
        let page = public.get(&format!("/t/{g}/standings"));
        let table = &page.body[page.body.find("id=\"standings\"").unwrap()..];
        let head = &table[..table.find("</thead>").unwrap()];
        let col = head
            .split("<th")
            .skip(1)
            .filter(|h| !h.starts_with("ead"))
            .position(|h| h.contains(">积分<"))
            .expect("a 积分 column");
        let body = &table[table.find("<tbody>").unwrap()..table.find("</tbody>").unwrap()];
        for row in body.split("<tr").skip(1).map(row_cells) {
            let name = row[1].trim_end_matches("（退赛）").trim_end();
            let mine = lines.iter().find(|l| name_of[&l.who] == name).unwrap();
            assert_eq!(row[col], crate::common::standings::halves(mine.score), "{}: {name}", GROUPS[k].1);
        }
        if g != open {
            continue;
        }
        assert_eq!(order[0], people[70].name(), "the strongest of 公开组 wins it");
        let v = || {
            count(
                &s,
                &format!("SELECT coalesce(max(version), 0) FROM prize_settings WHERE tournament_id = {g}"),
            )
            .to_string()
        };
        let prizes = format!("/t/{g}/prizes");
        let post = |action: &str, fields: &[(&str, &str)]| {
            let version = v();
            let mut all = vec![("version", version.as_str())];
            all.extend_from_slice(fields);
            org.submit(&prizes, &format!("{prizes}/{action}"), &all)
        };
        assert_eq!(post("places", &[("places", "3")]).status, 303);
        assert_eq!(post("add", &[("kind", "woman")]).status, 303);
        let page = org.get(&prizes);
        let got = prize_winners(&page.body);
        let next_woman = order.iter().find(|n| woman.contains(**n) && !order[..3].contains(n)).unwrap();
        assert_eq!(
            got,
            [order[0].to_string(), order[1].to_string(), order[2].to_string(), next_woman.to_string()],
            "places down the standings; the first-placed woman leaves 最佳女棋手 to the next"
        );
    }
}
