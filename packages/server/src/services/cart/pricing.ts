// priceCart: lines, catalog prices, coupon, merchant discounts, shipping rules and tax rates in;
// totals, applied discounts, shipping options, tax and violations out. Pure: no I/O, no clock.
import {
  addDecimal,
  allocateProportionally,
  compareDecimal,
  type Decimal,
  formatDecimal,
  formattedAmount,
  includedTaxOf,
  multiply,
  multiplyDecimal,
  normalizeCurrency,
  parseDecimal,
  percentOf,
} from '../../platform/money.js';
import type { Address, PickupOption, ShippingCondition, ShippingRegion, ShippingRule, ShippingRuleOperator, TaxRate, TaxSettings } from '../commerce-settings/service.js';

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
export type { Address, PickupOption, ShippingCondition, ShippingRegion, ShippingRule, ShippingRuleOperator, TaxRate, TaxSettings };

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
  appliedDiscounts: AppliedDiscount[];
  coupon?: CouponOutcome;
  shipping: ShippingResult;
  tax: TaxResult;
  violations: Violation[];
}

interface WorkLine {
  input: PricingLine;
  status: AvailabilityStatus;
  quantityAvailable?: number;
  inTotals: boolean;
  lineSubtotal: bigint;
  discount: bigint;
}

const ZERO_WEIGHT: Decimal = { units: 0n, scale: 0 };

export function priceCart(input: PricingInput): PricedCart {
  const currency = normalizeCurrency(input.currency);
  const violations: Violation[] = [];
  const lines = input.lines.map((line) => checkLine(line, violations));
  const counted = lines.filter((line) => line.inTotals);
  const subtotal = sum(counted.map((line) => line.lineSubtotal));

  // Discount order: merchant discounts in the order given, then the coupon, each on what the
  // previous ones left; a coupon's minimum is judged on the subtotal before any discount.
  const appliedDiscounts: AppliedDiscount[] = [];
  for (const discount of input.merchantDiscounts ?? []) {
    const scope = discount.lineItemIds?.length ? new Set(discount.lineItemIds) : undefined;
    const hit = applyDiscount(scope ? counted.filter((line) => scope.has(line.input.id)) : counted, discount);
    appliedDiscounts.push({
      source: 'MERCHANT',
      ...(discount.id !== undefined && { merchantDiscountId: discount.id }),
      discountType: scope ? 'SPECIFIC_ITEMS' : 'GLOBAL',
      ...hit,
    });
  }

  let coupon: CouponOutcome | undefined;
  if (input.coupon) {
    const { code, definition } = input.coupon;
    const scope = definition?.productIds?.length ? new Set(definition.productIds) : undefined;
    const eligible = scope ? counted.filter((line) => scope.has(line.input.productId ?? '')) : counted;
    const reason = couponRejection(definition, input.now, eligible.length, subtotal);
    if (definition && !reason) {
      const hit = applyDiscount(eligible, definition);
      const couponRef = {
        ...(definition.id !== undefined && { id: definition.id }),
        code,
        ...(definition.name !== undefined && { name: definition.name }),
      };
      coupon = { status: 'APPLIED', ...couponRef, amount: hit.amount };
      appliedDiscounts.push({
        source: 'COUPON',
        coupon: couponRef,
        discountType: scope ? 'SPECIFIC_ITEMS' : 'GLOBAL',
        ...hit,
      });
    } else {
      const rejection = reason ?? 'NOT_FOUND';
      const description = couponDescription(code, rejection, definition, currency);
      coupon = { status: 'REJECTED', code, reason: rejection, description };
      violations.push({
        code: 'COUPON_INVALID',
        severity: 'ERROR',
        target: { other: { name: 'OTHER_DEFAULT' } },
        description,
      });
    }
  }
  const discountTotal = sum(counted.map((line) => line.discount));

  const shippingBeforeTax = priceShipping(input, counted, violations);
  const tax = priceTax(input, lines, shippingBeforeTax);
  const shipping: ShippingResult = { ...shippingBeforeTax, tax: tax.shipping.tax };

  const includesTax = tax.pricesIncludeTax;
  const total = subtotal - discountTotal + shipping.cost + (includesTax ? 0n : tax.total);
  const lineTax = new Map(tax.lines.map((line) => [line.lineItemId, line.tax]));
  return {
    currency,
    lines: lines.map((line) => {
      const taxableAmount = line.inTotals ? line.lineSubtotal - line.discount : 0n;
      const lineTaxAmount = lineTax.get(line.input.id) ?? 0n;
      return {
        id: line.input.id,
        quantity: line.input.quantity,
        itemType: line.input.itemType,
        availability: {
          status: line.status,
          ...(line.quantityAvailable !== undefined && { quantityAvailable: line.quantityAvailable }),
        },
        inTotals: line.inTotals,
        price: line.input.price,
        fullPrice: line.input.fullPrice ?? line.input.price,
        lineSubtotal: line.lineSubtotal,
        discount: line.discount,
        taxableAmount,
        tax: lineTaxAmount,
        totalBeforeTax: includesTax ? taxableAmount - lineTaxAmount : taxableAmount,
        totalAfterTax: includesTax ? taxableAmount : taxableAmount + lineTaxAmount,
      };
    }),
    totals: { subtotal, discount: discountTotal, shipping: shipping.cost, tax: tax.total, total },
    appliedDiscounts,
    ...(coupon && { coupon }),
    shipping,
    tax,
    violations,
  };
}

