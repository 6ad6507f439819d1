/**
 * `npm run bench -- citus`: the cart on a Citus cluster against the same on one plain PostgreSQL,
 * in one run. CITUS_URL is a database on the coordinator (with the citus extension and its workers
 * registered: `cluster.sh createdb`), DATABASE_URL a plain PostgreSQL database; each gets a Bodega
 * server of its own in this process, 100 sites with a product and a shopper each (whose cart holds
 * one line), and the loads in turn, ROUNDS times:
 *   get-current-cart, every request the next site's shopper;
 *   add-to-cart, every request the next site's shopper.
 * Ratios are Citus ÷ plain (median of each round's). Then the statements one get-cart and one
 * add-to-cart run, and the commands the coordinator sends to the workers for each (citus/profile.ts);
 * last, adding a worker and rebalancing, and isolating one site on a shard of its own, under the
 * running server (citus/operate.ts: CITUS_NEW_WORKER names the node to add).
 * All nodes of a loopback cluster share this machine's cores, so the ratio is the coordinator's
 * overhead (a routed hop per statement), not the scale-out a cluster of machines gives.
 */
import { tryOperations } from './citus/operate.js';
import { remoteCommandsOf, statementsOf, type RemoteProfile } from './citus/profile.js';
import { assertClean, loadRotating, printResults, startServer, type BenchServer, type LoadResult } from './lib.js';

const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
const SITES = Number(process.env.BENCH_SITES ?? 100);
const CONNECTIONS = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface Shop {
  server: BenchServer;
  url: string;
  shoppers: string[];
  addBody: (i: number) => unknown;
  productIds: string[];
  siteIds: string[];
}

async function serverOn(url: string): Promise<BenchServer> {
  const before = process.env.DATABASE_URL;
  process.env.DATABASE_URL = url;
  try {
    return await startServer();
  } finally {
    process.env.DATABASE_URL = before;
  }
}

/** SITES sites, each with one product and one shopper whose cart holds it. */
async function shopOn(url: string): Promise<Shop> {
  const server = await serverOn(url);
  const shoppers: string[] = [];
  const productIds: string[] = [];
  const siteIds: string[] = [];
  for (let i = 0; i < SITES; i++) {
    const created = await server.app.services.sites.createSite({ name: `bench citus ${i}` });
    siteIds.push(created.site.siteId);
    const apiKey = { authorization: created.apiKey, 'wix-site-id': created.site.siteId };
    const product = await server.app.inject({ method: 'POST', url: '/stores/v1/products', headers: apiKey, payload: { product: { name: 'Mug', productType: 'physical', priceData: { price: 14 } } } });
    if (product.statusCode !== 200) throw new Error(product.body);
    productIds.push((product.json() as { product: { id: string } }).product.id);
    const grant = await server.app.inject({ method: 'POST', url: '/oauth2/token', payload: { clientId: created.clientId, grantType: 'anonymous' } });
    shoppers.push((grant.json() as { access_token: string }).access_token);
  }
  const addBody = (i: number) => ({ lineItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: productIds[i] }, quantity: 1 }] });
  for (let i = 0; i < SITES; i++) {
    const res = await server.app.inject({ method: 'POST', url: '/ecom/v1/carts/current/add-to-cart', headers: { authorization: shoppers[i] }, payload: addBody(i) });
    if (res.statusCode !== 200) throw new Error(res.body);
  }
  return { server, url, shoppers, addBody, productIds, siteIds };
}

/** Every site's shopper adds to the cart and reads it back; answers how many did (throws on a failure). */
async function everySiteAnswers(shop: Shop): Promise<number> {
  for (let i = 0; i < shop.shoppers.length; i++) {
    const headers = { authorization: shop.shoppers[i] };
    const added = await shop.server.app.inject({ method: 'POST', url: '/ecom/v1/carts/current/add-to-cart', headers, payload: shop.addBody(i) as object });
    const read = await shop.server.app.inject({ method: 'GET', url: '/ecom/v1/carts/current', headers });
    if (added.statusCode !== 200 || read.statusCode !== 200) throw new Error(`site ${shop.siteIds[i]}: add ${added.statusCode} ${added.body}, read ${read.statusCode}`);
  }
  return shop.shoppers.length;
}

async function profileOn(shop: Shop, i: number): Promise<{ get: RemoteProfile[]; add: RemoteProfile[] }> {
  const { server, shoppers } = shop;
  const call = (method: 'GET' | 'POST', path: string, payload?: unknown) => statementsOf(server, async () => {
    const res = await server.app.inject({ method, url: path, headers: { authorization: shoppers[i] }, ...(payload !== undefined && { payload: payload as object }) });
    if (res.statusCode !== 200) throw new Error(`${path}: ${res.body}`);
  });
  // Once each first, so the caches a request fills (site, token, product) are warm, as under load.
  await call('GET', '/ecom/v1/carts/current');
  await call('POST', '/ecom/v1/carts/current/add-to-cart', shop.addBody(i));
  const get = await call('GET', '/ecom/v1/carts/current');
  const add = await call('POST', '/ecom/v1/carts/current/add-to-cart', shop.addBody(i));
  return { get: await remoteCommandsOf(shop.url, get), add: await remoteCommandsOf(shop.url, add) };
}

