//! A pair-relay match (围棋队际赛, seed 003) as a state machine.
//!
//! [`RelayMatch::apply`] takes one [`Event`] at a time with its timestamp. An accepted event
//! returns its [`Effect`]s (stones, cards, forced passes, substitutions and timeouts left) and
//! a [`Counts`] snapshot for the match page; a refused one returns a [`Refusal`] with English
//! and Chinese messages and leaves the match exactly as it was (the event runs on a copy).
//! Penalty stones and results are computed by the rules crate: every ruling goes into a log
//! that [`rules::rulings::apply_rulings`] reads, with `RuleSet::chinese_team_relay` (komi 3½,
//! Black 184 = draw, Art. 12) and the project's [`SecondYellow`] reading.
//!
//! ## What is enforced, by article of seed 003
//!
//! - Art. 10.1: line-ups per section, due 5 minutes before the section starts; the first
//!   section starts at the match's start, later ones 5 minutes after the previous section ends
//!   (Art. 10.2 break), so a later section's line-up is due when the previous section ends.
//! - Art. 10.2: sections end at moves 72 and 143.
//! - Art. 10.3: clockwise order X1, Y1, X2, Y2 within a section (seats crosswise).
//! - Art. 10.4: a player plays at most one section; a substitute only finishes the current
//!   section; one who has played cannot come on again.
//! - Art. 10.1 and Art. 14: the referee records who of the leader, coach and captain is
//!   present ([`Event::Attendance`]); the executing leader follows Art. 10.1's order among
//!   those present ([`RelayMatch::acting_leader`]), and only that person confirms a
//!   resignation.
//! - Art. 10.5: 3 substitutions and 2 timeouts per match, each requested, then confirmed or
//!   cancelled by the requesting side; the substitute seated within 60 s of confirmation. A
//!   deliberate delay in returning from a timeout (暂停 (2)) costs advice, a yellow card, or an
//!   added forced pass (停着, [`Event::AddedPass`]), nothing else.
//! - Art. 12: komi 3½, 3/1/0 points, knockout draw → 节棋 play-off (see [`super::playoff`]).
//! - Art. 17.7: an out-of-order move is valid; the opponent must claim it before placing a
//!   stone; 1, 2, 3, 4 stones; a player's 3rd → red card; a side's 5th → the game is lost; the
//!   erring player's next player (下位棋手, the opponent) chooses its side's next mover.
//! - Art. 17.8: each move beyond a section's quota is valid and costs 1 stone.
//! - Art. 18.3: a ko retaken without a threat: the move is void, the side passes once and is
//!   shown a yellow card. Art. 19: a stone on a forbidden point: void, one pass
//!   ([`Event::VoidMove`]; the rulings come from the rules crate's `rulings_for`).
//! - Art. 20.3: a triple ko or eternal life ends the match by the event's choice (no result:
//!   replayed with the time each side had left; draw; extra game), [`super::ending`].
//! - Art. 22.1: a last byo-yomi timeout is a pass (虚着) and 1 stone; play continues.
//! - Art. 22.4: the referee's readings of both clocks ([`Event::Clocks`], or with a section
//!   end or the count), kept in order ([`RelayMatch::clock_log`]); the 节棋 play-off starts
//!   from the reading at the point the event's [`PlayoffClock`] names (Art. 12, see
//!   [`super::playoff`]).
//! - Art. 24.2–24.4: yellow 1 stone, two yellows → red, red 2 stones and barred this game and
//!   the next; an on-board red counts as a substitution; if the side's substitutions are used
//!   up the opponent gains one "any" substitution (可换上已出场队员); if the side has no player
//!   who may come on, a forced pass is added and the carded player stays on. Who "may come
//!   on" (被罚红牌方无可上场队员) is read with the later sections in view: see
//!   [`RelayMatch::may_come_on`].
//!
//! ## Readings chosen (the text leaves these open)
//!
//! - \[INF\] Clockwise order: in each section the side to move first starts with its
//!   first-listed player, then the other side's first-listed, then the second-listed of each:
//!   X1, Y1, X2, Y2 (section 3 and the play-off start with White, move 144). A different
//!   player at a section's first move is an order error too.
//! - \[INF\] After an out-of-order move, whether claimed or not, the opponent's next mover is
//!   free (Art. 17.7 "由失误者下位棋手选择己方接续者"); the clockwise order continues from
//!   whoever moves. A claim lapses once the claimant's side has moved again.
//! - \[INF\] Move quota (Art. 17.8) read by section: sections 1 and 2 end at moves 72 and 143;
//!   a move numbered beyond that before the section end is declared costs its side 1 stone.
//!   The next section's range stays fixed by move number (Art. 10.2). Forced passes do not
//!   count as moves beyond the quota.
//! - \[INF\] Passes, forced or not, are moves: they take a move number and the mover's turn in
//!   the clockwise order. A forced pass owed by a side (Art. 24.4) is played at its next turn
//!   by the player whose turn it is (the first-listed when the side may choose).
//! - \[INF\] "Has played" = has been on the board in that section: the line-up's players once
//!   the section's first move is played, a substitute and the player substituted once the
//!   substitution is confirmed.
//! - \[INF\] A line-up may be replaced until its deadline, and until the section's first move.
//!   A red card to a player of a line-up whose section has not started reopens that line-up,
//!   also after the deadline.
//! - \[INF\] An on-board red card with a player available: the seat is vacant until the side
//!   names the replacement ([`Event::ReplaceSentOff`]); play waits. The replacement is not a
//!   further substitution. When the side's substitutions are used up the side still replaces
//!   the carded player and the opponent gains the "any" substitution (Art. 24.4). A red card
//!   to someone not at the board only bars them (Art. 24.3 "场上队员 … 视同换人1次"); a
//!   player seated before the section's first move counts as not yet at the board.
//! - \[INF\] Event times are taken as given (a referee may enter an event late); only the
//!   line-up deadline and the substitute's seating time are compared here. A line-up handed in
//!   after its deadline is recorded with its lateness (the referee decides: advice or a card);
//!   one already in is not changed after it. Times far from the match or well before the
//!   last event are refused before an input reaches the match ([`super::matches::apply_input`]).
//! - \[INF\] Requests (Art. 10.5): one per side at a time; play (moves, timeouts, section
//!   end) waits while a request is pending, since the referee has stopped the clock.
//! - \[INF\] A move by the side not to move is refused (it would be Art. 17.2, two consecutive
//!   moves: the referee records the void move and shows the yellow card with [`Event::Card`]).
//! - The timeout's length is not in the seed (Art. 10.5 "暂停 (1)" is missing) \[UNVERIFIED\]:
//!   only the count and the times are recorded.
//! - Second yellow: the project's [`SecondYellow`] reading, default 1 + 2 = 3 stones.
//! - A match page does not record every stone: [`Event::MovesInOrder`] stands for normal play
//!   up to a move number (each move by the player due), so that the referee enters only the
//!   moves that matter to the rules (an out-of-order move, a move beyond the quota, the move
//!   chosen after an order error).

use std::collections::BTreeSet;

use rules::board::Color;
use rules::clock::ClockReading;
use rules::outcome::JigoRule;
use rules::ruleset::RuleSet;
use rules::rulings::{
    Applied, ApplyInputs, BaseResult, GameResult, ResultMethod, Ruling, RulingKind, Said, SecondYellow,
};
use serde::{Deserialize, Serialize};

use super::cards::CardOffence;
use super::clocks::ClockEntry;
use super::lineup::{Lineup, LineupContext, Section};
use super::penalties::{apply_log, LogEntry};
use super::roster::{ExecutingLeader, Role, RosterError, Team};
pub use super::values::Card;
use super::values::{EndRecord, Ending, MatchPoints, TeamOutcome};
use super::{ix, PersonId, Timestamp};

// ---------------------------------------------------------------------------------------------
// Configuration
// ---------------------------------------------------------------------------------------------

/// Round robin or knockout (seed 003 Art. 12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// 循环赛: a draw stands (1 point each).
    RoundRobin,
    /// 淘汰赛: a draw goes to the 节棋 play-off.
    Knockout,
}

/// Which clock readings the 节棋 play-off starts from (Art. 12 "其中用时为双方所剩时间（包括读
/// 秒）", "使用之前剩余的时间（包括读秒）"). The text restores the position ("将棋局复原到第二节结束时
/// 的局面") and says nothing of restoring the clocks, so the default is the time left when the
/// drawn game ended \[INF\]; an event whose regulations restore the clocks with the position
/// chooses the end of section 2 \[UNVERIFIED alternative\]. Either way the play-off needs the
/// reading taken at that point (see [`super::playoff`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum PlayoffClock {
    /// The time each side had left when the drawn game ended: the reading after its last move
    /// (the clocks stand still from the count to the play-off).
    #[default]
    AtGameEnd,
    /// The time each side had left at the end of section 2: the reading after move 143 (the
    /// clocks stand still in the break, Art. 10.2), or after the last move of a drawn game
    /// that ended earlier.
    AtSectionTwoEnd,
}

/// Event settings of a relay match. Defaults follow seed 003 and rules.md's decisions table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelayConfig {
    /// `RuleSet::chinese_team_relay()`: komi 3½, Black 184 = draw (Art. 12). Set `jigo` to
    /// `WhiteWins` for an event that rules an equal count a White win (Art. 12 注).
    pub rules: RuleSet,
    pub second_yellow: SecondYellow,
    pub stage: Stage,
    /// 3/1/0 (Art. 12).
    pub points: MatchPoints,
    /// Substitutions per side per match (Art. 10.5: 3).
    pub substitutions: u32,
    /// Timeouts per side per match (Art. 10.5: 2).
    pub timeouts: u32,
    /// In the 节棋 play-off (Art. 12: one of each).
    pub playoff_substitutions: u32,
    pub playoff_timeouts: u32,
    /// Line-ups are due this long before a section starts (Art. 10.1: 5 minutes).
    pub lineup_lead_secs: i64,
    /// Break between sections, clock stopped (Art. 10.2: 5 minutes).
    pub break_secs: i64,
    /// Preparation before the 节棋 play-off, from the leaders' confirmation (Art. 12: 3 min).
    /// The play-off line-ups are due when it ends \[INF\].
    pub playoff_prep_secs: i64,
    /// From confirmation of a substitution to the substitute seated (Art. 10.5 (3): 60 s).
    pub seating_limit_secs: i64,
    pub playoff_clock: PlayoffClock,
    /// What a draw ruled in a knockout becomes (rules.md decision for Arts. 12, 17.5 (3),
    /// 17.6 (1)): see [`KnockoutDraw`].
    #[serde(default)]
    pub knockout_draw: KnockoutDraw,
}

/// A knockout relay match must be decided (Art. 12 "淘汰赛中若双方下和，采用“节棋”办法定胜负").
/// A draw the chief arbiter rules (Arts. 17.5 (3), 17.6 (1)) or a cycle ruled a draw (Art.
/// 20.3) is therefore not a result there. The project's decision: once the game has reached
/// move 144 the 节棋 play-off follows from the position after move 143, as after a counted
/// draw; before move 144 there is no section 3 to replay, and the game is replayed with the
/// time each side had left. The organizer may choose the replay always.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum KnockoutDraw {
    /// From move 144 the play-off, before it a replay with the time left.
    #[default]
    ByMove,
    /// Always a replay with the time left.
    Replay,
}

