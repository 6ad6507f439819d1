// Every payment state and reason of issue 25, each reached by a real flow (the `test` provider, and
// Stripe's official SDK against the local stand-in) and read back from the wire — never written
// into the database. The table at the end lists each value with the flow that produced it; the
// few that cannot arise in Bodega (no deposits, subscriptions or card readers; no zero payment is
// ever recorded) are listed apart, with why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { apiKey, catalogLine, createProduct, NEW_YORK, type WireProduct } from '../../test/commerce.js';
import { PM, STAND_IN_RESTRICTED_KEY, STAND_IN_SECRET_KEY, STAND_IN_WEBHOOK_SECRET, startStripeStandIn, type StandIn } from '../../test/stripe-stand-in.js';
import { settleTestIntent, TEST_TOKENS } from './service.js';

const SPEC = {
  paymentStatus: ['APPROVED', 'PENDING', 'PENDING_MERCHANT', 'CANCELED', 'DECLINED', 'REFUNDED', 'PARTIALLY_REFUNDED', 'AUTHORIZED', 'VOIDED'],
  orderPaymentStatus: ['NOT_PAID', 'PAID', 'PARTIALLY_REFUNDED', 'FULLY_REFUNDED', 'PENDING', 'PARTIALLY_PAID', 'PENDING_MERCHANT', 'CANCELED', 'DECLINED'],
  moveState: ['PENDING', 'SUCCEEDED', 'FAILED', 'SCHEDULED', 'STARTED'],
  refundUnavailable: ['ALREADY_REFUNDED', 'PROVIDER_IS_DOWN', 'NOT_PAID', 'ZERO_PRICE', 'DISABLED_BY_PROVIDER', 'PENDING_REFUND', 'FORBIDDEN', 'TRANSACTION_NOT_FOUND', 'ORDER_IS_PENDING', 'ORDER_IS_REJECTED', 'ACCESS_DENIED', 'INTERNAL_ERROR', 'PARTIALLY_PAID', 'DEPOSIT_ONLINE_ITEM'],
  notVoidableOrCapturable: ['EXPIRED', 'NOT_SUPPORTED', 'NOT_FOUND', 'OFFLINE', 'REQUIRES_CARD_READER'],
  notCollectable: ['NONCOLLECTABLE_ORDER_IS_CANCELLED', 'NONCOLLECTABLE_ORDER_IS_PAID', 'NONCOLLECTABLE_MISSING_PAYMENT_METHOD', 'NONCOLLECTABLE_ORDER_IS_PENDING', 'NONCOLLECTABLE_ORDER_IS_REJECTED', 'NONCOLLECTABLE_ORDER_HAS_SUBSCRIPTIONS', 'NONCOLLECTABLE_ORDER_HAS_CHARGEBACKS'],
} as const;
type List = keyof typeof SPEC;

/** Values that cannot arise in Bodega, and why (the README says the same). */
const CANNOT_ARISE: Partial<Record<List, Record<string, string>>> = {
  refundUnavailable: {
    ZERO_PRICE: 'no payment of zero is ever recorded: a free order takes none, and captures, payments and refunds must be more than zero',
    DEPOSIT_ONLINE_ITEM: 'Bodega sells no deposit items',
  },
  notVoidableOrCapturable: { REQUIRES_CARD_READER: 'Bodega has no card readers (no point of sale)' },
  notCollectable: { NONCOLLECTABLE_ORDER_HAS_SUBSCRIPTIONS: 'Bodega sells no subscriptions' },
};

const seen: Record<List, Map<string, string>> = {
  paymentStatus: new Map(), orderPaymentStatus: new Map(), moveState: new Map(), refundUnavailable: new Map(), notVoidableOrCapturable: new Map(), notCollectable: new Map(),
};

let clock = new Date('2026-05-01T09:00:00Z');
let t: TestApp;
let stand: StandIn;
let testSite: TestSite;
let stripeSite: TestSite;
const products = new Map<string, WireProduct>();

