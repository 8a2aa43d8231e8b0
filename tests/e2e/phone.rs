//! The hall and the phones: the hall poster (大厅海报) downloaded by staff from the event's
//! overview, its two QR codes decoded from the squares drawn and followed on the server (the
//! event's public page; the phone check-in form with the venue's code filled in, sent as
//! shown); and the site's icon, which every page links and `/favicon.ico` answers.

use crate::common;
use common::readback::{squash, ReadBack};
use common::*;

/// The filled squares of page 1 grouped by their side (a QR code's modules share one), as
/// (x, y, side) in points, PDF space; the groups from the largest modules down.
fn codes(back: &ReadBack) -> Vec<Vec<(f32, f32, f32)>> {
    let id = back.doc.get_pages()[&1];
    let ops = lopdf::content::Content::decode(&back.doc.get_page_content(id)).unwrap().operations;
    let num = |o: &lopdf::Object| o.as_float().unwrap();
    let mut groups: Vec<Vec<(f32, f32, f32)>> = Vec::new();
    for w in ops.windows(2).filter(|w| w[0].operator == "re" && matches!(w[1].operator.as_str(), "f" | "f*"))
    {
        let v: Vec<f32> = w[0].operands.iter().map(num).collect();
        if (v[2] - v[3]).abs() > 0.01 {
            continue;
        }
        match groups.iter_mut().find(|g| (g[0].2 - v[2]).abs() < 0.01) {
            Some(g) => g.push((v[0], v[1], v[2])),
            None => groups.push(vec![(v[0], v[1], v[2])]),
        }
    }
    groups.sort_by(|a, b| b[0].2.total_cmp(&a[0].2));
    groups
}

