/**
 * Test helper for the shop in a browser: a listening app serving the built web app, and shops
 * (sites) with the demo content, each on its own `shop-<random>.localhost` domain. Chromium
 * resolves every *.localhost name to loopback, so many shops share one server and the Host
 * header picks the shop (the port is ignored).
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp, type PaymentsDeps } from '../app.js';
import type { CaptchaProvider } from '../platform/config.js';
import type { Db } from '../platform/db.js';
import type { CreateSiteInput } from '../services/sites/service.js';
import type { DomainProofOptions } from '../services/sites/domain-proof.js';
import { seedDemoContent, type DemoContent } from '../demo-store/seed.js';
import { testDb, type TestSite } from './harness.js';
import { freePort } from './sign-in.js';

/** apps/web/dist of this checkout: `npm run build` writes it. */
export const WEB_DIST = fileURLToPath(new URL('../../../../apps/web/dist', import.meta.url));

export interface ShopSite extends TestSite {
  /** e.g. shop-1a2b3c4d.localhost */
  domain: string;
  /** e.g. http://shop-1a2b3c4d.localhost:41234 — open this in the browser. */
  origin: string;
  /** What seedDemoContent made (products, collections, coupon); empty lists with `demo: false`. */
  content: DemoContent;
}

export interface StorefrontTestApp {
  app: FastifyInstance;
  db: Db;
  port: number;
  /** http://127.0.0.1:<port>, also PUBLIC_URL. */
  url: string;
  /** A site with open sign-up (unless told otherwise), the demo content and a fresh *.localhost domain. */
  createShop(input?: Partial<CreateSiteInput> & { demo?: boolean }): Promise<ShopSite>;
  visitorToken(site: TestSite): Promise<string>;
  close(): Promise<void>;
}

export interface StorefrontTestOptions {
  /** Defaults to apps/web/dist; the test fails with a clear message when it holds no build. */
  webDir?: string;
  now?: () => Date;
  smtpUrl?: string;
  captchaProvider?: CaptchaProvider;
  db?: Db;
  /** How domains are proven (a loopback DNS server in the domain tests). */
  domainProof?: Partial<DomainProofOptions>;
  /** Payments: a Stripe stand-in's address (the sweep's timer stays off unless set). */
  payments?: PaymentsDeps;
}

let counter = 0;

/** True when `webDir` holds the client/server build the storefront pages need. */
export function hasWebBuild(webDir = WEB_DIST): boolean {
  return fs.existsSync(path.join(webDir, 'client', 'index.html')) && fs.existsSync(path.join(webDir, 'server', 'entry-server.js'));
}

export async function storefrontApp(options: StorefrontTestOptions = {}): Promise<StorefrontTestApp> {
  const webDir = options.webDir ?? WEB_DIST;
  if (!hasWebBuild(webDir)) {
    throw new Error(`${webDir} holds no web build with client/index.html and server/entry-server.js: run \`npm run build\` first`);
  }
  const db = options.db ?? (await testDb());
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const app = await buildApp({
    db,
    config: {
      publicUrl: url, logLevel: 'silent', webDir, smtpUrl: options.smtpUrl,
      captchaProvider: options.captchaProvider ?? 'none', authRateLimitPerMinute: 0,
    },
    now: options.now,
    domainProof: options.domainProof,
    payments: { sweepIntervalMs: 0, ...options.payments },
  });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    db,
    port,
    url,
    async createShop({ demo = true, ...input } = {}) {
      const domain = `shop-${randomUUID().slice(0, 8)}.localhost`;
      const origin = `http://${domain}:${port}`;
      const created = await app.services.sites.createSite({
        name: `Test shop ${++counter}`, signupPolicy: 'open', ...input,
        domains: [domain, ...(input.domains ?? [])],
        allowedOrigins: [origin, ...(input.allowedOrigins ?? [])],
      });
      const site = { siteId: created.site.siteId, clientId: created.clientId, apiKey: created.apiKey };
      const content = demo ? await seedDemoContent(app, site) : { products: [], collections: [], couponCode: '' };
      return { ...site, domain, origin, content };
    },
    async visitorToken(site) {
      const res = await app.inject({ method: 'POST', url: '/oauth2/token', payload: { clientId: site.clientId, grantType: 'anonymous' } });
      if (res.statusCode !== 200) throw new Error(`anonymous grant failed: ${res.body}`);
      return (res.json() as { access_token: string }).access_token;
    },
    async close() {
      await app.close();
      if (!options.db) await db.close();
    },
  };
}
