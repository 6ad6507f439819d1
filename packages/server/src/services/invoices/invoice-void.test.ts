// Voiding and deleting invoices (spec: invoice status Void, Deleted): staff delete an invoice never
// sent (Draft) and void one sent and unpaid (Sent, Overdue); either keeps its row and number, so the
// site's numbers stay without gaps, and the order may then have a new invoice with the next number.
// Audited, on the order's timeline (INVOICE_REMOVED), closed once under concurrent calls, and
// refused to every caller but the site's staff.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/harness.js';
import { backOfficeSite, type BackOfficeSite } from '../../test/backoffice.js';
import { catalogLine, createProduct, NEW_YORK } from '../../test/commerce.js';
import { pdfText } from '../../test/pdf-text.js';

let t: TestApp;
let a: BackOfficeSite;
let mugId: string;

beforeAll(async () => {
  t = await testApp();
  a = await backOfficeSite(t);
  mugId = (await createProduct(t.app, a.site, { name: 'Mug', priceData: { price: 12 } })).id;
});
afterAll(async () => t.close());

type WireInvoice = { id: string; orderId: string; number: number; invoiceNumber: string; status: string };
type Headers = Record<string, string>;

/** An order of the site's member, placed through the checkout. */
async function memberOrder(): Promise<string> {
  const headers = { ...a.headers.apiKey, 'bodega-buyer': `member:${a.memberId}` };
  const created = await t.app.inject({
    method: 'POST', url: '/ecom/v1/checkouts', headers,
    payload: { channelType: 'WEB', lineItems: [catalogLine(mugId, 1)], checkoutInfo: { buyerInfo: { email: 'mia@example.com' }, shippingInfo: { shippingDestination: { address: NEW_YORK } } } },
  });
  expect(created.statusCode, created.body).toBe(200);
  const checkoutId = created.json().checkout.id as string;
  const placed = await t.app.inject({ method: 'POST', url: `/ecom/v1/checkouts/${checkoutId}/create-order`, headers, payload: { id: checkoutId } });
  expect(placed.statusCode, placed.body).toBe(200);
  return placed.json().orderId as string;
}

async function issue(orderId: string): Promise<WireInvoice> {
  const res = await t.app.inject({ method: 'POST', url: `/bodega/v1/orders/${orderId}/invoices`, headers: a.headers.owner });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().invoice as WireInvoice;
}

async function sent(invoice: WireInvoice): Promise<WireInvoice> {
  const res = await t.app.inject({ method: 'POST', url: `/bodega/v1/invoices/${invoice.id}/send`, headers: a.headers.owner, payload: {} });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().invoice as WireInvoice;
}

const voidIt = (id: string, headers: Headers = a.headers.owner) => t.app.inject({ method: 'POST', url: `/bodega/v1/invoices/${id}/void`, headers });
const deleteIt = (id: string, headers: Headers = a.headers.owner) => t.app.inject({ method: 'DELETE', url: `/bodega/v1/invoices/${id}`, headers });
const code = (res: { json: () => { details?: { applicationError?: { code?: string } } } }) => res.json().details?.applicationError?.code;

async function listedIds(query: string): Promise<string[]> {
  const res = await t.app.inject({ method: 'GET', url: `/bodega/v1/invoices?limit=100${query}`, headers: a.headers.contributor });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().invoices.map((i: WireInvoice) => i.id);
}

