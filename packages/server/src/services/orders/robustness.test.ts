// Every commerce call answers bad input with a 4xx in the wire's error shape, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { apiKey, catalogLine, createProduct, placeOrder } from '../../test/commerce.js';

let t: TestApp;
let site: TestSite;
let visitor: string;
let ids: { product: string; checkout: string; order: string; collection: string };

beforeAll(async () => {
  t = await testApp();
  site = await t.createSite();
  visitor = await t.visitorToken(site);
  const product = await createProduct(t.app, site, { name: 'Thing', priceData: { price: 1 }, productType: 'digital' });
  const { orderId, checkoutId } = await placeOrder(t.app, site, visitor, [catalogLine(product.id)]);
  const collection = (await t.app.inject({ method: 'POST', url: '/stores/v1/collections', headers: apiKey(site), payload: { collection: { name: 'C' } } })).json().collection.id;
  await t.app.inject({ method: 'POST', url: '/ecom/v1/carts/current/add-to-cart', headers: { authorization: visitor }, payload: { lineItems: [catalogLine(product.id)] } });
  ids = { product: product.id, checkout: checkoutId, order: orderId, collection };
});
afterAll(() => t.close());

const GARBAGE: unknown[] = [
  null, [], 'text', 42, true,
  { lineItems: 'x' }, { lineItems: [null] }, { lineItems: [{ catalogReference: { appId: 5, catalogItemId: [] }, quantity: '1' }] },
  { lineItems: [{ catalogReference: { appId: 'a', catalogItemId: 'b', options: 'x' }, quantity: 1 }] },
  { customLineItems: [{ price: '-1', productName: { original: 'x' } }] }, { customLineItems: [{ price: 'abc', productName: {} }] },
  { product: null }, { product: { name: {}, priceData: { price: 'ten' } } }, { product: { priceData: { price: 1e308 }, name: 'x' } },
  { product: { name: 'x', priceData: { price: 1 }, productOptions: [{ name: 'A', choices: Array(20).fill({ value: 'v' }) }] } },
  { query: 'nope' }, { query: { filter: { $and: 'x' } } }, { query: { filter: { name: { $in: [{}] } } } }, { query: { sort: 'x', paging: { limit: -1 } } },
  { query: { filter: { 'priceData.price': { $gt: 1e400 } } } }, { query: { filter: { createdDate: { $gt: 'not a date' } } } },
  { search: { filter: { number: { $gt: 'x' } } } }, { search: { cursorPaging: { cursor: 'eyJ4IjoxfQ' } } }, { search: { filter: { 'buyerInfo.memberId': { $gt: 1 } } } },
  { checkout: null }, { checkout: { shippingInfo: { selectedCarrierServiceOption: { code: '' } } } },
  { checkout: { shippingInfo: { selectedCarrierServiceOption: { code: 'x', logistics: { deliveryTimeSlot: { from: 'x', to: 'y' } } } } } },
  { couponCode: 5 }, { merchantDiscounts: [{}] }, { merchantDiscounts: [{ percentage: 500 }] }, { merchantDiscounts: [{ amount: '1.999' }] },
  { paymentToken: 5 }, { amount: { amount: 'x' } }, { amount: { amount: '-5' } }, { ecomOrderIds: [] }, { ecomOrderIds: 'x' },
  { payments: [{ paymentId: 'x', amount: { amount: '1e5' } }] }, { fulfillment: { lineItems: [{ id: 'x', quantity: 0 }] } },
  { specification: { code: 'bad code!' } }, { specification: { code: 'X', percentOffRate: 0 } }, { settings: { tax: { rates: [{ country: 'USA', rate: '7' }] } } },
  { settings: { shippingRegions: [{ id: 'x', name: 'x', country: 'US', rules: [{ code: 'c', title: 't', rate: '1.234', type: 'BY_TOTAL_QUANTITY', operator: 'GTE', threshold: '1.5' }] }] } },
  { inventoryItem: { variants: [{ variantId: 'nope', quantity: 1 }] } }, { variants: [{ variantIds: ['nope'] }] }, { media: [{ url: 'javascript:alert(1)' }] },
  { productIds: ['a'] }, { lineItemIds: [] }, { options: { a: 1 } }, { channelType: 'X' }, { email: 'x' },
  { product: { name: 'nul\u0000name', priceData: { price: 1 } } }, { lineItems: [{ catalogReference: { appId: 'a\u0000', catalogItemId: 'b' }, quantity: 1 }] },
  { checkout: { buyerNote: '\u0000' } }, { query: { filter: { name: '\u0000' } } }, { 'key\u0000': 1 },
];

