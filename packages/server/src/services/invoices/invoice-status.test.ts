// Invoice statuses with a due date (issue 31): the site's payment terms (net 30) give each invoice
// a due date when it is issued; the status is read from the order's payments and the clock (injected
// here and moved 31 days on): an unpaid invoice past it is Overdue, a partly paid one
// PartialAndOverdue; paid ones stay Paid, a canceled order's Void, and an invoice issued without
// terms is never overdue. The back office's list filters by status; the PDF prints the due date.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { backOfficeSite, type BackOfficeSite } from '../../test/backoffice.js';
import { catalogLine, createProduct, placeOrder } from '../../test/commerce.js';
import { pdfText } from '../../test/pdf-text.js';

const DAY = 86_400_000;
let clock = new Date('2026-01-10T10:00:00Z');
let t: TestApp;
let a: BackOfficeSite;
let site: TestSite;
let mugId: string;

beforeAll(async () => {
  t = await testApp({ now: () => clock });
  a = await backOfficeSite(t);
  site = a.site;
  mugId = (await createProduct(t.app, site, { name: 'Mug', priceData: { price: 25 } })).id;
});
afterAll(async () => t.close());

type WireInvoice = { id: string; orderId: string; status: string; dueDate: string | null; invoiceNumber: string };

async function orderWithInvoice(): Promise<{ orderId: string; invoice: WireInvoice }> {
  const { orderId } = await placeOrder(t.app, site, await t.visitorToken(site), [catalogLine(mugId, 2)]);
  const res = await t.app.inject({ method: 'POST', url: `/bodega/v1/orders/${orderId}/invoices`, headers: a.headers.owner });
  expect(res.statusCode, res.body).toBe(200);
  return { orderId, invoice: res.json().invoice as WireInvoice };
}

async function statusOf(invoiceId: string): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: `/bodega/v1/invoices/${invoiceId}`, headers: a.headers.apiKey });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().invoice.status as string;
}

async function listed(status: string): Promise<{ ids: string[]; total: number }> {
  const res = await t.app.inject({ method: 'GET', url: `/bodega/v1/invoices?status=${status}&limit=100`, headers: a.headers.apiKey });
  expect(res.statusCode, res.body).toBe(200);
  return { ids: res.json().invoices.map((i: WireInvoice) => i.id).sort(), total: res.json().total as number };
}

