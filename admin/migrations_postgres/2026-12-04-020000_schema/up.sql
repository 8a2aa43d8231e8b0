-- The whole Tengen schema for PostgreSQL, equal in effect to migrations/ up to
-- 2026-12-03-000200_event_time_zone (see ../README.md for the differences in spelling).

CREATE TABLE users (
    id SERIAL PRIMARY KEY,
    username TEXT NOT NULL,
    display_name TEXT NOT NULL DEFAULT '',
    password_hash TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('organizer', 'arbiter')),
    active BOOLEAN NOT NULL DEFAULT TRUE,
    created_at TEXT NOT NULL,
    admin BOOLEAN NOT NULL DEFAULT FALSE,
    created_by INTEGER REFERENCES users(id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX users_username ON users (lower(username));
CREATE UNIQUE INDEX users_one_admin ON users(admin) WHERE admin;

CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY NOT NULL,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    csrf TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    last_seen_at TEXT NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE user_prefs (
    user_id INTEGER PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    lang TEXT NOT NULL CHECK (lang IN ('en', 'zh-CN'))
);

CREATE TABLE tournaments (
    id SERIAL PRIMARY KEY,
    name_zh TEXT NOT NULL,
    name_latin TEXT NOT NULL,
    venue TEXT NOT NULL DEFAULT '',
    start_date TEXT NOT NULL,
    end_date TEXT NOT NULL,
    system TEXT NOT NULL,
    rounds INTEGER NOT NULL,
    ruleset TEXT NOT NULL,
    points_scale TEXT NOT NULL,
    tiebreaks TEXT NOT NULL,
    colour_method TEXT NOT NULL,
    lateness TEXT NOT NULL,
    bye_value TEXT NOT NULL,
    bye_sos TEXT NOT NULL,
    same_unit TEXT NOT NULL,
    time_control TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    double_loss TEXT NOT NULL DEFAULT 'lot',
    late_entry TEXT NOT NULL DEFAULT 'loss',
    changes INTEGER NOT NULL DEFAULT 0,
    change_tag TEXT NOT NULL DEFAULT '',
    forfeit_sos TEXT NOT NULL DEFAULT 'opponent',
    lots_seed BIGINT NOT NULL DEFAULT 0,
    pairing_rules TEXT NOT NULL DEFAULT '{}',
    name_order TEXT NOT NULL DEFAULT 'pinyin',
    time_zone TEXT NOT NULL DEFAULT 'Asia/Shanghai'
);

CREATE TABLE tournament_staff (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('organizer', 'arbiter')),
    chief_arbiter BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE UNIQUE INDEX tournament_staff_one_chief ON tournament_staff(tournament_id) WHERE chief_arbiter;

CREATE TABLE rounds (
    id SERIAL PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    number INTEGER NOT NULL CHECK (number >= 1),
    published BOOLEAN NOT NULL DEFAULT FALSE,
    published_at TEXT,
    status TEXT GENERATED ALWAYS AS (CASE WHEN published THEN 'published' ELSE 'draft' END) STORED,
    seed TEXT,
    draws TEXT NOT NULL DEFAULT '[]',
    system TEXT NOT NULL DEFAULT 'import',
    plan TEXT NOT NULL DEFAULT '',
    version INTEGER NOT NULL DEFAULT 1,
    created_at TEXT,
    updated_at TEXT,
    UNIQUE (tournament_id, number)
);

CREATE TABLE entrants (
    id SERIAL PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    family_name_zh TEXT NOT NULL DEFAULT '',
    given_name_zh TEXT NOT NULL DEFAULT '',
    family_name_latin TEXT NOT NULL DEFAULT '',
    given_name_latin TEXT NOT NULL DEFAULT '',
    rank TEXT NOT NULL,
    rank_value INTEGER NOT NULL,
    rating INTEGER,
    unit TEXT NOT NULL DEFAULT '',
    region TEXT NOT NULL DEFAULT '',
    birth_date TEXT,
    sex TEXT,
    notes TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'withdrawn')),
    version INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    fixed_table INTEGER CHECK (fixed_table IS NULL OR fixed_table >= 1),
    first_round INTEGER NOT NULL DEFAULT 1 CHECK (first_round >= 1),
    withdrawn_from_round INTEGER
);
CREATE INDEX entrants_tournament ON entrants(tournament_id);

