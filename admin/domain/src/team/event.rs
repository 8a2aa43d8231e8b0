//! The settings of a team event (a tournament with system "team"): relay or board matches, how
//! matches score, how rounds are paired, and what they become for the relay state machine,
//! the board-match scorer, the standings and the pairing engine.
//!
//! Defaults follow seed 003 and rules.md §13: relay matches, 3/1/0 (Art. 12), an equal count
//! is a draw (Art. 12; "White wins on an equal count" is the event's choice, Art. 12 注),
//! round robin, the generic tie-breaks of §13.3.

use rules::outcome::JigoRule;
use rules::ruleset::{CycleOutcome, Preset, RuleSet};
use serde::{Deserialize, Serialize};

use super::board_match::{BoardMatchConfig, MatchPointRule};
use super::relay::{KnockoutDraw, PlayoffClock, RelayConfig, Stage};
use super::roster::{Team, RELAY_MIN_PLAYERS};
use super::standings::{MatchPoints, TeamTieBreak};
use super::TeamId;
use crate::draw::nigiri::NigiriRule;
use crate::pairing::ColourMethod;

macro_rules! codes {
    ($(#[$m:meta])* $name:ident { $($variant:ident = $code:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum $name { $(#[serde(rename = $code)] $variant),+ }
        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            pub fn code(self) -> &'static str { match self { $($name::$variant => $code),+ } }
            pub fn from_code(s: &str) -> Option<$name> {
                match s.trim() { $($code => Some($name::$variant),)+ _ => None }
            }
        }
    };
}

codes!(
    /// Pair-relay matches (seed 003) or board matches (rules.md §13.2–13.3).
    Format { Relay = "relay", Boards = "boards" }
);
codes!(
    /// Match points: 3/1/0 (Art. 12), 2/1/0 (rules.md §13.3), or the main-board rule (§13.2).
    MatchPointCode { ThreeOneZero = "3-1-0", TwoOneZero = "2-1-0", MainBoard = "main_board" }
);
codes!(
    /// How rounds are paired: Berger round robin, Swiss through the individual engine, knockout.
    TeamPairing { RoundRobin = "round_robin", Swiss = "swiss", Knockout = "knockout" }
);
codes!(
    /// What an equal relay count is (Art. 12 and its 注).
    EqualCount { Draw = "draw", White = "white" }
);
codes!(
    /// Tie-breaks after match points: rules.md §13.3 or §13.2 (围甲).
    TieBreakSet { Generic = "generic", Weijia = "weijia" }
);
codes!(
    /// Who plays Black in a relay match (seed 003 Art. 11: "由大会抽签编排或对局前由领队猜先决定",
    /// the event's regulations say which): the pairing's colours (the organiser's draw), or a
    /// nigiri between the team leaders before the match.
    Colours { Draw = "draw", LeadersNigiri = "leaders_nigiri" }
);
codes!(
    /// Which remaining time the 节棋 play-off is played with (Art. 12): when the drawn game
    /// ended, or at the end of section 2 ([`PlayoffClock`]).
    PlayoffTime { GameEnd = "game_end", SectionTwoEnd = "section_two_end" }
);

codes!(
    /// What a round-robin bye (轮空) is worth: in a round robin a bye is no
    /// match, so by default it scores nothing and counts in no tie-break; an event may give it
    /// a win's match points. Swiss and knockout byes are a win (rules.md §14.5).
    RoundRobinBye { Nothing = "none", Win = "win" }
);
codes!(
    /// What a triple ko or eternal life ends a relay match with (seed 003 Art. 20.3: "根据不同
    /// 比赛，也可制定相应的补充规定，如无胜负、和棋、加赛等"): no result, replayed with the time
    /// each side had left (rules.md decisions: the default), a draw, or an extra game.
    CycleRule { NoResult = "no_result", Draw = "draw", ExtraGame = "extra_game" }
);
codes!(
    /// What a draw ruled in a relay knockout becomes (rules.md decision for Arts. 12, 17.5 (3),
    /// 17.6 (1), [`KnockoutDraw`]): the play-off from move 144 and a replay before it, or a
    /// replay always.
    KnockoutDrawRule { ByMove = "by_move", Replay = "replay" }
);

/// The most boards a board match may have.
pub const MAX_BOARDS: u32 = 20;

