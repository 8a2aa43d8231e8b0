//! Printed team sheets of a relay match: the line-up form of each section
//! (出场名单, seed 003 Art. 10.1), one A4 page per section with both teams, and the match record
//! sheet (对局记录表): who played each section, substitutions and timeouts with their times, the
//! penalty log with each ruling's stones and the running totals, the referee's clock readings
//! (after which move, when, each side's basic time and byo-yomi periods left; Art. 22.4), the
//! time each side starts the 节棋 play-off with (Art. 12), the result and the match points,
//! and signature lines. Withdrawn events are not on it (the data is the match replayed from
//! the events that stand, as on the match page).
//!
//! The data comes from [`crate::domain::team::sheets`] (`lineup_forms`, `record_sheet`); a form
//! whose line-up is not in yet prints blank lines to fill in by hand. Times are Unix seconds,
//! printed as wall-clock times in the event's zone the caller gives (this module reads no clock).

use crate::i18n::tr;
use rules::board::Color;

use super::pdf::{Align, Column, Doc, Frame, Page, Style, Table};
use super::{Lang, PdfOptions, PrintError, SheetTournament};
use crate::domain::event_time::EventZone;
use crate::domain::team::lineup::Section;
use crate::domain::team::sheets::{LineupForm, MatchRecordSheet, SheetClockRow, SheetCount, SheetPenaltyRow};
use rules::outcome::{half_points_text, quarters_text};

/// What the sheets print besides the match data.
#[derive(Debug, Clone, Default)]
pub struct TeamSheetHeader {
    /// Name, venue, round, date, komi, time control, rules.
    pub tournament: SheetTournament,
    /// Table (match) number in the round.
    pub table: u32,
    /// The event's time zone: the venue's wall clock the times are printed in.
    pub zone: EventZone,
    /// How the match ended besides the result: the ruling with its article, reason and who
    /// ruled (seed 003 Arts. 15.2, 17.5, 17.6, 23), or who confirmed a resignation (Art. 14),
    /// in the sheet's language.
    pub ending: Option<String>,
}

const W: f32 = 210.0;
const H: f32 = 297.0;
const M: f32 = 14.0;

fn time(ts: Option<i64>, zone: EventZone) -> String {
    ts.map(|ts| zone.clock_of(ts)).unwrap_or_default()
}

fn side(lang: Lang, c: Color) -> &'static str {
    match c {
        Color::Black => lang.t("r.black"),
        Color::White => lang.t("r.white"),
    }
}

fn section(lang: Lang, s: Section) -> &'static str {
    lang.section(s)
}

/// The line-up forms (one page per section) followed by the match record sheet.
pub fn team_sheets(
    h: &TeamSheetHeader,
    forms: &[LineupForm],
    sheet: &MatchRecordSheet,
    opts: &PdfOptions<'_>,
) -> Result<Vec<u8>, PrintError> {
    let font = opts.font()?;
    let lang = opts.lang;
    let t = &h.tournament;
    let match_title = tr!(
        lang,
        "doc.match_title",
        round = t.round_label(lang),
        table = h.table,
        black = sheet.black_team,
        white = sheet.white_team
    );
    let title = format!("{} {}", t.name(lang), match_title);
    let mut doc = Doc::new(font, &title);

    let mut sections: Vec<Section> = Vec::new();
    for f in forms {
        if !sections.contains(&f.section) {
            sections.push(f.section);
        }
    }
    for s in sections {
        let page = doc.add_page(W, H);
        let mut y = heading(page, t, &match_title, lang.t("doc.line_up_forms"));
        for f in forms.iter().filter(|f| f.section == s) {
            y = lineup_box(page, f, lang, h.zone, y);
        }
        let note = match s {
            Section::Playoff => lang.t("doc.due_from_each_leader_when"),
            _ => lang.t("doc.due_from_each_leader_5"),
        };
        page.text_fit(M, y + 4.0, W - 2.0 * M, Style::grey(8.0), Align::Left, note);
    }
    record_pages(&mut doc, h, sheet, lang, &match_title);
    doc.footers(lang, &title, 1.0);
    doc.finish()
}

