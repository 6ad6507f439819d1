// Gift cards through HTTP: bought and issued once paid, spent at checkout (partly, several, with
// the provider paying the rest), refunded back, adjusted and disabled in the back office.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { apiKey, catalogLine, createProduct, NEW_YORK, placeOrder, type WireProduct } from '../../test/commerce.js';
import { TEST_TOKENS } from '../payments/service.js';
import { DEMO_COMMERCE_SETTINGS } from '../../demo-store/content.js';

let t: TestApp;
let site: TestSite;
let card: WireProduct;
let lamp: WireProduct;
let now = new Date('2026-03-01T10:00:00.000Z');

beforeAll(async () => {
  t = await testApp({ now: () => now });
  site = await t.createSite();
  card = await createProduct(t.app, site, {
    name: 'Gift Card', productType: 'digital', priceData: { price: 25 }, manageVariants: true,
    productOptions: [{ name: 'Amount', choices: [{ value: '$25', description: '$25' }, { value: '$50', description: '$50' }] }],
    variants: [{ choices: { Amount: '$25' } }, { choices: { Amount: '$50' }, price: 50 }],
    customTextFields: [{ title: 'Recipient', maxLength: 300 }, { title: 'Message', maxLength: 500 }],
  });
  lamp = await createProduct(t.app, site, { name: 'Lamp', priceData: { price: 40 }, weight: 1 });
  // Shipping and tax to pay, so a card can be seen paying them.
  const settings = await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/commerce-settings', headers: apiKey(site), payload: { settings: DEMO_COMMERCE_SETTINGS } });
  expect(settings.statusCode, settings.body).toBe(200);
  const set = await t.app.inject({ method: 'PUT', url: '/bodega/v1/gift-cards/settings', headers: apiKey(site), payload: { productIds: [card.id] } });
  expect(set.statusCode, set.body).toBe(200);
});
afterAll(async () => t.close());

async function call(method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, headers: Record<string, string>, payload?: unknown) {
  return t.app.inject({ method, url, headers, ...(payload !== undefined && { payload: payload as Record<string, unknown> }) });
}

