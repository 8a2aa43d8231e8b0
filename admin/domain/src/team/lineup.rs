//! Sections (节) and line-ups (出场名单).
//!
//! Seed 003 Art. 10.2: "每盘棋的比赛都分为3节：第1节从第1手至第72手，第2节从73手至143手，第3节从
//! 144手至比赛结束。每节间休息时间为5分钟，期间计时暂停。" Art. 10.1: "每节开始前5分钟各领队向裁判组
//! 提交本节出场名单及出场位置号。" Art. 10.3: two players per side per section, seated crosswise,
//! moving clockwise; the player listed first on each side presses the clock. Art. 10.4: a player
//! plays at most one section, a substitute at most finishes the current section, a player who
//! has played may not come on again. Art. 24.3: a red-carded person is barred from this game and
//! the next.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::relay::Refusal;
use super::roster::Team;
use super::{PersonId, Timestamp};

/// Last move of section 1 (seed 003 Art. 10.2).
pub const SECTION_ONE_LAST: u32 = 72;
/// Last move of section 2 (seed 003 Art. 10.2); the play-off restores the game to here
/// (Art. 12).
pub const SECTION_TWO_LAST: u32 = 143;

/// A section of a relay game, or the play-off (which replays section 3, Art. 12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Section {
    One,
    Two,
    Three,
    Playoff,
}

impl Section {
    pub const ALL: [Section; 4] = [Section::One, Section::Two, Section::Three, Section::Playoff];

    pub fn index(self) -> usize {
        match self {
            Section::One => 0,
            Section::Two => 1,
            Section::Three => 2,
            Section::Playoff => 3,
        }
    }

    /// The first move of the section by the rules (Art. 10.2; the play-off starts at 144).
    pub fn first_move(self) -> u32 {
        match self {
            Section::One => 1,
            Section::Two => SECTION_ONE_LAST + 1,
            Section::Three | Section::Playoff => SECTION_TWO_LAST + 1,
        }
    }

    /// The last move of the section's quota (Art. 10.2, 17.8); `None` for section 3 and the
    /// play-off, which run to the end of the game.
    pub fn last_move(self) -> Option<u32> {
        match self {
            Section::One => Some(SECTION_ONE_LAST),
            Section::Two => Some(SECTION_TWO_LAST),
            Section::Three | Section::Playoff => None,
        }
    }

    /// The section after this one in the original game.
    pub fn next(self) -> Option<Section> {
        match self {
            Section::One => Some(Section::Two),
            Section::Two => Some(Section::Three),
            Section::Three | Section::Playoff => None,
        }
    }
}

/// A side's line-up for one section: `players[0]` is listed first (出场位置号 1): it makes the
/// side's first move of the section and presses the clock (Art. 10.3); `players[1]` second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lineup {
    pub players: [PersonId; 2],
    pub submitted_at: Timestamp,
    /// Handed in this many seconds after its deadline: recorded with its lateness, and
    /// the referee decides what follows.
    #[serde(default)]
    pub late_secs: i64,
}

/// What a line-up is checked against.
pub struct LineupContext<'a> {
    pub team: &'a Team,
    /// Barred by a red card in this game or the previous one (Art. 24.3).
    pub barred: &'a BTreeSet<PersonId>,
    /// The side's line-ups of the other sections of the original game.
    pub other_lineups: Vec<(Section, [PersonId; 2])>,
    /// Everyone who has been on the board, and in which section (substitutes included).
    pub entered: &'a [(PersonId, Section)],
}

/// The player checks of a line-up for `section` (the deadline and the section's state are the
/// match's business). The 节棋 play-off takes any two players of the team list who are not
/// barred (Art. 12 "双方各派大名单内任意两名棋手"); the original sections apply Art. 10.4 too.
pub fn check_players(ctx: &LineupContext, section: Section, players: [PersonId; 2]) -> Result<(), Refusal> {
    if players[0] == players[1] {
        return Err(Refusal::SamePlayerTwice { person: players[0] });
    }
    for p in players {
        if !ctx.team.contains(p) {
            return Err(Refusal::NotOnTeam { person: p, team: ctx.team.name.clone() });
        }
        if !ctx.team.is_player(p) {
            return Err(Refusal::NotAPlayer { person: p });
        }
        if ctx.barred.contains(&p) {
            return Err(Refusal::Barred { person: p });
        }
        if section == Section::Playoff {
            continue;
        }
        if let Some(&(s, _)) = ctx.other_lineups.iter().find(|(_, ps)| ps.contains(&p)) {
            return Err(Refusal::PlaysAnotherSection { person: p, section: s });
        }
        if let Some(&(_, s)) = ctx.entered.iter().find(|&&(q, s)| q == p && s != Section::Playoff) {
            return Err(Refusal::HasPlayed { person: p, section: s });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::roster::fixtures::team;
    use super::*;

    #[test]
    fn section_bounds_follow_art_10_2() {
        assert_eq!((Section::One.first_move(), Section::One.last_move()), (1, Some(72)));
        assert_eq!((Section::Two.first_move(), Section::Two.last_move()), (73, Some(143)));
        assert_eq!((Section::Three.first_move(), Section::Three.last_move()), (144, None));
        assert_eq!(Section::Playoff.first_move(), 144);
        assert_eq!(Section::One.next(), Some(Section::Two));
        assert_eq!(Section::Three.next(), None);
    }

    #[test]
    fn player_checks() {
        let t = team(1, 100, 8);
        let barred: BTreeSet<PersonId> = [118].into();
        let entered = vec![(111, Section::One), (112, Section::One), (117, Section::One)];
        let ctx = LineupContext {
            team: &t,
            barred: &barred,
            other_lineups: vec![(Section::One, [111, 112])],
            entered: &entered,
        };
        assert_eq!(check_players(&ctx, Section::Two, [113, 114]), Ok(()));
        assert_eq!(
            check_players(&ctx, Section::Two, [113, 113]),
            Err(Refusal::SamePlayerTwice { person: 113 })
        );
        assert!(matches!(check_players(&ctx, Section::Two, [113, 999]), Err(Refusal::NotOnTeam { .. })));
        assert_eq!(check_players(&ctx, Section::Two, [100, 113]), Err(Refusal::NotAPlayer { person: 100 }));
        assert_eq!(check_players(&ctx, Section::Two, [118, 113]), Err(Refusal::Barred { person: 118 }));
        assert_eq!(
            check_players(&ctx, Section::Two, [113, 111]),
            Err(Refusal::PlaysAnotherSection { person: 111, section: Section::One })
        );
        // 117 came on as a substitute in section 1: cannot return.
        assert_eq!(
            check_players(&ctx, Section::Two, [117, 113]),
            Err(Refusal::HasPlayed { person: 117, section: Section::One })
        );
        // The play-off takes any two players who are not barred.
        assert_eq!(check_players(&ctx, Section::Playoff, [111, 117]), Ok(()));
        assert_eq!(check_players(&ctx, Section::Playoff, [111, 118]), Err(Refusal::Barred { person: 118 }));
    }
}
