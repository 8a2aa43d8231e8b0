//! Proof by crawling: every page of a demo event walked in zh-CN and in en,
//! as organizer, arbiter and public, in every state of its round (draft, published, results
//! in, confirmed, corrected), with every PDF and CSV the pages link to, and no text of the
//! other language found (the event's own data — names, units, the event's name, what users
//! typed — and a short list of proper nouns and codes excepted).
//!
//! The event is made over HTTP as an organizer makes it: the tournament form, a CSV of
//! entrants with Chinese names and units, an arbiter's account given the event, round 1 paired
//! (draft), published, its results entered (a count, a resignation with a warning, a forfeit,
//! a loss by lateness from the lateness sheet, the bye), confirmed, and one result corrected
//! after confirmation. A small team-relay event (seed 003: two teams, one match with its
//! line-ups and first section) is walked too.
//!
//! A pass starts from `/` and the event's overview and follows every same-site `<a href>` of
//! the event (GET only: the language switch's links and `/assets/` are left alone, no form is
//! sent), each address once (path and query: numeric ids kept), at most `MAX_PAGES` a pass.
//! A page's text is what a reader sees: outside `<script>`, `<style>` and `<code>` (seeds and
//! the audit's JSON, machine data), plus the attributes shown to users (title, placeholder,
//! alt, aria-label, the value of buttons). A zh-CN page may hold no Latin word but the data's
//! and [`PROPER_NOUNS`]; an en page no CJK text but the data's and the switch's label 中文.
//! Every PDF and CSV a page links to is fetched once per state and checked in its own
//! language (`lang=`, else the reader's): the PDFs' text read back with lopdf (through the
//! fonts' ToUnicode maps), the CSVs' every cell. Run with `--nocapture` to see the pages.

use crate::common;
use common::team::*;
use common::*;
use std::collections::{BTreeMap, BTreeSet, HashSet, VecDeque};

/// At most this many pages in one pass (the event has about a hundred per role).
const MAX_PAGES: usize = 400;
/// At most this many addresses of one path that differ only in their query (`?round=`,
/// `?before=`, audit filters…): the template is the same.
const MAX_QUERIES_PER_PATH: usize = 4;

/// Latin words that are no English on a Chinese page: names of products, formats, algorithms
/// and organisations, abbreviations and codes. Nothing else: a word of the interface belongs in
/// the catalog. (Single letters are symbols — players A and B, the variables of the lots'
/// description, the crosstable's b/w, ranks 3d/20k/1p — and are not words of either language.)
const PROPER_NOUNS: &[&str] = &[
    "Tengen",    // the product (天元 Tengen, the brand in the header)
    "English",   // the language switch's label on Chinese pages, in its own language
    "OpenGotha", // the pairing program whose files are imported and exported
    "EGF",       // European Go Federation (its rating-list file)
    "SGF",       // the game-record format
    "PDF",       // file formats and encodings
    "CSV",
    "XML",
    "UTF",
    "GBK",
    "BOM",
    "Excel", // the spreadsheet the CSV files are written for
    "KB",    // units of file size
    "MB",
    "UTC", // the time zone's name and its database
    "IANA",
    "SB",  // Sonneborn–Berger (SB分), the tie-break's usual name in Chinese
    "WAL", // SQLite's journal and synchronous modes as the server reports them
    "FULL",
    "PostgreSQL", // the database server, as the organizers' page names it
    "ChaCha",     // the lots' description: the ChaCha20 generator (RFC 8439), the
    "RFC",        // Fisher–Yates shuffle, and its own functions below(n) and mod
    "Fisher",
    "Yates",
    "below",
    "mod",
    "kj", // the find boxes' example of pinyin initials (柯洁), what to type
];

/// CJK text that is no Chinese on an English page.
const CJK_PROPER: &[&str] = &[
    "中文", // the language switch's label on English pages, in its own language
    "天元", // the product's name in the brand (天元 Tengen)
    // Spellings the forms read, quoted as examples of what to type: komi in stones (子) or
    // points (目, 7目半), ranks (3段, 20级, 职业九段).
    "子",
    "目",
    "目半",
    "段",
    "级",
    "职业九段",
];

