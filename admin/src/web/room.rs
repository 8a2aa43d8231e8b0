//! The research room (研究室, seed 003 Art. 10.1: "研究室同步直播比赛对局，研究室人员由领队，队长，
//! 教练员和不上场队员构成"): a page per team of a relay event, `/room/{token}`, opened with no
//! login, that follows the team's relay game as it is (no delay: the public board is the one
//! behind). Organizers issue its address on the team's page and revoke it there
//! ([`super::teams::issue_room`], [`super::teams::revoke_room`]); only its hash is kept
//! (`db::research_rooms`). An unknown or revoked token, and a match that is not the team's
//! (`?match=`), are the plain 404 page. The page follows the live stream of the tournament
//! (`Chrome::live`), so it is fetched again on every change.

use super::ctx::Ctx;
use super::error::AppError;
use super::once;
use super::views::room::{self as vr, Loaded, TeamMatch};
use crate::db::research_rooms as rdb;
use crate::db::team_matches as mdb;
use crate::db::teams as tdb_teams;
use crate::db::tournaments as tdb;
use crate::db::DbError;
use crate::i18n::tr;
use actix_web::http::header;
use actix_web::{web, HttpResponse};

/// Everything the page shows, read in one go: the room, its team and event, and the team's
/// relay matches after their events. `NotFound` for an unknown or revoked token and for a
/// match that is not the team's.
fn load(c: &mut crate::db::Conn, token: &str, want: Option<i32>, base: String) -> Result<Loaded, DbError> {
    let room = rdb::by_token(c, token)?;
    let (tid, team) = (room.tournament_id, room.team_id);
    let t = tdb::get(c, tid)?;
    let (team_row, _) = tdb_teams::get(c, tid, team)?;
    let teams = tdb_teams::list(c, tid)?;
    let mut matches = Vec::new();
    for row in mdb::all_matches(c, tid)? {
        if !row.is_relay() || !(row.black_team_id == team || row.white_team_id == Some(team)) {
            continue;
        }
        let m = mdb::relay_state(c, tid, row.id)?.m;
        matches.push(TeamMatch { row, m });
    }
    if want.is_some_and(|id| !matches.iter().any(|m| m.row.id == id)) {
        return Err(DbError::NotFound);
    }
    Ok(Loaded { t, team: team_row, teams, matches, want, base })
}

