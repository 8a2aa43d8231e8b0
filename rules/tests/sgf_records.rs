//! Realistic 19×19 records, as collections hold them: full headers (GM/FF/CA/AP/RU/KM/TM/OT/…),
//! time left on every move, comments with escaped brackets, variations, Chinese names, komi in
//! hundredths of a stone, TB/TW markup at the end. The files are in `tests/data/`; the counted
//! game's count is checked against an independent flood fill of the final board.

use rules::board::{Color, Point};
use rules::game::KoRule;
use rules::ruleset::RuleSet;
use rules::sgf::{self, Agreement, DeadSource, GameResult, KomiSource, KomiUnit, ReplayOptions, WinBy};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Area count of a board given as rows (`X`, `O`, `.`) by flood fill, in half points:
/// (Black, White). Written apart from `rules::count` on purpose.
fn flood_count(rows: &[String]) -> (u32, u32) {
    let grid: Vec<Vec<u8>> = rows.iter().map(|r| r.bytes().collect()).collect();
    let n = grid.len();
    let mut seen = vec![vec![false; n]; n];
    let (mut black, mut white) = (0u32, 0u32);
    for y in 0..n {
        for x in 0..n {
            match grid[y][x] {
                b'X' => black += 2,
                b'O' => white += 2,
                _ if seen[y][x] => {}
                _ => {
                    let mut stack = vec![(x, y)];
                    seen[y][x] = true;
                    let (mut size, mut reach_b, mut reach_w) = (0u32, false, false);
                    while let Some((cx, cy)) = stack.pop() {
                        size += 1;
                        let mut nbrs = Vec::new();
                        if cx > 0 {
                            nbrs.push((cx - 1, cy));
                        }
                        if cy > 0 {
                            nbrs.push((cx, cy - 1));
                        }
                        if cx + 1 < n {
                            nbrs.push((cx + 1, cy));
                        }
                        if cy + 1 < n {
                            nbrs.push((cx, cy + 1));
                        }
                        for (nx, ny) in nbrs {
                            match grid[ny][nx] {
                                b'X' => reach_b = true,
                                b'O' => reach_w = true,
                                _ if !seen[ny][nx] => {
                                    seen[ny][nx] = true;
                                    stack.push((nx, ny));
                                }
                                _ => {}
                            }
                        }
                    }
                    match (reach_b, reach_w) {
                        (true, false) => black += 2 * size,
                        (false, true) => white += 2 * size,
                        _ => {
                            black += size;
                            white += size;
                        }
                    }
                }
            }
        }
    }
    (black, white)
}

#[test]
fn full_counted_game_with_time_comments_and_a_variation() {
    let rec = sgf::parse(&data("full_game_counted.sgf")).unwrap();
    assert!(rec.warnings.is_empty(), "{:?}", rec.warnings);
    assert_eq!(rec.size, 19);
    assert_eq!(rec.komi.map(|k| (k.quarters, k.unit)), Some((15, KomiUnit::Points)), "KM[7.50]");
    assert_eq!(rec.handicap, 0);
    assert_eq!(rec.info.black.as_deref(), Some("Zhang Wei"));
    assert_eq!(rec.info.white_rank.as_deref(), Some("5d"));
    assert_eq!(rec.info.event.as_deref(), Some("Spring Open, round 4"));
    assert_eq!(rec.info.rules.as_deref(), Some("Chinese"));
    assert_eq!(rec.info.application.as_deref(), Some("CGoban:3"));
    assert_eq!(rec.info.date.as_deref(), Some("2023-10-07"));
    assert_eq!(
        rec.result,
        Some(GameResult::Win { winner: Color::White, by: WinBy::Score { margin_halves: 9 } })
    );
    assert_eq!(rec.move_count(), 432, "the main line only, not the variation");

    let r = sgf::replay(&rec, &ReplayOptions::default()).unwrap();
    assert!(r.illegal.is_none(), "{:?}", r.illegal);
    assert_eq!(r.moves_played, 432);
    assert!(r.ended_by_passes);
    assert_eq!((r.captures_by_black, r.captures_by_white), (58, 56));
    assert!(r.notes.is_empty(), "{:?}", r.notes);
    let (black, white) = flood_count(&r.final_board);
    assert_eq!((r.count.black_halves, r.count.white_halves), (black, white));
    assert_eq!(black, 364, "Black 182");
    assert_eq!(r.komi_source, KomiSource::Record);
    // 182 − 180.5 − 3.75 = −2.25 stones: W+4.5 points
    assert_eq!(r.outcome.sgf_result(), "W+4.5");
    assert_eq!(r.outcome.to_string(), "W+2¼");
    assert_eq!(r.agreement, Agreement::Agrees);

    // The same record replayed under the team rules' komi (3½ stones) disagrees with RE.
    let team = ReplayOptions { rules: RuleSet::chinese_team_relay(), komi_q: Some(14), dead: None };
    let r = sgf::replay(&rec, &team).unwrap();
    assert_eq!(r.outcome.sgf_result(), "W+4");
    assert!(r.agreement.is_disagreement());

    // Writing and reading back keeps the game (time, comments and the variation are dropped).
    let again = sgf::parse(&sgf::write(&rec)).unwrap();
    assert_eq!(again.moves().collect::<Vec<_>>(), rec.moves().collect::<Vec<_>>());
    assert_eq!(again.info.black, rec.info.black);
}

