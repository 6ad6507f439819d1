import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { apiKeyClient, serveForSdk, type SdkServer } from '../../test/data-sdk.js';

let t: TestApp;
let site: TestSite;
let server: SdkServer;
let admin: ReturnType<typeof apiKeyClient>;

const ANYONE_READS = { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' } as const;

beforeAll(async () => {
  t = await testApp();
  site = await t.createSite();
  server = await serveForSdk(t.app);
  admin = apiKeyClient(site);
  await admin.collections.createDataCollection({ _id: 'Authors', fields: [{ key: 'name', type: 'TEXT' }], permissions: ANYONE_READS });
  await admin.collections.createDataCollection({
    _id: 'Books',
    fields: [
      { key: 'title', type: 'TEXT' },
      { key: 'authors', type: 'MULTI_REFERENCE', typeMetadata: { multiReference: { referencedCollectionId: 'Authors' } } },
      { key: 'publisher', type: 'REFERENCE', typeMetadata: { reference: { referencedCollectionId: 'Authors' } } },
    ],
    permissions: ANYONE_READS,
  });
  await admin.items.bulkInsert('Authors', [
    { _id: 'a1', name: 'Ada' },
    { _id: 'a2', name: 'Brian' },
    { _id: 'a3', name: 'Cleo' },
  ]);
  await admin.items.bulkInsert('Books', [
    { _id: 'b1', title: 'One', publisher: 'a3' },
    { _id: 'b2', title: 'Two' },
  ]);
});

afterAll(async () => {
  server.restore();
  await t.close();
});

const names = (items: readonly unknown[]) => items.map((item) => (item as { name?: unknown }).name);

describe('references through @wix/data', () => {
  it('inserts references and queries them in the order they were added, with a total', async () => {
    await admin.items.insertReference('Books', 'authors', 'b1', ['a2', 'a1']);
    const result = await admin.items.queryReferenced('Books', 'b1', 'authors', { returnTotalCount: true });
    expect(names(result.items)).toEqual(['Brian', 'Ada']);
    expect(result.totalCount).toBe(2);
    const descending = await admin.items.queryReferenced('Books', 'b1', 'authors', { order: 'desc' });
    expect(names(descending.items)).toEqual(['Ada', 'Brian']);
  });

  it('pages referenced items by offset', async () => {
    await admin.items.insertReference('Books', 'authors', 'b2', ['a1', 'a2', 'a3']);
    const first = await admin.items.queryReferenced('Books', 'b2', 'authors', { limit: 2 });
    expect(names(first.items)).toEqual(['Ada', 'Brian']);
    expect(first.hasNext()).toBe(true);
    const second = await first.next();
    expect(names(second.items)).toEqual(['Cleo']);
    expect(second.hasNext()).toBe(false);
  });

  it('tells whether one item references another', async () => {
    expect(await admin.items.isReferenced('Books', 'authors', 'b1', 'a1')).toBe(true);
    expect(await admin.items.isReferenced('Books', 'authors', 'b1', 'a3')).toBe(false);
  });

  it('queries the references of several items with their referring ids', async () => {
    const result = await admin.items.queryReferencedItems('Books', ['b1', 'b2'], 'authors');
    expect(result.results.map((entry) => [entry.referringItemId, entry.item?._id])).toEqual([
      ['b1', 'a2'],
      ['b1', 'a1'],
      ['b2', 'a1'],
      ['b2', 'a2'],
      ['b2', 'a3'],
    ]);
  });

  it('includes references in a query: a multi-reference as a list, a reference as the item', async () => {
    const result = await admin.items.query('Books').include('authors', 'publisher').ascending('_id').find();
    const [one, two] = result.items;
    expect(names(one.authors as unknown[])).toEqual(['Brian', 'Ada']);
    expect(one.publisher).toMatchObject({ _id: 'a3', name: 'Cleo' });
    expect(names(two.authors as unknown[])).toEqual(['Ada', 'Brian', 'Cleo']);
    const limited = await admin.items.query('Books').include('authors', 1).eq('_id', 'b2').find();
    expect(names(limited.items[0].authors as unknown[])).toEqual(['Ada']);
  });

  it('replaces the references of an item', async () => {
    await admin.items.replaceReferences('Books', 'authors', 'b1', ['a3']);
    const result = await admin.items.queryReferenced('Books', 'b1', 'authors');
    expect(names(result.items)).toEqual(['Cleo']);
  });

  it('removes references', async () => {
    await admin.items.removeReference('Books', 'authors', 'b2', 'a2');
    expect(names((await admin.items.queryReferenced('Books', 'b2', 'authors')).items)).toEqual(['Ada', 'Cleo']);
  });

  it('removes the reference rows of a deleted item, on both sides', async () => {
    await admin.items.insert('Authors', { _id: 'gone', name: 'Gone' });
    await admin.items.insert('Books', { _id: 'b3', title: 'Three' });
    await admin.items.insertReference('Books', 'authors', 'b3', ['gone', 'a1']);
    await admin.items.insertReference('Books', 'authors', 'b2', 'gone');
    await admin.items.remove('Authors', 'gone');
    expect(names((await admin.items.queryReferenced('Books', 'b3', 'authors')).items)).toEqual(['Ada']);
    await admin.items.remove('Books', 'b3');
    const rows = await t.db.query(
      `SELECT 1 FROM data_references WHERE site_id = $1 AND (referring_item_id = 'b3' OR referenced_item_id = 'gone')`,
      [site.siteId],
    );
    expect(rows).toHaveLength(0);
  });

  it('refuses references on a field that is not a multi-reference (WDE0020) and to a missing item (WDE0073)', async () => {
    await expect(admin.items.insertReference('Books', 'title', 'b1', 'a1')).rejects.toThrow(/not a multi-reference field/);
    await expect(admin.items.insertReference('Books', 'authors', 'b1', 'nobody')).rejects.toThrow(/Item \[nobody\] does not exist/);
  });
});
