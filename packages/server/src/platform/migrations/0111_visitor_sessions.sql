-- Visitors' refresh tokens are signed, not stored (the anonymous grant writes nothing); the rare
-- revocation of a visitor's session is what gets stored, and every visitor refresh checks it.
CREATE TABLE revoked_sessions (
  site_id     text NOT NULL,
  session_id  text NOT NULL,
  revoked_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (site_id, session_id)
);

-- Session ids are unique UUIDs. Led by site_id, this index could be chosen for a token lookup of a
-- site the statistics do not know yet, filtering every token of the site (15 ms with 22,000 rows).
DROP INDEX refresh_tokens_by_session;
CREATE INDEX refresh_tokens_by_session ON refresh_tokens (session_id);
