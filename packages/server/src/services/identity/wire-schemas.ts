// The answers of /bodega/v1/my/security (factors.ts): they write the wire and document it (openapi.json).
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
