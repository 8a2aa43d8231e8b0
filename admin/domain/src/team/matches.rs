//! The decisions of a team event's rounds and matches (seed 003), over values the store has
//! loaded: whether a team round may be paired or deleted and what it pairs, whether an
//! arbiter's input applies to a relay match and what it records, whether an event may be
//! withdrawn and what the match becomes, and what a board match's boards score. The store
//! (`db::team_matches`) reads the rows, calls these, and writes what they decide; a refusal
//! writes nothing and comes back as a [`MatchRefusal`] or a [`PairRefusal`].

use rules::board::Color;
use rules::rulings::{DoubleLossReason, GameResult};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use super::board_match::{board_order_error, score_board_match, BoardMatchConfig};
use super::clocks::ClockEntry;
use super::event::{TeamPairing, TeamSettings};
use super::relay::{Accepted, Event, Refusal, RelayConfig, RelayMatch, SetupError, Stage};
use super::roster::Team;
use super::standings::{
    pairing_inputs, team_pairing_settings, DoubleLossLot, NominalWinner, PairingInputs, TeamBye, TeamEntry,
    TeamMatchRecord, TeamOutcome,
};
use super::withdraw::{self as wd, LoggedEvent, WithdrawError};
use super::{PersonId, TeamId, Timestamp};
use crate::draw::lots::DrawRecord;
use crate::rounds::{self as dr, Draft, Plan, PlanError, RoundInput};
use crate::settings::{DoubleLoss, System, TournamentSettings};

// ---------------------------------------------------------------------------------------------
// Refusals

/// Why a match write was refused by the rules or by the match's state; nothing was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MatchRefusal {
    /// The match changed since the page was opened.
    Stale { current: i32 },
    /// Relay forms on a board match, or the other way round, or a bye.
    WrongKind,
    /// The match has no start time yet (line-up deadlines are counted from it).
    NoStart,
    /// The start is fixed once the first event is recorded.
    Started,
    /// The rosters cannot play a relay match (too few players, …).
    Setup(SetupError),
    /// The relay state machine refused the event.
    Relay(Refusal),
    /// The event was entered at a move the game has passed (events are recorded in order).
    Behind { asked: u32, moves: u32 },
    /// A board's player is not in that team, or plays two boards.
    BoardPlayer { board: i32 },
    /// A team's players are not on the boards in the order of their position numbers.
    BoardOrder { board: i32 },
    /// Only the chief arbiter (while none is named: an organizer) withdraws events.
    NotChief,
    /// A withdrawal needs a reason.
    ReasonRequired,
    /// The withdrawal itself is refused (unknown, already withdrawn, a later event fails).
    Withdraw(WithdrawError),
    /// The withdrawal would change the decided match or the persons barred from the next
    /// game, and team round `round` is already paired from them.
    LaterRound { round: i32 },
    /// The leaders' nigiri decides the colours first (Art. 11): no event before it.
    NigiriPending,
    /// The event's colours come from the draw: this match has no leaders' nigiri.
    NoNigiri,
    /// The nigiri was performed from the seed (once), or the match has started and its
    /// colours are fixed.
    NigiriClosed,
    /// A value the rules refuse (a grab of no stones).
    Invalid(String),
    /// The replay ordered by the ruling to withdraw has started (its events come first).
    ReplayStarted { replay: i32 },
    /// The event's time is well before the last event recorded (events come in order).
    TimeBackwards { last: Timestamp },
    /// The event's time is far from the match's start (a mistyped date).
    TimeOutsideMatch { start: Timestamp },
}

/// A write on the page of version `seen` to a match now at version `current`: refused when
/// someone wrote in between (the write would overwrite what they recorded).
pub fn unchanged_since(seen: i32, current: i32) -> Result<(), MatchRefusal> {
    if seen == current {
        Ok(())
    } else {
        Err(MatchRefusal::Stale { current })
    }
}

/// A stored event of a match's log that no longer applies to the match its earlier events
/// make: the log is damaged (a fault of the store, never a refusal of what was typed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogDamaged {
    pub seq: u32,
    pub refusal: Refusal,
}

/// What an arbiter's input or a withdrawal runs into: a refusal, or a damaged stored log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Blocked {
    Refused(MatchRefusal),
    Damaged(LogDamaged),
}

impl From<MatchRefusal> for Blocked {
    fn from(r: MatchRefusal) -> Self {
        Blocked::Refused(r)
    }
}

/// The match after the standing events of its log.
fn standing(start: RelayMatch, log: &[LoggedEvent]) -> Result<RelayMatch, Blocked> {
    wd::replay_standing(start, log).map_err(|(seq, refusal)| Blocked::Damaged(LogDamaged { seq, refusal }))
}

// ---------------------------------------------------------------------------------------------
// Relay matches

/// What a relay match is played with, fixed at its first event (stored with the match).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchSetup {
    pub config: RelayConfig,
    pub black: Team,
    pub white: Team,
    /// Red-carded in the team's previous game (Art. 24.3), `[Black, White]`.
    pub barred: [Vec<PersonId>; 2],
    pub start_at: Timestamp,
    /// A replay played with the time each side had left in the match it replays (Art. 20.3 no
    /// result; a knockout draw replayed): that match's reading.
    #[serde(default)]
    pub time_left: Option<ClockEntry>,
}

