/**
 * A mid-2024 storefront against a listening server, through the official packages of that time
 * (@wix/sdk 1.9.1, @wix/stores 1.0.141, @wix/ecom 1.0.540, @wix/members 1.0.77, @wix/redirects
 * 1.0.44, kept as npm aliases `wix-*-2024`). Each finding of issue 12 has its case here, named
 * after what the storefront does. SDK 1.9 sends its GETs to readonly.wixapis.com: redirected too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, OAuthStrategy, type Tokens } from 'wix-sdk-2024';
import { collections, products } from 'wix-stores-2024';
import { checkout, currentCart } from 'wix-ecom-2024';
import { members } from 'wix-members-2024';
import { redirects } from 'wix-redirects-2024';
import { signInApp, type SignInApp } from '../test/sign-in.js';
import type { TestSite } from '../test/harness.js';
import { redirectWixFetch } from '../test/wix-fetch.js';
import { apiKey, createProduct, NEW_YORK } from '../test/commerce.js';
import { WIX_STORES_APP_ID } from '../services/catalog/products.js';

let t: SignInApp;
let wixFetch: ReturnType<typeof redirectWixFetch>;

beforeAll(async () => {
  t = await signInApp({ listen: true });
  wixFetch = redirectWixFetch(t.url, ['https://readonly.wixapis.com']);
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
});

function storefront(site: TestSite, tokens?: Tokens) {
  return createClient({
    modules: { products, collections, currentCart, checkout, members, redirects },
    auth: OAuthStrategy({ clientId: site.clientId, ...(tokens && { tokens }) }),
  });
}
type Storefront = ReturnType<typeof storefront>;

async function createCollection(site: TestSite, name: string, productIds: string[]): Promise<{ id: string; slug: string }> {
  const res = await t.app.inject({ method: 'POST', url: '/stores/v1/collections', headers: apiKey(site), payload: { collection: { name } } });
  expect(res.statusCode).toBe(200);
  const collection = (res.json() as { collection: { id: string; slug: string } }).collection;
  const added = await t.app.inject({ method: 'POST', url: `/stores/v1/collections/${collection.id}/productIds`, headers: apiKey(site), payload: { productIds } });
  expect(added.statusCode).toBe(200);
  return collection;
}

/** What a browser does with a login's session token: the authorize step with prompt=none. */
async function signIn(client: Storefront, email: string, password: string): Promise<Tokens> {
  const state = (await client.auth.register({ email, password })) as { loginState: string; data?: { sessionToken?: string } };
  expect(state.loginState).toBe('SUCCESS');
  const oauthData = client.auth.generateOAuthData(`${t.url}/callback`);
  // getMemberTokensForDirectLogin does this in a browser iframe (web_message); SDK 1.9 reads
  // opts.sessionToken though its typings leave it out, so the options go in as a variable.
  const opts = { prompt: 'none' as const, responseMode: 'query' as const, sessionToken: state.data?.sessionToken };
  const { authUrl } = await client.auth.getAuthUrl(oauthData, opts);
  const res = await fetch(authUrl, { redirect: 'manual' });
  expect(res.status).toBe(302);
  const { code, state: returned } = client.auth.parseFromUrl(res.headers.get('location') ?? '', 'query');
  const tokens = await client.auth.getMemberTokens(code, returned, oauthData);
  client.auth.setTokens(tokens);
  return tokens;
}

let counter = 0;
const newEmail = () => `sf2024.${++counter}.${Date.now()}@example.com`;

