//! Game records from Chinese servers, over HTTP: a record in GBK (with CA[] and
//! without) or Big5 is read in its encoding — the players' names show in characters on the
//! game page, with the encoding — and is stored and downloaded byte for byte as uploaded.

use crate::common;
use common::*;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

/// A short record with the names (raw bytes) and a comment 中国围棋天元赛 in the same bytes.
fn record(ca: &str, black: &[u8], white: &[u8], comment: &[u8]) -> Vec<u8> {
    let mut b = b"(;GM[1]FF[4]".to_vec();
    if !ca.is_empty() {
        b.extend(format!("CA[{ca}]").bytes());
    }
    for (id, v) in [("PB", black), ("PW", white), ("C", comment)] {
        b.extend(id.bytes());
        b.push(b'[');
        b.extend(v);
        b.push(b']');
    }
    b.extend(b"SZ[19]KM[7.5]RE[B+R];B[pd];W[dp];B[pp];W[dd])");
    b
}

#[test]
fn gbk_and_big5_records_are_read_in_their_encoding_and_kept_byte_for_byte() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = tournament_with_players(&org, "棋谱测试赛", "SGF Test", &[], 8);
    pair_round(&org, tid, 1, "42");
    let up = |gid: i32, data: &[u8]| {
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
    // 柯洁, 古力, 中国围棋天元赛 in GBK; 柯潔, 聶衛平, 黑棋勝 in Big5.
    let gbk = (hex("bfc2bde0"), hex("b9c5c1a6"), hex("d6d0b9facea7c6e5ccecd4aac8fc"));
    let cases: Vec<(Vec<u8>, &str, &str)> = vec![
        (record("GB2312", &gbk.0, &gbk.1, &gbk.2), "柯洁 – 古力", "GBK"),
        (record("", &gbk.0, &gbk.1, &gbk.2), "柯洁 – 古力", "GBK"),
        (
            record("Big5", &hex("ac5fbce4"), &hex("c2bfbdc3a5ad"), &hex("b6c2b4d1b3d3")),
            "柯潔 – 聶衛平",
            "Big5",
        ),
    ];
    for (board, (bytes, names, encoding)) in cases.iter().enumerate() {
        let gid = game_id(&s.db, tid, 1, board as u32 + 1);
        let r = up(gid, bytes);
        assert_eq!(r.status, 303, "{}", r.body);
        let page = org.get(&format!("/t/{tid}/games/{gid}"));
        assert_eq!(text_of(&page, "sgf-players").as_deref(), Some(*names), "{}", page.body);
        assert_eq!(text_of(&page, "sgf-encoding").as_deref(), Some(*encoding));
        let back = org.get(&format!("/t/{tid}/games/{gid}/record.sgf"));
        assert_eq!(back.status, 200);
        assert_eq!(&back.bytes, bytes, "downloaded as uploaded");
        let ct = back.header("content-type").unwrap_or_default().to_lowercase();
        assert!(ct.contains(&encoding.to_lowercase()), "{ct}");
    }
    // A UTF-8 record is stored and served as it came, too.
    let utf8 = record("UTF-8", "柯洁".as_bytes(), "古力".as_bytes(), b"");
    let gid = game_id(&s.db, tid, 1, 4);
    assert_eq!(up(gid, &utf8).status, 303);
    assert_eq!(org.get(&format!("/t/{tid}/games/{gid}/record.sgf")).bytes, utf8);
}

/// CJK characters or full-width punctuation: a sign of Chinese text.
fn has_chinese(s: &str) -> bool {
    s.chars()
        .any(|c| matches!(c, '\u{3000}'..='\u{303f}' | '\u{4e00}'..='\u{9fff}' | '\u{ff00}'..='\u{ffef}'))
}

/// English words (three letters or more) other than the names of encodings.
fn english_words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() >= 3 && *w != "UTF")
        .map(str::to_string)
        .collect()
}

