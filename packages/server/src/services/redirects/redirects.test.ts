import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { signInApp, type SignInApp } from '../../test/sign-in.js';
import type { TestSite } from '../../test/harness.js';

let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
let t: SignInApp;
const handOffs: { siteId: string; visitorId: string; memberId: string }[] = [];

beforeAll(async () => {
  t = await signInApp({ now });
  t.app.services.identity.onVisitorBecameMember(async (ctx, visitorId, memberId) => {
    await ctx.db.query('SELECT 1');
    handOffs.push({ siteId: ctx.siteId, visitorId, memberId });
  });
});
afterAll(() => t.close());

const SHOP = 'https://shop.example';
const REDIRECT_URI = `${SHOP}/callback`;
const VERIFIER = 'a-long-and-random-code-verifier-of-43-chars-or-more';
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');
let counter = 0;

async function post(url: string, payload: unknown, authorization?: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers: { ...(authorization ? { authorization } : {}), ...headers } });
}

async function get(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  const u = new URL(url, 'http://localhost:3000');
  return t.app.inject({ method: 'GET', url: u.pathname + u.search, headers });
}

async function newSite(): Promise<TestSite> {
  return t.createSite({ allowedOrigins: [SHOP] });
}

/** A registered member on an open site: their e-mail and a session token. */
async function member(site: TestSite): Promise<{ email: string; sessionToken: string; memberId: string; visitor: string }> {
  const email = `m${++counter}.${Date.now()}@example.com`;
  const visitor = await t.visitorToken(site);
  const res = await post('/_api/iam/authentication/v2/register', { loginId: { email }, password: 'a-good-password' }, visitor);
  expect(res.statusCode, res.body).toBe(200);
  return { email, sessionToken: res.json().sessionToken, memberId: res.json().identity.id, visitor };
}

function authRequest(site: TestSite, overrides: Record<string, unknown> = {}) {
  return {
    redirectUri: REDIRECT_URI, clientId: site.clientId, codeChallenge: CHALLENGE, codeChallengeMethod: 'S256',
    responseMode: 'query', responseType: 'code', scope: 'offline_access', state: 'the-state', ...overrides,
  };
}

async function redirectSession(site: TestSite, body: unknown, token?: string, path = '/_api/redirects-api/v1/redirect-session') {
  return post(path, body, token ?? (await t.visitorToken(site)));
}

async function exchange(site: TestSite, code: string | null, overrides: Record<string, unknown> = {}) {
  return post('/oauth2/token', { clientId: site.clientId, grantType: 'authorization_code', redirectUri: REDIRECT_URI, code, codeVerifier: VERIFIER, ...overrides });
}

/** prompt=none with a session token: fullUrl answers a redirect carrying the code. */
async function codeFor(site: TestSite, sessionToken: string, token?: string): Promise<string> {
  const res = await redirectSession(site, { auth: { authRequest: authRequest(site, { sessionToken }), prompt: 'none' } }, token);
  expect(res.statusCode, res.body).toBe(200);
  const authorize = await get(res.json().redirectSession.fullUrl);
  expect(authorize.statusCode).toBe(302);
  return new URL(authorize.headers.location as string).searchParams.get('code') as string;
}

