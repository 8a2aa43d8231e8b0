//! Results over HTTP: every result kind, every ruling effect, lateness at the limits of both
//! regimes, a version conflict, a locked result and the chief arbiter, refusals.

use crate::common;
use common::*;

const FAMILIES: [&str; 20] = [
    "赵", "钱", "孙", "李", "周", "吴", "郑", "王", "冯", "陈", "褚", "卫", "蒋", "沈", "韩", "杨", "朱",
    "秦", "尤", "许",
];

fn players(n: usize) -> Vec<OgPlayer<'static>> {
    FAMILIES.iter().take(n).map(|f| (*f, "棋手", "1D")).collect()
}

/// A tournament with `n` players and round 1 paired 0–1, 2–3, … on boards 1, 2, …; an odd
/// player out gets a bye. `fields` change the tournament form first.
fn setup(s: &Server, c: &Client, n: usize, fields: &[(&str, &str)]) -> i32 {
    let mut f = tournament_fields("成绩测试赛", "Results Open");
    for (k, v) in fields {
        set(&mut f, k, v);
    }
    let r = c.submit("/t/new", "/t/new", &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    let tid: i32 = r.location().trim_start_matches("/t/").parse().unwrap();
    let games: Vec<(u32, u32, usize, usize)> =
        (0..n / 2).map(|i| (1, i as u32 + 1, 2 * i, 2 * i + 1)).collect();
    let byes: Vec<(u32, usize)> = if n % 2 == 1 { vec![(1, n - 1)] } else { vec![] };
    import_og(c, tid, &og_xml(&players(n), &games, &byes, 3));
    let _ = s;
    tid
}

fn result_text(c: &Client, tid: i32, gid: i32) -> String {
    text_of(&c.get(&format!("/t/{tid}/games/{gid}")), "result").unwrap_or_default()
}

#[test]
fn every_result_kind_is_entered_over_http() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = setup(&s, &c, 19, &[]);
    let g = |board| game_id(&s.db, tid, 1, board);
    let version = |gid: i32| query_opt(&s.db, &format!("SELECT version FROM results WHERE game_id = {gid}"));

    // By count: Black 184.5 at komi 3¾ wins by ¼ stone (rules.md §3.2).
    let g1 = g(1);
    // Preview first: the result is shown, nothing is written.
    let p =
        game_post(&c, tid, g1, "result", &[("do", "preview"), ("method", "count"), ("black_count", "184.5")]);
    assert_eq!(p.status, 200, "{}", p.body);
    assert!(p.body.contains("Result: B+¼"), "{}", p.body);
    assert_eq!(version(g1), None, "a preview writes nothing");
    // Bad counts: a message beside the field, a 4xx, nothing written.
    for (black, white, field) in [
        ("184.3", "", "black_count"),
        ("abc", "", "black_count"),
        ("400", "", "black_count"),
        ("-3", "", "black_count"),
        ("99999999999", "", "black_count"),
        ("184.5", "177", "white_count"),
        ("", "", "black_count"),
    ] {
        let r = game_post(
            &c,
            tid,
            g1,
            "result",
            &[("do", "save"), ("method", "count"), ("black_count", black), ("white_count", white)],
        );
        assert_eq!(r.status, 400, "{black}/{white}: {}", r.body);
        assert!(r.field_error(field).is_some(), "{black}/{white}: no message beside {field}");
    }
    assert_eq!(version(g1), None);
    let page = enter(&c, tid, g1, &[("method", "count"), ("black_count", "184.5"), ("white_count", "176.5")]);
    assert_eq!(text_of(&page, "result").as_deref(), Some("B+¼"));
    assert_eq!(
        query_text(&s.db, &format!("SELECT method FROM results WHERE game_id = {g1}")).as_deref(),
        Some("count")
    );
    assert_eq!(
        query_opt(&s.db, &format!("SELECT black_halves FROM results WHERE game_id = {g1}")),
        Some(369)
    );
    assert_eq!(query_opt(&s.db, &format!("SELECT margin_q FROM results WHERE game_id = {g1}")), Some(1));
    assert_eq!(
        query_text(&s.db, &format!("SELECT winner FROM results WHERE game_id = {g1}")).as_deref(),
        Some("black")
    );
    assert_eq!(
        query_text(&s.db, &format!("SELECT result FROM games WHERE id = {g1}")).as_deref(),
        Some("RESULT_BLACKWINS"),
        "the OpenGotha code is kept in step"
    );
    // White's count alone stands for the rest of the board: White 177 → Black 184 → W+¼.
    let g2 = g(2);
    enter(&c, tid, g2, &[("method", "count"), ("white_count", "177")]);
    assert_eq!(result_text(&c, tid, g2), "W+¼");

    type Fields<'a> = &'a [(&'a str, &'a str)];
    let cases: [(u32, Fields, &str, &str); 5] = [
        (3, &[("method", "resignation"), ("winner", "white")], "W+R", "RESULT_WHITEWINS"),
        (4, &[("method", "time"), ("winner", "black")], "B+T", "RESULT_BLACKWINS"),
        (5, &[("method", "forfeit"), ("winner", "white")], "W+F (forfeit)", "RESULT_WHITEWINS_BYDEF"),
        (6, &[("method", "lateness"), ("winner", "black")], "B+F (lateness)", "RESULT_BLACKWINS_BYDEF"),
        (
            7,
            &[("method", "double_loss"), ("dl_reason", "both_late")],
            "Double loss (both players late beyond the limit, Art. 22.3)",
            "RESULT_BOTHLOSE_BYDEF",
        ),
    ];
    for (board, fields, shown, code) in cases {
        let gid = g(board);
        enter(&c, tid, gid, fields);
        assert_eq!(result_text(&c, tid, gid), shown, "board {board}");
        assert_eq!(
            query_text(&s.db, &format!("SELECT result FROM games WHERE id = {gid}")).as_deref(),
            Some(code)
        );
    }
    // A winner is required.
    let r = game_post(&c, tid, g(8), "result", &[("do", "save"), ("method", "resignation")]);
    assert_eq!(r.status, 400);
    assert!(r.field_error("winner").is_some());
    enter(&c, tid, g(8), &[("method", "draw")]);
    assert_eq!(result_text(&c, tid, g(8)), "Draw");

    // No result, replayed with the remaining time noted: the replay game is created.
    let g9 = g(9);
    let bad = game_post(
        &c,
        tid,
        g9,
        "result",
        &[("do", "save"), ("method", "no_result"), ("clock_black", "45:00"), ("clock_white", "x")],
    );
    assert_eq!(bad.status, 400);
    assert!(bad.field_error("clock_white").is_some());
    let page =
        enter(&c, tid, g9, &[("method", "no_result"), ("clock_black", "45:00"), ("clock_white", "1:02:30")]);
    assert_eq!(text_of(&page, "result").as_deref(), Some("No result"));
    let replay =
        query_opt(&s.db, &format!("SELECT id FROM games WHERE replay_of = {g9}")).expect("replay") as i32;
    assert_eq!(
        query_opt(&s.db, &format!("SELECT clock_black_secs FROM results WHERE game_id = {replay}")),
        Some(2700)
    );
    assert_eq!(
        query_opt(&s.db, &format!("SELECT clock_white_secs FROM results WHERE game_id = {replay}")),
        Some(3750)
    );
    let rp = c.get(&format!("/t/{tid}/games/{replay}"));
    assert!(rp.body.contains("Black 45:00, White 1:02:30"), "{}", rp.body);
    enter(&c, tid, replay, &[("method", "resignation"), ("winner", "black")]);
    // With the replay decided, the original cannot be turned into something else.
    let r = game_post(&c, tid, g9, "result", &[("do", "save"), ("method", "draw")]);
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains(&format!("#{replay}")));

    // Replay ordered, then withdrawn before the replay has a result: the replay game goes.
    let g2r = g(2);
    enter(&c, tid, g2r, &[("method", "replay")]);
    assert_eq!(result_text(&c, tid, g2r), "Replay ordered");
    let replay2 = query_opt(&s.db, &format!("SELECT id FROM games WHERE replay_of = {g2r}")).expect("replay");
    enter(&c, tid, g2r, &[("method", "count"), ("black_count", "185")]);
    assert_eq!(result_text(&c, tid, g2r), "B+¾");
    assert_eq!(count_rows(&s.db, &format!("SELECT count(*) FROM games WHERE id = {replay2}")), 0);

    // The bye: only a game with one player takes it, and it takes nothing else.
    let bye = game_id(&s.db, tid, 1, 0);
    let r =
        game_post(&c, tid, bye, "result", &[("do", "save"), ("method", "count"), ("black_count", "184.5")]);
    assert_eq!(r.status, 400);
    assert!(r.field_error("method").is_some());
    enter(&c, tid, bye, &[("method", "bye")]);
    assert_eq!(result_text(&c, tid, bye), "Bye");
    let r = game_post(&c, tid, g(3), "result", &[("do", "save"), ("method", "bye")]);
    assert_eq!(r.status, 400);
    // An unknown method is refused beside the field.
    let r = game_post(&c, tid, g(3), "result", &[("do", "save"), ("method", "lottery")]);
    assert_eq!(r.status, 400);
    assert!(r.field_error("method").is_some());

    // Every write is audited.
    assert!(
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid} AND entity = 'result'")
        ) >= 13
    );
    // The public results page shows them all, in Chinese too.
    let public = s.client();
    let r = public.get(&format!("/t/{tid}/results?round=1"));
    assert_eq!(r.status, 200);
    for t in ["B+¼", "W+R", "B+T", "W+F (forfeit)", "Double loss", "Draw", "No result", "B+¾"] {
        assert!(r.body.contains(t), "{t} missing");
    }
    let mut zh = s.client();
    zh.accept_language = "zh-CN".into();
    let r = zh.get(&format!("/t/{tid}/results?round=1"));
    for t in ["黑胜¼子", "白中盘胜", "白胜（黑弃权）", "双方均负", "和棋", "无胜负", "轮空"]
    {
        assert!(r.body.contains(t), "{t} missing: {}", r.body);
    }
}

