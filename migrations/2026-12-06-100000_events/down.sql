ALTER TABLE rounds DROP COLUMN hall_first;
DROP TABLE event_groups;
DROP TABLE events;
