import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Address } from '../commerce/addresses.js';
import {
  ADDITIONAL_FEE_KINDS, COMMERCE_SETTINGS_LIMITS as L, INVENTORY_UPDATE_TRIGGERS, TIP_SETTINGS_TYPES, TIP_SPLITS, SHIPPING_RULE_OPERATORS, SHIPPING_RULE_TYPES, WEIGHT_UNITS,
} from '../../platform/field-limits.js';
import type { CommerceSettingsService } from './service.js';

/** One of the values, as a union of literals (the schema's shape: anyOf of consts). */
const oneOf = <T extends string>(values: readonly T[]) => Type.Unsafe<T>(Type.Union(values.map((v) => Type.Literal(v))));
const Decimal = Type.String({ maxLength: L.decimal, pattern: '^\\d+(\\.\\d+)?$' });
const SettingsBody = Type.Object({
  settings: Type.Object({
    inventoryUpdateTrigger: Type.Optional(oneOf(INVENTORY_UPDATE_TRIGGERS)),
    weightUnit: Type.Optional(oneOf(WEIGHT_UNITS)),
    shippingRegions: Type.Optional(Type.Array(Type.Object({
      id: Type.String({ minLength: 1, maxLength: L.code }),
      name: Type.String({ maxLength: L.regionName }),
      country: Type.String({ minLength: 1, maxLength: 3 }),
      subdivision: Type.Optional(Type.String({ maxLength: L.subdivision })),
      taxShipping: Type.Optional(Type.Boolean()),
      rules: Type.Array(Type.Object({
        code: Type.String({ minLength: 1, maxLength: L.code }),
        title: Type.String({ maxLength: L.title }),
        rate: Decimal,
        deliveryTime: Type.Optional(Type.String({ maxLength: L.deliveryTime })),
        type: oneOf(SHIPPING_RULE_TYPES),
        operator: oneOf(SHIPPING_RULE_OPERATORS),
        threshold: Decimal,
      }), { maxItems: L.rulesPerRegion }),
    }), { maxItems: L.shippingRegions })),
    pickupOptions: Type.Optional(Type.Array(Type.Object({
      code: Type.String({ minLength: 1, maxLength: L.code }),
      title: Type.String({ maxLength: L.title }),
      cost: Decimal,
      instructions: Type.Optional(Type.String({ maxLength: L.instructions })),
      address: Type.Optional(Address),
    }), { maxItems: L.pickupOptions })),
    tax: Type.Optional(Type.Union([Type.Null(), Type.Object({
      pricesIncludeTax: Type.Optional(Type.Boolean()),
      taxShipping: Type.Optional(Type.Boolean()),
      rates: Type.Array(Type.Object({
        country: Type.String({ minLength: 2, maxLength: 2 }),
        subdivision: Type.Optional(Type.String({ maxLength: L.subdivision })),
        rate: Decimal,
        name: Type.Optional(Type.String({ maxLength: L.taxRateName })),
      }), { maxItems: L.taxRates }),
    })])),
    paymentProvider: Type.Optional(Type.String({ maxLength: L.paymentProvider })),
    // Additional fees (services/commerce/pricing/fees.ts): an amount or a percent each, taxed or not.
    additionalFees: Type.Optional(Type.Array(Type.Object({
      kind: oneOf(ADDITIONAL_FEE_KINDS),
      name: Type.String({ minLength: 1, maxLength: L.title }),
      amount: Type.Optional(Decimal),
      percent: Type.Optional(Decimal),
      taxable: Type.Optional(Type.Boolean()),
    }), { maxItems: L.additionalFees })),
    // Tips at checkout (tips.ts; the official tipSettings calls are in tip-settings-routes.ts).
    tips: Type.Optional(Type.Object({
      enabled: Type.Optional(Type.Boolean()),
      tipType: Type.Optional(oneOf(TIP_SETTINGS_TYPES)),
      presets: Type.Optional(Type.Array(Type.Object({ value: Decimal, default: Type.Optional(Type.Boolean()) }), { minItems: 1, maxItems: L.tipPresets })),
      allowCustomAmount: Type.Optional(Type.Boolean()),
      split: Type.Optional(oneOf(TIP_SPLITS)),
    })),
  }),
});

/** The answer is the settings as stored (with the defaults filled in): the shape the body sends. */
const SettingsAnswer = SettingsBody;

export function commerceSettingsRoutes(settings: CommerceSettingsService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    // Shipping regions and rules, pickup, tax and the inventory trigger (Bodega's own call).
    const path = '/_api/bodega/v1/commerce-settings';
    const config = { access: 'staff' } as const;
    app.get(path, { config, schema: { response: { 200: SettingsAnswer } } }, async (req) => ({ settings: await settings.stored(req.ctx) }));
    app.patch(path, { config, schema: { body: SettingsBody, response: { 200: SettingsAnswer } } }, async (req) => ({
      settings: await settings.update(req.ctx, req.body.settings),
    }));
  };
}
