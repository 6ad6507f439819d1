// The catalog search through the wire: the official productsV3.searchProducts (search.expression
// and aggregations), the back office's product list, and who may call the Bodega search calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, OAuthStrategy } from '@wix/sdk';
import { productsV3 } from '@wix/stores';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { listen, redirectWixFetch } from '../../test/wix-fetch.js';
import { apiKey } from '../../test/commerce.js';
import { backOfficeSite, CALLERS, type BackOfficeSite } from '../../test/backoffice.js';
import { seedDemoContent, type DemoContent } from '../../demo-store/seed.js';
import { SEARCH_PATH, SUGGEST_PATH } from './search-routes.js';

let t: TestApp;
let s: BackOfficeSite;
let site: TestSite;
let demo: DemoContent;
let wixFetch: ReturnType<typeof redirectWixFetch>;

beforeAll(async () => {
  t = await testApp();
  s = await backOfficeSite(t);
  site = s.site;
  demo = await seedDemoContent(t.app, site);
  wixFetch = redirectWixFetch(await listen(t.app));
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
});

const storefront = (s: TestSite = site) => createClient({ modules: { productsV3 }, auth: OAuthStrategy({ clientId: s.clientId }) });

describe('productsV3.searchProducts through the catalog search', () => {
  it('finds by any word, a typo or another word order, best first', async () => {
    const sf = storefront();
    const found = async (expression: string) => (await sf.productsV3.searchProducts({ search: { expression }, cursorPaging: { limit: 10 } })).products?.map((p) => p.name);
    expect((await found('sweater'))?.[0]).toBe('Merino Crew Sweater');
    expect((await found('espreso'))?.[0]).toBe('House Espresso Blend');
    expect((await found('blend espresso'))?.[0]).toBe('House Espresso Blend');
    expect(await found('xyzzy')).toEqual([]);
  });

  it('answers value, range and scalar aggregations over what the search finds', async () => {
    const coffee = demo.collections.find((c) => c.slug === 'coffee')?.id;
    const answer = await storefront().productsV3.searchProducts({
      search: { expression: 'linen' },
      aggregations: [
        { name: 'stock', type: 'VALUE', fieldPath: 'inventory.availabilityStatus', value: { limit: 5 } },
        { name: 'categories', type: 'VALUE', fieldPath: 'allCategoriesInfo.categories._id' },
        { name: 'prices', type: 'RANGE', fieldPath: 'actualPriceRange.minValue.amount', range: { buckets: [{ to: 30 }, { from: 30, to: 100 }] } },
        { name: 'cheapest', type: 'SCALAR', fieldPath: 'actualPriceRange.minValue.amount', scalar: { type: 'MIN' } },
      ],
    });
    expect(answer.products?.map((p) => p.name).sort()).toEqual(['Linen Camp Shirt', 'Linen Tea Towels, Set of 2']);
    const results = answer.aggregationData?.results ?? [];
    expect(results.find((r) => r.name === 'stock')?.values?.results).toEqual([{ value: 'IN_STOCK', count: 2 }]);
    const categoryIds = results.find((r) => r.name === 'categories')?.values?.results?.map((r) => r.value);
    expect(categoryIds).not.toContain(coffee);
    expect(categoryIds).toEqual(expect.arrayContaining([demo.collections.find((c) => c.slug === 'apparel')?.id, demo.collections.find((c) => c.slug === 'home')?.id]));
    expect(results.find((r) => r.name === 'prices')?.ranges?.results).toEqual([{ to: 30, count: 1 }, { from: 30, to: 100, count: 1 }]);
    expect(results.find((r) => r.name === 'cheapest')?.scalar).toMatchObject({ type: 'MIN', value: 24 });
  });

  it('refuses an aggregation on a field it cannot count, in the wire error shape', async () => {
    const res = await t.app.inject({
      method: 'POST', url: '/stores/v3/products/search', headers: { authorization: await t.visitorToken(site) },
      payload: { search: { aggregations: [{ type: 'VALUE', fieldPath: 'media.main.url' }] } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.validationError.fieldViolations[0].field).toBe('search.aggregations[0]');
  });
});

describe('the back office product list', () => {
  it('searches with the catalog search, hidden products included', async () => {
    await t.app.inject({ method: 'POST', url: '/stores/v1/products', headers: apiKey(site), payload: { product: { name: 'Hidden Merino Scarf', visible: false, priceData: { price: 30 } } } });
    const res = await t.app.inject({ method: 'POST', url: '/bodega/v1/products/query', headers: apiKey(site), payload: { text: 'merino' } });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { products: { name: string }[] }).products.map((p) => p.name)).toEqual(['Merino Crew Sweater', 'Hidden Merino Scarf']);
  });
});

describe('who may call the Bodega search calls', () => {
  const calls = [
    { method: 'POST' as const, url: SEARCH_PATH, payload: { text: 'merino' }, found: (b: { items: { product: { name: string } }[] }) => b.items.map((i) => i.product.name) },
    { method: 'GET' as const, url: `${SUGGEST_PATH}?text=merino`, payload: undefined, found: (b: { products: { product: { name: string } }[] }) => b.products.map((i) => i.product.name) },
  ];
  it.each(calls)('$method $url: every caller of the site finds its products, another site\'s callers never do, no token is refused', async ({ method, url, payload, found }) => {
    const other = await backOfficeSite(t);
    await t.app.inject({ method: 'POST', url: '/stores/v1/products', headers: apiKey(site), payload: { product: { name: 'Merino Hidden Wrap', visible: false, priceData: { price: 30 } } } });
    const shopper = (caller: string) => caller === 'visitor' || caller === 'member';
    for (const [owner, want] of [[s, ['Merino Crew Sweater']], [other, []]] as const) {
      for (const caller of CALLERS) {
        const res = await t.app.inject({ method, url, headers: owner.headers[caller], ...(payload && { payload }) });
        const label = `${owner === s ? 'this site' : 'another site'}, ${caller}: ${res.statusCode} ${res.body.slice(0, 200)}`;
        if (caller === 'anonymous') {
          expect(res.statusCode, label).toBe(401);
          expect(res.json(), label).toHaveProperty('details.applicationError.code');
        } else {
          expect(res.statusCode, label).toBe(200);
          const names = found(res.json());
          expect(names, label).toEqual(expect.arrayContaining([...want]));
          if (owner === other) expect(names, label).toEqual([]);
          // Shoppers never see a hidden product; the back office does.
          expect(names.includes('Merino Hidden Wrap'), label).toBe(owner === s && !shopper(caller));
        }
      }
    }
  });
});
