// Discounts: merchant discounts and the coupon, split over the lines they apply to. Pure.
import { allocateProportionally, formattedAmount, parseDecimal, percentOf } from '../../../platform/money.js';
import { sum, type AppliedDiscount, type CouponDefinition, type CouponOutcome, type CouponRejection, type DiscountValue, type PricingInput, type Violation, type WorkLine } from './model.js';

/**
 * Merchant discounts in the order given, then the coupon, each on what the previous ones left; a
 * coupon's minimum is judged on the subtotal before any discount. Each takes its share from the
 * eligible lines' `discount`; a coupon the cart cannot use becomes a violation.
 */
export function applyDiscounts(
  input: PricingInput,
  counted: WorkLine[],
  subtotal: bigint,
  currency: string,
  violations: Violation[],
): { appliedDiscounts: AppliedDiscount[]; coupon?: CouponOutcome } {
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
  return { appliedDiscounts, ...(coupon && { coupon }) };
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
