import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../test/harness.js';
import { COORDINATOR_TABLES, distributionPlan, hasCitus, pendingDistribution, pendingFunctions, REFERENCE_TABLES } from './citus.js';
import { rethrowWorkerError, type Db } from './db.js';

let db: Db;
beforeAll(async () => {
  db = await testDb();
});
afterAll(() => db.close());

describe('where each table lives on Citus', () => {
  it('plans every table: each one with a site_id is distributed by it, the rest are listed as reference or coordinator tables', async () => {
    const plan = await distributionPlan(db);
    const byKind = (kind: string) => plan.filter((t) => t.kind === kind).map((t) => t.name);
    expect(byKind('reference').sort()).toEqual([...REFERENCE_TABLES].sort());
    expect(byKind('coordinator')).toEqual([...COORDINATOR_TABLES]);
    expect(byKind('distributed')).toEqual(expect.arrayContaining(['members', 'carts', 'cart_line_items', 'orders', 'products', 'data_items', 'outbox_events']));
  });

  it('refuses a new table that has no site_id and is on neither list, naming it', async () => {
    await expect(db.transaction(async (tx) => {
      await tx.query('CREATE TABLE citus_plan_probe (probe_id text PRIMARY KEY)');
      await distributionPlan(tx);
    })).rejects.toThrow(/citus_plan_probe has no site_id/);
  });

  // BODEGA_CITUS=1: the suite runs on a Citus coordinator (.ci/run's third pass).
  it.runIf(process.env.BODEGA_CITUS === '1')('on a Citus database, leaves no table as it was after migrating', async () => {
    expect(await hasCitus(db)).toBe(true);
    expect(await pendingDistribution(db)).toEqual([]);
    expect(await pendingFunctions(db)).toEqual([]);
  });
});

describe("a worker's error relayed by Citus", () => {
  it('gets back its code and its constraint without the shard suffix; other errors pass unchanged', () => {
    const relayed = Object.assign(new Error('duplicate key value violates unique constraint "data_items_pkey_102502"'), { code: 'XX000' });
    expect(() => rethrowWorkerError(relayed)).toThrow(relayed);
    expect(relayed).toMatchObject({ code: '23505', constraint: 'data_items_pkey' });
    const tooLarge = Object.assign(new Error('index row requires 10776 bytes, maximum size is 8191'), { code: 'XX000' });
    expect(() => rethrowWorkerError(tooLarge)).toThrow();
    expect(tooLarge).toMatchObject({ code: '54000' });
    const other = Object.assign(new Error('could not connect to the worker'), { code: 'XX000' });
    expect(() => rethrowWorkerError(other)).toThrow();
    expect(other).toMatchObject({ code: 'XX000' });
  });
});
