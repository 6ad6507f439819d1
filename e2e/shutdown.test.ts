import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, MAIN, ROOT, startBuiltServer, type Started } from './built-server.js';

/**
 * SIGTERM while clients keep writing: the built server finishes what it accepted, exits 0, and
 * after a restart on the same database every write it acknowledged is there.
 */
const CLI = path.join(ROOT, 'packages/server/dist/cli.js');
const databaseUrl = process.env.DATABASE_URL;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-shutdown-'));
const store: Record<string, string | undefined> = databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir, DATABASE_URL: undefined };

function env(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...store, ...extra };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  return merged;
}

async function start(): Promise<Started> {
  const port = await freePort();
  // Rate limits off: this test is one client hammering on purpose.
  return startBuiltServer(env({ PORT: String(port), HOST: '127.0.0.1', RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_TOKEN: '0' }), port);
}

const running: Started[] = [];
afterAll(async () => {
  for (const s of running) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('graceful shutdown', { timeout: 120_000 }, () => {
  it('loses no acknowledged write when SIGTERM comes mid-load', async () => {
    expect(fs.existsSync(MAIN), 'run `npm run build` first (npm test does)').toBe(true);
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'sites', 'create', '--name', 'Shutdown shop', '--json'], { env: env({}) });
    const site = JSON.parse(stdout) as { siteId: string; apiKey: string };
    const headers = { authorization: site.apiKey, 'wix-site-id': site.siteId, 'content-type': 'application/json' };

    const first = await start();
    running.push(first);
    const made = await fetch(`${first.base}/wix-data/v2/collections`, { method: 'POST', headers, body: JSON.stringify({ collection: { id: 'Orders' } }) });
    expect(made.status).toBe(200);

    const acknowledged: string[] = [];
    let refused = 0;
    let stop = false;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const res = await fetch(`${first.base}/wix-data/v2/items`, { method: 'POST', headers, body: JSON.stringify({ dataCollectionId: 'Orders', dataItem: { data: { title: `w${w}-${i}` } } }) });
          const body = (await res.json()) as { dataItem?: { id: string } };
          if (res.status === 200 && body.dataItem) acknowledged.push(body.dataItem.id);
          else refused++;
        } catch {
          // Connection refused or reset after the server stopped accepting: never acknowledged.
          refused++;
          if (first.child.exitCode !== null) return;
        }
      }
    };
    const writers = Array.from({ length: 8 }, (_, w) => writer(w));
    const until = Date.now() + 60_000;
    while (acknowledged.length < 40 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    stop = true;
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThanOrEqual(40);

    const second = await start();
    running.push(second);
    try {
      const missing: string[] = [];
      for (const id of acknowledged) {
        const res = await fetch(`${second.base}/wix-data/v2/items/${id}?dataCollectionId=Orders`, { headers });
        if (res.status !== 200) missing.push(`${id}: ${res.status}`);
        await res.arrayBuffer();
      }
      expect(missing).toEqual([]);
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
  });
});
