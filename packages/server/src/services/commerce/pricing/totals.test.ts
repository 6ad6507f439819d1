import { describe, expect, it } from 'vitest';
import { MoneyError } from '../../../platform/money.js';
import { type PricingInput, type PricingLine } from './model.js';
import { priceCart } from './totals.js';
import { toWirePricing } from './wire.js';
import { ANY_QUANTITY, CALIFORNIA, NOW, US_TAX, digital, line, m, price, rule, summary, taxAt, usRegion, usd } from '../../../test/pricing.js';

describe('currencies with 0, 2 and 3 decimals', () => {
  it.each([
    // currency, unit price, tax %, tax, total, shown total
    ['JPY', '105', '10', '10', '115', '¥115'], // 10.5 → 10
    ['JPY', '115', '10', '12', '127', '¥127'], // 11.5 → 12
    ['JPY', '1000', '8', '80', '1080', '¥1,080'],
    ['USD', '0.05', '10', '0.00', '0.05', '$0.05'], // 0.5¢ → 0
    ['USD', '0.15', '10', '0.02', '0.17', '$0.17'], // 1.5¢ → 2
    ['USD', '0.25', '10', '0.02', '0.27', '$0.27'], // 2.5¢ → 2
    ['USD', '0.35', '10', '0.04', '0.39', '$0.39'], // 3.5¢ → 4
    ['USD', '19.99', '8.875', '1.77', '21.76', '$21.76'],
    ['BHD', '0.005', '10', '0.000', '0.005', 'BHD 0.005'], // 0.5 fils → 0
    ['BHD', '0.015', '10', '0.002', '0.017', 'BHD 0.017'], // 1.5 → 2
    ['BHD', '0.025', '10', '0.002', '0.027', 'BHD 0.027'], // 2.5 → 2
    ['KWD', '1.235', '10', '0.124', '1.359', 'KWD 1.359'], // 123.5 → 124
  ])('%s %s at %s% tax: tax %s, total %s (%s)', (currency, unitPrice, rate, tax, total, shown) => {
    const priced = priceCart({
      currency,
      now: NOW,
      lines: [digital('l1', unitPrice, { price: m(unitPrice, currency) })],
      billingAddress: { country: 'US' },
      tax: taxAt(rate),
    });
    expect(summary(priced).tax, 'tax').toBe(tax);
    expect(summary(priced).total, 'total').toBe(total);
    expect(toWirePricing(priced).priceSummary.total.formattedAmount.replace(/\u00a0/g, ' '), 'shown total').toBe(shown);
  });

  it.each([
    // currency, unit price, discount, total
    ['JPY', '5', '0', '5'], // 0.5 → 0
    ['JPY', '15', '2', '13'], // 1.5 → 2
    ['JPY', '25', '2', '23'], // 2.5 → 2
    ['USD', '0.05', '0.00', '0.05'],
    ['USD', '0.15', '0.02', '0.13'],
    ['USD', '0.25', '0.02', '0.23'],
    ['BHD', '0.025', '0.002', '0.023'],
    ['BHD', '0.035', '0.004', '0.031'],
  ])('%s %s with a 10% coupon: discount %s, total %s (half-even)', (currency, unitPrice, discount, total) => {
    const priced = priceCart({
      currency,
      now: NOW,
      lines: [digital('l1', unitPrice, { price: m(unitPrice, currency) })],
      coupon: { code: 'TEN', definition: { type: 'PERCENT', percent: '10' } },
    });
    expect(summary(priced).discount, 'discount').toBe(discount);
    expect(summary(priced).total, 'total').toBe(total);
  });

  it('rounds tax on each line, not on the cart total', () => {
    const priced = price({
      lines: [digital('l1', '0.25'), digital('l2', '0.25')],
      billingAddress: { country: 'US' },
      tax: taxAt('10'),
    });
    expect(priced.tax.rounding).toBe('HALF_EVEN_PER_LINE');
    expect(priced.tax.lines.map((taxed) => usd(taxed.tax)), 'each line 2.5¢ → 2¢').toEqual(['0.02', '0.02']);
    expect(summary(priced).tax, 'not 5¢, which rounding the 5¢ cart total would give').toBe('0.04');
  });
});
describe('availability', () => {
  it.each<[string, string, PricingLine['stock'], number, number | undefined, string | undefined, string | undefined, boolean]>([
    ['untracked stock', 'AVAILABLE', undefined, 5, undefined, undefined, undefined, true],
    ['unlimited (quantity null)', 'AVAILABLE', { found: true, inStock: true, quantityAvailable: null }, 5, undefined, undefined, undefined, true],
    ['exactly enough', 'AVAILABLE', { found: true, inStock: true, quantityAvailable: 5 }, 5, 5, undefined, undefined, true],
    ['fewer than asked', 'PARTIALLY_AVAILABLE', { found: true, inStock: true, quantityAvailable: 3 }, 5, 3, 'LINE_ITEM_PARTIALLY_AVAILABLE', undefined, true],
    ['none left', 'NOT_AVAILABLE', { found: true, inStock: true, quantityAvailable: 0 }, 5, 0, 'LINE_ITEM_OUT_OF_STOCK', 'REMOVE_LINE_ITEM', false],
    ['marked out of stock', 'NOT_AVAILABLE', { found: true, inStock: false }, 1, undefined, 'LINE_ITEM_OUT_OF_STOCK', 'REMOVE_LINE_ITEM', false],
    ['deleted or hidden product', 'NOT_FOUND', { found: false, inStock: false }, 1, undefined, 'LINE_ITEM_NOT_FOUND', 'REMOVE_LINE_ITEM', false],
  ])('%s → %s', (_title, status, stock, quantity, quantityAvailable, violationCode, suggestedFix, inTotals) => {
    const priced = price({ lines: [digital('l1', '10.00', { quantity, ...(stock && { stock }) })] });
    const [pricedLine] = priced.lines;
    expect(pricedLine.availability.status, 'availability').toBe(status);
    expect(pricedLine.availability.quantityAvailable, 'quantity available').toBe(quantityAvailable);
    expect(pricedLine.inTotals, 'counted in totals').toBe(inTotals);
    expect(priced.violations.map((violation) => violation.code), 'violations').toEqual(violationCode ? [violationCode] : []);
    if (violationCode) {
      expect(priced.violations[0]).toMatchObject({ severity: 'ERROR', target: { lineItem: { id: 'l1' } } });
      expect(priced.violations[0].suggestedFix, 'suggested fix').toBe(suggestedFix);
    }
  });

  it('describes a partial shortage in words the shopper understands', () => {
    const priced = price({ lines: [digital('l1', '10.00', { quantity: 5, stock: { found: true, inStock: true, quantityAvailable: 3 } })] });
    expect(priced.violations[0].description).toBe('Only 3 left in stock. Lower the quantity to continue.');
  });

  it('shows an unavailable line at its price but leaves it out of the totals', () => {
    const priced = price({
      lines: [digital('l1', '10.00'), digital('l2', '20.00', { stock: { found: false, inStock: false } })],
      billingAddress: { country: 'US' },
      tax: taxAt('10'),
    });
    expect(usd(priced.lines[1].lineSubtotal), 'line shows its price').toBe('20.00');
    expect(summary(priced)).toEqual({ subtotal: '10.00', discount: '0.00', shipping: '0.00', tax: '1.00', total: '11.00' });
  });
});

