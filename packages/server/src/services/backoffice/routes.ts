import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import type { StoredMail } from '../../platform/mail.js';
import { formatAmount } from '../../platform/money.js';
import type { Order } from '../orders/service.js';
import type { ApiKeyInfo } from '../sites/service.js';
import { holdsSecret, type BackOfficeService, type ImportJob } from './service.js';
import type { BulkItemResult } from './bulk-products.js';
import * as W from './wire-schemas.js';
import { sendCsv } from '../../platform/csv-cells.js';
import { CsvFile } from '../../platform/wire-schema.js';
import { API_KEY_LIMITS } from '../../platform/field-limits.js';

export const PREFIX = '/bodega/v1';
/** The wire's bulk product calls, at both of the catalog writer's prefixes. */
const BULK_PREFIXES = ['/stores/v1/bulk/products', '/_api/catalog-server/v1/bulk/products'];
const MAX_BULK_IDS = 100;
/** An import file travels in the JSON body, under the server's body limit. */
const MAX_IMPORT_CHARS = 7 * 1024 * 1024;

const Id = Type.String({ minLength: 1, maxLength: 100 });
const IdParams = Type.Object({ id: Id });
const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));
const MailStatus = literals(['STORED', 'QUEUED', 'SENDING', 'SENT', 'FAILED'] as const);
const MailQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  status: Type.Optional(MailStatus),
}, { additionalProperties: false });
const CreateKeyBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: API_KEY_LIMITS.name }) }, { additionalProperties: false });
const DateText = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
const DashboardQuery = Type.Object({
  from: Type.Optional(DateText),
  to: Type.Optional(DateText),
  timeZone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone; default UTC' })),
}, { additionalProperties: false });
const SearchQuery = Type.Object({
  q: Type.String({ maxLength: 100 }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 5 })),
}, { additionalProperties: false });
const PaymentStatus = literals(['NOT_PAID', 'PAID', 'PARTIALLY_REFUNDED', 'FULLY_REFUNDED', 'PENDING', 'PARTIALLY_PAID', 'PENDING_MERCHANT', 'CANCELED', 'DECLINED'] as const);
const FulfillmentStatus = literals(['NOT_FULFILLED', 'FULFILLED', 'PARTIALLY_FULFILLED', 'CANCELED'] as const);
const Instant = Type.String({ minLength: 10, maxLength: 40, description: 'an ISO date or date-time' });
const OrdersExportQuery = Type.Object({
  paymentStatus: Type.Optional(PaymentStatus),
  fulfillmentStatus: Type.Optional(FulfillmentStatus),
  from: Type.Optional(Instant),
  to: Type.Optional(Instant),
  q: Type.Optional(Type.String({ maxLength: 100, description: 'order number or the start of the buyer e-mail' })),
}, { additionalProperties: false });
const ImportBody = Type.Object({
  target: literals(['products', 'data-items'] as const),
  dataCollectionId: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  format: literals(['csv', 'json'] as const),
  content: Type.String({ minLength: 1, maxLength: MAX_IMPORT_CHARS, description: 'the file: CSV with a header row, or a JSON array of objects' }),
}, { additionalProperties: false });
const BulkIds = Type.Array(Id, { minItems: 1, maxItems: MAX_BULK_IDS });
const BulkUpdateBody = Type.Object({
  ids: BulkIds,
  set: Type.Object({
    price: Type.Optional(Type.Number({ minimum: 0 })),
    cost: Type.Optional(Type.Number({ minimum: 0 })),
    weight: Type.Optional(Type.Number({ minimum: 0 })),
    ribbon: Type.Optional(Type.String({ maxLength: 30 })),
    brand: Type.Optional(Type.String({ maxLength: 50 })),
  }, { additionalProperties: false }),
});
const Adjustment = Type.Object({
  amount: Type.Optional(Type.Number()),
  percentage: Type.Optional(Type.Object({ rate: Type.Optional(Type.Number({ minimum: -100, maximum: 10_000 })), roundToInt: Type.Optional(Type.Boolean()) })),
}, { additionalProperties: false });
const BulkAdjustBody = Type.Object({
  ids: BulkIds,
  adjust: Type.Object({ price: Type.Optional(Adjustment), cost: Type.Optional(Adjustment), weight: Type.Optional(Adjustment) }, { additionalProperties: false }),
});

function wireKey(k: ApiKeyInfo) {
  return {
    id: k.id, name: k.name, ...(k.prefix ? { prefix: k.prefix } : {}), createdDate: k.createdDate.toISOString(),
    ...(k.lastUsedDate ? { lastUsedDate: k.lastUsedDate.toISOString() } : {}),
  };
}

