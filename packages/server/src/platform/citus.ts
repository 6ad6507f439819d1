import type { Queryable } from './db.js';

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

export async function hasCitus(db: Queryable): Promise<boolean> {
  const rows = await db.query<{ ok: number }>(`SELECT 1 AS ok FROM pg_extension WHERE extname = 'citus'`);
  return rows.length > 0;
}

interface TablePlan {
  readonly name: string;
  readonly kind: 'reference' | 'distributed';
}

/**
 * What this database still needs: tables in `public` that are not yet what they should be. A table
 * with neither a `site_id` nor a place in the lists above is an error: it would stay on the
 * coordinator unnoticed.
 */
export async function pendingDistribution(db: Queryable): Promise<TablePlan[]> {
  const rows = await db.query<{ name: string; has_site: boolean; method: string | null; repmodel: string | null }>(`
    SELECT c.relname AS name,
           EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = $1 AND NOT a.attisdropped) AS has_site,
           p.partmethod::text AS method, p.repmodel::text AS repmodel
      FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_dist_partition p ON p.logicalrelid = c.oid
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
     ORDER BY c.relname`, [DISTRIBUTION_COLUMN]);
  const plan: TablePlan[] = [];
  for (const row of rows) {
    if ((COORDINATOR_TABLES as readonly string[]).includes(row.name)) continue;
    if ((REFERENCE_TABLES as readonly string[]).includes(row.name)) {
      // partmethod 'n' with replication model 't' is a reference table; 'n' with 's' a Citus local one.
      if (!(row.method === 'n' && row.repmodel === 't')) plan.push({ name: row.name, kind: 'reference' });
    } else if (row.has_site) {
      if (row.method !== 'h') plan.push({ name: row.name, kind: 'distributed' });
    } else {
      throw new Error(`citus: table ${row.name} has no ${DISTRIBUTION_COLUMN} and is neither a reference nor a coordinator table (platform/citus.ts)`);
    }
  }
  return plan;
}

/**
 * Distributes what is pending, inside the migration's transaction. Foreign keys are dropped first
 * and put back after: Citus turns a plain table that references a new reference table into a
 * coordinator-local one, and refuses to distribute a table that a plain one references.
 */
export async function distributeTables(tx: Queryable): Promise<string[]> {
  const plan = await pendingDistribution(tx);
  if (plan.length === 0) return [];
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
  return names;
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
