// Register, login and sign-on: each ends in `enter`, which answers the next state of sign-in.
import { withTransaction, type SiteContext } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { hashSecret, newSecret } from '../../platform/ids.js';
import type { Site } from '../sites/service.js';
import { completeEmailVerification, createIdentity } from './accounts.js';
import { requireCaptcha } from './captcha.js';
import type { IdentityDeps } from './deps.js';
import { emailKey, entryOf, initialStatus, normaliseEmail, type MemberStatus } from './entry.js';
import { LOCKOUT_WINDOW_MS, lockoutState } from './lockout.js';
import {
  EMAIL_EXISTS, RESET_PASSWORD, emailViolation, toIdentity, visitorOf, wrongCredentials,
  type AuthOutcome, type CallerContext, type Identity,
} from './model.js';
import { hashPassword, passwordViolations, spendPasswordCheck, verifyPassword } from './passwords.js';
import { countFailure, requireSecondFactor, secondFactorNeeded } from './second-factor.js';
import { createSession } from './sessions.js';
import * as store from './store.js';
import { issueCode, useStateCode } from './verification.js';

/**
 * What an identity with correct credentials gets, in the context's transaction: a session
 * token, a verification code by e-mail with a state token, or a wait for the owner. Blocked
 * members never get SUCCESS. A `strong` sign-in (a passkey with user verification) asks no
 * second factor.
 */
export async function enter(
  deps: IdentityDeps, ctx: SiteContext, site: Site, row: store.IdentityRow, memberStatus: MemberStatus | undefined, visitorId: string | null,
  deviceToken?: string, strong = false,
): Promise<AuthOutcome> {
  switch (entryOf({ status: row.status, reasons: row.status_reasons }, memberStatus)) {
    case 'GONE':
      throw wrongCredentials();
    case 'BLOCKED':
      throw new ApiError(403, 'MEMBER_BLOCKED', 'This account may not sign in');
    case 'REQUIRE_OWNER_APPROVAL':
      return { state: 'REQUIRE_OWNER_APPROVAL', identity: toIdentity(row) };
    case 'REQUIRE_EMAIL_VERIFICATION': {
      const stateToken = newSecret();
      await issueCode(deps, ctx, site, row, { stateTokenHash: hashSecret(stateToken), visitorId });
      return { state: 'REQUIRE_EMAIL_VERIFICATION', identity: toIdentity(row), stateToken };
    }
    case 'SUCCESS': {
      // A member with a second factor finishes at v2/{factorType}/verify (second-factor.ts).
      const need = strong ? undefined : await secondFactorNeeded(ctx, site, row, deviceToken);
      if (need) return requireSecondFactor(ctx, row, visitorId, need);
      const now = ctx.now();
      await store.recordLogin(ctx, row.identity_id, now);
      const sessionToken = await createSession(ctx, row.identity_id, visitorId);
      return { state: 'SUCCESS', identity: toIdentity({ ...row, last_login_at: now }), sessionToken };
    }
  }
}

export async function register(
  deps: IdentityDeps, ctx: CallerContext, input: { email: unknown; password: unknown; profile?: Record<string, unknown>; captchaTokens?: unknown },
): Promise<AuthOutcome> {
  const email = normaliseEmail(input.email);
  const violations = [...(email ? [] : [emailViolation()]), ...passwordViolations(input.password)];
  if (!email || violations.length) throw ApiError.validation(violations);
  const site = await deps.sites.activeSite(ctx);
  await requireCaptcha(deps.captcha, site.settings.captchaRequired === true, input.captchaTokens);
  // Hashed before the e-mail is looked at, so a taken e-mail answers in the same time.
  const passwordHash = await hashPassword(input.password as string);
  const status = initialStatus(site.settings.signupPolicy);
  const outcome = await withTransaction(ctx, async (tx) => {
    const row = await createIdentity(tx, { email, passwordHash, status, role: 'MEMBER', emailVerified: false, profile: input.profile ?? {} });
    if (!row) throw new ApiError(400, EMAIL_EXISTS, 'Email already exists');
    return enter(deps, tx, site, row, status.memberStatus, visitorOf(ctx));
  });
  deps.mail.kick();
  return outcome;
}

