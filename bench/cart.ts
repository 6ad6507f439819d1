/**
 * Current cart throughput (`npm run bench -- cart`, DATABASE_URL for PostgreSQL), in one run:
 *   get-current-cart (10 connections, one shopper)       against the bare read route (aim ≥ 0.6);
 *   add-to-cart, 50 shoppers each with their own cart     against the bare write route, one row
 *                                                         per connection (aim ≥ 0.5), on a site
 *                                                         without and one with a webhook subscription;
 *   add-to-cart, 50 connections on one shopper's cart     against the bare write on one hot row
 *                                                         (aim ≥ 0.6, 0 errors);
 *   estimate-totals;
 * the SQL statements (= database round trips: node-postgres sends each one, BEGIN and COMMIT too, as
 * its own round trip) each operation runs beside the bare routes' and the token grant's; the CPU
 * per request of each load (node from process.cpuUsage, PostgreSQL from /proc of the server's
 * backends; on PGlite the database runs inside node), aim ≤ 2× the bare route's for get-cart and
 * add-to-cart; and on PostgreSQL the WAL bytes per add-to-cart commit against the bare write's. Carts hold 3 lines before the run. The write
 * ratios mean something only on PostgreSQL with fsync on (the header says which).
 */
import { PRODUCT_CACHE_MS } from '../packages/server/src/services/catalog/product-cache.js';
import { countStatements } from '../packages/server/src/test/statements.js';
import { keepEveryEvent } from '../packages/server/src/test/webhooks.js';
import { assertClean, BARE_ROUTE, BROWSER_ENCODINGS, BARE_WRITE_ROUTE, load, loadPerConnection, peakRssMbOf, printResults, recordPeakRss, recordRows, startBuiltServer, startNamedServer, withCpu, type BenchServer, type CpuPerRequest, type LoadResult } from './lib.js';

const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
const CONNECTIONS = 10;
/** Shoppers adding to their own carts, and connections adding to one cart. */
const WRITERS = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

/** The round with the median req/s (its p99 goes with it). */
function median(results: LoadResult[]): LoadResult {
  return [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(results.length / 2)];
}

/**
 * The median over rounds of each round's ratio: a figure and its baseline run back to back, so
 * load from other work that changes between rounds moves both alike.
 */
function ratioOf(results: LoadResult[], baselines: LoadResult[]): number {
  const ratios = results.map((r, i) => r.requestsPerSecond / baselines[i].requestsPerSecond).sort((a, b) => a - b);
  return ratios[Math.floor(ratios.length / 2)];
}
const ADDRESS = { country: 'US', subdivision: 'US-NY', city: 'New York', postalCode: '10001' };


