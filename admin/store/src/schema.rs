// @generated automatically by Diesel CLI.
//! The tables as diesel sees them, generated from migrations/ (SQLite) by diesel's CLI; do not
//! edit by hand. To regenerate after adding a migration (`cargo install diesel_cli
//! --no-default-features --features sqlite-bundled` once), in admin/store:
//! `diesel migration run --database-url "$(mktemp -d)/schema.db"` (diesel.toml names this file
//! and src/schema.patch, which says in i64 what SQLite's INTEGER cannot). tests/schema.rs
//! checks this file against both migration trees.

diesel::table! {
    arrivals (tournament_id, round_number, entrant_id) {
        tournament_id -> Integer,
        round_number -> Integer,
        entrant_id -> Integer,
        arrived_at -> Nullable<Text>,
        recorded_by -> Text,
        recorded_at -> Text,
    }
}

diesel::table! {
    audit (id) {
        id -> Integer,
        tournament_id -> Nullable<Integer>,
        user_id -> Nullable<Integer>,
        actor -> Text,
        at -> Text,
        action -> Text,
        entity -> Text,
        entity_id -> Nullable<Integer>,
        before -> Nullable<Text>,
        after -> Nullable<Text>,
        reason -> Text,
    }
}

diesel::table! {
    check_in_codes (tournament_id) {
        tournament_id -> Integer,
        code -> Text,
        updated_at -> Text,
    }
}

diesel::table! {
    check_in_rounds (tournament_id, round_number) {
        tournament_id -> Integer,
        round_number -> Integer,
        deadline -> Nullable<Text>,
        closed_at -> Nullable<Text>,
        version -> Integer,
    }
}

diesel::table! {
    check_ins (tournament_id, round_number, entrant_id) {
        tournament_id -> Integer,
        round_number -> Integer,
        entrant_id -> Integer,
        by_self -> Bool,
        checked_in_at -> Text,
    }
}

diesel::table! {
    entrants (id) {
        id -> Integer,
        tournament_id -> Integer,
        family_name_zh -> Text,
        given_name_zh -> Text,
        family_name_latin -> Text,
        given_name_latin -> Text,
        rank -> Text,
        rank_value -> Integer,
        rating -> Nullable<Integer>,
        unit -> Text,
        region -> Text,
        birth_date -> Nullable<Text>,
        sex -> Nullable<Text>,
        notes -> Text,
        status -> Text,
        version -> Integer,
        created_at -> Text,
        updated_at -> Text,
        fixed_table -> Nullable<Integer>,
        first_round -> Integer,
        withdrawn_from_round -> Nullable<Integer>,
        withdrawn_on -> Nullable<Text>,
        withdrawal_reason -> Text,
        withdrawal_reason_public -> Bool,
        person_id -> Nullable<Integer>,
        egd_pin -> Text,
        federation_id -> Text,
    }
}

diesel::table! {
    event_groups (tournament_id) {
        tournament_id -> Integer,
        event_id -> Integer,
        group_name_zh -> Text,
        group_name_latin -> Text,
        group_order -> Integer,
        first_table -> Nullable<Integer>,
        band -> Text,
    }
}

diesel::table! {
    events (id) {
        id -> Integer,
        version -> Integer,
        created_at -> Text,
        updated_at -> Text,
    }
}

diesel::table! {
    forbidden_pair_members (forbidden_pair_id, entrant_id) {
        forbidden_pair_id -> Integer,
        entrant_id -> Integer,
    }
}

diesel::table! {
    forbidden_pairs (id) {
        id -> Integer,
        tournament_id -> Integer,
        label -> Text,
        until_round -> Nullable<Integer>,
        reason -> Text,
        created_by -> Nullable<Integer>,
        version -> Integer,
        created_at -> Text,
        updated_at -> Text,
    }
}

diesel::table! {
    game_arrivals (game_id, entrant_id) {
        game_id -> Integer,
        entrant_id -> Integer,
        arrived_at -> Text,
        recorded_by -> Text,
        recorded_at -> Text,
    }
}

diesel::table! {
    game_counts (game_id) {
        game_id -> Integer,
        tournament_id -> Integer,
        version -> Integer,
        dead -> Text,
        black_halves -> Integer,
        confirmed_black -> Bool,
        confirmed_white -> Bool,
        confirmed_by -> Nullable<Text>,
        confirmed_at -> Nullable<Text>,
        updated_at -> Text,
    }
}

