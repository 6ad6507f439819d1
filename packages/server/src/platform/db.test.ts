import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../test/harness.js';
import { MAX_PREPARED_STATEMENTS, prepared, preparedCount, type Db } from './db.js';
import { recordEvent } from './events.js';
import { poolContext, withTransaction } from './context.js';
import { newId } from './ids.js';

let db: Db;
beforeAll(async () => {
  db = await testDb();
});
afterAll(() => db.close());

describe(`the database interface (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('returns int8 as a number when it is safe, and as a decimal string when it is not', async () => {
    const [row] = await db.query<{ small: unknown; big: unknown; counted: unknown }>(
      "SELECT 42::int8 AS small, 9007199254740993::int8 AS big, (SELECT count(*) FROM generate_series(1, 3)) AS counted");
    expect(row).toEqual({ small: 42, big: '9007199254740993', counted: 3 });
  });

  it('returns numeric as an exact decimal string, never a float', async () => {
    const [row] = await db.query<{ price: unknown }>("SELECT 0.1::numeric + 0.2::numeric AS price");
    expect(row.price).toBe('0.3');
  });

  it('returns jsonb parsed and timestamps as dates', async () => {
    const [row] = await db.query<{ doc: unknown; at: unknown }>(`SELECT '{"a":[1,"x"]}'::jsonb AS doc, '2026-01-02T03:04:05Z'::timestamptz AS at`);
    expect(row.doc).toEqual({ a: [1, 'x'] });
    expect(row.at).toEqual(new Date('2026-01-02T03:04:05Z'));
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    const kept = newId();
    const dropped = newId();
    await db.transaction(async (tx) => {
      await tx.query("INSERT INTO sites (site_id, name) VALUES ($1, 'kept')", [kept]);
    });
    await expect(db.transaction(async (tx) => {
      await tx.query("INSERT INTO sites (site_id, name) VALUES ($1, 'dropped')", [dropped]);
      throw new Error('changed my mind');
    })).rejects.toThrow('changed my mind');
    const rows = await db.query<{ site_id: string }>('SELECT site_id FROM sites WHERE site_id = ANY($1)', [[kept, dropped]]);
    expect(rows.map((r) => r.site_id)).toEqual([kept]);
  });

  it('loses no update when many transactions increment one row at once', async () => {
    const siteId = newId();
    await db.query("INSERT INTO sites (site_id, name, settings) VALUES ($1, 'counter', '{\"n\":0}')", [siteId]);
    await Promise.all(Array.from({ length: 25 }, () => db.transaction(async (tx) => {
      // Read-modify-write under a row lock: the pattern services use for writes that must not race.
      const [row] = await tx.query<{ n: number }>("SELECT (settings->>'n')::int AS n FROM sites WHERE site_id = $1 FOR UPDATE", [siteId]);
      await tx.query("UPDATE sites SET settings = jsonb_build_object('n', $2::int) WHERE site_id = $1", [siteId, row.n + 1]);
    })));
    const [row] = await db.query<{ n: number }>("SELECT (settings->>'n')::int AS n FROM sites WHERE site_id = $1", [siteId]);
    expect(row.n).toBe(25);
  });

  it('records an outbox event only when its transaction commits', async () => {
    const siteId = newId();
    const entityId = newId();
    // A mailed type: written without a subscription (this site has no row to subscribe with).
    await withTransaction(poolContext(db), (tx) => recordEvent(tx, { siteId, type: 'order.created', entityType: 'test', entityId, payload: { a: 1 } }));
    await withTransaction(poolContext(db), async (tx) => {
      await recordEvent(tx, { siteId, type: 'order.created', entityType: 'test', entityId, payload: { dropped: true } });
      throw new Error('rolled back');
    }).catch(() => undefined);
    const events = await db.query<{ type: string; payload: unknown }>('SELECT type, payload FROM outbox_events WHERE site_id = $1', [siteId]);
    // The worker would look this order up and find none; the row goes before any worker sees it.
    await db.query('DELETE FROM outbox_events WHERE site_id = $1', [siteId]);
    expect(events).toEqual([{ type: 'order.created', payload: { a: 1 } }]);
  });
});

describe(`prepared statements (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('run like their text, in and out of a transaction, and are prepared once per connection', async () => {
    const plusOne = prepared('SELECT $1::int + 1 AS n');
    expect(prepared('SELECT $1::int + 1 AS n')).toEqual(plusOne);
    expect(await db.query(plusOne, [1])).toEqual([{ n: 2 }]);
    const inside = await db.transaction(async (tx) => {
      const first = await tx.query<{ n: number }>(plusOne, [2]);
      const second = await tx.query<{ n: number }>(plusOne, [3]);
      const held = (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = $1', [plusOne.name]))[0].n;
      return { values: [first[0].n, second[0].n], held };
    });
    expect(inside).toEqual({ values: [3, 4], held: 1 });
  });

  it('stay bounded however many SQL shapes come: past the bound a text runs unprepared', async () => {
    const shapes = Array.from({ length: MAX_PREPARED_STATEMENTS + 20 }, (_, i) => prepared(`SELECT $1::int * ${i} AS n`));
    expect(preparedCount()).toBe(MAX_PREPARED_STATEMENTS);
    expect(shapes.at(-1)?.name).toBeUndefined();
    const held = await db.transaction(async (tx) => {
      for (const [i, shape] of shapes.entries()) expect(await tx.query(shape, [2])).toEqual([{ n: 2 * i }]);
      return (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements'))[0].n;
    });
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(MAX_PREPARED_STATEMENTS);
  });

  it('answer with the same types as plain SQL, take dates, arrays and JSON, and report errors with their code', async () => {
    const text = `SELECT $1::int8 AS big, $2::numeric AS price, $3::timestamptz AS at, $4::text[] AS tags, $5::jsonb AS doc, $6::text AS nothing`;
    const params = [9007199254740993n.toString(), '0.30', new Date('2026-01-02T03:04:05Z'), ['a', 'b'], JSON.stringify({ a: [1] }), null];
    const plain = await db.query(text, params);
    expect(await db.query(prepared(text), params)).toEqual(plain);
    expect(plain).toEqual([{ big: '9007199254740993', price: '0.30', at: new Date('2026-01-02T03:04:05Z'), tags: ['a', 'b'], doc: { a: [1] }, nothing: null }]);
    const siteId = newId();
    const insert = prepared("INSERT INTO sites (site_id, name) VALUES ($1, 'twice')");
    await db.query(insert, [siteId]);
    await expect(db.query(insert, [siteId])).rejects.toMatchObject({ code: '23505' });
    // The failed call leaves the connection usable, and a failure inside a transaction rolls it back.
    const other = newId();
    await expect(db.transaction(async (tx) => {
      await tx.query(insert, [other]);
      await tx.query(insert, [siteId]);
    })).rejects.toMatchObject({ code: '23505' });
    expect(await db.query('SELECT site_id FROM sites WHERE site_id = ANY($1)', [[siteId, other]])).toEqual([{ site_id: siteId }]);
  });
});
