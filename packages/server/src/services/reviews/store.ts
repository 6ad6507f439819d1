// SQL for reviews and their per-entity rating summaries.
import type { SiteContext } from '../../platform/context.js';

export type ReviewStatus = 'APPROVED' | 'IN_MODERATION' | 'REJECTED';

/** A picture or video of a review, by URL. */
export interface ReviewMedia {
  image?: string;
  video?: string;
}

export interface Review {
  id: string;
  namespace: string;
  entityId: string;
  author: { kind: 'member' | 'app'; id: string; name: string | null };
  title: string | null;
  body: string | null;
  media: ReviewMedia[];
  rating: number;
  status: ReviewStatus;
  manuallyChanged: boolean;
  verified: boolean;
  reply: { message: string; createdDate: Date; updatedDate: Date } | null;
  revision: number;
  createdDate: Date;
  updatedDate: Date;
}

interface ReviewRow {
  [key: string]: unknown;
  review_id: string;
  namespace: string;
  entity_id: string;
  author_kind: 'member' | 'app';
  author_id: string;
  author_name: string | null;
  title: string | null;
  body: string | null;
  media: ReviewMedia[];
  rating: number;
  status: ReviewStatus;
  manually_changed: boolean;
  verified: boolean;
  reply_message: string | null;
  reply_created_at: Date | null;
  reply_updated_at: Date | null;
  revision: number | string;
  created_at: Date;
  updated_at: Date;
}

export const REVIEW_COLUMNS = `r.review_id, r.namespace, r.entity_id, r.author_kind, r.author_id, r.author_name, r.title, r.body, r.media, r.rating,
  r.status, r.manually_changed, r.verified, r.reply_message, r.reply_created_at, r.reply_updated_at, r.revision, r.created_at, r.updated_at`;

function toReview(row: ReviewRow): Review {
  return {
    id: row.review_id,
    namespace: row.namespace,
    entityId: row.entity_id,
    author: { kind: row.author_kind, id: row.author_id, name: row.author_name },
    title: row.title,
    body: row.body,
    media: row.media,
    rating: row.rating,
    status: row.status,
    manuallyChanged: row.manually_changed,
    verified: row.verified,
    reply: row.reply_message !== null && row.reply_created_at && row.reply_updated_at
      ? { message: row.reply_message, createdDate: new Date(row.reply_created_at), updatedDate: new Date(row.reply_updated_at) }
      : null,
    revision: Number(row.revision),
    createdDate: new Date(row.created_at),
    updatedDate: new Date(row.updated_at),
  };
}

/** Inserts a review; false when the member already reviewed this entity (the unique index). */
export async function insertReview(ctx: SiteContext, r: Review): Promise<boolean> {
  const rows = await ctx.db.query(
    `INSERT INTO reviews (site_id, review_id, namespace, entity_id, author_kind, author_id, author_name, title, body, media, rating, status,
       manually_changed, verified, revision, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13, $14, $15, $16, $17)
     ON CONFLICT (site_id, namespace, entity_id, author_id) WHERE author_kind = 'member' DO NOTHING RETURNING review_id`,
    [ctx.siteId, r.id, r.namespace, r.entityId, r.author.kind, r.author.id, r.author.name, r.title, r.body, JSON.stringify(r.media), r.rating, r.status,
      r.manuallyChanged, r.verified, r.revision, r.createdDate, r.updatedDate],
  );
  return rows.length === 1;
}

export async function findReview(ctx: SiteContext, reviewId: string, forUpdate = false): Promise<Review | undefined> {
  const rows = await ctx.db.query<ReviewRow>(`SELECT ${REVIEW_COLUMNS} FROM reviews r WHERE r.site_id = $1 AND r.review_id = $2${forUpdate ? ' FOR UPDATE' : ''}`, [ctx.siteId, reviewId]);
  return rows[0] && toReview(rows[0]);
}

export async function updateReview(ctx: SiteContext, r: Review): Promise<void> {
  await ctx.db.query(
    `UPDATE reviews SET title = $3, body = $4, media = $5::jsonb, rating = $6, status = $7, manually_changed = $8, verified = $9,
       reply_message = $10, reply_created_at = $11, reply_updated_at = $12, revision = $13, updated_at = $14
     WHERE site_id = $1 AND review_id = $2`,
    [ctx.siteId, r.id, r.title, r.body, JSON.stringify(r.media), r.rating, r.status, r.manuallyChanged, r.verified,
      r.reply?.message ?? null, r.reply?.createdDate ?? null, r.reply?.updatedDate ?? null, r.revision, r.updatedDate],
  );
}

export async function deleteReview(ctx: SiteContext, reviewId: string): Promise<void> {
  await ctx.db.query('DELETE FROM reviews WHERE site_id = $1 AND review_id = $2', [ctx.siteId, reviewId]);
}

/** Adds to an entity's summary of approved reviews (one statement: concurrent changes add up). */
export async function changeRating(ctx: SiteContext, namespace: string, entityId: string, count: number, ratingSum: number): Promise<void> {
  if (count === 0 && ratingSum === 0) return;
  if (count < 0 || ratingSum < 0) {
    // Only an approved review (already counted) leaves the summary: the row exists.
    await ctx.db.query(
      'UPDATE review_ratings SET count = count + $4, rating_sum = rating_sum + $5 WHERE site_id = $1 AND namespace = $2 AND entity_id = $3',
      [ctx.siteId, namespace, entityId, count, ratingSum],
    );
    return;
  }
  await ctx.db.query(
    `INSERT INTO review_ratings (site_id, namespace, entity_id, count, rating_sum) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (site_id, namespace, entity_id) DO UPDATE SET count = review_ratings.count + EXCLUDED.count, rating_sum = review_ratings.rating_sum + EXCLUDED.rating_sum`,
    [ctx.siteId, namespace, entityId, count, ratingSum],
  );
}

export async function ratings(ctx: SiteContext, namespace: string, entityIds: readonly string[]): Promise<Map<string, { count: number; ratingSum: number }>> {
  const rows = await ctx.db.query<{ entity_id: string; count: number; rating_sum: number | string }>(
    'SELECT entity_id, count, rating_sum FROM review_ratings WHERE site_id = $1 AND namespace = $2 AND entity_id = ANY($3::text[])',
    [ctx.siteId, namespace, entityIds],
  );
  return new Map(rows.map((r) => [r.entity_id, { count: Number(r.count), ratingSum: Number(r.rating_sum) }]));
}

/** A page of reviews; `params` starts with the site id as $1. */
export async function queryReviews(ctx: SiteContext, query: { where: string; params: unknown[]; orderBy: string; limit: number; offset: number }): Promise<Review[]> {
  const rows = await ctx.db.query<ReviewRow>(
    `SELECT ${REVIEW_COLUMNS} FROM reviews r WHERE r.site_id = $1 AND ${query.where} ORDER BY ${query.orderBy} LIMIT ${query.limit} OFFSET ${query.offset}`,
    query.params,
  );
  return rows.map(toReview);
}

export async function countReviews(ctx: SiteContext, query: { where: string; params: unknown[] }): Promise<number> {
  const rows = await ctx.db.query<{ n: number | string }>(`SELECT count(*) AS n FROM reviews r WHERE r.site_id = $1 AND ${query.where}`, query.params);
  return Number(rows[0].n);
}
