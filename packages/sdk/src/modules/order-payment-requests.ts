/**
 * `@wix/ecom` orderPaymentRequests: an order's balance asked of the customer through a signed,
 * expiring link to the shop's payment step; and Bodega's "send the link by e-mail".
 */
import { call, enc } from '../core/generated.js';
import type { Transport } from '../core/transport.js';

const P = '/ecom/v1/order-payment-requests';

export type OrderPaymentRequestStatus = 'UNPAID' | 'PAID' | 'EXPIRED' | 'VOIDED';
export interface OrderPaymentRequest {
  _id?: string;
  source?: { appId?: string; externalId?: string };
  status?: OrderPaymentRequestStatus;
  orderId?: string;
  orderNumber?: string;
  amount?: { amount?: string; formattedAmount?: string };
  currency?: string;
  title?: string;
  description?: string;
  expirationDate?: string;
  _createdDate?: Date;
  _updatedDate?: Date;
}
export interface NewOrderPaymentRequest {
  orderId: string;
  title?: string;
  description?: string;
  /** ISO timestamp; without it the request does not expire (its links last 30 days each). */
  expirationDate?: string;
}

export function orderPaymentRequests(t: Transport) {
  return {
    createOrderPaymentRequest: (options: { orderPaymentRequest: NewOrderPaymentRequest }) =>
      call<{ orderPaymentRequest?: OrderPaymentRequest; orderPaymentRequestUrl?: string }>(t, 'POST', P, { ...options }, { args: { '*': 'options' } }),
    getOrderPaymentRequest: (orderPaymentRequestId: string) =>
      call<OrderPaymentRequest>(t, 'GET', `${P}/${enc(orderPaymentRequestId)}`, {}, { pick: 'orderPaymentRequest' }),
    getOrderPaymentRequestUrl: (orderPaymentRequestId: string) =>
      call<{ orderPaymentRequestUrl?: string }>(t, 'POST', `${P}/url`, { orderPaymentRequestId }),
    queryOrderPaymentRequests: (query: { filter?: { orderId?: string; status?: OrderPaymentRequestStatus }; cursorPaging?: { limit?: number; cursor?: string } } = {}) =>
      call<{ orderPaymentRequests?: OrderPaymentRequest[]; pagingMetadata?: { hasNext?: boolean; cursors?: { next?: string } } }>(t, 'POST', `${P}/query`, { query }),
    voidOrderPaymentRequest: (orderPaymentRequestId: string) => call<Record<string, never>>(t, 'POST', `${P}/void`, { orderPaymentRequestId }),
    deleteOrderPaymentRequest: (orderPaymentRequestId: string) => call<Record<string, never>>(t, 'DELETE', `${P}/${enc(orderPaymentRequestId)}`),
    /** Bodega: e-mails the link to the order's buyer, or to `to`. */
    sendOrderPaymentRequest: (orderPaymentRequestId: string, options: { to?: string } = {}) =>
      call<{ orderPaymentRequest?: OrderPaymentRequest; to?: string }>(t, 'POST', `/_api/bodega/v1/order-payment-requests/${enc(orderPaymentRequestId)}/send`, { ...options }),
  };
}

export type OrderPaymentRequestsApi = ReturnType<typeof orderPaymentRequests>;
