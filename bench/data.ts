/**
 * Data store at scale (`npm run bench -- data [--items N] [--seconds S] [--no-index] [--keep]`,
 * DATABASE_URL for PostgreSQL):
 *   1. loads N items (default 1,000,000) through POST /wix-data/v2/bulk/items/insert, 1000 a call,
 *      and the same items through a bare route doing one hand-written
 *      `INSERT … SELECT FROM jsonb_array_elements` per call (then removed again): items/s and ratio;
 *   2. before any index: the filtered ({category: eq, price: $gt}), price-sorted 50-item page under
 *      load (autocannon, 10 connections) through the API as a visitor and through a bare route
 *      running the same filter as plain hand-written jsonb SQL (`data->>'category' = $1 AND data->'price' >
 *      to_jsonb($2::numeric) ORDER BY data->'price'`), req/s and ratio; count and distinct times;
 *   3. (unless --no-index) declares an index on (category, price) through the indexes API;
 *   4. times (a) the page through the API, (b) the same compiled SQL straight on the database and
 *      (c) behind a bare route, p50/p99 and the ratios a/b, a/c; then count and distinct again.
 * Timed requests come from a child process (sequential, one at a time, timed with performance.now)
 * so the load generator does not share the server's event loop; the page measurements take turns.
 */
import { execFile } from 'node:child_process';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { BARE_ROUTE, load as loadUrl, recordRows, startServer, type BenchServer, type LoadResult } from './lib.js';
import { compileQuery } from '../packages/server/src/services/data/query-compiler.js';

