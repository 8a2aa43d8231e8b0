//! The event (赛事) and its groups (组别): the organizers' overview (`/e/{event}`: the groups in
//! hall order, add and edit a group, a round paired or published for every group at once), the
//! public landing page, the band proposals to confirm, and an entrant moved between groups
//! before round 1. An event of one group is the tournament as it always was: `/e/{event}`
//! sends the reader to its `/t/{id}`.

use super::ctx::{id, Ctx};
use super::error::AppError;
use super::form::{text_error, Form, Lines};
use super::i18n::Lang;
use super::refusals::Refusal;
use super::views::events::*;
use super::views::pages::{FormView, Options};
use super::views::text::{display_name, rank_text, Names};
use super::write::{EventOrganizer, Organizer, Write};
use crate::db::event_pages;
use crate::db::events::{self, Group, GroupError, GroupFields, MoveError};
use crate::db::users::Role;
use crate::db::DbError;
use crate::domain::entrant::{parse_date, Rank, MAX_NAME_CHARS};
use crate::domain::groups::Band;
use crate::domain::settings::{PairingRules, System, MAX_ROUNDS};
use crate::i18n::tr;
use crate::office::events::{self as oev, Step};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use serde::Deserialize;

/// The systems a group may have: the individual ones (a team event is an event of its own).
const GROUP_SYSTEMS: &[System] = &[System::Swiss, System::McMahon, System::RoundRobin, System::Knockout];

fn systems(lang: Lang) -> Options {
    GROUP_SYSTEMS
        .iter()
        .map(|s| (s.code().to_string(), lang.t(&format!("system.{}", s.code())).to_string()))
        .collect()
}

/// A group's form as typed: its names and band, and with `hall` its place in the hall and its
/// fixed first table. Messages beside the fields; the fields when every one reads.
pub fn read_group(lang: Lang, form: &Form, hall: bool) -> (FormView, Option<GroupFields>) {
    let mut f = FormView::from_form(form);
    let (zh, latin) = (form.get("group_name_zh"), form.get("group_name_latin"));
    for (name, v) in [("group_name_zh", zh), ("group_name_latin", latin)] {
        if let Some(e) = text_error(lang, v, MAX_NAME_CHARS, Lines::One) {
            f.error(name, e);
        }
    }
    if zh.is_empty() && latin.is_empty() {
        f.error("group_name_zh", lang.t("group.err_name"));
    }
    let rank = |f: &mut FormView, name: &str| match form.get(name) {
        "" => Some(None),
        v => match Rank::parse(v) {
            Ok(r) => Some(Some(r.value())),
            Err(e) => {
                f.error(name, lang.entrant_error(&e));
                None
            }
        },
    };
    let (low, high) = (rank(&mut f, "rank_low"), rank(&mut f, "rank_high"));
    if let (Some(Some(l)), Some(Some(h))) = (low, high) {
        if l > h {
            f.error("rank_high", lang.t("group.err_rank_order"));
        }
    }
    let date = |f: &mut FormView, name: &str| match form.get(name) {
        "" => Some(None),
        v => match parse_date(v) {
            Ok(d) => Some(Some(d)),
            Err(e) => {
                f.error(name, lang.entrant_error(&e));
                None
            }
        },
    };
    let (after, before) = (date(&mut f, "born_on_or_after"), date(&mut f, "born_before"));
    if let (Some(Some(a)), Some(Some(b))) = (after, before) {
        if a >= b {
            f.error("born_before", lang.t("group.err_date_order"));
        }
    }
    let number = |f: &mut FormView, name: &str, max: i32| match form.get(name) {
        "" => Some(None),
        v => match v.parse::<i32>() {
            Ok(n) if (1..=max).contains(&n) => Some(Some(n)),
            _ => {
                f.error(name, tr!(lang, "err.number_range", min = 1, max));
                None
            }
        },
    };
    let (order, first_table) = match hall {
        true => (number(&mut f, "group_order", 999), number(&mut f, "first_table", 9999)),
        false => (Some(None), Some(None)),
    };
    if hall && order == Some(None) {
        f.error("group_order", tr!(lang, "err.number_range", min = 1, max = 999));
    }
    if f.has_errors() {
        return (f, None);
    }
    let fields = GroupFields {
        group_name_zh: zh.to_string(),
        group_name_latin: latin.to_string(),
        group_order: order.flatten().unwrap_or(0),
        first_table: first_table.flatten(),
        band: Band {
            rank_low: low.flatten(),
            rank_high: high.flatten(),
            born_on_or_after: after.flatten(),
            born_before: before.flatten(),
        },
    };
    (f, Some(fields))
}

