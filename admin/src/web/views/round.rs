//! The staff round page's view (`templates/round.html`): what the handler loaded turned into
//! the page — the games of one page, the review's warnings, the lots, the nominal wins and the
//! player dropdowns (at most [`MAX_CHOICES`] players, found by name, pinyin or number).
//! Pure: no database, no request.

use super::text::{half_points, quarters_text, result_text, system_name, warning_text, Names};
use crate::db::entrants::EntrantRow;
use crate::db::rounds::{self as rdb, Context, RoundGame, RoundRow};
use crate::domain::draw::lots::{DrawRecord, Method, Purpose, Stream};
use crate::domain::draw::nigiri::{Guess, RoleReason};
use crate::domain::names;
use crate::domain::pairing::PlayerId;
use crate::domain::rounds::{self as dr, ColourSource, TableGame};
use crate::i18n::tr;
use crate::web::i18n::Lang;
use crate::web::views::pages::*;
use actix_web::http::StatusCode;
use std::collections::{HashMap, HashSet};

/// What to show besides the round itself.
#[derive(Default)]
pub struct Opts {
    pub f: FormView,
    /// What the arbiter typed to narrow the player dropdowns (`?find=kj`).
    pub find: String,
    pub banner: Option<String>,
    pub notice: Option<String>,
    pub confirm: Option<ConfirmView>,
    pub status: Option<StatusCode>,
    /// The page of the games table asked for (`?page=`, from 1).
    pub page: usize,
    /// The page of the lots table asked for (`?lots=`, from 1).
    pub lots_page: usize,
}

/// Games a page of the staff round page lists (a round of 5,000 tables is 25 pages, not one
/// page too large to load).
pub const GAMES_PER_PAGE: usize = 200;

/// The games table's page: the one asked for, or, when a game's form was refused, the page
/// of that game (its typed entry and message must be in view).
fn games_pager(games: &[GameView], f: &FormView, asked: usize, base: &str) -> Pager {
    let refused = games.iter().position(|g| {
        f.err(&format!("grab-{}", g.id)).is_some() || f.err(&format!("guess-{}", g.id)).is_some()
    });
    let page = refused.map_or(asked, |i| i / GAMES_PER_PAGE + 1);
    Pager::new(games.len(), page, GAMES_PER_PAGE, base)
}

fn player_view(names: &Names, scores: &HashMap<PlayerId, dr::Scores>, id: PlayerId) -> PlayerView {
    PlayerView {
        id,
        name: names.name(id),
        rank: names.rank(id),
        score: scores.get(&id).map(|s| half_points(s.real_score())).unwrap_or_default(),
        pairing: scores.get(&id).filter(|s| s.nominal()).map(|s| half_points(s.score)),
    }
}

/// What a lot decided, in the reader's language (the record stores a typed purpose).
fn purpose_text(lang: Lang, p: &Purpose) -> String {
    match p {
        Purpose::Round1Order => lang.t("drawp.round1_order").into(),
        Purpose::Round1Upper => lang.t("drawp.round1_upper").into(),
        Purpose::Round1Lower => lang.t("drawp.round1_lower").into(),
        Purpose::ScoreGroup { score } => tr!(lang, "drawp.score_group", points = half_points(*score)),
        Purpose::Bye => lang.t("drawp.bye").into(),
        Purpose::Colours => lang.t("drawp.colours").into(),
        Purpose::NigiriHolder => lang.t("drawp.nigiri_holder").into(),
        Purpose::RemoteNigiri => lang.t("drawp.remote_nigiri").into(),
        Purpose::BergerNumbers => lang.t("drawp.berger").into(),
        Purpose::KnockoutSeeding => lang.t("drawp.knockout_seeding").into(),
        Purpose::KnockoutMatch { number } => tr!(lang, "drawp.knockout_match", match = number),
        Purpose::DoubleLoss { round } => tr!(lang, "drawp.double_loss", round),
        Purpose::Text { text } => text.clone(),
    }
}

fn method_text(lang: Lang, m: Option<Method>) -> &'static str {
    match m {
        Some(Method::Shuffle) => lang.t("method.shuffle"),
        Some(Method::Pick) => lang.t("method.pick"),
        Some(Method::Nigiri) => lang.t("method.nigiri"),
        None => "",
    }
}

/// The part of one lot a row shows: the lot's place in the round's list, and the slice of its
/// candidates (`from..to`, lot-local); the whole lot on the public page.
#[derive(Clone, Copy)]
struct Slice {
    lot: usize,
    from: usize,
    to: usize,
}

