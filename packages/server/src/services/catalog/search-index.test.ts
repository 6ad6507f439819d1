// The search index's upkeep (migration 0900): statement-level triggers, the site's index version
// and the answers kept by it, the word list behind suggestions and "did you mean".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { apiKey } from '../../test/commerce.js';
import { seedDemoContent, type DemoContent } from '../../demo-store/seed.js';
import { SEARCH_PATH, SUGGEST_PATH } from './search-routes.js';

let t: TestApp;
let site: TestSite;
let demo: DemoContent;
let visitor: string;

beforeAll(async () => {
  t = await testApp();
  site = await t.createSite();
  demo = await seedDemoContent(t.app, site);
  visitor = await t.visitorToken(site);
});
afterAll(() => t.close());

interface Answer {
  items: { product: { name: string } }[];
  metadata: { total: number };
  facets: { collections: { id: string; name: string; count: number }[]; inStock: number };
  didYouMean: string | null;
}

async function search(body: Record<string, unknown>, headers: Record<string, string> = { authorization: visitor }): Promise<Answer> {
  const res = await t.app.inject({ method: 'POST', url: SEARCH_PATH, headers, payload: body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Answer;
}

async function suggest(text: string): Promise<string[]> {
  const res = await t.app.inject({ method: 'GET', url: `${SUGGEST_PATH}?text=${encodeURIComponent(text)}`, headers: { authorization: visitor } });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { products: { product: { name: string } }[] }).products.map((p) => p.product.name);
}

async function version(): Promise<number> {
  const rows = await t.db.query<{ version: number | string }>('SELECT version FROM product_search_versions WHERE site_id = $1', [site.siteId]);
  return Number(rows[0]?.version ?? 0);
}

const createProduct = async (name: string, extra: Record<string, unknown> = {}) => {
  const res = await t.app.inject({ method: 'POST', url: '/stores/v1/products', headers: apiKey(site), payload: { product: { name, priceData: { price: 12 }, ...extra } } });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { product: { id: string } }).product.id;
};

describe('the search index version and the answers kept by it', () => {
  it('answers the browsing facets again while nothing changed, and the new ones after a save', async () => {
    const before = await search({});
    expect(await search({})).toEqual(before);
    const id = await createProduct('Lantern Mug');
    const after = await search({});
    expect(after.metadata.total).toBe(before.metadata.total + 1);
    expect(after.facets.inStock).toBe(before.facets.inStock + 1);
    await t.app.inject({ method: 'DELETE', url: `/stores/v1/products/${id}`, headers: apiKey(site) });
    expect((await search({})).metadata.total).toBe(before.metadata.total);
  });

  it('shows a collection\'s new name and hides a hidden collection in the facets at once', async () => {
    const apparel = demo.collections.find((c) => c.slug === 'apparel')?.id ?? '';
    const names = async () => (await search({})).facets.collections.map((c) => c.name);
    expect(await names()).toContain('Apparel');
    await t.app.inject({ method: 'PATCH', url: `/stores/v1/collections/${apparel}`, headers: apiKey(site), payload: { collection: { name: 'Clothing' } } });
    expect(await names()).toContain('Clothing');
    await t.db.query('UPDATE product_collections SET visible = false WHERE site_id = $1 AND collection_id = $2', [site.siteId, apparel]);
    expect(await names()).not.toContain('Clothing');
    await t.db.query('UPDATE product_collections SET visible = true, name = $3 WHERE site_id = $1 AND collection_id = $2', [site.siteId, apparel, 'Apparel']);
    expect(await names()).toContain('Apparel');
  });

  it('changes nothing when a save changes nothing the index holds', async () => {
    const id = demo.products.find((p) => p.name === 'Merino Crew Sweater')?.id ?? '';
    const [row] = await t.db.query<{ xmin: string }>('SELECT xmin::text FROM product_search WHERE site_id = $1 AND product_id = $2', [site.siteId, id]);
    const at = await version();
    await t.db.query(`UPDATE products SET updated_at = now(), doc = jsonb_set(doc, '{media}', '[]') WHERE site_id = $1 AND product_id = $2`, [site.siteId, id]);
    expect(await version()).toBe(at);
    const [again] = await t.db.query<{ xmin: string }>('SELECT xmin::text FROM product_search WHERE site_id = $1 AND product_id = $2', [site.siteId, id]);
    expect(again.xmin).toBe(row.xmin);
    await t.app.inject({ method: 'PATCH', url: `/stores/v1/products/${id}`, headers: apiKey(site), payload: { product: { name: 'Merino Crew Sweater' } } });
    expect(await version()).toBe(at);
  });

  it('indexes a bulk insert of many products in one refresh, raising the version once', async () => {
    const source = demo.products.find((p) => p.name === 'Field Notebook')?.id ?? '';
    const at = await version();
    await t.db.query(
      `INSERT INTO products (site_id, product_id, numeric_id, slug, name, product_type, visible, sku, price_minor, discounted_minor, doc, created_at, updated_at)
       SELECT site_id, 'bulk-' || g, 900000 + g, 'bulk-' || g, 'Bulk Lantern ' || g, product_type, true, 'BULK-' || g, price_minor, discounted_minor, doc, created_at, updated_at
       FROM products, generate_series(1, 40) g WHERE site_id = $1 AND product_id = $2`, [site.siteId, source]);
    expect(await version()).toBe(at + 1);
    expect((await search({ text: 'lantern bulk', paging: { limit: 100 } })).metadata.total).toBe(40);
    expect((await search({ text: 'bulk-17' })).items[0].product.name).toBe('Bulk Lantern 17');
    await t.db.query(`DELETE FROM products WHERE site_id = $1 AND product_id LIKE 'bulk-%'`, [site.siteId]);
    expect(await version()).toBe(at + 2);
    expect((await search({ text: 'lantern bulk' })).metadata.total).toBe(0);
  });

  it('loses no version when saves of one site race', async () => {
    const ids = await Promise.all(['Amber', 'Birch', 'Cobalt', 'Dune'].map((w) => createProduct(`${w} Racer`)));
    const at = await version();
    const saved = await Promise.all(ids.map((id, i) => t.app.inject({ method: 'PATCH', url: `/stores/v1/products/${id}`, headers: apiKey(site), payload: { product: { name: `Racer ${i}` } } })));
    expect(saved.map((r) => r.statusCode)).toEqual(ids.map(() => 200));
    expect(await version()).toBe(at + ids.length);
    expect((await search({ text: 'racer' })).metadata.total).toBe(ids.length);
    await Promise.all(ids.map((id) => t.app.inject({ method: 'DELETE', url: `/stores/v1/products/${id}`, headers: apiKey(site) })));
  });
});

