-- The first round a withdrawn entrant misses (the one after the last published round when
-- they withdrew), so that "as of round N" marks them withdrawn only from that round on. NULL:
-- not withdrawn, or withdrawn with no round recorded (an imported status): every round.
ALTER TABLE entrants ADD COLUMN withdrawn_from_round INTEGER;
