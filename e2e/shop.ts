/**
 * The storefront's browser-test kit: a listening server with the built web app and captured mail,
 * a site of its own per test (demo content, a `shop-….localhost` domain Chromium resolves to
 * loopback), screenshots at desktop and phone width, and axe checks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { signInApp, SmtpCapture, type SignInApp } from '../packages/server/src/test/sign-in.js';
import { apiKey } from '../packages/server/src/test/commerce.js';
import type { TestSite } from '../packages/server/src/test/harness.js';
import { launchChromium, type Chromium } from './chromium.js';

export const WEB_DIR = fileURLToPath(new URL('../apps/web/dist', import.meta.url));
export const OUTPUT_DIR = fileURLToPath(new URL('./output', import.meta.url));
export const COUPON = 'WELCOME10';

export interface Shop {
  t: SignInApp;
  mail: SmtpCapture;
  chromium: Chromium;
  close(): Promise<void>;
}

export async function startShop(): Promise<Shop> {
  if (!fs.existsSync(path.join(WEB_DIR, 'client', 'index.html'))) throw new Error(`${WEB_DIR} has no web build: run \`npm run build\` first`);
  const mail = new SmtpCapture();
  const smtpUrl = await mail.start();
  const t = await signInApp({ listen: true, webDir: WEB_DIR, smtpUrl });
  const chromium = await launchChromium();
  return {
    t, mail, chromium,
    async close() {
      await chromium.close();
      await t.close();
      await mail.stop();
    },
  };
}

export interface ShopSite extends TestSite {
  /** http://shop-….localhost:port */
  url: string;
}

/** A demo store of the test's own, reached by its own host name. */
export async function shopSite(shop: Shop, signupPolicy: 'open' | 'email-verification' = 'open'): Promise<ShopSite> {
  const domain = `shop-${randomUUID().slice(0, 8)}.localhost`;
  const url = `http://${domain}:${new URL(shop.t.url).port}`;
  // The allowed origin lets the shop's own sign-in finish in a hidden frame (web_message).
  const site = await shop.t.createSite({ name: 'Bodega demo store', status: 'DEMO', signupPolicy, domains: [domain], allowedOrigins: [url] });
  const headers = apiKey(site);
  // The demo content has these once the server's demo seed grows them; a test never depends on that.
  const coupons = await shop.t.app.inject({ method: 'POST', url: '/stores/v2/coupons/query', headers, payload: { query: {} } });
  if (!JSON.stringify(coupons.json()).includes(COUPON)) {
    await shop.t.app.inject({ method: 'POST', url: '/stores/v2/coupons', headers, payload: { specification: { code: COUPON, name: 'Welcome, 10% off', percentOffRate: 10 } } });
  }
  const settings = await shop.t.app.inject({ method: 'GET', url: '/_api/bodega/v1/commerce-settings', headers });
  if (!JSON.stringify(settings.json()).includes('pickupOptions":[{')) {
    await shop.t.app.inject({
      method: 'PATCH', url: '/_api/bodega/v1/commerce-settings', headers,
      payload: { settings: {
        shippingRegions: [
          { id: 'domestic', name: 'United States', country: 'US', rules: [{ code: 'standard', title: 'Standard (3–5 days)', rate: '5', type: 'BY_TOTAL_QUANTITY', operator: 'GTE', threshold: '0' }] },
          { id: 'world', name: 'International', country: 'GB', rules: [{ code: 'international', title: 'International', rate: '15', type: 'BY_TOTAL_QUANTITY', operator: 'GTE', threshold: '0' }] },
        ],
        pickupOptions: [{ code: 'pickup', title: 'Pick up at the shop', cost: '0', address: { country: 'US', city: 'Brooklyn', addressLine: '12 Bergen St' } }],
      } },
    });
  }
  return { ...site, url };
}

/** Saves the page at 1280 and at 390 wide under e2e/output/ (full page), then restores the size. */
export async function screenshots(page: Page, name: string, fullPage = true): Promise<void> {
  fs.mkdirSync(OUTPUT_DIR, { recursive: true });
  const size = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const [label, width, height] of [['desktop', 1280, 900], ['phone', 390, 844]] as const) {
    await page.setViewportSize({ width, height });
    await page.evaluate(async () => { await document.fonts.ready; window.scrollTo(0, 0); });
    await page.screenshot({ path: path.join(OUTPUT_DIR, `${name}-${label}.png`), fullPage, animations: 'disabled' });
  }
  await page.setViewportSize(size);
}

export interface AxeResult {
  id: string;
  impact?: string | null;
  nodes: { target: unknown; failureSummary?: string }[];
}

/** axe with the WCAG 2.0, 2.1 and 2.2 A and AA rules; the violations it finds, summarised. */
export async function axeViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  return result.violations.map((v: AxeResult) => `${v.id} (${v.impact}): ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

/** The app has hydrated when the header's cart button answers (it reads the shopper's cart). */
export async function ready(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
}
