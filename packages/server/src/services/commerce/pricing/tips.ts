// Tips (spec: PERCENTAGE, AMOUNT, CUSTOM): what a shopper adds for the business at checkout when the
// site turns tips on. A percentage is of the goods after discounts, rounded half-even to the minor
// unit; an amount is exact. Tips are not taxed and apply to any order with goods. Pure.
import { COMMERCE_SETTINGS_LIMITS as L } from '../../../platform/field-limits.js';
import { compareDecimal, MoneyError, parseAmount, parseDecimal, percentOf } from '../../../platform/money.js';
import { sum, type PricedTip, type PricingInput, type TipChoice, type TipSettings, type WorkLine } from './model.js';

export type { PricedTip, TipChoice };

/** Why a tip choice does not fit the site's tip settings (undefined: it fits). */
export function tipChoiceProblem(choice: TipChoice, settings: TipSettings, currency: string): string | undefined {
  if (!settings.enabled) return 'This shop does not take tips';
  try {
    const value = parseDecimal(choice.value);
    if (value.units < 0n || value.scale > 2) return 'A tip is a number ≥ 0 with at most two decimals';
    if (choice.tipType === 'CUSTOM') {
      if (!settings.allowCustomAmount) return 'This shop offers only its preset tips';
      parseAmount(choice.value, currency);
      return undefined;
    }
    if (choice.tipType !== settings.tipType) return `This shop's tips are of type ${settings.tipType}`;
    if (choice.tipType === 'PERCENTAGE' && compareDecimal(value, L.tipPercentMax) > 0) return `A tip is at most ${L.tipPercentMax}%`;
    if (compareDecimal(value, 0) !== 0 && !settings.presets.some((p) => compareDecimal(p.value, value) === 0)) {
      return `A ${choice.tipType.toLowerCase()} tip is one of the presets (${settings.presets.map((p) => p.value).join(', ')}); choose CUSTOM for another amount`;
    }
    return undefined;
  } catch (error) {
    if (error instanceof MoneyError) return error.message;
    throw error;
  }
}

/** The amount a tip choice comes to on `goods` (minor units): a percentage rounded half-even, or the amount. */
export function tipAmount(choice: TipChoice, goods: bigint, currency: string): bigint {
  return choice.tipType === 'PERCENTAGE' ? percentOf(goods, choice.value) : parseAmount(choice.value, currency);
}

/**
 * The tip of a priced cart: none when tips are off, the choice no longer fits the settings (the
 * merchant changed them), nothing is in the totals, or it comes to zero.
 */
export function priceTip(tip: PricingInput['tip'], lines: readonly WorkLine[], currency: string): PricedTip | undefined {
  if (!tip || tipChoiceProblem(tip.choice, tip.settings, currency)) return undefined;
  const counted = lines.filter((line) => line.inTotals);
  if (counted.length === 0) return undefined;
  const goods = sum(counted.map((line) => line.lineSubtotal - line.discount));
  const amount = tipAmount(tip.choice, goods, currency);
  if (amount <= 0n) return undefined;
  return { id: tip.id, type: tip.choice.tipType, value: tip.choice.value, amount, goods, split: tip.settings.split };
}
