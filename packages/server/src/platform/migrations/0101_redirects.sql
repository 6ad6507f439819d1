-- Redirect sessions: what a fullUrl leads to (sign-in, logout, checkout, …).
CREATE TABLE redirect_sessions (
  site_id               text NOT NULL REFERENCES sites (site_id) ON DELETE CASCADE,
  redirect_session_id   text NOT NULL,
  kind                  text NOT NULL,
  client_id             text,
  request               jsonb NOT NULL,
  -- The caller who created it: the visitor is handed over when they become a member.
  visitor_id            text,
  -- prompt=none with a sessionToken: the token's hash, never the token.
  session_token_hash    text,
  -- web_message without a redirectUri posts to this origin (the creating page's Origin).
  message_origin        text,
  created_at            timestamptz NOT NULL,
  expires_at            timestamptz NOT NULL,
  used_at               timestamptz,
  PRIMARY KEY (site_id, redirect_session_id)
);

-- OAuth authorization codes: single use, 60 s, bound to the client, redirect URI and PKCE challenge.
CREATE TABLE authorization_codes (
  site_id               text NOT NULL,
  code_hash             text NOT NULL,
  client_id             text NOT NULL,
  identity_id           text NOT NULL,
  identity_session_id   text,
  redirect_uri          text,
  code_challenge        text NOT NULL,
  visitor_id            text,
  created_at            timestamptz NOT NULL,
  expires_at            timestamptz NOT NULL,
  used_at               timestamptz,
  -- The refresh-token session the exchange started; revoked if the code is replayed.
  oauth_session_id      text,
  PRIMARY KEY (site_id, code_hash)
);
CREATE INDEX authorization_codes_by_oauth_session ON authorization_codes (site_id, oauth_session_id) WHERE oauth_session_id IS NOT NULL;
