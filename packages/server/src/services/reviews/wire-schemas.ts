// The reviews answers: @wix/reviews (reviews/v1) and /bodega/v1/reviews/ratings. They write the
// wire, document it and are the SDK's types.
import { Type } from 'typebox';
import { oneOf, Timestamp } from '../../platform/wire-schema.js';

export const RatingSummary = Type.Object({
  entityId: Type.String(),
  count: Type.Integer(),
  average: Type.String({ description: 'A decimal string to one place (`"4.5"`, `"0"` with none).' }),
}, { title: 'RatingSummary', description: "An entity's APPROVED ratings." });
export const Ratings = Type.Object({ ratings: Type.Array(RatingSummary) });

export const ReviewMedia = Type.Object({ image: Type.Optional(Type.String()), video: Type.Optional(Type.String()) }, { title: 'ReviewMedia' });

export const Review = Type.Object({
  id: Type.String(),
  namespace: Type.String(),
  entityId: Type.String(),
  content: Type.Object({
    title: Type.Optional(Type.String()),
    body: Type.Optional(Type.String()),
    media: Type.Array(ReviewMedia),
    rating: Type.Integer(),
  }),
  createdDate: Timestamp,
  updatedDate: Timestamp,
  author: Type.Object({ contactId: Type.String(), authorName: Type.Optional(Type.String()) }),
  reply: Type.Optional(Type.Object({ message: Type.String(), createdDate: Timestamp, updatedDate: Timestamp }, { description: "The store's public answer." })),
  foundHelpful: Type.Integer(),
  foundUnhelpful: Type.Integer(),
  helpfulness: Type.Integer(),
  moderation: Type.Object({
    moderationStatus: oneOf(['APPROVED', 'IN_MODERATION', 'REJECTED'] as const, { title: 'ReviewModerationStatus' }),
    manuallyChanged: Type.Boolean(),
  }),
  revision: Type.String(),
  verified: Type.Boolean({ description: 'The author bought the product (a paid order of theirs holds it).' }),
  origin: Type.Object({ type: oneOf(['ORGANIC'] as const) }),
  reviewDate: Timestamp,
  publishCount: Type.Integer(),
}, { title: 'Review' });

export const ReviewResponse = Type.Object({ review: Review }, { title: 'ReviewResponse' });
export const ReviewsPage = Type.Object({
  reviews: Type.Array(Review),
  metadata: Type.Object({ count: Type.Integer(), cursors: Type.Object({ next: Type.Optional(Type.String()) }), hasNext: Type.Boolean() }),
}, { title: 'ReviewsPage' });
export const CountReviewsResponse = Type.Object({ count: Type.Integer() }, { title: 'CountReviewsResponse' });