impl Slice {
    fn whole(lot: usize, d: &DrawRecord) -> Slice {
        Slice { lot, from: 0, to: d.candidates.len() }
    }
}

/// A lot's outcome as a row of `s` shows it: a shuffle's order is cut at the same places as
/// its candidates; any other outcome (a pick, a nigiri) is shown whole on the lot's first row.
fn outcome_slice(d: &DrawRecord, s: Slice) -> &[u32] {
    if d.purpose.method() == Some(Method::Shuffle) && d.outcome.len() == d.candidates.len() {
        &d.outcome[s.from..s.to]
    } else if s.from == 0 {
        &d.outcome
    } else {
        &[]
    }
}

/// One row of a lots table: the part `s` of lot `d`; `replayed` is the whole lot's replay.
fn draw_view(lang: Lang, names: &Names, d: &DrawRecord, replayed: Option<bool>, s: Slice) -> DrawView {
    let numbered = |ns: &[u32]| ns.iter().map(|n| names.numbered(*n)).collect::<Vec<_>>().join(", ");
    let raw = |ns: &[u32]| ns.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
    let method = d.purpose.method();
    let shown = outcome_slice(d, s);
    let outcome = match (method, shown) {
        (Some(Method::Nigiri), &[black, grab, shown]) => {
            let guess = if shown == 1 { Guess::Odd } else { Guess::Even };
            tr!(
                lang,
                "draw.nigiri_outcome",
                black = names.numbered(black),
                grab,
                guess = guess_name(lang, guess)
            )
        }
        _ => numbered(shown),
    };
    let total = d.candidates.len();
    let part = (s.to - s.from < total).then(|| tr!(lang, "draw.part", from = s.from + 1, to = s.to, total));
    let candidates = &d.candidates[s.from..s.to];
    DrawView {
        lot: s.lot,
        from: s.from,
        part,
        stream: stream_name(lang, d.stream).to_string(),
        stream_no: d.stream.number(),
        purpose: purpose_text(lang, &d.purpose),
        purpose_code: d.purpose.code(),
        method: method_text(lang, method).to_string(),
        method_code: method.map(Method::code).unwrap_or(""),
        seed: d.seed.to_string(),
        candidates: numbered(candidates),
        candidates_raw: raw(candidates),
        outcome,
        outcome_raw: raw(shown),
        replayed,
    }
}

/// Every lot whole (the public pairings page: an outsider replays each from its line).
pub(in crate::web) fn draw_views(lang: Lang, names: &Names, draws: &[DrawRecord]) -> Vec<DrawView> {
    let replayed = dr::replay_all(draws);
    draws
        .iter()
        .zip(replayed)
        .enumerate()
        .map(|(i, (d, r))| draw_view(lang, names, d, r, Slice::whole(i, d)))
        .collect()
}

/// Candidates a page of the staff round page's lots table names (a draft of
/// 10,000 players named every player in its score-group lots, 0.5 MB of the page). A lot counts
/// one entry per candidate (a lot without candidates, one); a lot is cut where a page ends, and
/// each of its rows says which of its candidates it shows.
pub const LOTS_PER_PAGE: usize = 200;

/// The rows of page `page` of the lots table, and its pager (`?lots=`).
fn lots_page(
    lang: Lang,
    names: &Names,
    draws: &[DrawRecord],
    page: usize,
    base: &str,
) -> (Vec<DrawView>, Pager) {
    let entries = |d: &DrawRecord| d.candidates.len().max(1);
    let total = draws.iter().map(entries).sum();
    let pager = Pager::keyed(total, page, LOTS_PER_PAGE, base, "lots");
    let range = pager.range();
    let replayed = dr::replay_all(draws);
    let mut rows = Vec::new();
    let mut at = 0;
    for (i, (d, r)) in draws.iter().zip(replayed).enumerate() {
        let (start, end) = (at.max(range.start), (at + entries(d)).min(range.end));
        if start < end {
            let to = (end - at).min(d.candidates.len());
            rows.push(draw_view(lang, names, d, r, Slice { lot: i, from: start - at, to }));
        }
        at += entries(d);
    }
    (rows, pager)
}

/// At most this many players in each player dropdown of the round page (at
/// 10,000 players the four dropdowns were 40,000 options); the search narrows them.
pub const MAX_CHOICES: usize = 50;

/// What the round page's search (`?find=`) asks the player dropdowns for.
pub enum Find {
    All,
    /// A pairing number, as the lots and the pairing lists name players.
    Number(u32),
    /// A name: characters, full pinyin or initials (`kj`, `kejie` → 柯洁).
    Name(names::Query),
}

