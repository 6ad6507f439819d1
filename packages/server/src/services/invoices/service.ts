// Invoices: one numbered invoice per order, issued on demand (back office, the official
// generateInvoice calls) or when the order is paid (a site setting), under the order's row lock and
// with its number from the site's counter in the same transaction (no gaps, no repeats); its PDF;
// the mail with a link to it; the site's invoice settings. Staff see every invoice; a member only
// those of their own orders.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { actorOf, type RequestContext } from '../../platform/caller.js';
import { siteContext, withTransaction, type SiteContext } from '../../platform/context.js';
import type { Db } from '../../platform/db.js';
import { ApiError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Mail } from '../../platform/mail.js';
import { formattedAmount } from '../../platform/money.js';
import { recordAudit } from '../../platform/audit.js';
import type { Order, OrdersService } from '../orders/service.js';
import { dueDateOf, invoiceDocument, printedNumber, type Invoice, type InvoiceStatus, type InvoiceView } from './model.js';
import { invoiceMail } from './mails.js';
import { renderInvoicePdf } from './pdf.js';
import * as store from './store.js';

export type { InvoiceView, InvoiceStatus } from './model.js';
export type { StoredInvoiceSettings as InvoiceSettings } from './store.js';

/** Days a mailed invoice link works. */
export const LINK_DAYS = 30;
export const MAX_LIST_LIMIT = 100;

export interface InvoicesDeps {
  db: Db;
  now: () => Date;
  orders: OrdersService;
  /** The store's name and where its pages (and so the mailed link) are. */
  shop: (ctx: SiteContext) => Promise<{ name: string; origin: string }>;
  /** Records a mail in the caller's transaction (sent after the commit). */
  enqueue: (tx: SiteContext, mail: Mail) => Promise<void>;
}

function invoiceNotFound(invoiceId: string): ApiError {
  return ApiError.notFound('INVOICE_NOT_FOUND', `Invoice ${invoiceId} was not found`, { invoiceId });
}

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * Why this invoice cannot be voided (or deleted), in words; undefined when it can. An unpaid one
 * the customer was sent is voided, one never sent is deleted: decided by whether it was sent, not
 * by its status, since a draft past its due date reads Overdue.
 */
function closeRefusal(invoice: InvoiceView, how: 'void' | 'delete'): string | undefined {
  const name = invoice.invoiceNumber ?? invoice.id;
  if (invoice.number === null) return `Invoice ${name} was made by an app (${invoice.appId ?? 'unknown'}); that app closes it`;
  if (invoice.status === 'Void' || invoice.status === 'Deleted') return `Invoice ${name} is already ${invoice.status === 'Void' ? 'void' : 'deleted'}`;
  if (invoice.status !== 'Draft' && invoice.status !== 'Sent' && invoice.status !== 'Overdue') {
    return `Invoice ${name} is ${invoice.status}: only an unpaid invoice is ${how === 'void' ? 'voided' : 'deleted'} (refund the order instead)`;
  }
  if (how === 'void' && invoice.sentDate === null) return `Invoice ${name} was never sent: delete it instead`;
  if (how === 'delete' && invoice.sentDate !== null) return `Invoice ${name} was sent to the customer: void it instead`;
  return undefined;
}

export class InvoicesService {
  constructor(private readonly deps: InvoicesDeps) {}

  /** The order if the caller may see it: staff any of the site's, a member their own (else 404). */
  private async visibleOrder(ctx: RequestContext, orderId: string): Promise<Order> {
    const order = await this.deps.orders.getOrder(ctx, orderId);
    if (actorOf(ctx.caller) === 'MEMBER' && !(order.buyer.kind === 'member' && order.buyer.id === ctx.caller.subjectId)) {
      throw ApiError.notFound('ORDER_NOT_FOUND', `Order ${orderId} was not found`, { orderId });
    }
    return order;
  }

  /** Numbers and records an invoice of the order inside its transaction (which holds the order's lock). */
  private async issue(tx: SiteContext, order: Order): Promise<Invoice> {
    const settings = await store.readSettings(tx);
    const shop = await this.deps.shop(tx);
    const number = await store.nextInvoiceNumber(tx);
    const issuedDate = tx.now();
    const invoice: Invoice = {
      id: newId(),
      orderId: order.id,
      number,
      invoiceNumber: printedNumber(settings.prefix, number),
      appId: null,
      currency: order.currency,
      total: order.totals.total,
      issuedDate,
      dueDate: dueDateOf(issuedDate, settings.paymentTermsDays),
      sentDate: null,
      sentTo: null,
      doc: invoiceDocument(order, { name: settings.businessName ?? shop.name, address: settings.businessAddress, taxId: settings.taxId }),
    };
    await store.insertInvoice(tx, invoice);
    return invoice;
  }

