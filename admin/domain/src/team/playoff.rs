//! The 节棋 play-off (seed 003 Art. 12).
//!
//! Art. 12: "淘汰赛中若双方下和，采用“节棋”办法定胜负 … 将棋局复原到第二节结束时的局面，由双方重新派
//! 任意两名棋手上场对局，若弈至最后再次和棋，则判黑方获胜。其中用时为双方所剩时间（包括读秒）。在“节棋”
//! 过程中的其他规则，依照原规则进行。" The procedure: after the referee's count declares a draw,
//! both leaders sign and restore the position after move 143; a 3-minute preparation starts from
//! their confirmation; each side fields any two players of its full list from move 144 with the
//! time left (byo-yomi included), and has one substitution and one timeout; a second draw is
//! Black's win.
//!
//! In the state machine: a counted draw in a knockout ([`super::relay::Stage::Knockout`]) puts
//! the match in [`Phase::PlayoffPending`]; [`Event::RestoreForPlayoff`](super::relay::Event)
//! starts the play-off section ([`Section::Playoff`]); its count is scored with
//! `JigoRule::BlackWins` ([`RelayMatch::rules_in_force`]).
//!
//! ## Readings chosen
//!
//! - \[INF\] The restore takes the game back to the end of section 2 as a whole: the board
//!   (moves up to 143), and the rulings of sections 1 and 2 with their penalty stones and
//!   order-error tally. The rulings of the original section 3 are set aside (kept for the
//!   record sheet) because the section they belong to is replayed. If the drawn game ended
//!   before move 143, it is taken back to its last move.
//! - \[INF\] Cards accumulate per person per match (Art. 24.2 "同场次"): a yellow of the original
//!   section 3 still counts toward a red in the play-off (passed to the rules crate as
//!   `PriorYellows`), and anyone red-carded in the original game stays barred ("本局").
//! - \[INF\] "任意两名棋手": any two players of the list who are not barred, including players
//!   of sections 1–3. Within the play-off the other rules apply as before (Art. 12): a player
//!   who left the play-off board cannot return, and a substitute must not have played in it.
//! - \[INF\] Forced passes still owed when the game ended are not carried into the play-off.
//! - Clocks: "其中用时为双方所剩时间（包括读秒）" / "使用之前剩余的时间（包括读秒）". The event's
//!   [`PlayoffClock`](super::relay::PlayoffClock) says which time is left: when the drawn
//!   game ended (default \[INF\]: only the position is restored) or at the end of section 2.
//!   The play-off starts from the referee's reading of both clocks taken at that point (after
//!   the game's last move, or after move 143), which Art. 22.4 asks the referee to record at
//!   a pause anyway (the clocks stand still in the break and after the count). \[INF\] Without
//!   that reading the restore is refused ([`Refusal::PlayoffClocksMissing`]) rather than
//!   starting with times nobody recorded: the referee enters it (a reading copied from the
//!   written record may name the move it was taken after), then restores. An earlier reading
//!   does not do: the clocks ran after it.

use std::collections::BTreeMap;

use rules::board::Color;
use rules::rulings::{BaseResult, PriorYellows, RulingKind};

use super::lineup::{Section, SECTION_TWO_LAST};
use super::penalties::apply_log;
use super::relay::{Effect, Phase, Refusal, RelayMatch};
use super::{ix, PersonId, Timestamp};

impl RelayMatch {
    /// [`Event::RestoreForPlayoff`](super::relay::Event::RestoreForPlayoff).
    pub(super) fn restore_for_playoff(&mut self, at: Timestamp, fx: &mut Vec<Effect>) -> Result<(), Refusal> {
        match self.phase {
            Phase::PlayoffPending => {}
            Phase::Playing | Phase::Over => return Err(Refusal::NoPlayoffPending),
        }
        let (point, entry) = self.playoff_clock_source().expect("pending");
        let entry = *entry
            .ok_or(Refusal::PlayoffClocksMissing { rule: self.config.playoff_clock, move_number: point })?;
        let restored_to = self.moves.min(SECTION_TWO_LAST);
        self.moves = restored_to;
        self.move_log.retain(|m| m.number <= restored_to);
        let (kept, aside): (Vec<_>, Vec<_>) =
            self.log.iter().partition(|e| matches!(e.section, Section::One | Section::Two));
        self.log = kept;
        self.set_aside = aside;

        let mut yellows: BTreeMap<(Color, PersonId), u32> = BTreeMap::new();
        for e in &self.set_aside {
            if let (RulingKind::YellowCard, Some(side), Some(p)) =
                (e.ruling.kind, e.ruling.against, e.ruling.player)
            {
                *yellows.entry((side, p)).or_default() += 1;
            }
        }
        self.inputs.prior_yellows = yellows
            .into_iter()
            .filter(|&((side, p), _)| !self.sides[ix(side)].barred.contains(&p))
            .map(|((side, player), yellows)| PriorYellows { side, player, yellows })
            .collect();

        for s in &mut self.sides {
            s.seats = None;
            s.vacated = None;
            s.pending = None;
            s.owed_passes = 0;
            s.subs_used = 0;
            s.subs_limit = self.config.playoff_substitutions;
            s.any_subs = 0;
            s.timeouts_used = 0;
            s.timeouts_limit = self.config.playoff_timeouts;
        }
        self.section = Section::Playoff;
        self.section_first = restored_to + 1;
        self.rotation = None;
        self.last_pos = None;
        self.free_choice = None;
        self.pending_order_error = None;
        self.phase = Phase::Playing;
        self.playoff_restored_at = Some(at);
        self.applied = apply_log(&self.rules_in_force(), BaseResult::Unfinished, &self.log, &self.inputs)
            .map_err(|e| Refusal::ruling(&e))?;
        self.playoff_clocks = Some(entry);
        let lineup_deadline = self.lineup_deadline(Section::Playoff).expect("restored");
        fx.push(Effect::PlayoffStarted {
            restored_to,
            lineup_deadline,
            clocks: entry.clocks,
            clocks_after: entry.move_number,
        });
        Ok(())
    }
}
