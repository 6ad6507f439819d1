/** `@wix/ecom` checkout. */
import { call, callVoid, enc } from '../core/generated.js';
import { CHECKOUTS as P } from '../core/paths.js';
import type { Transport } from '../core/transport.js';
import type { ChannelType, Checkout, CheckoutUpdate, CustomLineItem, LineItemInput } from '../types.js';

const ID = { id: '_id', '*': 'options' };
const path = (id: string, suffix = ''): string => `${P}/${enc(id)}${suffix}`;

export interface CreateCheckoutOptions {
  checkoutInfo?: CheckoutUpdate;
  couponCode?: string;
  lineItems?: LineItemInput[];
  customLineItems?: CustomLineItem[];
  channelType?: ChannelType;
  giftCardCode?: string;
  overrideCheckoutUrl?: string;
  giftCardRedeemAmount?: string;
}
export interface UpdateCheckoutOptions {
  couponCode?: string;
  giftCardCode?: string;
  overrideCheckoutUrl?: string;
  lineItems?: LineItemInput[];
  customLineItems?: CustomLineItem[];
  giftCardRedeemAmount?: string;
}
export interface CreateOrderOptions {
  savePaymentMethod?: boolean;
  delayCapture?: boolean;
  inAppPurchase?: boolean;
}
export interface CreateOrderResponse {
  orderId?: string;
  subscriptionId?: string;
  paymentGatewayOrderId?: string;
}
type CheckoutResponse = { checkout?: Checkout };

export function checkout(t: Transport) {
  return {
    createCheckout: (options: CreateCheckoutOptions = {}) =>
      call<Checkout>(t, 'POST', P, { ...options }, { args: { '*': 'options' }, pick: 'checkout' }),
    getCheckout: (_id: string) => call<Checkout>(t, 'GET', path(_id), { id: _id }, { args: ID, pick: 'checkout' }),
    getCheckoutByCartId: (_id: string) =>
      call<CheckoutResponse>(t, 'GET', `${P}/by-cart-id/${enc(_id)}`, { id: _id }, { args: ID }),
    getCheckoutUrl: (_id: string) =>
      call<{ checkoutUrl: string }>(t, 'GET', path(_id, '/checkout-url'), { id: _id }, { args: ID }),
    getWixCheckoutUrl: (_id: string) =>
      call<{ checkoutUrl: string }>(t, 'GET', path(_id, '/wix-checkout-url'), { id: _id }, { args: ID }),
    updateCheckout: (_id: string, update: CheckoutUpdate, options: UpdateCheckoutOptions = {}) =>
      call<Checkout>(
        t,
        'PATCH',
        path(_id),
        { checkout: { ...update, id: _id }, ...options },
        { args: { 'checkout.id': '_id', checkout: 'checkout', '*': 'options' }, pick: 'checkout' },
      ),
    removeCoupon: (_id: string) =>
      call<CheckoutResponse>(t, 'POST', path(_id, '/remove-coupon'), { id: _id }, { args: ID }),
    removeGiftCard: (_id: string) =>
      call<CheckoutResponse>(t, 'POST', path(_id, '/remove-gift-card'), { id: _id }, { args: ID }),
    removeOverrideCheckoutUrl: (_id: string) =>
      call<CheckoutResponse>(t, 'POST', path(_id, '/remove-override-checkout-url'), { id: _id }, { args: ID }),
    addToCheckout: (_id: string, options: { lineItems?: LineItemInput[]; customLineItems?: CustomLineItem[] } = {}) =>
      call<CheckoutResponse>(t, 'POST', path(_id, '/add-to-checkout'), { id: _id, ...options }, { args: ID }),
    removeLineItems: (_id: string, lineItemIds: string[]) =>
      call<CheckoutResponse>(t, 'POST', path(_id, '/remove-line-items'), { id: _id, lineItemIds }, {
        args: { id: '_id' },
      }),
    updateLineItemsQuantity: (_id: string, lineItems: { _id: string; quantity: number }[]) =>
      call<CheckoutResponse>(t, 'POST', path(_id, '/update-line-items-quantity'), { id: _id, lineItems }, {
        args: { id: '_id' },
      }),
    createOrder: (_id: string, options: CreateOrderOptions = {}) =>
      call<CreateOrderResponse>(t, 'POST', path(_id, '/create-order'), { id: _id, ...options }, { args: ID }),
    createOrderAndCharge: (_id: string, options: CreateOrderOptions & { paymentToken?: string } = {}) =>
      call<CreateOrderResponse & { paymentResponseToken?: string }>(
        t,
        'POST',
        path(_id, '/create-order-and-charge'),
        { id: _id, ...options },
        { args: ID },
      ),
    markCheckoutAsCompleted: (_id: string, options: { orderId?: string } = {}) =>
      callVoid(t, 'POST', path(_id, '/mark-as-completed'), { id: _id, ...options }, { args: ID }),
  };
}