impl Find {
    pub fn new(text: &str) -> Find {
        let text = text.trim();
        if let Ok(n) = text.parse::<u32>() {
            return Find::Number(n);
        }
        let q = names::Query::new(text);
        if q.is_empty() {
            Find::All
        } else {
            Find::Name(q)
        }
    }
}

/// (id, "number name (rank)") in the tournament's name order, for selects; with `find`, only the
/// players it finds (characters, pinyin or initials: `domain::names::Query`; a number is a
/// pairing number). At most [`MAX_CHOICES`] of them, then the players `keep` names (the
/// values a refused form had chosen) if they are among `ids`; with how many were found.
pub(in crate::web) fn player_options(
    names: &Names,
    entrants: &[EntrantRow],
    order: names::NameOrder,
    find: &Find,
    ids: impl Iterator<Item = PlayerId>,
    keep: &[&str],
) -> (Options, usize) {
    let by_id: HashMap<PlayerId, &EntrantRow> = entrants.iter().map(|e| (rdb::pid(e.id), e)).collect();
    let ids: Vec<PlayerId> = ids.collect();
    let mut v: Vec<(PlayerId, Option<&EntrantRow>)> = ids
        .iter()
        .map(|id| (*id, by_id.get(id).copied()))
        .filter(|(id, e)| match find {
            Find::All => true,
            Find::Number(n) => names.number(*id) == *n,
            Find::Name(q) => e.is_some_and(|e| q.matches(&e.name())),
        })
        .collect();
    let found = v.len();
    v.sort_by_key(|(id, _)| *id);
    names::sort_by_name(&mut v, order, |(_, e)| e.map(|e| e.name()).unwrap_or_default());
    v.truncate(MAX_CHOICES);
    for k in keep {
        if let Some(id) = k.parse::<PlayerId>().ok().filter(|id| ids.contains(id)) {
            if !v.iter().any(|(x, _)| *x == id) {
                v.push((id, by_id.get(&id).copied()));
            }
        }
    }
    let shown = v
        .into_iter()
        .map(|(id, _)| {
            (id.to_string(), format!("{} {} ({})", names.number(id), names.name(id), names.rank(id)))
        })
        .collect();
    (shown, found)
}

fn colour_source_name(lang: Lang, c: ColourSource) -> &'static str {
    match c {
        ColourSource::Balanced => lang.t("colsrc.balanced"),
        ColourSource::Lot => lang.t("colsrc.lot"),
        ColourSource::Handicap => lang.t("colsrc.handicap"),
        ColourSource::Table => lang.t("colsrc.table"),
        ColourSource::Nigiri => lang.t("colsrc.nigiri"),
        ColourSource::Manual => lang.t("colsrc.manual"),
        ColourSource::Imported => lang.t("colsrc.imported"),
    }
}

fn reason_name(lang: Lang, r: RoleReason) -> &'static str {
    match r {
        RoleReason::HigherRank => lang.t("nigiri.reason_rank"),
        RoleReason::Older => lang.t("nigiri.reason_older"),
        RoleReason::LargerPairingNumber => lang.t("nigiri.reason_number"),
        RoleReason::Lot => lang.t("nigiri.reason_lot"),
    }
}

fn guess_name(lang: Lang, g: Guess) -> &'static str {
    match g {
        Guess::Odd => lang.t("nigiri.guess_odd"),
        Guess::Even => lang.t("nigiri.guess_even"),
    }
}

fn stream_name(lang: Lang, s: Stream) -> &'static str {
    match s {
        Stream::Round1 => lang.t("stream.round1"),
        Stream::Bye => lang.t("stream.bye"),
        Stream::Colour => lang.t("stream.colour"),
        Stream::DoubleLoss => lang.t("stream.double_loss"),
        Stream::Nigiri => lang.t("stream.nigiri"),
        Stream::GroupOrder => lang.t("stream.group_order"),
        Stream::Knockout => lang.t("stream.knockout"),
        Stream::Synthetic => lang.t("stream.synthetic"),
        Stream::Standings => lang.t("stream.standings"),
    }
}

/// What the round page is made from, as the handler loaded it.
pub struct Loaded {
    pub r: RoundRow,
    pub cx: Context,
    /// The round's games, and the previous round's (its double-loss lots).
    pub rows: Vec<RoundGame>,
    pub prev: Vec<RoundGame>,
    /// The hall number of the previous round's table 1 (its double-loss lots' tables).
    pub prev_first: i32,
    pub has_results: bool,
}

