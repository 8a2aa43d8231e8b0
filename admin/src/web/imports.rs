//! Imports with a preview (CSV, OpenGotha XML) and the CSV export. Parsing is the import
//! module's and writing is `db::entrants`'; this file carries the bytes between the preview and
//! the confirmation and says, before anything is written, what the confirmation will do.
//!
//! - A CSV list **adds** entrants (or, ticked, replaces them). Each row that is probably someone
//!   already registered, or someone on an earlier line of the file
//!   (`domain::duplicates`), is flagged and added only if its box is ticked; the database
//!   checks again in the write's transaction, so nothing doubles without a confirmation.
//! - In an event of several groups (组别), a CSV list's rows go to the groups their 组别 column
//!   names, or (ticked "by band") the groups' bands propose; a row with no group is a bad line
//!   naming it. Rows of other groups are written in one transaction over the event, audited in
//!   each group ([`crate::db::group_imports`]); replacing concerns this group's rows only.
//! - An OpenGotha file is an event: it **creates a new event** (one group per category when the
//!   file has several) or **replaces this one** (its
//!   entrants, rounds, games and settings; after an automatic backup into `backups/`),
//!   never merges into it. Replacing an event that has rounds needs its own confirmation box,
//!   and a write to the event since the preview refuses the replacement (its change counter).
//!   An empty event is simply filled (nothing is lost, nothing merged).

use super::ctx::{id, Ctx};
use super::entrants::duplicate_text;
use super::error::AppError;
use super::form::{hex_decode, hex_encode, Form};
use super::i18n::Lang;
use super::views::pages::{ImportMode, ImportPage, ImportRowView, Preview};
use super::views::text::settings_text;
use super::views::text::{komi_conversion, quarters_text};
use super::write::{Organizer, Upload, Write};
use crate::db::entrants::{self as edb, EntrantRow, ImportData, ImportNote, ImportRow, ReplaceError};
use crate::db::events::{self, Group};
use crate::db::group_imports;
use crate::db::tournaments::{self as tdb, TournamentRow};
use crate::db::users::Role;
use crate::db::{backup, DbError};
use crate::domain::duplicates::Identity;
use crate::domain::entrant::{EntrantInput, EntrantStatus, Rank};
use crate::domain::groups::Candidate;
use crate::domain::settings::{System, TournamentSettings};
use crate::formats::entrants_csv::{self as csv_import, HeaderLang};
use crate::formats::opengotha::read::{self as opengotha, OgCategory, OgTournament};
use crate::formats::opengotha::settings::{event_settings, NotImported};
use crate::i18n::tr;
use crate::office::{self, imports::PlaceProblem, imports::Placeable, imports::SplitError};
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpResponse};

/// Which kind of file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Csv,
    OpenGotha,
}

impl Kind {
    fn slug(self) -> &'static str {
        match self {
            Kind::Csv => "csv",
            Kind::OpenGotha => "opengotha",
        }
    }
}

/// The event an import goes into, as it is now.
struct Target {
    t: TournamentRow,
    /// The groups of its event, in hall order (itself among them).
    groups: Vec<Group>,
    entrants: Vec<(EntrantRow, Identity)>,
    rounds: i64,
    published: u32,
    /// The change counter: the preview carries it; a replacement is refused if it moved.
    changes: i32,
}

impl Target {
    fn load(conn: &mut crate::db::Conn, tid: i32) -> Result<Target, DbError> {
        let t = tdb::get(conn, tid)?;
        let groups = events::siblings(conn, tid)?;
        let entrants = edb::identities(conn, tid)?;
        let rounds = tdb::count_rounds(conn, tid)?;
        let (published, _) = tdb::published_rounds(conn, tid)?;
        let (changes, _) = tdb::change_stamp(conn, tid)?;
        Ok(Target { t, groups, entrants, rounds, published, changes })
    }
    /// Nothing to lose: an import simply fills it.
    fn is_empty(&self) -> bool {
        self.entrants.is_empty() && self.rounds == 0
    }
    fn is_team(&self) -> bool {
        self.t.settings().system == System::TeamRelay
    }
    /// A group's name as pages show it (the Chinese one first).
    fn group_name(&self, lang: Lang, id: i32) -> String {
        self.groups.iter().find(|g| g.id() == id).map(|g| group_label(lang, g)).unwrap_or_default()
    }
}

