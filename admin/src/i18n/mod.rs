//! zh-CN and en: the one `Lang` of web pages, printed documents and the command line, and the
//! one catalog of every user-facing string (`admin/locales/{en,zh-CN}.ftl`, Project Fluent's
//! format, see `catalog`). Templates call `c.t("key")` or `c.tf("key", "name", x)`, Rust code
//! `lang.t("key")` / `tr!(lang, "key", round = n, player)` (each argument by its name in the
//! message; a number stays a number for the plural selectors). Unit tests check that both
//! files parse and hold the same messages with the same argument names, that every call passes
//! exactly the names its message uses, that every key used in templates/ and admin/src is in
//! the catalog, that no text is blank, and that every key is used (a family named by a prefix,
//! `format!("tb.{}", ..)`, counts as used for all its members).

mod account;
mod catalog;
mod clock_text;
mod prizes;
mod problems;
pub mod relay;
mod render;
mod sgf;
mod team;

/// A catalog message in the reader's language with its arguments by name:
/// `tr!(lang, "round.title", round = n)`, or `tr!(lang, "err.too_long", max)` when the
/// variable is called as the argument. A number (any integer type) is passed as a number, so
/// that `{ $count -> [one] … *[other] … }` selects the plural form; anything else as its text.
/// The names must be the message's own: a unit test reads every call with a literal key, and
/// a debug build stops on a call that passes other names.
macro_rules! tr {
    ($lang:expr, $key:expr $(, $name:ident $(= $value:expr)?)* $(,)?) => {
        $lang.tf($key, &[$((stringify!($name), $crate::i18n::tr!(@value $name $(= $value)?))),*])
    };
    (@value $name:ident) => {
        &$name as &dyn $crate::i18n::Arg
    };
    (@value $name:ident = $value:expr) => {
        &$value as &dyn $crate::i18n::Arg
    };
}
pub(crate) use tr;

/// What a catalog argument is to Fluent: a number (a plural selector reads it; shown as its
/// digits) or a text.
pub enum ArgValue {
    Number(f64),
    Text(String),
}

/// A value a catalog message can show. Integers are numbers; strings are text; other types
/// are turned into text at the call (`.to_string()`), where their wording is chosen.
pub trait Arg {
    fn value(&self) -> ArgValue;
}

macro_rules! number_args {
    ($($t:ty)*) => {$(
        impl Arg for $t {
            fn value(&self) -> ArgValue {
                ArgValue::Number(*self as f64)
            }
        }
    )*};
}
number_args!(u8 u16 u32 u64 usize i8 i16 i32 i64 isize);

impl Arg for str {
    fn value(&self) -> ArgValue {
        ArgValue::Text(self.to_string())
    }
}

impl Arg for String {
    fn value(&self) -> ArgValue {
        ArgValue::Text(self.clone())
    }
}

impl Arg for std::borrow::Cow<'_, str> {
    fn value(&self) -> ArgValue {
        ArgValue::Text(self.to_string())
    }
}

impl Arg for char {
    fn value(&self) -> ArgValue {
        ArgValue::Text(self.to_string())
    }
}

impl Arg for std::path::Display<'_> {
    fn value(&self) -> ArgValue {
        ArgValue::Text(self.to_string())
    }
}

impl<T: Arg + ?Sized> Arg for &T {
    fn value(&self) -> ArgValue {
        (**self).value()
    }
}

/// The checks every renderer test makes of a rendering (problems, SGF reports).
#[cfg(test)]
pub(crate) mod render_check {
    use super::Lang;

    /// A rendering is whole: not blank, no placeholder left, no catalog key shown instead of
    /// its text (`t` returns the key when it is missing).
    pub fn assert_rendered(s: &str) {
        assert!(!s.trim().is_empty(), "blank rendering");
        assert!(!s.contains('{') && !s.contains('}'), "placeholder left: {s}");
        for word in s.split(|c: char| !(c.is_ascii_alphanumeric() || "._".contains(c))) {
            assert!(!super::has_key(word.trim_end_matches('.')), "catalog key shown: {s}");
        }
    }

    /// Renders in both languages, checks both, and that they differ: (en, zh).
    pub fn both(render: impl Fn(Lang) -> String) -> (String, String) {
        let (en, zh) = (render(Lang::En), render(Lang::Zh));
        assert_rendered(&en);
        assert_rendered(&zh);
        assert_ne!(en, zh);
        (en, zh)
    }
}

