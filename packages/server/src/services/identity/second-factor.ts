// The second step of sign-in: a member with a second factor (or one a rule asks of) gets
// REQUIRE_MFA with a state token instead of a session; `v2/{factorType}/verify` finishes it.
import { randomInt } from 'node:crypto';
import { withTransaction, type SiteContext } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { hashSecret, newId, newSecret } from '../../platform/ids.js';
import { decryptSecret } from '../../platform/secrets.js';
import type { Site } from '../sites/service.js';
import type { IdentityDeps } from './deps.js';
import { emailKey } from './entry.js';
import * as factorStore from './factors-store.js';
import { LOCKOUT_FAILURES, LOCKOUT_WINDOW_MS, lockoutState } from './lockout.js';
import { passkeyFactorRight, startPasskeyFactor } from './passkey-factor.js';
import { hasPasskey } from './passkeys-store.js';
import { verificationCodeMail } from './mail-templates.js';
import { toIdentity, visitorOf, type AuthOutcome, type AvailableFactor, type CallerContext, type FactorType, type MfaReason } from './model.js';
import { createSession } from './sessions.js';
import * as store from './store.js';
import { acceptedStep, recoveryCodeHash } from './totp.js';
import { checkCode, hashCode } from './verification-code.js';

/** How long a sign-in may wait for its second factor. */
export const CHALLENGE_TTL_MS = 10 * 60_000;
/** Wrong codes one waiting sign-in may take (each also counts towards the e-mail's lock-out). */
export const CHALLENGE_MAX_ATTEMPTS = 5;
/** The EMAIL factor's code: valid 10 minutes, 5 tries. */
export const EMAIL_FACTOR_CODE_TTL_MS = 10 * 60_000;
/** A remembered device skips the factor this long. */
export const REMEMBER_DEVICE_MS = 30 * 24 * 3600_000;
/** Lock-out events this recent make a remembered device's sign-in high-risk. */
export const HIGH_RISK_WINDOW_MS = 24 * 3600_000;

/** Factor types whose verification Bodega does not offer (no SMS, voice or push provider). */
const NOT_OFFERED: ReadonlySet<FactorType> = new Set(['SMS', 'CALL', 'PUSH', 'PASSWORD']);

/**
 * The factors an identity may finish a sign-in with: its own, a passkey (WEBAUTHN) when it has
 * one, and recovery codes while any are left. Passkeys alone ask no second step of a password.
 */
export async function availableFactors(ctx: SiteContext, identityId: string): Promise<AvailableFactor[]> {
  const factors = (await factorStore.listFactors(ctx, identityId)).filter((f) => f.status === 'ENABLED');
  const list: AvailableFactor[] = factors.map((f) => ({ factorType: f.factor_type, factorStatus: 'ENABLED' }));
  if (list.length && await hasPasskey(ctx, identityId)) list.push({ factorType: 'WEBAUTHN', factorStatus: 'ENABLED' });
  if (list.length && (await factorStore.recoveryCodesLeft(ctx, identityId)) > 0) list.push({ factorType: 'RECOVERY_CODE', factorStatus: 'ENABLED' });
  return list;
}

/** What a staff member without a factor may use where the owner requires one: e-mail codes, or set up an app. */
const RULE_FACTORS: readonly AvailableFactor[] = [{ factorType: 'EMAIL', factorStatus: 'ENABLED_BY_RULE' }, { factorType: 'TOTP', factorStatus: 'REQUIRE_ACTIVATION' }];

/** The site setting with which the owner requires a second factor of owners and contributors. */
export const STAFF_RULE_SETTING = 'staffSecondFactorRequired';

/** The back office's answer to staff without a factor under the owner's rule: enrol first. */
export const SECOND_FACTOR_REQUIRED = 'SECOND_FACTOR_REQUIRED';

/**
 * The staff gate (every back-office call of an owner or contributor): under the owner's rule, a
 * staff member with no enabled factor is refused with 403 SECOND_FACTOR_REQUIRED, judged by the
 * setting and the factors as they are now, not as when the token was signed. Their own Security
 * calls (`self`) stay open, so they can enrol.
 */
