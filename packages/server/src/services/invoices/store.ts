// SQL for invoices and their settings; nothing else.
import type { SiteContext } from '../../platform/context.js';
import type { Invoice, InvoiceDocument, InvoiceStatus, InvoiceView } from './model.js';

interface InvoiceRow {
  invoice_id: string;
  order_id: string;
  number: number | string | null;
  invoice_number: string | null;
  app_id: string | null;
  currency: string;
  total_minor: number | string;
  doc: InvoiceDocument | null;
  issued_at: Date;
  due_at: Date | null;
  sent_at: Date | null;
  sent_to: string | null;
  voided_at: Date | null;
  deleted_at: Date | null;
  [key: string]: unknown;
}

interface ViewRow extends InvoiceRow {
  order_number: number | string;
  status: InvoiceStatus;
  email: string | null;
}

const COLUMNS = 'i.invoice_id, i.order_id, i.number, i.invoice_number, i.app_id, i.currency, i.total_minor, i.doc, i.issued_at, i.due_at, i.sent_at, i.sent_to, i.voided_at, i.deleted_at';
const JOIN_ORDER = 'JOIN orders o ON o.site_id = i.site_id AND o.order_id = i.order_id';
const FROM = `FROM order_invoices i ${JOIN_ORDER}`;

/** The invoices still standing: neither voided nor deleted (SQL, over `i`). */
const STANDING = 'i.voided_at IS NULL AND i.deleted_at IS NULL';

/**
 * The invoice's status (spec), which follows its order and the clock (`now`, a parameter):
 * Deleted or Void when staff deleted or voided it (kept, with its number); Void when the order is
 * canceled; Paid once paid (refunds later do not unpay it: a credit note would);
 * Processing while a payment is pending; past its due date Overdue, or PartialAndOverdue when part
 * is paid; else PartiallyPaid, Sent once mailed, or Draft. The one place it is worked out, so the
 * list's filter and every answer agree.
 */
function statusOf(now: string): string {
  return `CASE
    WHEN i.deleted_at IS NOT NULL THEN 'Deleted'
    WHEN i.voided_at IS NOT NULL THEN 'Void'
    WHEN o.status = 'CANCELED' THEN 'Void'
    WHEN o.payment_status IN ('PAID', 'PARTIALLY_REFUNDED', 'FULLY_REFUNDED') THEN 'Paid'
    WHEN o.payment_status IN ('PENDING', 'PENDING_MERCHANT') THEN 'Processing'
    WHEN o.payment_status = 'PARTIALLY_PAID' THEN CASE WHEN i.due_at < ${now}::timestamptz THEN 'PartialAndOverdue' ELSE 'PartiallyPaid' END
    WHEN i.due_at < ${now}::timestamptz THEN 'Overdue'
    WHEN i.sent_at IS NOT NULL THEN 'Sent'
    ELSE 'Draft' END`;
}

/** Invoices with their order's number, e-mail and the status at `now` (the parameter named). */
const view = (now: string) => `SELECT ${COLUMNS}, o.number AS order_number, o.email, ${statusOf(now)} AS status ${FROM}`;

function toInvoice(row: InvoiceRow): Invoice {
  return {
    id: row.invoice_id,
    orderId: row.order_id,
    number: row.number === null ? null : Number(row.number),
    invoiceNumber: row.invoice_number,
    appId: row.app_id,
    currency: row.currency,
    total: BigInt(row.total_minor),
    doc: row.doc,
    issuedDate: new Date(row.issued_at),
    dueDate: row.due_at ? new Date(row.due_at) : null,
    sentDate: row.sent_at ? new Date(row.sent_at) : null,
    sentTo: row.sent_to,
    voidedDate: row.voided_at ? new Date(row.voided_at) : null,
    deletedDate: row.deleted_at ? new Date(row.deleted_at) : null,
  };
}

function toView(row: ViewRow): InvoiceView {
  const invoice = toInvoice(row);
  const buyer = invoice.doc?.buyer;
  return {
    ...invoice,
    status: row.status,
    orderNumber: Number(row.order_number),
    customer: buyer ? buyer.name : row.email,
  };
}

