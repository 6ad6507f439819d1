// Additional fees priced by the one kernel: fixed and percentage fees, taxed or not, with tax added
// to or included in prices, half-even per fee; none without physical goods.
import { describe, expect, it } from 'vitest';
import type { AdditionalFeeRule } from './model.js';
import { NOW, digital, line, m, price, summary, taxAt, usd } from '../../../test/pricing.js';
import { toWirePricing } from './wire.js';

const HANDLING: AdditionalFeeRule = { kind: 'HANDLING_FEE', name: 'Handling', amount: m('2.50'), taxable: true };
const INSURANCE: AdditionalFeeRule = { kind: 'INSURANCE', name: 'Insurance', percent: '1.5', taxable: false };

describe('additional fees', () => {
  it.each([
    // fees, tax %, included, fee prices, fee taxes, tax, total
    ['handling', [HANDLING], undefined, false, ['2.50'], ['0.00'], '0.00', '22.50'],
    ['handling', [HANDLING], '10', false, ['2.50'], ['0.25'], '2.25', '24.75'],
    ['handling', [HANDLING], '10', true, ['2.50'], ['0.23'], '2.05', '22.50'], // 2.50 × 10/110 = 0.227 → 0.23
    ['insurance', [INSURANCE], '10', false, ['0.30'], ['0.00'], '2.00', '22.30'], // 1.5% of 20.00, untaxed
    ['both', [HANDLING, INSURANCE], '8.875', false, ['2.50', '0.30'], ['0.22', '0.00'], '2.00', '24.80'], // 0.221875 → 0.22; goods tax 1.775 → 1.78
  ] as const)('%s at %s%% (included: %s)', (_name, fees, rate, included, prices, taxes, tax, total) => {
    const priced = price({
      lines: [line({ quantity: 2 })],
      additionalFees: fees,
      billingAddress: { country: 'US' },
      ...(rate ? { tax: taxAt(rate, { pricesIncludeTax: included }) } : {}),
    });
    expect(priced.additionalFees?.map((f) => usd(f.price))).toEqual(prices);
    expect(priced.additionalFees?.map((f) => usd(f.tax))).toEqual(taxes);
    expect(summary(priced).tax).toBe(tax);
    expect(summary(priced).total).toBe(total);
  });

  it('takes a percentage of the goods after discounts', () => {
    const priced = price({ lines: [line({ price: m('40.00') })], merchantDiscounts: [{ type: 'PERCENT', percent: '50' }], additionalFees: [INSURANCE] });
    expect(priced.additionalFees?.map((f) => usd(f.price))).toEqual(['0.30']);
    expect(summary(priced).total).toBe('20.30');
  });

  it('charges no fee on a cart without physical goods', () => {
    const priced = price({ lines: [digital('e-book', '9.00')], additionalFees: [HANDLING] });
    expect(priced.additionalFees).toBeUndefined();
    expect(summary(priced).total).toBe('9.00');
  });

  it('answers the fees on the wire, before and after tax, and their total before tax in the summary', () => {
    const wire = toWirePricing(price({ now: NOW, lines: [line()], additionalFees: [HANDLING], billingAddress: { country: 'US' }, tax: taxAt('10') }));
    expect(wire.priceSummary.additionalFees?.amount).toBe('2.50');
    expect(wire.additionalFees.map((f) => [f.code, f.price.amount, f.priceBeforeTax.amount, f.priceAfterTax.amount, f.taxDetails.totalTax.amount])).toEqual([
      ['HANDLING_FEE', '2.50', '2.50', '2.75', '0.25'],
    ]);
    expect(wire.priceSummary.total.amount).toBe('13.75');
  });
});
