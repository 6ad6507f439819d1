/**
 * The back office's own calls (Bodega's `/bodega/v1`): who is signed in, the dashboard, the
 * command palette's search, API keys, the mail outbox, CSV exports and import jobs. It owns only
 * the import-job tables; everything else it reads through the owning services' service.ts.
 */
import type { RequestContext } from '../../platform/caller.js';
import { ApiError } from '../../platform/errors.js';
import { recordAudit } from '../../platform/audit.js';
import { withTransaction } from '../../platform/context.js';
import type { Mailer, MailStatus, StoredMail } from '../../platform/mail.js';
import { divideHalfEven, formatAmount } from '../../platform/money.js';
import { catalogBackOffice, type CatalogService } from '../catalog/service.js';
import { membersBackOffice } from '../members/service.js';
import { findOrder, ordersBackOffice, refundableOf, type NonRefundableReason, type Order, type OrderExportFilters } from '../orders/service.js';
import type { ApiKeyInfo, SitesService } from '../sites/service.js';
import { adjustChange, setChange, type BulkAdjust, type BulkItemResult, type BulkSet } from './bulk-products.js';
import { addDays, dashboardRange, daysBetween } from './dates.js';
import { membersCsv, ordersCsv, productsCsv } from './exports.js';
import { failuresCsv } from '../../platform/csv-cells.js';
import type { ImportJobs } from './imports.js';

export { ImportJobs } from './imports.js';
export type { ImportJob } from './store.js';
import type { ImportFormat, ImportJob, ImportTarget } from './store.js';

export type BackOfficeRole = 'OWNER' | 'CONTRIBUTOR' | 'APP';

export interface Me {
  memberId?: string;
  email?: string;
  role: BackOfficeRole;
  site: { siteId: string; name: string; currency: string };
}

/** What the back office needs from members; wired in app.ts. */
export interface MemberLookup {
  loginEmail(ctx: RequestContext, memberId: string): Promise<string | undefined>;
}

export interface BackOfficeDeps {
  sites: SitesService;
  mail: Mailer;
  members: MemberLookup;
  catalog: CatalogService;
  imports: ImportJobs;
}

export const LOW_STOCK_THRESHOLD = 5;
const RECENT_ORDERS = 5;
const LOW_STOCK_ROWS = 10;

/**
 * Sales figures as a merchant reads them: `revenue` is gross sales (the totals of the orders placed
 * in the period), `refunds` the refunds made in the period (on the refund's day, as merchants and
 * Shopify count them, whenever the order was placed), `net` the difference, which may be below
 * zero. Decimal strings in the site's currency.
 */
export interface Sales { orders: number; revenue: string; refunds: string; net: string }

export interface Dashboard {
  currency: string;
  /** The range asked for (days in `timeZone`), with its totals. */
  range: { from: string; to: string; timeZone: string } & Sales;
  days: ({ date: string } & Sales)[];
  today: Sales;
  thisMonth: Sales;
  /** Gross sales over the range ÷ its orders. */
  averageOrderValue: string;
  unpaidCount: number;
  unfulfilledCount: number;
  recentOrders: Order[];
  lowStock: catalogBackOffice.LowStock[];
}

export interface SearchResults {
  products: { id: string; name: string }[];
  orders: Order[];
  members: { id: string; name?: string; email: string }[];
}

/** An order's payments with what is left to refund of each (minor units), for a partial refund. */
export interface OrderPayments {
  currency: string;
  /** `refundable` is what trigger-refund would accept: 0, with `reason`, where the server refuses a refund. */
  payments: { id: string; method: string; methodName?: string; amount: bigint; refunded: bigint; refundable: bigint; reason?: NonRefundableReason; createdDate: Date }[];
  refundable: bigint;
}

export interface MailPage {
  mails: StoredMail[];
  nextCursor?: string;
}

