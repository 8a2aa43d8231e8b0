//! Prizes and certificates (录取名次、获奖证书) through the forms: a small Swiss played to the
//! end, places and special prizes defined, the winners checked against the test's own
//! standings and its own reading of the prize rule (docs/rules.md decisions D24, D25), the
//! double qualification handed to the next in line, publication, the public list, the prize
//! list and certificates read back.

use crate::common::standings::{compute, Game};
use crate::common::*;
use std::collections::HashMap;

/// `tengen print ARGS --out FILE`, run for the staff; the file's bytes.
fn print_prizes(s: &Server, args: &[&str]) -> Vec<u8> {
    let out = s.dir.path().join("cli-prizes.pdf");
    let run = s.cli(&[&["print"], args, &["--out", out.to_str().unwrap()]].concat());
    assert!(run.status.success(), "{args:?}: {}", String::from_utf8_lossy(&run.stderr));
    std::fs::read(&out).unwrap()
}

/// The command line's PDF is the page's: byte for byte but for the document's random /ID
/// (printpdf writes a new one for every file).
fn same_pdf(cli: &[u8], web: &[u8], what: &str) {
    assert_eq!(cli.len(), web.len(), "{what}: the same length");
    let id = web.windows(3).position(|w| w == b"/ID").unwrap_or(web.len());
    let differ: Vec<usize> = (0..web.len()).filter(|&i| cli[i] != web[i]).collect();
    assert!(differ.iter().all(|&i| i > id && i < id + 100), "{what}: bytes differ at {differ:?}");
}

/// The players: (name, rank, sex, birth date). The stronger rank wins every game, so the
/// standings follow the ranks and the women 乙 and 己 and the juniors (born 2012 or later) 戊,
/// 庚 and 辛 meet the places on their way.
const FIELD: [(&str, &str, &str, &str); 8] = [
    ("甲", "6d", "M", "1990-01-01"),
    ("乙", "5d", "F", "1991-02-02"),
    ("丙", "4d", "M", "1992-03-03"),
    ("丁", "3d", "M", "1993-04-04"),
    ("戊", "2d", "M", "2012-05-05"),
    ("己", "1d", "F", "1995-06-06"),
    ("庚", "1k", "M", "2013-07-07"),
    ("辛", "2k", "M", "2014-08-08"),
];

const JUNIOR_FROM: &str = "2012-01-01";

fn prize_version(s: &Server, tid: i32) -> String {
    count_rows(
        &s.db,
        &format!("SELECT coalesce(max(version), 0) FROM prize_settings WHERE tournament_id = {tid}"),
    )
    .to_string()
}

/// POST one of the prize forms at the prizes' current version.
fn prize_post(s: &Server, c: &Client, tid: i32, action: &str, fields: &[(&str, &str)]) -> Resp {
    let v = prize_version(s, tid);
    let mut all = vec![("version", v.as_str())];
    all.extend_from_slice(fields);
    c.submit(&format!("/t/{tid}/prizes"), &format!("/t/{tid}/prizes/{action}"), &all)
}

/// The prize table of a page: (prize, winner) per row, in precedence order.
fn winners(body: &str, table: &str) -> Vec<(String, String)> {
    let at = body.find(&format!("id=\"{table}\"")).unwrap_or_else(|| panic!("no #{table}: {body}"));
    let t = &body[at..];
    let rows = &t[t.find("<tbody>").unwrap() + 7..t.find("</tbody>").unwrap()];
    let col = if table == "prizes" { 3 } else { 1 };
    rows.split("<tr").skip(1).map(row_cells).map(|c| (c[0].clone(), c[col].clone())).collect()
}

/// The test's own reading of the prize rule over `order` (names in standings order): places
/// 1..=`places`, then the specials, each to the first who meets it; under "higher only"
/// nobody takes two.
fn expected(order: &[&str], places: usize, specials: &[fn(&str) -> bool], higher_only: bool) -> Vec<String> {
    let mut taken: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for who in order.iter().take(places) {
        taken.push(who);
        out.push(who.to_string());
    }
    for meets in specials {
        let w = order.iter().find(|p| meets(p) && (!higher_only || !taken.contains(p))).copied();
        if let Some(w) = w {
            taken.push(w);
        }
        out.push(w.unwrap_or("").to_string());
    }
    out
}

