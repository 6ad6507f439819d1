/** `@wix/ecom` orders (and its payments-collector calls). */
import { call, enc } from '../core/generated.js';
import { ORDERS, PAYMENTS_COLLECTOR } from '../core/paths.js';
import type { Transport } from '../core/transport.js';
import type { Order, OrderActivity, OrderStatus, SearchOrdersResponse } from '../types.js';

const P = `${ORDERS}/orders`;
const PC = `${PAYMENTS_COLLECTOR}/orders`;
const ID = { id: '_id', '*': 'options' };
const OPTIONS = { '*': 'options' };

export interface OrderSearch {
  filter?: Record<string, unknown>;
  sort?: { fieldName: string; order?: 'ASC' | 'DESC' }[];
  cursorPaging?: { limit?: number; cursor?: string };
}
type OrderResponse = { order?: Order };
type Price = { amount: string };

export function orders(t: Transport) {
  return {
    getOrder: (_id: string) => call<Order>(t, 'GET', `${P}/${enc(_id)}`, { id: _id }, { args: ID, pick: 'order' }),
    searchOrders: (search: OrderSearch = {}) =>
      call<SearchOrdersResponse>(t, 'POST', `${P}/search`, { search }, { args: { search: 'search' } }),
    createOrder: (order: Partial<Order>, options: { settings?: Record<string, unknown> } = {}) =>
      call<Order>(t, 'POST', P, { order, ...options }, { args: { order: 'order', '*': 'options' }, pick: 'order' }),
    updateOrder: (_id: string, order: Partial<Order>) =>
      call<Order>(t, 'PATCH', `${P}/${enc(_id)}`, { order: { ...order, id: _id } }, {
        args: { 'order.id': '_id' },
        pick: 'order',
      }),
    bulkUpdateOrders: (
      updates: { order: Partial<Order>; fieldMask?: string[] }[],
      options: { returnEntity?: boolean } = {},
    ) =>
      call<{ results: Record<string, unknown>[]; bulkActionMetadata?: Record<string, unknown> }>(
        t,
        'POST',
        `${ORDERS}/bulk/orders/update`,
        { orders: updates, ...options },
        { args: { orders: 'orders', '*': 'options' } },
      ),
    cancelOrder: (
      _id: string,
      options: { sendOrderCanceledEmail?: boolean; customMessage?: string; restockAllItems?: boolean } = {},
    ) => call<OrderResponse>(t, 'POST', `${P}/${enc(_id)}/cancel`, { id: _id, ...options }, { args: ID }),
    updateOrderStatus: (orderId: string, status: OrderStatus) =>
      call<OrderResponse>(t, 'POST', `${P}/${enc(orderId)}/update-status`, { orderId, status }),
    addActivity: (_id: string, activity: Partial<OrderActivity> & { customActivity?: { type: string; appId?: string; additionalData?: Record<string, string> } }) =>
      call<{ order?: Order; activityId?: string }>(t, 'POST', `${P}/${enc(_id)}/activities`, { id: _id, activity }, {
        args: { id: '_id' },
      }),
    updateActivity: (identifiers: { _id: string; activityId: string }, activity: OrderActivity) =>
      call<OrderResponse>(
        t,
        'PATCH',
        `${P}/${enc(identifiers._id)}/activities/${enc(identifiers.activityId)}`,
        { id: identifiers._id, activityId: identifiers.activityId, activity },
        { args: { id: 'identifiers._id', activityId: 'identifiers.activityId' } },
      ),
    deleteActivity: (identifiers: { _id: string; activityId: string }) =>
      call<OrderResponse>(
        t,
        'DELETE',
        `${P}/${enc(identifiers._id)}/activities/${enc(identifiers.activityId)}`,
        { id: identifiers._id, activityId: identifiers.activityId },
        { args: { id: 'identifiers._id', activityId: 'identifiers.activityId' } },
      ),
    aggregateOrders: (options: { filter?: Record<string, unknown>; aggregation?: Record<string, unknown> } = {}) =>
      call<{ aggregates?: Record<string, unknown> }>(t, 'POST', `${P}/aggregate`, { ...options }, { args: OPTIONS }),
    bulkUpdateOrderTags: (orderIds: string[], options: { assignTags?: unknown; unassignTags?: unknown } = {}) =>
      call<{ results: Record<string, unknown>[] }>(t, 'POST', `${ORDERS}/bulk/orders/update-tags`, {
        orderIds,
        ...options,
      }, { args: { orderIds: 'orderIds', '*': 'options' } }),
    importOrder: (order: Partial<Order>) => call<OrderResponse>(t, 'POST', `${P}/import`, { order }),
    getPaymentCollectabilityStatus: (ecomOrderId: string) =>
      call<{ status?: string; amount?: Price }>(t, 'GET', `${PC}/${enc(ecomOrderId)}/payment-collectability-status`, {
        ecomOrderId,
      }),
    getRefundabilityStatus: (ecomOrderId: string) =>
      call<{ refundabilities?: Record<string, unknown>[]; refundablePerItem?: boolean }>(
        t,
        'GET',
        `${PC}/${enc(ecomOrderId)}/refundability`,
        { ecomOrderId },
      ),
    recordManuallyCollectedPayment: (
      orderId: string,
      amount: Price,
      options: { userDefinedPaymentMethodName?: Record<string, unknown> } = {},
    ) =>
      call<Record<string, never>>(t, 'POST', `${PC}/${enc(orderId)}/manual-payment`, { orderId, amount, ...options }, {
        args: { orderId: 'orderId', amount: 'amount', '*': 'options' },
      }),
    paymentCollectionMarkOrderAsPaid: (
      ecomOrderId: string,
      options: { userDefinedPaymentMethodName?: Record<string, unknown> } = {},
    ) =>
      call<OrderResponse>(t, 'POST', `${PC}/${enc(ecomOrderId)}/mark-as-paid`, { ecomOrderId, ...options }, {
        args: { ecomOrderId: 'ecomOrderId', '*': 'options' },
      }),
    // The official SDK sends this one verbatim, without a host mapping (wire-surface §1.2).
    paymentCollectionBulkMarkOrdersAsPaid: (ecomOrderIds: string[]) =>
      call<{ results: Record<string, unknown>[] }>(t, 'POST', '/v1/bulk/payments-collector/mark-as-paid', {
        ecomOrderIds,
      }),
    triggerRefund: (
      ecomOrderId: string,
      payments: { paymentId: string; amount?: Price }[],
      options: { details?: Record<string, unknown>; sideEffects?: Record<string, unknown> } = {},
    ) =>
      call<Record<string, unknown>>(t, 'POST', `${PC}/${enc(ecomOrderId)}/trigger-refund`, {
        ecomOrderId,
        payments,
        ...options,
      }, { args: { ecomOrderId: 'ecomOrderId', payments: 'payments', '*': 'options' } }),
  };
}