/// A group's name in the reader's language, the other one when it has none.
fn group_label(lang: Lang, g: &Group) -> String {
    let f = &g.fields;
    let (first, second) = if lang.is_zh() {
        (&f.group_name_zh, &f.group_name_latin)
    } else {
        (&f.group_name_latin, &f.group_name_zh)
    };
    if first.trim().is_empty() {
        second.clone()
    } else {
        first.clone()
    }
}

/// One row of a CSV file as the preview and the confirmation see it.
struct CsvRow {
    line: usize,
    input: EntrantInput,
    status: EntrantStatus,
    /// The line of an earlier row of the file it probably repeats.
    duplicate_of: Option<usize>,
    /// The 组别 cell as written.
    cell: String,
    /// The group it goes to ([`place`]; 0 until placed).
    group: i32,
}

/// A parsed upload: the rows that can be imported, the bad lines with reasons, and for an
/// OpenGotha file the event itself.
struct Parsed {
    good: Vec<CsvRow>,
    bad: Vec<(usize, String)>,
    og: Option<OgTournament>,
    warnings: String,
}

fn parse(kind: Kind, lang: Lang, bytes: &[u8]) -> Result<Parsed, String> {
    match kind {
        Kind::Csv => {
            let preview = csv_import::parse_entrants(bytes).map_err(|e| lang.import_error(&e))?;
            let warnings =
                preview.warnings.iter().map(|w| lang.import_warning(w)).collect::<Vec<_>>().join(" ");
            let mut good = Vec::new();
            let mut bad = Vec::new();
            for r in preview.rows {
                let text = lang.import_row(&r);
                match r.input {
                    Some(input) if r.errors.is_empty() => good.push(CsvRow {
                        line: r.line,
                        input,
                        status: r.status,
                        duplicate_of: r.duplicate_of,
                        cell: r.group,
                        group: 0,
                    }),
                    _ => bad.push((r.line, text)),
                }
            }
            Ok(Parsed { good, bad, og: None, warnings })
        }
        Kind::OpenGotha => {
            // The reader validates every player; a file it accepts has no bad row.
            let og = opengotha::parse_opengotha(bytes).map_err(|e| lang.og_error(&e))?;
            let good = og
                .players
                .iter()
                .enumerate()
                .map(|(i, p)| CsvRow {
                    line: i + 1,
                    input: p.entrant.clone(),
                    status: EntrantStatus::Active,
                    duplicate_of: None,
                    cell: String::new(),
                    group: 0,
                })
                .collect();
            Ok(Parsed { good, bad: Vec::new(), og: Some(og), warnings: String::new() })
        }
    }
}

/// Each CSV row to its group ([`office::imports::place_rows`]): a row with no group to go to
/// becomes a problem line naming it and why. An OpenGotha file's players go to the group
/// imported into (its categories become groups only as a new event).
fn place(lang: Lang, p: &mut Parsed, target: &Target, by_band: bool) {
    let into = target.t.id;
    if p.og.is_some() {
        p.good.iter_mut().for_each(|r| r.group = into);
        return;
    }
    let cands: Vec<(&str, Candidate)> = p
        .good
        .iter()
        .map(|r| {
            let c = Candidate { id: 0, rank_value: r.input.rank.value(), birth_date: r.input.birth_date };
            (r.cell.as_str(), c)
        })
        .collect();
    let groups: Vec<Placeable> = target.groups.iter().map(Placeable::of).collect();
    let placed = office::imports::place_rows(&groups, into, by_band, &cands);
    let known =
        target.groups.iter().map(|g| group_label(lang, g)).collect::<Vec<_>>().join(lang.t("doc.list_sep"));
    let mut good = Vec::with_capacity(p.good.len());
    for (mut r, to) in std::mem::take(&mut p.good).into_iter().zip(placed) {
        let (line, name) = (r.line, r.input.display_name());
        let problem = match to {
            Ok(g) => {
                r.group = g;
                good.push(r);
                continue;
            }
            Err(PlaceProblem::UnknownGroup { name: group }) => {
                tr!(lang, "imp.group_unknown", line, name, group, known = known.clone())
            }
            Err(PlaceProblem::NotThisGroup { name: group }) => {
                tr!(lang, "imp.group_not_this", line, name, group)
            }
            Err(PlaceProblem::NoBand) => tr!(lang, "imp.group_no_band", line, name),
        };
        p.bad.push((line, problem));
    }
    p.bad.sort_by_key(|(line, _)| *line);
    p.good = good;
}