function checkLine(line: PricingLine, violations: Violation[]): WorkLine {
  if (!Number.isSafeInteger(line.quantity) || line.quantity < 0) {
    throw new RangeError(`line ${line.id}: quantity must be a whole number ≥ 0, got ${line.quantity}`);
  }
  if (line.price < 0n || (line.fullPrice ?? 0n) < 0n) {
    throw new RangeError(`line ${line.id}: prices must not be negative`);
  }
  const stock = line.stock ?? { found: true, inStock: true };
  const tracked = stock.quantityAvailable ?? undefined;
  const target = { lineItem: { id: line.id } };
  let status: AvailabilityStatus = 'AVAILABLE';
  if (!stock.found) {
    status = 'NOT_FOUND';
    violations.push({
      code: 'LINE_ITEM_NOT_FOUND',
      severity: 'ERROR',
      target,
      description: 'This item is no longer available.',
      suggestedFix: 'REMOVE_LINE_ITEM',
    });
  } else if (!stock.inStock || (tracked !== undefined && tracked <= 0)) {
    status = 'NOT_AVAILABLE';
    violations.push({
      code: 'LINE_ITEM_OUT_OF_STOCK',
      severity: 'ERROR',
      target,
      description: 'This item is out of stock.',
      suggestedFix: 'REMOVE_LINE_ITEM',
    });
  } else if (tracked !== undefined && tracked < line.quantity) {
    status = 'PARTIALLY_AVAILABLE';
    violations.push({
      code: 'LINE_ITEM_PARTIALLY_AVAILABLE',
      severity: 'ERROR',
      target,
      description: `Only ${tracked} left in stock. Lower the quantity to continue.`,
    });
  }
  const inTotals = status === 'AVAILABLE' || status === 'PARTIALLY_AVAILABLE';
  return {
    input: line,
    status,
    ...(tracked !== undefined && stock.found && { quantityAvailable: Math.max(tracked, 0) }),
    inTotals,
    lineSubtotal: multiply(line.price, line.quantity),
    discount: 0n,
  };
}

/** Takes the discount from what the eligible lines still cost, split by largest remainder. */
function applyDiscount(eligible: WorkLine[], value: DiscountValue): { amount: bigint; lineItemIds: string[] } {
  const remaining = eligible.map((line) => line.lineSubtotal - line.discount);
  const base = sum(remaining);
  let wanted: bigint;
  if (value.type === 'PERCENT') {
    const percent = parseDecimal(value.percent);
    if (percent.units < 0n) throw new RangeError(`discount percent must not be negative, got ${value.percent}`);
    wanted = percentOf(base, percent);
  } else {
    if (value.amount < 0n) throw new RangeError(`discount amount must not be negative, got ${value.amount}`);
    wanted = value.amount;
  }
  const amount = wanted < base ? wanted : base; // a discount never takes more than is left
  allocateProportionally(amount, remaining).forEach((share, index) => {
    eligible[index].discount += share;
  });
  return { amount, lineItemIds: eligible.map((line) => line.input.id) };
}