describe('deleting an invoice never sent', () => {
  it('keeps its number as Deleted, leaves the list and the buyer\'s view, and lets the order have a new one', async () => {
    const orderId = await memberOrder();
    const first = await issue(orderId);
    expect(first.status).toBe('Draft');
    expect((await t.app.inject({ method: 'GET', url: `/bodega/v1/orders/${orderId}/invoices`, headers: a.headers.member })).json().invoices).toHaveLength(1);

    const deleted = await deleteIt(first.id, a.headers.contributor);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().invoice).toMatchObject({ id: first.id, number: first.number, invoiceNumber: first.invoiceNumber, status: 'Deleted' });
    expect(await listedIds('')).not.toContain(first.id);
    expect(await listedIds('&status=Deleted')).toContain(first.id);
    const again = await deleteIt(first.id);
    expect([again.statusCode, code(again)]).toEqual([409, 'INVOICE_NOT_DELETABLE']);
    const mailed = await t.app.inject({ method: 'POST', url: `/bodega/v1/invoices/${first.id}/send`, headers: a.headers.owner, payload: {} });
    expect([mailed.statusCode, code(mailed)]).toEqual([409, 'INVOICE_NOT_SENDABLE']);

    // The buyer never saw it; staff still do, with its number.
    expect((await t.app.inject({ method: 'GET', url: `/bodega/v1/orders/${orderId}/invoices`, headers: a.headers.member })).json().invoices).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: `/bodega/v1/invoices/${first.id}`, headers: a.headers.member })).statusCode).toBe(404);
    const pdf = await t.app.inject({ method: 'GET', url: `/bodega/v1/invoices/${first.id}/pdf`, headers: a.headers.owner });
    expect(await pdfText(pdf.rawPayload)).toContain('DELETED');

    const second = await issue(orderId);
    expect(second.number).toBe(first.number + 1);
    const staffView = (await t.app.inject({ method: 'GET', url: `/bodega/v1/orders/${orderId}/invoices`, headers: a.headers.owner })).json().invoices as WireInvoice[];
    expect(staffView.map((i) => [i.number, i.status])).toEqual([[first.number, 'Deleted'], [second.number, 'Draft']]);

    const order = (await t.app.inject({ method: 'GET', url: `/ecom/v1/orders/${orderId}`, headers: a.headers.apiKey })).json().order;
    expect(order.activities.map((x: { type: string }) => x.type)).toContain('INVOICE_REMOVED');
    const audit = await t.db.query<{ action: string; after: { invoiceId?: string } }>('SELECT action, after FROM audit_log WHERE site_id = $1 AND object_id = $2', [a.site.siteId, orderId]);
    expect(audit.filter((x) => x.action === 'order.invoice_deleted').map((x) => x.after.invoiceId)).toEqual([first.id]);
  });
});

