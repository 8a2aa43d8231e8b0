//! The event's pages (赛事): the organizers' overview of its groups with their forms, the
//! public landing page, and the band proposals to confirm. Built from the store's rows by
//! `web::events`; pure.

use super::pages::{Chrome, FormView, Options};
use super::text::system_name;
use crate::db::event_pages::GroupLine;
use crate::db::events::GroupFields;
use crate::domain::entrant::Rank;
use crate::domain::event_time::date_text;
use crate::domain::groups::Band;
use crate::i18n::{tr, Lang};
use askama::Template;

pub use crate::office::events::group_name;

/// A band's rank end as typed ("5d", "1k"); '' for none.
fn rank_end(v: Option<i32>) -> String {
    v.and_then(Rank::from_value).map(|r| r.notation()).unwrap_or_default()
}

/// The band of a group in words ("5d–", "born on or after 2012-01-01"), '' for the catch-all.
pub fn band_text(lang: Lang, b: &Band) -> String {
    let mut parts = Vec::new();
    let end = |v: Option<i32>| v.and_then(Rank::from_value).map(|r| lang.rank(r));
    match (end(b.rank_low), end(b.rank_high)) {
        (Some(low), Some(high)) => parts.push(tr!(lang, "group.band_ranks", low, high)),
        (Some(low), None) => parts.push(tr!(lang, "group.band_from", low)),
        (None, Some(high)) => parts.push(tr!(lang, "group.band_upto", high)),
        (None, None) => {}
    }
    if let Some(d) = b.born_on_or_after {
        parts.push(tr!(lang, "group.band_born_after", date = date_text(d)));
    }
    if let Some(d) = b.born_before {
        parts.push(tr!(lang, "group.band_born_before", date = date_text(d)));
    }
    parts.join(lang.t("group.band_and"))
}

/// The edit form of a group as stored.
pub fn group_form(g: &GroupFields) -> FormView {
    let mut f = FormView::default();
    f.set("group_name_zh", &g.group_name_zh);
    f.set("group_name_latin", &g.group_name_latin);
    f.set("group_order", g.group_order.to_string());
    f.set("first_table", g.first_table.map(|n| n.to_string()).unwrap_or_default());
    band_form(&mut f, &g.band);
    f
}

fn band_form(f: &mut FormView, b: &Band) {
    f.set("rank_low", rank_end(b.rank_low));
    f.set("rank_high", rank_end(b.rank_high));
    f.set("born_on_or_after", b.born_on_or_after.map(date_text).unwrap_or_default());
    f.set("born_before", b.born_before.map(date_text).unwrap_or_default());
}

/// One group on the organizers' overview.
pub struct GroupRow {
    pub id: i32,
    pub name: String,
    pub system: String,
    pub rounds: i32,
    pub entrants: i64,
    /// Rounds paired (drafts and published) and published, as "1–3" lists.
    pub paired: String,
    pub published: String,
    pub band: String,
    pub order: i32,
    pub first_table: String,
    pub version: i32,
    /// The edit form: as stored, or as typed when refused.
    pub f: FormView,
}

fn numbers(v: &[i32]) -> String {
    v.iter().map(i32::to_string).collect::<Vec<_>>().join(", ")
}

/// One line of an action on the whole event: a group's pairing or publication, an entrant's
/// move.
pub struct ReportLine {
    /// "{who}：{outcome}" in the reader's language.
    pub line: String,
    pub ok: bool,
    /// The group's round page, where its own refusal can be dealt with ('' for none).
    pub link: String,
}

impl ReportLine {
    pub fn new(lang: Lang, who: &str, ok: bool, outcome: String, link: String) -> ReportLine {
        ReportLine { line: tr!(lang, "group.report_line", who, outcome), ok, link }
    }
}

/// The organizers' overview of an event of several groups.
#[derive(Template)]
#[template(path = "event.html")]
pub struct EventPage {
    pub c: Chrome,
    pub eid: i32,
    pub name: String,
    pub other_name: String,
    pub dates: String,
    pub venue: String,
    pub groups: Vec<GroupRow>,
    /// The round "pair for every group" pairs: the next round of the group furthest behind.
    pub pair_round: i32,
    /// The round "publish for every group" publishes, with each group's draft version.
    pub publish: Option<(i32, Vec<(i32, i32)>)>,
    pub systems: Options,
    /// The add-a-group form (as typed when refused).
    pub f: FormView,
    /// The group whose edit was refused (its form shows the messages).
    pub banner: Option<String>,
    pub report: Vec<ReportLine>,
    pub proposals: usize,
    /// The reader is an organizer of the event (an arbiter sees the groups, not the forms).
    pub organizer: bool,
}

