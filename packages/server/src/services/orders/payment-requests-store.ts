// SQL for order payment requests; nothing else.
import type { SiteContext } from '../../platform/context.js';

export type StoredStatus = 'UNPAID' | 'PAID' | 'VOIDED';

export interface PaymentRequestRow {
  id: string;
  orderId: string;
  orderNumber: string;
  status: StoredStatus;
  amount: bigint;
  currency: string;
  title: string;
  description: string | null;
  expiresAt: Date | null;
  source: { appId: string | null; externalId: string | null };
  createdDate: Date;
  updatedDate: Date;
  paidDate: Date | null;
}

interface Row {
  request_id: string;
  order_id: string;
  order_number: string;
  status: StoredStatus;
  amount_minor: string | number | bigint;
  currency: string;
  title: string;
  description: string | null;
  expires_at: Date | string | null;
  source_app_id: string | null;
  source_external_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  paid_at: Date | string | null;
  [key: string]: unknown;
}

const COLUMNS = 'request_id, order_id, order_number, status, amount_minor, currency, title, description, expires_at, source_app_id, source_external_id, created_at, updated_at, paid_at';

const date = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

function toRow(row: Row): PaymentRequestRow {
  return {
    id: row.request_id,
    orderId: row.order_id,
    orderNumber: row.order_number,
    status: row.status,
    amount: BigInt(row.amount_minor),
    currency: row.currency,
    title: row.title,
    description: row.description,
    expiresAt: date(row.expires_at),
    source: { appId: row.source_app_id, externalId: row.source_external_id },
    createdDate: new Date(row.created_at),
    updatedDate: new Date(row.updated_at),
    paidDate: date(row.paid_at),
  };
}

export async function insertRequest(ctx: SiteContext, r: PaymentRequestRow): Promise<void> {
  await ctx.db.query(
    `INSERT INTO order_payment_requests (site_id, ${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [ctx.siteId, r.id, r.orderId, r.orderNumber, r.status, r.amount.toString(), r.currency, r.title, r.description, r.expiresAt, r.source.appId, r.source.externalId, r.createdDate, r.updatedDate, r.paidDate],
  );
}

export async function findRequest(ctx: SiteContext, id: string, forUpdate = false): Promise<PaymentRequestRow | undefined> {
  const rows = await ctx.db.query<Row>(`SELECT ${COLUMNS} FROM order_payment_requests WHERE site_id = $1 AND request_id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [ctx.siteId, id]);
  return rows[0] && toRow(rows[0]);
}

/** Moves an UNPAID request on; false when it was no longer UNPAID (another call got there first). */
export async function settle(ctx: SiteContext, id: string, status: 'PAID' | 'VOIDED', at: Date): Promise<boolean> {
  const rows = await ctx.db.query<{ request_id: string }>(
    `UPDATE order_payment_requests SET status = $3, updated_at = $4, paid_at = CASE WHEN $3 = 'PAID' THEN $4 ELSE paid_at END
     WHERE site_id = $1 AND request_id = $2 AND status = 'UNPAID' RETURNING request_id`,
    [ctx.siteId, id, status, at],
  );
  return rows.length > 0;
}

export async function deleteRequest(ctx: SiteContext, id: string): Promise<boolean> {
  const rows = await ctx.db.query<{ request_id: string }>('DELETE FROM order_payment_requests WHERE site_id = $1 AND request_id = $2 RETURNING request_id', [ctx.siteId, id]);
  return rows.length > 0;
}

/** Newest first; `after` is the last row of the previous page. */
export async function listRequests(
  ctx: SiteContext, filter: { orderId?: string; status?: StoredStatus | 'EXPIRED' }, limit: number, after?: { createdDate: Date; id: string },
): Promise<PaymentRequestRow[]> {
  const params: unknown[] = [ctx.siteId, limit];
  let where = 'site_id = $1';
  if (filter.orderId) {
    params.push(filter.orderId);
    where += ` AND order_id = $${params.length}`;
  }
  if (filter.status === 'UNPAID' || filter.status === 'EXPIRED') {
    // An unpaid request past its expiry reads EXPIRED.
    params.push(ctx.now());
    where += filter.status === 'UNPAID' ? ` AND status = 'UNPAID' AND (expires_at IS NULL OR expires_at > $${params.length})` : ` AND status = 'UNPAID' AND expires_at <= $${params.length}`;
  } else if (filter.status) {
    params.push(filter.status);
    where += ` AND status = $${params.length}`;
  }
  if (after) {
    params.push(after.createdDate, after.id);
    where += ` AND (created_at, request_id) < ($${params.length - 1}, $${params.length})`;
  }
  const rows = await ctx.db.query<Row>(`SELECT ${COLUMNS} FROM order_payment_requests WHERE ${where} ORDER BY created_at DESC, request_id DESC LIMIT $2`, params);
  return rows.map(toRow);
}
