// Payments calls are scoped to the caller's site: another site's owner and API key see and change
// nothing of this one (its orders' money, its provider settings), and shoppers none of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/harness.js';
import { backOfficeSite, type BackOfficeSite } from '../../test/backoffice.js';
import { catalogLine, createProduct, NEW_YORK, placeOrder } from '../../test/commerce.js';
import { TEST_TOKENS } from './service.js';

let t: TestApp;
let a: BackOfficeSite;
let b: BackOfficeSite;
let orderId: string;
let paymentId: string;
let lampId: string;

beforeAll(async () => {
  t = await testApp();
  a = await backOfficeSite(t);
  b = await backOfficeSite(t);
  const lamp = await createProduct(t.app, a.site, { name: 'Lamp', priceData: { price: 40 } });
  lampId = lamp.id;
  ({ orderId } = await placeOrder(t.app, a.site, await t.visitorToken(a.site), [catalogLine(lamp.id)], { paymentToken: TEST_TOKENS.approve }));
  const res = await t.app.inject({ method: 'GET', url: `/ecom/v1/payments/orders/${orderId}`, headers: a.headers.owner });
  paymentId = res.json().orderTransactions.payments[0].id;
});
afterAll(async () => t.close());

describe('payments are the site\'s own', () => {
  it('the owner and API key of this site succeed; another site\'s owner and key, a contributor for settings, shoppers and no token are refused', async () => {
    const calls = [
      { method: 'GET' as const, url: `/ecom/v1/payments/orders/${orderId}` },
      { method: 'GET' as const, url: `/ecom/v1/payments-collector/orders/${orderId}/refundability` },
      { method: 'GET' as const, url: `/ecom/v1/payments-collector/orders/${orderId}/payment-collectability-status` },
      { method: 'POST' as const, url: `/ecom/v1/payments-collector/orders/${orderId}/void-authorized-payments`, payload: { paymentIds: [paymentId] } },
    ];
    for (const call of calls) {
      for (const who of ['owner', 'apiKey'] as const) {
        const res = await t.app.inject({ ...call, headers: a.headers[who] });
        // The rightful caller gets the answer (void of a captured payment is refused in words, 400).
        expect([200, 400], `${who} ${call.url}: ${res.body}`).toContain(res.statusCode);
      }
      for (const who of ['owner', 'apiKey'] as const) {
        const res = await t.app.inject({ ...call, headers: b.headers[who] });
        expect(res.statusCode, `other site's ${who} ${call.url}: ${res.body}`).toBe(404);
      }
      for (const [who, status] of [['visitor', 403], ['member', 403], ['anonymous', 401]] as const) {
        const res = await t.app.inject({ ...call, headers: a.headers[who] });
        expect(res.statusCode, `${who} ${call.url}`).toBe(status);
      }
    }
  });

  it('the settings are per site: another site\'s owner changes only their own, and a contributor none', async () => {
    const set = await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/payment-settings', headers: a.headers.owner, payload: { settings: { capturePolicy: 'ON_FULFILLMENT' } } });
    expect(set.statusCode, set.body).toBe(200);
    const other = await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/payment-settings', headers: b.headers.apiKey, payload: { settings: { offlineMethods: [] } } });
    expect(other.statusCode).toBe(200);
    expect(other.json().settings).toMatchObject({ capturePolicy: 'ON_CHECKOUT', offlineMethods: [] });
    const mine = await t.app.inject({ method: 'GET', url: '/_api/bodega/v1/payment-settings', headers: a.headers.apiKey });
    expect(mine.json().settings).toMatchObject({ capturePolicy: 'ON_FULFILLMENT', offlineMethods: ['PAY_LATER'] });
    const contributor = await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/payment-settings', headers: a.headers.contributor, payload: { settings: { capturePolicy: 'ON_CHECKOUT' } } });
    expect(contributor.statusCode).toBe(403);
    const bad = await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/payment-settings', headers: a.headers.owner, payload: { settings: { secretKey: 'not-a-key' } } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('details.validationError');
    const webhook = await t.app.inject({ method: 'POST', url: `/_api/bodega/v1/payments/webhooks/stripe/${a.site.siteId}`, payload: '{}', headers: { 'content-type': 'application/json' } });
    expect(webhook.statusCode).toBe(400);
    const unknownSite = await t.app.inject({ method: 'POST', url: '/_api/bodega/v1/payments/webhooks/stripe/no-such-site', payload: '{}', headers: { 'content-type': 'application/json' } });
    expect([400, 404]).toContain(unknownSite.statusCode);
  });

  it('back from the bank\'s page: the checkout\'s own shopper places its order; other sites, other shoppers and no token are refused', async () => {
    const shopper = a.headers.visitor;
    const created = await t.app.inject({
      method: 'POST', url: '/ecom/v1/checkouts', headers: shopper,
      payload: { lineItems: [catalogLine(lampId)], checkoutInfo: { buyerInfo: { email: 'buyer@example.com' }, shippingInfo: { shippingDestination: { address: NEW_YORK } } } },
    });
    const checkoutId = created.json().checkout.id as string;
    const challenge = await t.app.inject({ method: 'POST', url: `/ecom/v1/checkouts/${checkoutId}/create-order-and-charge`, headers: shopper, payload: { paymentToken: TEST_TOKENS.requireAction } });
    expect(challenge.statusCode, challenge.body).toBe(402);
    const paymentIntentId = challenge.json().details.applicationError.data.paymentResponseToken as string;
    const call = { method: 'POST' as const, url: `/_api/bodega/v1/checkouts/${checkoutId}/payment-return`, payload: { paymentIntentId } };
    const strangers = [
      ['other site owner', b.headers.owner, 404], ['other site API key', b.headers.apiKey, 404],
      ['member', a.headers.member, 404],
      ['another visitor', { authorization: await t.visitorToken(a.site) }, 404], ['no token', a.headers.anonymous, 401],
    ] as const;
    const own = await t.app.inject({ ...call, headers: shopper });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toEqual({ orderId: expect.any(String) });
    for (const [who, headers, status] of strangers) {
      const res = await t.app.inject({ ...call, headers });
      expect(res.statusCode, `${who}: ${res.body}`).toBe(status);
      expect(res.body, who).not.toContain(own.json().orderId);
    }
    // The back office may act on any checkout of its site, as on every checkout call: the same one order.
    const staff = await t.app.inject({ ...call, headers: a.headers.contributor });
    expect(staff.json()).toEqual(own.json());
    const wrongIntent = await t.app.inject({ ...call, headers: shopper, payload: { paymentIntentId: 'pi_not_this_checkouts' } });
    expect(wrongIntent.statusCode).toBe(404);
    expect(wrongIntent.json()).toMatchObject({ details: { applicationError: { code: 'PAYMENT_NOT_FOUND' } } });
  });
});
