import { describe, expect, it } from 'vitest';
import { formatAmount, MoneyError, parseAmount } from '../../../platform/money.js';
import {
  type CouponDefinition,
  type PricedCart,
  type PricingInput,
  type PricingLine,
  type ShippingCondition,
  type ShippingRegion,
  type ShippingRule,
  type TaxSettings,
} from './model.js';
import { priceCart } from './totals.js';
import { toWirePricing } from './wire.js';

const NOW = new Date('2024-06-15T12:00:00.000Z');
const ms = (offset: number) => new Date(NOW.getTime() + offset);
const DAY = 86_400_000;

/** Minor units from a decimal string, so tables read like a receipt. */
const m = (text: string, currency = 'USD') => parseAmount(text, currency);

function line(overrides: Partial<PricingLine> = {}): PricingLine {
  return { id: 'l1', productId: 'p1', itemType: 'PHYSICAL', quantity: 1, price: m('10.00'), ...overrides };
}

function digital(id: string, price: string, overrides: Partial<PricingLine> = {}): PricingLine {
  return line({ id, productId: `p-${id}`, itemType: 'DIGITAL', ...overrides, price: overrides.price ?? m(price) });
}

function price(overrides: Partial<PricingInput>): PricedCart {
  return priceCart({ currency: 'USD', now: NOW, lines: [line()], ...overrides });
}

/** What the shopper sees in the summary box, as decimal strings. */
function summary(priced: PricedCart) {
  const text = (minor: bigint) => formatAmount(minor, priced.currency);
  return {
    subtotal: text(priced.totals.subtotal),
    discount: text(priced.totals.discount),
    shipping: text(priced.totals.shipping),
    tax: text(priced.totals.tax),
    total: text(priced.totals.total),
  };
}

const usd = (minor: bigint) => formatAmount(minor, 'USD');

const US_TAX: TaxSettings = {
  pricesIncludeTax: false,
  taxShipping: false,
  rates: [
    { country: 'US', rate: '5', name: 'US' },
    { country: 'US', subdivision: 'US-CA', rate: '7.25', name: 'California' },
  ],
};

function taxAt(rate: string, overrides: Partial<TaxSettings> = {}): TaxSettings {
  return { pricesIncludeTax: false, taxShipping: false, rates: [{ country: 'US', rate }], ...overrides };
}

function rule(overrides: Partial<ShippingRule> & ShippingCondition): ShippingRule {
  return { code: 'std', title: 'Standard', rate: m('5.00'), ...overrides };
}

const ANY_QUANTITY: ShippingCondition = { type: 'BY_TOTAL_QUANTITY', operator: 'GTE', threshold: 0 };

function usRegion(rules: ShippingRule[], overrides: Partial<ShippingRegion> = {}): ShippingRegion {
  return { id: 'r-us', name: 'United States', country: 'US', rules, ...overrides };
}

const NEW_YORK = { country: 'US', subdivision: 'US-NY' };
const CALIFORNIA = { country: 'US', subdivision: 'US-CA' };

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