/// GET /room/{token} (`?match={mid}`: another of the team's matches): the research room.
pub async fn page(
    ctx: Ctx,
    path: web::Path<String>,
    q: web::Query<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let token = path.into_inner();
    let want = match q.iter().find(|(k, _)| k == "match") {
        None => None,
        Some((_, m)) => Some(m.parse::<i32>().map_err(|_| ctx.not_found())?),
    };
    if !once::is_token(&token) {
        return Err(ctx.not_found());
    }
    let base = format!("/room/{token}");
    let loaded = ctx.db_raw(move |c| load(c, &token, want, base)).await?;
    let d = match loaded {
        Ok(d) => d,
        Err(DbError::NotFound) => return Err(ctx.not_found()),
        Err(e) => return Err(AppError::db(ctx.lang, e)),
    };
    let title = tr!(ctx.lang, "room.page_title", team = d.team.name.clone());
    let c = ctx.chrome_t(&d.t, false, title).live(d.t.id);
    let page = vr::build(c, ctx.lang, d);
    let mut resp = ctx.render(&page)?;
    // The address is the key: no shared cache keeps the page (and the site-wide Referrer-Policy
    // `same-origin` sends it to no other site).
    resp.headers_mut().insert(header::CACHE_CONTROL, header::HeaderValue::from_static("private, no-cache"));
    Ok(resp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::team_matches::EventInput;
    use crate::db::teams::RosterInput;
    use crate::db::Actor;
    use crate::domain::team::at_board;
    use crate::domain::team::event::{Format, TeamPairing, TeamSettings};
    use crate::domain::team::lineup::Section;
    use crate::domain::team::relay::{Event, Placed};
    use crate::i18n::Lang;
    use askama::Template;
    use rules::board::{Color, Point};

    fn rec(c: &mut crate::db::Conn, a: &Actor, tid: i32, mid: i32, at: i64, event: Event) {
        let v = mdb::get_match(c, tid, mid).unwrap().version;
        mdb::record_event(c, a, tid, mid, v, &EventInput { at, at_move: None, event, also: vec![] }).unwrap();
    }

    /// The move due now at `sgf`, checked by the board as the board's route checks it.
    fn at_board(c: &mut crate::db::Conn, a: &Actor, tid: i32, mid: i32, at: i64, sgf: &str) {
        let m = mdb::relay_state(c, tid, mid).unwrap().m.unwrap();
        let player = m.expected_player().unwrap();
        let e = at_board::entered(&m, player, Placed::Point(Point::from_sgf(sgf).unwrap())).unwrap();
        rec(c, a, tid, mid, at, e);
    }

    fn page(
        c: &mut crate::db::Conn,
        token: &str,
        want: Option<i32>,
    ) -> Result<(vr::RoomPage, String), DbError> {
        let d = load(c, token, want, format!("/room/{token}"))?;
        let chrome = super::super::views::pages::Chrome::outside(
            Lang::Zh,
            None,
            String::new(),
            format!("/room/{token}"),
            "研究室".into(),
        );
        let p = vr::build(chrome, Lang::Zh, d);
        let html = p.render().unwrap();
        Ok((p, html))
    }

    /// Seed 003 Art. 10.1 (研究室同步直播比赛对局): the room shows its team's relay game as it
    /// stands, with no delay: the board drawn from the moves entered with their points (the
    /// rules crate's position), the move number, the section, the four players in clockwise
    /// order (Art. 10.3) with the one to move, penalty stones and order errors; a move recorded
    /// without its point leaves the state without a board, saying which move; another team's
    /// match is not found through this room, and the room never shows a person's id.
    #[test]
    fn the_room_follows_the_game_at_the_board() {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::db::open(&dir.path().join("t.db")).unwrap();
        let c = &mut pool.get().unwrap();
        let a = Actor::system("test");
        let mut s = crate::domain::settings::TournamentSettings::defaults(
            chrono::NaiveDate::MIN,
            crate::db::server_zone(),
        );
        s.system = crate::domain::settings::System::TeamRelay;
        s.rounds = 3;
        let tid = tdb::create(c, &a, &s).unwrap();
        let ts = TeamSettings {
            format: Format::Relay,
            pairing: TeamPairing::RoundRobin,
            ..TeamSettings::default()
        };
        tdb_teams::save_settings(c, &a, tid, 0, &ts, "").unwrap();
        for k in 1..=4 {
            let r = RosterInput {
                name: format!("队{k}"),
                leader: format!("领队{k}"),
                players: (1..=8).map(|p| (p, format!("队{k}棋手{p}"))).collect(),
                ..RosterInput::default()
            };
            tdb_teams::create(c, &a, tid, &r, "").unwrap();
        }
        mdb::pair(c, &a, tid, 1, 7, "").unwrap();
        let ms: Vec<_> =
            mdb::matches_of_round(c, tid, 1).unwrap().into_iter().filter(|m| m.is_relay()).collect();
        assert_eq!(ms.len(), 2);
        let (mine, theirs) = (&ms[0], &ms[1]);
        let mid = mine.id;
        let v = mdb::set_start(c, &a, tid, mid, mine.version, 1000, "").unwrap();
        assert!(v > mine.version);
        let setup = mdb::relay_state(c, tid, mid).unwrap().setup.unwrap();
        let (b, w) = (setup.black.players.clone(), setup.white.players.clone());
        let lineup = |side, p: &[crate::domain::team::roster::RosterPlayer]| Event::SubmitLineup {
            side,
            section: Section::One,
            players: [p[0].id, p[1].id],
        };
        rec(c, &a, tid, mid, 600, lineup(Color::Black, &b));
        rec(c, &a, tid, mid, 610, lineup(Color::White, &w));

        let token = crate::db::users::random_token();
        rdb::write(c, &a, tid, mine.black_team_id, 0, rdb::Write::Issue { token: &token }).unwrap();
        let other = crate::db::users::random_token();
        rdb::write(c, &a, tid, theirs.black_team_id, 0, rdb::Write::Issue { token: &other }).unwrap();

        // Before a move: the empty board of the match shown.
        let (p, _) = page(c, &token, None).unwrap();
        let v = p.shown.as_ref().unwrap();
        let (svg, st) = v.board.as_ref().unwrap();
        assert!(!svg.position.contains('X') && st.moves == 0);

        // Three moves at the board: the room shows them at once (no delay).
        for (k, sgf) in ["dd", "pp", "dp"].iter().enumerate() {
            at_board(c, &a, tid, mid, 1010 + 10 * k as i64, sgf);
        }
        let (_, html) = page(c, &token, None).unwrap();
        assert!(html.contains("尚无计时读数"), "{html}");
        // The referee's clock reading after move 3: the last one recorded is shown.
        let reading = |main_secs| rules::clock::ClockReading {
            main_secs,
            periods: 3,
            period_secs: 0,
            period_moves: 0,
            overtime: false,
        };
        let clocks = [reading(3000), reading(2940)];
        rec(c, &a, tid, mid, 1045, Event::Clocks { move_number: None, clocks });
        let (p, html) = page(c, &token, None).unwrap();
        let v = p.shown.as_ref().unwrap();
        let [cb, cw] = clocks.map(|r| Lang::Zh.clock_reading(&r));
        assert!(v.clock.starts_with("最近的计时读数（第3手后，"), "{}", v.clock);
        assert!(v.clock.ends_with(&format!("）：黑方 {cb}；白方 {cw}")), "{}", v.clock);
        let (svg, st) = v.board.as_ref().unwrap();
        assert_eq!(st.moves, 3);
        let rows: Vec<&str> = svg.position.split('/').collect();
        assert_eq!(rows[3].as_bytes()[3], b'X', "dd");
        assert_eq!(rows[15].as_bytes()[15], b'O', "pp");
        assert_eq!(rows[15].as_bytes()[3], b'X', "dp");
        assert!(svg.hits.is_empty(), "the room draws no tap targets");
        assert_eq!(v.moves, "已下3手");
        assert_eq!(v.section, "第1节（第1至72手）");
        let order: Vec<(&str, &str, bool)> =
            v.seats.iter().map(|s| (s.side.as_str(), s.name.as_str(), s.to_move)).collect();
        let name = |p: &crate::domain::team::roster::RosterPlayer| p.name.clone();
        assert_eq!(
            order,
            vec![
                ("黑方", name(&b[0]).as_str(), false),
                ("白方", name(&w[0]).as_str(), false),
                ("黑方", name(&b[1]).as_str(), false),
                ("白方", name(&w[1]).as_str(), true),
            ]
        );
        assert_eq!(v.stones, "罚子：黑方0子，白方0子");
        assert_eq!(v.errors, "行棋次序错误：黑方0次，白方0次");
        assert!(html.contains("id=\"board-svg\"") && html.contains("id=\"room-to-move\""), "{html}");
        for p in b.iter().chain(&w) {
            for id in [format!("#{}", p.id), format!("{}号", p.id), format!("value=\"{}\"", p.id)] {
                assert!(!html.contains(&id), "a person's id on the page: {id}");
            }
        }
        assert!(!html.contains(&other), "another team's address");

        // A move recorded on the match page without its point: the state, no board, and why.
        let m = mdb::relay_state(c, tid, mid).unwrap().m.unwrap();
        rec(c, &a, tid, mid, 1050, Event::Move { player: m.expected_player().unwrap(), at: None });
        let (p, html) = page(c, &token, None).unwrap();
        let v = p.shown.as_ref().unwrap();
        assert!(v.board.is_none());
        assert!(v.no_board.contains("第4手没有在记谱板上录入落点"), "{}", v.no_board);
        assert_eq!(v.moves, "已下4手");
        assert!(!html.contains("board-svg"));

        // The team's own match by id; another team's match is not found through this room.
        assert!(page(c, &token, Some(mid)).is_ok());
        assert!(matches!(page(c, &token, Some(theirs.id)), Err(DbError::NotFound)));
        assert!(matches!(page(c, &other, Some(mid)), Err(DbError::NotFound)));
        let (p, _) = page(c, &other, None).unwrap();
        assert!(!p.shown.unwrap().started, "the other room shows its own match");
    }
}
