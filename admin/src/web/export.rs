//! The OpenGotha XML export of a tournament (GET /t/{id}/export/opengotha.xml): players,
//! published rounds with their games and byes, results. The file is written by
//! [`crate::import::opengotha_write`]; this handler only maps stored rows to its values.

use super::ctx::{id, Ctx};
use super::error::AppError;
use crate::db::entrants::{self as edb, Sort};
use crate::db::rounds as rdb;
use crate::db::tournaments as tdb;
use crate::db::users::Role;
use crate::db::DbError;
use crate::domain::entrant::Rank;
use crate::domain::pairing::McMahonSettings;
use crate::domain::settings::{ByeValue, System, TimeKind};
use crate::import::opengotha::OgResult;
use crate::import::opengotha_write::{write_opengotha, OgInfo, OgOut, OgOutGame, OgOutPlayer, OgTime};
use actix_web::http::header;
use actix_web::{web, HttpResponse};
use std::collections::{HashMap, HashSet};

pub async fn opengotha(ctx: Ctx, path: web::Path<String>) -> Result<HttpResponse, AppError> {
    let tid = id(ctx.lang, &path)?;
    ctx.require_staff(tid, Role::Arbiter).await?;
    let (t, entrants, games, absences, extras, last) = ctx
        .db(move |c| {
            let t = tdb::get(c, tid)?;
            let (_, last) = tdb::published_rounds(c, tid)?;
            Ok::<_, DbError>((
                t,
                edb::list(c, tid, "", Sort::Id)?,
                rdb::published_games(c, tid)?,
                rdb::all_absences(c, tid)?,
                rdb::entrant_extras(c, tid)?,
                last,
            ))
        })
        .await?;
    let s = t.settings();
    let rounds = s.rounds.max(last);
    let absent: HashSet<(i32, i32)> = absences.into_iter().collect();
    let index: HashMap<i32, usize> = entrants.iter().enumerate().map(|(i, e)| (e.id, i)).collect();
    let players = entrants
        .iter()
        .filter_map(|e| {
            let first = extras.get(&e.id).map(|x| x.1).unwrap_or(1);
            let participating = (1..=rounds as i32)
                .map(|r| !(absent.contains(&(r, e.id)) || r < first || (e.withdrawn() && r > last as i32)))
                .collect();
            Some(OgOutPlayer { entrant: e.input()?, participating })
        })
        .collect::<Vec<_>>();
    if players.len() != entrants.len() {
        return Err(AppError::internal(ctx.lang, "an entrant with an unreadable rank"));
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
    let mm = McMahonSettings::default();
    let rank = |v: i32| Rank::from_value(v).map(|r| r.en().to_uppercase()).unwrap_or_else(|| "30K".into());
    let tc = &s.time_control;
    let info = OgInfo {
        komi_q: s.ruleset.komi_q,
        begin: s.start_date,
        end: s.end_date,
        location: s.venue.clone(),
        basic_minutes: tc.main_minutes,
        time: match tc.kind {
            TimeKind::ByoYomi => OgTime::ByoYomi { seconds: tc.period_seconds },
            TimeKind::Fischer => OgTime::Fischer { seconds: tc.increment_seconds },
            TimeKind::Absolute => OgTime::SuddenDeath,
        },
        mcmahon: s.system == System::McMahon,
        mm_bar: rank(mm.bar),
        mm_floor: rank(mm.floor),
        bye_value: match s.bye_value {
            ByeValue::Win => 2,
            ByeValue::Draw => 1,
            ByeValue::Loss => 0,
        },
        saved: chrono::Utc::now().naive_utc(),
    };
    let name = if s.name_zh.is_empty() { s.name_latin.clone() } else { s.name_zh.clone() };
    let out =
        OgOut { name, short_name: format!("tengen_t{tid}"), rounds, players, games: out_games, byes, info };
    Ok(HttpResponse::Ok()
        .content_type("application/xml; charset=utf-8")
        .insert_header((header::CONTENT_DISPOSITION, format!("attachment; filename=\"tengen-t{tid}.xml\"")))
        .body(write_opengotha(&out)))
}
