// Fees and a tip on the invoice: a shopper's order through the official @wix/ecom packages (cart →
// checkout with a tip → order, charged), with a taxed handling fee, an untaxed insurance fee and
// shipping; its invoice lists each fee, the fees' tax and the tip as rows of their own, in the
// JSON answer and in the PDF (read back with pdf.js), and those rows add up to the total exactly.
import { describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient, OAuthStrategy } from '@wix/sdk';
import { checkout, currentCart, tips, tipSettings } from '@wix/ecom';
import { useListeningWixApp } from '../../test/sign-in.js';
import { apiKey, createProduct, STORES_APP_ID } from '../../test/commerce.js';
import { pdfText } from '../../test/pdf-text.js';
import type { TestSite } from '../../test/harness.js';
import { summaryRows, type InvoiceDocument } from './model.js';

const listening = useListeningWixApp();
const NEW_YORK = { country: 'US', subdivision: 'US-NY', city: 'New York', addressLine1: '1 Main St', postalCode: '10001' };

interface WireRow { kind: string; name: string; amount: { amount: string; formattedAmount: string }; addsToTotal: boolean }

/** "$1,234.56" or "-$6.00" as minor units. */
function cents(formatted: string): bigint {
  const negative = formatted.startsWith('-');
  const digits = formatted.replace(/[^0-9]/g, '');
  return negative ? -BigInt(digits) : BigInt(digits);
}

/** The shopper's paid order: 2 mugs at $10.50, $4 shipping, 10% tax, the site's fees and a custom tip. */
async function shopperOrder(site: TestSite, settings: Record<string, unknown>): Promise<string> {
  const { t } = listening();
  const merchant = createClient({ modules: { tipSettings }, auth: ApiKeyStrategy({ apiKey: site.apiKey, siteId: site.siteId }) });
  await merchant.tipSettings.updateTipSettings({ allowCustomerTip: true, tipType: tipSettings.TipType.PERCENTAGE, allowCustomAmount: true, presets: [{ value: 10, default: true }] });
  const patched = await t.app.inject({
    method: 'PATCH', url: '/_api/bodega/v1/commerce-settings', headers: apiKey(site),
    payload: { settings: {
      shippingRegions: [{ id: 'us', name: 'US', country: 'US', rules: [{ code: 'std', title: 'Standard', rate: '4', type: 'BY_TOTAL_QUANTITY', operator: 'GTE', threshold: '0' }] }],
      additionalFees: [{ kind: 'HANDLING_FEE', name: 'Handling', amount: '2.50', taxable: true }, { kind: 'INSURANCE', name: 'Insurance', percent: '5', taxable: false }],
      ...settings,
    } },
  });
  expect(patched.statusCode, patched.body).toBe(200);
  const mug = await createProduct(t.app, site, { name: 'Mug', priceData: { price: 10.5 } });

  const shopper = createClient({ modules: { currentCart, checkout, tips }, auth: OAuthStrategy({ clientId: site.clientId }) });
  await shopper.currentCart.addToCurrentCart({ lineItems: [{ catalogReference: { appId: STORES_APP_ID, catalogItemId: mug.id }, quantity: 2 }] });
  const { checkoutId } = await shopper.currentCart.createCheckoutFromCurrentCart({ channelType: checkout.ChannelType.WEB });
  const flow = checkoutId as string;
  await shopper.checkout.updateCheckout(flow, {
    buyerInfo: { email: 'ada@example.com' },
    billingInfo: { address: NEW_YORK, contactDetails: { firstName: 'Ada', lastName: 'Lovelace' } },
    shippingInfo: { shippingDestination: { address: NEW_YORK, contactDetails: { firstName: 'Ada', lastName: 'Lovelace' } } },
  });
  await shopper.tips.updateTipChoice({ tipType: tips.TipType.CUSTOM, value: '3.00' }, { purchaseFlowId: flow });
  const paid = await shopper.checkout.createOrderAndCharge(flow, { paymentToken: 'tok_test_ok' });
  return paid.orderId as string;
}

async function invoiceOf(site: TestSite, orderId: string) {
  const { t } = listening();
  const created = await t.app.inject({ method: 'POST', url: `/bodega/v1/orders/${orderId}/invoices`, headers: apiKey(site) });
  expect(created.statusCode, created.body).toBe(200);
  const invoice = created.json().invoice as { id: string; total: { amount: string; formattedAmount: string }; summary: WireRow[] | null };
  const pdf = await t.app.inject({ method: 'GET', url: `/bodega/v1/invoices/${invoice.id}/pdf`, headers: apiKey(site) });
  expect(pdf.statusCode, pdf.body).toBe(200);
  return { invoice, text: await pdfText(pdf.rawPayload) };
}

