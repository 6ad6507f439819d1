-- Brings a database that ran an earlier draft of 0401 (with 0402–0404, before the first release)
-- to the indexes and column 0401 now creates. On a database that ran the final 0401, a no-op.
DROP INDEX IF EXISTS members_nickname_prefix;
DROP INDEX IF EXISTS members_login_email_prefix;
DROP INDEX IF EXISTS members_by_nickname;
DROP INDEX IF EXISTS members_public_by_nickname;
ALTER TABLE members ADD COLUMN IF NOT EXISTS nickname_key text COLLATE "C" GENERATED ALWAYS AS (lower(profile->>'nickname')) STORED;
CREATE INDEX IF NOT EXISTS members_nickname_key ON members (site_id, nickname_key, member_id);
CREATE INDEX IF NOT EXISTS members_public_nickname_key ON members (site_id, nickname_key, member_id)
  WHERE status = 'APPROVED' AND privacy_status = 'PUBLIC';
CREATE INDEX IF NOT EXISTS members_by_login_email ON members (site_id, (lower(login_email) COLLATE "C"), member_id);
