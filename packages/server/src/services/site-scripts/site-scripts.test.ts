/**
 * Site scripts (issue 24, finding 4): what `@wix/astro` reads after every page it renders, through
 * the module it calls (`@wix/headless-site-assets` `scripts.listSiteScripts`, current `@wix/sdk`).
 * Empty by default; the owner (or an API key) replaces the list; every site sees only its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, OAuthStrategy } from '@wix/sdk';
import { scripts } from '@wix/headless-site-assets';
import { useListeningWixApp } from '../../test/sign-in.js';
import { testApp, type TestApp } from '../../test/harness.js';
import { backOfficeSite } from '../../test/backoffice.js';
import type { TestSite } from '../../test/harness.js';
import { apiKey } from '../../test/commerce.js';

const wix = useListeningWixApp();

function astroRuntime(site: TestSite) {
  return createClient({ modules: { scripts }, auth: OAuthStrategy({ clientId: site.clientId }) });
}

function put(site: TestSite, siteScripts: unknown[], headers: Record<string, string> = apiKey(site)) {
  return wix().t.app.inject({ method: 'PUT', url: '/_api/bodega/v1/site-scripts', headers, payload: { siteScripts } });
}

describe('site scripts through @wix/headless-site-assets', () => {
  it('answers no scripts by default, then the owner’s, on the edge path @wix/astro calls', async () => {
    const { t, wixFetch } = wix();
    const site = await t.createSite();
    const other = await t.createSite();
    const runtime = astroRuntime(site);
    const before = await runtime.scripts.listSiteScripts({ pageUrl: 'https://shop.example/products/lamp' });
    expect(before.siteScripts).toEqual([]);
    expect(wixFetch.urls).toContain('GET /assets/scripts/v1/site-scripts?pageUrl=https%3A%2F%2Fshop.example%2Fproducts%2Flamp');

    const tags = [
      { position: 'HEAD', html: '<script async src="https://analytics.example/a.js"></script>' },
      { position: 'BODY_END', html: '<script>window.chatReady = true;</script>' },
    ];
    const saved = await put(site, tags);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().siteScripts).toEqual(tags);
    const after = await runtime.scripts.listSiteScripts({ pageUrl: 'https://shop.example/' });
    expect(after.siteScripts).toEqual(tags);
    // Another site's runtime sees its own (none).
    expect((await astroRuntime(other).scripts.listSiteScripts({})).siteScripts).toEqual([]);
    // Cleared again.
    expect((await put(site, [])).json().siteScripts).toEqual([]);
    expect((await runtime.scripts.listSiteScripts({})).siteScripts).toEqual([]);
  });

  it('checks what is saved and answers in the wire error shape', async () => {
    const { t } = wix();
    const site = await t.createSite();
    const cases: unknown[][] = [
      [{ position: 'FOOTER', html: '<p>x</p>' }],
      [{ position: 'HEAD', html: 'x'.repeat(15_001) }],
      [{ position: 'HEAD', html: '   ' }],
      [{ position: 'HEAD' }],
      Array.from({ length: 21 }, () => ({ position: 'HEAD', html: '<p>x</p>' })),
    ];
    for (const siteScripts of cases) {
      const res = await put(site, siteScripts);
      expect(res.statusCode, JSON.stringify(siteScripts).slice(0, 80)).toBe(400);
      expect(res.json()).toHaveProperty('details.validationError.fieldViolations');
    }
    const noToken = await t.app.inject({ method: 'GET', url: '/assets/scripts/v1/site-scripts' });
    expect(noToken.statusCode).toBe(401);
  });
});

describe('who may change site scripts', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await testApp();
  });
  afterAll(() => app.close());

  it('the owner and API keys of the site only; another site’s owner changes their own', async () => {
    const s = await backOfficeSite(app);
    const other = await backOfficeSite(app);
    const tag = [{ position: 'HEAD', html: '<meta name="x" content="1">' }];
    const send = (headers: Record<string, string>) => app.app.inject({ method: 'PUT', url: '/_api/bodega/v1/site-scripts', headers, payload: { siteScripts: tag } });
    expect((await send(s.headers.owner)).statusCode).toBe(200);
    for (const caller of ['contributor', 'member', 'visitor'] as const) expect((await send(s.headers[caller])).statusCode, caller).toBe(403);
    expect((await send(s.headers.anonymous)).statusCode).toBe(401);
    // Another site's owner and API key write to their own site, never to this one.
    await app.app.inject({ method: 'PUT', url: '/_api/bodega/v1/site-scripts', headers: other.headers.apiKey, payload: { siteScripts: [] } });
    await app.app.inject({ method: 'PUT', url: '/_api/bodega/v1/site-scripts', headers: { ...other.headers.apiKey, 'wix-site-id': s.site.siteId }, payload: { siteScripts: [] } });
    const mine = await app.app.inject({ method: 'GET', url: '/_api/bodega/v1/site-scripts', headers: s.headers.apiKey });
    expect(mine.json().siteScripts).toEqual(tag);
  });
});
