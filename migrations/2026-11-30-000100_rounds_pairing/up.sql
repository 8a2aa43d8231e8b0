-- The pairing workflow: draft and published rounds with their seed and draws, the
-- colours and nigiri of each game, the double-loss lot, fixed tables, late entry and per-round
-- absences. The init migration stays as it was; everything here is added.

-- Rounds: `published` stays the one truth about a round's state; `status` only spells it out
-- (a generated column, so the two can never disagree). `seed` is the u64 every lot of the round
-- was drawn from, in decimal (NULL for imported rounds); `draws` the JSON list of DrawRecords;
-- `system` the pairing system used ('import' for rounds read from a file); `plan` the JSON a
-- system needs for later rounds (round robin: Berger order; knockout: the bracket of the round).
ALTER TABLE rounds ADD COLUMN status TEXT GENERATED ALWAYS AS
    (CASE WHEN published THEN 'published' ELSE 'draft' END) VIRTUAL;
ALTER TABLE rounds ADD COLUMN seed TEXT;
ALTER TABLE rounds ADD COLUMN draws TEXT NOT NULL DEFAULT '[]';
ALTER TABLE rounds ADD COLUMN system TEXT NOT NULL DEFAULT 'import';
ALTER TABLE rounds ADD COLUMN plan TEXT NOT NULL DEFAULT '';
ALTER TABLE rounds ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE rounds ADD COLUMN created_at TEXT;
ALTER TABLE rounds ADD COLUMN updated_at TEXT;

-- Games: `board` is the table number and black_id/white_id are the ASSIGNED colours (rules.md
-- §4.3); `played_swapped` records that the players took the other colours. A bye is a game
-- row with white_id NULL, board 0 and result 'BYE' (the convention of the OpenGotha import).
-- `colour_method`: balanced, lot, handicap, table, nigiri, manual ('' for imported games).
-- Nigiri: who holds and who guesses, and `nigiri` = JSON {reason, record} once known.
-- `komi_q`: komi in quarter stones for this game (NULL: the tournament's).
-- `nominal_winner_id` + `nominal_lot`: the double-loss lot (rules.md §12), pairing only.
-- No foreign keys on the new id columns, so a down migration can drop them; entrants are
-- only deleted together with their games.
ALTER TABLE games ADD COLUMN played_swapped BOOLEAN NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN colour_method TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN nigiri_holder_id INTEGER;
ALTER TABLE games ADD COLUMN nigiri_guesser_id INTEGER;
ALTER TABLE games ADD COLUMN nigiri TEXT;
ALTER TABLE games ADD COLUMN komi_q INTEGER;
ALTER TABLE games ADD COLUMN nominal_winner_id INTEGER;
ALTER TABLE games ADD COLUMN nominal_lot TEXT;
ALTER TABLE games ADD COLUMN pairing_version INTEGER NOT NULL DEFAULT 1;

-- Entrants: a table kept for a player who needs it (wheelchair, broadcast board), and the
-- first round an entrant plays (a late entrant joins with the late-entry setting's score).
ALTER TABLE entrants ADD COLUMN fixed_table INTEGER CHECK (fixed_table IS NULL OR fixed_table >= 1);
ALTER TABLE entrants ADD COLUMN first_round INTEGER NOT NULL DEFAULT 1 CHECK (first_round >= 1);

-- Settings the pairing needs (rules.md decisions table): the double-loss lot fallback (default
-- on) and what each round missed before a late entry scores.
ALTER TABLE tournaments ADD COLUMN double_loss TEXT NOT NULL DEFAULT 'lot';
ALTER TABLE tournaments ADD COLUMN late_entry TEXT NOT NULL DEFAULT 'loss';

-- Entrants marked absent for one round: not paired in it, no bye.
CREATE TABLE round_absences (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    round_number INTEGER NOT NULL CHECK (round_number >= 1),
    entrant_id INTEGER NOT NULL REFERENCES entrants(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round_number, entrant_id)
);
