// SQL for digital goods: the files on products, each product's link rules, and the download grants
// a paid order gets (one per order line and file).
import type { SiteContext } from '../../platform/context.js';

export interface DigitalFile {
  id: string;
  productId: string;
  variantId: string | null;
  fileName: string;
  contentType: string;
  size: number;
  storageKey: string;
  createdDate: Date;
}

export interface LinkRules {
  /** How long a link works after it is issued. */
  linkDays: number;
  /** How many downloads an order line gets of each file. */
  maxDownloads: number;
}

export interface Grant {
  id: string;
  orderId: string;
  orderNumber: number;
  lineItemId: string;
  fileId: string;
  buyer: { kind: string; id: string };
  buyerEmail: string | null;
  productName: string;
  linkDays: number;
  maxDownloads: number;
  downloads: number;
  lastDownloadAt: Date | null;
  createdDate: Date;
}

type FileRow = {
  file_id: string; product_id: string; variant_id: string | null; file_name: string; content_type: string; size_bytes: string | number; storage_key: string; created_at: Date;
};

const FILE_COLUMNS = 'file_id, product_id, variant_id, file_name, content_type, size_bytes, storage_key, created_at';

function toFile(r: FileRow): DigitalFile {
  return {
    id: r.file_id, productId: r.product_id, variantId: r.variant_id, fileName: r.file_name, contentType: r.content_type,
    size: Number(r.size_bytes), storageKey: r.storage_key, createdDate: new Date(r.created_at),
  };
}

