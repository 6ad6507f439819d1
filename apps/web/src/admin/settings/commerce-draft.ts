import { z } from 'zod';
import {
  COMMERCE_SETTINGS_LIMITS as L, INVENTORY_UPDATE_TRIGGERS, SHIPPING_RULE_OPERATORS, SHIPPING_RULE_TYPES, WEIGHT_UNITS,
  type CommerceSettings, type PickupOption, type ShippingRegion, type ShippingRule,
} from '@bodega/sdk';
import { isZeroAmount } from '../../ui/money.js';

// Amounts are kept and sent as the decimal strings typed; they are only checked, never converted.
const MONEY = /^\d{1,9}(\.\d{1,2})?$/;
const DECIMAL = /^\d{1,9}(\.\d{1,4})?$/;
const MONEY_HINT = 'A number such as 5 or 4.95';
const CODE = new RegExp(`^[A-Za-z0-9_-]{1,${L.code}}$`);

/**
 * The whole form as one draft (react-hook-form keeps it; its defaults are what was last loaded or
 * saved, so "dirty" and "Discard" compare with and return to that). Text the wire leaves out is ""
 * here. A rule's `condition` ANY means "every order": the wire has no such condition, so it is sent
 * as "item count at least 0", and such a rule reads back as ANY.
 */
