-- Whether a player is sent their own view (their hand, their battleplan) by direct message
-- whenever a match comes to their turn, so a card game can be played wholly from DMs.
ALTER TABLE player_settings ADD COLUMN view_by_dm INTEGER NOT NULL DEFAULT 0;
