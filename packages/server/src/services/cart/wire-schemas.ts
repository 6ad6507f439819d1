// The cart's answers as cart/wire.ts writes them (@wix/ecom's currentCart and cart calls): the
// schemas the answers are written through, documented by and the SDK's Cart types.
import { Type } from 'typebox';
import * as C from '../commerce/wire-schemas.js';

export const LineItem = Type.Object({ ...C.lineItemProperties, image: Type.Optional(C.Image) }, { title: 'LineItem' });

export const SelectedShippingOption = Type.Object({ code: Type.String(), carrierId: Type.Optional(Type.String()) }, { title: 'SelectedShippingOption' });

export const Cart = Type.Object({
  id: Type.String(),
  lineItems: Type.Array(LineItem),
  subtotal: { ...C.MultiCurrencyPrice, description: 'The lines before discounts (not in the SDK typings, but templates render it).' },
  buyerNote: Type.Optional(Type.String()),
  buyerInfo: C.BuyerInfo,
  currency: Type.String(),
  conversionCurrency: Type.String(),
  paymentCurrency: Type.String(),
  buyerLanguage: Type.String(),
  siteLanguage: Type.String(),
  taxIncludedInPrices: Type.Boolean(),
  weightUnit: C.WeightUnit,
  checkoutId: Type.Optional(Type.String()),
  appliedDiscounts: Type.Array(C.AppliedDiscount),
  ...C.Timestamps,
  contactInfo: Type.Optional(C.AddressWithContact),
  selectedShippingOption: Type.Optional(SelectedShippingOption),
  businessLocationId: Type.Optional(Type.String()),
}, { title: 'Cart' });

export const CartResponse = Type.Object({ cart: Cart }, { title: 'CartResponse' });

export const EstimateTotalsResponse = Type.Object({
  cart: Cart,
  ...C.pricingProperties,
  shippingInfo: Type.Object(C.shippingInfoProperties),
  weightUnit: C.WeightUnit,
  payNow: C.PriceSummary,
  payLater: C.PriceSummary,
  membershipOptions: Type.Object({
    eligibleMemberships: Type.Array(Type.Unknown()),
    invalidMemberships: Type.Array(Type.Unknown()),
    selectedMemberships: Type.Array(Type.Unknown()),
  }),
  additionalFees: Type.Array(C.AdditionalFee),
}, { title: 'EstimateTotalsResponse' });

export const Empty = Type.Object({}, { description: 'Nothing: the cart is deleted.' });
