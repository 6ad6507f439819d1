// PricedCart → the wire's decimal-string shapes (estimate-totals, cart, checkout). Names here are
// the wire's; model.ts keeps the domain's.
import { formatDecimal, parseDecimal, toWireMoney, type WireMoney } from '../../../platform/money.js';
import type { AvailabilityStatus, PricedCart, ShippingOptionResult, TaxStatus } from './model.js';

export type { WireMoney } from '../../../platform/money.js';

/** The carrier every built-in option (shipping rules and pickup) is listed under. */
export const SHIPPING_CARRIER_ID = 'bodega-shipping';

export interface WireTaxDetails {
  taxableAmount: WireMoney;
  /** A fraction, not a percent: "0.0725" for 7.25%. */
  taxRate: string;
  totalTax: WireMoney;
}

export interface WireCalculatedLineItem {
  lineItemId: string;
  pricesBreakdown: {
    price: WireMoney;
    fullPrice: WireMoney;
    priceBeforeDiscounts: WireMoney;
    lineItemPrice: WireMoney;
    totalDiscount: WireMoney;
    totalPriceBeforeTax: WireMoney;
    totalPriceAfterTax: WireMoney;
    taxDetails: WireTaxDetails;
  };
  availability: { status: AvailabilityStatus; quantityAvailable?: number };
}

export interface WireLogistics {
  deliveryTime?: string;
  instructions?: string;
  pickupDetails?: { address?: Record<string, unknown>; pickupMethod: 'STORE_PICKUP' };
}

export interface WireShippingOption {
  code: string;
  title: string;
  logistics: WireLogistics;
  cost: { price: WireMoney };
}

export interface WireSelectedCarrierServiceOption {
  code: string;
  title: string;
  logistics: WireLogistics;
  cost: {
    price: WireMoney;
    totalPriceBeforeTax: WireMoney;
    totalPriceAfterTax: WireMoney;
    totalDiscount: WireMoney;
    taxDetails: WireTaxDetails;
  };
  requestedShippingOption: boolean;
  carrierId: string;
}

export interface WireShippingInfo {
  region?: { id: string; name: string };
  selectedCarrierServiceOption?: WireSelectedCarrierServiceOption;
  carrierServiceOptions: { carrierId: string; shippingOptions: WireShippingOption[] }[];
}

export type WireAppliedDiscount = { discountType: 'GLOBAL' | 'SPECIFIC_ITEMS'; lineItemIds: string[] } & (
  | { coupon: { id?: string; code: string; name?: string; amount: WireMoney } }
  | { merchantDiscount: { amount: WireMoney } }
);

export interface WireViolation {
  severity: 'WARNING' | 'ERROR';
  target:
    | { lineItem: { name: 'LINE_ITEM_DEFAULT'; id: string; suggestedFix?: 'REMOVE_LINE_ITEM' } }
    | { other: { name: 'OTHER_DEFAULT' | 'DELIVERY' } };
  description: string;
}

/** An additional fee (HANDLING_FEE, INSURANCE) as carts and checkouts answer it. */
export interface WireAdditionalFee {
  code: string;
  name: string;
  price: WireMoney;
  taxDetails: WireTaxDetails;
  priceBeforeTax: WireMoney;
  priceAfterTax: WireMoney;
  lineItemIds: string[];
  /** A tip is the Wix Tips app's fee (providerAppId TIPS_APP_ID, source SERVICE_PLUGIN). */
  providerAppId?: string;
  source: 'PLATFORM' | 'SERVICE_PLUGIN';
}

/** The Wix Tips app: a tip is an additional fee it provides, whose code is the tip's id. */
export const TIPS_APP_ID = '869a50c8-dd38-4324-b201-e33dc0747a5f';

export interface WirePricing {
  currency: string;
  calculatedLineItems: WireCalculatedLineItem[];
  /** `additionalFees`: the fees before tax, when there are fees. */
  priceSummary: { subtotal: WireMoney; discount: WireMoney; shipping: WireMoney; tax: WireMoney; total: WireMoney; additionalFees?: WireMoney };
  additionalFees: WireAdditionalFee[];
  appliedDiscounts: WireAppliedDiscount[];
  shippingInfo: WireShippingInfo;
  taxSummary: {
    taxableAmount: WireMoney;
    totalTax: WireMoney;
    manualTaxRate?: string;
    calculationDetails: { rateType: TaxStatus; manualRateReason?: 'GLOBAL_SETTING_TO_MANUAL' };
  };
  calculationErrors?: { couponCalculationError: { applicationError: { code: string; description: string } } };
  violations: WireViolation[];
}

