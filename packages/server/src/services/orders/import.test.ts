// Order import (issue 31) through the official @wix/ecom orders.importOrder and
// setOrderNumberCounter, and the back office's file import: an order from eBay kept as sold (number,
// channel, amounts to the cent, a handling fee) without taking stock, mailing or firing "order
// created"; the same order imported twice, or twice at once, is one order; a file with one good
// order and one of each refusal; floats that are not exact amounts refused; numbering; who may call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { orders } from '@wix/ecom';
import { parse } from 'csv-parse/sync';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { backOfficeSite, type BackOfficeSite } from '../../test/backoffice.js';
import { listen, redirectWixFetch } from '../../test/wix-fetch.js';
import { apiKey, catalogLine, createProduct, placeOrder, STORES_APP_ID, type WireProduct } from '../../test/commerce.js';

let t: TestApp;
let a: BackOfficeSite;
let b: BackOfficeSite;
let site: TestSite;
let wixFetch: ReturnType<typeof redirectWixFetch>;
let mug: WireProduct;
type Res = Awaited<ReturnType<TestApp['app']['inject']>>;

beforeAll(async () => {
  t = await testApp();
  a = await backOfficeSite(t);
  b = await backOfficeSite(t);
  site = a.site;
  mug = await createProduct(t.app, site, { name: 'Mug', priceData: { price: 12 }, stock: { trackInventory: true, quantity: 5 } });
  wixFetch = redirectWixFetch(await listen(t.app));
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
});

function merchant(s: TestSite = site) {
  return createClient({ modules: { orders }, auth: ApiKeyStrategy({ apiKey: s.apiKey, siteId: s.siteId }) });
}

const usd = (amount: string) => ({ amount });

/** A paid eBay order: 2 mugs at 12.00 and a custom print at 5.50, shipping 4.00, tax 2.10, a handling fee 1.50. */
function ebayOrder(externalOrderId: string, extra: Record<string, unknown> = {}) {
  return {
    number: '',
    createdDate: new Date('2025-03-04T10:00:00Z'),
    status: 'APPROVED',
    paymentStatus: 'PAID',
    fulfillmentStatus: 'FULFILLED',
    currency: 'USD',
    weightUnit: 'KG',
    channelInfo: { type: 'EBAY', externalOrderId, externalOrderUrl: `https://ebay.example/orders/${externalOrderId}` },
    buyerInfo: { email: 'ebay.buyer@example.com' },
    lineItems: [
      { productName: { original: 'Mug' }, catalogReference: { appId: STORES_APP_ID, catalogItemId: mug.id }, quantity: 2, price: usd('12.00'), itemType: { preset: 'PHYSICAL' } },
      { productName: { original: 'Custom print' }, quantity: 1, price: usd('5.50'), itemType: { preset: 'PHYSICAL' } },
    ],
    priceSummary: { subtotal: usd('29.50'), shipping: usd('4.00'), tax: usd('2.10'), discount: usd('0'), total: usd('37.10'), totalAdditionalFees: usd('1.50') },
    additionalFees: [{ code: 'HANDLING_FEE', name: 'Handling', price: usd('1.50') }],
    ...extra,
  };
}

