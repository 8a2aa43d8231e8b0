//! How a relay match ends besides a count or a resignation (seed 003 Arts. 15.2, 17.5, 17.6,
//! 23), each with the
//! article of seed 003 it applies, the reason given and who ruled.
//!
//! Every ending is one ruling of the rules crate ([`rules::rulings::RulingKind::Loss`],
//! `DoubleLoss`, `Draw`, `Replay`) added to the match's log, so the result, its method and the
//! match points come from [`rules::rulings::apply_rulings`] like every other decision:
//!
//! | ending | seed 003 | ruling |
//! |---|---|---|
//! | a team forfeits (弃权) | Arts. 15.2, 23.2 | loss by forfeit |
//! | a team withdraws (退出比赛) | Arts. 15.2, 23.2 | loss by forfeit |
//! | a stone moved on purpose (故意移子) | Art. 17.5, last sentence | loss |
//! | the board scattered by a player, not restorable (散乱棋局) | Art. 17.6, last sentence | loss |
//! | cheating (作弊) | Art. 23.1 | loss |
//! | double loss (双方均负) | Arts. 17.5 (5), 17.6 (3), 23.1 | double loss |
//! | draw (和棋) by the chief arbiter | Arts. 17.5 (3), 17.6 (1) | draw |
//! | replay (重赛) by the chief arbiter | Arts. 17.5 (4), 17.6 (2) | replay: no result |
//! | no eligible player for the section due | Arts. 10.3, 10.4, 24.3 | loss |
//! | triple ko, eternal life (三劫循环、长生) | Art. 20.3 | the event's choice: no result, draw, extra game |
//!
//! Readings chosen:
//!
//! - Art. 17.6's last sentence speaks of a player who scattered the board *inadvertently*
//!   ("确属无意中散乱了棋局 … 不能复盘的，则判散乱棋局一方为负"); a board that can be restored
//!   is simply restored, so only the loss is an ending here.
//! - \[INF\] Arts. 17.5 and 17.6 give the draw, the replay and the double loss to the chief
//!   arbiter (裁判长); Art. 23.1 names nobody, and a double loss for cheating is taken as the
//!   chief arbiter's too ([`Ending::chief_only`]; the database layer checks who records it).
//! - A knockout match must be decided (Art. 12 "淘汰赛中若双方下和，采用“节棋”办法定胜负"), so a
//!   draw ruled there (Arts. 17.5 (3), 17.6 (1), or a cycle ruled a draw, Art. 20.3) is not a
//!   result (rules.md decision, [`super::relay::KnockoutDraw`]): from move 144 the 节棋
//!   play-off follows from the position after move 143 as after a counted draw; before move
//!   144 (or always, by the event's setting) the game is replayed with the time each side had
//!   left. A draw ruled in the play-off itself is the play-off's second draw, Black's win
//!   (Art. 12 "若……再次和棋，则判黑方获胜") \[INF\]. A draw by count keeps Art. 12's procedure
//!   as it is written: the play-off.
//! - Art. 20.3 leaves a cycle's outcome to the event's supplementary rules ("如无胜负、和棋、加
//!   赛等"): the team settings choose (default no result, rules.md decisions). No result (无胜
//!   负) is replayed with the time each side had left; an extra game (加赛) is a new game with
//!   the event's full time \[INF\]. Nobody is at fault: the ruling names no side, and any arbiter
//!   records it (it applies the event's rule, it is no judgement of Arts. 17.5, 17.6).
//! - A replay with the time left needs the referee's reading of both clocks at the ruling
//!   (Art. 22.4), as the play-off does; without it the ruling is refused.
//! - \[INF\] A side with fewer than two players who may still play the section due (Art. 10.3
//!   needs two; Art. 10.4 bars those who played another section, Art. 24.3 the red-carded)
//!   loses the match. A vacancy at the board during a section is Art. 24.4's case instead (the
//!   carded player stays on), so this ending is for a section not yet started.
//! - While a knockout draw waits for the play-off, only a forfeit or a withdrawal can end the
//!   match (the other endings concern a game in play).

use rules::board::Color;
use rules::rulings::{LossReason, ResultMethod, Ruling, RulingKind};

