// 100 checkouts spend one card at once: together they never take more than its balance, and the
// card's balance is exactly its issue minus the redemptions its ledger shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { apiKey, catalogLine, createProduct, NEW_YORK, type WireProduct } from '../../test/commerce.js';

let t: TestApp;
let site: TestSite;
let pen: WireProduct;

beforeAll(async () => {
  t = await testApp();
  site = await t.createSite();
  pen = await createProduct(t.app, site, { name: 'Pen', productType: 'digital', priceData: { price: 10 } });
});
afterAll(async () => t.close());

describe('one gift card, many checkouts', () => {
  it('100 concurrent orders never take more than the card holds', async () => {
    const issued = await t.app.inject({ method: 'POST', url: '/bodega/v1/gift-cards', headers: apiKey(site), payload: { amount: '255' } });
    const card = issued.json().giftCard as { id: string; code: string };
    const token = await t.visitorToken(site);
    const checkouts: string[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await t.app.inject({
        method: 'POST', url: '/ecom/v1/checkouts', headers: { authorization: token },
        payload: { channelType: 'WEB', giftCardCode: card.code, lineItems: [catalogLine(pen.id)], checkoutInfo: { buyerInfo: { email: 'b@example.com' }, shippingInfo: { shippingDestination: { address: NEW_YORK } } } },
      });
      expect(res.statusCode, res.body).toBe(200);
      checkouts.push(res.json().checkout.id as string);
    }
    const placed = await Promise.all(checkouts.map((id) => t.app.inject({ method: 'POST', url: `/ecom/v1/checkouts/${id}/create-order`, headers: { authorization: token }, payload: {} })));
    expect(placed.map((r) => r.statusCode)).toEqual(checkouts.map(() => 200));

    const orders = await Promise.all(placed.map(async (r) => (await t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${r.json().orderId as string}`, headers: apiKey(site) })).json().order as { paymentStatus: string; balanceSummary: { paid: { amount: string } } }));
    const paidByCard = orders.reduce((sum, o) => sum + Math.round(Number(o.balanceSummary.paid.amount) * 100), 0);
    expect(paidByCard).toBe(25_500);
    expect(orders.filter((o) => o.paymentStatus === 'PAID')).toHaveLength(25);
    expect(orders.filter((o) => o.paymentStatus === 'PARTIALLY_PAID')).toHaveLength(1);

    const got = (await t.app.inject({ method: 'GET', url: `/bodega/v1/gift-cards/${card.id}`, headers: apiKey(site) })).json() as { giftCard: { balance: { amount: string } }; ledger: { type: string; amount: string; direction: string }[] };
    expect(got.giftCard.balance.amount).toBe('0.00');
    const signed = got.ledger.reduce((sum, e) => sum + (e.direction === 'DEBIT' ? -1 : 1) * Math.round(Number(e.amount) * 100), 0);
    expect(signed).toBe(0);
    expect(got.ledger.filter((e) => e.type === 'REDEEM')).toHaveLength(26);
  }, 180_000);
});