/// The page heading; returns the y below it.
fn heading(page: &mut Page<'_>, t: &SheetTournament, match_title: &str, what: &str) -> f32 {
    let cx = W / 2.0;
    let mut y = M + 5.0;
    page.text_fit(cx, y, W - 2.0 * M, Style::bold(14.0), Align::Center, t.name(Lang::Zh).trim_end());
    if !t.name_latin.trim().is_empty() && t.name_latin.trim() != t.name(Lang::Zh).trim() {
        y += 5.5;
        page.text_fit(cx, y, W - 2.0 * M, Style::grey(9.0), Align::Center, &t.name_latin);
    }
    y += 7.5;
    page.text_fit(cx, y, W - 2.0 * M, Style::bold(12.0), Align::Center, what);
    y += 6.0;
    page.text_fit(cx, y, W - 2.0 * M, Style::new(10.0), Align::Center, match_title);
    let details = [t.details(), t.komi_text.trim().to_string(), t.time_control_text.trim().to_string()]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("  ·  ");
    if !details.is_empty() {
        y += 5.0;
        page.text_fit(cx, y, W - 2.0 * M, Style::grey(8.5), Align::Center, &details);
    }
    y + 6.0
}

/// One team's line-up box of a section; returns the y below it.
fn lineup_box(page: &mut Page<'_>, f: &LineupForm, lang: Lang, zone: EventZone, y: f32) -> f32 {
    let w = W - 2.0 * M;
    let h = 62.0;
    page.rect(M, y, w, h, 0.8);
    page.fill(M, y, w, 9.0, 0.88);
    let title = tr!(
        lang,
        "doc.lineup_title",
        section = lang.section(f.section),
        team = f.team,
        side = side(lang, f.side)
    );
    page.text_fit(M + 3.0, y + 6.2, w - 6.0, Style::bold(11.0), Align::Left, &title);
    let mut yy = y + 16.0;
    let deadline = tr!(lang, "doc.due_by", time = time(f.deadline, zone));
    let submitted = match f.late_secs {
        0 => tr!(lang, "doc.handed_in", time = time(f.submitted_at, zone)),
        late => tr!(lang, "doc.handed_in_late", time = time(f.submitted_at, zone), seconds = late),
    };
    page.text(M + 3.0, yy, Style::new(9.0), Align::Left, &deadline);
    page.text(M + w / 2.0, yy, Style::new(9.0), Align::Left, &submitted);
    yy += 5.0;
    // Columns: order, position number, name, presses the clock.
    let cols = [
        (M + 3.0, lang.t("doc.order")),
        (M + 28.0, lang.t("doc.position_no")),
        (M + 55.0, lang.t("e.section_name")),
        (M + w - 35.0, lang.t("doc.presses_clock")),
    ];
    for (x, label) in cols {
        page.text(x, yy + 4.0, Style::bold(9.0), Align::Left, label);
    }
    yy += 6.0;
    for r in &f.rows {
        page.line(M + 3.0, yy + 8.0, M + w - 3.0, yy + 8.0, 0.3);
        page.text(M + 8.0, yy + 6.5, Style::new(11.0), Align::Left, &r.order.to_string());
        if let Some(p) = r.position {
            page.text(M + 33.0, yy + 6.5, Style::new(11.0), Align::Left, &p.to_string());
        }
        page.text_fit(M + 55.0, yy + 6.5, w - 95.0, Style::new(11.0), Align::Left, &r.name);
        if r.presses_clock {
            page.text(M + w - 35.0, yy + 6.5, Style::new(11.0), Align::Left, "✓");
        }
        yy += 9.0;
    }
    yy += 6.0;
    page.text(M + 3.0, yy, Style::new(9.0), Align::Left, lang.t("doc.leader_s_signature"));
    page.line(M + 35.0, yy + 1.0, M + w / 2.0, yy + 1.0, 0.4);
    page.text(M + w / 2.0 + 4.0, yy, Style::new(9.0), Align::Left, lang.t("doc.sign_referee"));
    page.line(M + w / 2.0 + 28.0, yy + 1.0, M + w - 4.0, yy + 1.0, 0.4);
    y + h + 6.0
}