impl Default for RelayConfig {
    fn default() -> Self {
        RelayConfig {
            rules: RuleSet::chinese_team_relay(),
            second_yellow: SecondYellow::default(),
            stage: Stage::RoundRobin,
            points: MatchPoints::THREE_ONE_ZERO,
            substitutions: 3,
            timeouts: 2,
            playoff_substitutions: 1,
            playoff_timeouts: 1,
            lineup_lead_secs: 300,
            break_secs: 300,
            playoff_prep_secs: 180,
            seating_limit_secs: 60,
            playoff_clock: PlayoffClock::AtGameEnd,
            knockout_draw: KnockoutDraw::ByMove,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Events, effects, refusals
// ---------------------------------------------------------------------------------------------

/// A stone the rules make void (Arts. 18.3, 19): the rules crate's offence gives the rulings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VoidOffence {
    /// 劫争须找劫材时未找而提劫 (Art. 18.3): void, one pass, a yellow card.
    KoWithoutThreat,
    /// 棋子下在禁着点上 (Art. 19): void, one pass.
    ForbiddenPoint,
}

impl VoidOffence {
    pub const ALL: [VoidOffence; 2] = [VoidOffence::KoWithoutThreat, VoidOffence::ForbiddenPoint];

    pub fn code(self) -> &'static str {
        match self {
            VoidOffence::KoWithoutThreat => "ko_without_threat",
            VoidOffence::ForbiddenPoint => "forbidden_point",
        }
    }

    pub fn from_code(s: &str) -> Option<VoidOffence> {
        VoidOffence::ALL.into_iter().find(|o| o.code() == s.trim())
    }

    /// The rules crate's offence.
    pub fn rules_offence(self) -> rules::rulings::Offence {
        match self {
            VoidOffence::KoWithoutThreat => rules::rulings::Offence::KoWithoutThreat,
            VoidOffence::ForbiddenPoint => rules::rulings::Offence::ForbiddenPoint,
        }
    }
}

/// Something that happened in the match, in order. Stored as JSON with an `event` tag; a
/// match is rebuilt by [`RelayMatch::replay`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A leader hands in a section's line-up (Art. 10.1).
    SubmitLineup { side: Color, section: Section, players: [PersonId; 2] },
    /// A stone placed by `player` (Art. 10.3 order checked). `at` is where, when the move was
    /// entered at the board ([`Placed`]); the referee's match page records who moved only.
    Move {
        player: PersonId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Placed>,
    },
    /// The opponent of the side that moved out of order claims it before placing a stone; the
    /// referee confirms (Art. 17.7).
    ClaimOrderError { claimant: Color },
    /// A substitution request (Art. 10.5): the referee stops the clock and reports the order.
    RequestSubstitution { out: PersonId, incoming: PersonId },
    /// A timeout request (Art. 10.5).
    RequestTimeout { side: Color },
    /// The requesting side confirms its pending request (Art. 10.5 "确认生效").
    ConfirmRequest { side: Color },
    /// The requesting side withdraws its pending request (Art. 10.5 "取消"): nothing is used.
    CancelRequest { side: Color },
    /// The substitute of the side's last substitution is seated (Art. 10.5 (3): ≤ 60 s).
    SubstituteSeated { side: Color },
    /// The referee annuls the side's last substitution for a deliberate delay (Art. 10.5 (3)).
    AnnulSubstitution { side: Color },
    /// The players of the side's timeout are back in place (Art. 10.5 暂停 (2)).
    TimeoutEnd { side: Color },
    /// The side names the player who replaces a red-carded player (Art. 24.3).
    ReplaceSentOff { side: Color, incoming: PersonId },
    /// A card (or advice) to any person of either team (Art. 24), for `offence` (older logs
    /// name none).
    Card {
        person: PersonId,
        card: Card,
        #[serde(default)]
        offence: Option<CardOffence>,
    },
    /// `player`, whose turn it is, exceeded the last byo-yomi period (Art. 22.1).
    ByoYomiTimeout { player: PersonId },
    /// The referee ends section 1 or 2 (Art. 10.2), with the clock readings if recorded.
    SectionEnd { clocks: Option<[ClockReading; 2]> },
    /// The referee's reading of both clocks, `[Black, White]` (Art. 22.4: both sides' times
    /// are recorded at a pause; Art. 12: the play-off starts from one). Taken after move
    /// `move_number` (a reading copied from the written record), or `None`: now, after the
    /// last move played. A later reading at the same move replaces an earlier one.
    Clocks { move_number: Option<u32>, clocks: [ClockReading; 2] },
    /// The game ended and was counted: Black's count in half points, before penalty stones.
    Count { black_halves: u32, clocks: Option<[ClockReading; 2]> },
    /// The side's executing leader (`by`, Art. 10.1) confirms resignation to the referee
    /// (Art. 14). Older logs name nobody.
    Resign {
        side: Color,
        #[serde(default)]
        by: Option<PersonId>,
    },
    /// The match ends by a ruling or a forfeit ([`Ending`]: the article, against `side` or
    /// both), with the reason given and the name of who ruled.
    End { ending: Ending, side: Option<Color>, reason: String, ruled_by: String },
    /// Both leaders sign the draw and restore the position after move 143 (Art. 12 节棋流程).
    RestoreForPlayoff,
    /// Who of the leader, coach and captain is present for the match (`present`) and who is
    /// not (`absent`), either team (Art. 10.1: the executing leader is the first of them
    /// present, then a player). Persons named in neither keep what was recorded; nobody is
    /// absent until recorded so.
    Attendance { present: Vec<PersonId>, absent: Vec<PersonId> },
    /// The stone `player` placed, at the side's turn, is void (Art. 18.3: a ko retaken
    /// without a threat, also a yellow card; Art. 19: a forbidden point): the turn becomes
    /// one forced pass (弃权一次).
    VoidMove { player: PersonId, offence: VoidOffence },
    /// 停着: for a deliberate delay in returning from a timeout, the referee adds one forced
    /// pass to the side of `person` (Art. 10.5 暂停 (2)), played at the side's next turn.
    AddedPass { person: PersonId },
    /// The referee's summary of normal play: moves were played in the clockwise order until
    /// move `through` (each by the player due; owed forced passes fall where they are due).
    /// A match page does not need every stone entered: the referee records this, then the
    /// move that matters (an out-of-order [`Event::Move`], a card, a timeout…). Refused
    /// beyond the section's quota (those moves cost stones, Art. 17.8: enter them one by one)
    /// and when the side to move may choose its player after an order error (Art. 17.7).
    MovesInOrder { through: u32 },
}

/// Who must move next, as the referee reports it on a request (Art. 10.5 "反馈棋序").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveOrderReport {
    pub next_move: u32,
    pub side: Color,
    /// `None` when the side may choose (after an order error, Art. 17.7).
    pub player: Option<PersonId>,
}

/// What kind of request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RequestKind {
    Substitution { out: PersonId, incoming: PersonId },
    Timeout,
}

/// How a substitution was counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SubstitutionKind {
    /// One of the side's substitutions (Art. 10.5).
    Regular,
    /// The extra substitution gained from an opponent's red card (Art. 24.4), which may bring
    /// on a player who has already played.
    Any,
    /// The replacement of a red-carded player; the red card itself counted (Art. 24.3).
    RedCardReplacement,
}

/// One effect of an accepted event. Ids, not names: a page renders names from the rosters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "effect", rename_all = "snake_case")]
pub enum Effect {
    LineupAccepted {
        side: Color,
        section: Section,
        players: [PersonId; 2],
        replaced: bool,
    },
    /// A line-up handed in after its deadline (Art. 10.1): recorded; the referee decides.
    LineupLate {
        side: Color,
        section: Section,
        secs: i64,
    },
    /// The referee annulled a substitution (Art. 10.5 (3)): the player replaced returns, the
    /// substitution stays used.
    SubstitutionAnnulled {
        side: Color,
        out: PersonId,
        incoming: PersonId,
        left: u32,
    },
    /// The players are back after a timeout (Art. 10.5 暂停 (2)).
    TimeoutEnded {
        side: Color,
        secs: i64,
    },
    /// Both line-ups are in: the clockwise order of the section.
    Seated {
        section: Section,
        order: [PersonId; 4],
    },
    MovePlayed {
        number: u32,
        side: Color,
        player: PersonId,
    },
    /// Out of order (Art. 17.7): valid; `claimant` may claim it before placing a stone, and
    /// chooses which of its players moves next.
    OrderErrorClaimable {
        number: u32,
        side: Color,
        player: PersonId,
        claimant: Color,
    },
    /// The claimant placed a stone without claiming: the error lapsed.
    OrderErrorLapsed {
        number: u32,
        side: Color,
    },
    /// A ruling's effect as the rules crate explains it (stones, cards, sent off, loss).
    Ruling {
        said: Said,
    },
    /// An on-board red card counts as one of the side's substitutions (Art. 24.3).
    RedCountsAsSubstitution {
        side: Color,
        left: u32,
    },
    /// The red-carded side had no substitution left: its opponent gains one "any"
    /// substitution (Art. 24.4).
    AnySubstitutionGained {
        side: Color,
    },
    /// The seat of a red-carded player waits for a replacement.
    SeatVacant {
        side: Color,
        person: PersonId,
    },
    /// No player may come on: the carded player stays on and the side owes a forced pass
    /// (Art. 24.4).
    StaysOn {
        side: Color,
        person: PersonId,
    },
    /// A red card to a player lined up for a section not yet started: the line-up is reopened.
    LineupReopened {
        side: Color,
        section: Section,
    },
    ForcedPass {
        number: u32,
        side: Color,
        player: PersonId,
    },
    RequestMade {
        side: Color,
        request: RequestKind,
        order: MoveOrderReport,
    },
    RequestCancelled {
        side: Color,
    },
    SubstitutionMade {
        side: Color,
        out: PersonId,
        incoming: PersonId,
        kind: SubstitutionKind,
        left: u32,
    },
    /// The substitute took longer than the limit: the referee may give advice, a yellow card,
    /// or annul the substitution (Art. 10.5 (3)).
    SeatingDelay {
        side: Color,
        secs: i64,
        limit: i64,
    },
    SeatedInTime {
        side: Color,
        secs: i64,
    },
    TimeoutTaken {
        side: Color,
        left: u32,
    },
    SectionEnded {
        section: Section,
        moves: u32,
        next_deadline: Timestamp,
    },
    /// The game's result before any play-off, with the rules crate's explanation.
    GameOver {
        result: GameResult,
        said: Said,
    },
    /// Knockout draw: the 节棋 play-off follows (Art. 12).
    PlayoffRequired,
    /// The match ends by `ending`: the ruling's effects follow.
    Ended {
        ending: Ending,
        side: Option<Color>,
    },
    PlayoffStarted {
        restored_to: u32,
        lineup_deadline: Timestamp,
        /// Each side's remaining time for the play-off, `[Black, White]` (Art. 12), from the
        /// reading taken after move `clocks_after`.
        clocks: [ClockReading; 2],
        clocks_after: u32,
    },
    /// Both clocks read and recorded (Art. 22.4).
    ClocksRecorded {
        move_number: u32,
        clocks: [ClockReading; 2],
    },
    /// Side `side`'s executing leader after an attendance record (Art. 10.1), `None` when
    /// nobody may act.
    ExecutingLeader {
        side: Color,
        leader: Option<ExecutingLeader>,
    },
    /// Move `number` of `side` by `player` was void (Arts. 18.3, 19) and became a pass.
    MoveVoid {
        number: u32,
        side: Color,
        player: PersonId,
        offence: VoidOffence,
    },
    /// The side owes one forced pass more (停着, Art. 10.5 暂停 (2)).
    PassAdded {
        side: Color,
    },
    /// A draw in a knockout is replayed (rules.md decision for Arts. 12, 17.5 (3), 17.6 (1)):
    /// before move 144 (`early`), or always by the event's setting.
    KnockoutDrawReplayed {
        early: bool,
    },
    /// The replay is played with the time each side had left: the reading after move
    /// `clocks_after`, `[Black, White]`.
    ReplayWithTimeLeft {
        clocks: [ClockReading; 2],
        clocks_after: u32,
    },
    /// A draw ruled in the 节棋 play-off is its second draw: Black wins (Art. 12).
    PlayoffDrawToBlack,
    /// [`Event::MovesInOrder`]: moves `first` to `last` played in the clockwise order.
    MovesPlayed {
        first: u32,
        last: u32,
    },
    /// The match is decided: the outcome (Black listed first) and the match points
    /// `[Black, White]`.
    MatchDecided {
        outcome: TeamOutcome,
        points: [u32; 2],
        playoff: bool,
    },
}