/// The players of a round's tables and byes, and the players a dropdown offers: the active
/// ones and anyone in the round (a withdrawn player still at a table).
fn players_of(cx: &Context, tg: &[TableGame], byes: &[PlayerId]) -> (Vec<PlayerId>, Vec<PlayerId>) {
    let in_round: Vec<PlayerId> =
        tg.iter().flat_map(|g| [g.black, g.white]).chain(byes.iter().copied()).collect();
    let in_set: HashSet<PlayerId> = in_round.iter().copied().collect();
    let active = cx
        .players
        .iter()
        .filter(|pl| pl.status == crate::domain::pairing::Status::Active || in_set.contains(&pl.id))
        .map(|pl| pl.id)
        .collect();
    (in_round, active)
}

/// The players' pairing scores and the review of the round's games (rematches, colours,
/// score gaps); a failure of either is said in the banner or as the one warning.
fn review(
    lang: Lang,
    cx: &Context,
    names: &Names,
    (seed, tg, byes): (u64, &[TableGame], &[PlayerId]),
    banner: &mut Option<String>,
) -> (HashMap<PlayerId, dr::Scores>, Vec<String>) {
    let scores = cx.scores(seed).unwrap_or_else(|e| {
        banner.get_or_insert_with(|| tr!(lang, "round.err_pairing", error = e.to_string()));
        HashMap::new()
    });
    let warnings = match cx.review(seed, tg, byes) {
        Ok(w) => w.iter().map(|w| warning_text(lang, w, names)).collect(),
        Err(e) => vec![tr!(lang, "round.err_pairing", error = e.to_string())],
    };
    (scores, warnings)
}

/// The staff round page (`templates/round.html`) and its status: the games of the asked page,
/// the review, the lots, the player dropdowns narrowed by `opts.find`.
pub fn build(
    lang: Lang,
    (c, title): (Chrome, String),
    (tid, n): (i32, i32),
    is_organizer: bool,
    l: Loaded,
    opts: Opts,
) -> (RoundPage, StatusCode) {
    let Loaded { r, cx, rows, prev, prev_first, has_results } = l;
    let names = Names::new(lang, &cx.entrants);
    let order = cx.t.settings().name_order;
    let find = Find::new(&opts.find);
    let seed = r.seed().unwrap_or(0);
    let komi = cx.komi_q();
    let tg: Vec<TableGame> = rows.iter().filter_map(|g| g.table_game(komi)).collect();
    let byes: Vec<PlayerId> =
        rows.iter().filter(|g| g.is_bye()).filter_map(|g| g.black_id.map(rdb::pid)).collect();
    let mut banner = opts.banner;
    let (scores, warnings) = review(lang, &cx, &names, (seed, &tg, &byes), &mut banner);
    let games = game_views(lang, &names, &scores, (&r, &rows), komi);
    let (in_round, active) = players_of(&cx, &tg, &byes);
    let query = |key: &str, page: usize| {
        let mut q = vec![("find", opts.find.clone())];
        q.extend((page > 1).then(|| (key, page.to_string())));
        format!("/t/{tid}/rounds/{n}?{}", serde_urlencoded::to_string(q).unwrap_or_default())
    };
    let pager = games_pager(&games, &opts.f, opts.page.max(1), &query("lots", opts.lots_page));
    let (draws, lots_pager) =
        lots_page(lang, &names, &r.draws(), opts.lots_page.max(1), &query("page", pager.page));
    let games = games.into_iter().skip(pager.range().start).take(pager.range().len()).collect();
    let (round_players, all_players, choices_note) =
        dropdowns(lang, &names, (&cx, order), &find, (in_round, active), &opts.f);
    let page = RoundPage {
        c,
        title,
        tid,
        n,
        published: r.published,
        version: r.version,
        system: system_name(lang, &r.system),
        seed: r.seed.clone().unwrap_or_default(),
        is_organizer,
        games,
        pager,
        byes: byes.iter().map(|b| player_view(&names, &scores, *b)).collect(),
        warnings,
        draws,
        lots_pager,
        double_losses: double_loss_views(lang, &names, (&prev, prev_first)),
        scores: nominal_scores(&names, &cx, &scores),
        round_players,
        all_players,
        choices_note,
        find: opts.find.clone(),
        last_table: tg.iter().map(|g| g.table).max().unwrap_or(0),
        has_results,
        cards_qr: false,
        hall: None,
        f: opts.f,
        banner,
        notice: opts.notice,
        confirm: opts.confirm,
    };
    (page, opts.status.unwrap_or(StatusCode::OK))
}

