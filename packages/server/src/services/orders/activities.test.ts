// The merchant's timeline entries through the official @wix/ecom orders calls (addActivity,
// addActivities, updateActivity, deleteActivity): written under the order's lock, audited, the
// shop's own entries untouchable; only this site's staff and API key may write them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { orders } from '@wix/ecom';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { backOfficeSite, type BackOfficeSite } from '../../test/backoffice.js';
import { listen, redirectWixFetch } from '../../test/wix-fetch.js';
import { catalogLine, createProduct, placeOrder } from '../../test/commerce.js';

let t: TestApp;
let a: BackOfficeSite;
let b: BackOfficeSite;
let site: TestSite;
let wixFetch: ReturnType<typeof redirectWixFetch>;
let productId: string;

beforeAll(async () => {
  t = await testApp();
  a = await backOfficeSite(t);
  b = await backOfficeSite(t);
  site = a.site;
  productId = (await createProduct(t.app, site, { name: 'Print', priceData: { price: 12.5 }, productType: 'digital' })).id;
  wixFetch = redirectWixFetch(await listen(t.app));
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
});

type WireActivity = { _id?: string | null; type?: string; merchantComment?: { message?: string }; customActivity?: { type?: string; appId?: string; additionalData?: Record<string, string> } };
type PublicActivity = Pick<WireActivity, 'merchantComment' | 'customActivity'>;
type OrderWithActivities = { activities?: WireActivity[] };
/** The typings of this @wix/ecom version leave out the activity calls its orders module exports. */
interface ActivityCalls {
  getOrder(id: string): Promise<OrderWithActivities>;
  addActivity(id: string, activity: PublicActivity): Promise<{ order?: OrderWithActivities; activityId?: string }>;
  addActivities(orderId: string, options: { orderActivities: PublicActivity[] }): Promise<{ order?: OrderWithActivities; activityIds?: string[] }>;
  updateActivity(identifiers: { _id: string; activityId: string }, activity: PublicActivity): Promise<{ order?: OrderWithActivities }>;
  deleteActivity(identifiers: { _id: string; activityId: string }): Promise<{ order?: OrderWithActivities }>;
}

const merchant = () => ({ orders: createClient({ modules: { orders }, auth: ApiKeyStrategy({ apiKey: site.apiKey, siteId: site.siteId }) }).orders as unknown as ActivityCalls });

async function newOrder(): Promise<string> {
  return (await placeOrder(t.app, site, await t.visitorToken(site), [catalogLine(productId)])).orderId;
}