/// What the overview shows besides the groups as stored.
#[derive(Default)]
struct Shown {
    add: Option<FormView>,
    edited: Option<(i32, FormView)>,
    banner: Option<String>,
    report: Vec<ReportLine>,
}

/// GET /e/{event}: the organizers' overview for the event's staff, the landing page for
/// everyone else; an event of one group is its tournament's page.
pub async fn overview(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let eid = id(ctx.lang, &path)?;
    let groups = ctx.db(move |c| events::groups(c, eid)).await?;
    if groups.len() == 1 {
        return Ok(ctx.redirect(&format!("/t/{}", groups[0].id())));
    }
    if ctx.staff_role(groups[0].id()).await?.is_some() {
        return staff_page(&ctx, eid, Shown::default(), StatusCode::OK).await;
    }
    public_page(&ctx, groups).await
}

async fn public_page(ctx: &Ctx, groups: Vec<Group>) -> Result<HttpResponse, AppError> {
    let lang = ctx.lang;
    let ids: Vec<i32> = groups.iter().map(Group::id).collect();
    let chrome_ids = ids.clone();
    let extra = ctx
        .db(move |c| {
            ids.iter()
                .map(|&tid| {
                    let (_, last) = crate::db::tournaments::published_rounds(c, tid)?;
                    let winners = crate::db::prizes::settings(c, tid)?.0.published;
                    Ok((last, winners))
                })
                .collect::<Result<Vec<_>, DbError>>()
        })
        .await?;
    let first = &groups[0].t;
    let zh = lang.is_zh();
    let (name, other) = (first.name(zh).to_string(), first.name(!zh).to_string());
    let page = EventPublicPage {
        // The landing page follows every group: a round published or prizes announced shows.
        c: ctx.chrome(name.clone()).live_all(&chrome_ids),
        other_name: if other == name { String::new() } else { other },
        dates: dates(&first.start_date, &first.end_date),
        venue: first.venue.clone(),
        groups: groups
            .iter()
            .zip(extra)
            .map(|(g, (last, winners))| PublicGroup {
                id: g.id(),
                // A link needs its words: the group the event was made with may have no name.
                name: super::registration::group_name(lang, g),
                system: super::views::text::system_name(lang, &g.t.system),
                last_round: (last > 0).then_some(last as i32),
                winners,
            })
            .collect(),
        name,
    };
    ctx.render(&page)
}

/// The organizers' overview with what a refused write left to show.
async fn staff_page(ctx: &Ctx, eid: i32, shown: Shown, status: StatusCode) -> Result<HttpResponse, AppError> {
    let (lines, proposals) = ctx
        .db(move |c| {
            Ok::<_, DbError>((event_pages::group_lines(c, eid)?, events::band_proposals(c, eid)?.len()))
        })
        .await?;
    let lang = ctx.lang;
    let first = &lines[0].group.t;
    let c = ctx.chrome(first.name(lang.is_zh()).to_string());
    let add = shown.add.unwrap_or_else(|| {
        let mut f = FormView::default();
        f.set("system", first.system.clone());
        f.set("rounds", first.rounds.to_string());
        f
    });
    let organizer = ctx.staff_role(first.id).await? == Some(Role::Organizer);
    let mut page = EventPage::build(
        c,
        lang,
        eid,
        &lines,
        add,
        shown.edited,
        shown.banner,
        shown.report,
        proposals,
        systems(lang),
    );
    page.organizer = organizer;
    ctx.render_status(status, &page)
}

/// POST /e/{event}/groups/new: a group with the first group's settings but its own names, band,
/// system and number of rounds, placed last in the hall.
pub async fn add_group(w: Write<EventOrganizer>) -> Result<HttpResponse, AppError> {
    let [eid] = w.who.ids;
    let (mut f, fields) = read_group(w.lang, &w.fields, false);
    let system = GROUP_SYSTEMS.iter().copied().find(|s| s.code() == w.fields.get("system"));
    if system.is_none() {
        f.error("system", w.t("err.choice"));
    }
    let rounds = w.fields.get("rounds").parse::<u32>().ok().filter(|n| (1..=MAX_ROUNDS).contains(n));
    if rounds.is_none() {
        f.error("rounds", tr!(w.lang, "err.number_range", min = 1, max = MAX_ROUNDS));
    }
    let first = w.db(move |c| events::groups(c, eid)).await?.remove(0).t.settings();
    let (Some(fields), Some(system), Some(rounds)) = (fields, system, rounds) else {
        let shown = Shown { add: Some(f), banner: Some(w.t("form.has_errors").into()), ..Shown::default() };
        return staff_page(&w, eid, shown, StatusCode::BAD_REQUEST).await;
    };
    let mut s = first.clone();
    s.system = system;
    s.rounds = rounds;
    if first.tiebreaks == first.system.default_tiebreaks() {
        s.tiebreaks = system.default_tiebreaks().to_vec();
    }
    if !s.pairing.problems(system).is_empty() {
        s.pairing = PairingRules::default();
    }
    let problems = s.validate();
    if !problems.is_empty() {
        let words: Vec<String> = problems.iter().map(|p| w.lang.settings_problem(p)).collect();
        let shown = Shown { add: Some(f), banner: Some(words.join(" ")), ..Shown::default() };
        return staff_page(&w, eid, shown, StatusCode::BAD_REQUEST).await;
    }
    let actor = w.actor();
    w.db(move |c| events::add_group(c, &actor, eid, &s, &fields)).await?;
    Ok(w.redirect(&format!("/e/{eid}")))
}