export function roleOf(ctx: RequestContext): BackOfficeRole {
  if (ctx.caller.kind === 'APP') return 'APP';
  if (ctx.caller.kind === 'WIX_USER' && (ctx.caller.memberRole === 'OWNER' || ctx.caller.memberRole === 'CONTRIBUTOR')) return ctx.caller.memberRole;
  throw ApiError.forbidden('The back office is for the site owner, its contributors and API keys');
}

/** API keys, roles and the like: the owner and API keys only, never a contributor. */
export function requireOwner(ctx: RequestContext): void {
  if (roleOf(ctx) === 'CONTRIBUTOR') throw ApiError.forbidden('Only the site owner may manage API keys');
}

/**
 * Sign-in mail (activation, verification code, password reset) carries a one-time secret: a
 * contributor who could read it could reset the owner's password, so only the owner opens it.
 */
export function holdsSecret(mail: Pick<StoredMail, 'kind'>): boolean {
  return mail.kind.startsWith('identity.');
}

function encodeCursor(mail: StoredMail): string {
  return Buffer.from(JSON.stringify([mail.createdDate.toISOString(), mail.mailId])).toString('base64url');
}

function decodeCursor(cursor: string): { createdDate: Date; mailId: string } {
  try {
    const [date, mailId] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    const createdDate = new Date(String(date));
    if (typeof mailId === 'string' && !Number.isNaN(createdDate.getTime())) return { createdDate, mailId };
  } catch {
    // fall through to the validation error
  }
  throw ApiError.validation([{ field: 'cursor', rule: 'FORMAT', description: 'not a cursor this call gave' }]);
}

/** An export is a GET stream: its entry is written (on its own) before the first byte goes out. */
async function auditExport(ctx: RequestContext, name: 'products' | 'orders' | 'members', filters: Record<string, unknown> = {}): Promise<void> {
  const after = Object.fromEntries(Object.entries(filters).flatMap(([k, v]) => (v === undefined ? [] : [[k, v instanceof Date ? v.toISOString() : v]])));
  await recordAudit(ctx, { action: `export.${name}`, objectType: 'export', objectId: `${name}.csv`, ...(Object.keys(after).length && { after }) });
}

export class BackOfficeService {
  constructor(private readonly deps: BackOfficeDeps) {}

  async me(ctx: RequestContext): Promise<Me> {
    const role = roleOf(ctx);
    const site = await this.deps.sites.activeSite(ctx);
    const base = { role, site: { siteId: site.siteId, name: site.name, currency: site.settings.currency } };
    if (role === 'APP') return base;
    const email = await this.deps.members.loginEmail(ctx, ctx.caller.subjectId);
    return { memberId: ctx.caller.subjectId, ...(email ? { email } : {}), ...base };
  }

  async listApiKeys(ctx: RequestContext): Promise<ApiKeyInfo[]> {
    requireOwner(ctx);
    return this.deps.sites.listApiKeys(ctx);
  }

  async createApiKey(ctx: RequestContext, name: string): Promise<{ apiKey: ApiKeyInfo; key: string }> {
    requireOwner(ctx);
    const trimmed = name.trim();
    if (!trimmed) throw ApiError.validation([{ field: 'name', rule: 'REQUIRED_FIELD', description: 'a key needs a name' }]);
    return withTransaction(ctx, async (tx) => {
      const created = await this.deps.sites.createApiKey(tx, trimmed);
      await recordAudit(tx, { action: 'api_key.created', objectType: 'api_key', objectId: created.apiKey.id, after: { name: created.apiKey.name, prefix: created.apiKey.prefix } });
      return created;
    });
  }

  async revokeApiKey(ctx: RequestContext, keyId: string): Promise<void> {
    requireOwner(ctx);
    await withTransaction(ctx, async (tx) => {
      await this.deps.sites.revokeApiKey(tx, keyId);
      await recordAudit(tx, { action: 'api_key.revoked', objectType: 'api_key', objectId: keyId });
    });
  }