describe('coupons', () => {
  const lines = [digital('l1', '60.00', { productId: 'p1' }), digital('l2', '40.00', { productId: 'p2' })];
  const tenPercent: CouponDefinition = { type: 'PERCENT', percent: '10' };

  it.each<[string, string, string, string, CouponDefinition]>([
    ['10% off everything', 'APPLIED', '10.00', '90.00', tenPercent],
    ['12.5% off', 'APPLIED', '12.50', '87.50', { type: 'PERCENT', percent: '12.5' }],
    ['$15 off', 'APPLIED', '15.00', '85.00', { type: 'AMOUNT', amount: m('15.00') }],
    ['$150 off is capped at the subtotal', 'APPLIED', '100.00', '0.00', { type: 'AMOUNT', amount: m('150.00') }],
    ['150% off is capped at the subtotal', 'APPLIED', '100.00', '0.00', { type: 'PERCENT', percent: '150' }],
    ['minimum subtotal met exactly', 'APPLIED', '10.00', '90.00', { ...tenPercent, minimumSubtotal: m('100.00') }],
    ['minimum subtotal missed by a cent', 'MINIMUM_NOT_MET', '0.00', '100.00', { ...tenPercent, minimumSubtotal: m('100.01') }],
    ['starts now (start is inclusive)', 'APPLIED', '10.00', '90.00', { ...tenPercent, validFrom: NOW }],
    ['starts in 1 ms', 'NOT_YET_VALID', '0.00', '100.00', { ...tenPercent, validFrom: ms(1) }],
    ['ends in 1 ms', 'APPLIED', '10.00', '90.00', { ...tenPercent, validUntil: ms(1) }],
    ['ends now (end is exclusive)', 'EXPIRED', '0.00', '100.00', { ...tenPercent, validUntil: NOW }],
    ['ended yesterday', 'EXPIRED', '0.00', '100.00', { ...tenPercent, validFrom: ms(-7 * DAY), validUntil: ms(-DAY) }],
    ['used 4 of 5 times', 'APPLIED', '10.00', '90.00', { ...tenPercent, usageLimit: 5, timesUsed: 4 }],
    ['used 5 of 5 times', 'USAGE_LIMIT_REACHED', '0.00', '100.00', { ...tenPercent, usageLimit: 5, timesUsed: 5 }],
    ['usage limit 0', 'USAGE_LIMIT_REACHED', '0.00', '100.00', { ...tenPercent, usageLimit: 0 }],
    ['no usage limit', 'APPLIED', '10.00', '90.00', { ...tenPercent, usageLimit: null, timesUsed: 10_000 }],
    ['scoped to a product in the cart', 'APPLIED', '6.00', '94.00', { ...tenPercent, productIds: ['p1'] }],
    ['scoped to products not in the cart', 'NOT_APPLICABLE_TO_ITEMS', '0.00', '100.00', { ...tenPercent, productIds: ['p9'] }],
    ['expired and under minimum: expiry is named', 'EXPIRED', '0.00', '100.00', { ...tenPercent, validUntil: ms(-1), minimumSubtotal: m('500.00') }],
  ])('%s → %s, discount %s, total %s', (_title, outcome, discount, total, definition) => {
    const priced = price({ lines, coupon: { code: 'SAVE', definition } });
    const coupon = priced.coupon;
    expect(coupon?.status === 'APPLIED' ? 'APPLIED' : coupon?.reason, 'coupon outcome').toBe(outcome);
    expect(summary(priced).discount, 'discount').toBe(discount);
    expect(summary(priced).total, 'total').toBe(total);
    const couponViolations = priced.violations.filter((violation) => violation.code === 'COUPON_INVALID');
    expect(couponViolations.length, 'coupon violations').toBe(outcome === 'APPLIED' ? 0 : 1);
  });

  it('reports an unknown code as NOT_FOUND with an ERROR violation', () => {
    const priced = price({ lines, coupon: { code: 'NOPE', definition: null } });
    expect(priced.coupon).toMatchObject({ status: 'REJECTED', code: 'NOPE', reason: 'NOT_FOUND' });
    expect(priced.violations).toEqual([
      {
        code: 'COUPON_INVALID',
        severity: 'ERROR',
        target: { other: { name: 'OTHER_DEFAULT' } },
        description: 'Coupon "NOPE" doesn\'t exist.',
      },
    ]);
  });

  it('tells the shopper the minimum subtotal in money', () => {
    const priced = price({ lines, coupon: { code: 'BIG', definition: { ...tenPercent, minimumSubtotal: m('150.00') } } });
    expect(priced.coupon?.status === 'REJECTED' && priced.coupon.description).toBe(
      'Coupon "BIG" needs a subtotal of at least $150.00.',
    );
  });

  it('lists an applied coupon with its amount and the lines it covers', () => {
    const priced = price({
      lines,
      coupon: { code: 'P1', definition: { ...tenPercent, id: 'c-1', name: 'Ten off shoes', productIds: ['p1'] } },
    });
    expect(priced.appliedDiscounts).toEqual([
      {
        source: 'COUPON',
        coupon: { id: 'c-1', code: 'P1', name: 'Ten off shoes' },
        discountType: 'SPECIFIC_ITEMS',
        amount: m('6.00'),
        lineItemIds: ['l1'],
      },
    ]);
    expect(priced.lines.map((pricedLine) => usd(pricedLine.discount))).toEqual(['6.00', '0.00']);
  });

  it('does not apply a scoped coupon to an out-of-stock line', () => {
    const priced = price({
      lines: [digital('l1', '60.00', { productId: 'p1', stock: { found: true, inStock: false } }), lines[1]],
      coupon: { code: 'P1', definition: { ...tenPercent, productIds: ['p1'] } },
    });
    expect(priced.coupon).toMatchObject({ status: 'REJECTED', reason: 'NOT_APPLICABLE_TO_ITEMS' });
  });
});

