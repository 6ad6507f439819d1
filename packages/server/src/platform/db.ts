import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { secureDataDir, tighten, writePrivateFile } from './files.js';

/** A row as the drivers return it after normalisation: int8 → number, numeric → string. */
export type Row = Record<string, unknown>;

/**
 * A static SQL text that the `pg` driver prepares once per connection (parsed and, after a few
 * runs, planned once) and then only binds and executes. Make one with `prepared()` at module
 * level; dynamic SQL stays a plain string.
 */
export interface Statement {
  readonly text: string;
  /** The server-side name; absent when the registry was full (then it runs as plain SQL). */
  readonly name?: string;
}

/** SQL text, or a prepared statement. */
export type Sql = string | Statement;

/**
 * Every connection may hold each registered statement once, so the registry bounds what the
 * server keeps per connection: past the bound a new text is not named (it still runs, unprepared).
 */
export const MAX_PREPARED_STATEMENTS = 256;
const registry = new Map<string, string>();

/** Names a static SQL text for preparation (the same text always gets the same name). */
export function prepared(text: string): Statement {
  const known = registry.get(text);
  if (known) return { text, name: known };
  if (registry.size >= MAX_PREPARED_STATEMENTS) return { text };
  const name = `bodega_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
  registry.set(text, name);
  return { text, name };
}

/** How many texts are named now (for the bound's test). */
export function preparedCount(): number {
  return registry.size;
}

function textOf(sql: Sql): string {
  return typeof sql === 'string' ? sql : sql.text;
}

export interface Queryable {
  query<T extends Row = Row>(sql: Sql, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction; commits when it resolves, rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** PGlite only: the whole database as a tarball, for test snapshots. */
  dump?(): Promise<Blob>;
  /** PostgreSQL only: the pool's connections, for /metrics. */
  poolStats?(): { total: number; idle: number; waiting: number };
  /**
   * Hears `NOTIFY` on a channel (absent behind a transaction pooler without a direct URL, where a
   * session cannot LISTEN). `onState(false)` says notices may be missed from now on (the listening
   * connection is lost; it is opened again), `onState(true)` that they are heard again. Resolves
   * once listening; the returned function stops.
   */
  listen?(channel: string, onNotice: (payload: string) => void, onState: (live: boolean) => void): Promise<() => Promise<void>>;
}

export class DbLockedError extends Error {}

/** PostgreSQL's unique_violation (23505) from pg or PGlite, optionally of one index or constraint. */
export function isUniqueViolation(error: unknown, index?: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; constraint?: unknown; message?: unknown };
  if (e.code !== '23505') return false;
  if (!index) return true;
  return e.constraint === index || (typeof e.message === 'string' && e.message.includes(index));
}

/**
 * Citus relays some errors a worker raised (e.g. in an INSERT … SELECT it ran through the
 * coordinator) as XX000 with the worker's sentence: the usual code and constraint are put back from
 * that sentence, the shard's suffix taken off the constraint's name.
 */
const WORKER_ERRORS: readonly [RegExp, string][] = [
  [/^duplicate key value violates unique constraint "(.+?)(?:_\d+)?"/, '23505'],
  [/^new row for relation ".+?" violates check constraint "(.+?)(?:_\d+)?"/, '23514'],
  [/^null value in column ".+?" of relation ".+?" violates not-null constraint/, '23502'],
  [/^index row requires \d+ bytes, maximum size is \d+/, '54000'],
  [/^value too long for type/, '22001'],
];

export function rethrowWorkerError(error: unknown): never {
  const e = error as { code?: unknown; message?: unknown; constraint?: unknown };
  if (e && e.code === 'XX000' && typeof e.message === 'string') {
    for (const [pattern, code] of WORKER_ERRORS) {
      const match = pattern.exec(e.message);
      if (!match) continue;
      e.code = code;
      if (match[1]) e.constraint = match[1];
      break;
    }
  }
  throw error;
}

const INT8 = 20;
const NUMERIC = 1700;

/**
 * int8 becomes a number when it is a safe integer; larger values would lose precision, so they
 * stay decimal strings (money never travels as int8 anyway). numeric always stays a string.
 */
function parseInt8(text: string): number | string {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
}

export interface OpenDbOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** An in-memory PGlite (tests), optionally started from a dump. */
  memory?: boolean;
  snapshot?: Blob;
  /**
   * `transaction`: a transaction pooler (PgBouncer) sits in front, so nothing may live in a
   * session: prepared statements run as plain SQL.
   */
  pooler?: 'none' | 'transaction';
  /** A connection that bypasses the pooler (DATABASE_DIRECT_URL): where LISTEN goes behind one. */
  directUrl?: string;
}

export async function openDb(options: OpenDbOptions): Promise<Db> {
  if (options.databaseUrl) {
    const pooled = options.pooler === 'transaction';
    return openPostgres(options.databaseUrl, !pooled, pooled ? options.directUrl : options.databaseUrl);
  }
  if (options.memory) return openPglite(undefined, options.snapshot);
  if (!options.dataDir) throw new Error('openDb needs a databaseUrl, a dataDir or memory');
  return openPglite(options.dataDir);
}

async function openPostgres(databaseUrl: string, prepare: boolean, listenUrl: string | undefined): Promise<Db> {
  const types = {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === INT8) return parseInt8;
      if (oid === NUMERIC) return (text: string) => text;
      return pg.types.getTypeParser(oid, format) as (text: string) => unknown;
    },
  };
  const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(process.env.DATABASE_POOL_SIZE ?? 10), types });
  pool.on('error', () => {
    /* an idle client died (server restart); the pool replaces it on next use */
  });
  await pool.query('SELECT 1');
  // pg prepares a named query on a connection the first time it runs there, then only binds it.
  const config = (sql: Sql, params: readonly unknown[]): pg.QueryConfig =>
    typeof sql === 'string' || !prepare || !sql.name
      ? { text: textOf(sql), values: params as unknown[] }
      : { name: sql.name, text: sql.text, values: params as unknown[] };
  return {
    kind: 'postgres',
    async query<T extends Row>(sql: Sql, params: readonly unknown[] = []) {
      const result = await pool.query(config(sql, params)).catch(rethrowWorkerError);
      return result.rows as T[];
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const tx: Queryable = {
          async query<R extends Row>(sql: Sql, params: readonly unknown[] = []) {
            return (await client.query(config(sql, params)).catch(rethrowWorkerError)).rows as R[];
          },
          async exec(sql: string) {
            await client.query(sql);
          },
        };
        const value = await fn(tx);
        await client.query('COMMIT');
        return value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
    poolStats() {
      return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
    },
    ...(listenUrl !== undefined && { listen: (channel, onNotice, onState) => listenPostgres(listenUrl, channel, onNotice, onState) }),
  };
}

/** How long a lost listening connection waits before it is opened again. */
const RELISTEN_DELAY_MS = 1000;

/**
 * LISTEN on a connection of its own (a pooled one goes back to the pool between queries). When
 * it fails (or cannot be opened), `onState(false)` and a new one after a second, until stopped.
 */
async function listenPostgres(
  url: string, channel: string, onNotice: (payload: string) => void, onState: (live: boolean) => void,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url, keepAlive: true });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      next.removeAllListeners('notification');
      void next.end().catch(() => undefined);
      if (client === next) client = undefined;
      if (stopped) return;
      onState(false);
      retry = setTimeout(() => void connect(), RELISTEN_DELAY_MS);
      retry.unref();
    };
    next.on('error', onLost);
    next.on('end', onLost);
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) onNotice(message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${next.escapeIdentifier(channel)}`);
    } catch {
      onLost();
      return;
    }
    if (stopped) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    onState(true);
  };
  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const last = client;
    client = undefined;
    await last?.end().catch(() => undefined);
  };
}

