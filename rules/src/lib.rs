//! # rules — the game of Go and the Chinese competition rules
//!
//! Everything in Tengen that scores a game goes through this crate. It is pure: no IO, no
//! database, no web. Modules follow the rules reference (`docs/rules.md`) and the 2002
//! Chinese Weiqi Competition Rules (中国围棋竞赛规则) article by article:
//!
//! - [`board`]: points, colours, the board with chains, liberties and Zobrist hashes (Arts. 1–5, 19).
//! - [`game`]: a game in progress: moves, passes, ko rules as data (Art. 6), end by two passes (Art. 7).
//! - [`dead`]: a proposal of the dead stones of a final position, for the referee to review (Art. 8).
//! - [`count`]: counting a final position: area (Art. 9), the other methods of the team rules
//!   (Art. 9.4) and territory counting with prisoners.
//! - [`outcome`]: count + komi + handicap + penalty stones → winner and margin in quarter stones.
//! - [`ruleset`]: presets (Chinese 2002, Chinese team relay, Japanese, AGA) as one stored type.
//! - [`clock`]: time controls and lateness arithmetic (Art. 12, Art. 22).
//! - [`rulings`]: the referee's catalogue of rulings and how they change a game's result (Arts. 17–24).
//! - [`sgf`]: reading and writing SGF FF\[4\] records and replaying them under a rule set.

pub mod board;
pub mod clock;
pub mod count;
pub mod dead;
pub mod game;
pub mod outcome;
pub mod ruleset;
pub mod rulings;
pub mod sgf;

pub use board::{Board, Color, Point};
pub use clock::{ClockState, LatenessPolicy, LatenessVerdict, TimeControl};
pub use game::{Game, IllegalMove, KoRule, Move, SuicideRule};
pub use outcome::{JigoRule, Outcome};
pub use ruleset::RuleSet;
pub use rulings::{apply_rulings, Applied, BaseResult, GameResult, Offence, Ruling, RulingKind};
