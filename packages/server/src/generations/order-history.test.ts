/**
 * Issue 24, finding 8: a 2024 template's order-history page asks for the signed-in member's orders
 * with `searchOrders({filter: {"buyerInfo.contactId": …}})` (the contact id it read from
 * `getCurrentMember`). Through @wix/sdk 1.9 with @wix/ecom 1.0.540 and @wix/members 1.0.77; the
 * back office then uses the other documented filters and sorts through the current @wix/ecom.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, OAuthStrategy, TokenRole, type Tokens } from 'wix-sdk-2024';
import { orders as orders2024 } from 'wix-ecom-2024';
import { members as members2024 } from 'wix-members-2024';
import { ApiKeyStrategy, createClient as createCurrentClient } from '@wix/sdk';
import { orders } from '@wix/ecom';
import { testApp, type TestApp, type TestSite } from '../test/harness.js';
import { listen, redirectWixFetch } from '../test/wix-fetch.js';
import { adminClient, newMember } from '../test/members.js';
import { apiKey, catalogLine, createProduct, NEW_YORK, placeOrder, type WireProduct } from '../test/commerce.js';

let t: TestApp;
let wixFetch: ReturnType<typeof redirectWixFetch>;
let site: TestSite;
let mug: WireProduct;
let tee: WireProduct;

beforeAll(async () => {
  t = await testApp();
  wixFetch = redirectWixFetch(await listen(t.app), ['https://readonly.wixapis.com']);
  site = await t.createSite();
  mug = await createProduct(t.app, site, { name: 'Mug', priceData: { price: 12 } });
  tee = await createProduct(t.app, site, { name: 'Tee', priceData: { price: 25.5 } });
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
});

async function memberTokens(memberId: string): Promise<Tokens> {
  const grant = await t.app.services.oauth.startSession(t.app.services.sites.contextFor(site.siteId), { clientId: site.clientId, role: 'member', subjectId: memberId });
  return {
    accessToken: { value: grant.access_token, expiresAt: Math.floor(Date.now() / 1000) + grant.expires_in },
    refreshToken: { value: grant.refresh_token, role: TokenRole.MEMBER },
  };
}

async function memberOrder(tokens: Tokens, lines: ReturnType<typeof catalogLine>[], billing?: { firstName: string; lastName: string }): Promise<string> {
  const authorization = tokens.accessToken.value;
  const created = await t.app.inject({
    method: 'POST', url: '/ecom/v1/checkouts', headers: { authorization },
    payload: {
      channelType: 'WEB', lineItems: lines,
      checkoutInfo: {
        buyerInfo: { email: 'member@example.com' },
        shippingInfo: { shippingDestination: { address: NEW_YORK } },
        ...(billing ? { billingInfo: { address: NEW_YORK, contactDetails: billing } } : {}),
      },
    },
  });
  expect(created.statusCode).toBe(200);
  const placed = await t.app.inject({ method: 'POST', url: `/ecom/v1/checkouts/${created.json().checkout.id}/create-order`, headers: { authorization }, payload: {} });
  expect(placed.statusCode).toBe(200);
  return placed.json().orderId as string;
}

describe('the order history of a 2024 template (@wix/sdk 1.9)', () => {
  it('lists the signed-in member\'s orders filtered on buyerInfo.contactId, newest first', async () => {
    const admin = adminClient(site);
    const aliceId = await newMember(admin, { nickname: 'Alice' });
    const bobId = await newMember(admin, { nickname: 'Bob' });
    const alice = await memberTokens(aliceId);
    const first = await memberOrder(alice, [catalogLine(mug.id)]);
    const second = await memberOrder(alice, [catalogLine(tee.id, 2)]);
    await memberOrder(await memberTokens(bobId), [catalogLine(mug.id)]);
    await placeOrder(t.app, site, await t.visitorToken(site), [catalogLine(mug.id)]);

    const app = createClient({ modules: { orders: orders2024, members: members2024 }, auth: OAuthStrategy({ clientId: site.clientId, tokens: alice }) });
    const me = await app.members.getCurrentMember();
    const contactId = me.member?.contactId ?? '';
    expect(contactId).not.toBe('');
    const history = await app.orders.searchOrders({
      search: { filter: { 'buyerInfo.contactId': { $eq: contactId } }, sort: [{ fieldName: 'createdDate', order: orders2024.SortOrder.DESC }] },
    });
    const found = history.orders ?? [];
    expect(new Set(found.map((o) => o._id))).toEqual(new Set([first, second]));
    expect(found.every((o) => o.buyerInfo?.contactId === contactId && o.buyerInfo?.memberId === aliceId)).toBe(true);

    // The back office finds the same orders by contact, and none of anybody else's.
    const merchant = createCurrentClient({ modules: { orders }, auth: ApiKeyStrategy({ apiKey: site.apiKey, siteId: site.siteId }) });
    const byContact = await merchant.orders.searchOrders({ filter: { 'buyerInfo.contactId': { $in: [contactId] } } });
    expect(new Set(byContact.orders?.map((o) => o._id))).toEqual(new Set([first, second]));
    const notHers = await merchant.orders.searchOrders({ filter: { 'buyerInfo.contactId': { $ne: contactId } } });
    expect(notHers.orders?.some((o) => o._id === first || o._id === second)).toBe(false);
    expect(notHers.orders?.length).toBe(2);
  });
});

describe('every documented order filter and sort', () => {
  it('filters on line items, totals, billing name, shipping and channel, and sorts on statuses and e-mail with paging', async () => {
    const s = await t.createSite();
    const cup = await createProduct(t.app, s, { name: 'Cup', priceData: { price: 3 } });
    const pot = await createProduct(t.app, s, { name: 'Pot', priceData: { price: 40 } });
    const ids: string[] = [];
    for (const [i, lines] of [[catalogLine(cup.id)], [catalogLine(pot.id)], [catalogLine(cup.id), catalogLine(pot.id)]].entries()) {
      ids.push((await placeOrder(t.app, s, await t.visitorToken(s), lines, { email: `z${3 - i}@example.com` })).orderId);
    }
    const search = async (body: object) => {
      const res = await t.app.inject({ method: 'POST', url: '/ecom/v1/orders/search', headers: apiKey(s), payload: { search: body } });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().orders as { id: string }[]).map((o) => o.id);
    };
    const set = async (body: object) => new Set(await search(body));

    expect(await set({ filter: { 'lineItems.productName.original': { $hasSome: ['Pot'] } } })).toEqual(new Set([ids[1], ids[2]]));
    expect(await set({ filter: { 'lineItems.productName.original': { $hasAll: ['Cup', 'Pot'] } } })).toEqual(new Set([ids[2]]));
    expect(await set({ filter: { 'lineItems.catalogReference.catalogItemId': { $nin: [pot.id] } } })).toEqual(new Set([ids[0]]));
    expect(await set({ filter: { 'lineItems.catalogReference.appId': '215238eb-22a5-4c36-9e7b-e7c08025e04e' } })).toEqual(new Set(ids));
    // Totals compare exactly in major units (shipping is free on a new site, no tax).
    expect(await set({ filter: { 'priceSummary.total.amount': { $gte: '40' } } })).toEqual(new Set([ids[1], ids[2]]));
    expect(await set({ filter: { 'priceSummary.total.amount': { $eq: 3 } } })).toEqual(new Set([ids[0]]));
    expect(await set({ filter: { 'priceSummary.total.amount': { $in: ['43.00', '3'] } } })).toEqual(new Set([ids[0], ids[2]]));
    expect(await set({ filter: { 'channelInfo.type': 'WEB', 'subscriptionInfo.id': { $exists: false } } })).toEqual(new Set(ids));
    expect(await search({ filter: { 'createdBy.userId': 'someone' } })).toEqual([]);
    expect(await search({ filter: { 'billingInfo.contactDetails.fullName': { $startsWith: 'Nobody' } } })).toEqual([]);
    expect((await search({ filter: { 'shippingInfo.title': { $exists: true } } })).length).toBeGreaterThanOrEqual(0);

    // Sorted by e-mail ascending (z1 is the last order), two a page.
    const page = await t.app.inject({ method: 'POST', url: '/ecom/v1/orders/search', headers: apiKey(s), payload: { search: { sort: [{ fieldName: 'buyerInfo.email', order: 'ASC' }], cursorPaging: { limit: 2 } } } });
    expect(page.json().orders.map((o: { id: string }) => o.id)).toEqual([ids[2], ids[1]]);
    const rest = await t.app.inject({ method: 'POST', url: '/ecom/v1/orders/search', headers: apiKey(s), payload: { search: { cursorPaging: { limit: 2, cursor: page.json().metadata.cursors.next } } } });
    expect(rest.json().orders.map((o: { id: string }) => o.id)).toEqual([ids[0]]);
    for (const fieldName of ['status', 'paymentStatus', 'fulfillmentStatus', 'channelInfo.type', 'shippingInfo.title', 'shippingInfo.region.name']) {
      expect((await search({ sort: [{ fieldName, order: 'DESC' }] })).length).toBe(3);
    }
    // What the reference does not list stays a 400 in the wire shape.
    const bad = await t.app.inject({ method: 'POST', url: '/ecom/v1/orders/search', headers: apiKey(s), payload: { search: { filter: { 'lineItems.price': 3 } } } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.applicationError.code).toBe('INVALID_SEARCH');
  });

  it('finds a member order by its billing name', async () => {
    const id = await memberOrder(await memberTokens(await newMember(adminClient(site))), [catalogLine(mug.id)], { firstName: 'Grace', lastName: 'Hopper' });
    const merchant = createCurrentClient({ modules: { orders }, auth: ApiKeyStrategy({ apiKey: site.apiKey, siteId: site.siteId }) });
    const found = await merchant.orders.searchOrders({ filter: { 'billingInfo.contactDetails.firstName': 'Grace' } });
    expect(found.orders?.map((o) => o._id)).toEqual([id]);
    // The REST reference's fullName (first and last name).
    const res = await t.app.inject({ method: 'POST', url: '/ecom/v1/orders/search', headers: apiKey(site), payload: { search: { filter: { 'billingInfo.contactDetails.fullName': { $startsWith: 'Grace Hop' } } } } });
    expect(res.json().orders.map((o: { id: string }) => o.id)).toEqual([id]);
  });
});
