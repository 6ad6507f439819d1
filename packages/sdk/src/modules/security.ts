/**
 * The signed-in member's own sign-in security (`/bodega/v1/my/security`): second factors,
 * recovery codes, remembered devices, and signing out everywhere.
 */
import { call, callVoid } from '../core/generated.js';
import type { Transport } from '../core/transport.js';
import type { SignedInSession } from '../generated/back-office.js';

export type { SignedInSession };

const P = '/bodega/v1/my/security';

export interface SecurityFactor {
  factorId: string;
  factorType: 'TOTP' | 'EMAIL';
  status: 'ENABLED' | 'REQUIRE_ACTIVATION';
  createdDate: string;
}

export interface RememberedDevice {
  deviceId: string;
  label: string;
  createdDate: string;
  expiresDate: string;
}

export interface SecurityOverview {
  factors: SecurityFactor[];
  recoveryCodesLeft: number;
  devices: RememberedDevice[];
}

export interface TotpEnrolment {
  factorId: string;
  /** Base32, for typing into an authenticator app. */
  secret: string;
  otpauthUri: string;
  /** The URI as an SVG QR code. */
  qrCodeSvg: string;
}

export function security(t: Transport) {
  return {
    overview: () => call<SecurityOverview>(t, 'GET', P),
    startTotp: () => call<TotpEnrolment>(t, 'POST', `${P}/totp`),
    /** The first factor also answers 10 recovery codes, shown once. */
    confirmTotp: (code: string) => call<{ factor: SecurityFactor; recoveryCodes?: string[] }>(t, 'POST', `${P}/totp/confirm`, { code }),
    enableEmail: () => call<{ factor: SecurityFactor; recoveryCodes?: string[] }>(t, 'POST', `${P}/email`),
    removeFactor: (factorId: string) => callVoid(t, 'DELETE', `${P}/factors/${encodeURIComponent(factorId)}`),
    regenerateRecoveryCodes: () => call<{ recoveryCodes: string[] }>(t, 'POST', `${P}/recovery-codes`),
    forgetDevice: (deviceId: string) => callVoid(t, 'DELETE', `${P}/devices/${encodeURIComponent(deviceId)}`),
    signOutEverywhere: () => callVoid(t, 'POST', `${P}/sign-out-everywhere`),
    listSessions: () => call<{ sessions: SignedInSession[] }>(t, 'GET', `${P}/sessions`),
    endSession: (sessionId: string) => callVoid(t, 'DELETE', `${P}/sessions/${encodeURIComponent(sessionId)}`),
    /** Factor changes answer 403 REAUTHENTICATION_REQUIRED 10 minutes after sign-in; this reopens them. */
    reauthenticate: (password: string) => call<{ verifiedDate: string }>(t, 'POST', `${P}/reauthenticate`, { password }),
  };
}
