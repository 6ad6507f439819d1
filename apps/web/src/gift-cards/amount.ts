import type { GiftCardCustomAmounts } from '@bodega/sdk';

/**
 * A gift card's custom amount as the product page needs it before the shopper types one: the limits
 * and the parsing, with no form library. The "Other amount" field itself (react-hook-form and zod)
 * is OtherAmount.tsx, a bundle of its own that the product page loads only for a gift card that
 * takes custom amounts.
 */

/** The custom amounts a gift-card product takes: both limits as the server writes them ("5.00"). */
export interface AmountLimits {
  min: string;
  max: string;
  currency: string;
}

export function amountLimits(answer: GiftCardCustomAmounts | undefined, productId: string | undefined): AmountLimits | undefined {
  if (!answer || !productId || !answer.productIds.includes(productId) || answer.minCustomAmount === null || answer.maxCustomAmount === null) return undefined;
  return { min: answer.minCustomAmount, max: answer.maxCustomAmount, currency: answer.currency };
}

/** "12.5" → minor units for a currency of `places` decimals; undefined when not a plain amount or too fine. */
export function minorUnits(value: string, places: number): bigint | undefined {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match || (match[2]?.length ?? 0) > places) return undefined;
  return BigInt(match[1] + (match[2] ?? '').padEnd(places, '0'));
}

/** What the product page asks of the loaded "Other amount" field when the shopper adds to the cart. */
export interface OtherAmountHandle {
  /** The amount once it passes the field's rules (the field shows why not and takes focus), else undefined. */
  amount(): Promise<string | undefined>;
}
