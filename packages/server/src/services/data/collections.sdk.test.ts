import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { apiKeyClient, serveForSdk, tokenClient, type SdkServer } from '../../test/data-sdk.js';
import { compileQuery } from './query-compiler.js';

let t: TestApp;
let site: TestSite;
let server: SdkServer;
let admin: ReturnType<typeof apiKeyClient>;

beforeAll(async () => {
  t = await testApp();
  site = await t.createSite();
  server = await serveForSdk(t.app);
  admin = apiKeyClient(site);
});

afterAll(async () => {
  server.restore();
  await t.close();
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const { details } = error as { details?: { applicationError?: { code?: unknown } } };
    return String(details?.applicationError?.code ?? (error as Error).message);
  }
  return 'no error';
}

/** The PostgreSQL indexes of this site's collection indexes, named in data_indexes. */
async function pgIndexes(): Promise<string[]> {
  const rows = await t.db.query<{ indexdef: string }>(
    `SELECT i.indexdef FROM pg_indexes i JOIN data_indexes d ON i.indexname IN (d.pg_index, d.pg_index || '_q')
     WHERE i.tablename = 'data_items' AND d.site_id = $1 ORDER BY i.indexname`,
    [site.siteId],
  );
  return rows.map((row) => row.indexdef);
}

const FIELD_TYPES = ['TEXT', 'NUMBER', 'BOOLEAN', 'DATE', 'DATETIME', 'URL', 'IMAGE', 'RICH_TEXT', 'OBJECT', 'ARRAY', 'ARRAY_STRING'] as const;

