import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, testDb, type TestApp, type TestSite } from '../../test/harness.js';
import { apiKey, createProduct } from '../../test/commerce.js';
import type { Db } from '../../platform/db.js';
import { UNLIMITED_OPERATIONS } from '../../platform/ops-config.js';

/** Web builds written for the test: the old single-directory layout and the client/server one. */
const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bodega-web-'));
  dirs.push(dir);
  return dir;
}
function write(dir: string, file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  fs.writeFileSync(path.join(dir, file), text);
}

const TEMPLATE = `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><!--app-head--><script type="module" src="/assets/index-abc123.js"></script></head>
<body><div id="root"><!--app-html--></div></body></html>`;

/** A stand-in for the web build's entry-server.js: reads products through the fetch it is given. */
const ENTRY_SERVER = `
export async function render({ url, origin, site, fetch }) {
  if (url.startsWith('/boom')) throw new Error('render failed on purpose');
  if (url.startsWith('/bad-result')) return { status: 200 };
  const res = await fetch(origin + '/stores-reader/v1/products/query', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: {} }) });
  const body = await res.json();
  const names = (body.products ?? []).map((p) => p.name);
  return {
    status: url.startsWith('/nowhere') ? 404 : 200,
    head: '<title>' + site.name + '</title><link rel="canonical" href="' + origin + url + '">',
    html: '<ul>' + names.map((n) => '<li>' + n + '</li>').join('') + '</ul><p>$& stays</p>',
    state: { status: res.status, count: names.length, tricky: '</script><script>alert(1)</script>' },
  };
}
`;

function oldLayout(): string {
  const dir = tempDir();
  write(dir, 'index.html', '<!doctype html><html><head><title>Bodega</title></head><body><div id="root"></div><script type="module" src="/assets/index-old1.js"></script></body></html>');
  write(dir, 'assets/index-old1.js', 'console.log("old")');
  return dir;
}

