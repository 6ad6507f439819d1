import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AUTHENTICATION_PREFIX, SESSION_TTL_MS } from '../identity/service.js';
import { clearedSessionCookie, readCookie, sessionCookie, sessionCookieName } from './hosted-session.js';
import { errorPage, webMessagePage } from './pages.js';
import { HandoverResponse, LogoutResponse, RedirectSessionResponse } from './wire-schemas.js';
import { AUTHORIZE_PATH, LOGOUT_PATH, type AuthorizeResult, type RedirectSessionRequest, type RedirectsService } from './service.js';

const Text = (maxLength: number) => Type.String({ maxLength });
const Intent = Type.Record(Type.String(), Type.Unknown());

const AuthRequest = Type.Object({
  redirectUri: Type.Optional(Type.Union([Text(2048), Type.Null()])),
  clientId: Type.Optional(Text(128)),
  codeChallenge: Type.Optional(Type.Union([Text(256), Type.Null()])),
  codeChallengeMethod: Type.Optional(Type.Union([Text(32), Type.Null()])),
  responseMode: Type.Optional(Type.Union([Text(32), Type.Null()])),
  responseType: Type.Optional(Text(32)),
  scope: Type.Optional(Type.Union([Text(256), Type.Null()])),
  state: Type.Optional(Text(1024)),
  sessionToken: Type.Optional(Type.Union([Text(512), Type.Null()])),
  nonce: Type.Optional(Type.Union([Text(512), Type.Null()])),
  prompt: Type.Optional(Type.Union([Text(32), Type.Null()])),
  idp: Type.Optional(Text(256)),
});

const RedirectSessionBody = Type.Object({
  auth: Type.Optional(Type.Object({ authRequest: Type.Optional(AuthRequest), prompt: Type.Optional(Text(32)) })),
  login: Type.Optional(Intent),
  logout: Type.Optional(Type.Object({ clientId: Type.Optional(Text(128)) })),
  ecomCheckout: Type.Optional(Type.Object({ checkoutId: Type.Optional(Text(128)) })),
  storesProduct: Type.Optional(Type.Object({ productSlug: Type.Optional(Text(512)) })),
  membersAccount: Type.Optional(Type.Object({ section: Type.Optional(Text(32)) })),
  bookingsCheckout: Type.Optional(Intent),
  eventsCheckout: Type.Optional(Intent),
  paidPlansCheckout: Type.Optional(Intent),
  bookingsBook: Type.Optional(Intent),
  ecomOrderPaymentRequest: Type.Optional(Intent),
  callbacks: Type.Optional(Type.Record(Type.String(), Type.Union([Text(2048), Type.Null()]))),
  preferences: Type.Optional(Type.Object({
    useGenericWixPages: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    maintainIdentity: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    additionalQueryParameters: Type.Optional(Type.Record(Type.String(), Text(500))),
    checkIfPublish: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  })),
  origin: Type.Optional(Type.Union([Text(2048), Type.Null()])),
});

const AuthorizeQuery = Type.Object({ clientId: Type.Optional(Text(128)), redirectSessionId: Type.Optional(Text(128)) });
const AuthorizeForm = Type.Object({
  clientId: Type.Optional(Text(128)),
  redirectSessionId: Type.Optional(Text(128)),
  sessionToken: Type.Optional(Text(512)),
});
const ClaimParams = Type.Object({ redirectSessionId: Text(128) });
const ClaimBody = Type.Object({ clientId: Text(128), checkoutId: Text(128) });

/** The hosted checkout page claims the shopper of the redirect session it was opened with. */
export const HANDOVER_CLAIM_PATH = '/_api/bodega/v1/redirect-sessions/:redirectSessionId/claim';

const LogoutQuery = Type.Object({ postLogoutRedirectUri: Type.Optional(Text(2048)), clientId: Type.Optional(Text(128)) });

export interface RedirectsRoutesOptions {
  publicUrl: string;
}

