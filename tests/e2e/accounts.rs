//! Accounts and sessions against the real binary: the login throttle behind and without
//! a proxy, password strength and changes, hashed and expiring sessions, Secure cookies and
//! HSTS, and who manages which account.

use crate::common;
use common::*;

/// `n` failed logins at `user` from `c` (whatever headers it carries); their statuses.
fn fail(c: &Client, user: &str, n: usize) -> Vec<u16> {
    (0..n).map(|_| c.login(user, "guessing-wrong-1").status).collect()
}

/// A client that says (through `X-Forwarded-For`) it comes from `addr`.
fn from(s: &Server, addr: &str) -> Client {
    let c = s.client();
    c.set_header("X-Forwarded-For", Some(addr));
    c
}

#[test]
fn a_forged_forwarded_for_does_not_escape_the_throttle() {
    let s = Server::start();
    s.first_organizer();
    // No trusted proxy: the header is the client's own word, and each guess "comes from" a new
    // address. The account is locked after 5 all the same.
    let statuses: Vec<u16> = (0..8)
        .map(|i| from(&s, &format!("198.51.100.{i}")).login(ORG_USER, "guessing-wrong-1").status)
        .collect();
    assert_eq!(&statuses[..5], &[401; 5], "{statuses:?}");
    assert!(statuses[5..].iter().all(|st| *st == 429), "{statuses:?}");
}

#[test]
fn successful_logins_do_not_count() {
    let s = Server::start();
    s.first_organizer();
    // An arbiter logging in on many devices is never locked out.
    for i in 0..12 {
        assert_eq!(s.client().login(ORG_USER, ORG_PASS).status, 303, "login {i}");
    }
    // Four mistakes and the right password still gets in; the fifth mistake is still a 401.
    let c = s.client();
    assert_eq!(fail(&c, ORG_USER, 4), vec![401; 4]);
    assert_eq!(c.login(ORG_USER, ORG_PASS).status, 303);
    assert_eq!(fail(&s.client(), ORG_USER, 1), vec![401]);
    assert_eq!(s.client().login(ORG_USER, ORG_PASS).status, 429, "now the account waits");
}

#[test]
fn behind_a_trusted_proxy_addresses_and_accounts_are_throttled_apart() {
    let s = Server::start_args(&["--trusted-proxy", "127.0.0.1"]);
    let org = s.first_organizer();
    let (_, _) = add_user(&s, &org, "arb1", "arbiter");
    let (_, _) = add_user(&s, &org, "arb2", "arbiter");
    // A guesser at arb1 from one address is stopped there; arb1 still gets in from another...
    let guesser = from(&s, "203.0.113.66");
    assert_eq!(fail(&guesser, "arb1", 5), vec![401; 5]);
    assert_eq!(fail(&guesser, "arb1", 1), vec![429]);
    assert_eq!(guesser.login("arb1", "arb1-secret-pass-1").status, 429, "not from the guesser's address");
    assert_eq!(from(&s, "192.0.2.10").login("arb1", "arb1-secret-pass-1").status, 303);
    // ...but not arb2, who shares the venue's proxy and an address with nobody.
    assert_eq!(from(&s, "192.0.2.11").login("arb2", "arb2-secret-pass-1").status, 303);
    // Rotating the account from one address: the address runs out (30), other addresses don't.
    let sprayer = from(&s, "203.0.113.77");
    let statuses: Vec<u16> =
        (0..34).map(|i| sprayer.login(&format!("nobody{i}"), "guessing-wrong-1").status).collect();
    assert_eq!(&statuses[..30], &[401; 30], "{statuses:?}");
    assert!(statuses[30..].iter().all(|st| *st == 429), "{statuses:?}");
    assert_eq!(sprayer.login("arb2", "arb2-secret-pass-1").status, 429, "that address waits");
    assert_eq!(from(&s, "192.0.2.12").login("arb2", "arb2-secret-pass-1").status, 303);
    // The proxy's own hop (the last, trusted) is not the client: the hop before it is.
    let chain = s.client();
    chain.set_header("X-Forwarded-For", Some("203.0.113.77, 127.0.0.1"));
    assert_eq!(chain.login("arb2", "arb2-secret-pass-1").status, 429, "still 203.0.113.77");
}

