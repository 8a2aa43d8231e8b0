//! Teams: leader, coach, captain and players with position numbers (位置号), and the
//! executing leader (执行领队).
//!
//! Seed 003 Art. 10.1: "围棋队际赛以队为单位，每队由领队、教练员和队员组成 … 领队未到场时依次由
//! 教练、队长、第3、2、1节上场队员位置号从小到大的顺序担任执行领队" — a team consists of a leader,
//! a coach and players; when the leader is absent, the coach, then the captain, then the players
//! of section 3, 2 and 1 in ascending position number act as executing leader.

use serde::{Deserialize, Serialize};

use super::values::Section;
use super::{PersonId, TeamId};

/// A full relay game needs 3 sections × 2 players, and a player plays at most one section
/// (seed 003 Arts. 10.2–10.4), so a team needs at least six players \[INF\].
pub const RELAY_MIN_PLAYERS: usize = 6;

/// A leader or coach.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Staff {
    pub id: PersonId,
    pub name: String,
}

/// A player of the team list (大名单) with the position number (位置号) by which Art. 10.1
/// orders the executing leader and the line-up forms print the players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RosterPlayer {
    pub id: PersonId,
    pub name: String,
    /// 位置号, from 1, unique within the team.
    pub position: u32,
}

/// A team (seed 003 Art. 10.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Team {
    pub id: TeamId,
    pub name: String,
    /// 领队.
    pub leader: Option<Staff>,
    /// 教练员.
    pub coach: Option<Staff>,
    /// 队长: one of the players \[INF: Art. 10.1 names the captain beside the players in the
    /// analysis room and in the executing-leader order; Chinese team captains are players\].
    pub captain: Option<PersonId>,
    pub players: Vec<RosterPlayer>,
}

/// What a person is in a team.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    Leader,
    Coach,
    Player { captain: bool },
}

/// Why the executing leader is who it is (Art. 10.1 order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LeaderBasis {
    Leader,
    Coach,
    Captain,
    /// A player of this section, the lowest position number present.
    SectionPlayer(Section),
}

/// The executing leader (执行领队) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExecutingLeader {
    pub person: PersonId,
    pub basis: LeaderBasis,
}

/// What is wrong with a team list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RosterError {
    DuplicatePerson(PersonId),
    DuplicatePosition(u32),
    ZeroPosition(PersonId),
    EmptyName(PersonId),
    CaptainNotAPlayer(PersonId),
    TooFewPlayers { have: usize, need: usize },
}

impl Team {
    /// Everyone in the team: leader, coach, players.
    pub fn people(&self) -> impl Iterator<Item = PersonId> + '_ {
        self.leader
            .iter()
            .map(|s| s.id)
            .chain(self.coach.iter().map(|s| s.id))
            .chain(self.players.iter().map(|p| p.id))
    }

    pub fn contains(&self, id: PersonId) -> bool {
        self.people().any(|p| p == id)
    }

    pub fn player(&self, id: PersonId) -> Option<&RosterPlayer> {
        self.players.iter().find(|p| p.id == id)
    }

    pub fn is_player(&self, id: PersonId) -> bool {
        self.player(id).is_some()
    }

    /// Position number of a player.
    pub fn position(&self, id: PersonId) -> Option<u32> {
        self.player(id).map(|p| p.position)
    }

    pub fn name_of(&self, id: PersonId) -> Option<&str> {
        if let Some(p) = self.player(id) {
            return Some(&p.name);
        }
        self.leader.iter().chain(self.coach.iter()).find(|s| s.id == id).map(|s| s.name.as_str())
    }

    pub fn role_of(&self, id: PersonId) -> Option<Role> {
        if self.is_player(id) {
            return Some(Role::Player { captain: self.captain == Some(id) });
        }
        if self.leader.as_ref().is_some_and(|s| s.id == id) {
            return Some(Role::Leader);
        }
        if self.coach.as_ref().is_some_and(|s| s.id == id) {
            return Some(Role::Coach);
        }
        None
    }

    /// Checks ids, names, position numbers and the captain.
    pub fn validate(&self) -> Result<(), RosterError> {
        let mut seen = std::collections::BTreeSet::new();
        for id in self.people() {
            if !seen.insert(id) {
                return Err(RosterError::DuplicatePerson(id));
            }
        }
        for s in self.leader.iter().chain(self.coach.iter()) {
            if s.name.trim().is_empty() {
                return Err(RosterError::EmptyName(s.id));
            }
        }
        let mut positions = std::collections::BTreeSet::new();
        for p in &self.players {
            if p.name.trim().is_empty() {
                return Err(RosterError::EmptyName(p.id));
            }
            if p.position == 0 {
                return Err(RosterError::ZeroPosition(p.id));
            }
            if !positions.insert(p.position) {
                return Err(RosterError::DuplicatePosition(p.position));
            }
        }
        if let Some(c) = self.captain {
            if !self.is_player(c) {
                return Err(RosterError::CaptainNotAPlayer(c));
            }
        }
        Ok(())
    }

    /// [`validate`](Self::validate) plus the relay minimum of [`RELAY_MIN_PLAYERS`].
    pub fn validate_for_relay(&self) -> Result<(), RosterError> {
        self.validate()?;
        if self.players.len() < RELAY_MIN_PLAYERS {
            return Err(RosterError::TooFewPlayers { have: self.players.len(), need: RELAY_MIN_PLAYERS });
        }
        Ok(())
    }

    /// The executing leader (seed 003 Art. 10.1): the leader if present, else the coach, else
    /// the captain, else the players of section 3, then 2, then 1, each section in ascending
    /// position number. `present` says who is available to act (a player seated at the board
    /// is not: Art. 15.3 forbids leaving the seat \[INF\]); `section_players[k]` lists who played
    /// (or is lined up for) section k + 1.
    pub fn executing_leader(
        &self,
        present: &dyn Fn(PersonId) -> bool,
        section_players: [&[PersonId]; 3],
    ) -> Option<ExecutingLeader> {
        let staff = [
            (self.leader.as_ref().map(|s| s.id), LeaderBasis::Leader),
            (self.coach.as_ref().map(|s| s.id), LeaderBasis::Coach),
            (self.captain, LeaderBasis::Captain),
        ];
        for (id, basis) in staff {
            if let Some(id) = id.filter(|&id| present(id)) {
                return Some(ExecutingLeader { person: id, basis });
            }
        }
        for (k, section) in [(2, Section::Three), (1, Section::Two), (0, Section::One)] {
            let mut ps: Vec<(u32, PersonId)> =
                section_players[k].iter().filter_map(|&id| self.position(id).map(|pos| (pos, id))).collect();
            ps.sort();
            if let Some(&(_, id)) = ps.iter().find(|&&(_, id)| present(id)) {
                return Some(ExecutingLeader { person: id, basis: LeaderBasis::SectionPlayer(section) });
            }
        }
        None
    }
}

