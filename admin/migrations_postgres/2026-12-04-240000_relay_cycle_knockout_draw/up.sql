-- Seed 003 Art. 20.3: what a triple ko or eternal life ends a relay match with (the event's
-- supplementary rule; rules.md decisions: no result, replayed with the time left).
ALTER TABLE team_settings ADD COLUMN cycle TEXT NOT NULL DEFAULT 'no_result'
    CHECK (cycle IN ('no_result', 'draw', 'extra_game'));
-- Seed 003 Arts. 12, 17.5 (3), 17.6 (1): a draw ruled in a relay knockout goes to the play-off
-- from move 144 and is replayed before it (by_move), or is always replayed (replay).
ALTER TABLE team_settings ADD COLUMN knockout_draw TEXT NOT NULL DEFAULT 'by_move'
    CHECK (knockout_draw IN ('by_move', 'replay'));
