// Payments through the `test` provider: authorize and capture (on fulfilment, in part), void,
// refunds through the provider, declines, 3-D Secure, a provider that does not answer, payments
// the provider decides later, offline methods, and fifty concurrent completes of one checkout —
// each through HTTP and the official @wix/ecom package, with the spec's states and reasons.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { orderFulfillments, orders, orderTransactions } from '@wix/ecom';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { listen, redirectWixFetch } from '../../test/wix-fetch.js';
import { apiKey, catalogLine, createProduct, NEW_YORK, type PaymentsCollector, type WireProduct } from '../../test/commerce.js';
import { settleTestIntent, TEST_TOKENS } from './service.js';

let clock = new Date('2026-05-01T09:00:00Z');
let t: TestApp;
let site: TestSite;
let wixFetch: ReturnType<typeof redirectWixFetch>;
let lamp: WireProduct;

beforeAll(async () => {
  t = await testApp({ now: () => clock });
  site = await t.createSite();
  lamp = await createProduct(t.app, site, { name: 'Lamp', priceData: { price: 40 }, stock: { trackInventory: true, quantity: 500 } });
  wixFetch = redirectWixFetch(await listen(t.app));
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
});

function merchant(s: TestSite = site) {
  const client = createClient({ modules: { orders, orderFulfillments, orderTransactions }, auth: ApiKeyStrategy({ apiKey: s.apiKey, siteId: s.siteId }) });
  return { ...client, collector: client.orders as unknown as PaymentsCollector };
}

