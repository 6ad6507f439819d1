/**
 * A headless app's checkout through the hosted checkout page (issue 24, findings 1 and 2), with the
 * official packages of the @wix/sdk 1.12 generation (npm aliases `wix-*-1-12`): the app fills its
 * shopper's cart, creates a checkout and a redirect session; Chromium opens the session's URL, the
 * page shows that shopper's cart, the order is placed, and the browser is back on the app's
 * thank-you page (another loopback origin) with `?orderId=`. For a visitor and for a signed-in
 * member; a used or expired link is refused in words. Needs `npm run build` and Chromium.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, OAuthStrategy } from 'wix-sdk-1-12';
import { checkout, currentCart } from 'wix-ecom-1-12';
import { members } from 'wix-members-1-12';
import { redirects } from 'wix-redirects-1-12';
import { hasChromium } from './chromium.js';
import { axeViolations, pickUpAndPayLater, ready, screenshots, useShop, type ShopSite } from './shop.js';
import { redirectWixFetch } from '../packages/server/src/test/wix-fetch.js';
import { apiKey, createProduct } from '../packages/server/src/test/commerce.js';
import { WIX_STORES_APP_ID } from '../packages/server/src/services/catalog/products.js';

/** The app's own pages on a loopback origin of their own: a home and a thank-you page. */
async function startAppPages(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://app');
    res.setHeader('content-type', 'text/html; charset=utf-8');
    const title = url.pathname === '/thanks' ? 'Thanks from the app' : 'The app';
    res.end(`<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1>`
      + `<p>Order <output id="order"></output></p><script>document.getElementById('order').textContent = new URLSearchParams(location.search).get('orderId') || '';</script></main></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

function headlessApp(site: ShopSite) {
  return createClient({ modules: { currentCart, checkout, members, redirects }, auth: OAuthStrategy({ clientId: site.clientId }) });
}
type HeadlessApp = ReturnType<typeof headlessApp>;

let counter = 0;

describe.skipIf(!hasChromium)('a headless app checks out through the hosted checkout (@wix/sdk 1.12)', () => {
  const shop = useShop();
  let app: Awaited<ReturnType<typeof startAppPages>>;
  let wixFetch: ReturnType<typeof redirectWixFetch>;
  let site: ShopSite;

  beforeAll(async () => {
    app = await startAppPages();
    wixFetch = redirectWixFetch(shop().t.url);
    const created = await shop().t.createShop({ name: 'Headless shop', allowedOrigins: [app.origin] });
    site = { ...created, url: created.origin };
  }, 60_000);
  afterAll(async () => {
    wixFetch?.restore();
    await app?.close();
  });

  /** The app: its shopper's cart with a new product, a checkout and the hosted checkout's link. */
  async function checkoutLink(sdk: HeadlessApp, productName: string): Promise<{ checkoutId: string; fullUrl: string }> {
    const product = await createProduct(shop().t.app, site, { name: productName, priceData: { price: 24 } });
    await sdk.currentCart.addToCurrentCart({ lineItems: [{ catalogReference: { appId: WIX_STORES_APP_ID, catalogItemId: product.id }, quantity: 2 }] });
    const { checkoutId } = await sdk.currentCart.createCheckoutFromCurrentCart({ channelType: currentCart.ChannelType.WEB });
    const { redirectSession } = await sdk.redirects.createRedirectSession({
      ecomCheckout: { checkoutId: checkoutId as string },
      callbacks: { postFlowUrl: `${app.origin}/`, thankYouPageUrl: `${app.origin}/thanks` },
    });
    const fullUrl = redirectSession?.fullUrl as string;
    expect(new URL(fullUrl).origin).toBe(site.origin);
    return { checkoutId: checkoutId as string, fullUrl };
  }

  /** Pick up in store, pay later; the e-mail is the member's own when `email` is undefined. */
  async function placeOrder(page: Page, email: string | undefined): Promise<string> {
    if (email) await page.getByLabel('E-mail').fill(email);
    await pickUpAndPayLater(page, { firstName: 'Ada', lastName: 'Lovelace' });
    await page.getByRole('button', { name: /Place order/ }).click();
    await page.waitForURL((url) => url.origin === app.origin && url.pathname === '/thanks');
    const orderId = new URL(page.url()).searchParams.get('orderId') ?? '';
    await expect.poll(() => page.locator('#order').textContent()).toBe(orderId);
    return orderId;
  }

  async function order(orderId: string) {
    const res = await shop().t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${orderId}`, headers: apiKey(site) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().order as { lineItems: { productName: { original: string }; quantity: number }[]; buyerInfo: { visitorId?: string; memberId?: string; email?: string } };
  }

  it('hands the app’s visitor over: their cart, the order, back on the app with the order id; the link works once', async () => {
    const sdk = headlessApp(site);
    sdk.auth.setTokens(await sdk.auth.generateVisitorTokens());
    const link = await checkoutLink(sdk, 'Headless Lamp');
    const page = await shop().chromium.context.newPage();
    try {
      await page.goto(link.fullUrl);
      await ready(page);
      const summary = page.getByRole('complementary', { name: 'Your order' });
      await summary.getByText('Headless Lamp').waitFor();
      await expect.poll(() => summary.getByText('× 2').count()).toBe(1);
      // The used link is gone from the address bar; "back to store" is the app's page.
      expect(new URL(page.url()).searchParams.get('redirectSessionId')).toBeNull();
      expect(await page.getByRole('link', { name: /Back to store/ }).getAttribute('href')).toBe(`${app.origin}/`);
      await screenshots(page, 'headless-checkout-visitor');
      expect(await axeViolations(page)).toEqual([]);

      const orderId = await placeOrder(page, 'ada.visitor@example.com');
      const placed = await order(orderId);
      expect(placed.lineItems.map((l) => [l.productName.original, l.quantity])).toEqual([['Headless Lamp', 2]]);
      expect(placed.buyerInfo.memberId).toBeUndefined();
      // The app's own visitor sees the checkout completed.
      const after = await sdk.checkout.getCheckout(link.checkoutId);
      expect(after.completed).toBe(true);

      // The same link again (a reload of the history entry, or someone else): refused in words.
      await page.goto(link.fullUrl);
      await page.getByRole('heading', { name: 'This checkout link was already used' }).waitFor();
      await screenshots(page, 'headless-checkout-used-link');
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('hands the app’s signed-in member over as that member', async () => {
    const sdk = headlessApp(site);
    const email = `headless.${++counter}.${Date.now()}@example.com`;
    const state = (await sdk.auth.register({ email, password: 'a-good-password' })) as { loginState: string; data?: { sessionToken?: string } };
    expect(state.loginState).toBe('SUCCESS');
    const oauthData = sdk.auth.generateOAuthData(`${app.origin}/callback`);
    const opts = { prompt: 'none' as const, responseMode: 'query' as const, sessionToken: state.data?.sessionToken };
    const { authUrl } = await sdk.auth.getAuthUrl(oauthData, opts);
    // What the browser does with it (the URL is on the shop's own domain, which only Chromium resolves).
    const url = new URL(authUrl);
    const authorize = await shop().t.app.inject({ method: 'GET', url: url.pathname + url.search, headers: { host: url.host } });
    expect(authorize.statusCode).toBe(302);
    const { code, state: returned } = sdk.auth.parseFromUrl(String(authorize.headers.location), 'query');
    sdk.auth.setTokens(await sdk.auth.getMemberTokens(code, returned, oauthData));
    const { member } = await sdk.members.getCurrentMember();
    const link = await checkoutLink(sdk, 'Member Vase');

    const page = await shop().chromium.context.newPage();
    try {
      await page.goto(link.fullUrl);
      await ready(page);
      await page.getByRole('complementary', { name: 'Your order' }).getByText('Member Vase').waitFor();
      // Signed in on the shop as the app's member: their e-mail is filled in, the header says so.
      await expect.poll(() => page.getByLabel('E-mail').inputValue()).toBe(email);
      await expect.poll(() => page.getByRole('link', { name: 'Sign in' }).count()).toBe(0);
      await screenshots(page, 'headless-checkout-member');
      expect(await axeViolations(page)).toEqual([]);
      const orderId = await placeOrder(page, undefined);
      const placed = await order(orderId);
      expect(placed.buyerInfo).toMatchObject({ memberId: member?._id, email });
    } finally {
      await page.close();
    }
  });

  it('refuses an expired link in words', async () => {
    const sdk = headlessApp(site);
    sdk.auth.setTokens(await sdk.auth.generateVisitorTokens());
    const link = await checkoutLink(sdk, 'Late Chair');
    const sessionId = new URL(link.fullUrl).searchParams.get('redirectSessionId');
    // Fifteen minutes later, as far as the link is concerned.
    await shop().t.db.query("UPDATE redirect_sessions SET expires_at = now() - interval '1 minute' WHERE redirect_session_id = $1", [sessionId]);
    const page = await shop().chromium.context.newPage();
    try {
      await page.goto(link.fullUrl);
      await page.getByRole('heading', { name: 'This checkout link has expired' }).waitFor();
      expect(await page.getByText('Late Chair').count()).toBe(0);
      await screenshots(page, 'headless-checkout-expired-link');
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