function couponRejection(
  definition: CouponDefinition | null,
  now: Date,
  eligibleLines: number,
  subtotal: bigint,
): CouponRejection | undefined {
  if (!definition) return 'NOT_FOUND';
  const at = now.getTime();
  if (definition.validFrom && at < definition.validFrom.getTime()) return 'NOT_YET_VALID';
  if (definition.validUntil && at >= definition.validUntil.getTime()) return 'EXPIRED';
  const { usageLimit, timesUsed = 0 } = definition;
  if (usageLimit !== undefined && usageLimit !== null && timesUsed >= usageLimit) return 'USAGE_LIMIT_REACHED';
  if (eligibleLines === 0) return 'NOT_APPLICABLE_TO_ITEMS';
  if (definition.minimumSubtotal !== undefined && subtotal < definition.minimumSubtotal) return 'MINIMUM_NOT_MET';
  return undefined;
}

function couponDescription(
  code: string,
  reason: CouponRejection,
  definition: CouponDefinition | null,
  currency: string,
): string {
  switch (reason) {
    case 'NOT_FOUND':
      return `Coupon "${code}" doesn't exist.`;
    case 'NOT_YET_VALID':
      return `Coupon "${code}" isn't active yet.`;
    case 'EXPIRED':
      return `Coupon "${code}" has expired.`;
    case 'USAGE_LIMIT_REACHED':
      return `Coupon "${code}" has reached its usage limit.`;
    case 'NOT_APPLICABLE_TO_ITEMS':
      return `Coupon "${code}" doesn't apply to the items in your cart.`;
    case 'MINIMUM_NOT_MET': {
      const minimum = formattedAmount(definition?.minimumSubtotal ?? 0n, currency);
      return `Coupon "${code}" needs a subtotal of at least ${minimum}.`;
    }
  }
}

