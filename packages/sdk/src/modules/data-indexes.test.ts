import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeyStrategy } from '../auth/api-key.js';
import { createClient } from '../client.js';
import { startReceiver, type Receiver } from '../test-support/receiver.js';
import { backOffice } from './back-office.js';
import { dataIndexes } from './data-indexes.js';

let receiver: Receiver;
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(() => receiver.close());

const client = () => createClient({ modules: { dataIndexes, backOffice }, auth: ApiKeyStrategy({ apiKey: 'K' }), baseUrl: receiver.url });

describe('dataIndexes', () => {
  it('creates, lists and drops at the @wix/data indexes paths', async () => {
    const index = { name: 'by title', fields: [{ path: 'title', order: 'ASC' as const }], unique: false };
    receiver.reply((request) => ({ body: request.method === 'POST' ? { index: { ...index, status: 'ACTIVE' } } : request.method === 'GET' ? { indexes: [{ ...index, status: 'ACTIVE' }] } : {} }));
    const api = client().dataIndexes;
    expect(await api.createIndex('notes', index)).toEqual({ ...index, status: 'ACTIVE' });
    expect((await api.listIndexes('notes')).indexes).toEqual([{ ...index, status: 'ACTIVE' }]);
    await api.dropIndex('notes', 'by title');
    const [create, list, drop] = receiver.requests;
    expect([create.method, create.path, create.body]).toEqual(['POST', '/_api/cloud-data/v2/indexes', { dataCollectionId: 'notes', index }]);
    expect([list.method, list.path, list.query.get('dataCollectionId')]).toEqual(['GET', '/_api/cloud-data/v2/indexes', 'notes']);
    expect([drop.method, drop.path, drop.query.get('dataCollectionId'), drop.query.get('indexName')]).toEqual(['DELETE', '/_api/cloud-data/v2/indexes', 'notes', 'by title']);
  });
});

describe('backOffice.queryProducts', () => {
  it('posts the query with the stock filter and reads products with SDK ids', async () => {
    receiver.reply(() => ({ body: { products: [{ id: 'p1', name: 'Beanie' }], metadata: { count: 1, offset: 0, total: 1 } } }));
    const body = await client().backOffice.queryProducts({ filter: { visible: true }, paging: { limit: 25 } }, { stock: 'OUT_OF_STOCK' });
    expect(body).toEqual({ products: [{ _id: 'p1', name: 'Beanie' }], metadata: { count: 1, offset: 0, total: 1 } });
    expect(receiver.requests[0]).toMatchObject({ method: 'POST', path: '/bodega/v1/products/query', body: { query: { filter: { visible: true }, paging: { limit: 25 } }, stock: 'OUT_OF_STOCK' } });
  });
});