async function issue(amount: string, extra: Record<string, unknown> = {}) {
  const res = await call('POST', '/bodega/v1/gift-cards', apiKey(site), { amount, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().giftCard as { id: string; code: string };
}

async function cardById(id: string) {
  const res = await call('GET', `/bodega/v1/gift-cards/${id}`, apiKey(site));
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { giftCard: { balance: { amount: string } }; ledger: { type: string; direction: string; amount: string; balanceAfter: string; orderId?: string; reason?: string }[] };
}

async function checkoutWith(token: string, lines: ReturnType<typeof catalogLine>[], giftCardCode?: string) {
  const res = await call('POST', '/ecom/v1/checkouts', { authorization: token }, {
    channelType: 'WEB', lineItems: lines, ...(giftCardCode && { giftCardCode }),
    checkoutInfo: { buyerInfo: { email: 'buyer@example.com' }, shippingInfo: { shippingDestination: { address: NEW_YORK } } },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().checkout;
}

async function order(orderId: string) {
  const res = await call('GET', `/ecom/v1/orders/${orderId}`, apiKey(site));
  return res.json().order;
}

describe('buying a gift card', () => {
  it('issues the card once the order is paid, mails the recipient on the delivery date and the buyer now', async () => {
    const token = await t.visitorToken(site);
    const fields = { Recipient: 'Ada <ada@example.com> on 2026-03-05', Message: 'Happy birthday!' };
    const { orderId } = await placeOrder(t.app, site, token, [catalogLine(card.id, 1, { variantId: card.variants[1].id, customTextFields: fields })], { paymentToken: TEST_TOKENS.approve, email: 'grace@example.com' });
    const bought = await order(orderId);
    expect(bought.paymentStatus).toBe('PAID');
    // The spec's item type for a gift card, not DIGITAL; nothing to ship.
    expect(bought.lineItems[0]).toMatchObject({ itemType: { preset: 'GIFT_CARD' }, physicalProperties: { shippable: false } });
    const list = await call('GET', '/bodega/v1/gift-cards?search=ada%40example.com', apiKey(site));
    const cards = list.json().giftCards ;
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ balance: { amount: '50.00' }, initialValue: { amount: '50.00' }, status: 'ACTIVE', recipientName: 'Ada', message: 'Happy birthday!', orderId, source: 'ORDER' });
    expect(cards[0].code).toMatch(/^\w{4}-\w{4}-\w{4}-\w{4}$/);
    const mails = await t.db.query<{ to_address: string; kind: string; next_attempt_at: Date; text_body: string }>(
      "SELECT to_address, kind, next_attempt_at, text_body FROM mail_outbox WHERE site_id = $1 AND kind LIKE 'gift-card.%' ORDER BY kind", [site.siteId]);
    expect(mails.map((m) => [m.kind, m.to_address])).toEqual([['gift-card.buyer-copy', 'grace@example.com'], ['gift-card.delivery', 'ada@example.com']]);
    expect(new Date(mails[1].next_attempt_at).toISOString()).toBe('2026-03-05T00:00:00.000Z');
    expect(mails[1].text_body).toContain(cards[0].code);
    expect(mails[0].text_body).not.toContain(cards[0].code);
  });

  it('issues nothing for an unpaid order, and each unit of a paid one once', async () => {
    const token = await t.visitorToken(site);
    const before = (await call('GET', '/bodega/v1/gift-cards', apiKey(site))).json().pagingMetadata.total as number;
    const { orderId } = await placeOrder(t.app, site, token, [catalogLine(card.id, 2, { variantId: card.variants[0].id })]);
    expect((await call('GET', '/bodega/v1/gift-cards', apiKey(site))).json().pagingMetadata.total).toBe(before);
    const paid = await call('POST', `/ecom/v1/payments-collector/orders/${orderId}/mark-as-paid`, apiKey(site), {});
    expect(paid.statusCode, paid.body).toBe(200);
    const after = (await call('GET', '/bodega/v1/gift-cards', apiKey(site))).json();
    expect(after.pagingMetadata.total).toBe(before + 2);
    expect((after.giftCards ).filter((c: { orderId?: string; balance: { amount: string } }) => c.orderId === orderId).map((c: { orderId?: string; balance: { amount: string } }) => c.balance.amount)).toEqual(['25.00', '25.00']);
  });
});

describe('spending a gift card at checkout', () => {
  it('pays part of an order, shows it in the official shape, and the provider pays the rest', async () => {
    const gift = await issue('30');
    const token = await t.visitorToken(site);
    const created = await checkoutWith(token, [catalogLine(lamp.id, 1)]);
    const total = Number(created.priceSummary.total.amount);
    expect(total).toBeGreaterThan(30);
    const applied = await call('PATCH', `/ecom/v1/checkouts/${created.id}`, { authorization: token }, { checkout: {}, giftCardCode: gift.code.toLowerCase() });
    expect(applied.statusCode, applied.body).toBe(200);
    const after = applied.json().checkout;
    expect(after.giftCard).toMatchObject({ obfuscatedCode: `****-****-****-${gift.code.slice(-4)}`, amount: { amount: '30.00' } });
    expect(Number(after.priceSummary.total.amount)).toBeCloseTo(total - 30, 2);
    expect(after.payNow.total.amount).toBe(after.priceSummary.total.amount);

    const charged = await call('POST', `/ecom/v1/checkouts/${created.id}/create-order-and-charge`, { authorization: token }, { paymentToken: TEST_TOKENS.approve });
    expect(charged.statusCode, charged.body).toBe(200);
    const placed = await order(charged.json().orderId as string);
    expect(placed.paymentStatus).toBe('PAID');
    const { giftCard, ledger } = await cardById(gift.id);
    expect(giftCard.balance.amount).toBe('0.00');
    expect(ledger.map((e) => [e.type, e.direction, e.amount, e.balanceAfter])).toEqual([['ISSUE', 'CREDIT', '30.00', '30.00'], ['REDEEM', 'DEBIT', '30.00', '0.00']]);
    expect(ledger[1].orderId).toBe(placed.id);
  });

  it('takes several cards on one order and pays shipping and tax with them', async () => {
    const first = await issue('20');
    const second = await issue('500');
    const token = await t.visitorToken(site);
    const created = await checkoutWith(token, [catalogLine(lamp.id, 1)], first.code);
    const both = await call('PATCH', `/ecom/v1/checkouts/${created.id}`, { authorization: token }, { checkout: {}, giftCardCode: second.code });
    const view = both.json().checkout;
    // The first card already shows on the created checkout: its total is what is left after 20.00.
    const full = Number(created.priceSummary.total.amount) + 20;
    expect(created.giftCard.amount.amount).toBe('20.00');
    expect(view.giftCards.map((c: { amount: { amount: string } }) => c.amount.amount)).toEqual(['20.00', (full - 20).toFixed(2)]);
    expect(view.priceSummary.total.amount).toBe('0.00');
    const placed = await call('POST', `/ecom/v1/checkouts/${created.id}/create-order`, { authorization: token }, {});
    expect(placed.statusCode, placed.body).toBe(200);
    const o = await order(placed.json().orderId as string);
    expect(o.paymentStatus).toBe('PAID');
    expect(Number(o.priceSummary.shipping.amount)).toBeGreaterThan(0);
    expect(Number(o.priceSummary.tax.amount)).toBeGreaterThan(0);
    expect((await cardById(second.id)).giftCard.balance.amount).toBe((520 - full).toFixed(2));
    expect((await cardById(first.id)).giftCard.balance.amount).toBe('0.00');
  });

  it('gives a refund of an order paid by gift card back to the card', async () => {
    const gift = await issue('100');
    const token = await t.visitorToken(site);
    const created = await checkoutWith(token, [catalogLine(lamp.id, 1)], gift.code);
    const placed = await call('POST', `/ecom/v1/checkouts/${created.id}/create-order`, { authorization: token }, {});
    const orderId = placed.json().orderId as string;
    const o = await order(orderId);
    const spent = 100 - Number((await cardById(gift.id)).giftCard.balance.amount);
    const payments = await call('GET', `/ecom/v1/payments-collector/orders/${orderId}/refundability`, apiKey(site));
    expect(payments.json().refundabilities[0].refundabilityStatus).toBe('REFUNDABLE');
    const paymentId = payments.json().refundabilities[0].paymentId as string;
    const refunded = await call('POST', `/ecom/v1/payments-collector/orders/${orderId}/trigger-refund`, apiKey(site), { payments: [{ paymentId }] });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect((await order(orderId)).paymentStatus).toBe('FULLY_REFUNDED');
    const { giftCard, ledger } = await cardById(gift.id);
    expect(giftCard.balance.amount).toBe('100.00');
    expect(ledger.at(-1)).toMatchObject({ type: 'REFUND', amount: spent.toFixed(2), orderId: o.id });
  });

  it('gives a declined payment\'s hold back to the card; paying again holds it anew', async () => {
    const gift = await issue('10');
    const token = await t.visitorToken(site);
    const created = await checkoutWith(token, [catalogLine(lamp.id, 1)], gift.code);
    const charge = (paymentToken: string) => call('POST', `/ecom/v1/checkouts/${created.id}/create-order-and-charge`, { authorization: token }, { id: created.id, paymentToken });
    const declined = await charge(TEST_TOKENS.decline);
    expect(declined.statusCode, declined.body).toBe(402);
    const afterDecline = await cardById(gift.id);
    expect(afterDecline.giftCard.balance.amount).toBe('10.00');
    expect(afterDecline.ledger.map((e) => e.type)).toEqual(['ISSUE', 'REDEEM', 'RELEASE']);
    const paid = await charge(TEST_TOKENS.approve);
    expect(paid.statusCode, paid.body).toBe(200);
    const afterPay = await cardById(gift.id);
    expect(afterPay.giftCard.balance.amount).toBe('0.00');
    expect(afterPay.ledger.at(-1)).toMatchObject({ type: 'REDEEM', amount: '10.00', orderId: paid.json().orderId });
  });

  it('refuses a typo, an unknown code, an expired card and a disabled card in words', async () => {
    const token = await t.visitorToken(site);
    const created = await checkoutWith(token, [catalogLine(lamp.id, 1)]);
    // With the API key: the clock moves past the visitor token's life below.
    const apply = (code: string) => call('PATCH', `/ecom/v1/checkouts/${created.id}`, apiKey(site), { checkout: {}, giftCardCode: code });
    const gift = await issue('10', { expirationDate: '2026-04-01T00:00:00.000Z' });
    const last = gift.code.at(-1) === 'A' ? 'B' : 'A';
    const typo = await apply(gift.code.slice(0, -1) + last);
    expect(typo.statusCode).toBe(400);
    expect(typo.json().details.applicationError).toMatchObject({ code: 'GIFT_CARD_CODE_INVALID', description: expect.stringMatching(/typo/) });
    expect((await apply('ABCD')).json().details.applicationError.code).toBe('GIFT_CARD_CODE_INVALID');
    now = new Date('2026-05-01T10:00:00.000Z');
    try {
      const expired = await apply(gift.code);
      expect(expired.json().details.applicationError).toMatchObject({ code: 'GIFT_CARD_EXPIRED', description: expect.stringContaining('expired on 2026-04-01') });
    } finally {
      now = new Date('2026-03-01T10:00:00.000Z');
    }
    const disabled = await issue('10');
    expect((await call('POST', `/bodega/v1/gift-cards/${disabled.id}/disable`, apiKey(site))).statusCode).toBe(200);
    const refused = await apply(disabled.code);
    expect(refused.json().details.applicationError).toMatchObject({ code: 'GIFT_CARD_DISABLED', description: expect.stringContaining('disabled') });
  });

  it('a card removed from the checkout is not charged', async () => {
    const gift = await issue('15');
    const token = await t.visitorToken(site);
    const created = await checkoutWith(token, [catalogLine(lamp.id, 1)], gift.code);
    const removed = await call('POST', `/ecom/v1/checkouts/${created.id}/remove-gift-card`, { authorization: token }, {});
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().checkout.giftCard).toBeUndefined();
    await call('POST', `/ecom/v1/checkouts/${created.id}/create-order`, { authorization: token }, {});
    expect((await cardById(gift.id)).giftCard.balance.amount).toBe('15.00');
  });
});

describe('the back office and the shop', () => {
  it('adjusts a balance with a reason (audited), never below zero', async () => {
    const gift = await issue('10');
    const up = await call('POST', `/bodega/v1/gift-cards/${gift.id}/adjust`, apiKey(site), { amount: '5.50', reason: 'Goodwill' });
    expect(up.json().giftCard.balance.amount).toBe('15.50');
    const down = await call('POST', `/bodega/v1/gift-cards/${gift.id}/adjust`, apiKey(site), { amount: '-20', reason: 'Oops' });
    expect(down.statusCode).toBe(400);
    expect(down.json().details.applicationError.code).toBe('GIFT_CARD_BALANCE_TOO_LOW');
    const { ledger } = await cardById(gift.id);
    expect(ledger.at(-1)).toMatchObject({ type: 'ADJUST', amount: '5.50', reason: 'Goodwill', direction: 'CREDIT' });
    const audit = await t.db.query<{ action: string; after: { reason: string } }>("SELECT action, after FROM audit_log WHERE site_id = $1 AND object_id = $2 ORDER BY action DESC", [site.siteId, gift.id]);
    expect(audit.map((a) => a.action)).toEqual(['gift_card.issued', 'gift_card.adjusted']);
    expect(audit[1].after.reason).toBe('Goodwill');
  });

  it('checks a balance without showing the code', async () => {
    const gift = await issue('12.34');
    const res = await call('POST', '/bodega/v1/gift-cards/check-balance', { authorization: await t.visitorToken(site) }, { code: gift.code });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().giftCard).toMatchObject({ balance: { amount: '12.34' }, status: 'ACTIVE' });
    expect(res.json().giftCard.code).toBeUndefined();
  });
});
