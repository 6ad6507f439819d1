// The official @wix/ecom orderPaymentRequests calls (createOrderPaymentRequest,
// getOrderPaymentRequest, queryOrderPaymentRequests, getOrderPaymentRequestUrl,
// voidOrderPaymentRequest, deleteOrderPaymentRequest) for the back office and API keys; the back
// office's "send the link by e-mail"; and the shop's payment-link page (any token of the site:
// the link's signature is what lets its holder see and pay that one order).
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { RequestContext } from '../../platform/caller.js';
import { ApiError } from '../../platform/errors.js';
import { MoneyError, parseAmount } from '../../platform/money.js';
import type { PaymentRequestsService, RequestStatus } from './payment-requests.js';
import { toWireLinkOrder, toWirePaymentRequest } from './payment-requests-wire.js';
import * as W from './payment-requests-wire-schemas.js';

const PREFIX = '/ecom/v1/order-payment-requests';
const BODEGA = '/_api/bodega/v1';
const Id = Type.String({ minLength: 1, maxLength: 100 });
const IdBody = Type.Object({ orderPaymentRequestId: Id });
const Token = Type.Object({ token: Type.String({ minLength: 1, maxLength: 300 }) });
const STATUSES = ['UNPAID', 'PAID', 'EXPIRED', 'VOIDED'] as const;

const CreateBody = Type.Object({
  orderPaymentRequest: Type.Object({
    orderId: Id,
    amount: Type.Optional(Type.Object({ amount: Type.String({ minLength: 1, maxLength: 40 }), formattedAmount: Type.Optional(Type.String({ maxLength: 100 })) })),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 300 }), Type.Null()])),
    expirationDate: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
    source: Type.Optional(Type.Object({
      appId: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()])),
      externalId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    })),
    image: Type.Optional(Type.Unknown()),
    blockedPaymentMethods: Type.Optional(Type.Array(Type.Literal('MANUAL'), { maxItems: 1 })),
    extendedFields: Type.Optional(Type.Unknown()),
  }),
});
const QueryBody = Type.Object({
  query: Type.Optional(Type.Object({
    filter: Type.Optional(Type.Unknown()),
    sort: Type.Optional(Type.Unknown()),
    cursorPaging: Type.Optional(Type.Object({
      limit: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 100 }), Type.Null()])),
      cursor: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    })),
  })),
});
const SendBody = Type.Object({ to: Type.Optional(Type.String({ maxLength: 254, format: 'email' })) }, { additionalProperties: false });
const PayBody = Type.Object({ paymentToken: Type.String({ minLength: 1, maxLength: 255 }) }, { additionalProperties: false });

const badFilter = (field: string) => ApiError.validation([{ field, rule: 'FORMAT', description: 'filter by orderId or status (UNPAID, PAID, EXPIRED, VOIDED), each equal to one value' }]);

/** The query's filter (`{orderId, status}`, values plain or `$eq`, joined by `$and` as the SDK's builder does). */
function filterOf(filter: unknown): { orderId?: string; status?: RequestStatus } {
  const out: { orderId?: string; status?: RequestStatus } = {};
  const walk = (f: unknown, at: string): void => {
    if (f === null || f === undefined) return;
    if (typeof f !== 'object' || Array.isArray(f)) throw badFilter(at);
    const entries = Object.entries(f);
    if (entries.length === 1 && entries[0][0] === '$and' && Array.isArray(entries[0][1])) {
      entries[0][1].forEach((part, i) => walk(part, `${at}.$and[${i}]`));
      return;
    }
    for (const [key, raw] of entries) {
      const value: unknown = raw !== null && typeof raw === 'object' && '$eq' in raw ? (raw as { $eq: unknown }).$eq : raw;
      if (key === 'orderId' && typeof value === 'string') out.orderId = value;
      else if (key === 'status' && (STATUSES as readonly unknown[]).includes(value)) out.status = value as RequestStatus;
      else throw badFilter(`${at}.${key}`);
    }
  };
  walk(filter, 'query.filter');
  return out;
}