#[test]
fn every_ruling_effect_is_shown_before_saving_and_applied() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = setup(&s, &c, 16, &[]);
    let g = |board| game_id(&s.db, tid, 1, board);
    let rule = |gid: i32, fields: &[(&str, &str)]| {
        let mut f = vec![("do", "save")];
        f.extend_from_slice(fields);
        let r = game_post(&c, tid, gid, "rulings", &f);
        assert_eq!(r.status, 303, "{}", r.body);
        c.get(&format!("/t/{tid}/games/{gid}"))
    };
    let n_rulings =
        |gid: i32| count_rows(&s.db, &format!("SELECT count(*) FROM rulings WHERE game_id = {gid}"));

    // A first warning: shown before saving, nothing saved by the preview.
    let g1 = g(1);
    enter(&c, tid, g1, &[("method", "count"), ("black_count", "180")]);
    let p = game_post(
        &c,
        tid,
        g1,
        "rulings",
        &[
            ("do", "preview"),
            ("kind", "warning"),
            ("against", "black"),
            ("move_number", "50"),
            ("at_time", "10:15"),
            ("reason", "提子后未按钟"),
        ],
    );
    assert_eq!(p.status, 200, "{}", p.body);
    assert!(p.body.contains("Warning to Black at move 50 (1st of 2 that lose the game)"), "{}", p.body);
    assert_eq!(n_rulings(g1), 0, "a preview writes nothing");
    let page = rule(
        g1,
        &[
            ("kind", "warning"),
            ("against", "black"),
            ("move_number", "50"),
            ("at_time", "10:15"),
            ("reason", "提子后未按钟"),
        ],
    );
    assert_eq!(text_of(&page, "result").as_deref(), Some("W+4¼"), "one warning changes nothing");
    assert!(page.body.contains("提子后未按钟") && page.body.contains("10:15"));
    // The second warning loses the game (rules.md §11.1), over the count.
    let p = game_post(
        &c,
        tid,
        g1,
        "rulings",
        &[("do", "preview"), ("kind", "warning"), ("against", "black"), ("move_number", "120")],
    );
    assert!(
        p.body.contains("2nd warning to Black at move 120: 2 warnings lose the game, Black loses"),
        "{}",
        p.body
    );
    let page = rule(g1, &[("kind", "warning"), ("against", "black"), ("move_number", "120")]);
    assert_eq!(text_of(&page, "result").as_deref(), Some("W+F (accumulated warnings)"));
    assert_eq!(
        query_opt(&s.db, &format!("SELECT warnings_black FROM results WHERE game_id = {g1}")),
        Some(2)
    );
    // Deleting a warning gives the count back.
    let rid = query_opt(&s.db, &format!("SELECT max(id) FROM rulings WHERE game_id = {g1}")).unwrap();
    let r = game_post(&c, tid, g1, &format!("rulings/{rid}/delete"), &[]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(result_text(&c, tid, g1), "W+4¼");

    // Two consecutive moves (the offence): the rules prescribe a void move and a warning.
    let g2 = g(2);
    let page = rule(g2, &[("offence", "double_move"), ("against", "white"), ("move_number", "31")]);
    assert!(
        page.body.contains("White&#39;s move 31 is void") || page.body.contains("White's move 31 is void"),
        "{}",
        page.body
    );
    assert!(page.body.contains("Warning to White at move 31"));
    assert_eq!(n_rulings(g2), 2);
    // Ko retaken without a threat: void, one forced pass, a warning — the second warning loses.
    let page = rule(g2, &[("offence", "ko_without_threat"), ("against", "white"), ("move_number", "88")]);
    assert!(page.body.contains("White loses one turn at move 88"), "{}", page.body);
    assert_eq!(text_of(&page, "result").as_deref(), Some("B+F (accumulated warnings)"));

    // Penalty stones move area: Black 185 with one stone against Black → 184 → W+¼ (§3.5).
    let g3 = g(3);
    enter(&c, tid, g3, &[("method", "count"), ("black_count", "185")]);
    assert_eq!(result_text(&c, tid, g3), "B+¾");
    let page = rule(
        g3,
        &[("kind", "penalty_stones"), ("stones", "1"), ("against", "black"), ("move_number", "200")],
    );
    assert_eq!(text_of(&page, "result").as_deref(), Some("W+¼"));
    assert!(page.body.contains("Black counted 185; penalty stones Black 1, White 0 → W+¼"), "{}", page.body);
    assert_eq!(query_opt(&s.db, &format!("SELECT penalty_black FROM results WHERE game_id = {g3}")), Some(1));
    // Bad stones and bad moves are refused beside their field.
    for (field, fields) in [
        (
            "stones",
            vec![("kind", "penalty_stones"), ("stones", "0"), ("against", "black"), ("move_number", "1")],
        ),
        ("move_number", vec![("kind", "warning"), ("against", "black"), ("move_number", "abc")]),
        (
            "at_time",
            vec![("kind", "warning"), ("against", "black"), ("move_number", "1"), ("at_time", "25:99")],
        ),
        ("against", vec![("kind", "warning"), ("move_number", "1")]),
        ("kind", vec![("kind", "nonsense"), ("against", "black"), ("move_number", "1")]),
        ("kind", vec![("kind", "yellow_card"), ("against", "black"), ("move_number", "1")]),
        ("offence", vec![("offence", "leaving_seat"), ("against", "black"), ("move_number", "1")]),
    ] {
        let mut f = vec![("do", "save")];
        f.extend(fields);
        let r = game_post(&c, tid, g3, "rulings", &f);
        assert_eq!(r.status, 400, "{field}: {}", r.body);
        assert!(r.field_error(field).is_some(), "no message beside {field}: {}", r.body);
    }
    assert_eq!(n_rulings(g3), 1);

    // A loss by ruling decides the game; another decision is then refused.
    let g4 = g(4);
    let page =
        rule(g4, &[("offence", "intentional_stone_moving"), ("against", "white"), ("move_number", "140")]);
    assert_eq!(text_of(&page, "result").as_deref(), Some("B+F (intentional stone moving)"));
    let r = game_post(&c, tid, g4, "result", &[("do", "save"), ("method", "draw")]);
    assert_eq!(r.status, 400);
    assert!(r.body.contains("A ruling already decides this game"), "{}", r.body);
    // Double loss and draw by ruling; a later decision has no effect.
    let page = rule(g(5), &[("kind", "double_loss.stone_moved"), ("move_number", "77")]);
    assert_eq!(
        text_of(&page, "result").as_deref(),
        Some("Double loss (a moved stone, no agreement, Art. 17.5)")
    );
    let page = rule(g(6), &[("kind", "draw"), ("move_number", "60")]);
    assert_eq!(text_of(&page, "result").as_deref(), Some("Draw"));
    let page = rule(g(6), &[("kind", "replay"), ("move_number", "61")]);
    assert!(page.body.contains("no effect: the game was already decided"), "{}", page.body);
    assert_eq!(text_of(&page, "result").as_deref(), Some("Draw"));
    // A cycle (triple ko) under the 2002 rules: nobody at fault (Art. 20), no result, and the
    // replay game is created.
    let g7 = g(7);
    let page = rule(g7, &[("offence", "cycle"), ("move_number", "180")]);
    assert_eq!(text_of(&page, "result").as_deref(), Some("No result"));
    assert!(page.body.contains("id=\"replay-link\""));
    assert_eq!(count_rows(&s.db, &format!("SELECT count(*) FROM games WHERE replay_of = {g7}")), 1);
    // The last byo-yomi timeout under the 2002 rules loses on time.
    let page =
        rule(g(8), &[("offence", "last_byo_yomi_timeout"), ("against", "black"), ("move_number", "250")]);
    assert_eq!(text_of(&page, "result").as_deref(), Some("W+T"));
    // Every ruling is audited with its effects.
    assert!(
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid} AND entity = 'ruling'")
        ) >= 11
    );
}