function wireMailSummary(m: StoredMail) {
  return {
    id: m.mailId,
    kind: m.kind,
    to: m.to,
    subject: m.subject,
    status: m.status,
    ...(holdsSecret(m) ? { ownerOnly: true } : {}),
    createdDate: m.createdDate.toISOString(),
    ...(m.sentDate ? { sentDate: m.sentDate.toISOString() } : {}),
    ...(m.lastError ? { error: m.lastError } : {}),
  };
}

function wireOrderBrief(o: Order) {
  return {
    id: o.id,
    number: String(o.number),
    createdDate: o.createdDate.toISOString(),
    ...(o.email ? { buyerEmail: o.email } : {}),
    total: formatAmount(o.totals.total, o.currency),
    paymentStatus: o.paymentStatus,
    fulfillmentStatus: o.fulfillmentStatus,
  };
}

function wireJob(j: ImportJob) {
  return {
    id: j.jobId,
    target: j.target,
    ...(j.dataCollectionId ? { dataCollectionId: j.dataCollectionId } : {}),
    status: j.status,
    total: j.total,
    processed: j.processed,
    succeeded: j.succeeded,
    failed: j.failed,
    createdDate: j.createdDate.toISOString(),
    ...(j.finishedDate ? { finishedDate: j.finishedDate.toISOString() } : {}),
    ...(j.error ? { error: j.error } : {}),
  };
}

function instant(field: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw ApiError.validation([{ field, rule: 'FORMAT', description: 'an ISO date or date-time' }]);
  return date;
}

function sendDatedCsv(reply: FastifyReply, name: string, chunks: AsyncIterable<string>, now: Date): FastifyReply {
  return sendCsv(reply, `${name}-${now.toISOString().slice(0, 10)}.csv`, chunks);
}

const tags = ['back office'];
const csvResponse = { produces: ['text/csv'], response: { 200: CsvFile } };