/// The page's games (replays, 重赛, at their table, labelled; the review never sees them), each
/// player with their pairing score.
fn game_views(
    lang: Lang,
    names: &Names,
    scores: &HashMap<PlayerId, dr::Scores>,
    (r, rows): (&RoundRow, &[RoundGame]),
    komi: i32,
) -> Vec<GameView> {
    let replayed = rdb::replayed(rows);
    rows.iter()
        .filter(|g| !g.is_bye())
        .filter_map(|g| {
            let t = g.board_game(komi)?;
            let nigiri = t.nigiri.as_ref().map(|ns| NigiriView {
                holder: names.name(ns.holder),
                guesser: names.name(ns.guesser),
                reason: reason_name(lang, ns.reason).to_string(),
                outcome: ns.record.map(|rec| {
                    tr!(
                        lang,
                        "nigiri.outcome",
                        grab = rec.grab,
                        guess = guess_name(lang, rec.guess),
                        correct = if rec.correct { lang.t("nigiri.correct") } else { lang.t("nigiri.wrong") },
                        black = names.name(rec.black),
                    )
                }),
                seed: ns.record.and_then(|rec| rec.seed).map(|s| s.to_string()),
            });
            Some(GameView {
                id: g.id,
                table: t.table,
                hall: r.hall_number(t.table),
                black: player_view(names, scores, t.black),
                white: player_view(names, scores, t.white),
                handicap: t.handicap,
                komi: quarters_text(t.komi_q),
                colours: colour_source_name(lang, t.colours).to_string(),
                nigiri,
                result: result_text(lang, &g.result),
                has_result: rdb::result_entered(&g.result),
                played_swapped: g.played_swapped,
                pv: g.pairing_version,
                replay_of: g.replay_of,
                replayed: replayed.contains(&g.id),
            })
        })
        .collect()
}

/// The double-loss lots drawn for this round, stored on the previous round's games.
fn double_loss_views(lang: Lang, names: &Names, (prev, first): (&[RoundGame], i32)) -> Vec<DoubleLossView> {
    prev.iter()
        .filter_map(|g| {
            let lot = g.nominal_lot()?;
            Some(DoubleLossView {
                table: super::text::hall_table(first, g.board),
                black: names.name(rdb::pid(g.black_id?)),
                white: names.name(rdb::pid(g.white_id?)),
                winner: names.name(rdb::pid(g.nominal_winner_id?)),
                seed: lot.seed.to_string(),
                replayed: dr::replays(&lot) == Some(true),
                result: result_text(lang, &g.result),
            })
        })
        .collect()
}

/// Every player's pairing score is beside their name in the games table and their points are on
/// the standings page; only a nominal win (where the two differ) is listed, by name.
fn nominal_scores(names: &Names, cx: &Context, scores: &HashMap<PlayerId, dr::Scores>) -> Vec<ScoreView> {
    let mut rows: Vec<ScoreView> = cx
        .players
        .iter()
        .filter_map(|pl| {
            let s = scores.get(&pl.id).filter(|s| s.nominal())?;
            Some(ScoreView {
                name: names.name(pl.id),
                points: half_points(s.points),
                pairing: half_points(s.score),
                nominal: true,
            })
        })
        .collect();
    rows.sort_by(|a, b| a.name.cmp(&b.name));
    rows
}

/// The swap dropdowns (the round's players) and the edit dropdowns (every active player), at
/// most [`MAX_CHOICES`] each plus what `f` had chosen, and the note when the search found more.
fn dropdowns(
    lang: Lang,
    names: &Names,
    (cx, order): (&Context, names::NameOrder),
    find: &Find,
    (in_round, active): (Vec<PlayerId>, Vec<PlayerId>),
    f: &FormView,
) -> (Options, Options, Option<String>) {
    let keep = |keys: [&str; 2]| keys.map(|k| f.v(k).to_string());
    let [a, b] = keep(["swap_a", "swap_b"]);
    let (round_players, in_found) =
        player_options(names, &cx.entrants, order, find, in_round.into_iter(), &[a.as_str(), b.as_str()]);
    let [a, b] = keep(["edit_black", "edit_white"]);
    let (all_players, all_found) =
        player_options(names, &cx.entrants, order, find, active.into_iter(), &[a.as_str(), b.as_str()]);
    let choices_note = (all_found.max(in_found) > MAX_CHOICES)
        .then(|| tr!(lang, "round.find_more", shown = MAX_CHOICES, found = all_found.max(in_found)));
    (round_players, all_players, choices_note)
}
