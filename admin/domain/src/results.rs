//! Results of games (rules.md §3.6, §5, §7, §8, §11, §12): what an arbiter enters, and the
//! final result the rules crate computes from it and the game's rulings.
//!
//! No arithmetic of the rules lives here: counts become results through
//! [`rules::rulings::apply_rulings`] (komi, handicap compensation and penalty stones of the
//! game's rule set), lateness through [`rules::clock::assess_both`] and
//! [`rules::rulings::lateness_rulings`]. This module only says which base result an entry is,
//! checks what an arbiter typed, and translates results into the pairing's vocabulary.
//!
//! Readings chosen here:
//! - Rulings that decide a game (a loss, a double loss, a draw, a replay, no result, the loss of
//!   the second warning) stand over a count, a resignation or a time loss entered before them
//!   (the rules crate's order: cheating found after the count still loses, Art. 23). An entry
//!   saved while a ruling already decides the game must say what the ruling decided: any other
//!   entry is refused, naming the ruling (kind, side, move), and so is a ruling that decides
//!   otherwise than an entry that is itself a decision (forfeit, lateness, double loss, draw,
//!   no result, replay): one of the two must go.
//! - Colours (rules.md §4.2, §4.3): a sheet is kept in the colours the game was *played* with.
//!   On a nigiri board whose nigiri is not recorded yet nobody has Black: an entry of a game
//!   played on the board (count, resignation, time, draw, no result, replay, a double loss
//!   for something that happened in play) and a ruling after move 0 need the nigiri first. A
//!   game never played (forfeit, lateness, both late, bye) needs none: its winner is a player,
//!   shown by name on the form, and the seats stay the nominal ones (the guesser first).
//! - A replay (重赛) and a no-result (无胜负) game is replayed: both create the replay game, with
//!   the clocks noted (rules.md §9: "replay immediately using each side's remaining time").

use crate::pairing::GameResult as Pairing;
use rules::board::Color;
use rules::clock::{self, BothLateness, ClockState, LatenessPolicy, LatenessVerdict, TimeControl};
use rules::rulings::{
    apply_rulings, lateness_rulings, Applied, ApplyInputs, BaseResult, DoubleLossReason, GameResult,
    ResultMethod, Ruling, RulingError, RulingKind,
};
use rules::sgf;
use rules::RuleSet;
use serde::{Deserialize, Serialize};

/// The clocks a replayed game starts from (seconds of basic time left for each side).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    pub black_secs: u32,
    pub white_secs: u32,
}

/// What the arbiter entered for a game (rules.md §3.6 and §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "snake_case")]
pub enum Entry {
    /// Counted: Black's count in half points (184.5 → 369), and White's if it was entered too.
    Count {
        black_halves: u32,
        #[serde(default)]
        white_halves: Option<u32>,
    },
    /// 中盘胜.
    Resignation { winner: Color },
    /// 超时胜.
    Time { winner: Color },
    /// 弃权: one side absent.
    Forfeit { winner: Color },
    /// 迟到判负: late beyond the event's limit.
    Lateness { winner: Color },
    /// 双方均负 (rules.md §12).
    DoubleLoss { reason: DoubleLossReason },
    /// 和棋.
    Draw,
    /// 无胜负: replayed (with the clocks noted, if given).
    NoResult {
        #[serde(default)]
        clocks: Option<Clocks>,
    },
    /// 重赛: the replay game is created (with the clocks noted, if given).
    Replay {
        #[serde(default)]
        clocks: Option<Clocks>,
    },
    /// 轮空: a game with one player.
    Bye,
}

/// The method codes of the entry form, in the order the form offers them.
pub const METHODS: [&str; 10] = [
    "count",
    "resignation",
    "time",
    "forfeit",
    "lateness",
    "double_loss",
    "draw",
    "no_result",
    "replay",
    "bye",
];

impl Entry {
    pub fn code(&self) -> &'static str {
        match self {
            Entry::Count { .. } => "count",
            Entry::Resignation { .. } => "resignation",
            Entry::Time { .. } => "time",
            Entry::Forfeit { .. } => "forfeit",
            Entry::Lateness { .. } => "lateness",
            Entry::DoubleLoss { .. } => "double_loss",
            Entry::Draw => "draw",
            Entry::NoResult { .. } => "no_result",
            Entry::Replay { .. } => "replay",
            Entry::Bye => "bye",
        }
    }

    /// The base result the rules crate applies rulings to; `Unfinished` for entries that are
    /// decisions of their own.
    fn base(&self) -> BaseResult {
        match *self {
            Entry::Count { black_halves, .. } => BaseResult::Count { black_halves },
            Entry::Resignation { winner } => BaseResult::Resignation { winner },
            Entry::Time { winner } => BaseResult::Time { winner },
            _ => BaseResult::Unfinished,
        }
    }

    /// The result an entry that decides the game by itself stands for.
    fn direct(&self, bye_side: Color) -> Option<GameResult> {
        Some(match *self {
            Entry::Forfeit { winner } => GameResult::forfeit(winner),
            Entry::Lateness { winner } => GameResult::lateness(winner),
            Entry::DoubleLoss { reason } => GameResult::double_loss(reason),
            Entry::Draw => GameResult::draw(),
            Entry::NoResult { .. } => GameResult::no_result(),
            Entry::Replay { .. } => GameResult::replay(),
            Entry::Bye => GameResult::bye(bye_side),
            Entry::Count { .. } | Entry::Resignation { .. } | Entry::Time { .. } => return None,
        })
    }

    /// Whether the entry is the result of a game played on the board, which needs the colours
    /// (rules.md §4.2): everything but a game never played (forfeit, lateness, both late,
    /// bye).
    pub fn played_on_board(&self) -> bool {
        !matches!(
            self,
            Entry::Forfeit { .. }
                | Entry::Lateness { .. }
                | Entry::Bye
                | Entry::DoubleLoss { reason: DoubleLossReason::BothLate }
        )
    }

    /// The ruling an entry that is itself a referee's decision stands for (a draw, a replay, a
    /// double loss), whose hands the rules name ([`RulingKind::needs_chief`]).
    pub fn ruling_kind(&self) -> Option<RulingKind> {
        match *self {
            Entry::Draw => Some(RulingKind::Draw),
            Entry::Replay { .. } => Some(RulingKind::Replay),
            Entry::DoubleLoss { reason } => Some(RulingKind::DoubleLoss { reason }),
            _ => None,
        }
    }

    /// Whether only the chief arbiter may enter it (seed 000 Arts. 17.5, 17.6): a draw, a
    /// replay, a double loss other than both players late (Art. 22.3).
    pub fn needs_chief(&self, rules: &RuleSet) -> bool {
        self.ruling_kind().is_some_and(|k| k.needs_chief(rules))
    }

    /// The clocks a replay starts from, for entries that create a replay game.
    pub fn replay_clocks(&self) -> Option<Option<Clocks>> {
        match *self {
            Entry::NoResult { clocks } | Entry::Replay { clocks } => Some(clocks),
            _ => None,
        }
    }
}

