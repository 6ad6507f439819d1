import { describe, expect, it } from 'vitest';
import { type PricingLine, type ShippingCondition, type ShippingRegion } from './model.js';
import { ANY_QUANTITY, CALIFORNIA, NEW_YORK, US_TAX, digital, line, m, price, rule, summary, taxAt, usRegion, usd } from '../../../test/pricing.js';

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