export function backOfficeRoutes(backOffice: BackOfficeService) {
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<TypeBoxTypeProvider>();
    const config = { access: 'staff' } as const;
    const ownerOnly = { access: 'owner' } as const;

    app.get(`${PREFIX}/me`, { config, schema: { tags, summary: 'Who is signed in to the back office, their role and the site', response: { 200: W.BackOfficeMe } } }, async (req) => backOffice.me(req.ctx));

    app.get(`${PREFIX}/dashboard`, {
      config, schema: { tags, summary: 'Orders and revenue per day, today and this month, open counts, recent orders, low stock', querystring: DashboardQuery, response: { 200: W.Dashboard } },
    }, async (req) => {
      const d = await backOffice.dashboard(req.ctx, req.query);
      return { ...d, recentOrders: d.recentOrders.map(wireOrderBrief) };
    });

    app.get(`${PREFIX}/search`, { config, schema: { tags, summary: 'The command palette: products, orders and members matching q', querystring: SearchQuery, response: { 200: W.SearchResults } } }, async (req) => {
      const r = await backOffice.search(req.ctx, req.query.q, req.query.limit ?? 5);
      return { products: r.products, orders: r.orders.map((o) => ({ id: o.id, number: String(o.number), ...(o.email ? { buyerEmail: o.email } : {}) })), members: r.members };
    });

    app.get(`${PREFIX}/orders/:id/payments`, {
      config, schema: { tags, summary: "An order's payments with what is left to refund of each, for a partial refund through trigger-refund", params: IdParams, response: { 200: W.OrderPayments } },
    }, async (req) => {
      const p = await backOffice.orderPayments(req.ctx, req.params.id);
      const money = (minor: bigint) => formatAmount(minor, p.currency);
      return {
        currency: p.currency,
        refundable: money(p.refundable),
        payments: p.payments.map((x) => ({
          id: x.id, method: x.method, ...(x.methodName !== undefined && { methodName: x.methodName }),
          amount: money(x.amount), refunded: money(x.refunded), refundable: money(x.refundable), ...(x.reason && { reason: x.reason }),
          createdDate: x.createdDate.toISOString(),
        })),
      };
    });

    app.get(`${PREFIX}/api-keys`, { config: ownerOnly, schema: { tags, summary: "The site's API keys (owner and API keys only)", response: { 200: W.ApiKeyList } } }, async (req) => ({
      apiKeys: (await backOffice.listApiKeys(req.ctx)).map(wireKey),
    }));
    app.post(`${PREFIX}/api-keys`, { config: ownerOnly, schema: { tags, summary: 'Creates an API key; the answer holds the secret this once', body: CreateKeyBody, response: { 200: W.CreatedApiKey } } }, async (req) => {
      const { apiKey, key } = await backOffice.createApiKey(req.ctx, req.body.name);
      return { apiKey: wireKey(apiKey), key };
    });
    app.delete(`${PREFIX}/api-keys/:id`, { config: ownerOnly, schema: { tags, summary: 'Revokes an API key', params: IdParams, response: { 200: W.Empty } } }, async (req) => {
      await backOffice.revokeApiKey(req.ctx, req.params.id);
      return {};
    });

    app.get(`${PREFIX}/mail-outbox`, { config, schema: { tags, summary: "The site's mail, newest first", querystring: MailQuery, response: { 200: W.MailPage } } }, async (req) => {
      const page = await backOffice.listMails(req.ctx, { limit: req.query.limit ?? 50, cursor: req.query.cursor, status: req.query.status });
      return { mails: page.mails.map(wireMailSummary), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    });
    app.get(`${PREFIX}/mail-outbox/:id`, { config, schema: { tags, summary: 'One mail with its text and HTML', params: IdParams, response: { 200: W.OneMail } } }, async (req) => {
      const mail = await backOffice.getMail(req.ctx, req.params.id);
      return { mail: { ...wireMailSummary(mail), text: mail.text, html: mail.html } };
    });

    app.get(`${PREFIX}/exports/products.csv`, { config, schema: { tags, summary: 'Every product as CSV (the import reads the same columns)', ...csvResponse } }, async (req, reply) =>
      sendDatedCsv(reply, 'products', await backOffice.exportProducts(req.ctx), req.ctx.now()));
    app.get(`${PREFIX}/exports/orders.csv`, { config, schema: { tags, summary: "The orders list's filtered orders as CSV, newest first", querystring: OrdersExportQuery, ...csvResponse } }, async (req, reply) => {
      const q = req.query;
      const filters = {
        ...(q.paymentStatus ? { paymentStatus: q.paymentStatus } : {}),
        ...(q.fulfillmentStatus ? { fulfillmentStatus: q.fulfillmentStatus } : {}),
        from: instant('from', q.from),
        to: instant('to', q.to),
        ...(q.q?.trim() && { q: q.q.trim() }),
      };
      return sendDatedCsv(reply, 'orders', await backOffice.exportOrders(req.ctx, filters), req.ctx.now());
    });
    app.get(`${PREFIX}/exports/members.csv`, { config, schema: { tags, summary: 'Every member as CSV', ...csvResponse } }, async (req, reply) =>
      sendDatedCsv(reply, 'members', await backOffice.exportMembers(req.ctx), req.ctx.now()));

    app.post(`${PREFIX}/import-jobs`, {
      config, schema: { tags, summary: 'Starts an import of products or data-collection items; it runs on the server', body: ImportBody, response: { 200: W.OneImportJob } },
    }, async (req) => ({ job: wireJob(await backOffice.startImport(req.ctx, req.body)) }));
    app.get(`${PREFIX}/import-jobs/:id`, { config, schema: { tags, summary: "An import's status and counts", params: IdParams, response: { 200: W.OneImportJob } } }, async (req) => ({
      job: wireJob(await backOffice.importJob(req.ctx, req.params.id)),
    }));
    app.get(`${PREFIX}/import-jobs/:id/failures.csv`, {
      config, schema: { tags, summary: 'The rows that failed: row (1 = first data row), error, then the row as sent', params: IdParams, ...csvResponse },
    }, async (req, reply) => sendDatedCsv(reply, `import-${req.params.id}-failures`, await backOffice.importFailures(req.ctx, req.params.id), req.ctx.now()));

    for (const prefix of BULK_PREFIXES) {
      app.post(`${prefix}/update`, { config, schema: { tags: ['catalog'], summary: 'Sets one property of many products (Stores v1 BulkUpdateProducts)', body: BulkUpdateBody, response: { 200: W.BulkProductsResponse } } }, async (req) =>
        bulkAnswer(await backOffice.bulkUpdateProducts(req.ctx, req.body.ids, req.body.set)));
      app.post(`${prefix}/adjust-properties`, {
        config, schema: { tags: ['catalog'], summary: 'Adjusts price or weight of many products by an amount or a percentage (Stores v1)', body: BulkAdjustBody, response: { 200: W.BulkProductsResponse } },
      }, async (req) => bulkAnswer(await backOffice.bulkAdjustProducts(req.ctx, req.body.ids, req.body.adjust)));
    }
  };
}

function bulkAnswer(results: BulkItemResult[]) {
  const successes = results.filter((r) => r.itemMetadata.success).length;
  return { results, bulkActionMetadata: { totalSuccesses: successes, totalFailures: results.length - successes, undetailedFailures: 0 } };
}
