// Draft orders through the official @wix/ecom draftOrders calls: a phone order for a member
// with a variant and a custom line, a discount, shipping and tax priced exactly by the checkout's
// pricing, committed once into an order that took its stock; a customer known by e-mail marked
// paid offline; commits racing for the last unit; who may call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { draftOrders, orders } from '@wix/ecom';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { backOfficeSite, type BackOfficeSite } from '../../test/backoffice.js';
import { listen, redirectWixFetch } from '../../test/wix-fetch.js';
import { apiKey, catalogLine, createProduct, NEW_YORK, newMemberId, type PaymentsCollector, type WireProduct } from '../../test/commerce.js';

let t: TestApp;
let a: BackOfficeSite;
let b: BackOfficeSite;
let site: TestSite;
let wixFetch: ReturnType<typeof redirectWixFetch>;
let shirt: WireProduct;
let rare: WireProduct;

beforeAll(async () => {
  t = await testApp();
  a = await backOfficeSite(t);
  b = await backOfficeSite(t);
  site = a.site;
  await t.app.inject({
    method: 'PATCH', url: '/_api/bodega/v1/commerce-settings', headers: apiKey(site),
    payload: { settings: {
      shippingRegions: [{ id: 'us', name: 'US', country: 'US', rules: [{ code: 'std', title: 'Standard', rate: '4', type: 'BY_TOTAL_QUANTITY', operator: 'GTE', threshold: '0' }] }],
      tax: { pricesIncludeTax: false, taxShipping: false, rates: [{ country: 'US', rate: '10' }] },
    } },
  });
  shirt = await createProduct(t.app, site, {
    name: 'Shirt', priceData: { price: 20 }, stock: { trackInventory: true, quantity: 10 },
    productOptions: [{ name: 'Size', choices: [{ value: 'S' }, { value: 'M' }] }],
  });
  rare = await createProduct(t.app, site, { name: 'Rare', priceData: { price: 50 }, stock: { trackInventory: true, quantity: 1 } });
  wixFetch = redirectWixFetch(await listen(t.app));
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
});

function merchant(s: TestSite = site) {
  const client = createClient({ modules: { draftOrders, orders }, auth: ApiKeyStrategy({ apiKey: s.apiKey, siteId: s.siteId }) });
  return { ...client, collector: client.orders as unknown as PaymentsCollector };
}