const COLLECTION = 'BenchItems';
const CATEGORIES = 100;
const BARE_COLLECTION = 'BenchBare';
const PRICE_ABOVE = 50_000;
const PAGE_QUERY = { filter: { category: 'c42', price: { $gt: PRICE_ABOVE } }, sort: [{ fieldName: 'price', order: 'ASC' }], paging: { limit: 50 } };
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
  const bare = await startBareRoutes(server);
  try {
    const created = await server.app.services.sites.createSite({ name: 'bench data' });
    const siteId = created.site.siteId;
    const auth = { authorization: created.apiKey, 'wix-site-id': siteId, 'content-type': 'application/json' };
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.url}${path}`, { method, headers: auth, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
      return JSON.parse(text) as Record<string, unknown>;
    };
    await api('POST', '/wix-data/v2/collections', {
      collection: {
        id: COLLECTION,
        fields: [{ key: 'category', type: 'TEXT' }, { key: 'price', type: 'NUMBER' }, { key: 'title', type: 'TEXT' }, { key: 'stock', type: 'NUMBER' }],
        permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' },
      },
    });

    console.log(`loading ${total.toLocaleString('en')} items on ${server.database} (load ${loadAverage()}) …`);
    const loaderEnv = { AUTH: JSON.stringify({ ...auth, 'x-bench-site': siteId }), TOTAL: String(total), CONCURRENCY: '4', CATEGORIES: String(CATEGORIES) };
    // The same items, the same calls, through one hand-written statement per call (removed
    // afterwards), taking turns a tenth of the items at a time.
    const loaded = { ms: 0, failures: 0 };
    const bareLoaded = { ms: 0, failures: 0 };
    // The outbox keeps only events something consumes: the plain site has no webhook subscription,
    // so its inserts write no events. A second site subscribes to data_item.created (no worker
    // runs here, so its events stay in the outbox): its inserts write an event per item.
    const subscribed = await server.app.services.sites.createSite({ name: 'bench data, subscribed' });
    const subscribedAuth = { authorization: subscribed.apiKey, 'wix-site-id': subscribed.site.siteId, 'content-type': 'application/json' };
    for (const [path, body] of [
      ['/wix-data/v2/collections', { collection: { id: COLLECTION, fields: [{ key: 'category', type: 'TEXT' }, { key: 'price', type: 'NUMBER' }], permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' } } }],
      ['/bodega/v1/webhooks', { subscription: { url: 'https://hooks.example.com/bench', eventTypes: ['data_item.created'], format: 'STANDARD' } }],
    ] as const) {
      const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: subscribedAuth, body: JSON.stringify(body) });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    }
    const subscribedLoaded = { ms: 0, failures: 0, items: 0 };
    const subscribedTotal = Math.min(total, 100_000);
    const slice = Math.ceil(total / 10 / 1000) * 1000;
    for (let from = 0; from < total; from += slice) {
      const range = { START: String(from), TOTAL: String(Math.min(total, from + slice)) };
      for (const [into, url, collection] of [[loaded, `${server.url}/wix-data/v2/bulk/items/insert`, COLLECTION], [bareLoaded, `${bare.url}/bare/bulk`, BARE_COLLECTION]] as const) {
        const run = JSON.parse(await runChild(LOADER, { ...loaderEnv, ...range, URL: url, COLLECTION: collection })) as { ms: number; failures: number };
        into.ms += run.ms;
        into.failures += run.failures;
      }
      // The subscribed site takes its turn too, up to 100,000 items (its events are not kept).
      const subscribedRange = { START: String(Math.min(from, subscribedTotal)), TOTAL: String(Math.min(subscribedTotal, from + slice)) };
      if (from < subscribedTotal) {
        const run = JSON.parse(await runChild(LOADER, {
          ...loaderEnv, ...subscribedRange, AUTH: JSON.stringify(subscribedAuth), URL: `${server.url}/wix-data/v2/bulk/items/insert`, COLLECTION,
        })) as { ms: number; failures: number };
        subscribedLoaded.ms += run.ms;
        subscribedLoaded.failures += run.failures;
        subscribedLoaded.items += Number(subscribedRange.TOTAL) - Number(subscribedRange.START);
      }
    }
    if (loaded.failures > 0) throw new Error(`${loaded.failures} bulk calls failed while loading`);
    if (bareLoaded.failures > 0) throw new Error(`${bareLoaded.failures} bare bulk calls failed`);
    if (subscribedLoaded.failures > 0) throw new Error(`${subscribedLoaded.failures} bulk calls failed on the subscribed site`);
    const itemsPerSecond = total / (loaded.ms / 1000);
    const bareItemsPerSecond = total / (bareLoaded.ms / 1000);
    const subscribedItemsPerSecond = subscribedLoaded.items / (subscribedLoaded.ms / 1000);
    const [kept] = await server.db.query<{ n: number }>("SELECT count(*)::int AS n FROM outbox_events WHERE site_id = $1 AND type = 'data_item.created'", [subscribed.site.siteId]);
    if (kept.n !== subscribedLoaded.items) throw new Error(`the subscribed site kept ${kept.n} events for ${subscribedLoaded.items} items`);
    await server.db.query('DELETE FROM data_items WHERE site_id = $1 AND collection_id = $2', [siteId, BARE_COLLECTION]);
    await server.db.query('DELETE FROM data_items WHERE site_id = $1', [subscribed.site.siteId]);
    await server.db.query('DELETE FROM outbox_events WHERE site_id = $1', [subscribed.site.siteId]);
    if (server.db.kind === 'postgres') await server.db.exec('VACUUM ANALYZE data_items');

    // A storefront reads as a visitor: its token is verified in memory, where an API key costs a lookup.
    const token = (await (await fetch(`${server.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: created.clientId, grantType: 'anonymous' }),
    })).json()) as { access_token: string };
    const visitor = { authorization: token.access_token, 'content-type': 'application/json' };
    const page = { dataCollectionId: COLLECTION, query: PAGE_QUERY };

    // The unindexed page under load: the API against the hand-written SQL behind a bare route.
    const scanLoad = `load ${loadAverage()}`;
    const bareUrl = `${bare.url}/bare/page?site=${siteId}`;
    const pageUrl = `${server.url}/wix-data/v2/items/query`;
    const apiPage = { method: 'POST' as const, headers: { authorization: visitor.authorization }, body: page };
    await loadUrl(bareUrl, { seconds: 1 });
    await loadUrl(pageUrl, { ...apiPage, seconds: 1 });
    // Taking turns, two seconds at a time, so that other work on the machine weighs on each alike.
    const [scanBare, scanBareText, scanApi] = await inTurns(seconds, [
      (s) => loadUrl(bareUrl, { seconds: s }),
      (s) => loadUrl(`${bareUrl}&form=text`, { seconds: s }),
      (s) => loadUrl(pageUrl, { ...apiPage, seconds: s }),
    ]);
    for (const [name, result] of [['bare page', scanBare], ['bare page, text', scanBareText], ['API page', scanApi]] as const) {
      if (result.non2xx + result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors under load`);
    }

    const probe = async (path: string, body: unknown, label: string) => percentiles(await probeApi(server, auth, path, body, seconds, label));
    const countBefore = await probe('/wix-data/v2/items/count', { dataCollectionId: COLLECTION, filter: COUNT_FILTER }, 'count, no index');
    const distinctBefore = await probe('/wix-data/v2/items/query-distinct-values', { dataCollectionId: COLLECTION, ...DISTINCT_REQUEST }, 'distinct, no index');

    const row = (name: string, l: Latency) => `${name.padEnd(52)}${l.p50.toFixed(2).padStart(9)}${l.p99.toFixed(2).padStart(9)}${String(l.samples).padStart(9)}`;
    const loadRow = (name: string, l: LoadResult, ratio?: number) =>
      `${name.padEnd(52)}${l.requestsPerSecond.toFixed(1).padStart(9)}${l.p50Ms.toFixed(1).padStart(9)}${l.p99Ms.toFixed(1).padStart(9)}${(ratio === undefined ? '' : ratio.toFixed(2)).padStart(7)}`;
    const report: string[] = [
      `\nnpm run bench -- data — ${server.database}, node ${process.version}, ${os.cpus().length} cores, ${total.toLocaleString('en')} items`,
      `bulk insert, 1000 items a call, 4 calls at a time:`,
      `  through the API:                    ${Math.round(itemsPerSecond).toLocaleString('en').padStart(9)} items/s (${(loaded.ms / 1000).toFixed(1)} s)`,
      `  one hand-written INSERT … SELECT:   ${Math.round(bareItemsPerSecond).toLocaleString('en').padStart(9)} items/s (${(bareLoaded.ms / 1000).toFixed(1)} s)`,
      `  ratio API/hand-written: ${(itemsPerSecond / bareItemsPerSecond).toFixed(2)} (aim ≥ 0.5; no subscription, so no events written)`,
      `  through the API, a data_item.created subscription: ${Math.round(subscribedItemsPerSecond).toLocaleString('en').padStart(9)} items/s (${subscribedLoaded.items.toLocaleString('en')} items, an event each); ratio ${(subscribedItemsPerSecond / bareItemsPerSecond).toFixed(2)}`,
      `no index, under load (10 connections, ${scanLoad})${' '.repeat(4)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'ratio'.padStart(7)}`,
      loadRow('  plain jsonb SQL (->> = text, -> > to_jsonb), bare', scanBare),
      loadRow('  text SQL (->>, ::numeric), bare, for reference', scanBareText),
      loadRow('  {category, price $gt} by price, API (visitor)', scanApi, scanApi.requestsPerSecond / scanBare.requestsPerSecond),
      `  ratio API / plain jsonb form: ${(scanApi.requestsPerSecond / scanBare.requestsPerSecond).toFixed(2)} (aim ≥ 0.6); API / (->>, ::numeric) form: ${(scanApi.requestsPerSecond / scanBareText.requestsPerSecond).toFixed(2)}`,
      `${'one request at a time'.padEnd(52)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'samples'.padStart(9)}`,
      row('count {category} via API, no index', countBefore),
      row('distinct price {category} via API, no index', distinctBefore),
    ];

    recordRows(
      { path: 'data bulk insert, 1000 a call (API)', unit: 'items/s', rate: itemsPerSecond, ratio: itemsPerSecond / bareItemsPerSecond, versus: 'INSERT…SELECT', aim: { atLeast: 0.5 } },
      { path: 'data bulk insert, with a data-item webhook subscription', unit: 'items/s', rate: subscribedItemsPerSecond, ratio: subscribedItemsPerSecond / bareItemsPerSecond, versus: 'INSERT…SELECT' },
      { path: 'data bulk insert, hand-written INSERT…SELECT', unit: 'items/s', rate: bareItemsPerSecond },
      { path: 'data page, no index, plain jsonb SQL bare', unit: 'req/s', rate: scanBare.requestsPerSecond, p50Ms: scanBare.p50Ms, p99Ms: scanBare.p99Ms },
      {
        path: 'data page, no index, API (visitor)', unit: 'req/s', rate: scanApi.requestsPerSecond, p50Ms: scanApi.p50Ms, p99Ms: scanApi.p99Ms,
        ratio: scanApi.requestsPerSecond / scanBare.requestsPerSecond, versus: 'plain jsonb SQL bare', aim: { atLeast: 0.6 }, errors: scanApi.non2xx + scanApi.errors,
      },
    );

    if (!args.includes('--no-index')) {
      const indexStart = performance.now();
      const index = await api('POST', '/wix-data/v2/indexes', {
        dataCollectionId: COLLECTION,
        index: { name: 'category then price', fields: [{ path: 'category' }, { path: 'price' }] },
      });
      const indexMs = performance.now() - indexStart;
      if ((index.index as { status?: string }).status !== 'ACTIVE') throw new Error(`index not active: ${JSON.stringify(index)}`);
      if (server.db.kind === 'postgres') await server.db.exec('ANALYZE data_items');
      // The four page measurements take turns, a second at a time, so that whatever else runs on the
      // machine weighs on each alike.
      const sqlPlan = compileQuery(siteId, COLLECTION, PAGE_QUERY);
      const indexLoad = `load ${loadAverage()}`;
      const turns: [string, (s: number) => Promise<number[]>][] = [
        ['visitor', (s) => probeApi(server, visitor, '/wix-data/v2/items/query', page, s, 'page, visitor')],
        ['apiKey', (s) => probeApi(server, auth, '/wix-data/v2/items/query', page, s, 'page, API key')],
        ['sql', (s) => probeSql(server, sqlPlan, s)],
        ['bareSql', (s) => probeApi(server, auth, `${bare.url}/bare/compiled?site=${siteId}`, undefined, s, 'compiled SQL behind a bare route')],
        ['bare', (s) => probeApi(server, auth, `${BARE_ROUTE}?site=${siteId}`, undefined, s, 'bare route')],
      ];
      const samples = new Map<string, number[]>(turns.map(([name]) => [name, []]));
      for (let round = 0; round < seconds; round++) {
        for (const [name, measure] of turns) samples.get(name)?.push(...(await measure(1)));
      }
      const pageApi = percentiles(samples.get('visitor') ?? []);
      const pageApiKey = percentiles(samples.get('apiKey') ?? []);
      const pageSql = percentiles(samples.get('sql') ?? []);
      const bareRoute = percentiles(samples.get('bare') ?? []);
      const bareSql = percentiles(samples.get('bareSql') ?? []);
      const countAfter = await probe('/wix-data/v2/items/count', { dataCollectionId: COLLECTION, filter: COUNT_FILTER }, 'count, index');
      const distinctAfter = await probe('/wix-data/v2/items/query-distinct-values', { dataCollectionId: COLLECTION, ...DISTINCT_REQUEST }, 'distinct, index');
      recordRows(
        { path: `data page, ${(total / 1e6).toFixed(total >= 1e6 ? 0 : 1)}M items, index: SQL behind bare HTTP`, unit: 'ms', p50Ms: bareSql.p50, p99Ms: bareSql.p99 },
        { path: `data page, ${(total / 1e6).toFixed(total >= 1e6 ? 0 : 1)}M items, index: SQL in-process`, unit: 'ms', p50Ms: pageSql.p50, p99Ms: pageSql.p99 },
        {
          path: `data page, ${(total / 1e6).toFixed(total >= 1e6 ? 0 : 1)}M items, index: API (visitor), p50`, unit: 'ms', p50Ms: pageApi.p50, p99Ms: pageApi.p99,
          ratio: pageApi.p50 / bareSql.p50, versus: 'SQL + bare HTTP', aim: { atMost: 2 },
        },
      );
      report.push(
        `index on (category, price) built in ${(indexMs / 1000).toFixed(1)} s; with the index, one request at a time (${indexLoad}):`,
        row('(a) filtered, sorted 50-item page via API (visitor)', pageApi),
        row('    the same page via API with an API key', pageApiKey),
        row('(b) the same SQL straight on the database', pageSql),
        row('(c) the same SQL behind a bare route (HTTP, no auth)', bareSql),
        row('    bare route: HTTP and one primary-key query', bareRoute),
        row('count {category} via API, index', countAfter),
        row('distinct price {category} via API, index', distinctAfter),
        `ratio a/b: p50 ${(pageApi.p50 / pageSql.p50).toFixed(2)}, p99 ${(pageApi.p99 / pageSql.p99).toFixed(2)} (aim: p50 ratio ≤ 2); ` +
          `a/c: p50 ${(pageApi.p50 / bareSql.p50).toFixed(2)}, p99 ${(pageApi.p99 / bareSql.p99).toFixed(2)}`,
      );
    }
    console.log(report.join('\n'));
    if (args.includes('--keep')) console.log(`kept: site ${siteId}, collection ${COLLECTION}`);
    else {
      await api('DELETE', `/wix-data/v2/collections/${COLLECTION}`);
      // Nothing delivers the bench site's events: left behind, a million a run, they would slow every later run.
      await server.db.query('DELETE FROM outbox_events WHERE site_id = $1', [siteId]);
      await server.db.query('DELETE FROM refresh_tokens WHERE site_id = $1', [siteId]);
      await server.db.query('DELETE FROM sites WHERE site_id = $1', [siteId]);
    }
  } finally {
    await bare.close();
    await server.close();
  }
}

/** Runs each load in turn, two seconds at a time, for about `seconds` each; sums the requests. */
async function inTurns(seconds: number, loads: ((seconds: number) => Promise<LoadResult>)[]): Promise<LoadResult[]> {
  const runs: LoadResult[][] = loads.map(() => []);
  for (let done = 0; done < seconds; done += 2) {
    for (const [index, run] of loads.entries()) runs[index]?.push(await run(Math.min(2, seconds - done)));
  }
  return runs.map((results) => {
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
    const requests = results.reduce((sum, result) => sum + result.requests, 0);
    return {
      requestsPerSecond: requests / seconds,
      p50Ms: median(results.map((result) => result.p50Ms)),
      p99Ms: Math.max(...results.map((result) => result.p99Ms)),
      requests,
      non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
      errors: results.reduce((sum, result) => sum + result.errors, 0),
    };
  });
}

const loadAverage = (): string => os.loadavg().map((value) => value.toFixed(2)).join(' ');

/**
 * The baselines: a bare Fastify on the same database handle, with no auth, validation or
 * permissions. The page is the filter as one would write it by hand for JSONB (no type guards);
 * the bulk insert is one INSERT … SELECT FROM jsonb_array_elements of the posted items.
 */
async function startBareRoutes(server: BenchServer): Promise<{ url: string; close(): Promise<void> }> {
  const bare = Fastify({ bodyLimit: 64 * 1024 * 1024 });
  // The baseline is the plain jsonb form one writes by hand (the issue's): the category as text,
  // the price compared as jsonb, no type guards. For reference, text extraction with a numeric cast
  // (which fails on a price that is not a number).
  bare.get('/bare/page', async (req) => {
    const { site = '', form } = req.query as { site?: string; form?: string };
    const items = form === 'text'
      ? await server.db.query(
        `SELECT data FROM data_items WHERE site_id = $1 AND collection_id = $2 AND data->>'category' = $3 AND (data->>'price')::numeric > $4
         ORDER BY (data->>'price')::numeric LIMIT 50`,
        [site, COLLECTION, PAGE_QUERY.filter.category, PRICE_ABOVE],
      )
      : await server.db.query(
        `SELECT data FROM data_items WHERE site_id = $1 AND collection_id = $2 AND data->>'category' = $3 AND data->'price' > to_jsonb($4::numeric)
         ORDER BY data->'price' LIMIT 50`,
        [site, COLLECTION, PAGE_QUERY.filter.category, PRICE_ABOVE],
      );
    return { items: items.map((row) => row.data) };
  });
  // The SQL the compiler writes for the page, run as it is: what HTTP alone adds to (b).
  bare.get('/bare/compiled', async (req) => {
    const { site = '' } = req.query as { site?: string };
    const plan = compileQuery(site, COLLECTION, PAGE_QUERY);
    const rows = await server.db.query(plan.sql.sql, plan.sql.params);
    return { items: rows.map((row) => row.item) };
  });
  bare.post('/bare/bulk', async (req) => {
    const body = req.body as { dataCollectionId: string; dataItems: unknown[] };
    const siteId = String(req.headers['x-bench-site']);
    const rows = await server.db.query(
      `INSERT INTO data_items (site_id, collection_id, item_id, data)
       SELECT $1, $2, e->'data'->>'_id', e->'data' FROM jsonb_array_elements($3::jsonb) AS e RETURNING item_id`,
      [siteId, body.dataCollectionId, JSON.stringify(body.dataItems)],
    );
    return { bulkActionMetadata: { totalSuccesses: rows.length, totalFailures: body.dataItems.length - rows.length } };
  });
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const address = bare.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return { url: `http://127.0.0.1:${address.port}`, close: () => bare.close() };
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
  const url = path.startsWith('http') ? path : `${server.url}${path}`;
  const out = await runChild(PROBER, { URL: url, AUTH: JSON.stringify(auth), SECONDS: String(seconds), ...request });
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

/** The loader: items START to TOTAL in calls of 1000, CONCURRENCY calls in flight; prints {ms, failures}. */
const LOADER = `
const { URL: url, AUTH, COLLECTION, START, TOTAL, CONCURRENCY, CATEGORIES } = process.env;
const headers = JSON.parse(AUTH);
const total = Number(TOTAL), categories = Number(CATEGORIES);
let next = Number(START ?? 0), failures = 0;
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
