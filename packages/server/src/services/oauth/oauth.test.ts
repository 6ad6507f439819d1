import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { ACCESS_TOKEN_TTL_SECONDS } from './service.js';

let clock = new Date('2026-01-01T00:00:00Z');
let t: TestApp;
let site: TestSite;

beforeAll(async () => {
  t = await testApp({
    now: () => clock,
    routes(app) {
      app.get('/v1/whoami', { config: { access: 'shop' } }, async (req) => ({ caller: req.ctx.caller, siteId: req.ctx.siteId }));
      app.get('/v1/back-office', { config: { access: 'staff' } }, async () => ({}));
    },
  });
  site = await t.createSite();
});
afterAll(() => t.close());

async function token(body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/oauth2/token', payload: body });
}

describe('token endpoint', () => {
  it('gives a visitor an access token, a refresh token and the lifetime in seconds', async () => {
    const res = await token({ clientId: site.clientId, grantType: 'anonymous' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String), expires_in: ACCESS_TOKEN_TTL_SECONDS, token_type: 'Bearer' });
    expect(ACCESS_TOKEN_TTL_SECONDS).toBe(14400);
  });

  it('serves the custom-host path too', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/_api/oauth2/token', payload: { clientId: site.clientId, grantType: 'anonymous' } });
    expect(res.statusCode).toBe(200);
  });

  it('renews an access token from a reusable refresh token, keeping the visitor', async () => {
    const first = (await token({ clientId: site.clientId, grantType: 'anonymous' })).json();
    const whoFirst = (await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: { authorization: first.access_token } })).json();
    for (let i = 0; i < 2; i++) {
      clock = new Date(clock.getTime() + 1000);
      const renewed = await token({ clientId: site.clientId, grantType: 'refresh_token', refreshToken: first.refresh_token });
      expect(renewed.statusCode).toBe(200);
      expect(renewed.json().refresh_token).toBe(first.refresh_token);
      const who = (await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: { authorization: renewed.json().access_token } })).json();
      expect(who.caller.subjectId).toBe(whoFirst.caller.subjectId);
      expect(who.caller.kind).toBe('ANONYMOUS_VISITOR');
    }
  });

  it('gives each anonymous grant a different visitor', async () => {
    const a = (await token({ clientId: site.clientId, grantType: 'anonymous' })).json();
    const b = (await token({ clientId: site.clientId, grantType: 'anonymous' })).json();
    const whoA = (await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: { authorization: a.access_token } })).json();
    const whoB = (await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: { authorization: b.access_token } })).json();
    expect(whoA.caller.subjectId).not.toBe(whoB.caller.subjectId);
    expect(a.refresh_token).not.toBe(b.refresh_token);
  });

  it.each([
    ['an unknown client', () => ({ clientId: '00000000-0000-0000-0000-000000000000', grantType: 'anonymous' }), 400, 'INVALID_CLIENT'],
    ['an unknown refresh token', () => ({ clientId: site.clientId, grantType: 'refresh_token', refreshToken: 'nope' }), 400, 'INVALID_GRANT'],
    ['an unsupported grant', () => ({ clientId: site.clientId, grantType: 'password' }), 400, 'UNSUPPORTED_GRANT_TYPE'],
  ])('refuses %s in the wire shape', async (_name, body, status, code) => {
    const res = await token(body());
    expect(res.statusCode).toBe(status);
    expect(res.json().details.applicationError.code).toBe(code);
  });

  it.each([
    [{ grantType: 'anonymous' }, 'clientId'],
    [{ clientId: 'x' }, 'grantType'],
    [{ clientId: 'x', grantType: 'refresh_token' }, 'refreshToken'],
  ])('names the missing field of %o', async (body, field) => {
    const res = await token(body);
    expect(res.statusCode).toBe(400);
    expect(res.json().details.validationError.fieldViolations[0]).toMatchObject({ field, violatedRule: 'REQUIRED_FIELD' });
  });

  it('refuses a wrong type with a field violation', async () => {
    const res = await token({ clientId: 42, grantType: 'anonymous' });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.validationError.fieldViolations[0].field).toBe('clientId');
  });

  it('does not accept a refresh token at another site\'s client', async () => {
    const other = await t.createSite();
    const mine = (await token({ clientId: site.clientId, grantType: 'anonymous' })).json();
    const res = await token({ clientId: other.clientId, grantType: 'refresh_token', refreshToken: mine.refresh_token });
    expect(res.statusCode).toBe(400);
  });

  it('stops renewing a revoked session', async () => {
    const first = (await token({ clientId: site.clientId, grantType: 'anonymous' })).json();
    const who = (await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: { authorization: first.access_token } })).json();
    await t.app.services.oauth.revokeSession(t.app.services.sites.contextFor(site.siteId), who.caller.sessionId);
    const res = await token({ clientId: site.clientId, grantType: 'refresh_token', refreshToken: first.refresh_token });
    expect(res.statusCode).toBe(400);
  });
});

