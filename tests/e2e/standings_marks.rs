//! What the standings say beside a name: a withdrawn player (退赛) is marked on the standings
//! page and the standings PDF as the players list marks them, in every round counted after the
//! withdrawal and in none before ("after round N" reads rounds 1..N); Chinese pages and sheets
//! write ranks as Chinese lists do (业余五段, 职业九段, 业余初段, 10级).

use crate::common;
use common::*;

/// Pairs and publishes round `n`, then enters every game as won by Black.
fn play_round(s: &Server, c: &Client, tid: i32, n: u32) {
    pair_round(c, tid, n, "5");
    publish_round(s, c, tid, n);
    let games = query(
        &s.db,
        &format!("SELECT id FROM games WHERE tournament_id = {tid} AND round_number = {n} AND white_id IS NOT NULL"),
    );
    for g in games {
        enter(c, tid, g[0].parse().unwrap(), &[("method", "resignation"), ("winner", "black")]);
    }
}

/// Whether the standings page marks `name` as withdrawn (the text between the name and the
/// next cell).
fn marked_on_page(body: &str, name: &str, mark: &str) -> bool {
    let i = body.find(&format!(">{name}</a>")).unwrap_or_else(|| panic!("{name} not on the page: {body}"));
    let rest = &body[i..];
    rest[..rest.find("<td").unwrap()].contains(mark)
}

/// The standings PDF after round `n` in the client's language, as text without spaces.
fn standings_pdf(c: &Client, tid: i32, n: u32) -> String {
    let (_, back) = pdf(c, &format!("/t/{tid}/standings.pdf?paper=a4&round={n}"));
    common::readback::squash(&back.all_text())
}

/// Rules.md §15 (standings "as of round N" read rounds 1..N): a player withdrawn after round 1
/// stands unmarked in the standings after round 1 and marked (退赛 / withdrawn) after rounds 2
/// and 3, on the page and on the PDF, in both languages.
#[test]
fn a_withdrawn_player_is_marked_in_every_round_after_the_withdrawal() {
    let s = Server::start();
    let en = s.first_organizer();
    let zh = en.in_chinese();
    let tid = tournament_with_players(
        &en,
        "退赛标记测试赛",
        "Withdrawal Marks Open",
        &[("rounds", "3"), ("colour_method", "lots")],
        6,
    );
    play_round(&s, &en, tid, 1);
    let sql = format!("SELECT id FROM entrants WHERE tournament_id = {tid} AND family_name_zh = '赵'");
    let withdrawn = query(&s.db, &sql)[0][0].clone();
    let r = en.submit(
        &format!("/t/{tid}/entrants"),
        &format!("/t/{tid}/entrants/{withdrawn}/withdraw"),
        &[("reason", "因病退赛")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    play_round(&s, &en, tid, 2);
    play_round(&s, &en, tid, 3);
    let public_zh = s.client().in_chinese();
    for n in 1..=3 {
        let expected = n >= 2;
        let page = public_zh.get(&format!("/t/{tid}/standings?round={n}"));
        assert_eq!(
            marked_on_page(&page.body, "赵四", "（退赛）"),
            expected,
            "after round {n}: {}",
            page.body
        );
        let page = s.client().get(&format!("/t/{tid}/standings?round={n}"));
        assert_eq!(marked_on_page(&page.body, "Zhao Si", "(withdrawn)"), expected, "after round {n}");
        assert!(!marked_on_page(&page.body, "Wang Yi", "(withdrawn)"));
        let sheet = standings_pdf(&zh, tid, n);
        assert_eq!(sheet.contains("赵四ZhaoSi（退赛）"), expected, "PDF after round {n}: {sheet}");
        assert_eq!(standings_pdf(&en, tid, n).contains("赵四(withdrawn)"), expected, "PDF after round {n}");
    }
}

/// Chinese lists write dan grades in Chinese numerals (业余五段, 职业九段, 1 dan as 业余初段)
/// and kyu grades in figures (10级): on the Chinese standings page, players list and standings
/// PDF; English pages keep 5d, 9p, 10k.
#[test]
fn chinese_pages_and_sheets_write_ranks_as_chinese_lists_do() {
    let s = Server::start();
    let en = s.first_organizer();
    let zh = en.in_chinese();
    let tid = tournament_with_players(
        &en,
        "段位写法测试赛",
        "Rank Words Open",
        &[("rounds", "1"), ("colour_method", "lots")],
        1,
    );
    for (family, given, rank) in [("柯", "洁", "9p"), ("钱", "五", "1d"), ("孙", "六", "10k")] {
        assert_eq!(add_entrant(&en, tid, family, given, rank).status, 303);
    }
    play_round(&s, &en, tid, 1);
    let words = ["业余五段", "职业九段", "业余初段", "10级"];
    let standings = s.client().in_chinese().get(&format!("/t/{tid}/standings"));
    let players = s.client().in_chinese().get(&format!("/t/{tid}/players"));
    let sheet = standings_pdf(&zh, tid, 1);
    for w in words {
        assert!(
            standings.body.contains(&format!("<td>{w}")),
            "{w} on the standings page: {}",
            standings.body
        );
        assert!(players.body.contains(&format!("<td>{w}</td>")), "{w} on the players list: {}", players.body);
        assert!(sheet.contains(w), "{w} on the standings PDF: {sheet}");
    }
    for digits in ["业余5段", "职业9段", "业余1段"] {
        assert!(!standings.body.contains(digits) && !sheet.contains(digits), "{digits}");
    }
    let english = s.client().get(&format!("/t/{tid}/standings"));
    for w in ["<td>5d", "<td>9p", "<td>1d", "<td>10k"] {
        assert!(english.body.contains(w), "{w}: {}", english.body);
    }
}
