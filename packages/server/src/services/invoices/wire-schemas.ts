// The answers of the invoice calls: Bodega's own (/bodega/v1/invoices…, the back office and the
// member's account) and the official @wix/ecom orderInvoices calls (/ecom/v1/invoices…).
import { Type } from 'typebox';
import { oneOf, Timestamp } from '../../platform/wire-schema.js';
import { INVOICE_STATUSES, SUMMARY_KINDS } from './model.js';

const Money = Type.Object({ amount: Type.String({ description: 'A decimal string in the currency: "12.50".' }), formattedAmount: Type.String() });

const SummaryRow = Type.Object({
  kind: oneOf(SUMMARY_KINDS, { description: 'SUBTOTAL, DISCOUNT (a negative amount), SHIPPING, FEE (an additional fee), TIP, TAX, OTHER (what an invoice issued before fees were listed left out).' }),
  name: Type.String({ description: 'As printed: "Shipping (Standard)", "Handling", "Tip", "Tax 10%", "Tax on fees".' }),
  amount: Money,
  addsToTotal: Type.Boolean({ description: 'False for a tax inside the prices; the rows that add to the total sum to it exactly.' }),
}, { title: 'InvoiceSummaryRow' });

export const Invoice = Type.Object({
  id: Type.String(),
  orderId: Type.String(),
  orderNumber: Type.Integer(),
  invoiceNumber: Type.Union([Type.String(), Type.Null()], { description: "The number as printed, with the site's prefix; null on an app's own invoice." }),
  number: Type.Union([Type.Integer(), Type.Null()], { description: "The site's counter: 1, 2, 3… with no gaps." }),
  appId: Type.Union([Type.String(), Type.Null()], { description: 'Set on an invoice an app added (addInvoiceToOrder).' }),
  status: oneOf(INVOICE_STATUSES, { description: 'Deleted or Void once staff deleted or voided it; else follows the order and the clock: Paid, PartiallyPaid, Processing, Void when canceled; past the due date Overdue or PartialAndOverdue; Sent once mailed, else Draft.' }),
  customer: Type.Union([Type.String(), Type.Null()]),
  total: Money,
  issuedDate: Timestamp,
  dueDate: Type.Union([Timestamp, Type.Null()], { description: "The issue date plus the site's payment terms; null when the site has none." }),
  sentDate: Type.Union([Timestamp, Type.Null()]),
  sentTo: Type.Union([Type.String(), Type.Null()]),
  hasDocument: Type.Boolean({ description: 'Whether this shop holds the PDF (false for an app\'s invoice).' }),
  summary: Type.Union([Type.Array(SummaryRow), Type.Null()], { description: "The totals' rows as printed (subtotal, discounts, shipping, each fee, the tip, each tax line), adding up to the total; null on an app's own invoice." }),
}, { title: 'Invoice' });

export const InvoiceAnswer = Type.Object({ invoice: Invoice });
export const InvoiceList = Type.Object({ invoices: Type.Array(Invoice) });
export const InvoicePage = Type.Object({ invoices: Type.Array(Invoice), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() });

export const InvoiceSettings = Type.Object({
  prefix: Type.String(),
  autoOnPaid: Type.Boolean({ description: 'Issue the invoice by itself when an order becomes paid.' }),
  businessName: Type.Union([Type.String(), Type.Null()], { description: "Printed as the seller; null: the site's name." }),
  businessAddress: Type.Union([Type.String(), Type.Null()], { description: 'One line per line of the address.' }),
  taxId: Type.Union([Type.String(), Type.Null()], { description: "The store's VAT number (or other tax id)." }),
  paymentTermsDays: Type.Union([Type.Integer(), Type.Null()], { description: 'Days from issue to the due date (30: net 30); null: invoices have no due date.' }),
}, { title: 'InvoiceSettings' });
export const InvoiceSettingsAnswer = Type.Object({ settings: InvoiceSettings });

/** A PDF (documented for OpenAPI; the bytes are sent as they are). */
export const PdfBody = Type.String({ format: 'binary', description: 'The invoice as a PDF' });

// The official calls' answers.
const WixInvoiceInfo = Type.Object({ id: Type.String(), appId: Type.String() });
export const ListByIds = Type.Object({ invoicesForOrder: Type.Array(Type.Object({ orderId: Type.String(), invoicesInfo: Type.Array(WixInvoiceInfo) })) });
export const Generated = Type.Object({ invoiceId: Type.String() });
export const BulkGenerated = Type.Object({
  results: Type.Array(Type.Object({
    itemMetadata: Type.Object({
      id: Type.Optional(Type.String()),
      originalIndex: Type.Integer(),
      success: Type.Boolean(),
      error: Type.Optional(Type.Object({ code: Type.String(), description: Type.String(), data: Type.Record(Type.String(), Type.Unknown()) })),
    }),
    item: Type.Optional(Type.Object({ orderId: Type.String(), invoiceId: Type.String() })),
  })),
  bulkActionMetadata: Type.Object({ totalSuccesses: Type.Integer(), totalFailures: Type.Integer(), undetailedFailures: Type.Integer() }),
});
export const OrderInvoices = Type.Object({ orderInvoices: Type.Array(WixInvoiceInfo) });