CREATE TABLE games (
    id SERIAL PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    round_number INTEGER NOT NULL,
    board INTEGER NOT NULL,
    black_id INTEGER REFERENCES entrants(id) ON DELETE CASCADE,
    white_id INTEGER REFERENCES entrants(id) ON DELETE CASCADE,
    handicap INTEGER NOT NULL DEFAULT 0,
    result TEXT NOT NULL DEFAULT '',
    played_swapped BOOLEAN NOT NULL DEFAULT FALSE,
    colour_method TEXT NOT NULL DEFAULT '',
    nigiri_holder_id INTEGER,
    nigiri_guesser_id INTEGER,
    nigiri TEXT,
    komi_q INTEGER,
    nominal_winner_id INTEGER,
    nominal_lot TEXT,
    pairing_version INTEGER NOT NULL DEFAULT 1,
    replay_of INTEGER REFERENCES games(id) ON DELETE CASCADE
);
CREATE INDEX games_tournament ON games(tournament_id, round_number);
CREATE INDEX games_replay_of ON games(replay_of);

CREATE TABLE audit (
    id SERIAL PRIMARY KEY,
    tournament_id INTEGER,
    user_id INTEGER,
    actor TEXT NOT NULL,
    at TEXT NOT NULL,
    action TEXT NOT NULL,
    entity TEXT NOT NULL,
    entity_id INTEGER,
    before TEXT,
    after TEXT,
    reason TEXT NOT NULL DEFAULT ''
);
CREATE INDEX audit_tournament ON audit(tournament_id, id);

CREATE TABLE round_absences (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    round_number INTEGER NOT NULL CHECK (round_number >= 1),
    entrant_id INTEGER NOT NULL REFERENCES entrants(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round_number, entrant_id)
);

CREATE TABLE results (
    game_id INTEGER PRIMARY KEY NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    version INTEGER NOT NULL DEFAULT 1,
    entry TEXT,
    outcome TEXT,
    method TEXT,
    winner TEXT CHECK (winner IN ('black', 'white')),
    black_halves INTEGER,
    white_halves INTEGER,
    margin_q INTEGER,
    penalty_black INTEGER NOT NULL DEFAULT 0,
    penalty_white INTEGER NOT NULL DEFAULT 0,
    warnings_black INTEGER NOT NULL DEFAULT 0,
    warnings_white INTEGER NOT NULL DEFAULT 0,
    confirmed_black BOOLEAN NOT NULL DEFAULT FALSE,
    confirmed_white BOOLEAN NOT NULL DEFAULT FALSE,
    confirmed_arbiter BOOLEAN NOT NULL DEFAULT FALSE,
    locked BOOLEAN NOT NULL DEFAULT FALSE,
    clock_black_secs INTEGER,
    clock_white_secs INTEGER,
    resumed BOOLEAN NOT NULL DEFAULT FALSE,
    starts_at TEXT,
    sgf TEXT,
    sgf_name TEXT,
    sgf_report TEXT,
    entered_by TEXT,
    entered_at TEXT,
    updated_at TEXT NOT NULL,
    sgf_bytes BYTEA
);
CREATE INDEX results_tournament ON results(tournament_id);

CREATE TABLE rulings (
    id SERIAL PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    against TEXT CHECK (against IN ('black', 'white')),
    move_number INTEGER NOT NULL CHECK (move_number >= 0),
    at_time TEXT NOT NULL DEFAULT '',
    reason TEXT NOT NULL DEFAULT '',
    arbiter_id INTEGER,
    arbiter TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX rulings_game ON rulings(game_id, id);

CREATE TABLE round_times (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    round_number INTEGER NOT NULL CHECK (round_number >= 1),
    starts_at TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 1,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round_number)
);

CREATE TABLE arrivals (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    round_number INTEGER NOT NULL CHECK (round_number >= 1),
    entrant_id INTEGER NOT NULL REFERENCES entrants(id) ON DELETE CASCADE,
    arrived_at TEXT,
    recorded_by TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round_number, entrant_id)
);

