import { openDb, type Db } from './db.js';
import { migrate } from './migrate.js';
import type { OperationsConfig } from './ops-config.js';

/**
 * Migrations take an advisory lock. It is transaction-scoped, so it also holds through a
 * transaction pooler, but DDL is best run on a direct connection: with DATABASE_DIRECT_URL set,
 * migrations go there and the pooled connection serves requests.
 */
export async function migrateDatabase(db: Db, ops: Pick<OperationsConfig, 'databaseDirectUrl'>): Promise<string[]> {
  if (db.kind !== 'postgres' || !ops.databaseDirectUrl) return migrate(db);
  const direct = await openDb({ databaseUrl: ops.databaseDirectUrl });
  try {
    return await migrate(direct);
  } finally {
    await direct.close();
  }
}
