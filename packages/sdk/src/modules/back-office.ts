/**
 * Bodega's own back-office calls under `/bodega/v1` (described by `/bodega/v1/openapi.json`), and
 * the wire's bulk product edits. Money is a decimal string; dates are ISO strings.
 */
import { call, enc } from '../core/generated.js';
import { CATALOG_WRITER } from '../core/paths.js';
import { errorFromResponse } from '../core/errors.js';
import { toQueryString, type PlainObject } from '../core/query-string.js';
import type { Transport } from '../core/transport.js';
import type { ProductsQuery, QueryProductsResponse } from './products.js';
import type { ApiKeyInfo, BackOfficeMe, Dashboard, ImportJob, ImportTarget, Mail, MailStatus, MailSummary, OrderImportAnswer, OrderPayments, SearchResults } from '../generated/back-office.js';
import type { BulkProductsResponse } from '../generated/catalog.js';

export type {
  ApiKeyInfo, BackOfficeMe, BackOfficeRole, Dashboard, DayFigures, ImportJob, ImportJobStatus, ImportTarget, LowStockItem, Mail, MailStatus, MailSummary,
  OrderImportAnswer, OrderImportResult, OrderPayment, OrderPayments, RecentOrder, SalesFigures, SearchResults,
} from '../generated/back-office.js';
export type { BulkProductResult, BulkProductsResponse } from '../generated/catalog.js';

export const BACK_OFFICE_PATH = '/bodega/v1';

export interface DashboardOptions {
  /** First day, `YYYY-MM-DD` in `timeZone` (default: 29 days before `to`). */
  from?: string;
  /** Last day, inclusive (default: today in `timeZone`). */
  to?: string;
  /** IANA time zone the days are counted in (default `UTC`). */
  timeZone?: string;
}

export interface ListMailsOptions {
  limit?: number;
  cursor?: string;
  status?: MailStatus;
}

export type ExportKind = 'products' | 'orders' | 'members';

/** The orders list's filters, accepted by the orders export. */
export interface OrdersExportFilters {
  paymentStatus?: string;
  fulfillmentStatus?: string;
  /** Created on or after, ISO date or date-time. */
  from?: string;
  /** Created before, ISO date or date-time. */
  to?: string;
  /** Order number or buyer e-mail. */
  q?: string;
}

export type ImportFormat = 'csv' | 'json';

export interface CreateImportJobInput {
  target: ImportTarget;
  /** Required when `target` is `data-items`. */
  dataCollectionId?: string;
  format: ImportFormat;
  /** The file's text: CSV with a header row, or a JSON array of objects. */
  content: string;
}

/** `products.bulkUpdateProductsProperty`'s `set` (one property per call). */
export interface BulkProductSet {
  price?: number;
  cost?: number;
  weight?: number;
  ribbon?: string;
  brand?: string;
}

export interface PropertyAdjustment {
  percentage?: { rate?: number; roundToInt?: boolean };
  amount?: number;
}

/** `products.bulkAdjustProductProperty`'s `adjust` (one property per call). */
export interface BulkProductAdjust {
  price?: PropertyAdjustment;
  cost?: PropertyAdjustment;
  weight?: PropertyAdjustment;
}

/** The back office's stock filter: stock.inStock as each product shows it, or low stock. */
export type StockFilter = 'IN_STOCK' | 'OUT_OF_STOCK' | 'LOW_STOCK';

export interface BackOfficeProductsOptions {
  stock?: StockFilter;
  /** LOW_STOCK: tracked products with at most this many units (the lowest variant's); default 5. */
  lowStockAtMost?: number;
  /** Free text through the catalog search (typos too), ranked by relevance unless the query sorts. */
  text?: string;
}

function query(params: object): string | undefined {
  const entries = Object.entries(params).filter(([, v]) => v !== undefined && v !== '');
  return entries.length ? toQueryString(Object.fromEntries(entries) as PlainObject) : undefined;
}

/** A GET under `/bodega/v1` with its parameters as a query string (empty ones left out). */
export function backOfficeGet<T>(t: Transport, path: string, params: object = {}): Promise<T> {
  return t.send<T>({ method: 'GET', path: BACK_OFFICE_PATH + path, query: query(params) ?? '' });
}

/** A CSV answer under `/bodega/v1`, fetched with the client's credentials; errors come back as BodegaError. */
export async function backOfficeCsv(t: Transport, path: string, params: object = {}): Promise<Response> {
  const q = query(params);
  const response = await t.fetchWithAuth(`${t.baseUrl}${BACK_OFFICE_PATH}${path}${q ? `?${q}` : ''}`, { method: 'GET' });
  if (response.status !== 200) {
    let body: unknown;
    try {
      body = JSON.parse(await response.text()) as unknown;
    } catch {
      body = undefined;
    }
    throw errorFromResponse(response.status, response.statusText, response.headers.get('x-wix-request-id') ?? undefined, body);
  }
  return response;
}

