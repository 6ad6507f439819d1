import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/harness.js';
import { backOfficeSite, type BackOfficeSite } from '../../test/backoffice.js';

let t: TestApp;
let s: BackOfficeSite;

beforeAll(async () => {
  t = await testApp();
  s = await backOfficeSite(t);
});
afterAll(async () => t.close());

describe('GET /bodega/v1/me', () => {
  it('names the owner, their e-mail, role and site', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/bodega/v1/me', headers: s.headers.owner });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ memberId: s.ownerId, email: s.ownerEmail, role: 'OWNER', site: { siteId: s.site.siteId, currency: 'USD' } });
  });

  it('tells a contributor and an API key apart', async () => {
    const contributor = await t.app.inject({ method: 'GET', url: '/bodega/v1/me', headers: s.headers.contributor });
    expect(contributor.json()).toMatchObject({ memberId: s.contributorId, role: 'CONTRIBUTOR' });
    const key = await t.app.inject({ method: 'GET', url: '/bodega/v1/me', headers: s.headers.apiKey });
    expect(key.json()).toMatchObject({ role: 'APP', site: { siteId: s.site.siteId } });
    expect(key.json()).not.toHaveProperty('memberId');
  });
});

describe('API keys', () => {
  it('shows a new key once, lists it by prefix, and a revoked key stops working', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/bodega/v1/api-keys', headers: s.headers.owner, payload: { name: 'Warehouse' } });
    expect(created.statusCode, created.body).toBe(200);
    const { apiKey, key } = created.json() as { apiKey: { id: string; name: string; prefix: string }; key: string };
    expect(key.startsWith(apiKey.prefix)).toBe(true);
    const listed = await t.app.inject({ method: 'GET', url: '/bodega/v1/api-keys', headers: s.headers.owner });
    const keys = (listed.json() as { apiKeys: { id: string; name: string }[] }).apiKeys;
    expect(keys.find((k) => k.id === apiKey.id)?.name).toBe('Warehouse');
    expect(JSON.stringify(listed.json())).not.toContain(key);

    const withKey = { authorization: key, 'wix-site-id': s.site.siteId };
    expect((await t.app.inject({ method: 'GET', url: '/bodega/v1/me', headers: withKey })).statusCode).toBe(200);
    const revoked = await t.app.inject({ method: 'DELETE', url: `/bodega/v1/api-keys/${apiKey.id}`, headers: s.headers.owner });
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/bodega/v1/me', headers: withKey })).statusCode).toBe(401);
  });

  it('refuses a contributor with 403 on every API-key call', async () => {
    for (const [method, url] of [['GET', '/bodega/v1/api-keys'], ['POST', '/bodega/v1/api-keys'], ['DELETE', '/bodega/v1/api-keys/x']] as const) {
      const res = await t.app.inject({ method, url, headers: s.headers.contributor, ...(method === 'POST' ? { payload: { name: 'sneaky' } } : {}) });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
      expect(res.json()).toMatchObject({ details: { applicationError: { code: 'PERMISSION_DENIED' } } });
    }
  });

  it('answers 404 for a key of another site', async () => {
    const other = await backOfficeSite(t);
    const created = await t.app.inject({ method: 'POST', url: '/bodega/v1/api-keys', headers: other.headers.owner, payload: { name: 'theirs' } });
    const id = (created.json() as { apiKey: { id: string } }).apiKey.id;
    const res = await t.app.inject({ method: 'DELETE', url: `/bodega/v1/api-keys/${id}`, headers: s.headers.owner });
    expect(res.statusCode).toBe(404);
  });
});
