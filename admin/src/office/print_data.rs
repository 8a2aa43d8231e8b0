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
//! | [`round_cards`] | table cards (台卡), with [`table_link`] for their QR codes |
//! | [`results_notice`] | the results notice (成绩公告) of a published round |
//! | [`opengotha`] | the OpenGotha XML of the tournament |
//! | [`standings`] | the standings wall chart (成绩排名表) and the standings CSV |
//! | [`crosstable`] | the crosstable (成绩交叉表) |
//! | [`results`] | the results CSV (every game and bye) |
//! | [`egf`] | the EGF rating list file (`.h9`) |
//!
//! The web downloads and `tengen print`/`tengen export` reach these through
//! [`crate::documents`], so the web and the command line print the same thing from the same
//! queries.
//!
//! The last four read what the public pages read ([`resdb::standings_data`]: published rounds
//! only, for staff as for the public, since a draft has no results), cut as of the round asked
//! for by [`resdb::StandingsData::as_of`] (rounds 1..N and nothing later), and rank the players
//! with [`resdb::standings_of`], the public standings page's own computation; they only lay its
//! rows out. The crosstable and the EGF file number the players by their line (players sharing
//! a place follow the standings' order), so every opponent number names one player.
//!
//! Texts that are not stored (komi, time control, rules, results) are written in the print
//! language here, with the same words as the sheets' own labels.

use crate::i18n::tr;
use std::collections::{HashMap, HashSet};

use crate::db::Conn;

use crate::db::entrants::{self as edb, EntrantRow, Sort};
use crate::db::results::{self as resdb, AsOf};
use crate::db::rounds::{self as rdb, RoundGame, RoundRow};
use crate::db::tournaments::{self as tdb, TournamentRow};
use crate::db::DbError;
use crate::domain::entrant::Rank;
use crate::domain::gor;
use crate::domain::pairing::{self, GameResult};
use crate::domain::settings::{ByeValue, HandicapBasis, HandicapSettings, System, TieBreak};
use crate::domain::standings as ds;
use crate::formats::csv_export::ResultRow;
use crate::formats::egf::{ascii_fold, EgfClass, EgfHandicap, EgfPlayer, EgfRefusal, EgfTournament};
use crate::formats::opengotha::read::OgResult;
use crate::formats::opengotha::settings::og_placement;
use crate::formats::opengotha::write::{OgHandicap, OgInfo, OgOut, OgOutGame, OgOutPlayer, OgTime};
use crate::print::{
    Bye, Colour, CrosstableRow, Lang, NoticeRow, Outcome, PairingRow, RoundResult, SheetPlayer,
    SheetTournament, StandingRow, TableCard, TableSheet,
};
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
    pub byes: Vec<Bye>,
}

/// Scoresheets and record sheets of round `n`: one [`TableSheet`] per board.
pub fn round_tables(
    conn: &mut Conn,
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
            // A replay (重赛) has its own sheet at the same table, labelled.
            let tg = g.board_game(ruleset.komi_q)?;
            let handicap = tg.handicap;
            let komi_text = (tg.komi_q != ruleset.komi_q || handicap >= 2).then(|| {
                let back = ruleset.handicap_compensation.quarters(handicap);
                game_komi_text(tg.komi_q, back, lang)
            });
            let (black, white) = seated(&tg, g.black_id?, g.white_id?);
            Some(TableSheet {
                table: r.head.round.hall_number(tg.table),
                black: r.player(black),
                white: r.player(white),
                handicap,
                nigiri: !tg.colours_known(),
                komi_text,
                replay_of: g.replay_of,
            })
        })
        .collect();
    Ok(RoundTables { head: r.head, tables })
}

/// The pairing list of round `n`: one row per board, and the byes.
pub fn round_pairings(
    conn: &mut Conn,
    tid: i32,
    n: i32,
    audience: Audience,
    lang: Lang,
) -> Result<RoundPairings, DbError> {
    let r = load_round(conn, tid, n, audience, lang)?;
    let several = several_groups(conn, tid)?;
    let komi = r.head.t.settings().ruleset.komi_q;
    let mut rows = Vec::new();
    let mut byes = Vec::new();
    let replayed = rdb::replayed(&r.games);
    for g in &r.games {
        match (g.black_id, g.white_id) {
            (Some(b), None) => byes.push(Bye { player: r.player(b), group: String::new() }),
            (Some(b), Some(w)) => {
                let Some(tg) = g.board_game(komi) else { continue };
                let (b, w) = seated(&tg, b, w);
                rows.push(PairingRow {
                    table: r.head.round.hall_number(tg.table),
                    group_table: several.then_some(tg.table),
                    black: r.player(b),
                    white: r.player(w),
                    handicap: tg.handicap,
                    nigiri: !tg.colours_known(),
                    result: result_text(&g.result, lang),
                    replay_of: g.replay_of,
                    replayed: replayed.contains(&g.id),
                    group: String::new(),
                });
            }
            _ => {}
        }
    }
    Ok(RoundPairings { head: r.head, rows, byes })
}

/// The table cards of a round: one per board, by table (a replay's card takes its game's
/// place at the table); byes have no board and no card.
#[derive(Debug, Clone)]
pub struct RoundCards {
    pub head: RoundHead,
    /// Without links: [`table_link`] makes them where the public address is known.
    pub cards: Vec<TableCard>,
    /// The group of each card, in the hall's set of several groups ([`hall_cards`]); empty: the
    /// head's.
    pub groups: Vec<i32>,
}

/// The table cards of round `n`, one per board, made from the scoresheets' boards.
pub fn round_cards(
    conn: &mut Conn,
    tid: i32,
    n: i32,
    audience: Audience,
    lang: Lang,
) -> Result<RoundCards, DbError> {
    let RoundTables { head, tables } = round_tables(conn, tid, n, audience, lang)?;
    // By table; a replay comes after its game at the same table, and replaces it.
    let by_table: std::collections::BTreeMap<u32, TableSheet> =
        tables.into_iter().map(|t| (t.table, t)).collect();
    let cards = by_table.into_values().map(|sheet| TableCard { sheet, link: None, head: None }).collect();
    Ok(RoundCards { head, cards, groups: Vec::new() })
}

/// A group's name in `lang` (the other language's when it has none).
fn group_name(g: &crate::db::events::GroupFields, lang: Lang) -> String {
    let (a, b) = match lang {
        Lang::Zh => (&g.group_name_zh, &g.group_name_latin),
        Lang::En => (&g.group_name_latin, &g.group_name_zh),
    };
    if a.trim().is_empty() { b.trim() } else { a.trim() }.to_string()
}

/// What [`hall_round`] reads of one group's round: its head and the document's data.
type GroupLoad<'a, T> = dyn FnMut(&mut Conn, i32) -> Result<(RoundHead, T), DbError> + 'a;
/// The event's head, and each group with its head and data, in hall order.
type HallRound<T> = (RoundHead, Vec<(crate::db::events::Group, RoundHead, T)>);

/// Each group of `event` in hall order with what `load` reads of its round; the groups
/// with no such round (or only a draft, for the public) are left out, and an event none of
/// whose groups has it is [`DbError::NotFound`]. With the event's own head: its name (not a
/// group's) over the first group's round.
fn hall_round<T>(conn: &mut Conn, event: i32, load: &mut GroupLoad<'_, T>) -> Result<HallRound<T>, DbError> {
    let mut out = Vec::new();
    for g in crate::db::events::groups(conn, event)? {
        match load(conn, g.id()) {
            Ok((head, t)) => out.push((g, head, t)),
            Err(DbError::NotFound) => continue,
            Err(e) => return Err(e),
        }
    }
    let (g, first, _) = out.first().ok_or(DbError::NotFound)?;
    let t = g.t.clone();
    let sheet = SheetTournament {
        name_zh: t.name_zh.clone(),
        name_latin: t.name_latin.clone(),
        ..first.sheet.clone()
    };
    Ok((RoundHead { t, round: first.round.clone(), sheet }, out))
}