export default async function cart(): Promise<void> {
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const server = await startNamedServer();
  try {
    /** A site with the three products, and how to make a shopper there whose cart holds them. */
    const storeOf = async (name: string) => {
      const created = await server.app.services.sites.createSite({ name });
      const apiKey = { authorization: created.apiKey, 'wix-site-id': created.site.siteId };
      const productIds: string[] = [];
      for (const [productName, price] of [['Mug', 14], ['Beans', 11.5], ['Tote', 18]] as const) {
        const res = await server.app.inject({ method: 'POST', url: '/stores/v1/products', headers: apiKey, payload: { product: { name: productName, productType: 'physical', priceData: { price }, weight: 0.4 } } });
        if (res.statusCode !== 200) throw new Error(res.body);
        productIds.push((res.json() as { product: { id: string } }).product.id);
      }
      const shopper = async () => {
        const grant = await server.app.inject({ method: 'POST', url: '/oauth2/token', payload: { clientId: created.clientId, grantType: 'anonymous' } });
        const token = (grant.json() as { access_token: string }).access_token;
        const res = await server.app.inject({ method: 'POST', url: '/ecom/v1/carts/current/add-to-cart', headers: { authorization: token }, payload: { lineItems: productIds.map(line) } });
        if (res.statusCode !== 200) throw new Error(res.body);
        return token;
      };
      return { site: created.site.siteId, clientId: created.clientId, productIds, shopper };
    };
    const line = (id: string) => ({ catalogReference: { appId: STORES_APP_ID, catalogItemId: id }, quantity: 1 });
    const { site, clientId, productIds, shopper } = await storeOf('bench cart');
    // A second store whose site has a webhook subscription to every event, so its adds write their
    // outbox event (a site without one writes none): the cost an add has when events are wanted.
    const subscribed = await storeOf('bench cart, webhook subscription');
    await keepEveryEvent(server.db, subscribed.site);
    const subscribedShoppers = await Promise.all(Array.from({ length: WRITERS }, subscribed.shopper));
    const subscribedBody = { lineItems: [line(subscribed.productIds[0])] };
    const shoppers = await Promise.all(Array.from({ length: WRITERS }, shopper));
    // One hot cart per round, so its line never nears the maximum quantity.
    const hot = await Promise.all(Array.from({ length: ROUNDS }, shopper));
    const reader = shoppers[0];
    const addBody = { lineItems: [line(productIds[0])] };
    const estimateBody = { shippingAddress: ADDRESS };

    // SQL statements per operation on one request each: warm (products read for carts in the last
    // second are reused) and cold (after that cache expired).
    const counter = countStatements(server.db);
    const statements: Record<string, { warm: number; cold: number; bytes: number; sent: string }> = {};
    const grantBody = { clientId, grantType: 'anonymous' };
    for (const [name, method, path, body] of [
      ['bare read', 'GET', `${BARE_ROUTE}?site=${site}`, undefined],
      ['bare write', 'POST', BARE_WRITE_ROUTE, { n: 1 }],
      ['token grant', 'POST', '/oauth2/token', grantBody],
      ['get-current-cart', 'GET', '/ecom/v1/carts/current', undefined],
      ['add-to-cart', 'POST', '/ecom/v1/carts/current/add-to-cart', addBody],
      ['estimate-totals', 'POST', '/ecom/v1/carts/current/estimate-totals', estimateBody],
    ] as const) {
      let bytes = 0;
      let sent = '';
      const call = async () => {
        counter.reset();
        const res = await server.app.inject({ method, url: path, headers: { authorization: reader, 'accept-encoding': BROWSER_ENCODINGS }, ...(body && { payload: body }) });
        if (res.statusCode !== 200) throw new Error(`${name}: ${res.body}`);
        bytes = res.rawPayload.length;
        sent = String(res.headers['content-encoding'] ?? 'uncompressed');
        return counter.count();
      };
      await new Promise((resolve) => setTimeout(resolve, PRODUCT_CACHE_MS + 50));
      const cold = await call();
      const warm = await call();
      statements[name] = { warm, cold, bytes, sent };
    }

    const bareUrl = `${server.url}${BARE_ROUTE}?site=${site}`;
    const bareWriteUrl = `${server.url}${BARE_WRITE_ROUTE}`;
    const cartUrl = `${server.url}/ecom/v1/carts/current`;
    const writeBody = { n: 1 };
    await load(bareUrl, { seconds: 1, connections: CONNECTIONS }); // warm-up
    await load(cartUrl, { seconds: 1, connections: CONNECTIONS, headers: { authorization: reader } });
    await loadPerConnection(`${cartUrl}/add-to-cart`, shoppers, addBody, 1);
    await loadPerConnection(`${cartUrl}/add-to-cart`, subscribedShoppers, subscribedBody, 1);
    // The loads run in turn, ROUNDS times, each right after its baseline; each rate is the median
    // of its rounds and each ratio the median of the rounds' ratios, so a burst of other work on
    // the machine moves one round, not the ratios.
    const kinds = ['bare', 'get', 'grant', 'bareWrite', 'add', 'addSubscribed', 'bareHot', 'addHot', 'estimate'] as const;
    type Kind = (typeof kinds)[number];
    const runs = Object.fromEntries(kinds.map((k) => [k, [] as LoadResult[]])) as Record<Kind, LoadResult[]>;
    /** CPU per request of each kind over all its rounds (total CPU ÷ total requests). */
    const cpu = Object.fromEntries(kinds.map((k) => [k, { nodeUs: 0, pgUs: 0 }])) as Record<Kind, CpuPerRequest>;
    const spent = Object.fromEntries(kinds.map((k) => [k, { nodeUs: 0, pgUs: 0, requests: 0 }])) as Record<Kind, CpuPerRequest & { requests: number }>;
    const measure = async (kind: Kind, run: () => Promise<LoadResult>) => {
      const result = await withCpu(server, run);
      const total = spent[kind];
      total.nodeUs += result.cpu.nodeUs * result.requests;
      total.pgUs += result.cpu.pgUs * result.requests;
      total.requests += result.requests;
      cpu[kind] = { nodeUs: Math.round(total.nodeUs / Math.max(1, total.requests)), pgUs: Math.round(total.pgUs / Math.max(1, total.requests)) };
      runs[kind].push(result);
    };
    for (let round = 0; round < ROUNDS; round++) {
      await measure('bare', () => load(bareUrl, { connections: CONNECTIONS, seconds }));
      await measure('get', () => load(cartUrl, { connections: CONNECTIONS, seconds, headers: { authorization: reader } }));
      await measure('grant', () => load(`${server.url}/oauth2/token`, { method: 'POST', connections: CONNECTIONS, seconds, body: grantBody }));
      await measure('bareWrite', () => loadPerConnection(bareWriteUrl, shoppers, writeBody, seconds));
      await measure('add', () => loadPerConnection(`${cartUrl}/add-to-cart`, shoppers, addBody, seconds));
      await measure('addSubscribed', () => loadPerConnection(`${cartUrl}/add-to-cart`, subscribedShoppers, subscribedBody, seconds));
      await measure('bareHot', () => loadPerConnection(`${bareWriteUrl}?key=hot`, Array.from({ length: WRITERS }, () => `hot-${round}`), writeBody, seconds));
      await measure('addHot', () => loadPerConnection(`${cartUrl}/add-to-cart`, Array.from({ length: WRITERS }, () => hot[round]), addBody, seconds));
      await measure('estimate', () => load(`${cartUrl}/estimate-totals`, { method: 'POST', connections: CONNECTIONS, seconds, headers: { authorization: reader }, body: estimateBody }));
    }
    for (const [name, results] of Object.entries(runs)) for (const r of results) assertClean(name, r);
    const m = Object.fromEntries(kinds.map((k) => [k, median(runs[k])])) as Record<Kind, LoadResult>;

    printResults(`npm run bench -- cart (median of ${ROUNDS} rounds of ${seconds} s; ratios: median of each round's)`, server.database, [
      { name: `bare read (one PK query), ${CONNECTIONS} conn`, result: m.bare },
      { name: `get-current-cart, ${CONNECTIONS} conn`, result: m.get, ratio: ratioOf(runs.get, runs.bare), versus: 'bare read', aim: { atLeast: 0.6 } },
      { name: `anonymous token grant, ${CONNECTIONS} conn`, result: m.grant, ratio: ratioOf(runs.grant, runs.bare), versus: 'bare read' },
      { name: `bare write (upsert), ${WRITERS} conn own rows`, result: m.bareWrite },
      { name: `add-to-cart, ${WRITERS} shoppers own carts`, result: m.add, ratio: ratioOf(runs.add, runs.bareWrite), versus: 'bare write', aim: { atLeast: 0.5 } },
      { name: `add-to-cart, ${WRITERS} own carts, site with webhooks`, result: m.addSubscribed, ratio: ratioOf(runs.addSubscribed, runs.bareWrite), versus: 'bare write', aim: { atLeast: 0.5 } },
      { name: `bare write (upsert), ${WRITERS} conn one row`, result: m.bareHot },
      { name: `add-to-cart, ${WRITERS} conn one cart`, result: m.addHot, ratio: ratioOf(runs.addHot, runs.bareHot), versus: 'bare write hot', aim: { atLeast: 0.6 } },
      { name: `estimate-totals, ${CONNECTIONS} conn`, result: m.estimate, ratio: ratioOf(runs.estimate, runs.bare), versus: 'bare read' },
    ]);
    if (!server.durable) console.log('note: the write ratios compare with a commit that does not wait for the disk (not PostgreSQL with fsync on)');
    const counted = (name: string) => `${statements[name].warm} warm / ${statements[name].cold} cold (answer ${statements[name].bytes} B ${statements[name].sent})`;
    console.log(`SQL statements = round trips per call (BEGIN/COMMIT included; warm: caches filled, cold: product cache expired): bare read ${counted('bare read')}, bare write ${counted('bare write')}, `
      + `token grant ${counted('token grant')}, get-current-cart ${counted('get-current-cart')} (aim 1 warm), add-to-cart ${counted('add-to-cart')} (aim ≤ 6), estimate-totals ${counted('estimate-totals')}`);
    const cpuOf = (kind: Kind) => cpu[kind];
    const cpuLine = (kind: Kind) => `${cpuOf(kind).nodeUs + cpuOf(kind).pgUs} µs (node ${cpuOf(kind).nodeUs} + PostgreSQL ${cpuOf(kind).pgUs})`;
    const cpuRatio = (kind: Kind, base: Kind) => (cpuOf(kind).nodeUs + cpuOf(kind).pgUs) / Math.max(1, cpuOf(base).nodeUs + cpuOf(base).pgUs);
    console.log(`CPU per request over all rounds${server.db.kind === 'postgres' ? '' : ' (PGlite: the database runs inside node, so all of it is node)'}:`);
    for (const [kind, label, base] of [
      ['bare', 'bare read', undefined], ['get', 'get-current-cart', 'bare'], ['grant', 'anonymous token grant', 'bare'],
      ['bareWrite', 'bare write, own rows', undefined], ['add', 'add-to-cart, own carts', 'bareWrite'], ['addSubscribed', 'add-to-cart, site with webhooks', 'bareWrite'],
      ['bareHot', 'bare write, one row', undefined], ['addHot', 'add-to-cart, one cart', 'bareHot'], ['estimate', 'estimate-totals', 'bare'],
    ] as const) {
      const ratio = base && cpuRatio(kind, base);
      console.log(`  ${label.padEnd(34)} ${cpuLine(kind)}${ratio ? `, ${ratio.toFixed(2)}× ${base === 'bare' ? 'bare read' : base === 'bareWrite' ? 'bare write' : 'bare write, one row'}${kind === 'get' || kind === 'add' ? ' (aim ≤ 2×)' : ''}` : ''}`);
      if (kind === 'get' || kind === 'add') {
        recordRows({ path: `${label} CPU/request ${cpuOf(kind).nodeUs + cpuOf(kind).pgUs} µs ÷ ${base === 'bare' ? 'bare read' : 'bare write'}'s`, unit: 'ms', ratio: cpuRatio(kind, base), versus: 'bare CPU', aim: { atMost: 2 } });
      }
    }

    if (server.db.kind === 'postgres') {
      let i = 0;
      const add = await walPerCommit(server, async () => {
        const res = await server.app.inject({ method: 'POST', url: '/ecom/v1/carts/current/add-to-cart', headers: { authorization: shoppers[i++ % WRITERS] }, payload: addBody });
        if (res.statusCode !== 200) throw new Error(`add-to-cart: ${res.body}`);
      });
      const addSubscribed = await walPerCommit(server, async () => {
        const res = await server.app.inject({ method: 'POST', url: '/ecom/v1/carts/current/add-to-cart', headers: { authorization: subscribedShoppers[i++ % WRITERS] }, payload: subscribedBody });
        if (res.statusCode !== 200) throw new Error(`add-to-cart: ${res.body}`);
      });
      const bare = await walPerCommit(server, async () => {
        const res = await server.app.inject({ method: 'POST', url: BARE_WRITE_ROUTE, headers: { authorization: shoppers[i++ % WRITERS] }, payload: writeBody });
        if (res.statusCode !== 200) throw new Error(`bare write: ${res.body}`);
      });
      const bytes = (w: WalPerCommit) => `${w.bytes.toFixed(0)} B (${w.withoutImages.toFixed(0)} B without full-page images)`;
      console.log(add && addSubscribed && bare
        ? `WAL per commit, ${WAL_REQUESTS} requests one at a time (pg_walinspect): add-to-cart ${bytes(add)}, on the site with webhooks ${bytes(addSubscribed)}, bare write ${bytes(bare)}`
        : 'WAL per commit: not measured (the pg_walinspect extension of PostgreSQL 15+ could not be created)');
    }

    // Every core: the built server with WORKERS=1 and WORKERS=2 on the same database and carts,
    // both running, their loads taking turns.
    if (server.db.kind === 'postgres') await workersRounds(reader, shoppers, addBody, seconds);
    else console.log('WORKERS: measured on PostgreSQL only (the embedded database belongs to one process)');
  } finally {
    await server.close();
  }
}

