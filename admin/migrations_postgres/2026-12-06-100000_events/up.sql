-- Events (赛事) and their groups (组别). A group is what a tournament always was: its own
-- entrants, system, rounds, rules preset, standings; so every group stays a `tournaments` row
-- and every page of a group keeps its /t/{id} address. The event is what groups in one hall
-- share: one landing page, one hall of numbered tables, one registration. What they share of
-- the settings (name, venue, dates, zone) stays on each group's row, written to every group of
-- the event at once by the store (`store::events`), so a group reads it as before.
--
-- Every tournament that exists becomes an event of one group, numbered as the tournament, so
-- a single-group event looks and works exactly as before.
CREATE TABLE events (
    id SERIAL PRIMARY KEY,
    version INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
INSERT INTO events (id, created_at, updated_at) SELECT id, created_at, updated_at FROM tournaments;

-- A tournament as a group of its event: the group's name ('' while the event has one group),
-- its place in the hall (1 the strongest, whose tables come first), the first hall number
-- fixed for it (NULL: right after the groups before it), and the band that proposes its
-- entrants (JSON of `domain::groups::Band`, '' none).
CREATE TABLE event_groups (
    tournament_id INTEGER PRIMARY KEY NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    event_id INTEGER NOT NULL REFERENCES events(id),
    group_name_zh TEXT NOT NULL DEFAULT '',
    group_name_latin TEXT NOT NULL DEFAULT '',
    group_order INTEGER NOT NULL DEFAULT 1,
    first_table INTEGER,
    band TEXT NOT NULL DEFAULT ''
);
CREATE INDEX event_groups_event ON event_groups (event_id, group_order);
INSERT INTO event_groups (tournament_id, event_id) SELECT id, id FROM tournaments;

-- The hall number of the round's table 1 for this group, fixed when the round is paired
-- (`domain::hall`): table t is hall number hall_first + t - 1.
ALTER TABLE rounds ADD COLUMN hall_first INTEGER NOT NULL DEFAULT 1;
-- The events were numbered as their tournaments: the next event follows the highest.
SELECT setval(pg_get_serial_sequence('events', 'id'), GREATEST((SELECT MAX(id) FROM events), 1), (SELECT MAX(id) FROM events) IS NOT NULL);
