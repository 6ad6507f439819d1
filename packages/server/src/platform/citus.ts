import type { DbContext } from './context.js';
import type { Db, Queryable } from './db.js';

/**
 * Scale-out on Citus: when the database has the `citus` extension, every table with a `site_id`
 * column is distributed by it (all colocated, so one store's rows live on one worker and a join
 * of two of its tables stays on that worker), and the few tables looked up across stores are
 * reference tables (a copy on every node). Plain PostgreSQL and PGlite skip all of this.
 */

/** Tables read without a site id (a domain, a client id, the site list), copied to every node. */
export const REFERENCE_TABLES = ['sites', 'oauth_clients', 'site_domains'] as const;
/** Tables that stay on the coordinator alone. */
export const COORDINATOR_TABLES = ['schema_migrations'] as const;
/** The distribution column and the table every distributed table is colocated with. */
export const DISTRIBUTION_COLUMN = 'site_id';
const COLOCATION_ANCHOR = 'members';
const NOTIFY_TRIGGERS = ['members_access_changed', 'members_access_deleted'];
/**
 * Functions whose every statement reads and writes one site's rows, distributed by that site
 * argument and colocated with the site tables: Citus then sends a call made outside a transaction
 * block to the worker holding the site as ONE command, and its statements run there on the local
 * shards (instead of the coordinator running the function and sending each statement over). With
 * `force_delegation` a call inside a transaction block goes to the worker too (the transaction's
 * other statements name the same site, so they stay on that worker): run on the coordinator, its
 * inserts drew the coordinator's seq for the outbox event, which then sorted before the site's
 * earlier events (platform/citus-routing.test.ts).
 */
export const DISTRIBUTED_FUNCTIONS = [
  { signature: 'cart_add_lines(text, text, text, text, text, text, timestamptz, jsonb, text, jsonb)', argument: 'p_site' },
] as const;

/** Whether the Citus extension is installed: the one question every caller asks (migrations, workers, backup). */
export async function hasCitus(db: Pick<Queryable, 'query'>): Promise<boolean> {
  const rows = await db.query<{ ok: number }>(`SELECT 1 AS ok FROM pg_extension WHERE extname = 'citus'`);
  return rows.length > 0;
}

const citusOf = new WeakMap<Queryable, Promise<boolean>>();

/**
 * Whether the database behind `ctx` is Citus, asked once per handle (PGlite never is). Workers
 * that claim rows of many sites use it to choose their statements: one claim across sites on
 * plain PostgreSQL, one per site on Citus (a row lock cannot span shards there).
 */
export function isCitus(ctx: DbContext): Promise<boolean> {
  const handle = ctx.db;
  let known = citusOf.get(handle);
  if (!known) {
    known = 'kind' in handle && (handle as Db).kind === 'pglite' ? Promise.resolve(false) : hasCitus(handle);
    // A failed look is asked again next time rather than remembered.
    known.catch(() => citusOf.delete(handle));
    citusOf.set(handle, known);
  }
  return known;
}

export interface TablePlan {
  readonly name: string;
  readonly kind: 'reference' | 'distributed' | 'coordinator';
}

/**
 * What each table in `public` should be on Citus (any database can answer: it reads only the
 * catalog). A table with neither a `site_id` nor a place in the lists above is an error: it would
 * stay on the coordinator unnoticed.
 */
export async function distributionPlan(db: Queryable): Promise<TablePlan[]> {
  const rows = await db.query<{ name: string; has_site: boolean }>(`
    SELECT c.relname AS name,
           EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = $1 AND NOT a.attisdropped) AS has_site
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
     ORDER BY c.relname`, [DISTRIBUTION_COLUMN]);
  return rows.map((row): TablePlan => {
    if ((COORDINATOR_TABLES as readonly string[]).includes(row.name)) return { name: row.name, kind: 'coordinator' };
    if ((REFERENCE_TABLES as readonly string[]).includes(row.name)) return { name: row.name, kind: 'reference' };
    if (row.has_site) return { name: row.name, kind: 'distributed' };
    throw new Error(`citus: table ${row.name} has no ${DISTRIBUTION_COLUMN} and is neither a reference nor a coordinator table (platform/citus.ts)`);
  });
}

/** The tables of the plan that Citus does not yet hold as planned (Citus databases only). */
export async function pendingDistribution(db: Queryable): Promise<TablePlan[]> {
  const plan = await distributionPlan(db);
  const state = await db.query<{ name: string; method: string; repmodel: string }>(
    `SELECT logicalrelid::regclass::text AS name, partmethod::text AS method, repmodel::text AS repmodel FROM pg_dist_partition`);
  const held = new Map(state.map((row) => [row.name, row]));
  return plan.filter((table) => {
    const now = held.get(table.name);
    // partmethod 'h' is hash-distributed; 'n' with replication model 't' a reference table ('n' with 's' a Citus local one).
    if (table.kind === 'distributed') return now?.method !== 'h';
    if (table.kind === 'reference') return !(now?.method === 'n' && now.repmodel === 't');
    return false;
  });
}

