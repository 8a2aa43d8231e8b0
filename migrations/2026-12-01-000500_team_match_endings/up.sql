-- Team matches as they really end: by a forfeit or withdrawal, a ruled loss, draw, replay or
-- double loss, or a side left without an eligible player (seed 003 Arts. 15.2, 17.5, 17.6, 23).
--
-- `replay_of`: a relay match the chief arbiter ordered replayed (重赛, seed 003 Arts. 17.5 (4),
-- 17.6 (2)) gets a new match in the same round between the same teams; this names the match it
-- replays. The original keeps its log and a record with no result (it counts nowhere).
-- `nominal_winner_team_id` / `nominal_lot`: a team match lost by both teams (双方均负) under the
-- event's double-loss lot (rules.md §12) gets a nominal winner for the next round's pairing
-- only, drawn once (the lot's record as JSON, domain DrawRecord) and kept when the round is
-- paired again; standings never read it.
ALTER TABLE team_matches ADD COLUMN replay_of INTEGER REFERENCES team_matches(id) ON DELETE CASCADE;
ALTER TABLE team_matches ADD COLUMN nominal_winner_team_id INTEGER REFERENCES teams(id);
ALTER TABLE team_matches ADD COLUMN nominal_lot TEXT;
-- What a round-robin bye is worth: 'none' (a bye is no match: no match
-- points, counted in no tie-break) or 'win'. Swiss and knockout byes stay a win (rules.md §14.5).
ALTER TABLE team_settings ADD COLUMN rr_bye TEXT NOT NULL DEFAULT 'none' CHECK (rr_bye IN ('none', 'win'));
-- A board of a board match won by forfeit (弃权): the result names the winner's colour.
ALTER TABLE team_board_games ADD COLUMN forfeit BOOLEAN NOT NULL DEFAULT 0 CHECK (NOT forfeit OR result IN ('black', 'white'));
