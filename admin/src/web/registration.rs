//! Online registration (网上报名) of an event: the public form `/e/{event}/register` (no login,
//! CSRF token as every POST, throttled per address like self check-in), its confirmation and
//! private status page `/e/{event}/register/{reference}` (where a registration asked to change
//! is sent again), and the organizer's page `/e/{event}/registrations`: the settings (open, the
//! deadline in the event's zone, each group's part and cap, the fields asked) and the queue
//! (filtered by state and group, duplicates flagged, accept / reject / ask for a change).
//! The contact (phone, e-mail) is shown on the organizer's page only.

use super::ctx::{id, Ctx};
use super::entrants::{duplicate_text, entrant_from_form, sex_options};
use super::error::AppError;
use super::form::{text_error, Lines, MAX_REASON};
use super::views::pages::{FormView, Options};
use super::views::registration::*;
use super::views::text::rank_text;
use super::write::{Anyone, EventOrganizer, PathIds, Write};
use crate::db::events::{self as evdb, Group};
use crate::db::registrations::{self as rdb, Contact, Decision, Duplicate, RegError, Registration, Settings};
use crate::db::users::Role;
use crate::db::DbError;
use crate::domain::entrant::EntrantInput;
use crate::domain::names::pinyin_of_name;
use crate::domain::registration::{self as dreg, Ask, GroupRule, Refusal, State, FIELD_NAMES};
use crate::i18n::{tr, Lang};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use std::collections::BTreeMap;

/// A group as the form, the queue and the event's public landing page name it: its own name,
/// else (an event of one group, or the group the event was made with) the event's.
pub(crate) fn group_name(lang: Lang, g: &Group) -> String {
    let own = if lang.is_zh() { &g.fields.group_name_zh } else { &g.fields.group_name_latin };
    let own = if own.is_empty() { &g.fields.group_name_zh } else { own };
    if own.is_empty() {
        g.t.name(lang.is_zh()).to_string()
    } else {
        own.clone()
    }
}

/// The words of a refusal, with its status.
fn refusal(lang: Lang, e: &RegError) -> (StatusCode, String) {
    let (status, key) = match e {
        RegError::Refused(Refusal::Closed) => (StatusCode::CONFLICT, "reg.err_closed"),
        RegError::Refused(Refusal::Late) => (StatusCode::CONFLICT, "reg.err_late"),
        RegError::Refused(Refusal::NotTaking) | RegError::NoGroup => {
            (StatusCode::BAD_REQUEST, "reg.err_group")
        }
        RegError::Refused(Refusal::Full) => (StatusCode::CONFLICT, "reg.err_full"),
        RegError::Stale => (StatusCode::CONFLICT, "reg.err_stale"),
        RegError::NotWaiting => (StatusCode::CONFLICT, "reg.err_decided"),
        RegError::Db(_) => (StatusCode::CONFLICT, "reg.err_stale"),
    };
    (status, lang.t(key).to_string())
}

fn state_text(lang: Lang, s: State) -> String {
    lang.t(&format!("reg.state_{}", s.code())).to_string()
}

fn ask_label(name: &str) -> &'static str {
    match name {
        "sex" => "e.sex",
        "birth_date" => "e.birth_date",
        "unit" => "e.unit",
        _ => "reg.contact",
    }
}

/// The event's groups and its settings.
async fn load(ctx: &Ctx, eid: i32) -> Result<(Vec<Group>, Settings), AppError> {
    ctx.db(move |c| Ok::<_, DbError>((evdb::groups(c, eid)?, rdb::settings(c, eid)?))).await
}