impl EventPage {
    #[allow(clippy::too_many_arguments)]
    pub fn build(
        c: Chrome,
        lang: Lang,
        eid: i32,
        lines: &[GroupLine],
        f: FormView,
        edited: Option<(i32, FormView)>,
        banner: Option<String>,
        report: Vec<ReportLine>,
        proposals: usize,
        systems: Options,
    ) -> EventPage {
        let first = &lines[0].group.t;
        let zh = lang.is_zh();
        let (name, other) = (first.name(zh).to_string(), first.name(!zh).to_string());
        let mut edited = edited;
        let groups = lines
            .iter()
            .map(|l| {
                let g = &l.group;
                let f = match edited.take_if(|(id, _)| *id == g.id()) {
                    Some((_, f)) => f,
                    None => group_form(&g.fields),
                };
                GroupRow {
                    id: g.id(),
                    name: group_name(lang, &g.fields),
                    system: system_name(lang, &g.t.system),
                    rounds: g.t.rounds,
                    entrants: l.entrants,
                    paired: numbers(&l.rounds),
                    published: numbers(&l.published),
                    band: band_text(lang, &g.fields.band),
                    order: g.fields.group_order,
                    first_table: g.fields.first_table.map(|n| n.to_string()).unwrap_or_default(),
                    version: g.t.version,
                    f,
                }
            })
            .collect();
        let pair_round = lines.iter().map(|l| l.rounds.len() as i32 + 1).min().unwrap_or(1);
        // The lowest round that is a draft in some group.
        let draft =
            lines.iter().flat_map(|l| l.rounds.iter().filter(|n| !l.published.contains(n)).copied()).min();
        let publish = draft.map(|n| {
            let versions = lines
                .iter()
                .filter_map(|l| l.versions.iter().find(|(r, _)| *r == n).map(|(_, v)| (l.group.id(), *v)))
                .collect();
            (n, versions)
        });
        EventPage {
            c,
            eid,
            other_name: if other == name { String::new() } else { other },
            name,
            dates: dates(&first.start_date, &first.end_date),
            venue: first.venue.clone(),
            groups,
            pair_round,
            publish,
            systems,
            f,
            banner,
            report,
            proposals,
            organizer: false,
        }
    }
}

/// "2026-12-05 – 2026-12-07", or the one day.
pub fn dates(start: &str, end: &str) -> String {
    if start == end {
        start.to_string()
    } else {
        format!("{start} – {end}")
    }
}

/// One group on the public landing page: its name and its public pages.
pub struct PublicGroup {
    pub id: i32,
    pub name: String,
    pub system: String,
    /// The last published round (its pairings), if any.
    pub last_round: Option<i32>,
    pub winners: bool,
}

/// The public landing page of an event of several groups.
#[derive(Template)]
#[template(path = "event_public.html")]
pub struct EventPublicPage {
    pub c: Chrome,
    pub name: String,
    pub other_name: String,
    pub dates: String,
    pub venue: String,
    pub groups: Vec<PublicGroup>,
}

/// One entrant a band proposes for another group.
pub struct ProposalRow {
    pub entrant: i32,
    pub version: i32,
    pub from: i32,
    pub to: i32,
    pub name: String,
    pub rank: String,
    pub birth_date: String,
    pub from_name: String,
    pub to_name: String,
}

/// The band proposals, one list with a tick per entrant.
#[derive(Template)]
#[template(path = "event_bands.html")]
pub struct BandsPage {
    pub c: Chrome,
    pub eid: i32,
    pub rows: Vec<ProposalRow>,
    pub banner: Option<String>,
    pub report: Vec<ReportLine>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(band: Band) -> GroupFields {
        GroupFields { group_name_zh: "业余高段组".into(), band, ..GroupFields::default() }
    }

    /// The groups rule (组别): a band reads back into its own form: 5段 and above is "5d" and
    /// nothing above.
    #[test]
    fn a_band_is_shown_as_it_is_typed() {
        let g = group(Band { rank_low: Some(Rank::parse("5d").unwrap().value()), ..Band::default() });
        let f = group_form(&g);
        assert_eq!(f.v("rank_low"), "5d");
        assert_eq!(f.v("rank_high"), "");
        assert_eq!(f.v("first_table"), "");
        assert!(!band_text(Lang::Zh, &g.band).is_empty());
        assert_eq!(band_text(Lang::Zh, &Band::default()), "");
        assert_eq!(group_name(Lang::En, &g), "业余高段组", "no Latin name: the Chinese one");
    }
}