export async function checkStaffFactor(ctx: SiteContext, site: Site, identityId: string): Promise<void> {
  if (site.settings[STAFF_RULE_SETTING] !== true) return;
  if (await factorStore.hasEnabledFactor(ctx, identityId)) return;
  throw new ApiError(403, SECOND_FACTOR_REQUIRED, 'This shop requires staff to sign in with a second factor: set one up under your profile\'s Security first');
}

/** The factors of a sign-in: the member's own, or, for staff without one under the owner's rule, the rule's. */
async function factorsOf(ctx: SiteContext, site: Site, identityId: string): Promise<AvailableFactor[]> {
  const own = await availableFactors(ctx, identityId);
  if (own.length || site.settings[STAFF_RULE_SETTING] !== true) return own;
  const member = await store.findMemberAccess(ctx, identityId);
  if (!member || member.role === 'MEMBER') return own;
  return await hasPasskey(ctx, identityId) ? [...RULE_FACTORS, { factorType: 'WEBAUTHN', factorStatus: 'ENABLED' }] : [...RULE_FACTORS];
}

/**
 * Whether this sign-in must show a second factor, and why: every sign-in of a member with an
 * enabled factor (or of staff under the owner's rule), except from a device remembered for
 * them, unless lock-out events make the sign-in high-risk. Staff from a device never seen for
 * them sign in as HIGH_RISK_LOGIN too.
 */
export async function secondFactorNeeded(
  ctx: SiteContext, site: Site, row: store.IdentityRow, deviceToken: string | undefined,
): Promise<{ reason: MfaReason; factors: AvailableFactor[] } | undefined> {
  const factors = await factorsOf(ctx, site, row.identity_id);
  if (factors.length === 0) return undefined;
  const device = deviceToken ? await factorStore.findDeviceByToken(ctx, hashSecret(deviceToken)) : undefined;
  const remembered = device !== undefined && device.identity_id === row.identity_id && !device.revoked_at
    && new Date(device.expires_at).getTime() > ctx.now().getTime();
  if (!remembered) return { reason: await newStaffDevice(ctx, row.identity_id, device) ? 'HIGH_RISK_LOGIN' : 'USER_SETTINGS', factors };
  const since = new Date(ctx.now().getTime() - HIGH_RISK_WINDOW_MS);
  return (await factorStore.lockedOutSince(ctx, emailKey(row.login_email), since)) ? { reason: 'HIGH_RISK_LOGIN', factors } : undefined;
}

/**
 * A staff member (owner or contributor) signing in from a device never remembered for them (no
 * device token of theirs, even a revoked or expired one): a high-risk sign-in.
 */
async function newStaffDevice(ctx: SiteContext, identityId: string, device: factorStore.DeviceRow | undefined): Promise<boolean> {
  if (device?.identity_id === identityId) return false;
  const member = await store.findMemberAccess(ctx, identityId);
  return member !== undefined && member.role !== 'MEMBER';
}

/**
 * Records a failed login or wrong code towards the e-mail's lock-out; the failure that locks it
 * is also kept as a lock-out event (HIGH_RISK_LOGIN for a day).
 */
export async function countFailure(ctx: SiteContext, key: string, failuresBefore: number, now: Date): Promise<void> {
  const windowStart = new Date(now.getTime() - LOCKOUT_WINDOW_MS);
  await store.recordLoginFailure(ctx, key, newId(), now, windowStart);
  if (failuresBefore + 1 >= LOCKOUT_FAILURES) await factorStore.recordLockoutEvent(ctx, key, now, new Date(now.getTime() - HIGH_RISK_WINDOW_MS));
}