describe('voiding an invoice sent and unpaid', () => {
  it('keeps its number as Void, stamps the PDF, stops the mail, and is closed once when asked three times at once', async () => {
    const orderId = await memberOrder();
    const draft = await issue(orderId);
    const early = await voidIt(draft.id);
    expect([early.statusCode, code(early)], 'a draft is deleted, not voided').toEqual([409, 'INVOICE_NOT_VOIDABLE']);
    const invoice = await sent(draft);
    const wrongWay = await deleteIt(invoice.id);
    expect([wrongWay.statusCode, code(wrongWay)], 'a sent invoice is voided, not deleted').toEqual([409, 'INVOICE_NOT_DELETABLE']);

    const at = await Promise.all([1, 2, 3].map(() => voidIt(invoice.id, a.headers.apiKey)));
    expect(at.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    const done = at.find((r) => r.statusCode === 200)?.json().invoice as WireInvoice;
    expect(done).toMatchObject({ number: invoice.number, status: 'Void' });
    expect(await listedIds('&status=Void')).toContain(invoice.id);
    const audit = await t.db.query<{ action: string }>("SELECT action FROM audit_log WHERE site_id = $1 AND object_id = $2 AND action = 'order.invoice_voided'", [a.site.siteId, orderId]);
    expect(audit).toHaveLength(1);
    const pdf = await t.app.inject({ method: 'GET', url: `/bodega/v1/invoices/${invoice.id}/pdf`, headers: a.headers.owner });
    expect(await pdfText(pdf.rawPayload)).toMatch(new RegExp(`INVOICE VOID Invoice number: ${invoice.invoiceNumber}`));
    const mailed = await t.app.inject({ method: 'POST', url: `/bodega/v1/invoices/${invoice.id}/send`, headers: a.headers.owner, payload: {} });
    expect([mailed.statusCode, code(mailed)]).toEqual([409, 'INVOICE_NOT_SENDABLE']);
    // The buyer keeps seeing a voided invoice (they were sent it), as Void.
    expect((await t.app.inject({ method: 'GET', url: `/bodega/v1/invoices/${invoice.id}`, headers: a.headers.member })).json().invoice.status).toBe('Void');

    const replacement = await issue(orderId);
    expect(replacement.number).toBeGreaterThan(invoice.number);
  });

  it('refuses a paid invoice, and the site\'s numbers stay without gaps', async () => {
    const orderId = await memberOrder();
    const invoice = await sent(await issue(orderId));
    const paid = await t.app.inject({ method: 'POST', url: `/ecom/v1/payments-collector/orders/${orderId}/mark-as-paid`, headers: a.headers.apiKey, payload: {} });
    expect(paid.statusCode, paid.body).toBe(200);
    for (const res of [await voidIt(invoice.id), await deleteIt(invoice.id)]) {
      expect([res.statusCode, code(res)]).toEqual([409, expect.stringMatching(/^INVOICE_NOT_(VOIDABLE|DELETABLE)$/)]);
      expect(res.json().details.applicationError.description).toContain('Paid');
    }
    const all = [...await listedIds(''), ...await listedIds('&status=Deleted')];
    const numbers = (await Promise.all(all.map(async (id) => (await t.app.inject({ method: 'GET', url: `/bodega/v1/invoices/${id}`, headers: a.headers.owner })).json().invoice.number as number))).sort((x, y) => x - y);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
  });
});

describe('mailing and deleting a draft at once', () => {
  it('one wins: a mailed invoice is not deleted, a deleted one is not mailed', async () => {
    for (let round = 0; round < 3; round++) {
      const draft = await issue(await memberOrder());
      const [mailed, deleted] = await Promise.all([
        t.app.inject({ method: 'POST', url: `/bodega/v1/invoices/${draft.id}/send`, headers: a.headers.owner, payload: {} }),
        deleteIt(draft.id),
      ]);
      expect([mailed.statusCode, deleted.statusCode].sort(), `round ${round}`).toEqual([200, 409]);
      const mails = await t.db.query<{ n: number | string }>("SELECT count(*) AS n FROM mail_outbox WHERE site_id = $1 AND kind = 'orders.INVOICE' AND subject LIKE $2", [a.site.siteId, `%invoice ${draft.invoiceNumber} %`]);
      const status = (await t.app.inject({ method: 'GET', url: `/bodega/v1/invoices/${draft.id}`, headers: a.headers.owner })).json().invoice.status;
      expect([status, Number(mails[0].n)]).toEqual(mailed.statusCode === 200 ? ['Sent', 1] : ['Deleted', 0]);
    }
  });
});

describe('who may void or delete an invoice', () => {
  it('the site\'s staff (owner, contributor, API key); never another site, a member, a visitor or no token', async () => {
    // The rightful callers first, each on an invoice of its own.
    for (const who of ['owner', 'contributor', 'apiKey'] as const) {
      const draft = await issue(await memberOrder());
      expect((await deleteIt(draft.id, a.headers[who])).statusCode, `${who} deletes`).toBe(200);
      const mailed = await sent(await issue(await memberOrder()));
      expect((await voidIt(mailed.id, a.headers[who])).statusCode, `${who} voids`).toBe(200);
    }
    const draft = await issue(await memberOrder());
    const mailed = await sent(await issue(await memberOrder()));
    const other = await backOfficeSite(t);
    for (const who of ['owner', 'apiKey'] as const) {
      expect((await deleteIt(draft.id, other.headers[who])).statusCode, `another site's ${who} deletes`).toBe(404);
      expect((await voidIt(mailed.id, other.headers[who])).statusCode, `another site's ${who} voids`).toBe(404);
    }
    for (const [who, status] of [['member', 403], ['visitor', 403], ['anonymous', 401]] as const) {
      expect((await deleteIt(draft.id, a.headers[who])).statusCode, `${who} deletes`).toBe(status);
      expect((await voidIt(mailed.id, a.headers[who])).statusCode, `${who} voids`).toBe(status);
    }
    const still = await t.app.inject({ method: 'GET', url: `/bodega/v1/orders/${draft.orderId}/invoices`, headers: a.headers.owner });
    expect(still.json().invoices.map((i: WireInvoice) => i.status)).toEqual(['Draft']);
    expect((await t.app.inject({ method: 'GET', url: `/bodega/v1/invoices/${mailed.id}`, headers: a.headers.owner })).json().invoice.status).toBe('Sent');
  });
});

describe('an invoice past its due date', () => {
  it('is deleted when it was never sent (it reads Overdue) and voided once sent', async () => {
    // Terms of 0 days: an invoice is due the moment it is issued, so it reads Overdue at once.
    const terms = await t.app.inject({ method: 'PATCH', url: '/bodega/v1/invoice-settings', headers: a.headers.owner, payload: { paymentTermsDays: 0 } });
    expect(terms.statusCode, terms.body).toBe(200);
    try {
      const unsent = await issue(await memberOrder());
      expect(unsent.status).toBe('Overdue');
      expect([(await voidIt(unsent.id)).statusCode]).toEqual([409]);
      const deleted = await deleteIt(unsent.id);
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(deleted.json().invoice.status).toBe('Deleted');
      // The customer never saw it, so it leaves their account.
      const asMember = await t.app.inject({ method: 'GET', url: `/bodega/v1/invoices/${unsent.id}`, headers: a.headers.member });
      expect(asMember.statusCode).toBe(404);

      const mailed = await sent(await issue(await memberOrder()));
      expect(mailed.status).toBe('Overdue');
      expect([(await deleteIt(mailed.id)).statusCode, code(await deleteIt(mailed.id))]).toEqual([409, 'INVOICE_NOT_DELETABLE']);
      const voided = await voidIt(mailed.id);
      expect(voided.statusCode, voided.body).toBe(200);
      expect(voided.json().invoice.status).toBe('Void');
    } finally {
      await t.app.inject({ method: 'PATCH', url: '/bodega/v1/invoice-settings', headers: a.headers.owner, payload: { paymentTermsDays: 30 } });
    }
  });
});
