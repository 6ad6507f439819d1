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
  ctx: Ctx & Pick<SiteContext, 'now'>,
  token: { tokenHash: string; sessionId: string; clientId: string; role: TokenRole; subjectId: string; parentHash?: string; userAgent?: string },
): Promise<void> {
  await ctx.db.query(
    `INSERT INTO refresh_tokens (site_id, token_hash, session_id, client_id, role, subject_id, parent_hash, user_agent, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [ctx.siteId, token.tokenHash, token.sessionId, token.clientId, token.role, token.subjectId, token.parentHash ?? null, token.userAgent ?? null, ctx.now()],
  );
}

/** One sign-in of a member as their Security page lists it: a refresh-token family not revoked. */
export interface MemberSessionRow {
  session_id: string;
  client_id: string;
  user_agent: string | null;
  /** The family's first token: the sign-in. */
  created_at: Date;
  /** The newest token: the last renewal. */
  last_used_at: Date;
  /** When the password was last checked again in this session, if ever. */
  verified_at: Date | null;
}

const SESSION_COLUMNS = `session_id, min(client_id) AS client_id,
  (array_agg(user_agent ORDER BY created_at) FILTER (WHERE user_agent IS NOT NULL))[1] AS user_agent,
  min(created_at) AS created_at, max(created_at) AS last_used_at, max(verified_at) AS verified_at`;

/** A member's sign-ins not revoked, the most recently used first (at most 100). */
export async function listMemberSessions(ctx: Ctx, subjectId: string): Promise<MemberSessionRow[]> {
  return ctx.db.query<MemberSessionRow & Record<string, unknown>>(
    `SELECT ${SESSION_COLUMNS} FROM refresh_tokens
     WHERE site_id = $1 AND subject_id = $2 AND role = 'member' AND revoked_at IS NULL
     GROUP BY session_id ORDER BY max(created_at) DESC, session_id LIMIT 100`, [ctx.siteId, subjectId]);
}

/** One sign-in of the member (undefined: not theirs, or revoked). */
export async function findMemberSession(ctx: Ctx, subjectId: string, sessionId: string): Promise<MemberSessionRow | undefined> {
  const rows = await ctx.db.query<MemberSessionRow & Record<string, unknown>>(
    `SELECT ${SESSION_COLUMNS} FROM refresh_tokens
     WHERE site_id = $1 AND session_id = $2 AND subject_id = $3 AND role = 'member' AND revoked_at IS NULL
     GROUP BY session_id`, [ctx.siteId, sessionId, subjectId]);
  return rows[0];
}

/** Ends one sign-in of the member; false when it is not theirs or already ended. */
export async function revokeMemberSession(ctx: Ctx, subjectId: string, sessionId: string): Promise<boolean> {
  const rows = await ctx.db.query(
    `UPDATE refresh_tokens SET revoked_at = now() WHERE site_id = $1 AND session_id = $2 AND subject_id = $3 AND role = 'member' AND revoked_at IS NULL
     RETURNING session_id`, [ctx.siteId, sessionId, subjectId]);
  return rows.length > 0;
}

/** The member checked their password again in this sign-in. */
export async function markSessionVerified(ctx: Ctx, subjectId: string, sessionId: string, at: Date): Promise<boolean> {
  const rows = await ctx.db.query(
    `UPDATE refresh_tokens SET verified_at = $4 WHERE site_id = $1 AND session_id = $2 AND subject_id = $3 AND role = 'member' AND revoked_at IS NULL
     RETURNING session_id`, [ctx.siteId, sessionId, subjectId, at]);
  return rows.length > 0;
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
