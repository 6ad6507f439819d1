/**
 * The demo store paid with Stripe, in Chromium: the site's provider is `stripe`, its server's
 * official SDK pointed at the local Stripe stand-in (STRIPE_API_URL's in-process twin). The
 * shopper enters the card in the Payment Element (Stripe.js served by e2e/stripe-js.ts at its real
 * address), the order waits for the authorization, the card number never reaches Bodega; a card
 * that asks for 3-D Secure leaves for the bank's page and comes back: failed, explained in words,
 * then passed and placed once. The merchant captures and refunds from the back office (a refund
 * whose answer is lost is shown as scheduled); the stand-in's intent shows each step. Checked with axe and photographed (e2e/output/).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM, hasChromium } from './chromium.js';
import { apiKey } from '../packages/server/src/test/commerce.js';
import { STAND_IN_PUBLISHABLE_KEY, STAND_IN_SECRET_KEY, STAND_IN_WEBHOOK_SECRET, startStripeStandIn, type StandIn } from '../packages/server/src/test/stripe-stand-in.js';
import type { TestSite } from '../packages/server/src/test/harness.js';
import { checkPage, signInToAdmin } from './admin-pages.js';
import { ready, useShop } from './shop.js';
import { routeStripe } from './stripe-js.js';

if (!hasChromium) console.warn(`Skipping the Stripe browser test: ${CHROMIUM} is missing.`);

describe.skipIf(!hasChromium)('the demo store paid with Stripe', () => {
  let stand: StandIn;
  beforeAll(async () => {
    stand = await startStripeStandIn();
  });
  afterAll(async () => stand?.close());
  const shop = useShop(() => ({ payments: { stripeApi: stand.api } }));

  async function orders(site: TestSite): Promise<{ id: string; paymentStatus: string }[]> {
    const res = await shop().t.app.inject({ method: 'POST', url: '/ecom/v1/orders/search', headers: apiKey(site), payload: { search: {} } });
    return (res.json() as { orders: { id: string; paymentStatus: string }[] }).orders;
  }

  /** From the product page to the checkout, the address filled in and the cheapest shipping chosen. */
  async function toCheckout(page: Page, origin: string) {
    await page.goto(`${origin}/products/waxed-canvas-tote`);
    await ready(page);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('dialog', { name: /Your cart/ }).getByRole('link', { name: /View cart/ }).click();
    await page.getByRole('button', { name: 'Check out' }).click();
    await page.waitForURL(/\/checkout\?checkoutId=/);
    await page.getByRole('heading', { name: 'Checkout' }).waitFor();
    await page.getByLabel('E-mail').fill('stripe.buyer@example.com');
    await page.getByLabel('First name').fill('Stella');
    await page.getByLabel('Last name').fill('Card');
    await page.getByLabel('Street and number').fill('1 Main St');
    await page.getByLabel('City', { exact: true }).fill('New York');
    await page.getByLabel('State or region (optional)').fill('NY');
    await page.getByLabel('Postal code', { exact: true }).fill('10001');
    await expect.poll(() => page.getByRole('group', { name: 'Shipping option' }).getByRole('radio', { checked: true }).count(), { timeout: 15_000 }).toBe(1);
  }

  /** The card, typed into the Payment Element's own frame. */
  async function enterCard(page: Page, number: string) {
    const element = page.frameLocator('iframe[title="Secure payment input frame"]');
    await element.getByLabel('Card number').fill(number);
    await element.getByLabel('Expiration date').fill('12 / 30');
    await element.getByLabel('Security code').fill('123');
  }

  function intentsOf(siteId: string) {
    return [...stand.intents.values()].filter((i) => i.metadata.bodega_site === siteId);
  }

  it('a shopper pays with Stripe; 3-D Secure by the bank\'s page, failed then passed; the merchant captures and refunds', async () => {
    const email = `owner.${Date.now()}@shop.example`;
    const site = await shop().t.createShop({ name: 'Bodega demo store', ownerEmail: email, ownerPassword: 'Owner-pass-123' });
    const set = await shop().t.app.inject({
      method: 'PATCH', url: '/_api/bodega/v1/payment-settings', headers: apiKey(site),
      payload: { settings: { provider: 'stripe', capturePolicy: 'ON_FULFILLMENT', publishableKey: STAND_IN_PUBLISHABLE_KEY, secretKey: STAND_IN_SECRET_KEY, webhookSecret: STAND_IN_WEBHOOK_SECRET } },
    });
    expect(set.statusCode, set.body).toBe(200);

    const page = await shop().chromium.context.newPage();
    await routeStripe(page, stand);
    // PCI SAQ A: the card number goes to Stripe only, never in a request to the shop.
    const leaks: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).hostname === site.domain && /4242\D?4242|4000\D?0027/.test(`${r.url()} ${r.postData() ?? ''}`)) leaks.push(r.url());
    });

    // 1. The card is authorized (capture on fulfilment); the order exists only once it is.
    await toCheckout(page, site.origin);
    await enterCard(page, '4242 4242 4242 4242');
    await checkPage(page, 'payments-stripe-step', { axe: 'both' });
    await page.getByRole('button', { name: /Place order/ }).click();
    await page.waitForURL(/\/checkout\/thank-you\?orderId=/);
    const orderId = new URL(page.url()).searchParams.get('orderId') ?? '';
    const [held] = intentsOf(site.siteId);
    expect(held).toMatchObject({ status: 'requires_capture', capture_method: 'manual', payment_method: 'pm_card_visa', currency: 'usd' });
    expect(await orders(site)).toEqual([expect.objectContaining({ id: orderId, paymentStatus: 'PENDING' })]);

    // 2. 3-D Secure on the bank's own page: failed first, explained, nothing placed; then passed.
    await toCheckout(page, site.origin);
    await enterCard(page, '4000 0027 6000 3184');
    await page.getByRole('button', { name: /Place order/ }).click();
    await page.getByText('Your bank asks you to confirm this payment').waitFor();
    await page.getByRole('button', { name: 'Confirm with your bank' }).click();
    await page.getByRole('heading', { name: '3-D Secure test payment' }).waitFor();
    await page.getByRole('button', { name: 'Fail authentication' }).click();
    await page.getByText('Your bank did not confirm the payment, so nothing was charged.').waitFor();
    expect(new URL(page.url()).searchParams.has('payment_intent')).toBe(false);
    expect(await orders(site)).toHaveLength(1);
    await checkPage(page, 'payments-stripe-3ds-failed', { axe: 'both' });
    await enterCard(page, '4000 0027 6000 3184');
    await page.getByRole('button', { name: /Place order/ }).click();
    await page.getByRole('button', { name: 'Confirm with your bank' }).click();
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await page.waitForURL(/\/checkout\/thank-you\?orderId=/);
    expect(await orders(site)).toHaveLength(2);
    expect(intentsOf(site.siteId).map((i) => i.status).sort()).toEqual(['requires_capture', 'requires_capture', 'requires_payment_method']);
    expect(leaks).toEqual([]);

    // 3. The merchant captures the first order and refunds part of it, through Stripe.
    await signInToAdmin(page, site.origin, email, 'Owner-pass-123', `/admin/orders/${orderId}`);
    const panel = page.getByRole('region', { name: 'Payments' });
    await panel.getByRole('button', { name: 'Capture' }).click();
    await panel.getByText(/^Captured \$[\d.]+: the money is taken\.$/).waitFor();
    expect(stand.intents.get(held.id)).toMatchObject({ status: 'succeeded', amount_received: held.amount });
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: /Refund order/ });
    await dialog.getByLabel('Amount').fill('10.00');
    await dialog.getByLabel('Reason (optional)').fill('A scuffed corner');
    await dialog.getByRole('button', { name: 'Refund' }).click();
    await page.getByText(/A refund of \$10\.00 is made/).waitFor();
    await panel.getByText(/Refund of \$10\.00 through the provider \(succeeded\)/).waitFor();
    expect(stand.intents.get(held.id)?.amount_refunded).toBe(1000);
    expect((await orders(site)).find((o) => o.id === orderId)).toMatchObject({ paymentStatus: 'PARTIALLY_REFUNDED' });

    // Stripe makes a second refund but its answer is lost: the refund is SCHEDULED, said in words.
    stand.dropRefundAnswers = true;
    try {
      await page.getByRole('button', { name: 'Refund', exact: true }).click();
      await dialog.getByLabel('Amount').fill('5.00');
      await dialog.getByRole('button', { name: 'Refund' }).click();
      await page.getByText(/A refund of \$5\.00 is recorded .* The payment provider did not answer yet/).waitFor();
    } finally {
      stand.dropRefundAnswers = false;
    }
    await panel.getByText(/Refund of \$5\.00 through the provider \(scheduled\)/).waitFor();
    await checkPage(page, 'payments-stripe-order');

    // 4. The settings page: Stripe, its key shown only by its end, and the connection works.
    await page.goto(`${site.origin}/admin/settings/payments`);
    await page.getByText('Saved: sk_test_…0000. Leave empty to keep it.').waitFor();
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText('Stripe accepted the keys.').waitFor();
    await page.close();
  }, 240_000);
});
