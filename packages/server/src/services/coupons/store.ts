// SQL for a site's coupons; nothing else.
import type { SiteContext } from '../../platform/context.js';
import { prepared } from '../../platform/db.js';
import type { Coupon } from './model.js';

interface CouponRow {
  coupon_id: string;
  code: string;
  name: string;
  discount_type: 'PERCENT' | 'AMOUNT';
  percent: string | null;
  amount_minor: number | string | null;
  minimum_subtotal_minor: number | string | null;
  valid_from: Date | null;
  valid_until: Date | null;
  usage_limit: number | null;
  times_used: number;
  product_ids: string[];
  active: boolean;
  created_at: Date;
  [key: string]: unknown;
}

const COUPON_COLUMNS = `coupon_id, code, name, discount_type, percent, amount_minor, minimum_subtotal_minor, valid_from, valid_until,
  usage_limit, times_used, product_ids, active, created_at`;

function toCoupon(row: CouponRow): Coupon {
  return {
    id: row.coupon_id,
    code: row.code,
    name: row.name,
    discount: row.discount_type === 'PERCENT' ? { type: 'PERCENT', percent: row.percent ?? '0' } : { type: 'AMOUNT', amount: BigInt(row.amount_minor ?? 0) },
    minimumSubtotal: row.minimum_subtotal_minor === null ? null : BigInt(row.minimum_subtotal_minor),
    validFrom: row.valid_from && new Date(row.valid_from),
    validUntil: row.valid_until && new Date(row.valid_until),
    usageLimit: row.usage_limit,
    timesUsed: Number(row.times_used),
    productIds: row.product_ids,
    active: row.active,
    createdDate: new Date(row.created_at),
  };
}

export function codeKey(code: string): string {
  return code.trim().toUpperCase();
}

export async function insertCoupon(ctx: SiteContext, c: Coupon): Promise<void> {
  const { db: tx, siteId } = ctx;
  await tx.query(
    `INSERT INTO coupons (site_id, coupon_id, code, code_key, name, discount_type, percent, amount_minor, minimum_subtotal_minor,
       valid_from, valid_until, usage_limit, product_ids, active, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [siteId, c.id, c.code, codeKey(c.code), c.name, c.discount.type, c.discount.type === 'PERCENT' ? c.discount.percent : null,
      c.discount.type === 'AMOUNT' ? c.discount.amount.toString() : null, c.minimumSubtotal?.toString() ?? null,
      c.validFrom, c.validUntil, c.usageLimit, c.productIds, c.active, c.createdDate],
  );
}

/** Writes every field of a coupon but its uses and creation date (the caller holds its row lock). */
export async function updateCoupon(ctx: SiteContext, c: Coupon): Promise<void> {
  const { db: tx, siteId } = ctx;
  await tx.query(
    `UPDATE coupons SET code = $3, code_key = $4, name = $5, discount_type = $6, percent = $7, amount_minor = $8, minimum_subtotal_minor = $9,
       valid_from = $10, valid_until = $11, usage_limit = $12, product_ids = $13, active = $14
     WHERE site_id = $1 AND coupon_id = $2`,
    [siteId, c.id, c.code, codeKey(c.code), c.name, c.discount.type, c.discount.type === 'PERCENT' ? c.discount.percent : null,
      c.discount.type === 'AMOUNT' ? c.discount.amount.toString() : null, c.minimumSubtotal?.toString() ?? null,
      c.validFrom, c.validUntil, c.usageLimit, c.productIds, c.active],
  );
}

export async function deleteCoupon(ctx: SiteContext, couponId: string): Promise<Coupon | undefined> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query<CouponRow>(`DELETE FROM coupons WHERE site_id = $1 AND coupon_id = $2 RETURNING ${COUPON_COLUMNS}`, [siteId, couponId]);
  return rows[0] && toCoupon(rows[0]);
}

const COUPON_BY_CODE = prepared(`SELECT ${COUPON_COLUMNS} FROM coupons WHERE site_id = $1 AND code_key = $2`);

export async function findCouponByCode(ctx: SiteContext, code: string): Promise<Coupon | undefined> {
  const { db, siteId } = ctx;
  const rows = await db.query<CouponRow>(COUPON_BY_CODE, [siteId, codeKey(code)]);
  return rows[0] && toCoupon(rows[0]);
}

export async function findCoupon(ctx: SiteContext, couponId: string, forUpdate = false): Promise<Coupon | undefined> {
  const { db, siteId } = ctx;
  const rows = await db.query<CouponRow>(`SELECT ${COUPON_COLUMNS} FROM coupons WHERE site_id = $1 AND coupon_id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [siteId, couponId]);
  return rows[0] && toCoupon(rows[0]);
}

export async function listCoupons(ctx: SiteContext, limit: number, offset: number): Promise<{ coupons: Coupon[]; total: number }> {
  const { db, siteId } = ctx;
  const rows = await db.query<CouponRow & { total: number | string }>(
    `SELECT ${COUPON_COLUMNS}, count(*) OVER () AS total FROM coupons WHERE site_id = $1 ORDER BY created_at DESC, coupon_id LIMIT $2 OFFSET $3`,
    [siteId, limit, offset],
  );
  return { coupons: rows.map(toCoupon), total: rows.length ? Number(rows[0].total) : 0 };
}

/** Counts one use, unless the limit is reached (a conditional update: two last uses cannot both pass). */
export async function useCoupon(ctx: SiteContext, couponId: string): Promise<boolean> {
  const { db: tx, siteId } = ctx;
  const rows = await tx.query(
    `UPDATE coupons SET times_used = times_used + 1
     WHERE site_id = $1 AND coupon_id = $2 AND (usage_limit IS NULL OR times_used < usage_limit) RETURNING coupon_id`,
    [siteId, couponId],
  );
  return rows.length === 1;
}

export async function releaseCoupon(ctx: SiteContext, couponId: string): Promise<void> {
  const { db: tx, siteId } = ctx;
  await tx.query('UPDATE coupons SET times_used = GREATEST(times_used - 1, 0) WHERE site_id = $1 AND coupon_id = $2', [siteId, couponId]);
}