/// A line saying what the file held that the event does not take.
fn not_imported_text(lang: Lang, n: &NotImported) -> String {
    let rank = |r: &Rank| lang.rank(*r);
    match n {
        NotImported::Unreadable { attribute, value } => tr!(lang, "imp.ni_unreadable", attribute, value),
        NotImported::Text { attribute } => tr!(lang, "imp.ni_text", attribute),
        NotImported::Dates { begin, end } => {
            tr!(lang, "imp.ni_dates", begin = begin.to_string(), end = end.to_string())
        }
        NotImported::Director(d) => tr!(lang, "imp.ni_director", director = d),
        NotImported::BoardSize(n) => tr!(lang, "imp.ni_size", size = n),
        NotImported::Categories(n) => tr!(lang, "imp.ni_categories", count = n),
        NotImported::Komi(q) => tr!(lang, "imp.ni_komi", komi = quarters_text(*q)),
        NotImported::Fischer { basic_minutes, seconds } => {
            tr!(lang, "imp.ni_fischer", basic_minutes, seconds)
        }
        NotImported::ByoYomiPeriods { seconds } => tr!(lang, "imp.ni_byo_yomi", seconds),
        NotImported::TimeControl { basic_minutes } => tr!(lang, "imp.ni_time", basic_minutes),
        NotImported::McMahonBands { bar, floor } => {
            tr!(lang, "imp.ni_bands", bar = rank(bar), floor = rank(floor))
        }
        NotImported::ByeValue(h) => tr!(lang, "imp.ni_bye", halves = h),
        NotImported::AbsentScore(h) => {
            tr!(lang, "imp.ni_absent", points = rules::outcome::half_points_text(u32::from(*h)), halves = h)
        }
        NotImported::NotPlayedAsHalf => lang.t("imp.ni_not_played_half").to_string(),
        NotImported::HandicapBasis => lang.t("imp.ni_handicap_basis").to_string(),
        NotImported::HandicapIncrease => lang.t("imp.ni_handicap_increase").to_string(),
        NotImported::HandicapCeiling(c) => tr!(lang, "imp.ni_handicap_ceiling", ceiling = c),
        NotImported::HandicapThreshold(r) => tr!(lang, "imp.ni_handicap_threshold", rank = rank(r)),
        NotImported::Placement(c) => tr!(lang, "imp.ni_placement", criteria = c.join(", ")),
        NotImported::PairingWeights => lang.t("imp.ni_pairing").to_string(),
        NotImported::SmmsCorrections(n) => tr!(lang, "imp.ni_smms", count = n),
        NotImported::Preregistered(n) => tr!(lang, "imp.ni_pre", count = n),
    }
}

/// The settings an imported event gets, as (label, value) lines.
fn settings_lines(lang: Lang, s: &TournamentSettings) -> Vec<(String, String)> {
    let st = settings_text(lang, s);
    let name = match (s.name_zh.is_empty(), s.name_latin.is_empty()) {
        (false, false) => format!("{} / {}", s.name_zh, s.name_latin),
        (false, true) => s.name_zh.clone(),
        _ => s.name_latin.clone(),
    };
    let dates = if s.start_date == s.end_date {
        s.start_date.to_string()
    } else {
        format!("{} – {}", s.start_date, s.end_date)
    };
    let mut out = vec![
        (lang.t("t.name").to_string(), name),
        (lang.t("t.venue").to_string(), s.venue.clone()),
        (lang.t("t.dates").to_string(), dates),
        (lang.t("t.rounds").to_string(), s.rounds.to_string()),
        (lang.t("t.system").to_string(), st.system),
        (lang.t("t.komi_shown").to_string(), komi_conversion(lang, s.ruleset.komi_q)),
        (lang.t("t.time_control").to_string(), st.time_control),
        (lang.t("t.bye_value").to_string(), lang.t(&format!("bye_value.{}", s.bye_value.code())).to_string()),
        (lang.t("t.tiebreaks").to_string(), st.tiebreaks.clone()),
    ];
    if let Some(mm) = st.mcmahon {
        out.push((lang.t("system.mcmahon").to_string(), mm));
    }
    out.push((
        lang.t("t.handicap_basis").to_string(),
        st.handicap.unwrap_or_else(|| lang.t("imp.even_games").to_string()),
    ));
    out
}

/// What the confirmation form asks for, and the problems beside its fields.
#[derive(Default)]
struct Choice {
    mode_error: Option<String>,
    confirm_error: Option<String>,
}