function routes(): [string, string][] {
  const { product, checkout, order, collection } = ids;
  return [
    ['POST', '/stores/v1/products'], ['PATCH', `/stores/v1/products/${product}`], ['PATCH', `/stores/v1/products/${product}/variants`],
    ['POST', `/stores/v1/products/${product}/media`], ['POST', `/stores/v1/products/${product}/media/delete`],
    ['POST', '/stores/v1/collections'], ['PATCH', `/stores/v1/collections/${collection}`], ['POST', `/stores/v1/collections/${collection}/productIds`],
    ['PATCH', `/stores/v2/inventoryItems/product/${product}`],
    ['POST', '/stores-reader/v1/products/query-platformized'], ['POST', '/stores-reader/v1/products/query'], ['POST', '/v2/collections/query'],
    ['POST', `/stores-reader/v1/products/${product}/productOptionsAvailability`], ['POST', `/stores-reader/v1/products/${product}/variants/query`],
    ['POST', '/ecom/v1/carts/current/add-to-cart'], ['PATCH', '/ecom/v1/carts/current'], ['POST', '/ecom/v1/carts/current/update-line-items-quantity'],
    ['POST', '/ecom/v1/carts/current/remove-line-items'], ['POST', '/ecom/v1/carts/current/estimate-totals'], ['POST', '/ecom/v1/carts/current/create-checkout'],
    ['POST', '/ecom/v1/checkouts'], ['PATCH', `/ecom/v1/checkouts/${checkout}`], ['POST', `/ecom/v1/checkouts/${checkout}/add-to-checkout`],
    ['POST', `/ecom/v1/checkouts/${checkout}/update-line-items-quantity`], ['POST', `/ecom/v1/checkouts/${checkout}/create-order-and-charge`],
    ['POST', '/ecom/v1/orders/search'], ['POST', `/ecom/v1/orders/${order}/cancel`], ['POST', `/ecom/v1/payments-collector/orders/${order}/mark-as-paid`],
    ['POST', `/ecom/v1/payments-collector/orders/${order}/manual-payment`], ['POST', `/ecom/v1/payments-collector/orders/${order}/trigger-refund`],
    ['POST', '/v1/bulk/payments-collector/mark-as-paid'], ['POST', `/ecom/v1/fulfillments/orders/${order}/create-fulfillment`],
    ['POST', '/stores/v2/coupons'], ['PATCH', '/_api/bodega/v1/commerce-settings'],
  ];
}

describe('bad input never gives a 500', () => {
  it('answers every garbage body on every write and query call with a 4xx in the wire shape', { timeout: 120_000 }, async () => { // ~4000 requests: slow on a loaded 2-core machine
    const failures: string[] = [];
    for (const [method, url] of routes()) {
      for (const [i, body] of GARBAGE.entries()) {
        for (const headers of [apiKey(site), { authorization: visitor }]) {
          const res = await t.app.inject({ method: method as 'POST', url, headers: { ...headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
          const json = res.json() as { message?: unknown; details?: { applicationError?: unknown; validationError?: unknown } };
          if (res.statusCode >= 500 || (res.statusCode !== 200 && (typeof json.message !== 'string' || !(json.details?.applicationError || json.details?.validationError)))) {
            failures.push(`${method} ${url} #${i} → ${res.statusCode} ${res.body.slice(0, 200)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers odd GET queries and ids with a 4xx', async () => {
    const r = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    for (const url of [
      '/stores-reader/v1/products/query-platformized?.r=not-base64!',
      `/stores-reader/v1/products/query-platformized?.r=${r({ query: { paging: { limit: 'abc' } } })}`,
      '/stores-reader/v1/products/query-platformized?query.paging.limit=9999',
      '/stores-reader/v1/products/query-platformized?query=x',
      `/v2/collections/query?.r=${r({ query: { filter: { x: 1 } } })}`,
      `/stores-reader/v1/products/${'x'.repeat(300)}`,
      '/ecom/v1/orders/%00', '/ecom/v1/checkouts/nope', '/ecom/v1/payments-collector/orders/nope/refundability',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: apiKey(site) });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
    }
  });
});
