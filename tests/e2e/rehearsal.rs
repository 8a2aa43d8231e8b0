//! The dress rehearsal: a 7-round Swiss of 64 unrated entrants run the way a Chinese
//! open runs, entirely over HTTP — the organizer imports, pairs, publishes and takes absences
//! and a withdrawal; two arbiters hold the nigiri, enter lateness, rulings and results; the
//! chief arbiter corrects a locked result — and after every round the public standings as of
//! each round so far are checked against a computation written here, from the results this
//! test chose, without the crate's standings code.
//!
//! The event (tests/fixtures/rehearsal-entrants.csv: ranks, no ratings, Chinese names):
//! - imported from the registration CSV, one player registered twice (see [`duplicate_row`]);
//! - round 1: one player absent (63 present), by rank halves with the bye to the lowest in
//!   the rank order, checked against the published round-1 lots;
//! - colours by nigiri every round: odd tables hold it at the board (grab and guess on the
//!   round page), even tables have it performed from the round's seed;
//! - round 2: a game played with the colours swapped (the count credited to whoever played
//!   Black), a both-late double loss from the lateness sheet and its lot for round 3, a player
//!   late beyond the limit alone, one late within it;
//! - round 3: warnings (one game lost on two), penalty stones that turn counts, a result
//!   confirmed by both players and the arbiter (locked);
//! - round 4: a replay (重赛) with its own start and lateness; then the chief arbiter corrects
//!   round 3's locked result with a reason (an arbiter cannot);
//! - round 5: a withdrawal (63 again, byes from now on), a forfeit; round 6: a draw (referee);
//! - no rematch in 7 rounds, at most one bye each, every public lot replayed by an outsider.

use crate::common;
use common::standings::{self, halves};
use common::*;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

/// The registration list (tests/fixtures/README.md).
const ENTRANTS: &[u8] = include_bytes!("../fixtures/rehearsal-entrants.csv");
/// The row of a player registered twice, and the row it repeats (lines of the file).
const DUPLICATE_LINE: usize = 41;
const DUPLICATE_OF_LINE: usize = 18;
const FIELD: usize = 64;
const ROUNDS: u32 = 7;
/// Reports on the second day: absent from round 1.
const ABSENT_IN_ROUND_1: &str = "董国栋";
/// Falls ill: withdrawn after round 4.
const WITHDRAWN_AFTER_4: &str = "马振宇";

// ---------------------------------------------------------------------------------------------
// The field, as the registration list gives it

#[derive(Debug, Clone)]
struct Player {
    id: i64,
    /// Pairing number (编号): order of entry, what every lot names.
    number: u32,
    name: String,
    /// Rank as one number: 1段 = 0, 7段 = 6, 1级 = −1, 20级 = −20 (higher is stronger).
    rank: i32,
    unit: String,
    birth: Option<String>,
}

fn rank_value(text: &str) -> i32 {
    let (n, unit) = text.split_at(text.char_indices().last().unwrap().0);
    let n: i32 = n.parse().unwrap_or_else(|_| panic!("rank {text}"));
    match unit {
        "段" => n - 1,
        "级" => -n,
        _ => panic!("rank {text}"),
    }
}

/// A data row of the registration list.
#[derive(Debug, Clone)]
struct Row {
    line: usize,
    name: String,
    rank: String,
    unit: String,
    birth: Option<String>,
}

/// The data rows of the file, with their line numbers.
fn file_rows() -> Vec<Row> {
    let mut r = csv::ReaderBuilder::new().has_headers(true).from_reader(ENTRANTS);
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            Row {
                line: rec.position().unwrap().line() as usize,
                name: rec[0].to_string(),
                rank: rec[2].to_string(),
                unit: rec[4].to_string(),
                birth: Some(rec[6].to_string()).filter(|b| !b.is_empty()),
            }
        })
        .collect()
}

/// The players as registered, with the ids and pairing numbers the import gave them.
fn players(s: &Server, tid: i32) -> Vec<Player> {
    let rows: HashMap<String, Row> =
        file_rows().into_iter().filter(|r| r.line != DUPLICATE_LINE).map(|r| (r.name.clone(), r)).collect();
    let numbers = numbers_of(s, tid);
    query(
        &s.db,
        &format!("SELECT id, family_name_zh || given_name_zh FROM entrants WHERE tournament_id = {tid} ORDER BY id"),
    )
    .into_iter()
    .map(|r| {
        let id: i64 = r[0].parse().unwrap();
        let row = &rows[&r[1]];
        Player {
            id,
            number: numbers[&id],
            name: r[1].clone(),
            rank: rank_value(&row.rank),
            unit: row.unit.clone(),
            birth: row.birth.clone(),
        }
    })
    .collect()
}

// ---------------------------------------------------------------------------------------------
// Import

/// The preview of the registration list: the row repeating an earlier
/// row's name, unit and birth date is not an error but flagged with whom it repeats, and is
/// added only if its box is ticked — the organizer leaves it unticked. No other row is flagged.
fn duplicate_row(preview: &Resp) {
    assert_eq!(preview.body.matches("class=\"bad-row\"").count(), 0, "{}", preview.body);
    assert_eq!(preview.body.matches("class=\"flagged\"").count(), 1, "one flagged row: {}", preview.body);
    assert!(preview.body.contains(&format!("id=\"flag-{DUPLICATE_LINE}\"")), "{}", preview.body);
    assert!(
        preview.body.contains(&format!("the row on line {DUPLICATE_OF_LINE} of this file")),
        "{}",
        preview.body
    );
}