fn row_view(lang: Lang, r: &CsvRow, existing: &[(EntrantRow, Identity)], target: &Target) -> ImportRowView {
    let me = Identity::of(&r.input);
    let mut flags: Vec<String> =
        existing.iter().filter_map(|(e, i)| me.matches(i).map(|m| duplicate_text(lang, e, m))).collect();
    if let Some(first) = r.duplicate_of {
        flags.push(tr!(lang, "imp.dup_in_file", line = first));
    }
    let e = &r.input;
    ImportRowView {
        line: r.line,
        name: e.display_name(),
        rank: lang.rank(e.rank),
        unit: e.unit.clone(),
        status: lang.t(&format!("e.{}", r.status.code())).to_string(),
        flags,
        group: target.group_name(lang, r.group),
    }
}

/// What an OpenGotha file can become: a new event, or (not for a team event) this one's
/// entrants and rounds, filled in if it is empty, else replaced (`replace_hint` says what goes).
fn og_modes(lang: Lang, target: &Target, replace_hint: &str) -> Vec<ImportMode> {
    let mut modes = vec![ImportMode {
        code: "new",
        label: lang.t("imp.mode_new").to_string(),
        hint: lang.t("imp.mode_new_hint").to_string(),
        checked: false,
    }];
    if !target.is_team() {
        let (label, hint) = if target.is_empty() {
            (lang.t("imp.mode_fill").to_string(), lang.t("imp.mode_fill_hint").to_string())
        } else {
            (lang.t("imp.mode_replace").to_string(), replace_hint.to_string())
        };
        modes.push(ImportMode { code: "replace", label, hint, checked: target.is_empty() });
    }
    modes
}

fn preview(
    ctx: &Ctx,
    kind: Kind,
    p: &Parsed,
    target: &Target,
    payload: &[u8],
    choice: Choice,
    by_band: bool,
) -> Preview {
    let lang = ctx.lang;
    let tid = target.t.id;
    // A CSV list replacing the entrants compares rows with the file only; adding, with the
    // event's entrants too.
    let existing: &[(EntrantRow, Identity)] = if kind == Kind::Csv { &target.entrants } else { &[] };
    let good: Vec<ImportRowView> = p.good.iter().map(|r| row_view(lang, r, existing, target)).collect();
    let flagged = good.iter().filter(|g| !g.flags.is_empty()).count();
    let mut summary =
        tr!(lang, "imp.summary", rows = p.good.len() + p.bad.len(), good = p.good.len(), bad = p.bad.len());
    if !p.warnings.is_empty() {
        summary = format!("{summary} {}", p.warnings);
    }
    let replace_hint = tr!(
        lang,
        "imp.replace_hint",
        entrants = target.entrants.len(),
        rounds = target.rounds,
        published = target.published
    );
    let (mut settings, mut not_imported, mut modes) = (Vec::new(), Vec::new(), Vec::new());
    let (mut per_group, mut groups_note) = (Vec::new(), String::new());
    if kind == Kind::Csv && target.groups.len() > 1 {
        per_group = target
            .groups
            .iter()
            .map(|g| {
                let count = p.good.iter().filter(|r| r.group == g.id()).count();
                tr!(lang, "imp.group_count", group = group_label(lang, g), count)
            })
            .collect();
        if by_band {
            groups_note = lang.t("imp.by_band_on").to_string();
        }
    }
    if let Some(og) = &p.og {
        let today = chrono::Local::now().date_naive();
        let (s, not) = event_settings(og, &TournamentSettings::defaults(today, crate::machine::zone()));
        settings = settings_lines(lang, &s);
        let cats = og.params.category_list();
        if !cats.is_empty() {
            groups_note = match office::imports::og_groups(og, &s) {
                Ok(_) => tr!(lang, "imp.og_groups", count = cats.len()),
                Err(SplitError::AcrossCategories { round, board }) => {
                    tr!(lang, "imp.og_across", round, board)
                }
            };
            let of = office::imports::og_categories(og, &cats);
            per_group = cats
                .iter()
                .enumerate()
                .map(|(c, cat)| {
                    let group = tr!(
                        lang,
                        "imp.og_group",
                        group = tr!(lang, "imp.og_group_name", number = c + 1),
                        ranks = ranks_text(lang, cat)
                    );
                    tr!(lang, "imp.group_count", group, count = of.iter().filter(|&&k| k == c).count())
                })
                .collect();
        }
        not_imported = not
            .iter()
            .filter(|n| cats.is_empty() || !matches!(n, NotImported::Categories(_)))
            .map(|n| not_imported_text(lang, n))
            .collect();
        let games = og.games.len();
        let played =
            og.games.iter().map(|g| g.round).chain(og.byes.iter().map(|b| b.round)).max().unwrap_or(0);
        summary = format!(
            "{} {}",
            tr!(
                lang,
                "imp.og_about",
                players = og.players.len(),
                games,
                played,
                absences = og.absences().len()
            ),
            summary
        );
        modes = og_modes(lang, target, &replace_hint);
    }
    Preview {
        kind: kind.slug(),
        summary,
        bad: p.bad.clone(),
        good,
        flagged,
        payload: hex_encode(payload),
        confirm_action: format!("/t/{tid}/import/{}/confirm", kind.slug()),
        changes: target.changes,
        settings,
        not_imported,
        modes,
        replace_hint,
        has_rounds: target.rounds > 0,
        confirm_replace_label: tr!(
            lang,
            "imp.confirm_replace",
            rounds = target.rounds,
            published = target.published
        ),
        mode_error: choice.mode_error,
        confirm_error: choice.confirm_error,
        per_group,
        groups_note,
        by_band,
        multi_group: target.groups.len() > 1,
    }
}