/// Whether saving `after` over a game's stored entry `before` is the chief arbiter's (seed 000
/// Arts. 17.5, 17.6; decision D21): entering, changing or clearing a draw, a replay or a double
/// loss. Saving the same entry again changes no decision and is any arbiter's.
pub fn change_needs_chief(rules: &RuleSet, before: Option<&Entry>, after: Option<&Entry>) -> bool {
    let chiefs = |e: Option<&Entry>| e.is_some_and(|e| e.needs_chief(rules));
    (chiefs(after) || chiefs(before)) && after != before
}

/// Which seats of a game hold a player, and whether the colours are known (false on a nigiri
/// board while its nigiri is not recorded: rules.md §4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seats {
    pub black: bool,
    pub white: bool,
    pub colours: bool,
}

impl Seats {
    /// A game with both players and known colours.
    pub const BOTH: Seats = Seats { black: true, white: true, colours: true };

    pub fn both(self) -> bool {
        self.black && self.white
    }
    /// The one seated side of a bye.
    pub fn bye_side(self) -> Option<Color> {
        match (self.black, self.white) {
            (true, false) => Some(Color::Black),
            (false, true) => Some(Color::White),
            _ => None,
        }
    }
}

/// Why an entry or a set of rulings cannot be saved. The web layer words them (catalog keys
/// `r.err.*`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResultError {
    /// A count above the board's points (`points` whole points).
    CountAbovePoints { points: u32 },
    /// Black's and White's counts do not add up to the board's points.
    CountsDisagree { points: u32 },
    /// A bye needs a game with exactly one player.
    ByeNeedsOnePlayer,
    /// A game with one player can only be a bye.
    OnlyByeForOnePlayer,
    /// The rulings cannot be applied (the rules crate's reason).
    Ruling(RulingError),
    /// `ruling` already decides this game (`decided`): an entry or a ruling that says
    /// otherwise is refused until that ruling is deleted.
    RulingDecides { ruling: Option<Ruling>, decided: GameResult },
    /// The nigiri of this board is not recorded: nobody has Black yet (rules.md §4.2). `entry`:
    /// refused for an entry (else for a ruling during play).
    NigiriPending { entry: bool },
}

impl ResultError {
    /// The form field the message goes beside.
    pub fn field(&self) -> &'static str {
        match self {
            ResultError::CountAbovePoints { .. } => "black_count",
            ResultError::CountsDisagree { .. } => "white_count",
            ResultError::Ruling(_) | ResultError::NigiriPending { entry: false } => "kind",
            _ => "method",
        }
    }
}

/// A game's result as computed: the final result (None: not decided yet), the rules crate's
/// tally of the rulings (penalty stones, warnings, an explanation of every effect), and
/// whether a ruling decided it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Computed {
    pub result: Option<GameResult>,
    pub applied: Applied,
    pub decided_by_ruling: bool,
}

/// A counted entry from Black's count, White's, or both (half points): a White count alone
/// stands for the rest of the board.
pub fn count_entry(
    rules: &RuleSet,
    black: Option<u32>,
    white: Option<u32>,
) -> Option<Result<Entry, ResultError>> {
    let points = u32::from(rules.board_size) * u32::from(rules.board_size);
    Some(match (black, white) {
        (None, None) => return None,
        (Some(b), w) => Ok(Entry::Count { black_halves: b, white_halves: w }),
        (None, Some(w)) if w > 2 * points => Err(ResultError::CountAbovePoints { points }),
        (None, Some(w)) => Ok(Entry::Count { black_halves: 2 * points - w, white_halves: Some(w) }),
    })
}

/// Check an entry against the board and the seats of the game.
pub fn check_entry(rules: &RuleSet, entry: &Entry, seats: Seats) -> Result<(), ResultError> {
    let points = u32::from(rules.board_size) * u32::from(rules.board_size);
    match *entry {
        Entry::Bye if seats.bye_side().is_none() => return Err(ResultError::ByeNeedsOnePlayer),
        Entry::Bye => return Ok(()),
        _ if !seats.both() => return Err(ResultError::OnlyByeForOnePlayer),
        _ if !seats.colours && entry.played_on_board() => {
            return Err(ResultError::NigiriPending { entry: true })
        }
        Entry::Count { black_halves, white_halves } => {
            if black_halves > 2 * points || white_halves.is_some_and(|w| w > 2 * points) {
                return Err(ResultError::CountAbovePoints { points });
            }
            if white_halves.is_some_and(|w| w + black_halves != 2 * points) {
                return Err(ResultError::CountsDisagree { points });
            }
        }
        _ => {}
    }
    Ok(())
}

