import { withTransaction, type SiteContext } from '../../platform/context.js';
import { CHAIN_LOCK, crownHeads } from './claims.js';
import type { DeliveryEvent } from './envelope.js';

export type SubscriptionFormat = 'WIX' | 'STANDARD';
export type SubscriptionStatus = 'ACTIVE' | 'PAUSED';
export type DeliveryStatus = 'PENDING' | 'SENDING' | 'DELIVERED' | 'FAILED';

export interface Subscription {
  id: string;
  url: string;
  eventTypes: string[];
  format: SubscriptionFormat;
  status: SubscriptionStatus;
  pausedReason: string | null;
  failuresInRow: number;
  createdDate: Date;
  updatedDate: Date;
}

export interface Attempt {
  attempt: number;
  startedDate: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
}

export interface Delivery {
  id: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  entityId: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptDate: Date | null;
  lastError: string | null;
  replayOf: string | null;
  createdDate: Date;
  finishedDate: Date | null;
  attemptLog: Attempt[];
}

interface SubscriptionRow {
  subscription_id: string;
  url: string;
  event_types: string[];
  format: SubscriptionFormat;
  status: SubscriptionStatus;
  paused_reason: string | null;
  failures_in_row: number;
  created_at: Date;
  updated_at: Date;
  secret: string;
}

const SUBSCRIPTION_COLUMNS = 'subscription_id, url, event_types, format, status, paused_reason, failures_in_row, created_at, updated_at, secret';

function toSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.subscription_id,
    url: row.url,
    eventTypes: row.event_types,
    format: row.format,
    status: row.status,
    pausedReason: row.paused_reason,
    failuresInRow: row.failures_in_row,
    createdDate: new Date(row.created_at),
    updatedDate: new Date(row.updated_at),
  };
}

export async function countSubscriptions(ctx: SiteContext): Promise<number> {
  const [{ count }] = await ctx.db.query<{ count: number }>('SELECT count(*)::int AS count FROM webhook_subscriptions WHERE site_id = $1', [ctx.siteId]);
  return count;
}

export async function insertSubscription(
  ctx: SiteContext,
  s: { id: string; url: string; eventTypes: string[]; format: SubscriptionFormat; secret: string; at: Date },
): Promise<Subscription> {
  const [row] = await ctx.db.query<SubscriptionRow & Record<string, unknown>>(
    `INSERT INTO webhook_subscriptions (site_id, subscription_id, url, event_types, format, secret, status, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'ACTIVE', $7, $7) RETURNING ${SUBSCRIPTION_COLUMNS}`,
    [ctx.siteId, s.id, s.url, s.eventTypes, s.format, s.secret, s.at],
  );
  return toSubscription(row);
}

export async function listSubscriptions(ctx: SiteContext): Promise<Subscription[]> {
  const rows = await ctx.db.query<SubscriptionRow & Record<string, unknown>>(
    `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE site_id = $1 ORDER BY created_at, subscription_id`, [ctx.siteId]);
  return rows.map(toSubscription);
}

