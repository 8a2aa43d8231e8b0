DROP TABLE audit;
DROP TABLE games;
DROP TABLE entrants;
DROP TABLE rounds;
DROP TABLE tournament_staff;
DROP TABLE tournaments;
DROP TABLE sessions;
DROP TABLE users;
