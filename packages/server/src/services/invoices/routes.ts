// Invoice calls: Bodega's own for the back office and the member's account (/bodega/v1/…), the
// mailed link (public: its random key is the credential), and the official @wix/ecom
// orderInvoices calls (generateInvoice, bulkGenerateInvoices, listInvoicesForMultipleOrders,
// addInvoiceToOrder).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { formatAmount, formattedAmount } from '../../platform/money.js';
import type { InvoicesService, InvoiceView } from './service.js';
import { MAX_LIST_LIMIT } from './service.js';
import { oneOf } from '../../platform/wire-schema.js';
import { INVOICE_STATUSES, summaryRows } from './model.js';
import * as W from './wire-schemas.js';

const P = '/bodega/v1';
const WIX = '/ecom/v1';
/** What Bodega's own invoices answer as their app on the official calls. */
export const BODEGA_INVOICES_APP = 'bodega';
const Id = Type.String({ minLength: 1, maxLength: 100 });
const OrderIds = (maxItems: number) => Type.Array(Id, { minItems: 1, maxItems });

const ListQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 100 })),
  status: Type.Optional(oneOf(INVOICE_STATUSES, { description: 'Only the invoices in this status now.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIST_LIMIT })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
});
const SettingsBody = Type.Object({
  // Printed before the number and used in the PDF's file name: letters, digits and . _ # -.
  prefix: Type.Optional(Type.String({ maxLength: 20, pattern: '^[A-Za-z0-9._#-]*$' })),
  autoOnPaid: Type.Optional(Type.Boolean()),
  businessName: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()])),
  businessAddress: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 600 }), Type.Null()])),
  taxId: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 50 }), Type.Null()])),
  paymentTermsDays: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 365 }), Type.Null()])),
}, { additionalProperties: false });
const SendBody = Type.Object({ email: Type.Optional(Type.String({ minLength: 3, maxLength: 254, format: 'email' })) });
const LinkParams = Type.Object({ siteId: Id, invoiceId: Id, key: Type.String({ minLength: 43, maxLength: 43, pattern: '^[A-Za-z0-9_-]+$' }) });

const money = (minor: bigint, currency: string) => ({ amount: formatAmount(minor, currency), formattedAmount: formattedAmount(minor, currency) });

export function toWireInvoice(invoice: InvoiceView) {
  return {
    id: invoice.id,
    orderId: invoice.orderId,
    orderNumber: invoice.orderNumber,
    invoiceNumber: invoice.invoiceNumber,
    number: invoice.number,
    appId: invoice.appId,
    status: invoice.status,
    customer: invoice.customer,
    total: money(invoice.total, invoice.currency),
    issuedDate: invoice.issuedDate.toISOString(),
    dueDate: invoice.dueDate ? invoice.dueDate.toISOString() : null,
    sentDate: invoice.sentDate ? invoice.sentDate.toISOString() : null,
    sentTo: invoice.sentTo,
    hasDocument: invoice.doc !== null,
    summary: invoice.doc ? summaryRows(invoice.doc).map((row) => ({ kind: row.kind, name: row.name, amount: money(row.amount, invoice.currency), addsToTotal: row.addsToTotal })) : null,
  };
}

const wixInfo = (invoice: InvoiceView) => ({ id: invoice.id, appId: invoice.appId ?? BODEGA_INVOICES_APP });

function sendPdf(reply: FastifyReply, file: { fileName: string; bytes: Buffer }, disposition: 'attachment' | 'inline') {
  return reply
    .header('cache-control', 'private, no-store')
    .header('content-disposition', `${disposition}; filename="${file.fileName}"`)
    .header('x-content-type-options', 'nosniff')
    .type('application/pdf')
    .send(file.bytes);
}