/// Upload the registration list, look at the preview, confirm: 64 entrants, 林星辰 once.
fn import_entrants(s: &Server, org: &Client, tid: i32) {
    let field = || count_rows(&s.db, &format!("SELECT count(*) FROM entrants WHERE tournament_id = {tid}"));
    let upload = || {
        let token = org.get(&format!("/t/{tid}/import")).csrf();
        let p = org.post_file(
            &format!("/t/{tid}/import/csv"),
            &[("csrf", &token)],
            "file",
            "报名表.csv",
            ENTRANTS,
        );
        assert_eq!(p.status, 200, "{}", p.body);
        p
    };
    let confirm = |p: &Resp, extra: &[(&'static str, String)]| {
        let mut f: Vec<(&str, String)> =
            vec![("csrf", p.csrf()), ("payload", p.input("payload").expect("the upload"))];
        f.extend_from_slice(extra);
        org.post_form(&format!("/t/{tid}/import/csv/confirm"), &refs(&f))
    };
    let p = upload();
    duplicate_row(&p);
    let r = confirm(&p, &duplicate_fields(&p));
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(field(), FIELD as i64);
    let named = |name: &str| {
        count_rows(
            &s.db,
            &format!("SELECT count(*) FROM entrants WHERE tournament_id = {tid} AND family_name_zh || given_name_zh = '{name}'"),
        )
    };
    assert_eq!(named("林星辰"), 1, "the player registered twice is entered once");
    // The same list again (it once doubled the field, 17 → 34): every row flagged as someone
    // registered, nothing added unticked.
    let p = upload();
    assert_eq!(p.body.matches("class=\"flagged\"").count(), FIELD + 1, "{}", p.body);
    let r = confirm(&p, &duplicate_fields(&p));
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(field(), FIELD as i64);
}

/// The confirmation's fields of a flagged preview that ticks nothing.
fn duplicate_fields(preview: &Resp) -> Vec<(&'static str, String)> {
    preview.input("changes").map(|c| vec![("changes", c)]).unwrap_or_default()
}

fn refs<'a>(f: &'a [(&'a str, String)]) -> Vec<(&'a str, &'a str)> {
    f.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

// ---------------------------------------------------------------------------------------------
// What the test entered, and the standings computed from it

/// A game as it counts (a replay stands for the game it replays): the players as they
/// played Black and White, and each side's points in half points of 2/1/0.
#[derive(Debug, Clone)]
struct Counted {
    round: u32,
    black: i64,
    white: i64,
    black_pts: i64,
    white_pts: i64,
    /// Not played on the board (a forfeit, lateness).
    forfeit: bool,
    /// The colours were settled (every game played; the games decided without play here
    /// skip the nigiri, so nobody held a colour and the crosstable shows none).
    colours_held: bool,
}

/// One line of the standings as this test computes them ([`common::standings`]).
type Expect = standings::Line<i64>;

/// The event so far, as the test entered it.
#[derive(Default)]
struct Book {
    /// By (round, table): a correction or a replay replaces the entry.
    games: HashMap<(u32, u32), Counted>,
    byes: Vec<(u32, i64)>,
    warnings: Vec<(u32, i64)>,
}

impl Book {
    /// The standings after round `after` ([`standings::compute`]: byes score a win and add 0
    /// to 对手分; a forfeit and a double loss are games against that opponent), in the event's
    /// order before the lot.
    fn standings(&self, ids: &[i64], after: u32) -> Vec<Expect> {
        let games: Vec<standings::Game<i64>> = self
            .games
            .values()
            .map(|g| standings::Game {
                round: g.round,
                black: g.black,
                white: g.white,
                black_pts: g.black_pts,
                white_pts: g.white_pts,
            })
            .collect();
        standings::compute(ids, &games, &self.byes, &self.warnings, after)
    }

    fn score_after(&self, id: i64, after: u32) -> i64 {
        let games: i64 = self
            .games
            .values()
            .filter(|g| g.round <= after)
            .map(|g| {
                if g.black == id {
                    g.black_pts
                } else if g.white == id {
                    g.white_pts
                } else {
                    0
                }
            })
            .sum();
        games + 4 * self.byes.iter().filter(|b| b.0 <= after && b.1 == id).count() as i64
    }
}

// ---------------------------------------------------------------------------------------------
// The office

/// A game row of a round as stored.
#[derive(Debug, Clone)]
struct Line {
    gid: i32,
    table: u32,
    black: i64,
    white: i64,
    holder: Option<i64>,
    guesser: Option<i64>,
}

struct Office {
    s: Server,
    org: Client,
    /// Arbiters: odd tables, even tables.
    arbiters: [Client; 2],
    chief: Client,
    /// The public: English (lots) and Chinese (standings by the Chinese names).
    public_en: Client,
    public_zh: Client,
    tid: i32,
    field: Vec<Player>,
    book: RefCell<Book>,
    /// The lot numbers of the standings, the same after every round.
    lot_numbers: Option<HashMap<String, String>>,
    /// How often a criterion was the one that separated two neighbours on a page, by name.
    separated_by: HashMap<&'static str, usize>,
    /// What the checks met, to show that each kind occurred.
    seen: RefCell<HashMap<&'static str, usize>>,
}

impl Office {
    fn player(&self, id: i64) -> &Player {
        self.field.iter().find(|p| p.id == id).unwrap()
    }

    fn by_name(&self, name: &str) -> &Player {
        self.field.iter().find(|p| p.name == name).unwrap_or_else(|| panic!("{name}"))
    }

    fn arbiter(&self, table: u32) -> &Client {
        &self.arbiters[(table as usize + 1) % 2]
    }

    /// The games (no replays) and the bye of round `n`, as stored.
    fn round(&self, n: u32) -> (Vec<Line>, Vec<i64>) {
        let rows = query(
            &self.s.db,
            &format!(
                "SELECT id, board, black_id, white_id, nigiri_holder_id, nigiri_guesser_id FROM games \
                 WHERE tournament_id = {} AND round_number = {n} AND replay_of IS NULL ORDER BY board",
                self.tid
            ),
        );
        let mut lines = Vec::new();
        let mut byes = Vec::new();
        for r in rows {
            let black: i64 = r[2].parse().unwrap();
            match r[3].parse::<i64>() {
                Ok(white) => lines.push(Line {
                    gid: r[0].parse().unwrap(),
                    table: r[1].parse().unwrap(),
                    black,
                    white,
                    holder: r[4].parse().ok(),
                    guesser: r[5].parse().ok(),
                }),
                Err(_) => byes.push(black),
            }
        }
        (lines, byes)
    }

    fn black_of(&self, gid: i32) -> i64 {
        query(&self.s.db, &format!("SELECT black_id FROM games WHERE id = {gid}"))[0][0].parse().unwrap()
    }

    fn pv(&self, gid: i32) -> String {
        query(&self.s.db, &format!("SELECT pairing_version FROM games WHERE id = {gid}"))[0][0].clone()
    }

    /// Save a result through the game's sheet (do=save) and expect it saved.
    fn save(&self, c: &Client, gid: i32, fields: &[(&str, &str)]) {
        let mut f = vec![("do", "save")];
        f.extend_from_slice(fields);
        let r = game_post(c, self.tid, gid, "result", &f);
        assert_eq!(r.status, 303, "game {gid}: {}", r.body);
    }

    fn result_text(&self, gid: i32) -> String {
        text_of(&self.org.get(&format!("/t/{}/games/{gid}", self.tid)), "result").unwrap_or_default()
    }

    fn ruling(&self, c: &Client, gid: i32, fields: &[(&str, &str)]) {
        let mut f = vec![("do", "save")];
        f.extend_from_slice(fields);
        let r = game_post(c, self.tid, gid, "rulings", &f);
        assert_eq!(r.status, 303, "game {gid}: {}", r.body);
    }

    /// Book a game played on the board: Black won, White won, or (None) a draw.
    fn record(&self, round: u32, table: u32, black: i64, white: i64, black_won: Option<bool>) {
        let (b, w) = match black_won {
            Some(true) => (4, 0),
            Some(false) => (0, 4),
            None => (2, 2),
        };
        self.book.borrow_mut().games.insert(
            (round, table),
            Counted { round, black, white, black_pts: b, white_pts: w, forfeit: false, colours_held: true },
        );
    }

    /// A game decided without being played: `black_won` names the winner.
    fn forfeit(&self, round: u32, table: u32, black: i64, white: i64, black_won: bool) {
        let (b, w) = if black_won { (4, 0) } else { (0, 4) };
        self.book.borrow_mut().games.insert(
            (round, table),
            Counted { round, black, white, black_pts: b, white_pts: w, forfeit: true, colours_held: false },
        );
    }
}

/// Who wins a game played on the board: the stronger player (rank, then the smaller pairing
/// number), except on an upset table.
fn black_wins(round: u32, table: u32, black: &Player, white: &Player) -> bool {
    let stronger =
        (black.rank, std::cmp::Reverse(black.number)) > (white.rank, std::cmp::Reverse(white.number));
    let upset = (round * 3 + table).is_multiple_of(5);
    stronger != upset
}

/// The result form for a game Black (or White) won, by a method that depends on the table.
fn result_form(round: u32, table: u32, black_won: bool) -> Vec<(&'static str, &'static str)> {
    let winner = if black_won { "black" } else { "white" };
    match (round + table) % 4 {
        0 => {
            let i = (table % 4) as usize;
            let count = if black_won {
                ["184.5", "185", "186", "190.5"][i]
            } else {
                ["184", "183.5", "180", "175"][i]
            };
            vec![("method", "count"), ("black_count", count)]
        }
        2 => vec![("method", "time"), ("winner", winner)],
        _ => vec![("method", "resignation"), ("winner", winner)],
    }
}

/// Who holds the stones by Art. 10 (rules.md §4.2): the higher rank, then the older player;
/// `None` when that does not decide (a lot does).
fn art10_holder(a: &Player, b: &Player) -> Option<i64> {
    if a.rank != b.rank {
        return Some(if a.rank > b.rank { a.id } else { b.id });
    }
    match (&a.birth, &b.birth) {
        (Some(x), Some(y)) if x != y => Some(if x < y { a.id } else { b.id }),
        _ => None,
    }
}

fn sorted(mut v: Vec<u32>) -> Vec<u32> {
    v.sort_unstable();
    v
}

impl Office {
    /// Round 1's pairing against the published lots (rules.md §14.2): the field in rank order,
    /// equal ranks in the order of the recorded lot; the last of it has the bye; the first half
    /// plays the second, table by table one of each.
    fn check_round_one(&self, lines: &[Line], byes: &[i64], lots: &[Lot]) {
        let absent = self.by_name(ABSENT_IN_ROUND_1);
        let order_lot = lots.iter().find(|l| l.purpose == "round1_order").expect("ties in rank are drawn");
        let present: Vec<u32> =
            sorted(self.field.iter().filter(|p| p.id != absent.id).map(|p| p.number).collect());
        assert_eq!(order_lot.candidates, present, "the lot draws among the players present");
        let by_number: HashMap<u32, &Player> = self.field.iter().map(|p| (p.number, p)).collect();
        let mut order: Vec<&Player> = order_lot.outcome.iter().map(|n| by_number[n]).collect();
        order.sort_by_key(|p| std::cmp::Reverse(p.rank)); // stable: equal ranks keep the lot's order
        let bye = order.pop().unwrap();
        assert_eq!(byes, [bye.id], "the round-1 bye goes to the lowest in the order");
        assert_eq!(bye.rank, self.field.iter().filter(|p| p.id != absent.id).map(|p| p.rank).min().unwrap());
        let (upper, lower) = order.split_at(order.len() / 2);
        assert_eq!(upper.len(), 31);
        // The halves cut through the 1段 players: the lot decided who of them is in the upper half.
        assert_eq!(upper.last().unwrap().rank, 0);
        assert_eq!(lower.first().unwrap().rank, 0);
        let ids = |h: &[&Player]| h.iter().map(|p| p.id).collect::<HashSet<i64>>();
        let (up, low) = (ids(upper), ids(lower));
        for (purpose, half) in [("round1_upper", upper), ("round1_lower", lower)] {
            let l = lots.iter().find(|l| l.purpose == purpose).unwrap();
            assert_eq!(l.candidates, sorted(half.iter().map(|p| p.number).collect()), "{purpose}");
        }
        assert_eq!(lines.len(), 31);
        for l in lines {
            // rules.md §14.4 (round 1 by default): no two players of one unit meet.
            let (b, w) = (self.player(l.black), self.player(l.white));
            assert_ne!(b.unit, w.unit, "round 1 table {}: same unit {}", l.table, b.unit);
            let one_each = (up.contains(&l.black) && low.contains(&l.white))
                || (low.contains(&l.black) && up.contains(&l.white));
            assert!(one_each, "table {}: upper half against lower half: {l:?}", l.table);
        }
    }

    /// Who plays round `n`, the bye and no rematch.
    fn check_pairing(&self, n: u32, lines: &[Line], byes: &[i64], met: &mut HashSet<(i64, i64)>) {
        let absent = self.by_name(ABSENT_IN_ROUND_1).id;
        let withdrawn = self.by_name(WITHDRAWN_AFTER_4).id;
        let active: HashSet<i64> = self
            .field
            .iter()
            .map(|p| p.id)
            .filter(|&id| !((n == 1 && id == absent) || (n >= 5 && id == withdrawn)))
            .collect();
        let mut seen: Vec<i64> =
            lines.iter().flat_map(|l| [l.black, l.white]).chain(byes.iter().copied()).collect();
        seen.sort_unstable();
        let mut want: Vec<i64> = active.iter().copied().collect();
        want.sort_unstable();
        assert_eq!(seen, want, "round {n}: every active player once, nobody else");
        assert_eq!(byes.len(), active.len() % 2, "round {n}: a bye exactly when the field is odd");
        for l in lines {
            let pair = (l.black.min(l.white), l.black.max(l.white));
            assert!(met.insert(pair), "round {n} table {}: a rematch of {pair:?}", l.table);
        }
        if let Some(&bye) = byes.first() {
            // rules.md §14.5: at most one bye each; the lowest score among those without one.
            let book = self.book.borrow();
            let had: HashSet<i64> = book.byes.iter().map(|b| b.1).collect();
            assert!(!had.contains(&bye), "round {n}: a second bye for {}", self.player(bye).name);
            let lowest =
                active.iter().filter(|p| !had.contains(p)).map(|&p| book.score_after(p, n - 1)).min();
            assert_eq!(Some(book.score_after(bye, n - 1)), lowest, "round {n}: the bye to the lowest score");
        }
    }

    /// Every lot on the public pairings page of round `n`, replayed ([`replayed_lots`]).
    fn public_lots(&self, n: u32) -> Vec<Lot> {
        let page = self.public_en.get(&format!("/t/{}/pairings/{n}", self.tid));
        assert_eq!(page.status, 200, "{}", page.body);
        replayed_lots(&page)
    }

    /// Holders and colours of the nigiri of round `n` against the rules and the public lots.
    fn check_nigiri(&self, n: u32, lines: &[Line], board: &HashMap<i32, i64>, skip: &[u32], lots: &[Lot]) {
        let pair_lot = |purpose: &str, l: &Line| {
            let want = sorted(vec![self.player(l.black).number, self.player(l.white).number]);
            lots.iter().find(|x| x.purpose == purpose && sorted(x.candidates.clone()) == want).cloned()
        };
        for l in lines {
            let (Some(holder), Some(guesser)) = (l.holder, l.guesser) else {
                panic!("round {n} table {}: colours by nigiri", l.table)
            };
            let (h, g) = (self.player(holder), self.player(guesser));
            match art10_holder(h, g) {
                Some(who) => {
                    assert_eq!(who, holder, "round {n} table {}: Art. 10 names the holder", l.table);
                    self.saw(if h.rank == g.rank { "holder: older" } else { "holder: higher rank" });
                }
                None => {
                    let lot = pair_lot("nigiri_holder", l)
                        .unwrap_or_else(|| panic!("round {n} table {}: no holder lot", l.table));
                    assert_eq!(lot.outcome[0], h.number, "{lot:?}");
                    self.saw("holder: lot");
                }
            }
            if skip.contains(&l.table) {
                continue;
            }
            let black = self.black_of(l.gid);
            if let Some(&want) = board.get(&l.gid) {
                assert_eq!(black, want, "round {n} table {}: the nigiri at the board", l.table);
                self.saw("nigiri at the board");
            } else {
                let lot = pair_lot("remote_nigiri", l)
                    .unwrap_or_else(|| panic!("round {n} table {}: no remote nigiri lot", l.table));
                assert_eq!(lot.outcome[0], self.player(black).number, "round {n} table {}: {lot:?}", l.table);
                self.saw("nigiri from the seed");
            }
        }
    }

    fn saw(&self, what: &'static str) {
        *self.seen.borrow_mut().entry(what).or_default() += 1;
    }

    /// Nigiri for every game of round `n` but those in `skip` (not played): odd tables at the
    /// board with a grab and a guess, even tables from the round's seed. Returns the Black each
    /// board nigiri must give.
    fn nigiri(&self, n: u32, lines: &[Line], skip: &[u32]) -> HashMap<i32, i64> {
        let tid = self.tid;
        let mut at_board = HashMap::new();
        let tokens: Vec<String> =
            self.arbiters.iter().map(|a| a.get(&format!("/t/{tid}/rounds/{n}")).csrf()).collect();
        for l in lines.iter().filter(|l| !skip.contains(&l.table)) {
            let (c, token) = (self.arbiter(l.table), &tokens[(l.table as usize + 1) % 2]);
            let pv = self.pv(l.gid);
            let r = if l.table % 2 == 1 {
                let grab = 11 + (n * 13 + l.table * 7) % 40;
                let guess = if (n + l.table).is_multiple_of(3) { "even" } else { "odd" };
                let right = (grab % 2 == 1) == (guess == "odd");
                at_board.insert(l.gid, if right { l.guesser.unwrap() } else { l.holder.unwrap() });
                c.post_form(
                    &format!("/t/{tid}/rounds/{n}/games/{}/nigiri", l.gid),
                    &[("csrf", token), ("pv", &pv), ("grab", &grab.to_string()), ("guess", guess)],
                )
            } else {
                c.post_form(
                    &format!("/t/{tid}/rounds/{n}/games/{}/remote-nigiri", l.gid),
                    &[("csrf", token), ("pv", &pv)],
                )
            };
            assert_eq!(r.status, 303, "round {n} table {}: {}", l.table, r.body);
        }
        at_board
    }

    /// The public standings after round `k` (`?round=k`) against [`Book::standings`]: every
    /// player's values, the order by the event's criteria, players tied on all of them in the
    /// order of their lot numbers (the same numbers after every round).
    fn check_standings(&mut self, k: u32) {
        let ids: Vec<i64> = self.field.iter().map(|p| p.id).collect();
        let want = self.book.borrow().standings(&ids, k);
        let by_id: HashMap<i64, &Expect> = want.iter().map(|e| (e.who, e)).collect();
        let path = format!("/t/{}/standings?round={k}", self.tid);
        let page = standings_page_at(&self.public_zh, &path);
        assert_eq!(page.len(), FIELD, "{path}");
        let mut lot_numbers = HashMap::new();
        let mut prev: Option<(&Expect, i64)> = None;
        for (i, (place, name, _unit, score, values)) in page.iter().enumerate() {
            let p = self
                .field
                .iter()
                .find(|p| name.starts_with(&p.name))
                .unwrap_or_else(|| panic!("{name} on {path}"));
            let e = by_id[&p.id];
            assert_eq!(place, &(i + 1).to_string(), "{path}: {name}");
            assert_eq!(score, &halves(e.score), "{path}: 积分 of {name}");
            assert_eq!(
                values[..5],
                e.cells()[..],
                "{path}: tie-breaks of {name} (对手分, 累进分, 直胜, 胜局数, 警告)"
            );
            let lot: i64 = values[5].parse().unwrap();
            lot_numbers.insert(p.name.clone(), values[5].clone());
            if let Some((before, before_lot)) = prev {
                assert!(
                    before.key() >= e.key(),
                    "{path}: {name} ranks below a weaker line: {before:?} / {e:?}"
                );
                if before.key() == e.key() {
                    assert!(before_lot < lot, "{path}: a full tie in the order of the lot: {name}");
                }
                let criteria = ["积分", "对手分", "累进分", "直胜", "胜局数", "警告", "抽签"];
                let (a, b) = (before.key(), e.key());
                let differs = [a.0 != b.0, a.1 != b.1, a.2 != b.2, a.3 != b.3, a.4 != b.4, a.5 != b.5, true];
                let first = differs.iter().position(|d| *d).unwrap();
                *self.separated_by.entry(criteria[first]).or_default() += 1;
            }
            prev = Some((e, lot));
        }
        let mut numbers: Vec<i64> = lot_numbers.values().map(|v| v.parse().unwrap()).collect();
        numbers.sort_unstable();
        assert_eq!(numbers, (1..=FIELD as i64).collect::<Vec<_>>(), "{path}: a lot number each");
        match &self.lot_numbers {
            None => self.lot_numbers = Some(lot_numbers),
            Some(first) => assert_eq!(first, &lot_numbers, "{path}: the same lot numbers after every round"),
        }
        // The standings CSV of that round: the page's lines.
        let csv = csv_records(
            &self.public_zh.get(&format!("/t/{}/standings.csv?lang=zh&round={k}", self.tid)).bytes,
        );
        assert_eq!(csv.len(), FIELD + 1, "CSV after round {k}");
        for (rec, (place, name, _, score, values)) in csv[1..].iter().zip(&page) {
            assert!(rec[1].starts_with(name.as_str()), "CSV after round {k}: {rec:?} / {name}");
            assert_eq!(
                (&rec[0], &rec[4], &rec[5..]),
                (place, score, &values[..]),
                "CSV after round {k}: {name}"
            );
        }
    }

    /// The public crosstable after the last round and the wall chart of the standings after
    /// round `k`, against the book: each player's cell per round is the opponent's place, the
    /// result and the colour played ("12+b"; "+!" a forfeit, "×" a double loss, a bye, "–"
    /// not paired), and the wall chart's rows are the page's.
    fn check_documents(&self, k: u32) {
        let tid = self.tid;
        let page = standings_page_at(&self.public_zh, &format!("/t/{tid}/standings?round={k}"));
        let place: HashMap<i64, String> = page
            .iter()
            .map(|r| (self.field.iter().find(|p| r.1.starts_with(&p.name)).unwrap().id, r.0.clone()))
            .collect();
        if k == ROUNDS {
            let x = self.public_zh.get(&format!("/t/{tid}/crosstable"));
            assert_eq!(x.status, 200);
            let book = self.book.borrow();
            for p in &self.field {
                let at = x
                    .body
                    .find(&format!("players/{}\"", p.id))
                    .unwrap_or_else(|| panic!("{} on the crosstable", p.name));
                let row = &x.body[x.body[..at].rfind("<tr").unwrap()..];
                let row =
                    &row[..row[3..].find("<tr").map(|e| e + 3).or_else(|| row.find("</tbody>")).unwrap()];
                let cells = row_cells(row);
                let want: Vec<String> = (1..=ROUNDS)
                    .map(|r| {
                        if book.byes.contains(&(r, p.id)) {
                            return "轮空".to_string();
                        }
                        let Some(g) = book
                            .games
                            .values()
                            .find(|g| g.round == r && (g.black == p.id || g.white == p.id))
                        else {
                            return "–".to_string();
                        };
                        let (mine, theirs, opp, colour) = if g.black == p.id {
                            (g.black_pts, g.white_pts, g.white, "黑")
                        } else {
                            (g.white_pts, g.black_pts, g.black, "白")
                        };
                        let sign = match (mine.cmp(&theirs), g.forfeit) {
                            _ if mine == 0 && theirs == 0 => "×",
                            (std::cmp::Ordering::Greater, false) => "+",
                            (std::cmp::Ordering::Greater, true) => "+!",
                            (std::cmp::Ordering::Less, false) => "−",
                            (std::cmp::Ordering::Less, true) => "−!",
                            (std::cmp::Ordering::Equal, _) => "=",
                        };
                        let colour = if g.colours_held { colour } else { "" };
                        format!("{}{sign}{colour}", place[&opp])
                    })
                    .collect();
                assert_eq!(cells[3..3 + ROUNDS as usize], want[..], "crosstable: {}", p.name);
                assert_eq!(
                    cells[3 + ROUNDS as usize],
                    page.iter().find(|r| r.1.starts_with(&p.name)).unwrap().3,
                    "{}",
                    p.name
                );
            }
        }
        let (_, back) = pdf(&self.public_zh, &format!("/t/{tid}/standings.pdf?lang=zh&round={k}"));
        let text = readback::squash(&back.all_text());
        assert!(text.contains(&format!("第{k}轮后成绩排名")), "{text}");
        let names: Vec<&str> = page.iter().map(|r| r.1.as_str()).collect();
        for ((name, row), line) in pdf_rows(&back.all_text(), &names).iter().zip(&page) {
            let cells = format!("{}{}{}", line.2, line.3, line.4.join(""));
            assert!(row.contains(&cells), "wall chart after round {k}: {name}: {cells} not in {row}");
        }
    }

    /// Once every result of round `n` is in, the public standings are those after round `n`
    /// and no longer refresh themselves; the round's review on the staff page has nothing to
    /// say (colours by nigiri are chance, not a colour streak the pairing should have avoided).
    fn round_over(&self, n: u32) {
        let staff = self.org.get(&format!("/t/{}/rounds/{n}", self.tid));
        assert!(staff.body.contains("id=\"no-warnings\""), "round {n}: {:?}", text_of(&staff, "warnings"));
        let path = format!("/t/{}/standings", self.tid);
        let r = self.public_zh.get(&path);
        assert!(!r.body.contains("http-equiv=\"refresh\""), "round {n} is over: {}", r.body);
        assert!(r.body.contains(&format!("第{n}轮后")), "the standings after round {n}");
        assert_eq!(
            standings_page_at(&self.public_zh, &path),
            standings_page_at(&self.public_zh, &format!("{path}?round={n}"))
        );
    }
}

// ---------------------------------------------------------------------------------------------
// The event

fn open_event() -> Office {
    let s = Server::start();
    let org = s.first_organizer();
    let tid = tournament_with_players(
        &org,
        "2026年天元杯围棋公开赛",
        "Tengen Cup Open 2026",
        &[("colour_method", "nigiri")],
        0,
    );
    let (a1, u1) = add_user(&s, &org, "caipan1", "arbiter");
    let (a2, u2) = add_user(&s, &org, "caipan2", "arbiter");
    let (chief, uc) = add_user(&s, &org, "caipanzhang", "arbiter");
    for u in [u1, u2, uc] {
        add_staff(&org, tid, u, "arbiter");
    }
    let r = org.submit(&format!("/t/{tid}"), &format!("/t/{tid}/chief"), &[("user_id", &uc.to_string())]);
    assert_eq!(r.status, 303, "{}", r.body);
    import_entrants(&s, &org, tid);
    let field = players(&s, tid);
    let mut public_zh = s.client();
    public_zh.accept_language = "zh-CN".into();
    let public_en = s.client();
    Office {
        org,
        arbiters: [a1, a2],
        chief,
        public_en,
        public_zh,
        tid,
        field,
        book: RefCell::default(),
        lot_numbers: None,
        separated_by: HashMap::new(),
        seen: RefCell::default(),
        s,
    }
}

#[test]
fn dress_rehearsal_a_seven_round_swiss_of_64_unrated_entrants() {
    let mut o = open_event();
    let tid = o.tid;
    let mut met: HashSet<(i64, i64)> = HashSet::new();

    // Round 1's attendance: one player reports on the second day.
    let absent = o.by_name(ABSENT_IN_ROUND_1).id;
    let page = format!("/t/{tid}/rounds/1/attendance");
    let r = o.org.submit(&page, &page, &[("absent", &absent.to_string())]);
    assert_eq!(r.status, 303, "{}", r.body);

    for n in 1..=ROUNDS {
        if n == 5 {
            let w = o.by_name(WITHDRAWN_AFTER_4).id;
            let r = o.org.submit(
                &format!("/t/{tid}/entrants"),
                &format!("/t/{tid}/entrants/{w}/withdraw"),
                &[("reason", "因病退赛")],
            );
            assert_eq!(r.status, 303, "{}", r.body);
        }
        pair_round(&o.org, tid, n, &format!("2026120{n}"));
        publish_round(&o.s, &o.org, tid, n);
        let (lines, byes) = o.round(n);
        o.check_pairing(n, &lines, &byes, &mut met);
        if n == 1 {
            o.check_round_one(&lines, &byes, &o.public_lots(1));
        }
        for &b in &byes {
            o.book.borrow_mut().byes.push((n, b));
        }
        // Games decided without being played need no nigiri.
        let not_played: &[u32] = match n {
            2 => &[9, 11],
            5 => &[7],
            _ => &[],
        };
        let at_board = o.nigiri(n, &lines, not_played);
        let lots = o.public_lots(n);
        o.check_nigiri(n, &lines, &at_board, not_played, &lots);
        // The colours the nigiri gave.
        let (lines, _) = o.round(n);
        let table = |t: u32| lines.iter().find(|l| l.table == t).unwrap().clone();
        if n == 3 {
            double_loss_lot(&o, &lots, &lines);
        }
        let special = match n {
            2 => round_two(&o, &table),
            3 => round_three(&o, &table),
            4 => round_four(&o, &table),
            5 => {
                let l = table(7);
                o.save(o.arbiter(7), l.gid, &[("method", "forfeit"), ("winner", "white")]);
                o.forfeit(5, 7, l.black, l.white, false);
                vec![7]
            }
            6 => {
                let l = table(7);
                // A draw is the chief arbiter's ruling (seed 000 Arts. 17.5, 17.6).
                o.save(&o.chief, l.gid, &[("method", "draw")]);
                assert_eq!(o.result_text(l.gid), "Draw");
                o.record(6, 7, l.black, l.white, None);
                vec![7]
            }
            _ => vec![],
        };
        for l in lines.iter().filter(|l| !special.contains(&l.table)) {
            let (b, w) = (o.player(l.black).clone(), o.player(l.white).clone());
            let black_won = black_wins(n, l.table, &b, &w);
            o.save(o.arbiter(l.table), l.gid, &result_form(n, l.table, black_won));
            o.record(n, l.table, l.black, l.white, Some(black_won));
        }
        if n == 4 {
            correct_round_three(&o);
        }
        o.round_over(n);
        // The standings after this round and, again, after every earlier one.
        for k in 1..=n {
            o.check_standings(k);
        }
    }

    o.check_documents(4);
    o.check_documents(ROUNDS);
    // Every round's lots still replay from its public page once the event is over.
    for n in 1..=ROUNDS {
        o.public_lots(n);
    }
    assert_eq!(met.len(), 31 + 32 * 3 + 31 * 3, "every game of the event, no pair twice");
    let byes: Vec<i64> = o.book.borrow().byes.iter().map(|b| b.1).collect();
    assert_eq!(byes.len(), 4, "round 1 and rounds 5–7");
    assert_eq!(byes.iter().collect::<HashSet<_>>().len(), 4, "nobody had two byes");
    // The standings had real ties: criteria after 积分 decided neighbours, and the lot did.
    for c in ["对手分", "累进分", "抽签"] {
        assert!(o.separated_by.get(c).copied().unwrap_or(0) > 0, "{c} never decided: {:?}", o.separated_by);
    }
    for what in
        ["holder: higher rank", "holder: older", "holder: lot", "nigiri at the board", "nigiri from the seed"]
    {
        assert!(o.seen.borrow().contains_key(what), "{what} never occurred: {:?}", o.seen.borrow());
    }
    eprintln!(
        "criteria that separated neighbours on the pages: {:?}; seen: {:?}",
        o.separated_by,
        o.seen.borrow()
    );
}

/// Round 2: table 5 played with the colours swapped; the players of table 9 both arrive
/// beyond the limit (a double loss), table 11's Black alone (a loss), table 3's White within
/// it (plays, with the time deducted).
fn round_two(o: &Office, table: &dyn Fn(u32) -> Line) -> Vec<u32> {
    let tid = o.tid;
    let arb = &o.arbiters[0];
    // Swapped colours, found after move 10: the count goes to whoever played Black.
    let t5 = table(5);
    let r = arb.post_form(
        &format!("/t/{tid}/rounds/2/games/{}/played-colours", t5.gid),
        &[("csrf", &arb.get(&format!("/t/{tid}/rounds/2")).csrf()), ("pv", &o.pv(t5.gid)), ("swapped", "on")],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    // The assigned colours stay (pairing reads them); who played Black is the assigned White.
    let (assigned_black, assigned_white) = (t5.black, t5.white);
    assert_eq!(o.black_of(t5.gid), assigned_black);
    o.save(o.arbiter(5), t5.gid, &[("method", "count"), ("black_count", "185")]);
    assert_eq!(o.result_text(t5.gid), "B+¾");
    assert_eq!(
        query_text(&o.s.db, &format!("SELECT result FROM games WHERE id = {}", t5.gid)).as_deref(),
        Some("RESULT_WHITEWINS"),
        "the assigned White played Black and won"
    );
    o.record(2, 5, assigned_white, assigned_black, Some(true));

    // The lateness sheet of round 2.
    let (t9, t11, t3) = (table(9), table(11), table(3));
    let sheet = format!("/t/{tid}/results/rounds/2/lateness");
    let version = arb.get(&sheet).input("version").expect("the sheet's version");
    let arrivals = [
        (t9.black, "10:05"),
        (t9.white, "10:05"),
        (t11.black, "10:10"),
        (t11.white, "08:55"),
        (t3.white, "09:20"),
    ];
    let keys: Vec<(String, &str)> = arrivals.iter().map(|(p, t)| (format!("arr_{p}"), *t)).collect();
    let mut f: Vec<(&str, &str)> = vec![("version", &version), ("starts_at", "09:00")];
    f.extend(keys.iter().map(|(k, t)| (k.as_str(), *t)));
    let r = arb.submit(&sheet, &sheet, &f);
    assert_eq!(r.status, 303, "{}", r.body);
    for l in [&t9, &t11] {
        let r = game_post(o.arbiter(l.table), tid, l.gid, "lateness", &[]);
        assert_eq!(r.status, 303, "table {}: {}", l.table, r.body);
    }
    assert_eq!(o.result_text(t9.gid), "Double loss (both players late beyond the limit, Art. 22.3)");
    assert_eq!(
        query_text(&o.s.db, &format!("SELECT result FROM games WHERE id = {}", t9.gid)).as_deref(),
        Some("RESULT_BOTHLOSE_BYDEF")
    );
    o.book.borrow_mut().games.insert(
        (2, 9),
        Counted {
            round: 2,
            black: t9.black,
            white: t9.white,
            black_pts: 0,
            white_pts: 0,
            forfeit: true,
            colours_held: false,
        },
    );
    o.forfeit(2, 11, t11.black, t11.white, false);
    let page = o.arbiter(3).get(&format!("/t/{tid}/games/{}", t3.gid));
    let v = text_of(&page, "late-white").unwrap_or_default();
    assert!(v.contains("plays") && !v.contains("loses"), "20 minutes late plays: {v}");
    vec![5, 9, 11]
}

/// Round 3's public pairings: the lot of round 2's double loss, its nominal winner stored and
/// paired as a winner (rules.md §12: the lot decides the next round's pairing, never the
/// standings).
fn double_loss_lot(o: &Office, lots: &[Lot], round3: &[Line]) {
    let g = query(
        &o.s.db,
        &format!(
            "SELECT id, black_id, white_id, nominal_winner_id, result FROM games WHERE tournament_id = {} AND round_number = 2 AND board = 9",
            o.tid
        ),
    );
    let (black, white, nominal): (i64, i64, i64) =
        (g[0][1].parse().unwrap(), g[0][2].parse().unwrap(), g[0][3].parse().unwrap());
    assert!(nominal == black || nominal == white, "a nominal winner: {g:?}");
    assert_eq!(g[0][4], "RESULT_BOTHLOSE_BYDEF", "the result stays the double loss");
    let lot =
        lots.iter().find(|l| l.purpose == "double_loss").expect("the double loss's lot on the public page");
    assert_eq!(lot.candidates, sorted(vec![o.player(black).number, o.player(white).number]));
    assert_eq!(lot.outcome, vec![o.player(nominal).number]);
    assert!(lot.text.contains("Double loss in round 2"), "{}", lot.text);
    let book = o.book.borrow();
    let game = round3.iter().find(|l| l.black == nominal || l.white == nominal).unwrap();
    let opponent = if game.black == nominal { game.white } else { game.black };
    assert_eq!(
        book.score_after(opponent, 2),
        book.score_after(nominal, 2) + 4,
        "round 3 pairs the nominal winner by the score with the nominal win"
    );
}

/// Round 3: rulings (a warning; two warnings that lose a game; penalty stones that turn two
/// counts) and a result confirmed by both players and the arbiter.
fn round_three(o: &Office, table: &dyn Fn(u32) -> Line) -> Vec<u32> {
    // Table 1: B+5¾, confirmed by both players and the arbiter: locked.
    let t1 = table(1);
    let (b, w) = (t1.black, t1.white);
    o.save(o.arbiter(1), t1.gid, &[("method", "count"), ("black_count", "190")]);
    for who in ["black", "white", "arbiter"] {
        let r = game_post(o.arbiter(1), o.tid, t1.gid, "confirm", &[("who", who)]);
        assert_eq!(r.status, 303, "{}", r.body);
    }
    assert_eq!(
        query_opt(&o.s.db, &format!("SELECT locked FROM results WHERE game_id = {}", t1.gid)),
        Some(1)
    );
    o.record(3, 1, b, w, Some(true));
    // Table 2: a warning to Black (pressing the clock before the move), the game goes on.
    let t2 = table(2);
    let (b, w) = (t2.black, t2.white);
    o.ruling(
        o.arbiter(2),
        t2.gid,
        &[("kind", "warning"), ("against", "black"), ("move_number", "37"), ("reason", "落子前按钟")],
    );
    o.book.borrow_mut().warnings.push((3, b));
    let black_won = black_wins(3, 2, o.player(b), o.player(w));
    o.save(o.arbiter(2), t2.gid, &result_form(3, 2, black_won));
    o.record(3, 2, b, w, Some(black_won));
    // Table 4: two warnings to White lose the game (warnings_to_loss = 2).
    let t4 = table(4);
    let (b, w) = (t4.black, t4.white);
    for (m, why) in [("52", "对局中讲话"), ("118", "提子未清即按钟")] {
        o.ruling(
            o.arbiter(4),
            t4.gid,
            &[("kind", "warning"), ("against", "white"), ("move_number", m), ("reason", why)],
        );
        o.book.borrow_mut().warnings.push((3, w));
    }
    assert_eq!(o.result_text(t4.gid), "B+F (accumulated warnings)");
    o.record(3, 4, b, w, Some(true));
    // Table 6: Black counts 185 (B+¾) but has a penalty stone: 184 → W+¼ (rules.md §3.5).
    let t6 = table(6);
    let (b, w) = (t6.black, t6.white);
    o.ruling(
        o.arbiter(6),
        t6.gid,
        &[("kind", "penalty_stones"), ("stones", "1"), ("against", "black"), ("move_number", "150")],
    );
    o.save(o.arbiter(6), t6.gid, &[("method", "count"), ("black_count", "185")]);
    assert_eq!(o.result_text(t6.gid), "W+¼");
    o.record(3, 6, b, w, Some(false));
    // Table 8: Black counts 183 (W+1¼) and White has two penalty stones: 185 → B+¾.
    let t8 = table(8);
    let (b, w) = (t8.black, t8.white);
    o.save(o.arbiter(8), t8.gid, &[("method", "count"), ("black_count", "183")]);
    o.ruling(
        o.arbiter(8),
        t8.gid,
        &[("kind", "penalty_stones"), ("stones", "2"), ("against", "white"), ("move_number", "201")],
    );
    assert_eq!(o.result_text(t8.gid), "B+¾");
    o.record(3, 8, b, w, Some(true));
    vec![1, 2, 4, 6, 8]
}

/// Round 4: table 3 is replayed (重赛) in the afternoon, its White 12 minutes late for it.
fn round_four(o: &Office, table: &dyn Fn(u32) -> Line) -> Vec<u32> {
    let tid = o.tid;
    let t3 = table(3);
    let arb = o.arbiter(3);
    // A replay is the chief arbiter's ruling (seed 000 Arts. 17.5, 17.6).
    o.save(&o.chief, t3.gid, &[("method", "replay")]);
    let replay = query_opt(&o.s.db, &format!("SELECT id FROM games WHERE replay_of = {}", t3.gid))
        .expect("a replay game") as i32;
    let (b, w) = (t3.black, t3.white);
    assert_eq!(o.black_of(replay), b, "the replay keeps the original's colours");
    let (kb, kw) = (format!("arr_{b}"), format!("arr_{w}"));
    let r = game_post(arb, tid, replay, "start", &[("starts_at", "14:00"), (&kb, "14:00"), (&kw, "14:12")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let page = arb.get(&format!("/t/{tid}/games/{replay}"));
    assert!(
        text_of(&page, "replay-label").unwrap_or_default().contains("replay of board 3"),
        "{}",
        page.body
    );
    let late = text_of(&page, "late-white").unwrap_or_default();
    assert!(late.contains("plays") && !late.contains("loses"), "{late}");
    let black_won = black_wins(4, 3, o.player(b), o.player(w));
    o.save(arb, replay, &result_form(4, 3, black_won));
    o.record(4, 3, b, w, Some(black_won));
    let public = o.public_en.get(&format!("/t/{tid}/pairings/4"));
    assert!(
        public.body.contains("id=\"table-3-replay\"") && public.body.contains("replay of board 3"),
        "{}",
        public.body
    );
    vec![3]
}

/// After round 4: round 3's locked result of table 1 was miscounted; an arbiter cannot change
/// it, the chief arbiter corrects it with a reason, and it stays locked.
fn correct_round_three(o: &Office) {
    let tid = o.tid;
    let gid = game_id(&o.s.db, tid, 3, 1);
    let fields = [
        ("do", "save"),
        ("method", "count"),
        ("black_count", "178"),
        ("correction", "复核数子：黑方实为178子"),
    ];
    let r = game_post(o.arbiter(1), tid, gid, "result", &fields);
    assert_eq!(r.status, 403, "{}", r.body);
    let r = game_post(&o.chief, tid, gid, "result", &fields);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(o.result_text(gid), "W+6¼");
    assert_eq!(
        query_opt(&o.s.db, &format!("SELECT locked FROM results WHERE game_id = {gid}")),
        Some(1),
        "stays locked"
    );
    assert_eq!(
        count_rows(
            &o.s.db,
            &format!("SELECT count(*) FROM audit WHERE action = 'correct' AND entity_id = {gid} AND reason = '复核数子：黑方实为178子'")
        ),
        1
    );
    let mut book = o.book.borrow_mut();
    let g = book.games.get_mut(&(3, 1)).unwrap();
    (g.black_pts, g.white_pts) = (0, 4);
}