diesel::table! {
    game_moves (id) {
        id -> Integer,
        tournament_id -> Integer,
        game_id -> Integer,
        seq -> Integer,
        color -> Text,
        point -> Nullable<Text>,
        client_id -> Text,
        entered_by -> Nullable<Integer>,
        entered_at -> Text,
    }
}

diesel::table! {
    games (id) {
        id -> Integer,
        tournament_id -> Integer,
        round_number -> Integer,
        board -> Integer,
        black_id -> Nullable<Integer>,
        white_id -> Nullable<Integer>,
        handicap -> Integer,
        result -> Text,
        played_swapped -> Bool,
        colour_method -> Text,
        nigiri_holder_id -> Nullable<Integer>,
        nigiri_guesser_id -> Nullable<Integer>,
        nigiri -> Nullable<Text>,
        komi_q -> Nullable<Integer>,
        nominal_winner_id -> Nullable<Integer>,
        nominal_lot -> Nullable<Text>,
        pairing_version -> Integer,
        replay_of -> Nullable<Integer>,
    }
}

diesel::table! {
    live_delays (tournament_id) {
        tournament_id -> Integer,
        moves -> Integer,
        version -> Integer,
        updated_at -> Text,
    }
}

diesel::table! {
    login_throttle (scope, key) {
        scope -> Text,
        key -> Text,
        tat_ms -> BigInt,
    }
}

diesel::table! {
    person_ranks (id) {
        id -> Integer,
        person_id -> Integer,
        rank -> Text,
        rank_value -> Integer,
        rating -> Nullable<Integer>,
        recorded_on -> Text,
        tournament_id -> Nullable<Integer>,
    }
}

diesel::table! {
    persons (id) {
        id -> Integer,
        family_name_zh -> Text,
        given_name_zh -> Text,
        family_name_latin -> Text,
        given_name_latin -> Text,
        birth_date -> Nullable<Text>,
        sex -> Nullable<Text>,
        unit -> Text,
        egd_pin -> Text,
        federation_id -> Text,
        email -> Text,
        phone -> Text,
        version -> Integer,
        created_at -> Text,
        updated_at -> Text,
    }
}

diesel::table! {
    prize_settings (tournament_id) {
        tournament_id -> Integer,
        double_rule -> Text,
        award_withdrawn -> Bool,
        template -> Text,
        organizer -> Text,
        published -> Bool,
        version -> Integer,
        updated_at -> Text,
    }
}

diesel::table! {
    prizes (id) {
        id -> Integer,
        tournament_id -> Integer,
        position -> Integer,
        kind -> Text,
        name -> Text,
        amount -> Text,
        created_at -> Text,
    }
}

diesel::table! {
    rating_changes (id) {
        id -> Integer,
        tournament_id -> Integer,
        entrant_id -> Integer,
        rating_before -> Integer,
        rating_after -> Integer,
        games -> Integer,
        computed_at -> Text,
    }
}

diesel::table! {
    rating_list_rows (id) {
        id -> Integer,
        list_id -> Integer,
        line -> Integer,
        list_key -> Text,
        family_name -> Text,
        given_name -> Text,
        rank -> Text,
        rating -> Nullable<Integer>,
        club -> Text,
        country -> Text,
    }
}

diesel::table! {
    rating_lists (id) {
        id -> Integer,
        tournament_id -> Integer,
        source -> Text,
        name -> Text,
        list_date -> Text,
        imported_at -> Text,
        imported_by -> Text,
        row_count -> Integer,
    }
}

diesel::table! {
    registration_settings (event_id) {
        event_id -> Integer,
        version -> Integer,
        is_open -> Bool,
        deadline -> Nullable<Text>,
        fields -> Text,
        group_rules -> Text,
        updated_at -> Text,
        retention_days -> Integer,
    }
}

diesel::table! {
    registrations (id) {
        id -> Integer,
        event_id -> Integer,
        tournament_id -> Integer,
        reference -> Text,
        state -> Text,
        version -> Integer,
        entrant -> Text,
        phone -> Text,
        email -> Text,
        message -> Text,
        entrant_id -> Nullable<Integer>,
        created_at -> Text,
        updated_at -> Text,
    }
}

