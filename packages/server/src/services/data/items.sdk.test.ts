import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { keepEveryEvent } from '../../test/webhooks.js';
import { apiKeyClient, sdkTokens, serveForSdk, tokenClient, type SdkServer } from '../../test/data-sdk.js';

let t: TestApp;
let site: TestSite;
let server: SdkServer;
let admin: ReturnType<typeof apiKeyClient>;

beforeAll(async () => {
  t = await testApp();
  site = await t.createSite();
  await keepEveryEvent(t.db, site.siteId);
  server = await serveForSdk(t.app);
  admin = apiKeyClient(site);
  await admin.collections.createDataCollection({
    _id: 'Notes',
    displayName: 'Notes',
    fields: [
      { key: 'title', type: 'TEXT' },
      { key: 'count', type: 'NUMBER' },
      { key: 'when', type: 'DATETIME' },
    ],
    permissions: { read: 'ANYONE', insert: 'ANYONE', update: 'ANYONE', remove: 'ANYONE' },
  });
});

afterAll(async () => {
  server.restore();
  await t.close();
});

/** A visitor client on edge.wixapis.com, the /wix-data prefix. */
async function visitor() {
  const answer = await t.app.services.oauth.startSession(t.app.services.sites.contextFor(site.siteId), { clientId: site.clientId, role: 'visitor', subjectId: crypto.randomUUID() });
  return tokenClient(site, sdkTokens(answer, 'visitor'));
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    const { details, code } = error as { details?: { applicationError?: { code?: unknown } }; code?: unknown };
    return String(details?.applicationError?.code ?? code ?? (error as Error).message);
  }
  return 'no error';
}

