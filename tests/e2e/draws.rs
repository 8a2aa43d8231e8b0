//! Draws end to end: Swiss round 1 of an unrated field by rank
//! halves (the default, shown and editable on the settings page; a pure lot when the event
//! chooses it; frozen once round 1 is published); a double loss because both players were
//! late beyond the limit takes the event's double-loss lot; and every lot of a published
//! round replayed by an outsider from nothing but the public pairings page (its description of
//! the draws, followed by `common/outsider.rs` without the crate's code).

use crate::common;
use common::*;

/// An unrated field with ranks, as a Chinese open has it, entered in an order unrelated to
/// strength: 12级, 7段, 18级, 1段, 6段, 3级, 20级 (no ratings, no birth dates).
const UNRATED: &str = "姓名,拼音,段位,等级分,单位,地区,出生日期,性别,备注
刘一,Liu Yi,12级,,北京棋院,北京,,男,
陈二,Chen Er,7段,,上海棋院,上海,,男,
杨三,Yang San,18级,,杭州棋院,浙江,,男,
黄四,Huang Si,1段,,广州棋院,广东,,女,
周五,Zhou Wu,6段,,成都棋院,四川,,男,
吴六,Wu Liu,3级,,武汉棋院,湖北,,女,
徐七,Xu Qi,20级,,南京棋院,江苏,,女,
";

/// A tournament made through the form (defaults changed by `changes`) with `csv` imported.
fn tournament(c: &Client, name: &str, changes: &[(&str, &str)], csv: &str) -> i32 {
    let tid = tournament_with_players(c, name, "Draws Test", changes, 0);
    let r = import_file(c, tid, "csv", "field.csv", csv.as_bytes());
    assert_eq!(r.status, 303, "{}", r.body);
    tid
}

fn round_version(s: &Server, tid: i32, n: i32) -> String {
    query_opt(&s.db, &format!("SELECT version FROM rounds WHERE tournament_id = {tid} AND number = {n}"))
        .map(|v| v.to_string())
        .unwrap_or_default()
}

