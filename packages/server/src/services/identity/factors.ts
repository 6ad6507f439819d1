// A member's own second factors: TOTP enrolment (secret and QR code, confirmed by a first code),
// the EMAIL factor, recovery codes (shown once), and the devices remembered for them.
import QRCode from 'qrcode';
import { recordAudit, type AuditContext } from '../../platform/audit.js';
import { withTransaction, type SiteContext } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { decryptSecret, encryptSecret, type SealedColumn } from '../../platform/secrets.js';
import type { IdentityDeps } from './deps.js';
import * as factorStore from './factors-store.js';
import * as store from './store.js';
import { RECOVERY_CODE_COUNT, acceptedStep, newRecoveryCode, newTotpSecret, recoveryCodeHash, totpUri } from './totp.js';

/** TOTP secrets are sealed with the server key (platform/secrets.ts). */
export const FACTOR_SEALED_COLUMNS: readonly SealedColumn[] = [{ table: 'identity_factors', keys: ['site_id', 'factor_id'], column: 'secret' }];

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

const toFactor = (row: factorStore.FactorRow): SecurityFactor => ({
  factorId: row.factor_id, factorType: row.factor_type, status: row.status, createdDate: new Date(row.created_at).toISOString(),
});

/** The signed-in member (owner, contributor or member) acting on their own sign-in. */
export function selfOf(ctx: AuditContext): string {
  const caller = ctx.caller;
  if (!caller || (caller.kind !== 'MEMBER' && caller.kind !== 'WIX_USER')) throw ApiError.forbidden('Only a signed-in member manages their own sign-in');
  return caller.subjectId;
}

export async function overview(ctx: AuditContext): Promise<SecurityOverview> {
  const identityId = selfOf(ctx);
  const [factors, left, devices] = [
    await factorStore.listFactors(ctx, identityId), await factorStore.recoveryCodesLeft(ctx, identityId), await factorStore.listDevices(ctx, identityId, ctx.now()),
  ];
  return {
    factors: factors.map(toFactor),
    recoveryCodesLeft: left,
    devices: devices.map((d) => ({
      deviceId: d.device_id, label: d.label, createdDate: new Date(d.created_at).toISOString(), expiresDate: new Date(d.expires_at).toISOString(),
    })),
  };
}

/**
 * Starts TOTP enrolment: a new secret (sealed at rest), its `otpauth://` URI and that URI as an
 * SVG QR code. The factor waits for a first code (confirmTotp); an enabled one must be removed first.
 */
export async function startTotp(deps: IdentityDeps, ctx: AuditContext, siteName: string): Promise<{ factorId: string; secret: string; otpauthUri: string; qrCodeSvg: string }> {
  const identityId = selfOf(ctx);
  const identity = await store.findIdentity(ctx, identityId);
  if (!identity) throw ApiError.notFound('NOT_FOUND', 'No such identity');
  const secret = newTotpSecret();
  const row = await factorStore.upsertPendingFactor(ctx, { factorId: newId(), identityId, type: 'TOTP', secret: encryptSecret(deps.keyring, secret), now: ctx.now() });
  if (!row) throw new ApiError(409, 'FACTOR_EXISTS', 'An authenticator app is already set up; remove it before setting up another');
  const otpauthUri = totpUri(secret, siteName, identity.login_email);
  const qrCodeSvg = await QRCode.toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { factorId: row.factor_id, secret, otpauthUri, qrCodeSvg };
}

/** Recovery codes for a member who has none left: 10 new ones, shown once (stored hashed). */
async function issueRecoveryCodes(ctx: SiteContext, identityId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await factorStore.replaceRecoveryCodes(ctx, identityId, codes.map(recoveryCodeHash), ctx.now());
  return codes;
}