  /** Issues the order's invoice (one per order): the INVOICE_ADDED activity and the audit entry go with it. */
  async create(ctx: RequestContext, orderId: string): Promise<InvoiceView> {
    let invoiceId = '';
    await this.deps.orders.mutate(ctx, orderId, async (order, tx) => {
      if (order.status === 'CANCELED') throw new ApiError(400, 'GENERATE_INVOICE_NOT_SUPPORTED', 'A canceled order is not invoiced', { orderId });
      const existing = await store.numberedInvoiceOf(tx, orderId);
      if (existing) throw new ApiError(409, 'INVOICE_ALREADY_EXISTS', `Order ${orderId} already has invoice ${existing.invoiceNumber}`, { orderId, invoiceId: existing.id });
      const invoice = await this.issue(tx, order);
      invoiceId = invoice.id;
      const at = tx.now();
      return { order: { ...order, activities: [...order.activities, { id: newId(), type: 'INVOICE_ADDED', createdDate: at }], updatedDate: at }, events: ['order.updated'] };
    }, { action: 'order.invoice_created', details: () => ({ invoiceId }) });
    return this.get(ctx, invoiceId);
  }

  /**
   * When the order is paid (the orders' paid hook, in the order's transaction): its invoice, if the
   * site asks for one and the order has none yet. The order is already locked by that transaction.
   */
  async issueWhenPaid(tx: SiteContext, order: Order): Promise<void> {
    const settings = await store.readSettings(tx);
    if (!settings.autoOnPaid || (await store.numberedInvoiceOf(tx, order.id))) return;
    await this.issue(tx, order);
  }

  /** Each order's invoice on its own; one failing does not stop the others. */
  async bulkCreate(ctx: RequestContext, orderIds: readonly string[]): Promise<{ orderId: string; invoice?: InvoiceView; error?: ApiError }[]> {
    const results: { orderId: string; invoice?: InvoiceView; error?: ApiError }[] = [];
    for (const orderId of orderIds) {
      try {
        results.push({ orderId, invoice: await this.create(ctx, orderId) });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        results.push({ orderId, error });
      }
    }
    return results;
  }

  /** An app's own invoice of the order (addInvoiceToOrder): recorded with its id and app, no number. */
  async addAppInvoice(ctx: RequestContext, orderId: string, input: { id: string; appId: string }): Promise<InvoiceView[]> {
    await this.deps.orders.mutate(ctx, orderId, async (order, tx) => {
      if (await store.findInvoice(tx, input.id)) throw new ApiError(409, 'INVOICE_ALREADY_EXISTS', `Invoice ${input.id} already exists`, { invoiceId: input.id });
      await store.insertInvoice(tx, {
        id: input.id, orderId, number: null, invoiceNumber: null, appId: input.appId, currency: order.currency, total: order.totals.total,
        issuedDate: tx.now(), dueDate: null, sentDate: null, sentTo: null, doc: null,
      });
      const at = tx.now();
      return { order: { ...order, activities: [...order.activities, { id: newId(), type: 'INVOICE_ADDED', createdDate: at }], updatedDate: at }, events: ['order.updated'] };
    }, { action: 'order.invoice_added', details: () => ({ invoiceId: input.id, appId: input.appId }) });
    return store.invoicesOfOrders(ctx, [orderId]);
  }

