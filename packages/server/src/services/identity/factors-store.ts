// SQL for second factors, recovery codes, sign-ins waiting for a factor, and remembered devices.
import type { SiteContext } from '../../platform/context.js';

type Ctx = Pick<SiteContext, 'db' | 'siteId'>;

export type StoredFactorType = 'TOTP' | 'EMAIL';

export interface FactorRow {
  factor_id: string;
  identity_id: string;
  factor_type: StoredFactorType;
  status: 'ENABLED' | 'REQUIRE_ACTIVATION';
  secret: string | null;
  last_used_step: string | null;
  created_at: Date;
}

const FACTOR_COLUMNS = 'factor_id, identity_id, factor_type, status, secret, last_used_step, created_at';

export async function listFactors(ctx: Ctx, identityId: string): Promise<FactorRow[]> {
  return ctx.db.query<FactorRow & Record<string, unknown>>(
    `SELECT ${FACTOR_COLUMNS} FROM identity_factors WHERE site_id = $1 AND identity_id = $2 ORDER BY created_at, factor_id`, [ctx.siteId, identityId]);
}

/** Whether the identity has a factor it can sign in with (not one waiting for its first code). */
export async function hasEnabledFactor(ctx: Ctx, identityId: string): Promise<boolean> {
  const rows = await ctx.db.query<{ one: number }>(
    `SELECT 1 AS one FROM identity_factors WHERE site_id = $1 AND identity_id = $2 AND status = 'ENABLED' LIMIT 1`, [ctx.siteId, identityId]);
  return rows.length > 0;
}

export async function findFactor(ctx: Ctx, identityId: string, type: StoredFactorType, forUpdate = false): Promise<FactorRow | undefined> {
  const rows = await ctx.db.query<FactorRow & Record<string, unknown>>(
    `SELECT ${FACTOR_COLUMNS} FROM identity_factors WHERE site_id = $1 AND identity_id = $2 AND factor_type = $3${forUpdate ? ' FOR UPDATE' : ''}`,
    [ctx.siteId, identityId, type]);
  return rows[0];
}

/** Starts (or restarts) a factor waiting for activation; an enabled one of the type is left alone. */
export async function upsertPendingFactor(
  ctx: Ctx, f: { factorId: string; identityId: string; type: StoredFactorType; secret: string | null; now: Date },
): Promise<FactorRow | undefined> {
  const rows = await ctx.db.query<FactorRow & Record<string, unknown>>(
    `INSERT INTO identity_factors (site_id, factor_id, identity_id, factor_type, status, secret, created_at)
     VALUES ($1, $2, $3, $4, 'REQUIRE_ACTIVATION', $5, $6)
     ON CONFLICT (site_id, identity_id, factor_type) DO UPDATE SET secret = EXCLUDED.secret, created_at = EXCLUDED.created_at, last_used_step = NULL
       WHERE identity_factors.status = 'REQUIRE_ACTIVATION'
     RETURNING ${FACTOR_COLUMNS}`,
    [ctx.siteId, f.factorId, f.identityId, f.type, f.secret, f.now]);
  return rows[0];
}

export async function insertEnabledFactor(ctx: Ctx, f: { factorId: string; identityId: string; type: StoredFactorType; now: Date }): Promise<boolean> {
  const rows = await ctx.db.query(
    `INSERT INTO identity_factors (site_id, factor_id, identity_id, factor_type, status, created_at, activated_at)
     VALUES ($1, $2, $3, $4, 'ENABLED', $5, $5) ON CONFLICT DO NOTHING RETURNING factor_id`,
    [ctx.siteId, f.factorId, f.identityId, f.type, f.now]);
  return rows.length > 0;
}

/**
 * Records a TOTP step as used, only when it is later than the last one: of two sign-ins with the
 * same code at once, one wins. Activates a pending factor on its first code.
 */
export async function useTotpStep(ctx: Ctx, factorId: string, step: number, now: Date): Promise<boolean> {
  const rows = await ctx.db.query(
    `UPDATE identity_factors SET last_used_step = $3, status = 'ENABLED', activated_at = COALESCE(activated_at, $4)
      WHERE site_id = $1 AND factor_id = $2 AND (last_used_step IS NULL OR last_used_step < $3) RETURNING factor_id`,
    [ctx.siteId, factorId, step, now]);
  return rows.length > 0;
}

