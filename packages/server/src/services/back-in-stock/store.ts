// SQL for back-in-stock notification requests.
import type { SiteContext } from '../../platform/context.js';
import type { CatalogOptions } from '../catalog/service.js';

export type RequestStatus = 'RECEIVED' | 'NOTIFICATION_SENT';

export interface StockRequest {
  id: string;
  productId: string;
  variantId: string | null;
  catalogOptions: CatalogOptions | null;
  email: string;
  contactId: string | null;
  status: RequestStatus;
  autoNotified: boolean | null;
  itemName: string;
  itemPrice: string | null;
  itemImage: string | null;
  itemUrl: string | null;
  createdDate: Date;
  notifiedDate: Date | null;
}

interface Row {
  [key: string]: unknown;
  request_id: string;
  product_id: string;
  variant_id: string | null;
  catalog_options: CatalogOptions | null;
  email: string;
  contact_id: string | null;
  status: RequestStatus;
  auto_notified: boolean | null;
  item_name: string;
  item_price: string | null;
  item_image: string | null;
  item_url: string | null;
  created_at: Date;
  notified_at: Date | null;
}

const COLUMNS = `request_id, product_id, variant_id, catalog_options, email, contact_id, status, auto_notified, item_name, item_price, item_image,
  item_url, created_at, notified_at`;

function toRequest(r: Row): StockRequest {
  return {
    id: r.request_id, productId: r.product_id, variantId: r.variant_id, catalogOptions: r.catalog_options, email: r.email, contactId: r.contact_id,
    status: r.status, autoNotified: r.auto_notified, itemName: r.item_name, itemPrice: r.item_price, itemImage: r.item_image, itemUrl: r.item_url,
    createdDate: new Date(r.created_at), notifiedDate: r.notified_at && new Date(r.notified_at),
  };
}

/** Inserts a request, or answers the waiting one of the same e-mail and variant. */
export async function insertRequest(ctx: SiteContext, r: StockRequest): Promise<StockRequest> {
  const inserted = await ctx.db.query<Row>(
    `INSERT INTO back_in_stock_requests (site_id, request_id, product_id, variant_id, catalog_options, email, contact_id, status, item_name, item_price,
       item_image, item_url, created_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, 'RECEIVED', $8, $9, $10, $11, $12)
     ON CONFLICT (site_id, product_id, COALESCE(variant_id, ''), lower(email)) WHERE status = 'RECEIVED' DO NOTHING RETURNING ${COLUMNS}`,
    [ctx.siteId, r.id, r.productId, r.variantId, r.catalogOptions && JSON.stringify(r.catalogOptions), r.email, r.contactId, r.itemName, r.itemPrice,
      r.itemImage, r.itemUrl, r.createdDate],
  );
  if (inserted[0]) return toRequest(inserted[0]);
  const waiting = await ctx.db.query<Row>(
    `SELECT ${COLUMNS} FROM back_in_stock_requests WHERE site_id = $1 AND product_id = $2 AND COALESCE(variant_id, '') = COALESCE($3::text, '')
       AND lower(email) = lower($4) AND status = 'RECEIVED'`,
    [ctx.siteId, r.productId, r.variantId, r.email],
  );
  return toRequest(waiting[0]);
}

export async function findRequest(ctx: SiteContext, requestId: string): Promise<StockRequest | undefined> {
  const rows = await ctx.db.query<Row>(`SELECT ${COLUMNS} FROM back_in_stock_requests WHERE site_id = $1 AND request_id = $2`, [ctx.siteId, requestId]);
  return rows[0] && toRequest(rows[0]);
}

export async function deleteRequest(ctx: SiteContext, requestId: string): Promise<boolean> {
  const rows = await ctx.db.query('DELETE FROM back_in_stock_requests WHERE site_id = $1 AND request_id = $2 RETURNING request_id', [ctx.siteId, requestId]);
  return rows.length === 1;
}

/**
 * Marks waiting requests sent and returns them: those of the product's variants now in stock
 * (`variantIds`), or all of the product's (`variantIds` null), or one request (`requestId`).
 * The conditional UPDATE is the claim: a request is returned to exactly one caller, once.
 */
export async function claimWaiting(ctx: SiteContext, by: { productId: string; variantIds: readonly string[] | null } | { requestId: string }, auto: boolean, at: Date): Promise<StockRequest[]> {
  const params: unknown[] = [ctx.siteId, auto, at];
  let where: string;
  if ('requestId' in by) {
    params.push(by.requestId);
    where = 'request_id = $4';
  } else {
    params.push(by.productId);
    where = 'product_id = $4';
    if (by.variantIds !== null) {
      params.push(by.variantIds);
      where += ' AND (variant_id = ANY($5::text[]) OR (variant_id IS NULL AND cardinality($5::text[]) > 0))';
    }
  }
  const rows = await ctx.db.query<Row>(
    `UPDATE back_in_stock_requests SET status = 'NOTIFICATION_SENT', auto_notified = $2, notified_at = $3
     WHERE site_id = $1 AND status = 'RECEIVED' AND ${where} RETURNING ${COLUMNS}`,
    params,
  );
  return rows.map(toRequest);
}

export async function queryRequests(ctx: SiteContext, q: { where: string; params: unknown[]; limit: number; offset: number }): Promise<StockRequest[]> {
  const rows = await ctx.db.query<Row>(
    `SELECT ${COLUMNS} FROM back_in_stock_requests r WHERE r.site_id = $1 AND ${q.where} ORDER BY r.created_at DESC, r.request_id DESC LIMIT ${q.limit} OFFSET ${q.offset}`,
    q.params,
  );
  return rows.map(toRequest);
}