function newLayout(entryServer: string | null = ENTRY_SERVER): string {
  const dir = tempDir();
  write(dir, 'client/index.html', TEMPLATE);
  write(dir, 'client/assets/index-abc123.js', 'console.log("app")');
  write(dir, 'client/favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  if (entryServer !== null) write(dir, 'server/entry-server.js', entryServer);
  return dir;
}

/** The bootstrap data the page carries for the browser app. */
function bootstrapOf(html: string): { siteId: string; clientId: string; siteName: string; currency: string; state?: unknown } {
  const json = html.match(/<script>window\.__BODEGA__ = (.*?)<\/script>/)?.[1];
  if (!json) throw new Error(`no bootstrap script in ${html}`);
  return JSON.parse(json);
}

const page = (t: TestApp, url: string, host: string) => t.app.inject({ method: 'GET', url, headers: { host, accept: 'text/html' } });
const unique = () => randomUUID().slice(0, 8);

let db: Db;
beforeAll(async () => {
  db = await testDb();
});
afterAll(async () => {
  await db.close();
  dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
});

describe('pages of the client/server web build', () => {
  let t: TestApp;
  let shop: TestSite;
  let domain: string;
  beforeAll(async () => {
    t = await testApp({ db, webDir: newLayout() });
    domain = `shop-${unique()}.localhost`;
    shop = await t.createSite({ name: 'Corner $& Shop', domains: [domain] });
    await createProduct(t.app, shop, { name: 'Linen Shirt', priceData: { price: 40 } });
    await createProduct(t.app, shop, { name: 'Hidden Hat', priceData: { price: 10 }, visible: false });
  });
  afterAll(() => t.close());

  it('renders the page on the server as a visitor of the Host’s site, with the bootstrap data', async () => {
    const res = await page(t, '/products?q=linen', `${domain}:4321`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('<div id="root"><ul><li>Linen Shirt</li></ul><p>$& stays</p></div>');
    expect(res.body).not.toContain('Hidden Hat');
    expect(res.body).toContain('<title>Corner $& Shop</title>');
    expect(res.body).toContain(`<link rel="canonical" href="http://${domain}:4321/products?q=linen">`);
    const boot = bootstrapOf(res.body);
    expect(boot).toEqual({ siteId: shop.siteId, clientId: shop.clientId, siteName: 'Corner $& Shop', currency: 'USD', state: { status: 200, count: 1, tricky: '</script><script>alert(1)</script>' } });
    // The state's `<` is escaped, so no string in it can close the script element.
    expect(res.body.match(/<\/script>/g)).toHaveLength(2);
    expect(res.body).not.toContain('<!--app-head-->');
  });

  it('answers with the status render gives (404 for a page that does not exist)', async () => {
    const res = await page(t, '/nowhere', domain);
    expect(res.statusCode).toBe(404);
    expect(bootstrapOf(res.body).siteId).toBe(shop.siteId);
  });

  it('falls back to the bare template (200, no state) when render throws or answers nonsense', async () => {
    for (const url of ['/boom', '/bad-result']) {
      const res = await page(t, url, domain);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<div id="root"><!--app-html--></div>');
      const boot = bootstrapOf(res.body);
      expect(boot.clientId).toBe(shop.clientId);
      expect(boot).not.toHaveProperty('state');
    }
  });

  it('serves hashed assets with a year of cache, other files briefly, and never the raw template', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
    const raw = await page(t, '/index.html', domain);
    expect(raw.body).not.toContain('<!--app-head-->');
    const missing = await t.app.inject({ method: 'GET', url: '/assets/nothing-here.js', headers: { accept: '*/*' } });
    expect(missing.statusCode).toBe(404);
  });

  it('keeps API paths in the JSON error shape and answers HEAD without a body', async () => {
    const api = await t.app.inject({ method: 'GET', url: '/ecom/v1/nothing', headers: { host: domain, accept: 'text/html' } });
    expect(api.statusCode).toBe(404);
    expect(api.json().details.applicationError.code).toBe('NOT_FOUND');
    const post = await t.app.inject({ method: 'POST', url: '/products', headers: { host: domain, accept: 'text/html' } });
    expect(post.statusCode).toBe(404);
    const head = await t.app.inject({ method: 'HEAD', url: '/products', headers: { host: domain, accept: 'text/html' } });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('lists the Host’s site’s visible products in /sitemap.xml, with absolute URLs on that origin', async () => {
    const other = await t.createSite({ domains: [`other-${unique()}.localhost`] });
    await createProduct(t.app, other, { name: 'Other Shop Mug', priceData: { price: 5 } });
    const res = await t.app.inject({ method: 'GET', url: '/sitemap.xml', headers: { host: `${domain}:4321` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    const locs = [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual([`http://${domain}:4321/`, `http://${domain}:4321/products`, `http://${domain}:4321/products/linen-shirt`]);
    expect(res.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);

    const robots = await t.app.inject({ method: 'GET', url: '/robots.txt', headers: { host: domain } });
    expect(robots.statusCode).toBe(200);
    expect(robots.body).toContain(`Sitemap: http://${domain}/sitemap.xml`);
    expect(robots.body).toMatch(/^User-agent: \*\nAllow: \/\n/);
    expect(robots.body).toContain('Disallow: /checkout');
  });

  it('pages a sitemap past one query page (more than 100 products)', async () => {
    const big = await t.createSite({ domains: [`big-${unique()}.localhost`] });
    const [host] = await t.app.services.sites.domains(t.app.services.sites.contextFor(big.siteId));
    for (let i = 0; i < 101; i += 1) await createProduct(t.app, big, { name: `Item ${String(i).padStart(3, '0')}`, priceData: { price: 1 } });
    const res = await t.app.inject({ method: 'GET', url: '/sitemap.xml', headers: { host } });
    const locs = [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toHaveLength(2 + 101);
    expect(new Set(locs).size).toBe(locs.length);
    expect(locs).toContain(`http://${host}/products/item-100`);
  });

  it('renders a disabled site’s domain as no store at all', async () => {
    const gone = `gone-${unique()}.localhost`;
    const site = await t.createSite({ domains: [gone] });
    await t.app.services.sites.setStatus(t.app.services.sites.contextFor(site.siteId), 'DISABLED');
    const res = await page(t, '/', gone);
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('There is no store at this address.');
    expect((await t.app.inject({ method: 'GET', url: '/sitemap.xml', headers: { host: gone } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/robots.txt', headers: { host: gone } })).body).toBe('User-agent: *\nDisallow: /\n');
  });
});

describe('a build without a server bundle, and the old single-directory build', () => {
  it('serves the template with the bootstrap data and an empty root', async () => {
    for (const webDir of [newLayout(null), oldLayout()]) {
      const t = await testApp({ db, webDir });
      const domain = `plain-${unique()}.localhost`;
      const site = await t.createSite({ domains: [domain] });
      const res = await page(t, '/account/orders', domain);
      expect(res.statusCode).toBe(200);
      expect(res.body).toMatch(/<div id="root"><\/div>|<div id="root"><!--app-html--><\/div>/);
      expect(bootstrapOf(res.body)).toEqual({ siteId: site.siteId, clientId: site.clientId, siteName: expect.any(String), currency: 'USD' });
      const asset = res.body.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
      expect((await t.app.inject({ method: 'GET', url: asset ?? '/none' })).statusCode).toBe(200);
      await t.close();
    }
  });

  it('keeps the old JSON 404 for page paths when there is no web build', async () => {
    const t = await testApp({ db });
    const res = await t.app.inject({ method: 'GET', url: '/products', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expect(res.json().details.applicationError.code).toBe('NOT_FOUND');
    await t.close();
  });
});

describe('which site a page is for', () => {
  it('picks the site of the Host (port ignored), else DEFAULT_SITE_ID, else a demo site', async () => {
    const webDir = newLayout(null);
    const probe = await testApp({ db });
    const a = await probe.createSite({ domains: [`a-${unique()}.localhost`] });
    const b = await probe.createSite({ domains: [`B-${unique()}.Localhost.`] });
    const fallback = await probe.createSite();
    await probe.createSite({ status: 'DEMO' });
    const [aDomain] = await probe.app.services.sites.domains(probe.app.services.sites.contextFor(a.siteId));
    const [bDomain] = await probe.app.services.sites.domains(probe.app.services.sites.contextFor(b.siteId));
    await probe.close();
    expect(bDomain).toMatch(/^b-[0-9a-f]{8}\.localhost$/);

    const t = await testApp({ db, webDir, defaultSiteId: fallback.siteId });
    expect(bootstrapOf((await page(t, '/', `${aDomain}:8080`)).body).siteId).toBe(a.siteId);
    expect(bootstrapOf((await page(t, '/', bDomain.toUpperCase())).body).siteId).toBe(b.siteId);
    expect(bootstrapOf((await page(t, '/', 'unknown.example')).body).siteId).toBe(fallback.siteId);
    await t.close();

    const noDefault = await testApp({ db, webDir });
    const chosen = bootstrapOf((await page(noDefault, '/', 'unknown.example')).body).siteId;
    // Other tests may have made demo sites on a shared database: any demo site is right, never another.
    expect((await noDefault.app.services.sites.findSite(chosen))?.status).toBe('DEMO');
    await noDefault.close();
  });
});

describe('site domains through the settings call', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ db });
  });
  afterAll(() => t.close());

  it('lets the owner’s API key set domains, refuses a name another site holds and bad names', async () => {
    const mine = await t.createSite();
    const other = await t.createSite();
    const name = `shop-${unique()}.example`;
    const set = await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/site-settings', headers: apiKey(mine), payload: { settings: { domains: [name, `WWW.${name}`] } } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().settings).toMatchObject({ domains: [name, `www.${name}`], currency: 'USD' });
    const read = await t.app.inject({ method: 'GET', url: '/_api/bodega/v1/site-settings', headers: apiKey(mine) });
    expect(read.json().settings.domains).toEqual([name, `www.${name}`]);

    // The owner's names are PENDING until proven (services/sites/domains.test.ts); a name another
    // site holds verified (the operator set it) is refused.
    const operatorSet = `op-${unique()}.example`;
    await t.app.services.sites.setDomains(t.app.services.sites.contextFor(mine.siteId), [name, `www.${name}`, operatorSet], { operator: true });
    const taken = await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/site-settings', headers: apiKey(other), payload: { settings: { domains: [operatorSet] } } });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().details.applicationError.code).toBe('DOMAIN_ALREADY_IN_USE');

    const bad = await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/site-settings', headers: apiKey(other), payload: { settings: { domains: ['https://x.example/path', 'ok.example'] } } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.validationError.fieldViolations).toEqual([expect.objectContaining({ field: 'domains[0]', violatedRule: 'FORMAT' })]);

    const visitor = await t.visitorToken(mine);
    const refused = await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/site-settings', headers: { authorization: visitor }, payload: { settings: { domains: [] } } });
    expect(refused.statusCode).toBe(403);

    const cleared = await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/site-settings', headers: apiKey(mine), payload: { settings: { domains: [] } } });
    expect(cleared.json().settings.domains).toEqual([]);
    const reused = await t.app.inject({ method: 'PATCH', url: '/_api/bodega/v1/site-settings', headers: apiKey(other), payload: { settings: { domains: [operatorSet] } } });
    expect(reused.statusCode).toBe(200);
  });
});

describe('links the server makes for a site with a domain', () => {
  it('puts redirect sessions on the site’s domain (PUBLIC_URL’s scheme and port) and admits its origin as a callback', async () => {
    const t = await testApp({ db, publicUrl: 'http://localhost:3000' });
    const domain = `links-${unique()}.localhost`;
    const site = await t.createSite({ domains: [domain] });
    const visitor = await t.visitorToken(site);
    const session = (body: unknown) => t.app.inject({ method: 'POST', url: '/_api/redirects-api/v1/redirect-session', headers: { authorization: visitor }, payload: body as Record<string, unknown> });

    const checkout = await session({ ecomCheckout: { checkoutId: 'co-1' }, callbacks: { postFlowUrl: `http://${domain}:3000/cart` } });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const url = new URL(checkout.json().redirectSession.fullUrl);
    expect([url.origin, url.pathname, url.searchParams.get('checkoutId')]).toEqual([`http://${domain}:3000`, '/checkout', 'co-1']);

    const login = await session({ login: {}, callbacks: { postFlowUrl: `http://${domain}:3000/account` } });
    expect(new URL(login.json().redirectSession.fullUrl).origin).toBe(`http://${domain}:3000`);
    const elsewhere = await session({ login: {}, callbacks: { postFlowUrl: 'http://elsewhere.example/account' } });
    expect(elsewhere.statusCode).toBe(400);

    const plain = await t.createSite();
    const plainVisitor = await t.visitorToken(plain);
    const plainSession = await t.app.inject({ method: 'POST', url: '/_api/redirects-api/v1/redirect-session', headers: { authorization: plainVisitor }, payload: { ecomCheckout: { checkoutId: 'co-2' } } });
    expect(new URL(plainSession.json().redirectSession.fullUrl).origin).toBe('http://localhost:3000');
    await t.close();
  });
});

describe('server rendering under rate limits', () => {
  it('renders every page with data although all renders share one visitor token, and outsiders cannot borrow that exemption', async () => {
    const t = await testApp({ db, webDir: newLayout(), operations: { ...UNLIMITED_OPERATIONS, rateLimit: { perIp: 1000, perToken: 2, windowMs: 60_000 } } });
    const domain = `limited-${unique()}.localhost`;
    const site = await t.createSite({ domains: [domain] });
    await createProduct(t.app, site, { name: 'Rate Limited Lamp', priceData: { price: 12 } });
    for (let i = 0; i < 5; i += 1) {
      const res = await page(t, `/products?n=${i}`, domain);
      expect(res.body).toContain('<li>Rate Limited Lamp</li>');
      expect(bootstrapOf(res.body).state).toMatchObject({ status: 200, count: 1 });
    }
    const visitor = await t.visitorToken(site);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await t.app.inject({ method: 'POST', url: '/stores-reader/v1/products/query', headers: { authorization: visitor, 'x-bodega-internal': 'a guess' }, payload: { query: {} } });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([200, 200, 429]);
    await t.close();
  });
});

describe('the origin pages are written for', () => {
  it('takes PUBLIC_URL’s scheme for a shop domain, and never echoes a Host that is no host name', async () => {
    const t = await testApp({ db, webDir: newLayout(), publicUrl: 'https://shops.example' });
    const domain = `tls-${unique()}.localhost`;
    await t.createSite({ domains: [domain] });
    const res = await page(t, '/products', domain);
    expect(res.body).toContain(`<link rel="canonical" href="https://${domain}/products">`);
    const odd = await page(t, '/products', 'x"><script>alert(1)</script>');
    expect(odd.body).not.toContain('x"><script>');
    expect(odd.body).toContain('<link rel="canonical" href="https://shops.example/products">');
    await t.close();
  });
});