const WAL_REQUESTS = 200;

interface WalPerCommit {
  bytes: number;
  withoutImages: number;
}

/**
 * WAL written per transaction by `send`, sent WAL_REQUESTS times one after another: the records of
 * transactions that touched this database between two WAL positions, read back with
 * pg_walinspect. Hardly moves with load, unlike req/s; full-page images depend on when the last
 * checkpoint was, so they are shown apart.
 */
async function walPerCommit(server: BenchServer, send: () => Promise<void>): Promise<WalPerCommit | undefined> {
  const db = server.db;
  try {
    await db.exec('CREATE EXTENSION IF NOT EXISTS pg_walinspect');
  } catch {
    return undefined;
  }
  const position = async () => (await db.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn'))[0].lsn;
  const start = await position();
  for (let n = 0; n < WAL_REQUESTS; n++) await send();
  const end = await position();
  const [row] = await db.query<{ n: number; bytes: number; images: number }>(
    `WITH w AS (SELECT xid::text AS x, record_length, fpi_length, block_ref FROM pg_get_wal_records_info($1::pg_lsn, $2::pg_lsn)),
      mine AS (SELECT DISTINCT x FROM w WHERE x <> '0' AND block_ref LIKE '%/' || (SELECT oid FROM pg_database WHERE datname = current_database()) || '/%')
    SELECT (SELECT count(*) FROM mine)::int AS n, sum(record_length)::int AS bytes, sum(fpi_length)::int AS images FROM w JOIN mine USING (x)`,
    [start, end],
  );
  if (!row || row.n === 0) return undefined;
  return { bytes: row.bytes / row.n, withoutImages: (row.bytes - row.images) / row.n };
}

async function workersRounds(reader: string, shoppers: string[], addBody: unknown, seconds: number): Promise<void> {
  const one = await startBuiltServer(1);
  const two = await startBuiltServer(2);
  try {
    const runs = { get1: [] as LoadResult[], get2: [] as LoadResult[], add1: [] as LoadResult[], add2: [] as LoadResult[] };
    const get = (url: string, s: number) => load(`${url}/ecom/v1/carts/current`, { connections: CONNECTIONS, seconds: s, headers: { authorization: reader } });
    const add = (url: string, s: number) => loadPerConnection(`${url}/ecom/v1/carts/current/add-to-cart`, shoppers, addBody, s);
    for (const s of [one, two]) {
      await get(s.url, 1);
      await add(s.url, 1);
    }
    for (let round = 0; round < ROUNDS; round++) {
      runs.get1.push(await get(one.url, seconds));
      runs.get2.push(await get(two.url, seconds));
      runs.add1.push(await add(one.url, seconds));
      runs.add2.push(await add(two.url, seconds));
    }
    for (const [name, results] of Object.entries(runs)) for (const r of results) assertClean(name, r);
    const m = { get1: median(runs.get1), get2: median(runs.get2), add1: median(runs.add1), add2: median(runs.add2) };
    printResults(`cart on the built server, WORKERS=1 against WORKERS=2 (median of ${ROUNDS} rounds of ${seconds} s; ratios: median of each round's)`, 'the same database', [
      { name: `get-current-cart, 1 worker, ${CONNECTIONS} conn`, result: m.get1 },
      { name: `get-current-cart, 2 workers, ${CONNECTIONS} conn`, result: m.get2, ratio: ratioOf(runs.get2, runs.get1), versus: '1 worker' },
      { name: `add-to-cart, 1 worker, ${WRITERS} own carts`, result: m.add1 },
      { name: `add-to-cart, 2 workers, ${WRITERS} own carts`, result: m.add2, ratio: ratioOf(runs.add2, runs.add1), versus: '1 worker' },
    ]);
    for (const pid of one.servingPids()) recordPeakRss(`WORKERS=1 server ${pid}`, peakRssMbOf(pid));
    for (const pid of two.servingPids()) recordPeakRss(`WORKERS=2 worker ${pid}`, peakRssMbOf(pid));
  } finally {
    await one.close();
    await two.close();
  }
}
