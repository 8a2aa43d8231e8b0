//! Accept-Language done right (RFC 9110 §12.5.4), and the reader's choice of language sticks
//! across pages and logins.

use crate::common;
use common::*;

fn page_lang(r: &Resp) -> String {
    attr_of(&r.body, "<html lang=\"").unwrap_or_default()
}

fn attr_of(body: &str, prefix: &str) -> Option<String> {
    let i = body.find(prefix)? + prefix.len();
    Some(body[i..].split('"').next()?.to_string())
}

/// The language switch link the page shows (`/lang/…`), unescaped.
fn switch_link(r: &Resp) -> String {
    let i = r.body.find("href=\"/lang/").expect("a language switch") + "href=\"".len();
    unescape(r.body[i..].split('"').next().unwrap())
}

#[test]
fn accept_language_q0_is_never_chosen() {
    let s = Server::start();
    for (header, want) in [
        ("zh-CN;q=0, en;q=0.3", "en"),
        ("en;q=0, fr", "zh-CN"),
        ("en;q=0, zh;q=0.001", "zh-CN"),
        ("zh-TW;q=0, zh-CN;q=0.5, en;q=0.4", "zh-CN"),
        ("zh-CN,zh;q=0.9,en;q=0.8", "zh-CN"),
        ("en-US,en;q=0.9,zh-CN;q=0.5", "en"),
    ] {
        let mut c = s.client();
        c.accept_language = header.into();
        let r = c.get("/login");
        assert_eq!(r.status, 200);
        assert_eq!(page_lang(&r), want, "Accept-Language: {header}");
    }
}

#[test]
fn a_users_language_sticks_across_pages_and_logins() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = create_tournament(&org, "语言测试赛");
    // The browser asks for English; the organizer switches to Chinese on the overview.
    let overview = org.get(&format!("/t/{tid}"));
    assert_eq!(page_lang(&overview), "en");
    let link = switch_link(&overview);
    assert!(link.starts_with("/lang/zh"), "{link}");
    let r = org.get(&link);
    assert_eq!(r.status, 303);
    assert_eq!(r.location(), format!("/t/{tid}"));
    for path in [format!("/t/{tid}"), format!("/t/{tid}/entrants"), format!("/t/{tid}/settings"), "/".into()]
    {
        assert_eq!(page_lang(&org.get(&path)), "zh-CN", "{path}");
    }
    assert_eq!(query_text(&s.db, "SELECT lang FROM user_prefs").as_deref(), Some("zh-CN"));
    assert_eq!(count_rows(&s.db, "SELECT COUNT(*) FROM audit WHERE action = 'set_lang'"), 1);
    // Logging out keeps the reader's choice; the login page is Chinese.
    let home = org.get("/");
    let out = org.post_form("/logout", &[("csrf", &home.csrf())]);
    assert_eq!(out.status, 303);
    assert_eq!(page_lang(&org.get("/login")), "zh-CN");

    // Another browser, asking for English, logs in as the same user: the account's choice wins.
    let other = s.client();
    assert_eq!(page_lang(&other.get("/login")), "en");
    let r = other.login(ORG_USER, ORG_PASS);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(page_lang(&other.get(&format!("/t/{tid}"))), "zh-CN");
    // Back to English there: stored again, and the first browser's next login reads it.
    let link = switch_link(&other.get(&format!("/t/{tid}")));
    assert!(link.starts_with("/lang/en"), "{link}");
    assert_eq!(other.get(&link).status, 303);
    assert_eq!(page_lang(&other.get("/")), "en");
    assert_eq!(query_text(&s.db, "SELECT lang FROM user_prefs").as_deref(), Some("en"));
    let r = org.login(ORG_USER, ORG_PASS);
    assert_eq!(r.status, 303);
    assert_eq!(page_lang(&org.get("/")), "en");
}

#[test]
fn a_switch_without_the_users_token_changes_only_the_cookie() {
    let s = Server::start();
    let org = s.first_organizer();
    // A link from elsewhere (no CSRF token) switches this browser but stores nothing.
    let r = org.get("/lang/zh-CN?next=/");
    assert_eq!(r.status, 303);
    assert_eq!(page_lang(&org.get("/")), "zh-CN");
    assert_eq!(count_rows(&s.db, "SELECT COUNT(*) FROM user_prefs"), 0);
    let r = org.get("/lang/en?next=/&csrf=forged");
    assert_eq!(r.status, 303);
    assert_eq!(count_rows(&s.db, "SELECT COUNT(*) FROM user_prefs"), 0);
    // Anonymous readers get the switch without any token.
    let anon = s.client();
    let link = switch_link(&anon.get("/login"));
    assert!(!link.contains("csrf"), "{link}");
}
