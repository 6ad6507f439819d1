// Gift cards are the site's own: the back office's calls answer this site's staff and API key,
// another site's owner and key find nothing, shoppers and no token are refused; a member's own
// cards are theirs alone; the balance check takes any token and is rate-limited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/harness.js';
import { backOfficeSite, type BackOfficeSite } from '../../test/backoffice.js';

let t: TestApp;
let a: BackOfficeSite;
let b: BackOfficeSite;
let card: { id: string; code: string };

beforeAll(async () => {
  t = await testApp();
  a = await backOfficeSite(t);
  b = await backOfficeSite(t);
  const res = await t.app.inject({ method: 'POST', url: '/bodega/v1/gift-cards', headers: a.headers.apiKey, payload: { amount: '20' } });
  card = res.json().giftCard as { id: string; code: string };
});
afterAll(async () => t.close());

describe('gift cards are the site\'s own', () => {
  it('the back office: this site\'s owner, contributor and key succeed; another site\'s owner and key find nothing; shoppers and no token are refused', async () => {
    const calls = () => [
      { method: 'GET' as const, url: '/bodega/v1/gift-cards', own: 200, other: 200 },
      { method: 'GET' as const, url: `/bodega/v1/gift-cards/${card.id}`, own: 200, other: 404 },
      { method: 'POST' as const, url: '/bodega/v1/gift-cards', payload: { amount: '5' }, own: 200, other: 200 },
      { method: 'POST' as const, url: `/bodega/v1/gift-cards/${card.id}/adjust`, payload: { amount: '1', reason: 'access test' }, own: 200, other: 404 },
      { method: 'POST' as const, url: `/bodega/v1/gift-cards/${card.id}/disable`, own: 200, other: 404 },
      { method: 'POST' as const, url: `/bodega/v1/gift-cards/${card.id}/enable`, own: 200, other: 404 },
      { method: 'GET' as const, url: '/bodega/v1/gift-cards/settings', own: 200, other: 200 },
      { method: 'PUT' as const, url: '/bodega/v1/gift-cards/settings', payload: { productIds: [] }, own: 200, other: 200 },
    ];
    for (const call of calls()) {
      const { own, other, ...request } = call;
      for (const who of ['owner', 'contributor', 'apiKey'] as const) {
        const res = await t.app.inject({ ...request, headers: a.headers[who] });
        expect(res.statusCode, `${who} ${call.method} ${call.url}: ${res.body}`).toBe(own);
      }
      for (const who of ['owner', 'apiKey'] as const) {
        const res = await t.app.inject({ ...request, headers: b.headers[who] });
        expect(res.statusCode, `other site's ${who} ${call.method} ${call.url}: ${res.body}`).toBe(other);
        if (call.method === 'GET' && call.url === '/bodega/v1/gift-cards') expect(res.json().giftCards.map((c: { id: string }) => c.id)).not.toContain(card.id);
      }
      for (const [who, status] of [['visitor', 403], ['member', 403], ['anonymous', 401]] as const) {
        const res = await t.app.inject({ ...request, headers: a.headers[who] });
        expect(res.statusCode, `${who} ${call.method} ${call.url}`).toBe(status);
      }
    }
    const other = await t.app.inject({ method: 'POST', url: '/bodega/v1/gift-cards/check-balance', headers: b.headers.apiKey, payload: { code: card.code } });
    expect(other.statusCode).toBe(404);
  });

  it('the custom amounts: any caller of the site reads its own (visitor, member, key); another site\'s key reads its own; no token is refused', async () => {
    const set = await t.app.inject({ method: 'PUT', url: '/bodega/v1/gift-cards/settings', headers: a.headers.apiKey, payload: { productIds: ['p1'], minCustomAmount: '5', maxCustomAmount: '200' } });
    expect(set.statusCode, set.body).toBe(200);
    for (const who of ['visitor', 'member', 'apiKey', 'owner'] as const) {
      const res = await t.app.inject({ method: 'GET', url: '/bodega/v1/gift-cards/custom-amounts', headers: a.headers[who] });
      expect(res.statusCode, `${who}: ${res.body}`).toBe(200);
      expect(res.json()).toMatchObject({ productIds: ['p1'], minCustomAmount: '5.00', maxCustomAmount: '200.00' });
    }
    const other = await t.app.inject({ method: 'GET', url: '/bodega/v1/gift-cards/custom-amounts', headers: b.headers.apiKey });
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json()).toMatchObject({ productIds: [], minCustomAmount: null, maxCustomAmount: null });
    expect((await t.app.inject({ method: 'GET', url: '/bodega/v1/gift-cards/custom-amounts', headers: a.headers.anonymous })).statusCode).toBe(401);
    await t.app.inject({ method: 'PUT', url: '/bodega/v1/gift-cards/settings', headers: a.headers.apiKey, payload: { productIds: [] } });
  });

  it('a member\'s cards: a signed-in member sees their own; a visitor and no token are refused', async () => {
    const mine = await t.app.inject({ method: 'GET', url: '/bodega/v1/gift-cards/my', headers: a.headers.member });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().giftCards).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/bodega/v1/gift-cards/my', headers: a.headers.visitor })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/bodega/v1/gift-cards/my', headers: a.headers.anonymous })).statusCode).toBe(401);
  });

  it('the balance check answers any token of the site, not none', async () => {
    for (const who of ['visitor', 'member', 'owner', 'apiKey'] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/bodega/v1/gift-cards/check-balance', headers: a.headers[who], payload: { code: card.code } });
      expect(res.statusCode, `${who}: ${res.body}`).toBe(200);
    }
    expect((await t.app.inject({ method: 'POST', url: '/bodega/v1/gift-cards/check-balance', headers: a.headers.anonymous, payload: { code: card.code } })).statusCode).toBe(401);
  });
});

describe('guessing codes', () => {
  it('is rate-limited per address like sign-in', async () => {
    const limited = await testApp();
    try {
      limited.app.services.identity.rateLimitPerMinute = 3;
      const site = await limited.createSite();
      const token = await limited.visitorToken(site);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await limited.app.inject({ method: 'POST', url: '/bodega/v1/gift-cards/check-balance', headers: { authorization: token }, payload: { code: '0000-0000-0000-0000' } });
        statuses.push(res.statusCode);
      }
      expect(statuses.slice(0, 3).every((s) => s === 400 || s === 404)).toBe(true);
      expect(statuses.slice(3)).toEqual([429, 429]);
    } finally {
      await limited.close();
    }
  });
});