async function stockOf(productId: string): Promise<number> {
  return (await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${productId}`, headers: apiKey(site) })).json().product.stock.quantity;
}

const amounts = (summary: object | undefined) =>
  Object.fromEntries(Object.entries(summary ?? {}).map(([k, v]) => [k, (v as { amount?: string } | undefined)?.amount]));

describe('a phone order for a member', () => {
  it('is built line by line, priced by the checkout\'s rules to the cent, and committed once into an order that took its stock', async () => {
    const client = merchant();
    const memberId = await newMemberId(t.app, site);
    const empty = await client.draftOrders.createEmptyDraftOrder();
    const draftId = empty.calculatedDraftOrder?.draftOrder?._id ?? '';
    expect(empty.calculatedDraftOrder?.draftOrder?.status).toBe('DRAFT');

    await client.draftOrders.setBuyerInfo(draftId, { buyerInfo: { memberId } });
    const medium = shirt.variants.find((v) => v.choices.Size === 'M')?.id;
    await client.draftOrders.addLineItemsToDraftOrder(draftId, {
      catalogLineItems: [{ catalogReference: { appId: catalogLine(shirt.id).catalogReference.appId, catalogItemId: shirt.id, options: { variantId: medium } }, quantity: 2 }],
      customLineItems: [{ productName: { original: 'Engraving' }, price: { amount: '7.50' }, quantity: 1, itemType: { preset: 'SERVICE' } }],
    });
    await client.draftOrders.createCustomDiscounts(draftId, { discounts: [{ percentage: '10', description: 'Phone order' }] });
    const shipped = await client.draftOrders.setShippingInfo(draftId, { shippingInfo: { code: 'std', logistics: { shippingDestination: { address: NEW_YORK } } } });
    const calc = shipped.calculatedDraftOrder;
    expect(calc?.shippingOptions?.map((o) => [o.code, o.cost?.price?.amount])).toEqual([['std', '4.00']]);
    const draft = calc?.draftOrder;
    expect(draft?.lineItems?.map((l) => [l.lineItem?.productName?.original, l.lineItem?.quantity, l.lineItem?.price?.amount])).toEqual([
      ['Shirt', 2, '20.00'],
      ['Engraving', 1, '7.50'],
    ]);
    // 47.50 − 10% (4.00 + 0.75) = 42.75; tax 10% per line, half-even: 3.60 + 0.68 (of 6.75); shipping 4 untaxed.
    expect(amounts(draft?.priceSummary)).toEqual({ subtotal: '47.50', shipping: '4.00', tax: '4.28', discount: '4.75', total: '51.03', totalAdditionalFees: '0.00' });
    expect(draft?.buyerInfo?.memberId).toBe(memberId);

    const got = await client.draftOrders.getDraftOrder(draftId);
    expect(got.calculatedDraftOrder?.draftOrder?.priceSummary?.total?.amount).toBe('51.03');

    const created = await client.draftOrders.createOrderFromDraft(draftId);
    const order = created.createdOrder;
    expect(created.committedDraftOrder?.status).toBe('COMMITTED');
    expect(order?.priceSummary?.total?.amount).toBe('51.03');
    expect(order?.buyerInfo?.memberId).toBe(memberId);
    expect(order?.channelInfo?.type).toBe('BACKOFFICE_MERCHANT');
    expect(order?.lineItems?.map((l) => [l.productName?.original, l.quantity])).toEqual([['Shirt', 2], ['Engraving', 1]]);
    expect(await stockOf(shirt.id)).toBe(8);

    // Committing again answers the same order; a committed draft no longer changes.
    const again = await client.draftOrders.commitDraftOrder(draftId);
    expect(again.orderAfterCommit?._id).toBe(order?._id);
    const late = await t.app.inject({ method: 'POST', url: `/ecom/v1/draft-orders/${draftId}/line-items`, headers: apiKey(site), payload: { lineItemChanges: [{ lineItemId: draft?.lineItems?.[0]?.lineItem?._id, newQuantity: 5 }] } });
    expect([late.statusCode, late.json().details.applicationError.code]).toEqual([400, 'DRAFT_ORDER_ALREADY_COMMITTED']);
    expect(await stockOf(shirt.id)).toBe(8);

    const audit = await t.db.query<{ action: string }>('SELECT action FROM audit_log WHERE site_id = $1 AND object_id = $2 ORDER BY action', [site.siteId, draftId]);
    expect(audit.map((x) => x.action)).toEqual(['draft_order.committed', 'draft_order.created']);
  });
});

describe('a customer known by e-mail', () => {
  it('gets an order from one createDraftOrder call, which the merchant marks paid offline', async () => {
    const client = merchant();
    const created = await client.draftOrders.createDraftOrder({
      draftOrder: {
        buyerInfo: { email: 'wholesale@example.com' },
        customLineItems: [{ productName: { original: 'Catering tray' }, price: { amount: '120' }, quantity: 3 }],
        discounts: [{ amount: { amount: '10.00' } }],
      },
    });
    const draft = created.calculatedDraftOrder?.draftOrder;
    // No address yet, so no tax (as at checkout): 360 − 10.
    expect(amounts(draft?.priceSummary)).toMatchObject({ subtotal: '360.00', discount: '10.00', tax: '0.00', total: '350.00' });
    expect(draft?.buyerInfo?.email).toBe('wholesale@example.com');
    const committed = await client.draftOrders.commitDraftOrder(draft?._id ?? '');
    const orderId = committed.orderAfterCommit?._id ?? '';
    expect(committed.orderAfterCommit?.paymentStatus).toBe('NOT_PAID');
    const paid = await client.collector.paymentCollectionMarkOrderAsPaid(orderId);
    expect(paid.order?.paymentStatus).toBe('PAID');

    const listed = await client.draftOrders.queryDraftOrders().eq('status', 'COMMITTED').find();
    expect(listed.items.map((d) => d._id)).toContain(draft?._id);
  });

  it('refuses what does not add up: an unknown draft, an empty commit, a bad discount, a deleted draft', async () => {
    const headers = apiKey(site);
    const unknown = await t.app.inject({ method: 'GET', url: '/ecom/v1/draft-orders/nope', headers });
    expect([unknown.statusCode, unknown.json().details.applicationError.code]).toEqual([404, 'DRAFT_ORDER_NOT_FOUND']);
    const empty = (await t.app.inject({ method: 'POST', url: '/ecom/v1/draft-orders/create-empty-draft-order', headers, payload: {} })).json().calculatedDraftOrder.draftOrder.id as string;
    const commit = await t.app.inject({ method: 'POST', url: `/ecom/v1/draft-orders/${empty}/commit`, headers, payload: {} });
    expect(commit.statusCode).toBe(400);
    const discount = await t.app.inject({ method: 'POST', url: `/ecom/v1/draft-orders/${empty}/create-custom-discounts`, headers, payload: { discounts: [{ percentage: '150' }] } });
    expect([discount.statusCode, discount.json().details.validationError.fieldViolations[0].field]).toEqual([400, 'discounts[0].percentage']);
    expect((await t.app.inject({ method: 'DELETE', url: `/ecom/v1/draft-orders/${empty}`, headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/ecom/v1/draft-orders/${empty}`, headers })).statusCode).toBe(404);
  });
});