export async function deleteFactor(ctx: Ctx, identityId: string, factorId: string): Promise<FactorRow | undefined> {
  const rows = await ctx.db.query<FactorRow & Record<string, unknown>>(
    `DELETE FROM identity_factors WHERE site_id = $1 AND identity_id = $2 AND factor_id = $3 RETURNING ${FACTOR_COLUMNS}`,
    [ctx.siteId, identityId, factorId]);
  return rows[0];
}

// ─── recovery codes ────────────────────────────────────────────────────────────────────────────

export async function replaceRecoveryCodes(ctx: Ctx, identityId: string, hashes: readonly string[], now: Date): Promise<void> {
  await ctx.db.query('DELETE FROM identity_recovery_codes WHERE site_id = $1 AND identity_id = $2', [ctx.siteId, identityId]);
  await ctx.db.query(
    `INSERT INTO identity_recovery_codes (site_id, code_hash, identity_id, created_at)
     SELECT $1, h, $2, $4 FROM unnest($3::text[]) AS h`,
    [ctx.siteId, identityId, hashes, now]);
}

export async function deleteRecoveryCodes(ctx: Ctx, identityId: string): Promise<void> {
  await ctx.db.query('DELETE FROM identity_recovery_codes WHERE site_id = $1 AND identity_id = $2', [ctx.siteId, identityId]);
}

export async function recoveryCodesLeft(ctx: Ctx, identityId: string): Promise<number> {
  const rows = await ctx.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM identity_recovery_codes WHERE site_id = $1 AND identity_id = $2 AND used_at IS NULL', [ctx.siteId, identityId]);
  return rows[0]?.n ?? 0;
}

/** Spends a recovery code once; false when it is unknown, another identity's or already used. */
export async function useRecoveryCode(ctx: Ctx, identityId: string, codeHash: string, now: Date): Promise<boolean> {
  const rows = await ctx.db.query(
    `UPDATE identity_recovery_codes SET used_at = $4 WHERE site_id = $1 AND identity_id = $2 AND code_hash = $3 AND used_at IS NULL
     RETURNING code_hash`,
    [ctx.siteId, identityId, codeHash, now]);
  return rows.length > 0;
}

// ─── sign-ins waiting for a second factor ──────────────────────────────────────────────────────

export interface ChallengeRow {
  challenge_id: string;
  identity_id: string;
  visitor_id: string | null;
  reason: 'USER_SETTINGS' | 'HIGH_RISK_LOGIN';
  attempts: number;
  email_code_hash: string | null;
  email_code_expires_at: Date | null;
  email_attempts: number;
  expires_at: Date;
  completed_at: Date | null;
}

