/**
 * Memory per server process under load (`npm run bench -- memory`, DATABASE_URL for PostgreSQL):
 * the built server (`packages/server/dist/main.js`, as in production; `npm run build` first) with
 * WORKERS (default: 2 on PostgreSQL, 1 on PGlite), loaded by autocannon in other processes with a
 * mix of calls — the products page, anonymous-token grants, get-current-cart, add-to-cart — for
 * BENCH_ROUNDS rounds. Each serving process's peak RSS is read from the kernel (VmHWM), so it is
 * the server's alone: neither the load generator nor this bench is in it. Also printed: the peak
 * of its private part (RSS less the pages it shares with other processes, mostly node's own code).
 * Aim: ≤ 200 MB peak RSS per worker. BENCH_SERVER_NODE_OPTIONS passes V8 flags to the server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDb } from '../packages/server/src/platform/db.js';
import { migrate } from '../packages/server/src/platform/migrate.js';
import { buildApp } from '../packages/server/src/app.js';
import { assertClean, cpuSecondsOf, load, loadPerConnection, printResults, recordRows, sampleMemory, startBuiltServer, type LoadResult } from './lib.js';

const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = 20;
const AIM_MB = 200;

interface Fixture { siteId: string; clientId: string; productIds: string[] }

/** A site with three products, made in this process before the server starts (then closed). */
async function makeSite(databaseUrl: string | undefined, dataDir: string | undefined): Promise<Fixture> {
  const db = await openDb(databaseUrl ? { databaseUrl } : { dataDir });
  try {
    await migrate(db);
    const app = await buildApp({ db, config: { publicUrl: 'http://127.0.0.1', logLevel: 'silent', webDir: undefined, smtpUrl: undefined } });
    try {
      const created = await app.services.sites.createSite({ name: 'bench memory' });
      const headers = { authorization: created.apiKey, 'wix-site-id': created.site.siteId };
      const productIds: string[] = [];
      for (const [name, price] of [['Mug', 14], ['Beans', 11.5], ['Tote', 18]] as const) {
        const res = await app.inject({ method: 'POST', url: '/stores/v1/products', headers, payload: { product: { name, productType: 'physical', priceData: { price } } } });
        if (res.statusCode !== 200) throw new Error(res.body);
        productIds.push((res.json() as { product: { id: string } }).product.id);
      }
      return { siteId: created.site.siteId, clientId: created.clientId, productIds };
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
  }
}

export default async function memory(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  const workers = Number(process.env.WORKERS ?? (databaseUrl ? 2 : 1));
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const dataDir = databaseUrl ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-bench-memory-'));
  const fixture = await makeSite(databaseUrl, dataDir);
  const server = await startBuiltServer(workers, dataDir ? { DATA_DIR: dataDir } : {});
  try {
    const pids = server.servingPids();
    const idle = pids.map((pid) => sampleMemory(pid).stop());
    const samplers = pids.map((pid) => sampleMemory(pid));
    const token = async () => {
      const res = await fetch(`${server.url}/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId: fixture.clientId, grantType: 'anonymous' }) });
      return ((await res.json()) as { access_token: string }).access_token;
    };
    const shoppers = await Promise.all(Array.from({ length: CONNECTIONS }, token));
    const add = { lineItems: fixture.productIds.map((id) => ({ catalogReference: { appId: STORES_APP_ID, catalogItemId: id }, quantity: 1 })) };
    const runs: Record<string, LoadResult[]> = { products: [], token: [], get: [], add: [] };
    const cpuBefore = pids.map(cpuSecondsOf);
    for (let round = 0; round < ROUNDS; round++) {
      runs.products.push(await load(`${server.url}/stores-reader/v1/products/query`, { method: 'POST', body: { query: { paging: { limit: 50 } } }, headers: { authorization: shoppers[0] }, connections: CONNECTIONS, seconds }));
      runs.token.push(await load(`${server.url}/oauth2/token`, { method: 'POST', body: { clientId: fixture.clientId, grantType: 'anonymous' }, connections: CONNECTIONS, seconds }));
      runs.add.push(await loadPerConnection(`${server.url}/ecom/v1/carts/current/add-to-cart`, shoppers, add, seconds));
      runs.get.push(await load(`${server.url}/ecom/v1/carts/current`, { headers: { authorization: shoppers[1] }, connections: CONNECTIONS, seconds }));
    }
    const peaks = samplers.map((s) => s.stop());
    // CPU per request hardly moves with the machine's load, unlike req/s: the price of a heap flag.
    const cpu = pids.reduce((sum, pid, i) => sum + cpuSecondsOf(pid) - cpuBefore[i], 0);
    const requests = Object.values(runs).flat().reduce((sum, r) => sum + r.requests, 0);
    for (const [name, results] of Object.entries(runs)) for (const r of results) assertClean(name, r);
    const last = (name: string) => runs[name][runs[name].length - 1];
    printResults(`the built server under load, WORKERS=${workers} (last of ${ROUNDS} rounds)`, databaseUrl ? 'PostgreSQL' : 'embedded PGlite', [
      { name: `products page (50), ${CONNECTIONS} conn`, result: last('products') },
      { name: `anonymous-token grant, ${CONNECTIONS} conn`, result: last('token') },
      { name: `add-to-cart, ${CONNECTIONS} own carts`, result: last('add') },
      { name: `get-current-cart, ${CONNECTIONS} conn`, result: last('get') },
    ]);
    console.log(`server CPU per request, all calls and workers: ${((cpu / requests) * 1e6).toFixed(0)} µs (${requests} requests); load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    const flags = process.env.BENCH_SERVER_NODE_OPTIONS ? ` (NODE_OPTIONS ${process.env.BENCH_SERVER_NODE_OPTIONS})` : '';
    console.log(`\npeak memory of each serving process${flags}, the server alone (load generator and bench in other processes):`);
    pids.forEach((pid, i) => {
      const p = peaks[i];
      console.log(`  ${workers === 1 ? 'server' : 'worker'} ${pid}: idle ${idle[i].peakRssMb.toFixed(0)} MB RSS; under load peak ${p.peakRssMb.toFixed(0)} MB RSS, of it private ≤ ${p.peakPrivateMb.toFixed(0)} MB (the rest: node's code, shared)`);
      recordRows({ path: `peak RSS, ${workers === 1 ? 'the server' : `worker ${i + 1} of ${workers}`} alone, under load`, unit: 'MB', rate: p.peakRssMb, ratio: p.peakRssMb / AIM_MB, versus: `${AIM_MB} MB`, aim: { atMost: 1 } });
    });
  } finally {
    await server.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