describe('big quantities stay exact', () => {
  it.each([
    ['USD', '999999999.99', '10', '99999999999000.00', '9999999999900.00', '109999999998900.00'],
    ['USD', '999999999.99', '7.25', '99999999999000.00', '7249999999927.50', '107249999998927.50'],
    ['JPY', '9999999999', '10', '999999999900000', '99999999990000', '1099999999890000'],
    ['BHD', '999999.999', '10', '99999999900.000', '9999999990.000', '109999999890.000'],
  ])('100,000 × %s %s at %s%: subtotal %s, tax %s, total %s', (currency, unitPrice, rate, subtotal, tax, total) => {
    const priced = priceCart({
      currency,
      now: NOW,
      lines: [digital('l1', unitPrice, { quantity: 100_000, price: m(unitPrice, currency) })],
      billingAddress: { country: 'US' },
      tax: taxAt(rate),
    });
    expect(summary(priced)).toMatchObject({ subtotal, tax, total });
  });

  it('shows a huge total with grouping and every digit', () => {
    const priced = price({
      lines: [digital('l1', '999999999.99', { quantity: 100_000 })],
      billingAddress: { country: 'US' },
      tax: taxAt('7.25'),
    });
    expect(toWirePricing(priced).priceSummary.total.formattedAmount).toBe('$107,249,999,998,927.50');
  });
});

