// A site's commerce settings (shipping regions and rules, pickup, tax, inventory trigger), kept
// under `settings.commerce` of the site as decimal strings, read into model.ts's types (what cart pricing uses).
import type { FieldViolation } from '../../platform/errors.js';
import { ADDITIONAL_FEE_KINDS } from '../../platform/field-limits.js';
import { MoneyError, parseAmount, parseDecimal } from '../../platform/money.js';
import type { AdditionalFeeRule, PickupOption, ShippingRegion, ShippingRule, ShippingRuleOperator, TaxSettings, TipSettings } from './model.js';
import { readTipSettings, type StoredTipSettings } from './tips.js';

export type InventoryUpdateTrigger = 'ON_ORDER_PLACED' | 'ON_ORDER_PAID';
export type WeightUnit = 'KG' | 'LB';

export interface CommerceSettings {
  inventoryUpdateTrigger: InventoryUpdateTrigger;
  weightUnit: WeightUnit;
  shippingRegions: ShippingRegion[];
  pickupOptions: PickupOption[];
  /** Absent: no tax is collected. */
  tax?: TaxSettings;
  /** The payment provider create-order-and-charge uses. */
  paymentProvider: string;
  /** Additional fees on orders with physical goods (HANDLING_FEE, INSURANCE). */
  additionalFees: AdditionalFeeRule[];
  /** Tips at checkout (off by default; tips.ts). */
  tips: TipSettings;
}

/** The stored (and wire) form: amounts and thresholds as decimal strings. */
export interface StoredCommerceSettings {
  inventoryUpdateTrigger?: InventoryUpdateTrigger;
  weightUnit?: WeightUnit;
  shippingRegions?: {
    id: string;
    name: string;
    country: string;
    subdivision?: string;
    taxShipping?: boolean;
    rules: { code: string; title: string; rate: string; deliveryTime?: string; type: ShippingRule['type']; operator: ShippingRuleOperator; threshold: string }[];
  }[];
  pickupOptions?: { code: string; title: string; cost: string; instructions?: string; address?: Record<string, unknown> }[];
  tax?: { pricesIncludeTax?: boolean; taxShipping?: boolean; rates: { country: string; subdivision?: string; rate: string; name?: string }[] } | null;
  paymentProvider?: string;
  /** Exactly one of `amount` (in the site's currency) or `percent` (of the discounted goods) each. */
  additionalFees?: { kind: AdditionalFeeRule['kind']; name: string; amount?: string; percent?: string; taxable?: boolean }[];
  /** Tips at checkout (tips.ts); the defaults when absent. */
  tips?: StoredTipSettings;
}

/** A new site ships anywhere for free until the merchant sets rates. */
export const DEFAULT_COMMERCE_SETTINGS: StoredCommerceSettings = {
  inventoryUpdateTrigger: 'ON_ORDER_PLACED',
  weightUnit: 'KG',
  shippingRegions: [
    {
      id: 'worldwide',
      name: 'Worldwide',
      country: '*',
      rules: [{ code: 'standard', title: 'Standard delivery', rate: '0', deliveryTime: '3-5 business days', type: 'BY_TOTAL_QUANTITY', operator: 'GTE', threshold: '0' }],
    },
  ],
  pickupOptions: [],
  tax: null,
  paymentProvider: 'test',
};

const OPERATORS: readonly ShippingRuleOperator[] = ['EQ', 'GT', 'GTE', 'LT', 'LTE'];
const RULE_TYPES: readonly ShippingRule['type'][] = ['BY_TOTAL_WEIGHT', 'BY_TOTAL_PRICE', 'BY_TOTAL_QUANTITY'];

/**
 * Reads stored settings over the defaults, collecting what is wrong instead of throwing, so the
 * settings route can answer every problem at once.
 */
