//! First run, login, CSRF, roles, throttling, headers and error pages, against the real binary.

use crate::common;
use common::*;

#[test]
fn first_run_link_creates_the_organizer_once_and_logs_in() {
    let s = Server::start();
    let url = s.setup_url.clone().expect("the console prints a one-time link when no account exists");
    assert!(url.contains("/setup/"), "{url}");
    let anon = s.client();
    let home = anon.get("/");
    assert_eq!(home.status, 200);
    assert!(!home.body.contains("New tournament"));

    // A wrong token is a 404; bad input is refused beside the field, nothing written.
    assert_eq!(anon.get("/setup/not-the-token").status, 404);
    let path = url.trim_start_matches(&s.base).to_string();
    let page = anon.get(&path);
    let r = anon.post_form(
        &path,
        &[("csrf", &page.csrf()), ("username", "bad name!"), ("password", "short"), ("password2", "other")],
    );
    assert_eq!(r.status, 400);
    assert!(r.field_error("username").is_some());
    assert!(r.field_error("password").is_some());
    assert!(r.field_error("password2").is_some());
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM users"), 0);

    let c = s.first_organizer();
    let home = c.get("/");
    assert!(home.body.contains(ORG_USER), "logged in after setup");
    assert!(home.body.contains("New tournament"));
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM audit WHERE entity = 'user'"), 1);

    // The link is spent.
    assert_eq!(s.client().get(&path).status, 404);
    // A restarted server with an account prints no link.
    let s2 = s.restart(&[]);
    assert!(s2.setup_url.is_none(), "{:?}", s2.stdout);
}

#[test]
fn login_logout_and_session_cookie_flags() {
    let s = Server::start();
    s.first_organizer();
    let c = s.client();
    let bad = c.login(ORG_USER, "wrong password");
    assert_eq!(bad.status, 401);
    assert!(bad.body.contains("Wrong user name or password"));
    let ok = c.login(ORG_USER, ORG_PASS);
    assert_eq!(ok.status, 303);
    let cookie = ok.header("set-cookie").unwrap_or("").to_string();
    let all: Vec<&str> = ok
        .headers
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case("set-cookie"))
        .map(|(_, v)| v.as_str())
        .collect();
    let session = all.iter().find(|v| v.starts_with("tengen_session=")).expect("session cookie");
    assert!(session.contains("HttpOnly"), "{cookie}");
    assert!(session.contains("SameSite=Strict"), "{session}");
    assert!(c.get("/").body.contains(ORG_USER));
    assert_eq!(c.get("/users").status, 200);

    let page = c.get("/");
    let out = c.post_form("/logout", &[("csrf", &page.csrf())]);
    assert_eq!(out.status, 303);
    let r = c.get("/users");
    assert_eq!(r.status, 303, "logged out: back to login");
    assert!(r.location().starts_with("/login"));
}

#[test]
fn posts_without_the_right_csrf_token_or_origin_are_refused() {
    let s = Server::start();
    let c = s.first_organizer();
    let fields = tournament_fields("无令牌赛", "No Token");
    // No token.
    let r = c.post_form("/t/new", &as_refs(&fields));
    assert_eq!(r.status, 403);
    assert!(r.body.contains("expired or did not come from this site"));
    // A wrong token.
    let mut f = fields.clone();
    f.push(("csrf".into(), "0".repeat(64)));
    assert_eq!(c.post_form("/t/new", &as_refs(&f)).status, 403);
    // The right token from another origin.
    let token = c.get("/t/new").csrf();
    let mut f = fields.clone();
    f.push(("csrf".into(), token));
    let mut evil = Client::new(&s.base);
    evil.cookies = c.cookies.clone();
    evil.origin = Some("http://evil.example".into());
    assert_eq!(evil.post_form("/t/new", &as_refs(&f)).status, 403);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM tournaments"), 0, "nothing written");
    // The same request from this origin works.
    assert_eq!(c.post_form("/t/new", &as_refs(&f)).status, 303);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM tournaments"), 1);
}