/** Login answers application errors only: the official SDK crashes on a validationError. */
export async function login(
  deps: IdentityDeps, ctx: CallerContext, input: { email: unknown; password: unknown; captchaTokens?: unknown; deviceToken?: string },
): Promise<AuthOutcome> {
  const site = await deps.sites.activeSite(ctx);
  await requireCaptcha(deps.captcha, site.settings.captchaRequired === true, input.captchaTokens);
  const password = typeof input.password === 'string' ? input.password : '';
  const email = normaliseEmail(input.email);
  if (!email) {
    await spendPasswordCheck(password);
    throw new ApiError(400, 'INVALID_EMAIL', 'The login e-mail is not a valid e-mail address');
  }
  const key = emailKey(email);
  const now = ctx.now();
  const windowStart = new Date(now.getTime() - LOCKOUT_WINDOW_MS);
  const recentFailures = await store.recentLoginFailures(ctx, key, windowStart);
  const lock = lockoutState(recentFailures, now);
  if (lock.locked && lock.until) {
    const retryAfterSeconds = Math.max(1, Math.ceil((lock.until.getTime() - now.getTime()) / 1000));
    throw new ApiError(429, 'TOO_MANY_LOGIN_ATTEMPTS', 'Too many failed logins for this e-mail; try again later', { retryAfterSeconds });
  }
  const row = await store.findIdentityByEmail(ctx, key);
  const failed = async () => {
    await countFailure(ctx, key, recentFailures.length, now);
    return wrongCredentials();
  };
  if (!row || row.status === 'DELETED') {
    await spendPasswordCheck(password);
    throw await failed();
  }
  if (row.password_hash === null || row.password_reset_required) {
    await spendPasswordCheck(password);
    throw new ApiError(400, RESET_PASSWORD, 'The password must be reset before signing in');
  }
  if (!(await verifyPassword(row.password_hash, password))) throw await failed();
  await store.clearLoginFailures(ctx, key);
  const member = await store.findMemberAccess(ctx, row.identity_id);
  const outcome = await withTransaction(ctx, (tx) => enter(deps, tx, site, row, member?.status, visitorOf(ctx), input.deviceToken));
  deps.mail.kick();
  return outcome;
}

/** `verification/v1/auth/verify`: the code behind a state token; answers the next state. */
export async function verifyDuringAuthentication(deps: IdentityDeps, ctx: CallerContext, input: { code: string; stateToken: string }): Promise<AuthOutcome> {
  const site = await deps.sites.activeSite(ctx);
  // A wrong code is answered after the commit, so the try it used up is kept.
  const result: ApiError | AuthOutcome = await withTransaction(ctx, async (tx) => {
    const used = await useStateCode(deps, tx, input);
    if (used instanceof ApiError) return used;
    const member = await store.findMemberAccess(tx, used.row.identity_id);
    return enter(deps, tx, site, used.row, member?.status, visitorOf(ctx) ?? used.visitorId);
  });
  if (result instanceof ApiError) throw result;
  return result;
}

/**
 * `v2/sign-on` (API key): finds or creates the identity (APPROVED, no password) and signs it in.
 * `verifyEmail` marks the e-mail verified. A blocked or unapproved member gets no session.
 */
export async function signOn(
  deps: IdentityDeps, ctx: CallerContext, input: { email: unknown; profile?: Record<string, unknown>; verifyEmail?: boolean },
): Promise<{ sessionToken: string; identity: Identity }> {
  const email = normaliseEmail(input.email);
  if (!email) throw ApiError.validation([emailViolation()]);
  await deps.sites.activeSite(ctx);
  // A refusal is answered after the commit, so a verified e-mail stays verified.
  const result: ApiError | { sessionToken: string; identity: Identity } = await withTransaction(ctx, async (tx) => {
    let row = await store.findIdentityByEmail(tx, emailKey(email));
    if (!row) {
      row = await createIdentity(tx, {
        email, passwordHash: null, status: initialStatus('open'), role: 'MEMBER', emailVerified: input.verifyEmail === true, profile: input.profile ?? {},
      });
      if (!row) return new ApiError(409, EMAIL_EXISTS, 'Email already exists');
    } else if (input.verifyEmail === true && row.status !== 'DELETED') {
      row = await completeEmailVerification(deps.access, tx, row.identity_id);
    }
    const member = await store.findMemberAccess(tx, row.identity_id);
    switch (entryOf({ status: row.status, reasons: row.status_reasons }, member?.status)) {
      case 'SUCCESS':
        break;
      case 'REQUIRE_OWNER_APPROVAL':
        return new ApiError(403, 'MEMBER_NOT_APPROVED', 'This member waits for the owner\'s approval');
      case 'REQUIRE_EMAIL_VERIFICATION':
        return new ApiError(403, 'EMAIL_NOT_VERIFIED', 'This member has not verified their e-mail; sign on with verifyEmail');
      default:
        return new ApiError(403, 'MEMBER_BLOCKED', 'This account may not sign in');
    }
    await store.recordLogin(tx, row.identity_id, tx.now());
    const sessionToken = await createSession(tx, row.identity_id, visitorOf(ctx));
    return { sessionToken, identity: toIdentity(row) };
  });
  if (result instanceof ApiError) throw result;
  return result;
}
