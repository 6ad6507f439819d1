/**
 * The audit log's back office: the owner's (or an API key's) list, CSV export and retention
 * setting, and the periodic prune. Entries are appended by every audited action through
 * platform/audit.ts, in that action's transaction; nothing here changes or removes one except the
 * prune of entries older than the site's retention.
 */
import { AUDIT_LIMITS } from '../../platform/field-limits.js';
import type { RequestContext } from '../../platform/caller.js';
import { poolContext, siteContext, withTransaction } from '../../platform/context.js';
import type { Db } from '../../platform/db.js';
import { ApiError } from '../../platform/errors.js';
import { recordAudit } from '../../platform/audit.js';
import { auditCsv } from './csv.js';
import * as store from './store.js';

export type { AuditFilter, AuditRow } from './store.js';

/** A site that never set its retention keeps its log this long. */
export const DEFAULT_RETENTION_DAYS = 365;
export const MAX_RETENTION_DAYS = AUDIT_LIMITS.retentionDays;
const PRUNE_EVERY_MS = 60 * 60_000;
const PRUNE_BATCH = 5000;
const DAY_MS = 24 * 60 * 60_000;
const CSV_BATCH = 500;

export interface AuditPage {
  entries: store.AuditRow[];
  nextCursor?: string;
}

export interface AuditSettings {
  retentionDays: number;
}

/** The log holds who did what to access, money and settings: the owner's and API keys' only. */
export function requireOwner(ctx: RequestContext): void {
  const { caller } = ctx;
  if (caller.kind === 'APP' || (caller.kind === 'WIX_USER' && caller.memberRole === 'OWNER')) return;
  throw ApiError.forbidden('Only the site owner and API keys may read the audit log');
}

function encodeCursor(row: store.AuditRow): string {
  return Buffer.from(JSON.stringify([row.recorded_at.toISOString(), row.entry_id])).toString('base64url');
}

function decodeCursor(cursor: string): store.AuditPosition {
  try {
    const [date, entryId] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    const recordedAt = new Date(String(date));
    if (typeof entryId === 'string' && !Number.isNaN(recordedAt.getTime())) return { recordedAt, entryId };
  } catch {
    // fall through to the validation error
  }
  throw ApiError.validation([{ field: 'cursor', rule: 'FORMAT', description: 'not a cursor this call gave' }]);
}

function checkRange(filter: store.AuditFilter): void {
  if (filter.from && filter.to && filter.from > filter.to) {
    throw ApiError.validation([{ field: 'from', rule: 'VALIDATION', description: 'from must not be after to' }]);
  }
}

export class AuditService {
  private timer: NodeJS.Timeout | undefined;
  private pruning: Promise<unknown> = Promise.resolve();
  private onError: (error: unknown) => void = () => {};

  constructor(private readonly db: Db, private readonly now: () => Date) {}

  reportErrorsTo(onError: (error: unknown) => void): void {
    this.onError = onError;
  }

  async list(ctx: RequestContext, filter: store.AuditFilter, page: { limit: number; cursor?: string }): Promise<AuditPage> {
    requireOwner(ctx);
    checkRange(filter);
    const position = page.cursor ? decodeCursor(page.cursor) : undefined;
    const rows = await store.listEntries(ctx, filter, position, page.limit + 1);
    const entries = rows.slice(0, page.limit);
    return { entries, ...(rows.length > page.limit ? { nextCursor: encodeCursor(entries[entries.length - 1]) } : {}) };
  }

  /** The filtered log as CSV, newest first; the export itself is an audited action, recorded first. */
  async exportCsv(ctx: RequestContext, filter: store.AuditFilter): Promise<AsyncGenerator<string>> {
    requireOwner(ctx);
    checkRange(filter);
    await recordAudit(ctx, { action: 'export.audit_log', objectType: 'export', objectId: 'audit-log.csv', after: filterView(filter) });
    return auditCsv(this.batches(ctx, filter));
  }

  private async *batches(ctx: RequestContext, filter: store.AuditFilter): AsyncGenerator<store.AuditRow[]> {
    let position: store.AuditPosition | undefined;
    for (;;) {
      const rows = await store.listEntries(ctx, filter, position, CSV_BATCH);
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < CSV_BATCH) return;
      const last = rows[rows.length - 1];
      position = { recordedAt: last.recorded_at, entryId: last.entry_id };
    }
  }

  async settings(ctx: RequestContext): Promise<AuditSettings> {
    requireOwner(ctx);
    return { retentionDays: (await store.findRetention(ctx)) ?? DEFAULT_RETENTION_DAYS };
  }

  async updateSettings(ctx: RequestContext, patch: Partial<AuditSettings>): Promise<AuditSettings> {
    requireOwner(ctx);
    return withTransaction(ctx, async (tx) => {
      const before = await store.lockRetention(tx, DEFAULT_RETENTION_DAYS);
      const after = patch.retentionDays ?? before;
      if (after !== before) {
        await store.saveRetention(tx, after);
        await recordAudit(tx, { action: 'audit_settings.updated', objectType: 'audit_settings', objectId: ctx.siteId, before: { retentionDays: before }, after: { retentionDays: after } });
      }
      return { retentionDays: after };
    });
  }

  /** Deletes the entries past each site's retention (in batches until none is left); returns how many. */
  async prune(): Promise<number> {
    const now = this.now().getTime();
    let total = 0;
    for (const site of await store.retentions(poolContext(this.db), DEFAULT_RETENTION_DAYS)) {
      const cutoff = new Date(now - site.retention_days * DAY_MS);
      for (;;) {
        const deleted = await store.pruneSite(siteContext(this.db, site.site_id, this.now), cutoff, PRUNE_BATCH);
        total += deleted;
        if (deleted < PRUNE_BATCH) break;
      }
    }
    return total;
  }

  /** Prunes once an hour (wall-clock pacing: a frozen test clock must not stop housekeeping). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.pruning = this.pruning.then(() => this.prune()).catch((error: unknown) => this.onError(error));
    }, PRUNE_EVERY_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.pruning;
  }
}

/** A filter as the export's entry records it (dates as ISO text, unset fields left out). */
function filterView(filter: store.AuditFilter): Record<string, string> {
  return Object.fromEntries(Object.entries(filter).flatMap(([key, value]) =>
    value === undefined ? [] : [[key, value instanceof Date ? value.toISOString() : String(value)]]));
}
