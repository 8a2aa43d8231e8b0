//! Replaying a record: [`replay`] plays the main line under a [`RuleSet`] (ko rule, suicide
//! rule) with an optional komi override and dead stones, and reports the moves played, the first
//! illegal move (the replay stops there), captures, the final board, the area count, the result
//! and whether it agrees with RE\[\]. Moves are played with [`Game::play_as`], so a record in
//! which one colour moves twice is replayed as written (and noted). A move after two passes
//! resumes the game (Art. 21.1). Setup in a later node restarts the superko history from the
//! set-up position.

use super::{Action, GameResult, Pos, Record, Territory, WinBy};
use crate::board::{Board, Color, Point};
use crate::count::{self, AreaCount};
use crate::game::{Game, IllegalMove, Move};
use crate::outcome::{Outcome, Scoring};
use crate::ruleset::RuleSet;
use serde::{Deserialize, Serialize};

/// What to replay a record under (by default: the Chinese 2002 rule set, the record's komi, dead
/// stones from TB/TW).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReplayOptions {
    /// Ko rule, suicide rule, komi, handicap komi and compensation, jigo rule.
    pub rules: RuleSet,
    /// Komi in quarter stones, overriding both the record's KM and the rule set.
    pub komi_q: Option<i32>,
    /// Dead stones (any point of each dead chain). `None`: inferred from TB/TW when present.
    pub dead: Option<Vec<Point>>,
}

/// Where the komi of a replay came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KomiSource {
    /// The caller's override (`--komi`).
    Given,
    /// KM of the record (even games).
    Record,
    /// The rule set's komi (even game without KM).
    RuleSet,
    /// The rule set's handicap komi (handicap games; KM is not used).
    RuleSetHandicap,
}

/// Where the dead stones of a replay came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeadSource {
    /// None were given and the record has no TB/TW.
    None,
    /// The caller's list (`--dead`).
    Given,
    /// Stones lying on points marked as the opponent's territory (TB/TW).
    Territory,
}

/// The first illegal move of a replay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IllegalAt {
    /// Move number (1 = the first B or W of the main line; passes count).
    pub number: u32,
    pub color: Color,
    pub mv: Move,
    /// Human coordinates ("Q16"); `None` for a pass or a point off the board (`mv` says which).
    pub point: Option<String>,
    /// SGF letters ("pd"; empty for a pass).
    pub sgf: String,
    pub reason: IllegalMove,
    /// Where the move stands in the file.
    pub at: Option<Pos>,
}

/// Whether the computed result agrees with RE\[\].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "status")]
pub enum Agreement {
    Agrees,
    /// RE\[\] as the record has it and the computed result, both as SGF writes them.
    Disagrees {
        record: String,
        computed: String,
    },
    /// RE is not a counted result (B+R, W+T, Void, ?), is missing, or the replay stopped early.
    NotComparable {
        reason: Incomparable,
    },
}

impl Agreement {
    pub fn is_disagreement(&self) -> bool {
        matches!(self, Agreement::Disagrees { .. })
    }
}

/// Why a replay's result cannot be held against RE\[\]; `record` is RE as SGF writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "why")]
pub enum Incomparable {
    /// The replay stopped at this illegal move.
    StoppedAt {
        number: u32,
    },
    /// RE\[\] is there but not understood.
    UnknownResult {
        text: String,
    },
    /// The record has no RE\[\].
    NoResult,
    Resignation {
        record: String,
    },
    Time {
        record: String,
    },
    Forfeit {
        record: String,
    },
    /// RE\[Void\].
    Void,
    /// RE\[?\].
    Unknown,
}

/// Something worth knowing about a replay that does not stop it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Note {
    /// Setup after this many moves: the superko history restarts there.
    SetupRestarts { after_move: u32 },
    /// This move continues play after two passes (Art. 21.1).
    Resumed { number: u32 },
    /// This move is the colour's second in a row.
    MovesTwice { number: u32, color: Color },
    /// A dead stone named where there is none (`None`: a point off the board).
    NoDeadStone { point: Option<String> },
}

