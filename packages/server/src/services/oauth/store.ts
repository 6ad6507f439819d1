import type { SiteContext } from '../../platform/context.js';
import { prepared } from '../../platform/db.js';

type Ctx = Pick<SiteContext, 'db' | 'siteId'>;

export type TokenRole = 'visitor' | 'member';

export interface RefreshTokenRow {
  session_id: string;
  client_id: string;
  role: TokenRole;
  subject_id: string;
  revoked_at: Date | null;
  parent_hash: string | null;
  spent_at: Date | null;
}

export async function insertRefreshToken(
  ctx: Ctx,
  token: { tokenHash: string; sessionId: string; clientId: string; role: TokenRole; subjectId: string; parentHash?: string },
): Promise<void> {
  await ctx.db.query(
    `INSERT INTO refresh_tokens (site_id, token_hash, session_id, client_id, role, subject_id, parent_hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [ctx.siteId, token.tokenHash, token.sessionId, token.clientId, token.role, token.subjectId, token.parentHash ?? null],
  );
}

const FIND_REFRESH_TOKEN = prepared(
  'SELECT session_id, client_id, role, subject_id, revoked_at, parent_hash, spent_at FROM refresh_tokens WHERE site_id = $1 AND token_hash = $2');
const SESSION_REVOKED = prepared('SELECT 1 AS revoked FROM revoked_sessions WHERE site_id = $1 AND session_id = $2');

export async function findRefreshToken(ctx: Ctx, tokenHash: string): Promise<RefreshTokenRow | undefined> {
  const rows = await ctx.db.query<RefreshTokenRow & Record<string, unknown>>(FIND_REFRESH_TOKEN, [ctx.siteId, tokenHash]);
  return rows[0];
}

export async function revokeSession(ctx: Ctx, sessionId: string): Promise<number> {
  const rows = await ctx.db.query(
    'UPDATE refresh_tokens SET revoked_at = now() WHERE site_id = $1 AND session_id = $2 AND revoked_at IS NULL RETURNING session_id',
    [ctx.siteId, sessionId],
  );
  return rows.length;
}

/**
 * Serialises the refresh grants of one sign-in (a family): every grant locks the family's first
 * token before it reads or changes any token of the family, so two grants never interleave.
 */
export async function lockFamily(ctx: Ctx, sessionId: string): Promise<void> {
  await ctx.db.query('SELECT 1 FROM refresh_tokens WHERE session_id = $1 AND site_id = $2 AND parent_hash IS NULL FOR UPDATE', [sessionId, ctx.siteId]);
}

/**
 * A token of the family is being used: its parent is spent (a child of it was used) and its
 * unused children are spent (a newer child replaces them).
 */
export async function spendAround(ctx: Ctx, token: { tokenHash: string; parentHash: string | null }, now: Date): Promise<void> {
  await ctx.db.query(
    `UPDATE refresh_tokens SET spent_at = $4 WHERE site_id = $1 AND spent_at IS NULL
       AND (token_hash = $2 OR parent_hash = $3)`,
    [ctx.siteId, token.parentHash, token.tokenHash, now],
  );
}

/** Revokes a visitor's session, whose refresh token is signed rather than stored. */
export async function revokeVisitorSession(ctx: Ctx, sessionId: string): Promise<void> {
  await ctx.db.query('INSERT INTO revoked_sessions (site_id, session_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [ctx.siteId, sessionId]);
}

export async function isSessionRevoked(ctx: Ctx, sessionId: string): Promise<boolean> {
  const rows = await ctx.db.query(SESSION_REVOKED, [ctx.siteId, sessionId]);
  return rows.length > 0;
}

export async function findSessionClientId(ctx: Ctx, sessionId: string): Promise<string | undefined> {
  const rows = await ctx.db.query<{ client_id: string }>(
    'SELECT client_id FROM refresh_tokens WHERE site_id = $1 AND session_id = $2 LIMIT 1', [ctx.siteId, sessionId]);
  return rows[0]?.client_id;
}

/** Ends every sign-in of a member (refresh_tokens_by_subject holds members' tokens only). */
export async function revokeSubject(ctx: Ctx, subjectId: string): Promise<number> {
  const rows = await ctx.db.query(
    `UPDATE refresh_tokens SET revoked_at = now() WHERE site_id = $1 AND subject_id = $2 AND role = 'member' AND revoked_at IS NULL
     RETURNING session_id`,
    [ctx.siteId, subjectId],
  );
  return rows.length;
}

export interface SigningKeyRow {
  kid: string;
  algorithm: string;
  secret: string;
}

export async function insertSigningKey(ctx: Ctx, key: { kid: string; algorithm: string; secret: string }): Promise<void> {
  await ctx.db.query('INSERT INTO signing_keys (site_id, kid, algorithm, secret) VALUES ($1, $2, $3, $4)', [
    ctx.siteId, key.kid, key.algorithm, key.secret,
  ]);
}

export async function findSigningKey(ctx: Ctx, kid: string): Promise<SigningKeyRow | undefined> {
  const rows = await ctx.db.query<SigningKeyRow & Record<string, unknown>>(
    'SELECT kid, algorithm, secret FROM signing_keys WHERE site_id = $1 AND kid = $2', [ctx.siteId, kid]);
  return rows[0];
}

export async function findNewestSigningKey(ctx: Ctx): Promise<SigningKeyRow | undefined> {
  const rows = await ctx.db.query<SigningKeyRow & Record<string, unknown>>(
    'SELECT kid, algorithm, secret FROM signing_keys WHERE site_id = $1 ORDER BY created_at DESC LIMIT 1', [ctx.siteId]);
  return rows[0];
}
