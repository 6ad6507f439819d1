import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { hasCitus } from './citus.js';
import { lockDataDir, type Db, type Row, type Sql } from './db.js';
import { PRIVATE_FILE, tighten, writePrivateFile } from './files.js';

/**
 * Backups: on the embedded database a gzipped tarball of the data directory (PGlite's dump,
 * taken under its own lock, so consistent even while the server writes); on PostgreSQL
 * pg_dump's custom format. A restore only ever goes into an empty directory or database.
 */
export class BackupError extends Error {}

const run = promisify(execFile);
const REQUEST_FILE = 'backup-request.json';
const PG_MAGIC = 'PGDMP';

interface BackupRequest {
  id: string;
  out: string;
}

/** Writes to a temporary name first so a half-written backup never looks like a good one. */
function writeAtomically(file: string, data: Buffer): void {
  const temp = `${file}.${process.pid}.partial`;
  // 0600: a backup holds what DATA_DIR holds (password hashes, encrypted secrets).
  writePrivateFile(temp, data);
  fs.renameSync(temp, file);
}

async function dumpPglite(db: Db, out: string): Promise<void> {
  if (!db.dump) throw new BackupError('This database cannot be dumped');
  const tar = Buffer.from(await (await db.dump()).arrayBuffer());
  writeAtomically(out, zlib.gzipSync(tar));
}

/**
 * The running server answers backup requests for its embedded database: the CLI writes a
 * request file into DATA_DIR and sends SIGUSR2 to the pid in the lock file. Only a process
 * that may signal the server and write its directory can ask, so there is no network surface.
 */
export function serveBackupRequests(db: Db, dataDir: string): () => void {
  const onSignal = () => {
    const requestPath = path.join(dataDir, REQUEST_FILE);
    let request: BackupRequest;
    try {
      request = JSON.parse(fs.readFileSync(requestPath, 'utf8')) as BackupRequest;
      fs.rmSync(requestPath, { force: true });
    } catch {
      return;
    }
    const done = path.join(dataDir, `backup-${request.id}.done`);
    dumpPglite(db, request.out).then(
      () => writePrivateFile(done, 'ok'),
      (error: unknown) => writePrivateFile(done, error instanceof Error ? error.message : String(error)),
    );
  };
  process.on('SIGUSR2', onSignal);
  return () => process.off('SIGUSR2', onSignal);
}

function runningServerPid(dataDir: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(path.join(dataDir, 'bodega.lock'), 'utf8'));
    if (!pid || pid === process.pid) return undefined;
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

export interface BackupTarget {
  databaseUrl?: string;
  dataDir: string;
}

