//! The prize pages: the staff page (`templates/prizes.html`: rules, prizes, winners, forms) and
//! the public prize list (`templates/winners.html`).

use super::pages::{Chrome, FormView, Options};
use crate::db::prizes::Template as CertTemplate;
use crate::domain::prizes::{Double, Kind};
use crate::i18n::{tr, Lang};
use crate::office::prizes::{Line, PrizeList};
use askama::Template;

/// One prize as the pages list it.
pub struct PrizeItem {
    pub id: i32,
    pub position: i32,
    pub name: String,
    /// The organizer's own name for it (empty: the usual one, `name`).
    pub own_name: String,
    pub condition: String,
    pub amount: String,
    /// The winner's names, or "not awarded".
    pub winner: String,
    pub awarded: bool,
    pub rank: String,
    pub unit: String,
    /// The standings place, "3=" when shared.
    pub place: String,
    pub score: String,
    /// The tie the tie-breaks left, in words.
    pub tie: Option<String>,
}

fn item(lang: Lang, l: &Line) -> PrizeItem {
    let w = l.winner.as_ref();
    PrizeItem {
        id: l.prize.id,
        position: l.prize.position,
        name: l.name.clone(),
        own_name: l.prize.name.clone(),
        condition: l.condition.clone(),
        amount: l.prize.amount.clone(),
        winner: w.map_or_else(|| lang.t("prize.none").to_string(), |w| w.name.clone()),
        awarded: w.is_some(),
        rank: w.map(|w| w.rank.clone()).unwrap_or_default(),
        unit: w.map(|w| w.unit.clone()).unwrap_or_default(),
        place: w.map(|w| w.place.clone()).unwrap_or_default(),
        score: w.map(|w| w.score.clone()).unwrap_or_default(),
        tie: (!l.tied_with.is_empty()).then(|| {
            let sep = if lang.is_zh() { "、" } else { ", " };
            tr!(lang, "prize.tie", names = l.tied_with.join(sep))
        }),
    }
}

#[derive(Template)]
#[template(path = "prizes.html")]
pub struct PrizesPage {
    pub c: Chrome,
    pub tid: i32,
    pub organizer: bool,
    pub version: i32,
    pub published: bool,
    pub f: FormView,
    pub doubles: Options,
    pub templates: Options,
    pub kinds: Options,
    pub items: Vec<PrizeItem>,
    /// Not every round is played yet: the list is a preview.
    pub preview: Option<String>,
    pub banner: Option<String>,
    pub notice: Option<String>,
}

/// The staff page of `list`; `f` and `banner` are a refused form's.
pub fn staff(
    c: Chrome,
    lang: Lang,
    list: &PrizeList,
    organizer: bool,
    f: Option<FormView>,
    banner: Option<String>,
    notice: Option<String>,
) -> PrizesPage {
    let s = &list.settings;
    // Every form of the page shows the stored values; a refused one shows its entry as typed.
    let mut shown = FormView::default();
    shown.set("double", s.rules.double.code());
    shown.set("template", s.template.code());
    shown.set("organizer", s.organizer.clone());
    if s.rules.award_withdrawn {
        shown.set("award_withdrawn", "on");
    }
    let places = list.lines.iter().filter(|l| matches!(l.kind, Kind::Place(_))).count();
    shown.set("places", places.to_string());
    shown.set("kind", "woman");
    if let Some(typed) = f {
        if typed.vals.contains_key("double") {
            // The rules form as typed: an unticked box is absent.
            shown.vals.remove("award_withdrawn");
        }
        shown.vals.extend(typed.vals);
        shown.errs = typed.errs;
    }
    let f = shown;
    let o = |pairs: &[(&str, &str)]| -> Options {
        pairs.iter().map(|(code, key)| (code.to_string(), lang.t(key).to_string())).collect()
    };
    PrizesPage {
        c,
        tid: list.t.id,
        organizer,
        version: list.version,
        published: s.published,
        f,
        doubles: o(&[
            (Double::HigherOnly.code(), "prize.double_higher"),
            (Double::Both.code(), "prize.double_both"),
        ]),
        templates: o(&[
            (CertTemplate::Classic.code(), "prize.template_classic"),
            (CertTemplate::Plain.code(), "prize.template_plain"),
        ]),
        kinds: o(&[
            ("woman", "prize.woman"),
            ("junior", "prize.junior"),
            ("band", "prize.cond_band_kind"),
            ("unit", "prize.cond_unit_kind"),
        ]),
        items: list.lines.iter().map(|l| item(lang, l)).collect(),
        preview: (!list.is_final()).then(|| tr!(lang, "prize.not_final", round = list.after_round)),
        banner,
        notice,
    }
}

#[derive(Template)]
#[template(path = "winners.html")]
pub struct WinnersPage {
    pub c: Chrome,
    pub tid: i32,
    pub items: Vec<PrizeItem>,
}

/// The public prize list.
pub fn public(c: Chrome, list: &PrizeList) -> WinnersPage {
    let lang = c.lang;
    WinnersPage { tid: list.t.id, items: list.lines.iter().map(|l| item(lang, l)).collect(), c }
}