/// Pairs round `n` with `seed`, publishes it, draws every nigiri, and enters each game as the
/// stronger rank winning by resignation; (Black, White, Black won) per game.
fn play_round(
    s: &Server,
    c: &Client,
    tid: i32,
    n: u32,
    seed: u32,
    strength: &HashMap<i32, i32>,
) -> Vec<(i32, i32, bool)> {
    pair_round(c, tid, n, &seed.to_string());
    publish_round(s, c, tid, n);
    nigiri_all(c, &s.db, tid, n);
    let played = query(
        &s.db,
        &format!(
            "SELECT id, black_id, white_id FROM games WHERE tournament_id = {tid} AND round_number = {n} \
             AND white_id IS NOT NULL ORDER BY board"
        ),
    );
    let mut out = Vec::new();
    for g in played {
        let (gid, b, w): (i32, i32, i32) =
            (g[0].parse().unwrap(), g[1].parse().unwrap(), g[2].parse().unwrap());
        let black_wins = strength[&b] > strength[&w];
        enter(
            c,
            tid,
            gid,
            &[("method", "resignation"), ("winner", if black_wins { "black" } else { "white" })],
        );
        out.push((b, w, black_wins));
    }
    out
}

fn woman(name: &str) -> bool {
    FIELD.iter().any(|p| p.0 == name && p.2 == "F")
}

fn junior(name: &str) -> bool {
    FIELD.iter().any(|p| p.0 == name && p.3 >= JUNIOR_FROM)
}