describe('redirect sessions', () => {
  it('answers redirectSession{id, fullUrl, urlDetails, sessionToken} on PUBLIC_URL, on both paths', async () => {
    const site = await newSite();
    for (const path of ['/_api/redirects-api/v1/redirect-session', '/headless/v1/redirect-session']) {
      const res = await redirectSession(site, { auth: { authRequest: authRequest(site), prompt: 'login' } }, undefined, path);
      expect(res.statusCode, res.body).toBe(200);
      const session = res.json().redirectSession;
      expect(session).toEqual({
        id: expect.any(String),
        fullUrl: expect.stringMatching(/^http:\/\/localhost:3000\/oauth2\/authorize\?/),
        urlDetails: { endpoint: 'http://localhost:3000/oauth2/authorize', searchParams: { clientId: site.clientId, redirectSessionId: session.id } },
      });
    }
  });

  it('sends prompt=login to the hosted sign-in page', async () => {
    const site = await newSite();
    const res = await redirectSession(site, { auth: { authRequest: authRequest(site), prompt: 'login' } });
    const authorize = await get(res.json().redirectSession.fullUrl);
    expect(authorize.statusCode).toBe(302);
    const location = new URL(authorize.headers.location as string);
    expect(location.origin + location.pathname).toBe('http://localhost:3000/auth/sign-in');
    expect(location.searchParams.get('clientId')).toBe(site.clientId);
    expect(location.searchParams.get('redirectSessionId')).toBe(res.json().redirectSession.id);
  });

  it('refuses a redirect URI off the allowed origins, an unknown client and a bad PKCE method', async () => {
    const site = await newSite();
    const cases: [Record<string, unknown>, string][] = [
      [{ redirectUri: 'https://evil.example/callback' }, 'INVALID_REDIRECT_URI'],
      [{ redirectUri: 'https://shop.example.evil.example/callback' }, 'INVALID_REDIRECT_URI'],
      [{ clientId: 'no-such-client' }, 'INVALID_CLIENT'],
      [{ codeChallengeMethod: 'plain' }, 'INVALID_CODE_CHALLENGE_METHOD'],
    ];
    for (const [overrides, code] of cases) {
      const res = await redirectSession(site, { auth: { authRequest: authRequest(site, overrides), prompt: 'login' } });
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(res.json().details.applicationError.code).toBe(code);
    }
    const noChallenge = await redirectSession(site, { auth: { authRequest: authRequest(site, { codeChallenge: undefined }), prompt: 'login' } });
    expect(noChallenge.json().details.validationError.fieldViolations[0].field).toBe('auth.authRequest.codeChallenge');
    const otherSite = await newSite();
    const foreign = await redirectSession(site, { auth: { authRequest: authRequest(otherSite), prompt: 'login' } });
    expect(foreign.json().details.applicationError.code).toBe('INVALID_CLIENT');
  });

  it('allows the PUBLIC_URL origin always, and origins from the site settings', async () => {
    const site = await t.createSite();
    const own = await redirectSession(site, { auth: { authRequest: authRequest(site, { redirectUri: 'http://localhost:3000/done' }) } });
    expect(own.statusCode).toBe(200);
    expect((await redirectSession(site, { auth: { authRequest: authRequest(site) } })).statusCode).toBe(400);
    await t.app.services.sites.updateSettings(t.app.services.sites.contextFor(site.siteId), { allowedOrigins: [SHOP] });
    expect((await redirectSession(site, { auth: { authRequest: authRequest(site) } })).statusCode).toBe(200);
  });

  it('builds store links for checkout, product and the members account sections', async () => {
    const site = await newSite();
    const checkout = await redirectSession(site, { ecomCheckout: { checkoutId: 'co-1' }, callbacks: { postFlowUrl: `${SHOP}/back`, thankYouPageUrl: `${SHOP}/thanks` } });
    const checkoutUrl = new URL(checkout.json().redirectSession.fullUrl);
    expect(checkoutUrl.pathname).toBe('/checkout');
    expect(Object.fromEntries(checkoutUrl.searchParams)).toMatchObject({ checkoutId: 'co-1', postFlowUrl: `${SHOP}/back`, thankYouPageUrl: `${SHOP}/thanks` });
    const product = await redirectSession(site, { storesProduct: { productSlug: 'red shoe' }, preferences: { additionalQueryParameters: { lang: 'fr' } } });
    const productUrl = new URL(product.json().redirectSession.fullUrl);
    expect([productUrl.pathname, productUrl.searchParams.get('lang')]).toEqual(['/products/red%20shoe', 'fr']);
    for (const [section, path] of [['ACCOUNT_INFO', '/account'], ['ORDERS', '/account/orders'], ['BOOKINGS', '/account/bookings'], ['SUBSCRIPTIONS', '/account/subscriptions'], ['EVENTS', '/account/events']]) {
      const res = await redirectSession(site, { membersAccount: { section } });
      expect(new URL(res.json().redirectSession.fullUrl).pathname).toBe(path);
    }
    const login = await redirectSession(site, { login: {}, callbacks: { postFlowUrl: `${SHOP}/back` } });
    expect(new URL(login.json().redirectSession.fullUrl).pathname).toBe('/auth/sign-in');
  });

  it('refuses unknown sections, unlisted callbacks, unsupported and missing or double intents', async () => {
    const site = await newSite();
    expect((await redirectSession(site, { membersAccount: { section: 'NOPE' } })).statusCode).toBe(400);
    const evil = await redirectSession(site, { ecomCheckout: { checkoutId: 'co-1' }, callbacks: { postFlowUrl: 'https://evil.example/' } });
    expect(evil.json().details.applicationError.code).toBe('INVALID_REDIRECT_URI');
    expect((await redirectSession(site, { bookingsCheckout: { timezone: 'UTC' } })).json().details.applicationError.code).toBe('UNSUPPORTED_INTENT');
    expect((await redirectSession(site, {})).statusCode).toBe(400);
    expect((await redirectSession(site, { login: {}, ecomCheckout: { checkoutId: 'c' } })).statusCode).toBe(400);
  });
});