#[test]
fn arbiters_and_the_public_are_refused_organizer_actions() {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = create_tournament(&org, "角色测试赛");
    // The organizer adds an arbiter account and puts it on the tournament's staff.
    let r = org.submit(
        "/users",
        "/users",
        &[
            ("username", "ref1"),
            ("display_name", "裁判一"),
            ("role", "arbiter"),
            ("password", "arbiter-secret-1"),
        ],
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("ref1"));
    let uid = count_rows(&s.db, "SELECT id FROM users WHERE username = 'ref1'");
    let r = org.submit(
        &format!("/t/{tid}"),
        &format!("/t/{tid}/staff"),
        &[("user_id", &uid.to_string()), ("role", "arbiter")],
    );
    assert_eq!(r.status, 303, "{}", r.body);

    let arb = s.client();
    assert_eq!(arb.login("ref1", "arbiter-secret-1").status, 303);
    // An arbiter may read the tournament's admin pages...
    assert_eq!(arb.get(&format!("/t/{tid}/entrants")).status, 200);
    assert_eq!(arb.get(&format!("/t/{tid}/audit")).status, 200);
    // ...but not change settings, entrants, accounts or create tournaments.
    assert_eq!(arb.get(&format!("/t/{tid}/settings")).status, 403);
    assert_eq!(arb.get("/users").status, 403);
    assert_eq!(arb.get("/t/new").status, 403);
    let token = arb.get("/").csrf();
    let r = arb.post_form(
        &format!("/t/{tid}/entrants/new"),
        &[("csrf", &token), ("family_name_zh", "王"), ("given_name_zh", "伟"), ("rank", "1d")],
    );
    assert_eq!(r.status, 403);
    let mut f = tournament_fields("裁判建的赛", "Arbiter Event");
    f.push(("csrf".into(), token.clone()));
    assert_eq!(arb.post_form("/t/new", &as_refs(&f)).status, 403);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM entrants"), 0);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM tournaments"), 1);

    // The public reads public pages and is sent to the login page for the rest.
    let anon = s.client();
    assert_eq!(anon.get(&format!("/t/{tid}")).status, 200);
    assert_eq!(anon.get(&format!("/t/{tid}/players")).status, 200);
    let r = anon.get(&format!("/t/{tid}/entrants"));
    assert_eq!(r.status, 303);
    assert!(r.location().starts_with("/login?next="));
    // Another organizer who is not on this tournament's staff is refused too.
    org.submit(
        "/users",
        "/users",
        &[("username", "org2"), ("role", "organizer"), ("password", "organizer-secret-2")],
    );
    let org2 = s.client();
    assert_eq!(org2.login("org2", "organizer-secret-2").status, 303);
    assert_eq!(org2.get(&format!("/t/{tid}/settings")).status, 403);
}

#[test]
fn login_attempts_are_throttled() {
    let s = Server::start();
    s.first_organizer();
    let c = s.client();
    let mut statuses = Vec::new();
    for _ in 0..7 {
        statuses.push(c.login(ORG_USER, "guessing-wrong").status);
    }
    assert_eq!(&statuses[..5], &[401; 5], "{statuses:?}");
    assert_eq!(statuses[6], 429, "{statuses:?}");
    // Even the right password waits now.
    assert_eq!(c.login(ORG_USER, ORG_PASS).status, 429);
}

#[test]
fn security_headers_and_error_pages() {
    let s = Server::start();
    let c = s.client();
    let r = c.get("/");
    assert_eq!(r.header("x-frame-options"), Some("DENY"));
    assert_eq!(r.header("x-content-type-options"), Some("nosniff"));
    assert!(r.header("content-security-policy").unwrap_or("").contains("frame-ancestors 'none'"));
    assert!(r.header("referrer-policy").is_some());
    for path in ["/t/999", "/t/abc", "/nowhere", "/t/-1/players", "/t/99999999999999/audit"] {
        let r = c.get(path);
        assert_eq!(r.status, 404, "{path}");
        assert!(r.body.contains("There is no such page"), "{path}: {}", r.body);
    }
    // Logged in: unknown tournaments and entrants are 404 pages too, never a panic.
    let org = s.first_organizer();
    let tid = create_tournament(&org, "四〇四赛");
    for path in
        ["/t/1/entrants/2/edit", "/t/999/settings", "/t/999/entrants", &format!("/t/{tid}/entrants/77/edit")]
    {
        let r = org.get(path);
        assert_eq!(r.status, 404, "{path}");
        assert!(r.body.contains("There is no such page"), "{path}: {}", r.body);
    }
    let token = org.get("/").csrf();
    let r = org.post_form(&format!("/t/{tid}/entrants/77/withdraw"), &[("csrf", &token)]);
    assert_eq!(r.status, 404);
    let css = c.get("/assets/style.css");
    assert_eq!(css.status, 200);
    assert!(css.body.contains("@media print"));
}

#[test]
fn cli_user_add_creates_accounts_with_audit() {
    let s = Server::start();
    let out = cli(&s.db, &["user", "add", "--role", "organizer", "boss"], Some("cli-password-123"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = cli(&s.db, &["user", "add", "--role", "arbiter", "weak"], Some("short"));
    assert!(!out.status.success());
    let c = s.client();
    assert_eq!(c.login("boss", "cli-password-123").status, 303);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM audit WHERE entity = 'user' AND actor = 'cli'"), 1);
}
