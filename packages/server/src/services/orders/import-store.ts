// SQL of the order import: finding an imported order by its source's id, the order number an
// import keeps, and replacing an imported order. The orders table itself is store.ts's.
import type { SiteContext } from '../../platform/context.js';
import { cellsOf, rowBatches, storedCells, type StoredCells } from '../../platform/failure-rows.js';
import type { Order } from './model.js';
import { docOf, ORDER_COLUMNS, toOrder, type OrderRow } from './store.js';

/** The order imported before from this channel's order id (orders_by_external_id). */
export async function findImported(ctx: SiteContext, channelType: string, externalOrderId: string): Promise<Order | undefined> {
  const rows = await ctx.db.query<OrderRow>(
    `SELECT ${ORDER_COLUMNS} FROM orders o
     WHERE o.site_id = $1 AND o.doc ? 'imported' AND (o.doc->>'channelType') = $2 AND (o.doc#>>'{imported,externalOrderId}') = $3`,
    [ctx.siteId, channelType, externalOrderId],
  );
  return rows[0] && toOrder(rows[0]);
}

export async function numberTaken(ctx: SiteContext, number: number, exceptOrderId?: string): Promise<boolean> {
  const rows = await ctx.db.query<{ taken: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM orders WHERE site_id = $1 AND number = $2 AND order_id IS DISTINCT FROM $3) AS taken',
    [ctx.siteId, number, exceptOrderId ?? null],
  );
  return rows[0]?.taken === true;
}

/**
 * An imported order keeps its number; the site's order counter (the last number given) moves up to
 * it when it is higher, so web orders continue after the highest number and never collide. A site
 * without a counter yet starts it at `first - 1` at least. Locks the counter row until commit, as
 * placing an order does.
 */
export async function raiseOrderCounter(ctx: SiteContext, number: number, first: number): Promise<void> {
  await ctx.db.query(
    `INSERT INTO commerce_counters (site_id, name, value) VALUES ($1, 'order_number', GREATEST($2::bigint, $3::bigint))
     ON CONFLICT (site_id, name) DO UPDATE SET value = GREATEST(commerce_counters.value, $3::bigint)`,
    [ctx.siteId, first - 1, number],
  );
}

/** Replaces an imported order with a new import of it (the caller holds its row lock). */
export async function replaceOrder(ctx: SiteContext, order: Order): Promise<void> {
  await ctx.db.query(
    `UPDATE orders SET number = $3, email = $4, status = $5, payment_status = $6, fulfillment_status = $7, currency = $8,
       total_minor = $9, paid_minor = $10, refunded_minor = $11, stock_state = $12, doc = $13::jsonb, purchased_at = $14,
       created_at = $15, updated_at = $16
     WHERE site_id = $1 AND order_id = $2`,
    [ctx.siteId, order.id, order.number, order.email, order.status, order.paymentStatus, order.fulfillmentStatus, order.currency,
      order.totals.total.toString(), order.paid.toString(), order.refunded.toString(), order.stockState, docOf(order),
      order.purchasedDate, order.createdDate, order.updatedDate],
  );
}

/** The last order number given (locks the counter row until commit); `first - 1` on a site without orders yet. */
export async function lockOrderCounter(ctx: SiteContext, first: number): Promise<number> {
  const rows = await ctx.db.query<{ value: number | string }>(
    `INSERT INTO commerce_counters (site_id, name, value) VALUES ($1, 'order_number', $2)
     ON CONFLICT (site_id, name) DO UPDATE SET value = commerce_counters.value RETURNING value`,
    [ctx.siteId, first - 1],
  );
  return Number(rows[0].value);
}

export async function setOrderCounter(ctx: SiteContext, last: number): Promise<void> {
  await ctx.db.query(`UPDATE commerce_counters SET value = $2 WHERE site_id = $1 AND name = 'order_number'`, [ctx.siteId, last]);
}

export async function highestOrderNumber(ctx: SiteContext): Promise<number> {
  const rows = await ctx.db.query<{ highest: number | string | null }>('SELECT max(number) AS highest FROM orders WHERE site_id = $1', [ctx.siteId]);
  return Number(rows[0]?.highest ?? 0);
}

/** One file import's counts and every row of the orders it refused (the failures file). */
export interface ImportFileRecord {
  importId: string;
  format: 'csv' | 'json';
  orders: number;
  imported: number;
  alreadyImported: number;
  failed: number;
  createdAt: Date;
}

export interface ImportFailureRow {
  row: number;
  externalOrderId?: string;
  code: string;
  error: string;
  data: Record<string, unknown>;
}

export async function insertImportFile(ctx: SiteContext, file: ImportFileRecord, failures: readonly ImportFailureRow[]): Promise<void> {
  await ctx.db.query(
    `INSERT INTO order_import_files (site_id, import_id, format, orders, imported, already_imported, failed, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [ctx.siteId, file.importId, file.format, file.orders, file.imported, file.alreadyImported, file.failed, file.createdAt],
  );
  if (!failures.length) return;
  await ctx.db.query(
    `INSERT INTO order_import_failures (site_id, import_id, row_number, external_order_id, code, error, data)
     SELECT $1, $2, f.row_number, f.external_order_id, f.code, f.error, f.data
     FROM jsonb_to_recordset($3::jsonb) AS f(row_number integer, external_order_id text, code text, error text, data jsonb)`,
    [ctx.siteId, file.importId, JSON.stringify(failures.map((f) => ({
      row_number: f.row, external_order_id: f.externalOrderId ?? null, code: f.code, error: f.error, data: storedCells(f.data),
    })))],
  );
}

export async function importFileExists(ctx: SiteContext, importId: string): Promise<boolean> {
  const rows = await ctx.db.query<{ found: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM order_import_files WHERE site_id = $1 AND import_id = $2) AS found', [ctx.siteId, importId]);
  return rows[0]?.found === true;
}

/** The refused rows of one file import, in the file's order, a batch at a time. */
export function importFailures(ctx: SiteContext, importId: string, batch = 1000): AsyncGenerator<ImportFailureRow[]> {
  return rowBatches(
    (after, limit) => ctx.db.query<{ row_number: number; external_order_id: string | null; code: string; error: string; data: StoredCells }>(
      `SELECT row_number, external_order_id, code, error, data FROM order_import_failures
       WHERE site_id = $1 AND import_id = $2 AND row_number > $3 ORDER BY row_number LIMIT $4`,
      [ctx.siteId, importId, after, limit]),
    (r) => ({
      row: r.row_number, code: r.code, error: r.error, data: cellsOf(r.data), ...(r.external_order_id !== null && { externalOrderId: r.external_order_id }),
    }),
    batch,
  );
}
