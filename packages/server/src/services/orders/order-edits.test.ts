// Editing a placed order through the official draftOrders calls (createDraftOrder({orderId}),
// updateLineItems, addLineItemsToDraftOrder, commitDraftOrder): re-priced by the checkout's rules,
// the stock moved by the difference, a paid difference refunded through the provider, a higher
// total left due and collected; refused once fulfilled or when the order changed meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { draftOrders, orderFulfillments, orders } from '@wix/ecom';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { listen, redirectWixFetch } from '../../test/wix-fetch.js';
import { backOfficeSite } from '../../test/backoffice.js';
import { apiKey, catalogLine, createProduct, placeOrder, type PaymentsCollector, type WireProduct } from '../../test/commerce.js';

let t: TestApp;
let site: TestSite;
let wixFetch: ReturnType<typeof redirectWixFetch>;
let lamp: WireProduct;
let mug: WireProduct;

beforeAll(async () => {
  t = await testApp();
  site = await t.createSite();
  lamp = await createProduct(t.app, site, { name: 'Lamp', priceData: { price: 40 }, stock: { trackInventory: true, quantity: 100 } });
  mug = await createProduct(t.app, site, { name: 'Mug', priceData: { price: 10 }, stock: { trackInventory: true, quantity: 100 } });
  wixFetch = redirectWixFetch(await listen(t.app));
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
});

function merchant() {
  const client = createClient({ modules: { draftOrders, orders, orderFulfillments }, auth: ApiKeyStrategy({ apiKey: site.apiKey, siteId: site.siteId }) });
  return { ...client, collector: client.orders as unknown as PaymentsCollector };
}

