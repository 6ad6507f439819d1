/**
 * The shop's HTML as a crawler or a browser without JavaScript gets it: the server renders the
 * page with the web build's entry-server for the site the Host header names. Needs `npm run build`
 * (apps/web/dist/client and apps/web/dist/server/entry-server.js); fails clearly without it.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../packages/server/src/test/commerce.js';
import { hasWebBuild, storefrontApp, WEB_DIST, type ShopSite, type StorefrontTestApp } from '../packages/server/src/test/storefront.js';

interface Served { status: number; headers: http.IncomingHttpHeaders; body: string }

/** A plain GET with this Host header, as a crawler sends it (no JavaScript, no cookies). */
function get(port: number, host: string, path: string): Promise<Served> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers: { host, accept: 'text/html,application/xhtml+xml' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
  });
}

/** The markup inside #root, without tags: what a reader sees before any script runs. */
function rootText(html: string): string {
  const start = html.indexOf('<div id="root">');
  const end = html.lastIndexOf('</div>');
  return html.slice(start, end).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
}

function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]));
}

function bootstrap(html: string): { siteId: string; clientId: string; state?: { queries?: unknown[] } } {
  const json = html.match(/<script>window\.__BODEGA__ = (.*?)<\/script>/s)?.[1];
  if (!json) throw new Error('the page has no window.__BODEGA__ script');
  return JSON.parse(json);
}

let t: StorefrontTestApp;
let shop: ShopSite;
let empty: ShopSite;

beforeAll(async () => {
  expect(hasWebBuild(), `${WEB_DIST} has no client/index.html and server/entry-server.js: run \`npm run build\` first (npm test does)`).toBe(true);
  t = await storefrontApp();
  shop = await t.createShop();
  empty = await t.createShop({ demo: false });
}, 120_000);
afterAll(() => t?.close());

describe('served HTML without JavaScript', { timeout: 60_000 }, () => {
  it('a product page holds the name, the price, the description, a canonical URL, Open Graph and Product JSON-LD', async () => {
    const host = `${shop.domain}:${t.port}`;
    const res = await get(t.port, host, '/products/linen-camp-shirt');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const text = rootText(res.body);
    expect(text).toContain('Linen Camp Shirt');
    expect(text).toContain('$58.00');
    expect(text).toContain('washed European linen');

    const url = `http://${host}/products/linen-camp-shirt`;
    expect(res.body).toContain(`<link rel="canonical" href="${url}">`);
    expect(res.body).toMatch(/<meta property="og:title" content="Linen Camp Shirt[^"]*">/);
    // The product picture (the page's LCP) is preloaded under the very address its <img> uses, and sized.
    const preload = res.body.match(/<link rel="preload" as="image" href="([^"]+)" fetchpriority="high">/)?.[1];
    const picture = res.body.match(/<div class="gallery-main"><img src="([^"]+)"[^>]*width="(\d+)" height="(\d+)"/);
    expect(preload).toBeDefined();
    expect(picture?.[1]).toBe(preload);
    expect(Number(picture?.[2])).toBeGreaterThan(0);
    const product = jsonLd(res.body).find((d) => d['@type'] === 'Product');
    expect(product).toMatchObject({
      '@context': 'https://schema.org',
      name: 'Linen Camp Shirt',
      url,
      offers: { '@type': 'Offer', price: '58.00', priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
    });

    const boot = bootstrap(res.body);
    expect(boot).toMatchObject({ siteId: shop.siteId, clientId: shop.clientId });
    expect(boot.state?.queries?.length).toBeGreaterThan(0);
  });

  it('a discounted product shows both prices, and an out-of-stock one says so in its JSON-LD', async () => {
    const host = `${shop.domain}:${t.port}`;
    const sweater = await get(t.port, host, '/products/merino-crew-sweater');
    expect(rootText(sweater.body)).toContain('$96.00');
    expect(rootText(sweater.body)).toContain('$120.00');
    const beanie = await get(t.port, host, '/products/wool-rib-beanie');
    expect(jsonLd(beanie.body).find((d) => d['@type'] === 'Product')).toMatchObject({ offers: { availability: 'https://schema.org/OutOfStock' } });
  });

  it('the price in JSON-LD and Open Graph has the currency’s own digits: none for yen, three for dinar', async () => {
    for (const [currency, price, expected] of [['JPY', 1200, '1200'], ['KWD', 12.345, '12.345'], ['KWD', 7, '7.000']] as const) {
      const site = await t.createShop({ demo: false, currency });
      const created = await createProduct(t.app, site, { name: `Tea ${currency} ${expected}`, priceData: { price } });
      const res = await get(t.port, `${site.domain}:${t.port}`, `/products/${created.slug}`);
      expect(res.status, currency).toBe(200);
      expect(jsonLd(res.body).find((d) => d['@type'] === 'Product'), currency).toMatchObject({ offers: { price: expected, priceCurrency: currency } });
      expect(res.body).toContain(`<meta property="product:price:amount" content="${expected}">`);
      expect(res.body).toContain(`<meta property="product:price:currency" content="${currency}">`);
    }
  });

  it('a listing filtered by collection holds that collection’s products only', async () => {
    const res = await get(t.port, `${shop.domain}:${t.port}`, '/products?collection=coffee');
    expect(res.status).toBe(200);
    const text = rootText(res.body);
    for (const name of ['House Espresso Blend', 'Ethiopia Yirgacheffe', 'Ceramic Pour-Over Dripper']) expect(text).toContain(name);
    expect(text).not.toContain('Linen Camp Shirt');
  });

  it('the home page of each shop on the server is its own, picked by the Host header', async () => {
    const home = await get(t.port, `${shop.domain}:${t.port}`, '/');
    expect(home.status).toBe(200);
    expect(bootstrap(home.body).siteId).toBe(shop.siteId);
    const other = await get(t.port, `${empty.domain}:${t.port}`, '/products/linen-camp-shirt');
    expect(other.status).toBe(404);
    expect(bootstrap(other.body).siteId).toBe(empty.siteId);
    expect(rootText(other.body)).not.toContain('$58.00');
  });

  it('answers 404 with a page for a product or a path that does not exist', async () => {
    for (const path of ['/products/no-such-thing', '/no/such/page']) {
      const res = await get(t.port, `${shop.domain}:${t.port}`, path);
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(bootstrap(res.body).clientId).toBe(shop.clientId);
    }
  });

  it('the sitemap lists the shop’s products on its own domain', async () => {
    const res = await get(t.port, `${shop.domain}:${t.port}`, '/sitemap.xml');
    const locs = [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toHaveLength(2 + shop.content.products.length);
    expect(locs).toContain(`http://${shop.domain}:${t.port}/products/linen-camp-shirt`);
  });
});