/// The final result of a game from its entry (if any) and its rulings, under the event's rule
/// set and the game's handicap. A ruling during play (after move 0) needs the colours; a
/// ruling that decides otherwise than an entry which is itself a decision is refused.
pub fn compute(
    rules: &RuleSet,
    handicap: u8,
    seats: Seats,
    entry: Option<&Entry>,
    rulings: &[Ruling],
) -> Result<Computed, ResultError> {
    if let Some(e) = entry {
        check_entry(rules, e, seats)?;
    }
    if !seats.colours && rulings.iter().any(|r| r.move_number > 0) {
        return Err(ResultError::NigiriPending { entry: false });
    }
    let inputs = ApplyInputs { handicap, ..ApplyInputs::default() };
    let decided =
        apply_rulings(rules, BaseResult::Unfinished, rulings, &inputs).map_err(ResultError::Ruling)?.result;
    let base = entry.map(Entry::base).unwrap_or(BaseResult::Unfinished);
    let applied = apply_rulings(rules, base, rulings, &inputs).map_err(ResultError::Ruling)?;
    let direct = entry.and_then(|e| e.direct(seats.bye_side().unwrap_or(Color::Black)));
    let result = match (decided, direct) {
        (Some(d), Some(own)) if d != own => return Err(refusal(rules, rulings, &inputs, d)),
        (Some(d), _) => Some(d),
        (None, Some(own)) => Some(own),
        (None, None) => applied.result,
    };
    Ok(Computed { result, applied, decided_by_ruling: decided.is_some() })
}

/// What saving `entry` gives over the game's rulings: [`compute`], and first the check that
/// an entry saved while a ruling already decides the game says what that ruling decided (a
/// resignation entered after the second warning lost the game is refused, naming the
/// warning). Clearing the entry (`None`) is always possible.
pub fn compute_entry(
    rules: &RuleSet,
    handicap: u8,
    seats: Seats,
    entry: Option<&Entry>,
    rulings: &[Ruling],
) -> Result<Computed, ResultError> {
    let computed = compute(rules, handicap, seats, entry, rulings)?;
    let (Some(e), Some(decided), true) = (entry, computed.result, computed.decided_by_ruling) else {
        return Ok(computed);
    };
    let own = compute(rules, handicap, seats, Some(e), &[])?.result;
    if own != Some(decided) {
        let inputs = ApplyInputs { handicap, ..ApplyInputs::default() };
        return Err(refusal(rules, rulings, &inputs, decided));
    }
    Ok(computed)
}

/// The refusal naming the ruling that decides the game: the first, in move order, after which
/// the rulings decide it.
fn refusal(rules: &RuleSet, rulings: &[Ruling], inputs: &ApplyInputs, decided: GameResult) -> ResultError {
    let mut sorted: Vec<Ruling> = rulings.to_vec();
    sorted.sort_by_key(|r| r.move_number);
    let ruling = (1..=sorted.len())
        .find(|&k| {
            apply_rulings(rules, BaseResult::Unfinished, &sorted[..k], inputs)
                .is_ok_and(|a| a.result.is_some())
        })
        .map(|k| sorted[k - 1]);
    ResultError::RulingDecides { ruling, decided }
}

/// The result as pairing and standings count it; `None` for a bye (a bye record instead).
pub fn for_pairing(r: &GameResult) -> Option<Pairing> {
    let won = |by_forfeit: bool| match (r.winner, by_forfeit) {
        (Some(Color::Black), false) => Pairing::BlackWins,
        (Some(Color::White), false) => Pairing::WhiteWins,
        (Some(Color::Black), true) => Pairing::BlackWinsByForfeit,
        (Some(Color::White), true) => Pairing::WhiteWinsByForfeit,
        (None, _) => Pairing::Draw,
    };
    Some(match r.method {
        ResultMethod::Count { .. }
        | ResultMethod::Resignation
        | ResultMethod::Time
        | ResultMethod::RefereeLoss { .. } => won(false),
        ResultMethod::Forfeit | ResultMethod::Lateness => won(true),
        ResultMethod::Draw => Pairing::Draw,
        ResultMethod::DoubleLoss { reason: DoubleLossReason::BothLate } => Pairing::DoubleForfeit,
        ResultMethod::DoubleLoss { .. } => Pairing::DoubleLoss,
        ResultMethod::NoResult | ResultMethod::Replay => Pairing::NoResult,
        ResultMethod::Bye => return None,
    })
}

/// A result of the played colours as the assigned seats read it (rules.md §4.3: pairing and
/// standings credit the assigned Black and White; a game played with the colours swapped
/// credits the win of the Black who played to the assigned White).
pub fn for_assigned(r: &GameResult, played_swapped: bool) -> Option<Pairing> {
    let p = for_pairing(r)?;
    Some(if played_swapped { swap_seats(p) } else { p })
}

/// The same result with the seats exchanged.
pub fn swap_seats(p: Pairing) -> Pairing {
    match p {
        Pairing::BlackWins => Pairing::WhiteWins,
        Pairing::WhiteWins => Pairing::BlackWins,
        Pairing::BlackWinsByForfeit => Pairing::WhiteWinsByForfeit,
        Pairing::WhiteWinsByForfeit => Pairing::BlackWinsByForfeit,
        other => other,
    }
}

/// The OpenGotha result code of a result (kept in `games.result`, which imports fill), for the
/// assigned seats (`played_swapped`: the result is of the swapped colours).
pub fn opengotha_code(r: Option<&GameResult>, played_swapped: bool) -> &'static str {
    let Some(r) = r else { return "RESULT_UNKNOWN" };
    if r.method == ResultMethod::Bye {
        return "BYE";
    }
    match for_assigned(r, played_swapped) {
        Some(Pairing::BlackWins) => "RESULT_BLACKWINS",
        Some(Pairing::WhiteWins) => "RESULT_WHITEWINS",
        Some(Pairing::BlackWinsByForfeit) => "RESULT_BLACKWINS_BYDEF",
        Some(Pairing::WhiteWinsByForfeit) => "RESULT_WHITEWINS_BYDEF",
        Some(Pairing::Draw) => "RESULT_EQUAL",
        Some(Pairing::DoubleLoss) => "RESULT_BOTHLOSE",
        Some(Pairing::DoubleForfeit) => "RESULT_BOTHLOSE_BYDEF",
        Some(Pairing::NoResult) | None => "RESULT_UNKNOWN",
    }
}