diesel::table! {
    relay_counts (match_id) {
        match_id -> Integer,
        tournament_id -> Integer,
        version -> Integer,
        dead -> Text,
        black_halves -> Integer,
        confirmed_black -> Bool,
        confirmed_white -> Bool,
        confirmed_by -> Nullable<Text>,
        confirmed_at -> Nullable<Text>,
        updated_at -> Text,
    }
}

diesel::table! {
    relay_events (id) {
        id -> Integer,
        match_id -> Integer,
        seq -> Integer,
        at -> BigInt,
        event -> Text,
        user_id -> Nullable<Integer>,
        actor -> Text,
        recorded_at -> Text,
    }
}

diesel::table! {
    relay_withdrawals (id) {
        id -> Integer,
        match_id -> Integer,
        event_id -> Integer,
        reason -> Text,
        user_id -> Nullable<Integer>,
        actor -> Text,
        recorded_at -> Text,
    }
}

diesel::table! {
    research_rooms (id) {
        id -> Integer,
        tournament_id -> Integer,
        team_id -> Integer,
        token_hash -> Nullable<Text>,
        version -> Integer,
        created_at -> Text,
        updated_at -> Text,
    }
}

diesel::table! {
    results (game_id) {
        game_id -> Integer,
        tournament_id -> Integer,
        version -> Integer,
        entry -> Nullable<Text>,
        outcome -> Nullable<Text>,
        method -> Nullable<Text>,
        winner -> Nullable<Text>,
        black_halves -> Nullable<Integer>,
        white_halves -> Nullable<Integer>,
        margin_q -> Nullable<Integer>,
        penalty_black -> Integer,
        penalty_white -> Integer,
        warnings_black -> Integer,
        warnings_white -> Integer,
        confirmed_black -> Bool,
        confirmed_white -> Bool,
        confirmed_arbiter -> Bool,
        locked -> Bool,
        clock_black_secs -> Nullable<Integer>,
        clock_white_secs -> Nullable<Integer>,
        resumed -> Bool,
        starts_at -> Nullable<Text>,
        sgf -> Nullable<Text>,
        sgf_name -> Nullable<Text>,
        sgf_report -> Nullable<Text>,
        entered_by -> Nullable<Text>,
        entered_at -> Nullable<Text>,
        updated_at -> Text,
        sgf_bytes -> Nullable<Binary>,
    }
}

diesel::table! {
    round_absences (tournament_id, round_number, entrant_id) {
        tournament_id -> Integer,
        round_number -> Integer,
        entrant_id -> Integer,
        created_at -> Text,
    }
}

diesel::table! {
    round_times (tournament_id, round_number) {
        tournament_id -> Integer,
        round_number -> Integer,
        starts_at -> Text,
        version -> Integer,
        updated_at -> Text,
    }
}

diesel::table! {
    rounds (id) {
        id -> Integer,
        tournament_id -> Integer,
        number -> Integer,
        published -> Bool,
        published_at -> Nullable<Text>,
        /// Generated from `published` ('draft' / 'published'); never written, never NULL.
        status -> Text,
        seed -> Nullable<Text>,
        draws -> Text,
        system -> Text,
        plan -> Text,
        version -> Integer,
        created_at -> Nullable<Text>,
        updated_at -> Nullable<Text>,
        hall_first -> Integer,
    }
}

diesel::table! {
    rulings (id) {
        id -> Integer,
        game_id -> Integer,
        tournament_id -> Integer,
        kind -> Text,
        against -> Nullable<Text>,
        move_number -> Integer,
        at_time -> Text,
        reason -> Text,
        arbiter_id -> Nullable<Integer>,
        arbiter -> Text,
        created_at -> Text,
        pending -> Bool,
        confirmed_by -> Nullable<Text>,
        confirmed_by_id -> Nullable<Integer>,
        confirmed_at -> Nullable<Text>,
    }
}

diesel::table! {
    screens (id) {
        id -> Integer,
        event_id -> Integer,
        name -> Text,
        token_hash -> Nullable<Text>,
        contents -> Text,
        group_ids -> Text,
        pace -> Integer,
        page_columns -> Integer,
        page_rows -> Integer,
        announcement -> Text,
        version -> Integer,
        created_at -> Text,
        updated_at -> Text,
    }
}