/// The public form's page (new at `action`, or sent again), with `f` as typed.
fn form_page(
    ctx: &Ctx,
    eid: i32,
    groups: &[Group],
    s: &Settings,
    action: String,
    f: FormView,
    banner: Option<String>,
) -> RegisterPage {
    let lang = ctx.lang;
    let now = chrono::Utc::now();
    let choices: Options = groups
        .iter()
        .filter(|g| s.rule(g.id()).takes)
        .map(|g| (g.id().to_string(), group_name(lang, g)))
        .collect();
    let closed = match s.accepting(now) {
        Err(Refusal::Late) => Some(lang.t("reg.err_late").to_string()),
        Err(_) => Some(lang.t("reg.err_closed").to_string()),
        Ok(()) if choices.is_empty() => Some(lang.t("reg.err_closed").to_string()),
        Ok(()) => None,
    };
    let zone = groups[0].t.zone();
    let asked = ["sex", "birth_date", "unit"]
        .into_iter()
        .filter(|n| s.fields.get(n).asked())
        .map(|n| Asked { name: n, label: ask_label(n), required: s.fields.get(n) == Ask::Required })
        .collect();
    RegisterPage {
        c: ctx.chrome_t(&groups[0].t, false, tr!(lang, "reg.title", event = groups[0].t.name(lang.is_zh()))),
        eid,
        action,
        open: closed.is_none(),
        closed,
        deadline: s
            .deadline
            .as_deref()
            .map(|d| format!("{} {}", zone.date_time(d), zone.name()))
            .unwrap_or_default(),
        groups: choices,
        asked,
        contact: s.fields.contact.asked().then_some(s.fields.contact == Ask::Required),
        sexes: sex_options(lang),
        f,
        banner,
    }
}

/// GET /e/{event}/register: the public form.
pub async fn form(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let eid = id(ctx.lang, &path)?;
    let (groups, s) = load(&ctx, eid).await?;
    let page = form_page(&ctx, eid, &groups, &s, format!("/e/{eid}/register"), FormView::default(), None);
    ctx.render(&page)
}

/// The form's registration read and checked: the entrant (the pinyin filled from the Chinese
/// name when left empty; only the fields asked kept), the contact and the group; else the form
/// with its errors.
fn read(
    lang: Lang,
    form: &super::form::Form,
    s: &Settings,
) -> (FormView, Option<(EntrantInput, Contact, i32)>) {
    let (mut f, input) = entrant_from_form(lang, form);
    let contact = Contact { phone: form.get("phone").to_string(), email: form.get("email").to_string() };
    if !contact.phone.is_empty() && !dreg::phone_ok(&contact.phone) {
        f.error("phone", lang.t("reg.err_phone"));
    }
    if !contact.email.is_empty() && !dreg::email_ok(&contact.email) {
        f.error("email", lang.t("reg.err_email"));
    }
    let group = form.get("group").parse::<i32>().ok();
    if group.is_none() {
        f.error("group", lang.t("reg.err_group"));
    }
    let Some(mut input) = input else { return (f, None) };
    // Only what the organizer asks is kept (a hand-made request sends no rating or notes).
    input.rating = None;
    input.region.clear();
    input.notes.clear();
    if !s.fields.sex.asked() {
        input.sex = None;
    }
    if !s.fields.birth_date.asked() {
        input.birth_date = None;
    }
    if !s.fields.unit.asked() {
        input.unit.clear();
    }
    let contact = if s.fields.contact.asked() { contact } else { Contact::default() };
    let missing = s.fields.missing(|n| match n {
        "sex" => input.sex.is_some(),
        "birth_date" => input.birth_date.is_some(),
        "unit" => !input.unit.is_empty(),
        _ => !contact.phone.is_empty() || !contact.email.is_empty(),
    });
    for n in missing {
        f.error(if n == "contact" { "phone" } else { n }, lang.t("reg.err_required"));
    }
    if input.family_name_latin.is_empty() && input.given_name_latin.is_empty() && input.has_chinese_name() {
        (input.family_name_latin, input.given_name_latin) =
            pinyin_of_name(&input.family_name_zh, &input.given_name_zh);
        f.set("family_name_latin", &input.family_name_latin);
        f.set("given_name_latin", &input.given_name_latin);
    }
    match group {
        Some(g) if !f.has_errors() => (f, Some((input, contact, g))),
        _ => (f, None),
    }
}

/// The registration throttle's key and clock, spent by every registration sent from an
/// address to the event.
fn spend(w: &Write<Anyone>, eid: i32) -> impl FnOnce(&mut crate::db::Conn) -> Result<bool, DbError> {
    let (key, throttle, now) =
        (format!("{eid}\n{}", w.peer), super::throttle::registration(), super::throttle::now_ms());
    move |c| {
        if !throttle.allows(c, &key, now)? {
            return Ok(false);
        }
        throttle.failed(c, &key, now)?;
        Ok(true)
    }
}

