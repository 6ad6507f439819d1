// SQL for payments: attempts, provider transactions and a site's payment settings; nothing else.
import type { DbContext, SiteContext } from '../../platform/context.js';

export type AttemptStatus = 'STARTED' | 'REQUIRES_ACTION' | 'APPROVED' | 'AUTHORIZED' | 'PENDING' | 'DECLINED' | 'FAILED';

export interface Attempt {
  siteId: string;
  id: string;
  checkoutId: string;
  number: number;
  provider: string;
  idempotencyKey: string;
  token: string;
  amount: bigint;
  currency: string;
  delayCapture: boolean;
  status: AttemptStatus;
  providerIntentId: string | null;
  orderId: string | null;
  failure: string | null;
  createdAt: Date;
  updatedAt: Date;
}

interface AttemptRow {
  site_id: string;
  attempt_id: string;
  checkout_id: string;
  attempt_number: number;
  provider: string;
  idempotency_key: string;
  token: string;
  amount_minor: string | number;
  currency: string;
  delay_capture: boolean;
  status: AttemptStatus;
  provider_intent_id: string | null;
  order_id: string | null;
  failure: string | null;
  created_at: Date;
  updated_at: Date;
  [key: string]: unknown;
}

const ATTEMPT_COLUMNS = `site_id, attempt_id, checkout_id, attempt_number, provider, idempotency_key, token, amount_minor, currency,
  delay_capture, status, provider_intent_id, order_id, failure, created_at, updated_at`;

