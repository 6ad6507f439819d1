import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { buildApp } from '../app.js';
import { openDb, type Db } from './db.js';
import { migrate } from './migrate.js';
import { migrateDatabase } from './pooler.js';
import { loadOperationsConfig } from './ops-config.js';
import { apiKey, catalogLine, createProduct, NEW_YORK } from '../test/commerce.js';

/**
 * Bodega behind a real PgBouncer in transaction pooling (Debian's pgbouncer): migrations, and
 * the cart → checkout → order flow from many clients at once over fewer server connections.
 * CI starts PgBouncer and sets PGBOUNCER_URL (and PGBOUNCER_TARGET_URL, the server behind it);
 * otherwise the test starts its own in front of PGBOUNCER_TARGET_URL or DATABASE_URL.
 */
const BINARY = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer', '/usr/local/bin/pgbouncer'].find((p) => fs.existsSync(p));
const target = process.env.PGBOUNCER_TARGET_URL ?? process.env.DATABASE_URL;
const given = process.env.PGBOUNCER_URL;
const runnable = Boolean(target && (given || BINARY));
if (!runnable) {
  console.warn(
    `pgbouncer.test.ts: not run here: ${target ? 'the pgbouncer binary is missing (apt-get install pgbouncer)' : 'no PostgreSQL to put PgBouncer in front of (set DATABASE_URL or PGBOUNCER_TARGET_URL)'}; CI installs and runs it`,
  );
}

function withDatabase(url: string, name: string): string {
  const next = new URL(url);
  next.pathname = `/${name}`;
  return next.toString();
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Our own PgBouncer on a free loopback port, every database passed through in transaction mode. */
async function startPgbouncer(binary: string, behind: string): Promise<{ url: string; child: ChildProcess }> {
  const server = new URL(behind);
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-pgbouncer-'));
  fs.chmodSync(dir, 0o755);
  const ini = path.join(dir, 'pgbouncer.ini');
  fs.writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432} user=${decodeURIComponent(server.username) || 'postgres'}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      'default_pool_size = 4',
      'max_client_conn = 200',
      'ignore_startup_parameters = extra_float_digits,options',
      '',
    ].join('\n'),
  );
  fs.chmodSync(ini, 0o644);
  // PgBouncer refuses to run as root; as root it is told to become postgres.
  const args = process.getuid?.() === 0 ? ['-u', 'postgres', ini] : [ini];
  const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const until = Date.now() + 15_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    const up = await client.connect().then(() => client.query('SELECT 1')).then(() => true, () => false);
    await client.end().catch(() => undefined);
    if (up) return { url, child };
    if (Date.now() > until || child.exitCode !== null) throw new Error(`pgbouncer did not start: ${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.runIf(runnable)('behind PgBouncer in transaction pooling', { timeout: 120_000 }, () => {
  let bouncer: string;
  let own: ChildProcess | undefined;
  const created: string[] = [];
  const admin = new pg.Client({ connectionString: target });

  /** A new empty database, reached through PgBouncer and directly. */
  async function freshDatabase(): Promise<{ pooled: string; direct: string }> {
    const name = `bodega_pgb_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    await admin.query(`CREATE DATABASE ${name}`);
    created.push(name);
    return { pooled: withDatabase(bouncer, name), direct: withDatabase(target ?? '', name) };
  }

  beforeAll(async () => {
    await admin.connect();
    if (given) {
      bouncer = given;
    } else {
      const started = await startPgbouncer(BINARY ?? '', target ?? '');
      bouncer = started.url;
      own = started.child;
    }
  });

  const opened: Db[] = [];
  afterAll(async () => {
    for (const db of opened) await db.close().catch(() => undefined);
    own?.kill('SIGTERM');
    if (own && own.exitCode === null) await new Promise((r) => own?.once('exit', r));
    for (const name of created) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  async function open(url: string): Promise<Db> {
    const db = await openDb({ databaseUrl: url, pooler: 'transaction' });
    opened.push(db);
    return db;
  }

  it('migrates through the pooler: two servers starting at once apply each migration once', async () => {
    const { pooled } = await freshDatabase();
    const [a, b] = await Promise.all([open(pooled), open(pooled)]);
    const [first, second] = await Promise.all([migrate(a), migrate(b)]);
    const all = fs.readdirSync(new URL('./migrations/', import.meta.url)).filter((f) => f.endsWith('.sql')).sort();
    expect([...first, ...second].sort()).toEqual(all);
    expect(await migrate(a)).toEqual([]);
  });

  it('with DATABASE_DIRECT_URL, migrates on the direct connection and serves through the pooler', async () => {
    const { pooled, direct } = await freshDatabase();
    const ops = loadOperationsConfig({ DATABASE_POOLER: 'transaction', DATABASE_DIRECT_URL: direct });
    expect(ops.databasePooler).toBe('transaction');
    const db = await open(pooled);
    const applied = await migrateDatabase(db, ops);
    expect(applied.length).toBeGreaterThan(0);
    const viaPooler = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
    expect(viaPooler[0].n).toBe(applied.length);
  });

  it('runs the cart → checkout → order flow for many shoppers at once over a few server connections', async () => {
    const { pooled } = await freshDatabase();
    const db = await open(pooled);
    await migrate(db);
    const app = await buildApp({ db, config: { publicUrl: 'http://localhost:3000', logLevel: 'silent', webDir: undefined, smtpUrl: undefined } });
    try {
      const made = await app.services.sites.createSite({ name: 'Pooled shop' });
      const site = { siteId: made.site.siteId, clientId: made.clientId, apiKey: made.apiKey };
      const product = await createProduct(app, site, { name: 'Pooled mug', priceData: { price: 9.5 } });
      const shop = async (n: number) => {
        const grant = await app.inject({ method: 'POST', url: '/oauth2/token', payload: { clientId: site.clientId, grantType: 'anonymous' } });
        const headers = { authorization: (grant.json() as { access_token: string }).access_token };
        const added = await app.inject({ method: 'POST', url: '/ecom/v1/carts/current/add-to-cart', headers, payload: { lineItems: [catalogLine(product.id, 1 + (n % 3))] } });
        expect(added.statusCode, added.body).toBe(200);
        const checkout = await app.inject({ method: 'POST', url: '/ecom/v1/carts/current/create-checkout', headers, payload: { channelType: 'WEB', email: `pooled.${n}@example.com`, shippingAddress: NEW_YORK } });
        expect(checkout.statusCode, checkout.body).toBe(200);
        const checkoutId = (checkout.json() as { checkoutId: string }).checkoutId;
        const order = await app.inject({ method: 'POST', url: `/ecom/v1/checkouts/${checkoutId}/create-order`, headers, payload: { id: checkoutId } });
        expect(order.statusCode, order.body).toBe(200);
        return (order.json() as { orderId: string }).orderId;
      };
      const orderIds = await Promise.all(Array.from({ length: 12 }, (_, n) => shop(n)));
      expect(new Set(orderIds).size).toBe(12);
      const listed = await app.inject({ method: 'POST', url: '/ecom/v1/orders/search', headers: apiKey(site), payload: { search: { cursorPaging: { limit: 100 } } } });
      expect(listed.statusCode, listed.body).toBe(200);
      const found = (listed.json() as { orders: { id: string }[] }).orders.map((o) => o.id);
      expect(found.sort()).toEqual([...orderIds].sort());
    } finally {
      await app.close();
    }
  });
});