/// Why an event was refused. The match is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "refusal", rename_all = "snake_case")]
pub enum Refusal {
    MatchOver,
    /// The game was drawn in a knockout: restore the position for the play-off first.
    PlayoffPending,
    NoPlayoffPending,
    UnknownPerson {
        person: PersonId,
    },
    NotOnTeam {
        person: PersonId,
        team: String,
    },
    NotAPlayer {
        person: PersonId,
    },
    SamePlayerTwice {
        person: PersonId,
    },
    /// Art. 10.4: a player plays at most one section.
    PlaysAnotherSection {
        person: PersonId,
        section: Section,
    },
    /// Art. 10.4: one who has played cannot come on again; a substitute only finishes the
    /// current section.
    HasPlayed {
        person: PersonId,
        section: Section,
    },
    /// Art. 24.3: barred by a red card for this game and the next.
    Barred {
        person: PersonId,
    },
    /// Art. 10.1: due 5 minutes before the section starts; a line-up in may not be changed
    /// after that.
    LineupLate {
        section: Section,
        deadline: Timestamp,
        at: Timestamp,
    },
    /// The section has started or is over: its line-up is fixed.
    SectionClosed {
        section: Section,
    },
    LineupMissing {
        side: Color,
        section: Section,
    },
    NotOnBoard {
        person: PersonId,
    },
    AlreadyOnBoard {
        person: PersonId,
    },
    /// The other side is to move (two consecutive moves are Art. 17.2: void + yellow card).
    NotYourTurn {
        to_move: Color,
    },
    /// A timeout can only be the player's whose turn it is.
    NotThisPlayersTurn {
        person: PersonId,
        expected: PersonId,
    },
    SeatVacant {
        side: Color,
    },
    RequestPending {
        side: Color,
    },
    NoRequestPending {
        side: Color,
    },
    NoSubstitutionsLeft {
        side: Color,
        limit: u32,
    },
    /// The incoming player has played and the side has no "any" substitution (Art. 24.4).
    ReturningPlayer {
        person: PersonId,
    },
    NoTimeoutsLeft {
        side: Color,
        limit: u32,
    },
    NoOrderErrorToClaim {
        claimant: Color,
    },
    NotInPlay,
    SectionNotComplete {
        section: Section,
        moves: u32,
        last: u32,
    },
    NoSectionToEnd,
    NoVacancy {
        side: Color,
    },
    NoSubstitutionToSeat {
        side: Color,
    },
    /// A person already sent off in this game cannot be shown another card.
    AlreadySentOff {
        person: PersonId,
    },
    /// [`Event::MovesInOrder`] to a move already played.
    MovesNotAhead {
        moves: u32,
        through: u32,
    },
    /// [`Event::MovesInOrder`] beyond the section's quota: those moves cost a stone each
    /// (Art. 17.8) and are entered one by one.
    BeyondQuota {
        section: Section,
        last: u32,
    },
    /// [`Event::MovesInOrder`] while the side to move chooses its next player (Art. 17.7).
    ChooseNextPlayer {
        side: Color,
    },
    /// A clock reading after a move not yet played.
    ClocksAhead {
        move_number: u32,
        moves: u32,
    },
    /// A reading of the original game once the play-off has restored the position.
    ClocksBeforePlayoff {
        move_number: u32,
        restored_to: u32,
    },
    /// The play-off is played with the remaining time (Art. 12): the reading it starts from
    /// (after move `move_number`) has not been recorded.
    PlayoffClocksMissing {
        rule: PlayoffClock,
        move_number: u32,
    },
    /// The offence does not carry this card (e.g. advice for a take-back, Art. 17.3: yellow).
    CardNotForOffence {
        offence: CardOffence,
        card: Card,
        allowed: Vec<Card>,
    },
    /// No substitution of the side can be annulled now (made in this section, no move since).
    NoSubstitutionToAnnul {
        side: Color,
    },
    NoTimeoutRunning {
        side: Color,
    },
    TimeoutEndsBefore {
        side: Color,
    },
    /// An ending against one side names no side.
    EndNeedsSide,
    /// An ending needs the reason given.
    EndReasonMissing,
    /// "No eligible player" while the side still has `eligible` players for `section`.
    StillEligible {
        side: Color,
        section: Section,
        eligible: u32,
    },
    /// "No eligible player" only for a section not started whose line-up the side owes.
    NoLineupDue {
        side: Color,
    },
    /// A player at the board does not confirm the resignation (Art. 14: the executing leader).
    ResignerAtBoard {
        person: PersonId,
    },
    /// Only the executing leader confirms the resignation (Art. 14); `executing` is who may
    /// (Art. 10.1 among those present), `None` when nobody may.
    NotExecutingLeader {
        side: Color,
        person: PersonId,
        executing: Option<ExecutingLeader>,
    },
    /// An attendance record names someone who is not a team's leader, coach or captain.
    NotTeamStaff {
        person: PersonId,
    },
    /// An added pass for a timeout delay, but the side has taken no timeout (Art. 10.5).
    NoTimeoutTaken {
        side: Color,
    },
    /// The replay is played with the time each side had left: the reading after move
    /// `move_number` has not been recorded.
    ReplayClocksMissing {
        move_number: u32,
    },
    /// Bringing `person` on would leave `section` without two players (Art. 24.4, as the
    /// project reads "可上场队员").
    WouldLeaveShort {
        person: PersonId,
        section: Section,
    },
    /// The rules crate refused the rulings (should not happen): its reason, worded at the edge.
    Ruling {
        error: rules::rulings::RulingError,
    },
}

impl Refusal {
    /// The rules crate's refusal of a ruling.
    pub fn ruling(e: &rules::rulings::RulingError) -> Refusal {
        Refusal::Ruling { error: e.clone() }
    }
}

/// What the match page shows after every event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub section: Section,
    pub moves: u32,
    pub to_move: Color,
    /// `[Black, White]` throughout.
    pub penalty_stones: [u32; 2],
    pub order_errors: [u32; 2],
    pub substitutions_left: [u32; 2],
    /// Extra substitutions gained by Art. 24.4.
    pub any_substitutions: [u32; 2],
    pub timeouts_left: [u32; 2],
    pub owed_passes: [u32; 2],
    /// Malicious fouls on the side's record (恶意犯规: Arts. 22.5, 23.9, 24.2).
    pub malicious_fouls: [u32; 2],
}

/// An accepted event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accepted {
    pub effects: Vec<Effect>,
    pub counts: Counts,
}

// ---------------------------------------------------------------------------------------------
// State
// ---------------------------------------------------------------------------------------------

/// Where the match is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Playing,
    /// Knockout draw, waiting for the leaders to restore the position (Art. 12).
    PlayoffPending,
    Over,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingRequest {
    pub kind: RequestKind,
    pub requested_at: Timestamp,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubstitutionRecord {
    pub section: Section,
    pub move_number: u32,
    pub out: PersonId,
    pub incoming: PersonId,
    pub kind: SubstitutionKind,
    pub requested_at: Option<Timestamp>,
    pub confirmed_at: Timestamp,
    pub seated_at: Option<Timestamp>,
    /// Annulled by the referee for a deliberate delay (Art. 10.5 (3)): still counted as used.
    #[serde(default)]
    pub annulled: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeoutRecord {
    pub section: Section,
    pub move_number: u32,
    pub requested_at: Timestamp,
    pub confirmed_at: Timestamp,
    /// When the players were back in place (Art. 10.5 暂停 (2)), once recorded.
    #[serde(default)]
    pub ended_at: Option<Timestamp>,
}

/// A red card to a person of the side, and what followed (Art. 24.3–24.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SentOffRecord {
    pub person: PersonId,
    pub section: Section,
    pub move_number: u32,
    pub at: Timestamp,
    pub on_board: bool,
    pub counted_as_substitution: bool,
    pub opponent_gained_substitution: bool,
    pub stayed_on: bool,
}

/// One side of the match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideState {
    pub team: Team,
    pub lineups: [Option<Lineup>; 4],
    /// Line-ups reopened by a red card (may be resubmitted after the deadline).
    pub reopened: [bool; 4],
    /// The two seats of the section in play (`None` = vacant); `None` outside play.
    pub seats: Option<[Option<PersonId>; 2]>,
    /// A vacant seat waiting for the replacement of a red-carded player: (seat, person).
    pub vacated: Option<(usize, PersonId)>,
    /// Everyone who has been on the board, with the section.
    pub entered: Vec<(PersonId, Section)>,
    /// Barred: red cards of the previous match and of this one (Art. 24.3).
    pub barred: BTreeSet<PersonId>,
    pub sent_off: Vec<SentOffRecord>,
    pub subs_used: u32,
    pub subs_limit: u32,
    pub any_subs: u32,
    pub timeouts_used: u32,
    pub timeouts_limit: u32,
    pub owed_passes: u32,
    pub pending: Option<PendingRequest>,
    pub substitutions: Vec<SubstitutionRecord>,
    pub timeouts: Vec<TimeoutRecord>,
    /// Leader, coach or captain recorded absent (Art. 10.1).
    #[serde(default)]
    pub absent: BTreeSet<PersonId>,
}

impl SideState {
    fn new(team: Team, barred: BTreeSet<PersonId>, config: &RelayConfig) -> SideState {
        SideState {
            team,
            lineups: [None; 4],
            reopened: [false; 4],
            seats: None,
            vacated: None,
            entered: Vec::new(),
            barred,
            sent_off: Vec::new(),
            subs_used: 0,
            subs_limit: config.substitutions,
            any_subs: 0,
            timeouts_used: 0,
            timeouts_limit: config.timeouts,
            owed_passes: 0,
            pending: None,
            substitutions: Vec::new(),
            timeouts: Vec::new(),
            absent: BTreeSet::new(),
        }
    }

