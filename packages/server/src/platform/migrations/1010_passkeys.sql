-- Passkeys (WebAuthn) of an identity (services/identity/passkeys.ts): a sign-in method of their
-- own and a second factor. The credential id and the COSE public key are base64url text; the
-- counter is the authenticator's signature count (0 for authenticators without one); rp_id is
-- the relying party the credential was made for (a verified site domain or PUBLIC_URL's host).
CREATE TABLE passkey_credentials (
  site_id        text NOT NULL,
  credential_id  text NOT NULL,
  identity_id    text NOT NULL,
  rp_id          text NOT NULL,
  public_key     text NOT NULL,
  counter        bigint NOT NULL DEFAULT 0,
  transports     text[] NOT NULL DEFAULT '{}',
  device_type    text NOT NULL DEFAULT 'singleDevice',
  backed_up      boolean NOT NULL DEFAULT false,
  name           text NOT NULL,
  created_at     timestamptz NOT NULL,
  last_used_at   timestamptz,
  PRIMARY KEY (site_id, credential_id)
);
CREATE INDEX passkey_credentials_by_identity ON passkey_credentials (site_id, identity_id);

-- The WebAuthn user handle of a member: random, so it reveals nothing; one per member and site.
CREATE TABLE passkey_user_handles (
  site_id      text NOT NULL,
  identity_id  text NOT NULL,
  user_handle  text NOT NULL,
  PRIMARY KEY (site_id, identity_id)
);
CREATE UNIQUE INDEX passkey_user_handles_by_handle ON passkey_user_handles (site_id, user_handle);

-- A ceremony's challenge, kept server-side: used once (used_at) and only until expires_at.
-- REGISTER belongs to the signed-in identity; SIGN_IN to nobody yet; SECOND_FACTOR to the sign-in
-- waiting for its factor (mfa_challenges.challenge_id).
CREATE TABLE webauthn_challenges (
  site_id           text NOT NULL,
  challenge_id      text NOT NULL,
  purpose           text NOT NULL CHECK (purpose IN ('REGISTER', 'SIGN_IN', 'SECOND_FACTOR')),
  challenge         text NOT NULL,
  identity_id       text,
  mfa_challenge_id  text,
  rp_id             text NOT NULL,
  origin            text NOT NULL,
  created_at        timestamptz NOT NULL,
  expires_at        timestamptz NOT NULL,
  used_at           timestamptz,
  PRIMARY KEY (site_id, challenge_id)
);
