import type { AuthOutcome, Identity } from './model.js';

/** Identity on the wire (`@wix/identity` Identity; the SDK renames id and the dates). */
export function toWireIdentity(identity: Identity): Record<string, unknown> {
  return {
    id: identity.identityId,
    revision: String(identity.revision),
    createdDate: identity.createdDate.toISOString(),
    updatedDate: identity.updatedDate.toISOString(),
    lastLoginDate: identity.lastLoginDate?.toISOString(),
    identityProfile: { ...identity.profile, privacyStatus: identity.privacyStatus },
    email: { address: identity.loginEmail, isVerified: identity.emailVerified },
    status: { name: identity.status, reasons: identity.statusReasons },
    metadata: { tags: [] },
    connections: [],
    factors: identity.hasPassword ? [{ factorId: `${identity.identityId}-password`, type: 'PASSWORD', status: 'ENABLED' }] : [],
  };
}

/** The state-machine answer on the wire (`StateMachineResponse`). */
export interface WireOutcome {
  state: string;
  sessionToken?: string;
  stateToken?: string;
  identity: Record<string, unknown>;
  additionalData: Record<string, unknown>;
  [key: string]: unknown;
}

/** The state-machine answer of register, login and verify. */
export function toWireOutcome(outcome: AuthOutcome): WireOutcome {
  return {
    state: outcome.state,
    sessionToken: outcome.sessionToken,
    stateToken: outcome.stateToken,
    identity: toWireIdentity(outcome.identity),
    ...(outcome.requireMfa && { requireMfaData: outcome.requireMfa }),
    ...(outcome.mfaChallenge && {
      mfaChallengeData: {
        factorType: outcome.mfaChallenge.factorType,
        verificationChallengeData: {
          ...(outcome.mfaChallenge.hint !== undefined && { hint: outcome.mfaChallenge.hint }),
          ...(outcome.mfaChallenge.webauthn && { webauthnData: outcome.mfaChallenge.webauthn }),
        },
        availableFactors: outcome.mfaChallenge.availableFactors,
        reason: outcome.mfaChallenge.reason,
      },
    }),
    additionalData: outcome.deviceToken ? { deviceToken: { strValue: outcome.deviceToken } } : {},
  };
}