    fn seat_of(&self, p: PersonId) -> Option<usize> {
        self.seats.and_then(|s| s.iter().position(|&q| q == Some(p)))
    }

    fn subs_left(&self) -> u32 {
        self.subs_limit.saturating_sub(self.subs_used)
    }

    fn mark_entered(&mut self, p: PersonId, s: Section) {
        if !self.entered.contains(&(p, s)) {
            self.entered.push((p, s));
        }
    }
}

/// A move of the game record (passes included).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    pub number: u32,
    pub side: Color,
    pub player: PersonId,
    pub section: Section,
    /// A forced pass (Arts. 18.3, 19, 22.1, 24.4).
    pub pass: bool,
    /// Where the move was played, when it was entered at the board; `None` for a move recorded
    /// by who played it only (the match page, [`Event::MovesInOrder`]).
    #[serde(default)]
    pub at: Option<Placed>,
}

/// Where a move entered at the board was played: a point (SGF letters, checked against the
/// position by the board before the event is recorded) or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Placed {
    Point(rules::board::Point),
    Pass,
}

impl Placed {
    /// The move for the rules crate.
    pub fn as_move(self) -> rules::game::Move {
        match self {
            Placed::Point(p) => rules::game::Move::Play(p),
            Placed::Pass => rules::game::Move::Pass,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingOrderError {
    pub side: Color,
    pub player: PersonId,
    pub number: u32,
}

/// A relay match (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelayMatch {
    pub(super) config: RelayConfig,
    /// `[Black, White]` (colours by the organiser's draw or the leaders' nigiri, Art. 11).
    pub(super) sides: [SideState; 2],
    pub(super) start_at: Timestamp,
    pub(super) phase: Phase,
    pub(super) section: Section,
    /// Number of the section's first move actually played (moves at its start + 1).
    pub(super) section_first: u32,
    pub(super) moves: u32,
    pub(super) move_log: Vec<MoveRecord>,
    /// Clockwise order of the section in play: (side, seat) by position.
    pub(super) rotation: Option<[(Color, usize); 4]>,
    pub(super) last_pos: Option<usize>,
    /// After an out-of-order move, the side whose next mover is free (Art. 17.7).
    pub(super) free_choice: Option<Color>,
    pub(super) pending_order_error: Option<PendingOrderError>,
    /// End of sections 1 and 2: (time, moves).
    pub(super) section_end: [Option<(Timestamp, u32)>; 2],
    /// Clock readings, in the order recorded.
    pub(super) clock_log: Vec<ClockEntry>,
    /// The reading the 节棋 play-off started from.
    pub(super) playoff_clocks: Option<ClockEntry>,
    /// Rulings in force.
    pub(super) log: Vec<LogEntry>,
    /// Rulings of the original section 3, set aside by the 节棋 restore.
    pub(super) set_aside: Vec<LogEntry>,
    pub(super) inputs: ApplyInputs,
    pub(super) applied: Applied,
    /// The drawn game that led to the play-off.
    pub(super) first_result: Option<GameResult>,
    pub(super) result: Option<GameResult>,
    pub(super) playoff_restored_at: Option<Timestamp>,
    /// How the match ended, when by a ruling or a forfeit.
    #[serde(default)]
    pub(super) ending: Option<EndRecord>,
    /// Who confirmed the resignation (Art. 14).
    #[serde(default)]
    pub(super) resigned_by: Option<PersonId>,
    pub(super) events: Vec<(Timestamp, Event)>,
}

/// Why a match cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("{side:?} team: {error:?}")]
    Roster { side: Color, error: RosterError },
    #[error("person #{0} is in both teams")]
    SharedPerson(PersonId),
    #[error("a team cannot play itself")]
    SameTeam,
    #[error("barred person #{0} is not in that team")]
    UnknownBarred(PersonId),
}

impl RelayMatch {
    /// A match between `black` and `white` starting at `start_at` (section 1's line-ups are due
    /// 5 minutes earlier). `barred_*`: persons red-carded in the team's previous game
    /// (Art. 24.3).
    pub fn new(
        config: RelayConfig,
        black: Team,
        white: Team,
        start_at: Timestamp,
        barred_black: &[PersonId],
        barred_white: &[PersonId],
    ) -> Result<RelayMatch, SetupError> {
        if black.id == white.id {
            return Err(SetupError::SameTeam);
        }
        for (t, side) in [(&black, Color::Black), (&white, Color::White)] {
            t.validate_for_relay().map_err(|error| SetupError::Roster { side, error })?;
        }
        if let Some(p) = black.people().find(|&p| white.contains(p)) {
            return Err(SetupError::SharedPerson(p));
        }
        for (t, barred) in [(&black, barred_black), (&white, barred_white)] {
            if let Some(&p) = barred.iter().find(|&&p| !t.contains(p)) {
                return Err(SetupError::UnknownBarred(p));
            }
        }
        let inputs = ApplyInputs { handicap: 0, second_yellow: config.second_yellow, prior_yellows: vec![] };
        let applied = apply_log(&config.rules, BaseResult::Unfinished, &[], &inputs)
            .expect("an empty log always applies");
        let sides = [
            SideState::new(black, barred_black.iter().copied().collect(), &config),
            SideState::new(white, barred_white.iter().copied().collect(), &config),
        ];
        Ok(RelayMatch {
            config,
            sides,
            start_at,
            phase: Phase::Playing,
            section: Section::One,
            section_first: 1,
            moves: 0,
            move_log: Vec::new(),
            rotation: None,
            last_pos: None,
            free_choice: None,
            pending_order_error: None,
            section_end: [None; 2],
            clock_log: Vec::new(),
            playoff_clocks: None,
            log: Vec::new(),
            set_aside: Vec::new(),
            inputs,
            applied,
            first_result: None,
            result: None,
            playoff_restored_at: None,
            ending: None,
            resigned_by: None,
            events: Vec::new(),
        })
    }

    /// A replay played with the time each side had left (Art. 20.3 no result; a knockout draw
    /// replayed): the reading `clocks` stands before the first move.
    pub fn with_time_left(mut self, clocks: [ClockReading; 2]) -> RelayMatch {
        self.clock_log.push(ClockEntry { move_number: 0, section: Section::One, at: self.start_at, clocks });
        self
    }

    /// Rebuilds a match from its stored events; the index of the first refused event and why.
    pub fn replay(mut self, events: &[(Timestamp, Event)]) -> Result<RelayMatch, (usize, Refusal)> {
        for (i, (at, e)) in events.iter().enumerate() {
            self.apply(*at, e.clone()).map_err(|r| (i, r))?;
        }
        Ok(self)
    }

    /// Applies one event at time `at`. Refused events leave the match unchanged.
    pub fn apply(&mut self, at: Timestamp, event: Event) -> Result<Accepted, Refusal> {
        let mut next = self.clone();
        let mut fx = Vec::new();
        next.step(at, &event, &mut fx)?;
        next.events.push((at, event));
        *self = next;
        Ok(Accepted { effects: fx, counts: self.counts() })
    }

    // ---- read access --------------------------------------------------------------------

    pub fn config(&self) -> &RelayConfig {
        &self.config
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn section(&self) -> Section {
        self.section
    }

    pub fn moves(&self) -> u32 {
        self.moves
    }

    pub fn side(&self, c: Color) -> &SideState {
        &self.sides[ix(c)]
    }

    pub fn move_log(&self) -> &[MoveRecord] {
        &self.move_log
    }

    /// The game's moves with their colours for the rules crate, when every move of the record
    /// was entered at the board (a forced pass is a pass); otherwise the number of the first
    /// move recorded without its point.
    pub fn board_moves(&self) -> Result<Vec<(Color, rules::game::Move)>, u32> {
        self.move_log.iter().map(|m| m.at.map(|a| (m.side, a.as_move())).ok_or(m.number)).collect()
    }

    /// The players at the board in the section's clockwise order (Art. 10.3), each with its
    /// side; `None` for a vacant seat. `None` before the section's players are seated.
    pub fn clockwise(&self) -> Option<[(Color, Option<PersonId>); 4]> {
        let rot = self.rotation?;
        Some(rot.map(|(side, seat)| (side, self.sides[ix(side)].seats.and_then(|s| s[seat]))))
    }

    /// An out-of-order move its opponent may still claim (Art. 17.7), until that side places a
    /// stone.
    pub fn pending_order_error(&self) -> Option<PendingOrderError> {
        self.pending_order_error
    }

    /// Side `c` chooses which of its players moves next (after an order error, Art. 17.7).
    pub fn may_choose(&self, c: Color) -> bool {
        self.free_choice == Some(c)
    }

    /// Rulings in force, with section and time.
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }

    /// Rulings of the original section 3, set aside when the play-off restored the game.
    pub fn set_aside(&self) -> &[LogEntry] {
        &self.set_aside
    }

    pub fn inputs(&self) -> &ApplyInputs {
        &self.inputs
    }

    /// The rules crate's reading of the rulings in force (running totals).
    pub fn applied(&self) -> &Applied {
        &self.applied
    }

    /// Clock readings in the order recorded (Art. 22.4).
    pub fn clock_log(&self) -> &[ClockEntry] {
        &self.clock_log
    }

    /// The reading the 节棋 play-off started from, once restored.
    pub fn playoff_clocks(&self) -> Option<&ClockEntry> {
        self.playoff_clocks.as_ref()
    }

    /// While a knockout draw waits for the play-off: the move after which the play-off's
    /// clocks are read ([`PlayoffClock`]), and the reading taken there if recorded (the latest
    /// one at that move).
    pub fn playoff_clock_source(&self) -> Option<(u32, Option<&ClockEntry>)> {
        if self.phase != Phase::PlayoffPending {
            return None;
        }
        let point = match self.config.playoff_clock {
            PlayoffClock::AtGameEnd => self.moves,
            PlayoffClock::AtSectionTwoEnd => self.moves.min(super::lineup::SECTION_TWO_LAST),
        };
        let entry =
            self.clock_log.iter().rev().find(|e| e.section != Section::Playoff && e.move_number == point);
        Some((point, entry))
    }

    pub fn events(&self) -> &[(Timestamp, Event)] {
        &self.events
    }

    /// The final result of the game (of the play-off if there was one).
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// The drawn game that led to the play-off.
    pub fn first_result(&self) -> Option<GameResult> {
        self.first_result
    }

    pub fn went_to_playoff(&self) -> bool {
        self.playoff_restored_at.is_some()
    }

    /// The winner once the match is over (`None` inside: a draw).
    pub fn winner(&self) -> Option<Option<Color>> {
        self.result.map(|r| r.winner)
    }

    /// The match's outcome once it is over (a double loss and a replay ordered are outcomes
    /// of their own).
    pub fn outcome(&self) -> Option<TeamOutcome> {
        self.result.as_ref().map(TeamOutcome::of_result)
    }

