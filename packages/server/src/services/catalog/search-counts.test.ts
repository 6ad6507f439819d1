// The facet counts kept per key (migration 1091, search_facet_counts): after every kind of write —
// create, rename, price, stock, visibility, options, collection membership, delete, a bulk insert
// and delete, saves racing — they equal the counts taken over the products' rows, and the browse
// with nothing picked answers them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { apiKey } from '../../test/commerce.js';
import { seedDemoContent, type DemoContent } from '../../demo-store/seed.js';
import { SEARCH_PATH } from './search-routes.js';

let t: TestApp;
let site: TestSite;
let other: TestSite;
let demo: DemoContent;
let visitor: string;

beforeAll(async () => {
  t = await testApp();
  site = await t.createSite();
  other = await t.createSite();
  demo = await seedDemoContent(t.app, site);
  await seedDemoContent(t.app, other);
  visitor = await t.visitorToken(site);
});
afterAll(() => t.close());

type Counts = Record<string, [number, number]>;

/** The kept counts of a site: key → [visible products, all products], the keys at nought left out. */
async function kept(siteId: string): Promise<Counts> {
  const rows = await t.db.query<{ key: string; visible: string | number; total: string | number }>(
    `SELECT key, sum(visible) AS visible, sum(total) AS total FROM search_facet_counts WHERE site_id = $1
     GROUP BY key HAVING sum(visible) <> 0 OR sum(total) <> 0`, [siteId]);
  return Object.fromEntries(rows.map((r) => [r.key, [Number(r.visible), Number(r.total)]]));
}

/** The same counts taken over the products' facet rows. */
async function recounted(siteId: string): Promise<Counts> {
  const rows = await t.db.query<{ key: string; visible: string | number; total: string | number }>(
    `SELECT k AS key, count(*) FILTER (WHERE pf.visible) AS visible, count(*) AS total
     FROM product_facets pf CROSS JOIN LATERAL unnest(pf.keys || search_count_keys(pf.in_stock, pf.on_sale, pf.price_minor)) k
     WHERE pf.site_id = $1 GROUP BY k`, [siteId]);
  return Object.fromEntries(rows.map((r) => [r.key, [Number(r.visible), Number(r.total)]]));
}

async function expectKeptEqualsRecounted(): Promise<void> {
  expect(await kept(site.siteId)).toEqual(await recounted(site.siteId));
  expect(await kept(other.siteId)).toEqual(await recounted(other.siteId));
}

const create = async (product: Record<string, unknown>) => {
  const res = await t.app.inject({ method: 'POST', url: '/stores/v1/products', headers: apiKey(site), payload: { product: { priceData: { price: 12 }, ...product } } });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { product: { id: string } }).product.id;
};
const patch = async (id: string, product: Record<string, unknown>) => {
  const res = await t.app.inject({ method: 'PATCH', url: `/stores/v1/products/${id}`, headers: apiKey(site), payload: { product } });
  expect(res.statusCode, res.body).toBe(200);
};

interface Browse {
  metadata: { total: number };
  facets: { collections: { name: string; count: number }[]; options: { name: string; values: { value: string; count: number }[] }[]; prices: { id: string; count: number }[]; inStock: number; onSale: number };
}
async function browse(headers: Record<string, string>): Promise<Browse> {
  const res = await t.app.inject({ method: 'POST', url: SEARCH_PATH, headers, payload: {} });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Browse;
}

