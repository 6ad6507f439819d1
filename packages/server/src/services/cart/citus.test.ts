import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteContext } from '../../platform/context.js';
import type { Db, Row, Sql } from '../../platform/db.js';
import { testDb } from '../../test/harness.js';
import { addLines, findCart } from './store.js';

let db: Db;
beforeAll(async () => {
  db = await testDb();
});
afterAll(() => db.close());

// BODEGA_CITUS=1: the suite runs on a Citus coordinator (.ci/run's third pass).
describe.runIf(process.env.BODEGA_CITUS === '1')('the cart on Citus', () => {
  // What the coordinator sends to workers, read from citus.log_remote_commands on a connection of the test's own.
  it('sends add-to-cart and the cart read to the one worker holding the site as ONE command each', async () => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    let sent: string[] = [];
    client.on('notice', (notice) => {
      if (notice.message?.startsWith('issuing ')) sent.push(notice.message);
    });
    const siteId = randomUUID();
    try {
      await client.query('SET citus.log_remote_commands = on; SET client_min_messages = log');
      const counted: Db = {
        ...db,
        query: async <T extends Row>(sql: Sql, params: readonly unknown[] = []) =>
          (await client.query(typeof sql === 'string' ? sql : sql.text, params as unknown[])).rows as T[],
      };
      const ctx = siteContext(counted, siteId, () => new Date());
      const buyer = { kind: 'visitor' as const, id: randomUUID() };
      const line = (key: string) => ({ id: randomUUID(), key, catalogReference: { appId: 'app', catalogItemId: key }, quantity: 1, custom: undefined });
      for (const key of ['a', 'b', 'a']) {
        sent = [];
        const added = await addLines(ctx, { id: randomUUID(), buyer, currency: 'USD', businessLocationId: null }, [line(key)], {}, new Date());
        expect(added.written).toHaveLength(1);
        expect(sent).toHaveLength(1);
        expect(sent[0]).toMatch(/^issuing SELECT public\.cart_add_lines\(/);
      }
      sent = [];
      const cart = await findCart(ctx, buyer);
      expect(cart?.lines.map((l) => [l.catalogReference?.catalogItemId, l.quantity])).toEqual([['a', 2], ['b', 1]]);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatch(/^issuing SELECT .* FROM public\.carts_\d+ c WHERE/);
    } finally {
      await client.end();
      await db.query('DELETE FROM cart_line_items WHERE site_id = $1', [siteId]);
      await db.query('DELETE FROM carts WHERE site_id = $1', [siteId]);
    }
  });
});
