/**
 * Issue 24, findings 4 and 9: every page URL the wire hands out opens a page the shop serves (Wix's
 * paths answer a permanent redirect to the shop's own), and an unknown path under any API prefix
 * answers a JSON 404 in the wire error shape, never the shop's HTML. Needs `npm run build`.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storefrontApp, type ShopSite, type StorefrontTestApp } from '../../test/storefront.js';
import { apiKey, catalogLine, createProduct, NEW_YORK } from '../../test/commerce.js';
import { API_PREFIXES, collectApiRoots, isPageRequest } from './routes.js';

let t: StorefrontTestApp;
let shop: ShopSite;

beforeAll(async () => {
  t = await storefrontApp();
  shop = await t.createShop({ demo: false });
}, 60_000);
afterAll(() => t.close());

/** A browser's GET of an absolute URL on the shop's own host (the port is the test server's). */
function open(pathAndQuery: string, accept = 'text/html') {
  return t.app.inject({ method: 'GET', url: pathAndQuery, headers: { host: shop.domain, accept } });
}

/** Opens the URL, follows one permanent redirect, and answers the page's status and HTML. */
async function visit(absolute: string): Promise<{ status: number; html: string; path: string }> {
  const url = new URL(absolute);
  let res = await open(url.pathname + url.search);
  let path = url.pathname + url.search;
  if (res.statusCode === 301) {
    path = String(res.headers.location);
    res = await open(path);
  }
  expect(String(res.headers['content-type'])).toContain('text/html');
  return { status: res.statusCode, html: res.body, path };
}

describe('every page URL the wire hands out opens a page of the shop', () => {
  it('product, cart line, checkout line, order line, checkout and redirect-session URLs', async () => {
    const product = await createProduct(t.app, shop, { name: 'Walnut Bowl', priceData: { price: 30 }, slug: 'walnut-bowl' });
    const visitor = await t.visitorToken(shop);
    const auth = { authorization: visitor };
    const urls: [string, string][] = [];
    urls.push(['v1 productPageUrl', `${(product.productPageUrl as { base: string; path: string }).base.replace(/\/$/, '')}${(product.productPageUrl as { path: string }).path}`]);
    const v3 = await t.app.inject({ method: 'GET', url: `/stores/v3/products/${product.id}?fields=URL`, headers: apiKey(shop) });
    expect(v3.statusCode, v3.body).toBe(200);
    urls.push(['v3 product url', v3.json().product.url.url]);
    const cart = await t.app.inject({ method: 'POST', url: '/ecom/v1/carts/current/add-to-cart', headers: auth, payload: { lineItems: [catalogLine(product.id)] } });
    expect(cart.statusCode, cart.body).toBe(200);
    urls.push(['cart line url', cart.json().cart.lineItems[0].url.url]);
    const created = await t.app.inject({
      method: 'POST', url: '/ecom/v1/checkouts', headers: auth,
      payload: { channelType: 'WEB', lineItems: [catalogLine(product.id)], checkoutInfo: { buyerInfo: { email: 'b@example.com' }, shippingInfo: { shippingDestination: { address: NEW_YORK } } } },
    });
    expect(created.statusCode, created.body).toBe(200);
    const checkoutId = created.json().checkout.id;
    urls.push(['checkout line url', created.json().checkout.lineItems[0].url.url]);
    const checkoutUrl = await t.app.inject({ method: 'GET', url: `/ecom/v1/checkouts/${checkoutId}/checkout-url`, headers: auth });
    urls.push(['checkoutUrl', checkoutUrl.json().checkoutUrl]);
    const order = await t.app.inject({ method: 'POST', url: `/ecom/v1/checkouts/${checkoutId}/create-order`, headers: auth, payload: { id: checkoutId } });
    expect(order.statusCode, order.body).toBe(200);
    const placed = await t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${order.json().orderId}`, headers: apiKey(shop) });
    urls.push(['order line url', placed.json().order.lineItems[0].url.url]);
    for (const body of [{ storesProduct: { productSlug: 'walnut-bowl' } }, { membersAccount: { section: 'ORDERS' } }, { membersAccount: { section: 'ACCOUNT_INFO' } }]) {
      const session = await t.app.inject({ method: 'POST', url: '/_api/redirects-api/v1/redirect-session', headers: auth, payload: body });
      urls.push([`redirect session ${Object.keys(body)[0]}`, session.json().redirectSession.fullUrl]);
    }

    for (const [kind, url] of urls) {
      // On the site's own domain (PUBLIC_URL's scheme and port), never another shop's.
      expect(new URL(url).host, `${kind}: ${url}`).toBe(`${shop.domain}:${t.port}`);
      const page = await visit(url);
      expect(page.status, `${kind}: ${url} → ${page.path}`).toBe(200);
      if (/product|line/.test(kind)) {
        expect(page.path, kind).toMatch(/^\/products\/walnut-bowl/);
        expect(page.html, kind).toContain('Walnut Bowl');
      }
    }
  });

  it('answers Wix’s page paths with a permanent redirect to the shop’s own, keeping the query', async () => {
    const cases: [string, string][] = [
      ['/product-page/walnut-bowl?ref=feed', '/products/walnut-bowl?ref=feed'],
      ['/category/kitchen', '/products?collection=kitchen'],
      ['/category/kitchen?page=2', '/products?collection=kitchen&page=2'],
      ['/shop', '/products'],
      ['/cart-page', '/cart'],
      ['/thank-you-page/abc', '/checkout/thank-you?orderId=abc'],
      ['/account/my-account', '/account'],
      ['/account/my-orders', '/account/orders'],
      ['/account/my-addresses', '/account/addresses'],
    ];
    for (const [from, to] of cases) {
      const res = await open(from);
      expect([res.statusCode, res.headers.location], from).toEqual([301, to]);
    }
  });
});

describe('an unknown path under an API prefix is a JSON 404', () => {
  it.each([...API_PREFIXES.filter((p) => p.endsWith('/')).map((p) => `${p}no-such-call`), '/assets/scripts/v1/nope', '/v1/recommendations/nope', '/_api/nope/v1/x'])(
    '%s', async (path) => {
      for (const accept of ['text/html,application/xhtml+xml', '*/*', 'application/json']) {
        const res = await open(path, accept);
        expect(res.statusCode, `${path} ${accept}`).toBe(404);
        expect(String(res.headers['content-type']), path).toContain('application/json');
        expect(res.json(), path).toMatchObject({ message: expect.any(String), details: { applicationError: { code: expect.any(String) } } });
      }
    },
  );

  it('covers a prefix a module registers later, without a list to keep', async () => {
    const app = Fastify();
    const { roots, freeze } = collectApiRoots(app);
    app.get('/brand-new/v1/things', async () => ({ things: [] }));
    freeze();
    app.get('/*', async (req) => ({ page: isPageRequest(req, roots) }));
    expect((await app.inject({ method: 'GET', url: '/brand-new/v1/unknown', headers: { accept: 'text/html' } })).json()).toEqual({ page: false });
    expect((await app.inject({ method: 'GET', url: '/products/lamp', headers: { accept: 'text/html' } })).json()).toEqual({ page: true });
    await app.close();
  });

  it('still serves the shop’s pages and its built assets', async () => {
    expect((await open('/products')).statusCode).toBe(200);
    const html = (await open('/')).body;
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1] as string;
    expect(asset).toBeDefined();
    expect((await open(asset, '*/*')).statusCode).toBe(200);
  });
});
