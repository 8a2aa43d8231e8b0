//! Game records from Chinese servers (issue 15 item 6), over HTTP: a record in GBK (with CA[] and
//! without) or Big5 is read in its encoding — the players' names show in characters on the
//! game page, with the encoding — and is stored and downloaded byte for byte as uploaded.

mod common;
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
