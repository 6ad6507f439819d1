// On Citus, a site's statements are router queries: one task on the one worker holding the site.
// The statements are the code's own, recorded as the app sends them, then EXPLAINed with their
// parameters on the coordinator (`Task Count: 1`, no distributed subplan). BODEGA_CITUS=1 only
// (.ci/run's Citus pass); elsewhere there is no planner to ask.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteContext } from './context.js';
import type { Db, Queryable, Row, Sql } from './db.js';
import { testApp, testDb, type TestApp, type TestSite } from '../test/harness.js';
import { apiKey, createProduct } from '../test/commerce.js';
import { salesPerDay } from '../services/orders/back-office.js';
import { addLines } from '../services/cart/store.js';
import { recordEvent } from './events.js';

interface Sent {
  text: string;
  params: unknown[];
}

/** `db` with every statement it (or a transaction on it) runs pushed onto `sent` while `on()` says so. */
function recording(db: Db, sent: Sent[], on: () => boolean): Db {
  const record = (q: Queryable): Queryable => ({
    query: <T extends Row>(sql: Sql, params: readonly unknown[] = []) => {
      if (on()) sent.push({ text: typeof sql === 'string' ? sql : sql.text, params: [...params] });
      return q.query<T>(sql, params);
    },
    exec: (sql: string) => q.exec(sql),
  });
  return { ...db, ...record(db), transaction: (fn) => db.transaction((tx) => fn(record(tx))) };
}