/// A category's ranks: "5段及以上", "4段至1级", "2级及以下".
fn ranks_text(lang: Lang, c: &OgCategory) -> String {
    match (c.highest, c.lowest) {
        (None, Some(low)) => tr!(lang, "imp.ranks_from", low = lang.rank(low)),
        (Some(high), None) => tr!(lang, "imp.ranks_to", high = lang.rank(high)),
        (Some(high), Some(low)) => {
            tr!(lang, "imp.ranks_between", high = lang.rank(high), low = lang.rank(low))
        }
        (None, None) => String::new(),
    }
}

async fn page_with(
    ctx: &Ctx,
    tid: i32,
    preview: Option<Preview>,
    banner: Option<String>,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let (t, groups) = ctx.db(move |c| Ok((tdb::get(c, tid)?, events::siblings(c, tid)?.len()))).await?;
    ctx.render_status(
        status,
        &ImportPage {
            c: ctx.chrome_t(&t, true, ctx.t("imp.title")),
            tid,
            preview,
            banner,
            multi_group: groups > 1,
        },
    )
}

pub async fn page(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    ctx.require_staff(tid, Role::Organizer).await?;
    page_with(&ctx, tid, None, None, StatusCode::OK).await
}

/// A file read for an import into tournament `tid`: its kind, what it holds, and its bytes
/// (carried from the preview to the confirmation).
#[derive(Clone, Copy)]
struct File<'a> {
    tid: i32,
    kind: Kind,
    p: &'a Parsed,
    bytes: &'a [u8],
    /// CSV rows without a group go by the groups' bands.
    by_band: bool,
}

/// POST /t/{id}/import/csv and /import/opengotha: the file read and shown, nothing written.
async fn do_preview(w: &Upload<Organizer>, kind: Kind) -> Result<HttpResponse, AppError> {
    let [tid] = w.who.ids;
    let Some(file) = w.fields.file("file").filter(|f| !f.data.is_empty()) else {
        let banner = Some(w.t("imp.err_no_file").to_string());
        return page_with(w, tid, None, banner, StatusCode::BAD_REQUEST).await;
    };
    let by_band = w.fields.checked("by_band");
    match parse(kind, w.lang, &file.data) {
        Ok(mut p) => {
            let target = w.db(move |c| Target::load(c, tid)).await?;
            place(w.lang, &mut p, &target, by_band);
            let pv = preview(w, kind, &p, &target, &file.data, Choice::default(), by_band);
            page_with(w, tid, Some(pv), None, StatusCode::OK).await
        }
        Err(e) => {
            let banner = Some(tr!(w.lang, "imp.err_unreadable", error = e));
            page_with(w, tid, None, banner, StatusCode::BAD_REQUEST).await
        }
    }
}

/// The preview again, with a banner and the problems beside the fields; nothing was written.
async fn refuse(
    ctx: &Ctx,
    file: File<'_>,
    banner: String,
    choice: Choice,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let tid = file.tid;
    let target = ctx.db(move |c| Target::load(c, tid)).await?;
    let pv = preview(ctx, file.kind, file.p, &target, file.bytes, choice, file.by_band);
    page_with(ctx, tid, Some(pv), Some(banner), status).await
}

/// A refusal of the chosen mode or of its confirmation box (422), the preview shown again.
async fn refuse_choice(ctx: &Ctx, file: File<'_>, choice: Choice) -> Result<HttpResponse, AppError> {
    let banner = ctx.t("form.has_errors").to_string();
    refuse(ctx, file, banner, choice, StatusCode::UNPROCESSABLE_ENTITY).await
}

