// Invoices end to end: issued through the official @wix/ecom orderInvoices calls and the back
// office, numbered per site with no gaps under 50 concurrent creations, a PDF whose text (read
// back with pdf.js) carries the store, the buyer's CPF, the lines, discount, shipping, tax and
// totals to the cent, mailed as a link, its status following the order's payment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStrategy, createClient } from '@wix/sdk';
import { orderInvoices, orders } from '@wix/ecom';
import { testApp, type TestApp, type TestSite } from '../../test/harness.js';
import { backOfficeSite, type BackOfficeSite } from '../../test/backoffice.js';
import { listen, redirectWixFetch } from '../../test/wix-fetch.js';
import { apiKey, catalogLine, createProduct, NEW_YORK, placeOrder, type PaymentsCollector } from '../../test/commerce.js';
import { pdfText } from '../../test/pdf-text.js';

let t: TestApp;
let a: BackOfficeSite;
let site: TestSite;
let wixFetch: ReturnType<typeof redirectWixFetch>;
let shirtId: string;

beforeAll(async () => {
  t = await testApp();
  a = await backOfficeSite(t);
  site = a.site;
  await t.app.inject({
    method: 'PATCH', url: '/_api/bodega/v1/commerce-settings', headers: apiKey(site),
    payload: { settings: {
      shippingRegions: [{ id: 'us', name: 'US', country: 'US', rules: [{ code: 'std', title: 'Standard', rate: '4', type: 'BY_TOTAL_QUANTITY', operator: 'GTE', threshold: '0' }] }],
      tax: { pricesIncludeTax: false, taxShipping: false, rates: [{ country: 'US', rate: '10' }] },
    } },
  });
  shirtId = (await createProduct(t.app, site, { name: 'Linen shirt', priceData: { price: 20 }, productOptions: [{ name: 'Size', choices: [{ value: 'M' }] }] })).id;
  wixFetch = redirectWixFetch(await listen(t.app));
});
afterAll(async () => {
  wixFetch.restore();
  await t.close();
});

/** An order of 3 shirts at $20 with 10% off, $4 shipping and 10% tax, billed to a buyer with a CPF; the member's when given. */
async function orderWithTaxId(memberId?: string): Promise<string> {
  const headers = { ...a.headers.apiKey, ...(memberId && { 'bodega-buyer': `member:${memberId}` }) };
  const created = await t.app.inject({
    method: 'POST', url: '/ecom/v1/checkouts', headers,
    payload: {
      channelType: 'WEB',
      lineItems: [catalogLine(shirtId, 3, { options: { Size: 'M' } })],
      merchantDiscounts: [{ percentage: 10 }],
      checkoutInfo: {
        buyerInfo: { email: 'ana@example.com' },
        billingInfo: { address: { ...NEW_YORK, addressLine: '5 Park Ave' }, contactDetails: { firstName: 'Ana', lastName: 'Souza', company: 'Souza Ltda', vatId: { id: '123.456.789-09', type: 'CPF' } } },
        shippingInfo: { shippingDestination: { address: NEW_YORK, contactDetails: { firstName: 'Ana', lastName: 'Souza' } } },
      },
    },
  });
  expect(created.statusCode, created.body).toBe(200);
  const checkoutId = created.json().checkout.id as string;
  const placed = await t.app.inject({ method: 'POST', url: `/ecom/v1/checkouts/${checkoutId}/create-order`, headers, payload: { id: checkoutId } });
  expect(placed.statusCode, placed.body).toBe(200);
  return placed.json().orderId as string;
}

/** The typings of this @wix/ecom version declare only listInvoicesForMultipleOrders; its module exports all four calls. */
interface InvoiceCalls {
  generateInvoice(orderId: string): Promise<{ invoiceId?: string }>;
  listInvoicesForMultipleOrders(orderIds: string[]): Promise<{ invoicesForOrder?: { orderId?: string; invoicesInfo?: { _id?: string; appId?: string }[] }[] }>;
}

function merchant() {
  const client = createClient({ modules: { orderInvoices, orders }, auth: ApiKeyStrategy({ apiKey: site.apiKey, siteId: site.siteId }) });
  return { orders: client.orders, orderInvoices: client.orderInvoices as unknown as InvoiceCalls };
}

