-- Identities: who can sign in to a site. The login e-mail is unique per site, compared
-- case-insensitively through login_email_key (its lower-case form).
CREATE TABLE identities (
  site_id                 text NOT NULL REFERENCES sites (site_id) ON DELETE CASCADE,
  identity_id             text NOT NULL,
  login_email             text NOT NULL,
  login_email_key         text NOT NULL,
  -- argon2id PHC string; null for identities created by sign-on, which must set one first.
  password_hash           text,
  password_reset_required boolean NOT NULL DEFAULT false,
  status                  text NOT NULL CHECK (status IN ('PENDING', 'ACTIVE', 'DELETED', 'BLOCKED', 'OFFLINE')),
  status_reasons          text[] NOT NULL DEFAULT '{}',
  email_verified          boolean NOT NULL DEFAULT false,
  privacy_status          text NOT NULL DEFAULT 'UNDEFINED' CHECK (privacy_status IN ('UNDEFINED', 'PUBLIC', 'PRIVATE')),
  identity_profile        jsonb NOT NULL DEFAULT '{}'::jsonb,
  revision                integer NOT NULL DEFAULT 1,
  created_at              timestamptz NOT NULL,
  updated_at              timestamptz NOT NULL,
  last_login_at           timestamptz,
  PRIMARY KEY (site_id, identity_id)
);
CREATE UNIQUE INDEX identities_login_email ON identities (site_id, login_email_key);

-- Sign-in sessions of the identity service: the sessionToken that register, login, verify and
-- sign-on answer, and the hosted pages' cookie. Only the token's hash is stored.
CREATE TABLE identity_sessions (
  site_id        text NOT NULL,
  session_id     text NOT NULL,
  token_hash     text NOT NULL,
  identity_id    text NOT NULL,
  -- The visitor who signed in, handed over to the member at the code exchange.
  visitor_id     text,
  created_at     timestamptz NOT NULL,
  expires_at     timestamptz NOT NULL,
  revoked_at     timestamptz,
  PRIMARY KEY (site_id, session_id)
);
CREATE UNIQUE INDEX identity_sessions_by_token ON identity_sessions (site_id, token_hash);
CREATE INDEX identity_sessions_by_identity ON identity_sessions (site_id, identity_id) WHERE revoked_at IS NULL;

-- E-mail verification during sign-in: a 6-digit code (hashed) behind a state token (hashed).
CREATE TABLE verification_codes (
  site_id           text NOT NULL,
  verification_id   text NOT NULL,
  identity_id       text NOT NULL,
  state_token_hash  text,
  code_hash         text NOT NULL,
  attempts          integer NOT NULL DEFAULT 0,
  visitor_id        text,
  created_at        timestamptz NOT NULL,
  expires_at        timestamptz NOT NULL,
  verified_at       timestamptz,
  PRIMARY KEY (site_id, verification_id)
);
CREATE UNIQUE INDEX verification_codes_by_state ON verification_codes (site_id, state_token_hash);

-- Password recovery and activation links: single-use tokens (hashed).
CREATE TABLE recovery_tokens (
  site_id       text NOT NULL,
  token_hash    text NOT NULL,
  identity_id   text NOT NULL,
  purpose       text NOT NULL CHECK (purpose IN ('RECOVERY', 'ACTIVATION')),
  created_at    timestamptz NOT NULL,
  expires_at    timestamptz NOT NULL,
  used_at       timestamptz,
  PRIMARY KEY (site_id, token_hash)
);
CREATE INDEX recovery_tokens_by_identity ON recovery_tokens (site_id, identity_id) WHERE used_at IS NULL;

-- Failed logins per e-mail (known or not) for the lock-out window.
CREATE TABLE login_failures (
  site_id      text NOT NULL,
  email_key    text NOT NULL,
  failure_id   text NOT NULL,
  failed_at    timestamptz NOT NULL,
  PRIMARY KEY (site_id, email_key, failure_id)
);
CREATE INDEX login_failures_by_time ON login_failures (site_id, email_key, failed_at);