/// The statuses of `n` wrong passwords at `user` from `c`, one login page's token for all
/// (a guesser does not fetch the form each time).
fn guess(c: &Client, user: &str, passwords: impl Iterator<Item = String>) -> Vec<u16> {
    let token = c.get("/login").csrf();
    passwords
        .map(|p| c.post_form("/login", &[("csrf", &token), ("username", user), ("password", &p)]).status)
        .collect()
}

/// Office rule (login throttle): failures are counted per account and address, with a
/// looser ceiling per account that binds only addresses which have failed at it. A stranger's
/// stream of guesses shuts out neither the owner (from an address that has not failed) nor
/// anyone else; 10,000 guesses spread over 100 addresses are checked at most once per address
/// and the ceiling's burst, so the right password among them is never even tried.
#[test]
fn a_strangers_guesses_do_not_shut_the_owner_out_and_spreading_them_gets_nowhere() {
    let s = Server::start_args(&["--trusted-proxy", "127.0.0.1"]);
    let org = s.first_organizer();
    let _ = add_user(&s, &org, "arb1", "arbiter");
    // A stranger guesses on and on from one address: checked 5 times, then held.
    let stranger = from(&s, "203.0.113.66");
    let said = guess(&stranger, "arb1", (0..40).map(|i| format!("wrong-guess-{i}")));
    assert_eq!(said.iter().filter(|st| **st == 401).count(), 5, "{said:?}");
    assert!(said[5..].iter().all(|st| *st == 429), "{said:?}");
    // The owner, at the venue, gets in during the stream.
    assert_eq!(from(&s, "192.0.2.10").login("arb1", "arb1-secret-pass-1").status, 303);

    // 100 addresses, 100 guesses each, the right password as the 50th guess of address 42.
    let base = s.base.clone();
    let workers: Vec<_> = (0..4)
        .map(|w| {
            let base = base.clone();
            std::thread::spawn(move || {
                let mut out = Vec::new();
                for a in (0..100).filter(|a| a % 4 == w) {
                    let c = Client::new(&base);
                    c.set_header("X-Forwarded-For", Some(&format!("198.51.100.{a}")));
                    let passwords = (0..100).map(move |g| {
                        if a == 42 && g == 49 {
                            "arb1-secret-pass-1".to_string()
                        } else {
                            format!("spread-guess-{a}-{g}")
                        }
                    });
                    out.extend(
                        guess(&c, "arb1", passwords).into_iter().enumerate().map(|(g, st)| (a, g, st)),
                    );
                }
                out
            })
        })
        .collect();
    let all: Vec<(usize, usize, u16)> = workers.into_iter().flat_map(|w| w.join().unwrap()).collect();
    assert_eq!(all.len(), 10_000);
    let checked = all.iter().filter(|(_, _, st)| *st == 401).count();
    let held = all.iter().filter(|(_, _, st)| *st == 429).count();
    assert!(checked <= 100 + 30, "checked {checked} of 10,000");
    assert_eq!(checked + held, 10_000, "every guess was refused");
    assert_eq!(all.iter().find(|(a, g, _)| *a == 42 && *g == 49).map(|x| x.2), Some(429), "never tried");
    // Meanwhile and after, the owner and the other staff get in.
    assert_eq!(from(&s, "192.0.2.11").login("arb1", "arb1-secret-pass-1").status, 303);
    assert_eq!(from(&s, "192.0.2.11").login(ORG_USER, ORG_PASS).status, 303);
}