describe('an invoice\'s due date and status', () => {
  it('is Overdue or PartialAndOverdue past the due date of the site\'s terms, and the list filters by status', async () => {
    const noTerms = await orderWithInvoice();
    expect(noTerms.invoice).toMatchObject({ status: 'Draft', dueDate: null });

    const terms = await t.app.inject({ method: 'PATCH', url: '/bodega/v1/invoice-settings', headers: a.headers.owner, payload: { paymentTermsDays: 30 } });
    expect([terms.statusCode, terms.json().settings.paymentTermsDays]).toEqual([200, 30]);
    const unpaid = await orderWithInvoice();
    expect(unpaid.invoice).toMatchObject({ status: 'Draft', dueDate: '2026-02-09T10:00:00.000Z' });
    const part = await orderWithInvoice();
    const paidPart = await t.app.inject({
      method: 'POST', url: `/ecom/v1/payments-collector/orders/${part.orderId}/manual-payment`, headers: a.headers.apiKey,
      payload: { amount: { amount: '10.00' }, userDefinedPaymentMethodName: { predefined: 'CASH' } },
    });
    expect(paidPart.statusCode, paidPart.body).toBe(200);
    const sent = await orderWithInvoice();
    expect((await t.app.inject({ method: 'POST', url: `/bodega/v1/invoices/${sent.invoice.id}/send`, headers: a.headers.owner, payload: { email: 'buyer@example.com' } })).statusCode).toBe(200);
    const paid = await orderWithInvoice();
    expect((await t.app.inject({ method: 'POST', url: `/ecom/v1/payments-collector/orders/${paid.orderId}/mark-as-paid`, headers: a.headers.apiKey, payload: {} })).statusCode).toBe(200);
    const canceled = await orderWithInvoice();
    expect((await t.app.inject({ method: 'POST', url: `/ecom/v1/orders/${canceled.orderId}/cancel`, headers: a.headers.apiKey, payload: { restockAllItems: false } })).statusCode).toBe(200);

    const all = [noTerms, unpaid, part, sent, paid, canceled].map((o) => o.invoice.id);
    expect(await Promise.all(all.map(statusOf))).toEqual(['Draft', 'Draft', 'PartiallyPaid', 'Sent', 'Paid', 'Void']);
    // On the due date itself it is not late yet.
    clock = new Date('2026-02-09T10:00:00Z');
    expect(await Promise.all(all.map(statusOf))).toEqual(['Draft', 'Draft', 'PartiallyPaid', 'Sent', 'Paid', 'Void']);

    // (From here the staff's sign-in tokens have expired with the clock: the API key reads on.)
    clock = new Date(clock.getTime() + DAY);
    expect(await Promise.all(all.map(statusOf))).toEqual(['Draft', 'Overdue', 'PartialAndOverdue', 'Overdue', 'Paid', 'Void']);
    expect(await listed('Overdue')).toEqual({ ids: [unpaid.invoice.id, sent.invoice.id].sort(), total: 2 });
    expect(await listed('PartialAndOverdue')).toEqual({ ids: [part.invoice.id], total: 1 });
    expect(await listed('Draft')).toEqual({ ids: [noTerms.invoice.id], total: 1 });
    expect((await listed('PartiallyPaid')).total).toBe(0);
    // The order's own invoices answer the same status.
    const ofOrder = await t.app.inject({ method: 'GET', url: `/bodega/v1/orders/${part.orderId}/invoices`, headers: a.headers.apiKey });
    expect(ofOrder.json().invoices[0]).toMatchObject({ status: 'PartialAndOverdue', dueDate: '2026-02-09T10:00:00.000Z' });

    // Paying the rest makes it Paid, late or not.
    const rest = await t.app.inject({
      method: 'POST', url: `/ecom/v1/payments-collector/orders/${part.orderId}/manual-payment`, headers: a.headers.apiKey,
      payload: { amount: { amount: '40.00' }, userDefinedPaymentMethodName: { predefined: 'CASH' } },
    });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(await statusOf(part.invoice.id)).toBe('Paid');

    const pdf = await t.app.inject({ method: 'GET', url: `/bodega/v1/invoices/${unpaid.invoice.id}/pdf`, headers: a.headers.apiKey });
    expect(await pdfText(pdf.rawPayload)).toContain('Due date: 2026-02-09');
    expect(await pdfText((await t.app.inject({ method: 'GET', url: `/bodega/v1/invoices/${noTerms.invoice.id}/pdf`, headers: a.headers.apiKey })).rawPayload)).not.toContain('Due date');
  });

  it('refuses an unknown status filter and terms out of range, in the error shape', async () => {
    const bad = await t.app.inject({ method: 'GET', url: '/bodega/v1/invoices?status=Late', headers: a.headers.apiKey });
    expect([bad.statusCode, bad.json().details.validationError.fieldViolations[0].field]).toEqual([400, 'status']);
    for (const paymentTermsDays of [-1, 366, 1.5, '30']) {
      const res = await t.app.inject({ method: 'PATCH', url: '/bodega/v1/invoice-settings', headers: a.headers.apiKey, payload: { paymentTermsDays } });
      expect(res.statusCode, `${String(paymentTermsDays)}: ${res.body}`).toBe(400);
    }
    const off = await t.app.inject({ method: 'PATCH', url: '/bodega/v1/invoice-settings', headers: a.headers.apiKey, payload: { paymentTermsDays: null } });
    expect(off.json().settings.paymentTermsDays).toBeNull();
  });
});
