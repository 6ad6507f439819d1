/**
 * Gift cards in Chromium, on the demo store: a shopper buys the Digital Gift Card for a friend with
 * a delivery date; the friend's mail arrives over SMTP only on that date (the server's clock is
 * moved); the friend spends it on a tote at checkout, the test card paying the rest; the balance
 * page shows what is left. Checked with axe and photographed (e2e/output/).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM, hasChromium, launchChromium, type Chromium } from './chromium.js';
import { checkPage, signInToAdmin } from './admin-pages.js';
import { billAndPayByCard, ready } from './shop.js';
import { SmtpCapture } from '../packages/server/src/test/sign-in.js';
import { storefrontApp, type StorefrontTestApp } from '../packages/server/src/test/storefront.js';
import { apiKey } from '../packages/server/src/test/commerce.js';

if (!hasChromium) console.warn(`Skipping the gift card browser tests: ${CHROMIUM} is missing.`);

const DAY = 24 * 60 * 60 * 1000;

describe.skipIf(!hasChromium)('gift cards in Chromium', () => {
  let offset = 0;
  let t: StorefrontTestApp;
  let mail: SmtpCapture;
  let chromium: Chromium;

  beforeAll(async () => {
    mail = new SmtpCapture();
    const smtpUrl = await mail.start();
    // The server's clock: real time, moved forward by the test to the delivery date.
    t = await storefrontApp({ smtpUrl, now: () => new Date(Date.now() + offset) });
    chromium = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await chromium?.close();
    await t?.close();
    await mail?.stop();
  });

  async function payByCard(page: Page, email: string, pickup: boolean) {
    await page.getByRole('heading', { name: 'Checkout' }).waitFor();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByRole('radio', { name: 'Pick up in store' }).check();
    // A gift card alone ships nothing: no pickup location to choose.
    const locations = page.getByRole('group', { name: 'Pickup location' }).getByRole('radio');
    if (pickup) await locations.first().check();
    await billAndPayByCard(page);
  }

  it('the demo gift card is bought, delivered on its date and spent on a second order', async () => {
    const site = await t.createShop({ name: 'Bodega demo store' });
    const deliver = new Date(Date.now() + 3 * DAY).toISOString().slice(0, 10);

    // 1. Buy a $25 card for Ada, to be delivered in three days.
    const page = await chromium.context.newPage();
    await page.goto(`${site.origin}/products/digital-gift-card`);
    await ready(page);
    await page.getByRole('radio', { name: '$25' }).check();
    await page.getByLabel("Recipient's name").fill('Ada');
    await page.getByLabel("Recipient's e-mail").fill('ada@example.com');
    await page.getByLabel('Delivery date').fill(deliver);
    await page.getByLabel('Message').fill('Happy birthday, Ada!');
    await checkPage(page, 'gift-card-product');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('dialog', { name: /Your cart/ }).getByRole('link', { name: /View cart/ }).click();
    await page.getByRole('button', { name: 'Check out' }).click();
    await page.waitForURL(/\/checkout\?checkoutId=/);
    await payByCard(page, 'grace@example.com', false);
    await page.getByRole('button', { name: /Place order/ }).click();
    await page.waitForURL(/\/checkout\/thank-you\?orderId=/);

    // The buyer's copy now (without the code); Ada's mail waits for the delivery date.
    await expect.poll(() => mail.messages.filter((m) => m.to.includes('grace@example.com') && /gift card/i.test(m.subject)).length, { timeout: 20_000 }).toBe(1);
    expect(mail.messages.some((m) => m.to.includes('ada@example.com'))).toBe(false);
    await t.app.services.mail.deliverPending();
    expect(mail.messages.some((m) => m.to.includes('ada@example.com'))).toBe(false);

    offset = 3 * DAY + 60_000;
    await t.app.services.mail.deliverPending();
    await expect.poll(() => mail.messages.filter((m) => m.to.includes('ada@example.com')).length, { timeout: 20_000 }).toBe(1);
    const ada = mail.messages.find((m) => m.to.includes('ada@example.com'));
    expect(ada?.text).toContain('Happy birthday, Ada!');
    const code = /Gift card code: (\w{4}-\w{4}-\w{4}-\w{4})/.exec(ada?.text ?? '')?.[1] ?? '';
    expect(code).not.toBe('');
    await page.close();

    // 2. Ada (another shopper: the buyer's cookies go) spends it on the $42 tote; the test card pays the rest.
    await chromium.context.clearCookies();
    const second = await chromium.context.newPage();
    await second.goto(`${site.origin}/products/waxed-canvas-tote`);
    await ready(second);
    await second.getByRole('button', { name: 'Add to cart' }).click();
    await second.getByRole('dialog', { name: /Your cart/ }).getByRole('link', { name: /View cart/ }).click();
    await second.getByRole('button', { name: 'Check out' }).click();
    await second.waitForURL(/\/checkout\?checkoutId=/);
    await payByCard(second, 'ada@example.com', true);
    await second.getByLabel('Gift card code').fill(code.toLowerCase());
    await second.getByRole('button', { name: 'Apply' }).click();
    const summary = second.getByRole('region', { name: 'Gift card' });
    await summary.getByText(`Gift card ending ${code.slice(-4)}`).waitFor();
    await summary.getByText('−$25.00').waitFor();
    // $42 and New York tax at pickup in Brooklyn, less the card's $25.
    await second.getByRole('button', { name: 'Place order · $20.73' }).waitFor();
    await checkPage(second, 'gift-card-checkout');
    await second.getByRole('button', { name: /Place order/ }).click();
    await second.waitForURL(/\/checkout\/thank-you\?orderId=/);
    const orderId = new URL(second.url()).searchParams.get('orderId') ?? '';
    const order = await t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${orderId}`, headers: apiKey(site) });
    expect(order.json().order.paymentStatus).toBe('PAID');
    expect(order.json().order.priceSummary.total.amount).toBe('45.73');
    const payments = await t.app.inject({ method: 'GET', url: `/ecom/v1/payments/orders/${orderId}`, headers: apiKey(site) });
    expect(payments.json().orderTransactions.payments.map((p: { amount: { amount: string } }) => p.amount.amount).sort()).toEqual(['20.73', '25.00']);

    // 3. The balance page: nothing left.
    await second.goto(`${site.origin}/gift-cards/balance`);
    await ready(second);
    await second.getByLabel('Gift card code').fill(code);
    await second.getByRole('button', { name: 'Check balance' }).click();
    await second.getByRole('heading', { name: 'Balance: $0.00' }).waitFor();
    await checkPage(second, 'gift-card-balance');
    await second.close();
  }, 240_000);

  it('a card that pays the whole order leaves no payment to choose, and the order is paid', async () => {
    const site = await t.createShop({ name: 'Bodega demo store' });
    const issued = await t.app.inject({ method: 'POST', url: '/bodega/v1/gift-cards', headers: apiKey(site), payload: { amount: '100' } });
    expect(issued.statusCode, issued.body).toBe(200);
    const code = issued.json().giftCard.code as string;
    await chromium.context.clearCookies();
    const page = await chromium.context.newPage();
    await page.goto(`${site.origin}/products/waxed-canvas-tote`);
    await ready(page);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('dialog', { name: /Your cart/ }).getByRole('link', { name: /View cart/ }).click();
    await page.getByRole('button', { name: 'Check out' }).click();
    await page.waitForURL(/\/checkout\?checkoutId=/);
    await page.getByLabel('E-mail').fill('lin@example.com');
    await page.getByLabel('First name').fill('Lin');
    await page.getByLabel('Last name').fill('Park');
    await page.getByRole('radio', { name: 'Pick up in store' }).check();
    await page.getByRole('group', { name: 'Pickup location' }).getByRole('radio').first().check();
    await page.getByLabel('Billing street and number').fill('5 Elm St');
    await page.getByLabel('Billing city').fill('Boston');
    await page.getByLabel('Billing postal code').fill('02108');
    await page.getByLabel('Gift card code').fill(code);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Your gift cards pay the whole order: there is nothing left to pay.').waitFor();
    expect(await page.getByLabel('Card number').count()).toBe(0);
    await page.getByRole('button', { name: 'Place order · $0.00' }).waitFor();
    await checkPage(page, 'gift-card-checkout-covered');
    await page.getByRole('button', { name: /Place order/ }).click();
    await page.waitForURL(/\/checkout\/thank-you\?orderId=/);
    const orderId = new URL(page.url()).searchParams.get('orderId') ?? '';
    const order = await t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${orderId}`, headers: apiKey(site) });
    expect(order.json().order.paymentStatus).toBe('PAID');
    const payments = await t.app.inject({ method: 'GET', url: `/ecom/v1/payments/orders/${orderId}`, headers: apiKey(site) });
    expect(payments.json().orderTransactions.payments.map((p: { amount: { amount: string } }) => p.amount.amount)).toEqual(['45.73']);
    await page.close();
  }, 180_000);

  it('the back office issues a card by hand, adjusts it with a reason and disables it', async () => {
    const email = `owner.${Date.now()}@shop.example`;
    const site = await t.createShop({ name: 'Bodega demo store', ownerEmail: email, ownerPassword: 'Owner-pass-123' });
    await chromium.context.clearCookies();
    const page = await chromium.context.newPage();
    await signInToAdmin(page, site.origin, email, 'Owner-pass-123', '/admin/gift-cards');
    await page.getByRole('heading', { name: 'Gift cards' }).waitFor();
    await page.getByRole('button', { name: 'Issue a gift card' }).click();
    const issue = page.getByRole('dialog', { name: 'Issue a gift card' });
    await issue.getByLabel('Amount').fill('15');
    await issue.getByLabel('Note for the ledger (optional)').fill('Sorry about the late parcel');
    await issue.getByRole('button', { name: 'Issue the card' }).click();
    await page.getByText(/Gift card \w{4}-\w{4}-\w{4}-\w{4} issued for \$15\.00\./).waitFor();
    await page.getByRole('button', { name: /^Open/ }).first().click();
    const detail = page.getByRole('dialog', { name: 'Gift card' });
    await detail.getByLabel('Amount to add (negative to take off)').fill('-5');
    await detail.getByLabel('Reason').fill('Partly used in the shop by phone');
    await detail.getByRole('button', { name: 'Adjust' }).click();
    await detail.getByText('The balance is now $10.00.').waitFor();
    await detail.getByRole('cell', { name: 'Partly used in the shop by phone' }).waitFor();
    await checkPage(page, 'gift-card-admin-detail');
    await detail.getByRole('button', { name: 'Disable the card' }).click();
    await detail.getByText('The card is disabled: checkouts refuse it.').waitFor();
    const audit = await t.db.query<{ action: string }>('SELECT action FROM audit_log WHERE site_id = $1 AND object_type = $2 ORDER BY action', [site.siteId, 'gift_card']);
    expect(audit.map((a) => a.action)).toEqual(['gift_card.adjusted', 'gift_card.disabled', 'gift_card.issued']);
    await page.keyboard.press('Escape');
    await checkPage(page, 'gift-card-admin-list');
    await page.close();
  }, 180_000);
});