/// The event's group `tid`, or the 404 page when it is another event's.
async fn group_of_event(ctx: &Ctx, eid: i32, tid: i32) -> Result<Group, AppError> {
    let g = ctx.db(move |c| events::group(c, tid)).await?;
    if g.event_id != eid {
        return Err(ctx.not_found());
    }
    Ok(g)
}

/// POST /e/{event}/groups/{group}: a group's names, place in the hall, first table and band, at
/// the version the page showed (a stale page is refused, the entry kept).
pub async fn edit_group(w: Write<EventOrganizer<[i32; 2]>>) -> Result<HttpResponse, AppError> {
    let [eid, tid] = w.who.ids;
    group_of_event(&w, eid, tid).await?;
    let (f, fields) = read_group(w.lang, &w.fields, true);
    let Some(fields) = fields else {
        let shown =
            Shown { edited: Some((tid, f)), banner: Some(w.t("form.has_errors").into()), ..Shown::default() };
        return staff_page(&w, eid, shown, StatusCode::BAD_REQUEST).await;
    };
    let (actor, version) = (w.actor(), w.version()?);
    match w.db_raw(move |c| events::set_group(c, &actor, tid, version, &fields)).await? {
        Ok(_) => Ok(w.redirect(&format!("/e/{eid}"))),
        Err(GroupError::Stale { .. }) => {
            let shown =
                Shown { edited: Some((tid, f)), banner: Some(w.t("err.stale").into()), ..Shown::default() };
            staff_page(&w, eid, shown, StatusCode::CONFLICT).await
        }
        Err(GroupError::Db(e)) => Err(AppError::db(w.lang, e)),
    }
}

/// One group's line of an action on the whole event, in the reader's words.
fn report_line(lang: Lang, g: &Group, n: i32, step: Step, done: &str) -> Result<ReportLine, AppError> {
    let ok = matches!(step, Step::Done);
    let text = match step {
        Step::Done => lang.t(done).to_string(),
        Step::Warnings(w) => tr!(lang, "group.step_warnings", count = w.len()),
        Step::NotPaired => tr!(lang, "group.step_not_paired", round = n),
        Step::Refused(e) => e.refused(lang, &Names::new(lang, &[]))?.message,
    };
    Ok(ReportLine::new(lang, &group_name(lang, &g.fields), ok, text, format!("/t/{}/rounds/{n}", g.id())))
}

/// The overview after an action on every group: back to it when every group did it, else with
/// each group's line (409).
async fn after_all(
    w: &Ctx,
    eid: i32,
    n: i32,
    steps: Vec<(Group, Step)>,
    done: &str,
) -> Result<HttpResponse, AppError> {
    let all_done = steps.iter().all(|(_, s)| matches!(s, Step::Done));
    let report =
        steps.into_iter().map(|(g, s)| report_line(w.lang, &g, n, s, done)).collect::<Result<Vec<_>, _>>()?;
    if all_done {
        return Ok(w.redirect(&format!("/e/{eid}")));
    }
    staff_page(w, eid, Shown { report, ..Shown::default() }, StatusCode::CONFLICT).await
}

/// POST /e/{event}/rounds/{n}/pair: round n paired for every group, in hall order, each as its
/// own round page pairs it (a fresh seed each); each group's refusal reported on its line.
pub async fn pair_all(w: Write<EventOrganizer<[i32; 2]>>) -> Result<HttpResponse, AppError> {
    let [eid, n] = w.who.ids;
    let (actor, confirm) = (w.actor(), w.fields.checked("confirm"));
    let steps =
        w.db(move |c| oev::pair_all(c, &actor, eid, n, confirm, &mut super::rounds::new_seed)).await?;
    after_all(&w, eid, n, steps, "group.step_paired").await
}

