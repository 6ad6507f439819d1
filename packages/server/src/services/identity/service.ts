// The identity service: the one module other services and the routes import. Its calls are
// made of the modules beside it: sign-in (register, login, sign-on), sessions, verification,
// recovery (passwords), accounts (identities, members and their statuses) and member access.
import type { AuditContext } from '../../platform/audit.js';
import type { MemberRole, RequestContext } from '../../platform/caller.js';
import { DEFAULT_AUTH_RATE_LIMIT_PER_MINUTE } from '../../platform/config.js';
import { withTransaction, type SiteContext } from '../../platform/context.js';
import type { Db } from '../../platform/db.js';
import { ApiError } from '../../platform/errors.js';
import { hashSecret } from '../../platform/ids.js';
import type { AccessClaims } from '../oauth/service.js';
import type { CreateSiteInput } from '../sites/service.js';
import { MemberAccess, type AccessFeed, type Standing } from './access.js';
import * as accounts from './accounts.js';
import type { IdentityDeps, IdentityServiceDeps } from './deps.js';
import { entryOf, type MemberStatus } from './entry.js';
import { toIdentity, type AuthOutcome, type CallerContext, type Identity, type IdentitySession, type NewIdentityInput } from './model.js';
import * as recovery from './recovery.js';
import * as sessions from './sessions.js';
import * as signIn from './sign-in.js';
import * as store from './store.js';
import * as verification from './verification.js';
import * as factors from './factors.js';
import * as mySessions from './my-sessions.js';
import { checkStaffFactor, verifyFactor, type VerifyFactorInput } from './second-factor.js';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import * as passkeySignIn from './passkey-sign-in.js';
import * as passkeys from './passkeys.js';

export { EMAIL_EXISTS, INVALID_PASSWORD, RESET_PASSWORD } from './model.js';
export type { AuthOutcome, AuthState, CallerContext, Identity, IdentitySession, NewIdentityInput } from './model.js';
export type { IdentityServiceDeps } from './deps.js';
export { SESSION_TTL_MS } from './sessions.js';
export { ACTIVATION_TTL_HOURS, RECOVERY_TTL_MS, parseRecoveryToken } from './recovery.js';
export { slugBase } from './member-profile.js';
export { FACTOR_SEALED_COLUMNS, type SecurityOverview } from './factors.js';
export { REMEMBER_DEVICE_MS, SECOND_FACTOR_REQUIRED } from './second-factor.js';
export { REAUTHENTICATION_REQUIRED, REAUTHENTICATION_WINDOW_MS } from './my-sessions.js';
export type { Passkey } from './passkeys.js';

/** Where the official SDK's authentication calls go; hosted sign-in pages post there too. */
export const AUTHENTICATION_PREFIX = '/_api/iam/authentication';

/**
 * Runs when a visitor becomes a member (at the code exchange and the authorized_client grant),
 * inside one transaction (`ctx.db`); the commerce service moves the visitor's cart to the member here.
 */
export type VisitorHandOff = (ctx: SiteContext, visitorId: string, memberId: string) => Promise<void>;

export class IdentityService {
  /** Requests per minute per IP on register, login, verification and recovery; 0 turns the limit off. */
  rateLimitPerMinute: number = DEFAULT_AUTH_RATE_LIMIT_PER_MINUTE;
  private readonly handOffs: VisitorHandOff[] = [];
  private readonly parts: IdentityDeps;
  private reportError: (error: unknown, context: string) => void = () => undefined;

  constructor(private readonly deps: IdentityServiceDeps) {
    this.parts = { ...deps, access: new MemberAccess(deps.now) };
  }

  /** A new site's owner member (a sites hook, wired in app.ts), in the site's creating transaction. */
  async createOwner(ctx: SiteContext, input: CreateSiteInput): Promise<void> {
    await accounts.createOwner(ctx, input);
  }

