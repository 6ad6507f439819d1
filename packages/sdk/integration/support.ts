/**
 * Integration kit for @bodega/sdk: a real Bodega server listening on 127.0.0.1 (PGlite from the
 * migrated snapshot, or DATABASE_URL), sites created through the server's own services, and SDK
 * clients pointed at it. No HTTP is mocked: every SDK call crosses a socket to the server.
 */
import { expect } from 'vitest';
import {
  ApiKeyStrategy, BodegaError, createClient, OAuthStrategy, type Module, type OAuthAuth, type OAuthStrategyOptions,
  type StateMachine, type Tokens,
} from '@bodega/sdk';
import { testApp, type TestApp, type TestSite } from '../../server/src/test/harness.js';
import { freePort, signInApp, SmtpCapture, type SignInApp } from '../../server/src/test/sign-in.js';
import type { CreateSiteInput } from '../../server/src/services/sites/service.js';

export type { TestSite };

export interface Server {
  /** The listening origin, also the server's PUBLIC_URL (so redirect URLs are reachable). */
  origin: string;
  app: TestApp['app'];
  db: TestApp['db'];
  createSite(input?: Partial<CreateSiteInput>): Promise<TestSite>;
  close(): Promise<void>;
}

export interface ServerOptions {
  now?: () => Date;
  /** Extra routes (e.g. a test page) registered before the app is ready. */
  routes?: (app: TestApp['app']) => void;
}

/** `testApp()` listening on a free port whose origin is the app's PUBLIC_URL. */
export async function startServer(options: ServerOptions = {}): Promise<Server> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const t = await testApp({ publicUrl: origin, now: options.now, routes: options.routes });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { origin, app: t.app, db: t.db, createSite: (input) => t.createSite(input), close: () => t.close() };
}

export interface IdentityServer extends Server {
  smtp: SmtpCapture;
}

/** A listening server that sends mail to a local SMTP capture and checks captchas with the test provider. */
export async function startIdentityServer(options: ServerOptions = {}): Promise<IdentityServer> {
  const smtp = new SmtpCapture();
  const smtpUrl = await smtp.start();
  const t: SignInApp = await signInApp({ now: options.now, smtpUrl, captchaProvider: 'test', listen: true });
  return {
    origin: t.url,
    app: t.app,
    db: t.db,
    smtp,
    createSite: (input) => t.createSite(input),
    async close() {
      await t.close();
      await smtp.stop();
    },
  };
}

/** A storefront client: OAuthStrategy, visitor tokens taken lazily on the first call. */
export function visitorClient<M extends Record<string, Module>>(
  origin: string,
  site: TestSite,
  modules: M,
  auth: Omit<OAuthStrategyOptions, 'clientId'> = {},
) {
  return createClient({ baseUrl: origin, auth: OAuthStrategy({ clientId: site.clientId, ...auth }), modules });
}

/** A server-side client: ApiKeyStrategy with the site's API key. */
export function adminClient<M extends Record<string, Module>>(origin: string, site: TestSite, modules: M) {
  return createClient({ baseUrl: origin, auth: ApiKeyStrategy({ apiKey: site.apiKey, siteId: site.siteId }), modules });
}

let counter = 0;
export function uniqueEmail(tag = 'sdk'): string {
  return `${tag}.${++counter}.${process.pid}.${Date.now()}@example.com`;
}

export const PASSWORD = 'a-good-password';

/** The session token of a SUCCESS state (fails the test otherwise). */
export function sessionTokenOf(state: StateMachine): string {
  expect(state.loginState).toBe('SUCCESS');
  if (state.loginState !== 'SUCCESS') throw new Error('not signed in');
  return state.data.sessionToken;
}

/**
 * The redirect sign-in an app makes after register/login: getAuthUrl (prompt none, the session
 * token) → the server's authorize answer (a 302 to the redirect URI) → getMemberTokens.
 */
export async function memberTokensFor(auth: OAuthAuth, origin: string, sessionToken: string): Promise<Tokens> {
  const oauthData = await auth.generateOAuthData(`${origin}/callback`);
  const { authUrl } = await auth.getAuthUrl(oauthData, { prompt: 'none', responseMode: 'query', sessionToken });
  const answer = await fetch(authUrl, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  const { code, state, error } = auth.parseFromUrl(answer.headers.get('location') ?? '', 'query');
  expect(error).toBeUndefined();
  return auth.getMemberTokens(code, state, oauthData);
}

/** Registers a new member on an open site and signs the client in as that member. */
export async function signUp(auth: OAuthAuth, origin: string, email = uniqueEmail()): Promise<{ email: string; tokens: Tokens }> {
  const registered = await auth.register({ email, password: PASSWORD, profile: { nickname: email.split('@')[0] } });
  const tokens = await memberTokensFor(auth, origin, sessionTokenOf(registered));
  expect(auth.loggedIn()).toBe(true);
  return { email, tokens };
}

/** The rejection of a promise as a BodegaError (fails the test when it resolves or throws anything else). */
export async function rejection(promise: Promise<unknown>): Promise<BodegaError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(BodegaError);
    return error as BodegaError;
  }
  throw new Error('expected the call to fail');
}

/** Polls `check` until it returns a value other than undefined, or fails after the deadline. */
export async function poll<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
