//! The catalog: `admin/locales/en.ftl` and `admin/locales/zh-CN.ftl`, in Project Fluent's
//! format, read by its reference implementation (fluent-bundle) and compiled into the binary.
//! A message id is the code's key with each `.` written `-` (Fluent ids take no dots):
//! `lang.t("nav.login")` reads `nav-login`. Arguments are `{ $p0 }`, `{ $p1 }`… in the order
//! `lang.tf` is given them; they are passed as strings, so Fluent adds no number formatting
//! and no bidi isolation marks.

use std::collections::HashMap;
use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};
use fluent_syntax::ast;

/// (language tag, FTL source), in the order of `Lang::index`.
pub(super) const SOURCES: [(&str, &str); 2] =
    [("en", include_str!("../../locales/en.ftl")), ("zh-CN", include_str!("../../locales/zh-CN.ftl"))];

pub(super) struct Catalog {
    bundles: [FluentBundle<FluentResource>; 2],
    /// Every message's text with its arguments shown as `{0}`, `{1}`…, by code key: what `t`
    /// returns (a template may fill such a text itself).
    plain: HashMap<&'static str, [&'static str; 2]>,
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
        let mut plain = HashMap::new();
        for id in message_ids(SOURCES[0].1) {
            let key: &'static str = Box::leak(id.replace('-', ".").into_boxed_str());
            let text = |b: &FluentBundle<FluentResource>| -> &'static str {
                let shown: Vec<String> = (0..10).map(|i| format!("{{{i}}}")).collect();
                let args: Vec<&dyn std::fmt::Display> = shown.iter().map(|s| s as _).collect();
                Box::leak(format(b, &id, &args).unwrap_or_default().into_boxed_str())
            };
            plain.insert(key, [text(&bundles[0]), text(&bundles[1])]);
        }
        Catalog { bundles, plain }
    }

    /// The text of `key` in language `index`, arguments unfilled.
    pub(super) fn plain(&self, key: &str, index: usize) -> Option<&'static str> {
        self.plain.get(key).map(|texts| texts[index])
    }

    /// The text of `key` in language `index` with its arguments filled in.
    pub(super) fn format(&self, key: &str, index: usize, args: &[&dyn std::fmt::Display]) -> Option<String> {
        format(&self.bundles[index], &id_of(key), args)
    }

    /// The text of `key` with `$p0` the number `count` (for a plural selector) and `args` as
    /// `$p1`….
    pub(super) fn format_count(
        &self,
        key: &str,
        index: usize,
        count: u64,
        args: &[&dyn std::fmt::Display],
    ) -> Option<String> {
        let bundle = &self.bundles[index];
        let pattern = bundle.get_message(&id_of(key))?.value()?;
        let mut fluent_args = FluentArgs::with_capacity(args.len() + 1);
        fluent_args.set("p0", fluent_bundle::FluentValue::from(count));
        for (i, a) in args.iter().enumerate() {
            fluent_args.set(format!("p{}", i + 1), a.to_string());
        }
        let mut errors = Vec::new();
        let text = bundle.format_pattern(pattern, Some(&fluent_args), &mut errors).into_owned();
        if !errors.is_empty() {
            tracing::warn!("catalog message {key}: {errors:?}");
        }
        Some(text)
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

const ARG_NAMES: [&str; 8] = ["p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"];

/// Formats message `id` with `args` as `$p0`, `$p1`…; None if there is no such message.
fn format(
    bundle: &FluentBundle<FluentResource>,
    id: &str,
    args: &[&dyn std::fmt::Display],
) -> Option<String> {
    let pattern = bundle.get_message(id)?.value()?;
    let mut fluent_args = FluentArgs::with_capacity(args.len());
    for (i, a) in args.iter().enumerate() {
        match ARG_NAMES.get(i) {
            Some(name) => fluent_args.set(*name, a.to_string()),
            None => fluent_args.set(format!("p{i}"), a.to_string()),
        }
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

/// Each message's argument names (`p0`, `p1`…), by id: the two languages must agree.
#[cfg(test)]
pub(super) fn arguments(ftl: &str) -> HashMap<String, Vec<String>> {
    let mut out = HashMap::new();
    for entry in parse(ftl).body {
        let ast::Entry::Message(m) = entry else { continue };
        let mut names = Vec::new();
        for element in m.value.iter().flat_map(|p| &p.elements) {
            if let ast::PatternElement::Placeable {
                expression: ast::Expression::Inline(ast::InlineExpression::VariableReference { id }),
            } = element
            {
                names.push(id.name.to_string());
            }
        }
        names.sort();
        names.dedup();
        out.insert(m.id.name.to_string(), names);
    }
    out
}
