/**
 * A gift card of the shopper's own amount in Chromium, on the demo store: the merchant allows
 * custom amounts from $5 to $500; the shopper picks "Other amount", is told in words when the
 * amount is out of range, then adds $37.50 to the cart. Checked with axe and photographed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium, launchChromium, type Chromium } from './chromium.js';
import { checkPage } from './admin-pages.js';
import { ready } from './shop.js';
import { storefrontApp, type StorefrontTestApp } from '../packages/server/src/test/storefront.js';
import { apiKey } from '../packages/server/src/test/commerce.js';

if (!hasChromium) console.warn(`Skipping the custom gift-card amount browser test: ${CHROMIUM} is missing.`);

describe.skipIf(!hasChromium)('a custom gift-card amount in Chromium', () => {
  let t: StorefrontTestApp;
  let chromium: Chromium;

  beforeAll(async () => {
    t = await storefrontApp();
    chromium = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await chromium?.close();
    await t?.close();
  });

  it('the shopper picks "Other amount", is told the limits, and adds their own amount', async () => {
    const site = await t.createShop({ name: 'Bodega demo store' });
    const current = await t.app.inject({ method: 'GET', url: '/bodega/v1/gift-cards/settings', headers: apiKey(site) });
    const productIds = current.json().settings.productIds as string[];
    expect(productIds).toHaveLength(1);
    const set = await t.app.inject({ method: 'PUT', url: '/bodega/v1/gift-cards/settings', headers: apiKey(site), payload: { productIds, minCustomAmount: '5', maxCustomAmount: '500' } });
    expect(set.statusCode, set.body).toBe(200);

    const page = await chromium.context.newPage();
    await page.goto(`${site.origin}/products/digital-gift-card`);
    await ready(page);
    await page.getByRole('radio', { name: 'Other amount' }).check();
    const amount = page.getByLabel('Amount (USD)');
    await amount.fill('3');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('alert').filter({ hasText: 'Choose an amount between 5.00 and 500.00 USD.' }).waitFor();
    await expect.poll(() => amount.evaluate((el) => el === document.activeElement)).toBe(true);
    await checkPage(page, 'gift-card-other-amount-error');
    await amount.fill('37.50');
    // The error goes as soon as the amount is right.
    await expect.poll(() => page.getByText('Choose an amount between').count()).toBe(0);
    await page.getByLabel("Recipient's e-mail").fill('ada@example.com');
    await page.getByText('$37.50').first().waitFor();
    await checkPage(page, 'gift-card-other-amount');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    const cart = page.getByRole('dialog', { name: /Your cart/ });
    await cart.getByText('$37.50').first().waitFor();
    await page.close();
  }, 180_000);
});
