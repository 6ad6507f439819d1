/**
 * `npm run bench -- webhooks-explain` (DATABASE_URL for PostgreSQL): EXPLAIN (ANALYZE, BUFFERS) of
 * the worker's delivery claim with a backlog queued behind a few entities — the add-to-cart load's
 * shape (each cart's `cart.updated` events go out one at a time, in order). BENCH_ENTITIES
 * entities (10) × BENCH_PER_ENTITY events (2,000) are fanned out, one claim takes each entity's
 * oldest (now in flight), then the next claim — which can take nothing — is explained, in a
 * transaction rolled back. Buffers and rows do not depend on the machine's load; times do.
 */
import os from 'node:os';
import { poolContext, withTransaction, type DbContext } from '../packages/server/src/platform/context.js';
import { recordEvents, type OutboxEvent } from '../packages/server/src/platform/events.js';
import { claimDeliveries } from '../packages/server/src/services/webhooks/claims.js';
import { DEFAULT_WEBHOOK_OPTIONS, WebhookWorker } from '../packages/server/src/services/webhooks/worker.js';
import { startNamedServer } from './lib.js';

const ENTITIES = Number(process.env.BENCH_ENTITIES ?? 10);
const PER_ENTITY = Number(process.env.BENCH_PER_ENTITY ?? 2000);

interface PlanNode { 'Node Type': string; 'Index Name'?: string; 'Actual Rows'?: number; 'Actual Loops'?: number; 'Shared Hit Blocks'?: number; 'Shared Read Blocks'?: number; Plans?: PlanNode[] }
interface Explained { Plan: PlanNode; 'Execution Time': number }

function lines(node: PlanNode, depth = 0, out: string[] = []): string[] {
  const rows = (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1);
  out.push(`${'  '.repeat(depth)}${node['Node Type']}${node['Index Name'] ? ` on ${node['Index Name']}` : ''}: ${rows} rows, ${(node['Shared Hit Blocks'] ?? 0) + (node['Shared Read Blocks'] ?? 0)} buffers`);
  for (const child of node.Plans ?? []) lines(child, depth + 1, out);
  return out;
}

export default async function webhooksExplain(): Promise<void> {
  process.env.WEBHOOKS_ALLOW_PRIVATE = 'true';
  const server = await startNamedServer();
  let siteId: string | undefined;
  try {
    const created = await server.app.services.sites.createSite({ name: 'bench webhooks explain' });
    siteId = created.site.siteId;
    const headers = { authorization: created.apiKey, 'wix-site-id': siteId };
    const sub = await server.app.inject({ method: 'POST', url: '/bodega/v1/webhooks', headers, payload: { subscription: { url: 'http://127.0.0.1:9/hook', eventTypes: ['*'], format: 'STANDARD' } } });
    if (sub.statusCode !== 200) throw new Error(sub.body);
    const pool = poolContext(server.db);
    for (let n = 0; n < PER_ENTITY; n += 100) {
      const events: OutboxEvent[] = [];
      for (let i = n; i < Math.min(PER_ENTITY, n + 100); i++) {
        for (let e = 0; e < ENTITIES; e++) events.push({ siteId, type: 'cart.updated', entityType: 'bench', entityId: `cart-${e}`, payload: { i } });
      }
      await withTransaction(pool, (tx) => recordEvents(tx, events));
    }
    const worker = new WebhookWorker(
      { db: server.db, now: () => new Date(), publicUrl: server.url, mail: server.app.services.mail, keys: server.app.services.webhooks.keys },
      { ...DEFAULT_WEBHOOK_OPTIONS, allowPrivate: true, sites: [siteId] },
    );
    while (await worker.fanOut() > 0) { /* fans out the whole backlog */ }
    await server.db.query('ANALYZE webhook_deliveries');
    const shape = { perSite: false, sites: [siteId] };
    const lease = () => new Date(Date.now() + 60_000);
    const first = await claimDeliveries(pool, shape, new Date(), lease(), 32);
    console.log(`webhooks-explain — ${server.db.kind}, ${ENTITIES} entities × ${PER_ENTITY} queued; the first claim took ${first.length}; load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    for (const perSite of [false, true]) {
      await withTransaction(pool, async (tx) => {
        const explaining: DbContext = { ...tx, db: { query: async (sql, params) => {
          const [row] = await tx.db.query<{ 'QUERY PLAN': Explained[] | string }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${String(sql)}`, params);
          const plan = (typeof row['QUERY PLAN'] === 'string' ? JSON.parse(row['QUERY PLAN']) : row['QUERY PLAN']) as Explained[];
          console.log(`\n${perSite ? 'per-site (Citus) shape' : 'one statement'}: ${plan[0]['Execution Time'].toFixed(1)} ms\n${lines(plan[0].Plan).join('\n')}`);
          // The Citus shape's look for sites with work is read for real (its claims need the answer).
          return String(sql).trimStart().startsWith('SELECT') ? tx.db.query(sql, params) : [];
        }, exec: (sql) => tx.db.exec(sql) } };
        await claimDeliveries(explaining, { ...shape, perSite }, new Date(), lease(), 32);
        throw new Rollback();
      }).catch((error: unknown) => { if (!(error instanceof Rollback)) throw error; });
    }
  } finally {
    if (siteId) await server.db.query('DELETE FROM webhook_deliveries WHERE site_id = $1', [siteId]);
    await server.close();
  }
}

class Rollback extends Error {}