export async function insertFile(ctx: SiteContext, file: DigitalFile): Promise<void> {
  await ctx.db.query(
    `INSERT INTO digital_files (site_id, ${FILE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [ctx.siteId, file.id, file.productId, file.variantId, file.fileName, file.contentType, file.size, file.storageKey, file.createdDate],
  );
}

export async function filesOfProduct(ctx: SiteContext, productId: string): Promise<DigitalFile[]> {
  const rows = await ctx.db.query<FileRow>(`SELECT ${FILE_COLUMNS} FROM digital_files WHERE site_id = $1 AND product_id = $2 ORDER BY created_at, file_id`, [ctx.siteId, productId]);
  return rows.map(toFile);
}

export async function findFile(ctx: SiteContext, fileId: string): Promise<DigitalFile | undefined> {
  const rows = await ctx.db.query<FileRow>(`SELECT ${FILE_COLUMNS} FROM digital_files WHERE site_id = $1 AND file_id = $2`, [ctx.siteId, fileId]);
  return rows[0] && toFile(rows[0]);
}

export async function filesByIds(ctx: SiteContext, fileIds: readonly string[]): Promise<Map<string, DigitalFile>> {
  if (fileIds.length === 0) return new Map();
  const rows = await ctx.db.query<FileRow>(`SELECT ${FILE_COLUMNS} FROM digital_files WHERE site_id = $1 AND file_id = ANY($2::text[])`, [ctx.siteId, [...fileIds]]);
  return new Map(rows.map((r) => [r.file_id, toFile(r)]));
}

export async function deleteFile(ctx: SiteContext, fileId: string): Promise<boolean> {
  const rows = await ctx.db.query<{ file_id: string }>('DELETE FROM digital_files WHERE site_id = $1 AND file_id = $2 RETURNING file_id', [ctx.siteId, fileId]);
  return rows.length > 0;
}

export async function readRules(ctx: SiteContext, productId: string): Promise<LinkRules | undefined> {
  const rows = await ctx.db.query<{ link_days: number; max_downloads: number }>(
    'SELECT link_days, max_downloads FROM digital_product_rules WHERE site_id = $1 AND product_id = $2', [ctx.siteId, productId]);
  return rows[0] && { linkDays: rows[0].link_days, maxDownloads: rows[0].max_downloads };
}

export async function writeRules(ctx: SiteContext, productId: string, rules: LinkRules): Promise<void> {
  await ctx.db.query(
    `INSERT INTO digital_product_rules (site_id, product_id, link_days, max_downloads) VALUES ($1, $2, $3, $4)
     ON CONFLICT (site_id, product_id) DO UPDATE SET link_days = EXCLUDED.link_days, max_downloads = EXCLUDED.max_downloads`,
    [ctx.siteId, productId, rules.linkDays, rules.maxDownloads],
  );
}

type GrantRow = {
  grant_id: string; order_id: string; order_number: string | number; line_item_id: string; file_id: string; buyer_kind: string; buyer_id: string;
  buyer_email: string | null; product_name: string; link_days: number; max_downloads: number; downloads: number; last_download_at: Date | null; created_at: Date;
};

const GRANT_COLUMNS = `grant_id, order_id, order_number, line_item_id, file_id, buyer_kind, buyer_id, buyer_email, product_name, link_days,
  max_downloads, downloads, last_download_at, created_at`;

function toGrant(r: GrantRow): Grant {
  return {
    id: r.grant_id, orderId: r.order_id, orderNumber: Number(r.order_number), lineItemId: r.line_item_id, fileId: r.file_id,
    buyer: { kind: r.buyer_kind, id: r.buyer_id }, buyerEmail: r.buyer_email, productName: r.product_name, linkDays: r.link_days,
    maxDownloads: r.max_downloads, downloads: r.downloads, lastDownloadAt: r.last_download_at && new Date(r.last_download_at), createdDate: new Date(r.created_at),
  };
}

/** Inserts a grant unless the order line already has one for the file; true when inserted. */
export async function insertGrant(ctx: SiteContext, g: Grant): Promise<boolean> {
  const rows = await ctx.db.query<{ grant_id: string }>(
    `INSERT INTO digital_grants (site_id, ${GRANT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
     ON CONFLICT (site_id, order_id, line_item_id, file_id) DO NOTHING RETURNING grant_id`,
    [ctx.siteId, g.id, g.orderId, g.orderNumber, g.lineItemId, g.fileId, g.buyer.kind, g.buyer.id, g.buyerEmail, g.productName, g.linkDays,
      g.maxDownloads, g.downloads, g.lastDownloadAt, g.createdDate],
  );
  return rows.length > 0;
}

export async function findGrant(ctx: SiteContext, grantId: string): Promise<Grant | undefined> {
  const rows = await ctx.db.query<GrantRow>(`SELECT ${GRANT_COLUMNS} FROM digital_grants WHERE site_id = $1 AND grant_id = $2`, [ctx.siteId, grantId]);
  return rows[0] && toGrant(rows[0]);
}

export async function grantsOfOrder(ctx: SiteContext, orderId: string): Promise<Grant[]> {
  const rows = await ctx.db.query<GrantRow>(`SELECT ${GRANT_COLUMNS} FROM digital_grants WHERE site_id = $1 AND order_id = $2 ORDER BY created_at, grant_id`, [ctx.siteId, orderId]);
  return rows.map(toGrant);
}

export async function grantsOfOrderNumber(ctx: SiteContext, orderNumber: number): Promise<Grant[]> {
  const rows = await ctx.db.query<GrantRow>(`SELECT ${GRANT_COLUMNS} FROM digital_grants WHERE site_id = $1 AND order_number = $2 ORDER BY created_at, grant_id`, [ctx.siteId, orderNumber]);
  return rows.map(toGrant);
}

export async function grantsOfBuyer(ctx: SiteContext, buyer: { kind: string; id: string }, limit: number): Promise<Grant[]> {
  const rows = await ctx.db.query<GrantRow>(
    `SELECT ${GRANT_COLUMNS} FROM digital_grants WHERE site_id = $1 AND buyer_kind = $2 AND buyer_id = $3 ORDER BY created_at DESC, grant_id LIMIT ${limit}`,
    [ctx.siteId, buyer.kind, buyer.id],
  );
  return rows.map(toGrant);
}

/** Counts one download if any is left (one conditional UPDATE: concurrent calls never pass the limit); the new count, or undefined. */
export async function countDownload(ctx: SiteContext, grantId: string, at: Date): Promise<number | undefined> {
  const rows = await ctx.db.query<{ downloads: number }>(
    `UPDATE digital_grants SET downloads = downloads + 1, last_download_at = $3
     WHERE site_id = $1 AND grant_id = $2 AND downloads < max_downloads RETURNING downloads`,
    [ctx.siteId, grantId, at],
  );
  return rows[0]?.downloads;
}
