//! Save a result: enter, change or clear the entry of a game's sheet, recomputed with the
//! game's rulings ([`domain::results::compute_entry`]), in one write transaction with its audit
//! row. A stale form is refused with the current sheet; a locked result is the chief
//! arbiter's to correct, with a reason (seed 000 Art. 16.4); a draw, a replay or a double loss
//! is the chief arbiter's to enter, change or clear (seed 000 Arts. 17.5, 17.6; decision D21),
//! a plain arbiter proposes one as a ruling.

use crate::db::audit::AuditAction;
use crate::db::results::{self as rdb, SheetError};
use crate::db::{self, Actor, Conn};
use domain::results::{self as dr, Entry};

/// What a result form saves: the sheet's version and the game's pairing version the form was
/// shown with (the colours it names; a different one is refused, since "Black" may now be
/// another player), the entry (`None` clears it) and the reason.
pub struct SaveResult<'a> {
    pub version: i32,
    pub colours_version: Option<i32>,
    pub entry: Option<Entry>,
    pub reason: &'a str,
}

/// Enters (or clears) the result of game `gid` of event `tid`. Returns the sheet's new version.
pub fn save_result(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    gid: i32,
    save: &SaveResult,
) -> Result<i32, SheetError> {
    db::write_tx(&mut *conn, |conn| save_result_in(conn, actor, tid, gid, save))
}

/// [`save_result`] inside the caller's write transaction (a count confirmed from the position
/// writes its confirmation and the result in one, `office::confirm_count`).
pub fn save_result_in(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    gid: i32,
    save: &SaveResult,
) -> Result<i32, SheetError> {
    let (entry, reason) = (save.entry.as_ref(), save.reason);
    let s = rdb::sheet(conn, tid, gid)?;
    let correction = rdb::guard(conn, actor, tid, &s, save.version, reason)?;
    if save.colours_version.is_some_and(|v| v != s.game.pairing_version) {
        return Err(SheetError::ColoursChanged(Box::new(s)));
    }
    let settings = rdb::settings_of(conn, tid)?;
    if dr::change_needs_chief(&settings.ruleset, s.entry().as_ref(), entry)
        && !rdb::is_chief(conn, tid, actor.user_id)?
    {
        return Err(SheetError::NotChief);
    }
    let computed = dr::compute_entry(&settings.ruleset, s.handicap(), s.seats(), entry, &s.rules_rulings())
        .map_err(SheetError::Invalid)?;
    let v = rdb::write_result(conn, actor, &s, entry, &computed, true)?;
    let action = if correction {
        AuditAction::ResultCorrect
    } else if entry.is_none() {
        AuditAction::ResultClear
    } else {
        AuditAction::ResultEnter
    };
    rdb::record_sheet(conn, actor, action, &s, reason)?;
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::rounds;
    use crate::db::tournaments as tdb;
    use crate::db::users::{self, NewAccount, Role};
    use crate::office::pair_round::tests::events;
    use crate::office::pair_round::{pair_round, PairRound};
    use rules::board::Color;

    /// Seed 000 Arts. 17.5, 17.6 (decision D21): entering, replacing or clearing a draw is the
    /// chief arbiter's; a plain arbiter's attempt is refused with nothing written. A
    /// resignation is any arbiter's, and each save writes its audit row.
    #[test]
    fn only_the_chief_arbiter_enters_changes_or_clears_a_draw() {
        let (_dir, pool, tids) = events(1);
        let c = &mut pool.get().unwrap();
        let tid = tids[0];
        let system = Actor::system("test");
        let acc = NewAccount {
            username: "chief",
            display_name: "裁判长",
            password: "a long enough pass",
            role: Role::Organizer,
        };
        let user = users::create(c, &system, &acc).unwrap().unwrap();
        tdb::set_staff(c, &system, tid, user.id, Some(Role::Organizer)).unwrap();
        let chief = Actor { user_id: Some(user.id), name: "chief".into() };
        let arbiter = Actor::system("arbiter");
        let ask = PairRound { round: 1, seed: 42, expected_version: None, confirm: false, reason: "" };
        let round = pair_round(c, &system, tid, &ask).unwrap();
        rounds::publish(c, &system, tid, 1, round.version, true, "").unwrap();
        let gid = rounds::games_of(c, tid, 1).unwrap().iter().find(|g| !g.is_bye()).unwrap().id;
        let save = |entry, version| SaveResult { version, colours_version: None, entry, reason: "" };
        let won = Entry::Resignation { winner: Color::Black };

        let r = save_result(c, &arbiter, tid, gid, &save(Some(Entry::Draw), 0));
        assert!(matches!(r, Err(SheetError::NotChief)), "entering a draw: {r:?}");
        assert!(rdb::sheet(c, tid, gid).unwrap().result.is_none(), "nothing written");
        let v = save_result(c, &chief, tid, gid, &save(Some(Entry::Draw), 0)).unwrap();
        for (entry, what) in [(None, "clearing"), (Some(won), "replacing")] {
            let r = save_result(c, &arbiter, tid, gid, &save(entry, v));
            assert!(matches!(r, Err(SheetError::NotChief)), "{what} the draw: {r:?}");
        }
        assert_eq!(rdb::sheet(c, tid, gid).unwrap().entry(), Some(Entry::Draw));
        let v = save_result(c, &chief, tid, gid, &save(Some(won), v)).unwrap();
        assert_eq!(save_result(c, &arbiter, tid, gid, &save(None, v)).unwrap(), v + 1);
        let audited = audit_actions(c, tid);
        assert_eq!(audited, ["enter", "enter", "clear"], "one audit row per save, none per refusal");
    }

    fn audit_actions(c: &mut Conn, tid: i32) -> Vec<String> {
        let mut rows = crate::db::audit::for_tournament(c, tid, 100).unwrap();
        rows.reverse();
        rows.into_iter().filter(|a| a.entity == "result").map(|a| a.action).collect()
    }
}
