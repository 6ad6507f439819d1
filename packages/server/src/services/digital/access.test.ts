// A digital product's files are the site's own: this site's staff and key manage them, another
// site's owner and key find nothing, shoppers and no token are refused. A member's downloads are
// theirs alone; the guest re-request takes any token of the site; the download link is its own credential.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/harness.js';
import { backOfficeSite, type BackOfficeSite } from '../../test/backoffice.js';
import { createProduct } from '../../test/commerce.js';

let t: TestApp;
let a: BackOfficeSite;
let b: BackOfficeSite;
let productId: string;
let fileId: string;
const PDF = Buffer.from('%PDF-1.4\n% access\n');

beforeAll(async () => {
  t = await testApp();
  a = await backOfficeSite(t);
  b = await backOfficeSite(t);
  productId = (await createProduct(t.app, a.site, { name: 'Pattern', productType: 'digital', priceData: { price: 5 } })).id;
});
afterAll(async () => t.close());

function upload(headers: Record<string, string>) {
  return t.app.inject({ method: 'POST', url: `/bodega/v1/digital-products/${productId}/files?fileName=p.pdf`, headers: { ...headers, 'content-type': 'application/pdf' }, payload: PDF });
}

describe('digital files are the site\'s own', () => {
  it('upload: this site\'s owner, contributor and key succeed; another site\'s owner and key find nothing; shoppers and no token are refused', async () => {
    for (const who of ['owner', 'contributor', 'apiKey'] as const) {
      const res = await upload(a.headers[who]);
      expect(res.statusCode, `${who}: ${res.body}`).toBe(200);
      fileId = res.json().file.id as string;
    }
    for (const who of ['owner', 'apiKey'] as const) expect((await upload(b.headers[who])).statusCode, who).toBe(404);
    for (const [who, status] of [['visitor', 403], ['member', 403], ['anonymous', 401]] as const) {
      const res = await upload(a.headers[who]);
      expect(res.statusCode, who).toBe(status);
      expect(res.json()).toHaveProperty('details.applicationError.code');
    }
  });

  it('list, rules and removal: the same callers, in the same way', async () => {
    const calls = () => [
      { method: 'GET' as const, url: `/bodega/v1/digital-products/${productId}` },
      { method: 'PUT' as const, url: `/bodega/v1/digital-products/${productId}/rules`, payload: { linkDays: 3, maxDownloads: 2 } },
    ];
    for (const call of calls()) {
      for (const who of ['owner', 'contributor', 'apiKey'] as const) {
        const res = await t.app.inject({ ...call, headers: a.headers[who] });
        expect(res.statusCode, `${who} ${call.method} ${call.url}: ${res.body}`).toBe(200);
      }
      for (const who of ['owner', 'apiKey'] as const) expect((await t.app.inject({ ...call, headers: b.headers[who] })).statusCode, `other ${who} ${call.url}`).toBe(404);
      for (const [who, status] of [['visitor', 403], ['member', 403], ['anonymous', 401]] as const) {
        expect((await t.app.inject({ ...call, headers: a.headers[who] })).statusCode, `${who} ${call.url}`).toBe(status);
      }
    }
    const remove = { method: 'DELETE' as const, url: `/bodega/v1/digital-products/${productId}/files/${fileId}` };
    for (const who of ['owner', 'apiKey'] as const) expect((await t.app.inject({ ...remove, headers: b.headers[who] })).statusCode).toBe(404);
    for (const [who, status] of [['visitor', 403], ['member', 403], ['anonymous', 401]] as const) expect((await t.app.inject({ ...remove, headers: a.headers[who] })).statusCode, who).toBe(status);
    expect((await t.app.inject({ ...remove, headers: a.headers.contributor })).statusCode).toBe(200);
  });
});

describe('shoppers', () => {
  it('a member\'s downloads: a signed-in member gets their own; a visitor and no token are refused', async () => {
    const mine = await t.app.inject({ method: 'GET', url: '/bodega/v1/downloads/my', headers: a.headers.member });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().downloads).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/bodega/v1/downloads/my', headers: a.headers.visitor })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/bodega/v1/downloads/my', headers: a.headers.anonymous })).statusCode).toBe(401);
  });

  it('the guest re-request answers any token of the site, not none, and is rate-limited per address', async () => {
    const payload = { orderNumber: 10001, email: 'nobody@example.com' };
    for (const who of ['visitor', 'member', 'owner', 'apiKey'] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/bodega/v1/downloads/resend', headers: a.headers[who], payload });
      expect(res.statusCode, `${who}: ${res.body}`).toBe(200);
    }
    expect((await t.app.inject({ method: 'POST', url: '/bodega/v1/downloads/resend', headers: a.headers.anonymous, payload })).statusCode).toBe(401);
    const limited = await testApp();
    try {
      limited.app.services.identity.rateLimitPerMinute = 2;
      const site = await limited.createSite();
      const token = await limited.visitorToken(site);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await limited.app.inject({ method: 'POST', url: '/bodega/v1/downloads/resend', headers: { authorization: token }, payload })).statusCode);
      expect(statuses).toEqual([200, 200, 429, 429]);
    } finally {
      await limited.close();
    }
  });

  it('a download without a valid link is refused, token or not', async () => {
    for (const who of ['anonymous', 'visitor', 'owner'] as const) {
      const res = await t.app.inject({ method: 'GET', url: '/bodega/v1/downloads/not-a-link', headers: a.headers[who] });
      expect(res.statusCode, who).toBe(403);
      expect(res.json().details.applicationError.code).toBe('DOWNLOAD_LINK_INVALID');
    }
  });
});
