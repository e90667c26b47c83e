-- A league substitute: the registration of a player an admin seated in another's place keeps
-- whom they replaced. In a round robin the substitute plays the rest of that player's schedule.
ALTER TABLE registrations ADD COLUMN replaces INTEGER REFERENCES players(id);
-- A player is replaced at most once a season.
CREATE UNIQUE INDEX registrations_replaces ON registrations(season_id, replaces)
    WHERE replaces IS NOT NULL;