use super::ix;
use super::lineup::{Section, SECTION_TWO_LAST};
use super::relay::{Effect, KnockoutDraw, Phase, Refusal, RelayMatch, Stage};
use super::values::ClockEntry;
pub use super::values::{EndRecord, Ending};
use super::{PersonId, Timestamp};

impl RelayMatch {
    /// The players of side `c` who may still play `section` (Art. 10.4: not on the board in
    /// another section of the original game; Art. 24.3: not barred). The play-off takes any
    /// player who is not barred (Art. 12).
    pub fn eligible_players(&self, c: Color, section: Section) -> Vec<PersonId> {
        let s = &self.sides[ix(c)];
        s.team
            .players
            .iter()
            .map(|p| p.id)
            .filter(|p| !s.barred.contains(p))
            .filter(|&p| {
                section == Section::Playoff
                    || !s.entered.iter().any(|&(q, sec)| q == p && sec != Section::Playoff && sec != section)
            })
            .collect()
    }

    /// The side that cannot field a line-up for the section due, if any: the section has not
    /// started, the side's line-up is not in, and fewer than two players may play it.
    pub fn short_of_players(&self) -> Option<(Color, Section, usize)> {
        if self.phase != Phase::Playing || self.moves >= self.section_first {
            return None;
        }
        [Color::Black, Color::White].into_iter().find_map(|c| {
            let n = self.eligible_players(c, self.section).len();
            (self.sides[ix(c)].lineups[self.section.index()].is_none() && n < 2).then_some((
                c,
                self.section,
                n,
            ))
        })
    }

    /// How the match ended, if by one of the [`Ending`]s.
    pub fn ending(&self) -> Option<&EndRecord> {
        self.ending.as_ref()
    }

    /// Who confirmed a resignation to the referee (Art. 14), if named.
    pub fn resigned_by(&self) -> Option<PersonId> {
        self.resigned_by
    }

    /// Checks the person who confirms side `c`'s resignation (Art. 14 "执行领队向当值裁判确认认
    /// 输"): of that team, not barred by a red card, not a player at the board (Art. 15.3: they
    /// may not leave their seats), and the executing leader itself: the first of Art. 10.1's
    /// order among those present ([`RelayMatch::acting_leader`]).
    pub(super) fn check_resigner(&self, c: Color, p: PersonId) -> Result<(), Refusal> {
        let s = &self.sides[ix(c)];
        if !s.team.contains(p) {
            return Err(Refusal::NotOnTeam { person: p, team: s.team.name.clone() });
        }
        if s.barred.contains(&p) {
            return Err(Refusal::Barred { person: p });
        }
        if s.seats.is_some_and(|seats| seats.contains(&Some(p))) {
            return Err(Refusal::ResignerAtBoard { person: p });
        }
        let executing = self.acting_leader(c);
        if executing.map(|e| e.person) != Some(p) {
            return Err(Refusal::NotExecutingLeader { side: c, person: p, executing });
        }
        Ok(())
    }

    /// The reading of both clocks after the last move (Art. 22.4), which a replay with the
    /// time each side had left starts from.
    fn time_left(&self) -> Result<ClockEntry, Refusal> {
        let playoff = self.section == Section::Playoff;
        self.clock_log
            .iter()
            .rev()
            .find(|e| e.move_number == self.moves && (e.section == Section::Playoff) == playoff)
            .copied()
            .ok_or(Refusal::ReplayClocksMissing { move_number: self.moves })
    }

