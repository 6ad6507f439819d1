// SQL for redirect sessions and authorization codes; the handle and the site come from the context.
import type { SiteContext } from '../../platform/context.js';

type Ctx = Pick<SiteContext, 'db' | 'siteId'>;

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
  ctx: Ctx,
  s: {
    id: string; kind: string; clientId: string | null; request: Record<string, unknown>; visitorId: string | null; memberId: string | null;
    sessionTokenHash: string | null; messageOrigin: string | null; now: Date; expiresAt: Date;
  },
): Promise<void> {
  await ctx.db.query(
    `INSERT INTO redirect_sessions (site_id, redirect_session_id, kind, client_id, request, visitor_id, member_id, session_token_hash, message_origin, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10, $11)`,
    [ctx.siteId, s.id, s.kind, s.clientId, JSON.stringify(s.request), s.visitorId, s.memberId, s.sessionTokenHash, s.messageOrigin, s.now, s.expiresAt],
  );
}

export async function findRedirectSession(ctx: Ctx, id: string): Promise<RedirectSessionRow | undefined> {
  const rows = await ctx.db.query<RedirectSessionRow & Record<string, unknown>>(
    `SELECT ${SESSION_COLUMNS} FROM redirect_sessions WHERE site_id = $1 AND redirect_session_id = $2`, [ctx.siteId, id]);
  return rows[0];
}

/** Marks a redirect session used; false when it already was (one code per sign-in link). */
export async function useRedirectSession(ctx: Ctx, id: string, now: Date): Promise<boolean> {
  const rows = await ctx.db.query(
    'UPDATE redirect_sessions SET used_at = $3 WHERE site_id = $1 AND redirect_session_id = $2 AND used_at IS NULL RETURNING redirect_session_id',
    [ctx.siteId, id, now],
  );
  return rows.length === 1;
}

export interface CheckoutHandoverRow {
  visitor_id: string | null;
  member_id: string | null;
  request: Record<string, unknown>;
}

/**
 * Uses a checkout redirect session once: one conditional UPDATE, so of two claims at once only
 * one wins, and only while unexpired and for the checkout it was made for.
 */
export async function claimCheckoutSession(ctx: Ctx, id: string, checkoutId: string, now: Date): Promise<CheckoutHandoverRow | undefined> {
  const rows = await ctx.db.query<CheckoutHandoverRow & Record<string, unknown>>(
    `UPDATE redirect_sessions SET used_at = $4
      WHERE site_id = $1 AND redirect_session_id = $2 AND kind = 'ecomCheckout' AND used_at IS NULL AND expires_at > $4
        AND request->'ecomCheckout'->>'checkoutId' = $3
      RETURNING visitor_id, member_id, request`,
    [ctx.siteId, id, checkoutId, now],
  );
  return rows[0];
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
  ctx: Ctx,
  c: {
    codeHash: string; clientId: string; identityId: string; identitySessionId: string | null; redirectUri: string | null;
    codeChallenge: string; visitorId: string | null; now: Date; expiresAt: Date;
  },
): Promise<void> {
  await ctx.db.query(
    `INSERT INTO authorization_codes (site_id, code_hash, client_id, identity_id, identity_session_id, redirect_uri, code_challenge, visitor_id, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [ctx.siteId, c.codeHash, c.clientId, c.identityId, c.identitySessionId, c.redirectUri, c.codeChallenge, c.visitorId, c.now, c.expiresAt],
  );
}

/** Uses a code once: one conditional UPDATE, so two exchanges at once cannot both win. */
export async function useCode(ctx: Ctx, codeHash: string, now: Date): Promise<AuthorizationCodeRow | undefined> {
  const rows = await ctx.db.query<AuthorizationCodeRow & Record<string, unknown>>(
    `UPDATE authorization_codes SET used_at = $3 WHERE site_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING ${CODE_COLUMNS}`,
    [ctx.siteId, codeHash, now],
  );
  return rows[0];
}

export async function findCode(ctx: Ctx, codeHash: string): Promise<AuthorizationCodeRow | undefined> {
  const rows = await ctx.db.query<AuthorizationCodeRow & Record<string, unknown>>(
    `SELECT ${CODE_COLUMNS} FROM authorization_codes WHERE site_id = $1 AND code_hash = $2`, [ctx.siteId, codeHash]);
  return rows[0];
}

export async function setCodeSession(ctx: Ctx, codeHash: string, oauthSessionId: string): Promise<void> {
  await ctx.db.query('UPDATE authorization_codes SET oauth_session_id = $3 WHERE site_id = $1 AND code_hash = $2', [ctx.siteId, codeHash, oauthSessionId]);
}

/** The identity session a refresh-token session was started from (for logout). */
export async function identitySessionOf(ctx: Ctx, oauthSessionId: string): Promise<string | undefined> {
  const rows = await ctx.db.query<{ identity_session_id: string | null }>(
    'SELECT identity_session_id FROM authorization_codes WHERE site_id = $1 AND oauth_session_id = $2 LIMIT 1', [ctx.siteId, oauthSessionId]);
  return rows[0]?.identity_session_id ?? undefined;
}
