/**
 * Invoices in Chromium, on the demo store: a member's order (placed through the API for them);
 * the owner creates its invoice on the order's page and downloads the PDF, finds it on the
 * Invoices page; the member sees it with the order in their account and downloads it too. Each
 * page checked with axe and photographed (e2e/output/invoices-*). The invoice is also mailed from
 * the order's page and the mailed link opens the PDF. With net-30 payment terms set in the settings
 * form and the shop's clock moved 31 days on, an unpaid invoice is Overdue and the list's status
 * filter finds it. An order with a handling fee and a tip: its invoice's totals on the order's page
 * list both rows; the owner deletes the invoice (never sent) and issues a new one with the next
 * number, mails it and voids it (e2e/output/invoices-fees-*).
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pdfText } from '../packages/server/src/test/pdf-text.js';
import { hasChromium, CHROMIUM } from './chromium.js';
import { adminNav, checkPage, signInToAdmin, submitSignIn } from './admin-pages.js';
import { ready, registerInBrowser, useShop } from './shop.js';

if (!hasChromium) console.warn(`Skipping the invoice browser tests: ${CHROMIUM} is missing.`);

const OWNER = { email: 'owner@invoices.example', password: 'Owner-pass-123' };
const ADDRESS = { country: 'PT', city: 'Lisboa', postalCode: '1100-001', addressLine: 'Rua Augusta 10' };

/** Clicks the button and answers the text of the PDF the browser saved. */
async function downloadedPdf(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const file = await download.path();
  const bytes = fs.readFileSync(file);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  return { name: download.suggestedFilename(), text: await pdfText(bytes) };
}

const DAY = 86_400_000;

