// A gift card's custom amount: the shopper's own amount for a gift-card product, carried on the
// catalog line as `catalogReference.options.customAmount` (a decimal string in the site's currency,
// like every amount on the wire). Allowed only when the merchant set both limits. Pure: no I/O.
import { ApiError, type FieldViolation } from '../../platform/errors.js';
import { formatAmount, MoneyError, parseAmount } from '../../platform/money.js';

export const CUSTOM_AMOUNT_OPTION = 'customAmount';

/** What decides whether a custom amount is allowed (read from the gift-card settings). */
export interface GiftCardRules {
  currency: string;
  productIds: ReadonlySet<string>;
  minCustomAmount: bigint | null;
  maxCustomAmount: bigint | null;
}

/** The custom amount a line's options carry, as given (undefined when none). */
export function customAmountOf(options: Readonly<Record<string, unknown>> | null | undefined): unknown {
  return options ? options[CUSTOM_AMOUNT_OPTION] : undefined;
}

/** Why the amount cannot be taken, or its minor units. */
export function readCustomAmount(value: unknown, productId: string, rules: GiftCardRules | undefined): { ok: true; amount: bigint } | { ok: false; violation: Omit<FieldViolation, 'field'> } {
  if (!rules || !rules.productIds.has(productId)) {
    return { ok: false, violation: { rule: 'FIELD_NOT_ALLOWED', description: 'only a gift card takes a custom amount' } };
  }
  const { minCustomAmount: min, maxCustomAmount: max, currency } = rules;
  if (min === null || max === null) {
    return { ok: false, violation: { rule: 'FIELD_NOT_ALLOWED', description: 'this shop does not take custom gift-card amounts' } };
  }
  let amount: bigint;
  try {
    amount = parseAmount(value as string, currency);
  } catch (error) {
    if (!(error instanceof MoneyError)) throw error;
    const rule = error.rule === 'DECIMAL_MAX_SCALE' ? 'DECIMAL_MAX_SCALE' : error.rule === 'NEGATIVE' ? 'DECIMAL_GTE' : 'FORMAT';
    return { ok: false, violation: { rule, description: error.message } };
  }
  if (amount < min) {
    return { ok: false, violation: { rule: 'DECIMAL_GTE', description: `must be at least ${formatAmount(min, currency)} ${currency}`, data: { threshold: formatAmount(min, currency) } } };
  }
  if (amount > max) {
    return { ok: false, violation: { rule: 'DECIMAL_LTE', description: `must be at most ${formatAmount(max, currency)} ${currency}`, data: { threshold: formatAmount(max, currency) } } };
  }
  return { ok: true, amount };
}

/** The amount of line `index` being added, or a 400 in the spec's shape. */
export function checkCustomAmount(value: unknown, productId: string, rules: GiftCardRules | undefined, index: number): bigint {
  const read = readCustomAmount(value, productId, rules);
  if (!read.ok) throw ApiError.validation([{ field: `lineItems[${index}].catalogReference.options.${CUSTOM_AMOUNT_OPTION}`, ...read.violation }]);
  return read.amount;
}
