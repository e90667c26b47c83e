-- When an opponent last nudged the player to act in each match (at most once per 12 hours).
ALTER TABLE matches ADD COLUMN nudged_at INTEGER;