fn penalty_table(rows: &[SheetPenaltyRow], lang: Lang, zone: EventZone) -> Table {
    let l = |k| lang.t(k);
    Table {
        columns: vec![
            Column::new(l("relay.at"), Align::Center),
            Column::new(l("doc.sec"), Align::Center),
            Column::new(l("relay.move"), Align::Right),
            Column::new(l("relay.side"), Align::Center),
            Column::grow(l("relay.person")),
            Column::grow(l("r.kind")),
            Column::new(l("doc.stones"), Align::Right),
            Column::new(l("doc.b_total"), Align::Right),
            Column::new(l("doc.w_total"), Align::Right),
        ],
        rows: rows
            .iter()
            .map(|r| {
                let p = &r.row;
                vec![
                    time(Some(p.at), zone),
                    short_section(lang, p.section),
                    p.move_number.to_string(),
                    p.side.map(|c| side(lang, c).to_string()).unwrap_or_default(),
                    r.name.clone().unwrap_or_default(),
                    lang.penalty_what(p),
                    p.stones.to_string(),
                    p.total[0].to_string(),
                    p.total[1].to_string(),
                ]
            })
            .collect(),
        size: 8.5,
    }
}

fn clock_table(rows: &[SheetClockRow], lang: Lang, zone: EventZone) -> Table {
    let l = |k| lang.t(k);
    Table {
        columns: vec![
            Column::new(l("relay.at"), Align::Center),
            Column::new(l("doc.sec"), Align::Center),
            Column::new(l("relay.clock_after"), Align::Right),
            Column::grow(l("doc.black_time_left")),
            Column::grow(l("doc.white_time_left")),
        ],
        rows: rows
            .iter()
            .map(|r| {
                vec![
                    time(Some(r.at), zone),
                    short_section(lang, r.section),
                    r.move_number.to_string(),
                    lang.clock_reading(&r.clocks[0]),
                    lang.clock_reading(&r.clocks[1]),
                ]
            })
            .collect(),
        size: 8.5,
    }
}

/// "Black's count 185, penalty stones Black 1, White 0 → 184 against komi 3½": the count as
/// the referee took it, the stones moved by the penalties (rules.md §3.5) and the komi.
fn count_line(lang: Lang, c: &SheetCount) -> String {
    let counted = half_points_text(c.black_halves);
    let net = i64::from(c.black_halves) - 2 * i64::from(c.penalty[0]) + 2 * i64::from(c.penalty[1]);
    let net = half_points_text(u32::try_from(net.max(0)).unwrap_or(0));
    let komi = quarters_text(c.komi_q.unsigned_abs());
    tr!(
        lang,
        "doc.count_line",
        counted,
        black_penalty = c.penalty[0],
        white_penalty = c.penalty[1],
        net,
        komi
    )
}

fn short_section(lang: Lang, s: Section) -> String {
    match (s, lang) {
        (Section::Playoff, _) => lang.t("doc.playoff_short").into(),
        (s, _) => (s.index() + 1).to_string(),
    }
}