function priceShipping(input: PricingInput, counted: WorkLine[], violations: Violation[]): ShippingResult {
  const physical = counted.filter((line) => line.input.itemType === 'PHYSICAL');
  let totalWeight = ZERO_WEIGHT;
  for (const line of physical) {
    const unitWeight = line.input.weight === undefined ? ZERO_WEIGHT : parseDecimal(line.input.weight);
    totalWeight = addDecimal(totalWeight, multiplyDecimal(unitWeight, BigInt(line.input.quantity)));
  }
  const totalQuantity = physical.reduce((acc, line) => acc + line.input.quantity, 0);
  const totalPrice = sum(physical.map((line) => line.lineSubtotal - line.discount));
  const result: ShippingResult = {
    status: 'NOT_REQUIRED',
    options: [],
    cost: 0n,
    tax: 0n,
    totalWeight: formatDecimal(totalWeight),
    totalQuantity,
    totalPrice,
  };
  if (physical.length === 0) return result;
  if (input.calculateShipping === false) return { ...result, status: 'NOT_CALCULATED' };

  const destination = input.shippingAddress?.country ? input.shippingAddress : undefined;
  const region = destination ? findRegion(input.shippingRegions ?? [], destination) : undefined;
  const delivery: ShippingOptionResult[] = [];
  for (const rule of region?.rules ?? []) {
    if (!ruleMatches(rule, totalWeight, totalPrice, totalQuantity)) continue;
    const option: ShippingOptionResult = {
      code: rule.code,
      title: rule.title,
      kind: 'DELIVERY',
      cost: rule.rate,
      ...(rule.deliveryTime !== undefined && { deliveryTime: rule.deliveryTime }),
    };
    const sameCode = delivery.findIndex((existing) => existing.code === rule.code);
    if (sameCode < 0) delivery.push(option);
    else if (option.cost < delivery[sameCode].cost) delivery[sameCode] = option; // cheapest matching tier
  }
  const pickup: ShippingOptionResult[] = (input.pickupOptions ?? []).map((option) => ({
    code: option.code,
    title: option.title,
    kind: 'PICKUP',
    cost: option.cost,
    ...(option.instructions !== undefined && { instructions: option.instructions }),
    ...(option.address !== undefined && { pickupAddress: option.address }),
  }));
  const options = [...delivery, ...pickup];
  if (region) result.region = { id: region.id, name: region.name };
  result.options = options;

  if (options.length === 0) {
    if (!destination) {
      violations.push({
        code: 'SHIPPING_DESTINATION_MISSING',
        severity: 'WARNING',
        target: { other: { name: 'DELIVERY' } },
        description: 'Add a shipping address to see delivery options.',
      });
      return { ...result, status: 'DESTINATION_MISSING' };
    }
    violations.push({
      code: 'NO_SHIPPING_OPTIONS',
      severity: 'ERROR',
      target: { other: { name: 'DELIVERY' } },
      description: "We don't ship to this address.",
    });
    return { ...result, status: 'NO_OPTIONS' };
  }

  const requestedCode = input.selectedShippingOptionCode;
  const requested = requestedCode === undefined ? undefined : options.find((option) => option.code === requestedCode);
  // Without a usable choice: the cheapest delivery option, else the cheapest pickup (first on a tie).
  const chosen = requested ?? cheapest(delivery) ?? cheapest(pickup);
  if (requestedCode !== undefined && !requested && chosen) {
    violations.push({
      code: 'SHIPPING_OPTION_UNAVAILABLE',
      severity: 'WARNING',
      target: { other: { name: 'DELIVERY' } },
      description: `The selected delivery option isn't available here; "${chosen.title}" was chosen instead.`,
    });
  }
  if (!chosen) return result;
  const selected = { ...chosen, requested: requested !== undefined };
  return { ...result, status: 'SELECTED', selected, cost: chosen.cost };
}

function cheapest(options: ShippingOptionResult[]): ShippingOptionResult | undefined {
  return options.reduce<ShippingOptionResult | undefined>(
    (best, option) => (best === undefined || option.cost < best.cost ? option : best),
    undefined,
  );
}

function upper(value: string | null | undefined): string {
  return (value ?? '').trim().toUpperCase();
}

/** "US-CA" and "CA" name the same subdivision of US. */
function sameSubdivision(country: string, a: string | null | undefined, b: string | null | undefined): boolean {
  const strip = (code: string) => (code.startsWith(`${country}-`) ? code.slice(country.length + 1) : code);
  const left = strip(upper(a));
  return left !== '' && left === strip(upper(b));
}

/** A subdivision's region beats its country's, which beats "*" (rest of world); first wins a tie. */
function findRegion(regions: readonly ShippingRegion[], destination: Address): ShippingRegion | undefined {
  const country = upper(destination.country);
  let best: ShippingRegion | undefined;
  let bestRank = 0;
  for (const region of regions) {
    const regionCountry = upper(region.country);
    let rank = 0;
    if (regionCountry === '*') rank = 1;
    else if (regionCountry === country) {
      if (!region.subdivision) rank = 2;
      else if (sameSubdivision(country, region.subdivision, destination.subdivision)) rank = 3;
    }
    if (rank > bestRank) {
      best = region;
      bestRank = rank;
    }
  }
  return best;
}

function ruleMatches(rule: ShippingCondition, weight: Decimal, price: bigint, quantity: number): boolean {
  let comparison: -1 | 0 | 1;
  switch (rule.type) {
    case 'BY_TOTAL_WEIGHT':
      comparison = compareDecimal(weight, rule.threshold);
      break;
    case 'BY_TOTAL_PRICE':
      comparison = price < rule.threshold ? -1 : price > rule.threshold ? 1 : 0;
      break;
    case 'BY_TOTAL_QUANTITY':
      comparison = compareDecimal(BigInt(quantity).toString(), rule.threshold);
      break;
  }
  switch (rule.operator) {
    case 'EQ':
      return comparison === 0;
    case 'GT':
      return comparison > 0;
    case 'GTE':
      return comparison >= 0;
    case 'LT':
      return comparison < 0;
    case 'LTE':
      return comparison <= 0;
  }
}

