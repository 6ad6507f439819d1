// Checkout → eCommerce wire: the cart's line items with their prices, addresses, shipping and totals.
import { toWirePricing } from '../commerce/pricing/wire.js';
import { toWireLineItem, wireBuyer, zeroSummary } from '../commerce/wire.js';
import type { CheckoutView } from './service.js';
import { checkoutGiftCardFields } from '../gift-cards/service.js';

export function toWireCheckout(view: CheckoutView, publicUrl: string) {
  const { checkout, priced, settings } = view;
  const pricing = toWirePricing(priced);
  const calculated = new Map(pricing.calculatedLineItems.map((c) => [c.lineItemId, c.pricesBreakdown]));
  const lineItems = view.lines.map((line) => {
    const { image, ...item } = toWireLineItem(line, checkout.currency, publicUrl);
    const prices = calculated.get(line.ref.id);
    return {
      ...item,
      ...(image ? { media: image } : {}),
      ...(prices && {
        totalPriceAfterTax: prices.totalPriceAfterTax,
        totalPriceBeforeTax: prices.totalPriceBeforeTax,
        taxDetails: prices.taxDetails,
        discount: prices.totalDiscount,
      }),
    };
  });
  const selected = pricing.shippingInfo.selectedCarrierServiceOption;
  const { priceSummary, giftCardCalculationError, ...giftCards } = checkoutGiftCardFields(view.giftCards, pricing.priceSummary, priced.totals.total, checkout.currency);
  const calculationErrors = giftCardCalculationError ? { ...pricing.calculationErrors, giftCardCalculationError } : pricing.calculationErrors;
  const createdBy = checkout.buyer.kind === 'visitor' ? { visitorId: checkout.buyer.id } : checkout.buyer.kind === 'member' ? { memberId: checkout.buyer.id } : { appId: checkout.buyer.id };
  return {
    id: checkout.id,
    lineItems,
    ...(checkout.billingInfo ? { billingInfo: checkout.billingInfo } : {}),
    shippingInfo: {
      ...(checkout.shippingDestination ? { shippingDestination: checkout.shippingDestination } : {}),
      ...(selected && {
        selectedCarrierServiceOption: {
          ...selected,
          logistics: { ...selected.logistics, ...(checkout.deliveryTimeSlot ? { deliveryTimeSlot: checkout.deliveryTimeSlot } : {}) },
        },
      }),
      ...(pricing.shippingInfo.region ? { region: pricing.shippingInfo.region } : {}),
      carrierServiceOptions: pricing.shippingInfo.carrierServiceOptions,
    },
    ...(checkout.buyerNote ? { buyerNote: checkout.buyerNote } : {}),
    buyerInfo: wireBuyer(checkout.buyer, checkout.email),
    conversionCurrency: checkout.currency,
    priceSummary,
    ...giftCards,
    ...(calculationErrors ? { calculationErrors } : {}),
    appliedDiscounts: pricing.appliedDiscounts,
    customFields: [],
    weightUnit: settings.weightUnit,
    taxSummary: pricing.taxSummary,
    currency: checkout.currency,
    paymentCurrency: checkout.currency,
    channelType: checkout.channelType,
    siteLanguage: 'en',
    buyerLanguage: 'en',
    completed: checkout.completed,
    taxIncludedInPrice: priced.tax.pricesIncludeTax,
    createdBy,
    createdDate: checkout.createdDate.toISOString(),
    updatedDate: checkout.updatedDate.toISOString(),
    payNow: priceSummary,
    payLater: zeroSummary(checkout.currency),
    membershipOptions: { eligibleMemberships: [], invalidMemberships: [], selectedMemberships: { memberships: [] } },
    additionalFees: pricing.additionalFees,
    ...(checkout.cartId ? { cartId: checkout.cartId } : {}),
    purchaseFlowId: checkout.id,
    violations: pricing.violations,
  };
}
