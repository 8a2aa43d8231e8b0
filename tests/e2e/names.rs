//! Names as Chinese readers find them, end to end over HTTP: the entrant list
//! by name, the printed pairing list by name, the round page's player dropdowns and the
//! standings of equals follow the event's name order — pinyin by default (surnames read as
//! surnames: 单 shàn, 曾 zēng), stroke count as a setting on the settings page; the public "find
//! my table" box, the entrant search and the round page's dropdown filter take characters,
//! full pinyin or initials (`kj`, `kejie` → 柯洁). The entrants have no pinyin of their own:
//! the readings come from the characters.

use crate::common;
use common::*;

/// Eight entrants with Chinese names only (no pinyin column filled).
const PLAYERS: &str = "姓名,拼音,段位,等级分,单位,地区,出生日期,性别,备注
柯洁,,5段,2500,北京棋院,北京,1990-01-01,男,
曾庆红,,5段,2490,上海棋院,上海,1991-01-01,男,
单霖,,4段,2400,杭州棋院,浙江,1992-01-01,男,
陈耀烨,,4段,2390,广州棋院,广东,1993-01-01,男,
孔杰,,3段,2300,成都棋院,四川,1994-01-01,男,
丁伟,,3段,2290,武汉棋院,湖北,1995-01-01,男,
王磊,,2段,2200,南京棋院,江苏,1996-01-01,男,
古力,,2段,2190,西安棋院,陕西,1997-01-01,男,
";

/// By pinyin: chén, dīng, gǔ, kē, kǒng, shàn (单 as a surname), wáng, zēng (曾 as a surname).
const BY_PINYIN: [&str; 8] = ["陈耀烨", "丁伟", "古力", "柯洁", "孔杰", "单霖", "王磊", "曾庆红"];
/// By strokes of the surname: 丁2, 孔4 = 王4 (then by pinyin), 古5, 陈7, 单8, 柯9, 曾12.
const BY_STROKES: [&str; 8] = ["丁伟", "孔杰", "王磊", "古力", "陈耀烨", "单霖", "柯洁", "曾庆红"];

/// Where each name first appears in `text` after `from`; panics if one is missing.
fn positions(text: &str, from: usize, names: &[&str]) -> Vec<usize> {
    names
        .iter()
        .map(|n| from + text[from..].find(n).unwrap_or_else(|| panic!("{n} missing in {}", &text[from..])))
        .collect()
}

fn assert_in_order(text: &str, from: usize, names: &[&str], what: &str) {
    let p = positions(text, from, names);
    assert!(p.windows(2).all(|w| w[0] < w[1]), "{what}: expected {names:?}, positions {p:?}");
}

/// The options of the select named `name` on a page, as their labels.
fn options_of(body: &str, name: &str) -> Vec<String> {
    let at = body.find(&format!("name=\"{name}\"")).unwrap_or_else(|| panic!("no select {name}"));
    let end = at + body[at..].find("</select>").unwrap();
    body[at..end].split("<option").skip(1).map(|o| plain_text(&format!("<x{o}"))).collect()
}