diesel::table! {
    sessions (token_hash) {
        token_hash -> Text,
        user_id -> Integer,
        csrf -> Text,
        created_at -> Text,
        expires_at -> Text,
        last_seen_at -> Text,
    }
}

diesel::table! {
    team_board_games (id) {
        id -> Integer,
        match_id -> Integer,
        board -> Integer,
        first_player_id -> Nullable<Integer>,
        second_player_id -> Nullable<Integer>,
        result -> Text,
        forfeit -> Bool,
    }
}

diesel::table! {
    team_matches (id) {
        id -> Integer,
        tournament_id -> Integer,
        round_number -> Integer,
        table_no -> Integer,
        black_team_id -> Integer,
        white_team_id -> Nullable<Integer>,
        stage -> Text,
        boards -> Integer,
        start_at -> Nullable<BigInt>,
        setup -> Nullable<Text>,
        record -> Nullable<Text>,
        version -> Integer,
        created_at -> Text,
        updated_at -> Text,
        nigiri -> Nullable<Text>,
        replay_of -> Nullable<Integer>,
        nominal_winner_team_id -> Nullable<Integer>,
        nominal_lot -> Nullable<Text>,
    }
}

diesel::table! {
    team_members (id) {
        id -> Integer,
        team_id -> Integer,
        role -> Text,
        name -> Text,
        position -> Nullable<Integer>,
        captain -> Bool,
    }
}

diesel::table! {
    team_rounds (id) {
        id -> Integer,
        tournament_id -> Integer,
        number -> Integer,
        pairing -> Text,
        seed -> Text,
        draws -> Text,
        plan -> Text,
        created_at -> Text,
    }
}

diesel::table! {
    team_settings (tournament_id) {
        tournament_id -> Integer,
        format -> Text,
        boards -> Integer,
        match_points -> Text,
        main_board -> Nullable<Integer>,
        pairing -> Text,
        equal_count -> Text,
        tiebreaks -> Text,
        version -> Integer,
        updated_at -> Text,
        playoff_clock -> Text,
        colours -> Text,
        rr_bye -> Text,
        cycle -> Text,
        knockout_draw -> Text,
    }
}

diesel::table! {
    teams (id) {
        id -> Integer,
        tournament_id -> Integer,
        name -> Text,
        unit -> Text,
        rating -> Nullable<Integer>,
        version -> Integer,
        created_at -> Text,
        updated_at -> Text,
    }
}

diesel::table! {
    tournament_staff (tournament_id, user_id) {
        tournament_id -> Integer,
        user_id -> Integer,
        role -> Text,
        chief_arbiter -> Bool,
    }
}

diesel::table! {
    tournaments (id) {
        id -> Integer,
        name_zh -> Text,
        name_latin -> Text,
        venue -> Text,
        start_date -> Text,
        end_date -> Text,
        system -> Text,
        rounds -> Integer,
        ruleset -> Text,
        points_scale -> Text,
        tiebreaks -> Text,
        colour_method -> Text,
        lateness -> Text,
        bye_value -> Text,
        bye_sos -> Text,
        same_unit -> Text,
        time_control -> Text,
        version -> Integer,
        created_at -> Text,
        updated_at -> Text,
        double_loss -> Text,
        late_entry -> Text,
        changes -> Integer,
        change_tag -> Text,
        forfeit_sos -> Text,
        lots_seed -> BigInt,
        pairing_rules -> Text,
        name_order -> Text,
        time_zone -> Text,
    }
}

diesel::table! {
    user_prefs (user_id) {
        user_id -> Integer,
        lang -> Text,
    }
}

diesel::table! {
    users (id) {
        id -> Integer,
        username -> Text,
        display_name -> Text,
        password_hash -> Text,
        role -> Text,
        active -> Bool,
        created_at -> Text,
        admin -> Bool,
        created_by -> Nullable<Integer>,
    }
}