  async listMails(ctx: RequestContext, options: { limit: number; cursor?: string; status?: MailStatus }): Promise<MailPage> {
    roleOf(ctx);
    const after = options.cursor ? decodeCursor(options.cursor) : undefined;
    const rows = await this.deps.mail.pageForSite(ctx.siteId, { limit: options.limit + 1, status: options.status, after });
    const mails = rows.slice(0, options.limit);
    return { mails, ...(rows.length > options.limit ? { nextCursor: encodeCursor(mails[mails.length - 1]) } : {}) };
  }

  /** Every figure of the dashboard in a handful of aggregate queries, none paging orders. */
  async dashboard(ctx: RequestContext, input: { from?: string; to?: string; timeZone?: string }): Promise<Dashboard> {
    roleOf(ctx);
    const range = dashboardRange(input, ctx.now());
    const currency = (await this.deps.sites.activeSite(ctx)).settings.currency;
    const first = [range.from, range.monthStart].sort()[0];
    const last = [range.to, range.today].sort()[1];
    const [sales, counts, recent, lowStock] = await Promise.all([
      ordersBackOffice.salesPerDay(ctx, { from: first, to: last, timeZone: range.timeZone }),
      ordersBackOffice.openCounts(ctx),
      ordersBackOffice.recentOrders(ctx, RECENT_ORDERS),
      catalogBackOffice.lowStock(ctx, LOW_STOCK_THRESHOLD, LOW_STOCK_ROWS),
    ]);
    const byDate = new Map(sales.map((d) => [d.date, d]));
    const money = (minor: bigint) => formatAmount(minor, currency);
    const figures = (orders: number, revenue: bigint, refunds: bigint): Sales =>
      ({ orders, revenue: money(revenue), refunds: money(refunds), net: money(revenue - refunds) });
    const sum = (from: string, to: string) => {
      let orders = 0;
      let revenue = 0n;
      let refunds = 0n;
      for (const d of sales) if (d.date >= from && d.date <= to) { orders += d.orders; revenue += d.revenue; refunds += d.refunds; }
      return { orders, revenue, refunds };
    };
    const days = Array.from({ length: daysBetween(range.from, range.to) + 1 }, (_, i) => {
      const date = addDays(range.from, i);
      const d = byDate.get(date);
      return { date, ...figures(d?.orders ?? 0, d?.revenue ?? 0n, d?.refunds ?? 0n) };
    });
    const inRange = sum(range.from, range.to);
    const today = sum(range.today, range.today);
    const month = sum(range.monthStart, range.today);
    return {
      currency,
      range: { from: range.from, to: range.to, timeZone: range.timeZone, ...figures(inRange.orders, inRange.revenue, inRange.refunds) },
      days,
      today: figures(today.orders, today.revenue, today.refunds),
      thisMonth: figures(month.orders, month.revenue, month.refunds),
      averageOrderValue: money(inRange.orders ? divideHalfEven(inRange.revenue, BigInt(inRange.orders)) : 0n),
      unpaidCount: counts.unpaid,
      unfulfilledCount: counts.unfulfilled,
      recentOrders: recent,
      lowStock,
    };
  }

  /** What each payment of an order took and what is left to refund of it (the wire's refundability has no amounts). */
  async orderPayments(ctx: RequestContext, orderId: string): Promise<OrderPayments> {
    roleOf(ctx);
    const order = await findOrder(ctx, orderId);
    if (!order) throw ApiError.notFound('ORDER_NOT_FOUND', `Order ${orderId} was not found`, { orderId });
    const payments = order.payments.map((p) => ({
      id: p.id, method: p.method, ...(p.methodName !== undefined && { methodName: p.methodName }),
      amount: p.amount, refunded: p.refunded, ...refundableOf(order, p), createdDate: p.createdDate,
    }));
    return { currency: order.currency, payments, refundable: payments.reduce((sum, p) => sum + p.refundable, 0n) };
  }