fn pair(c: &Client, s: &Server, tid: i32, n: i32, seed: &str) {
    let token = c.get(&format!("/t/{tid}/rounds")).csrf();
    let v = round_version(s, tid, n);
    let r = c.post_form(
        &format!("/t/{tid}/rounds/{n}/pair"),
        &[("csrf", &token), ("seed", seed), ("version", &v), ("confirm", "on")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
}

fn publish(c: &Client, s: &Server, tid: i32, n: i32) {
    let token = c.get(&format!("/t/{tid}/rounds/{n}")).csrf();
    let v = round_version(s, tid, n);
    let r = c.post_form(
        &format!("/t/{tid}/rounds/{n}/publish"),
        &[("csrf", &token), ("version", &v), ("confirm", "on")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
}

/// Entrant id by Chinese name.
fn entrant(s: &Server, tid: i32, name: &str) -> i64 {
    let (family, given) = name.split_at(name.char_indices().nth(1).unwrap().0);
    query_opt(
        &s.db,
        &format!(
            "SELECT id FROM entrants WHERE tournament_id = {tid} AND family_name_zh = '{family}' AND given_name_zh = '{given}'"
        ),
    )
    .unwrap_or_else(|| panic!("no entrant {name}"))
}

/// (black, white) of each game of round `n`, and the bye.
fn round(s: &Server, tid: i32, n: i32) -> (Vec<(i64, i64)>, Option<i64>) {
    let rows = query(
        &s.db,
        &format!("SELECT black_id, white_id FROM games WHERE tournament_id = {tid} AND round_number = {n} ORDER BY board"),
    );
    let mut games = Vec::new();
    let mut bye = None;
    for r in rows {
        match r[1].parse::<i64>() {
            Ok(w) => games.push((r[0].parse().unwrap(), w)),
            Err(_) => bye = Some(r[0].parse().unwrap()),
        }
    }
    (games, bye)
}

#[test]
fn swiss_round_one_of_an_unrated_field_pairs_rank_halves_by_lot_and_the_setting_is_honoured() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = tournament(&c, "段位分区测试赛", &[("colour_method", "lots")], UNRATED);
    // The setting is on the settings page with its default, in both languages.
    let form = c.get(&format!("/t/{tid}/settings"));
    assert!(
        form.body.contains("<option value=\"rank_rating\" selected>By rank, then rating (default)</option>"),
        "{}",
        form.body
    );
    assert!(form.body.contains("<option value=\"lot\">Pure computer lot"), "{}", form.body);
    let zh = c.in_chinese();
    assert!(zh.get(&format!("/t/{tid}/settings")).body.contains("按段级位，再按等级分（默认）"));
    // The entrant list shows the pairing numbers the lots name: 1..7 in order of entry.
    let list = c.get(&format!("/t/{tid}/entrants"));
    let row = &list.body[list.body.find("陈二").unwrap() - 40..list.body.find("陈二").unwrap()];
    assert!(row.contains("<td>2</td>"), "{row}");

    let id = |name| entrant(&s, tid, name);
    let upper = [id("陈二"), id("周五"), id("黄四")]; // 7段, 6段, 1段
    let lowest = id("徐七"); // 20级
    for seed in ["1", "2", "3", "4", "5", "6"] {
        pair(&c, &s, tid, 1, seed);
        let (games, bye) = round(&s, tid, 1);
        assert_eq!(bye, Some(lowest), "seed {seed}: the round-1 bye goes to the lowest in the order");
        assert_eq!(games.len(), 3);
        for (b, w) in &games {
            assert!(upper.contains(b) != upper.contains(w), "seed {seed}: one of each half: {games:?}");
        }
        // The round page shows the halves' lots, in pairing numbers, replayed.
        let page = c.get(&format!("/t/{tid}/rounds/1"));
        let shown = lots(&page);
        let half = shown.iter().find(|l| l.purpose == "round1_upper").expect("the upper half's lot");
        assert_eq!(half.candidates, vec![2, 4, 5], "7段, 1段, 6段 by pairing number");
        assert!(shown.iter().all(|l| l.text.contains("✓")), "{shown:?}");
    }

    // The event chooses a pure lot: strength no longer decides the halves or the bye.
    let path = format!("/t/{tid}/settings");
    let version = query(&s.db, &format!("SELECT version FROM tournaments WHERE id = {tid}"))[0][0].clone();
    let mut f = tournament_fields("段位分区测试赛", "Draws Test");
    for (k, v) in [("colour_method", "lots"), ("round1_order", "lot"), ("version", &version)] {
        set(&mut f, k, v);
    }
    let r = c.submit(&path, &path, &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    assert!(c.get(&path).body.contains("<option value=\"lot\" selected>"));
    let (mut weak_upper, mut other_bye) = (false, false);
    for seed in 1..=12 {
        pair(&c, &s, tid, 1, &seed.to_string());
        let (games, bye) = round(&s, tid, 1);
        other_bye |= bye != Some(lowest);
        let page = c.get(&format!("/t/{tid}/rounds/1"));
        let shown = lots(&page);
        let order = shown.iter().find(|l| l.purpose == "round1_order").expect("the whole order by lot");
        assert_eq!(order.candidates, (1..=7).collect::<Vec<u32>>());
        let numbers = numbers_of(&s, tid);
        assert_eq!(bye.map(|b| numbers[&b]), order.outcome.last().copied(), "the last of the lot sits out");
        let upper_lot = shown.iter().find(|l| l.purpose == "round1_upper").unwrap();
        let strong: Vec<u32> = upper.iter().map(|id| numbers[id]).collect();
        weak_upper |= upper_lot.candidates.iter().any(|n| !strong.contains(n));
        assert_eq!(games.len(), 3);
    }
    assert!(weak_upper && other_bye, "a pure lot ignores the ranks");

    // Once round 1 is published the order it was paired by is frozen.
    publish(&c, &s, tid, 1);
    let version = query(&s.db, &format!("SELECT version FROM tournaments WHERE id = {tid}"))[0][0].clone();
    set(&mut f, "round1_order", "rank_rating");
    set(&mut f, "version", &version);
    let r = c.submit(&path, &path, &as_refs(&f));
    assert_eq!(r.status, 409, "{}", r.body);
    assert!(r.field_error("round1_order").is_some_and(|e| e.contains("round 1 is published")), "{}", r.body);
    assert!(query(&s.db, &format!("SELECT pairing_rules FROM tournaments WHERE id = {tid}"))[0][0]
        .contains("\"round1\":\"lot\""));
}

#[test]
fn a_double_loss_because_both_were_late_takes_the_double_loss_lot() {
    let s = Server::start();
    let c = s.first_organizer();
    let csv = eight_players(4);
    let tid = tournament(&c, "双方迟到测试赛", &[("colour_method", "balanced")], &csv);
    pair(&c, &s, tid, 1, "11");
    publish(&c, &s, tid, 1);
    let (games, _) = round(&s, tid, 1);
    let (b1, w1) = games[0];
    // Both players of table 1 arrive 65 minutes late (the limit is 60): a double loss.
    let sheet = format!("/t/{tid}/results/rounds/1/lateness");
    let (kb, kw) = (format!("arr_{b1}"), format!("arr_{w1}"));
    let r =
        c.submit(&sheet, &sheet, &[("version", "0"), ("starts_at", "09:00"), (&kb, "10:05"), (&kw, "10:05")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let g1 = game_id(&s.db, tid, 1, 1);
    let r = game_post(&c, tid, g1, "lateness", &[]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(
        text_of(&c.get(&format!("/t/{tid}/games/{g1}")), "result").as_deref(),
        Some("Double loss (both players late beyond the limit, Art. 22.3)")
    );
    enter(&c, tid, game_id(&s.db, tid, 1, 2), &[("method", "resignation"), ("winner", "black")]);

    // Round 2: the event's rule (the lot fallback, the default) draws a nominal winner.
    pair(&c, &s, tid, 2, "12");
    let row =
        query(&s.db, &format!("SELECT nominal_winner_id, nominal_lot, result FROM games WHERE id = {g1}"));
    let (winner, lot, result) = (&row[0][0], &row[0][1], &row[0][2]);
    assert!(winner == &b1.to_string() || winner == &w1.to_string(), "a nominal winner: {row:?}");
    assert_eq!(result, "RESULT_BOTHLOSE_BYDEF", "the result stays the double loss of lateness");
    assert!(lot.contains("\"kind\":\"double_loss\""), "{lot}");
    assert_eq!(
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM audit WHERE action = 'double_loss_lot' AND entity_id = {g1}")
        ),
        1
    );
    let page = c.get(&format!("/t/{tid}/rounds/2"));
    let shown = &page.body[page.body.find("id=\"double-loss\"").expect("the double-loss lot is shown")..];
    assert!(shown.contains("<td class=\"nominal\">"), "{shown}");
    let lot = lots(&page).into_iter().find(|l| l.purpose == "double_loss").expect("among the round's lots");
    let numbers = numbers_of(&s, tid);
    let mut pair_numbers = vec![numbers[&b1], numbers[&w1]];
    pair_numbers.sort();
    assert_eq!(lot.candidates, pair_numbers);
    assert_eq!(lot.outcome, vec![numbers[&winner.parse::<i64>().unwrap()]]);
    assert!(lot.text.contains("Double loss in round 1") && lot.text.contains("✓"), "{}", lot.text);
    // Standings keep 0 : 0; only the pairing counts the nominal win.
    let scores = &page.body[page.body.find("class=\"list scores\"").unwrap()..];
    assert!(scores.contains("nominal win"), "{scores}");
    // Pairing the draft again keeps the lot already drawn, and shows it.
    pair(&c, &s, tid, 2, "13");
    assert_eq!(&query(&s.db, &format!("SELECT nominal_winner_id FROM games WHERE id = {g1}"))[0][0], winner);
    assert!(lots(&c.get(&format!("/t/{tid}/rounds/2"))).iter().any(|l| l.purpose == "double_loss"));
}

/// Re-derives every lot on a public pairings page with the crate's public draw function
/// from what the page shows (method, seed, stream, candidates); the candidates must be
/// pairing numbers the page shows beside the players. Returns the purposes seen.
fn replay_public_page(s: &Server, tid: i32, n: i32, zh: bool) -> Vec<String> {
    let mut reader = s.client();
    if zh {
        reader.accept_language = "zh-CN".into();
    }
    let page = reader.get(&format!("/t/{tid}/pairings/{n}"));
    assert_eq!(page.status, 200, "{}", page.body);
    let shown = replayed_lots(&page);
    if zh {
        assert!(page.body.contains("洗牌") && page.body.contains("随机种子"), "{}", page.body);
        assert!(
            page.body.contains("按种子猜先：先跳过一个数") && page.body.contains("状态字12–13"),
            "{}",
            page.body
        );
    }
    shown.iter().map(|l| l.purpose.clone()).collect()
}

#[test]
fn an_outsider_replays_every_lot_from_the_public_pairings_page() {
    let s = Server::start();
    let c = s.first_organizer();
    // Nine players of one rank, colours by lot: round 1's order and halves, round 2's score
    // groups, the bye among equals and the colours are all lots.
    let csv: String = std::iter::once("姓名,拼音,段位,等级分,单位,地区,出生日期,性别,备注\n".to_string())
        .chain((1..=9).map(|i| format!("选手{i},Player {i},2段,,单位{i},北京,,男,\n")))
        .collect();
    let tid = tournament(&c, "抽签重现测试赛", &[("colour_method", "lots")], &csv);
    pair(&c, &s, tid, 1, "2026");
    publish(&c, &s, tid, 1);
    let seen = replay_public_page(&s, tid, 1, false);
    for p in ["round1_order", "round1_upper", "round1_lower"] {
        assert!(seen.iter().any(|x| x == p), "{p} not among {seen:?}");
    }
    replay_public_page(&s, tid, 1, true);
    for board in 1..=4 {
        enter(&c, tid, game_id(&s.db, tid, 1, board), &[("method", "resignation"), ("winner", "black")]);
    }
    pair(&c, &s, tid, 2, "2027");
    publish(&c, &s, tid, 2);
    let seen = replay_public_page(&s, tid, 2, false);
    for p in ["score_group", "bye", "colours"] {
        assert!(seen.iter().any(|x| x == p), "{p} not among {seen:?}");
    }
    replay_public_page(&s, tid, 2, true);

    // Nigiri: equal ranks and no birth dates, so a lot names each holder; a remote nigiri
    // performed from the seed is recorded with the round's lots too.
    let tid = tournament(&c, "猜先重现测试赛", &[("colour_method", "nigiri")], &csv);
    pair(&c, &s, tid, 1, "77");
    publish(&c, &s, tid, 1);
    let gid = game_id(&s.db, tid, 1, 2);
    let pv = query(&s.db, &format!("SELECT pairing_version FROM games WHERE id = {gid}"))[0][0].clone();
    let token = c.get(&format!("/t/{tid}/rounds/1")).csrf();
    let r = c
        .post_form(&format!("/t/{tid}/rounds/1/games/{gid}/remote-nigiri"), &[("csrf", &token), ("pv", &pv)]);
    assert_eq!(r.status, 303, "{}", r.body);
    let seen = replay_public_page(&s, tid, 1, false);
    for p in ["nigiri_holder", "remote_nigiri"] {
        assert!(seen.iter().any(|x| x == p), "{p} not among {seen:?}");
    }
    // The remote nigiri's outcome is the colours the game now has.
    let page = s.client().get(&format!("/t/{tid}/pairings/1"));
    let nigiri = lots(&page).into_iter().find(|l| l.purpose == "remote_nigiri").unwrap();
    let black =
        query(&s.db, &format!("SELECT black_id FROM games WHERE id = {gid}"))[0][0].parse::<i64>().unwrap();
    assert_eq!(nigiri.outcome[0], numbers_of(&s, tid)[&black]);
    replay_public_page(&s, tid, 1, true);
}

/// The outsider's replay (tests/e2e/common/outsider.rs) runs on ChaCha20 written from RFC 8439.
#[test]
fn the_outsiders_block_function_is_chacha20() {
    // RFC 8439 §2.3.2: key 00..1f, nonce 00:00:00:09:00:00:00:4a:00:00:00:00, counter 1 —
    // in the original layout, counter = 1 + (0x09000000 << 32) and stream = 0x4a000000.
    let key: [u8; 32] = std::array::from_fn(|i| i as u8);
    let out = outsider::block(&key, 1 | (0x0900_0000 << 32), 0x4a00_0000);
    assert_eq!(
        out,
        [
            0xe4e7_f110,
            0x1559_3bd1,
            0x1fdd_0f50,
            0xc471_20a3,
            0xc7f4_d1c7,
            0x0368_c033,
            0x9aaa_2204,
            0x4e6c_d4c3,
            0x4664_82d2,
            0x09aa_9f07,
            0x05d7_c214,
            0xa202_8bd9,
            0xd19c_12b5,
            0xb94e_16de,
            0xe883_d0cb,
            0x4e3c_50a2,
        ]
    );
}
