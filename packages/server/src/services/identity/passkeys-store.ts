// SQL for passkeys: credentials, the member's user handle, and ceremony challenges (used once).
import type { SiteContext } from '../../platform/context.js';

type Ctx = Pick<SiteContext, 'db' | 'siteId'>;

export interface PasskeyRow {
  credential_id: string;
  identity_id: string;
  rp_id: string;
  public_key: string;
  counter: string;
  transports: string[];
  device_type: string;
  backed_up: boolean;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

const PASSKEY_COLUMNS = 'credential_id, identity_id, rp_id, public_key, counter, transports, device_type, backed_up, name, created_at, last_used_at';

export async function listPasskeys(ctx: Ctx, identityId: string): Promise<PasskeyRow[]> {
  return ctx.db.query<PasskeyRow & Record<string, unknown>>(
    `SELECT ${PASSKEY_COLUMNS} FROM passkey_credentials WHERE site_id = $1 AND identity_id = $2 ORDER BY created_at, credential_id`,
    [ctx.siteId, identityId]);
}

export async function hasPasskey(ctx: Ctx, identityId: string): Promise<boolean> {
  const rows = await ctx.db.query('SELECT 1 FROM passkey_credentials WHERE site_id = $1 AND identity_id = $2 LIMIT 1', [ctx.siteId, identityId]);
  return rows.length > 0;
}

/** A credential of this site, locked for the sign-in that checks and moves its counter. */
export async function lockPasskey(ctx: Ctx, credentialId: string): Promise<PasskeyRow | undefined> {
  const rows = await ctx.db.query<PasskeyRow & Record<string, unknown>>(
    `SELECT ${PASSKEY_COLUMNS} FROM passkey_credentials WHERE site_id = $1 AND credential_id = $2 FOR UPDATE`, [ctx.siteId, credentialId]);
  return rows[0];
}

/** Stores a new credential; false when the credential is already registered on this site. */
export async function insertPasskey(
  ctx: Ctx,
  p: { credentialId: string; identityId: string; rpId: string; publicKey: string; counter: number; transports: string[]; deviceType: string; backedUp: boolean; name: string; now: Date },
): Promise<PasskeyRow | undefined> {
  const rows = await ctx.db.query<PasskeyRow & Record<string, unknown>>(
    `INSERT INTO passkey_credentials (site_id, credential_id, identity_id, rp_id, public_key, counter, transports, device_type, backed_up, name, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT DO NOTHING RETURNING ${PASSKEY_COLUMNS}`,
    [ctx.siteId, p.credentialId, p.identityId, p.rpId, p.publicKey, p.counter, p.transports, p.deviceType, p.backedUp, p.name, p.now]);
  return rows[0];
}

export async function recordPasskeyUse(ctx: Ctx, credentialId: string, counter: number, now: Date): Promise<void> {
  await ctx.db.query('UPDATE passkey_credentials SET counter = $3, last_used_at = $4 WHERE site_id = $1 AND credential_id = $2',
    [ctx.siteId, credentialId, counter, now]);
}

export async function renamePasskey(ctx: Ctx, identityId: string, credentialId: string, name: string): Promise<PasskeyRow | undefined> {
  const rows = await ctx.db.query<PasskeyRow & Record<string, unknown>>(
    `UPDATE passkey_credentials SET name = $4 WHERE site_id = $1 AND identity_id = $2 AND credential_id = $3 RETURNING ${PASSKEY_COLUMNS}`,
    [ctx.siteId, identityId, credentialId, name]);
  return rows[0];
}

export async function deletePasskey(ctx: Ctx, identityId: string, credentialId: string): Promise<PasskeyRow | undefined> {
  const rows = await ctx.db.query<PasskeyRow & Record<string, unknown>>(
    `DELETE FROM passkey_credentials WHERE site_id = $1 AND identity_id = $2 AND credential_id = $3 RETURNING ${PASSKEY_COLUMNS}`,
    [ctx.siteId, identityId, credentialId]);
  return rows[0];
}

// ─── user handles ──────────────────────────────────────────────────────────────────────────────

/** The member's user handle, made on first use (of two at once, the first stored wins). */
export async function userHandle(ctx: Ctx, identityId: string, fresh: string): Promise<string> {
  await ctx.db.query('INSERT INTO passkey_user_handles (site_id, identity_id, user_handle) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
    [ctx.siteId, identityId, fresh]);
  const rows = await ctx.db.query<{ user_handle: string }>('SELECT user_handle FROM passkey_user_handles WHERE site_id = $1 AND identity_id = $2',
    [ctx.siteId, identityId]);
  return rows[0]?.user_handle ?? fresh;
}

export async function identityOfHandle(ctx: Ctx, handle: string): Promise<string | undefined> {
  const rows = await ctx.db.query<{ identity_id: string }>('SELECT identity_id FROM passkey_user_handles WHERE site_id = $1 AND user_handle = $2',
    [ctx.siteId, handle]);
  return rows[0]?.identity_id;
}

// ─── ceremony challenges ───────────────────────────────────────────────────────────────────────

export type CeremonyPurpose = 'REGISTER' | 'SIGN_IN' | 'SECOND_FACTOR';

export interface CeremonyRow {
  challenge_id: string;
  purpose: CeremonyPurpose;
  challenge: string;
  identity_id: string | null;
  mfa_challenge_id: string | null;
  rp_id: string;
  origin: string;
}

export async function insertCeremony(
  ctx: Ctx,
  c: { challengeId: string; purpose: CeremonyPurpose; challenge: string; identityId: string | null; mfaChallengeId: string | null; rpId: string; origin: string; now: Date; expiresAt: Date },
): Promise<void> {
  // Spent and expired challenges of the site go as new ones come.
  await ctx.db.query('DELETE FROM webauthn_challenges WHERE site_id = $1 AND expires_at < $2', [ctx.siteId, c.now]);
  await ctx.db.query(
    `INSERT INTO webauthn_challenges (site_id, challenge_id, purpose, challenge, identity_id, mfa_challenge_id, rp_id, origin, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [ctx.siteId, c.challengeId, c.purpose, c.challenge, c.identityId, c.mfaChallengeId, c.rpId, c.origin, c.now, c.expiresAt]);
}

/** Takes a challenge once: unknown, spent, expired or of another purpose answers undefined. */
export async function takeCeremony(ctx: Ctx, challengeId: string, purpose: CeremonyPurpose, now: Date): Promise<CeremonyRow | undefined> {
  const rows = await ctx.db.query<CeremonyRow & Record<string, unknown>>(
    `UPDATE webauthn_challenges SET used_at = $4
      WHERE site_id = $1 AND challenge_id = $2 AND purpose = $3 AND used_at IS NULL AND expires_at > $4
      RETURNING challenge_id, purpose, challenge, identity_id, mfa_challenge_id, rp_id, origin`,
    [ctx.siteId, challengeId, purpose, now]);
  return rows[0];
}