/** Opens the wait for a second factor in the context's transaction; answers REQUIRE_MFA. */
export async function requireSecondFactor(
  ctx: SiteContext, row: store.IdentityRow, visitorId: string | null, need: { reason: MfaReason; factors: AvailableFactor[] },
): Promise<AuthOutcome> {
  const stateToken = newSecret();
  const now = ctx.now();
  await factorStore.insertChallenge(ctx, {
    challengeId: newId(), stateTokenHash: hashSecret(stateToken), identityId: row.identity_id, visitorId, reason: need.reason,
    now, expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
  });
  return { state: 'REQUIRE_MFA', identity: toIdentity(row), stateToken, requireMfa: { availableFactors: need.factors, reason: need.reason } };
}

export interface VerifyFactorInput {
  factorType: string;
  stateToken: string;
  rememberThisDevice?: boolean;
  /** The code of totpData, emailData or recoveryCodeData; absent asks an EMAIL code to be sent. */
  code?: string;
  /** What the remembered device is called in the member's list (the browser's user agent). */
  deviceLabel?: string;
  /** WEBAUTHN: `webauthnData`; without a credential, asks for the passkey challenge. */
  webauthn?: { challengeId?: string; credential?: string };
  /** The request's Host, which names the passkey's relying party. */
  host?: string;
}

const notOffered = (type: string) =>
  new ApiError(400, 'FACTOR_NOT_OFFERED', `The ${type} factor is not offered here; use TOTP, EMAIL, WEBAUTHN (a passkey) or a recovery code`, { factorType: type });
const unknownState = () => new ApiError(404, 'NOT_FOUND', 'Unknown or expired state token; sign in again');
const wrongCode = () => new ApiError(400, 'BAD_CODE', 'The code is wrong', { reason: 'WRONG_CODE' });

/**
 * `v2/{factorType}/verify`: checks the factor of a waiting sign-in. Right: SUCCESS with a session
 * (and a remembered device when asked). Wrong: one of the sign-in's 5 tries and one failure
 * towards the e-mail's lock-out, kept though the call fails. EMAIL without a code mails one and
 * answers MFA_CHALLENGE.
 */