#[test]
fn resigned_game_from_a_chinese_server() {
    let rec = sgf::parse(&data("full_game_resigned.sgf")).unwrap();
    assert!(rec.warnings.is_empty(), "{:?}", rec.warnings);
    assert_eq!(rec.info.black.as_deref(), Some("王小明"));
    assert_eq!(rec.info.white_rank.as_deref(), Some("7段"));
    assert_eq!(rec.info.name.as_deref(), Some("第十届天元杯预选赛"));
    assert_eq!(rec.komi.map(|k| (k.quarters, k.unit)), Some((15, KomiUnit::HundredthsOfStones)), "KM[375]");
    assert_eq!(rec.result, Some(GameResult::Win { winner: Color::Black, by: WinBy::Resignation }));
    assert_eq!(rec.move_count(), 237);
    for ko in [KoRule::Situational, KoRule::Positional] {
        let opts =
            ReplayOptions { rules: RuleSet { ko, ..RuleSet::chinese_2002() }, ..ReplayOptions::default() };
        let r = sgf::replay(&rec, &opts).unwrap();
        assert!(r.illegal.is_none(), "{ko:?}: {:?}", r.illegal);
        assert_eq!(r.moves_played, 237);
        assert!(!r.ended_by_passes);
        assert!(matches!(
            &r.agreement,
            Agreement::NotComparable { reason: sgf::Incomparable::Resignation { .. } }
        ));
    }
}

#[test]
fn territory_markup_marks_dead_stones() {
    let rec = sgf::parse(&data("territory_markup.sgf")).unwrap();
    assert!(rec.warnings.is_empty(), "{:?}", rec.warnings);
    assert_eq!(rec.info.black.as_deref(), Some("柯洁"));
    assert_eq!(rec.info.round.as_deref(), Some("决赛"));
    let t = rec.territory.clone().unwrap();
    // compressed lists: 8 columns + 8 + 10 points of the ninth column
    assert_eq!(t.black.len(), 8 * 19 + 8 + 10);
    assert_eq!(t.white.len(), 8 * 19);
    let r = sgf::replay(&rec, &ReplayOptions::default()).unwrap();
    assert_eq!(r.moves_played, 44);
    assert_eq!(r.dead_source, DeadSource::Territory);
    let pt = |s: &str| Point::from_sgf(s).unwrap();
    assert_eq!(r.dead, vec![pt("cc"), pt("cd"), pt("qq")]);
    assert_eq!((r.count.dead_white, r.count.dead_black), (2, 1));
    // Black: 20 stones + 170 points = 190; White: 19 stones + 152 points = 171; no dame.
    assert_eq!((r.count.black_halves, r.count.white_halves, r.count.shared), (380, 342, 0));
    assert_eq!(r.outcome.sgf_result(), "B+11.5");
    assert_eq!(r.outcome.to_string(), "B+5¾");
    assert_eq!(r.agreement, Agreement::Agrees);

    // Without the markup nothing is dead: the invaded areas become shared and the result changes.
    let r = sgf::replay(&rec, &ReplayOptions { dead: Some(Vec::new()), ..ReplayOptions::default() }).unwrap();
    assert_eq!(r.count.dead_white, 0);
    assert!(r.agreement.is_disagreement());
}