/// What happened in a game, in OpenGotha's result codes. They are the codes `games.result`
/// stores (imports fill it, [`opengotha_code`] writes it), so the store reads its own column
/// with them here; the OpenGotha file reader re-exports them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OgOutcome {
    /// Not entered yet.
    Unknown,
    BlackWins,
    WhiteWins,
    /// RESULT_EQUAL: jigo or another reason for half a point each.
    Jigo,
    BothLose,
    BothWin,
}

/// A game result: the outcome and whether it was by default (forfeit, `_BYDEF`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OgResult {
    pub outcome: OgOutcome,
    pub by_default: bool,
}

impl OgResult {
    pub const UNKNOWN: OgResult = OgResult { outcome: OgOutcome::Unknown, by_default: false };

    /// Parses OpenGotha's result codes: RESULT_UNKNOWN, RESULT_BLACKWINS, RESULT_WHITEWINS,
    /// RESULT_EQUAL, RESULT_BOTHLOSE, RESULT_BOTHWIN, the last five also with `_BYDEF`.
    pub fn parse(code: &str) -> Option<OgResult> {
        let code = code.trim();
        if code == "RESULT_UNKNOWN" {
            return Some(OgResult::UNKNOWN);
        }
        let (base, by_default) = match code.strip_suffix("_BYDEF") {
            Some(base) => (base, true),
            None => (code, false),
        };
        let outcome = match base {
            "RESULT_BLACKWINS" => OgOutcome::BlackWins,
            "RESULT_WHITEWINS" => OgOutcome::WhiteWins,
            "RESULT_EQUAL" => OgOutcome::Jigo,
            "RESULT_BOTHLOSE" => OgOutcome::BothLose,
            "RESULT_BOTHWIN" => OgOutcome::BothWin,
            _ => return None,
        };
        Some(OgResult { outcome, by_default })
    }

    /// The OpenGotha code, e.g. "RESULT_WHITEWINS_BYDEF" (for an export).
    pub fn code(self) -> String {
        let base = match self.outcome {
            OgOutcome::Unknown => return "RESULT_UNKNOWN".into(),
            OgOutcome::BlackWins => "RESULT_BLACKWINS",
            OgOutcome::WhiteWins => "RESULT_WHITEWINS",
            OgOutcome::Jigo => "RESULT_EQUAL",
            OgOutcome::BothLose => "RESULT_BOTHLOSE",
            OgOutcome::BothWin => "RESULT_BOTHWIN",
        };
        if self.by_default {
            format!("{base}_BYDEF")
        } else {
            base.into()
        }
    }
}

/// An imported OpenGotha result code as the pairing reads it (None: no result, or a bye).
pub fn imported(code: &str) -> Option<Pairing> {
    use Pairing as P;
    let r = OgResult::parse(code)?;
    Some(match (r.outcome, r.by_default) {
        (OgOutcome::BlackWins, false) => P::BlackWins,
        (OgOutcome::WhiteWins, false) => P::WhiteWins,
        (OgOutcome::BlackWins, true) => P::BlackWinsByForfeit,
        (OgOutcome::WhiteWins, true) => P::WhiteWinsByForfeit,
        (OgOutcome::Jigo, _) => P::Draw,
        (OgOutcome::BothLose, false) => P::DoubleLoss,
        (OgOutcome::BothLose, true) => P::DoubleForfeit,
        // "Both win" has no place in the Chinese rules; it counts as no result here.
        (OgOutcome::BothWin | OgOutcome::Unknown, _) => return None,
    })
}

/// The code of a result's method, as stored for listing ("count", "forfeit", ...).
pub fn method_code(m: &ResultMethod) -> &'static str {
    match m {
        ResultMethod::Count { .. } => "count",
        ResultMethod::Resignation => "resignation",
        ResultMethod::Time => "time",
        ResultMethod::Forfeit => "forfeit",
        ResultMethod::Lateness => "lateness",
        ResultMethod::RefereeLoss { .. } => "referee_loss",
        ResultMethod::Draw => "draw",
        ResultMethod::NoResult => "no_result",
        ResultMethod::Replay => "replay",
        ResultMethod::DoubleLoss { .. } => "double_loss",
        ResultMethod::Bye => "bye",
    }
}

// ---------------------------------------------------------------------------------------------
// Game records (SGF)
// ---------------------------------------------------------------------------------------------

/// What the rules crate found replaying an uploaded record under the event's rules (komi of
/// the event, not the record's KM). Typed values only, stored as JSON with the record and
/// worded at view time in the reader's language (`i18n/sgf.rs`). Reports stored before they
/// were typed (sentences) do not parse as this shape; the page checks the stored bytes again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SgfReport {
    pub black_name: Option<String>,
    pub white_name: Option<String>,
    pub moves: u32,
    /// The first illegal move (the replay stops there).
    pub illegal: Option<sgf::IllegalAt>,
    pub black_halves: u32,
    pub white_halves: u32,
    /// The result of the count under the event's scoring.
    pub result: GameResult,
    /// RE[] of the record as written, if any, and whether the computed result agrees with it.
    pub record_result: Option<String>,
    pub agreement: sgf::Agreement,
    /// The reader's warnings, then the replay's notes.
    pub warnings: Vec<sgf::Warning>,
    pub notes: Vec<sgf::Note>,
    /// The encoding the file was read in ("UTF-8", "GBK", "Big5", …).
    pub encoding: String,
}

/// Why an uploaded record is refused (nothing is kept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SgfCheckError {
    /// Larger than `max_kb` KB.
    TooLarge { max_kb: usize },
    /// The reader's error, with its line and column.
    Unreadable(sgf::SgfError),
    /// A board the replay cannot set up.
    BoardSize { size: u32 },
}