async function checkout(s: TestSite, token: string, quantity = 1): Promise<string> {
  const res = await t.app.inject({
    method: 'POST', url: '/ecom/v1/checkouts', headers: { authorization: token },
    payload: { lineItems: [catalogLine(lamp.id, quantity)], checkoutInfo: { buyerInfo: { email: 'buyer@example.com' }, shippingInfo: { shippingDestination: { address: NEW_YORK } } } },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().checkout.id as string;
}

function pay(token: string, checkoutId: string, paymentToken: string, delayCapture?: boolean) {
  return t.app.inject({
    method: 'POST', url: `/ecom/v1/checkouts/${checkoutId}/create-order-and-charge`, headers: { authorization: token },
    payload: { paymentToken, ...(delayCapture !== undefined && { delayCapture }) },
  });
}

async function paid(s: TestSite, paymentToken: string, delayCapture?: boolean): Promise<{ orderId: string; checkoutId: string; token: string }> {
  const token = await t.visitorToken(s);
  const checkoutId = await checkout(s, token);
  const res = await pay(token, checkoutId, paymentToken, delayCapture);
  expect(res.statusCode, res.body).toBe(200);
  return { orderId: res.json().orderId as string, checkoutId, token };
}

async function order(s: TestSite, orderId: string) {
  return (await t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${orderId}`, headers: apiKey(s) })).json().order;
}

async function settings(s: TestSite, patch: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/payment-settings', headers: apiKey(s), payload: { settings: patch } });
  expect(res.statusCode, res.body).toBe(200);
}

async function sweep() {
  clock = new Date(clock.getTime() + 5 * 60_000);
  await t.app.services.commerce.checkout.sweep(60_000, undefined, t.siteIds);
}

describe('authorize now, capture later', () => {
  it('holds the money with delayCapture, captures part of it, and records each provider call', async () => {
    const { orderId } = await paid(site, TEST_TOKENS.approve, true);
    const held = await order(site, orderId);
    expect(held).toMatchObject({ status: 'APPROVED', paymentStatus: 'PENDING' });
    const m = merchant();
    const before = await m.orderTransactions.listTransactionsForSingleOrder(orderId);
    const payment = before.orderTransactions?.payments?.[0];
    expect(payment).toMatchObject({ status: 'AUTHORIZED', regularPaymentDetails: { status: 'AUTHORIZED', offlinePayment: false, authorizationDetails: { delayedCapture: true, captures: [] } } });
    expect(payment?.regularPaymentDetails?.providerTransactionId).toMatch(/^test_pi_/);
    expect((await m.collector.getRefundabilityStatus(orderId)).refundabilities?.[0]).toMatchObject({ refundabilityStatus: 'NOT_REFUNDABLE', nonRefundableReason: 'NOT_PAID' });

    const captured = await m.orders.captureAuthorizedPayments(orderId, [{ paymentId: payment?._id as string, amount: { amount: '25.00' } }]);
    expect(captured.orderTransactions?.payments?.[0]).toMatchObject({ status: 'APPROVED', amount: { amount: '25.00' }, regularPaymentDetails: { authorizationDetails: { captures: [{ status: 'SUCCEEDED', amount: { amount: '25.00' } }] } } });
    expect(await order(site, orderId)).toMatchObject({ paymentStatus: 'PARTIALLY_PAID', balanceSummary: { paid: { amount: '25.00' } } });
    await expect(m.orders.captureAuthorizedPayments(orderId, [{ paymentId: payment?._id as string }])).rejects.toMatchObject({ details: { applicationError: { code: 'PAYMENT_ALREADY_CAPTURED', data: { reason: 'NOT_SUPPORTED' } } } });
    const rows = await t.db.query<{ kind: string; provider_transaction_id: string; status: string }>('SELECT kind, provider_transaction_id, status FROM payment_transactions WHERE site_id = $1 AND order_id = $2 ORDER BY created_at, kind DESC', [site.siteId, orderId]);
    expect(rows.map((r) => [r.kind, r.status])).toEqual([['PAYMENT', 'AUTHORIZED'], ['CAPTURE', 'SUCCEEDED']]);
    expect(rows.every((r) => r.provider_transaction_id)).toBe(true);
  });

  it('captures on fulfilment when that is the site\'s policy', async () => {
    const s = await t.createSite();
    lamp = await createProduct(t.app, s, { name: 'Lamp', priceData: { price: 40 }, stock: { trackInventory: true, quantity: 500 } });
    await settings(s, { capturePolicy: 'ON_FULFILLMENT' });
    const { orderId } = await paid(s, TEST_TOKENS.approve);
    expect(await order(s, orderId)).toMatchObject({ paymentStatus: 'PENDING' });
    await merchant(s).orderFulfillments.createFulfillment(orderId, { lineItems: [] });
    expect(await order(s, orderId)).toMatchObject({ paymentStatus: 'PAID', fulfillmentStatus: 'FULFILLED' });
    lamp = await createProduct(t.app, site, { name: 'Lamp', priceData: { price: 40 }, stock: { trackInventory: true, quantity: 500 } });
  });

  it('voids an authorization, then refuses to void or capture it again, in words with the reason', async () => {
    const { orderId } = await paid(site, TEST_TOKENS.approve, true);
    const m = merchant();
    const paymentId = (await order(site, orderId)).paymentStatus && (await m.orderTransactions.listTransactionsForSingleOrder(orderId)).orderTransactions?.payments?.[0]?._id as string;
    const voided = await m.orders.voidAuthorizedPayments(orderId, [paymentId]);
    expect(voided.orderTransactions?.payments?.[0]).toMatchObject({ status: 'VOIDED', regularPaymentDetails: { authorizationDetails: { void: { status: 'SUCCEEDED', reason: 'MANUAL' } } } });
    expect(await order(site, orderId)).toMatchObject({ paymentStatus: 'CANCELED' });
    await expect(m.orders.voidAuthorizedPayments(orderId, [paymentId])).rejects.toMatchObject({ details: { applicationError: { code: 'PAYMENT_ALREADY_VOIDED', data: { reason: 'NOT_SUPPORTED' } } } });
    await expect(m.orders.voidAuthorizedPayments(orderId, ['no-such-payment'])).rejects.toMatchObject({ details: { applicationError: { code: 'PAYMENT_NOT_FOUND', data: { reason: 'NOT_FOUND' } } } });
  });

  it('records a failed capture (charge state FAILED) and keeps the authorization', async () => {
    const { orderId } = await paid(site, TEST_TOKENS.failOnCapture, true);
    const m = merchant();
    const paymentId = (await m.orderTransactions.listTransactionsForSingleOrder(orderId)).orderTransactions?.payments?.[0]?._id as string;
    const res = await m.orders.captureAuthorizedPayments(orderId, [{ paymentId }]);
    expect(res.orderTransactions?.payments?.[0]).toMatchObject({ status: 'AUTHORIZED', regularPaymentDetails: { authorizationDetails: { captures: [{ status: 'FAILED' }] } } });
    expect(await order(site, orderId)).toMatchObject({ paymentStatus: 'PENDING' });
  });

  it('refuses to capture once the authorization expired (EXPIRED)', async () => {
    const { orderId } = await paid(site, TEST_TOKENS.approve, true);
    await t.db.query(`UPDATE orders SET doc = jsonb_set(doc, '{payments,0,authorization,expiresAt}', to_jsonb(jsonb_build_object('$date', '2026-01-01T00:00:00.000Z'))) WHERE site_id = $1 AND order_id = $2`, [site.siteId, orderId]);
    const paymentId = (await merchant().orderTransactions.listTransactionsForSingleOrder(orderId)).orderTransactions?.payments?.[0]?._id as string;
    await expect(merchant().orders.captureAuthorizedPayments(orderId, [{ paymentId }])).rejects.toMatchObject({ details: { applicationError: { code: 'PAYMENT_NOT_AUTHORIZED', data: { reason: 'EXPIRED' } } } });
  });
});

describe('refunds through the provider', () => {
  it('refunds part, then the rest; each refund is the provider\'s, and refundability follows', async () => {
    const { orderId } = await paid(site, TEST_TOKENS.approve);
    const m = merchant();
    const paymentId = (await m.collector.getRefundabilityStatus(orderId)).refundabilities?.[0]?.paymentId as string;
    expect((await m.collector.getRefundabilityStatus(orderId)).refundabilities?.[0]).toMatchObject({ refundabilityStatus: 'REFUNDABLE' });
    const part = await m.collector.triggerRefund(orderId, [{ paymentId, amount: { amount: '15.00' } }]);
    expect(part.orderTransactions?.refunds).toEqual([expect.objectContaining({ transactions: [expect.objectContaining({ refundStatus: 'SUCCEEDED', externalRefund: false, providerRefundId: expect.stringMatching(/^test_re_/) })] })]);
    expect((await m.orderTransactions.listTransactionsForSingleOrder(orderId)).orderTransactions?.payments?.[0]?.status).toBe('PARTIALLY_REFUNDED');
    await m.collector.triggerRefund(orderId, [{ paymentId }]);
    expect((await m.orderTransactions.listTransactionsForSingleOrder(orderId)).orderTransactions?.payments?.[0]?.status).toBe('REFUNDED');
    expect(await order(site, orderId)).toMatchObject({ paymentStatus: 'FULLY_REFUNDED' });
    expect((await m.collector.getRefundabilityStatus(orderId)).refundabilities?.[0]).toMatchObject({ nonRefundableReason: 'ALREADY_REFUNDED' });
  });

  it('answers the provider\'s refusal in words (DISABLED_BY_PROVIDER) and records nothing', async () => {
    const { orderId } = await paid(site, TEST_TOKENS.noRefunds);
    const m = merchant();
    const paymentId = (await m.collector.getRefundabilityStatus(orderId)).refundabilities?.[0]?.paymentId as string;
    await expect(m.collector.triggerRefund(orderId, [{ paymentId }])).rejects.toMatchObject({ details: { applicationError: { code: 'DISABLED_BY_PROVIDER', data: { reason: 'DISABLED_BY_PROVIDER' } } } });
    expect(await order(site, orderId)).toMatchObject({ paymentStatus: 'PAID' });
  });
});

describe('paying at checkout', () => {
  it('answers a decline in words and lets the shopper pay again with another card', async () => {
    const token = await t.visitorToken(site);
    const checkoutId = await checkout(site, token);
    const declined = await pay(token, checkoutId, TEST_TOKENS.decline);
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toMatchObject({ details: { applicationError: { code: 'PAYMENT_DECLINED', data: { transactionStatus: 'DECLINED', failureDetails: expect.stringContaining('declined') } } } });
    const ok = await pay(token, checkoutId, TEST_TOKENS.approve);
    expect(ok.statusCode, ok.body).toBe(200);
    const attempts = await t.db.query<{ status: string; attempt_number: number }>('SELECT status, attempt_number FROM payment_attempts WHERE site_id = $1 AND checkout_id = $2 ORDER BY attempt_number', [site.siteId, checkoutId]);
    expect(attempts.map((a) => a.status)).toEqual(['DECLINED', 'APPROVED']);
  });

  it('asks for 3-D Secure, then places the order once the shopper comes back', async () => {
    const token = await t.visitorToken(site);
    const checkoutId = await checkout(site, token);
    const challenge = await pay(token, checkoutId, TEST_TOKENS.requireAction);
    expect(challenge.statusCode).toBe(402);
    expect(challenge.json()).toMatchObject({ details: { applicationError: { code: 'PAYMENT_ACTION_REQUIRED', data: { transactionStatus: 'PENDING', actionUrl: expect.stringContaining(`checkoutId=${checkoutId}`) } } } });
    const back = await pay(token, checkoutId, TEST_TOKENS.requireAction);
    expect(back.statusCode, back.body).toBe(200);
    expect(await order(site, back.json().orderId)).toMatchObject({ paymentStatus: 'PAID' });
    const again = await pay(token, checkoutId, TEST_TOKENS.requireAction);
    expect(again.json().orderId).toBe(back.json().orderId);
  });

  it('a failed 3-D Secure check is a decline', async () => {
    const token = await t.visitorToken(site);
    const checkoutId = await checkout(site, token);
    expect((await pay(token, checkoutId, TEST_TOKENS.requireActionFails)).statusCode).toBe(402);
    const failed = await pay(token, checkoutId, TEST_TOKENS.requireActionFails);
    expect(failed.json()).toMatchObject({ details: { applicationError: { code: 'PAYMENT_DECLINED', data: { failureDetails: expect.stringContaining('3-D Secure') } } } });
  });

  it('says so when the provider does not answer; no order is made', async () => {
    const token = await t.visitorToken(site);
    const checkoutId = await checkout(site, token);
    const down = await pay(token, checkoutId, TEST_TOKENS.down);
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ details: { applicationError: { code: 'PAYMENT_PROVIDER_UNAVAILABLE', data: { reason: 'PROVIDER_IS_DOWN' } } } });
    const found = await t.app.inject({ method: 'GET', url: `/ecom/v1/checkouts/${checkoutId}`, headers: { authorization: token } });
    expect(found.json().checkout.completed ?? false).toBe(false);
  });

  it('a payment the provider decides later: the order waits (PENDING), then is rejected and the merchant told', async () => {
    const { orderId } = await paid(site, TEST_TOKENS.pending);
    expect(await order(site, orderId)).toMatchObject({ status: 'PENDING', paymentStatus: 'PENDING' });
    const m = merchant();
    expect((await m.orders.getPaymentCollectabilityStatus(orderId)).status).toBe('NONCOLLECTABLE_ORDER_IS_PENDING');
    expect((await m.collector.getRefundabilityStatus(orderId)).refundabilities?.[0]).toMatchObject({ nonRefundableReason: 'ORDER_IS_PENDING' });
    const intentId = (await m.orderTransactions.listTransactionsForSingleOrder(orderId)).orderTransactions?.payments?.[0]?.regularPaymentDetails?.providerTransactionId as string;
    settleTestIntent(intentId, 'DECLINED');
    await sweep();
    expect(await order(site, orderId)).toMatchObject({ status: 'REJECTED', paymentStatus: 'DECLINED' });
    expect((await m.orderTransactions.listTransactionsForSingleOrder(orderId)).orderTransactions?.payments?.[0]?.status).toBe('DECLINED');
    expect((await m.orders.getPaymentCollectabilityStatus(orderId)).status).toBe('NONCOLLECTABLE_ORDER_IS_REJECTED');
    expect((await m.collector.getRefundabilityStatus(orderId)).refundabilities?.[0]).toMatchObject({ nonRefundableReason: 'ORDER_IS_REJECTED' });
    const events = await t.db.query<{ type: string }>("SELECT type FROM outbox_events WHERE site_id = $1 AND entity_id = $2 AND type = 'order.payment_failed'", [site.siteId, orderId]);
    expect(events).toHaveLength(1);
  });

  it('a pending payment the provider approves makes the order paid', async () => {
    const { orderId } = await paid(site, TEST_TOKENS.pending);
    const intentId = (await merchant().orderTransactions.listTransactionsForSingleOrder(orderId)).orderTransactions?.payments?.[0]?.regularPaymentDetails?.providerTransactionId as string;
    settleTestIntent(intentId, 'APPROVED');
    await sweep();
    expect(await order(site, orderId)).toMatchObject({ status: 'APPROVED', paymentStatus: 'PAID' });
  });

  it('a hundred concurrent completes of one checkout make one charge and one order', async () => {
    const token = await t.visitorToken(site);
    const checkoutId = await checkout(site, token);
    const answers = await Promise.all(Array.from({ length: 100 }, () => pay(token, checkoutId, TEST_TOKENS.approve)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(100).fill(200));
    expect(new Set(answers.map((a) => a.json().orderId)).size).toBe(1);
    const orderRows = await t.db.query('SELECT order_id FROM orders WHERE site_id = $1 AND checkout_id = $2', [site.siteId, checkoutId]);
    expect(orderRows).toHaveLength(1);
    const attempts = await t.db.query<{ provider_intent_id: string }>('SELECT provider_intent_id FROM payment_attempts WHERE site_id = $1 AND checkout_id = $2', [site.siteId, checkoutId]);
    expect(attempts).toHaveLength(1);
    const o = await order(site, answers[0].json().orderId);
    expect(o.paymentStatus).toBe('PAID');
    const payments = (await merchant().orderTransactions.listTransactionsForSingleOrder(o.id)).orderTransactions?.payments ?? [];
    expect(payments).toHaveLength(1);
  });
});

describe('offline payments', () => {
  it('a bank transfer waits for the merchant (PENDING_MERCHANT) until marked paid; refunds are by hand', async () => {
    await settings(site, { offlineMethods: ['PAY_LATER', 'BANK_TRANSFER'] });
    const { orderId } = await paid(site, 'offline:BANK_TRANSFER');
    expect(await order(site, orderId)).toMatchObject({ paymentStatus: 'PENDING_MERCHANT' });
    const m = merchant();
    const payment = (await m.orderTransactions.listTransactionsForSingleOrder(orderId)).orderTransactions?.payments?.[0];
    expect(payment).toMatchObject({ status: 'PENDING_MERCHANT', regularPaymentDetails: { offlinePayment: true, paymentMethod: 'BANK_TRANSFER' } });
    await expect(m.orders.captureAuthorizedPayments(orderId, [{ paymentId: payment?._id as string }])).rejects.toMatchObject({ details: { applicationError: { code: 'NOT_REGULAR_ONLINE_PAYMENT', data: { reason: 'OFFLINE' } } } });
    await m.collector.paymentCollectionMarkOrderAsPaid(orderId);
    expect(await order(site, orderId)).toMatchObject({ paymentStatus: 'PAID' });
    expect((await m.collector.getRefundabilityStatus(orderId)).refundabilities?.[0]).toMatchObject({ refundabilityStatus: 'MANUAL', manuallyRefundableReason: 'OFFLINE' });
    expect((await m.orders.getPaymentCollectabilityStatus(orderId)).status).toBe('NONCOLLECTABLE_ORDER_IS_PAID');
  });

  it('refuses an offline method the site does not take, and card payments on an offline-only site', async () => {
    const token = await t.visitorToken(site);
    const checkoutId = await checkout(site, token);
    const res = await pay(token, checkoutId, 'offline:CASH_ON_DELIVERY');
    expect(res.json()).toMatchObject({ details: { applicationError: { code: 'PAYMENT_METHOD_NOT_AVAILABLE' } } });
    const s = await t.createSite();
    await settings(s, { provider: 'none', offlineMethods: ['CASH_ON_DELIVERY'] });
    lamp = await createProduct(t.app, s, { name: 'Lamp', priceData: { price: 40 }, stock: { trackInventory: true, quantity: 5 } });
    const visitor = await t.visitorToken(s);
    const card = await pay(visitor, await checkout(s, visitor), TEST_TOKENS.approve);
    expect(card.json()).toMatchObject({ details: { applicationError: { code: 'PAYMENT_PROVIDER_IS_NOT_AVAILABLE_ON_SITE' } } });
    const placed = await t.app.inject({ method: 'POST', url: `/ecom/v1/checkouts/${await checkout(s, visitor)}/create-order`, headers: { authorization: visitor }, payload: {} });
    expect((await merchant(s).orders.getPaymentCollectabilityStatus(placed.json().orderId)).status).toBe('NONCOLLECTABLE_MISSING_PAYMENT_METHOD');
    lamp = await createProduct(t.app, site, { name: 'Lamp', priceData: { price: 40 }, stock: { trackInventory: true, quantity: 500 } });
  });
});
