DROP TABLE forbidden_pair_members;
DROP TABLE forbidden_pairs;