export function paymentRequestsRoutes(requests: PaymentRequestsService, currencyOf: (ctx: RequestContext) => Promise<string>) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const config = { access: 'staff' } as const;

    app.post(PREFIX, { config, schema: { body: CreateBody, response: { 200: W.CreatedAnswer } } }, async (req) => {
      const input = req.body.orderPaymentRequest;
      let amount: bigint | undefined;
      if (input.amount) {
        try {
          amount = parseAmount(input.amount.amount, await currencyOf(req.ctx));
        } catch (error) {
          if (!(error instanceof MoneyError)) throw error;
          throw ApiError.validation([{ field: 'orderPaymentRequest.amount.amount', rule: 'FORMAT', description: error.message }]);
        }
      }
      const { request, url } = await requests.create(req.ctx, {
        orderId: input.orderId,
        ...(amount !== undefined && { amount }),
        ...(input.title && { title: input.title }),
        ...(input.description !== undefined && { description: input.description }),
        ...(input.expirationDate !== undefined && { expiresAt: input.expirationDate === null ? null : new Date(input.expirationDate) }),
        ...(input.source && { source: input.source }),
      });
      return { orderPaymentRequest: toWirePaymentRequest(request), orderPaymentRequestUrl: url };
    });

    app.get(`${PREFIX}/:orderPaymentRequestId`, { config, schema: { params: IdBody, response: { 200: W.RequestAnswer } } }, async (req) =>
      ({ orderPaymentRequest: toWirePaymentRequest(await requests.get(req.ctx, req.params.orderPaymentRequestId)) }));

    app.post(`${PREFIX}/query`, { config, schema: { body: QueryBody, response: { 200: W.RequestsPage } } }, async (req) => {
      const query = req.body.query ?? {};
      const { orderId, status } = filterOf(query.filter);
      const page = await requests.query(req.ctx, {
        ...(orderId && { orderId }),
        ...(status && { status }),
        ...(query.cursorPaging?.limit && { limit: query.cursorPaging.limit }),
        ...(query.cursorPaging?.cursor && { cursor: query.cursorPaging.cursor }),
      });
      return {
        orderPaymentRequests: page.requests.map(toWirePaymentRequest),
        pagingMetadata: { count: page.requests.length, cursors: { ...(page.nextCursor ? { next: page.nextCursor } : {}) }, hasNext: page.nextCursor !== null },
      };
    });

    app.post(`${PREFIX}/url`, { config, schema: { body: IdBody, response: { 200: W.UrlAnswer } } }, async (req) =>
      ({ orderPaymentRequestUrl: await requests.link(req.ctx, req.body.orderPaymentRequestId) }));

    app.post(`${PREFIX}/void`, { config, schema: { body: IdBody, response: { 200: W.Empty } } }, async (req) => {
      await requests.void(req.ctx, req.body.orderPaymentRequestId);
      return {};
    });

    app.delete(`${PREFIX}/:orderPaymentRequestId`, { config, schema: { params: IdBody, response: { 200: W.Empty } } }, async (req) => {
      await requests.delete(req.ctx, req.params.orderPaymentRequestId);
      return {};
    });

    // Bodega: the back office sends the link by e-mail (to the order's buyer unless `to` is given).
    app.post(`${BODEGA}/order-payment-requests/:orderPaymentRequestId/send`, { config, schema: { params: IdBody, body: SendBody, response: { 200: W.SentAnswer } } }, async (req) => {
      const sent = await requests.send(req.ctx, req.params.orderPaymentRequestId, req.body.to);
      return { orderPaymentRequest: toWirePaymentRequest(sent.request), to: sent.to };
    });

    // The shop's payment-link page: what the link asks for, and paying it with the site's provider.
    const shop = { access: 'shop' } as const;
    app.get(`${BODEGA}/payment-links/:token`, { config: shop, schema: { params: Token, response: { 200: W.PaymentLinkAnswer } } }, async (req) => {
      const { request, order } = await requests.linkView(req.ctx, req.params.token);
      return { orderPaymentRequest: toWirePaymentRequest(request), order: toWireLinkOrder(order) };
    });

    app.post(`${BODEGA}/payment-links/:token/pay`, { config: shop, schema: { params: Token, body: PayBody, response: { 200: W.PaymentLinkAnswer } } }, async (req) => {
      const { request, order } = await requests.pay(req.ctx, req.params.token, req.body.paymentToken);
      return { orderPaymentRequest: toWirePaymentRequest(request), order: toWireLinkOrder(order) };
    });
  };
}