impl MatchSetup {
    /// The match before any event.
    pub fn new_match(&self) -> Result<RelayMatch, SetupError> {
        let m = RelayMatch::new(
            self.config.clone(),
            self.black.clone(),
            self.white.clone(),
            self.start_at,
            &self.barred[0],
            &self.barred[1],
        )?;
        Ok(match self.time_left {
            Some(e) => m.with_time_left(e.clocks),
            None => m,
        })
    }

    /// The setup, once its rosters can play a relay match.
    pub fn playable(self) -> Result<MatchSetup, MatchRefusal> {
        self.new_match().map_err(MatchRefusal::Setup)?;
        Ok(self)
    }
}

/// Where in the game an event is entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtMove {
    /// The event is move `n` (a move, a byo-yomi pass): play in order to `n − 1` first.
    Is(u32),
    /// The event comes after move `n`: play in order to `n` first.
    After(u32),
}

/// An event as the arbiter entered it: when, where in the game, what.
#[derive(Clone, Debug)]
pub struct EventInput {
    pub at: Timestamp,
    pub at_move: Option<AtMove>,
    pub event: Event,
    /// Events recorded with it, in order, at the same time (both teams' line-ups of a section
    /// in one form).
    pub also: Vec<Event>,
}

impl EventInput {
    /// Whether only the chief arbiter may record it (Arts. 17.5, 17.6: a ruling that ends the
    /// game with no side at fault).
    pub fn needs_chief(&self) -> bool {
        matches!(&self.event, Event::End { ending, .. } if ending.chief_only())
    }
}

/// How far before the last event's time an event may be dated: a referee entering an event a
/// few minutes late gives the time it happened \[INF\].
pub const BACKDATE_TOLERANCE: Timestamp = 15 * 60;

/// How long before section 1 starts an event may be (line-ups come minutes before) \[INF\].
pub const EARLIEST_BEFORE_START: Timestamp = 6 * 3600;
/// How long after the start an event may be: a relay match and its play-off last hours \[INF\].
pub const LATEST_AFTER_START: Timestamp = 24 * 3600;

/// Whether an input may be recorded on a match at all, before its setup is read: the leaders'
/// nigiri comes first (Art. 11), and a ruling of the chief arbiter's needs `chief`.
pub fn admit(input: &EventInput, nigiri_pending: bool, chief: bool) -> Result<(), MatchRefusal> {
    if nigiri_pending {
        return Err(MatchRefusal::NigiriPending);
    }
    if input.needs_chief() && !chief {
        return Err(MatchRefusal::NotChief);
    }
    Ok(())
}

/// An input applied to the match its stored log makes, not yet stored.
#[derive(Debug, Clone)]
pub struct Applied {
    /// The rows to store: the moves in order up to the event, then the event (and those
    /// recorded with it).
    pub events: Vec<Event>,
    pub accepted: Vec<Accepted>,
    /// The match after them.
    pub m: RelayMatch,
}

/// Applies `input` to the match of `setup` after the events of `stored`: the event must lie
/// on the match's day and not well before the last standing event (events are recorded in
/// the order they happen), at a move the game has not passed; the moves in order up to it
/// come first ([`Event::MovesInOrder`]); the first refusal of the state machine is returned.
pub fn apply_input(
    setup: &MatchSetup,
    stored: &[LoggedEvent],
    input: &EventInput,
) -> Result<Applied, Blocked> {
    if input.at < setup.start_at - EARLIEST_BEFORE_START || input.at > setup.start_at + LATEST_AFTER_START {
        return Err(MatchRefusal::TimeOutsideMatch { start: setup.start_at }.into());
    }
    if let Some(last) = stored.iter().filter(|e| !e.withdrawn).map(|e| e.at).max() {
        if input.at < last - BACKDATE_TOLERANCE {
            return Err(MatchRefusal::TimeBackwards { last }.into());
        }
    }
    let m = setup.new_match().map_err(MatchRefusal::Setup)?;
    let mut m = standing(m, stored)?;
    let moves = m.moves();
    let mut events = Vec::with_capacity(2);
    let through = match input.at_move {
        None => None,
        Some(AtMove::Is(n)) if n <= moves => return Err(MatchRefusal::Behind { asked: n, moves }.into()),
        Some(AtMove::Is(n)) => Some(n - 1),
        Some(AtMove::After(n)) if n < moves => return Err(MatchRefusal::Behind { asked: n, moves }.into()),
        Some(AtMove::After(n)) => Some(n),
    };
    if let Some(through) = through.filter(|&t| t > moves) {
        events.push(Event::MovesInOrder { through });
    }
    events.push(input.event.clone());
    events.extend(input.also.iter().cloned());
    let accepted = events
        .iter()
        .map(|e| m.apply(input.at, e.clone()).map_err(MatchRefusal::Relay))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Applied { events, accepted, m })
}

