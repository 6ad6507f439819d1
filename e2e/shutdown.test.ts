import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * SIGTERM while clients keep writing: the built server finishes what it accepted, exits 0, and
 * after a restart on the same database every write it acknowledged is there.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = path.join(ROOT, 'packages/server/dist/main.js');
const CLI = path.join(ROOT, 'packages/server/dist/cli.js');
const databaseUrl = process.env.DATABASE_URL;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-shutdown-'));
const store: Record<string, string | undefined> = databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir, DATABASE_URL: undefined };

function env(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...store, ...extra };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  return merged;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Started { child: ChildProcess; base: string; exited: Promise<number | null>; output: () => string }

async function start(): Promise<Started> {
  const port = await freePort();
  // Rate limits off: this test is one client hammering on purpose.
  const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env: env({ PORT: String(port), HOST: '127.0.0.1', RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_TOKEN: '0' }), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 60_000;
  for (;;) {
    const ready = await fetch(`${base}/readyz`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > until || child.exitCode !== null) throw new Error(`server did not become ready: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, base, exited, output: () => output };
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