/// POST /e/{event}/rounds/{n}/publish: round n published for every group, each at the draft
/// version the page showed (`version_{group}`), in hall order.
pub async fn publish_all(w: Write<EventOrganizer<[i32; 2]>>) -> Result<HttpResponse, AppError> {
    let [eid, n] = w.who.ids;
    let versions: Vec<(i32, i32)> = w
        .fields
        .fields
        .iter()
        .filter_map(|(k, v)| Some((k.strip_prefix("version_")?.parse().ok()?, v.trim().parse().ok()?)))
        .collect();
    let (actor, confirm) = (w.actor(), w.fields.checked("confirm"));
    let steps = w
        .db(move |c| {
            let version_of = |tid: i32| versions.iter().find(|(g, _)| *g == tid).map(|(_, v)| *v);
            oev::publish_all(c, &actor, eid, n, &version_of, confirm)
        })
        .await?;
    after_all(&w, eid, n, steps, "group.step_published").await
}

/// GET /e/{event}/bands: the entrants the groups' bands would place elsewhere, one list.
pub async fn bands_page(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let eid = id(ctx.lang, &path)?;
    ctx.require_event_staff(eid, Role::Organizer).await?;
    bands(&ctx, eid, None, Vec::new(), StatusCode::OK).await
}

async fn bands(
    ctx: &Ctx,
    eid: i32,
    banner: Option<String>,
    report: Vec<ReportLine>,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let lang = ctx.lang;
    let (groups, proposals) =
        ctx.db(move |c| Ok::<_, DbError>((events::groups(c, eid)?, events::band_proposals(c, eid)?))).await?;
    let name_of = |tid: i32| {
        groups.iter().find(|g| g.id() == tid).map(|g| group_name(lang, &g.fields)).unwrap_or_default()
    };
    let rows = proposals
        .iter()
        .map(|(e, from, to)| ProposalRow {
            entrant: e.id,
            version: e.version,
            from: *from,
            to: *to,
            name: display_name(e, lang.is_zh()),
            rank: rank_text(lang, &e.rank),
            birth_date: e.birth_date.clone().unwrap_or_default(),
            from_name: name_of(*from),
            to_name: name_of(*to),
        })
        .collect();
    let c = ctx.chrome(lang.t("group.bands_title"));
    ctx.render_status(status, &BandsPage { c, eid, rows, banner, report })
}

/// A ticked proposal: entrant, version, from group, to group.
fn ticked(v: &str) -> Option<[i32; 4]> {
    let mut it = v.split('_').map(|p| p.parse::<i32>().ok().filter(|n| *n > 0));
    let out = [it.next()??, it.next()??, it.next()??, it.next()??];
    it.next().is_none().then_some(out)
}

/// POST /e/{event}/bands: the ticked entrants moved to the group their band proposes, each at
/// the version the list showed (a stale one refused on its line, the others moved).
pub async fn bands_confirm(w: Write<EventOrganizer>) -> Result<HttpResponse, AppError> {
    let [eid] = w.who.ids;
    let moves: Vec<[i32; 4]> = w
        .fields
        .all("move")
        .into_iter()
        .map(ticked)
        .collect::<Option<_>>()
        .ok_or_else(|| super::write::bad_form(&w))?;
    let groups = w.db(move |c| events::groups(c, eid)).await?;
    let mine = |tid: i32| groups.iter().any(|g| g.id() == tid);
    if !moves.iter().all(|m| mine(m[2]) && mine(m[3])) {
        return Err(w.not_found());
    }
    let (actor, zh) = (w.actor(), w.lang.is_zh());
    let outcomes = w
        .db(move |c| {
            let mut out = Vec::new();
            for [e, v, from, to] in moves {
                let name = crate::db::entrants::get(c, from, e).map(|r| display_name(&r, zh));
                match events::move_entrant(c, &actor, from, e, v, to) {
                    Err(MoveError::Db(DbError::NotFound)) => {
                        out.push((String::new(), Some(MoveError::Stale { current: 0 })))
                    }
                    Err(MoveError::Db(e)) => return Err(e),
                    r => out.push((name.unwrap_or_default(), r.err())),
                }
            }
            Ok(out)
        })
        .await?;
    if outcomes.iter().all(|(_, e)| e.is_none()) {
        return Ok(w.redirect(&format!("/e/{eid}")));
    }
    let report = outcomes
        .into_iter()
        .map(|(name, e)| {
            let text = match &e {
                None => w.t("group.moved").to_string(),
                Some(e) => move_refusal(w.lang, e),
            };
            ReportLine::new(w.lang, &name, e.is_none(), text, String::new())
        })
        .collect();
    bands(&w, eid, Some(w.t("group.bands_refused").into()), report, StatusCode::CONFLICT).await
}