describe('visitor refresh tokens (signed, not stored)', () => {
  const ctxOf = (s: TestSite) => t.app.services.sites.contextFor(s.siteId);

  it('the anonymous grant writes no row, and its refresh token renews with or without clientId', async () => {
    const own = await t.createSite();
    const first = (await token({ clientId: own.clientId, grantType: 'anonymous' })).json();
    const rows = await t.db.query('SELECT 1 AS one FROM refresh_tokens WHERE site_id = $1', [own.siteId]);
    expect(rows).toEqual([]);
    expect(first.refresh_token.startsWith(`${own.siteId}.`)).toBe(true);
    const who = (await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: { authorization: first.access_token } })).json();
    for (const body of [{ clientId: own.clientId }, {}]) {
      const renewed = await token({ ...body, grantType: 'refresh_token', refreshToken: first.refresh_token });
      expect(renewed.statusCode).toBe(200);
      const again = (await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: { authorization: renewed.json().access_token } })).json();
      expect(again.caller).toEqual(who.caller);
    }
  });

  it('names the visitor\'s client for redirects', async () => {
    const first = (await token({ clientId: site.clientId, grantType: 'anonymous' })).json();
    const who = (await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: { authorization: first.access_token } })).json();
    expect(await t.app.services.oauth.clientIdOfSession(ctxOf(site), who.caller.sessionId)).toBe(site.clientId);
  });

  it('refuses a token whose visitor, client or site was changed, or whose MAC was', async () => {
    const other = await t.createSite();
    const first = (await token({ clientId: site.clientId, grantType: 'anonymous' })).json();
    const [siteId, body, mac] = (first.refresh_token as string).split('.');
    const [kid, clientId, subjectId, sessionId] = Buffer.from(body, 'base64url').toString().split('\n');
    const encode = (fields: string[]) => Buffer.from(fields.join('\n')).toString('base64url');
    const forged = [
      `${siteId}.${encode([kid, clientId, '00000000-0000-0000-0000-000000000000', sessionId])}.${mac}`,
      `${siteId}.${encode([kid, other.clientId, subjectId, sessionId])}.${mac}`,
      `${other.siteId}.${body}.${mac}`,
      `${siteId}.${body}.${mac.slice(0, -4)}AAAA`,
      `${siteId}.${body}.${mac}x`,
      `${siteId}.${encode([kid, clientId, subjectId])}.${mac}`,
      // Ids in no id's shape: refused before any key lookup.
      `${siteId}'.${body}.${mac}`,
      `${siteId}.${encode([`${kid} `, clientId, subjectId, sessionId])}.${mac}`,
    ];
    for (const refreshToken of forged) {
      for (const clientBody of [{}, { clientId: site.clientId }, { clientId: other.clientId }]) {
        const res = await token({ ...clientBody, grantType: 'refresh_token', refreshToken });
        expect(res.statusCode).toBe(400);
        expect(res.json().details.applicationError.code).toBe('INVALID_GRANT');
      }
    }
  });

  it('still renews a stored visitor refresh token from before', async () => {
    const stored = await t.app.services.oauth.startSession(ctxOf(site), { clientId: site.clientId, role: 'visitor', subjectId: 'old-visitor' });
    const renewed = await token({ clientId: site.clientId, grantType: 'refresh_token', refreshToken: stored.refresh_token });
    expect(renewed.statusCode).toBe(200);
    const who = (await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: { authorization: renewed.json().access_token } })).json();
    expect(who.caller).toMatchObject({ kind: 'ANONYMOUS_VISITOR', subjectId: 'old-visitor' });
  });
});

