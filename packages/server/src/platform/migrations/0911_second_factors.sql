-- Second factors of an identity (services/identity/factors.ts). One row per factor type:
-- TOTP (an authenticator app; the secret sealed with the server key, platform/secrets.ts) and
-- EMAIL (a code mailed at sign-in). A TOTP factor is REQUIRE_ACTIVATION until a first code
-- confirms it; last_used_step keeps each code usable once (RFC 6238 §5.2).
CREATE TABLE identity_factors (
  site_id         text NOT NULL,
  factor_id       text NOT NULL,
  identity_id     text NOT NULL,
  factor_type     text NOT NULL CHECK (factor_type IN ('TOTP', 'EMAIL')),
  status          text NOT NULL CHECK (status IN ('ENABLED', 'REQUIRE_ACTIVATION')),
  secret          text,
  last_used_step  bigint,
  created_at      timestamptz NOT NULL,
  activated_at    timestamptz,
  PRIMARY KEY (site_id, factor_id)
);
CREATE UNIQUE INDEX identity_factors_one_per_type ON identity_factors (site_id, identity_id, factor_type);

-- Recovery codes: 10 one-time codes of 80 random bits each, stored as their SHA-256 (the
-- entropy makes a slow hash needless, and the hash is the lookup key).
CREATE TABLE identity_recovery_codes (
  site_id      text NOT NULL,
  code_hash    text NOT NULL,
  identity_id  text NOT NULL,
  created_at   timestamptz NOT NULL,
  used_at      timestamptz,
  PRIMARY KEY (site_id, code_hash)
);
CREATE INDEX identity_recovery_codes_by_identity ON identity_recovery_codes (site_id, identity_id);

-- A sign-in waiting for its second factor: the password was right, no session exists yet. The
-- state token (hashed) names it; an EMAIL challenge keeps its code (hashed), expiry and tries.
CREATE TABLE mfa_challenges (
  site_id           text NOT NULL,
  challenge_id      text NOT NULL,
  state_token_hash  text NOT NULL,
  identity_id       text NOT NULL,
  visitor_id        text,
  reason            text NOT NULL CHECK (reason IN ('USER_SETTINGS', 'HIGH_RISK_LOGIN')),
  attempts          integer NOT NULL DEFAULT 0,
  email_code_hash   text,
  email_code_expires_at timestamptz,
  email_attempts    integer NOT NULL DEFAULT 0,
  created_at        timestamptz NOT NULL,
  expires_at        timestamptz NOT NULL,
  completed_at      timestamptz,
  PRIMARY KEY (site_id, challenge_id)
);
CREATE UNIQUE INDEX mfa_challenges_by_state ON mfa_challenges (site_id, state_token_hash);

-- Devices remembered for 30 days after a second factor (rememberThisDevice): the device token
-- is random and stored as its hash; revoking the row brings the factor back on that device.
CREATE TABLE remembered_devices (
  site_id      text NOT NULL,
  device_id    text NOT NULL,
  token_hash   text NOT NULL,
  identity_id  text NOT NULL,
  label        text NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  revoked_at   timestamptz,
  PRIMARY KEY (site_id, device_id)
);
CREATE UNIQUE INDEX remembered_devices_by_token ON remembered_devices (site_id, token_hash);
CREATE INDEX remembered_devices_by_identity ON remembered_devices (site_id, identity_id);

-- Lock-out events (5 failed logins or wrong codes in 15 minutes) per e-mail, kept a day: a sign-in
-- from a remembered device after one is high-risk and asks for the factor again.
CREATE TABLE lockout_events (
  site_id    text NOT NULL,
  email_key  text NOT NULL,
  locked_at  timestamptz NOT NULL,
  PRIMARY KEY (site_id, email_key, locked_at)
);
