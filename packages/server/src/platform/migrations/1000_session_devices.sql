-- A member's signed-in sessions as their Security page lists them, and the recent-authentication
-- window before factor changes. Each refresh-token family (session_id) keeps the browser's user
-- agent from its sign-in (on its first token); verified_at is when the password was last checked
-- again in that session (the sign-in itself counts from the family's first token's created_at).
ALTER TABLE refresh_tokens ADD COLUMN IF NOT EXISTS user_agent text;
ALTER TABLE refresh_tokens ADD COLUMN IF NOT EXISTS verified_at timestamptz;
