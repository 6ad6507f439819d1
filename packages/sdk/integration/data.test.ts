/**
 * `items` and `dataCollections` of @bodega/sdk against a real server: every item call, the
 * GET `.r` / POST choice around 2048 characters, dates both ways, WDE0073 → null, bulk skips,
 * 413 → WDE0109, cursor paging both ways, aggregate, distinct, search, references, async jobs, and
 * data collection CRUD.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodegaError, createClient, ApiKeyStrategy, dataCollections, items, type DataItem } from '@bodega/sdk';
import { recordingFetch, type RecordedRequest } from './recording-fetch.js';
import { freePort } from '../../server/src/test/sign-in.js';
import { poll, rejection, startServer, visitorClient, type Server, type TestSite } from './support.js';

let server: Server;
let site: TestSite;
let requests: RecordedRequest[];
let admin: ReturnType<typeof adminWithRecorder>;

function adminWithRecorder() {
  const recorder = recordingFetch();
  requests = recorder.requests;
  return createClient({
    baseUrl: server.origin,
    auth: ApiKeyStrategy({ apiKey: site.apiKey, siteId: site.siteId }),
    modules: { items, dataCollections },
    fetch: recorder.fetch,
  });
}

const ANYONE = { read: 'ANYONE', insert: 'ANYONE', update: 'ANYONE', remove: 'ANYONE' } as const;

beforeAll(async () => {
  server = await startServer();
  site = await server.createSite();
  admin = adminWithRecorder();
  await admin.dataCollections.createDataCollection({
    _id: 'Notes',
    displayName: 'Notes',
    fields: [
      { key: 'title', type: 'TEXT' },
      { key: 'price', type: 'NUMBER' },
      { key: 'category', type: 'TEXT' },
      { key: 'when', type: 'DATETIME' },
    ],
    permissions: ANYONE,
  });
});
afterAll(() => server.close());

/** A fresh collection per test, so counts and pages do not depend on other tests. */
let collectionCounter = 0;
async function freshCollection(extraFields: Record<string, unknown>[] = []): Promise<string> {
  const id = `Things${++collectionCounter}`;
  await admin.dataCollections.createDataCollection({
    _id: id,
    fields: [{ key: 'title', type: 'TEXT' }, { key: 'price', type: 'NUMBER' }, { key: 'category', type: 'TEXT' }, ...extraFields],
    permissions: ANYONE,
  });
  return id;
}

const titles = (list: readonly DataItem[]) => list.map((item) => item.title);

