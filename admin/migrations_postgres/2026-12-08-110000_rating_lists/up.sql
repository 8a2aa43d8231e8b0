-- Players' ids in the federations' lists: the EGD PIN (European Go Database) and the id of the
-- event's own federation (an FFG licence, an AGA number, any association's id), as typed in the
-- entrant form, read from OpenGotha and CSV files, or taken from a rating list's row.
ALTER TABLE entrants ADD COLUMN egd_pin TEXT NOT NULL DEFAULT '';
ALTER TABLE entrants ADD COLUMN federation_id TEXT NOT NULL DEFAULT '';

-- A rating list imported into a tournament: its source (egf, ffg, aga, csv), the name the
-- organizer gave it, the list's own date (YYYY-MM-DD, from the file or typed), when and by whom
-- it was imported, and how many rows it has. Its rows are in `rating_list_rows`.
CREATE TABLE rating_lists (
    id SERIAL PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    source TEXT NOT NULL,
    name TEXT NOT NULL,
    list_date TEXT NOT NULL,
    imported_at TEXT NOT NULL,
    imported_by TEXT NOT NULL,
    row_count INTEGER NOT NULL
);
CREATE INDEX rating_lists_tournament ON rating_lists (tournament_id);

-- One player of a rating list, as the list says: the id in that list (EGD PIN, licence, AGA
-- number, the association's id), the names, the rank as written, the rating (NULL if none),
-- the club and the country. `line` is the file's line, for the page's order.
CREATE TABLE rating_list_rows (
    id SERIAL PRIMARY KEY,
    list_id INTEGER NOT NULL REFERENCES rating_lists(id) ON DELETE CASCADE,
    line INTEGER NOT NULL,
    list_key TEXT NOT NULL,
    family_name TEXT NOT NULL,
    given_name TEXT NOT NULL,
    rank TEXT NOT NULL,
    rating INTEGER,
    club TEXT NOT NULL,
    country TEXT NOT NULL
);
CREATE INDEX rating_list_rows_list ON rating_list_rows (list_id);