/// The reader's language. Chinese first: documents default to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    En,
    #[default]
    Zh,
}

pub const LANG_COOKIE: &str = "tengen_lang";

impl Lang {
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }
    pub fn from_code(s: &str) -> Option<Lang> {
        let s = s.trim().to_ascii_lowercase();
        if s == "en" || s.starts_with("en-") {
            Some(Lang::En)
        } else if s == "zh" || s.starts_with("zh-") {
            Some(Lang::Zh)
        } else {
            None
        }
    }
    /// Pick from an Accept-Language header by quality (RFC 9110 §12.5.4); English when nothing
    /// matches. A language marked `q=0` is "not acceptable" and never chosen, also not through
    /// `*`; among equal qualities the first listed wins; a malformed quality counts as 0.
    pub fn from_accept(header: &str) -> Lang {
        let mut best: Option<(u16, Lang)> = None;
        let mut refused = Vec::new();
        let mut star: Option<u16> = None;
        for part in header.split(',') {
            let mut it = part.split(';');
            let tag = it.next().unwrap_or("").trim();
            let q = it
                .find_map(|p| {
                    let p = p.trim();
                    p.strip_prefix("q=").or_else(|| p.strip_prefix("Q=")).map(|q| quality(q.trim()))
                })
                .unwrap_or(1000);
            if tag == "*" {
                star = Some(q);
                continue;
            }
            if q == 0 {
                // A range refuses our language only if it matches the tag we serve (RFC 4647
                // basic filtering): `zh-TW;q=0` leaves zh-CN acceptable.
                refused.extend(Lang::served_by(tag));
                continue;
            }
            let Some(l) = Lang::from_code(tag) else { continue };
            if best.is_none_or(|(bq, _)| q > bq) {
                best = Some((q, l));
            }
        }
        let best = best.map(|(_, l)| l).filter(|l| !refused.contains(l));
        let fallback =
            || [Lang::En, Lang::Zh].into_iter().find(|l| !refused.contains(l) && star.is_none_or(|q| q > 0));
        best.or_else(fallback).unwrap_or(Lang::En)
    }
    /// The language whose served tag (`en`, `zh-CN`) the range `tag` matches.
    fn served_by(tag: &str) -> Option<Lang> {
        match tag.to_ascii_lowercase().as_str() {
            "en" => Some(Lang::En),
            "zh" | "zh-cn" | "zh-hans" | "zh-hans-cn" => Some(Lang::Zh),
            _ => None,
        }
    }
    /// The language of the command line's user: the first of `LC_ALL`, `LC_MESSAGES` and
    /// `LANG` that is set (POSIX's order), as `zh_CN.UTF-8` or `en_US` name it; Chinese when
    /// that names neither (`C`, `POSIX`) or none is set.
    pub fn from_environment() -> Lang {
        let set = ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .find_map(|v| std::env::var(v).ok().filter(|s| !s.is_empty()));
        Lang::from_locale(set.as_deref().unwrap_or(""))
    }
    /// A POSIX locale name's language (`zh_CN.UTF-8` → zh-CN, `en_GB@euro` → en); Chinese
    /// for any other.
    fn from_locale(locale: &str) -> Lang {
        let tag = locale.split(['.', '@']).next().unwrap_or("").replace('_', "-");
        Lang::from_code(&tag).unwrap_or_default()
    }
    pub fn is_zh(self) -> bool {
        self == Lang::Zh
    }
    /// The position of this language in the catalog's files (`catalog::SOURCES`).
    fn index(self) -> usize {
        match self {
            Lang::En => 0,
            Lang::Zh => 1,
        }
    }
    /// Whether the catalog has a message for `key` (where a caller chooses between a message
    /// of its own and a shared one).
    pub fn has(self, key: &str) -> bool {
        CATALOG.plain(key, self.index()).is_some()
    }
    /// The catalog entry for `key`, its arguments shown as `{name}` (for a script that fills
    /// them itself); the key itself if missing (the catalog tests forbid that).
    pub fn t(self, key: &str) -> &'static str {
        CATALOG.plain(key, self.index()).unwrap_or_else(|| missing(key))
    }
    /// The forms of message `key`, whose one argument is a count, by the count's plural category
    /// in this language (CLDR's, as a browser's `Intl.PluralRules` names them; `other` always):
    /// each with the count shown as `{name}`, for a script that picks the form for its number
    /// and fills it in itself (the clock page). None for a message of other than one argument.
    pub fn plural_forms(self, key: &str) -> Option<std::collections::BTreeMap<&'static str, String>> {
        let names = CATALOG.names(key)?;
        let [name] = names.iter().collect::<Vec<_>>()[..] else { return None };
        let mut forms = std::collections::BTreeMap::from([("other", self.t(key).to_string())]);
        for &(category, n) in self.plural_samples() {
            let text = self.tf(key, &[(name.as_str(), &n)]);
            forms.insert(category, text.replacen(&n.to_string(), &format!("{{{name}}}"), 1));
        }
        Some(forms)
    }
    /// The plural categories of whole numbers other than `other` in this language, each with a
    /// number of it (CLDR's cardinal rules): English has `one` (1), Chinese none.
    fn plural_samples(self) -> &'static [(&'static str, u32)] {
        match self {
            Lang::En => &[("one", 1)],
            Lang::Zh => &[],
        }
    }
    /// The message `key` with `args` by name (`tr!` writes the list). Fluent fills in one
    /// pass: an argument that itself holds `{ $x }` (echoed user input) is shown as it is.
    pub fn tf(self, key: &str, args: &[(&str, &dyn Arg)]) -> String {
        CATALOG.format(key, self.index(), args).unwrap_or_else(|| missing(key).to_string())
    }
}

