/**
 * Product reviews through the official @wix/reviews (issue 24, finding 6): members review, verified
 * buyers are marked, one review per member per product, the back office moderates and replies,
 * and the product's rating summary stays in step — also under concurrent writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient, OAuthStrategy, TokenRole, type Tokens } from '@wix/sdk';
import { reviews } from '@wix/reviews';
import { orders } from '@wix/ecom';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { listen, redirectWixFetch } from '../../test/wix-fetch.js';
import { adminClient, failure, newMember } from '../../test/members.js';
import { apiKey, catalogLine, createProduct, NEW_YORK, type PaymentsCollector, type WireProduct } from '../../test/commerce.js';

let t: TestApp;
let wixFetch: ReturnType<typeof redirectWixFetch>;
let site: TestSite;
let lamp: WireProduct;

beforeAll(async () => {
  t = await testApp();
  wixFetch = redirectWixFetch(await listen(t.app));
  site = await t.createSite();
  lamp = await createProduct(t.app, site, { name: 'Lamp', priceData: { price: 30 } });
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
});

async function member(s: TestSite, nickname: string) {
  const memberId = await newMember(adminClient(s), { nickname });
  const grant = await t.app.services.oauth.startSession(t.app.services.sites.contextFor(s.siteId), { clientId: s.clientId, role: 'member', subjectId: memberId });
  const tokens: Tokens = { accessToken: { value: grant.access_token, expiresAt: Math.floor(Date.now() / 1000) + grant.expires_in }, refreshToken: { value: grant.refresh_token, role: TokenRole.MEMBER } };
  return { memberId, token: grant.access_token, client: createClient({ modules: { reviews }, auth: OAuthStrategy({ clientId: s.clientId, tokens }) }) };
}

const merchant = (s: TestSite) => createClient({ modules: { reviews, orders }, auth: ApiKeyStrategy({ apiKey: s.apiKey, siteId: s.siteId }) });
const visitor = (s: TestSite) => createClient({ modules: { reviews }, auth: OAuthStrategy({ clientId: s.clientId }) });

async function ratings(s: TestSite, productId: string) {
  const res = await t.app.inject({ method: 'GET', url: `/bodega/v1/reviews/ratings?entityId=${productId}`, headers: { authorization: await t.visitorToken(s) } });
  expect(res.statusCode).toBe(200);
  return res.json().ratings[0] as { count: number; average: string };
}

async function paidOrder(s: TestSite, token: string, productId: string) {
  const created = await t.app.inject({
    method: 'POST', url: '/ecom/v1/checkouts', headers: { authorization: token },
    payload: { channelType: 'WEB', lineItems: [catalogLine(productId)], checkoutInfo: { buyerInfo: { email: 'b@example.com' }, shippingInfo: { shippingDestination: { address: NEW_YORK } } } },
  });
  const placed = await t.app.inject({ method: 'POST', url: `/ecom/v1/checkouts/${created.json().checkout.id}/create-order`, headers: { authorization: token }, payload: {} });
  expect(placed.statusCode).toBe(200);
  await (merchant(s).orders as unknown as PaymentsCollector).paymentCollectionMarkOrderAsPaid(placed.json().orderId as string);
}

describe('product reviews through @wix/reviews', () => {
  it('a verified buyer and another member review; the shop shows both with the average; one review each', async () => {
    const alice = await member(site, 'Alice');
    const bob = await member(site, 'Bob');
    await paidOrder(site, alice.token, lamp.id);

    const mine = await alice.client.reviews.createReview({ namespace: 'stores', entityId: lamp.id, content: { rating: 5, title: 'Bright', body: 'Lights the room.' } });
    expect(mine).toMatchObject({ entityId: lamp.id, verified: true, content: { rating: 5, title: 'Bright' }, author: { contactId: alice.memberId, authorName: 'Alice' }, moderation: { moderationStatus: 'APPROVED' } });
    expect(mine._id).toEqual(expect.any(String));
    const his = await bob.client.reviews.createReview({ namespace: 'stores', entityId: lamp.id, content: { rating: 2 } });
    expect(his.verified).toBe(false);

    const again = await failure(alice.client.reviews.createReview({ namespace: 'stores', entityId: lamp.id, content: { rating: 1 } }));
    expect(again).toMatchObject({ status: 409, code: 'REVIEW_ALREADY_EXISTS' });

    const shown = await visitor(site).reviews.queryReviews().eq('namespace', 'stores').eq('entityId', lamp.id).descending('content.rating').find();
    expect(shown.items.map((r) => r.content?.rating)).toEqual([5, 2]);
    expect(await ratings(site, lamp.id)).toEqual({ entityId: lamp.id, count: 2, average: '3.5' });
    expect((await visitor(site).reviews.countReviews({ filter: { entityId: lamp.id } })).count).toBe(2);

    // A visitor may read but not write; no token at all is refused.
    expect(await failure(visitor(site).reviews.createReview({ namespace: 'stores', entityId: lamp.id, content: { rating: 4 } }))).toMatchObject({ status: 403 });
    const anonymous = await t.app.inject({ method: 'POST', url: '/reviews/v1/reviews/query', payload: {} });
    expect(anonymous.statusCode).toBe(401);
  });

  it('the back office rejects, replies and approves again; the summary follows; the author still sees their own', async () => {
    const p = await createProduct(t.app, site, { name: 'Chair', priceData: { price: 80 } });
    const carol = await member(site, 'Carol');
    const dan = await member(site, 'Dan');
    const good = await carol.client.reviews.createReview({ namespace: 'stores', entityId: p.id, content: { rating: 4 } });
    const bad = await dan.client.reviews.createReview({ namespace: 'stores', entityId: p.id, content: { rating: 1, body: 'spam' } });
    const admin = merchant(site);
    const goodId = good._id ?? '';
    const badId = bad._id ?? '';

    const rejected = await admin.reviews.updateModerationStatus(badId, { status: 'REJECTED' });
    expect(rejected.review?.moderation).toEqual({ moderationStatus: 'REJECTED', manuallyChanged: true });
    expect(await ratings(site, p.id)).toMatchObject({ count: 1, average: '4.0' });
    expect((await visitor(site).reviews.queryReviews().eq('entityId', p.id).find()).items.map((r) => r._id)).toEqual([goodId]);
    expect((await dan.client.reviews.queryReviews().eq('entityId', p.id).find()).items.map((r) => r._id).sort()).toEqual([goodId, badId].sort());
    expect((await admin.reviews.queryReviews({ returnPrivateReviews: true }).eq('entityId', p.id).eq('moderation.moderationStatus', 'REJECTED').find()).items.map((r) => r._id)).toEqual([badId]);

    const replied = await admin.reviews.setReply(goodId, 'Thank you!');
    expect(replied.review?.reply?.message).toBe('Thank you!');
    expect((await visitor(site).reviews.getReview(goodId)).reply?.message).toBe('Thank you!');

    await admin.reviews.updateModerationStatus(badId, { status: 'APPROVED' });
    expect(await ratings(site, p.id)).toMatchObject({ count: 2, average: '2.5' });
    await dan.client.reviews.deleteReview(badId);
    expect(await ratings(site, p.id)).toMatchObject({ count: 1, average: '4.0' });

    // Shoppers cannot moderate; another site cannot see this site's reviews.
    const asMember = await t.app.inject({ method: 'PATCH', url: `/reviews/v1/reviews/${goodId}/moderate`, headers: { authorization: carol.token }, payload: { status: 'REJECTED' } });
    expect(asMember.statusCode).toBe(403);
    const other = await t.createSite();
    const elsewhere = await t.app.inject({ method: 'PATCH', url: `/reviews/v1/reviews/${goodId}/moderate`, headers: apiKey(other), payload: { status: 'REJECTED' } });
    expect(elsewhere.statusCode).toBe(404);
    expect((await merchant(other).reviews.queryReviews({ returnPrivateReviews: true }).find()).items).toEqual([]);
  });

  it('keeps the summary exact under concurrent reviews and moderation', async () => {
    const p = await createProduct(t.app, site, { name: 'Stool', priceData: { price: 20 } });
    const people = await Promise.all(Array.from({ length: 8 }, (_, i) => member(site, `Sitter ${i}`)));
    const created = (await Promise.all(people.map((m, i) => m.client.reviews.createReview({ namespace: 'stores', entityId: p.id, content: { rating: (i % 5) + 1 } })))).map((r) => ({ _id: r._id ?? '' }));
    expect(await ratings(site, p.id)).toMatchObject({ count: 8 });
    const admin = merchant(site);
    // The same review rejected and approved at once, twice over, and others rejected in parallel.
    await Promise.all([
      admin.reviews.updateModerationStatus(created[0]._id, { status: 'REJECTED' }),
      admin.reviews.updateModerationStatus(created[0]._id, { status: 'REJECTED' }),
      admin.reviews.updateModerationStatus(created[1]._id, { status: 'REJECTED' }),
      admin.reviews.updateModerationStatus(created[2]._id, { status: 'REJECTED' }),
    ]);
    const approved = (await admin.reviews.queryReviews({ returnPrivateReviews: true }).eq('entityId', p.id).eq('moderation.moderationStatus', 'APPROVED').find()).items;
    const sum = approved.reduce((s, r) => s + (r.content?.rating ?? 0), 0);
    const summary = await ratings(site, p.id);
    expect(summary.count).toBe(approved.length);
    expect(summary.count).toBe(5);
    expect(Number(summary.average)).toBeCloseTo(Math.round((sum / approved.length) * 10) / 10, 5);
  });

  it('refuses a product the shop does not have, a bad rating and an unknown namespace', async () => {
    const erin = await member(site, 'Erin');
    expect(await failure(erin.client.reviews.createReview({ namespace: 'stores', entityId: 'no-such-product', content: { rating: 3 } }))).toMatchObject({ status: 404 });
    const bad = await t.app.inject({ method: 'POST', url: '/reviews/v1/reviews', headers: { authorization: erin.token }, payload: { review: { namespace: 'stores', entityId: lamp.id, content: { rating: 6 } } } });
    expect(bad.statusCode).toBe(400);
    const ns = await t.app.inject({ method: 'POST', url: '/reviews/v1/reviews', headers: { authorization: erin.token }, payload: { review: { namespace: 'blog', entityId: lamp.id, content: { rating: 3 } } } });
    expect(ns.json().details.applicationError.code).toBe('NAMESPACE_NOT_SUPPORTED');
    const query = await t.app.inject({ method: 'POST', url: '/reviews/v1/reviews/query', headers: { authorization: erin.token }, payload: { query: { filter: { secret: 1 } } } });
    expect(query.statusCode).toBe(400);
  });
});