describe('suggestions and "did you mean" through the word list', () => {
  it('suggests by the start of any word of a name, in stock first', async () => {
    expect(await suggest('crew')).toEqual(['Merino Crew Sweater']);
    expect(await suggest('me')).toContain('Merino Crew Sweater');
    expect(await suggest('merino cr')).toEqual(['Merino Crew Sweater']);
  });

  it('suggests from four letters typed by those letters (a rare word behind a common start, accents, a second word)', async () => {
    const ids = [await createProduct('Mezzanine Shelf'), await createProduct('Crème Brûlée Mug')];
    expect(await suggest('mezz')).toEqual(['Mezzanine Shelf']);
    expect(await suggest('"Mezzani')).toEqual(['Mezzanine Shelf']);
    expect(await suggest('Crème br')).toEqual(['Crème Brûlée Mug']);
    expect(await suggest('creme brulee m')).toEqual(['Crème Brûlée Mug']);
    expect(await suggest('brûl')).toEqual(['Crème Brûlée Mug']);
    expect(await suggest('me')).toContain('Merino Crew Sweater');
    await Promise.all(ids.map((id) => t.app.inject({ method: 'DELETE', url: `/stores/v1/products/${id}`, headers: apiKey(site) })));
    expect(await suggest('mezz')).not.toContain('Mezzanine Shelf');
  });

  it('corrects a mistyped word before suggesting', async () => {
    expect(await suggest('sweatr')).toEqual(['Merino Crew Sweater']);
    expect(await suggest('qqqq')).toEqual([]);
  });

  it('never offers a visitor a word only a hidden product has', async () => {
    const id = await createProduct('Xylophone Stand', { visible: false });
    // Too far for the search's own fuzzy match, near enough for "did you mean".
    expect((await search({ text: 'xyllofone' })).didYouMean).toBeNull();
    expect(await suggest('xyllofone')).toEqual([]);
    expect((await search({ text: 'xyllofone' }, apiKey(site))).didYouMean).toBe('xylophone');
    await t.app.inject({ method: 'DELETE', url: `/stores/v1/products/${id}`, headers: apiKey(site) });
    // The word stays in the list but no product has it any more: it is not offered.
    expect((await search({ text: 'xyllofone' }, apiKey(site))).didYouMean).toBeNull();
  });
});
