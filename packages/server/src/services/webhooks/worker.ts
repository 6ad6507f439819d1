import { ConfigError } from '../../platform/config.js';
import type { Db } from '../../platform/db.js';
import { MAILED_EVENT_TYPES } from '../../platform/events.js';
import { newId } from '../../platform/ids.js';
import { forSite, poolContext, withTransaction, type DbContext, type SiteContext } from '../../platform/context.js';
import type { Mailer } from '../../platform/mail.js';
import { findOrder, toWireOrder, type Order } from '../orders/service.js';
import { standardBody, subscribes, wixJwtData, type DeliveryEvent } from './envelope.js';
import { orderMails } from './mails.js';
import { post, type SendResult } from './send.js';
import { signWixJwt, standardSignature, type SiteKeyStore } from './signing.js';
import { decryptSecret } from '../../platform/secrets.js';
import { isCitus } from '../../platform/citus.js';
import { CHAIN_LOCK, claimDeliveries, crownHeads, markFannedOut, passHead, recordSuccesses, repairHeads, takeEvents, type ClaimShape, type ClaimedRow, type OutboxRow, type Success } from './claims.js';

export interface WebhookOptions {
  /** Deliver to loopback and private addresses (tests, on-premises receivers). */
  allowPrivate: boolean;
  /** Time-out of one POST. */
  timeoutMs: number;
  /** Deliveries in flight at once, per server process. */
  maxInFlight: number;
  /** How often an idle worker looks for work. */
  pollMs: number;
  /** Fanned-out outbox rows and finished deliveries are deleted after this many days. */
  retentionDays: number;
  /** A subscription is paused after this many failed attempts in a row. */
  pauseAfterFailures: number;
  /** First retry delay; each retry doubles it (with jitter), up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A delivery still failing this long after its event is given up. */
  giveUpAfterMs: number;
  /** Jitter source, in [0, 1). */
  random: () => number;
  /** Only these sites (tests share one database; also a way to shard). */
  sites?: readonly string[];
  /** Claim one site at a time (claims.ts) also without Citus (tests and the bench run Citus's shape anywhere); on Citus always. */
  perSiteClaims?: boolean;
}

export const DEFAULT_WEBHOOK_OPTIONS: WebhookOptions = {
  allowPrivate: false,
  timeoutMs: 10_000,
  maxInFlight: 32,
  pollMs: 250,
  retentionDays: 7,
  pauseAfterFailures: 20,
  baseDelayMs: 10_000,
  maxDelayMs: 60 * 60_000,
  giveUpAfterMs: 24 * 60 * 60_000,
  random: Math.random,
};

/** Reads WEBHOOKS_* settings; tests set WEBHOOKS_ALLOW_PRIVATE=true. */
export function webhookOptionsFromEnv(env: NodeJS.ProcessEnv): Partial<WebhookOptions> {
  const number = (name: string): number | undefined => {
    const value = env[name];
    if (value === undefined || value === '') return undefined;
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`${name} must be a positive number`);
    return n;
  };
  return {
    allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE === 'true',
    ...(number('WEBHOOKS_TIMEOUT_MS') !== undefined ? { timeoutMs: number('WEBHOOKS_TIMEOUT_MS') } : {}),
    ...(number('WEBHOOKS_MAX_IN_FLIGHT') !== undefined ? { maxInFlight: number('WEBHOOKS_MAX_IN_FLIGHT') } : {}),
    ...(number('WEBHOOKS_RETENTION_DAYS') !== undefined ? { retentionDays: number('WEBHOOKS_RETENTION_DAYS') } : {}),
  };
}

/** Retry delay before attempt `attempts + 1`: doubling, capped, with jitter in [0.75, 1] so gaps always grow. */
export function retryDelayMs(attempts: number, options: Pick<WebhookOptions, 'baseDelayMs' | 'maxDelayMs' | 'random'>): number {
  const plain = Math.min(options.baseDelayMs * 2 ** Math.max(0, attempts - 1), options.maxDelayMs);
  return Math.round(plain * (0.75 + 0.25 * options.random()));
}

/** 5xx, 408, 429 and no answer at all retry; other statuses (and refused addresses) stop. */
export function retryable(result: SendResult): boolean {
  if (result.status === null) return !(result.error ?? '').startsWith('refused');
  return result.status >= 500 || result.status === 408 || result.status === 429;
}

interface SubscriptionRow {
  site_id: string;
  subscription_id: string;
  event_types: string[];
}

