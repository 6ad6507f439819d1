/**
 * Back-in-stock requests through the official @wix/ecom backInStockNotifications (issue 24,
 * finding 7): a shopper asks about a sold-out variant, restocking it sends one mail (stored
 * outbox, same transaction), and the back office lists the requests per product.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient, OAuthStrategy } from '@wix/sdk';
import { backInStockNotifications } from '@wix/ecom';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { listen, redirectWixFetch } from '../../test/wix-fetch.js';
import { apiKey, createProduct, STORES_APP_ID, type WireProduct } from '../../test/commerce.js';

let t: TestApp;
let wixFetch: ReturnType<typeof redirectWixFetch>;
let site: TestSite;

beforeAll(async () => {
  t = await testApp();
  wixFetch = redirectWixFetch(await listen(t.app));
  site = await t.createSite({ name: 'Corner shop' });
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
});

/** A shirt in S and M with tracked per-variant stock: S sold out, M in stock. */
async function shirt(s: TestSite): Promise<{ product: WireProduct; small: string; medium: string }> {
  const product = await createProduct(t.app, s, { name: 'Shirt', priceData: { price: 20 }, productOptions: [{ name: 'Size', choices: [{ value: 'S', description: 'S' }, { value: 'M', description: 'M' }] }] });
  await t.app.inject({ method: 'PATCH', url: `/stores/v1/products/${product.id}`, headers: apiKey(s), payload: { product: { manageVariants: true, stock: { trackInventory: true } } } });
  const variants = (await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${product.id}`, headers: apiKey(s) })).json().product.variants as { id: string; choices: Record<string, string> }[];
  const small = variants.find((v) => v.choices.Size === 'S')?.id ?? '';
  const medium = variants.find((v) => v.choices.Size === 'M')?.id ?? '';
  await stock(s, product.id, [{ variantId: small, quantity: 0 }, { variantId: medium, quantity: 3 }]);
  return { product, small, medium };
}

async function stock(s: TestSite, productId: string, variants: { variantId: string; quantity: number }[]) {
  const res = await t.app.inject({ method: 'PATCH', url: `/stores/v2/inventoryItems/product/${productId}`, headers: apiKey(s), payload: { inventoryItem: { variants } } });
  expect(res.statusCode, res.body).toBe(200);
}

async function mails(s: TestSite) {
  return t.db.query<{ to_address: string; subject: string; text_body: string }>("SELECT to_address, subject, text_body FROM mail_outbox WHERE site_id = $1 AND kind = 'BACK_IN_STOCK' ORDER BY created_at", [s.siteId]);
}

const shopper = (s: TestSite) => createClient({ modules: { backInStockNotifications }, auth: OAuthStrategy({ clientId: s.clientId }) });
const merchant = (s: TestSite) => createClient({ modules: { backInStockNotifications }, auth: ApiKeyStrategy({ apiKey: s.apiKey, siteId: s.siteId }) });

describe('back-in-stock requests through @wix/ecom', () => {
  it('a visitor asks about a sold-out size; restocking it mails once; the back office lists the request', async () => {
    const { product, small, medium } = await shirt(site);
    const ask = () => shopper(site).backInStockNotifications.createBackInStockNotificationRequest(
      { catalogReference: { catalogItemId: product.id, appId: STORES_APP_ID, options: { variantId: small } }, email: 'ann@example.com' },
      { name: 'Shirt (S)', price: '20.00' },
    );
    const request = await ask();
    expect(request).toMatchObject({ email: 'ann@example.com', status: 'RECEIVED', catalogReference: { catalogItemId: product.id } });
    expect((await ask())._id).toBe(request._id); // asking twice: the same request

    await stock(site, product.id, [{ variantId: medium, quantity: 10 }]); // another size: nothing
    expect(await mails(site)).toEqual([]);
    await stock(site, product.id, [{ variantId: small, quantity: 4 }]);
    const sent = await mails(site);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to_address: 'ann@example.com', subject: 'Corner shop: Shirt (S) is back in stock' });
    expect(sent[0].text_body).toContain(`/products/${product.slug}`);
    await stock(site, product.id, [{ variantId: small, quantity: 9 }]);
    expect(await mails(site)).toHaveLength(1);

    const listed = await merchant(site).backInStockNotifications.queryBackInStockNotificationRequests().eq('status', 'NOTIFICATION_SENT').find();
    expect(listed.items.map((r) => [r._id, r.status])).toEqual([[request._id, 'NOTIFICATION_SENT']]);
    // The back office's list for one product.
    const forProduct = await t.app.inject({ method: 'POST', url: '/back-in-stock-service/v1/back-in-stock-notification-requests/query', headers: apiKey(site), payload: { query: { filter: { 'catalogReference.catalogItemId': product.id } } } });
    expect(forProduct.json().requests.map((r: { id: string }) => r.id)).toEqual([request._id]);
    const got = await merchant(site).backInStockNotifications.getBackInStockNotificationRequest(request._id ?? '');
    expect(got.autoNotified).toBe(true);
  });

  it('sends one mail when two restocks race, and none for a request marked sent by the back office', async () => {
    const s = await t.createSite();
    const { product, small } = await shirt(s);
    const ref = { catalogItemId: product.id, appId: STORES_APP_ID, options: { variantId: small } };
    await shopper(s).backInStockNotifications.createBackInStockNotificationRequest({ catalogReference: ref, email: 'bo@example.com' }, { name: 'Shirt', price: '20' });
    const handled = await shopper(s).backInStockNotifications.createBackInStockNotificationRequest({ catalogReference: ref, email: 'cy@example.com' }, { name: 'Shirt', price: '20' });
    await merchant(s).backInStockNotifications.markAsNotificationSent(handled._id ?? '');
    await Promise.all([stock(s, product.id, [{ variantId: small, quantity: 2 }]), stock(s, product.id, [{ variantId: small, quantity: 3 }])]);
    expect((await mails(s)).map((m) => m.to_address)).toEqual(['bo@example.com']);
  });

  it('refuses shoppers the back-office calls, other sites their requests, and bad input', async () => {
    const { product, small } = await shirt(site);
    const visitor = { authorization: await t.visitorToken(site) };
    const list = await t.app.inject({ method: 'POST', url: '/back-in-stock-service/v1/back-in-stock-notification-requests/query', headers: visitor, payload: {} });
    expect(list.statusCode).toBe(403);
    const created = await t.app.inject({
      method: 'POST', url: '/back-in-stock-service/v1/back-in-stock-notification-requests', headers: visitor,
      payload: { request: { catalogReference: { catalogItemId: product.id, appId: STORES_APP_ID, options: { variantId: small } }, email: 'dee@example.com' }, itemDetails: { name: 'Shirt' } },
    });
    expect(created.statusCode).toBe(200);
    const other = await t.createSite();
    const elsewhere = await t.app.inject({ method: 'GET', url: `/back-in-stock-service/v1/back-in-stock-notification-requests/${created.json().request.id}`, headers: apiKey(other) });
    expect(elsewhere.statusCode).toBe(404);
    const badEmail = await t.app.inject({ method: 'POST', url: '/back-in-stock-service/v1/back-in-stock-notification-requests', headers: visitor, payload: { request: { catalogReference: { catalogItemId: product.id, appId: STORES_APP_ID, options: { variantId: small } }, email: 'not-an-email' } } });
    expect(badEmail.statusCode).toBe(400);
    const noSize = await t.app.inject({ method: 'POST', url: '/back-in-stock-service/v1/back-in-stock-notification-requests', headers: visitor, payload: { request: { catalogReference: { catalogItemId: product.id, appId: STORES_APP_ID }, email: 'dee@example.com' } } });
    expect(noSize.json().details.applicationError.code).toBe('OPTIONS_REQUIRED');
    const anonymous = await t.app.inject({ method: 'POST', url: '/back-in-stock-service/v1/back-in-stock-notification-requests', payload: {} });
    expect(anonymous.statusCode).toBe(401);
  });
});
