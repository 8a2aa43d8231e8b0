//! The player and game values that pairing, draws and standings share: who plays (a
//! [`Player`] and its [`PlayerId`]), as a lot sees them ([`Ticket`]), and what an earlier game
//! was ([`PlayedGame`], [`GameResult`]). A leaf: it names no other module of the crate, so
//! [`crate::pairing`] and [`crate::draw`] both build on it without using each other's types.

use serde::{Deserialize, Serialize};

/// A player's id as the DB layer knows it.
pub type PlayerId = u32;

/// Whether a player takes part in the round being paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// Paired in this round.
    Active,
    /// Registered but not playing this round (not paired, no bye).
    Absent,
    /// Left the event (rules.md §7, withdrawal): never paired again.
    Withdrawn,
}

/// A player as pairing sees one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub id: PlayerId,
    /// The pairing number (编号): the number the entrant lists and the public pages show, in
    /// which every lot names its candidates (`draw::lots::DrawRecord`). Ascending numbers
    /// are the order candidates are handed to a lot.
    pub number: u32,
    /// Rank as one integer, the entrant module's `Rank::value()` convention:
    /// kyu k → −k, dan d → d − 1, pro p → 8 + p. So 30k = −30, 1k = −1, 1d = 0, 9d = 8,
    /// 1p = 9. Higher is stronger; one step is one rank (one handicap stone).
    pub rank_value: i32,
    /// Rating (等级分), if the player has one.
    pub rating: Option<i32>,
    /// Unit/club/team (单位) for same-unit avoidance (rules.md §14.4). Empty = none.
    pub unit: String,
    /// Birth date as a day ordinal (any monotone day count; smaller = older). Used for the
    /// nigiri grabber when ranks are equal (rules.md §4.2, Art. 10).
    pub birth_date: Option<i32>,
    pub status: Status,
    /// Points (in half points) granted on entry: a late entrant joins with this score
    /// (e.g. a loss or a half-point bye for each missed round, per the event's rules).
    pub entry_points: i32,
}

impl Player {
    /// An active player with no rating, no unit, no birth date and no entry points.
    /// Its pairing number is its id.
    pub fn new(id: PlayerId, rank_value: i32) -> Player {
        Player {
            id,
            number: id,
            rank_value,
            rating: None,
            unit: String::new(),
            birth_date: None,
            status: Status::Active,
            entry_points: 0,
        }
    }

    /// The player as a lot sees them (id and pairing number).
    pub fn ticket(&self) -> Ticket {
        Ticket { id: self.id, number: self.number }
    }
}

/// A colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Colour {
    Black,
    White,
}

impl Colour {
    pub fn other(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }
}

/// The result of a game, in terms of the players in the *assigned* colour slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameResult {
    BlackWins,
    WhiteWins,
    Draw,
    /// 双方均负 (rules.md §12): 0 : 0; counts as played for rematch and colours.
    DoubleLoss,
    /// White absent or late beyond the limit (rules.md §7); not played on the board.
    BlackWinsByForfeit,
    WhiteWinsByForfeit,
    /// Both absent; scored as a double loss, not played.
    DoubleForfeit,
    /// 无胜负 / replay pending (rules.md §9): no points yet.
    NoResult,
}

impl GameResult {
    /// Whether both players lost (双方均负), whatever the cause: a double loss ruled at the
    /// board, both late beyond the limit (Art. 22.3), both absent. Art. 22.3 sends the late
    /// case to the principle of Art. 17.5 (rules.md §12), so every double loss takes the
    /// event's double-loss rule for the next round's pairing; only colours and "already met"
    /// tell the games not played on the board apart.
    pub fn is_double_loss(self) -> bool {
        matches!(self, GameResult::DoubleLoss | GameResult::DoubleForfeit)
    }

    /// Whether stones were played on the board (colours then count for colour balance).
    pub fn played_on_board(self) -> bool {
        !matches!(
            self,
            GameResult::BlackWinsByForfeit | GameResult::WhiteWinsByForfeit | GameResult::DoubleForfeit
        )
    }
}

/// One game of an earlier round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedGame {
    pub round: u32,
    /// The *assigned* Black (rules.md §4.3: pairing uses assigned colours, even when the
    /// players swapped them and it was found after move 10).
    pub black: PlayerId,
    /// The assigned White.
    pub white: PlayerId,
    pub result: GameResult,
    /// The players played the colours swapped (recorded for the audit; pairing ignores it).
    pub played_swapped: bool,
    /// For a double loss with the lot fallback (rules.md §12): the nominal winner already
    /// drawn, if any. Used by pairing of the next round only, never by standings.
    pub nominal_winner: Option<PlayerId>,
    /// The board's colours were to be settled by nigiri at the board and never were (a
    /// forfeit or a double loss before play): `black`/`white` are only the provisional seats,
    /// so nobody held a colour — the crosstable shows none and colour balance counts none.
    #[serde(default)]
    pub colours_unsettled: bool,
}

impl PlayedGame {
    pub fn new(round: u32, black: PlayerId, white: PlayerId, result: GameResult) -> PlayedGame {
        PlayedGame {
            round,
            black,
            white,
            result,
            played_swapped: false,
            nominal_winner: None,
            colours_unsettled: false,
        }
    }
    /// Whether each side held the colour of its seat (or the swapped one): the game was
    /// played on the board and its colours were settled.
    pub fn colours_held(&self) -> bool {
        self.result.played_on_board() && !self.colours_unsettled
    }
}

/// A player as a lot sees them: the engine's id and the public pairing number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ticket {
    pub id: PlayerId,
    pub number: u32,
}
