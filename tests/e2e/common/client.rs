//! The test's HTTP client: a blocking ureq agent that keeps cookies, sends the Origin a
//! browser sends, reads CSRF tokens from the page it posts from, and never follows redirects
//! (a test checks each 303 and its Location itself).

use super::Server;
use std::collections::BTreeMap;
use std::io::Read;
use std::time::Duration;

/// A response: status, headers, and the body as bytes and as (lossy) text.
pub struct Resp {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub bytes: Vec<u8>,
    pub body: String,
}

impl Resp {
    /// The first header named `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
    /// The Location header, or "".
    pub fn location(&self) -> String {
        self.header("location").unwrap_or("").to_string()
    }
}

/// A browser's session on one server: cookies, language, Origin and Referer.
pub struct Client {
    agent: ureq::Agent,
    pub base: String,
    pub cookies: std::cell::RefCell<BTreeMap<String, String>>,
    pub accept_language: String,
    /// The Origin header sent with POSTs (None: send none).
    pub origin: Option<String>,
    /// A Referer header sent with POSTs (None: send none).
    pub referer: Option<String>,
    /// More headers sent with every request (e.g. X-Forwarded-For, as a proxy would).
    pub extra_headers: std::cell::RefCell<Vec<(String, String)>>,
}

impl Client {
    pub fn new(base: &str) -> Client {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        Client {
            agent,
            base: base.to_string(),
            cookies: Default::default(),
            accept_language: "en".into(),
            origin: Some(base.to_string()),
            referer: None,
            extra_headers: Default::default(),
        }
    }

    /// The same session read in Chinese: a client on the same server with this one's cookies
    /// (as of now) and Accept-Language zh-CN.
    pub fn in_chinese(&self) -> Client {
        let zh = Client::new(&self.base);
        zh.cookies.replace(self.cookies.borrow().clone());
        Client { accept_language: "zh-CN".into(), ..zh }
    }

    /// Point this client (cookies kept) at a restarted server.
    pub fn rebase(&mut self, s: &Server) {
        self.base = s.base.clone();
        self.origin = Some(s.base.clone());
    }

    fn cookie_header(&self) -> String {
        self.cookies.borrow().iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ")
    }

    /// A request with this client's cookies, language and extra headers.
    fn prepare<B>(&self, req: ureq::RequestBuilder<B>) -> ureq::RequestBuilder<B> {
        let mut req =
            req.header("Cookie", self.cookie_header()).header("Accept-Language", &self.accept_language);
        for (k, v) in self.extra_headers.borrow().iter() {
            req = req.header(k.as_str(), v.as_str());
        }
        req
    }

    /// Keep (or, when it expires or is emptied, forget) the cookie of a `Set-Cookie` header.
    fn keep_cookie(&self, set_cookie: &str) {
        let pair = set_cookie.split(';').next().unwrap_or("");
        let Some((name, value)) = pair.split_once('=') else { return };
        let removal = set_cookie.to_ascii_lowercase().contains("max-age=0") || value.is_empty();
        if removal {
            self.cookies.borrow_mut().remove(name.trim());
        } else {
            self.cookies.borrow_mut().insert(name.trim().to_string(), value.trim().to_string());
        }
    }

    fn finish(&self, resp: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> Resp {
        let mut resp = resp.expect("HTTP request");
        let status = resp.status().as_u16();
        let headers: Vec<(String, String)> = resp
            .headers()
            .iter()
            .map(|(k, v)| (k.as_str().to_string(), v.to_str().unwrap_or("").to_string()))
            .collect();
        for (_, v) in headers.iter().filter(|(k, _)| k.eq_ignore_ascii_case("set-cookie")) {
            self.keep_cookie(v);
        }
        let mut bytes = Vec::new();
        resp.body_mut().as_reader().read_to_end(&mut bytes).expect("read body");
        let body = String::from_utf8_lossy(&bytes).to_string();
        Resp { status, headers, bytes, body }
    }

    pub fn get(&self, path: &str) -> Resp {
        self.get_with(path, &[])
    }

    /// Set (or with None, remove) a header sent with every request.
    pub fn set_header(&self, name: &str, value: Option<&str>) {
        let mut h = self.extra_headers.borrow_mut();
        h.retain(|(k, _)| !k.eq_ignore_ascii_case(name));
        if let Some(v) = value {
            h.push((name.to_string(), v.to_string()));
        }
    }

    /// GET with extra headers (e.g. If-None-Match).
    pub fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> Resp {
        let mut req = self.prepare(self.agent.get(format!("{}{path}", self.base)));
        for (k, v) in headers {
            req = req.header(*k, *v);
        }
        self.finish(req.call())
    }

    pub fn post_raw(&self, path: &str, content_type: &str, body: Vec<u8>) -> Resp {
        let mut req = self
            .prepare(self.agent.post(format!("{}{path}", self.base)))
            .header("Content-Type", content_type);
        if let Some(o) = &self.origin {
            req = req.header("Origin", o);
        }
        if let Some(r) = &self.referer {
            req = req.header("Referer", r);
        }
        self.finish(req.send(&body[..]))
    }

    pub fn post_form(&self, path: &str, fields: &[(&str, &str)]) -> Resp {
        let body = form_urlencode(fields);
        self.post_raw(path, "application/x-www-form-urlencoded", body.into_bytes())
    }

    /// GET `page` for its CSRF token, then POST `fields` (plus the token) to `action`.
    pub fn submit(&self, page: &str, action: &str, fields: &[(&str, &str)]) -> Resp {
        let p = self.get(page);
        assert_eq!(p.status, 200, "GET {page}: {}", p.body);
        let token = p.csrf();
        let mut all: Vec<(&str, &str)> = vec![("csrf", &token)];
        all.extend_from_slice(fields);
        self.post_form(action, &all)
    }

    /// POST a multipart form with one file.
    pub fn post_file(
        &self,
        path: &str,
        fields: &[(&str, &str)],
        file_field: &str,
        filename: &str,
        data: &[u8],
    ) -> Resp {
        let boundary = "----tengen-e2e-boundary-7d1f";
        let mut body = Vec::new();
        for (k, v) in fields {
            body.extend_from_slice(
                format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n")
                    .as_bytes(),
            );
        }
        body.extend_from_slice(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{file_field}\"; filename=\"{filename}\"\r\nContent-Type: application/octet-stream\r\n\r\n")
                .as_bytes(),
        );
        body.extend_from_slice(data);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        self.post_raw(path, &format!("multipart/form-data; boundary={boundary}"), body)
    }

    pub fn login(&self, user: &str, pass: &str) -> Resp {
        self.submit("/login", "/login", &[("username", user), ("password", pass)])
    }
}

/// `application/x-www-form-urlencoded`, as a browser encodes a form.
pub fn form_urlencode(fields: &[(&str, &str)]) -> String {
    fn enc(s: &str) -> String {
        let mut o = String::new();
        for b in s.bytes() {
            match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => o.push(b as char),
                b' ' => o.push('+'),
                _ => o.push_str(&format!("%{b:02X}")),
            }
        }
        o
    }
    fields.iter().map(|(k, v)| format!("{}={}", enc(k), enc(v))).collect::<Vec<_>>().join("&")
}