/** `forUpdate` locks the row (a change that records its before → after in the audit log). */
export async function findSubscription(ctx: SiteContext, id: string, forUpdate = false): Promise<Subscription | undefined> {
  const [row] = await ctx.db.query<SubscriptionRow & Record<string, unknown>>(
    `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE site_id = $1 AND subscription_id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [ctx.siteId, id]);
  return row ? toSubscription(row) : undefined;
}

export async function updateSubscription(
  ctx: SiteContext, id: string,
  patch: { url?: string; eventTypes?: string[]; format?: SubscriptionFormat; status?: SubscriptionStatus; pausedReason?: string | null; resetFailures?: boolean; at: Date },
): Promise<Subscription | undefined> {
  const [row] = await ctx.db.query<SubscriptionRow & Record<string, unknown>>(
    `UPDATE webhook_subscriptions SET
       url = COALESCE($3, url), event_types = COALESCE($4, event_types), format = COALESCE($5, format),
       status = COALESCE($6, status), paused_reason = CASE WHEN $7 THEN $8 ELSE paused_reason END,
       failures_in_row = CASE WHEN $9 THEN 0 ELSE failures_in_row END, updated_at = $10
     WHERE site_id = $1 AND subscription_id = $2 RETURNING ${SUBSCRIPTION_COLUMNS}`,
    [ctx.siteId, id, patch.url ?? null, patch.eventTypes ?? null, patch.format ?? null, patch.status ?? null,
      patch.pausedReason !== undefined, patch.pausedReason ?? null, patch.resetFailures ?? false, patch.at],
  );
  return row ? toSubscription(row) : undefined;
}

export async function deleteSubscription(ctx: SiteContext, id: string): Promise<boolean> {
  const rows = await ctx.db.query('DELETE FROM webhook_subscriptions WHERE site_id = $1 AND subscription_id = $2 RETURNING 1', [ctx.siteId, id]);
  return rows.length > 0;
}

interface DeliveryRow {
  delivery_id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  entity_id: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  replay_of: string | null;
  created_at: Date;
  finished_at: Date | null;
  attempt_log: { attempt: number; started_at: string; duration_ms: number; status_code: number | null; error: string | null; response_excerpt: string | null }[] | null;
}

// Every statement with these columns binds the site as $1; its subquery names $1, not the outer row's
// site_id, which Citus does not follow to one shard (it would ask every shard).
const DELIVERY_SELECT = `SELECT d.delivery_id, d.subscription_id, d.event_id, d.event_type, d.entity_id, d.status, d.attempts, d.next_attempt_at,
    d.last_error, d.replay_of, d.created_at, d.finished_at,
    (SELECT json_agg(json_build_object('attempt', a.attempt, 'started_at', a.started_at, 'duration_ms', a.duration_ms, 'status_code', a.status_code,
       'error', a.error, 'response_excerpt', a.response_excerpt) ORDER BY a.attempt)
     FROM webhook_attempts a WHERE a.site_id = $1 AND a.delivery_id = d.delivery_id) AS attempt_log
  FROM webhook_deliveries d`;

function toDelivery(row: DeliveryRow): Delivery {
  const finished = row.status === 'DELIVERED' || row.status === 'FAILED';
  return {
    id: row.delivery_id,
    subscriptionId: row.subscription_id,
    eventId: row.event_id,
    eventType: row.event_type,
    entityId: row.entity_id,
    status: row.status,
    attempts: row.attempts,
    nextAttemptDate: finished ? null : new Date(row.next_attempt_at),
    lastError: row.last_error,
    replayOf: row.replay_of,
    createdDate: new Date(row.created_at),
    finishedDate: row.finished_at ? new Date(row.finished_at) : null,
    attemptLog: (row.attempt_log ?? []).map((a) => ({
      attempt: a.attempt, startedDate: new Date(a.started_at), durationMs: a.duration_ms, statusCode: a.status_code, error: a.error, responseExcerpt: a.response_excerpt,
    })),
  };
}

export async function listDeliveries(
  ctx: SiteContext, subscriptionId: string, options: { limit: number; offset: number; status?: DeliveryStatus },
): Promise<Delivery[]> {
  const rows = await ctx.db.query<DeliveryRow & Record<string, unknown>>(
    `${DELIVERY_SELECT} WHERE d.site_id = $1 AND d.subscription_id = $2 AND ($5::text IS NULL OR d.status = $5)
     ORDER BY d.created_at DESC, d.seq DESC, d.delivery_id LIMIT $3 OFFSET $4`,
    [ctx.siteId, subscriptionId, options.limit, options.offset, options.status ?? null],
  );
  return rows.map(toDelivery);
}

export async function findDelivery(ctx: SiteContext, subscriptionId: string, deliveryId: string): Promise<Delivery | undefined> {
  const [row] = await ctx.db.query<DeliveryRow & Record<string, unknown>>(
    `${DELIVERY_SELECT} WHERE d.site_id = $1 AND d.subscription_id = $2 AND d.delivery_id = $3`, [ctx.siteId, subscriptionId, deliveryId]);
  return row ? toDelivery(row) : undefined;
}

/** A new pending delivery: a replay (the earlier one's event, in a new place in the order) or a test ping; the head of its chain if it starts one. */
export async function insertDelivery(
  ctx: SiteContext,
  d: { id: string; subscriptionId: string; event: DeliveryEvent; seq?: number | string; replayOf?: string; at: Date },
): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    await tx.db.query('SELECT pg_advisory_xact_lock($1)', [CHAIN_LOCK]);
    await tx.db.query(
      `INSERT INTO webhook_deliveries (site_id, delivery_id, subscription_id, event_id, event_type, entity_id, seq, event, status, next_attempt_at, replay_of, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, COALESCE($7::bigint, nextval(pg_get_serial_sequence('outbox_events', 'seq'))), $8::jsonb, 'PENDING', $9, $10, $9)`,
      [ctx.siteId, d.id, d.subscriptionId, d.event.eventId, d.event.type, d.event.entityId, d.seq === undefined ? null : String(d.seq), JSON.stringify(d.event), d.at, d.replayOf ?? null],
    );
    await crownHeads(tx, { perSite: true }, [{ site_id: ctx.siteId, delivery_id: d.id }]);
  });
}

export async function deliveryEvent(ctx: SiteContext, subscriptionId: string, deliveryId: string): Promise<{ event: DeliveryEvent; seq: number | string } | undefined> {
  const [row] = await ctx.db.query<{ event: DeliveryEvent; seq: number | string }>(
    'SELECT event, seq FROM webhook_deliveries WHERE site_id = $1 AND subscription_id = $2 AND delivery_id = $3', [ctx.siteId, subscriptionId, deliveryId]);
  return row;
}