/// The event's pairing list of round `n` for the hall's notice board: every group's tables in
/// one list by hall number, each naming its group (tournament practice: one hall, one
/// numbering), and every group's byes.
pub fn hall_pairings(
    conn: &mut Conn,
    event: i32,
    n: i32,
    audience: Audience,
    lang: Lang,
) -> Result<RoundPairings, DbError> {
    let (head, groups) = hall_round(conn, event, &mut |c, tid| {
        let p = round_pairings(c, tid, n, audience, lang)?;
        Ok((p.head, (p.rows, p.byes)))
    })?;
    let several = groups.len() > 1;
    let mut rows = Vec::new();
    let mut byes = Vec::new();
    for (g, _, (r, b)) in groups {
        let name = if several { group_name(&g.fields, lang) } else { String::new() };
        rows.extend(r.into_iter().map(|r| PairingRow { group: name.clone(), group_table: None, ..r }));
        byes.extend(b.into_iter().map(|b| Bye { group: name.clone(), ..b }));
    }
    rows.sort_by_key(|r| r.table);
    Ok(RoundPairings { head, rows, byes })
}

/// The event's table cards of round `n`: every group's, by hall number, each card headed by its
/// group's name and round.
pub fn hall_cards(
    conn: &mut Conn,
    event: i32,
    n: i32,
    audience: Audience,
    lang: Lang,
) -> Result<RoundCards, DbError> {
    let (head, groups) = hall_round(conn, event, &mut |c, tid| {
        let RoundCards { head, cards, .. } = round_cards(c, tid, n, audience, lang)?;
        Ok((head, cards))
    })?;
    let mut cards: Vec<(i32, TableCard)> = groups
        .into_iter()
        .flat_map(|(g, h, cs)| {
            let id = g.id();
            cs.into_iter().map(move |c| (id, TableCard { head: Some(h.sheet.clone()), ..c }))
        })
        .collect();
    cards.sort_by_key(|(_, c)| c.sheet.table);
    let (groups, cards) = cards.into_iter().unzip();
    Ok(RoundCards { head, cards, groups })
}

/// The public address of table `table` of round `n`: the public pairings of the round at that
/// table's row, under the server's public address `base` (`--public-url`).
pub fn table_link(base: &str, tid: i32, n: i32, table: u32) -> String {
    format!("{}/t/{tid}/pairings/{n}#table-{table}", base.trim_end_matches('/'))
}

/// The hall poster of an event: the group whose row names the event (every group's row holds
/// the shared name, venue and dates) and the poster without its links ([`poster_links`] adds
/// them where the public address is known).
#[derive(Debug, Clone)]
pub struct EventPoster {
    pub t: TournamentRow,
    pub event: i32,
    pub poster: crate::print::HallPoster,
}

/// The hall poster of event `event`, labelled in `lang`: its name, venue and dates, and the
/// check-in code (one for the event, written to every group at once). Unknown event:
/// [`DbError::NotFound`].
pub fn hall_poster(conn: &mut Conn, event: i32, lang: Lang) -> Result<EventPoster, DbError> {
    let groups = crate::db::events::groups(conn, event)?;
    let t = groups[0].t.clone();
    let code = crate::db::check_in::code(conn, t.id)?;
    let head = event_sheet(&t, 0, lang);
    let other = match lang {
        Lang::Zh => Lang::En,
        Lang::En => Lang::Zh,
    };
    let poster = crate::print::HallPoster {
        name: head.name(lang).to_string(),
        other_name: head.name(other).to_string(),
        venue: head.venue.clone(),
        dates: head.date.clone(),
        page_link: None,
        code,
        check_in_link: None,
    };
    Ok(EventPoster { t, event, poster })
}

/// The poster's links under the server's public address `base` (`--public-url`): the event's
/// public page, and the phone check-in form of the event (any group's form checks in every
/// group's entrants) with the code (digits only) filled in.
pub fn poster_links(p: &mut EventPoster, base: &str) {
    p.poster.page_link = Some(format!("{}/e/{}", base.trim_end_matches('/'), p.event));
    p.poster.check_in_link =
        p.poster.code.as_ref().map(|code| format!("{}?code={code}", check_in_link(base, p.t.id)));
}

/// The phone check-in form of `tid` under the public address `base` (empty: its path).
pub fn check_in_link(base: &str, tid: i32) -> String {
    format!("{}/t/{tid}/check-in/self", base.trim_end_matches('/'))
}

/// The results notice of a published round: its results by table and the standings after it.
#[derive(Debug, Clone)]
pub struct RoundNotice {
    pub t: TournamentRow,
    /// The top of the notice: its `date` is the day the round was published, in the event's
    /// zone, the zone named.
    pub sheet: SheetTournament,
    /// By table, the byes after the boards.
    pub results: Vec<NoticeRow>,
    /// The standings after the round: the standings wall chart's own rows ([`standings`]).
    pub standings: EventStandings,
}

/// The results notice of round `n` (published rounds only: a draft is [`DbError::NotFound`]).
pub fn results_notice(conn: &mut Conn, tid: i32, n: i32, lang: Lang) -> Result<RoundNotice, DbError> {
    let t = titled(conn, tid)?;
    let round = rdb::get_published(conn, tid, n)?;
    let all = resdb::standings_data(conn, tid)?;
    let players: HashMap<i32, SheetPlayer> = all.entrants.iter().map(|e| (e.id, sheet_player(e))).collect();
    let player = |id: i32| {
        players
            .get(&id)
            .cloned()
            .unwrap_or_else(|| SheetPlayer { name_latin: format!("#{id}"), ..SheetPlayer::default() })
    };
    let lines: Vec<&resdb::GameLine> = all.lines.iter().filter(|l| l.game.round_number == n).collect();
    let games: Vec<RoundGame> = lines.iter().map(|l| l.game.clone()).collect();
    // A game that was replayed is told by its replay, which holds the result.
    let replayed = rdb::replayed(&games);
    let mut results = Vec::new();
    for l in lines.iter().filter(|l| !replayed.contains(&l.game.id)) {
        let (black, white) = l.played();
        let Some(black) = black.or(white) else { continue };
        let white = if l.bye_player().is_some() { None } else { white.map(player) };
        results.push(NoticeRow {
            table: if white.is_some() {
                round.hall_number(u32::try_from(l.game.board).unwrap_or(0))
            } else {
                0
            },
            black: player(black),
            white,
            result: line_result(lang, l),
        });
    }
    results.sort_by_key(|r| (r.table == 0, r.table));
    let after = u32::try_from(n).unwrap_or(0);
    let standings = standings(conn, tid, Some(after), lang)?;
    let zone = t.settings().time_zone;
    let mut sheet = sheet_tournament(&t, &round, lang);
    if let Some(day) = round.published_at.as_deref().and_then(|at| zone.local_date(at)) {
        sheet.date = tr!(lang, "time.in_zone", time = day.format("%Y-%m-%d").to_string(), zone = zone.name());
    }
    Ok(RoundNotice { t, sheet, results, standings })
}

/// A game's or bye's result as the public results page words it: a bye, the sheet's result
/// ("黑中盘胜", "白不战胜", "双方均负"), or an imported OpenGotha result.
pub fn line_result(lang: Lang, l: &resdb::GameLine) -> String {
    let single = l.game.black_id.is_none() || l.game.white_id.is_none();
    if single && l.game.result == "BYE" && l.result.as_ref().is_none_or(|r| r.outcome.is_none()) {
        return lang.t("r.bye_result").to_string();
    }
    l.outcome()
        .map(|o| lang.game_result(&o))
        .or_else(|| imported_text(lang, &l.game.result))
        .unwrap_or_default()
}