/// A team event's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamSettings {
    pub format: Format,
    /// Boards per match (board matches).
    pub boards: u32,
    pub match_points: MatchPointCode,
    /// The main board (主将台), from 1: required by the main-board rule, counted by the 围甲
    /// tie-breaks.
    pub main_board: Option<u32>,
    pub pairing: TeamPairing,
    pub equal_count: EqualCount,
    pub tiebreaks: TieBreakSet,
    /// Relay knockouts: the time the play-off starts from (Art. 12).
    pub playoff_clock: PlayoffTime,
    /// Relay matches: colours by the draw or by the leaders' nigiri (Art. 11).
    pub colours: Colours,
    /// What a round-robin bye is worth.
    pub rr_bye: RoundRobinBye,
    /// Relay matches: the ending of a triple ko or eternal life (Art. 20.3).
    pub cycle: CycleRule,
    /// Relay knockouts: what a ruled draw becomes.
    pub knockout_draw: KnockoutDrawRule,
}

impl Default for TeamSettings {
    fn default() -> Self {
        TeamSettings {
            format: Format::Relay,
            boards: 4,
            match_points: MatchPointCode::ThreeOneZero,
            main_board: None,
            pairing: TeamPairing::RoundRobin,
            equal_count: EqualCount::Draw,
            tiebreaks: TieBreakSet::Generic,
            playoff_clock: PlayoffTime::GameEnd,
            colours: Colours::Draw,
            rr_bye: RoundRobinBye::Nothing,
            cycle: CycleRule::NoResult,
            knockout_draw: KnockoutDrawRule::ByMove,
        }
    }
}

/// What is wrong with team settings (the form field it belongs to).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TeamSettingsError {
    Boards,
    /// The main-board rule is for board matches, and needs a main board.
    MainBoardRule,
    MainBoardOutOfRange,
    /// The leaders' nigiri of Art. 11 is for relay matches; board matches take colours by
    /// board (rules.md §13.3).
    NigiriRelayOnly,
}

impl TeamSettingsError {
    pub fn field(self) -> &'static str {
        match self {
            TeamSettingsError::Boards => "boards",
            TeamSettingsError::MainBoardRule => "match_points",
            TeamSettingsError::MainBoardOutOfRange => "main_board",
            TeamSettingsError::NigiriRelayOnly => "colours",
        }
    }
}

impl TeamSettings {
    pub fn validate(&self) -> Result<(), TeamSettingsError> {
        if self.boards == 0 || self.boards > MAX_BOARDS {
            return Err(TeamSettingsError::Boards);
        }
        if self.match_points == MatchPointCode::MainBoard
            && (self.format == Format::Relay || self.main_board.is_none())
        {
            return Err(TeamSettingsError::MainBoardRule);
        }
        if self.main_board.is_some_and(|b| b == 0 || b > self.boards) {
            return Err(TeamSettingsError::MainBoardOutOfRange);
        }
        if self.colours == Colours::LeadersNigiri && self.format != Format::Relay {
            return Err(TeamSettingsError::NigiriRelayOnly);
        }
        Ok(())
    }

    /// The stage of this event's matches: a knockout breaks relay draws by the 节棋 play-off.
    pub fn stage(&self) -> Stage {
        match self.pairing {
            TeamPairing::Knockout => Stage::Knockout,
            TeamPairing::RoundRobin | TeamPairing::Swiss => Stage::RoundRobin,
        }
    }

    /// Match points of the 3/1/0 or 2/1/0 scale (the main-board rule is 3 : 0 or 2 : 1).
    pub fn scale(&self) -> MatchPoints {
        match self.match_points {
            MatchPointCode::TwoOneZero => MatchPoints::TWO_ONE_ZERO,
            MatchPointCode::ThreeOneZero | MatchPointCode::MainBoard => MatchPoints::THREE_ONE_ZERO,
        }
    }

    /// The relay configuration: seed 003's defaults with the event's rule set when it is the
    /// team relay preset (komi 3½ unless the organizer changed it), the relay preset otherwise;
    /// the event's reading of an equal count (Art. 12 注), match points and stage.
    pub fn relay_config(&self, tournament_rules: &RuleSet) -> RelayConfig {
        let mut rules = if tournament_rules.preset == Preset::ChineseTeamRelay {
            tournament_rules.clone()
        } else {
            RuleSet::chinese_team_relay()
        };
        rules.jigo = match self.equal_count {
            EqualCount::Draw => JigoRule::Draw,
            EqualCount::White => JigoRule::WhiteWins,
        };
        rules.cycle = match self.cycle {
            CycleRule::NoResult => CycleOutcome::NoResult,
            CycleRule::Draw => CycleOutcome::Draw,
            CycleRule::ExtraGame => CycleOutcome::ExtraGame,
        };
        let playoff_clock = match self.playoff_clock {
            PlayoffTime::GameEnd => PlayoffClock::AtGameEnd,
            PlayoffTime::SectionTwoEnd => PlayoffClock::AtSectionTwoEnd,
        };
        let knockout_draw = match self.knockout_draw {
            KnockoutDrawRule::ByMove => KnockoutDraw::ByMove,
            KnockoutDrawRule::Replay => KnockoutDraw::Replay,
        };
        RelayConfig {
            rules,
            stage: self.stage(),
            points: self.scale(),
            playoff_clock,
            knockout_draw,
            ..RelayConfig::default()
        }
    }

