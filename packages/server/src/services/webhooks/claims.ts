import { sitesInTurn } from '../../platform/citus.js';
import { withTransaction, type DbContext } from '../../platform/context.js';
import type { DeliveryEvent } from './envelope.js';

/**
 * The worker's claims, in two shapes. On plain PostgreSQL and PGlite one statement claims a whole
 * batch whatever the sites (`FOR UPDATE SKIP LOCKED` across them). On Citus a row lock cannot span
 * shards, so the sites with work are read first and each site's rows are claimed by a statement
 * that names its site id (routed to the one worker that holds it): a round trip more, and one
 * statement per site in the batch.
 */
export interface ClaimShape {
  /** Citus: one statement per site. */
  perSite: boolean;
  /** Only these sites (tests share one database; also a way to shard). */
  sites?: readonly string[];
}

export interface OutboxRow {
  site_id: string;
  event_id: string;
  type: string;
  entity_type: string;
  entity_id: string;
  payload: unknown;
  created_at: Date;
  seq: number | string;
}

export interface ClaimedRow {
  site_id: string;
  delivery_id: string;
  subscription_id: string;
  entity_id: string;
  event: DeliveryEvent;
  attempts: number;
  created_at: Date;
  url: string;
  format: 'WIX' | 'STANDARD';
  secret: string;
}

/** How many of the oldest due rows are looked at to find the sites a round serves, per row it takes (Citus). */
const SITE_WINDOW = 4;

function siteFilter(shape: ClaimShape, alias: string, params: unknown[]): string {
  if (!shape.sites) return '';
  // One site is an equality: the pending index by site (migration 1190) then answers in seq order.
  if (shape.sites.length === 1) {
    params.push(shape.sites[0]);
    return ` AND ${alias}.site_id = $${params.length}`;
  }
  params.push([...shape.sites]);
  return ` AND ${alias}.site_id = ANY($${params.length}::text[])`;
}

/** Citus: the sites among the oldest `window` due rows that `due` (a SELECT of site_id, seq) lists, oldest first. */
async function sitesWithWork(ctx: DbContext, due: string, params: unknown[]): Promise<string[]> {
  const rows = await ctx.db.query<{ site_id: string }>(`SELECT site_id FROM (${due}) due GROUP BY site_id ORDER BY min(seq)`, params);
  return rows.map((row) => row.site_id);
}

const OUTBOX_COLUMNS = 'o.site_id, o.event_id, o.type, o.entity_type, o.entity_id, o.payload, o.created_at, o.seq';