/// The text of an imported OpenGotha result (games never entered here).
pub fn imported_text(lang: Lang, code: &str) -> Option<String> {
    use crate::domain::pairing::GameResult as P;
    let key = match crate::db::results::imported(code)? {
        P::BlackWins => "r.og.black_wins",
        P::WhiteWins => "r.og.white_wins",
        P::BlackWinsByForfeit => "r.og.black_wins_forfeit",
        P::WhiteWinsByForfeit => "r.og.white_wins_forfeit",
        P::Draw => "r.og.draw",
        P::DoubleLoss | P::DoubleForfeit => "r.og.double_loss",
        P::NoResult => return None,
    };
    Some(lang.t(key).to_string())
}

/// The two players of a board as the sheets and lists name them: Black and White, or while a
/// nigiri is to be done, the guesser first and the one who holds the stones second (who holds
/// is the event's nigiri rule's decision, stored with the game).
fn seated(tg: &crate::domain::rounds::TableGame, black: i32, white: i32) -> (i32, i32) {
    match &tg.nigiri {
        Some(n) if n.record.is_none() => (rdb::eid(n.guesser), rdb::eid(n.holder)),
        _ => (black, white),
    }
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

fn load_round(conn: &mut Conn, tid: i32, n: i32, audience: Audience, lang: Lang) -> Result<Loaded, DbError> {
    let t = titled(conn, tid)?;
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

/// The display title of group `tid` (zh, Latin): its event's name, and when the event holds
/// several groups, the group's after it ("天元杯 · 业余高段组", "Tengen Cup - Amateur Dan"; the
/// Latin title takes the group's Latin name, or its Chinese one). A single group's is the
/// event's name alone.
pub fn group_title(conn: &mut Conn, tid: i32) -> Result<(String, String), DbError> {
    let t = tdb::get(conn, tid)?;
    let Some(g) = crate::db::event_pages::group_title(conn, tid)? else {
        return Ok((t.name_zh, t.name_latin));
    };
    let zh_group = super::events::in_script(true, &g.group_zh, &g.group_latin);
    if zh_group.is_empty() {
        return Ok((t.name_zh, t.name_latin));
    }
    let latin_group = super::events::in_script(false, &g.group_zh, &g.group_latin);
    // The Chinese title is the pages' (`events::group_title`); the Latin one joins with an ASCII
    // hyphen, so it stays ASCII where its parts are (the EGF file's name line is ASCII).
    let zh = match t.name_zh.trim() {
        "" => String::new(),
        _ => super::events::group_title(Lang::Zh, &t, &g),
    };
    let latin = match t.name_latin.trim() {
        "" => String::new(),
        name => format!("{name} - {latin_group}"),
    };
    Ok((zh, latin))
}

/// Group `tid`'s row as its documents name it: its names are [`group_title`]'s, so every sheet,
/// list, export and file name of a group of a several-group event names the group.
pub fn titled(conn: &mut Conn, tid: i32) -> Result<TournamentRow, DbError> {
    let (name_zh, name_latin) = group_title(conn, tid)?;
    Ok(TournamentRow { name_zh, name_latin, ..tdb::get(conn, tid)? })
}

/// Whether group `tid`'s event holds several groups (its lists then give the hall numbers
/// beside the group's own table numbers).
pub fn several_groups(conn: &mut Conn, tid: i32) -> Result<bool, DbError> {
    match crate::db::events::siblings(conn, tid) {
        Ok(g) => Ok(g.len() > 1),
        Err(DbError::NotFound) => Ok(false),
        Err(e) => Err(e),
    }
}

/// An entrant as printed: both names, the rank (as stored when it cannot be read), the unit.
pub fn sheet_player(e: &EntrantRow) -> SheetPlayer {
    match e.input() {
        Some(input) => SheetPlayer::from_entrant(&input),
        None => SheetPlayer {
            name_zh: e.name_zh(),
            name_latin: e.name_latin(),
            rank: None,
            rank_stored: e.rank.clone(),
            unit: e.unit.clone(),
        },
    }
}

/// The top of every sheet: names, venue, the event's dates (and "draft" for a draft), komi,
/// time control and rules in `lang`.
pub fn sheet_tournament(t: &TournamentRow, round: &RoundRow, lang: Lang) -> SheetTournament {
    sheet_head(t, u32::try_from(round.number).unwrap_or(0), !round.published, lang)
}

/// The top of the tournament's standings sheets: `round` is the last round counted.
pub fn event_sheet(t: &TournamentRow, round: u32, lang: Lang) -> SheetTournament {
    sheet_head(t, round, false, lang)
}

fn sheet_head(t: &TournamentRow, round: u32, draft: bool, lang: Lang) -> SheetTournament {
    let s = t.settings();
    let dates = if s.start_date == s.end_date {
        s.start_date.format("%Y-%m-%d").to_string()
    } else {
        format!("{} – {}", s.start_date.format("%Y-%m-%d"), s.end_date.format("%Y-%m-%d"))
    };
    let date = if draft { format!("{dates}  {}", lang.t("doc.draft")) } else { dates };
    SheetTournament {
        name_zh: s.name_zh.clone(),
        name_latin: s.name_latin.clone(),
        venue: s.venue.clone(),
        round,
        date,
        komi_text: komi_text(s.ruleset.komi_q, lang),
        time_control_text: time_control_text(&s.time_control, lang),
        rules_text: lang.rule_set(s.ruleset.preset).to_string(),
        name_order: s.name_order,
        notes: Vec::new(),
    }
}

/// Komi in quarter stones as printed: 15 → "黑贴3¾子（7.5目）" / "Black gives 3¾ stones (7.5 points)".
pub fn komi_text(q: i32, lang: Lang) -> String {
    use rules::outcome::{half_points_text, quarters_text};
    let a = q.unsigned_abs();
    let (stones, points) = (quarters_text(a), half_points_text(a));
    match q.signum() {
        0 => lang.t("doc.no_komi").into(),
        1 => tr!(lang, "doc.black_gives", stones, points),
        _ => tr!(lang, "doc.white_gives", stones, points),
    }
}

/// A game's own komi, and for a handicap game the stones Black gives back at the count
/// (rules.md §3.4): "不贴子，黑还1子" / "no komi; Black returns 1 stone".
fn game_komi_text(q: i32, back_q: i32, lang: Lang) -> String {
    let komi = komi_text(q, lang);
    if back_q <= 0 {
        return komi;
    }
    let back = rules::outcome::quarters_text(back_q.unsigned_abs());
    tr!(lang, "doc.black_returns", komi, back, quarters = back_q)
}

/// The time control as printed: the rules crate's own description (Art. 12).
pub fn time_control_text(tc: &TimeControl, lang: Lang) -> String {
    lang.time_control(tc)
}

/// A stored result as printed on lists: "黑胜" / "B+", "" when none is entered. Read through
/// [`rdb::result_of`], the one reader of the stored format (OpenGotha's "both win" reads as a
/// draw there, and so here).
pub fn result_text(code: &str, lang: Lang) -> String {
    let l = |k: &str| lang.t(k).to_string();
    match rdb::result_of(code) {
        GameResult::BlackWins => l("doc.b_wins"),
        GameResult::WhiteWins => l("doc.w_wins"),
        GameResult::Draw => l("doc.jigo"),
        GameResult::DoubleLoss => l("doc.both_lose"),
        GameResult::BlackWinsByForfeit => l("doc.b_forfeit"),
        GameResult::WhiteWinsByForfeit => l("doc.w_forfeit"),
        GameResult::DoubleForfeit => l("doc.both_forfeit"),
        GameResult::NoResult => String::new(),
    }
}

/// The whole tournament for OpenGotha: players with their participation, the games and byes of
/// the published rounds, results, and the settings OpenGotha has. `saved` is the time written
/// into the file. An entrant whose stored rank cannot be read is an error (`DbError::Other`).
pub fn opengotha(conn: &mut Conn, tid: i32, saved: chrono::NaiveDateTime) -> Result<OgOut, DbError> {
    let t = titled(conn, tid)?;
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
            .map(|r| {
                !(absent.contains(&(r, e.id))
                    || r < first
                    || (e.withdrawn() && r >= e.withdrawn_from_round.unwrap_or(last as i32 + 1)))
            })
            .collect();
        let entrant = e.input().ok_or_else(|| {
            DbError::Other(format!("entrant {} has a rank that cannot be read: {:?}", e.id, e.rank))
        })?;
        players.push(OgOutPlayer { entrant, participating });
    }
    let mut out_games = Vec::new();
    let mut byes = Vec::new();
    // One game per table and round: a game that was replayed (重赛) is written as its replay,
    // which holds the result. The colours written are the assigned ones (OpenGotha pairs by
    // them, as Tengen does), and `games.result` credits those seats.
    let replayed = rdb::replayed(&games);
    for g in games.iter().filter(|g| !replayed.contains(&g.id)) {
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
    let rank = |r: Rank| r.notation().to_uppercase();
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
            // OpenGotha knows one byo-yomi period's length, Canadian and sudden death; the
            // Chinese reserve reads one minute a move, the closest of its systems (the number
            // of periods and the reserve are lost: the import says so).
            TimeControl::ByoYomi { period_secs, .. } => OgTime::ByoYomi { seconds: period_secs },
            TimeControl::ChineseByoYomi { .. } => OgTime::ByoYomi { seconds: 60 },
            TimeControl::Canadian { moves_per_period, period_secs, .. } => {
                OgTime::canadian(moves_per_period, period_secs).unwrap_or(OgTime::SuddenDeath)
            }
            TimeControl::Absolute { .. } => OgTime::SuddenDeath,
        },
        placement: og_placement(s.system, &s.tiebreaks).into_iter().map(String::from).collect(),
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

// ---------------------------------------------------------------------------------------------
// Standings, crosstable, results, EGF: the whole tournament's published rounds.

/// The standings for the wall chart and the standings CSV.
#[derive(Debug, Clone)]
pub struct EventStandings {
    pub t: TournamentRow,
    /// The top of the sheet; its `round` is the last round counted.
    pub sheet: SheetTournament,
    /// In standings order, the tie-break columns of the tournament's order (积分 aside).
    pub rows: Vec<StandingRow>,
}

/// The crosstable: one row per player, one result per round counted.
#[derive(Debug, Clone)]
pub struct EventCrosstable {
    pub t: TournamentRow,
    pub sheet: SheetTournament,
    /// In standings order, `place` numbering the lines (1, 2, 3, …).
    pub rows: Vec<CrosstableRow>,
}

/// Every game and bye of the published rounds.
#[derive(Debug, Clone)]
pub struct EventResults {
    pub t: TournamentRow,
    /// By round, then table; a round's byes (table 0) after its tables.
    pub rows: Vec<ResultRow>,
}

/// The EGF rating list file's contents, or why the tournament cannot make one (a player
/// without a Latin name or a readable rank, a time control below class C): a refusal about
/// the tournament's data, not a fault.
#[derive(Debug, Clone)]
pub struct EventEgf {
    pub t: TournamentRow,
    pub file: Result<(EgfTournament, Vec<EgfPlayer>), EgfRefusal>,
}

/// The tournament, what standings read, and the standings after `round` (by default the last
/// round with a result: what the public standings page shows without `?round=`).
struct Ranked {
    t: TournamentRow,
    /// Rounds 1 to the round asked for, and nothing later.
    data: AsOf,
    st: ds::Standings,
    names: HashMap<i32, EntrantRow>,
}

fn ranked(conn: &mut Conn, tid: i32, round: Option<u32>) -> Result<Ranked, DbError> {
    let t = titled(conn, tid)?;
    let all = resdb::standings_data(conn, tid)?;
    let data = all.as_of(round);
    let st = resdb::standings_of(&t, &data);
    let names = all.entrants.into_iter().map(|e| (e.id, e)).collect();
    Ok(Ranked { t, data, st, names })
}

impl Ranked {
    /// The standings rows with their entrants, in order.
    fn rows(&self) -> impl Iterator<Item = (&ds::Row, &EntrantRow)> {
        self.st.rows.iter().filter_map(|r| Some((r, self.names.get(&i32::try_from(r.id).ok()?)?)))
    }

    /// The tie-breaks shown beside the score: the tournament's order without 积分 itself.
    fn shown(&self) -> Vec<(usize, TieBreak)> {
        self.st.tiebreaks.iter().copied().enumerate().filter(|(_, t)| *t != TieBreak::Score).collect()
    }

    fn tiebreaks(&self, r: &ds::Row, lang: Lang) -> Vec<(String, String)> {
        self.shown()
            .into_iter()
            .map(|(k, tb)| {
                let v = r.values.get(k).copied().flatten();
                (tiebreak_label(tb, lang).to_string(), v.map(|v| ds::value_text(tb, v)).unwrap_or("–".into()))
            })
            .collect()
    }

    /// Each player's entry for rounds 1..=`rounds`, the opponents numbered by `number`
    /// (entrant id → line): the standings' game or bye of that round, else a game still
    /// without a result (`?`), else an absence (`0-`).
    fn round_results(&self, id: u32, rounds: u32, number: &HashMap<u32, u32>) -> Vec<RoundResult> {
        let Some(row) = self.st.rows.iter().find(|r| r.id == id) else { return Vec::new() };
        let me = i64::from(id);
        (1..=rounds)
            .map(|n| {
                let lines = self.data.lines.iter().filter(|l| l.game.round_number == n as i32);
                if let Some(c) = row.cells.iter().find(|c| c.round == n) {
                    let Some(o) = c.opponent else { return RoundResult::no_game(outcome(c.outcome)) };
                    let handicap = lines
                        .filter(|l| {
                            let (b, w) = (l.game.black_id.map(i64::from), l.game.white_id.map(i64::from));
                            (b, w) == (Some(me), Some(i64::from(o)))
                                || (b, w) == (Some(i64::from(o)), Some(me))
                        })
                        .map(|l| u8::try_from(l.game.handicap).unwrap_or(0))
                        .next()
                        .unwrap_or(0);
                    return RoundResult {
                        forfeit: c.forfeit,
                        double_loss: c.double_loss,
                        ..RoundResult::game(
                            number.get(&o).copied().unwrap_or(0),
                            outcome(c.outcome),
                            c.colour.map(|c| match c {
                                pairing::Colour::Black => Colour::Black,
                                pairing::Colour::White => Colour::White,
                            }),
                            handicap,
                        )
                    };
                }
                // A game of this round without a (decided) result: a replay pending, or not
                // entered yet.
                let open = lines
                    .filter(|l| l.pairing_result().is_none_or(|r| r == GameResult::NoResult))
                    .find_map(|l| match (l.game.black_id, l.game.white_id) {
                        (Some(b), Some(w)) if i64::from(b) == me => Some((w, Colour::Black, l.game.handicap)),
                        (Some(b), Some(w)) if i64::from(w) == me => Some((b, Colour::White, l.game.handicap)),
                        _ => None,
                    });
                match open {
                    Some((o, colour, h)) => RoundResult::game(
                        u32::try_from(o).ok().and_then(|o| number.get(&o).copied()).unwrap_or(0),
                        Outcome::Unknown,
                        Some(colour),
                        u8::try_from(h).unwrap_or(0),
                    ),
                    None => RoundResult::no_game(Outcome::Loss),
                }
            })
            .collect()
    }
}

fn outcome(o: ds::Outcome) -> Outcome {
    match o {
        ds::Outcome::Win => Outcome::Win,
        ds::Outcome::Draw => Outcome::Jigo,
        ds::Outcome::Loss => Outcome::Loss,
    }
}

/// A tie-break's column heading, short enough for a wall chart (and one ASCII word in
/// English, as the EGF file's score columns need).
pub fn tiebreak_label(tb: TieBreak, lang: Lang) -> &'static str {
    match tb {
        TieBreak::Score => lang.t("doc.score"),
        TieBreak::Sos => lang.t("doc.sos"),
        TieBreak::Cumulative => lang.t("doc.cuss"),
        TieBreak::Direct => lang.t("doc.direct"),
        TieBreak::Wins => lang.t("doc.wins"),
        TieBreak::FewerWarnings => lang.t("doc.warnings"),
        TieBreak::SosMinus1 => lang.t("doc.sos_1"),
        TieBreak::Sosos => lang.t("tb.sosos"),
        TieBreak::Sb => lang.t("doc.sb"),
        TieBreak::McMahon => lang.t("doc.mms"),
        TieBreak::Sosm => lang.t("doc.sosm"),
        TieBreak::Sososm => lang.t("doc.sososm"),
        TieBreak::Lots => lang.t("draw.stream"),
    }
}

/// The standings after `round` (default: the last round with a result), as the public
/// standings page shows them (`/t/{id}/standings?round=N`): place, both names, rank, unit, 积分
/// and the tie-breaks in the tournament's order.
pub fn standings(
    conn: &mut Conn,
    tid: i32,
    round: Option<u32>,
    lang: Lang,
) -> Result<EventStandings, DbError> {
    let k = ranked(conn, tid, round)?;
    // Ratings after the event belong to the final standings: the latest only.
    let ratings: HashMap<i32, (i64, i64)> = match round {
        None => crate::db::rating_changes::for_tournament(conn, tid)?
            .into_iter()
            .map(|c| (c.entrant_id, (gor::whole(c.rating_before.into()), gor::whole(c.rating_after.into()))))
            .collect(),
        Some(_) => HashMap::new(),
    };
    let rows = k
        .rows()
        .map(|(r, e)| {
            let p = sheet_player(e);
            StandingRow {
                gor: ratings.get(&e.id).copied(),
                place: r.place,
                name: p.display_name(lang),
                rank: p.rank(lang).to_string(),
                unit: p.unit.clone(),
                score: ds::halves_text(r.score),
                tiebreaks: k.tiebreaks(r, lang),
                withdrawn: e.withdrawn_as_of(k.st.after_round),
            }
        })
        .collect();
    let notes = withdrawal_notes(
        lang,
        k.st.after_round,
        k.rows().map(|(_, e)| (e, sheet_player(e).display_name(lang))),
    );
    let sheet = SheetTournament { notes, ..event_sheet(&k.t, k.st.after_round, lang) };
    Ok(EventStandings { t: k.t, sheet, rows })
}

/// The standings' footnotes after round `after`: a line for each entrant withdrawn as of that
/// round (退赛, seed 000 Art. 15.2), with the first round they missed and the date, and the
/// reason only where the organizer made it public (公开原因): the standings page and its PDF are
/// the public's too. `entrants` come in standings order, each with the name as shown.
pub fn withdrawal_notes<'a>(
    lang: Lang,
    after: u32,
    entrants: impl Iterator<Item = (&'a EntrantRow, String)>,
) -> Vec<String> {
    entrants
        .filter(|(e, _)| e.withdrawn_as_of(after))
        .map(|(e, name)| {
            // A status imported without its round names no round; an older withdrawal, no date.
            let Some(round) = e.withdrawn_from_round else { return tr!(lang, "wd.note_plain", name) };
            let public = e.withdrawal_reason_public && !e.withdrawal_reason.is_empty();
            match (e.withdrawn_on.as_deref(), public) {
                (Some(date), true) => {
                    tr!(lang, "wd.note_reason", name, round, date, reason = e.withdrawal_reason.as_str())
                }
                (Some(date), false) => tr!(lang, "wd.note", name, round, date),
                (None, _) => tr!(lang, "wd.note_undated", name, round),
            }
        })
        .collect()
}

/// The crosstable after `round` (default: the last round with a result): each player's
/// opponent (by line), result, colour and handicap per round, then 积分 and the tie-breaks.
pub fn crosstable(
    conn: &mut Conn,
    tid: i32,
    round: Option<u32>,
    lang: Lang,
) -> Result<EventCrosstable, DbError> {
    let k = ranked(conn, tid, round)?;
    let number: HashMap<u32, u32> = k.rows().enumerate().map(|(i, (r, _))| (r.id, i as u32 + 1)).collect();
    let rounds = k.st.after_round;
    let rows = k
        .rows()
        .enumerate()
        .map(|(i, (r, e))| {
            let p = sheet_player(e);
            CrosstableRow {
                place: i as u32 + 1,
                name: p.display_name(lang),
                rank: p.rank(lang).to_string(),
                unit: p.unit.clone(),
                results: k.round_results(r.id, rounds, &number),
                score: ds::halves_text(r.score),
                tiebreaks: k.tiebreaks(r, lang),
                withdrawn: e.withdrawn_as_of(rounds),
            }
        })
        .collect();
    let notes =
        withdrawal_notes(lang, rounds, k.rows().map(|(_, e)| (e, sheet_player(e).display_name(lang))));
    let sheet = SheetTournament { notes, ..event_sheet(&k.t, rounds, lang) };
    Ok(EventCrosstable { t: k.t, sheet, rows })
}

/// Every game of the published rounds with its result (the arbiters' words: "B+3¾", "白中盘胜";
/// an imported result in the words of the lists) and each side's game points in the event's
/// scale (rules.md §15.1: the points the standings count, from the same
/// [`ds::game_sides`] / [`ds::bye_side`]), and every bye; with `up_to`, of rounds 1 to `up_to`
/// only.
pub fn results(conn: &mut Conn, tid: i32, up_to: Option<u32>, lang: Lang) -> Result<EventResults, DbError> {
    let t = titled(conn, tid)?;
    let all = resdb::standings_data(conn, tid)?;
    let players: HashMap<i32, SheetPlayer> = all.entrants.iter().map(|e| (e.id, sheet_player(e))).collect();
    let player = |id: i32| {
        players
            .get(&id)
            .cloned()
            .unwrap_or_else(|| SheetPlayer { name_latin: format!("#{id}"), ..SheetPlayer::default() })
    };
    let points = t.settings().points();
    // In a hall of several groups, each game's hall number beside the group's table.
    let hall: Option<HashMap<i32, RoundRow>> = match several_groups(conn, tid)? {
        true => Some(rdb::list(conn, tid)?.into_iter().map(|r| (r.number, r)).collect()),
        false => None,
    };
    let data = all.as_of(up_to);
    let mut lines: Vec<&resdb::GameLine> = data.lines.iter().collect();
    lines.sort_by_key(|l| {
        let g = &l.game;
        (g.round_number, g.black_id.is_none() || g.white_id.is_none(), g.board, g.id)
    });
    let mut rows = Vec::with_capacity(lines.len());
    for l in lines {
        let g = &l.game;
        let round = u32::try_from(g.round_number).unwrap_or(0);
        match (g.black_id, g.white_id) {
            (Some(_), Some(_)) => {
                let sides = l.pairing_result().and_then(|r| ds::game_sides(r, &points));
                let text = match l.result.as_ref().and_then(resdb::ResultBrief::outcome) {
                    Some(o) => lang.game_result(&o),
                    None => result_text(&g.result, lang),
                };
                // The line is in the colours played, as the sheet's result text is (rules.md
                // §4.3); the points follow the players.
                let (pb, pw) = l.played();
                let sides = sides.map(|(b, w)| if g.played_swapped { (w, b) } else { (b, w) });
                let table = u32::try_from(g.board).unwrap_or(0);
                rows.push(ResultRow {
                    round,
                    table,
                    hall_table: hall
                        .as_ref()
                        .map(|h| h.get(&g.round_number).map_or(table, |r| r.hall_number(table))),
                    black: pb.map(player).unwrap_or_default(),
                    white: pw.map(player).unwrap_or_default(),
                    handicap: u8::try_from(g.handicap).unwrap_or(0),
                    black_points: sides.map(|(b, _)| b.points),
                    white_points: sides.map(|(_, w)| w.points),
                    result_text: text,
                    replay_of: g.replay_of,
                    swapped: g.played_swapped,
                });
            }
            (Some(p), None) | (None, Some(p)) => rows.push(ResultRow {
                round,
                table: 0,
                black: player(p),
                black_points: l.is_bye().then(|| ds::bye_side(&points).points),
                result_text: lang.t("r.bye_result").to_string(),
                hall_table: hall.as_ref().map(|_| 0),
                ..ResultRow::default()
            }),
            (None, None) => {}
        }
    }
    Ok(EventResults { t, rows })
}

/// The EGF results file of the published rounds: the players who played (a game or a bye) in
/// standings order, every round's entry, 积分 and the numeric tie-breaks as score columns. The
/// country of a player is their region when it is a two-letter code (as OpenGotha imports
/// write it), else CN; a club or venue that has no ASCII form is left out; the class follows
/// the time control (EGF's adjusted time: basic time plus 45 moves of byo-yomi, 60 Canadian);
/// the handicap line follows the event's handicap rule ([`egf_handicap`]).
pub fn egf(conn: &mut Conn, tid: i32) -> Result<EventEgf, DbError> {
    let k = ranked(conn, tid, None)?;
    let rated: HashMap<i32, i32> = crate::db::rating_changes::for_tournament(conn, tid)?
        .into_iter()
        .map(|c| (c.entrant_id, c.rating_before))
        .collect();
    let file = egf_file(&k, &rated);
    Ok(EventEgf { t: k.t, file })
}

/// `rated`: the ratings before the event (thousandths, by entrant) once an organizer computed
/// the ratings after it; the file then carries each player's rating before in a `GoR` score
/// column (the format's free columns; the EGF computes the ratings after from its own list).
/// A player without a rated game shows the rating the computation would start from.
fn egf_file(k: &Ranked, rated: &HashMap<i32, i32>) -> Result<(EgfTournament, Vec<EgfPlayer>), EgfRefusal> {
    let s = k.t.settings();
    let rounds =
        k.data.lines.iter().map(|l| u32::try_from(l.game.round_number).unwrap_or(0)).max().unwrap_or(0);
    // Who played: numbered over everyone first, then again over those kept.
    let all: HashMap<u32, u32> = k.rows().enumerate().map(|(i, (r, _))| (r.id, i as u32 + 1)).collect();
    let absent = RoundResult::no_game(Outcome::Loss);
    let kept: Vec<(&ds::Row, &EntrantRow)> =
        k.rows().filter(|(r, _)| k.round_results(r.id, rounds, &all).iter().any(|x| *x != absent)).collect();
    let number: HashMap<u32, u32> = kept.iter().enumerate().map(|(i, (r, _))| (r.id, i as u32 + 1)).collect();
    let scored: Vec<(usize, TieBreak)> = k
        .shown()
        .into_iter()
        .filter(|(_, tb)| !matches!(tb, TieBreak::Direct | TieBreak::Lots | TieBreak::FewerWarnings))
        .collect();
    let mut players = Vec::with_capacity(kept.len());
    for (r, e) in kept {
        let latin = !e.family_name_latin.trim().is_empty();
        // Without a Latin name the Chinese one goes in, and the writer says to give pinyin.
        let (surname, first_name) = if latin {
            (e.family_name_latin.clone(), e.given_name_latin.clone())
        } else {
            (e.family_name_zh.clone(), e.given_name_zh.clone())
        };
        let rank =
            e.rank_parsed().ok_or_else(|| EgfRefusal::Rank { entrant: display(e), rank: e.rank.clone() })?;
        let region = e.region.trim();
        let country = if region.len() == 2 && region.chars().all(|c| c.is_ascii_alphabetic()) {
            region.to_ascii_uppercase()
        } else {
            "CN".to_string()
        };
        let club = if ascii_fold(&e.unit).is_ok() { e.unit.clone() } else { String::new() };
        let mut scores = vec![("Pts".to_string(), ds::halves_text(r.score))];
        scores.extend(scored.iter().map(|(i, tb)| {
            let v = r.values.get(*i).copied().flatten().unwrap_or(0);
            (tiebreak_label(*tb, Lang::En).to_string(), ds::value_text(*tb, v))
        }));
        if !rated.is_empty() {
            let before = rated
                .get(&e.id)
                .map(|&m| gor::whole(m.into()))
                .unwrap_or_else(|| i64::from(gor::rating_before(e.rating, rank)));
            scores.push(("GoR".to_string(), before.to_string()));
        }
        players.push(EgfPlayer {
            surname,
            first_name,
            rank,
            country,
            club,
            results: k.round_results(r.id, rounds, &number),
            scores,
            // The EGD PIN the entrant form, an OpenGotha file or a rating list gave.
            egd_pin: Some(e.egd_pin.trim().to_string()).filter(|p| !p.is_empty()),
        });
    }
    let tc = &s.time_control;
    let adjusted = egf_adjusted_minutes(tc);
    let class = egf_class(tc)?;
    let comment: String =
        Lang::En.time_control(tc).replace('×', "x").chars().filter(|c| c.is_ascii()).collect();
    let name = if s.name_latin.trim().is_empty() { s.name_zh.clone() } else { s.name_latin.clone() };
    let city = if ascii_fold(&s.venue).is_ok() { s.venue.clone() } else { String::new() };
    let t = EgfTournament {
        class,
        name,
        country: "CN".into(),
        city,
        start: s.start_date,
        end: s.end_date,
        handicap: egf_handicap(&s.pairing.handicap),
        komi_q: s.ruleset.komi_q,
        adjusted_time_min: adjusted,
        comment,
    };
    Ok((t, players))
}

/// One player of an event's rated games: the entrant, their rank and stored rating.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatedPlayer {
    pub entrant_id: i32,
    /// `gor::rating_before`: the stored rating, else the rank's (none: neither is readable).
    pub rating_before: Option<i32>,
}

