import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/harness.js';
import { backOfficeSite, type BackOfficeSite } from '../../test/backoffice.js';
import { createProduct } from '../../test/commerce.js';

// POST /bodega/v1/products/query: the wire's product query plus the back office's stock filter.
let t: TestApp;
let s: BackOfficeSite;
const ids: Record<string, string> = {};

interface WireProduct { id: string; name: string; stock: { inStock: boolean; quantity?: number; trackInventory: boolean } }

async function query(body: Record<string, unknown>, headers = s.headers.owner) {
  return t.app.inject({ method: 'POST', url: '/bodega/v1/products/query', headers, payload: body });
}

async function names(body: Record<string, unknown>): Promise<string[]> {
  const res = await query({ query: { sort: [{ fieldName: 'name', order: 'ASC' }], paging: { limit: 100 } }, ...body });
  expect(res.statusCode, res.body).toBe(200);
  const answer = res.json() as { products: WireProduct[]; metadata: { total: number } };
  expect(answer.metadata.total).toBe(answer.products.length);
  return answer.products.map((p) => p.name);
}

async function setVariantStock(id: string, variants: { variantId: string; quantity?: number; inStock?: boolean }[], trackQuantity: boolean) {
  const res = await t.app.inject({ method: 'PATCH', url: `/stores/v2/inventoryItems/product/${id}`, headers: s.headers.apiKey, payload: { inventoryItem: { trackQuantity, variants } } });
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  t = await testApp();
  s = await backOfficeSite(t);
  const make = async (name: string, product: Record<string, unknown>) => { ids[name] = (await createProduct(t.app, s.site, { name, priceData: { price: 10 }, ...product })).id; };
  await make('Untracked in', {});
  await make('Untracked out', { stock: { trackInventory: false, inStock: false } });
  await make('Tracked 3', { stock: { trackInventory: true, quantity: 3 } });
  await make('Tracked 0', { stock: { trackInventory: true, quantity: 0 } });
  await make('Tracked 50', { stock: { trackInventory: true, quantity: 50 } });
  const sizes = { productOptions: [{ name: 'Size', choices: [{ value: 'S', description: 'S' }, { value: 'M', description: 'M' }] }], manageVariants: true };
  await make('Variants one sold out', sizes);
  await make('Variants all out', sizes);
  const variantIds = async (id: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${id}`, headers: s.headers.owner });
    return (res.json() as { product: { variants: { id: string; choices: Record<string, string> }[] } }).product.variants;
  };
  const [small, medium] = await variantIds(ids['Variants one sold out']);
  await setVariantStock(ids['Variants one sold out'], [{ variantId: small.id, quantity: 0 }, { variantId: medium.id, quantity: 10 }], true);
  const all = await variantIds(ids['Variants all out']);
  await setVariantStock(ids['Variants all out'], all.map((v) => ({ variantId: v.id, inStock: false })), false);
  // Another site's out-of-stock product never shows.
  const other = await backOfficeSite(t);
  await createProduct(t.app, other.site, { name: 'Elsewhere out', priceData: { price: 1 }, stock: { trackInventory: true, quantity: 0 } });
});
afterAll(async () => t.close());

describe('the back-office product query', () => {
  it('filters by stock as each product shows stock.inStock', async () => {
    const inStock = await names({ stock: 'IN_STOCK' });
    const outOfStock = await names({ stock: 'OUT_OF_STOCK' });
    expect(inStock).toEqual(['Tracked 3', 'Tracked 50', 'Untracked in', 'Variants one sold out']);
    expect(outOfStock).toEqual(['Tracked 0', 'Untracked out', 'Variants all out']);
    // The SQL agrees with the wire's own stock.inStock for every product.
    const every = (await query({ query: { paging: { limit: 100 } } })).json() as { products: WireProduct[] };
    expect(every.products).toHaveLength(7);
    for (const p of every.products) expect(inStock.includes(p.name), p.name).toBe(p.stock.inStock);
  });

  it('finds low stock among tracked products, by the lowest variant when variants are managed', async () => {
    expect(await names({ stock: 'LOW_STOCK' })).toEqual(['Tracked 0', 'Tracked 3', 'Variants one sold out']);
    expect(await names({ stock: 'LOW_STOCK', lowStockAtMost: 0 })).toEqual(['Tracked 0', 'Variants one sold out']);
    expect(await names({ stock: 'LOW_STOCK', lowStockAtMost: 50 })).toEqual(['Tracked 0', 'Tracked 3', 'Tracked 50', 'Variants one sold out']);
  });

  it('combines the stock filter with the wire filter, sort and paging', async () => {
    expect(await names({ stock: 'OUT_OF_STOCK', query: { filter: { name: { $startsWith: 'Tracked' } } } })).toEqual(['Tracked 0']);
    const page = await query({ stock: 'IN_STOCK', query: { sort: [{ fieldName: 'name', order: 'DESC' }], paging: { limit: 2, offset: 1 } } });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({ products: [{ name: 'Untracked in' }, { name: 'Tracked 50' }], metadata: { count: 2, offset: 1, total: 4 } });
    expect(await names({})).toHaveLength(7);
  });

  it('shows hidden products to the back office', async () => {
    const res = await t.app.inject({ method: 'PATCH', url: `/stores/v1/products/${ids['Tracked 0']}`, headers: s.headers.apiKey, payload: { product: { visible: false } } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await names({ stock: 'OUT_OF_STOCK', query: { filter: { visible: false } } })).toEqual(['Tracked 0']);
  });

  it('is for the back office: owner, contributor and API key; shoppers are refused', async () => {
    for (const caller of ['owner', 'contributor', 'apiKey'] as const) expect((await query({ stock: 'IN_STOCK' }, s.headers[caller])).statusCode, caller).toBe(200);
    for (const caller of ['anonymous', 'visitor', 'member'] as const) {
      const res = await query({ stock: 'IN_STOCK' }, s.headers[caller]);
      expect([401, 403], caller).toContain(res.statusCode);
      expect(res.json()).toHaveProperty('details');
    }
  });

  it('answers 400 in the wire shape for a bad stock filter or query', async () => {
    for (const body of [{ stock: 'SOME' }, { stock: 'LOW_STOCK', lowStockAtMost: -1 }, { query: { filter: { nope: 1 } } }, { query: { paging: { limit: 1000 } } }, { extra: true }]) {
      const res = await query(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json(), JSON.stringify(body)).toHaveProperty('details');
    }
  });

  it('is in the OpenAPI document with its body schema', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/bodega/v1/openapi.json' })).json() as { paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> } } }> };
    const body = doc.paths['/bodega/v1/products/query']?.post?.requestBody?.content['application/json'].schema;
    expect(Object.keys(body?.properties ?? {}).sort()).toEqual(['lowStockAtMost', 'query', 'stock', 'text']);
  });
});