/// POST /e/{event}/register: a registration. Refused with the reason (closed, late, the group
/// full or not taking), the typed entry kept; on success the confirmation.
pub async fn submit(path: web::Path<String>, w: Write<Anyone>) -> Result<HttpResponse, AppError> {
    let eid = id(w.lang, &path)?;
    let (groups, s) = load(&w, eid).await?;
    let action = format!("/e/{eid}/register");
    if !w.db(spend(&w, eid)).await? {
        let page = form_page(
            &w,
            eid,
            &groups,
            &s,
            action,
            FormView::from_form(&w.fields),
            Some(w.t("reg.throttled").into()),
        );
        return w.render_status(StatusCode::TOO_MANY_REQUESTS, &page);
    }
    let (f, read) = read(w.lang, &w.fields, &s);
    let Some((input, contact, tid)) = read else {
        let page = form_page(&w, eid, &groups, &s, action, f, Some(w.t("form.has_errors").into()));
        return w.render_status(StatusCode::BAD_REQUEST, &page);
    };
    let now = chrono::Utc::now();
    let new_ref = || dreg::reference_of(super::rounds::new_seed());
    match w.db_raw(move |c| rdb::submit(c, eid, tid, &input, &contact, now, new_ref)).await? {
        Ok(r) => Ok(w.redirect(&format!("/e/{eid}/register/{}?new=1", r.reference))),
        Err(RegError::Db(e)) => Err(AppError::db(w.lang, e)),
        Err(e) => {
            let (status, why) = refusal(w.lang, &e);
            let mut f = f;
            if matches!(e, RegError::Refused(Refusal::Full | Refusal::NotTaking) | RegError::NoGroup) {
                f.error("group", why.clone());
            }
            let mut page = form_page(&w, eid, &groups, &s, action, f, Some(why));
            // A refused registration keeps its form, even when the refusal closes it.
            page.open = true;
            w.render_status(status, &page)
        }
    }
}

/// A registration as form values (to send again).
fn as_form(r: &Registration) -> FormView {
    let mut f = FormView::default();
    let e = &r.input;
    f.set("family_name_zh", &e.family_name_zh);
    f.set("given_name_zh", &e.given_name_zh);
    f.set("family_name_latin", &e.family_name_latin);
    f.set("given_name_latin", &e.given_name_latin);
    f.set("rank", e.rank.notation());
    f.set("unit", &e.unit);
    f.set("birth_date", e.birth_date.map(|d| d.to_string()).unwrap_or_default());
    // The select's values are lower case (as the entrant form's).
    f.set("sex", e.sex.map(|s| s.code().to_lowercase()).unwrap_or_default());
    f.set("phone", &r.contact.phone);
    f.set("email", &r.contact.email);
    f.set("group", r.tournament_id.to_string());
    f
}

/// The status page of `reference`, with the form again when a change is asked (`f` as typed,
/// or what was sent).
async fn status_page(
    ctx: &Ctx,
    eid: i32,
    reference: &str,
    new: bool,
    f: Option<FormView>,
    refused: Option<(StatusCode, String)>,
) -> Result<HttpResponse, AppError> {
    let Some(reference) = dreg::typed_reference(reference) else { return Err(ctx.not_found()) };
    let r2 = reference.clone();
    let r = ctx.db(move |c| rdb::by_reference(c, eid, &r2)).await?;
    let (groups, s) = load(ctx, eid).await?;
    let lang = ctx.lang;
    let link = format!("/e/{eid}/register/{reference}");
    let form = r.state.may_resubmit().then(|| {
        let f = f.unwrap_or_else(|| as_form(&r));
        form_page(ctx, eid, &groups, &s, link.clone(), f, refused.as_ref().map(|(_, b)| b.clone()))
    });
    let group =
        groups.iter().find(|g| g.id() == r.tournament_id).map(|g| group_name(lang, g)).unwrap_or_default();
    let name = if r.input.has_chinese_name() { r.input.full_name_zh() } else { r.input.full_name_latin() };
    let page = StatusPage {
        c: ctx.chrome_t(
            &groups[0].t,
            false,
            tr!(lang, "reg.status_title", event = groups[0].t.name(lang.is_zh())),
        ),
        reference,
        link,
        new,
        state_code: r.state.code(),
        state: state_text(lang, r.state),
        message: r.message.clone(),
        name,
        group,
        form,
    };
    ctx.render_status(refused.map_or(StatusCode::OK, |(s, _)| s), &page)
}

