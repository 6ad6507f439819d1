/**
 * `reviews` and `backInStock` of @bodega/sdk against a real server: a member writes and edits
 * their review, a visitor reads approved ones and the rating summary, the back office moderates and
 * replies; a visitor asks about a sold-out product and the back office finds the request by product.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backInStock, createClient, OAuthStrategy, products, reviews } from '@bodega/sdk';
import { memberToken } from '../../server/src/test/commerce.js';
import { adminClient, rejection, startServer, visitorClient, type Server, type TestSite } from './support.js';

let server: Server;
let site: TestSite;
let kettle = '';

const merchantOf = (s: TestSite) => adminClient(server.origin, s, { products, reviews, backInStock });

beforeAll(async () => {
  server = await startServer();
  site = await server.createSite();
  kettle = (await merchantOf(site).products.createProduct({ name: 'Kettle', productType: 'physical', priceData: { price: 30 }, stock: { trackInventory: true, quantity: 0 } })).product?._id ?? '';
});
afterAll(() => server.close());

async function memberClient() {
  const { token } = await memberToken(server.app, site);
  return createClient({
    baseUrl: server.origin,
    auth: OAuthStrategy({ clientId: site.clientId, tokens: { accessToken: { value: token, expiresAt: Math.floor(Date.now() / 1000) + 3600 }, refreshToken: { value: '', role: 'member' } } }),
    modules: { reviews },
  });
}

describe('reviews', () => {
  it('a member writes and edits one review; shoppers read it and the rating; the back office rejects and replies', async () => {
    const member = await memberClient();
    const written = await member.reviews.createReview({ entityId: kettle, content: { rating: 3, title: 'Boils fast' } });
    expect(written).toMatchObject({ entityId: kettle, namespace: 'stores', content: { rating: 3, title: 'Boils fast' }, moderation: { moderationStatus: 'APPROVED' } });
    expect((await rejection(member.reviews.createReview({ entityId: kettle, content: { rating: 5 } }))).status).toBe(409);
    await member.reviews.updateReviewContent(written._id, { rating: 4 });

    const visitor = visitorClient(server.origin, site, { reviews });
    const page = await visitor.reviews.queryReviews({ filter: { entityId: kettle } });
    expect(page.reviews.map((r) => [r._id, r.content.rating])).toEqual([[written._id, 4]]);
    expect(await visitor.reviews.ratings([kettle, 'no-such-product'])).toEqual([
      { entityId: kettle, count: 1, average: '4.0' }, { entityId: 'no-such-product', count: 0, average: '0' },
    ]);
    expect((await rejection(visitor.reviews.moderate(written._id, 'REJECTED'))).status).toBe(403);

    const merchant = merchantOf(site);
    expect((await merchant.reviews.setReply(written._id, 'Thank you!')).reply?.message).toBe('Thank you!');
    expect((await merchant.reviews.moderate(written._id, 'REJECTED')).moderation.moderationStatus).toBe('REJECTED');
    expect((await visitor.reviews.queryReviews({ filter: { entityId: kettle } })).reviews).toEqual([]);
    expect((await merchant.reviews.queryReviews({ filter: { 'moderation.moderationStatus': 'REJECTED' } }, { returnPrivateReviews: true })).reviews.map((r) => r._id)).toEqual([written._id]);
    expect(await visitor.reviews.ratings([kettle])).toEqual([{ entityId: kettle, count: 0, average: '0' }]);
    expect((await merchant.reviews.removeReply(written._id)).reply).toBeUndefined();
  });
});

describe('backInStock', () => {
  it('a visitor asks about a sold-out product; the back office finds the request by product', async () => {
    const visitor = visitorClient(server.origin, site, { backInStock });
    const request = await visitor.backInStock.createRequest({ catalogReference: { catalogItemId: kettle }, email: 'ann@example.com' }, { name: 'Kettle' });
    expect(request).toMatchObject({ email: 'ann@example.com', status: 'RECEIVED', catalogReference: { catalogItemId: kettle } });
    expect((await rejection(visitor.backInStock.queryRequests())).status).toBe(403);
    const found = await merchantOf(site).backInStock.queryRequests({ filter: { 'catalogReference.catalogItemId': kettle } });
    expect(found.requests.map((r) => r._id)).toEqual([request._id]);
    expect((await merchantOf(site).backInStock.queryRequests({ filter: { 'catalogReference.catalogItemId': 'another' } })).requests).toEqual([]);
  });
});
