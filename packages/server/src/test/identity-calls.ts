/**
 * The sign-in calls the identity tests make through the app: register, login, the outbox's code,
 * and a member's tokens by the code exchange. Shared by the identity test files.
 */
import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { StoredMail } from '../platform/mail.js';
import type { TestSite } from './harness.js';
import type { SignInApp } from './sign-in.js';

export const AUTH = '/_api/iam/authentication';

let emailCounter = 0;
export const newEmail = (tag = 'member') => `${tag}.${++emailCounter}.${Date.now()}@Example.com`;

export function applicationCode(res: LightMyRequestResponse): string | undefined {
  return res.json().details?.applicationError?.code;
}

export interface IdentityCalls {
  post(url: string, payload: unknown, authorization?: string): Promise<LightMyRequestResponse>;
  register(site: TestSite, email: string, password?: string, extra?: Record<string, unknown>): Promise<LightMyRequestResponse>;
  login(site: TestSite, email: string, password?: string, extra?: Record<string, unknown>): Promise<LightMyRequestResponse>;
  latestMail(site: TestSite, to: string): Promise<StoredMail>;
  codeFromOutbox(site: TestSite, to: string): Promise<string>;
  /** A member's tokens: session token → redirect session (prompt none) → code → token grant. */
  memberTokens(site: TestSite, sessionToken: string): Promise<{ access_token: string; refresh_token: string }>;
}

export function identityCalls(get: () => SignInApp): IdentityCalls {
  const post = async (url: string, payload: unknown, authorization?: string) =>
    get().app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers: authorization ? { authorization } : {} });
  const latestMail = async (site: TestSite, to: string) => {
    const mail = (await get().app.services.mail.listForSite(site.siteId)).find((m) => m.to === to);
    if (!mail) throw new Error(`no mail to ${to}`);
    return mail;
  };
  return {
    post,
    register: async (site, email, password = 'a-good-password', extra = {}) =>
      post(`${AUTH}/v2/register`, { loginId: { email }, password, ...extra }, await get().visitorToken(site)),
    login: async (site, email, password = 'a-good-password', extra = {}) =>
      post(`${AUTH}/v2/login`, { loginId: { email }, password, ...extra }, await get().visitorToken(site)),
    latestMail,
    async codeFromOutbox(site, to) {
      const mail = await latestMail(site, to);
      const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
      expect(code, 'the code is in the text body').toBeDefined();
      expect(mail.html).toContain(code);
      return code as string;
    },
    async memberTokens(site, sessionToken) {
      const verifier = 'v'.repeat(43);
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      const session = await post('/_api/redirects-api/v1/redirect-session', {
        auth: { authRequest: { clientId: site.clientId, redirectUri: 'http://localhost:3000/done', codeChallenge: challenge, codeChallengeMethod: 'S256', responseMode: 'query', responseType: 'code', state: 'st', sessionToken }, prompt: 'none' },
      }, await get().visitorToken(site));
      const fullUrl = new URL(session.json().redirectSession.fullUrl);
      const authorize = await get().app.inject({ method: 'GET', url: fullUrl.pathname + fullUrl.search });
      const code = new URL(authorize.headers.location as string).searchParams.get('code');
      const res = await post('/oauth2/token', { clientId: site.clientId, grantType: 'authorization_code', code, codeVerifier: verifier, redirectUri: 'http://localhost:3000/done' });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { access_token: string; refresh_token: string };
    },
  };
}
