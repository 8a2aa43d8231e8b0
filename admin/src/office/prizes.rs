//! The prizes of a tournament with their winners (录取名次与获奖名单): the organizer's prizes
//! (`store::prizes`), the latest standings as every page shows them
//! (`store::results::latest_standings`: the tournament's tie-breaks, equals in its name order)
//! and `domain::prizes`' decision, put together for the prize pages, the prize list PDF and the
//! certificates. Per tournament; an event of several groups will list its groups' lists.

use std::collections::HashMap;

use crate::db::entrants::EntrantRow;
use crate::db::prizes::{self as pdb, PrizeRow, PrizeSettings};
use crate::db::results as resdb;
use crate::db::tournaments::TournamentRow;
use crate::db::{Conn, DbError};
use crate::domain::entrant::Sex;
use crate::domain::prizes::{self as dp, Contender, Kind};
use crate::domain::standings as ds;
use crate::i18n::Lang;
use crate::office::print_data::sheet_player;

/// A prize's winner, as the pages and documents show one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Winner {
    pub entrant_id: i32,
    /// Both names, the reader's first.
    pub name: String,
    /// The name of the reader's language alone (the certificate's large line).
    pub primary_name: String,
    pub rank: String,
    pub unit: String,
    /// The standings place as the standings page writes it: "2", or "2=" when the
    /// tie-breaks left it shared.
    pub place: String,
    /// 积分 as the standings show it.
    pub score: String,
}

/// One prize of the list, worded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub prize: PrizeRow,
    pub kind: Kind,
    /// Its name (the organizer's, or the usual one of its kind).
    pub name: String,
    pub condition: String,
    pub winner: Option<Winner>,
    /// The players the tie-breaks did not separate from the winner for this prize.
    pub tied_with: Vec<String>,
}

/// The prize list of a tournament.
#[derive(Debug, Clone)]
pub struct PrizeList {
    pub t: TournamentRow,
    pub settings: PrizeSettings,
    /// The prizes' version, for their forms.
    pub version: i32,
    pub lines: Vec<Line>,
    /// The last round the standings count, and the tournament's number of rounds: the list is
    /// final once they are equal.
    pub after_round: u32,
    pub rounds: u32,
}

impl PrizeList {
    /// Every round has a result: the winners are final.
    pub fn is_final(&self) -> bool {
        self.after_round >= self.rounds
    }

    /// The prizes that have a winner.
    pub fn awarded(&self) -> impl Iterator<Item = (&Line, &Winner)> {
        self.lines.iter().filter_map(|l| Some((l, l.winner.as_ref()?)))
    }
}

/// The contender of a standings row: its entrant's sex, birth date, rank, unit and region.
fn contender(r: &ds::Row, e: &EntrantRow) -> Contender {
    let input = e.input();
    Contender {
        id: r.id,
        place: r.place,
        sex: input.as_ref().and_then(|i| i.sex).or_else(|| e.sex.as_deref().and_then(|s| Sex::parse(s).ok())),
        birth_date: input.as_ref().and_then(|i| i.birth_date),
        rank_value: e.rank_value,
        unit: e.unit.clone(),
        region: e.region.clone(),
        withdrawn: e.withdrawn(),
    }
}

/// The prizes of `tid` with their winners after the last round with a result, worded in
/// `lang`.
pub fn prize_list(conn: &mut Conn, tid: i32, lang: Lang) -> Result<PrizeList, DbError> {
    // Named as its documents name it: the prize list and certificates of a group of a
    // several-group event name the group.
    let t = super::print_data::titled(conn, tid)?;
    let (settings, version) = pdb::settings(conn, tid)?;
    let prizes = pdb::list(conn, tid)?;
    let data = resdb::standings_data(conn, tid)?;
    let st = resdb::latest_standings(&t, &data);
    let by_id: HashMap<u32, &EntrantRow> =
        data.entrants.iter().filter_map(|e| Some((u32::try_from(e.id).ok()?, e))).collect();
    let rows: Vec<(&ds::Row, &EntrantRow)> =
        st.rows.iter().filter_map(|r| Some((r, *by_id.get(&r.id)?))).collect();
    let field: Vec<Contender> = rows.iter().map(|(r, e)| contender(r, e)).collect();
    let kinds: Vec<Kind> = prizes.iter().map(PrizeRow::kind).collect();
    let awards = dp::award(&kinds, &field, settings.rules);
    let winner = |id: u32| {
        let (r, e) = rows.iter().find(|(r, _)| r.id == id)?;
        let p = sheet_player(e);
        Some(Winner {
            entrant_id: e.id,
            name: p.display_name(lang),
            primary_name: p.primary_name(lang).to_string(),
            rank: p.rank(lang),
            unit: e.unit.clone(),
            place: if r.shared { format!("{}=", r.place) } else { r.place.to_string() },
            score: ds::halves_text(r.score),
        })
    };
    let lines = prizes
        .into_iter()
        .zip(kinds)
        .zip(awards)
        .map(|((prize, kind), a)| Line {
            name: lang.prize_name(&kind, &prize.name),
            condition: lang.prize_condition(&kind),
            winner: a.winner.and_then(winner),
            tied_with: a.tied_with.iter().filter_map(|id| winner(*id)).map(|w| w.name).collect(),
            prize,
            kind,
        })
        .collect();
    let rounds = u32::try_from(t.rounds).unwrap_or(0);
    Ok(PrizeList { t, settings, version, lines, after_round: data.last_round, rounds })
}