    /// The board-match scoring: 2/1/0 per board, match points by the event's rule.
    pub fn board_config(&self) -> BoardMatchConfig {
        let rule = match self.match_points {
            MatchPointCode::MainBoard => MatchPointRule::MainBoard,
            _ => MatchPointRule::Scale { points: self.scale() },
        };
        BoardMatchConfig {
            boards: self.boards,
            board_points: MatchPoints::TWO_ONE_ZERO,
            rule,
            main_board: self.main_board,
        }
    }

    /// Tie-breaks after match points. Relay matches have no game points or boards: matches
    /// among the tied teams, then wins.
    pub fn tiebreaks(&self) -> Vec<TeamTieBreak> {
        match (self.format, self.tiebreaks) {
            (Format::Relay, _) => vec![TeamTieBreak::HeadToHead, TeamTieBreak::Wins],
            (Format::Boards, TieBreakSet::Generic) => TeamTieBreak::GENERIC.to_vec(),
            (Format::Boards, TieBreakSet::Weijia) if self.main_board.is_some() => {
                TeamTieBreak::WEIJIA.to_vec()
            }
            (Format::Boards, TieBreakSet::Weijia) => {
                vec![TeamTieBreak::GamePoints, TeamTieBreak::BoardWins { board: 1 }]
            }
        }
    }

    /// How the pairing engines give colours to this event's matches (Art. 11): balanced by
    /// the pairing (the organiser's draw), or a nigiri per relay match whose holder and guesser
    /// the engines name — by a recorded lot from the table's seed, since the leaders' ranks and
    /// ages are not on file (`draw::nigiri::roles`) — the guessing team Black provisionally.
    pub fn colour_method(&self) -> ColourMethod {
        match (self.colours, self.format) {
            (Colours::LeadersNigiri, Format::Relay) => {
                ColourMethod::Nigiri { remote: false, rule: NigiriRule::Art10 }
            }
            _ => ColourMethod::Balanced,
        }
    }

    /// Match points of a bye: a win in a Swiss or a knockout (rules.md §14.5); nothing in a
    /// round robin, where a bye is no match, unless the event's setting gives it a win.
    pub fn bye_points(&self) -> u32 {
        match (self.pairing, self.rr_bye) {
            (TeamPairing::RoundRobin, RoundRobinBye::Nothing) => 0,
            _ => self.scale().win,
        }
    }

    /// Players a team needs to play this event's matches: a relay game has three sections of
    /// two and a player plays at most one section (seed 003 Arts. 10.2–10.4: six); a board
    /// match one player a board (rules.md §13.2).
    pub fn players_needed(&self) -> usize {
        match self.format {
            Format::Relay => RELAY_MIN_PLAYERS,
            Format::Boards => self.boards as usize,
        }
    }

