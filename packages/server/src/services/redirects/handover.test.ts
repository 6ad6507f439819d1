import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { signInApp, type SignInApp } from '../../test/sign-in.js';
import type { TestSite } from '../../test/harness.js';
import { apiKey, catalogLine, createProduct, memberToken, NEW_YORK } from '../../test/commerce.js';
import { HANDOVER_TTL_MS } from './service.js';

let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
let t: SignInApp;

beforeAll(async () => {
  t = await signInApp({ now });
});
afterAll(() => t.close());

const APP = 'https://app.example';
let counter = 0;

async function post(url: string, payload: unknown, authorization?: string | Record<string, string>): Promise<LightMyRequestResponse> {
  const headers = typeof authorization === 'string' ? { authorization } : authorization ?? {};
  return t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers });
}

/** A shopper's checkout of one product, and a redirect session to the hosted checkout for it. */
async function checkoutLink(site: TestSite, token: string | Record<string, string>, callbacks: Record<string, string> = {}) {
  const product = await createProduct(t.app, site, { name: `Lamp ${++counter}`, priceData: { price: 20 } });
  const created = await post('/ecom/v1/checkouts', { channelType: 'WEB', lineItems: [catalogLine(product.id)], checkoutInfo: { shippingInfo: { shippingDestination: { address: NEW_YORK } } } }, token);
  expect(created.statusCode, created.body).toBe(200);
  const checkoutId: string = created.json().checkout.id;
  const session = await post('/_api/redirects-api/v1/redirect-session', { ecomCheckout: { checkoutId }, callbacks }, token);
  expect(session.statusCode, session.body).toBe(200);
  const fullUrl = new URL(session.json().redirectSession.fullUrl);
  return { checkoutId, redirectSessionId: fullUrl.searchParams.get('redirectSessionId') as string, fullUrl };
}

function claim(site: TestSite, redirectSessionId: string, checkoutId: string, clientId = site.clientId) {
  return post(`/_api/bodega/v1/redirect-sessions/${encodeURIComponent(redirectSessionId)}/claim`, { clientId, checkoutId });
}

async function callerOf(accessToken: string) {
  return t.app.services.oauth.callerResolver().fromAccessToken(accessToken);
}

async function registeredMember(site: TestSite): Promise<{ memberId: string; token: string }> {
  const res = await post('/_api/iam/authentication/v2/register', { loginId: { email: `h${++counter}.${Date.now()}@example.com` }, password: 'a-good-password' }, await t.visitorToken(site));
  expect(res.statusCode, res.body).toBe(200);
  const memberId: string = res.json().identity.id;
  return { memberId, token: (await memberToken(t.app, site, memberId)).token };
}