  async get(ctx: RequestContext, invoiceId: string): Promise<InvoiceView> {
    const invoice = await store.findInvoice(ctx, invoiceId);
    // A deleted invoice was never sent: its buyer does not see it.
    if (!invoice || (invoice.status === 'Deleted' && actorOf(ctx.caller) === 'MEMBER')) throw invoiceNotFound(invoiceId);
    try {
      await this.visibleOrder(ctx, invoice.orderId);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) throw invoiceNotFound(invoiceId);
      throw error;
    }
    return invoice;
  }

  async forOrder(ctx: RequestContext, orderId: string): Promise<InvoiceView[]> {
    await this.visibleOrder(ctx, orderId);
    return this.shown(ctx, await store.invoicesOfOrders(ctx, [orderId]));
  }

  /** What the caller sees of these invoices: staff all of them, a member not the deleted ones. */
  private shown(ctx: RequestContext, invoices: InvoiceView[]): InvoiceView[] {
    return actorOf(ctx.caller) === 'MEMBER' ? invoices.filter((i) => i.status !== 'Deleted') : invoices;
  }

  /** The invoices of each order the caller may see (others are left out, as unknown ones are). */
  async forOrders(ctx: RequestContext, orderIds: readonly string[]): Promise<{ orderId: string; invoices: InvoiceView[] }[]> {
    const visible: string[] = [];
    for (const orderId of new Set(orderIds)) {
      try {
        await this.visibleOrder(ctx, orderId);
        visible.push(orderId);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 404) throw error;
      }
    }
    const invoices = visible.length ? this.shown(ctx, await store.invoicesOfOrders(ctx, visible)) : [];
    return visible.map((orderId) => ({ orderId, invoices: invoices.filter((i) => i.orderId === orderId) }));
  }

  async list(ctx: RequestContext, input: { q?: string; status?: InvoiceStatus; limit: number; offset: number }) {
    const q = input.q?.trim();
    return store.listInvoices(ctx, { limit: input.limit, offset: input.offset, ...(q ? { q } : {}), ...(input.status && { status: input.status }) });
  }

  /** The invoice's PDF and the file name to save it under. */
  async pdf(ctx: RequestContext, invoiceId: string): Promise<{ fileName: string; bytes: Buffer }> {
    return this.render(await this.get(ctx, invoiceId));
  }

  private async render(invoice: InvoiceView): Promise<{ fileName: string; bytes: Buffer }> {
    if (!invoice.doc || !invoice.invoiceNumber) {
      throw new ApiError(409, 'INVOICE_HAS_NO_DOCUMENT', `Invoice ${invoice.id} was made by an app (${invoice.appId ?? 'unknown'}); this shop holds no document for it`, { invoiceId: invoice.id });
    }
    const stamp = invoice.status === 'Void' ? 'VOID' : invoice.status === 'Deleted' ? 'DELETED' : undefined;
    const bytes = await renderInvoicePdf({ invoiceNumber: invoice.invoiceNumber, issuedDate: invoice.issuedDate, dueDate: invoice.dueDate, doc: invoice.doc, ...(stamp && { stamp }) });
    return { fileName: `invoice-${invoice.invoiceNumber}.pdf`, bytes };
  }

  /**
   * Mails the invoice to the order's e-mail (or the address given) with a link to its PDF that
   * works for LINK_DAYS without signing in; an INVOICE_SENT activity and an audit entry go with it.
   */
  async send(ctx: RequestContext, invoiceId: string, email?: string): Promise<InvoiceView> {
    const invoice = await this.get(ctx, invoiceId);
    if (!invoice.doc || !invoice.invoiceNumber) throw new ApiError(409, 'INVOICE_HAS_NO_DOCUMENT', `Invoice ${invoiceId} was made by an app; it cannot be mailed from here`, { invoiceId });
    const { doc, invoiceNumber } = invoice;
    await this.deps.orders.mutate(ctx, invoice.orderId, async (order, tx) => {
      // Read again under the order's lock: a void or delete that just committed is seen.
      const now = await store.findInvoice(tx, invoiceId);
      if (now && (now.status === 'Void' || now.status === 'Deleted')) {
        throw new ApiError(409, 'INVOICE_NOT_SENDABLE', `Invoice ${invoiceNumber} is ${now.status === 'Void' ? 'void' : 'deleted'}; it is not mailed`, { invoiceId, status: now.status });
      }
      const to = email ?? order.email;
      if (!to) throw new ApiError(400, 'MISSING_CONTACT_EMAIL', `Order ${order.id} has no e-mail address; give one`, { orderId: order.id });
      const key = randomBytes(32).toString('base64url');
      const at = tx.now();
      const expiresAt = new Date(at.getTime() + LINK_DAYS * 86_400_000);
      await store.markSent(tx, invoiceId, { to, at, linkHash: hashKey(key), linkExpiresAt: expiresAt });
      const shop = await this.deps.shop(tx);
      const url = `${shop.origin}/bodega/v1/invoice-links/${encodeURIComponent(tx.siteId)}/${encodeURIComponent(invoiceId)}/${key}`;
      await this.deps.enqueue(tx, invoiceMail(tx.siteId, {
        to, shopName: doc.seller.name, invoiceNumber, orderNumber: doc.orderNumber, total: formattedAmount(invoice.total, invoice.currency), url, expiresAt,
      }));
      return { order: { ...order, activities: [...order.activities, { id: newId(), type: 'INVOICE_SENT', createdDate: at }], updatedDate: at }, events: ['order.updated'] };
    }, { action: 'order.invoice_sent', details: () => ({ invoiceId, invoiceNumber }) });
    return this.get(ctx, invoiceId);
  }

  /**
   * Voids an invoice the customer was sent and has not paid (Sent, Overdue), or deletes one never
   * sent (Draft): under the order's lock, so two at once close it once. The invoice keeps its row
   * and number (the site's numbers keep no gap), reads Void or Deleted from then on, is no longer
   * mailed, and the order may have a new invoice. An INVOICE_REMOVED activity and an audit entry
   * (order.invoice_voided / order.invoice_deleted) go with it.
   */
  async close(ctx: RequestContext, invoiceId: string, how: 'void' | 'delete'): Promise<InvoiceView> {
    const { orderId } = await this.get(ctx, invoiceId);
    let invoiceNumber: string | null = null;
    await this.deps.orders.mutate(ctx, orderId, async (order, tx) => {
      const invoice = await store.findInvoice(tx, invoiceId);
      if (!invoice) throw invoiceNotFound(invoiceId);
      invoiceNumber = invoice.invoiceNumber;
      const refusal = closeRefusal(invoice, how);
      if (refusal) throw new ApiError(409, how === 'void' ? 'INVOICE_NOT_VOIDABLE' : 'INVOICE_NOT_DELETABLE', refusal, { invoiceId, status: invoice.status });
      const at = tx.now();
      if (!(await store.closeInvoice(tx, invoiceId, how, at))) throw new ApiError(409, 'INVOICE_NOT_VOIDABLE', `Invoice ${invoice.invoiceNumber ?? invoiceId} is already closed`, { invoiceId });
      return { order: { ...order, activities: [...order.activities, { id: newId(), type: 'INVOICE_REMOVED', createdDate: at }], updatedDate: at }, events: ['order.updated'] };
    }, { action: how === 'void' ? 'order.invoice_voided' : 'order.invoice_deleted', details: () => ({ invoiceId, invoiceNumber }) });
    return this.get(ctx, invoiceId);
  }

  /** A mailed link: the PDF, while the link's key is the last one mailed and has not expired. */
  async openLink(siteId: string, invoiceId: string, key: string): Promise<{ fileName: string; bytes: Buffer }> {
    const ctx = siteContext(this.deps.db, siteId, this.deps.now);
    const invalid = new ApiError(403, 'INVOICE_LINK_INVALID', 'This invoice link is not valid');
    const link = await store.linkOf(ctx, invoiceId).catch(() => undefined);
    if (!link) throw invalid;
    const given = Buffer.from(hashKey(key), 'hex');
    const wanted = Buffer.from(link.hash, 'hex');
    if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) throw invalid;
    if (link.expiresAt <= ctx.now()) throw new ApiError(410, 'INVOICE_LINK_EXPIRED', 'This invoice link has expired; the shop can send it again', { expirationDate: link.expiresAt.toISOString() });
    const invoice = await store.findInvoice(ctx, invoiceId);
    if (!invoice) throw invalid;
    return this.render(invoice);
  }

  async settings(ctx: SiteContext): Promise<store.StoredInvoiceSettings> {
    return store.readSettings(ctx);
  }

  async updateSettings(ctx: RequestContext, patch: Partial<store.StoredInvoiceSettings>): Promise<store.StoredInvoiceSettings> {
    return withTransaction(ctx, async (tx) => {
      const before = await store.lockSettings(tx);
      const next = { ...before, ...patch };
      await store.writeSettings(tx, next);
      await recordAudit(tx, { action: 'invoices.settings_updated', objectType: 'site', objectId: tx.siteId, before: { ...before }, after: { ...next } });
      return next;
    });
  }
}
