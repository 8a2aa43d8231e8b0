//! The data of a round's printed and exported documents, read from the database: THE adapter
//! from stored tournaments, rounds, games and entrants to the plain structs of
//! [`crate::print`] (and to the OpenGotha writer's values).
//!
//! One function per kind of data, each loading what it needs in one go:
//!
//! | function | documents |
//! |---|---|
//! | [`round_tables`] | scoresheets (记录单), game record sheets (棋谱记录纸) |
//! | [`round_pairings`] | pairing list PDF (by table, by name), pairings CSV |
//! | [`opengotha`] | the OpenGotha XML of the tournament |
//!
//! The web downloads and `tengen print`/`tengen export` reach these through
//! [`crate::documents`], so the web and the command line print the same thing from the same
//! queries. Standings, crosstable, results CSV and the EGF file get their loaders here when
//! results are stored (one function each, returning `StandingRow`/`CrosstableRow`/`ResultRow`).
//!
//! Texts that are not stored (komi, time control, rules, results) are written in the print
//! language here, with the same words as the sheets' own labels.

use std::collections::{HashMap, HashSet};

use diesel::SqliteConnection;

use super::entrants::{self as edb, EntrantRow, Sort};
use super::rounds::{self as rdb, RoundGame, RoundRow};
use super::tournaments::{self as tdb, TournamentRow};
use super::DbError;
use crate::domain::entrant::Rank;
use crate::domain::pairing::GameResult;
use crate::domain::settings::{ByeValue, HandicapBasis, System};
use crate::import::opengotha::OgResult;
use crate::import::opengotha_write::{OgHandicap, OgInfo, OgOut, OgOutGame, OgOutPlayer, OgTime};
use crate::print::{Lang, PairingRow, SheetPlayer, SheetTournament, TableSheet};
use rules::clock::TimeControl;

/// Who asks for a document: staff see drafts, the public only published rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    /// Arbiters and organizers of the tournament, and the command line on the machine.
    Staff,
    /// Anyone: a draft round is not found.
    Public,
}

/// The tournament and round a document belongs to.
#[derive(Debug, Clone)]
pub struct RoundHead {
    pub t: TournamentRow,
    pub round: RoundRow,
    /// What the sheets print at the top (the round's state included: a draft says so).
    pub sheet: SheetTournament,
}

/// One entry per board of a round: for the scoresheets and the record sheets.
#[derive(Debug, Clone)]
pub struct RoundTables {
    pub head: RoundHead,
    /// By table number; byes have no board and no sheet.
    pub tables: Vec<TableSheet>,
}

/// The pairing of a round: for the pairing lists and the pairings CSV.
#[derive(Debug, Clone)]
pub struct RoundPairings {
    pub head: RoundHead,
    /// By table number.
    pub rows: Vec<PairingRow>,
    /// Players with a bye this round.
    pub byes: Vec<SheetPlayer>,
}

/// Scoresheets and record sheets of round `n`: one [`TableSheet`] per board.
pub fn round_tables(
    conn: &mut SqliteConnection,
    tid: i32,
    n: i32,
    audience: Audience,
    lang: Lang,
) -> Result<RoundTables, DbError> {
    let r = load_round(conn, tid, n, audience, lang)?;
    let ruleset = &r.head.t.settings().ruleset;
    let tables = r
        .games
        .iter()
        .filter_map(|g| {
            let tg = g.table_game(ruleset.komi_q)?;
            let handicap = tg.handicap;
            let komi_text = (tg.komi_q != ruleset.komi_q || handicap >= 2).then(|| {
                let back = ruleset.handicap_compensation.quarters(handicap);
                game_komi_text(tg.komi_q, back, lang)
            });
            Some(TableSheet {
                table: tg.table,
                black: r.player(g.black_id?),
                white: r.player(g.white_id?),
                handicap,
                nigiri: !tg.colours_known(),
                komi_text,
            })
        })
        .collect();
    Ok(RoundTables { head: r.head, tables })
}

