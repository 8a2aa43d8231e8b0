-- Team events (seed 003 and board matches): teams and their rosters, the team settings of an event,
-- team rounds and matches, the append-only event log of each relay match, and the boards of board
-- matches. The pure logic is admin::domain::team; nothing here duplicates its rules.

-- What kind of team event a tournament with system 'team_relay' is, and how it scores.
-- No row: the defaults (a relay event, 3/1/0, round robin, an equal count is a draw).
-- `format`: 'relay' (seed 003 pair-relay matches) or 'boards' (N boards per match, rules.md
-- §13.2–13.3). `match_points`: '3-1-0', '2-1-0' or 'main_board' (rules.md §13.2, board matches
-- only). `equal_count`: Art. 12 注, 'white' rules an equal relay count a White win.
-- `tiebreaks`: 'generic' (§13.3: 局分 → 直胜 → board 1) or 'weijia' (§13.2).
CREATE TABLE team_settings (
    tournament_id INTEGER PRIMARY KEY NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    format TEXT NOT NULL DEFAULT 'relay' CHECK (format IN ('relay', 'boards')),
    boards INTEGER NOT NULL DEFAULT 4 CHECK (boards BETWEEN 1 AND 20),
    match_points TEXT NOT NULL DEFAULT '3-1-0' CHECK (match_points IN ('3-1-0', '2-1-0', 'main_board')),
    main_board INTEGER CHECK (main_board IS NULL OR main_board >= 1),
    pairing TEXT NOT NULL DEFAULT 'round_robin' CHECK (pairing IN ('round_robin', 'swiss', 'knockout')),
    equal_count TEXT NOT NULL DEFAULT 'draw' CHECK (equal_count IN ('draw', 'white')),
    tiebreaks TEXT NOT NULL DEFAULT 'generic' CHECK (tiebreaks IN ('generic', 'weijia')),
    version INTEGER NOT NULL DEFAULT 1,
    updated_at TEXT NOT NULL
);

-- A team (seed 003 Art. 10.1). `rating`: the mean rating of the players, for seeding (rules.md
-- §14.2 "team: average rating"); `unit` for same-unit avoidance in Swiss pairing.
CREATE TABLE teams (
    id INTEGER PRIMARY KEY NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    unit TEXT NOT NULL DEFAULT '',
    rating INTEGER,
    version INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (tournament_id, name)
);

-- Everyone in a team: the leader (领队), the coach (教练员) and the players with their position
-- numbers (位置号); the captain (队长) is one of the players. The row id is the person id the
-- relay state machine knows (unique across teams).
CREATE TABLE team_members (
    id INTEGER PRIMARY KEY NOT NULL,
    team_id INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('leader', 'coach', 'player')),
    name TEXT NOT NULL,
    position INTEGER CHECK (((role = 'player') = (position IS NOT NULL)) AND (position IS NULL OR position >= 1)),
    captain BOOLEAN NOT NULL DEFAULT 0 CHECK (NOT captain OR role = 'player')
);
CREATE INDEX team_members_team ON team_members(team_id);
CREATE UNIQUE INDEX team_members_position ON team_members(team_id, position) WHERE position IS NOT NULL;
CREATE UNIQUE INDEX team_members_staff ON team_members(team_id, role) WHERE role IN ('leader', 'coach');
CREATE UNIQUE INDEX team_members_captain ON team_members(team_id) WHERE captain;

-- A paired team round: the method, the seed every lot was drawn from (decimal u64), the lots,
-- and the plan later rounds need (round robin: Berger order; knockout: the bracket).
CREATE TABLE team_rounds (
    id INTEGER PRIMARY KEY NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    number INTEGER NOT NULL CHECK (number >= 1),
    pairing TEXT NOT NULL,
    seed TEXT NOT NULL,
    draws TEXT NOT NULL DEFAULT '[]',
    plan TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    UNIQUE (tournament_id, number)
);

-- A team match. The team listed first (`black_team_id`) is Black in a relay match and Black on
-- the odd boards of a board match; `white_team_id` NULL is a bye (table 0). `boards` 0 is a
-- relay match. `start_at` (Unix seconds) is when section 1 starts: line-ups are due 5 minutes
-- earlier. `setup` (relay) is the JSON of what the match was set up with at its first event
-- (the relay config, both rosters, the persons barred by the previous game's red cards), so
-- later roster edits never change a match in progress. `record` is the JSON of the decided
-- match (domain TeamMatchRecord) that standings and pairing read; NULL while undecided.
CREATE TABLE team_matches (
    id INTEGER PRIMARY KEY NOT NULL,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    round_number INTEGER NOT NULL CHECK (round_number >= 1),
    table_no INTEGER NOT NULL,
    black_team_id INTEGER NOT NULL REFERENCES teams(id),
    white_team_id INTEGER REFERENCES teams(id),
    stage TEXT NOT NULL CHECK (stage IN ('round_robin', 'knockout')),
    boards INTEGER NOT NULL DEFAULT 0 CHECK (boards >= 0),
    start_at INTEGER,
    setup TEXT,
    record TEXT,
    version INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX team_matches_round ON team_matches(tournament_id, round_number);

-- The event log of a relay match: one row per accepted event (domain relay::Event as JSON) with
-- the time it happened (`at`, Unix seconds, as the arbiter entered it) and who recorded it.
-- The match is RelayMatch::replay of these rows in `seq` order. A refused event writes nothing.
-- Append-only: rows are never changed (the trigger) and the program never deletes them (only
-- deleting the whole tournament does, by cascade).
CREATE TABLE relay_events (
    id INTEGER PRIMARY KEY NOT NULL,
    match_id INTEGER NOT NULL REFERENCES team_matches(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL CHECK (seq >= 1),
    at INTEGER NOT NULL,
    event TEXT NOT NULL,
    user_id INTEGER,
    actor TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    UNIQUE (match_id, seq)
);
CREATE TRIGGER relay_events_append_only BEFORE UPDATE ON relay_events
BEGIN
    SELECT RAISE(ABORT, 'relay_events is append-only');
END;

-- The boards of a board match: who plays for each team (team_members ids) and the result in
-- the board's colours ('black', 'white', 'draw', 'double_loss'; '' = not yet).
CREATE TABLE team_board_games (
    id INTEGER PRIMARY KEY NOT NULL,
    match_id INTEGER NOT NULL REFERENCES team_matches(id) ON DELETE CASCADE,
    board INTEGER NOT NULL CHECK (board >= 1),
    first_player_id INTEGER,
    second_player_id INTEGER,
    result TEXT NOT NULL DEFAULT '' CHECK (result IN ('', 'black', 'white', 'draw', 'double_loss')),
    UNIQUE (match_id, board)
);
