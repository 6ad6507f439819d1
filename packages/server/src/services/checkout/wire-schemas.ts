// The checkout's answers as checkout/wire.ts writes them (@wix/ecom's checkout calls): the
// schemas the answers are written through, documented by and the SDK's Checkout types.
// Gift cards add `giftCard`, `giftCards` and `giftCardsTotal` (gift-cards/wire.ts).
import { Type } from 'typebox';
import * as C from '../commerce/wire-schemas.js';

export const CheckoutLineItem = Type.Object({
  ...C.lineItemProperties,
  media: Type.Optional(C.Image),
  totalPriceAfterTax: Type.Optional(C.MultiCurrencyPrice),
  totalPriceBeforeTax: Type.Optional(C.MultiCurrencyPrice),
  taxDetails: Type.Optional(C.TaxDetails),
  discount: Type.Optional(C.MultiCurrencyPrice),
}, { title: 'CheckoutLineItem' });

/** A gift card on a checkout: what it pays of the total (`priceSummary.total` is what is left). */
export const CheckoutGiftCard = Type.Object({
  id: Type.String(),
  obfuscatedCode: Type.String(),
  amount: C.MultiCurrencyPrice,
  appId: Type.String(),
  error: Type.Optional(C.ApplicationError),
}, { title: 'CheckoutGiftCard' });

export const CheckoutShippingInfo = Type.Object({
  shippingDestination: Type.Optional(C.AddressWithContact),
  ...C.shippingInfoProperties,
}, { title: 'CheckoutShippingInfo' });

export const Checkout = Type.Object({
  id: Type.String(),
  lineItems: Type.Array(CheckoutLineItem),
  billingInfo: Type.Optional(C.AddressWithContact),
  shippingInfo: CheckoutShippingInfo,
  buyerNote: Type.Optional(Type.String()),
  buyerInfo: C.BuyerInfo,
  conversionCurrency: Type.String(),
  priceSummary: { ...C.PriceSummary, description: 'The total is what is left after gift cards.' },
  giftCard: Type.Optional({ ...CheckoutGiftCard, description: 'The first gift card entered (Wix holds one).' }),
  giftCards: Type.Array(CheckoutGiftCard, { description: 'Every gift card entered (Bodega).' }),
  giftCardsTotal: Type.Optional(C.MultiCurrencyPrice),
  calculationErrors: Type.Optional(C.CalculationErrors),
  appliedDiscounts: Type.Array(C.AppliedDiscount),
  customFields: Type.Array(Type.Unknown()),
  weightUnit: C.WeightUnit,
  taxSummary: C.TaxSummary,
  currency: Type.String(),
  paymentCurrency: Type.String(),
  channelType: Type.String(),
  siteLanguage: Type.String(),
  buyerLanguage: Type.String(),
  completed: Type.Boolean(),
  taxIncludedInPrice: Type.Boolean(),
  createdBy: Type.Object({ visitorId: Type.Optional(Type.String()), memberId: Type.Optional(Type.String()), appId: Type.Optional(Type.String()) }),
  ...C.Timestamps,
  payNow: C.PriceSummary,
  payLater: C.PriceSummary,
  membershipOptions: Type.Object({
    eligibleMemberships: Type.Array(Type.Unknown()),
    invalidMemberships: Type.Array(Type.Unknown()),
    selectedMemberships: Type.Object({ memberships: Type.Array(Type.Unknown()) }),
  }),
  additionalFees: Type.Array(C.AdditionalFee),
  cartId: Type.Optional(Type.String()),
  purchaseFlowId: Type.String({ description: 'The purchase flow (the checkout\'s id): the official tips calls\' key for the tip chosen here.' }),
  violations: Type.Array(C.Violation),
}, { title: 'Checkout' });

export const CheckoutResponse = Type.Object({ checkout: Checkout }, { title: 'CheckoutResponse' });
export const CheckoutUrlResponse = Type.Object({ checkoutUrl: Type.String() }, { title: 'CheckoutUrlResponse' });
export const CreateOrderResponse = Type.Object({ orderId: Type.String() }, { title: 'CreateOrderResponse' });
export const CreateCheckoutResponse = Type.Object({ checkoutId: Type.String() }, { title: 'CreateCheckoutResponse' });
