import { withTransaction, type SiteContext } from '../../platform/context.js';
import { recordAudit } from '../../platform/audit.js';
import type { Caller, CallerResolver, MemberRole } from '../../platform/caller.js';
import { ApiError } from '../../platform/errors.js';
import { hashSecret, newId, newSecret } from '../../platform/ids.js';
import type { SitesService } from '../sites/service.js';
import { AccessTokens, type AccessClaims } from './access-tokens.js';
import type { Keyring } from '../../platform/secrets.js';
import * as store from './store.js';
import type { TokenRole } from './store.js';

export const ACCESS_TOKEN_TTL_SECONDS = 14_400;

/** The token endpoint's answer, snake_case as the official SDK reads it. */
export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: 'Bearer';
}

/**
 * Decides, when a member's refresh token is used, whether they may still enter and with which
 * role; null refuses (blocked, deleted). The identity service supplies it.
 */
export type MemberAccessCheck = (ctx: SiteContext, memberId: string) => Promise<{ memberRole: MemberRole; accessEpoch: number } | null>;

/** A member row's standing now: what every call with a member's access token is judged by. */
export interface MemberStanding {
  status: 'PENDING' | 'APPROVED' | 'BLOCKED' | 'OFFLINE';
  role: MemberRole;
  accessEpoch: number;
}

/**
 * The member's standing now, or undefined when there is no such member (deleted). Asked at every
 * call with a member's access token, so it must be cheap (the identity service caches it, and no
 * change outlives the cache: see identity/access.ts).
 */
export type MemberStandingCheck = (ctx: SiteContext, memberId: string) => Promise<MemberStanding | undefined>;

/** A sign-in session to start: who, through which client, as what. */
export interface NewSession {
  clientId: string;
  role: TokenRole;
  subjectId: string;
  memberRole?: MemberRole;
  /** The browser's user agent at sign-in (the Security page's list of sessions shows it). */
  userAgent?: string;
}

/** The token endpoint's answer: a new access token beside the refresh token it came from. */
function tokenResponse(accessToken: string, refreshToken: string): TokenResponse {
  return { access_token: accessToken, refresh_token: refreshToken, expires_in: ACCESS_TOKEN_TTL_SECONDS, token_type: 'Bearer' };
}

/** A visitor's session id: `visitor:<clientId>:<uuid>` (stored sessions are bare UUIDs). */
const VISITOR_SESSION_PREFIX = 'visitor:';

/** A signed visitor refresh token has three dot-separated parts; a stored one two (`<siteId>.<secret>`). */
function isSignedRefreshToken(token: string): boolean {
  const first = token.indexOf('.');
  return first > 0 && token.indexOf('.', first + 1) > 0;
}

/** The site a refresh token was issued for (tokens are `<siteId>.<secret>`). */
function siteOfRefreshToken(token: string): string | undefined {
  const dot = token.indexOf('.');
  return dot > 0 && dot <= 100 ? token.slice(0, dot) : undefined;
}

export class OAuthService {
  readonly tokens: AccessTokens;
  private memberAccess: MemberAccessCheck = async () => ({ memberRole: 'MEMBER', accessEpoch: 0 });
  private memberStanding: MemberStandingCheck = async () => undefined;

  constructor(private readonly sites: SitesService, now: () => Date, keyring: Keyring) {
    this.tokens = new AccessTokens((siteId) => sites.contextFor(siteId), now, keyring);
  }

  setMemberAccessCheck(check: MemberAccessCheck): void {
    this.memberAccess = check;
  }

  setMemberStandingCheck(check: MemberStandingCheck): void {
    this.memberStanding = check;
  }

  /**
   * `anonymous` grant: a new visitor with a reusable refresh token. The refresh token is signed,
   * not stored, so the grant writes nothing (a revoked visitor session is what gets stored).
   */
  async anonymousGrant(clientId: string): Promise<TokenResponse> {
    const { ctx } = await this.sites.siteForClient(clientId);
    return this.visitorSession(ctx, clientId, newId());
  }

  /**
   * Tokens for a visitor who already exists (the hosted checkout taking over an app's visitor):
   * a session of its own through `clientId`, so ending it leaves the visitor's other sessions alone.
   */
  async visitorSession(ctx: SiteContext, clientId: string, subjectId: string): Promise<TokenResponse> {
    const sessionId = `${VISITOR_SESSION_PREFIX}${clientId}:${newId()}`;
    const refreshToken = await this.tokens.signVisitorRefresh(ctx, { clientId, subjectId, sessionId });
    const access = await this.tokens.sign(ctx, { subjectId, role: 'visitor', sessionId }, ACCESS_TOKEN_TTL_SECONDS);
    return tokenResponse(access.token, refreshToken);
  }