    /// Ends the match by `ending` (see the module documentation).
    pub(super) fn end_by(
        &mut self,
        at: Timestamp,
        ending: Ending,
        side: Option<Color>,
        reason: &str,
        ruled_by: &str,
        fx: &mut Vec<Effect>,
    ) -> Result<(), Refusal> {
        match self.phase {
            Phase::Over => return Err(Refusal::MatchOver),
            Phase::PlayoffPending if !matches!(ending, Ending::Forfeit | Ending::Withdrawal) => {
                return Err(Refusal::PlayoffPending)
            }
            _ => {}
        }
        let side = if ending.one_side() { Some(side.ok_or(Refusal::EndNeedsSide)?) } else { None };
        if reason.trim().is_empty() {
            return Err(Refusal::EndReasonMissing);
        }
        if ending == Ending::NoEligiblePlayer {
            let c = side.expect("one side");
            let started = self.moves >= self.section_first;
            if self.phase != Phase::Playing
                || started
                || self.sides[ix(c)].lineups[self.section.index()].is_some()
            {
                return Err(Refusal::NoLineupDue { side: c });
            }
            let eligible = self.eligible_players(c, self.section).len();
            if eligible >= 2 {
                return Err(Refusal::StillEligible {
                    side: c,
                    section: self.section,
                    eligible: eligible as u32,
                });
            }
        }
        let mut ruling = ending.ruling(side, self.moves, &self.config.rules).expect("side checked above");
        let mut notes = Vec::new();
        let mut time_left = None;
        match ruling.kind {
            RulingKind::Draw if self.config.stage == Stage::Knockout => {
                if self.section == Section::Playoff {
                    ruling = Ruling::against(
                        RulingKind::Loss { reason: LossReason::Other },
                        Color::White,
                        self.moves,
                    );
                    notes.push(Effect::PlayoffDrawToBlack);
                } else if self.moves <= SECTION_TWO_LAST || self.config.knockout_draw == KnockoutDraw::Replay
                {
                    ruling = Ruling::both(RulingKind::Replay, self.moves);
                    notes.push(Effect::KnockoutDrawReplayed { early: self.moves <= SECTION_TWO_LAST });
                    time_left = Some(self.time_left()?);
                }
                // From move 144: `finish` sends the draw to the play-off.
            }
            RulingKind::NoResult => time_left = Some(self.time_left()?),
            _ => {}
        }
        if let Some(e) = time_left {
            notes.push(Effect::ReplayWithTimeLeft { clocks: e.clocks, clocks_after: e.move_number });
        }
        self.ending = Some(EndRecord {
            ending,
            side,
            reason: reason.trim().to_string(),
            ruled_by: ruled_by.trim().to_string(),
            section: self.section,
            move_number: self.moves,
            at,
            time_left,
        });
        self.phase = Phase::Playing;
        fx.push(Effect::Ended { ending, side });
        fx.extend(notes);
        self.add_rulings(vec![ruling], at, fx)
    }

    /// The time each side had left for the replay this match ended in (no result by Art.
    /// 20.3, or a knockout draw replayed), when it is played with it.
    pub fn replay_time_left(&self) -> Option<ClockEntry> {
        let replayed =
            self.result().is_some_and(|r| matches!(r.method, ResultMethod::Replay | ResultMethod::NoResult));
        self.ending.as_ref().filter(|_| replayed).and_then(|e| e.time_left)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use rules::ruleset::{CycleOutcome, RuleSet};

    #[test]
    fn codes_round_trip_and_rulings_match_the_articles() {
        let relay = RuleSet::chinese_team_relay();
        for e in Ending::ALL {
            assert_eq!(Ending::from_code(e.code()), Some(e));
            let r = e.ruling(Some(Color::Black), 10, &relay).unwrap();
            assert_eq!(r.against.is_some(), e.one_side(), "{e:?}");
            assert_eq!(e.chief_only(), !e.one_side() && e != Ending::Cycle);
        }
        assert_eq!(Ending::from_code("resign"), None);
        assert_eq!(Ending::Forfeit.ruling(None, 0, &relay), None, "a forfeit is some side's");
        // Art. 20.3: the event's choice, for nobody's fault.
        for (cycle, kind) in [
            (CycleOutcome::NoResult, RulingKind::NoResult),
            (CycleOutcome::Draw, RulingKind::Draw),
            (CycleOutcome::ExtraGame, RulingKind::Replay),
        ] {
            let rules = RuleSet { cycle, ..RuleSet::chinese_team_relay() };
            let r = Ending::Cycle.ruling(None, 150, &rules).unwrap();
            assert_eq!((r.kind, r.against), (kind, None), "{cycle:?}");
        }
        assert_eq!(
            Ending::ReplayScattered.ruling(None, 80, &relay).map(|r| r.kind),
            Some(RulingKind::Replay),
            "Art. 17.6 (2)"
        );
    }
}
