// Refunds through Stripe (the official SDK against the local stand-in) that Stripe does not answer
// at once, and refunds made in Stripe's own dashboard:
// - no answer: the refund is SCHEDULED; the sweep sends it again (STARTED while Stripe is still
//   down), under the same idempotency key, until Stripe answers — never twice;
// - a refund Stripe refuses when sent again is FAILED: the money counts as not refunded again;
// - charge.refunded for money Bodega did not refund: recorded on the order, the dashboard's
//   figures count it, the owner is mailed and a webhook event recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { orderTransactions } from '@wix/ecom';
import type { TestApp, TestSite } from '../../test/harness.js';
import { apiKey, catalogLine, NEW_YORK, type WireProduct } from '../../test/commerce.js';
import { PM, type StandIn } from '../../test/stripe-stand-in.js';
import { stripeShop, type StripeShop } from '../../test/stripe-shop.js';
import { DEFAULT_WEBHOOK_OPTIONS, WebhookWorker } from '../webhooks/worker.js';

let clock = new Date('2026-05-01T09:00:00Z');
let shop: StripeShop;
let t: TestApp;
let stand: StandIn;
let site: TestSite;
let chair: WireProduct;

beforeAll(async () => {
  shop = await stripeShop(() => clock);
  ({ t, stand, site, product: chair } = shop);
});
afterAll(async () => shop.close());

const client = () => createClient({ modules: { orderTransactions }, auth: ApiKeyStrategy({ apiKey: site.apiKey, siteId: site.siteId }) });

async function paidOrder(): Promise<{ orderId: string; intentId: string; paymentId: string }> {
  const token = await t.visitorToken(site);
  const created = await t.app.inject({
    method: 'POST', url: '/ecom/v1/checkouts', headers: { authorization: token },
    payload: { lineItems: [catalogLine(chair.id)], checkoutInfo: { buyerInfo: { email: 'buyer@example.com' }, shippingInfo: { shippingDestination: { address: NEW_YORK } } } },
  });
  const checkoutId = created.json().checkout.id as string;
  const paid = await t.app.inject({ method: 'POST', url: `/ecom/v1/checkouts/${checkoutId}/create-order-and-charge`, headers: { authorization: token }, payload: { paymentToken: PM.visa } });
  expect(paid.statusCode, paid.body).toBe(200);
  const orderId = paid.json().orderId as string;
  const payment = (await client().orderTransactions.listTransactionsForSingleOrder(orderId)).orderTransactions?.payments?.[0];
  return { orderId, intentId: payment?.regularPaymentDetails?.providerTransactionId as string, paymentId: payment?._id as string };
}

function refund(orderId: string, paymentId: string, amount: string) {
  return t.app.inject({ method: 'POST', url: `/ecom/v1/payments-collector/orders/${orderId}/trigger-refund`, headers: apiKey(site), payload: { payments: [{ paymentId, amount: { amount } }], details: { items: [], shippingIncluded: false } } });
}

async function refundStates(orderId: string): Promise<string[]> {
  const listed = await client().orderTransactions.listTransactionsForSingleOrder(orderId);
  return (listed.orderTransactions?.refunds ?? []).flatMap((r) => (r.transactions ?? []).map((x) => `${x.amount?.amount} ${x.refundStatus}`));
}

