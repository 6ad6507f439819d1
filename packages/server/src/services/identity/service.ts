import { randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../../platform/db.js';
import type { Caller, MemberRole } from '../../platform/caller.js';
import { DEFAULT_AUTH_RATE_LIMIT_PER_MINUTE } from '../../platform/config.js';
import { ApiError, type FieldViolation } from '../../platform/errors.js';
import { TtlCache } from '../../platform/ttl-cache.js';
import { recordEvent } from '../../platform/events.js';
import { hashSecret, newId, newSecret } from '../../platform/ids.js';
import type { Mailer } from '../../platform/mail.js';
import type { AccessClaims } from '../oauth/service.js';
import type { OAuthService } from '../oauth/service.js';
import type { CreateSiteInput, Site, SitesService } from '../sites/service.js';
import { allowedOrigins, isAllowedUrl } from '../../platform/redirect-uri.js';
import { requireCaptcha, type CaptchaVerifier } from './captcha.js';
import {
  afterEmailVerified, emailKey, entryOf, initialStatus, normaliseEmail,
  type IdentityStatus, type InitialStatus, type MemberStatus,
} from './entry.js';
import { LOCKOUT_WINDOW_MS, lockoutState } from './lockout.js';
import { activationMail, recoveryMail, verificationCodeMail, type MailContent } from './mail-templates.js';
import { hashPassword, passwordViolations, spendPasswordCheck, verifyPassword } from './passwords.js';
import * as store from './store.js';
import { checkCode, codeExpiry, generateCode, hashCode } from './verification-code.js';

/** Application codes the official SDK maps (wire-surface §2.3); JSON strings on the wire. */
export const EMAIL_EXISTS = '-19995';
export const INVALID_PASSWORD = '-19976';
export const RESET_PASSWORD = '-19973';

/** A session token (register, login, verify, sign-on) and the hosted pages' cookie live this long. */
export const SESSION_TTL_MS = 7 * 24 * 3600_000;
export const RECOVERY_TTL_MS = 3600_000;
export const ACTIVATION_TTL_HOURS = 72;
/** Where the official SDK's authentication calls go; hosted sign-in pages post there too. */
export const AUTHENTICATION_PREFIX = '/_api/iam/authentication';

const ACCESS_CACHE_MS = 2000;
const ACCESS_CACHE_SIZE = 20_000;

/** The site and, when known, who is asking; route handlers build it from the request. */
export interface SiteContext {
  siteId: string;
  caller: Caller | null;
}

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

export type AuthState = 'SUCCESS' | 'REQUIRE_EMAIL_VERIFICATION' | 'REQUIRE_OWNER_APPROVAL';

/** The answer of register, login and verify (the server's state machine). */
export interface AuthOutcome {
  state: AuthState;
  identity: Identity;
  sessionToken?: string;
  stateToken?: string;
}

/** A valid sign-in session found by its token. */
export interface IdentitySession {
  sessionId: string;
  identityId: string;
  visitorId: string | null;
}

/**
 * Runs when a visitor becomes a member (at the code exchange and the authorized_client grant),
 * inside one transaction; the commerce service moves the visitor's cart to the member here.
 */
export type VisitorHandOff = (tx: Queryable, siteId: string, visitorId: string, memberId: string) => Promise<void>;

export interface IdentityServiceDeps {
  db: Db;
  sites: SitesService;
  oauth: OAuthService;
  mail: Mailer;
  now: () => Date;
  publicUrl: string;
  captcha: CaptchaVerifier | undefined;
}

export interface NewIdentityInput {
  email: string;
  passwordHash: string | null;
  status: InitialStatus;
  role: MemberRole;
  emailVerified: boolean;
  profile: Record<string, unknown>;
}

function toIdentity(row: store.IdentityRow): Identity {
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

function visitorOf(ctx: SiteContext): string | null {
  return ctx.caller?.kind === 'ANONYMOUS_VISITOR' ? ctx.caller.subjectId : null;
}

function emailViolation(): FieldViolation {
  return { field: 'loginId.email', rule: 'FORMAT', description: 'must be a valid e-mail address', data: { type: 'EMAIL' } };
}

const wrongCredentials = () => new ApiError(400, INVALID_PASSWORD, 'Wrong e-mail or password');

/** A URL slug from a nickname or the e-mail's local part. */
export function slugBase(text: string): string {
  const slug = text.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40);
  return slug || 'member';
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

const ADDRESS_TAGS = ['UNTAGGED', 'HOME', 'WORK', 'BILLING', 'SHIPPING'];

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Custom field values by name, as the members service keeps them (text, number or "YYYY-MM-DD"). */
function customFieldValues(fields: unknown): Record<string, string | number> {
  const values: Record<string, string | number> = {};
  for (const field of Array.isArray(fields) ? fields : []) {
    const { name, value } = record(field);
    const v = record(value);
    if (typeof name !== 'string') continue;
    if (typeof v.strValue === 'string') values[name] = v.strValue;
    else if (typeof v.numValue === 'number' && Number.isFinite(v.numValue)) values[name] = v.numValue;
    else if (typeof v.dateValue === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v.dateValue)) values[name] = v.dateValue.slice(0, 10);
  }
  return values;
}

/** The member's profile and contact (the members service's shapes) from the identity profile. */
function memberShapes(email: string, profile: Record<string, unknown>): { profile: Record<string, unknown>; contact: Record<string, unknown> } {
  const nickname = text(profile.nickname) ?? ([text(profile.firstName), text(profile.lastName)].filter(Boolean).join(' ') || email.split('@')[0]);
  const picture = text(profile.picture);
  const otherEmails = Array.isArray(profile.emails) ? profile.emails.filter((e): e is string => typeof e === 'string' && e !== email) : [];
  const phones = Array.isArray(profile.phones) ? profile.phones.filter((p): p is string => typeof p === 'string') : [];
  const addresses = (Array.isArray(profile.addresses) ? profile.addresses : []).map((wrapper) => {
    const { address, tag } = record(wrapper);
    const a = record(address);
    return {
      id: newId(),
      tag: typeof tag === 'string' && ADDRESS_TAGS.includes(tag) ? tag : 'UNTAGGED',
      addressLine: text(a.addressLine) ?? text(a.addressLine1),
      addressLine2: text(a.addressLine2),
      city: text(a.city),
      subdivision: text(a.subdivision),
      country: text(a.country),
      postalCode: text(a.postalCode),
    };
  });
  const contact: Record<string, unknown> = {
    firstName: text(profile.firstName),
    lastName: text(profile.lastName),
    emails: [{ email, tag: 'MAIN' }, ...otherEmails.map((e) => ({ email: e, tag: 'UNTAGGED' }))],
    phones: phones.map((phone, i) => ({ phone, tag: i === 0 ? 'MAIN' : 'UNTAGGED' })),
    addresses,
    company: text(profile.company),
    jobTitle: text(profile.position),
    birthdate: text(profile.birthdate)?.slice(0, 10),
    customFields: customFieldValues(profile.customFields),
  };
  return { profile: { nickname, ...(picture ? { photo: { url: picture } } : {}) }, contact };
}

export class IdentityService {
  /** Requests per minute per IP on register, login, verification and recovery; 0 turns the limit off. */
  rateLimitPerMinute: number = DEFAULT_AUTH_RATE_LIMIT_PER_MINUTE;
  private readonly handOffs: VisitorHandOff[] = [];
  private readonly accessCache: TtlCache<string, { memberRole: MemberRole } | null>;
  private reportError: (error: unknown, context: string) => void = () => undefined;

  constructor(private readonly deps: IdentityServiceDeps) {
    this.accessCache = new TtlCache({ ttlMs: ACCESS_CACHE_MS, maxSize: ACCESS_CACHE_SIZE, now: deps.now });
    deps.sites.onSiteCreated((tx, site, input) => this.createOwner(tx, site, input));
    deps.oauth.setMemberAccessCheck((siteId, memberId) => this.memberAccess(siteId, memberId));
  }

  private get db(): Db {
    return this.deps.db;
  }

  private now(): Date {
    return this.deps.now();
  }

  /** Where failures that must not fail the request (hand-off hooks) are reported. */
  setErrorReporter(report: (error: unknown, context: string) => void): void {
    this.reportError = report;
  }

  /**
   * Registers a hand-off from a visitor to the member they became. Hooks run in one transaction
   * after the member's tokens are issued; a failing hook is reported, and sign-in still succeeds.
   */
  onVisitorBecameMember(hook: VisitorHandOff): void {
    this.handOffs.push(hook);
  }

  async handOverVisitor(siteId: string, visitorId: string | null, memberId: string): Promise<void> {
    if (!visitorId || visitorId === memberId || this.handOffs.length === 0) return;
    try {
      await this.db.transaction(async (tx) => {
        for (const hook of this.handOffs) await hook(tx, siteId, visitorId, memberId);
      });
    } catch (error) {
      this.reportError(error, 'visitor hand-off');
    }
  }

  /**
   * The OAuth member access check: only APPROVED members renew tokens, with their role. Answers
   * are kept 2 s (every token renewal asks); a block, role change or deletion also revokes the
   * member's refresh tokens, which are never cached, so it takes effect at once on every server.
   */
  async memberAccess(siteId: string, memberId: string): Promise<{ memberRole: MemberRole } | null> {
    const key = `${siteId}/${memberId}`;
    const hit = this.accessCache.lookup(key);
    if (hit) return hit.value;
    const member = await store.findMemberAccess(this.db, siteId, memberId);
    const access = member?.status === 'APPROVED' ? { memberRole: member.role } : null;
    this.accessCache.set(key, access);
    return access;
  }

  // ─── creating identities ────────────────────────────────────────────────────────────────────

  /** Creates an identity and its member in the caller's transaction; undefined if the e-mail is taken. */
  async createIdentityIn(tx: Queryable, siteId: string, input: NewIdentityInput): Promise<store.IdentityRow | undefined> {
    const now = this.now();
    const identityId = newId();
    const privacy = input.profile.privacyStatus;
    const created = await store.insertIdentity(tx, {
      siteId,
      identityId,
      loginEmail: input.email,
      emailKey: emailKey(input.email),
      passwordHash: input.passwordHash,
      status: input.status.identityStatus,
      reasons: input.status.reasons,
      emailVerified: input.emailVerified,
      privacyStatus: privacy === 'PUBLIC' || privacy === 'PRIVATE' ? privacy : 'UNDEFINED',
      profile: input.profile,
      now,
    });
    if (!created) return undefined;
    const shapes = memberShapes(input.email, input.profile);
    const base = slugBase(String(shapes.profile.nickname));
    let slug = base;
    for (let i = 0; i < 5 && (await store.slugTaken(tx, siteId, slug)); i++) slug = `${base}-${randomBytes(3).toString('hex')}`;
    const memberInput = {
      siteId, memberId: identityId, loginEmail: input.email, status: input.status.memberStatus, role: input.role,
      privacyStatus: privacy === 'PUBLIC' ? ('PUBLIC' as const) : ('PRIVATE' as const), profile: shapes.profile, contact: shapes.contact, now,
    };
    // Two sign-ups may pick the same free slug at once: the loser takes a random suffix.
    let member = await store.insertMember(tx, { ...memberInput, slug });
    while (!member) {
      slug = `${base}-${randomBytes(4).toString('hex')}`;
      member = await store.insertMember(tx, { ...memberInput, slug });
    }
    await recordEvent(tx, {
      siteId,
      type: 'member.created',
      entityType: 'member',
      entityId: identityId,
      payload: { memberId: identityId, loginEmail: input.email, status: member.status, role: member.role, slug, createdDate: now.toISOString() },
    });
    return store.findIdentity(tx, siteId, identityId);
  }

  /** Site initializer: `sites create --owner-email E --owner-password W` makes an APPROVED OWNER. */
  private async createOwner(tx: Queryable, site: Site, input: CreateSiteInput): Promise<void> {
    if (input.ownerEmail === undefined) return;
    const email = normaliseEmail(input.ownerEmail);
    const violations = [
      ...(email ? [] : [{ ...emailViolation(), field: 'ownerEmail' }]),
      ...passwordViolations(input.ownerPassword, 'ownerPassword'),
    ];
    if (!email || violations.length) throw ApiError.validation(violations);
    await this.createIdentityIn(tx, site.siteId, {
      email,
      passwordHash: await hashPassword(input.ownerPassword as string),
      status: initialStatus('open'),
      role: 'OWNER',
      emailVerified: true,
      profile: { nickname: 'Owner' },
    });
  }

  // ─── register, login, verification ─────────────────────────────────────────────────────────

  async register(ctx: SiteContext, input: { email: unknown; password: unknown; profile?: Record<string, unknown>; captchaTokens?: unknown }): Promise<AuthOutcome> {
    const email = normaliseEmail(input.email);
    const violations = [...(email ? [] : [emailViolation()]), ...passwordViolations(input.password)];
    if (!email || violations.length) throw ApiError.validation(violations);
    const site = await this.deps.sites.getActiveSite(ctx.siteId);
    await requireCaptcha(this.deps.captcha, site.settings.captchaRequired === true, input.captchaTokens);
    // Hashed before the e-mail is looked at, so a taken e-mail answers in the same time.
    const passwordHash = await hashPassword(input.password as string);
    const status = initialStatus(site.settings.signupPolicy);
    const outcome = await this.db.transaction(async (tx) => {
      const row = await this.createIdentityIn(tx, ctx.siteId, { email, passwordHash, status, role: 'MEMBER', emailVerified: false, profile: input.profile ?? {} });
      if (!row) throw new ApiError(400, EMAIL_EXISTS, 'Email already exists');
      return this.enterIn(tx, site, row, status.memberStatus, visitorOf(ctx));
    });
    this.deps.mail.kick();
    return outcome;
  }

  /** Login answers application errors only: the official SDK crashes on a validationError. */
  async login(ctx: SiteContext, input: { email: unknown; password: unknown; captchaTokens?: unknown }): Promise<AuthOutcome> {
    const site = await this.deps.sites.getActiveSite(ctx.siteId);
    await requireCaptcha(this.deps.captcha, site.settings.captchaRequired === true, input.captchaTokens);
    const password = typeof input.password === 'string' ? input.password : '';
    const email = normaliseEmail(input.email);
    if (!email) {
      await spendPasswordCheck(password);
      throw new ApiError(400, 'INVALID_EMAIL', 'The login e-mail is not a valid e-mail address');
    }
    const key = emailKey(email);
    const now = this.now();
    const lock = lockoutState(await store.recentLoginFailures(this.db, ctx.siteId, key, new Date(now.getTime() - LOCKOUT_WINDOW_MS)), now);
    if (lock.locked && lock.until) {
      const retryAfterSeconds = Math.max(1, Math.ceil((lock.until.getTime() - now.getTime()) / 1000));
      throw new ApiError(429, 'TOO_MANY_LOGIN_ATTEMPTS', 'Too many failed logins for this e-mail; try again later', { retryAfterSeconds });
    }
    const row = await store.findIdentityByEmail(this.db, ctx.siteId, key);
    const failed = async () => {
      await store.recordLoginFailure(this.db, ctx.siteId, key, newId(), now, new Date(now.getTime() - LOCKOUT_WINDOW_MS));
      return wrongCredentials();
    };
    if (!row || row.status === 'DELETED') {
      await spendPasswordCheck(password);
      throw await failed();
    }
    if (row.password_hash === null || row.password_reset_required) {
      await spendPasswordCheck(password);
      throw new ApiError(400, RESET_PASSWORD, 'The password must be reset before signing in');
    }
    if (!(await verifyPassword(row.password_hash, password))) throw await failed();
    await store.clearLoginFailures(this.db, ctx.siteId, key);
    const member = await store.findMemberAccess(this.db, ctx.siteId, row.identity_id);
    const outcome = await this.db.transaction((tx) => this.enterIn(tx, site, row, member?.status, visitorOf(ctx)));
    this.deps.mail.kick();
    return outcome;
  }

  /**
   * What an identity with correct credentials gets: a session token, a verification code by
   * e-mail with a state token, or a wait for the owner. Blocked members never get SUCCESS.
   */
  private async enterIn(tx: Queryable, site: Site, row: store.IdentityRow, memberStatus: MemberStatus | undefined, visitorId: string | null): Promise<AuthOutcome> {
    const entry = entryOf({ status: row.status, reasons: row.status_reasons }, memberStatus);
    switch (entry) {
      case 'GONE':
        throw wrongCredentials();
      case 'BLOCKED':
        throw new ApiError(403, 'MEMBER_BLOCKED', 'This account may not sign in');
      case 'REQUIRE_OWNER_APPROVAL':
        return { state: 'REQUIRE_OWNER_APPROVAL', identity: toIdentity(row) };
      case 'REQUIRE_EMAIL_VERIFICATION': {
        const stateToken = newSecret();
        await this.issueCode(tx, site, row, { stateTokenHash: hashSecret(stateToken), visitorId });
        return { state: 'REQUIRE_EMAIL_VERIFICATION', identity: toIdentity(row), stateToken };
      }
      case 'SUCCESS': {
        const now = this.now();
        await store.recordLogin(tx, site.siteId, row.identity_id, now);
        const sessionToken = await this.createSessionIn(tx, site.siteId, row.identity_id, visitorId);
        return { state: 'SUCCESS', identity: toIdentity({ ...row, last_login_at: now }), sessionToken };
      }
    }
  }

  private async createSessionIn(tx: Queryable, siteId: string, identityId: string, visitorId: string | null): Promise<string> {
    const token = newSecret();
    const now = this.now();
    await store.insertSession(tx, {
      siteId, sessionId: newId(), tokenHash: hashSecret(token), identityId, visitorId, now, expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
    });
    return token;
  }

  private async issueCode(
    tx: Queryable, site: Site, row: store.IdentityRow, options: { stateTokenHash: string | null; visitorId: string | null },
  ): Promise<string> {
    const verificationId = newId();
    const code = generateCode();
    const now = this.now();
    await store.insertVerification(tx, {
      siteId: site.siteId, verificationId, identityId: row.identity_id, stateTokenHash: options.stateTokenHash,
      codeHash: hashCode(verificationId, code), visitorId: options.visitorId, now, expiresAt: codeExpiry(now),
    });
    await this.sendMail(tx, site, 'identity.verification-code', row.login_email, verificationCodeMail(site.name, code));
    return verificationId;
  }

  private async sendMail(tx: Queryable, site: Site, kind: string, to: string, content: MailContent): Promise<void> {
    await this.deps.mail.enqueue(tx, { siteId: site.siteId, kind, to, ...content });
  }

  /** `verification/v1/auth/verify`: the code behind a state token; answers the next state. */
  async verifyDuringAuthentication(ctx: SiteContext, input: { code: string; stateToken: string }): Promise<AuthOutcome> {
    const site = await this.deps.sites.getActiveSite(ctx.siteId);
    // A wrong code is answered after the commit, so the try it used up is kept.
    const result: ApiError | AuthOutcome = await this.db.transaction(async (tx) => {
      const verification = await store.findVerificationByState(tx, ctx.siteId, hashSecret(input.stateToken));
      if (!verification) return new ApiError(404, 'NOT_FOUND', 'Unknown state token; sign in again');
      const failure = await this.useCode(tx, ctx.siteId, verification, input.code);
      if (failure) return failure;
      const row = await this.completeEmailVerification(tx, ctx.siteId, verification.identity_id);
      const member = await store.findMemberAccess(tx, ctx.siteId, verification.identity_id);
      return this.enterIn(tx, site, row, member?.status, visitorOf(ctx) ?? verification.visitor_id);
    });
    if (result instanceof ApiError) throw result;
    return result;
  }

  /** Checks a code; a wrong one uses up one of its tries (kept even though the call fails). */
  private async useCode(tx: Queryable, siteId: string, verification: store.VerificationRow, code: string): Promise<ApiError | undefined> {
    const check = checkCode({
      verificationId: verification.verification_id,
      codeHash: verification.code_hash,
      attempts: verification.attempts,
      expiresAt: new Date(verification.expires_at),
      verifiedAt: verification.verified_at,
    }, code, this.now());
    switch (check) {
      case 'OK':
        await store.markVerified(tx, siteId, verification.verification_id, this.now());
        return undefined;
      case 'WRONG':
        await store.countVerificationAttempt(tx, siteId, verification.verification_id);
        return new ApiError(400, 'BAD_CODE', 'The verification code is wrong', { reason: 'WRONG_CODE' });
      case 'EXPIRED':
        return new ApiError(400, 'BAD_CODE', 'The verification code has expired; ask for a new one', { reason: 'EXPIRED' });
      case 'EXHAUSTED':
        return new ApiError(400, 'BAD_CODE', 'Too many wrong codes; ask for a new one', { reason: 'TOO_MANY_ATTEMPTS' });
      case 'USED':
        return new ApiError(400, 'BAD_CODE', 'The verification code was already used', { reason: 'USED' });
    }
  }

  /** Marks the e-mail verified; a member waiting only for that becomes APPROVED. */
  private async completeEmailVerification(tx: Queryable, siteId: string, identityId: string): Promise<store.IdentityRow> {
    const row = await store.findIdentity(tx, siteId, identityId, true);
    if (!row) throw ApiError.notFound('NOT_FOUND', 'No such identity');
    const now = this.now();
    if (!row.status_reasons.includes('PENDING_EMAIL_VERIFICATION_REQUIRED')) {
      await store.markEmailVerified(tx, siteId, identityId, now);
      return (await store.findIdentity(tx, siteId, identityId)) ?? row;
    }
    const next = afterEmailVerified(row.status_reasons);
    const updated = await store.updateIdentityStatus(tx, siteId, identityId, { status: next.identityStatus, reasons: next.reasons, emailVerified: true, now });
    if (next.memberStatus === 'APPROVED') await this.changeMemberStatusIn(tx, siteId, identityId, 'APPROVED', 'PENDING');
    return updated ?? row;
  }

  /** `verification/v1/auth/resend`: a new code for the same state token. */
  async resendCode(ctx: SiteContext, stateToken: string): Promise<AuthOutcome> {
    const site = await this.deps.sites.getActiveSite(ctx.siteId);
    const outcome = await this.db.transaction(async (tx) => {
      const verification = await store.findVerificationByState(tx, ctx.siteId, hashSecret(stateToken));
      if (!verification || verification.verified_at) throw new ApiError(404, 'NOT_FOUND', 'Unknown state token; sign in again');
      const row = await store.findIdentity(tx, ctx.siteId, verification.identity_id);
      if (!row) throw new ApiError(404, 'NOT_FOUND', 'Unknown state token; sign in again');
      const code = generateCode();
      await store.replaceCode(tx, ctx.siteId, verification.verification_id, hashCode(verification.verification_id, code), codeExpiry(this.now()));
      await this.sendMail(tx, site, 'identity.verification-code', row.login_email, verificationCodeMail(site.name, code));
      return { state: 'REQUIRE_EMAIL_VERIFICATION' as const, identity: toIdentity(row), stateToken };
    });
    this.deps.mail.kick();
    return outcome;
  }

  /** `verification/v1/start`: e-mails a code to verify an identity's e-mail outside sign-in. */
  async startVerification(ctx: SiteContext, identityId: string): Promise<{ verificationId: string }> {
    this.requireSelfOrBackOffice(ctx, identityId);
    const site = await this.deps.sites.getActiveSite(ctx.siteId);
    const verificationId = await this.db.transaction(async (tx) => {
      const row = await store.findIdentity(tx, ctx.siteId, identityId);
      if (!row || row.status === 'DELETED') throw ApiError.notFound('NOT_FOUND', 'No such identity');
      return this.issueCode(tx, site, row, { stateTokenHash: null, visitorId: null });
    });
    this.deps.mail.kick();
    return { verificationId };
  }

  /** `verification/v1/verify`: the code of a verification started with `start`. */
  async verify(ctx: SiteContext, input: { verificationId: string; code: string }): Promise<void> {
    const failure = await this.db.transaction(async (tx) => {
      const verification = await store.findVerification(tx, ctx.siteId, input.verificationId);
      if (!verification) return new ApiError(404, 'NOT_FOUND', 'Unknown verification');
      this.requireSelfOrBackOffice(ctx, verification.identity_id);
      const error = await this.useCode(tx, ctx.siteId, verification, input.code);
      if (error) return error;
      await this.completeEmailVerification(tx, ctx.siteId, verification.identity_id);
      return undefined;
    });
    if (failure) throw failure;
  }

  private requireSelfOrBackOffice(ctx: SiteContext, identityId: string): void {
    const caller = ctx.caller;
    if (caller?.kind === 'APP' || caller?.kind === 'WIX_USER') return;
    if (caller?.kind === 'MEMBER' && caller.subjectId === identityId) return;
    throw ApiError.forbidden('Only the member or the back office may do this');
  }

  // ─── passwords and sessions ────────────────────────────────────────────────────────────────

  /** `v2/change-password` by a signed-in member: every sign-in of theirs ends. */
  async changePassword(ctx: SiteContext, newPassword: unknown): Promise<void> {
    const identityId = ctx.caller?.subjectId;
    if (!identityId || (ctx.caller?.kind !== 'MEMBER' && ctx.caller?.kind !== 'WIX_USER')) throw ApiError.forbidden('Sign in first');
    const violations = passwordViolations(newPassword, 'newPassword');
    if (violations.length) throw ApiError.validation(violations);
    const passwordHash = await hashPassword(newPassword as string);
    await this.db.transaction(async (tx) => {
      const row = await store.setPassword(tx, ctx.siteId, identityId, passwordHash, this.now());
      if (!row) throw ApiError.notFound('NOT_FOUND', 'No such identity');
      await store.retireRecoveryTokens(tx, ctx.siteId, identityId, this.now());
    });
    await this.endAllSessions(ctx.siteId, identityId);
  }

  /**
   * Ends every sign-in of an identity: refresh tokens and session tokens. Called after a change
   * to the member commits, it also drops the access check's cached answer, so the next sign-in
   * on this server reads the new status and role.
   */
  async endAllSessions(siteId: string, identityId: string): Promise<void> {
    this.accessCache.delete(`${siteId}/${identityId}`);
    await this.deps.oauth.revokeSubject(siteId, identityId);
    await store.revokeIdentitySessions(this.db, siteId, identityId, this.now());
    // Again: a check that read the row before the commit may have cached the old answer meanwhile.
    this.accessCache.delete(`${siteId}/${identityId}`);
  }

  /**
   * Deletes the identities of members deleted in the members service's transaction: their e-mails
   * may register again, and their session tokens, codes and links end with the commit. Their
   * refresh tokens end in endAllSessions after it (the OAuth service writes without our transaction).
   */
  async deleteIdentitiesIn(tx: Queryable, siteId: string, identityIds: readonly string[]): Promise<void> {
    await store.deleteIdentities(tx, siteId, identityIds);
  }

  /** A valid (unexpired, unrevoked) session by its token. */
  async findSession(siteId: string, sessionToken: string): Promise<IdentitySession | undefined> {
    const row = await store.findSessionByToken(this.db, siteId, hashSecret(sessionToken));
    if (!row || row.revoked_at || new Date(row.expires_at).getTime() <= this.now().getTime()) return undefined;
    return { sessionId: row.session_id, identityId: row.identity_id, visitorId: row.visitor_id };
  }

  /** The same, by the token's hash (a redirect session keeps only the hash). */
  async findSessionByHash(siteId: string, tokenHash: string): Promise<IdentitySession | undefined> {
    const row = await store.findSessionByToken(this.db, siteId, tokenHash);
    if (!row || row.revoked_at || new Date(row.expires_at).getTime() <= this.now().getTime()) return undefined;
    return { sessionId: row.session_id, identityId: row.identity_id, visitorId: row.visitor_id };
  }

  /**
   * `Authorization: <accessToken>,<apiKey>` (sign-on and the authorized_client grant, as the
   * official SDK sends them): the token names the site and the visitor, the key proves the app.
   */
  async resolveTokenAndApiKey(authorization: string | undefined): Promise<{ siteId: string; keyId: string; claims: AccessClaims }> {
    const value = (authorization ?? '').replace(/^Bearer\s+/i, '').trim();
    const comma = value.indexOf(',');
    if (comma <= 0) throw ApiError.unauthenticated('Send Authorization: <accessToken>,<apiKey>');
    const claims = await this.deps.oauth.tokens.verify(value.slice(0, comma).trim());
    const { keyId } = await this.deps.sites.checkApiKey(claims.siteId, value.slice(comma + 1).trim());
    return { siteId: claims.siteId, keyId, claims };
  }

  async endSession(siteId: string, sessionId: string): Promise<void> {
    await store.revokeSession(this.db, siteId, sessionId, this.now());
  }

  /** Whether an identity may be signed in now (authorize step, code exchange). */
  async mayEnter(siteId: string, identityId: string): Promise<boolean> {
    const row = await store.findIdentity(this.db, siteId, identityId);
    if (!row) return false;
    const member = await store.findMemberAccess(this.db, siteId, identityId);
    return entryOf({ status: row.status, reasons: row.status_reasons }, member?.status) === 'SUCCESS';
  }

  async getIdentity(siteId: string, identityId: string): Promise<Identity | undefined> {
    const row = await store.findIdentity(this.db, siteId, identityId);
    return row && toIdentity(row);
  }

  /**
   * `v2/sign-on` (API key): finds or creates the identity (APPROVED, no password) and signs it in.
   * `verifyEmail` marks the e-mail verified. A blocked or unapproved member gets no session.
   */
  async signOn(ctx: SiteContext, input: { email: unknown; profile?: Record<string, unknown>; verifyEmail?: boolean }): Promise<{ sessionToken: string; identity: Identity }> {
    const email = normaliseEmail(input.email);
    if (!email) throw ApiError.validation([emailViolation()]);
    await this.deps.sites.getActiveSite(ctx.siteId);
    // A refusal is answered after the commit, so a verified e-mail stays verified.
    const result: ApiError | { sessionToken: string; identity: Identity } = await this.db.transaction(async (tx) => {
      let row = await store.findIdentityByEmail(tx, ctx.siteId, emailKey(email));
      if (!row) {
        row = await this.createIdentityIn(tx, ctx.siteId, {
          email, passwordHash: null, status: initialStatus('open'), role: 'MEMBER', emailVerified: input.verifyEmail === true, profile: input.profile ?? {},
        });
        if (!row) return new ApiError(409, EMAIL_EXISTS, 'Email already exists');
      } else if (input.verifyEmail === true && row.status !== 'DELETED') {
        row = await this.completeEmailVerification(tx, ctx.siteId, row.identity_id);
      }
      const member = await store.findMemberAccess(tx, ctx.siteId, row.identity_id);
      switch (entryOf({ status: row.status, reasons: row.status_reasons }, member?.status)) {
        case 'SUCCESS':
          break;
        case 'REQUIRE_OWNER_APPROVAL':
          return new ApiError(403, 'MEMBER_NOT_APPROVED', 'This member waits for the owner\'s approval');
        case 'REQUIRE_EMAIL_VERIFICATION':
          return new ApiError(403, 'EMAIL_NOT_VERIFIED', 'This member has not verified their e-mail; sign on with verifyEmail');
        default:
          return new ApiError(403, 'MEMBER_BLOCKED', 'This account may not sign in');
      }
      await store.recordLogin(tx, ctx.siteId, row.identity_id, this.now());
      const sessionToken = await this.createSessionIn(tx, ctx.siteId, row.identity_id, visitorOf(ctx));
      return { sessionToken, identity: toIdentity(row) };
    });
    if (result instanceof ApiError) throw result;
    return result;
  }

  // ─── recovery and activation ───────────────────────────────────────────────────────────────

  /**
   * `recovery/v1/send-email`: e-mails a link to the hosted reset page. Answers the same whether
   * or not the e-mail exists; a redirect URL not allowed for the client is left out of the link.
   */
  async sendRecoveryEmail(ctx: SiteContext, input: { email: unknown; redirect?: { url?: string; clientId?: string } }): Promise<void> {
    const site = await this.deps.sites.getActiveSite(ctx.siteId);
    const email = normaliseEmail(input.email);
    if (!email) return;
    const row = await store.findIdentityByEmail(this.db, ctx.siteId, emailKey(email));
    if (!row || row.status === 'DELETED' || row.status === 'BLOCKED') return;
    const params = await this.continueParams(site, input.redirect);
    await this.db.transaction(async (tx) => {
      const token = await this.recoveryTokenIn(tx, site.siteId, row.identity_id, 'RECOVERY', RECOVERY_TTL_MS);
      const link = this.hostedLink('/auth/reset-password', { recoveryToken: token, ...params });
      await this.sendMail(tx, site, 'identity.recovery', row.login_email, recoveryMail(site.name, link));
    });
    this.deps.mail.kick();
  }

  /** `recovery/v1/activation-email` (back office): a link to choose a first password. */
  async sendActivationEmail(ctx: SiteContext, identityId: string): Promise<void> {
    const site = await this.deps.sites.getActiveSite(ctx.siteId);
    const row = await store.findIdentity(this.db, ctx.siteId, identityId);
    if (!row || row.status === 'DELETED') throw ApiError.notFound('NOT_FOUND', 'No such identity');
    const [clientId] = await this.deps.sites.clientIds(site.siteId);
    await this.db.transaction(async (tx) => {
      const token = await this.recoveryTokenIn(tx, site.siteId, row.identity_id, 'ACTIVATION', ACTIVATION_TTL_HOURS * 3600_000);
      const link = this.hostedLink('/auth/reset-password', { recoveryToken: token, activation: '1', ...(clientId ? { clientId } : {}) });
      await this.sendMail(tx, site, 'identity.activation', row.login_email, activationMail(site.name, link, ACTIVATION_TTL_HOURS));
    });
    this.deps.mail.kick();
  }

  /** `recovery/v1/recover`: sets the password with a single-use token and ends every sign-in. */
  async recover(ctx: SiteContext | null, input: { recoveryToken: string; password: unknown }): Promise<Identity> {
    const parsed = parseRecoveryToken(input.recoveryToken);
    const siteId = ctx?.siteId ?? parsed?.siteId;
    const invalid = () => new ApiError(400, 'INVALID_RECOVERY_TOKEN', 'The link is invalid, used or expired; ask for a new one');
    if (!parsed || !siteId || parsed.siteId !== siteId) throw invalid();
    const violations = passwordViolations(input.password);
    if (violations.length) throw ApiError.validation(violations);
    await this.deps.sites.getActiveSite(siteId);
    const passwordHash = await hashPassword(input.password as string);
    const row = await this.db.transaction(async (tx) => {
      const used = await store.useRecoveryToken(tx, siteId, hashSecret(parsed.secret), this.now());
      if (!used) return undefined;
      await store.setPassword(tx, siteId, used.identity_id, passwordHash, this.now());
      // Opening the mailed link proves the mailbox: the e-mail is verified too.
      const verified = await this.completeEmailVerification(tx, siteId, used.identity_id);
      await store.retireRecoveryTokens(tx, siteId, used.identity_id, this.now());
      return verified;
    });
    if (!row) throw invalid();
    await this.endAllSessions(siteId, row.identity_id);
    return toIdentity(row);
  }

  private async recoveryTokenIn(tx: Queryable, siteId: string, identityId: string, purpose: 'RECOVERY' | 'ACTIVATION', ttlMs: number): Promise<string> {
    const secret = newSecret();
    const now = this.now();
    await store.insertRecoveryToken(tx, { siteId, tokenHash: hashSecret(secret), identityId, purpose, now, expiresAt: new Date(now.getTime() + ttlMs) });
    // The site travels in the token, so the reset page needs nothing else.
    return `${siteId}.${secret}`;
  }

  private async continueParams(site: Site, redirect: { url?: string; clientId?: string } | undefined): Promise<Record<string, string>> {
    if (!redirect?.clientId) return {};
    const client = await this.deps.sites.siteForClient(redirect.clientId).catch(() => undefined);
    if (!client || client.site.siteId !== site.siteId) return {};
    const allowed = allowedOrigins(this.deps.publicUrl, client.allowedOrigins, site.settings.allowedOrigins);
    return isAllowedUrl(redirect.url, allowed) ? { clientId: redirect.clientId, redirectUrl: redirect.url } : { clientId: redirect.clientId };
  }

  private hostedLink(path: string, params: Record<string, string>): string {
    const url = new URL(path, this.deps.publicUrl);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return url.toString();
  }

  // ─── member status (used by the members service) ───────────────────────────────────────────

  /**
   * Approves, blocks or takes offline a member, keeping the identity in step. Blocking ends
   * every sign-in at once: refresh tokens stop working and session tokens are revoked.
   */
  async setMemberStatus(siteId: string, memberId: string, status: MemberStatus): Promise<void> {
    await this.db.transaction(async (tx) => {
      const row = await store.findIdentity(tx, siteId, memberId, true);
      const previous = await this.changeMemberStatusIn(tx, siteId, memberId, status);
      if (!row || !previous) throw ApiError.notFound('MEMBER_NOT_FOUND', 'No such member');
      const now = this.now();
      if (status === 'BLOCKED' || status === 'OFFLINE') {
        await store.updateIdentityStatus(tx, siteId, memberId, { status, reasons: row.status_reasons, now });
      } else if (status === 'APPROVED') {
        const reasons = row.status_reasons.filter((r) => r !== 'PENDING_ADMIN_APPROVAL_REQUIRED');
        await store.updateIdentityStatus(tx, siteId, memberId, { status: reasons.length ? 'PENDING' : 'ACTIVE', reasons, now });
      }
    });
    this.accessCache.delete(`${siteId}/${memberId}`);
    if (status !== 'APPROVED' && status !== 'PENDING') await this.endAllSessions(siteId, memberId);
  }

  /** Changes the member row (optionally only from `onlyFrom`) and records `member.status_changed`. */
  private async changeMemberStatusIn(tx: Queryable, siteId: string, memberId: string, status: MemberStatus, onlyFrom?: MemberStatus): Promise<MemberStatus | undefined> {
    const current = await store.findMemberAccess(tx, siteId, memberId);
    if (!current || (onlyFrom && current.status !== onlyFrom)) return current?.status;
    const changed = await store.updateMemberStatus(tx, siteId, memberId, status, this.now());
    this.accessCache.delete(`${siteId}/${memberId}`);
    if (changed && changed.previous !== status) {
      await recordEvent(tx, {
        siteId, type: 'member.status_changed', entityType: 'member', entityId: memberId,
        payload: { memberId, status, previousStatus: changed.previous },
      });
    }
    return changed?.previous;
  }
}

/** Recovery tokens are `<siteId>.<secret>`. */
export function parseRecoveryToken(token: string): { siteId: string; secret: string } | undefined {
  const dot = token.indexOf('.');
  if (dot <= 0 || dot === token.length - 1) return undefined;
  return { siteId: token.slice(0, dot), secret: token.slice(dot + 1) };
}
