DROP INDEX entrants_person;
ALTER TABLE entrants DROP COLUMN person_id;
DROP TABLE person_ranks;
DROP TABLE persons;
