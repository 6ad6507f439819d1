// A member's own sign-ins (refresh-token families) on their Security page: the list with device and
// last use, "sign out" of one, and the recent-authentication window that guards factor changes (the
// password checked again within 10 minutes, or a sign-in that recent).
import type { Static } from 'typebox';
import { recordAudit, type AuditContext } from '../../platform/audit.js';
import { ApiError } from '../../platform/errors.js';
import type { IdentityDeps } from './deps.js';
import { emailKey } from './entry.js';
import { LOCKOUT_WINDOW_MS, lockoutState } from './lockout.js';
import { verifyPassword } from './passwords.js';
import { countFailure } from './second-factor.js';
import * as store from './store.js';
import type { SignedInSession as SignedInSessionSchema } from './wire-schemas.js';

/** How long after a sign-in or a password re-check a member may change their second factors. */
export const REAUTHENTICATION_WINDOW_MS = 10 * 60_000;
export const REAUTHENTICATION_REQUIRED = 'REAUTHENTICATION_REQUIRED';

export type SignedInSession = Static<typeof SignedInSessionSchema>;

/** The signed-in member and the sign-in they call from. */
function selfSession(ctx: AuditContext): { memberId: string; sessionId: string | undefined } {
  const caller = ctx.caller;
  if (!caller || (caller.kind !== 'MEMBER' && caller.kind !== 'WIX_USER')) throw ApiError.forbidden('Only a signed-in member manages their own sign-ins');
  return { memberId: caller.subjectId, sessionId: caller.sessionId };
}

export async function listSessions(deps: IdentityDeps, ctx: AuditContext): Promise<{ sessions: SignedInSession[] }> {
  const { memberId, sessionId } = selfSession(ctx);
  const rows = await deps.oauth.memberSessions(ctx, memberId);
  return {
    sessions: rows.map((r) => ({
      sessionId: r.session_id, userAgent: r.user_agent ?? '', signedInDate: new Date(r.created_at).toISOString(),
      lastUsedDate: new Date(r.last_used_at).toISOString(), current: r.session_id === sessionId,
    })),
  };
}

/** Signs out one of the member's own sign-ins: its refresh tokens stop working. Audited. */
export async function endSession(deps: IdentityDeps, ctx: AuditContext, sessionId: string): Promise<void> {
  const { memberId } = selfSession(ctx);
  if (!(await deps.oauth.endMemberSession(ctx, memberId, sessionId))) throw ApiError.notFound('NOT_FOUND', 'No such sign-in');
  await recordAudit(ctx, { action: 'member.session_ended', objectType: 'member', objectId: memberId, after: { sessionId } });
}

/**
 * Checks the member's password again in this sign-in, opening the window for factor changes. A
 * wrong password counts towards the e-mail's lock-out, as at sign-in.
 */
export async function reauthenticate(deps: IdentityDeps, ctx: AuditContext, password: string): Promise<{ verifiedDate: string }> {
  const { memberId, sessionId } = selfSession(ctx);
  if (!sessionId) throw ApiError.forbidden('This token names no sign-in; sign in again');
  const row = await store.findIdentity(ctx, memberId);
  if (!row || row.status === 'DELETED') throw ApiError.forbidden('Only a signed-in member manages their own sign-ins');
  const key = emailKey(row.login_email);
  const now = ctx.now();
  const failures = await store.recentLoginFailures(ctx, key, new Date(now.getTime() - LOCKOUT_WINDOW_MS));
  if (lockoutState(failures, now).locked) throw new ApiError(429, 'TOO_MANY_LOGIN_ATTEMPTS', 'Too many wrong passwords; try again later');
  if (!row.password_hash || !(await verifyPassword(row.password_hash, password))) {
    await countFailure(ctx, key, failures.length, now);
    throw new ApiError(400, 'INVALID_PASSWORD', 'The password is wrong');
  }
  if (!(await deps.oauth.markSessionVerified(ctx, memberId, sessionId))) throw ApiError.unauthenticated('This sign-in has ended; sign in again');
  return { verifiedDate: now.toISOString() };
}

/**
 * Factor changes need a recent authentication: a sign-in or a password re-check in this session
 * within the last 10 minutes; otherwise 403 REAUTHENTICATION_REQUIRED (the page asks for the password).
 */
export async function requireRecentAuthentication(deps: IdentityDeps, ctx: AuditContext): Promise<void> {
  const { memberId, sessionId } = selfSession(ctx);
  const session = sessionId ? await deps.oauth.memberSession(ctx, memberId, sessionId) : undefined;
  const last = Math.max(session ? new Date(session.created_at).getTime() : 0, session?.verified_at ? new Date(session.verified_at).getTime() : 0);
  if (ctx.now().getTime() - last > REAUTHENTICATION_WINDOW_MS) {
    throw new ApiError(403, REAUTHENTICATION_REQUIRED, 'Enter your password again to change how you sign in', { windowMinutes: REAUTHENTICATION_WINDOW_MS / 60_000 });
  }
}