describe('commits racing', () => {
  it('two drafts for the last unit: one order, the other refused; one draft committed twice at once: one order', async () => {
    const headers = apiKey(site);
    const draftFor = async (email: string) => {
      const res = await t.app.inject({
        method: 'POST', url: '/ecom/v1/draft-orders', headers,
        payload: { draftOrder: { buyerInfo: { email }, catalogLineItems: [catalogLine(rare.id)], shippingInfo: { code: 'std', logistics: { shippingDestination: { address: NEW_YORK } } } } },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().calculatedDraftOrder.draftOrder.id as string;
    };
    const [first, second] = [await draftFor('one@example.com'), await draftFor('two@example.com')];
    const results = await Promise.all([first, second].map((id) => t.app.inject({ method: 'POST', url: `/ecom/v1/draft-orders/${id}/commit`, headers, payload: {} })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.statusCode === 409)?.json().details.applicationError.code).toBe('INSUFFICIENT_INVENTORY');
    expect(await stockOf(rare.id)).toBe(0);

    const tray = await t.app.inject({ method: 'POST', url: '/ecom/v1/draft-orders', headers, payload: { draftOrder: { buyerInfo: { email: 'x@example.com' }, customLineItems: [{ productName: { original: 'Tray' }, price: { amount: '5' } }] } } });
    const id = tray.json().calculatedDraftOrder.draftOrder.id as string;
    const twice = await Promise.all([0, 1].map(() => t.app.inject({ method: 'POST', url: `/ecom/v1/draft-orders/${id}/commit`, headers, payload: {} })));
    expect(twice.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(new Set(twice.map((r) => r.json().orderAfterCommit.id)).size).toBe(1);
    const count = await t.db.query<{ n: string }>("SELECT count(*) AS n FROM orders WHERE site_id = $1 AND checkout_id = $2", [site.siteId, id]);
    expect(Number(count[0].n)).toBe(1);
  });
});

describe('who may build draft orders', () => {
  it('this site\'s owner, contributor and key; another site\'s owner and key find nothing; shoppers and no token are refused', async () => {
    const own = (await t.app.inject({ method: 'POST', url: '/ecom/v1/draft-orders/create-empty-draft-order', headers: a.headers.owner, payload: {} })).json().calculatedDraftOrder.draftOrder.id as string;
    const tray = { productName: { original: 'Tray' }, price: { amount: '5' } };
    const calls = [
      { method: 'POST' as const, url: '/ecom/v1/draft-orders', payload: { draftOrder: { customLineItems: [tray] } }, other: 200 },
      { method: 'POST' as const, url: '/ecom/v1/draft-orders/create-empty-draft-order', payload: {}, other: 200 },
      { method: 'GET' as const, url: `/ecom/v1/draft-orders/${own}`, other: 404 },
      { method: 'POST' as const, url: `/ecom/v1/draft-orders/${own}/add-line-items`, payload: { customLineItems: [tray] }, other: 404 },
      { method: 'POST' as const, url: `/ecom/v1/draft-orders/${own}/line-items`, payload: { lineItemChanges: [{ lineItemId: 'x' }] }, other: 404 },
      { method: 'POST' as const, url: `/ecom/v1/draft-orders/${own}/create-custom-discounts`, payload: { discounts: [{ percentage: '5' }] }, other: 404 },
      { method: 'PUT' as const, url: '/ecom/v1/draft-orders/set-shipping-info', payload: { draftOrderId: own, shippingInfo: { logistics: { shippingDestination: { address: NEW_YORK } } } }, other: 404 },
      { method: 'PUT' as const, url: '/ecom/v1/draft-orders/set-buyer-info', payload: { draftOrderId: own, buyerInfo: { email: 'a@example.com' } }, other: 404 },
      { method: 'PUT' as const, url: '/ecom/v1/draft-orders/set-billing-info', payload: { draftOrderId: own, billingInfo: { address: NEW_YORK } }, other: 404 },
      { method: 'POST' as const, url: '/ecom/v1/draft-orders/query', payload: {}, other: 200 },
    ];
    for (const { other, ...call } of calls) {
      for (const who of ['owner', 'contributor', 'apiKey'] as const) {
        const res = await t.app.inject({ ...call, headers: a.headers[who] });
        expect(res.statusCode, `${who} ${call.method} ${call.url}: ${res.body}`).toBe(200);
      }
      for (const who of ['owner', 'apiKey'] as const) {
        const res = await t.app.inject({ ...call, headers: b.headers[who] });
        expect(res.statusCode, `other site's ${who} ${call.method} ${call.url}: ${res.body}`).toBe(other);
        if (call.url.endsWith('/query')) expect(res.json().draftOrders.map((d: { id: string }) => d.id)).not.toContain(own);
      }
      for (const [who, status] of [['visitor', 403], ['member', 403], ['anonymous', 401]] as const) {
        const res = await t.app.inject({ ...call, headers: a.headers[who] });
        expect(res.statusCode, `${who} ${call.method} ${call.url}`).toBe(status);
      }
    }
    for (const path of ['commit', 'create-order']) {
      for (const [who, status] of [['visitor', 403], ['member', 403], ['anonymous', 401]] as const) {
        expect((await t.app.inject({ method: 'POST', url: `/ecom/v1/draft-orders/${own}/${path}`, headers: a.headers[who], payload: {} })).statusCode).toBe(status);
      }
      expect((await t.app.inject({ method: 'POST', url: `/ecom/v1/draft-orders/${own}/${path}`, headers: b.headers.owner, payload: {} })).statusCode).toBe(404);
    }
    for (const [who, status] of [['visitor', 403], ['member', 403], ['anonymous', 401]] as const) {
      expect((await t.app.inject({ method: 'DELETE', url: `/ecom/v1/draft-orders/${own}`, headers: a.headers[who] })).statusCode).toBe(status);
    }
    expect((await t.app.inject({ method: 'DELETE', url: `/ecom/v1/draft-orders/${own}`, headers: b.headers.apiKey })).statusCode).toBe(404);
    const committed = await t.app.inject({ method: 'POST', url: `/ecom/v1/draft-orders/${own}/commit`, headers: a.headers.contributor, payload: {} });
    expect(committed.statusCode, committed.body).toBe(200);
    const other = (await t.app.inject({ method: 'POST', url: '/ecom/v1/draft-orders/create-empty-draft-order', headers: a.headers.owner, payload: {} })).json().calculatedDraftOrder.draftOrder.id as string;
    expect((await t.app.inject({ method: 'DELETE', url: `/ecom/v1/draft-orders/${other}`, headers: a.headers.contributor })).statusCode).toBe(200);
  });
});