describe('a 2024 storefront through @wix/sdk 1.9', () => {
  it('finds products by type, name, collection and price range (productType $hasSome)', async () => {
    const site = await t.createSite();
    const shirt = await createProduct(t.app, site, { name: 'Linen Shirt', priceData: { price: 40 } });
    const card = await createProduct(t.app, site, { name: 'Linen Gift Card', productType: 'digital', priceData: { price: 25 } });
    await createProduct(t.app, site, { name: 'Linen Sheet', priceData: { price: 140 } });
    await createProduct(t.app, site, { name: 'Wool Shirt', priceData: { price: 45 } });
    const summer = await createCollection(site, 'Summer', [shirt.id, card.id]);
    const sf = storefront(site);
    const found = await sf.products.queryProducts()
      .hasSome('productType', ['physical', 'digital'])
      .startsWith('name', 'Linen')
      .hasSome('collectionIds', [summer.id])
      .gt('priceData.price', 10)
      .lt('priceData.price', 100)
      .ascending('name')
      .find();
    expect(found.items.map((p) => p.name)).toEqual(['Linen Gift Card', 'Linen Shirt']);
    const physical = await sf.products.queryProducts().hasSome('productType', ['physical']).startsWith('name', 'Linen').find();
    expect(physical.items.map((p) => p.name).sort()).toEqual(['Linen Sheet', 'Linen Shirt']);
    expect(wixFetch.calls).toContain('POST /stores-reader/v1/products/query-platformized');
  });

  it('lists collections and opens one by slug (stores-reader/v2)', async () => {
    const site = await t.createSite();
    const p = await createProduct(t.app, site, { name: 'Straw Hat', priceData: { price: 20 } });
    const hats = await createCollection(site, 'Summer Hats', [p.id]);
    const sf = storefront(site);
    const listed = await sf.collections.queryCollections().eq('name', 'Summer Hats').find();
    expect(listed.items.map((c) => c._id)).toEqual([hats.id]);
    const bySlug = await sf.collections.getCollectionBySlug(hats.slug);
    expect(bySlug.collection).toMatchObject({ _id: hats.id, name: 'Summer Hats', slug: 'summer-hats' });
    const byId = await sf.collections.getCollection(hats.id);
    expect(byId.name).toBe('Summer Hats');
    expect(wixFetch.calls).toEqual(expect.arrayContaining([
      'POST /stores-reader/v2/collections/query',
      'GET /stores-reader/v2/collections/slug/summer-hats',
      `GET /stores-reader/v2/collections/${hats.id}`,
    ]));
  });

  it('keeps the visitor (and their cart) across page loads: refresh without clientId', async () => {
    const site = await t.createSite();
    const p = await createProduct(t.app, site, { name: 'Mug', priceData: { price: 9 } });
    const first = storefront(site);
    const tokens = await first.auth.generateVisitorTokens();
    first.auth.setTokens(tokens);
    await first.currentCart.addToCurrentCart({ lineItems: [{ catalogReference: { appId: WIX_STORES_APP_ID, catalogItemId: p.id }, quantity: 2 }] });

    // The next page load: the stored tokens, the access token expired.
    const expired: Tokens = { ...tokens, accessToken: { value: tokens.accessToken.value, expiresAt: Math.floor(Date.now() / 1000) - 10 } };
    const before = wixFetch.urls.length;
    const next = storefront(site);
    const renewed = await next.auth.generateVisitorTokens(expired);
    expect(renewed.refreshToken.value).toBe(tokens.refreshToken.value);
    expect(renewed.accessToken.expiresAt).toBeGreaterThan(Date.now() / 1000);
    next.auth.setTokens(renewed);
    const cart = await next.currentCart.getCurrentCart();
    expect(cart.lineItems.map((l) => l.quantity)).toEqual([2]);
    expect(wixFetch.urls.slice(before).filter((u) => u.startsWith('POST /oauth2/token'))).toHaveLength(1);

    // The request as SDK 1.9 sends it, and a token of another site.
    const raw = await t.app.inject({ method: 'POST', url: '/oauth2/token', payload: { grantType: 'refresh_token', refreshToken: tokens.refreshToken.value } });
    expect(raw.statusCode).toBe(200);
    const unknown = await t.app.inject({ method: 'POST', url: '/oauth2/token', payload: { grantType: 'refresh_token', refreshToken: `${site.siteId}.not-a-token` } });
    expect([unknown.statusCode, unknown.json().details.applicationError.code]).toEqual([400, 'INVALID_GRANT']);
    const other = await t.createSite();
    const crossSite = await t.app.inject({ method: 'POST', url: '/oauth2/token', payload: { clientId: other.clientId, grantType: 'refresh_token', refreshToken: tokens.refreshToken.value } });
    expect(crossSite.statusCode).toBe(400);
  });

  it('keeps a signed-in member signed in across page loads', async () => {
    const site = await t.createSite();
    const sf = storefront(site);
    const tokens = await signIn(sf, newEmail(), 'a-good-password');
    const expired: Tokens = { ...tokens, accessToken: { value: tokens.accessToken.value, expiresAt: Math.floor(Date.now() / 1000) - 10 } };
    const next = storefront(site, expired);
    const renewed = await next.auth.renewToken(expired.refreshToken);
    next.auth.setTokens(renewed);
    expect(next.auth.loggedIn()).toBe(true);
    const me = await next.members.getCurrentMember({ fieldsets: [members.Set.FULL] });
    expect(me.member?._id).toEqual(expect.any(String));
  });

  it('adds to the cart with the Wix Stores app id and gets it back, with a cart subtotal', async () => {
    const site = await t.createSite();
    const shirt = await createProduct(t.app, site, { name: 'Tee', priceData: { price: 12.5 } });
    const cap = await createProduct(t.app, site, { name: 'Cap', priceData: { price: 7.25 } });
    const sf = storefront(site);
    const added = await sf.currentCart.addToCurrentCart({
      lineItems: [
        { catalogReference: { appId: WIX_STORES_APP_ID, catalogItemId: shirt.id }, quantity: 3 },
        { catalogReference: { appId: '215238eb-22a5-4c36-9e7b-e7c08025e04e', catalogItemId: cap.id }, quantity: 1 },
      ],
    });
    const cart = added.cart as NonNullable<typeof added.cart> & { subtotal?: { amount?: string; formattedAmount?: string } };
    expect(cart.lineItems.map((l) => [l.catalogReference?.appId, l.catalogReference?.catalogItemId])).toEqual([
      [WIX_STORES_APP_ID, shirt.id],
      ['215238eb-22a5-4c36-9e7b-e7c08025e04e', cap.id],
    ]);
    expect(cart.subtotal).toMatchObject({ amount: '44.75', formattedAmount: '$44.75' });
    const current = (await sf.currentCart.getCurrentCart()) as { subtotal?: { amount?: string }; lineItems: { catalogReference?: { appId?: string } }[] };
    expect(current.subtotal?.amount).toBe('44.75');
    expect(current.lineItems[0].catalogReference?.appId).toBe(WIX_STORES_APP_ID);

    const estimate = await sf.currentCart.estimateCurrentCartTotals();
    expect(estimate.priceSummary?.subtotal?.amount).toBe('44.75');
  });

  it('checks out and places the order from a cart of Wix Stores app id lines', async () => {
    const site = await t.createSite();
    const p = await createProduct(t.app, site, { name: 'Kettle', priceData: { price: 30 }, stock: { trackInventory: true, quantity: 4 } });
    const sf = storefront(site);
    await sf.currentCart.addToCurrentCart({ lineItems: [{ catalogReference: { appId: WIX_STORES_APP_ID, catalogItemId: p.id }, quantity: 2 }] });
    const { checkoutId } = await sf.currentCart.createCheckoutFromCurrentCart({ channelType: currentCart.ChannelType.WEB });
    await sf.checkout.updateCheckout(checkoutId, {
      buyerInfo: { email: 'buyer@example.com' },
      shippingInfo: { shippingDestination: { address: NEW_YORK } },
    });
    const seen = await sf.checkout.getCheckout(checkoutId);
    expect(seen.lineItems[0].catalogReference?.appId).toBe(WIX_STORES_APP_ID);
    expect(seen.priceSummary?.subtotal?.amount).toBe('60.00');
    const { orderId } = await sf.checkout.createOrder(checkoutId);
    expect(orderId).toEqual(expect.any(String));
    const product = await t.app.inject({ method: 'GET', url: `/stores-reader/v1/products/${p.id}`, headers: apiKey(site) });
    expect(product.json().product.stock.quantity).toBe(2);
  });

  it('refuses an unknown catalog app as before', async () => {
    const site = await t.createSite();
    const p = await createProduct(t.app, site, { name: 'Bowl', priceData: { price: 5 } });
    const sf = storefront(site);
    await expect(sf.currentCart.addToCurrentCart({ lineItems: [{ catalogReference: { appId: '00000000-0000-0000-0000-000000000001', catalogItemId: p.id }, quantity: 1 }] }))
      .rejects.toThrow(/CATALOG_APP_NOT_SUPPORTED/);
  });

  it('shows "Not logged in" on the profile page: members/my as a visitor has no member', async () => {
    const site = await t.createSite();
    const sf = storefront(site);
    const me = await sf.members.getCurrentMember({ fieldsets: [members.Set.FULL] });
    expect(me.member).toBeUndefined();
    expect(wixFetch.urls).toContain('GET /members/v1/members/my?fieldsets=FULL');
    const asApp = await t.app.inject({ method: 'GET', url: '/members/v1/members/my', headers: apiKey(site) });
    expect(asApp.statusCode).toBe(403);
  });

  it('sends a shopper back to the storefront origin once it is allowed in the site settings', async () => {
    const site = await t.createSite();
    const p = await createProduct(t.app, site, { name: 'Candle', priceData: { price: 8 } });
    const sf = storefront(site);
    await sf.currentCart.addToCurrentCart({ lineItems: [{ catalogReference: { appId: WIX_STORES_APP_ID, catalogItemId: p.id }, quantity: 1 }] });
    const { checkoutId } = await sf.currentCart.createCheckoutFromCurrentCart({ channelType: currentCart.ChannelType.WEB });
    const session = () => sf.redirects.createRedirectSession({ ecomCheckout: { checkoutId }, callbacks: { postFlowUrl: 'https://shop.example/thanks' } });
    await expect(session()).rejects.toThrow(/postFlowUrl|origin|allowed/i);
    await t.app.services.sites.setAllowedOrigins(t.app.services.sites.contextFor(site.siteId), ['https://shop.example/']);
    const { redirectSession } = await session();
    expect(redirectSession?.fullUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    await expect(sf.redirects.createRedirectSession({ ecomCheckout: { checkoutId }, callbacks: { postFlowUrl: 'https://elsewhere.example/thanks' } }))
      .rejects.toThrow(/postFlowUrl|origin|allowed/i);
  });

  it('sends GETs to readonly.wixapis.com and the current cart to www', async () => {
    const site = await t.createSite();
    const p = await createProduct(t.app, site, { name: 'Spoon', priceData: { price: 2 } });
    const hosts: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      hosts.push(`${init?.method ?? 'GET'} ${new URL(url).host}${new URL(url).pathname}`);
      return realFetch(input, init);
    }) as typeof fetch;
    try {
      const sf = storefront(site);
      await sf.products.getProduct(p.id);
      await sf.currentCart.addToCurrentCart({ lineItems: [{ catalogReference: { appId: WIX_STORES_APP_ID, catalogItemId: p.id }, quantity: 1 }] });
      await sf.currentCart.getCurrentCart();
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(hosts).toEqual(expect.arrayContaining([
      `GET readonly.wixapis.com/stores-reader/v1/products/${p.id}`,
      'POST www.wixapis.com/ecom/v1/carts/current/add-to-cart',
      'GET www.wixapis.com/ecom/v1/carts/current',
    ]));
  });
});
