/**
 * Many shops on one server (`npm run bench -- sites`, DATABASE_URL for PostgreSQL; `npm run build` first):
 *   - creates BENCH_SITES sites (default 10,000) one after another through the CLI's code path
 *     (`sites create` calls SitesService.createSite; no HTTP endpoint creates a site), p50/p95 per
 *     site, and a few whole `bodega sites create` processes (BENCH_CLI_SAMPLES, default 5);
 *   - the time and CPU to start the built server with one site in its database and again with
 *     all of them (aim ≤ 2 s);
 *   - get-cart and add-to-cart spread over BENCH_TRAFFIC_SITES random sites (default 1,000), each
 *     request a shopper of another site, against the same load from as many shoppers of ONE site
 *     (aim ≥ 0.8×), each on a fresh built server (WORKERS=1), rounds taking turns;
 *   - each of those servers' RSS after its traffic (caches bounded: aim ≤ 1.2× of one site's).
 * Every line says the machine's load average: on a busy machine the times are labelled, not clean.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDb } from '../packages/server/src/platform/db.js';
import { migrate } from '../packages/server/src/platform/migrate.js';
import { buildApp } from '../packages/server/src/app.js';
import { BROWSER_ENCODINGS, cpuSecondsOf, peakRssMbOf, printResults, recordRows, startBuiltServer, type BuiltServer, type LoadResult } from './lib.js';

const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
const CLI = fileURLToPath(new URL('../packages/server/dist/cli.js', import.meta.url));
const CONNECTIONS = 20;

interface Shopper { token: string; body: string }

const loadText = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

/** autocannon in a child process; every request takes the next shopper's token (and body). */
const ROTATING = `
import autocannon from ${JSON.stringify(fileURLToPath(new URL('../node_modules/autocannon/autocannon.js', import.meta.url)))};
import fs from 'node:fs';
const cfg = JSON.parse(fs.readFileSync(process.env.BENCH_CONFIG_FILE, 'utf8'));
let next = 0;
const result = await autocannon({
  url: cfg.url, connections: cfg.connections, duration: cfg.seconds, method: cfg.method,
  headers: { 'content-type': 'application/json', 'accept-encoding': cfg.encodings },
  requests: [{ setupRequest(req) {
    const s = cfg.shoppers[next++ % cfg.shoppers.length];
    return { ...req, headers: { ...req.headers, authorization: s.token }, ...(cfg.method === 'POST' && { body: s.body }) };
  } }],
});
process.stdout.write(JSON.stringify({ requestsPerSecond: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99,
  requests: result.requests.total, non2xx: result.non2xx, errors: result.errors }));
`;

async function loadRotating(url: string, method: 'GET' | 'POST', shoppers: Shopper[], seconds: number): Promise<LoadResult> {
  // A thousand tokens are more than one environment variable may hold: the settings go in a file.
  const file = path.join(os.tmpdir(), `bodega-bench-sites-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify({ url, method, shoppers, connections: CONNECTIONS, seconds, encodings: BROWSER_ENCODINGS }));
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', ROTATING], { env: { ...process.env, BENCH_CONFIG_FILE: file }, maxBuffer: 64 * 1024 * 1024 },
      (error, out) => (error ? reject(error) : resolve(out)));
  }).finally(() => fs.rmSync(file, { force: true }));
  const result = JSON.parse(stdout) as LoadResult;
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${method} ${url}: ${result.non2xx} non-2xx and ${result.errors} errors under load`);
  return result;
}

/** The built server started on the bench's database: wall time until it serves, and the CPU it used getting there. */
async function timedStart(env: NodeJS.ProcessEnv): Promise<{ server: BuiltServer; seconds: number; cpuSeconds: number }> {
  const started = performance.now();
  const server = await startBuiltServer(1, env);
  const seconds = (performance.now() - started) / 1000;
  return { server, seconds, cpuSeconds: cpuSecondsOf(server.servingPids()[0]) };
}

const rssMbOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