/** Where tax is owed: the pickup point, else the shipping address, else the billing address. */
function taxAddress(input: PricingInput, shipping: ShippingResult): Address | undefined {
  const pickupAddress = shipping.selected?.kind === 'PICKUP' ? shipping.selected.pickupAddress : undefined;
  for (const address of [pickupAddress, input.shippingAddress, input.billingAddress]) {
    if (address?.country) return address;
  }
  return undefined;
}

/** A subdivision's rate beats its country's; first wins a tie. */
function findTaxRate(rates: readonly TaxRate[], address: Address): TaxRate | undefined {
  const country = upper(address.country);
  let countryRate: TaxRate | undefined;
  for (const rate of rates) {
    if (upper(rate.country) !== country) continue;
    if (!rate.subdivision) countryRate ??= rate;
    else if (sameSubdivision(country, rate.subdivision, address.subdivision)) return rate;
  }
  return countryRate;
}

function priceTax(input: PricingInput, lines: WorkLine[], shipping: ShippingResult): TaxResult {
  const pricesIncludeTax = input.tax?.pricesIncludeTax ?? false;
  const noTax: TaxResult = {
    status: 'NO_TAX_COLLECTED',
    rounding: 'HALF_EVEN_PER_LINE',
    pricesIncludeTax,
    taxableAmount: 0n,
    total: 0n,
    lines: [],
    shipping: { taxableAmount: 0n, tax: 0n },
  };
  if (!input.tax || input.calculateTax === false) return noTax;
  const address = taxAddress(input, shipping);
  const rate = address ? findTaxRate(input.tax.rates, address) : undefined;
  if (!rate) return noTax;
  const percent = parseDecimal(rate.rate);
  if (percent.units < 0n) throw new RangeError(`tax rate must not be negative, got ${rate.rate}`);
  // Round half-even per line: each line's tax is rounded on its own, then the lines are summed.
  const taxOf = (amount: bigint) => (pricesIncludeTax ? includedTaxOf(amount, percent) : percentOf(amount, percent));

  const taxedLines = lines
    .filter((line) => line.inTotals && line.input.taxable !== false)
    .map((line) => {
      const taxableAmount = line.lineSubtotal - line.discount;
      return { lineItemId: line.input.id, taxableAmount, tax: taxOf(taxableAmount) };
    });
  const region = input.shippingRegions?.find((candidate) => candidate.id === shipping.region?.id);
  const regionTaxesShipping = shipping.selected?.kind === 'DELIVERY' ? region?.taxShipping : undefined;
  const shippingTaxed = regionTaxesShipping ?? input.tax.taxShipping;
  const shippingTaxable = shippingTaxed ? shipping.cost : 0n;
  const shippingTax = { taxableAmount: shippingTaxable, tax: taxOf(shippingTaxable) };
  return {
    status: 'MANUAL_RATE',
    rounding: 'HALF_EVEN_PER_LINE',
    pricesIncludeTax,
    rate: {
      percent: formatDecimal(percent),
      ...(rate.name !== undefined && { name: rate.name }),
      country: upper(rate.country),
      ...(rate.subdivision !== undefined && { subdivision: rate.subdivision }),
    },
    taxableAmount: sum(taxedLines.map((line) => line.taxableAmount)) + shippingTax.taxableAmount,
    total: sum(taxedLines.map((line) => line.tax)) + shippingTax.tax,
    lines: taxedLines,
    shipping: shippingTax,
  };
}

function sum(amounts: readonly bigint[]): bigint {
  return amounts.reduce((acc, amount) => acc + amount, 0n);
}
