//! Uploads read by actix-multipart, over HTTP: a game record arrives byte for
//! byte with its Chinese file name (raw UTF-8 or RFC 5987), malformed bodies are a 4xx page in
//! the reader's language with nothing written, an upload over its limit is stopped while it
//! streams (no Content-Length to trust), and the CSRF token inside the multipart body counts.

use crate::common;
use common::*;
use std::io::{Read, Write};

const B: &str = "----tengen-mp-test";

/// A multipart body from raw parts: (headers, data).
fn body(parts: &[(&str, &[u8])]) -> Vec<u8> {
    let mut b = Vec::new();
    for (head, data) in parts {
        b.extend(format!("--{B}\r\n{head}\r\n\r\n").bytes());
        b.extend_from_slice(data);
        b.extend(b"\r\n");
    }
    b.extend(format!("--{B}--\r\n").bytes());
    b
}

fn field(name: &str) -> String {
    format!("Content-Disposition: form-data; name=\"{name}\"")
}

fn ct() -> String {
    format!("multipart/form-data; boundary={B}")
}

/// An SGF with bytes a careless parser would mangle: CRLFs, a line that looks like a boundary,
/// a trailing CRLF, non-UTF-8 bytes (GBK 柯洁) and a NUL.
fn tricky_sgf() -> Vec<u8> {
    let mut s = b"(;GM[1]FF[4]CA[GB2312]SZ[19]KM[7.5]PB[\xbf\xc2\xbd\xe0]PW[x]RE[B+R]\r\nC[--".to_vec();
    s.extend(B.bytes());
    s.extend(b"\r\n\r\n-- \x00]\r\n;B[pd];W[dp])\r\n");
    s
}

struct Game {
    tid: i32,
    gid: i32,
}

fn game_setup(org: &Client, s: &Server, board: u32) -> Game {
    let tid = tournament_with_players(org, "上传解析赛", "Multipart Open", &[], 8);
    pair_round(org, tid, 1, "7");
    Game { tid, gid: game_id(&s.db, tid, 1, board) }
}

fn sgf_fields(c: &Client, g: &Game) -> (String, String) {
    let p = c.get(&format!("/t/{}/games/{}", g.tid, g.gid));
    (p.csrf(), p.input("version").unwrap())
}

fn stored_sgf(s: &Server, g: &Game) -> i64 {
    count_rows(
        &s.db,
        &format!("SELECT count(*) FROM results WHERE game_id = {} AND sgf_name IS NOT NULL", g.gid),
    )
}

#[test]
fn sgf_arrives_byte_for_byte_with_its_chinese_name_either_way_it_is_written() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = tournament_with_players(&org, "上传解析赛", "Multipart Open", &[], 8);
    pair_round(&org, tid, 1, "7");
    let data = tricky_sgf();
    // filename="…" in raw UTF-8, as browsers send it.
    let g1 = Game { tid, gid: game_id(&s.db, tid, 1, 1) };
    let (csrf, v) = sgf_fields(&org, &g1);
    let b = body(&[
        (&field("csrf"), csrf.as_bytes()),
        (&field("version"), v.as_bytes()),
        (
            "Content-Disposition: form-data; name=\"file\"; filename=\"柯洁对古力 第1局.sgf\"\r\nContent-Type: application/x-go-sgf",
            &data,
        ),
    ]);
    let r = org.post_raw(&format!("/t/{tid}/games/{}/sgf", g1.gid), &ct(), b);
    assert_eq!(r.status, 303, "{}", r.body);
    // filename*=UTF-8''… (RFC 5987) wins over the ASCII fallback.
    let g2 = Game { tid, gid: game_id(&s.db, tid, 1, 2) };
    let (csrf, v) = sgf_fields(&org, &g2);
    let b = body(&[
        (&field("csrf"), csrf.as_bytes()),
        (&field("version"), v.as_bytes()),
        (
            "Content-Disposition: form-data; name=\"file\"; filename=\"fallback.sgf\"; filename*=UTF-8''%E5%A4%A9%E5%85%83%E8%B5%9B.sgf",
            &data,
        ),
    ]);
    let r = org.post_raw(&format!("/t/{tid}/games/{}/sgf", g2.gid), &ct(), b);
    assert_eq!(r.status, 303, "{}", r.body);
    for (g, name) in [(&g1, "柯洁对古力 第1局.sgf"), (&g2, "天元赛.sgf")] {
        let stored = query_text(&s.db, &format!("SELECT sgf_name FROM results WHERE game_id = {}", g.gid));
        assert_eq!(stored.as_deref(), Some(name));
        let page = org.get(&format!("/t/{tid}/games/{}", g.gid));
        assert!(page.body.contains(name), "the name is shown: {}", page.body);
        let back = org.get(&format!("/t/{tid}/games/{}/record.sgf", g.gid));
        assert_eq!(back.status, 200);
        assert_eq!(back.bytes, data, "downloaded exactly as uploaded");
    }
}

