import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import { ORDER_LIMITS } from '../../platform/field-limits.js';
import type { PageBase } from '../../platform/page-base.js';
import { MoneyError, parseAmount } from '../../platform/money.js';
import type { OrdersService } from './service.js';
import { MAX_LINE_QUANTITY } from '../commerce/lines.js';
import { price, toWireFulfillment, toWireOrder, toWireTransactions } from './wire.js';
import { BulkMarkAsPaidResponse, OrderResponse, SearchOrdersResponse } from './wire-schemas.js';
import * as T from './transactions-wire-schemas.js';

/** Orders at www/edge.wixapis.com and at a custom host. */
const ORDER_PREFIXES = ['/ecom/v1', '/_api/ecom-orders/v1'];
/** The payments collector: `/ecom/v1/…` at wixapis.com, `/v1/…` (no mapping) at a custom host. */
const COLLECTOR_PREFIXES = ['/ecom/v1/payments-collector', '/v1/payments-collector'];
/** Fulfillments at wixapis.com and at a custom host. */
const FULFILLMENT_PREFIXES = ['/ecom/v1/fulfillments', '/_api/fulfillments/v1/fulfillments'];

const Id = Type.String({ minLength: 1, maxLength: 100 });
const Amount = Type.Object({ amount: Type.String({ minLength: 1, maxLength: 40 }), formattedAmount: Type.Optional(Type.String({ maxLength: 100 })) });
const MethodName = Type.Optional(Type.Object({ predefined: Type.Optional(Type.String({ maxLength: 40 })), custom: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])) }));

const SearchBody = Type.Object({
  search: Type.Optional(Type.Object({
    filter: Type.Optional(Type.Unknown()),
    sort: Type.Optional(Type.Unknown()),
    cursorPaging: Type.Optional(Type.Object({
      limit: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
      cursor: Type.Optional(Type.Union([Type.String({ maxLength: 20_000 }), Type.Null()])),
    })),
  })),
});
const CancelBody = Type.Object({
  sendOrderCanceledEmail: Type.Optional(Type.Boolean()),
  customMessage: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
  restockAllItems: Type.Optional(Type.Boolean()),
});
const MarkPaidBody = Type.Object({ userDefinedPaymentMethodName: MethodName });
const BulkMarkPaidBody = Type.Object({ ecomOrderIds: Type.Array(Id, { minItems: 1, maxItems: 100 }) });
const ManualPaymentBody = Type.Object({ amount: Amount, userDefinedPaymentMethodName: MethodName });
const RefundBody = Type.Object({
  payments: Type.Array(Type.Object({ paymentId: Id, amount: Type.Optional(Amount), externalRefund: Type.Optional(Type.Boolean()) }), { minItems: 1, maxItems: 20 }),
  details: Type.Optional(Type.Object({
    items: Type.Optional(Type.Array(Type.Object({ lineItemId: Id, quantity: Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY }) }), { maxItems: 300 })),
    lineItems: Type.Optional(Type.Array(Type.Object({ lineItemId: Id, quantity: Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY }) }), { maxItems: 300 })),
    shippingIncluded: Type.Optional(Type.Boolean()),
    reason: Type.Optional(Type.Union([Type.String({ maxLength: ORDER_LIMITS.refundReason }), Type.Null()])),
  })),
  sideEffects: Type.Optional(Type.Object({
    restockInfo: Type.Optional(Type.Object({
      type: Type.Optional(Type.Union([Type.Literal('NO_ITEMS'), Type.Literal('ALL_ITEMS'), Type.Literal('SOME_ITEMS')])),
      items: Type.Optional(Type.Array(Type.Object({ lineItemId: Id, quantity: Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY }) }), { maxItems: 300 })),
    })),
    sendOrderRefundedEmail: Type.Optional(Type.Boolean()),
    customMessage: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
  })),
});
const VoidBody = Type.Object({ paymentIds: Type.Array(Id, { minItems: 1, maxItems: 20 }) });
const CaptureBody = Type.Object({ payments: Type.Array(Type.Object({ paymentId: Id, amount: Type.Optional(Amount) }), { minItems: 1, maxItems: 20 }) });
const FulfillmentBody = Type.Object({
  fulfillment: Type.Object({
    lineItems: Type.Optional(Type.Array(Type.Object({ id: Id, quantity: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: MAX_LINE_QUANTITY }), Type.Null()])) }), { maxItems: 300 })),
    trackingInfo: Type.Optional(Type.Object({
      trackingNumber: Type.Optional(Type.Union([Type.String({ maxLength: ORDER_LIMITS.trackingNumber }), Type.Null()])),
      shippingProvider: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
      trackingLink: Type.Optional(Type.Union([Type.String({ maxLength: 2048 }), Type.Null()])),
    })),
    status: Type.Optional(Type.Union([Type.String({ maxLength: 50 }), Type.Null()])),
    completed: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  }),
});

function methodName(name: Static<typeof MarkPaidBody>['userDefinedPaymentMethodName']): string | undefined {
  return name?.custom ?? name?.predefined ?? undefined;
}