export function readCommerceSettings(stored: StoredCommerceSettings | undefined, currency: string, violations: FieldViolation[] = []): CommerceSettings {
  const s: StoredCommerceSettings = { ...DEFAULT_COMMERCE_SETTINGS, ...(stored ?? {}) };
  const money = (field: string, value: string): bigint => {
    try {
      return parseAmount(value, currency);
    } catch (error) {
      if (!(error instanceof MoneyError)) throw error;
      violations.push({ field, rule: error.rule === 'DECIMAL_MAX_SCALE' ? 'DECIMAL_MAX_SCALE' : 'FORMAT', description: error.message });
      return 0n;
    }
  };
  const decimal = (field: string, value: string): string => {
    try {
      if (parseDecimal(value).units < 0n) throw new MoneyError('NEGATIVE', `"${value}" must not be negative`);
      return value;
    } catch (error) {
      if (!(error instanceof MoneyError)) throw error;
      violations.push({ field, rule: 'FORMAT', description: error.message });
      return '0';
    }
  };
  if (s.inventoryUpdateTrigger !== 'ON_ORDER_PLACED' && s.inventoryUpdateTrigger !== 'ON_ORDER_PAID') {
    violations.push({ field: 'inventoryUpdateTrigger', rule: 'INVALID_ENUM_VALUE', description: 'must be ON_ORDER_PLACED or ON_ORDER_PAID', data: { allowedValues: ['ON_ORDER_PLACED', 'ON_ORDER_PAID'] } });
  }
  if (s.weightUnit !== 'KG' && s.weightUnit !== 'LB') {
    violations.push({ field: 'weightUnit', rule: 'INVALID_ENUM_VALUE', description: 'must be KG or LB', data: { allowedValues: ['KG', 'LB'] } });
  }
  const countryCode = (field: string, value: unknown, rest: boolean) => {
    if (typeof value === 'string' && (/^[A-Z]{2}$/.test(value) || (rest && value === '*'))) return;
    violations.push({ field, rule: 'FORMAT', description: rest ? 'must be a two-letter country code such as US, or * for everywhere else' : 'must be a two-letter country code such as US' });
  };
  (s.shippingRegions ?? []).forEach((region, i) => countryCode(`shippingRegions[${i}].country`, region.country, true));
  (s.pickupOptions ?? []).forEach((p, i) => {
    const country = p.address?.country;
    if (country !== undefined && country !== null) countryCode(`pickupOptions[${i}].address.country`, country, false);
  });
  const shippingRegions: ShippingRegion[] = (s.shippingRegions ?? []).map((region, i) => ({
    id: region.id,
    name: region.name,
    country: region.country,
    ...(region.subdivision !== undefined && { subdivision: region.subdivision }),
    ...(region.taxShipping !== undefined && { taxShipping: region.taxShipping }),
    rules: region.rules.map((rule, j): ShippingRule => {
      const field = `shippingRegions[${i}].rules[${j}]`;
      if (!OPERATORS.includes(rule.operator)) violations.push({ field: `${field}.operator`, rule: 'INVALID_ENUM_VALUE', description: `must be one of ${OPERATORS.join(', ')}` });
      if (!RULE_TYPES.includes(rule.type)) violations.push({ field: `${field}.type`, rule: 'INVALID_ENUM_VALUE', description: `must be one of ${RULE_TYPES.join(', ')}` });
      const base = { code: rule.code, title: rule.title, rate: money(`${field}.rate`, rule.rate), ...(rule.deliveryTime !== undefined && { deliveryTime: rule.deliveryTime }) };
      switch (rule.type) {
        case 'BY_TOTAL_PRICE':
          return { ...base, type: rule.type, operator: rule.operator, threshold: money(`${field}.threshold`, rule.threshold) };
        case 'BY_TOTAL_QUANTITY': {
          const threshold = Number(decimal(`${field}.threshold`, rule.threshold));
          if (!Number.isSafeInteger(threshold)) violations.push({ field: `${field}.threshold`, rule: 'FORMAT', description: 'a quantity threshold is a whole number' });
          return { ...base, type: rule.type, operator: rule.operator, threshold };
        }
        default:
          return { ...base, type: 'BY_TOTAL_WEIGHT', operator: rule.operator, threshold: decimal(`${field}.threshold`, rule.threshold) };
      }
    }),
  }));
  const pickupOptions: PickupOption[] = (s.pickupOptions ?? []).map((p, i) => ({
    code: p.code,
    title: p.title,
    cost: money(`pickupOptions[${i}].cost`, p.cost),
    ...(p.instructions !== undefined && { instructions: p.instructions }),
    ...(p.address !== undefined && { address: p.address }),
  }));
  let tax: TaxSettings | undefined;
  if (s.tax) {
    tax = {
      pricesIncludeTax: s.tax.pricesIncludeTax ?? false,
      taxShipping: s.tax.taxShipping ?? false,
      rates: s.tax.rates.map((r, i) => ({ ...r, rate: decimal(`tax.rates[${i}].rate`, r.rate) })),
    };
  }
  const additionalFees: AdditionalFeeRule[] = (s.additionalFees ?? []).map((fee, i) => {
    const field = `additionalFees[${i}]`;
    if (!(ADDITIONAL_FEE_KINDS as readonly string[]).includes(fee.kind)) violations.push({ field: `${field}.kind`, rule: 'INVALID_ENUM_VALUE', description: `must be ${ADDITIONAL_FEE_KINDS.join(' or ')}`, data: { allowedValues: [...ADDITIONAL_FEE_KINDS] } });
    if ((fee.amount === undefined) === (fee.percent === undefined)) violations.push({ field, rule: 'ONE_OF_ALIGNMENT', description: 'a fee has an amount or a percent, not both' });
    return {
      kind: fee.kind, name: fee.name, taxable: fee.taxable ?? false,
      ...(fee.amount !== undefined ? { amount: money(`${field}.amount`, fee.amount) } : { percent: decimal(`${field}.percent`, fee.percent ?? '0') }),
    };
  });
  if (new Set(additionalFees.map((f) => f.kind)).size < additionalFees.length) violations.push({ field: 'additionalFees', rule: 'VALIDATION', description: 'one fee of each kind' });
  return {
    inventoryUpdateTrigger: s.inventoryUpdateTrigger ?? 'ON_ORDER_PLACED',
    weightUnit: s.weightUnit ?? 'KG',
    shippingRegions,
    pickupOptions,
    ...(tax && { tax }),
    paymentProvider: s.paymentProvider ?? 'test',
    additionalFees,
    tips: readTipSettings(s.tips, currency, violations),
  };
}

const parsed = new WeakMap<object, CommerceSettings>();

/** The commerce settings of a site (settings objects are cached by the sites service, so is this). */
export function commerceSettingsOf(site: { settings: { currency: string; commerce?: unknown } }): CommerceSettings {
  const hit = parsed.get(site.settings);
  if (hit) return hit;
  const settings = readCommerceSettings(site.settings.commerce as StoredCommerceSettings | undefined, site.settings.currency);
  parsed.set(site.settings, settings);
  return settings;
}
