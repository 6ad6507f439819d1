-- Sites and their credentials. Every tenant table leads its key with site_id.
CREATE TABLE sites (
  site_id     text PRIMARY KEY,
  name        text NOT NULL,
  status      text NOT NULL DEFAULT 'ENABLED' CHECK (status IN ('ENABLED', 'DISABLED', 'PENDING', 'DEMO')),
  settings    jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

-- Routes a clientId (all a token request carries) to its site. Small and read-mostly: on a
-- distributed engine it is a reference table.
CREATE TABLE oauth_clients (
  client_id        text PRIMARY KEY,
  site_id          text NOT NULL REFERENCES sites (site_id) ON DELETE CASCADE,
  allowed_origins  text[] NOT NULL DEFAULT '{}',
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_clients_by_site ON oauth_clients (site_id);

CREATE TABLE api_keys (
  site_id     text NOT NULL REFERENCES sites (site_id) ON DELETE CASCADE,
  key_hash    text NOT NULL,
  key_id      text NOT NULL,
  name        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz,
  PRIMARY KEY (site_id, key_hash)
);

-- Access-token signing keys live in the database so several servers share them.
CREATE TABLE signing_keys (
  site_id      text NOT NULL REFERENCES sites (site_id) ON DELETE CASCADE,
  kid          text NOT NULL,
  algorithm    text NOT NULL,
  secret       text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (site_id, kid)
);

-- Refresh tokens are random and stored only as a hash. They are reusable (the official SDK
-- keeps the first one) until revoked. session_id names the sign-in an access token belongs to.
CREATE TABLE refresh_tokens (
  site_id     text NOT NULL,
  token_hash  text NOT NULL,
  session_id  text NOT NULL,
  client_id   text NOT NULL,
  role        text NOT NULL CHECK (role IN ('visitor', 'member')),
  subject_id  text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz,
  PRIMARY KEY (site_id, token_hash)
);
CREATE INDEX refresh_tokens_by_subject ON refresh_tokens (site_id, subject_id) WHERE revoked_at IS NULL;
CREATE INDEX refresh_tokens_by_session ON refresh_tokens (site_id, session_id);

-- Events recorded in the same transaction as the change they describe.
CREATE TABLE outbox_events (
  site_id       text NOT NULL,
  event_id      text NOT NULL,
  type          text NOT NULL,
  entity_type   text NOT NULL,
  entity_id     text NOT NULL,
  payload       jsonb NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  delivered_at  timestamptz,
  PRIMARY KEY (site_id, event_id)
);
CREATE INDEX outbox_events_pending ON outbox_events (site_id, created_at) WHERE delivered_at IS NULL;
