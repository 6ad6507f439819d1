/**
 * Bodega's invoices (`/bodega/v1/invoices`, `/bodega/v1/orders/{id}/invoices`): the back office
 * issues, lists, downloads, mails, voids and deletes them and sets the number's prefix and the seller's details;
 * a member reads and downloads the invoices of their own orders.
 */
import { enc } from '../core/generated.js';
import type { Transport } from '../core/transport.js';
import type { Invoice, InvoiceSettings } from '../generated/invoices.js';
import { backOfficeCsv } from './back-office.js';

export type { Invoice, InvoiceSettings } from '../generated/invoices.js';
export type InvoiceStatus = Invoice['status'];

export interface InvoicePage {
  invoices: Invoice[];
  total: number;
  limit: number;
  offset: number;
}

export interface ListInvoicesOptions {
  /** Matches the invoice's number, the order's number, the buyer's e-mail or name. */
  q?: string;
  /** Only the invoices in this status now (Overdue: unpaid past the due date). */
  status?: Invoice['status'];
  limit?: number;
  offset?: number;
}

const P = '/bodega/v1';

export function invoices(t: Transport) {
  return {
    /** The site's invoices, newest first (back office). */
    list: (options: ListInvoicesOptions = {}) => {
      const query = new URLSearchParams();
      if (options.q) query.set('q', options.q);
      if (options.status) query.set('status', options.status);
      if (options.limit !== undefined) query.set('limit', String(options.limit));
      if (options.offset !== undefined) query.set('offset', String(options.offset));
      const q = query.toString();
      return t.send<InvoicePage>({ method: 'GET', path: `${P}/invoices${q ? `?${q}` : ''}` });
    },
    /** The order's invoices (a member: only of their own orders). */
    forOrder: async (orderId: string) => (await t.send<{ invoices: Invoice[] }>({ method: 'GET', path: `${P}/orders/${enc(orderId)}/invoices` })).invoices,
    get: async (invoiceId: string) => (await t.send<{ invoice: Invoice }>({ method: 'GET', path: `${P}/invoices/${enc(invoiceId)}` })).invoice,
    /** Issues the order's invoice (one per order). */
    create: async (orderId: string) => (await t.send<{ invoice: Invoice }>({ method: 'POST', path: `${P}/orders/${enc(orderId)}/invoices`, payload: {} })).invoice,
    /** Mails a link to the PDF to the order's e-mail, or the address given. */
    send: async (invoiceId: string, email?: string) =>
      (await t.send<{ invoice: Invoice }>({ method: 'POST', path: `${P}/invoices/${enc(invoiceId)}/send`, payload: email ? { email } : {} })).invoice,
    /** Voids an invoice sent and not paid (Sent, Overdue); it keeps its number, and the order may have a new invoice. */
    void: async (invoiceId: string) => (await t.send<{ invoice: Invoice }>({ method: 'POST', path: `${P}/invoices/${enc(invoiceId)}/void`, payload: {} })).invoice,
    /** Deletes an invoice never sent (Draft); it keeps its number as Deleted, and the order may have a new invoice. */
    delete: async (invoiceId: string) => (await t.send<{ invoice: Invoice }>({ method: 'DELETE', path: `${P}/invoices/${enc(invoiceId)}` })).invoice,
    /** The PDF, as the server's response (read it with `.blob()`). */
    pdf: (invoiceId: string) => backOfficeCsv(t, `/invoices/${enc(invoiceId)}/pdf`),
    settings: async () => (await t.send<{ settings: InvoiceSettings }>({ method: 'GET', path: `${P}/invoice-settings` })).settings,
    updateSettings: async (patch: Partial<InvoiceSettings>) =>
      (await t.send<{ settings: InvoiceSettings }>({ method: 'PATCH', path: `${P}/invoice-settings`, payload: { ...patch } })).settings,
  };
}

export type InvoicesApi = ReturnType<typeof invoices>;
