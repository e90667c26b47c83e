-- Each player's own settings for slow play: reminders on or off, quiet hours in their time
-- zone (reminders wait until they end), and whether reminders go by direct message.
CREATE TABLE player_settings (
    player_id       INTEGER PRIMARY KEY REFERENCES players(id),
    reminders       INTEGER NOT NULL DEFAULT 1,
    dm_on_turn      INTEGER NOT NULL DEFAULT 0,
    -- Quiet hours as minutes after local midnight, [start, end); both NULL: none.
    quiet_start     INTEGER,
    quiet_end       INTEGER,
    -- The player's time zone as minutes east of UTC.
    utc_offset      INTEGER NOT NULL DEFAULT 0
);
