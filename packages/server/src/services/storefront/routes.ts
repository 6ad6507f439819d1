// The shop's pages on the API's port: static assets of the web build, every other page GET
// rendered for the site the Host names, and /sitemap.xml and /robots.txt per site.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { composePage, type WebBuild } from './web-build.js';
import { PAGE_COMPRESSION } from '../../platform/compression.js';
import { injectFetch } from './inject-fetch.js';
import type { StorefrontService, StorefrontSite } from './service.js';
import { robotsTxt, sitemapXml, visibleProductSlugs } from './sitemap.js';
import { wixPageRedirects } from './wix-paths.js';

/** Paths that belong to the API: never a page, whatever the Accept header says. */
export const API_PREFIXES = [
  '/_api/', '/_iam/', '/oauth2/', '/wix-data/', '/ecom/', '/stores/', '/stores-reader/', '/members/', '/headless/', '/v1/', '/v2/', '/v3/', '/graphql',
  '/healthz', '/readyz', '/metrics', '/bodega/', '/media/', '/categories/', '/assets/', '/reviews/', '/back-in-stock-service/', '/site-scripts/',
];

/**
 * Collects the first path segment of every route registered from now until `freeze()` (every API
 * route: the shop's own are registered after), so an unknown path under any prefix the server
 * serves — a module added later too — answers a JSON 404, never the shop's HTML.
 */
export function collectApiRoots(app: FastifyInstance): { roots: Set<string>; freeze(): void } {
  const roots = new Set<string>();
  let frozen = false;
  app.addHook('onRoute', (route) => {
    const root = /^\/([^/:*?]+)\//.exec(route.url)?.[1];
    if (!frozen && root) roots.add(root);
  });
  return { roots, freeze: () => { frozen = true; } };
}

/** A render that takes longer is abandoned and the page is rendered in the browser instead. */
export const RENDER_TIMEOUT_MS = 5000;
const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';
const OTHER_FILE_CACHE = 'public, max-age=3600';

export interface StorefrontOptions {
  storefront: StorefrontService;
  /** First path segments of the API's routes (collectApiRoots). */
  apiRoots?: ReadonlySet<string>;
  build: WebBuild | undefined;
  publicUrl: string;
}

export function storefrontRoutes({ storefront, build, publicUrl, apiRoots = new Set() }: StorefrontOptions) {
  return async (app: FastifyInstance) => {
    app.get('/robots.txt', async (req, reply) => {
      const site = await storefront.siteForHost(req.headers.host);
      const origin = requestOrigin(req, publicUrl);
      return reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(robotsTxt(origin, Boolean(site)));
    });

    app.get('/sitemap.xml', async (req, reply) => {
      const site = await storefront.siteForHost(req.headers.host);
      if (!site) return reply.status(404).type('text/plain; charset=utf-8').send('There is no store at this address.\n');
      const origin = requestOrigin(req, publicUrl);
      const slugs = await visibleProductSlugs(injectFetch(app, origin, await storefront.visitorToken(site)), origin);
      return reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=600').send(sitemapXml(origin, slugs));
    });

    wixPageRedirects(app);

    if (!build) return;
    await app.register(fastifyStatic, {
      root: build.staticDir,
      prefix: '/',
      // One route per built file, fixed at start; the template is never served raw.
      wildcard: false,
      index: false,
      // Each file's .br and .gz siblings (written by the build) are sent in its place to a client
      // that accepts them, with Vary: Accept-Encoding; they get no routes of their own.
      globIgnore: ['index.html', '**/*.br', '**/*.gz'],
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        const hashed = filePath.split(/[\\/]/).includes('assets');
        reply.header('cache-control', hashed ? HASHED_ASSET_CACHE : OTHER_FILE_CACHE);
      },
    });

    app.get('/*', { compress: PAGE_COMPRESSION }, async (req, reply) => {
      if (!isPageRequest(req, apiRoots)) return reply.callNotFound();
      return servePage(app, req, reply, storefront, build, publicUrl);
    });
  };
}

/** A GET/HEAD of a non-API path, for a document (not a missing file such as /favicon.ico). */
export function isPageRequest(req: FastifyRequest, apiRoots: ReadonlySet<string> = new Set()): boolean {
  const urlPath = req.url.split('?')[0];
  if (API_PREFIXES.some((p) => urlPath === p.replace(/\/$/, '') || urlPath.startsWith(p))) return false;
  if (apiRoots.has(urlPath.split('/')[1] ?? '')) return false;
  if (/\.[A-Za-z0-9]{1,8}$/.test(urlPath) && !urlPath.endsWith('.html')) return false;
  const accept = req.headers.accept;
  return !accept || accept.includes('text/html') || accept.includes('*/*');
}

/**
 * The public origin of this request: PUBLIC_URL when the Host is its host, else the Host on
 * PUBLIC_URL's scheme (every shop sits behind the same proxy, as redirect links assume). A Host
 * that is no plain host[:port] is not echoed into pages.
 */
export function requestOrigin(req: FastifyRequest, publicUrl: string): string {
  const configured = new URL(publicUrl);
  const host = req.headers.host;
  if (!host || host.toLowerCase() === configured.host.toLowerCase() || !/^[A-Za-z0-9.-]+(:\d{1,5})?$/.test(host)) return configured.origin;
  return `${configured.protocol}//${host}`;
}

async function servePage(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, storefront: StorefrontService, build: WebBuild, publicUrl: string) {
  reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache');
  let site: StorefrontSite | undefined;
  try {
    site = await storefront.siteForHost(req.headers.host);
  } catch (error) {
    req.log.error({ err: error }, 'could not choose the site of a page');
  }
  if (!site) return reply.status(404).send(NO_STORE_PAGE);
  const rendered = build.render ? await renderPage(app, req, build, site, storefront, publicUrl) : undefined;
  return reply.status(rendered?.status ?? 200).send(composePage(build.template, site, rendered));
}

async function renderPage(app: FastifyInstance, req: FastifyRequest, build: WebBuild, site: StorefrontSite, storefront: StorefrontService, publicUrl: string) {
  const render = build.render;
  if (!render) return undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    const origin = requestOrigin(req, publicUrl);
    const token = await storefront.visitorToken(site);
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`render took longer than ${RENDER_TIMEOUT_MS} ms`)), RENDER_TIMEOUT_MS);
    });
    const result = await Promise.race([render({ url: req.url, origin, site: { ...site }, fetch: injectFetch(app, origin, token) }), timeout]);
    if (!result || typeof result.html !== 'string' || typeof result.head !== 'string') throw new Error('render returned no html/head');
    const status = Number.isInteger(result.status) && result.status >= 200 && result.status < 600 ? result.status : 200;
    return { status, head: result.head, html: result.html, state: result.state };
  } catch (error) {
    req.log.error({ err: error, url: req.url }, 'server rendering failed; the page renders in the browser');
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

const NO_STORE_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>No store here</title></head>
<body><main><h1>There is no store at this address.</h1></main></body></html>
`;
