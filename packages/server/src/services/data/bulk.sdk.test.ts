import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { keepEveryEvent } from '../../test/webhooks.js';
import { apiKeyClient, serveForSdk, type SdkServer } from '../../test/data-sdk.js';

let t: TestApp;
let site: TestSite;
let server: SdkServer;
let admin: ReturnType<typeof apiKeyClient>;
let collection = 0;

beforeAll(async () => {
  t = await testApp();
  site = await t.createSite();
  await keepEveryEvent(t.db, site.siteId);
  server = await serveForSdk(t.app);
  admin = apiKeyClient(site);
});

afterAll(async () => {
  server.restore();
  await t.close();
});

/** A fresh collection per test, admins only (the API key is an admin). */
async function freshCollection(): Promise<string> {
  const id = `Bulk${++collection}`;
  await admin.collections.createDataCollection({ _id: id });
  return id;
}

async function post(url: string, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url, headers: { authorization: site.apiKey, 'wix-site-id': site.siteId }, payload });
}

async function outboxCount(type: string, collectionId: string): Promise<number> {
  const rows = await t.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM outbox_events WHERE site_id = $1 AND type = $2 AND entity_id LIKE $3`,
    [site.siteId, type, `${collectionId}/%`],
  );
  return rows[0]?.n ?? 0;
}

describe('bulk calls through @wix/data', () => {
  it('inserts, skipping existing ids (WDE0074) with per-item results', async () => {
    const c = await freshCollection();
    await admin.items.insert(c, { _id: 'taken', a: 0 });
    const result = await admin.items.bulkInsert(c, [{ _id: 'n1', a: 1 }, { _id: 'taken', a: 2 }, { a: 3 }, { _id: 'n1', a: 4 }]);
    expect(result).toMatchObject({ inserted: 2, skipped: 2, errors: [] });
    expect(result.insertedItemIds).toEqual(['n1', expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    expect(await admin.items.query(c).count()).toBe(3);
    expect(await outboxCount('data_item.created', c)).toBe(3);
  });

  it('reports every item of a raw bulk insert with its index and error code', async () => {
    const c = await freshCollection();
    await admin.items.insert(c, { _id: 'taken' });
    const res = await post('/_api/cloud-data/v2/bulk/items/insert', {
      dataCollectionId: c,
      dataItems: [{ data: { _id: 'ok' } }, { data: { _id: 'taken' } }, { data: 'not an object' }],
      returnEntity: true,
    });
    expect(res.statusCode).toBe(200);
    const { results, bulkActionMetadata } = res.json();
    expect(results[0]).toMatchObject({ action: 'INSERT', itemMetadata: { id: 'ok', originalIndex: 0, success: true }, dataItem: { id: 'ok', data: { _id: 'ok' } } });
    expect(results[1]).toMatchObject({ action: 'INSERT', itemMetadata: { id: 'taken', originalIndex: 1, success: false, error: { code: 'WDE0074', description: expect.stringContaining('already exists') } } });
    expect(results[2]).toMatchObject({ itemMetadata: { originalIndex: 2, success: false, error: { code: 'WDE0004' } } });
    expect(bulkActionMetadata).toMatchObject({ totalSuccesses: 1, totalFailures: 2 });
  });

  it('saves: inserts new ids and replaces stored ones', async () => {
    const c = await freshCollection();
    const first = await admin.items.insert(c, { _id: 's1', v: 1 });
    const result = await admin.items.bulkSave(c, [{ _id: 's1', v: 2 }, { _id: 's2', v: 3 }]);
    expect(result).toMatchObject({ inserted: 1, updated: 1, insertedItemIds: ['s2'], updatedItemIds: ['s1'] });
    expect(await admin.items.get(c, 's1')).toMatchObject({ v: 2, _createdDate: first._createdDate });
  });

  it('updates stored items and skips missing ones (WDE0073); a condition filters', async () => {
    const c = await freshCollection();
    await admin.items.bulkInsert(c, [{ _id: 'u1', v: 1 }, { _id: 'u2', v: 2 }]);
    const result = await admin.items.bulkUpdate(c, [{ _id: 'u1', v: 10 }, { _id: 'u2', v: 20 }, { _id: 'ghost', v: 0 }], { condition: admin.items.filter().lt('v', 2) });
    expect(result).toMatchObject({ updated: 1, skipped: 2, updatedItemIds: ['u1'] });
    expect((await admin.items.get(c, 'u2'))?.v).toBe(2);
  });

  it('patches many items with the same modifications', async () => {
    const c = await freshCollection();
    await admin.items.bulkInsert(c, [{ _id: 'a', n: 1 }, { _id: 'b', n: 2 }]);
    const result = await admin.items.bulkPatch(c, ['a', 'b', 'missing']).incrementField('n', 10).setField('done', true).run();
    expect(result).toMatchObject({ updated: 2, skipped: 1 });
    const items = await admin.items.query(c).ascending('_id').find();
    expect(items.items.map((item) => [item.n, item.done])).toEqual([[11, true], [12, true]]);
  });

  it('removes many items, skipping missing ones, and records one event each', async () => {
    const c = await freshCollection();
    await admin.items.bulkInsert(c, [{ _id: 'r1' }, { _id: 'r2' }, { _id: 'r3' }]);
    const result = await admin.items.bulkRemove(c, ['r1', 'r3', 'nope']);
    expect(result).toMatchObject({ removed: 2, skipped: 1, removedItemIds: ['r1', 'r3'] });
    expect(await admin.items.query(c).count()).toBe(1);
    expect(await outboxCount('data_item.deleted', c)).toBe(2);
  });

  it('treats a repeated id as two calls in a row', async () => {
    const c = await freshCollection();
    await admin.items.insert(c, { _id: 'x', n: 0 });
    await admin.items.bulkPatch(c, ['x', 'x', 'x']).incrementField('n', 1).run();
    expect((await admin.items.get(c, 'x'))?.n).toBe(3);
  });

  it('refuses more than 1000 items with WDE0006 and more than 1000 ids with WDE0069', async () => {
    const c = await freshCollection();
    const items = Array.from({ length: 1001 }, (_, i) => ({ data: { _id: `i${i}` } }));
    const insert = await post('/wix-data/v2/bulk/items/insert', { dataCollectionId: c, dataItems: items });
    expect(insert.statusCode).toBe(400);
    expect(insert.json().details.applicationError.code).toBe('WDE0006');
    const remove = await post('/wix-data/v2/bulk/items/remove', { dataCollectionId: c, dataItemIds: items.map((item) => item.data._id) });
    expect(remove.json().details.applicationError.code).toBe('WDE0069');
  });

  it('inserts 1000 items in one call', async () => {
    const c = await freshCollection();
    const result = await admin.items.bulkInsert(c, Array.from({ length: 1000 }, (_, i) => ({ _id: `k${i}`, i })));
    expect(result.inserted).toBe(1000);
    expect(await admin.items.query(c).count()).toBe(1000);
  });
});

describe('asynchronous patch and remove by filter', () => {
  async function waitForJob(jobId: string): Promise<{ status?: string; successCount?: number }> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const status = await admin.items.getAsyncJobStatus(jobId);
      if (status.status === 'SUCCEEDED' || status.status === 'FAILED' || Date.now() > deadline) return status;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  it('patches every matching item and reports the count', async () => {
    const c = await freshCollection();
    const all = Array.from({ length: 1500 }, (_, i) => ({ _id: `j${String(i).padStart(4, '0')}`, group: i % 2, n: i }));
    await admin.items.bulkInsert(c, all.slice(0, 1000));
    await admin.items.bulkInsert(c, all.slice(1000));
    const { jobId } = await admin.items.asyncPatchByFilter(c, admin.items.filter().eq('group', 1), [{ action: 'INCREMENT_FIELD', fieldPath: 'n', value: 1 }]);
    expect(await waitForJob(jobId)).toEqual({ status: 'SUCCEEDED', successCount: 750 });
    expect((await admin.items.get(c, 'j0001'))?.n).toBe(2);
    expect((await admin.items.get(c, 'j0002'))?.n).toBe(2);
  });

  it('removes every matching item', async () => {
    const c = await freshCollection();
    await admin.items.bulkInsert(c, Array.from({ length: 20 }, (_, i) => ({ n: i })));
    const { jobId } = await admin.items.asyncRemoveByFilter(c, admin.items.filter().ge('n', 5));
    expect(await waitForJob(jobId)).toEqual({ status: 'SUCCEEDED', successCount: 15 });
    expect(await admin.items.query(c).count()).toBe(5);
  });

  it('answers an unknown job with WDE0909', async () => {
    await expect(admin.items.getAsyncJobStatus('no-such-job')).rejects.toThrow(/no job/);
  });
});

describe('concurrent writes', () => {
  it('loses no increment when 25 patches race on one item', async () => {
    const c = await freshCollection();
    await admin.items.insert(c, { _id: 'counter', n: 0 });
    await Promise.all(Array.from({ length: 25 }, () => admin.items.patch(c, 'counter').incrementField('n', 1).run()));
    expect((await admin.items.get(c, 'counter'))?.n).toBe(25);
  });

  it('loses no increment when bulk patches race over overlapping items', async () => {
    const c = await freshCollection();
    await admin.items.bulkInsert(c, [{ _id: 'a', n: 0 }, { _id: 'b', n: 0 }, { _id: 'c', n: 0 }]);
    await Promise.all(Array.from({ length: 10 }, (_, i) => admin.items.bulkPatch(c, i % 2 ? ['c', 'b', 'a'] : ['a', 'b', 'c']).incrementField('n', 1).run()));
    const items = await admin.items.query(c).ascending('_id').find();
    expect(items.items.map((item) => item.n)).toEqual([10, 10, 10]);
  });
});