describe('caller resolution', () => {
  it('resolves a visitor token with or without "Bearer "', async () => {
    const access = await t.visitorToken(site);
    for (const authorization of [access, `Bearer ${access}`]) {
      const res = await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: { authorization } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ siteId: site.siteId, caller: { kind: 'ANONYMOUS_VISITOR', siteId: site.siteId } });
    }
  });

  it('resolves an API key with wix-site-id to an APP caller', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: { authorization: site.apiKey, 'wix-site-id': site.siteId } });
    expect(res.statusCode).toBe(200);
    expect(res.json().caller).toMatchObject({ kind: 'APP', siteId: site.siteId });
  });

  it.each([
    ['no credentials', {}, 401],
    ['a garbage token', { authorization: 'abc.def.ghi' }, 401],
    ['an API key without wix-site-id', { authorization: 'API_KEY' }, 401],
    ['an API key for another site', { authorization: 'API_KEY', 'wix-site-id': 'OTHER_SITE' }, 401],
    ['a wrong API key', { authorization: 'bdg_wrong', 'wix-site-id': 'SITE' }, 401],
  ])('refuses %s with 401 in the wire shape', async (_name, headers, status) => {
    const other = await t.createSite();
    const resolved = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace('API_KEY', site.apiKey).replace('OTHER_SITE', other.siteId).replace(/^SITE$/, site.siteId)]));
    const res = await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: resolved });
    expect(res.statusCode).toBe(status);
    expect(res.json().details.applicationError.code).toBe('UNAUTHENTICATED');
  });

  it('refuses a token with a forged signature', async () => {
    const access = await t.visitorToken(site);
    const [header, payload, signature] = access.split('.');
    const forged = `${header}.${payload}.${signature.slice(0, -4)}AAAA`;
    const res = await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: { authorization: forged } });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a token whose claims were changed to another site', async () => {
    const other = await t.createSite();
    const access = await t.visitorToken(site);
    const [header, payload, signature] = access.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const changed = Buffer.from(JSON.stringify({ ...claims, site: other.siteId })).toString('base64url');
    const res = await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: { authorization: `${header}.${changed}.${signature}` } });
    expect(res.statusCode).toBe(401);
  });

  it('refuses an expired access token', async () => {
    const access = await t.visitorToken(site);
    clock = new Date(clock.getTime() + (ACCESS_TOKEN_TTL_SECONDS + 1) * 1000);
    const res = await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: { authorization: access } });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toMatch(/expired/);
  });

  it('lets a route admit only the callers it declares', async () => {
    const access = await t.visitorToken(site);
    const visitor = await t.app.inject({ method: 'GET', url: '/v1/back-office', headers: { authorization: access } });
    expect(visitor.statusCode).toBe(403);
    expect(visitor.json().details.applicationError.code).toBe('PERMISSION_DENIED');
    const app = await t.app.inject({ method: 'GET', url: '/v1/back-office', headers: { authorization: site.apiKey, 'wix-site-id': site.siteId } });
    expect(app.statusCode).toBe(200);
  });

  it('answers nothing for a disabled site', async () => {
    const disabled = await t.createSite();
    const access = await t.visitorToken(disabled);
    await t.app.services.sites.setStatus(t.app.services.sites.contextFor(disabled.siteId), 'DISABLED');
    const byToken = await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: { authorization: access } });
    expect(byToken.statusCode).toBe(404);
    const byKey = await t.app.inject({ method: 'GET', url: '/v1/whoami', headers: { authorization: disabled.apiKey, 'wix-site-id': disabled.siteId } });
    expect(byKey.statusCode).toBe(401);
    const grant = await token({ clientId: disabled.clientId, grantType: 'anonymous' });
    expect(grant.statusCode).toBe(400);
  });
});