/** The oldest undelivered outbox rows, locked for the fan-out's transaction. */
export async function takeEvents(tx: DbContext, shape: ClaimShape, limit: number): Promise<(OutboxRow & Record<string, unknown>)[]> {
  const params: unknown[] = [limit];
  if (!shape.perSite) {
    return tx.db.query<OutboxRow & Record<string, unknown>>(
      `SELECT ${OUTBOX_COLUMNS} FROM outbox_events o WHERE o.delivered_at IS NULL${siteFilter(shape, 'o', params)}
       ORDER BY o.seq LIMIT $1 FOR UPDATE SKIP LOCKED`,
      params,
    );
  }
  params[0] = limit * SITE_WINDOW;
  const sites = await sitesWithWork(tx, `SELECT o.site_id, o.seq FROM outbox_events o WHERE o.delivered_at IS NULL${siteFilter(shape, 'o', params)}
    ORDER BY o.seq LIMIT $1`, params);
  return sitesInTurn(sites, limit, (siteId, room) => tx.db.query<OutboxRow & Record<string, unknown>>(
    `SELECT ${OUTBOX_COLUMNS} FROM outbox_events o WHERE o.site_id = $1 AND o.delivered_at IS NULL ORDER BY o.seq LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [siteId, room],
  ));
}

/** Marks fanned-out outbox rows delivered. */
export async function markFannedOut(tx: DbContext, shape: ClaimShape, events: readonly OutboxRow[], at: Date): Promise<void> {
  if (!shape.perSite) {
    await tx.db.query(
      `UPDATE outbox_events o SET delivered_at = $3 FROM unnest($1::text[], $2::text[]) AS e(site_id, event_id)
       WHERE o.site_id = e.site_id AND o.event_id = e.event_id`,
      [events.map((e) => e.site_id), events.map((e) => e.event_id), at],
    );
    return;
  }
  for (const siteId of new Set(events.map((e) => e.site_id))) {
    await tx.db.query('UPDATE outbox_events SET delivered_at = $3 WHERE site_id = $1 AND event_id = ANY($2::text[])',
      [siteId, events.filter((e) => e.site_id === siteId).map((e) => e.event_id), at]);
  }
}

/**
 * Deliveries of one subscription and entity (a chain) go out one at a time, oldest first: only the
 * chain's head — its oldest pending delivery, flagged — is claimable (migration 1161). Heads are
 * set when a delivery joins a chain with none pending (crownHeads) and passed on when a head
 * finishes (recordSuccesses, passHead). Both take CHAIN_LOCK first, so the one that runs second sees
 * what the other committed: a new delivery never misses a head that just finished, nor a finished
 * head the delivery just queued. Fan-out and replays take it exclusively, finishing shared.
 */
export const CHAIN_LOCK = 7265747;

const PENDING = `status IN ('PENDING', 'SENDING')`;

/** Due heads of active subscriptions (`c` joined to `cs`). */
const DUE = `FROM webhook_deliveries c
  JOIN webhook_subscriptions cs ON cs.site_id = c.site_id AND cs.subscription_id = c.subscription_id AND cs.status = 'ACTIVE'
  WHERE c.head AND c.${PENDING} AND c.next_attempt_at <= $1`;
const CLAIMED_COLUMNS = 'd.site_id, d.delivery_id, d.subscription_id, d.entity_id, d.event, d.attempts, d.created_at, s.url, s.format, s.secret';

/**
 * Claims due deliveries for a lease until `leaseEnd`: the heads of their chains, of active
 * subscriptions, oldest first.
 */
export async function claimDeliveries(ctx: DbContext, shape: ClaimShape, now: Date, leaseEnd: Date, limit: number): Promise<ClaimedRow[]> {
  if (!shape.perSite) {
    const params: unknown[] = [now, leaseEnd, limit];
    return ctx.db.query<ClaimedRow & Record<string, unknown>>(
      `UPDATE webhook_deliveries d SET status = 'SENDING', attempts = d.attempts + 1, next_attempt_at = $2
       FROM webhook_subscriptions s
       WHERE s.site_id = d.site_id AND s.subscription_id = d.subscription_id
         AND (d.site_id, d.delivery_id) IN (
           SELECT c.site_id, c.delivery_id ${DUE}${siteFilter(shape, 'c', params)}
           ORDER BY c.seq LIMIT $3 FOR UPDATE OF c SKIP LOCKED)
       RETURNING ${CLAIMED_COLUMNS}`,
      params,
    );
  }
  const params: unknown[] = [now, limit * SITE_WINDOW];
  const sites = await sitesWithWork(ctx, `SELECT c.site_id, c.seq ${DUE}${siteFilter(shape, 'c', params)} ORDER BY c.seq LIMIT $2`, params);
  return sitesInTurn(sites, limit, (siteId, room) => ctx.db.query<ClaimedRow & Record<string, unknown>>(
    `UPDATE webhook_deliveries d SET status = 'SENDING', attempts = d.attempts + 1, next_attempt_at = $3
     FROM webhook_subscriptions s
     WHERE d.site_id = $2 AND s.site_id = $2 AND s.subscription_id = d.subscription_id
       AND d.delivery_id IN (
         SELECT c.delivery_id ${DUE} AND c.site_id = $2
         ORDER BY c.seq LIMIT $4 FOR UPDATE OF c SKIP LOCKED)
     RETURNING ${CLAIMED_COLUMNS}`,
    [now, siteId, leaseEnd, room],
  ));
}

/**
 * A delivery's chain as one key (migration 1161's expression indexes serve only this form, so no
 * statistics can lead the planner to the log index for a chain's lookups).
 */
function chainKey(alias: string): string {
  return `(${alias}.subscription_id || ' ' || ${alias}.entity_id)`;
}

/** `d` (a new delivery) starts its chain: nothing older pending in it, and no head (`site` names d's site). */
function startsItsChain(site: string): string {
  return `NOT EXISTS (SELECT 1 FROM webhook_deliveries e
      WHERE e.site_id = ${site} AND ${chainKey('e')} = ${chainKey('d')} AND e.${PENDING} AND e.seq < d.seq)
    AND NOT EXISTS (SELECT 1 FROM webhook_deliveries h
      WHERE h.site_id = ${site} AND ${chainKey('h')} = ${chainKey('d')} AND h.head AND h.${PENDING})`;
}

/** Makes heads of the just inserted deliveries that start their chains (CHAIN_LOCK held exclusively). */
export async function crownHeads(tx: DbContext, shape: ClaimShape, rows: readonly { site_id: string; delivery_id: string }[]): Promise<void> {
  if (rows.length === 0) return;
  if (!shape.perSite) {
    await tx.db.query(
      `UPDATE webhook_deliveries d SET head = true FROM unnest($1::text[], $2::text[]) AS n(site_id, delivery_id)
       WHERE d.site_id = n.site_id AND d.delivery_id = n.delivery_id AND ${startsItsChain('d.site_id')}`,
      [rows.map((r) => r.site_id), rows.map((r) => r.delivery_id)],
    );
    return;
  }
  for (const siteId of new Set(rows.map((r) => r.site_id))) {
    await tx.db.query(
      `UPDATE webhook_deliveries d SET head = true WHERE d.site_id = $1 AND d.delivery_id = ANY($2::text[]) AND ${startsItsChain('$1')}`,
      [siteId, rows.filter((r) => r.site_id === siteId).map((r) => r.delivery_id)],
    );
  }
}

/**
 * Crowns the oldest pending delivery of every chain that has none: the housekeeping's guard for rows
 * no current code leaves headless — those a server older than migration 1161, still running during
 * an upgrade, queued or finished without heads. Under CHAIN_LOCK held exclusively, like a fan-out.
 * Answers how many chains it repaired.
 */
export async function repairHeads(ctx: DbContext, shape: ClaimShape): Promise<number> {
  return withTransaction(ctx, async (tx) => {
    await tx.db.query('SELECT pg_advisory_xact_lock($1)', [CHAIN_LOCK]);
    const headless = `d.${PENDING} AND NOT d.head`;
    if (!shape.perSite) {
      const params: unknown[] = [];
      const rows = await tx.db.query(
        `UPDATE webhook_deliveries d SET head = true WHERE ${headless}${siteFilter(shape, 'd', params)} AND ${startsItsChain('d.site_id')} RETURNING 1`,
        params,
      );
      return rows.length;
    }
    const params: unknown[] = [];
    const sites = await tx.db.query<{ site_id: string }>(
      `SELECT DISTINCT d.site_id FROM webhook_deliveries d WHERE ${headless}${siteFilter(shape, 'd', params)}`,
      params,
    );
    let repaired = 0;
    for (const { site_id: siteId } of sites) {
      const rows = await tx.db.query(
        `UPDATE webhook_deliveries d SET head = true WHERE d.site_id = $1 AND ${headless} AND ${startsItsChain('$1')} RETURNING 1`,
        [siteId],
      );
      repaired += rows.length;
    }
    return repaired;
  });
}

/** The next pending delivery of `m`'s chain (other than m), as a subquery; `site` names m's site. */
function nextOfChain(site: string, m: string): string {
  return `(SELECT e.delivery_id FROM webhook_deliveries e
      WHERE e.site_id = ${site} AND ${chainKey('e')} = ${chainKey(m)} AND e.${PENDING} AND e.delivery_id <> ${m}.delivery_id
      ORDER BY e.seq LIMIT 1)`;
}

/** A head failed for good: its chain's next pending delivery becomes the head (CHAIN_LOCK held). */
export async function passHead(tx: DbContext, row: Pick<ClaimedRow, 'site_id' | 'delivery_id' | 'subscription_id' | 'entity_id'>): Promise<void> {
  await tx.db.query(
    `UPDATE webhook_deliveries n SET head = true
     FROM (SELECT $2::text AS delivery_id, $3::text AS subscription_id, $4::text AS entity_id) m
     WHERE n.site_id = $1 AND n.delivery_id = ${nextOfChain('$1', 'm')}`,
    [row.site_id, row.delivery_id, row.subscription_id, row.entity_id],
  );
}

/** A successful attempt, as the worker keeps it until the next flush. */
export interface Success {
  site_id: string;
  delivery_id: string;
  subscription_id: string;
  attempt: number;
  started_at: string;
  finished_at: string;
  duration_ms: number | null;
  status_code: number | null;
  excerpt: string | null;
}

/**
 * Records successful attempts: the attempt rows, the deliveries DELIVERED (unless a later claim
 * owns them after a lease ran out), each one's chain's head passed on, and the subscriptions'
 * failure streaks reset. One statement after CHAIN_LOCK, one per site on Citus.
 */
export async function recordSuccesses(ctx: DbContext, shape: ClaimShape, batch: readonly Success[]): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    // Taken before the statement, whose snapshot must then hold every delivery a fan-out queued.
    await tx.db.query('SELECT pg_advisory_xact_lock_shared($1)', [CHAIN_LOCK]);
    if (!shape.perSite) {
      await tx.db.query(
        `WITH done AS (
           SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(site_id text, delivery_id text, subscription_id text, attempt int,
             started_at timestamptz, finished_at timestamptz, duration_ms int, status_code int, excerpt text)),
         mine AS (
           UPDATE webhook_deliveries d SET status = 'DELIVERED', finished_at = done.finished_at, last_error = NULL FROM done
           WHERE d.site_id = done.site_id AND d.delivery_id = done.delivery_id AND d.status = 'SENDING' AND d.attempts = done.attempt
           RETURNING d.site_id, d.delivery_id, d.subscription_id, d.entity_id),
         next AS (
           UPDATE webhook_deliveries n SET head = true FROM mine m
           WHERE n.site_id = m.site_id AND n.delivery_id = ${nextOfChain('m.site_id', 'm')}
           RETURNING 1),
         attempt AS (
           INSERT INTO webhook_attempts (site_id, delivery_id, attempt, started_at, duration_ms, status_code, error, response_excerpt)
           SELECT site_id, delivery_id, attempt, started_at, duration_ms, status_code, NULL, excerpt FROM done
           WHERE EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.site_id = done.site_id AND d.delivery_id = done.delivery_id)
           ON CONFLICT DO NOTHING RETURNING 1)
         UPDATE webhook_subscriptions s SET failures_in_row = 0
         WHERE s.failures_in_row <> 0 AND (s.site_id, s.subscription_id) IN (SELECT site_id, subscription_id FROM mine)`,
        [JSON.stringify(batch)],
      );
      return;
    }
    for (const siteId of new Set(batch.map((row) => row.site_id))) {
      await tx.db.query(
        `WITH done AS (
           SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(delivery_id text, subscription_id text, attempt int,
             started_at timestamptz, finished_at timestamptz, duration_ms int, status_code int, excerpt text)),
         mine AS (
           UPDATE webhook_deliveries d SET status = 'DELIVERED', finished_at = done.finished_at, last_error = NULL FROM done
           WHERE d.site_id = $2 AND d.delivery_id = done.delivery_id AND d.status = 'SENDING' AND d.attempts = done.attempt
           RETURNING d.delivery_id, d.subscription_id, d.entity_id),
         next AS (
           UPDATE webhook_deliveries n SET head = true FROM mine m
           WHERE n.site_id = $2 AND n.delivery_id = ${nextOfChain('$2', 'm')}
           RETURNING 1),
         attempt AS (
           INSERT INTO webhook_attempts (site_id, delivery_id, attempt, started_at, duration_ms, status_code, error, response_excerpt)
           SELECT $2, delivery_id, attempt, started_at, duration_ms, status_code, NULL, excerpt FROM done
           WHERE EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.site_id = $2 AND d.delivery_id = done.delivery_id)
           ON CONFLICT DO NOTHING RETURNING 1)
         UPDATE webhook_subscriptions s SET failures_in_row = 0
         WHERE s.site_id = $2 AND s.failures_in_row <> 0 AND s.subscription_id IN (SELECT subscription_id FROM mine)`,
        [JSON.stringify(batch.filter((row) => row.site_id === siteId)), siteId],
      );
    }
  });
}
