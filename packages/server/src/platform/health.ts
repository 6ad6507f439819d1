import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.js';
import type { Db } from './db.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** What /readyz reports besides the database: set by main when shutdown begins. */
export interface OperationsState {
  draining: boolean;
}

/**
 * `/readyz`: 200 only when the database answers, every migration shipped with this build is
 * applied and the process is not draining; otherwise 503 in the wire error shape with the reason.
 * `/healthz` (registered by the app) says only that the process is up.
 */
export function registerReadiness(app: FastifyInstance, db: Db, state: OperationsState): void {
  const shipped = fs.readdirSync(MIGRATIONS_DIR).filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f));
  let migrated = false;
  app.get('/readyz', async () => {
    if (state.draining) throw notReady('draining', 'The server is shutting down');
    try {
      await db.query('SELECT 1');
    } catch {
      throw notReady('database', 'The database does not answer');
    }
    if (!migrated) {
      const rows = await db.query<{ name: string }>("SELECT name FROM schema_migrations").catch(() => []);
      const done = new Set(rows.map((r) => r.name));
      const pending = shipped.filter((f) => !done.has(f));
      if (pending.length) throw notReady('migrations', `${pending.length} migration(s) not applied`, { pending });
      migrated = true;
    }
    return { status: 'ready' };
  });
}

function notReady(reason: string, message: string, data: Record<string, unknown> = {}): ApiError {
  return new ApiError(503, 'NOT_READY', message, { reason, ...data });
}