/// The match record sheet, flowing over as many pages as it needs.
fn record_pages(
    doc: &mut Doc<'_>,
    h: &TeamSheetHeader,
    sheet: &MatchRecordSheet,
    lang: Lang,
    match_title: &str,
) {
    let l = |k| lang.t(k);
    let zone = h.zone;
    let t = &h.tournament;
    let frame = Frame { paper_w: W, paper_h: H, scale: 1.0, margin: M };
    let what = l("doc.match_record_sheet");
    let page = doc.add_page(W, H);
    let mut y = heading(page, t, match_title, what);
    let cont = |p: &mut Page<'_>| {
        let y = M + 5.0;
        p.text_fit(
            W / 2.0,
            y,
            W - 2.0 * M,
            Style::bold(10.0),
            Align::Center,
            &format!("{what} · {match_title}"),
        );
        y + 6.0
    };
    let sub = |doc: &mut Doc<'_>, y: &mut f32, text: &str| {
        if *y + 14.0 > H - M - 6.0 {
            let p = doc.add_page(W, H);
            *y = cont(p);
        }
        let p = doc.pages.last_mut().expect("a page");
        p.text(M, *y + 5.0, Style::bold(11.0), Align::Left, text);
        *y += 7.5;
    };

    sub(doc, &mut y, l("doc.players_by_section"));
    let who = Table {
        columns: vec![
            Column::new(l("relay.section"), Align::Left),
            Column::grow(&format!("{} {}", l("r.black"), sheet.black_team)),
            Column::grow(&format!("{} {}", l("r.white"), sheet.white_team)),
        ],
        rows: [Section::One, Section::Two, Section::Three, Section::Playoff]
            .into_iter()
            .filter_map(|sec| {
                let sep = l("doc.list_sep");
                match sheet.sections.iter().find(|s| s.section == sec) {
                    Some(s) => Some(vec![
                        section(lang, sec).to_string(),
                        s.players[0].join(sep),
                        s.players[1].join(sep),
                    ]),
                    // Sections still to play: a row to fill in.
                    None if !sheet.over && sec != Section::Playoff => {
                        Some(vec![section(lang, sec).to_string(), String::new(), String::new()])
                    }
                    None => None,
                }
            })
            .collect(),
        size: 9.0,
    };
    y = table_or_none(doc, &frame, y, &who, lang, &cont, true, 0);

    sub(doc, &mut y, l("doc.substitutions_3_per_team_per"));
    let subs = Table {
        columns: vec![
            Column::new(l("relay.side"), Align::Center),
            Column::new(l("doc.sec"), Align::Center),
            Column::new(l("relay.move"), Align::Right),
            Column::grow(l("relay.out")),
            Column::grow(l("relay.incoming")),
            Column::grow(l("doc.kind")),
            Column::new(l("doc.asked"), Align::Center),
            Column::new(l("doc.confirmed"), Align::Center),
            Column::new(l("doc.seated"), Align::Center),
        ],
        rows: sheet
            .substitutions
            .iter()
            .map(|r| {
                vec![
                    side(lang, r.side).to_string(),
                    short_section(lang, r.section),
                    r.move_number.to_string(),
                    r.out.clone(),
                    r.incoming.clone(),
                    if r.annulled {
                        format!("{}{}", lang.substitution_kind(r.kind), l("doc.annulled_art_10_5"))
                    } else {
                        lang.substitution_kind(r.kind).to_string()
                    },
                    time(r.requested_at, zone),
                    time(Some(r.confirmed_at), zone),
                    time(r.seated_at, zone),
                ]
            })
            .collect(),
        size: 8.5,
    };
    y = table_or_none(doc, &frame, y, &subs, lang, &cont, sheet.over, 3);

    sub(doc, &mut y, l("doc.timeouts_2_per_team_per"));
    let timeouts = Table {
        columns: vec![
            Column::new(l("relay.side"), Align::Center),
            Column::new(l("doc.sec"), Align::Center),
            Column::new(l("relay.move"), Align::Right),
            Column::new(l("doc.asked"), Align::Center),
            Column::new(l("doc.confirmed"), Align::Center),
            Column::new(l("doc.ended"), Align::Center),
        ],
        rows: sheet
            .timeouts
            .iter()
            .map(|r| {
                vec![
                    side(lang, r.side).to_string(),
                    short_section(lang, r.section),
                    r.move_number.to_string(),
                    time(Some(r.requested_at), zone),
                    time(Some(r.confirmed_at), zone),
                    time(r.ended_at, zone),
                ]
            })
            .collect(),
        size: 8.5,
    };
    y = table_or_none(doc, &frame, y, &timeouts, lang, &cont, sheet.over, 2);

    sub(doc, &mut y, l("relay.penalty_log"));
    y = table_or_none(
        doc,
        &frame,
        y,
        &penalty_table(&sheet.penalties, lang, zone),
        lang,
        &cont,
        sheet.over,
        6,
    );

    sub(doc, &mut y, l("doc.clock_readings_art_22_4"));
    y = table_or_none(doc, &frame, y, &clock_table(&sheet.clocks, lang, zone), lang, &cont, sheet.over, 4);

    if let Some(pc) = &sheet.playoff_clocks {
        // The heading and both lines stay together.
        if y + 22.0 > H - M - 6.0 {
            let p = doc.add_page(W, H);
            y = cont(p);
        }
        sub(doc, &mut y, l("doc.play_off_time_the_time"));
        let (line, note) = match &pc.reading {
            Some(r) => (
                tr!(
                    lang,
                    "doc.playoff_clocks",
                    black = lang.clock_reading(&r.clocks[0]),
                    white = lang.clock_reading(&r.clocks[1]),
                ),
                tr!(lang, "doc.playoff_clocks_note", move = pc.after_move, time = time(Some(r.at), zone)),
            ),
            None => (
                lang.t("doc.not_recorded").to_string(),
                tr!(lang, "doc.playoff_clocks_due", move = pc.after_move),
            ),
        };
        let p = doc.pages.last_mut().expect("a page");
        p.text_fit(M + 2.0, y + 4.0, W - 2.0 * M - 4.0, Style::bold(10.0), Align::Left, &line);
        p.text_fit(M + 2.0, y + 9.0, W - 2.0 * M - 4.0, Style::grey(8.5), Align::Left, &note);
        y += 13.0;
    }
    if !sheet.playoff_penalties.is_empty() || sheet.drawn_game.is_some() {
        sub(doc, &mut y, l("relay.playoff_penalty_log"));
        let t = penalty_table(&sheet.playoff_penalties, lang, zone);
        y = table_or_none(doc, &frame, y, &t, lang, &cont, sheet.over, 3);
    }

    // Result block.
    if y + 52.0 > H - M - 6.0 {
        let p = doc.add_page(W, H);
        y = cont(p);
    }
    let p = doc.pages.last_mut().expect("a page");
    y += 4.0;
    let totals =
        tr!(lang, "doc.penalty_totals", black = sheet.penalty_totals[0], white = sheet.penalty_totals[1]);
    if sheet.over {
        p.text(M, y + 5.0, Style::new(10.0), Align::Left, &totals);
    } else {
        p.text(M, y + 5.0, Style::new(10.0), Align::Left, l("doc.penalty_stones_in_the_count"));
    }
    y += 7.0;
    if let Some(d) = &sheet.drawn_game {
        let line = tr!(lang, "doc.original_game", result = lang.game_result(d));
        p.text(M, y + 5.0, Style::new(10.0), Align::Left, &line);
        y += 7.0;
        if let Some(c) = &sheet.drawn_count {
            p.text_fit(M, y + 5.0, W - 2.0 * M, Style::new(10.0), Align::Left, &count_line(lang, c));
            y += 7.0;
        }
    }
    // The count the result comes from, so that the signed result can be checked.
    let count = match (&sheet.count, sheet.over) {
        (Some(c), _) => Some(count_line(lang, c)),
        (None, false) => Some(
            l("doc.black_s_count_before_penalty").replace("{k}", &quarters_text(sheet.komi_q.unsigned_abs())),
        ),
        (None, true) => None,
    };
    if let Some(line) = count {
        p.text_fit(M, y + 5.0, W - 2.0 * M, Style::new(10.0), Align::Left, &line);
        y += 7.0;
    }
    let result = sheet.result.as_ref().map(|r| lang.game_result(r)).unwrap_or_default();
    let line = tr!(lang, "doc.match_result", result);
    p.text(M, y + 5.5, Style::bold(11.0), Align::Left, &line);
    if let Some(mp) = sheet.match_points {
        let pts = tr!(
            lang,
            "doc.match_points",
            black_team = sheet.black_team,
            black = mp[0],
            white_team = sheet.white_team,
            white = mp[1]
        );
        p.text(M + 95.0, y + 5.5, Style::bold(11.0), Align::Left, &pts);
    }
    if let Some(note) = &h.ending {
        y += 7.0;
        p.text_fit(M, y + 5.0, W - 2.0 * M, Style::new(9.5), Align::Left, note);
    }
    y += 16.0;
    let sigs = [l("doc.black_s_leader"), l("doc.white_s_leader"), l("doc.referee")];
    let cw = (W - 2.0 * M) / 3.0;
    for (i, s) in sigs.iter().enumerate() {
        let x = M + cw * i as f32;
        p.text(x, y, Style::new(9.0), Align::Left, s);
        p.line(x, y + 8.0, x + cw - 6.0, y + 8.0, 0.4);
    }
}