/// The pairing list of round `n`: one row per board, and the byes.
pub fn round_pairings(
    conn: &mut SqliteConnection,
    tid: i32,
    n: i32,
    audience: Audience,
    lang: Lang,
) -> Result<RoundPairings, DbError> {
    let r = load_round(conn, tid, n, audience, lang)?;
    let komi = r.head.t.settings().ruleset.komi_q;
    let mut rows = Vec::new();
    let mut byes = Vec::new();
    for g in &r.games {
        match (g.black_id, g.white_id) {
            (Some(b), None) => byes.push(r.player(b)),
            (Some(b), Some(w)) => {
                let Some(tg) = g.table_game(komi) else { continue };
                rows.push(PairingRow {
                    table: tg.table,
                    black: r.player(b),
                    white: r.player(w),
                    handicap: tg.handicap,
                    nigiri: !tg.colours_known(),
                    result: result_text(&g.result, lang),
                });
            }
            _ => {}
        }
    }
    Ok(RoundPairings { head: r.head, rows, byes })
}

/// A round with its games and the players in them.
struct Loaded {
    head: RoundHead,
    games: Vec<RoundGame>,
    players: HashMap<i32, SheetPlayer>,
}

impl Loaded {
    fn player(&self, id: i32) -> SheetPlayer {
        self.players
            .get(&id)
            .cloned()
            .unwrap_or_else(|| SheetPlayer { name_latin: format!("#{id}"), ..SheetPlayer::default() })
    }
}

fn load_round(
    conn: &mut SqliteConnection,
    tid: i32,
    n: i32,
    audience: Audience,
    lang: Lang,
) -> Result<Loaded, DbError> {
    let t = tdb::get(conn, tid)?;
    let round = match audience {
        Audience::Staff => rdb::get(conn, tid, n)?,
        Audience::Public => rdb::get_published(conn, tid, n)?,
    };
    let games = rdb::games_of(conn, tid, n)?;
    let in_round: HashSet<i32> = games.iter().flat_map(|g| [g.black_id, g.white_id]).flatten().collect();
    let players = edb::list(conn, tid, "", Sort::Id)?
        .into_iter()
        .filter(|e| in_round.contains(&e.id))
        .map(|e| (e.id, sheet_player(&e)))
        .collect();
    let sheet = sheet_tournament(&t, &round, lang);
    Ok(Loaded { head: RoundHead { t, round, sheet }, games, players })
}

/// An entrant as printed: both names, the rank in both languages (as stored when it cannot be
/// read), the unit.
pub fn sheet_player(e: &EntrantRow) -> SheetPlayer {
    match e.input() {
        Some(input) => SheetPlayer::from_entrant(&input),
        None => SheetPlayer {
            name_zh: e.name_zh(),
            name_latin: e.name_latin(),
            rank_zh: e.rank.clone(),
            rank_en: e.rank.clone(),
            unit: e.unit.clone(),
        },
    }
}

/// The top of every sheet: names, venue, the event's dates (and "draft" for a draft), komi,
/// time control and rules in `lang`.
pub fn sheet_tournament(t: &TournamentRow, round: &RoundRow, lang: Lang) -> SheetTournament {
    let s = t.settings();
    let dates = if s.start_date == s.end_date {
        s.start_date.format("%Y-%m-%d").to_string()
    } else {
        format!("{} – {}", s.start_date.format("%Y-%m-%d"), s.end_date.format("%Y-%m-%d"))
    };
    let date =
        if round.published { dates } else { format!("{dates}  {}", lang.pick("（草稿）", "(draft)")) };
    SheetTournament {
        name_zh: s.name_zh.clone(),
        name_en: s.name_latin.clone(),
        venue: s.venue.clone(),
        round: u32::try_from(round.number).unwrap_or(0),
        date,
        komi_text: komi_text(s.ruleset.komi_q, lang),
        time_control_text: time_control_text(&s.time_control, lang),
        rules_text: lang.pick(s.ruleset.preset.name_zh(), s.ruleset.preset.name_en()).to_string(),
    }
}