describe('order activities through the official SDK', () => {
  it('adds a note and custom activities, changes and removes them; each is audited', async () => {
    const orderId = await newOrder();
    const client = merchant();
    const added = await client.orders.addActivity(orderId, { merchantComment: { message: 'Customer called: gift wrap please' } });
    expect(added.activityId).toEqual(expect.any(String));
    const types = (await client.orders.getOrder(orderId)).activities?.map((x) => [x.type, x.merchantComment?.message]);
    expect(types).toEqual([['ORDER_PLACED', undefined], ['MERCHANT_COMMENT', 'Customer called: gift wrap please']]);

    const many = await client.orders.addActivities(orderId, {
      orderActivities: [
        { customActivity: { type: 'crm.call', appId: 'crm-app', additionalData: { minutes: '4' } } },
        { merchantComment: { message: 'Second note' } },
      ],
    });
    expect(many.activityIds).toHaveLength(2);
    const [customId, secondId] = many.activityIds ?? [];

    await client.orders.updateActivity({ _id: orderId, activityId: added.activityId ?? '' }, { merchantComment: { message: 'Gift wrap, blue paper' } });
    await client.orders.deleteActivity({ _id: orderId, activityId: secondId });
    const after = await client.orders.getOrder(orderId);
    const custom = after.activities?.find((x) => x._id === customId);
    expect(custom?.customActivity).toEqual({ type: 'crm.call', appId: 'crm-app', additionalData: { minutes: '4' } });
    expect(after.activities?.map((x) => x.merchantComment?.message).filter(Boolean)).toEqual(['Gift wrap, blue paper']);

    const audit = await t.db.query<{ action: string }>('SELECT action FROM audit_log WHERE site_id = $1 AND object_id = $2 ORDER BY recorded_at, action', [site.siteId, orderId]);
    expect(audit.map((x) => x.action).sort()).toEqual(['order.activity_added', 'order.activity_added', 'order.activity_deleted', 'order.activity_updated']);
  });

  it('refuses to change the shop\'s own entries, a kind change, an unknown activity, and an empty activity', async () => {
    const orderId = await newOrder();
    const placed = (await merchant().orders.getOrder(orderId)).activities?.[0]?._id ?? '';
    const headers = a.headers.apiKey;
    const del = await t.app.inject({ method: 'DELETE', url: `/ecom/v1/orders/${orderId}/activities/${placed}`, headers });
    expect([del.statusCode, del.json().details.applicationError.code]).toEqual([400, 'ACTIVITY_NOT_EDITABLE']);
    const note = await t.app.inject({ method: 'POST', url: `/ecom/v1/orders/${orderId}/activities`, headers, payload: { activity: { merchantComment: { message: 'hi' } } } });
    const kind = await t.app.inject({ method: 'PATCH', url: `/ecom/v1/orders/${orderId}/activities/${note.json().activityId}`, headers, payload: { activity: { customActivity: { type: 'x' } } } });
    expect([kind.statusCode, kind.json().details.applicationError.code]).toEqual([400, 'ACTIVITY_TYPE_MISMATCH']);
    const unknown = await t.app.inject({ method: 'DELETE', url: `/ecom/v1/orders/${orderId}/activities/nope`, headers });
    expect([unknown.statusCode, unknown.json().details.applicationError.code]).toEqual([404, 'ACTIVITY_NOT_FOUND']);
    const empty = await t.app.inject({ method: 'POST', url: `/ecom/v1/orders/${orderId}/activities`, headers, payload: { activity: {} } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details.validationError.fieldViolations[0].field).toBe('activity');
    const missing = await t.app.inject({ method: 'POST', url: '/ecom/v1/orders/nope/activities', headers, payload: { activity: { merchantComment: { message: 'x' } } } });
    expect(missing.statusCode).toBe(404);
  });
});

describe('who may write activities', () => {
  it('this site\'s owner, contributor and key; another site\'s owner and key find nothing; shoppers and no token are refused', async () => {
    const orderId = await newOrder();
    const note = { activity: { merchantComment: { message: 'access' } } };
    const owned = await t.app.inject({ method: 'POST', url: `/ecom/v1/orders/${orderId}/activities`, headers: a.headers.owner, payload: note });
    const activityId = owned.json().activityId as string;
    const calls = [
      { method: 'POST' as const, url: `/ecom/v1/orders/${orderId}/activities`, payload: note },
      { method: 'POST' as const, url: `/_api/ecom-orders/v1/orders/${orderId}/activities/add`, payload: { orderActivities: [note.activity] } },
      { method: 'PATCH' as const, url: `/ecom/v1/orders/${orderId}/activities/${activityId}`, payload: note },
    ];
    for (const call of calls) {
      for (const who of ['owner', 'contributor', 'apiKey'] as const) {
        const res = await t.app.inject({ ...call, headers: a.headers[who] });
        expect(res.statusCode, `${who} ${call.method} ${call.url}: ${res.body}`).toBe(200);
      }
    }
    const all: { method: 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: object }[] = [...calls, { method: 'DELETE', url: `/ecom/v1/orders/${orderId}/activities/${activityId}` }];
    for (const call of all) {
      const request = { method: call.method, url: call.url, ...(call.payload ? { payload: call.payload } : {}) };
      for (const who of ['owner', 'apiKey'] as const) {
        const res = await t.app.inject({ ...request, headers: b.headers[who] });
        expect(res.statusCode, `other site's ${who} ${call.method} ${call.url}`).toBe(404);
      }
      for (const [who, status] of [['visitor', 403], ['member', 403], ['anonymous', 401]] as const) {
        const res = await t.app.inject({ ...request, headers: a.headers[who] });
        expect(res.statusCode, `${who} ${call.method} ${call.url}`).toBe(status);
      }
    }
    const removed = await t.app.inject({ method: 'DELETE', url: `/ecom/v1/orders/${orderId}/activities/${activityId}`, headers: a.headers.contributor });
    expect(removed.statusCode, removed.body).toBe(200);
  });
});
