-- When an API key was last used. Written at most once an hour per key (see SitesService.noteKeyUse),
-- so a busy key does not turn every request into a write.
ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS last_used_at timestamptz;
