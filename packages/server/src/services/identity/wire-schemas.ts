// The identity answers: /bodega/v1/my/security (factors.ts) and, below, the sign-in calls. They write the wire and document it (openapi.json).
import { Type } from 'typebox';
import { Timestamp, oneOf } from '../../platform/wire-schema.js';

export const SecurityFactor = Type.Object({
  factorId: Type.String(),
  factorType: oneOf(['TOTP', 'EMAIL'] as const),
  status: oneOf(['ENABLED', 'REQUIRE_ACTIVATION'] as const),
  createdDate: Timestamp,
}, { title: 'SecurityFactor', description: "One of the member's second factors." });

export const RememberedDevice = Type.Object({
  deviceId: Type.String(),
  label: Type.String(),
  createdDate: Timestamp,
  expiresDate: Timestamp,
}, { title: 'RememberedDevice', description: 'A device that signs in without the second factor until `expiresDate`.' });

export const SecurityOverview = Type.Object({
  factors: Type.Array(SecurityFactor),
  recoveryCodesLeft: Type.Integer(),
  devices: Type.Array(RememberedDevice),
}, { title: 'SecurityOverview' });

export const TotpEnrolment = Type.Object({
  factorId: Type.String(),
  secret: Type.String(),
  otpauthUri: Type.String(),
  qrCodeSvg: Type.String({ description: 'The `otpauthUri` as an SVG QR code.' }),
}, { title: 'TotpEnrolment', description: 'An authenticator app waiting for its first code (POST …/totp/confirm).' });

export const FactorAdded = Type.Object({
  factor: SecurityFactor,
  recoveryCodes: Type.Optional(Type.Array(Type.String(), { description: 'With the first factor only: shown once.' })),
}, { title: 'FactorAdded' });

export const RecoveryCodes = Type.Object({
  recoveryCodes: Type.Array(Type.String(), { description: 'Shown once; each replaces all earlier ones.' }),
}, { title: 'RecoveryCodes' });

export const Done = Type.Object({}, { description: 'An empty answer.' });

export const SignedInSession = Type.Object({
  sessionId: Type.String(),
  userAgent: Type.String({ description: "The browser's user agent at sign-in; empty when none was sent." }),
  signedInDate: Timestamp,
  lastUsedDate: Timestamp,
  current: Type.Boolean({ description: 'The sign-in this call was made in.' }),
}, { title: 'SignedInSession', description: "One of the member's sign-ins (a refresh-token family), until it is signed out." });

export const SignedInSessions = Type.Object({ sessions: Type.Array(SignedInSession) }, { title: 'SignedInSessions' });

export const Reauthenticated = Type.Object({
  verifiedDate: Timestamp,
}, { title: 'Reauthenticated', description: 'The password was checked again: factor changes are open for 10 minutes.' });

// The sign-in calls' answers (@wix/identity authentication, verification, recovery): they write
// the wire and are the SDK's Identity and StateMachineResponse.

/** An object echoed as it was given. */
const AsGiven = (description: string) => Type.Object({}, { additionalProperties: true, description });

export const IdentityProfile = Type.Object({
  firstName: Type.Optional(Type.String()),
  lastName: Type.Optional(Type.String()),
  nickname: Type.Optional(Type.String()),
  picture: Type.Optional(Type.String()),
  emails: Type.Optional(Type.Array(Type.String())),
  phones: Type.Optional(Type.Array(Type.String())),
  labels: Type.Optional(Type.Array(Type.String())),
  language: Type.Optional(Type.String()),
  privacyStatus: oneOf(['UNDEFINED', 'PUBLIC', 'PRIVATE'] as const),
  customFields: Type.Optional(Type.Array(Type.Object({
    name: Type.String(),
    value: Type.Optional(AsGiven('As given: strValue, numValue, dateValue, boolValue, listValue or mapValue.')),
  }))),
  addresses: Type.Optional(Type.Array(Type.Object({ address: Type.Optional(AsGiven('As given.')), tag: Type.Optional(Type.String()) }))),
  company: Type.Optional(Type.String()),
  position: Type.Optional(Type.String()),
  birthdate: Type.Optional(Type.String()),
  slug: Type.Optional(Type.String()),
  subscription: Type.Optional(Type.Boolean()),
  vatId: Type.Optional(Type.String()),
}, { title: 'IdentityProfile', additionalProperties: true, description: 'The profile as registered (keys the call did not name are kept as sent).' });

