// Product reviews (@wix/reviews). Members review catalog products, one review per member per
// product; a member with a paid or fulfilled order of the product is a verified buyer. New
// reviews are published (APPROVED); the back office rejects, approves again and replies. Each
// entity's rating summary (count and sum of APPROVED ratings) changes in the review's transaction.
import { withTransaction } from '../../platform/context.js';
import type { RequestContext } from '../../platform/caller.js';
import type { SiteContext } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { compileFilter, FilterError, parseSort, push, readInteger, type FieldMap } from '../../platform/query-filter.js';
import * as store from './store.js';
import type { Review, ReviewMedia, ReviewStatus } from './store.js';

export type { Review, ReviewStatus } from './store.js';

/** The namespace Wix Stores reviews live in; the entity is a product id. */
export const STORES_NAMESPACE = 'stores';
export const MAX_QUERY_LIMIT = 100;
const DEFAULT_QUERY_LIMIT = 50;

export interface ReviewsDeps {
  /** Throws a 404 ApiError when the caller cannot see the product. */
  assertProduct(ctx: RequestContext, productId: string): Promise<void>;
  hasBought(ctx: SiteContext, memberId: string, productId: string): Promise<boolean>;
  /** The member's public name, when they have one. */
  memberName(ctx: RequestContext, memberId: string): Promise<string | null>;
}

export interface NewReview {
  namespace: string;
  entityId: string;
  title?: string | null;
  body?: string | null;
  media?: ReviewMedia[];
  rating: number;
  /** Back office only: the member the review is by (else the caller). */
  authorContactId?: string | null;
  authorName?: string | null;
}

export interface ReviewQuery {
  filter?: unknown;
  sort?: unknown;
  cursorPaging?: { limit?: unknown; cursor?: unknown };
}

const FIELDS: FieldMap = {
  id: { kind: 'column', sql: 'r.review_id', type: 'text' },
  _id: { kind: 'column', sql: 'r.review_id', type: 'text' },
  namespace: { kind: 'column', sql: 'r.namespace', type: 'text' },
  entityId: { kind: 'column', sql: 'r.entity_id', type: 'text' },
  'content.rating': { kind: 'column', sql: 'r.rating::bigint', type: 'bigint', sortable: true },
  'author.contactId': { kind: 'column', sql: 'r.author_id', type: 'text' },
  'moderation.moderationStatus': { kind: 'column', sql: 'r.status', type: 'text' },
  verified: { kind: 'column', sql: 'r.verified', type: 'boolean', sortable: true },
  'origin.type': { kind: 'column', sql: `'ORGANIC'::text`, type: 'text', sortable: true },
  createdDate: { kind: 'column', sql: 'r.created_at', type: 'timestamp', sortable: true },
  _createdDate: { kind: 'column', sql: 'r.created_at', type: 'timestamp', sortable: true },
  updatedDate: { kind: 'column', sql: 'r.updated_at', type: 'timestamp', sortable: true },
  _updatedDate: { kind: 'column', sql: 'r.updated_at', type: 'timestamp', sortable: true },
  reviewDate: { kind: 'column', sql: 'r.created_at', type: 'timestamp', sortable: true },
  helpfulness: { kind: 'column', sql: '0::bigint', type: 'bigint', sortable: true },
  relevanceScore: { kind: 'column', sql: '0::bigint', type: 'bigint', sortable: true },
};

function isBackOffice(ctx: RequestContext): boolean {
  return ctx.caller.kind === 'WIX_USER' || ctx.caller.kind === 'APP';
}

function reviewNotFound(reviewId: string): ApiError {
  return ApiError.notFound('REVIEW_NOT_FOUND', `Review ${reviewId} was not found`, { reviewId });
}

function checkRating(rating: number): void {
  if (!Number.isInteger(rating) || rating < 1 || rating > 5) {
    throw ApiError.validation([{ field: 'review.content.rating', rule: 'MAX', description: 'must be a whole number from 1 to 5' }]);
  }
}

/** The approved-rating change a status change makes. */
function ratingDelta(before: Review | undefined, after: Review | undefined): { count: number; sum: number } {
  const part = (r: Review | undefined) => (r?.status === 'APPROVED' ? { count: 1, sum: r.rating } : { count: 0, sum: 0 });
  const a = part(before);
  const b = part(after);
  return { count: b.count - a.count, sum: b.sum - a.sum };
}

function encodeCursor(state: object): string {
  return Buffer.from(JSON.stringify(state)).toString('base64url');
}

