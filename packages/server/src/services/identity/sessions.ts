// Sign-in sessions: the session token register, login, verify and sign-on give, and the hosted
// pages' cookie. Ending every sign-in of an identity also ends its OAuth refresh tokens.
import type { SiteContext } from '../../platform/context.js';
import { hashSecret, newId, newSecret } from '../../platform/ids.js';
import type { IdentityDeps } from './deps.js';
import type { IdentitySession } from './model.js';
import * as store from './store.js';

/** A session token (register, login, verify, sign-on) and the hosted pages' cookie live this long. */
export const SESSION_TTL_MS = 7 * 24 * 3600_000;

/** Starts a session in the context's transaction; returns its token (only the hash is stored). */
export async function createSession(ctx: SiteContext, identityId: string, visitorId: string | null): Promise<string> {
  const token = newSecret();
  const now = ctx.now();
  await store.insertSession(ctx, {
    sessionId: newId(), tokenHash: hashSecret(token), identityId, visitorId, now, expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
  });
  return token;
}

/** A valid (unexpired, unrevoked) session by its token's hash (a redirect session keeps only the hash). */
export async function findSessionByHash(ctx: SiteContext, tokenHash: string): Promise<IdentitySession | undefined> {
  const row = await store.findSessionByToken(ctx, tokenHash);
  if (!row || row.revoked_at || new Date(row.expires_at).getTime() <= ctx.now().getTime()) return undefined;
  return { sessionId: row.session_id, identityId: row.identity_id, visitorId: row.visitor_id };
}

export async function endSession(ctx: SiteContext, sessionId: string): Promise<void> {
  await store.revokeSession(ctx, sessionId, ctx.now());
}

/**
 * Ends every sign-in of an identity: access tokens (by the member's epoch), refresh tokens and
 * session tokens. Called after a change
 * to the member commits, it also drops the access check's cached answer, so the next sign-in
 * on this server reads the new status and role.
 */
export async function endAllSessions(deps: IdentityDeps, ctx: SiteContext, identityId: string): Promise<void> {
  deps.access.forget(ctx, identityId);
  // Access tokens issued so far stop too (they carry the epoch; every server hears the change).
  await store.bumpAccessEpoch(ctx, identityId);
  deps.access.forget(ctx, identityId);
  await deps.oauth.revokeSubject(ctx, identityId);
  await store.revokeIdentitySessions(ctx, identityId, ctx.now());
  // Again: a check that read the row before the commit may have cached the old answer meanwhile.
  deps.access.forget(ctx, identityId);
}