#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;

    /// A team with leader `base`, coach `base + 1` and players `base + 10 + k` at position
    /// `k` for k = 1..=n; the captain is the player at position 1.
    pub fn team(id: TeamId, base: PersonId, n: u32) -> Team {
        Team {
            id,
            name: format!("Team {id}"),
            leader: Some(Staff { id: base, name: format!("Leader {id}") }),
            coach: Some(Staff { id: base + 1, name: format!("Coach {id}") }),
            captain: Some(base + 11),
            players: (1..=n)
                .map(|k| RosterPlayer { id: base + 10 + k, name: format!("P{id}-{k}"), position: k })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::team;
    use super::*;

    #[test]
    fn roles_and_validation() {
        let t = team(1, 100, 8);
        t.validate_for_relay().unwrap();
        assert_eq!(t.role_of(100), Some(Role::Leader));
        assert_eq!(t.role_of(101), Some(Role::Coach));
        assert_eq!(t.role_of(111), Some(Role::Player { captain: true }));
        assert_eq!(t.role_of(112), Some(Role::Player { captain: false }));
        assert_eq!(t.role_of(999), None);
        assert_eq!(t.name_of(101), Some("Coach 1"));
        assert_eq!(t.position(113), Some(3));

        let mut dup = t.clone();
        dup.players[1].position = 1;
        assert_eq!(dup.validate(), Err(RosterError::DuplicatePosition(1)));
        let mut dup = t.clone();
        dup.players[1].id = 100;
        assert_eq!(dup.validate(), Err(RosterError::DuplicatePerson(100)));
        let mut cap = t.clone();
        cap.captain = Some(101);
        assert_eq!(cap.validate(), Err(RosterError::CaptainNotAPlayer(101)));
        let mut zero = t.clone();
        zero.players[0].position = 0;
        assert_eq!(zero.validate(), Err(RosterError::ZeroPosition(111)));
        let small = team(2, 200, 5);
        small.validate().unwrap();
        let e = small.validate_for_relay().unwrap_err();
        assert_eq!(e, RosterError::TooFewPlayers { have: 5, need: 6 });
    }

    /// Seed 003 Art. 10.1: leader, coach, captain, then section 3, 2, 1 players by ascending
    /// position number.
    #[test]
    fn executing_leader_follows_art_10_1() {
        let t = team(1, 100, 8);
        let s1 = [112, 111];
        let s2 = [114, 113];
        let s3 = [116, 115];
        let lead = |absent: &[PersonId]| {
            let absent = absent.to_vec();
            t.executing_leader(&move |p| !absent.contains(&p), [&s1, &s2, &s3])
        };
        assert_eq!(lead(&[]), Some(ExecutingLeader { person: 100, basis: LeaderBasis::Leader }));
        assert_eq!(lead(&[100]), Some(ExecutingLeader { person: 101, basis: LeaderBasis::Coach }));
        assert_eq!(lead(&[100, 101]), Some(ExecutingLeader { person: 111, basis: LeaderBasis::Captain }));
        // Captain absent: section 3 players, the lower position number (115 is position 5).
        assert_eq!(
            lead(&[100, 101, 111]),
            Some(ExecutingLeader { person: 115, basis: LeaderBasis::SectionPlayer(Section::Three) })
        );
        assert_eq!(
            lead(&[100, 101, 111, 115]),
            Some(ExecutingLeader { person: 116, basis: LeaderBasis::SectionPlayer(Section::Three) })
        );
        assert_eq!(
            lead(&[100, 101, 111, 115, 116]),
            Some(ExecutingLeader { person: 113, basis: LeaderBasis::SectionPlayer(Section::Two) })
        );
        // Section 1: the captain (111) is absent, so 112.
        assert_eq!(
            lead(&[100, 101, 111, 113, 114, 115, 116]),
            Some(ExecutingLeader { person: 112, basis: LeaderBasis::SectionPlayer(Section::One) })
        );
        assert_eq!(lead(&[100, 101, 111, 112, 113, 114, 115, 116]), None);
    }
}
