-- Text sorts of the members APIs are case-insensitive (ORDER BY lower(…)), the same on every
-- collation; the nickname sort index follows.
DROP INDEX IF EXISTS members_by_nickname;
CREATE INDEX members_by_nickname ON members (site_id, lower(profile->>'nickname'), member_id);