export async function insertChallenge(
  ctx: Ctx,
  c: { challengeId: string; stateTokenHash: string; identityId: string; visitorId: string | null; reason: ChallengeRow['reason']; now: Date; expiresAt: Date },
): Promise<void> {
  await ctx.db.query(
    `INSERT INTO mfa_challenges (site_id, challenge_id, state_token_hash, identity_id, visitor_id, reason, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [ctx.siteId, c.challengeId, c.stateTokenHash, c.identityId, c.visitorId, c.reason, c.now, c.expiresAt]);
}

/** The challenge behind a state token, locked for the verification that reads it. */
export async function lockChallenge(ctx: Ctx, stateTokenHash: string): Promise<ChallengeRow | undefined> {
  const rows = await ctx.db.query<ChallengeRow & Record<string, unknown>>(
    `SELECT challenge_id, identity_id, visitor_id, reason, attempts, email_code_hash, email_code_expires_at, email_attempts, expires_at, completed_at
       FROM mfa_challenges WHERE site_id = $1 AND state_token_hash = $2 FOR UPDATE`,
    [ctx.siteId, stateTokenHash]);
  return rows[0];
}

export async function countChallengeAttempt(ctx: Ctx, challengeId: string, emailCode: boolean): Promise<void> {
  await ctx.db.query(
    `UPDATE mfa_challenges SET attempts = attempts + 1, email_attempts = email_attempts + CASE WHEN $3 THEN 1 ELSE 0 END
      WHERE site_id = $1 AND challenge_id = $2`,
    [ctx.siteId, challengeId, emailCode]);
}

export async function setEmailCode(ctx: Ctx, challengeId: string, codeHash: string, expiresAt: Date): Promise<void> {
  await ctx.db.query(
    'UPDATE mfa_challenges SET email_code_hash = $3, email_code_expires_at = $4, email_attempts = 0 WHERE site_id = $1 AND challenge_id = $2',
    [ctx.siteId, challengeId, codeHash, expiresAt]);
}

export async function completeChallenge(ctx: Ctx, challengeId: string, now: Date): Promise<void> {
  await ctx.db.query('UPDATE mfa_challenges SET completed_at = $3 WHERE site_id = $1 AND challenge_id = $2', [ctx.siteId, challengeId, now]);
}

// ─── remembered devices ────────────────────────────────────────────────────────────────────────

export interface DeviceRow {
  device_id: string;
  identity_id: string;
  label: string;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

const DEVICE_COLUMNS = 'device_id, identity_id, label, created_at, expires_at, revoked_at';

export async function insertDevice(
  ctx: Ctx, d: { deviceId: string; tokenHash: string; identityId: string; label: string; now: Date; expiresAt: Date },
): Promise<void> {
  await ctx.db.query(
    `INSERT INTO remembered_devices (site_id, device_id, token_hash, identity_id, label, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [ctx.siteId, d.deviceId, d.tokenHash, d.identityId, d.label, d.now, d.expiresAt]);
}

export async function findDeviceByToken(ctx: Ctx, tokenHash: string): Promise<DeviceRow | undefined> {
  const rows = await ctx.db.query<DeviceRow & Record<string, unknown>>(
    `SELECT ${DEVICE_COLUMNS} FROM remembered_devices WHERE site_id = $1 AND token_hash = $2`, [ctx.siteId, tokenHash]);
  return rows[0];
}

export async function listDevices(ctx: Ctx, identityId: string, now: Date): Promise<DeviceRow[]> {
  return ctx.db.query<DeviceRow & Record<string, unknown>>(
    `SELECT ${DEVICE_COLUMNS} FROM remembered_devices WHERE site_id = $1 AND identity_id = $2 AND revoked_at IS NULL AND expires_at > $3
      ORDER BY created_at DESC, device_id`,
    [ctx.siteId, identityId, now]);
}

export async function revokeDevice(ctx: Ctx, identityId: string, deviceId: string, now: Date): Promise<boolean> {
  const rows = await ctx.db.query(
    `UPDATE remembered_devices SET revoked_at = $4 WHERE site_id = $1 AND identity_id = $2 AND device_id = $3 AND revoked_at IS NULL
     RETURNING device_id`,
    [ctx.siteId, identityId, deviceId, now]);
  return rows.length > 0;
}

export async function revokeAllDevices(ctx: Ctx, identityId: string, now: Date): Promise<void> {
  await ctx.db.query('UPDATE remembered_devices SET revoked_at = $3 WHERE site_id = $1 AND identity_id = $2 AND revoked_at IS NULL', [ctx.siteId, identityId, now]);
}

// ─── lock-out events ───────────────────────────────────────────────────────────────────────────

/** Notes that an e-mail was just locked out; events older than `forgetBefore` go. */
export async function recordLockoutEvent(ctx: Ctx, emailKey: string, now: Date, forgetBefore: Date): Promise<void> {
  await ctx.db.query('DELETE FROM lockout_events WHERE site_id = $1 AND email_key = $2 AND locked_at < $3', [ctx.siteId, emailKey, forgetBefore]);
  await ctx.db.query('INSERT INTO lockout_events (site_id, email_key, locked_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [ctx.siteId, emailKey, now]);
}

export async function lockedOutSince(ctx: Ctx, emailKey: string, since: Date): Promise<boolean> {
  const rows = await ctx.db.query('SELECT 1 FROM lockout_events WHERE site_id = $1 AND email_key = $2 AND locked_at >= $3 LIMIT 1', [ctx.siteId, emailKey, since]);
  return rows.length > 0;
}
