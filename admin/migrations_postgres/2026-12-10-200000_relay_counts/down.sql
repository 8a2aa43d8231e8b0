DROP TABLE relay_counts;