/// POST …/confirm: the file carried from the preview, written as the preview said.
async fn do_confirm(w: &Write<Organizer>, kind: Kind) -> Result<HttpResponse, AppError> {
    let [tid] = w.who.ids;
    let Some(bytes) = hex_decode(w.fields.get("payload")).filter(|b| !b.is_empty()) else {
        let banner = Some(w.t("imp.err_no_file").to_string());
        return page_with(w, tid, None, banner, StatusCode::BAD_REQUEST).await;
    };
    let mut p = match parse(kind, w.lang, &bytes) {
        Ok(p) => p,
        Err(e) => {
            let banner = Some(tr!(w.lang, "imp.err_unreadable", error = e));
            return page_with(w, tid, None, banner, StatusCode::BAD_REQUEST).await;
        }
    };
    let by_band = w.fields.checked("by_band");
    let target = w.db(move |c| Target::load(c, tid)).await?;
    place(w.lang, &mut p, &target, by_band);
    let file = File { tid, kind, p: &p, bytes: &bytes, by_band };
    if !p.bad.is_empty() && !w.fields.checked("drop_bad") {
        let banner = tr!(w.lang, "imp.err_bad_rows", count = p.bad.len());
        return refuse(w, file, banner, Choice::default(), StatusCode::UNPROCESSABLE_ENTITY).await;
    }
    if p.good.is_empty() {
        let banner = Some(w.t("imp.err_nothing").to_string());
        return page_with(w, tid, None, banner, StatusCode::UNPROCESSABLE_ENTITY).await;
    }
    // Replacing an event that holds something needs the change counter the preview showed
    // (a form without it is treated as stale); filling an empty one loses nothing.
    let expected: Option<i32> = match w.fields.get("changes").parse() {
        Ok(n) => Some(n),
        Err(_) if target.is_empty() => None,
        Err(_) => Some(-1),
    };
    match kind {
        Kind::Csv => confirm_csv(w, file, &target, expected).await,
        Kind::OpenGotha => confirm_og(w, file, &target, expected).await,
    }
}

/// The rows of a CSV file as the import writes them: a flagged row goes in only when its box
/// (`add_line` = its line) is ticked; the database checks each row again.
fn csv_rows(p: &Parsed, form: &Form) -> Vec<(i32, ImportRow)> {
    let ticked: Vec<&str> = form.all("add_line");
    p.good
        .iter()
        .map(|r| {
            let row = ImportRow {
                input: r.input.clone(),
                status: r.status,
                allow_duplicate: ticked.contains(&r.line.to_string().as_str()),
            };
            (r.group, row)
        })
        .collect()
}

fn note(kind: Kind, p: &Parsed, not_imported: &[NotImported], backup: Option<String>) -> ImportNote {
    let mut source = format!("{} import", kind.slug());
    if !p.bad.is_empty() {
        source = format!("{source}, {} bad rows dropped", p.bad.len());
    }
    ImportNote { source, backup, not_imported: not_imported.iter().map(|n| format!("{n:?}")).collect() }
}

/// The entrant list after an import, its notice's counts in the query: added, skipped, and of
/// those added how many the registry knew (`linked`) and how many are new persons.
fn done_redirect(ctx: &Ctx, tid: i32, done: &edb::Imported) -> HttpResponse {
    let created = done.persons.iter().filter(|a| **a == crate::db::persons::Attached::Created).count();
    let linked = done.persons.len() - created;
    ctx.redirect(&format!(
        "/t/{tid}/entrants?imported={}&skipped={}&linked={linked}&created={created}",
        done.added(),
        done.skipped()
    ))
}

