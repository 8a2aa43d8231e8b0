//! One hall (tournament practice: the groups of an event play in one hall, and every table
//! number in the hall is unique in a round): three groups of one event, paired through the
//! forms in a mixed order, each group's tables taking the hall numbers fixed when it is paired;
//! then every place a table number is shown (the staff round page, the public pairings with
//! find-my-table, the public round page's anchors, the results pages, the game page, the player
//! page, the pairing list, the pairings CSV, the table cards) read back for the hall numbers and
//! the group's name, the event's hall-wide pairing list and table cards read back in hall order,
//! and a single-group event's files left as they were.
//!
//! The three tournaments are made through the forms and joined into one event with the one SQL
//! step a test may take (the events pages make groups the same way: a row of `event_groups`).

use crate::common;
use common::readback::squash;
use common::*;

/// Eight entrants of the middle group: names none of the other groups' names contains.
const KYU: &str = "姓名,拼音,段位,等级分,单位,地区,出生日期,性别,备注
马腾飞,Ma Tengfei,1级,2000,北京棋院,北京,1990-01-01,男,
高远山,Gao Yuanshan,2级,1950,上海棋院,上海,1991-01-01,男,
罗晓光,Luo Xiaoguang,3级,1900,杭州棋院,浙江,1992-01-01,男,
梁静怡,Liang Jingyi,4级,1850,广州棋院,广东,1993-01-01,女,
宋立新,Song Lixin,5级,1800,成都棋院,四川,1994-01-01,男,
谢婉清,Xie Wanqing,6级,1750,武汉棋院,湖北,1995-01-01,女,
韩志刚,Han Zhigang,7级,1700,南京棋院,江苏,1996-01-01,男,
唐雨桐,Tang Yutong,8级,1650,西安棋院,陕西,1997-01-01,女,
";

/// Six entrants of the juniors' group.
pub(crate) const JUNIORS: &str = "姓名,拼音,段位,等级分,单位,地区,出生日期,性别,备注
刘小虎,Liu Xiaohu,1段,2100,北京棋院,北京,2014-01-01,男,
陈小龙,Chen Xiaolong,1级,2000,上海棋院,上海,2014-02-01,男,
杨小凤,Yang Xiaofeng,2级,1900,杭州棋院,浙江,2015-01-01,女,
黄小燕,Huang Xiaoyan,3级,1800,广州棋院,广东,2015-02-01,女,
林小峰,Lin Xiaofeng,4级,1700,成都棋院,四川,2016-01-01,男,
何小雨,He Xiaoyu,5级,1600,武汉棋院,湖北,2016-02-01,女,
";

/// A tournament of the shared name with `csv`'s entrants, colours by lot.
fn group(c: &Client, csv: &str) -> i32 {
    let mut f = tournament_fields("天元杯", "Tengen Cup");
    set(&mut f, "colour_method", "lots");
    let tid = new_tournament(c, &f);
    let r = import_file(c, tid, "csv", "players.csv", csv.as_bytes());
    assert_eq!(r.status, 303, "{}", r.body);
    tid
}

/// Join the tournaments into the event of the first, in this hall order, with these names.
fn join(s: &Server, tids: &[i32], names: &[(&str, &str)]) -> i32 {
    let event =
        query_opt(&s.db, &format!("SELECT event_id FROM event_groups WHERE tournament_id = {}", tids[0]))
            .expect("every tournament is a group") as i32;
    for (k, (tid, (zh, latin))) in tids.iter().zip(names).enumerate() {
        exec_sql(
            &s.db,
            &format!(
                "UPDATE event_groups SET event_id = {event}, group_name_zh = '{zh}', \
                 group_name_latin = '{latin}', group_order = {} WHERE tournament_id = {tid}",
                k + 1
            ),
        );
    }
    exec_sql(&s.db, "DELETE FROM events WHERE id NOT IN (SELECT event_id FROM event_groups)");
    event
}

/// (hall number, group's table, Black's Chinese name, game id) of each game of group `tid`'s
/// round `n`, by table, as stored.
fn games(s: &Server, tid: i32, n: u32) -> Vec<(u32, u32, String, i32)> {
    query(
        &s.db,
        &format!(
            "SELECT g.board + r.hall_first - 1, g.board, b.family_name_zh || b.given_name_zh, g.id \
             FROM games g JOIN rounds r ON r.tournament_id = g.tournament_id AND r.number = g.round_number \
             JOIN entrants b ON b.id = g.black_id \
             WHERE g.tournament_id = {tid} AND g.round_number = {n} AND g.white_id IS NOT NULL ORDER BY g.board"
        ),
    )
    .into_iter()
    .map(|r| (r[0].parse().unwrap(), r[1].parse().unwrap(), r[2].clone(), r[3].parse().unwrap()))
    .collect()
}