/// Office rule (passwords): what Chinese users choose first — pinyin names and romanized
/// phrases with number phrases (520, 1314, 8888) or a year, Tengen's own names (tianyuan,
/// tengen), the office's event names, one's own name — is refused with the reason in the
/// user's language, by the web forms and the command line; passphrases still pass.
#[test]
fn usual_chinese_passwords_are_refused_with_the_reason() {
    let s = Server::start();
    let org = s.first_organizer();
    let f = tournament_fields("春兰杯围棋赛", "Chunlan Cup");
    assert_eq!(org.submit("/t/new", "/t/new", &as_refs(&f)).status, 303);
    for (weak, lang, reason) in [
        ("woaini1314520", "zh-CN", "数字谐音"),
        ("zhangwei1990", "zh-CN", "常见姓氏的拼音"),
        ("zhangwei1990", "en", "a common surname in pinyin"),
        ("liuyang19880512", "zh-CN", "年份或日期"),
        ("wangfang520520", "en", "a number phrase"),
        ("tianyuan2026", "en", "the name of Tengen or of an event"),
        ("Tengen2026!", "en", "the name of Tengen or of an event"),
        ("Tengen2026!", "zh-CN", "天元"),
        ("chunlancup2026", "en", "the name of Tengen or of an event"),
        ("ouyangxiuyuan2001", "en", "your own name"),
        ("ouyangxiuyuan2001", "zh-CN", "您自己的名字"),
    ] {
        let mut c = Client::new(&s.base);
        c.cookies = org.cookies.clone();
        c.accept_language = lang.into();
        let r = c.submit(
            "/users",
            "/users",
            &[
                ("username", "xiuyuan"),
                ("display_name", "欧阳修远"),
                ("role", "arbiter"),
                ("password", weak),
                ("password2", weak),
            ],
        );
        assert_eq!(r.status, 400, "{weak:?}: {}", r.body);
        let e = r.field_error("password").unwrap_or_default();
        let guessable = if lang == "en" { "too easy to guess" } else { "太容易被猜中" };
        assert!(e.contains(guessable) && e.contains(reason), "{weak:?} ({lang}): {e}");
    }
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM users"), 1, "nothing written");
    // Passphrases pass.
    for (i, good) in
        ["plum blossom tea house", "lanzhou noodles at dawn", "organizer-secret-7"].iter().enumerate()
    {
        let name = format!("good{i}");
        let r = org.submit(
            "/users",
            "/users",
            &[
                ("username", &name),
                ("display_name", "李娜"),
                ("role", "arbiter"),
                ("password", good),
                ("password2", good),
            ],
        );
        assert_eq!(r.status, 200, "{good:?}: {}", r.field_error("password").unwrap_or_default());
    }
    // A new password is held to the same rule; so is the command line.
    let (arb, _) = add_user(&s, &org, "arb", "arbiter");
    let r = arb.submit(
        "/account",
        "/account/password",
        &[
            ("old_password", "arb-secret-pass-1"),
            ("password", "woaini5201314"),
            ("password2", "woaini5201314"),
        ],
    );
    assert_eq!(r.status, 400, "{}", r.body);
    let out = cli(&s.db, &["user", "add", "--role", "arbiter", "zw"], Some("zhangwei1990"));
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("常见姓氏的拼音"), "{out:?}");
}

#[test]
fn weak_passwords_are_refused_with_the_reason_in_the_users_language() {
    let s = Server::start();
    let org = s.first_organizer();
    for (weak, lang, reason) in [
        ("1234567890", "en", "too easy to guess"),
        ("password12", "en", "too easy to guess"),
        ("          ", "en", "too easy to guess"),
        ("qwertyuiop", "zh-CN", "太容易被猜中"),
        ("short", "zh-CN", "至少需要10个字符"),
    ] {
        let mut c = Client::new(&s.base);
        c.cookies = org.cookies.clone();
        c.accept_language = lang.into();
        let r = c.submit(
            "/users",
            "/users",
            &[("username", "weakling"), ("role", "arbiter"), ("password", weak)],
        );
        assert_eq!(r.status, 400, "{weak:?}: {}", r.body);
        let e = r.field_error("password").unwrap_or_default();
        assert!(e.contains(reason), "{weak:?} ({lang}): {e}");
        assert_eq!(r.input("username").as_deref(), Some("weakling"), "the typed entry survives");
    }
    // The password names the account: refused.
    let r = org.submit(
        "/users",
        "/users",
        &[("username", "zhangwei"), ("role", "arbiter"), ("password", "zhangwei2026")],
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM users"), 1, "nothing written");
    // The command line applies the same rule.
    let out = s.cli(&["user", "add", "--role", "arbiter", "weak"]);
    assert!(!out.status.success());
    let out = cli(&s.db, &["user", "add", "--role", "arbiter", "weak"], Some("password12"));
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("tengen：密码：此密码太容易被猜中"), "{out:?}");
}

