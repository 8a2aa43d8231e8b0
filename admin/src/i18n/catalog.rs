//! The catalog: `admin/locales/en.ftl` and `admin/locales/zh-CN.ftl`, in Project Fluent's
//! format, read by its reference implementation (fluent-bundle) and compiled into the binary.
//! A message id is the code's key with each `.` written `-` (Fluent ids take no dots):
//! `lang.t("nav.login")` reads `nav-login`. Arguments are named (`{ $round }`) and passed by
//! name (`tr!`); a number is passed as a Fluent number, so that a plural selector
//! (`{ $count -> [one] … *[other] … }`) can read it, and text as a string. Fluent adds no
//! bidi isolation marks, and formats an integer as its digits.

use std::collections::{BTreeSet, HashMap};
use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use fluent_syntax::ast;

use super::{Arg, ArgValue};

/// (language tag, FTL source), in the order of `Lang::index`.
pub(super) const SOURCES: [(&str, &str); 2] =
    [("en", include_str!("../../locales/en.ftl")), ("zh-CN", include_str!("../../locales/zh-CN.ftl"))];

pub(super) struct Catalog {
    bundles: [FluentBundle<FluentResource>; 2],
    /// Every message's text with each argument shown as `{name}`, by code key: what `t`
    /// returns (the clock page's script fills such a text itself).
    plain: HashMap<&'static str, [&'static str; 2]>,
    /// Every message's argument names, by code key (the same in both languages).
    names: HashMap<&'static str, BTreeSet<String>>,
}

pub(super) static CATALOG: LazyLock<Catalog> = LazyLock::new(Catalog::load);

/// The Fluent id of a code key.
pub(super) fn id_of(key: &str) -> String {
    key.replace('.', "-")
}

impl Catalog {
    /// Parses both files. They are compiled in and the unit tests parse them, so a syntax
    /// error cannot reach a running server.
    fn load() -> Catalog {
        let bundles = SOURCES.map(|(tag, ftl)| bundle(tag, ftl));
        let en_names = arguments(SOURCES[0].1);
        let mut plain = HashMap::new();
        let mut names = HashMap::new();
        for id in message_ids(SOURCES[0].1) {
            let key: &'static str = Box::leak(id.replace('-', ".").into_boxed_str());
            let own = en_names.get(&id).cloned().unwrap_or_default();
            let shown: Vec<(String, String)> = own.iter().map(|n| (n.clone(), format!("{{{n}}}"))).collect();
            let text = |b: &FluentBundle<FluentResource>| -> &'static str {
                let args: Vec<(&str, &dyn Arg)> =
                    shown.iter().map(|(n, s)| (n.as_str(), s as &dyn Arg)).collect();
                Box::leak(format(b, &id, &args).unwrap_or_default().into_boxed_str())
            };
            plain.insert(key, [text(&bundles[0]), text(&bundles[1])]);
            names.insert(key, own);
        }
        Catalog { bundles, plain, names }
    }

    /// The text of `key` in language `index`, arguments unfilled.
    pub(super) fn plain(&self, key: &str, index: usize) -> Option<&'static str> {
        self.plain.get(key).map(|texts| texts[index])
    }

    /// The argument names of `key`'s message.
    pub(super) fn names(&self, key: &str) -> Option<&BTreeSet<String>> {
        self.names.get(key)
    }

    /// The text of `key` in language `index` with `args` filled in by name. Other names than
    /// the message's are a mistake of the caller's: a debug build (the tests) stops on it, a
    /// release build logs it and shows the text as Fluent makes it.
    pub(super) fn format(&self, key: &str, index: usize, args: &[(&str, &dyn Arg)]) -> Option<String> {
        if let Some(own) = self.names.get(key) {
            let given: BTreeSet<String> = args.iter().map(|(n, _)| n.to_string()).collect();
            if &given != own {
                tracing::warn!("catalog message {key} takes {own:?}, was given {given:?}");
                debug_assert_eq!(&given, own, "the arguments of catalog message {key}");
            }
        }
        format(&self.bundles[index], &id_of(key), args)
    }

    #[cfg(test)]
    pub(super) fn keys(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.plain.keys().copied()
    }
}

