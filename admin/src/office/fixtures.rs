//! Test fixtures of the office's use cases: a relay event with two teams and one match whose
//! section 1 line-ups are in (seed 003 Art. 10.1), on a SQLite database of its own.

use crate::db::team_matches::{self as tm, EventInput};
use crate::db::teams::{self, RosterInput};
use crate::db::tournaments as tdb;
use crate::db::users::{self, NewAccount, Role};
use crate::db::{self, Actor, Conn};
use domain::settings::{System, TournamentSettings};
use domain::team::event::{Format, TeamPairing, TeamSettings};
use domain::team::lineup::Section;
use domain::team::relay::Event;
use domain::team::PersonId;
use rules::board::Color;

/// A relay match ready for its first move.
pub struct RelayFixture {
    _dir: tempfile::TempDir,
    pool: db::DbPool,
    /// The event's organizer, its chief arbiter.
    pub chief: Actor,
    pub tid: i32,
    pub mid: i32,
    /// The match's version after the line-ups.
    pub version: i32,
    /// Section 1's players: Black's two, then White's two, as listed in the line-ups.
    pub black: [PersonId; 2],
    pub white: [PersonId; 2],
    /// The match's start (section 1).
    pub start: i64,
}

impl RelayFixture {
    pub fn conn(&self) -> db::DbConn {
        self.pool.get().unwrap()
    }

    pub fn with_lineups() -> RelayFixture {
        let dir = tempfile::tempdir().unwrap();
        let pool = db::open(&dir.path().join("t.db")).unwrap();
        let c: &mut Conn = &mut pool.get().unwrap();
        let acc = NewAccount {
            username: "chief",
            display_name: "裁判长",
            password: "a long enough pass",
            role: Role::Organizer,
        };
        let user = users::create(c, &Actor::system("test"), &acc).unwrap().unwrap();
        let chief = Actor { user_id: Some(user.id), name: "chief".into() };
        let mut s = TournamentSettings::defaults(chrono::NaiveDate::MIN, db::server_zone());
        s.name_latin = "Relay".into();
        s.system = System::TeamRelay;
        s.rounds = 1;
        let tid = tdb::create(c, &chief, &s).unwrap();
        let ts = TeamSettings {
            format: Format::Relay,
            pairing: TeamPairing::RoundRobin,
            boards: 2,
            ..TeamSettings::default()
        };
        teams::save_settings(c, &chief, tid, 0, &ts, "").unwrap();
        for k in 0..2 {
            let r = RosterInput {
                name: format!("Team {k}"),
                leader: format!("L{k}"),
                players: (1..=8).map(|p| (p, format!("P{k}-{p}"))).collect(),
                ..RosterInput::default()
            };
            teams::create(c, &chief, tid, &r, "").unwrap();
        }
        tm::pair(c, &chief, tid, 1, 7, "").unwrap();
        let m = tm::matches_of_round(c, tid, 1).unwrap().into_iter().find(|m| m.is_relay()).unwrap();
        let start = 1000;
        let v = tm::set_start(c, &chief, tid, m.id, 1, start, "").unwrap();
        let setup = tm::relay_state(c, tid, m.id).unwrap().setup.unwrap();
        let (b, w) = (
            [setup.black.players[0].id, setup.black.players[1].id],
            [setup.white.players[0].id, setup.white.players[1].id],
        );
        let lineup = |side, players| EventInput {
            at: start - 400,
            at_move: None,
            event: Event::SubmitLineup { side, section: Section::One, players },
            also: vec![],
        };
        tm::record_event(c, &chief, tid, m.id, v, &lineup(Color::Black, b)).unwrap();
        tm::record_event(c, &chief, tid, m.id, v + 1, &lineup(Color::White, w)).unwrap();
        RelayFixture { _dir: dir, pool, chief, tid, mid: m.id, version: v + 2, black: b, white: w, start }
    }
}