#[test]
fn users_change_their_own_password_and_their_other_sessions_end() {
    let s = Server::start();
    let org = s.first_organizer();
    let (arb, _) = add_user(&s, &org, "arb", "arbiter");
    let phone = s.client();
    assert_eq!(phone.login("arb", "arb-secret-pass-1").status, 303);
    let page = arb.get("/account");
    assert_eq!(page.status, 200);
    let change = |old: &str, new: &str, again: &str| {
        arb.submit(
            "/account",
            "/account/password",
            &[("old_password", old), ("password", new), ("password2", again)],
        )
    };
    // The old password is required, the new one must be strong and typed twice.
    let r = change("not-my-password", "plum blossom tea house", "plum blossom tea house");
    assert_eq!(r.status, 400);
    assert!(r.field_error("old_password").is_some(), "{}", r.body);
    let r = change("arb-secret-pass-1", "password12", "password12");
    assert_eq!(r.status, 400);
    assert!(r.field_error("password").is_some());
    let r = change("arb-secret-pass-1", "plum blossom tea house", "plum blossom tea room");
    assert_eq!(r.status, 400);
    assert!(r.field_error("password2").is_some());
    assert!(phone.get("/account").status == 200, "nothing changed yet");
    let r = change("arb-secret-pass-1", "plum blossom tea house", "plum blossom tea house");
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.body.contains("Your password was changed"));
    // This session stays, the phone's ended; the new password logs in, the old one not.
    assert_eq!(arb.get("/account").status, 200);
    assert_eq!(phone.get("/account").status, 303);
    assert_eq!(s.client().login("arb", "arb-secret-pass-1").status, 401);
    assert_eq!(s.client().login("arb", "plum blossom tea house").status, 303);
    assert_eq!(
        count_rows(&s.db, "SELECT count(*) FROM audit WHERE entity = 'user' AND action = 'password'"),
        1
    );
}

