//! An entrant's form read and checked by the domain's parsing and validation, and the words of
//! its errors: what the entrant form, the registration form and a registry person's form share
//! (a leaf: it names none of their handlers).

use super::form::Form;
use super::i18n::Lang;
use super::views::pages::{FormView, Options};
use crate::domain::entrant::{self as dom, EntrantInput, ErrorCode, FieldError, Rank, Sex};

/// A domain message in the reader's language.
pub fn field_msg(lang: Lang, e: &FieldError) -> String {
    lang.entrant_error(&e.code)
}

fn code_msg(lang: Lang, e: &ErrorCode) -> String {
    lang.entrant_error(e)
}

/// The value of a field parsed by the domain, or `None` with its error marked on `f`.
fn checked<T>(lang: Lang, f: &mut FormView, field: &str, r: Result<T, ErrorCode>) -> Option<T> {
    r.map_err(|e| f.error(field, code_msg(lang, &e))).ok()
}

/// Read and check an entrant form with the domain's parsing and validation.
pub fn entrant_from_form(lang: Lang, form: &Form) -> (FormView, Option<EntrantInput>) {
    let mut f = FormView::from_form(form);
    let rank = checked(lang, &mut f, dom::field::RANK, Rank::parse(form.get("rank")));
    let rating = checked(lang, &mut f, dom::field::RATING, dom::parse_rating(form.get("rating"))).flatten();
    read_entrant(lang, form, f, rank.unwrap_or(Rank::LOWEST), rating)
}

/// A registry person's details from their form: an entrant's fields without a rank or rating
/// (a person's ranks are their events'), checked by the same rules.
pub fn person_from_form(lang: Lang, form: &Form) -> (FormView, Option<EntrantInput>) {
    read_entrant(lang, form, FormView::from_form(form), Rank::LOWEST, None)
}

/// The rest of an entrant's form read and checked, with its rank and rating already read.
fn read_entrant(
    lang: Lang,
    form: &Form,
    mut f: FormView,
    rank: Rank,
    rating: Option<i32>,
) -> (FormView, Option<EntrantInput>) {
    let birth_date = match form.get("birth_date") {
        "" => None,
        s => checked(lang, &mut f, dom::field::BIRTH_DATE, dom::parse_date(s)),
    };
    let sex = match form.get("sex") {
        "" => None,
        s => checked(lang, &mut f, dom::field::SEX, Sex::parse(s)),
    };
    super::form::check_reason(lang, form, &mut f);
    let input = EntrantInput {
        family_name_zh: form.get("family_name_zh").to_string(),
        given_name_zh: form.get("given_name_zh").to_string(),
        family_name_latin: form.get("family_name_latin").to_string(),
        given_name_latin: form.get("given_name_latin").to_string(),
        rank,
        rating,
        unit: form.get("unit").to_string(),
        region: form.get("region").to_string(),
        birth_date,
        sex,
        notes: form.raw("notes").to_string(),
        egd_pin: form.get("egd_pin").to_string(),
        federation_id: form.get("federation_id").to_string(),
    };
    match input.cleaned(crate::machine::today()) {
        Ok(clean) if !f.has_errors() => (f, Some(clean)),
        Ok(_) => (f, None),
        Err(errs) => {
            for e in &errs {
                let field = if e.field == dom::field::ROW { dom::field::FAMILY_NAME_ZH } else { e.field };
                f.error(field, field_msg(lang, e));
            }
            (f, None)
        }
    }
}

pub fn sex_options(lang: Lang) -> Options {
    vec![
        (String::new(), "—".into()),
        ("m".into(), lang.t("e.sex_m").into()),
        ("f".into(), lang.t("e.sex_f").into()),
    ]
}
