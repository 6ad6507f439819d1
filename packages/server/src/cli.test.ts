import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from './platform/db.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = path.join(ROOT, 'packages/server/src/cli.ts');
const dirs: string[] = [];

function tempDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-cli-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

interface Run { code: number; stdout: string; stderr: string }

function run(command: string, args: string[], env: Record<string, string | undefined>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd: ROOT, env: { ...process.env, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

const cli = (args: string[], env: Record<string, string | undefined>) => run(process.execPath, ['--import', 'tsx', CLI, ...args], env);

let shared: string;
beforeAll(async () => {
  shared = tempDataDir();
  await cli(['migrate'], { DATA_DIR: shared });
}, 120_000);

// Each case starts a process (tsx, and PGlite or a pool): slow on a loaded 2-core machine.
describe('the bodega CLI', { timeout: 120_000 }, () => {
  it('prints exactly one JSON object for `npm run --silent bodega -- sites create … --json`', async () => {
    const result = await run('npm', ['run', '--silent', 'bodega', '--', 'sites', 'create', '--name', 'CLI shop', '--signup-policy', 'owner-approval', '--json'], { DATA_DIR: tempDataDir() });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const created = JSON.parse(lines[0]);
    expect(created).toMatchObject({ siteId: expect.any(String), clientId: expect.any(String), apiKey: expect.stringMatching(/^bdg_/), signupPolicy: 'owner-approval', name: 'CLI shop' });
  });

  it('creates sites that list afterwards, on the same data directory', async () => {
    const dataDir = tempDataDir();
    const created = JSON.parse((await cli(['sites', 'create', '--name', 'Listed', '--json'], { DATA_DIR: dataDir })).stdout);
    const listed = JSON.parse((await cli(['sites', 'list', '--json'], { DATA_DIR: dataDir })).stdout);
    expect(listed.sites).toEqual(expect.arrayContaining([expect.objectContaining({ siteId: created.siteId, clientIds: [created.clientId] })]));
  });

  it('sets a site\'s allowed origins and catalog version with `sites update`', async () => {
    const dataDir = tempDataDir();
    const created = JSON.parse((await cli(['sites', 'create', '--name', 'Origins', '--allowed-origin', 'https://a.example', '--json'], { DATA_DIR: dataDir })).stdout);
    expect(created.catalogVersion).toBe('V1_CATALOG');
    const updated = await cli(['sites', 'update', '--site', created.siteId, '--allowed-origin', 'https://shop.example/', '--allowed-origin', 'http://localhost:5173', '--catalog', 'v3', '--json'], { DATA_DIR: dataDir });
    expect(updated.stderr).toBe('');
    expect(JSON.parse(updated.stdout)).toEqual({ siteId: created.siteId, allowedOrigins: ['https://shop.example', 'http://localhost:5173'], catalogVersion: 'V3_CATALOG', domains: [] });
    const v3 = JSON.parse((await cli(['sites', 'create', '--name', 'V3', '--catalog', 'v3', '--json'], { DATA_DIR: dataDir })).stdout);
    expect(v3.catalogVersion).toBe('V3_CATALOG');
  });

  it('migrates, and says so', async () => {
    const dataDir = tempDataDir();
    const first = await cli(['migrate', '--json'], { DATA_DIR: dataDir, DATABASE_URL: undefined });
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).applied).toContain('0001_platform.sql');
    const again = await cli(['migrate', '--json'], { DATA_DIR: dataDir, DATABASE_URL: undefined });
    expect(JSON.parse(again.stdout)).toEqual({ applied: [] });
  });

  it.each([
    [['sites', 'create'], /needs --name/],
    [['sites', 'create', '--name', 'x', '--signup-policy', 'sometimes'], /signupPolicy: must be one of/],
    [['sites', 'create', '--name', 'x', '--currency', 'XXZ'], /currency/],
    [['sites', 'create', '--name', 'x', '--owner-email', 'a@b.c'], /--owner-email needs --owner-password/],
    [['sites', 'frobnicate'], /Unknown command/],
    [['sites', 'create', '--bogus'], /Unknown option/],
    [['sites', 'update', '--allowed-origin', 'https://a.example'], /needs --site/],
    [['sites', 'update', '--site', 'x'], /needs --allowed-origin, --catalog or --domain/],
    [['sites', 'update', '--site', 'x', '--allowed-origin', 'ftp://a.example'], /must be http or https|No site/],
    [['sites', 'create', '--name', 'x', '--catalog', 'v2'], /--catalog takes v1 or v3/],
  ])('refuses %j with a clear message and exit 1', async (args, message) => {
    const result = await cli(args, { DATA_DIR: shared });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a bad configuration value with one line', async () => {
    const result = await cli(['sites', 'list'], { DATA_DIR: shared, LOG_LEVEL: 'chatty' });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/LOG_LEVEL must be one of/);
  });

  it('refuses to open an embedded database another process holds', async () => {
    const dataDir = tempDataDir();
    const holder = await openDb({ dataDir });
    try {
      const result = await cli(['sites', 'list'], { DATA_DIR: dataDir, DATABASE_URL: undefined });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/in use by another Bodega process \(pid \d+\)/);
    } finally {
      await holder.close();
    }
    const after = await cli(['sites', 'list', '--json'], { DATA_DIR: dataDir, DATABASE_URL: undefined });
    expect(after.code).toBe(0);
  });

  it('takes over a lock left by a process that died', async () => {
    const dataDir = tempDataDir();
    fs.writeFileSync(path.join(dataDir, 'bodega.lock'), '999999999');
    const result = await cli(['sites', 'list', '--json'], { DATA_DIR: dataDir, DATABASE_URL: undefined });
    expect(result.code).toBe(0);
  });
});