async function stockOf(productId: string): Promise<number> {
  return (await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${productId}`, headers: apiKey(site) })).json().product.stock.quantity;
}

async function outboxTypes(orderId: string): Promise<string[]> {
  const rows = await t.db.query<{ type: string }>('SELECT type FROM outbox_events WHERE site_id = $1 AND entity_id = $2 ORDER BY type', [site.siteId, orderId]);
  return rows.map((r) => r.type);
}

async function countOrders(s: TestSite = site): Promise<number> {
  const rows = await t.db.query<{ n: string }>('SELECT count(*) AS n FROM orders WHERE site_id = $1', [s.siteId]);
  return Number(rows[0].n);
}

describe('importOrder through the official SDK', () => {
  it('keeps an eBay order as it was sold — channel, its id, amounts to the cent, a fee — and takes no stock, mails nothing and fires only order_imported', async () => {
    const hook = await t.app.inject({ method: 'POST', url: '/bodega/v1/webhooks', headers: apiKey(site), payload: { subscription: { url: 'https://example.com/hook', eventTypes: ['wix.ecom.v1.order_imported', 'wix.ecom.v1.order_created'] } } });
    expect(hook.statusCode, hook.body).toBe(200);
    const answer = await merchant().orders.importOrder(ebayOrder('EB-1001', { number: '501' }) as never);
    const order = answer.order;
    expect(order?.number).toBe('501');
    expect(order?.channelInfo).toMatchObject({ type: 'EBAY', externalOrderId: 'EB-1001' });
    expect(order?.paymentStatus).toBe('PAID');
    expect(order?.fulfillmentStatus).toBe('FULFILLED');
    expect(order?._createdDate?.toISOString()).toBe('2025-03-04T10:00:00.000Z');
    expect(Object.fromEntries(Object.entries(order?.priceSummary ?? {}).map(([k, v]) => [k, (v as { amount?: string }).amount]))).toEqual({
      subtotal: '29.50', shipping: '4.00', tax: '2.10', discount: '0.00', total: '37.10', totalAdditionalFees: '1.50',
    });
    expect(order?.additionalFees?.map((f) => [f.code, f.price?.amount])).toEqual([['HANDLING_FEE', '1.50']]);
    expect(order?.balanceSummary?.paid?.amount).toBe('37.10');
    expect(order?.lineItems?.map((l) => [l.productName?.original, l.quantity, l.price?.amount])).toEqual([['Mug', 2, '12.00'], ['Custom print', 1, '5.50']]);
    expect(await stockOf(mug.id)).toBe(5);
    expect(await outboxTypes(order?._id ?? '')).toEqual(['order.imported']);
    const mails = await t.db.query<{ n: string }>('SELECT count(*) AS n FROM mail_outbox WHERE site_id = $1', [site.siteId]);
    expect(Number(mails[0].n)).toBe(0);
    // It is an order of the shop like any other: found by the orders search.
    const found = await merchant().orders.searchOrders({ filter: { 'channelInfo.type': 'EBAY' } });
    expect(found.orders?.map((o) => o._id)).toContain(order?._id);
  });

  it('answers the first order when the same external order is imported again, even twice at once', async () => {
    const first = await merchant().orders.importOrder(ebayOrder('EB-2002') as never);
    const again = await merchant().orders.importOrder(ebayOrder('EB-2002') as never);
    expect(again.order?._id).toBe(first.order?._id);
    const before = await countOrders();
    const racing = await Promise.all([0, 1, 2].map(() => t.app.inject({ method: 'POST', url: '/ecom/v1/orders/import', headers: apiKey(site), payload: { order: ebayOrder('EB-3003') } })));
    expect(racing.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(new Set(racing.map((r) => r.json().order.id)).size).toBe(1);
    expect(await countOrders()).toBe(before + 1);
  });

  it('refuses amounts that do not add up, a JSON float that is not an exact amount, and names the reason', async () => {
    const wrong = await t.app.inject({ method: 'POST', url: '/ecom/v1/orders/import', headers: apiKey(site), payload: { order: ebayOrder('EB-4004', { priceSummary: { subtotal: usd('29.50'), shipping: usd('4.00'), tax: usd('2.10'), total: usd('40.00') } }) } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().details.applicationError.code).toBe('AMOUNTS_DO_NOT_ADD_UP');
    expect(wrong.json().message).toContain('37.10');
    const float = ebayOrder('EB-4005', { lineItems: [{ productName: { original: 'Pen' }, quantity: 3, price: { amount: 0.1 + 0.2 } }], priceSummary: { subtotal: usd('0.90'), total: usd('0.90') }, additionalFees: [] });
    const refused = await t.app.inject({ method: 'POST', url: '/ecom/v1/orders/import', headers: apiKey(site), payload: { order: float } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details.validationError.fieldViolations[0]).toMatchObject({ field: 'lineItems[0].price', violatedRule: 'DECIMAL_MAX_SCALE' });
    const exact = ebayOrder('EB-4006', { lineItems: [{ productName: { original: 'Pen' }, quantity: 3, price: { amount: 19.99 } }], priceSummary: { subtotal: { amount: 59.97 }, total: { amount: 59.97 } }, additionalFees: [] });
    const ok = await t.app.inject({ method: 'POST', url: '/ecom/v1/orders/import', headers: apiKey(site), payload: { order: exact } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().order.priceSummary.total.amount).toBe('59.97');
  });

  it('replaces an imported order given its id; an unknown id is ORDER_NOT_FOUND and a web order cannot be replaced', async () => {
    const first = (await merchant().orders.importOrder(ebayOrder('EB-5001') as never)).order;
    const replaced = await t.app.inject({ method: 'POST', url: '/ecom/v1/orders/import', headers: apiKey(site), payload: { order: { ...ebayOrder('EB-5001'), id: first?._id, fulfillmentStatus: 'NOT_FULFILLED' } } });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().order).toMatchObject({ id: first?._id, number: first?.number, fulfillmentStatus: 'NOT_FULFILLED' });
    const missing = await t.app.inject({ method: 'POST', url: '/ecom/v1/orders/import', headers: apiKey(site), payload: { order: { ...ebayOrder('EB-5002'), id: 'no-such-order' } } });
    expect([missing.statusCode, missing.json().details.applicationError.code]).toEqual([404, 'ORDER_NOT_FOUND']);
    const visitor = await t.visitorToken(site);
    const web = await placeOrder(t.app, site, visitor, [catalogLine(mug.id)]);
    const notImported = await t.app.inject({ method: 'POST', url: '/ecom/v1/orders/import', headers: apiKey(site), payload: { order: { ...ebayOrder('EB-5003'), id: web.orderId } } });
    expect([notImported.statusCode, notImported.json().details.applicationError.code]).toEqual([400, 'CANNOT_OVERWRITE_NON_IMPORTED_ORDER']);
  });
});

describe('order numbers', () => {
  it('keeps the imported numbers; web orders continue after the highest one, and the counter can be set higher through the SDK', async () => {
    const c = await backOfficeSite(t);
    const product = await createProduct(t.app, c.site, { name: 'Cup', priceData: { price: 3 } });
    const client = merchant(c.site);
    const low = await client.orders.importOrder({ ...ebayOrder('EB-N1', { number: '700' }), lineItems: [{ productName: { original: 'Cup' }, quantity: 1, price: usd('29.50') }], additionalFees: [], priceSummary: { subtotal: usd('29.50'), total: usd('29.50') } } as never);
    expect(low.order?.number).toBe('700');
    const visitor = await t.visitorToken(c.site);
    const firstWeb = await placeOrder(t.app, c.site, visitor, [catalogLine(product.id)]);
    expect((await client.orders.getOrder(firstWeb.orderId)).number).toBe('10001');
    await client.orders.importOrder({ ...ebayOrder('EB-N2', { number: '20500' }), lineItems: [{ productName: { original: 'Cup' }, quantity: 1, price: usd('29.50') }], additionalFees: [], priceSummary: { subtotal: usd('29.50'), total: usd('29.50') } } as never);
    const taken = await t.app.inject({ method: 'POST', url: '/ecom/v1/orders/import', headers: apiKey(c.site), payload: { order: { ...ebayOrder('EB-N3', { number: '20500' }), lineItems: [{ productName: { original: 'Cup' }, quantity: 1, price: usd('29.50') }], additionalFees: [], priceSummary: { subtotal: usd('29.50'), total: usd('29.50') } } } });
    expect([taken.statusCode, taken.json().details.applicationError.code]).toEqual([409, 'ORDER_NUMBER_TAKEN']);
    const next = await placeOrder(t.app, c.site, visitor, [catalogLine(product.id)]);
    expect((await client.orders.getOrder(next.orderId)).number).toBe('20501');
    const set = await client.orders.setOrderNumberCounter('30000');
    expect(set).toMatchObject({ oldCounter: '20502', newCounter: '30000' });
    await expect(client.orders.setOrderNumberCounter('25000')).rejects.toMatchObject({ details: { applicationError: { code: 'CANNOT_SET_LOWER_ORDER_NUMBER_COUNTER' } } });
    const third = await placeOrder(t.app, c.site, visitor, [catalogLine(product.id)]);
    expect((await client.orders.getOrder(third.orderId)).number).toBe('30000');
  });
});

const CSV_HEADER = 'orderId,source,number,createdDate,status,paymentStatus,fulfillmentStatus,currency,weightUnit,email,subtotal,shipping,tax,discount,total,paid,refunded,handlingFee,feesTax,shippingTitle,shippingCountry,lineName,lineQuantity,linePrice,lineProductId,lineSubscription';

/** One good order (two rows) and one order for each refusal the spec names. */
function importFile(productId: string): string {
  return [
    CSV_HEADER,
    `A-1,AMAZON,,2025-01-02T09:00:00Z,APPROVED,PAID,NOT_FULFILLED,USD,KG,amy@example.com,36.00,5.00,0,1.00,41.00,,,1.00,,Standard,US,Mug,2,12.00,${productId},`,
    'A-1,,,,,,,,,,,,,,,,,,,,,Poster,1,12.00,,',
    'A-2,AMAZON,,,APPROVED,FULLY_REFUNDED,NOT_FULFILLED,USD,,,10.00,,,,10.00,,,,,,,Hat,1,10.00,,',
    'A-3,FACEBOOK,,,APPROVED,PAID,NOT_FULFILLED,USD,,,10.00,,,,10.00,,,,,,,Hat,1,10.00,,',
    'A-4,AMAZON,,,PENDING,PAID,NOT_FULFILLED,USD,,,10.00,,,,10.00,,,,,,,Hat,1,10.00,,',
    'A-5,AMAZON,,,APPROVED,PAID,NOT_FULFILLED,EUR,,,10.00,,,,10.00,,,,,,,Hat,1,10.00,,',
    'A-6,AMAZON,,,APPROVED,PAID,NOT_FULFILLED,USD,LB,,10.00,,,,10.00,,,,,,,Hat,1,10.00,,',
    'A-7,AMAZON,,,APPROVED,PAID,NOT_FULFILLED,USD,,,10.00,,,,12.00,,,,,,,Hat,1,10.00,,',
    'A-8,,,,,,,,,,,,,,,,,,,,,Scarf,1,10.00,,',
    'A-9,AMAZON,,,APPROVED,PAID,NOT_FULFILLED,USD,,,10.00,,,,10.00,,,,,,,Box of the month,1,10.00,,MONTH',
    'A-10,AMAZON,,,APPROVED,PAID,NOT_FULFILLED,USD,,,10.00,,,,10.00,,,,,,,Hat,1,10.00,not-a-product-here,',
    'A-11,AMAZON,,,APPROVED,PAID,NOT_FULFILLED,USD,,,10.00,,,,11.00,,,1.00,0.10,,,Hat,1,10.00,,',
    'A-12,AMAZON,,,APPROVED,PARTIALLY_REFUNDED,NOT_FULFILLED,USD,,,10.00,,,,10.00,,,,,,,Hat,1,10.00,,',
  ].join('\n');
}

describe('the back office\'s file import', () => {
  it('imports the good order, refuses each other with the spec\'s reason in words, and makes no duplicates when the file comes again', async () => {
    const stock = await stockOf(mug.id);
    const res = await t.app.inject({ method: 'POST', url: '/bodega/v1/order-imports', headers: a.headers.owner, payload: { format: 'csv', content: importFile(mug.id) } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { results: { rows: number[]; externalOrderId: string; status: string; code?: string; message?: string; orderId?: string }[]; imported: number; failed: number };
    expect(body.results.map((r) => [r.externalOrderId, r.status, r.code ?? null])).toEqual([
      ['A-1', 'IMPORTED', null],
      ['A-2', 'FAILED', 'PARTIALLY_OR_FULLY_REFUNDED'],
      ['A-3', 'FAILED', 'UNSUPPORTED_CHANNEL_TYPE'],
      ['A-4', 'FAILED', 'ORDER_STATUS_IS_NOT_SUPPORTED'],
      ['A-5', 'FAILED', 'ORDER_AND_SITE_CURRENCIES_ARE_INCONSISTENT'],
      ['A-6', 'FAILED', 'ORDER_AND_SITE_WEIGHT_UNITS_ARE_INCONSISTENT'],
      ['A-7', 'FAILED', 'AMOUNTS_DO_NOT_ADD_UP'],
      ['A-8', 'FAILED', 'ORDER_NOT_FOUND'],
      ['A-9', 'FAILED', 'SUBSCRIPTION_LINE_ITEM_EXISTS'],
      ['A-10', 'FAILED', 'UNSUPPORTED_CATALOG_ITEM'],
      ['A-11', 'FAILED', 'TAXABLE_EXISTING_ADDITIONAL_FEE'],
      ['A-12', 'FAILED', 'PARTIALLY_OR_FULLY_REFUNDED'],
    ]);
    expect(body.results[0].rows).toEqual([1, 2]);
    expect(body.results.find((r) => r.externalOrderId === 'A-5')?.message).toBe('The order is in EUR and the shop sells in USD');
    expect(body).toMatchObject({ imported: 1, failed: 11 });
    const good = await merchant().orders.getOrder(body.results[0].orderId ?? '');
    expect(good.channelInfo).toMatchObject({ type: 'AMAZON', externalOrderId: 'A-1' });
    expect(good.priceSummary?.total?.amount).toBe('41.00');
    expect(good.lineItems?.map((l) => l.productName?.original)).toEqual(['Mug', 'Poster']);
    expect(await stockOf(mug.id)).toBe(stock);

    const before = await countOrders();
    const again = await t.app.inject({ method: 'POST', url: '/bodega/v1/order-imports', headers: a.headers.contributor, payload: { format: 'csv', content: importFile(mug.id) } });
    expect(again.json().results[0]).toMatchObject({ status: 'ALREADY_IMPORTED', orderId: body.results[0].orderId });
    expect(again.json()).toMatchObject({ imported: 0, alreadyImported: 1 });
    expect(await countOrders()).toBe(before);
    const audit = await t.db.query<{ action: string }>("SELECT action FROM audit_log WHERE site_id = $1 AND action LIKE 'order.import%'", [site.siteId]);
    expect(audit.map((r) => r.action)).toContain('order.import_file');
  });

  it('keeps a failures file: each refused order\'s rows with the spec\'s reason, its words and the row as sent', async () => {
    // A file of its own (B- ids), so the good order is new here too.
    const content = importFile(mug.id).replace(/^A-/gm, 'B-');
    const res = await t.app.inject({ method: 'POST', url: '/bodega/v1/order-imports', headers: a.headers.contributor, payload: { format: 'csv', content } });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as { importId: string; imported: number; failed: number; results: { externalOrderId: string; message?: string }[] };
    expect(answer).toMatchObject({ imported: 1, failed: 11 });
    const file = await t.app.inject({ method: 'GET', url: `/bodega/v1/order-imports/${answer.importId}/failures.csv`, headers: a.headers.owner });
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-type']).toMatch(/^text\/csv/);
    expect(file.headers['content-disposition']).toBe(`attachment; filename="order-import-${answer.importId}-failures.csv"`);
    const rows = parse(file.body, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]).slice(0, 4)).toEqual(['row', 'error', 'reason', 'orderId']);
    // The good order's rows (1 and 2) are not in it; every other row is, with its order's reason.
    expect(rows.map((r) => [r.row, r.orderId, r.reason])).toEqual([
      ['3', 'B-2', 'PARTIALLY_OR_FULLY_REFUNDED'],
      ['4', 'B-3', 'UNSUPPORTED_CHANNEL_TYPE'],
      ['5', 'B-4', 'ORDER_STATUS_IS_NOT_SUPPORTED'],
      ['6', 'B-5', 'ORDER_AND_SITE_CURRENCIES_ARE_INCONSISTENT'],
      ['7', 'B-6', 'ORDER_AND_SITE_WEIGHT_UNITS_ARE_INCONSISTENT'],
      ['8', 'B-7', 'AMOUNTS_DO_NOT_ADD_UP'],
      ['9', 'B-8', 'ORDER_NOT_FOUND'],
      ['10', 'B-9', 'SUBSCRIPTION_LINE_ITEM_EXISTS'],
      ['11', 'B-10', 'UNSUPPORTED_CATALOG_ITEM'],
      ['12', 'B-11', 'TAXABLE_EXISTING_ADDITIONAL_FEE'],
      ['13', 'B-12', 'PARTIALLY_OR_FULLY_REFUNDED'],
    ]);
    // The words are the answer's own, and the row is as sent (a fixed file re-imports as is).
    for (const row of rows) expect(row.error).toBe(answer.results.find((r) => r.externalOrderId === row.orderId)?.message);
    expect(rows.find((r) => r.orderId === 'B-5')).toMatchObject({ error: 'The order is in EUR and the shop sells in USD', currency: 'EUR', lineName: 'Hat', linePrice: '10.00' });
    expect(rows.find((r) => r.orderId === 'B-10')?.lineProductId).toBe('not-a-product-here');

    const json = await t.app.inject({ method: 'POST', url: '/bodega/v1/order-imports', headers: a.headers.apiKey, payload: { format: 'json', content: JSON.stringify([ebayOrder('EB-F1'), { ...ebayOrder('EB-F2'), currency: 'GBP' }]) } });
    const jsonFile = await t.app.inject({ method: 'GET', url: `/bodega/v1/order-imports/${json.json().importId as string}/failures.csv`, headers: a.headers.apiKey });
    const jsonRows = parse(jsonFile.body, { columns: true }) as Record<string, string>[];
    expect(jsonRows.map((r) => [r.row, r.reason, r.currency])).toEqual([['2', 'ORDER_AND_SITE_CURRENCIES_ARE_INCONSISTENT', 'GBP']]);
    expect(JSON.parse(jsonRows[0].channelInfo)).toMatchObject({ type: 'EBAY', externalOrderId: 'EB-F2' });

    const unknown = await t.app.inject({ method: 'GET', url: '/bodega/v1/order-imports/nothing-here/failures.csv', headers: a.headers.owner });
    expect([unknown.statusCode, unknown.json().details.applicationError.code, unknown.headers['content-disposition']]).toEqual([404, 'ORDER_IMPORT_NOT_FOUND', undefined]);
    const audit = await t.db.query<{ object_id: string }>("SELECT object_id FROM audit_log WHERE site_id = $1 AND action = 'export.order_import_failures'", [site.siteId]);
    expect(audit.map((r) => r.object_id)).toContain(answer.importId);
  });

  it('reads a JSON file of orders in the importOrder shape', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/bodega/v1/order-imports', headers: a.headers.apiKey, payload: { format: 'json', content: JSON.stringify([ebayOrder('EB-J1'), { ...ebayOrder('EB-J2'), currency: 'GBP' }, 'x']) } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results.map((r: { status: string; code?: string }) => r.code ?? r.status)).toEqual(['IMPORTED', 'ORDER_AND_SITE_CURRENCIES_ARE_INCONSISTENT', 'INVALID_ARGUMENT']);
  });

  it('refuses a file that cannot be read, in the error shape', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/bodega/v1/order-imports', headers: a.headers.owner, payload: { format: 'json', content: '{not json' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.validationError.fieldViolations[0].field).toBe('content');
  });
});

describe('who may import orders', () => {
  it('this site\'s owner, contributor and key (also for a failures file); another site\'s owner and key act on their own site, where this site\'s product is unknown; shoppers and no token are refused', async () => {
    // ebayOrder names this site's mug: on another site it is a product that shop does not have.
    const calls = [
      { method: 'POST' as const, url: '/ecom/v1/orders/import', payload: (n: number) => ({ order: ebayOrder(`ACL-${n}`) }), other: (res: Res) => res.statusCode === 400 && res.json().details.applicationError.code === 'UNSUPPORTED_CATALOG_ITEM' },
      { method: 'POST' as const, url: '/bodega/v1/order-imports', payload: (n: number) => ({ format: 'json', content: JSON.stringify([ebayOrder(`ACL-${n}`)]) }), other: (res: Res) => res.statusCode === 200 && res.json().results[0].code === 'UNSUPPORTED_CATALOG_ITEM' },
      { method: 'POST' as const, url: '/ecom/v1/orders/import/set-order-number-counter', payload: (n: number) => ({ counter: String(900000 + n) }), other: (res: Res) => res.statusCode === 200 },
    ];
    let n = 0;
    // The failures file: this site's staff read it; another site's owner and key find no such import.
    const made = await t.app.inject({ method: 'POST', url: '/bodega/v1/order-imports', headers: a.headers.owner, payload: { format: 'json', content: JSON.stringify([{ ...ebayOrder('ACL-F'), currency: 'GBP' }]) } });
    const failuresUrl = `/bodega/v1/order-imports/${made.json().importId as string}/failures.csv`;
    for (const who of ['owner', 'contributor', 'apiKey'] as const) {
      const res = await t.app.inject({ method: 'GET', url: failuresUrl, headers: a.headers[who] });
      expect([res.statusCode, res.body.split('\n')[1]?.slice(0, 2)], `${who} failures.csv`).toEqual([200, '1,']);
    }
    for (const who of ['owner', 'apiKey'] as const) {
      const res = await t.app.inject({ method: 'GET', url: failuresUrl, headers: b.headers[who] });
      expect([res.statusCode, res.body.includes('ACL-F')], `other site's ${who} failures.csv`).toEqual([404, false]);
    }
    for (const [who, status] of [['visitor', 403], ['member', 403], ['anonymous', 401]] as const) {
      const res = await t.app.inject({ method: 'GET', url: failuresUrl, headers: a.headers[who] });
      expect([res.statusCode, res.body.includes('ACL-F')], `${who} failures.csv`).toEqual([status, false]);
    }
    for (const { payload, other, ...call } of calls) {
      for (const who of ['owner', 'contributor', 'apiKey'] as const) {
        const res = await t.app.inject({ ...call, headers: a.headers[who], payload: payload(++n) });
        expect(res.statusCode, `${who} ${call.url}: ${res.body}`).toBe(200);
      }
      const mine = await countOrders(a.site);
      for (const who of ['owner', 'apiKey'] as const) {
        const res = await t.app.inject({ ...call, headers: b.headers[who], payload: payload(++n) });
        expect(other(res), `other site's ${who} ${call.url}: ${res.body}`).toBe(true);
      }
      expect(await countOrders(a.site)).toBe(mine);
      for (const [who, status] of [['visitor', 403], ['member', 403], ['anonymous', 401]] as const) {
        const res = await t.app.inject({ ...call, headers: a.headers[who], payload: payload(++n) });
        expect(res.statusCode, `${who} ${call.url}`).toBe(status);
      }
    }
  });
});
