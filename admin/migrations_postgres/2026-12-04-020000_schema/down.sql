DROP TABLE IF EXISTS sessions, user_prefs, game_arrivals, results, relay_withdrawals,
    team_board_games, relay_events, team_matches, team_rounds, team_members, teams,
    team_settings, arrivals, round_times, rulings, round_absences, audit, games, entrants,
    rounds, tournament_staff, tournaments, users CASCADE;
DROP FUNCTION IF EXISTS tengen_append_only();