/** The site's next invoice number; the counter row stays locked until commit, so numbers have no gaps. */
export async function nextInvoiceNumber(ctx: SiteContext): Promise<number> {
  const rows = await ctx.db.query<{ value: number | string }>(
    `INSERT INTO commerce_counters (site_id, name, value) VALUES ($1, 'invoice_number', 1)
     ON CONFLICT (site_id, name) DO UPDATE SET value = commerce_counters.value + 1 RETURNING value`,
    [ctx.siteId],
  );
  return Number(rows[0].value);
}

export async function insertInvoice(ctx: SiteContext, invoice: Invoice): Promise<void> {
  await ctx.db.query(
    `INSERT INTO order_invoices (site_id, invoice_id, order_id, number, invoice_number, app_id, currency, total_minor, doc, issued_at, due_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11)`,
    [ctx.siteId, invoice.id, invoice.orderId, invoice.number, invoice.invoiceNumber, invoice.appId, invoice.currency, invoice.total.toString(),
      invoice.doc === null ? null : JSON.stringify(invoice.doc), invoice.issuedDate, invoice.dueDate],
  );
}

/** The order's numbered invoice still standing (one at most; voided and deleted ones are not counted). */
export async function numberedInvoiceOf(ctx: SiteContext, orderId: string): Promise<Invoice | undefined> {
  const rows = await ctx.db.query<InvoiceRow>(`SELECT ${COLUMNS} FROM order_invoices i WHERE i.site_id = $1 AND i.order_id = $2 AND i.number IS NOT NULL AND ${STANDING}`, [ctx.siteId, orderId]);
  return rows[0] && toInvoice(rows[0]);
}

export async function findInvoice(ctx: SiteContext, invoiceId: string): Promise<InvoiceView | undefined> {
  const rows = await ctx.db.query<ViewRow>(`${view('$3')} WHERE i.site_id = $1 AND i.invoice_id = $2`, [ctx.siteId, invoiceId, ctx.now()]);
  return rows[0] && toView(rows[0]);
}

/** The invoices of these orders, oldest first. */
export async function invoicesOfOrders(ctx: SiteContext, orderIds: readonly string[]): Promise<InvoiceView[]> {
  const rows = await ctx.db.query<ViewRow>(`${view('$3')} WHERE i.site_id = $1 AND i.order_id = ANY($2::text[]) ORDER BY i.issued_at, i.invoice_id`, [ctx.siteId, orderIds, ctx.now()]);
  return rows.map(toView);
}

/**
 * A page of the site's numbered invoices, newest first; `q` matches the printed number, the
 * order's number, or the buyer's e-mail or name (case-insensitive, anywhere in it); `status` keeps
 * the invoices in that status now. Deleted invoices are left out unless `status` asks for them.
 * The count reads only what its filters need: the orders when `q` or `status` does, the status's
 * CASE only when filtering by it.
 */