/// The games of an event as the EGF's rating list reads them: the players who played, the
/// games played on the board (by index in `players`, read through `RoundResult::as_rated`
/// as the `.h9` file reads them), whether every round is played with every result in, and
/// the EGF class of its time control.
#[derive(Debug, Clone)]
pub struct RatedEvent {
    pub players: Vec<RatedPlayer>,
    pub games: Vec<gor::RatedGame>,
    pub finished: bool,
    pub class: Result<EgfClass, EgfRefusal>,
}

/// The rated games of `tid` (see [`RatedEvent`]).
pub fn rated_event(conn: &mut Conn, tid: i32) -> Result<RatedEvent, DbError> {
    let k = ranked(conn, tid, None)?;
    let s = k.t.settings();
    let (published, _) = tdb::published_rounds(conn, tid)?;
    let rounds =
        k.data.lines.iter().map(|l| u32::try_from(l.game.round_number).unwrap_or(0)).max().unwrap_or(0);
    let number: HashMap<u32, u32> = k.rows().enumerate().map(|(i, (r, _))| (r.id, i as u32 + 1)).collect();
    let mut players = Vec::new();
    let mut games = Vec::new();
    let mut finished = published >= s.rounds && rounds >= s.rounds;
    for (i, (r, e)) in k.rows().enumerate() {
        let rating_before = e.rank_parsed().map(|rank| gor::rating_before(e.rating, rank)).or(e.rating);
        players.push(RatedPlayer { entrant_id: e.id, rating_before });
        for res in k.round_results(r.id, rounds, &number).iter().map(RoundResult::as_rated) {
            if res.outcome == Outcome::Unknown {
                finished = false;
            }
            let me = i + 1;
            // Each game once: from the side listed first.
            let Some(o) = res.opponent.map(|o| o as usize).filter(|&o| o > me) else { continue };
            let score = match res.outcome {
                Outcome::Win => gor::Score::Win,
                Outcome::Jigo => gor::Score::Jigo,
                Outcome::Loss => gor::Score::Loss,
                Outcome::Unknown => continue,
            };
            let (black, white, black_score) = match res.colour {
                Some(Colour::White) => (o - 1, me - 1, score.reversed()),
                _ => (me - 1, o - 1, score),
            };
            games.push(gor::RatedGame { black, white, handicap: res.handicap, black_score });
        }
    }
    Ok(RatedEvent { players, games, finished, class: egf_class(&s.time_control) })
}