/**
 * Distributes what is pending, inside the migration's transaction. Foreign keys are dropped first
 * and put back after: Citus turns a plain table that references a new reference table into a
 * coordinator-local one, and refuses to distribute a table that a plain one references.
 */
export async function distributeTables(tx: Queryable): Promise<string[]> {
  await databaseSettings(tx);
  const plan = await pendingDistribution(tx);
  if (plan.length > 0) await distributePlan(tx, plan);
  await distributeFunctions(tx);
  return plan.map((t) => t.name);
}

async function distributePlan(tx: Queryable, plan: TablePlan[]): Promise<void> {
  const names = plan.map((t) => t.name);
  const keys = await tx.query<{ table_name: string; name: string; definition: string }>(`
    SELECT conrelid::regclass::text AS table_name, conname AS name, pg_get_constraintdef(oid) AS definition
      FROM pg_constraint
     WHERE contype = 'f' AND connamespace = 'public'::regnamespace
       AND (conrelid::regclass::text = ANY($1) OR confrelid::regclass::text = ANY($1))
     ORDER BY conrelid::regclass::text, conname`, [names]);
  for (const key of keys) await tx.query(`ALTER TABLE ${quoteIdent(key.table_name)} DROP CONSTRAINT ${quoteIdent(key.name)}`);
  for (const table of plan.filter((t) => t.kind === 'reference')) {
    await tx.query('SELECT create_reference_table($1)', [table.name]);
  }
  const distributed = plan.filter((t) => t.kind === 'distributed');
  // The anchor first, so every other table can be colocated with it.
  distributed.sort((a, b) => Number(b.name === COLOCATION_ANCHOR) - Number(a.name === COLOCATION_ANCHOR));
  for (const table of distributed) {
    const colocateWith = table.name === COLOCATION_ANCHOR ? 'default' : COLOCATION_ANCHOR;
    await tx.query('SELECT create_distributed_table($1, $2, colocate_with => $3)', [table.name, DISTRIBUTION_COLUMN, colocateWith]);
  }
  for (const key of keys) await tx.query(`ALTER TABLE ${quoteIdent(key.table_name)} ADD CONSTRAINT ${quoteIdent(key.name)} ${key.definition}`);
  // The members trigger's NOTIFY would run on a worker, where no server listens, and a worker
  // cannot PREPARE (two-phase commit) a transaction that notified: servers on Citus do not listen
  // (app.ts) and bound the access cache by its age instead.
  for (const trigger of NOTIFY_TRIGGERS) await tx.query(`DROP TRIGGER IF EXISTS ${trigger} ON members`);
}

/** The functions of DISTRIBUTED_FUNCTIONS that Citus does not yet hold as distributed by their site argument. */
export async function pendingFunctions(db: Queryable): Promise<string[]> {
  const pending: string[] = [];
  for (const fn of DISTRIBUTED_FUNCTIONS) {
    const rows = await db.query<{ ok: number }>(
      `SELECT 1 AS ok FROM pg_dist_object WHERE classid = 'pg_proc'::regclass AND objid = $1::regprocedure AND distribution_argument_index IS NOT NULL
         AND force_delegation`,
      [fn.signature]);
    if (rows.length === 0) pending.push(fn.signature);
  }
  return pending;
}

async function distributeFunctions(tx: Queryable): Promise<void> {
  for (const signature of await pendingFunctions(tx)) {
    const fn = DISTRIBUTED_FUNCTIONS.find((f) => f.signature === signature);
    if (fn) await tx.query('SELECT create_distributed_function($1, $2, colocate_with => $3, force_delegation => true)', [fn.signature, fn.argument, COLOCATION_ANCHOR]);
  }
}

/**
 * The database's Citus settings, set on every migration (a new one reaches databases distributed
 * before it). Sessions opened before keep their old defaults: a server restarts once after.
 */
async function databaseSettings(tx: Queryable): Promise<void> {
  // A statement routed to a shard may call a function whose query reads the same site's rows
  // (the search index triggers): on the worker that is a distributed
  // query inside a shard's, which Citus allows only with this. Every table is colocated by site, so
  // such a query reads the local shard in the same transaction. (Sessions opened before this keep
  // their old default: a server should restart once after the first distribution.)
  const [{ name }] = await tx.query<{ name: string }>('SELECT current_database() AS name');
  await tx.query(`ALTER DATABASE ${quoteIdent(name)} SET citus.allow_nested_distributed_execution = on`);
  // A transaction's SET LOCAL (the search's trigram thresholds) reaches the workers its queries run on.
  await tx.query(`ALTER DATABASE ${quoteIdent(name)} SET citus.propagate_set_commands = 'local'`);
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * A claim on Citus, where FOR UPDATE cannot cross shards: `claimOne(siteId, room)` site by site, the
 * sites with the oldest work first, until `limit` rows are taken.
 */
export async function sitesInTurn<T>(sites: readonly string[], limit: number, claimOne: (siteId: string, room: number) => Promise<T[]>): Promise<T[]> {
  const taken: T[] = [];
  for (const siteId of sites) {
    if (taken.length >= limit) break;
    taken.push(...await claimOne(siteId, limit - taken.length));
  }
  return taken;
}