/// The replay a match's record orders (重赛: a match with no result, Arts. 17.5 (4), 17.6 (2)),
/// as it stood and as it stands after a change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayChange {
    /// Nothing to do.
    Keep,
    /// The replay the withdrawn ruling ordered goes with it (nothing was recorded in it).
    Delete(i32),
    /// The match now ends with no result: its replay is created.
    Create,
}

/// What a withdrawal makes of a relay match, before it is stored.
#[derive(Debug, Clone)]
pub struct Withdrawal {
    /// The match with the event standing, and without it.
    pub before: RelayMatch,
    pub after: RelayMatch,
    /// Their records (standings): `None` while undecided.
    pub record_before: Option<TeamMatchRecord>,
    pub record_after: Option<TeamMatchRecord>,
}

impl Withdrawal {
    /// Whether the withdrawal changes what a later team round is paired from: the decided
    /// match, or the persons barred from the next game (Art. 24.3).
    pub fn changes_what_follows(&self) -> bool {
        let barred = |m: &RelayMatch| [m.barred_next_game(Color::Black), m.barred_next_game(Color::White)];
        self.record_before != self.record_after || barred(&self.before) != barred(&self.after)
    }

    /// Refused when it [changes what follows](Self::changes_what_follows) and `later`, the
    /// first team round after the match's, is already paired.
    pub fn allowed_with(&self, later: Option<i32>) -> Result<(), MatchRefusal> {
        match later {
            Some(round) if self.changes_what_follows() => Err(MatchRefusal::LaterRound { round }),
            _ => Ok(()),
        }
    }

    /// What becomes of the match's replay, `replay` (its id and whether anything was recorded
    /// in it) when there is one: a replay already under way is not taken back.
    pub fn replay_change(&self, replay: Option<(i32, bool)>) -> Result<ReplayChange, MatchRefusal> {
        let replays =
            |r: &Option<TeamMatchRecord>| r.as_ref().is_some_and(|r| r.outcome == TeamOutcome::NoResult);
        Ok(match (replays(&self.record_before), replays(&self.record_after), replay) {
            (true, false, Some((id, true))) => return Err(MatchRefusal::ReplayStarted { replay: id }),
            (true, false, Some((id, false))) => ReplayChange::Delete(id),
            (_, true, None) => ReplayChange::Create,
            _ => ReplayChange::Keep,
        })
    }
}

/// Withdraws event `seq` of the match of round `round` set up with `setup` (none: no event was
/// ever recorded) and logged as `log`: only the chief arbiter (`chief`), with a reason; every
/// later standing event must still apply ([`wd::withdraw`]).
pub fn withdraw(
    setup: Option<&MatchSetup>,
    log: &[LoggedEvent],
    seq: u32,
    reason: &str,
    chief: bool,
    round: u32,
) -> Result<Withdrawal, Blocked> {
    if !chief {
        return Err(MatchRefusal::NotChief.into());
    }
    if reason.trim().is_empty() {
        return Err(MatchRefusal::ReasonRequired.into());
    }
    let setup = setup.ok_or(MatchRefusal::Withdraw(WithdrawError::UnknownEvent { seq }))?;
    let start = setup.new_match().map_err(MatchRefusal::Setup)?;
    let before = standing(start.clone(), log)?;
    let after = wd::withdraw(start, log, seq).map_err(MatchRefusal::Withdraw)?;
    let (record_before, record_after) =
        (TeamMatchRecord::from_relay(round, &before), TeamMatchRecord::from_relay(round, &after));
    Ok(Withdrawal { before, after, record_before, record_after })
}

// ---------------------------------------------------------------------------------------------
// Pairing a team round

/// Why a team round cannot be paired or deleted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PairRefusal {
    /// The tournament's system is not the team system.
    NotTeamEvent,
    /// Rounds are paired in order.
    NotNext {
        next: i32,
    },
    BeyondRounds {
        rounds: i32,
    },
    /// Swiss and knockout pair from results: a match of this round is not decided.
    Undecided {
        round: i32,
    },
    /// Only the last round may be deleted.
    NotLast {
        last: i32,
    },
    /// A match of the round has events or results.
    HasResults,
    /// Teams with fewer players than the event's matches need (name, players); `need` each.
    ShortTeams {
        need: usize,
        teams: Vec<(String, usize)>,
    },
    Plan(PlanError),
}

/// Everything pairing a team round reads.
pub struct TeamRoundInput<'a> {
    /// The event's settings (system, rounds, double-loss rule, …) and its team settings.
    pub settings: &'a TournamentSettings,
    pub team: &'a TeamSettings,
    /// The team rounds paired so far, in order: number and plan.
    pub paired: &'a [(i32, Plan)],
    /// The round of the first match (not a bye) without a decided record, if any.
    pub undecided: Option<i32>,
    /// The teams as the engines read them, and their rosters.
    pub entries: &'a [TeamEntry],
    pub rosters: &'a [Team],
    /// The decided matches and the byes so far.
    pub records: &'a [TeamMatchRecord],
    pub byes: &'a [TeamBye],
    /// The round asked for, and its seed.
    pub round: i32,
    pub seed: u64,
}

