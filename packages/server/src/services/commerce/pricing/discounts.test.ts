import { describe, expect, it } from 'vitest';
import { type CouponDefinition, type PricingInput, type PricingLine } from './model.js';
import { DAY, NOW, digital, m, ms, price, summary, usd } from '../../../test/pricing.js';

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