describe('data collections', () => {
  it('creates, gets, lists, updates and deletes a collection', async () => {
    const created = await admin.dataCollections.createDataCollection({
      _id: 'Crud', displayName: 'Crud', fields: [{ key: 'name', type: 'TEXT' }], permissions: ANYONE,
    });
    expect(created._id).toBe('Crud');
    const got = await admin.dataCollections.getDataCollection('Crud');
    expect(got).toMatchObject({ _id: 'Crud', displayName: 'Crud' });
    const list = await admin.dataCollections.listDataCollections({ paging: { limit: 100, offset: 0 } });
    expect(list.collections.map((c) => c._id)).toEqual(expect.arrayContaining(['Crud', 'Notes']));
    const updated = await admin.dataCollections.updateDataCollection({
      ...got, displayName: 'Crud renamed', fields: [{ key: 'name', type: 'TEXT' }, { key: 'size', type: 'NUMBER' }],
    });
    expect(updated.displayName).toBe('Crud renamed');
    expect(updated.fields?.map((f) => f.key)).toEqual(expect.arrayContaining(['name', 'size']));
    await admin.dataCollections.deleteDataCollection('Crud');
    const gone = await rejection(admin.dataCollections.getDataCollection('Crud'));
    expect(gone.status).toBe(404);
    expect(gone.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('single items', () => {
  it('insert, get, update, save, patch (both forms), remove and truncate; dates round-trip', async () => {
    const when = new Date('2024-05-01T10:00:00.000Z');
    const inserted = await admin.items.insert('Notes', { title: 'first', price: 5, when, nested: { at: when, list: [when] } });
    expect(inserted._id).toEqual(expect.any(String));
    expect(inserted._createdDate).toBeInstanceOf(Date);
    expect(inserted.when).toEqual(when);
    const id = inserted._id ?? '';
    const got = await admin.items.get('Notes', id);
    expect(got).toEqual(inserted);
    // Options: scalars as query parameters; a nested one (showDrafts) turns the GET into one `.r`.
    const sent = requests.length;
    expect(await admin.items.get('Notes', id, { consistentRead: true, language: 'en' })).toEqual(inserted);
    expect(await admin.items.get('Notes', id, { showDrafts: true })).toEqual(inserted);
    const [plain, encoded] = requests.slice(sent);
    expect(plain.query).toContain('consistentRead=true');
    expect(encoded.query.startsWith('.r=')).toBe(true);
    expect((got?.nested as { at: Date; list: Date[] }).list[0]).toEqual(when);

    const updated = await admin.items.update('Notes', { _id: id, title: 'second', price: 6 });
    expect(updated).toMatchObject({ _id: id, title: 'second', price: 6, _createdDate: inserted._createdDate });
    expect(updated.when).toBeUndefined();
    const saved = await admin.items.save('Notes', { _id: id, title: 'third', price: 7 });
    expect(saved.title).toBe('third');
    const savedNew = await admin.items.save('Notes', { _id: 'saved-new', title: 'new' });
    expect(savedNew._id).toBe('saved-new');

    const patched = await admin.items.patch('Notes', id).setField('title', 'fourth').incrementField('price', 3).appendToArray('tags', 'a').run();
    expect(patched).toMatchObject({ title: 'fourth', price: 10, tags: ['a'] });
    const direct = await admin.items.patch('Notes', id, [
      { fieldPath: 'tags', action: 'REMOVE_FROM_ARRAY', value: 'a' },
      { fieldPath: 'title', action: 'REMOVE_FIELD' },
    ]);
    expect(direct.tags).toEqual([]);
    expect(direct.title).toBeUndefined();
    // A condition that does not hold.
    const conditional = await rejection(admin.items.update('Notes', { _id: id, title: 'x' }, { condition: admin.items.filter().eq('price', 999) }));
    expect(conditional.status).toBeGreaterThanOrEqual(400);

    const removed = await admin.items.remove('Notes', id);
    expect(removed?._id).toBe(id);
    expect(await admin.items.get('Notes', id)).toBeNull();
    expect(await admin.items.remove('Notes', id)).toBeNull();

    await admin.items.truncate('Notes');
    expect(await admin.items.count('Notes')).toBe(0);
  });

  it('refuses before any request (WDE checks) and maps server errors', async () => {
    const sent = requests.length;
    await expect(admin.items.get('Notes', 42 as unknown as string)).rejects.toMatchObject({ code: 'WDE0002' });
    await expect(admin.items.update('Notes', { title: 'no id' })).rejects.toMatchObject({ code: 'WDE0007' });
    await expect(admin.items.query('Notes').limit(0).find()).rejects.toMatchObject({ code: 'WDE0033' });
    await expect(admin.items.query('Notes', { filter: { title: { $regex: 'a' } } })).rejects.toMatchObject({ code: 'WDE0070' });
    await expect(admin.items.bulkRemove('Notes', Array.from({ length: 1001 }, (_, i) => `id${i}`))).rejects.toMatchObject({ code: 'WDE0069' });
    expect(requests.length).toBe(sent);

    const duplicate = await admin.items.insert('Notes', { _id: 'dup', title: 'a' });
    const exists = await rejection(admin.items.insert('Notes', { _id: duplicate._id, title: 'b' }));
    expect(exists.details.applicationError?.code).toBe('WDE0074');
    expect(exists.message).toBe(exists.details.applicationError?.description);
    expect(exists.requestId).toMatch(/^[0-9a-f-]{36}$/);
    const missing = await rejection(admin.items.get('NoSuchCollection', 'x'));
    expect(missing.status).toBe(404);
    expect(String(missing.details.applicationError?.code)).toMatch(/^WDE\d{4}$/);
    await admin.items.remove('Notes', 'dup');
  });

  it('answers 413 with WDE0109: Payload is too large.', async () => {
    const big = 'x'.repeat(1024 * 1024);
    const error = await rejection(admin.items.bulkInsert('Notes', Array.from({ length: 10 }, (_, i) => ({ _id: `big${i}`, title: big }))));
    expect([error.message, error.code, error.status]).toEqual(['WDE0109: Payload is too large.', 'WDE0109', 413]);
  });
});

describe('bulk calls', () => {
  it('count inserted/updated/removed and skip WDE0074 (insert) and WDE0073 (update, patch, remove)', async () => {
    const coll = await freshCollection();
    const first = await admin.items.bulkInsert(coll, [{ _id: 'a', title: 'A' }, { _id: 'b', title: 'B' }]);
    expect(first).toMatchObject({ inserted: 2, skipped: 0, errors: [], insertedItemIds: ['a', 'b'] });
    const again = await admin.items.bulkInsert(coll, [{ _id: 'a', title: 'A2' }, { _id: 'c', title: 'C' }]);
    expect(again).toMatchObject({ inserted: 1, skipped: 1, errors: [], insertedItemIds: ['c'] });
    const overridden = await admin.items.bulkInsert(coll, [{ _id: 'a', title: 'A3' }], { overrideExisting: true });
    expect(overridden).toMatchObject({ updated: 1, updatedItemIds: ['a'] });
    const saved = await admin.items.bulkSave(coll, [{ _id: 'a', title: 'A4' }, { _id: 'd', title: 'D' }]);
    expect(saved).toMatchObject({ inserted: 1, updated: 1 });
    const updated = await admin.items.bulkUpdate(coll, [{ _id: 'a', title: 'A5' }, { _id: 'ghost', title: 'G' }]);
    expect(updated).toMatchObject({ updated: 1, skipped: 1, errors: [], updatedItemIds: ['a'] });
    const patched = await admin.items.bulkPatch(coll, ['a', 'b', 'ghost']).incrementField('price', 2).run();
    expect(patched).toMatchObject({ updated: 2, skipped: 1, errors: [] });
    const patchedDirect = await admin.items.bulkPatch(coll, ['a'], [{ fieldPath: 'price', action: 'INCREMENT_FIELD', value: 1 }]);
    expect(patchedDirect.updated).toBe(1);
    expect((await admin.items.get(coll, 'a'))?.price).toBe(3);
    const removed = await admin.items.bulkRemove(coll, ['a', 'b', 'ghost']);
    expect(removed).toMatchObject({ removed: 2, skipped: 1, errors: [], removedItemIds: ['a', 'b'] });
    expect(await admin.items.count(coll)).toBe(2);
  });
});

describe('queries', () => {
  it('sends GET …/items/query?.r= up to 2048 characters and POST beyond, with the same answer', async () => {
    const coll = await freshCollection();
    await admin.items.bulkInsert(coll, [{ title: 'A', price: 1 }, { title: 'B', price: 2 }]);
    const run = (pad: number) => admin.items.query(coll).eq('title', 'A').ne('category', 'x'.repeat(pad)).find();
    const probe = requests.length;
    await run(1);
    const [sample] = requests.slice(probe);
    expect(sample.method).toBe('GET');
    // The `.r` JSON grows by one byte per pad character; its base64url text by 4/3 of that.
    const json = Buffer.from(sample.query.replace(/^\.r=/, ''), 'base64url').toString('utf8');
    const prefix = sample.pathAndQueryLength - Math.ceil((json.length * 4) / 3);
    const lengthFor = (pad: number) => prefix + Math.ceil(((json.length + pad - 1) * 4) / 3);
    let pad = 1;
    while (lengthFor(pad + 1) <= 2048) pad += 1;
    const before = requests.length;
    const atLimit = await run(pad);
    const over = await run(pad + 1);
    const [get, post] = requests.slice(before);
    expect([get.method, get.pathAndQueryLength]).toEqual(['GET', lengthFor(pad)]);
    expect(get.pathAndQueryLength).toBeLessThanOrEqual(2048);
    expect(get.pathAndQueryLength).toBeGreaterThan(2044);
    expect([post.method, post.path, post.query]).toEqual(['POST', `/_api/cloud-data/v2/items/query`, '']);
    expect(titles(atLimit.items)).toEqual(['A']);
    expect(titles(over.items)).toEqual(['A']);
  });

  it('pages by cursor forward and back, with totals; WDE0165/WDE0159 at the ends', async () => {
    const coll = await freshCollection();
    await admin.items.bulkInsert(coll, ['a', 'b', 'c', 'd', 'e'].map((title, i) => ({ title, price: i })));
    const first = await admin.items.query(coll).ascending('title').limit(2).find({ returnTotalCount: true });
    expect(titles(first.items)).toEqual(['a', 'b']);
    expect([first.totalCount, first.totalPages, first.hasNext(), first.hasPrev()]).toEqual([5, 3, true, false]);
    expect(first.cursors.next).toEqual(expect.any(String));
    await expect(first.prev()).rejects.toMatchObject({ code: 'WDE0159' });
    const before = requests.length;
    const second = await first.next();
    const sent = JSON.parse(Buffer.from(requests[before].query.replace(/^\.r=/, ''), 'base64url').toString('utf8')) as {
      query: Record<string, unknown>;
    };
    expect(Object.keys(sent.query).sort()).toEqual(['cursorPaging', 'fields']);
    expect(titles(second.items)).toEqual(['c', 'd']);
    const third = await second.next();
    expect(titles(third.items)).toEqual(['e']);
    expect(third.hasNext()).toBe(false);
    await expect(third.next()).rejects.toMatchObject({ code: 'WDE0165' });
    const back = await third.prev();
    expect(titles(back.items)).toEqual(['c', 'd']);

    // Offset paging with skip, and the direct form with cursorPaging.
    const skipped = await admin.items.query(coll).ascending('title').skip(3).limit(2).find();
    expect(titles(skipped.items)).toEqual(['d', 'e']);
    expect(skipped.currentPage).toBe(1);
    const direct = await admin.items.query(coll, { sort: [{ fieldName: 'title', order: 'ASC' }], cursorPaging: { limit: 2, cursor: first.cursors.next ?? '' } });
    expect(titles(direct.items)).toEqual(['c', 'd']);
    await expect(admin.items.query(coll, { paging: { offset: 1 }, cursorPaging: { cursor: 'x' } })).rejects.toMatchObject({ code: 'WDE0080' });
  });

  it('pages 50 items by default, then by cursor', async () => {
    const coll = await freshCollection();
    await admin.items.bulkInsert(coll, Array.from({ length: 60 }, (_, i) => ({ title: `t${String(i).padStart(2, '0')}`, price: i })));
    const first = await admin.items.query(coll).ascending('title').find();
    expect([first.length, first.pageSize, first.hasNext()]).toEqual([50, 50, true]);
    const second = await first.next();
    expect(titles(second.items)).toEqual(Array.from({ length: 10 }, (_, i) => `t${50 + i}`));
    expect(second.hasNext()).toBe(false);
  });

  it('filters with and/or/not, dates, hasSome; count; fields', async () => {
    const coll = await freshCollection([{ key: 'when', type: 'DATETIME' }]);
    const day = (d: number) => new Date(Date.UTC(2024, 0, d));
    await admin.items.bulkInsert(coll, [
      { title: 'a', price: 1, category: 'x', when: day(1), tags: ['red'] },
      { title: 'b', price: 2, category: 'y', when: day(2), tags: ['blue'] },
      { title: 'c', price: 3, category: 'x', when: day(3), tags: ['red', 'blue'] },
    ]);
    const q = () => admin.items.query(coll).ascending('title');
    expect(titles((await q().gt('when', day(1)).find()).items)).toEqual(['b', 'c']);
    expect(titles((await q().between('price', 1, 3).find()).items)).toEqual(['a', 'b']);
    expect(titles((await q().hasSome('tags', ['red']).find()).items)).toEqual(['a', 'c']);
    expect(titles((await q().eq('category', 'x').or(admin.items.query(coll).eq('price', 2)).find()).items)).toEqual(['a', 'b', 'c']);
    expect(titles((await q().not(admin.items.query(coll).eq('category', 'x')).find()).items)).toEqual(['b']);
    expect(await admin.items.query(coll).eq('category', 'x').count()).toBe(2);
    expect(await admin.items.count(coll, { filter: { price: { $gte: 2 } } })).toBe(2);
    const picked = await q().fields('title').limit(1).find();
    expect(Object.keys(picked.items[0]).filter((k) => !k.startsWith('_'))).toEqual(['title']);
    const when = (await q().eq('title', 'b').find()).items[0].when;
    expect(when).toEqual(day(2));
  });

  it('aggregate (group, sum, count, having), distinct and search', async () => {
    const coll = await freshCollection();
    await admin.items.bulkInsert(coll, [
      { title: 'red shoe', price: 10, category: 'shoes' },
      { title: 'blue shoe', price: 20, category: 'shoes' },
      { title: 'red hat', price: 5, category: 'hats' },
      { title: 'green scarf', price: 7, category: 'scarves' },
    ]);
    const grouped = await admin.items.aggregate(coll).group('category').sum('price').count().ascending('category').run();
    expect(grouped.items.map((r) => [r._id, r.priceSum, r.count])).toEqual([['hats', 5, 1], ['scarves', 7, 1], ['shoes', 30, 2]]);
    const having = await admin.items
      .aggregate(coll)
      .filter(admin.items.filter().gt('price', 5))
      .group('category')
      .max('price', 'top')
      .having(admin.items.filter().gt('top', 8))
      .run();
    expect(having.items.map((r) => [r._id, r.top])).toEqual([['shoes', 20]]);
    await expect(admin.items.aggregate(coll).filter(admin.items.filter()).filter(admin.items.filter()).run()).rejects.toMatchObject({ code: 'WDE0012' });

    const distinct = await admin.items.query(coll).ascending('category').distinct('category');
    expect(distinct.items).toEqual(['hats', 'scarves', 'shoes']);
    const direct = await admin.items.distinct(coll, 'category', { filter: { price: { $gt: 6 } }, order: 'DESC' });
    expect(direct.items).toEqual(['shoes', 'scarves']);

    const found = await admin.items.search(coll).expression('red').ascending('title').run();
    expect(titles(found.items)).toEqual(['red hat', 'red shoe']);
  });
});

describe('references', () => {
  it('insert, query (paged), is-referenced, replace and remove references', async () => {
    await admin.dataCollections.createDataCollection({ _id: 'Authors', fields: [{ key: 'name', type: 'TEXT' }], permissions: ANYONE });
    await admin.dataCollections.createDataCollection({
      _id: 'Books',
      fields: [
        { key: 'title', type: 'TEXT' },
        { key: 'authors', type: 'MULTI_REFERENCE', typeMetadata: { multiReference: { referencedCollectionId: 'Authors' } } },
      ],
      permissions: ANYONE,
    });
    await admin.items.bulkInsert('Authors', [{ _id: 'a1', name: 'Ada' }, { _id: 'a2', name: 'Brian' }, { _id: 'a3', name: 'Cleo' }]);
    await admin.items.insert('Books', { _id: 'b1', title: 'One' });
    await admin.items.insertReference('Books', 'authors', 'b1', ['a2', 'a1', { _id: 'a3' }]);
    const names = (list: readonly DataItem[]) => list.map((item) => item.name);
    const first = await admin.items.queryReferenced('Books', 'b1', 'authors', { limit: 2, returnTotalCount: true });
    expect(names(first.items)).toEqual(['Brian', 'Ada']);
    expect(first.totalCount).toBe(3);
    expect(names((await first.next()).items)).toEqual(['Cleo']);
    expect(await admin.items.isReferenced('Books', 'authors', 'b1', 'a3')).toBe(true);
    await admin.items.removeReference('Books', 'authors', 'b1', 'a3');
    expect(await admin.items.isReferenced('Books', 'authors', { _id: 'b1' }, 'a3')).toBe(false);
    await admin.items.replaceReferences('Books', 'authors', 'b1', ['a3']);
    expect(names((await admin.items.queryReferenced('Books', 'b1', 'authors')).items)).toEqual(['Cleo']);
    const included = await admin.items.query('Books').include('authors').find();
    expect((included.items[0].authors as DataItem[]).map((a) => a.name)).toEqual(['Cleo']);
  });
});

describe('async jobs', () => {
  it('patches and removes by filter, polled to SUCCEEDED', async () => {
    const coll = await freshCollection();
    await admin.items.bulkInsert(coll, [{ title: 'a', price: 1, category: 'x' }, { title: 'b', price: 2, category: 'x' }, { title: 'c', price: 3, category: 'y' }]);
    const waitFor = (jobId: string) =>
      poll(async () => {
        const status = await admin.items.getAsyncJobStatus(jobId);
        if (status.status === 'FAILED') throw new Error(`job ${jobId} failed`);
        return status.status === 'SUCCEEDED' ? status : undefined;
      }, 15_000, `job ${jobId}`);

    const patchJob = await admin.items.asyncPatchByFilter(coll, admin.items.filter().eq('category', 'x'), [
      { fieldPath: 'price', action: 'INCREMENT_FIELD', value: 10 },
    ]);
    expect(patchJob.jobId).toEqual(expect.any(String));
    expect((await waitFor(patchJob.jobId)).successCount).toBe(2);
    expect((await admin.items.query(coll).ascending('title').find()).items.map((i) => i.price)).toEqual([11, 12, 3]);

    const removeJob = await admin.items.asyncRemoveByFilter(coll, { category: 'y' });
    expect((await waitFor(removeJob.jobId)).successCount).toBe(1);
    expect(await admin.items.count(coll)).toBe(2);
    await expect(admin.items.getAsyncJobStatus('')).rejects.toMatchObject({ code: 'WDE0094' });
  });
});

describe('no server', () => {
  it('reports a refused connection as WDE0054, an unknown error', async () => {
    const nowhere = createClient({ baseUrl: `http://127.0.0.1:${await freePort()}`, auth: ApiKeyStrategy({ apiKey: 'k' }), modules: { items } });
    const error = await rejection(nowhere.items.get('Notes', 'x'));
    expect([error.message, error.code, error.status]).toEqual(['WDE0054: Internal error: unknown error.', 'WDE0054', undefined]);
  });
});

describe('a visitor client', () => {
  it('reads and writes a collection open to anyone, and is refused an admin-only one', async () => {
    const visitor = visitorClient(server.origin, site, { items });
    const inserted = await visitor.items.insert('Notes', { title: 'by visitor' });
    expect((await visitor.items.get('Notes', inserted._id ?? ''))?.title).toBe('by visitor');
    await admin.dataCollections.createDataCollection({
      _id: 'Private', fields: [{ key: 'title', type: 'TEXT' }],
      permissions: { read: 'ADMIN', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' },
    });
    const refused = await rejection(visitor.items.insert('Private', { title: 'x' }));
    expect(refused.status).toBe(403);
    expect(refused).toBeInstanceOf(BodegaError);
    expect(refused.message).toBe(refused.details.applicationError?.description);
  });
});