const FAN_OUT_BATCH = 200;
const PRUNE_EVERY_MS = 60 * 60_000;
const ANALYZE_AFTER_ROWS = 1000;
/** On PostgreSQL (autovacuum keeps statistics up in the long run) the burst needs one ANALYZE, not one per 1000 rows. */
const SERVER_ANALYZE_EVERY_MS = 60_000;

export interface WorkerDeps {
  db: Db;
  now: () => Date;
  publicUrl: string;
  mail: Mailer;
  /** The sites' signing keys; its keyring also opens the subscriptions' sealed secrets. */
  keys: SiteKeyStore;
  onError?: (error: unknown) => void;
  /** Renders an entity in its REST read shape at fan-out, by entity type (carts, checkouts, members); undefined when gone. */
  renderers?: Map<string, EntityRenderer>;
}

export type EntityRenderer = (ctx: SiteContext, entityId: string) => Promise<unknown>;

/**
 * Delivers the outbox. Fan-out turns each committed outbox row into one delivery per matching
 * subscription (and the order e-mails) in one transaction. Deliveries are claimed with
 * `FOR UPDATE SKIP LOCKED` (so any number of servers share them), only the oldest pending one
 * per subscription and entity, and POSTed outside any transaction. A claim is a lease: if the
 * server dies before recording the result, the row is claimed again when the lease ends.
 */
export class WebhookWorker {
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private ticking: Promise<void> = Promise.resolve();
  private lastPrune = -Infinity;
  private lastAnalyze = -Infinity;
  private insertedSinceAnalyze = 0;
  private succeeded: Success[] = [];
  private shapeKnown: ClaimShape | undefined;
  private outboxBusy = false;
  private lastEmptyLook = -Infinity;
  private lastClaim = -Infinity;

  /** The pool as a context: the worker's transactions span sites, each site's calls join them (forSite). */
  private readonly pool: DbContext;

  constructor(private readonly deps: WorkerDeps, readonly options: WebhookOptions) {
    this.pool = poolContext(deps.db);
  }

  /** Where failures of the background loop are reported (the app's logger). */
  reportErrorsTo(report: (error: unknown) => void): void {
    this.deps.onError = report;
  }

  private get halfSlots(): number {
    return Math.max(1, Math.ceil(this.options.maxInFlight / 2));
  }

  private get leaseMs(): number {
    return this.options.timeoutMs + 30_000;
  }

  /** The claims' statements: across sites in one, or one per site on Citus (asked once). */
  private async shape(): Promise<ClaimShape> {
    this.shapeKnown ??= { perSite: this.options.perSiteClaims === true || await isCitus(this.pool), ...(this.options.sites ? { sites: this.options.sites } : {}) };
    return this.shapeKnown;
  }

  // Fan-out --------------------------------------------------------------------------------------

  /** Turns committed outbox rows into deliveries and mail; returns how many rows it took. */
  async fanOut(limit = FAN_OUT_BATCH): Promise<number> {
    let mailed = false;
    const shape = await this.shape();
    const taken = await withTransaction(this.pool, async (tx) => {
      // Serialises fan-out across servers, so delivery rows appear in commit order; and with the
      // finishing of deliveries, which pass their chains' heads on (claims.ts).
      await tx.db.query('SELECT pg_advisory_xact_lock($1)', [CHAIN_LOCK]);
      const events = await takeEvents(tx, shape, limit);
      if (events.length === 0) return 0;
      const siteIds = [...new Set(events.map((e) => e.site_id))];
      const subscriptions = await tx.db.query<SubscriptionRow & Record<string, unknown>>(
        'SELECT site_id, subscription_id, event_types FROM webhook_subscriptions WHERE site_id = ANY($1::text[])',
        [siteIds],
      );
      const now = this.deps.now();
      const deliveries: ({ site_id: string; delivery_id: string } & Record<string, unknown>)[] = [];
      const orders = new Map<string, Order | undefined>();
      for (const row of events) {
        const matching = subscriptions.filter((s) => s.site_id === row.site_id && subscribes(s.event_types, row.type));
        let order: Order | undefined;
        const mails = MAILED_EVENT_TYPES.includes(row.type);
        if (row.entity_type === 'order' && (mails || matching.length > 0)) {
          const key = `${row.site_id}/${row.entity_id}`;
          if (!orders.has(key)) orders.set(key, await findOrder(forSite(tx, row.site_id, this.deps.now), row.entity_id));
          order = orders.get(key);
          if (order) mailed = (await this.enqueueOrderMails(tx, row, order)) || mailed;
        }
        if (matching.length === 0) continue;
        const event: DeliveryEvent = {
          eventId: row.event_id,
          type: row.type,
          entityType: row.entity_type,
          entityId: row.entity_id,
          siteId: row.site_id,
          eventTime: new Date(row.created_at).toISOString(),
          payload: row.payload,
          ...(order ? { entity: toWireOrder(order, this.deps.publicUrl) } : await this.rendered(tx, row)),
        };
        for (const s of matching) {
          deliveries.push({
            site_id: row.site_id, delivery_id: newId(), subscription_id: s.subscription_id, event_id: row.event_id, event_type: row.type,
            entity_id: row.entity_id, seq: String(row.seq), event, created_at: now.toISOString(),
          });
        }
      }
      if (deliveries.length > 0) {
        await insertDeliveries(tx, deliveries);
        await crownHeads(tx, shape, deliveries);
      }
      this.insertedSinceAnalyze += deliveries.length;
      await markFannedOut(tx, shape, events, now);
      return events.length;
    });
    if (mailed) this.deps.mail.kick();
    return taken;
  }