beforeAll(async () => {
  stand = await startStripeStandIn();
  t = await testApp({ now: () => clock, payments: { stripeApi: stand.api } });
  testSite = await t.createSite();
  stripeSite = await t.createSite();
  for (const s of [testSite, stripeSite]) products.set(s.siteId, await createProduct(t.app, s, { name: 'Lamp', priceData: { price: 40 }, stock: { trackInventory: true, quantity: 500 } }));
  await settings(stripeSite, { provider: 'stripe', secretKey: STAND_IN_SECRET_KEY, webhookSecret: STAND_IN_WEBHOOK_SECRET, offlineMethods: ['PAY_LATER'] });
  await settings(testSite, { offlineMethods: ['PAY_LATER', 'BANK_TRANSFER'] });
});
afterAll(async () => {
  await t.close();
  await stand.close();
});

async function settings(s: TestSite, patch: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/payment-settings', headers: apiKey(s), payload: { settings: patch } });
  expect(res.statusCode, res.body).toBe(200);
}

/** A checkout of one lamp, paid with this token (or placed unpaid with none). */
async function order(s: TestSite, paymentToken?: string, delayCapture?: boolean): Promise<string> {
  const token = await t.visitorToken(s);
  const created = await t.app.inject({
    method: 'POST', url: '/ecom/v1/checkouts', headers: { authorization: token },
    payload: { lineItems: [catalogLine(products.get(s.siteId)?.id as string)], checkoutInfo: { buyerInfo: { email: 'buyer@example.com' }, shippingInfo: { shippingDestination: { address: NEW_YORK } } } },
  });
  const checkoutId = created.json().checkout.id as string;
  const res = paymentToken
    ? await t.app.inject({ method: 'POST', url: `/ecom/v1/checkouts/${checkoutId}/create-order-and-charge`, headers: { authorization: token }, payload: { paymentToken, ...(delayCapture !== undefined && { delayCapture }) } })
    : await t.app.inject({ method: 'POST', url: `/ecom/v1/checkouts/${checkoutId}/create-order`, headers: { authorization: token }, payload: {} });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().orderId as string;
}

const call = (s: TestSite, method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, headers: apiKey(s), ...(payload && { payload }) });

/** Reads the order's states from the wire and notes each, with the flow that produced it. */
async function observe(s: TestSite, orderId: string, flow: string): Promise<{ paymentId: string; intentId: string }> {
  const note = (list: List, value: unknown) => {
    if (typeof value === 'string' && value && !seen[list].has(value)) seen[list].set(value, flow);
  };
  const o = (await call(s, 'GET', `/ecom/v1/orders/${orderId}`)).json().order;
  note('orderPaymentStatus', o.paymentStatus);
  const tx = (await call(s, 'GET', `/ecom/v1/payments/orders/${orderId}`)).json().orderTransactions;
  for (const p of tx.payments) {
    note('paymentStatus', p.regularPaymentDetails.status);
    for (const c of p.regularPaymentDetails.authorizationDetails?.captures ?? []) note('moveState', c.status);
    note('moveState', p.regularPaymentDetails.authorizationDetails?.void?.status);
  }
  for (const r of tx.refunds) for (const x of r.transactions) note('moveState', x.refundStatus);
  const refundability = (await call(s, 'GET', `/ecom/v1/payments-collector/orders/${orderId}/refundability`)).json();
  for (const r of refundability.refundabilities ?? []) {
    note('refundUnavailable', r.nonRefundableReason);
    note('notVoidableOrCapturable', r.manuallyRefundableReason);
  }
  note('notCollectable', (await call(s, 'GET', `/ecom/v1/payments-collector/orders/${orderId}/payment-collectability-status`)).json().status);
  return { paymentId: tx.payments[0]?.id ?? '', intentId: tx.payments[0]?.regularPaymentDetails.providerTransactionId ?? '' };
}

/** A refused call's reason (data.reason), noted. */
async function refused(list: List, flow: string, res: { statusCode: number; json: () => { details?: { applicationError?: { data?: { reason?: string } } } } }) {
  expect(res.statusCode).toBeGreaterThanOrEqual(400);
  const reason = res.json().details?.applicationError?.data?.reason;
  if (reason && !seen[list].has(reason)) seen[list].set(reason, flow);
}