  /** The command palette: a few products, orders and members matching `q`. */
  async search(ctx: RequestContext, q: string, limit: number): Promise<SearchResults> {
    roleOf(ctx);
    const text = q.trim();
    if (!text) return { products: [], orders: [], members: [] };
    const [products, orders, members] = await Promise.all([
      catalogBackOffice.findProductsBrief(ctx, text, limit),
      ordersBackOffice.findOrdersBrief(ctx, text.replace(/^#/, ''), limit),
      membersBackOffice.findMembersBrief(ctx, text, limit),
    ]);
    return {
      products,
      orders,
      members: members.map((m) => {
        const name = m.nickname ?? ([m.firstName, m.lastName].filter(Boolean).join(' ') || undefined);
        return { id: m.id, ...(name ? { name } : {}), email: m.loginEmail };
      }),
    };
  }

  async exportProducts(ctx: RequestContext): Promise<AsyncGenerator<string>> {
    roleOf(ctx);
    const currency = (await this.deps.sites.activeSite(ctx)).settings.currency;
    await auditExport(ctx, 'products');
    return productsCsv(catalogBackOffice.productsForExport(ctx), currency);
  }

  async exportOrders(ctx: RequestContext, filters: OrderExportFilters): Promise<AsyncGenerator<string>> {
    roleOf(ctx);
    await auditExport(ctx, 'orders', { ...filters });
    return ordersCsv(ordersBackOffice.ordersForExport(ctx, filters));
  }

  async exportMembers(ctx: RequestContext): Promise<AsyncGenerator<string>> {
    roleOf(ctx);
    await auditExport(ctx, 'members');
    return membersCsv(membersBackOffice.membersForExport(ctx));
  }

  async startImport(ctx: RequestContext, input: { target: ImportTarget; dataCollectionId?: string; format: ImportFormat; content: string }): Promise<ImportJob> {
    roleOf(ctx);
    return this.deps.imports.start(ctx, input);
  }

  async importJob(ctx: RequestContext, jobId: string): Promise<ImportJob> {
    roleOf(ctx);
    return this.deps.imports.get(ctx, jobId);
  }

  async importFailures(ctx: RequestContext, jobId: string): Promise<AsyncGenerator<string>> {
    await this.importJob(ctx, jobId);
    await recordAudit(ctx, { action: 'export.import_failures', objectType: 'import_job', objectId: jobId });
    return failuresCsv(this.deps.imports.failures(ctx, jobId));
  }

  async bulkUpdateProducts(ctx: RequestContext, ids: string[], set: BulkSet): Promise<BulkItemResult[]> {
    const currency = (await this.deps.sites.activeSite(ctx)).settings.currency;
    return this.eachProduct(ctx, ids, setChange(set, currency));
  }

  async bulkAdjustProducts(ctx: RequestContext, ids: string[], adjust: BulkAdjust): Promise<BulkItemResult[]> {
    const currency = (await this.deps.sites.activeSite(ctx)).settings.currency;
    return this.eachProduct(ctx, ids, adjustChange(adjust, currency));
  }

  private async eachProduct(ctx: RequestContext, ids: string[], change: Parameters<CatalogService['changeProduct']>[2]): Promise<BulkItemResult[]> {
    const results: BulkItemResult[] = [];
    for (const [originalIndex, id] of ids.entries()) {
      try {
        await this.deps.catalog.changeProduct(ctx, id, change);
        results.push({ itemMetadata: { id, originalIndex, success: true } });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        results.push({ itemMetadata: { id, originalIndex, success: false, error: { code: error.code, description: error.message } } });
      }
    }
    return results;
  }

  async getMail(ctx: RequestContext, mailId: string): Promise<StoredMail> {
    roleOf(ctx);
    const mail = await this.deps.mail.findForSite(ctx.siteId, mailId);
    if (!mail) throw ApiError.notFound('MAIL_NOT_FOUND', 'No such mail');
    if (holdsSecret(mail) && roleOf(ctx) === 'CONTRIBUTOR') throw ApiError.forbidden('Only the site owner may open sign-in mail: it holds a one-time link or code');
    return mail;
  }
}