/// A table, or "(none)" once the match is decided. A sheet printed before that gets `blank`
/// empty rows more for the referee to fill in by hand at the table.
#[allow(clippy::too_many_arguments)]
fn table_or_none<'f>(
    doc: &mut Doc<'f>,
    frame: &Frame,
    y: f32,
    table: &Table,
    lang: Lang,
    cont: &dyn Fn(&mut Page<'f>) -> f32,
    over: bool,
    blank: usize,
) -> f32 {
    if !over && blank > 0 {
        let empty = vec![String::new(); table.columns.len()];
        let mut rows = table.rows.clone();
        rows.extend(std::iter::repeat_n(empty, blank));
        let t = Table { columns: table.columns.clone(), rows, size: table.size };
        return t.flow(doc, frame, y, cont) + 4.0;
    }
    if table.rows.is_empty() {
        let p = doc.pages.last_mut().expect("a page");
        p.text(M + 2.0, y + 4.0, Style::grey(9.0), Align::Left, lang.t("doc.none"));
        return y + 8.0;
    }
    table.flow(doc, frame, y, cont) + 4.0
}

#[cfg(test)]
mod tests {
    use super::super::testutil::{read, squash, tournament};
    use super::*;
    use crate::domain::team::clocks::reading;
    use crate::domain::team::relay::{Card, Event, RelayConfig, RelayMatch};
    use crate::domain::team::roster::{RosterPlayer, Staff, Team};
    use crate::domain::team::sheets::{lineup_forms, record_sheet};

