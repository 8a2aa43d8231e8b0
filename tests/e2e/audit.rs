//! The readable audit over HTTP: an event made, entrants added, a round
//! paired and a result entered, then the audit page read in Chinese and English — sentences
//! naming the players and the round, the filters narrowing the rows, pages of 100 by id, the
//! raw JSON only inside a "details" toggle, bad filters refused in the reader's language.

use crate::common;
use common::*;

/// The sentences of an audit page, in order.
fn sentences(r: &Resp) -> Vec<String> {
    r.body
        .split("class=\"audit-sentence\">")
        .skip(1)
        .map(|s| plain_text(&s[..s.find("</span>").expect("sentence ends")]))
        .collect()
}

/// The row ids of an audit page, in order.
fn row_ids(r: &Resp) -> Vec<i64> {
    r.body
        .split("<tr class=\"audit-row\" id=\"audit-")
        .skip(1)
        .map(|s| s[..s.find('"').unwrap()].parse().unwrap())
        .collect()
}

/// The href of the element with `id`, unescaped.
fn href(r: &Resp, id: &str) -> Option<String> {
    let i = r.body.find(&format!("id=\"{id}\""))?;
    let open = r.body[..i].rfind("<a ")?;
    let tag = &r.body[open..i];
    let start = tag.find("href=\"")? + 6;
    Some(unescape(&tag[start..start + tag[start..].find('"')?]))
}

fn get_ok(c: &Client, path: &str) -> Resp {
    let r = c.get(path);
    assert_eq!(r.status, 200, "GET {path}: {}", r.body);
    r
}

