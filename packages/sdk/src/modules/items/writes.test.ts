import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeyStrategy } from '../../auth/api-key.js';
import { createClient } from '../../client.js';
import { BodegaError } from '../../core/errors.js';
import { decodeR, startReceiver, type Receiver, type Reply } from '../../test-support/receiver.js';
import { items } from './index.js';
import { BulkError } from './write.js';

let receiver: Receiver;
beforeEach(async () => {
  receiver = await startReceiver(() => ({ body: { dataItem: { id: 'i1', data: { _id: 'i1' } } } }));
});
afterEach(() => receiver.close());

const data = () => createClient({ modules: { items }, auth: ApiKeyStrategy({ apiKey: 'K' }), baseUrl: receiver.url }).items;
const P = '/_api/cloud-data/v2';

async function failure(promise: Promise<unknown>): Promise<BodegaError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof BodegaError)) throw new Error(`expected a BodegaError, got ${String(error)}`);
  return error;
}

const notFound: Reply = {
  status: 404,
  body: {
    message: 'Item i9 not found',
    details: { applicationError: { code: 'WDE0073', description: 'Item [i9] does not exist in collection [Products].', data: {} } },
  },
};

describe('single-item calls', () => {
  it('get sends the ids in the query string and returns the item data', async () => {
    receiver.reply(() => ({ body: { dataItem: { id: 'i1', data: { _id: 'i1', at: { $date: '2024-05-01T10:00:00.000Z' } } } } }));
    const item = await data().get('Products', 'i1', { consistentRead: true });
    expect(receiver.requests[0].url).toBe(`${P}/items/i1?dataCollectionId=Products&dataItemId=i1&consistentRead=true`);
    expect(item).toEqual({ _id: 'i1', at: new Date('2024-05-01T10:00:00.000Z') });
  });

  it('get with a nested option sends one .r parameter', async () => {
    await data().get('Products', 'i1', { showDrafts: true });
    expect(decodeR(receiver.requests[0])).toEqual({
      dataCollectionId: 'Products',
      dataItemId: 'i1',
      publishPluginOptions: { includeDraftItems: true },
    });
  });

  it('get and remove resolve null on WDE0073', async () => {
    receiver.reply(() => notFound);
    expect(await data().get('Products', 'i9')).toBeNull();
    expect(await data().remove('Products', 'i9')).toBeNull();
  });

  it('insert, update and save wrap the item as dataItem {id, data} with $date values', async () => {
    const at = new Date('2024-05-01T10:00:00.000Z');
    await data().insert('Products', { title: 'A', at });
    await data().insert('Products', { _id: 'i1', title: 'A' }, { suppressHooks: true });
    await data().update('Products', { _id: 'i1', title: 'B' }, { condition: data().filter().eq('title', 'A') });
    await data().save('Products', { _id: 'i1' }, { showDrafts: true });
    expect(receiver.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST ${P}/items`,
      `POST ${P}/items`,
      `POST ${P}/items/update`,
      `POST ${P}/items/save`,
    ]);
    expect(receiver.requests[0].body).toEqual({
      dataCollectionId: 'Products',
      dataItem: { data: { title: 'A', at: { $date: '2024-05-01T10:00:00.000Z' } } },
    });
    expect(receiver.requests[1].body).toEqual({
      dataCollectionId: 'Products',
      dataItem: { id: 'i1', data: { _id: 'i1', title: 'A' } },
      suppressHooks: true,
    });
    expect(receiver.requests[2].body).toEqual({
      dataCollectionId: 'Products',
      dataItem: { id: 'i1', data: { _id: 'i1', title: 'B' } },
      condition: { filter: { title: 'A' } },
    });
    expect(receiver.requests[3].body).toMatchObject({ publishPluginOptions: { includeDraftItems: true } });
  });

  it('patch builds field modifications, in chained and direct form', async () => {
    const result = await data()
      .patch('Products', 'i1')
      .setField('title', 'B')
      .incrementField('stock', 2)
      .appendToArray('tags', 'x')
      .removeFromArray('tags', 'y')
      .removeField('old')
      .run();
    await data().patch('Products', 'i1', [{ fieldPath: 'stock', action: 'INCREMENT_FIELD', value: -1 }]);
    expect(result).toEqual({ _id: 'i1' });
    expect(receiver.requests[0].path).toBe(`${P}/items/patch`);
    expect(receiver.requests[0].body).toEqual({
      dataCollectionId: 'Products',
      patch: {
        dataItemId: 'i1',
        fieldModifications: [
          { action: 'SET_FIELD', fieldPath: 'title', setFieldOptions: { value: 'B' } },
          { action: 'INCREMENT_FIELD', fieldPath: 'stock', incrementFieldOptions: { value: 2 } },
          { action: 'APPEND_TO_ARRAY', fieldPath: 'tags', appendToArrayOptions: { value: 'x' } },
          { action: 'REMOVE_FROM_ARRAY', fieldPath: 'tags', removeFromArrayOptions: { value: 'y' } },
          { action: 'REMOVE_FIELD', fieldPath: 'old' },
        ],
      },
    });
    expect(receiver.requests[1].body).toEqual({
      dataCollectionId: 'Products',
      patch: { dataItemId: 'i1', fieldModifications: [{ action: 'INCREMENT_FIELD', fieldPath: 'stock', incrementFieldOptions: { value: -1 } }] },
    });
  });

  it('remove, truncate and the reference calls post their payloads', async () => {
    receiver.reply(() => ({ body: { isReferenced: true } }));
    await data().remove('Posts', 'p1');
    await data().truncate('Posts');
    await data().insertReference('Posts', 'tags', 'p1', ['t1', { _id: 't2' }]);
    await data().removeReference('Posts', 'tags', { _id: 'p1' }, 't1');
    await data().replaceReferences('Posts', 'tags', 'p1', ['t3']);
    expect(await data().isReferenced('Posts', 'tags', 'p1', 't1', { consistentRead: true })).toBe(true);
    expect(receiver.requests.map((r) => [r.path, r.body])).toEqual([
      [`${P}/items/remove`, { dataCollectionId: 'Posts', dataItemId: 'p1' }],
      [`${P}/items/truncate`, { dataCollectionId: 'Posts' }],
      [
        `${P}/bulk/items/insert-references`,
        {
          dataCollectionId: 'Posts',
          dataItemReferences: [
            { referringItemFieldName: 'tags', referringItemId: 'p1', referencedItemId: 't1' },
            { referringItemFieldName: 'tags', referringItemId: 'p1', referencedItemId: 't2' },
          ],
        },
      ],
      [
        `${P}/bulk/items/remove-references`,
        { dataCollectionId: 'Posts', dataItemReferences: [{ referringItemFieldName: 'tags', referringItemId: 'p1', referencedItemId: 't1' }] },
      ],
      [
        `${P}/items/replace-references`,
        { dataCollectionId: 'Posts', referringItemFieldName: 'tags', referringItemId: 'p1', newReferencedItemIds: ['t3'] },
      ],
      [
        `${P}/items/is-referenced`,
        { dataCollectionId: 'Posts', referringItemFieldName: 'tags', referringItemId: 'p1', referencedItemId: 't1', consistentRead: true },
      ],
    ]);
  });

  it('async jobs post by filter and read their status by GET', async () => {
    receiver.reply((request) => ({ body: request.method === 'GET' ? { status: 'SUCCEEDED', successCount: 3 } : { jobId: 'job-1' } }));
    const job = await data().asyncPatchByFilter('Posts', data().filter().eq('draft', true), [
      { fieldPath: 'draft', action: 'SET_FIELD', value: false },
    ]);
    expect(job).toEqual({ jobId: 'job-1' });
    await data().asyncRemoveByFilter('Posts', { old: true });
    expect(await data().getAsyncJobStatus('job-1')).toEqual({ status: 'SUCCEEDED', successCount: 3 });
    expect(receiver.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `POST ${P}/bulk/items/async-patch-by-filter`,
      `POST ${P}/bulk/items/async-remove-by-filter`,
      `GET ${P}/async-jobs/job-1/status?jobId=job-1`,
    ]);
    expect(receiver.requests[0].body).toEqual({
      dataCollectionId: 'Posts',
      filter: { draft: true },
      fieldModifications: [{ action: 'SET_FIELD', fieldPath: 'draft', setFieldOptions: { value: false } }],
    });
    expect(receiver.requests[1].body).toEqual({ dataCollectionId: 'Posts', filter: { old: true } });
  });
});

describe('server errors', () => {
  it('413 becomes WDE0109: Payload is too large.', async () => {
    receiver.reply(() => ({ status: 413, rawBody: 'too big' }));
    const error = await failure(data().insert('Products', { big: 'x' }));
    expect(error.message).toBe('WDE0109: Payload is too large.');
    expect(error.code).toBe('WDE0109');
    expect(error.status).toBe(413);
  });

  it('an application error becomes an error whose message is its description', async () => {
    receiver.reply(() => ({
      status: 403,
      headers: { 'x-wix-request-id': 'rid-3' },
      body: { message: 'denied', details: { applicationError: { code: 'WDE0027', description: 'The current user does not have permissions to insert on the [Products] collection.', data: {} } } },
    }));
    const error = await failure(data().insert('Products', {}));
    expect(error.message).toBe('The current user does not have permissions to insert on the [Products] collection.');
    expect(error.code).toBe('WDE0027');
    expect(error.details.applicationError?.code).toBe('WDE0027');
    expect(error.requestId).toBe('rid-3');
  });

  it('WDE0073 from calls other than get and remove is an error', async () => {
    receiver.reply(() => notFound);
    const error = await failure(data().update('Products', { _id: 'i9' }));
    expect(error.message).toBe('Item [i9] does not exist in collection [Products].');
    expect(error.code).toBe('WDE0073');
  });

  it('a validation error lists field names with descriptions', async () => {
    receiver.reply(() => ({
      status: 400,
      body: {
        message: 'Invalid item',
        details: { validationError: { fieldViolations: [{ field: 'title', description: 'is required' }, { field: 'price', description: 'must be a number' }] } },
      },
    }));
    const error = await failure(data().insert('Products', {}));
    expect(error.message).toBe('Invalid item\ntitle: is required\nprice: must be a number');
    expect(error.details.validationError?.fieldViolations).toHaveLength(2);
  });

  it('a non-JSON server error keeps the status text', async () => {
    receiver.reply(() => ({ status: 502, rawBody: '<html>' }));
    const error = await failure(data().get('Products', 'i1'));
    expect(error.message).toBe('Bad Gateway');
    expect(error.details.applicationError?.code).toBe(502);
  });

  it('anything else becomes an internal unknown error', async () => {
    const dead = createClient({ modules: { items }, baseUrl: 'http://127.0.0.1:1' }).items;
    const error = await failure(dead.get('Products', 'i1'));
    expect(error.message).toBe('WDE0054: Internal error: unknown error.');
    receiver.reply(() => ({ rawBody: 'not json' }));
    expect((await failure(data().get('Products', 'i1'))).message).toBe('WDE0054: Internal error: unknown error.');
  });

  it('a hook error (WDE0078) carries the hook’s own message and code', async () => {
    receiver.reply(() => ({
      status: 400,
      body: {
        message: 'hook failed',
        details: { applicationError: { code: 'WDE0078', description: 'hook failed', data: { jsErrorValue: { name: 'Error', message: 'Price too low', code: 'LOW' } } } },
      },
    }));
    const error = await failure(data().insert('Products', {}));
    expect(error.message).toBe('Price too low');
    expect(error.code).toBe('LOW');
  });
});

describe('bulk calls', () => {
  const result = (action: string, index: number, success: boolean, code?: string) => ({
    action,
    itemMetadata: {
      id: `i${index}`,
      originalIndex: index,
      success,
      ...(code ? { error: { code, description: `failed ${code}`, data: {} } } : {}),
    },
  });

  it('bulkInsert counts inserted items and skips WDE0074, reporting other errors', async () => {
    receiver.reply(() => ({
      body: { results: [result('INSERT', 0, true), result('INSERT', 1, false, 'WDE0074'), result('INSERT', 2, false, 'WDE0073')] },
    }));
    const list = [{ _id: 'i0' }, { _id: 'i1' }, { _id: 'i2' }];
    const out = await data().bulkInsert('Products', list);
    expect(receiver.requests[0].path).toBe(`${P}/bulk/items/insert`);
    expect(receiver.requests[0].body).toEqual({
      dataCollectionId: 'Products',
      dataItems: list.map((item) => ({ id: item._id, data: item })),
    });
    expect(out).toMatchObject({ inserted: 1, updated: 0, removed: 0, skipped: 1, insertedItemIds: ['i0'] });
    expect(out.errors).toHaveLength(1);
    expect(out.errors[0]).toBeInstanceOf(BulkError);
    expect(out.errors[0]).toMatchObject({ message: 'failed WDE0073', code: 'WDE0073', originalIndex: 2, item: { _id: 'i2' } });
  });

  it('bulkInsert with overrideExisting goes to bulk save', async () => {
    receiver.reply(() => ({ body: { results: [result('INSERT', 0, true), result('UPDATE', 1, true)] } }));
    const out = await data().bulkInsert('Products', [{ _id: 'i0' }, { _id: 'i1' }], { overrideExisting: true });
    expect(receiver.requests[0].path).toBe(`${P}/bulk/items/save`);
    expect(out).toMatchObject({ inserted: 1, updated: 1, updatedItemIds: ['i1'] });
  });

  it('bulkUpdate, bulkRemove and bulkPatch skip WDE0073', async () => {
    receiver.reply((request) => {
      const action = request.path.endsWith('remove') ? 'DELETE' : 'UPDATE';
      return { body: { results: [result(action, 0, true), result(action, 1, false, 'WDE0073'), result(action, 2, false, 'WDE0074')] } };
    });
    const updated = await data().bulkUpdate('Products', [{ _id: 'i0' }, { _id: 'i1' }, { _id: 'i2' }]);
    const removed = await data().bulkRemove('Products', ['i0', 'i1', 'i2']);
    const patched = await data().bulkPatch('Products', ['i0', 'i1', 'i2']).incrementField('n', 1).run();
    const direct = await data().bulkPatch('Products', ['i0'], [{ fieldPath: 'n', action: 'REMOVE_FIELD' }]);
    expect(updated).toMatchObject({ updated: 1, skipped: 1, updatedItemIds: ['i0'] });
    expect(updated.errors.map((e) => e.code)).toEqual(['WDE0074']);
    expect(removed).toMatchObject({ removed: 1, skipped: 1, removedItemIds: ['i0'] });
    expect(patched).toMatchObject({ updated: 1, skipped: 1 });
    expect(direct.skipped).toBe(1);
    expect(receiver.requests.map((r) => r.path)).toEqual([
      `${P}/bulk/items/update`,
      `${P}/bulk/items/remove`,
      `${P}/bulk/items/patch`,
      `${P}/bulk/items/patch`,
    ]);
    expect(receiver.requests[1].body).toEqual({ dataCollectionId: 'Products', dataItemIds: ['i0', 'i1', 'i2'] });
    expect(receiver.requests[2].body).toEqual({
      dataCollectionId: 'Products',
      patches: ['i0', 'i1', 'i2'].map((dataItemId) => ({
        dataItemId,
        fieldModifications: [{ action: 'INCREMENT_FIELD', fieldPath: 'n', incrementFieldOptions: { value: 1 } }],
      })),
    });
  });

  it('bulkSave skips nothing', async () => {
    receiver.reply(() => ({ body: { results: [result('UPDATE', 0, false, 'WDE0073'), result('INSERT', 1, false, 'WDE0074')] } }));
    const out = await data().bulkSave('Products', [{ _id: 'i0' }, { _id: 'i1' }]);
    expect(out.skipped).toBe(0);
    expect(out.errors.map((e) => e.code)).toEqual(['WDE0073', 'WDE0074']);
  });
});
