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

interface SearchAnswer {
  items: { product: { id: string; name: string; stock: { inStock: boolean } }; nameHighlight: { text: string; match: boolean }[] }[];
  metadata: { total: number };
  facets: {
    collections: { id: string; name: string; count: number }[];
    options: { name: string; values: { value: string; count: number }[] }[];
    prices: { id: string; count: number }[];
    inStock: number;
    onSale: number;
    brands: { name: string; count: number }[];
  };
  didYouMean: string | null;
}

async function search(body: Record<string, unknown>, authorization = visitor): Promise<SearchAnswer> {
  const res = await t.app.inject({ method: 'POST', url: SEARCH_PATH, headers: { authorization }, payload: body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as SearchAnswer;
}
const names = (a: SearchAnswer) => a.items.map((i) => i.product.name);

describe('catalog search relevance over the demo catalog', () => {
  // query → the names expected first, in order
  it.each([
    ['merino', ['Merino Crew Sweater']],
    ['Merino', ['Merino Crew Sweater']],
    ['MERINO crew', ['Merino Crew Sweater']],
    ['sweater', ['Merino Crew Sweater']],
    ['sweaters', ['Merino Crew Sweater']],
    ['sweatr', ['Merino Crew Sweater']],
    ['swaeter', []],
    ['espresso', ['House Espresso Blend']],
    ['blend espresso', ['House Espresso Blend']],
    ['espreso', ['House Espresso Blend']],
    ['house', ['House Espresso Blend']],
    ['yirgacheffe', ['Ethiopia Yirgacheffe']],
    ['yirgachefe', ['Ethiopia Yirgacheffe']],
    ['ethiopian', ['Ethiopia Yirgacheffe']],
    ['mug', ['Speckled Stoneware Mug']],
    ['stoneware mug', ['Speckled Stoneware Mug']],
    ['pour over', ['Ceramic Pour-Over Dripper']],
    ['pour-over dripper', ['Ceramic Pour-Over Dripper']],
    ['dripper', ['Ceramic Pour-Over Dripper']],
    ['tote', ['Waxed Canvas Tote']],
    ['canvas tote', ['Waxed Canvas Tote']],
    ['beanie', ['Wool Rib Beanie']],
    ['benie', ['Wool Rib Beanie']],
    ['notebook', ['Field Notebook']],
    ['note book', ['Field Notebook']],
    ['gift card', ['Digital Gift Card']],
    ['pin', ['Enamel Pin Set']],
    ['tea towel', ['Linen Tea Towels, Set of 2']],
    ['swtr-mer', ['Merino Crew Sweater']],
    ['SHIRT-LIN', ['Linen Camp Shirt']],
    ['linen', ['Linen Camp Shirt', 'Linen Tea Towels, Set of 2']],
    ['charcoal', ['Merino Crew Sweater', 'Speckled Stoneware Mug']],
  ])('"%s" finds %j first', async (text, expected) => {
    const found = names(await search({ text }));
    expect(found.slice(0, expected.length), `all results: ${found.join(' | ')}`).toEqual(expected);
    if (expected.length === 0) expect(found).toEqual([]);
  });

  it('puts what is in stock before what is not among equally relevant products', async () => {
    const found = names(await search({ text: 'apparel' }));
    expect(found).toHaveLength(4);
    expect(found[3]).toBe('Wool Rib Beanie');
    expect(names(await search({ text: 'apparel' }))).toEqual(found);
  });

  it('offers a near query when nothing matches', async () => {
    const answer = await search({ text: 'swaeter' });
    expect(answer.metadata.total).toBe(0);
    expect(answer.didYouMean).toBe('sweater');
    expect(names(await search({ text: answer.didYouMean ?? '' }))[0]).toBe('Merino Crew Sweater');
  });

  it('marks the query words in the names it finds', async () => {
    const answer = await search({ text: 'espresso ble' });
    expect(answer.items[0].nameHighlight).toEqual([
      { text: 'House ', match: false }, { text: 'Espresso', match: true }, { text: ' ', match: false }, { text: 'Ble', match: true }, { text: 'nd', match: false },
    ]);
  });

  it('suggests products and collections as one types, at most eight', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${SUGGEST_PATH}?text=co`, headers: { authorization: visitor } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { products: { product: { name: string } }[]; collections: { name: string }[] };
    expect(body.collections.map((c) => c.name)).toContain('Coffee');
    expect(body.products.length + body.collections.length).toBeLessThanOrEqual(8);
    const sweat = (await t.app.inject({ method: 'GET', url: `${SUGGEST_PATH}?text=swea`, headers: { authorization: visitor } })).json() as typeof body;
    expect(sweat.products.map((p) => p.product.name)).toEqual(['Merino Crew Sweater']);
  });

  it('suggests what a save changed at once, the same text asked before and after it', async () => {
    const suggest = async (text: string) => {
      const res = await t.app.inject({ method: 'GET', url: `${SUGGEST_PATH}?text=${text}`, headers: { authorization: visitor } });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { products: { product: { name: string } }[] }).products.map((p) => p.product.name);
    };
    expect(await suggest('quok')).toEqual([]);
    const made = await t.app.inject({ method: 'POST', url: '/stores/v1/products', headers: apiKey(site), payload: { product: { name: 'Quokka Lamp', priceData: { price: 20 } } } });
    const id = (made.json() as { product: { id: string } }).product.id;
    expect(await suggest('quok')).toEqual(['Quokka Lamp']);
    expect(await suggest('quok')).toEqual(['Quokka Lamp']);
    await t.app.inject({ method: 'PATCH', url: `/stores/v1/products/${id}`, headers: apiKey(site), payload: { product: { name: 'Wombat Lamp' } } });
    expect(await suggest('quok')).toEqual([]);
    expect(await suggest('womb')).toEqual(['Wombat Lamp']);
    await t.app.inject({ method: 'DELETE', url: `/stores/v1/products/${id}`, headers: apiKey(site) });
    expect(await suggest('womb')).not.toContain('Wombat Lamp');
  });

  it('finds a product in the same second it is saved, and not after it is deleted', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/stores/v1/products', headers: apiKey(site), payload: { product: { name: 'Café Crème Grinder', priceData: { price: 80 } } } });
    expect(created.statusCode).toBe(200);
    const id = (created.json() as { product: { id: string } }).product.id;
    expect(names(await search({ text: 'cafe creme' }))).toEqual(['Café Crème Grinder']);
    expect(names(await search({ text: 'grindr' }))).toEqual(['Café Crème Grinder']);
    await t.app.inject({ method: 'PATCH', url: `/stores/v1/products/${id}`, headers: apiKey(site), payload: { product: { name: 'Burr Mill' } } });
    expect(names(await search({ text: 'grinder' }))).toEqual([]);
    expect(names(await search({ text: 'burr' }))).toEqual(['Burr Mill']);
    await t.app.inject({ method: 'DELETE', url: `/stores/v1/products/${id}`, headers: apiKey(site) });
    expect(names(await search({ text: 'burr' }))).toEqual([]);
  });

  it('finds a product by its SKU first, and by its old SKU no more once it changes or goes', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/stores/v1/products', headers: apiKey(site), payload: { product: { name: 'Stovetop Kettle', sku: 'ZX-9041', priceData: { price: 45 } } } });
    expect(created.statusCode, created.body).toBe(200);
    const id = (created.json() as { product: { id: string } }).product.id;
    expect(names(await search({ text: 'zx-9041' }))).toEqual(['Stovetop Kettle']);
    await t.app.inject({ method: 'PATCH', url: `/stores/v1/products/${id}`, headers: apiKey(site), payload: { product: { sku: 'ZX-9042' } } });
    expect(names(await search({ text: 'ZX-9041' }))).toEqual([]);
    expect(names(await search({ text: 'ZX-9042' }))).toEqual(['Stovetop Kettle']);
    await t.app.inject({ method: 'DELETE', url: `/stores/v1/products/${id}`, headers: apiKey(site) });
    expect(names(await search({ text: 'ZX-9042' }))).toEqual([]);
    const [{ n }] = await t.db.query<{ n: number | string }>('SELECT count(*) AS n FROM product_search_skus WHERE site_id = $1 AND product_id = $2', [site.siteId, id]);
    expect(Number(n)).toBe(0);
  });

  it('keeps the index equal to the product when saves race', async () => {
    const made = await t.app.inject({ method: 'POST', url: '/stores/v1/products', headers: apiKey(site), payload: { product: { name: 'Racing Kettle', priceData: { price: 30 } } } });
    const id = (made.json() as { product: { id: string } }).product.id;
    const names = ['Amber', 'Birch', 'Cobalt', 'Dune', 'Ember', 'Fjord', 'Garnet', 'Heath'].map((w) => `${w} Kettle`);
    const saved = await Promise.all(names.map((name) => t.app.inject({ method: 'PATCH', url: `/stores/v1/products/${id}`, headers: apiKey(site), payload: { product: { name } } })));
    expect(saved.map((r) => r.statusCode)).toEqual(names.map(() => 200));
    const final = (await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${id}`, headers: apiKey(site) })).json() as { product: { name: string } };
    const found = await search({ text: 'kettle' });
    expect(found.items.filter((i) => i.product.id === id).map((i) => i.product.name)).toEqual([final.product.name]);
    const [row] = await t.db.query<{ name_folded: string }>('SELECT name_folded FROM product_search WHERE site_id = $1 AND product_id = $2', [site.siteId, id]);
    expect(row.name_folded).toBe(final.product.name.toLowerCase());
    await t.app.inject({ method: 'DELETE', url: `/stores/v1/products/${id}`, headers: apiKey(site) });
  });

  it('follows collection membership and a collection\'s new name', async () => {
    const made = await t.app.inject({ method: 'POST', url: '/stores/v1/collections', headers: apiKey(site), payload: { collection: { name: 'Winter Warmers' } } });
    const collectionId = (made.json() as { collection: { id: string } }).collection.id;
    const beanie = demo.products.find((p) => p.name === 'Wool Rib Beanie')?.id ?? '';
    await t.app.inject({ method: 'POST', url: `/stores/v1/collections/${collectionId}/productIds`, headers: apiKey(site), payload: { productIds: [beanie] } });
    expect(names(await search({ text: 'warmers' }))).toEqual(['Wool Rib Beanie']);
    await t.app.inject({ method: 'PATCH', url: `/stores/v1/collections/${collectionId}`, headers: apiKey(site), payload: { collection: { name: 'Cold Days' } } });
    expect(names(await search({ text: 'warmers' }))).toEqual([]);
    expect(names(await search({ text: 'cold days' }))).toEqual(['Wool Rib Beanie']);
    await t.app.inject({ method: 'DELETE', url: `/stores/v1/collections/${collectionId}`, headers: apiKey(site) });
    expect(names(await search({ text: 'cold days' }))).toEqual([]);
  });

  it('never shows a visitor a hidden product, and never another site\'s', async () => {
    const hidden = await t.app.inject({ method: 'POST', url: '/stores/v1/products', headers: apiKey(site), payload: { product: { name: 'Secret Roast', visible: false, priceData: { price: 9 } } } });
    expect(hidden.statusCode).toBe(200);
    expect(names(await search({ text: 'secret roast' }))).toEqual([]);
    const other = await t.createSite();
    expect(names(await search({ text: 'merino' }, await t.visitorToken(other)))).toEqual([]);
  });
});

