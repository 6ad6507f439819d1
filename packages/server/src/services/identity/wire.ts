import type { Static } from 'typebox';
import type { AuthOutcome, Identity } from './model.js';
import type { Identity as WireIdentity, StateMachineResponse } from './wire-schemas.js';

/** Identity on the wire (`@wix/identity` Identity; the SDK renames id and the dates). */
export function toWireIdentity(identity: Identity): Static<typeof WireIdentity> {
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

/** The state-machine answer of register, login and verify (`StateMachineResponse`). */
export function toWireOutcome(outcome: AuthOutcome): Static<typeof StateMachineResponse> {
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
