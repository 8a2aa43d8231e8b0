-- Colours of relay matches (seed 003 Art. 11 "对局的先后手，由大会抽签编排或对局前由领队猜先决定。
-- 竞赛规程对此应作明确表述"): 'draw', the colours of the pairing (the organiser's draw), or
-- 'leaders_nigiri', a nigiri between the team leaders before each match.
ALTER TABLE team_settings ADD COLUMN colours TEXT NOT NULL DEFAULT 'draw'
    CHECK (colours IN ('draw', 'leaders_nigiri'));
-- The leaders' nigiri of a match (domain rounds::NigiriState as JSON, team ids for players): who
-- holds the stones (decided by a recorded lot from the team round's seed, as the leaders' ranks
-- and ages are not recorded) and, once done, the outcome (entered from the board, or performed
-- from the table's seed, which is stored with it). Until then the guessing team stands as Black
-- provisionally and no event may be recorded; the outcome sets black_team_id / white_team_id.
ALTER TABLE team_matches ADD COLUMN nigiri TEXT;
