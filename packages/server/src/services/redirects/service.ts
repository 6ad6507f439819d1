import type { Db } from '../../platform/db.js';
import type { RequestContext } from '../../platform/caller.js';
import { ApiError } from '../../platform/errors.js';
import { hashSecret, newId, newSecret } from '../../platform/ids.js';
import type { IdentitySession, IdentityService } from '../identity/service.js';
import type { GrantHandler, OAuthService, TokenRequest, TokenResponse } from '../oauth/service.js';
import type { Site, SitesService } from '../sites/service.js';
import { PKCE_METHOD, checkPkce, isValidCodeChallenge } from './pkce.js';
import { allowedOrigins, isAllowedUrl, originOf, withParams } from '../../platform/redirect-uri.js';
import * as store from './store.js';

export const REDIRECT_SESSION_TTL_MS = 3600_000;
export const AUTHORIZATION_CODE_TTL_MS = 60_000;

export const AUTHORIZE_PATH = '/oauth2/authorize';
export const LOGOUT_PATH = '/oauth2/logout';
export const HOSTED_SIGN_IN_PATH = '/auth/sign-in';

export type ResponseMode = 'query' | 'fragment' | 'web_message';

export interface AuthRequest {
  redirectUri?: string;
  clientId?: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
  responseMode?: string;
  responseType?: string;
  scope?: string;
  state?: string;
  sessionToken?: string;
  prompt?: string;
}

/** `POST /v1/redirect-session` (wire-surface §4); one intent per session. */
export interface RedirectSessionRequest {
  auth?: { authRequest?: AuthRequest; prompt?: string };
  login?: Record<string, unknown>;
  logout?: { clientId?: string };
  ecomCheckout?: { checkoutId?: string };
  storesProduct?: { productSlug?: string };
  membersAccount?: { section?: string };
  bookingsCheckout?: unknown;
  eventsCheckout?: unknown;
  paidPlansCheckout?: unknown;
  bookingsBook?: unknown;
  ecomOrderPaymentRequest?: unknown;
  callbacks?: Record<string, string | null | undefined>;
  preferences?: { additionalQueryParameters?: Record<string, string>; [key: string]: unknown };
  origin?: string | null;
}

export interface RedirectSession {
  id: string;
  fullUrl: string;
  urlDetails: { endpoint: string; searchParams: Record<string, string> };
  sessionToken?: string;
}

/** What the authorize step answers: a redirect, a web_message page, or an error page. */
export type AuthorizeResult =
  | { type: 'redirect'; location: string; setSession?: { siteId: string; token: string } }
  | { type: 'message'; targetOrigin: string; data: Record<string, string | undefined>; setSession?: { siteId: string; token: string } }
  | { type: 'error'; status: number; title: string; message: string };

export interface AuthorizeInput {
  clientId?: string;
  redirectSessionId?: string;
  /** Posted by the hosted sign-in page after a successful sign-in. */
  sessionToken?: string;
  /** The hosted pages' cookie for a site. */
  cookieToken: (siteId: string) => string | undefined;
}

export const MEMBERS_ACCOUNT_PATHS: Record<string, string> = {
  ACCOUNT_INFO: '/account',
  BOOKINGS: '/account/bookings',
  ORDERS: '/account/orders',
  SUBSCRIPTIONS: '/account/subscriptions',
  EVENTS: '/account/events',
};

const UNSUPPORTED_INTENTS = ['bookingsCheckout', 'eventsCheckout', 'paidPlansCheckout', 'bookingsBook', 'ecomOrderPaymentRequest'] as const;
const INTENTS = ['auth', 'login', 'logout', 'ecomCheckout', 'storesProduct', 'membersAccount', ...UNSUPPORTED_INTENTS] as const;
const CALLBACK_KEYS = ['postFlowUrl', 'thankYouPageUrl', 'cartPageUrl', 'loginUrl', 'bookingsServiceListUrl', 'planListUrl'];

interface StoredAuth {
  redirectUri: string | null;
  responseMode: ResponseMode;
  state: string | null;
  codeChallenge: string;
  prompt: 'login' | 'none';
}