#[test]
fn a_csv_import_with_a_chinese_file_name_and_fields_after_the_file_previews() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = create_tournament(&org, "导入解析赛");
    let token = org.get(&format!("/t/{tid}/import")).csrf();
    let csv = "family_name_zh,given_name_zh,rank\n王,一,3d\n李,二,1k\n";
    // The token after the file, and the file name in RFC 5987 form only.
    let b = body(&[
        (
            "Content-Disposition: form-data; name=\"file\"; filename*=utf-8''%E5%90%8D%E5%8D%95.csv",
            csv.as_bytes(),
        ),
        (&field("csrf"), token.as_bytes()),
    ]);
    let r = org.post_raw(&format!("/t/{tid}/import/csv"), &ct(), b);
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.input("payload").is_some(), "the preview carries the file: {}", r.body);
}

#[test]
fn malformed_uploads_are_a_4xx_page_in_the_readers_language_and_nothing_is_written() {
    let s = Server::start();
    let org = s.first_organizer();
    let zh = org.in_chinese();
    let g = game_setup(&org, &s, 1);
    let (csrf, v) = sgf_fields(&org, &g);
    let good = body(&[
        (&field("csrf"), csrf.as_bytes()),
        (&field("version"), v.as_bytes()),
        ("Content-Disposition: form-data; name=\"file\"; filename=\"a.sgf\"", &tricky_sgf()),
    ]);
    let truncated = good[..good.len() - 30].to_vec();
    let no_disposition = body(&[
        (&field("csrf"), csrf.as_bytes()),
        (&field("version"), v.as_bytes()),
        ("Content-Type: application/x-go-sgf", &tricky_sgf()),
    ]);
    let path = format!("/t/{}/games/{}/sgf", g.tid, g.gid);
    let cases: Vec<(&str, String, Vec<u8>, &str, &str)> = vec![
        ("no boundary", "multipart/form-data".into(), good.clone(), "boundary", "boundary"),
        ("truncated", ct(), truncated, "cut off", "不完整"),
        ("no Content-Disposition", ct(), no_disposition, "Content-Disposition", "Content-Disposition"),
        ("wrong type", "text/plain".into(), good.clone(), "multipart/form-data", "须以"),
    ];
    for (what, content_type, b, en, zh_text) in cases {
        for (c, expect) in [(&org, en), (&zh, zh_text)] {
            let r = c.post_raw(&path, &content_type, b.clone());
            assert!((400..500).contains(&r.status), "{what}: {} {}", r.status, r.body);
            assert!(r.header("content-type").unwrap_or("").starts_with("text/html"), "{what}");
            let text = plain_text(&r.body);
            assert!(text.contains(expect), "{what} ({}): {text}", c.accept_language);
            if c.accept_language == "zh-CN" {
                assert!(text.contains("未保存任何内容"), "{what}: {text}");
            } else {
                assert!(text.contains("Nothing was saved"), "{what}: {text}");
            }
        }
    }
    assert_eq!(stored_sgf(&s, &g), 0, "nothing stored");
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM audit WHERE action LIKE '%sgf%'"), 0);
    // The same on an import: a 4xx, nothing previewed.
    let tid = g.tid;
    let r = zh.post_raw(&format!("/t/{tid}/import/csv"), "multipart/form-data", b"x".to_vec());
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(plain_text(&r.body).contains("boundary"));
    // And the well-formed body still goes through afterwards.
    let r = org.post_raw(&path, &ct(), good);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(stored_sgf(&s, &g), 1);
}

