-- A player's time zone by name ("Europe/Paris"), so quiet hours follow daylight saving time.
-- NULL: the zone is the fixed offset in utc_offset, as stored before names were allowed.
ALTER TABLE player_settings ADD COLUMN time_zone TEXT;