export function toWirePricing(priced: PricedCart, locale = 'en-US'): WirePricing {
  const money = (minor: bigint) => toWireMoney(minor, priced.currency, locale);
  const taxRate = priced.tax.rate ? formatDecimal(parseDecimal(priced.tax.rate.percent), 2) : '0';
  const taxDetails = (taxableAmount: bigint, tax: bigint): WireTaxDetails => ({
    taxableAmount: money(taxableAmount),
    taxRate,
    totalTax: money(tax),
  });
  const logistics = (option: ShippingOptionResult): WireLogistics => ({
    ...(option.deliveryTime !== undefined && { deliveryTime: option.deliveryTime }),
    ...(option.instructions !== undefined && { instructions: option.instructions }),
    ...(option.kind === 'PICKUP' && {
      pickupDetails: {
        ...(option.pickupAddress !== undefined && { address: option.pickupAddress }),
        pickupMethod: 'STORE_PICKUP' as const,
      },
    }),
  });
  const taxedLines = new Map(priced.tax.lines.map((line) => [line.lineItemId, line.taxableAmount]));
  const includesTax = priced.tax.pricesIncludeTax;
  const { shipping } = priced;

  return {
    currency: priced.currency,
    calculatedLineItems: priced.lines.map((line) => ({
      lineItemId: line.id,
      pricesBreakdown: {
        price: money(line.price),
        fullPrice: money(line.fullPrice),
        priceBeforeDiscounts: money(line.price),
        lineItemPrice: money(line.lineSubtotal),
        totalDiscount: money(line.discount),
        totalPriceBeforeTax: money(line.totalBeforeTax),
        totalPriceAfterTax: money(line.totalAfterTax),
        taxDetails: taxDetails(taxedLines.get(line.id) ?? 0n, line.tax),
      },
      availability: line.availability,
    })),
    priceSummary: {
      subtotal: money(priced.totals.subtotal),
      discount: money(priced.totals.discount),
      shipping: money(priced.totals.shipping),
      tax: money(priced.totals.tax),
      total: money(priced.totals.total),
      ...(priced.additionalFees?.length || priced.tip ? { additionalFees: money((priced.additionalFeesBeforeTax ?? 0n) + (priced.tip?.amount ?? 0n)) } : {}),
    },
    additionalFees: (priced.additionalFees ?? []).map((fee): WireAdditionalFee => ({
      code: fee.code,
      name: fee.name,
      price: money(fee.price),
      taxDetails: taxDetails(fee.tax > 0n ? fee.price : 0n, fee.tax),
      priceBeforeTax: money(includesTax ? fee.price - fee.tax : fee.price),
      priceAfterTax: money(includesTax ? fee.price : fee.price + fee.tax),
      lineItemIds: [],
      source: 'PLATFORM',
    })).concat(priced.tip ? [{
      code: priced.tip.id,
      name: 'Tip',
      price: money(priced.tip.amount),
      taxDetails: { ...taxDetails(0n, 0n), taxRate: '0' },
      priceBeforeTax: money(priced.tip.amount),
      priceAfterTax: money(priced.tip.amount),
      lineItemIds: [],
      providerAppId: TIPS_APP_ID,
      source: 'SERVICE_PLUGIN',
    } satisfies WireAdditionalFee] : []),
    appliedDiscounts: priced.appliedDiscounts.map((discount) =>
      discount.source === 'COUPON'
        ? {
            discountType: discount.discountType,
            lineItemIds: discount.lineItemIds,
            coupon: { ...discount.coupon, amount: money(discount.amount) },
          }
        : {
            discountType: discount.discountType,
            lineItemIds: discount.lineItemIds,
            merchantDiscount: { amount: money(discount.amount) },
          },
    ),
    shippingInfo: {
      ...(shipping.region && { region: shipping.region }),
      ...(shipping.selected && {
        selectedCarrierServiceOption: {
          code: shipping.selected.code,
          title: shipping.selected.title,
          logistics: logistics(shipping.selected),
          cost: {
            price: money(shipping.cost),
            totalPriceBeforeTax: money(includesTax ? shipping.cost - shipping.tax : shipping.cost),
            totalPriceAfterTax: money(includesTax ? shipping.cost : shipping.cost + shipping.tax),
            totalDiscount: money(0n),
            taxDetails: taxDetails(priced.tax.shipping.taxableAmount, priced.tax.shipping.tax),
          },
          requestedShippingOption: shipping.selected.requested,
          carrierId: SHIPPING_CARRIER_ID,
        },
      }),
      carrierServiceOptions: shipping.options.length
        ? [
            {
              carrierId: SHIPPING_CARRIER_ID,
              shippingOptions: shipping.options.map((option) => ({
                code: option.code,
                title: option.title,
                logistics: logistics(option),
                cost: { price: money(option.cost) },
              })),
            },
          ]
        : [],
    },
    taxSummary: {
      taxableAmount: money(priced.tax.taxableAmount),
      totalTax: money(priced.tax.total),
      ...(priced.tax.rate && { manualTaxRate: taxRate }),
      calculationDetails: {
        rateType: priced.tax.status,
        ...(priced.tax.status === 'MANUAL_RATE' && { manualRateReason: 'GLOBAL_SETTING_TO_MANUAL' as const }),
      },
    },
    ...(priced.coupon?.status === 'REJECTED' && {
      calculationErrors: {
        couponCalculationError: {
          applicationError: { code: priced.coupon.reason, description: priced.coupon.description },
        },
      },
    }),
    violations: priced.violations.map((violation) => ({
      severity: violation.severity,
      target:
        'lineItem' in violation.target
          ? {
              lineItem: {
                name: 'LINE_ITEM_DEFAULT' as const,
                id: violation.target.lineItem.id,
                ...(violation.suggestedFix && { suggestedFix: violation.suggestedFix }),
              },
            }
          : { other: violation.target.other },
      description: violation.description,
    })),
  };
}