/// The table numbers of a public pairings or results page, in its order (byes left out).
fn page_tables(body: &str) -> Vec<u32> {
    body.split("<td class=\"board\">")
        .skip(1)
        .filter_map(|rest| rest[..rest.find("</td>").unwrap()].parse().ok())
        .collect()
}

/// Tournament practice (one hall, one numbering): three groups paired in a mixed order take
/// consecutive hall numbers in hall order (the strongest first), fixed when each is paired,
/// never one number twice in the round; each group's pages, find-my-table, game page, results
/// pages, pairing list, pairings CSV and table cards show the hall numbers and name the group.
#[test]
fn three_groups_share_one_halls_numbers() {
    let s = Server::start();
    let c = s.first_organizer();
    let public = s.client();
    let tids = [group(&c, ELEVEN), group(&c, KYU), group(&c, JUNIORS)];
    let event = join(&s, &tids, &[("业余高段组", "Dan"), ("业余低段组", "Kyu"), ("少儿组", "Juniors")]);
    let [dan, kyu, junior] = tids;

    // The juniors first: they reserve after the others' expected tables (6 and 4); then the
    // strongest group, then the middle one, which fits between.
    pair_round(&c, junior, 1, "20261205");
    pair_round(&c, dan, 1, "20261205");
    pair_round(&c, kyu, 1, "20261205");
    let firsts: Vec<i64> = tids
        .iter()
        .map(|t| {
            query_opt(&s.db, &format!("SELECT hall_first FROM rounds WHERE tournament_id = {t}")).unwrap()
        })
        .collect();
    assert_eq!(firsts, [1, 6, 11]);
    let all: Vec<Vec<(u32, u32, String, i32)>> = tids.iter().map(|&t| games(&s, t, 1)).collect();
    let halls: Vec<u32> = all.iter().flatten().map(|g| g.0).collect();
    assert_eq!(halls, [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13], "unique and in hall order");

    // The staff round page: the hall number, the group's own table beside it.
    let page = c.get(&format!("/t/{junior}/rounds/1"));
    assert!(page.body.contains("id=\"game-11\"") && page.body.contains("id=\"game-13\""), "{}", page.body);
    assert!(page.body.contains("<small class=\"group-table\">(1)</small>"), "{}", page.body);
    // It links the hall's lists of the round.
    for link in [
        format!("/e/{event}/rounds/1/pairings.pdf?order=table"),
        format!("/e/{event}/rounds/1/table-cards.pdf"),
    ] {
        assert!(page.body.contains(&format!("href=\"{link}")), "{link}: {}", page.body);
    }
    // Paired again, the draft's range is computed again: right after the groups before it,
    // now paired (a draft's numbers are not given out yet).
    let v = query(&s.db, &format!("SELECT version FROM rounds WHERE tournament_id = {junior}"))[0][0].clone();
    let r = c.submit(
        &format!("/t/{junior}/rounds/1"),
        &format!("/t/{junior}/rounds/1/pair"),
        &[("seed", "7"), ("version", v.as_str()), ("confirm", "on")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(
        query_opt(&s.db, &format!("SELECT version FROM rounds WHERE tournament_id = {junior}")),
        Some(2)
    );
    assert_eq!(games(&s, junior, 1).iter().map(|g| g.0).collect::<Vec<_>>(), [10, 11, 12]);

    // Published group by group: the public sees the published groups only, in the hall's list.
    publish_round(&s, &c, dan, 1);
    publish_round(&s, &c, kyu, 1);
    let (_, back) = documents::pdf(&public, &format!("/e/{event}/rounds/1/pairings.pdf?lang=zh"));
    let text = squash(&back.all_text());
    assert!(text.contains("业余高段组") && text.contains("业余低段组") && !text.contains("少儿组"), "{text}");
    let (_, back) = documents::pdf(&c, &format!("/e/{event}/rounds/1/pairings.pdf?lang=zh"));
    assert!(squash(&back.all_text()).contains("少儿组"), "staff see the juniors' draft");
    publish_round(&s, &c, junior, 1);
    let all: Vec<Vec<(u32, u32, String, i32)>> = tids.iter().map(|&t| games(&s, t, 1)).collect();

    // Every group's public pairings show its hall numbers; find-my-table finds the hall number.
    for (tid, gs) in tids.iter().zip(&all) {
        let p = public.get(&format!("/t/{tid}/pairings?round=1"));
        assert_eq!(page_tables(&p.body), gs.iter().map(|g| g.0).collect::<Vec<_>>(), "{}", p.body);
        let p = public.get(&format!("/t/{tid}/results?round=1"));
        assert_eq!(page_tables(&p.body), gs.iter().map(|g| g.0).collect::<Vec<_>>());
    }
    let (hall, _, name, gid) = all[2][1].clone();
    let q: String = name.bytes().map(|b| format!("%{b:02X}")).collect();
    let found = public.get(&format!("/t/{junior}/pairings?round=1&q={q}"));
    assert!(
        found.body.contains(&format!("class=\"found\"><td class=\"board\">{hall}</td>")),
        "{}",
        found.body
    );
    let round_page = public.get(&format!("/t/{junior}/pairings/1"));
    assert!(round_page.body.contains(&format!("id=\"table-{hall}\"")), "{}", round_page.body);
    let game = c.get(&format!("/t/{junior}/games/{gid}"));
    assert!(game.body.contains(&format!("Round 1, board {hall}")), "{}", game.body);
    let results = c.get(&format!("/t/{junior}/results/rounds/1"));
    assert!(results.body.contains(&format!("<td>{hall}</td>")), "{}", results.body);
    let eid = query_opt(&s.db, &format!("SELECT black_id FROM games WHERE id = {gid}")).unwrap();
    let player = public.get(&format!("/t/{junior}/players/{eid}"));
    assert!(player.body.contains(&format!("<td class=\"wide\">{hall}</td>")), "{}", player.body);

    // The group's pairing list names the group and lists the hall numbers.
    let (r, back) = documents::pdf(&public, &format!("/t/{junior}/pairings/1/pairings.pdf?lang=zh"));
    let text = squash(&back.all_text());
    assert!(text.contains("天元杯·少儿组"), "{text}");
    for (hall, _, name, _) in &all[2] {
        assert!(text.contains(&format!("{hall}{name}")), "{hall} {name}: {text}");
    }
    assert!(r.header("content-disposition").unwrap().contains("Tengen-Cup-Juniors"), "{:?}", r.headers);
    // The pairings CSV: the group's table as before, the hall number in a last column.
    let r = c.get(&format!("/t/{junior}/rounds/1/pairings.csv?lang=zh"));
    let recs = documents::csv_records(&r.bytes);
    assert_eq!((recs[0][0].as_str(), recs[0].last().unwrap().as_str()), ("台号", "赛场台号"));
    let cells: Vec<(String, String)> =
        recs[1..].iter().map(|r| (r[0].clone(), r.last().unwrap().clone())).collect();
    let stored: Vec<(String, String)> = all[2].iter().map(|g| (g.1.to_string(), g.0.to_string())).collect();
    assert_eq!(cells, stored);
    // Its scoresheets and record sheets: the group named, each sheet at its hall table.
    for doc in ["scoresheets.pdf?per_page=4", "record-sheets.pdf?paper=a4"] {
        let (_, back) = documents::pdf(&c, &format!("/t/{junior}/rounds/1/{doc}&lang=zh"));
        let text = squash(&back.all_text());
        assert!(text.contains("天元杯·少儿组"), "{doc}: {text}");
        for (hall, _, _, _) in &all[2] {
            assert!(text.contains(&format!("台号{hall}")), "{doc}: table {hall}: {text}");
        }
    }
    // Its table cards: the group named, one card per table.
    let (_, back) = documents::pdf(&c, &format!("/t/{junior}/rounds/1/table-cards.pdf?format=a6&lang=zh"));
    assert!(squash(&back.all_text()).contains("天元杯·少儿组"));

    // Its standings, OpenGotha file and EGF file name the group too.
    let (_, back) = documents::pdf(&public, &format!("/t/{junior}/standings.pdf?lang=zh"));
    assert!(squash(&back.all_text()).contains("天元杯·少儿组"));
    let og = c.get(&format!("/t/{junior}/export/opengotha.xml"));
    assert_eq!(og.status, 200);
    assert!(og.body.contains("天元杯 · 少儿组"), "{}", og.body);
    for (_, _, _, gid) in &all[2] {
        enter(&c, junior, *gid, &[("method", "resignation"), ("winner", "black")]);
    }
    let (_, back) = documents::pdf(&public, &format!("/t/{junior}/pairings/1/results-notice.pdf?lang=zh"));
    let text = squash(&back.all_text());
    assert!(text.contains("天元杯·少儿组"), "{text}");
    for (hall, _, name, _) in &all[2] {
        assert!(text.contains(&format!("{hall}{name}")), "the notice by hall number: {hall} {name}: {text}");
    }
    let recs = documents::csv_records(&public.get(&format!("/t/{junior}/results.csv?lang=zh")).bytes);
    assert_eq!(recs[0].last().unwrap(), "赛场台号");
    let cells: Vec<(String, String)> =
        recs[1..].iter().map(|r| (r[1].clone(), r.last().unwrap().clone())).collect();
    assert_eq!(cells, stored, "the results file: the group's table, then the hall's");
    let egf = c.get(&format!("/t/{junior}/export/egf.h9"));
    assert!(egf.body.contains("; EV[Tengen Cup - Juniors]"), "{}", egf.body);

    // The hall's pairing list: every group's tables by hall number, each naming its group.
    let (_, back) = documents::pdf(&public, &format!("/e/{event}/rounds/1/pairings.pdf?lang=zh"));
    let text = back.all_text();
    let names: Vec<&str> = all.iter().flatten().map(|g| g.2.as_str()).collect();
    let rows = documents::pdf_rows(&text, &names);
    let groups = ["业余高段组", "业余低段组", "少儿组"];
    let squashed = squash(&text);
    for (k, gs) in all.iter().enumerate() {
        for (hall, _, name, _) in gs {
            assert!(squashed.contains(&format!("{hall}{}{name}", groups[k])), "{hall} {name}: {squashed}");
        }
    }
    assert_eq!(rows.len(), 12);
    // The hall's table cards: every group's, by hall number, each naming its group.
    let (_, back) = documents::pdf(&c, &format!("/e/{event}/rounds/1/table-cards.pdf?format=a6&lang=zh"));
    assert_eq!(back.pages.len(), 3, "twelve cards, four to a page");
    let text = squash(&back.all_text());
    for g in groups {
        assert!(text.contains(&format!("天元杯·{g}")), "{g}: {text}");
    }
    let at: Vec<usize> = names.iter().map(|n| text.find(n).unwrap()).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "cards in hall order: {at:?}");
}

/// Tournament practice (one hall): a tournament alone in its event keeps its table numbers and
/// its files (no hall column, no group named), whatever other events' groups do.
#[test]
fn a_single_group_keeps_its_files() {
    let s = Server::start();
    let c = s.first_organizer();
    let alone = group(&c, ELEVEN);
    pair_round(&c, alone, 1, "20261205");
    publish_round(&s, &c, alone, 1);
    let csv = |c: &Client| c.get(&format!("/t/{alone}/pairings/1/pairings.csv?lang=zh")).bytes;
    let before = csv(&c);
    let pdf_before =
        squash(&documents::pdf(&c, &format!("/t/{alone}/pairings/1/pairings.pdf?lang=zh")).1.all_text());
    // Another event of three groups, paired.
    let tids = [group(&c, KYU), group(&c, JUNIORS), group(&c, ELEVEN)];
    join(&s, &tids, &[("业余低段组", "Kyu"), ("少儿组", "Juniors"), ("业余高段组", "Dan")]);
    for t in tids.iter().rev() {
        pair_round(&c, *t, 1, "20261205");
    }
    assert_eq!(csv(&c), before, "byte-identical");
    let results = documents::csv_records(&c.get(&format!("/t/{alone}/results.csv?lang=zh")).bytes);
    assert_eq!(results[0].len(), 14, "no hall column: {:?}", results[0]);
    let page = c.get(&format!("/t/{alone}/rounds/1"));
    assert!(page.body.contains("id=\"game-1\"") && !page.body.contains("print-hall-pairings"));
    assert!(!page.body.contains("group-table"), "no second number beside its tables");
    let recs = documents::csv_records(&before);
    assert_eq!(recs[0].len(), 13, "no hall column: {:?}", recs[0]);
    let stored: Vec<String> = games(&s, alone, 1).iter().map(|g| g.1.to_string()).collect();
    let tables: Vec<String> = recs[1..].iter().map(|r| r[0].clone()).filter(|t| t != "0").collect();
    assert_eq!(tables, stored);
    assert!(games(&s, alone, 1).iter().all(|g| g.0 == g.1), "its hall numbers are its tables");
    let pdf_after =
        squash(&documents::pdf(&c, &format!("/t/{alone}/pairings/1/pairings.pdf?lang=zh")).1.all_text());
    assert_eq!(pdf_after, pdf_before);
    assert!(!pdf_after.contains("天元杯·"), "no group named: {pdf_after}");
}
