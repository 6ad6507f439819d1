/**
 * Tips and fees in Chromium (issue 31): the owner adds a handling fee and turns tips on in the back
 * office's "Fees and tips" form; a shopper picks a tip at checkout — by keyboard through the radio
 * group, by click, then an amount of their own — and the summary shows a "Tip" row beside "Fees"
 * with the server's total, without the page moving; the thank-you page and the back office's order
 * page show the tip, and the order was charged with it. axe-clean, photographed at desktop and
 * phone width (e2e/output/tips-*). Needs `npm run build` and /usr/bin/chromium.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM, hasChromium } from './chromium.js';
import { apiKey } from '../packages/server/src/test/commerce.js';
import { parseAmount } from '../packages/server/src/platform/money.js';
import { checkPage, signInToAdmin } from './admin-pages.js';
import { billAndPayByCard, ready, useShop } from './shop.js';

if (!hasChromium) console.warn(`Skipping the tips browser test: ${CHROMIUM} is missing.`);

const PASSWORD = 'Owner-pass-123';

/** The amount a totals row (Fees, Tip, Total) shows, once it shows `expected`. */
async function row(page: Page, term: string, expected: string): Promise<void> {
  await page.locator('.totals div').filter({ has: page.getByRole('term').filter({ hasText: new RegExp(`^${term}$`) }) })
    .getByRole('definition').getByText(expected, { exact: true }).waitFor();
}