  /**
   * `refresh_token` grant: a new access token. A member's refresh token rotates: the answer
   * carries a child of the token presented (see `rotate`). A visitor's signed token stays the same.
   * Without `clientId` (SDK 1.9 sends none) the token names its site and the stored row its client.
   */
  async refreshGrant(clientId: string | undefined, refreshToken: string): Promise<TokenResponse> {
    if (isSignedRefreshToken(refreshToken)) return this.visitorRefresh(clientId, refreshToken);
    const refused = () => new ApiError(400, 'INVALID_GRANT', 'The refresh token is unknown or revoked');
    const siteId = clientId === undefined ? siteOfRefreshToken(refreshToken) : undefined;
    if (clientId === undefined && siteId === undefined) throw refused();
    const tokenHash = hashSecret(refreshToken);
    const found = siteId === undefined ? undefined : await store.findRefreshToken(this.sites.contextFor(siteId), tokenHash);
    const effectiveClientId = clientId ?? found?.client_id;
    if (effectiveClientId === undefined) throw refused();
    const { site, ctx } = await this.sites.siteForClient(effectiveClientId);
    const row = found ?? await store.findRefreshToken(ctx, tokenHash);
    if (!row || row.revoked_at || row.client_id !== effectiveClientId || (siteId !== undefined && siteId !== site.siteId)) throw refused();
    if (row.role !== 'member') {
      const access = await this.tokens.sign(ctx, { subjectId: row.subject_id, role: row.role, sessionId: row.session_id }, ACCESS_TOKEN_TTL_SECONDS);
      return tokenResponse(access.token, refreshToken);
    }
    // The role and epoch of now: a demoted member's renewed token carries the new role.
    const member = await this.memberAccess(ctx, row.subject_id);
    if (!member) throw new ApiError(400, 'INVALID_GRANT', 'The member may not sign in');
    const next = await this.rotate(ctx, tokenHash, row.session_id);
    if (next instanceof ApiError) throw next;
    const access = await this.tokens.sign(
      ctx, { subjectId: row.subject_id, role: row.role, sessionId: row.session_id, ...member }, ACCESS_TOKEN_TTL_SECONDS);
    return tokenResponse(access.token, next);
  }

  /**
   * Rotates a member's refresh token under its family's lock: a spent token (a child of it was
   * used, or a newer child replaced it) is a reuse, which revokes the whole family and is written
   * to the audit log; otherwise the token's parent and unused children are spent and a new child
   * is answered. A refusal is returned, not thrown, so the revocation commits.
   */
  private async rotate(ctx: SiteContext, tokenHash: string, sessionId: string): Promise<string | ApiError> {
    return withTransaction(ctx, async (tx) => {
      await store.lockFamily(tx, sessionId);
      const row = await store.findRefreshToken(tx, tokenHash);
      if (!row || row.revoked_at) return new ApiError(400, 'INVALID_GRANT', 'The refresh token is unknown or revoked');
      if (row.spent_at) {
        await store.revokeSession(tx, sessionId);
        await recordAudit(tx, {
          action: 'session.refresh_token_reused', objectType: 'member', objectId: row.subject_id,
          after: { sessionId, clientId: row.client_id, revoked: 'family' },
        });
        return new ApiError(400, 'INVALID_GRANT', 'The refresh token was already used; every token of this sign-in is revoked');
      }
      await store.spendAround(tx, { tokenHash, parentHash: row.parent_hash }, tx.now());
      const child = `${ctx.siteId}.${newSecret()}`;
      await store.insertRefreshToken(tx, {
        tokenHash: hashSecret(child), sessionId, clientId: row.client_id, role: row.role, subjectId: row.subject_id, parentHash: tokenHash,
      });
      return child;
    });
  }

  /** A visitor's signed refresh token: its MAC, its client and site, and no revocation of its session. */
  private async visitorRefresh(clientId: string | undefined, refreshToken: string): Promise<TokenResponse> {
    const refused = () => new ApiError(400, 'INVALID_GRANT', 'The refresh token is unknown or revoked');
    const session = await this.tokens.verifyVisitorRefresh(refreshToken);
    if (!session || (clientId !== undefined && clientId !== session.clientId)) throw refused();
    const { site, ctx } = await this.sites.siteForClient(session.clientId);
    if (site.siteId !== session.siteId || await store.isSessionRevoked(ctx, session.sessionId)) throw refused();
    const access = await this.tokens.sign(
      ctx, { subjectId: session.subjectId, role: 'visitor', sessionId: session.sessionId }, ACCESS_TOKEN_TTL_SECONDS);
    return tokenResponse(access.token, refreshToken);
  }

  /** Starts a sign-in session: stores a refresh token and signs the first access token. */
  async startSession(ctx: SiteContext, session: NewSession): Promise<TokenResponse> {
    return (await this.openSession(ctx, session)).tokens;
  }

