//! Imports that reach several groups of one event at once: a CSV list whose rows name their
//! groups (or are placed by the groups' bands), and an OpenGotha file whose categories become
//! the groups of a new event. One transaction over the event; each group's trail gets its own
//! import row, as an import into that group alone would write.

use super::entrants::{insert_data, record_import, ImportData, ImportNote, ImportRow, Imported};
use super::events::{self, GroupFields};
use super::Conn;
use super::{Actor, DbError};
use domain::settings::TournamentSettings;

/// Add CSV rows to the groups of `tid`'s event, each row with the group it goes to (`tid` or
/// a sibling group): nothing is deleted or merged, and every row is checked against its own
/// group's entrants for duplicates. A group outside the event writes nothing (`NotFound`).
/// The ids come back in the order of `rows`.
pub fn add_to_groups(
    conn: &mut Conn,
    actor: &Actor,
    tid: i32,
    rows: Vec<(i32, ImportRow)>,
    note: &ImportNote,
) -> Result<Imported, DbError> {
    crate::write_tx(&mut *conn, |conn| {
        let groups: Vec<i32> = events::siblings(conn, tid)?.iter().map(events::Group::id).collect();
        if rows.iter().any(|(g, _)| !groups.contains(g)) {
            return Err(DbError::NotFound);
        }
        let mut ids = vec![None; rows.len()];
        let mut persons = Vec::new();
        for g in groups {
            let (at, mine): (Vec<usize>, Vec<ImportRow>) = rows
                .iter()
                .enumerate()
                .filter(|(_, (to, _))| *to == g)
                .map(|(i, (_, r))| (i, r.clone()))
                .unzip();
            if mine.is_empty() {
                continue;
            }
            let data = ImportData { rows: mine, ..Default::default() };
            let done = insert_data(conn, actor, g, &data, &note.source)?;
            record_import(conn, actor, g, "add", note, &data, &done)?;
            for (i, id) in at.into_iter().zip(done.ids) {
                ids[i] = id;
            }
            persons.extend(done.persons);
        }
        Ok(Imported { ids, persons })
    })
}

/// One group of a new event made from an import: its settings, its own fields and what it
/// brings in.
pub struct NewGroup {
    pub settings: TournamentSettings,
    pub fields: GroupFields,
    pub data: ImportData,
}

/// Create a new event of several groups from an import, in one transaction: the first group
/// makes the event, the others join it in the order given (their `group_order` as given),
/// the creator an organizer of every group. Returns the first group's id and what each group
/// imported.
pub fn create_event_of_groups(
    conn: &mut Conn,
    actor: &Actor,
    groups: &[NewGroup],
    note: &ImportNote,
) -> Result<(i32, Vec<Imported>), DbError> {
    crate::write_tx(&mut *conn, |conn| {
        let mut first = None;
        let mut done = Vec::with_capacity(groups.len());
        for g in groups {
            let tid = match first {
                None => super::tournaments::insert_tournament(conn, actor, &g.settings)?,
                Some(t) => {
                    let event_id = events::event_of(conn, t)?;
                    super::tournaments::insert_in_event(conn, actor, &g.settings, event_id)?
                }
            };
            first.get_or_insert(tid);
            events::write_fields(conn, tid, &g.fields)?;
            let event_id = events::event_of(conn, tid)?;
            events::record_created(conn, actor, tid, event_id, &g.fields)?;
            let d = insert_data(conn, actor, tid, &g.data, &note.source)?;
            record_import(conn, actor, tid, "new", note, &g.data, &d)?;
            done.push(d);
        }
        Ok((first.ok_or(DbError::NotFound)?, done))
    })
}