function decodeCursor(cursor: string): { filter: unknown; sort: unknown; offset: number } {
  try {
    const state = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { filter: unknown; sort: unknown; offset: unknown };
    if (typeof state.offset !== 'number' || !Number.isSafeInteger(state.offset) || state.offset < 0) throw new Error('offset');
    return { filter: state.filter, sort: state.sort, offset: state.offset };
  } catch {
    throw new FilterError('cursorPaging.cursor is not a cursor this server gave');
  }
}

export class ReviewsService {
  constructor(private readonly deps: ReviewsDeps) {}

  async createReview(ctx: RequestContext, input: NewReview): Promise<Review> {
    if (input.namespace !== STORES_NAMESPACE) {
      throw new ApiError(400, 'NAMESPACE_NOT_SUPPORTED', `Reviews are for the "${STORES_NAMESPACE}" namespace (Wix Stores products)`, { namespace: input.namespace });
    }
    checkRating(input.rating);
    let memberId: string;
    if (ctx.caller.kind === 'MEMBER') memberId = ctx.caller.subjectId;
    else if (isBackOffice(ctx) && input.authorContactId) memberId = input.authorContactId;
    else if (ctx.caller.kind === 'ANONYMOUS_VISITOR') throw ApiError.forbidden('Sign in as a member to review a product');
    else throw ApiError.validation([{ field: 'review.author.contactId', rule: 'REQUIRED_FIELD', description: 'the member the review is by' }]);
    await this.deps.assertProduct(ctx, input.entityId);
    const name = ctx.caller.kind === 'MEMBER' ? await this.deps.memberName(ctx, memberId) : input.authorName ?? null;
    const now = ctx.now();
    return withTransaction(ctx, async (tx) => {
      const review: Review = {
        id: newId(),
        namespace: input.namespace,
        entityId: input.entityId,
        author: { kind: 'member', id: memberId, name },
        title: input.title ?? null,
        body: input.body ?? null,
        media: input.media ?? [],
        rating: input.rating,
        status: 'APPROVED',
        manuallyChanged: false,
        verified: await this.deps.hasBought(tx, memberId, input.entityId),
        reply: null,
        revision: 1,
        createdDate: now,
        updatedDate: now,
      };
      if (!(await store.insertReview(tx, review))) {
        throw new ApiError(409, 'REVIEW_ALREADY_EXISTS', 'This member has already reviewed this product', { entityId: input.entityId });
      }
      const delta = ratingDelta(undefined, review);
      await store.changeRating(tx, review.namespace, review.entityId, delta.count, delta.sum);
      return review;
    });
  }

  /** A review the caller may see: the back office sees all, others approved ones and their own. */
  async getReview(ctx: RequestContext, reviewId: string): Promise<Review> {
    const review = await store.findReview(ctx, reviewId);
    if (!review || !this.visible(ctx, review)) throw reviewNotFound(reviewId);
    return review;
  }

  private visible(ctx: RequestContext, review: Review): boolean {
    return isBackOffice(ctx) || review.status === 'APPROVED' || (ctx.caller.kind === 'MEMBER' && review.author.id === ctx.caller.subjectId);
  }

  /** Changes one review under its row lock, keeping the rating summary in step. */
  private async change(ctx: RequestContext, reviewId: string, apply: (review: Review) => Review | 'delete'): Promise<Review> {
    return withTransaction(ctx, async (tx) => {
      const before = await store.findReview(tx, reviewId, true);
      if (!before || !this.visible(ctx, before)) throw reviewNotFound(reviewId);
      const result = apply(before);
      const after = result === 'delete' ? undefined : { ...result, revision: before.revision + 1, updatedDate: ctx.now() };
      if (after) await store.updateReview(tx, after);
      else await store.deleteReview(tx, reviewId);
      const delta = ratingDelta(before, after);
      await store.changeRating(tx, before.namespace, before.entityId, delta.count, delta.sum);
      return after ?? before;
    });
  }

  async moderate(ctx: RequestContext, reviewId: string, status: ReviewStatus): Promise<Review> {
    return this.change(ctx, reviewId, (r) => ({ ...r, status, manuallyChanged: true }));
  }

  async setReply(ctx: RequestContext, reviewId: string, message: string): Promise<Review> {
    const now = ctx.now();
    return this.change(ctx, reviewId, (r) => ({ ...r, reply: { message, createdDate: r.reply?.createdDate ?? now, updatedDate: now } }));
  }