describe('authorize and the code exchange', () => {
  it('redirects at once with prompt=none and a session token, and the code buys member tokens', async () => {
    const site = await newSite();
    const m = await member(site);
    const res = await redirectSession(site, { auth: { authRequest: authRequest(site, { sessionToken: m.sessionToken }), prompt: 'none' } });
    const authorize = await get(res.json().redirectSession.fullUrl);
    expect(authorize.statusCode).toBe(302);
    expect(authorize.headers['content-length'] ?? '0').toBe('0');
    const location = new URL(authorize.headers.location as string);
    expect(location.origin + location.pathname).toBe(REDIRECT_URI);
    expect(location.searchParams.get('state')).toBe('the-state');
    const tokens = await exchange(site, location.searchParams.get('code'));
    expect(tokens.statusCode, tokens.body).toBe(200);
    expect(tokens.json()).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String), expires_in: 14400, token_type: 'Bearer' });
    const caller = await t.app.services.oauth.callerResolver().fromAccessToken(tokens.json().access_token);
    expect(caller).toMatchObject({ kind: 'MEMBER', subjectId: m.memberId, memberRole: 'MEMBER' });
    const refreshed = await post('/oauth2/token', { clientId: site.clientId, grantType: 'refresh_token', refreshToken: tokens.json().refresh_token });
    expect(refreshed.statusCode).toBe(200);
  });

  it('puts the answer in the fragment by default', async () => {
    const site = await newSite();
    const m = await member(site);
    const res = await redirectSession(site, { auth: { authRequest: authRequest(site, { sessionToken: m.sessionToken, responseMode: undefined }), prompt: 'none' } });
    const location = new URL((await get(res.json().redirectSession.fullUrl)).headers.location as string);
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect([location.search, fragment.get('state'), fragment.get('code')?.length]).toEqual(['', 'the-state', 43]);
  });

  it('answers error=login_required without a session, and never a code for a blocked member', async () => {
    const site = await newSite();
    const none = await redirectSession(site, { auth: { authRequest: authRequest(site), prompt: 'none' } });
    const location = new URL((await get(none.json().redirectSession.fullUrl)).headers.location as string);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({ error: 'login_required', state: 'the-state' });
    expect(location.searchParams.get('code')).toBeNull();
    const m = await member(site);
    await t.app.services.identity.setMemberStatus(t.app.services.sites.contextFor(site.siteId), m.memberId, 'BLOCKED');
    const blocked = await redirectSession(site, { auth: { authRequest: authRequest(site, { sessionToken: m.sessionToken }), prompt: 'none' } });
    const blockedLocation = new URL((await get(blocked.json().redirectSession.fullUrl)).headers.location as string);
    expect(blockedLocation.searchParams.get('code')).toBeNull();
    expect(blockedLocation.searchParams.get('error')).toEqual(expect.any(String));
  });

  it('answers web_message with a page that posts {code, state} to the redirect origin only', async () => {
    const site = await newSite();
    const m = await member(site);
    const withoutUri = await redirectSession(site, { auth: { authRequest: authRequest(site, { sessionToken: m.sessionToken, redirectUri: undefined, responseMode: 'web_message' }), prompt: 'none' } },
      undefined);
    expect(withoutUri.statusCode, 'no redirectUri and no Origin header').toBe(400);
    const res = await post('/_api/redirects-api/v1/redirect-session',
      { auth: { authRequest: authRequest(site, { sessionToken: m.sessionToken, redirectUri: undefined, responseMode: 'web_message' }), prompt: 'none' } },
      await t.visitorToken(site), { origin: SHOP });
    expect(res.statusCode, res.body).toBe(200);
    const page = await get(res.json().redirectSession.fullUrl);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain(`postMessage(data, "${SHOP}")`);
    const code = /"code":"([^"]+)"/.exec(page.body)?.[1] as string;
    expect(page.body).toContain('"state":"the-state"');
    const tokens = await exchange(site, code, { redirectUri: undefined });
    expect(tokens.statusCode, tokens.body).toBe(200);
    const evilOrigin = await post('/_api/redirects-api/v1/redirect-session',
      { auth: { authRequest: authRequest(site, { redirectUri: undefined, responseMode: 'web_message' }), prompt: 'none' } },
      await t.visitorToken(site), { origin: 'https://evil.example' });
    expect(evilOrigin.statusCode).toBe(400);
  });

  it('uses a code once: a replay fails and ends the sign-in it started', async () => {
    const site = await newSite();
    const m = await member(site);
    const code = await codeFor(site, m.sessionToken);
    const first = await exchange(site, code);
    expect(first.statusCode).toBe(200);
    const replay = await exchange(site, code);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().details.applicationError).toMatchObject({ code: 'INVALID_GRANT', description: expect.stringContaining('already used') });
    const refresh = await post('/oauth2/token', { clientId: site.clientId, grantType: 'refresh_token', refreshToken: first.json().refresh_token });
    expect(refresh.statusCode).toBe(400);
  });

  it('gives a code one try: after a wrong verifier the right one is refused too', async () => {
    const site = await newSite();
    const m = await member(site);
    const code = await codeFor(site, m.sessionToken);
    const wrong = await exchange(site, code, { codeVerifier: `${VERIFIER}x` });
    expect(wrong.json().details.applicationError.description).toContain('does not match');
    const right = await exchange(site, code);
    expect(right.statusCode).toBe(400);
    expect(right.json().details.applicationError.description).toContain('already used');
  });

  it('checks the PKCE verifier, the redirect URI, the client and the 60-second lifetime', async () => {
    const site = await newSite();
    const m = await member(site);
    const cases: [Record<string, unknown>, string][] = [
      [{ codeVerifier: `${VERIFIER}x` }, 'does not match'],
      [{ codeVerifier: 'too-short' }, '43 to 128'],
      [{ codeVerifier: undefined }, '43 to 128'],
      [{ redirectUri: `${SHOP}/other` }, 'redirectUri'],
    ];
    for (const [overrides, message] of cases) {
      const res = await exchange(site, await codeFor(site, m.sessionToken), overrides);
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(res.json().details.applicationError.description).toContain(message);
    }
    const other = await newSite();
    const foreign = await exchange(other, await codeFor(site, m.sessionToken));
    expect(foreign.json().details.applicationError.code).toBe('INVALID_GRANT');
    const code = await codeFor(site, m.sessionToken);
    offsetMs += 61_000;
    try {
      const late = await exchange(site, code);
      expect(late.json().details.applicationError.description).toContain('expired');
    } finally {
      offsetMs -= 61_000;
    }
  });

  it('gives a redirect session one code only', async () => {
    const site = await newSite();
    const m = await member(site);
    const res = await redirectSession(site, { auth: { authRequest: authRequest(site, { sessionToken: m.sessionToken }), prompt: 'none' } });
    expect((await get(res.json().redirectSession.fullUrl)).statusCode).toBe(302);
    const again = await get(res.json().redirectSession.fullUrl);
    expect([again.statusCode, again.headers.location]).toEqual([410, undefined]);
  });

  it('shows an error page, never a redirect, for unknown links and clients', async () => {
    const site = await newSite();
    for (const url of [`/oauth2/authorize?clientId=${site.clientId}&redirectSessionId=nope`, '/oauth2/authorize?clientId=nope&redirectSessionId=x', '/oauth2/authorize']) {
      const res = await get(url);
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.headers['content-type']).toContain('text/html');
    }
  });

  it('continues from the hosted page with a form POST, sets the hosted cookie, then signs in silently', async () => {
    const site = await newSite();
    const m = await member(site);
    const res = await redirectSession(site, { auth: { authRequest: authRequest(site), prompt: 'login' } });
    const { id } = res.json().redirectSession;
    const form = new URLSearchParams({ clientId: site.clientId, redirectSessionId: id, sessionToken: m.sessionToken }).toString();
    const crossSite = await t.app.inject({ method: 'POST', url: '/oauth2/authorize', payload: form, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' } });
    expect(crossSite.statusCode).toBe(403);
    const posted = await t.app.inject({ method: 'POST', url: '/oauth2/authorize', payload: form, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:3000' } });
    expect(posted.statusCode).toBe(303);
    const code = new URL(posted.headers.location as string).searchParams.get('code');
    expect((await exchange(site, code)).statusCode).toBe(200);
    const cookie = String(posted.headers['set-cookie']).split(';')[0];
    expect(String(posted.headers['set-cookie'])).toMatch(/HttpOnly.*SameSite=Lax/);
    const silent = await redirectSession(site, { auth: { authRequest: authRequest(site), prompt: 'none' } });
    const location = new URL((await get(silent.json().redirectSession.fullUrl, { cookie })).headers.location as string);
    expect(location.searchParams.get('code')).toEqual(expect.any(String));
  });

  it('signs in through a login session on the hosted page and returns to postFlowUrl', async () => {
    const site = await newSite();
    const m = await member(site);
    const res = await redirectSession(site, { login: {}, callbacks: { postFlowUrl: `${SHOP}/welcome` } });
    const page = new URL(res.json().redirectSession.fullUrl);
    expect(page.pathname).toBe('/auth/sign-in');
    const form = new URLSearchParams({ clientId: page.searchParams.get('clientId') as string, redirectSessionId: res.json().redirectSession.id, sessionToken: m.sessionToken });
    const posted = await t.app.inject({ method: 'POST', url: '/oauth2/authorize', payload: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect([posted.statusCode, posted.headers.location]).toEqual([303, `${SHOP}/welcome?wixMemberLoggedIn=true`]);
    expect(String(posted.headers['set-cookie'])).toContain(`bodega_session_${site.siteId}=`);
  });

  it('hands the visitor who started the sign-in over to the member at the code exchange', async () => {
    const site = await newSite();
    const m = await member(site);
    const shopper = await t.visitorToken(site);
    const visitor = await t.app.services.oauth.callerResolver().fromAccessToken(shopper);
    const code = await codeFor(site, m.sessionToken, shopper);
    expect((await exchange(site, code)).statusCode).toBe(200);
    expect(handOffs).toContainEqual({ siteId: site.siteId, visitorId: visitor.subjectId, memberId: m.memberId });
  });
});

describe('authorized_client grant', () => {
  it('signs a member in for a backend with an API key and a visitor token', async () => {
    const site = await newSite();
    const m = await member(site);
    const visitor = await t.visitorToken(site);
    const res = await t.app.inject({ method: 'POST', url: '/oauth2/token', headers: { authorization: `${visitor},${site.apiKey}` }, payload: { grant_type: 'authorized_client', scope: 'offline_access', member_id: m.memberId } });
    expect(res.statusCode, res.body).toBe(200);
    const caller = await t.app.services.oauth.callerResolver().fromAccessToken(res.json().access_token);
    expect(caller).toMatchObject({ kind: 'MEMBER', subjectId: m.memberId });
    const renewed = await post('/oauth2/token', { clientId: site.clientId, grantType: 'refresh_token', refreshToken: res.json().refresh_token });
    expect(renewed.statusCode).toBe(200);
  });

  it('checks the session token and the API key', async () => {
    const site = await newSite();
    const m = await member(site);
    const other = await member(site);
    const visitor = await t.visitorToken(site);
    const send = (authorization: string, payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/oauth2/token', headers: { authorization }, payload: { grant_type: 'authorized_client', ...payload } });
    expect((await send(`${visitor},${site.apiKey}`, { member_id: m.memberId, session_token: m.sessionToken })).statusCode).toBe(200);
    expect((await send(`${visitor},${site.apiKey}`, { member_id: m.memberId, session_token: other.sessionToken })).statusCode).toBe(400);
    expect((await send(`${visitor},bdg_nope`, { member_id: m.memberId })).statusCode).toBe(401);
    expect((await send(site.apiKey, { member_id: m.memberId })).statusCode).toBe(401);
    expect((await send(`${visitor},${site.apiKey}`, { member_id: 'nobody' })).statusCode).toBe(400);
  });
});

describe('logout', () => {
  it('revokes the sign-in of the access token at once and sends the browser to postFlowUrl', async () => {
    const site = await newSite();
    const m = await member(site);
    const tokens = (await exchange(site, await codeFor(site, m.sessionToken))).json();
    const other = (await exchange(site, await codeFor(site, m.sessionToken))).json();
    const res = await redirectSession(site, { logout: { clientId: site.clientId }, callbacks: { postFlowUrl: `${SHOP}/bye` } }, tokens.access_token);
    expect(res.statusCode, res.body).toBe(200);
    expect((await post('/oauth2/token', { clientId: site.clientId, grantType: 'refresh_token', refreshToken: tokens.refresh_token })).statusCode).toBe(400);
    expect((await post('/oauth2/token', { clientId: site.clientId, grantType: 'refresh_token', refreshToken: other.refresh_token })).statusCode, 'another sign-in stays').toBe(200);
    const visit = await get(res.json().redirectSession.fullUrl, { cookie: `bodega_session_${site.siteId}=whatever` });
    expect([visit.statusCode, visit.headers.location]).toEqual([302, `${SHOP}/bye`]);
    expect(String(visit.headers['set-cookie'])).toContain('Max-Age=0');
  });

  it('answers the post-logout URL to GET v1/logout, allowed ones only', async () => {
    const site = await newSite();
    const m = await member(site);
    const tokens = (await exchange(site, await codeFor(site, m.sessionToken))).json();
    const res = await get(`/_api/iam/authentication/v1/logout?clientId=${site.clientId}&postLogoutRedirectUri=${encodeURIComponent(`${SHOP}/bye`)}`, { authorization: tokens.access_token });
    expect(res.json()).toEqual({ postLogoutRedirectUri: `${SHOP}/bye` });
    expect((await post('/oauth2/token', { clientId: site.clientId, grantType: 'refresh_token', refreshToken: tokens.refresh_token })).statusCode).toBe(400);
    const evil = await get(`/_api/iam/authentication/v1/logout?clientId=${site.clientId}&postLogoutRedirectUri=${encodeURIComponent('https://evil.example/')}`, { accept: 'text/html' });
    expect([evil.statusCode, evil.headers.location]).toEqual([302, 'http://localhost:3000/']);
  });
});
