// SQL for identities, their sessions, codes and tokens, and the core columns of members. Every
// function reads the handle and the site from the context (the open transaction, if any).
import type { SiteContext } from '../../platform/context.js';
import { prepared } from '../../platform/db.js';
import type { MemberRole } from '../../platform/caller.js';
import type { IdentityStatus, MemberStatus } from './entry.js';

type Ctx = Pick<SiteContext, 'db' | 'siteId'>;

// ─── identities ────────────────────────────────────────────────────────────────────────────────

export interface IdentityRow {
  identity_id: string;
  login_email: string;
  password_hash: string | null;
  password_reset_required: boolean;
  status: IdentityStatus;
  status_reasons: string[];
  email_verified: boolean;
  privacy_status: 'UNDEFINED' | 'PUBLIC' | 'PRIVATE';
  identity_profile: Record<string, unknown>;
  revision: number;
  created_at: Date;
  updated_at: Date;
  last_login_at: Date | null;
}

const IDENTITY_COLUMNS = `identity_id, login_email, password_hash, password_reset_required, status, status_reasons,
  email_verified, privacy_status, identity_profile, revision, created_at, updated_at, last_login_at`;

export interface NewIdentity {
  identityId: string;
  loginEmail: string;
  emailKey: string;
  passwordHash: string | null;
  status: IdentityStatus;
  reasons: string[];
  emailVerified: boolean;
  privacyStatus: IdentityRow['privacy_status'];
  profile: Record<string, unknown>;
  now: Date;
}

/** Inserts the identity unless the e-mail is taken; returns false when it is. */
export async function insertIdentity(ctx: Ctx, identity: NewIdentity): Promise<boolean> {
  const rows = await ctx.db.query(
    `INSERT INTO identities (site_id, identity_id, login_email, login_email_key, password_hash, status, status_reasons,
       email_verified, privacy_status, identity_profile, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $11)
     ON CONFLICT (site_id, login_email_key) DO NOTHING
     RETURNING identity_id`,
    [
      ctx.siteId, identity.identityId, identity.loginEmail, identity.emailKey, identity.passwordHash, identity.status,
      identity.reasons, identity.emailVerified, identity.privacyStatus, JSON.stringify(identity.profile), identity.now,
    ],
  );
  return rows.length === 1;
}

export async function findIdentityByEmail(ctx: Ctx, emailKey: string): Promise<IdentityRow | undefined> {
  const rows = await ctx.db.query<IdentityRow & Record<string, unknown>>(
    `SELECT ${IDENTITY_COLUMNS} FROM identities WHERE site_id = $1 AND login_email_key = $2`, [ctx.siteId, emailKey]);
  return rows[0];
}

