-- The order registrations came in (see ../0020_registration_order.sql).
ALTER TABLE registrations ADD COLUMN came BIGINT;
UPDATE registrations r SET came = o.n
FROM (SELECT season_id, player_id,
             ROW_NUMBER() OVER (ORDER BY season_id, joined_at, player_id) AS n
      FROM registrations) o
WHERE o.season_id = r.season_id AND o.player_id = r.player_id;
