// SQL for draft orders; nothing else. A draft's content is its checkout's (services/checkout).
import type { SiteContext } from '../../platform/context.js';

export type EditingStatus = 'DRAFT' | 'COMMITTED';

export interface DraftOrderRow {
  id: string;
  status: EditingStatus;
  orderId: string | null;
  /** An edit of this placed order, made when the order had this revision. */
  edits?: { orderId: string; revision: string };
  createdBy: { kind: string; id: string };
  createdDate: Date;
  updatedDate: Date;
}

interface Row {
  draft_order_id: string;
  status: EditingStatus;
  order_id: string | null;
  edits_order_id: string | null;
  order_revision: string | null;
  created_by_kind: string;
  created_by_id: string;
  created_at: Date | string;
  updated_at: Date | string;
  [key: string]: unknown;
}

const COLUMNS = 'draft_order_id, status, order_id, edits_order_id, order_revision, created_by_kind, created_by_id, created_at, updated_at';

function toDraft(row: Row): DraftOrderRow {
  return {
    id: row.draft_order_id,
    status: row.status,
    orderId: row.order_id,
    ...(row.edits_order_id && { edits: { orderId: row.edits_order_id, revision: row.order_revision ?? '' } }),
    createdBy: { kind: row.created_by_kind, id: row.created_by_id },
    createdDate: new Date(row.created_at),
    updatedDate: new Date(row.updated_at),
  };
}

export async function insertDraft(ctx: SiteContext, draft: DraftOrderRow): Promise<void> {
  await ctx.db.query(
    `INSERT INTO draft_orders (site_id, ${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [ctx.siteId, draft.id, draft.status, draft.orderId, draft.edits?.orderId ?? null, draft.edits?.revision ?? null, draft.createdBy.kind, draft.createdBy.id, draft.createdDate, draft.updatedDate],
  );
}

export async function findDraft(ctx: SiteContext, id: string, forUpdate = false): Promise<DraftOrderRow | undefined> {
  const rows = await ctx.db.query<Row>(
    `SELECT ${COLUMNS} FROM draft_orders WHERE site_id = $1 AND draft_order_id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
    [ctx.siteId, id],
  );
  return rows[0] && toDraft(rows[0]);
}

export async function touchDraft(ctx: SiteContext, id: string, at: Date): Promise<void> {
  await ctx.db.query('UPDATE draft_orders SET updated_at = $3 WHERE site_id = $1 AND draft_order_id = $2', [ctx.siteId, id, at]);
}

export async function markCommitted(ctx: SiteContext, id: string, orderId: string, at: Date): Promise<void> {
  await ctx.db.query(
    "UPDATE draft_orders SET status = 'COMMITTED', order_id = $3, updated_at = $4 WHERE site_id = $1 AND draft_order_id = $2",
    [ctx.siteId, id, orderId, at],
  );
}

/** Deletes a draft that was never committed; false when there is none. */
export async function deleteDraft(ctx: SiteContext, id: string): Promise<boolean> {
  const rows = await ctx.db.query<{ draft_order_id: string }>(
    "DELETE FROM draft_orders WHERE site_id = $1 AND draft_order_id = $2 AND status = 'DRAFT' RETURNING draft_order_id",
    [ctx.siteId, id],
  );
  return rows.length > 0;
}

/** Newest first; `after` is the last row of the previous page. */
export async function listDrafts(
  ctx: SiteContext, filter: { status?: EditingStatus }, limit: number, after?: { createdDate: Date; id: string },
): Promise<DraftOrderRow[]> {
  const params: unknown[] = [ctx.siteId, limit];
  let where = 'site_id = $1';
  if (filter.status) {
    params.push(filter.status);
    where += ` AND status = $${params.length}`;
  }
  if (after) {
    params.push(after.createdDate, after.id);
    where += ` AND (created_at, draft_order_id) < ($${params.length - 1}, $${params.length})`;
  }
  const rows = await ctx.db.query<Row>(`SELECT ${COLUMNS} FROM draft_orders WHERE ${where} ORDER BY created_at DESC, draft_order_id DESC LIMIT $2`, params);
  return rows.map(toDraft);
}

/** An edit changes the order's total (a column searches, lists and the dashboard read). */
export async function setOrderTotal(ctx: SiteContext, orderId: string, total: bigint): Promise<void> {
  await ctx.db.query('UPDATE orders SET total_minor = $3 WHERE site_id = $1 AND order_id = $2', [ctx.siteId, orderId, total.toString()]);
}
