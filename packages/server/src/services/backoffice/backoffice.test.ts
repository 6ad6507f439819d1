import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/harness.js';
import { backOfficeSite, type BackOfficeSite } from '../../test/backoffice.js';
import { poolContext } from '../../platform/context.js';

let t: TestApp;
let s: BackOfficeSite;
// A clock that moves on at every read, so mails enqueued one after another have distinct dates.
let tick = Date.now();
const now = () => new Date(++tick);

beforeAll(async () => {
  t = await testApp({ now });
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

describe('the mail outbox', () => {
  it('lists the site mail newest first a page at a time, filters by status, and opens one', async () => {
    const site = await backOfficeSite(t);
    const other = await backOfficeSite(t);
    for (const n of [1, 2, 3]) {
      await t.app.services.mail.enqueue(poolContext(t.db), { siteId: site.site.siteId, kind: 'test', to: `to${n}@example.com`, subject: `Mail ${n}`, text: `Hello ${n}`, html: `<p>Hello ${n}</p>` });
    }
    await t.app.services.mail.enqueue(poolContext(t.db), { siteId: other.site.siteId, kind: 'test', to: 'x@example.com', subject: 'Not yours', text: 'x', html: 'x' });
    const list = async (query: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/bodega/v1/mail-outbox${query}`, headers: site.headers.contributor });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { mails: { id: string; subject: string; status: string; to: string }[]; nextCursor?: string };
    };
    const first = await list('?limit=2');
    const ours = (await list('?limit=100')).mails.filter((m) => m.subject.startsWith('Mail '));
    expect(ours.map((m) => m.subject)).toEqual(['Mail 3', 'Mail 2', 'Mail 1']);
    expect(first.mails).toHaveLength(2);
    expect(first.nextCursor).toBeDefined();
    const rest = await list(`?limit=100&cursor=${encodeURIComponent(first.nextCursor ?? '')}`);
    const all = [...first.mails, ...rest.mails];
    expect(new Set(all.map((m) => m.id)).size).toBe(all.length);
    expect(all.map((m) => m.subject)).not.toContain('Not yours');
    expect((await list('?status=SENT')).mails).toEqual([]);

    const mail3 = ours[0];
    const opened = await t.app.inject({ method: 'GET', url: `/bodega/v1/mail-outbox/${mail3.id}`, headers: site.headers.owner });
    expect(opened.json()).toMatchObject({ mail: { id: mail3.id, to: 'to3@example.com', subject: 'Mail 3', text: 'Hello 3', html: '<p>Hello 3</p>', status: 'STORED' } });
    const theirs = await t.app.inject({ method: 'GET', url: `/bodega/v1/mail-outbox/${mail3.id}`, headers: other.headers.owner });
    expect(theirs.statusCode).toBe(404);
  });
});

describe('sign-in mail in the outbox', () => {
  it('is listed for a contributor but opened by the owner only, so a contributor cannot reset the owner\'s password', async () => {
    const site = await backOfficeSite(t);
    const visitor = await t.visitorToken(site.site);
    const sent = await t.app.inject({ method: 'POST', url: '/_api/iam/recovery/v1/send-email', headers: { authorization: visitor }, payload: { email: site.ownerEmail } });
    expect(sent.statusCode, sent.body).toBe(200);
    const listed = await t.app.inject({ method: 'GET', url: '/bodega/v1/mail-outbox', headers: site.headers.contributor });
    const reset = (listed.json() as { mails: { id: string; to: string; ownerOnly?: boolean }[] }).mails.find((m) => m.to === site.ownerEmail);
    expect(reset?.ownerOnly, listed.body).toBe(true);
    const byContributor = await t.app.inject({ method: 'GET', url: `/bodega/v1/mail-outbox/${reset?.id ?? ''}`, headers: site.headers.contributor });
    expect(byContributor.statusCode, byContributor.body).toBe(403);
    expect(byContributor.body).not.toContain('recoveryToken');
    const byOwner = await t.app.inject({ method: 'GET', url: `/bodega/v1/mail-outbox/${reset?.id ?? ''}`, headers: site.headers.owner });
    expect(byOwner.statusCode, byOwner.body).toBe(200);
    expect((byOwner.json() as { mail: { text: string } }).mail.text).toContain('recoveryToken');
  });
});

describe('site settings', () => {
  it('changes the store name, currency, sign-up policy and captcha for the owner', async () => {
    const site = await backOfficeSite(t);
    const res = await t.app.inject({
      method: 'PATCH', url: '/_api/bodega/v1/site-settings', headers: site.headers.owner,
      payload: { settings: { name: 'Corner shop', currency: 'eur', signupPolicy: 'owner-approval', captchaRequired: true } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ settings: { name: 'Corner shop', currency: 'EUR', signupPolicy: 'owner-approval', captchaRequired: true, domains: [] } });
    const me = await t.app.inject({ method: 'GET', url: '/bodega/v1/me', headers: site.headers.owner });
    expect(me.json()).toMatchObject({ site: { name: 'Corner shop', currency: 'EUR' } });
    const bad = await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/site-settings', headers: site.headers.owner, payload: { settings: { currency: 'XYZ' } } });
    expect(bad.statusCode).toBe(400);
  });
});

describe('GET /bodega/v1/openapi.json', () => {
  it('documents every /bodega/v1 call and the settings calls from their schemas, and nothing of the wire', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/bodega/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; info: { description: string }; paths: Record<string, Record<string, { parameters?: { name: string }[]; requestBody?: unknown }>> };
    expect(doc.openapi).toMatch(/^3\./);
    const paths = Object.keys(doc.paths);
    for (const path of ['/bodega/v1/me', '/bodega/v1/dashboard', '/bodega/v1/search', '/bodega/v1/api-keys', '/bodega/v1/api-keys/{id}', '/bodega/v1/mail-outbox',
      '/bodega/v1/exports/orders.csv', '/bodega/v1/import-jobs', '/bodega/v1/import-jobs/{id}/failures.csv', '/bodega/v1/webhooks', '/_api/bodega/v1/site-settings',
      '/_api/bodega/v1/commerce-settings', '/_api/bodega/v1/coupons', '/stores/v1/bulk/products/update']) {
      expect(paths, path).toContain(path);
    }
    expect(paths.some((p) => p.startsWith('/ecom/') || p.startsWith('/members/'))).toBe(false);
    expect(doc.paths['/bodega/v1/dashboard'].get.parameters?.map((p) => p.name).sort()).toEqual(['from', 'timeZone', 'to']);
    expect(doc.paths['/bodega/v1/import-jobs'].post.requestBody).toBeDefined();
    expect(doc.info.description).toContain('`price`');
  });

  it('gives every /bodega/v1 call a 2xx answer with its schema', async () => {
    type Operation = { responses?: Record<string, { content?: Record<string, { schema?: { type?: string; properties?: object } }> }> };
    const doc = (await t.app.inject({ method: 'GET', url: '/bodega/v1/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>> };
    const operations = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/bodega/v1/'))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })));
    expect(operations.length).toBeGreaterThan(25);
    const missing = operations.filter(({ op }) => {
      const answers = Object.entries(op.responses ?? {}).filter(([code]) => /^2/.test(code));
      return !answers.some(([, r]) => Object.values(r.content ?? {}).some((c) => c.schema?.type !== undefined));
    });
    expect(missing.map((m) => m.name)).toEqual([]);
    const dashboard = doc.paths['/bodega/v1/dashboard'].get.responses?.['200'].content?.['application/json'].schema;
    expect(Object.keys(dashboard?.properties ?? {})).toContain('recentOrders');
  });
});