/// A team round as paired: the engine's draft, every lot drawn for it, and the matches' form.
#[derive(Debug, Clone)]
pub struct TeamRound {
    pub draft: Draft,
    /// The draft's lots, then the double-loss lots of the previous round (rules.md §12).
    pub draws: Vec<DrawRecord>,
    /// The nominal winners drawn for the previous round's double losses.
    pub lots: Vec<NominalWinner>,
    pub stage: Stage,
    /// Boards per match (0: relay matches).
    pub boards: i32,
}

fn system_of(p: TeamPairing) -> System {
    match p {
        TeamPairing::RoundRobin => System::RoundRobin,
        TeamPairing::Swiss => System::Swiss,
        TeamPairing::Knockout => System::Knockout,
    }
}

/// Pairs team round `round` (the next one) with the event's method and seed: teams go through
/// the same engines as individuals ([`dr::plan_round`]: Berger round robin, Swiss, knockout)
/// as [`pairing_inputs`] adapts them (match points as the pairing score, earlier matches as
/// the history).
pub fn plan_team_round(inp: &TeamRoundInput<'_>) -> Result<TeamRound, PairRefusal> {
    let (s, ts, n) = (inp.settings, inp.team, inp.round);
    if s.system != System::TeamRelay {
        return Err(PairRefusal::NotTeamEvent);
    }
    let next = inp.paired.last().map(|r| r.0).unwrap_or(0) + 1;
    if n != next {
        return Err(PairRefusal::NotNext { next });
    }
    let rounds = i32::try_from(s.rounds).unwrap_or(i32::MAX);
    if n > rounds {
        return Err(PairRefusal::BeyondRounds { rounds });
    }
    if ts.pairing != TeamPairing::RoundRobin {
        if let Some(round) = inp.undecided {
            return Err(PairRefusal::Undecided { round });
        }
    }
    // A team that cannot field a match is not paired (seed 003 Arts. 10.2–10.4: six players
    // for a relay match; rules.md §13.2: one a board).
    let short = ts.short_teams(inp.rosters.iter());
    if !short.is_empty() {
        let name = |id: TeamId| inp.rosters.iter().find(|t| t.id == id).map(|t| t.name.clone());
        let teams = short.into_iter().map(|(id, n)| (name(id).unwrap_or_default(), n)).collect();
        return Err(PairRefusal::ShortTeams { need: ts.players_needed(), teams });
    }
    let round = u32::try_from(n).unwrap_or(1);
    // rules.md §12: under the event's double-loss lot a double loss of the previous round
    // pairs its nominal winner as a winner (score-paired rounds only, as for individuals).
    let lot = (ts.pairing == TeamPairing::Swiss && s.double_loss == DoubleLoss::Lot)
        .then(|| DoubleLossLot { seed: inp.seed, win: ts.scale().win });
    let PairingInputs { players, history, lots } =
        pairing_inputs(inp.entries, inp.records, inp.byes, round, lot);
    let mut base = dr::pairing_settings(s);
    // Art. 11: the organiser's draw (the pairing balances colours), or the leaders' nigiri.
    base.colours = ts.colour_method();
    let psettings = team_pairing_settings(&base);
    let previous_plan = match ts.pairing {
        TeamPairing::RoundRobin => inp.paired.first().map(|r| &r.1),
        TeamPairing::Knockout => inp.paired.last().map(|r| &r.1),
        TeamPairing::Swiss => None,
    };
    let draft = dr::plan_round(&RoundInput {
        system: system_of(ts.pairing),
        settings: &psettings,
        players: &players,
        history: &history,
        round,
        seed: inp.seed,
        previous_plan,
        declared_rounds: s.rounds,
        komi_q: 0,
    })
    .map_err(PairRefusal::Plan)?;
    let mut draws = draft.draws.clone();
    draws.extend(lots.iter().map(|l| l.record.clone()));
    let boards = i32::try_from(ts.match_boards()).unwrap_or(0);
    Ok(TeamRound { draft, draws, lots, stage: ts.stage(), boards })
}