export async function backup(target: BackupTarget, out: string, deadlineMs = 300_000): Promise<void> {
  const file = path.resolve(out);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (target.databaseUrl) return pgDump(target.databaseUrl, file);
  if (!fs.existsSync(path.join(target.dataDir, 'pgdata'))) throw new BackupError(`There is no embedded database in ${target.dataDir}`);
  const pid = runningServerPid(target.dataDir);
  if (pid === undefined) {
    const release = lockDataDir(target.dataDir);
    const db = await PGlite.create(path.join(target.dataDir, 'pgdata'));
    try {
      const tar = Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer());
      writeAtomically(file, zlib.gzipSync(tar));
    } finally {
      await db.close();
      tighten(target.dataDir); // PGlite rewrites pg_internal.init 0644 (see files.ts)
      release();
    }
    return;
  }
  const id = randomUUID();
  const done = path.join(target.dataDir, `backup-${id}.done`);
  writePrivateFile(path.join(target.dataDir, REQUEST_FILE), JSON.stringify({ id, out: file } satisfies BackupRequest));
  process.kill(pid, 'SIGUSR2');
  const until = Date.now() + deadlineMs;
  while (!fs.existsSync(done)) {
    if (Date.now() > until) throw new BackupError(`The running server (pid ${pid}) did not write the backup in time`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const outcome = fs.readFileSync(done, 'utf8');
  fs.rmSync(done, { force: true });
  if (outcome !== 'ok') throw new BackupError(`The running server could not write the backup: ${outcome}`);
}

export async function restore(target: BackupTarget, from: string): Promise<void> {
  const file = path.resolve(from);
  if (!fs.existsSync(file)) throw new BackupError(`No backup at ${file}`);
  const data = fs.readFileSync(file);
  const isPg = data.subarray(0, PG_MAGIC.length).toString('latin1') === PG_MAGIC;
  if (target.databaseUrl) {
    if (!isPg) throw new BackupError('This backup is of an embedded database; restore it without DATABASE_URL (into DATA_DIR)');
    return pgRestore(target.databaseUrl, file);
  }
  if (isPg) throw new BackupError('This backup is of a PostgreSQL database; restore it with DATABASE_URL set to an empty database');
  let tar: Buffer;
  try {
    tar = zlib.gunzipSync(data);
  } catch {
    throw new BackupError(`${file} is not a Bodega backup`);
  }
  const pgdata = path.join(target.dataDir, 'pgdata');
  if (fs.existsSync(pgdata) && fs.readdirSync(pgdata).length > 0) {
    throw new BackupError(`${target.dataDir} already holds a database; restore into an empty DATA_DIR`);
  }
  const release = lockDataDir(target.dataDir);
  try {
    const db = await PGlite.create(pgdata, { loadDataDir: new Blob([tar]) });
    await db.query('SELECT count(*) FROM schema_migrations');
    await db.close();
    tighten(target.dataDir);
  } finally {
    release();
  }
}

/** pg_dump/pg_restore on PATH, else the newest of Debian's /usr/lib/postgresql/N/bin (PG_BIN wins). */
export function findPgTool(name: 'pg_dump' | 'pg_restore', env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dirs = [env.PG_BIN, ...(env.PATH ?? '').split(path.delimiter)];
  const debian = '/usr/lib/postgresql';
  if (fs.existsSync(debian)) {
    const versions = fs.readdirSync(debian).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    dirs.push(...versions.map((v) => path.join(debian, v, 'bin')));
  }
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    if (fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

function pgTool(name: 'pg_dump' | 'pg_restore'): string {
  const tool = findPgTool(name);
  if (!tool) throw new BackupError(`${name} is not installed; install the PostgreSQL client tools (Debian: apt-get install postgresql-client) or set PG_BIN`);
  return tool;
}

/**
 * A Citus coordinator holds its stores' rows on the workers: one pg_dump of it is not a backup
 * of the cluster, and its restore cannot rebuild the shards. Refused in words instead.
 */
export const CITUS_BACKUP_REFUSAL = 'This database is a Citus coordinator: bodega backup and restore work on one PostgreSQL database, '
  + 'not a cluster. Back up every node (coordinator and workers) with your Citus provider\'s tools or PostgreSQL\'s base backups (README, "Scale-out on Citus")';

/** Checks the target before pg_dump or pg_restore touches it, on one connection: a Citus coordinator is refused. */
async function checkTarget(databaseUrl: string, check?: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const citus = await hasCitus({
      query: async <T extends Row>(sql: Sql) => (await client.query<T>(typeof sql === 'string' ? sql : sql.text)).rows,
    });
    if (citus) throw new BackupError(CITUS_BACKUP_REFUSAL);
    await check?.(client);
  } finally {
    await client.end();
  }
}

async function pgDump(databaseUrl: string, out: string): Promise<void> {
  await checkTarget(databaseUrl);
  const temp = `${out}.${process.pid}.partial`;
  try {
    await run(pgTool('pg_dump'), ['--format=custom', '--no-owner', '--no-acl', `--file=${temp}`, `--dbname=${databaseUrl}`]);
    fs.chmodSync(temp, PRIVATE_FILE);
    fs.renameSync(temp, out);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw toolError('pg_dump', error);
  }
}

async function pgRestore(databaseUrl: string, file: string): Promise<void> {
  await checkTarget(databaseUrl, async (client) => {
    const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'");
    if (rows[0].n > 0) throw new BackupError('The target database is not empty; restore into a new, empty database');
  });
  try {
    await run(pgTool('pg_restore'), ['--no-owner', '--no-acl', '--exit-on-error', '--single-transaction', `--dbname=${databaseUrl}`, file]);
  } catch (error) {
    throw toolError('pg_restore', error);
  }
}

function toolError(tool: string, error: unknown): Error {
  if (error instanceof BackupError) return error;
  const stderr = (error as { stderr?: string }).stderr?.trim();
  return new BackupError(`${tool} failed: ${stderr || (error instanceof Error ? error.message : String(error))}`);
}