/// The event's handicap rule as the EGF file states it: even, rank difference − N (`HA[hN]`),
/// or McMahon-score difference − N (said in the comment; every game carries its handicap).
pub fn egf_handicap(h: &HandicapSettings) -> EgfHandicap {
    let (reduction, max) = (h.reduction, h.max);
    match h.basis {
        HandicapBasis::None => EgfHandicap::Even,
        HandicapBasis::Rank => EgfHandicap::RankDifference { reduction, max },
        HandicapBasis::McMahonScore => EgfHandicap::McMahonScore { reduction, max },
    }
}

/// The EGF class of a time control (the format's classes: A — basic time at least 60 minutes
/// and adjusted time 75; B — 40 and 50; C — 25 and 30), or why the rating list takes none.
/// EGF's basic time is the time before byo-yomi: without the reserved minutes Chinese
/// byo-yomi reads as periods (they are in the adjusted time).
pub fn egf_class(tc: &TimeControl) -> Result<EgfClass, EgfRefusal> {
    let basic = tc.basic_secs().saturating_sub(tc.reserve_secs()) / 60;
    let adjusted = egf_adjusted_minutes(tc);
    if adjusted >= 75 && basic >= 60 {
        Ok(EgfClass::A)
    } else if adjusted >= 50 && basic >= 40 {
        Ok(EgfClass::B)
    } else if adjusted >= 30 && basic >= 25 {
        Ok(EgfClass::C)
    } else {
        Err(EgfRefusal::BelowClassC { basic_minutes: basic, adjusted_minutes: adjusted })
    }
}

