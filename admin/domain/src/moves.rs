//! The moves of a game entered at the board: whose turn a move is, whether it may be played,
//! the position they make, and the record they are. Every check is `rules::game::Game`'s under
//! the event's ko and suicide rule (seed 000 Art. 5 captures, Art. 6 the repetition of a whole
//! position, Art. 5 forbidden points, Art. 7 two passes end the game); nothing here plays Go
//! itself.
//!
//! A handicap game of `h ≥ 2` stones starts with Black's `h` placements entered as moves
//! (free placement, as `rules::sgf::replay` reads a record with HA\[h\] and no AB); after them
//! the colours alternate, White first.

use rules::board::{Board, Color};
use rules::game::{Game, IllegalMove, KoRule, Move, SuicideRule};
use rules::sgf;
use serde::Serialize;

/// The colour that plays move `number` (from 1) of a game with `handicap` stones.
pub fn colour_of(number: u32, handicap: u8) -> Color {
    let h = u32::from(if handicap >= 2 { handicap } else { 0 });
    if number <= h {
        return Color::Black;
    }
    let k = number - h;
    match (h > 0, k % 2 == 1) {
        (false, true) | (true, false) => Color::Black,
        _ => Color::White,
    }
}

/// The rules a board's moves are checked under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardRules {
    pub size: u8,
    pub ko: KoRule,
    pub suicide: SuicideRule,
    pub handicap: u8,
}

impl BoardRules {
    pub fn of(rules: &rules::RuleSet, handicap: u8) -> BoardRules {
        BoardRules { size: rules.board_size, ko: rules.ko, suicide: rules.suicide, handicap }
    }
}

/// Why a move entered at the board is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Refusal {
    /// The rules crate refuses it (occupied, suicide, ko, superko, off the board, game over).
    Illegal { number: u32, reason: IllegalMove },
    /// It was entered for the other colour: the move is `expected`'s.
    NotYourTurn { number: u32, expected: Color },
    /// A stored record that no longer replays (the event's rules changed meanwhile).
    Unreplayable { number: u32 },
}

/// The position after some moves, with what a board page shows.
#[derive(Debug, Clone)]
pub struct Position {
    pub game: Game,
    /// Stones captured by Black and by White.
    pub captures: [u32; 2],
    /// Moves played (passes included).
    pub moves: u32,
    /// The last move, if any.
    pub last: Option<(Color, Move)>,
}

impl Position {
    pub fn board(&self) -> &Board {
        self.game.board()
    }
    /// Two passes in a row ended the game (Art. 7).
    pub fn ended(&self) -> bool {
        self.game.is_over()
    }
}

/// The game after `moves` (each with the colour it was entered for).
pub fn replay(r: BoardRules, moves: &[(Color, Move)]) -> Result<Position, Refusal> {
    let board = Board::new(r.size).map_err(|_| Refusal::Unreplayable { number: 0 })?;
    let mut pos = Position {
        game: Game::from_board(board, Color::Black, r.ko, r.suicide),
        captures: [0, 0],
        moves: 0,
        last: None,
    };
    for &(c, mv) in moves {
        play(&mut pos, r, c, mv).map_err(|_| Refusal::Unreplayable { number: pos.moves + 1 })?;
    }
    Ok(pos)
}

/// Play the next move for `colour`: refused, with the position unchanged, when it is the other
/// colour's turn or the rules crate refuses it. A move after two passes resumes play (seed 000
/// Art. 21.1: the proposer passed and the opponent plays on; Art. 21.4: life and death
/// disputed), as `rules::sgf::replay` reads a record, so the board and the SGF check agree.
pub fn play(pos: &mut Position, r: BoardRules, colour: Color, mv: Move) -> Result<(), Refusal> {
    let number = pos.moves + 1;
    let expected = colour_of(number, r.handicap);
    if colour != expected {
        return Err(Refusal::NotYourTurn { number, expected });
    }
    if pos.game.is_over() {
        pos.game.resume();
    }
    let played = pos.game.play_as(colour, mv).map_err(|reason| Refusal::Illegal { number, reason })?;
    pos.captures[colour as usize] += played.captures;
    pos.captures[colour.opponent() as usize] += played.suicided;
    pos.moves = number;
    pos.last = Some((colour, mv));
    Ok(())
}