#[test]
fn team_rules_cards_are_penalty_stones() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid =
        setup(&s, &c, 4, &[("preset", "chinese_team_relay"), ("komi", "3.5"), ("warnings_to_loss", "")]);
    let gid = game_id(&s.db, tid, 1, 1);
    enter(&c, tid, gid, &[("method", "count"), ("black_count", "185")]);
    assert_eq!(result_text(&c, tid, gid), "B+1");
    // rules.md §3.5: one Black yellow card → B_eff 184 → draw.
    let r = game_post(
        &c,
        tid,
        gid,
        "rulings",
        &[("do", "save"), ("kind", "yellow_card"), ("against", "black"), ("move_number", "90")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(result_text(&c, tid, gid), "Draw");
    // Advice costs nothing; a red card costs 2 stones.
    let r = game_post(
        &c,
        tid,
        gid,
        "rulings",
        &[("do", "save"), ("kind", "advice"), ("against", "white"), ("move_number", "91")],
    );
    assert_eq!(r.status, 303);
    assert_eq!(result_text(&c, tid, gid), "Draw");
    let r = game_post(
        &c,
        tid,
        gid,
        "rulings",
        &[("do", "save"), ("kind", "red_card"), ("against", "white"), ("move_number", "95")],
    );
    assert_eq!(r.status, 303);
    assert_eq!(result_text(&c, tid, gid), "B+2");
    // The last byo-yomi timeout: a pass and one stone (team Art. 22.1); order errors: stones.
    let g2 = game_id(&s.db, tid, 1, 2);
    enter(&c, tid, g2, &[("method", "count"), ("black_count", "184")]);
    let r = game_post(
        &c,
        tid,
        g2,
        "rulings",
        &[("do", "save"), ("offence", "last_byo_yomi_timeout"), ("against", "white"), ("move_number", "200")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let page = c.get(&format!("/t/{tid}/games/{g2}"));
    assert!(page.body.contains("one forced pass and 1 penalty stone"), "{}", page.body);
    assert_eq!(text_of(&page, "result").as_deref(), Some("B+1"));
    let r = game_post(
        &c,
        tid,
        g2,
        "rulings",
        &[("do", "save"), ("kind", "order_error"), ("against", "black"), ("move_number", "201")],
    );
    assert_eq!(r.status, 303);
    assert_eq!(result_text(&c, tid, g2), "Draw", "1st order error: 1 stone");
}

/// Lateness at 59/60/61 minutes (60-minute regime) and 14/15/16 (15-minute regime).
#[test]
fn lateness_at_the_limits_of_both_regimes() {
    for (regime, limit) in [("separate", 60u32), ("same", 15u32)] {
        let s = Server::start();
        let c = s.first_organizer();
        let tid = setup(
            &s,
            &c,
            8,
            &[
                ("late_regime", regime),
                ("time_kind", "chinese_byo_yomi"),
                ("main_minutes", "150"),
                ("reserved_minutes", "5"),
            ],
        );
        let sheet = format!("/t/{tid}/results/rounds/1/lateness");
        let id = |name: &str| {
            count_rows(
                &s.db,
                &format!("SELECT id FROM entrants WHERE tournament_id = {tid} AND family_name_zh = '{name}'"),
            )
        };
        let at = |min: u32| format!("{:02}:{:02}", 9 + min / 60, min % 60);
        // Black of boards 1–3 late by limit−1, limit, limit+1; board 4 both late beyond it.
        let (a, b, cc, d1, d2) = (id("赵"), id("孙"), id("周"), id("郑"), id("王"));
        let k = |e: i64| format!("arr_{e}");
        let (ka, kb, kc, kd1, kd2) = (k(a), k(b), k(cc), k(d1), k(d2));
        let (ta, tb, tc, td) = (at(limit - 1), at(limit), at(limit + 1), at(limit + 5));
        // A bad time is refused beside its field; nothing written.
        let r = c.submit(&sheet, &sheet, &[("version", "0"), ("starts_at", "09:00"), (&ka, "9h")]);
        assert_eq!(r.status, 400);
        assert!(r.field_error(&ka).is_some());
        let r = c.submit(&sheet, &sheet, &[("version", "0"), ("starts_at", "9"), (&ka, &ta)]);
        assert_eq!(r.status, 400);
        assert!(r.field_error("starts_at").is_some());
        assert_eq!(count_rows(&s.db, "SELECT count(*) FROM arrivals"), 0);
        let r = c.submit(
            &sheet,
            &sheet,
            &[
                ("version", "0"),
                ("starts_at", "09:00"),
                (&ka, &ta),
                (&kb, &tb),
                (&kc, &tc),
                (&kd1, &td),
                (&kd2, &td),
            ],
        );
        assert_eq!(r.status, 303, "{}", r.body);
        let page = c.get(&sheet);
        let g1 = game_id(&s.db, tid, 1, 1);
        let g2 = game_id(&s.db, tid, 1, 2);
        let g3 = game_id(&s.db, tid, 1, 3);
        let g4 = game_id(&s.db, tid, 1, 4);
        let verdict =
            |gid: i32, side: &str| text_of(&page, &format!("verdict-{gid}-{side}")).unwrap_or_default();
        // Twice the lateness is deducted from 150 minutes (clock faces: "2:02:00", "32:00").
        let left = |m: u32| {
            let secs = 150 * 60 - 2 * m * 60;
            if secs >= 3600 {
                format!("{}:{:02}:00", secs / 3600, secs / 60 % 60)
            } else {
                format!("{}:00", secs / 60)
            }
        };
        assert!(
            verdict(g1, "black").contains(&format!("set the clock to {}", left(limit - 1))),
            "{}",
            verdict(g1, "black")
        );
        assert!(
            verdict(g2, "black").contains(&format!("set the clock to {}", left(limit))),
            "inclusive: {}",
            verdict(g2, "black")
        );
        assert!(verdict(g3, "black").contains("loses the game"), "{}", verdict(g3, "black"));
        assert!(verdict(g1, "white").contains("loses if not seated by"), "{}", verdict(g1, "white"));
        assert!(verdict(g4, "black").contains("loses") && verdict(g4, "white").contains("loses"));
        // The game page shows the same, and applying decides the games.
        let gp = c.get(&format!("/t/{tid}/games/{g3}"));
        assert!(text_of(&gp, "late-black").unwrap_or_default().contains("beyond the limit"));
        let r = game_post(&c, tid, g3, "lateness", &[]);
        assert_eq!(r.status, 303, "{}", r.body);
        assert_eq!(result_text(&c, tid, g3), "W+F (lateness)");
        let r = game_post(&c, tid, g4, "lateness", &[]);
        assert_eq!(r.status, 303, "{}", r.body);
        assert_eq!(result_text(&c, tid, g4), "Double loss (both players late beyond the limit, Art. 22.3)");
        assert_eq!(
            query_text(&s.db, &format!("SELECT result FROM games WHERE id = {g4}")).as_deref(),
            Some("RESULT_BOTHLOSE_BYDEF")
        );
        // Nothing to apply where both play (or twice).
        assert_eq!(game_post(&c, tid, g2, "lateness", &[]).status, 400);
        assert_eq!(game_post(&c, tid, g3, "lateness", &[]).status, 400);
        // Two arbiters saving the sheet from the same version: the second is refused.
        let r = c.submit(&sheet, &sheet, &[("version", "0"), ("starts_at", "09:05")]);
        assert_eq!(r.status, 409, "{}", r.body);
        assert!(r.body.contains("09:00"));
    }
}

/// Resumed games (a replay with the clocks noted) have no lateness limit: the clock just runs.
/// The replay has its own start and its own arrivals (rules.md §7, §9).
#[test]
fn a_replay_is_resumed_without_a_lateness_limit() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = setup(&s, &c, 4, &[("late_regime", "same")]);
    let g1 = game_id(&s.db, tid, 1, 1);
    enter(&c, tid, g1, &[("method", "replay"), ("clock_black", "30:00"), ("clock_white", "20:00")]);
    let replay = query_opt(&s.db, &format!("SELECT id FROM games WHERE replay_of = {g1}")).unwrap() as i32;
    let black = query_opt(&s.db, &format!("SELECT black_id FROM games WHERE id = {replay}")).unwrap();
    // The round starts at 09:00 and Black of the original arrived 25 minutes late.
    let sheet = format!("/t/{tid}/results/rounds/1/lateness");
    let k = format!("arr_{black}");
    let r = c.submit(&sheet, &sheet, &[("version", "0"), ("starts_at", "09:00"), (&k, "09:25")]);
    assert_eq!(r.status, 303, "{}", r.body);
    // The replay has no start of its own yet: nothing is judged from the round's sheet.
    let page = c.get(&format!("/t/{tid}/games/{replay}"));
    assert!(text_of(&page, "late-black").is_none(), "{}", page.body);
    assert!(page.body.contains("No start time is recorded for this replay yet."));
    // It starts at 14:00; Black sits down at 14:25 — beyond the 15 minutes of a fresh game,
    // but the clock just ran from 30:00.
    let r = game_post(&c, tid, replay, "start", &[("starts_at", "14:00"), (&k, "14:25")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let page = c.get(&format!("/t/{tid}/games/{replay}"));
    let v = text_of(&page, "late-black").unwrap_or_default();
    assert!(v.contains("plays with 5 min left"), "{v}");
    // The original game (not resumed) at 25 minutes late would lose.
    let page = c.get(&format!("/t/{tid}/games/{g1}"));
    assert!(text_of(&page, "late-black").unwrap_or_default().contains("beyond the limit"));
}

#[test]
fn a_second_save_from_an_old_form_is_refused_and_shows_the_other_entry() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = setup(&s, &org, 4, &[]);
    let (arb, uid) = add_user(&s, &org, "ref1", "arbiter");
    add_staff(&org, tid, uid, "arbiter");
    let gid = game_id(&s.db, tid, 1, 1);
    // Both open the game (version 0).
    let a = org.get(&format!("/t/{tid}/games/{gid}"));
    let b = arb.get(&format!("/t/{tid}/games/{gid}"));
    assert_eq!(b.status, 200);
    let post = |c: &Client, page: &Resp, fields: &[(&str, &str)]| {
        let csrf = page.csrf();
        let version = page.input("version").unwrap();
        let mut all = vec![("csrf", csrf.as_str()), ("version", version.as_str()), ("do", "save")];
        all.extend_from_slice(fields);
        c.post_form(&format!("/t/{tid}/games/{gid}/result"), &all)
    };
    assert_eq!(post(&org, &a, &[("method", "count"), ("black_count", "184.5")]).status, 303);
    let r = post(&arb, &b, &[("method", "resignation"), ("winner", "white")]);
    assert_eq!(r.status, 409, "{}", r.body);
    let conflict = text_of(&r, "conflict").unwrap_or_default();
    assert!(conflict.contains("org") && conflict.contains("B+¼"), "{conflict}");
    // The refused entry is still in the form, never lost; the stored one is unchanged.
    assert!(r.body.contains("<option value=\"resignation\" selected>"), "{}", r.body);
    assert_eq!(
        query_text(&s.db, &format!("SELECT method FROM results WHERE game_id = {gid}")).as_deref(),
        Some("count")
    );
    // Saving again from that page (now carrying the current version) replaces it knowingly.
    let again = post(&arb, &r, &[("method", "resignation"), ("winner", "white")]);
    assert_eq!(again.status, 303, "{}", again.body);
    assert_eq!(result_text(&arb, tid, gid), "W+R");
    // A ruling from an old form is refused too.
    let r = arb.post_form(
        &format!("/t/{tid}/games/{gid}/rulings"),
        &[
            ("csrf", &b.csrf()),
            ("version", "1"),
            ("do", "save"),
            ("kind", "warning"),
            ("against", "black"),
            ("move_number", "3"),
        ],
    );
    assert_eq!(r.status, 409);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM rulings"), 0);
}

#[test]
fn confirmed_results_are_locked_and_only_the_chief_arbiter_corrects_them() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = setup(&s, &org, 4, &[]);
    let (arb, uid) = add_user(&s, &org, "ref1", "arbiter");
    add_staff(&org, tid, uid, "arbiter");
    let gid = game_id(&s.db, tid, 1, 1);
    // Nothing to confirm before a result.
    assert_eq!(game_post(&arb, tid, gid, "confirm", &[("who", "arbiter")]).status, 400);
    enter(&arb, tid, gid, &[("method", "count"), ("black_count", "190")]);
    for who in ["black", "white", "arbiter"] {
        assert_eq!(game_post(&arb, tid, gid, "confirm", &[("who", who)]).status, 303);
    }
    let page = arb.get(&format!("/t/{tid}/games/{gid}"));
    assert!(page.body.contains("id=\"locked\""));
    assert_eq!(query_opt(&s.db, &format!("SELECT locked FROM results WHERE game_id = {gid}")), Some(1));
    // The arbiter can no longer change it, nor add rulings.
    let r = game_post(&arb, tid, gid, "result", &[("do", "save"), ("method", "draw"), ("correction", "x")]);
    assert_eq!(r.status, 403, "{}", r.body);
    assert!(r.body.contains("confirmed and locked"));
    let r = game_post(
        &arb,
        tid,
        gid,
        "rulings",
        &[("do", "save"), ("kind", "warning"), ("against", "black"), ("move_number", "2")],
    );
    assert_eq!(r.status, 403);
    assert_eq!(result_text(&org, tid, gid), "B+5¾");
    // No chief arbiter named: the organizer acts as one, and needs a reason.
    let r =
        game_post(&org, tid, gid, "result", &[("do", "save"), ("method", "count"), ("black_count", "189")]);
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("needs a reason"));
    let r = game_post(
        &org,
        tid,
        gid,
        "result",
        &[
            ("do", "save"),
            ("method", "count"),
            ("black_count", "189"),
            ("correction", "数子有误，复核后更正"),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(result_text(&org, tid, gid), "B+4¾");
    assert_eq!(
        query_opt(&s.db, &format!("SELECT locked FROM results WHERE game_id = {gid}")),
        Some(1),
        "stays locked"
    );
    assert_eq!(
        count_rows(&s.db, &format!("SELECT count(*) FROM audit WHERE action = 'correct' AND reason = '数子有误，复核后更正' AND entity_id = {gid}")),
        1
    );
    // Name the arbiter chief: now the organizer is refused and the arbiter corrects.
    let r = org.submit(&format!("/t/{tid}"), &format!("/t/{tid}/chief"), &[("user_id", &uid.to_string())]);
    assert_eq!(r.status, 303);
    let r = game_post(&org, tid, gid, "result", &[("do", "save"), ("method", "draw"), ("correction", "x")]);
    assert_eq!(r.status, 403);
    let r = game_post(
        &arb,
        tid,
        gid,
        "result",
        &[("do", "save"), ("method", "count"), ("black_count", "190"), ("correction", "恢复原结果")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    // An arbiter may not name the chief; another arbiter is no chief.
    let r = arb.submit(&format!("/t/{tid}"), &format!("/t/{tid}/chief"), &[("user_id", &uid.to_string())]);
    assert_eq!(r.status, 403);
    let (arb2, uid2) = add_user(&s, &org, "ref2", "arbiter");
    add_staff(&org, tid, uid2, "arbiter");
    let r = game_post(&arb2, tid, gid, "result", &[("do", "save"), ("method", "draw"), ("correction", "x")]);
    assert_eq!(r.status, 403);
    assert_eq!(result_text(&org, tid, gid), "B+5¾");
}

#[test]
fn refusals_never_write_and_never_500() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = setup(&s, &org, 4, &[]);
    let other = setup(&s, &org, 4, &[]);
    let gid = game_id(&s.db, tid, 1, 1);
    let foreign = game_id(&s.db, other, 1, 1);
    // Unknown ids and another tournament's game: 404.
    assert_eq!(org.get(&format!("/t/{tid}/games/999999")).status, 404);
    assert_eq!(org.get(&format!("/t/{tid}/games/{foreign}")).status, 404);
    assert_eq!(org.get(&format!("/t/{tid}/games/abc")).status, 404);
    assert_eq!(org.get(&format!("/t/{tid}/results/rounds/9")).status, 404);
    assert_eq!(org.get("/t/999/standings").status, 404);
    assert_eq!(org.get(&format!("/t/{tid}/players/99999")).status, 404);
    // The public and strangers cannot write; no CSRF token: refused.
    let public = s.client();
    let page = org.get(&format!("/t/{tid}/games/{gid}"));
    let r = public.post_form(
        &format!("/t/{tid}/games/{gid}/result"),
        &[("version", "0"), ("method", "draw"), ("do", "save")],
    );
    assert_eq!(r.status, 401, "a write without login is refused, not redirected like a success");
    assert_eq!(public.get(&format!("/t/{tid}/games/{gid}")).status, 303, "a read goes to the login page");
    let r = org.post_form(
        &format!("/t/{tid}/games/{gid}/result"),
        &[("version", "0"), ("method", "draw"), ("do", "save")],
    );
    assert_eq!(r.status, 403);
    let (stranger, _) = add_user(&s, &org, "stranger", "arbiter");
    assert_eq!(stranger.get(&format!("/t/{tid}/games/{gid}")).status, 403);
    // Missing or bad version.
    let r = org.post_form(
        &format!("/t/{tid}/games/{gid}/result"),
        &[("csrf", &page.csrf()), ("method", "draw"), ("do", "save")],
    );
    assert_eq!(r.status, 400);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM results"), 0);
    // SGF garbage: a message, nothing kept. A good record is checked and counted.
    let up = |data: &[u8]| {
        let p = org.get(&format!("/t/{tid}/games/{gid}"));
        let v = p.input("version").unwrap();
        org.post_file(
            &format!("/t/{tid}/games/{gid}/sgf"),
            &[("csrf", &p.csrf()), ("version", &v)],
            "file",
            "g.sgf",
            data,
        )
    };
    for junk in
        [&b"garbage"[..], b"(;GM[1]SZ[19];B[pd];W[", b"(;GM[1]SZ[40];B[aa])", &[0xff, 0xfe, 0x00][..], b""]
    {
        let r = up(junk);
        assert_eq!(r.status, 400, "{}", r.body);
    }
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM results WHERE sgf IS NOT NULL"), 0);
    let r = up(b"(;GM[1]FF[4]SZ[19]KM[7.5]PB[Black]PW[White]RE[B+R];B[pd];W[dp];B[pp];W[dd];B[pd])");
    assert_eq!(r.status, 303, "{}", r.body);
    let page = org.get(&format!("/t/{tid}/games/{gid}"));
    assert!(page.body.contains("id=\"sgf-report\""), "{}", page.body);
    let illegal = text_of(&page, "sgf-illegal").unwrap_or_default();
    assert!(
        illegal.contains("第5手") || illegal.contains("move 5"),
        "the illegal retake is found: {}",
        page.body
    );
    let rec = org.get(&format!("/t/{tid}/games/{gid}/record.sgf"));
    assert_eq!(rec.status, 200);
    assert!(rec.body.starts_with("(;GM[1]"));
}

/// The referee's clock of a game starts from the lateness sheet (Black 20 minutes
/// late: twice that off 150 minutes, Art. 22.1, the 5 reserved minutes kept apart), and its
/// timeout offer is the ruling form of the game as the page's script fills it: previewed on
/// the game page for the arbiter (nothing written), saved only when the arbiter confirms it
/// there (the event's rule: a loss, audited).
#[test]
fn clock_page_starts_from_the_lateness_deduction_and_offers_the_timeout_ruling() {
    let s = Server::start();
    let c = s.first_organizer();
    let tid = setup(
        &s,
        &c,
        2,
        &[("time_kind", "chinese_byo_yomi"), ("main_minutes", "150"), ("reserved_minutes", "5")],
    );
    let g1 = game_id(&s.db, tid, 1, 1);
    let zhao = count_rows(
        &s.db,
        &format!("SELECT id FROM entrants WHERE tournament_id = {tid} AND family_name_zh = '赵'"),
    );
    let sheet = format!("/t/{tid}/results/rounds/1/lateness");
    let arr = format!("arr_{zhao}");
    let r = c.submit(&sheet, &sheet, &[("version", "0"), ("starts_at", "09:00"), (&arr, "09:20")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let url = format!("/t/{tid}/games/{g1}/clock");
    assert!(
        c.get(&format!("/t/{tid}/games/{g1}")).body.contains(&format!("href=\"{url}\"")),
        "the sheet links the clock"
    );
    let p = c.get(&url);
    assert_eq!(p.status, 200, "{}", p.body);
    let cfg = p.clock_config();
    assert_eq!(cfg["setup"]["control"]["kind"], "chinese_byo_yomi");
    // 150 − 2 × 20 = 110 minutes: 105 on the face, then the 5 reserved minutes are read.
    assert_eq!(
        cfg["setup"]["start"][0],
        serde_json::json!({"main_ms": 6_300_000, "periods": 5, "period_ms": 0, "period_moves": 0, "overtime": false})
    );
    assert_eq!(
        cfg["setup"]["start"][1]["main_ms"], 8_700_000,
        "White on time: 145 minutes above the reserve"
    );
    assert_eq!(cfg["timeout"], "loss");
    assert_eq!(
        (cfg["lang"].as_str(), cfg["text"]["call_minutes_left"].as_str()),
        (Some("en"), Some("{minutes} minutes left"))
    );
    assert_eq!(cfg["names"][0], "赵棋手");
    assert!(cfg["voice"]["n10"].is_array() && cfg["voice"]["one_minute"].is_array(), "the clips' index");
    assert!(plain_text(&p.body).contains("set the clock to 1:50:00"), "{}", p.body);
    // The offline worker may answer for the clock pages under /t/, so a reload works offline.
    let sw = s.client().get("/assets/clock/sw.js");
    assert_eq!(sw.status, 200);
    assert_eq!(sw.header("service-worker-allowed"), Some("/t/"));
    assert!(sw.header("content-type").is_some_and(|t| t.starts_with("text/javascript")));
    assert!(sw.body.contains("/assets/clock/voice-zh.wav"), "the clips are kept offline");
    // Anonymous readers and arbiters of other tournaments get no clock.
    assert_ne!(s.client().get(&url).status, 200);
    let (other, _) = add_user(&s, &c, "outsider-arbiter", "arbiter");
    assert!(matches!(other.get(&url).status, 403 | 404));
    // The timeout offer: the page's script fills side, move and time; the arbiter previews.
    let (action, mut fields) = p.form_inputs("clock-timeout-form");
    assert_eq!(action, format!("/t/{tid}/games/{g1}/rulings"));
    for (k, v) in fields.iter_mut() {
        match k.as_str() {
            "against" => *v = "black".into(),
            "move_number" => *v = "120".into(),
            "at_time" => *v = "11:30".into(),
            _ => {}
        }
    }
    let audits = count_rows(&s.db, &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid}"));
    let mut preview: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    preview.push(("do", "preview"));
    let r = c.post_form(&action, &preview);
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("id=\"ruling-preview\""), "{}", r.body);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM rulings"), 0, "nothing saved without the arbiter");
    // The arbiter confirms on the game page: the form there comes back filled in.
    assert_eq!(r.input("move_number").as_deref(), Some("120"));
    let save: Vec<(&str, &str)> =
        fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).chain([("do", "save")]).collect();
    let r = c.post_form(&action, &save);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM rulings"), 1);
    assert_eq!(
        count_rows(&s.db, &format!("SELECT count(*) FROM audit WHERE tournament_id = {tid}")),
        audits + 1
    );
    assert!(result_text(&c, tid, g1).starts_with("W+"), "{}", result_text(&c, tid, g1));
}