    fn team(id: u32, base: u32, name: &str, names: [&str; 8]) -> Team {
        Team {
            id,
            name: name.into(),
            leader: Some(Staff { id: base, name: format!("{name}领队") }),
            coach: None,
            captain: Some(base + 1),
            players: names
                .iter()
                .enumerate()
                .map(|(k, n)| RosterPlayer {
                    id: base + 1 + k as u32,
                    name: n.to_string(),
                    position: k as u32 + 1,
                })
                .collect(),
        }
    }

    /// A short match: line-ups, a claimed order error, a yellow card, a timeout, a resignation.
    fn sample() -> RelayMatch {
        let b = team(1, 100, "北京队", ["王一", "李二", "张三", "赵四", "钱五", "孙六", "周七", "吴八"]);
        let w = team(2, 200, "上海队", ["郑九", "冯十", "陈甲", "褚乙", "卫丙", "蒋丁", "沈戊", "韩己"]);
        let t0 = 1_800_000_000;
        let mut m = RelayMatch::new(RelayConfig::default(), b, w, t0, &[], &[]).unwrap();
        let mut t = t0 - 600;
        let mut ok = |m: &mut RelayMatch, e: Event| {
            t += 30;
            m.apply(t, e.clone()).unwrap_or_else(|r| panic!("{e:?}: {r:?}"));
        };
        ok(&mut m, Event::SubmitLineup { side: Color::Black, section: Section::One, players: [101, 102] });
        ok(&mut m, Event::SubmitLineup { side: Color::White, section: Section::One, players: [201, 202] });
        ok(&mut m, Event::MovesInOrder { through: 2 });
        let tc = rules::clock::TimeControl::ByoYomi { basic_secs: 3600, periods: 3, period_secs: 30 };
        let clocks = [reading(&tc, 2400, None).unwrap(), reading(&tc, 0, Some(2)).unwrap()];
        ok(&mut m, Event::Clocks { move_number: None, clocks });
        ok(&mut m, Event::Move { player: 101, at: None });
        ok(&mut m, Event::ClaimOrderError { claimant: Color::White });
        ok(
            &mut m,
            Event::Card {
                person: 202,
                card: Card::Yellow,
                offence: Some(crate::domain::team::cards::CardOffence::TakeBack),
            },
        );
        ok(&mut m, Event::RequestTimeout { side: Color::Black });
        ok(&mut m, Event::ConfirmRequest { side: Color::Black });
        ok(&mut m, Event::Resign { side: Color::White, by: None });
        m
    }

    #[test]
    fn lineup_forms_and_record_sheet_print_the_penalty_log() {
        let m = sample();
        let h =
            TeamSheetHeader { tournament: tournament(), table: 2, zone: EventZone::SHANGHAI, ending: None };
        let pdf = team_sheets(&h, &lineup_forms(&m), &record_sheet(&m), &PdfOptions::new(Lang::Zh)).unwrap();
        let r = read("team_sheets_zh", &pdf);
        assert!(r.every_font_has_to_unicode());
        assert!(r.pages.len() >= 4, "three line-up pages and the record sheet: {}", r.pages.len());
        let p1 = squash(&r.pages[0]);
        for s in ["出场名单", "第1节（第1至72手）", "北京队", "上海队", "王一", "郑九", "位置号", "领队签名"]
        {
            assert!(p1.contains(s), "{s} missing: {p1}");
        }
        // Section 2 is not lined up yet: a blank form.
        let p2 = squash(&r.pages[1]);
        assert!(p2.contains("第2节") && !p2.contains("王一"), "{p2}");
        let rec = squash(&r.pages[3..].join("\n"));
        for s in [
            "对局记录表",
            "判罚记录",
            "行棋次序错误",
            "黄牌",
            "黑中盘胜",
            "场分",
            "暂停",
            "计入胜负的罚子：黑方1子，白方1子",
            "计时记录",
            "第几手后",
            "基本时间40:00，读秒3次",
            "读秒中，剩余2次",
        ] {
            assert!(rec.contains(s), "{s} missing: {rec}");
        }
        // Times at UTC+8: the first line-up was handed in at 1 799 999 430 = 15:50:30 local.
        assert!(p1.contains("15:50:30") && p1.contains("15:55:00"), "{p1}");
    }

