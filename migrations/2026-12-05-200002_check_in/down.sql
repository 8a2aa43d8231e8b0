DROP TABLE check_in_codes;
DROP TABLE check_in_rounds;
DROP TABLE check_ins;