/// GET /e/{event}/register/{reference}: the registration's status (the confirmation after
/// sending: `?new=1`).
pub async fn status(
    ctx: Ctx,
    path: web::Path<(String, String)>,
    q: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let eid = id(ctx.lang, &path.0)?;
    let new = q.iter().any(|(k, v)| k == "new" && v == "1");
    status_page(&ctx, eid, &path.1, new, None, None).await
}

/// POST /e/{event}/register/{reference}: a registration asked to change, sent again.
pub async fn resubmit(path: web::Path<(String, String)>, w: Write<Anyone>) -> Result<HttpResponse, AppError> {
    let eid = id(w.lang, &path.0)?;
    let Some(reference) = dreg::typed_reference(&path.1) else { return Err(w.not_found()) };
    if !w.db(spend(&w, eid)).await? {
        let bad = Some((StatusCode::TOO_MANY_REQUESTS, w.t("reg.throttled").to_string()));
        return status_page(&w, eid, &reference, false, Some(FormView::from_form(&w.fields)), bad).await;
    }
    let s = w.db(move |c| rdb::settings(c, eid)).await?;
    let (f, read) = read(w.lang, &w.fields, &s);
    let Some((input, contact, tid)) = read else {
        let bad = Some((StatusCode::BAD_REQUEST, w.t("form.has_errors").to_string()));
        return status_page(&w, eid, &reference, false, Some(f), bad).await;
    };
    let now = chrono::Utc::now();
    let r2 = reference.clone();
    match w.db_raw(move |c| rdb::resubmit(c, eid, &r2, tid, &input, &contact, now)).await? {
        Ok(()) => Ok(w.redirect(&format!("/e/{eid}/register/{reference}"))),
        Err(RegError::Db(DbError::NotFound)) => Err(w.not_found()),
        Err(RegError::Db(e)) => Err(AppError::db(w.lang, e)),
        Err(e) => status_page(&w, eid, &reference, false, Some(f), Some(refusal(w.lang, &e))).await,
    }
}

// ---------------------------------------------------------------------------------------------
// The organizer's page

fn query(q: &[(String, String)], k: &str) -> String {
    q.iter().find(|(n, _)| n == k).map(|(_, v)| v.trim().to_string()).unwrap_or_default()
}

