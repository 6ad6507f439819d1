import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { REVIEW_LIMITS } from '../../platform/field-limits.js';
import type { ReviewsService } from './service.js';
import { toWireReview } from './wire.js';
import { CountReviewsResponse, Ratings, ReviewResponse, ReviewsPage } from './wire-schemas.js';

const Text = (max: number) => Type.Union([Type.String({ maxLength: max }), Type.Null()]);
const Media = Type.Array(Type.Object({ image: Type.Optional(Type.String({ maxLength: 2000 })), video: Type.Optional(Type.String({ maxLength: 2000 })) }), { maxItems: REVIEW_LIMITS.media });
const Content = Type.Object({
  title: Type.Optional(Text(REVIEW_LIMITS.title)),
  body: Type.Optional(Text(REVIEW_LIMITS.body)),
  media: Type.Optional(Media),
  rating: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
});
const Id = Type.String({ minLength: 1, maxLength: 200 });
const CreateBody = Type.Object({
  review: Type.Object({
    namespace: Id,
    entityId: Id,
    content: Type.Intersect([Content, Type.Object({ rating: Type.Integer({ minimum: 1, maximum: 5 }) })]),
    author: Type.Optional(Type.Object({ contactId: Type.Optional(Text(200)), authorName: Type.Optional(Text(200)) })),
  }),
});
const UpdateBody = Type.Object({ review: Type.Object({ content: Type.Optional(Content) }), fieldMask: Type.Optional(Type.Unknown()) });
const QueryBody = Type.Object({
  query: Type.Optional(Type.Object({ filter: Type.Optional(Type.Unknown()), sort: Type.Optional(Type.Unknown()), cursorPaging: Type.Optional(Type.Object({ limit: Type.Optional(Type.Unknown()), cursor: Type.Optional(Type.Unknown()) })) })),
  returnPrivateReviews: Type.Optional(Type.Boolean()),
});
const CountBody = Type.Object({ filter: Type.Optional(Type.Unknown()), includePrivateReviews: Type.Optional(Type.Boolean()) });
const Params = Type.Object({ reviewId: Id });
const ReplyBody = Type.Object({ message: Type.String({ minLength: 1, maxLength: REVIEW_LIMITS.reply }) });
const ModerateBody = Type.Object({ status: Type.Union([Type.Literal('APPROVED'), Type.Literal('REJECTED')]) });
const RatingsQuery = Type.Object({ namespace: Type.Optional(Id), entityId: Type.Array(Id, { minItems: 1, maxItems: 100 }) });

/** @wix/reviews at `/reviews/v1` (www.wixapis.com) and `/_api/reviews/v1`; ratings summaries under `/bodega/v1/reviews`. */
export function reviewsRoutes(reviews: ReviewsService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const anyone = { access: 'shop' } as const;
    const backOffice = { access: 'staff' } as const;
    for (const p of ['/reviews/v1/reviews', '/_api/reviews/v1/reviews']) {
      app.post(p, { config: anyone, schema: { body: CreateBody, response: { 200: ReviewResponse } } }, async (req) => {
        const r = req.body.review;
        const review = await reviews.createReview(req.ctx, {
          namespace: r.namespace, entityId: r.entityId, title: r.content.title, body: r.content.body, media: r.content.media, rating: r.content.rating,
          authorContactId: r.author?.contactId, authorName: r.author?.authorName,
        });
        return { review: toWireReview(review) };
      });
      app.post(`${p}/query`, { config: anyone, schema: { body: QueryBody, response: { 200: ReviewsPage } } }, async (req) => {
        const page = await reviews.queryReviews(req.ctx, req.body.query ?? {}, req.body.returnPrivateReviews === true);
        return { reviews: page.reviews.map(toWireReview), metadata: { count: page.reviews.length, cursors: page.nextCursor ? { next: page.nextCursor } : {}, hasNext: page.nextCursor !== null } };
      });
      app.post(`${p}/count`, { config: anyone, schema: { body: CountBody, response: { 200: CountReviewsResponse } } }, async (req) => ({ count: await reviews.countReviews(req.ctx, req.body.filter, req.body.includePrivateReviews === true) }));
      app.get(`${p}/:reviewId`, { config: anyone, schema: { params: Params, response: { 200: ReviewResponse } } }, async (req) => ({ review: toWireReview(await reviews.getReview(req.ctx, req.params.reviewId)) }));
      app.patch(`${p}/:reviewId`, { config: anyone, schema: { params: Params, body: UpdateBody, response: { 200: ReviewResponse } } }, async (req) => {
        const c = req.body.review.content ?? {};
        return { review: toWireReview(await reviews.updateContent(req.ctx, req.params.reviewId, c)) };
      });
      app.delete(`${p}/:reviewId`, { config: anyone, schema: { params: Params, response: { 200: ReviewResponse } } }, async (req) => ({ review: toWireReview(await reviews.deleteReview(req.ctx, req.params.reviewId)) }));
      app.patch(`${p}/:reviewId/reply`, { config: backOffice, schema: { params: Params, body: ReplyBody, response: { 200: ReviewResponse } } }, async (req) => ({ review: toWireReview(await reviews.setReply(req.ctx, req.params.reviewId, req.body.message)) }));
      app.delete(`${p}/:reviewId/reply`, { config: backOffice, schema: { params: Params, response: { 200: ReviewResponse } } }, async (req) => ({ review: toWireReview(await reviews.removeReply(req.ctx, req.params.reviewId)) }));
      app.patch(`${p}/:reviewId/moderate`, { config: backOffice, schema: { params: Params, body: ModerateBody, response: { 200: ReviewResponse } } }, async (req) => ({ review: toWireReview(await reviews.moderate(req.ctx, req.params.reviewId, req.body.status)) }));
    }
    app.get('/bodega/v1/reviews/ratings', { config: anyone, schema: { querystring: RatingsQuery, response: { 200: Ratings } } }, async (req) => ({
      ratings: await reviews.ratings(req.ctx, req.query.namespace ?? 'stores', req.query.entityId),
    }));
  };
}