    /// Match points `[Black, White]` once the match is over (Art. 12: 3/1/0; a double loss
    /// 0 : 0, a replay ordered scores nothing).
    pub fn match_points(&self) -> Option<[u32; 2]> {
        Some(self.config.points.of(self.outcome()?))
    }

    /// Persons red-carded in this match: barred from the team's next game (Art. 24.3).
    pub fn barred_next_game(&self, c: Color) -> Vec<PersonId> {
        self.sides[ix(c)].sent_off.iter().map(|s| s.person).collect()
    }

    /// The rule set in force: the event's, with "equal count → Black wins" in the play-off
    /// (Art. 12 "若弈至最后再次和棋，则判黑方获胜").
    pub fn rules_in_force(&self) -> RuleSet {
        let mut r = self.config.rules.clone();
        if self.section == Section::Playoff {
            r.jigo = JigoRule::BlackWins;
        }
        r
    }

    /// When `section` starts, once known: section 1 at the match start, later sections after
    /// the break (Art. 10.2), the play-off after the preparation time (Art. 12).
    pub fn section_start(&self, s: Section) -> Option<Timestamp> {
        match s {
            Section::One => Some(self.start_at),
            Section::Two => self.section_end[0].map(|(t, _)| t + self.config.break_secs),
            Section::Three => self.section_end[1].map(|(t, _)| t + self.config.break_secs),
            Section::Playoff => self.playoff_restored_at.map(|t| t + self.config.playoff_prep_secs),
        }
    }

    /// The section to come and when it starts, while the match waits for it: the break after
    /// sections 1 and 2 (Art. 10.2: 5 minutes, clock stopped) or the play-off's preparation
    /// (Art. 12: 3 minutes). `None` in play, before section 1, and once over.
    pub fn waiting_for_section(&self) -> Option<(Section, Timestamp)> {
        if self.phase != Phase::Playing || self.section == Section::One || self.section_started() {
            return None;
        }
        Some((self.section, self.section_start(self.section)?))
    }

    /// Whether `section`'s line-ups may be shown to the public and to the other team: Art. 10.1 has
    /// each leader hand the line-up to the referee group, so one side's is shown only once both are
    /// in, or the section has started (or the match is over).
    pub fn lineups_public(&self, s: Section) -> bool {
        let k = s.index();
        let both = self.sides.iter().all(|x| x.lineups[k].is_some());
        let started = match s {
            Section::Playoff => self.section == Section::Playoff && self.section_started(),
            _ => {
                self.section == Section::Playoff
                    || s < self.section
                    || (s == self.section && self.section_started())
            }
        };
        both || started || self.phase == Phase::Over
    }

    /// The line-up deadline of `section`, once known (Art. 10.1: 5 minutes before the start;
    /// the play-off: the end of the preparation time \[INF\]).
    pub fn lineup_deadline(&self, s: Section) -> Option<Timestamp> {
        let start = self.section_start(s)?;
        Some(if s == Section::Playoff { start } else { start - self.config.lineup_lead_secs })
    }

    /// The side that may claim a move-order error now (Art. 17.7), if any.
    pub fn claimant(&self) -> Option<Color> {
        self.pending_order_error.map(|pe| pe.side.opponent())
    }

    /// Both sides are seated for the section in play.
    pub fn in_play(&self) -> bool {
        self.phase == Phase::Playing && self.sides.iter().all(|s| s.seats.is_some())
    }

    /// The section in play has reached its last move: the referee ends it (Art. 10.2).
    pub fn section_complete(&self) -> bool {
        self.phase == Phase::Playing && self.section.last_move().is_some_and(|last| self.moves >= last)
    }