  /** startSession that also names the new session (the code exchange records it for logout). */
  async openSession(ctx: SiteContext, session: NewSession): Promise<{ tokens: TokenResponse; sessionId: string }> {
    // The site id leads the token so a refresh without clientId can find its row by site.
    const refreshToken = `${ctx.siteId}.${newSecret()}`;
    const sessionId = newId();
    await store.insertRefreshToken(ctx, {
      tokenHash: hashSecret(refreshToken),
      sessionId,
      clientId: session.clientId,
      role: session.role,
      subjectId: session.subjectId,
      userAgent: session.userAgent?.slice(0, 300),
    });
    // A member's token carries their access epoch of now (sign out everywhere raises it).
    const accessEpoch = session.role === 'member' ? (await this.memberStanding(ctx, session.subjectId))?.accessEpoch ?? 0 : undefined;
    const access = await this.tokens.sign(
      ctx,
      { subjectId: session.subjectId, role: session.role, sessionId, memberRole: session.memberRole, accessEpoch },
      ACCESS_TOKEN_TTL_SECONDS,
    );
    return { tokens: tokenResponse(access.token, refreshToken), sessionId };
  }

  /** A member's sign-ins not ended, the most recently used first. */
  async memberSessions(ctx: SiteContext, memberId: string): Promise<store.MemberSessionRow[]> {
    return store.listMemberSessions(ctx, memberId);
  }

  /** One sign-in of the member, if it is theirs and not ended. */
  async memberSession(ctx: SiteContext, memberId: string, sessionId: string): Promise<store.MemberSessionRow | undefined> {
    return store.findMemberSession(ctx, memberId, sessionId);
  }

  /** Ends one of the member's own sign-ins (its refresh tokens stop working); false when not theirs. */
  async endMemberSession(ctx: SiteContext, memberId: string, sessionId: string): Promise<boolean> {
    return store.revokeMemberSession(ctx, memberId, sessionId);
  }

  /** Records that the member checked their password again in this sign-in (recent authentication). */
  async markSessionVerified(ctx: SiteContext, memberId: string, sessionId: string): Promise<boolean> {
    return store.markSessionVerified(ctx, memberId, sessionId, ctx.now());
  }

  /** Ends one sign-in (logout): its refresh token stops working at once. */
  async revokeSession(ctx: SiteContext, sessionId: string): Promise<void> {
    if (sessionId.startsWith(VISITOR_SESSION_PREFIX)) await store.revokeVisitorSession(ctx, sessionId);
    else await store.revokeSession(ctx, sessionId);
  }

  /** The OAuth client a sign-in session belongs to (the authorized_client grant keeps the visitor's). */
  async clientIdOfSession(ctx: SiteContext, sessionId: string): Promise<string | undefined> {
    // A visitor's session id names its client (it comes from a signed token, so it can be trusted).
    if (sessionId.startsWith(VISITOR_SESSION_PREFIX)) return sessionId.slice(VISITOR_SESSION_PREFIX.length, sessionId.lastIndexOf(':'));
    return store.findSessionClientId(ctx, sessionId);
  }

  /**
   * Ends every sign-in of a member (password change, block).
   */
  async revokeSubject(ctx: SiteContext, subjectId: string): Promise<void> {
    await store.revokeSubject(ctx, subjectId);
  }

  /**
   * A member's caller, judged by their member row as it is now, never by the role the token was
   * signed with: a deleted member's tokens, a blocked or offline member's, and tokens issued
   * before the member was signed out everywhere are refused; an owner or contributor is a
   * back-office caller only while APPROVED with that role.
   */
  private async memberCaller(claims: AccessClaims): Promise<Caller> {
    const standing = await this.memberStanding(this.sites.contextFor(claims.siteId), claims.subjectId);
    if (!standing) throw ApiError.unauthenticated('The member no longer exists');
    if (standing.status === 'BLOCKED' || standing.status === 'OFFLINE') throw ApiError.unauthenticated('The member may no longer sign in');
    if ((claims.accessEpoch ?? 0) < standing.accessEpoch) throw ApiError.unauthenticated('The member was signed out');
    const backOffice = standing.status === 'APPROVED' && standing.role !== 'MEMBER';
    return {
      kind: backOffice ? 'WIX_USER' : 'MEMBER',
      siteId: claims.siteId,
      subjectId: claims.subjectId,
      memberRole: backOffice ? standing.role : 'MEMBER',
      sessionId: claims.sessionId,
    };
  }

  callerResolver(): CallerResolver {
    return {
      fromAccessToken: async (token: string): Promise<Caller> => {
        const claims = await this.tokens.verify(token);
        await this.sites.getActiveSite(claims.siteId);
        if (claims.role === 'visitor') {
          return { kind: 'ANONYMOUS_VISITOR', siteId: claims.siteId, subjectId: claims.subjectId, sessionId: claims.sessionId };
        }
        return this.memberCaller(claims);
      },
      fromApiKey: async (apiKey: string, siteId: string | undefined): Promise<Caller> => {
        const { site, keyId } = await this.sites.checkApiKey(siteId, apiKey);
        return { kind: 'APP', siteId: site.siteId, subjectId: keyId };
      },
    };
  }
}

// What other services use of this one's modules: they import service.ts only.
export type { AccessClaims } from './access-tokens.js';
export type { GrantHandler, TokenRequest } from './grants.js';
export type { MemberSessionRow } from './store.js';