function toAttempt(row: AttemptRow): Attempt {
  return {
    siteId: row.site_id,
    id: row.attempt_id,
    checkoutId: row.checkout_id,
    number: Number(row.attempt_number),
    provider: row.provider,
    idempotencyKey: row.idempotency_key,
    token: row.token,
    amount: BigInt(row.amount_minor),
    currency: row.currency,
    delayCapture: row.delay_capture,
    status: row.status,
    providerIntentId: row.provider_intent_id,
    orderId: row.order_id,
    failure: row.failure,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/** The checkout's latest attempt; `forUpdate` locks it. */
export async function latestAttempt(ctx: SiteContext, checkoutId: string, forUpdate = false): Promise<Attempt | undefined> {
  const rows = await ctx.db.query<AttemptRow>(
    `SELECT ${ATTEMPT_COLUMNS} FROM payment_attempts WHERE site_id = $1 AND checkout_id = $2 ORDER BY attempt_number DESC LIMIT 1${forUpdate ? ' FOR UPDATE' : ''}`,
    [ctx.siteId, checkoutId],
  );
  return rows[0] && toAttempt(rows[0]);
}

export async function findAttempt(ctx: SiteContext, attemptId: string, forUpdate = false): Promise<Attempt | undefined> {
  const rows = await ctx.db.query<AttemptRow>(`SELECT ${ATTEMPT_COLUMNS} FROM payment_attempts WHERE site_id = $1 AND attempt_id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [ctx.siteId, attemptId]);
  return rows[0] && toAttempt(rows[0]);
}

export async function findAttemptByIntent(ctx: SiteContext, provider: string, intentId: string): Promise<Attempt | undefined> {
  const rows = await ctx.db.query<AttemptRow>(
    `SELECT ${ATTEMPT_COLUMNS} FROM payment_attempts WHERE site_id = $1 AND provider = $2 AND provider_intent_id = $3`,
    [ctx.siteId, provider, intentId],
  );
  return rows[0] && toAttempt(rows[0]);
}

/** The checkout's attempt that made this provider intent (the shopper back from the provider's page). */
export async function findAttemptOfCheckout(ctx: SiteContext, checkoutId: string, intentId: string): Promise<Attempt | undefined> {
  const rows = await ctx.db.query<AttemptRow>(
    `SELECT ${ATTEMPT_COLUMNS} FROM payment_attempts WHERE site_id = $1 AND checkout_id = $2 AND provider_intent_id = $3`,
    [ctx.siteId, checkoutId, intentId],
  );
  return rows[0] && toAttempt(rows[0]);
}

export async function insertAttempt(ctx: SiteContext, attempt: Attempt): Promise<void> {
  await ctx.db.query(
    `INSERT INTO payment_attempts (${ATTEMPT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
    [attempt.siteId, attempt.id, attempt.checkoutId, attempt.number, attempt.provider, attempt.idempotencyKey, attempt.token, attempt.amount.toString(),
      attempt.currency, attempt.delayCapture, attempt.status, attempt.providerIntentId, attempt.orderId, attempt.failure, attempt.createdAt, attempt.updatedAt],
  );
}

export async function updateAttempt(ctx: SiteContext, attempt: Pick<Attempt, 'id' | 'status' | 'providerIntentId' | 'orderId' | 'failure' | 'updatedAt'>): Promise<void> {
  await ctx.db.query(
    'UPDATE payment_attempts SET status = $3, provider_intent_id = $4, order_id = $5, failure = $6, updated_at = $7 WHERE site_id = $1 AND attempt_id = $2',
    [ctx.siteId, attempt.id, attempt.status, attempt.providerIntentId, attempt.orderId, attempt.failure, attempt.updatedAt],
  );
}

/** Attempts the provider may still decide, or that have no order yet, untouched since `before` (every site: the sweep). */
export async function openAttempts(ctx: DbContext, before: Date, limit: number, siteIds: readonly string[] | null = null): Promise<Attempt[]> {
  const rows = await ctx.db.query<AttemptRow>(
    `SELECT ${ATTEMPT_COLUMNS} FROM payment_attempts
      WHERE (status IN ('STARTED', 'REQUIRES_ACTION', 'PENDING') OR (order_id IS NULL AND status IN ('APPROVED', 'AUTHORIZED')))
        AND updated_at < $1 AND ($3::text[] IS NULL OR site_id = ANY($3::text[]))
      ORDER BY updated_at LIMIT $2`,
    [before, limit, siteIds],
  );
  return rows.map(toAttempt);
}

// Transactions ------------------------------------------------------------------------------------

export type TransactionKind = 'PAYMENT' | 'CAPTURE' | 'VOID' | 'REFUND' | 'CHARGEBACK';

export interface Transaction {
  id: string;
  orderId: string;
  paymentId: string;
  kind: TransactionKind;
  provider: string;
  providerTransactionId: string | null;
  idempotencyKey: string | null;
  amount: bigint;
  status: string;
  failure: string | null;
  createdAt: Date;
}

interface TransactionRow {
  transaction_id: string;
  order_id: string;
  payment_id: string;
  kind: TransactionKind;
  provider: string;
  provider_transaction_id: string | null;
  idempotency_key: string | null;
  amount_minor: string | number;
  status: string;
  failure: string | null;
  created_at: Date;
  [key: string]: unknown;
}

/** Records a provider call; a second record under the same idempotency key is ignored (the first call's). */
export async function insertTransaction(ctx: SiteContext, t: Transaction): Promise<void> {
  await ctx.db.query(
    `INSERT INTO payment_transactions (site_id, transaction_id, order_id, payment_id, kind, provider, provider_transaction_id, idempotency_key, amount_minor, status, failure, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (site_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING`,
    [ctx.siteId, t.id, t.orderId, t.paymentId, t.kind, t.provider, t.providerTransactionId, t.idempotencyKey, t.amount.toString(), t.status, t.failure, t.createdAt],
  );
}

export async function updateTransactionStatus(ctx: SiteContext, provider: string, providerTransactionId: string, status: string): Promise<void> {
  await ctx.db.query(
    'UPDATE payment_transactions SET status = $4 WHERE site_id = $1 AND provider = $2 AND provider_transaction_id = $3',
    [ctx.siteId, provider, providerTransactionId, status],
  );
}

/** A provider call's record settles: its status, and the provider's id once it answered. */
export async function settleTransaction(ctx: SiteContext, idempotencyKey: string, status: string, providerTransactionId: string | null, failure: string | null): Promise<void> {
  await ctx.db.query(
    `UPDATE payment_transactions SET status = $3, provider_transaction_id = COALESCE($4, provider_transaction_id), failure = COALESCE($5, failure)
      WHERE site_id = $1 AND idempotency_key = $2`,
    [ctx.siteId, idempotencyKey, status, providerTransactionId, failure],
  );
}

/** Refunds the provider has not answered (SCHEDULED, STARTED), made before `before` (every site: the sweep). */
export async function unsettledRefunds(ctx: DbContext, before: Date, limit: number, siteIds: readonly string[] | null = null): Promise<{ siteId: string; orderId: string; idempotencyKey: string }[]> {
  const rows = await ctx.db.query<{ site_id: string; order_id: string; idempotency_key: string }>(
    `SELECT site_id, order_id, idempotency_key FROM payment_transactions
      WHERE kind = 'REFUND' AND status IN ('SCHEDULED', 'STARTED') AND idempotency_key IS NOT NULL AND created_at < $1
        AND ($3::text[] IS NULL OR site_id = ANY($3::text[]))
      ORDER BY created_at LIMIT $2`,
    [before, limit, siteIds],
  );
  return rows.map((r) => ({ siteId: r.site_id, orderId: r.order_id, idempotencyKey: r.idempotency_key }));
}

export async function transactionsOf(ctx: SiteContext, orderId: string): Promise<Transaction[]> {
  const rows = await ctx.db.query<TransactionRow>(
    `SELECT transaction_id, order_id, payment_id, kind, provider, provider_transaction_id, idempotency_key, amount_minor, status, failure, created_at
       FROM payment_transactions WHERE site_id = $1 AND order_id = $2 ORDER BY created_at, transaction_id`,
    [ctx.siteId, orderId],
  );
  return rows.map((r) => ({
    id: r.transaction_id,
    orderId: r.order_id,
    paymentId: r.payment_id,
    kind: r.kind,
    provider: r.provider,
    providerTransactionId: r.provider_transaction_id,
    idempotencyKey: r.idempotency_key,
    amount: BigInt(r.amount_minor),
    status: r.status,
    failure: r.failure,
    createdAt: new Date(r.created_at),
  }));
}

// Settings ----------------------------------------------------------------------------------------

export interface SettingsRow {
  provider: string;
  capture_policy: string;
  offline_methods: unknown;
  publishable_key: string | null;
  secret_key_sealed: string | null;
  secret_key_hint: string | null;
  webhook_secret_sealed: string | null;
  updated_at: Date;
  [key: string]: unknown;
}

export async function findSettings(ctx: SiteContext): Promise<SettingsRow | undefined> {
  const rows = await ctx.db.query<SettingsRow>(
    `SELECT provider, capture_policy, offline_methods, publishable_key, secret_key_sealed, secret_key_hint, webhook_secret_sealed, updated_at
       FROM payment_settings WHERE site_id = $1`,
    [ctx.siteId],
  );
  return rows[0];
}

export async function saveSettings(ctx: SiteContext, row: SettingsRow): Promise<void> {
  await ctx.db.query(
    `INSERT INTO payment_settings (site_id, provider, capture_policy, offline_methods, publishable_key, secret_key_sealed, secret_key_hint, webhook_secret_sealed, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (site_id) DO UPDATE SET provider = $2, capture_policy = $3, offline_methods = $4, publishable_key = $5, secret_key_sealed = $6,
       secret_key_hint = $7, webhook_secret_sealed = $8, updated_at = $9`,
    [ctx.siteId, row.provider, row.capture_policy, JSON.stringify(row.offline_methods), row.publishable_key, row.secret_key_sealed, row.secret_key_hint, row.webhook_secret_sealed, row.updated_at],
  );
}
