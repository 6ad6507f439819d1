// Reads for the back office (services/backoffice): the dashboard's aggregates, the command
// palette's search and the CSV export's batches. SQL on the orders table only; every query is
// scoped to the context's site.
import type { SiteContext } from '../../platform/context.js';
import type { Order } from './model.js';
import * as store from './store.js';

/** Orders that count as sales: placed and not canceled or rejected. */
const COUNTED = "o.status NOT IN ('CANCELED', 'REJECTED')";
const NOT_COUNTED = "o.status IN ('CANCELED', 'REJECTED')";
const UNPAID = "o.payment_status IN ('NOT_PAID', 'PENDING', 'PARTIALLY_PAID', 'PENDING_MERCHANT')";
const UNFULFILLED = "o.fulfillment_status IN ('NOT_FULFILLED', 'PARTIALLY_FULFILLED')";

export interface DaySales {
  /** YYYY-MM-DD in the asked time zone. */
  date: string;
  /** Orders placed that day, and their totals. */
  orders: number;
  revenue: bigint;
  /** Refunds made that day, whichever day their orders were placed. */
  refunds: bigint;
}

/**
 * Per day from `from` to `to` (inclusive dates in `timeZone`): the orders placed and their totals,
 * and the refunds made (of orders that count as sales). Days with neither are left out.
 */
export async function salesPerDay(ctx: SiteContext, range: { from: string; to: string; timeZone: string }): Promise<DaySales[]> {
  // Grouped by the local date's text: the planner hashes the few groups instead of sorting every
  // row of the range (the days are put in order here). Each side reads one covering index
  // (orders_sales, order_refunds_by_time); the refunds of canceled orders are left out through the
  // small orders_not_counted index, not by reading every order's status.
  const rows = await ctx.db.query<{ day: string; orders: string | number | null; revenue: string | number | null; refunds: string | number | null }>(
    `WITH placed AS (
       SELECT ((o.created_at AT TIME ZONE $2)::date)::text AS day, count(*) AS orders, sum(o.total_minor) AS revenue
         FROM orders o
        WHERE o.site_id = $1 AND ${COUNTED}
          AND o.created_at >= ($3::date)::timestamp AT TIME ZONE $2
          AND o.created_at < ($4::date + 1)::timestamp AT TIME ZONE $2
        GROUP BY 1
     ), refunded AS (
       SELECT ((r.created_at AT TIME ZONE $2)::date)::text AS day, sum(r.amount_minor) AS refunds
         FROM order_refunds r
        WHERE r.site_id = $1
          AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.site_id = r.site_id AND o.order_id = r.order_id AND ${NOT_COUNTED})
          AND r.created_at >= ($3::date)::timestamp AT TIME ZONE $2
          AND r.created_at < ($4::date + 1)::timestamp AT TIME ZONE $2
        GROUP BY 1
     )
     SELECT day, placed.orders, placed.revenue, refunded.refunds FROM placed FULL JOIN refunded USING (day)`,
    [ctx.siteId, range.timeZone, range.from, range.to],
  );
  rows.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  return rows.map((r) => ({ date: r.day, orders: Number(r.orders ?? 0), revenue: BigInt(r.revenue ?? 0), refunds: BigInt(r.refunds ?? 0) }));
}

/** Orders waiting for payment and for fulfilment (canceled ones excluded). */
export async function openCounts(ctx: SiteContext): Promise<{ unpaid: number; unfulfilled: number }> {
  const rows = await ctx.db.query<{ unpaid: string | number; unfulfilled: string | number }>(
    `SELECT (SELECT count(*) FROM orders o WHERE o.site_id = $1 AND ${COUNTED} AND ${UNPAID}) AS unpaid,
            (SELECT count(*) FROM orders o WHERE o.site_id = $1 AND ${COUNTED} AND ${UNFULFILLED}) AS unfulfilled`,
    [ctx.siteId],
  );
  return { unpaid: Number(rows[0].unpaid), unfulfilled: Number(rows[0].unfulfilled) };
}

export async function recentOrders(ctx: SiteContext, limit: number): Promise<Order[]> {
  return (await store.searchOrders(ctx, { where: 'TRUE', params: [ctx.siteId], orderBy: 'o.created_at DESC, o.order_id DESC', limit })).orders;
}

/** The command palette: an order by its number, or by the start of the buyer's e-mail. */
export async function findOrdersBrief(ctx: SiteContext, q: string, limit: number): Promise<Order[]> {
  const params: unknown[] = [ctx.siteId, `${escapeLike(q.toLowerCase())}%`];
  let where = 'lower(o.email) LIKE $2';
  if (/^\d{1,15}$/.test(q)) {
    params.push(Number(q));
    where = `(o.number = $3 OR ${where})`;
  }
  return (await store.searchOrders(ctx, { where, params, orderBy: 'o.created_at DESC, o.order_id DESC', limit })).orders;
}

export interface OrderExportFilters {
  paymentStatus?: string;
  fulfillmentStatus?: string;
  from?: Date;
  to?: Date;
  q?: string;
}

/** Every order matching the list's filters, newest first, a batch at a time (keyset paging). */
export async function* ordersForExport(ctx: SiteContext, filters: OrderExportFilters, batch = 500): AsyncGenerator<Order[]> {
  const params: unknown[] = [ctx.siteId];
  const push = (value: unknown) => `$${params.push(value)}`;
  const where: string[] = [];
  if (filters.paymentStatus) where.push(`o.payment_status = ${push(filters.paymentStatus)}`);
  if (filters.fulfillmentStatus) where.push(`o.fulfillment_status = ${push(filters.fulfillmentStatus)}`);
  if (filters.from) where.push(`o.created_at >= ${push(filters.from)}`);
  if (filters.to) where.push(`o.created_at < ${push(filters.to)}`);
  if (filters.q) {
    const q = filters.q.trim();
    where.push(/^\d{1,15}$/.test(q) ? `o.number = ${push(Number(q))}` : `lower(o.email) LIKE ${push(`${escapeLike(q.toLowerCase())}%`)}`);
  }
  let after: { created: Date; id: string } | undefined;
  for (;;) {
    const page = [...params];
    const conditions = [...where];
    if (after) conditions.push(`(o.created_at, o.order_id) < ($${page.push(after.created)}, $${page.push(after.id)})`);
    const { orders } = await store.searchOrders(ctx, { where: conditions.length ? conditions.join(' AND ') : 'TRUE', params: page, orderBy: 'o.created_at DESC, o.order_id DESC', limit: batch });
    if (orders.length) yield orders;
    if (orders.length < batch) return;
    const last = orders[orders.length - 1];
    after = { created: last.createdDate, id: last.id };
  }
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