export async function verifyFactor(deps: IdentityDeps, ctx: CallerContext, site: Site, input: VerifyFactorInput): Promise<AuthOutcome> {
  const type = input.factorType.toUpperCase() as FactorType;
  if (NOT_OFFERED.has(type) || !['TOTP', 'EMAIL', 'WEBAUTHN', 'RECOVERY_CODE'].includes(type)) throw notOffered(input.factorType);
  const result: ApiError | AuthOutcome = await withTransaction(ctx, async (tx) => {
    const challenge = await factorStore.lockChallenge(tx, hashSecret(input.stateToken));
    const now = tx.now();
    if (!challenge || challenge.completed_at || new Date(challenge.expires_at).getTime() <= now.getTime()) return unknownState();
    const row = await store.findIdentity(tx, challenge.identity_id);
    if (!row || row.status === 'DELETED') return unknownState();
    const key = emailKey(row.login_email);
    const windowStart = new Date(now.getTime() - LOCKOUT_WINDOW_MS);
    const failures = await store.recentLoginFailures(tx, key, windowStart);
    if (lockoutState(failures, now).locked || challenge.attempts >= CHALLENGE_MAX_ATTEMPTS) {
      return new ApiError(429, 'TOO_MANY_LOGIN_ATTEMPTS', 'Too many wrong codes; sign in again later');
    }
    const factors = await factorsOf(tx, site, row.identity_id);
    if (!factors.some((f) => f.factorType === type && f.factorStatus !== 'REQUIRE_ACTIVATION')) return new ApiError(400, 'FACTOR_NOT_ENABLED', `The member has no ${type} factor`, { factorType: type });
    if (type === 'EMAIL' && !input.code) {
      const code = String(randomInt(1_000_000)).padStart(6, '0');
      await factorStore.setEmailCode(tx, challenge.challenge_id, hashCode(challenge.challenge_id, code), new Date(now.getTime() + EMAIL_FACTOR_CODE_TTL_MS));
      await deps.mail.enqueue(tx, { siteId: tx.siteId, kind: 'identity.sign-in-code', to: row.login_email, ...verificationCodeMail(site.name, code, EMAIL_FACTOR_CODE_TTL_MS / 60_000) });
      return {
        state: 'MFA_CHALLENGE', identity: toIdentity(row), stateToken: input.stateToken,
        mfaChallenge: { factorType: 'EMAIL', hint: maskEmail(row.login_email), availableFactors: factors, reason: challenge.reason },
      };
    }
    if (type === 'WEBAUTHN' && !input.webauthn?.credential) {
      const started = await startPasskeyFactor(deps, tx, challenge.challenge_id, row.identity_id, input.host);
      if (started instanceof ApiError) return started;
      return {
        state: 'MFA_CHALLENGE', identity: toIdentity(row), stateToken: input.stateToken,
        mfaChallenge: { factorType: 'WEBAUTHN', webauthn: started, availableFactors: factors, reason: challenge.reason },
      };
    }
    const code = (input.code ?? '').trim();
    let right = false;
    if (type === 'WEBAUTHN') {
      right = await passkeyFactorRight(tx, challenge.challenge_id, row.identity_id, input.webauthn ?? {});
    } else if (type === 'TOTP') {
      const factor = await factorStore.findFactor(tx, row.identity_id, 'TOTP', true);
      const step = factor?.secret
        ? acceptedStep(decryptSecret(deps.keyring, factor.secret), code, now, factor.last_used_step === null ? null : Number(factor.last_used_step))
        : undefined;
      right = step !== undefined && factor !== undefined && await factorStore.useTotpStep(tx, factor.factor_id, step, now);
    } else if (type === 'RECOVERY_CODE') {
      right = code.length > 0 && await factorStore.useRecoveryCode(tx, row.identity_id, recoveryCodeHash(code), now);
    } else {
      if (!challenge.email_code_hash || !challenge.email_code_expires_at) return new ApiError(400, 'BAD_CODE', 'No code was sent; verify EMAIL without a code first', { reason: 'NO_CODE' });
      const check = checkCode({
        verificationId: challenge.challenge_id, codeHash: challenge.email_code_hash, attempts: challenge.email_attempts,
        expiresAt: new Date(challenge.email_code_expires_at), verifiedAt: null,
      }, code, now);
      if (check === 'EXPIRED') return new ApiError(400, 'BAD_CODE', 'The code has expired; ask for a new one', { reason: 'EXPIRED' });
      if (check === 'EXHAUSTED') return new ApiError(400, 'BAD_CODE', 'Too many wrong codes; ask for a new one', { reason: 'TOO_MANY_ATTEMPTS' });
      right = check === 'OK';
    }
    if (!right) {
      await factorStore.countChallengeAttempt(tx, challenge.challenge_id, type === 'EMAIL');
      await countFailure(tx, key, failures.length, now);
      return wrongCode();
    }
    await factorStore.completeChallenge(tx, challenge.challenge_id, now);
    await store.recordLogin(tx, row.identity_id, now);
    const sessionToken = await createSession(tx, row.identity_id, visitorOf(ctx) ?? challenge.visitor_id);
    let deviceToken: string | undefined;
    if (input.rememberThisDevice === true) {
      deviceToken = newSecret();
      await factorStore.insertDevice(tx, {
        deviceId: newId(), tokenHash: hashSecret(deviceToken), identityId: row.identity_id, label: (input.deviceLabel ?? '').slice(0, 200),
        now, expiresAt: new Date(now.getTime() + REMEMBER_DEVICE_MS),
      });
    }
    return { state: 'SUCCESS', identity: toIdentity({ ...row, last_login_at: now }), sessionToken, ...(deviceToken && { deviceToken }) } satisfies AuthOutcome;
  });
  if (result instanceof ApiError) throw result;
  if (result.state === 'MFA_CHALLENGE') deps.mail.kick();
  return result;
}

/** `j***@example.com`: enough to recognise one's address, not to learn it. */
function maskEmail(email: string): string {
  const at = email.indexOf('@');
  return at <= 0 ? '***' : `${email[0]}***${email.slice(at)}`;
}