const FactorTypes = ['PASSWORD', 'SMS', 'CALL', 'EMAIL', 'TOTP', 'PUSH', 'WEBAUTHN', 'RECOVERY_CODE'] as const;
const FactorStatuses = ['ENABLED', 'REQUIRE_ACTIVATION', 'REQUIRE_REENROLL', 'ENABLED_BY_RULE', 'DISABLED_BY_RULE'] as const;

export const Factor = Type.Object({
  factorId: Type.String(),
  type: oneOf(FactorTypes),
  status: oneOf(FactorStatuses),
}, { title: 'Factor' });

export const Identity = Type.Object({
  id: Type.String(),
  revision: Type.String(),
  createdDate: Timestamp,
  updatedDate: Timestamp,
  lastLoginDate: Type.Optional(Timestamp),
  identityProfile: IdentityProfile,
  email: Type.Object({ address: Type.String(), isVerified: Type.Boolean() }),
  status: Type.Object({ name: oneOf(['PENDING', 'ACTIVE', 'DELETED', 'BLOCKED', 'OFFLINE'] as const), reasons: Type.Array(Type.String()) }),
  metadata: Type.Object({ tags: Type.Array(Type.String()) }),
  connections: Type.Array(Type.Object({
    idpConnection: Type.Optional(Type.Object({ idpConnectionId: Type.String(), subject: Type.String() })),
    authenticatorConnection: Type.Optional(Type.Object({ authenticatorConnectionId: Type.String(), reEnrollmentRequired: Type.Boolean() })),
  }), { description: 'Always empty: no outside sign-in providers.' }),
  factors: Type.Array(Factor),
}, { title: 'Identity' });

export const MfaFactor = Type.Object({ factorType: oneOf(FactorTypes), factorStatus: oneOf(FactorStatuses) }, { title: 'MfaFactor' });
const MfaReason = oneOf(['USER_SETTINGS', 'HIGH_RISK_LOGIN'] as const);

export const StateMachineResponse = Type.Object({
  state: oneOf(['SUCCESS', 'REQUIRE_EMAIL_VERIFICATION', 'REQUIRE_OWNER_APPROVAL', 'REQUIRE_MFA', 'MFA_CHALLENGE'] as const),
  sessionToken: Type.Optional(Type.String()),
  stateToken: Type.Optional(Type.String()),
  identity: Identity,
  requireMfaData: Type.Optional(Type.Object({
    availableFactors: Type.Array(MfaFactor),
    reason: MfaReason,
  }, { description: 'REQUIRE_MFA: the factors the member may finish with, and why one is asked.' })),
  mfaChallengeData: Type.Optional(Type.Object({
    factorType: oneOf(FactorTypes),
    verificationChallengeData: Type.Object({
      hint: Type.Optional(Type.String({ description: 'EMAIL: where the code was sent.' })),
      webauthnData: Type.Optional(Type.Object({ challengeId: Type.String(), publicKeyCredentialRequestOptionsJson: Type.String() }, { description: 'WEBAUTHN: the passkey challenge (request options as JSON).' })),
    }),
    availableFactors: Type.Array(MfaFactor),
    reason: MfaReason,
  }, { description: 'MFA_CHALLENGE: a code was sent or a passkey is asked for.' })),
  additionalData: Type.Object({
    deviceToken: Type.Optional(Type.Object({ strValue: Type.String() }, { description: 'A remembered device (rememberThisDevice).' })),
  }),
}, { title: 'StateMachineResponse', description: 'The answer of register, login and the verification steps.' });

export const SignOnResponse = Type.Object({ sessionToken: Type.String(), identity: Identity }, { title: 'SignOnResponse' });
export const IdentityResponse = Type.Object({ identity: Identity }, { title: 'IdentityResponse' });
export const StartVerificationResponse = Type.Object({ verificationId: Type.String() }, { title: 'StartVerificationResponse' });