function printProfile(name: string, profiles: RemoteProfile[]): void {
  const remote = profiles.reduce((n, p) => n + p.remote.length, 0);
  const local = profiles.reduce((n, p) => n + p.local.length, 0);
  console.log(`${name}: ${profiles.length} statement(s) from the app, ${remote} command(s) sent to workers, ${local} run on the coordinator's own placements`);
  for (const p of profiles) {
    console.log(`  app:    ${oneLine(p.statement)}`);
    for (const r of p.remote) console.log(`    → worker: ${oneLine(r)}`);
    for (const l of p.local) console.log(`    → local:  ${oneLine(l)}`);
  }
}

const oneLine = (sql: string) => {
  const flat = sql.replace(/\s+/g, ' ').trim();
  return flat.length > 220 ? `${flat.slice(0, 217)}…` : flat;
};

function ratioOf(results: LoadResult[], baselines: LoadResult[]): number {
  const ratios = results.map((r, i) => r.requestsPerSecond / baselines[i].requestsPerSecond).sort((a, b) => a - b);
  return ratios[Math.floor(ratios.length / 2)];
}

function median(results: LoadResult[]): LoadResult {
  return [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(results.length / 2)];
}

export default async function citus(): Promise<void> {
  const citusUrl = process.env.CITUS_URL;
  const plainUrl = process.env.DATABASE_URL;
  if (!citusUrl || !plainUrl) {
    throw new Error('npm run bench -- citus needs CITUS_URL (a database on a Citus coordinator, workers registered) and DATABASE_URL (a plain PostgreSQL database)');
  }
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const onCitus = await shopOn(citusUrl);
  const onPlain = await shopOn(plainUrl);
  try {
    const [{ workers }] = await onCitus.server.db.query<{ workers: number }>(`SELECT count(*)::int AS workers FROM pg_dist_node WHERE noderole = 'primary' AND shouldhaveshards AND groupid <> 0`);
    const runs = { getCitus: [] as LoadResult[], getPlain: [] as LoadResult[], addCitus: [] as LoadResult[], addPlain: [] as LoadResult[] };
    const get = (shop: Shop, s: number) => loadRotating(`${shop.server.url}/ecom/v1/carts/current`, shop.shoppers, { seconds: s, connections: CONNECTIONS });
    // add-to-cart spread over the sites: each request the next site's shopper, adding that site's product.
    const add = (shop: Shop, s: number) => loadRotating(`${shop.server.url}/ecom/v1/carts/current/add-to-cart`, shop.shoppers,
      { seconds: s, connections: CONNECTIONS, bodies: shop.shoppers.map((_, i) => shop.addBody(i)) });
    for (const shop of [onCitus, onPlain]) {
      await get(shop, 1);
      await add(shop, 1);
    }
    for (let round = 0; round < ROUNDS; round++) {
      runs.getCitus.push(await get(onCitus, seconds));
      runs.getPlain.push(await get(onPlain, seconds));
      runs.addCitus.push(await add(onCitus, seconds));
      runs.addPlain.push(await add(onPlain, seconds));
    }
    for (const [name, results] of Object.entries(runs)) for (const r of results) assertClean(name, r);
    printResults(`npm run bench -- citus: ${SITES} sites, Citus (${workers} workers) against one PostgreSQL (median of ${ROUNDS} rounds of ${seconds} s)`, `${new URL(citusUrl).host} (Citus) / ${new URL(plainUrl).host}`, [
      { name: `get-current-cart, plain PostgreSQL, ${CONNECTIONS} conn over ${SITES} sites`, result: median(runs.getPlain) },
      { name: `get-current-cart, Citus, ${CONNECTIONS} conn over ${SITES} sites`, result: median(runs.getCitus), ratio: ratioOf(runs.getCitus, runs.getPlain), versus: 'plain PostgreSQL' },
      { name: `add-to-cart, plain PostgreSQL, ${CONNECTIONS} conn over ${SITES} sites`, result: median(runs.addPlain) },
      { name: `add-to-cart, Citus, ${CONNECTIONS} conn over ${SITES} sites`, result: median(runs.addCitus), ratio: ratioOf(runs.addCitus, runs.addPlain), versus: 'plain PostgreSQL' },
    ]);
    const profile = await profileOn(onCitus, 0);
    printProfile('get-current-cart on Citus', profile.get);
    printProfile('add-to-cart on Citus', profile.add);
    await onPlain.server.close();
    await tryOperations(onCitus.server.db, onCitus.siteIds, () => everySiteAnswers(onCitus));
  } finally {
    await onCitus.server.close();
    await onPlain.server.close().catch(() => undefined);
  }
}