async function openPglite(dataDir: string | undefined, snapshot?: Blob): Promise<Db> {
  const release = dataDir ? lockDataDir(dataDir) : () => undefined;
  let db: PGlite;
  let embedded: typeof import('@electric-sql/pglite');
  try {
    if (dataDir) await createCluster(path.join(dataDir, 'pgdata'));
    // Loaded only here: a server on PostgreSQL (each of its workers) never carries the embedded one.
    embedded = await import('@electric-sql/pglite');
    // The catalog search's extensions (migration 0880); on PostgreSQL they are contrib modules.
    const [{ pg_trgm }, { unaccent }, { btree_gin }] = await Promise.all([
      import('@electric-sql/pglite/contrib/pg_trgm'),
      import('@electric-sql/pglite/contrib/unaccent'),
      import('@electric-sql/pglite/contrib/btree_gin'),
    ]);
    db = await embedded.PGlite.create(dataDir ? path.join(dataDir, 'pgdata') : undefined, {
      parsers: { [INT8]: parseInt8, [NUMERIC]: (text: string) => text },
      loadDataDir: snapshot,
      extensions: { pg_trgm, unaccent, btree_gin },
    });
    // The files of a cluster PGlite just created are 0666 (see files.ts).
    if (dataDir) tighten(dataDir);
  } catch (error) {
    release();
    throw error;
  }
  const named = namedStatements(db, embedded);
  return {
    kind: 'pglite',
    // PGlite runs plain queries under its transaction mutex, so they never interleave with an open transaction.
    async query<T extends Row>(sql: Sql, params: readonly unknown[] = []) {
      if (typeof sql === 'string' || !sql.name) return (await db.query<T>(textOf(sql), params as unknown[])).rows;
      const { name, text } = sql;
      return db._runExclusiveTransaction(() => db._runExclusiveQuery(() => named.run<T>(name, text, params, false)));
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      return db.transaction(async (t) => {
        const tx: Queryable = {
          async query<R extends Row>(sql: Sql, params: readonly unknown[] = []) {
            if (typeof sql === 'string' || !sql.name) return (await t.query<R>(textOf(sql), params as unknown[])).rows;
            const { name, text } = sql;
            return db._runExclusiveQuery(() => named.run<R>(name, text, params, true));
          },
          async exec(sql: string) {
            await t.exec(sql);
          },
        };
        return fn(tx);
      });
    },
    async close() {
      await db.close();
      // PGlite also writes its relation cache files (pg_internal.init) 0644 whatever the umask.
      if (dataDir) tighten(dataDir);
      release();
    },
    async dump() {
      return db.dumpDataDir('none');
    },
    // One process holds the embedded database, so its notices are always heard.
    async listen(channel, onNotice, onState) {
      const stop = await db.listen(channel, onNotice);
      onState(true);
      // Nothing to stop once the database is closed (unlisten would wait for it for ever).
      return async () => {
        if (!db.closed) await stop();
      };
    },
  };
}

