// The shapes pricing works on: lines with the catalog's word on them in, a priced cart out, and the
// small helpers the concerns (discounts, shipping, tax, totals) share. Pure: no I/O, no clock.
import type { AdditionalFeeRule, Address, FeeKind, PickupOption, ShippingCondition, ShippingRegion, ShippingRule, ShippingRuleOperator, TaxRate, TaxSettings, TipSettings, TipSplit, TipType } from '../../commerce-settings/service.js';

export interface PricedFee {
  /** The fee's kind, which is its code on the wire. */
  code: FeeKind;
  name: string;
  /** As the merchant set it: tax inside it when prices include tax. */
  price: bigint;
  tax: bigint;
  taxable: boolean;
}

export type ItemType = 'PHYSICAL' | 'DIGITAL' | 'GIFT_CARD' | 'SERVICE' | 'CUSTOM_AMOUNT_ITEM';
export type AvailabilityStatus = 'AVAILABLE' | 'NOT_FOUND' | 'NOT_AVAILABLE' | 'PARTIALLY_AVAILABLE';

/** What the catalog says about a line's item right now. Absent: found, in stock, not tracked. */
export interface StockInfo {
  /** The item still exists and is visible to the buyer. */
  found: boolean;
  inStock: boolean;
  /** Units left; null or absent when stock is not tracked (unlimited). */
  quantityAvailable?: number | null;
}

export interface PricingLine {
  id: string;
  productId?: string;
  itemType: ItemType;
  quantity: number;
  /** Unit price after the catalog's own discount, in minor units. */
  price: bigint;
  /** Unit price before the catalog's discount (compare-at); defaults to `price`. */
  fullPrice?: bigint;
  /** Weight of one unit in the site's weight unit. */
  weight?: string | number;
  /** False for lines the merchant does not tax (e.g. gift cards); default true. */
  taxable?: boolean;
  stock?: StockInfo;
}

/** A discount's value: a percent as a decimal string ("12.5") or an amount in minor units. */
export type DiscountValue = { type: 'PERCENT'; percent: string } | { type: 'AMOUNT'; amount: bigint };

export type CouponDefinition = DiscountValue & {
  id?: string;
  name?: string;
  /** Cart subtotal (before any discount) the buyer must reach, in minor units. */
  minimumSubtotal?: bigint;
  /** First instant the coupon works (inclusive). */
  validFrom?: Date;
  /** Instant the coupon stops working (exclusive). */
  validUntil?: Date;
  /** Null or absent: unlimited. */
  usageLimit?: number | null;
  timesUsed?: number;
  /** Only lines of these products are discounted; absent or empty: every line. */
  productIds?: readonly string[];
};

export type MerchantDiscount = DiscountValue & {
  id?: string;
  /** Only these lines are discounted; absent or empty: every line. */
  lineItemIds?: readonly string[];
};

// The shipping and tax shapes are the commerce settings' (read from the site by that service).
export type { AdditionalFeeRule, Address, FeeKind, PickupOption, ShippingCondition, ShippingRegion, ShippingRule, ShippingRuleOperator, TaxRate, TaxSettings, TipSettings, TipSplit, TipType };

/** What a shopper chose to tip (the official tipChoice): a preset percentage or amount, or their own amount (CUSTOM). */
export interface TipChoice {
  tipType: TipType;
  /** A percent ("15") for PERCENTAGE, else an amount in the shop's currency ("2.50"). */
  value: string;
}

/** A tip priced (tips.ts): untaxed, added to the total. */
export interface PricedTip {
  /** The tip's id (the purchase flow's: the checkout's), which is its additional fee's code on the wire. */
  id: string;
  type: TipType;
  value: string;
  /** Minor units. */
  amount: bigint;
  /** The goods after discounts it was counted on (the official tip's lineItemSubtotal). */
  goods: bigint;
  split: TipSplit;
}

export interface CouponInput {
  code: string;
  /** The site's coupon with this code; null when there is none. */
  definition: CouponDefinition | null;
}

export interface PricingInput {
  currency: string;
  /** Coupon validity is judged at this instant. */
  now: Date;
  lines: readonly PricingLine[];
  coupon?: CouponInput;
  /** Applied in this order, before the coupon. */
  merchantDiscounts?: readonly MerchantDiscount[];
  shippingAddress?: Address;
  /** Used for tax when nothing is shipped. */
  billingAddress?: Address;
  selectedShippingOptionCode?: string;
  shippingRegions?: readonly ShippingRegion[];
  pickupOptions?: readonly PickupOption[];
  tax?: TaxSettings;
  /** As estimate-totals sends it; default true. */
  calculateTax?: boolean;
  /** As estimate-totals sends it; default true. */
  calculateShipping?: boolean;
  /** The merchant's additional fees (fees.ts); none when absent. */
  additionalFees?: readonly AdditionalFeeRule[];
  /** The shopper's tip choice and the site's tip settings (tips.ts); no tip when absent or tips are off. */
  tip?: { id: string; choice: TipChoice; settings: TipSettings };
}

export interface PricedLine {
  id: string;
  quantity: number;
  itemType: ItemType;
  availability: { status: AvailabilityStatus; quantityAvailable?: number };
  /** False for NOT_FOUND and NOT_AVAILABLE lines, which are shown but left out of every total. */
  inTotals: boolean;
  price: bigint;
  fullPrice: bigint;
  /** price × quantity */
  lineSubtotal: bigint;
  discount: bigint;
  /** lineSubtotal − discount: the amount tax is computed on. */
  taxableAmount: bigint;
  tax: bigint;
  totalBeforeTax: bigint;
  totalAfterTax: bigint;
}