async fn confirm_csv(
    w: &Write<Organizer>,
    file: File<'_>,
    target: &Target,
    expected: Option<i32>,
) -> Result<HttpResponse, AppError> {
    let (tid, p) = (file.tid, file.p);
    let rows = csv_rows(p, &w.fields);
    let actor = w.actor();
    let elsewhere = rows.iter().any(|(g, _)| *g != tid);
    if !w.fields.checked("replace") {
        let n = note(Kind::Csv, p, &[], None);
        // Rows of other groups: one write over the event, each group audited in its trail, by
        // an organizer of every group written to.
        let done = if elsewhere {
            let mut others: Vec<i32> = rows.iter().map(|(g, _)| *g).filter(|&g| g != tid).collect();
            others.sort_unstable();
            others.dedup();
            for g in others {
                w.require_staff(g, Role::Organizer).await?;
            }
            w.db(move |c| group_imports::add_to_groups(c, &actor, tid, rows, &n)).await?
        } else {
            let rows = rows.into_iter().map(|(_, r)| r).collect();
            w.db(move |c| edb::add_entrants(c, &actor, tid, rows, &n)).await?
        };
        return Ok(done_redirect(w, tid, &done));
    }
    if elsewhere {
        let choice =
            Choice { mode_error: Some(w.t("imp.err_group_replace").to_string()), ..Default::default() };
        return refuse_choice(w, file, choice).await;
    }
    let rows = rows.into_iter().map(|(_, r)| r).collect();
    if target.is_team() {
        let choice = Choice { mode_error: Some(w.t("imp.err_team").to_string()), ..Default::default() };
        return refuse_choice(w, file, choice).await;
    }
    if target.rounds > 0 && !w.fields.checked("confirm_replace") {
        let choice =
            Choice { confirm_error: Some(w.t("imp.err_confirm_replace").to_string()), ..Default::default() };
        return refuse_choice(w, file, choice).await;
    }
    let data = ImportData { rows, ..Default::default() };
    let change = Replacement { expected, settings: None, not_imported: Vec::new(), data };
    replace(w, file, target, change).await
}

/// A backup of the database before an import replaces a tournament with entrants or rounds: its
/// file's path for the audit note; none for an empty tournament.
async fn backup_before(ctx: &Ctx, target: &Target) -> Result<Option<String>, AppError> {
    if target.is_empty() {
        return Ok(None);
    }
    let (tid, path) = (target.t.id, ctx.state.db_path.clone());
    let file = ctx
        .db(move |_| {
            backup::auto_backup(&path, &format!("before-import-t{tid}")).map(|f| f.display().to_string())
        })
        .await?;
    Ok(Some(file))
}

/// What replaces a tournament: the change counter the preview showed (`None`: the event was
/// empty), the file's settings (OpenGotha) with what they cannot hold, and the entrants,
/// rounds and games.
struct Replacement {
    expected: Option<i32>,
    settings: Option<TournamentSettings>,
    not_imported: Vec<NotImported>,
    data: ImportData,
}

async fn replace(
    w: &Write<Organizer>,
    file: File<'_>,
    target: &Target,
    change: Replacement,
) -> Result<HttpResponse, AppError> {
    let tid = target.t.id;
    let Replacement { expected, settings, not_imported, data } = change;
    let stale = || refuse(w, file, w.t("imp.err_stale").to_string(), Choice::default(), StatusCode::CONFLICT);
    // Checked before the backup too, so a refusal leaves backups/ alone; the transaction
    // checks again.
    if expected.is_some_and(|e| e != target.changes) {
        return stale().await;
    }
    let backup = backup_before(w, target).await?;
    let n = note(file.kind, file.p, &not_imported, backup);
    let actor = w.actor();
    let r =
        w.db_raw(move |c| edb::replace_event(c, &actor, tid, expected, settings.as_ref(), &data, &n)).await?;
    match r {
        Ok(done) => Ok(done_redirect(w, tid, &done)),
        Err(ReplaceError::Stale { .. }) => stale().await,
        Err(ReplaceError::TeamEvent) => {
            let choice = Choice { mode_error: Some(w.t("imp.err_team").to_string()), ..Default::default() };
            refuse_choice(w, file, choice).await
        }
        Err(ReplaceError::Db(e)) => Err(AppError::db(w.lang, e)),
    }
}

/// An OpenGotha file as a new event, with its settings (what they cannot hold in the audit
/// note); only an organizer creates events.
async fn create_from_og(
    w: &Write<Organizer>,
    file: File<'_>,
    og: &OgTournament,
    data: ImportData,
) -> Result<HttpResponse, AppError> {
    w.require_organizer()?;
    let p = file.p;
    let today = chrono::Local::now().date_naive();
    let (settings, not) = event_settings(og, &TournamentSettings::defaults(today, crate::machine::zone()));
    let n = note(Kind::OpenGotha, p, &not, None);
    let actor = w.actor();
    // Several categories: one group each (a file whose games cross them cannot be split).
    let groups = match office::imports::og_groups(og, &settings) {
        Ok(groups) => groups,
        Err(SplitError::AcrossCategories { round, board }) => {
            let choice =
                Choice { mode_error: Some(tr!(w.lang, "imp.og_across", round, board)), ..Default::default() };
            return refuse_choice(w, file, choice).await;
        }
    };
    if !groups.is_empty() {
        let (new_tid, done) =
            w.db(move |c| group_imports::create_event_of_groups(c, &actor, &groups, &n)).await?;
        let (ids, persons) = done.into_iter().map(|d| (d.ids, d.persons)).unzip::<_, _, Vec<_>, Vec<_>>();
        let all = edb::Imported { ids: ids.concat(), persons: persons.concat() };
        return Ok(done_redirect(w, new_tid, &all));
    }
    let (new_tid, done) = w.db(move |c| edb::create_event(c, &actor, &settings, &data, &n)).await?;
    Ok(done_redirect(w, new_tid, &done))
}