describe('discount allocation across lines', () => {
  it.each<[string, string[], PricingLine[], CouponDefinition]>([
    ['$10 off three $10 lines', ['3.34', '3.33', '3.33'], [digital('a', '10.00'), digital('b', '10.00'), digital('c', '10.00')], { type: 'AMOUNT', amount: m('10.00') }],
    ['10% of three 5¢ lines (1.5¢ → 2¢)', ['0.01', '0.01', '0.00'], [digital('a', '0.05'), digital('b', '0.05'), digital('c', '0.05')], { type: 'PERCENT', percent: '10' }],
    ['$100 off $300 and $100 lines', ['75.00', '25.00'], [digital('a', '300.00'), digital('b', '100.00')], { type: 'AMOUNT', amount: m('100.00') }],
    ['$1 off lines of $0.01, $0.02 and $99.97', ['0.00', '0.00', '1.00'], [digital('a', '0.01'), digital('b', '0.02'), digital('c', '99.97')], { type: 'AMOUNT', amount: m('1.00') }],
  ])('%s splits as %j, summing exactly', (_title, shares, lines, definition) => {
    const priced = price({ lines, coupon: { code: 'X', definition } });
    expect(priced.lines.map((pricedLine) => usd(pricedLine.discount)), 'per-line discounts').toEqual(shares);
    const applied = priced.appliedDiscounts[0].amount;
    expect(priced.totals.discount, 'lines sum to the applied amount').toBe(applied);
  });
});

describe('merchant discounts with a coupon (merchant discounts first, in order, then the coupon on what is left)', () => {
  const lines = [digital('l1', '60.00'), digital('l2', '40.00')];

  it.each<[string, string[], string, PricingInput['merchantDiscounts'], CouponDefinition | undefined]>([
    ['$10 merchant then 10% coupon', ['10.00', '9.00'], '81.00', [{ type: 'AMOUNT', amount: m('10.00') }], { type: 'PERCENT', percent: '10' }],
    ['two 10% merchant discounts compound', ['10.00', '9.00'], '81.00', [{ type: 'PERCENT', percent: '10' }, { type: 'PERCENT', percent: '10' }], undefined],
    ['50% on one line then $10 coupon on all', ['20.00', '10.00'], '70.00', [{ type: 'PERCENT', percent: '50', lineItemIds: ['l2'] }], { type: 'AMOUNT', amount: m('10.00') }],
    ['$80 merchant leaves $20 for a $50 coupon', ['80.00', '20.00'], '0.00', [{ type: 'AMOUNT', amount: m('80.00') }], { type: 'AMOUNT', amount: m('50.00') }],
    ['a merchant discount on lines not in the cart takes nothing', ['0.00'], '100.00', [{ type: 'AMOUNT', amount: m('5.00'), lineItemIds: ['gone'] }], undefined],
  ])('%s → discounts %j, total %s', (_title, amounts, total, merchantDiscounts, definition) => {
    const priced = price({ lines, merchantDiscounts, ...(definition && { coupon: { code: 'C', definition } }) });
    expect(priced.appliedDiscounts.map((discount) => usd(discount.amount)), 'each discount in order').toEqual(amounts);
    expect(summary(priced).total, 'total').toBe(total);
    expect(priced.totals.total >= 0n, 'total never below zero').toBe(true);
  });

  it('lists merchant discounts before the coupon, scoped ones as SPECIFIC_ITEMS', () => {
    const priced = price({
      lines,
      merchantDiscounts: [{ id: 'md-1', type: 'PERCENT', percent: '50', lineItemIds: ['l2'] }],
      coupon: { code: 'C', definition: { type: 'AMOUNT', amount: m('10.00') } },
    });
    expect(priced.appliedDiscounts.map((discount) => [discount.source, discount.discountType, discount.lineItemIds])).toEqual([
      ['MERCHANT', 'SPECIFIC_ITEMS', ['l2']],
      ['COUPON', 'GLOBAL', ['l1', 'l2']],
    ]);
    expect(priced.lines.map((pricedLine) => usd(pricedLine.discount)), 'coupon split 60:20 after the merchant discount').toEqual([
      '7.50',
      '22.50',
    ]);
  });

  it('judges a coupon minimum on the subtotal before merchant discounts', () => {
    const priced = price({
      lines,
      merchantDiscounts: [{ type: 'AMOUNT', amount: m('20.00') }],
      coupon: { code: 'C', definition: { type: 'PERCENT', percent: '10', minimumSubtotal: m('90.00') } },
    });
    expect(priced.coupon?.status).toBe('APPLIED');
    expect(summary(priced)).toMatchObject({ discount: '28.00', total: '72.00' });
  });
});

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