export function invoicesRoutes(invoices: InvoicesService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const staff = { access: 'staff' } as const;
    const selfOrStaff = { access: 'self-or-staff' } as const;
    const tags = ['invoices'];

    app.get(`${P}/invoices`, { config: staff, schema: { tags, summary: "The site's invoices, newest first; q matches the number, the order's number, the buyer's e-mail or name", querystring: ListQuery, response: { 200: W.InvoicePage } } }, async (req) => {
      const limit = req.query.limit ?? 25;
      const offset = req.query.offset ?? 0;
      const page = await invoices.list(req.ctx, { ...(req.query.q !== undefined && { q: req.query.q }), ...(req.query.status !== undefined && { status: req.query.status }), limit, offset });
      return { invoices: page.invoices.map(toWireInvoice), total: page.total, limit, offset };
    });

    app.post(`${P}/orders/:orderId/invoices`, { config: staff, schema: { tags, summary: "Issues the order's invoice (one per order, numbered with no gaps)", params: Type.Object({ orderId: Id }), response: { 200: W.InvoiceAnswer } } }, async (req) => ({
      invoice: toWireInvoice(await invoices.create(req.ctx, req.params.orderId)),
    }));

    app.get(`${P}/orders/:orderId/invoices`, { config: selfOrStaff, schema: { tags, summary: "The order's invoices (a member: of their own order only)", params: Type.Object({ orderId: Id }), response: { 200: W.InvoiceList } } }, async (req) => ({
      invoices: (await invoices.forOrder(req.ctx, req.params.orderId)).map(toWireInvoice),
    }));

    app.get(`${P}/invoices/:invoiceId`, { config: selfOrStaff, schema: { tags, summary: 'One invoice', params: Type.Object({ invoiceId: Id }), response: { 200: W.InvoiceAnswer } } }, async (req) => ({
      invoice: toWireInvoice(await invoices.get(req.ctx, req.params.invoiceId)),
    }));

    app.get(`${P}/invoices/:invoiceId/pdf`, { config: selfOrStaff, schema: { tags, summary: 'The invoice as a PDF (a download)', params: Type.Object({ invoiceId: Id }), response: { 200: W.PdfBody } } }, async (req, reply) =>
      sendPdf(reply, await invoices.pdf(req.ctx, req.params.invoiceId), 'attachment'));

    app.post(`${P}/invoices/:invoiceId/send`, { config: staff, schema: { tags, summary: "Mails the invoice (a link to its PDF) to the order's e-mail or the one given", params: Type.Object({ invoiceId: Id }), body: SendBody, response: { 200: W.InvoiceAnswer } } }, async (req) => ({
      invoice: toWireInvoice(await invoices.send(req.ctx, req.params.invoiceId, req.body.email)),
    }));

    app.post(`${P}/invoices/:invoiceId/void`, { config: staff, schema: { tags, summary: 'Voids an invoice sent and not paid (Sent, Overdue); it keeps its number, and the order may have a new invoice', params: Type.Object({ invoiceId: Id }), response: { 200: W.InvoiceAnswer } } }, async (req) => ({
      invoice: toWireInvoice(await invoices.close(req.ctx, req.params.invoiceId, 'void')),
    }));

    app.delete(`${P}/invoices/:invoiceId`, { config: staff, schema: { tags, summary: 'Deletes an invoice never sent (Draft); it keeps its number (status Deleted, left out of the list), and the order may have a new invoice', params: Type.Object({ invoiceId: Id }), response: { 200: W.InvoiceAnswer } } }, async (req) => ({
      invoice: toWireInvoice(await invoices.close(req.ctx, req.params.invoiceId, 'delete')),
    }));

    app.get(`${P}/invoice-settings`, { config: { access: 'owner' }, schema: { tags, summary: "The invoice number's prefix, automatic invoices, the seller's details", response: { 200: W.InvoiceSettingsAnswer } } }, async (req) => ({
      settings: await invoices.settings(req.ctx),
    }));

    app.patch(`${P}/invoice-settings`, { config: { access: 'owner' }, schema: { tags, summary: 'Changes the invoice settings', body: SettingsBody, response: { 200: W.InvoiceSettingsAnswer } } }, async (req) => ({
      settings: await invoices.updateSettings(req.ctx, req.body),
    }));

    // Public: a mailed link is opened without a token; its random key (kept hashed) is the credential.
    app.get(`${P}/invoice-links/:siteId/:invoiceId/:key`, { schema: { tags, summary: 'A mailed invoice link: the PDF', params: LinkParams, response: { 200: W.PdfBody } } }, async (req, reply) =>
      sendPdf(reply, await invoices.openLink(req.params.siteId, req.params.invoiceId, req.params.key), 'inline'));

    app.post(`${WIX}/invoices/list-by-ids`, { config: selfOrStaff, schema: { body: Type.Object({ orderIds: OrderIds(100) }), response: { 200: W.ListByIds } } }, async (req) => ({
      invoicesForOrder: (await invoices.forOrders(req.ctx, req.body.orderIds)).map((o) => ({ orderId: o.orderId, invoicesInfo: o.invoices.map(wixInfo) })),
    }));

    app.post(`${WIX}/invoices/orders/:orderId`, { config: staff, schema: { params: Type.Object({ orderId: Id }), body: Type.Object({ orderId: Type.Optional(Id) }), response: { 200: W.Generated } } }, async (req) => ({
      invoiceId: (await invoices.create(req.ctx, req.params.orderId)).id,
    }));

    app.post(`${WIX}/bulk/invoices/generate`, { config: staff, schema: { body: Type.Object({ orderIds: OrderIds(300) }), response: { 200: W.BulkGenerated } } }, async (req) => {
      const results = await invoices.bulkCreate(req.ctx, req.body.orderIds);
      const successes = results.filter((r) => r.invoice).length;
      return {
        results: results.map((r, originalIndex) => (r.invoice
          ? { itemMetadata: { id: r.invoice.id, originalIndex, success: true }, item: { orderId: r.orderId, invoiceId: r.invoice.id } }
          : { itemMetadata: { originalIndex, success: false, ...(r.error && { error: { code: r.error.code, description: r.error.description, data: r.error.data } }) } })),
        bulkActionMetadata: { totalSuccesses: successes, totalFailures: results.length - successes, undetailedFailures: 0 },
      };
    });

    app.post(`${WIX}/invoices/orders/:orderId/add-invoice`, {
      config: staff,
      schema: {
        params: Type.Object({ orderId: Id }),
        body: Type.Object({ orderId: Type.Optional(Id), invoiceInfo: Type.Object({ id: Id, appId: Type.String({ minLength: 1, maxLength: 100 }) }) }),
        response: { 200: W.OrderInvoices },
      },
    }, async (req) => ({
      orderInvoices: (await invoices.addAppInvoice(req.ctx, req.params.orderId, req.body.invoiceInfo)).map(wixInfo),
    }));
  };
}
