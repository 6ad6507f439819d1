/** `@wix/ecom` currentCart: the cart of the caller's token (visitor or member). */
import { call, callVoid } from '../core/generated.js';
import { CURRENT_CART as P } from '../core/paths.js';
import type { Transport } from '../core/transport.js';
import type {
  Address, Cart, CartResponse, CartUpdate, ChannelType, CustomLineItem, EstimateTotalsResponse, LineItemInput,
  SelectedShippingOption,
} from '../types.js';

const OPTIONS = { '*': 'options' };

export interface UpdateCurrentCartOptions {
  cartInfo?: CartUpdate;
  couponCode?: string;
  merchantDiscounts?: { amount: string; lineItemIds?: string[] }[];
  lineItems?: LineItemInput[];
  customLineItems?: CustomLineItem[];
}
export interface AddToCurrentCartOptions {
  lineItems?: LineItemInput[];
  customLineItems?: CustomLineItem[];
  businessLocationId?: string;
}
export interface CreateCheckoutOptions {
  channelType?: ChannelType;
  shippingAddress?: Address;
  billingAddress?: Address;
  selectedShippingOption?: SelectedShippingOption;
  email?: string;
}
export interface EstimateTotalsOptions {
  selectedShippingOption?: SelectedShippingOption;
  shippingAddress?: Address;
  billingAddress?: Address;
  selectedMemberships?: { memberships?: Record<string, unknown>[] };
  calculateTax?: boolean;
  calculateShipping?: boolean;
  calculateAdditionalFees?: boolean;
}

export function currentCart(t: Transport) {
  return {
    getCurrentCart: () => call<Cart>(t, 'GET', P, {}, { pick: 'cart' }),
    updateCurrentCart: (options: UpdateCurrentCartOptions = {}) =>
      call<Cart>(t, 'PATCH', P, { ...options }, { args: OPTIONS, pick: 'cart' }),
    addToCurrentCart: (options: AddToCurrentCartOptions = {}) =>
      call<CartResponse>(t, 'POST', `${P}/add-to-cart`, { ...options }, { args: OPTIONS }),
    removeLineItemsFromCurrentCart: (lineItemIds: string[]) =>
      call<CartResponse>(t, 'POST', `${P}/remove-line-items`, { lineItemIds }),
    createCheckoutFromCurrentCart: (options: CreateCheckoutOptions = {}) =>
      call<{ checkoutId: string }>(t, 'POST', `${P}/create-checkout`, { ...options }, { args: OPTIONS }),
    removeCouponFromCurrentCart: () => call<CartResponse>(t, 'POST', `${P}/remove-coupon`),
    updateCurrentCartLineItemQuantity: (lineItems: { _id: string; quantity: number }[]) =>
      call<CartResponse>(t, 'POST', `${P}/update-line-items-quantity`, { lineItems }),
    estimateCurrentCartTotals: (options: EstimateTotalsOptions = {}) =>
      call<EstimateTotalsResponse>(t, 'POST', `${P}/estimate-totals`, { ...options }, { args: OPTIONS }),
    deleteCurrentCart: () => callVoid(t, 'DELETE', P),
  };
}
