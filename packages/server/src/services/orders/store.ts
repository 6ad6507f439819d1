// SQL for orders; nothing else. The snapshot lives in `doc` with bigints as {"$bigint": "…"} and
// dates as ISO strings; states and amounts that calls filter on or change are columns.
import type { SiteContext } from '../../platform/context.js';
import type { Order } from './model.js';

type Doc = Omit<Order, 'id' | 'number' | 'checkoutId' | 'buyer' | 'email' | 'status' | 'paymentStatus' | 'fulfillmentStatus' | 'currency' | 'paid' | 'refunded' | 'stockState' | 'archived' | 'purchasedDate' | 'createdDate' | 'updatedDate'>;

function encode(value: unknown): unknown {
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (value instanceof Date) return { $date: value.toISOString() };
  if (Array.isArray(value)) return value.map(encode);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, encode(v)]));
  return value;
}

function decode(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length === 1 && keys[0] === '$bigint' && typeof record.$bigint === 'string') return BigInt(record.$bigint);
    if (keys.length === 1 && keys[0] === '$date' && typeof record.$date === 'string') return new Date(record.$date);
    return Object.fromEntries(keys.map((k) => [k, decode(record[k])]));
  }
  return value;
}

export interface OrderRow {
  order_id: string;
  number: number | string;
  checkout_id: string | null;
  buyer_kind: Order['buyer']['kind'];
  buyer_id: string;
  email: string | null;
  status: Order['status'];
  payment_status: Order['paymentStatus'];
  fulfillment_status: Order['fulfillmentStatus'];
  currency: string;
  total_minor: number | string;
  paid_minor: number | string;
  refunded_minor: number | string;
  stock_state: Order['stockState'];
  archived: boolean;
  doc: unknown;
  purchased_at: Date | null;
  created_at: Date;
  updated_at: Date;
  [key: string]: unknown;
}

export const ORDER_COLUMNS = `o.order_id, o.number, o.checkout_id, o.buyer_kind, o.buyer_id, o.email, o.status, o.payment_status,
  o.fulfillment_status, o.currency, o.total_minor, o.paid_minor, o.refunded_minor, o.stock_state, o.archived, o.doc,
  o.purchased_at, o.created_at, o.updated_at`;

export function toOrder(row: OrderRow): Order {
  const doc = decode(row.doc) as Doc;
  return {
    ...doc,
    id: row.order_id,
    number: Number(row.number),
    checkoutId: row.checkout_id,
    buyer: { kind: row.buyer_kind, id: row.buyer_id },
    email: row.email,
    status: row.status,
    paymentStatus: row.payment_status,
    fulfillmentStatus: row.fulfillment_status,
    currency: row.currency,
    paid: BigInt(row.paid_minor),
    refunded: BigInt(row.refunded_minor),
    stockState: row.stock_state,
    archived: row.archived,
    purchasedDate: row.purchased_at && new Date(row.purchased_at),
    createdDate: new Date(row.created_at),
    updatedDate: new Date(row.updated_at),
  };
}

export function docOf(order: Order): string {
  const {
    id: _id, number: _number, checkoutId: _checkout, buyer: _buyer, email: _email, status: _status, paymentStatus: _ps,
    fulfillmentStatus: _fs, currency: _currency, paid: _paid, refunded: _refunded, stockState: _stock, archived: _archived,
    purchasedDate: _purchased, createdDate: _created, updatedDate: _updated, ...doc
  } = order;
  return JSON.stringify(encode(doc));
}

/** The next order number of the site (locks the site's counter row until commit: numbers have no gaps). */
export async function nextOrderNumber(ctx: SiteContext, first: number): Promise<number> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query<{ value: number | string }>(
    `INSERT INTO commerce_counters (site_id, name, value) VALUES ($1, 'order_number', $2)
     ON CONFLICT (site_id, name) DO UPDATE SET value = commerce_counters.value + 1 RETURNING value`,
    [siteId, first],
  );
  return Number(rows[0].value);
}

export async function insertOrder(ctx: SiteContext, order: Order): Promise<void> {
  const { db: tx, siteId } = ctx;
  await tx.query(
    `INSERT INTO orders (site_id, order_id, number, checkout_id, buyer_kind, buyer_id, email, status, payment_status, fulfillment_status,
       currency, total_minor, paid_minor, refunded_minor, stock_state, archived, doc, purchased_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17::jsonb, $18, $19, $20)`,
    [siteId, order.id, order.number, order.checkoutId, order.buyer.kind, order.buyer.id, order.email, order.status, order.paymentStatus,
      order.fulfillmentStatus, order.currency, order.totals.total.toString(), order.paid.toString(), order.refunded.toString(),
      order.stockState, order.archived, docOf(order), order.purchasedDate, order.createdDate, order.updatedDate],
  );
}

