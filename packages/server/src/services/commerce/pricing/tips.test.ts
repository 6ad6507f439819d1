// Tips priced by the one kernel: a percentage of the goods after discounts rounded half-even, a
// preset amount, or the shopper's own; untaxed, added to the total next to fees and tax; none when
// the site's settings no longer allow the choice.
import { describe, expect, it } from 'vitest';
import type { AdditionalFeeRule, MerchantDiscount, TipChoice, TipSettings } from './model.js';
import { NOW, digital, line, m, price, summary, taxAt } from '../../../test/pricing.js';
import { tipChoiceProblem } from './tips.js';
import { TIPS_APP_ID, toWirePricing } from './wire.js';

const PERCENT: TipSettings = {
  enabled: true, tipType: 'PERCENTAGE', allowCustomAmount: true, split: 'EQUAL',
  presets: [{ value: '10', default: false }, { value: '12.5', default: false }, { value: '15', default: true }],
};
const AMOUNTS: TipSettings = {
  ...PERCENT, tipType: 'AMOUNT', split: 'PROPORTIONAL',
  presets: [{ value: '1', default: false }, { value: '2', default: true }, { value: '5', default: false }],
};
const HANDLING: AdditionalFeeRule = { kind: 'HANDLING_FEE', name: 'Handling', amount: m('2.50'), taxable: true };
const QUARTER_OFF: MerchantDiscount = { type: 'PERCENT', percent: '25' };
const tip = (settings: TipSettings, tipType: TipChoice['tipType'], value: string) => ({ id: 'flow-1', settings, choice: { tipType, value } });

