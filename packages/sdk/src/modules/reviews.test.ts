import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OAuthStrategy } from '../auth/oauth.js';
import { createClient } from '../client.js';
import { startReceiver, type Receiver } from '../test-support/receiver.js';
import { backInStock } from './back-in-stock.js';
import { reviews } from './reviews.js';

let receiver: Receiver;
beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(() => receiver.close());

const client = () => createClient({
  modules: { reviews, backInStock },
  auth: OAuthStrategy({ clientId: 'c', tokens: { accessToken: { value: 'T', expiresAt: Date.now() / 1000 + 3600 }, refreshToken: { value: 'R', role: 'member' } } }),
  baseUrl: receiver.url,
});

const wireReview = { id: 'r1', namespace: 'stores', entityId: 'p1', content: { title: 'Great', rating: 5, media: [] }, createdDate: '2026-01-01T00:00:00.000Z', updatedDate: '2026-01-01T00:00:00.000Z', author: { contactId: 'm1' }, moderation: { moderationStatus: 'APPROVED', manuallyChanged: false }, revision: '1', verified: true };

describe('reviews', () => {
  it('queries a product\'s reviews and reads them with SDK names', async () => {
    receiver.reply(() => ({ body: { reviews: [wireReview], metadata: { count: 1, cursors: {}, hasNext: false } } }));
    const page = await client().reviews.queryReviews({ filter: { entityId: 'p1' }, cursorPaging: { limit: 10 } });
    expect(receiver.requests[0].method).toBe('POST');
    expect(receiver.requests[0].path).toBe('/_api/reviews/v1/reviews/query');
    expect(receiver.requests[0].body).toEqual({ query: { filter: { entityId: 'p1' }, cursorPaging: { limit: 10 } } });
    expect(page.reviews[0]).toMatchObject({ _id: 'r1', _createdDate: new Date('2026-01-01T00:00:00.000Z'), verified: true });
  });

  it('writes a review in the stores namespace, edits it, moderates and replies', async () => {
    receiver.reply(() => ({ body: { review: wireReview } }));
    const c = client();
    expect((await c.reviews.createReview({ entityId: 'p1', content: { rating: 5, title: 'Great' } }))._id).toBe('r1');
    await c.reviews.updateReviewContent('r1', { rating: 4 });
    await c.reviews.moderate('r1', 'REJECTED');
    const replied = await c.reviews.setReply('r1', 'Thanks!');
    expect(replied._id).toBe('r1');
    expect(receiver.requests.map((r) => [r.method, r.path, r.body])).toEqual([
      ['POST', '/_api/reviews/v1/reviews', { review: { namespace: 'stores', entityId: 'p1', content: { rating: 5, title: 'Great' } } }],
      ['PATCH', '/_api/reviews/v1/reviews/r1', { review: { content: { rating: 4 } } }],
      ['PATCH', '/_api/reviews/v1/reviews/r1/moderate', { status: 'REJECTED' }],
      ['PATCH', '/_api/reviews/v1/reviews/r1/reply', { message: 'Thanks!' }],
    ]);
  });

  it('asks for rating summaries with one entityId parameter per product', async () => {
    receiver.reply(() => ({ body: { ratings: [{ entityId: 'p1', count: 2, average: '4.5' }] } }));
    expect(await client().reviews.ratings(['p1', 'p2'])).toEqual([{ entityId: 'p1', count: 2, average: '4.5' }]);
    expect(receiver.requests[0].path).toBe('/bodega/v1/reviews/ratings');
    expect(receiver.requests[0].query.getAll('entityId')).toEqual(['p1', 'p2']);
    expect(receiver.requests[0].query.get('namespace')).toBe('stores');
  });
});

describe('backInStock', () => {
  it('creates a request for a variant with the stores app id and queries them per product', async () => {
    receiver.reply((req) => ({ body: req.path.endsWith('/query')
      ? { requests: [{ id: 'b1', email: 'a@b.c', status: 'RECEIVED', createdDate: '2026-01-01T00:00:00.000Z', catalogReference: { catalogItemId: 'p1', appId: 'x' } }], pagingMetadata: { count: 1 } }
      : { request: { id: 'b1', email: 'a@b.c', status: 'RECEIVED', createdDate: '2026-01-01T00:00:00.000Z', catalogReference: { catalogItemId: 'p1', appId: 'x' } } } }));
    const c = client();
    const created = await c.backInStock.createRequest({ catalogReference: { catalogItemId: 'p1', options: { variantId: 'v1' } }, email: 'a@b.c' }, { name: 'Shirt (S)' });
    expect(created._id).toBe('b1');
    expect(receiver.requests[0].body).toEqual({
      request: { catalogReference: { appId: '215238eb-22a5-4c36-9e7b-e7c08025e04e', catalogItemId: 'p1', options: { variantId: 'v1' } }, email: 'a@b.c' },
      itemDetails: { name: 'Shirt (S)' },
    });
    const found = await c.backInStock.queryRequests({ filter: { 'catalogReference.catalogItemId': 'p1' } });
    expect(receiver.requests[1].path).toBe('/back-in-stock-service/v1/back-in-stock-notification-requests/query');
    expect(found.requests[0]._id).toBe('b1');
  });
});
