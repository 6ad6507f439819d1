import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient, OAuthStrategy } from '@wix/sdk';
import { orderFulfillments, orders } from '@wix/ecom';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { keepEveryEvent } from '../../test/webhooks.js';
import { listen, redirectWixFetch } from '../../test/wix-fetch.js';
import { apiKey, catalogLine, createProduct, memberToken, placeOrder, type PaymentsCollector, type WireProduct } from '../../test/commerce.js';

let clock = new Date('2026-04-01T09:00:00Z');
let t: TestApp;
let site: TestSite;
let wixFetch: ReturnType<typeof redirectWixFetch>;
let vase: WireProduct;
let print: WireProduct;

beforeAll(async () => {
  t = await testApp({ now: () => clock });
  site = await t.createSite();
  vase = await createProduct(t.app, site, { name: 'Vase', priceData: { price: 30 }, stock: { trackInventory: true, quantity: 50 } });
  print = await createProduct(t.app, site, { name: 'Print', priceData: { price: 12.5 }, productType: 'digital' });
  wixFetch = redirectWixFetch(await listen(t.app));
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
});

function merchant(s: TestSite = site) {
  const client = createClient({ modules: { orders, orderFulfillments }, auth: ApiKeyStrategy({ apiKey: s.apiKey, siteId: s.siteId }) });
  return { ...client, collector: client.orders as unknown as PaymentsCollector };
}

async function stockOf(s: TestSite, productId: string): Promise<number> {
  return (await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${productId}`, headers: apiKey(s) })).json().product.stock.quantity;
}

async function order(s: TestSite, orderId: string) {
  return (await t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${orderId}`, headers: apiKey(s) })).json().order;
}

function tick() {
  clock = new Date(clock.getTime() + 60_000);
}

