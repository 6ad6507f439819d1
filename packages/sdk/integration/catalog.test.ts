/**
 * `products` and `storesCollections` of @bodega/sdk against a real server: product and
 * collection writes with an API key, storefront reads as a visitor, the offset query builder
 * driven by `metadata.total`, and the GET → POST fallback beyond 4000 characters on the same path.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, OAuthStrategy, products, storesCollections, type Product } from '@bodega/sdk';
import { recordingFetch, type RecordedRequest } from './recording-fetch.js';
import { adminClient, rejection, startServer, type Server, type TestSite } from './support.js';

let server: Server;
let site: TestSite;
let admin: ReturnType<typeof adminOf>;
let shopper: ReturnType<typeof shopperOf>;
let requests: RecordedRequest[];

const adminOf = (s: TestSite) => adminClient(server.origin, s, { products, storesCollections });
function shopperOf(s: TestSite) {
  const recorder = recordingFetch();
  requests = recorder.requests;
  return createClient({
    baseUrl: server.origin,
    auth: OAuthStrategy({ clientId: s.clientId }),
    modules: { products, collections: storesCollections },
    fetch: recorder.fetch,
  });
}

const created: Product[] = [];

beforeAll(async () => {
  server = await startServer();
  site = await server.createSite();
  admin = adminOf(site);
  shopper = shopperOf(site);
  for (const [name, price] of [['Apple', 3], ['Banana', 1], ['Cherry', 7], ['Date', 4], ['Elderberry', 9]] as const) {
    const { product } = await admin.products.createProduct({ name, productType: 'physical', priceData: { price } });
    if (product) created.push(product);
  }
});
afterAll(() => server.close());

const names = (list: readonly { name?: string }[]) => list.map((p) => p.name);

describe('products', () => {
  it('creates products (wire keys renamed) and gets one as a visitor', async () => {
    expect(created).toHaveLength(5);
    const [apple] = created;
    expect(apple).toMatchObject({ name: 'Apple', slug: 'apple', visible: true, priceData: { price: 3, currency: 'USD' } });
    expect(apple._id).toEqual(expect.any(String));
    const { product } = await shopper.products.getProduct(apple._id ?? '');
    expect(product?._id).toBe(apple._id);
    expect(product?.lastUpdated).toBeInstanceOf(Date);
    const missing = await rejection(shopper.products.getProduct(randomUUID()));
    expect(missing.status).toBe(404);
  });

  it('pages the builder by metadata.total: totalCount, hasNext, next, prev', async () => {
    const first = await shopper.products.queryProducts().ascending('name').limit(2).find();
    expect(names(first.items)).toEqual(['Apple', 'Banana']);
    expect([first.totalCount, first.totalPages, first.hasNext(), first.hasPrev()]).toEqual([5, 3, true, false]);
    const second = await first.next();
    expect(names(second.items)).toEqual(['Cherry', 'Date']);
    const third = await second.next();
    expect(names(third.items)).toEqual(['Elderberry']);
    expect(third.hasNext()).toBe(false);
    await expect(third.next()).rejects.toThrow('There is no next page');
    expect(names((await third.prev()).items)).toEqual(['Cherry', 'Date']);

    const cheap = await shopper.products.queryProducts().lt('priceData.price', 4).descending('name').find();
    expect(names(cheap.items)).toEqual(['Banana', 'Apple']);
    const direct = await shopper.products.queryProducts({ filter: { name: { $startsWith: 'E' } }, paging: { limit: 10 } });
    expect(names(direct.products)).toEqual(['Elderberry']);
    expect(direct.metadata?.total).toBe(1);
  });

  it('falls back from GET to POST on the same path beyond 4000 characters, with the same answer', async () => {
    const ids = [...created.map((p) => p._id ?? ''), ...Array.from({ length: 120 }, () => randomUUID())];
    const before = requests.length;
    const short = await shopper.products.queryProducts().in('_id', ids.slice(0, 5)).ascending('name').find();
    const long = await shopper.products.queryProducts().in('_id', ids).ascending('name').find();
    const sent = requests.slice(before).filter((r) => r.path.endsWith('/query-platformized'));
    expect(sent.map((r) => r.method)).toEqual(['GET', 'POST']);
    expect(sent[0].query.startsWith('.r=')).toBe(true);
    expect(sent[1].path).toBe('/_api/catalog-reader-server/v1/products/query-platformized');
    expect(sent[1].query).toBe('');
    expect(JSON.parse(sent[1].body ?? '{}').query.filter).toEqual({ id: { $in: ids } });
    expect(names(long.items)).toEqual(names(short.items));
    expect(long.totalCount).toBe(5);
  });

  it('updates, reads options availability and variants, and deletes', async () => {
    const { product } = await admin.products.createProduct({
      name: 'Hoodie', productType: 'physical', priceData: { price: 50 },
      productOptions: [{ name: 'Color', choices: [{ value: 'Black', description: 'Black' }, { value: 'Grey', description: 'Grey' }] }],
    });
    const id = product?._id ?? '';
    const updated = await admin.products.updateProduct(id, { description: 'Warm', manageVariants: true });
    expect(updated.product).toMatchObject({ _id: id, description: 'Warm', manageVariants: true });
    const variants = await admin.products.updateProductVariants(id, [{ choices: { Color: 'Grey' }, price: 55 }]);
    expect(variants.variants.length).toBeGreaterThan(0);
    const availability = await shopper.products.getProductOptionsAvailability(id, { Color: 'Grey' });
    expect(availability).toMatchObject({ availableForPurchase: true, selectedVariant: { price: { price: 55 } } });
    const queried = await admin.products.queryProductVariants(id, { choices: { Color: 'Grey' } });
    expect(queried.variants).toHaveLength(1);

    const refused = await rejection(shopper.products.updateProduct(id, { name: 'Hacked' }));
    expect(refused.status).toBe(403);
    const invalid = await rejection(admin.products.createProduct({ name: '', productType: 'physical', priceData: { price: 1 } }));
    expect(invalid.status).toBe(400);
    expect(invalid.message).toMatch(/^INVALID_ARGUMENT: "product\.name" /);

    await admin.products.deleteProduct(id);
    expect((await rejection(shopper.products.getProduct(id))).status).toBe(404);
  });
});

describe('collections', () => {
  it('creates a collection, adds and removes products, and reads it through both modules', async () => {
    const s = await server.createSite();
    const a = adminOf(s);
    const fig = (await a.products.createProduct({ name: 'Fig', productType: 'physical', priceData: { price: 2 } })).product?._id ?? '';
    const grape = (await a.products.createProduct({ name: 'Grape', productType: 'physical', priceData: { price: 2 } })).product?._id ?? '';
    const { collection } = await a.products.createCollection({ name: 'Fruit' });
    const id = collection?._id ?? '';
    expect(collection).toMatchObject({ name: 'Fruit', slug: 'fruit' });
    await a.products.addProductsToCollection(id, [fig, grape]);
    await a.products.removeProductsFromCollection(id, [grape]);
    const renamed = await a.products.updateCollection(id, { name: 'Fresh fruit' });
    expect(renamed.collection?.name).toBe('Fresh fruit');

    const visitor = shopperOf(s);
    expect((await visitor.products.getCollectionBySlug('fruit')).collection).toMatchObject({ _id: id, numberOfProducts: 1 });
    expect((await visitor.collections.getCollectionBySlug('fruit')).collection?._id).toBe(id);
    expect((await visitor.collections.getCollection(id)).name).toBe('Fresh fruit');
    const page = await visitor.collections.queryCollections().ascending('name').limit(1).find();
    expect(page.totalCount).toBe(2);
    expect(page.hasNext()).toBe(true);
    expect(names((await page.next()).items)).toEqual(['Fresh fruit']);
    const direct = await visitor.collections.queryCollections({ filter: { name: 'Fresh fruit' } });
    expect(direct.collections.map((c) => c._id)).toEqual([id]);
    expect(direct.metadata?.total).toBe(1);
    const inFruit = await visitor.products.queryProducts().hasSome('collectionIds', [id]).find();
    expect(names(inFruit.items)).toEqual(['Fig']);

    // The stores collections query falls back to POST /v2/collections/query too.
    const before = requests.length;
    const many = await visitor.collections.queryCollections().in('_id', [id, ...Array.from({ length: 120 }, () => randomUUID())]).find();
    expect(names(many.items)).toEqual(['Fresh fruit']);
    const sent = requests.slice(before).filter((r) => r.path === '/v2/collections/query');
    expect(sent.map((r) => r.method)).toEqual(['POST']);

    await a.products.deleteCollection(id);
    const gone = await rejection(visitor.collections.getCollectionBySlug('fruit'));
    expect([gone.status, gone.details.applicationError?.code]).toEqual([404, 'COLLECTION_NOT_FOUND']);
  });
});
