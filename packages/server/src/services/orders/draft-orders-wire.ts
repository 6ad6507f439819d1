// Draft order → the @wix/ecom draftOrders wire (a calculatedDraftOrder): the checkout's priced
// lines as the draft's line items, its shipping choice, discounts and totals.
import { toWireMoney } from '../../platform/money.js';
import { toWirePricing } from '../commerce/pricing/wire.js';
import { toWireLineItem, wireBuyer } from '../commerce/wire.js';
import type { DraftOrderView } from './draft-orders.js';

/** The draft's checkout on the wire: its lines with their prices, and its pricing. */
function wireParts(view: DraftOrderView, publicUrl: string) {
  const { checkout, priced, lines } = view.checkout;
  const pricing = toWirePricing(priced);
  const calculated = new Map(pricing.calculatedLineItems.map((c) => [c.lineItemId, c.pricesBreakdown]));
  const lineItems = lines.map((line) => {
    const prices = calculated.get(line.ref.id);
    return {
      ...toWireLineItem(line, checkout.currency, publicUrl),
      ...(prices && { totalPriceAfterTax: prices.totalPriceAfterTax, totalPriceBeforeTax: prices.totalPriceBeforeTax, taxDetails: prices.taxDetails, totalDiscount: prices.totalDiscount }),
    };
  });
  return { pricing, lineItems };
}

export function toWireDraftOrder(view: DraftOrderView, publicUrl: string) {
  const { draft } = view;
  const { checkout, priced } = view.checkout;
  const { pricing, lineItems } = wireParts(view, publicUrl);
  const money = (minor: bigint) => toWireMoney(minor, checkout.currency);
  const selected = pricing.shippingInfo.selectedCarrierServiceOption;
  const merchantAmounts = new Map(priced.appliedDiscounts.flatMap((d) => (d.source === 'MERCHANT' && d.merchantDiscountId ? [[d.merchantDiscountId, d.amount] as const] : [])));
  const { subtotal, shipping, tax, discount, total } = priced.totals;
  return {
    id: draft.id,
    ...(draft.orderId || draft.edits ? { orderId: draft.orderId ?? draft.edits?.orderId } : {}),
    status: draft.status,
    lineItems: lineItems.map((lineItem) => (draft.edits ? { lineItem } : { added: true, lineItem })),
    buyerInfo: wireBuyer(checkout.buyer, checkout.email),
    ...(checkout.billingInfo ? { billingInfo: checkout.billingInfo } : {}),
    shippingInfo: {
      shippingInfo: {
        ...(selected ? { code: selected.code, title: selected.title, carrierId: selected.carrierId, cost: { price: selected.cost.price } } : {}),
        logistics: {
          ...(checkout.shippingDestination ? { shippingDestination: checkout.shippingDestination } : {}),
          ...(selected?.logistics ?? {}),
        },
        ...(pricing.shippingInfo.region ? { region: pricing.shippingInfo.region } : {}),
      },
    },
    discounts: checkout.merchantDiscounts.map((d) => ({
      discount: {
        id: d.id ?? '',
        discountType: d.lineItemIds?.length ? 'SPECIFIC_ITEMS' : 'GLOBAL',
        merchantDiscount: { amount: money(merchantAmounts.get(d.id ?? '') ?? 0n), ...(d.type === 'PERCENT' ? { percentage: d.percent } : {}) },
        ...(d.lineItemIds?.length ? { lineItemIds: [...d.lineItemIds] } : {}),
      },
      applied: true,
      source: 'CUSTOM',
    })),
    appliedDiscounts: pricing.appliedDiscounts,
    priceSummary: { subtotal: money(subtotal), shipping: money(shipping), tax: money(tax), discount: money(discount), total: money(total), totalAdditionalFees: money(0n) },
    taxSummary: { totalTax: money(tax) },
    balanceSummary: { balance: { amount: money(total).amount, formattedAmount: money(total).formattedAmount }, paid: money(0n), refunded: money(0n), authorized: money(0n) },
    currency: checkout.currency,
    weightUnit: view.checkout.settings.weightUnit,
    ...(checkout.buyerNote ? { buyerNote: checkout.buyerNote } : {}),
    createdBy: draft.createdBy.kind === 'APP' ? { appId: draft.createdBy.id } : { userId: draft.createdBy.id },
    createdDate: draft.createdDate.toISOString(),
    updatedDate: draft.updatedDate.toISOString(),
  };
}

/** The draft as a calculatedDraftOrder: with the shipping options its address has, and what stops it becoming an order. */
export function toWireCalculated(view: DraftOrderView, publicUrl: string) {
  const pricing = toWirePricing(view.checkout.priced);
  const shippingOptions = pricing.shippingInfo.carrierServiceOptions.flatMap((carrier) =>
    carrier.shippingOptions.map((o) => ({ carrierId: carrier.carrierId, code: o.code, title: o.title, logistics: o.logistics, cost: o.cost })));
  const errors = pricing.calculationErrors;
  return {
    draftOrder: toWireDraftOrder(view, publicUrl),
    shippingOptions,
    ...(errors || pricing.violations.length ? { calculationErrors: { ...(errors ?? {}), ...(pricing.violations.length ? { violations: pricing.violations } : {}) } } : {}),
  };
}