CREATE TABLE game_arrivals (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    entrant_id INTEGER NOT NULL REFERENCES entrants(id) ON DELETE CASCADE,
    arrived_at TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    PRIMARY KEY (game_id, entrant_id)
);

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
    updated_at TEXT NOT NULL,
    playoff_clock TEXT NOT NULL DEFAULT 'game_end' CHECK (playoff_clock IN ('game_end', 'section_two_end')),
    colours TEXT NOT NULL DEFAULT 'draw' CHECK (colours IN ('draw', 'leaders_nigiri')),
    rr_bye TEXT NOT NULL DEFAULT 'none' CHECK (rr_bye IN ('none', 'win'))
);

CREATE TABLE teams (
    id SERIAL PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    unit TEXT NOT NULL DEFAULT '',
    rating INTEGER,
    version INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (tournament_id, name)
);

CREATE TABLE team_members (
    id SERIAL PRIMARY KEY,
    team_id INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('leader', 'coach', 'player')),
    name TEXT NOT NULL,
    position INTEGER CHECK (((role = 'player') = (position IS NOT NULL)) AND (position IS NULL OR position >= 1)),
    captain BOOLEAN NOT NULL DEFAULT FALSE CHECK (NOT captain OR role = 'player')
);
CREATE INDEX team_members_team ON team_members(team_id);
CREATE UNIQUE INDEX team_members_position ON team_members(team_id, position) WHERE position IS NOT NULL;
CREATE UNIQUE INDEX team_members_staff ON team_members(team_id, role) WHERE role IN ('leader', 'coach');
CREATE UNIQUE INDEX team_members_captain ON team_members(team_id) WHERE captain;

CREATE TABLE team_rounds (
    id SERIAL PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
    number INTEGER NOT NULL CHECK (number >= 1),
    pairing TEXT NOT NULL,
    seed TEXT NOT NULL,
    draws TEXT NOT NULL DEFAULT '[]',
    plan TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    UNIQUE (tournament_id, number)
);

CREATE TABLE team_matches (
    id SERIAL PRIMARY KEY,
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
    updated_at TEXT NOT NULL,
    nigiri TEXT,
    replay_of INTEGER REFERENCES team_matches(id) ON DELETE CASCADE,
    nominal_winner_team_id INTEGER REFERENCES teams(id),
    nominal_lot TEXT
);
CREATE INDEX team_matches_round ON team_matches(tournament_id, round_number);

CREATE TABLE relay_events (
    id SERIAL PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES team_matches(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL CHECK (seq >= 1),
    at INTEGER NOT NULL,
    event TEXT NOT NULL,
    user_id INTEGER,
    actor TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    UNIQUE (match_id, seq)
);

CREATE TABLE team_board_games (
    id SERIAL PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES team_matches(id) ON DELETE CASCADE,
    board INTEGER NOT NULL CHECK (board >= 1),
    first_player_id INTEGER,
    second_player_id INTEGER,
    result TEXT NOT NULL DEFAULT '' CHECK (result IN ('', 'black', 'white', 'draw', 'double_loss')),
    forfeit BOOLEAN NOT NULL DEFAULT FALSE CHECK (NOT forfeit OR result IN ('black', 'white')),
    UNIQUE (match_id, board)
);

CREATE TABLE relay_withdrawals (
    id SERIAL PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES team_matches(id) ON DELETE CASCADE,
    event_id INTEGER NOT NULL UNIQUE REFERENCES relay_events(id) ON DELETE CASCADE,
    reason TEXT NOT NULL CHECK (length(trim(reason)) > 0),
    user_id INTEGER,
    actor TEXT NOT NULL,
    recorded_at TEXT NOT NULL
);
CREATE INDEX relay_withdrawals_match ON relay_withdrawals(match_id);

-- relay_events and relay_withdrawals are append-only (as the SQLite triggers).
CREATE FUNCTION tengen_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
END;
$$;
CREATE TRIGGER relay_events_append_only BEFORE UPDATE ON relay_events
    FOR EACH ROW EXECUTE FUNCTION tengen_append_only();
CREATE TRIGGER relay_withdrawals_append_only BEFORE UPDATE ON relay_withdrawals
    FOR EACH ROW EXECUTE FUNCTION tengen_append_only();
