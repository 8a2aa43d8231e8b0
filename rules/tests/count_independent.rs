//! The count from the position checked against an independent counter written here: a plain
//! flood fill over a grid of characters, sharing no code with `rules::count` (seed 000 Art. 9.1:
//! a side's count is its stones and the points whose paths reach only its stones; points reaching
//! both are shared ½ each).

use rules::board::{Board, Color, Point};
use rules::count::{area_dead, DeadStones};
use rules::dead::propose_dead;
use rules::sgf::{self, ReplayOptions};

/// Black's count in half points by flood fill: `grid` rows of 'X', 'O', '.', with the dead
/// stones already turned into '.'.
fn flood_black_halves(grid: &[Vec<char>]) -> (u32, u32) {
    let n = grid.len();
    let mut seen = vec![vec![false; n]; n];
    let (mut black, mut white) = (0u32, 0u32);
    for y in 0..n {
        for x in 0..n {
            match grid[y][x] {
                'X' => black += 2,
                'O' => white += 2,
                _ if seen[y][x] => {}
                _ => {
                    let (mut size, mut touches_x, mut touches_o) = (0u32, false, false);
                    let mut todo = vec![(x, y)];
                    seen[y][x] = true;
                    while let Some((cx, cy)) = todo.pop() {
                        size += 1;
                        let mut next = Vec::new();
                        if cx > 0 {
                            next.push((cx - 1, cy));
                        }
                        if cy > 0 {
                            next.push((cx, cy - 1));
                        }
                        if cx + 1 < n {
                            next.push((cx + 1, cy));
                        }
                        if cy + 1 < n {
                            next.push((cx, cy + 1));
                        }
                        for (nx, ny) in next {
                            match grid[ny][nx] {
                                'X' => touches_x = true,
                                'O' => touches_o = true,
                                _ if !seen[ny][nx] => {
                                    seen[ny][nx] = true;
                                    todo.push((nx, ny));
                                }
                                _ => {}
                            }
                        }
                    }
                    match (touches_x, touches_o) {
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

/// The grid of a board with `dead` points emptied.
fn grid(rows: &[&str], dead: &[(usize, usize)]) -> Vec<Vec<char>> {
    let mut g: Vec<Vec<char>> = rows.iter().map(|r| r.trim().chars().collect()).collect();
    for &(x, y) in dead {
        g[y][x] = '.';
    }
    g
}

fn board_grid(b: &Board, dead: &DeadStones) -> Vec<Vec<char>> {
    let n = usize::from(b.size());
    let mut g = vec![vec!['.'; n]; n];
    for p in b.all_points() {
        g[usize::from(p.y)][usize::from(p.x)] = match b.get(p) {
            Some(_) if dead.contains(p) => '.',
            Some(Color::Black) => 'X',
            Some(Color::White) => 'O',
            None => '.',
        };
    }
    g
}

/// Compares the crate's count with the flood fill, with the proposal and without dead stones.
fn check(rows: &[&str], expected_dead: &[(usize, usize)], expected_halves: (u32, u32)) {
    let b = Board::from_ascii(&rows.join("\n")).unwrap();
    let proposal = propose_dead(&b);
    let mut got: Vec<(usize, usize)> =
        proposal.stones().iter().map(|p| (usize::from(p.x), usize::from(p.y))).collect();
    got.sort_unstable();
    let mut want = expected_dead.to_vec();
    want.sort_unstable();
    assert_eq!(got, want, "proposed dead stones");
    let a = area_dead(&b, &proposal);
    let independent = flood_black_halves(&grid(rows, expected_dead));
    assert_eq!((a.black_halves, a.white_halves), independent, "crate against flood fill");
    assert_eq!(independent, expected_halves, "the counts worked by hand");
    let none = area_dead(&b, &DeadStones::none());
    assert_eq!((none.black_halves, none.white_halves), flood_black_halves(&grid(rows, &[])));
}

/// Seed 000 Art. 9 (shared points ½ each): a seki without eyes. Black 4 + White 3 inner
/// stones live; b6 and b7 are shared. Black: 4 + 8 outer stones + 24 points + 1 = 37;
/// White: 3 + 6 stones + 2 eyes + 1 = 12 (49 in all).
#[test]
fn seki_without_eyes_counted_independently() {
    let rows = ["X.OX...", "X.OX...", "XXOX...", "OOXX...", ".OX....", "OOX....", ".OX...."];
    check(&rows, &[], (74, 24));
}

/// Seed 000 Art. 9: seki with an eye each and one shared point (d7): Black 13 stones, 13 points, ½;
/// White 13 stones, 9 points, ½.
#[test]
fn seki_with_eyes_counted_independently() {
    let rows = [".XX.OO.", "XXXOOOO", "OOOXXXX", "..OX...", "..OX...", "..OX...", "..OX..."];
    check(&rows, &[], (53, 45));
}

/// Seed 000 Art. 9: dame, points between the walls touch both colours and are shared ½ each.
#[test]
fn dame_counted_independently() {
    let rows = ["..XO...", "..XO...", "..X.O..", "..X.O..", "..X.O..", "..XO...", "..X.O.."];
    // Black: 7 stones + 14 points + ½·4 shared (d5, d4, d3, d1); White: 7 + 17 + 2.
    check(&rows, &[], (46, 52));
}

/// A dead white stone inside Black's territory (c6) is proposed dead and counted as Black's.
#[test]
fn dead_group_inside_territory_counted_independently() {
    let rows = ["....X..", "..O.X..", "....X..", "XXXXX..", "OOOOOOO", ".......", "......."];
    // Black: 8 stones + 12 points + ½·8 (the right strip reaches both); White: 7 + 14 + 4.
    check(&rows, &[(2, 1)], (48, 50));
}

/// A white group with two eyes in Black's corner lives; nothing is proposed dead.
#[test]
fn two_eyed_group_lives_counted_independently() {
    let rows = ["O.O.OX.", "OOOOOX.", "XXXXXX.", ".......", ".......", ".......", "......."];
    // White: 8 stones + 2 eyes; Black: 8 stones + 31 points (g7 and g6 touch only Black).
    check(&rows, &[], (78, 20));
}

/// The final positions of the SGF fixtures: the count with the proposal and with the record's
/// own territory markup agrees with the flood fill.
#[test]
fn fixtures_counted_independently() {
    for name in ["full_game_counted.sgf", "full_game_resigned.sgf", "territory_markup.sgf"] {
        let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
        let bytes = std::fs::read(path).unwrap();
        let rec = sgf::parse_bytes(&bytes).unwrap();
        let r = sgf::replay(&rec, &ReplayOptions::default()).unwrap();
        let b = &r.board;
        for dead in [propose_dead(b), DeadStones::new(b, &r.dead).unwrap(), DeadStones::none()] {
            let a = area_dead(b, &dead);
            assert_eq!((a.black_halves, a.white_halves), flood_black_halves(&board_grid(b, &dead)), "{name}");
            assert_eq!(a.black_halves + a.white_halves, 2 * b.points());
        }
    }
}

/// The territory fixture's invasion at r3 (`qq`) is the record's only dead stone; the proposal
/// finds it too.
#[test]
fn the_fixtures_invasion_is_proposed_dead() {
    let path = format!("{}/tests/data/territory_markup.sgf", env!("CARGO_MANIFEST_DIR"));
    let rec = sgf::parse_bytes(&std::fs::read(path).unwrap()).unwrap();
    let r = sgf::replay(&rec, &ReplayOptions::default()).unwrap();
    let proposal = propose_dead(&r.board);
    let marked = DeadStones::new(&r.board, &r.dead).unwrap();
    assert!(proposal.contains(Point::from_sgf("qq").unwrap()));
    assert_eq!(proposal, marked);
}

/// The counted fixture (RE[W+4.5] at komi 7.5): the final position has nothing dead, the proposal
/// marks nothing, and the count gives the record's result (Black 182, W+2¼ stones at 3¾).
#[test]
fn the_counted_fixtures_proposal_gives_the_records_result() {
    let path = format!("{}/tests/data/full_game_counted.sgf", env!("CARGO_MANIFEST_DIR"));
    let rec = sgf::parse_bytes(&std::fs::read(path).unwrap()).unwrap();
    let r = sgf::replay(&rec, &ReplayOptions::default()).unwrap();
    let proposal = propose_dead(&r.board);
    assert!(proposal.is_empty());
    let a = area_dead(&r.board, &proposal);
    assert_eq!(a.black_halves, 364);
    assert_eq!(r.scoring.outcome(a.black_halves).sgf_result(), "W+4.5");
}
