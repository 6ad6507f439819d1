// Cart → eCommerce wire: the cart and its estimate (the shared line-item and input shapes are the
// commerce kernel's, commerce/wire.ts).
import { multiply, toWireMoney } from '../../platform/money.js';
import { toWirePricing } from '../commerce/pricing/wire.js';
import { toWireLineItem, wireBuyer, zeroSummary } from '../commerce/wire.js';
import type { CartView } from './model.js';

export function toWireCart(view: CartView, publicUrl: string) {
  const { cart, priced, settings } = view;
  return {
    id: cart.id,
    lineItems: view.lines.map((line) => toWireLineItem(line, cart.currency, publicUrl)),
    // Not in the typings of either SDK generation, but templates render cart.subtotal.
    subtotal: toWireMoney(view.lines.reduce((sum, line) => sum + multiply(line.price, line.ref.quantity), 0n), cart.currency),
    ...(cart.buyerNote ? { buyerNote: cart.buyerNote } : {}),
    buyerInfo: wireBuyer(cart.buyer),
    currency: cart.currency,
    conversionCurrency: cart.currency,
    paymentCurrency: cart.currency,
    buyerLanguage: 'en',
    siteLanguage: 'en',
    taxIncludedInPrices: settings.tax?.pricesIncludeTax ?? false,
    weightUnit: settings.weightUnit,
    ...(cart.checkoutId ? { checkoutId: cart.checkoutId } : {}),
    appliedDiscounts: priced.appliedDiscounts.map((d) =>
      d.source === 'COUPON'
        ? { coupon: { ...(d.coupon.id !== undefined && { id: d.coupon.id }), code: d.coupon.code } }
        : { merchantDiscount: { amount: toWireMoney(d.amount, cart.currency) } },
    ),
    createdDate: cart.createdDate.toISOString(),
    updatedDate: cart.updatedDate.toISOString(),
    ...(cart.contactInfo ? { contactInfo: cart.contactInfo } : {}),
    ...(cart.selectedShippingOption ? { selectedShippingOption: cart.selectedShippingOption } : {}),
    ...(cart.businessLocationId ? { businessLocationId: cart.businessLocationId } : {}),
  };
}

/** estimate-totals: the cart and its full pricing. */
export function toWireEstimate(view: CartView, publicUrl: string) {
  const pricing = toWirePricing(view.priced);
  return {
    cart: toWireCart(view, publicUrl),
    ...pricing,
    weightUnit: view.settings.weightUnit,
    payNow: pricing.priceSummary,
    payLater: zeroSummary(view.cart.currency),
    membershipOptions: { eligibleMemberships: [], invalidMemberships: [], selectedMemberships: [] },
    additionalFees: pricing.additionalFees,
  };
}