const capture = (s: TestSite, orderId: string, paymentId: string, amount?: string) =>
  call(s, 'POST', `/ecom/v1/payments-collector/orders/${orderId}/capture-authorized-payments`, { payments: [{ paymentId, ...(amount && { amount: { amount } }) }] });
const voidIt = (s: TestSite, orderId: string, paymentId: string) => call(s, 'POST', `/ecom/v1/payments-collector/orders/${orderId}/void-authorized-payments`, { paymentIds: [paymentId] });
const refund = (s: TestSite, orderId: string, paymentId: string, amount?: string) =>
  call(s, 'POST', `/ecom/v1/payments-collector/orders/${orderId}/trigger-refund`, { payments: [{ paymentId, ...(amount && { amount: { amount } }) }], details: { items: [], shippingIncluded: false } });
const webhook = (type: string, object: object) => {
  const { payload, headers } = stand.signed(type, object);
  return t.app.inject({ method: 'POST', url: `/_api/bodega/v1/payments/webhooks/stripe/${stripeSite.siteId}`, headers, payload });
};
async function sweepLater() {
  clock = new Date(clock.getTime() + 5 * 60_000);
  await t.app.services.commerce.checkout.sweep(60_000, undefined, t.siteIds);
}

describe('each state and reason comes from a real flow', () => {
  it('the test provider: sale, refunds, authorization and capture, void, pending then declined, offline, unpaid and canceled', async () => {
    const sale = await order(testSite, TEST_TOKENS.approve);
    const { paymentId } = await observe(testSite, sale, 'a card sale');
    expect((await refund(testSite, sale, paymentId, '5.00')).statusCode).toBe(200);
    await observe(testSite, sale, 'a partial refund');
    expect((await refund(testSite, sale, paymentId)).statusCode).toBe(200);
    await observe(testSite, sale, 'the rest refunded');

    const held = await order(testSite, TEST_TOKENS.approve, true);
    const auth = await observe(testSite, held, 'an authorization (delayCapture)');
    expect((await capture(testSite, held, auth.paymentId, '10.00')).statusCode).toBe(200);
    await observe(testSite, held, 'a partial capture');
    await refused('notVoidableOrCapturable', 'capturing a payment already captured', await capture(testSite, held, auth.paymentId));
    await refused('notVoidableOrCapturable', 'capturing a payment the order does not have', await capture(testSite, held, 'no-such-payment'));

    const voided = await order(testSite, TEST_TOKENS.approve, true);
    const v = await observe(testSite, voided, 'an authorization');
    expect((await voidIt(testSite, voided, v.paymentId)).statusCode).toBe(200);
    await observe(testSite, voided, 'a void');

    const failing = await order(testSite, TEST_TOKENS.failOnCapture, true);
    const f = await observe(testSite, failing, 'an authorization');
    expect((await capture(testSite, failing, f.paymentId)).statusCode).toBe(200);
    await observe(testSite, failing, 'a capture the provider fails');

    const noRefunds = await order(testSite, TEST_TOKENS.noRefunds);
    const n = await observe(testSite, noRefunds, 'a card sale');
    await refused('refundUnavailable', 'a refund the provider refuses', await refund(testSite, noRefunds, n.paymentId));

    const pending = await order(testSite, TEST_TOKENS.pending);
    const p = await observe(testSite, pending, 'a payment the provider has not decided');
    settleTestIntent(p.intentId, 'DECLINED');
    await sweepLater();
    await observe(testSite, pending, 'the provider declines it later (sweep)');

    const later = await order(testSite, 'offline:BANK_TRANSFER');
    const l = await observe(testSite, later, 'a bank transfer chosen at checkout');
    await refused('notVoidableOrCapturable', 'capturing an offline payment', await capture(testSite, later, l.paymentId));

    const unpaid = await order(testSite);
    await observe(testSite, unpaid, 'an order placed unpaid (create-order)');
    expect((await call(testSite, 'POST', `/ecom/v1/orders/${unpaid}/cancel`, { restockAllItems: true })).statusCode).toBe(200);
    await observe(testSite, unpaid, 'the unpaid order canceled');

    await settings(testSite, { provider: 'none' });
    await observe(testSite, await order(testSite), 'an unpaid order on an offline-only store');
    await settings(testSite, { provider: 'test' });
  });

  it('Stripe through its SDK: expiry, Stripe canceling an authorization, disputes, keys refused, Stripe down or failing, refunds pending, scheduled, started, failed', async () => {
    const held = await order(stripeSite, PM.visa, true);
    const h = await observe(stripeSite, held, 'a Stripe authorization');
    stand.expired.add(h.intentId);
    await refused('notVoidableOrCapturable', 'Stripe refuses to capture an expired authorization', await capture(stripeSite, held, h.paymentId));
    expect((await webhook('payment_intent.canceled', { ...stand.intents.get(h.intentId), status: 'canceled', cancellation_reason: 'automatic' })).statusCode).toBe(200);
    await observe(stripeSite, held, 'Stripe cancels the authorization (payment_intent.canceled)');

    const disputed = await order(stripeSite, PM.visa);
    const d = await observe(stripeSite, disputed, 'a Stripe sale');
    expect((await webhook('charge.dispute.created', { id: 'dp_states', object: 'dispute', payment_intent: d.intentId, amount: 1000, reason: 'fraudulent' })).statusCode).toBe(200);
    await observe(stripeSite, disputed, 'a dispute (charge.dispute.created)');

    const sale = await order(stripeSite, PM.visa);
    const s = await observe(stripeSite, sale, 'a Stripe sale');
    stand.refundStatus = 'pending';
    try {
      expect((await refund(stripeSite, sale, s.paymentId, '5.00')).statusCode).toBe(200);
    } finally {
      stand.refundStatus = 'succeeded';
    }
    await observe(stripeSite, sale, 'Stripe answers a refund pending');

    const keys = await order(stripeSite, PM.visa);
    await settings(stripeSite, { secretKey: STAND_IN_RESTRICTED_KEY });
    const k = await observe(stripeSite, keys, 'a Stripe sale');
    await refused('refundUnavailable', 'a restricted key may not refund', await refund(stripeSite, keys, k.paymentId));
    await settings(stripeSite, { secretKey: 'sk_test_wrong_key_1' });
    await observe(stripeSite, keys, 'Stripe refuses the site\'s key');
    await settings(stripeSite, { secretKey: STAND_IN_SECRET_KEY });
    stand.failing = true;
    try {
      await observe(stripeSite, keys, 'Stripe answers with its own failure (500)');
    } finally {
      stand.failing = false;
    }
    stand.down = true;
    try {
      await observe(stripeSite, keys, 'Stripe does not answer');
      expect((await refund(stripeSite, keys, k.paymentId, '3.00')).statusCode).toBe(200);
      await observe(stripeSite, keys, 'a refund Stripe does not answer');
      await sweepLater();
      await observe(stripeSite, keys, 'the sweep sends it again; Stripe still silent');
    } finally {
      stand.down = false;
    }
    stand.intents.delete(k.intentId);
    await observe(stripeSite, keys, 'a payment Stripe no longer knows');
    await sweepLater();
    await observe(stripeSite, keys, 'the sweep sends the refund again; Stripe refuses it');
  });

  it('the table: every value of the issue reached, or named as one that cannot arise', () => {
    const table: string[] = [];
    const missing: string[] = [];
    for (const list of Object.keys(SPEC) as List[]) {
      for (const value of SPEC[list]) {
        const why = CANNOT_ARISE[list]?.[value];
        const flow = seen[list].get(value) ?? (why ? `cannot arise: ${why}` : undefined);
        if (!flow) missing.push(`${list} ${value}`);
        table.push(`${list.padEnd(24)} ${value.padEnd(38)} ${flow ?? 'NOT REACHED'}`);
      }
    }
    if (process.env.PRINT_STATES) console.log(table.join('\n'));
    expect(missing).toEqual([]);
    for (const [list, values] of Object.entries(CANNOT_ARISE)) for (const value of Object.keys(values)) expect(seen[list as List].has(value), `${list} ${value}`).toBe(false);
  });
});
