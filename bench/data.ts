/**
 * Data store at scale (`npm run bench -- data [--items N] [--seconds S] [--keep]`, DATABASE_URL for PostgreSQL):
 *   1. loads N items (default 1,000,000) through POST /wix-data/v2/bulk/items/insert, 1000 a call,
 *      and reports items/s;
 *   2. times count and distinct through the API before any index;
 *   3. declares an index on two fields (category, price) through the indexes API;
 *   4. times (a) a filtered, sorted 50-item page through the API and (b) the same compiled SQL
 *      straight on the database, p50/p99 and the ratio a/b; then count and distinct again.
 * Requests come from a child process (sequential, one at a time, timed with performance.now) so
 * the load generator does not share the server's event loop; the page measurements take turns.
 */
import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { BARE_ROUTE, startServer, type BenchServer } from './lib.js';
import { compileQuery } from '../packages/server/src/services/data/query-compiler.js';

const COLLECTION = 'BenchItems';
const CATEGORIES = 100;
const PAGE_QUERY = { filter: { category: 'c42' }, sort: [{ fieldName: 'price', order: 'ASC' }], paging: { limit: 50 } };
const COUNT_FILTER = { category: 'c42' };
const DISTINCT_REQUEST = { fieldName: 'price', filter: { category: 'c42' }, paging: { limit: 50 } };

interface Latency {
  p50: number;
  p99: number;
  samples: number;
}

function option(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(`--${name}`);
  const value = at >= 0 ? Number(args[at + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} needs a positive number`);
  return value;
}

export default async function data(args: string[]): Promise<void> {
  const total = option(args, 'items', Number(process.env.BENCH_ITEMS ?? 1_000_000));
  const seconds = option(args, 'seconds', Number(process.env.BENCH_SECONDS ?? 5));
  const server = await startServer();
  try {
    const created = await server.app.services.sites.createSite({ name: 'bench data' });
    const auth = { authorization: created.apiKey, 'wix-site-id': created.site.siteId, 'content-type': 'application/json' };
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
      return JSON.parse(text) as Record<string, unknown>;
    };
    await api('POST', '/wix-data/v2/collections', {
      collection: { id: COLLECTION, permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' } },
    });

    console.log(`loading ${total.toLocaleString('en')} items on ${server.database} …`);
    const load = await runChild(LOADER, { URL: `${server.url}/wix-data/v2/bulk/items/insert`, AUTH: JSON.stringify(auth), COLLECTION, TOTAL: String(total), CONCURRENCY: '4', CATEGORIES: String(CATEGORIES) });
    const loaded = JSON.parse(load) as { ms: number; failures: number };
    if (loaded.failures > 0) throw new Error(`${loaded.failures} bulk calls failed while loading`);
    const itemsPerSecond = total / (loaded.ms / 1000);
    if (server.db.kind === 'postgres') await server.db.exec('ANALYZE data_items');

    const probe = async (path: string, body: unknown, label: string) => percentiles(await probeApi(server, auth, path, body, seconds, label));
    const countBefore = await probe('/wix-data/v2/items/count', { dataCollectionId: COLLECTION, filter: COUNT_FILTER }, 'count, no index');
    const distinctBefore = await probe('/wix-data/v2/items/query-distinct-values', { dataCollectionId: COLLECTION, ...DISTINCT_REQUEST }, 'distinct, no index');
    const pageBefore = await probe('/wix-data/v2/items/query', { dataCollectionId: COLLECTION, query: PAGE_QUERY }, 'page, no index');

    const indexStart = performance.now();
    const index = await api('POST', '/wix-data/v2/indexes', {
      dataCollectionId: COLLECTION,
      index: { name: 'category then price', fields: [{ path: 'category' }, { path: 'price' }] },
    });
    const indexMs = performance.now() - indexStart;
    if ((index.index as { status?: string }).status !== 'ACTIVE') throw new Error(`index not active: ${JSON.stringify(index)}`);
    if (server.db.kind === 'postgres') await server.db.exec('ANALYZE data_items');

    // A storefront reads as a visitor: its token is verified in memory, where an API key costs a lookup.
    const token = (await (await fetch(`${server.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: created.clientId, grantType: 'anonymous' }),
    })).json()) as { access_token: string };
    const visitor = { authorization: token.access_token, 'content-type': 'application/json' };
    // The four page measurements take turns, a second at a time, so that whatever else runs on the
    // machine weighs on each alike.
    const page = { dataCollectionId: COLLECTION, query: PAGE_QUERY };
    const sqlPlan = compileQuery(created.site.siteId, COLLECTION, PAGE_QUERY);
    const turns: [string, (s: number) => Promise<number[]>][] = [
      ['visitor', (s) => probeApi(server, visitor, '/wix-data/v2/items/query', page, s, 'page, visitor')],
      ['apiKey', (s) => probeApi(server, auth, '/wix-data/v2/items/query', page, s, 'page, API key')],
      ['sql', (s) => probeSql(server, sqlPlan, s)],
      ['bare', (s) => probeApi(server, auth, `${BARE_ROUTE}?site=${created.site.siteId}`, undefined, s, 'bare route')],
    ];
    const samples = new Map<string, number[]>(turns.map(([name]) => [name, []]));
    for (let round = 0; round < seconds; round++) {
      for (const [name, measure] of turns) samples.get(name)?.push(...(await measure(1)));
    }
    const pageApi = percentiles(samples.get('visitor') ?? []);
    const pageApiKey = percentiles(samples.get('apiKey') ?? []);
    const pageSql = percentiles(samples.get('sql') ?? []);
    const bare = percentiles(samples.get('bare') ?? []);
    const countAfter = await probe('/wix-data/v2/items/count', { dataCollectionId: COLLECTION, filter: COUNT_FILTER }, 'count, index');
    const distinctAfter = await probe('/wix-data/v2/items/query-distinct-values', { dataCollectionId: COLLECTION, ...DISTINCT_REQUEST }, 'distinct, index');

    const row = (name: string, l: Latency) => `${name.padEnd(52)}${l.p50.toFixed(2).padStart(9)}${l.p99.toFixed(2).padStart(9)}${String(l.samples).padStart(9)}`;
    console.log(`\nnpm run bench -- data — ${server.database}, node ${process.version}, ${total.toLocaleString('en')} items`);
    console.log(`bulk insert through the API: ${Math.round(itemsPerSecond).toLocaleString('en')} items/s (${(loaded.ms / 1000).toFixed(1)} s, 1000 items a call, 4 calls at a time)`);
    console.log(`index on (category, price) built in ${(indexMs / 1000).toFixed(1)} s`);
    console.log(`${'one request at a time'.padEnd(52)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'samples'.padStart(9)}`);
    console.log(row('(a) filtered, sorted 50-item page via API (visitor)', pageApi));
    console.log(row('    the same page via API with an API key', pageApiKey));
    console.log(row('(b) the same SQL straight on the database', pageSql));
    console.log(row('    bare route: HTTP and one primary-key query', bare));
    console.log(row('    the page via API (API key) before the index', pageBefore));
    console.log(row('count {category} via API, no index', countBefore));
    console.log(row('count {category} via API, index', countAfter));
    console.log(row('distinct price {category} via API, no index', distinctBefore));
    console.log(row('distinct price {category} via API, index', distinctAfter));
    console.log(`ratio a/b: p50 ${(pageApi.p50 / pageSql.p50).toFixed(2)}, p99 ${(pageApi.p99 / pageSql.p99).toFixed(2)} (targets: ratio < 2, p50 < 10 ms)`);
    if (args.includes('--keep')) console.log(`kept: site ${created.site.siteId}, collection ${COLLECTION}`);
    else await api('DELETE', `/wix-data/v2/collections/${COLLECTION}`);
  } finally {
    await server.close();
  }
}