/// The organizer's page: the settings (`f` the deadline as typed) and the queue filtered.
async fn queue_page(
    ctx: &Ctx,
    eid: i32,
    state_filter: String,
    group_filter: String,
    f: Option<FormView>,
    refused: Option<(StatusCode, String)>,
) -> Result<HttpResponse, AppError> {
    ctx.require_event_staff(eid, Role::Organizer).await?;
    let (groups, s, regs, dups, taken) = ctx
        .db(move |c| {
            let groups = evdb::groups(c, eid)?;
            let regs = rdb::list(c, eid)?;
            let dups = rdb::duplicates(c, eid, &regs)?;
            let mut taken = BTreeMap::new();
            for g in &groups {
                taken.insert(g.id(), rdb::taken(c, g.id(), None)?);
            }
            Ok::<_, DbError>((groups, rdb::settings(c, eid)?, regs, dups, taken))
        })
        .await?;
    let lang = ctx.lang;
    let zone = groups[0].t.zone();
    let names: BTreeMap<i32, String> = groups.iter().map(|g| (g.id(), group_name(lang, g))).collect();
    let by_id: BTreeMap<i32, &Registration> = regs.iter().map(|r| (r.id, r)).collect();
    let dup_text = |d: &Duplicate| match d {
        Duplicate::Entrant(e, m) => duplicate_text(lang, e, *m),
        Duplicate::Registration(other, _) => {
            tr!(
                lang,
                "reg.dup_registration",
                reference = by_id.get(other).map(|r| r.reference.as_str()).unwrap_or("")
            )
        }
    };
    let rows = regs
        .iter()
        .filter(|r| state_filter.is_empty() || r.state.code() == state_filter)
        .filter(|r| group_filter.is_empty() || r.tournament_id.to_string() == group_filter)
        .map(|r| QueueRow {
            id: r.id,
            reference: r.reference.clone(),
            version: r.version,
            name_zh: r.input.full_name_zh(),
            name_latin: r.input.full_name_latin(),
            group: names.get(&r.tournament_id).cloned().unwrap_or_default(),
            rank: rank_text(lang, &r.input.rank.notation()),
            sex: r.input.sex.map(|s| lang.sex(s).to_string()).unwrap_or_default(),
            birth_date: r.input.birth_date.map(|d| d.to_string()).unwrap_or_default(),
            unit: r.input.unit.clone(),
            phone: r.contact.phone.clone(),
            email: r.contact.email.clone(),
            state_code: r.state.code(),
            state: state_text(lang, r.state),
            message: r.message.clone(),
            duplicates: dups.get(&r.id).map(|v| v.iter().map(dup_text).collect()).unwrap_or_default(),
            waiting: r.state.waiting(),
            entrant: r.entrant_id.map(|e| (r.tournament_id, e)),
        })
        .collect();
    let mut f = f.unwrap_or_default();
    if f.v("deadline").is_empty() && !f.has_errors() {
        let typed = s.deadline_at().map(|d| zone.input_of(d.timestamp())).unwrap_or_default();
        f.set("deadline", typed);
    }
    if f.v("retention_days").is_empty() && !f.has_errors() {
        f.set("retention_days", s.retention_days.to_string());
    }
    let mut states: Options = vec![(String::new(), lang.t("reg.all_states").to_string())];
    states.extend(State::ALL.iter().map(|st| (st.code().to_string(), state_text(lang, *st))));
    let mut group_choices: Options = vec![(String::new(), lang.t("reg.all_groups").to_string())];
    group_choices.extend(names.iter().map(|(id, n)| (id.to_string(), n.clone())));
    let page = QueuePage {
        c: ctx.chrome_t(
            &groups[0].t,
            true,
            tr!(lang, "reg.queue_title", event = groups[0].t.name(lang.is_zh())),
        ),
        eid,
        version: s.version,
        open: s.open,
        f,
        zone: zone.name().to_string(),
        groups: groups
            .iter()
            .map(|g| {
                let rule = s.rule(g.id());
                GroupSetting {
                    id: g.id(),
                    name: group_name(lang, g),
                    takes: rule.takes,
                    cap: rule.cap.map(|c| c.to_string()).unwrap_or_default(),
                    taken: taken.get(&g.id()).copied().unwrap_or(0),
                }
            })
            .collect(),
        fields: FIELD_NAMES
            .into_iter()
            .map(|n| FieldSetting { name: n, label: ask_label(n), ask: s.fields.get(n).code() })
            .collect(),
        asks: [Ask::Off, Ask::Optional, Ask::Required]
            .into_iter()
            .map(|a| (a.code().to_string(), lang.t(&format!("reg.ask_{}", a.code())).to_string()))
            .collect(),
        rows,
        state_filter,
        group_filter,
        states,
        group_choices,
        public_link: format!("{}/e/{eid}/register", ctx.state.net.public_url.as_deref().unwrap_or("")),
        banner: refused.as_ref().map(|(_, b)| b.clone()),
    };
    ctx.render_status(refused.map_or(StatusCode::OK, |(s, _)| s), &page)
}

/// GET /e/{event}/registrations?state=…&group=…: the organizer's settings and queue.
pub async fn queue(
    ctx: Ctx,
    path: web::Path<String>,
    q: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let eid = id(ctx.lang, &path)?;
    let state = query(&q, "state");
    let state = if State::parse(&state).is_some() { state } else { String::new() };
    let group = query(&q, "group");
    let group = if group.parse::<i32>().is_ok() { group } else { String::new() };
    queue_page(&ctx, eid, state, group, None, None).await
}