describe('shipping rules', () => {
  type Position = 'below' | 'at' | 'above';
  const cartFor: Record<ShippingCondition['type'], Record<Position, PricingLine[]>> = {
    BY_TOTAL_WEIGHT: {
      below: [line({ weight: '1.2', quantity: 2 })],
      at: [line({ weight: '1.25', quantity: 2 })],
      above: [line({ weight: '1.3', quantity: 2 })],
    },
    BY_TOTAL_PRICE: {
      below: [line({ price: m('49.99') })],
      at: [line({ price: m('50.00') })],
      above: [line({ price: m('50.01') })],
    },
    BY_TOTAL_QUANTITY: {
      below: [line({ quantity: 2 })],
      at: [line({ quantity: 3 })],
      above: [line({ quantity: 4 })],
    },
  };
  const thresholds: Record<ShippingCondition['type'], ShippingCondition['threshold']> = {
    BY_TOTAL_WEIGHT: '2.5',
    BY_TOTAL_PRICE: m('50.00'),
    BY_TOTAL_QUANTITY: 3,
  };
  const offeredWhen = {
    EQ: { below: false, at: true, above: false },
    GT: { below: false, at: false, above: true },
    GTE: { below: false, at: true, above: true },
    LT: { below: true, at: false, above: false },
    LTE: { below: true, at: true, above: false },
  } as const;
  const grid = (Object.keys(cartFor) as ShippingCondition['type'][]).flatMap((type) =>
    (Object.keys(offeredWhen) as (keyof typeof offeredWhen)[]).flatMap((operator) =>
      (['below', 'at', 'above'] as const).map((position) => [type, operator, position, offeredWhen[operator][position]] as const),
    ),
  );

  it.each(grid)('%s %s: a cart %s the threshold → offered: %s', (type, operator, position, offered) => {
    const condition = { type, operator, threshold: thresholds[type] } as ShippingCondition;
    const priced = price({
      lines: cartFor[type][position],
      shippingAddress: NEW_YORK,
      shippingRegions: [usRegion([rule(condition)])],
    });
    expect(priced.shipping.status, 'shipping status').toBe(offered ? 'SELECTED' : 'NO_OPTIONS');
    expect(summary(priced).shipping, 'shipping cost').toBe(offered ? '5.00' : '0.00');
    expect(priced.violations.map((violation) => violation.code)).toEqual(offered ? [] : ['NO_SHIPPING_OPTIONS']);
  });

  it('adds weights exactly (3 × 0.1 kg is 0.3 kg)', () => {
    const priced = price({
      lines: [line({ weight: 0.1, quantity: 3 })],
      shippingAddress: NEW_YORK,
      shippingRegions: [usRegion([rule({ type: 'BY_TOTAL_WEIGHT', operator: 'EQ', threshold: '0.3' })])],
    });
    expect(priced.shipping.totalWeight).toBe('0.3');
    expect(priced.shipping.status).toBe('SELECTED');
  });

  it('compares the price after discounts', () => {
    const priced = price({
      lines: [line({ price: m('60.00') })],
      coupon: { code: 'TEN', definition: { type: 'AMOUNT', amount: m('10.00') } },
      shippingAddress: NEW_YORK,
      shippingRegions: [usRegion([rule({ type: 'BY_TOTAL_PRICE', operator: 'GTE', threshold: m('50.00'), code: 'free', rate: 0n })])],
    });
    expect(priced.shipping.selected?.code).toBe('free');
  });

  it('counts only physical lines toward weight, price and quantity', () => {
    const priced = price({
      lines: [line({ price: m('30.00'), weight: '1' }), digital('ebook', '30.00', { weight: '5' })],
      shippingAddress: NEW_YORK,
      shippingRegions: [usRegion([rule({ type: 'BY_TOTAL_PRICE', operator: 'GTE', threshold: m('50.00') })])],
    });
    expect(priced.shipping).toMatchObject({ totalWeight: '1', totalQuantity: 1, totalPrice: m('30.00'), status: 'NO_OPTIONS' });
  });

  const twoSpeeds = [usRegion([rule({ ...ANY_QUANTITY, code: 'express', title: 'Express', rate: m('15.00') }), rule({ ...ANY_QUANTITY })])];

  it.each([
    ['nothing requested: the cheapest', 'std', '5.00', undefined, []],
    ['express requested', 'express', '15.00', 'express', []],
    ['an unknown option requested: the cheapest, with a warning', 'std', '5.00', 'overnight', ['SHIPPING_OPTION_UNAVAILABLE']],
  ])('%s → %s at %s', (_title, code, cost, selectedShippingOptionCode, violationCodes) => {
    const priced = price({
      shippingAddress: NEW_YORK,
      shippingRegions: twoSpeeds,
      ...(selectedShippingOptionCode !== undefined && { selectedShippingOptionCode }),
    });
    expect(priced.shipping.options.map((option) => option.code), 'matching rules become options').toEqual(['express', 'std']);
    expect(priced.shipping.selected?.code, 'selected option').toBe(code);
    expect(priced.shipping.selected?.requested, 'requested option honoured').toBe(selectedShippingOptionCode === code);
    expect(summary(priced).shipping).toBe(cost);
    expect(priced.violations.map((violation) => violation.code)).toEqual(violationCodes);
  });

  it.each([
    ['40.00', '10.00'],
    ['60.00', '0.00'],
  ])('price tiers sharing a code: a %s cart ships for %s', (unitPrice, cost) => {
    const priced = price({
      lines: [line({ price: m(unitPrice) })],
      shippingAddress: NEW_YORK,
      shippingRegions: [
        usRegion([
          rule({ type: 'BY_TOTAL_PRICE', operator: 'LT', threshold: m('50.00'), rate: m('10.00') }),
          rule({ type: 'BY_TOTAL_PRICE', operator: 'GTE', threshold: m('50.00'), rate: 0n }),
          rule({ type: 'BY_TOTAL_QUANTITY', operator: 'GTE', threshold: 1, rate: m('12.00') }),
        ]),
      ],
    });
    expect(priced.shipping.options.map((option) => [option.code, usd(option.cost)]), 'one option per code, cheapest tier').toEqual([['std', cost]]);
  });

  const regions: ShippingRegion[] = [
    { id: 'r-world', name: 'Rest of world', country: '*', rules: [rule({ ...ANY_QUANTITY, rate: m('30.00') })] },
    { id: 'r-us', name: 'United States', country: 'US', rules: [rule({ ...ANY_QUANTITY, rate: m('10.00') })] },
    { id: 'r-ca', name: 'California', country: 'US', subdivision: 'CA', rules: [rule({ ...ANY_QUANTITY, rate: m('5.00') })] },
    { id: 'r-tx', name: 'Texas', country: 'US', subdivision: 'US-TX', rules: [] },
  ];

  it.each([
    ['California: its own region beats the country', CALIFORNIA, regions, 'r-ca', '5.00', 'SELECTED'],
    ['New York: the country region', NEW_YORK, regions, 'r-us', '10.00', 'SELECTED'],
    ['France: rest of world', { country: 'FR' }, regions, 'r-world', '30.00', 'SELECTED'],
    ['France without a rest-of-world region: nothing', { country: 'FR' }, regions.slice(1), undefined, '0.00', 'NO_OPTIONS'],
    ['Texas: its region has no rules, so nothing', { country: 'US', subdivision: 'TX' }, regions, 'r-tx', '0.00', 'NO_OPTIONS'],
  ])('%s', (_title, shippingAddress, shippingRegions, regionId, cost, status) => {
    const priced = price({ shippingAddress, shippingRegions });
    expect(priced.shipping.region?.id, 'region').toBe(regionId);
    expect(priced.shipping.status, 'status').toBe(status);
    expect(summary(priced).shipping, 'cost').toBe(cost);
  });

  it("raises an ERROR when nothing ships to the buyer's address", () => {
    const priced = price({ shippingAddress: { country: 'FR' }, shippingRegions: regions.slice(1) });
    expect(priced.violations).toEqual([
      {
        code: 'NO_SHIPPING_OPTIONS',
        severity: 'ERROR',
        target: { other: { name: 'DELIVERY' } },
        description: "We don't ship to this address.",
      },
    ]);
  });

  const store = { code: 'pickup', title: 'Pick up at the shop', cost: 0n, address: { country: 'US', subdivision: 'US-CA', city: 'Oakland' } };

  it('offers pickup beside delivery but selects delivery by default', () => {
    const priced = price({ shippingAddress: NEW_YORK, shippingRegions: twoSpeeds, pickupOptions: [store] });
    expect(priced.shipping.options.map((option) => [option.code, option.kind])).toEqual([
      ['express', 'DELIVERY'],
      ['std', 'DELIVERY'],
      ['pickup', 'PICKUP'],
    ]);
    expect(priced.shipping.selected?.code).toBe('std');
  });

  it('selects pickup when asked, free, and taxes at the pickup address', () => {
    const priced = price({
      shippingAddress: NEW_YORK,
      shippingRegions: twoSpeeds,
      pickupOptions: [store],
      selectedShippingOptionCode: 'pickup',
      tax: US_TAX,
      lines: [line({ price: m('100.00') })],
    });
    expect(priced.shipping.selected).toMatchObject({ code: 'pickup', kind: 'PICKUP', cost: 0n, requested: true });
    expect(priced.tax.rate?.name, 'California rate at the pickup point').toBe('California');
    expect(summary(priced)).toMatchObject({ shipping: '0.00', tax: '7.25', total: '107.25' });
  });

  it('selects pickup when there is no address yet and pickup is offered', () => {
    const priced = price({ shippingRegions: twoSpeeds, pickupOptions: [store] });
    expect(priced.shipping.status).toBe('SELECTED');
    expect(priced.shipping.selected?.code).toBe('pickup');
    expect(priced.violations).toEqual([]);
  });

  it('warns that an address is needed when physical items have no destination', () => {
    const priced = price({ shippingRegions: twoSpeeds });
    expect(priced.shipping.status).toBe('DESTINATION_MISSING');
    expect(priced.violations).toEqual([
      {
        code: 'SHIPPING_DESTINATION_MISSING',
        severity: 'WARNING',
        target: { other: { name: 'DELIVERY' } },
        description: 'Add a shipping address to see delivery options.',
      },
    ]);
  });

  it.each([
    ['a digital-only cart', [digital('l1', '10.00')]],
    ['a cart of services and gift cards', [digital('s', '10.00', { itemType: 'SERVICE' }), digital('g', '10.00', { itemType: 'GIFT_CARD' })]],
    ['a cart whose only physical line is out of stock', [line({ stock: { found: true, inStock: false } }), digital('e', '10.00')]],
  ])('%s needs no shipping', (_title, lines) => {
    const priced = price({ lines, shippingRegions: twoSpeeds });
    expect(priced.shipping.status).toBe('NOT_REQUIRED');
    expect(priced.shipping.options).toEqual([]);
    expect(priced.violations.filter((violation) => 'other' in violation.target)).toEqual([]);
  });

  it('calculateShipping false leaves shipping out without complaint', () => {
    const priced = price({ shippingRegions: twoSpeeds, calculateShipping: false });
    expect(priced.shipping.status).toBe('NOT_CALCULATED');
    expect(summary(priced)).toMatchObject({ shipping: '0.00', total: '10.00' });
    expect(priced.violations).toEqual([]);
  });

  it.each<[string, string, string, boolean | undefined, boolean, boolean]>([
    // title, tax, total, region taxes shipping, site taxes shipping, prices include tax
    ['region taxes shipping', '1.50', '16.50', true, false, false],
    ['region does not, site setting does', '1.00', '16.00', false, true, false],
    ['region silent, site setting taxes shipping', '1.50', '16.50', undefined, true, false],
    ['region silent, site setting does not', '1.00', '16.00', undefined, false, false],
    // 10.00 holds 0.909… → 0.91 and 5.00 holds 0.4545… → 0.45
    ['tax-included prices and shipping', '1.36', '15.00', true, false, true],
  ])('a 10.00 line with 5.00 shipping at 10%: %s → tax %s, total %s', (_title, tax, total, regionTaxes, siteTaxes, pricesIncludeTax) => {
    const priced = price({
      shippingAddress: NEW_YORK,
      shippingRegions: [usRegion([rule(ANY_QUANTITY)], regionTaxes === undefined ? {} : { taxShipping: regionTaxes })],
      tax: taxAt('10', { taxShipping: siteTaxes, pricesIncludeTax }),
    });
    expect(summary(priced)).toMatchObject({ shipping: '5.00', tax, total });
  });

  it('uses the shipping address for tax over the billing address', () => {
    const priced = price({
      lines: [line({ price: m('100.00') })],
      shippingAddress: CALIFORNIA,
      billingAddress: NEW_YORK,
      shippingRegions: twoSpeeds,
      tax: US_TAX,
    });
    expect(priced.tax.rate?.name).toBe('California');
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

describe('toWirePricing', () => {
  const input: PricingInput = {
    currency: 'USD',
    now: NOW,
    lines: [
      line({ id: 'l1', quantity: 2, price: m('20.00'), weight: '0.5' }),
      digital('l2', '10.00', { fullPrice: m('12.50') }),
      digital('l3', '5.00', { stock: { found: false, inStock: false } }),
    ],
    coupon: { code: 'SAVE10', definition: { id: 'c-1', type: 'PERCENT', percent: '10' } },
    shippingAddress: CALIFORNIA,
    shippingRegions: [
      usRegion(
        [
          rule({ ...ANY_QUANTITY, deliveryTime: '3-5 business days' }),
          rule({ ...ANY_QUANTITY, code: 'express', title: 'Express', rate: m('15.00') }),
        ],
        { taxShipping: true },
      ),
    ],
    pickupOptions: [
      { code: 'pickup', title: 'Pick up', cost: 0n, instructions: 'Ring the bell', address: { country: 'US', city: 'Oakland' } },
    ],
    tax: US_TAX,
  };
  const wire = toWirePricing(priceCart(input));
  const money = (amount: string) => ({
    amount,
    convertedAmount: amount,
    formattedAmount: `$${amount}`,
    formattedConvertedAmount: `$${amount}`,
  });

  it('writes the price summary as decimal strings', () => {
    // 40 + 10 = 50; coupon 5 (4 + 1); tax 7.25% of 36 = 2.61, of 9 = 0.6525 → 0.65, of shipping 5 = 0.3625 → 0.36
    expect(wire.priceSummary).toEqual({
      subtotal: money('50.00'),
      discount: money('5.00'),
      shipping: money('5.00'),
      tax: money('3.62'),
      total: money('53.62'),
    });
  });

  it('writes each line with its breakdown and availability', () => {
    expect(wire.calculatedLineItems[0]).toEqual({
      lineItemId: 'l1',
      pricesBreakdown: {
        price: money('20.00'),
        fullPrice: money('20.00'),
        priceBeforeDiscounts: money('20.00'),
        lineItemPrice: money('40.00'),
        totalDiscount: money('4.00'),
        totalPriceBeforeTax: money('36.00'),
        totalPriceAfterTax: money('38.61'),
        taxDetails: { taxableAmount: money('36.00'), taxRate: '0.0725', totalTax: money('2.61') },
      },
      availability: { status: 'AVAILABLE' },
    });
    expect(wire.calculatedLineItems[1].pricesBreakdown.fullPrice).toEqual(money('12.50'));
    expect(wire.calculatedLineItems[2].availability).toEqual({ status: 'NOT_FOUND' });
  });

  it('writes applied discounts, shipping, tax summary and violations in the wire shapes', () => {
    expect(wire.appliedDiscounts).toEqual([
      { discountType: 'GLOBAL', lineItemIds: ['l1', 'l2'], coupon: { id: 'c-1', code: 'SAVE10', amount: money('5.00') } },
    ]);
    expect(wire.shippingInfo.region).toEqual({ id: 'r-us', name: 'United States' });
    expect(wire.shippingInfo.selectedCarrierServiceOption).toMatchObject({
      code: 'std',
      title: 'Standard',
      logistics: { deliveryTime: '3-5 business days' },
      cost: { price: money('5.00'), totalPriceBeforeTax: money('5.00'), totalPriceAfterTax: money('5.36') },
      requestedShippingOption: false,
    });
    const [carrier] = wire.shippingInfo.carrierServiceOptions;
    expect(carrier.shippingOptions.map((option) => [option.code, option.cost.price.amount])).toEqual([
      ['std', '5.00'],
      ['express', '15.00'],
      ['pickup', '0.00'],
    ]);
    expect(wire.shippingInfo.carrierServiceOptions[0].shippingOptions[2].logistics).toEqual({
      instructions: 'Ring the bell',
      pickupDetails: { address: { country: 'US', city: 'Oakland' }, pickupMethod: 'STORE_PICKUP' },
    });
    expect(wire.taxSummary).toEqual({
      taxableAmount: money('50.00'),
      totalTax: money('3.62'),
      manualTaxRate: '0.0725',
      calculationDetails: { rateType: 'MANUAL_RATE', manualRateReason: 'GLOBAL_SETTING_TO_MANUAL' },
    });
    expect(wire.violations).toEqual([
      {
        severity: 'ERROR',
        target: { lineItem: { name: 'LINE_ITEM_DEFAULT', id: 'l3', suggestedFix: 'REMOVE_LINE_ITEM' } },
        description: 'This item is no longer available.',
      },
    ]);
    expect(() => JSON.stringify(wire), 'no bigint reaches the wire').not.toThrow();
  });

  it('names a rejected coupon in calculationErrors and reports no tax when none applies', () => {
    const rejected = toWirePricing(
      priceCart({
        ...input,
        shippingAddress: { country: 'DE' },
        pickupOptions: [],
        coupon: { code: 'OLD', definition: { type: 'PERCENT', percent: '10', validUntil: ms(-1) } },
      }),
    );
    expect(rejected.calculationErrors).toEqual({
      couponCalculationError: { applicationError: { code: 'EXPIRED', description: 'Coupon "OLD" has expired.' } },
    });
    expect(rejected.taxSummary).toEqual({
      taxableAmount: money('0.00'),
      totalTax: money('0.00'),
      calculationDetails: { rateType: 'NO_TAX_COLLECTED' },
    });
    expect(rejected.violations.map((violation) => [violation.severity, violation.target])).toEqual([
      ['ERROR', { lineItem: { name: 'LINE_ITEM_DEFAULT', id: 'l3', suggestedFix: 'REMOVE_LINE_ITEM' } }],
      ['ERROR', { other: { name: 'OTHER_DEFAULT' } }],
      ['ERROR', { other: { name: 'DELIVERY' } }],
    ]);
  });
});
