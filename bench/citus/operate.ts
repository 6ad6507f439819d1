/**
 * Operating a Citus cluster under a running Bodega, tried by `npm run bench -- citus` at its end
 * (on its own CITUS_URL database, which it changes):
 *   1. with CITUS_NEW_WORKER=host:port (a started node whose database of the same name has the
 *      citus extension): citus_add_node, then rebalance_table_shards, which moves the shards in
 *      this session (citus_rebalance_start hands the moves to background workers, which a
 *      coordinator shared by many test databases, each with its own Citus maintenance worker, may
 *      have no room left to start: max_worker_processes);
 *   2. isolate_tenant_to_new_shard of one site's rows (CASCADE: every colocated table);
 * after each, every site's shopper adds to the cart and reads it back through the server.
 * Shards move with shard_transfer_mode 'block_writes': the loopback nodes run with wal_level
 * replica, and the default (logical replication) needs wal_level logical.
 */
import type { Db } from '../../packages/server/src/platform/db.js';

type Placement = { node: string; shards: number };

async function placements(db: Db): Promise<Placement[]> {
  return db.query<Placement>(`SELECT nodename || ':' || nodeport AS node, count(*)::int AS shards FROM citus_shards
    WHERE citus_table_type = 'distributed' GROUP BY nodename, nodeport ORDER BY 1`);
}

const shown = (list: Placement[]) => list.map((p) => `${p.node} ${p.shards}`).join(', ');

/** Runs the steps, calling `storeAnswers` after each (it throws when a request fails); prints what happened. */
export async function tryOperations(db: Db, siteIds: readonly string[], storeAnswers: () => Promise<number>): Promise<void> {
  const isolateSite = siteIds[0];
  console.log(`\nOperating it (each step on the running server's database, then every site's shopper adds to the cart and reads it):`);
  console.log(`  distributed shard placements before: ${shown(await placements(db))}`);
  const worker = process.env.CITUS_NEW_WORKER;
  if (worker) {
    const [host, port] = worker.split(':');
    let started = Date.now();
    await db.query('SELECT citus_add_node($1, $2)', [host, Number(port)]);
    const added = Date.now() - started;
    started = Date.now();
    await db.query(`SELECT rebalance_table_shards(shard_transfer_mode => 'block_writes')`);
    const moved = Date.now() - started;
    console.log(`  citus_add_node('${host}', ${port}): ${added} ms; rebalance_table_shards(shard_transfer_mode => 'block_writes'): ${(moved / 1000).toFixed(1)} s`);
    console.log(`  placements after the rebalance: ${shown(await placements(db))}`);
    console.log(`  the store still answers: ${await storeAnswers()} sites added to their cart and read it back`);
  } else {
    console.log('  adding a worker: skipped (set CITUS_NEW_WORKER=host:port to a started node; see the README\'s Citus section)');
  }
  const [before] = await db.query<{ shard: string }>(`SELECT get_shard_id_for_distribution_column('carts', $1::text)::text AS shard`, [isolateSite]);
  const started = Date.now();
  const [isolated] = await db.query<{ shard: string }>(
    `SELECT isolate_tenant_to_new_shard('carts', $1::text, 'CASCADE', shard_transfer_mode => 'block_writes')::text AS shard`, [isolateSite]);
  const took = Date.now() - started;
  const [{ node }] = await db.query<{ node: string }>(`SELECT nodename || ':' || nodeport AS node FROM citus_shards WHERE shardid = $1::bigint LIMIT 1`, [isolated.shard]);
  let sharing = 0;
  for (const site of siteIds) {
    const [{ shard }] = await db.query<{ shard: string }>(`SELECT get_shard_id_for_distribution_column('carts', $1::text)::text AS shard`, [site]);
    if (shard === isolated.shard) sharing++;
  }
  console.log(`  isolate_tenant_to_new_shard('carts', '${isolateSite}', 'CASCADE', shard_transfer_mode => 'block_writes'): ${(took / 1000).toFixed(1)} s; `
    + `the site moved from shard ${before.shard} to shard ${isolated.shard} on ${node}; of the ${siteIds.length} sites, ${sharing} map to that shard`);
  console.log(`  the store still answers: ${await storeAnswers()} sites added to their cart and read it back`);
}