describe('reading orders', () => {
  it('shows a buyer only their own orders; the back office sees all', async () => {
    const alice = await t.visitorToken(site);
    const bob = await t.visitorToken(site);
    const { orderId } = await placeOrder(t.app, site, alice, [catalogLine(print.id)]);
    expect((await t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${orderId}`, headers: { authorization: alice } })).statusCode).toBe(200);
    const other = await t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${orderId}`, headers: { authorization: bob } });
    expect(other.statusCode).toBe(404);
    expect(other.json().details.applicationError.code).toBe('ORDER_NOT_FOUND');
    const bobs = await t.app.inject({ method: 'POST', url: '/ecom/v1/orders/search', headers: { authorization: bob }, payload: { search: {} } });
    expect(bobs.json().orders).toEqual([]);
    const all = await merchant().orders.getOrder(orderId);
    expect(all.paymentStatus).toBe('NOT_PAID');
    expect(all.lineItems?.[0]?.paymentOption).toBe('FULL_PAYMENT_OFFLINE');
    const custom = await t.app.inject({ method: 'GET', url: `/_api/ecom-orders/v1/orders/${orderId}`, headers: apiKey(site) });
    expect(custom.json().order.id).toBe(orderId);
  });

  it('lets a member read their order from their own client', async () => {
    const member = await memberToken(t.app, site);
    const res = await t.app.inject({ method: 'POST', url: '/ecom/v1/checkouts', headers: { authorization: member.token }, payload: { channelType: 'WEB', lineItems: [catalogLine(print.id)] } });
    const placed = await t.app.inject({ method: 'POST', url: `/ecom/v1/checkouts/${res.json().checkout.id}/create-order`, headers: { authorization: member.token }, payload: {} });
    expect(placed.statusCode).toBe(200);
    const found = await t.app.inject({ method: 'POST', url: '/ecom/v1/orders/search', headers: { authorization: member.token }, payload: { search: {} } });
    expect(found.json().orders.map((o: { id: string; buyerInfo: { memberId: string } }) => [o.id, o.buyerInfo.memberId])).toEqual([[placed.json().orderId, member.memberId]]);
  });

  it('searches with a filter, a sort and cursor paging through the official module', async () => {
    const s = await t.createSite();
    const p = await createProduct(t.app, s, { name: 'Card', priceData: { price: 2 }, productType: 'digital' });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      tick();
      ids.push((await placeOrder(t.app, s, await t.visitorToken(s), [catalogLine(p.id, i + 1)], { email: `b${i}@example.com` })).orderId);
    }
    const m = merchant(s);
    await m.collector.paymentCollectionMarkOrderAsPaid(ids[1]);
    await m.collector.paymentCollectionMarkOrderAsPaid(ids[3]);

    const first = await m.orders.searchOrders({ filter: { paymentStatus: { $eq: 'NOT_PAID' } }, sort: [{ fieldName: 'number', order: orders.SortOrder.ASC }], cursorPaging: { limit: 2 } });
    expect(first.orders?.map((o) => o.number)).toEqual(['10001', '10003']);
    expect(first.metadata).toMatchObject({ count: 2, hasNext: true });
    const second = await m.orders.searchOrders({ cursorPaging: { limit: 2, cursor: first.metadata?.cursors?.next } });
    expect(second.orders?.map((o) => o.number)).toEqual(['10005']);
    expect(second.metadata?.hasNext).toBe(false);

    const newest = await m.orders.searchOrders({ cursorPaging: { limit: 3 } });
    expect(newest.orders?.map((o) => o._id)).toEqual([ids[4], ids[3], ids[2]]);
    const rest = await m.orders.searchOrders({ cursorPaging: { limit: 3, cursor: newest.metadata?.cursors?.next } });
    expect(rest.orders?.map((o) => o._id)).toEqual([ids[1], ids[0]]);

    const byEmail = await m.orders.searchOrders({ filter: { 'buyerInfo.email': 'b2@example.com' } });
    expect(byEmail.orders?.map((o) => o._id)).toEqual([ids[2]]);
    const search = async (body: unknown) => (await t.app.inject({ method: 'POST', url: '/ecom/v1/orders/search', headers: apiKey(s), payload: { search: body } })).json();
    const byDate = await search({ filter: { createdDate: { $gt: new Date(clock.getTime() - 30_000).toISOString() } } });
    expect(byDate.orders.map((o: { id: string }) => o.id)).toEqual([ids[4]]);
    const byNumbers = await search({ filter: { $or: [{ number: 10001 }, { number: { $in: ['10002'] } }] }, sort: [{ fieldName: 'number' }] });
    expect(byNumbers.orders.map((o: { number: string }) => o.number)).toEqual(['10001', '10002']);
  });

  it.each([
    [{ filter: { color: 'red' } }, /cannot be filtered/],
    [{ sort: [{ fieldName: 'checkoutId' }] }, /cannot be sorted/], // paymentStatus sorts (the Wix reference lists it)
    [{ cursorPaging: { limit: 500 } }, /between 1 and 100/],
    [{ cursorPaging: { cursor: 'garbage' } }, /cursor/],
  ])('refuses the search %j', async (search, message) => {
    const res = await t.app.inject({ method: 'POST', url: '/ecom/v1/orders/search', headers: apiKey(site), payload: { search } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
  });
});

describe('payments', () => {
  it('marks an order as paid once, with the verbatim bulk path reporting each order', async () => {
    const token = await t.visitorToken(site);
    const a = await placeOrder(t.app, site, token, [catalogLine(print.id)]);
    const b = await placeOrder(t.app, site, token, [catalogLine(print.id)]);
    const m = merchant();
    const paid = await m.collector.paymentCollectionMarkOrderAsPaid(a.orderId);
    expect(paid.order?.paymentStatus).toBe('PAID');
    await expect(m.collector.paymentCollectionMarkOrderAsPaid(a.orderId)).rejects.toMatchObject({ details: { applicationError: { code: 'ORDER_ALREADY_PAID' } } });

    const bulk = await m.collector.paymentCollectionBulkMarkOrdersAsPaid([a.orderId, b.orderId, 'no-such-order']);
    expect(bulk.results?.map((r) => [r.itemMetadata?._id, r.itemMetadata?.success, r.itemMetadata?.error?.code ?? r.item?.paymentStatus])).toEqual([
      [a.orderId, false, 'ORDER_ALREADY_PAID'],
      [b.orderId, true, 'PAID'],
      ['no-such-order', false, 'ORDER_NOT_FOUND'],
    ]);
    expect(bulk.bulkActionMetadata).toMatchObject({ totalSuccesses: 1, totalFailures: 2 });
    expect(wixFetch.calls).toContain('POST /v1/bulk/payments-collector/mark-as-paid');
    const activities = (await order(site, b.orderId)).activities.map((x: { type: string }) => x.type);
    expect(activities).toEqual(['ORDER_PLACED', 'ORDER_PAID']);
  });

  it('records manual payments until the order is paid', async () => {
    const { orderId } = await placeOrder(t.app, site, await t.visitorToken(site), [catalogLine(print.id, 2)]);
    const m = merchant();
    await m.collector.recordManuallyCollectedPayment(orderId, { amount: '10.00' }, { userDefinedPaymentMethodName: { predefined: 'CASH' } });
    expect(await order(site, orderId)).toMatchObject({ paymentStatus: 'PARTIALLY_PAID', balanceSummary: { paid: { amount: '10.00' }, balance: { amount: '15.00' } } });
    const status = await t.app.inject({ method: 'GET', url: `/ecom/v1/payments-collector/orders/${orderId}/payment-collectability-status`, headers: apiKey(site) });
    expect(status.json()).toEqual({ status: 'COLLECTABLE', amount: { amount: '15.00', formattedAmount: '$15.00' } });
    await expect(m.collector.recordManuallyCollectedPayment(orderId, { amount: '15.01' })).rejects.toMatchObject({ details: { applicationError: { code: 'AMOUNT_EXCEEDS_BALANCE' } } });
    await expect(m.collector.recordManuallyCollectedPayment(orderId, { amount: '1.001' })).rejects.toMatchObject({ details: { validationError: { fieldViolations: [expect.objectContaining({ violatedRule: 'DECIMAL_MAX_SCALE' })] } } });
    const custom = await t.app.inject({ method: 'POST', url: `/v1/payments-collector/orders/${orderId}/manual-payment`, headers: apiKey(site), payload: { orderId, amount: { amount: '15.00' } } });
    expect(custom.statusCode).toBe(200);
    const paid = await order(site, orderId);
    expect(paid).toMatchObject({ paymentStatus: 'PAID', balanceSummary: { paid: { amount: '25.00' }, balance: { amount: '0.00' } } });
    expect(paid.activities.map((x: { type: string }) => x.type)).toEqual(['ORDER_PLACED', 'ORDER_PARTIALLY_PAID', 'ORDER_PAID']);
  });

  it('refunds part and then the rest, restocking what is asked, and refuses what it cannot refund', async () => {
    const token = await t.visitorToken(site);
    const { orderId } = await placeOrder(t.app, site, token, [catalogLine(vase.id, 3)], { paymentToken: 'tok_test_ok' });
    const m = merchant();
    const stockBefore = await stockOf(site, vase.id);
    const refundability = await m.collector.getRefundabilityStatus(orderId);
    const paymentId = refundability.refundabilities?.[0]?.paymentId as string;
    expect(refundability.refundabilities).toEqual([expect.objectContaining({ refundabilityStatus: 'REFUNDABLE' })]);
    const lineId = (await order(site, orderId)).lineItems[0].id;

    const part = await m.collector.triggerRefund(orderId, [{ paymentId, amount: { amount: '30.00' } }], {
      details: { lineItems: [{ lineItemId: lineId, quantity: 1 }], reason: 'chipped' },
      sideEffects: { restockInfo: { type: 'SOME_ITEMS', items: [{ lineItemId: lineId, quantity: 1 }] } },
    });
    expect(part.refundId).toEqual(expect.any(String));
    expect(await order(site, orderId)).toMatchObject({ paymentStatus: 'PARTIALLY_REFUNDED', balanceSummary: { refunded: { amount: '30.00' } }, lineItems: [{ refundQuantity: 1, restockQuantity: 1 }] });
    expect(await stockOf(site, vase.id)).toBe(stockBefore + 1);

    await expect(m.collector.triggerRefund(orderId, [{ paymentId, amount: { amount: '60.01' } }])).rejects.toMatchObject({ details: { applicationError: { code: 'AMOUNT_EXCEEDS_REFUNDABLE' } } });
    await m.collector.triggerRefund(orderId, [{ paymentId }], { details: { reason: 'returned' } });
    const full = await order(site, orderId);
    expect(full).toMatchObject({ paymentStatus: 'FULLY_REFUNDED', balanceSummary: { refunded: { amount: '90.00' } } });
    expect(full.activities.filter((x: { type: string }) => x.type === 'ORDER_REFUNDED')).toEqual([
      expect.objectContaining({ orderRefunded: { manual: true, amount: { amount: '30.00', formattedAmount: '$30.00' }, reason: 'chipped' } }),
      expect.objectContaining({ orderRefunded: { manual: true, amount: { amount: '60.00', formattedAmount: '$60.00' }, reason: 'returned' } }),
    ]);
    expect((await m.collector.getRefundabilityStatus(orderId)).refundabilities?.[0]).toMatchObject({ refundabilityStatus: 'NOT_REFUNDABLE', nonRefundableReason: 'ALREADY_REFUNDED' });
    await expect(m.collector.triggerRefund(orderId, [{ paymentId }])).rejects.toMatchObject({ details: { applicationError: { code: 'ALREADY_REFUNDED' } } });

    const unpaid = await placeOrder(t.app, site, token, [catalogLine(print.id)]);
    await expect(m.collector.triggerRefund(unpaid.orderId, [{ paymentId: 'x', amount: { amount: '1.00' } }])).rejects.toMatchObject({ details: { applicationError: { code: 'NOT_PAID' } } });
  });
});

describe('cancel and fulfill', () => {
  it('cancels with restock, returning the units, and cancels the unpaid payment', async () => {
    const before = await stockOf(site, vase.id);
    const { orderId } = await placeOrder(t.app, site, await t.visitorToken(site), [catalogLine(vase.id, 4)]);
    expect(await stockOf(site, vase.id)).toBe(before - 4);
    const { order: canceled } = await merchant().orders.cancelOrder(orderId, { restockAllItems: true });
    expect(canceled).toMatchObject({ status: 'CANCELED', paymentStatus: 'CANCELED', fulfillmentStatus: 'CANCELED' });
    expect(canceled?.activities?.map((a) => a.type)).toEqual(['ORDER_PLACED', 'ORDER_CANCELED']);
    expect(await stockOf(site, vase.id)).toBe(before);
    await expect(merchant().orders.cancelOrder(orderId, { restockAllItems: true })).rejects.toMatchObject({ details: { applicationError: { code: 'ORDER_ALREADY_CANCELED' } } });
    expect(await stockOf(site, vase.id)).toBe(before);
    await expect(merchant().collector.paymentCollectionMarkOrderAsPaid(orderId)).rejects.toMatchObject({ details: { applicationError: { code: 'ORDER_CANCELED' } } });
  });

  it('cancels without restock, keeping stock as sold', async () => {
    const before = await stockOf(site, vase.id);
    const { orderId } = await placeOrder(t.app, site, await t.visitorToken(site), [catalogLine(vase.id, 1)], { paymentToken: 'tok_test_ok' });
    const res = await t.app.inject({ method: 'POST', url: `/ecom/v1/orders/${orderId}/cancel`, headers: apiKey(site), payload: { id: orderId } });
    expect(res.json().order).toMatchObject({ status: 'CANCELED', paymentStatus: 'PAID' });
    expect(await stockOf(site, vase.id)).toBe(before - 1);
  });

  it('fulfills in parts with tracking, then refuses more, and refuses to cancel a fulfilled order', async () => {
    const { orderId } = await placeOrder(t.app, site, await t.visitorToken(site), [catalogLine(vase.id, 2), catalogLine(print.id, 1)]);
    const lines = (await order(site, orderId)).lineItems as { id: string }[];
    const m = merchant();
    const first = await m.orderFulfillments.createFulfillment(orderId, { lineItems: [{ _id: lines[0].id, quantity: 1 }], trackingInfo: { trackingNumber: 'T1', shippingProvider: 'dhl' } });
    expect(first.fulfillmentId).toEqual(expect.any(String));
    expect((await order(site, orderId)).fulfillmentStatus).toBe('PARTIALLY_FULFILLED');
    await expect(m.orders.cancelOrder(orderId, {})).rejects.toMatchObject({ details: { applicationError: { code: 'ORDER_FULFILLED' } } });
    await expect(m.orderFulfillments.createFulfillment(orderId, { lineItems: [{ _id: lines[0].id, quantity: 2 }] })).rejects.toMatchObject({ details: { validationError: expect.anything() } });
    await m.orderFulfillments.createFulfillment(orderId, { lineItems: [] });
    const done = await order(site, orderId);
    expect(done.fulfillmentStatus).toBe('FULFILLED');
    const listed = await m.orderFulfillments.listFulfillmentsForSingleOrder(orderId);
    expect(listed.orderWithFulfillments?.fulfillments?.map((f) => f.lineItems?.map((l) => [l._id, l.quantity]))).toEqual([
      [[lines[0].id, 1]],
      [[lines[0].id, 1], [lines[1].id, 1]],
    ]);
    await expect(m.orderFulfillments.createFulfillment(orderId, { lineItems: [] })).rejects.toMatchObject({ details: { applicationError: { code: 'ORDER_ALREADY_FULFILLED' } } });
    const visitor = await t.app.inject({ method: 'POST', url: `/ecom/v1/fulfillments/orders/${orderId}/create-fulfillment`, headers: { authorization: await t.visitorToken(site) }, payload: { fulfillment: {} } });
    expect(visitor.statusCode).toBe(403);
  });
});

describe('stock, numbers and events', () => {
  it('takes stock when the order is paid with ON_ORDER_PAID, failing the payment when it is gone', async () => {
    const s = await t.createSite();
    await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/commerce-settings', headers: apiKey(s), payload: { settings: { inventoryUpdateTrigger: 'ON_ORDER_PAID' } } });
    const jar = await createProduct(t.app, s, { name: 'Jar', priceData: { price: 4 }, stock: { trackInventory: true, quantity: 2 } });
    const a = await placeOrder(t.app, s, await t.visitorToken(s), [catalogLine(jar.id, 2)]);
    const b = await placeOrder(t.app, s, await t.visitorToken(s), [catalogLine(jar.id, 1)]);
    expect(await stockOf(s, jar.id)).toBe(2);
    await merchant(s).collector.paymentCollectionMarkOrderAsPaid(a.orderId);
    expect(await stockOf(s, jar.id)).toBe(0);
    await expect(merchant(s).collector.paymentCollectionMarkOrderAsPaid(b.orderId)).rejects.toMatchObject({ status: 409, details: { applicationError: { code: 'INSUFFICIENT_INVENTORY' } } });
    expect((await order(s, b.orderId)).paymentStatus).toBe('NOT_PAID');
    await expect(placeOrder(t.app, s, await t.visitorToken(s), [catalogLine(jar.id, 1)])).rejects.toThrow(/ITEM_OUT_OF_STOCK/);
  });

  it('numbers orders per site from 10001', async () => {
    const s1 = await t.createSite();
    const s2 = await t.createSite();
    const p1 = await createProduct(t.app, s1, { name: 'A', priceData: { price: 1 }, productType: 'digital' });
    const p2 = await createProduct(t.app, s2, { name: 'B', priceData: { price: 1 }, productType: 'digital' });
    const n = async (s: TestSite, p: WireProduct) => (await order(s, (await placeOrder(t.app, s, await t.visitorToken(s), [catalogLine(p.id)])).orderId)).number;
    expect([await n(s1, p1), await n(s1, p1), await n(s2, p2), await n(s1, p1)]).toEqual(['10001', '10002', '10001', '10003']);
  });

  it('records order events in the outbox', async () => {
    await keepEveryEvent(t.db, site.siteId);
    const { orderId } = await placeOrder(t.app, site, await t.visitorToken(site), [catalogLine(print.id)], { paymentToken: 'tok_test_ok' });
    await merchant().orderFulfillments.createFulfillment(orderId, { lineItems: [] });
    const other = await placeOrder(t.app, site, await t.visitorToken(site), [catalogLine(print.id)]);
    await merchant().orders.cancelOrder(other.orderId, {});
    const events = await t.db.query<{ type: string; entity_id: string }>(
      `SELECT type, entity_id FROM outbox_events WHERE site_id = $1 AND entity_type = 'order' AND entity_id = ANY($2::text[])`, [site.siteId, [orderId, other.orderId]]);
    expect(events.filter((e) => e.entity_id === orderId).map((e) => e.type).sort()).toEqual(['order.created', 'order.fulfilled', 'order.fulfillment_created', 'order.paid']);
    expect(events.filter((e) => e.entity_id === other.orderId).map((e) => e.type).sort()).toEqual(['order.canceled', 'order.created']);
  });

  it('keeps the back-office calls to the back office', async () => {
    const { orderId } = await placeOrder(t.app, site, await t.visitorToken(site), [catalogLine(print.id)]);
    const buyer = createClient({ modules: { orders }, auth: OAuthStrategy({ clientId: site.clientId }) });
    await expect(buyer.orders.cancelOrder(orderId, {})).rejects.toMatchObject({ status: 403 });
  });
});