fn missing(key: &str) -> &'static str {
    tracing::warn!("missing catalog key {key}");
    Box::leak(key.to_string().into_boxed_str())
}

/// A quality value in thousandths (`1`, `0.8`, `0.125`); anything else is 0.
fn quality(q: &str) -> u16 {
    let (int, frac) = q.split_once('.').unwrap_or((q, ""));
    if frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return 0;
    }
    let thousandths = format!("{frac:0<3}").parse::<u16>().unwrap_or(0);
    match int {
        "0" => thousandths,
        "1" if thousandths == 0 => 1000,
        _ => 0,
    }
}

pub fn has_key(key: &str) -> bool {
    CATALOG.plain(key, 0).is_some()
}

use catalog::CATALOG;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_language_negotiation() {
        assert_eq!(Lang::from_accept("zh-CN,zh;q=0.9,en;q=0.8"), Lang::Zh);
        assert_eq!(Lang::from_accept("en-US,en;q=0.9,zh-CN;q=0.5"), Lang::En);
        assert_eq!(Lang::from_accept("fr-FR"), Lang::En);
        assert_eq!(Lang::from_accept("fr;q=0.9, zh-TW;q=0.8"), Lang::Zh);
        assert_eq!(Lang::from_accept(""), Lang::En);
    }

    /// RFC 9110 §12.5.4: `q=0` means "not acceptable", whatever else the header says.
    #[test]
    fn accept_language_never_chooses_q0() {
        assert_eq!(Lang::from_accept("zh-CN;q=0"), Lang::En);
        assert_eq!(Lang::from_accept("zh-CN;q=0, en;q=0.1"), Lang::En);
        assert_eq!(Lang::from_accept("en;q=0, fr"), Lang::Zh);
        assert_eq!(Lang::from_accept("en;q=0.0, zh;q=0.001"), Lang::Zh);
        assert_eq!(Lang::from_accept("en-US, en;q=0"), Lang::Zh, "en refused covers en-US too");
        assert_eq!(Lang::from_accept("zh;q=0.5, en;q=0.5"), Lang::Zh, "a tie goes to the first listed");
        assert_eq!(Lang::from_accept("en;q=abc, zh;q=0.2"), Lang::Zh, "a malformed q is 0");
        assert_eq!(Lang::from_accept("en;q=0, *;q=0"), Lang::En, "nothing acceptable: the default");
        assert_eq!(Lang::from_accept("zh-TW;Q=0.9"), Lang::Zh);
        assert_eq!(
            Lang::from_accept("zh-TW;q=0, zh-CN;q=0.5, en;q=0.4"),
            Lang::Zh,
            "zh-TW refused, zh-CN not"
        );
    }

    #[test]
    fn the_command_lines_language_follows_the_locale() {
        assert_eq!(Lang::from_locale("zh_CN.UTF-8"), Lang::Zh);
        assert_eq!(Lang::from_locale("en_US.UTF-8"), Lang::En);
        assert_eq!(Lang::from_locale("en_GB@euro"), Lang::En);
        assert_eq!(Lang::from_locale("zh_TW"), Lang::Zh);
        assert_eq!(Lang::from_locale("C.UTF-8"), Lang::Zh, "no language named: Chinese first");
        assert_eq!(Lang::from_locale(""), Lang::Zh);
    }

    #[test]
    fn arguments_are_filled_once() {
        // err.number_range: "Enter a whole number from { $min } to { $max }."
        let typed = "{ $max }";
        assert_eq!(
            tr!(Lang::En, "err.number_range", min = typed, max = 7),
            "Enter a whole number from { $max } to 7."
        );
        assert_eq!(tr!(Lang::Zh, "err.number_range", min = 1, max = 2), "请填写 1 到 2 之间的整数。");
        let to_fill = "err.number_range";
        assert_eq!(Lang::En.t(to_fill), "Enter a whole number from {min} to {max}.", "for a script to fill");
        assert_eq!(tr!(Lang::En, "print.or"), " or ", "spaces kept at both ends");
        assert!(Lang::Zh.t("doc.12_b_won_against_no").contains('\n'), "a line break kept");
        assert!(Lang::En.t("doc.black_s_count_before_penalty").contains("{k}"), "literal braces kept");
    }

    /// A count selects its plural form in English and reads the same in Chinese (the review's
    /// warning of games without a result before pairing, seed 000 Art. 17.5's note on pairing;
    /// the relay's substitutions left, seed 003 Art. 10.5).
    #[test]
    fn a_count_selects_the_plural_form() {
        assert_eq!(
            tr!(Lang::En, "warn.open_games", games = 1, round = 3),
            "Round 3: 1 game has no result yet."
        );
        assert_eq!(
            tr!(Lang::En, "warn.open_games", games = 2, round = 3),
            "Round 3: 2 games have no result yet."
        );
        assert_eq!(tr!(Lang::Zh, "warn.open_games", games = 2, round = 3), "第3轮还有2局没有结果。");
        let left =
            |n: u32| (tr!(Lang::En, "relay.how_left", left = n), tr!(Lang::Zh, "relay.how_left", left = n));
        assert_eq!(left(1), ("1 substitution left".into(), "剩余1次".into()));
        assert_eq!(left(2), ("2 substitutions left".into(), "剩余2次".into()));
        let as_text = "1";
        assert_ne!(
            tr!(Lang::En, "imp.err_bad_rows", count = 1usize),
            tr!(Lang::En, "imp.err_bad_rows", count = as_text),
            "a count given as text selects no plural form: counts are numbers"
        );
        assert!(tr!(Lang::En, "imp.err_bad_rows", count = 1usize).contains("1 row has errors"));
        assert!(tr!(Lang::En, "imp.err_bad_rows", count = 3usize).contains("3 rows have errors"));
    }

    /// The clock page's counts and the command line's report of a printed file are worded with
    /// the count's plural form (the catalog's plural selectors): "1 period left", "7 tables".
    /// A script gets each form with the count as `{name}`, once.
    #[test]
    fn a_script_gets_every_plural_form_of_a_count() {
        let forms = Lang::En.plural_forms("clock.call_periods_left").unwrap();
        assert_eq!(forms["one"], "{periods} period left");
        assert_eq!(forms["other"], "{periods} periods left");
        let zh = Lang::Zh.plural_forms("clock.call_periods_left").unwrap();
        assert_eq!(zh.into_iter().collect::<Vec<_>>(), [("other", "还剩{periods}次".to_string())]);
        assert_eq!(Lang::En.plural_forms("clock.basic"), None, "no count, no forms");
        for lang in [Lang::En, Lang::Zh] {
            for key in ["clock.call_sec", "clock.call_minutes_left", "clock.reserved_left", "clock.moves_due"]
            {
                for (category, text) in lang.plural_forms(key).unwrap() {
                    assert_eq!(text.matches('{').count(), 1, "{key} {category}: {text}");
                    assert!(!text.chars().any(|c| c.is_ascii_digit()), "{key} {category}: {text}");
                }
            }
        }
        let (file, bytes) = ("out.pdf", 100usize);
        let said =
            |tables: usize| tr!(Lang::En, "cli_print.round", round = 1, tournament = 2, tables, file, bytes);
        assert_eq!(said(1), "round 1 of tournament 2: 1 table → out.pdf (100 bytes)");
        assert_eq!(said(7), "round 1 of tournament 2: 7 tables → out.pdf (100 bytes)");
    }

    /// No English message leaves a plural to the reader: "round(s)", "stone(s)".
    #[test]
    fn no_english_message_writes_an_optional_plural() {
        let mut found: Vec<&str> = CATALOG.keys().filter(|k| Lang::En.t(k).contains("(s)")).collect();
        found.sort_unstable();
        assert!(found.is_empty(), "write a plural selector instead of (s): {found:?}");
    }

    /// Chinese pages use Chinese punctuation: no message of zh-CN.ftl ends a sentence with an
    /// ASCII full stop — a '.' at the end of the text, or before a space, a line break or a
    /// Chinese character ("3.75", "backup.sqlite" and "e.g." inside Latin text stay).
    #[test]
    fn no_ascii_full_stop_ends_a_chinese_sentence() {
        let chinese = |c: char| matches!(c, '\u{3000}'..='\u{303F}' | '\u{4E00}'..='\u{9FFF}' | '\u{FF00}'..='\u{FFEF}');
        let ends_sentence = |text: &str| {
            let chars: Vec<char> = text.trim_end().chars().collect();
            chars
                .iter()
                .enumerate()
                .any(|(i, c)| *c == '.' && chars.get(i + 1).is_none_or(|n| n.is_whitespace() || chinese(*n)))
        };
        let mut found: Vec<&str> = CATALOG.keys().filter(|k| ends_sentence(Lang::Zh.t(k))).collect();
        found.sort_unstable();
        assert!(found.is_empty(), "Chinese messages ending a sentence with '.': {found:?}");
        assert!(ends_sentence("已保存.") && ends_sentence("已保存. 下一步") && ends_sentence("保存.下一步"));
        assert!(!ends_sentence("贴 3.75 子") && !ends_sentence("文件 backup.sqlite 已保存。"));
    }

    /// Both files parse, hold the same message ids with the same argument names (a name in
    /// snake case that says what it holds, not `p0`; one a language leaves unshown declared in
    /// the message's comment), and no text is blank; no code key has a `-` (it would not
    /// survive the `.` → `-` of the ids).
    #[test]
    fn both_languages_hold_the_same_messages() {
        let [(_, en), (_, zh)] = catalog::SOURCES;
        let (en_ids, zh_ids) = (catalog::message_ids(en), catalog::message_ids(zh));
        let mut seen = std::collections::HashSet::new();
        for id in &en_ids {
            assert!(seen.insert(id), "duplicate message {id}");
        }
        let (a, b): (std::collections::BTreeSet<_>, std::collections::BTreeSet<_>) =
            (en_ids.iter().collect(), zh_ids.iter().collect());
        assert_eq!(a.difference(&b).collect::<Vec<_>>(), Vec::<&&String>::new(), "in en.ftl only");
        assert_eq!(b.difference(&a).collect::<Vec<_>>(), Vec::<&&String>::new(), "in zh-CN.ftl only");
        let (en_args, zh_args) = (catalog::arguments(en), catalog::arguments(zh));
        let named = |n: &String| {
            n.starts_with(|c: char| c.is_ascii_lowercase())
                && n.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                && !(n.starts_with('p') && n[1..].parse::<u8>().is_ok())
        };
        let mut differ: Vec<String> = en_args
            .iter()
            .filter(|(id, a)| zh_args.get(*id) != Some(*a) || !a.iter().all(named))
            .map(|(id, a)| format!("{id}: en {a:?}, zh {:?}", zh_args.get(id)))
            .collect();
        differ.sort();
        assert!(
            differ.is_empty(),
            "the languages' arguments differ or are not named:\n{}",
            differ.join("\n")
        );
        for key in CATALOG.keys() {
            for lang in [Lang::En, Lang::Zh] {
                assert!(!lang.t(key).trim().is_empty(), "blank text for {key}");
            }
        }
    }

    /// Templates and every Rust file of admin/src (the catalog itself left out), as (path, text).
    fn sources() -> Vec<(std::path::PathBuf, String)> {
        fn walk(dir: &std::path::Path, out: &mut Vec<(std::path::PathBuf, String)>) {
            for e in std::fs::read_dir(dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    walk(&p, out);
                } else if p.extension().is_some_and(|e| e == "rs" || e == "html") {
                    out.push((p.clone(), std::fs::read_to_string(&p).unwrap()));
                }
            }
        }
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut out = Vec::new();
        walk(&root.join("../templates"), &mut out);
        walk(&root.join("src"), &mut out);
        // The store names the audit trail's keys as data (`AuditAction`), never words them.
        walk(&root.join("store/src"), &mut out);
        out.retain(|(p, _)| !p.ends_with("i18n/catalog.rs"));
        out
    }

    fn is_key(k: &str) -> bool {
        k.contains('.')
            && k.starts_with(|c: char| c.is_ascii_lowercase())
            && k.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "_.-".contains(c))
    }

    /// Every `t("…")`, `tf("…"`, `tr!(lang, "…"` and `("user.err_…"` in templates and admin/src
    /// is in the catalog.
    #[test]
    fn every_used_key_is_in_the_catalog() {
        let mut missing = Vec::new();
        for (f, text) in sources() {
            let html = f.extension().is_some_and(|e| e == "html");
            for line in text.lines().filter(|l| html && l.contains("{% call m::")) {
                for (i, part) in line.split('"').enumerate() {
                    if i % 2 == 1 && is_key(part) && !has_key(part) {
                        missing.push(format!("{}: {part}", f.display()));
                    }
                }
            }
            for (_, parts) in calls(&text, "tr!(") {
                let key = parts.get(1).and_then(|k| k.strip_prefix('"')).and_then(|k| k.strip_suffix('"'));
                if let Some(key) = key.filter(|k| is_key(k) && !has_key(k)) {
                    missing.push(format!("{}: {key}", f.display()));
                }
            }
            for pat in ["t(\"", "tf(\"", "(\"user.err_"] {
                for (i, _) in text.match_indices(pat) {
                    // `t(` and `tf(` as calls of their own, not the end of `expect(` or `fmt(`.
                    let before = text[..i].chars().next_back();
                    if !pat.starts_with('(') && before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                        continue;
                    }
                    let start = if pat.starts_with("(\"") { i + 2 } else { i + pat.len() };
                    let rest = &text[start..];
                    let Some(end) = rest.find('"') else { continue };
                    let key = &rest[..end];
                    if is_key(key) && !has_key(key) {
                        missing.push(format!("{}: {key}", f.display()));
                    }
                }
            }
        }
        assert!(missing.is_empty(), "keys missing from the catalog:\n{}", missing.join("\n"));
    }

    /// The calls of a source text: (line, the call's arguments split at their top-level
    /// commas) for every `tr!(` (a macro call) or `<name>(` (a method call), comments left out.
    fn calls<'a>(text: &'a str, name: &str) -> Vec<(usize, Vec<&'a str>)> {
        let mut out = Vec::new();
        for (i, _) in text.match_indices(name) {
            let before = text[..i].chars().next_back();
            let line_start = text[..i].rfind('\n').map_or(0, |n| n + 1);
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                || text[line_start..i].trim_start().starts_with("//")
            {
                continue;
            }
            let start = i + name.len();
            let (mut depth, mut parts, mut from) = (1, Vec::new(), start);
            let mut chars = text[start..].char_indices().map(|(j, c)| (start + j, c));
            while let Some((j, c)) = chars.next() {
                match c {
                    '"' => {
                        while let Some((_, s)) = chars.next() {
                            match s {
                                '\\' => {
                                    chars.next();
                                }
                                '"' => break,
                                _ => {}
                            }
                        }
                    }
                    // A char literal ('"', ',', '\''); a lifetime has no closing quote.
                    '\'' => {
                        let rest = &text[j + 1..];
                        let skip = if rest.starts_with('\\') {
                            rest.get(2..).and_then(|r| r.find('\'')).map_or(0, |k| k + 3)
                        } else if rest.chars().nth(1) == Some('\'') {
                            2
                        } else {
                            0
                        };
                        for _ in 0..skip {
                            chars.next();
                        }
                    }
                    '(' | '[' | '{' => depth += 1,
                    ')' | ']' | '}' => {
                        depth -= 1;
                        if depth == 0 {
                            parts.push(text[from..j].trim());
                            break;
                        }
                    }
                    ',' if depth == 1 => {
                        parts.push(text[from..j].trim());
                        from = j + 1;
                    }
                    _ => {}
                }
            }
            parts.retain(|p| !p.is_empty());
            out.push((text[..i].matches('\n').count() + 1, parts));
        }
        out
    }

    /// Every `tr!(lang, "key", …)` with a literal key passes exactly the arguments its message
    /// names (`round = n` or `round`), so does every template's `c.tf("key", "name", value)`,
    /// Rust code names its arguments through `tr!`, and no `t("key")` reads a message that
    /// takes arguments: a missing or misspelt argument fails here, not as `{$round}` on a page.
    #[test]
    fn every_call_passes_its_messages_arguments() {
        let literal = |s: &str| s.strip_prefix('"').and_then(|s| s.strip_suffix('"')).map(str::to_string);
        let mut wrong = Vec::new();
        for (f, text) in sources() {
            let here = |line: usize| format!("{}:{line}", f.display());
            for (line, parts) in calls(&text, "tr!(") {
                let Some(key) = parts.get(1).and_then(|k| literal(k)) else { continue };
                let Some(own) = CATALOG.names(&key) else { continue };
                let given: std::collections::BTreeSet<String> = parts[2..]
                    .iter()
                    .map(|a| a.split_once('=').map_or(*a, |(n, _)| n).trim().to_string())
                    .collect();
                if &given != own {
                    wrong.push(format!("{}: {key} takes {own:?}, is given {given:?}", here(line)));
                }
            }
            let html = f.extension().is_some_and(|e| e == "html");
            for (line, parts) in calls(&text, "tf(") {
                let Some(key) = parts.first().and_then(|k| literal(k)) else { continue };
                if !html {
                    wrong.push(format!("{}: tf(\"{key}\", …): name the arguments with tr!", here(line)));
                    continue;
                }
                let Some(own) = CATALOG.names(&key) else { continue };
                let given: std::collections::BTreeSet<String> =
                    parts.get(1).and_then(|n| literal(n)).into_iter().collect();
                if &given != own {
                    wrong.push(format!("{}: {key} takes {own:?}, is given {given:?}", here(line)));
                }
            }
            for (line, parts) in calls(&text, "t(") {
                let Some(key) = parts.first().and_then(|k| literal(k)) else { continue };
                if CATALOG.names(&key).is_some_and(|own| !own.is_empty()) {
                    wrong
                        .push(format!("{}: t(\"{key}\") leaves its arguments unfilled: use tr!", here(line)));
                }
            }
        }
        assert!(wrong.is_empty(), "calls that do not match their message:\n{}", wrong.join("\n"));
    }

    /// The scan above reads a call's arguments whole: nested calls, strings and char literals
    /// with commas in them.
    #[test]
    fn the_call_scan_splits_arguments_at_top_level_commas() {
        let text =
            "x\ntr!(lang, \"a.b\", c = f(1, 2), d = \"e, f\", g = ',', h)\nlang.t(\"k.l\")\n/// t(\"m.n\")";
        assert_eq!(
            calls(text, "tr!("),
            vec![(2, vec!["lang", "\"a.b\"", "c = f(1, 2)", "d = \"e, f\"", "g = ','", "h"])]
        );
        assert_eq!(calls(text, "t("), vec![(3, vec!["\"k.l\""])]);
    }

    /// Every key of the catalog is used: named as a string literal somewhere in templates or
    /// admin/src, or a member of a family the code names by its prefix, either formatted
    /// (`format!("tb.{}", …)`) or passed on (`options(…, "time_kind")` for `time_kind.*`).
    #[test]
    fn every_catalog_key_is_used() {
        let mut literals = std::collections::HashSet::new();
        let mut families = Vec::new();
        let key_char = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || "_.-".contains(c);
        for (_, text) in sources() {
            for (i, _) in text.match_indices('"') {
                let rest = &text[i + 1..];
                let end = rest.find(|c: char| !key_char(c)).unwrap_or(rest.len());
                let word = &rest[..end];
                if word.is_empty() {
                    continue;
                }
                match rest[end..].chars().next() {
                    Some('"') => {
                        literals.insert(word.to_string());
                    }
                    Some('{') if word.ends_with(['.', '_']) => families.push(word.to_string()),
                    _ => {}
                }
            }
        }
        let used = |k: &str| {
            literals.contains(k)
                || families.iter().any(|p| k.starts_with(p.as_str()))
                || k.match_indices(['.', '_']).any(|(i, _)| literals.contains(&k[..i]))
        };
        let mut unused: Vec<&str> = CATALOG.keys().filter(|k| !used(k)).collect();
        unused.sort();
        assert!(unused.is_empty(), "catalog keys used nowhere ({}):\n{}", unused.len(), unused.join("\n"));
    }
}