/// Operations (no rule article; the event's one check-in code is decision D27's): the hall poster
/// names the event, its venue and dates, and carries two QR codes — the event's public page, and
/// the phone check-in form that opens with the venue's code filled in and checks the player in as
/// sent — with the code printed large; only the event's staff may print it, and before a code is
/// set the poster says so instead.
#[test]
fn the_hall_posters_codes_open_the_event_and_check_a_player_in() {
    let s = Server::start_args(&["--public-url", "https://go.example.org/weiqi/"]);
    let org = s.first_organizer();
    let tid = tournament_with_players(&org, "海报测试赛", "Poster Open", &[("colour_method", "lots")], 6);
    let ev = event_of(&s.db, tid);
    // The staff overview links the poster (the event of one group is its tournament's page).
    let home = org.get(&format!("/t/{tid}"));
    assert!(home.body.contains(&format!("href=\"/e/{ev}/poster.pdf\"")), "{}", home.body);
    assert!(!s.client().get(&format!("/t/{tid}")).body.contains("poster.pdf"), "not on the public page");

    // Before a code is set: the public page's code, and a line saying the check-in code is not set.
    let (_, back) = pdf(&org, &format!("/e/{ev}/poster.pdf?lang=zh"));
    let text = squash(&back.all_text());
    assert!(text.contains("海报测试赛") && text.contains("签到码未设置"), "{text}");
    let cs = codes(&back);
    assert_eq!(cs.len(), 1, "one code: {}", cs.len());
    assert_eq!(crate::cards::decode(&cs[0]), format!("https://go.example.org/weiqi/e/{ev}"));

    // Staff set the code; the poster then has both codes and prints the code large.
    let desk = format!("/t/{tid}/check-in");
    assert_eq!(org.submit(&desk, &format!("/t/{tid}/check-in/code"), &[]).status, 303);
    let code =
        query_text(&s.db, &format!("SELECT code FROM check_in_codes WHERE tournament_id = {tid}")).unwrap();
    let (r, back) = pdf(&org, &format!("/e/{ev}/poster.pdf?lang=zh"));
    assert!(
        r.header("content-disposition").unwrap().contains("hall-poster.pdf"),
        "{:?}",
        r.header("content-disposition")
    );
    assert!(back.glyph_report().faults.is_empty(), "{:?}", back.glyph_report().faults);
    let text = squash(&back.all_text());
    assert!(text.contains(&format!("签到码{code}")), "{text}");
    assert_eq!(back.page_size_mm(1).map(|(w, h)| (w.round(), h.round())), Some((210.0, 297.0)));
    let cs = codes(&back);
    assert_eq!(cs.len(), 2, "two codes");
    let page = crate::cards::decode(&cs[0]);
    assert_eq!(page, format!("https://go.example.org/weiqi/e/{ev}"));
    let check_in = crate::cards::decode(&cs[1]);
    assert_eq!(check_in, format!("https://go.example.org/weiqi/t/{tid}/check-in/self?code={code}"));

    // Followed on the server: the event's page, and the form with the code in its field.
    let phone = s.client().in_chinese();
    let path = |url: &str| url.trim_start_matches("https://go.example.org/weiqi").to_string();
    let r = phone.get(&path(&page));
    assert_eq!((r.status, r.location()), (303, format!("/t/{tid}")), "one group: its page");
    let form = phone.get(&path(&check_in));
    assert_eq!(form.status, 200, "{}", form.body);
    assert_eq!(form.input("code"), Some(code.clone()));
    let (action, mut fields) = form.form_as_shown("self-form");
    fields.retain(|(k, _)| k != "name");
    fields.push(("name".into(), "wang yi".into()));
    let sent: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let r = phone.post_form(&action, &sent);
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("王一，签到成功"), "{}", r.body);

    // In English and on A3; not for the public or another event's staff.
    let (r, a3) = pdf(&org, &format!("/e/{ev}/poster.pdf?lang=en&paper=a3"));
    assert!(r.header("content-disposition").unwrap().contains("hall-poster-a3.pdf"));
    assert_eq!(a3.page_size_mm(1).map(|(w, h)| (w.round(), h.round())), Some((297.0, 420.0)));
    assert!(squash(&a3.all_text()).contains("Check-incode"), "{}", a3.all_text());
    assert_eq!(codes(&a3).len(), 2);
    assert_ne!(s.client().get(&format!("/e/{ev}/poster.pdf")).status, 200);
    assert_eq!(org.get(&format!("/e/{ev}/poster.pdf?paper=a5")).status, 400);
    assert_eq!(org.get(&format!("/e/{}/poster.pdf", ev + 1000)).status, 404);

    // The command line prints the same poster, given the same address.
    let out = s.dir.path().join("poster.pdf");
    let (t, o) = (tid.to_string(), out.to_str().unwrap().to_string());
    let run = s.cli(&[
        "print",
        "poster",
        "--tournament",
        &t,
        "--public-url",
        "https://go.example.org/weiqi/",
        "--out",
        &o,
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let back = common::readback::read("cli-poster", &std::fs::read(&out).unwrap());
    let cs = codes(&back);
    assert_eq!((crate::cards::decode(&cs[0]), crate::cards::decode(&cs[1])), (page, check_in));
}

/// Operations (no rule article): every page names the site's icon, and `/favicon.ico` (which
/// browsers ask for whatever a page links) answers it too: an SVG, its type said, cached a year —
/// no 404 in the phone's console on any page.
#[test]
fn every_page_links_the_icon_and_favicon_ico_answers() {
    let s = Server::start();
    let c = s.client();
    let home = c.get("/");
    assert!(home.body.contains("<link rel=\"icon\" href=\"/assets/favicon.svg\" type=\"image/svg+xml\">"));
    assert!(c.get("/login").body.contains("rel=\"icon\""));
    for path in ["/favicon.ico", "/assets/favicon.svg"] {
        let r = c.get(path);
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(r.header("content-type"), Some("image/svg+xml"), "{path}");
        assert!(r.header("cache-control").is_some_and(|v| v.contains("max-age=31536000")), "{path}");
        assert!(r.body.starts_with("<svg ") && r.body.trim_end().ends_with("</svg>"), "{}", r.body);
        assert!(r.bytes.len() < 1024, "a small icon: {} bytes", r.bytes.len());
    }
}