export interface DraftRule { code: string; title: string; rate: string; deliveryTime: string; condition: 'ANY' | ShippingRule['type']; operator: ShippingRule['operator']; threshold: string }
/** A region's own tax-on-shipping switch; STORE: the Tax section's setting decides. */
export type TaxShipping = 'STORE' | 'YES' | 'NO';
export interface DraftRegion { regionId: string; name: string; country: string; subdivision: string; taxShipping: TaxShipping; rules: DraftRule[] }
export interface DraftAddress { addressLine: string; city: string; postalCode: string; subdivision: string; country: string }
/** `otherAddress`: what the wire's address holds beyond the fields edited here, kept as it is. */
export interface DraftPickup { code: string; title: string; cost: string; instructions: string; address: DraftAddress; otherAddress: Record<string, unknown> }
export interface DraftRate { country: string; subdivision: string; rate: string; name: string }
export interface Draft {
  trigger: NonNullable<CommerceSettings['inventoryUpdateTrigger']>;
  weightUnit: NonNullable<CommerceSettings['weightUnit']>;
  shippingRegions: DraftRegion[];
  pickupOptions: DraftPickup[];
  tax: { pricesIncludeTax: boolean; taxShipping: boolean; rates: DraftRate[] };
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');
/** "" is "not given": left out of what is sent. */
const optional = (value: string) => (value.trim() === '' ? undefined : value.trim());
const ADDRESS_FIELDS = ['addressLine', 'city', 'postalCode', 'subdivision', 'country'] as const;

export function toDraft(s: CommerceSettings): Draft {
  return {
    trigger: s.inventoryUpdateTrigger ?? 'ON_ORDER_PLACED',
    weightUnit: s.weightUnit ?? 'KG',
    shippingRegions: (s.shippingRegions ?? []).map((r) => ({
      regionId: r.id, name: r.name, country: r.country, subdivision: r.subdivision ?? '',
      taxShipping: r.taxShipping === undefined ? 'STORE' : r.taxShipping ? 'YES' : 'NO',
      rules: r.rules.map((rule) => ({
        code: rule.code, title: rule.title, rate: rule.rate, deliveryTime: rule.deliveryTime ?? '', operator: rule.operator, threshold: rule.threshold,
        condition: rule.operator === 'GTE' && rule.type === 'BY_TOTAL_QUANTITY' && isZeroAmount(rule.threshold) ? 'ANY' : rule.type,
      })),
    })),
    pickupOptions: (s.pickupOptions ?? []).map((o) => {
      // A formatted address would no longer match once a line is edited here.
      const { addressLine, city, postalCode, subdivision, country, formattedAddress: _formatted, ...otherAddress } = o.address ?? {};
      return {
        code: o.code, title: o.title, cost: o.cost, instructions: o.instructions ?? '', otherAddress,
        address: { addressLine: text(addressLine), city: text(city), postalCode: text(postalCode), subdivision: text(subdivision), country: text(country) },
      };
    }),
    tax: {
      pricesIncludeTax: s.tax?.pricesIncludeTax ?? false,
      taxShipping: s.tax?.taxShipping ?? false,
      rates: (s.tax?.rates ?? []).map((r) => ({ country: r.country, subdivision: r.subdivision ?? '', rate: r.rate, name: r.name ?? '' })),
    },
  };
}

/** The draft as the settings call takes it: one save sends it all. */
export function fromDraft(d: Draft): CommerceSettings {
  const shippingRegions = d.shippingRegions.map((r): ShippingRegion => ({
    id: r.regionId, name: r.name.trim(), country: r.country, subdivision: optional(r.subdivision),
    ...(r.taxShipping !== 'STORE' && { taxShipping: r.taxShipping === 'YES' }),
    rules: r.rules.map(({ condition, ...rule }): ShippingRule => ({
      code: rule.code, title: rule.title.trim(), rate: rule.rate, deliveryTime: optional(rule.deliveryTime),
      ...(condition === 'ANY' ? { type: 'BY_TOTAL_QUANTITY', operator: 'GTE', threshold: '0' } : { type: condition, operator: rule.operator, threshold: rule.threshold }),
    })),
  }));
  const pickupOptions = d.pickupOptions.map((o): PickupOption => {
    const address: Record<string, unknown> = { ...o.otherAddress };
    for (const key of ADDRESS_FIELDS) {
      const value = optional(o.address[key]);
      if (value !== undefined) address[key] = value;
    }
    return { code: o.code, title: o.title.trim(), cost: o.cost, instructions: optional(o.instructions), ...(Object.keys(address).length > 0 && { address }) };
  });
  const rates = d.tax.rates.map((r) => ({ country: r.country, subdivision: optional(r.subdivision), rate: r.rate, name: optional(r.name) }));
  return { inventoryUpdateTrigger: d.trigger, weightUnit: d.weightUnit, shippingRegions, pickupOptions, tax: { pricesIncludeTax: d.tax.pricesIncludeTax, taxShipping: d.tax.taxShipping, rates } };
}

const atMost = (n: number) => `At most ${n} characters`;
const named = (message: string, max: number) => z.string().refine((v) => v.trim() !== '', message).refine((v) => v.trim().length <= max, atMost(max));
const subdivision = z.string().max(L.subdivision, `At most ${L.subdivision} characters, such as US-CA`);
const TWO_LETTERS = /^[A-Z]{2}$/;

const ruleSchema = z.object({
  code: z.string().regex(CODE, 'Letters, digits, - or _ (rules with the same code are tiers of one option)'),
  title: named('Give the option a name shoppers see', L.title),
  rate: z.string().regex(MONEY, MONEY_HINT),
  deliveryTime: z.string().max(L.deliveryTime, atMost(L.deliveryTime)),
  condition: z.enum(['ANY', ...SHIPPING_RULE_TYPES]),
  operator: z.enum(SHIPPING_RULE_OPERATORS),
  threshold: z.string(),
}).superRefine((rule, ctx) => {
  if (rule.condition === 'ANY') return;
  const threshold = rule.condition === 'BY_TOTAL_PRICE' ? MONEY : rule.condition === 'BY_TOTAL_QUANTITY' ? /^\d{1,9}$/ : DECIMAL;
  if (threshold.test(rule.threshold)) return;
  const message = rule.condition === 'BY_TOTAL_QUANTITY' ? 'A whole number of items' : rule.condition === 'BY_TOTAL_PRICE' ? MONEY_HINT : 'A weight such as 2 or 0.5';
  ctx.addIssue({ code: 'custom', path: ['threshold'], message });
});

/**
 * What the settings call accepts, as the form checks it before sending: the server's limits (the
 * lengths and counts of `COMMERCE_SETTINGS_LIMITS`, the allowed values) and its formats, with a
 * message in words for each field (paths as the server's: `shippingRegions.0.rules.1.rate`).
 */
export const draftSchema = z.object({
  trigger: z.enum(INVENTORY_UPDATE_TRIGGERS),
  weightUnit: z.enum(WEIGHT_UNITS),
  shippingRegions: z.array(z.object({
    regionId: z.string().min(1).max(L.code),
    name: named('Name the region', L.regionName),
    country: z.string().regex(/^([A-Z]{2}|\*)$/, 'A two-letter country code such as US, or * for everywhere else'),
    subdivision,
    taxShipping: z.enum(['STORE', 'YES', 'NO']),
    rules: z.array(ruleSchema).min(1, 'Add at least one rule, or remove the region').max(L.rulesPerRegion, `At most ${L.rulesPerRegion} rules in a region`),
  })).max(L.shippingRegions, `At most ${L.shippingRegions} regions`),
  pickupOptions: z.array(z.object({
    code: z.string().regex(CODE, 'Letters, digits, - or _'),
    title: named('Name the pickup place', L.title),
    cost: z.string().regex(MONEY, MONEY_HINT),
    instructions: z.string().max(L.instructions, atMost(L.instructions)),
    address: z.object({
      addressLine: z.string(), city: z.string(), postalCode: z.string(), subdivision,
      country: z.string().refine((v) => v === '' || TWO_LETTERS.test(v), 'A two-letter country code such as US'),
    }),
    otherAddress: z.record(z.string(), z.unknown()),
  })).max(L.pickupOptions, `At most ${L.pickupOptions} pickup places`),
  tax: z.object({
    pricesIncludeTax: z.boolean(),
    taxShipping: z.boolean(),
    rates: z.array(z.object({
      country: z.string().regex(TWO_LETTERS, 'A two-letter country code such as US'),
      subdivision,
      rate: z.string().refine((v) => DECIMAL.test(v) && Number(v) <= 100, 'A percent such as 7.25'),
      name: z.string().max(L.taxRateName, atMost(L.taxRateName)),
    })).max(L.taxRates, `At most ${L.taxRates} rates`),
  }),
});
