import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient, OAuthStrategy } from '@wix/sdk';
import { collections, products } from '@wix/stores';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { listen, redirectWixFetch } from '../../test/wix-fetch.js';
import { apiKey, createProduct } from '../../test/commerce.js';
import { ALL_PRODUCTS_COLLECTION_ID, DEFAULT_VARIANT_ID } from './products.js';

let t: TestApp;
let site: TestSite;
let visitor: string;
let wixFetch: ReturnType<typeof redirectWixFetch>;

beforeAll(async () => {
  t = await testApp();
  site = await t.createSite();
  visitor = await t.visitorToken(site);
  wixFetch = redirectWixFetch(await listen(t.app));
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
});

const r = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString('base64url');

function visitorSdk(s: TestSite = site) {
  return createClient({ modules: { products, collections }, auth: OAuthStrategy({ clientId: s.clientId }) });
}
function adminSdk(s: TestSite = site) {
  return createClient({ modules: { products, collections }, auth: ApiKeyStrategy({ apiKey: s.apiKey, siteId: s.siteId }) });
}

describe('products through the Stores v1 API', () => {
  it('creates a product with options, variants and stock and shows it to a visitor', async () => {
    const created = await createProduct(t.app, site, {
      name: 'Linen Shirt',
      priceData: { price: 40.5 },
      discount: { type: 'PERCENT', value: 10 },
      weight: 0.3,
      description: 'Cool in summer',
      stock: { trackInventory: true, quantity: 7 },
      productOptions: [{ name: 'Size', choices: [{ value: 'S', description: 'Small' }, { value: 'M', description: 'Medium' }] }],
      ribbon: 'New',
    });
    expect(created).toMatchObject({
      name: 'Linen Shirt',
      slug: 'linen-shirt',
      visible: true,
      productType: 'physical',
      priceData: { currency: 'USD', price: 40.5, discountedPrice: 36.45, formatted: { price: '$40.50', discountedPrice: '$36.45' } },
      stock: { trackInventory: true, quantity: 7, inStock: true, inventoryStatus: 'IN_STOCK' },
      ribbons: [{ text: 'New' }],
      collectionIds: [ALL_PRODUCTS_COLLECTION_ID],
      productPageUrl: { path: '/product-page/linen-shirt' },
    });
    expect(created.variants.map((v) => v.choices)).toEqual([{ Size: 'S' }, { Size: 'M' }]);

    const res = await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${created.id}?id=${created.id}`, headers: { authorization: visitor } });
    expect(res.statusCode).toBe(200);
    expect(res.json().product.id).toBe(created.id);
  });

  it('gives a product without options the default variant', async () => {
    const p = await createProduct(t.app, site, { name: 'Plain Cap', priceData: { price: 12 } });
    expect(p.variants).toEqual([expect.objectContaining({ id: DEFAULT_VARIANT_ID, choices: {} })]);
  });

  it('makes slugs unique by numbering repeats', async () => {
    const a = await createProduct(t.app, site, { name: 'Same Name', priceData: { price: 1 } });
    const b = await createProduct(t.app, site, { name: 'Same Name', priceData: { price: 1 } });
    expect([a.slug, b.slug]).toEqual(['same-name', 'same-name-2']);
    const clash = await t.app.inject({ method: 'POST', url: '/stores/v1/products', headers: apiKey(site), payload: { product: { name: 'X', slug: 'same-name', priceData: { price: 1 } } } });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().details.applicationError.code).toBe('DUPLICATE_SLUG');
  });

  it('hides hidden products from visitors but not from the back office', async () => {
    const hidden = await createProduct(t.app, site, { name: 'Secret Blend', priceData: { price: 3 }, visible: false });
    const asVisitor = await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${hidden.id}`, headers: { authorization: visitor } });
    expect(asVisitor.statusCode).toBe(404);
    expect(asVisitor.json().details.applicationError.code).toBe('PRODUCT_NOT_FOUND');
    const asApp = await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${hidden.id}`, headers: apiKey(site) });
    expect(asApp.statusCode).toBe(200);
    const query = await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/query-platformized?.r=${r({ query: { filter: { slug: 'secret-blend' } } })}`, headers: { authorization: visitor } });
    expect(query.json()).toMatchObject({ products: [], metadata: { total: 0 } });
  });

  it.each([
    ['no name', { priceData: { price: 1 } }, 'product.name', 'REQUIRED_FIELD'],
    ['no price', { name: 'A' }, 'product.priceData.price', 'REQUIRED_FIELD'],
    ['more cents than the currency has', { name: 'A', priceData: { price: 1.005 } }, 'product.priceData.price', 'DECIMAL_MAX_SCALE'],
    ['a negative price', { name: 'A', priceData: { price: -1 } }, 'product.priceData.price', 'MIN'],
    ['an unknown product type', { name: 'A', priceData: { price: 1 }, productType: 'service' }, 'product.productType', 'INVALID_ENUM_VALUE'],
    ['a percent over 100', { name: 'A', priceData: { price: 1 }, discount: { type: 'PERCENT', value: 120 } }, 'product.discount.value', 'MAX'],
    ['an option without choices', { name: 'A', priceData: { price: 1 }, productOptions: [{ name: 'Size', choices: [] }] }, 'product.productOptions[0].choices', 'MIN_SIZE'],
    ['a name of the wrong type', { name: 5, priceData: { price: 1 } }, 'product.name', 'VALIDATION'],
  ])('refuses a product with %s, naming the field', async (_name, product, field, rule) => {
    const res = await t.app.inject({ method: 'POST', url: '/stores/v1/products', headers: apiKey(site), payload: { product } });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.validationError.fieldViolations).toEqual(expect.arrayContaining([expect.objectContaining({ field, violatedRule: rule })]));
  });

  it('lets only the back office write', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/stores/v1/products', headers: { authorization: visitor }, payload: { product: { name: 'A', priceData: { price: 1 } } } });
    expect(res.statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'POST', url: '/stores/v1/products', payload: { product: { name: 'A', priceData: { price: 1 } } } });
    expect(anonymous.statusCode).toBe(401);
  });

  it('updates, manages variants and deletes a product', async () => {
    const p = await createProduct(t.app, site, { name: 'Hoodie', priceData: { price: 50 }, productOptions: [{ name: 'Color', optionType: 'color', choices: [{ value: 'Black', description: '#000000' }, { value: 'Grey', description: '#888888' }] }] });
    const updated = await t.app.inject({ method: 'PATCH', url: `/stores/v1/products/${p.id}`, headers: apiKey(site), payload: { product: { manageVariants: true, stock: { trackInventory: true } } } });
    expect(updated.statusCode).toBe(200);
    const variants = await t.app.inject({ method: 'PATCH', url: `/stores/v1/products/${p.id}/variants`, headers: apiKey(site), payload: { variants: [{ choices: { Color: 'Grey' }, price: 55, sku: 'HD-G' }] } });
    expect(variants.statusCode).toBe(200);
    const grey = variants.json().variants.find((v: { choices: Record<string, string> }) => v.choices.Color === 'Grey');
    expect(grey.variant).toMatchObject({ priceData: { price: 55 }, sku: 'HD-G' });
    const inventory = await t.app.inject({ method: 'PATCH', url: `/stores/v2/inventoryItems/product/${p.id}`, headers: apiKey(site), payload: { inventoryItem: { variants: [{ variantId: grey.id, quantity: 4 }] } } });
    expect(inventory.statusCode).toBe(200);
    const product = (await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${p.id}`, headers: apiKey(site) })).json().product;
    expect(product.stock).toMatchObject({ trackInventory: true, quantity: 4, inventoryStatus: 'PARTIALLY_OUT_OF_STOCK' });
    expect(product.priceRange).toEqual({ minValue: 50, maxValue: 55 });

    const availability = await t.app.inject({ method: 'POST', url: `/stores-reader/v1/products/${p.id}/productOptionsAvailability`, headers: { authorization: visitor }, payload: { options: { Color: 'Grey' } } });
    expect(availability.json()).toMatchObject({ availableForPurchase: true, selectedVariant: { price: { price: 55 }, inStock: true, quantity: 4 } });
    const black = await t.app.inject({ method: 'POST', url: `/stores-reader/v1/products/${p.id}/productOptionsAvailability`, headers: { authorization: visitor }, payload: { options: { Color: 'Black' } } });
    expect(black.json()).toMatchObject({ availableForPurchase: false, selectedVariant: { inStock: false } });

    const query = await t.app.inject({ method: 'POST', url: `/stores-reader/v1/products/${p.id}/variants/query`, headers: apiKey(site), payload: { choices: { Color: 'Grey' } } });
    expect(query.json()).toMatchObject({ totalResults: 1, variants: [{ id: grey.id }] });

    const deleted = await t.app.inject({ method: 'DELETE', url: `/stores/v1/products/${p.id}?id=${p.id}`, headers: apiKey(site) });
    expect(deleted.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${p.id}`, headers: apiKey(site) })).statusCode).toBe(404);
  });

  it('adds and removes media, ribbon and brand', async () => {
    const p = await createProduct(t.app, site, { name: 'Poster', priceData: { price: 9 }, ribbon: 'Hot', brand: 'Acme' });
    expect((await t.app.inject({ method: 'POST', url: `/stores/v1/products/${p.id}/media`, headers: apiKey(site), payload: { media: [{ url: 'https://images.example/poster.jpg' }] } })).statusCode).toBe(200);
    const bad = await t.app.inject({ method: 'POST', url: `/stores/v1/products/${p.id}/media`, headers: apiKey(site), payload: { media: [{ mediaId: 'wix-only-id' }] } });
    expect(bad.statusCode).toBe(400);
    await t.app.inject({ method: 'POST', url: `/stores/v1/products/${p.id}/remove-ribbon`, headers: apiKey(site), payload: {} });
    await t.app.inject({ method: 'POST', url: `/stores/v1/products/${p.id}/remove-brand`, headers: apiKey(site), payload: {} });
    const product = (await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${p.id}`, headers: apiKey(site) })).json().product;
    expect(product.media.mainMedia.image.url).toBe('https://images.example/poster.jpg');
    expect(product.ribbons).toEqual([]);
    expect(product.brand).toBeUndefined();
  });
});

describe('query-platformized', () => {
  let s: TestSite;
  beforeAll(async () => {
    s = await t.createSite();
    for (const [name, price, type] of [['Apple', 3, 'physical'], ['Banana', 1, 'physical'], ['Cherry', 7, 'digital'], ['Date', 5, 'physical']] as const) {
      await createProduct(t.app, s, { name, priceData: { price }, productType: type });
    }
  });

  it('filters, sorts and pages with the total in metadata, by GET .r and by POST', async () => {
    const query = { filter: { productType: 'physical' }, sort: [{ fieldName: 'priceData.price', order: 'DESC' }], paging: { limit: 2, offset: 1 } };
    const get = await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/query-platformized?.r=${r({ query })}`, headers: apiKey(s) });
    expect(get.statusCode).toBe(200);
    expect(get.json().products.map((p: { name: string }) => p.name)).toEqual(['Apple', 'Banana']);
    expect(get.json().metadata).toEqual({ count: 2, offset: 1, total: 3 });
    const post = await t.app.inject({ method: 'POST', url: '/_api/catalog-reader-server/v1/products/query-platformized', headers: apiKey(s), payload: { query } });
    expect(post.json()).toEqual(get.json());
  });

  it.each([
    [{ name: { $startsWith: 'Ba' } }, ['Banana']],
    [{ 'priceData.price': { $gte: 3, $lt: 7 } }, ['Apple', 'Date']],
    [{ $or: [{ name: 'Cherry' }, { name: { $in: ['Apple'] } }] }, ['Apple', 'Cherry']],
    [{ $not: { productType: 'physical' } }, ['Cherry']],
    [{ sku: { $exists: false }, productType: { $ne: 'digital' } }, ['Apple', 'Banana', 'Date']],
    [{ collectionIds: { $hasSome: [ALL_PRODUCTS_COLLECTION_ID] }, name: 'Date' }, ['Date']],
    [{ collectionIds: { $hasAll: [ALL_PRODUCTS_COLLECTION_ID] }, name: { $in: ['Apple', 'Date'] } }, ['Apple', 'Date']],
    [{ $or: [{ name: 'Cherry' }, { collectionIds: { $hasAll: [ALL_PRODUCTS_COLLECTION_ID, 'no-such-collection'] } }] }, ['Cherry']],
  ])('applies the filter %j', async (filter, names) => {
    const res = await t.app.inject({ method: 'POST', url: '/stores-reader/v1/products/query-platformized', headers: apiKey(s), payload: { query: { filter, sort: [{ fieldName: 'name' }] } } });
    expect(res.statusCode).toBe(200);
    expect(res.json().products.map((p: { name: string }) => p.name)).toEqual(names);
  });

  it.each([
    [{ filter: { color: 'red' } }, /cannot be filtered/],
    [{ filter: { name: { $regex: 'x' } } }, /not supported/],
    [{ sort: [{ fieldName: 'description' }] }, /cannot be sorted/],
    [{ paging: { limit: 1000 } }, /between 1 and 100/],
    [{ filter: { 'priceData.price': { $gt: 'cheap' } } }, /price/],
  ])('refuses the query %j with a clear message', async (query, message) => {
    const res = await t.app.inject({ method: 'POST', url: '/stores-reader/v1/products/query-platformized', headers: apiKey(s), payload: { query } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(message);
  });

  it('counts the total when the page is past the end', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/stores-reader/v1/products/query-platformized', headers: apiKey(s), payload: { query: { paging: { offset: 10 } } } });
    expect(res.json().metadata).toEqual({ count: 0, offset: 10, total: 4 });
  });

  it('serves the official products module: query builder, paging and getProduct', async () => {
    const client = visitorSdk(s);
    const page = await client.products.queryProducts().eq('productType', 'physical').ascending('name').limit(2).find();
    expect(page.items.map((p) => p.name)).toEqual(['Apple', 'Banana']);
    expect(page.totalCount).toBe(3);
    expect(page.hasNext()).toBe(true);
    const next = await page.next();
    expect(next.items.map((p) => p.name)).toEqual(['Date']);
    const one = await client.products.getProduct(page.items[0]._id as string);
    expect(one.product).toMatchObject({ name: 'Apple', priceData: { price: 3 } });
    await expect(client.products.getProduct('00000000-0000-0000-0000-00000000dead')).rejects.toMatchObject({ details: { applicationError: { code: 'PRODUCT_NOT_FOUND' } } });
    expect(wixFetch.urls.some((c) => c.startsWith('GET /stores-reader/v1/products/query-platformized?.r='))).toBe(true);
  });

  it('serves the official module with an API key: create, update and delete', async () => {
    const client = adminSdk(s);
    const { product } = await client.products.createProduct({ name: 'Elderberry', productType: products.ProductType.physical, priceData: { price: 8 } });
    expect(product).toMatchObject({ name: 'Elderberry', slug: 'elderberry' });
    const { product: updated } = await client.products.updateProduct(product?._id as string, { name: 'Elderberry Jam' });
    expect(updated?.name).toBe('Elderberry Jam');
    await client.products.deleteProduct(product?._id as string);
    await expect(client.products.getProduct(product?._id as string)).rejects.toMatchObject({ details: { applicationError: { code: 'PRODUCT_NOT_FOUND' } } });
  });
});

