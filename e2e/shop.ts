/**
 * The storefront's browser-test kit: a listening server with the built web app and captured mail,
 * a site of its own per test (demo content, a `shop-….localhost` domain Chromium resolves to
 * loopback), screenshots at desktop and phone width, and axe checks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { SmtpCapture } from '../packages/server/src/test/sign-in.js';
import { storefrontApp, type ShopSite as ServerShopSite, type StorefrontTestApp, type StorefrontTestOptions } from '../packages/server/src/test/storefront.js';
import { launchChromium, type Chromium } from './chromium.js';

export const OUTPUT_DIR = fileURLToPath(new URL('./output', import.meta.url));

export interface Shop {
  t: StorefrontTestApp;
  mail: SmtpCapture;
  chromium: Chromium;
  close(): Promise<void>;
}

export async function startShop(options: Omit<StorefrontTestOptions, 'smtpUrl'> = {}): Promise<Shop> {
  const mail = new SmtpCapture();
  const smtpUrl = await mail.start();
  const t = await storefrontApp({ ...options, smtpUrl });
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

/**
 * One shop for a describe block: started before its tests, closed after them. Call it in the
 * describe body; the returned function gives the shop inside a test.
 */
export function useShop(options: () => Omit<StorefrontTestOptions, 'smtpUrl'> = () => ({})): () => Shop {
  let shop: Shop | undefined;
  beforeAll(async () => {
    shop = await startShop(options());
  }, 60_000);
  afterAll(async () => {
    await shop?.close();
  });
  return () => {
    if (!shop) throw new Error('the shop did not start (see the beforeAll error)');
    return shop;
  };
}

export interface ShopSite extends ServerShopSite {
  /** http://shop-….localhost:port */
  url: string;
}

/** A demo store of the test's own (the server's demo content), reached by its own host name. */
export async function shopSite(shop: Shop, signupPolicy: 'open' | 'email-verification' = 'open'): Promise<ShopSite> {
  const site = await shop.t.createShop({ name: 'Bodega demo store', signupPolicy });
  return { ...site, url: site.origin };
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
  // A drawer sliding in is half transparent for 0.2 s; judge colours once finite animations end.
  await page.evaluate(() => Promise.all(document.getAnimations()
    .filter((a) => a.effect?.getTiming().iterations !== Infinity)
    .map((a) => a.finished.catch(() => undefined))));
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  return result.violations.map((v: AxeResult) => `${v.id} (${v.impact}): ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

/** Creates an account on the shop's own sign-up page (password `a-good-password`) and waits until it is signed in. */
export async function registerInBrowser(page: Page, url: string, email: string): Promise<void> {
  await page.goto(`${url}/auth/register`);
  await ready(page);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('a-good-password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('button', { name: /account menu/ }).waitFor();
}

/** The app has hydrated when the header's cart button answers (it reads the shopper's cart). */
export async function ready(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
}

/**
 * A signed-in member's checkout, from the checkout page to the thank-you page: their e-mail is
 * filled in for them, they give a name, pick up at the first location (shipping reads "Free"),
 * give a billing address and pay later. `beforePlacing` runs just before the order is placed
 * (a screenshot). Answers the order's number and id.
 */
export async function checkOutWithPickup(
  page: Page, buyer: { email: string; firstName: string; lastName: string }, beforePlacing?: () => Promise<void>,
): Promise<{ number: string; orderId: string }> {
  await page.getByRole('heading', { name: 'Checkout' }).waitFor();
  await expect.poll(() => page.getByLabel('E-mail').inputValue()).toBe(buyer.email);
  await pickUpAndPayLater(page, buyer);
  await freeShipping(page);
  await beforePlacing?.();
  await page.getByRole('button', { name: /Place order/ }).click();
  await page.waitForURL(/\/checkout\/thank-you\?orderId=/);
  const number = (await page.getByTestId('order-number').textContent()) ?? '';
  expect(number).toMatch(/^\d+$/);
  await freeShipping(page);
  return { number, orderId: new URL(page.url()).searchParams.get('orderId') ?? '' };
}

/** The checkout form filled for pickup at the first location, a Boston billing address, paying later. */
export async function pickUpAndPayLater(page: Page, buyer: { firstName: string; lastName: string }): Promise<void> {
  await page.getByLabel('First name').fill(buyer.firstName);
  await page.getByLabel('Last name').fill(buyer.lastName);
  await page.getByRole('radio', { name: 'Pick up in store' }).check();
  await page.getByRole('group', { name: 'Pickup location' }).getByRole('radio').first().check();
  await page.getByLabel('Billing street and number').fill('5 Elm St');
  await page.getByLabel('Billing city').fill('Boston');
  await page.getByLabel('Billing postal code').fill('02108');
  await page.getByRole('radio', { name: /Pay later/ }).check();
}

/** The checkout's billing address (Boston) and the test provider's approving card. */
export async function billAndPayByCard(page: Page): Promise<void> {
  await page.getByLabel('Billing street and number').fill('5 Elm St');
  await page.getByLabel('Billing city').fill('Boston');
  await page.getByLabel('Billing postal code').fill('02108');
  await page.getByRole('radio', { name: 'Card' }).check();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/30');
  await page.getByLabel('Security code').fill('123');
}

/** The page's totals read "Free" for shipping that costs nothing, not "$0.00". */
export async function freeShipping(page: Page): Promise<void> {
  await page.locator('.totals div').filter({ has: page.getByText(/^Shipping/) }).getByRole('definition').getByText('Free', { exact: true }).waitFor();
}
