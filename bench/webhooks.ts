/**
 * Webhook delivery (`npm run bench -- webhooks`, DATABASE_URL for PostgreSQL):
 * (1) 10,000 outbox events committed at once to a Standard Webhooks receiver on loopback:
 *     events/s delivered, and p50/p99 delay from commit to arrival; the SQL statements and the CPU
 *     (this process, receiver included, and its PostgreSQL backends) per delivered event, with the
 *     claims as on plain PostgreSQL (one statement a batch) and as on Citus (one per site);
 * (2) events committed at a steady rate below capacity: p50/p99 commit-to-arrival delay;
 * (3) add-to-cart req/s with the worker idle vs delivering a backlog (aim: within 10%), and the
 *     process's CPU per add-to-cart in both (delivering: the worker's share included).
 * The receiver runs in this process (it only counts), so it shares the CPU with the server.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { poolContext, withTransaction } from '../packages/server/src/platform/context.js';
import { recordEvents, type OutboxEvent } from '../packages/server/src/platform/events.js';
import { DEFAULT_WEBHOOK_OPTIONS, WebhookWorker, webhookOptionsFromEnv, type WebhookOptions } from '../packages/server/src/services/webhooks/worker.js';
import { countStatements } from '../packages/server/src/test/statements.js';
import { cpuText, loadPerConnection, measureCpu, recordRows, startNamedServer, withCpu, type BenchServer, type CpuPerRequest, type LoadResult } from './lib.js';

const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const CONNECTIONS = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** Counts arrivals by the entity id the bench gave each event, with the arrival time. */
class CountingReceiver {
  readonly arrivals = new Map<string, number>();
  total = 0;
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      this.total++;
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { entityId: string } };
      if (!this.arrivals.has(body.data.entityId)) this.arrivals.set(body.data.entityId, at);
      res.writeHead(204).end();
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  async waitFor(ids: readonly string[], timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (ids.some((id) => !this.arrivals.has(id))) {
      if (Date.now() > deadline) throw new Error(`only ${ids.filter((id) => this.arrivals.has(id)).length} of ${ids.length} events arrived`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Commits events for these entity ids in transactions of `batch`; returns each id's commit time. */
async function commit(server: BenchServer, siteId: string, ids: readonly string[], batch: number): Promise<Map<string, number>> {
  const committed = new Map<string, number>();
  for (let i = 0; i < ids.length; i += batch) {
    const slice = ids.slice(i, i + batch);
    const events: OutboxEvent[] = slice.map((id) => ({ siteId, type: 'bench.event', entityType: 'bench', entityId: id, payload: { id } }));
    await withTransaction(poolContext(server.db), (tx) => recordEvents(tx, events));
    const at = performance.now();
    for (const id of slice) committed.set(id, at);
  }
  return committed;
}


function median(values: number[]): number {
  return percentile(values, 50);
}

export default async function webhooks(): Promise<void> {
  process.env.WEBHOOKS_ALLOW_PRIVATE = 'true';
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const server = await startNamedServer();
  const statements = countStatements(server.db);
  const receiver = new CountingReceiver();
  let worker: WebhookWorker | undefined;
  let benchSite: string | undefined;
  try {
    const created = await server.app.services.sites.createSite({ name: 'bench webhooks' });
    const siteId = created.site.siteId;
    benchSite = siteId;
    // The server's worker, limited to the bench's site (a shared database may hold other sites' events).
    const workerWith = (options: Partial<WebhookOptions> = {}) => new WebhookWorker(
      { db: server.db, now: () => new Date(), publicUrl: server.url, mail: server.app.services.mail, keys: server.app.services.webhooks.keys },
      { ...DEFAULT_WEBHOOK_OPTIONS, ...webhookOptionsFromEnv(process.env), sites: [siteId], ...options },
    );
    worker = workerWith();
    const url = await receiver.start();
    const headers = { authorization: created.apiKey, 'wix-site-id': siteId };
    const sub = await server.app.inject({ method: 'POST', url: '/bodega/v1/webhooks', headers, payload: { subscription: { url, eventTypes: ['*'], format: 'STANDARD' } } });
    if (sub.statusCode !== 200) throw new Error(sub.body);

    // (1) Throughput: a backlog of EVENTS committed, then a worker started; first with Citus's
    // claims (one statement per site), then with plain PostgreSQL's (one statement a batch).
    const drain = async (label: string, drainer: WebhookWorker) => {
      const ids = Array.from({ length: EVENTS }, (_, i) => `${label}-${i}`);
      const committedAt = await commit(server, siteId, ids, 500);
      statements.reset();
      const startedAt = performance.now();
      const { nodeMs, pgMs } = await measureCpu(server, async () => {
        drainer.start();
        await receiver.waitFor(ids, 10 * 60_000);
        await drainer.stop();
      });
      return {
        rate: EVENTS / ((performance.now() - startedAt) / 1000),
        delays: ids.map((id) => (receiver.arrivals.get(id) ?? 0) - (committedAt.get(id) ?? 0)),
        statements: statements.count() / EVENTS,
        cpu: { nodeUs: Math.round((nodeMs * 1000) / EVENTS), pgUs: Math.round((pgMs * 1000) / EVENTS) } satisfies CpuPerRequest,
      };
    };
    const perSite = await drain('per-site', workerWith({ perSiteClaims: true }));
    const burst = await drain('burst', worker);
    const burstDelays = burst.delays;
    // (2) Latency at a steady rate: 20 transactions of 10 events a second (200 events/s).
    const paced: string[] = [];
    const pacedCommitted = new Map<string, number>();
    const steadySeconds = Math.max(3, seconds);
    worker.start();
    for (let tick = 0; tick < steadySeconds * 20; tick++) {
      const ids = Array.from({ length: 10 }, (_, i) => `paced-${tick}-${i}`);
      paced.push(...ids);
      for (const [id, at] of await commit(server, siteId, ids, 10)) pacedCommitted.set(id, at);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await receiver.waitFor(paced, 60_000);
    const pacedDelays = paced.map((id) => (receiver.arrivals.get(id) ?? 0) - (pacedCommitted.get(id) ?? 0));
    await worker.stop();

    // (3) add-to-cart with the worker idle vs delivering (a fresh backlog each round).
    const productRes = await server.app.inject({ method: 'POST', url: '/stores/v1/products', headers, payload: { product: { name: 'Mug', productType: 'physical', priceData: { price: 14 } } } });
    const productId = (productRes.json() as { product: { id: string } }).product.id;
    const tokens = await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
      const res = await server.app.inject({ method: 'POST', url: '/oauth2/token', payload: { clientId: created.clientId, grantType: 'anonymous' } });
      return (res.json() as { access_token: string }).access_token;
    }));
    const addUrl = `${server.url}/ecom/v1/carts/current/add-to-cart`;
    const addBody = { lineItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: productId }, quantity: 1 }] };
    await loadPerConnection(addUrl, tokens, addBody, 1); // warm-up
    // Carts made during idle rounds leave events behind; deliver them before measuring.
    worker.start();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await worker.stop();
    const idle: (LoadResult & { cpu: CpuPerRequest })[] = [];
    const running: (LoadResult & { cpu: CpuPerRequest })[] = [];
    const deliveredWhileLoaded: number[] = [];
    const profile = await statementProfile(server);
    for (let round = 0; round < ROUNDS; round++) {
      await profile?.reset();
      idle.push(await withCpu(server, () => loadPerConnection(addUrl, tokens, addBody, seconds)));
      await profile?.print(`round ${round + 1}, worker idle, ${idle.at(-1)!.requests} add-to-cart`, idle.at(-1)!.requests);
      await commit(server, siteId, Array.from({ length: EVENTS }, (_, i) => `load-${round}-${i}`), 500);
      const before = receiver.total;
      await profile?.reset();
      worker.start();
      running.push(await withCpu(server, () => loadPerConnection(addUrl, tokens, addBody, seconds)));
      deliveredWhileLoaded.push((receiver.total - before) / seconds);
      await worker.stop();
      await profile?.print(`round ${round + 1}, worker delivering, ${running.at(-1)!.requests} add-to-cart, ${receiver.total - before} events delivered`, running.at(-1)!.requests);
      // Drain what is left so the next idle round is idle.
      worker.start();
      await receiver.waitFor(Array.from({ length: EVENTS }, (_, i) => `load-${round}-${i}`), 10 * 60_000);
      await worker.stop();
    }
    for (const r of [...idle, ...running]) if (r.non2xx + r.errors > 0) throw new Error(`add-to-cart: ${r.non2xx} non-2xx, ${r.errors} errors`);

    const idleRps = median(idle.map((r) => r.requestsPerSecond));
    const runningRps = median(running.map((r) => r.requestsPerSecond));
    console.log(`\nnpm run bench -- webhooks — ${server.database}, ${os.cpus().length} cores, node ${process.version}, shared machine (other work was running)`);
    const shapeText = (r: typeof burst) => `${r.rate.toFixed(0)} events/s, ${r.statements.toFixed(3)} statements and ${cpuText(r.cpu)} of CPU per event`;
    console.log(`(1) ${EVENTS} events committed at once, Standard Webhooks, in-process receiver (its CPU counted as node's), ${worker.options.maxInFlight} in flight:`);
    console.log(`    claims as on PostgreSQL: ${shapeText(burst)}; commit-to-arrival p50 ${percentile(burstDelays, 50).toFixed(0)} ms, p99 ${percentile(burstDelays, 99).toFixed(0)} ms (backlog drain)`);
    console.log(`    claims as on Citus (one per site): ${shapeText(perSite)}`);
    console.log(`(2) ${paced.length} events at 200 events/s: commit-to-arrival p50 ${percentile(pacedDelays, 50).toFixed(0)} ms, p99 ${percentile(pacedDelays, 99).toFixed(0)} ms (poll every ${worker.options.pollMs} ms)`);
    console.log(`(3) add-to-cart, ${CONNECTIONS} connections, median of ${ROUNDS} rounds of ${seconds} s:`);
    console.log(`    worker idle ${idleRps.toFixed(0)} req/s (p99 ${median(idle.map((r) => r.p99Ms)).toFixed(1)} ms); worker delivering ${runningRps.toFixed(0)} req/s (p99 ${median(running.map((r) => r.p99Ms)).toFixed(1)} ms), ` +
      `${median(deliveredWhileLoaded).toFixed(0)} events/s delivered meanwhile; ratio ${(runningRps / idleRps).toFixed(2)} (aim ≥ 0.90)`);
    const cpuOf = (rs: typeof idle) => cpuText([...rs].sort((a, b) => a.cpu.nodeUs + a.cpu.pgUs - b.cpu.nodeUs - b.cpu.pgUs)[Math.floor(rs.length / 2)].cpu);
    console.log(`    CPU per add-to-cart (median round): worker idle ${cpuOf(idle)}; worker delivering ${cpuOf(running)} (the worker's and receiver's share included)`);
    recordRows(
      { path: `${EVENTS} events at once, delivered`, unit: 'events/s', rate: burst.rate, p50Ms: percentile(burstDelays, 50), p99Ms: percentile(burstDelays, 99) },
      { path: `the same, Citus's claims (one per site)`, unit: 'events/s', rate: perSite.rate },
      { path: 'events at 200/s, commit to arrival', unit: 'ms', p50Ms: percentile(pacedDelays, 50), p99Ms: percentile(pacedDelays, 99) },
      { path: `add-to-cart, ${CONNECTIONS} conn, worker idle`, unit: 'req/s', rate: idleRps, p99Ms: median(idle.map((r) => r.p99Ms)) },
      { path: `add-to-cart, ${CONNECTIONS} conn, worker delivering`, unit: 'req/s', rate: runningRps, p99Ms: median(running.map((r) => r.p99Ms)), ratio: runningRps / idleRps, versus: 'worker idle', aim: { atLeast: 0.9 } },
    );
  } finally {
    await worker?.stop();
    // The carts' events left queued (one at a time per cart) would sit at the head of the next
    // run's queue on a shared database, and every claim there would walk past them.
    if (benchSite) await server.db.query(`DELETE FROM webhook_deliveries WHERE site_id = $1 AND status IN ('PENDING', 'SENDING')`, [benchSite]);
    await receiver.close();
    await server.close();
  }
}