    #[test]
    fn english_sheets() {
        let m = sample();
        let h =
            TeamSheetHeader { tournament: tournament(), table: 1, zone: Default::default(), ending: None };
        let pdf = team_sheets(&h, &lineup_forms(&m), &record_sheet(&m), &PdfOptions::new(Lang::En)).unwrap();
        let r = read("team_sheets_en", &pdf);
        let all = squash(&r.all_text());
        for s in [
            "Line-upforms",
            "Matchrecordsheet",
            "Penaltylog",
            "yellowcard",
            "B+R",
            "Matchpoints",
            "Presses",
            "Clockreadings",
            "40:00,3byo-yomileft",
            "byo-yomi,2left",
        ] {
            assert!(all.contains(s), "{s} missing: {all}");
        }
    }

    /// The match record sheet prints the count, the penalty stones and the komi the result comes
    /// from, so the signed result can be checked; a sheet printed before the match ends has rows
    /// and lines to fill in by hand; the line-up footnote means the same in both languages.
    #[test]
    fn the_record_sheet_prints_the_count_or_lines_to_fill() {
        let b = team(1, 100, "北京队", ["王一", "李二", "张三", "赵四", "钱五", "孙六", "周七", "吴八"]);
        let w = team(2, 200, "上海队", ["郑九", "冯十", "陈甲", "褚乙", "卫丙", "蒋丁", "沈戊", "韩己"]);
        let t0 = 1_800_000_000;
        let mut m = RelayMatch::new(RelayConfig::default(), b, w, t0, &[], &[]).unwrap();
        for (t, e) in [
            (
                t0 - 600,
                Event::SubmitLineup { side: Color::Black, section: Section::One, players: [101, 102] },
            ),
            (
                t0 - 590,
                Event::SubmitLineup { side: Color::White, section: Section::One, players: [201, 202] },
            ),
        ] {
            m.apply(t, e).unwrap();
        }
        let h =
            TeamSheetHeader { tournament: tournament(), table: 1, zone: Default::default(), ending: None };
        let blank = |m: &RelayMatch, lang| {
            let pdf = team_sheets(&h, &lineup_forms(m), &record_sheet(m), &PdfOptions::new(lang)).unwrap();
            squash(&read("team_sheets_blank", &pdf).all_text())
        };
        let zh = blank(&m, Lang::Zh);
        assert!(zh.contains("黑方数子：________子（罚子前）；黑贴3½子"), "{zh}");
        assert!(zh.contains("计入胜负的罚子：黑方____子"), "{zh}");
        assert!(zh.contains("第3节（第144手至终局）"), "a row for each section still to play: {zh}");
        assert!(!zh.contains("（无）"), "rows to fill, not (none): {zh}");
        assert!(zh.contains("出场顺序列前的棋手先落子并按钟"), "{zh}");
        m.apply(t0 + 10, Event::MovesInOrder { through: 30 }).unwrap();
        let card = Event::Card {
            person: 101,
            card: Card::Yellow,
            offence: Some(crate::domain::team::cards::CardOffence::TakeBack),
        };
        m.apply(t0 + 20, card).unwrap();
        m.apply(t0 + 30, Event::Count { black_halves: 370, clocks: None }).unwrap();
        let zh = blank(&m, Lang::Zh);
        assert!(
            zh.contains("黑方数子185子；罚子：黑方1子，白方0子；计罚后黑方184子；黑贴3½子（第12条）"),
            "{zh}"
        );
        assert!(zh.contains("（无）"), "a decided match prints (none) for what did not happen: {zh}");
        let en = blank(&m, Lang::En);
        assert!(
            en.contains(
                "Black'scount185;penaltystonesBlack1,White0;Black184afterthem;Blackgives3½stones(Art.12)"
            ),
            "{en}"
        );
    }
}
