//! Data of the printed team sheets: the line-up form of each section
//! (出场名单, seed 003 Art. 10.1) and the match record sheet with the penalty log, the
//! referee's clock readings (Art. 22.4) and the time each side starts the 节棋 play-off with
//! (Art. 12). Plain structs for a PDF printer; nothing is laid out here.
//!
//! Everything comes from the match as replayed from the events that stand, so a withdrawn
//! event (a clock reading typed wrongly, a card given to the wrong player) is not on the
//! sheet, as it is not in the match page's tables.

use rules::board::Color;
use rules::clock::ClockReading;
use rules::rulings::{GameResult, ResultMethod};
use serde::{Deserialize, Serialize};

use super::clocks::ClockEntry;
use super::lineup::Section;
use super::penalties::{penalty_rows, LogEntry, PenaltyRow};
use super::relay::{RelayMatch, SubstitutionKind};
use super::{PersonId, Timestamp};

/// One line of a line-up form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineupFormRow {
    /// 出场位置号: 1 or 2 (1 moves first for the side and presses the clock, Art. 10.3).
    pub order: u8,
    pub person: Option<PersonId>,
    pub name: String,
    /// Roster position number (位置号).
    pub position: Option<u32>,
    pub presses_clock: bool,
}

/// A line-up form for one side and one section; blank rows until the line-up is in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineupForm {
    pub section: Section,
    pub side: Color,
    pub team: String,
    pub deadline: Option<Timestamp>,
    pub submitted_at: Option<Timestamp>,
    /// Seconds after the deadline it was handed in (0: in time).
    pub late_secs: i64,
    pub rows: [LineupFormRow; 2],
}

/// The line-up forms of a match: sections 1–3 for both sides, and the play-off once there is
/// one.
pub fn lineup_forms(m: &RelayMatch) -> Vec<LineupForm> {
    let mut sections = vec![Section::One, Section::Two, Section::Three];
    if m.went_to_playoff() {
        sections.push(Section::Playoff);
    }
    let mut out = Vec::new();
    for section in sections {
        for side in [Color::Black, Color::White] {
            let s = m.side(side);
            let lineup = s.lineups[section.index()];
            let row = |k: usize| {
                let person = lineup.map(|l| l.players[k]);
                LineupFormRow {
                    order: k as u8 + 1,
                    person,
                    name: person.and_then(|p| s.team.name_of(p)).unwrap_or_default().to_string(),
                    position: person.and_then(|p| s.team.position(p)),
                    presses_clock: k == 0,
                }
            };
            out.push(LineupForm {
                section,
                side,
                team: s.team.name.clone(),
                deadline: m.lineup_deadline(section),
                submitted_at: lineup.map(|l| l.submitted_at),
                late_secs: lineup.map(|l| l.late_secs).unwrap_or(0),
                rows: [row(0), row(1)],
            });
        }
    }
    out
}

/// Who played a section, by side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionRow {
    pub section: Section,
    /// Line-up then substitutes, `[Black, White]`.
    pub players: [Vec<String>; 2],
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubstitutionRow {
    pub side: Color,
    pub section: Section,
    pub move_number: u32,
    pub out: String,
    pub incoming: String,
    /// Regular, the extra one of Art. 24.4, or a red-carded player's replacement.
    pub kind: SubstitutionKind,
    pub requested_at: Option<Timestamp>,
    pub confirmed_at: Timestamp,
    pub seated_at: Option<Timestamp>,
    /// Annulled by the referee (Art. 10.5 (3)).
    pub annulled: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeoutRow {
    pub side: Color,
    pub section: Section,
    pub move_number: u32,
    pub requested_at: Timestamp,
    pub confirmed_at: Timestamp,
    pub ended_at: Option<Timestamp>,
}

/// A penalty-log row with the person's name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetPenaltyRow {
    #[serde(flatten)]
    pub row: PenaltyRow,
    pub name: Option<String>,
}

/// A clock reading of both sides (Art. 22.4), as the referee recorded it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetClockRow {
    /// Taken after this move (0: before the first move).
    pub move_number: u32,
    /// The section in play ([`Section::Playoff`] for readings of the play-off).
    pub section: Section,
    pub at: Timestamp,
    /// `[Black, White]`: basic time left and byo-yomi periods (read back by
    /// `Lang::clock_reading`).
    pub clocks: [ClockReading; 2],
}

impl SheetClockRow {
    fn of(e: &ClockEntry) -> SheetClockRow {
        SheetClockRow { move_number: e.move_number, section: e.section, at: e.at, clocks: e.clocks }
    }
}

/// The time each side starts the 节棋 play-off with (Art. 12): the reading after
/// `after_move` (the end of the drawn game, or move 143 under the event's `playoff_clock`
/// setting).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetPlayoffClocks {
    pub after_move: u32,
    /// `None` while a knockout draw waits for that reading (the restore is refused until then).
    pub reading: Option<SheetClockRow>,
}

/// The count of a game decided by count, so that the signed result can be checked: Black's count,
/// the penalty stones in it and the komi it was counted against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetCount {
    /// Black's count in half points, before penalty stones.
    pub black_halves: u32,
    /// Penalty stones counted, `[Black, White]` (rules.md §3.5).
    pub penalty: [u32; 2],
    /// Komi in quarter stones (Art. 12: 3½).
    pub komi_q: i32,
}

impl SheetCount {
    fn of(r: &GameResult, komi_q: i32) -> Option<SheetCount> {
        match r.method {
            ResultMethod::Count { black_halves, penalty_black, penalty_white, .. } => {
                Some(SheetCount { black_halves, penalty: [penalty_black, penalty_white], komi_q })
            }
            _ => None,
        }
    }
}

