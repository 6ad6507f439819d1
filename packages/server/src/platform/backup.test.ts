import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { openDb, type Db } from './db.js';
import { migrate } from './migrate.js';
import { CITUS_BACKUP_REFUSAL, serveBackupRequests } from './backup.js';
import { testDb, type TestSite } from '../test/harness.js';
import { apiKey, catalogLine, createProduct, placeOrder } from '../test/commerce.js';

/**
 * `npm run bodega -- backup` against a live app, `restore` into an empty directory or database,
 * then every row of every site-scoped table of the test's sites must be back unchanged.
 * Runs the built CLI (npm test builds first), the way an operator does.
 */
const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const exec = promisify(execFile);
const onPostgres = Boolean(process.env.DATABASE_URL);
const onCitus = process.env.BODEGA_CITUS === '1';
const config = { publicUrl: 'http://localhost:3000', logLevel: 'silent' as const, webDir: undefined, smtpUrl: undefined };
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-backup-'));

function cli(args: string[], env: Record<string, string>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  return exec(process.execPath, [CLI, ...args], { env: childEnv });
}

function withDatabase(url: string, name: string): string {
  const next = new URL(url);
  next.pathname = `/${name}`;
  return next.toString();
}

let db: Db;
let app: FastifyInstance;
let stopBackups = () => undefined as void;
const dataDir = path.join(work, 'live');
const sites: TestSite[] = [];

async function fill(site: TestSite, n: number): Promise<void> {
  const product = await createProduct(app, site, { name: `Backup mug ${n}`, priceData: { price: 12.5 } });
  const token = await visitorToken(site);
  await placeOrder(app, site, token, [catalogLine(product.id, 2)]);
  await placeOrder(app, site, token, [catalogLine(product.id, 1)], { email: `second.${n}@example.com` });
  const member = await app.inject({ method: 'POST', url: '/members/v1/members', headers: apiKey(site), payload: { member: { loginEmail: `kept.${n}.${randomUUID()}@example.com`, profile: { nickname: `Kept ${n}` } } } });
  expect(member.statusCode, member.body).toBe(200);
  const collection = await app.inject({ method: 'POST', url: '/wix-data/v2/collections', headers: apiKey(site), payload: { collection: { id: 'Notes' } } });
  expect(collection.statusCode, collection.body).toBe(200);
  for (const title of ['first', 'second', 'ünïcode ✓']) {
    const item = await app.inject({ method: 'POST', url: '/wix-data/v2/items', headers: apiKey(site), payload: { dataCollectionId: 'Notes', dataItem: { data: { title, n } } } });
    expect(item.statusCode, item.body).toBe(200);
  }
}

async function visitorToken(site: TestSite): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/oauth2/token', payload: { clientId: site.clientId, grantType: 'anonymous' } });
  return (res.json() as { access_token: string }).access_token;
}