describe.skipIf(!hasChromium)('invoices in Chromium', () => {
  // The shop's clock runs `shift` ahead of the real one: the overdue test moves it past a due date.
  let shift = 0;
  const shop = useShop(() => ({ now: () => new Date(Date.now() + shift) }));

  it('the owner creates and downloads an order\'s invoice and finds it listed; the member downloads it from their account', async () => {
    const { t, chromium, mail } = shop();
    const site = await t.createShop({ name: 'Bodega demo store', ownerEmail: OWNER.email, ownerPassword: OWNER.password });
    const page = await chromium.context.newPage();

    // A member, and an order of theirs placed by the shop (a phone order) with a VAT number.
    const email = `grace.${Date.now()}@example.com`;
    await registerInBrowser(page, site.origin, email);
    const [{ member_id: memberId }] = await t.db.query<{ member_id: string }>('SELECT member_id FROM members WHERE site_id = $1 AND lower(login_email) = $2', [site.siteId, email]);
    const tote = site.content.products.find((p) => p.name === 'Waxed Canvas Tote');
    const headers = { authorization: site.apiKey, 'wix-site-id': site.siteId, 'bodega-buyer': `member:${memberId}` };
    const contact = { firstName: 'Grace', lastName: 'Hopper', vatId: { id: 'PT509999999', type: 'VAT' } };
    const checkout = await t.app.inject({
      method: 'POST', url: '/ecom/v1/checkouts', headers,
      payload: {
        channelType: 'WEB',
        lineItems: [{ quantity: 2, catalogReference: { appId: '215238eb-22a5-4c36-9e7b-e7c08025e04e', catalogItemId: tote?.id } }],
        checkoutInfo: { buyerInfo: { email }, billingInfo: { address: ADDRESS, contactDetails: contact }, shippingInfo: { shippingDestination: { address: ADDRESS, contactDetails: contact } } },
      },
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const checkoutId = checkout.json().checkout.id as string;
    const placed = await t.app.inject({ method: 'POST', url: `/ecom/v1/checkouts/${checkoutId}/create-order`, headers, payload: { id: checkoutId } });
    expect(placed.statusCode, placed.body).toBe(200);
    const orderId = placed.json().orderId as string;
    await chromium.context.clearCookies();

    // 1. The owner issues the invoice on the order's page and downloads it.
    await signInToAdmin(page, site.origin, OWNER.email, OWNER.password, `/admin/orders/${orderId}`);
    const panel = page.getByRole('region', { name: 'Invoices' });
    await panel.getByText('No invoice yet.').waitFor();
    await panel.getByRole('button', { name: 'Create invoice' }).click();
    await panel.getByText('Invoice 1 is issued.').waitFor();
    await panel.getByText('Not sent').waitFor();
    const fromAdmin = await downloadedPdf(page, () => panel.getByRole('button', { name: 'Download PDF' }).click());
    expect(fromAdmin.name).toBe('invoice-1.pdf');
    for (const expected of ['Invoice number: 1', 'Grace Hopper', 'VAT: PT509999999', 'Waxed Canvas Tote', 'Rua Augusta 10']) expect(fromAdmin.text).toContain(expected);
    await page.getByRole('region', { name: 'Timeline' }).getByText('Invoice added').waitFor();
    await checkPage(page, 'invoices-order-panel');

    // Mailed: the form offers the buyer's address; the mail carries a link to the PDF.
    await panel.getByRole('button', { name: 'Send…' }).click();
    await expect.poll(() => panel.getByLabel('Send to').inputValue()).toBe(email);
    const before = mail.count();
    await panel.getByRole('button', { name: 'Send invoice' }).click();
    await panel.getByText(`Invoice 1 is on its way to ${email}.`).waitFor();
    await panel.getByText('Sent', { exact: true }).waitFor();
    const sent = await mail.waitFor(email, (m) => /invoice 1 for order/i.test(m.subject), 20_000, before);
    const link = /https?:\/\/\S+\/bodega\/v1\/invoice-links\/\S+/.exec(sent.text)?.[0] ?? '';
    const opened = await page.request.get(`${t.url}${new URL(link).pathname}`);
    expect([opened.status(), opened.headers()['content-type']]).toEqual([200, 'application/pdf']);
    await page.getByRole('region', { name: 'Timeline' }).getByText('Invoice sent').waitFor();

    // 2. The Invoices page lists it with its order, customer, status and total.
    await adminNav(page, 'Invoices');
    await page.getByRole('heading', { name: 'Invoices', level: 1 }).waitFor();
    const row = page.getByRole('row', { name: /Grace Hopper/ });
    await row.getByRole('link', { name: /^#\d+$/ }).waitFor();
    await row.getByText('Sent', { exact: true }).waitFor();
    // The owner's settings: a prefix and the seller's details for the next invoices.
    const settings = page.getByRole('region', { name: 'Invoice settings' });
    await settings.getByLabel('Number prefix').fill('INV 1');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('Letters, digits and . _ # - only').waitFor();
    await settings.getByLabel('Number prefix').fill('INV-');
    await settings.getByLabel('Business address').fill('Rua Augusta 1\n1100-048 Lisboa');
    await settings.getByLabel('VAT number').fill('PT509999999');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('The invoice settings are saved. New invoices use them.').waitFor();
    const saved = await t.app.inject({ method: 'GET', url: '/bodega/v1/invoice-settings', headers: { authorization: site.apiKey, 'wix-site-id': site.siteId } });
    expect(saved.json().settings).toMatchObject({ prefix: 'INV-', businessAddress: 'Rua Augusta 1\n1100-048 Lisboa', taxId: 'PT509999999', autoOnPaid: false });
    await checkPage(page, 'invoices-list');
    await chromium.context.clearCookies();

    // 3. The member finds it with the order in their account and downloads it.
    await page.goto(`${site.origin}/auth/sign-in?returnTo=${encodeURIComponent(`/account/orders/${orderId}`)}`);
    await ready(page);
    await submitSignIn(page, email, 'a-good-password');
    await page.waitForURL((url) => url.pathname === `/account/orders/${orderId}`);
    const mine = page.getByRole('region', { name: 'Invoices' });
    await mine.getByText(/^Invoice 1/).waitFor();
    const fromAccount = await downloadedPdf(page, () => mine.getByRole('button', { name: 'Download PDF of invoice 1' }).click());
    expect(fromAccount.text).toContain('Grace Hopper');
    await checkPage(page, 'invoices-account-order');
    await page.close();
  }, 240_000);

  it('the owner sets net-30 terms; 31 days on, the unpaid invoice is Overdue in the list and its status filter finds it', async () => {
    const { t, chromium } = shop();
    const owner = { email: `owner.terms.${Date.now()}@invoices.example`, password: OWNER.password };
    const site = await t.createShop({ name: 'Terms store', ownerEmail: owner.email, ownerPassword: owner.password });
    const page = await chromium.context.newPage();
    await signInToAdmin(page, site.origin, owner.email, owner.password, '/admin/invoices');
    const settings = page.getByRole('region', { name: 'Invoice settings' });
    await settings.getByLabel('Payment terms (days)').fill('400');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('At most 365 days').waitFor();
    await settings.getByLabel('Payment terms (days)').fill('30');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await settings.getByText('The invoice settings are saved. New invoices use them.').waitFor();

    // An unpaid order (a phone order for a guest) and its invoice, issued now: due in 30 days.
    const headers = { authorization: site.apiKey, 'wix-site-id': site.siteId };
    const tote = site.content.products.find((p) => p.name === 'Waxed Canvas Tote');
    const checkout = await t.app.inject({
      method: 'POST', url: '/ecom/v1/checkouts', headers,
      payload: { channelType: 'WEB', lineItems: [{ quantity: 1, catalogReference: { appId: '215238eb-22a5-4c36-9e7b-e7c08025e04e', catalogItemId: tote?.id } }],
        checkoutInfo: { buyerInfo: { email: 'late.payer@example.com' }, billingInfo: { address: ADDRESS, contactDetails: { firstName: 'Lena', lastName: 'Late' } }, shippingInfo: { shippingDestination: { address: ADDRESS, contactDetails: { firstName: 'Lena', lastName: 'Late' } } } } },
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const checkoutId = checkout.json().checkout.id as string;
    const placed = await t.app.inject({ method: 'POST', url: `/ecom/v1/checkouts/${checkoutId}/create-order`, headers, payload: { id: checkoutId } });
    const issued = await t.app.inject({ method: 'POST', url: `/bodega/v1/orders/${placed.json().orderId as string}/invoices`, headers });
    expect(issued.statusCode, issued.body).toBe(200);
    const due = new Date(issued.json().invoice.dueDate as string);
    expect(due.getTime() - new Date(issued.json().invoice.issuedDate as string).getTime()).toBe(30 * DAY);

    // 31 days later (sign-ins have run out by then: the owner signs in again).
    shift = 31 * DAY;
    await chromium.context.clearCookies();
    await signInToAdmin(page, site.origin, owner.email, owner.password, '/admin/invoices');
    const row = page.getByRole('row', { name: /Lena Late/ });
    await row.getByText('Overdue', { exact: true }).waitFor();
    await page.getByLabel('Status').selectOption('Overdue');
    await page.waitForURL((url) => url.searchParams.get('status') === 'Overdue');
    await row.getByText('Overdue', { exact: true }).waitFor();
    await checkPage(page, 'invoices-overdue');
    await page.getByLabel('Status').selectOption('Paid');
    await page.getByText('No invoices match.').waitFor();
    await page.close();
    shift = 0;
  }, 180_000);

  it('an invoice lists the order\'s fee and tip; the owner deletes one never sent, issues the next number, mails it and voids it', async () => {
    const { t, chromium } = shop();
    const owner = { email: `owner.fees.${Date.now()}@invoices.example`, password: OWNER.password };
    const site = await t.createShop({ name: 'Fees store', ownerEmail: owner.email, ownerPassword: owner.password });
    const headers = { authorization: site.apiKey, 'wix-site-id': site.siteId };
    const settings = await t.app.inject({
      method: 'PATCH', url: '/_api/bodega/v1/commerce-settings', headers,
      payload: { settings: {
        additionalFees: [{ kind: 'HANDLING_FEE', name: 'Handling', amount: '2.50', taxable: false }],
        tips: { enabled: true, tipType: 'AMOUNT', presets: [{ value: '2', default: true }], allowCustomAmount: true, split: 'EQUAL' },
      } },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const tote = site.content.products.find((p) => p.name === 'Waxed Canvas Tote');
    const contact = { firstName: 'Tia', lastName: 'Tipper' };
    const checkout = await t.app.inject({
      method: 'POST', url: '/ecom/v1/checkouts', headers,
      payload: { channelType: 'WEB', lineItems: [{ quantity: 1, catalogReference: { appId: '215238eb-22a5-4c36-9e7b-e7c08025e04e', catalogItemId: tote?.id } }],
        checkoutInfo: { buyerInfo: { email: 'tia@example.com' }, billingInfo: { address: ADDRESS, contactDetails: contact }, shippingInfo: { shippingDestination: { address: ADDRESS, contactDetails: contact } } } },
    });
    expect(checkout.statusCode, checkout.body).toBe(200);
    const checkoutId = checkout.json().checkout.id as string;
    const tip = await t.app.inject({ method: 'PATCH', url: '/_api/tips-service/v1/tips/choice', headers, payload: { purchaseFlowId: checkoutId, tipChoice: { tipType: 'CUSTOM', value: '3.00' } } });
    expect(tip.statusCode, tip.body).toBe(200);
    const placed = await t.app.inject({ method: 'POST', url: `/ecom/v1/checkouts/${checkoutId}/create-order`, headers, payload: { id: checkoutId } });
    expect(placed.statusCode, placed.body).toBe(200);
    const orderId = placed.json().orderId as string;

    const page = await chromium.context.newPage();
    await signInToAdmin(page, site.origin, owner.email, owner.password, `/admin/orders/${orderId}`);
    const panel = page.getByRole('region', { name: 'Invoices' });
    await panel.getByRole('button', { name: 'Create invoice' }).click();
    await panel.getByText('Invoice 1 is issued.').waitFor();
    const issued = (await t.app.inject({ method: 'GET', url: `/bodega/v1/orders/${orderId}/invoices`, headers })).json().invoices[0];
    const shown = async () => (await panel.locator('dl.invoice-totals > div').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
    const expected = [...issued.summary.map((r: { name: string; amount: { formattedAmount: string } }) => `${r.name} ${r.amount.formattedAmount}`), `Total ${issued.total.formattedAmount}`];
    await expect.poll(shown).toEqual(expected);
    expect(expected.some((row) => /^Handling .*2\.50$/.test(row)) && expected.some((row) => /^Tip .*3\.00$/.test(row))).toBe(true);
    await checkPage(page, 'invoices-fees-panel');

    // Never sent: deleted, with its number kept; the order gets the next one.
    await panel.getByRole('button', { name: 'Delete… invoice 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete invoice 1?' });
    await checkPage(page, 'invoices-delete-dialog', { fullPage: false, axe: 'desktop' });
    await dialog.getByRole('button', { name: 'Delete invoice' }).click();
    await panel.getByText('Invoice 1 is deleted. It keeps its number; the order can have a new invoice.').waitFor();
    await panel.getByText('Deleted', { exact: true }).waitFor();
    await panel.getByRole('button', { name: 'Create invoice' }).click();
    await panel.getByText('Invoice 2 is issued.').waitFor();

    // Sent, then voided.
    await panel.getByRole('button', { name: 'Send…' }).click();
    await panel.getByRole('button', { name: 'Send invoice' }).click();
    await panel.getByText('Invoice 2 is on its way to tia@example.com.').waitFor();
    await panel.getByRole('button', { name: 'Void… invoice 2' }).click();
    await page.getByRole('dialog', { name: 'Void invoice 2?' }).getByRole('button', { name: 'Void invoice' }).click();
    await panel.getByText('Invoice 2 is void. It keeps its number; the order can have a new invoice.').waitFor();
    await page.getByRole('region', { name: 'Timeline' }).getByText('Invoice voided or deleted').first().waitFor();
    const after = (await t.app.inject({ method: 'GET', url: `/bodega/v1/orders/${orderId}/invoices`, headers })).json().invoices;
    expect(after.map((i: { number: number; status: string }) => [i.number, i.status])).toEqual([[1, 'Deleted'], [2, 'Void']]);
    await checkPage(page, 'invoices-fees-closed');
    await page.close();
  }, 240_000);
});