export async function findIdentity(ctx: Ctx, identityId: string, forUpdate = false): Promise<IdentityRow | undefined> {
  const rows = await ctx.db.query<IdentityRow & Record<string, unknown>>(
    `SELECT ${IDENTITY_COLUMNS} FROM identities WHERE site_id = $1 AND identity_id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
    [ctx.siteId, identityId],
  );
  return rows[0];
}

export async function updateIdentityStatus(
  ctx: Ctx, identityId: string,
  change: { status: IdentityStatus; reasons: string[]; emailVerified?: boolean; now: Date },
): Promise<IdentityRow | undefined> {
  const rows = await ctx.db.query<IdentityRow & Record<string, unknown>>(
    `UPDATE identities SET status = $3, status_reasons = $4, email_verified = COALESCE($5, email_verified),
       updated_at = $6, revision = revision + 1
     WHERE site_id = $1 AND identity_id = $2 RETURNING ${IDENTITY_COLUMNS}`,
    [ctx.siteId, identityId, change.status, change.reasons, change.emailVerified ?? null, change.now],
  );
  return rows[0];
}

/**
 * Removes identities whose members were deleted, with their sessions, codes and links: the
 * e-mails are free again and nothing of theirs signs in once the transaction commits.
 */
export async function deleteIdentities(ctx: Ctx, identityIds: readonly string[]): Promise<void> {
  if (identityIds.length === 0) return;
  for (const table of ['identity_sessions', 'verification_codes', 'recovery_tokens', 'identities']) {
    await ctx.db.query(`DELETE FROM ${table} WHERE site_id = $1 AND identity_id = ANY($2::text[])`, [ctx.siteId, identityIds]);
  }
}

export async function setPassword(ctx: Ctx, identityId: string, passwordHash: string, now: Date): Promise<IdentityRow | undefined> {
  const rows = await ctx.db.query<IdentityRow & Record<string, unknown>>(
    `UPDATE identities SET password_hash = $3, password_reset_required = false, updated_at = $4, revision = revision + 1
     WHERE site_id = $1 AND identity_id = $2 RETURNING ${IDENTITY_COLUMNS}`,
    [ctx.siteId, identityId, passwordHash, now],
  );
  return rows[0];
}

export async function markEmailVerified(ctx: Ctx, identityId: string, now: Date): Promise<void> {
  await ctx.db.query(
    `UPDATE identities SET email_verified = true, updated_at = $3, revision = revision + 1
     WHERE site_id = $1 AND identity_id = $2 AND NOT email_verified`,
    [ctx.siteId, identityId, now],
  );
}

export async function recordLogin(ctx: Ctx, identityId: string, now: Date): Promise<void> {
  await ctx.db.query('UPDATE identities SET last_login_at = $3 WHERE site_id = $1 AND identity_id = $2', [ctx.siteId, identityId, now]);
  await ctx.db.query('UPDATE members SET last_login_at = $3 WHERE site_id = $1 AND member_id = $2', [ctx.siteId, identityId, now]);
}

// ─── members (core columns; the members service owns the rest) ─────────────────────────────────

export interface MemberRow {
  member_id: string;
  login_email: string;
  status: MemberStatus;
  role: MemberRole;
  privacy_status: 'PRIVATE' | 'PUBLIC';
  activity_status: 'ACTIVE' | 'MUTED';
  slug: string;
  profile: Record<string, unknown>;
  contact: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  last_login_at: Date | null;
}

const MEMBER_COLUMNS = `member_id, login_email, status, role, privacy_status, activity_status, slug, profile, contact,
  created_at, updated_at, last_login_at`;

export interface NewMember {
  memberId: string;
  loginEmail: string;
  status: MemberStatus;
  role: MemberRole;
  privacyStatus: MemberRow['privacy_status'];
  slug: string;
  profile: Record<string, unknown>;
  contact: Record<string, unknown>;
  now: Date;
}

export async function slugTaken(ctx: Ctx, slug: string): Promise<boolean> {
  const rows = await ctx.db.query('SELECT 1 FROM members WHERE site_id = $1 AND slug = $2', [ctx.siteId, slug]);
  return rows.length > 0;
}

/** Inserts the member; undefined when its slug was taken meanwhile (the caller tries another). */
export async function insertMember(ctx: Ctx, member: NewMember): Promise<MemberRow | undefined> {
  const rows = await ctx.db.query<MemberRow & Record<string, unknown>>(
    `INSERT INTO members (site_id, member_id, login_email, status, role, privacy_status, slug, profile, contact, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10, $10)
     ON CONFLICT (site_id, slug) DO NOTHING
     RETURNING ${MEMBER_COLUMNS}`,
    [
      ctx.siteId, member.memberId, member.loginEmail, member.status, member.role, member.privacyStatus, member.slug,
      JSON.stringify(member.profile), JSON.stringify(member.contact), member.now,
    ],
  );
  return rows[0];
}

export async function findMember(ctx: Ctx, memberId: string): Promise<MemberRow | undefined> {
  const rows = await ctx.db.query<MemberRow & Record<string, unknown>>(
    `SELECT ${MEMBER_COLUMNS} FROM members WHERE site_id = $1 AND member_id = $2`, [ctx.siteId, memberId]);
  return rows[0];
}

/** The one query behind every member token renewal: status and role by primary key. */
const FIND_MEMBER_ACCESS = prepared('SELECT status, role, access_epoch FROM members WHERE site_id = $1 AND member_id = $2');

export async function findMemberAccess(
  ctx: Ctx, memberId: string,
): Promise<{ status: MemberStatus; role: MemberRole; access_epoch: number } | undefined> {
  const rows = await ctx.db.query<{ status: MemberStatus; role: MemberRole; access_epoch: number }>(FIND_MEMBER_ACCESS, [ctx.siteId, memberId]);
  return rows[0];
}

/** Ends every access token issued so far to the member (they carry the epoch they were issued in). */
export async function bumpAccessEpoch(ctx: Ctx, memberId: string): Promise<void> {
  await ctx.db.query('UPDATE members SET access_epoch = access_epoch + 1 WHERE site_id = $1 AND member_id = $2', [ctx.siteId, memberId]);
}

/** Changes a member's status under a row lock; returns the previous one (undefined: no such member). */
export async function updateMemberStatus(
  ctx: Ctx, memberId: string, status: MemberStatus, now: Date,
): Promise<{ previous: MemberStatus } | undefined> {
  const rows = await ctx.db.query<{ status: MemberStatus }>(
    'SELECT status FROM members WHERE site_id = $1 AND member_id = $2 FOR UPDATE', [ctx.siteId, memberId]);
  if (!rows[0]) return undefined;
  await ctx.db.query('UPDATE members SET status = $3, updated_at = $4 WHERE site_id = $1 AND member_id = $2', [ctx.siteId, memberId, status, now]);
  return { previous: rows[0].status };
}

// ─── sessions (sessionToken and the hosted pages' cookie) ──────────────────────────────────────

export interface SessionRow {
  session_id: string;
  identity_id: string;
  visitor_id: string | null;
  expires_at: Date;
  revoked_at: Date | null;
}

export async function insertSession(
  ctx: Ctx,
  session: { sessionId: string; tokenHash: string; identityId: string; visitorId: string | null; now: Date; expiresAt: Date },
): Promise<void> {
  await ctx.db.query(
    `INSERT INTO identity_sessions (site_id, session_id, token_hash, identity_id, visitor_id, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [ctx.siteId, session.sessionId, session.tokenHash, session.identityId, session.visitorId, session.now, session.expiresAt],
  );
}

export async function findSessionByToken(ctx: Ctx, tokenHash: string): Promise<SessionRow | undefined> {
  const rows = await ctx.db.query<SessionRow & Record<string, unknown>>(
    'SELECT session_id, identity_id, visitor_id, expires_at, revoked_at FROM identity_sessions WHERE site_id = $1 AND token_hash = $2',
    [ctx.siteId, tokenHash],
  );
  return rows[0];
}

export async function revokeSession(ctx: Ctx, sessionId: string, now: Date): Promise<void> {
  await ctx.db.query('UPDATE identity_sessions SET revoked_at = $3 WHERE site_id = $1 AND session_id = $2 AND revoked_at IS NULL', [ctx.siteId, sessionId, now]);
}

export async function revokeIdentitySessions(ctx: Ctx, identityId: string, now: Date): Promise<void> {
  await ctx.db.query('UPDATE identity_sessions SET revoked_at = $3 WHERE site_id = $1 AND identity_id = $2 AND revoked_at IS NULL', [ctx.siteId, identityId, now]);
}

// ─── verification codes ────────────────────────────────────────────────────────────────────────

export interface VerificationRow {
  verification_id: string;
  identity_id: string;
  code_hash: string;
  attempts: number;
  visitor_id: string | null;
  expires_at: Date;
  verified_at: Date | null;
}

const VERIFICATION_COLUMNS = 'verification_id, identity_id, code_hash, attempts, visitor_id, expires_at, verified_at';

export async function insertVerification(
  ctx: Ctx,
  v: { verificationId: string; identityId: string; stateTokenHash: string | null; codeHash: string; visitorId: string | null; now: Date; expiresAt: Date },
): Promise<void> {
  await ctx.db.query(
    `INSERT INTO verification_codes (site_id, verification_id, identity_id, state_token_hash, code_hash, visitor_id, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [ctx.siteId, v.verificationId, v.identityId, v.stateTokenHash, v.codeHash, v.visitorId, v.now, v.expiresAt],
  );
}

/** Locks the verification row, so two attempts at once count as two tries. */
export async function findVerificationByState(ctx: Ctx, stateTokenHash: string): Promise<VerificationRow | undefined> {
  const rows = await ctx.db.query<VerificationRow & Record<string, unknown>>(
    `SELECT ${VERIFICATION_COLUMNS} FROM verification_codes WHERE site_id = $1 AND state_token_hash = $2 FOR UPDATE`,
    [ctx.siteId, stateTokenHash],
  );
  return rows[0];
}

export async function findVerification(ctx: Ctx, verificationId: string): Promise<VerificationRow | undefined> {
  const rows = await ctx.db.query<VerificationRow & Record<string, unknown>>(
    `SELECT ${VERIFICATION_COLUMNS} FROM verification_codes WHERE site_id = $1 AND verification_id = $2 FOR UPDATE`,
    [ctx.siteId, verificationId],
  );
  return rows[0];
}

export async function countVerificationAttempt(ctx: Ctx, verificationId: string): Promise<void> {
  await ctx.db.query('UPDATE verification_codes SET attempts = attempts + 1 WHERE site_id = $1 AND verification_id = $2', [ctx.siteId, verificationId]);
}

export async function markVerified(ctx: Ctx, verificationId: string, now: Date): Promise<void> {
  await ctx.db.query('UPDATE verification_codes SET verified_at = $3 WHERE site_id = $1 AND verification_id = $2', [ctx.siteId, verificationId, now]);
}

/** A new code for the same state token (resend): fresh tries and expiry. */
export async function replaceCode(ctx: Ctx, verificationId: string, codeHash: string, expiresAt: Date): Promise<void> {
  await ctx.db.query(
    'UPDATE verification_codes SET code_hash = $3, attempts = 0, expires_at = $4 WHERE site_id = $1 AND verification_id = $2',
    [ctx.siteId, verificationId, codeHash, expiresAt],
  );
}

// ─── recovery and activation tokens ────────────────────────────────────────────────────────────

export async function insertRecoveryToken(
  ctx: Ctx,
  token: { tokenHash: string; identityId: string; purpose: 'RECOVERY' | 'ACTIVATION'; now: Date; expiresAt: Date },
): Promise<void> {
  await ctx.db.query(
    `INSERT INTO recovery_tokens (site_id, token_hash, identity_id, purpose, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)`,
    [ctx.siteId, token.tokenHash, token.identityId, token.purpose, token.now, token.expiresAt],
  );
}

/** Uses a recovery token once: returns its identity only if it was unused and unexpired. */
export async function useRecoveryToken(ctx: Ctx, tokenHash: string, now: Date): Promise<{ identity_id: string; purpose: string } | undefined> {
  const rows = await ctx.db.query<{ identity_id: string; purpose: string }>(
    `UPDATE recovery_tokens SET used_at = $3 WHERE site_id = $1 AND token_hash = $2 AND used_at IS NULL AND expires_at > $3
     RETURNING identity_id, purpose`,
    [ctx.siteId, tokenHash, now],
  );
  return rows[0];
}

export async function retireRecoveryTokens(ctx: Ctx, identityId: string, now: Date): Promise<void> {
  await ctx.db.query('UPDATE recovery_tokens SET used_at = $3 WHERE site_id = $1 AND identity_id = $2 AND used_at IS NULL', [ctx.siteId, identityId, now]);
}

// ─── failed logins ─────────────────────────────────────────────────────────────────────────────

export async function recentLoginFailures(ctx: Ctx, emailKey: string, since: Date): Promise<Date[]> {
  const rows = await ctx.db.query<{ failed_at: Date }>(
    'SELECT failed_at FROM login_failures WHERE site_id = $1 AND email_key = $2 AND failed_at > $3 ORDER BY failed_at',
    [ctx.siteId, emailKey, since],
  );
  return rows.map((r) => new Date(r.failed_at));
}

export async function recordLoginFailure(ctx: Ctx, emailKey: string, failureId: string, now: Date, forgetBefore: Date): Promise<void> {
  await ctx.db.query('DELETE FROM login_failures WHERE site_id = $1 AND email_key = $2 AND failed_at <= $3', [ctx.siteId, emailKey, forgetBefore]);
  await ctx.db.query('INSERT INTO login_failures (site_id, email_key, failure_id, failed_at) VALUES ($1, $2, $3, $4)', [ctx.siteId, emailKey, failureId, now]);
}

export async function clearLoginFailures(ctx: Ctx, emailKey: string): Promise<void> {
  await ctx.db.query('DELETE FROM login_failures WHERE site_id = $1 AND email_key = $2', [ctx.siteId, emailKey]);
}