/// Whether team round `n` may be deleted: only the last one (`last`), and only while none of
/// its matches has an event or a result (`recorded`).
pub fn deletable(n: i32, last: i32, recorded: bool) -> Result<(), PairRefusal> {
    if n != last {
        return Err(PairRefusal::NotLast { last });
    }
    if recorded {
        return Err(PairRefusal::HasResults);
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Board matches

/// A board's result in the board's colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoardResult {
    None,
    Black,
    White,
    /// Black wins by forfeit: White did not play (弃权, Art. 15.2).
    BlackForfeit,
    WhiteForfeit,
    Draw,
    DoubleLoss,
}

impl BoardResult {
    pub const ALL: [BoardResult; 7] = [
        BoardResult::None,
        BoardResult::Black,
        BoardResult::White,
        BoardResult::BlackForfeit,
        BoardResult::WhiteForfeit,
        BoardResult::Draw,
        BoardResult::DoubleLoss,
    ];
    /// The form's code.
    pub fn code(self) -> &'static str {
        match self {
            BoardResult::None => "",
            BoardResult::Black => "black",
            BoardResult::White => "white",
            BoardResult::BlackForfeit => "black_forfeit",
            BoardResult::WhiteForfeit => "white_forfeit",
            BoardResult::Draw => "draw",
            BoardResult::DoubleLoss => "double_loss",
        }
    }
    pub fn from_code(s: &str) -> Option<BoardResult> {
        BoardResult::ALL.into_iter().find(|r| r.code() == s.trim())
    }
    /// As stored: `team_board_games.result` and `forfeit`.
    pub fn stored(self) -> (&'static str, bool) {
        match self {
            BoardResult::BlackForfeit => ("black", true),
            BoardResult::WhiteForfeit => ("white", true),
            r => (r.code(), false),
        }
    }
    pub fn from_stored(result: &str, forfeit: bool) -> BoardResult {
        match (BoardResult::from_code(result).unwrap_or(BoardResult::None), forfeit) {
            (BoardResult::Black, true) => BoardResult::BlackForfeit,
            (BoardResult::White, true) => BoardResult::WhiteForfeit,
            (r, _) => r,
        }
    }
    /// As the board-match scorer reads it (a win at the board is not told apart by method).
    pub fn game_result(self) -> Option<GameResult> {
        match self {
            BoardResult::None => None,
            BoardResult::Black => Some(GameResult::resignation(Color::Black)),
            BoardResult::White => Some(GameResult::resignation(Color::White)),
            BoardResult::BlackForfeit => Some(GameResult::forfeit(Color::Black)),
            BoardResult::WhiteForfeit => Some(GameResult::forfeit(Color::White)),
            BoardResult::Draw => Some(GameResult::draw()),
            BoardResult::DoubleLoss => Some(GameResult::double_loss(DoubleLossReason::Other)),
        }
    }
}

/// One board as entered: the players (the store's member ids) and the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BoardInput {
    pub first: Option<i32>,
    pub second: Option<i32>,
    pub result: BoardResult,
}

/// A board match as stored, and what its boards may hold.
pub struct BoardMatch<'a> {
    /// Boards of the match (0: a relay match), its round, its version.
    pub boards: i32,
    pub round: i32,
    pub version: i32,
    /// The team listed first, and the second (none: a bye).
    pub first: TeamId,
    pub second: Option<TeamId>,
    /// Each team's players: member id and position number (位置号).
    pub players: [&'a [(i32, Option<u32>)]; 2],
    /// The event's board-match scoring.
    pub config: BoardMatchConfig,
}

