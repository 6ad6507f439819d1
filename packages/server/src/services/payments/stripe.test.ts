// The `stripe` provider through the official SDK, pointed at a local stand-in of the Stripe API:
// keys set by the owner (sealed, never shown again), test connection, a shopper pays, 3-D Secure,
// a decline, capture and refunds from the back office, webhooks checked with constructEvent —
// one arriving before our own commit, and one after an answer we never got (a lost commit) —
// and the sweep that finds a payment by its idempotency key. Each ends in one charge and one order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { orders, orderTransactions } from '@wix/ecom';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { listen, redirectWixFetch } from '../../test/wix-fetch.js';
import { apiKey, catalogLine, createProduct, NEW_YORK, type PaymentsCollector, type WireProduct } from '../../test/commerce.js';
import { PM, STAND_IN_RESTRICTED_KEY, STAND_IN_SECRET_KEY, STAND_IN_WEBHOOK_SECRET, startStripeStandIn, type StandIn } from '../../test/stripe-stand-in.js';
import { DEFAULT_WEBHOOK_OPTIONS, WebhookWorker } from '../webhooks/worker.js';

let clock = new Date('2026-05-01T09:00:00Z');
let t: TestApp;
let stand: StandIn;
let site: TestSite;
let wixFetch: ReturnType<typeof redirectWixFetch>;
let chair: WireProduct;
/** The site's own domain (a fresh one per run: the PostgreSQL test database is kept between runs). */
const DOMAIN = `stripe-${Date.now().toString(36)}.example`;

beforeAll(async () => {
  stand = await startStripeStandIn();
  t = await testApp({ now: () => clock, payments: { stripeApi: stand.api } });
  site = await t.createSite({ ownerEmail: `owner.${Date.now()}@shop.example`, ownerPassword: 'Owner-pass-123', domains: [DOMAIN] });
  chair = await createProduct(t.app, site, { name: 'Chair', priceData: { price: 120 }, stock: { trackInventory: true, quantity: 500 } });
  wixFetch = redirectWixFetch(await listen(t.app));
  const res = await t.app.inject({
    method: 'PATCH', url: '/_api/bodega/v1/payment-settings', headers: apiKey(site),
    payload: { settings: { provider: 'stripe', publishableKey: 'pk_test_standin', secretKey: STAND_IN_SECRET_KEY, webhookSecret: STAND_IN_WEBHOOK_SECRET } },
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
  await stand.close();
});

function merchant() {
  const client = createClient({ modules: { orders, orderTransactions }, auth: ApiKeyStrategy({ apiKey: site.apiKey, siteId: site.siteId }) });
  return { ...client, collector: client.orders as unknown as PaymentsCollector };
}

async function checkout(token: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST', url: '/ecom/v1/checkouts', headers: { authorization: token },
    payload: { lineItems: [catalogLine(chair.id)], checkoutInfo: { buyerInfo: { email: 'buyer@example.com' }, shippingInfo: { shippingDestination: { address: NEW_YORK } } } },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().checkout.id as string;
}

function pay(token: string, checkoutId: string, paymentToken: string, delayCapture?: boolean) {
  return t.app.inject({ method: 'POST', url: `/ecom/v1/checkouts/${checkoutId}/create-order-and-charge`, headers: { authorization: token }, payload: { paymentToken, ...(delayCapture !== undefined && { delayCapture }) } });
}

async function order(orderId: string) {
  return (await t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${orderId}`, headers: apiKey(site) })).json().order;
}

function webhook(type: string, object: object) {
  const { payload, headers } = stand.signed(type, object);
  return t.app.inject({ method: 'POST', url: `/_api/bodega/v1/payments/webhooks/stripe/${site.siteId}`, headers, payload });
}

async function ordersOf(checkoutId: string) {
  return t.db.query<{ order_id: string }>('SELECT order_id FROM orders WHERE site_id = $1 AND checkout_id = $2', [site.siteId, checkoutId]);
}

function intentsOf(checkoutId: string) {
  return [...stand.intents.values()].filter((i) => i.metadata.bodega_checkout === checkoutId);
}

describe('the owner sets Stripe up', () => {
  it('keeps the keys sealed and never shows them again; the connection test says whether they work', async () => {
    const read = await t.app.inject({ method: 'GET', url: '/_api/bodega/v1/payment-settings', headers: apiKey(site) });
    expect(read.json().settings).toMatchObject({ provider: 'stripe', publishableKey: 'pk_test_standin', secretKeyHint: expect.stringMatching(/…0000$/), webhookSecretSet: true, webhookUrl: `http://localhost:3000/_api/bodega/v1/payments/webhooks/stripe/${site.siteId}` });
    expect(read.body).not.toContain(STAND_IN_SECRET_KEY);
    expect(read.body).not.toContain(STAND_IN_WEBHOOK_SECRET);
    const [row] = await t.db.query<{ secret_key_sealed: string }>('SELECT secret_key_sealed FROM payment_settings WHERE site_id = $1', [site.siteId]);
    expect(row.secret_key_sealed).not.toContain(STAND_IN_SECRET_KEY);
    const ok = await t.app.inject({ method: 'POST', url: '/_api/bodega/v1/payment-settings/test-connection', headers: apiKey(site) });
    expect(ok.json()).toMatchObject({ ok: true });

    const other = await t.createSite();
    await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/payment-settings', headers: apiKey(other), payload: { settings: { provider: 'stripe', secretKey: 'sk_test_wrong_key_1' } } });
    const bad = await t.app.inject({ method: 'POST', url: '/_api/bodega/v1/payment-settings/test-connection', headers: apiKey(other) });
    expect(bad.json()).toMatchObject({ ok: false, reason: 'ACCESS_DENIED', message: expect.stringContaining('Stripe refused') });
    const storefront = await t.app.inject({ method: 'GET', url: '/_api/bodega/v1/payment-options', headers: { authorization: await t.visitorToken(site) } });
    expect(storefront.json()).toEqual({ provider: 'stripe', publishableKey: 'pk_test_standin', offlineMethods: ['PAY_LATER'] });
  });
});

