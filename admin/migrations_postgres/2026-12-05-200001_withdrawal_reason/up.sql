-- A withdrawal (退赛) keeps its reason and its date (YYYY-MM-DD in the event's zone), and
-- whether the organizer made the reason public; the standings after the withdrawal round
-- show them. Cleared when the entrant is reinstated.
ALTER TABLE entrants ADD COLUMN withdrawn_on TEXT;
ALTER TABLE entrants ADD COLUMN withdrawal_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE entrants ADD COLUMN withdrawal_reason_public BOOLEAN NOT NULL DEFAULT FALSE;