/// Why an entrant did not move, in the reader's words.
fn move_refusal(lang: Lang, e: &MoveError) -> String {
    match e {
        MoveError::Started { .. } => lang.t("group.err_started").into(),
        MoveError::OtherEvent => lang.t("group.err_other_event").into(),
        MoveError::Stale { .. } => lang.t("group.err_move_stale").into(),
        MoveError::Db(_) => lang.t("group.err_move_stale").into(),
    }
}

/// The form of an entrant's move: the group and the entrant's version.
#[derive(Deserialize)]
pub struct MoveForm {
    to: i32,
    version: i32,
}

/// POST /t/{id}/entrants/{eid}/move: the entrant to another group of the event, before round 1
/// (refused, on the entrant's page, once a round exists, for a group of another event, or when
/// the entrant changed meanwhile).
pub async fn move_entrant(w: Write<Organizer<[i32; 2]>, MoveForm>) -> Result<HttpResponse, AppError> {
    let [tid, eid] = w.who.ids;
    let (to, version, actor) = (w.form.to, w.form.version, w.actor());
    // Another group's entrant in this group's path is not here (404), whatever else is wrong.
    w.db(move |c| crate::db::entrants::get(c, tid, eid)).await?;
    match w.db_raw(move |c| events::move_entrant(c, &actor, tid, eid, version, to)).await? {
        Ok(()) => Ok(w.redirect(&format!("/t/{to}/entrants"))),
        Err(MoveError::Db(DbError::NotFound)) => Err(w.not_found()),
        Err(MoveError::Db(e)) => Err(AppError::db(w.lang, e)),
        Err(e) => {
            let status = match e {
                MoveError::Stale { .. } | MoveError::Started { .. } => StatusCode::CONFLICT,
                _ => StatusCode::BAD_REQUEST,
            };
            super::entrants::edit_refused(&w, tid, eid, move_refusal(w.lang, &e), status).await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(pairs: &[(&str, &str)]) -> Form {
        Form::of(pairs)
    }

    /// The groups rule (组别): a band by rank (业余高段组: 5段 and above) and one by birth date
    /// (少儿组: born on or after a date) read from the group form; a band upside down is refused
    /// beside its field.
    #[test]
    fn a_group_form_reads_its_band() {
        let (_, g) =
            read_group(Lang::Zh, &form(&[("group_name_zh", "业余高段组"), ("rank_low", "5d")]), false);
        let g = g.unwrap();
        assert_eq!(g.band.rank_low, Some(Rank::parse("5d").unwrap().value()));
        assert_eq!(g.group_order, 0, "placed last");
        let (_, g) = read_group(
            Lang::Zh,
            &form(&[("group_name_zh", "少儿组"), ("born_on_or_after", "2012-01-01")]),
            false,
        );
        assert_eq!(g.unwrap().band.born_on_or_after, "2012-01-01".parse().ok());
        let (f, g) = read_group(
            Lang::En,
            &form(&[("group_name_latin", "Dan"), ("rank_low", "5d"), ("rank_high", "1k")]),
            false,
        );
        assert!(g.is_none() && f.err("rank_high").is_some());
        let (f, g) = read_group(Lang::En, &form(&[("rank_low", "xx")]), false);
        assert!(g.is_none() && f.err("group_name_zh").is_some() && f.err("rank_low").is_some());
        let (f, g) = read_group(
            Lang::En,
            &form(&[("group_name_zh", "甲"), ("group_order", "2"), ("first_table", "0")]),
            true,
        );
        assert!(g.is_none() && f.err("first_table").is_some());
        let (_, g) = read_group(
            Lang::En,
            &form(&[("group_name_zh", "甲"), ("group_order", "2"), ("first_table", "101")]),
            true,
        );
        let g = g.unwrap();
        assert_eq!((g.group_order, g.first_table), (2, Some(101)));
    }

    /// The groups rule (组别): a ticked band proposal names the entrant, its version and both
    /// groups, nothing else.
    #[test]
    fn a_ticked_proposal_is_four_ids() {
        assert_eq!(ticked("5_2_7_8"), Some([5, 2, 7, 8]));
        assert_eq!(ticked("5_2_7"), None);
        assert_eq!(ticked("5_2_7_8_9"), None);
        assert_eq!(ticked("5_x_7_8"), None);
    }
}