describe('a shopper pays with Stripe; the merchant captures and refunds', () => {
  it('charges at checkout and refunds part, then the rest, through Stripe', async () => {
    const token = await t.visitorToken(site);
    const checkoutId = await checkout(token);
    const res = await pay(token, checkoutId, PM.visa);
    expect(res.statusCode, res.body).toBe(200);
    const { orderId } = res.json();
    expect(await order(orderId)).toMatchObject({ paymentStatus: 'PAID' });
    const [intent] = intentsOf(checkoutId);
    expect(intent).toMatchObject({ status: 'succeeded', amount: 12000, capture_method: 'automatic', metadata: { bodega_site: site.siteId } });
    const m = merchant();
    const paymentId = (await m.collector.getRefundabilityStatus(orderId)).refundabilities?.[0]?.paymentId as string;
    await m.collector.triggerRefund(orderId, [{ paymentId, amount: { amount: '20.00' } }]);
    expect(stand.intents.get(intent.id)?.amount_refunded).toBe(2000);
    await m.collector.triggerRefund(orderId, [{ paymentId }]);
    expect(stand.intents.get(intent.id)?.amount_refunded).toBe(12000);
    expect(await order(orderId)).toMatchObject({ paymentStatus: 'FULLY_REFUNDED' });
    // Stripe's own charge.refunded for the same money changes nothing more.
    const hook = await webhook('charge.refunded', { id: 'ch_x', object: 'charge', payment_intent: intent.id, amount_refunded: 12000 });
    expect(hook.statusCode, hook.body).toBe(200);
    expect(await order(orderId)).toMatchObject({ paymentStatus: 'FULLY_REFUNDED', balanceSummary: { refunded: { amount: '120.00' } } });
  });

  it('authorizes with delayCapture (capture_method manual) and captures part from the back office', async () => {
    const token = await t.visitorToken(site);
    const checkoutId = await checkout(token);
    const { orderId } = (await pay(token, checkoutId, PM.visa, true)).json();
    const [intent] = intentsOf(checkoutId);
    expect(intent).toMatchObject({ capture_method: 'manual', status: 'requires_capture' });
    const m = merchant();
    const paymentId = (await m.orderTransactions.listTransactionsForSingleOrder(orderId)).orderTransactions?.payments?.[0]?._id as string;
    await m.orders.captureAuthorizedPayments(orderId, [{ paymentId, amount: { amount: '100.00' } }]);
    expect(stand.intents.get(intent.id)).toMatchObject({ status: 'succeeded', amount_received: 10000 });
    expect(await order(orderId)).toMatchObject({ paymentStatus: 'PARTIALLY_PAID' });
  });

  it('voids an authorization through Stripe (cancel)', async () => {
    const token = await t.visitorToken(site);
    const checkoutId = await checkout(token);
    const { orderId } = (await pay(token, checkoutId, PM.visa, true)).json();
    const m = merchant();
    const paymentId = (await m.orderTransactions.listTransactionsForSingleOrder(orderId)).orderTransactions?.payments?.[0]?._id as string;
    await m.orders.voidAuthorizedPayments(orderId, [paymentId]);
    expect(intentsOf(checkoutId)[0].status).toBe('canceled');
  });

  it('a decline is answered in words; 3-D Secure sends the shopper to the challenge and back', async () => {
    const token = await t.visitorToken(site);
    const checkoutId = await checkout(token);
    const declined = await pay(token, checkoutId, PM.declined);
    expect(declined.statusCode).toBe(402);
    expect(declined.json()).toMatchObject({ details: { applicationError: { code: 'PAYMENT_DECLINED', data: { failureDetails: 'Your card was declined.' } } } });
    const challenge = await pay(token, checkoutId, PM.threeDS);
    expect(challenge.statusCode).toBe(402);
    const data = challenge.json().details.applicationError.data;
    expect(data).toMatchObject({ transactionStatus: 'PENDING', actionUrl: expect.stringContaining('/3ds/'), paymentResponseToken: expect.stringContaining('_secret_') });
    const pending = intentsOf(checkoutId).find((i) => i.status === 'requires_action');
    expect(pending?.next_action?.redirect_to_url.return_url).toBe(`http://${DOMAIN}:3000/checkout?checkoutId=${checkoutId}`);
    stand.complete3ds(pending?.id as string);
    const back = await pay(token, checkoutId, PM.threeDS);
    expect(back.statusCode, back.body).toBe(200);
    expect(await order(back.json().orderId)).toMatchObject({ paymentStatus: 'PAID' });
    expect(intentsOf(checkoutId).filter((i) => i.status === 'succeeded')).toHaveLength(1);
  });

  it('back from a full-page 3-D Secure redirect: the server asks Stripe, then explains a failure or places the one order', async () => {
    const token = await t.visitorToken(site);
    const checkoutId = await checkout(token);
    const returned = (intentId: string, who = token) => t.app.inject({ method: 'POST', url: `/_api/bodega/v1/checkouts/${checkoutId}/payment-return`, headers: { authorization: who }, payload: { paymentIntentId: intentId } });
    /** The shopper on Stripe's page: passes or fails, and is sent back to the checkout. */
    const bank = async (actionUrl: string, outcome: 'pass' | 'fail') => {
      const res = await fetch(`${actionUrl}/${outcome}`, { method: 'POST', redirect: 'manual' });
      expect(res.status).toBe(303);
      return new URL(res.headers.get('location') ?? '');
    };
    const first = await pay(token, checkoutId, PM.threeDS);
    expect(first.statusCode).toBe(402);
    const failed = await bank(first.json().details.applicationError.data.actionUrl, 'fail');
    expect(`${failed.origin}${failed.pathname}`).toBe(`http://${DOMAIN}:3000/checkout`);
    expect(Object.fromEntries(failed.searchParams)).toMatchObject({ checkoutId, redirect_status: 'failed', payment_intent: expect.stringMatching(/^pi_/), payment_intent_client_secret: expect.stringContaining('_secret_') });
    const declined = await returned(failed.searchParams.get('payment_intent') ?? '');
    expect(declined.statusCode, declined.body).toBe(402);
    expect(declined.json()).toMatchObject({ details: { applicationError: { code: 'PAYMENT_DECLINED', data: { failureDetails: expect.stringContaining('3-D Secure') } } } });
    expect(await ordersOf(checkoutId)).toHaveLength(0);

    // The URL's redirect_status is not trusted: "succeeded" on an intent Stripe still holds for action places nothing.
    const second = await pay(token, checkoutId, PM.threeDS);
    const secondIntent = intentsOf(checkoutId).find((i) => i.status === 'requires_action')?.id ?? '';
    const early = await returned(secondIntent);
    expect(early.statusCode).toBe(402);
    expect(early.json()).toMatchObject({ details: { applicationError: { code: 'PAYMENT_ACTION_REQUIRED' } } });
    const passed = await bank(second.json().details.applicationError.data.actionUrl, 'pass');
    expect(passed.searchParams.get('redirect_status')).toBe('succeeded');
    const placed = await returned(passed.searchParams.get('payment_intent') ?? '');
    expect(placed.statusCode, placed.body).toBe(200);
    expect(await order(placed.json().orderId)).toMatchObject({ paymentStatus: 'PAID' });
    // A reload asks again: the same order. Another shopper is refused.
    expect((await returned(secondIntent)).json()).toEqual(placed.json());
    expect((await returned(secondIntent, await t.visitorToken(site))).statusCode).toBe(404);
    expect(await ordersOf(checkoutId)).toHaveLength(1);
    expect(intentsOf(checkoutId).map((i) => i.status).sort()).toEqual(['requires_payment_method', 'succeeded']);
  });

  it('fifty concurrent completes of one checkout: one PaymentIntent, one order', async () => {
    const token = await t.visitorToken(site);
    const checkoutId = await checkout(token);
    const answers = await Promise.all(Array.from({ length: 50 }, () => pay(token, checkoutId, PM.visa)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(50).fill(200));
    expect(new Set(answers.map((a) => a.json().orderId)).size).toBe(1);
    expect(await ordersOf(checkoutId)).toHaveLength(1);
    expect(intentsOf(checkoutId)).toHaveLength(1);
  });
});

describe('never a lost payment', () => {
  it('a webhook that arrives before our own commit waits for it: one order', async () => {
    const token = await t.visitorToken(site);
    const checkoutId = await checkout(token);
    let early: Promise<{ statusCode: number; body: string }> | undefined;
    stand.onCreate = (intent) => {
      early = webhook('payment_intent.succeeded', { ...intent });
    };
    try {
      const res = await pay(token, checkoutId, PM.visa);
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      stand.onCreate = undefined;
    }
    const hook = await early;
    expect(hook?.statusCode, hook?.body).toBe(200);
    expect(await ordersOf(checkoutId)).toHaveLength(1);
    expect(intentsOf(checkoutId)).toHaveLength(1);
  });

  it('Stripe took the money but its answer never reached us: the webhook makes the one order', async () => {
    const token = await t.visitorToken(site);
    const checkoutId = await checkout(token);
    stand.dropCreateAnswers = true;
    let lost;
    try {
      lost = await pay(token, checkoutId, PM.visa);
    } finally {
      stand.dropCreateAnswers = false;
    }
    expect(lost.statusCode).toBe(503);
    expect(lost.json()).toMatchObject({ details: { applicationError: { code: 'PAYMENT_PROVIDER_UNAVAILABLE' } } });
    expect(await ordersOf(checkoutId)).toHaveLength(0);
    const [intent] = intentsOf(checkoutId);
    expect(intent.status).toBe('succeeded');
    const hook = await webhook('payment_intent.succeeded', { ...intent });
    expect(hook.statusCode, hook.body).toBe(200);
    expect(await ordersOf(checkoutId)).toHaveLength(1);
    // The shopper's retry answers the same order; Stripe was asked under the same key, so no second charge.
    const retry = await pay(token, checkoutId, PM.visa);
    expect(retry.json().orderId).toBe((await ordersOf(checkoutId))[0].order_id);
    expect(intentsOf(checkoutId)).toHaveLength(1);
  });

  it('…and without a webhook, the sweep looks the payment up by its idempotency key', async () => {
    const token = await t.visitorToken(site);
    const checkoutId = await checkout(token);
    stand.dropCreateAnswers = true;
    try {
      expect((await pay(token, checkoutId, PM.visa)).statusCode).toBe(503);
    } finally {
      stand.dropCreateAnswers = false;
    }
    expect(await ordersOf(checkoutId)).toHaveLength(0);
    clock = new Date(clock.getTime() + 5 * 60_000);
    await t.app.services.commerce.checkout.sweep(60_000, undefined, t.siteIds);
    expect(await ordersOf(checkoutId)).toHaveLength(1);
    expect(intentsOf(checkoutId)).toHaveLength(1);
    expect(await order((await ordersOf(checkoutId))[0].order_id)).toMatchObject({ paymentStatus: 'PAID' });
  });

  it('refuses a webhook whose signature does not check', async () => {
    const { payload } = stand.signed('payment_intent.succeeded', { id: 'pi_forged', object: 'payment_intent' });
    const res = await t.app.inject({ method: 'POST', url: `/_api/bodega/v1/payments/webhooks/stripe/${site.siteId}`, headers: { 'stripe-signature': 't=1,v1=forged', 'content-type': 'application/json' }, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ details: { applicationError: { code: 'INVALID_SIGNATURE' } } });
  });
});

describe('later trouble reaches the merchant', () => {
  it('a dispute is recorded on the payment, stops collection and refunds, and mails the owner', async () => {
    const token = await t.visitorToken(site);
    const checkoutId = await checkout(token);
    const { orderId } = (await pay(token, checkoutId, PM.visa)).json();
    const [intent] = intentsOf(checkoutId);
    const hook = await webhook('charge.dispute.created', { id: 'dp_1', object: 'dispute', payment_intent: intent.id, amount: 12000, reason: 'fraudulent' });
    expect(hook.statusCode, hook.body).toBe(200);
    const m = merchant();
    const payment = (await m.orderTransactions.listTransactionsForSingleOrder(orderId)).orderTransactions?.payments?.[0];
    expect(payment).toMatchObject({ refundDisabled: true, regularPaymentDetails: { chargebacks: [expect.objectContaining({ amount: expect.objectContaining({ amount: '120.00' }) })] } });
    expect((await m.collector.getRefundabilityStatus(orderId)).refundabilities?.[0]).toMatchObject({ nonRefundableReason: 'DISABLED_BY_PROVIDER' });
    const worker = new WebhookWorker({ db: t.db, now: () => clock, publicUrl: 'https://shop.example', mail: t.app.services.mail, keys: t.app.services.webhooks.keys }, { ...DEFAULT_WEBHOOK_OPTIONS, sites: [site.siteId] });
    await worker.runUntilIdle();
    const mails = await t.app.services.mail.listForSite(site.siteId);
    expect(mails.filter((x) => x.kind === 'orders.PAYMENT_PROBLEM').map((x) => x.subject)).toEqual([expect.stringContaining('is disputed')]);
  });

  it('a restricted key that may not refund is FORBIDDEN, in words', async () => {
    const token = await t.visitorToken(site);
    const checkoutId = await checkout(token);
    const { orderId } = (await pay(token, checkoutId, PM.visa)).json();
    await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/payment-settings', headers: apiKey(site), payload: { settings: { secretKey: STAND_IN_RESTRICTED_KEY } } });
    try {
      const m = merchant();
      const paymentId = (await m.collector.getRefundabilityStatus(orderId)).refundabilities?.[0]?.paymentId as string;
      await expect(m.collector.triggerRefund(orderId, [{ paymentId }])).rejects.toMatchObject({ details: { applicationError: { code: 'FORBIDDEN', data: { reason: 'FORBIDDEN' } } } });
      await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/payment-settings', headers: apiKey(site), payload: { settings: { secretKey: 'sk_test_wrong_key_1' } } });
      expect((await m.collector.getRefundabilityStatus(orderId)).refundabilities?.[0]).toMatchObject({ nonRefundableReason: 'ACCESS_DENIED' });
    } finally {
      await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/payment-settings', headers: apiKey(site), payload: { settings: { secretKey: STAND_IN_SECRET_KEY } } });
    }
  });

  it('a payment Stripe no longer knows is TRANSACTION_NOT_FOUND; Stripe down is PROVIDER_IS_DOWN', async () => {
    const token = await t.visitorToken(site);
    const gone = (await pay(token, await checkout(token), PM.visa)).json().orderId as string;
    const down = (await pay(token, await checkout(token), PM.visa)).json().orderId as string;
    const m = merchant();
    const intentId = (await m.orderTransactions.listTransactionsForSingleOrder(gone)).orderTransactions?.payments?.[0]?.regularPaymentDetails?.providerTransactionId as string;
    stand.intents.delete(intentId);
    expect((await m.collector.getRefundabilityStatus(gone)).refundabilities?.[0]).toMatchObject({ nonRefundableReason: 'TRANSACTION_NOT_FOUND' });
    await stand.close();
    expect((await m.collector.getRefundabilityStatus(down)).refundabilities?.[0]).toMatchObject({ nonRefundableReason: 'PROVIDER_IS_DOWN' });
  });
});