describe('single items through @wix/data', () => {
  it('inserts with a generated id and system fields, and gets it back with dates as Date', async () => {
    const when = new Date('2024-05-01T10:00:00.000Z');
    const inserted = await admin.items.insert('Notes', { title: 'first', when, nested: { deep: [1, { a: true }] } });
    expect(inserted._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(inserted._createdDate).toBeInstanceOf(Date);
    expect(inserted._updatedDate).toBeInstanceOf(Date);
    expect(inserted._owner).toEqual(expect.any(String));
    const got = await admin.items.get('Notes', String(inserted._id));
    expect(got).toEqual(inserted);
    expect(got?.when).toEqual(when);
    expect(got?.nested).toEqual({ deep: [1, { a: true }] });
  });

  it('answers null for a missing item (WDE0073) on get and remove', async () => {
    expect(await admin.items.get('Notes', 'nope')).toBeNull();
    expect(await admin.items.remove('Notes', 'nope')).toBeNull();
  });

  it('refuses an insert of an existing id with WDE0074', async () => {
    await admin.items.insert('Notes', { _id: 'dup', title: 'a' });
    expect(await codeOf(admin.items.insert('Notes', { _id: 'dup', title: 'b' }))).toBe('WDE0074');
  });

  it('updates a whole item, keeping its creation date and owner', async () => {
    const inserted = await admin.items.insert('Notes', { _id: 'upd', title: 'a', extra: 1 });
    const updated = await admin.items.update('Notes', { _id: 'upd', title: 'b' });
    expect(updated).toMatchObject({ _id: 'upd', title: 'b', _createdDate: inserted._createdDate, _owner: inserted._owner });
    expect(updated.extra).toBeUndefined();
    expect(await codeOf(admin.items.update('Notes', { _id: 'ghost', title: 'x' }))).toBe('WDE0073');
  });

  it('refuses an update without a string _id with WDE0007', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/wix-data/v2/items/update',
      headers: { authorization: site.apiKey, 'wix-site-id': site.siteId },
      payload: { dataCollectionId: 'Notes', dataItem: { data: { title: 'no id' } } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.applicationError).toMatchObject({ code: 'WDE0007', description: expect.stringContaining('_id') });
  });

  it('updates only when the condition holds', async () => {
    await admin.items.insert('Notes', { _id: 'cond', title: 'a', count: 1 });
    const filter = admin.items.filter().eq('count', 2);
    expect(await codeOf(admin.items.update('Notes', { _id: 'cond', title: 'b' }, { condition: filter }))).toBe('WDE0073');
    const updated = await admin.items.update('Notes', { _id: 'cond', title: 'b', count: 1 }, { condition: admin.items.filter().eq('count', 1) });
    expect(updated.title).toBe('b');
  });

  it('saves: inserts a new item, then replaces it', async () => {
    const saved = await admin.items.save('Notes', { _id: 'sav', title: 'a' });
    const again = await admin.items.save('Notes', { _id: 'sav', title: 'b' });
    expect(again).toMatchObject({ _id: 'sav', title: 'b', _createdDate: saved._createdDate });
  });

  it('patches with every action, builder and direct form', async () => {
    await admin.items.insert('Notes', { _id: 'pat', title: 'a', count: 1, tags: ['x', 'y'], gone: true });
    const patched = await admin.items
      .patch('Notes', 'pat')
      .setField('title', 'b')
      .incrementField('count', 5)
      .appendToArray('tags', 'z')
      .removeFromArray('tags', 'x')
      .removeField('gone')
      .run();
    expect(patched).toMatchObject({ _id: 'pat', title: 'b', count: 6, tags: ['y', 'z'] });
    expect(patched.gone).toBeUndefined();
    const direct = await admin.items.patch('Notes', 'pat', [{ action: 'INCREMENT_FIELD', fieldPath: 'count', value: -1 }]);
    expect(direct.count).toBe(5);
    expect(await codeOf(admin.items.patch('Notes', 'missing').setField('title', 'x').run())).toBe('WDE0073');
  });

  it('patches and removes only when the condition holds', async () => {
    await admin.items.insert('Notes', { _id: 'guarded', count: 1 });
    const wrong = { condition: admin.items.filter().eq('count', 2) };
    expect(await codeOf(admin.items.patch('Notes', 'guarded').incrementField('count', 1).run(wrong))).toBe('WDE0073');
    expect(await admin.items.remove('Notes', 'guarded', wrong)).toBeNull();
    const right = { condition: admin.items.filter().eq('count', 1) };
    expect((await admin.items.patch('Notes', 'guarded').incrementField('count', 1).run(right)).count).toBe(2);
    expect(await admin.items.remove('Notes', 'guarded', { condition: admin.items.filter().eq('count', 2) })).toMatchObject({ _id: 'guarded' });
  });

  it('records an outbox event for every change, in the same transaction', async () => {
    await admin.items.insert('Notes', { _id: 'evented', count: 1 });
    await admin.items.update('Notes', { _id: 'evented', count: 2 });
    await admin.items.patch('Notes', 'evented').incrementField('count', 1).run();
    await admin.items.remove('Notes', 'evented');
    const rows = await t.db.query<{ type: string; payload: { dataItem?: { count?: number } } }>(
      `SELECT type, payload FROM outbox_events WHERE site_id = $1 AND entity_id = 'Notes/evented' ORDER BY created_at, type`,
      [site.siteId],
    );
    expect(rows.map((row) => [row.type, row.payload.dataItem?.count])).toEqual([
      ['data_item.created', 1],
      ['data_item.updated', 2],
      ['data_item.updated', 3],
      ['data_item.deleted', undefined],
    ]);
  });

  it('removes an item and returns it', async () => {
    await admin.items.insert('Notes', { _id: 'rem', title: 'a' });
    expect(await admin.items.remove('Notes', 'rem')).toMatchObject({ _id: 'rem', title: 'a' });
    expect(await admin.items.get('Notes', 'rem')).toBeNull();
  });

  it('answers WDE0025 with a human description for an unknown collection', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/_api/cloud-data/v2/items',
      headers: { authorization: site.apiKey, 'wix-site-id': site.siteId },
      payload: { dataCollectionId: 'Nowhere', dataItem: { data: {} } },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().details.applicationError).toEqual({ code: 'WDE0025', description: expect.stringContaining('Nowhere'), data: {} });
    await expect(admin.items.insert('Nowhere', { a: 1 })).rejects.toThrow(/Nowhere collection does not exist/);
  });

  it('maps a body over the limit (HTTP 413) to WDE0109', async () => {
    const big = 'x'.repeat(9 * 1024 * 1024);
    expect(await codeOf(admin.items.insert('Notes', { big }))).toBe('WDE0109');
  });

  it('truncates a collection', async () => {
    await admin.collections.createDataCollection({ _id: 'Scratch', permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' } });
    await admin.items.bulkInsert('Scratch', [{ a: 1 }, { a: 2 }]);
    await admin.items.truncate('Scratch');
    expect(await admin.items.query('Scratch').count()).toBe(0);
  });
});