/// The match record sheet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchRecordSheet {
    pub black_team: String,
    pub white_team: String,
    pub sections: Vec<SectionRow>,
    pub substitutions: Vec<SubstitutionRow>,
    pub timeouts: Vec<TimeoutRow>,
    /// The original game (sections 1–3), with running totals.
    pub penalties: Vec<SheetPenaltyRow>,
    /// The 节棋 play-off, with running totals from the restored sections 1–2.
    pub playoff_penalties: Vec<SheetPenaltyRow>,
    /// The referee's clock readings in the order recorded (the play-off's included).
    pub clocks: Vec<SheetClockRow>,
    /// Once a knockout draw goes to the play-off: the time each side starts it with.
    pub playoff_clocks: Option<SheetPlayoffClocks>,
    /// Penalty stones in the final count, `[Black, White]`.
    pub penalty_totals: [u32; 2],
    /// The drawn game before the play-off, if any.
    pub drawn_game: Option<GameResult>,
    pub result: Option<GameResult>,
    pub match_points: Option<[u32; 2]>,
    /// The count of the deciding game, and of the drawn game before a play-off.
    pub count: Option<SheetCount>,
    pub drawn_count: Option<SheetCount>,
    /// The match is decided: a sheet printed before has rows to fill in by hand.
    pub over: bool,
    /// The komi the match is counted against, in quarter stones (Art. 12: 3½).
    pub komi_q: i32,
}

/// The match record sheet of `m` as it stands.
pub fn record_sheet(m: &RelayMatch) -> MatchRecordSheet {
    let name = |p: PersonId| -> String {
        [Color::Black, Color::White]
            .iter()
            .find_map(|&c| m.side(c).team.name_of(p))
            .map(str::to_string)
            .unwrap_or_else(|| format!("#{p}"))
    };
    let mut sections = Vec::new();
    for section in Section::ALL {
        let mut players: [Vec<String>; 2] = [Vec::new(), Vec::new()];
        for (k, side) in [Color::Black, Color::White].into_iter().enumerate() {
            let s = m.side(side);
            let mut ids: Vec<PersonId> =
                s.lineups[section.index()].map(|l| l.players.to_vec()).unwrap_or_default();
            for &(p, q) in &s.entered {
                if q == section && !ids.contains(&p) {
                    ids.push(p);
                }
            }
            players[k] = ids.into_iter().map(name).collect();
        }
        if players.iter().any(|v| !v.is_empty()) {
            sections.push(SectionRow { section, players });
        }
    }
    let mut substitutions = Vec::new();
    let mut timeouts = Vec::new();
    for side in [Color::Black, Color::White] {
        for r in &m.side(side).substitutions {
            substitutions.push(SubstitutionRow {
                side,
                section: r.section,
                move_number: r.move_number,
                out: name(r.out),
                incoming: name(r.incoming),
                kind: r.kind,
                requested_at: r.requested_at,
                confirmed_at: r.confirmed_at,
                seated_at: r.seated_at,
                annulled: r.annulled,
            });
        }
        for t in &m.side(side).timeouts {
            timeouts.push(TimeoutRow {
                side,
                section: t.section,
                move_number: t.move_number,
                requested_at: t.requested_at,
                confirmed_at: t.confirmed_at,
                ended_at: t.ended_at,
            });
        }
    }
    substitutions.sort_by_key(|r| (r.confirmed_at, r.move_number));
    timeouts.sort_by_key(|r| (r.confirmed_at, r.move_number));

    let rules = m.config().rules.clone();
    let named = |rows: Vec<PenaltyRow>| -> Vec<SheetPenaltyRow> {
        rows.into_iter().map(|row| SheetPenaltyRow { name: row.person.map(name), row }).collect()
    };
    let (penalties, playoff_penalties) = if m.went_to_playoff() {
        let mut original: Vec<LogEntry> =
            m.log().iter().filter(|e| e.section != Section::Playoff).copied().collect();
        original.extend_from_slice(m.set_aside());
        let original_inputs = rules::rulings::ApplyInputs { prior_yellows: vec![], ..m.inputs().clone() };
        let a = penalty_rows(&rules, &original_inputs, &original).unwrap_or_default();
        let b = penalty_rows(&rules, m.inputs(), m.log()).unwrap_or_default();
        (named(a), named(b.into_iter().filter(|r| r.section == Section::Playoff).collect()))
    } else {
        (named(penalty_rows(&rules, m.inputs(), m.log()).unwrap_or_default()), Vec::new())
    };
    let playoff_clocks = match (m.playoff_clock_source(), m.playoff_clocks()) {
        (Some((after_move, reading)), _) => {
            Some(SheetPlayoffClocks { after_move, reading: reading.map(SheetClockRow::of) })
        }
        (None, Some(e)) => {
            Some(SheetPlayoffClocks { after_move: e.move_number, reading: Some(SheetClockRow::of(e)) })
        }
        (None, None) => None,
    };
    MatchRecordSheet {
        black_team: m.side(Color::Black).team.name.clone(),
        white_team: m.side(Color::White).team.name.clone(),
        sections,
        substitutions,
        timeouts,
        penalties,
        playoff_penalties,
        clocks: m.clock_log().iter().map(SheetClockRow::of).collect(),
        playoff_clocks,
        penalty_totals: [m.applied().penalty_black, m.applied().penalty_white],
        drawn_game: m.first_result(),
        result: m.result(),
        match_points: m.match_points(),
        count: m.result().and_then(|r| SheetCount::of(&r, m.rules_in_force().komi_q)),
        drawn_count: m.first_result().and_then(|r| SheetCount::of(&r, rules.komi_q)),
        over: m.result().is_some(),
        komi_q: rules.komi_q,
    }
}