/// The report of a replay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Replay {
    pub size: u8,
    /// Moves on the record's main line (passes included).
    pub moves_in_record: u32,
    /// Moves replayed legally (all of them unless `illegal` is set).
    pub moves_played: u32,
    /// The first illegal move; the replay stops there.
    pub illegal: Option<IllegalAt>,
    /// Stones captured by Black and by White (a suicided chain counts for the opponent).
    pub captures_by_black: u32,
    pub captures_by_white: u32,
    /// True when the replay ended with two consecutive passes.
    pub ended_by_passes: bool,
    /// The final position.
    #[serde(skip)]
    pub board: Board,
    /// The final position as rows, top row first: `X` Black, `O` White, `.` empty.
    pub final_board: Vec<String>,
    pub dead: Vec<Point>,
    pub dead_source: DeadSource,
    pub count: AreaCount,
    pub handicap: u8,
    pub komi_q: i32,
    pub komi_source: KomiSource,
    pub scoring: Scoring,
    pub outcome: Outcome,
    pub agreement: Agreement,
    /// Things worth knowing: a colour moving twice, play after two passes, setups, dead-stone
    /// points without a stone.
    pub notes: Vec<Note>,
}

/// Human coordinates of a point of the board; `None` off it.
fn human(p: Point, size: u8) -> Option<String> {
    (p.x < size && p.y < size).then(|| p.display(size))
}

fn rows(board: &Board) -> Vec<String> {
    board.ascii().lines().map(str::to_string).collect()
}

/// Dead stones inferred from territory markup: a stone on a point marked as the opponent's
/// territory is dead.
pub fn dead_from_territory(board: &Board, t: &Territory) -> Vec<Point> {
    let mut dead: Vec<Point> =
        t.black.iter().copied().filter(|&p| board.get(p) == Some(Color::White)).collect();
    dead.extend(t.white.iter().copied().filter(|&p| board.get(p) == Some(Color::Black)));
    dead.sort_by_key(|p| (p.y, p.x));
    dead
}

/// Replay a record's main line under `opts` and count the final position. Fails only when the
/// record's size is not a supported board size.
pub fn replay(rec: &Record, opts: &ReplayOptions) -> Result<Replay, crate::board::BadSize> {
    let rules = &opts.rules;
    let mut board = Board::new(rec.size)?;
    rec.setup.apply(&mut board);
    let first_mover = rec.moves().next().map(|(c, _)| c);
    let to_move = rec.to_move.or(first_mover).unwrap_or(Color::Black);
    let mut game = Game::from_board(board, to_move, rules.ko, rules.suicide);
    let mut notes = Vec::new();
    let mut caps = [0u32; 2];
    let mut number = 0u32;
    let mut played = 0u32;
    let mut illegal = None;
    let mut last: Option<Color> = None;
    // Free placement written as moves: the handicap's first Black moves are not double moves.
    let placement = if rec.setup.black.is_empty() { u32::from(rec.handicap) } else { 0 };
    for step in &rec.steps {
        match &step.action {
            Action::Setup { setup, to_move } => {
                let mut b = game.board().clone();
                setup.apply(&mut b);
                let next = to_move.unwrap_or(game.to_move());
                game = Game::from_board(b, next, rules.ko, rules.suicide);
                notes.push(Note::SetupRestarts { after_move: number });
            }
            Action::Move { color, mv } => {
                number += 1;
                if game.is_over() {
                    game.resume();
                    notes.push(Note::Resumed { number });
                }
                if last == Some(*color) && number > placement {
                    notes.push(Note::MovesTwice { number, color: *color });
                }
                last = Some(*color);
                match game.play_as(*color, *mv) {
                    Ok(p) => {
                        played += 1;
                        caps[*color as usize] += p.captures;
                        caps[color.opponent() as usize] += p.suicided;
                    }
                    Err(reason) => {
                        let (point, sgf) = match mv {
                            Move::Pass => (None, String::new()),
                            Move::Play(p) => (human(*p, rec.size), p.sgf()),
                        };
                        illegal = Some(IllegalAt {
                            number,
                            color: *color,
                            mv: *mv,
                            point,
                            sgf,
                            reason,
                            at: step.at,
                        });
                        break;
                    }
                }
            }
        }
    }
    let moves_in_record = u32::try_from(rec.move_count()).unwrap_or(u32::MAX);
    let board = game.board().clone();
    let (dead, dead_source) = match (&opts.dead, &rec.territory) {
        (Some(d), _) => (d.clone(), DeadSource::Given),
        (None, Some(t)) => (dead_from_territory(&board, t), DeadSource::Territory),
        (None, None) => (Vec::new(), DeadSource::None),
    };
    for p in &dead {
        if board.get(*p).is_none() {
            notes.push(Note::NoDeadStone { point: human(*p, rec.size) });
        }
    }
    let dead: Vec<Point> = dead.into_iter().filter(|p| board.get(*p).is_some()).collect();
    let count = count::area(&board, &dead);
    let (komi_q, komi_source) = match (opts.komi_q, rec.handicap, rec.komi) {
        (Some(k), _, _) => (k, KomiSource::Given),
        (None, h, _) if h > 0 => (rules.handicap_komi_q, KomiSource::RuleSetHandicap),
        (None, _, Some(k)) => (k.quarters, KomiSource::Record),
        (None, _, None) => (rules.komi_q, KomiSource::RuleSet),
    };
    let mut scoring = rules.scoring(rec.handicap, 0, 0);
    scoring.points = board.points();
    scoring.komi_q = komi_q;
    let outcome = scoring.outcome(count.black_halves);
    let agreement = agreement(rec, &outcome, illegal.as_ref());
    Ok(Replay {
        size: rec.size,
        moves_in_record,
        moves_played: played,
        illegal,
        captures_by_black: caps[0],
        captures_by_white: caps[1],
        ended_by_passes: game.is_over(),
        final_board: rows(&board),
        board,
        dead,
        dead_source,
        count,
        handicap: rec.handicap,
        komi_q,
        komi_source,
        scoring,
        outcome,
        agreement,
        notes,
    })
}

