/**
 * `@wix/reviews` (a product's reviews: query, write or edit one's own, moderate and reply in the back
 * office) and Bodega's rating summaries at `/bodega/v1/reviews/ratings`.
 */
import { call, enc } from '../core/generated.js';
import type { Transport } from '../core/transport.js';
import type { RatingSummary } from '../generated/back-office.js';
import type { Review, ReviewMedia, ReviewResponse, ReviewsPage } from '../generated/reviews.js';
import { backOfficeGet } from './back-office.js';

const P = '/_api/reviews/v1/reviews';
/** The namespace of Wix Stores reviews: the entity is a product id. */
export const STORES_REVIEWS_NAMESPACE = 'stores';

export type { Review, ReviewMedia, ReviewModerationStatus, ReviewResponse, ReviewsPage } from '../generated/reviews.js';

/** A review's content to write or change. */
export interface ReviewContent {
  title?: string | null;
  body?: string | null;
  media?: ReviewMedia[];
  rating?: number;
}

export interface ReviewsQuery {
  filter?: Record<string, unknown>;
  sort?: { fieldName: string; order?: 'ASC' | 'DESC' }[];
  cursorPaging?: { limit?: number; cursor?: string };
}


export type { RatingSummary } from '../generated/back-office.js';

export interface NewReview {
  namespace?: string;
  entityId: string;
  content: ReviewContent & { rating: number };
  author?: { authorName?: string };
}


export function reviews(t: Transport) {
  const byId = (reviewId: string, suffix = '') => `${P}/${enc(reviewId)}${suffix}`;
  return {
    /** A shopper sees APPROVED reviews; the back office passes `returnPrivateReviews` to see every status. */
    queryReviews: (query: ReviewsQuery = {}, options: { returnPrivateReviews?: boolean } = {}) =>
      call<ReviewsPage>(t, 'POST', `${P}/query`, { query, ...options }, { args: { query: 'query', '*': 'options' } }),
    createReview: (review: NewReview) =>
      call<Review>(t, 'POST', P, { review: { namespace: STORES_REVIEWS_NAMESPACE, ...review } }, { args: { review: 'review' }, pick: 'review' }),
    /** The author edits their own review; it goes back to moderation when the site moderates. */
    updateReviewContent: (reviewId: string, content: ReviewContent) =>
      call<Review>(t, 'PATCH', byId(reviewId), { review: { content } }, { args: { 'review.content': 'content' }, pick: 'review' }),
    moderate: (reviewId: string, status: 'APPROVED' | 'REJECTED') =>
      call<ReviewResponse>(t, 'PATCH', byId(reviewId, '/moderate'), { status }, { args: { status: 'status' } }).then((r) => r.review),
    setReply: (reviewId: string, message: string) =>
      call<ReviewResponse>(t, 'PATCH', byId(reviewId, '/reply'), { message }, { args: { message: 'message' } }).then((r) => r.review),
    removeReply: (reviewId: string) => call<ReviewResponse>(t, 'DELETE', byId(reviewId, '/reply'), {}).then((r) => r.review),
    /** Rating summaries of up to 100 entities, in the order asked. */
    ratings: (entityIds: string[], namespace = STORES_REVIEWS_NAMESPACE) =>
      backOfficeGet<{ ratings: RatingSummary[] }>(t, '/reviews/ratings', { namespace, entityId: entityIds }).then((r) => r.ratings),
  };
}
