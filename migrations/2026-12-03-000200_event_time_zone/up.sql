-- The event's time zone: an IANA name; every time shown or typed is in it and
-- stored in UTC. The events so far are Chinese events whose times were typed in China's time,
-- so they take Asia/Shanghai (new events take the server's zone from the program).
ALTER TABLE tournaments ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'Asia/Shanghai';

-- Times of day typed so far ("09:00", "9:05:30", in China's time) become UTC instants
-- ("2026-12-03 01:00:00") on the event's first day (Asia/Shanghai has no daylight saving:
-- 8 hours behind). Lateness compares them with each other only, so the day is immaterial.
-- Text that is not a time of day is left as it is.
CREATE TEMP TABLE event_day AS SELECT id, start_date FROM tournaments;

UPDATE round_times SET starts_at = COALESCE(datetime(
    (SELECT start_date FROM event_day WHERE event_day.id = round_times.tournament_id) || ' ' ||
    CASE WHEN instr(starts_at, ':') = 2 THEN '0' || starts_at ELSE starts_at END, '-8 hours'), starts_at)
WHERE length(starts_at) BETWEEN 4 AND 8;

UPDATE arrivals SET arrived_at = COALESCE(datetime(
    (SELECT start_date FROM event_day WHERE event_day.id = arrivals.tournament_id) || ' ' ||
    CASE WHEN instr(arrived_at, ':') = 2 THEN '0' || arrived_at ELSE arrived_at END, '-8 hours'), arrived_at)
WHERE length(arrived_at) BETWEEN 4 AND 8;

UPDATE results SET starts_at = COALESCE(datetime(
    (SELECT start_date FROM event_day WHERE event_day.id = results.tournament_id) || ' ' ||
    CASE WHEN instr(starts_at, ':') = 2 THEN '0' || starts_at ELSE starts_at END, '-8 hours'), starts_at)
WHERE length(starts_at) BETWEEN 4 AND 8;

UPDATE game_arrivals SET arrived_at = COALESCE(datetime(
    (SELECT e.start_date FROM event_day e JOIN games g ON g.tournament_id = e.id
      WHERE g.id = game_arrivals.game_id) || ' ' ||
    CASE WHEN instr(arrived_at, ':') = 2 THEN '0' || arrived_at ELSE arrived_at END, '-8 hours'), arrived_at)
WHERE length(arrived_at) BETWEEN 4 AND 8;

UPDATE rulings SET at_time = COALESCE(datetime(
    (SELECT start_date FROM event_day WHERE event_day.id = rulings.tournament_id) || ' ' ||
    CASE WHEN instr(at_time, ':') = 2 THEN '0' || at_time ELSE at_time END, '-8 hours'), at_time)
WHERE length(at_time) BETWEEN 4 AND 8;

DROP TABLE event_day;
