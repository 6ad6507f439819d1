import type { MemberRole, RequestContext } from '../../platform/caller.js';
import { withTransaction, type SiteContext } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { hashSecret, newId, newSecret } from '../../platform/ids.js';
import type { IdentitySession, IdentityService } from '../identity/service.js';
import type { GrantHandler, OAuthService, TokenRequest, TokenResponse } from '../oauth/service.js';
import type { Site, SitesService } from '../sites/service.js';
import { PKCE_METHOD, checkPkce, isValidCodeChallenge } from './pkce.js';
import { allowedOrigins, isAllowedUrl, originOf, withParams } from '../../platform/redirect-uri.js';
import { CheckoutHandovers } from './handover.js';
import * as store from './store.js';

export const REDIRECT_SESSION_TTL_MS = 3600_000;
export const AUTHORIZATION_CODE_TTL_MS = 60_000;
/** A checkout link hands its shopper over once, within this time of its creation. */
export const HANDOVER_TTL_MS = 15 * 60_000;

export const AUTHORIZE_PATH = '/oauth2/authorize';
export const LOGOUT_PATH = '/oauth2/logout';
export const HOSTED_SIGN_IN_PATH = '/auth/sign-in';

export type ResponseMode = 'query' | 'fragment' | 'web_message';
const RESPONSE_MODES: readonly string[] = ['query', 'fragment', 'web_message'] satisfies ResponseMode[];

function isResponseMode(mode: string): mode is ResponseMode {
  return RESPONSE_MODES.includes(mode);
}

/** The SDK sends `null` for the optional fields it leaves unset; null reads as absent. */
export interface AuthRequest {
  redirectUri?: string | null;
  clientId?: string;
  codeChallenge?: string | null;
  codeChallengeMethod?: string | null;
  responseMode?: string | null;
  responseType?: string;
  scope?: string | null;
  state?: string;
  sessionToken?: string | null;
  prompt?: string | null;
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
  sites: SitesService;
  oauth: OAuthService;
  identity: IdentityService;
  publicUrl: string;
}

const mayNotSignIn = () => new ApiError(400, 'INVALID_GRANT', 'The member may not sign in');
const invalid = (field: string, description: string) => ApiError.validation([{ field, rule: 'VALIDATION', description }]);

/**
 * Redirect sessions, the authorize step behind their fullUrl, and the two token grants that
 * turn a signed-in identity into member tokens (authorization_code with PKCE, authorized_client).
 */
export class RedirectsService {
  /** The hosted checkout's claim of a checkout link (handover.ts). */
  readonly handovers: CheckoutHandovers;

  constructor(private readonly deps: RedirectsDeps) {
    this.handovers = new CheckoutHandovers(deps);
  }

  /** Registers the `authorization_code` and `authorized_client` grants of the token endpoint. */
  registerGrants(grants: Map<string, GrantHandler>): void {
    grants.set('authorization_code', (body, headers) => this.exchangeCode(body, headers.userAgent));
    grants.set('authorized_client', (body, headers) => this.authorizedClient(body, headers.authorization));
  }

  /** The origins a client may redirect to: PUBLIC_URL's, the client's and the site's. */
  private async originsFor(ctx: SiteContext, site: Site, clientIds: readonly string[]): Promise<Set<string>> {
    const clientOrigins: string[] = [];
    for (const clientId of clientIds) {
      const client = await this.deps.sites.siteForClient(clientId).catch(() => undefined);
      if (client && client.site.siteId === site.siteId) clientOrigins.push(...client.allowedOrigins);
    }
    const domainOrigins = await this.deps.sites.domainOrigins(ctx, this.deps.publicUrl);
    return allowedOrigins(this.deps.publicUrl, [...clientOrigins, ...domainOrigins], site.settings.allowedOrigins);
  }

  /** A client id the request names, which must be one of the context's site. */
  private async clientOfSite(ctx: SiteContext, clientId: unknown, field: string): Promise<string> {
    if (typeof clientId !== 'string' || clientId === '') throw ApiError.validation([{ field, rule: 'REQUIRED_FIELD', description: 'clientId is required' }]);
    const client = await this.deps.sites.siteForClient(clientId);
    if (client.site.siteId !== ctx.siteId) throw new ApiError(400, 'INVALID_CLIENT', `Unknown client id "${clientId}"`);
    return clientId;
  }