/// Komi in quarter stones as printed: 15 → "黑贴3¾子（7.5目）" / "Black gives 3¾ stones (7.5 points)".
pub fn komi_text(q: i32, lang: Lang) -> String {
    use rules::outcome::{half_points_text, quarters_text};
    let a = q.unsigned_abs();
    let (stones, points) = (quarters_text(a), half_points_text(a));
    match (lang, q.signum()) {
        (Lang::Zh, 0) => "不贴子".into(),
        (Lang::En, 0) => "no komi".into(),
        (Lang::Zh, 1) => format!("黑贴{stones}子（{points}目）"),
        (Lang::En, 1) => format!("Black gives {stones} stones ({points} points)"),
        (Lang::Zh, _) => format!("白贴{stones}子（{points}目）"),
        (Lang::En, _) => format!("White gives {stones} stones ({points} points)"),
    }
}

/// A game's own komi, and for a handicap game the stones Black gives back at the count
/// (rules.md §3.4): "不贴子，黑还1子" / "no komi; Black returns 1 stone(s)".
fn game_komi_text(q: i32, back_q: i32, lang: Lang) -> String {
    let komi = komi_text(q, lang);
    if back_q <= 0 {
        return komi;
    }
    let back = rules::outcome::quarters_text(back_q.unsigned_abs());
    match lang {
        Lang::Zh => format!("{komi}，黑还{back}子"),
        Lang::En => format!("{komi}; Black returns {back} stone(s)"),
    }
}

/// The time control as printed: the rules crate's own description (Art. 12).
pub fn time_control_text(tc: &TimeControl, lang: Lang) -> String {
    match lang {
        Lang::Zh => tc.describe_zh(),
        Lang::En => tc.describe_en(),
    }
}

/// A stored result as printed on lists: "黑胜" / "B+", "" when none is entered. Read through
/// [`rdb::result_of`], the one reader of the stored format (OpenGotha's "both win" reads as a
/// draw there, and so here).
pub fn result_text(code: &str, lang: Lang) -> String {
    let l = |zh: &str, en: &str| lang.pick(zh, en).to_string();
    match rdb::result_of(code) {
        GameResult::BlackWins => l("黑胜", "B+"),
        GameResult::WhiteWins => l("白胜", "W+"),
        GameResult::Draw => l("和棋", "Jigo"),
        GameResult::DoubleLoss => l("双方负", "Both lose"),
        GameResult::BlackWinsByForfeit => l("黑胜（不战）", "B+ (forfeit)"),
        GameResult::WhiteWinsByForfeit => l("白胜（不战）", "W+ (forfeit)"),
        GameResult::DoubleForfeit => l("双方弃权", "Both forfeit"),
        GameResult::NoResult => String::new(),
    }
}