describe('collections', () => {
  it('creates a collection, adds products and finds it by slug through both modules', async () => {
    const s = await t.createSite();
    const a = await createProduct(t.app, s, { name: 'Fig', priceData: { price: 2 } });
    const b = await createProduct(t.app, s, { name: 'Grape', priceData: { price: 2 } });
    const admin = adminSdk(s);
    const { collection } = await admin.products.createCollection({ name: 'Fruit' });
    expect(collection).toMatchObject({ name: 'Fruit', slug: 'fruit' });
    await admin.products.addProductsToCollection(collection?._id as string, [a.id, b.id]);
    await admin.products.removeProductsFromCollection(collection?._id as string, [b.id]);

    const shopper = visitorSdk(s);
    const bySlug = await shopper.products.getCollectionBySlug('fruit');
    expect(bySlug.collection).toMatchObject({ name: 'Fruit', numberOfProducts: 1 });
    const v2 = await shopper.collections.getCollectionBySlug('fruit');
    expect(v2.collection?._id).toBe(collection?._id);
    const listed = await shopper.collections.queryCollections().eq('name', 'Fruit').find();
    expect(listed.items.map((c) => c.name)).toEqual(['Fruit']);
    const all = await shopper.collections.queryCollections().find();
    expect(all.items.map((c) => c.name).sort()).toEqual(['All Products', 'Fruit']);
    const inFruit = await shopper.products.queryProducts().hasSome('collectionIds', [collection?._id as string]).find();
    expect(inFruit.items.map((p) => p.name)).toEqual(['Fig']);

    const unknown = await t.app.inject({ method: 'POST', url: `/stores/v1/collections/${collection?._id}/productIds`, headers: apiKey(s), payload: { productIds: ['nope'] } });
    expect(unknown.statusCode).toBe(404);
    const missing = await t.app.inject({ method: 'GET', url: '/v2/collections/slug/nothing', headers: apiKey(s) });
    expect(missing.json().details.applicationError.code).toBe('COLLECTION_NOT_FOUND');
    await admin.products.deleteCollection(collection?._id as string);
    await expect(shopper.collections.getCollectionBySlug('fruit')).rejects.toMatchObject({ details: { applicationError: { code: 'COLLECTION_NOT_FOUND' } } });
  });
});