/** (b): the compiled page query run by the server's own database handle, one at a time. */
async function probeSql(server: BenchServer, plan: ReturnType<typeof compileQuery>, seconds: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let warm = 0; warm < 10; warm++) await server.db.query(plan.sql.sql, plan.sql.params);
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const start = performance.now();
    const rows = await server.db.query(plan.sql.sql, plan.sql.params);
    latencies.push(performance.now() - start);
    if (rows.length !== 51) throw new Error(`the page query returned ${rows.length} rows`);
  }
  return latencies;
}

async function probeApi(server: BenchServer, auth: Record<string, string>, path: string, body: unknown, seconds: number, label: string): Promise<number[]> {
  const request: Record<string, string> = body === undefined ? { METHOD: 'GET' } : { METHOD: 'POST', BODY: JSON.stringify(body) };
  const out = await runChild(PROBER, { URL: `${server.url}${path}`, AUTH: JSON.stringify(auth), SECONDS: String(seconds), ...request });
  const { latencies, failures } = JSON.parse(out) as { latencies: number[]; failures: number };
  if (failures > 0) throw new Error(`${label}: ${failures} requests failed`);
  return latencies;
}

function percentiles(latencies: number[]): Latency {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), samples: sorted.length };
}

function runChild(script: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}

/** The loader: TOTAL items in calls of 1000, CONCURRENCY calls in flight; prints {ms, failures}. */
const LOADER = `
const { URL: url, AUTH, COLLECTION, TOTAL, CONCURRENCY, CATEGORIES } = process.env;
const headers = JSON.parse(AUTH);
const total = Number(TOTAL), categories = Number(CATEGORIES);
let next = 0, failures = 0;
function body(from, n) {
  const parts = [];
  for (let k = from; k < from + n; k++) {
    parts.push('{"data":{"_id":"i' + String(k).padStart(8, '0') + '","category":"c' + (k % categories) + '","price":' + ((k * 7919) % 100000) +
      ',"title":"Item number ' + k + '","stock":' + (k % 50) + ',"tags":["t' + (k % 7) + '","t' + (k % 11) + '"]}}');
  }
  return '{"dataCollectionId":"' + COLLECTION + '","dataItems":[' + parts.join(',') + ']}';
}
async function worker() {
  for (;;) {
    const from = next;
    if (from >= total) return;
    next += 1000;
    const res = await fetch(url, { method: 'POST', headers, body: body(from, Math.min(1000, total - from)) });
    const json = await res.json();
    if (res.status !== 200 || json.bulkActionMetadata.totalFailures > 0) failures++;
  }
}
const start = performance.now();
await Promise.all(Array.from({ length: Number(CONCURRENCY) }, worker));
console.log(JSON.stringify({ ms: performance.now() - start, failures }));
`;

/** The prober: one request at a time for SECONDS (after a warm-up); prints every latency in ms. */
const PROBER = `
const { URL: url, AUTH, BODY, SECONDS, METHOD } = process.env;
const headers = JSON.parse(AUTH);
if (METHOD === 'GET') delete headers['content-type'];
const latencies = [];
let failures = 0;
const once = async () => {
  const start = performance.now();
  const res = await fetch(url, { method: METHOD, headers, body: METHOD === 'GET' ? undefined : BODY });
  await res.arrayBuffer();
  if (res.status !== 200) failures++;
  return performance.now() - start;
};
for (let i = 0; i < 10; i++) await once();
const end = performance.now() + Number(SECONDS) * 1000;
while (performance.now() < end || latencies.length < 5) latencies.push(await once());
console.log(JSON.stringify({ latencies, failures }));
`;