describe('bad input is a programming error, not a price', () => {
  it.each<[string, Partial<PricingInput>, typeof RangeError | typeof MoneyError]>([
    ['negative quantity', { lines: [line({ quantity: -1 })] }, RangeError],
    ['fractional quantity', { lines: [line({ quantity: 1.5 })] }, RangeError],
    ['negative price', { lines: [line({ price: -1n })] }, RangeError],
    ['negative discount', { merchantDiscounts: [{ type: 'AMOUNT', amount: -1n }] }, RangeError],
    ['negative percent', { merchantDiscounts: [{ type: 'PERCENT', percent: '-5' }] }, RangeError],
    ['percent in exponent form', { merchantDiscounts: [{ type: 'PERCENT', percent: '1e1' }] }, MoneyError],
    ['bad currency', { currency: 'DOLLARS' }, MoneyError],
  ])('%s throws', (_title, overrides, errorType) => {
    expect(() => price(overrides)).toThrow(errorType);
  });
});

describe('invariants over many carts', () => {
  it('sums match, discounts never exceed lines, totals never go below zero', () => {
    let seed = 42;
    const next = (limit: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % limit;
    };
    const types = ['PHYSICAL', 'DIGITAL', 'SERVICE'] as const;
    for (let round = 0; round < 300; round++) {
      const lines = Array.from({ length: 1 + next(5) }, (_, i) =>
        line({
          id: `l${i}`,
          productId: `p${next(3)}`,
          itemType: types[next(3)],
          quantity: 1 + next(20),
          price: BigInt(next(100_000)),
          weight: `${next(5)}.${next(1000)}`,
        }),
      );
      const input: PricingInput = {
        currency: 'USD',
        now: NOW,
        lines,
        merchantDiscounts: next(2) ? [{ type: 'PERCENT', percent: `${next(60)}.${next(100)}` }] : [],
        coupon: {
          code: 'C',
          definition: next(2)
            ? { type: 'AMOUNT', amount: BigInt(next(2_000_000)) }
            : { type: 'PERCENT', percent: `${next(120)}` },
        },
        shippingAddress: CALIFORNIA,
        shippingRegions: [
          usRegion(
            [
              rule({ type: 'BY_TOTAL_PRICE', operator: 'LT', threshold: 10_000n, rate: BigInt(next(2000)) }),
              rule({ ...ANY_QUANTITY, code: 'exp', rate: BigInt(next(5000)) }),
            ],
            { taxShipping: true },
          ),
        ],
        tax: { ...US_TAX, pricesIncludeTax: next(2) === 1 },
      };
      const priced = priceCart(input);
      const label = `cart #${round}`;
      const lineDiscounts = priced.lines.reduce((acc, pricedLine) => acc + pricedLine.discount, 0n);
      const appliedAmounts = priced.appliedDiscounts.reduce((acc, discount) => acc + discount.amount, 0n);
      const lineTaxes = priced.tax.lines.reduce((acc, taxed) => acc + taxed.tax, 0n);
      const { subtotal, discount, shipping, tax, total } = priced.totals;
      expect(lineDiscounts, `${label}: Σ line discounts`).toBe(discount);
      expect(appliedAmounts, `${label}: Σ applied discounts`).toBe(discount);
      expect(lineTaxes + priced.tax.shipping.tax, `${label}: Σ taxes`).toBe(tax);
      expect(total, `${label}: total`).toBe(subtotal - discount + shipping + (priced.tax.pricesIncludeTax ? 0n : tax));
      const bounds = `${label}: total ${total} ≥ 0, discount ${discount} ≤ subtotal ${subtotal}`;
      expect(total >= 0n && discount <= subtotal, bounds).toBe(true);
      for (const pricedLine of priced.lines) {
        const within = `${label}: ${pricedLine.id} discount within its line`;
        expect(pricedLine.discount <= pricedLine.lineSubtotal, within).toBe(true);
      }
    }
  });
});