diesel::joinable!(arrivals -> entrants (entrant_id));
diesel::joinable!(arrivals -> tournaments (tournament_id));
diesel::joinable!(check_in_codes -> tournaments (tournament_id));
diesel::joinable!(check_in_rounds -> tournaments (tournament_id));
diesel::joinable!(check_ins -> entrants (entrant_id));
diesel::joinable!(check_ins -> tournaments (tournament_id));
diesel::joinable!(entrants -> persons (person_id));
diesel::joinable!(entrants -> tournaments (tournament_id));
diesel::joinable!(event_groups -> events (event_id));
diesel::joinable!(event_groups -> tournaments (tournament_id));
diesel::joinable!(forbidden_pair_members -> entrants (entrant_id));
diesel::joinable!(forbidden_pair_members -> forbidden_pairs (forbidden_pair_id));
diesel::joinable!(forbidden_pairs -> tournaments (tournament_id));
diesel::joinable!(forbidden_pairs -> users (created_by));
diesel::joinable!(game_arrivals -> entrants (entrant_id));
diesel::joinable!(game_arrivals -> games (game_id));
diesel::joinable!(game_counts -> games (game_id));
diesel::joinable!(game_counts -> tournaments (tournament_id));
diesel::joinable!(game_moves -> games (game_id));
diesel::joinable!(game_moves -> tournaments (tournament_id));
diesel::joinable!(game_moves -> users (entered_by));
diesel::joinable!(games -> tournaments (tournament_id));
diesel::joinable!(live_delays -> tournaments (tournament_id));
diesel::joinable!(person_ranks -> persons (person_id));
diesel::joinable!(person_ranks -> tournaments (tournament_id));
diesel::joinable!(prize_settings -> tournaments (tournament_id));
diesel::joinable!(prizes -> tournaments (tournament_id));
diesel::joinable!(rating_changes -> entrants (entrant_id));
diesel::joinable!(rating_changes -> tournaments (tournament_id));
diesel::joinable!(rating_list_rows -> rating_lists (list_id));
diesel::joinable!(rating_lists -> tournaments (tournament_id));
diesel::joinable!(registration_settings -> events (event_id));
diesel::joinable!(registrations -> entrants (entrant_id));
diesel::joinable!(registrations -> events (event_id));
diesel::joinable!(registrations -> tournaments (tournament_id));
diesel::joinable!(relay_counts -> team_matches (match_id));
diesel::joinable!(relay_counts -> tournaments (tournament_id));
diesel::joinable!(relay_events -> team_matches (match_id));
diesel::joinable!(relay_withdrawals -> relay_events (event_id));
diesel::joinable!(relay_withdrawals -> team_matches (match_id));
diesel::joinable!(research_rooms -> teams (team_id));
diesel::joinable!(research_rooms -> tournaments (tournament_id));
diesel::joinable!(results -> games (game_id));
diesel::joinable!(results -> tournaments (tournament_id));
diesel::joinable!(round_absences -> entrants (entrant_id));
diesel::joinable!(round_absences -> tournaments (tournament_id));
diesel::joinable!(round_times -> tournaments (tournament_id));
diesel::joinable!(rounds -> tournaments (tournament_id));
diesel::joinable!(rulings -> games (game_id));
diesel::joinable!(rulings -> tournaments (tournament_id));
diesel::joinable!(screens -> events (event_id));
diesel::joinable!(sessions -> users (user_id));
diesel::joinable!(team_board_games -> team_matches (match_id));
diesel::joinable!(team_matches -> tournaments (tournament_id));
diesel::joinable!(team_members -> teams (team_id));
diesel::joinable!(team_rounds -> tournaments (tournament_id));
diesel::joinable!(team_settings -> tournaments (tournament_id));
diesel::joinable!(teams -> tournaments (tournament_id));
diesel::joinable!(tournament_staff -> tournaments (tournament_id));
diesel::joinable!(tournament_staff -> users (user_id));
diesel::joinable!(user_prefs -> users (user_id));

diesel::allow_tables_to_appear_in_same_query!(
    arrivals,
    audit,
    check_in_codes,
    check_in_rounds,
    check_ins,
    entrants,
    event_groups,
    events,
    forbidden_pair_members,
    forbidden_pairs,
    game_arrivals,
    game_counts,
    game_moves,
    games,
    live_delays,
    login_throttle,
    person_ranks,
    persons,
    prize_settings,
    prizes,
    rating_changes,
    rating_list_rows,
    rating_lists,
    registration_settings,
    registrations,
    relay_counts,
    relay_events,
    relay_withdrawals,
    research_rooms,
    results,
    round_absences,
    round_times,
    rounds,
    rulings,
    screens,
    sessions,
    team_board_games,
    team_matches,
    team_members,
    team_rounds,
    team_settings,
    teams,
    tournament_staff,
    tournaments,
    user_prefs,
    users,
);