  /** The OAuth client the caller's tokens came from, else every client of the site. */
  private async callerClients(ctx: RequestContext): Promise<string[]> {
    const own = ctx.caller.sessionId ? await this.deps.oauth.clientIdOfSession(ctx, ctx.caller.sessionId) : undefined;
    return own ? [own] : this.deps.sites.clientIds(ctx);
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
    const site = await this.deps.sites.activeSite(ctx);
    const base = await this.deps.sites.pageOrigin(ctx, this.deps.publicUrl);
    const id = newId();
    const visitorId = ctx.caller.kind === 'ANONYMOUS_VISITOR' ? ctx.caller.subjectId : null;
    // Only a plain member is ever handed over by a link (see handover.ts); never back-office rights.
    const memberId = ctx.caller.kind === 'MEMBER' ? ctx.caller.subjectId : null;
    const now = ctx.now();
    const save = (
      to: SiteContext, kind: string, clientId: string | null, stored: Record<string, unknown>,
      extra: { sessionTokenHash?: string | null; messageOrigin?: string | null; ttlMs?: number } = {},
    ) =>
      store.insertRedirectSession(to, {
        id, kind, clientId, request: stored, visitorId, memberId, sessionTokenHash: extra.sessionTokenHash ?? null,
        messageOrigin: extra.messageOrigin ?? null, now, expiresAt: new Date(now.getTime() + (extra.ttlMs ?? REDIRECT_SESSION_TTL_MS)),
      });

    switch (intent) {
      case 'auth': {
        const auth = request.auth ?? {};
        const authRequest = auth.authRequest ?? {};
        const clientId = await this.clientOfSite(ctx, authRequest.clientId, 'auth.authRequest.clientId');
        const stored = await this.validateAuthRequest(ctx, site, clientId, authRequest, auth.prompt, request.origin ?? originHeader);
        await save(ctx, 'auth', clientId, { ...stored.auth }, {
          sessionTokenHash: authRequest.sessionToken ? hashSecret(authRequest.sessionToken) : null,
          messageOrigin: stored.messageOrigin,
        });
        const { fullUrl, endpoint, searchParams } = this.url(AUTHORIZE_PATH, { clientId, redirectSessionId: id }, base);
        return { id, fullUrl, urlDetails: { endpoint, searchParams }, sessionToken: authRequest.sessionToken ?? undefined };
      }
      case 'logout': {
        const clientId = await this.clientOfSite(ctx, request.logout?.clientId, 'logout.clientId');
        const callbacks = this.checkCallbacks(request.callbacks, await this.originsFor(ctx, site, [clientId]));
        const signedIn = (ctx.caller.kind === 'MEMBER' || ctx.caller.kind === 'WIX_USER') && ctx.caller.sessionId;
        await withTransaction(ctx, async (tx) => {
          await save(tx, 'logout', clientId, { callbacks });
          // The caller's own sign-in ends now: its refresh token stops working at once.
          if (signedIn) await this.endOAuthSession(tx, signedIn);
        });
        const { fullUrl, endpoint, searchParams } = this.url(LOGOUT_PATH, { clientId, redirectSessionId: id }, base);
        return { id, fullUrl, urlDetails: { endpoint, searchParams } };
      }
      case 'login': {
        const [clientId] = await this.callerClients(ctx);
        const callbacks = this.checkCallbacks(request.callbacks, await this.originsFor(ctx, site, clientId ? [clientId] : []));
        await save(ctx, 'login', clientId ?? null, { callbacks });
        const { fullUrl, endpoint, searchParams } = this.url(HOSTED_SIGN_IN_PATH, { clientId, redirectSessionId: id }, base);
        return { id, fullUrl, urlDetails: { endpoint, searchParams } };
      }
      case 'ecomCheckout':
      case 'storesProduct':
      case 'membersAccount': {
        const target = this.webTarget(request);
        const callbacks = this.checkCallbacks(request.callbacks, await this.originsFor(ctx, site, await this.callerClients(ctx)));
        await save(ctx, intent, null, { [intent]: request[intent], callbacks }, intent === 'ecomCheckout' ? { ttlMs: HANDOVER_TTL_MS } : {});
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
    ctx: SiteContext, site: Site, clientId: string, authRequest: AuthRequest, prompt: string | undefined, requestOrigin: string | null | undefined,
  ): Promise<{ auth: StoredAuth; messageOrigin: string | null }> {
    const field = (name: string) => `auth.authRequest.${name}`;
    if (authRequest.responseType !== undefined && authRequest.responseType !== 'code') throw invalid(field('responseType'), 'only "code" is supported');
    const method = authRequest.codeChallengeMethod ?? PKCE_METHOD;
    if (method !== PKCE_METHOD) throw new ApiError(400, 'INVALID_CODE_CHALLENGE_METHOD', `codeChallengeMethod must be ${PKCE_METHOD}`);
    if (!isValidCodeChallenge(authRequest.codeChallenge)) throw invalid(field('codeChallenge'), 'an S256 code challenge (43 base64url characters) is required');
    const responseMode = authRequest.responseMode ?? 'fragment';
    if (!isResponseMode(responseMode)) throw invalid(field('responseMode'), 'must be query, fragment or web_message');
    if (authRequest.state !== undefined && authRequest.state.length > 1024) throw invalid(field('state'), 'at most 1024 characters');
    const allowed = await this.originsFor(ctx, site, [clientId]);
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
    const { site, ctx } = client;
    const base = await this.deps.sites.pageOrigin(ctx, this.deps.publicUrl);
    const row = await store.findRedirectSession(ctx, input.redirectSessionId);
    if (!row || row.client_id !== input.clientId) return errorPage(404, 'Unknown sign-in link', 'This sign-in link is not known here. Start again from the store.');
    if (new Date(row.expires_at).getTime() <= ctx.now().getTime()) return errorPage(410, 'Sign-in link expired', 'This sign-in link has expired. Start again from the store.');
    const hostedSignIn = (): AuthorizeResult => ({
      type: 'redirect',
      location: this.url(HOSTED_SIGN_IN_PATH, { clientId: input.clientId, redirectSessionId: input.redirectSessionId }, base).fullUrl,
    });

    if (row.kind === 'login') {
      const session = input.sessionToken ? await this.deps.identity.findSession(ctx, input.sessionToken) : undefined;
      if (!session || !input.sessionToken) return hostedSignIn();
      await store.useRedirectSession(ctx, row.redirect_session_id, ctx.now());
      const postFlowUrl = (row.request.callbacks as Record<string, string> | undefined)?.postFlowUrl;
      const allowed = await this.originsFor(ctx, site, [input.clientId]);
      const location = postFlowUrl && isAllowedUrl(postFlowUrl, allowed) ? withParams(postFlowUrl, { wixMemberLoggedIn: 'true' }, 'query') : new URL('/', base).toString();
      return { type: 'redirect', location, setSession: { siteId: site.siteId, token: input.sessionToken } };
    }
    if (row.kind !== 'auth') return errorPage(400, 'Not a sign-in link', 'This link does not lead to a sign-in.');

    const auth = row.request as unknown as StoredAuth;
    const allowed = await this.originsFor(ctx, site, [input.clientId]);
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
      session = await this.deps.identity.findSession(ctx, input.sessionToken);
      if (!session) return hostedSignIn();
      cookieToken = input.sessionToken;
    } else if (auth.prompt === 'login') {
      return hostedSignIn();
    } else {
      session = row.session_token_hash ? await this.deps.identity.findSessionByHash(ctx, row.session_token_hash) : undefined;
      const fromCookie = session ? undefined : input.cookieToken(site.siteId);
      if (fromCookie) session = await this.deps.identity.findSession(ctx, fromCookie);
      if (!session) return answer({ error: 'login_required', error_description: 'The member is not signed in' });
    }
    if (!(await this.deps.identity.mayEnter(ctx, session.identityId))) {
      return answer({ error: 'access_denied', error_description: 'This account may not sign in' });
    }
    const signedIn = session;
    const clientId = input.clientId;
    // The link is used and its code stored together: a code never outlives a link left unused.
    const code = await withTransaction(ctx, async (tx) => {
      const now = tx.now();
      if (!(await store.useRedirectSession(tx, row.redirect_session_id, now))) return undefined;
      const secret = newSecret();
      await store.insertCode(tx, {
        codeHash: hashSecret(secret), clientId, identityId: signedIn.identityId,
        identitySessionId: signedIn.sessionId, redirectUri: auth.redirectUri, codeChallenge: auth.codeChallenge,
        visitorId: row.visitor_id ?? signedIn.visitorId, now, expiresAt: new Date(now.getTime() + AUTHORIZATION_CODE_TTL_MS),
      });
      return secret;
    });
    if (!code) return errorPage(410, 'Sign-in link already used', 'This sign-in link was already used. Start again from the store.');
    return answer({ code }, cookieToken ? { siteId: site.siteId, token: cookieToken } : undefined);
  }

  /** Visiting a logout session's fullUrl: ends the hosted pages' session, then goes to postFlowUrl. */
  async logoutRedirect(input: { clientId?: string; redirectSessionId?: string; cookieToken: (siteId: string) => string | undefined }): Promise<{ location: string; clearSiteId?: string }> {
    const home = new URL('/', this.deps.publicUrl).toString();
    const client = input.clientId ? await this.deps.sites.siteForClient(input.clientId).catch(() => undefined) : undefined;
    if (!client || !input.clientId || !input.redirectSessionId) return { location: home };
    const { site, ctx } = client;
    await this.endHostedSession(ctx, input.cookieToken(site.siteId));
    const row = await store.findRedirectSession(ctx, input.redirectSessionId);
    const postFlowUrl = row?.kind === 'logout' && row.client_id === input.clientId ? (row.request.callbacks as Record<string, string> | undefined)?.postFlowUrl : undefined;
    const allowed = await this.originsFor(ctx, site, [input.clientId]);
    return { location: postFlowUrl && isAllowedUrl(postFlowUrl, allowed) ? postFlowUrl : home, clearSiteId: site.siteId };
  }

  /**
   * `GET /_api/iam/authentication/v1/logout`: ends the caller's sign-in and the hosted session,
   * and names where to go next (the postLogoutRedirectUri when allowed for the client).
   */
  async logoutCall(ctx: RequestContext | null, input: { clientId?: string; postLogoutRedirectUri?: string; cookieToken: (siteId: string) => string | undefined }): Promise<{ siteId?: string; location: string }> {
    const home = new URL('/', this.deps.publicUrl).toString();
    const client = input.clientId ? await this.deps.sites.siteForClient(input.clientId).catch(() => undefined) : undefined;
    const site = ctx ?? client?.ctx;
    if (site) {
      const signedIn = ctx && (ctx.caller.kind === 'MEMBER' || ctx.caller.kind === 'WIX_USER') ? ctx.caller.sessionId : undefined;
      await withTransaction(site, async (tx) => {
        if (signedIn) await this.endOAuthSession(tx, signedIn);
        await this.endHostedSession(tx, input.cookieToken(tx.siteId));
      });
    }
    const siteId = site?.siteId;
    let location = home;
    if (client && input.clientId && (!siteId || client.site.siteId === siteId) && input.postLogoutRedirectUri) {
      const allowed = await this.originsFor(client.ctx, client.site, [input.clientId]);
      if (isAllowedUrl(input.postLogoutRedirectUri, allowed)) location = input.postLogoutRedirectUri;
    }
    return { siteId, location };
  }

  private async endHostedSession(ctx: SiteContext, cookieToken: string | undefined): Promise<void> {
    if (!cookieToken) return;
    const session = await this.deps.identity.findSession(ctx, cookieToken);
    if (session) await this.deps.identity.endSession(ctx, session.sessionId);
  }

  /** Revokes a refresh-token session and the identity session it was signed in with. */
  private async endOAuthSession(ctx: SiteContext, oauthSessionId: string): Promise<void> {
    await this.deps.oauth.revokeSession(ctx, oauthSessionId);
    const identitySessionId = await store.identitySessionOf(ctx, oauthSessionId);
    if (identitySessionId) await this.deps.identity.endSession(ctx, identitySessionId);
  }

  // ─── token grants ───────────────────────────────────────────────────────────────────────────

  /** `authorization_code`: single use, 60 s, same client and redirectUri, PKCE S256. */
  async exchangeCode(body: TokenRequest, userAgent?: string): Promise<TokenResponse> {
    const clientId = body.clientId ?? body.client_id;
    if (!clientId) throw ApiError.validation([{ field: 'clientId', rule: 'REQUIRED_FIELD', description: 'clientId is required' }]);
    if (!body.code) throw ApiError.validation([{ field: 'code', rule: 'REQUIRED_FIELD', description: 'code is required' }]);
    const { ctx } = await this.deps.sites.siteForClient(clientId);
    const codeHash = hashSecret(body.code);
    const grantError = (message: string) => new ApiError(400, 'INVALID_GRANT', message);
    // One transaction; a refusal is returned, not thrown, so the code stays used (one try per code).
    const result = await withTransaction(ctx, async (tx): Promise<ApiError | { tokens: TokenResponse; visitorId: string | null; memberId: string }> => {
      const code = await store.useCode(tx, codeHash, tx.now());
      if (!code) {
        // A replayed code may mean it was stolen: the sign-in it started ends too.
        const used = await store.findCode(tx, codeHash);
        if (used?.oauth_session_id) await this.endOAuthSession(tx, used.oauth_session_id);
        return grantError(used ? 'The authorization code was already used' : 'The authorization code is unknown');
      }
      if (code.client_id !== clientId) return grantError('The authorization code was issued to another client');
      if (new Date(code.expires_at).getTime() <= tx.now().getTime()) return grantError('The authorization code has expired');
      if ((body.redirectUri ?? null) !== code.redirect_uri) return grantError('redirectUri does not match the authorization request');
      const pkce = checkPkce(body.codeVerifier, code.code_challenge);
      if (pkce === 'BAD_VERIFIER') return grantError('codeVerifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~');
      if (pkce === 'MISMATCH') return grantError('codeVerifier does not match the code challenge');
      const access = await this.entering(tx, code.identity_id);
      if (!access) return mayNotSignIn();
      const { tokens, sessionId } = await this.deps.oauth.openSession(tx, { clientId, role: 'member', subjectId: code.identity_id, memberRole: access.memberRole, userAgent });
      await store.setCodeSession(tx, codeHash, sessionId);
      return { tokens, visitorId: code.visitor_id, memberId: code.identity_id };
    });
    if (result instanceof ApiError) throw result;
    // After the commit, in a transaction of its own: a failing hand-off does not undo the sign-in.
    await this.deps.identity.handOverVisitor(ctx, result.visitorId, result.memberId);
    return result.tokens;
  }

  /**
   * `authorized_client` (a backend signs a member in): `Authorization: <accessToken>,<apiKey>`,
   * snake_case `member_id` and optionally the `session_token` sign-on gave for that member.
   */
  async authorizedClient(body: TokenRequest, authorization: string | undefined): Promise<TokenResponse> {
    const { ctx, claims } = await this.deps.identity.resolveTokenAndApiKey(authorization);
    const memberId = body.member_id;
    if (!memberId) throw ApiError.validation([{ field: 'member_id', rule: 'REQUIRED_FIELD', description: 'member_id is required' }]);
    if (body.session_token) {
      const session = await this.deps.identity.findSession(ctx, body.session_token);
      if (!session || session.identityId !== memberId) throw new ApiError(400, 'INVALID_GRANT', 'The session token does not belong to this member');
    }
    const clientId = (await this.deps.oauth.clientIdOfSession(ctx, claims.sessionId)) ?? (await this.deps.sites.clientIds(ctx))[0];
    if (!clientId) throw new ApiError(400, 'INVALID_CLIENT', 'The site has no OAuth client');
    const access = await this.entering(ctx, memberId);
    if (!access) throw mayNotSignIn();
    const tokens = await this.deps.oauth.startSession(ctx, { clientId, role: 'member', subjectId: memberId, memberRole: access.memberRole });
    await this.deps.identity.handOverVisitor(ctx, claims.role === 'visitor' ? claims.subjectId : null, memberId);
    return tokens;
  }

  /** The member's role if they may sign in now; null if not. */
  private async entering(ctx: SiteContext, memberId: string): Promise<{ memberRole: MemberRole } | null> {
    return (await this.deps.identity.mayEnter(ctx, memberId)) ? this.deps.identity.memberAccess(ctx, memberId) : null;
  }
}