async function stockOf(productId: string): Promise<number> {
  return (await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${productId}`, headers: apiKey(site) })).json().product.stock.quantity;
}

async function paidOrder(lines: ReturnType<typeof catalogLine>[]): Promise<string> {
  return (await placeOrder(t.app, site, await t.visitorToken(site), lines, { paymentToken: 'tok_test_ok' })).orderId;
}

const cents = (amount: string | undefined) => Math.round(Number(amount) * 100);

describe('editing an order', () => {
  it('removes a line: re-priced, the mugs go back to stock, the paid difference is refunded through the provider', async () => {
    const client = merchant();
    const orderId = await paidOrder([catalogLine(lamp.id), catalogLine(mug.id, 2)]);
    const before = await client.orders.getOrder(orderId);
    expect(before.paymentStatus).toBe('PAID');
    expect(await stockOf(mug.id)).toBe(98);

    const draft = (await client.draftOrders.createDraftOrder({ orderId })).calculatedDraftOrder?.draftOrder;
    expect(draft?.orderId).toBe(orderId);
    const mugLine = draft?.lineItems?.find((l) => l.lineItem?.productName?.original === 'Mug')?.lineItem?._id ?? '';
    expect(mugLine).toBe(before.lineItems?.find((l) => l.productName?.original === 'Mug')?._id);
    await client.draftOrders.updateLineItems(draft?._id ?? '', [{ lineItemId: mugLine, newQuantity: 0 }]);
    const committed = await client.draftOrders.commitDraftOrder(draft?._id ?? '');
    const after = committed.orderAfterCommit;

    expect(after?.lineItems?.map((l) => [l.productName?.original, l.quantity])).toEqual([['Lamp', 1]]);
    const difference = cents(before.priceSummary?.total?.amount) - cents(after?.priceSummary?.total?.amount);
    expect(difference).toBe(2000 + cents(before.priceSummary?.tax?.amount) - cents(after?.priceSummary?.tax?.amount));
    expect(cents(after?.balanceSummary?.refunded?.amount)).toBe(difference);
    expect(after?.paymentStatus).toBe('PARTIALLY_REFUNDED');
    expect(await stockOf(mug.id)).toBe(100);
    const edit = after?.activities?.find((a) => a.type === 'DRAFT_ORDER_CHANGES_APPLIED') as { draftOrderChangesApplied?: { changes?: unknown[] } } | undefined;
    expect(edit?.draftOrderChangesApplied?.changes).toEqual([{ lineItemId: mugLine, name: 'Mug', quantityBefore: 2, quantityAfter: 0 }]);
    expect(after?.activities?.map((a) => a.type)).toContain('ORDER_REFUNDED');

    const refunds = await client.collector.getRefundabilityStatus(orderId);
    expect(refunds.refundabilities?.length).toBe(1);
    const audit = await t.db.query<{ action: string }>("SELECT action FROM audit_log WHERE site_id = $1 AND object_id = $2 AND action LIKE 'order.%' ORDER BY action", [site.siteId, orderId]);
    expect(audit.map((a) => a.action)).toEqual(['order.edited', 'order.refunded']);
  });

  it('adds a line: the stock is taken, the difference is due, and collecting it makes the order paid', async () => {
    const client = merchant();
    const orderId = await paidOrder([catalogLine(lamp.id)]);
    const before = await client.orders.getOrder(orderId);
    const lampStock = await stockOf(lamp.id);
    const draftId = (await client.draftOrders.createDraftOrder({ orderId })).calculatedDraftOrder?.draftOrder?._id ?? '';
    await client.draftOrders.addLineItemsToDraftOrder(draftId, { catalogLineItems: [{ catalogReference: catalogLine(lamp.id).catalogReference, quantity: 1 }] });
    const draft = (await client.draftOrders.getDraftOrder(draftId)).calculatedDraftOrder?.draftOrder;
    expect(draft?.lineItems?.map((l) => l.lineItem?.quantity)).toEqual([2]);
    const after = (await client.draftOrders.commitDraftOrder(draftId)).orderAfterCommit;
    const due = cents(after?.priceSummary?.total?.amount) - cents(before.priceSummary?.total?.amount);
    expect(due).toBeGreaterThanOrEqual(4000);
    expect(after?.paymentStatus).toBe('PARTIALLY_PAID');
    expect(cents(after?.balanceSummary?.balance?.amount)).toBe(due);
    expect(await stockOf(lamp.id)).toBe(lampStock - 1);
    await client.collector.recordManuallyCollectedPayment(orderId, { amount: (due / 100).toFixed(2) });
    expect((await client.orders.getOrder(orderId)).paymentStatus).toBe('PAID');
  });

  it('is refused once fulfilled, and when the order changed after the edit began (no lost update)', async () => {
    const client = merchant();
    const orderId = (await placeOrder(t.app, site, await t.visitorToken(site), [catalogLine(lamp.id)])).orderId;
    const draftId = (await client.draftOrders.createDraftOrder({ orderId })).calculatedDraftOrder?.draftOrder?._id ?? '';
    await t.app.inject({ method: 'POST', url: `/ecom/v1/orders/${orderId}/activities`, headers: apiKey(site), payload: { activity: { merchantComment: { message: 'called back' } } } });
    const stale = await t.app.inject({ method: 'POST', url: `/ecom/v1/draft-orders/${draftId}/commit`, headers: apiKey(site), payload: {} });
    expect([stale.statusCode, stale.json().details.applicationError.code]).toEqual([409, 'ORDER_CHANGED']);

    expect(await client.draftOrders.getOrderDraftabilityStatus(orderId)).toEqual({ orderId, orderDraftable: true, nonDraftableReasons: [] });
    const order = await client.orders.getOrder(orderId);
    await client.orderFulfillments.createFulfillment(orderId, { lineItems: [{ _id: order.lineItems?.[0]?._id ?? '', quantity: 1 }], trackingInfo: { trackingNumber: 'T1', shippingProvider: 'ups' } });
    const fulfilled = await t.app.inject({ method: 'POST', url: '/ecom/v1/draft-orders', headers: apiKey(site), payload: { orderId } });
    expect(fulfilled.statusCode).toBe(400);
    expect(fulfilled.json().details.applicationError).toMatchObject({ code: 'ORDER_FULFILLED', description: expect.stringContaining('fulfilled') });
    expect(await client.draftOrders.getOrderDraftabilityStatus(orderId)).toEqual({ orderId, orderDraftable: false, nonDraftableReasons: ['ORDER_STATUS_IS_NOT_SUPPORTED'] });
    const other = await t.app.inject({ method: 'POST', url: '/ecom/v1/draft-orders', headers: apiKey(site), payload: { orderId: 'nope' } });
    expect(other.statusCode).toBe(404);
  });

  it('draftability: this site\'s owner, contributor and key; another site\'s owner and key find nothing; shoppers and no token are refused', async () => {
    const a = await backOfficeSite(t);
    const b = await backOfficeSite(t);
    const print = await createProduct(t.app, a.site, { name: 'Print', priceData: { price: 5 }, productType: 'digital' });
    const orderId = (await placeOrder(t.app, a.site, await t.visitorToken(a.site), [catalogLine(print.id)])).orderId;
    const url = `/ecom/v1/draft-orders/${orderId}/draftability`;
    for (const who of ['owner', 'contributor', 'apiKey'] as const) {
      const res = await t.app.inject({ method: 'GET', url, headers: a.headers[who] });
      expect([res.statusCode, res.json().orderDraftable], `${who}: ${res.body}`).toEqual([200, true]);
    }
    for (const who of ['owner', 'apiKey'] as const) expect((await t.app.inject({ method: 'GET', url, headers: b.headers[who] })).statusCode).toBe(404);
    for (const [who, status] of [['visitor', 403], ['member', 403], ['anonymous', 401]] as const) {
      expect((await t.app.inject({ method: 'GET', url, headers: a.headers[who] })).statusCode, who).toBe(status);
    }
  });
});
