-- Back to times of day as typed in China's time (exact for Asia/Shanghai events; events in
-- other zones get China's time of day too, as the program before the setting showed).
UPDATE round_times SET starts_at = CASE WHEN strftime('%S', starts_at) = '00'
    THEN strftime('%H:%M', starts_at, '+8 hours') ELSE strftime('%H:%M:%S', starts_at, '+8 hours') END
WHERE length(starts_at) = 19;
UPDATE arrivals SET arrived_at = CASE WHEN strftime('%S', arrived_at) = '00'
    THEN strftime('%H:%M', arrived_at, '+8 hours') ELSE strftime('%H:%M:%S', arrived_at, '+8 hours') END
WHERE length(arrived_at) = 19;
UPDATE results SET starts_at = CASE WHEN strftime('%S', starts_at) = '00'
    THEN strftime('%H:%M', starts_at, '+8 hours') ELSE strftime('%H:%M:%S', starts_at, '+8 hours') END
WHERE length(starts_at) = 19;
UPDATE game_arrivals SET arrived_at = CASE WHEN strftime('%S', arrived_at) = '00'
    THEN strftime('%H:%M', arrived_at, '+8 hours') ELSE strftime('%H:%M:%S', arrived_at, '+8 hours') END
WHERE length(arrived_at) = 19;
UPDATE rulings SET at_time = CASE WHEN strftime('%S', at_time) = '00'
    THEN strftime('%H:%M', at_time, '+8 hours') ELSE strftime('%H:%M:%S', at_time, '+8 hours') END
WHERE length(at_time) = 19;
ALTER TABLE tournaments DROP COLUMN time_zone;