async function invoiceOf(orderId: string, headers = a.headers.owner) {
  const res = await t.app.inject({ method: 'GET', url: `/bodega/v1/orders/${orderId}/invoices`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().invoices[0] as { id: string; invoiceNumber: string; number: number; status: string; sentTo: string | null };
}

describe('an invoice through the official orderInvoices calls', () => {
  it('is generated once per order, listed for the order, and written on its timeline', async () => {
    const orderId = await orderWithTaxId();
    const client = merchant();
    const { invoiceId } = await client.orderInvoices.generateInvoice(orderId);
    expect(invoiceId).toEqual(expect.any(String));
    await expect(client.orderInvoices.generateInvoice(orderId)).rejects.toMatchObject({ details: { applicationError: { code: 'INVOICE_ALREADY_EXISTS' } } });
    const listed = await client.orderInvoices.listInvoicesForMultipleOrders([orderId, 'no-such-order']);
    expect(listed.invoicesForOrder).toEqual([{ orderId, invoicesInfo: [{ _id: invoiceId, appId: 'bodega' }] }]);
    const order = await client.orders.getOrder(orderId);
    expect(order.activities?.map((x) => x.type)).toContain('INVOICE_ADDED');
    const audit = await t.db.query<{ action: string }>('SELECT action FROM audit_log WHERE site_id = $1 AND object_id = $2', [site.siteId, orderId]);
    expect(audit.map((x) => x.action)).toContain('order.invoice_created');
  });

  it('generates in bulk with a result per order, and records an app\'s own invoice', async () => {
    const first = await orderWithTaxId();
    const second = await orderWithTaxId();
    const res = await t.app.inject({ method: 'POST', url: '/ecom/v1/bulk/invoices/generate', headers: a.headers.apiKey, payload: { orderIds: [first, 'missing', second] } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.bulkActionMetadata).toEqual({ totalSuccesses: 2, totalFailures: 1, undetailedFailures: 0 });
    expect(body.results.map((r: { itemMetadata: { success: boolean; error?: { code: string } } }) => r.itemMetadata.error?.code ?? r.itemMetadata.success)).toEqual([true, 'ORDER_NOT_FOUND', true]);
    const added = await t.app.inject({ method: 'POST', url: `/ecom/v1/invoices/orders/${first}/add-invoice`, headers: a.headers.apiKey, payload: { invoiceInfo: { id: 'acct-77', appId: 'accounting-app' } } });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().orderInvoices).toEqual([{ id: body.results[0].item.invoiceId, appId: 'bodega' }, { id: 'acct-77', appId: 'accounting-app' }]);
    const pdf = await t.app.inject({ method: 'GET', url: '/bodega/v1/invoices/acct-77/pdf', headers: a.headers.owner });
    expect([pdf.statusCode, pdf.json().details.applicationError.code]).toEqual([409, 'INVOICE_HAS_NO_DOCUMENT']);
  });
});

describe('the invoice PDF', () => {
  it('carries the store, the buyer and their CPF, the lines, discount, shipping, tax and totals to the cent', async () => {
    const settings = await t.app.inject({
      method: 'PATCH', url: '/bodega/v1/invoice-settings', headers: a.headers.owner,
      payload: { prefix: 'INV-', businessName: 'Bodega Linens', businessAddress: '12 Harbour Road\nLisbon 1100-001\nPortugal', taxId: 'PT509999999' },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const orderId = await orderWithTaxId();
    const created = await t.app.inject({ method: 'POST', url: `/bodega/v1/orders/${orderId}/invoices`, headers: a.headers.owner });
    expect(created.statusCode, created.body).toBe(200);
    const invoice = created.json().invoice;
    expect(invoice).toMatchObject({ invoiceNumber: `INV-${invoice.number}`, status: 'Draft', total: { amount: '63.40', formattedAmount: '$63.40' }, customer: 'Ana Souza' });

    const pdf = await t.app.inject({ method: 'GET', url: `/bodega/v1/invoices/${invoice.id}/pdf`, headers: a.headers.contributor });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="invoice-INV-${invoice.number}.pdf"`);
    const text = await pdfText(pdf.rawPayload);
    for (const expected of [
      'Bodega Linens', '12 Harbour Road', 'VAT: PT509999999', `Invoice number: INV-${invoice.number}`,
      'Ana Souza', 'Souza Ltda', '5 Park Ave', 'CPF: 123.456.789-09', 'Linen shirt', 'Size: M',
      'Subtotal $60.00', '-$6.00', 'Shipping (Standard) $4.00', 'Tax 10% $5.40', 'Total $63.40', 'Balance due $63.40',
    ]) expect(text, `the PDF's text has "${expected}"`).toContain(expected);
    // Its rows are the order's own: nothing needed balancing.
    expect(text).not.toContain('Other charges');
    expect(invoice.summary.map((r: { kind: string }) => r.kind)).toEqual(['SUBTOTAL', 'DISCOUNT', 'SHIPPING', 'TAX']);
  });
});

describe('invoice numbers', () => {
  it('are 1..50 with no gap or repeat when 50 invoices are created at once, and one order gets one', async () => {
    const other = await t.createSite();
    const key = apiKey(other);
    const product = await createProduct(t.app, other, { name: 'Mug', priceData: { price: 8 } });
    const visitor = await t.visitorToken(other);
    const orderIds: string[] = [];
    for (let i = 0; i < 50; i++) orderIds.push((await placeOrder(t.app, other, visitor, [catalogLine(product.id)])).orderId);
    const made = await Promise.all(orderIds.map((id) => t.app.inject({ method: 'POST', url: `/bodega/v1/orders/${id}/invoices`, headers: key })));
    expect(made.map((r) => r.statusCode)).toEqual(orderIds.map(() => 200));
    const numbers = made.map((r) => r.json().invoice.number as number).sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));

    const again = await Promise.all(orderIds.slice(0, 5).map((id) => t.app.inject({ method: 'POST', url: `/bodega/v1/orders/${id}/invoices`, headers: key })));
    expect(again.map((r) => r.statusCode)).toEqual([409, 409, 409, 409, 409]);
    const fresh = await placeOrder(t.app, other, visitor, [catalogLine(product.id)]);
    const twice = await Promise.all([1, 2, 3].map(() => t.app.inject({ method: 'POST', url: `/bodega/v1/orders/${fresh.orderId}/invoices`, headers: key })));
    expect(twice.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    expect(twice.find((r) => r.statusCode === 200)?.json().invoice.number).toBe(51);
  });
});

describe('an invoice\'s status and its mail', () => {
  it('is Sent once mailed with a working link, Paid when the order is paid, Void when canceled', async () => {
    const orderId = await orderWithTaxId();
    const created = (await t.app.inject({ method: 'POST', url: `/bodega/v1/orders/${orderId}/invoices`, headers: a.headers.owner })).json().invoice;
    const sent = await t.app.inject({ method: 'POST', url: `/bodega/v1/invoices/${created.id}/send`, headers: a.headers.contributor, payload: {} });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().invoice).toMatchObject({ status: 'Sent', sentTo: 'ana@example.com' });
    const mails = await t.db.query<{ subject: string; text_body: string; kind: string }>(
      "SELECT subject, text_body, kind FROM mail_outbox WHERE site_id = $1 AND kind = 'orders.INVOICE' ORDER BY created_at DESC LIMIT 1", [site.siteId]);
    expect(mails[0].subject).toContain(created.invoiceNumber);
    const link = /https?:\/\/\S+\/bodega\/v1\/invoice-links\/\S+/.exec(mails[0].text_body)?.[0] ?? '';
    const opened = await t.app.inject({ method: 'GET', url: new URL(link).pathname });
    expect([opened.statusCode, opened.headers['content-type']]).toEqual([200, 'application/pdf']);
    expect(await pdfText(opened.rawPayload)).toContain(`Invoice number: ${created.invoiceNumber}`);
    const forged = await t.app.inject({ method: 'GET', url: `${new URL(link).pathname.slice(0, -4)}AAAA` });
    expect([forged.statusCode, forged.json().details.applicationError.code]).toEqual([403, 'INVOICE_LINK_INVALID']);
    expect((await merchant().orders.getOrder(orderId)).activities?.map((x) => x.type)).toContain('INVOICE_SENT');

    const collector = merchant().orders as unknown as PaymentsCollector;
    await collector.paymentCollectionMarkOrderAsPaid(orderId);
    expect((await invoiceOf(orderId)).status).toBe('Paid');
    const canceled = await t.app.inject({ method: 'POST', url: `/ecom/v1/orders/${orderId}/cancel`, headers: a.headers.apiKey, payload: { restockAllItems: false } });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect((await invoiceOf(orderId)).status).toBe('Void');
  });

  it('is issued by itself when an order is paid and the site asks for it', async () => {
    await t.app.inject({ method: 'PATCH', url: '/bodega/v1/invoice-settings', headers: a.headers.owner, payload: { autoOnPaid: true } });
    const orderId = await orderWithTaxId();
    expect((await t.app.inject({ method: 'GET', url: `/bodega/v1/orders/${orderId}/invoices`, headers: a.headers.owner })).json().invoices).toEqual([]);
    await (merchant().orders as unknown as PaymentsCollector).paymentCollectionMarkOrderAsPaid(orderId);
    expect(await invoiceOf(orderId)).toMatchObject({ status: 'Paid', invoiceNumber: expect.stringMatching(/^INV-\d+$/) });
    await t.app.inject({ method: 'PATCH', url: '/bodega/v1/invoice-settings', headers: a.headers.owner, payload: { autoOnPaid: false } });
  });

  it('lists the site\'s invoices newest first, searched by number or buyer, in pages', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/bodega/v1/invoices?limit=2', headers: a.headers.contributor });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json();
    expect(page.invoices).toHaveLength(2);
    expect(page.total).toBeGreaterThan(2);
    expect(page.invoices[0].number).toBeGreaterThan(page.invoices[1].number);
    const found = await t.app.inject({ method: 'GET', url: `/bodega/v1/invoices?q=${encodeURIComponent(page.invoices[1].invoiceNumber)}`, headers: a.headers.owner });
    expect(found.json().invoices.map((i: { id: string }) => i.id)).toContain(page.invoices[1].id);
    const byName = await t.app.inject({ method: 'GET', url: '/bodega/v1/invoices?q=souza', headers: a.headers.owner });
    expect(byName.json().total).toBe(page.total);
    const none = await t.app.inject({ method: 'GET', url: '/bodega/v1/invoices?q=nobody-like-this', headers: a.headers.owner });
    expect(none.json()).toMatchObject({ invoices: [], total: 0 });
  });
});

describe('who may reach invoices', () => {
  type Call = { method: 'GET' | 'POST' | 'PATCH'; url: string; payload?: object };
  const send = (call: Call, headers: Record<string, string>) =>
    t.app.inject({ method: call.method, url: call.url, headers, ...(call.payload ? { payload: call.payload } : {}) });

  it('the back office (owner, contributor, API key) and the order\'s own member; never another site, another member, a visitor or no token', async () => {
    const other = await backOfficeSite(t);
    const orderId = await orderWithTaxId(a.memberId);
    const invoiceId = (await send({ method: 'POST', url: `/bodega/v1/orders/${orderId}/invoices` }, a.headers.owner)).json().invoice.id as string;
    const strangerOrder = await orderWithTaxId();

    // Reading: staff, and the member whose order it is.
    const reads: Call[] = [
      { method: 'GET', url: `/bodega/v1/orders/${orderId}/invoices` },
      { method: 'GET', url: `/bodega/v1/invoices/${invoiceId}` },
      { method: 'GET', url: `/bodega/v1/invoices/${invoiceId}/pdf` },
    ];
    for (const call of reads) {
      for (const who of ['owner', 'contributor', 'apiKey', 'member'] as const) {
        const res = await send(call, a.headers[who]);
        expect(res.statusCode, `${who} ${call.url}: ${res.statusCode}`).toBe(200);
      }
    }
    const listed = await send({ method: 'POST', url: '/ecom/v1/invoices/list-by-ids', payload: { orderIds: [orderId, strangerOrder] } }, a.headers.member);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().invoicesForOrder.map((o: { orderId: string }) => o.orderId)).toEqual([orderId]);
    const strangers = await send({ method: 'GET', url: `/bodega/v1/orders/${strangerOrder}/invoices` }, a.headers.member);
    expect(strangers.statusCode, 'a member reading another buyer\'s order').toBe(404);

    // Changing: staff only.
    const writes: Call[] = [
      { method: 'POST', url: `/bodega/v1/invoices/${invoiceId}/send`, payload: {} },
      { method: 'POST', url: `/ecom/v1/invoices/orders/${strangerOrder}`, payload: {} },
      { method: 'POST', url: '/ecom/v1/bulk/invoices/generate', payload: { orderIds: [strangerOrder] } },
      { method: 'POST', url: `/ecom/v1/invoices/orders/${orderId}/add-invoice`, payload: { invoiceInfo: { id: `app-${orderId}`, appId: 'crm' } } },
    ];
    for (const call of writes) {
      const res = await send(call, a.headers.contributor);
      expect(res.statusCode, `contributor ${call.url}: ${res.body}`).toBe(200);
    }
    const created = await send({ method: 'POST', url: `/bodega/v1/orders/${await orderWithTaxId()}/invoices` }, a.headers.apiKey);
    expect(created.statusCode, created.body).toBe(200);
    const list = await send({ method: 'GET', url: '/bodega/v1/invoices' }, a.headers.contributor);
    expect(list.json().invoices.map((i: { id: string }) => i.id)).toContain(invoiceId);

    const everything: Call[] = [...reads, ...writes, { method: 'POST', url: `/bodega/v1/orders/${strangerOrder}/invoices` }, { method: 'POST', url: '/ecom/v1/invoices/list-by-ids', payload: { orderIds: [orderId] } }];
    for (const call of everything) {
      for (const who of ['owner', 'apiKey'] as const) {
        const res = await send(call, other.headers[who]);
        if (call.url.endsWith('list-by-ids')) expect(res.json().invoicesForOrder, `other site's ${who} ${call.url}`).toEqual([]);
        else if (call.url.endsWith('/generate')) expect(res.json().bulkActionMetadata.totalSuccesses, `other site's ${who} ${call.url}`).toBe(0);
        else expect(res.statusCode, `other site's ${who} ${call.method} ${call.url}: ${res.body}`).toBe(404);
      }
      for (const [who, status] of [['visitor', 403], ['anonymous', 401]] as const) {
        expect((await send(call, a.headers[who])).statusCode, `${who} ${call.method} ${call.url}`).toBe(status);
      }
    }
    for (const call of writes) expect((await send(call, a.headers.member)).statusCode, `member ${call.url}`).toBe(403);
    const theirs = await send({ method: 'GET', url: '/bodega/v1/invoices' }, other.headers.owner);
    expect(theirs.json().invoices).toEqual([]);
    for (const [who, status] of [['member', 403], ['visitor', 403], ['anonymous', 401]] as const) {
      expect((await send({ method: 'GET', url: '/bodega/v1/invoices' }, a.headers[who])).statusCode, `${who} lists invoices`).toBe(status);
    }
  });

  it('the settings: the owner and API key only', async () => {
    for (const who of ['owner', 'apiKey'] as const) {
      expect((await send({ method: 'GET', url: '/bodega/v1/invoice-settings' }, a.headers[who])).statusCode, who).toBe(200);
      expect((await send({ method: 'PATCH', url: '/bodega/v1/invoice-settings', payload: { prefix: 'INV-' } }, a.headers[who])).statusCode, who).toBe(200);
    }
    for (const [who, status] of [['contributor', 403], ['member', 403], ['visitor', 403], ['anonymous', 401]] as const) {
      for (const call of [{ method: 'GET', url: '/bodega/v1/invoice-settings' }, { method: 'PATCH', url: '/bodega/v1/invoice-settings', payload: { prefix: 'X' } }] as Call[]) {
        expect((await send(call, a.headers[who])).statusCode, `${who} ${call.method}`).toBe(status);
      }
    }
    const bad = await send({ method: 'PATCH', url: '/bodega/v1/invoice-settings', payload: { prefix: 'a/b' } }, a.headers.owner);
    expect(bad.statusCode).toBe(400);
    const theirs = (await send({ method: 'GET', url: '/bodega/v1/invoice-settings' }, (await backOfficeSite(t)).headers.owner)).json().settings;
    expect(theirs.prefix).toBe('');
  });
});