/** The distributed plan's shape: how many tasks, and whether part of it ran as a subplan first. */
async function plan(db: Db, statement: Sent): Promise<{ tasks: number[]; subplans: number; text: string }> {
  const rows = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${statement.text}`, statement.params);
  const text = rows.map((r) => r['QUERY PLAN']).join('\n');
  const tasks = [...text.matchAll(/Task Count: (\d+)/g)].map((m) => Number(m[1]));
  return { tasks, subplans: [...text.matchAll(/Distributed Subplan/g)].length, text };
}

describe.runIf(process.env.BODEGA_CITUS === '1')('a site\'s statements on Citus', () => {
  let t: TestApp;
  let site: TestSite;
  const sent: Sent[] = [];
  let recordingOn = false;

  beforeAll(async () => {
    const db = await testDb();
    t = await testApp({ db: recording(db, sent, () => recordingOn) });
    site = await t.createSite();
  });
  afterAll(async () => {
    await t.close();
    await t.db.close();
  });

  /** Runs `call` and answers the statements it sent that read `table`. */
  async function statementsOf(table: string, call: () => Promise<void>): Promise<Sent[]> {
    sent.length = 0;
    recordingOn = true;
    try {
      await call();
    } finally {
      recordingOn = false;
    }
    return sent.filter((s) => new RegExp(`\\b${table}\\b`).test(s.text));
  }

  async function expectRouted(statements: Sent[]) {
    expect(statements.length).toBeGreaterThan(0);
    for (const statement of statements) {
      const { tasks, subplans, text } = await plan(t.db, statement);
      expect({ tasks, subplans, statement: statement.text }, text).toEqual({ tasks: [1], subplans: 0, statement: statement.text });
    }
  }

  it('routes the V1 product query\'s collection filters ($hasAll, and a collection inside $or) to the site\'s shard', async () => {
    const [shirt, mug] = [await createProduct(t.app, site, { name: 'Shirt', productType: 'physical', priceData: { price: 10 } }), await createProduct(t.app, site, { name: 'Mug', productType: 'physical', priceData: { price: 5 } })];
    const collection = (await t.app.inject({ method: 'POST', url: '/stores/v1/collections', headers: apiKey(site), payload: { collection: { name: 'Tops' } } })).json().collection.id as string;
    const added = await t.app.inject({ method: 'POST', url: `/stores/v1/collections/${collection}/productIds`, headers: apiKey(site), payload: { productIds: [shirt.id] } });
    expect(added.statusCode).toBe(200);
    const names: string[][] = [];
    const statements = await statementsOf('collection_products', async () => {
      for (const filter of [{ collectionIds: { $hasAll: [collection] } }, { $or: [{ name: 'Mug' }, { collectionIds: { $hasSome: [collection] } }] }]) {
        const res = await t.app.inject({ method: 'POST', url: '/stores-reader/v1/products/query-platformized', headers: apiKey(site), payload: { query: { filter, sort: [{ fieldName: 'name' }] } } });
        expect(res.statusCode).toBe(200);
        names.push(res.json().products.map((p: { name: string }) => p.name));
      }
    });
    expect(names).toEqual([['Shirt'], ['Mug', 'Shirt']]);
    expect(mug.id).toBeTruthy();
    await expectRouted(statements);
  });

  it('routes productsV3.searchProducts\' aggregations (the collections per product) to the site\'s shard', async () => {
    let results: unknown;
    const statements = await statementsOf('collection_products', async () => {
      const res = await t.app.inject({
        method: 'POST', url: '/stores/v3/products/search', headers: apiKey(site),
        payload: { search: { aggregations: [{ name: 'categories', type: 'VALUE', fieldPath: 'allCategoriesInfo.categories._id' }, { name: 'cheapest', type: 'SCALAR', fieldPath: 'actualPriceRange.minValue.amount', scalar: { type: 'MIN' } }] } },
      });
      expect(res.statusCode).toBe(200);
      results = res.json().aggregationData.results;
    });
    expect(results).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'cheapest', scalar: expect.objectContaining({ value: 5 }) })]));
    await expectRouted(statements);
  });

  it('routes the dashboard\'s sales per day (refunds of orders that count) to the site\'s shard', async () => {
    const statements = await statementsOf('order_refunds', async () => {
      const days = await salesPerDay(siteContext(t.db, site.siteId, () => new Date()), { from: '2026-01-01', to: '2026-01-31', timeZone: 'Europe/Paris' });
      expect(days).toEqual([]);
    });
    await expectRouted(statements);
  });

  // Add-to-cart inside a transaction block (updateCurrentCart's lines): cart_add_lines is distributed
  // with force_delegation, so the call still goes whole to the worker holding the site. Otherwise the
  // coordinator ran it, and its event insert took the coordinator's seq, below every worker's: the
  // event sorted before the site's earlier events (recordEvent's, whose seq the worker draws).
  it('delegates add-to-cart inside a transaction block to the one worker holding the site, its event after the earlier ones', async () => {
    const db = t.db;
    const siteId = site.siteId;
    await db.query(
      `INSERT INTO webhook_subscriptions (site_id, subscription_id, url, event_types, format, secret, status, created_at, updated_at)
       VALUES ($1, $2, 'http://127.0.0.1:9/hook', ARRAY['cart.created', 'cart.updated'], 'WIX', 'secret', 'ACTIVE', now(), now())`,
      [siteId, randomUUID()],
    );
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    const servers: string[] = [];
    const commands: string[] = [];
    client.on('notice', (notice) => {
      if (!notice.message?.startsWith('issuing ')) return;
      commands.push(notice.message);
      servers.push(notice.detail ?? '');
    });
    try {
      await client.query('SET citus.log_remote_commands = on; SET client_min_messages = log');
      const inBlock: Db = {
        ...db,
        query: async <T extends Row>(sql: Sql, params: readonly unknown[] = []) => (await client.query(typeof sql === 'string' ? sql : sql.text, [...params])).rows as T[],
      };
      const ctx = siteContext(inBlock, siteId, () => new Date());
      const buyer = { kind: 'visitor' as const, id: randomUUID() };
      const before = await recordEvent(siteContext(db, siteId, () => new Date()), { siteId, type: 'cart.updated', entityType: 'cart', entityId: 'before', payload: {} });
      await client.query('BEGIN');
      const added = await addLines(ctx, { id: randomUUID(), buyer, currency: 'USD', businessLocationId: null }, [{ id: randomUUID(), key: 'a', catalogReference: { appId: 'app', catalogItemId: 'a' }, quantity: 1, custom: undefined }], {}, new Date());
      await client.query('COMMIT');
      expect(added.written).toHaveLength(1);
      // Besides the transaction's own commands, the one call of the function, delegated to the worker.
      const work = commands.filter((c) => !/^issuing (BEGIN|PREPARE TRANSACTION|COMMIT)/.test(c));
      expect(work).toHaveLength(1);
      expect(work[0]).toMatch(/^issuing SELECT public\.cart_add_lines\(/);
      expect(servers[0]).toMatch(/^on server /);
      expect(new Set(servers.map((s) => s.replace(/ connectionId: \d+/, ''))).size).toBe(1);
      // Its seq is the worker's, as recordEvent's: written later, it sorts later.
      const events = await db.query<{ event_id: string; type: string }>(`SELECT event_id, type FROM outbox_events WHERE site_id = $1 AND type LIKE 'cart.%' ORDER BY seq`, [siteId]);
      expect(events.map((e) => e.type)).toEqual(['cart.updated', 'cart.created']);
      expect(events[0].event_id).toBe(before);
    } finally {
      await client.end();
      await db.query('DELETE FROM webhook_subscriptions WHERE site_id = $1', [siteId]);
      await db.query('DELETE FROM outbox_events WHERE site_id = $1', [siteId]);
    }
  });
});