export async function updateOrder(ctx: SiteContext, order: Order): Promise<void> {
  const { db: tx, siteId } = ctx;
  await tx.query(
    `UPDATE orders SET status = $3, payment_status = $4, fulfillment_status = $5, paid_minor = $6, refunded_minor = $7,
       stock_state = $8, archived = $9, doc = $10::jsonb, updated_at = $11, email = $12
     WHERE site_id = $1 AND order_id = $2`,
    [siteId, order.id, order.status, order.paymentStatus, order.fulfillmentStatus, order.paid.toString(), order.refunded.toString(),
      order.stockState, order.archived, docOf(order), order.updatedDate, order.email],
  );
}

/** A refund's row for the dashboard's sums by the day it was made (the order's document holds the rest). */
export async function insertRefund(ctx: SiteContext, orderId: string, refund: { id: string; amount: bigint; createdDate: Date }): Promise<void> {
  await ctx.db.query(
    'INSERT INTO order_refunds (site_id, order_id, refund_id, amount_minor, created_at) VALUES ($1, $2, $3, $4, $5)',
    [ctx.siteId, orderId, refund.id, refund.amount.toString(), refund.createdDate],
  );
}

/** A refund the provider failed no longer counts on the dashboard: its row loses that amount. */
export async function reduceRefund(ctx: SiteContext, orderId: string, refundId: string, amount: bigint): Promise<void> {
  await ctx.db.query(
    'UPDATE order_refunds SET amount_minor = amount_minor - $4 WHERE site_id = $1 AND order_id = $2 AND refund_id = $3',
    [ctx.siteId, orderId, refundId, amount.toString()],
  );
}

export async function findOrder(ctx: SiteContext, orderId: string, forUpdate = false): Promise<Order | undefined> {
  const { db, siteId } = ctx;
  const rows = await db.query<OrderRow>(`SELECT ${ORDER_COLUMNS} FROM orders o WHERE o.site_id = $1 AND o.order_id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [siteId, orderId]);
  return rows[0] && toOrder(rows[0]);
}

export async function findOrderByCheckout(ctx: SiteContext, checkoutId: string): Promise<Order | undefined> {
  const { db, siteId } = ctx;
  const rows = await db.query<OrderRow>(`SELECT ${ORDER_COLUMNS} FROM orders o WHERE o.site_id = $1 AND o.checkout_id = $2`, [siteId, checkoutId]);
  return rows[0] && toOrder(rows[0]);
}

/** A page of orders; `params` starts with the site id as $1. */
export async function searchOrders(
  ctx: SiteContext,
  query: { where: string; params: unknown[]; orderBy: string; sortColumns?: readonly string[]; limit: number },
): Promise<{ orders: Order[]; sortValues: Record<string, unknown>[] }> {
  const rows = await ctx.db.query<OrderRow>(
    `SELECT ${[ORDER_COLUMNS, ...(query.sortColumns ?? [])].join(', ')} FROM orders o WHERE o.site_id = $1 AND ${query.where} ORDER BY ${query.orderBy} LIMIT ${query.limit}`,
    query.params,
  );
  return { orders: rows.map(toOrder), sortValues: rows };
}

/** A paid or fulfilled, not canceled order of the buyer with a line of this product. */
export async function hasBought(ctx: SiteContext, buyer: { kind: string; id: string }, productId: string): Promise<boolean> {
  const rows = await ctx.db.query<{ found: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM orders o WHERE o.site_id = $1 AND o.buyer_kind = $2 AND o.buyer_id = $3 AND o.status <> 'CANCELED'
       AND (o.payment_status IN ('PAID', 'PARTIALLY_REFUNDED', 'FULLY_REFUNDED') OR o.fulfillment_status = 'FULFILLED')
       AND EXISTS (SELECT 1 FROM jsonb_array_elements(o.doc->'lines') l WHERE l->>'productId' = $4)) AS found`,
    [ctx.siteId, buyer.kind, buyer.id, productId],
  );
  return rows[0]?.found === true;
}