export default async function sites(): Promise<void> {
  const total = Number(process.env.BENCH_SITES ?? 10_000);
  const spread = Math.min(total, Number(process.env.BENCH_TRAFFIC_SITES ?? 1_000));
  const seconds = Number(process.env.BENCH_SECONDS ?? 5);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const cliSamples = Number(process.env.BENCH_CLI_SAMPLES ?? 5);
  const databaseUrl = process.env.DATABASE_URL;
  const dataDir = databaseUrl ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-bench-sites-'));
  const serverEnv: NodeJS.ProcessEnv = dataDir ? { DATA_DIR: dataDir } : {};
  const database = databaseUrl ? `PostgreSQL (${new URL(databaseUrl).host})` : 'embedded PGlite';
  console.log(`npm run bench -- sites: ${total} sites, traffic over ${spread}, ${database}, ${os.cpus().length} cores, load ${loadText()}`);

  // ── The fixtures, made in this process (then closed: PGlite belongs to one process at a time).
  let db = await openDb(databaseUrl ? { databaseUrl } : { dataDir });
  await migrate(db);
  let app = await buildApp({ db, config: { publicUrl: 'http://127.0.0.1', logLevel: 'silent', webDir: undefined, smtpUrl: undefined } });
  const [{ n: before }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM sites');
  /** A site with one product; `shoppers` anonymous visitors of it, each with a cart holding that product. */
  const shop = async (siteId: string, clientId: string, apiKey: string, shoppers: number): Promise<Shopper[]> => {
    const res = await app.inject({ method: 'POST', url: '/stores/v1/products', headers: { authorization: apiKey, 'wix-site-id': siteId }, payload: { product: { name: 'Mug', productType: 'physical', priceData: { price: 14 } } } });
    if (res.statusCode !== 200) throw new Error(res.body);
    const body = JSON.stringify({ lineItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: (res.json() as { product: { id: string } }).product.id }, quantity: 1 }] });
    return Promise.all(Array.from({ length: shoppers }, async () => {
      const grant = await app.inject({ method: 'POST', url: '/oauth2/token', payload: { clientId, grantType: 'anonymous' } });
      const token = (grant.json() as { access_token: string }).access_token;
      const added = await app.inject({ method: 'POST', url: '/ecom/v1/carts/current/add-to-cart', headers: { authorization: token, 'content-type': 'application/json' }, payload: body });
      if (added.statusCode !== 200) throw new Error(added.body);
      return { token, body };
    }));
  };
  const first = await app.services.sites.createSite({ name: 'bench sites, the one' });
  const oneSite = await shop(first.site.siteId, first.clientId, first.apiKey, spread);
  await app.close();
  await db.close();

  // ── Start-up with (about) one site, before the many are made.
  const small = await timedStart(serverEnv);
  await small.server.close();

  // ── Creation through the CLI's code path, one after another.
  db = await openDb(databaseUrl ? { databaseUrl } : { dataDir });
  app = await buildApp({ db, config: { publicUrl: 'http://127.0.0.1', logLevel: 'silent', webDir: undefined, smtpUrl: undefined } });
  const createMs: number[] = [];
  const created: { siteId: string; clientId: string; apiKey: string }[] = [];
  const loadAtCreation = loadText();
  for (let i = 0; i < total; i++) {
    const startedAt = performance.now();
    const site = await app.services.sites.createSite({ name: `bench site ${i}` });
    createMs.push(performance.now() - startedAt);
    created.push({ siteId: site.site.siteId, clientId: site.clientId, apiKey: site.apiKey });
    if ((i + 1) % 1000 === 0) console.log(`  ${i + 1} sites created (load ${loadText()})`);
  }
  // Traffic sites: `spread` of the new ones, picked at random, one shopper each.
  const picked = [...created].sort(() => Math.random() - 0.5).slice(0, spread);
  const spreadShoppers = (await Promise.all(picked.map((s) => shop(s.siteId, s.clientId, s.apiKey, 1)))).flat();
  await app.close();
  await db.close();

  // ── Whole CLI processes (`node packages/server/dist/cli.js sites create`), a few.
  const cliMs: number[] = [];
  for (let i = 0; i < cliSamples; i++) {
    const startedAt = performance.now();
    await new Promise<void>((resolve, reject) => execFile(process.execPath, [CLI, 'sites', 'create', '--name', `bench cli ${i}`, '--json'], { env: { ...process.env, ...serverEnv } },
      (error) => (error ? reject(error) : resolve())));
    cliMs.push(performance.now() - startedAt);
  }

  // ── Start-up with all the sites.
  const large = await timedStart(serverEnv);
  await large.server.close();
  const sitesNow = before + total + 1 + cliSamples;

  // ── Traffic: one site against many, each on a fresh server. On PostgreSQL both servers run and
  // their rounds take turns; PGlite's data belongs to one process, so there the servers run in turn.
  const runs = { getOne: [] as LoadResult[], getMany: [] as LoadResult[], addOne: [] as LoadResult[], addMany: [] as LoadResult[] };
  const rss = { one: 0, many: 0, onePeak: 0, manyPeak: 0 };
  const cart = (s: BuiltServer) => `${s.url}/ecom/v1/carts/current`;
  const drive = async (s: BuiltServer, shoppers: Shopper[], get: LoadResult[], add: LoadResult[], times: number) => {
    for (let round = 0; round < times; round++) {
      get.push(await loadRotating(cart(s), 'GET', shoppers, seconds));
      add.push(await loadRotating(`${cart(s)}/add-to-cart`, 'POST', shoppers, seconds));
    }
  };
  const warm = async (s: BuiltServer, shoppers: Shopper[]) => {
    await loadRotating(cart(s), 'GET', shoppers, 1);
    await loadRotating(`${cart(s)}/add-to-cart`, 'POST', shoppers, 1);
  };
  const memoryOf = (s: BuiltServer) => {
    const [pid] = s.servingPids();
    return { now: rssMbOf(pid), peak: peakRssMbOf(pid) };
  };
  if (databaseUrl) {
    const one = await startBuiltServer(1, serverEnv);
    const many = await startBuiltServer(1, serverEnv);
    try {
      await warm(one, oneSite);
      await warm(many, spreadShoppers);
      for (let round = 0; round < rounds; round++) {
        await drive(one, oneSite, runs.getOne, runs.addOne, 1);
        await drive(many, spreadShoppers, runs.getMany, runs.addMany, 1);
      }
      ({ now: rss.one, peak: rss.onePeak } = memoryOf(one));
      ({ now: rss.many, peak: rss.manyPeak } = memoryOf(many));
    } finally {
      await one.close();
      await many.close();
    }
  } else {
    for (const which of ['one', 'many'] as const) {
      const s = await startBuiltServer(1, serverEnv);
      try {
        const shoppers = which === 'one' ? oneSite : spreadShoppers;
        await warm(s, shoppers);
        await drive(s, shoppers, which === 'one' ? runs.getOne : runs.getMany, which === 'one' ? runs.addOne : runs.addMany, rounds);
        const memory = memoryOf(s);
        if (which === 'one') ({ now: rss.one, peak: rss.onePeak } = memory);
        else ({ now: rss.many, peak: rss.manyPeak } = memory);
      } finally {
        await s.close();
      }
    }
  }
  const median = (results: LoadResult[]) => [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(results.length / 2)];
  const ratio = (a: LoadResult[], b: LoadResult[]) => a.map((r, i) => r.requestsPerSecond / b[i].requestsPerSecond).sort((x, y) => x - y)[Math.floor(a.length / 2)];
  printResults(`sites: ${spread} shoppers of one site against one shopper each of ${spread} random sites (${sitesNow} sites in the database; median of ${rounds} rounds of ${seconds} s)`, database, [
    { name: `get-cart, one site, ${CONNECTIONS} conn`, result: median(runs.getOne) },
    { name: `get-cart, ${spread} sites, ${CONNECTIONS} conn`, result: median(runs.getMany), ratio: ratio(runs.getMany, runs.getOne), versus: 'one site', aim: { atLeast: 0.8 } },
    { name: `add-to-cart, one site, ${CONNECTIONS} conn`, result: median(runs.addOne) },
    { name: `add-to-cart, ${spread} sites, ${CONNECTIONS} conn`, result: median(runs.addMany), ratio: ratio(runs.addMany, runs.addOne), versus: 'one site', aim: { atLeast: 0.8 } },
  ]);
  console.log(`RSS after the traffic: one site ${rss.one.toFixed(0)} MB (peak ${rss.onePeak.toFixed(0)}), ${spread} sites ${rss.many.toFixed(0)} MB (peak ${rss.manyPeak.toFixed(0)}): ${(rss.many / rss.one).toFixed(2)}× (aim ≤ 1.2×)`);
  recordRows({ path: `RSS after traffic on ${spread} sites ÷ on one site (${rss.many.toFixed(0)} / ${rss.one.toFixed(0)} MB)`, unit: 'MB', rate: rss.many, ratio: rss.many / rss.one, versus: 'one site', aim: { atMost: 1.2 } });

  const ms = (values: number[]) => `p50 ${percentile(values, 0.5).toFixed(1)} ms, p95 ${percentile(values, 0.95).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms`;
  console.log(`site creation through the CLI's code path (SitesService.createSite, ${total} one after another, load at the start ${loadAtCreation}): ${ms(createMs)}`);
  console.log(`site creation as a whole CLI process (node dist/cli.js sites create, ${cliSamples} runs): ${ms(cliMs)}`);
  console.log('site creation through the API: no HTTP endpoint creates a site (sites are the operator\'s, made with the CLI)');
  console.log(`server start until it serves: ${before + 1} site(s) ${small.seconds.toFixed(2)} s (CPU ${small.cpuSeconds.toFixed(2)} s), ${sitesNow} sites ${large.seconds.toFixed(2)} s (CPU ${large.cpuSeconds.toFixed(2)} s) (aim ≤ 2 s; load ${loadText()})`);
  recordRows(
    { path: `site creation, CLI code path, p95 (${total} sites)`, unit: 'ms', rate: percentile(createMs, 0.95), p50Ms: percentile(createMs, 0.5) },
    { path: `server start with ${sitesNow} sites (s; CPU ${large.cpuSeconds.toFixed(2)} s)`, unit: 'ms', rate: large.seconds * 1000, ratio: large.seconds / small.seconds, versus: `${before + 1} site(s)` },
  );
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}