    pub fn side_to_move(&self) -> Color {
        if self.moves.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The player due to move next (`None` outside play, or when the side may choose after an
    /// order error).
    pub fn expected_player(&self) -> Option<PersonId> {
        let rot = self.rotation?;
        let to_move = self.side_to_move();
        if self.free_choice == Some(to_move) {
            return None;
        }
        let (side, seat) = rot[self.expected_pos()];
        self.sides[ix(side)].seats?[seat]
    }

    /// The executing leader of side `c` (Art. 10.1). Not available, besides those `present`
    /// rules out: players at the board (Art. 15.3, they may not leave their seats) and persons
    /// barred by a red card (Art. 24.3 "禁止被罚人员在本局及下一局参与比赛") \[INF\].
    pub fn executing_leader(&self, c: Color, present: &dyn Fn(PersonId) -> bool) -> Option<ExecutingLeader> {
        let s = &self.sides[ix(c)];
        let played = |sec: Section| -> Vec<PersonId> {
            let mut v: Vec<PersonId> = s.lineups[sec.index()].map(|l| l.players.to_vec()).unwrap_or_default();
            for &(p, q) in &s.entered {
                if q == sec && !v.contains(&p) {
                    v.push(p);
                }
            }
            v
        };
        let (a, b, c3) = (played(Section::One), played(Section::Two), played(Section::Three));
        let available = |p: PersonId| present(p) && s.seat_of(p).is_none() && !s.barred.contains(&p);
        s.team.executing_leader(&available, [&a, &b, &c3])
    }

    /// Side `c`'s executing leader now: Art. 10.1's order among the leader, coach and captain
    /// not recorded absent ([`Event::Attendance`]), then the players by section and position
    /// number. The only person who confirms the side's resignation (Art. 14).
    pub fn acting_leader(&self, c: Color) -> Option<ExecutingLeader> {
        let absent = &self.sides[ix(c)].absent;
        self.executing_leader(c, &|p| !absent.contains(&p))
    }

    pub fn counts(&self) -> Counts {
        let both = |f: &dyn Fn(&SideState) -> u32| [f(&self.sides[0]), f(&self.sides[1])];
        let errors = |c: Color| {
            self.log
                .iter()
                .filter(|e| e.ruling.kind == RulingKind::OrderError && e.ruling.against == Some(c))
                .count() as u32
        };
        let fouls = |c: Color| {
            self.log
                .iter()
                .filter(|e| e.ruling.against == Some(c) && e.offence.is_some_and(CardOffence::malicious_foul))
                .count() as u32
        };
        Counts {
            section: self.section,
            moves: self.moves,
            to_move: self.side_to_move(),
            penalty_stones: [self.applied.penalty_black, self.applied.penalty_white],
            order_errors: [errors(Color::Black), errors(Color::White)],
            substitutions_left: both(&|s| s.subs_left()),
            any_substitutions: both(&|s| s.any_subs),
            timeouts_left: both(&|s| s.timeouts_limit.saturating_sub(s.timeouts_used)),
            owed_passes: both(&|s| s.owed_passes),
            malicious_fouls: [fouls(Color::Black), fouls(Color::White)],
        }
    }

    // ---- helpers ------------------------------------------------------------------------

    fn side_of(&self, p: PersonId) -> Option<Color> {
        [Color::Black, Color::White].into_iter().find(|&c| self.sides[ix(c)].team.contains(p))
    }

    fn expected_pos(&self) -> usize {
        self.last_pos.map(|p| (p + 1) % 4).unwrap_or(0)
    }

    fn section_started(&self) -> bool {
        self.moves >= self.section_first
    }

    fn ensure_playing(&self) -> Result<(), Refusal> {
        match self.phase {
            Phase::Playing => Ok(()),
            Phase::PlayoffPending => Err(Refusal::PlayoffPending),
            Phase::Over => Err(Refusal::MatchOver),
        }
    }

    /// In play: both seated, no request pending, no vacant seat.
    fn ensure_board_ready(&self) -> Result<(), Refusal> {
        self.ensure_playing()?;
        let k = self.section.index();
        for c in [Color::Black, Color::White] {
            if self.sides[ix(c)].lineups[k].is_none() {
                return Err(Refusal::LineupMissing { side: c, section: self.section });
            }
        }
        if self.sides.iter().any(|s| s.seats.is_none()) {
            return Err(Refusal::NotInPlay);
        }
        for c in [Color::Black, Color::White] {
            if self.sides[ix(c)].pending.is_some() {
                return Err(Refusal::RequestPending { side: c });
            }
            if self.sides[ix(c)].vacated.is_some() {
                return Err(Refusal::SeatVacant { side: c });
            }
        }
        Ok(())
    }

    fn seated(&self, p: PersonId) -> Result<(Color, usize), Refusal> {
        let side = self.side_of(p).ok_or(Refusal::UnknownPerson { person: p })?;
        let seat = self.sides[ix(side)].seat_of(p).ok_or(Refusal::NotOnBoard { person: p })?;
        Ok((side, seat))
    }

    fn pos_of(&self, side: Color, seat: usize) -> usize {
        let rot = self.rotation.expect("in play");
        rot.iter().position(|&x| x == (side, seat)).expect("every seat has a position")
    }

    /// Seats both sides when the current section's line-ups are both in and no move of the
    /// section has been played (also after a line-up was replaced before the start).
    fn try_seat(&mut self, fx: &mut Vec<Effect>) {
        if self.phase != Phase::Playing || self.section_started() {
            return;
        }
        let k = self.section.index();
        let (Some(b), Some(w)) = (self.sides[0].lineups[k], self.sides[1].lineups[k]) else {
            return;
        };
        if self.sides.iter().any(|s| s.substitutions.iter().any(|r| r.section == self.section)) {
            return;
        }
        self.sides[0].seats = Some([Some(b.players[0]), Some(b.players[1])]);
        self.sides[1].seats = Some([Some(w.players[0]), Some(w.players[1])]);
        let x = self.side_to_move();
        let y = x.opponent();
        self.rotation = Some([(x, 0), (y, 0), (x, 1), (y, 1)]);
        self.last_pos = None;
        self.free_choice = None;
        let lx = self.sides[ix(x)].lineups[k].expect("both in").players;
        let ly = self.sides[ix(y)].lineups[k].expect("both in").players;
        fx.push(Effect::Seated { section: self.section, order: [lx[0], ly[0], lx[1], ly[1]] });
    }

    /// Records a move or pass by `player` of `side` at seat `seat`.
    fn record_move(
        &mut self,
        side: Color,
        seat: usize,
        player: PersonId,
        pass: bool,
        at: Option<Placed>,
        fx: &mut Vec<Effect>,
    ) {
        let number = self.moves + 1;
        if let Some(pe) = self.pending_order_error {
            if pe.side != side {
                self.pending_order_error = None;
                fx.push(Effect::OrderErrorLapsed { number: pe.number, side: pe.side });
            }
        }
        if number == self.section_first {
            let section = self.section;
            for c in [Color::Black, Color::White] {
                let seats = self.sides[ix(c)].seats.expect("in play");
                for p in seats.into_iter().flatten() {
                    self.sides[ix(c)].mark_entered(p, section);
                }
            }
        }
        self.moves = number;
        let at = if pass { Some(Placed::Pass) } else { at };
        self.move_log.push(MoveRecord { number, side, player, section: self.section, pass, at });
        self.last_pos = Some(self.pos_of(side, seat));
    }

    /// Plays the forced passes owed by the side to move (Art. 24.4), at its turn.
    fn settle_passes(&mut self, fx: &mut Vec<Effect>) {
        while self.phase == Phase::Playing && self.ensure_board_ready().is_ok() {
            let side = self.side_to_move();
            if self.sides[ix(side)].owed_passes == 0 {
                break;
            }
            let seat = if self.free_choice == Some(side) {
                0
            } else {
                self.rotation.expect("in play")[self.expected_pos()].1
            };
            let player = self.sides[ix(side)].seats.expect("in play")[seat].expect("no vacancy");
            self.sides[ix(side)].owed_passes -= 1;
            self.record_move(side, seat, player, true, None, fx);
            self.free_choice = None;
            fx.push(Effect::ForcedPass { number: self.moves, side, player });
        }
    }

    /// Appends rulings, re-reads the log through the rules crate and applies what follows:
    /// the effects, red cards (Art. 24.3–24.4) and a decisive result (Art. 17.7 5th error).
    pub(super) fn add_rulings(
        &mut self,
        new: Vec<Ruling>,
        at: Timestamp,
        fx: &mut Vec<Effect>,
    ) -> Result<(), Refusal> {
        let before = self.log.len();
        let sent_before = self.applied.sent_off.len();
        for r in new {
            self.log.push(LogEntry { ruling: r, section: self.section, at, offence: None });
        }
        let applied = apply_log(&self.rules_in_force(), BaseResult::Unfinished, &self.log, &self.inputs)
            .map_err(|e| Refusal::ruling(&e))?;
        for e in &applied.effects {
            if e.ruling.is_some_and(|i| i >= before) {
                fx.push(Effect::Ruling { said: e.said.clone() });
            }
        }
        let newly_sent: Vec<_> = applied.sent_off[sent_before..].to_vec();
        let decided = applied.result;
        self.applied = applied;
        for s in newly_sent {
            if let Some(p) = s.player {
                self.on_sent_off(s.side, p, at, fx)?;
            }
        }
        if let Some(result) = decided {
            self.finish(result, fx);
        }
        Ok(())
    }

    /// A person was shown a red card (directly, by a second yellow or by a 3rd order error).
    fn on_sent_off(
        &mut self,
        side: Color,
        p: PersonId,
        at: Timestamp,
        fx: &mut Vec<Effect>,
    ) -> Result<(), Refusal> {
        let section = self.section;
        let move_number = self.moves;
        let mut rec = SentOffRecord {
            person: p,
            section,
            move_number,
            at,
            on_board: false,
            counted_as_substitution: false,
            opponent_gained_substitution: false,
            stayed_on: false,
        };
        self.sides[ix(side)].barred.insert(p);
        // Seated before the section's first move: not yet on the board in play, so the
        // line-up is reopened like any line-up of a section not started \[INF\].
        let seat = self.sides[ix(side)].seat_of(p).filter(|_| self.section_started());
        if let Some(seat) = seat {
            rec.on_board = true;
            if self.any_eligible(side) {
                let s = &mut self.sides[ix(side)];
                s.seats.as_mut().expect("seated")[seat] = None;
                s.vacated = Some((seat, p));
                // Art. 24.3: counts as a substitution; Art. 24.4: none left → the opponent
                // gains one.
                if s.subs_left() > 0 {
                    s.subs_used += 1;
                    rec.counted_as_substitution = true;
                    fx.push(Effect::RedCountsAsSubstitution { side, left: s.subs_left() });
                } else {
                    self.sides[ix(side.opponent())].any_subs += 1;
                    rec.opponent_gained_substitution = true;
                    fx.push(Effect::AnySubstitutionGained { side: side.opponent() });
                }
                fx.push(Effect::SeatVacant { side, person: p });
            } else {
                // Art. 24.4: 2 stones plus a forced pass; the player stays on.
                rec.stayed_on = true;
                fx.push(Effect::StaysOn { side, person: p });
                self.sides[ix(side)].sent_off.push(rec);
                return self.owe_pass(side, p, at, fx);
            }
        } else {
            for sec in Section::ALL {
                let s = &mut self.sides[ix(side)];
                let started = sec < section || (sec == section && self.moves >= self.section_first);
                if !started && s.lineups[sec.index()].is_some_and(|l| l.players.contains(&p)) {
                    s.lineups[sec.index()] = None;
                    s.reopened[sec.index()] = true;
                    if sec == section {
                        self.sides[0].seats = None;
                        self.sides[1].seats = None;
                        self.rotation = None;
                    }
                    fx.push(Effect::LineupReopened { side, section: sec });
                }
            }
        }
        self.sides[ix(side)].sent_off.push(rec);
        Ok(())
    }

    /// Checks that `p` may come on for `side` now. With `any`, a player who has already
    /// played (or is lined up for another section) may (Art. 24.4).
    fn check_incoming(&self, side: Color, p: PersonId, any: bool) -> Result<(), Refusal> {
        let s = &self.sides[ix(side)];
        if !s.team.contains(p) {
            return Err(Refusal::NotOnTeam { person: p, team: s.team.name.clone() });
        }
        if !s.team.is_player(p) {
            return Err(Refusal::NotAPlayer { person: p });
        }
        if s.barred.contains(&p) {
            return Err(Refusal::Barred { person: p });
        }
        if s.seat_of(p).is_some() {
            return Err(Refusal::AlreadyOnBoard { person: p });
        }
        if any {
            return Ok(());
        }
        let playoff = self.section == Section::Playoff;
        if let Some(&(_, sec)) =
            s.entered.iter().find(|&&(q, sec)| q == p && (sec == Section::Playoff) == playoff)
        {
            return Err(if playoff || sec != self.section {
                Refusal::HasPlayed { person: p, section: sec }
            } else {
                Refusal::ReturningPlayer { person: p }
            });
        }
        if !playoff {
            for sec in Section::ALL {
                if sec != self.section && s.lineups[sec.index()].is_some_and(|l| l.players.contains(&p)) {
                    return Err(Refusal::PlaysAnotherSection { person: p, section: sec });
                }
            }
        }
        Ok(())
    }

    fn any_eligible(&self, side: Color) -> bool {
        self.sides[ix(side)].team.players.iter().any(|q| self.may_come_on(side, q.id).is_ok())
    }

    /// Whether `p` "may come on" for `side` in place of a red-carded player (Art. 24.4 "被罚红
    /// 牌方无可上场队员时除罚2子外加罚虚着一次，被处罚队员不下场继续完成比赛").
    ///
    /// The project's reading of Art. 24.4 (rules.md decision "red card when replacing the
    /// carded player would leave a later section short"): a player may come on only if Art.
    /// 10.4 allows it and, after using them, two unplayed, unbarred players remain for each
    /// later section (Art. 10.3 needs two a section, Art. 10.4 lets nobody play two). If no
    /// player may, Art. 24.4's second case applies: 2 stones and one forced pass, the carded
    /// player stays on and finishes the game, and no substitution is counted (nobody was
    /// sent off). Otherwise a red card in section 1 of a six-player team would put a player
    /// of a later section into the seat and leave the team short for section 3. The ban on
    /// the next game (Art. 24.3) stands either way.
    pub fn may_come_on(&self, side: Color, p: PersonId) -> Result<(), Refusal> {
        self.check_incoming(side, p, false)?;
        let later: &[Section] = match self.section {
            Section::One => &[Section::Two, Section::Three],
            Section::Two => &[Section::Three],
            Section::Three | Section::Playoff => &[],
        };
        let s = &self.sides[ix(side)];
        let left = s
            .team
            .players
            .iter()
            .map(|q| q.id)
            .filter(|&q| q != p && !s.barred.contains(&q) && s.seat_of(q).is_none())
            .filter(|&q| !s.entered.iter().any(|&(x, sec)| x == q && sec != Section::Playoff))
            .count();
        match later.get(left / 2) {
            Some(&section) => Err(Refusal::WouldLeaveShort { person: p, section }),
            None => Ok(()),
        }
    }

    /// Side `side` owes one forced pass more, played at its next turn (Art. 24.4 after a red
    /// card with nobody to come on; Art. 10.5 暂停 (2), 停着): the rules crate records the
    /// ruling, against `person` when a player.
    fn owe_pass(
        &mut self,
        side: Color,
        person: PersonId,
        at: Timestamp,
        fx: &mut Vec<Effect>,
    ) -> Result<(), Refusal> {
        self.sides[ix(side)].owed_passes += 1;
        let mut pass = Ruling::against(RulingKind::ForcedPass, side, self.moves);
        if self.sides[ix(side)].team.is_player(person) {
            pass = pass.by_player(person);
        }
        self.add_rulings(vec![pass], at, fx)
    }

    fn report(&self) -> MoveOrderReport {
        MoveOrderReport {
            next_move: self.moves + 1,
            side: self.side_to_move(),
            player: self.expected_player(),
        }
    }

    /// The game is over with `result` (or drawn into the play-off).
    fn finish(&mut self, result: GameResult, fx: &mut Vec<Effect>) {
        if self.phase != Phase::Playing {
            return;
        }
        for s in &mut self.sides {
            s.seats = None;
            s.pending = None;
            s.vacated = None;
        }
        self.rotation = None;
        self.pending_order_error = None;
        // A counted draw (Art. 12), or a draw ruled from move 144 on (`end_by` replays an
        // earlier one): the 节棋 play-off.
        let draw = result.winner.is_none()
            && matches!(result.method, ResultMethod::Count { .. } | ResultMethod::Draw);
        if draw && self.config.stage == Stage::Knockout && self.section != Section::Playoff {
            self.phase = Phase::PlayoffPending;
            self.first_result = Some(result);
            fx.push(Effect::PlayoffRequired);
            return;
        }
        self.phase = Phase::Over;
        self.result = Some(result);
        let points = self.match_points().expect("result set");
        fx.push(Effect::MatchDecided {
            outcome: TeamOutcome::of_result(&result),
            points,
            playoff: self.section == Section::Playoff,
        });
    }

    // ---- events -------------------------------------------------------------------------

    fn step(&mut self, at: Timestamp, event: &Event, fx: &mut Vec<Effect>) -> Result<(), Refusal> {
        match *event {
            Event::SubmitLineup { side, section, players } => {
                self.submit_lineup(at, side, section, players, fx)
            }
            Event::Move { player, at: placed } => self.play(at, player, placed, fx),
            Event::ClaimOrderError { claimant } => self.claim(at, claimant, fx),
            Event::RequestSubstitution { out, incoming } => self.request_substitution(at, out, incoming, fx),
            Event::RequestTimeout { side } => self.request_timeout(at, side, fx),
            Event::ConfirmRequest { side } => self.confirm(at, side, fx),
            Event::CancelRequest { side } => {
                self.ensure_playing()?;
                let s = &mut self.sides[ix(side)];
                s.pending.take().ok_or(Refusal::NoRequestPending { side })?;
                fx.push(Effect::RequestCancelled { side });
                Ok(())
            }
            Event::SubstituteSeated { side } => self.substitute_seated(at, side, fx),
            Event::AnnulSubstitution { side } => self.annul_substitution(side, fx),
            Event::TimeoutEnd { side } => self.end_timeout(at, side, fx),
            Event::ReplaceSentOff { side, incoming } => self.replace_sent_off(at, side, incoming, fx),
            Event::Card { person: p, card, offence } => self.card(at, p, card, offence, fx),
            Event::ByoYomiTimeout { player } => self.byo_yomi_timeout(at, player, fx),
            Event::SectionEnd { clocks } => self.end_section(at, clocks, fx),
            Event::Clocks { move_number, clocks } => self.record_clocks(at, move_number, clocks, fx),
            Event::Count { black_halves, clocks } => {
                self.ensure_playing()?;
                let mut after = Vec::new();
                if let Some(clocks) = clocks {
                    self.push_clocks(at, self.moves, clocks, &mut after);
                }
                self.end_game(BaseResult::Count { black_halves }, fx)?;
                fx.extend(after);
                Ok(())
            }
            Event::Resign { side, by } => {
                self.ensure_playing()?;
                if let Some(p) = by {
                    self.check_resigner(side, p)?;
                }
                self.resigned_by = by;
                self.end_game(BaseResult::Resignation { winner: side.opponent() }, fx)
            }
            Event::End { ending, side, ref reason, ref ruled_by } => {
                self.end_by(at, ending, side, reason, ruled_by, fx)
            }
            Event::RestoreForPlayoff => self.restore_for_playoff(at, fx),
            Event::MovesInOrder { through } => self.moves_in_order(at, through, fx),
            Event::Attendance { ref present, ref absent } => self.attendance(present, absent, fx),
            Event::VoidMove { player, offence } => {
                let start = fx.len();
                let (rules, of) = (self.config.rules.clone(), offence.rules_offence());
                let ruled = |side, number| {
                    // A void stone is the offending side's (Arts. 18.3, 19): never side-less.
                    rules::rulings::rule(of, &rules, Some(side), number)
                        .unwrap_or_default()
                        .into_iter()
                        .map(|r| r.by_player(player))
                        .collect()
                };
                let (side, number) = self.pass_turn(at, player, &ruled, fx)?;
                fx.insert(start, Effect::MoveVoid { number, side, player, offence });
                Ok(())
            }
            Event::AddedPass { person } => {
                self.ensure_board_ready()?;
                let side = self.side_of(person).ok_or(Refusal::UnknownPerson { person })?;
                if self.sides[ix(side)].timeouts.is_empty() {
                    return Err(Refusal::NoTimeoutTaken { side });
                }
                fx.push(Effect::PassAdded { side });
                self.owe_pass(side, person, at, fx)?;
                self.settle_passes(fx);
                Ok(())
            }
        }
    }

    /// Art. 10.1: who of the leader, coach and captain is present; each side's executing
    /// leader follows.
    fn attendance(
        &mut self,
        present: &[PersonId],
        absent: &[PersonId],
        fx: &mut Vec<Effect>,
    ) -> Result<(), Refusal> {
        if self.phase == Phase::Over {
            return Err(Refusal::MatchOver);
        }
        for (&p, is_absent) in present.iter().map(|p| (p, false)).chain(absent.iter().map(|p| (p, true))) {
            let side = self.side_of(p).ok_or(Refusal::UnknownPerson { person: p })?;
            let t = &self.sides[ix(side)].team;
            let staff =
                matches!(t.role_of(p), Some(Role::Leader | Role::Coach | Role::Player { captain: true }));
            if !staff {
                return Err(Refusal::NotTeamStaff { person: p });
            }
            let s = &mut self.sides[ix(side)];
            if is_absent {
                s.absent.insert(p);
            } else {
                s.absent.remove(&p);
            }
        }
        for c in [Color::Black, Color::White] {
            fx.push(Effect::ExecutingLeader { side: c, leader: self.acting_leader(c) });
        }
        Ok(())
    }

    fn submit_lineup(
        &mut self,
        at: Timestamp,
        side: Color,
        section: Section,
        players: [PersonId; 2],
        fx: &mut Vec<Effect>,
    ) -> Result<(), Refusal> {
        self.ensure_playing()?;
        let closed = if section == Section::Playoff {
            self.section != Section::Playoff || self.section_started()
        } else {
            self.section == Section::Playoff
                || section < self.section
                || (section == self.section && self.section_started())
        };
        if closed {
            return Err(Refusal::SectionClosed { section });
        }
        let k = section.index();
        let s = &self.sides[ix(side)];
        if s.substitutions.iter().any(|r| r.section == section) {
            return Err(Refusal::SectionClosed { section });
        }
        // Art. 10.1: due 5 minutes before the section. A line-up handed in late is recorded
        // with its lateness and the referee decides (advice, a card); one already in may not be
        // changed after the deadline \[INF\].
        let mut late_secs = 0;
        if let Some(deadline) = self.lineup_deadline(section) {
            if at > deadline && !s.reopened[k] {
                if s.lineups[k].is_some() {
                    return Err(Refusal::LineupLate { section, deadline, at });
                }
                late_secs = at - deadline;
            }
        }
        let other_lineups = Section::ALL
            .into_iter()
            .filter(|&x| x != section && x != Section::Playoff)
            .filter_map(|x| s.lineups[x.index()].map(|l| (x, l.players)))
            .collect();
        let ctx = LineupContext { team: &s.team, barred: &s.barred, other_lineups, entered: &s.entered };
        check_players(&ctx, section, players)?;
        let s = &mut self.sides[ix(side)];
        let replaced = s.lineups[k].is_some();
        s.lineups[k] = Some(Lineup { players, submitted_at: at, late_secs });
        s.reopened[k] = false;
        fx.push(Effect::LineupAccepted { side, section, players, replaced });
        if late_secs > 0 {
            fx.push(Effect::LineupLate { side, section, secs: late_secs });
        }
        if section == self.section {
            self.try_seat(fx);
        }
        Ok(())
    }

    fn play(
        &mut self,
        at: Timestamp,
        player: PersonId,
        placed: Option<Placed>,
        fx: &mut Vec<Effect>,
    ) -> Result<(), Refusal> {
        self.ensure_board_ready()?;
        let (side, seat) = self.seated(player)?;
        let to_move = self.side_to_move();
        if side != to_move {
            return Err(Refusal::NotYourTurn { to_move });
        }
        let pos = self.pos_of(side, seat);
        let in_order = self.free_choice == Some(side) || pos == self.expected_pos();
        self.record_move(side, seat, player, false, placed, fx);
        let number = self.moves;
        fx.push(Effect::MovePlayed { number, side, player });
        if in_order {
            self.free_choice = None;
        } else {
            // Art. 17.7: the move stands; the opponent may claim before placing a stone and
            // chooses its next mover.
            self.free_choice = Some(side.opponent());
            self.pending_order_error = Some(PendingOrderError { side, player, number });
            fx.push(Effect::OrderErrorClaimable { number, side, player, claimant: side.opponent() });
        }
        if self.section.last_move().is_some_and(|last| number > last) {
            // Art. 17.8: valid, 1 stone for each move beyond the section's quota.
            let r = Ruling::against(RulingKind::MoveQuotaExcess { extra_moves: 1 }, side, number)
                .by_player(player);
            self.add_rulings(vec![r], at, fx)?;
        }
        self.settle_passes(fx);
        Ok(())
    }

    fn moves_in_order(&mut self, at: Timestamp, through: u32, fx: &mut Vec<Effect>) -> Result<(), Refusal> {
        self.ensure_board_ready()?;
        if through <= self.moves {
            return Err(Refusal::MovesNotAhead { moves: self.moves, through });
        }
        if let Some(last) = self.section.last_move().filter(|&last| through > last) {
            return Err(Refusal::BeyondQuota { section: self.section, last });
        }
        let first = self.moves + 1;
        let mut inner = Vec::new();
        while self.moves < through {
            let side = self.side_to_move();
            let player = self.expected_player().ok_or(Refusal::ChooseNextPlayer { side })?;
            self.play(at, player, None, &mut inner)?;
        }
        fx.extend(inner.into_iter().filter(|e| !matches!(e, Effect::MovePlayed { .. })));
        fx.insert(0, Effect::MovesPlayed { first, last: self.moves });
        Ok(())
    }

    fn claim(&mut self, at: Timestamp, claimant: Color, fx: &mut Vec<Effect>) -> Result<(), Refusal> {
        self.ensure_playing()?;
        let pe = self
            .pending_order_error
            .filter(|pe| pe.side == claimant.opponent())
            .ok_or(Refusal::NoOrderErrorToClaim { claimant })?;
        self.pending_order_error = None;
        let mut r = Ruling::against(RulingKind::OrderError, pe.side, pe.number);
        // A player who stayed on after a red card (Art. 24.4) is no longer counted per
        // person by the rules crate; the side's count goes on \[INF\].
        if !self.sides[ix(pe.side)].barred.contains(&pe.player) {
            r = r.by_player(pe.player);
        }
        self.add_rulings(vec![r], at, fx)?;
        self.settle_passes(fx);
        Ok(())
    }

    fn request_substitution(
        &mut self,
        at: Timestamp,
        out: PersonId,
        incoming: PersonId,
        fx: &mut Vec<Effect>,
    ) -> Result<(), Refusal> {
        self.ensure_board_ready()?;
        let (side, _) = self.seated(out)?;
        self.substitution_kind(side, incoming)?;
        let kind = RequestKind::Substitution { out, incoming };
        self.sides[ix(side)].pending = Some(PendingRequest { kind, requested_at: at });
        fx.push(Effect::RequestMade { side, request: kind, order: self.report() });
        Ok(())
    }

    /// How a substitution bringing on `incoming` would count, or why it cannot be made.
    fn substitution_kind(&self, side: Color, incoming: PersonId) -> Result<SubstitutionKind, Refusal> {
        let s = &self.sides[ix(side)];
        let (regular, any) = (s.subs_left() > 0, s.any_subs > 0);
        if !regular && !any {
            return Err(Refusal::NoSubstitutionsLeft { side, limit: s.subs_limit });
        }
        match self.check_incoming(side, incoming, false) {
            Ok(()) if regular => Ok(SubstitutionKind::Regular),
            Ok(()) => Ok(SubstitutionKind::Any),
            Err(
                Refusal::HasPlayed { .. }
                | Refusal::ReturningPlayer { .. }
                | Refusal::PlaysAnotherSection { .. },
            ) if any => {
                self.check_incoming(side, incoming, true)?;
                Ok(SubstitutionKind::Any)
            }
            Err(Refusal::HasPlayed { .. }) => Err(Refusal::ReturningPlayer { person: incoming }),
            Err(e) => Err(e),
        }
    }

    fn request_timeout(&mut self, at: Timestamp, side: Color, fx: &mut Vec<Effect>) -> Result<(), Refusal> {
        self.ensure_board_ready()?;
        let s = &self.sides[ix(side)];
        if s.timeouts_used >= s.timeouts_limit {
            return Err(Refusal::NoTimeoutsLeft { side, limit: s.timeouts_limit });
        }
        let kind = RequestKind::Timeout;
        self.sides[ix(side)].pending = Some(PendingRequest { kind, requested_at: at });
        fx.push(Effect::RequestMade { side, request: kind, order: self.report() });
        Ok(())
    }

    fn confirm(&mut self, at: Timestamp, side: Color, fx: &mut Vec<Effect>) -> Result<(), Refusal> {
        self.ensure_playing()?;
        let req = self.sides[ix(side)].pending.ok_or(Refusal::NoRequestPending { side })?;
        let section = self.section;
        let move_number = self.moves;
        match req.kind {
            RequestKind::Substitution { out, incoming } => {
                let kind = self.substitution_kind(side, incoming)?;
                let s = &mut self.sides[ix(side)];
                let seat = s.seat_of(out).ok_or(Refusal::NotOnBoard { person: out })?;
                match kind {
                    SubstitutionKind::Any => s.any_subs -= 1,
                    _ => s.subs_used += 1,
                }
                s.seats.as_mut().expect("seated")[seat] = Some(incoming);
                s.mark_entered(out, section);
                s.mark_entered(incoming, section);
                s.substitutions.push(SubstitutionRecord {
                    section,
                    move_number,
                    out,
                    incoming,
                    kind,
                    requested_at: Some(req.requested_at),
                    confirmed_at: at,
                    seated_at: None,
                    annulled: false,
                });
                let left = s.subs_left();
                s.pending = None;
                fx.push(Effect::SubstitutionMade { side, out, incoming, kind, left });
            }
            RequestKind::Timeout => {
                let s = &mut self.sides[ix(side)];
                if s.timeouts_used >= s.timeouts_limit {
                    return Err(Refusal::NoTimeoutsLeft { side, limit: s.timeouts_limit });
                }
                s.timeouts_used += 1;
                s.timeouts.push(TimeoutRecord {
                    section,
                    move_number,
                    requested_at: req.requested_at,
                    confirmed_at: at,
                    ended_at: None,
                });
                s.pending = None;
                fx.push(Effect::TimeoutTaken { side, left: s.timeouts_limit - s.timeouts_used });
            }
        }
        self.settle_passes(fx);
        Ok(())
    }

    fn substitute_seated(&mut self, at: Timestamp, side: Color, fx: &mut Vec<Effect>) -> Result<(), Refusal> {
        self.ensure_playing()?;
        let limit = self.config.seating_limit_secs;
        let s = &mut self.sides[ix(side)];
        let rec = s
            .substitutions
            .last_mut()
            .filter(|r| r.seated_at.is_none())
            .ok_or(Refusal::NoSubstitutionToSeat { side })?;
        rec.seated_at = Some(at);
        let secs = at - rec.confirmed_at;
        fx.push(if secs > limit {
            Effect::SeatingDelay { side, secs, limit }
        } else {
            Effect::SeatedInTime { side, secs }
        });
        Ok(())
    }

    fn replace_sent_off(
        &mut self,
        at: Timestamp,
        side: Color,
        incoming: PersonId,
        fx: &mut Vec<Effect>,
    ) -> Result<(), Refusal> {
        self.ensure_playing()?;
        let (seat, out) = self.sides[ix(side)].vacated.ok_or(Refusal::NoVacancy { side })?;
        self.may_come_on(side, incoming)?;
        let section = self.section;
        let move_number = self.moves;
        let s = &mut self.sides[ix(side)];
        s.seats.as_mut().expect("seated")[seat] = Some(incoming);
        s.vacated = None;
        s.mark_entered(incoming, section);
        let kind = SubstitutionKind::RedCardReplacement;
        s.substitutions.push(SubstitutionRecord {
            section,
            move_number,
            out,
            incoming,
            kind,
            requested_at: None,
            confirmed_at: at,
            seated_at: None,
            annulled: false,
        });
        let left = s.subs_left();
        fx.push(Effect::SubstitutionMade { side, out, incoming, kind, left });
        self.settle_passes(fx);
        Ok(())
    }

    /// Art. 10.5 (3): for a deliberate delay the referee may annul the side's last substitution
    /// (made in this section, no move played since): the player replaced takes the seat back,
    /// the substitution stays used. The substitute, who played no move, has not played
    /// \[INF\].
    fn annul_substitution(&mut self, side: Color, fx: &mut Vec<Effect>) -> Result<(), Refusal> {
        self.ensure_playing()?;
        let (section, moves) = (self.section, self.moves);
        let s = &mut self.sides[ix(side)];
        let i = s
            .substitutions
            .iter()
            .rposition(|r| {
                r.kind != SubstitutionKind::RedCardReplacement
                    && !r.annulled
                    && r.section == section
                    && r.move_number == moves
            })
            .ok_or(Refusal::NoSubstitutionToAnnul { side })?;
        let rec = s.substitutions[i];
        let seat = s.seat_of(rec.incoming).ok_or(Refusal::NoSubstitutionToAnnul { side })?;
        s.seats.as_mut().expect("seated")[seat] = Some(rec.out);
        s.entered.retain(|&(p, sec)| !(p == rec.incoming && sec == section));
        s.substitutions[i].annulled = true;
        let left = s.subs_left();
        fx.push(Effect::SubstitutionAnnulled { side, out: rec.out, incoming: rec.incoming, left });
        Ok(())
    }

    /// The players are back after the side's last timeout (Art. 10.5 暂停 (2)).
    fn end_timeout(&mut self, at: Timestamp, side: Color, fx: &mut Vec<Effect>) -> Result<(), Refusal> {
        self.ensure_playing()?;
        let s = &mut self.sides[ix(side)];
        let t = s
            .timeouts
            .last_mut()
            .filter(|t| t.ended_at.is_none())
            .ok_or(Refusal::NoTimeoutRunning { side })?;
        if at < t.confirmed_at {
            return Err(Refusal::TimeoutEndsBefore { side });
        }
        t.ended_at = Some(at);
        fx.push(Effect::TimeoutEnded { side, secs: at - t.confirmed_at });
        Ok(())
    }

    fn card(
        &mut self,
        at: Timestamp,
        p: PersonId,
        card: Card,
        offence: Option<CardOffence>,
        fx: &mut Vec<Effect>,
    ) -> Result<(), Refusal> {
        self.ensure_playing()?;
        if let Some(o) = offence {
            let allowed = o.cards(&self.config.rules);
            if !allowed.contains(&card) {
                return Err(Refusal::CardNotForOffence { offence: o, card, allowed });
            }
        }
        let side = self.side_of(p).ok_or(Refusal::UnknownPerson { person: p })?;
        let s = &self.sides[ix(side)];
        if s.sent_off.iter().any(|r| r.person == p) {
            return Err(Refusal::AlreadySentOff { person: p });
        }
        if s.barred.contains(&p) {
            return Err(Refusal::Barred { person: p });
        }
        let kind = match card {
            Card::Advice => RulingKind::Advice,
            Card::Yellow => RulingKind::YellowCard,
            Card::Red => RulingKind::RedCard,
        };
        let entry = self.log.len();
        self.add_rulings(vec![Ruling::against(kind, side, self.moves).by_player(p)], at, fx)?;
        self.log[entry].offence = offence;
        self.settle_passes(fx);
        Ok(())
    }

    fn byo_yomi_timeout(
        &mut self,
        at: Timestamp,
        player: PersonId,
        fx: &mut Vec<Effect>,
    ) -> Result<(), Refusal> {
        // Art. 22.1: "判停一着（虚着）并罚1子，然后继续对局".
        let ruled = |side, number| {
            vec![Ruling::against(RulingKind::LastByoYomiTimeout, side, number).by_player(player)]
        };
        self.pass_turn(at, player, &ruled, fx).map(|_| ())
    }

    /// `player`, whose turn it is, loses the turn to a forced pass with the rulings `ruled`
    /// gives for the side and the move number (Art. 22.1 a last byo-yomi timeout; Arts. 18.3,
    /// 19 a void stone). The pass is a move of the record; returns the side and its number.
    fn pass_turn(
        &mut self,
        at: Timestamp,
        player: PersonId,
        ruled: &dyn Fn(Color, u32) -> Vec<Ruling>,
        fx: &mut Vec<Effect>,
    ) -> Result<(Color, u32), Refusal> {
        self.ensure_board_ready()?;
        let (side, seat) = self.seated(player)?;
        let to_move = self.side_to_move();
        if side != to_move {
            return Err(Refusal::NotYourTurn { to_move });
        }
        if let Some(expected) = self.expected_player() {
            if expected != player {
                return Err(Refusal::NotThisPlayersTurn { person: player, expected });
            }
        }
        let number = self.moves + 1;
        self.add_rulings(ruled(side, number), at, fx)?;
        if self.phase == Phase::Playing {
            self.record_move(side, seat, player, true, None, fx);
            self.free_choice = None;
            fx.push(Effect::ForcedPass { number, side, player });
            self.settle_passes(fx);
        }
        Ok((side, number))
    }

    fn end_section(
        &mut self,
        at: Timestamp,
        clocks: Option<[ClockReading; 2]>,
        fx: &mut Vec<Effect>,
    ) -> Result<(), Refusal> {
        self.ensure_playing()?;
        let last = self.section.last_move().ok_or(Refusal::NoSectionToEnd)?;
        if self.moves < last {
            return Err(Refusal::SectionNotComplete { section: self.section, moves: self.moves, last });
        }
        self.ensure_board_ready()?;
        let k = self.section.index();
        self.section_end[k] = Some((at, self.moves));
        let mut after = Vec::new();
        if let Some(clocks) = clocks {
            self.push_clocks(at, self.moves, clocks, &mut after);
        }
        for s in &mut self.sides {
            s.seats = None;
        }
        self.rotation = None;
        self.last_pos = None;
        self.free_choice = None;
        let ended = self.section;
        self.section = ended.next().expect("sections 1 and 2 have a next");
        self.section_first = self.moves + 1;
        let next_deadline = self.lineup_deadline(self.section).expect("known once the section ended");
        fx.push(Effect::SectionEnded { section: ended, moves: self.moves, next_deadline });
        fx.extend(after);
        self.try_seat(fx);
        Ok(())
    }

    fn record_clocks(
        &mut self,
        at: Timestamp,
        move_number: Option<u32>,
        clocks: [ClockReading; 2],
        fx: &mut Vec<Effect>,
    ) -> Result<(), Refusal> {
        if self.phase == Phase::Over {
            return Err(Refusal::MatchOver);
        }
        let move_number = move_number.unwrap_or(self.moves);
        if move_number > self.moves {
            return Err(Refusal::ClocksAhead { move_number, moves: self.moves });
        }
        if self.section == Section::Playoff && move_number + 1 < self.section_first {
            return Err(Refusal::ClocksBeforePlayoff { move_number, restored_to: self.section_first - 1 });
        }
        self.push_clocks(at, move_number, clocks, fx);
        Ok(())
    }

    fn push_clocks(
        &mut self,
        at: Timestamp,
        move_number: u32,
        clocks: [ClockReading; 2],
        fx: &mut Vec<Effect>,
    ) {
        self.clock_log.push(ClockEntry { move_number, section: self.section, at, clocks });
        fx.push(Effect::ClocksRecorded { move_number, clocks });
    }

    fn end_game(&mut self, base: BaseResult, fx: &mut Vec<Effect>) -> Result<(), Refusal> {
        let applied = apply_log(&self.rules_in_force(), base, &self.log, &self.inputs)
            .map_err(|e| Refusal::ruling(&e))?;
        let result = applied.result.expect("a counted or resigned game has a result");
        let last = applied.effects.last().expect("the result line");
        fx.push(Effect::GameOver { result, said: last.said.clone() });
        self.applied = applied;
        self.finish(result, fx);
        Ok(())
    }
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
