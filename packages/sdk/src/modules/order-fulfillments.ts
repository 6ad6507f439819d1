/** `@wix/ecom` orderFulfillments: an order's shipments with their tracking numbers. */
import { call, enc } from '../core/generated.js';
import type { Transport } from '../core/transport.js';

const P = '/ecom/v1/fulfillments/orders';

export interface FulfillmentTrackingInfo {
  trackingNumber?: string;
  shippingProvider?: string;
  trackingLink?: string;
}
export interface Fulfillment {
  _id?: string;
  _createdDate?: Date;
  lineItems?: { _id?: string; quantity?: number }[];
  trackingInfo?: FulfillmentTrackingInfo;
  status?: string;
  completed?: boolean;
}
export interface OrderWithFulfillments {
  orderId?: string;
  fulfillments?: Fulfillment[];
}

export function orderFulfillments(t: Transport) {
  return {
    listFulfillmentsForSingleOrder: (orderId: string) =>
      call<{ orderWithFulfillments?: OrderWithFulfillments }>(t, 'GET', `${P}/${enc(orderId)}`),
    /** Without `lineItems`, every line still to ship is fulfilled. */
    createFulfillment: (orderId: string, fulfillment: Omit<Fulfillment, '_id' | '_createdDate'>) =>
      call<{ fulfillmentId?: string; orderWithFulfillments?: OrderWithFulfillments }>(
        t,
        'POST',
        `${P}/${enc(orderId)}/create-fulfillment`,
        { orderId, fulfillment },
      ),
  };
}
