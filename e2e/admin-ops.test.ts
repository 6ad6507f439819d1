/**
 * The back office's day-to-day operations in Chromium, on a demo store with orders spread over the
 * last three weeks (placed through the API on a server clock moved back, then brought to now):
 * a custom dashboard range, with the words an empty range shows; a partial refund that lands in the
 * timeline with its amount; an API key whose last use appears once it is used. Every page this
 * touches passes axe at desktop and phone width and is photographed (e2e/output/admin-ops-*),
 * and the other back-office pages are photographed on the same data for the review pass.
 * Needs `npm run build` and /usr/bin/chromium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storefrontApp, type ShopSite, type StorefrontTestApp } from '../packages/server/src/test/storefront.js';
import { catalogLine, placeOrder } from '../packages/server/src/test/commerce.js';
import { formatMoney, fromMinor, splitRefund, toMinor } from '../apps/web/src/ui/money.js';
import { CHROMIUM, hasChromium, launchChromium, type Chromium } from './chromium.js';
import { ready } from './shop.js';
import { checkPage, adminNav, submitSignIn } from './admin-pages.js';

const OWNER_EMAIL = 'owner@admin-ops.example.com';
const OWNER_PASSWORD = 'owner-password-1';
const DAY_MS = 86_400_000;

describe('back-office money is formatted and split without floats', () => {
  it('formats decimal strings exactly, and refuses what is not one', () => {
    expect(formatMoney('1234.5', 'USD')).toBe('$1,234.50');
    expect(formatMoney('90071992547409.93', 'USD')).toBe('$90,071,992,547,409.93'); // past 2^53 in cents
    expect(formatMoney('0.125', 'USD')).toBe('$0.13'); // half away from zero on the exact decimal
    expect(formatMoney('1200', 'JPY')).toBe('¥1,200');
    expect(formatMoney('abc', 'USD')).toBe('—');
    expect(formatMoney(undefined, 'USD')).toBe('—');
    expect(formatMoney(12.5, 'USD')).toBe('$12.50');
  });

  it('reads and writes minor units by the currency, and spreads a refund over payments oldest first', () => {
    expect(toMinor('12.5', 'USD')).toBe(1250n);
    expect(toMinor('12.50', 'USD')).toBe(1250n);
    expect(toMinor('12.505', 'USD')).toBeUndefined();
    expect(toMinor('12.500', 'USD')).toBe(1250n);
    expect(toMinor('-1', 'USD')).toBeUndefined();
    expect(toMinor('1e3', 'USD')).toBeUndefined();
    expect(toMinor('1200', 'JPY')).toBe(1200n);
    expect(toMinor('1.5', 'JPY')).toBeUndefined();
    expect(fromMinor(5n, 'USD')).toBe('0.05');
    expect(fromMinor(123456789012345678901n, 'USD')).toBe('1234567890123456789.01');
    expect(fromMinor(1200n, 'JPY')).toBe('1200');
    expect(fromMinor(1234n, 'KWD')).toBe('1.234');
    const payments = [{ id: 'a', refundable: 1000n }, { id: 'b', refundable: 0n }, { id: 'c', refundable: 500n }];
    expect(splitRefund(1200n, payments)).toEqual([{ paymentId: 'a', amount: 1000n }, { paymentId: 'c', amount: 200n }]);
    expect(splitRefund(300n, payments)).toEqual([{ paymentId: 'a', amount: 300n }]);
    expect(splitRefund(1501n, payments)).toBeUndefined();
  });
});

if (!hasChromium) console.warn(`Skipping the back-office operations browser tests: ${CHROMIUM} is missing.`);

describe.skipIf(!hasChromium)('back-office operations in Chromium', () => {
  // The server's clock: moved back while the demo orders are placed, then at now.
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
  let t: StorefrontTestApp;
  let chromium: Chromium;
  let site: ShopSite;
  const orders: { id: string; daysAgo: number }[] = [];

  beforeAll(async () => {
    t = await storefrontApp({ now });
    chromium = await launchChromium();
    site = await t.createShop({ name: 'Ops test store', ownerEmail: OWNER_EMAIL, ownerPassword: OWNER_PASSWORD });
    const key = { authorization: site.apiKey, 'wix-site-id': site.siteId };
    const product = (name: string) => site.content.products.find((p) => p.name === name)?.id ?? '';
    const plan: [number, string, number][] = [
      [1, 'Waxed Canvas Tote', 1], [2, 'Ceramic Pour-Over Dripper', 2], [2, 'Enamel Pin Set', 1], [5, 'Waxed Canvas Tote', 2],
      [9, 'Linen Tea Towels, Set of 2', 1], [14, 'Enamel Pin Set', 3], [20, 'Ceramic Pour-Over Dripper', 1],
    ];
    for (const [i, [daysAgo, name, quantity]] of plan.entries()) {
      offsetMs = -daysAgo * DAY_MS;
      const visitor = await t.visitorToken(site);
      const { orderId } = await placeOrder(t.app, site, visitor, [catalogLine(product(name), quantity)], { email: `buyer${i + 1}@example.com` });
      orders.push({ id: orderId, daysAgo });
      if (i % 2 === 0) {
        const paid = await t.app.inject({ method: 'POST', url: `/ecom/v1/payments-collector/orders/${orderId}/mark-as-paid`, headers: key, payload: {} });
        if (paid.statusCode !== 200) throw new Error(`mark-as-paid failed: ${paid.body}`);
      }
    }
    offsetMs = 0;
    for (const [first, last] of [['Ana', 'Ortiz'], ['Ben', 'Kato'], ['Cleo', 'Nwosu']]) {
      const res = await t.app.inject({
        method: 'POST', url: '/members/v1/members', headers: key,
        payload: { member: { loginEmail: `${first.toLowerCase()}@example.com`, contact: { firstName: first, lastName: last } } },
      });
      if (res.statusCode !== 200) throw new Error(`member create failed: ${res.body}`);
    }
    // Mail for the outbox (no SMTP here, so it is stored): a password reset for the owner.
    const reset = await t.app.inject({ method: 'POST', url: '/_api/iam/recovery/v1/send-email', headers: { authorization: await t.visitorToken(site) }, payload: { email: OWNER_EMAIL } });
    if (reset.statusCode !== 200) throw new Error(`recovery mail failed: ${reset.body}`);
  }, 120_000);
  afterAll(async () => {
    await chromium?.close();
    await t?.close();
  });

  const localDay = (daysAgo: number) => new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() - daysAgo * DAY_MS));

  it('shows a custom dashboard range and an empty one in words, refunds part of an order, and dates an API key’s last use', async () => {
    const owner = await chromium.context.newPage();
    const errors: string[] = [];
    owner.on('pageerror', (e) => errors.push(e.message));
    await owner.goto(`${site.origin}/admin`);
    await ready(owner);
    await owner.getByRole('link', { name: 'Sign in' }).click();
    await submitSignIn(owner, OWNER_EMAIL, OWNER_PASSWORD);
    await owner.waitForURL(/\/admin$/);
    await owner.getByRole('heading', { name: 'Dashboard' }).waitFor();

    // The default 30 days hold all seven orders.
    await owner.getByTestId('range-summary').getByText(/7 orders/).waitFor();
    await owner.getByRole('region', { name: 'Recent orders' }).getByRole('link').first().waitFor();
    await checkPage(owner, 'admin-ops-dashboard');

    // A custom range: a backwards one is refused in words, then the last 10 days hold five orders.
    await owner.getByLabel('Range').selectOption('custom');
    const form = owner.getByRole('form', { name: 'Custom range' });
    await form.getByLabel('From').fill(localDay(3));
    await form.getByLabel('To').fill(localDay(6));
    await form.getByRole('button', { name: 'Show' }).click();
    await form.getByText('The last day cannot be before the first.').waitFor();
    await form.getByLabel('From').fill(localDay(400));
    await form.getByRole('button', { name: 'Show' }).click();
    await form.getByText('At most 366 days at once.').waitFor();
    await form.getByLabel('From').fill(localDay(9));
    await form.getByLabel('To').fill(localDay(0));
    await form.getByRole('button', { name: 'Show' }).click();
    await owner.waitForURL(new RegExp(`from=${localDay(9)}&to=${localDay(0)}`));
    await owner.getByTestId('range-summary').getByText(/: 5 orders/).waitFor();
    await checkPage(owner, 'admin-ops-dashboard-custom');

    // The longest range the server takes: a year of thin bars, still labelled.
    await form.getByLabel('From').fill(localDay(365));
    await form.getByRole('button', { name: 'Show' }).click();
    await owner.getByTestId('range-summary').getByText(/: 7 orders/).waitFor();
    await checkPage(owner, 'admin-ops-dashboard-year');

    // A range without orders says so instead of drawing an empty chart.
    await form.getByLabel('From').fill(localDay(60));
    await form.getByLabel('To').fill(localDay(40));
    await form.getByRole('button', { name: 'Show' }).click();
    await owner.getByTestId('chart-empty').getByText(/^No orders from .+ to .+\./).waitFor();
    expect(await owner.locator('.chart svg').count()).toBe(0);
    await owner.getByTestId('range-summary').getByText(/: 0 orders, \$0\.00/).waitFor();
    await checkPage(owner, 'admin-ops-dashboard-empty');

    // Orders, on a phone too.
    await adminNav(owner, 'Orders');
    await owner.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    await owner.getByRole('cell', { name: /buyer1@example\.com/ }).waitFor();
    await checkPage(owner, 'admin-ops-orders');

    // A partial refund of the paid tote order, checked against what is left to refund.
    const paidId = orders[0].id;
    await owner.goto(`${site.origin}/admin/orders/${paidId}`);
    await ready(owner);
    const heading = await owner.getByRole('heading', { name: /^Order #\d+$/ }).textContent();
    const number = (heading ?? '').replace('Order #', '');
    await checkPage(owner, 'admin-ops-order');
    await owner.getByRole('button', { name: 'Refund' }).click();
    const dialog = owner.getByRole('dialog', { name: `Refund order #${number}` });
    const amount = dialog.getByLabel('Amount');
    await expect.poll(() => amount.inputValue()).toMatch(/^\d+\.\d{2}$/);
    const full = await amount.inputValue();
    await checkPage(owner, 'admin-ops-order-refund', { fullPage: false });
    await amount.fill('12.345');
    await dialog.getByRole('button', { name: 'Refund' }).click();
    await dialog.getByText('Enter an amount like 12.50.').waitFor();
    await amount.fill(fromMinor((toMinor(full, 'USD') ?? 0n) + 1n, 'USD'));
    await dialog.getByRole('button', { name: 'Refund' }).click();
    await dialog.getByText(`At most ${formatMoney(full, 'USD')} is left to refund.`).waitFor();
    await amount.fill('12.35');
    await dialog.getByLabel('Reason (optional)').fill('Scratched handle');
    await dialog.getByRole('button', { name: 'Refund' }).click();
    await owner.getByText(`A refund of $12.35 is made on order #${number}: card payments are refunded through the payment provider.`).waitFor();
    const timeline = owner.getByRole('region', { name: 'Timeline' });
    await timeline.getByText('Refunded $12.35: Scratched handle').waitFor();
    await expect.poll(() => owner.locator('.status-row [data-status]').first().getAttribute('data-status')).toBe('PARTIALLY_REFUNDED');
    await checkPage(owner, 'admin-ops-order-refunded');
    // What is left is offered next time.
    await owner.getByRole('button', { name: 'Refund' }).click();
    await expect.poll(() => dialog.getByLabel('Amount').inputValue()).toBe(fromMinor((toMinor(full, 'USD') ?? 0n) - 1235n, 'USD'));
    await owner.keyboard.press('Escape');

    // The dashboard subtracts the refund: net sales, with gross and refunds beside them, and a
    // money scale on the chart whose figures are also a table.
    await adminNav(owner, 'Dashboard');
    await owner.getByTestId('range-summary').getByText(/7 orders, \$[\d,.]+ net sales \(\$[\d,.]+ gross − \$12\.35 refunds/).waitFor();
    expect((await owner.locator('.chart svg text.chart-label').allTextContents()).filter((l) => l.startsWith('$')).length).toBeGreaterThanOrEqual(2);
    await owner.getByText('Show the figures as a table').click();
    await owner.getByRole('columnheader', { name: 'Net sales' }).waitFor();
    // The refund counts on the day it was made (today), not on its order's day.
    await owner.getByRole('row', { name: new RegExp(`^${localDay(0)} .*\\$12\\.35`) }).waitFor();
    await checkPage(owner, 'admin-ops-dashboard-refunds');

    // Members, the store settings and the mail outbox, on the same data.
    await adminNav(owner, 'Members');
    await owner.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    await owner.getByText('cleo@example.com').first().waitFor();
    await checkPage(owner, 'admin-ops-members');
    await owner.getByRole('button', { name: 'Cleo Nwosu', exact: true }).click();
    await owner.getByRole('dialog', { name: 'Cleo Nwosu' }).getByText('cleo@example.com').waitFor();
    await checkPage(owner, 'admin-ops-member-profile', { fullPage: false });
    await owner.keyboard.press('Escape');
    await adminNav(owner, 'Settings');
    await owner.getByLabel('Store name').waitFor();
    await checkPage(owner, 'admin-ops-settings-store');
    const tabs = owner.getByRole('navigation', { name: 'Settings' });
    await tabs.getByRole('link', { name: 'Mail outbox' }).click();
    await owner.getByRole('heading', { name: 'Mail outbox', level: 1 }).waitFor();
    await owner.locator('.loading').first().waitFor({ state: 'detached' });
    const mailRow = owner.getByRole('row', { name: new RegExp(OWNER_EMAIL.replace(/\./g, '\\.')) }).first();
    await mailRow.waitFor();
    await checkPage(owner, 'admin-ops-settings-mail');
    await mailRow.getByRole('button').click();
    await owner.getByRole('dialog').locator('.mail-body').waitFor();
    await checkPage(owner, 'admin-ops-settings-mail-open', { fullPage: false });
    await owner.keyboard.press('Escape');

    // An API key: "Never" until a program uses it, then the date of that use.
    await tabs.getByRole('link', { name: 'API keys' }).click();
    await owner.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await owner.getByLabel('What is it for?').fill('Ops sync');
    await owner.getByRole('button', { name: 'Create key' }).click();
    const secret = (await owner.getByTestId('api-key-secret').textContent()) ?? '';
    const row = owner.getByRole('row', { name: /Ops sync/ });
    await row.getByRole('cell', { name: 'Never' }).waitFor();
    const used = await fetch(`${t.url}/bodega/v1/me`, { headers: { authorization: secret, 'wix-site-id': site.siteId } });
    expect(used.status).toBe(200);
    await owner.reload();
    await ready(owner);
    const year = String(new Date().getFullYear());
    await expect.poll(async () => (await owner.getByRole('row', { name: /Ops sync/ }).locator('td[data-label="Last used"]').textContent()) ?? '').toContain(year);
    await checkPage(owner, 'admin-ops-settings-api-keys');

    // The pages other helpers own, photographed on the same data for the review (axe is theirs).
    for (const [tab, name, heading] of [['Shipping & tax', 'settings-commerce', 'Shipping and tax'], ['Coupons', 'settings-coupons', 'Coupons'], ['Webhooks', 'settings-webhooks', 'Webhooks']] as const) {
      await tabs.getByRole('link', { name: tab }).click();
      await owner.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await owner.locator('.loading').first().waitFor({ state: 'detached' });
      await checkPage(owner, `admin-ops-${name}`, { axe: 'none' });
    }
    await adminNav(owner, 'Products');
    await owner.getByRole('cell', { name: /Linen Camp Shirt/ }).first().waitFor();
    await checkPage(owner, 'admin-ops-products', { axe: 'none' });
    await adminNav(owner, 'Data collections');
    await owner.getByRole('heading', { name: 'Data collections', level: 1 }).waitFor();
    await checkPage(owner, 'admin-ops-data-collections', { axe: 'none' });
    await adminNav(owner, 'Import & export');
    await owner.getByRole('heading', { name: 'Import and export', level: 1 }).waitFor();
    await checkPage(owner, 'admin-ops-import-export', { axe: 'none' });

    expect(errors).toEqual([]);
    await owner.close();
  }, 240_000);
});
