import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CLI = path.join(ROOT, 'packages/server/src/cli.ts');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-cli-domains-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

interface Run { code: number; stdout: string; stderr: string }

/** The CLI on this worker's database: DATABASE_URL when the suite runs on PostgreSQL, else a fresh DATA_DIR. */
function cli(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', CLI, ...args], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

// Each case starts a process (tsx, and PGlite or a pool): slow on a loaded 2-core machine.
describe('site domains in the CLI', { timeout: 120_000 }, () => {
  it('creates a site with --domain (repeatable), replaces them with sites update, and lists them', async () => {
    const name = `cli-${randomUUID().slice(0, 8)}.example`;
    const created = await cli(['sites', 'create', '--name', 'Domain shop', '--domain', name, '--domain', `WWW.${name}`, '--json']);
    expect(created.stderr).toBe('');
    const site = JSON.parse(created.stdout);
    expect(site.domains).toEqual([name, `www.${name}`]);

    const updated = await cli(['sites', 'update', '--site', site.siteId, '--domain', `shop.${name}`, '--json']);
    expect(updated.code).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({ siteId: site.siteId, domains: [`shop.${name}`] });

    const listed = JSON.parse((await cli(['sites', 'list', '--json'])).stdout);
    expect(listed.sites).toEqual(expect.arrayContaining([expect.objectContaining({ siteId: site.siteId, domains: [`shop.${name}`] })]));

    const clash = await cli(['sites', 'create', '--name', 'Clash', '--domain', `shop.${name}`]);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toMatch(/Another site already uses shop\./);
  });

  it.each([
    [['sites', 'update', '--site', 'x'], /sites update needs --allowed-origin, --catalog or --domain/],
    [['sites', 'create', '--name', 'x', '--domain', 'http://shop.example:80/'], /is not a host name/],
  ])('refuses %j with a clear message and exit 1', async (args, message) => {
    const result = await cli(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
  });
});