describe('collections through @wix/data', () => {
  it('creates a collection with fields of every listed type, then gets and lists it', async () => {
    const created = await admin.collections.createDataCollection({
      _id: 'Everything',
      displayName: 'Every type',
      fields: [
        ...FIELD_TYPES.map((type) => ({ key: `f${type}`, type })),
        { key: 'ref', type: 'REFERENCE', typeMetadata: { reference: { referencedCollectionId: 'Everything' } } },
        { key: 'refs', type: 'MULTI_REFERENCE', typeMetadata: { multiReference: { referencedCollectionId: 'Everything' } } },
      ],
      permissions: { read: 'ANYONE', insert: 'SITE_MEMBER', update: 'SITE_MEMBER_AUTHOR', remove: 'ADMIN' },
    });
    expect(created).toMatchObject({ _id: 'Everything', displayName: 'Every type', collectionType: 'NATIVE', revision: '1' });
    expect(created?._createdDate).toBeInstanceOf(Date);
    const keys = created?.fields?.map((field) => [field.key, field.type, field.systemField]);
    expect(keys?.slice(0, 4)).toEqual([['_id', 'TEXT', true], ['_createdDate', 'DATETIME', true], ['_updatedDate', 'DATETIME', true], ['_owner', 'TEXT', true]]);
    expect(keys).toContainEqual(['refs', 'MULTI_REFERENCE', false]);
    expect(await admin.collections.getDataCollection('Everything')).toEqual(created);
    const listed = await admin.collections.listDataCollections({ paging: { limit: 10, offset: 0 } });
    expect(listed.collections?.map((collection) => collection._id)).toContain('Everything');
    expect(listed.pagingMetadata).toMatchObject({ offset: 0, total: expect.any(Number) });
  });

  it('refuses a second collection with the same id (WDE0906) and an unknown field type (WDE0910)', async () => {
    await admin.collections.createDataCollection({ _id: 'Twice' });
    expect(await codeOf(admin.collections.createDataCollection({ _id: 'Twice' }))).toBe('WDE0906');
    expect(await codeOf(admin.collections.createDataCollection({ _id: 'BadField', fields: [{ key: 'x', type: 'COLOUR' as 'TEXT' }] }))).toBe('WDE0910');
  });

  it('updates a collection at its current revision and refuses a stale one', async () => {
    const created = await admin.collections.createDataCollection({ _id: 'Versioned', fields: [{ key: 'a', type: 'TEXT' }] });
    const updated = await admin.collections.updateDataCollection({ ...created, _id: 'Versioned', displayName: 'Renamed', fields: [...(created?.fields ?? []), { key: 'b', type: 'NUMBER' }] });
    expect(updated).toMatchObject({ displayName: 'Renamed', revision: '2' });
    expect(updated?.fields?.filter((field) => !field.systemField).map((field) => field.key)).toEqual(['a', 'b']);
    expect(await codeOf(admin.collections.updateDataCollection({ ...created, _id: 'Versioned' }))).toBe('WDE0907');
  });

  it('adds, changes and removes one field', async () => {
    await admin.collections.createDataCollection({ _id: 'Fields' });
    await admin.collections.createDataCollectionField('Fields', { field: { key: 'price', type: 'NUMBER' } });
    await admin.collections.updateDataCollectionField('Fields', { field: { key: 'price', type: 'TEXT', displayName: 'Price' } });
    let collection = await admin.collections.getDataCollection('Fields');
    expect(collection?.fields?.find((field) => field.key === 'price')).toMatchObject({ type: 'TEXT', displayName: 'Price' });
    await admin.collections.deleteDataCollectionField('Fields', { fieldKey: 'price' });
    collection = await admin.collections.getDataCollection('Fields');
    expect(collection?.fields?.some((field) => field.key === 'price')).toBe(false);
  });

  it('stores unknown item fields as given: the schema is not enforced', async () => {
    await admin.collections.createDataCollection({ _id: 'Loose', fields: [{ key: 'n', type: 'NUMBER' }], permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' } });
    const item = await admin.items.insert('Loose', { n: 'not a number', other: { any: ['thing'] } });
    expect(item).toMatchObject({ n: 'not a number', other: { any: ['thing'] } });
  });

  it('deletes a collection with its items, then answers WDE0025', async () => {
    await admin.collections.createDataCollection({ _id: 'Doomed' });
    await admin.items.insert('Doomed', { _id: 'x' });
    await admin.collections.deleteDataCollection('Doomed');
    expect(await codeOf(admin.collections.getDataCollection('Doomed'))).toBe('WDE0025');
    const rows = await t.db.query(`SELECT 1 FROM data_items WHERE site_id = $1 AND collection_id = 'Doomed'`, [site.siteId]);
    expect(rows).toHaveLength(0);
  });

  it('reads collections from a visitor through edge.wixapis.com', async () => {
    const visitor = tokenClient(site);
    expect((await visitor.collections.getDataCollection('Everything'))?._id).toBe('Everything');
  });
});

describe('indexes through @wix/data', () => {
  beforeAll(async () => {
    await admin.collections.createDataCollection({ _id: 'Indexed', permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' } });
    const items = Array.from({ length: 300 }, (_, i) => ({ _id: `i${String(i).padStart(3, '0')}`, category: `c${i % 10}`, price: i, sku: `sku-${i}` }));
    await admin.items.bulkInsert('Indexed', items);
  });

  it('creates an expression index on two fields that a filtered, sorted query uses', async () => {
    const index = await admin.indexes.createIndex('Indexed', { name: 'by category and price', fields: [{ path: 'category' }, { path: 'price', order: 'DESC' }] });
    expect(index).toMatchObject({ name: 'by category and price', status: 'ACTIVE', unique: false });
    expect(await pgIndexes()).toContainEqual(expect.stringMatching(/\(site_id, collection_id, \(\(data -> 'category'::text\)\), \(\(data -> 'price'::text\)\) DESC, item_id DESC\)$/));
    const listed = await admin.indexes.listIndexes('Indexed');
    expect(listed.indexes?.map((entry) => entry.name)).toEqual(['by category and price']);
    const plan = compileQuery(site.siteId, 'Indexed', { filter: { category: 'c3' }, sort: [{ fieldName: 'price', order: 'DESC' }], paging: { limit: 5 } });
    const explained = await t.db.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      return tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${plan.sql.sql}`, plan.sql.params);
    });
    const text = explained.map((row) => row['QUERY PLAN']).join('\n');
    expect(text).toMatch(/Index Scan using data_ix_/);
    expect(text).not.toMatch(/Sort Key/);
    const page = await admin.items.query('Indexed').eq('category', 'c3').descending('price').limit(3).find();
    expect(page.items.map((item) => item.price)).toEqual([293, 283, 273]);
  });

  it('enforces a unique index item by item', async () => {
    const index = await admin.indexes.createIndex('Indexed', { name: 'sku', unique: true, fields: [{ path: 'sku' }] });
    expect(index?.status).toBe('ACTIVE');
    expect(await codeOf(admin.items.insert('Indexed', { sku: 'sku-1' }))).toBe('WDE0912');
    const result = await admin.items.bulkInsert('Indexed', [{ _id: 'new1', sku: 'sku-new' }, { _id: 'new2', sku: 'sku-2' }]);
    expect(result.inserted).toBe(1);
    expect(result.errors.map((error) => error.code)).toEqual(['WDE0912']);
    await admin.collections.createDataCollection({ _id: 'Unconstrained' });
    const elsewhere = await admin.items.bulkInsert('Unconstrained', [{ sku: 'sku-1' }, { sku: 'sku-1' }]);
    expect(elsewhere.inserted).toBe(2);
  });

  it('fails a unique index over duplicates with WDE0113', async () => {
    const index = await admin.indexes.createIndex('Indexed', { name: 'category unique', unique: true, fields: [{ path: 'category' }] });
    expect(index).toMatchObject({ status: 'FAILED', failure: { code: 'WDE0113' } });
    expect((await pgIndexes()).filter((def) => def.includes('UNIQUE'))).toHaveLength(1);
    expect((await pgIndexes()).some((def) => def.includes("'category'") && def.includes('UNIQUE'))).toBe(false);
  });

  it('drops an index', async () => {
    const [{ pg_index: name }] = await t.db.query<{ pg_index: string }>(
      `SELECT pg_index FROM data_indexes WHERE site_id = $1 AND index_name = 'by category and price'`,
      [site.siteId],
    );
    await admin.indexes.dropIndex('Indexed', 'by category and price');
    expect(await t.db.query('SELECT 1 FROM pg_indexes WHERE indexname = $1', [name])).toEqual([]);
    expect(await codeOf(admin.indexes.dropIndex('Indexed', 'by category and price'))).toBe('WDE0911');
  });

  it('drops the indexes of a deleted collection', async () => {
    const names = (await t.db.query<{ pg_index: string }>('SELECT pg_index FROM data_indexes WHERE site_id = $1', [site.siteId])).map((row) => row.pg_index);
    expect(names.length).toBeGreaterThan(0);
    await admin.collections.deleteDataCollection('Indexed');
    const left = await t.db.query(`SELECT indexname FROM pg_indexes WHERE tablename = 'data_items' AND indexname LIKE ANY ($1::text[])`, [names.map((name) => `${name}%`)]);
    expect(left).toEqual([]);
  });
});