/// The SGF report is stored typed and worded at view time in the reader's
/// language (zh-CN and en sessions of the same organizer see the same record's report each in
/// their own language); an unreadable file is refused in the reader's language with nothing
/// written; a report stored in the old shape (English sentences) is checked again from the
/// stored bytes and reads like a new one.
#[test]
fn the_report_is_in_the_readers_language() {
    let s = Server::start();
    let zh = s.first_organizer();
    assert_eq!(zh.get("/lang/zh-CN?next=/").status, 303);
    let en = s.client();
    assert_eq!(en.login(ORG_USER, ORG_PASS).status, 303);
    assert_eq!(en.get("/lang/en?next=/").status, 303);
    let tid = tournament_with_players(&zh, "棋谱语言赛", "SGF Language", &[], 8);
    pair_round(&zh, tid, 1, "42");
    publish_round(&s, &zh, tid, 1);
    let up = |c: &Client, gid: i32, data: &[u8]| {
        let p = c.get(&format!("/t/{tid}/games/{gid}"));
        let v = p.input("version").unwrap();
        c.post_file(
            &format!("/t/{tid}/games/{gid}/sgf"),
            &[("csrf", &p.csrf()), ("version", &v)],
            "file",
            "g.sgf",
            data,
        )
    };
    // An old format (a warning) and an occupied point at move 5 (the first illegal move).
    let g1 = game_id(&s.db, tid, 1, 1);
    let illegal = b"(;GM[1]FF[1]SZ[19]KM[7.5]RE[B+R];B[pd];W[dp];B[pp];W[dd];B[pd])";
    assert_eq!(up(&zh, g1, illegal).status, 303);
    // A result the count disagrees with, a double move, text after the tree.
    let g2 = game_id(&s.db, tid, 1, 2);
    let disagrees = b"(;GM[1]FF[4]SZ[19]KM[7.5]RE[B+50];B[pd];B[pp];W[dp];B[];W[]) trailing words";
    assert_eq!(up(&en, g2, disagrees).status, 303);
    let report = |c: &Client, gid: i32| {
        let page = c.get(&format!("/t/{tid}/games/{gid}"));
        assert_eq!(page.status, 200);
        text_of(&page, "sgf-report").unwrap_or_else(|| panic!("a report: {}", page.body))
    };
    let (z1, e1) = (report(&zh, g1), report(&en, g1));
    assert!(z1.contains("第5手") && z1.contains("该点已有棋子") && z1.contains("FF[1]按FF[4]读取"), "{z1}");
    assert!(english_words(&z1).is_empty(), "English in the zh report: {:?}\n{z1}", english_words(&z1));
    assert!(e1.contains("move 5 Black Q16 [pd]: the point is occupied"), "{e1}");
    assert!(
        e1.contains("FF[1] read as FF[4]") && e1.contains("the replay stopped at the illegal move 5"),
        "{e1}"
    );
    assert!(!has_chinese(&e1), "Chinese in the en report: {e1}");
    let (z2, e2) = (report(&zh, g2), report(&en, g2));
    assert!(z2.contains("与RE[B+50]不符") && z2.contains("连下两手") && z2.contains("已忽略"), "{z2}");
    assert!(english_words(&z2).is_empty(), "English in the zh report: {:?}\n{z2}", english_words(&z2));
    assert!(
        e2.contains("DISAGREES with RE[B+50]") && e2.contains("move 2: Black moves twice in a row"),
        "{e2}"
    );
    assert!(e2.contains("text after the last game tree was ignored"), "{e2}");
    assert!(!has_chinese(&e2), "Chinese in the en report: {e2}");
    // The stored report is typed, not sentences.
    let stored = query_text(&s.db, &format!("SELECT sgf_report FROM results WHERE game_id = {g2}")).unwrap();
    assert!(stored.contains("\"status\":\"disagrees\"") && !stored.contains("DISAGREES"), "{stored}");

    // Unreadable: a 400 in the reader's language; nothing written, the entry stays as it was.
    let g3 = game_id(&s.db, tid, 1, 3);
    enter(&zh, tid, g3, &[("method", "forfeit"), ("winner", "black")]);
    let sheet =
        |gid: i32| query(&s.db, &format!("SELECT version, entry, sgf FROM results WHERE game_id = {gid}"));
    let (before, audits) = (sheet(g3), count_rows(&s.db, "SELECT count(*) FROM audit"));
    let bad = b"(;GM[1]SZ[19];B[pd];W[";
    let r = up(&zh, g3, bad);
    assert_eq!(r.status, 400);
    assert!(r.body.contains("无法读取该棋谱：第1行第22列：W的值没有结束"), "{}", r.body);
    assert!(r.body.contains("黑胜（白弃权）"), "the page shows the entry as stored: {}", r.body);
    assert!(!r.body.contains("never closed"));
    let r = up(&en, g3, bad);
    assert_eq!(r.status, 400);
    assert!(r.body.contains("cannot be read: 1:22: the value of W is never closed"), "{}", r.body);
    assert!(!r.body.contains("没有结束"));
    let r = up(&en, g3, b"(;GM[1]SZ[30])");
    assert!(r.status == 400 && r.body.contains("board size 30 is not supported (5 to 25)"), "{}", r.body);
    assert_eq!(sheet(g3), before, "nothing written");
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM audit"), audits);

    // A report stored in the old shape (sentences) is checked again from the stored bytes.
    let old = r#"{"black_name":null,"white_name":null,"moves":4,"illegal":"move 5 Black Q16 [pd]: the point is occupied (occupied)","black_halves":361,"white_halves":361,"result_en":"W+7.5","result_zh":"白胜3又3/4子","record_result":"B+R","agreement":"not comparable: the replay stopped at the illegal move 5","disagrees":false,"warnings":["1:7: FF[1] read as FF[4]"],"encoding":"UTF-8"}"#;
    exec_sql(&s.db, &format!("UPDATE results SET sgf_report = '{old}' WHERE game_id = {g1}"));
    assert_eq!(report(&zh, g1), z1, "the old row reads as a new one");
    assert_eq!(report(&en, g1), e1);
}
