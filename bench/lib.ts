/**
 * Shared bench plumbing: a real Bodega server on the chosen database (DATABASE_URL, else a fresh
 * embedded PGlite), a bare Fastify route doing one primary-key query on the same database as
 * the baseline, and autocannon run in a child process so the load generator does not share the
 * server's event loop. Every figure a bench prints comes from one run.
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
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
  /** The database the figures were measured on, for the printout (with fsync on PostgreSQL). */
  database: string;
  /** PostgreSQL's fsync and synchronous_commit are both on: a commit waits for the disk. */
  durable: boolean;
  close(): Promise<void>;
}

/** The read baseline: Fastify plus one primary-key SELECT, nothing else. */
export const BARE_ROUTE = '/bench/bare';
/**
 * The write baseline: Fastify plus one autocommit upsert (one durable commit). The row is the
 * caller's Authorization header (own row per connection with loadPerConnection) or `?key=`.
 */
export const BARE_WRITE_ROUTE = '/bench/bare-write';
// In a schema of its own: migrating on Citus plans every table in public (platform/citus.ts).
const BARE_WRITE_TABLE = 'bench.bare_writes';

export async function startServer(): Promise<BenchServer> {
  const databaseUrl = process.env.DATABASE_URL;
  const dataDir = databaseUrl ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-bench-'));
  const db = await openDb(databaseUrl ? { databaseUrl } : { dataDir });
  await migrate(db);
  const app = await buildApp({ db, config: { publicUrl: 'http://127.0.0.1', logLevel: 'silent', webDir: undefined, smtpUrl: undefined } });
  app.get(BARE_ROUTE, async (req) => {
    const siteId = (req.query as { site?: string }).site ?? '';
    const rows = await db.query('SELECT site_id, name, status FROM sites WHERE site_id = $1', [siteId]);
    return { site: rows[0] ?? null };
  });
  await db.exec(`CREATE SCHEMA IF NOT EXISTS bench; CREATE TABLE IF NOT EXISTS ${BARE_WRITE_TABLE} (key text PRIMARY KEY, n bigint NOT NULL, updated_at timestamptz NOT NULL)`);
  app.post(BARE_WRITE_ROUTE, async (req) => {
    const key = req.headers.authorization ?? (req.query as { key?: string }).key ?? 'hot';
    const rows = await db.query(
      `INSERT INTO ${BARE_WRITE_TABLE} AS w (key, n, updated_at) VALUES ($1, 1, now())
       ON CONFLICT (key) DO UPDATE SET n = w.n + 1, updated_at = EXCLUDED.updated_at RETURNING n`,
      [key.slice(-64)],
    );
    return { n: rows[0]?.n };
  });
  let durable = false;
  let database = 'embedded PGlite';
  if (db.kind === 'postgres' && databaseUrl) {
    const [fsync] = await db.query<{ fsync: string }>('SHOW fsync');
    const [sync] = await db.query<{ synchronous_commit: string }>('SHOW synchronous_commit');
    durable = fsync.fsync === 'on' && sync.synchronous_commit !== 'off';
    database = `PostgreSQL (${new URL(databaseUrl).host}, fsync=${fsync.fsync}, synchronous_commit=${sync.synchronous_commit})`;
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    app,
    db,
    database,
    durable,
    async close() {
      await app.close();
      await db.exec(`DROP TABLE IF EXISTS ${BARE_WRITE_TABLE}`).catch(() => undefined);
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

/** The Accept-Encoding of a browser; the load generators send it too. */
export const BROWSER_ENCODINGS = 'gzip, deflate, br';

/** Loads one URL with autocannon in a child process and returns its figures. */
export async function load(url: string, options: LoadOptions = {}): Promise<LoadResult> {
  const args = [AUTOCANNON, '-j', '-c', String(options.connections ?? 10), '-d', String(options.seconds ?? Number(process.env.BENCH_SECONDS ?? 5))];
  args.push('-m', options.method ?? 'GET');
  // What a browser sends, so an answer costs what it costs a browser (compressed above a size).
  for (const [key, value] of Object.entries({ 'accept-encoding': BROWSER_ENCODINGS, ...options.headers })) args.push('-H', `${key}=${value}`);
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

/** What a figure should be: a ratio of at least / at most this. */
export interface Aim {
  atLeast?: number;
  atMost?: number;
}

/** One line of the `npm run bench -- all` table; every bench records its figures as these. */
export interface BenchRow {
  bench: string;
  path: string;
  unit: 'req/s' | 'items/s' | 'events/s' | 'ms' | 'MB' | 'KB';
  rate?: number;
  p50Ms?: number;
  p99Ms?: number;
  /** This figure over its baseline (`versus`), from the same run. */
  ratio?: number;
  versus?: string;
  aim?: Aim;
  /** Non-2xx answers and socket errors under load. */
  errors?: number;
}

/** The peak resident memory of one process a bench ran (the bench process with its in-process server, a built server's worker…). */
export interface PeakRss {
  bench: string;
  process: string;
  mb: number;
}

const recorded: BenchRow[] = [];
const peaks: PeakRss[] = [];

/** The bench whose rows are being recorded (run.ts sets it before it runs one). */
export let currentBench = '';
export function setCurrentBench(name: string): void {
  currentBench = name;
}

export function recordRows(...rows: Omit<BenchRow, 'bench'>[]): void {
  for (const row of rows) recorded.push({ bench: currentBench, ...row });
}

export function recordPeakRss(process: string, mb: number): void {
  peaks.push({ bench: currentBench, process, mb });
}

export function collected(): { rows: BenchRow[]; peaks: PeakRss[] } {
  return { rows: [...recorded], peaks: [...peaks] };
}

/** This process's peak RSS so far, in MB (Linux reports kilobytes). */
export function selfPeakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

/**
 * Samples a process's memory from /proc while it runs: peak RSS is the kernel's (VmHWM); the peak
 * of its private part (RSS less pages shared with other processes, chiefly the node binary's
 * code, which every node process maps once) is the highest sample.
 */
export function sampleMemory(pid: number, everyMs = 200): { stop(): { peakRssMb: number; peakPrivateMb: number } } {
  let peakPrivate = 0;
  const sample = () => {
    try {
      const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(rollup)?.[1] ?? 0);
      peakPrivate = Math.max(peakPrivate, (kb('Private_Clean') + kb('Private_Dirty')) / 1024);
    } catch {
      // gone
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { peakRssMb: peakRssMbOf(pid), peakPrivateMb: peakPrivate };
    },
  };
}

/**
 * User + system CPU seconds a process has used: utime and stime, fields 14 and 15 of
 * /proc/<pid>/stat, in clock ticks (100 a second on Linux). Throws when the process is gone.
 */
export function cpuSecondsOf(pid: number): number {
  // The command name (field 2) may hold ") ": the fields that follow start after its last one.
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A process's peak RSS from /proc (VmHWM), in MB; 0 when it is gone. */
export function peakRssMbOf(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

export function aimText(aim: Aim | undefined): string {
  if (!aim) return '';
  if (aim.atLeast !== undefined) return `≥ ${aim.atLeast}`;
  if (aim.atMost !== undefined) return `≤ ${aim.atMost}`;
  return '';
}

export function aimMet(row: Pick<BenchRow, 'ratio' | 'aim' | 'errors'>): boolean | undefined {
  if (!row.aim || row.ratio === undefined) return undefined;
  if (row.errors) return false;
  if (row.aim.atLeast !== undefined && row.ratio < row.aim.atLeast) return false;
  if (row.aim.atMost !== undefined && row.ratio > row.aim.atMost) return false;
  return true;
}

/** The one table: path, rate, p50, p99, ratio, aim, met. */
export function printTable(rows: readonly BenchRow[], rss: readonly PeakRss[]): void {
  const fixed = (n: number | undefined, digits: number) => (n === undefined || !Number.isFinite(n) ? '' : n.toFixed(digits));
  const header = ['bench'.padEnd(9), 'path'.padEnd(50), 'rate'.padStart(9), 'unit'.padEnd(8), 'p50 ms'.padStart(7), 'p99 ms'.padStart(7),
    'ratio'.padStart(6), 'versus'.padEnd(16), 'aim'.padEnd(7), 'met?'];
  console.log(header.join(' '));
  for (const row of rows) {
    const met = aimMet(row);
    console.log([
      row.bench.padEnd(9),
      row.path.padEnd(50),
      fixed(row.rate, 0).padStart(9),
      (row.rate === undefined ? '' : row.unit).padEnd(8),
      fixed(row.p50Ms, 1).padStart(7),
      fixed(row.p99Ms, 1).padStart(7),
      fixed(row.ratio, 2).padStart(6),
      (row.versus ?? '').padEnd(16),
      aimText(row.aim).padEnd(7),
      met === undefined ? '' : met ? 'yes' : 'NO',
    ].join(' '));
  }
  if (rss.length) {
    console.log('peak RSS per process (MB; "bench process" = bench code under tsx + its in-process server, without the load generator;'
      + ' a server alone: the memory bench\'s rows and the cart bench\'s WORKERS figures): '
      + rss.map((r) => `${r.bench} ${r.process} ${r.mb.toFixed(0)}`).join(', '));
  }
}

export function printResults(
  title: string,
  database: string,
  rows: { name: string; result: LoadResult; ratio?: number; versus?: string; aim?: Aim }[],
): void {
  console.log(`\n${title} — ${database}, ${os.cpus().length} cores, node ${process.version}, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(['operation'.padEnd(44), 'req/s'.padStart(9), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'non-2xx'.padStart(8), 'ratio'.padStart(7), '  aim'].join(' '));
  for (const { name, result, ratio, versus, aim } of rows) {
    console.log([
      name.padEnd(44),
      result.requestsPerSecond.toFixed(0).padStart(9),
      result.p50Ms.toFixed(1).padStart(8),
      result.p99Ms.toFixed(1).padStart(8),
      String(result.non2xx + result.errors).padStart(8),
      (ratio === undefined ? '' : ratio.toFixed(2)).padStart(7),
      aim ? `  ${aimText(aim)} ${versus ?? ''}` : '',
    ].join(' '));
    recordRows({
      path: name, unit: 'req/s', rate: result.requestsPerSecond, p50Ms: result.p50Ms, p99Ms: result.p99Ms,
      ...(ratio !== undefined && { ratio, versus: versus ?? 'bare read' }), ...(aim && { aim }), errors: result.non2xx + result.errors,
    });
  }
}

/** A failing request under load means the figures are meaningless: stop loudly. */
export function assertClean(name: string, result: LoadResult): void {
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${name}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
  }
}

/**
 * autocannon in a child process, one visitor token per connection; with `rotate`, each request
 * takes the next token instead (requests spread over every token's shopper, and site), and with
 * `bodies` the body of the same index.
 */
const PER_CONNECTION_TOKENS = `
import autocannon from ${JSON.stringify(AUTOCANNON)};
const cfg = JSON.parse(process.env.BENCH_CONFIG);
let next = 0;
const headers = (i) => ({ 'content-type': 'application/json', 'accept-encoding': cfg.encodings, authorization: cfg.tokens[i] });
const result = await autocannon({
  url: cfg.url, connections: cfg.connections, duration: cfg.seconds, method: cfg.method, body: cfg.body,
  setupClient(client) { client.setHeaders(headers(next++ % cfg.tokens.length)); },
  ...(cfg.rotate && { requests: [{ setupRequest(req) {
    const i = next++ % cfg.tokens.length;
    return { ...req, headers: headers(i), ...(cfg.bodies && { body: cfg.bodies[i] }) };
  } }] }),
});
process.stdout.write(JSON.stringify({ requestsPerSecond: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99,
  requests: result.requests.total, non2xx: result.non2xx, errors: result.errors }));
`;

/** POSTs body on one connection per token (repeat a token to share it: many connections, one shopper). */
export async function loadPerConnection(url: string, tokens: string[], body: unknown, seconds: number): Promise<LoadResult> {
  return loadWithTokens(url, tokens, { body, seconds, connections: tokens.length, method: 'POST', rotate: false });
}

/**
 * `connections` connections whose every request takes the next of `tokens` and, when given, the
 * body of the same index (a POST; a GET without bodies).
 */
export async function loadRotating(url: string, tokens: string[], options: { bodies?: unknown[]; seconds: number; connections: number }): Promise<LoadResult> {
  return loadWithTokens(url, tokens, { ...options, method: options.bodies ? 'POST' : 'GET', rotate: true });
}

async function loadWithTokens(url: string, tokens: string[], options: { body?: unknown; bodies?: unknown[]; seconds: number; connections: number; method: string; rotate: boolean }): Promise<LoadResult> {
  const { body, bodies, seconds, connections, method, rotate } = options;
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', PER_CONNECTION_TOKENS], {
      env: { ...process.env, BENCH_CONFIG: JSON.stringify({ url, tokens, body: body === undefined ? undefined : JSON.stringify(body), bodies: bodies?.map((b) => JSON.stringify(b)), connections, seconds, method, rotate, encodings: BROWSER_ENCODINGS }) },
      maxBuffer: 16 * 1024 * 1024,
    }, (error, out) => (error ? reject(error) : resolve(out)));
  });
  return JSON.parse(stdout) as LoadResult;
}

const MAIN = fileURLToPath(new URL('../packages/server/dist/main.js', import.meta.url));

export interface BuiltServer {
  url: string;
  /** What the server printed so far (stdout and stderr). */
  output(): string;
  /** The processes that serve (the workers; the one process when WORKERS=1). */
  servingPids(): number[];
  close(): Promise<void>;
}

/**
 * The built server (`packages/server/dist/main.js`, as in production) on DATABASE_URL with this
 * many WORKERS, rate limits off; resolves once every worker listens. Needs `npm run build`.
 */
export async function startBuiltServer(workers: number, extraEnv: NodeJS.ProcessEnv = {}): Promise<BuiltServer> {
  if (!fs.existsSync(MAIN)) throw new Error('the built server is missing: run `npm run build`');
  const port = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', WORKERS: String(workers), LOG_LEVEL: 'warn', RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_TOKEN: '0', ...extraEnv };
  // BENCH_SERVER_NODE_OPTIONS: V8 flags for the server alone (e.g. heap sizes, to weigh memory against speed).
  if (process.env.BENCH_SERVER_NODE_OPTIONS) env.NODE_OPTIONS = process.env.BENCH_SERVER_NODE_OPTIONS;
  const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pids = () => (workers === 1 ? (child.pid ? [child.pid] : []) : [...output.matchAll(/worker (\d+) is serving/g)].map((m) => Number(m[1])));
  const deadline = Date.now() + 60_000;
  while ((workers === 1 ? !output.includes('Bodega is serving') : pids().length < workers)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the built server did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    servingPids: pids,
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

// ── CPU per request: the in-process server and its PostgreSQL backends (hardly moves with load) ──

/** The application_name the named server's connections carry, so their backends can be found. */
const NAMED_APPLICATION = `bodega-bench-${process.pid}`;

/** startServer whose PostgreSQL connections are named, for cpuPerRequest. */
export async function startNamedServer(): Promise<BenchServer> {
  const url = process.env.DATABASE_URL;
  if (!url) return startServer();
  process.env.DATABASE_URL = `${url}${url.includes('?') ? '&' : '?'}application_name=${NAMED_APPLICATION}`;
  try {
    return await startServer();
  } finally {
    process.env.DATABASE_URL = url;
  }
}

export interface CpuPerRequest {
  /** This process's user + system CPU per request, µs (the load generator runs in a child). */
  nodeUs: number;
  /** The named server's PostgreSQL backends' CPU per request, µs (0 on PGlite: it is in nodeUs). */
  pgUs: number;
}

/** Runs `run` and returns what it returned with the CPU it cost: this process's and the named server's PostgreSQL backends' (ms). */
export async function measureCpu<T>(server: BenchServer, run: () => Promise<T>): Promise<{ result: T; nodeMs: number; pgMs: number }> {
  const backendMs = async () => {
    if (server.db.kind !== 'postgres') return 0;
    const rows = await server.db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [NAMED_APPLICATION]);
    let seconds = 0;
    for (const { pid } of rows) {
      try {
        seconds += cpuSecondsOf(pid);
      } catch {
        // A backend on another machine, or gone: not counted.
      }
    }
    return seconds * 1000;
  };
  const pgBefore = await backendMs();
  const before = process.cpuUsage();
  const result = await run();
  const used = process.cpuUsage(before);
  const pgMs = (await backendMs()) - pgBefore;
  return { result, nodeMs: (used.user + used.system) / 1000, pgMs };
}

/** Runs one load and returns its figures with the CPU each request cost (startNamedServer's server). */
export async function withCpu(server: BenchServer, run: () => Promise<LoadResult>): Promise<LoadResult & { cpu: CpuPerRequest }> {
  const { result, nodeMs, pgMs } = await measureCpu(server, run);
  const requests = Math.max(1, result.requests);
  return { ...result, cpu: { nodeUs: Math.round((nodeMs * 1000) / requests), pgUs: Math.round((pgMs * 1000) / requests) } };
}

export function cpuText(cpu: CpuPerRequest): string {
  return `${cpu.nodeUs + cpu.pgUs} µs (node ${cpu.nodeUs} + PostgreSQL ${cpu.pgUs})`;
}
