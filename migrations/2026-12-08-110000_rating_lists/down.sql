DROP TABLE rating_list_rows;
DROP TABLE rating_lists;
ALTER TABLE entrants DROP COLUMN federation_id;
ALTER TABLE entrants DROP COLUMN egd_pin;