export interface RedirectsDeps {
  db: Db;
  sites: SitesService;
  oauth: OAuthService;
  identity: IdentityService;
  now: () => Date;
  publicUrl: string;
}

const invalid = (field: string, description: string) => ApiError.validation([{ field, rule: 'VALIDATION', description }]);

/**
 * Redirect sessions, the authorize step behind their fullUrl, and the two token grants that
 * turn a signed-in identity into member tokens (authorization_code with PKCE, authorized_client).
 */
export class RedirectsService {
  constructor(private readonly deps: RedirectsDeps) {}

  private now(): Date {
    return this.deps.now();
  }

  /** Registers the `authorization_code` and `authorized_client` grants of the token endpoint. */
  registerGrants(grants: Map<string, GrantHandler>): void {
    grants.set('authorization_code', (body) => this.exchangeCode(body));
    grants.set('authorized_client', (body, headers) => this.authorizedClient(body, headers.authorization));
  }

  /** The origins a client may redirect to: PUBLIC_URL's, the client's and the site's. */
  private async originsFor(site: Site, clientIds: readonly string[]): Promise<Set<string>> {
    const clientOrigins: string[] = [];
    for (const clientId of clientIds) {
      const client = await this.deps.sites.siteForClient(clientId).catch(() => undefined);
      if (client && client.site.siteId === site.siteId) clientOrigins.push(...client.allowedOrigins);
    }
    const domainOrigins = await this.deps.sites.domainOrigins(site.siteId, this.deps.publicUrl);
    return allowedOrigins(this.deps.publicUrl, [...clientOrigins, ...domainOrigins], site.settings.allowedOrigins);
  }

  private async clientOfSite(siteId: string, clientId: unknown, field: string): Promise<{ site: Site; clientId: string }> {
    if (typeof clientId !== 'string' || clientId === '') throw ApiError.validation([{ field, rule: 'REQUIRED_FIELD', description: 'clientId is required' }]);
    const client = await this.deps.sites.siteForClient(clientId);
    if (client.site.siteId !== siteId) throw new ApiError(400, 'INVALID_CLIENT', `Unknown client id "${clientId}"`);
    return { site: client.site, clientId };
  }

  /** The OAuth client the caller's tokens came from, else every client of the site. */
  private async callerClients(ctx: RequestContext): Promise<string[]> {
    const own = ctx.caller.sessionId ? await this.deps.oauth.clientIdOfSession(ctx.siteId, ctx.caller.sessionId) : undefined;
    return own ? [own] : this.deps.sites.clientIds(ctx.siteId);
  }

  /** A link on `base`: the site's own domain when it has one (see SitesService.pageOrigin). */
  private url(path: string, params: Record<string, string | undefined>, base: string): { fullUrl: string; endpoint: string; searchParams: Record<string, string> } {
    const url = new URL(path, base);
    const searchParams: Record<string, string> = {};
    for (const [key, value] of Object.entries(params)) {
      if (value === undefined) continue;
      url.searchParams.set(key, value);
      searchParams[key] = value;
    }
    return { fullUrl: url.toString(), endpoint: new URL(path, base).toString(), searchParams };
  }

  // ─── creating redirect sessions ─────────────────────────────────────────────────────────────