/// Largest record accepted (a long game is about 10 KB).
pub const MAX_SGF_BYTES: usize = 512 * 1024;

/// Read and replay a record under the event's rules, komi and handicap.
pub fn check_sgf(rules: &RuleSet, handicap: u8, bytes: &[u8]) -> Result<SgfReport, SgfCheckError> {
    if bytes.len() > MAX_SGF_BYTES {
        return Err(SgfCheckError::TooLarge { max_kb: MAX_SGF_BYTES / 1024 });
    }
    let rec = sgf::parse_bytes(bytes).map_err(SgfCheckError::Unreadable)?;
    let komi_q = rules.scoring(handicap, 0, 0).komi_q;
    let opts = sgf::ReplayOptions { rules: rules.clone(), komi_q: Some(komi_q), dead: None };
    let r = sgf::replay(&rec, &opts).map_err(|e| SgfCheckError::BoardSize { size: e.0 })?;
    Ok(SgfReport {
        black_name: rec.info.black,
        white_name: rec.info.white,
        moves: r.moves_played,
        illegal: r.illegal,
        black_halves: r.count.black_halves,
        white_halves: r.count.white_halves,
        result: GameResult::counted(&r.scoring, r.count.black_halves),
        record_result: rec.result_text,
        agreement: r.agreement,
        warnings: rec.warnings,
        notes: r.notes,
        encoding: rec.encoding,
    })
}

// ---------------------------------------------------------------------------------------------
// Times typed by arbiters
// ---------------------------------------------------------------------------------------------

/// A wall-clock time "HH:MM" or "HH:MM:SS" (24 h) → seconds after midnight.
pub fn parse_time_of_day(s: &str) -> Option<u32> {
    let parts: Vec<&str> = s.trim().split(':').collect();
    if !(2..=3).contains(&parts.len()) || parts.iter().skip(1).any(|p| p.len() != 2) {
        return None;
    }
    let n = |p: &str| p.parse::<u32>().ok().filter(|_| p.bytes().all(|b| b.is_ascii_digit()));
    let h = n(parts[0]).filter(|h| *h < 24 && !parts[0].is_empty() && parts[0].len() <= 2)?;
    let m = n(parts[1]).filter(|m| *m < 60)?;
    let sec = match parts.get(2) {
        Some(p) => n(p).filter(|s| *s < 60)?,
        None => 0,
    };
    Some(h * 3600 + m * 60 + sec)
}

/// Seconds after midnight as "HH:MM", or "HH:MM:SS" when there are seconds.
pub fn time_of_day_text(secs: u32) -> String {
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if s == 0 {
        format!("{h:02}:{m:02}")
    } else {
        format!("{h:02}:{m:02}:{s:02}")
    }
}

/// A clock reading typed by an arbiter: "H:MM:SS", "MM:SS" or whole minutes → seconds (at
/// most the rules crate's longest duration).
pub fn parse_clock(s: &str) -> Option<u32> {
    let s = s.trim();
    let digits = |p: &str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    let parts: Vec<&str> = s.split(':').collect();
    if !parts.iter().all(|p| digits(p)) {
        return None;
    }
    let v: Vec<u64> = parts.iter().map(|p| p.parse::<u64>().ok()).collect::<Option<_>>()?;
    let secs = match v.as_slice() {
        [m] => m.checked_mul(60)?,
        [m, s] if *s < 60 && parts[1].len() == 2 => m * 60 + s,
        [h, m, s] if *m < 60 && *s < 60 && parts[1].len() == 2 && parts[2].len() == 2 => {
            h * 3600 + m * 60 + s
        }
        _ => return None,
    };
    u32::try_from(secs).ok().filter(|s| *s <= clock::MAX_DURATION_SECS)
}

// ---------------------------------------------------------------------------------------------
// Lateness (rules.md §7)
// ---------------------------------------------------------------------------------------------

/// One side at the start of a game: not seen yet, or arrived at a wall-clock time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SideLateness {
    /// No arrival recorded. `deadline`: the last moment to be seated (None: no limit).
    Waiting { deadline: Option<u32> },
    /// Arrived; the rules crate's verdict.
    Judged(LatenessVerdict),
}

/// What the lateness page shows for one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameLateness {
    pub black: SideLateness,
    pub white: SideLateness,
    /// Both sides judged: the rulings lateness calls for (empty when both play).
    pub rulings: Option<Vec<Ruling>>,
}

/// The clock a resumed game starts from for one side: the noted time, else a fresh clock.
fn resumed_clock(control: &TimeControl, noted: Option<u32>) -> ClockState {
    match noted {
        Some(secs) => ClockState::with_basic_left(*control, secs),
        None => ClockState::new(*control),
    }
}

/// A resumed game's clocks: the basic time noted for each side (None: a full clock).
pub type Resumed = (Option<u32>, Option<u32>);

/// Judge the lateness of both players of a game that starts at `start` (seconds after
/// midnight), given their arrivals (None: not recorded). A resumed game (`resumed`, with the
/// clocks noted) has no limit: the clock just runs (Art. 22.1).
pub fn game_lateness(
    policy: &LatenessPolicy,
    control: &TimeControl,
    start: u32,
    black_arrival: Option<u32>,
    white_arrival: Option<u32>,
    resumed: Option<Resumed>,
) -> GameLateness {
    let is_resumed = resumed.is_some();
    let judge = |arrival: Option<u32>, noted: Option<u32>| -> SideLateness {
        let Some(a) = arrival else {
            let deadline = if is_resumed {
                None
            } else {
                policy.limit_secs().map(|l| {
                    if policy.inclusive {
                        start + l
                    } else {
                        (start + l).saturating_sub(1)
                    }
                })
            };
            return SideLateness::Waiting { deadline };
        };
        let late = a.saturating_sub(start);
        SideLateness::Judged(if is_resumed {
            clock::assess_resumed(&resumed_clock(control, noted), late)
        } else {
            clock::assess(policy, control, late, false)
        })
    };
    let black = judge(black_arrival, resumed.and_then(|c| c.0));
    let white = judge(white_arrival, resumed.and_then(|c| c.1));
    let rulings = match (&black, &white) {
        (SideLateness::Judged(b), SideLateness::Judged(w)) => {
            Some(lateness_rulings(&BothLateness { black: b.clone(), white: w.clone() }))
        }
        // One side beyond the limit decides the game even while the other is still awaited.
        (SideLateness::Judged(v), SideLateness::Waiting { .. }) if v.loses() => {
            Some(lateness_rulings(&BothLateness { black: v.clone(), white: on_time(policy, control) }))
        }
        (SideLateness::Waiting { .. }, SideLateness::Judged(v)) if v.loses() => {
            Some(lateness_rulings(&BothLateness { black: on_time(policy, control), white: v.clone() }))
        }
        _ => None,
    };
    GameLateness { black, white, rulings }
}