/// POST `chunks` of `chunk` bytes as a chunked multipart body (no Content-Length), and return
/// the status line and the response.
fn post_chunked(s: &Server, c: &Client, path: &str, head: &[u8], chunk: &[u8], chunks: usize) -> String {
    let addr = s.base.trim_start_matches("http://").trim_end_matches('/').to_string();
    let mut tcp = std::net::TcpStream::connect(&addr).unwrap();
    tcp.set_read_timeout(Some(std::time::Duration::from_secs(30))).unwrap();
    let cookies: Vec<String> = c.cookies.borrow().iter().map(|(k, v)| format!("{k}={v}")).collect();
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nOrigin: {}\r\nCookie: {}\r\nAccept-Language: {}\r\nContent-Type: {}\r\nTransfer-Encoding: chunked\r\n\r\n",
        s.base,
        cookies.join("; "),
        c.accept_language,
        ct()
    );
    let _ = tcp.write_all(req.as_bytes());
    let mut send = |data: &[u8]| -> bool {
        let frame = [format!("{:x}\r\n", data.len()).as_bytes(), data, b"\r\n"].concat();
        tcp.write_all(&frame).is_ok()
    };
    let mut ok = send(head);
    for _ in 0..chunks {
        if !ok {
            break; // the server stopped reading: it answered already
        }
        ok = send(chunk);
    }
    if ok {
        let _ = tcp.write_all(b"0\r\n\r\n");
    }
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    // Read the answer (the head and the start of the page are enough).
    while let Ok(n) = tcp.read(&mut buf) {
        if n == 0 {
            break;
        }
        out.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&out);
        if text.contains("</html>") {
            break;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn an_upload_over_its_limit_is_stopped_while_it_streams() {
    let s = Server::start();
    let org = s.first_organizer();
    let zh = org.in_chinese();
    let g = game_setup(&org, &s, 1);
    let (csrf, v) = sgf_fields(&org, &g);
    let head = format!(
        "--{B}\r\n{}\r\n\r\n{csrf}\r\n--{B}\r\n{}\r\n\r\n{v}\r\n--{B}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.sgf\"\r\n\r\n(;GM[1]C[",
        field("csrf"),
        field("version")
    );
    // 4 MB of comment, sent without Content-Length: far below the largest body the server takes
    // at all, far above the 512 KB a game record may have.
    let chunk = vec![b'x'; 64 * 1024];
    let path = format!("/t/{}/games/{}/sgf", g.tid, g.gid);
    let r = post_chunked(&s, &zh, &path, head.as_bytes(), &chunk, 64);
    assert!(r.starts_with("HTTP/1.1 413"), "{}", &r[..r.len().min(600)]);
    assert!(r.contains("512 KB") && r.contains("内容过大"), "{}", &r[..r.len().min(2000)]);
    let r = post_chunked(&s, &org, &path, head.as_bytes(), &chunk, 64);
    assert!(r.starts_with("HTTP/1.1 413"), "{}", &r[..r.len().min(600)]);
    assert!(r.contains("512 KB") && r.contains("Too large"), "{}", &r[..r.len().min(2000)]);
    assert_eq!(stored_sgf(&s, &g), 0, "nothing stored");
    // Text fields beside the file have their own small limit.
    let big_field = vec![b'y'; 128 * 1024];
    let b = body(&[(&field("csrf"), csrf.as_bytes()), (&field("note"), &big_field)]);
    let r = org.post_raw(&path, &ct(), b);
    assert_eq!(r.status, 413, "{}", r.body);
    // Under the limit, the same chunked way: stored.
    let mut small = head.into_bytes();
    small.extend(b"a]RE[B+R];B[pd])");
    small.extend(format!("\r\n--{B}--\r\n").bytes());
    let r = post_chunked(&s, &org, &path, &small, b"", 0);
    assert!(r.starts_with("HTTP/1.1 303"), "{}", &r[..r.len().min(2000)]);
    assert_eq!(stored_sgf(&s, &g), 1);
}

#[test]
fn the_csrf_token_inside_a_multipart_body_is_checked() {
    let s = Server::start();
    let org = s.first_organizer();
    let g = game_setup(&org, &s, 1);
    let (csrf, v) = sgf_fields(&org, &g);
    let path = format!("/t/{}/games/{}/sgf", g.tid, g.gid);
    let file = ("Content-Disposition: form-data; name=\"file\"; filename=\"a.sgf\"", &b"(;GM[1];B[pd])"[..]);
    let wrong = "0".repeat(csrf.len());
    for token in [None, Some(wrong.as_str())] {
        let mut parts: Vec<(&str, &[u8])> = Vec::new();
        let (fc, fv) = (field("csrf"), field("version"));
        if let Some(t) = token {
            parts.push((&fc, t.as_bytes()));
        }
        parts.push((&fv, v.as_bytes()));
        parts.push(file);
        let r = org.post_raw(&path, &ct(), body(&parts));
        assert_eq!(r.status, 403, "{token:?}: {}", r.body);
    }
    // A token in a file part's field is not a form field.
    let b = body(&[
        ("Content-Disposition: form-data; name=\"csrf\"; filename=\"t.txt\"", csrf.as_bytes()),
        (&field("version"), v.as_bytes()),
        file,
    ]);
    assert_eq!(org.post_raw(&path, &ct(), b).status, 403);
    assert_eq!(stored_sgf(&s, &g), 0);
}