    /// The teams (id, players) with fewer players than [`Self::players_needed`]: warned where
    /// rosters and settings are saved, refused when a round is paired (seed 003 Art. 10.2:
    /// three sections of two players each, so a relay team needs six).
    pub fn short_teams<'a>(&self, teams: impl IntoIterator<Item = &'a Team>) -> Vec<(TeamId, usize)> {
        let need = self.players_needed();
        teams.into_iter().filter(|t| t.players.len() < need).map(|t| (t.id, t.players.len())).collect()
    }

    /// The rule set the event's games are played under: a relay event's matches use the team
    /// relay rules of [`Self::relay_config`] whatever the tournament's preset; board matches
    /// are individual games under the tournament's rules (rules.md §0, governing texts).
    pub fn game_rules(&self, tournament_rules: &RuleSet) -> RuleSet {
        match self.format {
            Format::Relay => self.relay_config(tournament_rules).rules,
            Format::Boards => tournament_rules.clone(),
        }
    }

    /// A relay event whose tournament rule set is not the team relay preset: its matches are
    /// played under seed 003 regardless (komi 3½), which the organizer should see and fix.
    pub fn keeps_individual_rules(&self, tournament_rules: &RuleSet) -> bool {
        self.format == Format::Relay && tournament_rules.preset != Preset::ChineseTeamRelay
    }

    /// Boards per match of this event's matches (0: relay).
    pub fn match_boards(&self) -> u32 {
        match self.format {
            Format::Relay => 0,
            Format::Boards => self.boards,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_seed_003() {
        let s = TeamSettings::default();
        s.validate().unwrap();
        let c = s.relay_config(&RuleSet::chinese_2002());
        assert_eq!(c.rules.komi_q, 14, "komi 3½ (Art. 12), not the individual 3¾");
        assert_eq!(c.rules.jigo, JigoRule::Draw);
        assert_eq!(c.points, MatchPoints::THREE_ONE_ZERO);
        assert_eq!(c.stage, Stage::RoundRobin);
        assert_eq!(s.match_boards(), 0);
        assert_eq!(c.playoff_clock, PlayoffClock::AtGameEnd, "Art. 12: the time left, position restored");
        let ko = TeamSettings {
            pairing: TeamPairing::Knockout,
            equal_count: EqualCount::White,
            playoff_clock: PlayoffTime::SectionTwoEnd,
            ..s
        };
        let c = ko.relay_config(&RuleSet::chinese_team_relay());
        assert_eq!((c.stage, c.rules.jigo), (Stage::Knockout, JigoRule::WhiteWins));
        assert_eq!(c.playoff_clock, PlayoffClock::AtSectionTwoEnd);
        for f in Format::ALL {
            assert_eq!(Format::from_code(f.code()), Some(*f));
        }
    }

    /// A relay team needs six players (three sections of two), a board team one a board; a relay
    /// event that keeps the individual rules plays its matches at komi 3½ and is flagged.
    #[test]
    fn what_a_team_needs_and_which_rules_apply() {
        use super::super::roster::fixtures::team;
        let relay = TeamSettings::default();
        let boards = TeamSettings { format: Format::Boards, boards: 4, ..relay };
        let teams = [team(1, 100, 5), team(2, 200, 6), team(3, 300, 3)];
        assert_eq!(relay.short_teams(&teams), vec![(1, 5), (3, 3)]);
        assert_eq!(boards.short_teams(&teams), vec![(3, 3)]);
        let individual = RuleSet::chinese_2002();
        assert!(relay.keeps_individual_rules(&individual));
        assert!(!relay.keeps_individual_rules(&RuleSet::chinese_team_relay()));
        assert!(!boards.keeps_individual_rules(&individual), "board games are individual games");
        assert_eq!(relay.game_rules(&individual).komi_q, 14, "the matches use 3½");
        assert_eq!(boards.game_rules(&individual).komi_q, individual.komi_q);
    }

    #[test]
    fn board_settings_and_refusals() {
        let s = TeamSettings {
            format: Format::Boards,
            boards: 4,
            match_points: MatchPointCode::MainBoard,
            main_board: Some(1),
            tiebreaks: TieBreakSet::Weijia,
            ..TeamSettings::default()
        };
        s.validate().unwrap();
        assert_eq!(s.board_config().rule, MatchPointRule::MainBoard);
        assert_eq!(s.tiebreaks(), TeamTieBreak::WEIJIA.to_vec());
        assert_eq!(s.match_boards(), 4);
        let relay_main = TeamSettings { format: Format::Relay, ..s };
        assert_eq!(relay_main.validate(), Err(TeamSettingsError::MainBoardRule));
        let no_main = TeamSettings { main_board: None, ..s };
        assert_eq!(no_main.validate(), Err(TeamSettingsError::MainBoardRule));
        let far = TeamSettings { main_board: Some(5), ..s };
        assert_eq!(far.validate(), Err(TeamSettingsError::MainBoardOutOfRange));
        let none = TeamSettings { boards: 0, ..s };
        assert_eq!(none.validate().map_err(|e| e.field()), Err("boards"));
        let nigiri = TeamSettings { colours: Colours::LeadersNigiri, ..s };
        assert_eq!(nigiri.validate().map_err(|e| e.field()), Err("colours"), "Art. 11 is the relay rules'");
        TeamSettings { colours: Colours::LeadersNigiri, ..TeamSettings::default() }.validate().unwrap();
        let two = TeamSettings { match_points: MatchPointCode::TwoOneZero, main_board: None, ..s };
        assert_eq!(two.board_config().rule, MatchPointRule::Scale { points: MatchPoints::TWO_ONE_ZERO });
        assert_eq!(two.bye_points(), 0, "a round-robin bye is no match");
        assert_eq!(TeamSettings { rr_bye: RoundRobinBye::Win, ..two }.bye_points(), 2);
        assert_eq!(TeamSettings { pairing: TeamPairing::Swiss, ..two }.bye_points(), 2, "rules.md §14.5");
        assert_eq!(TeamSettings { pairing: TeamPairing::Knockout, ..s }.bye_points(), 3);
    }
}