fn on_time(policy: &LatenessPolicy, control: &TimeControl) -> LatenessVerdict {
    clock::assess(policy, control, 0, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::rulings::LossReason;
    use Color::{Black, White};

    const BOTH: Seats = Seats::BOTH;

    fn count(b: &str) -> Entry {
        Entry::Count { black_halves: rules::outcome::parse_half_points(b).unwrap(), white_halves: None }
    }

    /// Seed 000 Arts. 17.5, 17.6 (decision D21): entering, changing or clearing a draw, a replay
    /// or a double loss is the chief arbiter's; saving the same entry again, or a count over a
    /// count, is any arbiter's.
    #[test]
    fn changing_a_chiefs_entry_is_the_chief_arbiters() {
        let rules = RuleSet::chinese_2002();
        let (draw, won) = (Entry::Draw, count("184.5"));
        assert!(change_needs_chief(&rules, None, Some(&draw)), "entering a draw");
        assert!(change_needs_chief(&rules, Some(&draw), Some(&won)), "changing a draw into a count");
        assert!(change_needs_chief(&rules, Some(&draw), None), "clearing a draw");
        assert!(!change_needs_chief(&rules, Some(&draw), Some(&draw)), "the same draw saved again");
        assert!(!change_needs_chief(&rules, Some(&won), Some(&count("170"))), "a count over a count");
        assert!(!change_needs_chief(&rules, None, None));
    }

    /// Seed 000 Arts. 17.5, 17.6: an entry of a draw, a replay or a double loss is the chief
    /// arbiter's; both players late (Art. 22.3), a no result and a count are any arbiter's.
    #[test]
    fn draw_replay_and_double_loss_entries_are_the_chief_arbiters() {
        let rules = RuleSet::chinese_2002();
        let chief = [
            Entry::Draw,
            Entry::Replay { clocks: None },
            Entry::DoubleLoss { reason: DoubleLossReason::StoneMoved },
            Entry::DoubleLoss { reason: DoubleLossReason::Cheating },
        ];
        for e in chief {
            assert!(e.needs_chief(&rules), "{e:?}");
        }
        let anyone = [
            Entry::DoubleLoss { reason: DoubleLossReason::BothLate },
            Entry::NoResult { clocks: None },
            Entry::Count { black_halves: 369, white_halves: None },
            Entry::Forfeit { winner: Color::White },
            Entry::Bye,
        ];
        for e in anyone {
            assert!(!e.needs_chief(&rules), "{e:?}");
        }
    }

    #[test]
    fn counts_become_results_with_komi_handicap_and_penalties() {
        let r = RuleSet::chinese_2002();
        let res = |e: Entry, h: u8, rulings: &[Ruling]| {
            compute(&r, h, BOTH, Some(&e), rulings).unwrap().result.unwrap().code()
        };
        assert_eq!(res(count("184.5"), 0, &[]), "B+¼");
        assert_eq!(res(count("184"), 0, &[]), "W+¼");
        assert_eq!(res(count("183"), 4, &[]), "B+½", "H4: Black returns 2 stones");
        let pen = Ruling::against(RulingKind::PenaltyStones { stones: 1 }, Black, 100);
        assert_eq!(res(count("185"), 0, &[pen]), "W+¼", "one stone moves from Black to White");
        assert_eq!(res(Entry::Resignation { winner: White }, 0, &[pen]), "W+R");
    }

    #[test]
    fn bad_counts_and_seats_are_refused() {
        let r = RuleSet::chinese_2002();
        let e = |b: u32, w: Option<u32>| Entry::Count { black_halves: b, white_halves: w };
        assert_eq!(check_entry(&r, &e(723, None), BOTH), Err(ResultError::CountAbovePoints { points: 361 }));
        assert_eq!(
            check_entry(&r, &e(369, Some(354)), BOTH),
            Err(ResultError::CountsDisagree { points: 361 })
        );
        assert_eq!(check_entry(&r, &e(369, Some(353)), BOTH), Ok(()));
        let bye = Seats { black: true, white: false, colours: true };
        assert_eq!(check_entry(&r, &Entry::Bye, BOTH), Err(ResultError::ByeNeedsOnePlayer));
        assert_eq!(check_entry(&r, &e(369, None), bye), Err(ResultError::OnlyByeForOnePlayer));
        assert_eq!(count_entry(&r, None, Some(353)), Some(Ok(e(369, Some(353)))));
        assert_eq!(count_entry(&r, None, None), None);
        assert!(matches!(count_entry(&r, None, Some(800)), Some(Err(ResultError::CountAbovePoints { .. }))));
        let c = compute(&r, 0, bye, Some(&Entry::Bye), &[]).unwrap();
        assert_eq!(c.result, Some(GameResult::bye(Black)));
    }

    #[test]
    fn a_deciding_ruling_stands_over_a_count_and_refuses_another_decision() {
        let r = RuleSet::chinese_2002();
        let w = |m| Ruling::against(RulingKind::Warning, White, m);
        let c = compute(&r, 0, BOTH, Some(&count("180")), &[w(10), w(90)]).unwrap();
        assert_eq!(c.result, Some(GameResult::loss_of(White, LossReason::Warnings)), "second warning loses");
        assert!(c.decided_by_ruling);
        assert_eq!(c.applied.warnings_white, 2);
        // A draw entered after that is refused, naming the second warning.
        assert_eq!(
            compute(&r, 0, BOTH, Some(&Entry::Draw), &[w(10), w(90)]),
            Err(ResultError::RulingDecides {
                ruling: Some(w(90)),
                decided: GameResult::loss_of(White, LossReason::Warnings)
            })
        );
        // The same decision entered both ways is not a conflict.
        let late = Ruling::against(RulingKind::Loss { reason: LossReason::Lateness }, Black, 0);
        let c = compute(&r, 0, BOTH, Some(&Entry::Lateness { winner: White }), &[late]).unwrap();
        assert_eq!(c.result, Some(GameResult::lateness(White)));
        // No entry, no deciding ruling: no result yet, but the effects are explained.
        let c = compute(&r, 0, BOTH, None, &[w(10)]).unwrap();
        assert_eq!(c.result, None);
        assert!(matches!(c.applied.effects[0].said, rules::rulings::Said::Warning { at: 10, .. }));
    }

    #[test]
    fn a_nigiri_still_to_be_done_allows_only_games_never_played() {
        let r = RuleSet::chinese_2002();
        let pending = Seats { colours: false, ..BOTH };
        let refused = Err(ResultError::NigiriPending { entry: true });
        for e in [
            count("185"),
            Entry::Resignation { winner: Black },
            Entry::Time { winner: White },
            Entry::Draw,
            Entry::NoResult { clocks: None },
            Entry::Replay { clocks: None },
            Entry::DoubleLoss { reason: DoubleLossReason::StoneMoved },
        ] {
            assert!(e.played_on_board(), "{e:?}");
            assert_eq!(compute(&r, 0, pending, Some(&e), &[]).map(|c| c.result), refused, "{e:?}");
        }
        for e in [
            Entry::Forfeit { winner: Black },
            Entry::Lateness { winner: White },
            Entry::DoubleLoss { reason: DoubleLossReason::BothLate },
        ] {
            assert!(!e.played_on_board());
            assert!(compute(&r, 0, pending, Some(&e), &[]).is_ok(), "{e:?}");
        }
        // A ruling during play needs the colours; lateness at move 0 does not.
        let w = Ruling::against(RulingKind::Warning, Black, 30);
        assert_eq!(
            compute(&r, 0, pending, None, &[w]).map(|c| c.result),
            Err(ResultError::NigiriPending { entry: false })
        );
        let late = Ruling::against(RulingKind::Loss { reason: LossReason::Lateness }, Black, 0);
        assert_eq!(compute(&r, 0, pending, None, &[late]).unwrap().result, Some(GameResult::lateness(White)));
    }

    #[test]
    fn an_entry_saved_under_a_deciding_ruling_must_say_what_it_decided() {
        let r = RuleSet::chinese_2002();
        let w = |m| Ruling::against(RulingKind::Warning, Black, m);
        let rulings = [w(120), w(50), Ruling::against(RulingKind::PenaltyStones { stones: 1 }, White, 10)];
        let decided = GameResult::loss_of(Black, LossReason::Warnings);
        let refusal = Err(ResultError::RulingDecides { ruling: Some(w(120)), decided });
        for e in [count("190"), Entry::Resignation { winner: White }, Entry::Draw] {
            assert_eq!(compute_entry(&r, 0, BOTH, Some(&e), &rulings).map(|c| c.result), refusal, "{e:?}");
        }
        // Clearing the entry, or nothing entered, leaves the ruling's result.
        assert_eq!(compute_entry(&r, 0, BOTH, None, &rulings).unwrap().result, Some(decided));
        // The same decision is no contradiction: a time loss entered after the ruling of it.
        let t = Ruling::against(RulingKind::LastByoYomiTimeout, Black, 200);
        let c = compute_entry(&r, 0, BOTH, Some(&Entry::Time { winner: White }), &[t]).unwrap();
        assert_eq!(c.result, Some(GameResult::time(White)));
        // A ruling after the count (found later) still decides: compute keeps that order.
        let c = compute(&r, 0, BOTH, Some(&count("190")), &rulings).unwrap();
        assert_eq!(c.result, Some(decided));
    }

    #[test]
    fn swapped_colours_credit_the_assigned_seats_the_other_way() {
        let won = GameResult::counted(&RuleSet::chinese_2002().scoring(0, 0, 0), 370);
        assert_eq!(for_assigned(&won, false), Some(Pairing::BlackWins));
        assert_eq!(for_assigned(&won, true), Some(Pairing::WhiteWins));
        assert_eq!(opengotha_code(Some(&won), true), "RESULT_WHITEWINS");
        assert_eq!(opengotha_code(Some(&GameResult::forfeit(White)), true), "RESULT_BLACKWINS_BYDEF");
        assert_eq!(opengotha_code(Some(&GameResult::draw()), true), "RESULT_EQUAL");
        let dl = GameResult::double_loss(DoubleLossReason::Cheating);
        assert_eq!(opengotha_code(Some(&dl), true), "RESULT_BOTHLOSE");
        assert_eq!(opengotha_code(None, true), "RESULT_UNKNOWN");
    }

    #[test]
    fn results_in_the_pairing_vocabulary_and_opengotha_codes() {
        let cases = [
            (GameResult::resignation(Black), Some(Pairing::BlackWins), "RESULT_BLACKWINS"),
            (GameResult::forfeit(White), Some(Pairing::WhiteWinsByForfeit), "RESULT_WHITEWINS_BYDEF"),
            (GameResult::lateness(Black), Some(Pairing::BlackWinsByForfeit), "RESULT_BLACKWINS_BYDEF"),
            (GameResult::draw(), Some(Pairing::Draw), "RESULT_EQUAL"),
            (
                GameResult::double_loss(DoubleLossReason::BothLate),
                Some(Pairing::DoubleForfeit),
                "RESULT_BOTHLOSE_BYDEF",
            ),
            (
                GameResult::double_loss(DoubleLossReason::Cheating),
                Some(Pairing::DoubleLoss),
                "RESULT_BOTHLOSE",
            ),
            (GameResult::replay(), Some(Pairing::NoResult), "RESULT_UNKNOWN"),
            (GameResult::bye(White), None, "BYE"),
        ];
        for (r, p, code) in cases {
            assert_eq!(for_pairing(&r), p, "{r:?}");
            assert_eq!(opengotha_code(Some(&r), false), code);
            // Read back as the pairing reads a stored code: "no result" and a bye are none.
            assert_eq!(imported(code), p.filter(|p| *p != Pairing::NoResult), "{code}");
        }
        let jigo = GameResult::counted(&RuleSet::chinese_team_relay().scoring(0, 0, 0), 368);
        assert_eq!(for_pairing(&jigo), Some(Pairing::Draw));
    }

    #[test]
    fn records_are_checked_and_counted_by_the_rules_crate() {
        let r = RuleSet::chinese_2002();
        let rep = check_sgf(&r, 0, b"(;GM[1]FF[4]SZ[19]KM[7.5]RE[B+R];B[pd];W[dp];B[pp];W[dd])").unwrap();
        assert_eq!(rep.moves, 4);
        assert!(rep.illegal.is_none());
        assert_eq!(rep.record_result.as_deref(), Some("B+R"));
        let e = check_sgf(&r, 0, b"(;GM[1]SZ[19];B[pd];W[").unwrap_err();
        assert!(matches!(e, SgfCheckError::Unreadable(ref e) if e.pos.line == 1), "{e:?}");
        assert!(check_sgf(&r, 0, b"garbage").is_err());
        let big = check_sgf(&r, 0, &vec![b' '; MAX_SGF_BYTES + 1]);
        assert_eq!(big, Err(SgfCheckError::TooLarge { max_kb: 512 }));
        let rep = check_sgf(&r, 0, b"(;GM[1]SZ[19];B[pd];W[pd])").unwrap();
        assert!(rep.illegal.as_ref().is_some_and(|i| i.number == 2));
        // The stored shape reads back as itself.
        let json = serde_json::to_string(&rep).unwrap();
        assert_eq!(serde_json::from_str::<SgfReport>(&json).unwrap(), rep);
    }

    #[test]
    fn times_typed_by_arbiters() {
        assert_eq!(parse_time_of_day("09:00"), Some(9 * 3600));
        assert_eq!(parse_time_of_day("9:05:30"), Some(9 * 3600 + 330));
        for bad in ["", "9", "24:00", "09:60", "09:5", "abc", "09:00:00:00", "-1:00", "+9:00"] {
            assert_eq!(parse_time_of_day(bad), None, "{bad}");
        }
        assert_eq!(time_of_day_text(9 * 3600 + 330), "09:05:30");
        assert_eq!(parse_clock("45"), Some(2700));
        assert_eq!(parse_clock("12:30"), Some(750));
        assert_eq!(parse_clock("1:02:03"), Some(3723));
        for bad in ["", "1:5", "x", "1:60", "99999999", "-5"] {
            assert_eq!(parse_clock(bad), None, "{bad}");
        }
    }

    #[test]
    fn lateness_at_the_limits_of_both_regimes() {
        let control = TimeControl::chinese(150, 5);
        let start = 9 * 3600;
        let judge = |policy: LatenessPolicy, min: u32| {
            let g = game_lateness(&policy, &control, start, Some(start + min * 60), Some(start), None);
            (g.black, g.rulings.unwrap())
        };
        for (policy, limit) in [(LatenessPolicy::separate_venue(), 60), (LatenessPolicy::same_venue(), 15)] {
            let (v, r) = judge(policy, limit - 1);
            assert!(
                matches!(v, SideLateness::Judged(LatenessVerdict::Plays { remaining_basic_secs, .. }) if remaining_basic_secs == 150 * 60 - 2 * (limit - 1) * 60)
            );
            assert!(r.is_empty());
            let (v, r) = judge(policy, limit);
            assert!(
                matches!(v, SideLateness::Judged(LatenessVerdict::Plays { .. })),
                "{limit} min inclusive plays"
            );
            assert!(r.is_empty());
            let (v, r) = judge(policy, limit + 1);
            assert!(matches!(v, SideLateness::Judged(LatenessVerdict::LosesByLateness { .. })));
            assert_eq!(r, vec![Ruling::against(RulingKind::Loss { reason: LossReason::Lateness }, Black, 0)]);
        }
        // Both beyond the limit: double loss; one beyond while the other is awaited decides too.
        let p = LatenessPolicy::same_venue();
        let g = game_lateness(&p, &control, start, Some(start + 20 * 60), Some(start + 16 * 60), None);
        assert!(matches!(g.rulings.as_deref(), Some([r]) if matches!(r.kind, RulingKind::DoubleLoss { .. })));
        let g = game_lateness(&p, &control, start, Some(start + 20 * 60), None, None);
        assert_eq!(g.white, SideLateness::Waiting { deadline: Some(start + 15 * 60) });
        assert_eq!(g.rulings.map(|r| r.len()), Some(1));
        // Resumed: no limit, the clock runs from the noted time.
        let clocks = Some((Some(30 * 60), Some(20 * 60)));
        let g = game_lateness(&p, &control, start, Some(start + 25 * 60), Some(start), clocks);
        assert!(matches!(
            g.black,
            SideLateness::Judged(LatenessVerdict::Plays { remaining_basic_secs: 300, .. })
        ));
        assert_eq!(g.rulings, Some(vec![]));
        let g = game_lateness(&p, &control, start, Some(start + 31 * 60), Some(start), clocks);
        assert!(matches!(g.black, SideLateness::Judged(LatenessVerdict::TimeExpired { .. })));
    }
}
