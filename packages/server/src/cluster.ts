import cluster, { type Worker } from 'node:cluster';
import os from 'node:os';
import { ConfigError } from './platform/config.js';

/** Set in the first worker's environment: it seeds the demo store (one process must, not all). */
export const FIRST_WORKER_ENV = 'BODEGA_FIRST_WORKER';
const MAX_WORKERS = 64;

/**
 * WORKERS: how many server processes share the port. Default: one per core on PostgreSQL, one on
 * the embedded database, which a single process owns (so more is refused there).
 */
export function workerCount(env: NodeJS.ProcessEnv, onPostgres: boolean): number {
  const raw = env.WORKERS?.trim();
  if (raw === undefined || raw === '') return onPostgres ? os.availableParallelism() : 1;
  if (!/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_WORKERS) {
    throw new ConfigError(`WORKERS must be a whole number from 1 to ${MAX_WORKERS} (got "${env.WORKERS}")`);
  }
  const n = Number(raw);
  if (n > 1 && !onPostgres) throw new ConfigError('WORKERS above 1 needs DATABASE_URL: the embedded database belongs to one process');
  return n;
}

/**
 * V8's old-generation cap for each worker, in MB, unless the operator set one (NODE_OPTIONS or the
 * primary's own flags). A worker's live heap is ~30 MB, but left to its defaults V8 lets the heap
 * grow under load until a worker's RSS passes 200 MB before it collects (measured with
 * `npm run bench -- memory`: 183–211 MB peak, 151–160 MB with the cap). Well above what any one
 * request needs.
 */
export const WORKER_MAX_OLD_SPACE_MB = 256;
/**
 * The young generation's semi-space, V8's 64-bit default, given with the cap because a cap alone
 * also shrinks the young generation (more scavenges: measured as more CPU per request).
 */
export const WORKER_MAX_SEMI_SPACE_MB = 16;

/** The node flags a worker starts with: the primary's, plus the heap sizes the operator did not give. */
export function workerExecArgv(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  const flags = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)];
  const given = (name: string) => flags.some((flag) => new RegExp(`^--${name.replace(/-/g, '[-_]')}\\b`).test(flag));
  if (given('max-old-space-size')) return [...execArgv];
  return [...execArgv, `--max-old-space-size=${WORKER_MAX_OLD_SPACE_MB}`, ...(given('max-semi-space-size') ? [] : [`--max-semi-space-size=${WORKER_MAX_SEMI_SPACE_MB}`])];
}

export interface PrimaryOptions {
  workers: number;
  /** The worker's entry point (the built main.js), whatever script started the primary. */
  exec: string;
  log(line: string): void;
}

/**
 * The primary process: forks the workers (the first alone, so it migrates and seeds before the
 * others start), replaces a worker that dies, and on SIGTERM/SIGINT asks every worker to drain
 * (each finishes its requests and exits 0), then exits 0 — or 1 if a worker failed to stop cleanly.
 */
export function runPrimary(options: PrimaryOptions): void {
  cluster.setupPrimary({ exec: options.exec, execArgv: workerExecArgv(process.execArgv, process.env.NODE_OPTIONS) });
  let stopping = false;
  let stoppedCleanly = true;
  let quickDeaths = 0;
  let everListened = false;
  const started = new Map<number, number>();
  const listening = new Set<number>();

  const fork = (first: boolean): Worker => {
    const worker = cluster.fork(first ? { [FIRST_WORKER_ENV]: '1' } : {});
    started.set(worker.id, Date.now());
    worker.once('listening', () => {
      listening.add(worker.id);
      options.log(`bodega: worker ${worker.process.pid} is serving`);
      if (first && !stopping) for (let i = 1; i < options.workers; i++) fork(false);
    });
    return worker;
  };

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (started.get(worker.id) ?? 0);
    started.delete(worker.id);
    const served = listening.delete(worker.id);
    if (stopping) {
      // A worker still starting dies of the SIGTERM itself; it had accepted nothing, so that is clean.
      if (code !== 0 && (served || signal !== 'SIGTERM')) stoppedCleanly = false;
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(stoppedCleanly ? 0 : 1);
      return;
    }
    // The first worker died before any listened: it could not start (its one line says why, e.g.
    // the database is down), and the others would not either; a supervisor restarts the whole.
    if (!everListened) process.exit(code || 1);
    // A crash after start is replaced, at once unless workers keep dying young.
    quickDeaths = lived < 10_000 ? quickDeaths + 1 : 0;
    const delay = quickDeaths > 1 ? Math.min(30_000, 250 * 2 ** quickDeaths) : 0;
    options.log(`bodega: worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another${delay ? ` in ${delay} ms` : ''}`);
    setTimeout(() => {
      if (!stopping) fork(false);
    }, delay);
  });
  cluster.on('listening', () => {
    everListened = true;
  });

  const stop = () => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(0);
    for (const worker of workers) worker?.process.kill('SIGTERM');
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  fork(true);
}