async function order(orderId: string) {
  return (await t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${orderId}`, headers: apiKey(site) })).json().order;
}

async function sweepLater() {
  clock = new Date(clock.getTime() + 5 * 60_000);
  await t.app.services.commerce.checkout.sweep(60_000, undefined, t.siteIds);
}

describe('a refund Stripe does not answer', () => {
  it('is SCHEDULED, STARTED while Stripe is still down, then SUCCEEDED: one refund at Stripe', async () => {
    const { orderId, intentId, paymentId } = await paidOrder();
    stand.dropRefundAnswers = true;
    const before = stand.refunds;
    let res;
    try {
      res = await refund(orderId, paymentId, '20.00');
    } finally {
      stand.dropRefundAnswers = false;
    }
    expect(res.statusCode, res.body).toBe(200);
    expect(await refundStates(orderId)).toEqual(['20.00 SCHEDULED']);
    expect(stand.intents.get(intentId)?.amount_refunded).toBe(2000); // Stripe made it; we never heard
    expect(await order(orderId)).toMatchObject({ paymentStatus: 'PARTIALLY_REFUNDED', balanceSummary: { refunded: { amount: '20.00' } } });
    // A second refund waits for the first one's answer.
    const refundability = await t.app.inject({ method: 'GET', url: `/ecom/v1/payments-collector/orders/${orderId}/refundability`, headers: apiKey(site) });
    expect(refundability.json().refundabilities[0]).toMatchObject({ refundabilityStatus: 'NOT_REFUNDABLE', nonRefundableReason: 'PENDING_REFUND' });

    stand.down = true;
    try {
      await sweepLater();
    } finally {
      stand.down = false;
    }
    expect(await refundStates(orderId)).toEqual(['20.00 STARTED']);

    await sweepLater();
    expect(await refundStates(orderId)).toEqual(['20.00 SUCCEEDED']);
    expect(stand.refunds - before).toBe(1);
    expect(stand.intents.get(intentId)?.amount_refunded).toBe(2000);
    const [row] = await t.db.query<{ status: string; provider_transaction_id: string | null }>(
      "SELECT status, provider_transaction_id FROM payment_transactions WHERE site_id = $1 AND order_id = $2 AND kind = 'REFUND'", [site.siteId, orderId]);
    expect(row).toMatchObject({ status: 'SUCCEEDED', provider_transaction_id: expect.stringMatching(/^re_/) });
  });

  it('one Stripe refuses when it is sent again is FAILED: the order is paid again, the dashboard counts no refund', async () => {
    const { orderId, intentId, paymentId } = await paidOrder();
    stand.down = true;
    try {
      expect((await refund(orderId, paymentId, '30.00')).statusCode).toBe(200);
    } finally {
      stand.down = false;
    }
    expect(await refundStates(orderId)).toEqual(['30.00 SCHEDULED']);
    stand.intents.delete(intentId); // Stripe no longer knows the payment
    await sweepLater();
    expect(await refundStates(orderId)).toEqual(['30.00 FAILED']);
    expect(await order(orderId)).toMatchObject({ paymentStatus: 'PAID', balanceSummary: { refunded: { amount: '0.00' } } });
    const [dashboard] = await t.db.query<{ amount_minor: string | number }>('SELECT amount_minor FROM order_refunds WHERE site_id = $1 AND order_id = $2', [site.siteId, orderId]);
    expect(Number(dashboard.amount_minor)).toBe(0);
  });
});

describe('a refund made in Stripe\'s dashboard', () => {
  it('is recorded on the order, counted by the dashboard on its day, and the owner is told', async () => {
    clock = new Date('2026-05-03T10:00:00Z');
    const { orderId, intentId, paymentId } = await paidOrder();
    expect((await refund(orderId, paymentId, '20.00')).statusCode).toBe(200);
    const dashboardBefore = await t.app.inject({ method: 'GET', url: '/bodega/v1/dashboard?from=2026-05-03&to=2026-05-03&timeZone=UTC', headers: apiKey(site) });
    expect(dashboardBefore.statusCode, dashboardBefore.body).toBe(200);

    // The merchant refunds 30.00 more in Stripe's dashboard: charge.refunded says 50.00 in all.
    const { payload, headers } = stand.signed('charge.refunded', { id: 'ch_dash', object: 'charge', payment_intent: intentId, amount_refunded: 5000 });
    const hook = await t.app.inject({ method: 'POST', url: `/_api/bodega/v1/payments/webhooks/stripe/${site.siteId}`, headers, payload });
    expect(hook.statusCode, hook.body).toBe(200);
    // The same event delivered again changes nothing.
    const again = await t.app.inject({ method: 'POST', url: `/_api/bodega/v1/payments/webhooks/stripe/${site.siteId}`, headers, payload });
    expect(again.statusCode).toBe(200);

    expect(await refundStates(orderId)).toEqual(['20.00 SUCCEEDED', '30.00 SUCCEEDED']);
    expect(await order(orderId)).toMatchObject({ paymentStatus: 'PARTIALLY_REFUNDED', balanceSummary: { refunded: { amount: '50.00' } } });
    const listed = await client().orderTransactions.listTransactionsForSingleOrder(orderId);
    expect(listed.orderTransactions?.refunds?.[1]).toMatchObject({ details: { reason: 'Refunded in the payment provider\'s dashboard' } });

    const dashboard = await t.app.inject({ method: 'GET', url: '/bodega/v1/dashboard?from=2026-05-03&to=2026-05-03&timeZone=UTC', headers: apiKey(site) });
    // The day's figures: the 20.00 refunded in Bodega and the 30.00 in Stripe's dashboard.
    expect(Number(dashboard.json().range.refunds) - Number(dashboardBefore.json().range.refunds)).toBe(30);
    expect(dashboard.json().range.refunds).toBe('50.00');

    const events = await t.db.query<{ type: string }>("SELECT type FROM outbox_events WHERE site_id = $1 AND entity_id = $2 AND type = 'order.refunded_at_provider'", [site.siteId, orderId]);
    expect(events).toHaveLength(1);
    const worker = new WebhookWorker({ db: t.db, now: () => clock, publicUrl: 'https://shop.example', mail: t.app.services.mail, keys: t.app.services.webhooks.keys }, { ...DEFAULT_WEBHOOK_OPTIONS, sites: [site.siteId] });
    await worker.runUntilIdle();
    const mails = await t.app.services.mail.listForSite(site.siteId);
    expect(mails.filter((m) => m.subject.includes('refunded at the payment provider')).map((m) => m.subject)).toEqual([expect.stringContaining('$30.00 of order')]);
  });
});