export type CouponRejection =
  | 'NOT_FOUND'
  | 'NOT_YET_VALID'
  | 'EXPIRED'
  | 'USAGE_LIMIT_REACHED'
  | 'NOT_APPLICABLE_TO_ITEMS'
  | 'MINIMUM_NOT_MET';

export type CouponOutcome =
  | { status: 'APPLIED'; code: string; id?: string; name?: string; amount: bigint }
  | { status: 'REJECTED'; code: string; reason: CouponRejection; description: string };

export type AppliedDiscount = {
  /** GLOBAL when it may touch every line, SPECIFIC_ITEMS when scoped. */
  discountType: 'GLOBAL' | 'SPECIFIC_ITEMS';
  amount: bigint;
  /** The lines it applies to. */
  lineItemIds: string[];
} & (
  | { source: 'COUPON'; coupon: { id?: string; code: string; name?: string } }
  | { source: 'MERCHANT'; merchantDiscountId?: string }
);

export type ShippingStatus =
  /** Nothing physical to ship. */
  | 'NOT_REQUIRED'
  /** calculateShipping was false. */
  | 'NOT_CALCULATED'
  /** Physical items, no destination and no pickup. */
  | 'DESTINATION_MISSING'
  /** Physical items and a destination, but no region or rule serves it and no pickup. */
  | 'NO_OPTIONS'
  | 'SELECTED';

export interface ShippingOptionResult {
  code: string;
  title: string;
  kind: 'DELIVERY' | 'PICKUP';
  cost: bigint;
  deliveryTime?: string;
  instructions?: string;
  pickupAddress?: Address & Record<string, unknown>;
}

export interface ShippingResult {
  status: ShippingStatus;
  region?: { id: string; name: string };
  options: ShippingOptionResult[];
  selected?: ShippingOptionResult & { requested: boolean };
  /** The selected option's cost as configured (tax inside it when prices include tax). */
  cost: bigint;
  tax: bigint;
  /** What the rules compared: physical lines only. */
  totalWeight: string;
  totalQuantity: number;
  totalPrice: bigint;
}

export type TaxStatus = 'NO_TAX_COLLECTED' | 'MANUAL_RATE';

export interface TaxResult {
  status: TaxStatus;
  /** Tax is computed and rounded half-even on each line, and on shipping, then summed. */
  rounding: 'HALF_EVEN_PER_LINE';
  pricesIncludeTax: boolean;
  rate?: { percent: string; name?: string; country: string; subdivision?: string };
  taxableAmount: bigint;
  total: bigint;
  lines: { lineItemId: string; taxableAmount: bigint; tax: bigint }[];
  shipping: { taxableAmount: bigint; tax: bigint };
}

export type ViolationCode =
  | 'LINE_ITEM_NOT_FOUND'
  | 'LINE_ITEM_OUT_OF_STOCK'
  | 'LINE_ITEM_PARTIALLY_AVAILABLE'
  | 'COUPON_INVALID'
  | 'SHIPPING_DESTINATION_MISSING'
  | 'NO_SHIPPING_OPTIONS'
  | 'SHIPPING_OPTION_UNAVAILABLE';

/** ERROR blocks checkout and order creation; WARNING lets the buyer go on. */
export interface Violation {
  code: ViolationCode;
  severity: 'WARNING' | 'ERROR';
  target: { lineItem: { id: string } } | { other: { name: 'OTHER_DEFAULT' | 'DELIVERY' } };
  description: string;
  suggestedFix?: 'REMOVE_LINE_ITEM';
}

export interface PricedCart {
  currency: string;
  lines: PricedLine[];
  totals: { subtotal: bigint; discount: bigint; shipping: bigint; tax: bigint; total: bigint };
  /** Additional fees, when the merchant set some and they apply; `totals.total` includes them (and `totals.tax` their tax). */
  additionalFees?: PricedFee[];
  additionalFeesBeforeTax?: bigint;
  /** The tip, when tips are on and the shopper chose one; `totals.total` includes it (untaxed). */
  tip?: PricedTip;
  appliedDiscounts: AppliedDiscount[];
  coupon?: CouponOutcome;
  shipping: ShippingResult;
  tax: TaxResult;
  violations: Violation[];
}


/** A line while it is priced: its input, what the catalog allows, and the discount taken from it so far. */
export interface WorkLine {
  input: PricingLine;
  status: AvailabilityStatus;
  quantityAvailable?: number;
  inTotals: boolean;
  lineSubtotal: bigint;
  discount: bigint;
}

export function sum(amounts: readonly bigint[]): bigint {
  return amounts.reduce((acc, amount) => acc + amount, 0n);
}

export function upper(value: string | null | undefined): string {
  return (value ?? '').trim().toUpperCase();
}

/** "US-CA" and "CA" name the same subdivision of US. */
export function sameSubdivision(country: string, a: string | null | undefined, b: string | null | undefined): boolean {
  const strip = (code: string) => (code.startsWith(`${country}-`) ? code.slice(country.length + 1) : code);
  const left = strip(upper(a));
  return left !== '' && left === strip(upper(b));
}