/// POST /e/{event}/registrations/settings: open or closed, the deadline (typed in the event's
/// zone; empty: none), each group's part and cap, the fields asked.
pub async fn save_settings(w: Write<EventOrganizer>) -> Result<HttpResponse, AppError> {
    let [eid] = w.who.ids;
    let version = w.version()?;
    let groups = w.db(move |c| evdb::groups(c, eid)).await?;
    let zone = groups[0].t.zone();
    let mut f = FormView::from_form(&w.fields);
    let deadline = match w.fields.get("deadline") {
        "" => None,
        typed => {
            match zone.typed_timestamp(typed).ok().and_then(|ts| chrono::DateTime::from_timestamp(ts, 0)) {
                Some(at) => Some(crate::domain::event_time::stored(at)),
                None => {
                    f.error("deadline", w.t("reg.err_deadline"));
                    None
                }
            }
        }
    };
    // Empty (or a form from before the field): the default retention.
    let retention = match w.fields.get("retention_days").trim() {
        "" => Some(dreg::DEFAULT_RETENTION_DAYS),
        typed => dreg::parse_retention(typed),
    };
    if retention.is_none() {
        f.error("retention_days", tr!(w.lang, "err.number_range", min = 1, max = dreg::MAX_RETENTION_DAYS));
    }
    let mut rules = BTreeMap::new();
    let mut bad_cap = false;
    for g in &groups {
        let cap = match w.fields.get(&format!("cap_{}", g.id())) {
            "" => None,
            v => {
                let n = v.parse::<u32>().ok().filter(|n| *n > 0);
                bad_cap |= n.is_none();
                n
            }
        };
        rules.insert(g.id(), GroupRule { takes: w.fields.checked(&format!("takes_{}", g.id())), cap });
    }
    let mut fields = dreg::Fields::default();
    for n in FIELD_NAMES {
        match Ask::parse(w.fields.get(&format!("ask_{n}"))) {
            Some(a) => fields.set(n, a),
            None => return Err(super::write::bad_form(&w)),
        }
    }
    if f.has_errors() || bad_cap {
        let key = if bad_cap { "reg.err_cap" } else { "form.has_errors" };
        let bad = Some((StatusCode::BAD_REQUEST, w.t(key).to_string()));
        return queue_page(&w, eid, String::new(), String::new(), Some(f), bad).await;
    }
    let retention_days = retention.unwrap_or(dreg::DEFAULT_RETENTION_DAYS);
    let new =
        Settings { version, open: w.fields.checked("open"), deadline, fields, groups: rules, retention_days };
    let actor = w.actor();
    match w.db_raw(move |c| rdb::set_settings(c, &actor, eid, version, &new)).await? {
        Ok(()) => Ok(w.redirect(&format!("/e/{eid}/registrations"))),
        Err(RegError::Db(e)) => Err(AppError::db(w.lang, e)),
        Err(e) => queue_page(&w, eid, String::new(), String::new(), Some(f), Some(refusal(w.lang, &e))).await,
    }
}

/// The path of a decision: `/e/{event}/registrations/{id}/accept|reject|change`.
pub struct DecisionPath {
    eid: i32,
    rid: i32,
    kind: &'static str,
}

impl PathIds for DecisionPath {
    fn parse(segments: &[String]) -> Option<Self> {
        let [eid, rid] = <[i32; 2]>::parse(segments)?;
        let kind = match segments.get(2)?.as_str() {
            "accept" => "accept",
            "reject" => "reject",
            "change" => "change",
            _ => return None,
        };
        Some(DecisionPath { eid, rid, kind })
    }
    fn key(&self) -> i32 {
        self.eid
    }
}