describe('tips', () => {
  it.each([
    // name, lines, discount, fee, tax, tip, expected tip, tax, total
    ['15% of 20.00', [line({ quantity: 2 })], undefined, undefined, undefined, tip(PERCENT, 'PERCENTAGE', '15'), 300n, '0.00', '23.00'],
    // Goods 20.00 − 25% = 15.00; 12.5% = 1.875 → 1.88 (half-even up to even); tax 1.50 + handling's 0.25.
    ['12.5% after a discount, with a taxed fee', [line({ quantity: 2 })], QUARTER_OFF, HANDLING, '10', tip(PERCENT, 'PERCENTAGE', '12.5'), 188n, '1.75', '21.13'],
    // 10% of 12.25 = 1.225 → 1.22 (half-even down to even).
    ['10% of 12.25', [line({ price: m('12.25') })], undefined, undefined, undefined, tip(PERCENT, 'PERCENTAGE', '10'), 122n, '0.00', '13.47'],
    // Prices include 10% tax: the tip is of what the goods cost (22.00) and carries no tax.
    ['10% with tax in prices', [line({ price: m('22.00') })], undefined, undefined, 'included', tip(PERCENT, 'PERCENTAGE', '10'), 220n, '2.00', '24.20'],
    ['a preset amount', [line()], undefined, HANDLING, undefined, tip(AMOUNTS, 'AMOUNT', '2'), 200n, '0.00', '14.50'],
    ['an amount of their own', [line()], QUARTER_OFF, undefined, undefined, tip(PERCENT, 'CUSTOM', '3.33'), 333n, '0.00', '10.83'],
    ['a digital order takes tips too', [digital('e-book', '9.00')], undefined, HANDLING, undefined, tip(PERCENT, 'PERCENTAGE', '10'), 90n, '0.00', '9.90'],
    ['tips turned off', [line()], undefined, undefined, undefined, tip({ ...PERCENT, enabled: false }, 'PERCENTAGE', '15'), undefined, '0.00', '10.00'],
    ['a percentage no longer a preset', [line()], undefined, undefined, undefined, tip(PERCENT, 'PERCENTAGE', '17'), undefined, '0.00', '10.00'],
    ['a percentage when the presets are amounts', [line()], undefined, undefined, undefined, tip(AMOUNTS, 'PERCENTAGE', '10'), undefined, '0.00', '10.00'],
    ['an own amount the shop does not allow', [line()], undefined, undefined, undefined, tip({ ...PERCENT, allowCustomAmount: false }, 'CUSTOM', '4'), undefined, '0.00', '10.00'],
    ['no tip chosen (0)', [line()], undefined, undefined, undefined, tip(PERCENT, 'CUSTOM', '0'), undefined, '0.00', '10.00'],
  ] as const)('%s', (_name, lines, discount, fee, tax, choice, amount, taxTotal, total) => {
    const priced = price({
      lines: [...lines],
      ...(discount && { merchantDiscounts: [discount] }),
      ...(fee && { additionalFees: [fee] }),
      ...(tax && { tax: tax === 'included' ? taxAt('10', { pricesIncludeTax: true }) : taxAt(tax), billingAddress: { country: 'US' } }),
      tip: choice,
    });
    expect(priced.tip?.amount).toBe(amount);
    expect(summary(priced).tax).toBe(taxTotal);
    expect(summary(priced).total).toBe(total);
    // The total is exactly its parts (bigint): goods − discount + shipping + tax (when added) + fees + tip.
    const fees = (priced.additionalFees ?? []).reduce((s, f) => s + f.price + (priced.tax.pricesIncludeTax ? 0n : f.tax), 0n);
    const goodsTax = priced.tax.pricesIncludeTax ? 0n : priced.totals.tax - (priced.additionalFees ?? []).reduce((s, f) => s + f.tax, 0n);
    expect(priced.totals.total).toBe(priced.totals.subtotal - priced.totals.discount + priced.totals.shipping + goodsTax + fees + (priced.tip?.amount ?? 0n));
  });

  it('keeps the type, the value chosen, the goods it was counted on and the split', () => {
    const priced = price({ lines: [line({ quantity: 2 })], merchantDiscounts: [QUARTER_OFF], tip: tip(AMOUNTS, 'AMOUNT', '5') });
    expect(priced.tip).toEqual({ id: 'flow-1', type: 'AMOUNT', value: '5', amount: 500n, goods: 1500n, split: 'PROPORTIONAL' });
  });

  it('answers the tip on the wire as the Wix Tips app\'s untaxed fee, in the fees\' total', () => {
    const wire = toWirePricing(price({ now: NOW, lines: [line()], additionalFees: [HANDLING], billingAddress: { country: 'US' }, tax: taxAt('10'), tip: tip(PERCENT, 'PERCENTAGE', '15') }));
    expect(wire.additionalFees.map((f) => [f.code, f.name, f.price.amount, f.taxDetails.totalTax.amount, f.taxDetails.taxRate, f.source, f.providerAppId])).toEqual([
      ['HANDLING_FEE', 'Handling', '2.50', '0.25', '0.1', 'PLATFORM', undefined],
      ['flow-1', 'Tip', '1.50', '0.00', '0', 'SERVICE_PLUGIN', TIPS_APP_ID],
    ]);
    expect(wire.priceSummary.additionalFees?.amount).toBe('4.00');
    expect(wire.priceSummary.total.amount).toBe('15.25');
  });

  it('says in words why a choice does not fit the settings', () => {
    expect(tipChoiceProblem({ tipType: 'PERCENTAGE', value: '15' }, PERCENT, 'USD')).toBeUndefined();
    expect(tipChoiceProblem({ tipType: 'PERCENTAGE', value: '15' }, { ...PERCENT, enabled: false }, 'USD')).toMatch(/does not take tips/);
    expect(tipChoiceProblem({ tipType: 'AMOUNT', value: '2' }, PERCENT, 'USD')).toMatch(/PERCENTAGE/);
    expect(tipChoiceProblem({ tipType: 'PERCENTAGE', value: '101' }, { ...PERCENT, presets: [{ value: '101', default: false }] }, 'USD')).toMatch(/at most 100/);
    expect(tipChoiceProblem({ tipType: 'CUSTOM', value: '1.234' }, PERCENT, 'USD')).toMatch(/two decimals/);
    expect(tipChoiceProblem({ tipType: 'CUSTOM', value: '1' }, { ...PERCENT, allowCustomAmount: false }, 'USD')).toMatch(/preset/);
  });
});
