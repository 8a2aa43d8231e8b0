DROP TABLE screens;
