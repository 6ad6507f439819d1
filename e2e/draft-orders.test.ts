/**
 * Draft orders in Chromium: the owner builds a phone order in the back office (a mug in a chosen
 * colour, a custom line, a discount, an address and a shipping option, totals from the server),
 * creates it, makes a payment link and e-mails it; a fresh visitor opens the link, sees the order
 * and pays with the test provider; the back office then shows the order paid. A second test edits
 * a card-paid order (adds a line), sees the new total and the difference before applying, and the
 * balance due after. Checked with axe and photographed at desktop and phone width (e2e/output/).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM, hasChromium } from './chromium.js';
import { apiKey, catalogLine } from '../packages/server/src/test/commerce.js';
import { checkPage, signInToAdmin } from './admin-pages.js';
import { ready, useShop } from './shop.js';

if (!hasChromium) console.warn(`Skipping the draft-order browser tests: ${CHROMIUM} is missing.`);

const PASSWORD = 'Owner-pass-123';

describe.skipIf(!hasChromium)('draft orders in Chromium', () => {
  const shop = useShop();

  async function ownerShop() {
    const email = `owner.${Date.now()}@shop.example`;
    const site = await shop().t.createShop({ name: 'Bodega demo store', ownerEmail: email, ownerPassword: PASSWORD });
    return { site, email };
  }

  /** Waits until no draft call is running (the editor's buttons are enabled again). */
  async function settled(page: Page) {
    await page.getByRole('button', { name: 'Add custom line' }).and(page.locator(':enabled')).waitFor();
  }

  it('a phone order built in the back office is paid by the customer through the payment link', async () => {
    const { site, email } = await ownerShop();
    const page = await shop().chromium.context.newPage();
    await signInToAdmin(page, site.origin, email, PASSWORD, '/admin/orders');
    await page.getByRole('link', { name: 'New order' }).click();
    await page.getByRole('heading', { name: 'New order' }).waitFor();
    await page.getByLabel('Customer e-mail').fill('phone.buyer@example.com');
    await checkPage(page, 'draft-orders-customer');
    await page.getByRole('button', { name: 'Start the order' }).click();
    await page.waitForURL(/\/admin\/orders\/new\?draft=/);

    // A catalog line with a variant.
    await page.getByLabel('Find a product').fill('mug');
    await page.getByLabel('Product', { exact: true }).selectOption({ label: 'Speckled Stoneware Mug' });
    await page.getByLabel('Variant').selectOption({ label: 'Colour: Charcoal' });
    await page.getByLabel('Quantity', { exact: true }).fill('2');
    await page.getByRole('button', { name: 'Add product' }).click();
    const items = page.getByRole('region', { name: 'Items' });
    await items.getByText('Colour: Charcoal').waitFor();
    await settled(page);
    // A custom line and a discount.
    await page.getByLabel('Item name').fill('Gift wrapping');
    await page.getByLabel('Unit price').fill('5.00');
    await page.getByRole('button', { name: 'Add custom line' }).click();
    await items.getByText('Gift wrapping', { exact: true }).waitFor();
    await settled(page);
    await page.getByLabel('Discount value').fill('10');
    await page.getByRole('button', { name: 'Apply discount' }).click();
    await page.getByText('10% off').waitFor();
    await settled(page);
    // The address, then a shipping option the server offers for it.
    await page.getByLabel('First name').fill('Pat');
    await page.getByLabel('Last name').fill('Phone');
    await page.getByLabel('Street and number').fill('1 Main St');
    await page.getByLabel('City').fill('New York');
    await page.getByLabel('Postal code').fill('10001');
    await page.getByLabel('Region (optional)').fill('NY');
    await page.getByRole('button', { name: 'Save address' }).click();
    await page.getByRole('radio', { name: /Standard delivery/ }).check();
    await page.getByText('Shipping (Standard delivery)').waitFor();
    await settled(page);
    // 2 × 18.00 + 5.00 = 41.00, 10% off (4.10), shipping 6.95, New York tax: the server's figures.
    const totals = page.getByRole('region', { name: 'Totals' });
    await totals.getByText('−$4.10').waitFor();
    const total = (await page.getByTestId('draft-total').textContent()) ?? '';
    expect(total).toMatch(/^\$\d+\.\d{2}$/);
    await checkPage(page, 'draft-orders-new');

    await page.getByRole('button', { name: 'Create order' }).click();
    await page.waitForURL(/\/admin\/orders\/[^/?]+\?created=1$/);
    const orderUrl = new URL(page.url());
    await page.getByText(/Order #\d+ is created/).waitFor();
    const number = /Order #(\d+)/.exec((await page.getByRole('heading', { level: 1 }).textContent()) ?? '')?.[1] ?? '';
    await page.locator('.status-row [data-status="NOT_PAID"]').waitFor();

    await page.getByRole('button', { name: 'Create payment link' }).click();
    const linkField = page.getByLabel('Link', { exact: true });
    await expect.poll(() => linkField.inputValue(), { timeout: 20_000 }).toMatch(/\/pay\//);
    const link = await linkField.inputValue();
    expect(new URL(link).origin).toBe(site.origin);
    await page.getByRole('button', { name: 'Send by e-mail' }).click();
    await page.getByText('The payment link was e-mailed to phone.buyer@example.com.').waitFor();
    await checkPage(page, 'draft-orders-link');
    const { mail } = shop();
    await expect.poll(() => mail.messages.filter((m) => m.to.includes('phone.buyer@example.com')).length, { timeout: 20_000 }).toBe(1);
    // The mail carries a link to the same request (signed when it was sent).
    expect(mail.messages.find((m) => m.to.includes('phone.buyer@example.com'))?.text).toContain(`${site.origin}${new URL(link).pathname.split('.')[0]}.`);
    await page.close();

    // The customer: a fresh session opens the link and pays by card.
    await shop().chromium.context.clearCookies();
    const customer = await shop().chromium.context.newPage();
    await customer.goto(link);
    await ready(customer);
    await customer.getByRole('heading', { name: `Pay for order #${number}` }).waitFor();
    expect(await customer.getByTestId('amount-due').textContent()).toBe(total);
    await customer.getByText('Colour: Charcoal').waitFor();
    await customer.getByLabel('Card number').fill('4242 4242 4242 4242');
    await customer.getByLabel('Expiry (MM/YY)').fill('12/30');
    await customer.getByLabel('Security code').fill('123');
    await checkPage(customer, 'draft-orders-pay');
    await customer.getByRole('button', { name: `Pay ${total}` }).click();
    await customer.getByText(`Thank you. Order #${number} is paid`).waitFor();
    await checkPage(customer, 'draft-orders-paid-link');
    // Opened again, the link says it is paid and offers no payment.
    await customer.reload();
    await ready(customer);
    await customer.getByText(`Order #${number} is paid`).waitFor();
    expect(await customer.getByRole('button', { name: /^Pay / }).count()).toBe(0);
    await customer.close();

    // The back office shows the order paid.
    const admin = await shop().chromium.context.newPage();
    await signInToAdmin(admin, site.origin, email, PASSWORD, orderUrl.pathname);
    await admin.locator('.status-row [data-status="PAID"]').waitFor();
    await checkPage(admin, 'draft-orders-admin-paid');
    await admin.close();
  }, 240_000);

  it('an edit adds a line to a card-paid order, shows the difference before applying and the balance due after', async () => {
    const { site, email } = await ownerShop();
    const { app } = shop().t;
    const listed = await app.inject({ method: 'POST', url: '/stores-reader/v1/products/query', headers: apiKey(site), payload: { query: { filter: JSON.stringify({ name: 'Waxed Canvas Tote' }) } } });
    const productId = (listed.json() as { products: { id: string }[] }).products[0].id;
    const visitor = await shop().t.visitorToken(site);
    const created = await app.inject({
      method: 'POST', url: '/ecom/v1/checkouts', headers: { authorization: visitor },
      payload: { lineItems: [catalogLine(productId)], checkoutInfo: { buyerInfo: { email: 'edit.buyer@example.com' }, shippingInfo: { shippingDestination: { address: { country: 'US', subdivision: 'US-NY', city: 'New York', addressLine: '1 Main St', postalCode: '10001' } } } } },
    });
    const checkoutId = created.json().checkout.id as string;
    const paid = await app.inject({ method: 'POST', url: `/ecom/v1/checkouts/${checkoutId}/create-order-and-charge`, headers: { authorization: visitor }, payload: { paymentToken: 'tok_test_ok' } });
    expect(paid.statusCode, paid.body).toBe(200);
    const orderId = paid.json().orderId as string;

    const page = await shop().chromium.context.newPage();
    await signInToAdmin(page, site.origin, email, PASSWORD, `/admin/orders/${orderId}`);
    await page.locator('.status-row [data-status="PAID"]').waitFor();
    await page.getByRole('button', { name: 'Edit order' }).click();
    const dialog = page.getByRole('dialog', { name: /Edit order/ });
    await dialog.getByLabel('Item name').fill('Monogram');
    await dialog.getByLabel('Unit price').fill('10.00');
    await dialog.getByRole('button', { name: 'Add custom line' }).click();
    await dialog.getByRole('region', { name: 'Items' }).getByText('Monogram', { exact: true }).waitFor();
    await expect.poll(async () => (await dialog.getByTestId('draft-difference').textContent()) ?? '', { timeout: 20_000 }).toMatch(/^\+\$10\.\d{2}$/);
    await dialog.evaluate((el) => el.scrollTo(0, 0));
    await checkPage(page, 'draft-orders-edit', { fullPage: false });
    const difference = ((await dialog.getByTestId('draft-difference').textContent()) ?? '').slice(1);
    await dialog.getByRole('button', { name: 'Apply changes' }).click();
    await page.getByText(/is edited: the new total is/).waitFor();
    await page.locator('.status-row [data-status="PARTIALLY_PAID"]').waitFor();
    expect(await page.getByTestId('balance-due').textContent()).toBe(difference);
    await page.getByRole('region', { name: 'Payment link' }).getByRole('button', { name: 'Create payment link' }).waitFor();
    // A note on the timeline.
    await page.getByLabel('Add a note').fill('Customer asked for a monogram by phone.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByText('Comment: Customer asked for a monogram by phone.').waitFor();
    await page.getByText('Order edited').waitFor();
    await checkPage(page, 'draft-orders-edited');
    await page.close();
  }, 180_000);
});