fn bundle(tag: &str, ftl: &str) -> FluentBundle<FluentResource> {
    let resource = FluentResource::try_new(ftl.to_string()).unwrap_or_else(|(_, errors)| {
        panic!("locales/{tag}.ftl does not parse: {errors:?}");
    });
    let mut bundle = FluentBundle::new_concurrent(vec![tag.parse().expect("a language tag")]);
    bundle.set_use_isolating(false);
    bundle.add_resource(resource).unwrap_or_else(|errors| panic!("locales/{tag}.ftl: {errors:?}"));
    bundle
}

/// Formats message `id` with `args` by name; None if there is no such message.
fn format(bundle: &FluentBundle<FluentResource>, id: &str, args: &[(&str, &dyn Arg)]) -> Option<String> {
    let pattern = bundle.get_message(id)?.value()?;
    let mut fluent_args = FluentArgs::with_capacity(args.len());
    for (name, a) in args {
        let value = match a.value() {
            ArgValue::Number(n) => FluentValue::from(n),
            ArgValue::Text(s) => FluentValue::from(s),
        };
        fluent_args.set(*name, value);
    }
    let mut errors = Vec::new();
    let text = bundle.format_pattern(pattern, Some(&fluent_args), &mut errors).into_owned();
    if !errors.is_empty() {
        tracing::warn!("catalog message {id}: {errors:?}");
    }
    Some(text)
}

/// The message ids of an FTL source, in file order.
pub(super) fn message_ids(ftl: &str) -> Vec<String> {
    parse(ftl)
        .body
        .iter()
        .filter_map(|e| if let ast::Entry::Message(m) = e { Some(m.id.name.to_string()) } else { None })
        .collect()
}

fn parse(ftl: &str) -> ast::Resource<&str> {
    fluent_syntax::parser::parse(ftl)
        .unwrap_or_else(|(_, errors)| panic!("an FTL file does not parse: {errors:?}"))
}

/// Each message's argument names, by id: the variables its text uses (also inside a
/// selector and its variants), and those its comment says it leaves unshown
/// (`# $loser: not shown …`). The two languages must agree.
pub(super) fn arguments(ftl: &str) -> HashMap<String, BTreeSet<String>> {
    let mut out = HashMap::new();
    for entry in parse(ftl).body {
        let ast::Entry::Message(m) = entry else { continue };
        let mut names = BTreeSet::new();
        if let Some(p) = &m.value {
            pattern_variables(p, &mut names);
        }
        for line in m.comment.iter().flat_map(|c| &c.content) {
            if let Some((declared, _)) = line.split_once(": not shown") {
                names.extend(declared.split('$').skip(1).map(|n| n.trim().to_string()));
            }
        }
        out.insert(m.id.name.to_string(), names);
    }
    out
}

fn pattern_variables(p: &ast::Pattern<&str>, names: &mut BTreeSet<String>) {
    for element in &p.elements {
        if let ast::PatternElement::Placeable { expression } = element {
            expression_variables(expression, names);
        }
    }
}

fn expression_variables(e: &ast::Expression<&str>, names: &mut BTreeSet<String>) {
    match e {
        ast::Expression::Inline(i) => inline_variables(i, names),
        ast::Expression::Select { selector, variants } => {
            inline_variables(selector, names);
            for v in variants {
                pattern_variables(&v.value, names);
            }
        }
    }
}

fn inline_variables(i: &ast::InlineExpression<&str>, names: &mut BTreeSet<String>) {
    match i {
        ast::InlineExpression::VariableReference { id } => {
            names.insert(id.name.to_string());
        }
        ast::InlineExpression::Placeable { expression } => expression_variables(expression, names),
        _ => {}
    }
}