fn agreement(rec: &Record, computed: &Outcome, illegal: Option<&IllegalAt>) -> Agreement {
    let not = |reason: Incomparable| Agreement::NotComparable { reason };
    if let Some(i) = illegal {
        return not(Incomparable::StoppedAt { number: i.number });
    }
    let Some(result) = rec.result else {
        return not(match &rec.result_text {
            Some(t) => Incomparable::UnknownResult { text: t.clone() },
            None => Incomparable::NoResult,
        });
    };
    let agrees = match result {
        GameResult::Draw => computed.winner.is_none(),
        GameResult::Win { winner, by: WinBy::Score { margin_halves } } => {
            computed.winner == Some(winner) && computed.margin_q == margin_halves
        }
        GameResult::Win { winner, by: WinBy::Unspecified } => computed.winner == Some(winner),
        GameResult::Win { by: WinBy::Resignation, .. } => {
            return not(Incomparable::Resignation { record: result.to_string() })
        }
        GameResult::Win { by: WinBy::Time, .. } => {
            return not(Incomparable::Time { record: result.to_string() })
        }
        GameResult::Win { by: WinBy::Forfeit, .. } => {
            return not(Incomparable::Forfeit { record: result.to_string() })
        }
        GameResult::Void => return not(Incomparable::Void),
        GameResult::Unknown => return not(Incomparable::Unknown),
    };
    if agrees {
        Agreement::Agrees
    } else {
        Agreement::Disagrees { record: result.to_string(), computed: computed.sgf_result() }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{p, SHORT};
    use super::super::{parse, Komi, KomiUnit, WarningKind};
    use super::*;
    use crate::game::KoRule;

    fn rules(ko: KoRule) -> ReplayOptions {
        ReplayOptions { rules: RuleSet { ko, ..RuleSet::chinese_2002() }, ..ReplayOptions::default() }
    }

    #[test]
    fn short_game() {
        let rec = parse(SHORT).unwrap();
        assert_eq!(rec.size, 9);
        assert_eq!(rec.komi, Some(Komi { quarters: 14, unit: KomiUnit::Points }));
        assert_eq!(rec.info.black.as_deref(), Some("Black Player"));
        assert_eq!(rec.info.rules.as_deref(), Some("Chinese"));
        assert_eq!(rec.move_count(), 25);
        assert_eq!(
            rec.result,
            Some(GameResult::Win { winner: Color::White, by: WinBy::Score { margin_halves: 14 } })
        );
        let r = replay(&rec, &ReplayOptions::default()).unwrap();
        assert_eq!(r.moves_played, 25);
        assert!(r.illegal.is_none());
        assert_eq!((r.captures_by_black, r.captures_by_white), (1, 0));
        assert!(r.ended_by_passes);
        assert_eq!(r.board.get(p("aa")), None, "the invader was captured");
        assert_eq!(r.count.black_halves, 2 * 36 + 9);
        assert_eq!(r.count.white_halves, 2 * 36 + 9);
        assert_eq!(r.count.shared, 9);
        assert_eq!(r.komi_source, KomiSource::Record);
        assert_eq!(r.outcome.sgf_result(), "W+7");
        assert_eq!(r.agreement, Agreement::Agrees);
        assert_eq!(r.final_board[0], ".X.X.O.O.");
        // the same game with komi 6.5 (13 quarters) given by the caller
        let r = replay(&rec, &ReplayOptions { komi_q: Some(13), ..ReplayOptions::default() }).unwrap();
        assert_eq!(r.outcome.sgf_result(), "W+6.5");
        assert!(r.agreement.is_disagreement());
    }

    /// Ko at the top left of a 7×7 board: Black takes at cb, White retakes at bb.
    const KO_SETUP: &str = "AB[ba][ab][bc]AW[ca][bb][db][cc]";

    #[test]
    fn ko_second_retake_refused_under_simple_ko() {
        let text = format!("(;GM[1]FF[4]SZ[7]KM[0]{KO_SETUP}PL[B];B[cb];W[ge];B[gf];W[bb];B[cb];W[aa])");
        let rec = parse(&text).unwrap();
        for ko in [KoRule::Simple, KoRule::Situational] {
            let r = replay(&rec, &rules(ko)).unwrap();
            assert_eq!(r.moves_played, 4, "{ko:?}");
            let i = r.illegal.clone().expect("the immediate retake is illegal");
            assert_eq!((i.number, i.color, i.reason), (5, Color::Black, IllegalMove::Ko));
            assert_eq!((i.point.as_deref(), i.sgf.as_str()), (Some("C6"), "cb"));
            assert_eq!(i.at.map(|p| p.line), Some(1));
            assert_eq!((r.captures_by_black, r.captures_by_white), (1, 1));
            assert_eq!(r.moves_in_record, 6);
            assert!(matches!(r.agreement, Agreement::NotComparable { .. }));
        }
    }

    /// Two kos. B takes ko 1, W takes ko 2, B passes, W retakes ko 1, B retakes ko 2: the board is
    /// the starting one again, but with White to move instead of Black. Positional superko
    /// refuses the last move; situational superko and simple ko allow it.
    #[test]
    fn positional_but_not_situational_repetition() {
        let text = "(;GM[1]FF[4]SZ[7]AB[ba][ab][bc][fe][ef][gf][fg]AW[ca][bb][db][cc][ee][df][eg]PL[B]
                     ;B[cb];W[ff];B[];W[bb];B[ef])";
        let rec = parse(text).unwrap();
        let pos = replay(&rec, &rules(KoRule::Positional)).unwrap();
        let i = pos.illegal.expect("positional superko refuses the repetition");
        assert_eq!((i.number, i.reason), (5, IllegalMove::Superko));
        assert_eq!(i.at.map(|p| (p.line, p.col)), Some((2, 45)));
        for ko in [KoRule::Situational, KoRule::Simple] {
            let r = replay(&rec, &rules(ko)).unwrap();
            assert!(r.illegal.is_none(), "{ko:?}: {:?}", r.illegal);
            assert_eq!(r.moves_played, 5);
            // back to the starting position
            let mut start = Board::new(7).unwrap();
            rec.setup.apply(&mut start);
            assert_eq!(r.board, start);
        }
    }

    #[test]
    fn handicap_with_setup_stones() {
        let text = "(;GM[1]FF[4]SZ[19]HA[2]KM[0.5]AB[pd][dp]RE[0];W[dd];B[pp];W[];B[])";
        let rec = parse(text).unwrap();
        assert_eq!(rec.handicap, 2);
        assert_eq!(rec.setup.black, vec![p("pd"), p("dp")]);
        let r = replay(&rec, &ReplayOptions::default()).unwrap();
        assert_eq!(r.komi_source, KomiSource::RuleSetHandicap);
        assert_eq!(r.komi_q, 0, "Chinese handicap games have no komi");
        // Black 3 stones, White 1, 357 shared: 2·363 − 722 − 4 (2 stones → 1 stone back) = 0
        assert_eq!(r.count.black_halves, 363);
        assert_eq!(r.outcome.winner, None);
        assert_eq!(r.agreement, Agreement::Agrees);
        let r = replay(&rec, &ReplayOptions { komi_q: Some(15), ..ReplayOptions::default() }).unwrap();
        assert_eq!(r.komi_source, KomiSource::Given);
        assert_eq!(r.outcome.sgf_result(), "W+7.5");
        assert!(r.notes.is_empty(), "{:?}", r.notes);
    }

    #[test]
    fn handicap_inferred_and_free_placement() {
        let rec = parse("(;SZ[19]AB[dd][pp][dp];W[pd])").unwrap();
        assert_eq!(rec.handicap, 3);
        let inferred = WarningKind::HandicapInferred { handicap: 3, stones: 3 };
        assert!(rec.warnings.iter().any(|w| w.kind == inferred), "{:?}", rec.warnings);
        // free placement written as moves: no double-move notes for the first HA black moves
        let rec = parse("(;SZ[19]HA[2];B[dd];B[pp];W[pd];W[dp])").unwrap();
        let r = replay(&rec, &ReplayOptions::default()).unwrap();
        assert_eq!(r.moves_played, 4);
        assert_eq!(r.notes, [Note::MovesTwice { number: 4, color: Color::White }]);
    }

    #[test]
    fn setup_in_later_nodes_and_pl() {
        let text = "(;SZ[9]AB[cc]PL[W];W[gg];AE[cc]AW[ee]PL[W];W[ff];B[dd])";
        let rec = parse(text).unwrap();
        assert_eq!(rec.to_move, Some(Color::White));
        assert!(matches!(rec.steps[1].action, Action::Setup { to_move: Some(Color::White), .. }));
        let r = replay(&rec, &ReplayOptions::default()).unwrap();
        assert_eq!(r.board.get(p("cc")), None);
        assert_eq!(r.board.get(p("ee")), Some(Color::White));
        assert_eq!(r.moves_played, 3);
        assert!(r.notes.contains(&Note::SetupRestarts { after_move: 1 }), "{:?}", r.notes);
    }

    #[test]
    fn dead_stones_from_territory_markup() {
        // 5×5: Black owns the left, White the right; a white stone at aa lies in Black's area.
        let text = "(;SZ[5]KM[0]AB[bb][ba][bc][bd][be]AW[aa][db][da][dc][dd][de]RE[W+0.5]
                     ;B[];W[]TB[ab][ac][ad][ae][aa]TW[eb][ea][ec][ed][ee])";
        let rec = parse(text).unwrap();
        let t = rec.territory.clone().unwrap();
        assert_eq!(t.black.len(), 5);
        let r = replay(&rec, &ReplayOptions::default()).unwrap();
        assert_eq!(r.dead_source, DeadSource::Territory);
        assert_eq!(r.dead, vec![p("aa")]);
        assert_eq!(r.count.dead_white, 1);
        // Black 10, White 10, 5 shared; komi 0 → draw, which disagrees with RE[W+0.5]
        assert_eq!(r.count.black_halves, 25);
        assert_eq!(r.outcome.winner, None);
        assert_eq!(r.agreement, Agreement::Disagrees { record: "W+0.5".into(), computed: "0".into() });
        // given dead stones override the markup
        let r = replay(&rec, &ReplayOptions { dead: Some(vec![]), ..ReplayOptions::default() }).unwrap();
        assert_eq!(r.dead_source, DeadSource::Given);
        assert_eq!(r.count.dead_white, 0);
    }

    #[test]
    fn off_board_move_is_an_illegal_move() {
        let rec = parse("(;SZ[9];B[ee];W[zz])").unwrap();
        let r = replay(&rec, &ReplayOptions::default()).unwrap();
        let i = r.illegal.unwrap();
        assert_eq!(
            (i.number, i.reason, i.point.as_deref(), i.sgf.as_str()),
            (2, IllegalMove::OffBoard, None, "zz")
        );
        let rec = parse("(;SZ[9];B[ee];W[ee])").unwrap();
        let i = replay(&rec, &ReplayOptions::default()).unwrap().illegal.unwrap();
        assert_eq!((i.reason, i.point.as_deref()), (IllegalMove::Occupied, Some("E5")));
    }

    #[test]
    fn play_after_two_passes_resumes() {
        let rec = parse("(;SZ[9];B[ee];W[];B[];W[cc];B[])").unwrap();
        let r = replay(&rec, &ReplayOptions::default()).unwrap();
        assert_eq!(r.moves_played, 5);
        assert!(!r.ended_by_passes);
        assert_eq!(r.notes, [Note::Resumed { number: 4 }]);
    }

    #[test]
    fn suicide_rule_applies() {
        // White playing aa is suicide of one stone.
        let rec = parse("(;SZ[5]AB[ba][ab]PL[W];W[aa])").unwrap();
        let r = replay(&rec, &ReplayOptions::default()).unwrap();
        assert_eq!(r.illegal.unwrap().reason, IllegalMove::Suicide);
        let mut opts = ReplayOptions::default();
        opts.rules.suicide = crate::game::SuicideRule::Allowed;
        let r = replay(&rec, &opts).unwrap();
        assert!(r.illegal.is_none());
        assert_eq!(r.captures_by_black, 1, "the suicided stone counts for Black");
    }
}
