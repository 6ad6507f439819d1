import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeyStrategy } from '../auth/api-key.js';
import { createClient } from '../client.js';
import { decodeR, startReceiver, type Receiver } from '../test-support/receiver.js';
import { dataCollections } from './data-collections.js';
import { products } from './products.js';
import { storesCollections } from './stores-collections.js';

let receiver: Receiver;
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(() => receiver.close());

const client = () =>
  createClient({
    modules: { products, storesCollections, dataCollections },
    auth: ApiKeyStrategy({ apiKey: 'K' }),
    baseUrl: receiver.url,
  });

describe('products', () => {
  it('queryProducts builder sends GET .r with filter, sort and paging and reads metadata.total', async () => {
    receiver.reply(() => ({
      body: { products: [{ id: 'p1', name: 'Shoe', priceData: { price: 10 } }], metadata: { total: 13 }, totalResults: 99 },
    }));
    const page = await client()
      .products.queryProducts()
      .eq('collectionIds', 'c1')
      .hasSome('productType', ['physical'])
      .ascending('name')
      .limit(12)
      .find();
    const [request] = receiver.requests;
    expect(request.method).toBe('GET');
    expect(request.path).toBe('/_api/catalog-reader-server/v1/products/query-platformized');
    expect(decodeR(request)).toEqual({
      query: {
        filter: { $and: [{ collectionIds: 'c1' }, { productType: { $hasSome: ['physical'] } }] },
        sort: [{ fieldName: 'name', order: 'ASC' }],
        paging: { limit: 12, offset: 0 },
      },
    });
    expect(page.items).toEqual([{ _id: 'p1', name: 'Shoe', priceData: { price: 10 } }]);
    expect(page.totalCount).toBe(13);
    expect(page.totalPages).toBe(2);
    expect(page.hasNext()).toBe(true);
  });

  it('queryProducts with a query object returns the whole body', async () => {
    receiver.reply(() => ({ body: { products: [], metadata: { total: 0 } } }));
    const body = await client().products.queryProducts({ paging: { limit: 5 } });
    expect(body).toEqual({ products: [], metadata: { total: 0 } });
    expect(decodeR(receiver.requests[0])).toEqual({ query: { paging: { limit: 5 } } });
  });

  it('reads from the catalog reader and writes to the catalog server', async () => {
    receiver.reply(() => ({ body: { product: { id: 'p1' } } }));
    const p = client().products;
    expect(await p.getProduct('p1')).toEqual({ product: { _id: 'p1' } });
    await p.createProduct({ name: 'Shoe', priceData: { price: 10 } });
    await p.updateProduct('p1', { name: 'Boot' });
    await p.deleteProduct('p1');
    await p.createCollection({ name: 'Shoes' });
    await p.addProductsToCollection('c1', ['p1']);
    expect(receiver.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /_api/catalog-reader-server/v1/products/p1?id=p1',
      'POST /_api/catalog-server/v1/products',
      'PATCH /_api/catalog-server/v1/products/p1',
      'DELETE /_api/catalog-server/v1/products/p1?id=p1',
      'POST /_api/catalog-server/v1/collections',
      'POST /_api/catalog-server/v1/collections/c1/productIds',
    ]);
    expect(receiver.requests[2].body).toEqual({ product: { name: 'Boot', id: 'p1' } });
  });
});

describe('storesCollections', () => {
  it('queries and reads at the verbatim /v2/collections paths', async () => {
    receiver.reply(() => ({ body: { collections: [{ id: 'c1' }], collection: { id: 'c1' }, metadata: { total: 1 } } }));
    const s = client().storesCollections;
    const page = await s.queryCollections().eq('_id', 'c1').find();
    expect(page.items).toEqual([{ _id: 'c1' }]);
    expect(await s.getCollection('c1')).toEqual({ _id: 'c1' });
    await s.getCollectionBySlug('all');
    expect(receiver.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v2/collections/query',
      'GET /v2/collections/c1',
      'GET /v2/collections/slug/all',
    ]);
    expect(decodeR(receiver.requests[0])).toEqual({
      query: { filter: { id: 'c1' }, sort: [], paging: { limit: 50, offset: 0 } },
    });
  });
});

describe('dataCollections', () => {
  it('uses the cloud-data collection paths with generic renaming', async () => {
    receiver.reply(() => ({ body: { collection: { id: 'Products', displayName: 'P' }, collections: [] } }));
    const d = client().dataCollections;
    expect(await d.getDataCollection('Products')).toEqual({ _id: 'Products', displayName: 'P' });
    await d.listDataCollections({ paging: { limit: 10, offset: 0 } });
    await d.createDataCollection({ _id: 'Notes', fields: [] });
    await d.updateDataCollection({ _id: 'Notes', displayName: 'N' });
    await d.deleteDataCollection('Notes');
    expect(receiver.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /_api/cloud-data/v2/collections/Products?dataCollectionId=Products',
      'GET /_api/cloud-data/v2/collections?paging.limit=10&paging.offset=0',
      'POST /_api/cloud-data/v2/collections',
      'PUT /_api/cloud-data/v2/collections',
      'DELETE /_api/cloud-data/v2/collections/Notes?dataCollectionId=Notes',
    ]);
    expect(receiver.requests[2].body).toEqual({ collection: { id: 'Notes', fields: [] } });
  });
});
