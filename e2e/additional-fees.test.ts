/**
 * Additional fees in the shop, in Chromium (issue 31): the merchant sets a handling fee; the cart's
 * estimate and the checkout's summary show it as a "Fees" line, and the total is the server's.
 * axe-clean, photographed at desktop and phone width. Needs `npm run build` and /usr/bin/chromium.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM, hasChromium } from './chromium.js';
import { apiKey } from '../packages/server/src/test/commerce.js';
import { axeViolations, ready, screenshots, shopSite, useShop } from './shop.js';

if (!hasChromium) console.warn(`Skipping the additional fees browser test: ${CHROMIUM} is missing.`);

describe.skipIf(!hasChromium)('additional fees in the shop', () => {
  const shop = useShop();

  it('shows the handling fee in the cart estimate and the checkout summary', async () => {
    const site = await shopSite(shop());
    const set = await shop().t.app.inject({
      method: 'PATCH', url: '/_api/bodega/v1/commerce-settings', headers: apiKey(site),
      payload: { settings: { additionalFees: [{ kind: 'HANDLING_FEE', name: 'Handling', amount: '2.50', taxable: false }] } },
    });
    expect(set.statusCode, set.body).toBe(200);
    const page = await shop().chromium.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    await page.goto(`${site.url}/products/waxed-canvas-tote`);
    await ready(page);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('link', { name: /View cart/ }).click();
    await page.waitForURL(/\/cart$/);
    await page.getByLabel('Country').selectOption('US');
    await page.getByLabel('Postal code').fill('10001');
    await page.getByLabel('State (optional)').fill('NY');
    await page.getByRole('button', { name: 'Estimate' }).click();
    await page.getByRole('radio', { name: /Standard/ }).check();
    const fees = page.locator('.totals div', { has: page.getByRole('term').filter({ hasText: 'Fees' }) });
    await fees.waitFor();
    expect(await fees.getByRole('definition').textContent()).toBe('$2.50');
    expect(await axeViolations(page), 'axe on the cart').toEqual([]);
    await screenshots(page, 'cart-additional-fees');

    await page.getByRole('button', { name: 'Check out' }).click();
    await page.waitForURL(/\/checkout\?checkoutId=/);
    await page.getByRole('heading', { name: 'Checkout' }).waitFor();
    await page.locator('.totals').getByText('Fees').waitFor();
    const checkoutId = new URL(page.url()).searchParams.get('checkoutId') ?? '';
    const wire = await shop().t.app.inject({ method: 'GET', url: `/ecom/v1/checkouts/${checkoutId}`, headers: apiKey(site) });
    const total = (wire.json() as { checkout: { priceSummary: { total: { formattedAmount: string } } } }).checkout.priceSummary.total.formattedAmount;
    expect(await page.locator('.totals .grand dd').textContent()).toBe(total);
    expect(errors).toEqual([]);
  });
});