/// Checks the boards entered on the page of version `seen` and scores the match once every
/// board has a result (rules.md §13.2–13.3): each player of their own team, on one board
/// only, the boards in the order of the position numbers. `None`: not decided yet.
pub fn score_boards(
    m: &BoardMatch<'_>,
    seen: i32,
    input: &[BoardInput],
) -> Result<Option<TeamMatchRecord>, MatchRefusal> {
    if m.boards == 0 || m.second.is_none() {
        return Err(MatchRefusal::WrongKind);
    }
    unchanged_since(seen, m.version)?;
    if input.len() != usize::try_from(m.boards).unwrap_or(0) {
        return Err(MatchRefusal::WrongKind);
    }
    let second = m.second.ok_or(MatchRefusal::WrongKind)?;
    let plays = |side: usize, p: i32| m.players[side].iter().any(|(id, _)| *id == p);
    let mut seen_on = BTreeMap::new();
    for (i, b) in input.iter().enumerate() {
        let board = i as i32 + 1;
        for (side, p) in [(0, b.first), (1, b.second)] {
            if let Some(p) = p {
                if !plays(side, p) || seen_on.insert(p, board).is_some() {
                    return Err(MatchRefusal::BoardPlayer { board });
                }
            }
        }
    }
    // The board order follows the position numbers, for each team.
    let position = |side: usize, p: Option<i32>| -> Option<u32> {
        let p = p?;
        m.players[side].iter().find(|(id, _)| *id == p).and_then(|(_, pos)| *pos)
    };
    for side in [0, 1] {
        let positions: Vec<Option<u32>> =
            input.iter().map(|b| position(side, if side == 0 { b.first } else { b.second })).collect();
        if let Some(board) = board_order_error(&positions) {
            return Err(MatchRefusal::BoardOrder { board: i32::try_from(board).unwrap_or(0) });
        }
    }
    let Some(results) = input.iter().map(|b| b.result.game_result()).collect::<Option<Vec<GameResult>>>()
    else {
        return Ok(None);
    };
    let config = BoardMatchConfig { boards: u32::try_from(m.boards).unwrap_or(0), ..m.config };
    let config = BoardMatchConfig { main_board: config.main_board.filter(|&b| b <= config.boards), ..config };
    Ok(score_board_match(&config, &results)
        .ok()
        .map(|s| s.record(u32::try_from(m.round).unwrap_or(0), [m.first, second])))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event_time::EventZone;
    use crate::team::ending::Ending;
    use crate::team::event::Format;
    use crate::team::lineup::Section;
    use crate::team::relay::Card;
    use crate::team::roster::fixtures::team;
    use rules::clock::ClockReading;

    /// Section 1 starts here; its line-ups are due 300 s earlier.
    const T0: Timestamp = 1_700_000_000;

    fn setup() -> MatchSetup {
        MatchSetup {
            config: RelayConfig::default(),
            black: team(1, 100, 10),
            white: team(2, 200, 10),
            barred: [vec![], vec![]],
            start_at: T0,
            time_left: None,
        }
    }

    fn input(at: Timestamp, at_move: Option<AtMove>, event: Event) -> EventInput {
        EventInput { at, at_move, event, also: vec![] }
    }

    /// A log of `events`, numbered from 1, one second apart from `T0 - 600`.
    fn log(events: &[Event]) -> Vec<LoggedEvent> {
        (1..)
            .zip(events)
            .map(|(seq, e)| LoggedEvent {
                seq,
                at: T0 - 600 + i64::from(seq),
                event: e.clone(),
                withdrawn: false,
            })
            .collect()
    }

    fn lineups() -> Vec<Event> {
        vec![
            Event::SubmitLineup { side: Color::Black, section: Section::One, players: [111, 112] },
            Event::SubmitLineup { side: Color::White, section: Section::One, players: [211, 212] },
        ]
    }

    fn refused<T: std::fmt::Debug>(r: Result<T, Blocked>) -> MatchRefusal {
        match r {
            Err(Blocked::Refused(r)) => r,
            other => panic!("not a refusal: {other:?}"),
        }
    }

    /// Seed 003 Art. 11: no event is recorded before the leaders' nigiri decides the colours;
    /// a ruling that ends the game with no side at fault (Arts. 17.5, 17.6: 和棋, 重赛, 双方均负)
    /// is the chief arbiter's (裁判长).
    #[test]
    fn nigiri_first_and_the_chief_arbiters_rulings() {
        let lineup = input(T0 - 400, None, lineups()[0].clone());
        assert_eq!(admit(&lineup, true, true), Err(MatchRefusal::NigiriPending));
        assert_eq!(admit(&lineup, false, false), Ok(()));
        let end =
            |ending, side| Event::End {
                ending, side, reason: "棋局散乱".into(), ruled_by: "裁判长".into()
            };
        let replay = input(T0 + 60, None, end(Ending::ReplayScattered, None));
        assert!(replay.needs_chief());
        assert_eq!(admit(&replay, false, false), Err(MatchRefusal::NotChief));
        assert_eq!(admit(&replay, false, true), Ok(()));
        let forfeit = input(T0 + 60, None, end(Ending::Forfeit, Some(Color::White)));
        assert!(!forfeit.needs_chief());
        assert_eq!(admit(&forfeit, true, false), Err(MatchRefusal::NigiriPending));
    }

    /// Seed 003 Art. 10.2: an event entered at a move plays the moves in order up to it first,
    /// and one entered at a move the game has passed is refused; so is a time off the match's
    /// day or well before the last event (\[INF\]: events are recorded in the order they
    /// happen). A refusal of the state machine comes back typed.
    #[test]
    fn inputs_come_in_order_on_the_match_day() {
        let s = setup();
        let stored = log(&lineups());
        let r =
            ClockReading { main_secs: 2400, periods: 3, period_secs: 0, period_moves: 0, overtime: false };
        let clocks = Event::Clocks { move_number: None, clocks: [r, r] };
        let a = apply_input(&s, &stored, &input(T0 + 600, Some(AtMove::After(4)), clocks.clone())).unwrap();
        assert_eq!(a.events, vec![Event::MovesInOrder { through: 4 }, clocks.clone()]);
        assert_eq!((a.accepted.len(), a.m.moves()), (2, 4));

        let mut stored = stored;
        stored.extend(
            log(&[Event::MovesInOrder { through: 4 }]).into_iter().map(|e| LoggedEvent { seq: 3, ..e }),
        );
        let at = |m| input(T0 + 600, Some(m), clocks.clone());
        assert_eq!(
            refused(apply_input(&s, &stored, &at(AtMove::Is(4)))),
            MatchRefusal::Behind { asked: 4, moves: 4 }
        );
        assert_eq!(
            refused(apply_input(&s, &stored, &at(AtMove::After(3)))),
            MatchRefusal::Behind { asked: 3, moves: 4 }
        );
        assert_eq!(apply_input(&s, &stored, &at(AtMove::After(4))).unwrap().events, vec![clocks.clone()]);

        let when = |t| input(t, None, clocks.clone());
        let outside = MatchRefusal::TimeOutsideMatch { start: T0 };
        assert_eq!(refused(apply_input(&s, &stored, &when(T0 - EARLIEST_BEFORE_START - 1))), outside);
        assert_eq!(refused(apply_input(&s, &stored, &when(T0 + LATEST_AFTER_START + 1))), outside);
        let last = stored.iter().map(|e| e.at).max().unwrap();
        let early = when(last - BACKDATE_TOLERANCE - 1);
        assert_eq!(refused(apply_input(&s, &stored, &early)), MatchRefusal::TimeBackwards { last });
        assert!(apply_input(&s, &stored, &when(last - BACKDATE_TOLERANCE)).is_ok());

        let again = input(T0 + 600, None, lineups()[0].clone());
        assert!(matches!(refused(apply_input(&s, &stored, &again)), MatchRefusal::Relay(_)));
    }

    /// A stored event that no longer applies is a damaged log, never the arbiter's refusal.
    #[test]
    fn a_damaged_log_is_not_a_refusal() {
        let mut unseated = vec![Event::MovesInOrder { through: 4 }];
        unseated.extend(lineups());
        let r = apply_input(&setup(), &log(&unseated), &input(T0, None, Event::MovesInOrder { through: 6 }));
        assert!(matches!(r, Err(Blocked::Damaged(LogDamaged { seq: 1, .. }))), "{r:?}");
    }

    /// Seed 003 Art. 24.3: a red card bars the person from this game and the next, so taking it
    /// back changes the next game and is refused once the next team round is paired; only the
    /// chief arbiter withdraws an event, with a reason.
    #[test]
    fn withdrawals_that_change_the_next_game_wait_for_no_later_round() {
        let s = setup();
        let mut events = lineups();
        events.push(Event::Card { person: 101, card: Card::Red, offence: None });
        let stored = log(&events);
        let w = |seq, reason, chief| withdraw(Some(&s), &stored, seq, reason, chief, 1);
        assert_eq!(refused(w(3, "记错", false)), MatchRefusal::NotChief);
        assert_eq!(refused(w(3, "  ", true)), MatchRefusal::ReasonRequired);
        let unknown = MatchRefusal::Withdraw(WithdrawError::UnknownEvent { seq: 9 });
        assert_eq!(refused(w(9, "记错", true)), unknown);
        let none = withdraw(None, &stored, 3, "记错", true, 1);
        assert_eq!(refused(none), MatchRefusal::Withdraw(WithdrawError::UnknownEvent { seq: 3 }));

        let red = w(3, "记错", true).unwrap();
        assert_eq!(red.before.barred_next_game(Color::Black), vec![101]);
        assert!(red.after.barred_next_game(Color::Black).is_empty());
        assert!(red.changes_what_follows());
        assert_eq!(red.allowed_with(Some(2)), Err(MatchRefusal::LaterRound { round: 2 }));
        assert_eq!(red.allowed_with(None), Ok(()));
        // Moves taken back change nothing that follows; a line-up the moves need cannot go
        // first: the later event is named.
        let mut moves = lineups();
        moves.push(Event::MovesInOrder { through: 4 });
        let moves = log(&moves);
        let w = withdraw(Some(&s), &moves, 3, "记错", true, 1).unwrap();
        assert!(!w.changes_what_follows());
        assert_eq!(w.allowed_with(Some(2)), Ok(()));
        let needed = withdraw(Some(&s), &moves, 1, "记错", true, 1);
        assert!(matches!(
            refused(needed),
            MatchRefusal::Withdraw(WithdrawError::LaterEventFails { seq: 1, later: 3, .. })
        ));
    }

    /// Seed 003 Arts. 17.5 (4), 17.6 (2): a match ending with no result is replayed (重赛); a
    /// withdrawal that takes the ruling back takes back its replay while nothing was recorded
    /// in it, and one that leads to no result orders the replay.
    #[test]
    fn replays_follow_the_record() {
        let m = setup().new_match().unwrap();
        let rec = |outcome| TeamMatchRecord {
            round: 1,
            teams: [1, 2],
            outcome,
            match_points: [0, 0],
            game_points: [0, 0],
            board_winners: vec![],
            main_board: None,
            forfeit: false,
            nominal_winner: None,
        };
        let w = |before, after| Withdrawal {
            before: m.clone(),
            after: m.clone(),
            record_before: before,
            record_after: after,
        };
        let taken_back = w(Some(rec(TeamOutcome::NoResult)), None);
        assert_eq!(taken_back.replay_change(Some((8, false))), Ok(ReplayChange::Delete(8)));
        assert_eq!(taken_back.replay_change(Some((8, true))), Err(MatchRefusal::ReplayStarted { replay: 8 }));
        assert_eq!(taken_back.replay_change(None), Ok(ReplayChange::Keep));
        let ordered = w(Some(rec(TeamOutcome::FirstWins)), Some(rec(TeamOutcome::NoResult)));
        assert_eq!(ordered.replay_change(None), Ok(ReplayChange::Create));
        assert_eq!(ordered.replay_change(Some((8, false))), Ok(ReplayChange::Keep));
        assert_eq!(w(None, None).replay_change(Some((8, true))), Ok(ReplayChange::Keep));
    }

    /// Seed 003 Arts. 10.2–10.4: a relay team needs six players (three sections of two, each
    /// playing one section at most), so a short team is not paired; team rounds are paired in
    /// order within the declared rounds, and a Swiss round (not a round robin) waits for every
    /// match before it.
    #[test]
    fn team_rounds_pair_in_order_with_teams_that_can_play() {
        let mut s = TournamentSettings::defaults(chrono::NaiveDate::MIN, EventZone::default());
        s.system = System::TeamRelay;
        s.rounds = 3;
        let mut ts = TeamSettings::default();
        let rosters: Vec<Team> = (1..=4).map(|t| team(t, t * 100, 8)).collect();
        let es: Vec<TeamEntry> = (1..=4).map(TeamEntry::plain).collect();
        let inp =
            |s: &TournamentSettings, ts: &TeamSettings, round, paired: &[(i32, Plan)], undecided, rosters| {
                plan_team_round(&TeamRoundInput {
                    settings: s,
                    team: ts,
                    paired,
                    undecided,
                    entries: &es,
                    rosters,
                    records: &[],
                    byes: &[],
                    round,
                    seed: 7,
                })
            };
        let first = inp(&s, &ts, 1, &[], None, &rosters).unwrap();
        assert_eq!((first.draft.games.len(), first.draft.byes.len()), (2, 0));
        assert_eq!((first.stage, first.boards), (Stage::RoundRobin, 0));
        let paired = [(1, first.draft.plan.clone())];
        assert_eq!(inp(&s, &ts, 3, &paired, None, &rosters).unwrap_err(), PairRefusal::NotNext { next: 2 });
        assert!(inp(&s, &ts, 2, &paired, Some(1), &rosters).is_ok(), "a round robin does not wait");
        let three = [(1, Plan::default()), (2, Plan::default()), (3, Plan::default())];
        assert_eq!(
            inp(&s, &ts, 4, &three, None, &rosters).unwrap_err(),
            PairRefusal::BeyondRounds { rounds: 3 }
        );

        let mut short = rosters.clone();
        short[2].players.truncate(5);
        assert_eq!(
            inp(&s, &ts, 1, &[], None, &short).unwrap_err(),
            PairRefusal::ShortTeams { need: 6, teams: vec![("Team 3".into(), 5)] }
        );
        ts.pairing = TeamPairing::Swiss;
        assert_eq!(
            inp(&s, &ts, 2, &paired, Some(1), &rosters).unwrap_err(),
            PairRefusal::Undecided { round: 1 }
        );
        ts.format = Format::Boards;
        let boards = inp(&s, &ts, 2, &paired, None, &rosters).unwrap();
        assert_eq!(boards.boards, 4);
        let individual = TournamentSettings { system: System::Swiss, ..s };
        assert_eq!(inp(&individual, &ts, 1, &[], None, &rosters).unwrap_err(), PairRefusal::NotTeamEvent);
    }

    /// A team round may be deleted only as the last one, and only while none of its matches
    /// has an event or a result.
    #[test]
    fn only_the_last_untouched_round_is_deleted() {
        assert_eq!(deletable(1, 2, false), Err(PairRefusal::NotLast { last: 2 }));
        assert_eq!(deletable(2, 2, true), Err(PairRefusal::HasResults));
        assert_eq!(deletable(2, 2, false), Ok(()));
    }

    /// rules.md §13.2–13.3: each board's players play for their own team, one board each, in
    /// the order of their position numbers; the match is scored (2/1/0 a board, then match
    /// points) once every board has a result, on the page of the match's current version.
    #[test]
    fn board_matches_are_checked_and_scored() {
        let first: Vec<(i32, Option<u32>)> = (1..=5).map(|p| (10 + p, Some(p as u32))).collect();
        let second: Vec<(i32, Option<u32>)> = (1..=5).map(|p| (20 + p, Some(p as u32))).collect();
        let ts = TeamSettings { format: Format::Boards, boards: 2, ..TeamSettings::default() };
        let m = BoardMatch {
            boards: 2,
            round: 1,
            version: 3,
            first: 1,
            second: Some(2),
            players: [&first, &second],
            config: ts.board_config(),
        };
        let b = |first, second, result| BoardInput { first: Some(first), second: Some(second), result };
        // Board 2: the team listed first has White.
        let done = [b(11, 21, BoardResult::Black), b(12, 22, BoardResult::White)];
        let rec = score_boards(&m, 3, &done).unwrap().expect("decided");
        assert_eq!((rec.teams, rec.outcome, rec.game_points), ([1, 2], TeamOutcome::FirstWins, [4, 0]));
        let open = [b(11, 21, BoardResult::Black), b(12, 22, BoardResult::None)];
        assert_eq!(score_boards(&m, 3, &open), Ok(None));

        assert_eq!(score_boards(&m, 2, &done), Err(MatchRefusal::Stale { current: 3 }));
        assert_eq!(score_boards(&m, 3, &done[..1]), Err(MatchRefusal::WrongKind));
        let bye = BoardMatch { second: None, players: [&first, &second], ..m };
        assert_eq!(score_boards(&bye, 3, &done), Err(MatchRefusal::WrongKind));
        let foreign = [b(21, 22, BoardResult::Black), b(12, 23, BoardResult::Black)];
        assert_eq!(score_boards(&m, 3, &foreign), Err(MatchRefusal::BoardPlayer { board: 1 }));
        let twice = [b(11, 21, BoardResult::Black), b(11, 22, BoardResult::Black)];
        assert_eq!(score_boards(&m, 3, &twice), Err(MatchRefusal::BoardPlayer { board: 2 }));
        let swapped = [b(12, 21, BoardResult::Black), b(11, 22, BoardResult::Black)];
        assert_eq!(score_boards(&m, 3, &swapped), Err(MatchRefusal::BoardOrder { board: 2 }));
    }
}