/**
 * BENCH_PG_PROFILE=1, on a PostgreSQL server that preloads pg_stat_statements: the statements that
 * took PostgreSQL's time in each measured phase, by total time, per add-to-cart of the phase.
 */
async function statementProfile(server: BenchServer): Promise<{ reset(): Promise<void>; print(title: string, requests: number): Promise<void> } | undefined> {
  if (process.env.BENCH_PG_PROFILE !== '1' || !process.env.DATABASE_URL) return undefined;
  const [{ loaded }] = await server.db.query<{ loaded: boolean }>(`SELECT 'pg_stat_statements' = ANY(regexp_split_to_array(current_setting('shared_preload_libraries'), '\\s*,\\s*')) AS loaded`);
  if (!loaded) {
    console.log('    BENCH_PG_PROFILE: this PostgreSQL does not preload pg_stat_statements (shared_preload_libraries); no statement profile');
    return undefined;
  }
  await server.db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  return {
    async reset() { await server.db.query('SELECT pg_stat_statements_reset()'); },
    async print(title, requests) {
      if (requests === 0) return;
      const rows = await server.db.query<{ calls: string; total_ms: number; query: string }>(
        `SELECT calls::text, total_exec_time AS total_ms, regexp_replace(query, '\\s+', ' ', 'g') AS query
           FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
          ORDER BY total_exec_time DESC LIMIT 10`);
      const total = rows.reduce((sum, r) => sum + r.total_ms, 0);
      console.log(`    PostgreSQL time by statement, ${title} (top 10: ${(total * 1000 / requests).toFixed(0)} µs per add-to-cart):`);
      for (const r of rows) console.log(`      ${(r.total_ms * 1000 / requests).toFixed(0).padStart(5)} µs/add  ${r.calls.padStart(7)} calls  ${r.query.slice(0, 110)}`);
    },
  };
}
