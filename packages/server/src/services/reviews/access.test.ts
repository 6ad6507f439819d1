// Who may call the calls of issue 24's modules (recommendations, reviews, back-in-stock requests):
// every caller kind against each, then another site's owner and API key against this site's records.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/harness.js';
import { backOfficeSite, CALLERS, type BackOfficeSite, type CallerName } from '../../test/backoffice.js';
import { createProduct, STORES_APP_ID, type WireProduct } from '../../test/commerce.js';

let t: TestApp;
let s: BackOfficeSite;
let other: BackOfficeSite;
let product: WireProduct;

beforeAll(async () => {
  t = await testApp();
  s = await backOfficeSite(t);
  other = await backOfficeSite(t);
  product = await createProduct(t.app, s.site, { name: 'Kettle', priceData: { price: 30 } });
});
afterAll(async () => t.close());

type Who = 'shoppers' | 'backOffice';
interface Call { method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'; url: string; payload?: Record<string, unknown>; who: Who }

const BIS = '/back-in-stock-service/v1/back-in-stock-notification-requests';
const SAME_CATEGORIES = { id: '68ebce04-b96a-4c52-9329-08fc9d8c1253', appId: STORES_APP_ID };

const CALLS: Call[] = [
  { method: 'POST', url: '/v1/recommendations/get', payload: { algorithms: [SAME_CATEGORIES] }, who: 'shoppers' },
  { method: 'GET', url: '/v1/recommendations/algorithms', who: 'shoppers' },
  { method: 'POST', url: '/reviews/v1/reviews/query', payload: {}, who: 'shoppers' },
  { method: 'POST', url: '/reviews/v1/reviews/count', payload: {}, who: 'shoppers' },
  { method: 'GET', url: '/reviews/v1/reviews/none', who: 'shoppers' },
  { method: 'DELETE', url: '/reviews/v1/reviews/none', who: 'shoppers' },
  { method: 'PATCH', url: '/reviews/v1/reviews/none', payload: { review: { content: { rating: 3 } } }, who: 'shoppers' },
  { method: 'GET', url: '/bodega/v1/reviews/ratings?entityId=none', who: 'shoppers' },
  { method: 'PATCH', url: '/reviews/v1/reviews/none/moderate', payload: { status: 'REJECTED' }, who: 'backOffice' },
  { method: 'PATCH', url: '/reviews/v1/reviews/none/reply', payload: { message: 'Thanks' }, who: 'backOffice' },
  { method: 'DELETE', url: '/reviews/v1/reviews/none/reply', who: 'backOffice' },
  { method: 'POST', url: BIS, payload: { request: { catalogReference: { catalogItemId: 'none', appId: STORES_APP_ID }, email: 'a@example.com' } }, who: 'shoppers' },
  { method: 'GET', url: BIS, who: 'backOffice' },
  { method: 'POST', url: `${BIS}/query`, payload: {}, who: 'backOffice' },
  { method: 'GET', url: `${BIS}/none`, who: 'backOffice' },
  { method: 'DELETE', url: `${BIS}/none`, who: 'backOffice' },
  { method: 'PUT', url: `${BIS}/none/mark-as-notification-sent`, who: 'backOffice' },
  { method: 'POST', url: `${BIS}/report-items-back-in-stock`, payload: { catalogReference: { catalogItemId: 'none', appId: STORES_APP_ID } }, who: 'backOffice' },
];

function expected(caller: CallerName, call: Call): 'allowed' | 401 | 403 {
  if (caller === 'anonymous') return 401;
  if (call.who === 'backOffice' && (caller === 'visitor' || caller === 'member')) return 403;
  return 'allowed';
}

describe('who may call the modules of issue 24', () => {
  for (const call of CALLS) {
    it(`${call.method} ${call.url}`, async () => {
      for (const caller of CALLERS) {
        const res = await t.app.inject({ method: call.method, url: call.url, headers: s.headers[caller], ...(call.payload ? { payload: call.payload } : {}) });
        const label = `${caller}: ${res.statusCode} ${res.body.slice(0, 200)}`;
        const want = expected(caller, call);
        if (want === 'allowed') {
          // Allowed callers get the answer, a 404 for the made-up ids, or 403 where only the author may act.
          expect([200, 403, 404], label).toContain(res.statusCode);
          if (res.statusCode === 403) expect(['DELETE', 'PATCH'], label).toContain(call.method);
        } else {
          expect(res.statusCode, label).toBe(want);
          expect(res.json(), label).toHaveProperty('details.applicationError.code');
        }
      }
    });
  }

  it('creating a review: a member may, a visitor may not, the back office names the member', async () => {
    const payload = { review: { namespace: 'stores', entityId: product.id, content: { rating: 4 } } };
    const post = (caller: CallerName, body: object = payload) => t.app.inject({ method: 'POST', url: '/reviews/v1/reviews', headers: s.headers[caller], payload: body });
    expect((await post('member')).statusCode).toBe(200);
    expect((await post('visitor')).statusCode).toBe(403);
    expect((await post('anonymous')).statusCode).toBe(401);
    expect((await post('apiKey')).statusCode).toBe(400);
    const named = await post('owner', { review: { ...payload.review, author: { contactId: s.contributorId } } });
    expect(named.statusCode, named.body).toBe(200);
  });

  it("another site's owner and API key reach none of this site's reviews and requests", async () => {
    const review = await t.app.inject({ method: 'POST', url: '/reviews/v1/reviews/query', headers: s.headers.owner, payload: { returnPrivateReviews: true } });
    const reviewId = review.json().reviews[0].id as string;
    const request = await t.app.inject({ method: 'POST', url: BIS, headers: s.headers.visitor, payload: { request: { catalogReference: { catalogItemId: product.id, appId: STORES_APP_ID }, email: 'b@example.com' } } });
    const requestId = request.json().request.id as string;
    for (const caller of ['owner', 'apiKey'] as const) {
      const h = other.headers[caller];
      expect((await t.app.inject({ method: 'GET', url: `/reviews/v1/reviews/${reviewId}`, headers: h })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'PATCH', url: `/reviews/v1/reviews/${reviewId}/moderate`, headers: h, payload: { status: 'REJECTED' } })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: `${BIS}/${requestId}`, headers: h })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'DELETE', url: `${BIS}/${requestId}`, headers: h })).statusCode).toBe(404);
      const listed = await t.app.inject({ method: 'POST', url: `${BIS}/query`, headers: h, payload: {} });
      expect(listed.json().requests).toEqual([]);
    }
    // The rightful owner still has both.
    expect((await t.app.inject({ method: 'GET', url: `/reviews/v1/reviews/${reviewId}`, headers: s.headers.owner })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `${BIS}/${requestId}`, headers: s.headers.apiKey })).statusCode).toBe(200);
  });
});