/// The whole tournament for OpenGotha: players with their participation, the games and byes of
/// the published rounds, results, and the settings OpenGotha has. `saved` is the time written
/// into the file. An entrant whose stored rank cannot be read is an error (`DbError::Other`).
pub fn opengotha(
    conn: &mut SqliteConnection,
    tid: i32,
    saved: chrono::NaiveDateTime,
) -> Result<OgOut, DbError> {
    let t = tdb::get(conn, tid)?;
    let (_, last) = tdb::published_rounds(conn, tid)?;
    let entrants = edb::list(conn, tid, "", Sort::Id)?;
    let games = rdb::published_games(conn, tid)?;
    let absences = rdb::all_absences(conn, tid)?;
    let extras = rdb::entrant_extras(conn, tid)?;
    let s = t.settings();
    let rounds = s.rounds.max(last);
    let absent: HashSet<(i32, i32)> = absences.into_iter().collect();
    let index: HashMap<i32, usize> = entrants.iter().enumerate().map(|(i, e)| (e.id, i)).collect();
    let mut players = Vec::with_capacity(entrants.len());
    for e in &entrants {
        let first = extras.get(&e.id).map(|x| x.1).unwrap_or(1);
        let participating = (1..=rounds as i32)
            .map(|r| !(absent.contains(&(r, e.id)) || r < first || (e.withdrawn() && r > last as i32)))
            .collect();
        let entrant = e.input().ok_or_else(|| {
            DbError::Other(format!("entrant {} has a rank that cannot be read: {:?}", e.id, e.rank))
        })?;
        players.push(OgOutPlayer { entrant, participating });
    }
    let mut out_games = Vec::new();
    let mut byes = Vec::new();
    for g in &games {
        let round = u32::try_from(g.round_number).unwrap_or(0);
        match (g.black_id.and_then(|b| index.get(&b)), g.white_id.and_then(|w| index.get(&w))) {
            (Some(&b), None) => byes.push((round, b)),
            (Some(&b), Some(&w)) => out_games.push(OgOutGame {
                round,
                table: u32::try_from(g.board).unwrap_or(0),
                black: b,
                white: w,
                handicap: u8::try_from(g.handicap).unwrap_or(0),
                known_color: g.nigiri_state().is_none_or(|n| n.record.is_some()),
                result: OgResult::parse(&g.result).unwrap_or(OgResult::UNKNOWN),
            }),
            _ => {}
        }
    }
    let mm = &s.pairing.mcmahon;
    let rank = |r: Rank| r.en().to_uppercase();
    let hd = &s.pairing.handicap;
    // OpenGotha counts ranks above its threshold as the threshold; the nearest to "no
    // handicap at or above the bar" is the bar, and without it the top of its scale.
    let handicap = match hd.basis {
        HandicapBasis::None => OgHandicap::default(),
        basis => OgHandicap {
            based_on_mms: basis == HandicapBasis::McMahonScore,
            ceiling: hd.max,
            correction: hd.reduction,
            no_hd_threshold: if hd.none_at_bar { rank(mm.bar) } else { "9D".into() },
        },
    };
    let tc = &s.time_control;
    let info = OgInfo {
        komi_q: s.ruleset.komi_q,
        begin: s.start_date,
        end: s.end_date,
        location: s.venue.clone(),
        basic_minutes: tc.basic_secs() / 60,
        time: match *tc {
            // OpenGotha knows Japanese byo-yomi, Canadian and sudden death; the Chinese reserve
            // reads one minute a move, the closest of its systems.
            TimeControl::ByoYomi { period_secs, .. } => OgTime::ByoYomi { seconds: period_secs },
            TimeControl::ChineseByoYomi { .. } => OgTime::ByoYomi { seconds: 60 },
            TimeControl::Canadian { .. } | TimeControl::Absolute { .. } => OgTime::SuddenDeath,
        },
        mcmahon: s.system == System::McMahon,
        mm_bar: rank(mm.bar),
        mm_floor: rank(mm.floor),
        handicap,
        bye_value: match s.bye_value {
            ByeValue::Win => 2,
            ByeValue::Draw => 1,
            ByeValue::Loss => 0,
        },
        saved,
    };
    let name = if s.name_zh.is_empty() { s.name_latin.clone() } else { s.name_zh.clone() };
    Ok(OgOut { name, short_name: format!("tengen_t{tid}"), rounds, players, games: out_games, byes, info })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn komi_time_and_results_read_as_printed() {
        assert_eq!(komi_text(15, Lang::Zh), "黑贴3¾子（7.5目）");
        assert_eq!(komi_text(15, Lang::En), "Black gives 3¾ stones (7.5 points)");
        assert_eq!(komi_text(0, Lang::Zh), "不贴子");
        assert_eq!(komi_text(-15, Lang::En), "White gives 3¾ stones (7.5 points)");
        assert_eq!(game_komi_text(0, 4, Lang::Zh), "不贴子，黑还1子");
        assert_eq!(game_komi_text(0, 0, Lang::En), "no komi");
        let tc = TimeControl::chinese(120, 5);
        assert_eq!(time_control_text(&tc, Lang::Zh), tc.describe_zh());
        assert_eq!(time_control_text(&tc, Lang::En), tc.describe_en());
        assert!(time_control_text(&tc, Lang::Zh).contains("120分钟"));
        assert_eq!(result_text("RESULT_BLACKWINS", Lang::Zh), "黑胜");
        assert_eq!(result_text("RESULT_WHITEWINS_BYDEF", Lang::En), "W+ (forfeit)");
        assert_eq!(result_text("", Lang::En), "");
        assert_eq!(result_text(rdb::BYE_RESULT, Lang::Zh), "");
    }
}