describe('both path prefixes', () => {
  it('serves an API-key client on /_api/cloud-data and a visitor on /wix-data', async () => {
    server.calls.length = 0;
    await admin.items.insert('Notes', { _id: 'pfx', title: 'prefix' });
    const client = await visitor();
    expect(await client.items.get('Notes', 'pfx')).toMatchObject({ title: 'prefix' });
    expect(server.calls).toContain('POST /_api/cloud-data/v2/items');
    expect(server.calls).toContain('GET /wix-data/v2/items/pfx');
  });

  it('answers a query the same by GET with .r and by POST; a long filter forces POST', async () => {
    await admin.items.bulkInsert('Notes', Array.from({ length: 5 }, (_, i) => ({ _id: `q${i}`, title: `query ${i}`, count: i })));
    server.calls.length = 0;
    const short = await admin.items.query('Notes').startsWith('title', 'query').ascending('count').find();
    const longValues = Array.from({ length: 300 }, (_, i) => `never-${i}`);
    const long = await admin.items.query('Notes').startsWith('title', 'query').not(admin.items.query('Notes').hasSome('title', longValues)).ascending('count').find();
    expect(server.calls).toEqual(['GET /_api/cloud-data/v2/items/query', 'POST /_api/cloud-data/v2/items/query']);
    expect(long.items).toEqual(short.items);
    expect(short.items.map((item) => item._id)).toEqual(['q0', 'q1', 'q2', 'q3', 'q4']);
  });
});

describe('input the database would refuse is the caller\'s error, never a 500', () => {
  const call = (url: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url, headers: { authorization: site.apiKey, 'wix-site-id': site.siteId }, payload });

  it.each<[string, string, Record<string, unknown>, string]>([
    ['a NUL character in an item', '/wix-data/v2/items', { dataCollectionId: 'Notes', dataItem: { data: { title: 'a\u0000b' } } }, 'INVALID_ARGUMENT'],
    ['a NUL character in an id', '/wix-data/v2/items/remove', { dataCollectionId: 'Notes', dataItemId: 'a\u0000b' }, 'INVALID_ARGUMENT'],
    ['a NUL character in a filter', '/wix-data/v2/items/count', { dataCollectionId: 'Notes', filter: { title: 'a\u0000b' } }, 'INVALID_ARGUMENT'],
    [
      'an increment past the largest number',
      '/wix-data/v2/items/patch',
      { dataCollectionId: 'Notes', patch: { dataItemId: 'pat', fieldModifications: [{ action: 'INCREMENT_FIELD', fieldPath: 'count', incrementFieldOptions: { value: Number.MAX_VALUE } }, { action: 'INCREMENT_FIELD', fieldPath: 'count', incrementFieldOptions: { value: Number.MAX_VALUE } }] } },
      'WDE0908',
    ],
    ['a bulk call whose items are not a list', '/wix-data/v2/bulk/items/insert', { dataCollectionId: 'Notes', dataItems: 'x' }, 'INVALID_ARGUMENT'],
  ])('answers %s with a 400', async (_name, url, payload, code) => {
    const res = await call(url, payload);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.details.applicationError?.code ?? (body.details.validationError ? 'INVALID_ARGUMENT' : undefined)).toBe(code);
  });

  it('answers an item nested 10,000 levels deep with a 400', async () => {
    const deep = `{"dataCollectionId":"Notes","dataItem":{"data":{"deep":${'['.repeat(10_000)}${']'.repeat(10_000)}}}}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/wix-data/v2/items',
      headers: { authorization: site.apiKey, 'wix-site-id': site.siteId, 'content-type': 'application/json' },
      payload: deep,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.applicationError.code).toBe('WDE0004');
  });

  it('refuses, item by item, a value too large for an index', async () => {
    await admin.collections.createDataCollection({ _id: 'Wide', permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' } });
    await admin.indexes.createIndex('Wide', { name: 'by text', fields: [{ path: 'text' }] });
    const huge = randomBytes(8000).toString('base64');
    const result = await admin.items.bulkInsert('Wide', [{ text: 'short' }, { text: huge }]);
    expect(result.inserted).toBe(1);
    expect(result.errors.map((error) => error.code)).toEqual(['WDE0114']);
  });
});
