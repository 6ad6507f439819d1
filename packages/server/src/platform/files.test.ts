// DATA_DIR and backups are the running user's only: created 0700/0600 (PGlite's own files too),
// and a directory other users may open is refused at start with one line.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from './config.js';
import { secureDataDir } from './files.js';
import { openDb } from './db.js';
import { buildApp } from '../app.js';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const CLI = path.join(ROOT, 'packages/server/src/cli.ts');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-files-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

interface Run { code: number; stdout: string; stderr: string }

/** The CLI as an operator runs it, with the test's umask (022) so the CLI's own one is what counts. */
function cli(args: string[], env: Record<string, string | undefined>): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete childEnv[key];
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, env: childEnv, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

const mode = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

/** Every path under `dir` whose mode lets group or others in. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (!entry.isSymbolicLink() && (fs.statSync(full).mode & 0o077) !== 0) found.push(`${path.relative(dir, full)} ${mode(full)}`);
  }
  return found;
}

/** Opens the directory's database in this process, makes a site with a webhook subscription, and answers its secret. */
async function withWebhook(dataDir: string): Promise<string> {
  const db = await openDb({ dataDir });
  try {
    const app = await buildApp({ db, config: { publicUrl: 'http://localhost:3000', logLevel: 'silent', webDir: undefined, smtpUrl: undefined } });
    const site = await app.services.sites.createSite({ name: 'Files' });
    const headers = { authorization: site.apiKey, 'wix-site-id': site.site.siteId };
    const created = await app.inject({ method: 'POST', url: '/bodega/v1/webhooks', headers, payload: { subscription: { url: 'https://hooks.example.com/in', eventTypes: ['order.created'] } } });
    expect(created.statusCode, created.body).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/bodega/v1/webhooks/public-key', headers })).statusCode).toBe(200);
    await app.close();
    return created.json().secret as string;
  } finally {
    await db.close();
  }
}

describe('the data directory', () => {
  it('is created 0700 with every file of the embedded database 0600, a backup of it is 0600, and so is what a restore writes', { timeout: 300_000 }, async () => {
    const dataDir = path.join(work, 'fresh', 'data');
    const migrated = await cli(['migrate'], { DATA_DIR: dataDir, DATABASE_URL: undefined });
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(mode(dataDir)).toBe('700');
    expect(fs.existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'))).toBe(true);
    expect(openToOthers(dataDir)).toEqual([]);

    // A webhook secret, stored sealed: the backup holds it only sealed (see platform/secrets.ts).
    const standardSecret = await withWebhook(dataDir);

    const out = path.join(work, 'backups', 'store.backup');
    const backedUp = await cli(['backup', '--out', out], { DATA_DIR: dataDir, DATABASE_URL: undefined });
    expect(backedUp.code, backedUp.stderr).toBe(0);
    expect(mode(out)).toBe('600');
    expect(openToOthers(dataDir)).toEqual([]);
    const dump = zlib.gunzipSync(fs.readFileSync(out));
    expect(dump.includes(Buffer.from('bdgsec:v1:'))).toBe(true);
    expect(dump.includes(Buffer.from(standardSecret.slice('whsec_'.length)))).toBe(false);
    expect(dump.includes(Buffer.from('BEGIN PRIVATE KEY'))).toBe(false);

    const restoredDir = path.join(work, 'restored');
    const restored = await cli(['restore', '--from', out], { DATA_DIR: restoredDir, DATABASE_URL: undefined });
    expect(restored.code, restored.stderr).toBe(0);
    expect(mode(restoredDir)).toBe('700');
    expect(openToOthers(restoredDir)).toEqual([]);
  });

  // On Citus bodega backup refuses the coordinator (backup.test.ts pins the refusal).
  it.runIf(Boolean(process.env.DATABASE_URL) && process.env.BODEGA_CITUS !== '1')('writes a PostgreSQL backup 0600', { timeout: 120_000 }, async () => {
    const out = path.join(work, 'pg.backup');
    const backedUp = await cli(['backup', '--out', out], { DATABASE_URL: process.env.DATABASE_URL });
    expect(backedUp.code, backedUp.stderr).toBe(0);
    expect(mode(out)).toBe('600');
  });

  it('is refused at start, in one line, when other users may write it', { timeout: 120_000 }, async () => {
    const loose = path.join(work, 'loose');
    fs.mkdirSync(loose);
    fs.chmodSync(loose, 0o777);
    const refused = await cli(['migrate'], { DATA_DIR: loose, DATABASE_URL: undefined });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`bodega: DATA_DIR ${loose} is writable by other users (mode 777); check what is in it, run \`chmod 700 ${loose}\` and start again\n`);
    expect(fs.readdirSync(loose)).toEqual([]);

    for (const open of [0o770, 0o707, 0o722]) {
      fs.chmodSync(loose, open);
      expect(() => secureDataDir(loose), open.toString(8)).toThrow(ConfigError);
    }
  });

  it('closes a directory of its own that others could only read (an older version made it 0755)', () => {
    for (const readable of [0o755, 0o740, 0o705]) {
      const dir = path.join(work, `readable-${readable.toString(8)}`);
      fs.mkdirSync(dir);
      fs.chmodSync(dir, readable);
      secureDataDir(dir);
      expect(mode(dir), readable.toString(8)).toBe('700');
    }
  });

  it('takes group and other access off what an older version left inside', () => {
    const old = path.join(work, 'old');
    fs.mkdirSync(path.join(old, 'pgdata', 'base'), { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(old, 'pgdata', 'base', '1234'), 'rows', { mode: 0o666 });
    fs.chmodSync(path.join(old, 'pgdata', 'base', '1234'), 0o666);
    fs.chmodSync(old, 0o700);
    secureDataDir(old);
    expect(openToOthers(old)).toEqual([]);
    expect(mode(path.join(old, 'pgdata', 'base', '1234'))).toBe('600');
  });
});
