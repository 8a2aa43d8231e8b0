-- Which time the 节棋 play-off is played with (seed 003 Art. 12 "使用之前剩余的时间（包括读秒）"):
-- 'game_end', the time each side had left when the drawn game ended (the default reading: only
-- the position is restored), or 'section_two_end', the time left after move 143 (an event whose
-- regulations restore the clocks with the position). Clock readings themselves are relay
-- events in relay_events (domain relay::Event::Clocks).
ALTER TABLE team_settings ADD COLUMN playoff_clock TEXT NOT NULL DEFAULT 'game_end'
    CHECK (playoff_clock IN ('game_end', 'section_two_end'));
