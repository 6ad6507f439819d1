import type { Queryable } from '../../platform/db.js';

export interface RedirectSessionRow {
  redirect_session_id: string;
  kind: string;
  client_id: string | null;
  request: Record<string, unknown>;
  visitor_id: string | null;
  session_token_hash: string | null;
  message_origin: string | null;
  expires_at: Date;
  used_at: Date | null;
}

const SESSION_COLUMNS = 'redirect_session_id, kind, client_id, request, visitor_id, session_token_hash, message_origin, expires_at, used_at';

export async function insertRedirectSession(
  db: Queryable,
  s: {
    siteId: string; id: string; kind: string; clientId: string | null; request: Record<string, unknown>; visitorId: string | null;
    sessionTokenHash: string | null; messageOrigin: string | null; now: Date; expiresAt: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO redirect_sessions (site_id, redirect_session_id, kind, client_id, request, visitor_id, session_token_hash, message_origin, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10)`,
    [s.siteId, s.id, s.kind, s.clientId, JSON.stringify(s.request), s.visitorId, s.sessionTokenHash, s.messageOrigin, s.now, s.expiresAt],
  );
}

export async function findRedirectSession(db: Queryable, siteId: string, id: string): Promise<RedirectSessionRow | undefined> {
  const rows = await db.query<RedirectSessionRow & Record<string, unknown>>(
    `SELECT ${SESSION_COLUMNS} FROM redirect_sessions WHERE site_id = $1 AND redirect_session_id = $2`, [siteId, id]);
  return rows[0];
}

/** Marks a redirect session used; false when it already was (one code per sign-in link). */
export async function useRedirectSession(db: Queryable, siteId: string, id: string, now: Date): Promise<boolean> {
  const rows = await db.query(
    'UPDATE redirect_sessions SET used_at = $3 WHERE site_id = $1 AND redirect_session_id = $2 AND used_at IS NULL RETURNING redirect_session_id',
    [siteId, id, now],
  );
  return rows.length === 1;
}

export interface AuthorizationCodeRow {
  client_id: string;
  identity_id: string;
  identity_session_id: string | null;
  redirect_uri: string | null;
  code_challenge: string;
  visitor_id: string | null;
  expires_at: Date;
  used_at: Date | null;
  oauth_session_id: string | null;
}

const CODE_COLUMNS = 'client_id, identity_id, identity_session_id, redirect_uri, code_challenge, visitor_id, expires_at, used_at, oauth_session_id';

export async function insertCode(
  db: Queryable,
  c: {
    siteId: string; codeHash: string; clientId: string; identityId: string; identitySessionId: string | null; redirectUri: string | null;
    codeChallenge: string; visitorId: string | null; now: Date; expiresAt: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO authorization_codes (site_id, code_hash, client_id, identity_id, identity_session_id, redirect_uri, code_challenge, visitor_id, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [c.siteId, c.codeHash, c.clientId, c.identityId, c.identitySessionId, c.redirectUri, c.codeChallenge, c.visitorId, c.now, c.expiresAt],
  );
}

/** Uses a code once: one conditional UPDATE, so two exchanges at once cannot both win. */
export async function useCode(db: Queryable, siteId: string, codeHash: string, now: Date): Promise<AuthorizationCodeRow | undefined> {
  const rows = await db.query<AuthorizationCodeRow & Record<string, unknown>>(
    `UPDATE authorization_codes SET used_at = $3 WHERE site_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING ${CODE_COLUMNS}`,
    [siteId, codeHash, now],
  );
  return rows[0];
}

export async function findCode(db: Queryable, siteId: string, codeHash: string): Promise<AuthorizationCodeRow | undefined> {
  const rows = await db.query<AuthorizationCodeRow & Record<string, unknown>>(
    `SELECT ${CODE_COLUMNS} FROM authorization_codes WHERE site_id = $1 AND code_hash = $2`, [siteId, codeHash]);
  return rows[0];
}

export async function setCodeSession(db: Queryable, siteId: string, codeHash: string, oauthSessionId: string): Promise<void> {
  await db.query('UPDATE authorization_codes SET oauth_session_id = $3 WHERE site_id = $1 AND code_hash = $2', [siteId, codeHash, oauthSessionId]);
}

/** The identity session a refresh-token session was started from (for logout). */
export async function identitySessionOf(db: Queryable, siteId: string, oauthSessionId: string): Promise<string | undefined> {
  const rows = await db.query<{ identity_session_id: string | null }>(
    'SELECT identity_session_id FROM authorization_codes WHERE site_id = $1 AND oauth_session_id = $2 LIMIT 1', [siteId, oauthSessionId]);
  return rows[0]?.identity_session_id ?? undefined;
}