/** Confirms TOTP enrolment with a first code; the first factor also brings 10 recovery codes. */
export async function confirmTotp(deps: IdentityDeps, ctx: AuditContext, code: string): Promise<{ factor: SecurityFactor; recoveryCodes?: string[] }> {
  const identityId = selfOf(ctx);
  const result = await withTransaction(ctx, async (tx) => {
    const factor = await factorStore.findFactor(tx, identityId, 'TOTP', true);
    if (!factor || factor.status !== 'REQUIRE_ACTIVATION' || !factor.secret) return new ApiError(404, 'NOT_FOUND', 'No authenticator app waits for its first code; start again');
    const step = acceptedStep(decryptSecret(deps.keyring, factor.secret), code.trim(), tx.now(), null);
    if (step === undefined || !(await factorStore.useTotpStep(tx, factor.factor_id, step, tx.now()))) {
      return new ApiError(400, 'BAD_CODE', 'The code is wrong; check the time on your device', { reason: 'WRONG_CODE' });
    }
    const recoveryCodes = await firstFactorCodes(tx, identityId);
    await recordAudit(tx, { action: 'member.factor_added', objectType: 'member', objectId: identityId, after: { factorType: 'TOTP' } });
    return { factor: toFactor({ ...factor, status: 'ENABLED' }), ...(recoveryCodes && { recoveryCodes }) };
  });
  if (result instanceof ApiError) throw result;
  return result;
}

async function firstFactorCodes(ctx: SiteContext, identityId: string): Promise<string[] | undefined> {
  return (await factorStore.recoveryCodesLeft(ctx, identityId)) > 0 ? undefined : issueRecoveryCodes(ctx, identityId);
}

/** Turns on the EMAIL factor (a code mailed at each sign-in); the first factor brings recovery codes. */
export async function enableEmail(ctx: AuditContext): Promise<{ factor: SecurityFactor; recoveryCodes?: string[] }> {
  const identityId = selfOf(ctx);
  return withTransaction(ctx, async (tx) => {
    const factorId = newId();
    if (!(await factorStore.insertEnabledFactor(tx, { factorId, identityId, type: 'EMAIL', now: tx.now() }))) {
      throw new ApiError(409, 'FACTOR_EXISTS', 'E-mail codes are already on');
    }
    const recoveryCodes = await firstFactorCodes(tx, identityId);
    await recordAudit(tx, { action: 'member.factor_added', objectType: 'member', objectId: identityId, after: { factorType: 'EMAIL' } });
    const factor = (await factorStore.findFactor(tx, identityId, 'EMAIL')) as factorStore.FactorRow;
    return { factor: toFactor(factor), ...(recoveryCodes && { recoveryCodes }) };
  });
}

/** Removes a factor; with the last one go the recovery codes and the remembered devices. */
export async function removeFactor(ctx: AuditContext, factorId: string): Promise<void> {
  const identityId = selfOf(ctx);
  await withTransaction(ctx, async (tx) => {
    const removed = await factorStore.deleteFactor(tx, identityId, factorId);
    if (!removed) throw ApiError.notFound('NOT_FOUND', 'No such factor');
    const left = (await factorStore.listFactors(tx, identityId)).filter((f) => f.status === 'ENABLED');
    if (left.length === 0) {
      await factorStore.deleteRecoveryCodes(tx, identityId);
      await factorStore.revokeAllDevices(tx, identityId, tx.now());
    }
    await recordAudit(tx, { action: 'member.factor_removed', objectType: 'member', objectId: identityId, before: { factorType: removed.factor_type } });
  });
}

/** Replaces every recovery code with 10 new ones (shown once); needs an enabled factor. */
export async function regenerateRecoveryCodes(ctx: AuditContext): Promise<{ recoveryCodes: string[] }> {
  const identityId = selfOf(ctx);
  return withTransaction(ctx, async (tx) => {
    const enabled = (await factorStore.listFactors(tx, identityId)).some((f) => f.status === 'ENABLED');
    if (!enabled) throw new ApiError(400, 'NO_SECOND_FACTOR', 'Set up a second factor before recovery codes');
    const recoveryCodes = await issueRecoveryCodes(tx, identityId);
    await recordAudit(tx, { action: 'member.recovery_codes_regenerated', objectType: 'member', objectId: identityId });
    return { recoveryCodes };
  });
}

/** Forgets a remembered device: its next sign-in asks for the factor again. */
export async function forgetDevice(ctx: AuditContext, deviceId: string): Promise<void> {
  const identityId = selfOf(ctx);
  if (!(await factorStore.revokeDevice(ctx, identityId, deviceId, ctx.now()))) throw ApiError.notFound('NOT_FOUND', 'No such device');
}
