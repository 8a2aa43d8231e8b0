//! How a relay match ends besides a count or a resignation (issue 13 item 1), each with the
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
//!
//! Readings chosen:
//!
//! - Art. 17.6's last sentence speaks of a player who scattered the board *inadvertently*
//!   ("确属无意中散乱了棋局 … 不能复盘的，则判散乱棋局一方为负"); a board that can be restored
//!   is simply restored, so only the loss is an ending here.
//! - \[INF\] Arts. 17.5 and 17.6 give the draw, the replay and the double loss to the chief
//!   arbiter (裁判长); Art. 23.1 names nobody, and a double loss for cheating is taken as the
//!   chief arbiter's too ([`Ending::chief_only`]; the database layer checks who records it).
//! - \[INF\] The 节棋 play-off follows a draw by count only (Art. 12's procedure starts "当裁判
//!   数子完毕宣布和棋时"); a draw ruled by the chief arbiter is a draw, and a knockout bracket
//!   settles it by the event's knockout rules.
//! - \[INF\] A side with fewer than two players who may still play the section due (Art. 10.3
//!   needs two; Art. 10.4 bars those who played another section, Art. 24.3 the red-carded)
//!   loses the match. A vacancy at the board during a section is Art. 24.4's case instead (the
//!   carded player stays on), so this ending is for a section not yet started.
//! - While a knockout draw waits for the play-off, only a forfeit or a withdrawal can end the
//!   match (the other endings concern a game in play).

use rules::board::Color;
use rules::rulings::{DoubleLossReason, LossReason, Ruling, RulingKind};
use serde::{Deserialize, Serialize};

use super::ix;
use super::lineup::Section;
use super::relay::{Effect, Phase, Refusal, RelayMatch};
use super::{PersonId, Timestamp};

/// How a match ended, when not by count or resignation. The code is what forms and the stored
/// event carry; the page and the sheets render each with its article from the web catalog.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    Forfeit,
    Withdrawal,
    LossStoneMoved,
    LossScattered,
    LossCheating,
    DoubleLossStoneMoved,
    DoubleLossScattered,
    DoubleLossCheating,
    DrawStoneMoved,
    DrawScattered,
    ReplayStoneMoved,
    ReplayScattered,
    NoEligiblePlayer,
}

impl Ending {
    pub const ALL: [Ending; 13] = [
        Ending::Forfeit,
        Ending::Withdrawal,
        Ending::LossStoneMoved,
        Ending::LossScattered,
        Ending::LossCheating,
        Ending::NoEligiblePlayer,
        Ending::DoubleLossStoneMoved,
        Ending::DoubleLossScattered,
        Ending::DoubleLossCheating,
        Ending::DrawStoneMoved,
        Ending::DrawScattered,
        Ending::ReplayStoneMoved,
        Ending::ReplayScattered,
    ];

    pub fn code(self) -> &'static str {
        match self {
            Ending::Forfeit => "forfeit",
            Ending::Withdrawal => "withdrawal",
            Ending::LossStoneMoved => "loss_stone_moved",
            Ending::LossScattered => "loss_scattered",
            Ending::LossCheating => "loss_cheating",
            Ending::DoubleLossStoneMoved => "double_loss_stone_moved",
            Ending::DoubleLossScattered => "double_loss_scattered",
            Ending::DoubleLossCheating => "double_loss_cheating",
            Ending::DrawStoneMoved => "draw_stone_moved",
            Ending::DrawScattered => "draw_scattered",
            Ending::ReplayStoneMoved => "replay_stone_moved",
            Ending::ReplayScattered => "replay_scattered",
            Ending::NoEligiblePlayer => "no_eligible_player",
        }
    }

    pub fn from_code(s: &str) -> Option<Ending> {
        Ending::ALL.into_iter().find(|e| e.code() == s.trim())
    }

    /// Whether the ending is against one side (else it concerns both).
    pub fn one_side(self) -> bool {
        matches!(
            self,
            Ending::Forfeit
                | Ending::Withdrawal
                | Ending::LossStoneMoved
                | Ending::LossScattered
                | Ending::LossCheating
                | Ending::NoEligiblePlayer
        )
    }

    /// Rulings the chief arbiter (裁判长) gives (Arts. 17.5, 17.6; a double loss for cheating
    /// \[INF\]).
    pub fn chief_only(self) -> bool {
        !self.one_side()
    }

    /// The rules crate's ruling for this ending against `side` at `move_number`.
    pub fn ruling(self, side: Option<Color>, move_number: u32) -> Option<Ruling> {
        let loss = |reason| side.map(|c| Ruling::against(RulingKind::Loss { reason }, c, move_number));
        let both = |kind| Some(Ruling::both(kind, move_number));
        match self {
            Ending::Forfeit | Ending::Withdrawal => loss(LossReason::Forfeit),
            Ending::LossStoneMoved => loss(LossReason::IntentionalStoneMoving),
            Ending::LossScattered => loss(LossReason::ScatteredBoard),
            Ending::LossCheating => loss(LossReason::Cheating),
            Ending::NoEligiblePlayer => loss(LossReason::Other),
            Ending::DoubleLossStoneMoved => {
                both(RulingKind::DoubleLoss { reason: DoubleLossReason::StoneMoved })
            }
            Ending::DoubleLossScattered => {
                both(RulingKind::DoubleLoss { reason: DoubleLossReason::ScatteredBoard })
            }
            Ending::DoubleLossCheating => both(RulingKind::DoubleLoss { reason: DoubleLossReason::Cheating }),
            Ending::DrawStoneMoved | Ending::DrawScattered => both(RulingKind::Draw),
            Ending::ReplayStoneMoved | Ending::ReplayScattered => both(RulingKind::Replay),
        }
    }
}

/// The ending as recorded: what, against whom, why, who ruled, and where in the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndRecord {
    pub ending: Ending,
    /// The side it is against (`None` for a double loss, a draw or a replay).
    pub side: Option<Color>,
    pub reason: String,
    pub ruled_by: String,
    pub section: Section,
    pub move_number: u32,
    pub at: Timestamp,
}

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

    /// Checks the person who confirms side `c`'s resignation (Art. 14: the executing leader,
    /// Art. 10.1): of that team, not barred by a red card, not a player at the board (Art.
    /// 15.3: they may not leave their seats).
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
        Ok(())
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
        let ruling = ending.ruling(side, self.moves).expect("side checked above");
        self.ending = Some(EndRecord {
            ending,
            side,
            reason: reason.trim().to_string(),
            ruled_by: ruled_by.trim().to_string(),
            section: self.section,
            move_number: self.moves,
            at,
        });
        self.phase = Phase::Playing;
        fx.push(Effect::Ended { ending, side });
        self.add_rulings(vec![ruling], at, fx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_rulings_match_the_articles() {
        for e in Ending::ALL {
            assert_eq!(Ending::from_code(e.code()), Some(e));
            let r = e.ruling(Some(Color::Black), 10).unwrap();
            assert_eq!(r.against.is_some(), e.one_side(), "{e:?}");
            assert_eq!(e.chief_only(), !e.one_side());
        }
        assert_eq!(Ending::from_code("resign"), None);
        assert_eq!(Ending::Forfeit.ruling(None, 0), None, "a forfeit is some side's");
        assert_eq!(
            Ending::ReplayScattered.ruling(None, 80).map(|r| r.kind),
            Some(RulingKind::Replay),
            "Art. 17.6 (2)"
        );
    }
}
