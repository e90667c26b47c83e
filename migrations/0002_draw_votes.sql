-- A draw needs every remaining player's agreement, and a game may have four players: the
-- pending draw offer (one seat) becomes the set of seats that have agreed so far, one bit per
-- seat (seat 1 is bit 0). NULL or 0: nobody has offered a draw.
ALTER TABLE matches RENAME COLUMN draw_offer TO draw_votes;
UPDATE matches SET draw_votes = 1 << draw_votes WHERE draw_votes IS NOT NULL;