  /** Whether a member may still use their tokens, and as what (the OAuth caller check asks; wired in app.ts). */
  async memberStanding(ctx: SiteContext, memberId: string): Promise<Standing> {
    return this.parts.access.standing(ctx, memberId);
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

  async handOverVisitor(ctx: SiteContext, visitorId: string | null, memberId: string): Promise<void> {
    if (!visitorId || visitorId === memberId || this.handOffs.length === 0) return;
    try {
      await withTransaction(ctx, async (tx) => {
        for (const hook of this.handOffs) await hook(tx, visitorId, memberId);
      });
    } catch (error) {
      this.reportError(error, 'visitor hand-off');
    }
  }

  /** The OAuth member access check: only APPROVED members renew tokens, with their current role. */
  async memberAccess(ctx: SiteContext, memberId: string): Promise<{ memberRole: MemberRole; accessEpoch: number } | null> {
    return this.parts.access.check(ctx, memberId);
  }

  /**
   * Drops this process's cached standing of a member after a change commits (other processes
   * hear the members trigger's notice).
   */
  forgetAccess(ctx: Pick<SiteContext, 'siteId'>, memberId: string): void {
    this.parts.access.forget(ctx, memberId);
  }

  /** Hears every server's member changes (the members trigger's notices) until `close`. */
  async listenForAccessChanges(db: Pick<Db, 'listen'>): Promise<void> {
    await this.parts.access.listen(db);
  }

  async close(): Promise<void> {
    await this.parts.access.close();
  }

  /** How this process hears member changes: `heard`, `deaf` (behind a pooler) or `lost` (reconnecting). */
  get accessFeed(): AccessFeed {
    return this.parts.access.feedState;
  }

  /** Resolves when this process hears the next change to a member (ask before the change). */
  whenAccessChangeHeard(ctx: Pick<SiteContext, 'siteId'>, memberId: string): Promise<void> {
    return this.parts.access.whenHeard(ctx, memberId);
  }

  // Sign-in -------------------------------------------------------------------------------------

  async register(ctx: CallerContext, input: { email: unknown; password: unknown; profile?: Record<string, unknown>; captchaTokens?: unknown }): Promise<AuthOutcome> {
    return signIn.register(this.parts, ctx, input);
  }

  async login(ctx: CallerContext, input: { email: unknown; password: unknown; captchaTokens?: unknown; deviceToken?: string }): Promise<AuthOutcome> {
    return signIn.login(this.parts, ctx, input);
  }

  /** `v2/{factorType}/verify`: finishes a sign-in that waits for its second factor. */
  async verifyFactor(ctx: CallerContext, input: VerifyFactorInput): Promise<AuthOutcome> {
    return verifyFactor(this.parts, ctx, await this.deps.sites.activeSite(ctx), input);
  }

  async verifyDuringAuthentication(ctx: CallerContext, input: { code: string; stateToken: string }): Promise<AuthOutcome> {
    return signIn.verifyDuringAuthentication(this.parts, ctx, input);
  }

  async signOn(ctx: CallerContext, input: { email: unknown; profile?: Record<string, unknown>; verifyEmail?: boolean }): Promise<{ sessionToken: string; identity: Identity }> {
    return signIn.signOn(this.parts, ctx, input);
  }

  /**
   * `Authorization: <accessToken>,<apiKey>` (sign-on and the authorized_client grant, as the
   * official SDK sends them): the token names the site and the visitor, the key proves the app.
   */
  async resolveTokenAndApiKey(authorization: string | undefined): Promise<{ ctx: SiteContext; keyId: string; claims: AccessClaims }> {
    const value = (authorization ?? '').replace(/^Bearer\s+/i, '').trim();
    const comma = value.indexOf(',');
    if (comma <= 0) throw ApiError.unauthenticated('Send Authorization: <accessToken>,<apiKey>');
    const claims = await this.deps.oauth.tokens.verify(value.slice(0, comma).trim());
    const { keyId } = await this.deps.sites.checkApiKey(claims.siteId, value.slice(comma + 1).trim());
    return { ctx: this.deps.sites.contextFor(claims.siteId), keyId, claims };
  }

  // A member's own second factors (the account's Security page) ------------------------------

  /** The staff gate of the back office's calls (wired into the caller check in app.ts). */
  async checkStaffFactor(ctx: RequestContext): Promise<void> {
    await checkStaffFactor(ctx, await this.deps.sites.activeSite(ctx), ctx.caller.subjectId);
  }

  async securityOverview(ctx: AuditContext): Promise<factors.SecurityOverview> {
    return factors.overview(ctx);
  }

  async startTotp(ctx: AuditContext): Promise<{ factorId: string; secret: string; otpauthUri: string; qrCodeSvg: string }> {
    await mySessions.requireRecentAuthentication(this.parts, ctx);
    return factors.startTotp(this.parts, ctx, (await this.deps.sites.activeSite(ctx)).name);
  }

  async confirmTotp(ctx: AuditContext, code: string): Promise<{ factor: factors.SecurityFactor; recoveryCodes?: string[] }> {
    return factors.confirmTotp(this.parts, ctx, code);
  }

  async enableEmailFactor(ctx: AuditContext): Promise<{ factor: factors.SecurityFactor; recoveryCodes?: string[] }> {
    await mySessions.requireRecentAuthentication(this.parts, ctx);
    return factors.enableEmail(ctx);
  }

  async removeFactor(ctx: AuditContext, factorId: string): Promise<void> {
    await mySessions.requireRecentAuthentication(this.parts, ctx);
    return factors.removeFactor(ctx, factorId);
  }

  async regenerateRecoveryCodes(ctx: AuditContext): Promise<{ recoveryCodes: string[] }> {
    await mySessions.requireRecentAuthentication(this.parts, ctx);
    return factors.regenerateRecoveryCodes(ctx);
  }

  async forgetDevice(ctx: AuditContext, deviceId: string): Promise<void> {
    return factors.forgetDevice(ctx, deviceId);
  }

  /** The member's own sign-ins (refresh-token families), the most recently used first. */
  async listSessions(ctx: AuditContext): Promise<{ sessions: mySessions.SignedInSession[] }> {
    return mySessions.listSessions(this.parts, ctx);
  }

  /** Signs out one of the member's own sign-ins (a refresh-token family). */
  async endOwnSession(ctx: AuditContext, sessionId: string): Promise<void> {
    return mySessions.endSession(this.parts, ctx, sessionId);
  }

  /** Checks the password again, opening the 10-minute window for factor changes. */
  async reauthenticate(ctx: AuditContext, password: string): Promise<{ verifiedDate: string }> {
    return mySessions.reauthenticate(this.parts, ctx, password);
  }

  // Passkeys (WebAuthn): the member's own, and sign-in with one ----------------------------------

  async passkeyRegistrationOptions(ctx: AuditContext, host: string | undefined): Promise<{ challengeId: string; optionsJson: string }> {
    return passkeys.registrationOptions(this.parts, ctx, (await this.deps.sites.activeSite(ctx)).name, host);
  }

  async registerPasskey(ctx: AuditContext, input: { challengeId: string; name: string; credential: RegistrationResponseJSON }): Promise<passkeys.Passkey> {
    return passkeys.registerPasskey(ctx, input);
  }

  async listPasskeys(ctx: AuditContext): Promise<{ passkeys: passkeys.Passkey[] }> {
    return passkeys.listPasskeys(ctx);
  }

  async renamePasskey(ctx: AuditContext, passkeyId: string, name: string): Promise<passkeys.Passkey> {
    return passkeys.renamePasskey(ctx, passkeyId, name);
  }

  async removePasskey(ctx: AuditContext, passkeyId: string): Promise<void> {
    return passkeys.removePasskey(ctx, passkeyId);
  }

  async passkeySignInOptions(ctx: CallerContext, host: string | undefined): Promise<{ challengeId: string; optionsJson: string }> {
    await this.deps.sites.activeSite(ctx);
    return passkeySignIn.signInOptions(this.parts, ctx, host);
  }

  async signInWithPasskey(ctx: CallerContext, input: { challengeId: string; credential: AuthenticationResponseJSON }): Promise<AuthOutcome> {
    return passkeySignIn.signInWithPasskey(this.parts, ctx, await this.deps.sites.activeSite(ctx), input);
  }

  // Verification --------------------------------------------------------------------------------

  async resendCode(ctx: SiteContext, stateToken: string): Promise<AuthOutcome> {
    return verification.resendCode(this.parts, ctx, stateToken);
  }

  async startVerification(ctx: CallerContext, identityId: string): Promise<{ verificationId: string }> {
    return verification.startVerification(this.parts, ctx, identityId);
  }

  async verify(ctx: CallerContext, input: { verificationId: string; code: string }): Promise<void> {
    return verification.verify(this.parts, ctx, input);
  }

  // Passwords and recovery ----------------------------------------------------------------------

  async changePassword(ctx: CallerContext, newPassword: unknown): Promise<void> {
    return recovery.changePassword(this.parts, ctx, newPassword);
  }

  async sendRecoveryEmail(ctx: SiteContext, input: { email: unknown; redirect?: { url?: string; clientId?: string } }): Promise<void> {
    return recovery.sendRecoveryEmail(this.parts, ctx, input);
  }

  async sendActivationEmail(ctx: SiteContext, identityId: string): Promise<void> {
    return recovery.sendActivationEmail(this.parts, ctx, identityId);
  }

  /** The recovery token names its site: `ctx` is null for a caller without one. */
  async recover(ctx: SiteContext | null, input: { recoveryToken: string; password: unknown }): Promise<Identity> {
    return recovery.recover(this.parts, ctx, input);
  }

  // Sessions ------------------------------------------------------------------------------------

  /** A valid (unexpired, unrevoked) session by its token. */
  async findSession(ctx: SiteContext, sessionToken: string): Promise<IdentitySession | undefined> {
    return sessions.findSessionByHash(ctx, hashSecret(sessionToken));
  }

  /** The same, by the token's hash (a redirect session keeps only the hash). */
  async findSessionByHash(ctx: SiteContext, tokenHash: string): Promise<IdentitySession | undefined> {
    return sessions.findSessionByHash(ctx, tokenHash);
  }

  async endSession(ctx: SiteContext, sessionId: string): Promise<void> {
    return sessions.endSession(ctx, sessionId);
  }

  /**
   * Ends every sign-in of an identity (refresh tokens and session tokens) after a change to the
   * member commits.
   */
  async endAllSessions(ctx: SiteContext, identityId: string): Promise<void> {
    return sessions.endAllSessions(this.parts, ctx, identityId);
  }

  /** Whether an identity may be signed in now (authorize step, code exchange). */
  async mayEnter(ctx: SiteContext, identityId: string): Promise<boolean> {
    const row = await store.findIdentity(ctx, identityId);
    if (!row) return false;
    const member = await store.findMemberAccess(ctx, identityId);
    return entryOf({ status: row.status, reasons: row.status_reasons }, member?.status) === 'SUCCESS';
  }

  async getIdentity(ctx: SiteContext, identityId: string): Promise<Identity | undefined> {
    const row = await store.findIdentity(ctx, identityId);
    return row && toIdentity(row);
  }

  // Identities and members (the members service's calls) ----------------------------------------

  /** Creates an identity and its member in the context's transaction; undefined if the e-mail is taken. */
  async createIdentity(ctx: SiteContext, input: NewIdentityInput): Promise<store.IdentityRow | undefined> {
    return accounts.createIdentity(ctx, input);
  }

  /**
   * Deletes the identities of members deleted in the context's transaction: their e-mails may
   * register again, and their session tokens, codes and links end with the commit. Their refresh
   * tokens end in endAllSessions after it.
   */
  async deleteIdentities(ctx: SiteContext, identityIds: readonly string[]): Promise<void> {
    await store.deleteIdentities(ctx, identityIds);
  }

  /** Approves, blocks or takes offline a member; blocking ends every sign-in at once. */
  async setMemberStatus(ctx: SiteContext, memberId: string, status: MemberStatus): Promise<void> {
    return accounts.setMemberStatus(this.parts, ctx, memberId, status);
  }
}