describe('facet counts kept per key', () => {
  it('start equal to the products\' counts and follow every kind of write', async () => {
    await expectKeptEqualsRecounted();
    const id = await create({
      name: 'Counted Lantern', visible: true,
      productOptions: [{ name: 'Colour', choices: [{ value: 'Amber', description: 'Amber' }, { value: 'Moss', description: 'Moss' }] }],
    });
    await expectKeptEqualsRecounted();
    const amber = (counts: Counts) => Object.entries(counts).find(([key]) => key.startsWith('oColour') && key.endsWith('Amber'))?.[1];
    expect(amber(await kept(site.siteId))).toEqual([1, 1]);
    await patch(id, { name: 'Counted Lamp' });
    await patch(id, { priceData: { price: 260 } });
    await expectKeptEqualsRecounted();
    await patch(id, { visible: false });
    expect(amber(await kept(site.siteId))).toEqual([0, 1]);
    await patch(id, { visible: true, discount: { type: 'PERCENT', value: 10 } });
    await expectKeptEqualsRecounted();
    const gifts = demo.collections.find((c) => c.slug === 'gifts')?.id ?? '';
    const added = await t.app.inject({ method: 'POST', url: `/stores/v1/collections/${gifts}/productIds`, headers: apiKey(site), payload: { productIds: [id] } });
    expect(added.statusCode, added.body).toBe(200);
    await expectKeptEqualsRecounted();
    await t.app.inject({ method: 'POST', url: `/stores/v1/collections/${gifts}/productIds/delete`, headers: apiKey(site), payload: { productIds: [id] } });
    await expectKeptEqualsRecounted();
    const inStock = (await kept(site.siteId)).s;
    await t.db.query(`UPDATE products SET doc = doc || '{"manageVariants": false, "trackInventory": false, "inStock": false}' WHERE site_id = $1 AND product_id = $2`, [site.siteId, id]);
    expect((await kept(site.siteId)).s).toEqual([inStock[0] - 1, inStock[1] - 1]);
    await expectKeptEqualsRecounted();
    await t.app.inject({ method: 'DELETE', url: `/stores/v1/products/${id}`, headers: apiKey(site) });
    await expectKeptEqualsRecounted();
  });

  it('follow a bulk insert, a bulk update and a bulk delete', async () => {
    const source = demo.products.find((p) => p.name === 'Merino Crew Sweater')?.id ?? '';
    await t.db.query(
      `INSERT INTO products (site_id, product_id, numeric_id, slug, name, product_type, visible, sku, price_minor, discounted_minor, doc, created_at, updated_at)
       SELECT site_id, 'counted-' || g, 800000 + g, 'counted-' || g, 'Counted Sweater ' || g, product_type, g % 3 <> 0, 'COUNTED-' || g, price_minor * g, discounted_minor * g, doc, created_at, updated_at
       FROM products, generate_series(1, 30) g WHERE site_id = $1 AND product_id = $2`, [site.siteId, source]);
    await expectKeptEqualsRecounted();
    // One statement updating them all: a price cut (on sale, another price bucket) and a new name.
    await t.db.query(`UPDATE products SET discounted_minor = discounted_minor / 2, name = 'Counted Jumper ' || numeric_id WHERE site_id = $1 AND product_id LIKE 'counted-%'`, [site.siteId]);
    await expectKeptEqualsRecounted();
    const [{ n }] = await t.db.query<{ n: string | number }>(`SELECT count(*) AS n FROM search_suggestions WHERE site_id = $1 AND product_id LIKE 'counted-%' AND term LIKE 'counted jumper%'`, [site.siteId]);
    expect(Number(n)).toBe(30);
    await t.db.query(`DELETE FROM products WHERE site_id = $1 AND product_id LIKE 'counted-%'`, [site.siteId]);
    await expectKeptEqualsRecounted();
  });

  it('lose no count when saves of one site race', async () => {
    const before = await kept(site.siteId);
    const ids = await Promise.all(['Amber', 'Birch', 'Cobalt', 'Dune', 'Ember', 'Fjord'].map((w) => create({ name: `${w} Counter`, priceData: { price: 30 } })));
    expect((await kept(site.siteId))['*']).toEqual([before['*'][0] + ids.length, before['*'][1] + ids.length]);
    await Promise.all(ids.map((id, i) => patch(id, { priceData: { price: 40 + i * 100 } })));
    await expectKeptEqualsRecounted();
    await Promise.all(ids.map((id) => t.app.inject({ method: 'DELETE', url: `/stores/v1/products/${id}`, headers: apiKey(site) })));
    expect(await kept(site.siteId)).toEqual(before);
  });

  it('answer the browse with nothing picked, as a visitor and as staff', async () => {
    const hidden = await create({ name: 'Counted Secret', visible: false, priceData: { price: 700 } });
    const shopper = await browse({ authorization: visitor });
    const counts = await recounted(site.siteId);
    expect(shopper.metadata.total).toBe(counts['*'][0]);
    expect(shopper.facets.inStock).toBe(counts.s[0]);
    expect(shopper.facets.onSale).toBe(counts.d?.[0] ?? 0);
    expect(shopper.facets.prices.find((p) => p.id === '500+')?.count).toBe(0);
    const staff = await browse(apiKey(site));
    expect(staff.metadata.total).toBe(counts['*'][1]);
    expect(staff.facets.prices.find((p) => p.id === '500+')?.count).toBe(1);
    expect(staff.facets.prices.reduce((n, p) => n + p.count, 0)).toBe(counts['*'][1]);
    await t.app.inject({ method: 'DELETE', url: `/stores/v1/products/${hidden}`, headers: apiKey(site) });
  });
});