async fn confirm_og(
    w: &Write<Organizer>,
    file: File<'_>,
    target: &Target,
    expected: Option<i32>,
) -> Result<HttpResponse, AppError> {
    let Some(og) = &file.p.og else { return Err(AppError::internal(w.lang, "no OpenGotha event")) };
    let data = crate::office::imports::from_opengotha(og);
    let mode = match w.fields.get("mode") {
        "" if target.is_empty() && !target.is_team() => "replace",
        m => m,
    };
    let error = |key: &str| Some(w.t(key).to_string());
    match mode {
        "new" => create_from_og(w, file, og, data).await,
        "replace" if target.is_team() => {
            refuse_choice(w, file, Choice { mode_error: error("imp.err_team"), ..Default::default() }).await
        }
        "replace" if target.rounds > 0 && !w.fields.checked("confirm_replace") => {
            let choice = Choice { confirm_error: error("imp.err_confirm_replace"), ..Default::default() };
            refuse_choice(w, file, choice).await
        }
        "replace" => {
            let (settings, not_imported) = event_settings(og, &target.t.settings());
            let change = Replacement { expected, settings: Some(settings), not_imported, data };
            replace(w, file, target, change).await
        }
        _ => refuse_choice(w, file, Choice { mode_error: error("imp.err_mode"), ..Default::default() }).await,
    }
}

/// POST /t/{id}/import/csv: a CSV list's preview.
pub async fn csv_preview(w: Upload<Organizer>) -> Result<HttpResponse, AppError> {
    do_preview(&w, Kind::Csv).await
}

/// POST /t/{id}/import/csv/confirm.
pub async fn csv_confirm(w: Write<Organizer>) -> Result<HttpResponse, AppError> {
    do_confirm(&w, Kind::Csv).await
}

/// POST /t/{id}/import/opengotha: an OpenGotha file's preview.
pub async fn og_preview(w: Upload<Organizer>) -> Result<HttpResponse, AppError> {
    do_preview(&w, Kind::OpenGotha).await
}

/// POST /t/{id}/import/opengotha/confirm.
pub async fn og_confirm(w: Write<Organizer>) -> Result<HttpResponse, AppError> {
    do_confirm(&w, Kind::OpenGotha).await
}

/// The entrant list as CSV, every entrant with their status, in the reader's language
/// (`?lang=en` for the English header row); it imports back to the same field.
pub async fn export_csv(
    ctx: Ctx,
    path: web::Path<String>,
    q: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    ctx.require_staff(tid, Role::Arbiter).await?;
    let (rows, groups) =
        ctx.db(move |c| Ok((edb::list(c, tid, "", edb::Sort::Rank)?, events::siblings(c, tid)?))).await?;
    let roster: Vec<(EntrantInput, EntrantStatus)> =
        rows.iter().filter_map(|r| r.input().map(|i| (i, r.status()))).collect();
    // Without `lang`, in the reader's language, as every other document (both read back).
    let lang = match q.iter().find(|(k, _)| k == "lang").map(|(_, v)| v.as_str()) {
        Some("en") => HeaderLang::En,
        Some("zh") => HeaderLang::Zh,
        _ if ctx.lang.is_zh() => HeaderLang::Zh,
        _ => HeaderLang::En,
    };
    // An event of several groups: a 组别/group column names this group (in the header's
    // language), so the file imports back into the event with each row in its group.
    let words = if lang == HeaderLang::Zh { Lang::Zh } else { Lang::En };
    let group =
        groups.iter().find(|g| g.id() == tid).filter(|_| groups.len() > 1).map(|g| group_label(words, g));
    let bytes = csv_import::write_roster_in_group(&roster, lang, group.as_deref());
    Ok(HttpResponse::Ok()
        .content_type("text/csv; charset=utf-8")
        .insert_header((
            header::CONTENT_DISPOSITION,
            format!("attachment; filename=\"tengen-t{tid}-entrants.csv\""),
        ))
        .body(bytes))
}