/// The moves as an SGF record of the event's board, komi and handicap (what
/// `rules::sgf::write` writes and `results::check_sgf` reads back as the same game).
pub fn record(
    r: BoardRules,
    komi_q: i32,
    info: sgf::GameInfo,
    result: Option<sgf::GameResult>,
    moves: &[(Color, Move)],
) -> sgf::Record {
    let mut rec = sgf::Record::new(r.size);
    rec.komi = Some(sgf::Komi { quarters: komi_q, unit: sgf::KomiUnit::Points });
    rec.handicap = if r.handicap >= 2 { r.handicap } else { 0 };
    rec.info = info;
    rec.result = result;
    for &(c, mv) in moves {
        rec.push_move(c, mv);
    }
    rec
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::board::Point;

    fn p(s: &str) -> Move {
        Move::Play(Point::from_sgf(s).unwrap())
    }

    const R9: BoardRules =
        BoardRules { size: 9, ko: KoRule::Situational, suicide: SuicideRule::Forbidden, handicap: 0 };

    #[test]
    fn colours_alternate_after_the_handicap_placements() {
        let even: Vec<Color> = (1..=4).map(|n| colour_of(n, 0)).collect();
        assert_eq!(even, [Color::Black, Color::White, Color::Black, Color::White]);
        assert_eq!(colour_of(1, 1), Color::Black, "one stone is no placement: an even game's order");
        let h3: Vec<Color> = (1..=6).map(|n| colour_of(n, 3)).collect();
        assert_eq!(h3, [Color::Black, Color::Black, Color::Black, Color::White, Color::Black, Color::White]);
    }

    /// Seed 000 Art. 2 (a placed stone stays), Art. 5 (forbidden points) and Art. 6 (no repeated
    /// position): the board refuses an occupied point, a suicide and the immediate retake of a
    /// ko, each named, and leaves the position as it was.
    #[test]
    fn occupied_suicide_and_ko_are_refused_by_name() {
        let mut pos = replay(R9, &[]).unwrap();
        play(&mut pos, R9, Color::Black, p("cc")).unwrap();
        assert_eq!(
            play(&mut pos, R9, Color::White, p("cc")),
            Err(Refusal::Illegal { number: 2, reason: IllegalMove::Occupied })
        );
        assert_eq!(
            play(&mut pos, R9, Color::Black, p("dd")),
            Err(Refusal::NotYourTurn { number: 2, expected: Color::White })
        );
        assert_eq!(pos.moves, 1);
        // A ko (seed 000 Art. 6): Black takes White's stone at "dd" by "ed"; White may not
        // take back at once.
        let ko = ["cd", "fd", "dc", "ec", "de", "ee", "aa", "dd", "ed"].map(p);
        let mut g = replay(R9, &[]).unwrap();
        let mut c = Color::Black;
        for mv in ko {
            play(&mut g, R9, c, mv).unwrap();
            c = c.opponent();
        }
        assert_eq!(g.captures, [1, 0]);
        let retake = play(&mut g, R9, Color::White, p("dd"));
        assert!(
            matches!(
                retake,
                Err(Refusal::Illegal { number: 10, reason: IllegalMove::Ko | IllegalMove::Superko })
            ),
            "{retake:?}"
        );
        assert_eq!(g.moves, 9);
        // A suicide (Art. 5): Black's lone stone into White's eye at "aa".
        let eye = ["ee", "ba", "ff", "ab"].map(p);
        let mut s = replay(R9, &[]).unwrap();
        let mut c = Color::Black;
        for mv in eye {
            play(&mut s, R9, c, mv).unwrap();
            c = c.opponent();
        }
        assert_eq!(
            play(&mut s, R9, Color::Black, p("aa")),
            Err(Refusal::Illegal { number: 5, reason: IllegalMove::Suicide })
        );
    }

    /// Seed 000 Art. 21.1: two passes, then a stone: play resumes, as the SGF check reads the
    /// record (`rules::sgf::replay` notes it as resumed).
    #[test]
    fn a_move_after_two_passes_resumes_as_the_record_check_reads_it() {
        let moves = [
            (Color::Black, p("cc")),
            (Color::White, Move::Pass),
            (Color::Black, Move::Pass),
            (Color::White, p("gg")),
        ];
        let pos = replay(R9, &moves).unwrap();
        assert_eq!(pos.moves, 4);
        assert!(!pos.ended());
        let rec = sgf::parse(&sgf::write(&record(R9, 30, sgf::GameInfo::default(), None, &moves))).unwrap();
        let back = sgf::replay(&rec, &sgf::ReplayOptions::default()).unwrap();
        assert_eq!(back.moves_played, 4);
        assert_eq!(back.notes, [sgf::Note::Resumed { number: 4 }]);
    }

    /// A handicap game (seed 000 Art. 2 with free placement): Black's placements are entered as
    /// Black's first moves, then White; the record says HA and reads back as the same game.
    #[test]
    fn handicap_placements_are_blacks_first_moves() {
        let h3 = BoardRules { handicap: 3, ..R9 };
        let mut pos = replay(h3, &[]).unwrap();
        for at in ["cc", "gg", "cg"] {
            play(&mut pos, h3, Color::Black, p(at)).unwrap();
        }
        assert_eq!(
            play(&mut pos, h3, Color::Black, p("gc")),
            Err(Refusal::NotYourTurn { number: 4, expected: Color::White })
        );
        play(&mut pos, h3, Color::White, p("gc")).unwrap();
        let moves: Vec<(Color, Move)> = pos.game.moves().to_vec();
        let rec = record(h3, 2, sgf::GameInfo::default(), None, &moves);
        let text = sgf::write(&rec);
        assert!(text.contains("HA[3]"), "{text}");
        let back = sgf::parse(&text).unwrap();
        assert_eq!(back.moves().collect::<Vec<_>>(), moves);
        let r = sgf::replay(&back, &sgf::ReplayOptions::default()).unwrap();
        assert!(r.illegal.is_none());
        assert_eq!(r.moves_played, 4);
    }

    #[test]
    fn the_record_reads_back_as_the_same_game() {
        let moves = [
            (Color::Black, p("cc")),
            (Color::White, p("gg")),
            (Color::Black, Move::Pass),
            (Color::White, Move::Pass),
        ];
        let rec = record(R9, 30, sgf::GameInfo::default(), None, &moves);
        let text = sgf::write(&rec);
        let back = sgf::parse(&text).unwrap();
        assert_eq!(back.moves().collect::<Vec<_>>(), moves.to_vec());
        assert_eq!(back.size, 9);
        let pos = replay(R9, &moves).unwrap();
        assert!(pos.ended());
    }
}
