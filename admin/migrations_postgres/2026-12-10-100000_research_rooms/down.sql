DROP TABLE research_rooms;