/** Every site-scoped table's rows for the test's sites, in a stable order. */
async function snapshot(from: Db): Promise<Record<string, string[]>> {
  const tables = await from.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.columns
      WHERE column_name = 'site_id' AND table_schema = current_schema() ORDER BY table_name`,
  );
  const ids = sites.map((s) => s.siteId);
  const out: Record<string, string[]> = {};
  for (const { table_name: table } of tables) {
    const rows = await from.query<{ row: string }>(`SELECT to_jsonb(t)::text AS row FROM "${table}" t WHERE site_id = ANY($1) ORDER BY 1`, [ids]);
    out[table] = rows.map((r) => r.row);
  }
  return out;
}

beforeAll(async () => {
  if (onPostgres) {
    db = await testDb();
  } else {
    db = await openDb({ dataDir });
    await migrate(db);
    stopBackups = serveBackupRequests(db, dataDir);
  }
  app = await buildApp({ db, config });
  await app.ready();
  for (let n = 0; n < 2; n++) {
    const created = await app.services.sites.createSite({ name: `Backup site ${n}` });
    sites.push({ siteId: created.site.siteId, clientId: created.clientId, apiKey: created.apiKey });
  }
  for (const [n, site] of sites.entries()) await fill(site, n);
}, 120_000);

afterAll(async () => {
  stopBackups();
  await app.close();
  await db.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe.runIf(onCitus)('backup and restore on a Citus coordinator', () => {
  it('refuses both in words: one pg_dump of the coordinator is not a backup of the cluster', async () => {
    const file = path.join(work, 'citus.dump');
    for (const args of [['backup', '--out', file], ['restore', '--from', file]]) {
      if (args[0] === 'restore') fs.writeFileSync(file, 'PGDMP'); // a PostgreSQL dump's first bytes
      const refused = await cli(args, { DATABASE_URL: process.env.DATABASE_URL ?? '' }).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(refused?.code, args[0]).toBe(1);
      expect(refused?.stderr.trim(), args[0]).toBe(`bodega: ${CITUS_BACKUP_REFUSAL}`);
    }
    expect(fs.readdirSync(work).filter((f) => f.startsWith('citus.dump.')), 'no partial file is left').toEqual([]);
  });
});

describe.skipIf(onCitus)(`backup and restore on ${onPostgres ? 'PostgreSQL' : 'embedded PGlite'}`, { timeout: 120_000 }, () => {
  it('brings back every site, order, member and item into an empty target', async () => {
    expect(fs.existsSync(CLI), 'run `npm run build` first (npm test does)').toBe(true);
    const before = await snapshot(db);
    for (const table of ['sites', 'orders', 'members', 'data_items', 'products']) expect(before[table]?.length, table).toBeGreaterThan(0);
    expect(before.orders).toHaveLength(4);
    expect(before.members).toHaveLength(2);
    expect(before.data_items).toHaveLength(6);

    const file = path.join(work, onPostgres ? 'store.dump' : 'store.tar.gz');
    // With the app holding the database open: PGlite's server process answers the request.
    const backedUp = await cli(['backup', '--out', file], onPostgres ? { DATABASE_URL: process.env.DATABASE_URL ?? '' } : { DATA_DIR: dataDir });
    expect(backedUp.stdout).toContain('Wrote the backup');
    expect(fs.statSync(file).size).toBeGreaterThan(0);

    // A write after the backup is not in it.
    const afterName = `After the backup ${randomUUID()}`;
    await app.services.sites.createSite({ name: afterName });

    let restored: Db;
    let dropTarget = async () => undefined as void;
    if (onPostgres) {
      const name = `bodega_restore_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
      await db.query(`CREATE DATABASE ${name}`);
      const url = withDatabase(process.env.DATABASE_URL ?? '', name);
      await cli(['restore', '--from', file], { DATABASE_URL: url });
      restored = await openDb({ databaseUrl: url });
      dropTarget = async () => {
        await db.query(`DROP DATABASE ${name}`);
      };
    } else {
      const target = path.join(work, 'restored');
      await cli(['restore', '--from', file], { DATA_DIR: target });
      restored = await openDb({ dataDir: target });
    }
    try {
      expect(await snapshot(restored)).toEqual(before);
      const after = await restored.query('SELECT 1 FROM sites WHERE name = $1', [afterName]);
      expect(after).toHaveLength(0);
      expect(await migrate(restored)).toEqual([]);
    } finally {
      await restored.close();
      await dropTarget();
    }
  });

  it('refuses to restore over a database that holds data, with one clear line', async () => {
    const file = path.join(work, 'refused');
    await cli(['backup', '--out', file], onPostgres ? { DATABASE_URL: process.env.DATABASE_URL ?? '' } : { DATA_DIR: dataDir });
    const refused = await cli(['restore', '--from', file], onPostgres ? { DATABASE_URL: process.env.DATABASE_URL ?? '' } : { DATA_DIR: dataDir }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused?.code).toBe(1);
    expect(refused?.stderr.trim()).toMatch(onPostgres ? /^bodega: The target database is not empty/ : /^bodega: .* already holds a database; restore into an empty DATA_DIR$/);
  });
});
