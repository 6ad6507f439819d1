// SQL for the audit log's reads, its retention setting and the prune. Entries are written by
// platform/audit.ts only; the table refuses UPDATE, and DELETE outside the prune (migration 0820).
import { withTransaction, type DbContext, type SiteContext } from '../../platform/context.js';

export type AuditRow = {
  entry_id: string;
  recorded_at: Date;
  actor_kind: 'MEMBER' | 'API_KEY' | 'SYSTEM';
  actor_id: string | null;
  actor_role: string | null;
  actor_email: string | null;
  action: string;
  object_type: string;
  object_id: string;
  before: unknown;
  after: unknown;
  ip: string | null;
  request_id: string | null;
};

export interface AuditFilter {
  action?: string;
  /** A member id, an API key id, or an actor's e-mail (any case). */
  actor?: string;
  objectType?: string;
  objectId?: string;
  /** From this instant on (inclusive). */
  from?: Date;
  /** Before this instant (exclusive). */
  to?: Date;
}

/** Where the previous page ended: entries are in (recorded_at, entry_id) order, newest first. */
export interface AuditPosition {
  recordedAt: Date;
  entryId: string;
}

const COLUMNS = 'entry_id, recorded_at, actor_kind, actor_id, actor_role, actor_email, action, object_type, object_id, before, after, ip, request_id';

/** One page of the site's entries matching the filter, newest first, after `position`. */
export async function listEntries(ctx: SiteContext, filter: AuditFilter, position: AuditPosition | undefined, limit: number): Promise<AuditRow[]> {
  const params: unknown[] = [ctx.siteId];
  const where = ['site_id = $1'];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (filter.action !== undefined) add((p) => `action = ${p}`, filter.action);
  if (filter.actor !== undefined) add((p) => `(actor_id = ${p} OR lower(actor_email) = lower(${p}))`, filter.actor);
  if (filter.objectType !== undefined) add((p) => `object_type = ${p}`, filter.objectType);
  if (filter.objectId !== undefined) add((p) => `object_id = ${p}`, filter.objectId);
  if (filter.from !== undefined) add((p) => `recorded_at >= ${p}`, filter.from);
  if (filter.to !== undefined) add((p) => `recorded_at < ${p}`, filter.to);
  if (position) {
    params.push(position.recordedAt, position.entryId);
    where.push(`(recorded_at, entry_id) < ($${params.length - 1}::timestamptz, $${params.length}::text)`);
  }
  params.push(limit);
  return ctx.db.query<AuditRow>(
    `SELECT ${COLUMNS} FROM audit_log WHERE ${where.join(' AND ')} ORDER BY recorded_at DESC, entry_id DESC LIMIT $${params.length}`,
    params,
  );
}

export async function findRetention(ctx: SiteContext): Promise<number | undefined> {
  const rows = await ctx.db.query<{ retention_days: number }>('SELECT retention_days FROM audit_settings WHERE site_id = $1', [ctx.siteId]);
  return rows[0]?.retention_days;
}

/**
 * Locks the site's setting row, made with `defaultDays` first if the site has none, so two
 * changes at once queue and record their before → after in turn.
 */
export async function lockRetention(ctx: SiteContext, defaultDays: number): Promise<number> {
  await ctx.db.query('INSERT INTO audit_settings (site_id, retention_days, updated_at) VALUES ($1, $2, $3) ON CONFLICT (site_id) DO NOTHING', [ctx.siteId, defaultDays, ctx.now()]);
  const rows = await ctx.db.query<{ retention_days: number }>('SELECT retention_days FROM audit_settings WHERE site_id = $1 FOR UPDATE', [ctx.siteId]);
  return rows[0].retention_days;
}

export async function saveRetention(ctx: SiteContext, days: number): Promise<void> {
  await ctx.db.query(
    `INSERT INTO audit_settings (site_id, retention_days, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (site_id) DO UPDATE SET retention_days = EXCLUDED.retention_days, updated_at = EXCLUDED.updated_at`,
    [ctx.siteId, days, ctx.now()],
  );
}

/** Each site's retention in days (`defaultDays` for a site that set none). */
export async function retentions(ctx: DbContext, defaultDays: number): Promise<{ site_id: string; retention_days: number }[]> {
  return ctx.db.query<{ site_id: string; retention_days: number }>(
    'SELECT s.site_id, COALESCE(a.retention_days, $1::int) AS retention_days FROM sites s LEFT JOIN audit_settings a ON a.site_id = s.site_id',
    [defaultDays],
  );
}

/**
 * Deletes up to `batch` of one site's entries recorded before `cutoff` (a prefix scan of
 * audit_log_by_time), so a large backlog never holds a long lock. The only DELETE the table's
 * trigger lets through: the flag is local to this transaction.
 */
export async function pruneSite(ctx: SiteContext, cutoff: Date, batch: number): Promise<number> {
  return withTransaction(ctx, async (tx) => {
    // SET LOCAL, not set_config: Citus passes it on to the worker whose trigger reads it.
    await tx.db.exec("SET LOCAL bodega.audit_prune = 'on'");
    const rows = await tx.db.query(
      `DELETE FROM audit_log WHERE site_id = $1 AND entry_id IN (
         SELECT entry_id FROM audit_log WHERE site_id = $1 AND recorded_at < $2 ORDER BY recorded_at LIMIT $3)
       RETURNING 1`,
      [ctx.siteId, cutoff, batch],
    );
    return rows.length;
  });
}