/**
 * A new data directory's cluster is created (initdb) in a child process: PGlite runs initdb in a
 * second WASM instance whose memory this process would keep (measured: 920 MB RSS after creating
 * a cluster in-process, 365 MB after opening an existing one).
 */
async function createCluster(pgdata: string): Promise<void> {
  if (fs.existsSync(path.join(pgdata, 'PG_VERSION'))) return;
  const script = 'const { PGlite } = require(process.env.BODEGA_PGLITE); PGlite.create(process.env.BODEGA_PGDATA).then((db) => db.close())'
    + '.catch((error) => { console.error(error); process.exit(1); });';
  const env = { ...process.env, BODEGA_PGLITE: createRequire(import.meta.url).resolve('@electric-sql/pglite'), BODEGA_PGDATA: pgdata };
  await new Promise<void>((resolve, reject) => {
    execFile(process.execPath, ['-e', script], { env }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`Could not create the embedded database in ${pgdata}: ${stderr || error.message}`));
      else resolve();
    });
  });
}

/**
 * Named statements on PGlite, as the pg driver has them: PGlite's query() sends Parse, Describe,
 * Bind, Describe, Execute and Sync as five calls into PostgreSQL and plans every call anew (the
 * unnamed statement). A named statement is parsed once per database, then each call is one call
 * (Bind, Describe, Execute, Sync) and PostgreSQL's plan cache keeps its plan. Values and rows go
 * through PGlite's own serializers and parsers, so results are exactly query()'s. The caller holds
 * PGlite's mutexes (query() takes the same ones).
 */
function namedStatements(db: PGlite, embedded: typeof import('@electric-sql/pglite')) {
  const wire = embedded.protocol.serialize;
  const { parseDescribeStatementResults, parseResults } = embedded.parse;
  /** Each parsed statement's parameter types (what Describe answered), by name. */
  const parsed = new Map<string, number[]>();
  return {
    async run<T extends Row>(name: string, text: string, params: readonly unknown[], inTransaction: boolean): Promise<T[]> {
      if (db.closed) throw new Error('The embedded database is closed');
      let types = parsed.get(name);
      if (!types) {
        const described = await db.execProtocolStream(concat([wire.parse({ name, text }), wire.describe({ type: 'S', name }), wire.sync()]), { syncToFs: false });
        types = parseDescribeStatementResults(described);
        parsed.set(name, types);
      }
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serialize = db.serializers[types[i]];
        return serialize ? serialize(value) : String(value);
      });
      const messages = await db.execProtocolStream(
        concat([wire.bind({ statement: name, values }), wire.describe({ type: 'P' }), wire.execute({}), wire.sync()]),
        { syncToFs: !inTransaction },
      );
      return parseResults(messages, db.parsers)[0].rows as T[];
    },
  };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * PGlite takes no lock of its own: two processes on one directory corrupt it. A lock file
 * holding our pid refuses a second process; a lock left by a dead process is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  secureDataDir(dataDir);
  const lockPath = path.join(dataDir, 'bodega.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writePrivateFile(lockPath, String(process.pid), 'wx');
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(fs.readFileSync(lockPath, 'utf8'));
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new DbLockedError(
          `The embedded database in ${dataDir} is in use by another Bodega process (pid ${holder}); stop it, or set DATA_DIR or DATABASE_URL`,
        );
      }
      if (holder === process.pid) {
        throw new DbLockedError(`The embedded database in ${dataDir} is already open in this process`);
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DbLockedError(`Could not lock the embedded database in ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