#[test]
fn the_audit_reads_as_sentences_filters_and_pages() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = tournament_with_players(&c, "审计测试赛", "Audit Open", &[("colour_method", "lots")], 4);
    assert_eq!(add_entrant(&c, tid, "钱", "五", "1段").status, 303);
    let qian = query_opt(
        &s.db,
        &format!("SELECT id FROM entrants WHERE tournament_id = {tid} AND family_name_zh = '钱'"),
    )
    .unwrap();
    pair_round(&c, tid, 1, "20261202");
    let gid = game_id(&s.db, tid, 1, 1);
    enter(&c, tid, gid, &[("method", "resignation"), ("winner", "black")]);
    let name = |col: &str| {
        query_text(
            &s.db,
            &format!("SELECT e.family_name_zh || e.given_name_zh FROM games g JOIN entrants e ON e.id = g.{col} WHERE g.id = {gid}"),
        )
        .unwrap()
    };
    let (black, white) = (name("black_id"), name("white_id"));
    let audit = format!("/t/{tid}/audit");

    // Chinese: who did what to whom, with the player and round named; no raw action words.
    let zh = c.in_chinese();
    let page = get_ok(&zh, &audit);
    let said = sentences(&page);
    let has = |all: &[String], part: &str| all.iter().any(|x| x.contains(part));
    assert!(has(&said, "org添加了选手钱五"), "{said:#?}");
    assert!(has(&said, "org编排了第1轮"), "{said:#?}");
    let result = format!("org登记了第1轮第1台（{black} – {white}）的成绩");
    assert!(has(&said, &result), "{result} in {said:#?}");
    assert!(has(&said, "org创建了赛事审计测试赛"), "{said:#?}");
    let raw =
        ["create", "update", "pair", "enter", "result", "round", "entrant", "import", "tournament", "record"];
    for x in &said {
        let words: Vec<&str> =
            x.split(|c: char| !c.is_ascii_alphabetic()).filter(|w| !w.is_empty()).collect();
        assert!(words.iter().all(|w| *w == "org"), "English in a Chinese sentence: {x}");
        assert!(!raw.iter().any(|w| x.contains(w)), "{x}");
    }
    // The times are the event's, its zone named (whatever the server's zone is here).
    let zone = query_text(&s.db, &format!("SELECT time_zone FROM tournaments WHERE id = {tid}")).unwrap();
    assert!(page.body.contains(&format!("<th>时间（{zone}）</th>")), "{}", page.body);
    // The raw before/after only inside a details toggle.
    assert!(page.body.contains("<summary>详情</summary>"));
    let jsons: Vec<usize> = page.body.match_indices("<code class=\"json\">").map(|(i, _)| i).collect();
    assert!(!jsons.is_empty());
    for i in jsons {
        let before = &page.body[..i];
        let (open, close) = (before.rfind("<details"), before.rfind("</details>"));
        assert!(open.is_some() && open > close, "JSON outside a details element at {i}");
    }
    assert!(!page.body.contains("<script>"), "no inline script");

    // English: the same sentences in English.
    let en = sentences(&get_ok(&c, &audit));
    assert!(has(&en, "org added the entrant 钱五"), "{en:#?}");
    assert!(has(&en, "org paired round 1"), "{en:#?}");
    assert!(has(&en, "org entered the result of round 1, board 1 ("), "{en:#?}");

    // Filters narrow the rows.
    let total = said.len();
    let round1 = sentences(&get_ok(&zh, &format!("{audit}?round=1")));
    assert!(!round1.is_empty() && round1.len() < total, "{round1:#?}");
    assert!(round1.iter().all(|x| x.contains("第1轮")), "{round1:#?}");
    let kind = sentences(&get_ok(&zh, &format!("{audit}?kind=result_enter")));
    // The result entered is named after the sentence ("…的成绩：黑中盘胜").
    assert!(kind.len() == 1 && kind[0].starts_with(&format!("{result}：")), "{kind:#?}");
    let game = sentences(&get_ok(&zh, &format!("{audit}?game={gid}")));
    assert!(
        game.iter().any(|x| x.starts_with(&result)) && game.iter().all(|x| x.contains("第1台")),
        "{game:#?}"
    );
    let person = sentences(&get_ok(&zh, &format!("{audit}?entrant={qian}")));
    assert!(has(&person, "添加了选手钱五") && !has(&person, "编排了"), "{person:#?}");
    let org = query_opt(&s.db, "SELECT id FROM users WHERE username = 'org'").unwrap();
    assert_eq!(sentences(&get_ok(&zh, &format!("{audit}?actor={org}"))).len(), total);
    assert!(sentences(&get_ok(&zh, &format!("{audit}?actor={}", org + 100))).is_empty());
    // Filters combine; the form's empty choices mean "all".
    let both = sentences(&get_ok(&zh, &format!("{audit}?round=1&kind=round_pair&entrant=&actor=")));
    assert_eq!(both, vec!["org编排了第1轮".to_string()]);

    // Bad filter values: 400 in the reader's language.
    for q in ["round=abc", "game=-3", "entrant=0", "before=x", "kind=nope", "actor=1.5"] {
        let r = zh.get(&format!("{audit}?{q}"));
        assert_eq!(r.status, 400, "{q}: {}", r.body);
        assert!(r.body.contains("筛选条件"), "{q}: {}", r.body);
        let r = c.get(&format!("{audit}?{q}"));
        assert_eq!(r.status, 400, "{q}");
        assert!(r.body.contains("audit filter"), "{q}: {}", r.body);
    }

    // Paging: 250 more rows (standing in for a long event), read 100 at a time by id.
    exec_sql(
        &s.db,
        &format!(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 250)
             INSERT INTO audit (tournament_id, user_id, actor, at, action, entity, entity_id, before, after, reason)
             SELECT {tid}, {org}, 'org', '2026-12-02 12:00:00', 'update', 'entrant', {qian}, '{{}}', '{{}}', '' FROM n"
        ),
    );
    let all = count_rows(&s.db, &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid}"));
    let mut path = audit.clone();
    let mut seen = Vec::new();
    let mut pages = 0;
    loop {
        let p = get_ok(&zh, &path);
        let ids = row_ids(&p);
        assert!(ids.len() <= 100, "{}", ids.len());
        seen.extend(ids);
        pages += 1;
        assert_eq!(href(&p, "audit-newest").is_some(), pages > 1, "a later page links back to the newest");
        match href(&p, "audit-older") {
            Some(next) => {
                assert_eq!(row_ids(&p).len(), 100, "a full page before an older one");
                path = next;
            }
            None => break,
        }
    }
    assert_eq!(seen.len() as i64, all, "every row once");
    assert!(seen.windows(2).all(|w| w[0] > w[1]), "newest first, no row twice");
    assert_eq!(pages, (all + 99) / 100);
    // Paging keeps the filter.
    let p = get_ok(&zh, &format!("{audit}?entrant={qian}"));
    let older = href(&p, "audit-older").expect("more than a page about 钱五");
    assert!(older.contains(&format!("entrant={qian}")) && older.contains("before="), "{older}");
    let next = get_ok(&zh, &older);
    assert!(sentences(&next).iter().all(|x| x.contains("钱五")));
}