  async createRedirectSession(ctx: RequestContext, request: RedirectSessionRequest, originHeader: string | undefined): Promise<RedirectSession> {
    const intents = INTENTS.filter((key) => request[key] !== undefined && request[key] !== null);
    if (intents.length !== 1) {
      throw ApiError.validation([{
        field: 'intent', rule: 'REQUIRED_ONE_OF_FIELD',
        description: intents.length ? `only one of ${intents.join(', ')} may be given` : `one of ${INTENTS.join(', ')} is required`,
      }]);
    }
    const intent = intents[0];
    const site = await this.deps.sites.getActiveSite(ctx.siteId);
    const base = await this.deps.sites.pageOrigin(site.siteId, this.deps.publicUrl);
    const id = newId();
    const visitorId = ctx.caller.kind === 'ANONYMOUS_VISITOR' ? ctx.caller.subjectId : null;
    const now = this.now();
    const save = (kind: string, clientId: string | null, stored: Record<string, unknown>, extra: { sessionTokenHash?: string | null; messageOrigin?: string | null } = {}) =>
      store.insertRedirectSession(this.deps.db, {
        siteId: site.siteId, id, kind, clientId, request: stored, visitorId, sessionTokenHash: extra.sessionTokenHash ?? null,
        messageOrigin: extra.messageOrigin ?? null, now, expiresAt: new Date(now.getTime() + REDIRECT_SESSION_TTL_MS),
      });

    switch (intent) {
      case 'auth': {
        const auth = request.auth ?? {};
        const authRequest = auth.authRequest ?? {};
        const { clientId } = await this.clientOfSite(site.siteId, authRequest.clientId, 'auth.authRequest.clientId');
        const stored = await this.validateAuthRequest(site, clientId, authRequest, auth.prompt, request.origin ?? originHeader);
        await save('auth', clientId, { ...stored.auth }, {
          sessionTokenHash: authRequest.sessionToken ? hashSecret(authRequest.sessionToken) : null,
          messageOrigin: stored.messageOrigin,
        });
        const { fullUrl, endpoint, searchParams } = this.url(AUTHORIZE_PATH, { clientId, redirectSessionId: id }, base);
        return { id, fullUrl, urlDetails: { endpoint, searchParams }, sessionToken: authRequest.sessionToken };
      }
      case 'logout': {
        const { clientId } = await this.clientOfSite(site.siteId, request.logout?.clientId, 'logout.clientId');
        const callbacks = this.checkCallbacks(request.callbacks, await this.originsFor(site, [clientId]));
        await save('logout', clientId, { callbacks });
        // The caller's own sign-in ends now: its refresh token stops working at once.
        if ((ctx.caller.kind === 'MEMBER' || ctx.caller.kind === 'WIX_USER') && ctx.caller.sessionId) {
          await this.endOAuthSession(site.siteId, ctx.caller.sessionId);
        }
        const { fullUrl, endpoint, searchParams } = this.url(LOGOUT_PATH, { clientId, redirectSessionId: id }, base);
        return { id, fullUrl, urlDetails: { endpoint, searchParams } };
      }
      case 'login': {
        const [clientId] = await this.callerClients(ctx);
        const callbacks = this.checkCallbacks(request.callbacks, await this.originsFor(site, clientId ? [clientId] : []));
        await save('login', clientId ?? null, { callbacks });
        const { fullUrl, endpoint, searchParams } = this.url(HOSTED_SIGN_IN_PATH, { clientId, redirectSessionId: id }, base);
        return { id, fullUrl, urlDetails: { endpoint, searchParams } };
      }
      case 'ecomCheckout':
      case 'storesProduct':
      case 'membersAccount': {
        const target = this.webTarget(request);
        const callbacks = this.checkCallbacks(request.callbacks, await this.originsFor(site, await this.callerClients(ctx)));
        await save(intent, null, { [intent]: request[intent], callbacks });
        const extra = this.additionalParams(request.preferences?.additionalQueryParameters);
        const { fullUrl, endpoint, searchParams } = this.url(target.path, { ...extra, ...target.params, ...callbacks, redirectSessionId: id }, base);
        return { id, fullUrl, urlDetails: { endpoint, searchParams } };
      }
      default:
        throw new ApiError(400, 'UNSUPPORTED_INTENT', `This store does not offer ${intent}`);
    }
  }

  private webTarget(request: RedirectSessionRequest): { path: string; params: Record<string, string> } {
    if (request.ecomCheckout) {
      const checkoutId = request.ecomCheckout.checkoutId;
      if (!checkoutId) throw ApiError.validation([{ field: 'ecomCheckout.checkoutId', rule: 'REQUIRED_FIELD', description: 'checkoutId is required' }]);
      return { path: '/checkout', params: { checkoutId } };
    }
    if (request.storesProduct) {
      const slug = request.storesProduct.productSlug;
      if (!slug) throw ApiError.validation([{ field: 'storesProduct.productSlug', rule: 'REQUIRED_FIELD', description: 'productSlug is required' }]);
      return { path: `/products/${encodeURIComponent(slug)}`, params: {} };
    }
    const section = request.membersAccount?.section ?? 'ACCOUNT_INFO';
    const path = MEMBERS_ACCOUNT_PATHS[section];
    if (!path) {
      throw ApiError.validation([{ field: 'membersAccount.section', rule: 'INVALID_ENUM_VALUE', description: `must be one of ${Object.keys(MEMBERS_ACCOUNT_PATHS).join(', ')}` }]);
    }
    return { path, params: {} };
  }