/// The event's own data, which may show in either language.
#[derive(Default)]
struct Data {
    /// CJK strings (names, units, regions, the event's name, what users typed).
    cjk: BTreeSet<String>,
    /// Latin words (Latin names, the event's Latin name, user names).
    latin: HashSet<String>,
}

impl Data {
    fn add(&mut self, s: &str) {
        let s = s.trim();
        if s.is_empty() {
            return;
        }
        for run in cjk_runs(s) {
            self.cjk.insert(run);
        }
        for w in latin_runs(s) {
            self.latin.insert(w);
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
enum Lang {
    Zh,
    En,
}

impl Lang {
    fn header(self) -> &'static str {
        match self {
            Lang::Zh => "zh-CN,zh;q=0.9",
            Lang::En => "en-US,en;q=0.9",
        }
    }
    fn code(self) -> &'static str {
        match self {
            Lang::Zh => "zh-CN",
            Lang::En => "en",
        }
    }
}

fn is_cjk(c: char) -> bool {
    ('\u{2e80}'..='\u{9fff}').contains(&c)
        || ('\u{f900}'..='\u{faff}').contains(&c)
        || ('\u{fe30}'..='\u{fe4f}').contains(&c)
        || ('\u{ff00}'..='\u{ffef}').contains(&c)
        || ('\u{20000}'..='\u{2fa1f}').contains(&c)
}

/// Maximal runs of CJK characters (ideographs, CJK punctuation, full-width forms).
fn cjk_runs(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in s.chars() {
        if is_cjk(c) {
            cur.push(c);
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Maximal runs of Latin letters (ASCII and accented).
fn latin_runs(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in s.chars() {
        if c.is_ascii_alphabetic() || ('\u{c0}'..='\u{24f}').contains(&c) && c != '×' && c != '÷' {
            cur.push(c);
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// A whitespace-separated piece of text that is an address, a file name or a zone name
/// (`Asia/Shanghai`): not words of either language.
fn urlish(token: &str) -> bool {
    let t = token.trim_matches(|c: char| !c.is_alphanumeric() && c != '/');
    if t.contains("://") || t.starts_with('/') || t.contains('@') || token.starts_with("--") {
        // Addresses, mail addresses, the server's command-line options (--backup-dir).
        return true;
    }
    if t.ends_with('/') && t.len() > 1 {
        // A folder (backups/).
        return true;
    }
    let ext = [".csv", ".pdf", ".sgf", ".xml", ".h9", ".db", ".txt", ".md"];
    if ext.iter().any(|e| t.to_ascii_lowercase().ends_with(e)) {
        return true;
    }
    // An IANA zone (Area/Location, Area/Location/More).
    let parts: Vec<&str> = t.split('/').collect();
    parts.len() >= 2
        && parts.iter().all(|p| {
            !p.is_empty()
                && p.chars().next().is_some_and(|c| c.is_ascii_uppercase())
                && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '+')
        })
}

/// The letters of a board's edge as a record sheet prints them (A–T without I, each letter of
/// the top and bottom edges read one after the other).
fn board_coordinates(w: &str) -> bool {
    let mut letters: Vec<char> = w.chars().collect();
    letters.dedup();
    let edge = "ABCDEFGHJKLMNOPQRST";
    (9..=edge.len()).contains(&letters.len()) && letters.iter().collect::<String>() == edge[..letters.len()]
}

/// Whether `run` is made of allowed pieces, one after the other (a name beside a unit).
fn segmented(run: &str, pieces: &BTreeSet<String>) -> bool {
    let chars: Vec<char> = run.chars().collect();
    let n = chars.len();
    let mut ok = vec![false; n + 1];
    ok[0] = true;
    for i in 0..n {
        if !ok[i] {
            continue;
        }
        for j in i + 1..=n {
            if !ok[j] {
                let piece: String = chars[i..j].iter().collect();
                if pieces.contains(&piece) {
                    ok[j] = true;
                }
            }
        }
    }
    ok[n]
}

/// The foreign strings of `text` for a reader of `lang`.
fn foreign(text: &str, lang: Lang, data: &Data, cjk_pieces: &BTreeSet<String>) -> Vec<String> {
    let mut out = Vec::new();
    match lang {
        Lang::Zh => {
            // Pieces of text between spaces and Chinese characters.
            let spaced: String = text.chars().map(|c| if is_cjk(c) { ' ' } else { c }).collect();
            for token in spaced.split_whitespace() {
                if urlish(token) {
                    continue;
                }
                for w in latin_runs(token) {
                    let symbol = w.chars().count() == 1 || board_coordinates(&w);
                    if !symbol && !data.latin.contains(&w) && !PROPER_NOUNS.contains(&w.as_str()) {
                        out.push(format!("{w}  (in «{}»)", context(text, token)));
                    }
                }
            }
        }
        Lang::En => {
            for run in cjk_runs(text) {
                if !segmented(&run, cjk_pieces) {
                    out.push(format!("{run}  (in «{}»)", context(text, &run)));
                }
            }
        }
    }
    out
}

/// A few words around the first `needle` in `text`.
fn context(text: &str, needle: &str) -> String {
    let Some(at) = text.find(needle) else { return needle.to_string() };
    let before: String = text[..at].chars().rev().take(30).collect::<Vec<_>>().into_iter().rev().collect();
    let after: String = text[at + needle.len()..].chars().take(30).collect();
    format!("{before}{needle}{after}").split_whitespace().collect::<Vec<_>>().join(" ")
}

fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let end = tail.find(';').filter(|&e| e <= 10);
        let Some(end) = end else {
            out.push('&');
            rest = &tail[1..];
            continue;
        };
        let ent = &tail[1..end];
        let ch = match ent {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            "nbsp" => Some(' '),
            _ if ent.starts_with("#x") || ent.starts_with("#X") => {
                u32::from_str_radix(&ent[2..], 16).ok().and_then(char::from_u32)
            }
            _ if ent.starts_with('#') => ent[1..].parse().ok().and_then(char::from_u32),
            _ => None,
        };
        match ch {
            Some(c) => {
                out.push(c);
                rest = &tail[end + 1..];
            }
            None => {
                out.push('&');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The value of attribute `name` in the tag's text (`<a href="…" title="…"`), decoded.
fn attr(tag: &str, name: &str) -> Option<String> {
    let lower = tag.to_ascii_lowercase();
    let mut from = 0;
    while let Some(i) = lower[from..].find(name) {
        let at = from + i;
        from = at + name.len();
        let before_ok = at > 0 && lower.as_bytes()[at - 1].is_ascii_whitespace();
        let rest = &tag[at + name.len()..];
        let rest_trim = rest.trim_start();
        if !before_ok || !rest_trim.starts_with('=') {
            continue;
        }
        let v = rest_trim[1..].trim_start();
        let (q, body) = match v.chars().next() {
            Some('"') => ('"', &v[1..]),
            Some('\'') => ('\'', &v[1..]),
            _ => {
                let end = v.find(|c: char| c.is_whitespace() || c == '>').unwrap_or(v.len());
                return Some(decode_entities(&v[..end]));
            }
        };
        let end = body.find(q).unwrap_or(body.len());
        return Some(decode_entities(&body[..end]));
    }
    None
}

/// What a reader sees of an HTML page, and the page's links.
struct Page {
    text: String,
    links: Vec<String>,
}

fn read_page(html: &str) -> Page {
    let mut text = String::new();
    let mut links = Vec::new();
    let mut rest = html;
    // Elements whose content is not text for a reader.
    let skip_until = |name: &str| format!("</{name}");
    while let Some(lt) = rest.find('<') {
        text.push_str(&decode_entities(&rest[..lt]));
        rest = &rest[lt..];
        if rest.starts_with("<!--") {
            rest = rest.find("-->").map_or("", |e| &rest[e + 3..]);
            continue;
        }
        let Some(gt) = rest.find('>') else { break };
        let tag = &rest[1..gt];
        rest = &rest[gt + 1..];
        text.push(' ');
        let name: String =
            tag.chars().take_while(|c| c.is_ascii_alphanumeric()).collect::<String>().to_ascii_lowercase();
        if matches!(name.as_str(), "script" | "style" | "code") {
            let close = skip_until(&name);
            rest = rest.find(&close).map_or("", |e| &rest[e..]);
            continue;
        }
        for a in ["title", "placeholder", "alt", "aria-label"] {
            if let Some(v) = attr(tag, a) {
                text.push_str(&v);
                text.push(' ');
            }
        }
        if name == "input" {
            let kind = attr(tag, "type").unwrap_or_default().to_ascii_lowercase();
            if matches!(kind.as_str(), "submit" | "button" | "reset") {
                text.push_str(&attr(tag, "value").unwrap_or_default());
                text.push(' ');
            }
        }
        if name == "a" {
            if let Some(h) = attr(tag, "href") {
                links.push(h);
            }
        }
    }
    text.push_str(&decode_entities(rest));
    Page { text, links }
}

/// Who walks.
#[derive(Clone, Copy, PartialEq, Eq, Debug, PartialOrd, Ord)]
enum Role {
    Organizer,
    Arbiter,
    Public,
}

/// One finding: where, and the foreign string.
struct Finding {
    at: String,
    what: String,
}

/// What the walks found, over every pass.
#[derive(Default)]
struct Walk {
    pages: usize,
    documents: usize,
    findings: Vec<Finding>,
    /// Links that answered neither 200 nor a redirect.
    broken: Vec<String>,
    /// Documents fetched in this state: (address, document language).
    docs_seen: HashSet<(String, Lang)>,
}

/// The address of a link on page `from`, if it is one to walk (same site, in `scope`).
fn target(href: &str, scope: &[String]) -> Option<String> {
    let href = href.split('#').next()?;
    if href.is_empty() || !href.starts_with('/') || href.starts_with("//") {
        return None;
    }
    let path = href.split('?').next()?;
    if path.starts_with("/lang/")
        || path.starts_with("/assets/")
        || path == "/logout"
        || path.starts_with("/setup/")
    {
        return None;
    }
    let global = ["/", "/users", "/account", "/login", "/t/new"];
    let ok = global.contains(&path)
        || path.starts_with("/users/")
        || scope
            .iter()
            .any(|s| path == s || path.starts_with(&format!("{s}/")) || path.starts_with(&format!("{s}.")));
    ok.then(|| href.to_string())
}

fn doc_kind(path: &str) -> Option<&'static str> {
    let p = path.split('?').next().unwrap_or(path);
    if p.ends_with(".pdf") {
        Some("pdf")
    } else if p.ends_with(".csv") {
        Some("csv")
    } else if p.ends_with(".sgf") || p.ends_with(".xml") || p.ends_with(".h9") {
        // Data formats for other programs (SGF, OpenGotha, the EGF rating list): not read by
        // people in either language.
        Some("data")
    } else {
        None
    }
}

/// The document's language: its `lang=` option, else the reader's.
fn doc_lang(addr: &str, reader: Lang) -> Lang {
    let q = addr.split_once('?').map(|(_, q)| q).unwrap_or("");
    for kv in q.split('&') {
        match kv {
            "lang=zh" | "lang=zh-CN" => return Lang::Zh,
            "lang=en" => return Lang::En,
            _ => {}
        }
    }
    reader
}

struct Pass<'a> {
    client: &'a mut Client,
    state: &'a str,
    role: Role,
    lang: Lang,
    scope: Vec<String>,
    starts: Vec<String>,
}

fn walk(w: &mut Walk, p: Pass, data: &Data) {
    let mut pieces: BTreeSet<String> = data.cjk.clone();
    pieces.extend(CJK_PROPER.iter().map(|s| s.to_string()));
    p.client.accept_language = p.lang.header().to_string();
    let label = format!("{} {:?} {}", p.state, p.role, p.lang.code());
    let mut queue: VecDeque<String> = p.starts.iter().cloned().collect();
    let mut seen: HashSet<String> = queue.iter().cloned().collect();
    let mut per_path: BTreeMap<String, usize> = BTreeMap::new();
    let mut pages = 0;
    while let Some(addr) = queue.pop_front() {
        if pages >= MAX_PAGES {
            println!("[{label}] stopped at {MAX_PAGES} pages");
            break;
        }
        if let Some(kind) = doc_kind(&addr) {
            if kind == "data" {
                continue;
            }
            let dl = doc_lang(&addr, p.lang);
            if !w.docs_seen.insert((addr.clone(), dl)) {
                continue;
            }
            let r = p.client.get(&addr);
            w.documents += 1;
            if r.status != 200 {
                println!("[{label}] {kind} {addr} -> {}", r.status);
                w.broken.push(format!("[{label}] {addr} -> {}", r.status));
                continue;
            }
            let text = match kind {
                "pdf" => {
                    let back = readback::read("crawl", &r.bytes);
                    back.all_text()
                }
                _ => csv_records(&r.bytes).into_iter().flatten().collect::<Vec<_>>().join("\n"),
            };
            let found = foreign(&text, dl, data, &pieces);
            println!("[{label}] {kind} ({}) {addr}: {} findings", dl.code(), found.len());
            for f in found {
                w.findings.push(Finding { at: format!("[{label}] {kind} ({}) {addr}", dl.code()), what: f });
            }
            continue;
        }
        let r = p.client.get(&addr);
        pages += 1;
        w.pages += 1;
        if r.status == 303 || r.status == 302 {
            let loc = r.location();
            println!("[{label}] {addr} -> {} {loc}", r.status);
            if let Some(t) = target(&loc, &p.scope) {
                if seen.insert(t.clone()) {
                    queue.push_back(t);
                }
            }
            continue;
        }
        let html = r.header("content-type").is_some_and(|t| t.starts_with("text/html"));
        if r.status != 200 || !html {
            println!("[{label}] {addr} -> {} {:?}", r.status, r.header("content-type"));
            w.broken.push(format!("[{label}] {addr} -> {}", r.status));
            continue;
        }
        let want = format!("<html lang=\"{}\"", p.lang.code());
        assert!(r.body.contains(&want), "[{label}] {addr} is not in {}", p.lang.code());
        let page = read_page(&r.body);
        if let Some(dir) = std::env::var_os("TENGEN_CRAWL_DUMP") {
            let name = format!("{label} {addr}").replace(['/', '?', '&', '=', ' '], "_");
            std::fs::write(std::path::Path::new(&dir).join(format!("{name}.html")), &r.body).unwrap();
            std::fs::write(std::path::Path::new(&dir).join(format!("{name}.txt")), &page.text).unwrap();
        }
        let found = foreign(&page.text, p.lang, data, &pieces);
        println!("[{label}] {addr}: {} findings", found.len());
        for f in found {
            w.findings.push(Finding { at: format!("[{label}] {addr}"), what: f });
        }
        for href in page.links {
            let Some(t) = target(&href, &p.scope) else { continue };
            if seen.contains(&t) {
                continue;
            }
            let path = t.split('?').next().unwrap_or("").to_string();
            if t.contains('?') && doc_kind(&t).is_none() {
                let n = per_path.entry(path).or_default();
                if *n >= MAX_QUERIES_PER_PATH {
                    continue;
                }
                *n += 1;
            }
            seen.insert(t.clone());
            queue.push_back(t);
        }
    }
}

/// Nine entrants with Chinese names, Latin names and units (one gets the bye).
const ENTRANTS: &str = "姓名,拼音,段位,等级分,单位,地区,出生日期,性别,备注
柯文洁,Ke Wenjie,5段,2600,北京棋院,北京,1997-08-02,男,
於之莹,Yu Zhiying,4段,2450,浙江棋院,浙江,1997-11-17,女,
芈昱廷,Mi Yuting,4段,2430,上海棋院,上海,1996-01-19,男,
唐韦星,Tang Weixing,3段,2380,贵州棋院,贵州,1993-04-09,男,
时越,Shi Yue,3段,2350,河南棋院,河南,1991-01-08,男,
王晨星,Wang Chenxing,2段,2250,江苏棋院,江苏,1991-02-06,女,
曾弈,Zeng Yi,1段,2100,四川棋院,四川,1992-05-01,男,
单嘉玲,Shan Jialing,1级,2000,广东棋院,广东,1999-03-03,女,
欧阳明,Ouyang Ming,2级,1900,湖北棋院,湖北,2000-12-12,男,
";

const EVENT_ZH: &str = "京城围棋公开赛";
const EVENT_LATIN: &str = "Jingcheng Weiqi Gongkaisai";
const ARBITER: &str = "lisi";
const ARBITER_NAME: &str = "李四裁判";
const ARBITER_PASS: &str = "lisi-secret-pass-9";
const CORRECTION: &str = "数子有误，复核后更正";
const WARNING_REASON: &str = "提子后未按钟";

/// Every CSV value, the event's names and what the users typed.
fn data_of(extra: &[&str]) -> Data {
    let mut d = Data::default();
    for (i, line) in ENTRANTS.lines().enumerate() {
        if i == 0 {
            continue;
        }
        let f: Vec<&str> = line.split(',').collect();
        let name: Vec<char> = f[0].chars().collect();
        // Family names of one character, 欧阳 of two (the import splits them so).
        let k = if f[0].starts_with("欧阳") { 2 } else { 1 };
        d.add(&name[..k].iter().collect::<String>());
        d.add(&name[k..].iter().collect::<String>());
        for v in [f[0], f[1], f[4], f[5]] {
            d.add(v);
        }
    }
    for v in [
        EVENT_ZH,
        EVENT_LATIN,
        "中国棋院",
        ORG_USER,
        "赛事组织者",
        ARBITER,
        ARBITER_NAME,
        CORRECTION,
        WARNING_REASON,
    ] {
        d.add(v);
    }
    for v in extra {
        d.add(v);
    }
    d
}

/// An organizer's client, the arbiter's and a reader's without login.
struct People {
    org: Client,
    arb: Client,
    public: Client,
}

fn pass_all(w: &mut Walk, people: &mut People, state: &str, scope: &[String], data: &Data) {
    w.docs_seen.clear();
    for role in [Role::Organizer, Role::Arbiter, Role::Public] {
        for lang in [Lang::Zh, Lang::En] {
            let client = match role {
                Role::Organizer => &mut people.org,
                Role::Arbiter => &mut people.arb,
                Role::Public => &mut people.public,
            };
            let mut starts = vec!["/".to_string()];
            starts.extend(scope.iter().cloned());
            let p = Pass { client, state, role, lang, scope: scope.to_vec(), starts };
            walk(w, p, data);
        }
    }
}

fn arbiter_account(s: &Server, org: &Client) -> (Client, i32) {
    let r = org.submit(
        "/users",
        "/users",
        &[
            ("username", ARBITER),
            ("display_name", ARBITER_NAME),
            ("role", "arbiter"),
            ("password", ARBITER_PASS),
            ("password2", ARBITER_PASS),
        ],
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let uid = count_rows(&s.db, &format!("SELECT id FROM users WHERE username = '{ARBITER}'")) as i32;
    let c = s.client();
    assert_eq!(c.login(ARBITER, ARBITER_PASS).status, 303);
    (c, uid)
}

/// The individual event through its round's states, a pass of every role and language in each.
fn individual(s: &Server, people: &mut People, uid: i32, w: &mut Walk) {
    let org = &people.org;
    let mut f = tournament_fields(EVENT_ZH, EVENT_LATIN);
    set(&mut f, "rounds", "3");
    let r = org.submit("/t/new", "/t/new", &as_refs(&f));
    assert_eq!(r.status, 303, "{}", r.body);
    let tid: i32 = r.location().trim_start_matches("/t/").parse().unwrap();
    let r = import_file(org, tid, "csv", "entrants.csv", ENTRANTS.as_bytes());
    assert_eq!(r.status, 303, "{}", r.body);
    add_staff(org, tid, uid, "arbiter");
    let data = data_of(&[]);
    let scope = vec![format!("/t/{tid}")];

    pair_round(org, tid, 1, "20261205");
    pass_all(w, people, "draft", &scope, &data);

    let org = &people.org;
    publish_round(s, org, tid, 1);
    nigiri_all(org, &s.db, tid, 1);
    pass_all(w, people, "published", &scope, &data);

    // Results: a count, a resignation after a warning, a forfeit, a loss by lateness from the
    // lateness sheet; the bye.
    let arb = &people.arb;
    let g = |board| game_id(&s.db, tid, 1, board);
    enter(arb, tid, g(1), &[("method", "count"), ("black_count", "184.5")]);
    let r = game_post(
        arb,
        tid,
        g(2),
        "rulings",
        &[
            ("do", "save"),
            ("kind", "warning"),
            ("against", "black"),
            ("move_number", "50"),
            ("at_time", "10:15"),
            ("reason", WARNING_REASON),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    enter(arb, tid, g(2), &[("method", "resignation"), ("winner", "white")]);
    enter(arb, tid, g(3), &[("method", "forfeit"), ("winner", "black")]);
    let late = query(&s.db, &format!("SELECT black_id, white_id FROM games WHERE id = {} ", g(4)));
    let sheet = format!("/t/{tid}/results/rounds/1/lateness");
    let (kb, kw) = (format!("arr_{}", late[0][0]), format!("arr_{}", late[0][1]));
    let r = arb.submit(
        &sheet,
        &sheet,
        &[("version", "0"), ("starts_at", "09:00"), (&kb, "09:05"), (&kw, "10:10")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let r = game_post(arb, tid, g(4), "lateness", &[]);
    assert_eq!(r.status, 303, "{}", r.body);
    enter(arb, tid, game_id(&s.db, tid, 1, 0), &[("method", "bye")]);
    pass_all(w, people, "results in", &scope, &data);

    let arb = &people.arb;
    for board in 1..=4 {
        for who in ["black", "white", "arbiter"] {
            let r = game_post(arb, tid, g(board), "confirm", &[("who", who)]);
            assert_eq!(r.status, 303, "board {board} {who}: {}", r.body);
        }
    }
    pass_all(w, people, "confirmed", &scope, &data);

    let org = &people.org;
    // The organizer (no chief arbiter named) corrects a locked result, with a reason.
    let r = game_post(
        org,
        tid,
        g(1),
        "result",
        &[("do", "save"), ("method", "count"), ("black_count", "183.5"), ("correction", CORRECTION)],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    pass_all(w, people, "corrected", &scope, &data);
}

const TEAM_EVENT_ZH: &str = "京城围棋团体赛";
const TEAM_EVENT_LATIN: &str = "Jingcheng Tuanti";
const TEAMS: [&str; 2] = ["风队", "云队"];

/// The team's members as the roster form takes them: 风1 … 风6.
fn team_players(team: &str) -> Vec<String> {
    let prefix: String = team.chars().take(1).collect();
    (1..=6).map(|k| format!("{prefix}{k}")).collect()
}

/// A team-relay event (seed 003): two teams of six with their leaders and coaches, round 1
/// paired, its match started, both line-ups of section 1 in and the section ended after move
/// 72; one pass of every role and language.
fn relay(s: &Server, people: &mut People, uid: i32, w: &mut Walk) {
    let org = &people.org;
    let tid = relay_tournament(org, TEAM_EVENT_ZH, TEAM_EVENT_LATIN, "1", &[]);
    save_team_settings(org, s, tid, &[]);
    for team in TEAMS {
        let r = add_team(org, tid, team, &team_players(team));
        assert_eq!(r.status, 303, "{}", r.body);
    }
    add_staff(org, tid, uid, "arbiter");
    let r = org.submit(
        &format!("/t/{tid}/team-rounds"),
        &format!("/t/{tid}/team-rounds/1/pair"),
        &[("seed", "4")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let m = query(
        &s.db,
        &format!(
            "SELECT m.id, b.name, w.name FROM team_matches m JOIN teams b ON b.id = m.black_team_id \
             JOIN teams w ON w.id = m.white_team_id WHERE m.tournament_id = {tid}"
        ),
    );
    let (mid, black, white) = (m[0][0].clone(), m[0][1].clone(), m[0][2].clone());
    let member = |team: &str, position: u32| {
        query(
            &s.db,
            &format!(
                "SELECT m.id FROM team_members m JOIN teams t ON t.id = m.team_id \
                 WHERE t.tournament_id = {tid} AND t.name = '{team}' AND m.position = {position}"
            ),
        )[0][0]
            .clone()
    };
    let arb = &people.arb;
    let page = format!("/t/{tid}/matches/{mid}");
    let version =
        || query(&s.db, &format!("SELECT version FROM team_matches WHERE id = {mid}"))[0][0].clone();
    let post = |path: &str, fields: &[(&str, &str)]| {
        let token = arb.get(&page).csrf();
        let v = version();
        let mut all = vec![("csrf", token.as_str()), ("version", v.as_str())];
        all.extend_from_slice(fields);
        let r = arb.post_form(&format!("{page}/{path}"), &all);
        assert_eq!(r.status, 303, "{path} {fields:?}: {}", r.body);
    };
    post("start", &[("start", "2026-12-05T09:00:00")]);
    let (b1, b2, w1, w2) = (member(&black, 1), member(&black, 2), member(&white, 1), member(&white, 2));
    post(
        "event",
        &[
            ("kind", "lineups"),
            ("section", "1"),
            ("b1", &b1),
            ("b2", &b2),
            ("w1", &w1),
            ("w2", &w2),
            ("at", "2026-12-05T08:45:00"),
        ],
    );
    post("event", &[("kind", "section_end"), ("after", "72"), ("at", "2026-12-05T09:50:00")]);
    let mut extra: Vec<String> = Vec::new();
    for team in TEAMS {
        extra.push(team.to_string());
        extra.push(format!("{team}领队"));
        extra.push(format!("{team}教练"));
        extra.extend(team_players(team));
    }
    let refs: Vec<&str> = extra.iter().map(String::as_str).collect();
    let mut data = data_of(&refs);
    data.add(TEAM_EVENT_ZH);
    data.add(TEAM_EVENT_LATIN);
    pass_all(w, people, "relay match in play", &[format!("/t/{tid}")], &data);
}

#[test]
fn every_page_document_role_and_state_is_in_one_language() {
    let s = Server::start();
    let org = s.first_organizer();
    let (arb, uid) = arbiter_account(&s, &org);
    let mut people = People { org, arb, public: s.client() };
    let mut w = Walk::default();
    individual(&s, &mut people, uid, &mut w);
    relay(&s, &mut people, uid, &mut w);

    println!(
        "walked {} pages and {} documents; {} findings, {} broken links",
        w.pages,
        w.documents,
        w.findings.len(),
        w.broken.len()
    );
    let mut by_string: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in &w.findings {
        by_string.entry(f.what.clone()).or_default().push(f.at.clone());
    }
    let list: Vec<String> = by_string
        .iter()
        .map(|(what, at)| format!("{what}\n      on {} pages, first {}", at.len(), at[0]))
        .collect();
    assert!(
        w.findings.is_empty() && w.broken.is_empty(),
        "{} foreign strings:\n  {}\nlinks that do not answer:\n{}",
        w.findings.len(),
        list.join("\n  "),
        w.broken.join("\n")
    );
}

/// The checker itself: it finds English on a Chinese page and Chinese on an English one, and
/// lets the data, symbols, addresses and the listed names through.
#[test]
fn the_checker_finds_the_other_language() {
    let data = data_of(&[]);
    let pieces: BTreeSet<String> =
        data.cjk.iter().cloned().chain(CJK_PROPER.iter().map(|s| s.to_string())).collect();
    let zh = |t: &str| foreign(t, Lang::Zh, &data, &pieces);
    let en = |t: &str| foreign(t, Lang::En, &data, &pieces);
    assert_eq!(zh("积分 Score（SOS）").len(), 2);
    assert!(zh("柯文洁 Ke Wenjie 北京棋院 · 5d · 棋手 B · Asia/Shanghai · entrants.csv · --backup-dir")
        .is_empty());
    assert!(zh(&read_page("<p title=\"Save\">保存</p>").text).len() == 1);
    assert!(zh(&read_page("<script>var x;</script><code>{\"mode\":\"add\"}</code>保存").text).is_empty());
    assert_eq!(en("Score (积分)").len(), 1);
    assert_eq!(en("Player: 柯文洁（北京棋院）").len(), 1, "full-width brackets are Chinese");
    assert!(en("柯文洁北京棋院 · Ke Wenjie · 中文").is_empty());
    assert!(en(&read_page("<input type=\"submit\" value=\"保存\">").text).len() == 1);
}
