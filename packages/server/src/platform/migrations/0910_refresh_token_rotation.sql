-- Refresh-token rotation with reuse detection (OAuth 2.0 security BCP). A member's refresh grant
-- answers a new refresh token, a child of the one presented, in the same family (session_id).
-- A token is spent once a child of it has been used, or when a newer child replaces an unused
-- one; presenting a spent token revokes its whole family. A token whose children were never used
-- stays valid, so clients that keep their first token (the official SDK does) still renew.
ALTER TABLE refresh_tokens ADD COLUMN IF NOT EXISTS parent_hash text;
ALTER TABLE refresh_tokens ADD COLUMN IF NOT EXISTS spent_at timestamptz;
CREATE INDEX IF NOT EXISTS refresh_tokens_by_parent ON refresh_tokens (site_id, parent_hash) WHERE parent_hash IS NOT NULL;
