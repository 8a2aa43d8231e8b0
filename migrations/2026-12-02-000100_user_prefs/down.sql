DROP TABLE user_prefs;
