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

use super::roster::Team;
pub use super::values::{Section, SECTION_ONE_LAST, SECTION_TWO_LAST};
use super::{PersonId, Timestamp};

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

#[cfg(test)]
mod tests {
    use super::super::relay::{check_players, Refusal};
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
