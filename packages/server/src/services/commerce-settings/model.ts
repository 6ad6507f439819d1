// The parsed commerce settings pricing reads: shipping regions and rules, pickup and tax (amounts in
// minor units). The stored and wire form, with decimal strings, is in settings.ts.

export interface Address {
  country?: string | null;
  subdivision?: string | null;
}

export type ShippingRuleOperator = 'EQ' | 'GT' | 'GTE' | 'LT' | 'LTE';

/** Compared with what is shipped: the physical lines' total weight, price after discounts, or units. */
export type ShippingCondition =
  | { type: 'BY_TOTAL_WEIGHT'; operator: ShippingRuleOperator; threshold: string | number }
  | { type: 'BY_TOTAL_PRICE'; operator: ShippingRuleOperator; threshold: bigint }
  | { type: 'BY_TOTAL_QUANTITY'; operator: ShippingRuleOperator; threshold: number };

export type ShippingRule = ShippingCondition & {
  /** Carrier service option code; rules sharing a code are tiers of one option. */
  code: string;
  title: string;
  rate: bigint;
  deliveryTime?: string;
};

export interface ShippingRegion {
  id: string;
  name: string;
  /** ISO 3166-1 alpha-2, or "*" for the rest of the world. */
  country: string;
  /** ISO 3166-2 code ("US-CA" or "CA"); absent: the whole country. */
  subdivision?: string;
  rules: readonly ShippingRule[];
  /** Whether shipping to this region is taxed; absent: the site's tax setting. */
  taxShipping?: boolean;
}

export interface PickupOption {
  code: string;
  title: string;
  address?: Address & Record<string, unknown>;
  cost: bigint;
  instructions?: string;
}

export interface TaxRate {
  country: string;
  subdivision?: string;
  /** Percent as a decimal string: "7.25". */
  rate: string;
  name?: string;
}

export interface TaxSettings {
  rates: readonly TaxRate[];
  /** Catalog prices and shipping rates already contain tax. */
  pricesIncludeTax: boolean;
  /** Whether shipping is taxed where a region does not say. */
  taxShipping: boolean;
}


export type FeeKind = 'HANDLING_FEE' | 'INSURANCE';

/** An additional fee as the merchant sets it (settings `additionalFees`; priced by commerce/pricing/fees.ts). */
export interface AdditionalFeeRule {
  kind: FeeKind;
  name: string;
  /** Exactly one of: a fixed amount in minor units, or a percent ("1.5") of the discounted goods. */
  amount?: bigint;
  percent?: string;
  taxable: boolean;
}

export type TipSettingsType = 'PERCENTAGE' | 'AMOUNT';
export type TipType = TipSettingsType | 'CUSTOM';
export type TipSplit = 'EQUAL' | 'PROPORTIONAL';

/** The site's tips (the official tipSettings, one per site), as pricing reads them. */
export interface TipSettings {
  /** Whether the shop's checkout offers tips (tipSettings.allowCustomerTip). */
  enabled: boolean;
  /** What the presets are: percentages of the discounted goods, or amounts. */
  tipType: TipSettingsType;
  /** 1 to 3 presets: a percent ("15") or an amount ("2.50"), as decimals; at most one is the default. */
  presets: { value: string; default: boolean }[];
  /** Whether a shopper may enter an amount of their own (CUSTOM). */
  allowCustomAmount: boolean;
  /** How the tip is split among staff; kept on the order as given (Bodega has no staff to split among). */
  split: TipSplit;
}