export function ordersRoutes(orders: OrdersService, pageBase: PageBase) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const wire = (base: string, order: Parameters<typeof toWireOrder>[0]) => toWireOrder(order, base);
    const amount = (text: string, currency: string, field: string): bigint => {
      try {
        return parseAmount(text, currency);
      } catch (error) {
        if (!(error instanceof MoneyError)) throw error;
        throw ApiError.validation([{ field, rule: error.rule === 'DECIMAL_MAX_SCALE' ? 'DECIMAL_MAX_SCALE' : 'FORMAT', description: error.message }]);
      }
    };

    for (const prefix of ORDER_PREFIXES) {
      app.get(`${prefix}/orders/:id`, { config: { access: 'shop' }, schema: { params: Type.Object({ id: Id }), response: { 200: OrderResponse } } }, async (req) => ({ order: wire(await pageBase(req.ctx), await orders.getOrder(req.ctx, req.params.id)) }));

      app.post(`${prefix}/orders/search`, { config: { access: 'shop' }, schema: { body: SearchBody, response: { 200: SearchOrdersResponse } } }, async (req) => {
        const page = await orders.searchOrders(req.ctx, req.body.search ?? {});
        const base = await pageBase(req.ctx);
        return {
          orders: page.orders.map((order) => wire(base, order)),
          metadata: { count: page.orders.length, cursors: { ...(page.nextCursor ? { next: page.nextCursor } : {}) }, hasNext: page.hasNext },
        };
      });

      app.post(`${prefix}/orders/:id/cancel`, { config: { access: 'staff' }, schema: { body: CancelBody, params: Type.Object({ id: Id }), response: { 200: OrderResponse } } }, async (req) => {
        const body = req.body;
        const order = await orders.cancelOrder(req.ctx, req.params.id, { restockAllItems: body.restockAllItems ?? false, ...(body.customMessage ? { customMessage: body.customMessage } : {}) });
        return { order: wire(await pageBase(req.ctx), order) };
      });
    }

    for (const prefix of COLLECTOR_PREFIXES) {
      const params = { params: Type.Object({ ecomOrderId: Id }) };
      app.post(`${prefix}/orders/:ecomOrderId/mark-as-paid`, { config: { access: 'staff' }, schema: { body: MarkPaidBody, ...params, response: { 200: OrderResponse } } }, async (req) => {
        const order = await orders.markAsPaid(req.ctx, req.params.ecomOrderId, methodName(req.body.userDefinedPaymentMethodName));
        return { order: wire(await pageBase(req.ctx), order) };
      });

      app.post(`${prefix}/orders/:orderId/manual-payment`, { config: { access: 'staff' }, schema: { body: ManualPaymentBody, params: Type.Object({ orderId: Id }), response: { 200: T.Empty } } }, async (req) => {
        const body = req.body;
        const current = await orders.getOrder(req.ctx, req.params.orderId);
        await orders.recordManualPayment(req.ctx, current.id, amount(body.amount.amount, current.currency, 'amount.amount'), methodName(body.userDefinedPaymentMethodName));
        return {};
      });

      app.get(`${prefix}/orders/:ecomOrderId/payment-collectability-status`, { config: { access: 'staff' }, schema: { ...params, response: { 200: T.CollectabilityResponse } } }, async (req) => {
        const result = await orders.payments.collectability(req.ctx, req.params.ecomOrderId);
        return { status: result.status, amount: price(result.amount, result.order.currency) };
      });

      app.get(`${prefix}/orders/:ecomOrderId/refundability`, { config: { access: 'staff' }, schema: { ...params, response: { 200: T.RefundabilityResponse } } }, async (req) => {
        const result = await orders.payments.refundability(req.ctx, req.params.ecomOrderId);
        return {
          refundabilities: result.payments.map((p) => ({
            paymentId: p.paymentId,
            refundabilityStatus: p.status,
            ...(p.reason ? { nonRefundableReason: p.reason } : {}),
            ...(p.manualReason ? { manuallyRefundableReason: p.manualReason } : {}),
          })),
          refundablePerItem: true,
        };
      });

      app.post(`${prefix}/orders/:ecomOrderId/trigger-refund`, { config: { access: 'staff' }, schema: { body: RefundBody, ...params, response: { 200: T.TriggerRefundResponse } } }, async (req) => {
        const body = req.body;
        const current = await orders.getOrder(req.ctx, req.params.ecomOrderId);
        const payments = body.payments.map((p, i) => {
          const paid = current.payments.find((x) => x.id === p.paymentId);
          const left = paid ? paid.amount - paid.refunded : 0n;
          return { paymentId: p.paymentId, amount: p.amount ? amount(p.amount.amount, current.currency, `payments[${i}].amount.amount`) : left };
        });
        const restockInfo = body.sideEffects?.restockInfo;
        const restock = restockInfo?.type === 'ALL_ITEMS' ? 'ALL_ITEMS' as const : restockInfo?.type === 'SOME_ITEMS' ? restockInfo.items ?? [] : 'NO_ITEMS' as const;
        const { order, refundId } = await orders.payments.refund(req.ctx, current.id, {
          payments,
          lineItems: body.details?.lineItems ?? body.details?.items ?? [],
          shippingIncluded: body.details?.shippingIncluded ?? false,
          ...(body.details?.reason ? { reason: body.details.reason } : {}),
        }, restock);
        return {
          refundId,
          orderTransactions: toWireTransactions(order),
          failedPaymentIds: [],
        };
      });
    }

    for (const prefix of COLLECTOR_PREFIXES) {
      const params = { params: Type.Object({ ecomOrderId: Id }) };
      app.post(`${prefix}/orders/:ecomOrderId/void-authorized-payments`, { config: { access: 'staff' }, schema: { body: VoidBody, ...params, response: { 200: T.OrderTransactionsResponse } } }, async (req) => {
        const order = await orders.payments.void(req.ctx, (await orders.getOrder(req.ctx, req.params.ecomOrderId)).id, req.body.paymentIds);
        return { orderTransactions: toWireTransactions(order) };
      });
      app.post(`${prefix}/orders/:ecomOrderId/capture-authorized-payments`, { config: { access: 'staff' }, schema: { body: CaptureBody, ...params, response: { 200: T.OrderTransactionsResponse } } }, async (req) => {
        const current = await orders.getOrder(req.ctx, req.params.ecomOrderId);
        const order = await orders.payments.capture(req.ctx, current.id, req.body.payments.map((p, i) => ({
          paymentId: p.paymentId,
          ...(p.amount ? { amount: amount(p.amount.amount, current.currency, `payments[${i}].amount.amount`) } : {}),
        })));
        return { orderTransactions: toWireTransactions(order) };
      });
    }

    // The order-transactions module: an order's payments and refunds, at wixapis.com and at a custom host.
    for (const path of ['/ecom/v1/payments/orders/:orderId', '/_api/ecom-payments/v1/payments/orders/:orderId', '/v1/payments/orders/:orderId']) {
      app.get(path, { config: { access: 'staff' }, schema: { params: Type.Object({ orderId: Id }), response: { 200: T.OrderTransactionsResponse } } }, async (req) => ({ orderTransactions: toWireTransactions(await orders.getOrder(req.ctx, req.params.orderId)) }));
    }

    // The SDK sends bulk mark-as-paid to this path verbatim on every host.
    for (const path of ['/v1/bulk/payments-collector/mark-as-paid', '/ecom/v1/bulk/payments-collector/mark-as-paid']) {
      app.post(path, { config: { access: 'staff' }, schema: { body: BulkMarkPaidBody, response: { 200: BulkMarkAsPaidResponse } } }, async (req) => {
        const ids = req.body.ecomOrderIds;
        const results = await orders.bulkMarkAsPaid(req.ctx, ids);
        const base = await pageBase(req.ctx);
        return {
          results: results.map((r, i) => ({
            itemMetadata: {
              id: r.id,
              originalIndex: i,
              success: !r.error,
              ...(r.error ? { error: { code: r.error.code, description: r.error.message, data: r.error.data } } : {}),
            },
            ...(r.order ? { item: wire(base, r.order) } : {}),
          })),
          bulkActionMetadata: { totalSuccesses: results.filter((r) => !r.error).length, totalFailures: results.filter((r) => r.error).length, undetailedFailures: 0 },
        };
      });
    }

    for (const prefix of FULFILLMENT_PREFIXES) {
      const params = { params: Type.Object({ orderId: Id }) };
      app.post(`${prefix}/orders/:orderId/create-fulfillment`, { config: { access: 'staff' }, schema: { body: FulfillmentBody, ...params, response: { 200: T.CreateFulfillmentResponse } } }, async (req) => {
        const f = req.body.fulfillment;
        const tracking = f.trackingInfo;
        const { order, fulfillmentId } = await orders.createFulfillment(req.ctx, req.params.orderId, {
          lineItems: (f.lineItems ?? []).map((l) => ({ id: l.id, ...(l.quantity ? { quantity: l.quantity } : {}) })),
          ...(tracking && {
            trackingInfo: {
              ...(tracking.trackingNumber ? { trackingNumber: tracking.trackingNumber } : {}),
              ...(tracking.shippingProvider ? { shippingProvider: tracking.shippingProvider } : {}),
              ...(tracking.trackingLink ? { trackingLink: tracking.trackingLink } : {}),
            },
          }),
        });
        return { fulfillmentId, orderWithFulfillments: { orderId: order.id, fulfillments: order.fulfillments.map(toWireFulfillment) } };
      });

      app.get(`${prefix}/orders/:orderId`, { config: { access: 'shop' }, schema: { ...params, response: { 200: T.FulfillmentsResponse } } }, async (req) => {
        const order = await orders.getOrder(req.ctx, req.params.orderId);
        return { orderWithFulfillments: { orderId: order.id, fulfillments: order.fulfillments.map(toWireFulfillment) } };
      });
    }
  };
}