describe('facets of a search', () => {
  const id = (slug: string) => demo.collections.find((c) => c.slug === slug)?.id ?? slug;
  const counts = (list: { name?: string; value?: string; id?: string; count: number }[]) =>
    Object.fromEntries(list.map((x) => [x.name ?? x.value ?? x.id, x.count]));
  const optionCounts = (a: SearchAnswer, name: string) => counts(a.facets.options.find((o) => o.name === name)?.values ?? []);

  it('counts every facet over the whole catalog when nothing is picked', async () => {
    const a = await search({});
    expect(a.metadata.total).toBe(13);
    expect(counts(a.facets.collections)).toEqual({ Apparel: 4, Coffee: 4, 'Kitchen & Home': 3, Gifts: 6 });
    expect(counts(a.facets.prices.map((p) => ({ id: p.id, count: p.count })))).toEqual({ '0-25': 7, '25-50': 4, '50-100': 2, '100-200': 0, '200-500': 0, '500+': 0 });
    expect(a.facets.inStock).toBe(12);
    expect(a.facets.onSale).toBe(2);
    expect(optionCounts(a, 'Colour')).toEqual({ Sand: 1, Sage: 1, Navy: 1, Oat: 1, Charcoal: 2, 'Speckled White': 1 });
  });

  it('counts each facet with the other facets\' picks: OR within a facet, AND across facets', async () => {
    const charcoal = await search({ filters: { options: { Colour: ['Charcoal'] } } });
    expect(names(charcoal).sort()).toEqual(['Merino Crew Sweater', 'Speckled Stoneware Mug']);
    expect(counts(charcoal.facets.collections)).toEqual({ Apparel: 1, 'Kitchen & Home': 1, Gifts: 2 });
    expect(optionCounts(charcoal, 'Colour')).toMatchObject({ Sand: 1, Charcoal: 2, 'Speckled White': 1 });
    expect(optionCounts(charcoal, 'Size')).toEqual({ S: 1, M: 1, L: 1 });

    const either = await search({ filters: { options: { Colour: ['Charcoal', 'Sand'] } } });
    expect(either.metadata.total).toBe(3);

    const both = await search({ filters: { options: { Colour: ['Charcoal'] }, collectionIds: [id('apparel')] } });
    expect(names(both)).toEqual(['Merino Crew Sweater']);
    expect(optionCounts(both, 'Colour')).toEqual({ Sand: 1, Sage: 1, Navy: 1, Oat: 1, Charcoal: 1 });
    expect(counts(both.facets.collections)).toEqual({ Apparel: 1, 'Kitchen & Home': 1, Gifts: 2 });

    const cheapGifts = await search({ filters: { prices: ['0-25'], collectionIds: [id('gifts')] } });
    expect(names(cheapGifts)).toEqual(['Enamel Pin Set', 'Field Notebook', 'Speckled Stoneware Mug']);
    expect(counts(cheapGifts.facets.prices.map((p) => ({ id: p.id, count: p.count })))).toMatchObject({ '0-25': 3, '25-50': 2, '50-100': 1 });

    const apparelInStock = await search({ filters: { collectionIds: [id('apparel')], inStock: true } });
    expect(apparelInStock.metadata.total).toBe(3);
    expect(apparelInStock.facets.inStock).toBe(3);
    expect(counts(apparelInStock.facets.collections)).toMatchObject({ Apparel: 3 });

    const sale = await search({ text: 'sweater', filters: { onSale: true } });
    expect(names(sale)).toEqual(['Merino Crew Sweater']);
  });

  it('refuses a price bucket it does not have', async () => {
    const res = await t.app.inject({ method: 'POST', url: SEARCH_PATH, headers: { authorization: visitor }, payload: { filters: { prices: ['1-2'] } } });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.validationError.fieldViolations[0].field).toBe('filters.prices[0]');
  });
});
