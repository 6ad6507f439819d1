// Additional fees (spec: HANDLING_FEE, INSURANCE): what the merchant charges on top of the goods
// when something physical is sold — a fixed amount or a percentage of the discounted goods —
// each taxed at the order's rate or not, as the merchant sets it. Pure.
import { includedTaxOf, parseDecimal, percentOf } from '../../../platform/money.js';
import { sum, type AdditionalFeeRule, type FeeKind, type PricedFee, type TaxResult, type WorkLine } from './model.js';

export type { AdditionalFeeRule, FeeKind, PricedFee };

export const FEE_KINDS: readonly FeeKind[] = ['HANDLING_FEE', 'INSURANCE'];

/**
 * The fees of a priced cart. A fee applies when a physical line is in the totals. Its tax is the
 * order's rate (tax.rate), rounded half-even per fee, inside the price when prices include tax.
 */
export function priceFees(rules: readonly AdditionalFeeRule[], lines: readonly WorkLine[], tax: TaxResult): PricedFee[] {
  const counted = lines.filter((line) => line.inTotals);
  if (rules.length === 0 || !counted.some((line) => line.input.itemType === 'PHYSICAL')) return [];
  const goods = sum(counted.map((line) => line.lineSubtotal - line.discount));
  const percent = tax.rate ? parseDecimal(tax.rate.percent) : undefined;
  return rules.map((rule) => {
    const price = rule.amount ?? (rule.percent !== undefined ? percentOf(goods, rule.percent) : 0n);
    const feeTax = rule.taxable && percent ? (tax.pricesIncludeTax ? includedTaxOf(price, percent) : percentOf(price, percent)) : 0n;
    return { code: rule.kind, name: rule.name, price, tax: feeTax, taxable: rule.taxable };
  });
}

/** The fees' part of the totals: before tax (the wire's totalAdditionalFees), their tax, and what they add to the total. */
export function feeTotals(fees: readonly PricedFee[], pricesIncludeTax: boolean): { beforeTax: bigint; tax: bigint; addedToTotal: bigint } {
  const price = sum(fees.map((f) => f.price));
  const feeTax = sum(fees.map((f) => f.tax));
  return { beforeTax: pricesIncludeTax ? price - feeTax : price, tax: feeTax, addedToTotal: pricesIncludeTax ? price : price + feeTax };
}