/// POST /e/{event}/registrations/{id}/{accept|reject|change}: the organizer's decision, read at
/// its version (stale refused). Rejecting needs a reason, asking for a change a message.
pub async fn decide(w: Write<EventOrganizer<DecisionPath>>) -> Result<HttpResponse, AppError> {
    let DecisionPath { eid, rid, kind } = w.who.ids;
    let version = w.version()?;
    let message = w.fields.get("message").to_string();
    if kind != "accept" {
        let problem = match text_error(w.lang, &message, MAX_REASON, Lines::Many) {
            Some(e) => Some(e),
            None if message.is_empty() => Some(w.t("reg.err_message").to_string()),
            None => None,
        };
        if let Some(e) = problem {
            return queue_page(
                &w,
                eid,
                String::new(),
                String::new(),
                None,
                Some((StatusCode::BAD_REQUEST, e)),
            )
            .await;
        }
    }
    let decision = match kind {
        "accept" => Decision::Accept,
        "reject" => Decision::Reject(message),
        _ => Decision::Change(message),
    };
    let actor = w.actor();
    match w.db_raw(move |c| rdb::decide(c, &actor, eid, rid, version, &decision)).await? {
        Ok(_) => Ok(w.redirect(&format!("/e/{eid}/registrations"))),
        Err(RegError::Db(DbError::NotFound)) => Err(w.not_found()),
        Err(RegError::Db(e)) => Err(AppError::db(w.lang, e)),
        Err(e) => queue_page(&w, eid, String::new(), String::new(), None, Some(refusal(w.lang, &e))).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::form::Form;

    fn form(pairs: &[(&str, &str)]) -> Form {
        Form::of(pairs)
    }

    fn asking(contact: Ask) -> Settings {
        let mut s = Settings { open: true, ..Settings::default() };
        s.fields.unit = Ask::Optional;
        s.fields.contact = contact;
        s
    }

    /// Decision D26 (网上报名): the pinyin is filled from the Chinese name when left empty;
    /// what the organizer does not ask is dropped even when a hand-made request sends it.
    #[test]
    fn the_form_fills_the_pinyin_and_keeps_only_what_is_asked() {
        let f = form(&[
            ("family_name_zh", "欧阳"),
            ("given_name_zh", "修"),
            ("rank", "1d"),
            ("unit", "庐陵"),
            ("sex", "m"),
            ("rating", "2100"),
            ("notes", "VIP"),
            ("email", "ouyang@example.cn"),
            ("group", "7"),
        ]);
        let (_, got) = read(Lang::Zh, &f, &asking(Ask::Off));
        let (input, contact, group) = got.expect("a registration");
        assert_eq!((input.family_name_latin.as_str(), input.given_name_latin.as_str()), ("Ouyang", "Xiu"));
        assert_eq!((input.unit.as_str(), input.sex, input.rating), ("庐陵", None, None));
        assert_eq!((input.notes.as_str(), contact, group), ("", Contact::default(), 7));

        // A pinyin typed is kept as typed.
        let f = form(&[
            ("family_name_zh", "曾"),
            ("given_name_zh", "乐"),
            ("family_name_latin", "Tsang"),
            ("given_name_latin", "Lok"),
            ("rank", "3k"),
            ("group", "7"),
        ]);
        let (input, _, _) = read(Lang::Zh, &f, &asking(Ask::Off)).1.unwrap();
        assert_eq!((input.family_name_latin.as_str(), input.given_name_latin.as_str()), ("Tsang", "Lok"));
    }

    /// Decision D26 (网上报名): a required contact left empty, a malformed phone, and no
    /// group are refused beside their fields.
    #[test]
    fn required_contact_and_group_are_checked() {
        let (f, got) = read(
            Lang::Zh,
            &form(&[("family_name_zh", "李"), ("given_name_zh", "雷"), ("rank", "1d")]),
            &asking(Ask::Required),
        );
        assert!(got.is_none());
        assert!(f.err("phone").is_some() && f.err("group").is_some());
        let bad = form(&[
            ("family_name_zh", "李"),
            ("given_name_zh", "雷"),
            ("rank", "1d"),
            ("phone", "12"),
            ("group", "1"),
        ]);
        let (f, got) = read(Lang::Zh, &bad, &asking(Ask::Optional));
        assert!(got.is_none());
        assert_eq!(f.err("phone"), Some(Lang::Zh.t("reg.err_phone")));
    }
}
