// The one way anything that holds lines (a cart, a checkout) asks for a price: pricingRequest()
// builds the request from the holder and what the call adds (addresses, a coupon to try, which
// parts to calculate); pricingInput() turns it, with the resolved lines, the site's settings and
// the coupon found, into priceCart's input.
import type { SiteContext } from '../../../platform/context.js';
import { ApiError } from '../../../platform/errors.js';
import type { CommerceSettings } from '../../commerce-settings/service.js';
import type { Coupon } from '../../coupons/service.js';
import { addressRegion, type LineRef, type ResolvedLine } from '../lines.js';
import type { Address, CouponDefinition, MerchantDiscount, PricedCart, PricingInput, PricingLine, TipChoice } from './model.js';

/** Lines and the pricing of anything that holds lines (a cart or a checkout). */
export interface PricingRequest {
  siteId: string;
  currency: string;
  now: Date;
  lines: readonly LineRef[];
  couponCode: string | null;
  merchantDiscounts: readonly MerchantDiscount[];
  shippingAddress?: Address;
  billingAddress?: Address;
  selectedShippingOptionCode?: string | null;
  calculateTax?: boolean;
  calculateShipping?: boolean;
  /** A checkout's tip choice, with the tip's id (the checkout's). */
  tip?: { id: string; choice: TipChoice };
}

export function couponDefinition(coupon: Coupon | undefined): CouponDefinition | null {
  if (!coupon || !coupon.active) return null;
  return {
    ...coupon.discount,
    id: coupon.id,
    name: coupon.name,
    ...(coupon.minimumSubtotal !== null && { minimumSubtotal: coupon.minimumSubtotal }),
    ...(coupon.validFrom && { validFrom: coupon.validFrom }),
    ...(coupon.validUntil && { validUntil: coupon.validUntil }),
    usageLimit: coupon.usageLimit,
    timesUsed: coupon.timesUsed,
    productIds: coupon.productIds,
  };
}

/** What holds lines and is priced: a cart or a checkout. */
export interface LineHolder {
  currency: string;
  lines: readonly LineRef[];
  couponCode: string | null;
  merchantDiscounts: readonly MerchantDiscount[];
}

/** What a call adds to the holder's own: wire addresses, a coupon to try instead, the parts to price. */
export interface PricingOptions {
  couponCode?: string | null;
  shippingAddress?: Record<string, unknown> | null;
  billingAddress?: Record<string, unknown> | null;
  selectedShippingOptionCode?: string | null;
  calculateTax?: boolean;
  calculateShipping?: boolean;
  /** The holder's tip choice (a checkout's), priced with the site's tip settings. */
  tip?: { id: string; choice: TipChoice } | null;
}

/** Lines, discounts and the coupon only: no shipping or tax (a cart's view, a coupon check). */
export const LINES_ONLY: PricingOptions = { calculateShipping: false, calculateTax: false };

export function pricingRequest(ctx: SiteContext, holder: LineHolder, options: PricingOptions = {}): PricingRequest {
  const shipping = addressRegion(options.shippingAddress);
  const billing = addressRegion(options.billingAddress);
  return {
    siteId: ctx.siteId,
    currency: holder.currency,
    now: ctx.now(),
    lines: holder.lines,
    couponCode: options.couponCode !== undefined ? options.couponCode : holder.couponCode,
    merchantDiscounts: holder.merchantDiscounts,
    ...(shipping && { shippingAddress: shipping }),
    ...(billing && { billingAddress: billing }),
    ...(options.selectedShippingOptionCode !== undefined && { selectedShippingOptionCode: options.selectedShippingOptionCode }),
    ...(options.calculateTax !== undefined && { calculateTax: options.calculateTax }),
    ...(options.calculateShipping !== undefined && { calculateShipping: options.calculateShipping }),
    ...(options.tip && { tip: options.tip }),
  };
}

export function toPricingLines(lines: readonly ResolvedLine[]): PricingLine[] {
  return lines.map((line) => ({
    id: line.ref.id,
    ...(line.productId !== undefined && { productId: line.productId }),
    itemType: line.itemType,
    quantity: line.ref.quantity,
    price: line.price,
    fullPrice: line.fullPrice,
    ...(line.weight !== null && { weight: line.weight }),
    taxable: line.ref.custom ? line.ref.custom.taxable : true,
    stock: line.stock,
  }));
}

export interface PricingContext {
  currency: string;
  now: Date;
  settings: CommerceSettings;
  couponCode?: string | null;
  /** The site's coupon for couponCode; null when there is none. */
  coupon?: CouponDefinition | null;
  merchantDiscounts?: readonly MerchantDiscount[];
  shippingAddress?: Address | null;
  billingAddress?: Address | null;
  selectedShippingOptionCode?: string | null;
  calculateTax?: boolean;
  calculateShipping?: boolean;
  tip?: { id: string; choice: TipChoice };
}

export function pricingInput(lines: readonly ResolvedLine[], c: PricingContext): PricingInput {
  return {
    currency: c.currency,
    now: c.now,
    lines: toPricingLines(lines),
    ...(c.couponCode ? { coupon: { code: c.couponCode, definition: c.coupon ?? null } } : {}),
    ...(c.merchantDiscounts?.length ? { merchantDiscounts: c.merchantDiscounts } : {}),
    ...(c.shippingAddress ? { shippingAddress: c.shippingAddress } : {}),
    ...(c.billingAddress ? { billingAddress: c.billingAddress } : {}),
    ...(c.selectedShippingOptionCode ? { selectedShippingOptionCode: c.selectedShippingOptionCode } : {}),
    shippingRegions: c.settings.shippingRegions,
    pickupOptions: c.settings.pickupOptions,
    ...(c.settings.tax ? { tax: c.settings.tax } : {}),
    ...(c.settings.additionalFees.length ? { additionalFees: c.settings.additionalFees } : {}),
    ...(c.calculateTax !== undefined && { calculateTax: c.calculateTax }),
    ...(c.calculateShipping !== undefined && { calculateShipping: c.calculateShipping }),
    ...(c.tip && { tip: { ...c.tip, settings: c.settings.tips } }),
  };
}

/** Applying a coupon the cart cannot use fails with the reason pricing gives (NOT_FOUND, EXPIRED, …). */
export function throwIfCouponRejected(priced: PricedCart): void {
  if (priced.coupon?.status === 'REJECTED') {
    throw new ApiError(400, priced.coupon.reason, priced.coupon.description, { couponCode: priced.coupon.code, reason: priced.coupon.reason });
  }
}