  /** The entity of a non-order event in its REST read shape, when a renderer knows its type and it still exists. */
  private async rendered(tx: DbContext, row: OutboxRow): Promise<{ entity?: unknown }> {
    const render = this.deps.renderers?.get(row.entity_type);
    if (!render || row.type.endsWith('.deleted')) return {};
    try {
      const entity = await render(forSite(tx, row.site_id, this.deps.now), row.entity_id);
      return entity === undefined ? {} : { entity };
    } catch {
      return {}; // gone or not readable: the recorded payload goes out
    }
  }

  private async enqueueOrderMails(tx: DbContext, row: OutboxRow, order: Order): Promise<boolean> {
    if (!MAILED_EVENT_TYPES.includes(row.type)) return false;
    const [site] = await tx.db.query<{ name: string }>('SELECT name FROM sites WHERE site_id = $1', [row.site_id]);
    const owners = row.type === 'order.created' || row.type === 'order.payment_failed' || row.type === 'order.payment_disputed' || row.type === 'order.refunded_at_provider'
      ? await tx.db.query<{ login_email: string }>(`SELECT login_email FROM members WHERE site_id = $1 AND role = 'OWNER' AND status = 'APPROVED' ORDER BY login_email`, [row.site_id])
      : [];
    const mails = orderMails(row.type, { storeName: site?.name ?? 'Bodega', publicUrl: this.deps.publicUrl, order, ownerEmails: owners.map((o) => o.login_email) });
    for (const mail of mails) await this.deps.mail.enqueue(tx, { siteId: row.site_id, ...mail });
    return mails.length > 0;
  }

  // Delivery -------------------------------------------------------------------------------------

  /** Claims due deliveries (claims.ts): only the oldest pending one per subscription and entity, of active subscriptions. */
  async claim(limit: number): Promise<ClaimedRow[]> {
    if (limit <= 0) return [];
    const now = this.deps.now();
    return claimDeliveries(this.pool, await this.shape(), now, new Date(now.getTime() + this.leaseMs), limit);
  }

  /** Signs and POSTs one claimed delivery, then records the attempt and the outcome. */
  async deliver(row: ClaimedRow): Promise<void> {
    const started = this.deps.now();
    let result: SendResult;
    try {
      const { headers, body } = await this.request(row, started);
      result = await post(row.url, headers, body, { timeoutMs: this.options.timeoutMs, allowPrivate: this.options.allowPrivate });
    } catch (error) {
      result = { status: null, error: error instanceof Error ? error.message : String(error), excerpt: null, durationMs: 0 };
    }
    await this.record(row, started, result);
  }

  private async request(row: ClaimedRow, at: Date): Promise<{ headers: Record<string, string>; body: string }> {
    const timestamp = Math.floor(at.getTime() / 1000);
    const messageId = `msg_${row.delivery_id}`;
    const common = { 'webhook-id': messageId, 'webhook-timestamp': String(timestamp) };
    if (row.format === 'WIX') {
      const keys = await this.deps.keys.keysOf(row.site_id);
      return { headers: { ...common, 'content-type': 'text/plain; charset=utf-8' }, body: await signWixJwt(wixJwtData(row.event), keys.privateKey, at) };
    }
    const body = standardBody(row.event);
    return { headers: { ...common, 'content-type': 'application/json', 'webhook-signature': standardSignature(decryptSecret(this.deps.keys.ring, row.secret), messageId, timestamp, body) }, body };
  }

