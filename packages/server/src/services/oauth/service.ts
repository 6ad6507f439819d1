import type { Db } from '../../platform/db.js';
import type { Caller, CallerResolver, MemberRole } from '../../platform/caller.js';
import { ApiError } from '../../platform/errors.js';
import { hashSecret, newId, newSecret } from '../../platform/ids.js';
import type { SitesService } from '../sites/service.js';
import { AccessTokens } from './access-tokens.js';
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
export type MemberAccessCheck = (siteId: string, memberId: string) => Promise<{ memberRole: MemberRole } | null>;

/** The site a refresh token was issued for (tokens are `<siteId>.<secret>`). */
function siteOfRefreshToken(token: string): string | undefined {
  const dot = token.indexOf('.');
  return dot > 0 && dot <= 100 ? token.slice(0, dot) : undefined;
}

export class OAuthService {
  readonly tokens: AccessTokens;
  private memberAccess: MemberAccessCheck = async () => ({ memberRole: 'MEMBER' });

  constructor(private readonly db: Db, private readonly sites: SitesService, now: () => Date) {
    this.tokens = new AccessTokens(db, now);
    sites.onSiteCreated((tx, site) => AccessTokens.createSiteKey(tx, site.siteId));
  }

  setMemberAccessCheck(check: MemberAccessCheck): void {
    this.memberAccess = check;
  }

  /** `anonymous` grant: a new visitor with a reusable refresh token. */
  async anonymousGrant(clientId: string): Promise<TokenResponse> {
    const { site } = await this.sites.siteForClient(clientId);
    return this.startSession({ siteId: site.siteId, clientId, role: 'visitor', subjectId: newId() });
  }

  /**
   * `refresh_token` grant: a new access token; the refresh token stays the same (no rotation).
   * Without `clientId` (SDK 1.9 sends none) the token names its site and the stored row its client.
   */
  async refreshGrant(clientId: string | undefined, refreshToken: string): Promise<TokenResponse> {
    const siteId = clientId === undefined ? siteOfRefreshToken(refreshToken) : undefined;
    if (clientId === undefined && siteId === undefined) throw new ApiError(400, 'INVALID_GRANT', 'The refresh token is unknown or revoked');
    const found = siteId === undefined ? undefined : await store.findRefreshToken(this.db, siteId, hashSecret(refreshToken));
    const effectiveClientId = clientId ?? found?.client_id;
    if (effectiveClientId === undefined) throw new ApiError(400, 'INVALID_GRANT', 'The refresh token is unknown or revoked');
    const { site } = await this.sites.siteForClient(effectiveClientId);
    const row = found ?? await store.findRefreshToken(this.db, site.siteId, hashSecret(refreshToken));
    if (!row || row.revoked_at || row.client_id !== effectiveClientId || (siteId !== undefined && siteId !== site.siteId)) {
      throw new ApiError(400, 'INVALID_GRANT', 'The refresh token is unknown or revoked');
    }
    let memberRole: MemberRole | undefined;
    if (row.role === 'member') {
      const access = await this.memberAccess(site.siteId, row.subject_id);
      if (!access) throw new ApiError(400, 'INVALID_GRANT', 'The member may not sign in');
      memberRole = access.memberRole;
    }
    const access = await this.tokens.sign(
      { siteId: site.siteId, subjectId: row.subject_id, role: row.role, sessionId: row.session_id, memberRole },
      ACCESS_TOKEN_TTL_SECONDS,
    );
    return { access_token: access.token, refresh_token: refreshToken, expires_in: ACCESS_TOKEN_TTL_SECONDS, token_type: 'Bearer' };
  }

  /** Starts a sign-in session: stores a refresh token and signs the first access token. */
  async startSession(session: {
    siteId: string;
    clientId: string;
    role: TokenRole;
    subjectId: string;
    memberRole?: MemberRole;
  }): Promise<TokenResponse> {
    // The site id leads the token so a refresh without clientId can find its row by site.
    const refreshToken = `${session.siteId}.${newSecret()}`;
    const sessionId = newId();
    await store.insertRefreshToken(this.db, {
      siteId: session.siteId,
      tokenHash: hashSecret(refreshToken),
      sessionId,
      clientId: session.clientId,
      role: session.role,
      subjectId: session.subjectId,
    });
    const access = await this.tokens.sign(
      { siteId: session.siteId, subjectId: session.subjectId, role: session.role, sessionId, memberRole: session.memberRole },
      ACCESS_TOKEN_TTL_SECONDS,
    );
    return { access_token: access.token, refresh_token: refreshToken, expires_in: ACCESS_TOKEN_TTL_SECONDS, token_type: 'Bearer' };
  }

  /** Ends one sign-in (logout): its refresh token stops working at once. */
  async revokeSession(siteId: string, sessionId: string): Promise<void> {
    await store.revokeSession(this.db, siteId, sessionId);
  }

  /** The OAuth client a sign-in session belongs to (the authorized_client grant keeps the visitor's). */
  async clientIdOfSession(siteId: string, sessionId: string): Promise<string | undefined> {
    return store.findSessionClientId(this.db, siteId, sessionId);
  }

  /** Ends every sign-in of a subject (password change, block). */
  async revokeSubject(siteId: string, subjectId: string): Promise<void> {
    await store.revokeSubject(this.db, siteId, subjectId);
  }

  callerResolver(): CallerResolver {
    return {
      fromAccessToken: async (token: string): Promise<Caller> => {
        const claims = await this.tokens.verify(token);
        await this.sites.getActiveSite(claims.siteId);
        if (claims.role === 'visitor') {
          return { kind: 'ANONYMOUS_VISITOR', siteId: claims.siteId, subjectId: claims.subjectId, sessionId: claims.sessionId };
        }
        const memberRole = claims.memberRole ?? 'MEMBER';
        return {
          kind: memberRole === 'MEMBER' ? 'MEMBER' : 'WIX_USER',
          siteId: claims.siteId,
          subjectId: claims.subjectId,
          memberRole,
          sessionId: claims.sessionId,
        };
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
