/**
 * The storefront in Chromium, as a visitor: browse, filter, pick a variant, fill the cart, use the
 * coupon, estimate shipping, check out with the test card (declined, then approved: one order),
 * and the whole checkout with the keyboard alone. Every page is checked with axe and photographed
 * at desktop and phone width (e2e/output/). Needs `npm run build` and /usr/bin/chromium.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM, hasChromium } from './chromium.js';
import { apiKey } from '../packages/server/src/test/commerce.js';
import { axeViolations, freeShipping, ready, screenshots, type ShopSite, shopSite, useShop } from './shop.js';

if (!hasChromium) console.warn(`Skipping the storefront browser tests: ${CHROMIUM} is missing.`);

describe.skipIf(!hasChromium)('storefront in Chromium', () => {
  const shop = useShop();

  async function orderCount(site: ShopSite): Promise<number> {
    const res = await shop().t.app.inject({ method: 'POST', url: '/ecom/v1/orders/search', headers: apiKey(site), payload: { search: {} } });
    return (res.json() as { orders: unknown[] }).orders.length;
  }

  async function check(page: Page, name: string, fullPage = true) {
    expect(await axeViolations(page), `axe on ${name}`).toEqual([]);
    await screenshots(page, name, fullPage);
  }

  it('a visitor browses, filters, picks a variant, uses the coupon, estimates shipping and pays (declined, then approved: one order)', async () => {
    const site = await shopSite(shop());
    const page = await shop().chromium.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    await page.goto(`${site.url}/`);
    await ready(page);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain('Everyday goods');
    await check(page, 'home');
    // Cards of products whose variants cost different amounts read "From" the lowest price; one price reads plainly.
    expect(await page.locator('.card-price').filter({ hasText: /^From \$\d+\.\d{2}$/ }).count()).toBeGreaterThan(0);
    expect(await page.locator('.card-price').filter({ hasText: /^\$\d+\.\d{2}$/ }).count()).toBeGreaterThan(0);

    await page.getByRole('link', { name: 'Shop all products' }).click();
    await page.waitForURL(/\/products$/);
    await page.getByRole('heading', { name: 'All products' }).waitFor();
    await page.getByRole('complementary', { name: 'Filters' }).getByRole('link', { name: 'Apparel' }).click();
    await page.waitForURL(/collection=apparel/);
    await page.getByRole('heading', { name: 'Apparel' }).waitFor();
    const names = await page.locator('.card-title').allTextContents();
    expect(names).toContain('Linen Camp Shirt');
    expect(names).not.toContain('Speckled Stoneware Mug');
    // Its sizes cost different amounts (XL is dearer): the card shows the lowest, "From".
    expect(await page.locator('.card', { hasText: 'Linen Camp Shirt' }).locator('.card-price').textContent()).toBe('From $58.00');
    await page.getByLabel('Sort by').selectOption('price_desc');
    await page.waitForURL(/sort=price_desc/);
    await check(page, 'listing');

    await page.getByRole('link', { name: 'Linen Camp Shirt' }).click();
    await page.getByRole('heading', { name: 'Linen Camp Shirt', level: 1 }).waitFor();
    expect(await page.locator('.product-price').textContent()).toBe('From $58.00'); // no size picked yet
    // XL in navy is sold out: once XL is picked, navy reads "sold out" and offers a mail instead of the cart; the XL price and SKU follow.
    await page.getByRole('radio', { name: 'XL', exact: true }).check();
    await page.getByRole('radio', { name: 'Navy (sold out)' }).check();
    await page.getByRole('heading', { name: "Email me when it's back" }).waitFor();
    expect(await page.getByRole('button', { name: 'Add to cart' }).count()).toBe(0);
    await page.getByRole('radio', { name: /^Sage/ }).check();
    await page.getByText('XL-SAG').waitFor();
    expect(await page.locator('.product-price').textContent()).toContain('$62.00');
    await page.getByRole('radio', { name: 'M', exact: true }).check();
    await page.getByText('M-SAG').waitFor();
    expect(await page.locator('.product-price').textContent()).toContain('$58.00');
    expect(await page.locator('.gallery-main img').getAttribute('alt')).toMatch(/sage/i); // the picked colour's picture
    await check(page, 'product');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    const drawer = page.getByRole('dialog', { name: /Your cart/ });
    await drawer.waitFor();
    await drawer.getByRole('link', { name: 'Linen Camp Shirt' }).waitFor();
    // The line's thumbnail is the sage shirt that was picked, not the product's first (sand) picture.
    expect(await drawer.locator('.line', { hasText: 'Linen Camp Shirt' }).locator('img').getAttribute('src')).toMatch(/linen-shirt-sage\.svg$/);
    await drawer.getByText('$58.00', { exact: true }).first().waitFor();
    await check(page, 'cart-drawer', false);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    await page.goto(`${site.url}/products/waxed-canvas-tote`);
    await ready(page);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await drawer.getByRole('link', { name: 'Waxed Canvas Tote' }).waitFor();
    await drawer.getByRole('link', { name: /View cart/ }).click();
    await page.waitForURL(/\/cart$/);

    await page.getByLabel('Discount code').fill('NOT-A-CODE');
    await page.getByRole('button', { name: 'Apply' }).click();
    expect(await page.locator('#coupon-error').textContent()).toContain('don’t know this code');
    await page.getByLabel('Discount code').fill(site.content.couponCode);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText(`Code ${site.content.couponCode} applied`).waitFor();
    // No destination yet: shipping is not $0.00, it is still to come.
    expect(await page.locator('.totals').getByRole('definition').filter({ hasText: 'At checkout' }).count()).toBe(1);
    await page.getByLabel('Country').selectOption('US');
    await page.getByLabel('Postal code').fill('10001');
    await page.getByLabel('State (optional)').fill('NY');
    await page.getByRole('button', { name: 'Estimate' }).click();
    await page.getByRole('radio', { name: /Standard/ }).check();
    await page.locator('.totals').getByText('Shipping').waitFor();
    await freeShipping(page); // over $75: Standard is free, and says so
    await page.locator('.totals').getByText('Tax').waitFor(); // New York sales tax in the estimate, as at checkout
    expect(await page.locator('.totals .discount').textContent()).toContain('−$');
    await check(page, 'cart');

    await page.getByRole('button', { name: 'Check out' }).click();
    await page.waitForURL(/\/checkout\?checkoutId=/);
    await page.getByRole('heading', { name: 'Checkout' }).waitFor();
    // Before an option is chosen the summary names no shipping price (not "Free", not $0.00).
    const summaryShipping = page.locator('.checkout-summary .totals div').filter({ has: page.getByText(/^Shipping/) }).getByRole('definition');
    expect(await summaryShipping.textContent()).toBe('Not chosen yet');
    // The form's checks (its zod schema loads after the page shows) answer a submit of the empty form.
    await page.getByRole('button', { name: /Place order/ }).click();
    await page.getByText('Enter your first name').waitFor();
    await page.getByText('Enter a valid e-mail address, like name@example.com').waitFor();
    expect(await orderCount(site)).toBe(0);
    await page.getByLabel('E-mail').fill('visitor@example.com');
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Visitor');
    await page.getByLabel('Street and number').fill('1 Main St');
    await page.getByLabel('City', { exact: true }).fill('New York');
    await page.getByLabel('State or region (optional)').fill('NY');
    await check(page, 'checkout-address-incomplete');
    await page.getByLabel('Postal code', { exact: true }).fill('10001');
    // The address is complete: its options come by themselves, the cheapest chosen (Standard, free over $75).
    const shippingGroup = page.getByRole('group', { name: 'Shipping option' });
    await expect.poll(() => shippingGroup.getByRole('radio', { name: /Standard/ }).isChecked(), { timeout: 15_000 }).toBe(true);
    await freeShipping(page);
    await page.locator('.checkout-summary .totals').getByText('Tax').waitFor(); // New York sales tax, from the server
    await check(page, 'checkout-options-loaded');
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByLabel('Expiry (MM/YY)').fill('12/30');
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: /Place order/ }).click();
    await page.getByText('Your card was declined').waitFor();
    await check(page, 'checkout-declined');
    expect(await orderCount(site)).toBe(0);

    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: /Place order/ }).dblclick();
    await page.waitForURL(/\/checkout\/thank-you\?orderId=/);
    const number = await page.getByTestId('order-number').textContent();
    expect(number).toMatch(/^\d+$/);
    // Each line shows price × quantity, so the lines add up to the subtotal (the discount and tax are below).
    const shirtLine = page.locator('.mini-lines li', { hasText: 'Linen Camp Shirt' });
    expect(await shirtLine.locator('.mini-name').textContent()).toBe('Linen Camp Shirt $58.00 × 1');
    expect(await shirtLine.locator('> span').last().textContent()).toBe('$58.00');
    await page.locator('.totals .discount').waitFor();
    await page.locator('.totals').getByText('Tax').waitFor();
    await check(page, 'thank-you');
    expect(await orderCount(site)).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  /** Presses Tab until the focused element's accessible name matches (the keyboard is all we use). */
  async function tabTo(page: Page, name: RegExp, max = 80): Promise<void> {
    for (let i = 0; i < max; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return '';
        const byFor = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : undefined;
        return (el.getAttribute('aria-label') ?? byFor ?? el.closest('label')?.textContent ?? el.textContent ?? '').trim();
      });
      if (name.test(focused)) return;
    }
    throw new Error(`Tab never reached ${name}`);
  }

  it('the whole checkout works with the keyboard alone', async () => {
    const site = await shopSite(shop());
    const page = await shop().chromium.context.newPage();
    await page.goto(`${site.url}/products/waxed-canvas-tote`);
    await ready(page);
    await tabTo(page, /^Add to cart$/);
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: /Your cart/ });
    await drawer.getByRole('link', { name: 'Waxed Canvas Tote' }).waitFor();
    await tabTo(page, /^Check out$/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/checkout\?checkoutId=/);
    await page.getByRole('heading', { name: 'Checkout' }).waitFor();

    const fields: [RegExp, string][] = [[/^E-mail/, 'keys@example.com'], [/^First name/, 'Kay'], [/^Last name/, 'Board'], [/^Street and number/, '2 Key St'], [/^City/, 'New York'], [/^Postal code/, '10001']];
    for (const [label, value] of fields) {
      await tabTo(page, label);
      await page.keyboard.type(value);
    }
    // No button to find: the options load once the address is complete, the cheapest chosen.
    await expect.poll(() => page.getByRole('group', { name: 'Shipping option' }).getByRole('radio').first().isChecked(), { timeout: 15_000 }).toBe(true);
    for (const [label, value] of [[/^Card number/, '4242424242424242'], [/^Expiry/, '12/30'], [/^Security code/, '123']] as const) {
      await tabTo(page, label);
      await page.keyboard.type(value);
    }
    await tabTo(page, /^Place order/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/checkout\/thank-you\?orderId=/);
    await page.getByTestId('order-number').waitFor();
    expect(await orderCount(site)).toBe(1);
    await page.close();
  }, 90_000);

  it('answers an unknown path with the 404 page (status 404), axe-clean', async () => {
    const site = await shopSite(shop());
    const page = await shop().chromium.context.newPage();
    const response = await page.goto(`${site.url}/no/such/page`);
    expect(response?.status()).toBe(404);
    await ready(page);
    await page.getByRole('heading', { name: 'We can’t find that page' }).waitFor();
    await check(page, 'not-found');
    await page.close();
  }, 60_000);

  it('a page whose bundle does not arrive says so in place of the shop, and the next navigation recovers', async () => {
    const site = await shopSite(shop());
    const page = await shop().chromium.context.newPage();
    await page.goto(`${site.url}/`);
    await ready(page);
    // The cart page's bundle fails on the network (the page is not loaded yet: the home page never needs it).
    await page.route(/\/assets\/CartPage-[^/]*\.js$/, (route) => route.abort());
    let attempts = 0;
    page.on('requestfailed', (request) => { if (/CartPage-/.test(request.url())) attempts += 1; });
    await page.getByRole('contentinfo').getByRole('link', { name: 'Cart' }).click();
    await page.getByRole('heading', { name: 'This page didn’t load' }).waitFor();
    await page.getByRole('button', { name: 'Reload' }).waitFor();
    expect(attempts, 'the failed bundle is asked for once, not again on every render').toBe(1);
    await page.unroute(/\/assets\/CartPage-[^/]*\.js$/);
    await page.getByRole('link', { name: 'Home' }).click();
    await page.waitForURL(`${site.url}/`);
    await page.getByRole('banner').waitFor();
    expect(await page.getByRole('heading', { name: 'This page didn’t load' }).count()).toBe(0);
    await page.close();
  }, 60_000);
});