describe('the hosted checkout claims the shopper of a checkout link', () => {
  it('hands a visitor over as that visitor, with the callbacks, once', async () => {
    const site = await t.createSite({ allowedOrigins: [APP] });
    const visitor = await t.visitorToken(site);
    const link = await checkoutLink(site, visitor, { thankYouPageUrl: `${APP}/thanks`, postFlowUrl: `${APP}/` });
    expect(link.fullUrl.pathname).toBe('/checkout');
    // The hosted shop's own visitor cannot see the app's checkout…
    const stranger = await t.visitorToken(site);
    expect((await t.app.inject({ method: 'GET', url: `/ecom/v1/checkouts/${link.checkoutId}`, headers: { authorization: stranger } })).statusCode).toBe(404);
    // …the claimed session can.
    const res = await claim(site, link.redirectSessionId, link.checkoutId);
    expect(res.statusCode, res.body).toBe(200);
    const handover = res.json().handover;
    expect(handover).toMatchObject({ checkoutId: link.checkoutId, shopper: 'VISITOR', callbacks: { thankYouPageUrl: `${APP}/thanks`, postFlowUrl: `${APP}/` } });
    expect(handover.tokens).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String), expires_in: 14400, token_type: 'Bearer' });
    expect((await callerOf(handover.tokens.access_token)).subjectId).toBe((await callerOf(visitor)).subjectId);
    const read = await t.app.inject({ method: 'GET', url: `/ecom/v1/checkouts/${link.checkoutId}`, headers: { authorization: handover.tokens.access_token } });
    expect(read.statusCode, read.body).toBe(200);
    // Its refresh token renews for the shop's client like any visitor's.
    const renewed = await post('/oauth2/token', { clientId: site.clientId, grantType: 'refresh_token', refreshToken: handover.tokens.refresh_token });
    expect(renewed.statusCode, renewed.body).toBe(200);

    const again = await claim(site, link.redirectSessionId, link.checkoutId);
    expect(again.statusCode).toBe(410);
    expect(again.json().details.applicationError.code).toBe('REDIRECT_SESSION_USED');
  });

  it('hands a member over as that member with member rights only', async () => {
    const site = await t.createSite({ allowedOrigins: [APP] });
    const member = await registeredMember(site);
    const link = await checkoutLink(site, member.token);
    const res = await claim(site, link.redirectSessionId, link.checkoutId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().handover.shopper).toBe('MEMBER');
    expect(await callerOf(res.json().handover.tokens.access_token)).toMatchObject({ kind: 'MEMBER', subjectId: member.memberId, memberRole: 'MEMBER' });
    const read = await t.app.inject({ method: 'GET', url: `/ecom/v1/checkouts/${link.checkoutId}`, headers: { authorization: res.json().handover.tokens.access_token } });
    expect(read.statusCode, read.body).toBe(200);
  });

  it('refuses an expired link, another checkout, an unknown or malformed id and another site', async () => {
    const site = await t.createSite();
    const link = await checkoutLink(site, await t.visitorToken(site));
    const other = await checkoutLink(site, await t.visitorToken(site));
    const elsewhere = await t.createSite();
    const cases: [string, string, string | undefined, number, string][] = [
      [link.redirectSessionId, other.checkoutId, undefined, 404, 'REDIRECT_SESSION_NOT_FOUND'],
      ['00000000-0000-4000-8000-000000000000', link.checkoutId, undefined, 404, 'REDIRECT_SESSION_NOT_FOUND'],
      ['not-an-id', link.checkoutId, undefined, 404, 'REDIRECT_SESSION_NOT_FOUND'],
      [link.redirectSessionId, link.checkoutId, elsewhere.clientId, 404, 'REDIRECT_SESSION_NOT_FOUND'],
      [link.redirectSessionId, link.checkoutId, 'no-such-client', 400, 'INVALID_CLIENT'],
    ];
    for (const [id, checkoutId, clientId, status, code] of cases) {
      const res = await claim(site, id, checkoutId, clientId);
      expect(res.statusCode, `${id} ${checkoutId} ${clientId}`).toBe(status);
      expect(res.json().details.applicationError.code).toBe(code);
    }
    expect((await post(`/_api/bodega/v1/redirect-sessions/${link.redirectSessionId}/claim`, { clientId: site.clientId })).statusCode).toBe(400);
    offsetMs = HANDOVER_TTL_MS + 1000;
    try {
      const late = await claim(site, link.redirectSessionId, link.checkoutId);
      expect(late.statusCode).toBe(410);
      expect(late.json().details.applicationError.code).toBe('REDIRECT_SESSION_EXPIRED');
    } finally {
      offsetMs = 0;
    }
    // None of the refusals used the link up for its rightful checkout (other.checkoutId's is untouched too).
    expect((await claim(site, other.redirectSessionId, other.checkoutId)).statusCode).toBe(200);
  });

  it('lets one of many claims at once win', async () => {
    const site = await t.createSite();
    const link = await checkoutLink(site, await t.visitorToken(site));
    const results = await Promise.all(Array.from({ length: 6 }, () => claim(site, link.redirectSessionId, link.checkoutId)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 410, 410, 410, 410, 410]);
  });

  it('hands nobody over for a link an API key made, and no blocked member', async () => {
    const site = await t.createSite();
    const byKey = await checkoutLink(site, apiKey(site));
    const res = await claim(site, byKey.redirectSessionId, byKey.checkoutId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().handover.shopper).toBe('NONE');
    expect(res.json().handover.tokens).toBeUndefined();

    const member = await registeredMember(site);
    const link = await checkoutLink(site, member.token);
    await t.app.services.identity.setMemberStatus(t.app.services.sites.contextFor(site.siteId), member.memberId, 'BLOCKED');
    const blocked = await claim(site, link.redirectSessionId, link.checkoutId);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().details.applicationError.code).toBe('MEMBER_NOT_HANDED_OVER');
    expect((await claim(site, link.redirectSessionId, link.checkoutId)).statusCode).toBe(410);
  });
});