  private async record(row: ClaimedRow, started: Date, result: SendResult): Promise<void> {
    const now = this.deps.now();
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const failure = ok ? null : result.status !== null ? `HTTP ${result.status}` : result.error ?? 'no response';
    if (ok) {
      // Successes are written together at the start of the next round (one statement for many).
      this.succeeded.push({
        site_id: row.site_id, delivery_id: row.delivery_id, subscription_id: row.subscription_id, attempt: row.attempts,
        started_at: started.toISOString(), finished_at: now.toISOString(), duration_ms: result.durationMs, status_code: result.status, excerpt: result.excerpt,
      });
      return;
    }
    await withTransaction(this.pool, async (tx) => {
      // Before any read: a delivery given up passes its chain's head on (claims.ts).
      await tx.db.query('SELECT pg_advisory_xact_lock_shared($1)', [CHAIN_LOCK]);
      // A lease that ran out may have been claimed again; the later claim owns the row then.
      const mine = await tx.db.query(
        `SELECT 1 FROM webhook_deliveries WHERE site_id = $1 AND delivery_id = $2 AND status = 'SENDING' AND attempts = $3 FOR UPDATE`,
        [row.site_id, row.delivery_id, row.attempts],
      );
      await tx.db.query(
        `INSERT INTO webhook_attempts (site_id, delivery_id, attempt, started_at, duration_ms, status_code, error, response_excerpt)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
        [row.site_id, row.delivery_id, row.attempts, started, result.durationMs, result.status, result.error?.slice(0, 1000) ?? null, result.excerpt],
      );
      if (mine.length === 0) return;
      const retryAt = new Date(now.getTime() + retryDelayMs(row.attempts, this.options));
      const giveUp = !retryable(result) || retryAt.getTime() > new Date(row.created_at).getTime() + this.options.giveUpAfterMs;
      await tx.db.query(
        `UPDATE webhook_deliveries SET status = $3, next_attempt_at = $4, last_error = $5, finished_at = $6 WHERE site_id = $1 AND delivery_id = $2`,
        [row.site_id, row.delivery_id, giveUp ? 'FAILED' : 'PENDING', retryAt, failure, giveUp ? now : null],
      );
      if (giveUp) await passHead(tx, row);
      const [sub] = await tx.db.query<{ failures_in_row: number }>(
        'UPDATE webhook_subscriptions SET failures_in_row = failures_in_row + 1 WHERE site_id = $1 AND subscription_id = $2 RETURNING failures_in_row',
        [row.site_id, row.subscription_id],
      );
      const expired = giveUp && retryable(result);
      if (sub && (sub.failures_in_row >= this.options.pauseAfterFailures || expired)) {
        const why = expired
          ? `A delivery kept failing for 24 hours (last: ${failure}); paused at ${now.toISOString()}`
          : `${sub.failures_in_row} delivery attempts in a row failed (last: ${failure}); paused at ${now.toISOString()}`;
        await tx.db.query(
          `UPDATE webhook_subscriptions SET status = 'PAUSED', paused_reason = $3, updated_at = $4 WHERE site_id = $1 AND subscription_id = $2 AND status = 'ACTIVE'`,
          [row.site_id, row.subscription_id, why, now],
        );
      }
    });
  }

  /** Records the successful attempts since the last call: attempts, deliveries and the subscriptions' streaks. */
  async flush(): Promise<void> {
    if (this.succeeded.length === 0) return;
    const batch = this.succeeded;
    this.succeeded = [];
    // If this write fails the deliveries keep their lease and go out again when it ends (at least once).
    await recordSuccesses(this.pool, await this.shape(), batch);
  }

  // Running --------------------------------------------------------------------------------------

  /**
   * One round: record successes, fan out one batch, fill the free in-flight slots. Returns how many
   * outbox rows and deliveries it took; small rounds leave the database to requests in between.
   */
  async pump(force = false): Promise<number> {
    await this.flush();
    // An empty outbox is looked at once per poll interval, not after every finished delivery.
    const look = force || this.outboxBusy || performance.now() - this.lastEmptyLook >= this.options.pollMs;
    const fanned = look ? await this.fanOut() : 0;
    this.outboxBusy = fanned > 0;
    if (look && fanned === 0) this.lastEmptyLook = performance.now();
    await this.analyzeIfGrown();
    // Claims go in batches (half the slots at least): one claim per finished delivery would cost a query each.
    const free = this.options.maxInFlight - this.inFlight.size;
    // Slots held by slow receivers still leave the rest in use: a smaller claim once per poll interval.
    const worthIt = this.inFlight.size === 0 || free >= this.halfSlots || (free > 0 && performance.now() - this.lastClaim >= this.options.pollMs);
    if (worthIt) this.lastClaim = performance.now();
    const claimed = worthIt ? await this.claim(free) : [];
    for (const row of claimed) {
      const sending: Promise<void> = this.deliver(row)
        .catch((error: unknown) => this.deps.onError?.(error))
        .finally(() => {
          this.inFlight.delete(sending);
          if (this.running && (this.inFlight.size === 0 || this.options.maxInFlight - this.inFlight.size >= this.halfSlots)) this.schedule(0);
        });
      this.inFlight.add(sending);
    }
    return fanned + claimed.length;
  }

  /** Runs rounds until nothing is left to fan out or due, waiting for every delivery started; tests drive this. */
  async runUntilIdle(maxRounds = 1000): Promise<number> {
    let started = 0;
    for (let round = 0; round < maxRounds; round++) {
      const n = await this.pump(round === 0);
      await Promise.all(this.inFlight);
      started += n;
      if (n === 0) break;
    }
    await this.flush();
    return started;
  }

  /** One round and the deliveries it started. */
  async runOnce(): Promise<number> {
    const n = await this.pump(true);
    await Promise.all(this.inFlight);
    await this.flush();
    return n;
  }

  /**
   * A big fan-out refreshes the deliveries' statistics. PGlite has no autovacuum, and PostgreSQL's
   * comes too late for a burst: with the table's old statistics the planner misjudges the queue's
   * indexes (measured before the chains' heads, migration 1161: 5.3 s a claim with 3,000 pending,
   * 10 ms after ANALYZE), which is the CPU requests then wait for.
   */
  private async analyzeIfGrown(): Promise<void> {
    if (this.insertedSinceAnalyze < ANALYZE_AFTER_ROWS) return;
    // Wall-clock pacing, like pruning: a frozen test clock must not stop it.
    if (this.deps.db.kind !== 'pglite' && performance.now() - this.lastAnalyze < SERVER_ANALYZE_EVERY_MS) return;
    this.lastAnalyze = performance.now();
    this.insertedSinceAnalyze = 0;
    await this.pool.db.query('ANALYZE webhook_deliveries');
  }

  /**
   * Deletes fanned-out outbox rows and finished deliveries older than the retention, and gives a head
   * to any chain left without one (claims.ts repairHeads).
   */
  async prune(): Promise<{ events: number; deliveries: number; repairedChains: number }> {
    const cutoff = new Date(this.deps.now().getTime() - this.options.retentionDays * 24 * 60 * 60_000);
    const events = await this.pool.db.query('DELETE FROM outbox_events WHERE delivered_at IS NOT NULL AND delivered_at < $1 RETURNING 1', [cutoff]);
    const deliveries = await this.pool.db.query(`DELETE FROM webhook_deliveries WHERE finished_at IS NOT NULL AND finished_at < $1 RETURNING 1`, [cutoff]);
    const repairedChains = await repairHeads(this.pool, await this.shape());
    return { events: events.length, deliveries: deliveries.length, repairedChains };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    if (this.timer && ms > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.ticking = this.ticking.then(() => this.tick());
    }, ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (!this.running) return;
    let started = 0;
    try {
      started = await this.pump();
      // Wall-clock pacing of housekeeping, not domain time: a frozen test clock must not stop it.
      const wall = performance.now();
      if (wall - this.lastPrune > PRUNE_EVERY_MS) {
        this.lastPrune = wall;
        await this.prune();
      }
    } catch (error) {
      this.deps.onError?.(error);
    }
    const full = this.inFlight.size > 0 && this.options.maxInFlight - this.inFlight.size < this.halfSlots;
    // Busy: go again at once; full or idle: poll (finishing deliveries also schedule a round).
    this.schedule(started > 0 && !full ? 0 : this.options.pollMs);
  }

  /** Stops claiming and waits for deliveries in flight (before the database closes). */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.ticking;
    await Promise.all(this.inFlight);
    await this.flush();
  }
}

async function insertDeliveries(tx: DbContext, rows: Record<string, unknown>[]): Promise<void> {
  await tx.db.query(
    `INSERT INTO webhook_deliveries (site_id, delivery_id, subscription_id, event_id, event_type, entity_id, seq, event, status, next_attempt_at, created_at)
     SELECT site_id, delivery_id, subscription_id, event_id, event_type, entity_id, seq::bigint, event, 'PENDING', created_at, created_at
     FROM jsonb_to_recordset($1::jsonb) AS d(site_id text, delivery_id text, subscription_id text, event_id text, event_type text, entity_id text, seq text, event jsonb, created_at timestamptz)`,
    [JSON.stringify(rows)],
  );
}
