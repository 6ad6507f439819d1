import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { postgreSplitterOptions, splitQuery } from 'dbgate-query-splitter';
import { distributeTables, hasCitus } from './citus.js';
import type { Db } from './db.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/**
 * Applies the numbered .sql files in platform/migrations that are not yet recorded, each in its
 * own transaction. Services own number ranges (0001 platform, 01xx identity, 02xx data,
 * 03xx commerce, 04xx members, 05xx events) so parallel work does not collide.
 * An advisory lock keeps two servers starting at once from migrating together.
 */
export async function migrate(db: Db, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  const files = fs.readdirSync(dir).filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f)).sort();
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock(7265746)');
    const citus = await hasCitus(tx);
    if (citus) {
      // Triggers on distributed tables run on the workers' shards; ours only touch the same
      // site's rows, which live on the same worker (colocated).
      await tx.query(`SET LOCAL citus.enable_unsafe_triggers = on`);
      await tx.query(`SET LOCAL citus.multi_shard_modify_mode = 'sequential'`);
    }
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await tx.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = fs.readFileSync(`${dir}/${file}`, 'utf8');
      if (citus) {
        // Citus passes some DDL on to the workers as the text it was given, and a worker refuses a
        // text of several statements: on a distributed database a file runs one statement at a time.
        for (const statement of splitQuery(sql, postgreSplitterOptions)) await tx.query(String(statement));
      } else {
        await tx.exec(sql);
      }
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      applied.push(file);
    }
    if (citus) await distributeTables(tx);
    return applied;
  });
}
