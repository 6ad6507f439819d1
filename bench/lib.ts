/**
 * Shared bench plumbing: a real Bodega server on the chosen database (DATABASE_URL, else a fresh
 * embedded PGlite), a bare Fastify route doing one primary-key query on the same database as
 * the baseline, and autocannon run in a child process so the load generator does not share the
 * server's event loop. Every figure a bench prints comes from one run.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { openDb, type Db } from '../packages/server/src/platform/db.js';
import { migrate } from '../packages/server/src/platform/migrate.js';
import { buildApp } from '../packages/server/src/app.js';

const AUTOCANNON = fileURLToPath(new URL('../node_modules/autocannon/autocannon.js', import.meta.url));

export interface BenchServer {
  url: string;
  app: FastifyInstance;
  db: Db;
  /** The database the figures were measured on, for the printout. */
  database: string;
  close(): Promise<void>;
}

export const BARE_ROUTE = '/bench/bare';

export async function startServer(): Promise<BenchServer> {
  const databaseUrl = process.env.DATABASE_URL;
  const dataDir = databaseUrl ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-bench-'));
  const db = await openDb(databaseUrl ? { databaseUrl } : { dataDir });
  await migrate(db);
  const app = await buildApp({ db, config: { publicUrl: 'http://127.0.0.1', logLevel: 'silent', webDir: undefined, smtpUrl: undefined } });
  // The baseline: Fastify plus one primary-key lookup on the same database, nothing else.
  app.get(BARE_ROUTE, async (req) => {
    const siteId = (req.query as { site?: string }).site ?? '';
    const rows = await db.query('SELECT site_id, name, status FROM sites WHERE site_id = $1', [siteId]);
    return { site: rows[0] ?? null };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    app,
    db,
    database: databaseUrl ? `PostgreSQL (${new URL(databaseUrl).host})` : 'embedded PGlite',
    async close() {
      await app.close();
      await db.close();
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface LoadOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: unknown;
  connections?: number;
  seconds?: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

interface AutocannonJson {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}

/** Loads one URL with autocannon in a child process and returns its figures. */
export async function load(url: string, options: LoadOptions = {}): Promise<LoadResult> {
  const args = [AUTOCANNON, '-j', '-c', String(options.connections ?? 10), '-d', String(options.seconds ?? Number(process.env.BENCH_SECONDS ?? 5))];
  args.push('-m', options.method ?? 'GET');
  for (const [key, value] of Object.entries(options.headers ?? {})) args.push('-H', `${key}=${value}`);
  if (options.body !== undefined) args.push('-H', 'content-type=application/json', '-b', JSON.stringify(options.body));
  args.push(url);
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }, (error, out) => (error ? reject(error) : resolve(out)));
  });
  const json = JSON.parse(stdout) as AutocannonJson;
  return {
    requestsPerSecond: json.requests.average,
    p50Ms: json.latency.p50,
    p99Ms: json.latency.p99,
    requests: json.requests.total,
    non2xx: json.non2xx,
    errors: json.errors,
  };
}

export function printResults(title: string, database: string, rows: { name: string; result: LoadResult; ratio?: number }[]): void {
  console.log(`\n${title} — ${database}, ${os.cpus().length} cores, node ${process.version}`);
  console.log(['operation'.padEnd(34), 'req/s'.padStart(9), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'non-2xx'.padStart(8), 'ratio'.padStart(7)].join(' '));
  for (const { name, result, ratio } of rows) {
    console.log([
      name.padEnd(34),
      result.requestsPerSecond.toFixed(0).padStart(9),
      result.p50Ms.toFixed(1).padStart(8),
      result.p99Ms.toFixed(1).padStart(8),
      String(result.non2xx + result.errors).padStart(8),
      (ratio === undefined ? '' : ratio.toFixed(2)).padStart(7),
    ].join(' '));
  }
}

/** A failing request under load means the figures are meaningless: stop loudly. */
export function assertClean(name: string, result: LoadResult): void {
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${name}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
  }
}

/** autocannon in a child process, one visitor token per connection. */
const PER_CONNECTION_TOKENS = `
import autocannon from ${JSON.stringify(AUTOCANNON)};
const cfg = JSON.parse(process.env.BENCH_CONFIG);
let next = 0;
const result = await autocannon({
  url: cfg.url, connections: cfg.connections, duration: cfg.seconds, method: 'POST', body: cfg.body,
  setupClient(client) { client.setHeaders({ 'content-type': 'application/json', authorization: cfg.tokens[next++ % cfg.tokens.length] }); },
});
process.stdout.write(JSON.stringify({ requestsPerSecond: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99,
  requests: result.requests.total, non2xx: result.non2xx, errors: result.errors }));
`;

export async function loadPerConnection(url: string, tokens: string[], body: unknown, seconds: number): Promise<LoadResult> {
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', PER_CONNECTION_TOKENS], {
      env: { ...process.env, BENCH_CONFIG: JSON.stringify({ url, tokens, body: JSON.stringify(body), connections: tokens.length, seconds }) },
      maxBuffer: 16 * 1024 * 1024,
    }, (error, out) => (error ? reject(error) : resolve(out)));
  });
  return JSON.parse(stdout) as LoadResult;
}
