// The identity's domain values and the answers the sign-in calls give; no I/O.
import type { Caller, MemberRole } from '../../platform/caller.js';
import type { SiteContext } from '../../platform/context.js';
import { ApiError, type FieldViolation } from '../../platform/errors.js';
import type { IdentityStatus, InitialStatus } from './entry.js';
import type { IdentityRow } from './store.js';

/** Application codes the official SDK maps (wire-surface §2.3); JSON strings on the wire. */
export const EMAIL_EXISTS = '-19995';
export const INVALID_PASSWORD = '-19976';
export const RESET_PASSWORD = '-19973';

/**
 * A site's context with, when known, who is asking: the request's context, or one a route
 * builds for a caller that only a token names (sign-on with `<accessToken>,<apiKey>`).
 */
export type CallerContext = SiteContext & { readonly caller?: Caller | null };

export interface Identity {
  identityId: string;
  loginEmail: string;
  status: IdentityStatus;
  statusReasons: string[];
  emailVerified: boolean;
  privacyStatus: 'UNDEFINED' | 'PUBLIC' | 'PRIVATE';
  profile: Record<string, unknown>;
  revision: number;
  hasPassword: boolean;
  createdDate: Date;
  updatedDate: Date;
  lastLoginDate: Date | null;
}

export type AuthState = 'SUCCESS' | 'REQUIRE_EMAIL_VERIFICATION' | 'REQUIRE_OWNER_APPROVAL' | 'REQUIRE_MFA' | 'MFA_CHALLENGE';

/** Factor types of the spec; SMS, CALL and PUSH are answered "not offered". */
export type FactorType = 'PASSWORD' | 'SMS' | 'CALL' | 'EMAIL' | 'TOTP' | 'PUSH' | 'WEBAUTHN' | 'RECOVERY_CODE';
export type FactorStatus = 'ENABLED' | 'REQUIRE_ACTIVATION' | 'REQUIRE_REENROLL' | 'ENABLED_BY_RULE' | 'DISABLED_BY_RULE';
export type MfaReason = 'USER_SETTINGS' | 'HIGH_RISK_LOGIN';

/** A factor a sign-in may be finished with, and its status. */
export interface AvailableFactor {
  factorType: FactorType;
  factorStatus: FactorStatus;
}

/** The answer of register, login and verify (the server's state machine). */
export interface AuthOutcome {
  state: AuthState;
  identity: Identity;
  sessionToken?: string;
  stateToken?: string;
  /** REQUIRE_MFA: the factors the member may finish signing in with, and why one is asked. */
  requireMfa?: { availableFactors: AvailableFactor[]; reason: MfaReason };
  /** MFA_CHALLENGE: a code was sent (EMAIL); the hint names where. */
  mfaChallenge?: {
    factorType: FactorType; hint?: string; availableFactors: AvailableFactor[]; reason: MfaReason;
    /** WEBAUTHN: the passkey challenge to answer (`verificationChallengeData.webauthnData`). */
    webauthn?: { challengeId: string; publicKeyCredentialRequestOptionsJson: string };
  };
  /** A remembered device's token (rememberThisDevice), also set as a cookie for browsers. */
  deviceToken?: string;
}

/** A valid sign-in session found by its token. */
export interface IdentitySession {
  sessionId: string;
  identityId: string;
  visitorId: string | null;
}

export interface NewIdentityInput {
  email: string;
  passwordHash: string | null;
  status: InitialStatus;
  role: MemberRole;
  emailVerified: boolean;
  profile: Record<string, unknown>;
}

export function toIdentity(row: IdentityRow): Identity {
  return {
    identityId: row.identity_id,
    loginEmail: row.login_email,
    status: row.status,
    statusReasons: row.status_reasons,
    emailVerified: row.email_verified,
    privacyStatus: row.privacy_status,
    profile: row.identity_profile,
    revision: row.revision,
    hasPassword: row.password_hash !== null,
    createdDate: new Date(row.created_at),
    updatedDate: new Date(row.updated_at),
    lastLoginDate: row.last_login_at ? new Date(row.last_login_at) : null,
  };
}

/** The visitor a sign-in starts from, whose cart follows them. */
export function visitorOf(ctx: CallerContext): string | null {
  return ctx.caller?.kind === 'ANONYMOUS_VISITOR' ? ctx.caller.subjectId : null;
}

export function emailViolation(): FieldViolation {
  return { field: 'loginId.email', rule: 'FORMAT', description: 'must be a valid e-mail address', data: { type: 'EMAIL' } };
}

export const wrongCredentials = () => new ApiError(400, INVALID_PASSWORD, 'Wrong e-mail or password');

export const notFound = () => ApiError.notFound('NOT_FOUND', 'No such identity');