describe.skipIf(!hasChromium)('tips and fees in Chromium', () => {
  const shop = useShop();

  it('the owner turns tips on and adds a fee; a shopper tips at checkout; the summary and the order show it', async () => {
    const email = `owner.${Date.now()}@shop.example`;
    const site = await shop().t.createShop({ name: 'Bodega demo store', ownerEmail: email, ownerPassword: PASSWORD });
    const owner = await shop().chromium.context.newPage();
    const errors: string[] = [];
    owner.on('pageerror', (e) => errors.push(e.message));
    await signInToAdmin(owner, site.origin, email, PASSWORD, '/admin/settings/commerce');
    await owner.getByRole('heading', { name: 'Shipping and tax', level: 1 }).waitFor();
    const form = owner.getByRole('form', { name: 'Fees and tips' });
    await form.getByRole('button', { name: 'Add handling fee' }).click();
    const fee = form.getByRole('group', { name: 'Handling fee' });
    await fee.getByLabel('Name shoppers see').fill('Handling');
    await form.getByRole('group', { name: 'Handling' }).getByLabel('Amount').fill('2.5');
    // A wrong amount is refused beside its field before anything is sent.
    await form.getByLabel('Offer tips at checkout').check();
    await form.getByLabel('Tip 1 (%)').fill('150');
    await form.getByRole('button', { name: 'Save fees and tips' }).click();
    await form.getByText('A percent up to 100, such as 15 or 12.5').waitFor();
    await form.getByLabel('Tip 1 (%)').fill('10');
    await checkPage(owner, 'tips-admin-fees-and-tips');
    await form.getByRole('button', { name: 'Save fees and tips' }).click();
    await owner.getByText('Fees and tips saved.').waitFor();
    const saved = await shop().t.app.inject({ method: 'GET', url: '/_api/bodega/v1/commerce-settings', headers: apiKey(site) });
    const settings = saved.json().settings as { additionalFees: unknown[]; tips: { enabled: boolean; presets: { value: string; default: boolean }[] } };
    expect(settings.additionalFees).toEqual([{ kind: 'HANDLING_FEE', name: 'Handling', amount: '2.5', taxable: false }]);
    expect([settings.tips.enabled, settings.tips.presets]).toEqual([true, [{ value: '10', default: false }, { value: '15', default: true }, { value: '20', default: false }]]);

    // The shopper: a visitor in the same browser, so the owner signs out first.
    await shop().chromium.context.clearCookies();
    const page = await shop().chromium.context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${site.origin}/products/waxed-canvas-tote`);
    await ready(page);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('dialog', { name: /Your cart/ }).getByRole('link', { name: /View cart/ }).click();
    await page.getByRole('button', { name: 'Check out' }).click();
    await page.getByRole('heading', { name: 'Checkout' }).waitFor();
    await page.getByLabel('E-mail').fill('tipper@example.com');
    await page.getByLabel('First name').fill('Tess');
    await page.getByLabel('Last name').fill('Tipper');
    await page.getByRole('radio', { name: 'Pick up in store' }).check();
    await page.getByRole('group', { name: 'Pickup location' }).getByRole('radio').first().check();
    await billAndPayByCard(page);

    const tips = page.getByRole('region', { name: 'Add a tip' });
    await tips.getByRole('radio', { name: 'No tip' }).waitFor();
    expect(await tips.getByRole('radio', { name: 'No tip' }).isChecked()).toBe(true);
    await row(page, 'Fees', '$2.50');
    const before = await tips.boundingBox();
    // By keyboard: the arrow key moves from "No tip" to 10% of $42.00.
    await tips.getByRole('radio', { name: 'No tip' }).focus();
    await page.keyboard.press('ArrowRight');
    await row(page, 'Tip', '$4.20');
    expect(await tips.getByRole('radio', { name: '10%' }).isChecked()).toBe(true);
    await tips.getByRole('radio', { name: /^15%/ }).check();
    await row(page, 'Tip', '$6.30');
    const checkoutId = new URL(page.url()).searchParams.get('checkoutId') ?? '';
    const serverTotal = async () => (await shop().t.app.inject({ method: 'GET', url: `/ecom/v1/checkouts/${checkoutId}`, headers: apiKey(site) })).json().checkout.priceSummary;
    // The server's total: the tote, pickup and tax as the demo store prices them, the fee and the tip.
    const withPreset = await serverTotal();
    expect(withPreset.additionalFees.amount).toBe('8.80');
    await row(page, 'Total', withPreset.total.formattedAmount);
    await checkPage(page, 'tips-checkout');
    // "Other amount" enables the field that was already there: nothing below moves.
    await tips.getByRole('radio', { name: 'Other amount' }).check();
    expect((await tips.boundingBox())?.height).toBe(before?.height);
    await tips.getByLabel('Tip amount (USD)').fill('5');
    await tips.getByRole('button', { name: 'Add tip' }).click();
    await row(page, 'Tip', '$5.00');
    await row(page, 'Fees', '$2.50');
    const withOwn = await serverTotal();
    // $1.30 less than with 15% ($6.30 → $5.00), in exact minor units.
    expect(parseAmount(withPreset.total.amount, 'USD') - parseAmount(withOwn.total.amount, 'USD')).toBe(130n);
    await row(page, 'Total', withOwn.total.formattedAmount);

    await page.getByRole('button', { name: /Place order/ }).click();
    await page.waitForURL(/\/checkout\/thank-you\?orderId=/);
    await row(page, 'Tip', '$5.00');
    await row(page, 'Total', withOwn.total.formattedAmount);
    await checkPage(page, 'tips-thank-you');
    const orderId = new URL(page.url()).searchParams.get('orderId') ?? '';
    const order = (await shop().t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${orderId}`, headers: apiKey(site) })).json().order;
    expect([order.paymentStatus, order.balanceSummary.paid.amount, order.priceSummary.total.amount]).toEqual(['PAID', withOwn.total.amount, withOwn.total.amount]);

    // The back office's order page.
    await signInToAdmin(owner, site.origin, email, PASSWORD, `/admin/orders/${orderId}`);
    await row(owner, 'Tip', '$5.00');
    await row(owner, 'Handling', '$2.50');
    await checkPage(owner, 'tips-admin-order', { axe: 'desktop' });
    expect(errors).toEqual([]);
  }, 240_000);
});
