DROP TABLE prizes;
DROP TABLE prize_settings;