/** Redirect sessions (both paths), the authorize step and logout. */
export function redirectsRoutes(redirects: RedirectsService, options: RedirectsRoutesOptions) {
  const secure = options.publicUrl.startsWith('https:');
  const cookieOf = (req: FastifyRequest) => (siteId: string) => readCookie(req.headers.cookie, sessionCookieName(siteId));

  function send(reply: FastifyReply, result: AuthorizeResult, method: string) {
    reply.header('cache-control', 'no-store');
    reply.header('referrer-policy', 'no-referrer');
    if (result.type === 'error') return reply.status(result.status).type('text/html; charset=utf-8').send(errorPage(result.title, result.message));
    if (result.setSession) {
      reply.header('set-cookie', sessionCookie(result.setSession.siteId, result.setSession.token, { maxAgeSeconds: SESSION_TTL_MS / 1000, secure }));
    }
    if (result.type === 'message') return reply.type('text/html; charset=utf-8').send(webMessagePage(result.targetOrigin, result.data));
    // 303 after the hosted page's POST so the browser follows with GET.
    return reply.redirect(result.location, method === 'POST' ? 303 : 302);
  }

  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    // The hosted sign-in page continues with a plain form POST (no token in the URL).
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
    });

    for (const path of ['/_api/redirects-api/v1/redirect-session', '/headless/v1/redirect-session']) {
      app.post(path, { schema: { body: RedirectSessionBody, response: { 200: RedirectSessionResponse } }, config: { access: 'shop' } }, async (req) => {
        const body: RedirectSessionRequest = req.body;
        const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
        return { redirectSession: await redirects.createRedirectSession(req.ctx, body, origin) };
      });
    }

    // Public: the session id in the link is the credential (single use, short-lived; handover.ts).
    app.post(HANDOVER_CLAIM_PATH, { schema: { params: ClaimParams, body: ClaimBody, response: { 200: HandoverResponse } } }, async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const { clientId, checkoutId } = req.body;
      return { handover: await redirects.handovers.claim(clientId, req.params.redirectSessionId, checkoutId) };
    });

    app.get(AUTHORIZE_PATH, { schema: { querystring: AuthorizeQuery } }, async (req, reply) => {
      const query = req.query;
      return send(reply, await redirects.authorize({ ...query, cookieToken: cookieOf(req) }), 'GET');
    });

    app.post(AUTHORIZE_PATH, { schema: { body: AuthorizeForm } }, async (req, reply) => {
      // Only the hosted page (same origin) may post a session token here: no login CSRF.
      const origin = req.headers.origin;
      if (origin && origin !== 'null' && origin !== new URL(options.publicUrl).origin) {
        return send(reply, { type: 'error', status: 403, title: 'Not allowed', message: 'Sign in from this store’s own sign-in page.' }, 'POST');
      }
      const form = req.body;
      return send(reply, await redirects.authorize({ ...form, cookieToken: cookieOf(req) }), 'POST');
    });

    app.get(LOGOUT_PATH, { schema: { querystring: AuthorizeQuery } }, async (req, reply) => {
      const query = req.query;
      const result = await redirects.logoutRedirect({ ...query, cookieToken: cookieOf(req) });
      reply.header('cache-control', 'no-store');
      if (result.clearSiteId) reply.header('set-cookie', clearedSessionCookie(result.clearSiteId, secure));
      return reply.redirect(result.location, 302);
    });

    // A browser navigation is redirected; an API call gets the post-logout URL as JSON.
    app.get(`${AUTHENTICATION_PREFIX}/v1/logout`, { schema: { querystring: LogoutQuery, response: { 200: LogoutResponse } } }, async (req, reply) => {
      const query = req.query;
      const result = await redirects.logoutCall(req.caller ? req.ctx : null, { ...query, cookieToken: cookieOf(req) });
      if (result.siteId) reply.header('set-cookie', clearedSessionCookie(result.siteId, secure));
      reply.header('cache-control', 'no-store');
      if ((req.headers.accept ?? '').includes('text/html')) return reply.redirect(result.location, 302);
      return { postLogoutRedirectUri: result.location };
    });
  };
}
