import { describe, expect, it } from 'vitest';
import { type PricingInput } from './model.js';
import { priceCart } from './totals.js';
import { toWirePricing } from './wire.js';
import { ANY_QUANTITY, CALIFORNIA, NOW, US_TAX, digital, line, m, ms, rule, usRegion } from '../../../test/pricing.js';

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
