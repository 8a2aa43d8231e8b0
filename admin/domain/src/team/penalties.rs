//! The penalty log of a relay match: every ruling with when and where it was given, and the
//! rows a match page and the match record sheet show as penalties accrue.
//!
//! All arithmetic is the rules crate's: [`rules::rulings::apply_rulings`] turns the rulings
//! into penalty stones (seed 003 Art. 17.7 order errors 1, 2, 3, 4 stones, a player's 3rd → red,
//! the side's 5th → loss; Art. 17.8 one stone per move beyond the quota; Art. 22.1 last
//! byo-yomi timeout → pass + 1 stone; Art. 24.2–24.3 yellow 1 stone, two yellows → red, red 2
//! stones), and `rules::outcome::Scoring` applies them to the count (rules.md §3.5).

use rules::board::Color;
use rules::ruleset::RuleSet;
use rules::rulings::{apply_rulings, Applied, ApplyInputs, BaseResult, Ruling, RulingError};
use serde::{Deserialize, Serialize};

use super::cards::{CardOffence, RedCause};
use super::lineup::Section;
use super::{ix, PersonId, Timestamp};

/// One ruling of the match with its section and time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEntry {
    pub ruling: Ruling,
    pub section: Section,
    pub at: Timestamp,
    /// A card's offence, which fixes the card and its article.
    #[serde(default)]
    pub offence: Option<CardOffence>,
}

/// The rulings of a log, in order.
pub fn rulings_of(log: &[LogEntry]) -> Vec<Ruling> {
    log.iter().map(|e| e.ruling).collect()
}

/// [`apply_rulings`] over a log.
pub fn apply_log(
    rules: &RuleSet,
    base: BaseResult,
    log: &[LogEntry],
    inputs: &ApplyInputs,
) -> Result<Applied, RulingError> {
    apply_rulings(rules, base, &rulings_of(log), inputs)
}

/// One row of the penalty log (match page, record sheet).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PenaltyRow {
    pub at: Timestamp,
    pub section: Section,
    pub move_number: u32,
    pub side: Option<Color>,
    pub person: Option<PersonId>,
    /// The ruling (named by the edge: `Lang::ruling_kind`).
    pub kind: rules::rulings::RulingKind,
    /// A card's offence, with its article (rendered by the page and the sheets).
    pub offence: Option<CardOffence>,
    /// The ruling sent someone off: why the card is red (a second yellow, a third order error).
    pub red: Option<RedCause>,
    /// Stones this ruling cost its side (0 for a forced pass or advice).
    pub stones: u32,
    /// Running totals after this ruling, `[Black, White]`.
    pub total: [u32; 2],
    /// Every effect of this ruling, as the rules crate gives it (worded by `Lang::effect`).
    pub effects: Vec<rules::rulings::Said>,
}

/// The rows of a log: each ruling's stones are the difference of the running totals that
/// [`apply_rulings`] gives for the log up to it.
pub fn penalty_rows(
    rules: &RuleSet,
    inputs: &ApplyInputs,
    log: &[LogEntry],
) -> Result<Vec<PenaltyRow>, RulingError> {
    let mut rows = Vec::with_capacity(log.len());
    let mut before = [0u32; 2];
    let mut sent_off = 0;
    for (i, e) in log.iter().enumerate() {
        let a = apply_log(rules, BaseResult::Unfinished, &log[..=i], inputs)?;
        let red = (a.sent_off.len() > sent_off).then(|| RedCause::of(e.ruling.kind));
        sent_off = a.sent_off.len();
        let total = [a.penalty_black, a.penalty_white];
        let stones = e.ruling.against.map(|s| total[ix(s)] - before[ix(s)]).unwrap_or(0);
        let mine: Vec<_> = a.effects.iter().filter(|x| x.ruling == Some(i)).collect();
        rows.push(PenaltyRow {
            at: e.at,
            section: e.section,
            move_number: e.ruling.move_number,
            side: e.ruling.against,
            person: e.ruling.player,
            offence: e.offence,
            red,
            kind: e.ruling.kind,
            stones,
            total,
            effects: mine.iter().map(|x| x.said.clone()).collect(),
        });
        before = total;
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::rulings::RulingKind;

    #[test]
    fn rows_carry_each_rulings_stones() {
        let rules = RuleSet::chinese_team_relay();
        let e = |kind, side, m, p: u32| LogEntry {
            ruling: Ruling::against(kind, side, m).by_player(p),
            section: Section::One,
            at: i64::from(m),
            offence: None,
        };
        let log = [
            e(RulingKind::OrderError, Color::Black, 5, 1),
            e(RulingKind::YellowCard, Color::White, 6, 9),
            e(RulingKind::OrderError, Color::Black, 9, 1),
            e(RulingKind::YellowCard, Color::White, 10, 9),
            e(RulingKind::OrderError, Color::Black, 13, 1),
        ];
        let rows = penalty_rows(&rules, &ApplyInputs::default(), &log).unwrap();
        let stones: Vec<u32> = rows.iter().map(|r| r.stones).collect();
        // 1; yellow 1; 2; second yellow = red 2 (default reading); 3rd error 3 + red 2.
        assert_eq!(stones, vec![1, 1, 2, 2, 5]);
        assert_eq!(rows.last().unwrap().total, [8, 3]);
        assert!(rows[4].effects.iter().any(|e| matches!(e, rules::rulings::Said::OrderErrorRed { .. })));
        assert_eq!(rows[1].kind, RulingKind::YellowCard);
        // The second yellow and the third order error send off: red, with the cause.
        let reds: Vec<Option<RedCause>> = rows.iter().map(|r| r.red).collect();
        assert_eq!(
            reds,
            vec![None, None, None, Some(RedCause::SecondYellow), Some(RedCause::ThirdOrderError)]
        );
    }
}