export function backOffice(t: Transport) {
  const get = <T>(path: string, params: object = {}) => backOfficeGet<T>(t, path, params);
  const csv = (path: string, params: object = {}) => backOfficeCsv(t, path, params);

  return {
    /** Who is signed in to the back office, with their role and the site. */
    me: () => get<BackOfficeMe>('/me'),

    /** Orders and revenue per day, today and this month, counts, recent orders and low stock. */
    dashboard: (options: DashboardOptions = {}) => get<Dashboard>('/dashboard', options),

    /** An order's payments and what is left to refund of each: the amounts a partial `triggerRefund` may take. */
    orderPayments: (orderId: string) => get<OrderPayments>(`/orders/${enc(orderId)}/payments`),

    /** The command palette: products, orders and members matching `q`. */
    search: (q: string, options: { limit?: number } = {}) => get<SearchResults>('/search', { q, ...options }),

    /** OWNER and API keys only; a CONTRIBUTOR gets 403. */
    listApiKeys: () => get<{ apiKeys: ApiKeyInfo[] }>('/api-keys'),
    /** The answer's `key` is the secret, shown this once. */
    createApiKey: (name: string) => t.send<{ apiKey: ApiKeyInfo; key: string }>({ method: 'POST', path: `${BACK_OFFICE_PATH}/api-keys`, payload: { name } }),
    revokeApiKey: (id: string) => t.send<Record<string, never>>({ method: 'DELETE', path: `${BACK_OFFICE_PATH}/api-keys/${enc(id)}` }),

    /** The mail outbox, newest first; pass `nextCursor` back as `cursor` for the next page. */
    listMails: (options: ListMailsOptions = {}) => get<{ mails: MailSummary[]; nextCursor?: string }>('/mail-outbox', options),
    getMail: (id: string) => get<{ mail: Mail }>(`/mail-outbox/${enc(id)}`),

    /** Streams `products.csv`, `orders.csv` or `members.csv`; read it with `.text()` or `.blob()`. */
    exportCsv: (kind: ExportKind, filters: OrdersExportFilters = {}) => csv(`/exports/${kind}.csv`, filters),

    /** Starts an import that runs on the server; poll `getImportJob` for progress. */
    createImportJob: (input: CreateImportJobInput) =>
      t.send<{ job: ImportJob }>({ method: 'POST', path: `${BACK_OFFICE_PATH}/import-jobs`, payload: { ...input } }),
    getImportJob: (id: string) => get<{ job: ImportJob }>(`/import-jobs/${enc(id)}`),
    /** The rows that failed, as CSV with `row` (1 = the first data row) and `error` columns. */
    importFailuresCsv: (id: string) => csv(`/import-jobs/${enc(id)}/failures.csv`),

    /**
     * Imports orders from another platform (README "Order import"): a CSV, or a JSON array of
     * orders as `orders.importOrder` takes them. One result per order, the reason in words for a
     * refused one; importing the same file again makes no duplicates.
     */
    importOrders: (input: { format: ImportFormat; content: string }) =>
      t.send<OrderImportAnswer>({ method: 'POST', path: `${BACK_OFFICE_PATH}/order-imports`, payload: { ...input } }),
    /** An order import's refused rows as CSV: `row`, `error` (in words), `reason` (the spec's code), then the row as sent. */
    orderImportFailuresCsv: (importId: string) => csv(`/order-imports/${enc(importId)}/failures.csv`),

    /**
     * Products for the back office, hidden ones included: the Stores v1 query (filter, sort,
     * paging) plus a stock filter, which the wire's product query does not have.
     */
    queryProducts: (request: ProductsQuery, options: BackOfficeProductsOptions = {}) =>
      call<QueryProductsResponse>(t, 'POST', `${BACK_OFFICE_PATH}/products/query`, { query: request, ...options }, { args: { query: 'query', '*': 'options' } }),

    /** The wire's `POST /stores/v1/bulk/products/update`, as `@wix/stores` names it. */
    bulkUpdateProductsProperty: (ids: string[], set: BulkProductSet) =>
      call<BulkProductsResponse>(t, 'POST', `${CATALOG_WRITER}/bulk/products/update`, { ids, set: { ...set } }, { args: { ids: 'ids', set: 'set' } }),
    /** The wire's `POST /stores/v1/bulk/products/adjust-properties`. */
    bulkAdjustProductProperty: (adjust: BulkProductAdjust, ids: string[]) =>
      call<BulkProductsResponse>(t, 'POST', `${CATALOG_WRITER}/bulk/products/adjust-properties`, { ids, adjust: { ...adjust } }, { args: { ids: 'ids', adjust: 'adjust' } }),
  };
}

export type BackOfficeApi = ReturnType<typeof backOffice>;