#[test]
fn an_organizer_resets_the_staff_they_added_and_the_cli_resets_anyone() {
    let s = Server::start();
    let admin = s.first_organizer();
    let (org2, org2_id) = add_user(&s, &admin, "org2", "organizer");
    let (arb, arb_id) = add_user(&s, &org2, "arb", "arbiter");
    let (_, admins_arb) = add_user(&s, &admin, "arb9", "arbiter");
    let new = [("password", "winter camellia garden"), ("password2", "winter camellia garden")];
    let r = org2.submit(&format!("/users/{arb_id}/password"), &format!("/users/{arb_id}/password"), &new);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(arb.get("/account").status, 303, "the arbiter's sessions ended");
    assert_eq!(s.client().login("arb", "winter camellia garden").status, 303);
    // Not the administrator's, nor another organizer's arbiter, nor their own here.
    let token = org2.get("/users").csrf();
    for uid in [1, admins_arb, org2_id] {
        let r = org2.post_form(
            &format!("/users/{uid}/password"),
            &[
                ("csrf", &token),
                ("password", "winter camellia garden"),
                ("password2", "winter camellia garden"),
            ],
        );
        assert_eq!(r.status, 403, "user {uid}: {}", r.body);
        assert_eq!(org2.get(&format!("/users/{uid}/password")).status, 403);
    }
    // A weak reset is refused beside the field.
    let r = org2.submit(
        &format!("/users/{arb_id}/password"),
        &format!("/users/{arb_id}/password"),
        &[("password", "1234567890"), ("password2", "1234567890")],
    );
    assert_eq!(r.status, 400);
    assert!(r.field_error("password").is_some());
    // From the machine: `tengen user passwd NAME`.
    let out = cli(&s.db, &["user", "passwd", ORG_USER], Some("password12"));
    assert!(!out.status.success(), "weak: refused");
    let out = cli(&s.db, &["user", "passwd", "nobody"], Some("autumn lantern river"));
    assert!(!out.status.success(), "no such account");
    let out = cli(&s.db, &["user", "passwd", ORG_USER], Some("autumn lantern river"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(admin.get("/users").status, 303, "the administrator's sessions ended");
    assert_eq!(s.client().login(ORG_USER, "autumn lantern river").status, 303);
    assert_eq!(
        count_rows(&s.db, "SELECT count(*) FROM audit WHERE action = 'password' AND actor = 'cli'"),
        1
    );
}

#[test]
fn session_tokens_are_stored_hashed_and_idle_sessions_end() {
    let s = Server::start_args(&["--idle-timeout", "30m"]);
    let org = s.first_organizer();
    let token = org.cookies.borrow().get("tengen_session").cloned().expect("session cookie");
    assert_eq!(token.len(), 64);
    // The database (and so every backup) holds no live token.
    let stored = query(&s.db, "SELECT token_hash FROM sessions");
    assert_eq!(stored.len(), 1);
    assert_ne!(stored[0][0], token);
    let backup = s.dir.path().join("copy.sqlite");
    assert!(s.cli(&["backup", backup.to_str().unwrap()]).status.success());
    let bytes = std::fs::read(&backup).unwrap();
    assert!(!bytes.windows(64).any(|w| w == token.as_bytes()), "the token is in the backup");
    // The stored hash is not a key either.
    let thief = s.client();
    thief.cookies.borrow_mut().insert("tengen_session".into(), stored[0][0].clone());
    assert_eq!(thief.get("/users").status, 303);
    // Used 20 minutes ago: still in (and the use is noted); 40 minutes: ended.
    let ago = |m: i64| format!("UPDATE sessions SET last_seen_at = '{}'", utc_text_in_minutes(-m));
    exec_sql(&s.db, &ago(20));
    assert_eq!(org.get("/users").status, 200);
    let seen = query_opt(
        &s.db,
        &format!("SELECT count(*) FROM sessions WHERE last_seen_at > '{}'", utc_text_in_minutes(-1)),
    );
    assert_eq!(seen, Some(1), "the use was noted");
    exec_sql(&s.db, &ago(40));
    let r = org.get("/users");
    assert_eq!(r.status, 303, "idle for 40 minutes: logged out");
    assert!(r.location().starts_with("/login"));
}

fn set_cookies(r: &Resp) -> Vec<String> {
    r.headers.iter().filter(|(k, _)| k.eq_ignore_ascii_case("set-cookie")).map(|(_, v)| v.clone()).collect()
}

fn secure(v: &str) -> bool {
    v.split(';').any(|a| a.trim().eq_ignore_ascii_case("secure"))
}

#[test]
fn https_sites_get_secure_cookies_and_hsts() {
    // Plain http (a venue's LAN): neither, and a client's X-Forwarded-Proto is not believed.
    let s = Server::start();
    let c = s.client();
    c.set_header("X-Forwarded-Proto", Some("https"));
    let r = c.get("/login");
    assert!(r.header("strict-transport-security").is_none());
    assert!(set_cookies(&r).iter().all(|v| !secure(v)), "{:?}", set_cookies(&r));

    // --public-url https://…: every cookie Secure, HSTS on every response, and forms posted
    // from the public origin are accepted.
    let s = Server::start_args(&["--public-url", "https://go.example.org"]);
    let c = s.client();
    let r = c.get("/");
    assert!(r.header("strict-transport-security").unwrap_or("").contains("max-age="), "{:?}", r.headers);
    assert!(set_cookies(&r).iter().all(|v| secure(v)) && !set_cookies(&r).is_empty());
    let mut c = s.client();
    c.origin = Some("https://go.example.org".into());
    let setup = s.setup_url.clone().unwrap();
    let page = c.get(setup.trim_start_matches(&s.base));
    let r = c.post_form(
        s.setup_url.as_ref().unwrap().trim_start_matches(&s.base),
        &[("csrf", &page.csrf()), ("username", ORG_USER), ("password", ORG_PASS), ("password2", ORG_PASS)],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let session = set_cookies(&r).into_iter().find(|v| v.starts_with("tengen_session=")).expect("session");
    assert!(secure(&session), "{session}");
    assert!(c.get("/nowhere").header("strict-transport-security").is_some(), "error pages too");

    // Behind a trusted proxy that terminates TLS: its X-Forwarded-Proto decides.
    let s = Server::start_args(&["--trusted-proxy", "127.0.0.1"]);
    let c = s.client();
    c.set_header("X-Forwarded-Proto", Some("https"));
    let r = c.get("/login");
    assert!(r.header("strict-transport-security").is_some());
    assert!(set_cookies(&r).iter().all(|v| secure(v)) && !set_cookies(&r).is_empty());
    c.set_header("X-Forwarded-Proto", Some("http"));
    assert!(c.get("/login").header("strict-transport-security").is_none());
    // A public page kept in the cache is answered ahead of every other layer
    // (`public::cached_first`): HSTS all the same, the second time too.
    let t = create_tournament(&s.first_organizer(), "HSTS 测试赛");
    let anon = s.client();
    anon.set_header("X-Forwarded-Proto", Some("https"));
    for _ in 0..2 {
        let r = anon.get(&format!("/t/{t}/standings"));
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(r.header("strict-transport-security").is_some(), "{:?}", r.headers);
    }
    anon.set_header("X-Forwarded-Proto", Some("http"));
    assert!(anon.get(&format!("/t/{t}/standings")).header("strict-transport-security").is_none());
}

#[test]
fn organizers_manage_only_the_staff_they_added() {
    let s = Server::start();
    let admin = s.first_organizer();
    let (org2, _) = add_user(&s, &admin, "org2", "organizer");
    let (_, org3_id) = add_user(&s, &admin, "org3", "organizer");
    let (_, admins_arb) = add_user(&s, &admin, "arb1", "arbiter");
    let (_, mine) = add_user(&s, &org2, "arb2", "arbiter");
    let admin_id = count_rows(&s.db, &format!("SELECT id FROM users WHERE username = '{ORG_USER}'")) as i32;
    let deactivate = |c: &Client, uid: i32| {
        let token = c.get("/users").csrf();
        c.post_form(&format!("/users/{uid}/deactivate"), &[("csrf", &token)])
    };
    // Not the administrator, not another organizer, not the administrator's arbiter.
    for uid in [admin_id, org3_id, admins_arb] {
        assert_eq!(deactivate(&org2, uid).status, 403, "user {uid}");
    }
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM users WHERE NOT active"), 0);
    assert_eq!(count_rows(&s.db, "SELECT count(*) FROM sessions WHERE user_id = 1"), 1, "sessions kept");
    // An organizer adds arbiters, not organizers.
    let r = org2.submit(
        "/users",
        "/users",
        &[("username", "boss2"), ("role", "organizer"), ("password", "plum blossom tea house")],
    );
    assert_eq!(r.status, 400);
    assert!(r.field_error("role").is_some());
    // The page lists what they manage, not everyone.
    let page = org2.get("/users");
    assert!(
        page.body.contains("arb2") && !page.body.contains("arb1") && !page.body.contains("org3"),
        "{}",
        page.body
    );
    // Their own arbiter: yes — until the arbiter also works for another organizer's event.
    assert_eq!(deactivate(&org2, mine).status, 303);
    let token = org2.get("/users").csrf();
    assert_eq!(org2.post_form(&format!("/users/{mine}/activate"), &[("csrf", &token)]).status, 303);
    let other = create_tournament(&admin, "管理员的赛");
    add_staff(&admin, other, mine, "arbiter");
    assert_eq!(deactivate(&org2, mine).status, 403, "now the administrator's arbiter too");
    // The administrator manages everyone but themselves.
    assert_eq!(deactivate(&admin, org3_id).status, 303);
    assert_eq!(deactivate(&admin, admin_id).status, 403);
}
