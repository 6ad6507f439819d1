/**
 * `npm run bench -- soak [--minutes 20] [--seconds N] [--shoppers 16]`: the built server (a child
 * process, as in production) under mixed storefront traffic — browse, data queries, cart,
 * checkout to an order, sign-up and sign-in — for the given time. Prints requests, errors and
 * p99 per minute and the server's RSS at the start and the end. Set DATABASE_URL for PostgreSQL
 * (the figure); without it the server runs on a fresh embedded PGlite.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = path.join(ROOT, 'packages/server/dist/main.js');
const CLI = path.join(ROOT, 'packages/server/dist/cli.js');
const STORES_APP_ID = '215238eb-22a5-4c36-9e7b-e7c08025e04e';
const ADDRESS = { country: 'US', subdivision: 'US-NY', city: 'New York', addressLine: '1 Main St', postalCode: '10001' };

interface Minute {
  requests: number;
  errors: number;
  latencies: number[];
  rssMb: number;
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

function p99(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)];
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export default async function soak(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { minutes: { type: 'string' }, seconds: { type: 'string' }, shoppers: { type: 'string' } } });
  const seconds = values.seconds ? Number(values.seconds) : Number(values.minutes ?? 20) * 60;
  const shoppers = Number(values.shoppers ?? 16);
  if (!fs.existsSync(MAIN)) throw new Error('run `npm run build` first');

  const dataDir = process.env.DATABASE_URL ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-soak-'));
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_TOKEN: '0', AUTH_RATE_LIMIT_PER_MINUTE: '0' };
  if (dataDir) env.DATA_DIR = dataDir;
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'sites', 'create', '--name', 'Soak shop', '--json'], { env });
  const site = JSON.parse(stdout) as { siteId: string; clientId: string; apiKey: string };
  const port = await freePort();
  const server = spawn(process.execPath, [MAIN], { env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if ((await fetch(`${base}/readyz`).then((r) => r.ok, () => false))) break;
    await new Promise((r) => setTimeout(r, 100));
  }

  const admin = { authorization: site.apiKey, 'wix-site-id': site.siteId, 'content-type': 'application/json' };
  const call = async (method: string, url: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(`${base}${url}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json).slice(0, 200)}`);
    return json;
  };
  const productIds: string[] = [];
  for (let i = 0; i < 20; i++) {
    const made = await call('POST', '/stores/v1/products', admin, { product: { productType: 'physical', name: `Soak product ${i}`, priceData: { price: 5 + i } } });
    productIds.push((made.product as { id: string }).id);
  }
  await call('POST', '/wix-data/v2/collections', admin, { collection: { id: 'Notes', permissions: { read: 'ANYONE', insert: 'ADMIN', update: 'ADMIN', remove: 'ADMIN' } } });
  for (let i = 0; i < 50; i++) await call('POST', '/wix-data/v2/items', admin, { dataCollectionId: 'Notes', dataItem: { data: { title: `note ${i}`, n: i } } });

  const minutes: Minute[] = [];
  const started = Date.now();
  const current = (): Minute => {
    // Calls still in flight at the deadline count in the last minute.
    const index = Math.min(Math.floor((Date.now() - started) / 60_000), Math.max(0, Math.ceil(seconds / 60) - 1));
    while (minutes.length <= index) minutes.push({ requests: 0, errors: 0, latencies: [], rssMb: 0 });
    return minutes[index];
  };
  const rssStart = rssMb(server.pid ?? 0);
  const errorSamples: string[] = [];
  const timed = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    const t0 = performance.now();
    try {
      const value = await work();
      const m = current();
      m.requests++;
      m.latencies.push(performance.now() - t0);
      return value;
    } catch (error) {
      const m = current();
      m.requests++;
      m.errors++;
      if (errorSamples.length < 5) errorSamples.push(error instanceof Error ? error.message : String(error));
      return undefined;
    }
  };
  const sampler = setInterval(() => (current().rssMb = rssMb(server.pid ?? 0)), 5_000);
  const deadline = started + seconds * 1000;
  let counter = 0;

  const shopper = async (n: number) => {
    const grant = await timed(() => call('POST', '/oauth2/token', {}, { clientId: site.clientId, grantType: 'anonymous' }));
    const visitor = { authorization: String(grant?.access_token ?? '') };
    while (Date.now() < deadline) {
      const roll = Math.random();
      const product = productIds[Math.floor(Math.random() * productIds.length)];
      if (roll < 0.35) {
        await timed(() => call('POST', '/stores-reader/v1/products/query', visitor, { query: { paging: { limit: 20 } } }));
      } else if (roll < 0.55) {
        await timed(() => call('POST', '/wix-data/v2/items/query', visitor, { dataCollectionId: 'Notes', query: { filter: { n: { $gt: Math.floor(Math.random() * 40) } }, paging: { limit: 10 } } }));
      } else if (roll < 0.75) {
        await timed(() => call('POST', '/ecom/v1/carts/current/add-to-cart', visitor, { lineItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: product }, quantity: 1 }] }));
        await timed(() => call('GET', '/ecom/v1/carts/current', visitor));
      } else if (roll < 0.9) {
        await timed(() => call('POST', '/ecom/v1/carts/current/add-to-cart', visitor, { lineItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: product }, quantity: 2 }] }));
        const made = await timed(() => call('POST', '/ecom/v1/carts/current/create-checkout', visitor, { channelType: 'WEB', email: `soak.${n}@example.com`, shippingAddress: ADDRESS }));
        const checkoutId = String(made?.checkoutId ?? '');
        if (checkoutId) await timed(() => call('POST', `/ecom/v1/checkouts/${checkoutId}/create-order`, visitor, { id: checkoutId }));
      } else {
        const email = `soak.${n}.${++counter}.${started}@example.com`;
        const password = 'soak-password-1';
        await timed(() => call('POST', '/_api/iam/authentication/v2/register', visitor, { loginId: { email }, password }));
        await timed(() => call('POST', '/_api/iam/authentication/v2/login', visitor, { loginId: { email }, password }));
      }
    }
  };
  await Promise.all(Array.from({ length: shoppers }, (_, n) => shopper(n)));
  clearInterval(sampler);
  const rssEnd = rssMb(server.pid ?? 0);
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });

  const database = process.env.DATABASE_URL ? `PostgreSQL (${new URL(process.env.DATABASE_URL).host})` : 'embedded PGlite';
  console.log(`\nsoak — ${database}, ${shoppers} shoppers, ${seconds} s, ${os.cpus().length} cores, load average at end ${os.loadavg()[0].toFixed(1)}, node ${process.version}`);
  console.log(['minute'.padStart(6), 'requests'.padStart(9), 'errors'.padStart(7), 'p99 ms'.padStart(8), 'RSS MB'.padStart(8)].join(' '));
  minutes.forEach((m, i) => console.log([String(i + 1).padStart(6), String(m.requests).padStart(9), String(m.errors).padStart(7), p99(m.latencies).toFixed(1).padStart(8), m.rssMb.toFixed(0).padStart(8)].join(' ')));
  const total = minutes.reduce((a, m) => ({ requests: a.requests + m.requests, errors: a.errors + m.errors }), { requests: 0, errors: 0 });
  console.log(`total: ${total.requests} requests, ${total.errors} errors; RSS ${rssStart.toFixed(0)} MB at start, ${rssEnd.toFixed(0)} MB at end (${(((rssEnd - rssStart) / rssStart) * 100).toFixed(1)}%)`);
  for (const sample of errorSamples) console.log(`error: ${sample}`);
}