/// EGF's adjusted time in minutes: basic time plus the time of 45 moves in byo-yomi (60 in
/// Canadian). Chinese byo-yomi reads its reserved minutes as 60-second periods.
pub fn egf_adjusted_minutes(tc: &TimeControl) -> u32 {
    let secs = match *tc {
        TimeControl::ChineseByoYomi { basic_secs, reserved_minutes } => {
            basic_secs.saturating_sub(reserved_minutes * 60) + 45 * 60
        }
        TimeControl::ByoYomi { basic_secs, period_secs, .. } => basic_secs + 45 * period_secs,
        TimeControl::Canadian { basic_secs, moves_per_period, period_secs } => {
            basic_secs + 60 * period_secs / moves_per_period.max(1)
        }
        TimeControl::Absolute { basic_secs } => basic_secs,
    };
    secs / 60
}

fn display(e: &EntrantRow) -> String {
    let (zh, la) = (e.name_zh(), e.name_latin());
    match (zh.is_empty(), la.is_empty()) {
        (false, false) => format!("{zh} ({la})"),
        (false, true) => zh,
        _ => la,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tournament practice (one hall): a group of a several-group event is named with its
    /// group on every document ("天元杯 · 少儿组"; its Latin title takes the Chinese group name
    /// when it has no Latin one); a group without a name, and a tournament alone in its
    /// event, keep the event's name.
    #[test]
    fn documents_name_the_group() {
        let (_dir, pool, alone) = super::super::pair_round::tests::events(1);
        let mut conn = pool.get().unwrap();
        let tids = super::super::pair_round::tests::hall(&mut conn);
        assert_eq!(group_title(&mut conn, alone[0]).unwrap(), ("编排赛0".to_string(), String::new()));
        assert_eq!(group_title(&mut conn, tids[0]).unwrap().0, "天元杯", "an unnamed group");
        assert_eq!(group_title(&mut conn, tids[2]).unwrap().0, "天元杯 · 少儿组");
        assert_eq!(titled(&mut conn, tids[1]).unwrap().name_zh, "天元杯 · 业余低段组");
        assert!(several_groups(&mut conn, tids[1]).unwrap());
        assert!(!several_groups(&mut conn, alone[0]).unwrap());
    }

    /// Tournament practice (one hall, one numbering): the hall's pairing list holds every
    /// group's tables by hall number, each naming its group; the hall's cards are in the same
    /// order, each headed by its group; a group's own list gives the hall number with its own
    /// table beside it.
    #[test]
    fn the_halls_lists_are_in_hall_order() {
        let (_dir, pool, _) = super::super::pair_round::tests::events(0);
        let mut conn = pool.get().unwrap();
        let tids = super::super::pair_round::tests::hall(&mut conn);
        let actor = crate::db::Actor::system("test");
        for &tid in tids.iter().rev() {
            let ask = super::super::pair_round::PairRound {
                round: 1,
                seed: 3,
                expected_version: None,
                confirm: false,
                reason: "",
            };
            super::super::pair_round::pair_round(&mut conn, &actor, tid, &ask).unwrap();
        }
        let event = crate::db::events::event_of(&mut conn, tids[0]).unwrap();
        let p = hall_pairings(&mut conn, event, 1, Audience::Staff, Lang::Zh).unwrap();
        let tables: Vec<u32> = p.rows.iter().map(|r| r.table).collect();
        let mut sorted = tables.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(tables, sorted, "by hall number, none twice");
        assert_eq!(tables.len(), 10 + 6 + 4);
        assert_eq!(p.rows.last().unwrap().group, "少儿组");
        assert_eq!(p.byes.len(), 1, "the middle group's bye");
        assert_eq!(p.byes[0].group, "业余低段组", "a bye on the hall's list names its group");
        assert!(matches!(
            hall_pairings(&mut conn, event, 1, Audience::Public, Lang::Zh),
            Err(DbError::NotFound)
        ));
        let c = hall_cards(&mut conn, event, 1, Audience::Staff, Lang::Zh).unwrap();
        assert_eq!(c.cards.iter().map(|c| c.sheet.table).collect::<Vec<_>>(), tables);
        assert_eq!(c.groups.last(), Some(&tids[2]));
        assert_eq!(c.cards.last().unwrap().head.as_ref().unwrap().name_zh, "天元杯 · 少儿组");
        let own = round_pairings(&mut conn, tids[2], 1, Audience::Staff, Lang::Zh).unwrap();
        let first = rdb::get(&mut conn, tids[2], 1).unwrap().hall_first;
        assert_eq!(own.rows[0].table, u32::try_from(first).unwrap());
        assert_eq!(own.rows[0].group_table, Some(1));
    }

    fn withdrawn(from: Option<i32>, on: Option<&str>, reason: &str, public: bool) -> EntrantRow {
        EntrantRow {
            id: 1,
            tournament_id: 1,
            family_name_zh: "赵".into(),
            given_name_zh: "四".into(),
            family_name_latin: "Zhao".into(),
            given_name_latin: "Si".into(),
            rank: "2d".into(),
            rank_value: 0,
            rating: None,
            unit: String::new(),
            region: String::new(),
            birth_date: None,
            sex: None,
            notes: String::new(),
            status: crate::db::rows::STATUS_WITHDRAWN.into(),
            version: 2,
            created_at: String::new(),
            updated_at: String::new(),
            withdrawn_from_round: from,
            withdrawn_on: on.map(str::to_string),
            withdrawal_reason: reason.into(),
            withdrawal_reason_public: public,
            person_id: None,
            egd_pin: String::new(),
            federation_id: String::new(),
        }
    }

    /// Seed 000 Art. 15.2 (退赛): the standings' footnote names a withdrawal from its first
    /// round missed on, never before it; the reason only when made public.
    #[test]
    fn withdrawal_footnotes_follow_the_round_and_the_public_reason() {
        let note = |e: &EntrantRow, after: u32, lang: Lang| {
            withdrawal_notes(lang, after, std::iter::once((e, "赵四".to_string())))
        };
        let staff_only = withdrawn(Some(3), Some("2026-12-05"), "身体不适", false);
        assert!(note(&staff_only, 2, Lang::Zh).is_empty());
        assert_eq!(note(&staff_only, 3, Lang::Zh), ["退赛：赵四，第3轮起，2026-12-05"]);
        let public = withdrawn(Some(3), Some("2026-12-05"), "身体不适", true);
        assert_eq!(note(&public, 5, Lang::Zh), ["退赛：赵四，第3轮起，2026-12-05，原因：身体不适"]);
        assert_eq!(
            note(&public, 3, Lang::En),
            ["Withdrawn: 赵四, from round 3, 2026-12-05, reason: 身体不适"]
        );
        assert_eq!(note(&withdrawn(Some(2), None, "", false), 2, Lang::Zh), ["退赛：赵四，第2轮起"]);
        assert_eq!(note(&withdrawn(None, None, "", false), 1, Lang::Zh), ["退赛：赵四"]);
    }

    #[test]
    fn komi_time_and_results_read_as_printed() {
        assert_eq!(komi_text(15, Lang::Zh), "黑贴3¾子（7.5目）");
        assert_eq!(komi_text(15, Lang::En), "Black gives 3¾ stones (7.5 points)");
        assert_eq!(komi_text(0, Lang::Zh), "不贴子");
        assert_eq!(komi_text(-15, Lang::En), "White gives 3¾ stones (7.5 points)");
        assert_eq!(game_komi_text(0, 4, Lang::Zh), "不贴子，黑还1子");
        assert_eq!(game_komi_text(0, 0, Lang::En), "no komi");
        let tc = TimeControl::chinese(120, 5);
        assert_eq!(time_control_text(&tc, Lang::Zh), "基本用时120分钟，保留5分钟读秒");
        assert!(time_control_text(&tc, Lang::Zh).contains("120分钟"));
        assert_eq!(result_text("RESULT_BLACKWINS", Lang::Zh), "黑胜");
        assert_eq!(result_text("RESULT_WHITEWINS_BYDEF", Lang::En), "W+ (forfeit)");
        assert_eq!(result_text("", Lang::En), "");
        assert_eq!(result_text(rdb::BYE_RESULT, Lang::Zh), "");
    }

    #[test]
    fn egf_adjusted_time_counts_45_byo_yomi_moves_or_60_canadian() {
        // 60 min, the last 5 read: 55 min + 45 moves of a minute.
        assert_eq!(egf_adjusted_minutes(&TimeControl::chinese(60, 5)), 100);
        let byo = TimeControl::ByoYomi { basic_secs: 3600, periods: 3, period_secs: 30 };
        assert_eq!(egf_adjusted_minutes(&byo), 82);
        let canadian = TimeControl::Canadian { basic_secs: 3600, moves_per_period: 25, period_secs: 600 };
        assert_eq!(egf_adjusted_minutes(&canadian), 84);
        assert_eq!(egf_adjusted_minutes(&TimeControl::Absolute { basic_secs: 1800 }), 30);
        // The class reads the basic time before byo-yomi: 60 minutes with the last 5 read is
        // 55 minutes of basic time, class B; 65 with 5 read is class A.
        assert_eq!(egf_class(&TimeControl::chinese(60, 5)), Ok(EgfClass::B));
        assert_eq!(egf_class(&TimeControl::chinese(65, 5)), Ok(EgfClass::A));
        assert_eq!(egf_class(&byo), Ok(EgfClass::A));
        assert_eq!(egf_class(&TimeControl::Absolute { basic_secs: 1800 }), Ok(EgfClass::C));
        let refused = egf_class(&TimeControl::Absolute { basic_secs: 1200 }).unwrap_err();
        assert_eq!(refused, EgfRefusal::BelowClassC { basic_minutes: 20, adjusted_minutes: 20 });
        assert!(Lang::En.egf_refusal(&refused).contains("below EGF class C"));
        assert!(Lang::Zh.egf_refusal(&refused).contains("低于EGF C级"));
        // The handicap line follows the event's rule.
        let h = |basis, reduction| HandicapSettings { basis, reduction, max: 9, none_at_bar: false };
        assert_eq!(egf_handicap(&h(HandicapBasis::None, 1)), EgfHandicap::Even);
        assert_eq!(
            egf_handicap(&h(HandicapBasis::Rank, 1)),
            EgfHandicap::RankDifference { reduction: 1, max: 9 }
        );
        assert_eq!(
            egf_handicap(&h(HandicapBasis::McMahonScore, 2)),
            EgfHandicap::McMahonScore { reduction: 2, max: 9 }
        );
        // Every English heading is one ASCII word (the EGF file's score columns).
        for tb in TieBreak::ALL {
            let l = tiebreak_label(*tb, Lang::En);
            assert!(l.is_ascii() && !l.contains(' '), "{l}");
        }
    }
}

/// The printed sheets of one relay match: the line-up forms of both teams and the match record
/// sheet, with the header they share (made here, so the command line prints what the match
/// page's download gives).
#[derive(Debug, Clone)]
pub struct MatchSheets {
    pub t: TournamentRow,
    pub header: crate::print::TeamSheetHeader,
    pub forms: Vec<crate::domain::team::sheets::LineupForm>,
    pub sheet: crate::domain::team::sheets::MatchRecordSheet,
}

/// Why a match's sheets cannot be printed.
#[derive(Debug)]
pub enum MatchSheetsError {
    Db(DbError),
    /// The tournament is not a team event.
    NotTeamEvent,
    /// The match cannot start yet (no start time, rosters that cannot play): the reason.
    NotReady(crate::domain::team::matches::MatchRefusal),
}

impl From<DbError> for MatchSheetsError {
    fn from(e: DbError) -> Self {
        MatchSheetsError::Db(e)
    }
}

/// Reads match `mid` of team event `tid` and lays its sheets' texts out in `lang`.
pub fn match_sheets(
    conn: &mut Conn,
    tid: i32,
    mid: i32,
    lang: Lang,
) -> Result<MatchSheets, MatchSheetsError> {
    use crate::domain::team::sheets::{lineup_forms, record_sheet};
    let t = tdb::get(conn, tid)?;
    if t.system != System::TeamRelay.code() {
        return Err(MatchSheetsError::NotTeamEvent);
    }
    let st = crate::db::team_matches::relay_state(conn, tid, mid)?;
    let m = match (st.m, st.setup) {
        (Some(m), _) => m,
        (None, Err(e)) => return Err(MatchSheetsError::NotReady(e)),
        (None, Ok(_)) => return Err(DbError::NotFound.into()),
    };
    let rules = &m.config().rules;
    let s = t.settings();
    let komi = rules::outcome::quarters_decimal(rules.komi_q);
    let tournament = SheetTournament {
        name_zh: t.name_zh.clone(),
        name_latin: t.name_latin.clone(),
        venue: t.venue.clone(),
        round: u32::try_from(st.row.round_number).unwrap_or(0),
        // The match day, in the event's zone, once the match's start is set.
        date: st.row.start_at.map(|ts| s.time_zone.date_of(ts)).unwrap_or_default(),
        komi_text: tr!(lang, "relay.komi_text", komi),
        time_control_text: lang.time_control(&s.time_control),
        rules_text: lang.rule_set(rules.preset).to_string(),
        name_order: s.name_order,
        notes: Vec::new(),
    };
    let header = crate::print::TeamSheetHeader {
        tournament,
        table: u32::try_from(st.row.table_no).unwrap_or(0),
        zone: s.time_zone,
        ending: lang.ending_note(&m),
    };
    // The rulings as the page names them: red cards with their cause, offences with articles.
    Ok(MatchSheets { header, forms: lineup_forms(&m), sheet: record_sheet(&m), t })
}