fn set_name_order(c: &Client, s: &Server, tid: i32, order: &str, changes: &[(&str, &str)]) {
    let version = query(&s.db, &format!("SELECT version FROM tournaments WHERE id = {tid}"))[0][0].clone();
    let mut f = tournament_fields("名字测试赛", "Names Test");
    for (k, v) in changes {
        set(&mut f, k, v);
    }
    set(&mut f, "name_order", order);
    set(&mut f, "version", &version);
    let path = format!("/t/{tid}/settings");
    let r = c.submit(&path, &path, &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
}

#[test]
fn lists_by_name_follow_pinyin_or_strokes_and_every_find_box_takes_pinyin() {
    let s = Server::start();
    let c = s.first_organizer();
    // Score alone decides places, so the players of one score share a place.
    let mut f = tournament_fields("名字测试赛", "Names Test");
    f.retain(|(k, _)| k != "tiebreak");
    f.push(("tiebreak".into(), "score".into()));
    // Colours by the pairing (no nigiri to do before the results).
    set(&mut f, "colour_method", "balanced");
    let r = c.submit("/t/new", "/t/new", &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    let tid: i32 = r.location().trim_start_matches("/t/").parse().unwrap();
    let r = import_file(&c, tid, "csv", "players.csv", PLAYERS.as_bytes());
    assert_eq!(r.status, 303, "{}", r.body);

    // The settings page offers the order, pinyin by default.
    let form = c.get(&format!("/t/{tid}/settings"));
    assert!(form.body.contains("name=\"name_order\""), "{}", form.body);
    assert!(form.body.contains("<option value=\"pinyin\" selected"), "pinyin is the default");
    assert!(form.body.contains("按姓氏笔画") || form.body.contains("strokes of the surname"));

    // The entrant list 按姓名: by pinyin.
    let list = c.get(&format!("/t/{tid}/entrants?sort=name"));
    assert_eq!(list.status, 200);
    let table = list.body.find("<tbody").unwrap();
    assert_in_order(&list.body, table, &BY_PINYIN, "entrants by pinyin");

    // The entrant search takes characters, full pinyin and initials, surnames read as surnames.
    let found = |q: &str| {
        let r = c.get(&format!("/t/{tid}/entrants?q={q}"));
        assert_eq!(r.status, 200);
        let body = &r.body[r.body.find("<tbody").unwrap()..];
        BY_PINYIN.iter().filter(|n| body.contains(*n)).copied().collect::<Vec<_>>()
    };
    assert_eq!(found("kejie"), ["柯洁"]);
    let mut kj = found("kj");
    kj.sort();
    assert_eq!(
        kj,
        {
            let mut v = vec!["柯洁", "孔杰"];
            v.sort();
            v
        },
        "kj: kē jié and kǒng jié"
    );
    assert_eq!(found("zeng"), ["曾庆红"], "曾 as a surname is zēng");
    assert_eq!(found("shanlin"), ["单霖"], "单 as a surname is shàn");
    // Every reading of a character finds it too (a reader who does not know the surname's).
    assert_eq!(found("danlin"), ["单霖"]);
    assert_eq!(found("%E6%9F%AF"), ["柯洁"], "柯 typed as a character");

    // Round 1 paired and published.
    pair_round(&c, tid, 1, "20261205");
    let round = c.get(&format!("/t/{tid}/rounds/1"));
    assert_eq!(round.status, 200);
    // The swap dropdown in pinyin order, and narrowed by what the arbiter types.
    let labels = options_of(&round.body, "swap_a");
    let order: Vec<&str> =
        BY_PINYIN.iter().copied().filter(|n| labels.iter().any(|l| l.contains(n))).collect();
    assert_eq!(order.len(), 8, "{labels:?}");
    assert!(labels.iter().zip(BY_PINYIN).all(|(l, n)| l.contains(n)), "swap dropdown by pinyin: {labels:?}");
    let narrowed = c.get(&format!("/t/{tid}/rounds/1?find=kejie"));
    let labels = options_of(&narrowed.body, "swap_a");
    assert_eq!(labels.len(), 1, "{labels:?}");
    assert!(labels[0].contains("柯洁"));
    let labels = options_of(&c.get(&format!("/t/{tid}/rounds/1?find=kj")).body, "edit_black");
    assert_eq!(labels.len(), 2, "{labels:?}");
    assert!(labels[0].contains("柯洁") && labels[1].contains("孔杰"), "{labels:?}");
    publish_round(&s, &c, tid, 1);

    // Find my table: pinyin, initials and characters find the player's board.
    let public = s.client();
    for q in ["kejie", "kj", "%E6%9F%AF%E6%B4%81", "zqh"] {
        let r = public.get(&format!("/t/{tid}/pairings?round=1&q={q}"));
        assert_eq!(r.status, 200);
        let body = &r.body[r.body.find("<tbody").unwrap()..];
        let expect = if q == "zqh" { "曾庆红" } else { "柯洁" };
        assert!(body.contains(expect), "{q}: {body}");
        assert!(r.body.contains("id=\"found\""), "{q}");
    }
    let r = public.get(&format!("/t/{tid}/pairings?round=1&q=kejie"));
    let body = &r.body[r.body.find("<tbody").unwrap()..];
    assert_eq!(body.matches("class=\"found\"").count(), 1, "kejie finds one board");

    // The printed pairing list by name, in pinyin order.
    let (_, pdf) = pdf(&c, &format!("/t/{tid}/rounds/1/pairings.pdf?order=name&paper=a4&lang=zh"));
    let text: String = pdf.pages.concat();
    let squashed: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let own = own_lines(&squashed, &BY_PINYIN);
    assert!(own.windows(2).all(|w| w[0] < w[1]), "pairings by name in pinyin order: {own:?} {squashed}");

    // Results: the four winners share first place, the four losers fifth.
    for board in 1..=4 {
        enter(&c, tid, game_id(&s.db, tid, 1, board), &[("method", "resignation"), ("winner", "black")]);
    }
    let winners: Vec<String> = query(
        &s.db,
        &format!(
            "SELECT e.family_name_zh || e.given_name_zh FROM games g JOIN entrants e ON e.id = g.black_id \
             WHERE g.tournament_id = {tid} AND g.round_number = 1"
        ),
    )
    .into_iter()
    .map(|r| r[0].clone())
    .collect();
    let expect = |order: &[&'static str]| -> Vec<&'static str> {
        let mut v: Vec<&str> = order.iter().copied().filter(|n| winners.iter().any(|w| w == n)).collect();
        v.extend(order.iter().copied().filter(|n| !winners.iter().any(|w| w == n)));
        v
    };
    let st = public.get(&format!("/t/{tid}/standings"));
    assert_eq!(st.status, 200);
    let from = st.body.find("<tbody").unwrap();
    assert_in_order(&st.body, from, &expect(&BY_PINYIN), "standings of equals by pinyin");

    // The stroke order, chosen on the settings page, orders every list the same way.
    set_name_order(&c, &s, tid, "strokes", &[("tiebreak", "score"), ("colour_method", "balanced")]);
    let form = c.get(&format!("/t/{tid}/settings"));
    assert!(form.body.contains("<option value=\"strokes\" selected"), "the setting is stored");
    let list = c.get(&format!("/t/{tid}/entrants?sort=name"));
    let table = list.body.find("<tbody").unwrap();
    assert_in_order(&list.body, table, &BY_STROKES, "entrants by strokes");
    let st = public.get(&format!("/t/{tid}/standings"));
    let from = st.body.find("<tbody").unwrap();
    assert_in_order(&st.body, from, &expect(&BY_STROKES), "standings of equals by strokes");
    // Round 2's draft: its dropdowns in stroke order.
    pair_round(&c, tid, 2, "7");
    let labels = options_of(&c.get(&format!("/t/{tid}/rounds/2")).body, "edit_black");
    assert!(labels.iter().zip(BY_STROKES).all(|(l, n)| l.contains(n)), "dropdown by strokes: {labels:?}");
    // The change is audited.
    let audited =
        format!("SELECT count(*) FROM audit WHERE tournament_id = {tid} AND after LIKE '%strokes%'");
    assert!(query_opt(&s.db, &audited).unwrap_or(0) >= 1, "the change of order is audited");
}

/// Where each player's own line of the by-name list starts: their name followed (after the
/// rank) by their own unit, which an opponent's column never is.
fn own_lines(squashed: &str, names: &[&str]) -> Vec<usize> {
    names
        .iter()
        .map(|n| {
            let unit = PLAYERS.lines().find(|l| l.starts_with(n)).unwrap().split(',').nth(4).unwrap();
            squashed
                .match_indices(n)
                .map(|(i, _)| i)
                .find(|&i| squashed[i..].chars().take(16).collect::<String>().contains(unit))
                .unwrap_or_else(|| panic!("no line of {n} in {squashed}"))
        })
        .collect()
}

/// The tournament page's "add to staff" dropdown is narrowed by what the organizer types —
/// characters, full pinyin or initials — over user names and display names alike.
#[test]
fn the_staff_dropdown_finds_accounts_by_pinyin() {
    let s = Server::start();
    let org = s.first_organizer();
    for (user, shown) in [("kejie", "柯洁"), ("kongjie", "孔杰"), ("wangwei", "王伟")] {
        let pass = format!("{user}-secret-pass-1");
        let r = org.submit(
            "/users",
            "/users",
            &[
                ("username", user),
                ("display_name", shown),
                ("role", "arbiter"),
                ("password", &pass),
                ("password2", &pass),
            ],
        );
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let tid = create_tournament(&org, "拼音查找裁判赛");
    let offered = |find: &str| -> Vec<String> {
        let page = org.get(&format!("/t/{tid}?find={find}"));
        assert_eq!(page.status, 200, "{}", page.body);
        let form = &page.body[page.body.find("id=\"staff-add\"").map_or(0, |i| i)..];
        let select = &form[..form.find("</select>").unwrap_or(0)];
        ["kejie", "kongjie", "wangwei"]
            .iter()
            .filter(|u| select.contains(&format!(">{u} (")))
            .map(|u| u.to_string())
            .collect()
    };
    assert_eq!(offered(""), ["kejie", "kongjie", "wangwei"].map(String::from));
    assert_eq!(offered("kj"), ["kejie", "kongjie"].map(String::from), "initials fit both");
    assert_eq!(offered("kejie"), ["kejie"].map(String::from));
    assert_eq!(offered("%E6%9F%AF"), ["kejie"].map(String::from), "柯 by its character");
    assert_eq!(offered("wang"), ["wangwei"].map(String::from));
    assert!(org.get(&format!("/t/{tid}?find=kj")).body.contains("value=\"kj\""), "the search is kept");
}
