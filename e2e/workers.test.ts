import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, MAIN, spawnBuiltServer, type Started } from './built-server.js';

/**
 * WORKERS: the built server as several processes on one port (node:cluster). On PostgreSQL: a
 * worker that dies is replaced while the others keep serving; SIGTERM drains every worker (requests
 * in flight are answered) and the primary exits 0 without restarting any. On the embedded
 * database, which one process owns, more than one worker is refused with one line.
 */
const databaseUrl = process.env.DATABASE_URL;

function spawnServer(env: Record<string, string | undefined>, port: number): Started {
  const merged: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), RATE_LIMIT_PER_IP: '0', ...env };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  return spawnBuiltServer(merged, port);
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, deadlineMs = 60_000): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function servingWorkers(output: string): number[] {
  return [...output.matchAll(/worker (\d+) is serving/g)].map((m) => Number(m[1]));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const running: Started[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const s of running) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('WORKERS', { timeout: 120_000 }, () => {
  it('refuses more than one worker on the embedded database, with one line', async () => {
    expect(fs.existsSync(MAIN), 'run `npm run build` first (npm test does)').toBe(true);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-workers-'));
    dirs.push(dataDir);
    const server = spawnServer({ DATABASE_URL: undefined, DATA_DIR: dataDir, WORKERS: '2' }, await freePort());
    running.push(server);
    expect(await server.exited).toBe(1);
    expect(server.output().trim()).toBe('bodega: WORKERS above 1 needs DATABASE_URL: the embedded database belongs to one process');
  });

  it.runIf(Boolean(databaseUrl))('replaces a crashed worker, and SIGTERM drains every worker and exits 0 (PostgreSQL)', async () => {
    const server = spawnServer({ DATABASE_URL: databaseUrl, WORKERS: '2' }, await freePort());
    running.push(server);
    const first = await until('two workers', () => {
      const pids = servingWorkers(server.output());
      return pids.length >= 2 ? pids : undefined;
    });
    expect((await fetch(`${server.base}/readyz`)).status).toBe(200);

    // A worker dies: another takes its place, and the port keeps answering meanwhile.
    process.kill(first[0], 'SIGKILL');
    const replacement = await until('a replacement worker', () => servingWorkers(server.output()).find((pid) => !first.includes(pid)));
    expect(server.output()).toContain(`worker ${first[0]} exited (SIGKILL); starting another`);
    for (let i = 0; i < 10; i++) expect((await fetch(`${server.base}/healthz`)).status).toBe(200);

    // SIGTERM while requests arrive: answers are 200, or 503 once draining (a connection made after
    // the port closed is refused); e2e/shutdown.test.ts checks no acknowledged write is lost.
    const statuses: Promise<number>[] = Array.from({ length: 20 }, () => fetch(`${server.base}/readyz`).then((r) => r.status, () => -1));
    await new Promise((r) => setTimeout(r, 5));
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const answered = await Promise.all(statuses);
    expect(answered.filter((s) => s !== 200 && s !== 503 && s !== -1)).toEqual([]);
    expect([first[1], replacement].filter(alive)).toEqual([]);
    expect(server.output()).not.toMatch(/exited \(SIGTERM\)|exited \(code 0\)/);
  });
});