export async function listInvoices(ctx: SiteContext, input: { q?: string; status?: InvoiceStatus; limit: number; offset: number }): Promise<{ invoices: InvoiceView[]; total: number }> {
  const params: unknown[] = [ctx.siteId];
  const conditions = ['i.site_id = $1', 'i.number IS NOT NULL'];
  if (input.status !== 'Deleted') conditions.push('i.deleted_at IS NULL');
  if (input.status) {
    params.push(ctx.now(), input.status);
    conditions.push(`(${statusOf(`$${params.length - 1}`)}) = $${params.length}`);
  }
  if (input.q) {
    params.push(`%${input.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const p = `$${params.length}`;
    conditions.push(`(i.invoice_number ILIKE ${p} OR o.number::text ILIKE ${p} OR o.email ILIKE ${p} OR i.doc->'buyer'->>'name' ILIKE ${p})`);
  }
  const where = conditions.join(' AND ');
  const counted = await ctx.db.query<{ n: number | string }>(
    `SELECT count(*) AS n FROM order_invoices i ${input.q || input.status ? JOIN_ORDER : ''} WHERE ${where}`, params);
  params.push(ctx.now());
  const rows = await ctx.db.query<ViewRow>(
    `${view(`$${params.length}`)} WHERE ${where} ORDER BY i.issued_at DESC, i.number DESC LIMIT ${input.limit} OFFSET ${input.offset}`, params);
  return { invoices: rows.map(toView), total: Number(counted[0].n) };
}

/**
 * Voids or deletes a standing invoice (under its order's lock, which the caller holds); false when
 * it was already voided or deleted. The row and its number stay.
 */
export async function closeInvoice(ctx: SiteContext, invoiceId: string, how: 'void' | 'delete', at: Date): Promise<boolean> {
  const column = how === 'void' ? 'voided_at' : 'deleted_at';
  const rows = await ctx.db.query<{ invoice_id: string }>(
    `UPDATE order_invoices i SET ${column} = $3 WHERE i.site_id = $1 AND i.invoice_id = $2 AND ${STANDING} RETURNING i.invoice_id`, [ctx.siteId, invoiceId, at]);
  return rows.length === 1;
}

/** Marks the invoice mailed and keeps the mailed link's key (as its hash) and expiry. */
export async function markSent(ctx: SiteContext, invoiceId: string, input: { to: string; at: Date; linkHash: string; linkExpiresAt: Date }): Promise<void> {
  await ctx.db.query(
    'UPDATE order_invoices SET sent_at = $3, sent_to = $4, link_hash = $5, link_expires_at = $6 WHERE site_id = $1 AND invoice_id = $2',
    [ctx.siteId, invoiceId, input.at, input.to, input.linkHash, input.linkExpiresAt],
  );
}

export async function linkOf(ctx: SiteContext, invoiceId: string): Promise<{ hash: string; expiresAt: Date } | undefined> {
  const rows = await ctx.db.query<{ link_hash: string | null; link_expires_at: Date | null }>(
    'SELECT link_hash, link_expires_at FROM order_invoices WHERE site_id = $1 AND invoice_id = $2', [ctx.siteId, invoiceId]);
  const row = rows[0];
  return row?.link_hash && row.link_expires_at ? { hash: row.link_hash, expiresAt: new Date(row.link_expires_at) } : undefined;
}

export interface StoredInvoiceSettings {
  prefix: string;
  autoOnPaid: boolean;
  businessName: string | null;
  businessAddress: string | null;
  taxId: string | null;
  /** Days from issue to the due date; null: invoices have no due date (never Overdue). */
  paymentTermsDays: number | null;
}

export const DEFAULT_INVOICE_SETTINGS: StoredInvoiceSettings = { prefix: '', autoOnPaid: false, businessName: null, businessAddress: null, taxId: null, paymentTermsDays: null };

export async function readSettings(ctx: SiteContext): Promise<StoredInvoiceSettings> {
  const rows = await ctx.db.query<{ prefix: string; auto_on_paid: boolean; business_name: string | null; business_address: string | null; tax_id: string | null; payment_terms_days: number | null }>(
    'SELECT prefix, auto_on_paid, business_name, business_address, tax_id, payment_terms_days FROM invoice_settings WHERE site_id = $1', [ctx.siteId]);
  const row = rows[0];
  if (!row) return DEFAULT_INVOICE_SETTINGS;
  return {
    prefix: row.prefix, autoOnPaid: row.auto_on_paid, businessName: row.business_name, businessAddress: row.business_address, taxId: row.tax_id,
    paymentTermsDays: row.payment_terms_days === null ? null : Number(row.payment_terms_days),
  };
}

/** The settings under their row's lock (the row is made first if the site has none): no lost update. */
export async function lockSettings(ctx: SiteContext): Promise<StoredInvoiceSettings> {
  await ctx.db.query('INSERT INTO invoice_settings (site_id, updated_at) VALUES ($1, $2) ON CONFLICT (site_id) DO NOTHING', [ctx.siteId, ctx.now()]);
  await ctx.db.query('SELECT 1 FROM invoice_settings WHERE site_id = $1 FOR UPDATE', [ctx.siteId]);
  return readSettings(ctx);
}

export async function writeSettings(ctx: SiteContext, settings: StoredInvoiceSettings): Promise<void> {
  await ctx.db.query(
    `INSERT INTO invoice_settings (site_id, prefix, auto_on_paid, business_name, business_address, tax_id, payment_terms_days, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (site_id) DO UPDATE SET prefix = $2, auto_on_paid = $3, business_name = $4, business_address = $5, tax_id = $6, payment_terms_days = $7, updated_at = $8`,
    [ctx.siteId, settings.prefix, settings.autoOnPaid, settings.businessName, settings.businessAddress, settings.taxId, settings.paymentTermsDays, ctx.now()],
  );
}