/** The PDF's totals block as printed: from "Subtotal" up to "Total", each amount as minor units, "(included)" tax left out. */
function printedRows(text: string): { label: string; amount: bigint }[] {
  const block = text.slice(text.lastIndexOf('Subtotal'), text.indexOf(' Total ', text.lastIndexOf('Subtotal')));
  return [...block.matchAll(/(.+?) (-?\$[\d,]+\.\d\d)\s*/g)].map((m) => ({ label: m[1].trim(), amount: cents(m[2]) }));
}

describe('fees and a tip on the invoice', () => {
  it('are rows of their own in the JSON and the PDF, and the rows add up to the total exactly', async () => {
    const { t } = listening();
    const site = await t.createSite();
    const orderId = await shopperOrder(site, { tax: { pricesIncludeTax: false, taxShipping: false, rates: [{ country: 'US', rate: '10' }] } });
    const { invoice, text } = await invoiceOf(site, orderId);

    // Goods 21.00, shipping 4.00, handling 2.50 (taxed: 0.25), insurance 5% of 21.00 = 1.05, tip 3.00, tax 2.10 + 0.25.
    expect(invoice.total.amount).toBe('33.90');
    expect(invoice.summary?.map((r) => [r.kind, r.name, r.amount.amount, r.addsToTotal])).toEqual([
      ['SUBTOTAL', 'Subtotal', '21.00', true],
      ['SHIPPING', 'Shipping (Standard)', '4.00', true],
      ['FEE', 'Handling', '2.50', true],
      ['FEE', 'Insurance', '1.05', true],
      ['TIP', 'Tip', '3.00', true],
      ['TAX', 'Tax 10%', '2.10', true],
      ['TAX', 'Tax on fees', '0.25', true],
    ]);
    const summed = (invoice.summary ?? []).filter((r) => r.addsToTotal).reduce((sum, r) => sum + cents(r.amount.formattedAmount), 0n);
    expect(summed).toBe(cents(invoice.total.formattedAmount));

    const printed = printedRows(text);
    expect(printed.map((r) => r.label)).toEqual(['Subtotal', 'Shipping (Standard)', 'Handling', 'Insurance', 'Tip', 'Tax 10%', 'Tax on fees']);
    expect(printed.reduce((sum, r) => sum + r.amount, 0n)).toBe(3390n);
    expect(text).toContain('Total $33.90');
    expect(text).toContain('Paid $33.90');
  }, 120_000); // about 15 calls through the official SDK, slow under CI's load

  it('with prices that include tax: the fee and tip rows add up to the total, the tax shown as included', async () => {
    const { t } = listening();
    const site = await t.createSite();
    const orderId = await shopperOrder(site, { tax: { pricesIncludeTax: true, taxShipping: false, rates: [{ country: 'US', rate: '10' }] } });
    const { invoice, text } = await invoiceOf(site, orderId);

    // Goods 21.00 (tax 1.91 inside), shipping 4.00, handling 2.50 (0.23 inside), insurance 1.05, tip 3.00: 31.55.
    expect(invoice.total.amount).toBe('31.55');
    const rows = invoice.summary ?? [];
    expect(rows.filter((r) => !r.addsToTotal).map((r) => [r.kind, r.amount.amount])).toEqual([['TAX', '1.91'], ['TAX', '0.23']]);
    expect(rows.filter((r) => r.addsToTotal).reduce((sum, r) => sum + cents(r.amount.formattedAmount), 0n)).toBe(3155n);
    expect(text).toContain('Tax on fees (included) $0.23');
    expect(printedRows(text).filter((r) => !r.label.endsWith('(included)')).reduce((sum, r) => sum + r.amount, 0n)).toBe(3155n);
  }, 120_000);
});

describe('an invoice issued before fees and tips were listed', () => {
  it('gets one "Other charges" row for what its document left out, so its rows still add up', () => {
    const party = { name: 'Ada', addressLines: [] };
    const doc: InvoiceDocument = {
      orderId: 'o1', orderNumber: 7, currency: 'USD', seller: party, buyer: party, lines: [], discounts: [{ name: 'Coupon SAVE', amount: '200' }],
      shipping: { title: 'Standard', amount: '400' }, taxLines: [{ name: 'Tax 10%', rate: '0.10', taxable: '1900', amount: '190' }],
      totals: { subtotal: '2100', discount: '200', shipping: '400', tax: '190', total: '2840', paid: '0', due: '2840' }, pricesIncludeTax: false,
    };
    const rows = summaryRows(doc);
    expect(rows.map((r) => [r.kind, r.name, r.amount])).toEqual([
      ['SUBTOTAL', 'Subtotal', 2100n], ['DISCOUNT', 'Coupon SAVE', -200n], ['SHIPPING', 'Shipping (Standard)', 400n], ['TAX', 'Tax 10%', 190n], ['OTHER', 'Other charges', 350n],
    ]);
    expect(rows.reduce((sum, r) => sum + r.amount, 0n)).toBe(2840n);
  });
});
