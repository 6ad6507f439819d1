/**
 * Issue 24, finding 3: the templates' product page calls `recommendations.getRecommendation` with
 * the Wix Stores algorithms ("From the same categories", then "Frequently bought together", …).
 * Through @wix/sdk 1.9 with @wix/ecom 1.0.540 (a visitor of a 2024 app) and the current @wix/ecom.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, OAuthStrategy } from 'wix-sdk-2024';
import { recommendations as recommendations2024 } from 'wix-ecom-2024';
import { ApiKeyStrategy, createClient as createCurrentClient } from '@wix/sdk';
import { recommendations } from '@wix/ecom';
import { testApp, type TestApp, type TestSite } from '../test/harness.js';
import { listen, redirectWixFetch } from '../test/wix-fetch.js';
import { apiKey, catalogLine, createProduct, placeOrder, STORES_APP_ID, type WireProduct } from '../test/commerce.js';

const SAME_CATEGORIES = '68ebce04-b96a-4c52-9329-08fc9d8c1253';
const BOUGHT_TOGETHER = 'd5aac1e1-2e53-4d11-85f7-7172710b4783';
const BEST_SELLERS = 'ba491fd2-b172-4552-9ea6-7202e01d1d3c';

let t: TestApp;
let wixFetch: ReturnType<typeof redirectWixFetch>;
let site: TestSite;
let p: Record<'mug' | 'cup' | 'tea' | 'pot' | 'hidden' | 'lone', WireProduct>;

async function collection(s: TestSite, name: string, productIds: string[]) {
  const res = await t.app.inject({ method: 'POST', url: '/stores/v1/collections', headers: apiKey(s), payload: { collection: { name } } });
  const id = res.json().collection.id as string;
  const added = await t.app.inject({ method: 'POST', url: `/stores/v1/collections/${id}/productIds`, headers: apiKey(s), payload: { productIds } });
  expect(added.statusCode).toBe(200);
}

beforeAll(async () => {
  t = await testApp();
  wixFetch = redirectWixFetch(await listen(t.app), ['https://readonly.wixapis.com']);
  site = await t.createSite();
  const make = (name: string, extra: object = {}) => createProduct(t.app, site, { name, priceData: { price: 5 }, ...extra });
  p = { mug: await make('Mug'), cup: await make('Cup'), tea: await make('Tea'), pot: await make('Pot'), hidden: await make('Hidden', { visible: false }), lone: await make('Lone') };
  await collection(site, 'Kitchen', [p.mug.id, p.cup.id, p.pot.id, p.hidden.id]);
  await collection(site, 'Drinkware', [p.mug.id, p.cup.id]);
  // Orders: mug with tea twice, mug with pot once; pot is the best seller by units.
  await placeOrder(t.app, site, await t.visitorToken(site), [catalogLine(p.mug.id), catalogLine(p.tea.id)]);
  await placeOrder(t.app, site, await t.visitorToken(site), [catalogLine(p.mug.id), catalogLine(p.tea.id)]);
  await placeOrder(t.app, site, await t.visitorToken(site), [catalogLine(p.mug.id), catalogLine(p.pot.id, 5)]);
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
});

const algorithm = (id: string) => ({ _id: id, appId: STORES_APP_ID });
const item = (product: WireProduct) => ({ catalogItemId: product.id, appId: STORES_APP_ID });

describe('recommendations through a 2024 app (@wix/ecom 1.0.540, a visitor)', () => {
  const visitor = () => createClient({ modules: { recommendations: recommendations2024 }, auth: OAuthStrategy({ clientId: site.clientId }) });

  it('recommends from the same categories first, most shared collections first, never hidden or the item itself', async () => {
    const { recommendation } = await visitor().recommendations.getRecommendation([algorithm(SAME_CATEGORIES), algorithm(BOUGHT_TOGETHER)], { items: [item(p.mug)], minimumRecommendedItems: 1 });
    expect(recommendation?.items?.map((i) => i.catalogItemId)).toEqual([p.cup.id, p.pot.id]);
    expect(recommendation?.algorithm).toEqual({ _id: SAME_CATEGORIES, appId: STORES_APP_ID });
  });

  it('falls through to the next algorithm when one finds fewer than the minimum', async () => {
    const { recommendation } = await visitor().recommendations.getRecommendation([algorithm(SAME_CATEGORIES), algorithm(BOUGHT_TOGETHER)], { items: [item(p.mug)], minimumRecommendedItems: 3 });
    expect(recommendation?.items).toEqual([]);
    const together = await visitor().recommendations.getRecommendation([algorithm(SAME_CATEGORIES), algorithm(BOUGHT_TOGETHER)], { items: [item(p.tea)] });
    expect(together.recommendation?.items?.map((i) => i.catalogItemId)).toEqual([p.mug.id]);
    expect(together.recommendation?.algorithm?._id).toBe(BOUGHT_TOGETHER);
    const mugs = await visitor().recommendations.getRecommendation([algorithm(BOUGHT_TOGETHER)], { items: [item(p.mug)] });
    expect(mugs.recommendation?.items?.map((i) => i.catalogItemId)).toEqual([p.tea.id, p.pot.id]);
  });

  it('answers {recommendation: {items: []}} when there is nothing to recommend', async () => {
    const { recommendation } = await visitor().recommendations.getRecommendation([algorithm(SAME_CATEGORIES), algorithm(BOUGHT_TOGETHER)], { items: [item(p.lone)] });
    expect(recommendation?.items).toEqual([]);
  });
});

describe('recommendations through the current @wix/ecom', () => {
  const merchant = () => createCurrentClient({ modules: { recommendations }, auth: ApiKeyStrategy({ apiKey: site.apiKey, siteId: site.siteId }) });

  it('lists the algorithms and serves best sellers by units sold', async () => {
    const availableAlgorithms = (await merchant().recommendations.listAvailableAlgorithms()).availableAlgorithms ?? [];
    expect(availableAlgorithms.map((a) => a.config?.algorithmId)).toEqual(expect.arrayContaining([SAME_CATEGORIES, BOUGHT_TOGETHER, BEST_SELLERS]));
    expect(availableAlgorithms.find((a) => a.config?.algorithmId === BEST_SELLERS)?.config?.algorithmType).toBe('GLOBAL');
    const best = await merchant().recommendations.getRecommendation([algorithm(BEST_SELLERS)]);
    expect(best.recommendation?.items?.map((i) => i.catalogItemId)).toEqual([p.pot.id, p.mug.id, p.tea.id]);
  });

  it('refuses unknown algorithms and foreign catalogs in the wire error shape', async () => {
    const unknown = await t.app.inject({ method: 'POST', url: '/v1/recommendations/get', headers: apiKey(site), payload: { algorithms: [{ id: 'nope', appId: STORES_APP_ID }] } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().details.applicationError.code).toBe('ALGORITHM_NOT_SUPPORTED');
    const foreign = await t.app.inject({ method: 'POST', url: '/v1/recommendations/get', headers: apiKey(site), payload: { algorithms: [{ id: SAME_CATEGORIES, appId: STORES_APP_ID }], items: [{ catalogItemId: 'x', appId: 'bookings' }] } });
    expect(foreign.json().details.applicationError.code).toBe('ITEM_APP_ID_NOT_SUPPORTED');
    const empty = await t.app.inject({ method: 'POST', url: '/v1/recommendations/get', headers: apiKey(site), payload: { algorithms: [] } });
    expect(empty.statusCode).toBe(400);
  });

  it('recommends only the caller\'s own site\'s products', async () => {
    const other = await t.createSite();
    const res = await t.app.inject({ method: 'POST', url: '/v1/recommendations/get', headers: apiKey(other), payload: { algorithms: [{ id: SAME_CATEGORIES, appId: STORES_APP_ID }], items: [item(p.mug)] } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ recommendation: { items: [] } });
    const anonymous = await t.app.inject({ method: 'POST', url: '/v1/recommendations/get', payload: { algorithms: [{ id: BEST_SELLERS, appId: STORES_APP_ID }] } });
    expect(anonymous.statusCode).toBe(401);
  });
});
