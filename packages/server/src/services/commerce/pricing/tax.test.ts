import { describe, expect, it } from 'vitest';
import { CALIFORNIA, NEW_YORK, US_TAX, digital, price, summary, taxAt, usd } from '../../../test/pricing.js';

describe('tax', () => {
  it.each([
    ['California: subdivision rate beats the country rate', 'MANUAL_RATE', '7.25', '7.25', '107.25', CALIFORNIA],
    ['subdivision written without the country prefix', 'MANUAL_RATE', '7.25', '7.25', '107.25', { country: 'US', subdivision: 'CA' }],
    ['lower-case codes', 'MANUAL_RATE', '7.25', '7.25', '107.25', { country: 'us', subdivision: 'us-ca' }],
    ['New York: the country rate', 'MANUAL_RATE', '5', '5.00', '105.00', NEW_YORK],
    ['no subdivision given: the country rate', 'MANUAL_RATE', '5', '5.00', '105.00', { country: 'US' }],
    ['Germany: no rate applies', 'NO_TAX_COLLECTED', undefined, '0.00', '100.00', { country: 'DE' }],
    ['no address', 'NO_TAX_COLLECTED', undefined, '0.00', '100.00', undefined],
  ])('%s → %s (rate %s), tax %s, total %s', (_title, status, percent, tax, total, billingAddress) => {
    const priced = price({ lines: [digital('l1', '100.00')], tax: US_TAX, ...(billingAddress && { billingAddress }) });
    expect(priced.tax.status, 'tax calculation status').toBe(status);
    expect(priced.tax.rate?.percent, 'rate').toBe(percent);
    expect(summary(priced)).toMatchObject({ tax, total });
  });

  it('extracts tax from tax-included prices', () => {
    const priced = price({
      lines: [digital('l1', '107.25')],
      billingAddress: CALIFORNIA,
      tax: { ...US_TAX, pricesIncludeTax: true },
    });
    expect(summary(priced)).toEqual({ subtotal: '107.25', discount: '0.00', shipping: '0.00', tax: '7.25', total: '107.25' });
    expect(usd(priced.lines[0].totalBeforeTax), 'line before tax').toBe('100.00');
    expect(usd(priced.lines[0].totalAfterTax), 'line after tax').toBe('107.25');
  });

  it.each([
    ['0.03', '0.00'], // 0.5¢ → 0
    ['0.09', '0.02'], // 1.5¢ → 2
    ['0.15', '0.02'], // 2.5¢ → 2
    ['120.00', '20.00'],
  ])('a %s tax-included price at 20% holds %s tax (half-even)', (gross, tax) => {
    const priced = price({ lines: [digital('l1', gross)], billingAddress: { country: 'GB' }, tax: taxAt('20', { pricesIncludeTax: true, rates: [{ country: 'GB', rate: '20' }] }) });
    expect(summary(priced)).toMatchObject({ tax, total: gross });
  });

  it.each([
    [false, '0.00', '100.00'],
    [true, '0.00', '100.00'],
  ])('calculateTax false (prices include tax: %s) collects no tax: tax %s, total %s', (pricesIncludeTax, tax, total) => {
    const priced = price({
      lines: [digital('l1', '100.00')],
      billingAddress: CALIFORNIA,
      tax: { ...US_TAX, pricesIncludeTax },
      calculateTax: false,
    });
    expect(priced.tax.status).toBe('NO_TAX_COLLECTED');
    expect(summary(priced)).toMatchObject({ tax, total });
  });

  it('taxes what is left after discounts', () => {
    const priced = price({
      lines: [digital('l1', '100.00')],
      billingAddress: { country: 'US' },
      tax: taxAt('10'),
      coupon: { code: 'TEN', definition: { type: 'PERCENT', percent: '10' } },
    });
    expect(summary(priced)).toEqual({ subtotal: '100.00', discount: '10.00', shipping: '0.00', tax: '9.00', total: '99.00' });
  });

  it('skips lines the merchant marks as not taxable', () => {
    const priced = price({
      lines: [digital('l1', '100.00'), digital('gift', '50.00', { itemType: 'GIFT_CARD', taxable: false })],
      billingAddress: { country: 'US' },
      tax: taxAt('10'),
    });
    expect(priced.tax.lines.map((taxed) => taxed.lineItemId)).toEqual(['l1']);
    expect(summary(priced)).toMatchObject({ tax: '10.00', total: '160.00' });
  });

  it('reports a 0% rate as a manual rate that collected nothing', () => {
    const priced = price({ lines: [digital('l1', '100.00')], billingAddress: { country: 'US' }, tax: taxAt('0') });
    expect(priced.tax.status).toBe('MANUAL_RATE');
    expect(summary(priced).tax).toBe('0.00');
  });
});
