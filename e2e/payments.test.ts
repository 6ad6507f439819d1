/**
 * Payments in Chromium: a shopper's card asks for 3-D Secure, the checkout explains it and places
 * the order once the bank confirms (no order before that); the owner captures part of an
 * authorized payment from the order page, sees the provider's answer and the payment timeline,
 * and checks the payment settings page. The `test` provider stands in for the card provider
 * (Stripe's script cannot load offline). Checked with axe and photographed (e2e/output/).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM, hasChromium } from './chromium.js';
import { apiKey, catalogLine, NEW_YORK } from '../packages/server/src/test/commerce.js';
import { checkPage, signInToAdmin } from './admin-pages.js';
import { ready, useShop } from './shop.js';
import type { TestSite } from '../packages/server/src/test/harness.js';

if (!hasChromium) console.warn(`Skipping the payments browser tests: ${CHROMIUM} is missing.`);

describe.skipIf(!hasChromium)('payments in Chromium', () => {
  const shop = useShop();

  async function orderCount(site: TestSite): Promise<number> {
    const res = await shop().t.app.inject({ method: 'POST', url: '/ecom/v1/orders/search', headers: apiKey(site), payload: { search: {} } });
    return (res.json() as { orders: unknown[] }).orders.length;
  }

  async function fillCheckout(page: Page) {
    await page.getByRole('heading', { name: 'Checkout' }).waitFor();
    await page.getByLabel('E-mail').fill('card@example.com');
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Card');
    await page.getByRole('radio', { name: 'Pick up in store' }).check();
    await page.getByRole('group', { name: 'Pickup location' }).getByRole('radio').first().check();
    await page.getByLabel('Billing street and number').fill('5 Elm St');
    await page.getByLabel('Billing city').fill('Boston');
    await page.getByLabel('Billing postal code').fill('02108');
  }

  it('3-D Secure: the checkout asks the shopper to confirm with their bank, then places the one order', async () => {
    const site = await shop().t.createShop({ name: 'Bodega demo store' });
    const page = await shop().chromium.context.newPage();
    await page.goto(`${site.origin}/products/waxed-canvas-tote`);
    await ready(page);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('dialog', { name: /Your cart/ }).getByRole('link', { name: /View cart/ }).click();
    await page.getByRole('button', { name: 'Check out' }).click();
    await page.waitForURL(/\/checkout\?checkoutId=/);
    await fillCheckout(page);
    await page.getByRole('radio', { name: 'Card' }).check();
    await page.getByLabel('Card number').fill('4000 0027 6000 3184');
    await page.getByLabel('Expiry (MM/YY)').fill('12/30');
    await page.getByLabel('Security code').fill('123');
    await page.getByRole('button', { name: /Place order/ }).click();
    await page.getByText('Your bank asks you to confirm this payment').waitFor();
    expect(await orderCount(site)).toBe(0);
    await checkPage(page, 'payments-3ds', { axe: 'both' });
    await page.getByRole('button', { name: 'Confirm with your bank' }).click();
    await page.waitForURL(/\/checkout\/thank-you\?orderId=/);
    expect(await orderCount(site)).toBe(1);
    await page.close();
  }, 120_000);

  it('the owner captures part of an authorized payment and sees the timeline; the payment settings page', async () => {
    const email = `owner.${Date.now()}@shop.example`;
    const site = await shop().t.createShop({ name: 'Bodega demo store', ownerEmail: email, ownerPassword: 'Owner-pass-123' });
    const { app } = shop().t;
    const visitor = await shop().t.visitorToken(site);
    const listed = await app.inject({ method: 'POST', url: '/stores-reader/v1/products/query', headers: apiKey(site), payload: { query: { paging: { limit: 1 } } } });
    expect(listed.statusCode, listed.body).toBe(200);
    const productId = (listed.json() as { products: { id: string }[] }).products[0].id;
    const created = await app.inject({
      method: 'POST', url: '/ecom/v1/checkouts', headers: { authorization: visitor },
      payload: { lineItems: [catalogLine(productId)], checkoutInfo: { buyerInfo: { email: 'buyer@example.com' }, shippingInfo: { shippingDestination: { address: NEW_YORK } } } },
    });
    expect(created.statusCode, created.body).toBe(200);
    const checkoutId = created.json().checkout.id as string;
    const paid = await app.inject({ method: 'POST', url: `/ecom/v1/checkouts/${checkoutId}/create-order-and-charge`, headers: { authorization: visitor }, payload: { paymentToken: 'tok_test_ok', delayCapture: true } });
    expect(paid.statusCode, paid.body).toBe(200);
    const orderId = paid.json().orderId as string;

    const page = await shop().chromium.context.newPage();
    await signInToAdmin(page, site.origin, email, 'Owner-pass-123', `/admin/orders/${orderId}`);
    const panel = page.getByRole('region', { name: 'Payments' });
    await panel.getByRole('button', { name: 'Capture' }).waitFor();
    await panel.getByLabel('Amount to capture').fill('1.00');
    await panel.getByRole('button', { name: 'Capture' }).click();
    await panel.getByText('Captured $1.00: the money is taken.').waitFor();
    await panel.getByText(/Capture of \$1\.00/).waitFor();
    await checkPage(page, 'payments-order-captured');

    await page.goto(`${site.origin}/admin/settings/payments`);
    await page.getByRole('heading', { name: 'Payments' }).waitFor();
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText('The test provider accepted the keys.').waitFor();
    await page.getByLabel('Card payments', { exact: true }).selectOption('stripe');
    await page.getByLabel('Secret key').waitFor();
    await checkPage(page, 'payments-settings');
    await page.close();
  }, 120_000);
});