  private additionalParams(params: Record<string, string> | undefined): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [key, value] of Object.entries(params ?? {}).slice(0, 20)) {
      if (typeof value === 'string' && key.length <= 100 && value.length <= 500) out[key] = value;
    }
    return out;
  }

  /** Every callback URL must be on an allowed origin; none is ever redirected to otherwise. */
  private checkCallbacks(callbacks: RedirectSessionRequest['callbacks'], allowed: Set<string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const key of CALLBACK_KEYS) {
      const value = callbacks?.[key];
      if (value === undefined || value === null || value === '') continue;
      if (!isAllowedUrl(value, allowed)) {
        throw new ApiError(400, 'INVALID_REDIRECT_URI', `callbacks.${key} is not on an origin allowed for this client`, { field: `callbacks.${key}` });
      }
      out[key] = value;
    }
    return out;
  }

  private async validateAuthRequest(
    site: Site, clientId: string, authRequest: AuthRequest, prompt: string | undefined, requestOrigin: string | null | undefined,
  ): Promise<{ auth: StoredAuth; messageOrigin: string | null }> {
    const field = (name: string) => `auth.authRequest.${name}`;
    if (authRequest.responseType !== undefined && authRequest.responseType !== 'code') throw invalid(field('responseType'), 'only "code" is supported');
    const method = authRequest.codeChallengeMethod ?? PKCE_METHOD;
    if (method !== PKCE_METHOD) throw new ApiError(400, 'INVALID_CODE_CHALLENGE_METHOD', `codeChallengeMethod must be ${PKCE_METHOD}`);
    if (!isValidCodeChallenge(authRequest.codeChallenge)) throw invalid(field('codeChallenge'), 'an S256 code challenge (43 base64url characters) is required');
    const responseMode = (authRequest.responseMode ?? 'fragment') as ResponseMode;
    if (!['query', 'fragment', 'web_message'].includes(responseMode)) throw invalid(field('responseMode'), 'must be query, fragment or web_message');
    if (authRequest.state !== undefined && authRequest.state.length > 1024) throw invalid(field('state'), 'at most 1024 characters');
    const allowed = await this.originsFor(site, [clientId]);
    const redirectUri = authRequest.redirectUri || null;
    if (redirectUri !== null && !isAllowedUrl(redirectUri, allowed)) {
      throw new ApiError(400, 'INVALID_REDIRECT_URI', 'redirectUri is not on an origin allowed for this client', { field: field('redirectUri') });
    }
    let messageOrigin: string | null = null;
    if (responseMode === 'web_message') {
      messageOrigin = redirectUri ? originOf(redirectUri) ?? null : (requestOrigin ? originOf(requestOrigin) ?? null : null);
      if (!messageOrigin || !allowed.has(messageOrigin)) {
        throw new ApiError(400, 'INVALID_REDIRECT_URI', 'web_message needs a redirectUri or an Origin allowed for this client');
      }
    } else if (redirectUri === null) {
      throw ApiError.validation([{ field: field('redirectUri'), rule: 'REQUIRED_FIELD', description: 'redirectUri is required unless responseMode is web_message' }]);
    }
    const askedPrompt = prompt ?? authRequest.prompt;
    return {
      auth: {
        redirectUri,
        responseMode,
        state: authRequest.state ?? null,
        codeChallenge: authRequest.codeChallenge,
        prompt: askedPrompt === 'none' ? 'none' : 'login',
      },
      messageOrigin,
    };
  }

  // ─── the authorize step ─────────────────────────────────────────────────────────────────────

  async authorize(input: AuthorizeInput): Promise<AuthorizeResult> {
    const errorPage = (status: number, title: string, message: string): AuthorizeResult => ({ type: 'error', status, title, message });
    if (!input.clientId || !input.redirectSessionId) return errorPage(400, 'Incomplete sign-in link', 'The link lacks its client or session. Start again from the store.');
    const client = await this.deps.sites.siteForClient(input.clientId).catch(() => undefined);
    if (!client) return errorPage(400, 'Unknown application', 'This sign-in link names an application this server does not know.');
    const site = client.site;
    const base = await this.deps.sites.pageOrigin(site.siteId, this.deps.publicUrl);
    const row = await store.findRedirectSession(this.deps.db, site.siteId, input.redirectSessionId);
    if (!row || row.client_id !== input.clientId) return errorPage(404, 'Unknown sign-in link', 'This sign-in link is not known here. Start again from the store.');
    if (new Date(row.expires_at).getTime() <= this.now().getTime()) return errorPage(410, 'Sign-in link expired', 'This sign-in link has expired. Start again from the store.');
    const hostedSignIn = (): AuthorizeResult => ({
      type: 'redirect',
      location: this.url(HOSTED_SIGN_IN_PATH, { clientId: input.clientId, redirectSessionId: input.redirectSessionId }, base).fullUrl,
    });

    if (row.kind === 'login') {
      const session = input.sessionToken ? await this.deps.identity.findSession(site.siteId, input.sessionToken) : undefined;
      if (!session || !input.sessionToken) return hostedSignIn();
      await store.useRedirectSession(this.deps.db, site.siteId, row.redirect_session_id, this.now());
      const postFlowUrl = (row.request.callbacks as Record<string, string> | undefined)?.postFlowUrl;
      const allowed = await this.originsFor(site, [input.clientId]);
      const location = postFlowUrl && isAllowedUrl(postFlowUrl, allowed) ? withParams(postFlowUrl, { wixMemberLoggedIn: 'true' }, 'query') : new URL('/', base).toString();
      return { type: 'redirect', location, setSession: { siteId: site.siteId, token: input.sessionToken } };
    }
    if (row.kind !== 'auth') return errorPage(400, 'Not a sign-in link', 'This link does not lead to a sign-in.');

    const auth = row.request as unknown as StoredAuth;
    const allowed = await this.originsFor(site, [input.clientId]);
    if (auth.redirectUri !== null && !isAllowedUrl(auth.redirectUri, allowed)) {
      return errorPage(400, 'Redirect not allowed', 'The application asked to return to an address it may not use.');
    }
    const targetOrigin = auth.redirectUri ? originOf(auth.redirectUri) : row.message_origin;
    if (auth.responseMode === 'web_message' && (!targetOrigin || !allowed.has(targetOrigin))) {
      return errorPage(400, 'Redirect not allowed', 'The application asked to answer an origin it may not use.');
    }
    const state = auth.state ?? undefined;
    const answer = (params: Record<string, string | undefined>, setSession?: { siteId: string; token: string }): AuthorizeResult =>
      auth.responseMode === 'web_message'
        ? { type: 'message', targetOrigin: targetOrigin as string, data: { ...params, state }, setSession }
        : { type: 'redirect', location: withParams(auth.redirectUri as string, { ...params, state }, auth.responseMode), setSession };
    if (row.used_at) return errorPage(410, 'Sign-in link already used', 'This sign-in link was already used. Start again from the store.');

    let session: IdentitySession | undefined;
    let cookieToken: string | undefined;
    if (input.sessionToken) {
      session = await this.deps.identity.findSession(site.siteId, input.sessionToken);
      if (!session) return hostedSignIn();
      cookieToken = input.sessionToken;
    } else if (auth.prompt === 'login') {
      return hostedSignIn();
    } else {
      session = row.session_token_hash ? await this.deps.identity.findSessionByHash(site.siteId, row.session_token_hash) : undefined;
      const fromCookie = session ? undefined : input.cookieToken(site.siteId);
      if (fromCookie) session = await this.deps.identity.findSession(site.siteId, fromCookie);
      if (!session) return answer({ error: 'login_required', error_description: 'The member is not signed in' });
    }
    if (!(await this.deps.identity.mayEnter(site.siteId, session.identityId))) {
      return answer({ error: 'access_denied', error_description: 'This account may not sign in' });
    }
    if (!(await store.useRedirectSession(this.deps.db, site.siteId, row.redirect_session_id, this.now()))) {
      return errorPage(410, 'Sign-in link already used', 'This sign-in link was already used. Start again from the store.');
    }
    const code = newSecret();
    const now = this.now();
    await store.insertCode(this.deps.db, {
      siteId: site.siteId, codeHash: hashSecret(code), clientId: input.clientId, identityId: session.identityId,
      identitySessionId: session.sessionId, redirectUri: auth.redirectUri, codeChallenge: auth.codeChallenge,
      visitorId: row.visitor_id ?? session.visitorId, now, expiresAt: new Date(now.getTime() + AUTHORIZATION_CODE_TTL_MS),
    });
    return answer({ code }, cookieToken ? { siteId: site.siteId, token: cookieToken } : undefined);
  }

  /** Visiting a logout session's fullUrl: ends the hosted pages' session, then goes to postFlowUrl. */
  async logoutRedirect(input: { clientId?: string; redirectSessionId?: string; cookieToken: (siteId: string) => string | undefined }): Promise<{ location: string; clearSiteId?: string }> {
    const home = new URL('/', this.deps.publicUrl).toString();
    const client = input.clientId ? await this.deps.sites.siteForClient(input.clientId).catch(() => undefined) : undefined;
    if (!client || !input.redirectSessionId) return { location: home };
    const site = client.site;
    await this.endHostedSession(site.siteId, input.cookieToken(site.siteId));
    const row = await store.findRedirectSession(this.deps.db, site.siteId, input.redirectSessionId);
    const postFlowUrl = row?.kind === 'logout' && row.client_id === input.clientId ? (row.request.callbacks as Record<string, string> | undefined)?.postFlowUrl : undefined;
    const allowed = await this.originsFor(site, [input.clientId as string]);
    return { location: postFlowUrl && isAllowedUrl(postFlowUrl, allowed) ? postFlowUrl : home, clearSiteId: site.siteId };
  }

  /**
   * `GET /_api/iam/authentication/v1/logout`: ends the caller's sign-in and the hosted session,
   * and names where to go next (the postLogoutRedirectUri when allowed for the client).
   */
  async logoutCall(ctx: RequestContext | null, input: { clientId?: string; postLogoutRedirectUri?: string; cookieToken: (siteId: string) => string | undefined }): Promise<{ siteId?: string; location: string }> {
    const home = new URL('/', this.deps.publicUrl).toString();
    const client = input.clientId ? await this.deps.sites.siteForClient(input.clientId).catch(() => undefined) : undefined;
    const siteId = ctx?.siteId ?? client?.site.siteId;
    if (ctx && (ctx.caller.kind === 'MEMBER' || ctx.caller.kind === 'WIX_USER') && ctx.caller.sessionId) {
      await this.endOAuthSession(ctx.siteId, ctx.caller.sessionId);
    }
    if (siteId) await this.endHostedSession(siteId, input.cookieToken(siteId));
    let location = home;
    if (client && (!siteId || client.site.siteId === siteId) && input.postLogoutRedirectUri) {
      const allowed = await this.originsFor(client.site, [input.clientId as string]);
      if (isAllowedUrl(input.postLogoutRedirectUri, allowed)) location = input.postLogoutRedirectUri;
    }
    return { siteId, location };
  }

  private async endHostedSession(siteId: string, cookieToken: string | undefined): Promise<void> {
    if (!cookieToken) return;
    const session = await this.deps.identity.findSession(siteId, cookieToken);
    if (session) await this.deps.identity.endSession(siteId, session.sessionId);
  }

  /** Revokes a refresh-token session and the identity session it was signed in with. */
  private async endOAuthSession(siteId: string, oauthSessionId: string): Promise<void> {
    await this.deps.oauth.revokeSession(siteId, oauthSessionId);
    const identitySessionId = await store.identitySessionOf(this.deps.db, siteId, oauthSessionId);
    if (identitySessionId) await this.deps.identity.endSession(siteId, identitySessionId);
  }

  // ─── token grants ───────────────────────────────────────────────────────────────────────────

  /** `authorization_code`: single use, 60 s, same client and redirectUri, PKCE S256. */
  async exchangeCode(body: TokenRequest): Promise<TokenResponse> {
    const clientId = body.clientId ?? body.client_id;
    if (!clientId) throw ApiError.validation([{ field: 'clientId', rule: 'REQUIRED_FIELD', description: 'clientId is required' }]);
    if (!body.code) throw ApiError.validation([{ field: 'code', rule: 'REQUIRED_FIELD', description: 'code is required' }]);
    const { site } = await this.deps.sites.siteForClient(clientId);
    const codeHash = hashSecret(body.code);
    const grantError = (message: string) => new ApiError(400, 'INVALID_GRANT', message);
    const code = await store.useCode(this.deps.db, site.siteId, codeHash, this.now());
    if (!code) {
      // A replayed code may mean it was stolen: the sign-in it started ends too.
      const used = await store.findCode(this.deps.db, site.siteId, codeHash);
      if (used?.oauth_session_id) await this.endOAuthSession(site.siteId, used.oauth_session_id);
      throw grantError(used ? 'The authorization code was already used' : 'The authorization code is unknown');
    }
    if (code.client_id !== clientId) throw grantError('The authorization code was issued to another client');
    if (new Date(code.expires_at).getTime() <= this.now().getTime()) throw grantError('The authorization code has expired');
    if ((body.redirectUri ?? null) !== code.redirect_uri) throw grantError('redirectUri does not match the authorization request');
    const pkce = checkPkce(body.codeVerifier, code.code_challenge);
    if (pkce === 'BAD_VERIFIER') throw grantError('codeVerifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~');
    if (pkce === 'MISMATCH') throw grantError('codeVerifier does not match the code challenge');
    const tokens = await this.memberTokens(site.siteId, clientId, code.identity_id);
    const { sessionId } = await this.deps.oauth.tokens.verify(tokens.access_token);
    await store.setCodeSession(this.deps.db, site.siteId, codeHash, sessionId);
    await this.deps.identity.handOverVisitor(site.siteId, code.visitor_id, code.identity_id);
    return tokens;
  }

  /**
   * `authorized_client` (a backend signs a member in): `Authorization: <accessToken>,<apiKey>`,
   * snake_case `member_id` and optionally the `session_token` sign-on gave for that member.
   */
  async authorizedClient(body: TokenRequest, authorization: string | undefined): Promise<TokenResponse> {
    const { siteId, claims } = await this.deps.identity.resolveTokenAndApiKey(authorization);
    const memberId = body.member_id;
    if (!memberId) throw ApiError.validation([{ field: 'member_id', rule: 'REQUIRED_FIELD', description: 'member_id is required' }]);
    if (body.session_token) {
      const session = await this.deps.identity.findSession(siteId, body.session_token);
      if (!session || session.identityId !== memberId) throw new ApiError(400, 'INVALID_GRANT', 'The session token does not belong to this member');
    }
    const clientId = (await this.deps.oauth.clientIdOfSession(siteId, claims.sessionId)) ?? (await this.deps.sites.clientIds(siteId))[0];
    if (!clientId) throw new ApiError(400, 'INVALID_CLIENT', 'The site has no OAuth client');
    const tokens = await this.memberTokens(siteId, clientId, memberId);
    await this.deps.identity.handOverVisitor(siteId, claims.role === 'visitor' ? claims.subjectId : null, memberId);
    return tokens;
  }

  private async memberTokens(siteId: string, clientId: string, memberId: string): Promise<TokenResponse> {
    const access = (await this.deps.identity.mayEnter(siteId, memberId)) ? await this.deps.identity.memberAccess(siteId, memberId) : null;
    if (!access) throw new ApiError(400, 'INVALID_GRANT', 'The member may not sign in');
    return this.deps.oauth.startSession({ siteId, clientId, role: 'member', subjectId: memberId, memberRole: access.memberRole });
  }
}