/// Decisions D24 and D25 (prizes), rules.md §15: after a Swiss played to the end through the
/// forms, 录取前四名 and the best woman and best junior go as the test's own standings and its
/// own reading of the rule say — the woman and the junior among the places hand their special
/// prizes to the next in line ("the higher only"), or keep both when the event allows it; a
/// place the tie-breaks leave shared goes to the first in the standings' order with a warning;
/// the list is a preview until the last round, published for the public, printed, and every
/// winner has a certificate.
#[test]
fn prizes_of_a_swiss_played_to_the_end_go_to_the_next_in_line() {
    let s = Server::start();
    let c = s.first_organizer().in_chinese();
    let mut f = tournament_fields("天元杯颁奖测试赛", "Prize Open");
    set(&mut f, "rounds", "3");
    let tid = new_tournament(&c, &f);
    let page = format!("/t/{tid}/entrants/new");
    for (name, rank, sex, born) in FIELD {
        let r = c.submit(
            &page,
            &page,
            &[
                ("family_name_zh", "王"),
                ("given_name_zh", name),
                ("rank", rank),
                ("unit", &format!("{name}棋社")),
                ("region", "杭州"),
                ("sex", sex),
                ("birth_date", born),
            ],
        );
        assert_eq!(r.status, 303, "{name}: {}", r.body);
    }
    let ids: HashMap<i32, String> =
        query(&s.db, &format!("SELECT id, given_name_zh FROM entrants WHERE tournament_id = {tid}"))
            .into_iter()
            .map(|r| (r[0].parse().unwrap(), format!("王{}", r[1])))
            .collect();
    let strength: HashMap<i32, i32> =
        query(&s.db, &format!("SELECT id, rank_value FROM entrants WHERE tournament_id = {tid}"))
            .into_iter()
            .map(|r| (r[0].parse().unwrap(), r[1].parse().unwrap()))
            .collect();

    // A new event's prize page: nothing played, nothing to publish.
    let p = c.get(&format!("/t/{tid}/prizes"));
    assert!(text_of(&p, "preview").is_some_and(|t| t.contains("尚无已赛完的轮次")), "{}", p.body);
    assert!(!p.body.contains("id=\"publish\""), "no prize, nothing to publish: {}", p.body);
    // Places and specials defined before the first round: the page says nobody has won yet.
    assert_eq!(prize_post(&s, &c, tid, "places", &[("places", "4")]).status, 303);
    let r = prize_post(&s, &c, tid, "add", &[("kind", "woman"), ("amount", "奖杯一座")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let r = prize_post(&s, &c, tid, "add", &[("kind", "junior"), ("born", JUNIOR_FROM)]);
    assert_eq!(r.status, 303, "{}", r.body);
    let r = prize_post(
        &s,
        &c,
        tid,
        "settings",
        &[("double", "higher"), ("template", "classic"), ("organizer", "杭州市围棋协会")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    // A bad entry is refused beside its field, nothing written, the entry kept.
    let before = prize_version(&s, tid);
    let r = prize_post(
        &s,
        &c,
        tid,
        "add",
        &[("kind", "band"), ("rank_low", "3d"), ("rank_high", "1d"), ("name", "段位奖")],
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(
        r.body.contains("最低段级位不能高于最高段级位") && r.body.contains("value=\"段位奖\""),
        "{}",
        r.body
    );
    assert!(
        r.body.contains("value=\"杭州市围棋协会\""),
        "the other forms keep the stored values: {}",
        r.body
    );
    assert_eq!(prize_version(&s, tid), before);
    // A stale version is refused with the page's words.
    let r = c.submit(
        &format!("/t/{tid}/prizes"),
        &format!("/t/{tid}/prizes/places"),
        &[("version", "1"), ("places", "8")],
    );
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("奖项已被他人修改"), "{}", r.body);

    let mut games = Vec::new();
    for n in 1..=3u32 {
        for (b, w, black_wins) in play_round(&s, &c, tid, n, 7700 + n, &strength) {
            let (bp, wp) = if black_wins { (4, 0) } else { (0, 4) };
            games.push(Game { round: n, black: b, white: w, black_pts: bp, white_pts: wp });
        }
        if n == 2 {
            let p = c.get(&format!("/t/{tid}/prizes"));
            assert!(
                text_of(&p, "preview").unwrap_or_default().contains("第2轮"),
                "a preview until the end: {}",
                p.body
            );
        }
    }

    // The test's own standings; the page's order may differ only where the keys are equal (the lot).
    let players: Vec<i32> = ids.keys().copied().collect();
    let lines = compute(&players, &games, &[], &[], 3);
    let key: HashMap<String, (i64, i64, i64, i64, i64, i64)> =
        lines.iter().map(|l| (ids[&l.who].clone(), l.key())).collect();
    let mut public = s.client();
    public.accept_language = "zh-CN".into();
    let page_rows = standings_page_at(&public, &format!("/t/{tid}/standings"));
    let order: Vec<&str> = page_rows.iter().map(|r| r.1.as_str()).collect();
    for w in order.windows(2) {
        assert!(key[w[0]] >= key[w[1]], "the standings follow the tie-breaks: {order:?}");
    }
    let short: Vec<&str> = order.iter().map(|n| n.trim_start_matches('王')).collect();
    // The setting the test means: the best woman and the best junior are among the places.
    let best_woman = short.iter().position(|n| woman(n)).unwrap();
    let best_junior = short.iter().position(|n| junior(n)).unwrap();
    assert!(best_woman < 4 && best_junior < 4, "a double qualification each: {order:?}");

    let specials: [fn(&str) -> bool; 2] = [woman, junior];
    let p = c.get(&format!("/t/{tid}/prizes"));
    assert_eq!(p.status, 200);
    assert!(text_of(&p, "preview").is_none(), "every round played: {}", p.body);
    let got: Vec<String> =
        winners(&p.body, "prizes").into_iter().map(|(_, w)| w.trim_start_matches('王').to_string()).collect();
    let want = expected(&short, 4, &specials, true);
    assert_eq!(got, want, "higher only: {order:?}");
    assert_ne!(got[4], short[best_woman], "the woman among the places leaves 最佳女棋手 to the next woman");
    let names: Vec<String> = winners(&p.body, "prizes").into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, ["第一名", "第二名", "第三名", "第四名", "最佳女棋手", "最佳少年棋手"]);
    assert!(!p.body.contains("class=\"err tie\""), "the lot leaves no shared place");

    // "May take both": the best woman keeps both.
    let r = prize_post(
        &s,
        &c,
        tid,
        "settings",
        &[("double", "both"), ("template", "classic"), ("organizer", "杭州市围棋协会")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let p = c.get(&format!("/t/{tid}/prizes"));
    let got: Vec<String> =
        winners(&p.body, "prizes").into_iter().map(|(_, w)| w.trim_start_matches('王').to_string()).collect();
    assert_eq!(got, expected(&short, 4, &specials, false));
    assert_eq!(got[4], short[best_woman]);
    let r = prize_post(
        &s,
        &c,
        tid,
        "settings",
        &[("double", "higher"), ("template", "classic"), ("organizer", "杭州市围棋协会")],
    );
    assert_eq!(r.status, 303, "{}", r.body);

    // The first place gets its amount; the name stays the usual one.
    let first = query(&s.db, &format!("SELECT id FROM prizes WHERE tournament_id = {tid} AND position = 1"))
        [0][0]
        .clone();
    let r = prize_post(&s, &c, tid, &format!("{first}/rename"), &[("name", ""), ("amount", "奖金5000元")]);
    assert_eq!(r.status, 303, "{}", r.body);
    // Not public before publication; public after, and then no longer editable.
    assert_eq!(public.get(&format!("/t/{tid}/winners")).status, 404);
    assert!(!public.get(&format!("/t/{tid}")).body.contains("/winners\""), "no link before publication");
    assert_eq!(public.get(&format!("/t/{tid}/winners.pdf")).status, 404);
    assert!(public.get(&format!("/t/{tid}/prizes")).status >= 300, "the staff page is the staff's");
    assert_eq!(prize_post(&s, &c, tid, "publish", &[]).status, 303);
    let home = public.get(&format!("/t/{tid}"));
    assert!(
        home.body.contains(&format!("href=\"/t/{tid}/winners\"")),
        "the public home links the list: {}",
        home.body
    );
    let w = public.get(&format!("/t/{tid}/winners"));
    assert_eq!(w.status, 200, "{}", w.body);
    let got: Vec<String> = winners(&w.body, "winners")
        .into_iter()
        .map(|(_, w)| w.trim_start_matches('王').to_string())
        .collect();
    assert_eq!(got, want);
    assert!(w.body.contains("奖杯一座") && w.body.contains("奖金5000元"));
    let before = prize_version(&s, tid);
    let r = prize_post(&s, &c, tid, "add", &[("kind", "woman")]);
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.body.contains("获奖名单已公布"), "{}", r.body);
    assert_eq!(prize_version(&s, tid), before, "nothing written");

    // The printed list and the certificates, read back with every glyph whole.
    let (_, list) = pdf(&public, &format!("/t/{tid}/winners.pdf"));
    assert!(list.glyph_report().faults.is_empty(), "{:?}", list.glyph_report().faults);
    let text = readback::squash(&list.all_text());
    assert!(text.contains("获奖名单") && text.contains("奖杯一座"), "{text}");
    let mut at = 0;
    for (prize, who) in names.iter().zip(&want) {
        let line = format!("{prize}王{who}");
        let i = text[at..].find(&line).unwrap_or_else(|| panic!("{line} in order: {text}"));
        at += i;
    }
    let (_, certs) = pdf(&c, &format!("/t/{tid}/prizes/certificates.pdf"));
    assert_eq!(certs.pages.len(), 6, "one certificate per prize won");
    assert_eq!(certs.page_size_mm(1).map(|(w, h)| (w.round(), h.round())), Some((297.0, 210.0)));
    assert!(certs.glyph_report().faults.is_empty(), "{:?}", certs.glyph_report().faults);
    let first = readback::squash(&certs.pages[0]);
    for part in [
        "获奖证书",
        &format!("王{}", want[0]),
        &format!("{}棋社", want[0]),
        "在天元杯颁奖测试赛中荣获第一名",
        "特发此证，以资鼓励",
        "杭州市围棋协会",
        "2026年12月7日",
    ] {
        assert!(first.contains(&readback::squash(part)), "{part}: {first}");
    }
    let (_, one) = pdf(&c, &format!("/t/{tid}/prizes/5/certificate.pdf"));
    assert_eq!(one.pages.len(), 1);
    let fifth = readback::squash(&one.all_text());
    assert!(fifth.contains(&format!("王{}", want[4])) && fifth.contains("荣获最佳女棋手"), "{fifth}");
    // The command line prints the staff pages' files: the prize list, every certificate, one
    // prize's, in English.
    let t = tid.to_string();
    for (args, page) in [
        (vec!["prizes"], format!("/t/{tid}/prizes/list.pdf")),
        (vec!["certificates"], format!("/t/{tid}/prizes/certificates.pdf")),
        (vec!["certificates", "--prize", "5"], format!("/t/{tid}/prizes/5/certificate.pdf")),
        (
            vec!["certificates", "--prize", "1", "--lang", "en"],
            format!("/t/{tid}/prizes/1/certificate.pdf?lang=en"),
        ),
    ] {
        let cli = print_prizes(&s, &[&args[..], &["--tournament", t.as_str()]].concat());
        same_pdf(&cli, &c.get(&page).bytes, &page);
    }
    let out = s.cli(&["print", "certificates", "--tournament", &t, "--out", "-"]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.starts_with(&format!("赛事{tid}：6张获奖证书 → -（")), "in the locale's words: {said}");
    assert!(
        public.get(&format!("/t/{tid}/prizes/certificates.pdf")).status >= 300,
        "certificates are the staff's"
    );
    // In English on request, for a winner from abroad.
    let (_, en) = pdf(&c, &format!("/t/{tid}/prizes/1/certificate.pdf?lang=en"));
    let en = readback::squash(&en.all_text());
    assert!(en.contains("CertificateofAward") && en.contains("wasawardedPlace1atPrizeOpen"), "{en}");
    assert_eq!(c.get(&format!("/t/{tid}/prizes/certificates.pdf?lang=fr")).status, 400);

    // The plain template leaves the title to the pre-printed paper; a change needs the list
    // taken back first, and every step is in the audit.
    assert_eq!(prize_post(&s, &c, tid, "unpublish", &[]).status, 303);
    let r = prize_post(
        &s,
        &c,
        tid,
        "settings",
        &[("double", "higher"), ("template", "plain"), ("organizer", "杭州市围棋协会")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let (_, plain) = pdf(&c, &format!("/t/{tid}/prizes/1/certificate.pdf"));
    let t = readback::squash(&plain.all_text());
    assert!(!t.contains("获奖证书") && t.contains("荣获第一名"), "{t}");
    // The command line follows the stored template, or the one `--style` names.
    let id = tid.to_string();
    let cli = print_prizes(&s, &["certificates", "--tournament", &id, "--prize", "1"]);
    same_pdf(&cli, &c.get(&format!("/t/{tid}/prizes/1/certificate.pdf")).bytes, "plain");
    let classic =
        print_prizes(&s, &["certificates", "--tournament", &id, "--prize", "1", "--style", "classic"]);
    let classic = readback::squash(&readback::read("cli-classic", &classic).all_text());
    assert!(classic.contains("获奖证书") && classic.contains("荣获第一名"), "{classic}");
    let out = s.cli(&["print", "certificates", "--tournament", &id, "--style", "gold", "--out", "-"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.trim(), "tengen：参数“--style”只能是 classic 或 plain，不能是“gold”。");

    // Standings by score alone leave places shared: the prize goes to the first in the
    // standings' order, the place shows the tie and the page warns of it.
    let mut fields = f.clone();
    let v = count_rows(&s.db, &format!("SELECT version FROM tournaments WHERE id = {tid}")).to_string();
    set(&mut fields, "version", &v);
    fields.retain(|(k, _)| k != "tiebreak");
    fields.push(("tiebreak".into(), "score".into()));
    let r = c.submit(&format!("/t/{tid}/settings"), &format!("/t/{tid}/settings"), &as_refs(&fields));
    assert_eq!(r.status, 303, "{}", r.body);
    let p = c.get(&format!("/t/{tid}/prizes"));
    let rows = standings_page_at(&public, &format!("/t/{tid}/standings"));
    let second = &rows[1];
    assert_eq!(rows[2].0, second.0, "the score alone leaves the second place shared: {rows:?}");
    let got = winners(&p.body, "prizes");
    assert!(
        got[1].1.starts_with(&second.1),
        "the second place goes to the first of the tied in the standings' order: {got:?}"
    );
    let tie = text_of(
        &p,
        &format!(
            "prize-{}",
            query(&s.db, &format!("SELECT id FROM prizes WHERE tournament_id = {tid} AND position = 2"))[0]
                [0]
        ),
    )
    .unwrap_or_default();
    assert!(
        tie.contains(&format!("与{}", rows[2].1)) && tie.contains("请裁判长确认") && tie.contains(&second.0),
        "{tie}"
    );
    let audited = count_rows(
        &s.db,
        &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid} AND entity IN ('prizes', 'prize_settings')"),
    );
    assert_eq!(
        audited, 10,
        "places, two specials, an amount, four rule saves, publish, unpublish: each audited"
    );
    let log = c.get(&format!("/t/{tid}/audit"));
    assert!(log.body.contains("公布了天元杯颁奖测试赛的获奖名单"), "{}", log.body);
}

/// Decision D25 with seed 000 Art. 15.2 (退赛), across two features: the leader after two
/// rounds withdraws through the withdrawal form (reason and date), the last round is paired
/// without them, and the places pass them over — the next in the standings take every place —
/// until the organizer ticks that withdrawn players are awarded, when the places follow the
/// standings as they stand.
#[test]
fn a_player_withdrawn_through_the_form_is_passed_over_by_the_places() {
    let s = Server::start();
    let c = s.first_organizer().in_chinese();
    let mut f = tournament_fields("退赛颁奖测试赛", "Withdrawal Prize Open");
    set(&mut f, "rounds", "3");
    let tid = new_tournament(&c, &f);
    let page = format!("/t/{tid}/entrants/new");
    for (name, rank, sex, born) in &FIELD[..6] {
        let fields = [
            ("family_name_zh", "李"),
            ("given_name_zh", *name),
            ("rank", *rank),
            ("sex", *sex),
            ("birth_date", *born),
        ];
        assert_eq!(c.submit(&page, &page, &fields).status, 303, "{name}");
    }
    let strength: HashMap<i32, i32> =
        query(&s.db, &format!("SELECT id, rank_value FROM entrants WHERE tournament_id = {tid}"))
            .into_iter()
            .map(|r| (r[0].parse().unwrap(), r[1].parse().unwrap()))
            .collect();
    let leader: i32 = query(
        &s.db,
        &format!("SELECT id FROM entrants WHERE tournament_id = {tid} AND given_name_zh = '甲'"),
    )[0][0]
        .parse()
        .unwrap();
    assert_eq!(prize_post(&s, &c, tid, "places", &[("places", "3")]).status, 303);
    for n in 1..=3u32 {
        if n == 3 {
            // 甲 has won both games; they withdraw before the last round, through the form.
            let form = format!("/t/{tid}/entrants/{leader}/withdraw");
            let version =
                query(&s.db, &format!("SELECT version FROM entrants WHERE id = {leader}"))[0][0].clone();
            let r = c.submit(
                &form,
                &form,
                &[("version", &version), ("reason", "因病退赛"), ("withdrawn_on", "2026-01-02")],
            );
            assert_eq!(r.status, 303, "{}", r.body);
        }
        for (b, w, _) in play_round(&s, &c, tid, n, 8800 + n, &strength) {
            assert!(n < 3 || (b != leader && w != leader), "the withdrawn leader is not paired in round 3");
        }
    }
    let mut public = s.client();
    public.accept_language = "zh-CN".into();
    let order: Vec<String> =
        standings_page_at(&public, &format!("/t/{tid}/standings")).into_iter().map(|r| r.1).collect();
    assert!(
        order.iter().take(3).any(|n| n == "李甲"),
        "the leader is still among the first three: {order:?}"
    );
    let places = |c: &Client| -> Vec<String> {
        let p = c.get(&format!("/t/{tid}/prizes"));
        assert_eq!(p.status, 200);
        winners(&p.body, "prizes").into_iter().map(|(_, w)| w).collect()
    };
    let without: Vec<String> = order.iter().filter(|n| n.as_str() != "李甲").take(3).cloned().collect();
    assert_eq!(places(&c), without, "the withdrawn player is passed over (D25): {order:?}");
    let r = prize_post(
        &s,
        &c,
        tid,
        "settings",
        &[("double", "higher"), ("template", "classic"), ("award_withdrawn", "on")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let with: Vec<String> = order.iter().take(3).cloned().collect();
    assert_eq!(places(&c), with, "awarded when the event says so: {order:?}");
}