  async removeReply(ctx: RequestContext, reviewId: string): Promise<Review> {
    return this.change(ctx, reviewId, (r) => ({ ...r, reply: null }));
  }

  /** The author (a member) changes their review's content; the back office may too. */
  async updateContent(ctx: RequestContext, reviewId: string, content: { title?: string | null; body?: string | null; rating?: number; media?: ReviewMedia[] }): Promise<Review> {
    if (content.rating !== undefined) checkRating(content.rating);
    return this.change(ctx, reviewId, (r) => {
      if (!isBackOffice(ctx) && !(ctx.caller.kind === 'MEMBER' && r.author.id === ctx.caller.subjectId)) throw ApiError.forbidden('Only its author changes a review');
      return { ...r, ...(content.title !== undefined ? { title: content.title } : {}), ...(content.body !== undefined ? { body: content.body } : {}), ...(content.rating !== undefined ? { rating: content.rating } : {}), ...(content.media !== undefined ? { media: content.media } : {}) };
    });
  }

  async deleteReview(ctx: RequestContext, reviewId: string): Promise<Review> {
    return this.change(ctx, reviewId, (r) => {
      if (!isBackOffice(ctx) && !(ctx.caller.kind === 'MEMBER' && r.author.id === ctx.caller.subjectId)) throw ApiError.forbidden('Only its author deletes a review');
      return 'delete';
    });
  }

  private where(ctx: RequestContext, filter: unknown, params: unknown[], includePrivate: boolean): string {
    let where = compileFilter(filter ?? {}, FIELDS, params);
    if (!(includePrivate && isBackOffice(ctx))) {
      const own = ctx.caller.kind === 'MEMBER' ? ` OR (r.author_kind = 'member' AND r.author_id = ${push(params, ctx.caller.subjectId)})` : '';
      where = `(r.status = 'APPROVED'${own}) AND ${where}`;
    }
    return where;
  }

  async queryReviews(ctx: RequestContext, query: ReviewQuery, includePrivate: boolean): Promise<{ reviews: Review[]; nextCursor: string | null }> {
    try {
      const limit = readInteger(query.cursorPaging?.limit, 'cursorPaging.limit', { min: 1, max: MAX_QUERY_LIMIT }) ?? DEFAULT_QUERY_LIMIT;
      const cursor = query.cursorPaging?.cursor;
      const state = typeof cursor === 'string' && cursor !== '' ? decodeCursor(cursor) : { filter: query.filter, sort: query.sort, offset: 0 };
      const sort = parseSort(state.sort, FIELDS);
      const params: unknown[] = [ctx.siteId];
      const where = this.where(ctx, state.filter, params, includePrivate);
      const keys = sort.length ? sort : [{ field: 'createdDate', order: 'DESC' as const }];
      const orderBy = [...keys.map((k) => `${(FIELDS[k.field] as { sql: string }).sql} ${k.order}`), `r.review_id ${keys[keys.length - 1].order}`].join(', ');
      const rows = await store.queryReviews(ctx, { where, params, orderBy, limit: limit + 1, offset: state.offset });
      const reviews = rows.slice(0, limit);
      const nextCursor = rows.length > limit ? encodeCursor({ filter: state.filter, sort: state.sort, offset: state.offset + limit }) : null;
      return { reviews, nextCursor };
    } catch (error) {
      if (error instanceof FilterError) throw new ApiError(400, 'INVALID_QUERY', error.message);
      throw error;
    }
  }

  async countReviews(ctx: RequestContext, filter: unknown, includePrivate: boolean): Promise<number> {
    try {
      const params: unknown[] = [ctx.siteId];
      return await store.countReviews(ctx, { where: this.where(ctx, filter, params, includePrivate), params });
    } catch (error) {
      if (error instanceof FilterError) throw new ApiError(400, 'INVALID_QUERY', error.message);
      throw error;
    }
  }

  /** Each entity's approved-review count and average rating (a string with one decimal; "0" when none). */
  async ratings(ctx: RequestContext, namespace: string, entityIds: readonly string[]): Promise<{ entityId: string; count: number; average: string }[]> {
    const found = await store.ratings(ctx, namespace, entityIds);
    return entityIds.map((entityId) => {
      const r = found.get(entityId);
      if (!r || r.count === 0) return { entityId, count: 0, average: '0' };
      // Exact to one decimal, half up, on integers: sum / count.
      const tenths = Math.floor((r.ratingSum * 20 + r.count) / (2 * r.count));
      return { entityId, count: r.count, average: `${Math.floor(tenths / 10)}.${tenths % 10}` };
    });
  }
}
